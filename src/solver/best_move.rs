//! Choosing a move, in limited time or to the end: the book, the moves known
//! without a search, the forced ones, then searches per move, outcomes first.

use std::sync::atomic::AtomicBool;

use super::choice::{centre_first, MoveValue, TimedMove};
use super::deadline::Deadline;
use super::driver::{search_moves, MoveSearch, Searched};
use super::error::SolveError;
use super::position::Position;
use super::state::Solver;

impl Solver {
    /// An optimal column for the player to move: never a move with a worse
    /// win/draw/loss outcome than another; among the moves of the best outcome,
    /// the best exact score, ties to the column nearest the centre (the left one
    /// of two equally near). Where the book holds every child's win/draw/loss
    /// value but not all exact scores, the best outcome, centre first among equal
    /// outcomes but after the moves that let the opponent win at once (the worst
    /// score there is), without a search. Fails with [`SolveError::GameOver`] if the game
    /// is over.
    ///
    /// A move that wins at once, the only legal move, or the only one after
    /// which the opponent cannot win at once is played without a search. Otherwise
    /// the position's exact score is searched, then the moves centre first by one
    /// null-window probe each until one keeps that score.
    pub fn best_move(&mut self, pos: &Position, cancel: &AtomicBool) -> Result<usize, SolveError> {
        Ok(self.best_move_within(pos, None, cancel)?.column)
    }

    /// [`Solver::best_move`] within a time budget: anytime, never a timeout. The
    /// book answers where it holds every child; otherwise each move's outcome is
    /// searched in rounds of growing node budgets (every move gets some search
    /// before any gets much), then the exact scores of the moves sharing the best
    /// outcome, until `deadline` passes. The move returned is, in this order:
    ///
    /// 1. the best outcome the move is proven to reach at least (win > draw >
    ///    loss; a move with no proof yet counts as a possible loss),
    /// 2. the best outcome it may still reach (so a proven draw goes before an
    ///    unproven move, and an unproven move before a proven loss),
    /// 3. the best proven exact score, moves without one after those with one,
    /// 4. the column nearest the centre.
    ///
    /// So it never has a worse proven outcome than another proven move, and with a
    /// budget that lets the search finish (`complete`) it is the move of
    /// [`Solver::best_move`]. With `deadline = None` the search always finishes.
    pub fn best_move_within(
        &mut self,
        pos: &Position,
        deadline: Option<&Deadline>,
        cancel: &AtomicBool,
    ) -> Result<TimedMove, SolveError> {
        self.nodes = 0;
        self.book_hits = 0;
        if pos.is_over() {
            return Err(SolveError::GameOver(
                "the game is over: there is no move to choose".into(),
            ));
        }
        if let Some(chosen) = self.book_move(pos) {
            return Ok(chosen);
        }
        let mut moves = self.known_move_values(pos);
        if let Some(column) = forced_column(pos) {
            return Ok(TimedMove {
                column,
                moves,
                complete: true,
            });
        }
        let order = centre_first(pos.width());
        if deadline.is_none() {
            if let Some(column) = self.best_by_root_score(pos, &order, &mut moves, cancel)? {
                return Ok(TimedMove {
                    column,
                    moves,
                    complete: true,
                });
            }
        }
        let complete = search_moves(self, pos, &order, &mut moves, deadline, cancel)?;
        Ok(TimedMove::choose(moves, complete))
    }

    /// The book's move, where the book holds every child ([`Solver::book_scores`]).
    fn book_move(&self, pos: &Position) -> Option<TimedMove> {
        let (scores, exact) = self.book_scores(pos)?;
        let moves: Vec<Option<MoveValue>> = scores
            .iter()
            .map(|s| s.map(|v| MoveValue::proven(v.signum(), exact.then_some(v))))
            .collect();
        let mut chosen = TimedMove::choose(moves, true);
        if !exact && pos.lets_opponent_win_at_once(chosen.column) {
            // Win/draw/loss alone: among the moves of the best outcome, one that
            // does not let the opponent win at once (the worst exact score there
            // is) goes first.
            let best = chosen.moves[chosen.column];
            let other = centre_first(pos.width())
                .into_iter()
                .find(|&c| chosen.moves[c] == best && !pos.lets_opponent_win_at_once(c));
            chosen.column = other.unwrap_or(chosen.column);
        }
        Some(chosen)
    }

