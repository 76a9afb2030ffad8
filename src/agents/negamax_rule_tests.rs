//! Negamax under the standard and renju rules, refereed by the [`Game`]: its root
//! moves are the game's legal moves (renju's forbidden cells left out) and every
//! win it claims is a forced win by brute force on the game.

use std::sync::atomic::AtomicBool;

use super::{root_values, Scratch, WIN};
use crate::agents::LineBoard;
use crate::game::Game;
use crate::rng::Rng;
use crate::rules::{Rules, WinRule};

/// A position of `plies` random moves, three in four next to a stone (lines,
/// overlines and renju's forbidden shapes form quickly); it may be over.
fn clustered_position(rules: Rules, plies: usize, rng: &mut Rng) -> Game {
    let mut game = Game::new(rules);
    let w = rules.width();
    while game.history().len() < plies && !game.is_over() {
        let legal = game.legal_actions();
        let near: Vec<usize> = legal
            .iter()
            .copied()
            .filter(|&a| {
                let (row, col) = if rules.gravity() {
                    (rules.height() - 1 - game.column_height(a), a)
                } else {
                    (a / w, a % w)
                };
                (row.saturating_sub(1)..=(row + 1).min(rules.height() - 1)).any(|r| {
                    (col.saturating_sub(1)..=(col + 1).min(w - 1)).any(|c| game.owner(r, c) != 0)
                })
            })
            .collect();
        let from = if !near.is_empty() && rng.below(4) != 0 {
            &near
        } else {
            &legal
        };
        game.play(from[rng.below(from.len() as u32) as usize])
            .unwrap();
    }
    game
}

/// Whether `root` forces a win within `plies` more moves from `game` (after a
/// move; brute force on the game itself).
fn forced_win(game: &mut Game, root: usize, plies: u32) -> bool {
    if game.is_over() {
        return game.winner() == Some(root);
    }
    if plies == 0 {
        return false;
    }
    let mover_is_root = game.to_move() == root;
    let mut results = game.legal_actions().into_iter().map(|a| {
        game.play(a).unwrap();
        let r = forced_win(game, root, plies - 1);
        game.undo().unwrap();
        r
    });
    if mover_is_root {
        results.any(|r| r)
    } else {
        results.all(|r| r)
    }
}

/// For positions of `rules`: negamax's root moves at depths 1 to `max_depth` are
/// exactly the game's legal moves, and each best value claiming a win is one.
/// Returns how many wins were claimed and how many positions had forbidden cells.
fn refereed(rules: Rules, positions: usize, max_depth: u32, seed: u64) -> (usize, usize) {
    let mut rng = Rng::new(seed, 0);
    let cancel = AtomicBool::new(false);
    let mut scratch = Scratch::default();
    let (mut claimed, mut forbidden) = (0, 0);
    let mut board = LineBoard::new(rules);
    for _ in 0..positions {
        let plies = rng.below(rules.num_cells() as u32 * 2 / 3) as usize;
        let mut game = clustered_position(rules, plies, &mut rng);
        if game.is_over() {
            continue;
        }
        forbidden += usize::from(!game.forbidden_actions().is_empty());
        let root = game.to_move();
        for depth in 1..=max_depth {
            board.load(&game);
            let values = root_values(&mut board, depth, &mut scratch, &cancel).unwrap();
            let mut moves: Vec<usize> = values.iter().map(|&(a, _)| a).collect();
            moves.sort_unstable();
            assert_eq!(moves, game.legal_actions(), "{rules}: {:?}", game.history());
            // Values below the best are upper bounds: the best ones are exact.
            let best = values.iter().map(|&(_, v)| v).max().expect("not over");
            for (a, v) in values {
                if v != best || v <= WIN / 2 {
                    continue;
                }
                claimed += 1;
                // `WIN - ply`: the win's last move is at ply `WIN - v` from the root.
                let plies = (WIN - v) as u32;
                game.play(a).unwrap();
                let real = forced_win(&mut game, root, plies);
                game.undo().unwrap();
                assert!(
                    real,
                    "{rules}: depth {depth} claims {a} wins in {} plies after {:?}",
                    plies + 1,
                    game.history()
                );
            }
        }
    }
    (claimed, forbidden)
}

#[test]
fn negamax_under_the_standard_rule_plays_legal_moves_and_real_wins() {
    for (i, rules) in [
        Rules::new(6, 6, 4, 2, false).unwrap(),
        Rules::new(7, 6, 4, 2, true).unwrap(),
        Rules::new(5, 5, 3, 3, false).unwrap(),
    ]
    .into_iter()
    .enumerate()
    {
        let rules = rules.with_rule(WinRule::Standard).unwrap();
        let (claimed, _) = refereed(rules, 60, 3, 10 + i as u64);
        assert!(claimed > 0, "{rules}: no win claimed");
    }
}

#[test]
fn negamax_under_the_renju_rule_plays_legal_moves_and_real_wins() {
    let rules = Rules::gomoku_with(9, WinRule::Renju).unwrap();
    let (claimed, forbidden) = refereed(rules, 200, 2, 20);
    assert!(claimed > 0, "no win claimed");
    assert!(forbidden > 0, "no forbidden cell met");
}
