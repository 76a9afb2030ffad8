//! Reading a proof into its board, root and claims (see the module docs), line
//! by line: a record takes a map entry and a few bytes, so proofs of a hundred
//! million positions fit in memory.

use std::collections::HashMap;
use std::hash::Hash;
use std::io::BufRead;

use super::check::{Claim, ClaimKind, ProofError};

/// Most cells a proof's board may have (a position is two 128-bit sets).
const MAX_CELLS: usize = 128;

/// A set of cells as the checker keeps it: `u64` on boards of at most 64
/// cells (half the memory a key takes), else `u128`.
pub(super) trait Bits: Copy + Eq + Hash + Ord + Default {
    fn from_wide(wide: u128) -> Self;
    fn wide(self) -> u128;
}

impl Bits for u64 {
    fn from_wide(wide: u128) -> u64 {
        wide as u64
    }
    fn wide(self) -> u128 {
        self as u128
    }
}

impl Bits for u128 {
    fn from_wide(wide: u128) -> u128 {
        wide
    }
    fn wide(self) -> u128 {
        self
    }
}

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
pub(super) type Key<B> = (B, B, u8);

/// No record: an entry of a position proven without one.
const NO_RECORD: u32 = u32::MAX;

/// A position of a claim: its record (an offset into the section's bytes) and,
/// once the checker has proven the claim there, the zone of that proof (cells
/// of the canonical image).
#[derive(Clone, Copy)]
pub(super) struct Entry<B> {
    record: u32,
    pub proven: bool,
    pub zone: B,
}

/// A claim and its records.
pub(super) struct Section<B> {
    pub claim: Claim,
    pub entries: HashMap<Key<B>, Entry<B>>,
    /// The records, encoded: `m CELL 255` (no hit set), `m CELL N H...`,
    /// `p N A B ...` (N pairs), `z`.
    bytes: Vec<u8>,
}

impl<B: Bits> Section<B> {
    /// The record of `key`, if it has one.
    pub fn record(&self, key: &Key<B>) -> Option<Record> {
        let entry = self.entries.get(key)?;
        if entry.record == NO_RECORD {
            return None;
        }
        let b = &self.bytes[entry.record as usize..];
        let cells = |n: usize| b[2..2 + n].iter().map(|&c| c as usize);
        Some(match b[0] {
            b'm' if b[2] == u8::MAX => Record::Move(b[1] as usize, None),
            b'm' => Record::Move(
                b[1] as usize,
                Some(
                    b[3..3 + b[2] as usize]
                        .iter()
                        .map(|&c| c as usize)
                        .collect(),
                ),
            ),
            b'p' => {
                let flat: Vec<usize> = cells(2 * b[1] as usize).collect();
                Record::Pairs(flat.chunks(2).map(|p| (p[0], p[1])).collect())
            }
            _ => Record::Pass,
        })
    }

    /// Marks `key` proven with `zone`.
    pub fn prove(&mut self, key: Key<B>, zone: B) {
        let entry = self.entries.entry(key).or_insert(Entry {
            record: NO_RECORD,
            proven: false,
            zone: B::default(),
        });
        entry.proven = true;
        entry.zone = zone;
    }

    /// The zone of `key` if the claim is proven there.
    pub fn proven(&self, key: &Key<B>) -> Option<B> {
        self.entries
            .get(key)
            .and_then(|e| e.proven.then_some(e.zone))
    }
}

/// A proof's board and root.
pub(super) struct Board {
    pub width: usize,
    pub height: usize,
    pub k: usize,
    /// Lines are exactly `k` (the standard rule) rather than `k` or more.
    pub exact: bool,
    /// Root cells: 0 empty, 1 x, 2 o.
    pub root: Vec<u8>,
    /// The format's version: 1 or 2.
    version: u8,
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

/// A proof's lines, read one at a time.
pub(super) struct Lines<R> {
    reader: R,
    line: String,
    /// The number of the line read last (from 1).
    number: usize,
    /// The line read last is to be read again.
    held: bool,
}

impl<R: BufRead> Lines<R> {
    pub fn new(reader: R) -> Lines<R> {
        Lines {
            reader,
            line: String::new(),
            number: 0,
            held: false,
        }
    }

    /// The next line's number and text, trimmed; `None` at the end of the file.
    pub fn next(&mut self) -> Result<Option<(usize, &str)>, ProofError> {
        if self.held {
            self.held = false;
            return Ok(Some((self.number, self.line.trim())));
        }
        self.line.clear();
        let read = self
            .reader
            .read_line(&mut self.line)
            .map_err(|e| bad(self.number + 1, format!("reading the proof: {e}")))?;
        if read == 0 {
            return Ok(None);
        }
        self.number += 1;
        Ok(Some((self.number, self.line.trim())))
    }

