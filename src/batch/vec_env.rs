//! `VecGames`: many environments of the same rules, stepped together.
//!
//! The whole batch of actions is validated before any environment moves, so a
//! refused call changes nothing; then every env takes the one episode step
//! ([`super::episode`]), with or without an opponent. Work is split across
//! threads by halving the batch (`rayon::join`); every environment draws from its
//! own random stream, so results do not depend on the thread count.

use std::fmt;

use std::sync::atomic::AtomicBool;
use std::sync::Mutex;

use super::episode::{write_mask, Autoreset, Envs, StepContext, GRAIN};
use super::opponent::{
    waits_for_opponent, AgentWorkers, Opponent, OpponentKind, Versus, VersusRows,
};
use super::outputs::{Dims, ObsOut, StepBuffers};
use crate::agents::AgentError;
use crate::error::MoveError;
use crate::game::Game;
use crate::rng::Rng;
use crate::rules::Rules;

/// Largest accepted batch.
pub const MAX_ENVS: usize = 1 << 24;

/// Refuses env `env`'s action `a` outside `0..num_actions`.
fn in_range(env: usize, a: i64, num_actions: usize) -> Result<(), ActionError> {
    if a < 0 || a as u64 >= num_actions as u64 {
        let error = MoveError::OutOfRange {
            action: a as i128,
            num_actions,
        };
        return Err(ActionError { env, error });
    }
    Ok(())
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BatchError {
    /// A batch size out of range.
    InvalidSize(String),
    /// Memory for the batch could not be reserved.
    OutOfMemory(String),
}

impl fmt::Display for BatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BatchError::InvalidSize(m) | BatchError::OutOfMemory(m) => f.write_str(m),
        }
    }
}
impl std::error::Error for BatchError {}

/// An action refused for environment `env`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionError {
    pub env: usize,
    pub error: MoveError,
}

impl fmt::Display for ActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "env {}: {}", self.env, self.error)
    }
}
impl std::error::Error for ActionError {}

/// An opponent that could not move: the step that asked is undone.
#[derive(Clone, Debug, PartialEq)]
pub enum StepError {
    Action(ActionError),
    Opponent(AgentError),
}

impl fmt::Display for StepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StepError::Action(e) => e.fmt(f),
            StepError::Opponent(e) => write!(f, "opponent: {e}"),
        }
    }
}
impl std::error::Error for StepError {}

impl From<ActionError> for StepError {
    fn from(e: ActionError) -> StepError {
        StepError::Action(e)
    }
}

/// `n` games of the same rules with per-environment random streams.
pub struct VecGames {
    rules: Rules,
    games: Vec<Game>,
    rngs: Vec<Rng>,
    needs_reset: Vec<bool>,
    autoreset: Autoreset,
    pool: Option<rayon::ThreadPool>,
    threads: usize,
    seed: u64,
    /// The opponent, when the agent does not play every seat.
    versus: Option<Versus>,
    /// An illegal action ends its episode as a loss instead of refusing the batch.
    illegal_loss: bool,
}

/// The state a general step can change, kept to undo it (see [`VecGames::save`]).
pub struct Saved {
    pub(super) games: Vec<Game>,
    pub(super) needs_reset: Vec<bool>,
    pub(super) seats: Vec<u8>,
    pub(super) rngs: Vec<Rng>,
}

impl Saved {
    /// Nothing yet, with room for `n` envs.
    pub(super) fn empty(n: usize) -> Saved {
        let room = n.min(1 << 16);
        Saved {
            games: Vec::with_capacity(room),
            needs_reset: Vec::with_capacity(room),
            seats: Vec::with_capacity(room),
            rngs: Vec::with_capacity(room),
        }
    }
}

fn reserve<T>(n: usize, what: &str) -> Result<Vec<T>, BatchError> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| {
        BatchError::OutOfMemory(format!("cannot allocate {what} for {n} environments"))
    })?;
    Ok(v)
}

