//! What the solver adds to the [`Layout`]: Allis' parity masks (odd threats,
//! claimeven rows), dead stones and the mirror image. Its line tests are
//! `crate::lines`' one-word ones (`k = 4` unrolled there).
//!
//! Positions fit one word (`width * (height + 1) <= 64`); the bit layout, the
//! masks and the four directions (in their one order) are the [`Layout`]'s.

use super::error::SolveError;
use crate::bitboard::Bitboard;
use crate::layout::Layout;

/// Largest `k` that matters: no line on a 64-bit board is longer than 64 cells.
const MAX_K: u32 = 65;

/// The shape of a board and the masks derived from it (validated at construction).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Geometry {
    pub layout: Layout,
    /// Line length, capped at 65 (a longer line can never be made anyway).
    pub k: u32,
    /// Number of cells, `width * height`.
    pub cells: i32,
    /// Whether the specialised k = 4 line code may be used (shifts stay below 64).
    fast4: bool,
    /// Rows `0..=height` (spare row included) whose parity differs from `height`'s:
    /// a column's next free cell lies there iff the column has an odd number of
    /// empty cells.
    pub odd_heads: u64,
    /// Playable cells in rows with the parity of `height`: in columns with an even
    /// number of empty cells, the cells the first player to drop there gets when the
    /// other answers every move in the same column (claimeven).
    pub claim_rows: u64,
    /// Per direction (in the layout's order), the first cells of the windows of
    /// four cells that fit on the board (k = 4 only).
    window_starts: [u64; 4],
}

/// `x << s`, or 0 when the shift leaves the word.
#[inline(always)]
fn shl(x: u64, s: u32) -> u64 {
    x.checked_shl(s).unwrap_or(0)
}

/// `x >> s`, or 0 when the shift leaves the word.
#[inline(always)]
fn shr(x: u64, s: u32) -> u64 {
    x.checked_shr(s).unwrap_or(0)
}

impl Geometry {
    /// Checks the size limits: `width, height >= 1`, `k >= 1`, `width * (height + 1) <= 64`.
    pub fn new(width: usize, height: usize, k: usize) -> Result<Geometry, SolveError> {
        if width == 0 || height == 0 {
            return Err(SolveError::Unsupported(format!(
                "board {width}x{height}: width and height must be at least 1"
            )));
        }
        if k == 0 {
            return Err(SolveError::Unsupported("k must be at least 1".into()));
        }
        let fits = width
            .checked_mul(height.saturating_add(1))
            .is_some_and(|bits| bits <= 64);
        if !fits {
            return Err(SolveError::Unsupported(format!(
                "board {width}x{height}: the solver needs width * (height + 1) <= 64"
            )));
        }
        let k = k.min(MAX_K as usize);
        let layout = Layout::new(width, height, k);
        let board = layout.board().0;
        let (mut odd_heads, mut claim_rows) = (0u64, 0u64);
        for c in 0..width {
            for r in 0..=height {
                let bit = 1u64 << layout.bit_from_bottom(c, r);
                if r % 2 != height % 2 {
                    odd_heads |= bit;
                } else if r < height {
                    claim_rows |= bit;
                }
            }
        }
        let mut window_starts = [0u64; 4];
        for (i, d) in layout.directions().into_iter().enumerate() {
            let d = d as u32;
            window_starts[i] = board & shr(board, d) & shr(board, 2 * d) & shr(board, 3 * d);
        }
        let h1 = layout.stride();
        Ok(Geometry {
            layout,
            k: k as u32,
            cells: (width * height) as i32,
            fast4: k == 4 && 3 * (h1 + 1) < 64,
            odd_heads,
            claim_rows,
            window_starts,
        })
    }

    /// Board width.
    #[inline(always)]
    pub fn width(&self) -> u32 {
        self.layout.width() as u32
    }

    /// Board height.
    #[inline(always)]
    pub fn height(&self) -> u32 {
        self.layout.height() as u32
    }

    /// Bits per column: the height and a spare bit.
    #[inline(always)]
    pub fn stride(&self) -> u32 {
        self.layout.stride() as u32
    }

    /// The bottom cell of every column.
    #[inline(always)]
    pub fn bottom(&self) -> u64 {
        self.layout.bottom().0
    }

    /// Every playable cell.
    #[inline(always)]
    pub fn board(&self) -> u64 {
        self.layout.board().0
    }

    /// The stride between columns, as a shift.
    #[inline(always)]
    fn h1(&self) -> u32 {
        self.layout.stride() as u32
    }

