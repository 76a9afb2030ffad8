use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::prove::Prover;
use super::*;
use crate::rng::Rng;
use crate::rules::WinRule;

fn gomoku() -> Rules {
    Rules::gomoku(15).unwrap()
}

fn cell(row: usize, col: usize) -> usize {
    row * 15 + col
}

/// A game of `rules` from the stones of each player (the first player's first),
/// alternating; the longer list may exceed the shorter by one.
fn position(rules: Rules, first: &[usize], second: &[usize]) -> Game {
    let mut moves = Vec::new();
    for i in 0..first.len().max(second.len()) {
        moves.extend(first.get(i));
        moves.extend(second.get(i));
    }
    Game::from_actions(rules, &moves).unwrap()
}

/// The window counts, scores, threat counts and key recomputed from scratch.
fn recomputed(board: &ThreatBoard, game_rules: Rules) -> ThreatBoard {
    let mut fresh = ThreatBoard::new(game_rules);
    for c in 0..board.num_cells() {
        if board.owner(c) != 0 {
            fresh.put(c, board.owner(c) as usize - 1);
        }
    }
    fresh
}

#[test]
fn incremental_board_matches_a_rebuild_on_random_games() {
    let mut rng = Rng::new(11, 0);
    for rules in [
        gomoku(),
        Rules::new(9, 9, 5, 2, false).unwrap(),
        Rules::new(6, 5, 4, 2, false).unwrap(),
        Rules::new(4, 3, 2, 2, false).unwrap(),
        Rules::new(3, 3, 1, 2, false).unwrap(),
    ] {
        for _ in 0..20 {
            let mut board = ThreatBoard::new(rules);
            let mut played = Vec::new();
            while board.winner().is_none() && !board.is_full() {
                let empty: Vec<usize> = (0..board.num_cells())
                    .filter(|&c| board.is_empty(c))
                    .collect();
                let c = empty[rng.below(empty.len() as u32) as usize];
                let (_, wins) = board.four_or_win(c, board.to_move());
                board.play(c);
                played.push(c);
                assert_eq!(board.winner().is_some(), wins);
                assert!(board.live_lists_match());
                let fresh = recomputed(&board, rules);
                assert_eq!(board.hash(), fresh.hash());
                for p in 0..2 {
                    assert_eq!(board.score(p), fresh.score(p));
                    assert_eq!(board.has_threat(p), fresh.has_threat(p));
                    let completes = (0..board.num_cells())
                        .any(|c| board.is_empty(c) && board.four_or_win(c, p).1);
                    assert_eq!(board.has_threat(p), completes, "k = {}", rules.k());
                }
            }
            while let Some(c) = played.pop() {
                board.unplay(c);
                assert!(board.live_lists_match());
            }
            assert_eq!(board.hash(), 0);
            assert_eq!((board.score(0), board.score(1)), (0, 0));
        }
    }
}

/// The lists of live windows follow every make and unmake under each rule
/// (exact lines add flank blocks), and a reload.
#[test]
fn live_window_lists_follow_make_and_unmake_under_every_rule() {
    let mut rng = Rng::new(12, 0);
    for rule in [WinRule::Freestyle, WinRule::Standard, WinRule::Renju] {
        let rules = Rules::gomoku(15).unwrap().with_rule(rule).unwrap();
        for _ in 0..6 {
            let mut board = ThreatBoard::new(rules);
            let mut played = Vec::new();
            while board.winner().is_none() && !board.is_full() && played.len() < 120 {
                let black = board.to_move() == 0;
                let near: Vec<usize> = (0..board.num_cells())
                    .filter(|&c| {
                        board.is_empty(c) && (c / 15).abs_diff(7) < 5 && (c % 15).abs_diff(7) < 5
                    })
                    .collect();
                let near: Vec<usize> = near
                    .into_iter()
                    .filter(|&c| !(black && board.forbidden(c)))
                    .collect();
                if near.is_empty() {
                    break;
                }
                let c = near[rng.below(near.len() as u32) as usize];
                board.play(c);
                played.push(c);
                assert!(board.live_lists_match(), "{rule:?} after {played:?}");
            }
            let game = Game::from_actions(rules, &played).unwrap();
            let mut loaded = ThreatBoard::new(rules);
            loaded.load(&game);
            assert!(loaded.live_lists_match());
            while let Some(c) = played.pop() {
                board.unplay(c);
                assert!(board.live_lists_match(), "{rule:?}");
            }
        }
    }
}

