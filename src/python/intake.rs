//! The one way in for every array argument: actions, grids, masks and (for
//! evaluators) floats.
//!
//! Each reader checks rank and shape, dtype and values, with messages naming the
//! argument, quoting the bad value exactly (a uint64 above 2**63 included) and
//! saying what is allowed. Values are read in logical (row-major) order whatever
//! the memory layout: C or Fortran order, any strides (negative, zero), foreign
//! byte order, unaligned or read-only memory. Bools are never integers (not in a
//! bool array, not as `np.bool_`, not in a list mixing bools and ints), and
//! integers are never bools. Lists and tuples are read element by element, so a
//! list tells its bools from its ints and quotes huge ints exactly.

use std::ops::RangeInclusive;

use numpy::{
    PyArrayDescrMethods, PyArrayDyn, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyException, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use super::args::{int_value, is_bool, shown, type_name, IntValue};

/// One axis of an expected shape: its name in messages and, when fixed, its length.
#[derive(Clone, Copy)]
pub(crate) struct Axis<'a> {
    pub(crate) label: &'a str,
    pub(crate) len: Option<usize>,
}

impl<'a> Axis<'a> {
    /// An axis of any length.
    pub(crate) const fn any(label: &'a str) -> Axis<'a> {
        Axis { label, len: None }
    }
    /// An axis of exactly `len` entries.
    pub(crate) const fn exactly(label: &'a str, len: usize) -> Axis<'a> {
        Axis {
            label,
            len: Some(len),
        }
    }
}

/// What an array argument must look like: its name and its axes.
pub(crate) struct Spec<'a> {
    pub(crate) name: &'a str,
    pub(crate) axes: &'a [Axis<'a>],
}

