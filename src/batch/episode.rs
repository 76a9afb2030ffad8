//! What happens when an environment steps: [`Envs::step_env`], written once for
//! self-play (no opponent) and for play against an opponent.
//!
//! One step of env `i`: clear its outputs; if it waits for its autoreset, reset it
//! (drawing the agent's seat); else play the action, or forfeit it when illegal
//! actions lose, and end the episode if the game ended; then let a built-in
//! opponent move until the agent is to move again or the episode ends; then write
//! the agent's view (observation, terminal mask, players). Ending an episode
//! ([`Envs::end_episode`]) decides the returns, the reward, the winner and the
//! autoreset in its three modes. The batch splits into ranges of envs across
//! threads; each env draws from its own streams, so threads never change results.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use super::opponent::{AgentWorkers, Opponent, OpponentKind, VersusRows};
use super::outputs::{Dims, StepBuffers};
use crate::agents::AgentError;
use crate::game::Game;

/// Environments below which a batch is not split further across threads; batches
/// under two grains run on the calling thread. A hand-off to the pool costs about
/// 12 us and a step about 85 ns per environment (Connect Four, 2-core machine):
/// idle, a second thread pays from ~300 environments; loaded by other work, it
/// never paid up to 4096 but cost at most 16% from 1024 on (46% at 256). See
/// BENCHMARKS.md.
pub(super) const GRAIN: usize = 512;

/// What happens to an environment whose game has ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Autoreset {
    /// Gymnasium's default: the next `step` resets it and ignores its action.
    NextStep,
    /// Reset in the same `step`; the final observation is written aside.
    SameStep,
    /// Never: stepping it is an error until it is reset explicitly.
    Disabled,
}

/// What one step shares across threads.
pub(super) struct StepContext<'a> {
    pub(super) dims: Dims,
    pub(super) mode: Autoreset,
    pub(super) opponent: Option<Opponent>,
    pub(super) workers: &'a AgentWorkers,
    pub(super) cancel: &'a AtomicBool,
    /// The first opponent failure; once set, the remaining envs are left as they are
    /// (the caller restores the batch).
    pub(super) failure: &'a Mutex<Option<AgentError>>,
}

impl StepContext<'_> {
    fn record_failure(&self, e: AgentError) {
        self.failure
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get_or_insert(e);
    }

    /// Whether a built-in opponent moves inside the step.
    fn native_opponent(&self) -> bool {
        matches!(
            self.opponent,
            Some(Opponent {
                kind: OpponentKind::Native(_),
                ..
            })
        )
    }
}

/// How an episode ended.
#[derive(Clone, Copy)]
enum Ending {
    /// By the rules: a line or a full board.
    Rules,
    /// By an illegal action of this (0-based) player.
    Forfeit(usize),
}

/// A contiguous range of environments with their actions.
pub(super) struct Envs<'a> {
    pub(super) games: &'a mut [Game],
    pub(super) needs_reset: &'a mut [bool],
    /// `None`: observe only (no env moves but a built-in opponent's opening turns).
    pub(super) actions: Option<&'a [i64]>,
    /// The opponent's per-env state; `None` in self-play.
    pub(super) versus: Option<VersusRows<'a>>,
}

impl<'a> Envs<'a> {
    /// Splits off the first `mid` environments.
    fn split_at(self, mid: usize) -> (Envs<'a>, Envs<'a>) {
        let (ga, gb) = self.games.split_at_mut(mid);
        let (na, nb) = self.needs_reset.split_at_mut(mid);
        let (aa, ab) = self.actions.map(|a| a.split_at(mid)).unzip();
        let (va, vb) = self.versus.map(|v| v.split_at(mid)).unzip();
        (
            Envs {
                games: ga,
                needs_reset: na,
                actions: aa,
                versus: va,
            },
            Envs {
                games: gb,
                needs_reset: nb,
                actions: ab,
                versus: vb,
            },
        )
    }

