//! The solver's own position type: two bitboards and a move count.

use super::error::SolveError;
use super::geometry::Geometry;
use crate::game::{validate_cells, Game};
use crate::rules::Rules;

/// A position of a gravity k-in-a-row game (Connect Four and its relatives).
///
/// Stored as the stones of the player to move (`current`) and all stones (`mask`)
/// in the `Layout` (the crate's private `layout` module). Built only through checked
/// constructors: from a [`Game`] (which validated it), from moves, or from cells
/// checked by the same validator as [`Game::from_cells`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub(crate) geo: Geometry,
    pub(crate) current: u64,
    pub(crate) mask: u64,
    pub(crate) moves: u32,
    /// The player who made the last move has a line: the game is over.
    pub(crate) won: bool,
}

impl Position {
    /// The empty board of `width` columns and `height` rows, line length `k`.
    ///
    /// Limits: `width, height >= 1`, `k >= 1` and `width * (height + 1) <= 64`
    /// (7x6, 8x7, 9x5, 6x8, ... fit; 8x8 does not). Otherwise
    /// [`SolveError::Unsupported`].
    pub fn new(width: usize, height: usize, k: usize) -> Result<Position, SolveError> {
        let geo = Geometry::new(width, height, k)?;
        Ok(Position {
            geo,
            current: 0,
            mask: 0,
            moves: 0,
            won: false,
        })
    }

    /// Whether the solver handles `rules`: 2 players, gravity and a board whose
    /// layout fits one word (`width * (height + 1) <= 64`); otherwise
    /// [`SolveError::Unsupported`] saying why.
    pub fn check_rules(rules: &Rules) -> Result<(), SolveError> {
        Position::geometry_of(rules).map(|_| ())
    }

    fn geometry_of(r: &Rules) -> Result<Geometry, SolveError> {
        if r.players() != 2 || !r.gravity() {
            return Err(SolveError::Unsupported(format!(
                "the solver covers 2 players with gravity, got players={}, gravity={}",
                r.players(),
                if r.gravity() { "True" } else { "False" }
            )));
        }
        Geometry::new(r.width(), r.height(), r.k())
    }

    /// The position of `game`, whose rules must pass [`Position::check_rules`].
    pub fn from_game(game: &Game) -> Result<Position, SolveError> {
        let geo = Position::geometry_of(game.rules())?;
        let (first, second) = (game.stones(0)[0], game.stones(1)[0]);
        let moves = game.stones_on_board() as u32;
        Ok(Position {
            geo,
            current: if game.to_move() == 0 { first } else { second },
            mask: first | second,
            moves,
            won: game.winner().is_some(),
        })
    }

    /// The position after playing the 0-based `moves` from the empty board.
    /// A full column or a column out of range is [`SolveError::IllegalMove`], a
    /// move after the game ended [`SolveError::GameOver`].
    pub fn from_moves(
        width: usize,
        height: usize,
        k: usize,
        moves: &[usize],
    ) -> Result<Position, SolveError> {
        let mut pos = Position::new(width, height, k)?;
        for (i, &col) in moves.iter().enumerate() {
            pos.play(col).map_err(|e| {
                let at = |m: String| format!("move {} (column {col}): {m}", i + 1);
                match e {
                    SolveError::IllegalMove(m) => SolveError::IllegalMove(at(m)),
                    SolveError::GameOver(m) => SolveError::GameOver(at(m)),
                    other => other,
                }
            })?;
        }
        Ok(pos)
    }

    /// A position from its cells, row-major, row 0 = the TOP row: 0 empty,
    /// 1 first player, 2 second player, checked as [`Game::from_cells`] checks
    /// them ([`SolveError::InvalidPosition`]), for any `k >= 1`. If the player who
    /// moved last has a line, the position is over.
    pub fn from_cells(
        width: usize,
        height: usize,
        k: usize,
        cells: &[u8],
    ) -> Result<Position, SolveError> {
        let geo = Geometry::new(width, height, k)?;
        let set_up = validate_cells(&geo.layout, 2, true, crate::WinRule::Freestyle, cells)
            .map_err(|e| SolveError::InvalidPosition(e.0))?;
        let (first, second) = (set_up.stones[0], set_up.stones[1]);
        Ok(Position {
            geo,
            current: if set_up.to_move == 0 { first } else { second },
            mask: first | second,
            moves: set_up.stones_on_board as u32,
            won: set_up.winner.is_some(),
        })
    }

    /// A 7x6, k = 4 position from Pons' notation: 1-based column digits, e.g. `"4453"`
    /// (parsed by [`Game::from_pons`]). Surrounding whitespace is ignored.
    pub fn parse_pons(s: &str) -> Result<Position, SolveError> {
        let game = Game::from_pons(Rules::connect_four(), s)
            .map_err(|e| SolveError::IllegalMove(e.to_string()))?;
        Position::from_game(&game)
    }

