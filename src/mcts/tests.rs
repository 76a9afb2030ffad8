//! The search against the truth: proven values against brute force on tiny boards,
//! masks, max^n backups, determinism across threads, subtree reuse, refusals.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use super::node::{won_by, DRAW, UNKNOWN};
use super::state::{SearchState, Status, WordState};
use super::tree::{Priors, Settings, Tree};
use super::*;
use crate::rng::{splitmix64, Rng};
use crate::{Game, Rules};

/// The max^n result of `game` with best play (ties: the first action in order),
/// as `DRAW` or `won_by(p)`.
fn brute_force(game: &mut Game, memo: &mut HashMap<u64, u8>) -> u8 {
    if let Some(w) = game.winner() {
        return won_by(w);
    }
    if game.is_over() {
        return DRAW;
    }
    if let Some(&r) = memo.get(&game.hash()) {
        return r;
    }
    let mover = game.to_move();
    let mut best: Option<(f32, u8)> = None;
    for a in game.legal_actions() {
        game.play(a).unwrap();
        let r = brute_force(game, memo);
        game.undo().unwrap();
        let v = node::value_of(r, mover);
        if best.is_none_or(|(b, _)| v > b) {
            best = Some((v, r));
        }
    }
    let r = best.unwrap().1;
    memo.insert(game.hash(), r);
    r
}

pub(super) fn random_position(rules: Rules, stones: usize, rng: &mut Rng) -> Option<Game> {
    let mut g = Game::new(rules);
    for _ in 0..stones {
        if g.is_over() {
            return None;
        }
        let a = g.random_action(rng);
        g.play(a).unwrap();
    }
    (!g.is_over()).then_some(g)
}

pub(super) fn config(num_simulations: u32) -> Config {
    Config {
        num_simulations,
        ..Config::default()
    }
}

/// `config` without root noise: a deterministic search.
pub(super) fn quiet_config(num_simulations: u32) -> Config {
    Config {
        dirichlet_fraction: 0.0,
        ..config(num_simulations)
    }
}

fn settings<'a, G>(
    geometry: &'a G,
    rules: &Rules,
    config: &'a Config,
    uct: bool,
) -> Settings<'a, G> {
    Settings {
        geometry,
        players: rules.players(),
        config,
        uct,
    }
}

/// A rollout search of one position, driven tree by tree (to inspect the nodes).
pub(super) fn rollout_tree<S: SearchState>(
    game: &Game,
    config: &Config,
    seed: u64,
) -> (Tree<S>, S::Geometry) {
    let rules = *game.rules();
    let geometry = S::geometry(rules);
    let mut tree = Tree::new(S::from_game(game, &geometry), rules.players());
    {
        let s = settings(&geometry, &rules, config, true);
        tree.begin_run(&s, Rng::new(seed, 0), Rng::new(seed, 1), false);
        while let Some(leaf) = tree.next_leaf(&s) {
            let v = tree.playout_values(1, &s);
            tree.apply(leaf, Priors::Uniform, &v, &s);
        }
    }
    (tree, geometry)
}

/// Every proven root and root child agrees with brute force; enough get proven.
fn proven_values_agree(
    rules: Rules,
    stones: std::ops::Range<usize>,
    simulations: u32,
    root: RootPolicy,
) {
    let mut rng = Rng::new(21, rules.num_cells() as u64);
    let mut memo = HashMap::new();
    let (mut proven, mut positions) = (0, 0);
    let config = Config {
        root,
        ..config(simulations)
    };
    for trial in 0..60 {
        let n = stones.start + trial % stones.len();
        let Some(game) = random_position(rules, n, &mut rng) else {
            continue;
        };
        positions += 1;
        let (tree, _) = rollout_tree::<WordState>(&game, &config, trial as u64);
        let mut g = game.clone();
        let root = tree.root_node();
        if root.proven != UNKNOWN {
            proven += 1;
            assert_eq!(
                root.proven,
                brute_force(&mut g, &mut memo),
                "{rules}: {:?}",
                game.history()
            );
        }
        for (action, _, child_proven) in tree.root_children() {
            if child_proven != UNKNOWN {
                g.play(action as usize).unwrap();
                assert_eq!(
                    child_proven,
                    brute_force(&mut g, &mut memo),
                    "{:?} + {action}",
                    game.history()
                );
                g.undo().unwrap();
            }
        }
    }
    // Sequential halving stops visiting the weaker root actions, so a Gumbel root
    // is proven only when a win (or a forced result) turns up.
    let share = if root == RootPolicy::Gumbel {
        0.2
    } else {
        0.75
    };
    assert!(
        proven as f64 >= share * positions as f64,
        "{rules} {root:?}: only {proven} of {positions} roots proven"
    );
}

