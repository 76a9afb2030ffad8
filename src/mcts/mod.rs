//! Batched Monte Carlo tree search over any rules of the family: one tree per
//! game, leaves evaluated by random playouts inside Rust or handed out in batches
//! (one leaf per tree per round) for an external evaluator such as a network.
//!
//! ```
//! use inarow::mcts::{Config, Search};
//! use inarow::{Game, Rules};
//! use std::sync::atomic::AtomicBool;
//!
//! let rules = Rules::tic_tac_toe();
//! let mut search = Search::new(rules, Config { num_simulations: 2000, ..Config::default() }).unwrap();
//! // X to play and win at once (cell 2 completes the top row).
//! let game = Game::from_actions(rules, &[0, 3, 1, 4]).unwrap();
//! let out = search.run_rollouts(&[game], 1, &AtomicBool::new(false)).unwrap();
//! assert_eq!(out.actions[0], 2);
//! assert_eq!(out.values[0], 1.0); // proven: the side to move wins
//! ```
//!
//! Values are +1 for the winner, -1 for every other player, 0 for all on a draw.
//! Two players back up as negamax; more players as max^n (each node keeps the
//! value of the player who moved into it). Proven results (MCTS-solver) are
//! propagated: a node with a child won by its mover is won, a node whose children
//! are all proven takes its mover's best.

mod batch;
mod halving;
mod node;
mod noise;
mod select;
mod state;
mod tree;

#[cfg(test)]
mod restore_tests;
#[cfg(test)]
mod stop_early_tests;
#[cfg(test)]
mod tests;

use std::fmt;

pub use batch::{Search, SearchOutput};

/// How the root chooses its actions (the interior follows the same family).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RootPolicy {
    /// PUCT with Dirichlet noise on the root priors (AlphaZero); the interior uses
    /// PUCT too. With rollouts (no priors) the whole tree uses UCT instead.
    Puct,
    /// Gumbel-Top-k with sequential halving at the root and the completed-Q improved
    /// policy (Gumbel MuZero, as in mctx's `gumbel_muzero_policy`).
    Gumbel,
}

/// How leaves are valued.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Evaluation {
    /// `rollouts` uniformly random playouts per leaf, uniform priors.
    Rollout { rollouts: u32 },
    /// Priors and values from an external evaluator, fed one round at a time.
    External,
}

/// Search settings, checked by [`Config::check`].
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// Simulations per tree per run (the root's own evaluation is not counted).
    pub num_simulations: u32,
    /// PUCT exploration constant (Q normalised to [0, 1] by parent and siblings).
    pub c_puct: f32,
    /// UCT exploration constant, used with rollouts and the PUCT root.
    pub c_uct: f32,
    pub root: RootPolicy,
    pub dirichlet_alpha: f32,
    /// Share of Dirichlet noise in the PUCT root priors (0 turns it off).
    pub dirichlet_fraction: f32,
    /// Actions sampled by Gumbel-Top-k at the root.
    pub gumbel_considered: u32,
    /// KataGo's forced playouts at a PUCT root (0 turns them off; KataGo uses 2):
    /// a child below `sqrt(forced_playouts * prior * root child visits)` visits
    /// is visited next, and the policy output leaves out the visits PUCT would
    /// not have given it (policy target pruning). Needs an evaluator's priors.
    pub forced_playouts: f32,
    /// Keep each tree's subtree across `advance` and repeated runs on one position.
    pub reuse_tree: bool,
    /// One move of lookahead at each node's first visit: a node whose mover can
    /// complete a line is won, and (2 players) one whose mover faces two cells
    /// completing the opponent's line is lost, without asking the evaluator.
    pub lookahead: bool,
    /// Ends a PUCT run as soon as its choice is settled: the root proven, or the
    /// most visited child (of those not proven lost) ahead of every other by more
    /// visits than the budget has left, so that no later simulation could change
    /// the most visited move. Saves evaluator calls on clear positions; the visit
    /// counts then sum to fewer than `num_simulations`.
    pub stop_early: bool,
    pub seed: u64,
    /// Worker threads; trees are split among them, each tree stays on one thread.
    pub threads: usize,
    /// Bound on the node arenas (bytes), checked before allocating.
    pub max_memory: u64,
}

/// Largest `num_simulations`.
pub const MAX_SIMULATIONS: u32 = 100_000_000;
/// Largest evaluator value magnitude accepted. Values share the scale of results
/// (+1 won, -1 lost); value sums are f64, so any count of visits adds up exactly,
/// and this bound keeps the f32 means and normalisations of the selection rules finite.
pub const MAX_VALUE: f32 = 1e6;
/// Largest `c_puct` and `c_uct`.
pub const MAX_EXPLORATION: f32 = 1e6;
/// Largest `threads`.
pub const MAX_THREADS: usize = 256;
/// The default node-arena budget: 4 GiB.
pub const DEFAULT_MAX_MEMORY: u64 = 4 << 30;
/// Gumbel's completed-Q scale: `sigma(q) = (C_VISIT + max visits) * C_SCALE * q`.
pub const GUMBEL_C_VISIT: f32 = 50.0;
pub const GUMBEL_C_SCALE: f32 = 0.1;

