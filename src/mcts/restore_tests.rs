//! Taking a run back: a failed or cancelled run leaves every tree, and the
//! search's last result, exactly as they were, at the cost of what the run changed.

use std::sync::atomic::{AtomicBool, Ordering};

use super::state::{SearchState, WordState};
use super::tests::{config, fake_network, run_network, some_games};
use super::tree::{Priors, Settings, Tree};
use super::*;
use crate::rng::Rng;
use crate::{Game, Rules};

/// Runs a step-by-step search for a few rounds, then aborts it.
fn abort_after_rounds(search: &mut Search, games: &[Game], rounds: usize) {
    let width = batch::value_width(search.rules());
    let (mut logits, mut values) = (Vec::new(), Vec::new());
    let mut rows = search.start(games).unwrap();
    for _ in 0..rounds {
        if rows == 0 {
            break;
        }
        let (obs, mask, n) = search.pending();
        fake_network(obs, mask, n, width, &mut logits, &mut values);
        rows = search.feed(&logits, &values).unwrap();
    }
    search.abort();
}

fn check_aborts_leave_kept_trees_exactly(rules: Rules, root: RootPolicy) {
    let games = some_games(rules, 6, 5);
    let cfg = Config { root, ..config(40) };
    let mut search = Search::new(rules, cfg.clone()).unwrap();
    let mut twin = Search::new(rules, cfg).unwrap();
    for _ in 0..3 {
        let first = run_network(&mut search, &games);
        assert_eq!(first, run_network(&mut twin, &games));
        // Kept trees grow over the runs; each abort undoes only its own run.
        abort_after_rounds(&mut search, &games, 25);
        assert_eq!(search.result().unwrap(), first, "{rules} {root:?}");
    }
    let actions = search.result().unwrap().actions;
    search.advance(&actions).unwrap();
    twin.advance(&actions).unwrap();
    let games: Vec<Game> = games
        .iter()
        .zip(&actions)
        .map(|(g, &a)| {
            let mut g = g.clone();
            if !g.is_over() {
                g.play(a as usize).unwrap();
            }
            g
        })
        .collect();
    abort_after_rounds(&mut search, &games, 10);
    assert_eq!(
        run_network(&mut search, &games),
        run_network(&mut twin, &games)
    );
}

#[test]
fn an_aborted_run_on_kept_trees_restores_them_and_the_last_result() {
    for root in [RootPolicy::Puct, RootPolicy::Gumbel] {
        check_aborts_leave_kept_trees_exactly(Rules::connect_four(), root);
        // More than 2 players: the per-player sums are restored too.
        check_aborts_leave_kept_trees_exactly(Rules::new(5, 5, 3, 3, false).unwrap(), root);
        // A board beyond one word (the general position).
        check_aborts_leave_kept_trees_exactly(Rules::new(9, 9, 5, 2, false).unwrap(), root);
    }
}

#[test]
fn a_run_that_changes_the_number_of_trees_is_restored_whole() {
    let rules = Rules::connect_four();
    let (five, three) = (some_games(rules, 5, 1), some_games(rules, 3, 2));
    let mut search = Search::new(rules, config(30)).unwrap();
    let before = run_network(&mut search, &five);
    abort_after_rounds(&mut search, &three, 5);
    assert_eq!(search.num_trees(), 5);
    assert_eq!(search.result().unwrap(), before);
}

#[test]
fn a_cancelled_rollout_run_leaves_every_kept_tree_as_it_was() {
    let rules = Rules::connect_four();
    let games = some_games(rules, 4, 3);
    let mut search = Search::new(rules, config(2000)).unwrap();
    let mut twin = Search::new(rules, config(2000)).unwrap();
    let go = AtomicBool::new(false);
    let before = search.run_rollouts(&games, 1, &go).unwrap();
    twin.run_rollouts(&games, 1, &go).unwrap();
    search.set_num_simulations(1_000_000).unwrap();
    let cancel = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(30));
            cancel.store(true, Ordering::Relaxed);
        });
        assert_eq!(
            search.run_rollouts(&games, 1, &cancel),
            Err(SearchError::Cancelled)
        );
    });
    assert_eq!(search.result().unwrap(), before);
    search.set_num_simulations(2000).unwrap();
    assert_eq!(
        search.run_rollouts(&games, 1, &go).unwrap(),
        twin.run_rollouts(&games, 1, &go).unwrap()
    );
}

#[test]
fn value_sums_keep_counting_past_two_to_the_24() {
    // X (to move) wins at once at 2: every simulation backs up a loss for O.
    let rules = Rules::tic_tac_toe();
    let game = Game::from_actions(rules, &[0, 6, 1, 7]).unwrap();
    let geometry = WordState::geometry(rules);
    let cfg = config(1000);
    let s = Settings {
        geometry: &geometry,
        players: 2,
        config: &cfg,
        uct: true,
    };
    let mut tree = Tree::new(WordState::from_game(&game, &geometry), 2);
    tree.begin_run(&s, Rng::new(1, 0), Rng::new(1, 1), false);
    let root = tree.next_leaf(&s).unwrap();
    let v = tree.playout_values(1, &s);
    tree.apply(root, Priors::Uniform, &v, &s);
    // As if 2**24 such simulations had run already.
    let big = 1u32 << 24;
    tree.set_root_stats(big, -(big as f64));
    while let Some(leaf) = tree.next_leaf(&s) {
        let v = tree.playout_values(1, &s);
        tree.apply(leaf, Priors::Uniform, &v, &s);
    }
    let root = tree.root_node();
    assert_eq!(root.visits, big + 1000);
    assert_eq!(root.value_sum, -((big + 1000) as f64));
}

#[test]
fn the_visit_counter_limit_is_refused_before_the_run() {
    assert!(batch::check_visit_room(0, 7, MAX_SIMULATIONS).is_ok());
    assert!(batch::check_visit_room(u32::MAX - 1 - MAX_SIMULATIONS, 7, MAX_SIMULATIONS).is_ok());
    match batch::check_visit_room(u32::MAX - MAX_SIMULATIONS, 7, MAX_SIMULATIONS) {
        Err(SearchError::Config(m)) => assert!(
            m.contains("tree 7") && m.contains("reuse_tree=False"),
            "{m}"
        ),
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_undo_log_holds_what_the_run_touched_not_the_tree() {
    let rules = Rules::connect_four();
    let game = Game::new(rules);
    let geometry = WordState::geometry(rules);
    let big = config(20_000);
    let small = config(100);
    let run = |tree: &mut Tree<WordState>, cfg: &Config, undoable: bool| {
        let s = Settings {
            geometry: &geometry,
            players: 2,
            config: cfg,
            uct: true,
        };
        tree.begin_run(&s, Rng::new(3, 0), Rng::new(3, 1), undoable);
        while let Some(leaf) = tree.next_leaf(&s) {
            let v = tree.playout_values(1, &s);
            tree.apply(leaf, Priors::Uniform, &v, &s);
        }
    };
    let mut tree = Tree::new(WordState::from_game(&game, &geometry), 2);
    run(&mut tree, &big, false);
    let nodes = tree.num_nodes();
    assert!(nodes > 100_000, "{nodes}");
    run(&mut tree, &small, true);
    // At most one entry per node on the run's paths: 101 paths of at most 43 nodes.
    let logged = tree.undo_len();
    assert!(
        logged > 0 && logged <= 101 * 43,
        "{logged} entries for a tree of {nodes}"
    );
    tree.rollback();
    assert_eq!(tree.num_nodes(), nodes);
}
