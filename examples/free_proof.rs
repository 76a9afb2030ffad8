//! Writes a proof of a free-placement board's outcome from the empty board, then
//! checks it with the independent checker (`inarow::proof::check`), or checks a
//! proof file:
//!
//! ```text
//! cargo run --release --example free_proof -- write 5 5 4 [standard] [@CELLS] proof.txt
//! cargo run --release --example free_proof -- check proof.txt
//! ```
//!
//! `@CELLS` (cells `row * width + col`, comma-separated) proves the position
//! after those moves instead of the empty board: `8 8 5 @27,28`.
//!
//! `FREE_ZONES=0` writes no-loss claims without zone certificates (every reply
//! of the other player followed); `FREE_PROOF_CHECK=0` writes without checking.
//!
//! A proof too large for one run is written as a bundle, resumable (run the
//! same command again after a kill), and checked part by part:
//!
//! ```text
//! cargo run --release --example free_proof -- bundle 8 8 5 proof.zst
//! ```
//!
//! `FREE_CUT` (default 4) is the stones at which parts begin; `FREE_THREADS`
//! (default 1) threads write parts side by side; `FREE_JOURNAL`, a
//! journal of the board's outcome search (`free_solve`'s), starts the writer's
//! search from its outcomes (default: `scripts/free-8x8-k5.journal` on 8,8,5).
//! `check` reads plain or zstd files, `FREE_THREADS` parts of a bundle at a
//! time (default: every core).

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use inarow::proof::CheckProgress;
use inarow::solver::free::{read_journal, BundleProgress, FreePosition, FreeSolver};
use inarow::WinRule;

/// Runs `work`, printing `line(seconds since the start)` every 30 s meanwhile.
fn reporting<T: Send>(line: impl Fn(f64) -> String + Sync, work: impl FnOnce() -> T + Send) -> T {
    let done = AtomicBool::new(false);
    let start = Instant::now();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let mut shown = Instant::now();
            while !done.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(100));
                if shown.elapsed() >= Duration::from_secs(30) {
                    shown = Instant::now();
                    eprintln!("{}", line(start.elapsed().as_secs_f64()));
                }
            }
        });
        let result = work();
        done.store(true, Ordering::Relaxed);
        result
    })
}

/// Checks the proof at `path`, `FREE_THREADS` parts of a bundle at a time
/// (default: every core), showing progress every 30 s.
fn check(path: &str) {
    let reader = inarow::proof::open(Path::new(path)).expect("a readable proof file");
    let threads = std::env::var("FREE_THREADS").map_or_else(
        |_| std::thread::available_parallelism().map_or(1, |n| n.get()),
        |v| v.parse().expect("FREE_THREADS: a count"),
    );
    let progress = CheckProgress::default();
    let start = Instant::now();
    let checked = reporting(
        |seconds| {
            format!(
                "  {seconds:.0} s: {} parts ({} positions) checked",
                progress.parts.load(Ordering::Relaxed),
                progress.positions.load(Ordering::Relaxed),
            )
        },
        || inarow::proof::check_bundle(reader, threads, &progress, &AtomicBool::new(false)),
    );
    match checked {
        Ok(verdict) => println!(
            "{path}: proven, outcome for the first player {:?} ({} positions checked, {} parts \
             before the last, {threads} threads, {:.3} s)",
            verdict.outcome(),
            verdict.positions,
            verdict.lemmas,
            start.elapsed().as_secs_f64()
        ),
        Err(e) => {
            eprintln!("{path}: refused: {e}");
            std::process::exit(1);
        }
    }
}