/// A shape as Python prints it: `(3,)`, `(4, 1)`, `()`.
pub(crate) fn shape_text(shape: &[usize]) -> String {
    match shape {
        [one] => format!("({one},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The multi-index of the `flat`-th element in row-major order.
pub(crate) fn unravel(mut flat: usize, shape: &[usize]) -> Vec<usize> {
    let mut index = vec![0; shape.len()];
    for (i, &d) in shape.iter().enumerate().rev() {
        if d > 0 {
            index[i] = flat % d;
            flat /= d;
        }
    }
    index
}

impl Spec<'_> {
    /// The expected shape: fixed lengths as numbers, the others by name.
    fn expected(&self) -> String {
        let parts: Vec<String> = self
            .axes
            .iter()
            .map(|a| match a.len {
                Some(n) => n.to_string(),
                None => a.label.to_string(),
            })
            .collect();
        if parts.len() == 1 {
            format!("({},)", parts[0])
        } else {
            format!("({})", parts.join(", "))
        }
    }

    fn check_shape(&self, shape: &[usize]) -> PyResult<()> {
        let ndim = self.axes.len();
        let lengths_agree = self
            .axes
            .iter()
            .zip(shape)
            .all(|(a, &d)| a.len.is_none_or(|n| n == d));
        if shape.len() != ndim || !lengths_agree {
            let labels: Vec<&str> = self.axes.iter().map(|a| a.label).collect();
            let labels = if ndim == 1 {
                format!("({},)", labels[0])
            } else {
                format!("({})", labels.join(", "))
            };
            let expected = self.expected();
            let meaning = if expected == labels {
                String::new()
            } else {
                format!(" {labels}")
            };
            return Err(PyValueError::new_err(format!(
                "{} must be {ndim}-dimensional with shape {expected}{meaning}, got shape {}",
                self.name,
                shape_text(shape)
            )));
        }
        Ok(())
    }

    /// `name[i, j]` of the `flat`-th element.
    fn element(&self, flat: usize, shape: &[usize]) -> String {
        let index: Vec<String> = unravel(flat, shape).iter().map(|i| i.to_string()).collect();
        format!("{}[{}]", self.name, index.join(", "))
    }
}

/// Nested lists: their shape and their elements in row-major order.
struct Nested<'py> {
    shape: Vec<usize>,
    items: Vec<Bound<'py, PyAny>>,
}

/// A list or tuple, read as nested sequences (None for anything else). Ragged
/// nesting is refused.
fn nested<'py>(obj: &Bound<'py, PyAny>, spec: &Spec<'_>) -> PyResult<Option<Nested<'py>>> {
    if !obj.is_instance_of::<PyList>() && !obj.is_instance_of::<PyTuple>() {
        return Ok(None);
    }
    let py = obj.py();
    let np = py.import("numpy")?;
    let kwargs = pyo3::types::PyDict::new(py);
    kwargs.set_item("dtype", "object")?;
    let array = match np.getattr("asarray")?.call((obj,), Some(&kwargs)) {
        Ok(a) => a.cast_into::<PyUntypedArray>()?,
        Err(e) if !e.is_instance_of::<PyException>(py) => return Err(e),
        Err(e) => {
            let err = PyValueError::new_err(format!(
                "{} is not a rectangular nest of lists: {}",
                spec.name,
                e.value(py)
            ));
            err.set_cause(py, Some(e));
            return Err(err);
        }
    };
    let shape = array.shape().to_vec();
    let flat = array.call_method0("ravel")?.call_method0("tolist")?;
    let items: Vec<Bound<'py, PyAny>> = flat.cast_into::<PyList>()?.iter().collect();
    for (i, item) in items.iter().enumerate() {
        let sequence = item.is_instance_of::<PyList>() || item.is_instance_of::<PyTuple>();
        let array = item.cast::<PyUntypedArray>().is_ok_and(|a| a.ndim() > 0);
        if sequence || array {
            return Err(PyValueError::new_err(format!(
                "{} is ragged (rows of different lengths): {} is a {} where a number belongs",
                spec.name,
                spec.element(i, &shape),
                type_name(item)
            )));
        }
    }
    Ok(Some(Nested { shape, items }))
}

/// Any other argument as a numpy array, without copying one.
fn ndarray<'py>(obj: &Bound<'py, PyAny>, spec: &Spec<'_>) -> PyResult<Bound<'py, PyUntypedArray>> {
    let py = obj.py();
    let masked = py
        .import("sys")?
        .getattr("modules")?
        .get_item("numpy.ma")
        .ok()
        .map(|ma| ma.getattr("MaskedArray"))
        .transpose()?;
    if let Some(masked) = masked {
        if obj.is_instance(&masked)? {
            return Err(PyTypeError::new_err(format!(
                "{} is a masked array: fill its masked entries first ({}.filled(...))",
                spec.name, spec.name
            )));
        }
    }
    if let Ok(a) = obj.cast::<PyUntypedArray>() {
        return Ok(a.clone());
    }
    match py.import("numpy")?.call_method1("asarray", (obj,)) {
        Ok(a) => Ok(a.cast_into::<PyUntypedArray>()?),
        Err(e) if !e.is_instance_of::<PyException>(py) => Err(e),
        Err(e) => {
            let err = PyTypeError::new_err(format!(
                "{} must be an array, got {} that numpy cannot read: {}",
                spec.name,
                type_name(obj),
                e.value(py)
            ));
            err.set_cause(py, Some(e));
            Err(err)
        }
    }
}

/// `array` in native byte order, aligned, with strides in whole elements
/// (a copy only when it is not already).
fn native<'py>(array: Bound<'py, PyUntypedArray>) -> PyResult<Bound<'py, PyUntypedArray>> {
    let dtype = array.dtype();
    let itemsize = dtype.itemsize().max(1) as isize;
    let ready = dtype.is_native_byteorder() != Some(false)
        && array.is_aligned()
        && array.strides().iter().all(|s| s % itemsize == 0);
    if ready {
        return Ok(array);
    }
    let native = dtype.call_method1("newbyteorder", ("=",))?;
    Ok(array
        .call_method1("astype", (native,))?
        .cast_into::<PyUntypedArray>()?)
}

fn dtype_text(array: &Bound<'_, PyUntypedArray>) -> String {
    array
        .dtype()
        .str()
        .map(|s| s.to_string())
        .unwrap_or_default()
}

