//! The learned evaluation's training data: reads recorded games on stdin, one a
//! line (`RULE SIZE WINNER MOVE MOVE ...`: `freestyle`, `standard` or `renju`,
//! the board's side, the winner 1 or 2 or 0 for a draw, the cells played), and
//! writes one CSV row per position worth learning from: the result for the side
//! to move (1 won, 0 lost, 0.5 drawn), the game's line number, the ply, then
//! `Engine::evaluation_features`.
//!
//! ```text
//! cargo run --release --example eval_features -- [FIRST_PLY] < games.txt > positions.csv
//! ```
//!
//! Positions before `FIRST_PLY` (default 6: the opening book's) and positions
//! where either side has four in a line (the search, not the evaluation,
//! answers those) are left out. `scripts/tune_eval.py` writes the games and
//! fits the weights.

use std::io::{BufRead, BufWriter, Write};

use inarow::threats::{Engine, ThreatBoard};
use inarow::{Game, Rules, WinRule};

fn main() {
    let first_ply: usize = std::env::args()
        .nth(1)
        .map(|a| a.parse().expect("FIRST_PLY: a number"))
        .unwrap_or(6);
    let stdin = std::io::stdin();
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut engines: Vec<(Rules, Engine, ThreatBoard)> = Vec::new();
    for (number, line) in stdin.lock().lines().enumerate() {
        let line = line.expect("readable input");
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() < 3 {
            continue;
        }
        let rule = WinRule::from_name(fields[0]).expect("a rule name");
        let size: i64 = fields[1].parse().expect("a board side");
        let winner: usize = fields[2].parse().expect("a winner 0, 1 or 2");
        let moves: Vec<usize> = fields[3..]
            .iter()
            .map(|m| m.parse().expect("a cell"))
            .collect();
        let rules = Rules::gomoku_with(size, rule).expect("gomoku rules");
        let at = match engines.iter().position(|(r, _, _)| *r == rules) {
            Some(at) => at,
            None => {
                engines.push((rules, Engine::new(rules), ThreatBoard::new(rules)));
                engines.len() - 1
            }
        };
        let (_, engine, board) = &mut engines[at];
        let mut game = Game::new(rules);
        for (ply, &cell) in moves.iter().enumerate() {
            if game.is_over() {
                break;
            }
            if ply >= first_ply {
                board.load(&game);
                if !board.has_threat(0) && !board.has_threat(1) {
                    let mover = game.to_move() + 1;
                    let result = match winner {
                        0 => 0.5,
                        w if w == mover => 1.0,
                        _ => 0.0,
                    };
                    let features = engine.evaluation_features(&game).expect("lines of five");
                    write!(out, "{result},{number},{ply}").unwrap();
                    for f in features {
                        write!(out, ",{f}").unwrap();
                    }
                    writeln!(out).unwrap();
                }
            }
            game.play(cell).expect("a legal move");
        }
    }
}
