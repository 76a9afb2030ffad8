//! Criterion benches of the core: single moves, random games, perft, batch steps.
//! `cargo bench --bench engine`. Counts are asserted so a fast wrong answer fails.

use std::sync::atomic::{AtomicBool, AtomicU64};

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use inarow::batch::{simulate, SimulateConfig};
use inarow::{perft, Game, Rules};

fn bench_perft(c: &mut Criterion) {
    let mut g = Game::new(Rules::connect_four());
    let mut group = c.benchmark_group("perft");
    group.throughput(Throughput::Elements(823_536));
    group.bench_function("connect_four_depth7", |b| {
        b.iter(|| assert_eq!(perft(&mut g, 7), 823_536))
    });
    group.finish();
}

fn bench_moves(c: &mut Criterion) {
    let mut group = c.benchmark_group("play_undo");
    for (name, rules, actions) in [
        (
            "connect_four",
            Rules::connect_four(),
            vec![3usize, 3, 2, 4, 2, 1, 5, 0],
        ),
        (
            "gomoku15",
            Rules::gomoku(15).unwrap(),
            vec![112, 113, 97, 98, 127, 128, 82, 83],
        ),
    ] {
        group.throughput(Throughput::Elements(actions.len() as u64));
        let mut g = Game::new(rules);
        group.bench_function(name, |b| {
            b.iter(|| {
                for &a in &actions {
                    black_box(g.play_unchecked(a));
                }
                for _ in &actions {
                    g.undo().unwrap();
                }
            })
        });
    }
    group.finish();
}

fn bench_simulate(c: &mut Criterion) {
    let mut group = c.benchmark_group("simulate_random_games");
    group.sample_size(10);
    for (name, rules) in [
        ("connect_four", Rules::connect_four()),
        ("gomoku15", Rules::gomoku(15).unwrap()),
        ("8x8k5p3", Rules::new(8, 8, 5, 3, false).unwrap()),
    ] {
        let games = 20_000;
        group.throughput(Throughput::Elements(games));
        let config = SimulateConfig {
            games,
            seed: 1,
            threads: 1,
        };
        group.bench_function(name, |b| {
            b.iter(|| {
                let r =
                    simulate(rules, &config, &AtomicU64::new(0), &AtomicBool::new(false)).unwrap();
                assert_eq!(r.games, games);
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_perft, bench_moves, bench_simulate);
criterion_main!(benches);
