//! The free-placement board as one word: where a cell sits, which runs of cells
//! are lines, and the board's symmetries.
//!
//! Cell `row * width + col` is bit `row * width + col` (row 0 the top row), the
//! same number as the free-placement action. Without gravity no spare bits are
//! needed: a line test keeps only the starts whose `k` cells all lie on the board
//! (`starts`), so a run that wraps from one row into the next is never a line.
//! For 4x3 with `k = 3`:
//!
//! ```text
//!             col 0  1  2  3
//!   row 0 (top)   0  1  2  3     direction  step       starts (k = 3)
//!   row 1         4  5  6  7     vertical   width      0..=3
//!   row 2         8  9 10 11     horizontal 1          0, 1, 4, 5, 8, 9
//!                                falling    width + 1  0, 1
//!                                rising     width - 1  2, 3
//! ```

use super::super::error::SolveError;
use crate::bitboard::Bitboard;

/// Most cells a free-placement board may have: one word.
pub const MAX_FREE_CELLS: usize = 64;

/// The board's shape, lines and symmetries (built once per shape).
#[derive(Clone, Debug)]
pub(crate) struct Geometry {
    pub width: usize,
    pub height: usize,
    pub k: usize,
    /// Whether a line is exactly `k` (the standard rule; an overline is no line)
    /// rather than `k` or more (freestyle), for both players.
    pub exact: bool,
    /// Number of cells.
    pub cells: i32,
    /// Every cell.
    pub board: u64,
    /// The step of each direction that can hold a line (vertical, horizontal,
    /// falling, rising); `starts` of the others is 0.
    pub steps: [u32; 4],
    /// The first cells of the lines along each direction.
    pub starts: [u64; 4],
    /// The first cells of the runs of `k + 1` cells along each direction (the
    /// exact test's overlines).
    pub longer_starts: [u64; 4],
    /// Every line, as its cells, direction by direction.
    pub lines: Vec<u64>,
    /// The direction of each line (0..4, the order of `steps`).
    pub line_directions: Vec<u8>,
    /// The board's symmetries (the identity first): `map[s][cell]` is the cell's
    /// image as a one-bit set.
    pub map: Vec<[u64; MAX_FREE_CELLS]>,
    /// The inverse of each symmetry, as cell numbers.
    pub inverse: Vec<[u8; MAX_FREE_CELLS]>,
}

