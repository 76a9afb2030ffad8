//! The word a stone set is kept in: `u64` for boards of at most 64 cells, `u128`
//! for at most 128 (9x9, 10x10, 11x11). The search is generic over it and
//! monomorphized, so a board of one word runs the code it always ran.

use std::fmt::{Debug, LowerHex};
use std::hash::Hash;
use std::ops::{
    BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Index, IndexMut, Not, Shl, Shr,
};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::bitboard::Bitboard;

/// A set of cells, cell `i` at bit `i`, with the operations the search uses.
pub(crate) trait Word:
    Copy
    + Eq
    + Ord
    + Hash
    + Debug
    + LowerHex
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitAndAssign
    + BitOr<Output = Self>
    + BitOrAssign
    + BitXor<Output = Self>
    + BitXorAssign
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    /// Bits of the word: the most cells a board in it may have.
    const BITS: usize;
    const ZERO: Self;
    /// One `T` per cell the word can hold (`[T; BITS]`).
    type PerCell<T: Copy + Debug + Send + Sync>: Copy
        + Debug
        + Send
        + Sync
        + Index<usize, Output = T>
        + IndexMut<usize>
        + AsRef<[T]>
        + AsMut<[T]>;
    /// One `T` per pair of cells (`[T; BITS / 2]`).
    type PerPair<T: Copy + Debug + Send + Sync>: Copy
        + Debug
        + Send
        + Sync
        + Index<usize, Output = T>
        + IndexMut<usize>
        + AsRef<[T]>
        + AsMut<[T]>;

    /// The word in atomics, for tables that threads share: all-zero bytes are a
    /// valid empty set.
    type Atomic: Send + Sync;

    fn per_cell<T: Copy + Debug + Send + Sync>(fill: T) -> Self::PerCell<T>;
    fn per_pair<T: Copy + Debug + Send + Sync>(fill: T) -> Self::PerPair<T>;
    /// Loads an atomic word (relaxed: a table orders its slots itself).
    fn load(atomic: &Self::Atomic) -> Self;
    /// Stores into an atomic word (relaxed).
    fn store(atomic: &Self::Atomic, value: Self);
    /// The set of the one cell `cell` (`cell < BITS`).
    fn bit(cell: usize) -> Self;
    /// The cells `0..n` (`n <= BITS`).
    fn below(n: usize) -> Self;
    fn count(self) -> u32;
    /// The lowest cell (`BITS` for the empty set).
    fn first(self) -> usize;
    /// The set without its lowest cell.
    fn without_first(self) -> Self;
    /// The lowest cell as a set of one (empty for the empty set).
    fn first_bit(self) -> Self;
    /// The first cells of the runs of `k` cells of this set at `step` bits
    /// apart (the doubling trick of `crate::lines`).
    fn line_starts(self, step: u32, k: usize) -> Self;
    /// Bits that place the set in a table: every cell of the board moves them.
    fn hash_bits(self) -> u64;
    /// The set in the widest word.
    fn widen(self) -> u128;
    /// The set `wide` (of cells below `BITS`) in this word.
    fn narrow(wide: u128) -> Self;

    #[inline(always)]
    fn is_empty(self) -> bool {
        self == Self::ZERO
    }

    #[inline(always)]
    fn has(self, cell: usize) -> bool {
        !(self & Self::bit(cell)).is_empty()
    }

    /// The first cells of the runs of exactly `k` cells of this set at `step`
    /// bits apart: runs of `k` starting in `starts` with no cell of the set just
    /// before or after them, `longer` the first cells of the board's runs of
    /// `k + 1` (as `crate::lines`' exact test, on a board without spare bits).
    #[inline(always)]
    fn exact_line_starts(self, step: u32, k: usize, starts: Self, longer: Self) -> Self {
        let runs = self.line_starts(step, k) & starts;
        let overlines = self.line_starts(step, k + 1) & longer;
        runs & !overlines & !(overlines << step)
    }
}

/// The single-bit operations, the same on every unsigned word.
macro_rules! bit_ops {
    ($word:ty) => {
        #[inline(always)]
        fn bit(cell: usize) -> $word {
            1 << cell
        }
        #[inline(always)]
        fn below(n: usize) -> $word {
            if n == <$word>::BITS as usize {
                <$word>::MAX
            } else {
                (1 << n) - 1
            }
        }
        #[inline(always)]
        fn count(self) -> u32 {
            self.count_ones()
        }
        #[inline(always)]
        fn first(self) -> usize {
            self.trailing_zeros() as usize
        }
        #[inline(always)]
        fn without_first(self) -> $word {
            self & self.wrapping_sub(1)
        }
        #[inline(always)]
        fn first_bit(self) -> $word {
            self & self.wrapping_neg()
        }
    };
}

impl Word for u64 {
    const BITS: usize = 64;
    const ZERO: u64 = 0;
    type PerCell<T: Copy + Debug + Send + Sync> = [T; 64];
    type PerPair<T: Copy + Debug + Send + Sync> = [T; 32];
    type Atomic = AtomicU64;

