//! The per-move truth for Pascal Pons' six Connect-Four test sets.
//!
//! ```text
//! cargo run --release --example pons_analysis -- [--sets L3_R1,L2_R1,L2_R2,L1_R1,L1_R2,L1_R3]
//!     [--src DIR] [--dst DIR] [--threads 1] [--tt-mib 256] [--limit N] [--book FILE | --no-book]
//! ```
//!
//! The search probes the opening book (`--book`, by default the shipped
//! `python/inarow/data/connect4-7x6.book.zst`): its win/draw/loss values bound the nodes
//! it covers, which cuts the exact searches of early positions; the answers are the
//! same with or without it.
//!
//! For each set file `Test_L?_R?` (lines `<moves> <score>`), writes
//! `Test_L?_R?.analysis` with one line per position, in the same order:
//! `<moves> s1 s2 s3 s4 s5 s6 s7`, each `s` the exact score of playing that column
//! (`Solver::analyze(pos, weak = false)`: Pons' convention, from the point of view
//! of the player who plays the column), `.` for a full column. Every line is checked
//! before it is written: the best column's score is the set's score.
//!
//! Lines are appended one at a time, so an interrupted run (Ctrl-C, SIGTERM, a crash)
//! resumes after the last complete line; a partial last line is dropped. The scores
//! do not depend on the table size, the threads or the interruptions.

use std::fs::OpenOptions;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::Instant;

use std::sync::Arc;

use inarow::solver::book::Book;
use inarow::solver::{Position, Solver, SolverConfig};

const ALL_SETS: [&str; 6] = ["L3_R1", "L2_R1", "L2_R2", "L1_R1", "L1_R2", "L1_R3"];

#[path = "support/interrupt.rs"]
mod interrupt;
#[path = "support/timing.rs"]
mod timing;
use interrupt::{install_interrupt_handler, INTERRUPTED};
use timing::fmt_duration;

fn fail(message: String) -> ! {
    eprintln!("pons_analysis: {message}");
    std::process::exit(2);
}

/// The analysis line of a set line, checked against the set's score.
fn analysis_line(solver: &mut Solver, set_line: &str) -> Result<Option<String>, String> {
    let mut parts = set_line.split_whitespace();
    let (Some(moves), Some(score), None) = (parts.next(), parts.next(), parts.next()) else {
        return Err(format!("expected `<moves> <score>`, got {set_line:?}"));
    };
    let pos = Position::parse_pons(moves).map_err(|e| format!("{moves}: {e}"))?;
    let want: i32 = score
        .parse()
        .map_err(|_| format!("{moves}: bad score {score:?}"))?;
    let scores = match solver.analyze(&pos, false, &INTERRUPTED) {
        Ok(s) => s,
        Err(_) if INTERRUPTED.load(Ordering::Relaxed) => return Ok(None),
        Err(e) => return Err(format!("{moves}: {e}")),
    };
    let best = scores.iter().flatten().max();
    if best != Some(&want) {
        return Err(format!(
            "{moves}: best column scores {best:?}, the set says {want} ({scores:?})"
        ));
    }
    let cells: Vec<String> = scores
        .iter()
        .map(|s| s.map_or(".".to_string(), |v| v.to_string()))
        .collect();
    Ok(Some(format!("{moves} {}", cells.join(" "))))
}

/// The complete lines already in `path` (a partial last line is cut off).
fn resume_point(path: &Path) -> usize {
    let Ok(text) = std::fs::read_to_string(path) else {
        return 0;
    };
    let complete = text.rfind('\n').map_or(0, |i| i + 1);
    if complete < text.len() {
        let f = OpenOptions::new()
            .write(true)
            .open(path)
            .unwrap_or_else(|e| fail(format!("{}: {e}", path.display())));
        f.set_len(complete as u64)
            .unwrap_or_else(|e| fail(format!("{}: {e}", path.display())));
    }
    text[..complete].lines().count()
}

