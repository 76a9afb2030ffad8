//! The vector of environments against an opponent, and illegal actions that lose.
//!
//! The agent holds one seat per environment (fixed, or drawn per episode); the
//! opponent plays every other seat. A built-in opponent moves inside the step, on
//! the env's own thread and random stream, until the agent is to move again or the
//! game ends; an external one (the caller, e.g. a Python policy) is asked between
//! rounds: `opponent_pending` lists the environments waiting for it and
//! `play_opponent` applies its moves. Rewards and observations are the agent's.
//!
//! With `illegal_loss`, an action in range that the rules forbid now ends the
//! episode as a loss for its player (pgx, PettingZoo classic, Kaggle ConnectX);
//! otherwise the whole batch is refused, as without an opponent.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use super::outputs::{Dims, StepBuffers};
use super::vec_env::{write_forfeit, Autoreset, Envs};
use crate::agents::{Agent, AgentError, AgentWorker};
use crate::game::Game;
use crate::rng::Rng;
use crate::rules::Rules;

/// First stream of the opponents' generators: env `i` draws its opponent's moves
/// and its seats from stream `OPPONENT_STREAMS + i`, apart from its own stream `i`
/// (which `random_actions` uses), so the two never disturb each other.
pub(super) const OPPONENT_STREAMS: u64 = 1 << 32;

/// The seat the agent holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentSeat {
    /// This seat (0-based) in every episode.
    Fixed(usize),
    /// A seat drawn uniformly at the start of every episode from the env's opponent stream.
    Random,
}

/// Who plays the seats the agent does not hold.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum OpponentKind {
    /// A built-in agent, played inside `step` and `observe`.
    Native(Agent),
    /// The caller, between rounds (`opponent_pending`, `play_opponent`).
    External,
}

/// An opponent and the agent's seat.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Opponent {
    pub kind: OpponentKind,
    pub seat: AgentSeat,
}

impl Opponent {
    /// Checks the opponent against `rules`: the seat exists, a built-in agent plays
    /// these rules, and when the agent may move second no game can end before its
    /// first move (that needs `k >= 2` and at least one cell per player).
    pub fn check(&self, rules: &Rules) -> Result<(), AgentError> {
        let players = rules.players();
        if let AgentSeat::Fixed(s) = self.seat {
            if s >= players {
                return Err(AgentError::InvalidConfig(format!(
                    "agent_player={} is out of range: allowed 1..={players} or \"random\"",
                    s + 1
                )));
            }
        }
        if let OpponentKind::Native(agent) = self.kind {
            agent.validate()?;
            agent.check_rules(rules)?;
        }
        let may_follow = self.seat != AgentSeat::Fixed(0);
        if may_follow && (rules.k() < 2 || rules.num_cells() < players) {
            return Err(AgentError::InvalidConfig(format!(
                "with {rules} a game can end before the agent's first move: agent_player \
                 other than 1 needs k >= 2 and at least one cell per player"
            )));
        }
        Ok(())
    }
}

/// An opponent that could not move: the step that asked is undone.
#[derive(Clone, Debug, PartialEq)]
pub enum StepError {
    Action(super::ActionError),
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

impl From<super::ActionError> for StepError {
    fn from(e: super::ActionError) -> StepError {
        StepError::Action(e)
    }
}

impl AgentSeat {
    /// The agent's (0-based) seat in a new episode of `players`.
    fn draw(self, rng: &mut Rng, players: usize) -> u8 {
        match self {
            AgentSeat::Fixed(s) => s as u8,
            AgentSeat::Random => rng.below(players as u32) as u8,
        }
    }
}

/// The opponent's per-env state and one worker per thread.
pub(super) struct Versus {
    pub(super) opponent: Opponent,
    /// The agent's seat (0-based) in each env's current episode.
    pub(super) seats: Vec<u8>,
    pub(super) rngs: Vec<Rng>,
    /// Indexed by the pool's thread index; the last one serves the calling thread.
    /// Agents are pure functions of the position and their generator, so which
    /// worker serves an env never changes its moves.
    pub(super) workers: Vec<Mutex<AgentWorker>>,
}

impl Versus {
    pub(super) fn new(opponent: Opponent, num_envs: usize, seed: u64, threads: usize) -> Versus {
        let agent = match opponent.kind {
            OpponentKind::Native(a) => a,
            OpponentKind::External => Agent::Random,
        };
        let mut v = Versus {
            opponent,
            seats: vec![0; num_envs],
            rngs: Vec::with_capacity(num_envs),
            workers: (0..=threads)
                .map(|_| Mutex::new(AgentWorker::new(agent)))
                .collect(),
        };
        v.reseed(seed);
        v
    }

