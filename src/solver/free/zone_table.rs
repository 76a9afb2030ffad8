//! The table of the zone search: per canonical position and side to move,
//! whether the attacker forces a line, and if not, the relevance zone of the
//! defender's proof (as cells of the canonical position). Keyed by the whole
//! position, so a hit is never a collision; replaced always.

use super::super::error::SolveError;
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

impl<W: Word> Slot<W> {
    const EMPTY: Slot<W> = Slot {
        attacker: W::ZERO,
        defender: W::ZERO,
        zone: W::ZERO,
        data: 0,
    };
}

/// What the table knows of a position: `None` zone for an attacker's win.
pub(super) type Known<W> = Option<W>;

/// A table of `2^n` slots that starts small and grows by fours (keeping its
/// entries) up to its size, as the search stores more positions than it has
/// slots.
pub(super) struct ZoneTable<W: Word> {
    slots: Vec<Slot<W>>,
    most: usize,
    stores: usize,
}

/// Slots of a new or emptied table.
const FIRST_SLOTS: usize = 1 << 16;

impl<W: Word> ZoneTable<W> {
    /// A table of at most `bytes` (a power of two slots, at least one); fails
    /// with [`SolveError::OutOfMemory`] if its first slots cannot be had.
    pub fn new(bytes: usize) -> Result<ZoneTable<W>, SolveError> {
        let wanted = (bytes / std::mem::size_of::<Slot<W>>()).max(1);
        let most = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        Ok(ZoneTable {
            slots: zeroed(most.min(FIRST_SLOTS))?,
            most,
            stores: 0,
        })
    }

    #[inline(always)]
    fn index(&self, attacker: W, defender: W, defender_to_move: bool) -> usize {
        let h = (attacker.hash_bits() ^ defender.hash_bits().rotate_left(29))
            .wrapping_add(defender_to_move as u64)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> 20) as usize & (self.slots.len() - 1)
    }

    /// The outcome stored for the canonical position: `Some(None)` the attacker
    /// wins, `Some(Some(zone))` the defender holds.
    #[inline]
    pub fn get(&self, attacker: W, defender: W, defender_to_move: bool) -> Option<Known<W>> {
        let s = &self.slots[self.index(attacker, defender, defender_to_move)];
        let turn = if defender_to_move { 2 } else { 0 };
        if s.data & 1 == 0 || s.data & 2 != turn || s.attacker != attacker || s.defender != defender
        {
            return None;
        }
        Some((s.data & 4 != 0).then_some(s.zone))
    }

    /// Stores the outcome of the canonical position.
    #[inline]
    pub fn put(&mut self, attacker: W, defender: W, defender_to_move: bool, known: Known<W>) {
        self.stores += 1;
        if self.stores > self.slots.len() && self.slots.len() < self.most {
            self.grow();
        }
        let i = self.index(attacker, defender, defender_to_move);
        self.slots[i] = Slot {
            attacker,
            defender,
            zone: known.unwrap_or(W::ZERO),
            data: 1 | (defender_to_move as u8) << 1 | (known.is_some() as u8) << 2,
        };
    }

    /// Four times the slots, the entries moved over; left as it is if the
    /// memory cannot be had.
    fn grow(&mut self) {
        let Ok(bigger) = zeroed(self.most.min(self.slots.len() * 4)) else {
            self.most = self.slots.len();
            return;
        };
        let old = std::mem::replace(&mut self.slots, bigger);
        for slot in old.into_iter().filter(|s| s.data != 0) {
            let i = self.index(slot.attacker, slot.defender, slot.data & 2 != 0);
            self.slots[i] = slot;
        }
        self.stores = 0;
    }

    /// Empties the table, back to its first size.
    pub fn clear(&mut self) {
        let first = self.most.min(FIRST_SLOTS);
        match zeroed(first) {
            Ok(fresh) if self.slots.len() != first => self.slots = fresh,
            _ => self.slots.fill(Slot::EMPTY),
        }
        self.stores = 0;
    }
}

/// `len` empty slots, or [`SolveError::OutOfMemory`].
fn zeroed<W: Word>(len: usize) -> Result<Vec<Slot<W>>, SolveError> {
    let mut slots = Vec::new();
    slots
        .try_reserve_exact(len)
        .map_err(|e| SolveError::OutOfMemory(format!("zone table of {len} slots: {e}")))?;
    slots.resize(len, Slot::EMPTY);
    Ok(slots)
}
