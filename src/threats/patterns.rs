//! Line patterns: what a stone of one player on an empty cell makes along one
//! line (a five, a four, a three, a two, open or blocked), read from a table
//! indexed by the cell's neighbourhood on that line.
//!
//! A cell's *neighbourhood* on a line is the `reach` cells on each side of it
//! (`k - 1` under freestyle, `k` where a player's lines are exact: the flanks of
//! every window through the cell lie within). Seen by one player each neighbour
//! is empty, the player's stone (*mine*), or blocked (the other's stone or off
//! the board): a ternary digit, and the neighbourhood a number below
//! `3^(2 reach)`. Only lines through the cell count: with the player's stone on
//! it,
//!
//! ```text
//!   fours(s)   the empty cells of s completing a line through the cell (0, 1, 2+)
//!   five       s holds a line through the cell
//!   flex four  fours(s) >= 2          block four   fours(s) = 1
//!   flex three some empty e gives fours(s + e) >= 2; block three: = 1
//!   flex two   some e gives a flex three's test >= 2; block two: = 1
//! ```
//!
//! A line is `k` or more in a row, or exactly `k` for a player whose lines are
//! exact (the window test of [`WindowTable`] with its flanks: the rule's one
//! test). The table is built once per `k` and exactness, each level from the
//! levels of the neighbourhoods holding one more stone.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use crate::lines::WindowTable;

/// A direction's pattern, weakest first: the stone makes nothing worth naming.
pub const NONE: u8 = 0;
pub const BLOCK2: u8 = 1;
pub const FLEX2: u8 = 2;
pub const BLOCK3: u8 = 3;
pub const FLEX3: u8 = 4;
pub const BLOCK4: u8 = 5;
pub const FLEX4: u8 = 6;
pub const FIVE: u8 = 7;

/// The largest `k` with a pattern table (`3^(2k)` neighbourhoods under an exact rule).
pub const MAX_PATTERN_K: usize = 6;

/// A neighbour as one player sees it (the ternary digit).
pub const EMPTY: u32 = 0;
pub const MINE: u32 = 1;
pub const BLOCKED: u32 = 2;

/// The pattern of every neighbourhood, for one `k` and one exactness.
pub struct PatternTable {
    levels: Vec<u8>,
}

impl PatternTable {
    /// The shared table for lines of `k` (`4..=MAX_PATTERN_K`), exact or not,
    /// over neighbourhoods of `reach` cells a side (at least [`PatternTable::reach`]).
    pub fn shared(k: usize, exact: bool, reach: usize) -> Arc<PatternTable> {
        type Tables = Mutex<HashMap<(usize, bool, usize), Arc<PatternTable>>>;
        static TABLES: OnceLock<Tables> = OnceLock::new();
        let tables = TABLES.get_or_init(|| Mutex::new(HashMap::new()));
        let mut tables = tables.lock().unwrap_or_else(|e| e.into_inner());
        Arc::clone(
            tables
                .entry((k, exact, reach))
                .or_insert_with(|| Arc::new(PatternTable::build(k, exact, reach))),
        )
    }

    /// The fewest neighbours on each side of a cell that its lines of `k` reach
    /// (with the flanks of the windows through it, where exact).
    pub fn reach(k: usize, exact: bool) -> usize {
        if exact {
            k
        } else {
            k - 1
        }
    }

    /// The pattern of neighbourhood `key`.
    #[inline]
    pub fn level(&self, key: u32) -> u8 {
        self.levels[key as usize]
    }

