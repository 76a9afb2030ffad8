//! Criterion benchmarks of the Connect-Four solver on small samples of Pons' test
//! sets (table cleared before each position, scores asserted so a fast wrong answer
//! cannot pass). The full benchmark is `cargo run --release --example solver_bench`.

#[path = "../tests/support/pons.rs"]
mod pons;

use std::sync::atomic::AtomicBool;

use criterion::{criterion_group, criterion_main, Criterion};
use inarow::solver::{Position, Solver, SolverConfig};

/// The first `n` positions of a set with their expected scores.
fn load(file: &str, n: usize) -> Vec<(Position, i32)> {
    pons::load(file)
        .into_iter()
        .take(n)
        .map(|(_, pos, score)| (pos, score))
        .collect()
}

fn bench_sets(c: &mut Criterion) {
    let mut solver = Solver::new(SolverConfig::default()).unwrap();
    let cancel = AtomicBool::new(false);
    for (file, name, n) in [
        ("Test_L3_R1", "end_easy_x50", 50),
        ("Test_L2_R1", "middle_easy_x50", 50),
        ("Test_L1_R1", "begin_easy_x20", 20),
        ("Test_L2_R2", "middle_medium_x5", 5),
    ] {
        let positions = load(file, n);
        c.bench_function(name, |b| {
            b.iter(|| {
                for (pos, want) in &positions {
                    solver.clear();
                    assert_eq!(solver.solve(pos, false, &cancel).unwrap(), *want);
                }
            })
        });
    }
}

fn bench_position_ops(c: &mut Criterion) {
    c.bench_function("parse_pons", |b| {
        b.iter(|| {
            Position::parse_pons(std::hint::black_box(
                "2252576253462244111563365343671351441",
            ))
            .unwrap()
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench_sets, bench_position_ops
}
criterion_main!(benches);
