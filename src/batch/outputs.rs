//! The outputs of a vector step, declared once.
//!
//! `step_outputs!` is the one table of what a step writes per environment: each
//! field's element type, its size per env, and its `info` key in Python. The core's
//! [`StepBuffers`] (and its split across threads), the tests' owned buffers and the
//! Python layer's arrays and `info` dict are all generated from it, so a new output
//! is one line here plus the code that writes it.
//!
//! Observations are apart (their element type is chosen at construction, see
//! [`ObsOut`]), and so is `truncated`: the games always end, so no step writes it
//! and the Python layer hands out all-False arrays.

use crate::game::Game;

/// Calls `$then! { field: type, per_env, "info key"; ... }` with every step output.
/// `per_env` names a [`Dims`] method ([`PerEnv`]): an output a configuration does
/// not produce (`opponent`, `illegal_loss`) is absent, neither allocated nor
/// shown. `"info key"` is the field's key in the Python `info` dict (`""`:
/// returned apart, or special). The order is the `info` dict's.
macro_rules! step_outputs {
    ($then:ident) => {
        $then! {
            // 1-based player to move after the step.
            current_player: i8, scalar, "current_player";
            // Legal actions after the step; all true for a game that ended and waits
            // for its next-step autoreset (pgx's terminal mask).
            mask: bool, actions, "action_mask";
            // 1-based winner of the game that ended with this step, 0 otherwise.
            winner: i8, scalar, "winner";
            // +1 to the winner, -1 to every other player (an illegal action: -1 to
            // its player, +1 to the other of two), 0 otherwise.
            player_rewards: f32, players, "player_rewards";
            // 1-based seat of the agent in each env's current episode.
            agent_player: i8, opponent, "agent_player";
            // The agent's seat (1-based) in the episode this step ended, 0 where none
            // ended (a same-step reset draws the next seat at once).
            final_agent_player: i8, opponent, "final_agent_player";
            // This step ended the env's episode by an illegal action.
            illegal: bool, illegal_loss, "illegal_action";
            // Reward of the player who just acted (the agent's, with an opponent).
            rewards: f32, scalar, "";
            // The game ended with this step.
            terminated: bool, scalar, "";
            // The env was reset by this step (autoreset): `info["autoreset"]`, or
            // `info["_final_obs"]` in same-step mode.
            reset: bool, scalar, "";
        }
    };
}
#[cfg(feature = "python")]
pub(crate) use step_outputs;

/// Where observations go: planes `(num_envs, players, height, width)`.
pub enum ObsOut<'a> {
    U8(&'a mut [u8]),
    Bool(&'a mut [bool]),
    F32(&'a mut [f32]),
}

impl<'a> ObsOut<'a> {
    pub(super) fn split_at(self, at: usize) -> (ObsOut<'a>, ObsOut<'a>) {
        match self {
            ObsOut::U8(s) => {
                let (a, b) = s.split_at_mut(at);
                (ObsOut::U8(a), ObsOut::U8(b))
            }
            ObsOut::Bool(s) => {
                let (a, b) = s.split_at_mut(at);
                (ObsOut::Bool(a), ObsOut::Bool(b))
            }
            ObsOut::F32(s) => {
                let (a, b) = s.split_at_mut(at);
                (ObsOut::F32(a), ObsOut::F32(b))
            }
        }
    }

    pub(super) fn write(&mut self, env: usize, per_env: usize, game: &Game) {
        let range = env * per_env..(env + 1) * per_env;
        match self {
            ObsOut::U8(s) => game.write_planes(&mut s[range], 0, 1),
            ObsOut::Bool(s) => game.write_planes(&mut s[range], false, true),
            ObsOut::F32(s) => game.write_planes(&mut s[range], 0.0, 1.0),
        }
    }

    /// Env `env`'s planes from the view of `seat` (0-based; `None`: the side to move).
    pub(super) fn write_as(
        &mut self,
        env: usize,
        per_env: usize,
        game: &Game,
        seat: Option<usize>,
    ) {
        let seat = seat.unwrap_or(game.to_move());
        let range = env * per_env..(env + 1) * per_env;
        match self {
            ObsOut::U8(s) => game.write_planes_as(seat, &mut s[range], 0, 1),
            ObsOut::Bool(s) => game.write_planes_as(seat, &mut s[range], false, true),
            ObsOut::F32(s) => game.write_planes_as(seat, &mut s[range], 0.0, 1.0),
        }
    }

    pub(super) fn reborrow(&mut self) -> ObsOut<'_> {
        match self {
            ObsOut::U8(s) => ObsOut::U8(s),
            ObsOut::Bool(s) => ObsOut::Bool(s),
            ObsOut::F32(s) => ObsOut::F32(s),
        }
    }

    pub(super) fn len(&self) -> usize {
        match self {
            ObsOut::U8(s) => s.len(),
            ObsOut::Bool(s) => s.len(),
            ObsOut::F32(s) => s.len(),
        }
    }
}

/// The sizes a batch's outputs are built from.
#[derive(Clone, Copy, Debug)]
pub struct Dims {
    /// Observation elements per env (`players * height * width`).
    pub obs: usize,
    pub actions: usize,
    pub players: usize,
    /// An opponent plays: the agent's seats exist.
    pub opponent: bool,
    /// Illegal actions lose: the `illegal` flags exist.
    pub illegal_loss: bool,
}

/// An output's size per environment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PerEnv {
    /// Not produced by this batch (an opponent's outputs in self-play, say).
    Absent,
    /// One value: a `(num_envs,)` array.
    Scalar,
    /// A row of this many values: a `(num_envs, len)` array.
    Row(usize),
}

