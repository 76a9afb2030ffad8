//! The alpha-beta search's transposition table: one entry per slot, replaced
//! by any newer search of equal or greater depth, or by a newer search at all.

/// What a stored value is: exact, or a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The value is at least this (the search failed high).
    Lower,
    /// The value is at most this (the search failed low).
    Upper,
}

#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub key: u64,
    pub value: i32,
    pub best: u16,
    pub depth: u8,
    pub bound: Bound,
    pub age: u8,
}

const EMPTY: Entry = Entry {
    key: 0,
    value: 0,
    best: u16::MAX,
    depth: 0,
    bound: Bound::Upper,
    age: 0,
};

pub struct Table {
    slots: Vec<Entry>,
    mask: usize,
    age: u8,
}

impl Table {
    /// A table of `2^bits` entries.
    pub fn new(bits: u32) -> Table {
        Table {
            slots: vec![EMPTY; 1 << bits],
            mask: (1 << bits) - 1,
            age: 0,
        }
    }

    /// Starts a new search: older entries give way to newer ones.
    pub fn next_age(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.slots[key as usize & self.mask];
        (e.key == key && e.best != u16::MAX).then_some(e)
    }

    #[inline]
    pub fn store(&mut self, key: u64, value: i32, depth: u32, bound: Bound, best: usize) {
        let slot = &mut self.slots[key as usize & self.mask];
        if slot.age != self.age || depth as u8 >= slot.depth || slot.key == key {
            *slot = Entry {
                key,
                value,
                best: best as u16,
                depth: depth.min(255) as u8,
                bound,
                age: self.age,
            };
        }
    }
}