    fn build(k: usize, exact: bool, reach: usize) -> PatternTable {
        assert!((4..=MAX_PATTERN_K).contains(&k), "pattern tables: k = {k}");
        assert!(reach >= PatternTable::reach(k, exact) && reach <= MAX_PATTERN_K);
        let digits = 2 * reach;
        let states = 3usize.pow(digits as u32);
        let pow3: Vec<usize> = (0..digits).map(|d| 3usize.pow(d as u32)).collect();
        // The line: 2 reach + 1 cells, the cell itself in the middle.
        let len = 2 * reach + 1;
        let windows = WindowTable::new(len, 1, k, exact);
        let through = windows.through(reach).to_vec();
        let cell_of_digit = |d: usize| if d < reach { d } else { d + 1 };
        let mut fours = vec![0u8; states];
        let mut five = vec![false; states];
        let mut line = vec![EMPTY; len];
        for s in 0..states {
            let mut rest = s;
            for d in 0..digits {
                line[cell_of_digit(d)] = (rest % 3) as u32;
                rest /= 3;
            }
            line[reach] = MINE;
            // The live windows through the cell: fives and the cells completing one.
            let mut found = [usize::MAX; 2];
            for &wi in &through {
                let wi = wi as usize;
                let cells = windows.window(wi).cells(k);
                if exact && windows.flank_holds(wi, |f| line[f] == MINE) {
                    continue;
                }
                let (mut mine, mut gap, mut blocked) = (0, usize::MAX, false);
                for c in cells {
                    match line[c] {
                        MINE => mine += 1,
                        BLOCKED => blocked = true,
                        _ => gap = c,
                    }
                }
                if blocked {
                    continue;
                }
                if mine == k {
                    five[s] = true;
                } else if mine == k - 1 && !found.contains(&gap) {
                    if found[0] == usize::MAX {
                        found[0] = gap;
                    } else {
                        found[1] = gap;
                    }
                }
            }
            fours[s] = found.iter().filter(|&&g| g != usize::MAX).count() as u8;
        }
        // threes(s) = the most fours of s plus one stone; twos(s) likewise of threes.
        // A stone raises the key, so a descending pass has the larger keys done.
        let mut threes = vec![0u8; states];
        let mut twos = vec![0u8; states];
        for s in (0..states).rev() {
            let (mut t, mut u) = (0, 0);
            let mut rest = s;
            for &p in &pow3 {
                if rest % 3 == EMPTY as usize {
                    t = t.max(fours[s + p]);
                    u = u.max(threes[s + p]);
                }
                rest /= 3;
            }
            threes[s] = t;
            twos[s] = u;
        }
        let levels = (0..states)
            .map(|s| {
                if five[s] {
                    FIVE
                } else if fours[s] > 0 {
                    BLOCK4 + (fours[s] - 1)
                } else if threes[s] > 0 {
                    BLOCK3 + (threes[s] - 1)
                } else if twos[s] > 0 {
                    BLOCK2 + (twos[s] - 1)
                } else {
                    NONE
                }
            })
            .collect();
        PatternTable { levels }
    }
}

/// The digit of the neighbour `offset` cells from a cell (`offset != 0`,
/// `|offset| <= reach`), lowest first from the far side of negative offsets.
#[inline]
pub fn digit(offset: isize, reach: usize) -> usize {
    if offset < 0 {
        (offset + reach as isize) as usize
    } else {
        (offset + reach as isize - 1) as usize
    }
}

/// A cell's class by its four directions' patterns (Rapfi's "pattern4" in
/// spirit), strongest first; `SCORED` counts them.
pub mod class {
    pub const FIVE: usize = 0;
    /// A flex four, or two fours.
    pub const FLEX4: usize = 1;
    pub const BLOCK4_FLEX3: usize = 2;
    /// A block four with a block three or a flex two.
    pub const BLOCK4_PLUS: usize = 3;
    pub const BLOCK4: usize = 4;
    pub const FLEX3_2X: usize = 5;
    /// A flex three with a block three or a flex two.
    pub const FLEX3_PLUS: usize = 6;
    pub const FLEX3: usize = 7;
    /// Two of block three and flex two (a three and a three in the making).
    pub const THREE_2X: usize = 8;
    pub const OTHER: usize = 9;
    pub const SCORED: usize = 10;
}

/// The class of a cell whose four directions' patterns are `levels`.
pub fn classify(levels: [u8; 4]) -> usize {
    let mut n = [0usize; 8];
    for l in levels {
        n[l as usize] += 1;
    }
    let minor = n[BLOCK3 as usize] + n[FLEX2 as usize];
    if n[FIVE as usize] > 0 {
        class::FIVE
    } else if n[FLEX4 as usize] > 0 || n[BLOCK4 as usize] >= 2 {
        class::FLEX4
    } else if n[BLOCK4 as usize] == 1 {
        if n[FLEX3 as usize] > 0 {
            class::BLOCK4_FLEX3
        } else if minor > 0 {
            class::BLOCK4_PLUS
        } else {
            class::BLOCK4
        }
    } else if n[FLEX3 as usize] >= 2 {
        class::FLEX3_2X
    } else if n[FLEX3 as usize] == 1 {
        if minor > 0 {
            class::FLEX3_PLUS
        } else {
            class::FLEX3
        }
    } else if minor >= 2 {
        class::THREE_2X
    } else {
        class::OTHER
    }
}

/// The four levels packed in a cell's combination (3 bits a direction).
#[inline]
pub fn unpack(combo: u16) -> [u8; 4] {
    [0, 1, 2, 3].map(|d| ((combo >> (3 * d)) & 7) as u8)
}

/// How many combinations of four levels there are.
pub const COMBOS: usize = 1 << 12;