impl VecGames {
    /// `num_envs` in `1..=MAX_ENVS`; `threads`: `None` uses every core, `Some(1)` none extra.
    pub fn new(
        rules: Rules,
        num_envs: usize,
        seed: u64,
        autoreset: Autoreset,
        threads: Option<usize>,
    ) -> Result<VecGames, BatchError> {
        if !(1..=MAX_ENVS).contains(&num_envs) {
            return Err(BatchError::InvalidSize(format!(
                "num_envs={num_envs} is out of range: allowed 1..={MAX_ENVS}"
            )));
        }
        // Games hold a few small vectors: budget them before allocating.
        let per_game =
            128 + rules.words() * rules.players() * 8 + rules.width() + 2 * rules.num_cells();
        if num_envs.saturating_mul(per_game) > 1 << 36 {
            return Err(BatchError::InvalidSize(format!(
                "num_envs={num_envs} with {rules} needs over 64 GiB: refused"
            )));
        }
        // Probe for the whole budget first: under a memory limit the per-game
        // allocations below would otherwise abort the process instead of failing.
        let mut probe: Vec<u8> = Vec::new();
        probe
            .try_reserve_exact(num_envs * (per_game + std::mem::size_of::<Game>() + 64))
            .map_err(|_| {
                BatchError::OutOfMemory(format!(
                    "cannot allocate {num_envs} environments of {rules}"
                ))
            })?;
        drop(probe);
        let mut games = reserve(num_envs, "games")?;
        let mut rngs = reserve(num_envs, "random streams")?;
        let mut needs_reset = reserve(num_envs, "flags")?;
        let template = Game::new(rules);
        for i in 0..num_envs {
            let mut game = template.clone();
            game.reserve_history();
            games.push(game);
            rngs.push(Rng::new(seed, i as u64));
            needs_reset.push(false);
        }
        let threads =
            threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        // Without worker threads (one asked for, or the system refused them) every
        // batch runs on the calling thread.
        let pool = if threads > 1 {
            crate::threads::pool(threads)
        } else {
            None
        };
        Ok(VecGames {
            rules,
            games,
            rngs,
            needs_reset,
            autoreset,
            pool,
            threads,
            seed,
            versus: None,
            illegal_loss: false,
        })
    }

    /// Plays `opponent` in every seat but the agent's, from now on: each env
    /// starts a new episode (its seat drawn, the opponent's opening moves played by
    /// the next `observe_general`). Opponent streams follow the construction seed.
    pub fn set_opponent(&mut self, opponent: Opponent) -> Result<(), AgentError> {
        opponent.check(&self.rules)?;
        let n = self.games.len();
        self.versus = Some(Versus::new(opponent, n, self.seed, self.threads));
        self.reset_all(None);
        Ok(())
    }

    /// Illegal actions (in range) end their episode as a loss for their player
    /// instead of refusing the batch. Under `Autoreset::Disabled` a forfeited env
    /// then refuses actions until it is reset, as a finished game does.
    pub fn set_illegal_loss(&mut self) {
        self.illegal_loss = true;
    }

    pub fn opponent(&self) -> Option<Opponent> {
        self.versus.as_ref().map(|v| v.opponent)
    }
    pub fn illegal_loss(&self) -> bool {
        self.illegal_loss
    }
    /// The agent's seat (0-based) in env `i`'s episode, with an opponent.
    pub fn agent_seat(&self, i: usize) -> Option<usize> {
        self.versus.as_ref().map(|v| v.seats[i] as usize)
    }

    /// Whether an opponent plays: then only [`VecGames::step_general`] and
    /// [`VecGames::observe_general`] step and observe the batch (self-play, with
    /// illegal losses or not, takes [`VecGames::step`], the faster path).
    pub fn has_opponent(&self) -> bool {
        self.versus.is_some()
    }

    /// A copy of everything a general step changes.
    pub fn save(&self) -> Saved {
        let (seats, rngs) = match &self.versus {
            Some(v) => (v.seats.clone(), v.rngs.clone()),
            None => (Vec::new(), Vec::new()),
        };
        Saved {
            games: self.games.clone(),
            needs_reset: self.needs_reset.clone(),
            seats,
            rngs,
        }
    }

