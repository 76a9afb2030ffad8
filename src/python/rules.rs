//! `inarow.Rules`: the rules of one game as a frozen, hashable Python value, and
//! the one reading of "rules=" or the five rule keywords in every signature.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use super::args::{
    bool_arg, int_arg, int_value, rule_arg, rules_from_args, shown, type_name, IntValue, DEFAULTS,
};
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

/// The arguments that rebuild a board of rules `r` in `Board(...)` or
/// `Board.from_moves(...)`: the five keywords, or `rules=Rules(...)` where the
/// win rule is not freestyle (no keyword spells it).
pub(crate) fn board_rules_args(r: &CoreRules) -> String {
    if r.is_freestyle() {
        rules_kwargs(r)
    } else {
        format!("rules=Rules({})", rules_kwargs(r))
    }
}

/// The rules of a call that takes `rules=` or the five keywords: `rules` (an
/// `inarow.Rules`; None when omitted) wins, and a keyword given beside it must
/// agree with it (`TypeError` naming both otherwise); without `rules`, the
/// keywords (`[width, height, k, players, gravity]`) over `defaults`.
pub(crate) fn rules_or_keywords(
    rules: Option<&Bound<'_, PyAny>>,
    keywords: [Option<&Bound<'_, PyAny>>; 5],
    defaults: (i64, i64, i64, i64, bool),
) -> PyResult<CoreRules> {
    let [width, height, k, players, gravity] = keywords;
    let Some(given) = rules.filter(|r| !r.is_none()) else {
        return rules_from_args(
            width,
            height,
            k,
            players,
            gravity,
            defaults,
            WinRule::Freestyle,
        );
    };
    let r = rules_value(given, "rules")?;
    let conflict = |name: &str, obj: &Bound<'_, PyAny>| {
        PyTypeError::new_err(format!(
            "{name}={} conflicts with rules=Rules({}): pass the rules once, as rules= or as keywords",
            shown(obj),
            rules_kwargs(&r)
        ))
    };
    for (name, obj, value) in [
        ("width", width, r.width()),
        ("height", height, r.height()),
        ("k", k, r.k()),
        ("players", players, r.players()),
    ] {
        if let Some(obj) = obj {
            if int_value(obj, name)? != IntValue::Fits(value as i64) {
                return Err(conflict(name, obj));
            }
        }
    }
    if let Some(obj) = gravity {
        if bool_arg(obj, "gravity")? != r.gravity() {
            return Err(conflict("gravity", obj));
        }
    }
    Ok(r)
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
    /// five keywords, and `"rule"` where it is not freestyle: for freestyle rules
    /// `Board(**rules.to_dict())` spells the keyword form; other rules go by
    /// `rules=` (a board's keywords have no `rule`, so they are refused, never
    /// silently played as freestyle).
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
