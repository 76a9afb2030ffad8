//! Victory by continuous threats on gravity boards, where a threat is a column:
//! a move after which the attacker could complete a line by dropping into some
//! column now. The defender must drop there at once (unless it completes a line
//! itself), and its stone may open the cell above to the attacker: a threat
//! stacked on a threat wins. Two threats in two columns win outright.
//!
//! The search plays on a [`Game`] (any size, any `k`), so it needs no threat
//! patterns: every legal column is tried as the attacker's move, and only those
//! that leave a threat and hand the defender no completing drop are followed.

use std::time::Instant;

use super::prove::{table_key, try_candidates, FailTable, Stop, ThreatKind, ThreatSearch};
use crate::game::Game;

/// One continuous-threat search on a gravity board.
pub struct ColumnProver<'a> {
    pub game: &'a mut Game,
    fails: &'a mut FailTable,
    stop: &'a Stop<'a>,
    pub nodes: u64,
    /// Set once the budget, the deadline or the cancel flag stopped the search.
    pub stopped: bool,
    /// Candidate buffers, one per depth.
    pool: Vec<Vec<usize>>,
}

impl<'a> ColumnProver<'a> {
    pub fn new(game: &'a mut Game, fails: &'a mut FailTable, stop: &'a Stop<'a>) -> Self {
        ColumnProver {
            game,
            fails,
            stop,
            nodes: 0,
            stopped: false,
            pool: Vec::new(),
        }
    }

    /// Whether `attacker`, to move, wins by continuous threats within `depth` of
    /// its moves (the completing drop included); the line (attacker and defender
    /// alternating, ending with the completing drop) goes into `line`.
    pub fn vcf(&mut self, attacker: usize, depth: u32, line: &mut Vec<usize>) -> bool {
        let mut wins = [usize::MAX; 2];
        if self.wins(attacker, &mut wins) > 0 {
            line.push(wins[0]);
            return true;
        }
        if depth <= 1 {
            return false;
        }
        let slot = depth as usize;
        if self.pool.len() <= slot {
            self.pool.resize_with(slot + 1, Vec::new);
        }
        let mut columns = std::mem::take(&mut self.pool[slot]);
        let won = try_candidates(
            self,
            ThreatKind::Vcf,
            attacker,
            depth,
            &mut columns,
            |s, columns| s.candidates(attacker, columns),
            |s, column| s.threat_wins(attacker, column, depth, line),
        );
        self.pool[slot] = columns;
        won
    }

    /// The attacker's drops worth trying: none when the defender completes a line
    /// in two columns, its only completing column when it has one (nothing else
    /// can win), else every legal column.
    fn candidates(&mut self, attacker: usize, columns: &mut Vec<usize>) {
        let mut blocks = [usize::MAX; 2];
        match self.wins(1 - attacker, &mut blocks) {
            0 => columns
                .extend((0..self.game.rules().num_actions()).filter(|&c| self.game.is_legal(c))),
            1 => columns.push(blocks[0]),
            _ => {}
        }
    }

    /// Whether dropping into `column` (legal, `attacker` to move, no completing
    /// drop of its own) makes a threat that wins within `depth`; the line on success.
    pub fn threat_wins(
        &mut self,
        attacker: usize,
        column: usize,
        depth: u32,
        line: &mut Vec<usize>,
    ) -> bool {
        let defender = 1 - attacker;
        self.game.play_unchecked(column);
        let mut threats = [usize::MAX; 2];
        let won = if self.game.is_over() || self.wins(defender, &mut [usize::MAX; 2]) > 0 {
            // A full board, or the defender completes a line instead of answering.
            false
        } else {
            match self.wins(attacker, &mut threats) {
                0 => false,
                1 => {
                    let block = threats[0];
                    self.game.play_unchecked(block);
                    let mut rest = Vec::new();
                    let won = !self.game.is_over() && self.vcf(attacker, depth - 1, &mut rest);
                    self.game.undo().expect("the block was played");
                    if won {
                        line.extend([column, block]);
                        line.extend(rest);
                    }
                    won
                }
                _ => {
                    // Two columns: whichever the defender blocks, the other completes.
                    line.extend([column, threats[0], threats[1]]);
                    true
                }
            }
        };
        self.game.undo().expect("the threat was played");
        won
    }

