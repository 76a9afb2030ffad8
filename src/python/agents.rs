//! `inarow.agents` and the native half of `inarow.evaluate.match`.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFloat, PyTuple};

use super::args::{bool_arg, int_arg, int_value, ranged_int, IntValue};
use super::args::{seed_arg, shown, str_arg, threads_arg};
use super::board::{game_arg, Board};
use super::book::shipped_book;
use super::errors::{IllegalMoveError, SolverConfigError, UnsupportedRulesError};
use super::interrupt::run_interruptible;
use super::rules::{rules_or_default, rules_value};
use crate::agents::{
    choose_many, game_rng, play_match as core_play_match, play_opening, seat_of_a, Agent as Spec,
    AgentError, AgentWorker, Keep, MatchConfig, MatchResult, Openings, MAX_DEPTH,
    MAX_THREATS_NODES, MAX_THREATS_SECONDS,
};
use crate::batch::{opponent_named, OPPONENT_NAMES};
use crate::solver::book::Book;
use crate::solver::{DEFAULT_TT_BYTES, MAX_THREADS, MAX_TT_BYTES, MIN_TT_BYTES};
use crate::threads::cores;
use crate::threats::{Budget, MAX_THREADS as THREATS_MAX_THREADS};
use crate::watch::CancelToken;
use crate::{Game, Rng};
use std::time::Duration;

/// Most games one match accepts.
const MAX_GAMES: i64 = 1 << 40;

fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(std::process::id() as u64);
    h.finish() >> 1
}

/// The shipped opening book for a perfect agent (loaded on first use), `None`
/// for the others.
fn perfect_book(py: Python<'_>, spec: &Spec) -> Option<Arc<Book>> {
    match spec {
        Spec::Perfect { .. } => shipped_book(py),
        _ => None,
    }
}

/// A built-in agent: `agent(board) -> action`. Made by the functions of
/// `inarow.agents` (`random`, `greedy`, `negamax`, `perfect`).
#[pyclass(module = "inarow._native", name = "Agent", frozen)]
pub struct Agent {
    pub(crate) spec: Spec,
    seed: Option<u64>,
    rng: Mutex<Rng>,
    worker: Mutex<AgentWorker>,
}

impl Agent {
    fn build(spec: Spec, seed: Option<&Bound<'_, PyAny>>) -> PyResult<Agent> {
        spec.validate().map_err(PyErr::from)?;
        let seed = seed_arg(seed)?;
        Ok(Agent {
            spec,
            seed,
            rng: Mutex::new(Rng::new(seed.unwrap_or_else(fresh_seed), 0)),
            worker: Mutex::new(AgentWorker::new(spec)),
        })
    }

    /// Whether a move can take long enough to need Ctrl-C handling off the interpreter.
    fn searches(&self) -> bool {
        self.spec.searches()
    }

    /// A move for `game` from this agent's own generator.
    fn choose_here(&self, py: Python<'_>, game: &Game) -> PyResult<usize> {
        self.spec.check_rules(game.rules()).map_err(PyErr::from)?;
        if game.is_over() {
            return Err(AgentError::GameOver.into());
        }
        let token = CancelToken::new();
        let book = perfect_book(py, &self.spec);
        let work = || {
            let mut worker = self.worker.lock().unwrap_or_else(|p| p.into_inner());
            worker.set_book(book);
            let mut rng = self.rng.lock().unwrap_or_else(|p| p.into_inner());
            worker.choose(game, &mut rng, token.flag())
        };
        let chosen = if self.searches() {
            run_interruptible(py, &token, work, |_| Ok(()))?
        } else {
            work()
        };
        chosen.map_err(PyErr::from)
    }

