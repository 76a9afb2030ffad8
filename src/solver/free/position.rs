//! The free-placement solver's position: the side to move's stones, all stones,
//! and the shape they lie on.

use super::super::error::SolveError;
use super::geometry::{check_shape, Geometry, MAX_FREE_CELLS};
use super::word::Word;
use crate::game::{validate_cells, Game};
use crate::layout::Layout;
use crate::lines::line_is_exact;
use crate::rules::{Rules, WinRule};

/// A position of a 2-player free-placement k-in-a-row game (tic-tac-toe, m,n,k
/// games) on at most [`MAX_FREE_CELLS`] cells, under the freestyle rule (`k` or
/// more in a row) or the standard rule (exactly `k`, for both players).
///
/// Cell `row * width + col` (row 0 the top row) is bit `row * width + col` of
/// `current` (the side to move's stones) and `mask` (all stones), kept in the
/// widest word; a search takes them into the word its board needs. Built only
/// by checked constructors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FreePosition {
    pub(crate) width: usize,
    pub(crate) height: usize,
    pub(crate) k: usize,
    /// The win rule: [`WinRule::Freestyle`] or [`WinRule::Standard`].
    pub(crate) rule: WinRule,
    pub(crate) current: u128,
    pub(crate) mask: u128,
    pub(crate) moves: u32,
    /// The player who moved last has a line: the game is over.
    pub(crate) won: bool,
}

impl FreePosition {
    /// The empty `width` x `height` board with lines of `k` (the freestyle rule).
    pub fn new(width: usize, height: usize, k: usize) -> Result<FreePosition, SolveError> {
        FreePosition::with_rule(width, height, k, WinRule::Freestyle)
    }

    /// The empty `width` x `height` board with lines of `k` under `rule`
    /// (freestyle or standard; renju is [`SolveError::Unsupported`]).
    pub fn with_rule(
        width: usize,
        height: usize,
        k: usize,
        rule: WinRule,
    ) -> Result<FreePosition, SolveError> {
        check_rule(rule)?;
        check_shape(width, height, k)?;
        Ok(FreePosition {
            width,
            height,
            k,
            rule,
            current: 0,
            mask: 0,
            moves: 0,
            won: false,
        })
    }

    /// Whether the free-placement solver handles `rules`: 2 players, no gravity,
    /// at most [`MAX_FREE_CELLS`] cells, the freestyle or standard rule;
    /// otherwise [`SolveError::Unsupported`] saying why.
    pub fn check_rules(rules: &Rules) -> Result<(), SolveError> {
        check_rule(rules.rule())?;
        if rules.players() != 2 || rules.gravity() {
            return Err(SolveError::Unsupported(format!(
                "the free-placement solver covers 2 players without gravity, got players={}, \
                 gravity={}",
                rules.players(),
                if rules.gravity() { "True" } else { "False" }
            )));
        }
        let cells = rules.width() * rules.height();
        if cells > MAX_FREE_CELLS {
            return Err(SolveError::Unsupported(format!(
                "the solver covers gravity=False boards of at most {MAX_FREE_CELLS} cells, got \
                 width={}, height={}: {cells} cells",
                rules.width(),
                rules.height()
            )));
        }
        check_shape(rules.width(), rules.height(), rules.k())
    }

    /// The position of `game`, whose rules must pass [`FreePosition::check_rules`].
    pub fn from_game(game: &Game) -> Result<FreePosition, SolveError> {
        let r = game.rules();
        FreePosition::check_rules(r)?;
        let layout = Layout::of(r);
        let (w, h) = (r.width(), r.height());
        let mut stones = [0u128; 2];
        for (player, set) in stones.iter_mut().enumerate() {
            for row in 0..h {
                for col in 0..w {
                    let bit = layout.bit(row, col);
                    let word = game.stones(player)[bit / 64];
                    if word >> (bit % 64) & 1 == 1 {
                        *set |= u128::bit(row * w + col);
                    }
                }
            }
        }
        Ok(FreePosition {
            width: w,
            height: h,
            k: r.k(),
            rule: r.rule(),
            current: stones[game.to_move()],
            mask: stones[0] | stones[1],
            moves: game.stones_on_board() as u32,
            won: game.winner().is_some(),
        })
    }

    /// A position from its cells, row-major, row 0 the top row: 0 empty, 1 first
    /// player, 2 second player, checked as [`Game::from_cells`] checks them
    /// ([`SolveError::InvalidPosition`]); the freestyle rule.
    pub fn from_cells(
        width: usize,
        height: usize,
        k: usize,
        cells: &[u8],
    ) -> Result<FreePosition, SolveError> {
        FreePosition::from_cells_with_rule(width, height, k, WinRule::Freestyle, cells)
    }

    /// [`FreePosition::from_cells`] under `rule` (freestyle or standard).
    pub fn from_cells_with_rule(
        width: usize,
        height: usize,
        k: usize,
        rule: WinRule,
        cells: &[u8],
    ) -> Result<FreePosition, SolveError> {
        check_rule(rule)?;
        check_shape(width, height, k)?;
        let layout = Layout::new(width, height, k);
        let set_up = validate_cells(&layout, 2, false, rule, cells)
            .map_err(|e| SolveError::InvalidPosition(e.0))?;
        let mut stones = [0u128; 2];
        for (i, &c) in cells.iter().enumerate() {
            if c > 0 {
                stones[c as usize - 1] |= u128::bit(i);
            }
        }
        Ok(FreePosition {
            width,
            height,
            k,
            rule,
            current: stones[set_up.to_move],
            mask: stones[0] | stones[1],
            moves: set_up.stones_on_board as u32,
            won: set_up.winner.is_some(),
        })
    }

