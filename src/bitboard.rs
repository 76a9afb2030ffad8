//! Sets of cells: one word (`Bitboard`) or the words of any board (`Cells`).
//! Their line tests live in `crate::lines`.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not};

/// A set of cells of a one-word board, bit `i` the cell of layout bit `i` (see
/// `crate::layout::Layout`). Iterates over its bits, lowest first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub(crate) struct Bitboard(pub u64);

impl Bitboard {
    #[inline(always)]
    pub fn contains(self, bit: usize) -> bool {
        self.0 >> bit & 1 == 1
    }
    #[inline(always)]
    pub fn count(self) -> u32 {
        self.0.count_ones()
    }
    #[inline(always)]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The `n`-th (0-based, lowest first) cell of the set, as a one-cell set
    /// (empty when the set has `n` cells or fewer).
    #[inline]
    pub fn nth(self, n: u32) -> Bitboard {
        let mut x = self.0;
        for _ in 0..n {
            x &= x.wrapping_sub(1);
        }
        Bitboard(x & x.wrapping_neg())
    }
}

impl Iterator for Bitboard {
    type Item = usize;

    /// The lowest bit, removed from the set.
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let bit = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(bit)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

macro_rules! binary_op {
    ($trait:ident, $f:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
    };
}
binary_op!(BitAnd, bitand, &);
binary_op!(BitOr, bitor, |);
binary_op!(BitXor, bitxor, ^);

impl BitOrAssign for Bitboard {
    #[inline(always)]
    fn bitor_assign(&mut self, rhs: Bitboard) {
        self.0 |= rhs.0;
    }
}

impl BitAndAssign for Bitboard {
    #[inline(always)]
    fn bitand_assign(&mut self, rhs: Bitboard) {
        self.0 &= rhs.0;
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

/// A set of cells of a board of any size: its layout words, bit `i` in word
/// `i / 64`. The multi-word counterpart of [`Bitboard`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cells<'a>(pub &'a [u64]);

impl<'a> Cells<'a> {
    /// Whether `bit` is in the set (false past its words).
    #[inline(always)]
    fn contains(self, bit: usize) -> bool {
        self.0
            .get(bit / 64)
            .is_some_and(|w| w >> (bit % 64) & 1 == 1)
    }

    /// The set bits, lowest first.
    pub fn bits(self) -> impl Iterator<Item = usize> + 'a {
        self.0
            .iter()
            .enumerate()
            .flat_map(|(i, &word)| Bitboard(word).map(move |b| i * 64 + b))
    }

    /// How many cells of the set continue from `bit` along `step` (up the bits
    /// with `UP`, else down), at most `limit`. Past the layout's last bit the set
    /// is empty, so the walk needs no bound but the words'.
    #[inline(always)]
    pub(crate) fn run_from<const UP: bool>(self, bit: usize, step: usize, limit: usize) -> usize {
        let mut run = 0;
        let mut b = bit;
        while run < limit {
            let next = if UP {
                b + step
            } else if b >= step {
                b - step
            } else {
                break;
            };
            if !self.contains(next) {
                break;
            }
            run += 1;
            b = next;
        }
        run
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nth_selects_the_cells_in_order() {
        let x = 0b1011_0000_0000_0110_1001u64 | (1 << 63);
        let cells: Vec<u64> = (0..=x.count_ones()).map(|n| Bitboard(x).nth(n).0).collect();
        let mut expected: Vec<u64> = (0..64)
            .filter(|b| x >> b & 1 == 1)
            .map(|b| 1u64 << b)
            .collect();
        expected.push(0);
        assert_eq!(cells, expected);
        assert_eq!(Bitboard(0).nth(0), Bitboard(0));
        assert_eq!(Bitboard(u64::MAX).nth(63).0, 1 << 63);
    }

    #[test]
    fn iterates_set_bits_in_order() {
        let x = Bitboard(0b1011_0000_0000_0110_1001 | 1 << 63);
        let bits: Vec<usize> = x.collect();
        assert_eq!(bits, [0, 3, 5, 6, 16, 17, 19, 63]);
        assert_eq!(x.len(), 8);
        assert_eq!(Bitboard(0).next(), None);
    }
}
