//! Proofs of the outcome of free-placement positions, and their checker.
//!
//! The free-placement solver writes a proof
//! ([`crate::solver::free::FreeSolver::write_proof`]); [`check`] replays it with
//! rules code of its own (cells in a vector, lines found by walking from the last
//! stone), sharing nothing with the solver. A proof is a strategy: for each claim,
//! the claimant's move at every position the claim reaches with the claimant to
//! move (an OR node), while the checker itself tries every reply of the other
//! player (an AND node), so no reply can be left out. A position may instead
//! carry a pairing certificate, which the checker verifies on the board, or (a
//! `no-loss` claim, the other player to move) a zone certificate: a pass.
//!
//! # Format (text, one record a line)
//!
//! ```text
//! inarow-proof 2
//! board 5 5 4 freestyle            width height k rule (freestyle | standard),
//!                                  at most 128 cells
//! root .........................   the cells, row-major from the top: . x o
//! claim x no-loss                  x | o, then win | no-loss
//! 0 0 x m 12                       x's stones, o's stones (hex bit sets, cell
//! 1000 1 x p 0 5 2 7               row * width + col at bit row * width + col),
//! ...                              the side to move (x | o), then the record:
//! claim o no-loss                  m CELL: the claimant's move there, and if it
//! 0 0 x z                          makes the claimant's line (no-loss claims)
//! 0 0 o m 12                       optionally h CELL...: its hit set;
//! 1000 1 o m 3 h 4 9 ...           p A B C D ...: pairs (A, B), (C, D), ... of
//! ...                              empty cells (no-loss claims only);
//! end                              z: the other player to move passes
//! ```
//!
//! Version 1 (`inarow-proof 1`) has no side-to-move field (the stone counts
//! give it), no `z` and no `h`; the checker reads both.
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
//! too: an exact line fills a run of `k`), whoever is to move. A `no-loss` claim
//! also holds, with no record, where every run of `k` holds a claimant's stone.
//!
//! Zones. For a `no-loss` claim the checker computes, for every position it
//! proves, a zone of empty cells: the claim still holds when the other player
//! also has stones on any empty cells outside the zone. (Every run open to the
//! other player at the end of every line of play keeps an empty cell of the
//! zone, which extra stones outside it cannot fill.) A pass record `z` at a
//! position with the other player to move makes the checker prove the same
//! stones with the claimant to move, then try only the other player's moves
//! inside that position's zone: any move outside it is such an extra stone. The
//! rules that compose zones are in `check.rs` (`Replay::node`); the hit set of
//! a claimant's line (every run still open to the other player holds an empty
//! cell of it) enters the zone, and without one every empty cell does. They
//! hold under the standard rule as well.
//!
//! Two `no-loss` claims, one per player, prove a draw; a `win` claim proves
//! that player's win. Records of positions the claim never reaches are
//! allowed; a position the claim reaches with the claimant to move and no
//! record, a move onto a taken cell, a reply that makes the other player's
//! line, a `win` claim that reaches a full board, a pass in a `win` claim, a hit
//! set that misses a run, or a pairing that misses a run are each refused.

//!
//! Bundles. A proof too large to write in one run or check in one piece is a
//! bundle: proofs of one board one after another (each from its own header to
//! its `end`), where each later proof meets the roots of the earlier ones
//! (with the side to move their stones give) as proven, for the same claim,
//! with the zone its check found there. Each proof is checked on its own, so
//! a check holds one of them in memory per thread ([`check_bundle`] checks
//! several side by side, a later one waiting where it meets the root of an
//! earlier one still being checked); the verdict is the last one's, whose
//! root is the position the bundle proves. A position met in a later proof
//! is proven by an earlier root only for the claim that root was proven for.
//! The solver writes bundles as zstd frames, one per proof
//! (`FreeSolver::write_proof_bundle`).

mod check;
mod format;
mod parts;
#[cfg(test)]
mod tests;

pub use check::{check, check_bundle, check_reader, Claim, ClaimKind, ProofError, Verdict};
#[cfg(test)]
use parts::check_parts;
pub use parts::CheckProgress;

use std::io::{BufRead, BufReader, Read};
use std::path::Path;

/// The first bytes of a zstd frame.
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

/// The proof file at `path` for [`check_reader`]: plain text, or zstd frames
/// (a bundle as the solver writes it) decoded as they are read.
pub fn open(path: &Path) -> std::io::Result<Box<dyn BufRead + Send>> {
    let mut file = BufReader::new(std::fs::File::open(path)?);
    Ok(if file.fill_buf()?.starts_with(&ZSTD_MAGIC) {
        Box::new(BufReader::new(zstd::Decoder::with_buffer(file)?))
    } else {
        Box::new(file.take(u64::MAX))
    })
}
