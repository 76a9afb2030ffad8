//! Errors of the core: each names the bad value and what is allowed.

use std::fmt;

/// Why a move (or an undo) was refused. The game is left unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The action is not in `0..num_actions`.
    OutOfRange { action: i128, num_actions: usize },
    /// Gravity: the column is full.
    ColumnFull { column: usize },
    /// Free placement: the cell already holds a stone.
    CellOccupied {
        action: usize,
        row: usize,
        col: usize,
    },
    /// Renju: the cell is forbidden to black, who is to move.
    Forbidden {
        action: usize,
        row: usize,
        col: usize,
        kind: crate::lines::Forbidden,
    },
    /// The game already has a winner or is a draw.
    GameOver { action: usize },
    /// `undo` with no move played since the board was set up.
    NothingToUndo,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::OutOfRange {
                action,
                num_actions,
            } => {
                write!(
                    f,
                    "action {action} is out of range: allowed 0..={}",
                    num_actions - 1
                )
            }
            MoveError::ColumnFull { column } => {
                write!(f, "action {column}: column {column} is full")
            }
            MoveError::CellOccupied { action, row, col } => {
                write!(
                    f,
                    "action {action}: cell (row {row}, col {col}) is occupied"
                )
            }
            MoveError::Forbidden {
                action,
                row,
                col,
                kind,
            } => write!(
                f,
                "action {action}: cell (row {row}, col {col}) is forbidden to black under renju ({kind})"
            ),
            MoveError::GameOver { action } => write!(f, "action {action}: the game is over"),
            MoveError::NothingToUndo => f.write_str("no move to undo"),
        }
    }
}

impl std::error::Error for MoveError {}

/// Why a set-up position was refused (impossible under the rules).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError(pub String);

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PositionError {}

/// Why a Pons move string was refused. The characters are 1-based actions
/// (columns, with gravity): `1`-`9`, then `a`-`z` (or `A`-`Z`) for 10 to 35.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PonsError {
    /// Character `index` (0-based) is not an action of the board.
    NotAnAction {
        index: usize,
        ch: char,
        num_actions: usize,
    },
    /// Character `index` (0-based) names an action that cannot be played there.
    Illegal {
        index: usize,
        ch: char,
        error: MoveError,
    },
}

/// The characters that name actions `1..=n`: `"1..=7"`, `"1..=9 and a..=c"`.
fn pons_alphabet(n: usize) -> String {
    match n {
        0..=9 => format!("1..={n}"),
        10..=35 => format!(
            "1..=9 and a..={}",
            char::from_digit(n as u32, 36).expect("below 36")
        ),
        _ => format!("1..=9 and a..=z (actions 1 to 35 of {n})"),
    }
}

impl fmt::Display for PonsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // Pons strings count from 1 (digits and columns alike): so do their errors.
            PonsError::NotAnAction {
                index,
                ch,
                num_actions,
            } => write!(
                f,
                "digit {} ({ch:?}) is not a column digit: allowed {}",
                index + 1,
                pons_alphabet(*num_actions)
            ),
            PonsError::Illegal { index, ch, error } => {
                write!(f, "digit {} ({ch:?}): ", index + 1)?;
                match error {
                    MoveError::ColumnFull { column } => {
                        write!(f, "column {} is full", column + 1)
                    }
                    MoveError::GameOver { .. } => f.write_str("the game is already over"),
                    other => other.fmt(f),
                }
            }
        }
    }
}

impl std::error::Error for PonsError {}

/// Why an agent could not choose a move.
#[derive(Clone, Debug, PartialEq)]
pub enum AgentError {
    /// The game is over: there is no move to choose.
    GameOver,
    /// The agent does not play these rules (the perfect agent outside the solver).
    Unsupported(String),
    /// A parameter outside its limits.
    InvalidConfig(String),
    /// The solver's table could not be allocated.
    OutOfMemory(String),
    /// The cancel flag was raised.
    Cancelled,
}

impl fmt::Display for AgentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentError::GameOver => f.write_str("the game is over: there is no move to choose"),
            AgentError::Unsupported(m) | AgentError::InvalidConfig(m) => f.write_str(m),
            AgentError::OutOfMemory(m) => write!(f, "out of memory: {m}"),
            AgentError::Cancelled => f.write_str("cancelled"),
        }
    }
}

impl std::error::Error for AgentError {}
