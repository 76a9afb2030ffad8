//! `VecEnv(opponent=..., agent_player=..., illegal_action=...)`: reading the
//! arguments, and the rounds of a batched Python opponent.

use numpy::{PyArray2, PyArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use super::agents::Agent;
use super::args::{int_arg, shown, PlaneDtype};
use super::board::Board;
use super::errors::IllegalMoveError;
use super::intake::{int_array, Axis, Spec};
use super::rules::Rules;
use super::vec_outputs::{obs_zeros, ObsGuard};
use crate::agents::Agent as AgentSpec;
use crate::batch::{
    opponent_named, AgentSeat, OpponentKind, StepBuffers, VecGames, OPPONENT_NAMES,
};
use crate::Rules as CoreRules;

/// An opponent played in Python, in rounds over the envs waiting for it.
pub(crate) enum PythonOpponent {
    /// `policy(obs, mask) -> actions`: the caller's batched policy.
    Batched(Py<PyAny>),
    /// An agent with `actions(boards) -> actions` (a trained network's
    /// `NetworkAgent`): given a copy of each waiting env's board.
    Boards(Py<PyAny>),
}

impl PythonOpponent {
    fn object<'py>(&self, py: Python<'py>) -> &Bound<'py, PyAny> {
        match self {
            PythonOpponent::Batched(o) | PythonOpponent::Boards(o) => o.bind(py),
        }
    }
}

const ALLOWED_OPPONENTS: &str = "\"pretrained\" or \"pretrained:SIMULATIONS\" (the network \
     shipped for these rules), an inarow.agents agent, a network.npz path (with an optional \
     :SIMULATIONS), an agent with actions(boards) -> actions, or a callable policy(obs, mask) -> \
     actions";

/// `opponent=`: an `inarow.agents` agent or a name (played in Rust), a trained
/// network (its path, `"pretrained"` for the one shipped for `rules`, or an agent
/// with `actions(boards)`: played on board copies), or a callable
/// `policy(obs, mask) -> actions` (the caller's batched policy).
pub(crate) fn opponent_arg(
    obj: &Bound<'_, PyAny>,
    rules: &CoreRules,
) -> PyResult<(OpponentKind, Option<PythonOpponent>)> {
    if let Ok(agent) = obj.cast::<Agent>() {
        return Ok((OpponentKind::Native(agent.get().spec), None));
    }
    if let Ok(name) = obj.cast::<PyString>() {
        let name = name.to_cow()?;
        if let Some(spec) = opponent_named(&name) {
            return Ok((OpponentKind::Native(spec), None));
        }
        let pretrained = name == "pretrained" || name.starts_with("pretrained:");
        if pretrained || name.ends_with(".npz") || name.contains(".npz:") {
            // `named` resolves both, and names the shipped networks where none plays `rules`.
            let kwargs = PyDict::new(obj.py());
            kwargs.set_item("rules", Rules::from(*rules))?;
            let agent =
                obj.py()
                    .import("inarow.agents")?
                    .call_method("named", (obj,), Some(&kwargs))?;
            return Ok((
                OpponentKind::External,
                Some(PythonOpponent::Boards(agent.unbind())),
            ));
        }
        return Err(PyValueError::new_err(format!(
            "opponent={} is not a known opponent: allowed {OPPONENT_NAMES}, {ALLOWED_OPPONENTS}",
            shown(obj)
        )));
    }
    if let Ok(actions) = obj.getattr("actions") {
        if actions.is_callable() {
            return Ok((
                OpponentKind::External,
                Some(PythonOpponent::Boards(obj.clone().unbind())),
            ));
        }
    }
    if obj.is_callable() {
        return Ok((
            OpponentKind::External,
            Some(PythonOpponent::Batched(obj.clone().unbind())),
        ));
    }
    Err(PyTypeError::new_err(format!(
        "opponent must be None (self-play), one of {OPPONENT_NAMES}, {ALLOWED_OPPONENTS}; got {}: \
         {}",
        obj.get_type().name()?,
        shown(obj)
    )))
}

/// `agent_player=`: 1..=players or "random".
pub(crate) fn agent_player_arg(obj: &Bound<'_, PyAny>, players: usize) -> PyResult<AgentSeat> {
    if let Ok(s) = obj.cast::<PyString>() {
        if s.to_cow()? == "random" {
            return Ok(AgentSeat::Random);
        }
    } else if let Some(p) = int_arg(obj, "agent_player")? {
        if (1..=players as i64).contains(&p) {
            return Ok(AgentSeat::Fixed(p as usize - 1));
        }
    }
    Err(PyValueError::new_err(format!(
        "agent_player={} is out of range: allowed 1..={players} or \"random\"",
        shown(obj)
    )))
}

