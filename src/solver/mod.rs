//! An exact solver for gravity k-in-a-row games (Connect Four and relatives).
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use inarow::solver::{Position, Solver, SolverConfig};
//!
//! let mut solver = Solver::new(SolverConfig::default()).unwrap();
//! let pos = Position::parse_pons("2252576253462244111563365343671351441").unwrap();
//! let cancel = AtomicBool::new(false);
//! assert_eq!(solver.solve(&pos, false, &cancel).unwrap(), -1);
//!
//! // Any game the solver covers, without a round trip through cells.
//! let game = inarow::Game::from_actions(inarow::Rules::connect_four(), &[3, 3, 3]).unwrap();
//! let pos = Position::from_game(&game).unwrap();
//! assert_eq!(solver.best_move(&pos, &cancel).unwrap(), 3);
//! ```
//!
//! # Scores (Pascal Pons' convention)
//!
//! From the point of view of the player to move, on a board of `N = width * height`
//! cells with `moves` stones already played: 0 is a draw; a win whose winning stone
//! is the `m+1`-th stone of the game scores `(N + 1 - m) / 2` (so larger = sooner),
//! a loss scores the negation of the opponent's win. On 7x6 the range is -18..=18.
//! With `weak = true` only the sign is computed (-1, 0, 1), which is faster.
//!
//! # Positions that are already over
//!
//! If the player who moved last has a line, the player to move has lost: `solve`
//! returns `-((N + 2 - moves) / 2)` (the score the winner got one ply earlier,
//! negated; `-1` when weak). A full board without a line scores 0. `analyze` of an
//! over position gives `None` for every column, and `best_move` fails with
//! [`SolveError::GameOver`].
//!
//! # Limits
//!
//! Two players with gravity on boards with `width * (height + 1) <= 64` (7x6, 8x7,
//! 9x5, 6x9, 4x12, ...), any `k >= 1` (`k = 4` has its own line code). Table size
//! 1 KiB ..= 16 GiB (default 256 MiB), threads 1 ..= 64 (default one per core;
//! more threads: Lazy SMP sharing one table).
//!
//! # Techniques
//!
//! One line each, with its measured effect on Pons' 7x6 sets or the empty board
//! (how each came about, and what was tried and dropped: BENCHMARKS.md, "Solver
//! techniques: history").
//!
//! * Two bitboards per position in the shared `Layout` (the crate's private `layout` module)
//!   (mover's stones, all stones); key `current + mask`, or its mirror image if
//!   smaller, at every depth (empty board -4% nodes, -5% time); a position that
//!   is its own mirror image searches half of the columns.
//! * Dead stones (whose colour can no longer matter, `Geometry::dead_stones`) count
//!   as the mover's in the key below 12 empty cells (empty board -9% nodes, -2.5%
//!   time).
//! * Null-window probes bisect the score; with at most one stone on the board they
//!   start at 0 and walk outwards (empty board: about 100M of 360M nodes fewer).
//! * Moves that lose at once are never searched; a move after which the opponent
//!   has no safe reply wins without a node; the upper bound then drops to "no win
//!   within three plies".
//! * Move ordering: useful threats (c4's rule), a point more for a move that
//!   threatens to win at once, table move first, centre first on ties (-16% nodes
//!   against Pons' plain threat count).
//! * Static claimeven bounds (Allis) at every node (empty board 393M -> 232M nodes,
//!   Begin-Hard -22% nodes, about 6% more time per node).
//! * Static odd-threat (zugzwang) bounds in the same framework (empty board 232M ->
//!   200M nodes).
//! * Transposition table of lower and upper bounds: two-entry buckets keeping the
//!   costlier entry, lock-free (key xor data), a prefix growing from 256 KiB after
//!   a clear (Middle-Medium 4.7 -> 3.1 ms), huge pages on Linux; the node's entry
//!   and the children's are prefetched before the static bounds (empty board, 2
//!   threads: median 14.05 -> 11.7 s).
//! * Enhanced transposition cutoffs above 12 empty cells (Begin-Medium -25% nodes).
//! * A node with a single safe move skips the table (+6% nodes, -15% time).
//! * The search is compiled for x86-64-v3 and for the baseline, picked at run
//!   time (-10% time).
//! * Threads: Lazy SMP with ABDADA-style deferral (Begin-Hard 1.69 -> 1.12 s on 2
//!   cores); searches under 16k nodes (about 2 ms) stay on one thread, where
//!   spawning helpers costs more than they save (65k before: random positions of
//!   plies 13-16 on 2 cores, five runs each, -8% time, ply-14 weak analysis p99
//!   54.5 -> 47.1 ms median of the runs; Middle-Medium 1.63 -> 1.47 ms); helper
//!   threads start one probe window away from the main thread, proving the bound it
//!   needs next.
//! * `analyze` searches its moves at once, one per thread on the shared table, a
//!   thread without a move left helping with one still running (random 7x6
//!   positions of ply 14, weak analysis on 2 cores: p99 57.8 -> 38.7 ms).
//! * `best_move` finds the position's exact score by pairs of null-window probes
//!   searched at once, walking from the end of the range nearest 0, so the two
//!   costly probes on either side of the score tend to share a round (random
//!   positions of ply 13 on 2 cores: p99 56.7 -> 37.1 ms); a position's book
//!   outcome bounds its exact search.
//!
//! Today's figures per set and for the empty board: BENCHMARKS.md.

