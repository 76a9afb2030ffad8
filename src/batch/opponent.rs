//! Who plays the seats the agent does not hold, and the seat it holds: the opponent
//! kinds, their names (read here, once), the seat check, and the per-env state the
//! episode step reads (seats, the opponents' random streams, one worker per thread).
//!
//! A built-in opponent moves inside the step, on the env's own thread and random
//! stream; an external one (the caller, e.g. a Python policy) is asked between
//! rounds. Rewards and observations are the agent's.

use std::sync::{Mutex, MutexGuard};

use std::time::Duration;

use crate::agents::{Agent, AgentError, AgentWorker, MAX_DEPTH, MAX_THREATS_SECONDS};
use crate::game::Game;
use crate::rng::Rng;
use crate::rules::Rules;
use crate::solver::DEFAULT_TT_BYTES;
use crate::threats::Budget;

/// First stream of the opponents' generators: env `i` draws its opponent's moves
/// and its seats from stream `OPPONENT_STREAMS + i`, apart from its own stream `i`
/// (which `random_actions` uses), so the two never disturb each other.
pub(super) const OPPONENT_STREAMS: u64 = 1 << 32;

/// The seat the agent holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentSeat {
    /// This seat (0-based) in every episode.
    Fixed(usize),
    /// A seat drawn uniformly at the start of every episode from the env's opponent stream.
    Random,
}

/// The names of the built-in agents, as every layer shows them (`inarow.agents.named`,
/// `evaluate.match`, every env's `opponent=`, the CLI).
pub const OPPONENT_NAMES: &str =
    "\"random\", \"greedy\", \"negamax\" or \"negamax:D\" (depth 1 <= D <= 64, default 4), \
     \"perfect\" or \"perfect:T\" (temperature T >= 0, default 0; also \"solver\", \
     \"solver:T\"), \"threats\" (1 s per move), \"threats:S\" (S seconds per move, \
     0 < S <= 3600) or \"threats:nodes=N\" (N nodes per move, 1 <= N <= 2**40)";

/// The depth of `"negamax"` without one.
pub const DEFAULT_NAMED_DEPTH: u32 = 4;

/// The built-in agent a name stands for (see [`OPPONENT_NAMES`]): the one place
/// names are read, by every layer. `"solver"` is another name of `"perfect"`.
pub fn opponent_named(name: &str) -> Option<Agent> {
    let (head, arg) = match name.split_once(':') {
        Some((head, arg)) => (head, Some(arg)),
        None => (name, None),
    };
    match (head, arg) {
        ("random", None) => Some(Agent::Random),
        ("greedy", None) => Some(Agent::Greedy),
        ("negamax", None) => Some(Agent::Negamax {
            depth: DEFAULT_NAMED_DEPTH,
        }),
        ("negamax", Some(d)) => d
            .parse::<u32>()
            .ok()
            .filter(|d| (1..=MAX_DEPTH).contains(d))
            .map(|depth| Agent::Negamax { depth }),
        ("perfect" | "solver", t) => {
            let temperature = match t {
                None => 0.0,
                Some(t) => t
                    .parse::<f64>()
                    .ok()
                    .filter(|t| t.is_finite() && *t >= 0.0)?,
            };
            Some(Agent::Perfect {
                temperature,
                tt_bytes: DEFAULT_TT_BYTES,
                threads: 1,
            })
        }
        ("threats", None) => Some(Agent::Threats {
            budget: Budget::Time(Duration::from_secs(1)),
            threads: 1,
        }),
        ("threats", Some(arg)) => threats_named(arg),
        _ => None,
    }
}

/// The threat engine of `"threats:S"` (seconds) or `"threats:nodes=N"`.
fn threats_named(arg: &str) -> Option<Agent> {
    let budget = match arg.strip_prefix("nodes=") {
        Some(n) => Budget::Nodes(n.parse::<u64>().ok()?),
        None => {
            let seconds = arg.parse::<f64>().ok()?;
            if !(seconds > 0.0 && seconds <= MAX_THREATS_SECONDS) {
                return None;
            }
            Budget::Time(Duration::from_secs_f64(seconds))
        }
    };
    let agent = Agent::Threats { budget, threads: 1 };
    agent.validate().ok().map(|()| agent)
}

/// Who plays the seats the agent does not hold.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum OpponentKind {
    /// A built-in agent, played inside `step` and `observe`.
    Native(Agent),
    /// The caller, between rounds (`opponent_pending`, `play_opponent`).
    External,
}

/// An opponent and the agent's seat.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Opponent {
    pub kind: OpponentKind,
    pub seat: AgentSeat,
}

impl Opponent {
    /// Checks the opponent against `rules`: the seat exists, a built-in agent plays
    /// these rules, and no game can end before the agent's first move (seat `s`,
    /// 0-based, after the first: `k >= 2`, as no line is made before every player
    /// moved once, and more than `s` cells).
    pub fn check(&self, rules: &Rules) -> Result<(), AgentError> {
        let players = rules.players();
        if let AgentSeat::Fixed(s) = self.seat {
            if s >= players {
                return Err(AgentError::InvalidConfig(format!(
                    "agent_player={} is out of range: allowed 1..={players} or \"random\"",
                    s + 1
                )));
            }
        }
        if let OpponentKind::Native(agent) = self.kind {
            agent.validate()?;
            agent.check_rules(rules)?;
        }
        let last_seat = match self.seat {
            AgentSeat::Fixed(s) => s,
            AgentSeat::Random => players - 1,
        };
        if last_seat > 0 && (rules.k() < 2 || rules.num_cells() <= last_seat) {
            return Err(AgentError::InvalidConfig(format!(
                "with {rules} a game can end before the agent's first move: agent_player \
                 {} needs k >= 2 and at least {} cells",
                last_seat + 1,
                last_seat + 1
            )));
        }
        Ok(())
    }
}

