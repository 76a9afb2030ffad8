use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64};

use super::*;
use crate::game::Game;
use crate::rng::Rng;
use crate::rules::Rules;
use crate::solver::{Position, Solver, SolverConfig};
use crate::threats::Budget;

fn no_cancel() -> AtomicBool {
    AtomicBool::new(false)
}

fn random_position(rules: Rules, plies: usize, rng: &mut Rng) -> Game {
    let mut game = Game::new(rules);
    for _ in 0..plies {
        if game.is_over() {
            break;
        }
        let a = game.random_action(rng);
        game.play(a).unwrap();
    }
    game
}

const ALL: [Agent; 4] = [
    Agent::Random,
    Agent::Greedy,
    Agent::Negamax { depth: 1 },
    Agent::Negamax { depth: 3 },
];

#[test]
fn every_agent_plays_legal_moves_on_random_rules() {
    let mut rng = Rng::new(11, 0);
    for _ in 0..60 {
        let w = 1 + rng.below(7) as i64;
        let h = 1 + rng.below(6) as i64;
        let k = 1 + rng.below(w.max(h) as u32) as i64;
        let players = 2 + rng.below(3) as i64;
        let gravity = rng.below(2) == 0;
        let rules = Rules::new(w, h, k, players, gravity).unwrap();
        for agent in ALL {
            let mut worker = AgentWorker::new(agent);
            let mut game = Game::new(rules);
            while !game.is_over() {
                let before = game.clone();
                let a = worker.choose(&game, &mut rng, &no_cancel()).unwrap();
                assert_eq!(game, before);
                assert!(game.is_legal(a), "{agent:?} chose {a} on {rules}");
                game.play(a).unwrap();
            }
            assert_eq!(
                worker.choose(&game, &mut rng, &no_cancel()),
                Err(AgentError::GameOver)
            );
        }
    }
}

#[test]
fn greedy_wins_when_it_can_and_blocks_when_it_must() {
    let c4 = Rules::connect_four();
    let mut rng = Rng::new(1, 0);
    let mut greedy = AgentWorker::new(Agent::Greedy);
    // Player 1 has three in column 3 and may win there; it must take the win.
    let game = Game::from_actions(c4, &[3, 0, 3, 0, 3, 6]).unwrap();
    for _ in 0..20 {
        assert_eq!(greedy.choose(&game, &mut rng, &no_cancel()).unwrap(), 3);
    }
    // Player 2 must block the bottom row 1-2-3 at column 0 or 4? Both open: with
    // _XXX_ blocking one loses anyway; with XXX_ against the wall only column 3.
    let game = Game::from_actions(c4, &[0, 6, 1, 6, 2]).unwrap();
    for _ in 0..20 {
        assert_eq!(greedy.choose(&game, &mut rng, &no_cancel()).unwrap(), 3);
    }
    // Never plays under the opponent's threat: player 1 holds the second row at
    // columns 1-3, so a stone of player 2 in column 0 or 4 lets player 1 win above it.
    let game = Game::from_actions(c4, &[2, 1, 1, 3, 3, 6, 2]).unwrap();
    let hands_a_win = |a: usize| {
        let mut g = game.clone();
        g.play(a).unwrap();
        g.legal_actions()
            .into_iter()
            .any(|b| g.clone().play(b).unwrap())
    };
    assert!(hands_a_win(0) && hands_a_win(4) && !hands_a_win(5));
    for _ in 0..50 {
        let a = greedy.choose(&game, &mut rng, &no_cancel()).unwrap();
        let mut g = game.clone();
        g.play(a).unwrap();
        let next_can_win = g
            .legal_actions()
            .into_iter()
            .any(|b| g.clone().play(b).unwrap());
        assert!(
            !next_can_win,
            "greedy played {a}, letting the next player win"
        );
    }
    // Free placement, 3 players: player 1 (to move) must block player 2's line.
    let r = Rules::new(4, 4, 3, 3, false).unwrap();
    let game = Game::from_actions(r, &[15, 0, 12, 11, 1, 7]).unwrap();
    assert_eq!(game.to_move(), 0);
    for _ in 0..20 {
        assert_eq!(greedy.choose(&game, &mut rng, &no_cancel()).unwrap(), 2);
    }
}

