//! Every cell's line patterns for both players, kept up to date on make and
//! unmake: per cell, direction and player the neighbourhood's key (see
//! [`super::patterns`]), the four directions' patterns packed in one
//! combination, and from those the cell's worth for move ordering and, summed
//! over the empty cells, a pattern evaluation.
//!
//! A stone changes the key of each cell within `reach` of it along the four
//! lines (one ternary digit, for both players), so a move touches at most
//! `8 reach` cells; their patterns are read again from the tables.

use std::sync::{Arc, OnceLock};

use super::learned_eval::{
    count_combo, shape_of, LearnedTables, PatternCounts, PATTERN_FEATURES, SHAPES,
};
use super::patterns::{
    self, class, classify, digit, unpack, PatternTable, BLOCK4, BLOCKED, COMBOS, MINE,
};
use crate::lines::line_is_exact;
use crate::rules::Rules;

/// The four line directions (row step, column step).
pub const DIRECTIONS: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

/// Each player's patterns on every cell (see the module docs).
#[derive(Clone)]
pub struct CellPatterns {
    width: usize,
    height: usize,
    reach: usize,
    /// Per player: the table of its lines (exact or not).
    tables: [Arc<PatternTable>; 2],
    /// `3^digit`.
    pow3: Vec<u32>,
    /// Per cell, direction and player: the neighbourhood's key.
    keys: Vec<[[u32; 2]; 4]>,
    /// Per cell and player: the four directions' patterns, 3 bits each.
    combos: Vec<[u16; 2]>,
    occupied: Vec<bool>,
    /// Per player: the sum of [`Weights::value`] over the empty cells.
    values: [i64; 2],
    /// Per player: the empty cells where its stone would make a four or a five.
    four_cells: [u32; 2],
    weights: &'static Weights,
    /// Where the learned evaluation is kept: its tables, and per player and role
    /// (0 the mover, 1 the opponent) the empty cells' worth summed.
    learned: Option<&'static LearnedTables>,
    learned_sums: [[i64; 2]; 2],
}

impl CellPatterns {
    /// The patterns of an empty board for `rules`, if its `k` has tables
    /// (`4..=MAX_PATTERN_K`).
    pub fn new(rules: &Rules) -> Option<CellPatterns> {
        let k = rules.k();
        if !(4..=patterns::MAX_PATTERN_K).contains(&k) {
            return None;
        }
        let exact = [0, 1].map(|p| line_is_exact(rules.rule(), p));
        let reach = PatternTable::reach(k, exact[0] || exact[1]);
        // Both players read neighbourhoods of one reach: a table of the wider
        // reach where either's lines are exact.
        let tables = [0, 1].map(|p| PatternTable::shared(k, exact[p], reach));
        let (width, height) = (rules.width(), rules.height());
        let mut me = CellPatterns {
            width,
            height,
            reach,
            tables,
            pow3: (0..2 * reach as u32).map(|d| 3u32.pow(d)).collect(),
            keys: vec![[[0; 2]; 4]; width * height],
            combos: vec![[0; 2]; width * height],
            occupied: vec![false; width * height],
            values: [0; 2],
            four_cells: [0; 2],
            weights: Weights::shared(),
            learned: None,
            learned_sums: [[0; 2]; 2],
        };
        me.reset();
        Some(me)
    }

    /// Back to the empty board.
    pub fn reset(&mut self) {
        let reach = self.reach as isize;
        for cell in 0..self.keys.len() {
            let (row, col) = self.row_col(cell);
            for (d, &(dr, dc)) in DIRECTIONS.iter().enumerate() {
                let mut key = 0;
                for offset in (-reach..=reach).filter(|&o| o != 0) {
                    if !self.on_board(row + offset * dr, col + offset * dc) {
                        key += BLOCKED * self.pow3[digit(offset, self.reach)];
                    }
                }
                self.keys[cell][d] = [key; 2];
            }
        }
        self.occupied.fill(false);
        self.values = [0; 2];
        self.four_cells = [0; 2];
        self.learned_sums = [[0; 2]; 2];
        for cell in 0..self.keys.len() {
            for p in 0..2 {
                let levels = [0, 1, 2, 3].map(|d| self.tables[p].level(self.keys[cell][d][p]));
                let combo = pack(levels);
                self.combos[cell][p] = combo;
                self.count(p, combo, 1);
            }
        }
    }

    /// A stone of `player` lands on the empty `cell`.
    #[inline]
    pub fn place(&mut self, cell: usize, player: usize) {
        self.occupied[cell] = true;
        for p in 0..2 {
            self.count(p, self.combos[cell][p], -1);
        }
        self.touch(cell, player, true);
    }