fn run_set(solver: &mut Solver, src: &Path, dst: &Path, set: &str, limit: Option<usize>) {
    let input = src.join(format!("Test_{set}"));
    let text = std::fs::read_to_string(&input)
        .unwrap_or_else(|e| fail(format!("{}: {e}", input.display())));
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let output = dst.join(format!("Test_{set}.analysis"));
    let done = resume_point(&output);
    if done > lines.len() {
        fail(format!(
            "{} has more lines than {}",
            output.display(),
            input.display()
        ));
    }
    let end = limit.map_or(lines.len(), |l| lines.len().min(done + l));
    if done == end {
        eprintln!("{set}: {done}/{} lines, nothing to do", lines.len());
        return;
    }
    std::fs::create_dir_all(dst).unwrap_or_else(|e| fail(format!("{}: {e}", dst.display())));
    let mut out = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&output)
        .unwrap_or_else(|e| fail(format!("{}: {e}", output.display())));
    let tty = std::io::stderr().is_terminal();
    let t0 = Instant::now();
    let mut last_print = Instant::now();
    for (i, set_line) in lines.iter().enumerate().take(end).skip(done) {
        let Some(line) =
            analysis_line(solver, set_line).unwrap_or_else(|e| fail(format!("{set}: {e}")))
        else {
            eprintln!("\n{set}: interrupted after {i} lines; run again to resume");
            std::process::exit(130);
        };
        writeln!(out, "{line}").unwrap_or_else(|e| fail(format!("{}: {e}", output.display())));
        let n = i + 1;
        if n == end || last_print.elapsed().as_secs() >= if tty { 1 } else { 60 } {
            let elapsed = t0.elapsed().as_secs_f64();
            let rate = (n - done) as f64 / elapsed.max(1e-9);
            let line = format!(
                "{set}: {n}/{} lines  {:.2} lines/s  elapsed {}  ETA {}",
                lines.len(),
                rate,
                fmt_duration(elapsed),
                fmt_duration((end - n) as f64 / rate.max(1e-9))
            );
            if tty {
                eprint!("\r{line}  ");
            } else {
                eprintln!("{line}");
            }
            last_print = Instant::now();
        }
    }
    if tty {
        eprintln!();
    }
    eprintln!(
        "{set}: {} lines in {:.3} h",
        end - done,
        t0.elapsed().as_secs_f64() / 3600.0
    );
}

fn main() {
    install_interrupt_handler();
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let arg = |name: &str| {
        argv.iter().position(|a| a == name).map(|i| {
            argv.get(i + 1)
                .cloned()
                .unwrap_or_else(|| fail(format!("{name} needs a value")))
        })
    };
    let number = |name: &str, default: usize| {
        arg(name).map_or(default, |v| {
            v.parse()
                .unwrap_or_else(|_| fail(format!("{name}: {v:?} is not a number")))
        })
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let src = arg("--src").map(PathBuf::from).unwrap_or_else(|| {
        [
            root.join("python/inarow/data/connect4-pons"),
            PathBuf::from("/work/shared/data/connect4-pons"),
        ]
        .into_iter()
        .find(|d| d.join("Test_L1_R1").exists())
        .unwrap_or_else(|| fail("no Pons set files found; pass --src DIR".into()))
    });
    let dst = arg("--dst").map_or_else(
        || root.join("python/inarow/data/connect4-pons"),
        PathBuf::from,
    );
    let sets: Vec<String> = arg("--sets").map_or_else(
        || ALL_SETS.iter().map(|s| s.to_string()).collect(),
        |v| {
            v.split(',')
                .map(|s| s.trim_start_matches("Test_").to_string())
                .collect()
        },
    );
    if let Some(bad) = sets.iter().find(|s| !ALL_SETS.contains(&s.as_str())) {
        fail(format!("unknown set {bad:?}; the sets are {ALL_SETS:?}"));
    }
    let limit = arg("--limit").map(|v| {
        v.parse()
            .unwrap_or_else(|_| fail(format!("--limit: {v:?} is not a number")))
    });
    let mut solver = Solver::new(SolverConfig {
        tt_bytes: number("--tt-mib", 256) << 20,
        threads: number("--threads", 1),
    })
    .unwrap_or_else(|e| fail(e.to_string()));
    if !argv.iter().any(|a| a == "--no-book") {
        let path = arg("--book").map_or_else(
            || root.join("python/inarow/data/connect4-7x6.book.zst"),
            PathBuf::from,
        );
        let bytes = std::fs::read(&path)
            .unwrap_or_else(|e| fail(format!("cannot read the book {}: {e}", path.display())));
        let book =
            Book::from_bytes(bytes).unwrap_or_else(|e| fail(format!("{}: {e}", path.display())));
        solver.set_book(Some(Arc::new(book)));
    }
    for set in &sets {
        run_set(&mut solver, &src, &dst, set, limit);
    }
}
