//! Proofs written by the free-placement solver, checked; and corrupted ones,
//! refused.

use std::sync::atomic::AtomicBool;

use super::{check, Claim, ClaimKind, ProofError};
use crate::rules::WinRule;
use crate::solver::free::{FreePosition, FreeSolver};

fn proof_of(pos: &FreePosition) -> (String, i32) {
    let mut solver = FreeSolver::new(1 << 22).unwrap();
    let mut out = Vec::new();
    let summary = solver
        .write_proof(pos, &mut out, &AtomicBool::new(false))
        .unwrap();
    (String::from_utf8(out).unwrap(), summary.outcome)
}

fn empty(w: usize, h: usize, k: usize) -> FreePosition {
    FreePosition::new(w, h, k).unwrap()
}

#[test]
fn published_values_are_proven() {
    for (w, h, k, outcome) in [
        (3, 3, 3, 0),
        (4, 3, 3, 1),
        (4, 4, 3, 1),
        (4, 4, 4, 0),
        (5, 4, 4, 0),
        (5, 5, 4, 0),
        (6, 6, 5, 0),
        (5, 5, 5, 0),
    ] {
        let (text, written) = proof_of(&empty(w, h, k));
        assert_eq!(written, outcome, "{w},{h},{k}");
        let verdict = check(&text).unwrap_or_else(|e| panic!("{w},{h},{k}: {e}"));
        assert_eq!(verdict.outcome(), Some(outcome), "{w},{h},{k}");
    }
}

#[test]
fn a_second_player_win_and_positions_that_are_over() {
    // Tic-tac-toe: x in a corner, o on an edge away from it: x wins.
    let pos = FreePosition::from_moves(3, 3, 3, &[0, 7]).unwrap();
    let (text, outcome) = proof_of(&pos);
    assert_eq!(outcome, 1);
    assert_eq!(check(&text).unwrap().outcome(), Some(1));
    // x on the top row: over already.
    let won = FreePosition::from_moves(3, 3, 3, &[0, 3, 1, 4, 2]).unwrap();
    let (text, outcome) = proof_of(&won);
    assert_eq!(outcome, 1);
    assert_eq!(check(&text).unwrap().outcome(), Some(1));
    // x on 0, 2, 6, o on 1, 4 and to move: o completes 1-4-7 (a second player win).
    let pos = FreePosition::from_moves(3, 3, 3, &[0, 1, 2, 4, 6]).unwrap();
    let (text, outcome) = proof_of(&pos);
    assert_eq!(outcome, -1);
    assert!(text.contains("claim o win"));
    assert_eq!(check(&text).unwrap().outcome(), Some(-1));
    // x on 0, 8, o on 1, 4: x blocks 7 and draws.
    let pos = FreePosition::from_moves(3, 3, 3, &[0, 1, 8, 4]).unwrap();
    let (text, outcome) = proof_of(&pos);
    assert_eq!(outcome, 0);
    assert_eq!(check(&text).unwrap().outcome(), Some(0));
}

#[test]
fn standard_rule_proofs_are_checked_under_the_standard_rule() {
    for (w, h, k) in [(4, 4, 3), (5, 4, 4), (5, 2, 3), (6, 1, 3)] {
        let pos = FreePosition::with_rule(w, h, k, WinRule::Standard).unwrap();
        let (text, outcome) = proof_of(&pos);
        assert!(text.lines().nth(1).unwrap().ends_with("standard"));
        assert_eq!(
            check(&text).unwrap().outcome(),
            Some(outcome),
            "{w},{h},{k}"
        );
    }
    // 5x2, k = 3: x on 0, 1, 3, o on 5, 6, 8. Under freestyle x wins on 2 (four
    // in a row); under the standard rule that move is an overline.
    let cells = [1, 1, 0, 1, 0, 2, 2, 0, 2, 0];
    let loose = FreePosition::from_cells(5, 2, 3, &cells).unwrap();
    let (text, outcome) = proof_of(&loose);
    assert_eq!(outcome, 1);
    assert!(text.contains(" m 2\n"), "{text}");
    assert!(check(&text).is_ok());
    let strict = text.replace("freestyle", "standard");
    assert!(
        matches!(check(&strict), Err(ProofError::Refuted { .. })),
        "{strict}"
    );
}

