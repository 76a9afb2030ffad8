//! Where a stone sits: the bit layout of the game core, the playouts and the
//! gravity solver. What a line is under each rule is `crate::lines`.
//!
//! A board of `width` columns and `height` rows is stored column by column,
//! `stride = height + 1` bits per column: the spare bit on top of each column is
//! always empty, so a run of stones along the vertical or a diagonal cannot carry
//! on into the next column. Bit `i` of the board is bit `i % 64` of word `i / 64`;
//! boards of at most 64 bits (7x6, 8x7, 9x6, ...) fit one word, a [`Bitboard`].
//! For 7x6 (the spare bits 6, 13, ..., 48 above the top row stay empty):
//!
//! ```text
//!                 col 0  1  2  3  4  5  6
//!   spare bits        6 13 20 27 34 41 48
//!   row 0 (top)       5 12 19 26 33 40 47      bit = col * stride + (height - 1 - row)
//!   row 1             4 11 18 25 32 39 46
//!   row 2             3 10 17 24 31 38 45      col = bit / stride
//!   row 3             2  9 16 23 30 37 44
//!   row 4             1  8 15 22 29 36 43
//!   row 5 (bottom)    0  7 14 21 28 35 42
//! ```
//!
//! # Lines
//!
//! A line is `k` stones at equal steps along one of four directions, always
//! listed in this order (the step in bits between neighbours on the line):
//!
//! ```text
//!   0  vertical          1                .  0  2     the neighbour of a stone x
//!   1  horizontal        stride           .  x  1     along direction d, one step
//!   2  rising diagonal   stride + 1       .  .  3     up the bits, is marked d
//!   3  falling diagonal  stride - 1
//! ```
//!
//! A run along any direction ends at a spare bit or at the board's edge, so
//! `k` stones in a row are exactly `k` set bits at one step: the freestyle line
//! test is [`Bitboard::line_starts`]; the rules' line tests are in `crate::lines`.

use crate::bitboard::Bitboard;
use crate::rules::Rules;

/// The board's bit layout and the masks derived from it, for one size of board
/// (and one line length `k`: which directions can hold a line at all).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Layout {
    width: usize,
    height: usize,
    stride: usize,
    /// The line length.
    k: usize,
    /// The steps of the directions that can hold `k` cells, in the documented
    /// order; 0 for a direction too short on this board.
    line_steps: [usize; 4],
    /// The playable cells of column 0 (one-word boards).
    column: u64,
    /// The bottom cell of every column (one-word boards).
    bottom: u64,
    /// Every playable cell (one-word boards).
    board: u64,
}

impl Layout {
    /// The layout of a `width` x `height` board with lines of `k` (`width` and
    /// `height` in `1..=64`; any `k >= 1`). The masks cover the board's first
    /// 64 bits: whole on a one-word board.
    pub fn new(width: usize, height: usize, k: usize) -> Layout {
        debug_assert!((1..=64).contains(&width) && (1..=64).contains(&height) && k >= 1);
        let stride = height + 1;
        let column = if height >= 64 {
            u64::MAX
        } else {
            (1u64 << height) - 1
        };
        let (mut bottom, mut board) = (0u64, 0u64);
        for c in 0..width {
            if let Some(b) = 1u64.checked_shl((c * stride) as u32) {
                bottom |= b;
                board |= column << (c * stride);
            }
        }
        let fits = |len: usize| k <= len;
        let diagonal = fits(width.min(height));
        let line_steps = [
            if fits(height) { 1 } else { 0 },
            if fits(width) { stride } else { 0 },
            if diagonal { stride + 1 } else { 0 },
            if diagonal { stride - 1 } else { 0 },
        ];
        Layout {
            width,
            height,
            stride,
            k,
            line_steps,
            column,
            bottom,
            board,
        }
    }

    /// The layout of a board under `rules`.
    pub fn of(rules: &Rules) -> Layout {
        Layout::new(rules.width(), rules.height(), rules.k())
    }

    #[inline(always)]
    pub fn width(&self) -> usize {
        self.width
    }
    #[inline(always)]
    pub fn height(&self) -> usize {
        self.height
    }
    /// Bits per column: the rows plus the spare bit.
    #[inline(always)]
    pub fn stride(&self) -> usize {
        self.stride
    }
    /// The line length.
    #[inline(always)]
    pub fn k(&self) -> usize {
        self.k
    }
    /// Bits the layout spans.
    #[inline(always)]
    pub fn num_bits(&self) -> usize {
        self.width() * self.stride()
    }
    /// 64-bit words per stone set.
    #[inline(always)]
    pub fn words(&self) -> usize {
        self.num_bits().div_ceil(64)
    }
    /// Whether one word holds a stone set.
    #[inline(always)]
    pub fn fits_word(&self) -> bool {
        self.num_bits() <= 64
    }

    /// The bit of the cell at `row` (from the top) and `col`.
    #[inline(always)]
    pub fn bit(&self, row: usize, col: usize) -> usize {
        self.bit_from_bottom(col, self.height() - 1 - row)
    }
    /// The bit of the cell `level` cells above the bottom of column `col`.
    #[inline(always)]
    pub fn bit_from_bottom(&self, col: usize, level: usize) -> usize {
        col * self.stride() + level
    }
    /// The (row from the top, col) of a bit that is a real cell.
    #[inline(always)]
    pub fn cell(&self, bit: usize) -> (usize, usize) {
        (self.height() - 1 - bit % self.stride(), self.column_of(bit))
    }
    /// The column of a bit.
    #[inline(always)]
    pub fn column_of(&self, bit: usize) -> usize {
        bit / self.stride()
    }