    /// The position after playing `cells` (each `row * width + col`) from the
    /// empty board (the freestyle rule). An occupied or out-of-range cell is
    /// [`SolveError::IllegalMove`], a move after the game ended
    /// [`SolveError::GameOver`].
    pub fn from_moves(
        width: usize,
        height: usize,
        k: usize,
        cells: &[usize],
    ) -> Result<FreePosition, SolveError> {
        FreePosition::from_moves_with_rule(width, height, k, WinRule::Freestyle, cells)
    }

    /// [`FreePosition::from_moves`] under `rule` (freestyle or standard).
    pub fn from_moves_with_rule(
        width: usize,
        height: usize,
        k: usize,
        rule: WinRule,
        cells: &[usize],
    ) -> Result<FreePosition, SolveError> {
        let mut pos = FreePosition::with_rule(width, height, k, rule)?;
        for &cell in cells {
            pos.play(cell)?;
        }
        Ok(pos)
    }

    /// Places a stone of the side to move on `cell` (`row * width + col`). Errors
    /// (position unchanged): [`SolveError::GameOver`] once the game is over,
    /// [`SolveError::IllegalMove`] for a cell out of range or taken. Builds the
    /// board's lines for the test: for setting positions up, not for searches.
    pub fn play(&mut self, cell: usize) -> Result<(), SolveError> {
        if self.is_over() {
            return Err(SolveError::GameOver("the game is already over".into()));
        }
        if cell >= self.cells() {
            return Err(SolveError::IllegalMove(format!(
                "cell {cell} out of range ({} cells)",
                self.cells()
            )));
        }
        if !self.can_play(cell) {
            return Err(SolveError::IllegalMove(format!("cell {cell} is taken")));
        }
        let geo = Geometry::<u128>::new(self.width, self.height, self.k, exact(self.rule))?;
        self.play_unchecked(&geo, cell);
        Ok(())
    }

    /// Plays an empty `cell` of a position that is not over, on `geo` (its shape,
    /// in any word that holds it).
    pub(crate) fn play_unchecked<W: Word>(&mut self, geo: &Geometry<W>, cell: usize) {
        debug_assert!(self.can_play(cell));
        self.won = geo.has_line(W::narrow(self.current) | W::bit(cell));
        self.current ^= self.mask;
        self.mask |= u128::bit(cell);
        self.moves += 1;
    }

    /// The side to move's stones and all stones in the word `W`.
    pub(crate) fn stones<W: Word>(&self) -> (W, W) {
        (W::narrow(self.current), W::narrow(self.mask))
    }

    /// The first player's stones and the second's.
    pub(crate) fn x_and_o<W: Word>(&self) -> (W, W) {
        let (current, mask) = self.stones::<W>();
        if self.moves.is_multiple_of(2) {
            (current, current ^ mask)
        } else {
            (current ^ mask, current)
        }
    }

    /// Whether `cell` is on the board and empty.
    pub fn can_play(&self, cell: usize) -> bool {
        cell < self.cells() && self.mask >> cell & 1 == 0
    }

    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.width * self.height
    }

    /// Stones on the board.
    pub fn moves(&self) -> usize {
        self.moves as usize
    }

    /// Whether the last move made a line (the side to move has lost).
    pub fn is_won(&self) -> bool {
        self.won
    }

    /// Whether the game is over: a line was made or the board is full.
    pub fn is_over(&self) -> bool {
        self.won || self.moves() == self.cells()
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    pub fn k(&self) -> usize {
        self.k
    }

    pub fn rule(&self) -> WinRule {
        self.rule
    }

    /// The cells, row-major, row 0 the top row: 0 empty, 1 first player, 2 second.
    pub fn to_cells(&self) -> Vec<u8> {
        let first = if self.moves.is_multiple_of(2) {
            self.current
        } else {
            self.current ^ self.mask
        };
        (0..self.cells())
            .map(|i| match (self.mask >> i & 1, first >> i & 1) {
                (0, _) => 0,
                (_, 1) => 1,
                _ => 2,
            })
            .collect()
    }
}

/// Refuses the rules the free-placement solver does not play: renju (black's
/// forbidden moves are no part of its search).
fn check_rule(rule: WinRule) -> Result<(), SolveError> {
    if rule == WinRule::Renju {
        return Err(SolveError::Unsupported(
            "the free-placement solver covers rule=\"freestyle\" and rule=\"standard\", not \
             rule=\"renju\" (black's forbidden moves are not searched)"
                .into(),
        ));
    }
    Ok(())
}

/// Whether lines are exactly `k` under `rule` (freestyle or standard: the same
/// for both players).
pub(crate) fn exact(rule: WinRule) -> bool {
    debug_assert_eq!(line_is_exact(rule, 0), line_is_exact(rule, 1));
    line_is_exact(rule, 0)
}
