//! Building a book: the positions of each ply in a fixed order, the deepest level
//! from solved scores, the shallower levels by minimax.

use super::format::{Kind, LevelCodes};
use super::index::SlotIndex;
use super::BookError;
use crate::solver::Position;

/// Largest level `reachable` enumerates (its "seen" bitmap takes slots / 8 bytes).
const MAX_ENUMERATED_SLOTS: u64 = 1 << 36;

/// The positions reachable in play and not over, for each ply `0..=max_ply`, one
/// slot per mirror pair (the smaller, see [`SlotIndex::canonical_slot`]).
///
/// The order is fixed: the empty board, then for each ply the children of the
/// previous ply's positions in order, columns left to right, each position where
/// it first appears. (That is the order of the positions' smallest move sequences,
/// so neighbours share long prefixes: good for a solver's table.)
pub fn reachable(index: &SlotIndex, max_ply: usize) -> Result<Vec<Vec<u64>>, BookError> {
    let g = index.geometry();
    if max_ply > g.cells as usize {
        return Err(BookError::Invalid(format!(
            "ply {max_ply} on a board of {} cells",
            g.cells
        )));
    }
    let empty = Position::new(index.width(), index.height(), index.k())
        .map_err(|e| BookError::Invalid(e.to_string()))?;
    let mut levels = vec![vec![index.canonical_slot(&empty)]];
    for ply in 1..=max_ply {
        let slots = index
            .slots(ply)
            .filter(|&s| s <= MAX_ENUMERATED_SLOTS)
            .ok_or_else(|| {
                BookError::Invalid(format!("ply {ply} has too many slots to enumerate"))
            })?;
        let mut seen = vec![0u64; slots.div_ceil(64) as usize];
        let mut next = Vec::new();
        for &slot in &levels[ply - 1] {
            let Some(pos) = index.position(ply - 1, slot) else {
                continue;
            };
            for col in 0..index.width() {
                if !pos.can_play(col) {
                    continue;
                }
                let mut child = pos;
                child.play_unchecked(col);
                if child.is_over() {
                    continue;
                }
                let c = index.canonical_slot(&child);
                let (word, bit) = ((c / 64) as usize, c % 64);
                if seen[word] >> bit & 1 == 0 {
                    seen[word] |= 1 << bit;
                    next.push(c);
                }
            }
        }
        levels.push(next);
    }
    Ok(levels)
}

/// The score of `pos` if the player to move wins with the next stone (Pons'
/// convention: `(cells + 1 - moves) / 2`), else `None` (also for a finished game).
pub fn immediate_score(pos: &Position) -> Option<i32> {
    let wins = (0..pos.width()).any(|c| pos.is_winning_move(c));
    wins.then(|| (pos.geo.cells + 1 - pos.moves as i32) / 2)
}

/// The level of ply `ply` holding `positions` (canonical slots, as [`reachable`]
/// lists them) and their mirror images. A position the player to move wins at once
/// scores that win; every other one is scored by `solve`, called in the order of
/// `positions`.
pub fn fill_level(
    index: &SlotIndex,
    kind: Kind,
    ply: usize,
    positions: &[u64],
    mut solve: impl FnMut(&Position) -> i32,
) -> Result<LevelCodes, BookError> {
    let slots = index
        .slots(ply)
        .and_then(|s| usize::try_from(s).ok())
        .ok_or_else(|| BookError::Invalid(format!("ply {ply} has too many slots")))?;
    let mut codes = vec![0u8; slots];
    for &slot in positions {
        let pos = index
            .position(ply, slot)
            .ok_or_else(|| BookError::Invalid(format!("slot {slot} out of range at ply {ply}")))?;
        let score = immediate_score(&pos).unwrap_or_else(|| solve(&pos));
        let code = kind.code(score);
        codes[slot as usize] = code;
        codes[index.mirror_slot(&pos) as usize] = code;
    }
    Ok(LevelCodes { ply, kind, codes })
}

/// The level of ply `deeper.ply - 1` for `positions` (canonical slots) by minimax
/// over `deeper`: each move scores the win it makes at once, 0 if it fills the
/// board, else the negated score of the child. Fails if a child has no entry.
pub fn back_up(
    index: &SlotIndex,
    positions: &[u64],
    deeper: &LevelCodes,
) -> Result<LevelCodes, BookError> {
    let ply = deeper
        .ply
        .checked_sub(1)
        .ok_or_else(|| BookError::Invalid("nothing to back up to below ply 0".into()))?;
    if index.slots(deeper.ply) != Some(deeper.codes.len() as u64) {
        return Err(BookError::Invalid(format!(
            "the level of ply {} has {} codes, the board {:?} slots",
            deeper.ply,
            deeper.codes.len(),
            index.slots(deeper.ply)
        )));
    }
    let kind = deeper.kind;
    fill_level_checked(index, kind, ply, positions, |pos| {
        let mut best: Option<i32> = None;
        for col in 0..pos.width() {
            if !pos.can_play(col) {
                continue;
            }
            let mut child = *pos;
            child.play_unchecked(col);
            let score = if child.is_over() {
                0 // a full board (a line was handled as an immediate win)
            } else {
                let code = deeper.codes[index.slot(&child) as usize];
                let child_score = kind.score(code).ok_or_else(|| {
                    BookError::Invalid(format!(
                        "ply {}: no entry for the position after column {col} of {:?}",
                        deeper.ply,
                        pos.cells()
                    ))
                })?;
                -child_score
            };
            best = Some(best.map_or(score, |b| b.max(score)));
        }
        best.ok_or_else(|| BookError::Invalid("a position without a legal move".into()))
    })
}

/// [`fill_level`] with a fallible scorer.
fn fill_level_checked(
    index: &SlotIndex,
    kind: Kind,
    ply: usize,
    positions: &[u64],
    mut solve: impl FnMut(&Position) -> Result<i32, BookError>,
) -> Result<LevelCodes, BookError> {
    let mut failure = None;
    let level = fill_level(index, kind, ply, positions, |pos| match solve(pos) {
        Ok(score) => score,
        Err(e) => {
            failure.get_or_insert(e);
            0
        }
    })?;
    match failure {
        Some(e) => Err(e),
        None => Ok(level),
    }
}

/// Every level from ply 0 to `deepest.ply`: `deepest` itself and the ones above it
/// by [`back_up`]; `positions` as [`reachable`] returns them (at least up to
/// `deepest.ply`).
pub fn back_up_all(
    index: &SlotIndex,
    positions: &[Vec<u64>],
    deepest: LevelCodes,
) -> Result<Vec<LevelCodes>, BookError> {
    if positions.len() <= deepest.ply {
        return Err(BookError::Invalid(format!(
            "positions listed up to ply {}, the deepest level is ply {}",
            positions.len() as i64 - 1,
            deepest.ply
        )));
    }
    let mut levels = vec![deepest];
    while let Some(shallowest) = levels.last().filter(|l| l.ply > 0) {
        let above = back_up(index, &positions[shallowest.ply - 1], shallowest)?;
        levels.push(above);
    }
    levels.reverse();
    Ok(levels)
}
