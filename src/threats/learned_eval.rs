//! A learned evaluation for lines of five: a logistic model of the side to
//! move's chance to win, linear in counts the board and the cell patterns keep.
//!
//! For each side (the mover, then the opponent) the features are its live
//! windows by stone count (1 to 4) and, over the empty cells, how many have each
//! pattern class (a flex four down to two threes in the making) and each line
//! pattern (a block two up to a flex four, one count per direction), and how
//! many have each *shape*: the four directions' patterns as a multiset (330 of
//! them; [`super::learned_shapes`] holds the weights of those a rule's games
//! showed). The model's log-odds, [`SCALE`] units each, is the evaluation. Each
//! rule has its own weights, for black to move and for white (the same where the
//! fit ignores colour), fitted by `scripts/tune_eval.py` to the results of
//! recorded games. Every feature of an empty cell depends on its combination of
//! patterns alone, so the engine keeps one sum per role, updated per move.

use std::sync::OnceLock;

use super::learned_shapes::{ShapeWeight, FREESTYLE_SHAPES, RENJU_SHAPES, STANDARD_SHAPES};
use super::patterns::{class, classify, unpack, BLOCK2, COMBOS, FLEX4};
use crate::rules::WinRule;

/// Live windows counted per side: 1 to `WINDOW_COUNTS` stones.
pub const WINDOW_COUNTS: usize = 4;
/// Classes counted: `class::FLEX4..=class::THREE_2X` (a five on the board is
/// answered by the search before any evaluation).
pub const CLASSES: usize = class::OTHER - class::FLEX4;
/// Line patterns counted: `BLOCK2..=FLEX4`.
pub const LEVELS: usize = (FLEX4 - BLOCK2 + 1) as usize;
/// Features of one side.
pub const SIDE_FEATURES: usize = WINDOW_COUNTS + CLASSES + LEVELS;
/// The features of the weights arrays: a constant 1, the mover's, the opponent's.
pub const FEATURES: usize = 1 + 2 * SIDE_FEATURES;
/// Evaluation units per unit of log-odds.
pub const SCALE: f64 = 1000.0;
/// Shapes: multisets of four patterns of `NONE..=FIVE` (8 levels).
pub const SHAPES: usize = 330;
/// The model's features: [`FEATURES`], then the mover's shape counts and the
/// opponent's.
pub const ALL_FEATURES: usize = FEATURES + 2 * SHAPES;

/// The shapes in order: `[a, b, c, d]` with `a >= b >= c >= d`, by `a`, then
/// `b`, `c`, `d`, each from 0 (`[0, 0, 0, 0]` is shape 0, `[7, 7, 7, 7]` shape
/// 329; `scripts/tune_eval.py` lists them the same way).
fn shapes() -> &'static [[u8; 4]] {
    static LIST: OnceLock<Vec<[u8; 4]>> = OnceLock::new();
    LIST.get_or_init(|| {
        let mut list: Vec<[u8; 4]> = (0..COMBOS as u16)
            .map(unpack)
            .filter(|l| l[0] >= l[1] && l[1] >= l[2] && l[2] >= l[3])
            .collect();
        list.sort_unstable();
        list
    })
}

/// The four patterns of shape `index`, strongest first.
#[cfg(test)]
pub fn shape_levels(index: usize) -> [u8; 4] {
    shapes()[index]
}

/// The index of the shape `levels` (strongest first).
fn shape_index(levels: [u8; 4]) -> usize {
    shapes()
        .binary_search(&levels)
        .expect("patterns of 0..8, strongest first")
}

/// The shape of a combination: the index of its four patterns, strongest first.
#[inline]
pub fn shape_of(combo: u16) -> usize {
    static SHAPE_OF: OnceLock<Vec<u16>> = OnceLock::new();
    SHAPE_OF.get_or_init(|| {
        (0..COMBOS as u16)
            .map(|combo| {
                let mut levels = unpack(combo);
                levels.sort_unstable_by(|a, b| b.cmp(a));
                shape_index(levels) as u16
            })
            .collect()
    })[combo as usize] as usize
}

/// The weights fitted to freestyle games, with black to move and with white
/// (one set for both), each in the order of [`FEATURES`] (log-odds per count).
#[rustfmt::skip]
const FREESTYLE_ANY_COLOUR: [f64; FEATURES] = [
    -0.02118,
    // the mover: windows of 1..4 stones, classes, line patterns
    -0.00749, 0.04654, 0.07467, 0.00000,
    3.19542, 1.76548, -0.65223, -0.94618, -0.37600, -0.26733, -0.28225, -0.12645,
    0.02377, 0.08952, 0.09295, 0.43250, 1.28328, 2.63788,
    // the opponent: windows of 1..4 stones, classes, line patterns
    0.00902, -0.02356, 0.06346, 0.00000,
    -0.51097, -0.85078, -0.33379, -0.08380, 0.51817, 0.40598, 0.19047, 0.30129,
    -0.01356, -0.15961, -0.11543, -0.33391, -0.10536, -0.98113,
];
pub const FREESTYLE: [[f64; FEATURES]; 2] = [FREESTYLE_ANY_COLOUR; 2];

/// The weights fitted to standard games (one set for both colours).
#[rustfmt::skip]
const STANDARD_ANY_COLOUR: [f64; FEATURES] = [
    -0.00862,
    // the mover: windows of 1..4 stones, classes, line patterns
    -0.00778, 0.15025, 1.82590, 0.00000,
    1.77646, 1.56553, -0.49436, -0.97231, -0.20959, -0.08495, -0.27401, -0.03146,
    0.00512, 0.02499, 0.03962, 0.39426, 0.46679, 1.59251,
    // the opponent: windows of 1..4 stones, classes, line patterns
    0.00362, -0.10672, -0.61775, 0.00000,
    -0.29432, -0.91211, -0.00609, 0.17128, 0.14986, 0.21056, 0.07210, 0.43998,
    0.00387, -0.18001, -0.20845, -0.12883, -0.02438, -0.60556,
];
pub const STANDARD: [[f64; FEATURES]; 2] = [STANDARD_ANY_COLOUR; 2];

