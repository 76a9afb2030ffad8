//! The slots of the free solver's tables: a power of two of them, each replaced
//! always, that start few and grow by fours (keeping their entries) as the
//! searches store more positions than there are slots, up to a size: a small
//! search never touches the memory of a large table.

use super::super::error::SolveError;

/// A table's slot: its key's hash places it.
pub(super) trait Slot: Copy {
    const EMPTY: Self;
    fn is_used(&self) -> bool;
    /// The hash of the slot's key (the same as the one it was stored with).
    fn hash(&self) -> u64;
}

/// Slots of a new or emptied table.
const FIRST_SLOTS: usize = 1 << 16;

pub(super) struct Slots<S: Slot> {
    slots: Vec<S>,
    /// Most slots the table may grow to.
    most: usize,
    /// Positions stored since the table last grew or was emptied.
    stores: usize,
}

impl<S: Slot> Slots<S> {
    /// At most `bytes` of slots (a power of two of them, at least one); fails
    /// with [`SolveError::OutOfMemory`] naming `what` if the first cannot be had.
    pub fn new(bytes: usize, what: &str) -> Result<Slots<S>, SolveError> {
        let wanted = (bytes / std::mem::size_of::<S>()).max(1);
        let most = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        Ok(Slots {
            slots: zeroed(most.min(FIRST_SLOTS), what)?,
            most,
            stores: 0,
        })
    }

    #[inline(always)]
    fn index(&self, hash: u64) -> usize {
        (hash >> 20) as usize & (self.slots.len() - 1)
    }

    /// The slot of `hash`.
    #[inline]
    pub fn get(&self, hash: u64) -> &S {
        &self.slots[self.index(hash)]
    }

    /// Starts loading the slot of `hash` into the cache, for a `get` soon after.
    #[inline(always)]
    pub fn prefetch(&self, hash: u64) {
        crate::memory::prefetch(self.get(hash));
    }

    /// Stores `slot` at `hash`, growing the table first when it is due.
    #[inline]
    pub fn put(&mut self, hash: u64, slot: S) {
        self.stores += 1;
        if self.stores > self.slots.len() && self.slots.len() < self.most {
            self.grow();
        }
        let i = self.index(hash);
        self.slots[i] = slot;
    }

    /// Four times the slots, the entries moved over; left as it is if the
    /// memory cannot be had.
    fn grow(&mut self) {
        let Ok(bigger) = zeroed(self.most.min(self.slots.len() * 4), "") else {
            self.most = self.slots.len();
            return;
        };
        let old = std::mem::replace(&mut self.slots, bigger);
        for slot in old.into_iter().filter(S::is_used) {
            let i = self.index(slot.hash());
            self.slots[i] = slot;
        }
        self.stores = 0;
    }

    /// Empties the table, back to its first size.
    pub fn clear(&mut self) {
        let first = self.most.min(FIRST_SLOTS);
        if self.slots.len() == first {
            self.slots.fill(S::EMPTY);
        } else if let Ok(fresh) = zeroed(first, "") {
            self.slots = fresh;
        } else {
            self.slots.fill(S::EMPTY);
        }
        self.stores = 0;
    }

    /// The most memory the table may take, in bytes.
    pub fn bytes(&self) -> usize {
        self.most * std::mem::size_of::<S>()
    }
}

/// `len` empty slots, or [`SolveError::OutOfMemory`] naming `what`.
fn zeroed<S: Slot>(len: usize, what: &str) -> Result<Vec<S>, SolveError> {
    let mut slots = Vec::new();
    slots
        .try_reserve_exact(len)
        .map_err(|e| SolveError::OutOfMemory(format!("{what} of {len} slots: {e}")))?;
    crate::memory::advise_huge_pages(slots.as_ptr(), len * std::mem::size_of::<S>());
    slots.resize(len, S::EMPTY);
    Ok(slots)
}
