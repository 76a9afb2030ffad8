//! The free-placement transposition table: bounds of canonical positions, keyed
//! by the whole position (all stones, the side to move's stones), so a hit is
//! never a collision.

use super::super::error::SolveError;

/// One slot: `[mask, current, data]`; `data` packs the lower bound (+ `OFFSET`,
/// 0 for an empty slot) in bits 0..8, the upper bound (+ `OFFSET`) in bits 8..16
/// and the best move (a canonical cell) in bits 16..24.
type Slot = [u64; 3];

/// Added to scores (at least -33 on 64 cells) so that a stored bound is never 0.
const OFFSET: i32 = 64;

/// What the table knows of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Bounds {
    pub lower: i32,
    pub upper: i32,
    /// The best move found, as a cell of the canonical position.
    pub best: u8,
}

/// A table of `2^n` slots, replaced always.
pub(super) struct Table {
    slots: Vec<Slot>,
}

impl Table {
    /// A table of at most `bytes` (rounded down to a power of two slots, at least
    /// one). Fails with [`SolveError::OutOfMemory`] if it cannot be allocated.
    pub fn new(bytes: usize) -> Result<Table, SolveError> {
        let wanted = (bytes / std::mem::size_of::<Slot>()).max(1);
        let len = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        let mut slots = Vec::new();
        slots.try_reserve_exact(len).map_err(|e| {
            SolveError::OutOfMemory(format!("free-placement table of {len} slots: {e}"))
        })?;
        // Zeroed memory: the pages are taken as the search fills them.
        slots.resize(len, [0; 3]);
        Ok(Table { slots })
    }

    #[inline(always)]
    fn index(&self, mask: u64, current: u64) -> usize {
        let h = (mask ^ current.rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> 20) as usize & (self.slots.len() - 1)
    }

    /// The bounds stored for the canonical position `(mask, current)`.
    #[inline]
    pub fn get(&self, mask: u64, current: u64) -> Option<Bounds> {
        let s = &self.slots[self.index(mask, current)];
        if s[2] == 0 || s[0] != mask || s[1] != current {
            return None;
        }
        Some(Bounds {
            lower: (s[2] & 0xff) as i32 - OFFSET,
            upper: (s[2] >> 8 & 0xff) as i32 - OFFSET,
            best: (s[2] >> 16 & 0xff) as u8,
        })
    }

    /// Stores `bounds` for the canonical position `(mask, current)`.
    #[inline]
    pub fn put(&mut self, mask: u64, current: u64, bounds: Bounds) {
        let i = self.index(mask, current);
        let data = (bounds.lower + OFFSET) as u64
            | ((bounds.upper + OFFSET) as u64) << 8
            | (bounds.best as u64) << 16;
        self.slots[i] = [mask, current, data];
    }

    /// Empties every slot.
    pub fn clear(&mut self) {
        self.slots.fill([0; 3]);
    }

    /// The table's size in bytes.
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot>()
    }
}
