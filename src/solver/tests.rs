//! Unit tests: a plain minimax on small boards is the ground truth.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use super::*;

/// Pons-convention score by exhaustive minimax with memo, on the cell list.
fn brute(
    w: usize,
    h: usize,
    k: usize,
    cells: &mut Vec<u8>,
    moves: usize,
    memo: &mut HashMap<u128, i32>,
) -> i32 {
    let key = cells.iter().fold(0u128, |acc, &c| acc * 3 + c as u128);
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let n = (w * h) as i32;
    let me = if moves.is_multiple_of(2) { 1 } else { 2 };
    let mut best = i32::MIN;
    let mut any = false;
    for col in 0..w {
        // lowest empty row (rows counted from the top)
        let Some(row) = (0..h).rev().find(|&r| cells[r * w + col] == 0) else {
            continue;
        };
        any = true;
        cells[row * w + col] = me;
        let v = if line_through(w, h, k, cells, row, col) {
            (n + 1 - moves as i32) / 2
        } else {
            -brute(w, h, k, cells, moves + 1, memo)
        };
        cells[row * w + col] = 0;
        best = best.max(v);
    }
    let v = if any { best } else { 0 };
    memo.insert(key, v);
    v
}

fn line_through(w: usize, h: usize, k: usize, cells: &[u8], row: usize, col: usize) -> bool {
    let p = cells[row * w + col];
    for (dr, dc) in [(0i64, 1i64), (1, 0), (1, 1), (1, -1)] {
        let mut count = 1;
        for s in [1i64, -1] {
            let (mut r, mut c) = (row as i64 + s * dr, col as i64 + s * dc);
            while r >= 0
                && c >= 0
                && r < h as i64
                && c < w as i64
                && cells[r as usize * w + c as usize] == p
            {
                count += 1;
                r += s * dr;
                c += s * dc;
            }
        }
        if count >= k {
            return true;
        }
    }
    false
}

/// A reproducible xorshift64 stream (`seed | 1`: never the stuck zero state).
pub(crate) fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut x = seed | 1;
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
}

/// A position of a `w`x`h` board (line 4) after exactly `plies` random moves, not over
/// (drawn again until one is).
pub(crate) fn random_position(
    w: usize,
    h: usize,
    plies: usize,
    next: &mut impl FnMut() -> u64,
) -> Position {
    loop {
        let mut pos = Position::new(w, h, 4).unwrap();
        for _ in 0..plies {
            let legal: Vec<usize> = (0..w).filter(|&c| pos.can_play(c)).collect();
            pos.play(legal[(next() % legal.len() as u64) as usize])
                .unwrap();
            if pos.is_over() {
                break;
            }
        }
        if !pos.is_over() {
            return pos;
        }
    }
}

fn no_cancel() -> AtomicBool {
    AtomicBool::new(false)
}

/// Random playouts prefixes on a small board; compare solve/analyze with brute force.
fn check_board(w: usize, h: usize, k: usize, samples: usize, tt_bytes: usize, threads: usize) {
    let mut solver = Solver::new(SolverConfig { tt_bytes, threads }).unwrap();
    let cancel = no_cancel();
    let mut memo = HashMap::new();
    let mut next = xorshift(0x1234_5678_9abc_def0u64 ^ (w * 1000 + h * 10 + k) as u64);
    for i in 0..samples {
        let mut pos = Position::new(w, h, k).unwrap();
        let len = (next() % (w * h + 1) as u64) as usize;
        let mut moves = vec![];
        for _ in 0..len {
            if pos.is_over() {
                break;
            }
            let legal: Vec<usize> = (0..w).filter(|&c| pos.can_play(c)).collect();
            let c = legal[(next() % legal.len() as u64) as usize];
            pos.play(c).unwrap();
            moves.push(c);
        }
        let mut cells = pos.cells();
        let expected = if pos.is_won() {
            -((w * h + 2 - pos.moves()) as i32 / 2)
        } else {
            brute(w, h, k, &mut cells, pos.moves(), &mut memo)
        };
        if i % 3 == 0 {
            solver.clear();
        }
        let got = solver.solve(&pos, false, &cancel).unwrap();
        assert_eq!(got, expected, "{w}x{h} k={k} moves {moves:?}");
        let weak = solver.solve(&pos, true, &cancel).unwrap();
        assert_eq!(
            weak,
            expected.signum(),
            "weak {w}x{h} k={k} moves {moves:?}"
        );
        if i % 4 == 0 && !pos.is_over() {
            let a = solver.analyze(&pos, false, &cancel).unwrap();
            for (c, got) in a.iter().enumerate() {
                let want = if pos.can_play(c) {
                    let mut ch = pos;
                    ch.play(c).unwrap();
                    Some(if ch.is_won() {
                        (w * h + 1 - pos.moves()) as i32 / 2
                    } else {
                        -brute(w, h, k, &mut ch.cells(), ch.moves(), &mut memo)
                    })
                } else {
                    None
                };
                assert_eq!(*got, want, "analyze {w}x{h} k={k} moves {moves:?} col {c}");
            }
            let bm = solver.best_move(&pos, &cancel).unwrap();
            let best = a.iter().flatten().max().copied();
            assert_eq!(a[bm], best);
            let signs: Vec<Option<i32>> = a.iter().map(|s| s.map(i32::signum)).collect();
            let weak = solver.analyze(&pos, true, &cancel).unwrap();
            assert_eq!(weak, signs, "weak analyze {w}x{h} k={k} moves {moves:?}");
        }
    }
}

