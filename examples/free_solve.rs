//! Solves free-placement boards and prints each value, its node count and time:
//! `cargo run --release --example free_solve -- 5 5 4 [6 6 5 ...]`. A board may
//! be followed by `@CELLS` (cells `row * width + col`, comma-separated) to solve
//! the position after those moves: `7 7 5 @24,25`. `FREE_TT_MIB` sets the table
//! size (default 256 MiB); `FREE_HISTORY=0` switches the history heuristic off;
//! `FREE_RULE=standard` solves under the standard rule (exactly `k`);
//! `FREE_VALUE=weak` asks for the outcome only (win, draw or loss: the zone
//! search), `FREE_ZONES=0` for that outcome by negamax instead; `FREE_THREADS`
//! sets the zone search's threads (default 1).

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use inarow::solver::free::{FreePosition, FreeSolver};
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
        let value = solver.solve(&pos, weak, &cancel).expect("solved");
        println!(
            "{w}x{h} k={k} after {moves:?}: {} {value:+} ({} nodes, {:.3} s)",
            if weak { "outcome" } else { "score" },
            solver.nodes(),
            start.elapsed().as_secs_f64()
        );
    }
}
