//! The book inside the search: answers unchanged, fewer nodes.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use super::book::{self, Book, Kind, LevelCodes, SlotIndex};
use super::tests::{random_position, xorshift};
use super::*;

/// A complete win/draw/loss book of `w`x`h` (line 4) down to `depth` plies,
/// keeping the levels `keep` accepts.
fn weak_book(w: usize, h: usize, depth: usize, keep: impl Fn(usize) -> bool) -> Arc<Book> {
    let index = SlotIndex::for_position(&Position::new(w, h, 4).unwrap());
    let positions = book::reachable(&index, depth).unwrap();
    let mut solver = Solver::new(SolverConfig::default()).unwrap();
    let cancel = AtomicBool::new(false);
    let deepest = book::fill_level(&index, Kind::Weak, depth, &positions[depth], |pos| {
        solver.solve(pos, true, &cancel).unwrap()
    })
    .unwrap();
    let levels: Vec<LevelCodes> = book::back_up_all(&index, &positions, deepest)
        .unwrap()
        .into_iter()
        .filter(|l| keep(l.ply))
        .collect();
    Arc::new(Book::from_bytes(book::encode(&index, &levels).unwrap()).unwrap())
}

/// A complete exact book of `w`x`h` (line 4) down to `depth` plies, with its slot
/// index and the reachable positions of each ply.
fn exact_book(w: usize, h: usize, depth: usize) -> (SlotIndex, Vec<Vec<u64>>, Arc<Book>) {
    let index = SlotIndex::for_position(&Position::new(w, h, 4).unwrap());
    let positions = book::reachable(&index, depth).unwrap();
    let cancel = AtomicBool::new(false);
    let mut truth = solver();
    let deepest = book::fill_level(&index, Kind::Exact, depth, &positions[depth], |pos| {
        truth.solve(pos, false, &cancel).unwrap()
    })
    .unwrap();
    let levels = book::back_up_all(&index, &positions, deepest).unwrap();
    let book = Arc::new(Book::from_bytes(book::encode(&index, &levels).unwrap()).unwrap());
    (index, positions, book)
}

fn solver() -> Solver {
    Solver::new(SolverConfig {
        tt_bytes: 1 << 24,
        threads: 1,
    })
    .unwrap()
}

#[test]
fn probes_inside_the_search_change_no_answer_and_save_nodes() {
    // Only the deepest level: a root above it is searched, and the search meets
    // the book at ply 6 (the root level answers directly otherwise).
    let (w, h, depth) = (6, 5, 6);
    let book = weak_book(w, h, depth, |ply| ply == depth);
    let cancel = AtomicBool::new(false);
    let (mut with, mut without) = (solver(), solver());
    with.set_book(Some(book));
    let mut next = xorshift(0x600d);
    let (mut nodes_with, mut nodes_without, mut hits) = (0, 0, 0);
    for i in 0..30 {
        let pos = random_position(w, h, 2 + i % (depth - 2), &mut next);
        for weak in [true, false] {
            with.clear();
            without.clear();
            let a = with.solve(&pos, weak, &cancel).unwrap();
            let b = without.solve(&pos, weak, &cancel).unwrap();
            assert_eq!(a, b, "weak={weak} {:?}", pos.cells());
            nodes_with += with.nodes();
            nodes_without += without.nodes();
            hits += with.book_hits();
            assert_eq!(without.book_hits(), 0);
        }
        if i % 4 == 0 {
            let a = with.analyze(&pos, false, &cancel).unwrap();
            assert_eq!(a, without.analyze(&pos, false, &cancel).unwrap());
            assert_eq!(
                with.best_move(&pos, &cancel).unwrap(),
                without.best_move(&pos, &cancel).unwrap()
            );
        }
    }
    assert!(hits > 0);
    assert!(
        nodes_with * 2 < nodes_without,
        "with the book {nodes_with} nodes, without {nodes_without}"
    );
}

#[test]
fn a_book_for_other_rules_is_never_probed() {
    let book = weak_book(5, 4, 4, |_| true);
    let cancel = AtomicBool::new(false);
    let mut s = solver();
    s.set_book(Some(book));
    let pos = Position::new(6, 5, 4).unwrap();
    let mut plain = solver();
    assert_eq!(
        s.solve(&pos, true, &cancel).unwrap(),
        plain.solve(&pos, true, &cancel).unwrap()
    );
    assert_eq!(s.book_hits(), 0);
}

