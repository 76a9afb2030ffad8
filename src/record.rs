//! A versioned byte format for games: rules, set-up cells, actions.
//!
//! ```text
//! "INRW" | version u8 = 2 | width u8 | height u8 | k u8 | players u8 | gravity u8
//!        | rule u8 (Gomocup's code: 0 freestyle, 1 standard, 4 renju)
//!        | has_setup u8 (0/1) | [setup cells: width*height bytes, 0..=players]
//!        | count u16 LE | count actions u16 LE
//! ```
//!
//! Version 1, without the rule byte (freestyle), still decodes.
//! Decoding trusts nothing: every field is checked, the set-up position is
//! validated and every action is replayed through the checked move.

use crate::error::PositionError;
use crate::game::Game;
use crate::rules::{RuleValue, Rules, WinRule};

const MAGIC: &[u8; 4] = b"INRW";
pub const FORMAT_VERSION: u8 = 2;

/// Encodes `game` (rules, set-up cells, actions since set-up).
pub fn to_bytes(game: &Game) -> Vec<u8> {
    let r = game.rules();
    let mut out = Vec::with_capacity(16 + r.num_cells() + 2 * game.history().len());
    out.extend_from_slice(MAGIC);
    out.push(FORMAT_VERSION);
    out.extend_from_slice(&[
        r.width() as u8,
        r.height() as u8,
        r.k() as u8,
        r.players() as u8,
        r.gravity() as u8,
        r.rule().code(),
    ]);
    match game.setup_cells() {
        Some(cells) => {
            out.push(1);
            out.extend_from_slice(cells);
        }
        None => out.push(0),
    }
    out.extend_from_slice(&(game.history().len() as u16).to_le_bytes());
    for &a in game.history() {
        out.extend_from_slice(&a.to_le_bytes());
    }
    out
}

/// Decodes bytes made by [`to_bytes`]; any defect is an error, never a panic.
pub fn from_bytes(data: &[u8]) -> Result<Game, PositionError> {
    let bad = |m: String| PositionError(format!("invalid inarow bytes: {m}"));
    let mut rest = data;
    let mut take = |n: usize, what: &str| -> Result<&[u8], PositionError> {
        if rest.len() < n {
            return Err(bad(format!(
                "truncated: {what} needs {n} more bytes, {} left",
                rest.len()
            )));
        }
        let (head, tail) = rest.split_at(n);
        rest = tail;
        Ok(head)
    };
    if take(4, "the magic")? != MAGIC {
        return Err(bad("wrong magic (expected b\"INRW\")".into()));
    }
    let version = take(1, "the version")?[0];
    if !(1..=FORMAT_VERSION).contains(&version) {
        return Err(bad(format!(
            "format version {version} is not supported (allowed 1..={FORMAT_VERSION})"
        )));
    }
    let h = take(5, "the rules")?;
    if h[4] > 1 {
        return Err(bad(format!("gravity byte {} must be 0 or 1", h[4])));
    }
    let rule = match version {
        1 => WinRule::Freestyle,
        _ => {
            let code = take(1, "the rule")?[0];
            WinRule::from_code(code).ok_or_else(|| {
                bad(format!(
                    "rule byte {code} is not a rule: allowed 0 (freestyle), 1 (standard), 4 (renju)"
                ))
            })?
        }
    };
    let v = |b: u8| RuleValue::Int(b as i64);
    let rules = Rules::from_values(&v(h[0]), &v(h[1]), &v(h[2]), &v(h[3]), h[4] == 1, rule)
        .map_err(|e| bad(format!("rules: {e}")))?;
    let mut game = match take(1, "the set-up flag")?[0] {
        0 => Game::new(rules),
        1 => {
            let cells = take(rules.num_cells(), "the set-up cells")?;
            Game::from_cells(rules, cells).map_err(|e| bad(format!("set-up position: {e}")))?
        }
        f => return Err(bad(format!("set-up flag {f} must be 0 or 1"))),
    };
    let count =
        u16::from_le_bytes(take(2, "the move count")?.try_into().expect("two bytes")) as usize;
    let actions = take(2 * count, "the moves")?;
    for (i, pair) in actions.chunks_exact(2).enumerate() {
        let a = u16::from_le_bytes([pair[0], pair[1]]) as usize;
        game.play(a).map_err(|e| bad(format!("move {i}: {e}")))?;
    }
    if !rest.is_empty() {
        return Err(bad(format!("{} trailing bytes", rest.len())));
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_every_truncation_fails_cleanly() {
        let mut g = Game::from_actions(Rules::connect_four(), &[3, 3, 4, 5]).unwrap();
        let mut cells = vec![0i8; 42];
        g.write_cells(&mut cells);
        let cells: Vec<u8> = cells.iter().map(|&c| c as u8).collect();
        g = Game::from_cells(Rules::connect_four(), &cells).unwrap();
        g.play(0).unwrap();
        let bytes = to_bytes(&g);
        let back = from_bytes(&bytes).unwrap();
        assert_eq!(back, g);
        assert_eq!(back.history(), g.history());
        assert_eq!(back.setup_cells(), g.setup_cells());
        for n in 0..bytes.len() {
            assert!(from_bytes(&bytes[..n]).is_err());
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(from_bytes(&longer).is_err());
        for i in 0..bytes.len() {
            for v in [0u8, 1, 7, 255] {
                let mut b = bytes.clone();
                b[i] = v;
                let _ = from_bytes(&b);
            }
        }
    }

    #[test]
    fn the_rule_round_trips_and_version_one_still_decodes() {
        let standard = Rules::gomoku_with(9, WinRule::Standard).unwrap();
        let g = Game::from_actions(standard, &[40, 41, 30]).unwrap();
        let bytes = to_bytes(&g);
        assert_eq!(bytes[4], 2);
        assert_eq!(bytes[10], 1);
        let back = from_bytes(&bytes).unwrap();
        assert_eq!(back.rules().rule(), WinRule::Standard);
        assert_eq!(back, g);
        // Version 1 (written before the rule byte): freestyle.
        let free = Game::from_actions(Rules::connect_four(), &[3, 3, 4]).unwrap();
        let mut v1 = to_bytes(&free);
        v1[4] = 1;
        v1.remove(10);
        assert_eq!(from_bytes(&v1).unwrap(), free);
        let mut bad = bytes.clone();
        bad[10] = 2;
        let err = from_bytes(&bad).unwrap_err().to_string();
        assert!(err.contains("rule byte 2"), "{err}");
    }
}