    /// Puts back what [`VecGames::save`] copied.
    pub fn restore(&mut self, saved: Saved) {
        self.games = saved.games;
        self.needs_reset = saved.needs_reset;
        if let Some(v) = self.versus.as_mut() {
            v.seats = saved.seats;
            v.rngs = saved.rngs;
        }
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    pub fn num_envs(&self) -> usize {
        self.games.len()
    }
    pub fn autoreset(&self) -> Autoreset {
        self.autoreset
    }
    pub fn games(&self) -> &[Game] {
        &self.games
    }
    /// Each env's own generator (its random actions and resets).
    pub(super) fn env_rngs(&self) -> &[Rng] {
        &self.rngs
    }
    pub(super) fn set_env_rngs(&mut self, rngs: Vec<Rng>) {
        assert_eq!(rngs.len(), self.games.len());
        self.rngs = rngs;
    }
    /// Whether env `i` waits for its autoreset (next-step mode).
    pub fn needs_reset(&self, i: usize) -> bool {
        self.needs_reset[i]
    }
    pub fn obs_size(&self) -> usize {
        self.rules.players() * self.rules.num_cells()
    }

    /// The sizes of this batch's step outputs.
    pub fn dims(&self) -> Dims {
        Dims {
            obs: self.obs_size(),
            actions: self.rules.num_actions(),
            players: self.rules.players(),
            opponent: self.has_opponent(),
            illegal_loss: self.illegal_loss,
        }
    }

    /// Resets every environment (re-seeding the streams when `seed` is given).
    pub fn reset_all(&mut self, seed: Option<u64>) {
        for (i, g) in self.games.iter_mut().enumerate() {
            g.reset();
            if let Some(s) = seed {
                self.rngs[i] = Rng::new(s, i as u64);
            }
        }
        self.needs_reset.fill(false);
        if let Some(v) = self.versus.as_mut() {
            if let Some(s) = seed {
                v.reseed(s);
            }
            for i in 0..self.games.len() {
                v.draw_seat(i, self.rules.players());
            }
        }
    }

    /// Resets the environments whose `which` flag is set.
    pub fn reset_some(&mut self, which: &[bool]) {
        for (i, ((g, flag), pending)) in self
            .games
            .iter_mut()
            .zip(which)
            .zip(&mut self.needs_reset)
            .enumerate()
        {
            if *flag {
                g.reset();
                *pending = false;
                if let Some(v) = self.versus.as_mut() {
                    v.draw_seat(i, self.rules.players());
                }
            }
        }
    }

    /// Checks every action; the first refused one is reported and nothing moves.
    /// Environments waiting for their autoreset accept any action (it is ignored).
    pub fn validate(&self, actions: &[i64]) -> Result<(), ActionError> {
        self.validate_with(actions, self.illegal_loss)
    }

    /// [`VecGames::validate`], accepting in-range illegal actions when `in_range_only`
    /// (a finished game under `Autoreset::Disabled` still refuses every action).
    fn validate_with(&self, actions: &[i64], in_range_only: bool) -> Result<(), ActionError> {
        assert_eq!(actions.len(), self.games.len());
        let num_actions = self.rules.num_actions();
        for (env, (&a, g)) in actions.iter().zip(&self.games).enumerate() {
            if self.needs_reset[env] {
                if self.autoreset != Autoreset::Disabled {
                    continue;
                }
                // A forfeited episode under "disabled" waits for an explicit reset.
                if (0..num_actions as i64).contains(&a) {
                    let action = a as usize;
                    let error = MoveError::GameOver { action };
                    return Err(ActionError { env, error });
                }
            }
            in_range(env, a, num_actions)?;
            let a = a as usize;
            let refused = if in_range_only {
                g.is_over()
            } else {
                !g.is_legal(a)
            };
            if refused {
                let mut probe = g.clone();
                let error = probe.play(a).expect_err("an illegal action is refused");
                return Err(ActionError { env, error });
            }
        }
        Ok(())
    }

    /// Validates, then steps every environment and fills `out`: self-play, where
    /// with illegal losses an illegal action ends its episode as
    /// [`VecGames::step_general`] does. Envs with an opponent step through
    /// [`VecGames::step_general`] (asserted).
    pub fn step(&mut self, actions: &[i64], out: StepBuffers<'_>) -> Result<(), ActionError> {
        assert!(!self.has_opponent(), "an opponent needs step_general");
        self.validate(actions)?;
        if self.autoreset == Autoreset::SameStep {
            assert!(
                out.final_obs.is_some(),
                "same-step autoreset needs a final_obs buffer"
            );
        }
        self.run(Some(actions), out, &AtomicBool::new(false))
            .expect("self-play has no opponent to fail");
        Ok(())
    }

    /// Writes the current observations, masks and players (after a reset), clearing
    /// rewards, termination and winner fields.
    pub fn observe(&mut self, out: StepBuffers<'_>) {
        assert!(!self.has_opponent(), "an opponent needs observe_general");
        self.run(None, out, &AtomicBool::new(false))
            .expect("self-play has no opponent to fail");
    }

    /// The general step (an opponent, or illegal actions that lose): validates,
    /// plays every env's action, then a built-in opponent's moves until the agent is
    /// to move (an external opponent's are left to `opponent_pending` /
    /// `play_opponent`), and fills `out` from the agent's view. When the
    /// opponent fails (cancelled through `cancel`, out of memory) some envs may
    /// have moved: undo with [`VecGames::save`] / [`VecGames::restore`].
    pub fn step_general(
        &mut self,
        actions: &[i64],
        out: StepBuffers<'_>,
        cancel: &AtomicBool,
    ) -> Result<(), StepError> {
        self.validate(actions)?;
        self.run(Some(actions), out, cancel)
    }

    /// `observe` for the general path: a built-in opponent first plays its moves
    /// where it holds the first seats of a new episode.
    pub fn observe_general(
        &mut self,
        out: StepBuffers<'_>,
        cancel: &AtomicBool,
    ) -> Result<(), StepError> {
        self.run(None, out, cancel)
    }

    /// The episode step of every env (`actions` `None`: observe), across the pool
    /// for large batches.
    fn run(
        &mut self,
        actions: Option<&[i64]>,
        out: StepBuffers<'_>,
        cancel: &AtomicBool,
    ) -> Result<(), StepError> {
        let d = self.dims();
        let n = self.games.len();
        out.check(n, &d);
        let failure = Mutex::new(None);
        let none = AgentWorkers::none();
        let mut cx = self.context(cancel, &failure, &none);
        let versus = self.versus.as_mut().map(|v| {
            cx.workers = &v.workers;
            VersusRows {
                seats: &mut v.seats,
                rngs: &mut v.rngs,
            }
        });
        let envs = Envs {
            games: &mut self.games,
            needs_reset: &mut self.needs_reset,
            actions,
            versus,
        };
        match pool_for(&self.pool, n) {
            Some(pool) => pool.install(|| envs.run(out, &cx)),
            None => envs.run_serial(out, &cx),
        }
        match failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
            Some(e) => Err(StepError::Opponent(e)),
            None => Ok(()),
        }
    }

