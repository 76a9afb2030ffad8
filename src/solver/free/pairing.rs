//! Pairing strategies: a proof that one side can no longer make a line.
//!
//! If the empty cells hold disjoint pairs such that every line still open to the
//! attacker (free of the defender's stones) contains both cells of a pair, the
//! defender draws at least: whenever the attacker takes a cell of a pair, the
//! defender takes the other, and a stone of the defender anywhere else only
//! blocks more. So the attacker cannot win, whoever is to move. The search for
//! pairs is first a bipartite matching over greedy groups of overlapping windows
//! (fast, but it misses pairings: a line's windows may be better served by two
//! pairs than by one), then, where that finds none, a depth-first search over
//! the pairs themselves within a budget of choices. Either may miss a pairing
//! that exists; neither claims one that does not.

use super::geometry::Geometry;
use super::word::Word;

/// Whether a pairing of the `empty` cells covers every line open to the attacker
/// (free of `defender`'s stones): the open windows, grouped along each line of the
/// board, each take two cells of their own, by a bipartite matching of two slots
/// per group onto the empty cells (augmenting paths). A group is a run of
/// overlapping open windows along one line of the board whose common empty cells
/// number at least two, so one pair there covers them all; groups are grown
/// greedily from the start of each run. Where the matching fails, the exact
/// search ([`exact_pairs`]) looks.
pub(super) fn defender_pairs<W: Word>(geo: &Geometry<W>, defender: W, empty: W) -> bool {
    defender_pair_cells(geo, defender, empty).is_some()
}

/// The cells of the pairs of [`defender_pairs`] when it finds them: the
/// relevance zone of a pairing (the attacker's stones anywhere else leave
/// every pair, and so every open line, as it is).
pub(super) fn defender_pair_cells<W: Word>(geo: &Geometry<W>, defender: W, empty: W) -> Option<W> {
    matched_cells(geo, defender, empty)
        .or_else(|| exact_pairs(geo, defender, empty).map(|pairs| cells_of(&pairs)))
}

/// The cells of the matching's pairing, when it finds one.
fn matched_cells<W: Word>(geo: &Geometry<W>, defender: W, empty: W) -> Option<W> {
    let mut owner = W::per_cell(u8::MAX);
    match_pairs(geo, defender, empty, &mut owner).then(|| owned_cells(&owner))
}

/// The cells of `pairs`.
fn cells_of<W: Word>(pairs: &[(u8, u8)]) -> W {
    pairs.iter().fold(W::ZERO, |z, &(a, b)| {
        z | W::bit(a as usize) | W::bit(b as usize)
    })
}