/// The proof `text` with the record of the position `(x, o)` (hex) replaced.
fn replace_record(text: &str, key: &str, record: &str) -> String {
    let mut found = false;
    let out: Vec<String> = text
        .lines()
        .map(|l| {
            if l.starts_with(&format!("{key} ")) && !found {
                found = true;
                format!("{key} {record}")
            } else {
                l.to_string()
            }
        })
        .collect();
    assert!(found, "no record of {key} in\n{text}");
    out.join("\n") + "\n"
}

#[test]
fn a_losing_move_is_refused() {
    // x in a corner: o must take the centre; an edge loses.
    let pos = FreePosition::from_moves(3, 3, 3, &[0]).unwrap();
    let (text, outcome) = proof_of(&pos);
    assert_eq!(outcome, 0);
    assert!(text.contains("\n1 0 o m 4\n"), "{text}");
    // (x's no-loss claim passes there: "1 0 o z".)
    let bad = text.replacen("\n1 0 o m 4\n", "\n1 0 o m 1\n", 1);
    match check(&bad) {
        Err(ProofError::Refuted { claim, .. }) => assert_eq!(claim, "o no-loss"),
        other => panic!("{other:?}"),
    }
    // A taken cell.
    let bad = text.replacen("\n1 0 o m 4\n", "\n1 0 o m 0\n", 1);
    assert!(matches!(check(&bad), Err(ProofError::Refuted { why, .. }) if why.contains("taken")));
}

#[test]
fn a_missing_record_is_refused() {
    let (text, _) = proof_of(&empty(4, 4, 3));
    // Drop the root's move.
    let cut: String = text
        .lines()
        .filter(|l| !l.starts_with("0 0 "))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(cut.len() < text.len());
    assert!(matches!(check(&cut), Err(ProofError::Refuted { why, .. }) if why.contains("no move")));
    // Every record dropped but the root's: refused somewhere below it.
    let bare: String = text
        .lines()
        .filter(|l| !l.contains(" m ") || l.starts_with("0 0 "))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(check(&bare).is_err());
}

#[test]
fn a_broken_pairing_is_refused() {
    let (text, _) = proof_of(&empty(5, 5, 4));
    let record = text
        .lines()
        .find(|l| l.contains(" p ") && l.split_whitespace().count() >= 6)
        .expect("a pairing with a pair")
        .to_string();
    let key: Vec<&str> = record.split_whitespace().take(3).collect();
    let key = key.join(" ");
    let bad = replace_record(&text, &key, "p");
    assert!(matches!(check(&bad), Err(ProofError::Refuted { why, .. }) if why.contains("no pair")));
    // A pair cell paired twice.
    let words: Vec<&str> = record.split_whitespace().collect();
    let twice = format!("p {} {} {} {}", words[4], words[5], words[4], words[5]);
    assert!(check(&replace_record(&text, &key, &twice)).is_err());
}

#[test]
fn a_stronger_claim_is_refused() {
    // 4,4,4 is a draw: a proof of no loss is no proof of a win.
    let (text, _) = proof_of(&empty(4, 4, 4));
    let bad = text.replacen("claim x no-loss", "claim x win", 1);
    assert!(matches!(check(&bad), Err(ProofError::Refuted { claim, .. }) if claim == "x win"));
}

#[test]
fn malformed_files_are_refused() {
    let (text, _) = proof_of(&empty(3, 3, 3));
    let no_end = text.replace("end\n", "");
    assert!(matches!(check(&no_end), Err(ProofError::Format { .. })));
    assert!(matches!(
        check(&text.replacen("inarow-proof 2", "inarow-proof 3", 1)),
        Err(ProofError::Format { line: 1, .. })
    ));
    assert!(check(&text.replacen("root .........", "root ........", 1)).is_err());
    assert!(check(&text.replacen("board 3 3 3", "board 9 9 3", 1)).is_err());
    assert!(check(&format!("{text}0 0 x m 4\n")).is_err());
    assert!(check("").is_err());
}