#[test]
fn brute_force_small_boards() {
    for &(w, h, k, samples) in &[
        (4, 4, 3, 300),
        (5, 4, 4, 300),
        (3, 3, 3, 200),
        (4, 3, 3, 200),
        (4, 5, 4, 200),
        (3, 4, 2, 200),
        (2, 2, 1, 20),
        (4, 4, 1, 20),
        (4, 4, 5, 50),
        (6, 3, 3, 100),
        (1, 6, 3, 30),
        (6, 1, 3, 30),
        (5, 4, 3, 150),
    ] {
        check_board(w, h, k, samples, 1 << 16, 1);
    }
}

#[test]
fn brute_force_tiny_table_and_threads() {
    check_board(5, 4, 4, 100, 1 << 10, 1);
    check_board(4, 4, 3, 100, 1 << 10, 2);
    check_board(5, 4, 3, 100, 1 << 16, 3);
}

#[test]
fn empty_board_4x4_and_5x4() {
    // Known results: 4x4 and 5x4 Connect Four are draws.
    let mut s = Solver::new(SolverConfig::default()).unwrap();
    for (w, h) in [(4, 4), (5, 4), (4, 5), (6, 4)] {
        let p = Position::new(w, h, 4).unwrap();
        let got = s.solve(&p, false, &no_cancel()).unwrap();
        let mut memo = HashMap::new();
        if w * h <= 20 {
            assert_eq!(got, brute(w, h, 4, &mut p.cells(), 0, &mut memo), "{w}x{h}");
        }
        if (w, h) == (6, 4) {
            assert!(got < 0, "6x4 is a second-player win, got {got}");
        }
    }
}

#[test]
fn parse_and_construct() {
    let p = Position::parse_pons("4453").unwrap();
    assert_eq!(p.moves(), 4);
    assert!(Position::parse_pons("4458").is_err());
    assert!(Position::parse_pons("44a").is_err());
    assert!(Position::parse_pons("1111111").is_err()); // full column
    assert!(Position::parse_pons(" 44 ").is_ok());
    let q = Position::from_moves(7, 6, 4, &[3, 3, 4, 2]).unwrap();
    assert_eq!(p, q);
    let r = Position::from_cells(7, 6, 4, &q.cells()).unwrap();
    assert_eq!(r, q);
    assert!(Position::new(8, 8, 4).is_err());
    assert!(Position::new(8, 7, 4).is_ok());
    assert!(Position::new(1, 63, 4).is_ok());
    assert!(Position::new(64, 0, 4).is_err());
    assert!(Position::new(7, 6, 0).is_err());
    assert!(Position::new(usize::MAX, usize::MAX, usize::MAX).is_err());
    assert!(Position::new(7, 6, usize::MAX).is_ok());
    assert!(Position::from_moves(7, 6, 4, &[7]).is_err());
    assert!(Position::from_moves(7, 6, 4, &[usize::MAX]).is_err());
    // play after a win
    assert!(Position::from_moves(7, 6, 4, &[0, 1, 0, 1, 0, 1, 0, 1]).is_err());
    let mut won = Position::from_moves(7, 6, 4, &[0, 1, 0, 1, 0, 1, 0]).unwrap();
    assert!(won.is_won() && won.is_over());
    assert!(won.play(2).is_err());
    assert!(!won.is_winning_move(2));
}

