//! Many games at once: a vector of environments stepped together, and whole
//! random games played without leaving Rust.

mod episode;
mod opponent;
mod outputs;
mod simulate;
mod state;
mod vec_env;

pub use episode::Autoreset;
pub use opponent::{opponent_named, AgentSeat, Opponent, OpponentKind, OPPONENT_NAMES};
#[cfg(feature = "python")]
pub(crate) use outputs::step_outputs;
pub use outputs::{Dims, ObsOut, OwnedBuffers, PerEnv, StepBuffers};
pub use simulate::{simulate, SimulateConfig, SimulateResult};
pub use state::StateError;
pub use vec_env::{ActionError, BatchError, Saved, StepError, VecGames, MAX_ENVS};

use crate::game::Game;
use crate::rng::Rng;

/// A uniformly random legal action of `game` (which must not be over); the same
/// as [`Game::random_action`].
#[inline]
pub fn random_legal_action(game: &Game, rng: &mut Rng) -> usize {
    game.random_action(rng)
}