    /// Makes the next [`Lines::next`] return the line read last again.
    pub fn unread(&mut self) {
        self.held = true;
    }

    fn expect(&mut self, what: &str) -> Result<(usize, &str), ProofError> {
        self.next()?
            .ok_or_else(|| bad(0, format!("the file ends before {what}")))
    }
}

/// Reads the header, the board and the root.
pub(super) fn parse_board<R: BufRead>(lines: &mut Lines<R>) -> Result<Board, ProofError> {
    let (n, header) = lines.expect("the header")?;
    let version = match header {
        "inarow-proof 1" => 1,
        "inarow-proof 2" => 2,
        _ => {
            return Err(bad(
                n,
                format!("expected \"inarow-proof 1\" or \"inarow-proof 2\", got {header:?}"),
            ));
        }
    };
    let (n, board) = lines.expect("the board")?;
    let board = board.to_string();
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
    let (n, root) = lines.expect("the root")?;
    let root = root.to_string();
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
    Ok(Board {
        width,
        height,
        k,
        exact,
        root,
        version,
    })
}

/// After a proof's `end`: whether another proof of the bundle follows (its
/// header is left to read); blank lines are skipped, other text refused.
pub(super) fn another_part<R: BufRead>(lines: &mut Lines<R>) -> Result<bool, ProofError> {
    while let Some((n, extra)) = lines.next()? {
        if extra.starts_with("inarow-proof ") {
            lines.unread();
            return Ok(true);
        }
        if !extra.is_empty() {
            return Err(bad(n, format!("text after \"end\": {extra:?}")));
        }
    }
    Ok(false)
}

/// Reads the claims and their records, to `end`.
pub(super) fn parse_sections<B: Bits, R: BufRead>(
    lines: &mut Lines<R>,
    board: &Board,
) -> Result<Vec<Section<B>>, ProofError> {
    let cells = board.width * board.height;
    let version = board.version;
    let mut sections: Vec<Section<B>> = Vec::new();
    loop {
        let (n, line) = lines.expect("\"end\"")?;
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
                entries: HashMap::new(),
                bytes: Vec::new(),
            });
            continue;
        }
        let section = sections
            .last_mut()
            .ok_or_else(|| bad(n, "a record before any claim"))?;
        let set = |w: &str| {
            let set = u128::from_str_radix(w, 16)
                .map_err(|_| bad(n, format!("{w:?} is not a hex bit set")))?;
            if cells < 128 && set >> cells != 0 {
                return Err(bad(
                    n,
                    format!("{w} has cells off the board ({cells} cells)"),
                ));
            }
            Ok(set)
        };
        let x = set(first)?;
        let o = set(words.next().unwrap_or(""))?;
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
        let cell = |w: Option<&str>| -> Result<u8, ProofError> {
            let c = number(w, n, "cell")?;
            if c >= cells {
                return Err(bad(n, format!("cell {c} off the board ({cells} cells)")));
            }
            Ok(c as u8)
        };
        let at = section.bytes.len();
        let Ok(record) = u32::try_from(at) else {
            return Err(bad(n, "records past 4 GB: too large a proof"));
        };
        let bytes = &mut section.bytes;
        match words.next() {
            Some("m") => {
                bytes.extend([b'm', cell(words.next())?]);
                match words.next() {
                    None => bytes.push(u8::MAX),
                    Some("h") if version > 1 => {
                        let hits: Vec<u8> =
                            words.map(|w| cell(Some(w))).collect::<Result<_, _>>()?;
                        bytes.push(hits.len() as u8);
                        bytes.extend(hits);
                    }
                    Some(other) => {
                        return Err(bad(n, format!("{other:?} after m CELL: h or nothing")))
                    }
                }
            }
            Some("p") => {
                let mut flat = Vec::new();
                while let Some(a) = words.next() {
                    flat.push(cell(Some(a))?);
                    flat.push(cell(words.next())?);
                }
                bytes.extend([b'p', (flat.len() / 2) as u8]);
                bytes.extend(flat);
            }
            Some("z") if version > 1 => {
                if words.next().is_some() {
                    return Err(bad(n, "nothing after z"));
                }
                bytes.push(b'z');
            }
            other => return Err(bad(n, format!("record kind {other:?}: m, p or z"))),
        }
        let entry = Entry {
            record,
            proven: false,
            zone: B::default(),
        };
        let key = (B::from_wide(x), B::from_wide(o), mover);
        if section.entries.insert(key, entry).is_some() {
            return Err(bad(n, format!("a second record of position {x:x} {o:x}")));
        }
    }
    if sections.is_empty() {
        return Err(bad(0, "no claim"));
    }
    Ok(sections)
}
