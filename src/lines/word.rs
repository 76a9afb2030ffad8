//! The line tests of a one-word set of cells ([`Bitboard`], on the spare-bit
//! layout of `crate::layout::Layout`): the freestyle rule's fast path, which the
//! game core, the random playouts and the gravity solver share.

use crate::bitboard::Bitboard;

impl Bitboard {
    /// The first cells of the runs of `k` cells of this set at `step` bits apart:
    /// the doubling trick, `O(log k)` shift-ands. `step * (k - 1)` must stay below
    /// 64, which holds for the `crate::layout::Layout::line_steps`
    /// of the board and its `k`.
    #[inline(always)]
    pub fn line_starts(self, step: usize, k: usize) -> Bitboard {
        let mut m = self.0;
        let mut run = 1;
        while run < k {
            let t = run.min(k - run);
            m &= m >> (t * step);
            run += t;
        }
        Bitboard(m)
    }

    /// The first cells of the runs of exactly `k` cells of this set at `step`
    /// bits apart: runs of `k` starting in `starts` with no cell of the set just
    /// before or just after them on the same line. `longer` holds the first cells
    /// of the board's runs of `k + 1` cells along `step`, so that "just before"
    /// and "just after" never wrap across an edge (on a layout with spare bits,
    /// where nothing wraps, `starts` and `longer` may be every bit).
    #[inline(always)]
    pub fn exact_line_starts(self, step: usize, k: usize, starts: u64, longer: u64) -> Bitboard {
        let runs = self.line_starts(step, k).0 & starts;
        let overlines = self.line_starts(step, k + 1).0 & longer;
        Bitboard(runs & !overlines & !(overlines << step))
    }

    /// Whether the set holds `k` in a row along one of `steps` (0 = no line
    /// along that direction).
    #[inline(always)]
    pub fn has_line(self, steps: [usize; 4], k: usize) -> bool {
        self.line_step(steps, k).is_some()
    }

    /// Whether the set holds four in a row along one of `directions` (the
    /// layout's four, none 0): [`Bitboard::has_line`] for `k = 4` unrolled, two
    /// shift-ands per direction, for the gravity solver. A direction in which
    /// four cells do not fit finds nothing (the spare bits stay empty).
    #[inline(always)]
    pub fn has_four(self, directions: [usize; 4]) -> bool {
        let p = self.0;
        directions.into_iter().any(|d| {
            debug_assert!(d != 0);
            let t = p & (p >> d);
            t & (t >> (2 * d)) != 0
        })
    }

    /// The first of `steps` along which the set holds `k` in a row.
    #[inline(always)]
    pub fn line_step(self, steps: [usize; 4], k: usize) -> Option<usize> {
        steps
            .into_iter()
            .find(|&s| s != 0 && !self.line_starts(s, k).is_empty())
    }
}

/// The cells where one more stone of `stones` completes `k` in a row along one of
/// `steps` (0 = no line along that direction), occupied or not: per direction, the
/// cells with `a` stones right below them and `k - 1 - a` right above, for some `a`
/// (`O(k)` shift-ands each). Bits past the layout's cells may be set: the caller
/// masks with its empty or playable cells. `k <= 64`.
#[inline]
pub(crate) fn winning_cells(stones: u64, steps: [usize; 4], k: usize) -> u64 {
    debug_assert!((1..=64).contains(&k));
    let mut wins = 0u64;
    let mut below = [0u64; 64];
    for step in steps {
        if step == 0 {
            continue;
        }
        below[0] = !0;
        for a in 1..k {
            below[a] = below[a - 1] & stones.checked_shl((a * step) as u32).unwrap_or(0);
        }
        let mut above = !0u64;
        for b in 0..k {
            if b > 0 {
                above &= stones.checked_shr((b * step) as u32).unwrap_or(0);
            }
            wins |= below[k - 1 - b] & above;
        }
    }
    wins
}

