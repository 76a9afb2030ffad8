//! How long the solver takes at each ply of random 7x6 games: the measurement behind
//! the opening book's depth.
//!
//! ```text
//! cargo run --release --example book_measure [-- --plies 4-16 --threads 1 --seed 1 --no-exact]
//! ```
//!
//! For each ply, random-play positions (not over, and the player to move has no
//! immediate win) are solved four ways: a weak solve and a weak per-move analysis
//! from a cleared default (64 MiB) table, an exact per-move analysis (what
//! `best_move` costs today) from a cleared table, and a weak solve on a 1 GiB table
//! kept warm across the positions of the ply. Prints median, p90, p99 and max of the
//! time and of the nodes.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use inarow::solver::{Position, Solver, SolverConfig, DEFAULT_TT_BYTES};
use inarow::Rng;

#[path = "support/timing.rs"]
mod timing;
use timing::flag_value;

#[path = "support/positions.rs"]
mod positions;
use positions::random_position;

/// Median, p90, p99 and max of `v` (nearest-rank).
fn quantiles(v: &mut [f64]) -> [f64; 4] {
    v.sort_by(f64::total_cmp);
    let at = |q: f64| v[((q * v.len() as f64).ceil() as usize).clamp(1, v.len()) - 1];
    [at(0.5), at(0.9), at(0.99), v[v.len() - 1]]
}

fn fmt_ms(s: f64) -> String {
    let ms = s * 1e3;
    if ms < 10.0 {
        format!("{ms:.2}")
    } else if ms < 1000.0 {
        format!("{ms:.0}")
    } else {
        format!("{:.1}s", s)
    }
}

fn fmt_nodes(n: f64) -> String {
    if n < 1e4 {
        format!("{n:.0}")
    } else if n < 1e7 {
        format!("{:.0}k", n / 1e3)
    } else {
        format!("{:.1}M", n / 1e6)
    }
}

/// Runs `f` on every position, returning (seconds, nodes) per position.
fn measure(
    positions: &[Position],
    solver: &mut Solver,
    clear: bool,
    mut f: impl FnMut(&mut Solver, &Position),
) -> (Vec<f64>, Vec<f64>) {
    let (mut secs, mut nodes) = (Vec::new(), Vec::new());
    for pos in positions {
        if clear {
            solver.clear();
        }
        let t = Instant::now();
        f(solver, pos);
        secs.push(t.elapsed().as_secs_f64());
        nodes.push(solver.nodes() as f64);
    }
    (secs, nodes)
}

fn report(label: &str, ply: usize, (mut secs, mut nodes): (Vec<f64>, Vec<f64>)) {
    let t = quantiles(&mut secs);
    let n = quantiles(&mut nodes);
    println!(
        "{ply:>4} {label:<18} {:>5} | ms {:>8} {:>8} {:>8} {:>8} | nodes {:>7} {:>7} {:>7} {:>7}",
        secs.len(),
        fmt_ms(t[0]),
        fmt_ms(t[1]),
        fmt_ms(t[2]),
        fmt_ms(t[3]),
        fmt_nodes(n[0]),
        fmt_nodes(n[1]),
        fmt_nodes(n[2]),
        fmt_nodes(n[3]),
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |name: &str| flag_value(&args, name);
    let threads: usize = arg("--threads").map_or(1, |v| v.parse().expect("--threads N"));
    let seed: u64 = arg("--seed").map_or(1, |v| v.parse().expect("--seed N"));
    let (first, last): (usize, usize) = arg("--plies").map_or((4, 16), |v| {
        let (a, b) = v.split_once('-').expect("--plies A-B");
        (a.parse().expect("ply"), b.parse().expect("ply"))
    });
    let exact = !args.iter().any(|a| a == "--no-exact");
    let cancel = AtomicBool::new(false);
    let mut fresh = Solver::new(SolverConfig {
        tt_bytes: DEFAULT_TT_BYTES,
        threads,
    })
    .expect("solver");
    let mut warm = Solver::new(SolverConfig {
        tt_bytes: 1 << 30,
        threads,
    })
    .expect("solver");
    println!("threads {threads}; times in ms: median p90 p99 max; nodes likewise");
    for ply in first..=last {
        let count = match ply {
            0..=5 => 15,
            6..=7 => 40,
            8..=9 => 100,
            _ => 300,
        };
        let mut rng = Rng::new(seed, ply as u64);
        let positions: Vec<Position> = (0..count).map(|_| random_position(&mut rng, ply)).collect();
        // (label, analyze rather than solve, weak, fresh table per position)
        let runs = [
            ("weak solve", false, true, true),
            ("weak analyze", true, true, true),
            ("exact analyze", true, false, true),
            ("weak solve, warm", false, true, false),
        ];
        warm.clear();
        for (label, analyze, weak, cold) in runs {
            if !weak && !exact {
                continue;
            }
            let solver = if cold { &mut fresh } else { &mut warm };
            let run = |s: &mut Solver, p: &Position| {
                if analyze {
                    s.analyze(p, weak, &cancel).expect("analyze");
                } else {
                    s.solve(p, weak, &cancel).expect("solve");
                }
            };
            report(label, ply, measure(&positions, solver, cold, run));
        }
    }
}
