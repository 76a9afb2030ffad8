//! Choosing a move, in limited time or to the end: the book, the moves known
//! without a search, the forced ones, then searches per move, outcomes first.

use std::sync::atomic::AtomicBool;

use super::choice::{centre_first, MoveValue, TimedMove};
use super::deadline::Deadline;
use super::error::SolveError;
use super::position::Position;
use super::solve::Searched;
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
        self.search_outcomes(pos, &order, &mut moves, deadline, cancel)?;
        let complete = self.search_exact_scores(pos, &order, &mut moves, deadline, cancel)?;
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

    /// Each move's outcome, in rounds of four times the nodes per open move.
    fn search_outcomes(
        &mut self,
        pos: &Position,
        order: &[usize],
        moves: &mut [Option<MoveValue>],
        deadline: Option<&Deadline>,
        cancel: &AtomicBool,
    ) -> Result<(), SolveError> {
        let mut round_nodes: u64 = 1 << 10;
        loop {
            let open = self.outcome_round(pos, order, moves, round_nodes, deadline, cancel)?;
            if !open || deadline.is_some_and(Deadline::seen_passed) {
                return Ok(());
            }
            round_nodes = round_nodes.saturating_mul(4);
        }
    }

    /// One round over the moves not yet settled; whether one is still open.
    fn outcome_round(
        &mut self,
        pos: &Position,
        order: &[usize],
        moves: &mut [Option<MoveValue>],
        round_nodes: u64,
        deadline: Option<&Deadline>,
        cancel: &AtomicBool,
    ) -> Result<bool, SolveError> {
        let mut open = false;
        for (i, &c) in order.iter().enumerate() {
            if settled(moves, order, i) {
                continue;
            }
            let Some(m) = moves[c] else { continue };
            let left = self.nodes_left();
            if left == 0 {
                return Err(SolveError::NodeLimit);
            }
            // A passed deadline ends the rounds (`seen_passed` from now on).
            if deadline.is_some_and(Deadline::passed) {
                return Ok(open);
            }
            let budget = if deadline.is_some() {
                round_nodes.min(left)
            } else {
                left
            };
            // Once a win is proven, or a move nearer the centre is proven to draw
            // at least, only whether this move wins matters (one probe instead of
            // two).
            let wins_only = moves.iter().flatten().any(|m| m.lo == 1)
                || nearer_floor(moves, order, i) >= Some(0);
            let (m, still_open) =
                self.search_outcome(&child(pos, c), m, wins_only, budget, deadline, cancel)?;
            open |= still_open;
            moves[c] = Some(m);
        }
        Ok(open)
    }

    /// One move's outcome, `m` narrowed by a search of its `child`; whether it is still open.
    fn search_outcome(
        &mut self,
        child: &Position,
        m: MoveValue,
        wins_only: bool,
        budget: u64,
        deadline: Option<&Deadline>,
        cancel: &AtomicBool,
    ) -> Result<(MoveValue, bool), SolveError> {
        // The child's side of -1/0: <= -1 means this move wins.
        let window = wins_only.then_some((-1, 0));
        let searched = self.search_limited(child, true, budget, window, deadline, cancel)?;
        Ok(match searched {
            Searched::Done(0) if window.is_some() => (
                MoveValue {
                    hi: m.hi.min(0),
                    ..m
                },
                false,
            ),
            Searched::Done(v) => (MoveValue::proven(-v, None), false),
            Searched::Stopped { lo, hi } => {
                let m = MoveValue {
                    lo: m.lo.max(-hi),
                    hi: m.hi.min(-lo),
                    exact: None,
                };
                (m, true)
            }
        })
    }

    /// The exact scores of the moves sharing the best outcome; whether the search finished.
    fn search_exact_scores(
        &mut self,
        pos: &Position,
        order: &[usize],
        moves: &mut [Option<MoveValue>],
        deadline: Option<&Deadline>,
        cancel: &AtomicBool,
    ) -> Result<bool, SolveError> {
        let best = moves.iter().flatten().map(|m| m.lo).max();
        let all_proven = (0..order.len()).all(|i| settled(moves, order, i));
        let contenders: Vec<usize> = order
            .iter()
            .copied()
            .filter(|&c| moves[c].is_some_and(|m| Some(m.lo) == best))
            .collect();
        // Only a shared win or loss needs them: draws all score 0.
        if !all_proven || contenders.len() <= 1 || best == Some(0) {
            return Ok(all_proven);
        }
        // The first contender's exact score, then for each later one only whether
        // it beats the best so far (one null-window probe), and its exact score if
        // it does.
        let mut best_exact = contenders
            .iter()
            .filter_map(|&c| moves[c].and_then(|m| m.exact))
            .max();
        for &c in &contenders {
            let Some(m) = moves[c] else { continue };
            if m.exact.is_some() {
                continue;
            }
            if deadline.is_some_and(Deadline::passed) {
                return Ok(false);
            }
            match self.exact_if_better(&child(pos, c), best_exact, deadline, cancel)? {
                Some(Searched::Done(v)) => {
                    moves[c] = Some(MoveValue::proven(m.lo, Some(-v)));
                    best_exact = best_exact.max(Some(-v));
                }
                Some(Searched::Stopped { .. }) => return Ok(false),
                None => {}
            }
        }
        Ok(true)
    }

    /// The exact search of `child`, the position after a move; `None` where one
    /// null-window probe shows that the move does not beat `best`.
    fn exact_if_better(
        &mut self,
        child: &Position,
        best: Option<i32>,
        deadline: Option<&Deadline>,
        cancel: &AtomicBool,
    ) -> Result<Option<Searched>, SolveError> {
        if let Some(b) = best {
            // Beats `b` <=> the child scores <= -b - 1.
            let a = -b - 1;
            let left = self.nodes_left();
            match self.search_limited(child, false, left, Some((a, a + 1)), deadline, cancel)? {
                Searched::Done(v) if v > a => return Ok(None),
                Searched::Done(_) => {}
                stopped => return Ok(Some(stopped)),
            }
        }
        let left = self.nodes_left();
        self.search_limited(child, false, left, None, deadline, cancel)
            .map(Some)
    }

    /// [`Solver::search`] that fails once the call's node limit is spent (a stop
    /// at `budget` or at the deadline is no failure).
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

    /// The nodes this call may still search.
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

/// Whether move `order[i]` is settled: proven, or not to be chosen whatever it
/// turns out to be (it cannot beat a proven outcome, or at best draws where a
/// move nearer the centre draws at least).
fn settled(moves: &[Option<MoveValue>], order: &[usize], i: usize) -> bool {
    let Some(m) = moves[order[i]] else {
        return true;
    };
    let floor = moves.iter().flatten().map(|m| m.lo).max().unwrap_or(-1);
    m.lo == m.hi || m.hi < floor || (m.hi <= 0 && nearer_floor(moves, order, i) >= Some(0))
}

/// The best outcome proven for a move nearer the centre than `order[i]`.
fn nearer_floor(moves: &[Option<MoveValue>], order: &[usize], i: usize) -> Option<i32> {
    order[..i]
        .iter()
        .filter_map(|&d| moves[d])
        .map(|m| m.lo)
        .max()
}

/// The position after `column` is played.
fn child(pos: &Position, column: usize) -> Position {
    let mut child = *pos;
    child.play_unchecked(column);
    child
}