pub mod book;
#[cfg(test)]
mod book_probe_tests;
mod deadline;
mod error;
mod geometry;
mod jobs;
#[cfg(test)]
mod jobs_tests;
mod order;
mod position;
mod search;
mod table;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod timed_tests;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

pub use deadline::Deadline;
pub use error::SolveError;
pub use position::Position;

use book::Book;
use geometry::Geometry;
use search::Search;
use table::Table;

/// Smallest accepted table size.
pub const MIN_TT_BYTES: usize = 1 << 10;
/// Largest accepted table size.
pub const MAX_TT_BYTES: usize = 16 << 30;
/// Default table size (rounded down to a power of two, like every size): on the
/// empty 7x6 board it beat both 64 MiB and 1 GiB on this project's 2-core machine
/// (see BENCHMARKS.md).
pub const DEFAULT_TT_BYTES: usize = 256 << 20;
/// Slots of the shared "being searched" table used with several threads.
const BUSY_SLOTS: usize = 1 << 14;
/// With several threads, searches first run on one thread for this many nodes
/// (about 2 ms).
pub const SOLO_NODE_BUDGET: u64 = 1 << 14;
/// Most threads accepted.
pub const MAX_THREADS: usize = 64;

/// How to build a [`Solver`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolverConfig {
    /// Transposition table size in bytes ([`MIN_TT_BYTES`]..=[`MAX_TT_BYTES`]).
    pub tt_bytes: usize,
    /// Search threads (1..=[`MAX_THREADS`]); above 1, Lazy SMP on a shared table.
    pub threads: usize,
}

/// One search thread per core, up to [`MAX_THREADS`].
pub fn default_threads() -> usize {
    crate::watch::cores().min(MAX_THREADS)
}

impl Default for SolverConfig {
    /// A [`DEFAULT_TT_BYTES`] table, one thread per core ([`default_threads`]).
    fn default() -> Self {
        SolverConfig {
            tt_bytes: DEFAULT_TT_BYTES,
            threads: default_threads(),
        }
    }
}

/// The solver: owns the transposition table. `Send + Sync`.
pub struct Solver {
    table: Table,
    threads: usize,
    nodes: u64,
    /// Most nodes a call may search before failing with [`SolveError::NodeLimit`].
    node_limit: Option<u64>,
    /// The geometry the table's entries belong to (keys of other shapes would clash).
    geometry: Option<Geometry>,
    /// Solved positions answered without a search, and probed inside it.
    book: Option<Arc<Book>>,
    /// Search nodes the book bounded in the last call.
    book_hits: u64,
}

/// Where a search starts ([`Solver::plan`]).
enum Plan {
    /// The value is known without a search.
    Known(i32),
    /// Search `lo..=hi`; `facts`: the bounds proven before any probe.
    Search { lo: i32, hi: i32, facts: (i32, i32) },
}

/// How a bounded search ended.
enum Searched {
    /// The value.
    Done(i32),
    /// The node allowance or the deadline ended it; the value lies in `lo..=hi`.
    Stopped { lo: i32, hi: i32 },
}

impl Solver {
    /// Validates the configuration and allocates the table.
    pub fn new(config: SolverConfig) -> Result<Solver, SolveError> {
        if !(MIN_TT_BYTES..=MAX_TT_BYTES).contains(&config.tt_bytes) {
            return Err(SolveError::InvalidConfig(format!(
                "tt_bytes = {} outside {MIN_TT_BYTES}..={MAX_TT_BYTES}",
                config.tt_bytes
            )));
        }
        if !(1..=MAX_THREADS).contains(&config.threads) {
            return Err(SolveError::InvalidConfig(format!(
                "threads = {} outside 1..={MAX_THREADS}",
                config.threads
            )));
        }
        Ok(Solver {
            table: Table::new(config.tt_bytes)?,
            threads: config.threads,
            nodes: 0,
            node_limit: None,
            geometry: None,
            book: None,
            book_hits: 0,
        })
    }