    /// Its name in `inarow.agents` and its arguments, as Python values.
    fn constructor<'py>(&self, py: Python<'py>) -> PyResult<(&'static str, Bound<'py, PyTuple>)> {
        let seed = self.seed.into_pyobject(py)?.into_any();
        Ok(match self.spec {
            Spec::Random => ("random", PyTuple::new(py, [seed])?),
            Spec::Greedy => ("greedy", PyTuple::new(py, [seed])?),
            Spec::Negamax { depth } => (
                "negamax",
                PyTuple::new(py, [depth.into_pyobject(py)?.into_any(), seed])?,
            ),
            Spec::Perfect {
                temperature,
                tt_bytes,
                threads,
            } => (
                "perfect",
                PyTuple::new(
                    py,
                    [
                        PyFloat::new(py, temperature).into_any(),
                        seed,
                        tt_bytes.into_pyobject(py)?.into_any(),
                        threads.into_pyobject(py)?.into_any(),
                    ],
                )?,
            ),
            Spec::Threats { budget, threads } => {
                let (time_limit, nodes) = match budget {
                    Budget::Time(t) => (t.as_secs_f64(), None),
                    Budget::Nodes(n) => (DEFAULT_THREATS_SECONDS, Some(n)),
                };
                (
                    "threats",
                    PyTuple::new(
                        py,
                        [
                            PyFloat::new(py, time_limit).into_any(),
                            nodes.into_pyobject(py)?.into_any(),
                            seed,
                            threads.into_pyobject(py)?.into_any(),
                        ],
                    )?,
                )
            }
        })
    }
}

/// Seconds per move of the threat engine when none are given.
const DEFAULT_THREATS_SECONDS: f64 = 1.0;

/// The threat engine's budget: `nodes` when given (the time limit then does not
/// apply), else `time_limit` seconds.
fn threats_budget(
    time_limit: Option<&Bound<'_, PyAny>>,
    nodes: Option<&Bound<'_, PyAny>>,
) -> PyResult<Budget> {
    let seconds = match time_limit.filter(|t| !t.is_none()) {
        None => DEFAULT_THREATS_SECONDS,
        Some(t) => {
            let v = number_arg(t, "time_limit")?;
            if !(v > 0.0 && v <= MAX_THREATS_SECONDS) {
                return Err(PyValueError::new_err(format!(
                    "time_limit={} is out of range: allowed 0 < seconds <= {MAX_THREATS_SECONDS}",
                    t.repr()?
                )));
            }
            v
        }
    };
    match nodes.filter(|n| !n.is_none()) {
        None => Ok(Budget::Time(Duration::from_secs_f64(seconds))),
        Some(n) => match int_arg(n, "nodes")? {
            Some(v) if (1..=MAX_THREATS_NODES as i64).contains(&v) => Ok(Budget::Nodes(v as u64)),
            _ => Err(PyValueError::new_err(format!(
                "nodes={} is out of range: allowed 1..=2**40",
                n.repr()?
            ))),
        },
    }
}

fn temperature_arg(t: &Bound<'_, PyAny>) -> PyResult<f64> {
    let v = number_arg(t, "temperature")?;
    if !(v >= 0.0 && v.is_finite()) {
        return Err(PyValueError::new_err(format!(
            "temperature={} is out of range: allowed a finite number >= 0",
            t.repr()?
        )));
    }
    Ok(v)
}

/// A real number (not a bool), else `TypeError` naming `name`.
fn number_arg(t: &Bound<'_, PyAny>, name: &str) -> PyResult<f64> {
    if t.is_instance_of::<pyo3::types::PyBool>() {
        return Err(PyTypeError::new_err(format!(
            "{name} must be a number, not bool ({})",
            t.repr()?
        )));
    }
    t.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "{name} must be a number, got {}: {}",
            t.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default(),
            t.repr().map(|r| r.to_string()).unwrap_or_default()
        ))
    })
}

#[pymethods]
impl Agent {
    /// A uniformly random legal move.
    #[staticmethod]
    #[pyo3(signature = (seed=None))]
    fn random(seed: Option<&Bound<'_, PyAny>>) -> PyResult<Agent> {
        Agent::build(Spec::Random, seed)
    }

    /// Wins at once if it can, else avoids handing the next player an immediate
    /// win, else blocks one of its winning cells, else random.
    #[staticmethod]
    #[pyo3(signature = (seed=None))]
    fn greedy(seed: Option<&Bound<'_, PyAny>>) -> PyResult<Agent> {
        Agent::build(Spec::Greedy, seed)
    }