#[test]
fn the_perfect_agent_with_a_book_never_picks_a_worse_outcome() {
    use crate::agents::{Agent, AgentWorker};
    use crate::{Game, Rng, Rules};
    let (w, h, depth) = (6, 5, 4);
    let book = weak_book(w, h, depth, |_| true);
    let cancel = AtomicBool::new(false);
    let mut truth = solver();
    let agent = Agent::Perfect {
        temperature: 0.0,
        tt_bytes: 1 << 22,
        threads: 1,
    };
    let mut with = AgentWorker::new(agent).with_book(Some(book));
    let mut without = AgentWorker::new(agent);
    let rules = Rules::new(w as i64, h as i64, 4, 2, true).unwrap();
    let mut next = xorshift(0xa9e7);
    for i in 0..40 {
        let pos = random_position(w, h, i % (depth + 3), &mut next);
        let game = Game::from_cells(rules, &pos.cells()).unwrap();
        let weak = truth.analyze(&pos, true, &cancel).unwrap();
        let exact = truth.analyze(&pos, false, &cancel).unwrap();
        let best_weak = weak.iter().flatten().max().copied();
        let best_exact = exact.iter().flatten().max().copied();
        let mut rng = Rng::new(i as u64, 0);
        let a = with.choose(&game, &mut rng, &cancel).unwrap();
        assert_eq!(weak[a], best_weak, "{:?}", pos.cells());
        // Beyond the book's reach the scores are exact, as without it.
        let b = without.choose(&game, &mut rng, &cancel).unwrap();
        assert_eq!(exact[b], best_exact);
        if pos.moves() >= depth {
            assert_eq!(exact[a], best_exact, "{:?}", pos.cells());
        }
    }
}

#[test]
fn exact_scores_of_positions_in_a_weak_book_are_bounded_by_it_not_changed() {
    // Every level: the root's own win/draw/loss value bounds its exact search.
    let (w, h, depth) = (6, 5, 5);
    let book = weak_book(w, h, depth, |_| true);
    let cancel = AtomicBool::new(false);
    let mut next = xorshift(0xb00c);
    for threads in [1, 2] {
        let config = SolverConfig {
            tt_bytes: 1 << 22,
            threads,
        };
        let mut with = Solver::new(config).unwrap();
        with.set_book(Some(book.clone()));
        let mut without = Solver::new(config).unwrap();
        for i in 0..20 {
            let pos = random_position(w, h, 1 + i % depth + usize::from(i % 3 == 0), &mut next);
            with.clear();
            let exact = without.solve(&pos, false, &cancel).unwrap();
            assert_eq!(
                with.solve(&pos, false, &cancel).unwrap(),
                exact,
                "{:?}",
                pos.cells()
            );
            if pos.moves() == depth {
                // The deepest level: its moves are searched (exact best), the
                // position's outcome read from the book.
                assert_eq!(
                    with.best_move(&pos, &cancel).unwrap(),
                    without.best_move(&pos, &cancel).unwrap(),
                    "{:?}",
                    pos.cells()
                );
            }
        }
    }
}

#[test]
fn an_exact_book_bounds_the_moves_of_the_positions_it_holds() {
    // Exact levels to ply 4: analysing a ply-4 position searches its moves knowing
    // that none scores above the position.
    let (w, h, depth) = (6, 5, 4);
    let (_, _, book) = exact_book(w, h, depth);
    let cancel = AtomicBool::new(false);
    let mut next = xorshift(0xe8ac7);
    for threads in [1, 2] {
        let config = SolverConfig {
            tt_bytes: 1 << 22,
            threads,
        };
        let mut with = Solver::new(config).unwrap();
        with.set_book(Some(book.clone()));
        let mut without = Solver::new(config).unwrap();
        for _ in 0..8 {
            let pos = random_position(w, h, depth, &mut next);
            assert!(book.exact(&pos).is_some());
            with.clear();
            let want = without.analyze(&pos, false, &cancel).unwrap();
            assert_eq!(
                with.analyze(&pos, false, &cancel).unwrap(),
                want,
                "{:?}",
                pos.cells()
            );
        }
    }
}

#[test]
fn every_position_of_an_exact_level_analyses_as_without_the_book() {
    // 5x4 to ply 6, every position: each move's search knows that it scores no
    // more than the position (also where a move wins at once).
    let (w, h, depth) = (5, 4, 6);
    let (index, positions, book) = exact_book(w, h, depth);
    let cancel = AtomicBool::new(false);
    let (mut immediate_wins, mut nodes_with, mut nodes_without) = (0, 0, 0);
    for threads in [1, 2] {
        let config = SolverConfig {
            tt_bytes: 1 << 20,
            threads,
        };
        let mut with = Solver::new(config).unwrap();
        with.set_book(Some(book.clone()));
        let mut without = Solver::new(config).unwrap();
        for &slot in &positions[depth] {
            let pos = index.position(depth, slot).unwrap();
            if pos.is_over() {
                continue;
            }
            immediate_wins += usize::from(pos.can_win_at_once());
            with.clear();
            without.clear();
            let want = without.analyze(&pos, false, &cancel).unwrap();
            let got = with.analyze(&pos, false, &cancel).unwrap();
            assert_eq!(got, want, "threads {threads}: {:?}", pos.cells());
            nodes_with += with.nodes();
            nodes_without += without.nodes();
        }
    }
    assert!(immediate_wins > 0);
    assert!(
        nodes_with < nodes_without,
        "{nodes_with} nodes with the book, {nodes_without} without"
    );
}
