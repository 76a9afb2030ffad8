//! The free-placement solver against a plain reference negamax written apart
//! from it (cells in a vector, lines found by walking), and against the
//! published values of m,n,k games.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use super::{FreePosition, FreeSolver};
use crate::rng::Rng;

/// A plain negamax over cells (0 empty, 1 and 2 the players), memoised on the
/// cells: the exact score for the side to move, which is `to_move`, of a
/// position without a line.
struct Reference {
    width: usize,
    height: usize,
    k: usize,
    /// Values by the cells of each player, as bit sets.
    memo: HashMap<(u64, u64), i32>,
}

impl Reference {
    fn new(width: usize, height: usize, k: usize) -> Reference {
        Reference {
            width,
            height,
            k,
            memo: HashMap::new(),
        }
    }

    /// Whether the stone on `cell` is part of `k` in a row.
    fn line_through(&self, cells: &[u8], cell: usize) -> bool {
        let (w, h) = (self.width as i64, self.height as i64);
        let (r, c) = ((cell / self.width) as i64, (cell % self.width) as i64);
        let who = cells[cell];
        [(0, 1), (1, 0), (1, 1), (1, -1)].iter().any(|&(dr, dc)| {
            let mut run = 1;
            for sign in [1, -1] {
                let (mut rr, mut cc) = (r + sign * dr, c + sign * dc);
                while (0..h).contains(&rr)
                    && (0..w).contains(&cc)
                    && cells[(rr * w + cc) as usize] == who
                {
                    run += 1;
                    rr += sign * dr;
                    cc += sign * dc;
                }
            }
            run >= self.k
        })
    }

    fn value(&mut self, cells: &mut Vec<u8>, to_move: u8, moves: i32) -> i32 {
        let n = cells.len() as i32;
        if moves == n {
            return 0;
        }
        let key = cells
            .iter()
            .enumerate()
            .fold((0u64, 0u64), |(a, b), (i, &c)| {
                (a | u64::from(c == 1) << i, b | u64::from(c == 2) << i)
            });
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let mut best = i32::MIN;
        for cell in 0..cells.len() {
            if cells[cell] != 0 {
                continue;
            }
            cells[cell] = to_move;
            let v = if self.line_through(cells, cell) {
                (n + 1 - moves) / 2
            } else {
                -self.value(cells, 3 - to_move, moves + 1)
            };
            cells[cell] = 0;
            best = best.max(v);
        }
        self.memo.insert(key, best);
        best
    }
}

fn solver() -> FreeSolver {
    FreeSolver::new(1 << 22).unwrap()
}

fn no() -> AtomicBool {
    AtomicBool::new(false)
}

/// Every position reachable on the board (`samples` `None`), or `(count,
/// least)` random ones of at least `least` stones, each with its cells, side to
/// move and stone count; none holds a line.
fn positions(
    width: usize,
    height: usize,
    k: usize,
    samples: Option<(usize, usize)>,
) -> Vec<(Vec<u8>, u8, i32)> {
    let reference = Reference::new(width, height, k);
    let n = width * height;
    let mut out = Vec::new();
    match samples {
        None => {
            let mut seen = std::collections::HashSet::new();
            let mut stack = vec![(vec![0u8; n], 1u8, 0i32)];
            while let Some((cells, to_move, moves)) = stack.pop() {
                if !seen.insert(cells.clone()) {
                    continue;
                }
                out.push((cells.clone(), to_move, moves));
                for cell in 0..n {
                    if cells[cell] == 0 {
                        let mut next = cells.clone();
                        next[cell] = to_move;
                        if !reference.line_through(&next, cell) {
                            stack.push((next, 3 - to_move, moves + 1));
                        }
                    }
                }
            }
        }
        Some((count, least)) => {
            let mut rng = Rng::new(31, 0);
            while out.len() < count {
                let mut cells = vec![0u8; n];
                let (mut to_move, mut moves) = (1u8, 0i32);
                let plies = (least + rng.below((n - least) as u32) as usize) as i32;
                while moves < plies {
                    let empty: Vec<usize> = (0..n).filter(|&c| cells[c] == 0).collect();
                    let cell = empty[rng.below(empty.len() as u32) as usize];
                    cells[cell] = to_move;
                    if reference.line_through(&cells, cell) {
                        cells[cell] = 0;
                        break;
                    }
                    to_move = 3 - to_move;
                    moves += 1;
                }
                out.push((cells, to_move, moves));
            }
        }
    }
    out
}

