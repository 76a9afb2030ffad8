//! Pons' Connect-Four test sets: End-Easy and Middle-Easy in full, samples of the
//! harder sets. The sets are part of the repository; a missing one fails the test.

#[path = "support/pons.rs"]
mod pons;

use std::sync::atomic::AtomicBool;

use inarow::solver::{Position, Solver, SolverConfig};

/// Solves the first `limit` lines of `file` (every `stride`-th line) with a cleared
/// table and checks the scores; also checks that the node count stays sane.
fn run(file: &str, limit: usize, stride: usize, max_mean_nodes: f64) {
    run_threads(file, limit, stride, max_mean_nodes, 1);
}

fn run_threads(file: &str, limit: usize, stride: usize, max_mean_nodes: f64, threads: usize) {
    let mut solver = Solver::new(SolverConfig {
        tt_bytes: 16 << 20,
        threads,
    })
    .unwrap();
    let cancel = AtomicBool::new(false);
    let (mut count, mut nodes) = (0u64, 0u64);
    for (moves, pos, want) in pons::load(file).into_iter().step_by(stride).take(limit) {
        solver.clear();
        let got = solver.solve(&pos, false, &cancel).unwrap();
        assert_eq!(got, want, "{file}: {moves}");
        nodes += solver.nodes();
        count += 1;
        if count % 5 == 0 {
            solver.clear();
            assert_eq!(
                solver.solve(&pos, true, &cancel).unwrap(),
                want.signum(),
                "weak {moves}"
            );
        }
    }
    let mean = nodes as f64 / count as f64;
    println!("{file}: {count} positions, mean {mean:.0} nodes");
    assert!(
        mean <= max_mean_nodes,
        "{file}: mean nodes {mean} > {max_mean_nodes}"
    );
}

#[test]
fn end_easy_all() {
    run("Test_L3_R1", 1000, 1, 51.0);
}

#[test]
fn middle_easy_all() {
    run("Test_L2_R1", 1000, 1, 449.0);
}

#[test]
fn middle_medium_sample() {
    run("Test_L2_R2", 50, 20, 100_000.0);
}

#[test]
fn begin_easy_sample() {
    run("Test_L1_R1", 50, 20, 20_000.0);
}

#[test]
fn begin_medium_sample() {
    run("Test_L1_R2", 10, 100, 3_000_000.0);
}

#[test]
fn begin_medium_two_threads() {
    // Large enough to leave the single-thread phase and run the parallel search.
    run_threads("Test_L1_R2", 6, 150, 6_000_000.0, 2);
}

#[test]
fn cancel_parallel_search() {
    let mut solver = Solver::new(SolverConfig {
        tt_bytes: 16 << 20,
        threads: 2,
    })
    .unwrap();
    let cancel = AtomicBool::new(false);
    let empty = Position::new(7, 6, 4).unwrap();
    std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(100));
            cancel.store(true, std::sync::atomic::Ordering::Relaxed);
        });
        assert_eq!(
            solver.solve(&empty, false, &cancel),
            Err(inarow::solver::SolveError::Interrupted)
        );
    });
    // Still sound afterwards.
    let ok = AtomicBool::new(false);
    let p = Position::parse_pons("2252576253462244111563365343671351441").unwrap();
    assert_eq!(solver.solve(&p, false, &ok).unwrap(), -1);
}

#[test]
fn analyze_and_best_move_agree() {
    let mut solver = Solver::new(SolverConfig::default()).unwrap();
    let cancel = AtomicBool::new(false);
    for (moves, pos, want) in pons::load("Test_L2_R1").into_iter().step_by(50).take(20) {
        let a = solver.analyze(&pos, false, &cancel).unwrap();
        assert_eq!(
            a.iter().flatten().max().copied(),
            Some(want),
            "{moves}: {a:?}"
        );
        let col = solver.best_move(&pos, &cancel).unwrap();
        assert_eq!(a[col], Some(want));
    }
}