impl Geometry {
    /// The geometry of a `width` x `height` board with lines of `k`, any `k >= 1`,
    /// exactly `k` long where `exact`; boards of more than [`MAX_FREE_CELLS`]
    /// cells or a zero side are [`SolveError::Unsupported`].
    pub fn new(width: usize, height: usize, k: usize, exact: bool) -> Result<Geometry, SolveError> {
        if width == 0 || height == 0 || k == 0 {
            return Err(SolveError::Unsupported(format!(
                "sides and k must be at least 1, got {width}x{height}, k = {k}"
            )));
        }
        if width.saturating_mul(height) > MAX_FREE_CELLS {
            return Err(SolveError::Unsupported(format!(
                "the free-placement solver covers boards of at most {MAX_FREE_CELLS} cells \
                 (one word), got {width}x{height} = {} cells",
                width.saturating_mul(height)
            )));
        }
        let cells = width * height;
        let board = if cells == 64 {
            u64::MAX
        } else {
            (1u64 << cells) - 1
        };
        let (w, h) = (width as i64, height as i64);
        // (row step, col step) of vertical, horizontal, falling and rising lines.
        let deltas: [(i64, i64); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
        let mut steps = [0u32; 4];
        let mut starts = [0u64; 4];
        let mut longer_starts = [0u64; 4];
        let mut lines = Vec::new();
        let mut line_directions = Vec::new();
        let kk = k as i64;
        for (d, &(dr, dc)) in deltas.iter().enumerate() {
            steps[d] = (dr * w + dc) as u32;
            for r in 0..h {
                for c in 0..w {
                    if (0..h).contains(&(r + dr * kk)) && (0..w).contains(&(c + dc * kk)) {
                        longer_starts[d] |= 1 << (r * w + c);
                    }
                    let (er, ec) = (r + dr * (kk - 1), c + dc * (kk - 1));
                    if !(0..h).contains(&er) || !(0..w).contains(&ec) {
                        continue;
                    }
                    starts[d] |= 1 << (r * w + c);
                    lines.push((0..kk).fold(0u64, |m, i| m | 1 << ((r + dr * i) * w + c + dc * i)));
                    line_directions.push(d as u8);
                }
            }
        }
        let (map, inverse) = symmetries(width, height);
        Ok(Geometry {
            width,
            height,
            k,
            exact,
            cells: cells as i32,
            board,
            steps,
            starts,
            longer_starts,
            lines,
            line_directions,
            map,
            inverse,
        })
    }

    /// Whether `stones` hold a line (exactly `k` where `exact`: the shared
    /// one-word test of `crate::lines`).
    #[inline]
    pub fn has_line(&self, stones: u64) -> bool {
        if self.exact {
            return (0..4).any(|d| {
                !Bitboard(stones)
                    .exact_line_starts(
                        self.steps[d] as usize,
                        self.k,
                        self.starts[d],
                        self.longer_starts[d],
                    )
                    .is_empty()
            });
        }
        (0..4).any(|d| {
            let starts = self.starts[d];
            starts != 0 && starts & runs(stones, self.steps[d], self.k) != 0
        })
    }

    /// The empty cells where one more stone of `stones` makes a line (`empty`:
    /// the empty cells). Under `exact`, `stones` must hold no line (as in every
    /// position of a game not over): each cell where a stone makes `k` or more
    /// is then kept if the set with it holds a line of exactly `k`.
    #[inline]
    pub fn winning_cells(&self, stones: u64, empty: u64) -> u64 {
        let reach = self.reaching_cells(stones, empty);
        if !self.exact || reach == 0 {
            return reach;
        }
        let mut out = 0;
        let mut rest = reach;
        while rest != 0 {
            let cell = rest & rest.wrapping_neg();
            rest ^= cell;
            if self.has_line(stones | cell) {
                out |= cell;
            }
        }
        out
    }

    /// The empty cells where one more stone of `stones` makes `k` or more in a row.
    #[inline]
    fn reaching_cells(&self, stones: u64, empty: u64) -> u64 {
        let mut out = 0;
        for d in 0..4 {
            let starts = self.starts[d];
            if starts != 0 {
                out |= if self.k <= SHORT_LINE {
                    gaps_short(stones, starts, self.steps[d], self.k)
                } else {
                    gaps_long(stones, starts, self.steps[d], self.k)
                };
            }
        }
        out & empty
    }

    /// The cells on a line that holds no stone of `blocked` (where the other
    /// player may still make a line).
    pub fn open_cells(&self, blocked: u64) -> u64 {
        let free = self.board & !blocked;
        let mut out = 0;
        for d in 0..4 {
            if self.starts[d] == 0 {
                continue;
            }
            let s = self.steps[d];
            // Every cell of each open line: its start spread over k cells.
            let mut spread = self.starts[d] & runs(free, s, self.k);
            let mut run = 1;
            while run < self.k {
                let t = run.min(self.k - run) as u32;
                spread |= spread << (t * s);
                run += t as usize;
            }
            out |= spread;
        }
        out & self.board
    }

    /// The number of symmetries (8 for a square, 4 otherwise).
    pub fn symmetry_count(&self) -> usize {
        self.map.len()
    }
}

/// Longest line whose gaps [`gaps_short`] finds (its scratch array).
const SHORT_LINE: usize = 8;

/// The cells that complete a line of `stones` along `step` (lines starting at
/// `starts`, `k <= SHORT_LINE`): prefix and suffix ands, `O(k)` shifts.
#[inline(always)]
fn gaps_short(stones: u64, starts: u64, step: u32, k: usize) -> u64 {
    // suffix[j]: the starts whose cells after j are all stones.
    let mut suffix = [0u64; SHORT_LINE];
    suffix[k - 1] = starts;
    for j in (0..k - 1).rev() {
        suffix[j] = suffix[j + 1] & stones >> ((j + 1) as u32 * step);
    }
    // prefix: the starts whose cells before j are all stones.
    let mut prefix = starts;
    let mut out = 0;
    for (j, &after) in suffix.iter().enumerate().take(k) {
        out |= (prefix & after) << (j as u32 * step);
        prefix &= stones >> (j as u32 * step);
    }
    out
}

/// [`gaps_short`] for any `k`: `O(k^2)` shifts.
fn gaps_long(stones: u64, starts: u64, step: u32, k: usize) -> u64 {
    let mut out = 0;
    for j in 0..k {
        let others = (0..k)
            .filter(|&i| i != j)
            .fold(starts, |m, i| m & stones >> (i as u32 * step));
        out |= others << (j as u32 * step);
    }
    out
}

/// The cells where `k` stones of `stones` start at `step` apart (the doubling
/// trick of `crate::lines`). Bits outside the board's starts mean nothing.
#[inline(always)]
fn runs(stones: u64, step: u32, k: usize) -> u64 {
    Bitboard(stones).line_starts(step as usize, k).0
}

/// The image of cell `(r, c)` of a `w` x `h` board under symmetry `s`: 0
/// identity, 1 left-right mirror, 2 top-bottom mirror, 3 half turn, and on a
/// square 4 transpose, 5 and 6 quarter turns, 7 anti-transpose.
fn image_of(s: usize, r: usize, c: usize, w: usize, h: usize) -> (usize, usize) {
    match s {
        0 => (r, c),
        1 => (r, w - 1 - c),
        2 => (h - 1 - r, c),
        3 => (h - 1 - r, w - 1 - c),
        4 => (c, r),
        5 => (w - 1 - c, r),
        6 => (c, w - 1 - r),
        _ => (w - 1 - c, w - 1 - r),
    }
}

/// The symmetries of a `width` x `height` board: the 8 of the square's dihedral
/// group, or the 4 of a rectangle's (identity, two mirrors, half turn).
fn symmetries(
    width: usize,
    height: usize,
) -> (Vec<[u64; MAX_FREE_CELLS]>, Vec<[u8; MAX_FREE_CELLS]>) {
    let (w, h) = (width, height);
    let count = if w == h { 8 } else { 4 };
    let mut map = Vec::new();
    let mut inverse = Vec::new();
    for s in 0..count {
        let mut to = [0u64; MAX_FREE_CELLS];
        let mut back = [0u8; MAX_FREE_CELLS];
        for r in 0..h {
            for c in 0..w {
                let (ir, ic) = image_of(s, r, c, w, h);
                let (from, onto) = (r * w + c, ir * w + ic);
                to[from] = 1 << onto;
                back[onto] = from as u8;
            }
        }
        map.push(to);
        inverse.push(back);
    }
    (map, inverse)
}
