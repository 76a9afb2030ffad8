//! Threads sharing one zone search: the table's entries survive concurrent
//! writers whole, and the shared search's outcomes and zones are those of one
//! thread's (judged by a plain search of its own).

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use super::geometry::Geometry;
use super::word::Word;
use super::zone::outcome_shared;
use super::zone_table::{ZoneTable, STORE_BATCH};
use super::zone_tests::{random_positions, Forces};
use super::FreeSolver;
use crate::rng::Rng;

/// The entry every thread stores for key `i`: stones, side to move and outcome
/// all derived from `i`, so a read that mixed two writes shows.
fn entry<W: Word>(i: u64) -> (W, W, bool, Option<W>) {
    let word = W::below(W::BITS).widen();
    let spread = |x: u64| W::narrow((u128::from(x) | u128::from(x.rotate_left(17)) << 64) & word);
    let attacker = spread(i.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let defender = spread(i.wrapping_mul(0xC2B2_AE3D_27D4_EB4F) & !1);
    let zone = (!i.is_multiple_of(3)).then(|| spread(i.wrapping_mul(0x1656_67B1_9E37_79F9)));
    (attacker, defender, i.is_multiple_of(2), zone)
}

fn table_keeps_whole_entries<W: Word>() {
    // A small table (64 slots after growth), so the threads meet in slots.
    let table = ZoneTable::<W>::new(64 * 64).unwrap();
    let hits = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for thread in 0..4u64 {
            let table = &table;
            let hits = &hits;
            scope.spawn(move || {
                let mut rng = Rng::new(97 + thread, 0);
                for step in 0..200_000 {
                    let i = u64::from(rng.below(500));
                    let (a, d, turn, known) = entry::<W>(i);
                    if rng.below(2) == 0 {
                        table.put(a, d, turn, known);
                    } else if let Some(got) = table.get(a, d, turn) {
                        assert_eq!(got, known, "key {i}: a mixed entry");
                        hits.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    }
                    // A key stored for one side to move is never read for the other.
                    assert_eq!(table.get(a, d, !turn), None);
                    if step % STORE_BATCH == 0 {
                        table.count_stores(STORE_BATCH);
                    }
                }
            });
        }
    });
    assert!(hits.into_inner() > 1000, "too few hits to judge the reads");
}

#[test]
fn a_shared_table_keeps_whole_entries_under_four_threads() {
    table_keeps_whole_entries::<u64>();
    table_keeps_whole_entries::<u128>();
}

/// The outcome by `threads` threads from the first node (no search alone first).
fn threads_outcome(
    geo: &Geometry<u64>,
    table: &ZoneTable<u64>,
    threads: usize,
    attacker: u64,
    defender: u64,
    to_move: bool,
) -> Option<u64> {
    let cancel = AtomicBool::new(false);
    let (outcome, _) = outcome_shared(
        geo,
        table,
        &cancel,
        u64::MAX,
        threads,
        0,
        attacker,
        defender,
        to_move,
    );
    outcome.expect("not stopped")
}

/// Three threads from the first node (no search alone first), each position's
/// table fresh: the outcome is the plain search's, and the attacker's stones on
/// random cells outside a defender's zone leave it holding.
#[test]
fn three_threads_find_the_outcomes_and_true_zones_of_the_plain_search() {
    let mut rng = Rng::new(5, 0);
    let mut held = 0;
    for (w, h, k, least) in [(4, 4, 3, 3), (5, 5, 4, 10), (6, 5, 4, 14), (6, 6, 5, 20)] {
        let geo = Geometry::<u64>::new(w, h, k, false).unwrap();
        let mut plain = Forces {
            geo: &geo,
            memo: HashMap::new(),
        };
        for pos in random_positions(w, h, k, 40, least, 43) {
            let (current, mask) = pos.stones::<u64>();
            let opponent = current ^ mask;
            for (attacker, defender, to_move) in
                [(current, opponent, true), (opponent, current, false)]
            {
                let table = ZoneTable::<u64>::new(1 << 20).unwrap();
                let outcome = threads_outcome(&geo, &table, 3, attacker, defender, to_move);
                let wins = plain.attacker_wins(attacker, defender, to_move);
                assert_eq!(
                    outcome.is_none(),
                    wins,
                    "{w}x{h} k={k} cells {:?}",
                    pos.to_cells()
                );
                let Some(zone) = outcome else { continue };
                held += 1;
                let outside = geo.board & !mask & !zone;
                for _ in 0..3 {
                    let extra = (0..w * h)
                        .map(|c| 1u64 << c)
                        .filter(|&b| outside & b != 0 && rng.below(2) == 0)
                        .fold(0, |set, b| set | b);
                    assert!(
                        !geo.has_line(attacker | extra)
                            && !plain.attacker_wins(attacker | extra, defender, to_move),
                        "{w}x{h} k={k} cells {:?}: stones outside the zone {zone:#x} win",
                        pos.to_cells()
                    );
                }
            }
        }
    }
    assert!(held > 50, "only {held} defender outcomes");
}

/// Four threads on positions of few stones (where nodes mark themselves busy
/// and moves are deferred), each position's table fresh: the outcome is the
/// negamax search's.
#[test]
fn four_threads_find_the_outcomes_of_negamax_near_the_root() {
    let cancel = AtomicBool::new(false);
    for (w, h, k, least, count) in [(5, 5, 4, 0, 30), (6, 5, 4, 2, 30), (7, 6, 5, 6, 12)] {
        let geo = Geometry::<u64>::new(w, h, k, false).unwrap();
        let mut negamax = FreeSolver::new(1 << 24).unwrap();
        negamax.set_zone_search(false);
        for pos in random_positions(w, h, k, count, least, 47) {
            let (current, mask) = pos.stones::<u64>();
            let opponent = current ^ mask;
            let expected = negamax.solve(&pos, true, &cancel).unwrap();
            let table = ZoneTable::<u64>::new(1 << 22).unwrap();
            let shared = |attacker, defender, to_move| {
                threads_outcome(&geo, &table, 4, attacker, defender, to_move).is_none()
            };
            let got = if shared(current, opponent, true) {
                1
            } else if shared(opponent, current, false) {
                -1
            } else {
                0
            };
            assert_eq!(got, expected, "{w}x{h} k={k} cells {:?}", pos.to_cells());
        }
    }
}