/// Checks that `line` is a VCF for the side to move of `game`: attacker moves are
/// fours, defender moves the forced blocks, the last move completes a line.
fn assert_vcf_line(game: &Game, line: &[usize]) {
    let mut board = ThreatBoard::new(*game.rules());
    board.load(game);
    let attacker = board.to_move();
    assert_eq!(line.len() % 2, 1, "{line:?}");
    for (i, &c) in line.iter().enumerate() {
        assert!(board.is_empty(c), "{line:?}");
        if i % 2 == 0 {
            let (four, win) = board.four_or_win(c, attacker);
            assert_eq!(win, i + 1 == line.len(), "{line:?}");
            assert!(win || four, "{line:?}");
        } else {
            let (block, _) = board.threat_pair(attacker);
            assert!(block.is_some(), "{line:?}");
            assert!(!board.has_threat(1 - attacker), "{line:?}");
        }
        board.play(c);
    }
    assert_eq!(board.winner(), Some(attacker));
}

#[test]
fn finds_a_known_vcf_and_returns_a_legal_line() {
    // The first player: a broken four-to-be on row 7 and a column through (5, 9).
    let game = position(
        gomoku(),
        &[
            cell(7, 5),
            cell(7, 6),
            cell(7, 8),
            cell(5, 9),
            cell(6, 9),
            cell(8, 9),
        ],
        &[
            cell(7, 4),
            cell(0, 0),
            cell(0, 14),
            cell(14, 0),
            cell(14, 14),
            cell(0, 7),
        ],
    );
    let cancel = AtomicBool::new(false);
    let line = find_win(&game, ThreatKind::Vcf, 10, u64::MAX, &cancel)
        .unwrap()
        .expect("a VCF");
    assert_vcf_line(&game, &line);
    // Without the column there is none: row 7 is closed on the left.
    let game = position(
        gomoku(),
        &[cell(7, 5), cell(7, 6), cell(7, 8), cell(2, 2)],
        &[cell(7, 4), cell(0, 0), cell(0, 14), cell(14, 0)],
    );
    assert_eq!(
        find_win(&game, ThreatKind::Vcf, 10, u64::MAX, &cancel).unwrap(),
        None
    );
}

#[test]
fn k_of_one_wins_at_once_on_every_cell() {
    let cancel = AtomicBool::new(false);
    let rules = Rules::new(3, 3, 1, 2, false).unwrap();
    let game = Game::new(rules);
    for kind in [ThreatKind::Vcf, ThreatKind::Vct] {
        let line = find_win(&game, kind, 5, 1000, &cancel).unwrap().unwrap();
        assert_eq!(line.len(), 1);
        assert!(game.wins_at(0, line[0]));
        let all: Vec<usize> = (0..9).collect();
        assert_eq!(winning_moves(&game, kind, 5, 1000, &cancel).unwrap(), all);
    }
}