    /// The stone of `player` on `cell` is taken back.
    #[inline]
    pub fn remove(&mut self, cell: usize, player: usize) {
        self.touch(cell, player, false);
        self.occupied[cell] = false;
        for p in 0..2 {
            self.count(p, self.combos[cell][p], 1);
        }
    }

    /// The four directions' patterns of a stone of `player` on `cell`.
    #[cfg(test)]
    pub fn levels(&self, cell: usize, player: usize) -> [u8; 4] {
        unpack(self.combos[cell][player])
    }

    /// The key of `cell`'s neighbourhood along direction `d`, as `player` sees it.
    #[cfg(test)]
    pub fn key(&self, cell: usize, d: usize, player: usize) -> u32 {
        self.keys[cell][d][player]
    }

    /// How promising the empty `cell` is for `player` to play: what it makes for
    /// `player` and what it takes from the other.
    #[inline]
    pub fn order_score(&self, cell: usize, player: usize) -> i64 {
        let w = self.weights;
        let [mine, theirs] = [self.combos[cell][player], self.combos[cell][1 - player]];
        (w.attack[mine as usize] + w.defence[theirs as usize]) as i64
    }

    /// The four directions' patterns of a stone of `player` on `cell`, packed
    /// (see [`patterns::unpack`]).
    #[inline]
    pub fn combo(&self, cell: usize, player: usize) -> u16 {
        self.combos[cell][player]
    }

    /// `player`'s pattern value: [`Weights::value`] summed over the empty cells.
    pub fn value(&self, player: usize) -> i64 {
        self.values[player]
    }

    /// Keeps the learned evaluation's sums of `tables` (None: keeps none).
    pub fn set_learned(&mut self, tables: Option<&'static LearnedTables>) {
        self.learned = tables;
        self.reset_sums();
    }

    /// `player`'s empty cells' worth in the learned evaluation, in `role` (0 the
    /// mover, 1 the opponent); 0 where it is not kept.
    #[inline]
    pub fn learned_sum(&self, player: usize, role: usize) -> i64 {
        self.learned_sums[player][role]
    }

    /// `player`'s counts of classes and line patterns over the empty cells, read
    /// afresh (the learned evaluation's features).
    pub fn pattern_counts(&self, player: usize) -> PatternCounts {
        let mut counts = [0; PATTERN_FEATURES];
        for (cell, combos) in self.combos.iter().enumerate() {
            if !self.occupied[cell] {
                count_combo(&mut counts, combos[player], 1);
            }
        }
        counts
    }

    /// How many of the empty cells have each shape for `player` (see
    /// [`super::learned_eval::shape_of`]), read afresh.
    pub fn shape_counts(&self, player: usize) -> [i64; SHAPES] {
        let mut counts = [0; SHAPES];
        for (cell, combos) in self.combos.iter().enumerate() {
            if !self.occupied[cell] {
                counts[shape_of(combos[player])] += 1;
            }
        }
        counts
    }

    /// The board's cell count (tests).
    #[cfg(test)]
    pub fn cells(&self) -> usize {
        self.combos.len()
    }

    /// Recounts every sum from the cells' combinations.
    fn reset_sums(&mut self) {
        self.values = [0; 2];
        self.four_cells = [0; 2];
        self.learned_sums = [[0; 2]; 2];
        for cell in 0..self.combos.len() {
            if !self.occupied[cell] {
                for p in 0..2 {
                    self.count(p, self.combos[cell][p], 1);
                }
            }
        }
    }

    /// Whether some empty cell would give `player` a four or a five: without
    /// one, `player` has no win by fours (and threatens none).
    #[inline]
    pub fn has_four_cell(&self, player: usize) -> bool {
        self.four_cells[player] > 0
    }

    /// Counts (`sign` 1) or uncounts (-1) an empty cell of combination `combo`
    /// in `player`'s sums.
    #[inline]
    fn count(&mut self, player: usize, combo: u16, sign: i32) {
        let w = self.weights;
        self.values[player] += i64::from(sign * w.value[combo as usize]);
        self.four_cells[player] =
            self.four_cells[player].wrapping_add_signed(sign * i32::from(w.four[combo as usize]));
        if let Some(t) = self.learned {
            // As the mover, `player` moves; as the opponent, the other does.
            let c = combo as usize;
            self.learned_sums[player][0] += i64::from(sign * t.combo[player][0][c]);
            self.learned_sums[player][1] += i64::from(sign * t.combo[1 - player][1][c]);
        }
    }