/// Whether the side to move forces a win within `plies` of its own and others'
/// moves, against every defence (brute force; paranoid for 3+ players).
fn forced_win(game: &mut Game, root: usize, plies: u32) -> bool {
    if plies == 0 || game.is_over() {
        return false;
    }
    let mover_is_root = game.to_move() == root;
    let mut results = game.legal_actions().into_iter().map(|a| {
        let won = game.play(a).unwrap();
        let r = if won {
            game.winner() == Some(root)
        } else {
            forced_win_after(game, root, plies - 1)
        };
        game.undo().unwrap();
        r
    });
    if mover_is_root {
        results.any(|r| r)
    } else {
        results.all(|r| r)
    }
}

fn forced_win_after(game: &mut Game, root: usize, plies: u32) -> bool {
    if game.is_over() {
        return game.winner() == Some(root);
    }
    forced_win(game, root, plies)
}

#[test]
fn negamax_finds_every_forced_win_within_its_depth() {
    let mut rng = Rng::new(5, 0);
    let mut found = 0;
    for case in 0..400 {
        let rules = match case % 4 {
            0 => Rules::new(4, 4, 3, 2, true).unwrap(),
            1 => Rules::new(4, 4, 3, 2, false).unwrap(),
            2 => Rules::new(5, 4, 3, 3, true).unwrap(),
            _ => Rules::new(5, 5, 4, 2, false).unwrap(),
        };
        let plies = rng.below(rules.num_cells() as u32 - 2) as usize;
        let mut game = random_position(rules, plies, &mut rng);
        if game.is_over() {
            continue;
        }
        let root = game.to_move();
        for depth in 1..=4u32 {
            if !forced_win(&mut game, root, depth) {
                continue;
            }
            found += 1;
            let mut worker = AgentWorker::new(Agent::Negamax { depth });
            let a = worker.choose(&game, &mut rng, &no_cancel()).unwrap();
            game.play(a).unwrap();
            let wins = forced_win_after(&mut game, root, depth - 1);
            game.undo().unwrap();
            assert!(
                wins,
                "depth {depth} missed the forced win on {rules} after {:?}",
                game.history()
            );
        }
    }
    assert!(found > 100, "too few positions with forced wins: {found}");
}

#[test]
fn the_threat_engine_finds_forced_wins_on_any_number_of_threads() {
    // Free placement, k = 4: the engine's own path (threat searches, then lazy-SMP
    // alpha-beta). Where plain minimax finds a forced win of up to 3 plies, the
    // engine's move keeps a win, as the exact solver scores it (a slower forced
    // win counts).
    let mut rng = Rng::new(17, 0);
    let mut solver = Solver::new(SolverConfig::default()).unwrap();
    let mut found = 0;
    for case in 0..240 {
        let rules = match case % 2 {
            0 => Rules::new(5, 5, 4, 2, false).unwrap(),
            _ => Rules::new(6, 6, 4, 2, false).unwrap(),
        };
        let plies = 3 + rng.below(rules.num_cells() as u32 / 2) as usize;
        let mut game = random_position(rules, plies, &mut rng);
        if game.is_over() {
            continue;
        }
        let root = game.to_move();
        if !(1..=3u32).any(|d| forced_win(&mut game, root, d)) {
            continue;
        }
        found += 1;
        let scores = solver.analyze_game(&game, true, &no_cancel()).unwrap();
        for threads in [1, 3] {
            let agent = Agent::Threats {
                budget: Budget::Nodes(20_000),
                threads,
            };
            let a = AgentWorker::new(agent)
                .choose(&game, &mut Rng::new(case, 1), &no_cancel())
                .unwrap();
            assert!(
                scores[a].is_some_and(|s| s > 0),
                "{threads} threads gave up a forced win on {rules} after {:?}: played {a}, scores {scores:?}",
                game.history()
            );
        }
    }
    assert!(found > 40, "too few positions with forced wins: {found}");
    let bad = Agent::Threats {
        budget: Budget::Nodes(1),
        threads: 0,
    };
    assert!(matches!(bad.validate(), Err(AgentError::InvalidConfig(m)) if m.contains("threads=0")));
}

