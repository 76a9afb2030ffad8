//! The numpy arrays of `VecEnv.reset`/`step` and their `info` dict, generated from
//! the one table of step outputs (`crate::batch::step_outputs`).

use numpy::{
    PyArray1, PyArray4, PyArrayDyn, PyArrayMethods, PyReadwriteArray4, PyReadwriteArrayDyn,
};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::args::PlaneDtype as ObsKind;
use crate::batch::{step_outputs, Dims, ObsOut, PerEnv, StepBuffers};

/// Zeros shaped `(n,)` or `(n, len)`; `None` for an output the batch does not produce.
fn zeros<T: numpy::Element>(
    py: Python<'_>,
    n: usize,
    per_env: PerEnv,
) -> Option<Py<PyArrayDyn<T>>> {
    let array = match per_env {
        PerEnv::Absent => return None,
        PerEnv::Scalar => PyArrayDyn::<T>::zeros(py, &[n][..], false),
        PerEnv::Row(len) => PyArrayDyn::<T>::zeros(py, &[n, len][..], false),
    };
    Some(array.unbind())
}

/// Observation planes `(n, players, height, width)` of the batch's dtype.
pub(crate) fn obs_zeros(py: Python<'_>, kind: ObsKind, shape: [usize; 4]) -> Py<PyAny> {
    match kind {
        ObsKind::U8 => PyArray4::<u8>::zeros(py, shape, false).into_any().unbind(),
        ObsKind::Bool => PyArray4::<bool>::zeros(py, shape, false)
            .into_any()
            .unbind(),
        ObsKind::F32 => PyArray4::<f32>::zeros(py, shape, false).into_any().unbind(),
    }
}

/// An observation array borrowed for writing.
pub(crate) enum ObsGuard<'py> {
    U8(PyReadwriteArray4<'py, u8>),
    Bool(PyReadwriteArray4<'py, bool>),
    F32(PyReadwriteArray4<'py, f32>),
}

impl<'py> ObsGuard<'py> {
    pub(crate) fn new(array: &Bound<'py, PyAny>, kind: ObsKind) -> PyResult<ObsGuard<'py>> {
        Ok(match kind {
            ObsKind::U8 => ObsGuard::U8(array.cast::<PyArray4<u8>>()?.try_readwrite()?),
            ObsKind::Bool => ObsGuard::Bool(array.cast::<PyArray4<bool>>()?.try_readwrite()?),
            ObsKind::F32 => ObsGuard::F32(array.cast::<PyArray4<f32>>()?.try_readwrite()?),
        })
    }

    pub(crate) fn slice(&mut self) -> PyResult<ObsOut<'_>> {
        Ok(match self {
            ObsGuard::U8(a) => ObsOut::U8(a.as_slice_mut()?),
            ObsGuard::Bool(a) => ObsOut::Bool(a.as_slice_mut()?),
            ObsGuard::F32(a) => ObsOut::F32(a.as_slice_mut()?),
        })
    }
}

macro_rules! declare_outputs {
    ($($field:ident: $t:ty, $per_env:ident, $key:literal;)*) => {
        /// The arrays one `reset`/`step` fills and returns: one per step output
        /// (`None` where the batch does not produce it), the observations, and
        /// `truncated`, which no step writes (all False: fresh zeros, or with
        /// `reuse_buffers` the one read-only array every call returns).
        pub(crate) struct Outputs {
            pub(crate) obs: Py<PyAny>,
            /// Same-step autoreset only.
            pub(crate) final_obs: Option<Py<PyAny>>,
            pub(crate) truncated: Py<PyArray1<bool>>,
            $(pub(crate) $field: Option<Py<PyArrayDyn<$t>>>,)*
        }

        /// Every array of an [`Outputs`], borrowed for writing.
        pub(crate) struct Guards<'py> {
            obs: ObsGuard<'py>,
            final_obs: Option<ObsGuard<'py>>,
            $($field: Option<PyReadwriteArrayDyn<'py, $t>>,)*
        }

        impl Outputs {
            /// Zeroed arrays for `n` envs of sizes `d`; `final_obs` for same-step autoreset.
            pub(crate) fn new(py: Python<'_>, d: &Dims, planes: [usize; 4], kind: ObsKind, final_obs: bool) -> Outputs {
                let n = planes[0];
                Outputs {
                    obs: obs_zeros(py, kind, planes),
                    final_obs: final_obs.then(|| obs_zeros(py, kind, planes)),
                    truncated: PyArray1::zeros(py, n, false).unbind(),
                    $($field: zeros::<$t>(py, n, d.$per_env()),)*
                }
            }

            /// The same arrays (for `reuse_buffers`).
            pub(crate) fn clone_ref(&self, py: Python<'_>) -> Outputs {
                Outputs {
                    obs: self.obs.clone_ref(py),
                    final_obs: self.final_obs.as_ref().map(|f| f.clone_ref(py)),
                    truncated: self.truncated.clone_ref(py),
                    $($field: self.$field.as_ref().map(|a| a.clone_ref(py)),)*
                }
            }

            /// Borrows every array for writing (observations of dtype `kind`).
            pub(crate) fn borrow<'py>(&self, py: Python<'py>, kind: ObsKind) -> PyResult<Guards<'py>> {
                Ok(Guards {
                    obs: ObsGuard::new(self.obs.bind(py), kind)?,
                    final_obs: match &self.final_obs {
                        Some(f) => Some(ObsGuard::new(f.bind(py), kind)?),
                        None => None,
                    },
                    $($field: match &self.$field {
                        Some(a) => Some(a.bind(py).try_readwrite()?),
                        None => None,
                    },)*
                })
            }

            /// Puts the outputs this batch produces that have an `info` key into `info`.
            pub(crate) fn fill_info(&self, py: Python<'_>, info: &Bound<'_, PyDict>) -> PyResult<()> {
                $(if let (false, Some(a)) = ($key.is_empty(), &self.$field) {
                    info.set_item(pyo3::intern!(py, $key), a.bind(py))?;
                })*
                Ok(())
            }
        }

        impl Guards<'_> {
            /// The core's view of the borrowed arrays.
            pub(crate) fn bufs(&mut self) -> PyResult<StepBuffers<'_>> {
                Ok(StepBuffers {
                    obs: self.obs.slice()?,
                    final_obs: match self.final_obs.as_mut() {
                        Some(f) => Some(f.slice()?),
                        None => None,
                    },
                    $($field: match self.$field.as_mut() {
                        Some(a) => a.as_slice_mut()?,
                        None => &mut [],
                    },)*
                })
            }
        }
    };
}

step_outputs!(declare_outputs);

impl Outputs {
    /// An output every batch produces.
    pub(crate) fn always<'py, T: numpy::Element>(
        py: Python<'py>,
        array: &Option<Py<PyArrayDyn<T>>>,
    ) -> Bound<'py, PyArrayDyn<T>> {
        array
            .as_ref()
            .expect("an output every batch produces")
            .bind(py)
            .clone()
    }
}