/// A VCF is a VCT: every first move of a VCF is a first move of a VCT, for
/// every k from 2 up, on random positions (the VCT's own moves come on top).
#[test]
fn vct_winning_moves_include_the_vcf_ones() {
    let cancel = AtomicBool::new(false);
    let mut rng = Rng::new(23, 0);
    let mut found = 0;
    for rules in [
        Rules::new(4, 4, 2, 2, false).unwrap(),
        Rules::new(5, 5, 3, 2, false).unwrap(),
        Rules::new(7, 7, 4, 2, false).unwrap(),
        Rules::new(9, 9, 5, 2, false).unwrap(),
    ] {
        for _ in 0..40 {
            let mut game = Game::new(rules);
            let stones = rng.below(2 * rules.k() as u32) as usize;
            for _ in 0..stones {
                let empty: Vec<usize> = (0..rules.num_actions())
                    .filter(|&a| game.is_legal(a) && !game.wins_at(game.to_move(), a))
                    .collect();
                if empty.is_empty() {
                    break;
                }
                game.play(empty[rng.below(empty.len() as u32) as usize])
                    .unwrap();
            }
            if game.winner().is_some() {
                continue;
            }
            let vcf = winning_moves(&game, ThreatKind::Vcf, 6, 20_000, &cancel).unwrap();
            let vct = winning_moves(&game, ThreatKind::Vct, 6, 20_000, &cancel).unwrap();
            found += vcf.len();
            for cell in &vcf {
                assert!(vct.contains(cell), "{rules}: vcf {vcf:?} vct {vct:?}");
            }
            if !vct.is_empty() {
                let line = find_win(&game, ThreatKind::Vct, 6, 20_000, &cancel).unwrap();
                assert!(
                    line.is_some(),
                    "{rules}: winning_moves {vct:?} but no find_win"
                );
            }
        }
    }
    assert!(found > 0, "no position had a VCF: the test tests nothing");
}

#[test]
fn refuses_vct_on_gravity_and_three_players() {
    let cancel = AtomicBool::new(false);
    for (rules, kind) in [
        (Rules::connect_four(), ThreatKind::Vct),
        (Rules::new(8, 8, 5, 3, false).unwrap(), ThreatKind::Vcf),
        (Rules::new(8, 7, 4, 3, true).unwrap(), ThreatKind::Vcf),
    ] {
        let game = Game::new(rules);
        assert!(matches!(
            find_win(&game, kind, 5, 100, &cancel),
            Err(AgentError::Unsupported(_))
        ));
    }
}

fn engine_move(game: &Game, budget: Budget, seed: u64) -> usize {
    let mut engine = Engine::new(*game.rules());
    engine.choose(
        game,
        budget,
        &mut Rng::new(seed, 0),
        &AtomicBool::new(false),
    )
}

#[test]
fn engine_completes_its_four_and_blocks_the_opponents() {
    // The first player to move holds four on row 7; the second four on row 9.
    let game = position(
        gomoku(),
        &[cell(7, 3), cell(7, 4), cell(7, 5), cell(7, 6), cell(2, 2)],
        &[cell(9, 3), cell(9, 4), cell(9, 5), cell(9, 6), cell(7, 7)],
    );
    let win = engine_move(&game, Budget::Nodes(1000), 0);
    assert_eq!(win, cell(7, 2));
    // The second player to move has no four; the first has one on row 7.
    let game = position(
        gomoku(),
        &[cell(7, 3), cell(7, 4), cell(7, 5), cell(7, 6), cell(12, 12)],
        &[cell(7, 7), cell(9, 4), cell(9, 5), cell(0, 0)],
    );
    assert_eq!(engine_move(&game, Budget::Nodes(1000), 0), cell(7, 2));
}

#[test]
fn engine_is_deterministic_under_a_node_budget() {
    let mut rng = Rng::new(5, 0);
    for _ in 0..5 {
        let mut game = Game::new(gomoku());
        for _ in 0..6 {
            let a = cell(5 + rng.below(5) as usize, 5 + rng.below(5) as usize);
            if game.is_legal(a) {
                game.play(a).unwrap();
            }
        }
        let a = engine_move(&game, Budget::Nodes(20_000), 3);
        assert_eq!(a, engine_move(&game, Budget::Nodes(20_000), 3));
        assert!(game.is_legal(a));
    }
}

/// Whether the opponent of the side that just moved in `game` wins by VCT
/// within depth 20 (100,000 nodes): the engine's move before was a loss.
fn opponent_wins_by_vct(game: &Game) -> bool {
    let cancel = AtomicBool::new(false);
    find_win(game, ThreatKind::Vct, 20, 100_000, &cancel)
        .unwrap()
        .is_some()
}

