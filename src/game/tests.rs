//! Unit tests of the game: known games, round trips, brute-force oracles.

use super::*;
use crate::error::MoveError;

fn game(w: i64, h: i64, k: i64, p: i64, gravity: bool) -> Game {
    Game::new(Rules::new(w, h, k, p, gravity).unwrap())
}

#[test]
fn the_article_game_wins_on_the_last_move() {
    let mut g = game(8, 6, 4, 2, true);
    let actions = [3, 2, 4, 3, 5, 6, 5, 4, 5, 5, 6, 4];
    for (i, &a) in actions.iter().enumerate() {
        let won = g.play(a).unwrap();
        assert_eq!(won, i == actions.len() - 1);
    }
    assert_eq!(g.winner(), Some(1));
    assert!(matches!(g.play(0), Err(MoveError::GameOver { .. })));
}

#[test]
fn a_line_completed_by_its_middle_stone_wins_on_wide_boards() {
    let mut g = game(8, 8, 5, 3, false);
    // Player 0 fills row 7 cols 0,1,3,4 then the middle col 2.
    let p0 = [56, 57, 59, 60, 58];
    let others = [0, 1, 2, 3, 8, 9, 10, 11];
    let mut o = others.iter();
    for (i, &a) in p0.iter().enumerate() {
        assert_eq!(g.play(a).unwrap(), i == 4);
        if i < 4 {
            g.play(*o.next().unwrap()).unwrap();
            g.play(*o.next().unwrap()).unwrap();
        }
    }
    assert_eq!(g.winner(), Some(0));
    let line = g.winning_line().unwrap();
    assert_eq!(line, vec![(7, 0), (7, 1), (7, 2), (7, 3), (7, 4)]);
}

#[test]
fn undo_restores_exactly() {
    let mut g = game(7, 6, 4, 2, true);
    let before = g.clone();
    for a in [3, 3, 2, 4, 1, 0, 0] {
        g.play(a).unwrap();
    }
    for _ in 0..7 {
        g.undo().unwrap();
    }
    assert_eq!(g, before);
    assert_eq!(g.hash(), 0);
    assert_eq!(g.undo(), Err(MoveError::NothingToUndo));
}

#[test]
fn errors_leave_the_game_unchanged() {
    let mut g = game(3, 2, 2, 2, true);
    g.play(0).unwrap();
    g.play(0).unwrap();
    let before = g.clone();
    assert_eq!(g.play(0), Err(MoveError::ColumnFull { column: 0 }));
    assert_eq!(
        g.play(3),
        Err(MoveError::OutOfRange {
            action: 3,
            num_actions: 3
        })
    );
    assert_eq!(g, before);
    assert_eq!(g.history(), before.history());
}

#[test]
fn from_cells_round_trips_and_refuses_impossible_positions() {
    let rules = Rules::connect_four();
    let g = Game::from_actions(rules, &[3, 3, 4, 2]).unwrap();
    let mut cells = vec![0i8; 42];
    g.write_cells(&mut cells);
    let cells: Vec<u8> = cells.iter().map(|&c| c as u8).collect();
    let back = Game::from_cells(rules, &cells).unwrap();
    assert_eq!(back, g);
    assert_eq!(back.hash(), g.hash());
    assert_eq!(back.to_move(), 0);

    let mut floating = vec![0u8; 42];
    floating[0] = 1;
    assert!(Game::from_cells(rules, &floating).is_err());
    let mut too_many = vec![0u8; 42];
    too_many[41] = 2;
    assert!(Game::from_cells(rules, &too_many).is_err());
    let mut bad_owner = vec![0u8; 42];
    bad_owner[41] = 3;
    assert!(Game::from_cells(rules, &bad_owner).is_err());
    // Two separate vertical lines for player 1: no single move made both.
    let mut two_lines = vec![0u8; 42];
    for row in 2..6 {
        two_lines[row * 7] = 1;
        two_lines[row * 7 + 6] = 1;
    }
    for (row, col) in [(5, 1), (5, 2), (5, 3), (5, 5), (4, 1), (4, 2), (4, 3)] {
        two_lines[row * 7 + col] = 2;
    }
    assert!(Game::from_cells(rules, &two_lines)
        .unwrap_err()
        .0
        .contains("single last move"));
}

