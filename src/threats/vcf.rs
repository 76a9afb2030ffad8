//! Victory by continuous fours: every attacker move makes a four, so the
//! defender's reply is forced; exact within its depth.
//!
//! At each attacker turn, in order: a cell that completes a line wins; with no
//! depth left the search fails; a defender with two cells to complete has won; a
//! defender with one must be blocked there, and the block must itself be a four;
//! otherwise every four is tried. A four that leaves two cells to complete wins
//! (the defender blocks one); one that leaves one is blocked there.
//!
//! The board's windows follow the rule (a four or five that would be an overline
//! is none where lines are exact). Under renju black tries only the cells it may
//! play, and a white four whose one block is forbidden to black wins: black must
//! play elsewhere (the line shows the first cell it may play), and white completes.

use super::prove::{Prover, ThreatKind};

impl Prover<'_> {
    /// Whether `attacker`, to move, wins by fours within `depth` of its moves
    /// (the winning move included). On success appends the line to `line`:
    /// attacker and defender moves alternating, ending with the completing move.
    pub fn vcf(&mut self, attacker: usize, depth: u32, ply: usize, line: &mut Vec<usize>) -> bool {
        if let (Some(cell), _) = self.board.threat_pair(attacker) {
            line.push(cell);
            return true;
        }
        if depth <= 1 {
            return false;
        }
        self.try_candidates(
            ThreatKind::Vcf,
            attacker,
            depth,
            ply,
            line,
            Self::vcf_candidates,
            Self::four_wins,
        )
    }

    /// The attacker's fours worth trying here, best first: none when the defender
    /// has two cells to complete, the block when it has one (if that is a four).
    pub fn vcf_candidates(&mut self, attacker: usize, moves: &mut Vec<usize>) {
        let k = self.board.k();
        match self.board.threat_pair(1 - attacker) {
            (Some(_), Some(_)) => {}
            (Some(block), None)
                if self.board.four_or_win(block, attacker).0 && self.may_play(block, attacker) =>
            {
                moves.push(block);
            }
            (Some(_), None) => {}
            _ if k >= 2 => {
                self.board
                    .cells_of_windows_with(attacker, k - 2, k - 2, moves);
                self.keep_playable(moves, attacker);
                self.order(moves, attacker);
            }
            _ => {}
        }
    }

    /// Whether the four `cell` (the defender has no cell to complete) wins within
    /// `depth` attacker moves; appends the line on success.
    pub fn four_wins(
        &mut self,
        attacker: usize,
        cell: usize,
        depth: u32,
        ply: usize,
        line: &mut Vec<usize>,
    ) -> bool {
        let defender = 1 - attacker;
        let start = line.len();
        self.board.put(cell, attacker);
        let won = match self.board.threat_pair(attacker) {
            (Some(block), Some(other)) => {
                line.extend([cell, block, other]);
                true
            }
            (Some(block), None) => match self.forbidden_block(attacker, block) {
                Some(None) => false,
                Some(Some(elsewhere)) => {
                    line.extend([cell, elsewhere, block]);
                    true
                }
                None => {
                    line.extend([cell, block]);
                    self.board.put(block, defender);
                    let won = self.vcf(attacker, depth - 1, ply + 1, line);
                    self.board.take(block, defender);
                    won
                }
            },
            (None, _) => false,
        };
        self.board.take(cell, attacker);
        if !won {
            line.truncate(start);
        }
        won
    }
}
