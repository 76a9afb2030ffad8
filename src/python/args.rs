//! Strict conversion of scalar Python arguments, with messages naming the
//! argument, quoting the bad value exactly and saying what is allowed.

use pyo3::exceptions::{PyException, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyInt, PyString, PyType};

use super::errors::InvalidRulesError;
use crate::{RuleValue, Rules, WinRule};

/// An argument as the caller gave it, or `Omitted`: tells an explicit `None`
/// apart from no argument at all.
pub(crate) enum Arg<'py> {
    Omitted,
    Given(Bound<'py, PyAny>),
}

impl<'a, 'py> FromPyObject<'a, 'py> for Arg<'py> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        Ok(Arg::Given(obj.to_owned()))
    }
}

/// `numpy.bool_`, the type of numpy's bool scalars.
fn numpy_bool_type(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    static TYPE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    TYPE.import(py, "numpy", "bool_")
}

/// Whether `obj` is a bool: Python's, numpy's scalar, or a 0-d numpy bool array.
pub(crate) fn is_bool(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    if obj.is_instance_of::<PyBool>() || obj.is_instance(numpy_bool_type(obj.py())?)? {
        return Ok(true);
    }
    if let Ok(a) = obj.cast::<numpy::PyUntypedArray>() {
        use numpy::{PyArrayDescrMethods, PyUntypedArrayMethods};
        return Ok(a.ndim() == 0 && a.dtype().kind() == b'b');
    }
    Ok(false)
}

/// `repr(obj)` for messages; never fails (an integer too long to print is
/// described by its size, as Python refuses to print more than 4300 digits).
pub(crate) fn shown(obj: &Bound<'_, PyAny>) -> String {
    if let Ok(r) = obj.repr() {
        return r.to_string();
    }
    if let Ok(bits) = obj
        .call_method0("bit_length")
        .and_then(|b| b.extract::<u64>())
    {
        let sign = match obj.lt(0i32) {
            Ok(true) => "-",
            _ => "",
        };
        return format!("{sign}<an integer of {bits} bits>");
    }
    match obj.get_type().name() {
        Ok(n) => format!("<{n} object>"),
        Err(_) => "<object>".to_string(),
    }
}

/// The name of `obj`'s type for messages, with its module unless built in (a
/// class that merely calls itself `bool` shows as `mymodule.bool`).
pub(crate) fn type_name(obj: &Bound<'_, PyAny>) -> String {
    let ty = obj.get_type();
    let name = ty
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "object".to_string());
    match ty.module() {
        Ok(m) if m.to_cow().is_ok_and(|m| m != "builtins") => {
            format!("{}.{name}", m.to_cow().unwrap_or_default())
        }
        _ => name,
    }
}

/// An integer as given: one that fits `i64`, or one beyond it with its exact
/// decimal text (for messages).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum IntValue {
    Fits(i64),
    Huge(String),
}

impl IntValue {
    pub(crate) fn into_rule_value(self) -> RuleValue {
        match self {
            IntValue::Fits(v) => RuleValue::Int(v),
            IntValue::Huge(text) => RuleValue::Huge(text),
        }
    }
}

/// Strictly an integer: a Python int, a numpy integer or anything with
/// `__index__`, never a bool (`True` is never silently 1) nor a float. `name`
/// is what messages call it. An `__index__` that raises is chained as the
/// `__cause__`; exceptions that are not `Exception`s (KeyboardInterrupt) pass.
pub(crate) fn int_value(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<IntValue> {
    let py = obj.py();
    if is_bool(obj)? {
        return Err(PyTypeError::new_err(format!(
            "{name} must be an integer, not bool ({})",
            shown(obj)
        )));
    }
    let int = if obj.is_instance_of::<PyInt>() {
        obj.clone()
    } else {
        // SAFETY: PyNumber_Index returns a new reference, or NULL with an exception set.
        let index =
            unsafe { Bound::from_owned_ptr_or_err(py, pyo3::ffi::PyNumber_Index(obj.as_ptr())) };
        match index {
            Ok(i) => i,
            Err(e) if !e.is_instance_of::<PyException>(py) => return Err(e),
            Err(e) => {
                let err = if obj.get_type().hasattr("__index__")? {
                    PyTypeError::new_err(format!(
                        "{name} must be an integer: {}.__index__ failed on {} ({})",
                        type_name(obj),
                        shown(obj),
                        e.value(py)
                            .repr()
                            .map(|r| r.to_string())
                            .unwrap_or_default()
                    ))
                } else {
                    PyTypeError::new_err(format!(
                        "{name} must be an integer, got {}: {}",
                        type_name(obj),
                        shown(obj)
                    ))
                };
                err.set_cause(py, Some(e));
                return Err(err);
            }
        }
    };
    match int.extract::<i64>() {
        Ok(v) => Ok(IntValue::Fits(v)),
        Err(_) => Ok(IntValue::Huge(match int.str() {
            Ok(s) => s.to_string(),
            Err(_) => shown(&int),
        })),
    }
}

/// An integer argument: `Ok(Some(v))`, `Ok(None)` when it does not fit an `i64`
/// (the caller reports it as out of range), `TypeError` for non-integers and bools.
pub(crate) fn int_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Option<i64>> {
    Ok(match int_value(obj, name)? {
        IntValue::Fits(v) => Some(v),
        IntValue::Huge(_) => None,
    })
}

/// An integer setting in `lo..=hi`, `default` when omitted or None; a value out of
/// range (however large) raises `E` naming the setting and its range.
pub(crate) fn ranged_int<E: pyo3::PyTypeInfo>(
    obj: Option<&Bound<'_, PyAny>>,
    name: &str,
    lo: i64,
    hi: i64,
    default: i64,
) -> PyResult<i64> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(default);
    };
    match int_arg(obj, name)? {
        Some(v) if (lo..=hi).contains(&v) => Ok(v),
        _ => Err(PyErr::new::<E, _>(format!(
            "{name}={} is out of range: allowed {lo}..={hi}",
            shown(obj)
        ))),
    }
}