    /// Draws the agent's seat for env `i`'s new episode.
    pub(super) fn draw_seat(&mut self, i: usize, players: usize) {
        self.seats[i] = self.opponent.seat.draw(&mut self.rngs[i], players);
    }

    pub(super) fn reseed(&mut self, seed: u64) {
        let n = self.seats.len();
        self.rngs.clear();
        self.rngs
            .extend((0..n).map(|i| Rng::new(seed, OPPONENT_STREAMS + i as u64)));
    }
}

/// The per-env opponent state of a range of environments.
pub(super) struct VersusRows<'a> {
    pub(super) seats: &'a mut [u8],
    pub(super) rngs: &'a mut [Rng],
}

impl<'a> VersusRows<'a> {
    pub(super) fn split_at(self, mid: usize) -> (VersusRows<'a>, VersusRows<'a>) {
        let (sa, sb) = self.seats.split_at_mut(mid);
        let (ra, rb) = self.rngs.split_at_mut(mid);
        (
            VersusRows {
                seats: sa,
                rngs: ra,
            },
            VersusRows {
                seats: sb,
                rngs: rb,
            },
        )
    }
}

/// What the general step shares across threads.
pub(super) struct Shared<'a> {
    pub(super) dims: Dims,
    pub(super) mode: Autoreset,
    pub(super) opponent: Option<Opponent>,
    pub(super) workers: &'a [Mutex<AgentWorker>],
    pub(super) cancel: &'a AtomicBool,
    /// The first opponent failure; once set, the remaining envs are left as they are
    /// (the caller restores the batch).
    pub(super) failure: &'a Mutex<Option<AgentError>>,
}

/// How an episode ended.
#[derive(Clone, Copy)]
enum Ending {
    /// By the rules: a line or a full board.
    Rules,
    /// By an illegal action of this (0-based) player.
    Forfeit(usize),
}

