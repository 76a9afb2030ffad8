//! A tiny move list, sorted by a heuristic score, stable (centre first on ties).

/// Up to 64 candidate moves: (column, bit of the cell, score).
pub(crate) struct MoveList {
    len: usize,
    items: [(u32, u64, i32); 64],
}

impl MoveList {
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            len: 0,
            items: [(0, 0, 0); 64],
        }
    }

    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    pub fn push(&mut self, col: u32, bit: u64, score: i32) {
        if self.len < 64 {
            self.items[self.len] = (col, bit, score);
            self.len += 1;
        }
    }

    #[inline(always)]
    pub fn get(&self, i: usize) -> (u32, u64, i32) {
        self.items[i]
    }

    /// Gives column `col` the highest priority (e.g. the table's best move).
    #[inline(always)]
    pub fn promote(&mut self, col: u32) {
        for it in self.items[..self.len].iter_mut() {
            if it.0 == col {
                it.2 = i32::MAX;
            }
        }
    }

    /// Sorts by score, high first, keeping the insertion order on ties. Helper
    /// threads (`helper > 0`) rotate the order near the root to desynchronise.
    #[inline(always)]
    pub fn sort(&mut self, helper: u32, _moves: i32) {
        let items = &mut self.items[..self.len];
        for i in 1..items.len() {
            let x = items[i];
            let mut j = i;
            while j > 0 && items[j - 1].2 < x.2 {
                items[j] = items[j - 1];
                j -= 1;
            }
            items[j] = x;
        }
        if helper > 0 && items.len() > 1 {
            let r = (helper as usize) % items.len();
            items.rotate_left(r);
        }
    }
}