#[test]
fn from_cells_rejects_garbage() {
    let mut c = vec![0u8; 42];
    assert!(Position::from_cells(7, 6, 4, &c).is_ok());
    assert!(Position::from_cells(7, 6, 4, &c[..41]).is_err());
    c[0] = 1; // floating stone in the top row
    assert!(Position::from_cells(7, 6, 4, &c).is_err());
    c[0] = 0;
    c[35] = 3;
    assert!(Position::from_cells(7, 6, 4, &c).is_err());
    c[35] = 2; // second player only
    assert!(Position::from_cells(7, 6, 4, &c).is_err());
    c[35] = 1;
    let p = Position::from_cells(7, 6, 4, &c).unwrap();
    assert_eq!(p.moves(), 1);
    assert_eq!(p, Position::from_moves(7, 6, 4, &[0]).unwrap());
    // the player to move has a line: unreachable
    let q = Position::from_moves(7, 6, 4, &[0, 1, 0, 1, 0, 1, 0]).unwrap();
    let mut cells = q.cells();
    assert!(Position::from_cells(7, 6, 4, &cells).unwrap().is_won());
    // add one stone for the second player elsewhere: now X to move has the line
    cells[41] = 2;
    assert!(Position::from_cells(7, 6, 4, &cells).is_err());
    // wide boards with w * (h + 1) == 64
    assert!(Position::from_cells(1, 63, 4, &[0u8; 63]).is_ok());
    assert!(Position::from_cells(32, 1, 4, &[0u8; 32]).is_ok());
}

#[test]
fn over_positions() {
    let mut s = Solver::new(SolverConfig::default()).unwrap();
    let c = no_cancel();
    let won = Position::from_moves(7, 6, 4, &[0, 1, 0, 1, 0, 1, 0]).unwrap();
    // winner scored (42 + 1 - 6) / 2 = 18 with the 7th stone; the loser to move gets -18
    assert_eq!(s.solve(&won, false, &c).unwrap(), -18);
    assert_eq!(s.solve(&won, true, &c).unwrap(), -1);
    assert_eq!(s.analyze(&won, false, &c).unwrap(), vec![None; 7]);
    assert!(s.best_move(&won, &c).is_err());
    // a full drawn board: 3x3 with k = 4 can never have a line
    let mut full = Position::new(3, 3, 4).unwrap();
    for col in [0, 0, 0, 1, 1, 1, 2, 2, 2] {
        full.play(col).unwrap();
    }
    assert!(full.is_over() && !full.is_won());
    assert_eq!(s.solve(&full, false, &c).unwrap(), 0);
}

#[test]
fn pons_examples_and_empty_board_analysis_small() {
    let mut s = Solver::new(SolverConfig::default()).unwrap();
    let c = no_cancel();
    let p = Position::parse_pons("2252576253462244111563365343671351441").unwrap();
    assert_eq!(s.solve(&p, false, &c).unwrap(), -1);
    let p = Position::parse_pons("7422341735647741166133573473242566").unwrap();
    assert_eq!(s.solve(&p, false, &c).unwrap(), 1);
}

#[test]
fn cancellation() {
    let mut s = Solver::new(SolverConfig::default()).unwrap();
    let cancel = AtomicBool::new(true);
    let p = Position::new(7, 6, 4).unwrap();
    assert_eq!(s.solve(&p, false, &cancel), Err(SolveError::Interrupted));
    // raised during the search, from another thread
    let cancel = AtomicBool::new(false);
    std::thread::scope(|sc| {
        sc.spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(50));
            cancel.store(true, std::sync::atomic::Ordering::Relaxed);
        });
        let t = std::time::Instant::now();
        assert_eq!(s.solve(&p, false, &cancel), Err(SolveError::Interrupted));
        assert!(t.elapsed().as_secs() < 5);
    });
    // the table is still sound afterwards
    let c = no_cancel();
    let q = Position::parse_pons("2252576253462244111563365343671351441").unwrap();
    assert_eq!(s.solve(&q, false, &c).unwrap(), -1);
}

#[test]
fn config_limits() {
    assert!(Solver::new(SolverConfig {
        tt_bytes: 10,
        threads: 1
    })
    .is_err());
    assert!(Solver::new(SolverConfig {
        tt_bytes: 1 << 20,
        threads: 0
    })
    .is_err());
    assert!(Solver::new(SolverConfig {
        tt_bytes: 1 << 20,
        threads: 65
    })
    .is_err());
    assert!(Solver::new(SolverConfig {
        tt_bytes: usize::MAX,
        threads: 1
    })
    .is_err());
    let s = Solver::new(SolverConfig {
        tt_bytes: 1 << 10,
        threads: 1,
    })
    .unwrap();
    assert!(s.tt_bytes() >= 1 << 10);
    fn is_send_sync<T: Send + Sync>() {}
    is_send_sync::<Solver>();
    is_send_sync::<Position>();
}