#[test]
fn the_chosen_move_is_checked_against_the_opponents_longer_vct() {
    // Turning points of games lost to Rapfi under standard: the search's choice
    // lets Rapfi win by a VCT longer than the root's checks see; one move (two
    // in the second) survives.
    let standard = Rules::gomoku_with(15, WinRule::Standard).unwrap();
    let points: [&[usize]; 2] = [
        &[65, 110, 157, 124, 143, 109, 171, 129, 199, 185, 154, 111],
        &[64, 100, 68, 70, 114, 86, 54, 85, 55, 87, 84, 101],
    ];
    for moves in points {
        let game = Game::from_actions(standard, moves).unwrap();
        let choose = |verify: bool| {
            let mut engine = Engine::new(standard);
            // The search these points were found with: with late move reductions
            // it finds a surviving move in the first by itself at this budget.
            engine.set_late_move_reductions(false);
            engine.set_verify_choice(verify);
            let cancel = AtomicBool::new(false);
            let cell = engine.choose(&game, Budget::Nodes(30_000), &mut Rng::new(1, 0), &cancel);
            let mut after = game.clone();
            after.play(cell).unwrap();
            (opponent_wins_by_vct(&after), engine.stats().rejected)
        };
        assert_eq!(
            choose(false),
            (true, 0),
            "unchecked, the search's choice loses"
        );
        let (loses, rejected) = choose(true);
        assert!(!loses && rejected >= 1, "checked, the engine survives");
    }
}

#[test]
fn the_learned_ordering_scores_moves_as_its_fitted_model_does() {
    // The engine's incremental scores against the model's definition (the fit's
    // features, weights applied here), on positions of random games.
    use super::learned_order::{FREESTYLE, PROFILE};
    let w = &FREESTYLE;
    let mut rng = Rng::new(11, 0);
    let mut engine = Engine::new(gomoku());
    engine.set_learned_ordering(true);
    for _ in 0..20 {
        let mut game = Game::new(gomoku());
        let stones = 4 + rng.below(20) as usize;
        while game.stones_on_board() < stones && !game.is_over() {
            let a = cell(3 + rng.below(9) as usize, 3 + rng.below(9) as usize);
            if game.is_legal(a) {
                game.play(a).unwrap();
            }
        }
        if game.is_over() {
            continue;
        }
        let history: Vec<usize> = game.history().iter().map(|&c| c as usize).collect();
        let near = |last: Option<&usize>, c: usize| {
            last.map_or(3, |&l| {
                let d = (l / 15).abs_diff(c / 15).max((l % 15).abs_diff(c % 15));
                d.clamp(1, 4) - 1
            })
        };
        let score = |f: &CandidateFeatures| -> i64 {
            let mut features = [0i64; PROFILE];
            features[f.made_class] = 1;
            features[10 + f.taken_class] = 1;
            for (x, &n) in features[20..30].iter_mut().zip(&f.windows) {
                *x = i64::from(n);
            }
            features[30 + near(history.last(), f.cell)] = 1;
            features[34 + near(history.iter().rev().nth(1), f.cell)] = 1;
            let dot: i64 = features
                .iter()
                .zip(&w.profile)
                .map(|(x, &p)| x * i64::from(p))
                .sum();
            i64::from(w.make[f.made]) + i64::from(w.take[f.taken]) + dot
        };
        let features = engine.candidate_features(&game);
        assert!(!features.is_empty());
        let mut expected: Vec<(i64, usize)> =
            features.iter().map(|f| (-score(f), f.cell)).collect();
        expected.sort();
        let order: Vec<usize> = features.iter().map(|f| f.cell).collect();
        assert_eq!(order, expected.iter().map(|&(_, c)| c).collect::<Vec<_>>());
    }
}

