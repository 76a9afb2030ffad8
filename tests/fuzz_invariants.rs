//! The fuzz targets' invariant checks (`fuzz/src/checks.rs`, shared through `#[path]`)
//! run on random inputs in the normal `cargo test`: the same properties as
//! `cargo fuzz run <target>`, without coverage guidance, sized to stay within seconds.
//!
//! Each checker derives valid rules, games and action sequences from raw bytes, so a
//! failing case here replays as a fuzz input: write the shrunk bytes to a file and run
//! `cargo fuzz run <target> <file>` in `fuzz/`.

#[path = "../fuzz/src/checks.rs"]
mod checks;

use proptest::prelude::*;

fn bytes(max: usize) -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(any::<u8>(), 0..max)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2500, ..ProptestConfig::default() })]

    #[test]
    fn game_actions(data in bytes(600)) {
        checks::check_game_actions(&data);
    }

    #[test]
    fn from_bytes(data in bytes(300)) {
        checks::check_from_bytes(&data);
    }

    #[test]
    fn from_cells(data in bytes(200)) {
        checks::check_from_cells(&data);
    }

    #[test]
    fn batch_step(data in bytes(400)) {
        checks::check_batch_step(&data);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    #[test]
    fn solver_small(data in bytes(40)) {
        checks::check_solver_small(&data);
    }
}

/// Raw `from_bytes` inputs almost never pass the magic: mutate real encodings too.
#[test]
fn from_bytes_of_every_truncation_and_single_byte_edit() {
    let mut seed = vec![200u8];
    seed.extend_from_slice(&[3, 5, 4, 2, 0, 9, 9, 1, 0, 2, 5, 7, 1, 3]);
    checks::check_from_bytes(&seed);
    for cut in 0..seed.len() {
        checks::check_from_bytes(&seed[..cut]);
    }
    for i in 0..seed.len() {
        for v in [0u8, 1, 2, 63, 64, 127, 128, 255] {
            let mut s = seed.clone();
            s[i] = v;
            checks::check_from_bytes(&s);
        }
    }
}

/// The oracles themselves, on positions whose answers are known.
#[test]
fn oracles_agree_with_hand_made_positions() {
    use inarow::Rules;
    // Tic-tac-toe, X has the top row, O two stones: X moved last, valid.
    let ttt = Rules::tic_tac_toe();
    assert!(checks::position_is_valid(
        &ttt,
        &[1, 1, 1, 2, 2, 0, 0, 0, 0]
    ));
    // Same with O to have moved last: invalid.
    assert!(!checks::position_is_valid(
        &ttt,
        &[1, 1, 1, 2, 2, 2, 0, 0, 0]
    ));
    // Two disjoint X lines: no single last move made both.
    let cells = [1, 1, 1, 2, 2, 0, 1, 1, 1];
    assert!(!checks::position_is_valid(
        &Rules::new(3, 3, 3, 2, false).unwrap(),
        &cells
    ));
    // Gravity: a floating stone.
    let c4 = Rules::new(2, 2, 2, 2, true).unwrap();
    assert!(!checks::position_is_valid(&c4, &[1, 0, 0, 2]));
    assert!(checks::position_is_valid(&c4, &[0, 0, 1, 2]));
    assert_eq!(
        checks::players_with_lines(&[1, 0, 0, 0, 1, 0, 0, 0, 1], 3, 3, 3),
        vec![0]
    );
    assert_eq!(
        checks::players_with_lines(&[0, 0, 2, 0, 2, 0, 2, 1, 1], 3, 3, 3),
        vec![1]
    );
}

/// A fuzz find (CI, 2026-11-29): mutated bytes that decode to a game under an exact
/// rule, where a run longer than `k` is an overline and no win. The line scan read it
/// as a win until it learned the rules.
#[test]
fn a_decoded_overline_under_an_exact_rule_is_no_win() {
    let found = [
        88, 82, 78, 231, 73, 112, 255, 255, 73, 112, 122, 254, 5, 4, 5, 95, 112, 122, 49, 253, 112,
        1, 255, 112, 95,
    ];
    checks::check_from_bytes(&found);
}