/// Line detection, hashes, masks and cells against brute force on random games, on
/// the one-word path (7x7, 49 bits) and the multi-word path (10x9, 100 bits).
#[test]
fn one_word_and_multi_word_paths_agree_with_brute_force() {
    for (rules, words) in [
        (Rules::new(7, 7, 4, 3, false).unwrap(), 1),
        (Rules::new(10, 9, 4, 3, false).unwrap(), 2),
    ] {
        assert_eq!(Game::new(rules).stones(0).len(), words);
        random_games_agree_with_brute_force(rules);
    }
}

fn random_games_agree_with_brute_force(rules: Rules) {
    let mut rng = crate::rng::Rng::new(7, 0);
    for _ in 0..200 {
        let mut g = Game::new(rules);
        while !g.is_over() {
            let legal = g.legal_actions();
            let a = legal[rng.below(legal.len() as u32) as usize];
            g.play(a).unwrap();
            assert_eq!(g.hash(), g.recompute_hash());
            let brute = brute_force_winner(&g);
            assert_eq!(brute, g.winner());
            let mut mask = vec![false; rules.num_actions()];
            g.write_legal_mask(&mut mask);
            let from_mask: Vec<usize> = (0..mask.len()).filter(|&a| mask[a]).collect();
            assert_eq!(from_mask, g.legal_actions());
            let mut cells = vec![0i8; rules.num_cells()];
            g.write_cells(&mut cells);
            for (i, &c) in cells.iter().enumerate() {
                assert_eq!(c as u8, g.owner(i / rules.width(), i % rules.width()));
            }
        }
    }
}

fn brute_force_winner(g: &Game) -> Option<usize> {
    let r = g.rules();
    let (w, h, k) = (r.width() as i64, r.height() as i64, r.k() as i64);
    for row in 0..h {
        for col in 0..w {
            let o = g.owner(row as usize, col as usize);
            if o == 0 {
                continue;
            }
            for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                let ok = (0..k).all(|i| {
                    let (rr, cc) = (row + dr * i, col + dc * i);
                    (0..h).contains(&rr)
                        && (0..w).contains(&cc)
                        && g.owner(rr as usize, cc as usize) == o
                });
                if ok {
                    return Some(o as usize - 1);
                }
            }
        }
    }
    None
}

#[test]
fn returns_are_plus_one_for_the_winner_and_minus_one_for_the_others() {
    let mut g = game(3, 4, 3, 3, true);
    let mut out = [9.0f32; 3];
    g.write_returns(&mut out);
    assert_eq!(out, [0.0, 0.0, 0.0]); // running
    for a in [0, 1, 2, 0, 1, 2, 0] {
        g.play(a).unwrap();
    }
    assert_eq!(g.winner(), Some(0));
    g.write_returns(&mut out);
    assert_eq!(out, [1.0, -1.0, -1.0]);
    let mut draw = game(3, 3, 3, 2, false);
    for a in [0, 1, 2, 4, 3, 5, 7, 6, 8] {
        draw.play(a).unwrap();
    }
    assert!(draw.is_draw());
    let mut two = [9.0f32; 2];
    draw.write_returns(&mut two);
    assert_eq!(two, [0.0, 0.0]);
}

#[test]
fn planes_of_any_player_rotate_the_planes_of_the_side_to_move() {
    for (w, h, k, p, gravity) in [
        (7, 6, 4, 3, true),
        (9, 9, 5, 4, false),
        (20, 3, 3, 2, false),
    ] {
        let mut g = game(w, h, k, p, gravity);
        for a in [0, 1, 2, 3, 4] {
            g.play(a).unwrap();
        }
        let cells = (w * h) as usize;
        let players = p as usize;
        let mut mover = vec![0u8; players * cells];
        g.write_planes(&mut mover, 0, 1);
        for view in 0..players {
            let mut planes = vec![0u8; players * cells];
            g.write_planes_as(view, &mut planes, 0, 1);
            for plane in 0..players {
                // plane `plane` of `view` is the stones of player (view + plane) % p,
                // which is plane (view + plane - to_move) mod p of the side to move.
                let of_mover = (view + plane + players - g.to_move()) % players;
                assert_eq!(
                    planes[plane * cells..(plane + 1) * cells],
                    mover[of_mover * cells..(of_mover + 1) * cells]
                );
            }
        }
    }
}

