//! The rules of one game of the family, validated once.

use std::fmt;

/// Largest accepted `width` and `height` (so at most 4096 cells).
pub const MAX_SIDE: usize = 64;
/// Largest accepted number of players.
pub const MAX_PLAYERS: usize = 16;

/// What completes a line, gomoku's tournament rules (Gomocup's `INFO rule`).
///
/// - `Freestyle`: `k` or more in a row win, for everyone (the family's rule).
/// - `Standard`: exactly `k` win, for everyone; an overline (more than `k`) is no
///   line and does not end the game.
/// - `Renju` (2 players, `k = 5`, free placement): black (the first player) wins
///   with exactly five and may not play an overline, a double four or a double
///   three (those cells are forbidden to black, unless the move makes exactly
///   five); white wins with five or more. The line tests live in `src/lines/`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum WinRule {
    #[default]
    Freestyle,
    Standard,
    Renju,
}

impl WinRule {
    /// Every rule, in the order of their codes.
    pub const ALL: [WinRule; 3] = [WinRule::Freestyle, WinRule::Standard, WinRule::Renju];

    /// The rule's name as Python spells it: `"freestyle"`, `"standard"`, `"renju"`.
    pub fn name(self) -> &'static str {
        match self {
            WinRule::Freestyle => "freestyle",
            WinRule::Standard => "standard",
            WinRule::Renju => "renju",
        }
    }

    /// The rule of a name (`"freestyle"`, `"standard"`, `"renju"`).
    pub fn from_name(name: &str) -> Option<WinRule> {
        WinRule::ALL.into_iter().find(|r| r.name() == name)
    }

    /// The rule's number in Gomocup's `INFO rule` (0 freestyle, 1 exactly five,
    /// 4 renju), also its byte in the saved formats.
    pub fn code(self) -> u8 {
        match self {
            WinRule::Freestyle => 0,
            WinRule::Standard => 1,
            WinRule::Renju => 4,
        }
    }

    /// The rule of a code (see [`WinRule::code`]).
    pub fn from_code(code: u8) -> Option<WinRule> {
        WinRule::ALL.into_iter().find(|r| r.code() == code)
    }

    /// Every rule's name, for messages: `"freestyle", "standard", "renju"`.
    pub fn names() -> String {
        let names: Vec<String> = WinRule::ALL
            .iter()
            .map(|r| format!("{:?}", r.name()))
            .collect();
        names.join(", ")
    }
}

impl fmt::Display for WinRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The rules of a k-in-a-row game: board size, line length, players, gravity and
/// the win rule.
///
/// Built only through [`Rules::new`] or [`Rules::from_values`], which check every
/// limit, so code holding a `Rules` never re-checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    width: u8,
    height: u8,
    k: u8,
    players: u8,
    gravity: bool,
    rule: WinRule,
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
            WinRule::Freestyle,
        )
    }

    /// These rules under `rule`: `Standard` takes any rules; `Renju` needs 2
    /// players, `k = 5` and free placement.
    pub fn with_rule(self, rule: WinRule) -> Result<Rules, RulesError> {
        let problems = rule_problems(rule, self.k as i64, self.players as i64, self.gravity);
        if !problems.is_empty() {
            return Err(RulesError { problems });
        }
        Ok(Rules { rule, ..self })
    }

    /// [`Rules::new`] with a win rule, for values that may lie beyond `i64`: every
    /// problem is reported, each quoting the value exactly as given.
    pub fn from_values(
        width: &RuleValue,
        height: &RuleValue,
        k: &RuleValue,
        players: &RuleValue,
        gravity: bool,
        rule: WinRule,
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
        problems.extend(rule_problems(rule, kk, p, gravity));
        if !problems.is_empty() {
            return Err(RulesError { problems });
        }
        Ok(Rules {
            width: w as u8,
            height: h as u8,
            k: kk as u8,
            players: p as u8,
            gravity,
            rule,
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
            rule: WinRule::Freestyle,
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
            rule: WinRule::Freestyle,
        }
    }

    /// Gomoku (free-style): `size`x`size`, 5 in a row, free placement.
    pub fn gomoku(size: i64) -> Result<Rules, RulesError> {
        Rules::new(size, size, 5, 2, false)
    }

    /// Gomoku under `rule`: `size`x`size`, 5 in a row, free placement.
    pub fn gomoku_with(size: i64, rule: WinRule) -> Result<Rules, RulesError> {
        let v = RuleValue::Int(size);
        Rules::from_values(&v, &v, &RuleValue::Int(5), &RuleValue::Int(2), false, rule)
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
    /// What completes a line (see [`WinRule`]).
    #[inline(always)]
    pub fn rule(&self) -> WinRule {
        self.rule
    }
    /// Whether a line is `k` or more for everyone (the freestyle rule, the
    /// family's default): the engines' fast paths hold only then.
    #[inline(always)]
    pub fn is_freestyle(&self) -> bool {
        self.rule == WinRule::Freestyle
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

/// What `rule` demands of the other fields, as problems (none for a rule that
/// takes any rules).
fn rule_problems(rule: WinRule, k: i64, players: i64, gravity: bool) -> Vec<String> {
    let mut problems = Vec::new();
    if rule == WinRule::Renju {
        if k != 5 {
            problems.push(format!("rule=\"renju\" needs k=5, got k={k}"));
        }
        if players != 2 {
            problems.push(format!(
                "rule=\"renju\" needs players=2, got players={players}"
            ));
        }
        if gravity {
            problems.push("rule=\"renju\" needs gravity=False (free placement)".into());
        }
    }
    problems
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
        )?;
        match self.rule {
            WinRule::Freestyle => Ok(()),
            WinRule::Standard => f.write_str(", standard (exactly k)"),
            WinRule::Renju => f.write_str(", renju"),
        }
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
            WinRule::Freestyle,
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
    fn rules_carry_their_win_rule() {
        let g = Rules::gomoku(15).unwrap();
        assert_eq!(g.rule(), WinRule::Freestyle);
        let s = g.with_rule(WinRule::Standard).unwrap();
        assert_eq!(s.rule(), WinRule::Standard);
        assert_ne!(s, g);
        assert_eq!(
            Rules::gomoku_with(15, WinRule::Renju).unwrap().rule(),
            WinRule::Renju
        );
        assert_eq!(
            s.to_string(),
            "15x15, k=5, 2 players, free placement, standard (exactly k)"
        );
        // Standard serves any rules; renju only 2 players, k = 5, free placement.
        assert!(Rules::connect_four().with_rule(WinRule::Standard).is_ok());
        let err = Rules::connect_four().with_rule(WinRule::Renju).unwrap_err();
        assert_eq!(err.problems.len(), 2, "{err}");
        let err = Rules::new(9, 9, 4, 3, false)
            .unwrap()
            .with_rule(WinRule::Renju)
            .unwrap_err();
        assert!(err.to_string().contains("k=5") && err.to_string().contains("players=2"));
        for r in WinRule::ALL {
            assert_eq!(WinRule::from_name(r.name()), Some(r));
            assert_eq!(WinRule::from_code(r.code()), Some(r));
        }
        assert_eq!(WinRule::from_name("caro"), None);
        assert_eq!(WinRule::from_code(2), None);
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
