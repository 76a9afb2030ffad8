//! The zone search against the negamax search (zones off) on random positions,
//! and against the claim a zone makes: the attacker's stones on any cells
//! outside it leave the defender holding.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use super::geometry::Geometry;
use super::pairing::pairing_reply;
use super::zone::ZoneSearch;
use super::zone_table::ZoneTable;
use super::{FreePosition, FreeSolver};
use crate::rng::Rng;

/// `count` random positions of `width` x `height` (k in a row) with at least
/// `least` stones and no line.
pub(super) fn random_positions(
    width: usize,
    height: usize,
    k: usize,
    count: usize,
    least: usize,
    seed: u64,
) -> Vec<FreePosition> {
    let mut rng = Rng::new(seed, 0);
    let n = width * height;
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = FreePosition::new(width, height, k).unwrap();
        let plies = least + rng.below((n - least) as u32) as usize;
        for _ in 0..plies {
            let free: Vec<usize> = (0..n).filter(|&c| pos.can_play(c)).collect();
            let cell = free[rng.below(free.len() as u32) as usize];
            let mut next = pos;
            next.play(cell).unwrap();
            if next.is_over() {
                break;
            }
            pos = next;
        }
        out.push(pos);
    }
    out
}

#[test]
fn weak_values_by_zones_equal_negamax_on_random_positions() {
    let cancel = AtomicBool::new(false);
    for (w, h, k, least) in [
        (4, 4, 3, 0),
        (5, 4, 4, 2),
        (5, 5, 4, 3),
        (6, 5, 4, 6),
        (6, 6, 4, 10),
        (7, 5, 5, 8),
        (6, 6, 5, 8),
    ] {
        // One solver for all positions of a board, so table entries of
        // earlier positions are read by later ones.
        let mut zones = FreeSolver::new(1 << 22).unwrap();
        let mut negamax = FreeSolver::new(1 << 22).unwrap();
        negamax.set_zone_search(false);
        for pos in random_positions(w, h, k, 60, least, 11) {
            let expected = negamax.solve(&pos, true, &cancel).unwrap();
            let got = zones.solve(&pos, true, &cancel).unwrap();
            assert_eq!(got, expected, "{w}x{h} k={k} cells {:?}", pos.to_cells());
        }
    }
}

#[test]
fn the_published_draws_and_wins_by_zones() {
    let cancel = AtomicBool::new(false);
    let mut solver = FreeSolver::new(1 << 24).unwrap();
    for (w, h, k, value) in [
        (3, 3, 3, 0),
        (4, 3, 3, 1),
        (4, 4, 4, 0),
        (5, 5, 4, 0),
        (6, 5, 4, 1),
        (6, 6, 5, 0),
        (7, 6, 5, 0),
    ] {
        let pos = FreePosition::new(w, h, k).unwrap();
        assert_eq!(
            solver.solve(&pos, true, &cancel).unwrap(),
            value,
            "{w},{h},{k}"
        );
    }
}

/// Whether the attacker forces a line (a plain search over bit sets, memoised):
/// a line of either side ends the game, a full board is no line.
pub(super) struct Forces<'g> {
    pub geo: &'g Geometry<u64>,
    pub memo: HashMap<(u64, u64, bool), bool>,
}

impl Forces<'_> {
    pub fn attacker_wins(&mut self, attacker: u64, defender: u64, attacker_to_move: bool) -> bool {
        let key = (attacker, defender, attacker_to_move);
        if let Some(&known) = self.memo.get(&key) {
            return known;
        }
        let empty: Vec<u64> = (0..self.geo.cells as usize)
            .map(|c| 1u64 << c)
            .filter(|&b| (attacker | defender) & b == 0)
            .collect();
        let wins = if attacker_to_move {
            empty.iter().any(|&b| self.geo.has_line(attacker | b))
                || empty
                    .iter()
                    .any(|&b| self.attacker_wins(attacker | b, defender, false))
        } else {
            !empty.is_empty()
                && !empty.iter().any(|&b| self.geo.has_line(defender | b))
                && empty
                    .iter()
                    .all(|&b| self.attacker_wins(attacker, defender | b, true))
        };
        self.memo.insert(key, wins);
        wins
    }
}

/// Attacker stones on random cells outside a defender's zone: the defender
/// still holds (the attacker makes no line with them, and cannot force one).
/// Each cell of `cells` with probability one half.
fn some_cells(rng: &mut Rng, cells: u64) -> u64 {
    (0..64)
        .map(|c| 1u64 << c)
        .filter(|&b| cells & b != 0 && rng.below(2) == 0)
        .fold(0, |set, b| set | b)
}

