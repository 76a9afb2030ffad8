//! Victory by continuous threats: fours and threes, the defender's relevant
//! replies all tried; sound (a proof holds against every defence) within its depth.
//!
//! A *three* is a move after which the attacker, moving again, would win by VCF
//! (the *pass line*). Against it the defender may play anywhere, but only a few
//! cells can matter: the cells of the pass line, and the empty cells of the
//! windows where the defender's stones and its blocks along the pass line come
//! to `k - 2` or more with no attacker stone. A defender stone anywhere else
//! changes neither the pass line's fours nor its forced replies (it cannot give
//! the defender a four along the way), so the pass line still wins. Every
//! relevant reply is tried; the attacker must win against each.
//!
//! Under renju the pass line is a strict VCF ([`Prover::strict`]): black's moves
//! along it stay allowed whatever white adds, and no white four on it wins by a
//! block forbidden to black (a black stone elsewhere could unforbid it). Black
//! defends only with the cells it may play.

use super::prove::{Prover, ThreatKind};

impl Prover<'_> {
    /// Whether `attacker`, to move, wins by threats within `depth` of its moves
    /// along any line (the winning move included). On success appends one line of
    /// the proof to `line`: the defender's reply at each three is the one that
    /// holds out longest.
    pub fn vct(&mut self, attacker: usize, depth: u32, ply: usize, line: &mut Vec<usize>) -> bool {
        if self.vcf(attacker, depth, ply, line) {
            return true;
        }
        if depth <= 2 {
            return false;
        }
        self.try_candidates(
            ThreatKind::Vct,
            attacker,
            depth,
            ply,
            line,
            Self::vct_candidates,
            Self::threat_wins,
        )
    }

    /// The attacker's threats worth trying here, best first: the block when the
    /// defender has one cell to complete, else every four and every move that
    /// makes a window of `k - 2`.
    pub fn vct_candidates(&mut self, attacker: usize, moves: &mut Vec<usize>) {
        let k = self.board.k();
        match self.board.threat_pair(1 - attacker) {
            (Some(_), Some(_)) => {}
            (Some(block), None) if self.may_play(block, attacker) => moves.push(block),
            (Some(_), None) => {}
            // With k = 2 a lone stone is a four and there is no three below it.
            _ if k >= 2 => {
                self.board
                    .cells_of_windows_with(attacker, k.saturating_sub(3), k - 2, moves);
                self.keep_playable(moves, attacker);
                self.order(moves, attacker);
            }
            _ => {}
        }
    }

    /// Whether the attacker's move `cell` (the defender has no cell to complete
    /// afterwards) wins by threats within `depth` attacker moves; appends a line.
    pub fn threat_wins(
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
        let mut replies = self.take_buffer(ply + 1);
        let threatens = match self.board.threat_pair(attacker) {
            (Some(block), Some(other)) => {
                line.extend([cell, block, other]);
                self.board.take(cell, attacker);
                self.give_buffer(ply + 1, replies);
                return true;
            }
            (Some(block), None) => match self.forbidden_block(attacker, block) {
                Some(None) => false,
                Some(Some(elsewhere)) => {
                    line.extend([cell, elsewhere, block]);
                    self.board.take(cell, attacker);
                    self.give_buffer(ply + 1, replies);
                    return true;
                }
                None => {
                    replies.push(block);
                    true
                }
            },
            (None, _) => self.relevant_replies(attacker, depth - 1, ply + 2, &mut replies),
        };
        let mut best: Option<Vec<usize>> = None;
        let mut won = threatens;
        if threatens {
            for &reply in &replies {
                let mut sub = vec![reply];
                self.board.put(reply, defender);
                let holds = self.vct(attacker, depth - 1, ply + 2, &mut sub);
                self.board.take(reply, defender);
                if !holds {
                    won = false;
                    break;
                }
                if best.as_ref().is_none_or(|b| sub.len() > b.len()) {
                    best = Some(sub);
                }
            }
        }
        self.give_buffer(ply + 1, replies);
        self.board.take(cell, attacker);
        match best {
            Some(sub) if won => {
                line.truncate(start);
                line.push(cell);
                line.extend(sub);
                true
            }
            _ => {
                line.truncate(start);
                false
            }
        }
    }

    /// After a quiet attacker move: whether the attacker, moving again, wins by
    /// VCF within `depth`; if so the defender's replies that could matter, into
    /// `replies` (see the module docs).
    pub fn relevant_replies(
        &mut self,
        attacker: usize,
        depth: u32,
        ply: usize,
        replies: &mut Vec<usize>,
    ) -> bool {
        let mut pass_line = Vec::new();
        let strict = std::mem::replace(&mut self.strict, true);
        let passes = self.vcf(attacker, depth, ply, &mut pass_line);
        self.strict = strict;
        if !passes {
            return false;
        }
        let defender = 1 - attacker;
        replies.extend_from_slice(&pass_line);
        let blocks: Vec<usize> = pass_line.iter().skip(1).step_by(2).copied().collect();
        for &b in &blocks {
            self.board.put(b, defender);
        }
        let k = self.board.k();
        self.board
            .cells_of_windows_with(defender, k.saturating_sub(2), k, replies);
        for &b in blocks.iter().rev() {
            self.board.take(b, defender);
        }
        // `cells_of_windows_with` skips the cells already listed: the list is distinct.
        self.keep_playable(replies, defender);
        self.order(replies, defender);
        true
    }
}
