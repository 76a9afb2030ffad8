//! Strict conversion of Python arguments, with messages naming the bad value.

use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::PyBool;

use super::errors::InvalidRulesError;
use crate::{Rules, RulesError};

/// An integer argument: `Ok(Some(v))`, `Ok(None)` when it does not fit an `i64`
/// (the caller reports it as out of range), `TypeError` for non-integers and bools.
pub(crate) fn int_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Option<i64>> {
    if obj.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!(
            "{name} must be an integer, not bool ({})",
            obj.repr()?
        )));
    }
    match obj.extract::<i64>() {
        Ok(v) => Ok(Some(v)),
        Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => Ok(None),
        Err(_) => Err(PyTypeError::new_err(format!(
            "{name} must be an integer, got {}: {}",
            obj.get_type().name()?,
            obj.repr()?
        ))),
    }
}

/// A Python bool (or numpy bool), strictly.
pub(crate) fn bool_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<bool> {
    if obj.is_instance_of::<PyBool>() || obj.get_type().name()? == "bool" {
        return obj.is_truthy();
    }
    Err(PyTypeError::new_err(format!(
        "{name} must be a bool, got {}: {}",
        obj.get_type().name()?,
        obj.repr()?
    )))
}

pub(crate) fn rules_error(e: RulesError) -> PyErr {
    InvalidRulesError::new_err(e.to_string())
}

/// Checked rules from Python arguments; all problems reported at once.
/// Connect Four's rules, the default of every constructor.
pub(crate) const DEFAULTS: (i64, i64, i64, i64, bool) = (7, 6, 4, 2, true);

/// Checked rules from optional Python arguments (`None` takes the default).
pub(crate) fn rules_from_args(
    width: Option<&Bound<'_, PyAny>>,
    height: Option<&Bound<'_, PyAny>>,
    k: Option<&Bound<'_, PyAny>>,
    players: Option<&Bound<'_, PyAny>>,
    gravity: Option<&Bound<'_, PyAny>>,
    defaults: (i64, i64, i64, i64, bool),
) -> PyResult<Rules> {
    let mut huge = Vec::new();
    let mut get = |obj: Option<&Bound<'_, PyAny>>, default: i64, name: &str| -> PyResult<i64> {
        let Some(obj) = obj else { return Ok(default) };
        Ok(match int_arg(obj, name)? {
            Some(v) => v,
            None => {
                huge.push(format!("{name}={} is out of range", obj.repr()?));
                0
            }
        })
    };
    let w = get(width, defaults.0, "width")?;
    let h = get(height, defaults.1, "height")?;
    let kk = get(k, defaults.2, "k")?;
    let p = get(players, defaults.3, "players")?;
    let g = match gravity {
        Some(g) => bool_arg(g, "gravity")?,
        None => defaults.4,
    };
    if !huge.is_empty() {
        return Err(InvalidRulesError::new_err(format!(
            "{} (allowed: 1 <= width, height <= {}, 1 <= k <= max(width, height), 2 <= players <= {})",
            huge.join("; "),
            crate::MAX_SIDE,
            crate::MAX_PLAYERS
        )));
    }
    Rules::new(w, h, kk, p, g).map_err(rules_error)
}
