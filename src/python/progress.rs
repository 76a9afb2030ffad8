//! Progress of long calls: a tqdm bar made here, or the caller's callable.

use pyo3::exceptions::PyImportError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::args::bool_arg;

/// Where a long call reports progress.
pub(crate) enum Progress<'py> {
    /// A tqdm bar made here (advanced by `update`, closed at the end).
    Bar(Bound<'py, PyAny>),
    /// The caller's `f(done, total)`.
    Callback(Bound<'py, PyAny>),
}

impl<'py> Progress<'py> {
    /// The reporter a `progress` argument asks for: None or False for none, True
    /// for a tqdm bar counting `unit`s up to `total` (None: open-ended), a
    /// callable for itself.
    pub(crate) fn from_arg(
        py: Python<'py>,
        progress: Option<&Bound<'py, PyAny>>,
        total: Option<u64>,
        unit: &str,
    ) -> PyResult<Option<Progress<'py>>> {
        match progress {
            None => Ok(None),
            Some(p) if p.is_none() => Ok(None),
            Some(p) if p.is_callable() => Ok(Some(Progress::Callback(p.clone()))),
            Some(p) if bool_arg(p, "progress")? => {
                let tqdm = py.import("tqdm.auto").map_err(|_| {
                    PyImportError::new_err(
                        "progress=True needs tqdm: pip install 'inarow[progress]'",
                    )
                })?;
                let kwargs = PyDict::new(py);
                kwargs.set_item("total", total)?;
                kwargs.set_item("unit", unit)?;
                kwargs.set_item("unit_scale", true)?;
                Ok(Some(Progress::Bar(
                    tqdm.getattr("tqdm")?.call((), Some(&kwargs))?,
                )))
            }
            Some(_) => Ok(None),
        }
    }

    /// Reports `done` (of `total`), `shown` having been reported before.
    pub(crate) fn report(&self, done: u64, shown: u64, total: Option<u64>) -> PyResult<()> {
        match self {
            Progress::Bar(bar) => drop(bar.call_method1("update", (done - shown,))?),
            Progress::Callback(f) => drop(f.call1((done, total))?),
        }
        Ok(())
    }

    /// Closes a bar.
    pub(crate) fn close(&self) -> PyResult<()> {
        if let Progress::Bar(bar) = self {
            bar.call_method0("close")?;
        }
        Ok(())
    }
}