    /// How many columns (up to 2) `player` completes a line in now; the first ones
    /// go into `found`.
    fn wins(&self, player: usize, found: &mut [usize; 2]) -> usize {
        let mut n = 0;
        for a in 0..self.game.rules().num_actions() {
            if self.game.is_legal(a) && self.game.wins_at(player, a) {
                found[n] = a;
                n += 1;
                if n == 2 {
                    break;
                }
            }
        }
        n
    }
}

impl ThreatSearch for ColumnProver<'_> {
    fn out_of_budget(&mut self) -> bool {
        self.stop.count(&mut self.nodes, &mut self.stopped)
    }

    fn stopped(&self) -> bool {
        self.stopped
    }

    fn known_fail(&self, kind: ThreatKind, attacker: usize, depth: u32) -> bool {
        self.fails
            .failed(table_key(self.game.hash(), kind, attacker), depth)
    }

    fn record_fail(&mut self, kind: ThreatKind, attacker: usize, depth: u32) {
        if !self.stopped {
            let key = table_key(self.game.hash(), kind, attacker);
            self.fails.record(key, depth);
        }
    }
}

/// What the threat phase of a gravity move decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ColumnRoot {
    /// The first drop of a proven win by continuous threats.
    Win(usize),
    /// The columns after which the opponent was not shown to win by continuous
    /// threats (empty: every column, when none is safe or none was checked).
    Safe(Vec<usize>),
}

/// Depth, in attacker moves, of the gravity threat searches around a move.
const ROOT_DEPTH: u32 = 40;
const DEFENCE_DEPTH: u32 = 20;

/// The threat phase of a move on a gravity board (2 players, not over): a win
/// by continuous threats for the side to move within the first 15% of `budget`,
/// else the columns that survive the opponent's continuous threats, checked
/// within the next 25%. Returns the verdict and the nodes searched.
pub fn column_root(
    game: &Game,
    budget: super::Budget,
    cancel: &std::sync::atomic::AtomicBool,
) -> (ColumnRoot, u64) {
    let start = Instant::now();
    let phase = |share: f64, used: u64| match budget {
        super::Budget::Time(t) => Stop {
            max_nodes: u64::MAX,
            deadline: Some(start + t.mul_f64(share)),
            cancel,
        },
        super::Budget::Nodes(n) => Stop {
            max_nodes: ((n as f64 * share) as u64).saturating_sub(used).max(1),
            deadline: None,
            cancel,
        },
    };
    let me = game.to_move();
    let mut copy = game.clone();
    let mut fails = FailTable::new(16);
    let stop = phase(0.15, 0);
    let mut prover = ColumnProver::new(&mut copy, &mut fails, &stop);
    let mut line = Vec::new();
    let won = prover.vcf(me, ROOT_DEPTH, &mut line);
    let mut nodes = prover.nodes;
    if won {
        return (ColumnRoot::Win(line[0]), nodes);
    }
    let stop = phase(0.4, nodes);
    let legal: Vec<usize> = (0..game.rules().num_actions())
        .filter(|&a| game.is_legal(a))
        .collect();
    let (mut safe, mut unchecked) = (Vec::new(), Vec::new());
    let mut prover = ColumnProver::new(&mut copy, &mut fails, &stop);
    for &column in &legal {
        if prover.stopped {
            unchecked.push(column);
            continue;
        }
        prover.game.play_unchecked(column);
        let loses = !prover.game.is_over() && prover.vcf(1 - me, DEFENCE_DEPTH, &mut Vec::new());
        prover.game.undo().expect("the column was played");
        if prover.stopped {
            unchecked.push(column);
        } else if !loses {
            safe.push(column);
        }
    }
    nodes += prover.nodes;
    if safe.is_empty() {
        return (ColumnRoot::Safe(Vec::new()), nodes);
    }
    safe.extend(unchecked);
    (ColumnRoot::Safe(safe), nodes)
}