/// The solver's exact and weak scores and its analysis equal the reference's
/// on `positions`.
fn agrees_with_reference(width: usize, height: usize, k: usize, samples: Option<(usize, usize)>) {
    let mut reference = Reference::new(width, height, k);
    let mut s = solver();
    let cancel = no();
    for (cells, to_move, moves) in positions(width, height, k, samples) {
        let pos = FreePosition::from_cells(width, height, k, &cells).unwrap();
        let expected = reference.value(&mut cells.clone(), to_move, moves);
        let context = format!("{width}x{height} k={k} cells {cells:?}");
        assert_eq!(
            s.solve(&pos, false, &cancel).unwrap(),
            expected,
            "{context}"
        );
        assert_eq!(
            s.solve(&pos, true, &cancel).unwrap(),
            expected.signum(),
            "{context}"
        );
        let analysis = s.analyze(&pos, false, &cancel).unwrap();
        let best = analysis.iter().flatten().max().copied();
        let full = moves == (width * height) as i32;
        assert_eq!(best, (!full).then_some(expected), "{context}");
    }
}

#[test]
fn tic_tac_toe_every_position_matches_the_reference() {
    agrees_with_reference(3, 3, 3, None);
}

#[test]
fn four_by_three_every_position_matches_the_reference() {
    agrees_with_reference(4, 3, 3, None);
}

#[test]
fn four_by_four_k3_random_positions_match_the_reference() {
    agrees_with_reference(4, 4, 3, Some((60, 0)));
}

#[test]
fn four_by_four_k4_random_positions_match_the_reference() {
    agrees_with_reference(4, 4, 4, Some((60, 4)));
}

#[test]
fn other_shapes_and_k_match_the_reference() {
    for (w, h, k) in [
        (3, 3, 2),
        (2, 5, 2),
        (5, 2, 3),
        (3, 4, 4),
        (1, 6, 3),
        (3, 3, 1),
    ] {
        agrees_with_reference(w, h, k, Some((40, 0)));
    }
    // Long lines, where pairing strategies prove draws.
    for (w, h, k, least) in [(5, 4, 4, 9), (5, 4, 5, 9), (5, 5, 5, 14), (6, 4, 5, 13)] {
        agrees_with_reference(w, h, k, Some((40, least)));
    }
}

/// The first player's result from the empty board: 1 win, 0 draw, -1 loss.
fn outcome(width: usize, height: usize, k: usize) -> i32 {
    let pos = FreePosition::new(width, height, k).unwrap();
    solver().solve(&pos, true, &no()).unwrap()
}

#[test]
fn published_values() {
    assert_eq!(outcome(3, 3, 3), 0);
    // Every m,n,3 with m >= 4, n >= 3 is a first-player win.
    for (m, n) in [(4, 3), (3, 4), (4, 4), (5, 3), (5, 5), (6, 4), (6, 6)] {
        assert_eq!(outcome(m, n, 3), 1, "{m},{n},3");
    }
    assert_eq!(outcome(4, 4, 4), 0);
    assert_eq!(outcome(5, 5, 4), 0);
    // k,k,k is a draw for k >= 5.
    assert_eq!(outcome(5, 5, 5), 0);
    assert_eq!(outcome(6, 6, 6), 0);
    assert_eq!(outcome(7, 7, 7), 0);
    assert_eq!(outcome(8, 8, 8), 0);
}

#[test]
fn six_by_six_values_of_the_atlas() {
    let pos = FreePosition::new(6, 6, 4).unwrap();
    assert_eq!(solver().solve(&pos, false, &no()).unwrap(), 13);
    assert_eq!(outcome(6, 6, 5), 0);
}

