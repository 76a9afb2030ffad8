//! The solver's own position type: two bitboards and a move count.

use super::geometry::Geometry;
use super::SolveError;

/// A position of a gravity k-in-a-row game (Connect Four and its relatives).
///
/// Stored as the stones of the player to move (`current`) and all stones (`mask`),
/// see the private `solver::geometry` module for the bit layout. Built only through checked
/// constructors, so every `Position` is reachable from the empty board (except that
/// [`Position::from_cells`] cannot check the move order, only counts and gravity).
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

    /// The position after playing the 0-based `moves` from the empty board.
    /// A full column, a column out of range, or a move after the game ended is
    /// [`SolveError::InvalidConfig`].
    pub fn from_moves(
        width: usize,
        height: usize,
        k: usize,
        moves: &[usize],
    ) -> Result<Position, SolveError> {
        let mut pos = Position::new(width, height, k)?;
        for (i, &col) in moves.iter().enumerate() {
            pos.play(col).map_err(|e| match e {
                SolveError::InvalidConfig(m) => {
                    SolveError::InvalidConfig(format!("move {} (column {col}): {m}", i + 1))
                }
                other => other,
            })?;
        }
        Ok(pos)
    }

    /// A position from its cells, row-major, row 0 = the TOP row: 0 empty,
    /// 1 first player, 2 second player. Checked: the length, the values, gravity (no
    /// stone above an empty cell), the stone counts (the first player has as many
    /// stones as the second, or one more), and that the player to move has no line.
    /// If the player who moved last has a line, the position is over.
    pub fn from_cells(
        width: usize,
        height: usize,
        k: usize,
        cells: &[u8],
    ) -> Result<Position, SolveError> {
        let geo = Geometry::new(width, height, k)?;
        if cells.len() != width * height {
            return Err(SolveError::InvalidConfig(format!(
                "expected {} cells for a {width}x{height} board, got {}",
                width * height,
                cells.len()
            )));
        }
        let (mut first, mut second) = (0u64, 0u64);
        for (i, &v) in cells.iter().enumerate() {
            let (row, col) = (i / width, i % width);
            let bit = 1u64 << (col as u32 * geo.h1 + (height - 1 - row) as u32);
            match v {
                0 => {}
                1 => first |= bit,
                2 => second |= bit,
                _ => {
                    return Err(SolveError::InvalidConfig(format!(
                        "cell (row {row}, column {col}) has value {v}; expected 0, 1 or 2"
                    )))
                }
            }
        }
        let mask = first | second;
        // Gravity: each column's stones form a run from the bottom, i.e. mask + bottom
        // has exactly one bit per column (the lowest empty cell or the spare bit).
        let heads = mask.wrapping_add(geo.bottom);
        for c in 0..geo.width {
            let ones = 1u64.checked_shl(geo.h1).map_or(!0, |v| v - 1);
            let col_bits = ones << (c * geo.h1);
            if (heads & col_bits).count_ones() != 1 || heads & mask & col_bits != 0 {
                return Err(SolveError::InvalidConfig(format!(
                    "column {c} has a stone above an empty cell"
                )));
            }
        }
        let (n1, n2) = (first.count_ones(), second.count_ones());
        if n1 != n2 && n1 != n2 + 1 {
            return Err(SolveError::InvalidConfig(format!(
                "the first player has {n1} stones and the second {n2}: not a reachable position"
            )));
        }
        let moves = n1 + n2;
        let (current, last) = if n1 == n2 {
            (first, second)
        } else {
            (second, first)
        };
        if geo.has_line(current) {
            return Err(SolveError::InvalidConfig(
                "the player to move already has a line: not a reachable position".into(),
            ));
        }
        Ok(Position {
            geo,
            current,
            mask,
            moves,
            won: geo.has_line(last),
        })
    }

    /// A 7x6, k = 4 position from Pons' notation: 1-based column digits, e.g. `"4453"`.
    /// Surrounding whitespace is ignored.
    pub fn parse_pons(s: &str) -> Result<Position, SolveError> {
        let mut moves = Vec::with_capacity(s.len());
        for ch in s.trim().chars() {
            match ch.to_digit(10) {
                Some(d) if (1..=7).contains(&d) => moves.push(d as usize - 1),
                _ => {
                    return Err(SolveError::InvalidConfig(format!(
                        "bad character {ch:?} in Pons move string (expected digits 1-7)"
                    )))
                }
            }
        }
        Position::from_moves(7, 6, 4, &moves)
    }

    /// Drops a stone of the player to move in column `col` (0-based). Errors
    /// ([`SolveError::InvalidConfig`], position unchanged): column out of range, full
    /// column, or the game is already over (a line was made or the board is full).
    pub fn play(&mut self, col: usize) -> Result<(), SolveError> {
        if self.is_over() {
            return Err(SolveError::InvalidConfig("the game is already over".into()));
        }
        if col >= self.geo.width as usize {
            return Err(SolveError::InvalidConfig(format!(
                "column {col} out of range (width {})",
                self.geo.width
            )));
        }
        if !self.can_play(col) {
            return Err(SolveError::InvalidConfig(format!("column {col} is full")));
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
        col < self.geo.width as usize && self.mask & self.geo.top_mask(col as u32) == 0
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
        self.geo.width as usize
    }

    /// Board height.
    pub fn height(&self) -> usize {
        self.geo.height as usize
    }

    /// Line length (values above 65 are stored as 65: no such line fits anyway).
    pub fn k(&self) -> usize {
        self.geo.k as usize
    }

    /// The cells, row-major, row 0 = top: 0 empty, 1 first player, 2 second player
    /// (the inverse of [`Position::from_cells`]).
    pub fn cells(&self) -> Vec<u8> {
        let (w, h) = (self.width(), self.height());
        let first = if self.moves % 2 == 0 {
            self.current
        } else {
            self.current ^ self.mask
        };
        let mut out = vec![0u8; w * h];
        for row in 0..h {
            for col in 0..w {
                let bit = 1u64 << (col as u32 * self.geo.h1 + (h - 1 - row) as u32);
                if self.mask & bit != 0 {
                    out[row * w + col] = if first & bit != 0 { 1 } else { 2 };
                }
            }
        }
        out
    }
}