    /// Steps every env, halving the range across the current pool's threads.
    pub(super) fn run(self, out: StepBuffers<'_>, cx: &StepContext<'_>) {
        let n = self.games.len();
        if n <= GRAIN {
            return self.run_serial(out, cx);
        }
        let mid = n / 2;
        let (ea, eb) = self.split_at(mid);
        let (oa, ob) = out.split_at(mid, &cx.dims);
        rayon::join(|| ea.run(oa, cx), || eb.run(ob, cx));
    }

    /// Steps every env on this thread.
    pub(super) fn run_serial(mut self, mut out: StepBuffers<'_>, cx: &StepContext<'_>) {
        // Compiled apart, so that self-play pays nothing for the opponent and the
        // illegal losses it does not have.
        match (cx.opponent.is_some(), cx.dims.illegal_loss) {
            (false, false) => {
                for i in 0..self.games.len() {
                    self.step_env::<false, false>(i, &mut out, cx);
                }
            }
            (false, true) => {
                for i in 0..self.games.len() {
                    self.step_env::<false, true>(i, &mut out, cx);
                }
            }
            (true, _) => {
                for i in 0..self.games.len() {
                    self.step_env::<true, true>(i, &mut out, cx);
                }
            }
        }
    }

    /// One step of env `i` (the whole story is in the module docs). `VERSUS` and
    /// `MAY_FORFEIT` only let the compiler drop what self-play without illegal
    /// losses never does; the flags in `cx` decide.
    #[inline(always)]
    fn step_env<const VERSUS: bool, const MAY_FORFEIT: bool>(
        &mut self,
        i: usize,
        out: &mut StepBuffers<'_>,
        cx: &StepContext<'_>,
    ) {
        let d = &cx.dims;
        out.rewards[i] = 0.0;
        out.player_rewards[i * d.players..(i + 1) * d.players].fill(0.0);
        out.terminated[i] = false;
        out.winner[i] = 0;
        out.reset[i] = false;
        if MAY_FORFEIT && d.illegal_loss {
            out.illegal[i] = false;
        }
        if VERSUS && d.opponent {
            out.final_agent_player[i] = 0;
        }
        if let Some(actions) = self.actions {
            if self.needs_reset[i] {
                self.games[i].reset();
                self.needs_reset[i] = false;
                out.reset[i] = true;
                self.new_episode(i, cx);
            } else {
                let a = actions[i] as usize;
                let game = &mut self.games[i];
                let mover = game.to_move();
                if MAY_FORFEIT && d.illegal_loss && !game.is_legal(a) {
                    self.end_episode(i, out, cx, Ending::Forfeit(mover));
                } else if game.play_unchecked(a) || game.is_over() {
                    self.end_episode(i, out, cx, Ending::Rules);
                }
            }
        }
        if VERSUS && cx.native_opponent() {
            self.native_turns(i, out, cx);
        }
        if VERSUS {
            self.write_view(i, out, d, cx.mode);
        } else {
            self.write_view_as(i, out, d, cx.mode, None);
        }
    }

    /// The built-in opponent moves until the agent is to move or the episode ends.
    fn native_turns(&mut self, i: usize, out: &mut StepBuffers<'_>, cx: &StepContext<'_>) {
        while let Some(rows) = self.versus.as_mut() {
            let game = &self.games[i];
            if self.needs_reset[i] || game.is_over() || game.to_move() == rows.seats[i] as usize {
                return;
            }
            if cx.cancel.load(Ordering::Relaxed) {
                cx.record_failure(AgentError::Cancelled);
                return;
            }
            let chosen = cx
                .workers
                .for_this_thread()
                .choose(game, &mut rows.rngs[i], cx.cancel);
            match chosen {
                Ok(a) => self.opponent_move(i, a, out, cx),
                Err(e) => {
                    cx.record_failure(e);
                    return;
                }
            }
        }
    }

    /// Plays the opponent's legal action `a` in env `i` and ends the episode if it
    /// ends the game.
    pub(super) fn opponent_move(
        &mut self,
        i: usize,
        a: usize,
        out: &mut StepBuffers<'_>,
        cx: &StepContext<'_>,
    ) {
        let game = &mut self.games[i];
        game.play_unchecked(a);
        if game.is_over() {
            self.end_episode(i, out, cx, Ending::Rules);
        }
    }

