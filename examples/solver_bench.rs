//! The full Connect-Four solver benchmark on Pascal Pons' six test sets.
//!
//! ```text
//! cargo run --release --example solver_bench [-- --threads N --tt-mib M --sets L3_R1,L2_R1 --limit N --no-empty]
//! ```
//!
//! Every position is solved with a cleared table and checked against the expected
//! score; prints mean nodes and mean time per set next to Pons' and c4's reference
//! figures, then solves (and analyses) the empty 7x6 board.

#[path = "../tests/support/pons.rs"]
mod pons;
#[path = "support/timing.rs"]
mod timing;

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use inarow::solver::{Position, Solver, SolverConfig};
use timing::{cpu_seconds, flag_value};

struct Set {
    file: &'static str,
    name: &'static str,
    limit: usize,
    pons: (f64, f64),
    c4: (f64, f64),
}

/// Pons' six test sets: file, name, positions run by default, and the published
/// (mean nodes, mean seconds) per position of Pons' solver and of c4.
#[rustfmt::skip]
const SETS: [Set; 6] = [
    Set { file: "Test_L3_R1", name: "End-Easy", limit: 1000, pons: (51.0, 6.5e-6), c4: (13.0, 58e-6) },
    Set { file: "Test_L2_R1", name: "Middle-Easy", limit: 1000, pons: (449.0, 64e-6), c4: (385.0, 181e-6) },
    Set { file: "Test_L2_R2", name: "Middle-Medium", limit: 1000, pons: (39_808.0, 5.3e-3), c4: (7_469.0, 2.84e-3) },
    Set { file: "Test_L1_R1", name: "Begin-Easy", limit: 1000, pons: (3_296.0, 0.34e-3), c4: (21_212.0, 7.8e-3) },
    Set { file: "Test_L1_R2", name: "Begin-Medium", limit: 1000, pons: (1_187_923.0, 156e-3), c4: (289_000.0, 117e-3) },
    Set { file: "Test_L1_R3", name: "Begin-Hard", limit: 50, pons: (48.7e6, 6.5), c4: (6.6e6, 2.22) },
];

fn fmt_time(s: f64) -> String {
    if s < 1e-3 {
        format!("{:.1} us", s * 1e6)
    } else if s < 1.0 {
        format!("{:.2} ms", s * 1e3)
    } else {
        format!("{:.2} s", s)
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |name: &str| flag_value(&args, name);
    let threads: usize = arg("--threads").map_or(1, |v| v.parse().expect("--threads N"));
    let tt_mib: usize = arg("--tt-mib").map_or(64, |v| v.parse().expect("--tt-mib M"));
    let only: Option<Vec<String>> = arg("--sets").map(|v| v.split(',').map(String::from).collect());
    let limit: Option<usize> = arg("--limit").map(|v| v.parse().expect("--limit N"));
    let empty = !args.iter().any(|a| a == "--no-empty");
    // 256 MiB: a 1 GiB table searches as many nodes but waits longer on memory
    // (2 threads: 17 s against 13 s).
    let empty_tt_mib: usize = arg("--empty-tt-mib").map_or(256, |v| v.parse().expect("MiB"));

    let mut solver = Solver::new(SolverConfig {
        tt_bytes: tt_mib << 20,
        threads,
    })
    .unwrap();
    let cancel = AtomicBool::new(false);
    println!("threads {threads}, table {tt_mib} MiB");
    println!(
        "{:<14} {:>5} {:>12} {:>10} | {:>10} {:>10} | {:>10} {:>10} | verdict",
        "set", "n", "mean nodes", "mean time", "Pons nodes", "Pons time", "c4 nodes", "c4 time"
    );
    for set in SETS.iter() {
        if let Some(o) = &only {
            if !o.iter().any(|x| x == set.file.trim_start_matches("Test_")) {
                continue;
            }
        }
        let lim = limit.map_or(set.limit, |l| l.min(set.limit));
        let (mut nodes, mut secs, mut count) = (0u64, 0f64, 0usize);
        let cpu0 = cpu_seconds();
        for (m, pos, want) in pons::load(set.file).into_iter().take(lim) {
            solver.clear();
            let t = Instant::now();
            let got = solver.solve(&pos, false, &cancel).unwrap();
            secs += t.elapsed().as_secs_f64();
            nodes += solver.nodes();
            count += 1;
            assert_eq!(got, want, "wrong score for {m}");
        }
        let (mn, mt) = (nodes as f64 / count as f64, secs / count as f64);
        let cpu = (cpu_seconds() - cpu0) / count as f64;
        let ok_nodes = mn <= set.pons.0;
        let ok_time = mt <= set.pons.1.min(set.c4.1);
        println!(
            "{:<14} {:>5} {:>12.0} {:>10} | {:>10.0} {:>10} | {:>10.0} {:>10} | nodes {} time {} (cpu {})",
            set.name,
            count,
            mn,
            fmt_time(mt),
            set.pons.0,
            fmt_time(set.pons.1),
            set.c4.0,
            fmt_time(set.c4.1),
            if ok_nodes { "ok" } else { "MISS" },
            if ok_time { "ok" } else { "MISS" },
            fmt_time(cpu),
        );
    }
    if empty {
        let mut solver = Solver::new(SolverConfig {
            tt_bytes: empty_tt_mib << 20,
            threads,
        })
        .unwrap();
        let pos = Position::new(7, 6, 4).unwrap();
        let t = Instant::now();
        let cpu0 = cpu_seconds();
        let score = solver.solve(&pos, false, &cancel).unwrap();
        let secs = t.elapsed().as_secs_f64();
        println!("(cpu {:.2} s)", cpu_seconds() - cpu0);
        println!(
            "empty 7x6 board ({empty_tt_mib} MiB table, no book): score {score} in {} ({} nodes) target <= 15 s: {}",
            fmt_time(secs),
            solver.nodes(),
            if secs <= 15.0 && score == 1 { "ok" } else { "MISS" }
        );
        if args.iter().any(|a| a == "--analyze") {
            let t = Instant::now();
            let a = solver.analyze(&pos, false, &cancel).unwrap();
            println!(
                "analyze empty board: {a:?} in {}",
                fmt_time(t.elapsed().as_secs_f64())
            );
        }
    }
}