#[test]
fn verdicts_name_their_claims() {
    let (text, _) = proof_of(&empty(4, 4, 3));
    let verdict = check(&text).unwrap();
    assert_eq!(
        verdict.claims,
        vec![Claim {
            player: 0,
            kind: ClaimKind::Win
        }]
    );
    assert!(verdict.positions > 0);
}

#[test]
fn proofs_of_random_positions_check_and_match_the_solver() {
    let mut rng = crate::rng::Rng::new(3, 0);
    let mut solver = FreeSolver::new(1 << 22).unwrap();
    let cancel = AtomicBool::new(false);
    for (w, h, k, rule) in [
        (4, 4, 3, WinRule::Freestyle),
        (4, 4, 3, WinRule::Standard),
        (5, 4, 4, WinRule::Freestyle),
        (5, 4, 4, WinRule::Standard),
    ] {
        for _ in 0..15 {
            let mut pos = FreePosition::with_rule(w, h, k, rule).unwrap();
            for _ in 0..rng.below(8) {
                if pos.is_over() {
                    break;
                }
                let free: Vec<usize> = (0..w * h).filter(|&c| pos.can_play(c)).collect();
                pos.play(free[rng.below(free.len() as u32) as usize])
                    .unwrap();
            }
            let value = solver.solve(&pos, true, &cancel).unwrap();
            let expected = if pos.moves().is_multiple_of(2) {
                value
            } else {
                -value
            };
            let (text, outcome) = proof_of(&pos);
            assert_eq!(outcome, expected);
            let verdict = check(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(verdict.outcome(), Some(expected), "{:?}", pos.to_cells());
        }
    }
}

#[test]
fn a_proof_counts_its_nodes_under_one_limit() {
    let mut solver = FreeSolver::new(1 << 22).unwrap();
    let cancel = AtomicBool::new(false);
    let pos = empty(5, 5, 4);
    solver.set_node_limit(Some(2_000));
    let mut out = Vec::new();
    let refused = solver.write_proof(&pos, &mut out, &cancel);
    assert_eq!(refused, Err(crate::solver::SolveError::NodeLimit));
    solver.set_node_limit(None);
    solver.clear();
    let mut out = Vec::new();
    solver.write_proof(&pos, &mut out, &cancel).unwrap();
    let one_search = {
        let mut fresh = FreeSolver::new(1 << 22).unwrap();
        fresh.solve(&pos, true, &cancel).unwrap();
        fresh.nodes()
    };
    assert!(
        solver.nodes() > one_search,
        "{} <= {one_search}",
        solver.nodes()
    );
}

#[test]
fn images_of_a_position_share_their_records() {
    // x in the top-left corner, and in the bottom-right one (a half turn): both
    // roots' records are of the canonical form, x on cell 0 (key 1 0).
    let (a, _) = proof_of(&FreePosition::from_moves(3, 3, 3, &[0]).unwrap());
    let (b, _) = proof_of(&FreePosition::from_moves(3, 3, 3, &[8]).unwrap());
    for text in [&a, &b] {
        assert!(text.contains("claim o no-loss\n1 0 o m 4\n"), "{text}");
        assert!(!text.contains("\n100 0 "), "{text}");
        assert_eq!(check(text).unwrap().outcome(), Some(0));
    }
    // A record of a position that is not canonical is never read.
    let stray = b.replace("claim o no-loss\n", "claim o no-loss\n100 0 o m 0\n");
    assert!(check(&stray).is_ok());
    // Through the half turn, the recorded centre is the centre; a recorded 1 is
    // cell 7 of the root (x on 8), next to x: o loses there.
    // (o's own claim: x's may hold a record of the same stones.)
    let (x_claim, o_claim) = b.split_at(b.find("claim o no-loss\n").unwrap());
    let bad = x_claim.to_string() + &replace_record(o_claim, "1 0 o", "m 1");
    assert!(check(&bad).is_err());
}

/// Version 1 proofs (no side to move, no pass, no hit set) are still read.
#[test]
fn version_one_proofs_are_read() {
    let text = "inarow-proof 1\nboard 3 3 3 freestyle\nroot x........\n\
                claim o no-loss\n1 0 m 4\n1 10 p 1 2 3 6 5 8 7 8\nend\n";
    // The pairing above pairs 8 twice: refused; the same pairs without it pass
    // the format, and the missing replies are found.
    assert!(check(text).is_err());
    let zoned = text.replace("1 0 m 4", "1 0 x z");
    assert!(matches!(check(&zoned), Err(ProofError::Format { .. })));
    let hits = text.replace("1 0 m 4", "1 0 m 4 h 1");
    assert!(matches!(check(&hits), Err(ProofError::Format { .. })));
}

#[test]
fn zone_certificates_shrink_proofs_and_check() {
    let pos = empty(5, 5, 4);
    let (zoned, outcome) = proof_of(&pos);
    assert_eq!(outcome, 0);
    let mut solver = FreeSolver::new(1 << 22).unwrap();
    solver.set_zone_search(false);
    let mut out = Vec::new();
    let plain = solver
        .write_proof(&pos, &mut out, &AtomicBool::new(false))
        .unwrap();
    let plain_text = String::from_utf8(out).unwrap();
    assert_eq!(plain.passes, 0);
    assert!(!plain_text.lines().any(|l| l.ends_with(" z")));
    let passes = zoned.lines().filter(|l| l.ends_with(" z")).count();
    assert!(passes > 100, "{passes} passes");
    assert!(zoned.lines().count() < plain_text.lines().count());
    for text in [&zoned, &plain_text] {
        assert_eq!(check(text).unwrap().outcome(), Some(0));
    }
}

#[test]
fn a_hit_set_that_misses_a_run_is_refused() {
    let (text, _) = proof_of(&empty(5, 5, 4));
    let record = text
        .lines()
        .find(|l| l.contains(" h ") && l.split_whitespace().count() >= 7)
        .expect("a claimant's line with a hit set")
        .to_string();
    let (head, _) = record.split_once(" h ").unwrap();
    let bad = text.replacen(&record, &format!("{head} h"), 1);
    assert!(
        matches!(check(&bad), Err(ProofError::Refuted { ref why, .. }) if why.contains("hit")),
        "{:?}",
        check(&bad)
    );
    // A hit cell that is taken.
    let words: Vec<&str> = head.split_whitespace().collect();
    let taken = text.replacen(&record, &format!("{head} h {}", words[4]), 1);
    assert!(check(&taken).is_err());
}

#[test]
fn a_pass_in_a_win_claim_is_refused() {
    // x on 0, 1, 3 and o on 4, 8, o to move: x makes a line on 2 or 6.
    let win = "inarow-proof 2\nboard 3 3 3 freestyle\nroot xx.xo...o\nclaim x win\n\
               b 110 x m 2\nend\n";
    let passed = win.replace("b 110 x m 2\n", "b 110 o z\n");
    assert!(
        matches!(check(&passed), Err(ProofError::Refuted { ref why, .. }) if why.contains("pass")),
        "{:?}",
        check(&passed)
    );
}

/// Whether `set` fills one of the `runs`.
fn has_run(runs: &[u32], set: u32) -> bool {
    for &run in runs {
        if set & run == run {
            return true;
        }
    }
    false
}

/// Whether the attacker forces a line (a plain memoised search over bit sets
/// and the board's runs, apart from both the solver and the checker).
fn attacker_wins(
    runs: &[u32],
    cells: usize,
    memo: &mut std::collections::HashMap<(u32, u32, bool), bool>,
    attacker: u32,
    defender: u32,
    attacker_to_move: bool,
) -> bool {
    if let Some(&known) = memo.get(&(attacker, defender, attacker_to_move)) {
        return known;
    }
    let line = |set: u32| has_run(runs, set);
    let empty: Vec<u32> = (0..cells)
        .map(|c| 1u32 << c)
        .filter(|&b| (attacker | defender) & b == 0)
        .collect();
    let wins = if attacker_to_move {
        empty.iter().any(|&b| {
            line(attacker | b) || attacker_wins(runs, cells, memo, attacker | b, defender, false)
        })
    } else {
        !empty.is_empty()
            && !empty.iter().any(|&b| line(defender | b))
            && empty
                .iter()
                .all(|&b| attacker_wins(runs, cells, memo, attacker, defender | b, true))
    };
    memo.insert((attacker, defender, attacker_to_move), wins);
    wins
}

/// The checker's zone at the root of a `no-loss` claim is a true zone: the
/// other player's stones on random empty cells outside it leave the claimant
/// holding, judged by a plain search.
#[test]
fn the_checkers_zones_are_true_zones() {
    let mut rng = crate::rng::Rng::new(41, 0);
    let mut solver = FreeSolver::new(1 << 22).unwrap();
    let cancel = AtomicBool::new(false);
    let (mut claims, mut with_extra) = (0, 0);
    for (w, h, k, least) in [(4, 4, 3, 3), (5, 4, 4, 6), (5, 5, 4, 10), (6, 5, 4, 14)] {
        let cells = w * h;
        let mut runs = Vec::new();
        for (dr, dc) in [(0i64, 1i64), (1, 0), (1, 1), (1, -1)] {
            for r in 0..h as i64 {
                for c in 0..w as i64 {
                    let (er, ec) = (r + dr * (k as i64 - 1), c + dc * (k as i64 - 1));
                    if er < h as i64 && (0..w as i64).contains(&ec) {
                        runs.push((0..k as i64).fold(0u32, |set, i| {
                            set | 1 << ((r + dr * i) * w as i64 + c + dc * i)
                        }));
                    }
                }
            }
        }
        let mut memo = std::collections::HashMap::new();
        for _ in 0..40 {
            let mut pos = empty(w, h, k);
            let stones = least + rng.below(4) as usize;
            while pos.moves() < stones && !pos.is_over() {
                let free: Vec<usize> = (0..cells).filter(|&c| pos.can_play(c)).collect();
                pos.play(free[rng.below(free.len() as u32) as usize])
                    .unwrap();
            }
            if pos.is_over() || solver.solve(&pos, true, &cancel).unwrap() != 0 {
                continue;
            }
            let mut out = Vec::new();
            solver.write_proof(&pos, &mut out, &cancel).unwrap();
            let text = String::from_utf8(out).unwrap();
            let (verdict, zones) = super::check_parts(
                text.as_bytes(),
                1,
                &Default::default(),
                &AtomicBool::new(false),
            )
            .unwrap();
            let board = pos.to_cells();
            let set = |who: u8| {
                (0..cells)
                    .filter(|&c| board[c] == who)
                    .fold(0u32, |s, c| s | 1 << c)
            };
            let x_to_move = pos.moves().is_multiple_of(2);
            for (claim, zone) in verdict.claims.iter().zip(zones) {
                assert_eq!(claim.kind, ClaimKind::NoLoss);
                let (defender, attacker) = if claim.player == 0 {
                    (set(1), set(2))
                } else {
                    (set(2), set(1))
                };
                let attacker_to_move = x_to_move != (claim.player == 0);
                let outside: Vec<u32> = (0..cells)
                    .filter(|&c| board[c] == 0 && zone >> c & 1 == 0)
                    .map(|c| 1u32 << c)
                    .collect();
                claims += 1;
                for _ in 0..4 {
                    let extra = outside
                        .iter()
                        .filter(|_| rng.below(2) == 0)
                        .fold(0u32, |s, &b| s | b);
                    let with = attacker | extra;
                    assert!(!has_run(&runs, with), "extra stones made a line");
                    assert!(
                        !attacker_wins(&runs, cells, &mut memo, with, defender, attacker_to_move),
                        "{w}x{h} k={k} {board:?}: the other player wins with {extra:#x} \
                         outside the zone {zone:#x}"
                    );
                    with_extra += (extra != 0) as usize;
                }
            }
        }
    }
    assert!(
        claims > 40 && with_extra > 100,
        "{claims} claims, {with_extra} with stones"
    );
}
