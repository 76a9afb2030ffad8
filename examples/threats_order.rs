//! Where a player's moves rank in the threat engine's move ordering: reads
//! positions on stdin, one a line (the cells played from the empty board, then
//! the move chosen there, last), and prints how often the chosen move is the
//! ordering's first, within its first 3, 7 (the width one ply above the leaves),
//! 10, 12 (the widest below the root) and 20, and not a candidate at all.
//!
//! ```text
//! cargo run --release --example threats_order -- [RULE] < choices.txt
//! INAROW_LEARNED_ORDER=1 cargo run --release --example threats_order -- freestyle < choices.txt
//! ```
//!
//! `INAROW_LEARNED_ORDER=1` ranks by the learned move ordering (off by default).

use inarow::threats::Engine;

#[path = "support/choices.rs"]
mod choices;
use choices::{choices, gomoku_of_first_argument};

fn main() {
    let rules = gomoku_of_first_argument();
    let mut engine = Engine::new(rules);
    if std::env::var("INAROW_LEARNED_ORDER").is_ok_and(|v| v == "1") {
        engine.set_learned_ordering(true);
    }
    let cuts = [1usize, 3, 7, 10, 12, 20];
    let mut within = [0u32; 6];
    let (mut total, mut missing) = (0u32, 0u32);
    for (_, game, chosen) in choices(rules) {
        let order = engine.candidate_order(&game);
        total += 1;
        match order.iter().position(|&c| c == chosen) {
            Some(rank) => {
                for (n, &cut) in within.iter_mut().zip(&cuts) {
                    *n += u32::from(rank < cut);
                }
            }
            None => missing += 1,
        }
    }
    let share = |n: u32| f64::from(n) / f64::from(total.max(1));
    for (n, cut) in within.iter().zip(cuts) {
        println!(
            "within the first {cut:2}: {n:5} of {total} ({:.3})",
            share(*n)
        );
    }
    println!("not a candidate: {missing} ({:.3})", share(missing));
}