    /// The bits of column `col` (playable cells only).
    #[inline]
    pub fn column_mask(&self, col: u32) -> u64 {
        self.layout.column(col as usize).0
    }

    /// The playable cells of the column holding bit `cell`.
    #[inline]
    pub fn column_of(&self, cell: u64) -> u64 {
        self.column_mask(cell.trailing_zeros() / self.h1())
    }

    /// The top playable cell of column `col`.
    #[inline]
    pub fn top_mask(&self, col: u32) -> u64 {
        1u64 << self
            .layout
            .bit_from_bottom(col as usize, self.layout.height() - 1)
    }

    /// Cells where a stone can be dropped now.
    #[inline(always)]
    pub fn possible(&self, mask: u64) -> u64 {
        self.layout.drop_cells(Bitboard(mask)).0
    }

    /// Empty cells that would complete a line of `k` for the owner of `stones`
    /// (`mask` = all stones). Playable now or not.
    #[inline(always)]
    pub fn winning_cells(&self, stones: u64, mask: u64) -> u64 {
        if self.fast4 {
            self.winning_cells4(stones, mask)
        } else {
            self.winning_cells_any(stones, mask)
        }
    }

    /// `k = 4`: [`crate::lines::gravity_winning_cells4`], among the empty cells.
    #[inline(always)]
    fn winning_cells4(&self, p: u64, mask: u64) -> u64 {
        crate::lines::gravity_winning_cells4(p, self.layout.stride()) & (self.board() ^ mask)
    }

    /// Any `k`: [`crate::lines::winning_cells`], among the empty cells.
    fn winning_cells_any(&self, p: u64, mask: u64) -> u64 {
        let empty = self.board() & !mask;
        crate::lines::winning_cells(p, self.layout.line_steps(), self.k as usize) & empty
    }

    /// The four line directions as bit shifts, in the layout's order.
    #[inline(always)]
    fn directions(&self) -> [u32; 4] {
        self.layout.directions().map(|d| d as u32)
    }

    /// Whether `stones` contains a line of `k` ([`Bitboard::has_four`] for
    /// `k = 4`, else [`Bitboard::has_line`]).
    #[inline]
    pub fn has_line(&self, p: u64) -> bool {
        if self.fast4 {
            return Bitboard(p).has_four(self.layout.directions());
        }
        Bitboard(p).has_line(self.layout.line_steps(), self.k as usize)
    }

    /// Stones whose colour no longer matters (k = 4 only; 0 otherwise).
    ///
    /// Only windows of four cells with an empty cell (open) can still become a
    /// line, and only if they hold one colour. So a set `D` of stones may be
    /// recoloured at will if every open window meeting `D` holds both colours
    /// outside `D`: the game from there is the same. Here an open window allows at
    /// most one stone in `D`, its lowest stone (offset 0 or 1 along the window,
    /// nothing below it), and only if the others hold both colours; a stone is in
    /// `D` if every open window through it allows it.
    #[inline(always)]
    pub fn dead_stones(&self, a: u64, mask: u64) -> u64 {
        if !self.fast4 {
            return 0;
        }
        let b = a ^ mask;
        let e = self.board() & !mask;
        let mut alive = 0u64;
        for (i, d) in self.directions().into_iter().enumerate() {
            let (d2, d3) = (2 * d, 3 * d);
            let open = self.window_starts[i] & (e | (e >> d) | (e >> d2) | (e >> d3));
            let (a23, b23) = ((a >> d2) | (a >> d3), (b >> d2) | (b >> d3));
            let (a123, b123) = (a23 | (a >> d), b23 | (b >> d));
            let first = open & mask & a123 & b123;
            let second = open & !mask & (mask >> d) & a23 & b23;
            alive |= (open & !first) | ((open & !second) << d) | (open << d2) | (open << d3);
        }
        mask & !alive
    }

    /// The board seen in a mirror (column `c` becomes `width - 1 - c`).
    #[inline]
    pub fn mirror(&self, x: u64) -> u64 {
        let (h1, w) = (self.h1(), self.width());
        let col = shl(1, h1).wrapping_sub(1);
        let mut out = 0u64;
        let mut c = 0;
        while 2 * c + 1 < w {
            let lo = c * h1;
            let hi = (w - 1 - c) * h1;
            out |= ((x >> lo) & col) << hi;
            out |= ((x >> hi) & col) << lo;
            c += 1;
        }
        if w % 2 == 1 {
            let m = col << ((w / 2) * h1);
            out |= x & m;
        }
        out
    }
}