#[test]
fn a_parent_scores_its_best_child_negated() {
    let mut s = solver();
    let cancel = no();
    for (w, h, k) in [(4, 4, 3), (5, 4, 4), (5, 5, 4)] {
        // Late positions only: early ones of 5x5 take seconds in a debug build.
        let samples = positions(w, h, k, Some((200, 0)));
        for (cells, _, moves) in samples.into_iter().filter(|p| p.2 >= 8).take(12) {
            let pos = FreePosition::from_cells(w, h, k, &cells).unwrap();
            if pos.is_over() {
                continue;
            }
            let value = s.solve(&pos, false, &cancel).unwrap();
            let best = s.analyze(&pos, false, &cancel).unwrap();
            assert_eq!(
                best.iter().flatten().max().copied(),
                Some(value),
                "{cells:?} at {moves}"
            );
            let chosen = s.best_move(&pos, &cancel).unwrap();
            assert_eq!(best[chosen], Some(value), "{cells:?}");
            let never = super::super::Deadline::never();
            let timed = s.best_move_within(&pos, Some(&never), &cancel).unwrap();
            assert!(timed.complete);
            assert_eq!(best[timed.column], Some(value), "{cells:?}");
        }
    }
}

#[test]
fn positions_that_are_over() {
    let mut s = solver();
    let cancel = no();
    // X on the top row: 0, 1, 2 against 3, 4.
    let won = FreePosition::from_moves(3, 3, 3, &[0, 3, 1, 4, 2]).unwrap();
    assert!(won.is_won());
    assert_eq!(s.solve(&won, false, &cancel).unwrap(), -((9 + 2 - 5) / 2));
    assert_eq!(s.solve(&won, true, &cancel).unwrap(), -1);
    assert_eq!(s.analyze(&won, false, &cancel).unwrap(), vec![None; 9]);
    assert!(s.best_move(&won, &cancel).is_err());
}

#[test]
fn an_immediate_win_is_played_at_once() {
    let mut s = solver();
    // X on 0 and 1, O on 3 and 4: X completes the top row on 2; O threatens 5.
    let pos = FreePosition::from_moves(3, 3, 3, &[0, 3, 1, 4]).unwrap();
    let timed = s.best_move_within(&pos, None, &no()).unwrap();
    assert_eq!((timed.column, timed.complete), (2, true));
    assert_eq!(s.nodes(), 0);
    // O to move must block 2 (X threatens it) and cannot win: every other move loses.
    let pos = FreePosition::from_moves(3, 3, 3, &[0, 3, 1]).unwrap();
    assert_eq!(s.best_move(&pos, &no()).unwrap(), 2);
}

#[test]
fn the_limit_is_two_words() {
    assert!(FreePosition::new(8, 8, 5).is_ok());
    assert!(FreePosition::new(9, 8, 5).is_ok());
    assert!(FreePosition::new(65, 1, 5).is_ok());
    assert!(FreePosition::new(16, 8, 5).is_ok());
    assert!(FreePosition::new(12, 11, 5).is_err());
    assert!(FreePosition::new(129, 1, 5).is_err());
    assert!(FreePosition::new(3, 3, 0).is_err());
}

#[test]
fn a_raised_cancel_flag_interrupts() {
    let mut s = solver();
    let cancel = AtomicBool::new(true);
    // 8x8 with k = 4: far more nodes than one poll interval.
    let pos = FreePosition::new(8, 8, 4).unwrap();
    assert_eq!(
        s.solve(&pos, false, &cancel),
        Err(super::super::SolveError::Interrupted)
    );
}

#[test]
fn a_passed_deadline_still_gives_a_legal_move() {
    let mut s = solver();
    let deadline = super::super::Deadline::at_check(1);
    let pos = FreePosition::from_moves(8, 8, 4, &[27]).unwrap();
    let timed = s.best_move_within(&pos, Some(&deadline), &no()).unwrap();
    assert!(pos.can_play(timed.column));
    assert!(!timed.complete);
}