    /// What a step shares across threads (the opponent's workers filled in by the caller).
    fn context<'a>(
        &self,
        cancel: &'a AtomicBool,
        failure: &'a Mutex<Option<AgentError>>,
        workers: &'a AgentWorkers,
    ) -> StepContext<'a> {
        StepContext {
            dims: self.dims(),
            mode: self.autoreset,
            opponent: self.versus.as_ref().map(|v| v.opponent),
            workers,
            cancel,
            failure,
        }
    }

    /// The envs where an external opponent is to move, in order.
    pub fn opponent_pending(&self) -> Vec<usize> {
        let Some(v) = self.versus.as_ref() else {
            return Vec::new();
        };
        if v.opponent.kind != OpponentKind::External {
            return Vec::new();
        }
        (0..self.games.len())
            .filter(|&i| waits_for_opponent(&self.games[i], self.needs_reset[i], v.seats[i]))
            .collect()
    }

    /// Writes the side to move's observation and legal mask of each env in `envs`
    /// (row `j` for `envs[j]`): what an external opponent sees.
    pub fn write_pending(&self, envs: &[usize], mut obs: ObsOut<'_>, mask: &mut [bool]) {
        let d = self.dims();
        for (j, &i) in envs.iter().enumerate() {
            obs.write(j, d.obs, &self.games[i]);
            self.games[i].write_legal_mask(&mut mask[j * d.actions..(j + 1) * d.actions]);
        }
    }

    /// Checks the external opponent's `actions` for `envs` (from `opponent_pending`):
    /// the first illegal one is refused, naming its env.
    pub fn validate_opponent(&self, envs: &[usize], actions: &[i64]) -> Result<(), ActionError> {
        assert_eq!(envs.len(), actions.len());
        let num_actions = self.rules.num_actions();
        for (&env, &a) in envs.iter().zip(actions) {
            in_range(env, a, num_actions)?;
            let g = &self.games[env];
            if !g.is_legal(a as usize) {
                let mut probe = g.clone();
                let error = probe
                    .play(a as usize)
                    .expect_err("an illegal action is refused");
                return Err(ActionError { env, error });
            }
        }
        Ok(())
    }

    /// Plays the external opponent's validated `actions` in `envs` (one move each),
    /// recording episodes that end into `out`, which must hold the outputs
    /// of this step so far. Finish with [`VecGames::write_views`].
    pub fn play_opponent(&mut self, envs: &[usize], actions: &[i64], mut out: StepBuffers<'_>) {
        let cancel = AtomicBool::new(false);
        let failure = Mutex::new(None);
        let none = AgentWorkers::none();
        let cx = self.context(&cancel, &failure, &none);
        let v = self.versus.as_mut().expect("an external opponent");
        let mut all = Envs {
            games: &mut self.games,
            needs_reset: &mut self.needs_reset,
            actions: None,
            versus: Some(VersusRows {
                seats: &mut v.seats,
                rngs: &mut v.rngs,
            }),
        };
        for (&i, &a) in envs.iter().zip(actions) {
            all.opponent_move(i, a as usize, &mut out, &cx);
        }
    }

    /// Writes every env's observation (the agent's view), mask and players.
    pub fn write_views(&mut self, mut out: StepBuffers<'_>) {
        let d = self.dims();
        let mut all = Envs {
            games: &mut self.games,
            needs_reset: &mut self.needs_reset,
            actions: None,
            versus: self.versus.as_mut().map(|v| VersusRows {
                seats: &mut v.seats,
                rngs: &mut v.rngs,
            }),
        };
        for i in 0..all.games.len() {
            all.write_view(i, &mut out, &d, self.autoreset);
        }
    }

    /// Writes the action mask `(n, num_actions)` (see `write_mask`).
    pub fn write_mask(&self, mask: &mut [bool]) {
        let a = self.rules.num_actions();
        for ((g, &pending), row) in self
            .games
            .iter()
            .zip(&self.needs_reset)
            .zip(mask.chunks_mut(a))
        {
            write_mask(g, pending, self.autoreset, row);
        }
    }

    /// One uniformly random legal action per environment (0 where the game is over).
    pub fn random_actions(&mut self, out: &mut [i64]) {
        use rayon::prelude::*;
        let work = |(g, (rng, o)): (&Game, (&mut Rng, &mut i64))| {
            *o = if g.is_over() {
                0
            } else {
                g.random_action(rng) as i64
            };
        };
        let games = &self.games;
        let rngs = &mut self.rngs;
        match pool_for(&self.pool, games.len()) {
            Some(pool) => pool.install(|| {
                games
                    .par_iter()
                    .zip(rngs.par_iter_mut().zip(out.par_iter_mut()))
                    .with_min_len(GRAIN)
                    .for_each(work)
            }),
            _ => games
                .iter()
                .zip(rngs.iter_mut().zip(out.iter_mut()))
                .for_each(work),
        }
    }
}

