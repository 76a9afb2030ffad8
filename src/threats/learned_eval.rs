//! A learned evaluation for lines of five: a logistic model of the side to
//! move's chance to win, linear in counts the board and the cell patterns keep.
//!
//! For each side (the mover, then the opponent) the features are its live
//! windows by stone count (1 to 4) and, over the empty cells, how many have each
//! pattern class (a flex four down to two threes in the making) and each line
//! pattern (a block two up to a flex four, one count per direction). The model's
//! log-odds, [`SCALE`] units each, is the evaluation. Each rule has its own
//! weights, for black to move and for white (the same where the fit ignores
//! colour), fitted by `scripts/tune_eval.py` to the results of recorded games.

use std::sync::OnceLock;

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
/// All features: a constant 1, the mover's, the opponent's.
pub const FEATURES: usize = 1 + 2 * SIDE_FEATURES;
/// Evaluation units per unit of log-odds.
pub const SCALE: f64 = 1000.0;

/// The weights fitted to freestyle games, with black to move and with white
/// (one set for both), each in the order of [`FEATURES`] (log-odds per count).
#[rustfmt::skip]
const FREESTYLE_ANY_COLOUR: [f64; FEATURES] = [
    0.29410,
    // the mover: windows of 1..4 stones, classes, line patterns
    -0.01385, -0.09386, 0.16531, 0.00000,
    2.63187, 2.00298, -0.49428, -1.06294, -0.60747, -0.23602, -0.40335, -0.00202,
    0.01107, 0.01948, 0.04669, 0.62311, 0.96478, 2.37347,
    // the opponent: windows of 1..4 stones, classes, line patterns
    0.03897, 0.07580, 0.03448, 0.00000,
    -0.10805, -0.79161, -0.43277, 0.04615, 0.80603, 0.29634, 0.42978, 0.02108,
    -0.01134, -0.03641, -0.05424, -0.59389, -0.05613, -1.05428,
];
pub const FREESTYLE: [[f64; FEATURES]; 2] = [FREESTYLE_ANY_COLOUR; 2];

/// The weights fitted to standard games (one set for both colours).
#[rustfmt::skip]
const STANDARD_ANY_COLOUR: [f64; FEATURES] = [
    0.63503,
    // the mover: windows of 1..4 stones, classes, line patterns
    0.02659, 0.26151, 1.70821, 0.00000,
    1.71687, 1.85691, -0.60481, -1.26943, -0.29688, -0.13479, -0.30876, 0.00702,
    0.01707, -0.01496, -0.04994, 0.22800, 0.35414, 1.53114,
    // the opponent: windows of 1..4 stones, classes, line patterns
    -0.00456, -0.33359, -0.47905, 0.00000,
    -0.22695, -0.66165, -0.22597, 0.31201, 0.56665, 0.24687, 0.37536, 0.01886,
    -0.01910, -0.00332, 0.06935, -0.19707, -0.03431, -0.46189,
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
        TABLES[at].get_or_init(|| LearnedTables::from_weights(weights))
    }

    /// The tables of `weights` (black to move, white to move).
    pub fn from_weights(weights: &[[f64; FEATURES]; 2]) -> LearnedTables {
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
                        (w * SCALE).round() as i32
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