/// Mid-game positions: `stones` random moves near the centre of gomoku 15x15.
fn random_positions(seed: u64, count: usize, stones: usize) -> Vec<Game> {
    let mut rng = Rng::new(seed, 0);
    let mut games = Vec::new();
    while games.len() < count {
        let mut game = Game::new(gomoku());
        for _ in 0..stones {
            let a = cell(4 + rng.below(7) as usize, 4 + rng.below(7) as usize);
            if game.is_legal(a) {
                game.play(a).unwrap();
            }
        }
        if !game.is_over() {
            games.push(game);
        }
    }
    games
}

/// The search statistics of a fresh engine, set up by `configure`, choosing a
/// move in `game` at `nodes`, after checking that the move is legal and that a
/// second engine set up alike chooses it again with the same statistics.
fn stats_of_a_repeatable_choice(
    game: &Game,
    nodes: u64,
    configure: impl Fn(&mut Engine),
) -> SearchStats {
    let cancel = AtomicBool::new(false);
    let choose = || {
        let mut engine = Engine::new(gomoku());
        configure(&mut engine);
        let a = engine.choose(game, Budget::Nodes(nodes), &mut Rng::new(1, 0), &cancel);
        (a, engine.stats())
    };
    let (a, stats) = choose();
    assert!(game.is_legal(a));
    assert_eq!((a, stats), choose(), "a node budget plays the same move");
    stats
}

#[test]
fn shallow_cuts_cut_nodes_when_on_only_and_stay_deterministic() {
    let off = ShallowCuts::default();
    let futility = ShallowCuts {
        futility: true,
        ..off
    };
    let razoring = ShallowCuts {
        razoring: true,
        ..off
    };
    let mut cut = [0; 3];
    for game in random_positions(21, 6, 12) {
        for (count, cuts) in cut.iter_mut().zip([off, futility, razoring]) {
            let stats = stats_of_a_repeatable_choice(&game, 100_000, |e| e.set_shallow_cuts(cuts));
            *count += stats.shallow_cuts;
        }
    }
    assert_eq!(cut[0], 0);
    assert!(cut[1] > 0, "futility pruning cut no node");
    assert!(cut[2] > 0, "razoring cut no node");
}

#[test]
fn late_move_reductions_grow_with_depth_and_place() {
    use super::engine::late_move_reduction as r;
    for depth in 0..=64 {
        assert_eq!(r(depth, 0), 0, "the first move is never reduced");
        for i in 1..12 {
            assert!(r(depth, i) >= r(depth, i - 1) && r(depth + 1, i) >= r(depth, i));
        }
    }
    // floor(ln(depth) ln(i + 1)), worked by hand.
    assert_eq!(
        (r(2, 11), r(3, 2), r(3, 3), r(4, 5), r(4, 11), r(9, 11)),
        (1, 1, 1, 2, 3, 5)
    );
}

#[test]
fn late_move_reductions_search_deeper_at_a_node_budget() {
    // Each position searched with and without the reductions: the same
    // budget completes deeper iterations with them.
    let (mut with, mut without) = (0, 0);
    for game in random_positions(23, 6, 12) {
        for (on, depths) in [(true, &mut with), (false, &mut without)] {
            let stats =
                stats_of_a_repeatable_choice(&game, 60_000, |e| e.set_late_move_reductions(on));
            *depths += stats.depth;
        }
    }
    assert!(
        with > without,
        "depths {with} with the reductions, {without} without"
    );
}

/// Speed figures for docs/threats.md: `cargo test --release --lib threats::tests::speed -- --ignored --nocapture`
/// (`INAROW_SPEED_RULES=freestyle,standard,renju` picks the rules; freestyle alone by default).
#[test]
#[ignore]
fn speed() {
    let names = std::env::var("INAROW_SPEED_RULES").unwrap_or_else(|_| "freestyle".into());
    for name in names.split(',') {
        let rule = crate::rules::WinRule::from_name(name.trim()).expect("a rule name");
        println!("rule={rule}");
        speed_of(Rules::gomoku_with(15, rule).unwrap());
    }
}