/// The pool for a batch of `n` environments: none below two grains, where
/// handing the batch to the pool's threads costs more than they save.
fn pool_for(pool: &Option<rayon::ThreadPool>, n: usize) -> Option<&rayon::ThreadPool> {
    pool.as_ref().filter(|_| n >= 2 * GRAIN)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::batch::OwnedBuffers as Owned;

    fn owned(v: &VecGames) -> Owned {
        Owned::new(v.num_envs(), &v.dims())
    }

    fn play_out(threads: Option<usize>, mode: Autoreset) -> (Vec<Vec<u16>>, Vec<u8>, usize) {
        let rules = Rules::new(5, 4, 3, 3, true).unwrap();
        let mut v = VecGames::new(rules, 2000, 9, mode, threads).unwrap();
        let mut out = owned(&v);
        let mut actions = vec![0i64; 2000];
        let mut ended = 0;
        for _ in 0..30 {
            v.random_actions(&mut actions);
            v.step(&actions, out.bufs()).unwrap();
            ended += out.terminated.iter().filter(|&&t| t).count();
        }
        (
            v.games().iter().map(|g| g.history().to_vec()).collect(),
            out.obs.clone(),
            ended,
        )
    }

    #[test]
    fn results_do_not_depend_on_threads() {
        for mode in [Autoreset::NextStep, Autoreset::SameStep] {
            let a = play_out(Some(1), mode);
            let b = play_out(Some(2), mode);
            assert_eq!(a, b);
            assert!(a.2 > 100);
            // The system refusing the pool's threads: the calling thread does it all.
            crate::threads::REFUSE_SPAWN.with(|r| r.set(true));
            let alone = play_out(Some(2), mode);
            crate::threads::REFUSE_SPAWN.with(|r| r.set(false));
            assert_eq!(a, alone);
        }
    }

    #[test]
    fn a_refused_batch_changes_nothing() {
        let mut v =
            VecGames::new(Rules::connect_four(), 3, 0, Autoreset::NextStep, Some(1)).unwrap();
        let mut out = owned(&v);
        for _ in 0..6 {
            v.step(&[0, 1, 2], out.bufs()).unwrap();
        }
        let before: Vec<Game> = v.games().to_vec();
        let err = v.step(&[1, 2, 2], out.bufs()).unwrap_err();
        assert_eq!(err.env, 2);
        assert_eq!(err.error, MoveError::ColumnFull { column: 2 });
        let err = v.step(&[1, 7, 3], out.bufs()).unwrap_err();
        assert_eq!(err.env, 1);
        assert_eq!(v.games(), &before[..]);
        for (a, b) in v.games().iter().zip(&before) {
            assert_eq!(a.history(), b.history());
        }
    }

    #[test]
    fn next_step_autoreset_ignores_the_action_after_the_end() {
        let mut v =
            VecGames::new(Rules::connect_four(), 1, 0, Autoreset::NextStep, Some(1)).unwrap();
        let mut out = owned(&v);
        for a in [0, 1, 0, 1, 0, 1] {
            v.step(&[a], out.bufs()).unwrap();
            assert!(!out.terminated[0]);
        }
        v.step(&[0], out.bufs()).unwrap();
        assert!(out.terminated[0]);
        assert!(out.mask.iter().all(|&m| m));
        assert_eq!(out.rewards[0], 1.0);
        assert_eq!(out.player_rewards, vec![1.0, -1.0]);
        assert_eq!(out.winner[0], 1);
        v.step(&[99], out.bufs()).unwrap();
        assert!(out.reset[0] && !out.terminated[0]);
        assert_eq!(v.games()[0].stones_on_board(), 0);
        assert!(out.obs.iter().all(|&x| x == 0));
        assert!(out.mask.iter().all(|&m| m));
    }

    #[test]
    fn finished_games_show_an_all_true_mask_only_while_they_wait() {
        let rules = Rules::new(3, 3, 3, 2, false).unwrap();
        for mode in [Autoreset::NextStep, Autoreset::Disabled] {
            let mut v = VecGames::new(rules, 2, 0, mode, Some(1)).unwrap();
            let mut out = owned(&v);
            for (a0, a1) in [(0, 0), (3, 1), (1, 2), (4, 3), (2, 4)] {
                v.step(&[a0, a1], out.bufs()).unwrap();
            }
            assert!(out.terminated[0] && !out.terminated[1]);
            let waits = mode == Autoreset::NextStep;
            assert!(out.mask[..9].iter().all(|&m| m == waits));
            assert_eq!(
                &out.mask[9..],
                &[false, false, false, false, false, true, true, true, true]
            );
            let mut mask = vec![false; 18];
            v.write_mask(&mut mask);
            assert_eq!(mask, out.mask);
            v.observe(out.bufs());
            assert_eq!(mask, out.mask);
        }
    }

    #[test]
    fn absurd_sizes_are_refused_before_allocating() {
        assert!(VecGames::new(Rules::connect_four(), 0, 0, Autoreset::NextStep, Some(1)).is_err());
        assert!(VecGames::new(
            Rules::connect_four(),
            MAX_ENVS + 1,
            0,
            Autoreset::NextStep,
            Some(1)
        )
        .is_err());
        let big = Rules::new(64, 64, 5, 16, false).unwrap();
        assert!(VecGames::new(big, MAX_ENVS, 0, Autoreset::NextStep, Some(1)).is_err());
    }
}

#[cfg(test)]
#[path = "self_play_paths_tests.rs"]
mod self_play_paths_tests;
