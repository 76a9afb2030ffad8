//! An exact solver for 2-player free-placement boards (tic-tac-toe, m,n,k games)
//! of at most 128 cells, under the freestyle rule (`k` or more in a row) or the
//! standard rule (exactly `k`; an overline is no line, for both players): one
//! word per stone set (`u64`, or `u128` past 64 cells). It can write a proof of
//! its result, which
//! [`crate::proof::check`] replays without any of its code.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use inarow::solver::free::{FreePosition, FreeSolver};
//!
//! let mut solver = FreeSolver::new(1 << 20).unwrap();
//! let cancel = AtomicBool::new(false);
//! let empty = FreePosition::new(3, 3, 3).unwrap();
//! assert_eq!(solver.solve(&empty, false, &cancel).unwrap(), 0); // tic-tac-toe is a draw
//! // X in the centre, O on an edge: X wins with its 4th stone (the 7th stone).
//! let pos = FreePosition::from_moves(3, 3, 3, &[4, 1]).unwrap();
//! assert_eq!(solver.solve(&pos, false, &cancel).unwrap(), 2);
//! ```
//!
//! # Scores
//!
//! Pascal Pons' convention, as for gravity boards: from the side to move, on a
//! board of `N = width * height` cells with `moves` stones on it, a win whose
//! winning stone is the `m+1`-th stone of the game scores `(N + 1 - m) / 2`
//! (larger = sooner), a loss the negation of the opponent's win, a draw 0. The
//! count is of stones on the board, whoever placed them, exactly as with
//! gravity: a stone that lands anywhere counts once.
//!
//! # Limits
//!
//! Two players, no gravity, `width * height <= 128` ([`MAX_FREE_CELLS`]: every
//! board up to 11x11, and 16x8, 12x10, ...), any `k >= 1`: one word per stone
//! set, a `u64` up to 64 cells (8x8), a `u128` beyond. The search is generic
//! over the word and monomorphized, so the boards of one 64-bit word keep a
//! 64-bit search (the same nodes as before the second word; by cachegrind,
//! instructions within 0.3%: BENCHMARKS.md). How long a
//! search takes grows quickly with the empty cells: every m,n,k game with m, n,
//! k <= 6 solves from the empty board in milliseconds, 7,6,5 in 5 ms, 7,7,5 (a
//! draw) in 0.4 s (0.14M nodes); larger boards may not finish
//! (`cancel`, deadlines and node limits stop them; a journal resumes a long
//! outcome search, [`FreeSolver::solve_with_journal`]: 8,8,5's draw came so),
//! and a 9x9 board is solved near its end, not from the empty board
//! (`benchmarks/free_9x9.py` records how far a search of 9,9,5 gets).
//!
//! # Techniques
//!
//! * One word per stone set (`u64` or `u128`), cell `row * width + col` at bit
//!   `row * width + col`; line tests are shift-ands kept at the starts of real
//!   lines.
//! * Negamax alpha-beta, fail-soft; null-window probes settle the sign first (0,
//!   then -1), then halve the range.
//! * An immediate win ends the node; two open threats of the opponent lose; one
//!   is the only move (a forced block).
//! * Static bounds: the earliest stone either side can still win with, from the
//!   stones each has and whether any line is still open to it (no open line for
//!   either side: a draw without a search).
//! * Pairing strategies (k >= 4): disjoint pairs of empty cells with a pair in
//!   every line still open to one side prove that side cannot win; found by a
//!   bipartite matching of two cells per group of overlapping open windows,
//!   else by a depth-first search over the pairs (at most 32 choices: the
//!   matching's greedy groups miss many pairings on 8x8, and finding them
//!   makes an 8,8,5 position of five stones 40 times faster).
//! * Dead cells (on no line either side can still make) are all one move, a pass:
//!   one of them is searched, last.
//! * A transposition table of lower and upper bounds keyed on the canonical form
//!   under the board's symmetries (8 for a square, 4 for a rectangle), kept up to
//!   date move by move; it stores the best move, searched first next time.
//! * Weak values (win, draw or loss) under the freestyle rule come from an
//!   AND/OR search with relevance zones (`zone`): whether the side to move
//!   forces a line, then whether the other side does; the attacker's moves
//!   outside the zone of the defender's proof after a pass are not searched.
//!   On 7,7,5: 89k nodes, 0.34 s (docs/solver-benchmarks.md).
//! * Pairing replies: where the defender is to move, a move of its own after
//!   which a pairing strategy holds ends the search (the zone search, negamax's
//!   bounds and the proofs).
//! * Moves ordered by the lines through them: own stones on lines the opponent
//!   has not blocked, opponent stones on lines free of own stones; ties by the
//!   history heuristic (cut-offs per side and cell, weighted by the square of the
//!   empty cells left).
//!
//! # The standard rule
//!
//! A line is a run of exactly `k` (the one-word exact test of `crate::lines`);
//! a cell wins if a stone there makes `k` or more and the set with it then holds
//! an exact `k`. Every pruning argument above stays sound: the static bounds,
//! the open lines and the pairings need only that a line fills a run of `k`
//! cells of one player (an exact line does), and an extra stone of the defender
//! never helps the attacker; a dead cell lies on no run open to either side, and
//! every run next to it holds stones of both, so a stone there changes no run's
//! overline either. Renju is refused (black's forbidden moves are not searched).
//!
//! Measured figures: docs/solver-benchmarks.md, "Free-placement solver".

mod bundle;
#[cfg(test)]
mod bundle_tests;
#[cfg(test)]
mod game_negamax;
mod geometry;
mod journal;
mod limits;
mod pairing;
#[cfg(test)]
mod pairing_tests;
mod position;
mod proof;
mod search;
#[cfg(test)]
mod shared_tests;
mod slots;
mod solver;
#[cfg(test)]
mod standard_tests;
mod table;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod wide_tests;
mod word;
mod zone;
mod zone_proof;
mod zone_table;
#[cfg(test)]
mod zone_tests;

pub use bundle::{BundleProgress, BundleSummary};
pub use geometry::MAX_FREE_CELLS;
pub use journal::{
    format_outcome, journal_header, parse_outcome, read_journal, JournalProgress,
    DEFAULT_JOURNAL_STONES,
};
pub use position::FreePosition;
pub use proof::ProofSummary;
pub use solver::{centre_first, FreeSolver};
pub use zone_table::PinnedOutcome;