#[test]
fn proven_values_match_brute_force_on_tic_tac_toe() {
    proven_values_agree(Rules::tic_tac_toe(), 3..7, 3000, RootPolicy::Puct);
    proven_values_agree(Rules::tic_tac_toe(), 3..7, 3000, RootPolicy::Gumbel);
}

#[test]
fn proven_values_match_brute_force_on_4x4_gravity() {
    proven_values_agree(
        Rules::new(4, 4, 3, 2, true).unwrap(),
        2..9,
        20_000,
        RootPolicy::Puct,
    );
}

#[test]
fn proven_values_match_max_n_brute_force_with_three_players() {
    proven_values_agree(
        Rules::new(4, 3, 3, 3, false).unwrap(),
        5..9,
        20_000,
        RootPolicy::Puct,
    );
    proven_values_agree(
        Rules::new(4, 4, 3, 3, true).unwrap(),
        4..9,
        20_000,
        RootPolicy::Gumbel,
    );
}

#[test]
fn a_won_position_plays_the_win_and_a_lost_one_is_known() {
    // Connect Four: player 1 has three in a row on the bottom (cols 0-2).
    let game = Game::from_actions(Rules::connect_four(), &[0, 0, 1, 1, 2, 2]).unwrap();
    for root in [RootPolicy::Puct, RootPolicy::Gumbel] {
        let mut search = Search::new(
            *game.rules(),
            Config {
                root,
                ..config(200)
            },
        )
        .unwrap();
        let out = search
            .run_rollouts(std::slice::from_ref(&game), 1, &AtomicBool::new(false))
            .unwrap();
        assert_eq!(out.actions[0], 3, "{root:?}");
        assert_eq!(out.values[0], 1.0, "{root:?}");
    }
    // One move later the opponent must block at column 3, and still loses.
    let lost = Game::from_actions(Rules::connect_four(), &[0, 0, 1, 1, 2, 2, 6]).unwrap();
    let mut search = Search::new(*lost.rules(), config(5000)).unwrap();
    let out = search
        .run_rollouts(&[lost], 1, &AtomicBool::new(false))
        .unwrap();
    assert_eq!(out.actions[0], 3);
}

/// A deterministic stand-in for a network: logits and values from a hash of
/// the planes (large logits on illegal actions, which must be ignored).
pub(super) fn fake_network(
    obs: &[f32],
    mask: &[bool],
    rows: usize,
    width: usize,
    logits: &mut Vec<f32>,
    values: &mut Vec<f32>,
) {
    let (obs_len, actions) = (obs.len() / rows, mask.len() / rows);
    logits.clear();
    values.clear();
    for r in 0..rows {
        let mut h = 0x1234u64;
        for &x in &obs[r * obs_len..(r + 1) * obs_len] {
            h = splitmix64(h ^ x as u64).rotate_left(1);
        }
        for a in 0..actions {
            let legal = mask[r * actions + a];
            let x = splitmix64(h ^ a as u64);
            logits.push(if legal {
                (x % 1000) as f32 / 300.0
            } else {
                1e30
            });
        }
        for i in 0..width {
            values.push(((splitmix64(h ^ (99 + i as u64)) % 2001) as f32 - 1000.0) / 1000.0);
        }
    }
}

pub(super) fn run_network(search: &mut Search, games: &[Game]) -> SearchOutput {
    let width = if search.rules().players() == 2 {
        1
    } else {
        search.rules().players()
    };
    let (mut logits, mut values) = (Vec::new(), Vec::new());
    let mut rows = search.start(games).unwrap();
    while rows > 0 {
        let (obs, mask, n) = search.pending();
        fake_network(obs, mask, n, width, &mut logits, &mut values);
        rows = search.feed(&logits, &values).unwrap();
    }
    search.result().unwrap()
}