/// An integer array argument, checked for rank, shape and dtype; its values are
/// checked against the caller's range by [`IntArray::values`].
pub(crate) struct IntArray<'py> {
    shape: Vec<usize>,
    source: IntSource<'py>,
}

enum IntSource<'py> {
    /// A native, aligned numpy array of an integer dtype.
    Array(Bound<'py, PyUntypedArray>),
    /// The elements of a list, in row-major order.
    Items(Vec<IntValue>),
}

/// Reads an integer array argument: a numpy array of any integer dtype and any
/// layout, anything numpy reads as one, or nested lists of integers. Bools,
/// floats, objects and strings are refused with `TypeError`, a wrong shape with
/// `ValueError`.
pub(crate) fn int_array<'py>(obj: &Bound<'py, PyAny>, spec: &Spec<'_>) -> PyResult<IntArray<'py>> {
    if let Some(Nested { shape, items }) = nested(obj, spec)? {
        spec.check_shape(&shape)?;
        let values = items
            .iter()
            .enumerate()
            .map(|(i, item)| int_value(item, &spec.element(i, &shape)))
            .collect::<PyResult<Vec<_>>>()?;
        return Ok(IntArray {
            shape,
            source: IntSource::Items(values),
        });
    }
    let array = ndarray(obj, spec)?;
    spec.check_shape(array.shape())?;
    match array.dtype().kind() {
        b'i' | b'u' => {}
        b'b' => {
            return Err(PyTypeError::new_err(format!(
                "{} must hold integers, not bools (dtype bool): True is never taken for 1; \
                 convert explicitly, e.g. {}.astype(np.int64)",
                spec.name, spec.name
            )))
        }
        _ => {
            return Err(PyTypeError::new_err(format!(
            "{} must hold integers, got dtype {} (convert explicitly, e.g. {}.astype(np.int64))",
            spec.name,
            dtype_text(&array),
            spec.name
        )))
        }
    }
    Ok(IntArray {
        shape: array.shape().to_vec(),
        source: IntSource::Array(native(array)?),
    })
}

impl IntArray<'_> {
    pub(crate) fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// The values in row-major order, each in `range`; the first one outside it
    /// is refused with `refuse(value as text, its multi-index)`.
    pub(crate) fn values(
        &self,
        range: RangeInclusive<i64>,
        refuse: impl Fn(&str, &[usize]) -> PyErr,
    ) -> PyResult<Vec<i64>> {
        let (lo, hi) = (i128::from(*range.start()), i128::from(*range.end()));
        match &self.source {
            IntSource::Items(items) => items
                .iter()
                .enumerate()
                .map(|(i, v)| match v {
                    IntValue::Fits(x) if range.contains(x) => Ok(*x),
                    IntValue::Fits(x) => Err(refuse(&x.to_string(), &unravel(i, &self.shape))),
                    IntValue::Huge(text) => Err(refuse(text, &unravel(i, &self.shape))),
                })
                .collect(),
            IntSource::Array(array) => {
                macro_rules! read_as {
                    ($($t:ty),*) => {$(
                        if let Ok(typed) = array.cast::<PyArrayDyn<$t>>() {
                            let ro = typed.try_readonly()?;
                            let view = ro.as_array();
                            let mut out = Vec::with_capacity(view.len());
                            for (i, &x) in view.iter().enumerate() {
                                let v = i128::from(x);
                                if v < lo || v > hi {
                                    return Err(refuse(&v.to_string(), &unravel(i, &self.shape)));
                                }
                                out.push(v as i64);
                            }
                            return Ok(out);
                        }
                    )*};
                }
                read_as!(i64, i32, i16, i8, u64, u32, u16, u8);
                Err(PyTypeError::new_err(format!(
                    "integer dtype {} is not supported",
                    dtype_text(array)
                )))
            }
        }
    }
}