    /// Depth-limited alpha-beta over a line-counting evaluation (1 <= depth <= 64).
    #[staticmethod]
    #[pyo3(signature = (depth, seed=None))]
    fn negamax(depth: &Bound<'_, PyAny>, seed: Option<&Bound<'_, PyAny>>) -> PyResult<Agent> {
        let d = match int_arg(depth, "depth")? {
            Some(d) if (1..=MAX_DEPTH as i64).contains(&d) => d as u32,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "depth={} is out of range: allowed 1..={MAX_DEPTH}",
                    depth.repr()?
                )))
            }
        };
        Agent::build(Spec::Negamax { depth: d }, seed)
    }

    /// The exact solver's choice: best score at temperature 0, else a softmax.
    #[staticmethod]
    #[pyo3(signature = (temperature=None, seed=None, tt_bytes=None, threads=None))]
    fn perfect(
        temperature: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        tt_bytes: Option<&Bound<'_, PyAny>>,
        threads: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Agent> {
        let temperature = temperature.map(temperature_arg).transpose()?.unwrap_or(0.0);
        let tt_bytes = ranged_int::<SolverConfigError>(
            tt_bytes,
            "tt_bytes",
            MIN_TT_BYTES as i64,
            MAX_TT_BYTES as i64,
            DEFAULT_TT_BYTES as i64,
        )? as usize;
        let threads =
            ranged_int::<SolverConfigError>(threads, "threads", 1, MAX_THREADS as i64, 1)? as usize;
        Agent::build(
            Spec::Perfect {
                temperature,
                tt_bytes,
                threads,
            },
            seed,
        )
    }

    /// The threat engine: threat-space searches (VCF, VCT) and alpha-beta within
    /// `time_limit` seconds per move, or `nodes` per move when given, on `threads`
    /// threads (default 1).
    #[staticmethod]
    #[pyo3(signature = (time_limit=None, nodes=None, seed=None, threads=None))]
    fn threats(
        time_limit: Option<&Bound<'_, PyAny>>,
        nodes: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        threads: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Agent> {
        let budget = threats_budget(time_limit, nodes)?;
        let threads =
            ranged_int::<PyValueError>(threads, "threads", 1, THREATS_MAX_THREADS as i64, 1)?
                as usize;
        Agent::build(Spec::Threats { budget, threads }, seed)
    }

    /// The built-in agent a name stands for: the one grammar of agent names,
    /// read by `inarow.agents.named` and every `opponent=`. `ValueError` naming the
    /// name and what is allowed.
    #[staticmethod]
    #[pyo3(signature = (name, seed=None))]
    fn named(name: &Bound<'_, PyAny>, seed: Option<&Bound<'_, PyAny>>) -> PyResult<Agent> {
        let text = str_arg(name, "name")?;
        match opponent_named(&text) {
            Some(spec) => Agent::build(spec, seed),
            None => Err(PyValueError::new_err(format!(
                "{} is not a built-in agent name: allowed {OPPONENT_NAMES}",
                shown(name)
            ))),
        }
    }

    /// Raises `UnsupportedRulesError` where this agent does not play `rules` (an
    /// `inarow.Rules`), saying what it plays; else returns None.
    fn check_rules(&self, rules: &Bound<'_, PyAny>) -> PyResult<()> {
        let rules = rules_value(rules, "rules")?;
        self.spec.check_rules(&rules).map_err(PyErr::from)
    }

    /// The action this agent plays on `board` (never modified). Raises
    /// `IllegalMoveError` on a finished game, `UnsupportedRulesError` for rules the
    /// agent does not play, `TypeError` for anything but a Board.
    fn __call__(&self, py: Python<'_>, board: &Bound<'_, PyAny>) -> PyResult<usize> {
        let game = game_arg(board, "board")?;
        self.choose_here(py, &game)
    }

    /// The actions for many boards, computed across `threads` (default: all cores);
    /// board `i` draws from stream `first_stream + i` of `seed` (default: one seed
    /// drawn from this agent's generator, as `draw_seed` draws it), so the result
    /// does not depend on the thread count, and the boards split in slices (each
    /// with the seed and its first index as `first_stream`) get the same actions.
    /// All boards are checked first (finished games, rules, types), naming the
    /// first bad index.
    #[pyo3(signature = (boards, threads=None, seed=None, first_stream=None))]
    fn actions(
        &self,
        py: Python<'_>,
        boards: &Bound<'_, PyAny>,
        threads: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        first_stream: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<usize>> {
        let threads = threads_arg(threads)?.unwrap_or_else(cores);
        let seed = stream_seed_arg(seed)?;
        let first_stream = match first_stream.filter(|f| !f.is_none()) {
            None => 0,
            Some(f) => match int_arg(f, "first_stream")? {
                Some(v) if (0..=MAX_GAMES).contains(&v) => v as u64,
                _ => {
                    return Err(PyValueError::new_err(format!(
                        "first_stream={} is out of range: allowed 0..=2**40",
                        f.repr()?
                    )))
                }
            },
        };
        let mut games = Vec::new();
        for (i, board) in boards.try_iter()?.enumerate() {
            let game = game_arg(&board?, &format!("boards[{i}]"))?;
            self.spec
                .check_rules(game.rules())
                .map_err(|e| with_index(py, PyErr::from(e), i))?;
            if game.is_over() {
                return Err(IllegalMoveError::new_err(format!(
                    "boards[{i}]: the game is over: there is no move to choose"
                )));
            }
            games.push(game);
        }
        let base = seed.unwrap_or_else(|| self.draw_seed());
        let spec = self.spec;
        let token = CancelToken::new();
        let games = &games;
        let book = perfect_book(py, &spec);
        let result = run_interruptible(
            py,
            &token,
            || choose_many(spec, book, games, base, first_stream, threads, token.flag()),
            |_| Ok(()),
        )?;
        result.map_err(PyErr::from)
    }

    /// A seed from this agent's generator: the one a call of `actions` without
    /// `seed` draws (the generator advances as that call would advance it).
    fn draw_seed(&self) -> u64 {
        self.rng
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .next_u64()
    }

    /// `"random"`, `"greedy"`, `"negamax"`, `"perfect"` or `"threats"`.
    #[getter]
    fn name(&self, py: Python<'_>) -> PyResult<&'static str> {
        Ok(self.constructor(py)?.0)
    }
    /// The look-ahead of `negamax` (None for the others).
    #[getter]
    fn depth(&self) -> Option<u32> {
        match self.spec {
            Spec::Negamax { depth } => Some(depth),
            _ => None,
        }
    }
    /// The temperature of `perfect` (None for the others).
    #[getter]
    fn temperature(&self) -> Option<f64> {
        match self.spec {
            Spec::Perfect { temperature, .. } => Some(temperature),
            _ => None,
        }
    }
    /// The seconds per move of `threats` (None for the others, and with a node budget).
    #[getter]
    fn time_limit(&self) -> Option<f64> {
        match self.spec {
            Spec::Threats {
                budget: Budget::Time(t),
                ..
            } => Some(t.as_secs_f64()),
            _ => None,
        }
    }
    /// The nodes per move of `threats` (None for the others, and with a time limit).
    #[getter]
    fn nodes(&self) -> Option<u64> {
        match self.spec {
            Spec::Threats {
                budget: Budget::Nodes(n),
                ..
            } => Some(n),
            _ => None,
        }
    }
    /// The threads of `perfect` and `threats` (None for the others).
    #[getter]
    fn threads(&self) -> Option<usize> {
        match self.spec {
            Spec::Perfect { threads, .. } | Spec::Threats { threads, .. } => Some(threads),
            _ => None,
        }
    }
    /// The seed given at construction (None: a fresh one was drawn).
    #[getter]
    fn seed(&self) -> Option<u64> {
        self.seed
    }

    fn __repr__(&self) -> String {
        let seed = self
            .seed
            .map_or_else(|| "None".to_string(), |s| s.to_string());
        match self.spec {
            Spec::Random => format!("inarow.agents.random(seed={seed})"),
            Spec::Greedy => format!("inarow.agents.greedy(seed={seed})"),
            Spec::Negamax { depth } => format!("inarow.agents.negamax({depth}, seed={seed})"),
            Spec::Perfect {
                temperature,
                tt_bytes,
                threads,
            } => {
                let mut s =
                    format!("inarow.agents.perfect(temperature={temperature:?}, seed={seed}");
                if tt_bytes != DEFAULT_TT_BYTES {
                    s += &format!(", tt_bytes={tt_bytes}");
                }
                if threads != 1 {
                    s += &format!(", threads={threads}");
                }
                s + ")"
            }
            Spec::Threats { budget, threads } => {
                let mut s = match budget {
                    Budget::Time(t) => format!(
                        "inarow.agents.threats(time_limit={:?}, seed={seed}",
                        t.as_secs_f64()
                    ),
                    Budget::Nodes(n) => format!("inarow.agents.threats(nodes={n}, seed={seed}"),
                };
                if threads != 1 {
                    s += &format!(", threads={threads}");
                }
                s + ")"
            }
        }
    }

    /// Pickles as the same constructor call: the copy restarts its generator from
    /// the seed (a fresh one if the seed was None).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let (name, args) = self.constructor(py)?;
        let ctor = py.import("inarow.agents")?.getattr(name)?;
        PyTuple::new(py, [ctor, args.into_any()])
    }
}

/// The `seed` of `Agent.actions`: None, or any 64-bit value (`draw_seed` draws them).
fn stream_seed_arg(seed: Option<&Bound<'_, PyAny>>) -> PyResult<Option<u64>> {
    let Some(s) = seed.filter(|s| !s.is_none()) else {
        return Ok(None);
    };
    let value = match int_value(s, "seed")? {
        IntValue::Fits(v) => u64::try_from(v).ok(),
        IntValue::Huge(digits) => digits.parse::<u64>().ok(),
    };
    value.map(Some).ok_or_else(|| {
        PyValueError::new_err(format!(
            "seed={} is out of range: allowed 0..=2**64-1",
            short_repr(s)
        ))
    })
}

fn with_index(py: Python<'_>, e: PyErr, i: usize) -> PyErr {
    let msg = format!("boards[{i}]: {}", e.value(py));
    let new = match e.get_type(py).call1((msg,)) {
        Ok(v) => PyErr::from_value(v),
        Err(_) => return e,
    };
    new.set_cause(py, Some(e));
    new
}

/// One side of a match: a built-in agent (played natively) or a Python callable.
enum Side<'py> {
    Native(Spec),
    Python(Bound<'py, PyAny>),
}

fn side<'py>(obj: &Bound<'py, PyAny>, name: &str) -> PyResult<Side<'py>> {
    if let Ok(agent) = obj.cast::<Agent>() {
        return Ok(Side::Native(agent.get().spec));
    }
    if !obj.is_callable() {
        return Err(PyTypeError::new_err(format!(
            "{name} must be an agent: an inarow.agents agent or a callable agent(board) -> action, got {}: {}",
            obj.get_type().name()?,
            short_repr(obj)
        )));
    }
    Ok(Side::Python(obj.clone()))
}

