//! One position's value: the `solve` calls, and the bounded search under every
//! call (one thread first, then Lazy SMP).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use super::config::SOLO_NODE_BUDGET;
use super::deadline::Deadline;
use super::driver::Searched;
use super::error::SolveError;
use super::plan::Plan;
use super::position::Position;
use super::search::{Search, BUSY_SLOTS};
use super::state::Solver;

impl Solver {
    /// The exact score of `pos` for the player to move (see the module docs), or its
    /// sign if `weak`. `cancel` is polled every ~1000 nodes.
    pub fn solve(
        &mut self,
        pos: &Position,
        weak: bool,
        cancel: &AtomicBool,
    ) -> Result<i32, SolveError> {
        self.nodes = 0;
        self.book_hits = 0;
        self.solve_inner(pos, weak, cancel)
    }

    /// [`Solver::solve`] of a position whose value the caller knows to lie in
    /// `lo..=hi` (its sign if `weak`): only that range is searched, so a narrower
    /// range takes fewer probes (a known draw-or-win one). Bounds that are not facts
    /// give wrong answers.
    pub fn solve_within(
        &mut self,
        pos: &Position,
        weak: bool,
        lo: i32,
        hi: i32,
        cancel: &AtomicBool,
    ) -> Result<i32, SolveError> {
        self.nodes = 0;
        self.book_hits = 0;
        let value = self.search_to_end(pos, weak, Some((lo, hi)), cancel)?;
        Ok(value.clamp(lo, hi))
    }

    pub(super) fn solve_inner(
        &mut self,
        pos: &Position,
        weak: bool,
        cancel: &AtomicBool,
    ) -> Result<i32, SolveError> {
        self.search_to_end(pos, weak, None, cancel)
    }

    /// [`Solver::search`] under the node limit, to its end (`window`: only which side
    /// of it the value lies on).
    pub(super) fn search_to_end(
        &mut self,
        pos: &Position,
        weak: bool,
        window: Option<(i32, i32)>,
        cancel: &AtomicBool,
    ) -> Result<i32, SolveError> {
        let allowed = self
            .node_limit
            .map_or(u64::MAX, |l| l.saturating_sub(self.nodes));
        match self.search(pos, weak, cancel, allowed, None, window)? {
            Searched::Done(v) => Ok(v),
            Searched::Stopped { .. } => Err(SolveError::NodeLimit),
        }
    }

    /// The value of `pos` (its sign if `weak`), searching at most about `allowed`
    /// nodes and stopping at `deadline`. With a `window` `(a, b)` a value `<= a`
    /// only bounds the score from above and one `>= b` from below (fail-soft). [`Searched::Stopped`] with the bounds
    /// proven so far when either ends the search first. `Interrupted` once
    /// `cancel` is raised.
    pub(super) fn search(
        &mut self,
        pos: &Position,
        weak: bool,
        cancel: &AtomicBool,
        allowed: u64,
        deadline: Option<&Deadline>,
        window: Option<(i32, i32)>,
    ) -> Result<Searched, SolveError> {
        let (lo, hi, facts) = match self.plan(pos, weak, window, cancel)? {
            Plan::Known(value) => return Ok(Searched::Done(value)),
            Plan::Search { lo, hi, facts } => (lo, hi, facts),
        };
        let g = pos.geo;
        let moves = pos.moves as i32;
        let sign = |s: i32| if weak { s.signum() } else { s };
        let stop = AtomicBool::new(false);
        let table = &self.table;
        let book = self.book.as_deref();
        let threads = self.threads;
        // With several threads, small searches stay on this thread: spawning helpers
        // costs more than they save. Past the budget the parallel search starts over,
        // from the table this one filled.
        let budget = if self.threads <= 1 {
            allowed
        } else {
            SOLO_NODE_BUDGET.min(allowed)
        };
        let mut s = Search::new(g, table, cancel, &stop, None, 1);
        s.set_book(book);
        s.deadline = deadline;
        s.budget = budget;
        let r = s.solve(pos.current, pos.mask, moves, lo, hi);
        let solo_nodes = s.nodes;
        let solo_done = !s.aborted;
        let mut proven = s.bounds;
        self.book_hits += s.book_hits;
        let stopped_early =
            |searched: u64| searched > allowed || deadline.is_some_and(Deadline::seen_passed);
        let (score, nodes, aborted) =
            if solo_done || cancel.load(Ordering::Relaxed) || stopped_early(solo_nodes) {
                (r, 0, !solo_done)
            } else {
                let busy: Vec<AtomicU64> =
                    (0..BUSY_SLOTS).map(|_| AtomicU64::new(u64::MAX)).collect();
                let busy = &busy[..];
                let stop = &stop;
                // Helpers the system refuses are done without: the search is the same,
                // on fewer threads.
                let (main, helpers) = crate::threads::alongside(
                    "inarow-solver",
                    1..self.threads,
                    |i| {
                        // Same search, perturbed move order near the root; its table
                        // entries help the main thread. Stops when the main thread is
                        // done (or after finishing first).
                        let mut s = Search::new(g, table, cancel, stop, Some(busy), threads);
                        s.set_book(book);
                        s.deadline = deadline;
                        // Helper i starts one window away from the main thread's first
                        // probe (+1, -1, +2, ...): the bound the main thread needs next
                        // on either outcome.
                        s.probe_offset = if i % 2 == 1 {
                            (i as i32 + 1) / 2
                        } else {
                            -(i as i32) / 2
                        };
                        s.solve(pos.current, pos.mask, moves, lo, hi);
                        (s.nodes, s.book_hits)
                    },
                    Some(stop),
                    || {
                        let never = AtomicBool::new(false);
                        let mut s = Search::new(g, table, cancel, &never, Some(busy), threads);
                        s.set_book(book);
                        s.deadline = deadline;
                        s.budget = allowed.saturating_sub(solo_nodes);
                        let r = s.solve(pos.current, pos.mask, moves, lo, hi);
                        (r, s.nodes, s.aborted, s.bounds, s.book_hits)
                    },
                );
                let (r, mut nodes, aborted, bounds, mut hits) = main;
                for (n, b) in helpers.into_iter().flatten() {
                    nodes += n;
                    hits += b;
                }
                proven = (proven.0.max(bounds.0), proven.1.min(bounds.1));
                self.book_hits += hits;
                (r, nodes, aborted)
            };
        self.nodes += solo_nodes + nodes;
        if !aborted {
            return Ok(Searched::Done(sign(score)));
        }
        if cancel.load(Ordering::Relaxed) {
            return Err(SolveError::Interrupted);
        }
        let (lo, hi) = if window.is_some() { facts } else { proven };
        Ok(Searched::Stopped {
            lo: sign(lo),
            hi: sign(hi),
        })
    }
}