impl Default for Config {
    fn default() -> Config {
        Config {
            num_simulations: 800,
            c_puct: 1.25,
            c_uct: 2.0,
            root: RootPolicy::Puct,
            dirichlet_alpha: 0.3,
            dirichlet_fraction: 0.25,
            gumbel_considered: 16,
            forced_playouts: 0.0,
            reuse_tree: true,
            lookahead: true,
            stop_early: false,
            seed: 0,
            threads: 1,
            max_memory: DEFAULT_MAX_MEMORY,
        }
    }
}

impl Config {
    /// Every problem with the settings, at once.
    pub fn check(&self) -> Result<(), SearchError> {
        let mut problems = Vec::new();
        if self.num_simulations > MAX_SIMULATIONS {
            problems.push(format!(
                "num_simulations={} is out of range: allowed 0..={MAX_SIMULATIONS}",
                self.num_simulations
            ));
        }
        let positive = |name: &str, v: f32, problems: &mut Vec<String>| {
            if !(v.is_finite() && v > 0.0) {
                problems.push(format!("{name}={v} must be a finite number > 0"));
            }
        };
        // The exploration terms multiply the constant by sqrt(N) (or its square by
        // ln N): bounded so that no visit count makes them infinite.
        let exploration = |name: &str, v: f32, problems: &mut Vec<String>| {
            if !(v.is_finite() && v > 0.0 && v <= MAX_EXPLORATION) {
                problems.push(format!(
                    "{name}={v:?} is out of range: allowed a number > 0 and <= {MAX_EXPLORATION:e}"
                ));
            }
        };
        exploration("c_puct", self.c_puct, &mut problems);
        exploration("c_uct", self.c_uct, &mut problems);
        positive("dirichlet_alpha", self.dirichlet_alpha, &mut problems);
        if !(0.0..=1.0).contains(&self.dirichlet_fraction) {
            problems.push(format!(
                "dirichlet_fraction={} is out of range: allowed 0..=1",
                self.dirichlet_fraction
            ));
        }
        if !(self.forced_playouts.is_finite()
            && (0.0..=MAX_EXPLORATION).contains(&self.forced_playouts))
        {
            problems.push(format!(
                "forced_playouts={:?} is out of range: allowed 0 (off) to {MAX_EXPLORATION:e}",
                self.forced_playouts
            ));
        } else if self.forced_playouts > 0.0 && self.root == RootPolicy::Gumbel {
            problems.push(format!(
                "forced_playouts={} needs root=\"puct\": a Gumbel root chooses its visits by \
                 sequential halving",
                self.forced_playouts
            ));
        }
        if self.stop_early && self.root == RootPolicy::Gumbel {
            problems.push(
                "stop_early=True needs root=\"puct\": a Gumbel root spends its whole budget \
                 on sequential halving's schedule"
                    .into(),
            );
        } else if self.stop_early && self.forced_playouts > 0.0 {
            problems.push(format!(
                "stop_early=True needs forced_playouts=0 (got {}): forced playouts are \
                 owed to children that are not the most visited",
                self.forced_playouts
            ));
        }
        if self.gumbel_considered < 1 {
            problems.push(format!(
                "gumbel_considered={} must be at least 1",
                self.gumbel_considered
            ));
        }
        if !(1..=MAX_THREADS).contains(&self.threads) {
            problems.push(format!(
                "threads={} is out of range: allowed 1..={MAX_THREADS}",
                self.threads
            ));
        }
        if self.max_memory == 0 {
            problems.push("max_memory=0 must be at least 1 byte".into());
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(SearchError::Config(problems.join("; ")))
        }
    }
}

/// Why a search call was refused. Every tree is left as it was before the call.
#[derive(Clone, Debug, PartialEq)]
pub enum SearchError {
    /// Settings outside their limits.
    Config(String),
    /// Positions whose rules differ from the search's.
    Rules(String),
    /// The node arenas would pass `max_memory`, or the allocation failed.
    Memory(String),
    /// Evaluator outputs or actions that do not fit.
    Input(String),
    /// An action that is not legal at its tree's root.
    IllegalAction(String),
    /// A call out of order (e.g. `feed` with nothing pending).
    State(String),
    /// The cancel flag was set.
    Cancelled,
}

impl fmt::Display for SearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchError::Config(m)
            | SearchError::Rules(m)
            | SearchError::Memory(m)
            | SearchError::Input(m)
            | SearchError::IllegalAction(m)
            | SearchError::State(m) => f.write_str(m),
            SearchError::Cancelled => f.write_str("search cancelled"),
        }
    }
}

impl std::error::Error for SearchError {}
