//! The free-placement board in one word of cells (`Word`: `u64` up to 64
//! cells, `u128` up to 128): where a cell sits, which runs of cells are lines,
//! and the board's symmetries.
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
use super::word::Word;

/// Most cells a free-placement board may have: two 64-bit words (`u128`).
pub const MAX_FREE_CELLS: usize = 128;

/// The board's shape, lines and symmetries (built once per shape), its sets of
/// cells in the word `W`.
#[derive(Clone, Debug)]
pub(crate) struct Geometry<W: Word> {
    pub width: usize,
    pub height: usize,
    pub k: usize,
    /// Whether a line is exactly `k` (the standard rule; an overline is no line)
    /// rather than `k` or more (freestyle), for both players.
    pub exact: bool,
    /// Number of cells.
    pub cells: i32,
    /// Every cell.
    pub board: W,
    /// The step of each direction that can hold a line (vertical, horizontal,
    /// falling, rising); `starts` of the others is 0.
    pub steps: [u32; 4],
    /// The first cells of the lines along each direction.
    pub starts: [W; 4],
    /// The first cells of the runs of `k + 1` cells along each direction (the
    /// exact test's overlines).
    pub longer_starts: [W; 4],
    /// Every line, as its cells, direction by direction.
    pub lines: Vec<W>,
    /// The direction of each line (0..4, the order of `steps`).
    pub line_directions: Vec<u8>,
    /// The board's symmetries (the identity first): `map[s][cell]` is the cell's
    /// image as a one-bit set.
    pub map: Vec<W::PerCell<W>>,
    /// The inverse of each symmetry, as cell numbers.
    pub inverse: Vec<W::PerCell<u8>>,
}

/// Checks a board's shape: sides and `k` at least 1, at most
/// [`MAX_FREE_CELLS`] cells; otherwise [`SolveError::Unsupported`].
pub(crate) fn check_shape(width: usize, height: usize, k: usize) -> Result<(), SolveError> {
    if width == 0 || height == 0 || k == 0 {
        return Err(SolveError::Unsupported(format!(
            "sides and k must be at least 1, got {width}x{height}, k = {k}"
        )));
    }
    if width.saturating_mul(height) > MAX_FREE_CELLS {
        return Err(SolveError::Unsupported(format!(
            "the free-placement solver covers boards of at most {MAX_FREE_CELLS} cells, got \
             {width}x{height} = {} cells",
            width.saturating_mul(height)
        )));
    }
    Ok(())
}

/// Whether a board of `cells` cells fits one 64-bit word (else it takes `u128`).
pub(crate) fn fits_one_word(cells: usize) -> bool {
    cells <= u64::BITS as usize
}