#[test]
fn attacker_stones_outside_a_zone_leave_the_defender_holding() {
    let cancel = AtomicBool::new(false);
    let mut rng = Rng::new(23, 0);
    let mut checked = 0;
    let mut with_extra = 0;
    for (w, h, k, least) in [(4, 4, 3, 3), (5, 5, 4, 10), (6, 5, 4, 14), (6, 6, 5, 20)] {
        let geo = Geometry::<u64>::new(w, h, k, false).unwrap();
        let table = ZoneTable::<u64>::new(1 << 22).unwrap();
        let mut plain = Forces {
            geo: &geo,
            memo: HashMap::new(),
        };
        for pos in random_positions(w, h, k, 60, least, 29) {
            let (current, mask) = pos.stones::<u64>();
            let opponent = current ^ mask;
            let empty = geo.board & !mask;
            // The side to move attacks, then the other side does.
            for (attacker, defender, attacker_to_move) in
                [(current, opponent, true), (opponent, current, false)]
            {
                let mut search = ZoneSearch::new(&geo, &table, &cancel);
                let Some(zone) = search.outcome(attacker, defender, attacker_to_move) else {
                    assert!(plain.attacker_wins(attacker, defender, attacker_to_move));
                    continue;
                };
                for _ in 0..4 {
                    let extra = some_cells(&mut rng, empty & !zone);
                    let with = attacker | extra;
                    assert!(
                        !geo.has_line(with),
                        "{w}x{h} k={k}: extra stones made a line"
                    );
                    assert!(
                        !plain.attacker_wins(with, defender, attacker_to_move),
                        "{w}x{h} k={k} attacker {with:#x} defender {defender:#x}: \
                         the attacker wins with stones outside the zone {zone:#x}"
                    );
                    checked += 1;
                    with_extra += (extra != 0) as usize;
                }
            }
        }
    }
    assert!(
        with_extra > 200,
        "only {with_extra} of {checked} checks added stones"
    );
}

#[test]
fn a_pairing_after_the_defenders_move_holds_against_stones_outside_its_zone() {
    let mut rng = Rng::new(31, 0);
    let (mut replies, mut already) = (0, 0);
    for (w, h, k, least) in [(4, 4, 3, 2), (5, 5, 4, 8), (6, 5, 4, 14), (6, 6, 5, 18)] {
        let geo = Geometry::<u64>::new(w, h, k, false).unwrap();
        let mut plain = Forces {
            geo: &geo,
            memo: HashMap::new(),
        };
        for pos in random_positions(w, h, k, 150, least, 37) {
            let (current, mask) = pos.stones::<u64>();
            let (defender, attacker) = (current, current ^ mask);
            let empty = geo.board & !mask;
            let Some((reply, zone)) = pairing_reply(&geo, defender, empty) else {
                continue;
            };
            let defender = match reply {
                Some(cell) => {
                    assert!(empty >> cell & 1 == 1 && zone >> cell & 1 == 1);
                    replies += 1;
                    defender | 1 << cell
                }
                None => {
                    already += 1;
                    defender
                }
            };
            let empty = geo.board & !(attacker | defender);
            for _ in 0..3 {
                let with = attacker | some_cells(&mut rng, empty & !zone);
                assert!(
                    !geo.has_line(with) && !plain.attacker_wins(with, defender, true),
                    "{w}x{h} k={k} attacker {with:#x} defender {defender:#x}: \
                     the pairing of zone {zone:#x} does not hold"
                );
            }
        }
    }
    assert!(
        replies > 50 && already > 5,
        "{replies} replies, {already} pairings already"
    );
}

#[test]
fn pinned_outcomes_let_a_later_search_resume() {
    let cancel = AtomicBool::new(false);
    let pos = FreePosition::new(7, 6, 5).unwrap();
    let (sink, proven) = std::sync::mpsc::channel();
    let mut first = FreeSolver::new(1 << 24).unwrap();
    first.set_pinned_stones(4, Some(sink));
    assert_eq!(first.solve(&pos, true, &cancel).unwrap(), 0);
    let first_nodes = first.nodes();
    let pinned: Vec<_> = proven.try_iter().collect();
    assert!(pinned.len() > 10, "{} pinned", pinned.len());
    assert!(pinned
        .iter()
        .all(|o| (o.attacker | o.defender).count_ones() <= 4));
    // A fresh solver given them finds the value at once, and sends nothing new.
    let (sink, again) = std::sync::mpsc::channel();
    let mut second = FreeSolver::new(1 << 24).unwrap();
    second.set_pinned_stones(4, Some(sink));
    second.add_pinned(&pos, &pinned).unwrap();
    assert_eq!(second.solve(&pos, true, &cancel).unwrap(), 0);
    assert!(
        second.nodes() * 100 < first_nodes,
        "{} of {first_nodes}",
        second.nodes()
    );
    assert_eq!(again.try_iter().count(), 0);
    // Cells off the board are refused.
    let mut bad = pinned[0];
    bad.zone = Some(1 << 42);
    let err = second.add_pinned(&pos, &[bad]).unwrap_err();
    assert!(err.to_string().contains("7x6"), "{err}");
}