pub(super) fn some_games(rules: Rules, n: usize, seed: u64) -> Vec<Game> {
    let mut rng = Rng::new(seed, 7);
    (0..n)
        .map(|i| loop {
            if let Some(g) = random_position(rules, i % 6, &mut rng) {
                break g;
            }
        })
        .collect()
}

#[test]
fn masks_hold_at_every_depth_and_visits_add_up() {
    for rules in [
        Rules::connect_four(),
        Rules::new(9, 9, 5, 3, false).unwrap(),
    ] {
        for root in [RootPolicy::Puct, RootPolicy::Gumbel] {
            let games = some_games(rules, 40, 3);
            let mut search = Search::new(rules, Config { root, ..config(64) }).unwrap();
            let out = run_network(&mut search, &games);
            let a = rules.num_actions();
            for (i, g) in games.iter().enumerate() {
                let visits = &out.visit_counts[i * a..(i + 1) * a];
                let total: i32 = visits.iter().sum();
                assert_eq!(total, 64, "{rules} {root:?}");
                for (action, &v) in visits.iter().enumerate() {
                    if !g.is_legal(action) {
                        assert_eq!(v, 0);
                        assert_eq!(out.policy[i * a + action], 0.0);
                    }
                }
                assert!(g.is_legal(out.actions[i] as usize));
                let p: f32 = out.policy[i * a..(i + 1) * a].iter().sum();
                assert!((p - 1.0).abs() < 1e-4);
            }
        }
    }
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let rules = Rules::connect_four();
    let games = some_games(rules, 70, 5);
    for root in [RootPolicy::Puct, RootPolicy::Gumbel] {
        let outs: Vec<(SearchOutput, SearchOutput)> = [1, 2, 3]
            .iter()
            .map(|&threads| {
                let c = Config {
                    root,
                    threads,
                    seed: 9,
                    ..config(100)
                };
                let mut a = Search::new(rules, c.clone()).unwrap();
                let rollouts = a.run_rollouts(&games, 2, &AtomicBool::new(false)).unwrap();
                let mut b = Search::new(rules, c).unwrap();
                (rollouts, run_network(&mut b, &games))
            })
            .collect();
        assert_eq!(outs[0], outs[1]);
        assert_eq!(outs[0], outs[2]);
    }
    // A different seed gives different noise.
    let c = |seed| Config {
        seed,
        ..config(100)
    };
    let a = Search::new(rules, c(1))
        .unwrap()
        .run_rollouts(&games, 1, &AtomicBool::new(false))
        .unwrap();
    let b = Search::new(rules, c(2))
        .unwrap()
        .run_rollouts(&games, 1, &AtomicBool::new(false))
        .unwrap();
    assert_ne!(a.visit_counts, b.visit_counts);
}

