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
    assert!(text.contains("\n1 0 m 4\n"), "{text}");
    let bad = replace_record(&text, "1 0", "m 1");
    match check(&bad) {
        Err(ProofError::Refuted { claim, .. }) => assert_eq!(claim, "o no-loss"),
        other => panic!("{other:?}"),
    }
    // A taken cell.
    let bad = replace_record(&text, "1 0", "m 0");
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
        .find(|l| l.contains(" p ") && l.split_whitespace().count() >= 5)
        .expect("a pairing with a pair")
        .to_string();
    let key: Vec<&str> = record.split_whitespace().take(2).collect();
    let key = key.join(" ");
    let bad = replace_record(&text, &key, "p");
    assert!(matches!(check(&bad), Err(ProofError::Refuted { why, .. }) if why.contains("no pair")));
    // A pair cell paired twice.
    let words: Vec<&str> = record.split_whitespace().collect();
    let twice = format!("p {} {} {} {}", words[3], words[4], words[3], words[4]);
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
        check(&text.replacen("inarow-proof 1", "inarow-proof 2", 1)),
        Err(ProofError::Format { line: 1, .. })
    ));
    assert!(check(&text.replacen("root .........", "root ........", 1)).is_err());
    assert!(check(&text.replacen("board 3 3 3", "board 9 9 3", 1)).is_err());
    assert!(check(&format!("{text}0 0 m 4\n")).is_err());
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
            let expected = if pos.moves() % 2 == 0 { value } else { -value };
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
        assert!(text.contains("claim o no-loss\n1 0 m 4\n"), "{text}");
        assert!(!text.contains("\n100 0 "), "{text}");
        assert_eq!(check(text).unwrap().outcome(), Some(0));
    }
    // A record of a position that is not canonical is never read.
    let stray = b.replace("claim o no-loss\n", "claim o no-loss\n100 0 m 0\n");
    assert!(check(&stray).is_ok());
    // Through the half turn, the recorded centre is the centre; a recorded 1 is
    // cell 7 of the root (x on 8), next to x: o loses there.
    let bad = replace_record(&b, "1 0", "m 1");
    assert!(check(&bad).is_err());
}