#[test]
fn the_threat_agent_deepens_within_its_budget_where_threats_do_not_apply() {
    // Gravity and k < 4: iterative-deepening negamax. With enough nodes
    // every forced win of up to 4 plies is found; the moves are the same for a
    // seed; and a node budget bounds the work.
    let mut rng = Rng::new(9, 0);
    let mut found = 0;
    for case in 0..300 {
        let rules = match case % 3 {
            0 => Rules::new(4, 4, 3, 2, true).unwrap(),
            1 => Rules::new(5, 5, 3, 2, false).unwrap(),
            _ => Rules::new(6, 5, 4, 2, true).unwrap(),
        };
        let plies = rng.below(rules.num_cells() as u32 - 2) as usize;
        let mut game = random_position(rules, plies, &mut rng);
        if game.is_over() {
            continue;
        }
        let root = game.to_move();
        let Some(depth) = (1..=4u32).find(|&d| forced_win(&mut game, root, d)) else {
            continue;
        };
        found += 1;
        let agent = Agent::Threats {
            budget: Budget::Nodes(2_000_000),
            threads: 1,
        };
        let mut worker = AgentWorker::new(agent);
        let a = worker
            .choose(&game, &mut Rng::new(1, 1), &no_cancel())
            .unwrap();
        let again = AgentWorker::new(agent)
            .choose(&game, &mut Rng::new(1, 1), &no_cancel())
            .unwrap();
        assert_eq!(a, again, "the same seed and budget give the same move");
        game.play(a).unwrap();
        let wins = forced_win_after(&mut game, root, depth - 1);
        game.undo().unwrap();
        assert!(
            wins,
            "missed a forced win in {depth} on {rules} after {:?}",
            game.history()
        );
    }
    assert!(found > 50, "too few positions with forced wins: {found}");
    // A budget of one node still answers (depth 1 always completes), legally.
    let game = Game::from_actions(Rules::connect_four(), &[3, 3, 4]).unwrap();
    let mut scratch = negamax::Scratch::default();
    let mut board = LineBoard::new(*game.rules());
    board.load(&game);
    let limit = negamax::Limit {
        deadline: None,
        max_nodes: 1,
    };
    let a = negamax::choose_within(&mut board, limit, &[], &mut scratch, &mut rng, &no_cancel())
        .unwrap();
    assert!(game.is_legal(a));
    // Completes X's three at either end; O blocks the only open end of X's
    // three on the edge; against two open ends there is nothing forced.
    for (moves, forced) in [
        (&[2, 2, 3, 3, 4, 4][..], Some(1)),
        (&[0, 6, 1, 6, 2][..], Some(3)),
        (&[2, 2, 3, 3, 4][..], None),
    ] {
        board.load(&Game::from_actions(Rules::connect_four(), moves).unwrap());
        assert_eq!(negamax::forced_move(&board), forced, "{moves:?}");
    }
}

/// Exact Pons scores by brute force with memoisation (small boards only).
fn brute_score(game: &mut Game, memo: &mut HashMap<Vec<i8>, i32>) -> i32 {
    let n = game.rules().num_cells();
    let mut key = vec![0i8; n];
    game.write_cells(&mut key);
    if let Some(&s) = memo.get(&key) {
        return s;
    }
    let moves = game.stones_on_board() as i32;
    let mut best = i32::MIN;
    for a in game.legal_actions() {
        let won = game.play(a).unwrap();
        let s = if won {
            (n as i32 + 1 - moves) / 2
        } else if game.is_over() {
            0
        } else {
            -brute_score(game, memo)
        };
        game.undo().unwrap();
        best = best.max(s);
    }
    memo.insert(key, best);
    best
}