/// The general step, one environment at a time (a thread's share of the batch).
impl Envs<'_> {
    pub(super) fn run_general_serial(mut self, mut out: StepBuffers<'_>, shared: &Shared<'_>) {
        let d = &shared.dims;
        for i in 0..self.games.len() {
            out.rewards[i] = 0.0;
            out.player_rewards[i * d.players..(i + 1) * d.players].fill(0.0);
            out.terminated[i] = false;
            out.winner[i] = 0;
            out.reset[i] = false;
            if d.illegal_loss {
                out.illegal[i] = false;
            }
            if d.opponent {
                out.final_agent_player[i] = 0;
            }
            if let Some(actions) = self.actions {
                if self.needs_reset[i] {
                    self.games[i].reset();
                    self.needs_reset[i] = false;
                    out.reset[i] = true;
                    self.new_episode(i, shared);
                } else {
                    let a = actions[i] as usize;
                    let game = &mut self.games[i];
                    let mover = game.to_move();
                    if d.illegal_loss && !game.is_legal(a) {
                        self.end_episode(i, &mut out, shared, Ending::Forfeit(mover));
                    } else {
                        game.play_unchecked(a);
                        if game.is_over() {
                            self.end_episode(i, &mut out, shared, Ending::Rules);
                        }
                    }
                }
            }
            if let Some(Opponent {
                kind: OpponentKind::Native(_),
                ..
            }) = shared.opponent
            {
                self.native_turns(i, &mut out, shared);
            }
            self.write_view(i, &mut out, d, shared.mode);
        }
    }

    /// The built-in opponent moves until the agent is to move or the episode ends.
    fn native_turns(&mut self, i: usize, out: &mut StepBuffers<'_>, shared: &Shared<'_>) {
        while let Some(rows) = self.versus.as_mut() {
            let game = &self.games[i];
            if self.needs_reset[i] || game.is_over() || game.to_move() == rows.seats[i] as usize {
                return;
            }
            if shared.cancel.load(Ordering::Relaxed) {
                record_failure(shared, AgentError::Cancelled);
                return;
            }
            let slot = rayon::current_thread_index()
                .filter(|&t| t + 1 < shared.workers.len())
                .unwrap_or(shared.workers.len() - 1);
            let mut worker = shared.workers[slot]
                .lock()
                .unwrap_or_else(|p| p.into_inner());
            match worker.choose(game, &mut rows.rngs[i], shared.cancel) {
                Ok(a) => {
                    drop(worker);
                    self.opponent_move(i, a, out, shared);
                }
                Err(e) => {
                    record_failure(shared, e);
                    return;
                }
            }
        }
    }

    /// Plays the opponent's legal action `a` in env `i` and ends the episode if it ends the game.
    pub(super) fn opponent_move(
        &mut self,
        i: usize,
        a: usize,
        out: &mut StepBuffers<'_>,
        shared: &Shared<'_>,
    ) {
        let game = &mut self.games[i];
        game.play_unchecked(a);
        if game.is_over() {
            self.end_episode(i, out, shared, Ending::Rules);
        }
    }

    /// Draws the agent's seat of a new episode in env `i`.
    fn new_episode(&mut self, i: usize, shared: &Shared<'_>) {
        if let (Some(rows), Some(opponent)) = (self.versus.as_mut(), shared.opponent) {
            rows.seats[i] = opponent.seat.draw(&mut rows.rngs[i], shared.dims.players);
        }
    }

    /// Records the end of env `i`'s episode (rewards, winner, flags) and applies the autoreset.
    fn end_episode(
        &mut self,
        i: usize,
        out: &mut StepBuffers<'_>,
        shared: &Shared<'_>,
        ending: Ending,
    ) {
        let d = &shared.dims;
        let game = &mut self.games[i];
        let rewards = &mut out.player_rewards[i * d.players..(i + 1) * d.players];
        let winner = match ending {
            Ending::Rules => {
                game.write_returns(rewards);
                game.winner()
            }
            Ending::Forfeit(p) => {
                out.illegal[i] = true;
                write_forfeit(p, rewards)
            }
        };
        // Self-play: the reward of the player who just moved (the mover of a
        // finished game is the one before the side to move; the offender did not move).
        let view = match (&self.versus, ending) {
            (Some(rows), _) => rows.seats[i] as usize,
            (None, Ending::Forfeit(p)) => p,
            (None, Ending::Rules) => (game.to_move() + d.players - 1) % d.players,
        };
        out.rewards[i] = rewards[view];
        if let Some(rows) = &self.versus {
            out.final_agent_player[i] = rows.seats[i] as i8 + 1;
        }
        out.winner[i] = winner.map_or(0, |w| w as i8 + 1);
        out.terminated[i] = true;
        match shared.mode {
            Autoreset::NextStep => self.needs_reset[i] = true,
            Autoreset::SameStep => {
                if let Some(f) = out.final_obs.as_mut() {
                    let seat = self.versus.as_ref().map(|r| r.seats[i] as usize);
                    f.write_as(i, d.obs, game, seat);
                }
                game.reset();
                out.reset[i] = true;
                self.new_episode(i, shared);
            }
            // A game over refuses further actions; a forfeited one (whose rules
            // would go on) is marked, and refuses them until its explicit reset.
            Autoreset::Disabled => {
                if let Ending::Forfeit(_) = ending {
                    self.needs_reset[i] = true;
                }
            }
        }
    }

    /// Writes env `i`'s observation (the agent's view), mask and players.
    pub(super) fn write_view(
        &mut self,
        i: usize,
        out: &mut StepBuffers<'_>,
        d: &Dims,
        mode: Autoreset,
    ) {
        let game = &self.games[i];
        let seat = self.versus.as_ref().map(|r| r.seats[i] as usize);
        out.obs.write_as(i, d.obs, game, seat);
        super::vec_env::write_mask(
            game,
            self.needs_reset[i],
            mode,
            &mut out.mask[i * d.actions..(i + 1) * d.actions],
        );
        out.current_player[i] = game.to_move() as i8 + 1;
        if let Some(s) = seat {
            out.agent_player[i] = s as i8 + 1;
        }
    }
}

fn record_failure(shared: &Shared<'_>, e: AgentError) {
    shared
        .failure
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .get_or_insert(e);
}

/// Whether env `game` waits for the external opponent.
pub(super) fn waits_for_opponent(game: &Game, needs_reset: bool, seat: u8) -> bool {
    !needs_reset && !game.is_over() && game.to_move() != seat as usize
}

#[cfg(test)]
#[path = "versus_tests.rs"]
mod tests;