/// The cells where one more stone of `stones` completes four in a row on a gravity
/// board of `stride` bits per column ([`winning_cells`] for `k = 4`, unrolled:
/// the gravity solver's hot path). Vertically only the three cells below count:
/// with gravity the cell above a stone is never an empty cell under it. The
/// caller masks with the empty cells; `3 * (stride + 1) < 64`.
#[inline(always)]
pub(crate) fn gravity_winning_cells4(stones: u64, stride: usize) -> u64 {
    debug_assert!(3 * (stride + 1) < 64);
    let (p, h1) = (stones, stride as u32);
    let mut r = (p << 1) & (p << 2) & (p << 3);
    for d in [h1, h1 - 1, h1 + 1] {
        let left2 = (p << d) & (p << (2 * d));
        r |= left2 & (p << (3 * d)); // xxx.
        r |= left2 & (p >> d); // xx.x
        let right2 = (p >> d) & (p >> (2 * d));
        r |= right2 & (p << d); // x.xx
        r |= right2 & (p >> (3 * d)); // .xxx
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gravity_winning_cells4_match_the_general_ones_on_gravity_positions() {
        // Random gravity positions on boards with 3 * (stride + 1) < 64.
        let mut rng = crate::rng::Rng::new(9, 0);
        for (w, h) in [(7, 6), (6, 5), (8, 7), (9, 5), (4, 4)] {
            let layout = crate::layout::Layout::new(w, h, 4);
            for _ in 0..300 {
                let (mut mine, mut all) = (0u64, 0u64);
                for _ in 0..rng.below((w * h) as u32) {
                    let col = rng.below(w as u32) as usize;
                    let filled = (0..h).filter(|&l| all >> layout.bit_from_bottom(col, l) & 1 == 1);
                    let level = filled.count();
                    if level < h {
                        let bit = 1u64 << layout.bit_from_bottom(col, level);
                        all |= bit;
                        if rng.below(2) == 0 {
                            mine |= bit;
                        }
                    }
                }
                let empty = layout.board().0 & !all;
                assert_eq!(
                    gravity_winning_cells4(mine, layout.stride()) & empty,
                    winning_cells(mine, layout.line_steps(), 4) & empty,
                    "{w}x{h} {mine:#x} {all:#x}"
                );
            }
        }
    }

    /// Runs of `k` at `step`, by looking at every start.
    fn brute_starts(x: u64, step: usize, k: usize) -> u64 {
        (0..64)
            .filter(|&b| (0..k).all(|i| b + i * step < 64 && x >> (b + i * step) & 1 == 1))
            .map(|b| 1u64 << b)
            .sum()
    }

    #[test]
    fn line_starts_match_brute_force() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let dense = x | x.rotate_left(7) | x.rotate_left(29);
            for (step, k) in [
                (1, 1),
                (1, 4),
                (7, 4),
                (8, 3),
                (6, 5),
                (1, 9),
                (3, 13),
                (2, 30),
            ] {
                assert_eq!(
                    Bitboard(dense).line_starts(step, k).0,
                    brute_starts(dense, step, k),
                    "{dense:#x} step {step} k {k}"
                );
            }
        }
    }

    /// Runs of exactly `k` at `step` on a `width`-wide board of `cells` cells
    /// (row-major, no spare bits), by walking each start along `(dr, dc)`.
    fn brute_exact(x: u64, width: usize, cells: usize, (dr, dc): (i64, i64), k: usize) -> u64 {
        let (w, h) = (width as i64, (cells / width) as i64);
        let on = |r: i64, c: i64| (0..h).contains(&r) && (0..w).contains(&c);
        let stone = |r: i64, c: i64| on(r, c) && x >> (r * w + c) & 1 == 1;
        let mut out = 0;
        for r in 0..h {
            for c in 0..w {
                let k = k as i64;
                let fits = on(r + dr * (k - 1), c + dc * (k - 1));
                if fits
                    && (0..k).all(|i| stone(r + dr * i, c + dc * i))
                    && !stone(r - dr, c - dc)
                    && !stone(r + dr * k, c + dc * k)
                {
                    out |= 1 << (r * w + c);
                }
            }
        }
        out
    }

    /// The starts of `k`-cell windows along `(dr, dc)` on that board.
    fn window_starts(width: usize, cells: usize, (dr, dc): (i64, i64), k: usize) -> u64 {
        let (w, h, k) = (width as i64, (cells / width) as i64, k as i64);
        let mut out = 0;
        for r in 0..h {
            for c in 0..w {
                let (er, ec) = (r + dr * (k - 1), c + dc * (k - 1));
                if (0..h).contains(&er) && (0..w).contains(&ec) {
                    out |= 1 << (r * w + c);
                }
            }
        }
        out
    }

    #[test]
    fn exact_line_starts_match_brute_force_without_spare_bits() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..400 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let dense = x | x.rotate_left(9);
            for (width, cells, k) in [(7, 49, 5), (8, 64, 5), (5, 25, 4), (4, 16, 3), (6, 42, 4)] {
                let stones = if cells == 64 {
                    dense
                } else {
                    dense & ((1 << cells) - 1)
                };
                for (dr, dc) in [(1i64, 0i64), (0, 1), (1, 1), (1, -1)] {
                    let step = (dr * width as i64 + dc) as usize;
                    let got = Bitboard(stones).exact_line_starts(
                        step,
                        k,
                        window_starts(width, cells, (dr, dc), k),
                        window_starts(width, cells, (dr, dc), k + 1),
                    );
                    assert_eq!(
                        got.0,
                        brute_exact(stones, width, cells, (dr, dc), k),
                        "{stones:#x} {width}x{} k {k} ({dr}, {dc})",
                        cells / width
                    );
                }
            }
        }
    }

    #[test]
    fn has_four_matches_has_line_on_a_layout() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for (w, h) in [(7, 6), (4, 3), (3, 9), (9, 5)] {
            let layout = crate::layout::Layout::new(w, h, 4);
            for _ in 0..2000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let stones = Bitboard(x & x.rotate_left(5) & layout.board().0);
                assert_eq!(
                    stones.has_four(layout.directions()),
                    stones.has_line(layout.line_steps(), 4),
                    "{w}x{h} {stones:?}"
                );
            }
        }
    }

    #[test]
    fn has_line_skips_missing_directions() {
        let row = Bitboard(1 | 1 << 7 | 1 << 14 | 1 << 21);
        assert!(row.has_line([1, 7, 8, 6], 4));
        assert_eq!(row.line_step([1, 7, 8, 6], 4), Some(7));
        assert!(!row.has_line([1, 0, 8, 6], 4));
        assert!(!row.has_line([1, 7, 8, 6], 5));
    }

    #[test]
    fn winning_cells_complete_a_line_by_brute_force() {
        // 7x6 (stride 7): every empty playable cell, tried one by one.
        let layout = crate::layout::Layout::new(7, 6, 4);
        let board = layout.board().0;
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..500 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let stones = x & x.rotate_left(11) & board;
            if Bitboard(stones).has_line(layout.line_steps(), 4) {
                continue; // every cell would "make" the line already there
            }
            let wins = winning_cells(stones, layout.line_steps(), 4) & board & !stones;
            for bit in 0..64 {
                let cell = 1u64 << bit;
                if board & cell == 0 || stones & cell != 0 {
                    continue;
                }
                let makes = Bitboard(stones | cell).has_line(layout.line_steps(), 4);
                assert_eq!(wins & cell != 0, makes, "{stones:#x} bit {bit}");
            }
        }
    }
}
