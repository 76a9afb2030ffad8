//! Agents that choose moves for any rules of the family, and a match runner that
//! plays them against each other across threads.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use inarow::agents::{Agent, AgentWorker};
//! use inarow::{Game, Rng, Rules};
//!
//! let mut game = Game::from_actions(Rules::connect_four(), &[3, 0, 3, 0, 3]).unwrap();
//! let mut greedy = AgentWorker::new(Agent::Greedy);
//! let mut rng = Rng::new(0, 0);
//! // The second player must block the vertical three in column 3.
//! assert_eq!(greedy.choose(&game, &mut rng, &AtomicBool::new(false)).unwrap(), 3);
//! ```
//!
//! Every agent is a pure function of the position and a random generator (used
//! only to break ties or to sample), so a seed makes it deterministic.

mod agent;
mod arena;
mod greedy;
mod lines;
mod many;
mod negamax;
mod perfect;

pub use crate::error::AgentError;
pub use agent::{Agent, AgentWorker, MAX_DEPTH, MAX_THREATS_NODES, MAX_THREATS_SECONDS};
pub use arena::{
    game_rng, play_match, play_opening, round_of, seat_of_a, Keep, KeptGame, MatchConfig,
    MatchResult, Openings, Tally,
};
pub use lines::{window_weight, LineBoard};
pub use many::choose_many;
pub use perfect::softmax_pick;

#[cfg(test)]
mod tests;
