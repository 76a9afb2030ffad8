//! The moves of an analysis searched at once on several threads
//! ([`Solver::search_all`]): the same values as one search per move, the same
//! failures (node limit, interruption, refused threads).

use std::sync::atomic::{AtomicBool, Ordering};

use super::{Position, SolveError, Solver, SolverConfig, SOLO_NODE_BUDGET};

/// The first `count` positions of Pons' Begin-Medium set with every column's exact
/// score (`None`: a full column), from `Test_L1_R2.analysis` in the repository.
fn begin_medium(count: usize) -> Vec<(Position, Vec<Option<i32>>)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/python/inarow/data/connect4-pons/Test_L1_R2.analysis"
    );
    let text =
        std::fs::read_to_string(path).expect("the Pons analysis files are in the repository");
    text.lines()
        .take(count)
        .map(|line| {
            let mut parts = line.split_whitespace();
            let pos = Position::parse_pons(parts.next().unwrap()).unwrap();
            let scores = parts.map(|s| s.parse().ok()).collect();
            (pos, scores)
        })
        .collect()
}

fn solver(threads: usize) -> Solver {
    Solver::new(SolverConfig {
        tt_bytes: 1 << 24,
        threads,
    })
    .unwrap()
}

#[test]
fn moves_searched_at_once_score_as_pons_analysis() {
    let cancel = AtomicBool::new(false);
    let mut parallel_runs = 0;
    for (pos, want) in begin_medium(12) {
        for threads in [2, 3] {
            let mut s = solver(threads);
            assert_eq!(s.analyze(&pos, false, &cancel).unwrap(), want, "{pos:?}");
            parallel_runs += usize::from(s.nodes() > SOLO_NODE_BUDGET);
            s.clear();
            let signs: Vec<Option<i32>> = want.iter().map(|v| v.map(i32::signum)).collect();
            assert_eq!(s.analyze(&pos, true, &cancel).unwrap(), signs, "{pos:?}");
        }
    }
    assert!(
        parallel_runs >= 6,
        "only {parallel_runs} analyses went past the solo budget"
    );
}

#[test]
fn probe_pairs_find_the_exact_scores_of_pons_sets() {
    let cancel = AtomicBool::new(false);
    for set in ["Test_L1_R2", "Test_L2_R2"] {
        let path = format!(
            "{}/python/inarow/data/connect4-pons/{set}",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(path).unwrap();
        for line in text.lines().take(15) {
            let (moves, score) = line.split_once(' ').unwrap();
            let pos = Position::parse_pons(moves).unwrap();
            let want: i32 = score.trim().parse().unwrap();
            for threads in [1, 2, 3] {
                let mut s = solver(threads);
                assert_eq!(s.exact_by_probe_pairs(&pos, &cancel), Ok(want), "{moves}");
            }
        }
    }
}

#[test]
fn a_node_limit_stops_every_thread_and_the_solver_still_answers() {
    let cancel = AtomicBool::new(false);
    let mut s = solver(2);
    let opening = Position::parse_pons("44").unwrap();
    s.set_node_limit(Some(SOLO_NODE_BUDGET + (1 << 14)));
    assert_eq!(
        s.analyze(&opening, false, &cancel),
        Err(SolveError::NodeLimit)
    );
    assert!(s.nodes() < 4 * SOLO_NODE_BUDGET, "{} nodes", s.nodes());
    s.set_node_limit(None);
    let (pos, want) = begin_medium(1).remove(0);
    assert_eq!(s.analyze(&pos, false, &cancel).unwrap(), want);
}

#[test]
fn an_interruption_stops_every_thread_at_once() {
    let mut s = solver(2);
    let opening = Position::parse_pons("4").unwrap();
    let cancel = AtomicBool::new(false);
    std::thread::scope(|sc| {
        sc.spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(100));
            cancel.store(true, Ordering::Relaxed);
        });
        let t = std::time::Instant::now();
        assert_eq!(
            s.analyze(&opening, false, &cancel),
            Err(SolveError::Interrupted)
        );
        assert!(t.elapsed().as_secs() < 5);
    });
    let (pos, want) = begin_medium(1).remove(0);
    assert_eq!(
        s.analyze(&pos, false, &AtomicBool::new(false)).unwrap(),
        want
    );
}

#[test]
fn refused_threads_leave_the_analysis_to_this_one() {
    crate::threads::REFUSE_SPAWN.with(|r| r.set(true));
    let mut s = solver(2);
    let cancel = AtomicBool::new(false);
    let got: Vec<_> = begin_medium(3)
        .into_iter()
        .map(|(pos, want)| (s.analyze(&pos, false, &cancel), want))
        .collect();
    crate::threads::REFUSE_SPAWN.with(|r| r.set(false));
    for (got, want) in got {
        assert_eq!(got, Ok(want));
    }
}
