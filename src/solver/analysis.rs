//! Every move's value at once: the analysis calls, searching the children
//! together on the solver's threads, or reading them from the book.

use std::sync::atomic::AtomicBool;

use super::error::SolveError;
use super::jobs::Job;
use super::position::Position;
use super::state::Solver;

impl Solver {
    /// For each column, the score of playing it, from the point of view of the player
    /// who plays it (the negated score of the position after the move; a move that
    /// wins at once scores `(N + 1 - moves) / 2`). `None` for a full column, and for
    /// every column of a position that is over.
    pub fn analyze(
        &mut self,
        pos: &Position,
        weak: bool,
        cancel: &AtomicBool,
    ) -> Result<Vec<Option<i32>>, SolveError> {
        self.nodes = 0;
        self.book_hits = 0;
        if pos.is_over() {
            return Ok(vec![None; pos.width()]);
        }
        if !weak {
            // A position's exact score in the book bounds its moves': none
            // scores more (each child scores at least its negation).
            let floor = self.book_value(pos, false).map(|v| -v);
            return self.per_column_together(pos, false, None, floor, cancel);
        }
        // The position's outcome bounds its moves': after a loss every move loses,
        // after a draw a move draws or loses (one probe instead of a solve).
        match self.solve_inner(pos, true, cancel)? {
            -1 => per_column(pos, true, |_| Ok(1)),
            // The child scores 0 or 1 for its own mover: which one.
            0 => self.per_column_together(pos, true, Some((0, 1)), None, cancel),
            _ => self.per_column_together(pos, true, None, None, cancel),
        }
    }

    /// [`per_column`] with each child's value searched within `window` (see
    /// [`Solver::search_to_end`]; with `(0, 1)`: 0 or 1), knowing it is at least
    /// `floor`, the children at once on the solver's threads.
    fn per_column_together(
        &mut self,
        pos: &Position,
        weak: bool,
        window: Option<(i32, i32)>,
        floor: Option<i32>,
        cancel: &AtomicBool,
    ) -> Result<Vec<Option<i32>>, SolveError> {
        let mut jobs = Vec::new();
        per_column(pos, weak, |child| {
            jobs.push(Job {
                pos: *child,
                window,
                floor,
            });
            Ok::<i32, SolveError>(0)
        })?;
        let mut values = self.search_all(&jobs, weak, cancel)?.into_iter();
        per_column(pos, weak, |_| {
            let v = values.next().unwrap_or(0);
            // Which side of a null window: its edge.
            Ok(window.map_or(v, |(a, b)| v.clamp(a, b)))
        })
    }

    /// For each column, the move's exact score (for the player who plays it) if
    /// the opponent can force a win after it by their `replies`-th stone at the
    /// latest (`replies >= 1`; 1: they win at once), else `None` (also for a full
    /// column and for every column of a position that is over). Such a move scores
    /// below every move after which they cannot. One search per move with a window
    /// at the top of the score range, which ends within about `2 * replies` plies:
    /// cheap at any ply.
    pub fn quick_loss_scores(
        &mut self,
        pos: &Position,
        replies: u32,
        cancel: &AtomicBool,
    ) -> Result<Vec<Option<i32>>, SolveError> {
        self.nodes = 0;
        self.book_hits = 0;
        let mut out = vec![None; pos.width()];
        if pos.is_over() {
            return Ok(out);
        }
        let n = pos.geo.cells;
        let replies = replies.max(1) as i32;
        for (col, slot) in out.iter_mut().enumerate() {
            if !pos.can_play(col) || pos.is_winning_move(col) {
                continue;
            }
            let mut child = *pos;
            child.play_unchecked(col);
            // The opponent's win with their j-th stone scores top - (j - 1).
            let top = (n + 1 - child.moves as i32) / 2;
            if top < 1 {
                continue; // no stone of theirs can win
            }
            let threshold = (top - (replies - 1)).max(1);
            let v = self.search_to_end(&child, false, Some((threshold - 1, top + 1)), cancel)?;
            if v >= threshold {
                *slot = Some(-v);
            }
        }
        Ok(out)
    }

    /// Each column's value for the mover from the book alone (a winning move
    /// counts as the best value): exact scores if the book has them all, else
    /// win/draw/loss (and whether they are exact); `None` if some legal child is
    /// missing from the book. No search.
    pub fn book_scores(&self, pos: &Position) -> Option<(Vec<Option<i32>>, bool)> {
        self.book.as_ref()?;
        let by =
            |weak: bool| per_column(pos, weak, |child| self.book_value(child, weak).ok_or(())).ok();
        by(false)
            .map(|s| (s, true))
            .or_else(|| by(true).map(|s| (s, false)))
    }
}

/// Each column's value for the player to move: `None` where the column is full, the
/// immediate win's score (1 when `weak`) for a winning move, else the negated
/// `child_value` of the position after the move.
fn per_column<E>(
    pos: &Position,
    weak: bool,
    mut child_value: impl FnMut(&Position) -> Result<i32, E>,
) -> Result<Vec<Option<i32>>, E> {
    let n = pos.geo.cells;
    let mut out = vec![None; pos.width()];
    for (col, slot) in out.iter_mut().enumerate() {
        if !pos.can_play(col) {
            continue;
        }
        if pos.is_winning_move(col) {
            let s = (n + 1 - pos.moves as i32) / 2;
            *slot = Some(if weak { 1 } else { s });
            continue;
        }
        let mut child = *pos;
        child.play_unchecked(col);
        *slot = Some(-child_value(&child)?);
    }
    Ok(out)
}
