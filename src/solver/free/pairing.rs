//! Pairing strategies: a proof that one side can no longer make a line.
//!
//! If the empty cells hold disjoint pairs such that every line still open to the
//! attacker (free of the defender's stones) contains both cells of a pair, the
//! defender draws at least: whenever the attacker takes a cell of a pair, the
//! defender takes the other, and a stone of the defender anywhere else only
//! blocks more. So the attacker cannot win, whoever is to move. The search for
//! pairs is a bipartite matching; grouping overlapping windows is greedy, so it
//! may miss a pairing that exists, and never claims one that does not.

use super::geometry::Geometry;
use super::word::Word;

/// Whether a pairing of the `empty` cells covers every line open to the attacker
/// (free of `defender`'s stones): the open windows, grouped along each line of the
/// board, each take two cells of their own, by a bipartite matching of two slots
/// per group onto the empty cells (augmenting paths). A group is a run of
/// overlapping open windows along one line of the board whose common empty cells
/// number at least two, so one pair there covers them all; groups are grown
/// greedily from the start of each run.
pub(super) fn defender_pairs<W: Word>(geo: &Geometry<W>, defender: W, empty: W) -> bool {
    let mut owner = W::per_cell(u8::MAX);
    match_pairs(geo, defender, empty, &mut owner)
}

/// The cells of the pairs of [`defender_pairs`] when it finds them: the
/// relevance zone of a pairing (the attacker's stones anywhere else leave
/// every pair, and so every open line, as it is).
pub(super) fn defender_pair_cells<W: Word>(geo: &Geometry<W>, defender: W, empty: W) -> Option<W> {
    let mut owner = W::per_cell(u8::MAX);
    if !match_pairs(geo, defender, empty, &mut owner) {
        return None;
    }
    let mut cells = W::ZERO;
    for (cell, &slot) in owner.as_ref().iter().enumerate() {
        if slot != u8::MAX {
            cells |= W::bit(cell);
        }
    }
    Some(cells)
}

/// A move of the defender after which [`defender_pair_cells`] finds a pairing
/// (the attacker then to move, with no line to make): the move, the lowest
/// cell on a run open to the attacker that has one, and the zone of the pair's
/// cells with the move. The search's own defender node plays one move and looks
/// for a pairing only after it; trying every move for one first proves most
/// nodes a move sooner (7,7,5 by zones: 0.19M nodes against 62.9M).
pub(super) fn pairing_reply<W: Word>(
    geo: &Geometry<W>,
    defender: W,
    empty: W,
) -> Option<(usize, W)> {
    let mut candidates = empty & geo.open_cells(defender);
    while !candidates.is_empty() {
        let cell = candidates.first();
        candidates = candidates.without_first();
        let bit = W::bit(cell);
        if let Some(pairs) = defender_pair_cells(geo, defender | bit, empty & !bit) {
            return Some((cell, pairs | bit));
        }
    }
    None
}

/// The pairs of [`defender_pairs`], as cells (the lower first), when it finds
/// them: what a proof writes down for a checker to verify.
pub(super) fn defender_pairing<W: Word>(
    geo: &Geometry<W>,
    defender: W,
    empty: W,
) -> Option<Vec<(u8, u8)>> {
    let mut owner = W::per_cell(u8::MAX);
    if !match_pairs(geo, defender, empty, &mut owner) {
        return None;
    }
    // The two slots of a group hold the two cells of its pair.
    let mut first = W::per_pair(u8::MAX);
    let mut pairs = Vec::new();
    for (cell, &slot) in owner.as_ref().iter().enumerate() {
        if slot == u8::MAX {
            continue;
        }
        let group = slot as usize / 2;
        if first[group] == u8::MAX {
            first[group] = cell as u8;
        } else {
            pairs.push((first[group], cell as u8));
        }
    }
    Some(pairs)
}

/// The matching of [`defender_pairs`]: `owner[cell]` is the slot (two per
/// group) that took the cell, `u8::MAX` for none. At most one group per two
/// cells (`W::PerPair`).
fn match_pairs<W: Word>(
    geo: &Geometry<W>,
    defender: W,
    empty: W,
    owner: &mut W::PerCell<u8>,
) -> bool {
    let mut groups = W::per_pair(W::ZERO);
    let max_groups = groups.as_ref().len();
    let mut count = 0;
    // Per direction and start cell: 1 + the group of the open window there.
    let mut group_at = [W::per_cell(0u8); 4];
    for (i, &line) in geo.lines.iter().enumerate() {
        if !(line & defender).is_empty() {
            continue;
        }
        let free = line & empty;
        if free.count() < 2 {
            return false;
        }
        let d = geo.line_directions[i] as usize;
        let start = line.first();
        let step = geo.steps[d] as usize;
        // The window one step back along the same line of the board, if open.
        let before = start
            .checked_sub(step)
            .filter(|_| step > 0)
            .map_or(0, |b| group_at[d][b]);
        let g = before as usize;
        if g > 0 && (groups[g - 1] & free).count() >= 2 {
            groups[g - 1] &= free;
            group_at[d][start] = before;
        } else {
            if count == max_groups {
                return false; // more groups than pairs of cells
            }
            groups[count] = free;
            count += 1;
            group_at[d][start] = count as u8;
        }
    }
    let groups = &groups.as_ref()[..count];
    let all = groups.iter().fold(W::ZERO, |a, &g| a | g);
    if (all.count() as usize) < 2 * count {
        return false;
    }
    for slot in 0..2 * count {
        let mut visited = W::ZERO;
        if !augment(groups, slot, owner, &mut visited) {
            return false;
        }
    }
    true
}

/// Kuhn's augmenting path from `slot` (two slots per group).
fn augment<W: Word>(
    groups: &[W],
    slot: usize,
    owner: &mut W::PerCell<u8>,
    visited: &mut W,
) -> bool {
    let mut cells = groups[slot / 2] & !*visited;
    while !cells.is_empty() {
        let c = cells.first();
        cells = cells.without_first();
        *visited |= W::bit(c);
        if owner[c] == u8::MAX || augment(groups, owner[c] as usize, owner, visited) {
            owner[c] = slot as u8;
            return true;
        }
    }
    false
}
