//! Many games at once: a vector of environments stepped together, and whole
//! random games played without leaving Rust.

mod fast;
mod outputs;
mod simulate;
mod vec_env;
mod versus;

#[cfg(feature = "python")]
pub(crate) use outputs::step_outputs;
pub use outputs::{Dims, OwnedBuffers, PerEnv, StepBuffers};
pub use simulate::{simulate, SimulateConfig, SimulateResult};
pub use vec_env::{ActionError, Autoreset, BatchError, ObsOut, Saved, VecGames, MAX_ENVS};
pub use versus::{AgentSeat, Opponent, OpponentKind, StepError};

use crate::game::Game;
use crate::rng::Rng;

/// A uniformly random legal action of `game` (which must not be over).
#[inline]
pub fn random_legal_action(game: &Game, rng: &mut Rng) -> usize {
    let rules = game.rules();
    let n = rules.num_actions();
    if rules.gravity() {
        let legal = game.num_legal();
        let mut pick = rng.below(legal as u32) as usize;
        for col in 0..n {
            if game.column_height(col) < rules.height() {
                if pick == 0 {
                    return col;
                }
                pick -= 1;
            }
        }
        unreachable!("num_legal counted {legal} playable columns")
    } else {
        // Rejection sampling is uniform over the free cells; after a few misses,
        // the exact scan (also uniform) bounds the cost on nearly full boards.
        for _ in 0..8 {
            let a = rng.below(n as u32) as usize;
            if game.is_legal(a) {
                return a;
            }
        }
        let mut pick = rng.below(game.num_legal() as u32) as usize;
        let mut chosen = 0;
        game.for_each_legal(|a| {
            if pick == 0 {
                chosen = a;
            }
            pick = pick.wrapping_sub(1);
        });
        chosen
    }
}