    /// Answers the positions `book` holds from it (`solve`, `analyze` and
    /// `best_move`, see there) and bounds the search's nodes it holds by their
    /// values (answers are unchanged, searches shorter); `None`: always search.
    pub fn set_book(&mut self, book: Option<Arc<Book>>) {
        self.book = book;
    }

    /// The book's value of `pos`: its sign if `weak`, else its exact score where
    /// the book stores exact scores.
    fn book_value(&self, pos: &Position, weak: bool) -> Option<i32> {
        let book = self.book.as_deref()?;
        if weak {
            book.weak(pos)
        } else {
            book.exact(pos)
        }
    }

    /// Nodes (negamax calls, all threads) searched by the last `solve`, `analyze` or
    /// `best_move`.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Nodes of the last call's searches that the book bounded.
    pub fn book_hits(&self) -> u64 {
        self.book_hits
    }

    /// Limits the nodes of each later `solve`, `analyze` or `best_move` call (all
    /// of a call's searches together, roughly: checked every ~1000 nodes); past it
    /// the call fails with [`SolveError::NodeLimit`], keeping what it stored in the
    /// table, so the same call without a limit then starts ahead. `None`: no limit.
    pub fn set_node_limit(&mut self, nodes: Option<u64>) {
        self.node_limit = nodes;
    }

    /// Empties the table (O(1): a generation counter).
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// The table size in bytes.
    pub fn tt_bytes(&self) -> usize {
        self.table.bytes()
    }

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

    fn solve_inner(
        &mut self,
        pos: &Position,
        weak: bool,
        cancel: &AtomicBool,
    ) -> Result<i32, SolveError> {
        self.search_to_end(pos, weak, None, cancel)
    }

