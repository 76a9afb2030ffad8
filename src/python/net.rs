//! `inarow._native.ConvNet`: the exported network's forward pass (`crate::net`) for
//! `inarow.numpy_net.NumpyNet`, which builds it from a `.npz` export.

use numpy::{
    PyArray1, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyReadonlyArray4,
    PyUntypedArrayMethods,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use std::sync::{Mutex, MutexGuard};

use crate::net::{Conv, Layers, Linear, NetError, OutputCache};

fn net_error(e: NetError) -> PyErr {
    PyValueError::new_err(e.0)
}

fn contiguous<'a>(what: &str, a: Result<&'a [f32], numpy::AsSliceError>) -> PyResult<&'a [f32]> {
    a.map_err(|_| PyValueError::new_err(format!("{what}: needs a C-contiguous float32 array")))
}

type ConvArrays<'py> = (PyReadonlyArray4<'py, f32>, PyReadonlyArray1<'py, f32>);
type LinearArrays<'py> = (PyReadonlyArray2<'py, f32>, PyReadonlyArray1<'py, f32>);

/// `(weights (k, k, in, out), bias (out,))`, `k` odd.
fn conv(what: &str, (w, b): &ConvArrays<'_>) -> PyResult<Conv> {
    let shape = w.shape();
    if shape[0] != shape[1] {
        return Err(PyValueError::new_err(format!(
            "{what}: weights of shape {shape:?}, allowed (k, k, in, out)"
        )));
    }
    Conv::new(
        shape[0],
        shape[2],
        shape[3],
        contiguous(what, w.as_slice())?,
        contiguous(what, b.as_slice())?,
    )
    .map_err(|e| PyValueError::new_err(format!("{what}: {e}")))
}

/// `(weights (in, out), bias (out,))`.
fn linear(what: &str, (w, b): &LinearArrays<'_>) -> PyResult<Linear> {
    let shape = w.shape();
    Linear::new(
        shape[0],
        shape[1],
        contiguous(what, w.as_slice())?,
        contiguous(what, b.as_slice())?,
    )
    .map_err(|e| PyValueError::new_err(format!("{what}: {e}")))
}

/// A residual convolutional network: `net(obs) -> (logits, values)` for float32
/// observations `(B, planes, height, width)`; `values` is `(B,)` for one value a
/// position, else `(B, values)`. Runs without the interpreter's lock.
///
/// Given to `inarow.MCTS.run` as its evaluator, the search calls it from Rust,
/// through its cache of outputs (`cache`: positions kept, the oldest forgotten
/// first; 0, the default: none); `net(obs)` itself never caches.
#[pyclass(module = "inarow._native", frozen)]
pub struct ConvNet {
    net: crate::net::ConvNet,
    cache: Mutex<OutputCache>,
}

impl ConvNet {
    pub(crate) fn net(&self) -> &crate::net::ConvNet {
        &self.net
    }

    /// The cache, whatever a panicking holder left (it holds only finished outputs).
    pub(crate) fn cache(&self) -> MutexGuard<'_, OutputCache> {
        self.cache.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[pymethods]
impl ConvNet {
    #[new]
    #[allow(clippy::too_many_arguments)]
    fn new(
        planes: usize,
        height: usize,
        width: usize,
        stem: ConvArrays<'_>,
        blocks: Vec<(ConvArrays<'_>, ConvArrays<'_>)>,
        policy_conv: ConvArrays<'_>,
        policy_fc: LinearArrays<'_>,
        value_conv: ConvArrays<'_>,
        value_fc1: LinearArrays<'_>,
        value_fc2: LinearArrays<'_>,
    ) -> PyResult<ConvNet> {
        let mut tower = Vec::with_capacity(blocks.len());
        for (i, (a, b)) in blocks.iter().enumerate() {
            tower.push((
                conv(&format!("block{i}.a"), a)?,
                conv(&format!("block{i}.b"), b)?,
            ));
        }
        let layers = Layers {
            stem: conv("stem", &stem)?,
            blocks: tower,
            policy_conv: conv("policy.conv", &policy_conv)?,
            policy_fc: linear("policy.fc", &policy_fc)?,
            value_conv: conv("value.conv", &value_conv)?,
            value_fc1: linear("value.fc1", &value_fc1)?,
            value_fc2: linear("value.fc2", &value_fc2)?,
        };
        let net = crate::net::ConvNet::new(planes, height, width, layers).map_err(net_error)?;
        Ok(ConvNet {
            net,
            cache: Mutex::new(OutputCache::new(0)),
        })
    }

    fn __call__<'py>(
        &self,
        py: Python<'py>,
        obs: PyReadonlyArray4<'py, f32>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let n = &self.net;
        let shape = obs.shape();
        if shape[1..] != [n.planes(), n.height(), n.width()] {
            let shape: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
            return Err(PyValueError::new_err(format!(
                "obs of shape ({}): allowed (B, {}, {}, {})",
                shape.join(", "),
                n.planes(),
                n.height(),
                n.width()
            )));
        }
        let rows = shape[0];
        let values = obs
            .as_slice()
            .map_err(|_| PyValueError::new_err("obs: needs a C-contiguous float32 array"))?;
        let (logits, values) = py.detach(|| n.forward(values)).map_err(net_error)?;
        let logits = PyArray1::from_vec(py, logits).reshape([rows, n.actions()])?;
        let values = if n.values() == 1 {
            PyArray1::from_vec(py, values).into_any()
        } else {
            PyArray1::from_vec(py, values)
                .reshape([rows, n.values()])?
                .into_any()
        };
        Ok((logits.into_any(), values))
    }

    /// Positions whose outputs the search keeps (0: none); a smaller value forgets
    /// the oldest at once.
    #[getter(cache)]
    fn cache_capacity(&self) -> usize {
        self.cache().capacity()
    }

    #[setter(cache)]
    fn set_cache_capacity(&self, capacity: &Bound<'_, PyAny>) -> PyResult<()> {
        let bad = || {
            PyValueError::new_err(format!(
                "cache={}: allowed an integer 0..=2**32 (positions kept)",
                capacity.repr().map(|r| r.to_string()).unwrap_or_default()
            ))
        };
        if capacity.is_instance_of::<pyo3::types::PyBool>() {
            return Err(bad());
        }
        let n: u64 = capacity.extract().map_err(|_| bad())?;
        if n > 1 << 32 {
            return Err(bad());
        }
        self.cache().set_capacity(n as usize);
        Ok(())
    }

    /// Positions whose outputs are kept now.
    #[getter]
    fn cached(&self) -> usize {
        self.cache().len()
    }

    /// Forgets every kept output.
    fn clear_cache(&self) {
        self.cache().clear();
    }

    /// `(planes, height, width)` of one observation.
    #[getter]
    fn shape(&self) -> (usize, usize, usize) {
        (self.net.planes(), self.net.height(), self.net.width())
    }

    fn __repr__(&self) -> String {
        let n = &self.net;
        format!(
            "<ConvNet {} planes of {}x{}: {} logits, {} values>",
            n.planes(),
            n.height(),
            n.width(),
            n.actions(),
            n.values()
        )
    }
}