    #[inline(always)]
    fn per_cell<T: Copy + Debug + Send + Sync>(fill: T) -> [T; 64] {
        [fill; 64]
    }
    #[inline(always)]
    fn per_pair<T: Copy + Debug + Send + Sync>(fill: T) -> [T; 32] {
        [fill; 32]
    }
    bit_ops!(u64);
    #[inline(always)]
    fn load(atomic: &AtomicU64) -> u64 {
        atomic.load(Ordering::Relaxed)
    }
    #[inline(always)]
    fn store(atomic: &AtomicU64, value: u64) {
        atomic.store(value, Ordering::Relaxed);
    }
    #[inline(always)]
    fn line_starts(self, step: u32, k: usize) -> u64 {
        Bitboard(self).line_starts(step as usize, k).0
    }
    #[inline(always)]
    fn exact_line_starts(self, step: u32, k: usize, starts: u64, longer: u64) -> u64 {
        Bitboard(self)
            .exact_line_starts(step as usize, k, starts, longer)
            .0
    }
    #[inline(always)]
    fn hash_bits(self) -> u64 {
        self
    }
    #[inline(always)]
    fn widen(self) -> u128 {
        self.into()
    }
    #[inline(always)]
    fn narrow(wide: u128) -> u64 {
        debug_assert!(wide >> 64 == 0);
        wide as u64
    }
}

impl Word for u128 {
    const BITS: usize = 128;
    const ZERO: u128 = 0;
    type PerCell<T: Copy + Debug + Send + Sync> = [T; 128];
    type PerPair<T: Copy + Debug + Send + Sync> = [T; 64];
    type Atomic = [AtomicU64; 2];

    #[inline(always)]
    fn per_cell<T: Copy + Debug + Send + Sync>(fill: T) -> [T; 128] {
        [fill; 128]
    }
    #[inline(always)]
    fn per_pair<T: Copy + Debug + Send + Sync>(fill: T) -> [T; 64] {
        [fill; 64]
    }
    bit_ops!(u128);
    #[inline(always)]
    fn load(atomic: &[AtomicU64; 2]) -> u128 {
        atomic[0].load(Ordering::Relaxed) as u128
            | (atomic[1].load(Ordering::Relaxed) as u128) << 64
    }
    #[inline(always)]
    fn store(atomic: &[AtomicU64; 2], value: u128) {
        atomic[0].store(value as u64, Ordering::Relaxed);
        atomic[1].store((value >> 64) as u64, Ordering::Relaxed);
    }
    #[inline(always)]
    fn line_starts(self, step: u32, k: usize) -> u128 {
        let mut m = self;
        let mut run = 1;
        while run < k {
            let t = run.min(k - run);
            m &= m >> (t as u32 * step);
            run += t;
        }
        m
    }
    #[inline(always)]
    fn hash_bits(self) -> u64 {
        // The high half multiplied up, so its cells reach the low bits' mix too.
        self as u64 ^ ((self >> 64) as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93)
    }
    #[inline(always)]
    fn widen(self) -> u128 {
        self
    }
    #[inline(always)]
    fn narrow(wide: u128) -> u128 {
        wide
    }
}

#[cfg(test)]
mod tests {
    use super::Word;

    /// The runs of `k` at `step` by brute force: bit `i` where bits `i`,
    /// `i + step`, ... `i + (k - 1) * step` are all set.
    fn runs_brute(set: u128, step: u32, k: usize) -> u128 {
        (0..128usize)
            .filter(|&i| {
                (0..k).all(|j| {
                    i + j * step as usize <= 127 && set >> (i + j * step as usize) & 1 == 1
                })
            })
            .fold(0, |m, i| m | 1 << i)
    }

    #[test]
    fn two_words_find_the_runs_of_the_brute_force_and_agree_with_one() {
        let mut seed = 0x1234_5678_9ABC_DEF0u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..400 {
            // Dense sets, so that long runs occur.
            let set = (next() | next()) as u128 | ((next() | next()) as u128) << 64;
            for step in [1u32, 8, 9, 10, 11, 12] {
                for k in 1..=7 {
                    let brute = runs_brute(set, step, k);
                    assert_eq!(set.line_starts(step, k), brute, "{set:x} {step} {k}");
                    let low = set as u64;
                    // One word: the runs that end below bit 64.
                    let one = low.line_starts(step, k);
                    let fits = if step as usize * (k - 1) < 64 {
                        u64::below(64 - step as usize * (k - 1))
                    } else {
                        0
                    };
                    assert_eq!(one & fits, runs_brute(low.into(), step, k) as u64 & fits);
                }
            }
        }
    }

    #[test]
    fn the_set_operations_of_both_words() {
        assert_eq!(u128::below(128), u128::MAX);
        assert_eq!(u128::below(81).count(), 81);
        assert_eq!(u64::below(64), u64::MAX);
        assert_eq!(u64::below(9), 0x1ff);
        let set = u128::bit(100) | u128::bit(70) | u128::bit(3);
        assert_eq!(set.first(), 3);
        assert_eq!(set.without_first().first(), 70);
        assert_eq!(set.without_first().first_bit(), u128::bit(70));
        assert!(set.has(100) && !set.has(99));
        assert_eq!(u128::ZERO.first(), 128);
        assert_eq!(u64::narrow(u64::MAX.widen()), u64::MAX);
        // The high half moves the table's bits.
        assert_ne!(u128::bit(80).hash_bits(), u128::ZERO.hash_bits());
        assert_ne!(u128::bit(80).hash_bits(), u128::bit(16).hash_bits());
    }
}
