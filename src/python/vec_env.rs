//! `inarow.VecEnv` and `inarow.simulate`: batches without a Python loop per move.

use std::sync::atomic::{AtomicU64, Ordering};

use numpy::{PyArray1, PyArrayDyn, PyArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyInt, PyList, PyTuple};

use super::args::{choice_arg, int_arg, seed_arg, shown, threads_arg, Arg, PlaneDtype as ObsKind};
use super::board::Board;
use super::errors::IllegalMoveError;
use super::intake::{bool_array, int_array, Axis, Spec};
use super::interrupt::run_interruptible;
use super::progress::Progress;
use super::rules::{rules_or_default, rules_properties, CarriesRules};
use super::vec_opponent::{
    agent_player_arg, can_fail, opponent_arg, play_python_rounds, searches, PythonOpponent,
};
use super::vec_outputs::Outputs;
use crate::batch::{AgentSeat, Autoreset, Opponent, SimulateConfig, VecGames, MAX_ENVS};
use crate::watch::CancelToken;
use crate::Rules;

/// Bytes of output buffers a batch may ask for.
const MAX_BUFFER_BYTES: u128 = 16 << 30;

fn autoreset_name(a: Autoreset) -> &'static str {
    match a {
        Autoreset::NextStep => "next_step",
        Autoreset::SameStep => "same_step",
        Autoreset::Disabled => "disabled",
    }
}

/// Zeroed output arrays for `core`'s batch.
fn new_outputs(py: Python<'_>, core: &VecGames, kind: ObsKind) -> Outputs {
    let r = core.rules();
    let planes = [core.num_envs(), r.players(), r.height(), r.width()];
    let same_step = core.autoreset() == Autoreset::SameStep;
    Outputs::new(py, &core.dims(), planes, kind, same_step)
}

fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(std::process::id() as u64);
    h.finish() >> 1
}

/// A batch of games stepped together (Gymnasium vector conventions).
///
/// `reset`/`step`/`random_actions` return fresh arrays that later calls never
/// modify; `reuse_buffers=True` writes every call into the same arrays (no
/// allocation; copy what you keep). With next-step autoreset, a game that ended
/// shows an all-True `info["action_mask"]` / `legal_mask()` row until its reset
/// (pgx's terminal mask): that step ignores its action.
#[pyclass(module = "inarow._native", name = "VecEnv")]
pub struct VecEnv {
    core: VecGames,
    obs_kind: ObsKind,
    /// The arrays of the latest `reset`/`step`.
    out: Outputs,
    random: Py<PyArray1<i64>>,
    actions: Vec<i64>,
    /// Write every call into the same arrays instead of fresh ones.
    reuse_buffers: bool,
    /// What `opponent=` was given (None: self-play).
    opponent: Option<Py<PyAny>>,
    /// The opponent played in Python, when it is one.
    policy: Option<PythonOpponent>,
    /// `agent_player=` as given (an int or "random"), with an opponent.
    agent_player: Option<Py<PyAny>>,
}

impl CarriesRules for VecEnv {
    fn core_rules(&self) -> &Rules {
        self.core.rules()
    }
}
rules_properties!(VecEnv, with_value);

impl VecEnv {
    /// The arrays the next call fills: the same ones with `reuse_buffers`, else fresh.
    fn next_outputs(&self, py: Python<'_>) -> Outputs {
        if self.reuse_buffers {
            self.out.clone_ref(py)
        } else {
            new_outputs(py, &self.core, self.obs_kind)
        }
    }

    /// Writes observations and masks of the current state (after the opponent's
    /// opening moves, with an opponent). On failure the caller restores the batch.
    fn observe(&mut self, py: Python<'_>) -> PyResult<()> {
        let out = self.next_outputs(py);
        if self.core.has_opponent() {
            self.run_general(py, false, &out)?;
        } else {
            let mut guards = out.borrow(py, self.obs_kind)?;
            let bufs = guards.bufs()?;
            let core = &mut self.core;
            py.detach(|| core.observe(bufs));
        }
        self.out = out;
        Ok(())
    }