/// Strictly a bool: Python's `bool` or numpy's `bool_`, nothing that merely
/// has a truth value.
pub(crate) fn bool_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<bool> {
    if obj.is_instance_of::<PyBool>() || obj.is_instance(numpy_bool_type(obj.py())?)? {
        return obj.is_truthy();
    }
    Err(PyTypeError::new_err(format!(
        "{name} must be a bool (True or False), got {}: {}",
        type_name(obj),
        shown(obj)
    )))
}

/// Strictly a string.
pub(crate) fn str_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<String> {
    match obj.cast::<PyString>() {
        Ok(s) => Ok(s.to_cow()?.into_owned()),
        Err(_) => Err(PyTypeError::new_err(format!(
            "{name} must be a string, got {}: {}",
            type_name(obj),
            shown(obj)
        ))),
    }
}

/// One of the names in `allowed`, spelled as a string.
pub(crate) fn choice_arg(
    obj: &Bound<'_, PyAny>,
    name: &str,
    allowed: &[&'static str],
) -> PyResult<&'static str> {
    let list = || {
        allowed
            .iter()
            .map(|a| format!("{a:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let Ok(s) = obj.cast::<PyString>() else {
        return Err(PyTypeError::new_err(format!(
            "{name} must be one of {}, got {}: {}",
            list(),
            type_name(obj),
            shown(obj)
        )));
    };
    let s = s.to_cow()?;
    allowed.iter().copied().find(|a| *a == s).ok_or_else(|| {
        PyValueError::new_err(format!("{name} {s:?} is not supported: allowed {}", list()))
    })
}

/// A dtype among `allowed` (numpy names, native byte order): given as its name
/// or any spelling numpy understands (`np.uint8`, `np.dtype("bool")`, `"f4"`).
/// Returns the canonical name. `None` is refused: `np.dtype(None)` is float64.
pub(crate) fn dtype_arg(
    obj: &Bound<'_, PyAny>,
    name: &str,
    allowed: &[&'static str],
) -> PyResult<&'static str> {
    let py = obj.py();
    let list = allowed
        .iter()
        .map(|a| format!("{a:?}"))
        .collect::<Vec<_>>()
        .join(", ");
    if let Ok(s) = obj.cast::<PyString>() {
        if let Some(a) = allowed.iter().find(|a| s.to_cow().is_ok_and(|s| s == **a)) {
            return Ok(a);
        }
    }
    let np = py.import("numpy")?;
    let dtype = if obj.is_none() {
        None
    } else {
        match np.getattr("dtype")?.call1((obj,)) {
            Ok(d) => Some(d),
            Err(e) if !e.is_instance_of::<PyException>(py) => return Err(e),
            Err(_) => None,
        }
    };
    let Some(dtype) = dtype else {
        if obj.is_instance_of::<PyString>() {
            return Err(PyValueError::new_err(format!(
                "{name} {} is not supported: allowed {list}",
                shown(obj)
            )));
        }
        return Err(PyTypeError::new_err(format!(
            "{name} must be one of {list} (a name, a numpy type or a dtype), got {}: {}",
            type_name(obj),
            shown(obj)
        )));
    };
    for a in allowed {
        if dtype.eq(np.getattr("dtype")?.call1((*a,))?)? {
            return Ok(a);
        }
    }
    Err(PyValueError::new_err(format!(
        "{name} {} (dtype {}) is not supported: allowed {list}",
        shown(obj),
        dtype.str().map(|s| s.to_string()).unwrap_or_default()
    )))
}

/// The element type of observation planes: the one place their names are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PlaneDtype {
    U8,
    Bool,
    F32,
}

impl PlaneDtype {
    const ALL: [PlaneDtype; 3] = [PlaneDtype::U8, PlaneDtype::Bool, PlaneDtype::F32];
    const NAMES: [&'static str; 3] = ["uint8", "bool", "float32"];

    /// The numpy name.
    pub(crate) fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// Bytes per element.
    pub(crate) fn size(self) -> u128 {
        if self == PlaneDtype::F32 {
            4
        } else {
            1
        }
    }

    /// The dtype argument `name` (uint8 when omitted), spelled as a name or any
    /// way numpy understands (see [`dtype_arg`]).
    pub(crate) fn from_arg(arg: Arg<'_>, name: &str) -> PyResult<PlaneDtype> {
        let Arg::Given(obj) = arg else {
            return Ok(PlaneDtype::U8);
        };
        let found = dtype_arg(&obj, name, &Self::NAMES)?;
        Ok(Self::ALL[Self::NAMES.iter().position(|n| *n == found).unwrap_or(0)])
    }
}

/// Connect Four's fields: the defaults of `Rules(...)` and of a rules dict's missing fields.
pub(crate) const DEFAULTS: (i64, i64, i64, i64, bool) = (7, 6, 4, 2, true);

/// Checked rules from optional Python arguments (`None` takes the default);
/// every problem is reported at once, huge values quoted exactly.
pub(crate) fn rules_from_args(
    width: Option<&Bound<'_, PyAny>>,
    height: Option<&Bound<'_, PyAny>>,
    k: Option<&Bound<'_, PyAny>>,
    players: Option<&Bound<'_, PyAny>>,
    gravity: Option<&Bound<'_, PyAny>>,
    defaults: (i64, i64, i64, i64, bool),
    rule: WinRule,
) -> PyResult<Rules> {
    let get = |obj: Option<&Bound<'_, PyAny>>, default: i64, name: &str| -> PyResult<RuleValue> {
        match obj {
            None => Ok(RuleValue::Int(default)),
            Some(obj) => Ok(int_value(obj, name)?.into_rule_value()),
        }
    };
    let w = get(width, defaults.0, "width")?;
    let h = get(height, defaults.1, "height")?;
    let kk = get(k, defaults.2, "k")?;
    let p = get(players, defaults.3, "players")?;
    let g = match gravity {
        Some(g) => bool_arg(g, "gravity")?,
        None => defaults.4,
    };
    Ok(Rules::from_values(&w, &h, &kk, &p, g, rule)?)
}

/// `rule=`: one of the win rules' names (`"freestyle"`, `"standard"`, `"renju"`);
/// `TypeError` for a non-string, `InvalidRulesError` for an unknown name.
pub(crate) fn rule_arg(obj: &Bound<'_, PyAny>) -> PyResult<WinRule> {
    let Ok(name) = obj.cast::<PyString>() else {
        return Err(PyTypeError::new_err(format!(
            "rule must be a str, one of {}, got {}: {}",
            WinRule::names(),
            type_name(obj),
            shown(obj)
        )));
    };
    let name = name.to_cow()?;
    WinRule::from_name(&name).ok_or_else(|| {
        InvalidRulesError::new_err(format!(
            "rule={} is not a rule: allowed {}",
            shown(obj),
            WinRule::names()
        ))
    })
}

/// `threads=`: None (every core) or 1..=256.
pub(crate) fn threads_arg(threads: Option<&Bound<'_, PyAny>>) -> PyResult<Option<usize>> {
    let Some(t) = threads else { return Ok(None) };
    if t.is_none() {
        return Ok(None);
    }
    match int_arg(t, "threads")? {
        Some(v) if (1..=256).contains(&v) => Ok(Some(v as usize)),
        _ => Err(PyValueError::new_err(format!(
            "threads={} is out of range: allowed None (all cores) or 1..=256",
            shown(t)
        ))),
    }
}

/// `seed=`: None or 0..=2**63-1.
pub(crate) fn seed_arg(seed: Option<&Bound<'_, PyAny>>) -> PyResult<Option<u64>> {
    let Some(s) = seed else { return Ok(None) };
    if s.is_none() {
        return Ok(None);
    }
    match int_arg(s, "seed")? {
        Some(v) if v >= 0 => Ok(Some(v as u64)),
        _ => Err(PyValueError::new_err(format!(
            "seed={} is out of range: allowed 0..=2**63-1",
            shown(s)
        ))),
    }
}
