//! The threat engine for free-placement boards too big to solve (gomoku 15x15
//! and 20x20, 9x9 with `k = 5`...): threat-space searches that prove forced wins
//! (VCF, VCT: see [`ThreatKind`]) and an alpha-beta engine that calls them.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use inarow::threats::{find_win, ThreatKind};
//! use inarow::{Game, Rules};
//!
//! // Gomoku: the first player has an open three on row 7 (cols 5..=7) and a
//! // stone on row 6; it wins by fours.
//! let rules = Rules::gomoku(15).unwrap();
//! let moves = [7 * 15 + 5, 0, 7 * 15 + 6, 14, 7 * 15 + 7, 14 * 15];
//! let game = Game::from_actions(rules, &moves).unwrap();
//! let line = find_win(&game, ThreatKind::Vcf, 10, u64::MAX, &AtomicBool::new(false))
//!     .unwrap()
//!     .expect("an open three wins by fours");
//! assert_eq!(line.len() % 2, 1); // attacker, defender, ..., the completing move
//! ```

mod board;
mod cell_patterns;
mod columns;
mod engine;
mod learned_eval;
mod learned_order;
mod learned_shapes;
mod live_windows;
#[cfg(test)]
mod pattern_tests;
mod patterns;
mod prove;
#[cfg(test)]
mod rule_tests;
mod shallow;
mod table;
#[cfg(test)]
mod tests;
mod vcf;
mod vct;

use std::sync::atomic::AtomicBool;

pub use board::ThreatBoard;
pub use columns::{column_root, ColumnProver, ColumnRoot};
pub use engine::{Budget, CandidateFeatures, Engine, SearchStats, MAX_THREADS};
pub use prove::{ProverTables, Stop, ThreatKind};
pub use shallow::ShallowCuts;

use crate::error::AgentError;
use crate::game::Game;
use crate::rules::Rules;
use prove::{FailTable, Prover};

/// Deepest accepted threat search, in attacker moves.
pub const MAX_THREAT_DEPTH: u32 = 225;

/// Whether the threats agent plays `rules`: 2 players, every win rule. A paranoid
/// deepening search for 3 or more drew all 12 games it played against two
/// `negamax:2` on 8x8, k = 5 (0.2 s a move): it does not pay, so it is refused.
pub fn check_players(rules: &Rules) -> Result<(), AgentError> {
    if rules.players() != 2 {
        return Err(AgentError::Unsupported(format!(
            "the threat engine plays 2 players, not {} ({rules}); negamax plays any number \
             (paranoid for 3 or more)",
            rules.players()
        )));
    }
    Ok(())
}

/// Whether the threat searches and the engine play `rules`: 2 players placing freely.
pub fn check_rules(rules: &Rules) -> Result<(), AgentError> {
    check_players(rules)?;
    if rules.gravity() {
        return Err(AgentError::Unsupported(format!(
            "the threat engine plays free placement, not gravity ({rules}); use perfect \
             (boards the solver covers) or negamax"
        )));
    }
    Ok(())
}

/// Whether [`find_win`] and [`winning_moves`] search `kind` on `rules`: 2 players;
/// on gravity boards VCF only (threats along columns, [`ColumnProver`]).
pub fn check_finder(rules: &Rules, kind: ThreatKind) -> Result<(), AgentError> {
    check_players(rules)?;
    if rules.gravity() && kind == ThreatKind::Vct {
        return Err(AgentError::Unsupported(format!(
            "kind=\"vct\" searches free placement only, not gravity ({rules}): on gravity \
             boards use kind=\"vcf\" (continuous threats along columns)"
        )));
    }
    Ok(())
}

/// A forced win of `kind` for the side to move in `game` within `max_depth` of
/// its moves (the completing move included), searching at most `max_nodes`:
/// the line of moves (attacker and defender alternating, ending with the
/// completing move; for a VCT one line of the proof, the defender holding out
/// longest at each three), or `None` when none was found.
pub fn find_win(
    game: &Game,
    kind: ThreatKind,
    max_depth: u32,
    max_nodes: u64,
    cancel: &AtomicBool,
) -> Result<Option<Vec<usize>>, AgentError> {
    check(game, kind)?;
    if game.rules().gravity() {
        let mut fails = FailTable::new(fail_bits(max_nodes));
        let stop = Stop {
            max_nodes,
            deadline: None,
            cancel,
        };
        let mut copy = game.clone();
        let mut prover = ColumnProver::new(&mut copy, &mut fails, &stop);
        let mut line = Vec::new();
        let won = prover.vcf(game.to_move(), max_depth, &mut line);
        cancelled(cancel)?;
        return Ok(won.then_some(line));
    }
    let mut board = ThreatBoard::new(*game.rules());
    board.load(game);
    let mut tables = ProverTables::sized_for(max_nodes);
    let stop = Stop {
        max_nodes,
        deadline: None,
        cancel,
    };
    let mut prover = Prover::new(&mut board, &mut tables, &stop);
    let attacker = game.to_move();
    let mut line = Vec::new();
    let won = match kind {
        ThreatKind::Vcf => prover.vcf(attacker, max_depth, 0, &mut line),
        ThreatKind::Vct => prover.vct(attacker, max_depth, 0, &mut line),
    };
    cancelled(cancel)?;
    Ok(won.then_some(line))
}