fn brute_analysis(game: &mut Game, memo: &mut HashMap<Vec<i8>, i32>) -> Vec<Option<i32>> {
    let n = game.rules().num_cells() as i32;
    let moves = game.stones_on_board() as i32;
    (0..game.rules().num_actions())
        .map(|a| {
            if !game.is_legal(a) {
                return None;
            }
            let won = game.play(a).unwrap();
            let s = if won {
                (n + 1 - moves) / 2
            } else if game.is_over() {
                0
            } else {
                -brute_score(game, memo)
            };
            game.undo().unwrap();
            Some(s)
        })
        .collect()
}

#[test]
fn the_perfect_agent_always_plays_a_best_score_by_brute_force() {
    let mut rng = Rng::new(9, 0);
    for rules in [
        Rules::new(4, 4, 3, 2, true).unwrap(),
        Rules::new(5, 4, 4, 2, true).unwrap(),
        Rules::new(4, 3, 3, 2, true).unwrap(),
    ] {
        let mut memo = HashMap::new();
        let mut worker = AgentWorker::new(Agent::Perfect {
            temperature: 0.0,
            tt_bytes: 1 << 20,
            threads: 1,
        });
        for _ in 0..60 {
            let plies = rng.below(rules.num_cells() as u32 - 1) as usize;
            let mut game = random_position(rules, plies, &mut rng);
            if game.is_over() {
                continue;
            }
            let truth = brute_analysis(&mut game, &mut memo);
            let best = truth.iter().flatten().max().copied().unwrap();
            let a = worker.choose(&game, &mut rng, &no_cancel()).unwrap();
            assert_eq!(
                truth[a],
                Some(best),
                "{rules}: {:?} chose {a} of {truth:?}",
                game.history()
            );
        }
    }
}

#[test]
fn the_perfect_agent_scores_the_same_cells_under_each_win_rule_apart() {
    // One worker on freestyle, then on standard, with the same cells: its cache
    // of scores must not serve one rule's scores for the other.
    let freestyle = Rules::new(4, 4, 3, 2, false).unwrap();
    let standard = freestyle
        .with_rule(crate::rules::WinRule::Standard)
        .unwrap();
    let mut rng = Rng::new(21, 0);
    let mut worker = AgentWorker::new(Agent::Perfect {
        temperature: 0.0,
        tt_bytes: 1 << 20,
        threads: 1,
    });
    let (mut memo_f, mut memo_s) = (HashMap::new(), HashMap::new());
    let mut apart = 0;
    for _ in 0..200 {
        let plies = 4 + rng.below(8) as usize;
        let mut strict = random_position(standard, plies, &mut rng);
        let actions: Vec<usize> = strict.history().iter().map(|&c| c as usize).collect();
        let Ok(mut loose) = Game::from_actions(freestyle, &actions) else {
            continue;
        };
        if strict.is_over() || loose.is_over() {
            continue;
        }
        let truth_f = brute_analysis(&mut loose, &mut memo_f);
        let truth_s = brute_analysis(&mut strict, &mut memo_s);
        let best = |t: &[Option<i32>]| t.iter().flatten().max().copied();
        let a = worker.choose(&loose, &mut rng, &no_cancel()).unwrap();
        assert_eq!(truth_f[a], best(&truth_f), "{:?}", loose.history());
        let b = worker.choose(&strict, &mut rng, &no_cancel()).unwrap();
        assert_eq!(truth_s[b], best(&truth_s), "{:?}", strict.history());
        apart += usize::from(truth_s[a] != best(&truth_s));
    }
    assert!(
        apart > 0,
        "no position where freestyle's best move is not standard's"
    );
}

