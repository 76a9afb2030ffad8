//! Boards of more than 64 cells (a `u128` per stone set): the solver against a
//! plain negamax over the real [`Game`] on positions near the end, under both
//! rules; the symmetries and canonical forms of the table on square and
//! oblong boards; a proof written on 81 cells and checked by `crate::proof`.

use std::sync::atomic::AtomicBool;

use super::game_negamax::GameNegamax;
use super::geometry::Geometry;
use super::position::exact;
use super::search::{image, Node};
use super::{FreePosition, FreeSolver, MAX_FREE_CELLS};
use crate::game::Game;
use crate::rng::Rng;
use crate::rules::{Rules, WinRule};
use crate::solver::SolveError;

fn rules(width: i64, height: i64, k: i64, rule: WinRule) -> Rules {
    Rules::new(width, height, k, 2, false)
        .unwrap()
        .with_rule(rule)
        .unwrap()
}

/// A game of `rules` whose empty cells are a `rows` x `cols` window at a
/// random place (a third of them on the last rows), with no line: random moves outside the window, none of which
/// makes a line (a game that runs out of such moves is drawn again). Lines
/// through the window that hold stones of one player only are still open, so
/// the searches have work to do; a game whose side to move wins at once, or
/// faces two threats, is drawn again (the searches would end at the root).
fn near_the_end(rules: Rules, rows: usize, cols: usize, rng: &mut Rng) -> Game {
    let (w, h) = (rules.width(), rules.height());
    'again: loop {
        // A third of the windows on the last rows (the cells past bit 63 on 9x9).
        let top = if rng.below(3) == 0 {
            h - rows
        } else {
            rng.below((h - rows + 1) as u32) as usize
        };
        let left = rng.below((w - cols + 1) as u32) as usize;
        let inside = |cell: usize| {
            (top..top + rows).contains(&(cell / w)) && (left..left + cols).contains(&(cell % w))
        };
        let mut game = Game::new(rules);
        while game.stones_on_board() < w * h - rows * cols {
            let mut legal: Vec<usize> = game
                .legal_actions()
                .into_iter()
                .filter(|&c| !inside(c))
                .collect();
            loop {
                if legal.is_empty() {
                    continue 'again;
                }
                let i = rng.below(legal.len() as u32) as usize;
                game.play(legal.swap_remove(i)).unwrap();
                if game.winner().is_none() {
                    break;
                }
                game.undo().unwrap();
            }
        }
        let pos = FreePosition::from_game(&game).unwrap();
        let g = Geometry::<u128>::new(w, h, rules.k(), exact(rules.rule())).unwrap();
        let empty = g.board & !pos.mask;
        let wins = g.winning_cells(pos.current, empty);
        let threats = g.winning_cells(pos.current ^ pos.mask, empty);
        if wins == 0 && threats.count_ones() <= 1 {
            return game;
        }
    }
}

/// The solver's exact and weak scores and every move's score equal the
/// negamax's on `count` games of `rules` with `empty` empty cells; returns
/// the solver's nodes, all games together.
fn agrees_with_the_game(rules: Rules, count: usize, window: (usize, usize), seed: u64) -> u64 {
    let mut rng = Rng::new(seed, 0);
    let mut negamax = GameNegamax::new();
    let mut solver = FreeSolver::new(1 << 22).unwrap();
    let cancel = AtomicBool::new(false);
    let mut nodes = 0;
    for _ in 0..count {
        let mut game = near_the_end(rules, window.0, window.1, &mut rng);
        let pos = FreePosition::from_game(&game).unwrap();
        assert_eq!((pos.cells(), pos.rule()), (rules.num_cells(), rules.rule()));
        let expected = negamax.value(&mut game);
        let context = format!("{rules} history {:?}", game.history());
        assert_eq!(
            solver.solve(&pos, false, &cancel).unwrap(),
            expected,
            "{context}"
        );
        nodes += solver.nodes();
        assert_eq!(
            solver.solve(&pos, true, &cancel).unwrap(),
            expected.signum(),
            "{context}"
        );
        let analysis = solver.analyze(&pos, false, &cancel).unwrap();
        for (action, score) in analysis.iter().enumerate() {
            assert_eq!(score.is_some(), game.is_legal(action), "{context}");
            let Some(score) = score else { continue };
            let child = negamax.score_of(&mut game, action);
            assert_eq!(*score, child, "{context} action {action}");
        }
        let best = solver.best_move(&pos, &cancel).unwrap();
        assert_eq!(analysis[best], Some(expected), "{context}");
    }
    nodes
}