    /// [`Solver::search`] under the node limit, to its end (`window`: only which side
    /// of it the value lies on).
    fn search_to_end(
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

    /// The value of `pos` (its sign if `weak`) where it is known without a search:
    /// a finished game, an immediate win, a position in the book, a win one stone
    /// past the book whose parent there loses.
    fn known_value(&self, pos: &Position, weak: bool) -> Option<i32> {
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
    fn plan(
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

    /// The value of `pos` (its sign if `weak`), searching at most about `allowed`
    /// nodes and stopping at `deadline`. With a `window` `(a, b)` a value `<= a`
    /// only bounds the score from above and one `>= b` from below (fail-soft). [`Searched::Stopped`] with the bounds
    /// proven so far when either ends the search first. `Interrupted` once
    /// `cancel` is raised.
    fn search(
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
        let (score, nodes, aborted) = if solo_done
            || cancel.load(Ordering::Relaxed)
            || stopped_early(solo_nodes)
        {
            (r, 0, !solo_done)
        } else {
            let busy: Vec<AtomicU64> = (0..BUSY_SLOTS).map(|_| AtomicU64::new(u64::MAX)).collect();
            let busy = &busy[..];
            let (r, nodes, aborted, bounds, hits) = std::thread::scope(|scope| {
                let stop = &stop;
                // Helpers the system refuses are done without: the search is the
                // same, on fewer threads.
                let helpers: Vec<_> = (1..self.threads)
                    .filter_map(|i| {
                        crate::watch::spawn_scoped(scope, "inarow-solver", move || {
                            // Same search, perturbed move order near the root; its
                            // table entries help the main thread. Stops when the
                            // main thread is done (or after finishing first).
                            let mut s = Search::new(g, table, cancel, stop, Some(busy), threads);
                            s.set_book(book);
                            s.deadline = deadline;
                            // Helper i starts one window away from the main
                            // thread's first probe (+1, -1, +2, ...): the bound
                            // the main thread needs next on either outcome.
                            s.probe_offset = if i % 2 == 1 {
                                (i as i32 + 1) / 2
                            } else {
                                -(i as i32) / 2
                            };
                            s.solve(pos.current, pos.mask, moves, lo, hi);
                            (s.nodes, s.book_hits)
                        })
                    })
                    .collect();
                let never = AtomicBool::new(false);
                let mut s = Search::new(g, table, cancel, &never, Some(busy), threads);
                s.set_book(book);
                s.deadline = deadline;
                s.budget = allowed.saturating_sub(solo_nodes);
                let r = s.solve(pos.current, pos.mask, moves, lo, hi);
                stop.store(true, Ordering::Relaxed);
                let (mut nodes, mut hits) = (s.nodes, s.book_hits);
                for h in helpers {
                    let (n, b) = h.join().unwrap_or((0, 0));
                    nodes += n;
                    hits += b;
                }
                (r, nodes, s.aborted, s.bounds, hits)
            });
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
            jobs.push(jobs::Job {
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
        if let Some((scores, exact)) = self.book_scores(pos) {
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
            return Ok(chosen);
        }
        let outer = self.node_limit.unwrap_or(u64::MAX);
        let mut moves: Vec<Option<MoveValue>> = vec![None; pos.width()];
        let n = pos.geo.cells;
        for (c, slot) in moves.iter_mut().enumerate() {
            if !pos.can_play(c) {
                continue;
            }
            let mut child = *pos;
            child.play_unchecked(c);
            // Known without a search (whatever the deadline): immediate wins,
            // replies that win at once, the book.
            *slot = Some(if pos.is_winning_move(c) {
                let s = (n + 1 - pos.moves as i32) / 2;
                MoveValue::proven(1, Some(s))
            } else if let Some(v) = self.known_value(&child, true) {
                MoveValue::proven(-v, None)
            } else {
                MoveValue::unknown()
            });
        }
        // When all moves but one lose at once, that one is the best move.
        let legal: Vec<usize> = (0..pos.width()).filter(|&c| pos.can_play(c)).collect();
        let survivors: Vec<usize> = legal
            .iter()
            .copied()
            .filter(|&c| !pos.lets_opponent_win_at_once(c))
            .collect();
        if legal.iter().any(|&c| pos.is_winning_move(c)) {
            // The soonest win there is (ties centre first).
            return Ok(TimedMove::choose(moves, true));
        }
        if legal.len() == 1 || survivors.len() == 1 {
            let only = if legal.len() == 1 {
                legal[0]
            } else {
                survivors[0]
            };
            let mut chosen = TimedMove::choose(moves, true);
            chosen.column = only;
            return Ok(chosen);
        }
        let order = centre_first(pos.width());
        let child = |c: usize| {
            let mut ch = *pos;
            ch.play_unchecked(c);
            ch
        };
        if deadline.is_none() {
            if let Some(column) = self.best_by_root_score(pos, &order, &mut moves, cancel)? {
                return Ok(TimedMove {
                    column,
                    moves,
                    complete: true,
                });
            }
        }
        // Outcomes, in rounds of four times the nodes per open move. A move is
        // settled once proven, or once it cannot be chosen whatever it turns out
        // to be: it cannot beat a proven outcome, or at best draws where a move
        // nearer the centre draws at least. Once a win is proven, or a move
        // nearer the centre is proven to draw at least, a move is searched only
        // for whether it wins (one probe instead of two).
        let settled = |moves: &[Option<MoveValue>], i: usize| {
            let Some(m) = moves[order[i]] else {
                return true;
            };
            let floor = moves.iter().flatten().map(|m| m.lo).max().unwrap_or(-1);
            let nearer = order[..i]
                .iter()
                .filter_map(|&d| moves[d])
                .map(|m| m.lo)
                .max();
            m.lo == m.hi || m.hi < floor || (m.hi <= 0 && nearer >= Some(0))
        };
        let mut round_nodes: u64 = 1 << 10;
        'rounds: loop {
            let mut open = false;
            for i in 0..order.len() {
                if settled(&moves, i) {
                    continue;
                }
                let c = order[i];
                let Some(m) = moves[c] else { continue };
                let left = outer.saturating_sub(self.nodes);
                if left == 0 {
                    return Err(SolveError::NodeLimit);
                }
                if deadline.is_some_and(Deadline::passed) {
                    break 'rounds;
                }
                let budget = if deadline.is_some() {
                    round_nodes.min(left)
                } else {
                    left
                };
                let nearer = order[..i]
                    .iter()
                    .filter_map(|&d| moves[d])
                    .map(|m| m.lo)
                    .max();
                let wins_only = moves.iter().flatten().any(|m| m.lo == 1) || nearer >= Some(0);
                // The child's side of -1/0: <= -1 means this move wins.
                let window = wins_only.then_some((-1, 0));
                let m = match self.search(&child(c), true, cancel, budget, deadline, window)? {
                    Searched::Done(0) if window.is_some() => MoveValue {
                        hi: m.hi.min(0),
                        ..m
                    },
                    Searched::Done(v) => MoveValue::proven(-v, None),
                    Searched::Stopped { lo, hi } => {
                        if self.nodes >= outer {
                            return Err(SolveError::NodeLimit);
                        }
                        open = true;
                        MoveValue {
                            lo: m.lo.max(-hi),
                            hi: m.hi.min(-lo),
                            exact: None,
                        }
                    }
                };
                moves[c] = Some(m);
            }
            if !open || deadline.is_some_and(Deadline::seen_passed) {
                break;
            }
            round_nodes = round_nodes.saturating_mul(4);
        }
        // Exact scores, where several moves share the best outcome (a win or a loss).
        let best = moves.iter().flatten().map(|m| m.lo).max();
        let all_proven = (0..order.len()).all(|i| settled(&moves, i));
        let contenders: Vec<usize> = order
            .iter()
            .copied()
            .filter(|&c| moves[c].is_some_and(|m| Some(m.lo) == best))
            .collect();
        let mut complete = all_proven;
        if all_proven && contenders.len() > 1 && best != Some(0) {
            // The first contender's exact score, then for each later one only
            // whether it beats the best so far (one null-window probe), and its
            // exact score if it does.
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
                    complete = false;
                    break;
                }
                if let Some(b) = best_exact {
                    // Beats `b` <=> the child scores <= -b - 1.
                    let a = -b - 1;
                    let left = outer.saturating_sub(self.nodes);
                    match self.search(&child(c), false, cancel, left, deadline, Some((a, a + 1)))? {
                        Searched::Done(v) if v > a => continue,
                        Searched::Done(_) => {}
                        Searched::Stopped { .. } => {
                            if self.nodes >= outer {
                                return Err(SolveError::NodeLimit);
                            }
                            complete = false;
                            break;
                        }
                    }
                }
                let left = outer.saturating_sub(self.nodes);
                match self.search(&child(c), false, cancel, left, deadline, None)? {
                    Searched::Done(v) => {
                        moves[c] = Some(MoveValue::proven(m.lo, Some(-v)));
                        best_exact = best_exact.max(Some(-v));
                    }
                    Searched::Stopped { .. } => {
                        if self.nodes >= outer {
                            return Err(SolveError::NodeLimit);
                        }
                        complete = false;
                        break;
                    }
                }
            }
        }
        Ok(TimedMove::choose(moves, complete))
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
            let mut child = *pos;
            child.play_unchecked(c);
            if self.search_to_end(&child, false, Some((a, a + 1)), cancel)? <= a {
                moves[c] = Some(MoveValue::proven(target.signum(), Some(target)));
                return Ok(Some(c));
            }
        }
        // Unreachable while the searches agree; the rounds below decide otherwise.
        Ok(None)
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

/// What a timed search proved about one move, for the player who plays it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveValue {
    /// The outcome is at least this: 1 win, 0 draw, -1 loss.
    pub lo: i32,
    /// The outcome is at most this (`lo == hi`: proven).
    pub hi: i32,
    /// The exact score (Pons' convention), if proven.
    pub exact: Option<i32>,
}

impl MoveValue {
    fn unknown() -> MoveValue {
        MoveValue {
            lo: -1,
            hi: 1,
            exact: None,
        }
    }

    fn proven(outcome: i32, exact: Option<i32>) -> MoveValue {
        MoveValue {
            lo: outcome,
            hi: outcome,
            exact,
        }
    }
}

/// The answer of [`Solver::best_move_within`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimedMove {
    /// The chosen column.
    pub column: usize,
    /// Per column what was proven (`None`: a full column).
    pub moves: Vec<Option<MoveValue>>,
    /// The search finished: `column` is the move of [`Solver::best_move`].
    pub complete: bool,
}

impl TimedMove {
    /// The best of `moves` by the order of [`Solver::best_move_within`].
    fn choose(moves: Vec<Option<MoveValue>>, complete: bool) -> TimedMove {
        let mut best: Option<(usize, MoveValue)> = None;
        for c in centre_first(moves.len()) {
            let Some(m) = moves[c] else { continue };
            let key = |m: MoveValue| (m.lo, m.hi, m.exact.is_some(), m.exact.unwrap_or(0));
            let better = match best {
                None => true,
                Some((_, b)) => {
                    let (k, kb) = (key(m), key(b));
                    // Exact scores compare only between moves that both have one.
                    (k.0, k.1) > (kb.0, kb.1)
                        || ((k.0, k.1) == (kb.0, kb.1) && (k.2, k.3) > (kb.2, kb.3))
                }
            };
            if better {
                best = Some((c, m));
            }
        }
        TimedMove {
            column: best.map_or(0, |(c, _)| c),
            moves,
            complete,
        }
    }
}

/// The columns of a board `width` wide, nearest the centre first (the left one
/// of two equally near).
fn centre_first(width: usize) -> Vec<usize> {
    let w = width as i32;
    let mut cols: Vec<usize> = (0..width).collect();
    cols.sort_by_key(|&c| ((2 * c as i32 - (w - 1)).abs(), c));
    cols
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
