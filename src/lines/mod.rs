//! What a line is, under each win rule: the one vocabulary the engines ask.
//!
//! The rule ([`WinRule`]) decides which runs of one player's stones are lines:
//!
//! ```text
//!   freestyle   k or more in a row, for every player
//!   standard    exactly k (an overline of k + 1 or more is no line), for every player
//!   renju       black (player 0): exactly five; white: five or more;
//!               and black may not play an overline, a double four or a double three
//! ```
//!
//! Here, one place per encoding of a board:
//!
//! - [`line_is_exact`]: whose lines must be exactly `k` under a rule (every test
//!   below takes it, or serves the freestyle rule only);
//! - multi-word cells on the spare-bit layout (`Cells::line_through`,
//!   `run_through`, `has_line`; this file): `k` or more, or exactly `k`;
//! - one word on the spare-bit layout (`word`): `Bitboard::line_starts`,
//!   `has_line` by doubling, `exact_line_starts` (exact runs, the overline cells
//!   given), [`winning_cells`], and for the gravity solver `k = 4` unrolled
//!   (`Bitboard::has_four`, [`gravity_winning_cells4`]);
//! - the table of windows of `k` cells (`windows`): the windows through each cell,
//!   each window's flanks, the windows each cell flanks, and the exact rule's test
//!   on a window (`WindowTable::flank_holds`: a flank holding the player's stone);
//! - a plain grid of owners (`grid`): [`grid_lines`], `k` or more, any owner type;
//! - renju's forbidden-move judge (`renju`), on a plain grid of its own.
//!
//! Which engine asks which:
//!
//! ```text
//!   engine                                   asks
//!   game (game/play.rs, setup.rs)            Cells::line_through / has_line,
//!                                            line_is_exact; one word freestyle:
//!                                            Bitboard::has_line; renju judge
//!   one-word playouts, simulate and MCTS     Bitboard::has_line, winning_cells
//!     states (word.rs)                       (freestyle on one word only)
//!   win detector (detect.rs)                 grid_lines (freestyle)
//!   gravity solver (solver/geometry.rs)      Bitboard::has_four, gravity_winning_cells4
//!                                            (k = 4), Bitboard::has_line,
//!                                            winning_cells (other k)
//!   free solver (solver/free/geometry.rs)    Bitboard::line_starts, exact_line_starts
//!   agents' board (agents/lines.rs)          WindowTable, flank_holds, line_is_exact,
//!                                            renju judge
//!   threat engine (threats/board.rs)         WindowTable, flanked_by, line_is_exact,
//!                                            renju judge
//!   column prover (threats/columns.rs),      the game's wins_at (the game's test)
//!     greedy agent, MCTS on big boards
//! ```
//!
//! To add a rule, touch: `rules.rs` (the `WinRule` value, its name, number and
//! which rules it fits), this file (whose lines are exact, or a new shape's test
//! on cells), `windows.rs` and `word.rs` where the new shape differs from "`k` or
//! more" and "exactly `k`" (a window's and a word's test), and the Python
//! surface's names (`python/inarow/_native.pyi`'s `_Rule`,
//! `python/inarow/_rule_flags.py`). An engine that cannot play it says so in its
//! `check_rules`.

mod grid;
pub(crate) mod renju;
mod windows;
mod word;

pub(crate) use grid::{grid_lines, GridLines};
pub use renju::Forbidden;
pub(crate) use windows::WindowTable;
pub(crate) use word::{gravity_winning_cells4, winning_cells};

use crate::bitboard::{Bitboard, Cells};
use crate::layout::Layout;
use crate::rules::WinRule;

/// Whether `player`'s (0-based) lines must be exactly `k` long under `rule`
/// (else `k` or more).
#[inline(always)]
pub(crate) fn line_is_exact(rule: WinRule, player: usize) -> bool {
    match rule {
        WinRule::Freestyle => false,
        WinRule::Standard => true,
        WinRule::Renju => player == 0,
    }
}

/// The line tests of a multi-word set need the layout's line directions and `k`.
impl Cells<'_> {
    /// The first of the layout's line directions along which `bit` (a cell of
    /// the set) lies on a line (`k` in a row; exactly `k` where `exact`), by
    /// walking from it.
    pub fn line_through(self, bit: usize, layout: &Layout, exact: bool) -> Option<usize> {
        debug_assert_eq!(self.0.len(), layout.words());
        let k = layout.k();
        layout.line_steps().into_iter().find(|&step| {
            if step == 0 {
                return false;
            }
            if exact {
                // Capped at k each way: the sum is k exactly when the run is.
                let up = self.run_from::<true>(bit, step, k);
                return up + 1 + self.run_from::<false>(bit, step, k) == k;
            }
            let up = self.run_from::<true>(bit, step, k - 1);
            up + 1 + self.run_from::<false>(bit, step, k - 1 - up) >= k
        })
    }

    /// The whole run of the set through `bit` along `step`: its first and last bit.
    pub fn run_through(self, bit: usize, step: usize, layout: &Layout) -> (usize, usize) {
        debug_assert_eq!(self.0.len(), layout.words());
        let down = self.run_from::<false>(bit, step, usize::MAX);
        let up = self.run_from::<true>(bit, step, usize::MAX);
        (bit - down * step, bit + up * step)
    }

    /// Whether the set holds a line anywhere (`k` in a row; exactly `k` where `exact`).
    pub fn has_line(self, layout: &Layout, exact: bool) -> bool {
        if let ([word], false) = (self.0, exact) {
            return Bitboard(*word).has_line(layout.line_steps(), layout.k());
        }
        self.bits()
            .any(|b| self.line_through(b, layout, exact).is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    /// The cells of `rows` ("x" a stone) as layout words.
    fn cells(layout: &Layout, rows: &[&str]) -> Vec<u64> {
        let mut words = vec![0u64; layout.words()];
        for (r, line) in rows.iter().enumerate() {
            for (c, ch) in line.chars().enumerate() {
                if ch == 'x' {
                    let b = layout.bit(r, c);
                    words[b / 64] |= 1 << (b % 64);
                }
            }
        }
        words
    }

    #[test]
    fn exact_lines_refuse_overlines_and_accept_exact_runs() {
        let layout = Layout::of(&Rules::new(9, 3, 5, 2, false).unwrap());
        let six = cells(&layout, &["xxxxxx...", ".........", "........."]);
        let five = cells(&layout, &["xxxxx....", ".........", "........."]);
        assert!(Cells(&six).has_line(&layout, false));
        assert!(!Cells(&six).has_line(&layout, true));
        assert!(Cells(&five).has_line(&layout, true));
        // A six beside an exact five elsewhere: the five is a line.
        let both = cells(&layout, &["xxxxxx...", ".........", "xxxxx...."]);
        assert!(Cells(&both).has_line(&layout, true));
        assert_eq!(
            Cells(&six).line_through(layout.bit(0, 2), &layout, true),
            None
        );
        assert!(Cells(&five)
            .line_through(layout.bit(0, 4), &layout, true)
            .is_some());
    }

    #[test]
    fn who_must_be_exact() {
        assert!(!line_is_exact(WinRule::Freestyle, 0));
        assert!(line_is_exact(WinRule::Standard, 0) && line_is_exact(WinRule::Standard, 2));
        assert!(line_is_exact(WinRule::Renju, 0) && !line_is_exact(WinRule::Renju, 1));
    }
}