    /// Each move's value known without a search, whatever the deadline.
    fn known_move_values(&self, pos: &Position) -> Vec<Option<MoveValue>> {
        let n = pos.geo.cells;
        let mut moves: Vec<Option<MoveValue>> = vec![None; pos.width()];
        for (c, slot) in moves.iter_mut().enumerate() {
            if !pos.can_play(c) {
                continue;
            }
            // Immediate wins, replies that win at once, the book.
            *slot = Some(if pos.is_winning_move(c) {
                let s = (n + 1 - pos.moves as i32) / 2;
                MoveValue::proven(1, Some(s))
            } else if let Some(v) = self.known_value(&child(pos, c), true) {
                MoveValue::proven(-v, None)
            } else {
                MoveValue::unknown()
            });
        }
        moves
    }

    /// The untimed best move: the root's exact score first, then the first move
    /// (centre first) that keeps it, each by one null-window probe. The same move as
    /// the outcome-then-score rounds of [`Solver::best_move_within`] (the best
    /// outcome is the sign of the best score); the root's search fills the table the
    /// probes then read (the worst of 40 positions of plies 12-15: 747k -> 266k nodes).
    fn best_by_root_score(
        &mut self,
        pos: &Position,
        order: &[usize],
        moves: &mut [Option<MoveValue>],
        cancel: &AtomicBool,
    ) -> Result<Option<usize>, SolveError> {
        let target = self.exact_by_probe_pairs(pos, cancel)?;
        // The move keeps `target` <=> its child scores at most `-target`.
        let a = -target;
        for &c in order {
            if moves[c].is_none() {
                continue;
            }
            if self.search_to_end(&child(pos, c), false, Some((a, a + 1)), cancel)? <= a {
                moves[c] = Some(MoveValue::proven(target.signum(), Some(target)));
                return Ok(Some(c));
            }
        }
        // Unreachable while the searches agree; the outcome rounds decide otherwise.
        Ok(None)
    }
}

impl MoveSearch for Solver {
    type Position = Position;
    const FIRST_ROUND_NODES: u64 = 1 << 10;

    fn child(&self, pos: &Position, column: usize) -> Position {
        child(pos, column)
    }

    fn search_limited(
        &mut self,
        pos: &Position,
        weak: bool,
        budget: u64,
        window: Option<(i32, i32)>,
        deadline: Option<&Deadline>,
        cancel: &AtomicBool,
    ) -> Result<Searched, SolveError> {
        let searched = self.search(pos, weak, cancel, budget, deadline, window)?;
        if matches!(searched, Searched::Stopped { .. }) && self.nodes_left() == 0 {
            return Err(SolveError::NodeLimit);
        }
        Ok(searched)
    }

    fn nodes_left(&self) -> u64 {
        self.node_limit
            .unwrap_or(u64::MAX)
            .saturating_sub(self.nodes)
    }
}

/// The move played without a search: the soonest win (every immediate win
/// scores the most there is; ties centre first), the only legal move, or the
/// only one after which the opponent cannot win at once.
fn forced_column(pos: &Position) -> Option<usize> {
    let legal: Vec<usize> = (0..pos.width()).filter(|&c| pos.can_play(c)).collect();
    if let Some(win) = centre_first(pos.width())
        .into_iter()
        .find(|&c| pos.can_play(c) && pos.is_winning_move(c))
    {
        return Some(win);
    }
    if legal.len() == 1 {
        return Some(legal[0]);
    }
    let survivors: Vec<usize> = legal
        .into_iter()
        .filter(|&c| !pos.lets_opponent_win_at_once(c))
        .collect();
    (survivors.len() == 1).then(|| survivors[0])
}

/// The position after `column` is played.
fn child(pos: &Position, column: usize) -> Position {
    let mut child = *pos;
    child.play_unchecked(column);
    child
}
