//! Reads positions with a chosen move (the examples on move choices): one a
//! line on stdin, the cells played from the empty board, then the move chosen
//! there, last.

use std::io::BufRead;

use inarow::{Game, Rules, WinRule};

/// Each line's number, position and chosen move, for the lines whose game is
/// not over and whose chosen move is legal there.
pub fn choices(rules: Rules) -> impl Iterator<Item = (usize, Game, usize)> {
    std::io::stdin()
        .lock()
        .lines()
        .enumerate()
        .filter_map(move |(number, line)| {
            let line = line.expect("readable input");
            let cells: Vec<usize> = line
                .split_whitespace()
                .map(|c| c.parse().expect("a cell number"))
                .collect();
            let (&chosen, moves) = cells.split_last()?;
            let game = Game::from_actions(rules, moves).expect("legal moves");
            (!game.is_over() && game.is_legal(chosen)).then_some((number, game, chosen))
        })
}

/// 15x15 gomoku under the rule the first argument names (freestyle by default).
pub fn gomoku_of_first_argument() -> Rules {
    let name = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "freestyle".into());
    let rule = WinRule::from_name(&name).expect("RULE: freestyle, standard or renju");
    Rules::gomoku_with(15, rule).expect("15x15 gomoku")
}
