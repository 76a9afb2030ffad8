//! The opening book: solved values of every position up to some ply, stored without
//! keys.
//!
//! Each level (one ply) is an array indexed by the position's slot
//! ([`SlotIndex`]: column heights and stone colours numbered densely), with a
//! small code per slot: win/draw/loss in 2 bits or the exact score in a byte
//! ([`Kind`]); code 0 means no entry (a finished game, a board no game reaches).
//! Levels are built with both a position and its mirror image filled (the
//! generator solves one of each pair) and stored folded ([`Fold`]): a board whose
//! column heights read left to right exceed its mirror image's is looked up as
//! that image, so a lookup is one or two slot computations and one read.
//!
//! Levels below the deepest solved one follow from it by minimax (no search), see
//! [`back_up`]. The file format is in [`format`](self#format) below: a versioned
//! header naming the board, a directory of levels and a CRC-64 over everything;
//! [`Book::from_bytes`] checks all of it and refuses corrupt, truncated or foreign
//! data with a [`BookError`], never a panic.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use inarow::solver::book::{self, Book, Kind, SlotIndex};
//! use inarow::solver::{Position, Solver, SolverConfig};
//!
//! // A complete two-level book for 4x4 Connect Four, solved by brute force.
//! let empty = Position::new(4, 4, 4).unwrap();
//! let index = SlotIndex::for_position(&empty);
//! let levels = book::reachable(&index, 2).unwrap();
//! let mut solver = Solver::new(SolverConfig::default()).unwrap();
//! let cancel = AtomicBool::new(false);
//! let deepest = book::fill_level(&index, Kind::Exact, 2, &levels[2], |pos| {
//!     solver.solve(pos, false, &cancel).unwrap()
//! })
//! .unwrap();
//! let all = book::back_up_all(&index, &levels, deepest).unwrap();
//! let bytes = book::encode(&index, &all).unwrap();
//! let book = Book::from_bytes(bytes).unwrap();
//! assert_eq!(book.exact(&empty), Some(0)); // 4x4 is a draw
//! ```
//!
//! # Format
//!
//! See the `format` module source: magic `INAROWBK`, version 3, width, height, k,
//! level count, payload length, CRC-64/XZ, then per level its ply, kind and slot
//! count, then the packed levels. The book ships in a zstd frame ([`compress`]),
//! which [`Book::from_bytes`] and [`Book::open`] decode.

mod build;
mod container;
mod crc;
mod format;
mod index;

use std::borrow::Cow;
use std::fmt;
use std::path::Path;

pub use build::{back_up, back_up_all, fill_level, immediate_score, reachable};
pub use container::{compress, MAX_BOOK_BYTES};
pub use crc::crc64;
pub use format::{Kind, LevelCodes};
pub use index::{Fold, SlotIndex};

use super::position::Position;
use format::LevelEntry;

/// Why a book could not be read or written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// The file could not be read.
    Io(String),
    /// The data is not a valid book: bad magic, truncated, checksum mismatch,
    /// inconsistent directory, out-of-range value.
    Corrupt(String),
    /// A valid book this build cannot use (a newer format version, a board the
    /// solver does not take).
    Unsupported(String),
    /// Bad input to a builder function (levels out of order, wrong code count,
    /// a position missing from a deeper level).
    Invalid(String),
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Io(m) => write!(f, "cannot read the book: {m}"),
            BookError::Corrupt(m) => write!(f, "corrupt book: {m}"),
            BookError::Unsupported(m) => write!(f, "unsupported book: {m}"),
            BookError::Invalid(m) => write!(f, "invalid book data: {m}"),
        }
    }
}

impl std::error::Error for BookError {}

/// One level of a loaded book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelInfo {
    /// Stones on the board.
    pub ply: usize,
    /// What each slot holds.
    pub kind: Kind,
    /// Slots stored (boards of this many stones, reachable or not, folded by
    /// mirror symmetry).
    pub slots: u64,
}

/// A validated book over its bytes (borrowed for `'static` data, or owned).
pub struct Book {
    data: Cow<'static, [u8]>,
    index: SlotIndex,
    levels: Vec<LevelEntry>,
    /// For each ply, the level holding it.
    by_ply: Vec<Option<usize>>,
}

impl fmt::Debug for Book {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Book")
            .field("width", &self.index.width())
            .field("height", &self.index.height())
            .field("k", &self.index.k())
            .field("levels", &self.levels())
            .field("bytes", &self.data.len())
            .finish()
    }
}

