//! Fuzz targets for inarow: the invariant checkers live in `checks` (also compiled
//! into `tests/fuzz_invariants.rs` with `#[path]`, so `cargo test` runs them too).

pub mod checks;
