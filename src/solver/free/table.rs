//! The free-placement transposition table: bounds of canonical positions, keyed
//! by the whole position (all stones, the side to move's stones), so a hit is
//! never a collision.

use super::super::error::SolveError;
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

impl<W: Word> Slot<W> {
    const EMPTY: Slot<W> = Slot {
        mask: W::ZERO,
        current: W::ZERO,
        data: 0,
    };
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

/// A table of `2^n` slots, replaced always. It starts small and grows (by
/// fours, keeping its entries) as the searches store more positions than it
/// has slots, up to its size: a small search never touches the memory of a
/// large table.
pub(super) struct Table<W: Word> {
    slots: Vec<Slot<W>>,
    /// Most slots the table may grow to.
    most: usize,
    /// Positions stored since the table last grew or was emptied.
    stores: usize,
}

/// Slots of a new or emptied table (1.5 MiB).
const FIRST_SLOTS: usize = 1 << 16;

impl<W: Word> Table<W> {
    /// A table of at most `bytes` (rounded down to a power of two slots, at least
    /// one). Fails with [`SolveError::OutOfMemory`] if its first slots cannot be
    /// allocated.
    pub fn new(bytes: usize) -> Result<Table<W>, SolveError> {
        let wanted = (bytes / std::mem::size_of::<Slot<W>>()).max(1);
        let most = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        Ok(Table {
            slots: zeroed(most.min(FIRST_SLOTS))?,
            most,
            stores: 0,
        })
    }

    #[inline(always)]
    fn index(&self, mask: W, current: W) -> usize {
        let h = (mask.hash_bits() ^ current.hash_bits().rotate_left(29))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> 20) as usize & (self.slots.len() - 1)
    }

    /// The bounds stored for the canonical position `(mask, current)`.
    #[inline]
    pub fn get(&self, mask: W, current: W) -> Option<Bounds> {
        let s = &self.slots[self.index(mask, current)];
        if s.data == 0 || s.mask != mask || s.current != current {
            return None;
        }
        Some(Bounds {
            lower: (s.data & 0xff) as i32 - offset::<W>(),
            upper: (s.data >> 8 & 0xff) as i32 - offset::<W>(),
            best: (s.data >> 16 & 0xff) as u8,
        })
    }

    /// Stores `bounds` for the canonical position `(mask, current)`.
    #[inline]
    pub fn put(&mut self, mask: W, current: W, bounds: Bounds) {
        self.stores += 1;
        if self.stores > self.slots.len() && self.slots.len() < self.most {
            self.grow();
        }
        let i = self.index(mask, current);
        let data = (bounds.lower + offset::<W>()) as u64
            | ((bounds.upper + offset::<W>()) as u64) << 8
            | (bounds.best as u64) << 16;
        self.slots[i] = Slot {
            mask,
            current,
            data,
        };
    }

    /// Four times the slots, the entries moved over; left as it is if the memory
    /// cannot be had.
    fn grow(&mut self) {
        let Ok(bigger) = zeroed(self.most.min(self.slots.len() * 4)) else {
            self.most = self.slots.len();
            return;
        };
        let old = std::mem::replace(&mut self.slots, bigger);
        for slot in old.into_iter().filter(|s| s.data != 0) {
            let i = self.index(slot.mask, slot.current);
            self.slots[i] = slot;
        }
        self.stores = 0;
    }

    /// Empties the table, back to its first size.
    pub fn clear(&mut self) {
        let first = self.most.min(FIRST_SLOTS);
        if self.slots.len() == first {
            self.slots.fill(Slot::EMPTY);
        } else if let Ok(fresh) = zeroed(first) {
            self.slots = fresh;
        } else {
            self.slots.fill(Slot::EMPTY);
        }
        self.stores = 0;
    }

    /// The most memory the table may take, in bytes.
    pub fn bytes(&self) -> usize {
        self.most * std::mem::size_of::<Slot<W>>()
    }
}

/// `len` empty slots, or [`SolveError::OutOfMemory`].
fn zeroed<W: Word>(len: usize) -> Result<Vec<Slot<W>>, SolveError> {
    let mut slots = Vec::new();
    slots.try_reserve_exact(len).map_err(|e| {
        SolveError::OutOfMemory(format!("free-placement table of {len} slots: {e}"))
    })?;
    slots.resize(len, Slot::EMPTY);
    Ok(slots)
}