impl Book {
    /// Checks `data` (header, directory, sizes, checksum, exact scores in range)
    /// and wraps it; O(size) once, lookups are O(1) after that. `data` is a book
    /// file or one in its compressed container ([`compress`]), decoded here.
    pub fn from_bytes(data: impl Into<Cow<'static, [u8]>>) -> Result<Book, BookError> {
        let mut data = data.into();
        if container::is_compressed(&data) {
            data = Cow::Owned(container::decompress(&data)?);
        }
        let (index, levels) = format::parse(&data)?;
        let mut by_ply = vec![None; index.width() * index.height() + 1];
        for (i, level) in levels.iter().enumerate() {
            if let Some(slot) = by_ply.get_mut(level.ply) {
                *slot = Some(i);
            }
        }
        Ok(Book {
            data,
            index,
            levels,
            by_ply,
        })
    }

    /// Reads and checks the book file at `path`.
    pub fn open(path: impl AsRef<Path>) -> Result<Book, BookError> {
        let path = path.as_ref();
        let data =
            std::fs::read(path).map_err(|e| BookError::Io(format!("{}: {e}", path.display())))?;
        Book::from_bytes(data)
    }

    /// The board width, height and line length the book is for.
    pub fn rules(&self) -> (usize, usize, usize) {
        (self.index.width(), self.index.height(), self.index.k())
    }

    /// The levels, by increasing ply.
    pub fn levels(&self) -> Vec<LevelInfo> {
        self.levels
            .iter()
            .map(|l| LevelInfo {
                ply: l.ply,
                kind: l.kind,
                slots: l.slots,
            })
            .collect()
    }

    /// The deepest ply the book holds.
    pub fn depth(&self) -> usize {
        self.levels.last().map_or(0, |l| l.ply)
    }

    /// Size of the book's data in bytes.
    pub fn bytes(&self) -> usize {
        self.data.len()
    }

    /// The level of `ply` unpacked (one code per slot), if the book has it.
    pub fn level_codes(&self, ply: usize) -> Option<LevelCodes> {
        let level = &self.levels[(*self.by_ply.get(ply)?)?];
        let slots = self.index.slots(ply)?;
        let codes = (0..slots)
            .map(|i| {
                let folded = self.index.folded_slot_of(&level.fold, i)?;
                Some(format::read_code(
                    &self.data,
                    level.start,
                    level.kind,
                    folded,
                ))
            })
            .collect::<Option<Vec<u8>>>()?;
        Some(LevelCodes {
            ply,
            kind: level.kind,
            codes,
        })
    }

    /// The raw code and kind of `pos`'s slot, if a level holds its ply and the
    /// rules match.
    fn code(&self, pos: &Position) -> Option<(u8, Kind)> {
        if !self.index.matches(pos) || pos.is_over() {
            return None;
        }
        let level = &self.levels[(*self.by_ply.get(pos.moves())?)?];
        let slot = self.index.folded_slot(&level.fold, pos);
        let code = format::read_code(&self.data, level.start, level.kind, slot);
        Some((code, level.kind))
    }

    /// Win (1), draw (0) or loss (-1) for the player to move, as
    /// `Solver::solve(pos, weak = true)` returns it; `None` if the book does not
    /// hold the position (other rules, a ply without a level, a finished game, a
    /// board no game reaches).
    pub fn weak(&self, pos: &Position) -> Option<i32> {
        let (code, kind) = self.code(pos)?;
        kind.score(code).map(i32::signum)
    }

    /// A lower bound on `pos`'s win/draw/loss value (for the player to move) from
    /// the positions one stone earlier that the book holds: each parent's player to
    /// move could have played into `pos`, so `pos` scores at least the negated value
    /// of every parent (a parent that loses makes `pos` a win). `None` if the book
    /// holds no parent (other rules, no level one ply earlier, a finished game).
    pub fn floor_from_parents(&self, pos: &Position) -> Option<i32> {
        if pos.moves() == 0 || pos.is_over() || !self.index.matches(pos) {
            return None;
        }
        let ply = pos.moves() - 1;
        self.by_ply.get(ply).copied().flatten()?;
        pos.parents()
            .filter_map(|parent| self.weak(&parent))
            .map(|v| -v)
            .max()
    }

    /// The exact score (Pons' convention, as `Solver::solve(pos, weak = false)`),
    /// if the position's level stores exact scores and holds it.
    pub fn exact(&self, pos: &Position) -> Option<i32> {
        match self.code(pos)? {
            (code, Kind::Exact) => Kind::Exact.score(code),
            _ => None,
        }
    }
}

/// The book file for `levels` (plies increasing, one code per slot each) of
/// boards shaped like `index`.
pub fn encode(index: &SlotIndex, levels: &[LevelCodes]) -> Result<Vec<u8>, BookError> {
    format::encode(index, levels)
}

#[cfg(test)]
mod tests;
