//! Continuous threats on gravity boards against a plain exhaustive search and
//! the exact solver.

use std::sync::atomic::AtomicBool;

use super::*;
use crate::rng::Rng;
use crate::solver::{Solver, SolverConfig};

fn random_game(rules: Rules, plies: usize, rng: &mut Rng) -> Game {
    let mut game = Game::new(rules);
    while game.stones_on_board() < plies && !game.is_over() {
        let legal = game.legal_actions();
        game.play(legal[rng.below(legal.len() as u32) as usize])
            .unwrap();
    }
    game
}

fn immediate_win(game: &Game, player: usize) -> bool {
    game.legal_actions()
        .into_iter()
        .any(|a| game.wins_at(player, a))
}

/// Plain minimax restricted on the attacker's side: the attacker (to move) wins
/// within `depth` of its moves by completing a line, or by a drop after which it
/// could complete one and every reply of the defender (any legal drop) leaves it
/// a win within `depth - 1`.
fn plain_vcf(game: &mut Game, attacker: usize, depth: u32) -> bool {
    if immediate_win(game, attacker) {
        return true;
    }
    if depth <= 1 {
        return false;
    }
    for a in game.legal_actions() {
        game.play(a).unwrap();
        let threat = !game.is_over() && immediate_win(game, attacker);
        let wins = threat
            && game.legal_actions().into_iter().all(|reply| {
                let won_by_defender = game.play(reply).unwrap();
                let ok =
                    !won_by_defender && !game.is_over() && plain_vcf(game, attacker, depth - 1);
                game.undo().unwrap();
                ok
            });
        game.undo().unwrap();
        if wins {
            return true;
        }
    }
    false
}

/// Replays `line` from `game`: legal drops, each attacker drop but the last
/// leaving a completing drop, each defender drop blocking one, the last completing.
fn assert_column_line(game: &Game, line: &[usize]) {
    let attacker = game.to_move();
    let mut g = game.clone();
    assert_eq!(line.len() % 2, 1, "{line:?}");
    for (i, &a) in line.iter().enumerate() {
        assert!(g.is_legal(a), "illegal drop {a} in {line:?}");
        let last = i + 1 == line.len();
        if i % 2 == 1 {
            assert!(
                g.wins_at(attacker, a),
                "defender drop {a} blocks nothing in {line:?}"
            );
        }
        let won = g.play(a).unwrap();
        assert_eq!(
            won, last,
            "drop {a} of {line:?}: a line completed only at the end"
        );
        if i % 2 == 0 && !last {
            assert!(
                immediate_win(&g, attacker),
                "attacker drop {a} threatens nothing"
            );
        }
    }
    assert_eq!(g.winner(), Some(attacker));
}

#[test]
fn column_threats_agree_with_a_plain_exhaustive_search() {
    let cancel = AtomicBool::new(false);
    let mut rng = Rng::new(23, 0);
    let (mut wins, mut none, mut stacked, mut long) = (0, 0, 0, 0);
    for case in 0..2000 {
        let rules = match case % 3 {
            0 => Rules::connect_four(),
            1 => Rules::new(6, 5, 4, 2, true).unwrap(),
            _ => Rules::new(8, 7, 5, 2, true).unwrap(),
        };
        let plies = 6 + rng.below(rules.num_cells() as u32 / 2) as usize;
        let mut game = random_game(rules, plies, &mut rng);
        if game.is_over() {
            continue;
        }
        let depth = 4;
        let attacker = game.to_move();
        if immediate_win(&game, attacker) {
            continue; // the searches' first check, tested enough by the others
        }
        let truth = plain_vcf(&mut game, attacker, depth);
        let found = find_win(&game, ThreatKind::Vcf, depth, u64::MAX, &cancel).unwrap();
        assert_eq!(
            found.is_some(),
            truth,
            "{rules} after {:?}: {found:?}",
            game.history()
        );
        let moves = winning_moves(&game, ThreatKind::Vcf, depth, u64::MAX, &cancel).unwrap();
        assert_eq!(
            !moves.is_empty(),
            truth,
            "{rules} after {:?}: {moves:?}",
            game.history()
        );
        for &m in &moves {
            let mut g = game.clone();
            let won = g.play(m).unwrap();
            // Each first move wins at once or leaves the defender no escape.
            assert!(
                won || g.legal_actions().into_iter().all(|reply| {
                    let mut h = g.clone();
                    !h.play(reply).unwrap()
                        && !h.is_over()
                        && plain_vcf(&mut h, attacker, depth - 1)
                }),
                "{m} in {moves:?} does not win on {rules} after {:?}",
                game.history()
            );
        }
        match found {
            Some(line) => {
                assert_column_line(&game, &line);
                wins += 1;
                long += (line.len() >= 3) as usize;
                // The completing drop lands on the defender's last block.
                stacked +=
                    (line.len() >= 3 && line[line.len() - 1] == line[line.len() - 2]) as usize;
            }
            None => none += 1,
        }
    }
    assert!(wins > 40 && none > 40, "{wins} wins, {none} without");
    assert!(
        long > 40,
        "only {long} of {wins} wins take more than one drop"
    );
    assert!(
        stacked > 0,
        "no threat stacked on a threat among {wins} wins"
    );
    println!("{wins} wins ({long} longer than one drop, {stacked} stacked), {none} without");
}

#[test]
fn column_threat_wins_are_wins_for_the_solver() {
    let cancel = AtomicBool::new(false);
    let mut solver = Solver::new(SolverConfig::default()).unwrap();
    let mut rng = Rng::new(29, 0);
    let mut checked = 0;
    for _ in 0..300 {
        let game = random_game(Rules::connect_four(), 10 + rng.below(16) as usize, &mut rng);
        if game.is_over() {
            continue;
        }
        if let Some(line) = find_win(&game, ThreatKind::Vcf, 30, 200_000, &cancel).unwrap() {
            assert_column_line(&game, &line);
            let score = solver.solve_game(&game, true, &cancel).unwrap();
            assert!(
                score > 0,
                "claimed a win the solver scores {score}: {:?}",
                game.history()
            );
            checked += 1;
        }
    }
    assert!(checked > 20, "{checked}");
}
