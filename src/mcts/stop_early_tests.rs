//! `stop_early`: a stopped run is the plain run cut short, it stops only once the
//! most visited move is settled, it plays the plain run's move unless a proof the
//! rest of the budget finds changes it, and it saves simulations.

use super::node::{value_of, UNKNOWN};
use super::state::WordState;
use super::tests::{quiet_config, random_position, rollout_tree};
use super::*;
use crate::rng::Rng;
use crate::{Game, Rules};

fn early(num_simulations: u32) -> Config {
    Config {
        stop_early: true,
        ..quiet_config(num_simulations)
    }
}

/// Root children `(visits, proven lost for the side to move)`.
fn children(tree: &tree::Tree<WordState>, mover: usize) -> Vec<(u32, bool)> {
    tree.root_children()
        .into_iter()
        .map(|(_, visits, proven)| (visits, proven != UNKNOWN && value_of(proven, mover) == -1.0))
        .collect()
}

/// How far the most visited child not proven lost leads the next such child.
fn lead(kids: &[(u32, bool)]) -> u32 {
    let mut open: Vec<u32> = kids.iter().filter(|k| !k.1).map(|k| k.0).collect();
    open.sort_unstable_by(|a, b| b.cmp(a));
    open.first().copied().unwrap_or(0) - open.get(1).copied().unwrap_or(0)
}

#[test]
fn a_stopped_run_is_the_plain_run_cut_short_at_a_settled_move() {
    let budget = 400;
    for rules in [
        Rules::connect_four(),
        Rules::tic_tac_toe(),
        Rules::new(5, 5, 4, 2, false).unwrap(),
    ] {
        let mut rng = Rng::new(5, rules.num_cells() as u64);
        let (mut positions, mut stopped, mut used, mut same_move, mut unproven) = (0, 0, 0, 0, 0);
        for trial in 0..40u64 {
            let Some(game) = random_position(rules, 2 + trial as usize % 5, &mut rng) else {
                continue;
            };
            positions += 1;
            let mover = game.to_move();
            let (tree, _) = rollout_tree::<WordState>(&game, &early(budget), trial);
            let kids = children(&tree, mover);
            let done: u32 = kids.iter().map(|k| k.0).sum();
            used += done;
            // The plain run of as many simulations is the same tree.
            let (cut, _) = rollout_tree::<WordState>(&game, &quiet_config(done), trial);
            assert_eq!(
                tree.root_children(),
                cut.root_children(),
                "{rules} {:?}",
                game.history()
            );
            if done < budget {
                stopped += 1;
                let margin = lead(&kids);
                assert!(
                    tree.root_node().proven != UNKNOWN || margin > budget - done,
                    "{rules} {:?}: stopped at {done} with a lead of {margin}",
                    game.history()
                );
                if done == 0 {
                    // A win in one: the root's lookahead proves it before any simulation.
                    assert!(
                        tree.root_node().proven != UNKNOWN,
                        "{rules} {:?}",
                        game.history()
                    );
                    continue;
                }
                // One simulation earlier the move was not settled yet.
                let (before, _) = rollout_tree::<WordState>(&game, &quiet_config(done - 1), trial);
                assert!(
                    before.root_node().proven == UNKNOWN
                        && lead(&children(&before, mover)) <= budget - (done - 1),
                    "{rules} {:?}: settled before {done}",
                    game.history()
                );
            }
            // Without proofs at the full run's root, both runs play the same move.
            let (full, _) = rollout_tree::<WordState>(&game, &quiet_config(budget), trial);
            let full_kids = full.root_children();
            if full.root_node().proven == UNKNOWN && full_kids.iter().all(|c| c.2 == UNKNOWN) {
                unproven += 1;
                let most = |kids: &[(u16, u32, u8)]| kids.iter().max_by_key(|c| c.1).unwrap().0;
                if most(&full_kids) == most(&tree.root_children()) {
                    same_move += 1;
                }
            }
        }
        assert_eq!(
            same_move, unproven,
            "{rules}: the moves differ without proofs"
        );
        assert!(positions >= 20, "{rules}: only {positions} positions");
        assert!(
            stopped * 2 >= positions && (used as f64) < 0.95 * (positions * budget) as f64,
            "{rules}: {stopped} of {positions} stopped early, {used} simulations"
        );
    }
}

#[test]
fn stopping_early_needs_a_puct_root_without_forced_playouts() {
    let rules = Rules::connect_four();
    for (root, forced, wanted) in [
        (RootPolicy::Gumbel, 0.0, "needs root=\"puct\""),
        (RootPolicy::Puct, 2.0, "needs forced_playouts=0"),
    ] {
        let config = Config {
            root,
            forced_playouts: forced,
            ..early(10)
        };
        let err = Search::new(rules, config).err().unwrap().to_string();
        assert!(err.contains("stop_early") && err.contains(wanted), "{err}");
    }
}

#[test]
fn a_proven_root_stops_at_once() {
    // X to play and win at once: the lookahead proves the root at its first simulation.
    let rules = Rules::tic_tac_toe();
    let game = Game::from_actions(rules, &[0, 3, 1, 4]).unwrap();
    let (tree, _) = rollout_tree::<WordState>(&game, &early(1000), 0);
    let done: u32 = tree.root_children().iter().map(|c| c.1).sum();
    assert_ne!(tree.root_node().proven, UNKNOWN);
    assert!(done <= 5, "{done} simulations on a proven root");
}
