//! Solves free-placement boards and prints each value, its node count and time:
//! `cargo run --release --example free_solve -- 5 5 4 [6 6 5 ...]`. A board may
//! be followed by `@CELLS` (cells `row * width + col`, comma-separated) to solve
//! the position after those moves: `7 7 5 @24,25`. `FREE_TT_MIB` sets the table
//! size (default 256 MiB); `FREE_HISTORY=0` switches the history heuristic off;
//! `FREE_RULE=standard` solves under the standard rule (exactly `k`);
//! `FREE_VALUE=weak` asks for the outcome only (win, draw or loss: the zone
//! search), `FREE_ZONES=0` for that outcome by negamax instead; `FREE_THREADS`
//! sets the zone search's threads (default 1).
//!
//! `FREE_JOURNAL=PATH` makes a weak solve resumable: the outcomes the zone search
//! proves for positions of at most `FREE_PIN_STONES` stones (default 6) are
//! appended to `PATH` as they come (flushed every tenth of a second; a line a kill
//! cut short is dropped), and a run finds those of earlier runs there, so a search stopped by Ctrl-C or a kill goes on where
//! it stopped. Progress goes to stderr every 30 s.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use inarow::solver::free::{
    journal_header, FreePosition, FreeSolver, JournalProgress, DEFAULT_JOURNAL_STONES,
};
use inarow::WinRule;

fn main() {
    let mut boards: Vec<(Vec<usize>, Vec<usize>)> = Vec::new();
    let mut shape = Vec::new();
    for arg in std::env::args().skip(1) {
        if let Some(cells) = arg.strip_prefix('@') {
            let moves = cells
                .split(',')
                .map(|c| c.parse().expect("cells as numbers"))
                .collect();
            boards.last_mut().expect("moves after a board").1 = moves;
            continue;
        }
        shape.push(arg.parse().expect("width height k, as numbers"));
        if shape.len() == 3 {
            boards.push((std::mem::take(&mut shape), Vec::new()));
        }
    }
    assert!(
        !boards.is_empty() && shape.is_empty(),
        "usage: free_solve WIDTH HEIGHT K [@CELLS] [WIDTH HEIGHT K [@CELLS] ...]"
    );
    let mib: usize = std::env::var("FREE_TT_MIB").map_or(256, |v| v.parse().expect("MiB"));
    let cancel = AtomicBool::new(false);
    for (shape, moves) in boards {
        let (w, h, k) = (shape[0], shape[1], shape[2]);
        let mut solver = FreeSolver::new(mib << 20).expect("table");
        if std::env::var("FREE_HISTORY").is_ok_and(|v| v == "0") {
            solver.set_move_history(false);
        }
        if let Ok(threads) = std::env::var("FREE_THREADS") {
            solver.set_threads(threads.parse().expect("FREE_THREADS: a count"));
        }
        if std::env::var("FREE_ZONES").is_ok_and(|v| v == "0") {
            solver.set_zone_search(false);
        }
        let weak = std::env::var("FREE_VALUE").is_ok_and(|v| v == "weak");
        let rule = std::env::var("FREE_RULE").map_or(WinRule::Freestyle, |name| {
            WinRule::from_name(&name).expect("FREE_RULE: freestyle or standard")
        });
        let pos = FreePosition::from_moves_with_rule(w, h, k, rule, &moves)
            .expect("a supported position");
        let start = Instant::now();
        let value = match std::env::var("FREE_JOURNAL") {
            Ok(path) if weak => solve_with_journal(&mut solver, &pos, &path, &cancel),
            _ => solver.solve(&pos, weak, &cancel).expect("solved"),
        };
        println!(
            "{w}x{h} k={k} after {moves:?}: {} {value:+} ({} nodes, {:.3} s)",
            if weak { "outcome" } else { "score" },
            solver.nodes(),
            start.elapsed().as_secs_f64()
        );
    }
}

/// A weak solve of `pos` that resumes from the journal at `path` and appends
/// to it what it proves ([`FreeSolver::solve_with_journal`]), showing progress
/// every 30 s.
fn solve_with_journal(
    solver: &mut FreeSolver,
    pos: &FreePosition,
    path: &str,
    cancel: &AtomicBool,
) -> i32 {
    let stones = std::env::var("FREE_PIN_STONES")
        .map_or(DEFAULT_JOURNAL_STONES, |v| v.parse().expect("a count"));
    let progress = JournalProgress::default();
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let start = Instant::now();
            let mut shown = Instant::now();
            while !done.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(100));
                if shown.elapsed() >= Duration::from_secs(30) {
                    shown = Instant::now();
                    let (earlier, proven) = (
                        progress.earlier.load(Ordering::Relaxed),
                        progress.proven.load(Ordering::Relaxed),
                    );
                    eprintln!(
                        "  {:.0} s: {proven} outcomes proven in this run, {} in all",
                        start.elapsed().as_secs_f64(),
                        earlier + proven
                    );
                }
            }
        });
        eprintln!(
            "{}: pinning positions of at most {stones} stones",
            journal_header(pos)
        );
        let value = solver.solve_with_journal(pos, Path::new(path), stones, &progress, cancel);
        done.store(true, Ordering::Relaxed);
        let value = value.expect("solved");
        eprintln!(
            "  {} outcomes from earlier runs, {} proven in this run",
            progress.earlier.load(Ordering::Relaxed),
            progress.proven.load(Ordering::Relaxed)
        );
        value
    })
}
