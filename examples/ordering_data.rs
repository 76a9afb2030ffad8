//! The learned move ordering's training data: reads positions on stdin, one a
//! line (the cells played from the empty board, then the move a player chose
//! there, last), and writes one CSV row per candidate move of the threat
//! engine: the position's line number, whether it is the chosen move, the
//! shapes and classes of the patterns it makes and takes, its window profile
//! (`Engine::candidate_features`), and its distances to the opponent's last
//! move and to the mover's. Positions whose chosen move is no candidate
//! are left out. `scripts/fit_ordering.py` fits the weights.
//!
//! ```text
//! cargo run --release --example ordering_data -- [RULE] < choices.txt > candidates.csv
//! ```

use std::io::{BufWriter, Write};

use inarow::threats::Engine;

#[path = "support/choices.rs"]
mod choices;
use choices::{choices, gomoku_of_first_argument};

fn main() {
    let rules = gomoku_of_first_argument();
    let mut engine = Engine::new(rules);
    let mut out = BufWriter::new(std::io::stdout().lock());
    for (number, game, chosen) in choices(rules) {
        let features = engine.candidate_features(&game);
        if !features.iter().any(|f| f.cell == chosen) {
            continue;
        }
        // Chebyshev distances to the opponent's last move and to the mover's.
        let distance = |a: usize, b: Option<&u16>| {
            b.map_or(9, |&b| {
                let b = b as usize;
                (a / 15).abs_diff(b / 15).max((a % 15).abs_diff(b % 15))
            })
        };
        let moves = game.history();
        let (theirs_last, mine_last) = (moves.last(), moves.iter().rev().nth(1));
        for f in features {
            let windows: Vec<String> = f.windows.iter().map(u32::to_string).collect();
            writeln!(
                out,
                "{number},{},{},{},{},{},{},{},{}",
                u8::from(f.cell == chosen),
                f.made,
                f.taken,
                f.made_class,
                f.taken_class,
                windows.join(","),
                distance(f.cell, theirs_last),
                distance(f.cell, mine_last)
            )
            .expect("written");
        }
    }
}
