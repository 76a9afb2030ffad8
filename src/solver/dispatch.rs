//! The solver on any game it covers: gravity boards go to the Connect-Four
//! search, free-placement boards to the free-placement solver (made on first
//! use, with a table of at most the solver's size).

use std::io::Write;
use std::path::Path;
use std::sync::atomic::AtomicBool;

use super::choice::TimedMove;
use super::deadline::Deadline;
use super::error::SolveError;
use super::free::{
    read_journal, BundleProgress, BundleSummary, FreePosition, FreeSolver, JournalProgress,
    ProofSummary,
};
use super::position::Position;
use super::state::Solver;
use crate::game::Game;
use crate::rules::{Rules, WinRule};

impl Solver {
    /// Whether the solver covers `rules`: 2 players; with gravity the freestyle
    /// rule on a board whose layout fits one word (`width * (height + 1) <= 64`),
    /// without gravity the freestyle or standard rule on at most 128 cells;
    /// otherwise [`SolveError::Unsupported`] saying why.
    pub fn check_rules(rules: &Rules) -> Result<(), SolveError> {
        match rules.rule() {
            WinRule::Freestyle => {}
            WinRule::Standard if !rules.gravity() => {}
            WinRule::Standard => {
                return Err(SolveError::Unsupported(format!(
                    "the solver covers rule=\"standard\" without gravity only (the \
                     free-placement solver); with gravity rule=\"freestyle\", got {rules}"
                )))
            }
            WinRule::Renju => {
                return Err(SolveError::Unsupported(format!(
                    "the solver covers rule=\"freestyle\" and, without gravity, \
                     rule=\"standard\"; not rule=\"renju\" (black's forbidden moves are not \
                     searched), got {rules}"
                )))
            }
        }
        if rules.players() != 2 {
            return Err(SolveError::Unsupported(format!(
                "the solver covers 2 players (with gravity width * (height + 1) <= 64, \
                 without gravity at most 128 cells), got players={}",
                rules.players()
            )));
        }
        if rules.gravity() {
            Position::check_rules(rules)
        } else {
            FreePosition::check_rules(rules)
        }
    }

    /// [`Solver::solve`] of any game the solver covers ([`Solver::check_rules`]).
    pub fn solve_game(
        &mut self,
        game: &Game,
        weak: bool,
        cancel: &AtomicBool,
    ) -> Result<i32, SolveError> {
        if game.rules().gravity() {
            return self.solve(&Position::from_game(game)?, weak, cancel);
        }
        let pos = FreePosition::from_game(game)?;
        self.with_free(|free| free.solve(&pos, weak, cancel))
    }

    /// [`Solver::solve_game`] with `weak` of a free-placement game under the
    /// freestyle rule, resumable through the journal at `path`
    /// ([`FreeSolver::solve_with_journal`], positions of at most `stones`
    /// stones); other games are [`SolveError::Unsupported`].
    pub fn solve_game_with_journal(
        &mut self,
        game: &Game,
        path: &Path,
        stones: u32,
        progress: &JournalProgress,
        cancel: &AtomicBool,
    ) -> Result<i32, SolveError> {
        if game.rules().gravity() || game.rules().rule() != WinRule::Freestyle {
            return Err(SolveError::Unsupported(format!(
                "a journal covers free-placement boards (gravity=False) under \
                 rule=\"freestyle\" (the zone search's outcomes), got {}",
                game.rules()
            )));
        }
        let pos = FreePosition::from_game(game)?;
        self.with_free(|free| free.solve_with_journal(&pos, path, stones, progress, cancel))
    }

    /// [`Solver::analyze`] of any game the solver covers: one score per action
    /// (a column with gravity, a cell `row * width + col` without).
    pub fn analyze_game(
        &mut self,
        game: &Game,
        weak: bool,
        cancel: &AtomicBool,
    ) -> Result<Vec<Option<i32>>, SolveError> {
        if game.rules().gravity() {
            return self.analyze(&Position::from_game(game)?, weak, cancel);
        }
        let pos = FreePosition::from_game(game)?;
        self.with_free(|free| free.analyze(&pos, weak, cancel))
    }

    /// [`Solver::best_move_within`] of any game the solver covers; its `column`
    /// is the chosen action.
    pub fn best_move_game(
        &mut self,
        game: &Game,
        deadline: Option<&Deadline>,
        cancel: &AtomicBool,
    ) -> Result<TimedMove, SolveError> {
        if game.rules().gravity() {
            return self.best_move_within(&Position::from_game(game)?, deadline, cancel);
        }
        let pos = FreePosition::from_game(game)?;
        self.with_free(|free| free.best_move_within(&pos, deadline, cancel))
    }

    /// A proof of a free-placement game's outcome, in the format of
    /// `crate::proof` ([`FreeSolver::write_proof`]), written to `out`; a gravity
    /// game is [`SolveError::Unsupported`].
    pub fn write_proof_game(
        &mut self,
        game: &Game,
        out: &mut dyn Write,
        cancel: &AtomicBool,
    ) -> Result<ProofSummary, SolveError> {
        if game.rules().gravity() {
            return Err(SolveError::Unsupported(format!(
                "proofs cover free-placement boards (gravity=False), got {}",
                game.rules()
            )));
        }
        let pos = FreePosition::from_game(game)?;
        self.with_free(|free| free.write_proof(&pos, out, cancel))
    }

    /// A proof of a free-placement game's outcome written as a bundle to
    /// `path` ([`FreeSolver::write_proof_bundle`]: parts from `cut` stones,
    /// resumable), its search started from the outcomes of the `journal` file
    /// if one is given; a gravity game is [`SolveError::Unsupported`].
    pub fn write_proof_bundle_game(
        &mut self,
        game: &Game,
        path: &Path,
        cut: u32,
        journal: Option<&Path>,
        progress: &BundleProgress,
        cancel: &AtomicBool,
    ) -> Result<BundleSummary, SolveError> {
        if game.rules().gravity() {
            return Err(SolveError::Unsupported(format!(
                "proofs cover free-placement boards (gravity=False), got {}",
                game.rules()
            )));
        }
        let pos = FreePosition::from_game(game)?;
        let pinned = match journal {
            Some(j) => read_journal(j, &pos)?,
            None => Vec::new(),
        };
        self.with_free(|free| free.write_proof_bundle(&pos, path, cut, &pinned, progress, cancel))
    }

    /// Runs `call` on the free-placement solver (made now if need be) under this
    /// solver's node limit, and counts its nodes as this call's.
    fn with_free<T>(
        &mut self,
        call: impl FnOnce(&mut FreeSolver) -> Result<T, SolveError>,
    ) -> Result<T, SolveError> {
        self.nodes = 0;
        self.book_hits = 0;
        if self.free.is_none() {
            self.free = Some(FreeSolver::new(self.table.bytes())?);
        }
        let free = self.free.as_mut().expect("just made");
        free.set_node_limit(self.node_limit);
        free.set_threads(self.threads);
        let result = call(free);
        self.nodes = free.nodes();
        result
    }
}
