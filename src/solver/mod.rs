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
//! [`SolveError::InvalidConfig`].
//!
//! # Limits
//!
//! Boards with `width * (height + 1) <= 64` (7x6, 8x7, 9x5, 6x9, 4x12, ...), any
//! `k >= 1` (`k = 4` has a specialised fast path). Table size: 1 KiB ..= 16 GiB
//! (default 64 MiB), threads 1 ..= 64 (default 1; more threads = Lazy SMP sharing
//! one table).
//!
//! # Techniques (and what each paid, measured on Pons' 7x6 sets)
//!
//! * Two bitboards per position (mover's stones and all stones, a spare bit per
//!   column); `current + mask` keys, canonicalised under mirror symmetry at every
//!   depth (empty board -4% nodes, -5% time; on the old baseline-only build it
//!   paid only below 20 stones); symmetric positions search only half of the
//!   columns.
//! * Dead stones folded into the key (c4's idea, our own rule, proven in
//!   `geometry::Geometry::dead_stones` and tested against brute force): a stone
//!   whose colour can no longer matter counts as the mover's, so positions that
//!   differ only there share an entry. Only where no parent computes the key
//!   for its enhanced transposition cutoffs (fewer than 12 empty cells): empty
//!   board -9% nodes, -2.5% time; from 12 stones on it saved 12% of the nodes on
//!   the empty board but cost 6% more time there and 20% on Begin-Hard.
//! * Null-window negamax probes bisecting the score (Pons); with at most one stone
//!   on the board the probes start at 0 and walk outwards (on the empty board this
//!   skips Pons' probes at 2 and -1, about 100M of 360M nodes in a traced run).
//! * Moves that lose at once are never searched; a move after which the opponent has
//!   no safe reply is a win found without a node; after that check the upper bound
//!   drops to "no win within three plies".
//! * Move ordering by useful threats (c4: threats above an opponent threat do not
//!   count, threats right above a playable cell count most), a point more for a
//!   move that threatens to win at once, table move first, centre first on ties:
//!   -10% nodes against Pons' plain threat count, then -5% from dropping c4's
//!   "two cells up" term and -2% from the immediate-threat point. (Tried and
//!   dropped: a history heuristic, static line-count weights, a bonus for threats
//!   on the rows Allis' parity favours, a centre weight: no gain or worse.)
//! * Static claimeven bounds (Allis) at every node: the opponent answering each
//!   move in the same column, and pairing the next free cells of the columns with
//!   an odd number of empty cells, limits the mover to known cells; if they hold no
//!   line the mover cannot win (and loses if the opponent's cells hold one); with
//!   an odd number of such columns the mover plays one first and claims even
//!   himself (lower bounds). Empty board 393M -> 232M nodes (only the cases of
//!   zero or one odd column: 301M), Begin-Hard 18.7M -> 14.6M, Middle-Medium
//!   24.2k -> 19.6k; about 6% more time per node.
//! * Static zugzwang bounds (Allis' odd threat), same framework: with one odd
//!   column left and a threat of the opponent in it at a cell of the rows the
//!   answering player gets there, the opponent answers in the same column until
//!   the mover must play under the threat; if the mover's reachable cells hold no
//!   line, he loses. From the other side the mover first drops on a head so as to
//!   leave that situation (lower bound +1). Empty board 232M -> 215M nodes (losing
//!   side only) -> 200M (both), 32 s -> 30.6 s.
//!   (Tried: restricting it to at most 30 empty cells: more nodes; a 4 GiB table
//!   instead of 1 GiB: the same nodes.)
//! * Transposition table of lower *and* upper bounds, two-entry buckets keeping the
//!   costlier entry, lock-free (key xor data). Only a growing prefix of the table is
//!   used after a clear (256 KiB, doubling as it fills): small searches stay in
//!   cache (Middle-Medium 4.7 -> 3.1 ms); huge pages on Linux.
//! * Enhanced transposition cutoffs (children probed, prefetched during move
//!   generation) with more than 12 empty cells: -25% nodes on Begin-Medium.
//! * A node with a single legal-and-safe move skips the table (+6% nodes, -15% time).
//! * The search is compiled twice, for x86-64-v3 CPUs (popcnt, BMI, AVX2) and
//!   for the x86-64 baseline the wheels target, and the CPU picks at run time:
//!   -10% time (a popcount is a dozen instructions on the baseline).
//! * Threads > 1: Lazy SMP on the shared table with ABDADA-style deferral of
//!   children another thread is searching (Begin-Hard 2.1 s -> 1.5 s on 2 cores);
//!   searches under 65k nodes stay on one thread. Helper threads start one probe
//!   window away from the main thread (+1, -1, +2, ...): the bound the main thread
//!   needs next on either outcome is then being proved in parallel (empty board, 2
//!   threads: 23.6 s -> 16-18 s, run-to-run spread; the helper proves
//!   `score <= 1` while the main thread proves `score >= 1`).
//!
//! Empty 7x6 board, 256 MiB table, no book (2026-11-21, 2 cores): see
//! BENCHMARKS.md; 160M nodes / 22.6 s on 1 thread, 11.4-13.0 s on 2 threads
//! (median of six runs 11.7 s; target 15 s). Prefetching the entries before the
//! static bounds took the median from 14.05 s to that. The table size matters on
//! this machine: 1 GiB searches as many nodes but waits longer on memory (17 s
//! against 13 s on 2 threads, before the prefetch changes).

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

