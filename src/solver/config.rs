//! How to build a solver: its configuration, the limits it accepts, and the
//! thread tuning every search shares.

/// Smallest accepted table size.
pub const MIN_TT_BYTES: usize = 1 << 10;
/// Largest accepted table size.
pub const MAX_TT_BYTES: usize = 16 << 30;
/// Default table size (rounded down to a power of two, like every size): on the
/// empty 7x6 board it beat both 64 MiB and 1 GiB on this project's 2-core machine
/// (see BENCHMARKS.md).
pub const DEFAULT_TT_BYTES: usize = 256 << 20;
/// With several threads, searches first run on one thread for this many nodes
/// (about 2 ms).
pub const SOLO_NODE_BUDGET: u64 = 1 << 14;
/// Most threads accepted.
pub const MAX_THREADS: usize = 64;

/// How to build a [`Solver`](super::Solver).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolverConfig {
    /// Transposition table size in bytes ([`MIN_TT_BYTES`]..=[`MAX_TT_BYTES`]).
    pub tt_bytes: usize,
    /// Search threads (1..=[`MAX_THREADS`]); above 1, Lazy SMP on a shared table.
    pub threads: usize,
}

/// One search thread per core, up to [`MAX_THREADS`].
pub fn default_threads() -> usize {
    crate::threads::cores().min(MAX_THREADS)
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