/// Reads a bool array argument (a mask): a numpy bool array of any layout,
/// anything numpy reads as one, or nested lists of bools. Integers (0 and 1
/// included) are refused with `TypeError`, a wrong shape with `ValueError`.
pub(crate) fn bool_array(obj: &Bound<'_, PyAny>, spec: &Spec<'_>) -> PyResult<Vec<bool>> {
    if let Some(Nested { shape, items }) = nested(obj, spec)? {
        spec.check_shape(&shape)?;
        return items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                if is_bool(item)? {
                    item.is_truthy()
                } else {
                    Err(PyTypeError::new_err(format!(
                        "{} must be a bool (True or False), got {}: {}",
                        spec.element(i, &shape),
                        type_name(item),
                        shown(item)
                    )))
                }
            })
            .collect();
    }
    let array = ndarray(obj, spec)?;
    spec.check_shape(array.shape())?;
    if array.dtype().kind() != b'b' {
        return Err(PyTypeError::new_err(format!(
            "{} must hold bools, got dtype {} (compare explicitly, e.g. {} != 0)",
            spec.name,
            dtype_text(&array),
            spec.name
        )));
    }
    // Read the bytes: a byte other than 0 or 1 (made through a view) is True, as
    // numpy takes it, and never an invalid Rust bool.
    let bytes = array.call_method1("view", ("uint8",))?;
    let bytes = bytes.cast::<PyArrayDyn<u8>>()?.try_readonly()?;
    Ok(bytes.as_array().iter().map(|&b| b != 0).collect())
}

/// Which non-finite floats an argument may hold.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum NonFinite {
    /// Finite numbers only (values, probabilities).
    Refuse,
    /// Finite numbers or -inf (logits of masked-out actions).
    AllowNegInf,
}

/// Which dtypes a float argument may have.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Numbers {
    /// Floats or integers, read as floats.
    Real,
    /// Floats only: an integer array (or an int in a list) is refused, as it is
    /// more likely a mistake (actions, counts) than a network's output.
    FloatsOnly,
}

fn float_text(v: f64) -> String {
    if v.is_nan() {
        "nan".to_string()
    } else if v.is_infinite() {
        if v > 0.0 { "inf" } else { "-inf" }.to_string()
    } else {
        format!("{v}")
    }
}