pub use error::SolveError;
pub use position::Position;

use geometry::Geometry;
use search::Search;
use table::Table;

/// Smallest accepted table size.
pub const MIN_TT_BYTES: usize = 1 << 10;
/// Largest accepted table size.
pub const MAX_TT_BYTES: usize = 16 << 30;
/// Default table size (rounded down to a power of two, like every size).
pub const DEFAULT_TT_BYTES: usize = 64 << 20;
/// Slots of the shared "being searched" table used with several threads.
const BUSY_SLOTS: usize = 1 << 14;
/// With several threads, searches first run on one thread for this many nodes.
const SOLO_NODE_BUDGET: u64 = 1 << 16;
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

impl Default for SolverConfig {
    /// 64 MiB table, one thread.
    fn default() -> Self {
        SolverConfig {
            tt_bytes: DEFAULT_TT_BYTES,
            threads: 1,
        }
    }
}

/// The solver: owns the transposition table. `Send + Sync`.
pub struct Solver {
    table: Table,
    threads: usize,
    nodes: u64,
    /// The geometry the table's entries belong to (keys of other shapes would clash).
    geometry: Option<Geometry>,
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
            geometry: None,
        })
    }

    /// Nodes (negamax calls, all threads) searched by the last `solve`, `analyze` or
    /// `best_move`.
    pub fn nodes(&self) -> u64 {
        self.nodes
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
        let empty = g.board & !pos.mask;
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
        // With several threads, small searches stay on this thread: spawning helpers
        // costs more than they save. Past the budget the parallel search starts over,
        // from the table this one filled.
        let budget = if self.threads <= 1 {
            u64::MAX
        } else {
            SOLO_NODE_BUDGET
        };
        let mut s = Search::new(g, table, cancel, &stop, None, 1);
        s.budget = budget;
        let r = s.solve(pos.current, pos.mask, moves, lo, hi);
        let solo_nodes = s.nodes;
        let solo_done = !s.aborted;
        let (score, nodes, aborted) = if solo_done || cancel.load(Ordering::Relaxed) {
            (r, 0, !solo_done)
        } else {
            let busy: Vec<AtomicU64> = (0..BUSY_SLOTS).map(|_| AtomicU64::new(u64::MAX)).collect();
            let busy = &busy[..];
            std::thread::scope(|scope| {
                let stop = &stop;
                let helpers: Vec<_> = (1..self.threads)
                    .map(|i| {
                        scope.spawn(move || {
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
        let w = pos.width();
        let mut out = vec![None; w];
        if pos.is_over() {
            return Ok(out);
        }
        let n = pos.geo.cells;
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
            *slot = Some(-self.solve_inner(&child, weak, cancel)?);
        }
        Ok(out)
    }

    /// An optimal column for the player to move; ties go to the column nearest the
    /// centre (the left one of two equally near). Fails with
    /// [`SolveError::InvalidConfig`] if the game is over.
    pub fn best_move(&mut self, pos: &Position, cancel: &AtomicBool) -> Result<usize, SolveError> {
        if pos.is_over() {
            return Err(SolveError::InvalidConfig(
                "the game is over: no move to choose".into(),
            ));
        }
        let scores = self.analyze(pos, false, cancel)?;
        let w = pos.width() as i32;
        let mut best: Option<(i32, usize)> = None;
        let mut cols: Vec<usize> = (0..pos.width()).collect();
        cols.sort_by_key(|&c| ((2 * c as i32 - (w - 1)).abs(), c));
        for c in cols {
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
            .ok_or_else(|| SolveError::InvalidConfig("no legal move".into()))
    }
}
