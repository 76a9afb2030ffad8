//! A built-in agent as a value ([`Agent`]) and with its working state
//! ([`AgentWorker`]), reused from move to move.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use super::lines::LineBoard;
use super::{greedy, negamax, perfect};
use crate::error::AgentError;
use crate::game::Game;
use crate::rng::Rng;
use crate::rules::Rules;
use crate::solver::book::Book;
use crate::solver::{SolveError, Solver, SolverConfig};
use crate::threats::{self, Budget, Engine};

/// Deepest accepted look-ahead of [`Agent::Negamax`].
pub const MAX_DEPTH: u32 = 64;

/// A built-in agent and its parameters (cheap to copy; the working state lives in
/// an [`AgentWorker`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Agent {
    /// A uniformly random legal move.
    Random,
    /// Wins at once if it can; else never hands the next player an immediate win
    /// when a move avoids it; else blocks one of the next player's wins; else random.
    Greedy,
    /// Depth-limited alpha-beta over the line-counting evaluation of
    /// [`LineBoard`]: minimax for 2 players, paranoid (every other player minimises
    /// the mover's value) for 3 or more; random among the moves of equal value.
    Negamax { depth: u32 },
    /// The exact solver's scores: the best score (random among equals) at
    /// temperature 0, else a softmax over the scores divided by the temperature.
    /// With a book ([`AgentWorker::with_book`]), positions whose every child it
    /// holds are scored from it (win/draw/loss 1/0/-1 in a win/draw/loss book),
    /// and the search probes it.
    Perfect {
        temperature: f64,
        tt_bytes: usize,
        threads: usize,
    },
    /// The threat engine ([`crate::threats`]): threat-space searches and alpha-beta
    /// within a budget per move on 2-player free-placement boards with `k >= 4`;
    /// on gravity boards and below `k = 4`, iterative-deepening negamax within the
    /// same budget (iterative deepening in the negamax module). 2 players only.
    /// `threads` (1..=[`threats::MAX_THREADS`]) search one move together.
    Threats { budget: Budget, threads: usize },
}

/// Most seconds per move of [`Agent::Threats`].
pub const MAX_THREATS_SECONDS: f64 = 3600.0;
/// Most nodes per move of [`Agent::Threats`].
pub const MAX_THREATS_NODES: u64 = 1 << 40;

impl From<SolveError> for AgentError {
    fn from(e: SolveError) -> AgentError {
        match e {
            SolveError::Unsupported(m) => AgentError::Unsupported(m),
            SolveError::OutOfMemory(m) => AgentError::OutOfMemory(m),
            SolveError::InvalidConfig(m) => AgentError::InvalidConfig(m),
            SolveError::Interrupted => AgentError::Cancelled,
            SolveError::GameOver(_) => AgentError::GameOver,
            // A position built from a valid `Game` is always one the solver accepts.
            SolveError::IllegalMove(m) | SolveError::InvalidPosition(m) => {
                AgentError::Unsupported(m)
            }
            // The agent's solver never has a node limit set.
            SolveError::NodeLimit => AgentError::Cancelled,
            // The agent's solver reads and writes no file.
            SolveError::Io(m) => AgentError::Unsupported(m),
        }
    }
}

impl Agent {
    /// Checks the parameters.
    pub fn validate(&self) -> Result<(), AgentError> {
        match *self {
            Agent::Negamax { depth } if !(1..=MAX_DEPTH).contains(&depth) => {
                Err(AgentError::InvalidConfig(format!(
                    "depth={depth} is out of range: allowed 1..={MAX_DEPTH}"
                )))
            }
            Agent::Perfect { temperature, .. }
                if !(temperature >= 0.0 && temperature.is_finite()) =>
            {
                Err(AgentError::InvalidConfig(format!(
                    "temperature={temperature} is out of range: allowed a finite number >= 0"
                )))
            }
            Agent::Threats {
                budget: Budget::Time(t),
                ..
            } if !(t > Duration::ZERO && t.as_secs_f64() <= MAX_THREATS_SECONDS) => {
                Err(AgentError::InvalidConfig(format!(
                    "time_limit={} is out of range: allowed 0 < seconds <= {MAX_THREATS_SECONDS}",
                    t.as_secs_f64()
                )))
            }
            Agent::Threats {
                budget: Budget::Nodes(n),
                ..
            } if !(1..=MAX_THREATS_NODES).contains(&n) => Err(AgentError::InvalidConfig(format!(
                "nodes={n} is out of range: allowed 1..=2**40"
            ))),
            Agent::Threats { threads, .. } if !(1..=threats::MAX_THREADS).contains(&threads) => {
                Err(AgentError::InvalidConfig(format!(
                    "threads={threads} is out of range: allowed 1..={}",
                    threats::MAX_THREADS
                )))
            }
            _ => Ok(()),
        }
    }

    /// Whether a move may search long enough to need a cancel flag and a thread
    /// watched for Ctrl-C.
    pub fn searches(&self) -> bool {
        matches!(
            self,
            Agent::Negamax { .. } | Agent::Perfect { .. } | Agent::Threats { .. }
        )
    }

    /// Whether the agent plays `rules`. The random, greedy, negamax and threats
    /// agents play every rule (greedy on the game itself beyond freestyle, negamax
    /// on a [`LineBoard`] that knows the rule's lines and renju's forbidden cells,
    /// the threat engine on a board that knows them too); the perfect agent the
    /// solver's rules ([`crate::solver::Solver::check_rules`]: freestyle, and
    /// standard without gravity, on one word), the threats agent 2 players.
    pub fn check_rules(&self, rules: &Rules) -> Result<(), AgentError> {
        if let Agent::Perfect { .. } = self {
            perfect::check_rules(rules)?;
        }
        if let Agent::Threats { .. } = self {
            threats::check_players(rules)?;
        }
        Ok(())
    }
}

