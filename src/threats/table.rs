//! The alpha-beta search's transposition table, shared by the threads of one
//! move's search (lazy SMP): one entry per slot, replaced by any newer search of
//! equal or greater depth, or by a newer search at all.
//!
//! An entry is two words, the key xor-ed with the data and the data, written
//! without a lock: a slot torn by two threads writing at once fails the key check
//! on its next probe and reads as a miss.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// What a stored value is: exact, or a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The value is at least this (the search failed high).
    Lower,
    /// The value is at most this (the search failed low).
    Upper,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub value: i32,
    pub best: u16,
    pub depth: u8,
    pub bound: Bound,
    /// The search that stored it, modulo 64.
    pub age: u8,
}

impl Entry {
    fn pack(self) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 0u64,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        (self.value as u32 as u64)
            | (self.best as u64) << 32
            | (self.depth as u64) << 48
            | bound << 56
            | ((self.age & AGE_MASK) as u64) << 58
    }

    fn unpack(data: u64) -> Entry {
        Entry {
            value: data as u32 as i32,
            best: (data >> 32) as u16,
            depth: (data >> 48) as u8,
            bound: match (data >> 56) & 3 {
                0 => Bound::Exact,
                1 => Bound::Lower,
                _ => Bound::Upper,
            },
            age: (data >> 58) as u8 & AGE_MASK,
        }
    }
}

const AGE_MASK: u8 = 63;

pub struct Table {
    /// Per slot: key ^ data, data (both 0: empty).
    slots: Vec<[AtomicU64; 2]>,
    mask: usize,
    age: AtomicU8,
}

impl Table {
    /// A table of `2^bits` entries.
    pub fn new(bits: u32) -> Table {
        Table {
            slots: (0..1usize << bits)
                .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
                .collect(),
            mask: (1 << bits) - 1,
            age: AtomicU8::new(0),
        }
    }

    /// Starts a new search: older entries give way to newer ones.
    pub fn next_age(&self) {
        let next = (self.age.load(Ordering::Relaxed) + 1) & AGE_MASK;
        self.age.store(next, Ordering::Relaxed);
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let slot = &self.slots[key as usize & self.mask];
        let check = slot[0].load(Ordering::Relaxed);
        let data = slot[1].load(Ordering::Relaxed);
        (data != 0 && check ^ data == key).then(|| Entry::unpack(data))
    }

    #[inline]
    pub fn store(&self, key: u64, value: i32, depth: u32, bound: Bound, best: usize) {
        let slot = &self.slots[key as usize & self.mask];
        let age = self.age.load(Ordering::Relaxed);
        let old_data = slot[1].load(Ordering::Relaxed);
        if old_data != 0 {
            let old = Entry::unpack(old_data);
            let same_key = slot[0].load(Ordering::Relaxed) ^ old_data == key;
            if old.age == age && (depth as u8) < old.depth && !same_key {
                return;
            }
        }
        let data = Entry {
            value,
            best: best as u16,
            depth: depth.min(255) as u8,
            bound,
            age,
        }
        .pack();
        slot[0].store(key ^ data, Ordering::Relaxed);
        slot[1].store(data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_through_their_packing() {
        for (value, bound) in [
            (0, Bound::Exact),
            (-1, Bound::Lower),
            (999_999_000, Bound::Upper),
            (-999_999_000, Bound::Exact),
        ] {
            let e = Entry {
                value,
                best: 224,
                depth: 17,
                bound,
                age: 63,
            };
            assert_eq!(Entry::unpack(e.pack()), e);
        }
    }

    #[test]
    fn a_probe_finds_only_its_own_key_and_deeper_entries_stay() {
        let t = Table::new(4);
        t.store(5, 7, 3, Bound::Exact, 11);
        assert_eq!(
            t.probe(5).map(|e| (e.value, e.best, e.depth)),
            Some((7, 11, 3))
        );
        assert_eq!(t.probe(5 + 16), None, "same slot, other key");
        t.store(5 + 16, 1, 2, Bound::Lower, 1);
        assert!(
            t.probe(5).is_some(),
            "a shallower entry of the same search gives way"
        );
        t.next_age();
        t.store(5 + 16, 1, 2, Bound::Lower, 1);
        assert_eq!(t.probe(5), None, "a newer search replaces it");
        assert_eq!(t.probe(5 + 16).map(|e| e.bound), Some(Bound::Lower));
    }
}