#[test]
fn geometry_change_does_not_reuse_entries() {
    let mut s = Solver::new(SolverConfig::default()).unwrap();
    let c = no_cancel();
    let mut memo = HashMap::new();
    for &(w, h, k) in &[(4, 4, 3), (4, 4, 4), (5, 3, 3), (4, 4, 3)] {
        let p = Position::new(w, h, k).unwrap();
        let want = brute(w, h, k, &mut p.cells(), 0, &mut memo);
        memo.clear();
        assert_eq!(s.solve(&p, false, &c).unwrap(), want, "{w}x{h} k={k}");
    }
}

/// The static claimeven bounds never contradict the exact score (checked directly,
/// not only through searches that may not reach a position where they fire).
#[test]
fn claimeven_bounds_agree_with_brute_force() {
    let (mut fired, mut decisive) = (0, 0);
    for &(w, h, k) in &[
        (4, 4, 3),
        (5, 4, 4),
        (4, 5, 4),
        (5, 4, 3),
        (4, 3, 3),
        (6, 3, 3),
    ] {
        let mut memo = HashMap::new();
        let table = table::Table::new(1 << 10).unwrap();
        let (cancel, stop) = (no_cancel(), no_cancel());
        let seed = 0x9e37_79b9_7f4a_7c15u64 ^ (w * 1000 + h * 10 + k) as u64;
        for pos in random_positions(w, h, k, 400, seed) {
            let exact = brute(w, h, k, &mut pos.cells(), pos.moves(), &mut memo);
            let s = search::Search::new(pos.geo, &table, &cancel, &stop, None, 1);
            let (mut lo, mut hi) = (-100, 100);
            let opp = pos.current ^ pos.mask;
            let opp_win = pos.geo.winning_cells(opp, pos.mask);
            s.claimeven_bounds(pos.current, opp, pos.mask, opp_win, &mut lo, &mut hi);
            if lo > -100 || hi < 100 {
                fired += 1;
            }
            decisive += (lo >= 1 || hi <= -1) as usize;
            assert!(
                lo <= exact && exact <= hi,
                "{w}x{h} k={k} {:?}: {lo}..={hi} vs {exact}",
                pos.cells()
            );
        }
    }
    println!("claimeven bounds: {fired} fired, {decisive} decisive");
    assert!(fired > 100, "the bounds fired only {fired} times");
    assert!(decisive > 20, "decisive bounds only {decisive} times");
}

/// Random positions (not over) of a `w`x`h` board, reproducible.
fn random_positions(w: usize, h: usize, k: usize, count: usize, seed: u64) -> Vec<Position> {
    let mut next = xorshift(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut pos = Position::new(w, h, k).unwrap();
        let len = (next() % (w * h) as u64) as usize;
        for _ in 0..len {
            let legal: Vec<usize> = (0..w).filter(|&c| pos.can_play(c)).collect();
            let mut ch = pos;
            ch.play(legal[(next() % legal.len() as u64) as usize])
                .unwrap();
            if ch.is_over() {
                break;
            }
            pos = ch;
        }
        out.push(pos);
    }
    out
}

/// Dead stones by the rule, one window of four cells at a time: an open window
/// (with an empty cell) lets its lowest stone be dead if that stone is at offset 0
/// or 1 and the window's other stones hold both colours; a stone is dead if every
/// open window through it lets it.
fn dead_by_windows(w: usize, h: usize, cells: &[u8]) -> Vec<bool> {
    let mut dead: Vec<bool> = cells.iter().map(|&c| c != 0).collect();
    // Rows from the bottom, as the bitboard sees them.
    let at = |r: i64, c: i64| (h as i64 - 1 - r) as usize * w + c as usize;
    for r in 0..h as i64 {
        for c in 0..w as i64 {
            // The bitboard's directions, in increasing bit order along the window.
            for (dr, dc) in [(1i64, 0i64), (0, 1), (-1, 1), (1, 1)] {
                let ok = |i: i64| {
                    let (rr, cc) = (r + i * dr, c + i * dc);
                    rr >= 0 && cc >= 0 && rr < h as i64 && cc < w as i64
                };
                if !(0..4).all(ok) {
                    continue;
                }
                let window: Vec<usize> = (0..4).map(|i| at(r + i * dr, c + i * dc)).collect();
                if window.iter().all(|&i| cells[i] != 0) {
                    continue;
                }
                let lowest = window.iter().position(|&i| cells[i] != 0);
                for (off, &s) in window.iter().enumerate() {
                    let others: Vec<u8> = window
                        .iter()
                        .filter(|&&i| i != s && cells[i] != 0)
                        .map(|&i| cells[i])
                        .collect();
                    let allowed = lowest == Some(off)
                        && off <= 1
                        && others.contains(&1)
                        && others.contains(&2);
                    if cells[s] != 0 && !allowed {
                        dead[s] = false;
                    }
                }
            }
        }
    }
    dead
}

