//! The negamax agent: depth-limited alpha-beta over [`LineBoard`]'s evaluation.
//!
//! Values are from the point of view of the player to move at the root (the
//! *root player*): a win for it scores `WIN - plies` (sooner is better), any other
//! player's win `-(WIN - plies)`, a draw 0, and a position at the depth limit the
//! root player's evaluation minus the sum of the other players' evaluations. The
//! root player maximises; every other player minimises (with 2 players this is
//! negamax; with 3 or more it is the *paranoid* assumption: the others act as one
//! coalition against the root player).
//!
//! Every win rule: the board's lines are the rule's ([`LineBoard`]), and under
//! renju black's forbidden cells are never searched; a position where black has
//! only forbidden cells is a draw, as in the game.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::{AgentError, LineBoard};
use crate::rng::Rng;

/// The value of a win on the move after the root.
pub const WIN: i64 = 1 << 60;
const INFINITY: i64 = WIN + 1;
/// The cancel flag is polled every this many nodes.
const POLL_NODES: u64 = 1 << 12;

/// Move buffers reused from search to search (one per ply).
#[derive(Default)]
pub struct Scratch {
    moves: Vec<Vec<(usize, usize, i64)>>,
    /// Renju: black's forbidden cells at the node being expanded.
    forbidden: Vec<usize>,
    nodes: u64,
}

/// Where an iteration of [`choose_within`] must stop, besides the cancel flag.
#[derive(Clone, Copy, Debug)]
pub struct Limit {
    pub deadline: Option<Instant>,
    /// Nodes this iteration may search.
    pub max_nodes: u64,
}

struct Search<'a> {
    board: &'a mut LineBoard,
    root: usize,
    scratch: &'a mut Scratch,
    cancel: &'a AtomicBool,
    limit: Option<Limit>,
    /// Set when `limit` stopped the search (it then reports `Cancelled`).
    out_of_budget: bool,
}

/// A move with the best value `depth` plies ahead, random among equals.
pub fn choose(
    board: &mut LineBoard,
    depth: u32,
    scratch: &mut Scratch,
    rng: &mut Rng,
    cancel: &AtomicBool,
) -> Result<usize, AgentError> {
    let values = root_values(board, depth, scratch, cancel)?;
    pick_best(&values, rng)
}

/// A move of the best value, random among equals.
fn pick_best(values: &[(usize, i64)], rng: &mut Rng) -> Result<usize, AgentError> {
    let best = values
        .iter()
        .map(|&(_, v)| v)
        .max()
        .ok_or(AgentError::GameOver)?;
    let ties: Vec<usize> = values
        .iter()
        .filter(|&&(_, v)| v == best)
        .map(|&(a, _)| a)
        .collect();
    Ok(rng.pick(&ties))
}

/// Each root move with its value, exact where it could tie for the best (values
/// below the best are upper bounds).
pub fn root_values(
    board: &mut LineBoard,
    depth: u32,
    scratch: &mut Scratch,
    cancel: &AtomicBool,
) -> Result<Vec<(usize, i64)>, AgentError> {
    limited_root_values(board, depth, scratch, cancel, None, None, &[]).map_err(|(e, _)| e)
}

/// A move found by iterative deepening within `limit` (depth 1 always completes):
/// the best of the deepest depth searched to the end, random among equals; each
/// depth searches the last one's best move first. Stops early at a decided value
/// or once the depth covers every empty cell. `limit.max_nodes` counts every
/// depth's nodes together. `allowed` (not empty) keeps the root moves to those
/// actions; empty: every legal one.
pub fn choose_within(
    board: &mut LineBoard,
    limit: Limit,
    allowed: &[usize],
    scratch: &mut Scratch,
    rng: &mut Rng,
    cancel: &AtomicBool,
) -> Result<usize, AgentError> {
    let empty = board.rules().num_cells() - board.stones();
    let mut values: Vec<(usize, i64)> = Vec::new();
    let mut first = None;
    let mut spent = 0u64;
    for depth in 1..=empty.clamp(1, 64) as u32 {
        let bound = (depth > 1).then_some(Limit {
            max_nodes: limit.max_nodes.saturating_sub(spent),
            ..limit
        });
        match limited_root_values(board, depth, scratch, cancel, bound, first, allowed) {
            Ok(v) => values = v,
            Err((AgentError::Cancelled, true)) => break,
            Err((e, _)) => return Err(e),
        }
        spent += scratch.nodes;
        let best = values
            .iter()
            .map(|&(_, v)| v)
            .max()
            .ok_or(AgentError::GameOver)?;
        first = values.iter().find(|&&(_, v)| v == best).map(|&(a, _)| a);
        if best.abs() > WIN / 2 {
            break;
        }
    }
    pick_best(&values, rng)
}

/// The move no search is needed for: one that completes a line, else (2 players)
/// the block of the opponent's only cell to complete one.
pub fn forced_move(board: &LineBoard) -> Option<usize> {
    let rules = *board.rules();
    let me = board.to_move();
    let mut legal = Vec::new();
    board.legal_actions(&mut legal);
    let cells: Vec<(usize, usize)> = legal
        .into_iter()
        .filter_map(|a| Some((a, board.cell_of(a)?)))
        .collect();
    if let Some(&(a, _)) = cells.iter().find(|&&(_, c)| board.completes_line(c, me)) {
        return Some(a);
    }
    if rules.players() != 2 {
        return None;
    }
    let mut blocks = cells
        .iter()
        .filter(|&&(_, c)| board.completes_line(c, 1 - me));
    match (blocks.next(), blocks.next()) {
        (Some(&(a, _)), None) => Some(a),
        _ => None,
    }
}