#[test]
fn a_reused_subtree_continues_exactly_like_a_fresh_search() {
    // PUCT without root noise and a deterministic evaluator: selection inside a
    // subtree depends only on that subtree, so the kept subtree of a child with c
    // visits, searched n more times, equals a fresh search of c - 1 + n simulations.
    // Tic-tac-toe and late Connect Four positions: there the chosen child is often
    // proven within the first run, and the kept subtree must hold the visits made
    // after its proof, as a fresh search's proven root does.
    let late_connect_four: Vec<Game> = {
        let mut rng = Rng::new(17, 3);
        let mut games = Vec::new();
        while games.len() < 12 {
            games.extend(random_position(
                Rules::connect_four(),
                24 + games.len(),
                &mut rng,
            ));
        }
        games
    };
    for (rules, games) in [
        (
            Rules::connect_four(),
            some_games(Rules::connect_four(), 12, 11),
        ),
        (Rules::connect_four(), late_connect_four),
        (
            Rules::tic_tac_toe(),
            some_games(Rules::tic_tac_toe(), 12, 5),
        ),
        (
            Rules::new(4, 4, 3, 3, false).unwrap(),
            some_games(Rules::new(4, 4, 3, 3, false).unwrap(), 12, 11),
        ),
    ] {
        let mut reused = Search::new(rules, quiet_config(300)).unwrap();
        let first = run_network(&mut reused, &games);
        reused.advance(&first.actions).unwrap();
        let a = rules.num_actions();
        let mut next = Vec::new();
        let mut fresh_out = Vec::new();
        for (i, g) in games.iter().enumerate() {
            let action = first.actions[i] as usize;
            let mut g = g.clone();
            g.play(action).unwrap();
            let c = first.visit_counts[i * a + action] as u32;
            let mut fresh = Search::new(rules, quiet_config(c - 1 + 50)).unwrap();
            fresh_out.push(run_network(&mut fresh, std::slice::from_ref(&g)));
            next.push(g);
        }
        // The same object continues from its kept subtrees.
        reused.set_num_simulations(50).unwrap();
        let out = run_network(&mut reused, &next);
        for (i, f) in fresh_out.iter().enumerate() {
            if next[i].is_over() {
                continue;
            }
            assert_eq!(
                &out.visit_counts[i * a..(i + 1) * a],
                &f.visit_counts[..],
                "{rules} tree {i}"
            );
            let w = out.value_width;
            assert!((out.values[i * w] - f.values[0]).abs() < 1e-4);
        }
    }
}

#[test]
fn without_reuse_a_search_restarts_from_scratch() {
    let rules = Rules::connect_four();
    let games = some_games(rules, 8, 13);
    let c = Config {
        reuse_tree: false,
        ..config(100)
    };
    let mut search = Search::new(rules, c).unwrap();
    let cancel = AtomicBool::new(false);
    let first = search.run_rollouts(&games, 1, &cancel).unwrap();
    search.advance(&first.actions).unwrap();
    let after = search.result().unwrap();
    assert!(after.visit_counts.iter().all(|&v| v == 0));
    let again = search.run_rollouts(&games, 1, &cancel).unwrap();
    for i in 0..games.len() {
        assert_eq!(
            again.visit_counts[i * 7..(i + 1) * 7].iter().sum::<i32>(),
            100
        );
    }
}

#[test]
fn refused_outputs_and_cancelled_runs_leave_the_trees_unchanged() {
    let rules = Rules::connect_four();
    let games = some_games(rules, 5, 17);
    let mut search = Search::new(rules, config(30)).unwrap();
    let before = run_network(&mut search, &games);
    let mut rows = search.start(&games).unwrap();
    let (mut logits, mut values) = (Vec::new(), Vec::new());
    let (obs, mask, n) = search.pending();
    fake_network(obs, mask, n, 1, &mut logits, &mut values);
    let legal = (0..7).find(|&a| mask[a]).unwrap();
    values[2] = f32::NAN;
    assert!(
        matches!(search.feed(&logits, &values), Err(SearchError::Input(m)) if m.contains("values[2]"))
    );
    values[2] = 0.0;
    logits[legal] = f32::NEG_INFINITY;
    assert!(search.feed(&logits, &values).is_err());
    assert!(search.feed(&logits[1..], &values).is_err());
    logits[legal] = 0.0;
    rows = rows.min(search.feed(&logits, &values).unwrap());
    assert!(rows > 0);
    search.abort();
    // The finished search before the aborted one is still the result, and advanceable.
    assert_eq!(search.result().unwrap(), before);
    assert!(search.check_can_advance().is_ok());
    // After the abort the trees are those of the first search.
    let mut same = Search::new(rules, config(30)).unwrap();
    run_network(&mut same, &games);
    let again = run_network(&mut search, &games);
    let expected = run_network(&mut same, &games);
    assert_eq!(again.visit_counts, expected.visit_counts);
    assert_ne!(before.visit_counts, again.visit_counts);

    let cancel = AtomicBool::new(true);
    let mut r = Search::new(rules, config(1000)).unwrap();
    assert_eq!(
        r.run_rollouts(&games, 1, &cancel),
        Err(SearchError::Cancelled)
    );
}