    /// Draws the agent's seat of a new episode in env `i`.
    fn new_episode(&mut self, i: usize, cx: &StepContext<'_>) {
        if let (Some(rows), Some(opponent)) = (self.versus.as_mut(), cx.opponent) {
            rows.seats[i] = opponent.seat.draw(&mut rows.rngs[i], cx.dims.players);
        }
    }

    /// Records the end of env `i`'s episode (returns, reward, winner, flags) and
    /// applies the autoreset.
    fn end_episode(
        &mut self,
        i: usize,
        out: &mut StepBuffers<'_>,
        cx: &StepContext<'_>,
        ending: Ending,
    ) {
        let d = &cx.dims;
        let game = &mut self.games[i];
        let returns = &mut out.player_rewards[i * d.players..(i + 1) * d.players];
        let winner = match ending {
            Ending::Rules => {
                game.write_returns(returns);
                game.winner()
            }
            Ending::Forfeit(p) => {
                out.illegal[i] = true;
                write_forfeit(p, returns)
            }
        };
        // The reward is the agent's; in self-play, the player who just acted (the
        // mover of a finished game is the one before the side to move; an offender
        // did not move).
        let view = match (&self.versus, ending) {
            (Some(rows), _) => rows.seats[i] as usize,
            (None, Ending::Forfeit(p)) => p,
            (None, Ending::Rules) => (game.to_move() + d.players - 1) % d.players,
        };
        out.rewards[i] = returns[view];
        if let Some(rows) = &self.versus {
            out.final_agent_player[i] = rows.seats[i] as i8 + 1;
        }
        out.winner[i] = winner.map_or(0, |w| w as i8 + 1);
        out.terminated[i] = true;
        match cx.mode {
            Autoreset::NextStep => self.needs_reset[i] = true,
            Autoreset::SameStep => {
                if let Some(f) = out.final_obs.as_mut() {
                    let seat = self.versus.as_ref().map(|r| r.seats[i] as usize);
                    f.write_as(i, d.obs, game, seat);
                }
                game.reset();
                out.reset[i] = true;
                self.new_episode(i, cx);
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
        let seat = self.versus.as_ref().map(|r| r.seats[i] as usize);
        self.write_view_as(i, out, d, mode, seat);
    }

    /// [`Envs::write_view`] from `seat`'s view (`None`: the side to move's, as in
    /// self-play, which so never looks for seats).
    #[inline(always)]
    fn write_view_as(
        &mut self,
        i: usize,
        out: &mut StepBuffers<'_>,
        d: &Dims,
        mode: Autoreset,
        seat: Option<usize>,
    ) {
        let game = &self.games[i];
        out.obs.write_as(i, d.obs, game, seat);
        write_mask(
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

/// The legal actions of `g`, or every action where the episode ended and waits
/// for its next-step autoreset (pgx's terminal mask): that step ignores the action,
/// and a masked sampler must never see an empty row. Under `Autoreset::Disabled`
/// an episode ended by an illegal action (`ended`) has none, as a finished game.
pub(super) fn write_mask(g: &Game, ended: bool, mode: Autoreset, row: &mut [bool]) {
    match (ended, mode) {
        (true, Autoreset::Disabled) => row.fill(false),
        (true, _) => row.fill(true),
        (false, _) => g.write_legal_mask(row),
    }
}

/// Writes the returns of a forfeit by `offender` (0-based) into `returns` (zeros):
/// -1 to the offender and, with two players, +1 to the other one, whom it returns
/// as the winner (with more players nobody wins).
fn write_forfeit(offender: usize, returns: &mut [f32]) -> Option<usize> {
    let winner = (returns.len() == 2).then(|| 1 - offender);
    if let Some(w) = winner {
        returns.fill(-1.0);
        returns[w] = 1.0;
    }
    returns[offender] = -1.0;
    winner
}

#[cfg(test)]
#[path = "episode_tests.rs"]
mod tests;