#[test]
fn the_perfect_agent_refuses_rules_beyond_the_solver() {
    for rules in [
        Rules::new(7, 6, 4, 3, true).unwrap(),
        Rules::new(12, 11, 5, 2, false).unwrap(),
        Rules::new(8, 8, 4, 2, true).unwrap(),
    ] {
        let agent = Agent::Perfect {
            temperature: 0.0,
            tt_bytes: 1 << 20,
            threads: 1,
        };
        let mut worker = AgentWorker::new(agent);
        let r = worker.choose(&Game::new(rules), &mut Rng::new(0, 0), &no_cancel());
        assert!(matches!(r, Err(AgentError::Unsupported(_))), "{r:?}");
        assert!(agent.check_rules(&rules).is_err());
    }
}

#[test]
fn the_perfect_agent_wins_and_blocks_on_free_boards() {
    let agent = Agent::Perfect {
        temperature: 0.0,
        tt_bytes: 1 << 20,
        threads: 1,
    };
    let mut worker = AgentWorker::new(agent);
    let mut rng = Rng::new(0, 0);
    // X on 0 and 1, O on 3 and 4, X to move: the top row wins on 2.
    let game = Game::from_actions(Rules::tic_tac_toe(), &[0, 3, 1, 4]).unwrap();
    assert_eq!(worker.choose(&game, &mut rng, &no_cancel()), Ok(2));
    // O to move blocks the top row.
    let game = Game::from_actions(Rules::tic_tac_toe(), &[0, 3, 1]).unwrap();
    assert_eq!(worker.choose(&game, &mut rng, &no_cancel()), Ok(2));
    // The same cells under gravity are another game: no cache mix-up.
    let gravity = Rules::new(3, 3, 3, 2, true).unwrap();
    let game = Game::from_actions(gravity, &[0, 1, 0]).unwrap();
    assert_eq!(worker.choose(&game, &mut rng, &no_cancel()), Ok(0));
}

#[test]
fn softmax_pick_follows_the_softmax_of_the_scores() {
    let scores = [Some(2), None, Some(0), Some(-1), Some(2)];
    let mut rng = Rng::new(2, 0);
    // Temperature 0: only the best scores, both of them.
    let mut seen = [0u32; 5];
    for _ in 0..2000 {
        seen[softmax_pick(&scores, 0.0, &mut rng).unwrap()] += 1;
    }
    assert_eq!(seen[1] + seen[2] + seen[3], 0);
    assert!(seen[0] > 850 && seen[4] > 850, "{seen:?}");
    // Temperature 1.5: frequencies within 4 standard deviations of exp(s / t) / Z.
    let t = 1.5;
    let weights: Vec<f64> = scores
        .iter()
        .map(|s| s.map_or(0.0, |s| (s as f64 / t).exp()))
        .collect();
    let z: f64 = weights.iter().sum();
    let n = 100_000;
    let mut seen = [0u32; 5];
    for _ in 0..n {
        seen[softmax_pick(&scores, t, &mut rng).unwrap()] += 1;
    }
    for (i, &w) in weights.iter().enumerate() {
        let p = w / z;
        let sd = (n as f64 * p * (1.0 - p)).sqrt();
        assert!(
            (seen[i] as f64 - n as f64 * p).abs() <= 4.0 * sd + 1e-9,
            "{seen:?} {p}"
        );
    }
    // A huge temperature is nearly uniform over the legal actions.
    let mut seen = [0u32; 5];
    for _ in 0..40_000 {
        seen[softmax_pick(&scores, 1e9, &mut rng).unwrap()] += 1;
    }
    assert_eq!(seen[1], 0);
    for i in [0, 2, 3, 4] {
        assert!((9_000..11_000).contains(&seen[i]), "{seen:?}");
    }
    assert_eq!(softmax_pick(&[None, None], 1.0, &mut rng), None);
}