    /// The steps of the four directions, in the documented order.
    #[inline(always)]
    pub fn directions(&self) -> [usize; 4] {
        let s = self.stride;
        [1, s, s + 1, s - 1]
    }
    /// The steps of the directions that can hold `k` cells on this board, in the
    /// documented order, 0 for the others (no line is possible along them).
    #[inline(always)]
    pub fn line_steps(&self) -> [usize; 4] {
        self.line_steps
    }

    /// The playable cells of column `col` (one-word boards).
    #[inline(always)]
    pub fn column(&self, col: usize) -> Bitboard {
        Bitboard(self.column << (col * self.stride()))
    }
    /// The bottom cell of every column (one-word boards).
    #[inline(always)]
    pub fn bottom(&self) -> Bitboard {
        Bitboard(self.bottom)
    }
    /// Every playable cell (one-word boards).
    #[inline(always)]
    pub fn board(&self) -> Bitboard {
        Bitboard(self.board)
    }
    /// Writes the plane of `stones` (one-word boards): `(height, width)` cells,
    /// row 0 the top row, `one` where a stone sits and `zero` elsewhere.
    #[inline]
    pub fn write_plane<T: Copy>(&self, stones: Bitboard, out: &mut [T], zero: T, one: T) {
        // Indexed, not branched: a branch on random stones mispredicts (4-5x slower).
        let values = [zero, one];
        for (row, line) in out.chunks_exact_mut(self.width()).enumerate() {
            for (col, cell) in line.iter_mut().enumerate() {
                *cell = values[usize::from(stones.contains(self.bit(row, col)))];
            }
        }
    }
    /// With gravity, the cells a stone can drop into given the `occupied` cells:
    /// the lowest empty cell of each column that is not full (one-word boards).
    #[inline(always)]
    pub fn drop_cells(&self, occupied: Bitboard) -> Bitboard {
        Bitboard(occupied.0.wrapping_add(self.bottom) & self.board)
    }
}

/// The rules' storage, as their layout decides it.
impl Rules {
    /// 64-bit words per player's stone set.
    pub(crate) fn words(&self) -> usize {
        Layout::of(self).words()
    }
    /// Whether the one-word fast path serves these rules: one `u64` holds a
    /// player's stones, and a line is `k` or more (freestyle; the other rules
    /// take the general path).
    pub fn fits_word(&self) -> bool {
        self.is_freestyle() && Layout::of(self).fits_word()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_round_trips() {
        let r = Layout::of(&Rules::new(5, 4, 3, 2, true).unwrap());
        for row in 0..4 {
            for col in 0..5 {
                assert_eq!(r.cell(r.bit(row, col)), (row, col));
            }
        }
        assert!(r.fits_word());
        assert!(!Layout::of(&Rules::new(8, 8, 5, 3, false).unwrap()).fits_word());
    }

    #[test]
    fn the_picture_holds() {
        let l = Layout::of(&Rules::connect_four());
        assert_eq!(l.bit(0, 0), 5);
        assert_eq!(l.bit(5, 6), 42);
        assert_eq!(l.bit(0, 6), 47);
        assert_eq!(l.column_of(48), 6);
        assert_eq!(l.directions(), [1, 7, 8, 6]);
        assert_eq!(l.line_steps(), l.directions());
        let spare: Vec<usize> = (0..7).map(|c| c * 7 + 6).collect();
        assert!(spare.iter().all(|&b| !l.board().contains(b)));
        assert_eq!(l.board().count(), 42);
        assert_eq!(
            l.bottom().into_iter().collect::<Vec<_>>(),
            [0, 7, 14, 21, 28, 35, 42]
        );
        assert_eq!(l.column(2).0, 0b11_1111 << 14);
        // Column 0 full, one stone in every other column: the second cells.
        assert_eq!(
            l.drop_cells(l.column(0) | l.bottom()).0,
            (l.bottom().0 & !1) << 1
        );
    }

    #[test]
    fn too_short_directions_have_no_step() {
        // 3 wide, 5 high, k = 4: only the vertical holds four cells.
        assert_eq!(Layout::new(3, 5, 4).line_steps(), [1, 0, 0, 0]);
        assert_eq!(Layout::new(5, 3, 4).line_steps(), [0, 4, 0, 0]);
        assert_eq!(Layout::new(4, 4, 4).line_steps(), [1, 5, 6, 4]);
        assert_eq!(Layout::new(7, 6, 65).line_steps(), [0; 4]);
    }

    #[test]
    fn masks_of_full_width_boards() {
        // 64 bits exactly: 32 columns of one cell, or one column of 63.
        let wide = Layout::new(32, 1, 4);
        assert_eq!(wide.board().count(), 32);
        assert_eq!(wide.bottom(), wide.board());
        let tall = Layout::new(1, 63, 4);
        assert_eq!(tall.board().0, u64::MAX >> 1);
        assert_eq!(tall.column(0), tall.board());
    }
}
