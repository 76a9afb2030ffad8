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

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use inarow::solver::free::{FreePosition, FreeSolver, PinnedOutcome};
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

/// The journal's first line: its format and the board it belongs to.
fn journal_header(pos: &FreePosition) -> String {
    format!(
        "inarow-pinned 1 {} {} {} {}",
        pos.width(),
        pos.height(),
        pos.k(),
        pos.rule().name()
    )
}

/// A weak solve of `pos` that resumes from the journal at `path` and appends
/// to it what it proves (see the module docs).
fn solve_with_journal(
    solver: &mut FreeSolver,
    pos: &FreePosition,
    path: &str,
    cancel: &AtomicBool,
) -> i32 {
    let stones = std::env::var("FREE_PIN_STONES").map_or(6, |v| v.parse().expect("a count"));
    let header = journal_header(pos);
    let mut earlier = Vec::new();
    if let Ok(text) = std::fs::read_to_string(path) {
        // Only whole lines count: a kill may have cut the last one short, and it
        // is cut off the file before anything is appended.
        let whole = text.rfind('\n').map_or(0, |i| i + 1);
        if whole < text.len() {
            let file = OpenOptions::new().write(true).open(path).expect("opens");
            file.set_len(whole as u64).expect("the cut line is dropped");
        }
        let mut lines = text[..whole].lines();
        if let Some(first) = lines.next() {
            assert_eq!(first, header, "{path} is the journal of another board");
        }
        earlier.extend(lines.map(|line| {
            parse_outcome(line).unwrap_or_else(|| panic!("{path}: not an outcome: {line}"))
        }));
    }
    let (sink, proven) = channel();
    solver.set_pinned_stones(stones, Some(sink));
    solver
        .add_pinned(pos, &earlier)
        .expect("outcomes of this board");
    let fresh = !std::fs::metadata(path).is_ok_and(|m| m.len() > 0);
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .expect("the journal opens");
    let mut out = BufWriter::new(file);
    if fresh {
        writeln!(out, "{header}").expect("written");
    }
    eprintln!(
        "{header}: {} outcomes from earlier runs, pinning positions of at most {stones} stones",
        earlier.len()
    );
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let search = scope.spawn(|| {
            let value = solver.solve(pos, true, cancel).expect("solved");
            done.store(true, Ordering::Relaxed);
            value
        });
        record(&proven, &mut out, &done, &earlier);
        search.join().expect("the search ends")
    })
}

/// Appends each outcome the search sends to `out` until `done`, flushing every
/// tenth of a second and showing progress every 30 s.
fn record(
    proven: &Receiver<PinnedOutcome>,
    out: &mut BufWriter<File>,
    done: &AtomicBool,
    earlier: &[PinnedOutcome],
) {
    let start = Instant::now();
    let mut count = 0usize;
    // Proven, in all, by the stones on the board.
    let mut by_stones = [0usize; 129];
    for o in earlier {
        by_stones[(o.attacker | o.defender).count_ones() as usize] += 1;
    }
    let mut shown = Instant::now();
    let write = |o: PinnedOutcome, out: &mut BufWriter<File>| {
        let zone = o.zone.map_or("win".to_string(), |z| format!("{z:x}"));
        let side = if o.defender_to_move { 'd' } else { 'a' };
        writeln!(out, "{:x} {:x} {side} {zone}", o.attacker, o.defender).expect("written");
    };
    loop {
        match proven.recv_timeout(Duration::from_millis(100)) {
            Ok(o) => {
                by_stones[(o.attacker | o.defender).count_ones() as usize] += 1;
                write(o, out);
                count += 1;
                continue;
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => {}
        }
        out.flush().expect("flushed");
        if done.load(Ordering::Relaxed) {
            while let Ok(o) = proven.try_recv() {
                write(o, out);
                count += 1;
            }
            out.flush().expect("flushed");
            eprintln!(
                "  {count} outcomes proven in this run, {} in all",
                earlier.len() + count
            );
            return;
        }
        if shown.elapsed() >= Duration::from_secs(30) {
            shown = Instant::now();
            let shallow: Vec<String> = (0..by_stones.len())
                .filter(|&n| by_stones[n] > 0)
                .map(|n| format!("{n}: {}", by_stones[n]))
                .collect();
            eprintln!(
                "  {:.0} s: {count} outcomes proven in this run ({} in all); by stones {}",
                start.elapsed().as_secs_f64(),
                earlier.len() + count,
                shallow.join(", ")
            );
        }
    }
}

/// One journal line: attacker, defender (hex cell sets), `a` or `d` to move,
/// the zone (hex) or `win`.
fn parse_outcome(line: &str) -> Option<PinnedOutcome> {
    let mut fields = line.split(' ');
    let attacker = u128::from_str_radix(fields.next()?, 16).ok()?;
    let defender = u128::from_str_radix(fields.next()?, 16).ok()?;
    let defender_to_move = match fields.next()? {
        "d" => true,
        "a" => false,
        _ => return None,
    };
    let zone = match fields.next()? {
        "win" => None,
        z => Some(u128::from_str_radix(z, 16).ok()?),
    };
    fields.next().is_none().then_some(PinnedOutcome {
        attacker,
        defender,
        defender_to_move,
        zone,
    })
}
