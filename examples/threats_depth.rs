//! How deep the threat engine searches at a fixed budget: reads positions on
//! stdin, one a line (the cells played from the empty board), and searches each
//! for `NODES` nodes (default 200,000) with one thread, printing per position the
//! depth completed, the nodes and the move, then the mean depth and the time.
//!
//! ```text
//! cargo run --release --example threats_depth -- [RULE] [NODES] < positions.txt
//! INAROW_PVS=0 cargo run --release --example threats_depth -- freestyle < positions.txt
//! ```
//!
//! `INAROW_PVS=0` switches the principal-variation search off, to measure what it
//! saves: at a node budget the same engine with fewer nodes a depth goes deeper.
//! `INAROW_VERIFY=1` switches on the check of the chosen move against the
//! opponent's VCT, `INAROW_LEARNED_ORDER=1` the learned move ordering (both off
//! by default), `INAROW_LMR=1` or `0` late move reductions, `INAROW_RAZORING=1`
//! razoring (off by default).

use std::io::BufRead;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use inarow::threats::{Budget, Engine, ShallowCuts};
use inarow::{Game, Rng, Rules, WinRule};

fn main() {
    let mut args = std::env::args().skip(1);
    let rule = WinRule::from_name(&args.next().unwrap_or_else(|| "freestyle".into()))
        .expect("RULE: freestyle, standard or renju");
    let nodes: u64 = args
        .next()
        .map(|a| a.parse().expect("NODES: a number"))
        .unwrap_or(200_000);
    let rules = Rules::gomoku_with(15, rule).expect("15x15 gomoku");
    let mut engine = Engine::new(rules);
    if std::env::var("INAROW_PVS").is_ok_and(|v| v == "0") {
        engine.set_principal_variation(false);
    }
    if std::env::var("INAROW_VERIFY").is_ok_and(|v| v == "1") {
        engine.set_verify_choice(true);
    }
    if std::env::var("INAROW_LEARNED_ORDER").is_ok_and(|v| v == "1") {
        engine.set_learned_ordering(true);
    }
    if let Ok(v) = std::env::var("INAROW_LMR") {
        engine.set_late_move_reductions(v == "1");
    }
    if std::env::var("INAROW_RAZORING").is_ok_and(|v| v == "1") {
        engine.set_shallow_cuts(ShallowCuts {
            razoring: true,
            ..ShallowCuts::default()
        });
    }
    let cancel = AtomicBool::new(false);
    let (mut searched, mut depths, mut secs) = (0u32, 0u32, 0.0);
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("readable input");
        let mut game = Game::new(rules);
        for cell in line.split_whitespace() {
            let cell: usize = cell.parse().expect("a cell number");
            game.play(cell).expect("a legal move");
        }
        if game.is_over() {
            continue;
        }
        let start = Instant::now();
        let best = engine.choose(&game, Budget::Nodes(nodes), &mut Rng::new(0, 0), &cancel);
        let took = start.elapsed().as_secs_f64();
        let s = engine.stats();
        println!(
            "stones {:3} depth {:2} threat nodes {:7} search nodes {:7} rejected {} move {best:3} {:.3} s",
            game.stones_on_board(),
            s.depth,
            s.threat_nodes,
            s.search_nodes,
            s.rejected,
            took
        );
        if !s.proven_win && s.search_nodes > 0 {
            searched += 1;
            depths += s.depth;
            secs += took;
        }
    }
    println!(
        "{searched} positions searched: mean depth {:.2}, {:.3} s a position",
        f64::from(depths) / f64::from(searched.max(1)),
        secs / f64::from(searched.max(1))
    );
}
