//! Proofs of the outcome of free-placement positions, and their checker.
//!
//! The free-placement solver writes a proof
//! ([`crate::solver::free::FreeSolver::write_proof`]); [`check`] replays it with
//! rules code of its own (cells in a vector, lines found by walking from the last
//! stone), sharing nothing with the solver. A proof is a strategy: for each claim,
//! the claimant's move at every position the claim reaches with the claimant to
//! move (an OR node), while the checker itself tries every reply of the other
//! player (an AND node), so no reply can be left out. A position may instead
//! carry a pairing certificate, which the checker verifies on the board.
//!
//! # Format (text, one record a line)
//!
//! ```text
//! inarow-proof 1
//! board 5 5 4 freestyle            width height k rule (freestyle | standard),
//!                                  at most 128 cells
//! root .........................   the cells, row-major from the top: . x o
//! claim x no-loss                  x | o, then win | no-loss
//! 1000 0 m 12                      x's stones, o's stones (hex bit sets, cell
//! 1000 1 p 0 5 2 7                 row * width + col at bit row * width + col),
//! ...                              m CELL: the claimant's move there;
//! claim o no-loss                  p A B C D ...: pairs (A, B), (C, D), ... of
//! ...                              empty cells (no-loss claims only)
//! end
//! ```
//!
//! A record's position is canonical: of its images under the board's
//! symmetries (the two mirrors and the half turn; on a square also the
//! transposes and the quarter turns), the one with the smallest x bit set, then
//! the smallest o bit set (as unsigned numbers); its cells are cells of that
//! image. Positions that are images of each other share one record.
//!
//! A claim `win` holds when every game the strategy allows ends in a line of the
//! claimant; `no-loss` when none ends in a line of the other player (a full board
//! or a line of the claimant). A pairing certificate proves `no-loss` at its
//! position: every run of `k` cells on the board without a stone of the claimant
//! holds both cells of some pair, so answering each pair cell with its partner
//! keeps the other player from filling any run of `k` (under the standard rule
//! too: an exact line fills a run of `k`), whoever is to move. Two `no-loss`
//! claims, one per player, prove a draw; a `win` claim proves that player's win.
//! Records of positions the claim never reaches are allowed; a position the
//! claim reaches with the claimant to move and no record, a move onto a taken
//! cell, a reply that makes the other player's line, a `win` claim that reaches a
//! full board, or a pairing that misses a run are each refused.

mod check;
mod format;
#[cfg(test)]
mod tests;

pub use check::{check, Claim, ClaimKind, ProofError, Verdict};
