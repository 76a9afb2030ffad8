//! The one error type of the solver.

use std::fmt;

/// Everything that can go wrong when building a position or a solver, or while solving.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// The board geometry or line length is outside what the solver handles
    /// (`width * (height + 1) > 64`, a zero dimension, `k == 0`).
    Unsupported(String),
    /// The transposition table could not be allocated.
    OutOfMemory(String),
    /// A bad argument: a configuration outside its limits, an illegal move, or an
    /// inconsistent position description (cells, move list, Pons string).
    InvalidConfig(String),
    /// The caller raised the cancel flag; the search stopped early.
    Interrupted,
    /// The call reached the limit set by `Solver::set_node_limit`.
    NodeLimit,
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::Unsupported(m) => write!(f, "unsupported: {m}"),
            SolveError::OutOfMemory(m) => write!(f, "out of memory: {m}"),
            SolveError::InvalidConfig(m) => write!(f, "invalid: {m}"),
            SolveError::Interrupted => write!(f, "search interrupted"),
            SolveError::NodeLimit => write!(f, "search stopped at its node limit"),
        }
    }
}

impl std::error::Error for SolveError {}