fn speed_of(rules: Rules) {
    let mut rng = Rng::new(7, 0);
    let mut games = Vec::new();
    while games.len() < 50 {
        let mut game = Game::new(rules);
        for _ in 0..14 {
            let a = cell(4 + rng.below(7) as usize, 4 + rng.below(7) as usize);
            if game.is_legal(a) {
                game.play(a).unwrap();
            }
        }
        if !game.is_over() {
            games.push(game);
        }
    }
    let cancel = AtomicBool::new(false);
    // The finder on denser positions (more fours to try), one set of tables for all.
    let mut dense = Vec::new();
    while dense.len() < 500 {
        let mut game = Game::new(rules);
        for _ in 0..24 {
            let a = cell(4 + rng.below(7) as usize, 4 + rng.below(7) as usize);
            if game.is_legal(a) {
                game.play(a).unwrap();
            }
        }
        if !game.is_over() {
            dense.push(game);
        }
    }
    let mut tables = ProverTables::new();
    let mut board = ThreatBoard::new(rules);
    let (mut nodes, mut found) = (0u64, 0);
    let start = Instant::now();
    for game in &dense {
        board.load(game);
        let stop = Stop {
            max_nodes: 1_000_000,
            deadline: None,
            cancel: &cancel,
        };
        let mut prover = Prover::new(&mut board, &mut tables, &stop);
        let mut line = Vec::new();
        found += prover.vcf(game.to_move(), 30, 0, &mut line) as usize;
        nodes += prover.nodes;
    }
    let t = start.elapsed().as_secs_f64();
    println!(
        "VCF: {} positions, {found} wins, {nodes} nodes, {:.1} us per answer, {:.0} nodes/s",
        dense.len(),
        t * 1e6 / dense.len() as f64,
        nodes as f64 / t
    );
    // Make/unmake with the incremental evaluation against a plain stone placement.
    let mut board = ThreatBoard::new(rules);
    board.load(&games[0]);
    let empty: Vec<usize> = (0..board.num_cells())
        .filter(|&c| board.is_empty(c))
        .collect();
    let reps = 2_000;
    let start = Instant::now();
    let mut sink = 0i64;
    for _ in 0..reps {
        for &c in &empty {
            board.play(c);
            sink += board.score(0);
            board.unplay(c);
        }
    }
    let incremental = start.elapsed().as_secs_f64() / (reps * empty.len()) as f64;
    let mut plain = games[0].clone();
    let start = Instant::now();
    for _ in 0..reps {
        for &c in &empty {
            plain.play_unchecked(c);
            sink += plain.stones_on_board() as i64;
            plain.undo().unwrap();
        }
    }
    let plain_t = start.elapsed().as_secs_f64() / (reps * empty.len()) as f64;
    println!(
        "make+unmake: incremental {:.1} ns, Game play+undo {:.1} ns ({sink})",
        incremental * 1e9,
        plain_t * 1e9
    );
    // INAROW_SPEED_THREADS=1,4,16 measures other thread counts.
    let counts = std::env::var("INAROW_SPEED_THREADS").unwrap_or_else(|_| "1,2".into());
    // INAROW_SPEED_NODES=N searches N nodes a move instead of 0.5 s (for instruction counts).
    let budget = match std::env::var("INAROW_SPEED_NODES") {
        Ok(n) => Budget::Nodes(n.parse().expect("a node count")),
        Err(_) => Budget::Time(std::time::Duration::from_millis(500)),
    };
    // INAROW_SPEED_PATTERNS=0 measures the engine without its cell patterns,
    // `order` with the pattern ordering alone (no four gate), `lines` with the
    // line evaluation instead of the learned one.
    let patterns = std::env::var("INAROW_SPEED_PATTERNS").unwrap_or_default();
    for threads in counts
        .split(',')
        .map(|t| t.trim().parse::<usize>().unwrap())
    {
        let mut engine = Engine::new(rules);
        match patterns.as_str() {
            "0" => {
                engine.set_pattern_ordering(false);
                engine.set_pattern_evaluation(false);
            }
            "order" => engine.set_four_gate(false),
            "lines" => engine.set_learned_evaluation(false),
            _ => {}
        }
        // INAROW_SPEED_PVS=0 measures the engine without principal-variation search.
        if std::env::var("INAROW_SPEED_PVS").is_ok_and(|v| v == "0") {
            engine.set_principal_variation(false);
        }
        // INAROW_SPEED_LMR=0 measures it without late move reductions.
        if std::env::var("INAROW_SPEED_LMR").is_ok_and(|v| v == "0") {
            engine.set_late_move_reductions(false);
        }
        let (mut total, mut secs, mut depths) = (0u64, 0.0, 0);
        for game in games.iter().take(10) {
            let start = Instant::now();
            engine.choose_with_threads(game, budget, threads, &mut Rng::new(0, 0), &cancel);
            secs += start.elapsed().as_secs_f64();
            let s = engine.stats();
            total += s.search_nodes + s.threat_nodes;
            depths += s.depth;
            println!(
                "engine, {threads} threads: depth {} threat nodes {} search nodes {} proven {} in {:.3} s",
                s.depth,
                s.threat_nodes,
                s.search_nodes,
                s.proven_win,
                start.elapsed().as_secs_f64()
            );
        }
        println!(
            "engine, {threads} threads: {:.0} nodes/s, mean depth {:.1}",
            total as f64 / secs,
            depths as f64 / 10.0
        );
    }
}

