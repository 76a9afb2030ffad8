//! A tiny move list, sorted by a heuristic score, stable (centre first on ties).

/// At most 32 columns fit in 64 bits (`width * (height + 1) <= 64`, `height >= 1`).
const MAX_MOVES: usize = 32;

/// Candidate moves packed as `score << 32 | (255 - rank) << 8 | column`, where `rank`
/// is the insertion order: sorting the packed words sorts by score, then insertion.
pub(crate) struct MoveList {
    len: usize,
    items: [u64; MAX_MOVES],
}

impl MoveList {
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            len: 0,
            items: [0; MAX_MOVES],
        }
    }

    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Adds `col` with a score in `0..2^31`.
    #[inline(always)]
    pub fn push(&mut self, col: u32, score: i32) {
        if self.len < MAX_MOVES {
            let rank = 255 - self.len as u64;
            self.items[self.len] = ((score.max(0) as u64) << 32) | (rank << 8) | col as u64;
            self.len += 1;
        }
    }

    /// The column of the `i`-th move.
    #[inline(always)]
    pub fn col(&self, i: usize) -> u32 {
        (self.items[i] & 0xff) as u32
    }

    /// Gives column `col` the highest priority (e.g. the table's best move).
    #[inline(always)]
    pub fn promote(&mut self, col: u32) {
        for it in self.items[..self.len].iter_mut() {
            if (*it & 0xff) as u32 == col {
                *it |= 0x7fff_ffff << 32;
            }
        }
    }

    /// Sorts by score, high first, keeping the insertion order on ties.
    #[inline(always)]
    pub fn sort(&mut self) {
        let items = &mut self.items[..self.len];
        for i in 1..items.len() {
            let x = items[i];
            let mut j = i;
            while j > 0 && items[j - 1] < x {
                items[j] = items[j - 1];
                j -= 1;
            }
            items[j] = x;
        }
    }
}