    /// A copy of the batch to restore when the step can fail half-way.
    fn undo_point(&self) -> Option<crate::batch::Saved> {
        can_fail(self.core.opponent().map(|o| o.kind)).then(|| self.core.save())
    }

    /// The general step (`actions`: `self.actions`) or observation into `out`:
    /// a searching opponent runs on a watched worker (Ctrl-C), a Python one in
    /// rounds on this thread.
    fn run_general(&mut self, py: Python<'_>, actions: bool, out: &Outputs) -> PyResult<()> {
        let VecEnv {
            core,
            actions: action_values,
            policy,
            obs_kind,
            ..
        } = self;
        let actions = actions.then_some(&action_values[..]);
        let kind = *obs_kind;
        let searching = searches(core.opponent().map(|o| o.kind));
        let mut guards = out.borrow(py, kind)?;
        let mut bufs = guards.bufs()?;
        let mut work = |cancel: &std::sync::atomic::AtomicBool| match actions {
            Some(a) => core.step_general(a, bufs.reborrow(), cancel),
            None => core.observe_general(bufs.reborrow(), cancel),
        };
        let result = if searching {
            let token = CancelToken::new();
            run_interruptible(py, &token, || work(token.flag()), |_| Ok(()))?
        } else {
            let never = std::sync::atomic::AtomicBool::new(false);
            py.detach(|| work(&never))
        };
        result?;
        if let Some(policy) = policy {
            play_python_rounds(py, core, policy, kind, bufs)?;
        }
        Ok(())
    }

    /// Reads `actions` (one integer per env, any array-like, dtype or layout)
    /// into `self.actions`; each env's range is checked when it steps.
    fn read_actions(&mut self, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        let n = self.core.num_envs();
        if self.read_int_list(actions, n) {
            return Ok(());
        }
        let last = self.core.rules().num_actions() - 1;
        self.actions = int_array(
            actions,
            &Spec {
                name: "actions",
                axes: &[Axis::exactly("num_envs", n)],
            },
        )?
        .values(i64::MIN..=i64::MAX, |value, at| {
            IllegalMoveError::new_err(format!(
                "env {}: action {value} is out of range: allowed 0..={last}",
                at[0]
            ))
        })?;
        Ok(())
    }

    /// The common small call, a list of `n` Python ints, read without the array
    /// intake (a 1-env step, as the single-game adapters make, costs a third less);
    /// false, with `self.actions` unspecified, for anything else, which the intake
    /// then reads and judges.
    fn read_int_list(&mut self, actions: &Bound<'_, PyAny>, n: usize) -> bool {
        let Ok(list) = actions.cast::<PyList>() else {
            return false;
        };
        if list.len() != n {
            return false;
        }
        self.actions.clear();
        for item in list.iter() {
            if !item.is_exact_instance_of::<PyInt>() {
                return false;
            }
            match item.extract::<i64>() {
                Ok(a) => self.actions.push(a),
                Err(_) => return false,
            }
        }
        true
    }

    /// The `opponent=`, `agent_player=` and `illegal_action=` part of the repr.
    fn versus_repr(&self) -> String {
        Python::attach(|py| {
            let mut s = String::new();
            if let Some(o) = &self.opponent {
                s += &format!(", opponent={}", shown(o.bind(py)));
            }
            if let Some(p) = &self.agent_player {
                s += &format!(", agent_player={}", shown(p.bind(py)));
            }
            if self.core.illegal_loss() {
                s += ", illegal_action='loss'";
            }
            s
        })
    }

    fn info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let info = PyDict::new(py);
        let out = &self.out;
        out.fill_info(py, &info)?;
        let reset = Outputs::always(py, &out.reset);
        if let Some(f) = &out.final_obs {
            info.set_item(pyo3::intern!(py, "final_obs"), f.bind(py))?;
            info.set_item(pyo3::intern!(py, "_final_obs"), reset)?;
        } else {
            info.set_item(pyo3::intern!(py, "autoreset"), reset)?;
        }
        Ok(info)
    }
}

