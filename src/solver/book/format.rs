//! The book file: a fixed header, a directory of levels, the packed levels.
//!
//! ```text
//! offset size
//!      0    8  magic "INAROWBK"
//!      8    4  format version (3), little endian like every number here
//!     12    1  width      13  1  height      14  1  k      15  1  level count n (1..=64)
//!     16    8  payload bytes (everything after the directory)
//!     24    8  CRC-64/XZ of everything else (bytes 0..24, then 32 to the end)
//!     32 16*n  directory, one entry per level, plies strictly increasing:
//!                0 1 ply   1 1 kind (1 win/draw/loss, 2 exact)   2 6 zero
//!                8 8 slots (must equal the folded slot count of that ply)
//!  32+16n      the levels in directory order, each ceil(slots * bits / 8) bytes:
//!              folded slot i in bits i*bits .. (i+1)*bits, least significant first
//! ```
//!
//! Slots are folded by mirror symmetry ([`Fold`]): a board whose column heights
//! read left to right exceed their mirror image's is stored as its mirror image.
//! (Version 1 stored every slot, both images of each position: twice the size;
//! version 2 packed exact scores in 6 bits.)
//!
//! A slot's code 0 means "no entry" (an unreachable board, a finished game);
//! otherwise see [`Kind`].

use super::crc::Crc64;
use super::index::{Fold, SlotIndex};
use super::BookError;
use crate::solver::Position;

pub(super) const MAGIC: &[u8; 8] = b"INAROWBK";
pub(super) const VERSION: u32 = 3;
pub(super) const HEADER_BYTES: usize = 32;
pub(super) const ENTRY_BYTES: usize = 16;
pub(super) const MAX_LEVELS: usize = 64;

/// What a level stores per position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Win, draw or loss for the player to move: 2 bits, codes 1 (loss), 2 (draw),
    /// 3 (win).
    Weak,
    /// The exact score (Pons' convention): a byte, code = score + 32. (Six bits
    /// would hold it, but byte-aligned codes compress about a quarter smaller in
    /// the shipped container, which is what the wheel carries.)
    Exact,
}

impl Kind {
    /// Bits per slot.
    pub fn bits(self) -> u32 {
        match self {
            Kind::Weak => 2,
            Kind::Exact => 8,
        }
    }

    fn tag(self) -> u8 {
        match self {
            Kind::Weak => 1,
            Kind::Exact => 2,
        }
    }

    fn from_tag(tag: u8) -> Option<Kind> {
        match tag {
            1 => Some(Kind::Weak),
            2 => Some(Kind::Exact),
            _ => None,
        }
    }

    /// The code of `score` (any score in Pons' convention; for `Weak` only its
    /// sign counts). Never 0. Exact scores must lie in -31..=31 (every board the
    /// solver takes has fewer than 64 cells, so scores stay within -32..=32 and
    /// 32 needs a 63-cell board with one column).
    pub fn code(self, score: i32) -> u8 {
        match self {
            Kind::Weak => (score.signum() + 2) as u8,
            Kind::Exact => (score.clamp(-31, 31) + 32) as u8,
        }
    }

    /// The score a nonzero code stands for; `None` for code 0.
    pub fn score(self, code: u8) -> Option<i32> {
        match (self, code) {
            (_, 0) => None,
            (Kind::Weak, c) => Some(c as i32 - 2),
            (Kind::Exact, c) => Some(c as i32 - 32),
        }
    }
}

/// One level of a book being written: a code per slot (unpacked, one byte each).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelCodes {
    pub ply: usize,
    pub kind: Kind,
    pub codes: Vec<u8>,
}

/// Where a validated level lives in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct LevelEntry {
    pub ply: usize,
    pub kind: Kind,
    /// Slots stored (folded).
    pub slots: u64,
    /// Byte offset of the level from the start of the file.
    pub start: usize,
    pub fold: Fold,
}

fn packed_bytes(slots: u64, kind: Kind) -> Option<usize> {
    usize::try_from(slots.checked_mul(kind.bits() as u64)?.div_ceil(8)).ok()
}

/// The code of slot `i` of a packed level starting at `data[start]` (in range:
/// checked at load).
#[inline]
pub(super) fn read_code(data: &[u8], start: usize, kind: Kind, i: u64) -> u8 {
    let bits = kind.bits() as u64;
    let bit = i * bits;
    let byte = start + (bit / 8) as usize;
    let shift = (bit % 8) as u32;
    let low = data[byte] as u16;
    let high = data.get(byte + 1).map_or(0, |&b| b as u16);
    (((low | high << 8) >> shift) & ((1 << bits) - 1)) as u8
}

