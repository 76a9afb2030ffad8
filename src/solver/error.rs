//! The solver's errors: one variant per failure.

use std::fmt;

/// Everything that can go wrong when building a position or a solver, or while solving.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// A solver configuration outside its limits (table size, threads).
    InvalidConfig(String),
    /// A move that cannot be played: a column out of range or full, or a bad
    /// character in a Pons move string.
    IllegalMove(String),
    /// A position description that no game reaches (cells: values, floating
    /// stones, stone counts, lines).
    InvalidPosition(String),
    /// The game is over: no move to play or to choose.
    GameOver(String),
    /// Rules the solver does not handle: not 2 players with gravity, a board with
    /// `width * (height + 1) > 64`, a zero dimension, `k == 0`.
    Unsupported(String),
    /// The transposition table could not be allocated.
    OutOfMemory(String),
    /// The caller raised the cancel flag; the search stopped early.
    Interrupted,
    /// The call reached the limit set by `Solver::set_node_limit`.
    NodeLimit,
    /// A file the call reads or writes (a solve's journal) failed.
    Io(String),
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::InvalidConfig(m) => write!(f, "invalid configuration: {m}"),
            SolveError::IllegalMove(m) => write!(f, "illegal move: {m}"),
            SolveError::InvalidPosition(m) => write!(f, "invalid position: {m}"),
            SolveError::GameOver(m) => f.write_str(m),
            SolveError::Unsupported(m) => write!(f, "unsupported: {m}"),
            SolveError::OutOfMemory(m) => write!(f, "out of memory: {m}"),
            SolveError::Interrupted => write!(f, "search interrupted"),
            SolveError::NodeLimit => write!(f, "search stopped at its node limit"),
            SolveError::Io(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for SolveError {}