impl AgentSeat {
    /// The agent's (0-based) seat in a new episode of `players`.
    pub(super) fn draw(self, rng: &mut Rng, players: usize) -> u8 {
        match self {
            AgentSeat::Fixed(s) => s as u8,
            AgentSeat::Random => rng.below(players as u32) as u8,
        }
    }
}

/// The opponent's per-env state and one worker per thread.
pub(super) struct Versus {
    pub(super) opponent: Opponent,
    /// The agent's seat (0-based) in each env's current episode.
    pub(super) seats: Vec<u8>,
    pub(super) rngs: Vec<Rng>,
    pub(super) workers: AgentWorkers,
}

/// One opponent worker per pool thread, and one for the calling thread (the last).
/// Agents are pure functions of the position and their generator, so which worker
/// serves an env never changes its moves.
pub(super) struct AgentWorkers(Vec<Mutex<AgentWorker>>);

impl AgentWorkers {
    /// No workers: for steps without a built-in opponent.
    pub(super) fn none() -> AgentWorkers {
        AgentWorkers(Vec::new())
    }

    /// The worker of the thread that calls.
    pub(super) fn for_this_thread(&self) -> MutexGuard<'_, AgentWorker> {
        let slot = rayon::current_thread_index()
            .filter(|&t| t + 1 < self.0.len())
            .unwrap_or(self.0.len() - 1);
        self.0[slot].lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Versus {
    pub(super) fn new(opponent: Opponent, num_envs: usize, seed: u64, threads: usize) -> Versus {
        let agent = match opponent.kind {
            OpponentKind::Native(a) => a,
            OpponentKind::External => Agent::Random,
        };
        let mut v = Versus {
            opponent,
            seats: vec![0; num_envs],
            rngs: Vec::with_capacity(num_envs),
            workers: AgentWorkers(
                (0..=threads)
                    .map(|_| Mutex::new(AgentWorker::new(agent)))
                    .collect(),
            ),
        };
        v.reseed(seed);
        v
    }

    /// Draws the agent's seat for env `i`'s new episode.
    pub(super) fn draw_seat(&mut self, i: usize, players: usize) {
        self.seats[i] = self.opponent.seat.draw(&mut self.rngs[i], players);
    }

    pub(super) fn reseed(&mut self, seed: u64) {
        let n = self.seats.len();
        self.rngs.clear();
        self.rngs
            .extend((0..n).map(|i| Rng::new(seed, OPPONENT_STREAMS + i as u64)));
    }
}

/// The per-env opponent state of a range of environments.
pub(super) struct VersusRows<'a> {
    pub(super) seats: &'a mut [u8],
    pub(super) rngs: &'a mut [Rng],
}

impl<'a> VersusRows<'a> {
    pub(super) fn split_at(self, mid: usize) -> (VersusRows<'a>, VersusRows<'a>) {
        let (sa, sb) = self.seats.split_at_mut(mid);
        let (ra, rb) = self.rngs.split_at_mut(mid);
        (
            VersusRows {
                seats: sa,
                rngs: ra,
            },
            VersusRows {
                seats: sb,
                rngs: rb,
            },
        )
    }
}

/// Whether env `game` waits for the external opponent.
pub(super) fn waits_for_opponent(game: &Game, needs_reset: bool, seat: u8) -> bool {
    !needs_reset && !game.is_over() && game.to_move() != seat as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_read_once_and_solver_is_perfect() {
        assert_eq!(opponent_named("solver"), opponent_named("perfect"));
        assert_eq!(
            opponent_named("negamax:3"),
            Some(Agent::Negamax { depth: 3 })
        );
        for bad in ["negamax:0", "negamax:65", "negamax:", "Random", ""] {
            assert_eq!(opponent_named(bad), None, "{bad}");
        }
    }

    #[test]
    fn threats_names_take_seconds_or_nodes() {
        assert_eq!(
            opponent_named("threats"),
            Some(Agent::Threats {
                budget: Budget::Time(Duration::from_secs(1)),
                threads: 1,
            })
        );
        assert_eq!(
            opponent_named("threats:0.25"),
            Some(Agent::Threats {
                budget: Budget::Time(Duration::from_millis(250)),
                threads: 1,
            })
        );
        assert_eq!(
            opponent_named("threats:nodes=5000"),
            Some(Agent::Threats {
                budget: Budget::Nodes(5000),
                threads: 1,
            })
        );
        for bad in [
            "threats:",
            "threats:0",
            "threats:-1",
            "threats:nan",
            "threats:3601",
            "threats:nodes=0",
            "threats:nodes=",
            "threats:nodes=1099511627777",
        ] {
            assert_eq!(opponent_named(bad), None, "{bad}");
        }
    }
}