/// A pairing of the defender (to move) now, `(None, its cells)`, or after a
/// move of its own, `(Some(move), the pairs' cells and the move)`: its zone
/// either way. The search's defender node plays one move and looks for a
/// pairing only after it; trying the moves for one first proves most nodes a
/// move sooner (7,7,5 by zones: 0.16M nodes against 62.9M).
///
/// Only moves that can clear what stops the pairing now are tried: cells of
/// the windows of the groups the matching could not serve (an attacker's four:
/// its block alone), where a move leaves no more groups than pairs of their
/// cells, those on the most open windows first: each by the matching, then
/// the first [`EXACT_REPLIES`] by the exact search. The grouping is greedy, so
/// this may miss a move that works; it never claims one that does not.
pub(super) fn pairing_reply<W: Word>(
    geo: &Geometry<W>,
    defender: W,
    empty: W,
) -> Option<(Option<usize>, W)> {
    let mut owner = W::per_cell(u8::MAX);
    let mut grouped = Groups::new();
    let (obstacle, groups) = match group_windows(geo, defender, empty, &mut grouped) {
        Err(window) => (window, None),
        Ok(()) => match grouped.match_cells(&mut owner) {
            Ok(()) => return Some((None, owned_cells(&owner))),
            // (No exact search here: in the zone search the same stones with
            // the attacker to move were searched one node up, by the pass or
            // the move; negamax's node looks for the opponent's pairing only.)
            Err(obstacle) => (obstacle, Some(&grouped)),
        },
    };
    // The moves that leave no more groups than pairs of their cells (a move
    // closes the groups it is in a window of: a bound, since a line's windows
    // regroup).
    let candidates = match groups {
        None => obstacle & empty,
        Some(g) => {
            let mut closed = W::per_cell(0u8);
            for &span in g.spans() {
                let mut rest = span & obstacle;
                while !rest.is_empty() {
                    closed[rest.first()] += 1;
                    rest = rest.without_first();
                }
            }
            let cells = g.cells().iter().fold(W::ZERO, |a, &c| a | c);
            let mut fits = W::ZERO;
            let mut rest = obstacle & empty;
            while !rest.is_empty() {
                let cell = rest.first();
                rest = rest.without_first();
                let left = cells.count() as usize - usize::from(!(cells & W::bit(cell)).is_empty());
                if 2 * (g.count - closed[cell] as usize) <= left {
                    fits |= W::bit(cell);
                }
            }
            fits
        }
    };
    // Every candidate by the matching (cheap, and most replies are found so),
    // then the first few by the exact search.
    let order = most_open_first(geo, defender, empty, candidates);
    for &cell in &order {
        let bit = W::bit(cell);
        if let Some(pairs) = matched_cells(geo, defender | bit, empty & !bit) {
            return Some((Some(cell), pairs | bit));
        }
    }
    for &cell in order.iter().take(EXACT_REPLIES) {
        let bit = W::bit(cell);
        if let Some(pairs) = exact_pairs(geo, defender | bit, empty & !bit) {
            return Some((Some(cell), cells_of::<W>(&pairs) | bit));
        }
    }
    None
}

/// `candidates`, those on the most windows free of `defender`'s stones first
/// (a move there closes the most), then the lower.
fn most_open_first<W: Word>(geo: &Geometry<W>, defender: W, empty: W, candidates: W) -> Vec<usize> {
    if candidates.without_first().is_empty() {
        return if candidates.is_empty() {
            Vec::new()
        } else {
            vec![candidates.first()]
        };
    }
    let mut degree = W::per_cell(0u8);
    for &line in &geo.lines {
        if (line & defender).is_empty() {
            let mut rest = line & empty & candidates;
            while !rest.is_empty() {
                degree[rest.first()] += 1;
                rest = rest.without_first();
            }
        }
    }
    let mut order = Vec::with_capacity(candidates.count() as usize);
    let mut rest = candidates;
    while !rest.is_empty() {
        let cell = rest.first();
        rest = rest.without_first();
        order.push((u8::MAX - degree[cell], cell));
    }
    order.sort_unstable();
    order.into_iter().map(|(_, cell)| cell).collect()
}

/// The cells a matching took.
fn owned_cells<W: Word>(owner: &W::PerCell<u8>) -> W {
    let mut cells = W::ZERO;
    for (cell, &slot) in owner.as_ref().iter().enumerate() {
        if slot != u8::MAX {
            cells |= W::bit(cell);
        }
    }
    cells
}

/// The pairs of [`defender_pairs`], as cells (the lower first), when it finds
/// them: what a proof writes down for a checker to verify.
pub(super) fn defender_pairing<W: Word>(
    geo: &Geometry<W>,
    defender: W,
    empty: W,
) -> Option<Vec<(u8, u8)>> {
    matched_pairing(geo, defender, empty).or_else(|| exact_pairs(geo, defender, empty))
}

