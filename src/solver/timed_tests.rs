//! `best_move_within`: legal, never a worse proven outcome, bounded by its
//! deadline's checks (not by wall-clock time), and `best_move`'s answer once the
//! search finishes.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::choice::centre_first;
use super::tests::{random_position, xorshift};
use super::*;

/// `count` random positions of `w`x`h` (line 4) after `plies` random moves, not over.
fn random_positions(w: usize, h: usize, plies: usize, count: usize, seed: u64) -> Vec<Position> {
    let mut next = xorshift(seed);
    (0..count)
        .map(|_| random_position(w, h, plies, &mut next))
        .collect()
}

/// The best exact score, ties to the column nearest the centre: `best_move`'s
/// documented answer, from `analyze` alone.
fn best_by_analyze(solver: &mut Solver, pos: &Position) -> usize {
    let scores = solver.analyze(pos, false, &AtomicBool::new(false)).unwrap();
    let mut best: Option<(i32, usize)> = None;
    for c in centre_first(pos.width()) {
        if let Some(s) = scores[c] {
            if best.is_none_or(|(b, _)| s > b) {
                best = Some((s, c));
            }
        }
    }
    best.unwrap().1
}

fn solver(threads: usize) -> Solver {
    Solver::new(SolverConfig {
        tt_bytes: 1 << 24,
        threads,
    })
    .unwrap()
}

#[test]
fn with_time_to_finish_it_is_the_exact_best_move() {
    let cancel = AtomicBool::new(false);
    let mut reference = solver(1);
    for (threads, plies) in [(1, 14), (1, 20), (2, 16), (1, 28)] {
        let mut s = solver(threads);
        for pos in random_positions(7, 6, plies, 12, 0xbeef + plies as u64) {
            let want = best_by_analyze(&mut reference, &pos);
            let untimed = s.best_move_within(&pos, None, &cancel).unwrap();
            assert!(untimed.complete);
            assert_eq!(untimed.column, want, "{:?}", pos.cells());
            assert_eq!(s.best_move(&pos, &cancel).unwrap(), want);
            s.clear();
            let generous = Deadline::after(Duration::from_secs(3600));
            let timed = s.best_move_within(&pos, Some(&generous), &cancel).unwrap();
            assert!(timed.complete);
            assert_eq!(timed.column, want, "{:?}", pos.cells());
        }
    }
}

#[test]
fn any_budget_gives_a_legal_move_never_worse_than_a_proven_one() {
    let cancel = AtomicBool::new(false);
    let mut truth = solver(1);
    for threads in [1, 2] {
        let mut s = solver(threads);
        for (i, pos) in random_positions(7, 6, 10, 16, 0x5eed)
            .into_iter()
            .enumerate()
        {
            let weak = truth.analyze(&pos, true, &cancel).unwrap();
            for checks in [1, 2, 5, 20, 100] {
                s.clear();
                let deadline = Deadline::at_check(checks);
                let got = s.best_move_within(&pos, Some(&deadline), &cancel).unwrap();
                assert!(pos.can_play(got.column), "{i}: {got:?}");
                // Every claim is true...
                for (c, m) in got.moves.iter().enumerate() {
                    assert_eq!(m.is_some(), pos.can_play(c));
                    if let (Some(m), Some(w)) = (m, weak[c]) {
                        assert!(m.lo <= w && w <= m.hi, "{i} col {c}: {m:?} vs {w}");
                    }
                }
                // ...and the chosen move's guaranteed outcome is the best one.
                let chosen = got.moves[got.column].unwrap();
                for m in got.moves.iter().flatten() {
                    assert!(chosen.lo >= m.lo, "{i}: {got:?}");
                    if m.lo == m.hi {
                        assert!(chosen.lo >= m.lo && chosen.hi >= m.hi, "{i}: {got:?}");
                    }
                }
            }
        }
    }
}

#[test]
fn the_search_stops_within_one_poll_per_thread_of_its_deadline() {
    // Opening positions need millions of nodes: every budget below ends the search.
    let cancel = AtomicBool::new(false);
    for threads in [1, 2] {
        let mut s = solver(threads);
        for moves in ["", "4", "44", "4453"] {
            let pos = Position::parse_pons(moves).unwrap();
            for checks in [1, 3, 10, 40] {
                s.clear();
                let deadline = Deadline::at_check(checks);
                let got = s.best_move_within(&pos, Some(&deadline), &cancel).unwrap();
                assert!(!got.complete);
                assert!(deadline.checks() <= checks);
                // A check every 1024 nodes of each thread, and one before each
                // move's search; a search of fewer nodes than that checks nothing.
                let bound = (deadline.checks() + threads as u64) * 1024;
                assert!(
                    s.nodes() <= bound,
                    "{moves:?} {checks} checks: {} nodes > {bound}",
                    s.nodes()
                );
            }
        }
        // No time at all: no search, yet a legal move.
        let deadline = Deadline::after(Duration::ZERO);
        let pos = Position::parse_pons("4453").unwrap();
        let got = s.best_move_within(&pos, Some(&deadline), &cancel).unwrap();
        assert_eq!(s.nodes(), 0);
        assert!(pos.can_play(got.column));
    }
}

#[test]
fn without_time_it_still_takes_an_immediate_win_and_avoids_handing_one_over() {
    let cancel = AtomicBool::new(false);
    let mut s = solver(1);
    // Column 3 wins at once for the first player (three stones in column 3).
    let win = Position::from_moves(7, 6, 4, &[3, 0, 3, 0, 3, 1]).unwrap();
    let none = Deadline::after(Duration::ZERO);
    assert_eq!(
        s.best_move_within(&win, Some(&none), &cancel)
            .unwrap()
            .column,
        3
    );
    // The second player must block column 3; every other move loses at once.
    let block = Position::from_moves(7, 6, 4, &[3, 0, 3, 0, 3]).unwrap();
    let got = s.best_move_within(&block, Some(&none), &cancel).unwrap();
    assert_eq!(got.column, 3);
    for (c, m) in got.moves.iter().enumerate() {
        if c != 3 {
            assert_eq!(m.map(|m| (m.lo, m.hi)), Some((-1, -1)), "column {c}");
        }
    }
}

#[test]
fn a_cancelled_timed_call_is_interrupted_and_over_games_are_refused() {
    let mut s = solver(1);
    let pos = Position::parse_pons("44").unwrap();
    let deadline = Deadline::after(Duration::from_secs(3600));
    assert_eq!(
        s.best_move_within(&pos, Some(&deadline), &AtomicBool::new(true)),
        Err(SolveError::Interrupted)
    );
    let won = Position::from_moves(7, 6, 4, &[3, 0, 3, 0, 3, 0, 3]).unwrap();
    assert!(matches!(
        s.best_move_within(&won, Some(&deadline), &AtomicBool::new(false)),
        Err(SolveError::GameOver(_))
    ));
}