#[test]
fn the_perfect_agent_on_7x6_plays_the_solver_best_score() {
    let mut rng = Rng::new(3, 0);
    let mut solver = Solver::new(SolverConfig::default()).unwrap();
    let mut worker = AgentWorker::new(Agent::Perfect {
        temperature: 0.0,
        tt_bytes: 16 << 20,
        threads: 1,
    });
    for _ in 0..10 {
        let game = random_position(Rules::connect_four(), 16 + rng.below(10) as usize, &mut rng);
        if game.is_over() {
            continue;
        }
        let actions: Vec<usize> = game.history().iter().map(|&a| a as usize).collect();
        let pos = Position::from_moves(7, 6, 4, &actions).unwrap();
        let scores = solver.analyze(&pos, false, &no_cancel()).unwrap();
        let best = scores.iter().flatten().max().copied();
        let a = worker.choose(&game, &mut rng, &no_cancel()).unwrap();
        assert_eq!(scores[a], best);
    }
}

/// `a` against `b` under `rules`, after `opening_plies` random moves.
#[allow(clippy::too_many_arguments)]
fn run(
    rules: Rules,
    a: Agent,
    b: Agent,
    games: u64,
    seed: u64,
    swap: bool,
    threads: usize,
    opening_plies: usize,
) -> MatchResult {
    let config = MatchConfig {
        games,
        first_game: 0,
        seed,
        swap,
        threads,
        openings: Openings::Random(opening_plies),
        book: None,
        keep: Default::default(),
    };
    play_match(rules, &a, &b, &config, &AtomicU64::new(0), &no_cancel()).unwrap()
}

#[test]
fn match_totals_add_up_and_do_not_depend_on_threads() {
    for (rules, a, b) in [
        (Rules::connect_four(), Agent::Greedy, Agent::Random),
        (
            Rules::new(5, 5, 3, 3, false).unwrap(),
            Agent::Negamax { depth: 2 },
            Agent::Greedy,
        ),
    ] {
        let one = run(rules, a, b, 301, 7, true, 1, 0);
        let two = run(rules, a, b, 301, 7, true, 3, 0);
        assert_eq!(one, two);
        let t = one.total;
        assert_eq!(t.games, 301);
        assert_eq!(t.wins + t.draws + t.losses, 301);
        let mut sum = Tally::default();
        for (seat, s) in one.seats.iter().enumerate() {
            sum.add(s);
            let expected = (0..301u64)
                .filter(|&i| seat_of_a(i, rules.players(), true) == seat)
                .count();
            assert_eq!(s.games, expected as u64);
        }
        assert_eq!(sum, t);
        assert_ne!(
            run(rules, a, b, 301, 8, true, 2, 0),
            one,
            "another seed, other games"
        );
        let fixed = run(rules, a, b, 50, 7, false, 2, 0);
        assert_eq!(fixed.seats[0].games, 50);
    }
}

#[test]
fn chunks_from_first_game_merge_into_the_whole_match() {
    let rules = Rules::new(5, 5, 3, 3, false).unwrap();
    let (a, b) = (Agent::Negamax { depth: 2 }, Agent::Random);
    for swap in [true, false] {
        let config = |first_game, games| MatchConfig {
            games,
            first_game,
            seed: 11,
            swap,
            threads: 2,
            openings: Openings::Random(2),
            book: None,
            keep: Default::default(),
        };
        let play = |c: &MatchConfig| {
            play_match(rules, &a, &b, c, &AtomicU64::new(0), &no_cancel()).unwrap()
        };
        let whole = play(&config(0, 100));
        // Uneven chunks that cut rounds in the middle, merged in any order.
        let mut merged = MatchResult::new(rules.players());
        for (first, games) in [(61, 39), (0, 7), (7, 54)] {
            merged.merge(&play(&config(first, games)));
        }
        assert_eq!(merged, whole, "swap={swap}");
        // A chunk is not the start of the match.
        assert_ne!(play(&config(7, 54)), play(&config(0, 54)));
    }
}

