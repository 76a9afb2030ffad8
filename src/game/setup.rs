//! Set-up: games built from moves, from cells (validated once, here), or from a
//! Pons move string.

use super::Game;
use crate::bitboard::Cells;
use crate::error::{MoveError, PonsError, PositionError};
use crate::layout::Layout;
use crate::lines::line_is_exact;
use crate::rules::{Rules, WinRule};

/// A position set up from cells and found possible: the stones and what follows
/// from them.
pub(crate) struct SetUp {
    /// `players * layout.words()` words, player-major.
    pub stones: Vec<u64>,
    /// Stones per column.
    pub heights: Vec<u8>,
    pub stones_on_board: usize,
    pub to_move: usize,
    pub winner: Option<usize>,
}

/// The one validator of set-up positions. `cells` are row-major, row 0 the top
/// row, 0 empty and `1..=players` the owner. Refuses impossible positions:
/// unknown owners, floating stones with gravity, stone counts that players
/// moving in turn from player 1 cannot give, lines of several players, or lines
/// that no single last move could complete. Any `k >= 1` (a line longer than
/// both sides can never be made). A line is what `rule` makes one.
pub(crate) fn validate_cells(
    layout: &Layout,
    players: usize,
    gravity: bool,
    rule: WinRule,
    cells: &[u8],
) -> Result<SetUp, PositionError> {
    let (w, h, p) = (layout.width(), layout.height(), players);
    if cells.len() != w * h {
        return Err(PositionError(format!(
            "expected {} cells ({h} rows of {w}), got {}",
            w * h,
            cells.len()
        )));
    }
    let words = layout.words();
    let mut stones = vec![0u64; p * words];
    let mut heights = vec![0u8; w];
    let mut counts = vec![0usize; p];
    for row in 0..h {
        for col in 0..w {
            let v = cells[row * w + col] as usize;
            if v > p {
                return Err(PositionError(format!(
                    "cell (row {row}, col {col}) holds {v}: allowed 0 (empty) or 1..={p}"
                )));
            }
            if v > 0 {
                let bit = layout.bit(row, col);
                stones[(v - 1) * words + bit / 64] |= 1 << (bit % 64);
                counts[v - 1] += 1;
                heights[col] += 1;
            }
        }
    }
    if gravity {
        for (col, &filled) in heights.iter().enumerate() {
            for row in 0..h - filled as usize {
                if cells[row * w + col] != 0 {
                    return Err(PositionError(format!(
                        "cell (row {row}, col {col}) floats above an empty cell: with gravity stones rest on the bottom (row {})",
                        h - 1
                    )));
                }
            }
        }
    }
    let n: usize = counts.iter().sum();
    let expected: Vec<usize> = (0..p).map(|i| n / p + usize::from(i < n % p)).collect();
    if counts != expected {
        return Err(PositionError(format!(
            "stone counts per player {counts:?} are impossible with players moving in turn from player 1: \
             {n} stones give {expected:?}"
        )));
    }
    let of = |q: usize| &stones[q * words..(q + 1) * words];
    let exact = |q: usize| line_is_exact(rule, q);
    let with_lines: Vec<usize> = (0..p)
        .filter(|&q| Cells(of(q)).has_line(layout, exact(q)))
        .collect();
    let winner = match with_lines.as_slice() {
        [] => None,
        [q] => {
            let last = (n + p - 1) % p;
            if *q != last {
                return Err(PositionError(format!(
                    "player {} has a line but player {} moved last",
                    q + 1,
                    last + 1
                )));
            }
            if !one_stone_made_every_line(layout, gravity, exact(last), &heights, of(last).to_vec())
            {
                return Err(PositionError(format!(
                    "player {} has lines that no single last move could have completed",
                    last + 1
                )));
            }
            Some(last)
        }
        many => {
            let names: Vec<String> = many.iter().map(|q| (q + 1).to_string()).collect();
            return Err(PositionError(format!(
                "players {} all have lines: at most one can",
                names.join(", ")
            )));
        }
    };
    Ok(SetUp {
        stones,
        heights,
        stones_on_board: n,
        to_move: n % p,
        winner,
    })
}

/// Whether removing one of the `stones` (a top stone, with gravity) leaves no line.
fn one_stone_made_every_line(
    layout: &Layout,
    gravity: bool,
    exact: bool,
    heights: &[u8],
    mut stones: Vec<u64>,
) -> bool {
    let bits: Vec<usize> = Cells(&stones).bits().collect();
    for bit in bits {
        let (row, col) = layout.cell(bit);
        if gravity && layout.height() - 1 - row != heights[col] as usize - 1 {
            continue;
        }
        let (word, mask) = (bit / 64, 1u64 << (bit % 64));
        stones[word] &= !mask;
        let clean = !Cells(&stones).has_line(layout, exact);
        stones[word] |= mask;
        if clean {
            return true;
        }
    }
    false
}

impl Game {
    /// Plays `actions` in order from the empty board.
    pub fn from_actions(rules: Rules, actions: &[usize]) -> Result<Game, (usize, MoveError)> {
        let mut game = Game::new(rules);
        for (i, &a) in actions.iter().enumerate() {
            game.play(a).map_err(|e| (i, e))?;
        }
        Ok(game)
    }

    /// A position from its cells (row-major, row 0 the top row; 0 empty, 1..=players
    /// the owner). Refuses impossible positions: unknown owners, floating stones with
    /// gravity, stone counts that players moving in turn from player 1 cannot give,
    /// lines of several players, or lines that no single last move could complete.
    /// The history starts empty: [`Game::undo`] cannot go behind this position.
    pub fn from_cells(rules: Rules, cells: &[u8]) -> Result<Game, PositionError> {
        let mut game = Game::new(rules);
        let set_up = validate_cells(
            &game.layout,
            rules.players(),
            rules.gravity(),
            rules.rule(),
            cells,
        )?;
        game.stones = set_up.stones;
        game.hash = game.recompute_hash();
        game.heights = set_up.heights;
        game.stones_on_board = set_up.stones_on_board;
        game.to_move = set_up.to_move;
        game.winner = set_up.winner;
        game.stalled = game.winner.is_none()
            && game.renju_black()
            && game.stones_on_board < rules.num_cells()
            && !game.black_has_a_move();
        game.over =
            game.winner.is_some() || game.stalled || game.stones_on_board == rules.num_cells();
        if game.stones_on_board > 0 {
            game.setup = Some(cells.into());
        }
        Ok(game)
    }

    /// A game from Pascal Pons' move notation: one character per move, the
    /// 1-based action (with gravity: the column), `1`-`9` then `a`-`z` (or `A`-`Z`)
    /// for 10 to 35, e.g. `"4453"`. Surrounding whitespace is ignored. Errors name
    /// the move (0-based) and the character.
    pub fn from_pons(rules: Rules, digits: &str) -> Result<Game, PonsError> {
        let mut game = Game::new(rules);
        let num_actions = rules.num_actions();
        for (index, ch) in digits.trim().chars().enumerate() {
            let action = ch
                .to_digit(36)
                .map(|d| d as usize)
                .filter(|&d| (1..=num_actions).contains(&d))
                .ok_or(PonsError::NotAnAction {
                    index,
                    ch,
                    num_actions,
                })?;
            game.play(action - 1)
                .map_err(|error| PonsError::Illegal { index, ch, error })?;
        }
        Ok(game)
    }
}