#[test]
fn the_memory_budget_is_checked_before_allocating() {
    let rules = Rules::gomoku(15).unwrap();
    let games = vec![Game::new(rules); 2000];
    let mut search = Search::new(rules, config(800)).unwrap();
    match search.start(&games) {
        Err(SearchError::Memory(m)) => assert!(m.contains("max_memory"), "{m}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(search.num_trees(), 0);
    let small = Config {
        max_memory: 1000,
        ..config(10)
    };
    let mut search = Search::new(Rules::connect_four(), small).unwrap();
    assert!(matches!(
        search.run_rollouts(
            &[Game::new(Rules::connect_four())],
            1,
            &AtomicBool::new(false)
        ),
        Err(SearchError::Memory(_))
    ));
}

#[test]
fn three_player_values_are_backed_up_for_the_player_who_moved() {
    // 3 players, one simulation under the root: the child's value for the root's
    // side to move is the leaf's egocentric entry for that player (2 turns after
    // the leaf's side to move).
    let rules = Rules::new(5, 5, 4, 3, false).unwrap();
    let game = Game::new(rules);
    let mut search = Search::new(rules, quiet_config(1)).unwrap();
    let mut rows = search.start(&[game]).unwrap();
    let mut evaluations = 0;
    while rows > 0 {
        let logits = vec![0.0; 25];
        rows = search.feed(&logits, &[0.5, -0.25, 0.125]).unwrap();
        evaluations += 1;
    }
    assert_eq!(evaluations, 2);
    let out = search.result().unwrap();
    // Root: (0.5, -0.25, 0.125) at expansion; then the leaf below has the next
    // player to move: its entries shift by one (root player = entry 2).
    let expected = [
        (0.5 + 0.125) / 2.0,
        (-0.25 + 0.5) / 2.0,
        (0.125 - 0.25) / 2.0,
    ];
    for (v, e) in out.values.iter().zip(expected) {
        assert!((v - e).abs() < 1e-6, "{:?}", out.values);
    }
}

#[test]
fn two_player_values_are_for_the_side_to_move_and_negated_for_the_parent() {
    let rules = Rules::connect_four();
    let mut search = Search::new(rules, quiet_config(1)).unwrap();
    let mut rows = search.start(&[Game::new(rules)]).unwrap();
    let mut leaf_values = [0.5, -0.25].into_iter();
    while rows > 0 {
        rows = search
            .feed(&[0.0; 7], &[leaf_values.next().unwrap()])
            .unwrap();
    }
    // Root (player 1 to move) 0.5; its child (player 2 to move) -0.25 for player 2.
    assert_eq!(search.result().unwrap().values, vec![(0.5 + 0.25) / 2.0]);
}

#[test]
fn settings_are_checked() {
    let bad = Config {
        num_simulations: MAX_SIMULATIONS + 1,
        c_puct: f32::NAN,
        dirichlet_fraction: 2.0,
        threads: 0,
        ..Config::default()
    };
    let err = Search::new(Rules::connect_four(), bad)
        .err()
        .unwrap()
        .to_string();
    for name in ["num_simulations", "c_puct", "dirichlet_fraction", "threads"] {
        assert!(err.contains(name), "{err}");
    }
    let mut s = Search::new(Rules::connect_four(), config(5)).unwrap();
    assert!(matches!(s.feed(&[], &[]), Err(SearchError::State(_))));
    assert!(matches!(s.advance(&[]), Err(SearchError::State(_))));
    let other = Game::new(Rules::tic_tac_toe());
    assert!(matches!(s.start(&[other]), Err(SearchError::Rules(_))));
    let g = Game::new(Rules::connect_four());
    s.run_rollouts(std::slice::from_ref(&g), 1, &AtomicBool::new(false))
        .unwrap();
    assert!(matches!(
        s.advance(&[7]),
        Err(SearchError::IllegalAction(_))
    ));
    assert!(matches!(s.advance(&[1, 2]), Err(SearchError::Input(_))));
    let _ = Status::Draw;
}

#[test]
fn finished_games_get_no_search_and_their_result() {
    let rules = Rules::tic_tac_toe();
    let won = Game::from_actions(rules, &[0, 3, 1, 4, 2]).unwrap();
    let mut s = Search::new(rules, config(50)).unwrap();
    let out = s
        .run_rollouts(&[won.clone(), Game::new(rules)], 1, &AtomicBool::new(false))
        .unwrap();
    assert_eq!(out.actions[0], -1);
    // The side to move (O) has lost.
    assert_eq!(out.values[0], -1.0);
    assert!(out.visit_counts[..9].iter().all(|&v| v == 0));
    assert!(out.actions[1] >= 0);
    s.advance(&[-1, out.actions[1]]).unwrap();
}

#[test]
fn gumbel_with_rollouts_blocks_the_threat_it_cannot_see_from_priors() {
    // X at 0 and 2, O at 1 and 4: O threatens 1-4-7, so X must block at 7. With
    // rollouts there are no priors: below the Gumbel root the search runs UCT, which
    // proves every other move lost.
    let game = Game::from_actions(Rules::tic_tac_toe(), &[0, 1, 2, 4]).unwrap();
    for seed in [2, 6, 7] {
        let mut search = Search::new(
            *game.rules(),
            Config {
                root: RootPolicy::Gumbel,
                seed,
                ..config(20_000)
            },
        )
        .unwrap();
        let out = search
            .run_rollouts(std::slice::from_ref(&game), 1, &AtomicBool::new(false))
            .unwrap();
        assert_eq!(out.actions[0], 7, "seed {seed}");
    }
}

#[test]
fn gumbel_keeps_the_only_saving_move_when_the_survivors_are_proven_lost() {
    // After X takes a corner, only the centre saves O; every other reply loses
    // about five plies later. Sequential halving can drop the centre in its first,
    // noisy round; once the survivors are proven lost, halving restarts among the
    // moves still open and the centre wins it.
    for corner in [0, 2, 6, 8] {
        let game = Game::from_actions(Rules::tic_tac_toe(), &[corner]).unwrap();
        let games = vec![game; 16];
        for seed in 0..4 {
            let mut search = Search::new(
                *games[0].rules(),
                Config {
                    root: RootPolicy::Gumbel,
                    seed,
                    ..config(2_000)
                },
            )
            .unwrap();
            let out = search
                .run_rollouts(&games, 1, &AtomicBool::new(false))
                .unwrap();
            assert!(
                out.actions.iter().all(|&a| a == 4),
                "corner {corner}, seed {seed}: {:?}",
                out.actions
            );
        }
    }
}

#[test]
fn gumbel_proves_a_losing_reply_with_an_evaluator_that_knows_nothing() {
    // X at corner 2, O to move: every reply but the centre loses (X forks within
    // five plies). With uniform priors and value 0 only proofs separate the
    // moves; the interior rule must keep visiting X's winning replies instead
    // of the first one whose Q leads by a hair.
    let game = Game::from_actions(Rules::tic_tac_toe(), &[2]).unwrap();
    let rules = *game.rules();
    let geometry = WordState::geometry(rules);
    for seed in 0..4 {
        let config = Config {
            root: RootPolicy::Gumbel,
            seed,
            ..config(2_000)
        };
        let mut tree: Tree<WordState> = Tree::new(WordState::from_game(&game, &geometry), 2);
        let s = settings(&geometry, &rules, &config, false);
        tree.begin_run(&s, Rng::new(seed, 0), Rng::new(seed, 1), false);
        while let Some(leaf) = tree.next_leaf(&s) {
            tree.apply(leaf, Priors::Uniform, &[0.0; crate::rules::MAX_PLAYERS], &s);
        }
        let children = tree.root_children();
        for &(action, visits, proven) in &children {
            if action == 4 {
                assert_eq!(proven, UNKNOWN, "the centre draws");
            } else if visits > 0 {
                assert_eq!(proven, won_by(0), "seed {seed}: {children:?}");
            }
        }
        assert_ne!(children.iter().find(|c| c.0 == 0).unwrap().1, 0);
    }
}

/// Searches the empty Connect Four board with priors that all but rule out
/// columns 1-6 (logit 8 on column 0) and values of 0, except that a first stone
/// in `good_column` is worth `good_value` to the player who dropped it.
fn skewed_search(forced_playouts: f32, good_column: usize, good_value: f32) -> SearchOutput {
    let rules = Rules::connect_four();
    let config = Config {
        forced_playouts,
        ..quiet_config(400)
    };
    let mut search = Search::new(rules, config).unwrap();
    let mut rows = search.start(&[Game::new(rules)]).unwrap();
    while rows > 0 {
        let (obs, _, n) = search.pending();
        let plane = rules.num_cells();
        let (mut logits, mut values) = (Vec::new(), Vec::new());
        for r in 0..n {
            let planes = &obs[r * 2 * plane..(r + 1) * 2 * plane];
            logits.extend((0..7).map(|a| if a == 0 { 8.0 } else { 0.0 }));
            // The side to move sees the first stone in its opponent's plane, bottom row.
            let first_is_good =
                planes.iter().sum::<f32>() == 1.0 && planes[plane + 5 * 7 + good_column] == 1.0;
            values.push(if first_is_good { -good_value } else { 0.0 });
        }
        rows = search.feed(&logits, &values).unwrap();
    }
    search.result().unwrap()
}

#[test]
fn forced_playouts_visit_what_the_priors_rule_out_and_the_policy_prunes_them() {
    // Plain PUCT never visits a child of prior 0.0003 in 400 simulations.
    let plain = skewed_search(0.0, 3, 0.0);
    assert_eq!(plain.visit_counts[1..], [0; 6]);
    assert_eq!(plain.policy[0], 1.0);
    // Forced playouts (k = 50: sqrt(50 * 0.0003 * 400) = 2.6) visit each 3 times;
    // PUCT would have given them none, so the policy target leaves them out.
    let forced = skewed_search(50.0, 3, 0.0);
    assert!(
        forced.visit_counts[1..].iter().all(|&v| v >= 3),
        "{forced:?}"
    );
    assert_eq!(forced.policy[0], 1.0, "{forced:?}");
    // A forced child that proves good keeps its visits, and PUCT adds to them:
    // the search finds the move its priors missed (plain PUCT does not).
    let found = skewed_search(50.0, 3, 0.9);
    let missed = skewed_search(0.0, 3, 0.9);
    assert_eq!(missed.visit_counts[3], 0);
    assert!(found.visit_counts[3] > 100, "{found:?}");
    assert!(found.policy[3] > 0.5 && found.actions[0] == 3, "{found:?}");
    let sum: f32 = found.policy.iter().sum();
    assert!((sum - 1.0).abs() < 1e-5);
}

#[test]
fn forced_playouts_need_a_puct_root_and_an_evaluator() {
    let rules = Rules::connect_four();
    for (k, root, wanted) in [
        (f32::NAN, RootPolicy::Puct, "out of range"),
        (-1.0, RootPolicy::Puct, "out of range"),
        (2.0, RootPolicy::Gumbel, "needs root=\"puct\""),
    ] {
        let config = Config {
            forced_playouts: k,
            root,
            ..config(10)
        };
        let err = Search::new(rules, config).err().unwrap().to_string();
        assert!(
            err.contains("forced_playouts") && err.contains(wanted),
            "{err}"
        );
    }
    let config = Config {
        forced_playouts: 2.0,
        ..config(10)
    };
    let mut search = Search::new(rules, config).unwrap();
    let err = search
        .run_rollouts(&[Game::new(rules)], 1, &AtomicBool::new(false))
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("needs an evaluator's priors"), "{err}");
}

#[test]
fn the_two_pass_puct_choice_is_the_plain_definition_at_every_node() {
    let mut rng = Rng::new(31, 0);
    for rules in [
        Rules::connect_four(),
        Rules::tic_tac_toe(),
        Rules::new(4, 4, 3, 3, false).unwrap(),
    ] {
        let mut checked = 0;
        for trial in 0..12u64 {
            let Some(game) = random_position(rules, trial as usize % 6, &mut rng) else {
                continue;
            };
            let (mut tree, _) = rollout_tree::<WordState>(&game, &quiet_config(400), trial);
            for c in [0.5, 1.25, 4.0] {
                checked += tree.check_select_puct(c);
            }
        }
        assert!(checked > 1000, "{rules}: only {checked} nodes");
    }
}
