//! `inarow.Rules`: the rules of one game as a frozen, hashable Python value, and
//! the one reading of `rules=` in every signature.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use super::args::{int_arg, rule_arg, rules_from_args, shown, type_name, DEFAULTS};
use super::errors::InvalidRulesError;
use crate::Rules as CoreRules;
use crate::WinRule;

/// The rules of a k-in-a-row game: board size, line length, players, gravity and
/// the win rule (`"freestyle"`, `"standard"`, `"renju"`). Validated once at
/// construction; immutable, hashable, comparable with `==`, picklable.
#[pyclass(module = "inarow._native", name = "Rules", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rules {
    pub(crate) rules: CoreRules,
}

impl From<CoreRules> for Rules {
    fn from(rules: CoreRules) -> Rules {
        Rules { rules }
    }
}

/// A class that carries rules (`Rules`, `Board`, `VecEnv`): `rules_properties!` gives it
/// the rules' fields as read-only properties, defined once for all three.
pub(crate) trait CarriesRules {
    fn core_rules(&self) -> &CoreRules;
}

/// The read-only properties `width`, `height`, `k`, `players`, `gravity` and `num_actions`
/// on a `CarriesRules` class; `with_value` adds `rules`, the `inarow.Rules` value itself.
macro_rules! rules_properties {
    (@each $class:ty; $($(#[$doc:meta])* $field:ident -> $ty:ty,)*) => {
        #[pyo3::pymethods]
        impl $class {
            $(
                $(#[$doc])*
                #[getter]
                fn $field(&self) -> $ty {
                    $crate::python::rules::CarriesRules::core_rules(self).$field()
                }
            )*
        }
    };
    ($class:ty) => {
        $crate::python::rules::rules_properties!(@each $class;
            width -> usize,
            height -> usize,
            k -> usize,
            players -> usize,
            gravity -> bool,
            /// `width` with gravity (an action is a column), `width * height` without.
            num_actions -> usize,
        );
    };
    ($class:ty, with_value) => {
        $crate::python::rules::rules_properties!($class);

        #[pyo3::pymethods]
        impl $class {
            /// The rules, as an `inarow.Rules` value.
            #[getter(rules)]
            fn rules_value(&self) -> $crate::python::rules::Rules {
                (*$crate::python::rules::CarriesRules::core_rules(self)).into()
            }
        }
    };
}
pub(crate) use rules_properties;

impl CarriesRules for Rules {
    fn core_rules(&self) -> &CoreRules {
        &self.rules
    }
}
rules_properties!(Rules);

/// The rule keywords as `Rules(...)` spells them (`rule=` only where it is not
/// freestyle, the default).
pub(crate) fn rules_kwargs(r: &CoreRules) -> String {
    let rule = match r.rule() {
        WinRule::Freestyle => String::new(),
        other => format!(", rule={:?}", other.name()),
    };
    format!(
        "width={}, height={}, k={}, players={}, gravity={}{rule}",
        r.width(),
        r.height(),
        r.k(),
        r.players(),
        if r.gravity() { "True" } else { "False" }
    )
}

/// The rules of a call's `rules=` argument: an `inarow.Rules`, or Connect Four
/// where it is omitted or None; `TypeError` for anything else.
pub(crate) fn rules_or_default(rules: Option<&Bound<'_, PyAny>>) -> PyResult<CoreRules> {
    match rules.filter(|r| !r.is_none()) {
        None => Ok(CoreRules::connect_four()),
        Some(given) => rules_value(given, "rules"),
    }
}

/// `obj` as core rules: an `inarow.Rules`, else `TypeError` naming `what`.
pub(crate) fn rules_value(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<CoreRules> {
    match obj.cast::<Rules>() {
        Ok(r) => Ok(r.get().rules),
        Err(_) => Err(PyTypeError::new_err(format!(
            "{what} must be an inarow.Rules (e.g. inarow.Rules.connect_four()), got {}: {}",
            type_name(obj),
            shown(obj)
        ))),
    }
}

#[pymethods]
impl Rules {
    /// `Rules(width=7, height=6, k=4, players=2, gravity=True, rule="freestyle")`.
    /// `rule`: `"freestyle"` (k or more in a row win), `"standard"` (exactly k; an
    /// overline does not end the game) or `"renju"` (2 players, k = 5, free
    /// placement: black wins with exactly five and may not play an overline, a
    /// double four or a double three; white wins with five or more). Raises
    /// `InvalidRulesError` (a `ValueError`) for values beyond the limits
    /// (1 <= width, height <= 64; 1 <= k <= max(width, height); 2 <= players <= 16),
    /// an unknown rule or one the other fields do not allow, and `TypeError` for
    /// non-integers (bools included), a non-bool `gravity` or a non-str `rule`.
    #[new]
    #[pyo3(signature = (width=None, height=None, k=None, players=None, gravity=None, rule=None),
           text_signature = "(width=7, height=6, k=4, players=2, gravity=True, rule='freestyle')")]
    fn new(
        width: Option<&Bound<'_, PyAny>>,
        height: Option<&Bound<'_, PyAny>>,
        k: Option<&Bound<'_, PyAny>>,
        players: Option<&Bound<'_, PyAny>>,
        gravity: Option<&Bound<'_, PyAny>>,
        rule: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Rules> {
        let rule = rule.map(rule_arg).transpose()?.unwrap_or_default();
        Ok(rules_from_args(width, height, k, players, gravity, DEFAULTS, rule)?.into())
    }

    /// Connect Four: 7x6, 4 in a row, gravity.
    #[staticmethod]
    fn connect_four() -> Rules {
        CoreRules::connect_four().into()
    }

    /// Tic-tac-toe: 3x3, 3 in a row, free placement.
    #[staticmethod]
    fn tic_tac_toe() -> Rules {
        CoreRules::tic_tac_toe().into()
    }

    /// Gomoku: `size`x`size` (15 by default), 5 in a row, free placement, under
    /// `rule` (`"freestyle"`, `"standard"` or `"renju"`; see `Rules`).
    #[staticmethod]
    #[pyo3(signature = (size=None, rule=None), text_signature = "(size=15, rule='freestyle')")]
    pub(crate) fn gomoku(
        size: Option<&Bound<'_, PyAny>>,
        rule: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Rules> {
        let rule = rule.map(rule_arg).transpose()?.unwrap_or_default();
        let s = match size {
            None => 15,
            Some(size) => int_arg(size, "size")?.ok_or_else(|| {
                InvalidRulesError::new_err(format!(
                    "size={} is out of range: allowed 5..={}",
                    shown(size),
                    crate::MAX_SIDE
                ))
            })?,
        };
        Ok(CoreRules::gomoku_with(s, rule)?.into())
    }

    /// The win rule: `"freestyle"`, `"standard"` or `"renju"`.
    #[getter]
    fn rule(&self) -> &'static str {
        self.rules.rule().name()
    }

    /// These rules with the given fields changed (validated like `Rules(...)`).
    #[pyo3(signature = (width=None, height=None, k=None, players=None, gravity=None, rule=None))]
    fn replace(
        &self,
        width: Option<&Bound<'_, PyAny>>,
        height: Option<&Bound<'_, PyAny>>,
        k: Option<&Bound<'_, PyAny>>,
        players: Option<&Bound<'_, PyAny>>,
        gravity: Option<&Bound<'_, PyAny>>,
        rule: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Rules> {
        let rule = match rule {
            Some(rule) => rule_arg(rule)?,
            None => self.rules.rule(),
        };
        let r = &self.rules;
        let own = (
            r.width() as i64,
            r.height() as i64,
            r.k() as i64,
            r.players() as i64,
            r.gravity(),
        );
        Ok(rules_from_args(width, height, k, players, gravity, own, rule)?.into())
    }

    /// The fields as a dict: `Rules(**rules.to_dict())` rebuilds the rules. The
    /// five size fields, and `"rule"` where it is not freestyle.
    #[pyo3(name = "to_dict")]
    fn fields<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("width", self.rules.width())?;
        d.set_item("height", self.rules.height())?;
        d.set_item("k", self.rules.k())?;
        d.set_item("players", self.rules.players())?;
        d.set_item("gravity", self.rules.gravity())?;
        if !self.rules.is_freestyle() {
            d.set_item("rule", self.rules.rule().name())?;
        }
        Ok(d)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let r = slf.get().rules;
        let args = (
            r.width(),
            r.height(),
            r.k(),
            r.players(),
            r.gravity(),
            r.rule().name(),
        );
        (slf.get_type(), args).into_pyobject(py)
    }

    /// An expression that rebuilds these rules.
    fn __repr__(&self) -> String {
        format!("Rules({})", rules_kwargs(&self.rules))
    }
}
