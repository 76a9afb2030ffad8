//! Pascal Pons' Connect-Four test sets, read from the package data in
//! `python/inarow/data/connect4-pons/` (shared through `#[path]` by `tests/solver_sets.rs`,
//! `benches/solver.rs` and `examples/solver_bench.rs`). A missing file or a malformed line
//! panics naming the path: nothing that needs the sets passes or measures without them.

use inarow::solver::Position;

/// The directory of the six sets in the repository.
const DIR: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/python/inarow/data/connect4-pons"
);

/// Every line of `file` (e.g. `"Test_L3_R1"`) in file order: Pons' move string (1-based
/// columns), the position it reaches, and its exact score for the player to move.
pub fn load(file: &str) -> Vec<(String, Position, i32)> {
    let path = format!("{DIR}/{file}");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!("cannot read Pons' test set {path}: {e} (the six sets are part of the repository)")
    });
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            parse(line)
                .unwrap_or_else(|| panic!("{path}:{}: not \"<moves> <score>\": {line:?}", i + 1))
        })
        .collect()
}

fn parse(line: &str) -> Option<(String, Position, i32)> {
    let mut parts = line.split_whitespace();
    let (moves, score) = (parts.next()?, parts.next()?.parse().ok()?);
    if parts.next().is_some() {
        return None;
    }
    Some((moves.to_string(), Position::parse_pons(moves).ok()?, score))
}
