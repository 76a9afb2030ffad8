//! `inarow.MCTS`: batched tree search, leaves evaluated by random playouts in Rust
//! or by one Python call per round for every waiting leaf.

use crate::watch::CancelToken;

use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::{PyMemoryError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};

use super::args::{bool_arg, ranged_int, rule_arg, rules_from_args, type_name, DEFAULTS};
use super::board::{game_arg, Board};
use super::errors::{CancelledError, IllegalMoveError};
use super::intake::{float_array, int_array, unravel, Axis, NonFinite, Numbers, Spec};
use super::interrupt::run_interruptible;
use super::net::ConvNet;
use super::rules::{rules_kwargs, rules_value};
use crate::mcts::{
    Config, RootPolicy, Search, SearchError, SearchOutput, DEFAULT_MAX_MEMORY, MAX_SIMULATIONS,
    MAX_THREADS,
};
use crate::{Game, Rules, WinRule};

/// Rollout work (simulations x games x rollouts x cells, a bound on playout
/// moves) below which a search runs on the calling thread: well under a second
/// even for the longest playouts, so Ctrl-C still lands in time.
const INLINE_WORK: u64 = 2_000_000;

fn search_error(e: SearchError) -> PyErr {
    match e {
        SearchError::Memory(m) => PyMemoryError::new_err(m),
        SearchError::IllegalAction(m) => IllegalMoveError::new_err(m),
        SearchError::State(m) => PyRuntimeError::new_err(m),
        SearchError::Cancelled => CancelledError::new_err("search cancelled"),
        SearchError::Config(m) | SearchError::Rules(m) | SearchError::Input(m) => {
            PyValueError::new_err(m)
        }
    }
}