#[pymethods]
impl VecEnv {
    /// `VecEnv(num_envs, rules=None, seed=None, autoreset="next_step",
    /// obs_dtype="uint8", threads=None, reuse_buffers=False, opponent=None,
    /// agent_player=1, illegal_action="raise")`: `num_envs` games of `rules` (an
    /// `inarow.Rules`; Connect Four when None).
    /// Every `reset`/`step`/`random_actions` returns fresh arrays that later calls
    /// never touch; `reuse_buffers=True` writes every call into the same arrays
    /// instead (no allocation; copy what you keep before the next call).
    /// `opponent`: None (self-play), a built-in agent (`inarow.agents.*` or
    /// "random", "greedy", "negamax:D", "perfect"; it moves inside `step`, drawing
    /// from each env's seeded stream), a trained network (a `network.npz` path, with
    /// an optional ":SIMULATIONS", "pretrained[:SIMULATIONS]" for the one shipped for
    /// these rules, or any agent with `actions(boards) -> actions`, given copies of
    /// the boards where it is to move) or a callable
    /// `policy(obs, mask) -> actions` called once per round with the envs where it
    /// is to move. `agent_player`:
    /// the agent's seat, 1..players or "random" (drawn per episode).
    /// `illegal_action="loss"`: an illegal action in range ends its episode as a
    /// loss for its player instead of refusing the batch (under `autoreset="disabled"`
    /// the env then waits for its explicit reset).
    #[new]
    #[pyo3(signature = (num_envs, rules=None, seed=None, autoreset=Arg::Omitted, obs_dtype=Arg::Omitted,
                        threads=None, reuse_buffers=None, opponent=None, agent_player=None,
                        illegal_action=Arg::Omitted),
           text_signature = "(num_envs, rules=None, seed=None, autoreset='next_step', obs_dtype='uint8', threads=None, reuse_buffers=False, opponent=None, agent_player=1, illegal_action='raise')")]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        num_envs: &Bound<'_, PyAny>,
        rules: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        autoreset: Arg<'_>,
        obs_dtype: Arg<'_>,
        threads: Option<&Bound<'_, PyAny>>,
        reuse_buffers: Option<&Bound<'_, PyAny>>,
        opponent: Option<&Bound<'_, PyAny>>,
        agent_player: Option<&Bound<'_, PyAny>>,
        illegal_action: Arg<'_>,
    ) -> PyResult<VecEnv> {
        let reuse_buffers = match reuse_buffers {
            Some(r) => super::args::bool_arg(r, "reuse_buffers")?,
            None => false,
        };
        let rules = rules_or_default(rules)?;
        let n = match int_arg(num_envs, "num_envs")? {
            Some(v) if (1..=MAX_ENVS as i64).contains(&v) => v as usize,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "num_envs={} is out of range: allowed 1..={MAX_ENVS}",
                    shown(num_envs)
                )))
            }
        };
        let autoreset = match autoreset {
            Arg::Omitted => "next_step",
            Arg::Given(a) => choice_arg(&a, "autoreset", &["next_step", "same_step", "disabled"])?,
        };
        let mode = match autoreset {
            "same_step" => Autoreset::SameStep,
            "disabled" => Autoreset::Disabled,
            _ => Autoreset::NextStep,
        };
        let kind = ObsKind::from_arg(obs_dtype, "obs_dtype")?;
        let threads = threads_arg(threads)?;
        let seed = seed_arg(seed)?.unwrap_or_else(fresh_seed);
        let illegal_loss = match illegal_action {
            Arg::Omitted => false,
            Arg::Given(i) => choice_arg(&i, "illegal_action", &["raise", "loss"])? == "loss",
        };
        let opponent = opponent.filter(|o| !o.is_none());
        let agent_player = agent_player.filter(|o| !o.is_none());
        let mut policy = None;
        let versus = match opponent {
            Some(o) => Some(Opponent {
                kind: {
                    let (kind, python) = opponent_arg(o, &rules)?;
                    policy = python;
                    kind
                },
                seat: match agent_player {
                    Some(p) => agent_player_arg(p, rules.players())?,
                    None => AgentSeat::Fixed(0),
                },
            }),
            None => {
                if let Some(p) = agent_player {
                    return Err(PyValueError::new_err(format!(
                        "agent_player={} needs an opponent: without one the env is self-play \
                         (every seat is the caller's)",
                        shown(p)
                    )));
                }
                None
            }
        };
        if let Some(v) = &versus {
            v.check(&rules)?;
        }
        let (p, h, w, a) = (
            rules.players(),
            rules.height(),
            rules.width(),
            rules.num_actions(),
        );
        let obs_bytes =
            (n * p * h * w) as u128 * kind.size() * if mode == Autoreset::SameStep { 2 } else { 1 };
        let total = obs_bytes + (n * (a + 4 * p + 24)) as u128;
        if total > MAX_BUFFER_BYTES {
            return Err(PyValueError::new_err(format!(
                "num_envs={n} with these rules needs {:.1} GiB of output buffers: allowed up to 16 GiB",
                total as f64 / (1u64 << 30) as f64
            )));
        }
        let mut core = py.detach(|| VecGames::new(rules, n, seed, mode, threads))?;
        if illegal_loss {
            core.set_illegal_loss();
        }
        if let Some(v) = versus {
            core.set_opponent(v)?;
        }
        let mut env = VecEnv {
            out: new_outputs(py, &core, kind),
            core,
            obs_kind: kind,
            random: PyArray1::zeros(py, n, false).unbind(),
            actions: vec![0; n],
            reuse_buffers,
            opponent: opponent.map(|o| o.clone().unbind()),
            policy,
            agent_player: versus.map(|_| match agent_player {
                Some(p) => p.clone().unbind(),
                None => 1i64.into_pyobject(py).expect("an int").into_any().unbind(),
            }),
        };
        if reuse_buffers {
            // The one `truncated` every call returns: no step writes it, nor may a caller.
            let flags = PyDict::new(py);
            flags.set_item("write", false)?;
            env.out
                .truncated
                .bind(py)
                .call_method("setflags", (), Some(&flags))?;
        }
        env.observe(py)?;
        Ok(env)
    }

    #[getter]
    fn num_envs(&self) -> usize {
        self.core.num_envs()
    }
    /// "next_step", "same_step" or "disabled".
    #[getter]
    fn autoreset(&self) -> &'static str {
        autoreset_name(self.core.autoreset())
    }
    #[getter]
    fn obs_dtype(&self) -> &'static str {
        self.obs_kind.name()
    }
    /// `(num_envs,)` int8, the player to move in each env, 1..players: the array
    /// of `info["current_player"]` of the latest call.
    #[getter]
    fn current_player<'py>(&self, py: Python<'py>) -> Bound<'py, PyArrayDyn<i8>> {
        Outputs::always(py, &self.out.current_player)
    }
    /// Whether every call writes into the same arrays (see the class docs).
    #[getter]
    fn reuse_buffers(&self) -> bool {
        self.reuse_buffers
    }
    /// `(num_envs, players)` float32 of the latest call: +1 to the winner of a game
    /// that ended with it, -1 to every other player (an illegal action: -1 to its
    /// player, +1 to the other of two), 0 elsewhere: `info["player_rewards"]`.
    /// In self-play, the zero-sum credit of every player, the loser's included.
    #[getter]
    fn player_rewards<'py>(&self, py: Python<'py>) -> Bound<'py, PyArrayDyn<f32>> {
        Outputs::always(py, &self.out.player_rewards)
    }
    /// What `opponent=` was given (None: self-play).
    #[getter]
    fn opponent(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.opponent.as_ref().map(|o| o.clone_ref(py))
    }
    /// The agent's seat as given (1..players or "random"); None in self-play.
    /// Each episode's seat is `info["agent_player"]`.
    #[getter]
    fn agent_player(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.agent_player.as_ref().map(|o| o.clone_ref(py))
    }
    /// "raise" or "loss".
    #[getter]
    fn illegal_action(&self) -> &'static str {
        if self.core.illegal_loss() {
            "loss"
        } else {
            "raise"
        }
    }

    /// Resets every env (`seed` re-seeds each env's random stream); with
    /// `options={"reset_mask": bool array}` resets only those envs. Returns `(obs, info)`.
    #[pyo3(signature = (seed=None, options=None))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<&Bound<'py, PyAny>>,
        options: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let seed = seed_arg(seed)?;
        let mask = match options.filter(|o| !o.is_none()) {
            None => None,
            Some(options) => {
                let options = options.cast::<PyDict>().map_err(|_| {
                    PyTypeError::new_err(format!(
                        "options must be a dict such as {{\"reset_mask\": mask}}, or None; got {}: {}",
                        options.get_type().name().map(|n| n.to_string()).unwrap_or_default(),
                        shown(options)
                    ))
                })?;
                for key in options.keys() {
                    if !key.eq("reset_mask")? {
                        return Err(PyValueError::new_err(format!(
                            "options has an unknown key {}: allowed \"reset_mask\"",
                            shown(&key)
                        )));
                    }
                }
                match options.get_item("reset_mask")? {
                    Some(m) => Some(bool_array(
                        &m,
                        &Spec {
                            name: "reset_mask",
                            axes: &[Axis::exactly("num_envs", self.core.num_envs())],
                        },
                    )?),
                    None => None,
                }
            }
        };
        if mask.is_some() && seed.is_some() {
            return Err(PyValueError::new_err(
                "seed cannot be combined with reset_mask",
            ));
        }
        let saved = self.undo_point();
        match mask {
            Some(m) => self.core.reset_some(&m),
            None => self.core.reset_all(seed),
        }
        if let Err(e) = self.observe(py) {
            if let Some(saved) = saved {
                self.core.restore(saved);
            }
            return Err(e);
        }
        let info = self.info(py)?;
        PyTuple::new(py, [self.out.obs.bind(py).clone(), info.into_any()])
    }

    /// Plays one action per env and returns `(obs, rewards, terminated, truncated,
    /// info)`. The whole batch is validated first: a refused call (wrong length,
    /// dtype or dimensions, an out-of-range or illegal action) raises and steps no
    /// env. The arrays returned are fresh, or with `reuse_buffers=True` the same
    /// ones every call (overwritten by the next call: copy what you keep).
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        self.read_actions(actions)?;
        let out = self.next_outputs(py);
        if self.core.has_opponent() {
            let saved = self.undo_point();
            if let Err(e) = self.run_general(py, true, &out) {
                if let Some(saved) = saved {
                    self.core.restore(saved);
                }
                return Err(e);
            }
        } else {
            let mut guards = out.borrow(py, self.obs_kind)?;
            let bufs = guards.bufs()?;
            let core = &mut self.core;
            let actions = &self.actions;
            py.detach(|| core.step(actions, bufs))?;
        }
        self.out = out;
        let info = self.info(py)?;
        let out = &self.out;
        PyTuple::new(
            py,
            [
                out.obs.bind(py).clone(),
                Outputs::always(py, &out.rewards).into_any(),
                Outputs::always(py, &out.terminated).into_any(),
                out.truncated.bind(py).clone().into_any(),
                info.into_any(),
            ],
        )
    }

    /// The games and random streams as bytes: `set_state` on a `VecEnv` made with
    /// the same arguments continues exactly from here (for pickling an adapter, or
    /// a checkpoint).
    fn get_state<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.core.state_bytes())
    }

    /// Restores `get_state()`'s bytes from a `VecEnv` made with the same arguments
    /// and writes the observations of that state (`legal_mask()` then holds its
    /// masks). Bytes of another size, rules or opponent setting, or damaged ones,
    /// raise ``ValueError`` and change nothing.
    fn set_state(&mut self, py: Python<'_>, state: &Bound<'_, PyAny>) -> PyResult<()> {
        let bytes = state.cast::<PyBytes>().map_err(|_| {
            PyTypeError::new_err(format!(
                "state must be the bytes of VecEnv.get_state(), got {}",
                state
                    .get_type()
                    .name()
                    .map(|n| n.to_string())
                    .unwrap_or_default()
            ))
        })?;
        let before = self.core.state_bytes();
        self.core.set_state_bytes(bytes.as_bytes())?;
        if let Err(e) = self.observe(py) {
            self.core
                .set_state_bytes(&before)
                .expect("a batch's own state restores it");
            return Err(e);
        }
        Ok(())
    }

    /// `(num_envs, num_actions)` bool: the legal actions of each env; all True in
    /// an env whose game ended and waits for its next-step autoreset (pgx's terminal
    /// mask: that step ignores the action), all False in a finished env under
    /// `autoreset="disabled"`. The array of `info["action_mask"]` of the latest call.
    fn legal_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArrayDyn<bool>> {
        Outputs::always(py, &self.out.mask)
    }

    /// One uniformly random legal action per env, drawn in Rust from each env's
    /// stream (0 where the game is over). An int64 array, fresh unless `reuse_buffers`.
    fn random_actions<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        if !self.reuse_buffers {
            self.random = PyArray1::zeros(py, self.core.num_envs(), false).unbind();
        }
        let out = self.random.bind(py).clone();
        {
            let mut w = out.try_readwrite()?;
            let slice = w.as_slice_mut()?;
            let core = &mut self.core;
            py.detach(|| core.random_actions(slice));
        }
        Ok(out)
    }

    /// A `Board` copy of env `index`.
    fn board(&self, index: &Bound<'_, PyAny>) -> PyResult<Board> {
        let n = self.core.num_envs();
        match int_arg(index, "index")? {
            Some(i) if i >= 0 && (i as u64) < n as u64 => Ok(Board {
                game: self.core.games()[i as usize].clone(),
            }),
            _ => Err(pyo3::exceptions::PyIndexError::new_err(format!(
                "env index {} is out of range: allowed 0..={}",
                shown(index),
                n - 1
            ))),
        }
    }

    fn __len__(&self) -> usize {
        self.core.num_envs()
    }

    fn __repr__(&self) -> String {
        let r = self.core.rules();
        format!(
            "VecEnv({}, width={}, height={}, k={}, players={}, gravity={}, autoreset={:?}, obs_dtype={:?}{}{})",
            self.core.num_envs(),
            r.width(),
            r.height(),
            r.k(),
            r.players(),
            if r.gravity() { "True" } else { "False" },
            autoreset_name(self.core.autoreset()),
            self.obs_kind.name(),
            if self.reuse_buffers {
                ", reuse_buffers=True"
            } else {
                ""
            },
            self.versus_repr()
        )
    }
}