/// [`late_move_sequence`] against a move whose value is `shallow` searched less
/// than `full` plies and `deep` at `full` plies or more: the searches it asks for,
/// `(depth, alpha, beta)`, and the value it returns.
fn late_move_calls(
    reduction: u32,
    window: (i32, i32),
    null_window_first: bool,
    (shallow, deep): (i32, i32),
) -> (Vec<(u32, i32, i32)>, i32) {
    use super::engine::late_move_sequence;
    const FULL: u32 = 6;
    let mut calls = Vec::new();
    let v = late_move_sequence(FULL, reduction, window, null_window_first, |d, a, b| {
        calls.push((d, a, b));
        // A fail-soft search: the true value, whatever the window.
        (if d >= FULL { deep } else { shallow }, false)
    });
    (calls, v)
}

#[test]
fn a_reduced_move_that_beats_alpha_is_searched_again_at_full_depth() {
    // Reduced, it looks better than alpha (10); at full depth it is worse: the
    // full-depth value stands, never the reduced one.
    let (calls, v) = late_move_calls(2, (10, 50), true, (30, 5));
    assert_eq!(calls, [(4, 10, 11), (6, 10, 11)]);
    assert_eq!(v, 5);
    // Better at full depth too: the null window, then the whole window.
    let (calls, v) = late_move_calls(2, (10, 50), true, (30, 40));
    assert_eq!(calls, [(4, 10, 11), (6, 10, 11), (6, 10, 50)]);
    assert_eq!(v, 40);
    // No better than alpha reduced: kept, no deeper search.
    let (calls, v) = late_move_calls(2, (10, 50), true, (10, 40));
    assert_eq!((calls, v), (vec![(4, 10, 11)], 10));
    // Without principal-variation search, the whole window after the reduced one.
    let (calls, v) = late_move_calls(1, (10, 50), false, (30, 20));
    assert_eq!((calls, v), (vec![(5, 10, 11), (6, 10, 50)], 20));
    // Unreduced, at or above beta on the null window: no whole-window search.
    let (calls, v) = late_move_calls(0, (10, 50), true, (0, 60));
    assert_eq!((calls, v), (vec![(6, 10, 11)], 60));
    // A null window at the node already: one search.
    let (calls, v) = late_move_calls(0, (10, 11), true, (0, 30));
    assert_eq!((calls, v), (vec![(6, 10, 11)], 30));
}

#[test]
fn a_halted_search_is_not_searched_again() {
    use super::engine::late_move_sequence;
    let mut calls = 0;
    let v = late_move_sequence(6, 2, (10, 50), true, |_, _, _| {
        calls += 1;
        (99, true)
    });
    assert_eq!((calls, v), (1, 99));
}
