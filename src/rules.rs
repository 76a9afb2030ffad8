//! The rules of one game of the family, validated once.

use std::fmt;

/// Largest accepted `width` and `height` (so at most 4096 cells).
pub const MAX_SIDE: usize = 64;
/// Largest accepted number of players.
pub const MAX_PLAYERS: usize = 16;

/// The rules of a k-in-a-row game: board size, line length, players and gravity.
///
/// Built only through [`Rules::new`], which checks every limit, so code holding a
/// `Rules` never re-checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    width: u8,
    height: u8,
    k: u8,
    players: u8,
    gravity: bool,
}

/// Why a set of rules was refused: every problem found, at once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesError {
    pub problems: Vec<String>,
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.problems.join("; "))
    }
}

impl std::error::Error for RulesError {}

/// One rule value as the caller gave it: an `i64`, or an integer beyond `i64`
/// kept as its exact decimal text so that messages can quote it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuleValue {
    Int(i64),
    Huge(String),
}

impl RuleValue {
    /// The value clamped to `i64` (a huge value is beyond every limit either way).
    fn clamped(&self) -> i64 {
        match self {
            RuleValue::Int(v) => *v,
            RuleValue::Huge(text) if text.starts_with('-') => i64::MIN,
            RuleValue::Huge(_) => i64::MAX,
        }
    }
}

impl fmt::Display for RuleValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleValue::Int(v) => write!(f, "{v}"),
            RuleValue::Huge(text) => f.write_str(text),
        }
    }
}

impl Rules {
    /// Checks the rules: `1 <= width, height <= 64`, `1 <= k <= max(width, height)`,
    /// `2 <= players <= 16`. Takes signed values so that any caller's input can be
    /// reported, negative or huge.
    pub fn new(
        width: i64,
        height: i64,
        k: i64,
        players: i64,
        gravity: bool,
    ) -> Result<Rules, RulesError> {
        Rules::from_values(
            &RuleValue::Int(width),
            &RuleValue::Int(height),
            &RuleValue::Int(k),
            &RuleValue::Int(players),
            gravity,
        )
    }

    /// [`Rules::new`] for values that may lie beyond `i64`: every problem is
    /// reported, each quoting the value exactly as given.
    pub fn from_values(
        width: &RuleValue,
        height: &RuleValue,
        k: &RuleValue,
        players: &RuleValue,
        gravity: bool,
    ) -> Result<Rules, RulesError> {
        let mut problems = Vec::new();
        let (w, h, kk, p) = (
            width.clamped(),
            height.clamped(),
            k.clamped(),
            players.clamped(),
        );
        for (name, given, v) in [("width", width, w), ("height", height, h)] {
            if !(1..=MAX_SIDE as i64).contains(&v) {
                problems.push(format!(
                    "{name}={given} is out of range: allowed 1..={MAX_SIDE}"
                ));
            }
        }
        let longest = w.max(h).clamp(1, MAX_SIDE as i64);
        if kk < 1 {
            problems.push(format!("k={k} must be at least 1"));
        } else if kk > longest {
            problems.push(format!(
                "k={k} is larger than both sides ({width}x{height}): no line could ever be made; allowed 1..={longest}"
            ));
        }
        if !(2..=MAX_PLAYERS as i64).contains(&p) {
            problems.push(format!(
                "players={players} is out of range: allowed 2..={MAX_PLAYERS}"
            ));
        }
        if !problems.is_empty() {
            return Err(RulesError { problems });
        }
        Ok(Rules {
            width: w as u8,
            height: h as u8,
            k: kk as u8,
            players: p as u8,
            gravity,
        })
    }

    /// Connect Four: 7 columns, 6 rows, 4 in a row, 2 players, gravity.
    pub fn connect_four() -> Rules {
        Rules {
            width: 7,
            height: 6,
            k: 4,
            players: 2,
            gravity: true,
        }
    }

    /// Tic-tac-toe: 3x3, 3 in a row, free placement.
    pub fn tic_tac_toe() -> Rules {
        Rules {
            width: 3,
            height: 3,
            k: 3,
            players: 2,
            gravity: false,
        }
    }

    /// Gomoku (free-style): `size`x`size`, 5 in a row, free placement.
    pub fn gomoku(size: i64) -> Result<Rules, RulesError> {
        Rules::new(size, size, 5, 2, false)
    }

    pub fn width(&self) -> usize {
        self.width as usize
    }
    pub fn height(&self) -> usize {
        self.height as usize
    }
    pub fn k(&self) -> usize {
        self.k as usize
    }
    pub fn players(&self) -> usize {
        self.players as usize
    }
    pub fn gravity(&self) -> bool {
        self.gravity
    }
    pub fn num_cells(&self) -> usize {
        self.width() * self.height()
    }
    /// `width` with gravity (an action is a column), `width * height` without
    /// (an action is the cell `row * width + col`, row 0 the top row).
    pub fn num_actions(&self) -> usize {
        if self.gravity {
            self.width()
        } else {
            self.num_cells()
        }
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}x{}, k={}, {} players, {}",
            self.width,
            self.height,
            self.k,
            self.players,
            if self.gravity {
                "gravity"
            } else {
                "free placement"
            }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_are_valid() {
        assert_eq!(Rules::new(7, 6, 4, 2, true).unwrap(), Rules::connect_four());
        assert_eq!(Rules::new(3, 3, 3, 2, false).unwrap(), Rules::tic_tac_toe());
        assert!(Rules::gomoku(19).is_ok());
    }

    #[test]
    fn every_problem_is_reported_at_once() {
        let err = Rules::new(0, 1_000_000_000, 0, 1, true).unwrap_err();
        assert_eq!(err.problems.len(), 4, "{err}");
        assert!(err.to_string().contains("height=1000000000"));
    }

    #[test]
    fn values_beyond_i64_are_quoted_exactly_beside_every_other_problem() {
        let huge = RuleValue::Huge("1180591620717411303424".into());
        let err = Rules::from_values(
            &huge,
            &RuleValue::Int(0),
            &RuleValue::Int(0),
            &RuleValue::Huge("-1180591620717411303424".into()),
            true,
        )
        .unwrap_err();
        assert_eq!(err.problems.len(), 4, "{err}");
        assert!(err.problems[0].starts_with("width=1180591620717411303424 "));
        assert!(err.problems[1].starts_with("height=0 "));
        assert!(err.problems[2].starts_with("k=0 "));
        assert!(err.problems[3].starts_with("players=-1180591620717411303424 "));
    }

    #[test]
    fn display_speaks_no_programming_language() {
        assert_eq!(
            Rules::connect_four().to_string(),
            "7x6, k=4, 2 players, gravity"
        );
        assert_eq!(
            Rules::tic_tac_toe().to_string(),
            "3x3, k=3, 2 players, free placement"
        );
    }

    #[test]
    fn k_longer_than_both_sides_is_refused() {
        assert!(Rules::new(3, 3, 4, 2, false).is_err());
        assert!(Rules::new(3, 5, 4, 2, false).is_ok());
        assert!(Rules::new(64, 64, 64, 16, false).is_ok());
        assert!(Rules::new(65, 1, 1, 2, false).is_err());
        assert!(Rules::new(4, 4, 2, 17, false).is_err());
    }
}