#[test]
fn nine_by_nine_freestyle_matches_the_game() {
    for (k, window, seed) in [(4, (2, 4), 1), (5, (2, 5), 2), (5, (3, 4), 3)] {
        let nodes = agrees_with_the_game(rules(9, 9, k, WinRule::Freestyle), 6, window, seed);
        assert!(nodes > 6, "the searches went past their roots");
    }
}

#[test]
fn nine_by_nine_standard_matches_the_game() {
    for (k, window, seed) in [(4, (2, 4), 4), (5, (2, 5), 5), (5, (3, 4), 6)] {
        let nodes = agrees_with_the_game(rules(9, 9, k, WinRule::Standard), 6, window, seed);
        assert!(nodes > 6, "the searches went past their roots");
    }
}

#[test]
fn other_boards_past_one_word_match_the_game() {
    // 65 cells (one past the word), 70, 121 and 128 (the limit: every bit).
    for (w, h, k, seed) in [(13, 5, 4, 7), (10, 7, 5, 8), (11, 11, 5, 9), (16, 8, 5, 10)] {
        for rule in [WinRule::Freestyle, WinRule::Standard] {
            agrees_with_the_game(rules(w, h, k, rule), 4, (2, 4), seed);
        }
    }
}

#[test]
fn the_limit_is_128_cells_and_its_refusals_say_so() {
    for (w, h) in [(9, 9), (16, 8), (128, 1), (13, 5)] {
        assert!(FreePosition::new(w, h, 5).is_ok(), "{w}x{h}");
        if w <= 64 {
            let r = Rules::new(w as i64, h as i64, 5, 2, false).unwrap();
            assert!(FreePosition::check_rules(&r).is_ok(), "{w}x{h}");
        }
    }
    for (w, h) in [(12, 11), (43, 3), (129, 1), (15, 15)] {
        let Err(SolveError::Unsupported(why)) = FreePosition::new(w, h, 5) else {
            panic!("{w}x{h} accepted");
        };
        assert!(why.contains("at most 128 cells"), "{why}");
        let r = Rules::new(w.min(64) as i64, h as i64, 5, 2, false).unwrap();
        if r.num_cells() > MAX_FREE_CELLS {
            let Err(SolveError::Unsupported(why)) = FreePosition::check_rules(&r) else {
                panic!("{r} accepted");
            };
            assert!(why.contains("at most 128 cells"), "{why}");
        }
    }
}

/// Every symmetry of the board is a permutation of its cells that maps lines
/// onto lines, its inverse undoes it, and the images of a position share its
/// canonical form.
fn symmetries_hold(width: usize, height: usize, k: usize, count: usize) {
    let g = Geometry::<u128>::new(width, height, k, false).unwrap();
    let n = width * height;
    assert_eq!(g.symmetry_count(), if width == height { 8 } else { 4 });
    let lines: std::collections::HashSet<u128> = g.lines.iter().copied().collect();
    for s in 0..g.symmetry_count() {
        let images: u128 = (0..n).fold(0, |m, c| m | g.map[s][c]);
        assert_eq!(images, g.board, "symmetry {s} is onto the board");
        for cell in 0..n {
            assert_eq!(g.map[s][cell].count_ones(), 1);
            let onto = g.map[s][cell].trailing_zeros() as usize;
            assert_eq!(g.inverse[s][onto] as usize, cell);
        }
        for &line in &g.lines {
            assert!(lines.contains(&image(&g, s, line)), "symmetry {s}");
        }
    }
    let mut rng = Rng::new(width as u64 * 131 + height as u64, 0);
    for _ in 0..count {
        let (mut current, mut mask) = (0u128, 0u128);
        for cell in 0..n {
            match rng.below(3) {
                0 => {}
                1 => (current, mask) = (current | 1 << cell, mask | 1 << cell),
                _ => mask |= 1 << cell,
            }
        }
        let key = Node::new(&g, current, mask, 0).canonical(g.symmetry_count());
        for s in 0..g.symmetry_count() {
            let (c, m) = (image(&g, s, current), image(&g, s, mask));
            let node = Node::new(&g, c, m, 0);
            let (km, kc, sym) = node.canonical(g.symmetry_count());
            assert_eq!((km, kc), (key.0, key.1), "image {s}");
            // The symmetry found maps the image onto the canonical form.
            assert_eq!(
                (image(&g, sym, m), image(&g, sym, c)),
                (km, kc),
                "image {s}"
            );
        }
    }
}

#[test]
fn symmetries_and_canonical_forms_past_one_word() {
    symmetries_hold(9, 9, 5, 40);
    symmetries_hold(10, 7, 5, 40);
    symmetries_hold(7, 10, 4, 20);
    symmetries_hold(11, 11, 5, 20);
    symmetries_hold(16, 8, 5, 20);
}