#[test]
fn a_set_of_openings_opens_each_round_in_turn_from_every_seat() {
    let rules = Rules::new(3, 3, 3, 2, false).unwrap();
    let set: Vec<Vec<usize>> = vec![vec![4], vec![0, 8], vec![]];
    let config = MatchConfig {
        games: 13,
        first_game: 0,
        seed: 3,
        swap: true,
        threads: 2,
        openings: Openings::Set(set.clone().into()),
        book: None,
        keep: Keep::All,
    };
    let r = play_match(
        rules,
        &Agent::Greedy,
        &Agent::Random,
        &config,
        &AtomicU64::new(0),
        &no_cancel(),
    )
    .unwrap();
    assert_eq!(r.kept.len(), 13);
    for g in &r.kept {
        // Round i / 2 plays opening (i / 2) % 3, game i seats a at i % 2.
        let opening = &set[(g.index as usize / 2) % 3];
        assert_eq!(&g.moves[..opening.len()], &opening[..], "game {}", g.index);
        assert_eq!(g.seat, g.index as usize % 2);
    }
    // Without swap every game is a round: game i plays opening i % 3, a moves first.
    let fixed = MatchConfig {
        swap: false,
        ..config.clone()
    };
    let r = play_match(
        rules,
        &Agent::Greedy,
        &Agent::Random,
        &fixed,
        &AtomicU64::new(0),
        &no_cancel(),
    )
    .unwrap();
    for g in &r.kept {
        let opening = &set[g.index as usize % 3];
        assert_eq!(&g.moves[..opening.len()], &opening[..]);
        assert_eq!(g.seat, 0);
    }
}

#[test]
fn a_bad_set_of_openings_is_refused_naming_the_opening_and_move() {
    let rules = Rules::new(3, 3, 3, 2, false).unwrap();
    let check = |set: Vec<Vec<usize>>| Openings::Set(set.into()).check(&rules);
    assert_eq!(check(vec![vec![4], vec![0, 1]]), Ok(()));
    assert_eq!(check(vec![]), Err("the set of openings is empty".into()));
    let occupied = check(vec![vec![4], vec![0, 0]]).unwrap_err();
    assert!(
        occupied.starts_with("opening 1: move 2 (action 0)"),
        "{occupied}"
    );
    let off = check(vec![vec![9]]).unwrap_err();
    assert!(off.starts_with("opening 0: move 1 (action 9)"), "{off}");
    // A move after the opening already won.
    let late = check(vec![vec![0, 3, 1, 4, 2, 5]]).unwrap_err();
    assert!(late.starts_with("opening 0: move 6 (action 5)"), "{late}");
    // play_match refuses such a set before playing.
    let config = MatchConfig {
        games: 2,
        first_game: 0,
        seed: 0,
        swap: true,
        threads: 1,
        openings: Openings::Set(vec![vec![0, 0]].into()),
        book: None,
        keep: Keep::Nothing,
    };
    let r = play_match(
        rules,
        &Agent::Random,
        &Agent::Random,
        &config,
        &AtomicU64::new(0),
        &no_cancel(),
    );
    assert!(matches!(r, Err(AgentError::InvalidConfig(_))), "{r:?}");
}

#[test]
fn greedy_beats_random_and_swapping_mirrors_the_match() {
    let c4 = Rules::connect_four();
    let r = run(c4, Agent::Greedy, Agent::Random, 2000, 1, true, 2, 0);
    assert!(r.total.wins > 1700, "{r:?}");
    let back = run(c4, Agent::Random, Agent::Greedy, 2000, 1, true, 2, 0);
    assert!(back.total.losses > 1700, "{back:?}");
    // Swapping the agents replays the same games with the seats exchanged.
    let negamax1 = Agent::Negamax { depth: 1 };
    let ab = run(c4, Agent::Greedy, negamax1, 400, 5, true, 2, 0);
    let ba = run(c4, negamax1, Agent::Greedy, 400, 5, true, 2, 0);
    assert_eq!(
        (ab.total.wins, ab.total.draws, ab.total.losses),
        (ba.total.losses, ba.total.draws, ba.total.wins)
    );
    assert_eq!(ab.seats[0].wins, ba.seats[1].losses);
    assert_eq!(ab.moves, ba.moves);
    // Same agent on both sides: the first seat's edge shows in per-seat results, and
    // a's wins in seat 0 mirror its losses in seat 1 in distribution.
    let same = run(c4, Agent::Random, Agent::Random, 20_000, 2, true, 2, 0);
    let (s0, s1) = (same.seats[0], same.seats[1]);
    assert!(s0.wins > s0.losses && s1.wins < s1.losses, "{same:?}");
    let diff = s0.wins as f64 - s1.losses as f64;
    assert!(
        diff.abs() < 4.0 * (10_000f64 * 0.25).sqrt() * 1.5,
        "{same:?}"
    );
}

