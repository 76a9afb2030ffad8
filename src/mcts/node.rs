//! A node of a search tree and the proven results it may carry.

use super::state::Status;
use crate::rules::MAX_PLAYERS;
use std::ops::Range;

/// `Node::proven` for a node whose result is not known.
pub(crate) const UNKNOWN: u8 = 0;
/// `Node::proven` for a proven draw; `2 + p` for a proven win of player `p`.
pub(crate) const DRAW: u8 = 1;

#[inline]
pub(crate) fn won_by(player: usize) -> u8 {
    2 + player as u8
}

/// The value of a proven result for `player`: +1 won, -1 lost, 0 drawn.
#[inline]
pub(crate) fn value_of(proven: u8, player: usize) -> f32 {
    match proven {
        DRAW => 0.0,
        p if p == won_by(player) => 1.0,
        _ => -1.0,
    }
}

pub(crate) fn proven_of(status: Status) -> u8 {
    match status {
        Status::Won(p) => won_by(p),
        Status::Draw => DRAW,
        Status::Ongoing => UNKNOWN,
    }
}

/// Values of a result for every player (absolute player order).
pub(crate) type Values = [f32; MAX_PLAYERS];

pub(crate) fn values_of(proven: u8, players: usize) -> Values {
    let mut v = [0.0; MAX_PLAYERS];
    for (p, x) in v.iter_mut().enumerate().take(players) {
        *x = value_of(proven, p);
    }
    v
}

/// A node of the arena. Children of a node sit at `first_child..first_child +
/// num_children`, in ascending action order.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Node {
    /// Sum of backed-up values of the player who moved into this node (f64: exact
    /// counting far past 2**24 visits, no overflow for any accepted value).
    pub value_sum: f64,
    /// The evaluator's probability of this node's action at its parent.
    pub prior: f32,
    /// The evaluator's value of this node for its side to move (Gumbel's mixed value).
    pub raw_value: f32,
    pub visits: u32,
    pub first_child: u32,
    pub action: u16,
    /// 0 until expanded (a terminal node is never expanded).
    pub num_children: u16,
    /// `UNKNOWN`, `DRAW` or `won_by(p)`.
    pub proven: u8,
    /// Whether the current run has logged this node's earlier state (see [`Undo`]).
    pub(crate) logged: bool,
}

impl Node {
    #[inline]
    pub(crate) fn children(&self) -> Range<usize> {
        self.first_child as usize..self.first_child as usize + self.num_children as usize
    }
}