    /// Each player's neighbours of `cell` along each line get its stone's digit
    /// (added when `add`, else taken off), and their patterns are read again.
    #[inline]
    fn touch(&mut self, cell: usize, player: usize, add: bool) {
        let (row, col) = self.row_col(cell);
        let reach = self.reach as isize;
        let w = self.width as isize;
        for (d, &(dr, dc)) in DIRECTIONS.iter().enumerate() {
            for offset in (-reach..=reach).filter(|&o| o != 0) {
                let (r, c) = (row + offset * dr, col + offset * dc);
                if !self.on_board(r, c) {
                    continue;
                }
                let n = (r * w + c) as usize;
                // The stone lies `-offset` cells from `n`.
                let unit = self.pow3[digit(-offset, self.reach)];
                let keys = &mut self.keys[n][d];
                let deltas = [unit * MINE, unit * BLOCKED];
                for p in 0..2 {
                    let delta = deltas[usize::from(p != player)];
                    keys[p] = if add {
                        keys[p] + delta
                    } else {
                        keys[p] - delta
                    };
                }
                let empty = !self.occupied[n];
                for p in 0..2 {
                    let level = self.tables[p].level(self.keys[n][d][p]);
                    let old = self.combos[n][p];
                    let new = (old & !(7 << (3 * d))) | (u16::from(level) << (3 * d));
                    if new != old {
                        self.combos[n][p] = new;
                        if empty {
                            self.count(p, old, -1);
                            self.count(p, new, 1);
                        }
                    }
                }
            }
        }
    }

    fn row_col(&self, cell: usize) -> (isize, isize) {
        ((cell / self.width) as isize, (cell % self.width) as isize)
    }

    fn on_board(&self, row: isize, col: isize) -> bool {
        (0..self.height as isize).contains(&row) && (0..self.width as isize).contains(&col)
    }
}

/// Four levels packed as a combination.
#[inline]
pub fn pack(levels: [u8; 4]) -> u16 {
    levels
        .iter()
        .enumerate()
        .fold(0, |acc, (d, &l)| acc | (u16::from(l) << (3 * d)))
}

/// What each combination of four patterns is worth: to the player making it
/// (`attack`), to the player stopping it (`defence`), and in the evaluation.
pub struct Weights {
    pub attack: Vec<i32>,
    pub defence: Vec<i32>,
    pub value: Vec<i32>,
    /// Whether the combination holds a four or a five.
    pub four: Vec<bool>,
}

/// Per class (see [`patterns::class`]): ordering's attack and defence, the
/// evaluation's value.
const CLASS_ATTACK: [i32; class::SCORED] = [
    100_000, 20_000, 10_000, 3_000, 800, 5_000, 1_800, 900, 300, 0,
];
const CLASS_DEFENCE: [i32; class::SCORED] =
    [50_000, 10_000, 4_000, 1_200, 350, 2_400, 800, 400, 120, 0];
const CLASS_VALUE: [i32; class::SCORED] = [0, 0, 60, 20, 0, 60, 20, 0, 8, 0];
/// Per direction's level (NONE..FIVE): ordering's and the evaluation's.
const LEVEL_ATTACK: [i32; 8] = [0, 3, 10, 15, 40, 30, 100, 0];
const LEVEL_DEFENCE: [i32; 8] = [0, 1, 5, 8, 20, 15, 50, 0];
const LEVEL_VALUE: [i32; 8] = [0, 0, 0, 0, 2, 0, 0, 0];

impl Weights {
    /// The one table of weights.
    pub fn shared() -> &'static Weights {
        static WEIGHTS: OnceLock<Weights> = OnceLock::new();
        WEIGHTS.get_or_init(|| {
            let by = |class_w: &[i32; class::SCORED], level_w: &[i32; 8]| -> Vec<i32> {
                (0..COMBOS)
                    .map(|combo| {
                        let levels = unpack(combo as u16);
                        class_w[classify(levels)]
                            + levels.iter().map(|&l| level_w[l as usize]).sum::<i32>()
                    })
                    .collect()
            };
            Weights {
                attack: by(&CLASS_ATTACK, &LEVEL_ATTACK),
                defence: by(&CLASS_DEFENCE, &LEVEL_DEFENCE),
                value: by(&CLASS_VALUE, &LEVEL_VALUE),
                four: (0..COMBOS)
                    .map(|combo| unpack(combo as u16).iter().any(|&l| l >= BLOCK4))
                    .collect(),
            }
        })
    }
}