#[test]
fn dead_stones_match_the_window_definition() {
    let mut seen = 0;
    for &(w, h) in &[(7, 6), (5, 4), (6, 5), (8, 7), (4, 6)] {
        for pos in random_positions(w, h, 4, 500, (w * 100 + h) as u64) {
            let cells = pos.cells();
            let want = dead_by_windows(w, h, &cells);
            let got = pos.geo.dead_stones(pos.current, pos.mask);
            for (i, &d) in want.iter().enumerate() {
                let (row, col) = (i / w, i % w);
                let bit = 1u64 << (col * (h + 1) + (h - 1 - row));
                assert_eq!(got & bit != 0, d, "{w}x{h} {cells:?} cell {i}");
            }
            seen += want.iter().filter(|&&d| d).count();
        }
    }
    assert!(seen > 1000, "only {seen} dead stones in the sample");
    // Only k = 4 is folded.
    let pos = Position::from_moves(5, 4, 3, &[0, 0, 0, 1, 1, 1]).unwrap();
    assert_eq!(pos.geo.dead_stones(pos.current, pos.mask), 0);
}

/// The reason dead stones may share a table entry: giving them all one colour
/// (either) never changes the exact score.
#[test]
fn recolouring_dead_stones_keeps_the_score() {
    let mut checked = 0;
    for &(w, h) in &[(5, 4), (4, 5), (6, 3), (4, 4)] {
        let mut memo = HashMap::new();
        for pos in random_positions(w, h, 4, 400, (w * 10 + h) as u64) {
            let dead = dead_by_windows(w, h, &pos.cells());
            if !dead.contains(&true) {
                continue;
            }
            let exact = brute(w, h, 4, &mut pos.cells(), pos.moves(), &mut memo);
            for colour in [1, 2] {
                let mut recoloured = pos.cells();
                for (i, v) in recoloured.iter_mut().enumerate() {
                    if dead[i] {
                        *v = colour;
                    }
                }
                let got = brute(w, h, 4, &mut recoloured, pos.moves(), &mut memo);
                assert_eq!(got, exact, "{w}x{h} {:?} -> {recoloured:?}", pos.cells());
            }
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} positions had dead stones");
}

/// The search compiled for x86-64-v3 and the baseline one are the same search:
/// same scores, same node counts.
#[test]
fn both_compiled_searches_agree() {
    let (cancel, stop) = (no_cancel(), no_cancel());
    let mut compared = 0;
    for &(w, h) in &[(7, 6), (5, 4), (6, 5)] {
        for pos in random_positions(w, h, 4, 1000, 77) {
            let g = pos.geo;
            let easy = 2 * pos.moves as i32 >= g.cells;
            if !easy || g.winning_cells(pos.current, pos.mask) & g.possible(pos.mask) != 0 {
                continue;
            }
            let n = g.cells;
            let (lo, hi) = (-(n - pos.moves as i32) / 2, (n + 1 - pos.moves as i32) / 2);
            let results: Vec<(i32, u64)> = [false, true]
                .iter()
                .map(|&modern| {
                    let table = table::Table::new(1 << 20).unwrap();
                    let mut s = search::Search::new(g, &table, &cancel, &stop, None, 1);
                    s.modern_cpu = modern && s.modern_cpu;
                    let r = s.solve(pos.current, pos.mask, pos.moves as i32, lo, hi);
                    (r, s.nodes)
                })
                .collect();
            assert_eq!(results[0], results[1], "{w}x{h} {:?}", pos.cells());
            compared += 1;
        }
    }
    assert!(compared > 250, "only {compared} positions compared");
}

#[test]
fn a_node_limit_stops_the_call_and_the_table_keeps_its_work() {
    // Pons' Begin-Medium set: 274121776146 scores 4 (about 100k nodes).
    let p = Position::parse_pons("274121776146").unwrap();
    for threads in [1, 2] {
        let mut s = Solver::new(SolverConfig {
            tt_bytes: 1 << 22,
            threads,
        })
        .unwrap();
        let c = no_cancel();
        s.set_node_limit(Some(1 << 12));
        assert_eq!(s.solve(&p, false, &c), Err(SolveError::NodeLimit));
        // Checked every 1024 nodes: stopped just past the limit.
        assert!((1 << 12..1 << 13).contains(&s.nodes()), "{}", s.nodes());
        assert_eq!(s.analyze(&p, false, &c), Err(SolveError::NodeLimit));
        // best_move is cheaper than analyze (one probe per move): on `p` it finishes under the
        // limit (one winning move), on an opening it does not.
        assert_eq!(s.best_move(&p, &c), Ok(0));
        let second = Position::parse_pons("4").unwrap();
        assert_eq!(s.best_move(&second, &c), Err(SolveError::NodeLimit));
        // A limit above the single-thread budget: the parallel search stops too (on a
        // position needing millions of nodes, so no thread can finish under it).
        s.clear();
        s.set_node_limit(Some(SOLO_NODE_BUDGET + (1 << 13)));
        let opening = Position::parse_pons("44").unwrap();
        assert_eq!(s.solve(&opening, false, &c), Err(SolveError::NodeLimit));
        s.set_node_limit(None);
        assert_eq!(s.solve(&p, false, &c), Ok(4));
        // Small searches finish under a limit.
        s.set_node_limit(Some(1 << 12));
        let end = Position::parse_pons("2252576253462244111563365343671351441").unwrap();
        assert_eq!(s.solve(&end, false, &c), Ok(-1));
    }
}

#[test]
fn refused_helper_threads_leave_the_answers_unchanged() {
    crate::threads::REFUSE_SPAWN.with(|r| r.set(true));
    let mut s = Solver::new(SolverConfig {
        tt_bytes: 1 << 22,
        threads: 3,
    })
    .unwrap();
    let p = Position::parse_pons("274121776146").unwrap();
    let got = s.solve(&p, false, &no_cancel());
    crate::threads::REFUSE_SPAWN.with(|r| r.set(false));
    assert_eq!(got, Ok(4));
    assert!(s.nodes() > SOLO_NODE_BUDGET, "the parallel search ran");
}

#[test]
fn check_rules_accepts_exactly_two_players_gravity_and_one_word() {
    use crate::{Game, Rules};
    for w in 1..=12i64 {
        for h in 1..=12i64 {
            for (players, gravity) in [(2, true), (2, false), (3, true)] {
                let rules = Rules::new(w, h, 1, players, gravity).unwrap();
                let expected = players == 2 && gravity && w * (h + 1) <= 64;
                assert_eq!(Position::check_rules(&rules).is_ok(), expected, "{rules:?}");
                let built = Position::from_game(&Game::new(rules));
                assert_eq!(built.is_ok(), expected);
                if let Err(e) = built {
                    assert!(matches!(e, SolveError::Unsupported(_)), "{e:?}");
                }
            }
        }
    }
}

/// `quick_loss_scores` against the exact analysis: a move's score where the
/// opponent wins after it by their `replies`-th stone, `None` for the others.
#[test]
fn quick_loss_scores_agree_with_the_exact_analysis() {
    let cancel = no_cancel();
    let mut solver = Solver::new(SolverConfig {
        tt_bytes: 1 << 22,
        threads: 1,
    })
    .unwrap();
    let (w, h, k) = (5, 4, 4);
    let n = (w * h) as i32;
    let mut quick = 0;
    for pos in random_positions(w, h, k, 300, 0x51) {
        let exact = solver.analyze(&pos, false, &cancel).unwrap();
        for replies in 1..=3 {
            let got = solver.quick_loss_scores(&pos, replies, &cancel).unwrap();
            for c in 0..w {
                // The opponent's win with their j-th stone after the move scores
                // (n + 1 - stones after the move) / 2 - (j - 1) for them.
                let top = (n + 1 - pos.moves() as i32 - 1) / 2;
                let want = exact[c].filter(|&s| {
                    !pos.is_winning_move(c) && -s >= top - (replies as i32 - 1) && -s > 0
                });
                assert_eq!(got[c], want, "{:?} replies {replies} col {c}", pos.cells());
                quick += usize::from(want.is_some());
            }
        }
    }
    assert!(quick > 100, "only {quick} quick losses checked");
}