/// Every first move of a forced win of `kind` within `max_depth` for the side
/// to move (the cells that complete a line at once included), ascending; the
/// search of each move stops after `max_nodes`.
pub fn winning_moves(
    game: &Game,
    kind: ThreatKind,
    max_depth: u32,
    max_nodes: u64,
    cancel: &AtomicBool,
) -> Result<Vec<usize>, AgentError> {
    check(game, kind)?;
    if game.rules().gravity() {
        return winning_columns(game, max_depth, max_nodes, cancel);
    }
    let mut board = ThreatBoard::new(*game.rules());
    board.load(game);
    let attacker = game.to_move();
    let completing: Vec<usize> = (0..board.num_cells())
        .filter(|&c| board.is_empty(c) && board.four_or_win(c, attacker).1)
        .collect();
    if !completing.is_empty() || max_depth <= 1 {
        return Ok(completing);
    }
    let mut tables = ProverTables::sized_for(max_nodes);
    let mut candidates = Vec::new();
    {
        let stop = Stop {
            max_nodes,
            deadline: None,
            cancel,
        };
        let mut prover = Prover::new(&mut board, &mut tables, &stop);
        match kind {
            ThreatKind::Vcf => prover.vcf_candidates(attacker, &mut candidates),
            ThreatKind::Vct => prover.vct_candidates(attacker, &mut candidates),
        }
    }
    let mut wins = Vec::new();
    for cell in candidates {
        let stop = Stop {
            max_nodes,
            deadline: None,
            cancel,
        };
        let mut prover = Prover::new(&mut board, &mut tables, &stop);
        let mut line = Vec::new();
        let won = match kind {
            ThreatKind::Vcf => prover.four_wins(attacker, cell, max_depth, 1, &mut line),
            ThreatKind::Vct => prover.threat_wins(attacker, cell, max_depth, 1, &mut line),
        };
        if won {
            wins.push(cell);
        }
        cancelled(cancel)?;
    }
    wins.sort_unstable();
    Ok(wins)
}

/// [`winning_moves`] on a gravity board.
fn winning_columns(
    game: &Game,
    max_depth: u32,
    max_nodes: u64,
    cancel: &AtomicBool,
) -> Result<Vec<usize>, AgentError> {
    let attacker = game.to_move();
    let legal: Vec<usize> = (0..game.rules().num_actions())
        .filter(|&a| game.is_legal(a))
        .collect();
    let completing: Vec<usize> = legal
        .iter()
        .copied()
        .filter(|&a| game.wins_at(attacker, a))
        .collect();
    if !completing.is_empty() || max_depth <= 1 {
        return Ok(completing);
    }
    let mut fails = FailTable::new(fail_bits(max_nodes));
    let mut copy = game.clone();
    // The opponent's completing drop must be blocked: only that column can win.
    let mut blocks = legal
        .iter()
        .copied()
        .filter(|&a| game.wins_at(1 - attacker, a));
    let columns = match (blocks.next(), blocks.next()) {
        (Some(_), Some(_)) => return Ok(Vec::new()),
        (Some(block), None) => vec![block],
        _ => legal,
    };
    let mut wins = Vec::new();
    for column in columns {
        let stop = Stop {
            max_nodes,
            deadline: None,
            cancel,
        };
        let mut prover = ColumnProver::new(&mut copy, &mut fails, &stop);
        if prover.threat_wins(attacker, column, max_depth, &mut Vec::new()) {
            wins.push(column);
        }
        cancelled(cancel)?;
    }
    Ok(wins)
}

/// Fail-table size for searches of about `nodes` nodes: 2^10 to 2^18 slots.
fn fail_bits(nodes: u64) -> u32 {
    (64 - nodes.max(1).leading_zeros()).clamp(10, 18)
}

fn check(game: &Game, kind: ThreatKind) -> Result<(), AgentError> {
    check_finder(game.rules(), kind)?;
    if game.is_over() {
        return Err(AgentError::GameOver);
    }
    Ok(())
}

fn cancelled(cancel: &AtomicBool) -> Result<(), AgentError> {
    if cancel.load(std::sync::atomic::Ordering::Relaxed) {
        Err(AgentError::Cancelled)
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod column_tests;
