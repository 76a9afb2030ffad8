//! The free-placement solver under the standard rule (exactly `k` in a row
//! wins, an overline is no win) against a plain negamax over the real [`Game`]
//! under that rule: the game's own move and win logic, memoised on the cells.

use std::sync::atomic::AtomicBool;

use super::game_negamax::GameNegamax;
use super::{FreePosition, FreeSolver};
use crate::game::Game;
use crate::rng::Rng;
use crate::rules::{Rules, WinRule};
use crate::solver::{SolveError, Solver, SolverConfig};

fn standard(width: i64, height: i64, k: i64) -> Rules {
    Rules::new(width, height, k, 2, false)
        .unwrap()
        .with_rule(WinRule::Standard)
        .unwrap()
}

/// `count` games of `least` or more random moves under `rules`, not over.
fn random_games(rules: Rules, count: usize, least: usize, seed: u64) -> Vec<Game> {
    let mut rng = Rng::new(seed, 0);
    let n = rules.num_cells();
    let mut out = Vec::new();
    while out.len() < count {
        let mut game = Game::new(rules);
        let plies = least + rng.below((n - least) as u32) as usize;
        for _ in 0..plies {
            let legal = game.legal_actions();
            game.play(legal[rng.below(legal.len() as u32) as usize])
                .unwrap();
            if game.is_over() {
                break;
            }
        }
        if !game.is_over() {
            out.push(game);
        }
    }
    out
}

/// The solver's exact and weak scores and analysis of each game equal the
/// negamax's; returns how many of them score otherwise under freestyle.
fn agrees_with_the_game(rules: Rules, count: usize, least: usize) -> usize {
    let mut negamax = GameNegamax::new();
    let mut solver = FreeSolver::new(1 << 22).unwrap();
    let mut freestyle = FreeSolver::new(1 << 22).unwrap();
    let cancel = AtomicBool::new(false);
    let mut differ = 0;
    for mut game in random_games(rules, count, least, 7) {
        let pos = FreePosition::from_game(&game).unwrap();
        assert_eq!(pos.rule(), WinRule::Standard);
        let expected = negamax.value(&mut game);
        let context = format!("{rules} history {:?}", game.history());
        assert_eq!(
            solver.solve(&pos, false, &cancel).unwrap(),
            expected,
            "{context}"
        );
        assert_eq!(
            solver.solve(&pos, true, &cancel).unwrap(),
            expected.signum(),
            "{context}"
        );
        let analysis = solver.analyze(&pos, false, &cancel).unwrap();
        assert_eq!(
            analysis.iter().flatten().max().copied(),
            Some(expected),
            "{context}"
        );
        for (action, score) in analysis.iter().enumerate() {
            let Some(score) = score else { continue };
            let child = negamax.score_of(&mut game, action);
            assert_eq!(*score, child, "{context} action {action}");
        }
        let cells = pos.to_cells();
        // The same cells under freestyle (where they are a game not over).
        let loose = FreePosition::from_cells(rules.width(), rules.height(), rules.k(), &cells)
            .ok()
            .filter(|p| !p.is_over());
        if let Some(loose) = loose {
            differ += usize::from(freestyle.solve(&loose, false, &cancel).unwrap() != expected);
        }
    }
    differ
}

#[test]
fn four_by_four_k3_matches_the_game() {
    let differ = agrees_with_the_game(standard(4, 4, 3), 60, 2);
    assert!(
        differ > 0,
        "no position where an overline changes the score"
    );
}

#[test]
fn five_by_four_k4_matches_the_game() {
    agrees_with_the_game(standard(5, 4, 4), 40, 9);
}

#[test]
fn five_by_five_k4_matches_the_game() {
    let differ = agrees_with_the_game(standard(5, 5, 4), 25, 11);
    assert!(
        differ > 0,
        "no position where an overline changes the score"
    );
}

#[test]
fn small_shapes_match_the_game() {
    for (w, h, k, least) in [
        (3, 3, 3, 0),
        (4, 3, 3, 0),
        (5, 1, 2, 0),
        (3, 3, 2, 0),
        (6, 2, 3, 2),
    ] {
        agrees_with_the_game(standard(w, h, k), 30, least);
    }
}

#[test]
fn an_overline_is_no_win() {
    // 5x2 with k = 3: X on 0, 1, 3 of the top row, O on 5, 6, 8 below it.
    let rules = standard(5, 2, 3);
    let game = Game::from_actions(rules, &[0, 5, 1, 6, 3, 8]).unwrap();
    let pos = FreePosition::from_game(&game).unwrap();
    assert!(!pos.is_over());
    // X to move: 2 makes 0-1-2-3, an overline: no win at once (nor anywhere).
    let mut solver = FreeSolver::new(1 << 20).unwrap();
    let scores = solver
        .analyze(&pos, false, &AtomicBool::new(false))
        .unwrap();
    let win_at_once = (10 + 1 - 6) / 2;
    assert_ne!(scores[2], Some(win_at_once));
    // Under freestyle 2 wins at once.
    let loose = FreePosition::from_cells(5, 2, 3, &pos.to_cells()).unwrap();
    let scores = solver
        .analyze(&loose, false, &AtomicBool::new(false))
        .unwrap();
    assert_eq!(scores[2], Some(win_at_once));
}

#[test]
fn the_solver_serves_standard_and_refuses_renju() {
    assert!(Solver::check_rules(&standard(7, 7, 5)).is_ok());
    let gravity = Rules::new(7, 6, 4, 2, true)
        .unwrap()
        .with_rule(WinRule::Standard)
        .unwrap();
    assert!(matches!(
        Solver::check_rules(&gravity),
        Err(SolveError::Unsupported(_))
    ));
    let renju = Rules::new(8, 8, 5, 2, false)
        .unwrap()
        .with_rule(WinRule::Renju)
        .unwrap();
    match Solver::check_rules(&renju) {
        Err(SolveError::Unsupported(why)) => assert!(why.contains("renju"), "{why}"),
        other => panic!("{other:?}"),
    }
    assert!(FreePosition::with_rule(8, 8, 5, WinRule::Renju).is_err());
    assert!(FreePosition::check_rules(&renju).is_err());
}

#[test]
fn the_dispatching_solver_solves_standard_games() {
    let config = SolverConfig {
        tt_bytes: 1 << 22,
        threads: 1,
    };
    let mut solver = Solver::new(config).unwrap();
    let cancel = AtomicBool::new(false);
    let mut negamax = GameNegamax::new();
    for mut game in random_games(standard(4, 4, 3), 10, 3, 11) {
        let expected = negamax.value(&mut game);
        assert_eq!(solver.solve_game(&game, false, &cancel).unwrap(), expected);
    }
}
