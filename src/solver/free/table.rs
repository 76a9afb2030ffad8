//! The free-placement transposition table: bounds of canonical positions, keyed
//! by the whole position (all stones, the side to move's stones), so a hit is
//! never a collision.

use super::super::error::SolveError;
use super::slots::{self as table_slot, Slots};
use super::word::Word;

/// One slot: the position and `data`, which packs the lower bound (+ the
/// offset, 0 for an empty slot) in bits 0..8, the upper bound (+ the offset) in
/// bits 8..16 and the best move (a canonical cell) in bits 16..24.
#[derive(Clone, Copy)]
struct Slot<W: Word> {
    mask: W,
    current: W,
    data: u64,
}

/// Added to scores so that a stored bound is never 0 and fits 8 bits: the
/// word's bits (scores lie within -(N + 1) / 2..=(N + 1) / 2 on `N` cells).
const fn offset<W: Word>() -> i32 {
    W::BITS as i32
}

/// What the table knows of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Bounds {
    pub lower: i32,
    pub upper: i32,
    /// The best move found, as a cell of the canonical position.
    pub best: u8,
}

/// The table of bounds (see the module docs).
pub(super) struct Table<W: Word> {
    slots: Slots<Slot<W>>,
}

/// The hash that places the canonical position `(mask, current)`.
#[inline(always)]
fn hash<W: Word>(mask: W, current: W) -> u64 {
    (mask.hash_bits() ^ current.hash_bits().rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

impl<W: Word> table_slot::Slot for Slot<W> {
    const EMPTY: Slot<W> = Slot {
        mask: W::ZERO,
        current: W::ZERO,
        data: 0,
    };

    fn is_used(&self) -> bool {
        self.data != 0
    }

    fn hash(&self) -> u64 {
        hash(self.mask, self.current)
    }
}

impl<W: Word> Table<W> {
    /// A table of at most `bytes` (rounded down to a power of two slots, at least
    /// one). Fails with [`SolveError::OutOfMemory`] if its first slots cannot be
    /// allocated.
    pub fn new(bytes: usize) -> Result<Table<W>, SolveError> {
        Ok(Table {
            slots: Slots::new(bytes, "free-placement table")?,
        })
    }

    /// The bounds stored for the canonical position `(mask, current)`.
    #[inline]
    pub fn get(&self, mask: W, current: W) -> Option<Bounds> {
        let s = self.slots.get(hash(mask, current));
        if s.data == 0 || s.mask != mask || s.current != current {
            return None;
        }
        Some(Bounds {
            lower: (s.data & 0xff) as i32 - offset::<W>(),
            upper: (s.data >> 8 & 0xff) as i32 - offset::<W>(),
            best: (s.data >> 16 & 0xff) as u8,
        })
    }

    /// Starts loading the slot of the canonical position into the cache.
    #[inline(always)]
    pub fn prefetch(&self, mask: W, current: W) {
        self.slots.prefetch(hash(mask, current));
    }

    /// Stores `bounds` for the canonical position `(mask, current)`.
    #[inline]
    pub fn put(&mut self, mask: W, current: W, bounds: Bounds) {
        let data = (bounds.lower + offset::<W>()) as u64
            | ((bounds.upper + offset::<W>()) as u64) << 8
            | (bounds.best as u64) << 16;
        self.slots.put(
            hash(mask, current),
            Slot {
                mask,
                current,
                data,
            },
        );
    }

    /// Empties the table, back to its first size.
    pub fn clear(&mut self) {
        self.slots.clear();
    }

    /// The most memory the table may take, in bytes.
    pub fn bytes(&self) -> usize {
        self.slots.bytes()
    }
}