/// A game of `rule` on a `size` x `size` board set up from rows of `x` (the first
/// player), `o` and `.`.
fn ruled(rule: crate::WinRule, rows: &[&str]) -> Game {
    let size = rows.len() as i64;
    let rules = Rules::gomoku_with(size, rule).unwrap();
    let cells: Vec<u8> = rows
        .iter()
        .flat_map(|r| r.chars())
        .map(|c| match c {
            'x' => 1,
            'o' => 2,
            _ => 0,
        })
        .collect();
    Game::from_cells(rules, &cells).unwrap()
}

#[test]
fn standard_wins_with_exactly_k_and_plays_on_after_an_overline() {
    use crate::WinRule::Standard;
    let mut rows = vec!["........."; 9];
    rows[0] = "xxx.xx...";
    rows[8] = "o.o.o.o.o";
    let mut g = ruled(Standard, &rows);
    assert_eq!(
        g.play(3),
        Ok(false),
        "six in a row is no line under standard"
    );
    assert!(!g.is_over() && g.winner().is_none());
    rows[0] = "xxx.x....";
    rows[8] = "o.o.o.o..";
    let mut g = ruled(Standard, &rows);
    assert_eq!(g.play(3), Ok(true));
    assert_eq!(g.winning_line().unwrap().len(), 5);
    // The same six under freestyle wins.
    let six = Game::from_actions(
        Rules::gomoku(9).unwrap(),
        &[0, 80, 1, 79, 2, 78, 4, 77, 5, 75],
    )
    .unwrap();
    let mut free = six.clone();
    assert_eq!(free.play(3), Ok(true));
}

#[test]
fn renju_refuses_black_forbidden_cells_and_leaves_the_game_unchanged() {
    use crate::WinRule::Renju;
    let mut rows = vec!["........."; 9];
    rows[4] = "xxx.xx...";
    rows[8] = "o.o.o.o.o";
    let mut g = ruled(Renju, &rows);
    let before = g.clone();
    let err = g.play(4 * 9 + 3).unwrap_err();
    assert!(matches!(
        err,
        MoveError::Forbidden {
            action: 39,
            row: 4,
            col: 3,
            kind: crate::Forbidden::Overline
        }
    ));
    assert!(err.to_string().contains("overline"), "{err}");
    assert_eq!(g, before);
    assert_eq!(g.hash(), before.hash());
    assert_eq!(
        g.forbidden_actions(),
        vec![(39, crate::Forbidden::Overline)]
    );
    assert!(!g.is_legal(39) && g.forbidden(39).is_some());
    // Legal actions: every empty cell but the forbidden one, in the mask too, and
    // every random move is legal.
    let empty: Vec<usize> = (0..81)
        .filter(|&a| g.owner(a / 9, a % 9) == 0 && a != 39)
        .collect();
    assert_eq!(g.legal_actions(), empty);
    assert_eq!(g.num_legal(), empty.len());
    let mut mask = vec![false; 81];
    g.write_legal_mask(&mut mask);
    assert_eq!((0..81).filter(|&a| mask[a]).collect::<Vec<_>>(), empty);
    let mut rng = crate::Rng::new(7, 0);
    for _ in 0..500 {
        assert_ne!(g.random_action(&mut rng), 39);
    }
    // White may play there; white's overline wins.
    g.play(0).unwrap();
    let mut w = ruled(
        Renju,
        &[
            "ooo.oo...",
            ".........",
            ".........",
            ".........",
            "x.x.x.xx.",
            "x........",
            ".........",
            ".........",
            ".........",
        ],
    );
    assert_eq!(w.to_move(), 1);
    assert!(w.forbidden_actions().is_empty());
    assert_eq!(w.play(3), Ok(true));
    assert_eq!(w.winner(), Some(1));
}