/// [`root_values`] within `limit`, `first` searched first; on error, whether the
/// limit (not the cancel flag) stopped it.
fn limited_root_values(
    board: &mut LineBoard,
    depth: u32,
    scratch: &mut Scratch,
    cancel: &AtomicBool,
    limit: Option<Limit>,
    first: Option<usize>,
    allowed: &[usize],
) -> Result<Vec<(usize, i64)>, (AgentError, bool)> {
    let root = board.to_move();
    let mut search = Search {
        board,
        root,
        scratch,
        cancel,
        limit,
        out_of_budget: false,
    };
    search.scratch.nodes = 0;
    let mut moves = search.ordered_moves(0, true);
    if !allowed.is_empty() {
        moves.retain(|m| allowed.contains(&m.0));
    }
    if let Some(i) = first.and_then(|a| moves.iter().position(|m| m.0 == a)) {
        moves[..=i].rotate_right(1);
    }
    let mut best = -INFINITY;
    let mut values = Vec::with_capacity(moves.len());
    for &(a, cell, _) in &moves {
        // A window one below the best: a move that ties gets its exact value.
        let v = search
            .child_value(cell, depth, 0, best - 1, INFINITY)
            .map_err(|e| (e, search.out_of_budget))?;
        best = best.max(v);
        values.push((a, v));
    }
    search.scratch.moves[0] = moves;
    Ok(values)
}

impl Search<'_> {
    /// The legal moves of the side to move with their cells, best-looking first
    /// (ordering only when `sort`, i.e. where the children are searched further).
    fn ordered_moves(&mut self, ply: usize, sort: bool) -> Vec<(usize, usize, i64)> {
        if self.scratch.moves.len() <= ply {
            self.scratch.moves.resize_with(ply + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.scratch.moves[ply]);
        moves.clear();
        let rules = *self.board.rules();
        let (w, h) = (rules.width(), rules.height());
        let mover = self.board.to_move();
        let centre = |a: usize| -> i64 {
            let (row, col) = if rules.gravity() {
                (0, a)
            } else {
                (a / w, a % w)
            };
            let dc = (2 * col as i64 - (w as i64 - 1)).abs();
            let dr = if rules.gravity() {
                0
            } else {
                (2 * row as i64 - (h as i64 - 1)).abs()
            };
            -(dc.max(dr) * 64 + dc + dr)
        };
        let n = rules.num_actions();
        let mut forbidden = std::mem::take(&mut self.scratch.forbidden);
        self.board.forbidden_cells(&mut forbidden);
        for a in 0..n {
            if let Some(cell) = self.board.cell_of(a) {
                if !forbidden.is_empty() && forbidden.binary_search(&cell).is_ok() {
                    continue;
                }
                let key = if sort {
                    self.board.move_value(cell, mover) * 256 + centre(a)
                } else {
                    centre(a)
                };
                moves.push((a, cell, key));
            }
        }
        self.scratch.forbidden = forbidden;
        moves.sort_by_key(|&(a, _, key)| (std::cmp::Reverse(key), a));
        moves
    }

    /// The value of filling `cell` at `ply`, searched `depth - 1` further.
    fn child_value(
        &mut self,
        cell: usize,
        depth: u32,
        ply: usize,
        alpha: i64,
        beta: i64,
    ) -> Result<i64, AgentError> {
        self.board.play(cell);
        let v = match self.board.winner() {
            Some(w) => {
                let win = WIN - ply as i64;
                Ok(if w == self.root { win } else { -win })
            }
            None if self.board.is_over() => Ok(0),
            None if depth <= 1 => Ok(self.evaluate()),
            None => self.search(depth - 1, ply + 1, alpha, beta),
        };
        self.board.unplay(cell);
        v
    }

    fn evaluate(&self) -> i64 {
        let players = self.board.rules().players();
        let mut v = self.board.score(self.root);
        for p in (0..players).filter(|&p| p != self.root) {
            v -= self.board.score(p);
        }
        v
    }

    /// The value of the current position (not over) searched `depth` plies.
    fn search(
        &mut self,
        depth: u32,
        ply: usize,
        mut alpha: i64,
        mut beta: i64,
    ) -> Result<i64, AgentError> {
        self.scratch.nodes += 1;
        if self.scratch.nodes.is_multiple_of(POLL_NODES) && self.cancel.load(Ordering::Relaxed) {
            return Err(AgentError::Cancelled);
        }
        if let Some(limit) = self.limit {
            let late = self.scratch.nodes.is_multiple_of(POLL_NODES)
                && limit.deadline.is_some_and(|d| Instant::now() >= d);
            if late || self.scratch.nodes > limit.max_nodes {
                self.out_of_budget = true;
                return Err(AgentError::Cancelled);
            }
        }
        let maximise = self.board.to_move() == self.root;
        let moves = self.ordered_moves(ply, depth > 1);
        if moves.is_empty() {
            // Renju: black has only forbidden cells, a draw.
            self.scratch.moves[ply] = moves;
            return Ok(0);
        }
        let mut best = if maximise { -INFINITY } else { INFINITY };
        let mut result = Ok(());
        for &(_, cell, _) in &moves {
            let v = match self.child_value(cell, depth, ply, alpha, beta) {
                Ok(v) => v,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            };
            if maximise {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        self.scratch.moves[ply] = moves;
        result.map(|()| best)
    }
}

#[cfg(test)]
#[path = "negamax_rule_tests.rs"]
mod rule_tests;