/// The pairs of the matching alone (no exact search), when it finds them: a
/// proof's node where the zone search looks no further (the defender to move).
pub(super) fn matched_pairing<W: Word>(
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
/// group) that took the cell, `u8::MAX` for none.
fn match_pairs<W: Word>(
    geo: &Geometry<W>,
    defender: W,
    empty: W,
    owner: &mut W::PerCell<u8>,
) -> bool {
    let mut groups = Groups::new();
    group_windows(geo, defender, empty, &mut groups).is_ok() && groups.match_cells(owner).is_ok()
}

/// The open windows grouped along each line of the board: each group's common
/// empty cells (where its pair goes) and the empty cells of its windows (its
/// span). At most one group per two cells (`W::PerPair`).
struct Groups<W: Word> {
    cells: W::PerPair<W>,
    spans: W::PerPair<W>,
    count: usize,
}

/// The groups of the windows free of `defender`'s stones, or the empty cells of
/// an open window with fewer than two (no pair fits in it).
fn group_windows<W: Word>(
    geo: &Geometry<W>,
    defender: W,
    empty: W,
    g: &mut Groups<W>,
) -> Result<(), W> {
    g.count = 0;
    let max_groups = W::BITS / 2;
    // Per direction and start cell: 1 + the group of the open window there.
    let mut group_at = [W::per_cell(0u8); 4];
    for (i, &line) in geo.lines.iter().enumerate() {
        if !(line & defender).is_empty() {
            continue;
        }
        let free = line & empty;
        if free.count() < 2 {
            return Err(free);
        }
        let d = geo.line_directions[i] as usize;
        let start = line.first();
        let step = geo.steps[d] as usize;
        // The window one step back along the same line of the board, if open.
        let before = start
            .checked_sub(step)
            .filter(|_| step > 0)
            .map_or(0, |b| group_at[d][b]);
        let j = before as usize;
        if j > 0 && (g.cells[j - 1] & free).count() >= 2 {
            g.cells[j - 1] &= free;
            g.spans[j - 1] |= free;
            group_at[d][start] = before;
        } else {
            if g.count == max_groups {
                return Err(empty); // more groups than pairs of cells
            }
            g.cells[g.count] = free;
            g.spans[g.count] = free;
            g.count += 1;
            group_at[d][start] = g.count as u8;
        }
    }
    Ok(())
}

impl<W: Word> Groups<W> {
    fn new() -> Groups<W> {
        Groups {
            cells: W::per_pair(W::ZERO),
            spans: W::per_pair(W::ZERO),
            count: 0,
        }
    }

    fn spans(&self) -> &[W] {
        &self.spans.as_ref()[..self.count]
    }

    fn cells(&self) -> &[W] {
        &self.cells.as_ref()[..self.count]
    }

    /// Two cells of its own for each group (Kuhn's augmenting paths), or the
    /// spans of the groups that stop it: groups with fewer cells among them
    /// than their pairs need.
    fn match_cells(&self, owner: &mut W::PerCell<u8>) -> Result<(), W> {
        let groups = self.cells();
        let all = groups.iter().fold(W::ZERO, |a, &g| a | g);
        if (all.count() as usize) < 2 * self.count {
            return Err(self.spans().iter().fold(W::ZERO, |a, &s| a | s));
        }
        for slot in 0..2 * self.count {
            let mut visited = W::ZERO;
            if !augment(groups, slot, owner, &mut visited) {
                // The groups the search reached.
                let mut obstacle = self.spans[slot / 2];
                let mut rest = visited;
                while !rest.is_empty() {
                    let c = rest.first();
                    rest = rest.without_first();
                    if owner[c] != u8::MAX {
                        obstacle |= self.spans[owner[c] as usize / 2];
                    }
                }
                return Err(obstacle);
            }
        }
        Ok(())
    }
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

/// Choices the exact pairing search makes at most before it gives up (a missed
/// pairing, never a false one): 8x8 finds most of its pairings within 16 or 32,
/// and a search that finds none costs about this much.
const EXACT_PAIRING_NODES: u32 = 32;

/// The candidate replies the exact pairing search tries, where the matching
/// found no reply: the first two.
const EXACT_REPLIES: usize = 2;

/// A pairing of the `empty` cells for `defender`, searched pair by pair (where
/// the greedy grouping finds none): the open windows' empty cells are the
/// constraints; the window with the fewest cells not yet paired takes each pair
/// of its cells in turn, which serves every window holding both. `None` when
/// there is none, or none within [`EXACT_PAIRING_NODES`].
fn exact_pairs<W: Word>(geo: &Geometry<W>, defender: W, empty: W) -> Option<Vec<(u8, u8)>> {
    exact_pairs_within(geo, defender, empty, EXACT_PAIRING_NODES)
}

/// [`exact_pairs`] within `nodes` choices.
pub(super) fn exact_pairs_within<W: Word>(
    geo: &Geometry<W>,
    defender: W,
    empty: W,
    nodes: u32,
) -> Option<Vec<(u8, u8)>> {
    let mut search = ExactPairs {
        windows: Vec::with_capacity(4 * geo.lines.len()),
        pairs: Vec::new(),
        nodes,
    };
    for &line in &geo.lines {
        if (line & defender).is_empty() {
            let free = line & empty;
            if !at_least_two(free) {
                return None;
            }
            search.windows.push(free);
        }
    }
    let open = search.windows.len();
    search.cover(0, open, W::ZERO).then_some(search.pairs)
}

/// The state of [`exact_pairs`]: the windows not yet served, one segment a
/// level of the search (each level's after its parent's), the pairs chosen on
/// the way down, and the nodes left.
struct ExactPairs<W: Word> {
    windows: Vec<W>,
    pairs: Vec<(u8, u8)>,
    nodes: u32,
}

impl<W: Word> ExactPairs<W> {
    /// Whether pairs of cells outside `used` serve `windows[start..end]` (the
    /// last segment); they are pushed onto `pairs` (left as they were if not).
    /// A window with two free cells left takes them at once; only a choice
    /// among more uses up a node.
    fn cover(&mut self, mut start: usize, mut end: usize, mut used: W) -> bool {
        let chosen = self.pairs.len();
        let fewest = loop {
            if start == end {
                return true;
            }
            // The window with the fewest free cells (fewer than two: a dead end).
            let mut fewest = (u32::MAX, W::ZERO);
            for &window in &self.windows[start..end] {
                let free = window & !used;
                let n = free.count();
                if n < 2 {
                    self.pairs.truncate(chosen);
                    return false;
                }
                if n < fewest.0 {
                    fewest = (n, free);
                    if n == 2 {
                        break;
                    }
                }
            }
            if fewest.0 > 2 {
                break fewest.1;
            }
            // Its only pair.
            let pair = fewest.1;
            self.serve(start, end, pair);
            (start, end, used) = (end, self.windows.len(), used | pair);
        };
        if self.nodes == 0 {
            self.pairs.truncate(chosen);
            return false;
        }
        self.nodes -= 1;
        // Its pairs, those serving the most windows first.
        let mut options: Vec<(u32, W)> = Vec::with_capacity(10);
        let mut firsts = fewest;
        while !firsts.is_empty() {
            let a = firsts.first();
            firsts = firsts.without_first();
            let mut seconds = firsts;
            while !seconds.is_empty() {
                let pair = W::bit(a) | seconds.first_bit();
                seconds = seconds.without_first();
                let served = self.windows[start..end]
                    .iter()
                    .filter(|&&w| w & pair == pair)
                    .count();
                options.push((u32::MAX - served as u32, pair));
            }
        }
        options.sort_unstable();
        for (_, pair) in options {
            self.serve(start, end, pair);
            if self.cover(end, self.windows.len(), used | pair) {
                return true;
            }
            self.pairs.pop();
            self.windows.truncate(end);
            if self.nodes == 0 {
                break;
            }
        }
        self.pairs.truncate(chosen);
        false
    }

    /// Takes `pair` (two cells) and pushes the windows of `windows[start..end]`
    /// it does not serve as the next segment.
    fn serve(&mut self, start: usize, end: usize, pair: W) {
        for i in start..end {
            let window = self.windows[i];
            if window & pair != pair {
                self.windows.push(window);
            }
        }
        let a = pair.first();
        let b = pair.without_first().first();
        self.pairs.push((a as u8, b as u8));
    }
}

/// Whether `cells` holds two cells or more.
#[inline(always)]
fn at_least_two<W: Word>(cells: W) -> bool {
    !cells.without_first().is_empty()
}