/// The book file for `levels` of boards shaped like `index`.
pub(super) fn encode(index: &SlotIndex, levels: &[LevelCodes]) -> Result<Vec<u8>, BookError> {
    let bad = |m: String| Err(BookError::Invalid(m));
    if levels.is_empty() || levels.len() > MAX_LEVELS {
        return bad(format!(
            "a book has 1..={MAX_LEVELS} levels, got {}",
            levels.len()
        ));
    }
    let (w, h, k) = (index.width(), index.height(), index.k());
    if w > 255 || h > 255 || k > 255 {
        return bad(format!("board {w}x{h}, k = {k} does not fit the header"));
    }
    let mut directory = Vec::with_capacity(levels.len() * ENTRY_BYTES);
    let mut payload = Vec::new();
    let mut previous: Option<usize> = None;
    for level in levels {
        if previous.is_some_and(|p| p >= level.ply) || level.ply > 255 {
            return bad(format!(
                "level plies must increase and stay below 256: ply {} after {previous:?}",
                level.ply
            ));
        }
        previous = Some(level.ply);
        let slots = index.slots(level.ply);
        if slots != Some(level.codes.len() as u64) {
            return bad(format!(
                "level {} has {} codes, the board has {slots:?} slots",
                level.ply,
                level.codes.len()
            ));
        }
        let Some(fold) = index.fold(level.ply) else {
            return bad(format!("level {} is too large to fold", level.ply));
        };
        let limit = 1u32 << level.kind.bits();
        if let Some(c) = level.codes.iter().find(|&&c| c as u32 >= limit) {
            return bad(format!(
                "code {c} in level {} does not fit {} bits",
                level.ply,
                level.kind.bits()
            ));
        }
        // Only one image of each board is stored: both must hold the same code.
        for slot in 0..level.codes.len() as u64 {
            if fold.fold_slot(slot).is_some() {
                continue;
            }
            let mirror = index
                .folded_slot_of(&fold, slot)
                .map(|f| fold.unfold_slot(f));
            if mirror.is_none_or(|m| level.codes[m as usize] != level.codes[slot as usize]) {
                return bad(format!(
                    "level {}: slot {slot} and its mirror image hold different codes",
                    level.ply
                ));
            }
        }
        directory.push(level.ply as u8);
        directory.push(level.kind.tag());
        directory.extend_from_slice(&[0; 6]);
        directory.extend_from_slice(&fold.slots().to_le_bytes());
        let start = payload.len();
        payload.resize(
            start + packed_bytes(fold.slots(), level.kind).unwrap_or(0),
            0,
        );
        let bits = level.kind.bits() as usize;
        for i in 0..fold.slots() as usize {
            let code = level.codes[fold.unfold_slot(i as u64) as usize];
            let bit = i * bits;
            let at = start + bit / 8;
            let value = (code as u16) << (bit % 8);
            payload[at] |= value as u8;
            if value > 0xff {
                payload[at + 1] |= (value >> 8) as u8;
            }
        }
    }
    let mut out = Vec::with_capacity(HEADER_BYTES + directory.len() + payload.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&[w as u8, h as u8, k as u8, levels.len() as u8]);
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&[0; 8]);
    out.extend_from_slice(&directory);
    out.extend_from_slice(&payload);
    let crc = checksum(&out);
    out[24..32].copy_from_slice(&crc.to_le_bytes());
    Ok(out)
}

/// The CRC of a whole book file but its own field.
pub(super) fn checksum(data: &[u8]) -> u64 {
    let mut crc = Crc64::new();
    crc.update(&data[..24]);
    crc.update(&data[HEADER_BYTES..]);
    crc.finish()
}

fn u64_at(data: &[u8], at: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&data[at..at + 8]);
    u64::from_le_bytes(b)
}