/// Totals of `simulate`.
#[pyclass(module = "inarow._native", name = "SimulateResult", frozen, get_all)]
pub struct SimulateResult {
    /// Games played.
    games: u64,
    /// Moves played in all games.
    moves: u64,
    /// Wins per player: `wins[0]` is player 1's.
    wins: Vec<u64>,
    /// Drawn games.
    draws: u64,
    /// `lengths[n]`: games that ended after exactly n moves.
    lengths: Vec<u64>,
    /// Wall-clock seconds.
    seconds: f64,
}

#[pymethods]
impl SimulateResult {
    /// Mean moves per game.
    #[getter]
    fn mean_length(&self) -> f64 {
        self.moves as f64 / self.games.max(1) as f64
    }
    /// Moves per second.
    #[getter]
    fn moves_per_second(&self) -> f64 {
        self.moves as f64 / self.seconds.max(1e-9)
    }
    fn __repr__(&self) -> String {
        format!(
            "SimulateResult(games={}, moves={}, wins={:?}, draws={}, mean_length={:.2}, seconds={:.3})",
            self.games,
            self.moves,
            self.wins,
            self.draws,
            self.mean_length(),
            self.seconds
        )
    }
}

/// Plays `num_games` uniformly random games without returning to Python per move.
/// Game i uses its own random stream, so the result is the same for any `threads`;
/// `seed=None` draws a fresh seed (as `VecEnv` does): pass an int to repeat a run.
/// `rules`: an `inarow.Rules` (Connect Four when None).
/// `progress`: True for a tqdm bar, or a callable `f(done, total)`. Ctrl-C raises
/// KeyboardInterrupt within a fraction of a second; setting `cancel` (anything with
/// `is_set()`, e.g. a `threading.Event`, for runs in background threads) raises
/// `CancelledError` as quickly.
#[pyfunction]
#[pyo3(signature = (num_games, rules=None, seed=None, threads=None, policy=Arg::Omitted,
                    progress=None, cancel=None),
           text_signature = "(num_games, rules=None, seed=None, threads=None, policy='random', progress=None, cancel=None)")]