/// Reads a float array argument (evaluator outputs: logits, values): numpy
/// floats (or integers, when `numbers` allows them) of any layout, anything numpy
/// reads as them, or nested lists of numbers. Bools, complex numbers, objects and
/// strings are refused with `TypeError`, a wrong shape and NaN or infinities
/// (beyond what `non_finite` allows) with `ValueError`. Returns the shape and the
/// values in row-major order.
pub(crate) fn float_array(
    obj: &Bound<'_, PyAny>,
    spec: &Spec<'_>,
    numbers: Numbers,
    non_finite: NonFinite,
) -> PyResult<(Vec<usize>, Vec<f64>)> {
    let (number, numbers_text, kinds) = match numbers {
        Numbers::Real => ("a number", "numbers", "real numbers"),
        Numbers::FloatsOnly => ("a float", "floats", "floats"),
    };
    let (shape, values) = if let Some(Nested { shape, items }) = nested(obj, spec)? {
        spec.check_shape(&shape)?;
        let values = items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                let refuse = |what: String| {
                    PyTypeError::new_err(format!(
                        "{} must be {number}, got {what}",
                        spec.element(i, &shape)
                    ))
                };
                if is_bool(item)? {
                    return Err(refuse(format!("a bool ({})", shown(item))));
                }
                if numbers == Numbers::FloatsOnly && item.hasattr("__index__")? {
                    return Err(refuse(format!("{}: {}", type_name(item), shown(item))));
                }
                item.extract::<f64>().map_err(|e| {
                    let err = if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(obj.py()) {
                        PyValueError::new_err(format!(
                            "{} = {} is too large for a float",
                            spec.element(i, &shape),
                            shown(item)
                        ))
                    } else {
                        refuse(format!("{}: {}", type_name(item), shown(item)))
                    };
                    err.set_cause(obj.py(), Some(e));
                    err
                })
            })
            .collect::<PyResult<Vec<f64>>>()?;
        (shape, values)
    } else {
        let array = ndarray(obj, spec)?;
        spec.check_shape(array.shape())?;
        match (array.dtype().kind(), numbers) {
            (b'f', _) | (b'i' | b'u', Numbers::Real) => {}
            (b'b', _) => {
                return Err(PyTypeError::new_err(format!(
                    "{} must hold {numbers_text}, not bools (dtype bool)",
                    spec.name
                )))
            }
            (b'i' | b'u', Numbers::FloatsOnly) => {
                return Err(PyTypeError::new_err(format!(
                    "{} must hold floats, got dtype {} (convert explicitly, e.g. {}.astype(np.float32))",
                    spec.name,
                    dtype_text(&array),
                    spec.name
                )))
            }
            _ => {
                return Err(PyTypeError::new_err(format!(
                    "{} must hold {kinds}, got dtype {}",
                    spec.name,
                    dtype_text(&array)
                )))
            }
        }
        let shape = array.shape().to_vec();
        // Read as one row-major slice: numpy's copy of a strided array (a slice
        // of a network's output) costs a fraction of an element-wise walk of a
        // dynamic-rank view.
        let mut array = native(array)?;
        if !array.is_c_contiguous() {
            array = obj
                .py()
                .import("numpy")?
                .call_method1("ascontiguousarray", (array,))?
                .cast_into::<PyUntypedArray>()?;
        }
        let values = if let Ok(f) = array.cast::<PyArrayDyn<f64>>() {
            let f = f.try_readonly()?;
            match f.as_slice() {
                Ok(slice) => slice.to_vec(),
                Err(_) => f.as_array().iter().copied().collect(),
            }
        } else if let Ok(f) = array.cast::<PyArrayDyn<f32>>() {
            let f = f.try_readonly()?;
            match f.as_slice() {
                Ok(slice) => slice.iter().map(|&x| f64::from(x)).collect(),
                Err(_) => f.as_array().iter().map(|&x| f64::from(x)).collect(),
            }
        } else {
            let wide = array.call_method1("astype", ("float64",))?;
            let wide = wide.cast::<PyArrayDyn<f64>>()?.try_readonly()?;
            wide.as_array().iter().copied().collect()
        };
        (shape, values)
    };
    let allowed =
        |v: f64| v.is_finite() || (non_finite == NonFinite::AllowNegInf && v == f64::NEG_INFINITY);
    if let Some(i) = values.iter().position(|&v| !allowed(v)) {
        return Err(PyValueError::new_err(format!(
            "{} is {}: allowed {}",
            spec.element(i, &shape),
            float_text(values[i]),
            match non_finite {
                NonFinite::Refuse => "finite numbers",
                NonFinite::AllowNegInf => "finite numbers or -inf (a masked-out action)",
            }
        )));
    }
    Ok((shape, values))
}

/// The evaluator-output reader on its own, for its tests: `values` read as
/// floats under the name `name`, with `shape` (an int per fixed axis, None for
/// any length). Returns the values as a C-ordered float64 array.
#[pyfunction]
#[pyo3(signature = (values, name, shape, allow_neg_inf=false))]
pub fn _intake_floats<'py>(
    py: Python<'py>,
    values: &Bound<'py, PyAny>,
    name: &str,
    shape: Vec<Option<usize>>,
    allow_neg_inf: bool,
) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
    let labels: Vec<String> = (0..shape.len()).map(|i| format!("axis{i}")).collect();
    let axes: Vec<Axis<'_>> = shape
        .iter()
        .zip(&labels)
        .map(|(len, label)| Axis { label, len: *len })
        .collect();
    let spec = Spec { name, axes: &axes };
    let mode = if allow_neg_inf {
        NonFinite::AllowNegInf
    } else {
        NonFinite::Refuse
    };
    let (shape, values) = float_array(values, &spec, Numbers::Real, mode)?;
    let array = numpy::ndarray::ArrayD::from_shape_vec(shape, values)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(numpy::IntoPyArray::into_pyarray(array, py))
}
