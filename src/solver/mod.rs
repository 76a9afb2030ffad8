//! An exact solver for 2-player k-in-a-row games: gravity boards (Connect Four and
//! relatives) here, free-placement boards (tic-tac-toe, m,n,k games) in [`free`];
//! [`Solver`]'s `*_game` calls take either.
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
//!
//! // The `*_game` calls take free-placement games too: tic-tac-toe is a draw, and
//! // with X on 0 and 1 against O on 3 and 4, X wins on cell 2.
//! let empty = inarow::Game::new(inarow::Rules::tic_tac_toe());
//! assert_eq!(solver.solve_game(&empty, false, &cancel).unwrap(), 0);
//! let game = inarow::Game::from_actions(inarow::Rules::tic_tac_toe(), &[0, 3, 1, 4]).unwrap();
//! assert_eq!(solver.best_move_game(&game, None, &cancel).unwrap().column, 2);
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
//! more threads: Lazy SMP sharing one table; on free-placement boards the zone
//! search of outcomes shares its tree among them, ABDADA).
//!
//! # Techniques
//!
//! One line each, with its measured effect on Pons' 7x6 sets or the empty board
//! (how each came about, and what was tried and dropped: docs/how-we-got-here.md, "Solver
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
//! Today's figures per set and for the empty board: docs/solver-benchmarks.md.

mod analysis;
mod best_move;
pub mod book;
#[cfg(test)]
mod book_probe_tests;
mod choice;
mod config;
mod deadline;
mod dispatch;
mod driver;
mod error;
pub mod free;
mod geometry;
mod jobs;
#[cfg(test)]
mod jobs_tests;
mod order;
mod plan;
mod position;
mod search;
mod solve;
mod state;
mod table;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod timed_tests;

pub use choice::{MoveValue, TimedMove};
pub use config::{
    default_threads, SolverConfig, DEFAULT_TT_BYTES, MAX_THREADS, MAX_TT_BYTES, MIN_TT_BYTES,
    SOLO_NODE_BUDGET,
};
pub use deadline::Deadline;
pub use error::SolveError;
pub use position::Position;
pub use state::Solver;