/// `free_proof bundle WIDTH HEIGHT K [@CELLS] PATH`.
fn bundle(args: &[String]) {
    let n = |i: usize| args[i].parse::<usize>().expect("width height k as numbers");
    let moves: Vec<usize> = match args.get(4).and_then(|a| a.strip_prefix('@')) {
        Some(cells) => cells
            .split(',')
            .map(|c| c.parse().expect("cells as numbers"))
            .collect(),
        None => Vec::new(),
    };
    let path = args.last().expect("a path");
    let pos = FreePosition::from_moves_with_rule(n(1), n(2), n(3), WinRule::Freestyle, &moves)
        .expect("a supported position");
    let cut = std::env::var("FREE_CUT").map_or(4, |v| v.parse().expect("FREE_CUT: stones"));
    let journal = std::env::var("FREE_JOURNAL").ok().or_else(|| {
        (pos.width() == 8 && pos.height() == 8 && pos.k() == 5)
            .then(|| "scripts/free-8x8-k5.journal".to_string())
    });
    let pinned = match &journal {
        Some(j) => read_journal(Path::new(j), &pos).expect("a journal of this board"),
        None => Vec::new(),
    };
    let mib: usize = std::env::var("FREE_TT_MIB").map_or(1024, |v| v.parse().expect("MiB"));
    let mut solver = FreeSolver::new(mib << 20).expect("table");
    if let Ok(threads) = std::env::var("FREE_THREADS") {
        solver.set_threads(threads.parse().expect("FREE_THREADS: a count"));
    }
    let progress = BundleProgress::default();
    let cancel = AtomicBool::new(false);
    let start = Instant::now();
    eprintln!(
        "{path}: {} outcomes from the journal, parts from {cut} stones",
        pinned.len()
    );
    let summary = reporting(
        |seconds| {
            format!(
                "  {seconds:.0} s: {} parts ({} records) written in this run, {} before; {} bytes",
                progress.parts.load(Ordering::Relaxed),
                progress.records.load(Ordering::Relaxed),
                progress.earlier.load(Ordering::Relaxed),
                progress.bytes.load(Ordering::Relaxed)
            )
        },
        || solver.write_proof_bundle(&pos, Path::new(path), cut, &pinned, &progress, &cancel),
    );
    let summary = summary.unwrap_or_else(|e| {
        // A locked bundle, a full disk, Ctrl-C: the parts on disk stay.
        eprintln!("{path}: stopped: {e}");
        std::process::exit(1);
    });
    println!(
        "{path}: outcome {:+} for the first player, {} parts written ({} records) beside {} \
         from earlier runs, {} bytes, {:.3} s",
        summary.outcome,
        summary.parts,
        summary.records,
        summary.earlier,
        summary.bytes,
        start.elapsed().as_secs_f64()
    );
    if !std::env::var("FREE_PROOF_CHECK").is_ok_and(|v| v == "0") {
        check(path);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("check") if args.len() == 2 => check(&args[1]),
        Some("bundle") if args.len() == 5 || args.len() == 6 => bundle(&args),
        Some("write") if (5..=7).contains(&args.len()) => {
            let n = |i: usize| args[i].parse::<usize>().expect("width height k as numbers");
            let mut rest: Vec<&String> = args[4..args.len() - 1].iter().collect();
            let moves: Vec<usize> = match rest.last().and_then(|a| a.strip_prefix('@')) {
                Some(cells) => {
                    let moves = cells
                        .split(',')
                        .map(|c| c.parse().expect("cells as numbers"))
                        .collect();
                    rest.pop();
                    moves
                }
                None => Vec::new(),
            };
            let rule = match rest.as_slice() {
                [name] => WinRule::from_name(name).expect("freestyle or standard"),
                [] => WinRule::Freestyle,
                _ => usage(),
            };
            let path = args.last().expect("a path");
            let pos = FreePosition::from_moves_with_rule(n(1), n(2), n(3), rule, &moves)
                .expect("a supported position");
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
        _ => usage(),
    }
}

fn usage() -> ! {
    eprintln!(
        "usage: free_proof write WIDTH HEIGHT K [RULE] [@CELLS] PATH | free_proof bundle WIDTH \
         HEIGHT K [@CELLS] PATH | free_proof check PATH"
    );
    std::process::exit(2);
}