/// The rules of a search: an `inarow.Rules`, a `Board` (its rules), a dict or any
/// object with `width`, `height`, `k`, `players`, `gravity`, or `None` (Connect
/// Four).
fn rules_arg(rules: Option<&Bound<'_, PyAny>>) -> PyResult<Rules> {
    let Some(rules) = rules.filter(|r| !r.is_none()) else {
        return Ok(Rules::connect_four());
    };
    if let Ok(r) = rules_value(rules, "rules") {
        return Ok(r);
    }
    if let Ok(board) = rules.cast::<Board>() {
        return Ok(*board.borrow().game.rules());
    }
    const NAMES: [&str; 5] = ["width", "height", "k", "players", "gravity"];
    let mut fields: [Option<Bound<'_, PyAny>>; 5] = Default::default();
    let mut rule = WinRule::Freestyle;
    if let Ok(dict) = rules.cast::<PyDict>() {
        for (key, value) in dict.iter() {
            let name: String = key.extract().unwrap_or_default();
            if name == "rule" {
                rule = rule_arg(&value)?;
                continue;
            }
            let Some(i) = NAMES.iter().position(|n| *n == name) else {
                return Err(PyTypeError::new_err(format!(
                    "unknown rules key {}: allowed {NAMES:?} and \"rule\"",
                    key.repr()?
                )));
            };
            fields[i] = Some(value);
        }
    } else {
        for (i, name) in NAMES.iter().enumerate() {
            match rules.getattr(*name) {
                Ok(v) => fields[i] = Some(v),
                Err(_) => {
                    return Err(PyTypeError::new_err(format!(
                        "rules must be a Board, a dict or an object with width, height, k, players \
                         and gravity; got {} (no attribute {name:?})",
                        rules.get_type().name()?
                    )))
                }
            }
        }
    }
    let [w, h, k, p, g] = &fields;
    rules_from_args(
        w.as_ref(),
        h.as_ref(),
        k.as_ref(),
        p.as_ref(),
        g.as_ref(),
        DEFAULTS,
        rule,
    )
}

/// The games to search: a sequence of `Board` or a `VecEnv` (one tree per env).
fn games_arg(boards: &Bound<'_, PyAny>) -> PyResult<Vec<Game>> {
    if boards.cast::<Board>().is_ok() {
        return Err(PyTypeError::new_err(
            "boards must be a list of Board or a VecEnv, got one Board (wrap it: [board])",
        ));
    }
    if boards.hasattr("num_envs")? && boards.hasattr("board")? {
        let n: usize = boards.getattr("num_envs")?.extract()?;
        return (0..n)
            .map(|i| {
                let b = boards.call_method1("board", (i,))?;
                Ok(b.cast::<Board>()?.borrow().game.clone())
            })
            .collect();
    }
    let not_a_list = || {
        PyTypeError::new_err(format!(
            "boards must be a list of Board or a VecEnv, got {}",
            type_name(boards)
        ))
    };
    if boards.is_instance_of::<PyString>() {
        return Err(not_a_list());
    }
    let mut games = Vec::new();
    for (i, item) in boards.try_iter().map_err(|_| not_a_list())?.enumerate() {
        let item = item?;
        games.push(game_arg(&item, &format!("boards[{i}]"))?);
    }
    if games.is_empty() {
        return Err(PyValueError::new_err(
            "boards is empty: give at least one Board",
        ));
    }
    Ok(games)
}

/// An evaluator output read by the intake (floats only; -inf allowed in logits,
/// where the search refuses it at legal actions), as float32 (what the search
/// reads). A finite value beyond float32's range is refused, not made infinite.
fn evaluator_output(
    obj: &Bound<'_, PyAny>,
    name: &str,
    axes: &[Axis<'_>],
    non_finite: NonFinite,
) -> PyResult<Vec<f32>> {
    let spec = Spec { name, axes };
    let (shape, wide) = float_array(obj, &spec, Numbers::FloatsOnly, non_finite)?;
    let mut narrow = Vec::with_capacity(wide.len());
    for (i, &x) in wide.iter().enumerate() {
        let x32 = x as f32;
        if x32.is_infinite() && x.is_finite() {
            let index: Vec<String> = unravel(i, &shape).iter().map(usize::to_string).collect();
            return Err(PyValueError::new_err(format!(
                "{name}[{}] is {x}: beyond float32's range (about 3.4e38)",
                index.join(", ")
            )));
        }
        narrow.push(x32);
    }
    Ok(narrow)
}

/// Evaluator logits: `(leaves, num_actions)` floats.
fn logits_arg(obj: &Bound<'_, PyAny>, rows: usize, actions: usize) -> PyResult<Vec<f32>> {
    let axes = [
        Axis::exactly("leaves", rows),
        Axis::exactly("actions", actions),
    ];
    evaluator_output(obj, "logits", &axes, NonFinite::AllowNegInf)
}

/// Evaluator values: `(leaves,)` for 2 players (for the side to move),
/// `(leaves, players)` for more (egocentric: column i for the player i turns
/// after the side to move).
fn values_arg(obj: &Bound<'_, PyAny>, rows: usize, players: usize) -> PyResult<Vec<f32>> {
    if players == 2 {
        evaluator_output(
            obj,
            "values",
            &[Axis::exactly("leaves", rows)],
            NonFinite::Refuse,
        )
    } else {
        let axes = [
            Axis::exactly("leaves", rows),
            Axis::exactly("players", players),
        ];
        evaluator_output(obj, "values", &axes, NonFinite::Refuse)
    }
}

/// Actions for `advance`: one integer per tree, read by the intake (any
/// integer array-like; bools refused); each tree's range is checked by the search.
fn actions_arg(obj: &Bound<'_, PyAny>, trees: usize, actions: usize) -> PyResult<Vec<i64>> {
    let spec = Spec {
        name: "actions",
        axes: &[Axis::exactly("trees", trees)],
    };
    int_array(obj, &spec)?.values(i64::MIN..=i64::MAX, |value, at| {
        IllegalMoveError::new_err(format!(
            "tree {}: action {value} is out of range: allowed 0..={}",
            at[0],
            actions - 1
        ))
    })
}

/// The search's result for each tree (see `MCTS.run`).
#[pyclass(module = "inarow._native", name = "SearchResult", frozen)]
pub struct SearchResult {
    #[pyo3(get)]
    visit_counts: Py<PyAny>,
    #[pyo3(get)]
    policy: Py<PyAny>,
    #[pyo3(get)]
    values: Py<PyAny>,
    #[pyo3(get)]
    actions: Py<PyAny>,
}

#[pymethods]
impl SearchResult {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let shape = self.visit_counts.bind(py).getattr("shape")?;
        Ok(format!(
            "SearchResult(visit_counts=<array {}>, ...)",
            shape.repr()?
        ))
    }
}

fn result_object(py: Python<'_>, out: SearchOutput) -> PyResult<SearchResult> {
    let n = out.actions.len();
    let a = out.num_actions;
    let visits = PyArray1::from_vec(py, out.visit_counts).reshape([n, a])?;
    let policy = PyArray1::from_vec(py, out.policy).reshape([n, a])?;
    let values = PyArray1::from_vec(py, out.values);
    let values = if out.value_width == 1 {
        values.into_any()
    } else {
        values.reshape([n, out.value_width])?.into_any()
    };
    Ok(SearchResult {
        visit_counts: visits.into_any().unbind(),
        policy: policy.into_any().unbind(),
        values: values.unbind(),
        actions: PyArray1::from_vec(py, out.actions).into_any().unbind(),
    })
}

/// Batched Monte Carlo tree search: one tree per game, leaves evaluated by random
/// playouts in Rust or by one Python call per round for every waiting leaf.
#[pyclass(module = "inarow._native", name = "MCTS")]
pub struct Mcts {
    search: Search,
}

impl Mcts {
    /// The waiting leaves as `(obs, mask)` numpy arrays, or `None` when done.
    fn pending<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyTuple>>> {
        let (obs, mask, rows) = self.search.pending();
        if rows == 0 {
            return Ok(None);
        }
        let r = self.search.rules();
        let obs =
            PyArray1::from_slice(py, obs).reshape([rows, r.players(), r.height(), r.width()])?;
        let mask = PyArray1::from_slice(py, mask).reshape([rows, r.num_actions()])?;
        Ok(Some(PyTuple::new(py, [obs.into_any(), mask.into_any()])?))
    }

    /// Checks and feeds one round of evaluator outputs, off the interpreter.
    fn feed_outputs(
        &mut self,
        py: Python<'_>,
        logits: &Bound<'_, PyAny>,
        values: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let rows = self.search.pending().2;
        let r = *self.search.rules();
        let logits = logits_arg(logits, rows, r.num_actions())?;
        let values = values_arg(values, rows, r.players())?;
        let search = &mut self.search;
        py.detach(|| search.feed(&logits, &values))
            .map_err(search_error)?;
        Ok(())
    }

    fn start_games(&mut self, py: Python<'_>, games: &[Game]) -> PyResult<()> {
        let search = &mut self.search;
        py.detach(|| search.start(games)).map_err(search_error)?;
        Ok(())
    }

    /// Runs the rounds with a Python evaluator until every tree is done.
    fn run_with(
        &mut self,
        py: Python<'_>,
        games: &[Game],
        evaluate: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        self.start_games(py, games)?;
        let outcome = (|| -> PyResult<()> {
            while let Some(pending) = self.pending(py)? {
                py.check_signals()?;
                let returned = evaluate.call1(pending).map_err(|e| {
                    if e.is_instance_of::<pyo3::exceptions::PyException>(py) {
                        let err =
                            PyRuntimeError::new_err(format!(
                            "MCTS.run: evaluate raised {}; every tree is as it was before run()",
                            e.get_type(py).name().map(|n| n.to_string()).unwrap_or_default()
                        ));
                        err.set_cause(py, Some(e));
                        err
                    } else {
                        e
                    }
                })?;
                let pair = returned
                    .cast::<PyTuple>()
                    .ok()
                    .filter(|t| t.len() == 2)
                    .ok_or_else(|| {
                        PyTypeError::new_err(format!(
                            "evaluate must return a tuple (logits, values), got {}",
                            type_name(&returned)
                        ))
                    })?;
                self.feed_outputs(py, &pair.get_item(0)?, &pair.get_item(1)?)
                    .map_err(|e| returned_by_evaluate(py, e))?;
            }
            Ok(())
        })();
        if outcome.is_err() {
            self.search.abort();
        }
        outcome
    }

    /// Runs the rounds with a native network as the evaluator: each round's leaves go
    /// through its cache and forward pass off the interpreter, with no Python call.
    fn run_native(&mut self, py: Python<'_>, games: &[Game], net: &ConvNet) -> PyResult<()> {
        let r = *self.search.rules();
        let n = net.net();
        let values = if r.players() == 2 { 1 } else { r.players() };
        let have = (n.planes(), n.height(), n.width(), n.actions(), n.values());
        let need = (r.players(), r.height(), r.width(), r.num_actions(), values);
        if have != need {
            return Err(PyValueError::new_err(format!(
                "evaluate: the network takes {} planes of {}x{} and gives {} logits and {} \
                 values; these rules need {} planes of {}x{}, {} logits and {} values",
                have.0, have.1, have.2, have.3, have.4, need.0, need.1, need.2, need.3, need.4
            )));
        }
        self.start_games(py, games)?;
        let outcome = (|| -> PyResult<()> {
            loop {
                py.check_signals()?;
                let search = &mut self.search;
                let round = py.detach(|| -> Result<bool, NativeError> {
                    let (logits, values) = {
                        let (obs, _, rows) = search.pending();
                        if rows == 0 {
                            return Ok(true);
                        }
                        net.cache()
                            .forward(n, obs)
                            .map_err(|e| NativeError::Net(e.0))?
                    };
                    if values.iter().any(|v| !v.is_finite())
                        || logits.iter().any(|l| l.is_nan() || *l == f32::INFINITY)
                    {
                        return Err(NativeError::Net(
                            "the network returned NaN or infinite outputs (are its weights \
                             finite?)"
                                .into(),
                        ));
                    }
                    search.feed(&logits, &values).map_err(NativeError::Search)?;
                    Ok(false)
                });
                match round {
                    Ok(true) => return Ok(()),
                    Ok(false) => {}
                    Err(NativeError::Net(m)) => {
                        return Err(PyValueError::new_err(format!("evaluate: {m}")))
                    }
                    Err(NativeError::Search(e)) => return Err(search_error(e)),
                }
            }
        })();
        if outcome.is_err() {
            self.search.abort();
        }
        outcome
    }
}

/// Why a round with a native evaluator failed, carried out of the detached section.
enum NativeError {
    Net(String),
    Search(SearchError),
}

/// A refused evaluator output, its message saying where it came from (same
/// exception type, the original chained).
fn returned_by_evaluate(py: Python<'_>, e: PyErr) -> PyErr {
    let msg = format!("evaluate(obs, mask) returned bad outputs: {}", e.value(py));
    match e.get_type(py).call1((msg,)) {
        Ok(v) => {
            let new = PyErr::from_value(v);
            new.set_cause(py, Some(e));
            new
        }
        Err(_) => e,
    }
}

/// A settings argument: a float in an allowed range.
fn float_arg(obj: Option<&Bound<'_, PyAny>>, name: &str, default: f32) -> PyResult<f32> {
    let Some(obj) = obj else { return Ok(default) };
    if obj.is_instance_of::<pyo3::types::PyBool>() {
        return Err(PyTypeError::new_err(format!(
            "{name} must be a number, not bool"
        )));
    }
    obj.extract::<f64>().map(|v| v as f32).map_err(|_| {
        PyTypeError::new_err(format!(
            "{name} must be a number, got {}",
            obj.repr().map(|r| r.to_string()).unwrap_or_default()
        ))
    })
}

/// A settings argument: an integer in `lo..=hi` (at most `i64::MAX`).
fn bounded_int(
    obj: Option<&Bound<'_, PyAny>>,
    name: &str,
    default: u64,
    lo: u64,
    hi: u64,
) -> PyResult<u64> {
    ranged_int::<PyValueError>(obj, name, lo as i64, hi as i64, default as i64).map(|v| v as u64)
}

#[pymethods]
impl Mcts {
    #[new]
    #[pyo3(signature = (rules=None, *, num_simulations=None, c_puct=None, c_uct=None, root="puct", dirichlet_alpha=None,
                        dirichlet_fraction=None, gumbel_considered=None, forced_playouts=None,
                        reuse_tree=None, seed=None, threads=None, max_memory=None, lookahead=None, stop_early=None),
           text_signature = "(rules=None, *, num_simulations=800, c_puct=1.25, c_uct=2.0, root='puct', dirichlet_alpha=0.3, dirichlet_fraction=0.25, gumbel_considered=16, forced_playouts=0.0, reuse_tree=True, seed=0, threads=None, max_memory=4294967296, lookahead=True, stop_early=False)")]
    #[allow(clippy::too_many_arguments)]
    fn new(
        rules: Option<&Bound<'_, PyAny>>,
        num_simulations: Option<&Bound<'_, PyAny>>,
        c_puct: Option<&Bound<'_, PyAny>>,
        c_uct: Option<&Bound<'_, PyAny>>,
        root: &str,
        dirichlet_alpha: Option<&Bound<'_, PyAny>>,
        dirichlet_fraction: Option<&Bound<'_, PyAny>>,
        gumbel_considered: Option<&Bound<'_, PyAny>>,
        forced_playouts: Option<&Bound<'_, PyAny>>,
        reuse_tree: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        threads: Option<&Bound<'_, PyAny>>,
        max_memory: Option<&Bound<'_, PyAny>>,
        lookahead: Option<&Bound<'_, PyAny>>,
        stop_early: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Mcts> {
        let rules = rules_arg(rules)?;
        let d = Config::default();
        let root = match root {
            "puct" => RootPolicy::Puct,
            "gumbel" => RootPolicy::Gumbel,
            other => {
                return Err(PyValueError::new_err(format!(
                    "root={other:?} is not supported: allowed \"puct\", \"gumbel\""
                )))
            }
        };
        let cores = crate::threads::cores().min(MAX_THREADS);
        let config = Config {
            num_simulations: bounded_int(
                num_simulations,
                "num_simulations",
                d.num_simulations as u64,
                0,
                MAX_SIMULATIONS as u64,
            )? as u32,
            c_puct: float_arg(c_puct, "c_puct", d.c_puct)?,
            c_uct: float_arg(c_uct, "c_uct", d.c_uct)?,
            root,
            dirichlet_alpha: float_arg(dirichlet_alpha, "dirichlet_alpha", d.dirichlet_alpha)?,
            dirichlet_fraction: float_arg(
                dirichlet_fraction,
                "dirichlet_fraction",
                d.dirichlet_fraction,
            )?,
            gumbel_considered: bounded_int(
                gumbel_considered,
                "gumbel_considered",
                d.gumbel_considered as u64,
                1,
                u32::MAX as u64,
            )? as u32,
            forced_playouts: float_arg(forced_playouts, "forced_playouts", d.forced_playouts)?,
            reuse_tree: reuse_tree
                .map(|r| bool_arg(r, "reuse_tree"))
                .transpose()?
                .unwrap_or(d.reuse_tree),
            lookahead: lookahead
                .map(|r| bool_arg(r, "lookahead"))
                .transpose()?
                .unwrap_or(d.lookahead),
            stop_early: stop_early
                .map(|r| bool_arg(r, "stop_early"))
                .transpose()?
                .unwrap_or(d.stop_early),
            seed: bounded_int(seed, "seed", 0, 0, u64::MAX >> 1)?,
            threads: bounded_int(threads, "threads", cores as u64, 1, MAX_THREADS as u64)? as usize,
            max_memory: bounded_int(
                max_memory,
                "max_memory",
                DEFAULT_MAX_MEMORY,
                1,
                u64::MAX >> 1,
            )?,
        };
        let search = Search::new(rules, config).map_err(search_error)?;
        Ok(Mcts { search })
    }

    /// Searches `boards` (a list of `Board` or a `VecEnv`; one tree each) and returns a
    /// `SearchResult`. `evaluate(obs, mask) -> (logits, values)` is called once per
    /// round with every waiting leaf; `evaluate="rollout"` uses `rollouts` random
    /// playouts per leaf inside Rust (no Python in the loop); a native network
    /// (`inarow._native.ConvNet`, what `inarow.numpy_net.NumpyNet` runs) is called
    /// from Rust too, through its cache.
    #[pyo3(signature = (boards, evaluate, rollouts=None))]
    fn run(
        &mut self,
        py: Python<'_>,
        boards: &Bound<'_, PyAny>,
        evaluate: &Bound<'_, PyAny>,
        rollouts: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<SearchResult> {
        let games = games_arg(boards)?;
        if let Ok(name) = evaluate.cast::<PyString>() {
            if name.to_cow()? != "rollout" {
                return Err(PyValueError::new_err(format!(
                    "evaluate={} is not supported: give a callable evaluate(obs, mask) -> (logits, values) or \"rollout\"",
                    evaluate.repr()?
                )));
            }
            let rollouts = bounded_int(rollouts, "rollouts", 1, 1, 1 << 20)? as u32;
            let cancel = CancelToken::new();
            let search = &mut self.search;
            let work = search.config().num_simulations as u64
                * games.len() as u64
                * rollouts as u64
                * search.rules().num_cells() as u64;
            // Short searches run on this thread (a worker thread's start and wake-ups
            // would cost more than the search); long ones poll for Ctrl-C.
            let out = if work <= INLINE_WORK {
                py.detach(|| search.run_rollouts(&games, rollouts, cancel.flag()))
            } else {
                run_interruptible(
                    py,
                    &cancel,
                    || search.run_rollouts(&games, rollouts, cancel.flag()),
                    |_| Ok(()),
                )?
            };
            return result_object(py, out.map_err(search_error)?);
        }
        if let Ok(net) = evaluate.cast::<ConvNet>() {
            if rollouts.is_some_and(|r| !r.is_none()) {
                return Err(PyValueError::new_err(
                    "rollouts= applies only to evaluate=\"rollout\"",
                ));
            }
            self.run_native(py, &games, net.get())?;
            let out = self.search.result().map_err(search_error)?;
            return result_object(py, out);
        }
        if !evaluate.is_callable() {
            return Err(PyTypeError::new_err(format!(
                "evaluate must be a callable evaluate(obs, mask) -> (logits, values) or \"rollout\", got {}",
                evaluate.get_type().name()?
            )));
        }
        if rollouts.is_some_and(|r| !r.is_none()) {
            return Err(PyValueError::new_err(
                "rollouts= applies only to evaluate=\"rollout\"",
            ));
        }
        self.run_with(py, &games, evaluate)?;
        let out = self.search.result().map_err(search_error)?;
        result_object(py, out)
    }

    /// Starts a step-by-step search of `boards`: returns `(obs, mask)` of the leaves
    /// to evaluate, or `None` if there are none (then call `result()`).
    fn start<'py>(
        &mut self,
        py: Python<'py>,
        boards: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Bound<'py, PyTuple>>> {
        let games = games_arg(boards)?;
        self.start_games(py, &games)?;
        self.pending(py)
    }

    /// Feeds the evaluation of the waiting leaves; returns the next `(obs, mask)`
    /// or `None` when the search is done. Bad outputs are refused with nothing changed.
    fn feed<'py>(
        &mut self,
        py: Python<'py>,
        logits: &Bound<'py, PyAny>,
        values: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Bound<'py, PyTuple>>> {
        if !self.search.is_pending() {
            return Err(PyRuntimeError::new_err(
                "no leaves are waiting for an evaluation: call start() first",
            ));
        }
        self.feed_outputs(py, logits, values)?;
        self.pending(py)
    }

    /// The result of the last finished search (after `run`, or `start`/`feed` to the end).
    fn result(&mut self, py: Python<'_>) -> PyResult<SearchResult> {
        let out = self.search.result().map_err(search_error)?;
        result_object(py, out)
    }

    /// Plays one action per tree at the roots (ignored for finished games), keeping
    /// each chosen subtree when `reuse_tree`. All checked before any tree moves.
    fn advance(&mut self, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        self.search.check_can_advance().map_err(search_error)?;
        let actions = actions_arg(
            actions,
            self.search.num_trees(),
            self.search.rules().num_actions(),
        )?;
        self.search.advance(&actions).map_err(search_error)
    }

    #[getter]
    fn num_simulations(&self) -> u32 {
        self.search.config().num_simulations
    }
    #[setter]
    fn set_num_simulations(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let n = bounded_int(Some(value), "num_simulations", 0, 0, MAX_SIMULATIONS as u64)? as u32;
        self.search.set_num_simulations(n).map_err(search_error)
    }
    #[getter]
    fn root(&self) -> &'static str {
        match self.search.config().root {
            RootPolicy::Puct => "puct",
            RootPolicy::Gumbel => "gumbel",
        }
    }
    #[getter]
    fn threads(&self) -> usize {
        self.search.config().threads
    }
    #[getter]
    fn num_trees(&self) -> usize {
        self.search.num_trees()
    }
    #[getter]
    fn num_actions(&self) -> usize {
        self.search.rules().num_actions()
    }

    fn __repr__(&self) -> String {
        let c = self.search.config();
        let r = self.search.rules();
        format!(
            "MCTS(Rules({}), num_simulations={}, c_puct={}, c_uct={}, \
             root={:?}, dirichlet_alpha={}, dirichlet_fraction={}, gumbel_considered={}, \
             forced_playouts={}, reuse_tree={}, \
             seed={}, threads={}, max_memory={}, lookahead={}, stop_early={})",
            rules_kwargs(r),
            c.num_simulations,
            c.c_puct,
            c.c_uct,
            self.root(),
            c.dirichlet_alpha,
            c.dirichlet_fraction,
            c.gumbel_considered,
            c.forced_playouts,
            if c.reuse_tree { "True" } else { "False" },
            c.seed,
            c.threads,
            c.max_memory,
            if c.lookahead { "True" } else { "False" },
            if c.stop_early { "True" } else { "False" }
        )
    }
}