/// Plays the rounds of the Python `opponent` until the agent is to move in every
/// env: each round passes the envs waiting for it (a batched policy: their
/// observations, in the opponent's own view, and legal masks; a board agent:
/// copies of their boards), reads one action per env through the intake, checks
/// them all, then plays them. Any failure leaves the batch to the caller to
/// restore; what a batched policy raises is re-raised naming it, what a board
/// agent raises passes unchanged.
pub(crate) fn play_python_rounds(
    py: Python<'_>,
    core: &mut VecGames,
    opponent: &PythonOpponent,
    kind: PlaneDtype,
    mut bufs: StepBuffers<'_>,
) -> PyResult<()> {
    let rules = *core.rules();
    let policy = opponent.object(py);
    loop {
        let pending = core.opponent_pending();
        if pending.is_empty() {
            break;
        }
        let m = pending.len();
        let returned = match opponent {
            PythonOpponent::Batched(_) => {
                let obs = obs_zeros(
                    py,
                    kind,
                    [m, rules.players(), rules.height(), rules.width()],
                );
                let mask = PyArray2::<bool>::zeros(py, [m, rules.num_actions()], false);
                {
                    let mut mask_rw = mask.try_readwrite()?;
                    let mut planes = ObsGuard::new(obs.bind(py), kind)?;
                    core.write_pending(&pending, planes.slice()?, mask_rw.as_slice_mut()?);
                }
                policy
                    .call1(PyTuple::new(py, [obs.bind(py).clone(), mask.into_any()])?)
                    .map_err(|e| with_context(py, policy, e))?
            }
            PythonOpponent::Boards(_) => {
                let games = core.games();
                let boards = pending
                    .iter()
                    .map(|&i| {
                        Py::new(
                            py,
                            Board {
                                game: games[i].clone(),
                            },
                        )
                    })
                    .collect::<PyResult<Vec<_>>>()?;
                // The agent's own exceptions pass unchanged: it names its failures.
                policy.call_method1("actions", (PyList::new(py, boards)?,))?
            }
        };
        let last = rules.num_actions() - 1;
        let actions = int_array(
            &returned,
            &Spec {
                name: "the opponent's actions",
                axes: &[Axis::exactly("envs where the opponent is to move", m)],
            },
        )
        .and_then(|a| {
            a.values(i64::MIN..=i64::MAX, |value, at| {
                IllegalMoveError::new_err(format!(
                    "the opponent returned action {value} for env {}: allowed 0..={last}",
                    pending[at[0]]
                ))
            })
        })
        .map_err(|e| with_context(py, policy, e))?;
        core.validate_opponent(&pending, &actions).map_err(|e| {
            IllegalMoveError::new_err(format!(
                "opponent policy {} returned an illegal action in {}",
                short(policy),
                e
            ))
        })?;
        core.play_opponent(&pending, &actions, bufs.reborrow());
    }
    core.write_views(bufs);
    Ok(())
}

/// `e`, of the same type, with a message naming the opponent that raised it.
fn with_context(py: Python<'_>, policy: &Bound<'_, PyAny>, e: PyErr) -> PyErr {
    let wrapped = e
        .get_type(py)
        .call1((format!(
            "opponent policy {}: {}",
            short(policy),
            e.value(py)
        ),))
        .map(PyErr::from_value)
        .unwrap_or_else(|_| e.clone_ref(py));
    wrapped.set_cause(py, Some(e));
    wrapped
}

fn short(obj: &Bound<'_, PyAny>) -> String {
    let r = shown(obj);
    if r.chars().count() > 60 {
        r.chars().take(57).collect::<String>() + "..."
    } else {
        r
    }
}

/// Whether the env's opponent can fail mid-step (a search that Ctrl-C stops, a
/// solver table to allocate, a Python policy): such steps are undone on failure.
pub(crate) fn can_fail(kind: Option<OpponentKind>) -> bool {
    matches!(
        kind,
        Some(OpponentKind::External)
            | Some(OpponentKind::Native(
                AgentSpec::Negamax { .. } | AgentSpec::Perfect { .. } | AgentSpec::Threats { .. }
            ))
    )
}

/// Whether stepping needs the interpreter released on a watched worker (searches).
pub(crate) fn searches(kind: Option<OpponentKind>) -> bool {
    matches!(
        kind,
        Some(OpponentKind::Native(
            AgentSpec::Negamax { .. } | AgentSpec::Perfect { .. } | AgentSpec::Threats { .. }
        ))
    )
}
