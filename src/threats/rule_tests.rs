//! The threat searches and the engine under the standard and renju rules,
//! checked against the game itself (`Game`, the rules' referee): the board's
//! threats and wins, every claimed win replayed against every defence, and
//! black's moves under renju.

use std::sync::atomic::AtomicBool;

use super::*;
use crate::rng::Rng;
use crate::rules::WinRule;

fn rules(size: i64, rule: WinRule) -> Rules {
    Rules::new(size, size, 5, 2, false)
        .unwrap()
        .with_rule(rule)
        .unwrap()
}

/// A position of `rules` from rows of `x` (the first player), `o` and `.` (as
/// many `x` as `o`, or one more), the rest of the board empty.
fn drawn(rules: Rules, rows: &[&str]) -> Game {
    let w = rules.width();
    let mut cells = vec![0u8; rules.num_cells()];
    for (r, line) in rows.iter().enumerate() {
        for (c, ch) in line.chars().enumerate() {
            cells[r * w + c] = match ch {
                'x' => 1,
                'o' => 2,
                _ => 0,
            };
        }
    }
    Game::from_cells(rules, &cells).unwrap_or_else(|e| panic!("{rows:?}: {e}"))
}

/// A random game of `rules` with `stones` stones played near the centre, none
/// completing a line; `None` when it ended or got stuck.
fn clustered(rules: Rules, stones: usize, rng: &mut Rng) -> Option<Game> {
    let mut game = Game::new(rules);
    let (w, h) = (rules.width(), rules.height());
    let span = 7.min(w);
    let (r0, c0) = ((h - span) / 2, (w - span) / 2);
    for _ in 0..stones {
        let p = game.to_move();
        let options: Vec<usize> = (0..span * span)
            .map(|i| (r0 + i / span) * w + c0 + i % span)
            .filter(|&a| game.is_legal(a) && !game.wins_at(p, a))
            .collect();
        if options.is_empty() {
            return None;
        }
        game.play(options[rng.below(options.len() as u32) as usize])
            .unwrap();
    }
    (!game.is_over()).then_some(game)
}

#[test]
fn the_board_threatens_and_wins_where_the_game_does() {
    let mut rng = Rng::new(41, 0);
    for rule in [WinRule::Standard, WinRule::Renju] {
        for size in [9, 15] {
            let rules = rules(size, rule);
            for _ in 0..12 {
                let mut game = Game::new(rules);
                let mut board = ThreatBoard::new(rules);
                while !game.is_over() {
                    let legal = game.legal_actions();
                    // Near the centre mostly, so that lines and overlines form.
                    let near: Vec<usize> = legal
                        .iter()
                        .copied()
                        .filter(|&a| {
                            let (r, c) = (a / size as usize, a % size as usize);
                            r.abs_diff(size as usize / 2) <= 3 && c.abs_diff(size as usize / 2) <= 3
                        })
                        .collect();
                    let pool = if near.is_empty() { &legal } else { &near };
                    let a = pool[rng.below(pool.len() as u32) as usize];
                    let mover = game.to_move();
                    assert_eq!(board.four_or_win(a, mover).1, game.wins_at(mover, a));
                    game.play(a).unwrap();
                    board.play(a);
                    assert_eq!(board.winner(), game.winner(), "{rules}");
                    let fresh = {
                        let mut b = ThreatBoard::new(rules);
                        b.load(&game);
                        b
                    };
                    for p in 0..2 {
                        let completes = (0..board.num_cells())
                            .filter(|&c| board.is_empty(c))
                            .any(|c| game.wins_at(p, c));
                        if game.winner().is_none() {
                            assert_eq!(board.has_threat(p), completes, "{rules} player {p}");
                        }
                        assert_eq!(board.score(p), fresh.score(p));
                        assert_eq!(board.has_threat(p), fresh.has_threat(p));
                    }
                    if rule == WinRule::Renju && !game.is_over() {
                        for c in 0..board.num_cells() {
                            if board.is_empty(c) {
                                assert_eq!(board.forbidden(c), game.forbidden(c).is_some(), "{c}");
                            }
                        }
                    }
                }
            }
        }
    }
}