/// The weights fitted to renju games, per colour to move.
#[rustfmt::skip]
pub const RENJU: [[f64; FEATURES]; 2] = [
    // black to move
    [
        0.59802,
        // the mover: windows of 1..4 stones, classes, line patterns
        0.11021, 0.30227, 1.57436, 0.00000,
        0.34127, 2.41009, 0.38108, -0.35559, -0.41303, -0.14128, -0.34944, 0.03495,
        -0.03062, -0.06944, -0.04807, 0.24885, -0.39591, 1.77231,
        // the opponent: windows of 1..4 stones, classes, line patterns
        0.07932, 0.08043, -0.08266, 0.00000,
        -0.68814, -0.42068, -0.43222, 0.04485, 0.49937, 0.16666, 0.23404, 0.01667,
        -0.03495, -0.07186, -0.06131, -0.46221, -0.14660, -0.41645,
    ],
    // white to move
    [
        0.47101,
        // the mover: windows of 1..4 stones, classes, line patterns
        -0.07682, -0.22702, 0.86655, 0.00000,
        1.27456, 1.27351, -0.25195, -0.71923, -0.35201, -0.11453, -0.21017, -0.02301,
        0.03563, 0.07988, 0.11274, 0.59632, 0.49290, 1.19292,
        // the opponent: windows of 1..4 stones, classes, line patterns
        -0.08835, -0.50594, -0.57916, 0.00000,
        0.11123, -1.03648, -0.45206, 0.21664, 0.72683, 0.24300, 0.42782, 0.00903,
        0.02637, 0.04764, 0.13054, -0.11324, 0.04719, -0.60276,
    ],
];

/// A side's pattern counts over the empty cells: classes, then line patterns.
pub type PatternCounts = [i64; PATTERN_FEATURES];
/// How many pattern counts a side has.
pub const PATTERN_FEATURES: usize = CLASSES + LEVELS;

/// Adds (`sign` 1) or takes off (-1) an empty cell of pattern combination
/// `combo` in `counts`.
pub fn count_combo(counts: &mut PatternCounts, combo: u16, sign: i64) {
    let levels = unpack(combo);
    let c = classify(levels);
    if (class::FLEX4..class::OTHER).contains(&c) {
        counts[c - class::FLEX4] += sign;
    }
    for l in levels {
        if (BLOCK2..=FLEX4).contains(&l) {
            counts[CLASSES + (l - BLOCK2) as usize] += sign;
        }
    }
}

/// The weights in evaluation units, as the engine reads them.
pub struct LearnedTables {
    /// Per colour of the mover (0 black): the constant.
    pub bias: [i64; 2],
    /// Per colour of the mover and role (0 the mover, 1 the opponent): live
    /// windows of 1..4 stones.
    pub windows: [[[i64; WINDOW_COUNTS]; 2]; 2],
    /// Per colour of the mover and role: an empty cell's worth by its pattern
    /// combination.
    pub combo: [[Vec<i32>; 2]; 2],
}

impl LearnedTables {
    /// The tables of `rule`'s weights.
    pub fn for_rule(rule: WinRule) -> &'static LearnedTables {
        static TABLES: [OnceLock<LearnedTables>; 3] = [const { OnceLock::new() }; 3];
        let (at, weights) = match rule {
            WinRule::Freestyle => (0, &FREESTYLE),
            WinRule::Standard => (1, &STANDARD),
            WinRule::Renju => (2, &RENJU),
        };
        let shapes = [FREESTYLE_SHAPES, STANDARD_SHAPES, RENJU_SHAPES][at];
        TABLES[at].get_or_init(|| LearnedTables::from_weights(weights, shapes))
    }

    /// The tables of `weights` and `shapes` (black to move, white to move).
    pub fn from_weights(
        weights: &[[f64; FEATURES]; 2],
        shapes: [&[ShapeWeight]; 2],
    ) -> LearnedTables {
        let mut shape_weights = [[[0.0; SHAPES]; 2]; 2];
        for (colour, list) in shapes.iter().enumerate() {
            for &(role, levels, w) in *list {
                shape_weights[colour][role][shape_index(levels)] += w;
            }
        }
        let units = |w: f64| (w * SCALE).round() as i64;
        let side = |colour: usize, role: usize| {
            &weights[colour][1 + role * SIDE_FEATURES..1 + (role + 1) * SIDE_FEATURES]
        };
        let windows = [0, 1].map(|colour| {
            [0, 1].map(|role| {
                let s = side(colour, role);
                [0, 1, 2, 3].map(|n| units(s[n]))
            })
        });
        let combo = [0, 1].map(|colour| {
            [0, 1].map(|role| {
                let s = &side(colour, role)[WINDOW_COUNTS..];
                (0..COMBOS)
                    .map(|combo| {
                        let mut counts = [0; PATTERN_FEATURES];
                        count_combo(&mut counts, combo as u16, 1);
                        let w: f64 = counts.iter().zip(s).map(|(&n, &w)| n as f64 * w).sum();
                        let shape = shape_weights[colour][role][shape_of(combo as u16)];
                        ((w + shape) * SCALE).round() as i32
                    })
                    .collect()
            })
        });
        LearnedTables {
            bias: [units(weights[0][0]), units(weights[1][0])],
            windows,
            combo,
        }
    }
}
