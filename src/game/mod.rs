//! A game in progress: one stone set per player, the move history, the result.
//!
//! The type and its accessors live here; set-up and validation in `setup`, moves
//! in `play`, observations and masks in `encode`. Where a stone sits and what a
//! line is come from [`Layout`] and [`Cells`].

mod encode;
mod play;
mod setup;
#[cfg(test)]
mod tests;

use std::sync::Arc;

use crate::bitboard::Cells;
use crate::layout::Layout;
use crate::lines::line_is_exact;
use crate::rng::splitmix64;
use crate::rules::{Rules, WinRule};

pub(crate) use setup::validate_cells;

/// The Zobrist key of `player`'s stone on layout `bit` (computed, not tabled,
/// so any board size costs no memory).
#[inline]
fn zobrist(player: usize, bit: usize) -> u64 {
    splitmix64(((player as u64) << 20) ^ bit as u64 ^ 0xD1B5_4A32_D192_ED03)
}

/// A position and its history under fixed [`Rules`].
///
/// Two ways to move: [`Game::play`] checks everything and leaves the game
/// unchanged on error; [`Game::play_unchecked`] trusts the caller (the action
/// must be in [`Game::legal_actions`]); breaking that precondition gives a wrong
/// position, never undefined behaviour.
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    layout: Layout,
    words: usize,
    /// `players * words` words, player-major, in the [`Layout`].
    stones: Vec<u64>,
    /// Stones per column.
    heights: Vec<u8>,
    /// Actions played since construction.
    history: Vec<u16>,
    stones_on_board: usize,
    to_move: usize,
    winner: Option<usize>,
    /// Renju: black is to move and every empty cell is forbidden to black (a draw).
    stalled: bool,
    /// `rules.num_cells()` and `rules.num_actions()`, read by every move.
    num_cells: usize,
    num_actions: usize,
    /// A winner, a full board or a stalled renju game: one flag, read by every move.
    over: bool,
    /// Renju's forbidden cells apply (to black).
    renju: bool,
    /// Players (bit `p`) whose win a move may test on the whole one-word set:
    /// one word, and `k` or more wins (no line existed before the move).
    whole_word_test: u32,
    hash: u64,
    /// The cells the game was set up from (`None`: the empty board).
    setup: Option<Arc<[u8]>>,
}

impl PartialEq for Game {
    /// Same rules, same stones (so the same side to move); history is ignored.
    fn eq(&self, other: &Game) -> bool {
        self.rules == other.rules && self.stones == other.stones
    }
}
impl Eq for Game {}

impl Game {
    /// The empty board.
    pub fn new(rules: Rules) -> Game {
        let layout = Layout::of(&rules);
        let words = layout.words();
        Game {
            rules,
            layout,
            words,
            stones: vec![0; words * rules.players()],
            heights: vec![0; rules.width()],
            history: Vec::new(),
            stones_on_board: 0,
            to_move: 0,
            winner: None,
            stalled: false,
            num_cells: rules.num_cells(),
            num_actions: rules.num_actions(),
            over: false,
            renju: rules.rule() == WinRule::Renju,
            whole_word_test: if words == 1 {
                (0..rules.players())
                    .filter(|&p| !line_is_exact(rules.rule(), p))
                    .fold(0, |mask, p| mask | 1 << p)
            } else {
                0
            },
            hash: 0,
            setup: None,
        }
    }

    /// The cells this game was set up from, if not the empty board.
    pub fn setup_cells(&self) -> Option<&[u8]> {
        self.setup.as_deref()
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    /// Whose turn it is, 0-based (after a game ends: who would move next).
    pub fn to_move(&self) -> usize {
        self.to_move
    }
    /// The winner, 0-based.
    pub fn winner(&self) -> Option<usize> {
        self.winner
    }
    /// No winner and no legal move: the board is full, or (renju) every empty
    /// cell is forbidden to black, who is to move.
    pub fn is_draw(&self) -> bool {
        self.over && self.winner.is_none()
    }
    #[inline]
    pub fn is_over(&self) -> bool {
        self.over
    }
    /// Actions played since the board was built.
    pub fn history(&self) -> &[u16] {
        &self.history
    }
    pub fn stones_on_board(&self) -> usize {
        self.stones_on_board
    }
    /// Zobrist hash of the stones, kept incrementally.
    pub fn hash(&self) -> u64 {
        self.hash
    }
    /// The hash recomputed from scratch (equals [`Game::hash`]; for tests and fuzzing).
    pub fn recompute_hash(&self) -> u64 {
        let mut hash = 0;
        for p in 0..self.rules.players() {
            for bit in self.cells_of(p).bits() {
                hash ^= zobrist(p, bit);
            }
        }
        hash
    }
    /// The stone set of `player` (0-based) as layout words.
    pub fn stones(&self, player: usize) -> &[u64] {
        &self.stones[player * self.words..(player + 1) * self.words]
    }
    pub fn column_height(&self, col: usize) -> usize {
        self.heights[col] as usize
    }

    /// The cells `(row, col)` of the winning line, in order along the line, or `None`.
    /// The whole run through the deciding stone is given (it may be longer than `k`).
    pub fn winning_line(&self) -> Option<Vec<(usize, usize)>> {
        let winner = self.winner?;
        let stones = self.cells_of(winner);
        let candidates: Vec<usize> = match self.last_bit() {
            Some(bit) => vec![bit],
            None => stones.bits().collect(),
        };
        let exact = line_is_exact(self.rules.rule(), winner);
        for bit in candidates {
            if let Some(step) = stones.line_through(bit, &self.layout, exact) {
                let (first, last) = stones.run_through(bit, step, &self.layout);
                let mut cells: Vec<(usize, usize)> = (first..=last)
                    .step_by(step)
                    .map(|b| self.layout.cell(b))
                    .collect();
                cells.sort_unstable_by_key(|&(r, c)| (c, r));
                return Some(cells);
            }
        }
        None
    }

    /// The cell `(row, col)` of the last stone played since construction.
    pub fn last_cell(&self) -> Option<(usize, usize)> {
        self.last_bit().map(|b| self.layout.cell(b))
    }

    /// The stones of `player` as a set of cells.
    #[inline]
    fn cells_of(&self, player: usize) -> Cells<'_> {
        Cells(self.stones(player))
    }
    #[inline]
    fn get(&self, p: usize, bit: usize) -> bool {
        self.stones[p * self.words + bit / 64] >> (bit % 64) & 1 == 1
    }
    #[inline]
    fn set(&mut self, p: usize, bit: usize) {
        self.stones[p * self.words + bit / 64] |= 1 << (bit % 64);
    }
    #[inline]
    fn clear(&mut self, p: usize, bit: usize) {
        self.stones[p * self.words + bit / 64] &= !(1 << (bit % 64));
    }
    #[inline]
    fn occupied(&self, bit: usize) -> bool {
        let (word, mask) = (bit / 64, 1u64 << (bit % 64));
        (0..self.rules.players()).any(|p| self.stones[p * self.words + word] & mask != 0)
    }
}