impl<W: Word> Geometry<W> {
    /// The geometry of a `width` x `height` board with lines of `k`, any `k >= 1`,
    /// exactly `k` long where `exact`; boards of more than [`MAX_FREE_CELLS`]
    /// cells (or more than `W` holds) or a zero side are
    /// [`SolveError::Unsupported`].
    pub fn new(
        width: usize,
        height: usize,
        k: usize,
        exact: bool,
    ) -> Result<Geometry<W>, SolveError> {
        check_shape(width, height, k)?;
        let cells = width * height;
        if cells > W::BITS {
            return Err(SolveError::Unsupported(format!(
                "{width}x{height} = {cells} cells do not fit a word of {} bits",
                W::BITS
            )));
        }
        let board = W::below(cells);
        let (w, h) = (width as i64, height as i64);
        // (row step, col step) of vertical, horizontal, falling and rising lines.
        let deltas: [(i64, i64); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
        let mut steps = [0u32; 4];
        let mut starts = [W::ZERO; 4];
        let mut longer_starts = [W::ZERO; 4];
        let mut lines = Vec::new();
        let mut line_directions = Vec::new();
        let kk = k as i64;
        for (d, &(dr, dc)) in deltas.iter().enumerate() {
            steps[d] = (dr * w + dc) as u32;
            for r in 0..h {
                for c in 0..w {
                    if (0..h).contains(&(r + dr * kk)) && (0..w).contains(&(c + dc * kk)) {
                        longer_starts[d] |= W::bit((r * w + c) as usize);
                    }
                    let (er, ec) = (r + dr * (kk - 1), c + dc * (kk - 1));
                    if !(0..h).contains(&er) || !(0..w).contains(&ec) {
                        continue;
                    }
                    starts[d] |= W::bit((r * w + c) as usize);
                    lines.push((0..kk).fold(W::ZERO, |m, i| {
                        m | W::bit(((r + dr * i) * w + c + dc * i) as usize)
                    }));
                    line_directions.push(d as u8);
                }
            }
        }
        let (map, inverse) = symmetries::<W>(width, height);
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
    pub fn has_line(&self, stones: W) -> bool {
        if self.exact {
            return (0..4).any(|d| {
                !stones
                    .exact_line_starts(self.steps[d], self.k, self.starts[d], self.longer_starts[d])
                    .is_empty()
            });
        }
        (0..4).any(|d| {
            let starts = self.starts[d];
            !starts.is_empty() && !(starts & stones.line_starts(self.steps[d], self.k)).is_empty()
        })
    }

    /// The empty cells where one more stone of `stones` makes a line (`empty`:
    /// the empty cells). Under `exact`, `stones` must hold no line (as in every
    /// position of a game not over): each cell where a stone makes `k` or more
    /// is then kept if the set with it holds a line of exactly `k`.
    #[inline]
    pub fn winning_cells(&self, stones: W, empty: W) -> W {
        let reach = self.reaching_cells(stones, empty);
        if !self.exact || reach.is_empty() {
            return reach;
        }
        let mut out = W::ZERO;
        let mut rest = reach;
        while !rest.is_empty() {
            let cell = rest.first_bit();
            rest ^= cell;
            if self.has_line(stones | cell) {
                out |= cell;
            }
        }
        out
    }

    /// The empty cells where one more stone of `stones` makes `k` or more in a row.
    #[inline]
    fn reaching_cells(&self, stones: W, empty: W) -> W {
        let mut out = W::ZERO;
        for d in 0..4 {
            let starts = self.starts[d];
            if !starts.is_empty() {
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
    pub fn open_cells(&self, blocked: W) -> W {
        let free = self.board & !blocked;
        let mut out = W::ZERO;
        for d in 0..4 {
            if self.starts[d].is_empty() {
                continue;
            }
            let s = self.steps[d];
            // Every cell of each open line: its start spread over k cells.
            let mut spread = self.starts[d] & free.line_starts(s, self.k);
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
fn gaps_short<W: Word>(stones: W, starts: W, step: u32, k: usize) -> W {
    // suffix[j]: the starts whose cells after j are all stones.
    let mut suffix = [W::ZERO; SHORT_LINE];
    suffix[k - 1] = starts;
    for j in (0..k - 1).rev() {
        suffix[j] = suffix[j + 1] & stones >> ((j + 1) as u32 * step);
    }
    // prefix: the starts whose cells before j are all stones.
    let mut prefix = starts;
    let mut out = W::ZERO;
    for (j, &after) in suffix.iter().enumerate().take(k) {
        out |= (prefix & after) << (j as u32 * step);
        prefix &= stones >> (j as u32 * step);
    }
    out
}

/// [`gaps_short`] for any `k`: `O(k^2)` shifts.
fn gaps_long<W: Word>(stones: W, starts: W, step: u32, k: usize) -> W {
    let mut out = W::ZERO;
    for j in 0..k {
        let others = (0..k)
            .filter(|&i| i != j)
            .fold(starts, |m, i| m & stones >> (i as u32 * step));
        out |= others << (j as u32 * step);
    }
    out
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
#[allow(clippy::type_complexity)]
fn symmetries<W: Word>(width: usize, height: usize) -> (Vec<W::PerCell<W>>, Vec<W::PerCell<u8>>) {
    let (w, h) = (width, height);
    let count = if w == h { 8 } else { 4 };
    let mut map = Vec::new();
    let mut inverse = Vec::new();
    for s in 0..count {
        let mut to = W::per_cell(W::ZERO);
        let mut back = W::per_cell(0u8);
        for r in 0..h {
            for c in 0..w {
                let (ir, ic) = image_of(s, r, c, w, h);
                let (from, onto) = (r * w + c, ir * w + ic);
                to[from] = W::bit(onto);
                back[onto] = from as u8;
            }
        }
        map.push(to);
        inverse.push(back);
    }
    (map, inverse)
}