#[test]
fn a_cancelled_match_stops() {
    let config = MatchConfig {
        games: 1_000_000,
        first_game: 0,
        seed: 0,
        swap: true,
        threads: 2,
        openings: Openings::Random(0),
        book: None,
        keep: Default::default(),
    };
    let r = play_match(
        Rules::connect_four(),
        &Agent::Random,
        &Agent::Random,
        &config,
        &AtomicU64::new(0),
        &AtomicBool::new(true),
    );
    assert_eq!(r, Err(AgentError::Cancelled));
}

#[test]
fn bad_parameters_are_refused() {
    let c4 = Rules::connect_four();
    let config = MatchConfig {
        games: 10,
        first_game: 0,
        seed: 0,
        swap: true,
        threads: 1,
        openings: Openings::Random(0),
        book: None,
        keep: Default::default(),
    };
    let bad = [
        Agent::Negamax { depth: 0 },
        Agent::Negamax {
            depth: MAX_DEPTH + 1,
        },
        Agent::Perfect {
            temperature: -1.0,
            tt_bytes: 1 << 20,
            threads: 1,
        },
        Agent::Perfect {
            temperature: f64::NAN,
            tt_bytes: 1 << 20,
            threads: 1,
        },
    ];
    for agent in bad {
        let r = play_match(
            c4,
            &agent,
            &Agent::Random,
            &config,
            &AtomicU64::new(0),
            &no_cancel(),
        );
        assert!(
            matches!(r, Err(AgentError::InvalidConfig(_))),
            "{agent:?}: {r:?}"
        );
    }
    let three = Rules::new(7, 6, 4, 3, true).unwrap();
    let perfect = Agent::Perfect {
        temperature: 0.0,
        tt_bytes: 1 << 20,
        threads: 1,
    };
    let r = play_match(
        three,
        &Agent::Random,
        &perfect,
        &config,
        &AtomicU64::new(0),
        &no_cancel(),
    );
    assert!(matches!(r, Err(AgentError::Unsupported(_))));
}

#[test]
fn random_openings_diversify_deterministic_agents_and_are_shared_by_a_round() {
    let c4 = Rules::connect_four();
    let (a, b) = (Agent::Negamax { depth: 3 }, Agent::Negamax { depth: 2 });
    // Without an opening the two searchers replay very few distinct games.
    let plain = run(c4, a, b, 200, 1, true, 2, 0);
    let opened = run(c4, a, b, 200, 1, true, 2, 4);
    assert_eq!(opened.total.games, 200);
    assert_ne!(plain.moves, opened.moves);
    // Both games of a round start from the same opening.
    let config = MatchConfig {
        games: 4,
        first_game: 0,
        seed: 3,
        swap: true,
        threads: 1,
        openings: Openings::Random(6),
        book: None,
        keep: Default::default(),
    };
    let opening = |i: u64| {
        let mut g = Game::new(c4);
        play_opening(&mut g, &config, i);
        g.history().to_vec()
    };
    assert_eq!(opening(0).len(), 6);
    assert_eq!(opening(0), opening(1));
    assert_ne!(opening(1), opening(2));
    // Swap symmetry still holds with openings.
    let ab = run(c4, a, b, 100, 5, true, 2, 4);
    let ba = run(c4, b, a, 100, 5, true, 2, 4);
    assert_eq!(
        (ab.total.wins, ab.total.losses),
        (ba.total.losses, ba.total.wins)
    );
}