/// Checks everything about `data` and returns the board shape and the levels.
pub(super) fn parse(data: &[u8]) -> Result<(SlotIndex, Vec<LevelEntry>), BookError> {
    let corrupt = |m: String| Err(BookError::Corrupt(m));
    if data.len() < HEADER_BYTES {
        return corrupt(format!(
            "{} bytes is shorter than the {HEADER_BYTES}-byte header (truncated?)",
            data.len()
        ));
    }
    if &data[..8] != MAGIC {
        return corrupt("not an inarow book (bad magic bytes)".into());
    }
    let version = u32::from_le_bytes([data[8], data[9], data[10], data[11]]);
    if version != VERSION {
        return Err(BookError::Unsupported(format!(
            "book format version {version}; this build reads version {VERSION}"
        )));
    }
    let (w, h, k, n) = (
        data[12] as usize,
        data[13] as usize,
        data[14] as usize,
        data[15] as usize,
    );
    if n == 0 || n > MAX_LEVELS {
        return corrupt(format!("level count {n} outside 1..={MAX_LEVELS}"));
    }
    let payload = u64_at(data, 16);
    let expected = (HEADER_BYTES + n * ENTRY_BYTES) as u64 + payload;
    if data.len() as u64 != expected {
        return corrupt(format!(
            "the header promises {expected} bytes, the data has {} (truncated or padded)",
            data.len()
        ));
    }
    let crc = u64_at(data, 24);
    let actual = checksum(data);
    if crc != actual {
        return corrupt(format!(
            "checksum mismatch (stored {crc:#018x}, computed {actual:#018x})"
        ));
    }
    let start = Position::new(w, h, k)
        .map_err(|e| BookError::Unsupported(format!("board {w}x{h}, k = {k}: {e}")))?;
    let index = SlotIndex::for_position(&start);
    let mut levels = Vec::with_capacity(n);
    let mut offset = HEADER_BYTES + n * ENTRY_BYTES;
    for i in 0..n {
        let e = &data[HEADER_BYTES + i * ENTRY_BYTES..HEADER_BYTES + (i + 1) * ENTRY_BYTES];
        let ply = e[0] as usize;
        let Some(kind) = Kind::from_tag(e[1]) else {
            return corrupt(format!("level {i}: unknown kind {}", e[1]));
        };
        if e[2..8].iter().any(|&b| b != 0) {
            return corrupt(format!("level {i}: reserved bytes are not zero"));
        }
        if levels.last().is_some_and(|l: &LevelEntry| l.ply >= ply) {
            return corrupt(format!("level {i}: ply {ply} does not increase"));
        }
        let slots = u64_at(e, 8);
        // Folding keeps at least half of a level's slots: a level the data cannot
        // hold is refused before its fold tables are built (they take up to ~11
        // bytes of memory per byte of data, never more).
        let half = index.slots(ply).map(|all| all / 2);
        let fits = half
            .and_then(|h| packed_bytes(h, kind))
            .and_then(|b| offset.checked_add(b))
            .is_some_and(|end| end <= data.len());
        if !fits {
            return corrupt(format!(
                "level {i} (ply {ply}) runs past the end of the data"
            ));
        }
        let fold = index.fold(ply).ok_or_else(|| {
            BookError::Unsupported(format!("level {i} (ply {ply}) is too large to fold"))
        })?;
        if fold.slots() != slots {
            return corrupt(format!(
                "level {i} (ply {ply}): {slots} slots, a {w}x{h} board has {} folded",
                fold.slots()
            ));
        }
        let bytes = packed_bytes(slots, kind).ok_or_else(|| {
            BookError::Corrupt(format!("level {i}: {slots} slots do not fit in memory"))
        })?;
        if offset.checked_add(bytes).is_none_or(|end| end > data.len()) {
            return corrupt(format!(
                "level {i} (ply {ply}) runs past the end of the data"
            ));
        }
        levels.push(LevelEntry {
            ply,
            kind,
            slots,
            start: offset,
            fold,
        });
        offset += bytes;
    }
    if offset != data.len() {
        return corrupt(format!(
            "the levels take {} bytes, the payload has {payload}",
            offset - HEADER_BYTES - n * ENTRY_BYTES
        ));
    }
    let cells = index.width() * index.height();
    for level in levels.iter().filter(|l| l.kind == Kind::Exact) {
        // The best score after `ply` stones: a win with the next stone.
        let max_score = ((cells + 1).saturating_sub(level.ply) / 2) as i32;
        for i in 0..level.slots {
            let code = read_code(data, level.start, level.kind, i);
            if Kind::Exact.score(code).is_some_and(|s| s.abs() > max_score) {
                return corrupt(format!(
                    "level ply {}: slot {i} holds score {}, beyond +-{max_score}",
                    level.ply,
                    code as i32 - 32
                ));
            }
        }
    }
    Ok((index, levels))
}
