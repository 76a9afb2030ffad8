//! The shipped Connect-Four opening book: it loads, holds known values, agrees with
//! the per-move truth of Pons' sets, and a random sample of its deepest level
//! re-solved from scratch agrees (the full check is `book_gen check --full`).

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use inarow::solver::book::{Book, Kind};
use inarow::solver::{Position, Solver, SolverConfig};
use inarow::Rng;

fn data(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("python/inarow/data")
        .join(path)
}

fn shipped_book() -> Book {
    let path = data("connect4-7x6.book.zst");
    Book::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn the_book_covers_every_ply_up_to_its_depth() {
    let book = shipped_book();
    assert_eq!(book.rules(), (7, 6, 4));
    let plies: Vec<usize> = book.levels().iter().map(|l| l.ply).collect();
    assert_eq!(plies, (0..=book.depth()).collect::<Vec<_>>());
    assert!(book.depth() >= 4, "depth {}", book.depth());
}

#[test]
fn known_opening_values() {
    let book = shipped_book();
    // The first player wins, only by starting in the centre column; after the
    // first stone in columns 3 or 5 (1-based) the game is a draw.
    assert_eq!(book.weak(&Position::new(7, 6, 4).unwrap()), Some(1));
    let second_player = [1, 1, 0, -1, 0, 1, 1];
    for (col, want) in second_player.into_iter().enumerate() {
        let pos = Position::from_moves(7, 6, 4, &[col]).unwrap();
        assert_eq!(book.weak(&pos), Some(want), "after column {col}");
    }
}

/// Pons' positions of the "Begin" sets within the book's depth, and their
/// children: the book's values are the signs of the shipped exact analysis, and
/// its exact levels' scores are the analysis' scores.
#[test]
fn agrees_with_the_pons_analysis() {
    let book = shipped_book();
    let (mut checked, mut exact_checked) = (0, 0);
    for set in ["Test_L1_R1", "Test_L1_R2"] {
        let path = data(&format!("connect4-pons/{set}.analysis"));
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for line in text.lines() {
            let mut fields = line.split(' ');
            let moves = fields.next().unwrap();
            let pos = Position::parse_pons(moves).unwrap();
            if pos.moves() > book.depth() {
                continue;
            }
            let scores: Vec<Option<i32>> = fields.map(|f| f.parse().ok()).collect();
            let best = scores.iter().flatten().max().copied().unwrap();
            assert_eq!(book.weak(&pos), Some(best.signum()), "{moves}");
            if let Some(exact) = book.exact(&pos) {
                assert_eq!(exact, best, "{moves}");
                exact_checked += 1;
            }
            checked += 1;
            for (col, score) in scores.iter().enumerate() {
                let (Some(score), true) = (score, pos.moves() < book.depth()) else {
                    continue;
                };
                if pos.is_winning_move(col) {
                    continue;
                }
                let mut child = pos;
                child.play(col).unwrap();
                assert_eq!(book.weak(&child), Some(-score.signum()), "{moves} + {col}");
                if let Some(exact) = book.exact(&child) {
                    assert_eq!(exact, -score, "{moves} + {col}");
                    exact_checked += 1;
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 0);
    let exact_levels = book.levels().iter().any(|l| l.kind == Kind::Exact);
    assert_eq!(
        exact_checked > 0,
        exact_levels,
        "{exact_checked} exact values compared"
    );
}

/// Random play to the deepest level (not over, no immediate win), re-solved with a
/// cleared table.
#[test]
fn a_sample_of_the_deepest_level_re_solved_from_scratch() {
    let book = shipped_book();
    let depth = book.depth();
    // Deep levels solve in milliseconds; a shallow interim book takes seconds each.
    let samples = if depth >= 10 { 16 } else { 3 };
    let mut rng = Rng::new(2026, depth as u64);
    let mut solver = Solver::new(SolverConfig::default()).unwrap();
    let cancel = AtomicBool::new(false);
    let mut done = 0;
    while done < samples {
        let mut pos = Position::new(7, 6, 4).unwrap();
        for _ in 0..depth {
            let legal: Vec<usize> = (0..7).filter(|&c| pos.can_play(c)).collect();
            pos.play(legal[rng.below(legal.len() as u32) as usize])
                .unwrap();
            if pos.is_over() {
                break;
            }
        }
        if pos.is_over() || pos.moves() != depth || (0..7).any(|c| pos.is_winning_move(c)) {
            continue;
        }
        solver.clear();
        let want = solver.solve(&pos, true, &cancel).unwrap();
        assert_eq!(book.weak(&pos), Some(want), "{:?}", pos.cells());
        done += 1;
    }
}

/// Random play to the deepest exact level (if the book has one; not over, no
/// immediate win), its exact score re-solved with a cleared table and no book.
#[test]
fn a_sample_of_the_deepest_exact_level_re_solved_from_scratch() {
    let book = shipped_book();
    let Some(depth) = book
        .levels()
        .iter()
        .filter(|l| l.kind == Kind::Exact)
        .map(|l| l.ply)
        .max()
    else {
        return;
    };
    let mut rng = Rng::new(2027, depth as u64);
    let mut solver = Solver::new(SolverConfig::default()).unwrap();
    let cancel = AtomicBool::new(false);
    let mut done = 0;
    while done < 4 {
        let mut pos = Position::new(7, 6, 4).unwrap();
        for _ in 0..depth {
            let legal: Vec<usize> = (0..7).filter(|&c| pos.can_play(c)).collect();
            pos.play(legal[rng.below(legal.len() as u32) as usize])
                .unwrap();
            if pos.is_over() {
                break;
            }
        }
        if pos.is_over() || pos.moves() != depth || (0..7).any(|c| pos.is_winning_move(c)) {
            continue;
        }
        solver.clear();
        let want = solver.solve(&pos, false, &cancel).unwrap();
        assert_eq!(book.exact(&pos), Some(want), "{:?}", pos.cells());
        done += 1;
    }
}