/// How many searches a replay may ask for before it gives up (a bound on the
/// test's time; a replay given up proves nothing and is not counted).
const REPLAY_SEARCHES: usize = 4000;

/// Replays a claimed win of `kind` within `depth` for the side to move of `game`
/// against every defence, with the game as referee: at each attacker turn the
/// first move of `find_win` (which must find one) is played (it must be legal);
/// at each defender turn every legal reply is tried, and the attacker must then
/// have completed a line, complete one at once, or win again within one move
/// less. `Err` on a refutation, `Ok(false)` when the budget of searches ran out.
fn replay(
    game: &mut Game,
    kind: ThreatKind,
    depth: u32,
    searches: &mut usize,
) -> Result<bool, String> {
    let attacker = game.to_move();
    if *searches == 0 {
        return Ok(false);
    }
    *searches -= 1;
    let cancel = AtomicBool::new(false);
    let line = find_win(game, kind, depth, u64::MAX, &cancel)
        .unwrap()
        .ok_or_else(|| format!("no win of depth {depth} found at {:?}", game.history()))?;
    let first = line[0];
    game.play(first)
        .map_err(|e| format!("the attacker's move {first} at {:?}: {e}", game.history()))?;
    let result = (|| {
        if game.winner() == Some(attacker) {
            return Ok(true);
        }
        if game.is_over() {
            return Err(format!("a draw after {first} at {:?}", game.history()));
        }
        for reply in game.legal_actions() {
            game.play(reply).unwrap();
            let outcome = if game.is_over() {
                Err(format!(
                    "the defence {reply} ends the game at {:?}",
                    game.history()
                ))
            } else if game.count_wins(attacker, 1) > 0 {
                Ok(true)
            } else if depth <= 1 {
                Err(format!("the defence {reply} holds at {:?}", game.history()))
            } else {
                replay(game, kind, depth - 1, searches)
            };
            game.undo().unwrap();
            if !outcome? {
                return Ok(false);
            }
        }
        Ok(true)
    })();
    game.undo().unwrap();
    result
}

/// Every VCF and VCT that the searches claim on random clustered positions
/// under standard and renju wins against every defence the game allows.
#[test]
fn every_claimed_win_wins_against_every_defence() {
    let mut rng = Rng::new(57, 0);
    for rule in [WinRule::Standard, WinRule::Renju] {
        let rules = rules(11, rule);
        let mut replayed = [0usize; 2];
        let mut by_player = [0usize; 2];
        let mut tries = 0;
        while replayed.iter().sum::<usize>() < 24 && tries < 400 {
            tries += 1;
            let Some(mut game) = clustered(rules, 10 + rng.below(14) as usize, &mut rng) else {
                continue;
            };
            let cancel = AtomicBool::new(false);
            for (k, (kind, depth)) in [(ThreatKind::Vcf, 8), (ThreatKind::Vct, 4)]
                .into_iter()
                .enumerate()
            {
                if find_win(&game, kind, depth, 200_000, &cancel)
                    .unwrap()
                    .is_none()
                {
                    continue;
                }
                let mut searches = REPLAY_SEARCHES;
                match replay(&mut game, kind, depth, &mut searches) {
                    Ok(true) => {
                        replayed[k] += 1;
                        by_player[game.to_move()] += 1;
                    }
                    Ok(false) => {}
                    Err(refutation) => panic!("{rules} {kind:?}: {refutation}"),
                }
            }
        }
        assert!(
            replayed[0] >= 8 && replayed[1] >= 4 && by_player[0] > 0 && by_player[1] > 0,
            "{rules}: too few wins replayed (vcf, vct {replayed:?}; black, white {by_player:?})"
        );
    }
}

