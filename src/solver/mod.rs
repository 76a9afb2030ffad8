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
//!   cores); searches under 65k nodes stay on one thread; helper threads start one
//!   probe window away from the main thread, proving the bound it needs next.
//!
//! Today's figures per set and for the empty board: BENCHMARKS.md.

pub mod book;
mod error;
mod geometry;
mod order;
mod position;
mod search;
mod table;
#[cfg(test)]
mod tests;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

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
/// (about 10 ms).
pub const SOLO_NODE_BUDGET: u64 = 1 << 16;
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
    /// Solved positions answered without a search.
    book: Option<Arc<Book>>,
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
        })
    }

    /// Answers the positions `book` holds from it (`solve`, `analyze` and
    /// `best_move`, see there); `None`: always search.
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
        self.solve_inner(pos, weak, cancel)
    }

    fn solve_inner(
        &mut self,
        pos: &Position,
        weak: bool,
        cancel: &AtomicBool,
    ) -> Result<i32, SolveError> {
        let g = pos.geo;
        let n = g.cells;
        let moves = pos.moves as i32;
        let sign = |s: i32| if weak { s.signum() } else { s };
        if pos.won {
            return Ok(sign(-((n + 2 - moves) / 2)));
        }
        if moves >= n {
            return Ok(0);
        }
        if g.winning_cells(pos.current, pos.mask) & g.possible(pos.mask) != 0 {
            return Ok(sign((n + 1 - moves) / 2));
        }
        if let Some(value) = self.book_value(pos, weak) {
            return Ok(value);
        }
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
        if weak {
            lo = lo.max(-1);
            hi = hi.min(1);
        }
        let stop = AtomicBool::new(false);
        let table = &self.table;
        let threads = self.threads;
        let allowed = self
            .node_limit
            .map_or(u64::MAX, |l| l.saturating_sub(self.nodes));
        // With several threads, small searches stay on this thread: spawning helpers
        // costs more than they save. Past the budget the parallel search starts over,
        // from the table this one filled.
        let budget = if self.threads <= 1 {
            allowed
        } else {
            SOLO_NODE_BUDGET.min(allowed)
        };
        let mut s = Search::new(g, table, cancel, &stop, None, 1);
        s.budget = budget;
        let r = s.solve(pos.current, pos.mask, moves, lo, hi);
        let solo_nodes = s.nodes;
        let solo_done = !s.aborted;
        let over_limit = |searched: u64| !cancel.load(Ordering::Relaxed) && searched > allowed;
        if !solo_done && over_limit(solo_nodes) {
            self.nodes += solo_nodes;
            return Err(SolveError::NodeLimit);
        }
        let (score, nodes, aborted) = if solo_done || cancel.load(Ordering::Relaxed) {
            (r, 0, !solo_done)
        } else {
            let busy: Vec<AtomicU64> = (0..BUSY_SLOTS).map(|_| AtomicU64::new(u64::MAX)).collect();
            let busy = &busy[..];
            std::thread::scope(|scope| {
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
                            // Helper i starts one window away from the main
                            // thread's first probe (+1, -1, +2, ...): the bound
                            // the main thread needs next on either outcome.
                            s.probe_offset = if i % 2 == 1 {
                                (i as i32 + 1) / 2
                            } else {
                                -(i as i32) / 2
                            };
                            s.solve(pos.current, pos.mask, moves, lo, hi);
                            s.nodes
                        })
                    })
                    .collect();
                let never = AtomicBool::new(false);
                let mut s = Search::new(g, table, cancel, &never, Some(busy), threads);
                s.budget = allowed.saturating_sub(solo_nodes);
                let r = s.solve(pos.current, pos.mask, moves, lo, hi);
                stop.store(true, Ordering::Relaxed);
                let mut nodes = s.nodes;
                for h in helpers {
                    nodes += h.join().unwrap_or(0);
                }
                (r, nodes, s.aborted)
            })
        };
        self.nodes += solo_nodes + nodes;
        if aborted && over_limit(solo_nodes + nodes) {
            return Err(SolveError::NodeLimit);
        }
        if aborted {
            return Err(SolveError::Interrupted);
        }
        Ok(sign(score))
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
        if pos.is_over() {
            return Ok(vec![None; pos.width()]);
        }
        per_column(pos, weak, |child| self.solve_inner(child, weak, cancel))
    }

    /// An optimal column for the player to move: the best exact score, ties to the
    /// column nearest the centre (the left one of two equally near). When the book
    /// holds every child's win/draw/loss value but not all exact scores, the best
    /// win/draw/loss outcome instead (never a worse outcome; among equal outcomes,
    /// centre first), without a search. Fails with [`SolveError::GameOver`] if the
    /// game is over.
    pub fn best_move(&mut self, pos: &Position, cancel: &AtomicBool) -> Result<usize, SolveError> {
        if pos.is_over() {
            return Err(SolveError::GameOver(
                "the game is over: there is no move to choose".into(),
            ));
        }
        let scores = match self.book_scores(pos) {
            Some(scores) => {
                self.nodes = 0;
                scores
            }
            None => self.analyze(pos, false, cancel)?,
        };
        let mut best: Option<(i32, usize)> = None;
        for c in centre_first(pos.width()) {
            if let Some(s) = scores[c] {
                let better = match best {
                    None => true,
                    Some((b, _)) => s > b,
                };
                if better {
                    best = Some((s, c));
                }
            }
        }
        best.map(|(_, c)| c)
            .ok_or_else(|| SolveError::GameOver("no legal move".into()))
    }

    /// Each column's value for the mover from the book alone (a winning move
    /// counts as the best value): exact scores if the book has them all, else
    /// win/draw/loss; `None` if some legal child is missing from the book.
    fn book_scores(&self, pos: &Position) -> Option<Vec<Option<i32>>> {
        self.book.as_ref()?;
        let by =
            |weak: bool| per_column(pos, weak, |child| self.book_value(child, weak).ok_or(())).ok();
        by(false).or_else(|| by(true))
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
