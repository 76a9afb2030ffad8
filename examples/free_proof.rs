//! Writes a proof of a free-placement board's outcome from the empty board, then
//! checks it with the independent checker (`inarow::proof::check`), or checks a
//! proof file:
//!
//! ```text
//! cargo run --release --example free_proof -- write 5 5 4 [standard] proof.txt
//! cargo run --release --example free_proof -- check proof.txt
//! ```
//!
//! `FREE_ZONES=0` writes no-loss claims without zone certificates (every reply
//! of the other player followed); `FREE_PROOF_CHECK=0` writes without checking.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use inarow::solver::free::{FreePosition, FreeSolver};
use inarow::WinRule;

fn check(path: &str) {
    let file = std::fs::File::open(path).expect("a readable proof file");
    let start = Instant::now();
    match inarow::proof::check_reader(std::io::BufReader::new(file)) {
        Ok(verdict) => println!(
            "{path}: proven, outcome for the first player {:?} ({} positions checked, {:.3} s)",
            verdict.outcome(),
            verdict.positions,
            start.elapsed().as_secs_f64()
        ),
        Err(e) => {
            eprintln!("{path}: refused: {e}");
            std::process::exit(1);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("check") if args.len() == 2 => check(&args[1]),
        Some("write") if args.len() == 5 || args.len() == 6 => {
            let n = |i: usize| args[i].parse::<usize>().expect("width height k as numbers");
            let rule = if args.len() == 6 {
                WinRule::from_name(&args[4]).expect("freestyle or standard")
            } else {
                WinRule::Freestyle
            };
            let path = args.last().expect("a path");
            let pos = FreePosition::with_rule(n(1), n(2), n(3), rule).expect("a supported board");
            let mut solver = FreeSolver::new(256 << 20).expect("table");
            if std::env::var("FREE_ZONES").is_ok_and(|v| v == "0") {
                solver.set_zone_search(false);
            }
            let mut out = std::io::BufWriter::new(std::fs::File::create(path).expect("writable"));
            let start = Instant::now();
            let summary = solver
                .write_proof(&pos, &mut out, &AtomicBool::new(false))
                .expect("proof written");
            drop(out);
            println!(
                "{path}: outcome {:+} for the first player, {} records ({} pairings, {} passes), \
                 {} bytes, {} search nodes, {:.3} s",
                summary.outcome,
                summary.records,
                summary.pairings,
                summary.passes,
                std::fs::metadata(path).map(|m| m.len()).unwrap_or(0),
                solver.nodes(),
                start.elapsed().as_secs_f64()
            );
            if !std::env::var("FREE_PROOF_CHECK").is_ok_and(|v| v == "0") {
                check(path);
            }
        }
        _ => {
            eprintln!("usage: free_proof write WIDTH HEIGHT K [RULE] PATH | free_proof check PATH");
            std::process::exit(2);
        }
    }
}
