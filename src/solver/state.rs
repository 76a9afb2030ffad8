//! The solver itself: the table, threads, limits and book every call shares,
//! and the calls that set or read them.

use std::sync::Arc;

use super::book::Book;
use super::config::{SolverConfig, MAX_THREADS, MAX_TT_BYTES, MIN_TT_BYTES};
use super::error::SolveError;
use super::free::FreeSolver;
use super::geometry::Geometry;
use super::position::Position;
use super::table::Table;

/// The solver: owns the transposition table. `Send + Sync`.
pub struct Solver {
    pub(super) table: Table,
    pub(super) threads: usize,
    pub(super) nodes: u64,
    /// Most nodes a call may search before failing with [`SolveError::NodeLimit`].
    pub(super) node_limit: Option<u64>,
    /// The geometry the table's entries belong to (keys of other shapes would clash).
    pub(super) geometry: Option<Geometry>,
    /// Solved positions answered without a search, and probed inside it.
    pub(super) book: Option<Arc<Book>>,
    /// Search nodes the book bounded in the last call.
    pub(super) book_hits: u64,
    /// The solver of free-placement games, made on their first call.
    pub(super) free: Option<FreeSolver>,
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
            free: None,
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
    pub(super) fn book_value(&self, pos: &Position, weak: bool) -> Option<i32> {
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
        if let Some(free) = self.free.as_mut() {
            free.clear();
        }
    }

    /// The table size in bytes.
    pub fn tt_bytes(&self) -> usize {
        self.table.bytes()
    }
}
