//! Where a search starts: the value where it is known without one, else the
//! score range to search.

use std::sync::atomic::{AtomicBool, Ordering};

use super::error::SolveError;
use super::position::Position;
use super::state::Solver;

/// Where a search starts ([`Solver::plan`]).
pub(super) enum Plan {
    /// The value is known without a search.
    Known(i32),
    /// Search `lo..=hi`; `facts`: the bounds proven before any probe.
    Search { lo: i32, hi: i32, facts: (i32, i32) },
}

impl Solver {
    /// The value of `pos` (its sign if `weak`) where it is known without a search:
    /// a finished game, an immediate win, a position in the book, a win one stone
    /// past the book whose parent there loses.
    pub(super) fn known_value(&self, pos: &Position, weak: bool) -> Option<i32> {
        let g = pos.geo;
        let n = g.cells;
        let moves = pos.moves as i32;
        let sign = |s: i32| if weak { s.signum() } else { s };
        if pos.won {
            return Some(sign(-((n + 2 - moves) / 2)));
        }
        if moves >= n {
            return Some(0);
        }
        if pos.can_win_at_once() {
            return Some(sign((n + 1 - moves) / 2));
        }
        let book_value = self.book_value(pos, weak);
        if book_value.is_none() && weak {
            // One stone past the book, a parent that loses makes this a win.
            let floor = self.book.as_deref()?.floor_from_parents(pos);
            return floor.filter(|&f| f >= 1);
        }
        book_value
    }

    /// What a search of `pos` (its sign if `weak`) starts from: its value where it
    /// is known without one (see [`Solver::known_value`]; with a `window`, also a
    /// bound proving which side of it the value lies on), else the score range to
    /// search and the bounds proven before any probe. Readies the table for `pos`'s
    /// shape.
    pub(super) fn plan(
        &mut self,
        pos: &Position,
        weak: bool,
        window: Option<(i32, i32)>,
        cancel: &AtomicBool,
    ) -> Result<Plan, SolveError> {
        if let Some(value) = self.known_value(pos, weak) {
            return Ok(Plan::Known(value));
        }
        let g = pos.geo;
        let n = g.cells;
        let moves = pos.moves as i32;
        if cancel.load(Ordering::Relaxed) {
            return Err(SolveError::Interrupted);
        }
        if self.geometry != Some(g) {
            self.table.clear();
            self.geometry = Some(g);
        }
        let mut lo = -(n - moves) / 2;
        let mut hi = (n + 1 - moves) / 2;
        // Neither side can ever complete a line: a draw.
        let empty = g.board() & !pos.mask;
        if !g.has_line(pos.current | empty) {
            hi = hi.min(0);
        }
        if !g.has_line((pos.current ^ pos.mask) | empty) {
            lo = lo.max(0);
        }
        // One stone past the book: each parent's mover could have played here, so
        // a parent that loses makes a win and one that draws a draw at least.
        if let Some(floor) = self.book.as_deref().and_then(|b| b.floor_from_parents(pos)) {
            if floor >= 0 {
                lo = lo.max(floor);
            }
        }
        // The book's outcome bounds an exact score.
        match self.book_value(pos, true) {
            Some(1) => lo = lo.max(1),
            Some(0) => (lo, hi) = (lo.max(0), hi.min(0)),
            Some(_) => hi = hi.min(-1),
            None => {}
        }
        if weak {
            lo = lo.max(-1);
            hi = hi.min(1);
        }
        // The bounds proven before any probe (inside a window, the window's
        // edges are no facts).
        let facts = (lo, hi);
        if let Some((a, b)) = window {
            // Only which side of the window the score lies on is asked for.
            if hi <= a {
                return Ok(Plan::Known(hi));
            }
            if lo >= b {
                return Ok(Plan::Known(lo));
            }
            lo = lo.max(a);
            hi = hi.min(b);
        }
        Ok(Plan::Search { lo, hi, facts })
    }
}
