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

/// Most groups a pairing can serve: two cells each, on at most 64 cells.
const MAX_GROUPS: usize = 32;

/// Whether a pairing of the `empty` cells covers every line open to the attacker
/// (free of `defender`'s stones): the open windows, grouped along each line of the
/// board, each take two cells of their own, by a bipartite matching of two slots
/// per group onto the empty cells (augmenting paths). A group is a run of
/// overlapping open windows along one line of the board whose common empty cells
/// number at least two, so one pair there covers them all; groups are grown
/// greedily from the start of each run.
pub(super) fn defender_pairs(geo: &Geometry, defender: u64, empty: u64) -> bool {
    let mut owner = [u8::MAX; 64];
    match_pairs(geo, defender, empty, &mut owner)
}

/// The pairs of [`defender_pairs`], as cells (the lower first), when it finds
/// them: what a proof writes down for a checker to verify.
pub(super) fn defender_pairing(geo: &Geometry, defender: u64, empty: u64) -> Option<Vec<(u8, u8)>> {
    let mut owner = [u8::MAX; 64];
    if !match_pairs(geo, defender, empty, &mut owner) {
        return None;
    }
    // The two slots of a group hold the two cells of its pair.
    let mut first = [u8::MAX; MAX_GROUPS];
    let mut pairs = Vec::new();
    for (cell, &slot) in owner.iter().enumerate() {
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
/// group) that took the cell, `u8::MAX` for none.
fn match_pairs(geo: &Geometry, defender: u64, empty: u64, owner: &mut [u8; 64]) -> bool {
    let mut groups = [0u64; MAX_GROUPS];
    let mut count = 0;
    // Per direction and start cell: 1 + the group of the open window there.
    let mut group_at = [[0u8; 64]; 4];
    for (i, &line) in geo.lines.iter().enumerate() {
        if line & defender != 0 {
            continue;
        }
        let free = line & empty;
        if free.count_ones() < 2 {
            return false;
        }
        let d = geo.line_directions[i] as usize;
        let start = line.trailing_zeros() as usize;
        let step = geo.steps[d] as usize;
        // The window one step back along the same line of the board, if open.
        let before = start
            .checked_sub(step)
            .filter(|_| step > 0)
            .map_or(0, |b| group_at[d][b]);
        let g = before as usize;
        if g > 0 && (groups[g - 1] & free).count_ones() >= 2 {
            groups[g - 1] &= free;
            group_at[d][start] = before;
        } else {
            if count == MAX_GROUPS {
                return false; // more groups than pairs of cells
            }
            groups[count] = free;
            count += 1;
            group_at[d][start] = count as u8;
        }
    }
    let all = groups[..count].iter().fold(0u64, |a, &g| a | g);
    if (all.count_ones() as usize) < 2 * count {
        return false;
    }
    for slot in 0..2 * count {
        let mut visited = 0u64;
        if !augment(&groups[..count], slot, owner, &mut visited) {
            return false;
        }
    }
    true
}

/// Kuhn's augmenting path from `slot` (two slots per group).
fn augment(groups: &[u64], slot: usize, owner: &mut [u8; 64], visited: &mut u64) -> bool {
    let mut cells = groups[slot / 2] & !*visited;
    while cells != 0 {
        let c = cells.trailing_zeros() as usize;
        cells &= cells - 1;
        *visited |= 1 << c;
        if owner[c] == u8::MAX || augment(groups, owner[c] as usize, owner, visited) {
            owner[c] = slot as u8;
            return true;
        }
    }
    false
}