fn short_repr(obj: &Bound<'_, PyAny>) -> String {
    let r = obj
        .repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "<unrepresentable>".into());
    if r.chars().count() > 80 {
        r.chars().take(77).collect::<String>() + "..."
    } else {
        r
    }
}

/// Plays `games` games of `a` against `b` (see `inarow.evaluate.match`); returns
/// the counts as a dict. Built-in agents on both sides play natively across
/// `threads`; otherwise the games run one by one on this thread, calling the
/// Python agents with a copy of the board.
#[pyfunction]
#[pyo3(signature = (a, b, games, rules=None, seed=None, swap=None, threads=None, progress=None,
                    opening_plies=None, first_game=None, keep_games=None, *, openings=None))]
#[allow(clippy::too_many_arguments)]
pub fn play_match<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    games: &Bound<'py, PyAny>,
    rules: Option<&Bound<'py, PyAny>>,
    seed: Option<&Bound<'py, PyAny>>,
    swap: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    progress: Option<&Bound<'py, PyAny>>,
    opening_plies: Option<&Bound<'py, PyAny>>,
    first_game: Option<&Bound<'py, PyAny>>,
    keep_games: Option<&Bound<'py, PyAny>>,
    openings: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let (side_a, side_b) = (side(a, "a")?, side(b, "b")?);
    let keep = keep_arg(keep_games)?;
    let rules = rules_or_default(rules)?;
    let games = match int_arg(games, "games")? {
        Some(g) if (1..=MAX_GAMES).contains(&g) => g as u64,
        _ => {
            return Err(PyValueError::new_err(format!(
                "games={} is out of range: allowed 1..=2**40",
                games.repr()?
            )))
        }
    };
    let first_game = match first_game.filter(|f| !f.is_none()) {
        None => 0,
        Some(f) => match int_arg(f, "first_game")? {
            Some(v) if (0..=MAX_GAMES - games as i64).contains(&v) => v as u64,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "first_game={} is out of range: allowed 0..={} (2**40 - games)",
                    f.repr()?,
                    MAX_GAMES - games as i64
                )))
            }
        },
    };
    let seed = seed_arg(seed)?.unwrap_or(0);
    let openings = openings_arg(openings, opening_plies, &rules)?;
    let swap = swap
        .map(|s| bool_arg(s, "swap"))
        .transpose()?
        .unwrap_or(true);
    let threads = threads_arg(threads)?.unwrap_or_else(cores);
    let progress = progress.filter(|p| !p.is_none());
    if let Some(p) = progress {
        if !p.is_callable() {
            return Err(PyTypeError::new_err(
                "progress must be None or a callable progress(done, total)",
            ));
        }
    }
    for (side, name) in [(&side_a, "a"), (&side_b, "b")] {
        if let Side::Native(spec) = side {
            spec.check_rules(&rules)
                .map_err(|e| UnsupportedRulesError::new_err(format!("agent {name}: {e}")))?;
        }
    }
    let book = [&side_a, &side_b].into_iter().find_map(|side| match side {
        Side::Native(spec) => perfect_book(py, spec),
        Side::Python(_) => None,
    });
    let config = MatchConfig {
        games,
        first_game,
        seed,
        swap,
        threads,
        openings,
        book,
        keep,
    };
    let start = std::time::Instant::now();
    let result = match (&side_a, &side_b) {
        (Side::Native(sa), Side::Native(sb)) => {
            let done = AtomicU64::new(0);
            let token = CancelToken::new();
            let tick = |_: Python<'_>| -> PyResult<()> {
                if let Some(p) = progress {
                    p.call1((done.load(Ordering::Relaxed), games))?;
                }
                Ok(())
            };
            let r = run_interruptible(
                py,
                &token,
                || core_play_match(rules, sa, sb, &config, &done, token.flag()),
                tick,
            )?;
            let result = r.map_err(PyErr::from)?;
            // The timer reports only while the match runs: the last report is made
            // here, so a callback always sees `(games, games)` and its errors surface.
            if let Some(p) = progress {
                p.call1((done.load(Ordering::Relaxed), games))?;
            }
            result
        }
        _ => play_match_here(py, rules, [&side_a, &side_b], &config, progress)?,
    };
    let seconds = start.elapsed().as_secs_f64();
    let out = PyDict::new(py);
    let t = result.total;
    out.set_item("games", t.games)?;
    out.set_item("wins", t.wins)?;
    out.set_item("draws", t.draws)?;
    out.set_item("losses", t.losses)?;
    let seats: Vec<(u64, u64, u64, u64)> = result
        .seats
        .iter()
        .map(|s| (s.games, s.wins, s.draws, s.losses))
        .collect();
    out.set_item("seats", seats)?;
    out.set_item("moves", result.moves)?;
    out.set_item("repeats_one_game", result.repeats_one_game())?;
    // Per seat of `a`: (index, hash of the moves) of its first game or None, and
    // whether another game went differently; a chunked match merges them.
    let (first_lines, varied): (Vec<Option<(u64, u64)>>, Vec<bool>) = result.seat_lines().unzip();
    out.set_item("first_lines", first_lines)?;
    out.set_item("varied", varied)?;
    out.set_item("seconds", seconds)?;
    // The kept games, by index: (index, a's seat 1-based, winner 1-based or 0 for a
    // draw, moves).
    let mut kept = result.kept;
    kept.sort_by_key(|g| g.index);
    let kept: Vec<(u64, usize, usize, Vec<usize>)> = kept
        .into_iter()
        .map(|g| (g.index, g.seat + 1, g.winner.map_or(0, |w| w + 1), g.moves))
        .collect();
    out.set_item("kept", kept)?;
    Ok(out)
}