#[allow(clippy::too_many_arguments)]
pub fn simulate(
    py: Python<'_>,
    num_games: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
    threads: Option<&Bound<'_, PyAny>>,
    policy: Arg<'_>,
    progress: Option<&Bound<'_, PyAny>>,
    cancel: Option<&Bound<'_, PyAny>>,
) -> PyResult<SimulateResult> {
    let cancel_event = match cancel {
        Some(c) if !c.is_none() => {
            if !c.hasattr("is_set")? {
                return Err(PyTypeError::new_err(format!(
                    "cancel must have an is_set() method (e.g. a threading.Event), got {}",
                    c.get_type().name()?
                )));
            }
            Some(c.clone())
        }
        _ => None,
    };
    let rules = rules_or_default(rules)?;
    let games = match int_arg(num_games, "num_games")? {
        Some(v) if (0..=1i64 << 50).contains(&v) => v as u64,
        _ => {
            return Err(PyValueError::new_err(format!(
                "num_games={} is out of range: allowed 0..=2**50",
                shown(num_games)
            )))
        }
    };
    if let Arg::Given(p) = policy {
        choice_arg(&p, "policy", &["random"])?;
    }
    let threads = threads_arg(threads)?.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let seed = seed_arg(seed)?.unwrap_or_else(fresh_seed);
    let config = SimulateConfig {
        games,
        seed,
        threads,
    };
    let done = AtomicU64::new(0);
    let cancel = CancelToken::new();
    let reporter = Progress::from_arg(py, progress, Some(games), "game")?;
    let mut shown = 0u64;
    let mut tick = |_: Python<'_>| -> PyResult<()> {
        if let Some(c) = &cancel_event {
            if c.call_method0("is_set")?.is_truthy()? {
                return Err(super::errors::CancelledError::new_err("simulate cancelled"));
            }
        }
        let now = done.load(Ordering::Relaxed);
        if let Some(r) = &reporter {
            r.report(now, shown, Some(games))?;
        }
        shown = now;
        Ok(())
    };
    let start = std::time::Instant::now();
    let run = || crate::batch::simulate(rules, &config, &done, cancel.flag());
    // Small runs stay on this thread: a worker would cost more than the games.
    let small = games.saturating_mul(rules.num_cells() as u64) <= SIMULATE_INLINE_CELLS;
    let mut tick_failed = false;
    let outcome = if small {
        Ok(py.detach(run))
    } else {
        run_interruptible(py, &cancel, run, |py| {
            let r = tick(py);
            tick_failed = r.is_err();
            r
        })
    };
    let seconds = start.elapsed().as_secs_f64();
    // A callback that raised is not called again.
    let final_tick = if tick_failed { Ok(()) } else { tick(py) };
    if let Some(r) = &reporter {
        r.close()?;
    }
    let result = outcome?
        .ok_or_else(|| pyo3::exceptions::PyKeyboardInterrupt::new_err("simulate interrupted"))?;
    final_tick?;
    Ok(SimulateResult {
        games: result.games,
        moves: result.moves,
        wins: result.wins,
        draws: result.draws,
        lengths: result.lengths,
        seconds,
    })
}

/// Up to this many cells (games times board cells) `simulate` plays on the calling
/// thread: a few milliseconds at most, less than starting threads would cost.
const SIMULATE_INLINE_CELLS: u64 = 1 << 17;