/// Under renju every move the searches and the engine give black is one black may play.
#[test]
fn black_never_gets_a_forbidden_move_under_renju() {
    let rules = rules(15, WinRule::Renju);
    let mut rng = Rng::new(59, 0);
    let cancel = AtomicBool::new(false);
    let mut judged = 0;
    let mut forbidden_seen = 0;
    for _ in 0..150 {
        let Some(game) = clustered(rules, 12 + 2 * rng.below(8) as usize, &mut rng) else {
            continue;
        };
        if game.to_move() != 0 {
            continue;
        }
        forbidden_seen += usize::from(!game.forbidden_actions().is_empty());
        for kind in [ThreatKind::Vcf, ThreatKind::Vct] {
            for a in winning_moves(&game, kind, 6, 20_000, &cancel).unwrap() {
                assert!(
                    game.is_legal(a),
                    "{kind:?} move {a} at {:?}",
                    game.history()
                );
            }
        }
        let mut engine = Engine::new(rules);
        let a = engine.choose(&game, Budget::Nodes(3_000), &mut Rng::new(1, 0), &cancel);
        assert!(game.is_legal(a), "engine move {a} at {:?}", game.history());
        judged += 1;
    }
    assert!(
        judged > 40 && forbidden_seen > 5,
        "{judged} positions, {forbidden_seen} with forbidden cells"
    );
}

#[test]
fn a_four_that_would_make_an_overline_is_no_threat_where_lines_are_exact() {
    // Black, to move: x x x . x x on row 4. Filling the gap makes six.
    let rows = [
        "o.........o",
        "...........",
        "...........",
        "...........",
        ".xxx.xx....",
        "...........",
        "o..........",
        "...........",
        "...........",
        "...........",
        "o.........o",
    ];
    let gap = 4 * 11 + 4;
    let cancel = AtomicBool::new(false);
    for rule in [WinRule::Freestyle, WinRule::Standard, WinRule::Renju] {
        let game = drawn(rules(11, rule), &rows);
        assert_eq!(game.to_move(), 0);
        let free = rule == WinRule::Freestyle;
        let mut board = ThreatBoard::new(*game.rules());
        board.load(&game);
        assert_eq!(board.has_threat(0), free, "{rule}");
        assert_eq!(board.four_or_win(gap, 0).1, free);
        assert_eq!(game.wins_at(0, gap), free);
        let completing = winning_moves(&game, ThreatKind::Vcf, 1, 10_000, &cancel).unwrap();
        assert_eq!(completing, if free { vec![gap] } else { vec![] }, "{rule}");
    }
    // White's stones in the same shape: no threat under standard, a threat under
    // renju (white's lines are five or more).
    let rows = [
        "x.........x",
        "...........",
        "...........",
        "...........",
        ".ooo.oo....",
        "...........",
        "x..........",
        "...........",
        "...........",
        "...........",
        "x.........x",
    ];
    for (rule, threat) in [(WinRule::Standard, false), (WinRule::Renju, true)] {
        let game = drawn(rules(11, rule), &rows);
        let mut board = ThreatBoard::new(*game.rules());
        board.load(&game);
        assert_eq!(board.has_threat(1), threat, "{rule}");
        assert_eq!(game.wins_at(1, gap), threat, "{rule}");
    }
}

#[test]
fn a_white_four_whose_block_is_forbidden_to_black_wins_under_renju() {
    // (4, 6) is a double three for black (column 6 and row 4). White's diagonal
    // through it, closed by black at (8, 10): white's stone at (3, 5) makes a four
    // completed at (4, 6) only.
    let rows = [
        "...........",
        "...........",
        "......x....",
        "......x....",
        "....xx.....",
        ".......o...",
        "........o..",
        ".........o.",
        "..........x",
        "...........",
        "o..........",
    ];
    let cancel = AtomicBool::new(false);
    let renju = drawn(rules(11, WinRule::Renju), &rows);
    let block = 4 * 11 + 6;
    assert!(renju.forbidden(block).is_some(), "the test's premise");
    assert_eq!(renju.to_move(), 1);
    let line = find_win(&renju, ThreatKind::Vcf, 2, 10_000, &cancel)
        .unwrap()
        .expect("the four wins: black may not block it");
    assert_eq!(
        (line[0], line.len(), line[2]),
        (3 * 11 + 5, 3, block),
        "{line:?}"
    );
    let mut searches = REPLAY_SEARCHES;
    assert_eq!(
        replay(&mut renju.clone(), ThreatKind::Vcf, 2, &mut searches),
        Ok(true)
    );
    // Under standard black blocks there: no win in two.
    let standard = drawn(rules(11, WinRule::Standard), &rows);
    assert_eq!(
        find_win(&standard, ThreatKind::Vcf, 2, 10_000, &cancel).unwrap(),
        None
    );
}

