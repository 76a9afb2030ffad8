//! The table of the zone search: per canonical position and side to move,
//! whether the attacker forces a line, and if not, the relevance zone of the
//! defender's proof (as cells of the canonical position). Keyed by the whole
//! position, so a hit is never a collision; replaced always.

use super::super::error::SolveError;
use super::slots::{self, Slots};
use super::word::Word;

/// One slot: the attacker's and the defender's stones, the zone, and `data`:
/// bit 0 set for a used slot, bit 1 the defender to move, bit 2 the defender
/// holds (else the attacker wins).
#[derive(Clone, Copy)]
struct Slot<W: Word> {
    attacker: W,
    defender: W,
    zone: W,
    data: u8,
}

/// What the table knows of a position: `None` zone for an attacker's win.
pub(super) type Known<W> = Option<W>;

/// The hash that places a canonical position and side to move.
#[inline(always)]
fn hash<W: Word>(attacker: W, defender: W, defender_to_move: bool) -> u64 {
    (attacker.hash_bits() ^ defender.hash_bits().rotate_left(29))
        .wrapping_add(defender_to_move as u64)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

impl<W: Word> slots::Slot for Slot<W> {
    const EMPTY: Slot<W> = Slot {
        attacker: W::ZERO,
        defender: W::ZERO,
        zone: W::ZERO,
        data: 0,
    };

    fn is_used(&self) -> bool {
        self.data & 1 != 0
    }

    fn hash(&self) -> u64 {
        hash(self.attacker, self.defender, self.data & 2 != 0)
    }
}

/// The zone search's table (see the module docs).
pub(super) struct ZoneTable<W: Word> {
    slots: Slots<Slot<W>>,
}

impl<W: Word> ZoneTable<W> {
    /// A table of at most `bytes` (a power of two slots, at least one); fails
    /// with [`SolveError::OutOfMemory`] if its first slots cannot be had.
    pub fn new(bytes: usize) -> Result<ZoneTable<W>, SolveError> {
        Ok(ZoneTable {
            slots: Slots::new(bytes, "zone table")?,
        })
    }

    /// The outcome stored for the canonical position: `Some(None)` the attacker
    /// wins, `Some(Some(zone))` the defender holds.
    #[inline]
    pub fn get(&self, attacker: W, defender: W, defender_to_move: bool) -> Option<Known<W>> {
        let s = self.slots.get(hash(attacker, defender, defender_to_move));
        let turn = if defender_to_move { 2 } else { 0 };
        if s.data & 1 == 0 || s.data & 2 != turn || s.attacker != attacker || s.defender != defender
        {
            return None;
        }
        Some((s.data & 4 != 0).then_some(s.zone))
    }

    /// Starts loading the slot of the canonical position into the cache.
    #[inline(always)]
    pub fn prefetch(&self, attacker: W, defender: W, defender_to_move: bool) {
        self.slots
            .prefetch(hash(attacker, defender, defender_to_move));
    }

    /// Stores the outcome of the canonical position.
    #[inline]
    pub fn put(&mut self, attacker: W, defender: W, defender_to_move: bool, known: Known<W>) {
        self.slots.put(
            hash(attacker, defender, defender_to_move),
            Slot {
                attacker,
                defender,
                zone: known.unwrap_or(W::ZERO),
                data: 1 | (defender_to_move as u8) << 1 | (known.is_some() as u8) << 2,
            },
        );
    }

    /// Empties the table, back to its first size.
    pub fn clear(&mut self) {
        self.slots.clear();
    }
}