impl PerEnv {
    fn scalar_if(produced: bool) -> PerEnv {
        if produced {
            PerEnv::Scalar
        } else {
            PerEnv::Absent
        }
    }

    /// Values per environment.
    pub fn values(self) -> usize {
        match self {
            PerEnv::Absent => 0,
            PerEnv::Scalar => 1,
            PerEnv::Row(w) => w,
        }
    }
}

/// The shape rules the table names.
impl Dims {
    pub fn scalar(&self) -> PerEnv {
        PerEnv::Scalar
    }
    pub fn actions(&self) -> PerEnv {
        PerEnv::Row(self.actions)
    }
    pub fn players(&self) -> PerEnv {
        PerEnv::Row(self.players)
    }
    pub fn opponent(&self) -> PerEnv {
        PerEnv::scalar_if(self.opponent)
    }
    pub fn illegal_loss(&self) -> PerEnv {
        PerEnv::scalar_if(self.illegal_loss)
    }
}

macro_rules! declare_step_buffers {
    ($($field:ident: $t:ty, $per_env:ident, $key:literal;)*) => {
        /// The output buffers of a step, each `num_envs * per_env` long (see
        /// `step_outputs!` for each field; absent outputs are empty).
        pub struct StepBuffers<'a> {
            /// `(n, players, height, width)` egocentric planes.
            pub obs: ObsOut<'a>,
            /// Same-step autoreset only: the final observations, shaped as `obs`.
            pub final_obs: Option<ObsOut<'a>>,
            $(pub $field: &'a mut [$t],)*
        }

        impl<'a> StepBuffers<'a> {
            /// The first `envs` environments' buffers and the rest.
            pub(super) fn split_at(self, envs: usize, d: &Dims) -> (StepBuffers<'a>, StepBuffers<'a>) {
                let (obs_a, obs_b) = self.obs.split_at(envs * d.obs);
                let (f_a, f_b) = match self.final_obs {
                    Some(f) => {
                        let (a, b) = f.split_at(envs * d.obs);
                        (Some(a), Some(b))
                    }
                    None => (None, None),
                };
                $(let $field = self.$field.split_at_mut(envs * d.$per_env().values());)*
                (
                    StepBuffers { obs: obs_a, final_obs: f_a, $($field: $field.0,)* },
                    StepBuffers { obs: obs_b, final_obs: f_b, $($field: $field.1,)* },
                )
            }

            /// The same buffers, borrowed again (for calls that fill them in turns).
            pub fn reborrow(&mut self) -> StepBuffers<'_> {
                StepBuffers {
                    obs: self.obs.reborrow(),
                    final_obs: self.final_obs.as_mut().map(|f| f.reborrow()),
                    $($field: self.$field,)*
                }
            }

            /// Panics unless every buffer fits `n` environments.
            pub(super) fn check(&self, n: usize, d: &Dims) {
                assert_eq!(self.obs.len(), n * d.obs, "obs buffer size");
                if let Some(f) = &self.final_obs {
                    assert_eq!(f.len(), n * d.obs, "final_obs buffer size");
                }
                $(assert_eq!(self.$field.len(), n * d.$per_env().values(), stringify!($field));)*
            }
        }

        /// Buffers owned in `Vec`s (`u8` observations, a `final_obs` buffer), for
        /// Rust callers and tests.
        #[derive(Clone, Debug, PartialEq)]
        pub struct OwnedBuffers {
            pub obs: Vec<u8>,
            pub final_obs: Vec<u8>,
            $(pub $field: Vec<$t>,)*
        }

        impl OwnedBuffers {
            /// Zeroed buffers for `n` environments of sizes `d` ([`VecGames::dims`](super::VecGames::dims)).
            pub fn new(n: usize, d: &Dims) -> OwnedBuffers {
                OwnedBuffers {
                    obs: vec![0; n * d.obs],
                    final_obs: vec![0; n * d.obs],
                    $($field: vec![<$t>::default(); n * d.$per_env().values()],)*
                }
            }

            /// The buffers, borrowed for one call.
            pub fn bufs(&mut self) -> StepBuffers<'_> {
                StepBuffers {
                    obs: ObsOut::U8(&mut self.obs),
                    final_obs: Some(ObsOut::U8(&mut self.final_obs)),
                    $($field: &mut self.$field,)*
                }
            }
        }
    };
}

step_outputs!(declare_step_buffers);
