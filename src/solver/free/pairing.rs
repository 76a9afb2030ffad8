//! Pairing strategies: a proof that one side can no longer make a line.
//!
//! If the empty cells hold disjoint pairs such that every line still open to the
//! attacker (free of the defender's stones) contains both cells of a pair, the
//! defender draws at least: whenever the attacker takes a cell of a pair, the
//! defender takes the other, and a stone of the defender anywhere else only
//! blocks more. So the attacker cannot win, whoever is to move. Finding a
//! pairing is a matching problem; a greedy pass finds many (it may miss one
//! that exists, never claims one that does not).

use super::geometry::Geometry;

/// Most lines the greedy pass handles; boards with more lines skip it.
pub(super) const MAX_PAIRED_LINES: usize = 128;

/// Whether a greedy pairing of the `empty` cells covers every line open to the
/// attacker (free of `defender`'s stones), so that the attacker cannot make a line.
/// A first pass prefers cells shared with the lines along the same direction
/// (one pair can cover overlapping lines); for `k >= 5` a second pass takes the
/// cells on the fewest open lines (7x5, k = 5: 1.17M -> 0.58M nodes; at k = 4 it
/// rarely finds a pairing the first missed and costs more than it saves).
pub(super) fn defender_pairs(geo: &Geometry, defender: u64, empty: u64) -> bool {
    greedy_pairs(geo, defender, empty, 2)
        || (geo.k >= SECOND_PASS_MIN_K && greedy_pairs(geo, defender, empty, 0))
}

/// Shortest line for which a failed first pass is followed by a second.
const SECOND_PASS_MIN_K: usize = 5;

/// One greedy pass: each open line, the most constrained first, takes the two of
/// its unpaired cells on the fewest open lines across, counting each open line
/// along its own direction `along_bonus` times in its favour.
fn greedy_pairs(geo: &Geometry, defender: u64, empty: u64, along_bonus: i32) -> bool {
    let mut open = [0u64; MAX_PAIRED_LINES];
    let mut direction = [0u8; MAX_PAIRED_LINES];
    let mut count = 0;
    // Open lines through each cell, per direction.
    let mut through = [[0u8; 64]; 4];
    for (i, &line) in geo.lines.iter().enumerate() {
        if line & defender != 0 {
            continue;
        }
        let free = line & empty;
        if free.count_ones() < 2 || count == MAX_PAIRED_LINES {
            return false;
        }
        let d = geo.line_directions[i];
        let mut cells = free;
        while cells != 0 {
            through[d as usize][cells.trailing_zeros() as usize] += 1;
            cells &= cells - 1;
        }
        open[count] = line;
        direction[count] = d;
        count += 1;
    }
    // Most constrained lines first: the fewest empty cells.
    let mut order: [u8; MAX_PAIRED_LINES] = [0; MAX_PAIRED_LINES];
    for (i, slot) in order.iter_mut().enumerate().take(count) {
        *slot = i as u8;
    }
    order[..count].sort_unstable_by_key(|&i| (open[i as usize] & empty).count_ones());
    let mut unpaired = empty;
    let mut covered = [false; MAX_PAIRED_LINES];
    for &i in &order[..count] {
        let i = i as usize;
        if covered[i] {
            continue;
        }
        let d = direction[i] as usize;
        let mut cells = open[i] & unpaired;
        if cells.count_ones() < 2 {
            return false;
        }
        let mut picks = [(i32::MAX, 0u64); 2];
        while cells != 0 {
            let c = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            let all: i32 = (0..4).map(|e| through[e][c] as i32).sum();
            let cost = all - along_bonus * through[d][c] as i32;
            if cost < picks[0].0 {
                picks[1] = picks[0];
                picks[0] = (cost, 1 << c);
            } else if cost < picks[1].0 {
                picks[1] = (cost, 1 << c);
            }
        }
        let pair = picks[0].1 | picks[1].1;
        unpaired &= !pair;
        for j in 0..count {
            if open[j] & pair == pair {
                covered[j] = true;
            }
        }
    }
    true
}