/// `cells` (0 empty, 1 and 2 the players) under symmetry `s` of the board.
fn image_cells(g: &Geometry<u128>, s: usize, cells: &[u8]) -> Vec<u8> {
    let mut out = vec![0; cells.len()];
    for (cell, &c) in cells.iter().enumerate() {
        out[g.map[s][cell].trailing_zeros() as usize] = c;
    }
    out
}

#[test]
fn images_of_a_position_score_the_same_and_share_the_table() {
    let mut rng = Rng::new(17, 0);
    let cancel = AtomicBool::new(false);
    let (mut shared_nodes, mut fresh_nodes) = (0, 0);
    for (w, h, k) in [(9, 9, 5), (10, 7, 5)] {
        let g = Geometry::<u128>::new(w, h, k, false).unwrap();
        for _ in 0..4 {
            let r = rules(w as i64, h as i64, k as i64, WinRule::Freestyle);
            let game = near_the_end(r, 3, 4, &mut rng);
            let cells = FreePosition::from_game(&game).unwrap().to_cells();
            let mut shared = FreeSolver::new(1 << 22).unwrap();
            let mut values = Vec::new();
            for s in 0..g.symmetry_count() {
                let pos = FreePosition::from_cells(w, h, k, &image_cells(&g, s, &cells)).unwrap();
                let mut fresh = FreeSolver::new(1 << 22).unwrap();
                let value = fresh.solve(&pos, false, &cancel).unwrap();
                assert_eq!(shared.solve(&pos, false, &cancel).unwrap(), value);
                if s > 0 {
                    // The first image's search filled the table: this one hits it.
                    assert!(shared.nodes() <= fresh.nodes(), "{w}x{h} image {s}");
                    (shared_nodes, fresh_nodes) =
                        (shared_nodes + shared.nodes(), fresh_nodes + fresh.nodes());
                }
                values.push(value);
            }
            assert!(values.iter().all(|&v| v == values[0]), "{values:?}");
        }
    }
    assert!(shared_nodes < fresh_nodes, "{shared_nodes} {fresh_nodes}");
}

#[test]
fn a_proof_on_81_cells_is_written_and_checked() {
    let mut rng = Rng::new(23, 0);
    let cancel = AtomicBool::new(false);
    let mut outcomes = [0; 3];
    let mut pairings = 0;
    let mut tampered_proofs = 0;
    for rule in [WinRule::Freestyle, WinRule::Standard] {
        for _ in 0..6 {
            let game = near_the_end(rules(9, 9, 5, rule), 3, 4, &mut rng);
            let pos = FreePosition::from_game(&game).unwrap();
            let mut solver = FreeSolver::new(1 << 22).unwrap();
            let mut text = Vec::new();
            let summary = solver.write_proof(&pos, &mut text, &cancel).unwrap();
            let text = String::from_utf8(text).unwrap();
            assert!(text.starts_with(&format!("inarow-proof 2\nboard 9 9 5 {}\n", rule.name())));
            let verdict = crate::proof::check(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(verdict.outcome(), Some(summary.outcome));
            let value = solver.solve(&pos, true, &cancel).unwrap();
            let x_to_move = pos.moves().is_multiple_of(2);
            assert_eq!(summary.outcome, if x_to_move { value } else { -value });
            outcomes[(summary.outcome + 1) as usize] += 1;
            pairings += summary.pairings;
            // A move changed to a taken cell is refused.
            if let Some(tampered) = retarget_first_move(&text, 81) {
                assert!(crate::proof::check(&tampered).is_err(), "{tampered}");
                tampered_proofs += 1;
            }
        }
    }
    assert!(
        outcomes.iter().filter(|&&c| c > 0).count() >= 2,
        "{outcomes:?}"
    );
    assert!(pairings > 0, "some proof holds a pairing");
    assert!(tampered_proofs > 0, "some proof holds a move");
}

/// The proof `text` with its first move record pointed at the first cell that
/// the record's position holds a stone on (a taken cell), if there is one.
fn retarget_first_move(text: &str, cells: usize) -> Option<String> {
    let mut out = Vec::new();
    let mut done = false;
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if !done && words.len() == 5 && words[3] == "m" {
            let x = u128::from_str_radix(words[0], 16).ok()?;
            let o = u128::from_str_radix(words[1], 16).ok()?;
            let taken = (0..cells).find(|&c| (x | o) >> c & 1 == 1)?;
            out.push(format!("{} {} {} m {taken}", words[0], words[1], words[2]));
            done = true;
            continue;
        }
        out.push(line.to_string());
    }
    done.then(|| out.join("\n") + "\n")
}