#[test]
fn a_black_win_through_a_forbidden_cell_is_no_win_under_renju() {
    // Black to move: (4, 6) makes two fours (row 4 and column 6), a win under
    // standard, a double four under renju.
    let rows = [
        "...........",
        "......x....",
        "......x....",
        "......x....",
        "...xxx.....",
        "...........",
        "...........",
        "...........",
        "o.o.o.o....",
        "...........",
        "o.........o",
    ];
    let cell = 4 * 11 + 6;
    let cancel = AtomicBool::new(false);
    let standard = drawn(rules(11, WinRule::Standard), &rows);
    assert_eq!(standard.to_move(), 0);
    let wins = winning_moves(&standard, ThreatKind::Vcf, 3, 10_000, &cancel).unwrap();
    assert!(wins.contains(&cell), "{wins:?}");
    let renju = drawn(rules(11, WinRule::Renju), &rows);
    assert!(renju.forbidden(cell).is_some(), "the test's premise");
    for kind in [ThreatKind::Vcf, ThreatKind::Vct] {
        let wins = winning_moves(&renju, kind, 3, 10_000, &cancel).unwrap();
        assert!(!wins.contains(&cell), "{kind:?}: {wins:?}");
        if let Some(line) = find_win(&renju, kind, 3, 10_000, &cancel).unwrap() {
            assert_ne!(line[0], cell);
        }
    }
}

#[test]
fn the_engine_is_deterministic_under_a_node_budget_under_every_rule() {
    let mut rng = Rng::new(61, 0);
    let cancel = AtomicBool::new(false);
    for rule in [WinRule::Standard, WinRule::Renju] {
        let rules = rules(15, rule);
        let mut played = 0;
        while played < 4 {
            let Some(game) = clustered(rules, 6 + rng.below(8) as usize, &mut rng) else {
                continue;
            };
            let choose = || {
                Engine::new(rules).choose(
                    &game,
                    Budget::Nodes(20_000),
                    &mut Rng::new(3, 0),
                    &cancel,
                )
            };
            let a = choose();
            assert_eq!(a, choose(), "{rules}");
            assert!(game.is_legal(a));
            played += 1;
        }
    }
}

/// The column search under standard (gravity boards): every claimed win replays
/// against every defence.
#[test]
fn column_wins_under_standard_win_against_every_defence() {
    let rules = Rules::new(7, 6, 4, 2, true)
        .unwrap()
        .with_rule(WinRule::Standard)
        .unwrap();
    let mut rng = Rng::new(67, 0);
    let cancel = AtomicBool::new(false);
    let mut replayed = 0;
    for _ in 0..300 {
        let mut game = Game::new(rules);
        for _ in 0..(6 + rng.below(14)) {
            let p = game.to_move();
            let options: Vec<usize> = (0..7)
                .filter(|&a| game.is_legal(a) && !game.wins_at(p, a))
                .collect();
            if options.is_empty() {
                break;
            }
            game.play(options[rng.below(options.len() as u32) as usize])
                .unwrap();
        }
        if game.is_over()
            || find_win(&game, ThreatKind::Vcf, 6, 100_000, &cancel)
                .unwrap()
                .is_none()
        {
            continue;
        }
        let mut searches = REPLAY_SEARCHES;
        match replay(&mut game, ThreatKind::Vcf, 6, &mut searches) {
            Ok(true) => replayed += 1,
            Ok(false) => {}
            Err(refutation) => panic!("{rules}: {refutation}"),
        }
    }
    assert!(replayed >= 10, "{replayed} wins replayed");
}
