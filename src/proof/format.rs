//! Reading a proof file into its board, root and claims (see the module docs).

use std::collections::HashMap;

use super::check::{Claim, ClaimKind, ProofError};

/// Most cells a proof's board may have (a position is two 128-bit sets).
const MAX_CELLS: usize = 128;

/// What a record says of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Record {
    /// The claimant's move, and the hit set written after it (`h`) when the
    /// move makes the claimant's line.
    Move(usize, Option<Vec<usize>>),
    /// Pairs of empty cells covering every run open to the other player.
    Pairs(Vec<(usize, usize)>),
    /// The other player to move: the claim is proven by its pass (version 2).
    Pass,
}

/// A record's key: x's stones, o's stones, the side to move (1 x, 2 o).
pub(super) type Key = (u128, u128, u8);

/// A claim and its records.
pub(super) struct Section {
    pub claim: Claim,
    pub records: HashMap<Key, Record>,
}

/// A parsed proof.
pub(super) struct Proof {
    pub width: usize,
    pub height: usize,
    pub k: usize,
    /// Lines are exactly `k` (the standard rule) rather than `k` or more.
    pub exact: bool,
    /// Root cells: 0 empty, 1 x, 2 o.
    pub root: Vec<u8>,
    pub sections: Vec<Section>,
}

fn bad(line: usize, why: impl Into<String>) -> ProofError {
    ProofError::Format {
        line,
        why: why.into(),
    }
}

fn number(word: Option<&str>, line: usize, what: &str) -> Result<usize, ProofError> {
    let word = word.ok_or_else(|| bad(line, format!("missing {what}")))?;
    word.parse()
        .map_err(|_| bad(line, format!("{what} {word:?} is not a number")))
}

/// Parses `text` (the format of the module docs).
pub(super) fn parse(text: &str) -> Result<Proof, ProofError> {
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim()));
    let mut next = |what: &str| {
        lines
            .next()
            .ok_or_else(|| bad(0, format!("the file ends before {what}")))
    };
    let (n, header) = next("the header")?;
    let version = match header {
        "inarow-proof 1" => 1,
        "inarow-proof 2" => 2,
        _ => {
            return Err(bad(
                n,
                format!("expected \"inarow-proof 1\" or \"inarow-proof 2\", got {header:?}"),
            ))
        }
    };
    let (n, board) = next("the board")?;
    let mut words = board.split_whitespace();
    if words.next() != Some("board") {
        return Err(bad(n, "expected \"board WIDTH HEIGHT K RULE\""));
    }
    let width = number(words.next(), n, "width")?;
    let height = number(words.next(), n, "height")?;
    let k = number(words.next(), n, "k")?;
    let exact = match words.next() {
        Some("freestyle") => false,
        Some("standard") => true,
        other => return Err(bad(n, format!("rule {other:?}: freestyle or standard"))),
    };
    let cells = width.saturating_mul(height);
    if width == 0 || height == 0 || k == 0 || cells > MAX_CELLS {
        return Err(bad(
            n,
            format!("a {width}x{height} board with k = {k}: at most {MAX_CELLS} cells"),
        ));
    }
    let (n, root) = next("the root")?;
    let root = root
        .strip_prefix("root ")
        .ok_or_else(|| bad(n, "expected \"root CELLS\""))?;
    let root: Vec<u8> = root
        .chars()
        .map(|c| match c {
            '.' => Ok(0),
            'x' => Ok(1),
            'o' => Ok(2),
            _ => Err(bad(n, format!("cell {c:?}: . x or o"))),
        })
        .collect::<Result<_, _>>()?;
    if root.len() != cells {
        return Err(bad(
            n,
            format!("{} root cells, the board has {cells}", root.len()),
        ));
    }
    let mut sections: Vec<Section> = Vec::new();
    loop {
        let (n, line) = next("\"end\"")?;
        if line == "end" {
            break;
        }
        let mut words = line.split_whitespace();
        let first = words.next().unwrap_or("");
        if first == "claim" {
            let player = match words.next() {
                Some("x") => 0,
                Some("o") => 1,
                other => return Err(bad(n, format!("claimant {other:?}: x or o"))),
            };
            let kind = match words.next() {
                Some("win") => ClaimKind::Win,
                Some("no-loss") => ClaimKind::NoLoss,
                other => return Err(bad(n, format!("claim {other:?}: win or no-loss"))),
            };
            sections.push(Section {
                claim: Claim { player, kind },
                records: HashMap::new(),
            });
            continue;
        }
        let section = sections
            .last_mut()
            .ok_or_else(|| bad(n, "a record before any claim"))?;
        let hex = |w: &str| {
            u128::from_str_radix(w, 16).map_err(|_| bad(n, format!("{w:?} is not a hex bit set")))
        };
        let x = hex(first)?;
        let o = hex(words.next().unwrap_or(""))?;
        let mover = if version == 1 {
            if x.count_ones() == o.count_ones() {
                1
            } else {
                2
            }
        } else {
            match words.next() {
                Some("x") => 1,
                Some("o") => 2,
                other => return Err(bad(n, format!("side to move {other:?}: x or o"))),
            }
        };
        let cell = |w: Option<&str>| -> Result<usize, ProofError> {
            let c = number(w, n, "cell")?;
            if c >= cells {
                return Err(bad(n, format!("cell {c} off the board ({cells} cells)")));
            }
            Ok(c)
        };
        let record = match words.next() {
            Some("m") => {
                let c = cell(words.next())?;
                let hits = match words.next() {
                    None => None,
                    Some("h") if version > 1 => Some(
                        words
                            .by_ref()
                            .map(|w| cell(Some(w)))
                            .collect::<Result<_, _>>()?,
                    ),
                    Some(other) => {
                        return Err(bad(n, format!("{other:?} after m CELL: h or nothing")))
                    }
                };
                Record::Move(c, hits)
            }
            Some("p") => {
                let mut pairs = Vec::new();
                while let Some(a) = words.next() {
                    let a = cell(Some(a))?;
                    let b = cell(words.next())?;
                    pairs.push((a, b));
                }
                Record::Pairs(pairs)
            }
            Some("z") if version > 1 => {
                if words.next().is_some() {
                    return Err(bad(n, "nothing after z"));
                }
                Record::Pass
            }
            other => return Err(bad(n, format!("record kind {other:?}: m, p or z"))),
        };
        if section.records.insert((x, o, mover), record).is_some() {
            return Err(bad(n, format!("a second record of position {x:x} {o:x}")));
        }
    }
    if let Some((n, extra)) = lines.find(|(_, l)| !l.is_empty()) {
        return Err(bad(n, format!("text after \"end\": {extra:?}")));
    }
    if sections.is_empty() {
        return Err(bad(0, "no claim"));
    }
    Ok(Proof {
        width,
        height,
        k,
        exact,
        root,
        sections,
    })
}