#[test]
fn random_games_under_every_rule_keep_the_invariants() {
    use crate::WinRule::{Renju, Standard};
    let rule_sets = [
        Rules::new(7, 6, 4, 2, true)
            .unwrap()
            .with_rule(Standard)
            .unwrap(),
        Rules::new(6, 6, 3, 3, false)
            .unwrap()
            .with_rule(Standard)
            .unwrap(),
        Rules::new(9, 9, 5, 2, false)
            .unwrap()
            .with_rule(Standard)
            .unwrap(),
        Rules::gomoku_with(9, Renju).unwrap(),
        Rules::gomoku_with(11, Renju).unwrap(),
    ];
    let mut rng = crate::Rng::new(11, 0);
    for rules in rule_sets {
        for _ in 0..6 {
            let mut g = Game::new(rules);
            while !g.is_over() {
                let legal = g.legal_actions();
                let by_test: Vec<usize> = (0..rules.num_actions())
                    .filter(|&a| g.is_legal(a))
                    .collect();
                assert_eq!(legal, by_test, "{rules}");
                assert_eq!(g.num_legal(), legal.len());
                let mut mask = vec![false; rules.num_actions()];
                g.write_legal_mask(&mut mask);
                assert_eq!(
                    legal,
                    (0..mask.len()).filter(|&a| mask[a]).collect::<Vec<_>>()
                );
                for &(a, _) in &g.forbidden_actions() {
                    assert!(!legal.contains(&a));
                }
                let a = g.random_action(&mut rng);
                assert!(
                    legal.contains(&a),
                    "{rules}: random action {a} is not legal"
                );
                let before = g.clone();
                g.play(a).unwrap();
                assert_eq!(g.hash(), g.recompute_hash());
                let mut back = g.clone();
                back.undo().unwrap();
                assert_eq!(back, before);
                assert_eq!(back.legal_actions(), legal);
            }
            assert!(
                g.stones_on_board() >= rules.k(),
                "{rules}: a game of {} moves",
                g.stones_on_board()
            );
            // A game that ends without a full board or a winner: renju, black stalled.
            if g.winner().is_none() && g.stones_on_board() < rules.num_cells() {
                assert_eq!(rules.rule(), Renju);
                assert!(g.is_draw() && g.legal_actions().is_empty());
            }
        }
    }
}

/// The ending kept move by move (one flag) agrees with a game set up from the
/// same cells, at every ply, and undo reopens a finished game.
#[test]
fn the_kept_ending_equals_a_fresh_set_up() {
    use crate::WinRule::{Freestyle, Renju, Standard};
    let rule_sets = [
        Rules::connect_four(),
        Rules::new(4, 4, 3, 3, true).unwrap(),
        Rules::new(5, 5, 4, 2, false).unwrap(),
        Rules::new(9, 9, 5, 2, false)
            .unwrap()
            .with_rule(Standard)
            .unwrap(),
        Rules::gomoku_with(15, Freestyle).unwrap(),
        Rules::gomoku_with(9, Renju).unwrap(),
    ];
    let mut rng = crate::Rng::new(29, 0);
    for rules in rule_sets {
        for _ in 0..8 {
            let mut g = Game::new(rules);
            loop {
                let mut cells = vec![0i8; rules.num_cells()];
                g.write_cells(&mut cells);
                let cells: Vec<u8> = cells.iter().map(|&c| c as u8).collect();
                let fresh = Game::from_cells(rules, &cells).unwrap();
                assert_eq!(
                    (g.is_over(), g.is_draw(), g.winner(), g.num_legal()),
                    (
                        fresh.is_over(),
                        fresh.is_draw(),
                        fresh.winner(),
                        fresh.num_legal()
                    ),
                    "{rules} after {:?}",
                    g.history()
                );
                if g.is_over() {
                    break;
                }
                let a = g.random_action(&mut rng);
                g.play(a).unwrap();
            }
            assert!(g.legal_actions().is_empty());
            let last = g.undo().unwrap();
            assert!(!g.is_over() && g.winner().is_none(), "{rules}");
            assert!(g.is_legal(last), "{rules}: undo reopens {last}");
        }
    }
}