/// `keep_games=`: False/None (none), True (all) or "losses".
fn keep_arg(keep: Option<&Bound<'_, PyAny>>) -> PyResult<Keep> {
    let Some(keep) = keep.filter(|k| !k.is_none()) else {
        return Ok(Keep::Nothing);
    };
    if keep.is_instance_of::<pyo3::types::PyBool>() {
        return Ok(if keep.extract::<bool>()? {
            Keep::All
        } else {
            Keep::Nothing
        });
    }
    if let Ok(s) = keep.cast::<pyo3::types::PyString>() {
        if s.to_cow()? == "losses" {
            return Ok(Keep::Losses);
        }
    }
    Err(PyValueError::new_err(format!(
        "keep_games={} is invalid: allowed False, True (every game) or \"losses\" (the games a lost)",
        shown(keep)
    )))
}

/// The openings of a match's games (see `inarow.evaluate.match`): for each distinct
/// opening and seat of `a`, `(moves, seat 1-based, games)`, in the order first met.
/// The same openings `play_match` plays for the same `seed`, `swap`,
/// `opening_plies` and games.
#[pyfunction]
#[pyo3(signature = (games, rules=None, seed=None, swap=None, opening_plies=None, first_game=None,
                    *, openings=None))]
pub fn match_openings(
    games: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
    swap: Option<&Bound<'_, PyAny>>,
    opening_plies: Option<&Bound<'_, PyAny>>,
    first_game: Option<&Bound<'_, PyAny>>,
    openings: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<(Vec<usize>, usize, u64)>> {
    let rules = rules_or_default(rules)?;
    let games = ranged_int::<PyValueError>(Some(games), "games", 1, MAX_GAMES, 1)? as u64;
    let first_game =
        ranged_int::<PyValueError>(first_game, "first_game", 0, MAX_GAMES - games as i64, 0)?
            as u64;
    let openings = openings_arg(openings, opening_plies, &rules)?;
    let swap = swap
        .map(|s| bool_arg(s, "swap"))
        .transpose()?
        .unwrap_or(true);
    let config = MatchConfig {
        games,
        first_game,
        seed: seed_arg(seed)?.unwrap_or(0),
        swap,
        threads: 1,
        openings,
        book: None,
        keep: Keep::Nothing,
    };
    let players = rules.players();
    let mut index: std::collections::HashMap<(Vec<usize>, usize), usize> = Default::default();
    let mut out: Vec<(Vec<usize>, usize, u64)> = Vec::new();
    let mut game = Game::new(rules);
    for i in first_game..first_game + games {
        game.reset();
        play_opening(&mut game, &config, i);
        let moves: Vec<usize> = game.history().iter().map(|&a| a as usize).collect();
        let seat = seat_of_a(i, players, swap) + 1;
        let slot = *index.entry((moves.clone(), seat)).or_insert_with(|| {
            out.push((moves, seat, 0));
            out.len() - 1
        });
        out[slot].2 += 1;
    }
    Ok(out)
}

/// How a match's games open: `openings` (a set: a sequence of move sequences, each
/// legal under `rules`, else `ValueError` naming the opening and the move), or
/// `opening_plies` random moves (default 0); not both.
fn openings_arg(
    openings: Option<&Bound<'_, PyAny>>,
    opening_plies: Option<&Bound<'_, PyAny>>,
    rules: &crate::Rules,
) -> PyResult<Openings> {
    let opening_plies = opening_plies.filter(|o| !o.is_none());
    let Some(set) = openings.filter(|o| !o.is_none()) else {
        let cells = rules.num_cells() as i64;
        let plies =
            ranged_int::<PyValueError>(opening_plies, "opening_plies", 0, cells, 0)? as usize;
        return Ok(Openings::Random(plies));
    };
    if let Some(o) = opening_plies {
        return Err(PyValueError::new_err(format!(
            "opening_plies={} and openings= exclude each other: a set of openings replaces \
             the random ones",
            shown(o)
        )));
    }
    let mut out: Vec<Vec<usize>> = Vec::new();
    for (i, opening) in set.try_iter()?.enumerate() {
        let opening = opening?;
        let mut moves = Vec::new();
        let items = opening.try_iter().map_err(|_| {
            PyTypeError::new_err(format!(
                "openings[{i}] must be a sequence of actions, got {}",
                short_repr(&opening)
            ))
        })?;
        for (j, action) in items.enumerate() {
            let action = action?;
            match int_arg(&action, &format!("openings[{i}][{j}]"))? {
                Some(v) if v >= 0 => moves.push(v as usize),
                _ => {
                    return Err(PyValueError::new_err(format!(
                        "openings: opening {i}: move {} ({}) is out of range: allowed 0..={}",
                        j + 1,
                        shown(&action),
                        rules.num_actions() - 1
                    )))
                }
            }
        }
        out.push(moves);
    }
    let openings = Openings::Set(out.into());
    openings
        .check(rules)
        .map_err(|e| PyValueError::new_err(format!("openings: {e}")))?;
    Ok(openings)
}

/// The match on this thread, one game after the other (some side is Python).
fn play_match_here(
    py: Python<'_>,
    rules: crate::Rules,
    sides: [&Side<'_>; 2],
    config: &MatchConfig,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<MatchResult> {
    /// A side ready to move: a native worker, or the Python callable.
    enum Mover<'a, 'py> {
        Native(Box<AgentWorker>),
        Python(&'a Bound<'py, PyAny>),
    }
    let mut movers: Vec<Mover<'_, '_>> = sides
        .iter()
        .map(|s| match s {
            Side::Native(spec) => Mover::Native(Box::new(
                AgentWorker::new(*spec).with_book(perfect_book(py, spec)),
            )),
            Side::Python(f) => Mover::Python(f),
        })
        .collect();
    let players = rules.players();
    let mut result = MatchResult::new(players);
    let token = CancelToken::new();
    for n in 0..config.games {
        let i = config.first_game + n;
        py.check_signals()?;
        let seat_a = seat_of_a(i, players, config.swap);
        let mut rngs: Vec<Rng> = (0..players)
            .map(|s| game_rng(config.seed, i, players, config.swap, s))
            .collect();
        let mut game = Game::new(rules);
        play_opening(&mut game, config, i);
        while !game.is_over() {
            let seat = game.to_move();
            let which = usize::from(seat != seat_a);
            let action = match &mut movers[which] {
                Mover::Native(worker) => {
                    let searches = worker.agent().searches();
                    let (rng, game, token) = (&mut rngs[seat], &game, &token);
                    let r = if searches {
                        run_interruptible(
                            py,
                            token,
                            || worker.choose(game, rng, token.flag()),
                            |_| Ok(()),
                        )?
                    } else {
                        worker.choose(game, rng, token.flag())
                    };
                    r.map_err(PyErr::from)?
                }
                Mover::Python(agent) => {
                    let copy = Bound::new(py, Board { game: game.clone() })?;
                    let ret = agent.call1((copy,))?;
                    python_action(py, &ret, &game, ["a", "b"][which], agent, i)?
                }
            };
            game.play(action)?;
        }
        result.record_and_keep(seat_a, i, &game, config.keep);
        if let Some(p) = progress {
            p.call1((n + 1, config.games))?;
        }
    }
    Ok(result)
}

/// The action a Python agent returned, checked: an integer, legal here.
fn python_action(
    py: Python<'_>,
    ret: &Bound<'_, PyAny>,
    game: &Game,
    name: &str,
    agent: &Bound<'_, PyAny>,
    index: u64,
) -> PyResult<usize> {
    let whose = format!(
        "agent {name} ({}) in game {index}, move {}",
        short_repr(agent),
        game.stones_on_board() + 1
    );
    let n = game.rules().num_actions();
    let v = match int_arg(ret, "action") {
        Ok(v) => v,
        Err(e) => {
            let err = PyTypeError::new_err(format!(
                "{whose} returned {} ({}): an agent must return an integer action 0..={}",
                short_repr(ret),
                ret.get_type().name()?,
                n - 1
            ));
            err.set_cause(py, Some(e));
            return Err(err);
        }
    };
    match v {
        Some(v) if v >= 0 && (v as u64) < n as u64 && game.is_legal(v as usize) => Ok(v as usize),
        _ => {
            let why = match v {
                Some(v) if v >= 0 && (v as u64) < n as u64 => {
                    let mut g = game.clone();
                    g.play(v as usize)
                        .err()
                        .map_or_else(String::new, |e| e.to_string())
                }
                _ => format!("out of range: allowed 0..={}", n - 1),
            };
            Err(IllegalMoveError::new_err(format!(
                "{whose} returned an illegal action {}: {why}",
                short_repr(ret)
            )))
        }
    }
}