/// An agent with its working state (look-ahead board, solver table), reused from
/// move to move. One per thread.
pub struct AgentWorker {
    agent: Agent,
    board: Option<LineBoard>,
    solver: Option<Solver>,
    /// The perfect agent's analyses of recent positions (cells -> scores).
    analyses: perfect::Cache,
    legal: Vec<usize>,
    search: negamax::Scratch,
    /// The perfect agent's opening book.
    book: Option<Arc<Book>>,
    engine: Option<Box<Engine>>,
}

impl AgentWorker {
    pub fn new(agent: Agent) -> AgentWorker {
        AgentWorker {
            agent,
            board: None,
            solver: None,
            analyses: perfect::Cache::default(),
            legal: Vec::new(),
            search: negamax::Scratch::default(),
            book: None,
            engine: None,
        }
    }

    /// The worker with `book` for the perfect agent (the others ignore it).
    pub fn with_book(mut self, book: Option<Arc<Book>>) -> AgentWorker {
        self.set_book(book);
        self
    }

    /// Sets the perfect agent's book (`None`: search every position).
    pub fn set_book(&mut self, book: Option<Arc<Book>>) {
        let same = match (&self.book, &book) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        if !same {
            // Scores cached without the book may differ in kind from the book's.
            self.analyses = perfect::Cache::default();
            if let Some(solver) = self.solver.as_mut() {
                solver.set_book(book.clone());
            }
            self.book = book;
        }
    }

    pub fn agent(&self) -> &Agent {
        &self.agent
    }

    /// A legal action for the side to move in `game` (never modified). `rng` breaks
    /// ties and samples; `cancel` stops long searches ([`AgentError::Cancelled`]).
    pub fn choose(
        &mut self,
        game: &Game,
        rng: &mut Rng,
        cancel: &AtomicBool,
    ) -> Result<usize, AgentError> {
        if game.is_over() {
            return Err(AgentError::GameOver);
        }
        self.agent.validate()?;
        if !game.rules().is_freestyle() {
            self.agent.check_rules(game.rules())?;
        }
        match self.agent {
            Agent::Random => Ok(game.random_action(rng)),
            Agent::Greedy if !game.rules().is_freestyle() => {
                Ok(greedy::choose_game(game, &mut self.legal, rng))
            }
            Agent::Greedy => {
                let board = Self::line_board(&mut self.board, game);
                Ok(greedy::choose(board, &mut self.legal, rng))
            }
            Agent::Negamax { depth } => {
                let board = Self::line_board(&mut self.board, game);
                negamax::choose(board, depth, &mut self.search, rng, cancel)
            }
            Agent::Perfect {
                temperature,
                tt_bytes,
                threads,
            } => {
                perfect::check_rules(game.rules())?;
                if self.solver.is_none() {
                    let mut solver = Solver::new(SolverConfig { tt_bytes, threads })?;
                    solver.set_book(self.book.clone());
                    self.solver = Some(solver);
                }
                let solver = self.solver.as_mut().expect("just set");
                perfect::choose(solver, &mut self.analyses, game, temperature, rng, cancel)
            }
            Agent::Threats { budget, threads } => {
                let rules = *game.rules();
                threats::check_players(&rules)?;
                if rules.gravity() || rules.k() < 4 {
                    // No threat patterns to search: on gravity boards, continuous
                    // threats along columns, then iterative deepening over the line
                    // evaluation within the rest of the budget.
                    let start = std::time::Instant::now();
                    let board = Self::line_board(&mut self.board, game);
                    if let Some(action) = negamax::forced_move(board) {
                        return Ok(action);
                    }
                    let (allowed, used) = if rules.gravity() {
                        match threats::column_root(game, budget, cancel) {
                            (threats::ColumnRoot::Win(column), _) => return Ok(column),
                            (threats::ColumnRoot::Safe(columns), used) => (columns, used),
                        }
                    } else {
                        (Vec::new(), 0)
                    };
                    if cancel.load(Ordering::Relaxed) {
                        return Err(AgentError::Cancelled);
                    }
                    let limit = match budget {
                        Budget::Time(t) => negamax::Limit {
                            deadline: Some(start + t),
                            max_nodes: u64::MAX,
                        },
                        Budget::Nodes(n) => negamax::Limit {
                            deadline: None,
                            max_nodes: n.saturating_sub(used).max(1),
                        },
                    };
                    return negamax::choose_within(
                        board,
                        limit,
                        &allowed,
                        &mut self.search,
                        rng,
                        cancel,
                    );
                }
                if self.engine.as_ref().is_none_or(|e| *e.rules() != rules) {
                    self.engine = Some(Box::new(Engine::new(rules)));
                }
                let engine = self.engine.as_mut().expect("just set");
                let action = engine.choose_with_threads(game, budget, threads, rng, cancel);
                if cancel.load(Ordering::Relaxed) {
                    return Err(AgentError::Cancelled);
                }
                Ok(action)
            }
        }
    }

    /// The look-ahead board, (re)built for `game`'s rules and set to its position.
    fn line_board<'a>(slot: &'a mut Option<LineBoard>, game: &Game) -> &'a mut LineBoard {
        let rules = *game.rules();
        if slot.as_ref().is_none_or(|b| *b.rules() != rules) {
            *slot = Some(LineBoard::new(rules));
        }
        let board = slot.as_mut().expect("just set");
        board.load(game);
        board
    }
}