    /// Drops a stone of the player to move in column `col` (0-based). Errors
    /// (position unchanged): [`SolveError::GameOver`] once a line was made or the
    /// board is full, [`SolveError::IllegalMove`] for a column out of range or full.
    pub fn play(&mut self, col: usize) -> Result<(), SolveError> {
        if self.is_over() {
            return Err(SolveError::GameOver("the game is already over".into()));
        }
        if col >= self.width() {
            return Err(SolveError::IllegalMove(format!(
                "column {col} out of range (width {})",
                self.width()
            )));
        }
        if !self.can_play(col) {
            return Err(SolveError::IllegalMove(format!("column {col} is full")));
        }
        self.play_unchecked(col);
        Ok(())
    }

    /// Plays `col`, which must satisfy [`Position::can_play`] on a position that is
    /// not over (debug-asserted; otherwise the position is garbage, never UB).
    pub(crate) fn play_unchecked(&mut self, col: usize) {
        debug_assert!(self.can_play(col));
        let bit = self.geo.possible(self.mask) & self.geo.column_mask(col as u32);
        let mover = self.current | bit;
        self.won = self.geo.has_line(mover);
        self.current ^= self.mask;
        self.mask |= bit;
        self.moves += 1;
    }

    /// Whether a stone can be dropped in `col` (in range and not full). Says nothing
    /// about whether the game is over.
    pub fn can_play(&self, col: usize) -> bool {
        col < self.width() && self.mask & self.geo.top_mask(col as u32) == 0
    }

    /// Number of stones on the board.
    pub fn moves(&self) -> usize {
        self.moves as usize
    }

    /// Whether playing `col` now makes a line for the player to move.
    pub fn is_winning_move(&self, col: usize) -> bool {
        !self.is_over()
            && self.can_play(col)
            && self.geo.winning_cells(self.current, self.mask)
                & self.geo.possible(self.mask)
                & self.geo.column_mask(col as u32)
                != 0
    }

    /// Whether playing `col` (legal, not winning at once) lets the opponent win
    /// with the next move: the worst exact score a move can have.
    pub fn lets_opponent_win_at_once(&self, col: usize) -> bool {
        if !self.can_play(col) || self.is_winning_move(col) {
            return false;
        }
        let mut child = *self;
        child.play_unchecked(col);
        !child.is_over() && child.can_win_at_once()
    }

    /// Whether the player to move can make a line with one stone (the game not
    /// being over is the caller's to know).
    pub(crate) fn can_win_at_once(&self) -> bool {
        self.geo.winning_cells(self.current, self.mask) & self.geo.possible(self.mask) != 0
    }

    /// The positions one stone earlier that lead here: the last mover's top stone
    /// taken out of each column where it is theirs (none if the game is over: a
    /// parent would already hold the line). Every position that plays into this one
    /// is among them; a few may be boards no game reaches (a stone of the first
    /// player on top of the second's only one).
    pub fn parents(&self) -> impl Iterator<Item = Position> + '_ {
        let last_mover = self.current ^ self.mask;
        let g = self.geo;
        let columns = if self.is_over() { 0 } else { g.width() };
        (0..columns).filter_map(move |c| {
            let stones = self.mask & g.column_mask(c);
            if stones == 0 {
                return None;
            }
            let top = 1u64 << (63 - stones.leading_zeros());
            (last_mover & top != 0).then_some(Position {
                geo: g,
                current: last_mover ^ top,
                mask: self.mask ^ top,
                moves: self.moves - 1,
                won: false,
            })
        })
    }

    /// Whether the last move made a line (the player to move has lost).
    pub fn is_won(&self) -> bool {
        self.won
    }

    /// Whether the game is over: a line was made or the board is full.
    pub fn is_over(&self) -> bool {
        self.won || self.moves as i32 == self.geo.cells
    }

    /// Board width.
    pub fn width(&self) -> usize {
        self.geo.layout.width()
    }

    /// Board height.
    pub fn height(&self) -> usize {
        self.geo.layout.height()
    }

    /// Line length (values above 65 are stored as 65: no such line fits anyway).
    pub fn k(&self) -> usize {
        self.geo.k as usize
    }

    /// The cells, row-major, row 0 = top: 0 empty, 1 first player, 2 second player
    /// (the inverse of [`Position::from_cells`]).
    pub fn cells(&self) -> Vec<u8> {
        let (w, h) = (self.width(), self.height());
        let first = if self.moves.is_multiple_of(2) {
            self.current
        } else {
            self.current ^ self.mask
        };
        let mut out = vec![0u8; w * h];
        for row in 0..h {
            for col in 0..w {
                let bit = 1u64 << self.geo.layout.bit(row, col);
                if self.mask & bit != 0 {
                    out[row * w + col] = if first & bit != 0 { 1 } else { 2 };
                }
            }
        }
        out
    }
}

impl TryFrom<&Game> for Position {
    type Error = SolveError;

    /// [`Position::from_game`].
    fn try_from(game: &Game) -> Result<Position, SolveError> {
        Position::from_game(game)
    }
}
