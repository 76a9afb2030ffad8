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
