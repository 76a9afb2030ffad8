//! `inarow.Solver`: the perfect Connect-Four solver, from Python.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyInt;

use super::args::{bool_arg, int_arg, is_bool, ranged_int, shown, type_name};
use super::board::{board_arg, Board};
use super::book::shipped_book;
use super::errors::SolverConfigError;
use super::interrupt::{run_interruptible, POLL};
use super::progress::Progress;
use super::rules::Rules as PyRules;
use crate::game::Game;
use crate::proof::CheckProgress;
use crate::solver::book::Kind;
use crate::solver::free::{BundleProgress, JournalProgress, DEFAULT_JOURNAL_STONES};
use crate::solver::{default_threads, Deadline, SolveError, Solver as CoreSolver, SolverConfig};
use crate::solver::{DEFAULT_TT_BYTES, MAX_THREADS, MAX_TT_BYTES, MIN_TT_BYTES, SOLO_NODE_BUDGET};
use crate::watch::{CancelToken, Entry, Gate, GateGuard};

/// A time budget in seconds: a finite number >= 0 (`None` inside: more than the
/// clock counts). Bools and non-numbers are a `TypeError`, NaN, infinities and
/// negative numbers a `ValueError`.
fn time_limit_arg(t: &Bound<'_, PyAny>) -> PyResult<Option<Duration>> {
    let bad_type = || {
        PyTypeError::new_err(format!(
            "time_limit must be a number of seconds or None, got {}: {}",
            type_name(t),
            shown(t)
        ))
    };
    if is_bool(t)? {
        return Err(bad_type());
    }
    let out_of_range = || {
        PyValueError::new_err(format!(
            "time_limit={} is out of range: allowed a finite number of seconds >= 0 \
             (None for no limit)",
            shown(t)
        ))
    };
    let seconds: f64 = t.extract().map_err(|e| {
        // An integer too large for a float is a number out of range.
        let err = if t.is_instance_of::<PyInt>() {
            out_of_range()
        } else {
            bad_type()
        };
        err.set_cause(t.py(), Some(e));
        err
    })?;
    if !(seconds.is_finite() && seconds >= 0.0) {
        return Err(out_of_range());
    }
    Ok(Duration::try_from_secs_f64(seconds).ok())
}

/// Nodes a call searches on the calling thread before it moves to a worker thread
/// that Ctrl-C can interrupt (about 2 ms): small calls never pay for a thread.
const INLINE_NODES: u64 = SOLO_NODE_BUDGET;

/// An exact solver for 2-player boards, any k: gravity boards whose layout fits
/// 64 bits (`width * (height + 1) <= 64`: 7x6, 8x7, 9x5, ...) and free-placement
/// boards of at most 128 cells (tic-tac-toe, m,n,k games). Scores follow Pascal
/// Pons' convention, for the side to move. One search at a time per solver: calls
/// from several threads are serialized; `cancel()` stops the calls running or
/// queued at that moment.
#[pyclass(module = "inarow._native", name = "Solver", frozen)]
pub struct Solver {
    /// Whose turn it is to search: the queue a call waits in.
    turn: Gate,
    /// Locked only by the call holding `turn`.
    core: Mutex<CoreSolver>,
    /// The cancel tokens of the calls running or queued now.
    calls: Mutex<Vec<CancelToken>>,
    nodes: AtomicU64,
    tt_bytes: usize,
    threads: usize,
    /// Whether calls answer from the shipped opening book.
    book: bool,
}

/// A call's registration: its token stays cancellable by `Solver.cancel()` from
/// entry (before it queues) until it returns.
struct Call<'a> {
    solver: &'a Solver,
    token: CancelToken,
}

impl Drop for Call<'_> {
    fn drop(&mut self) {
        self.solver.lock_calls().retain(|t| !t.same_as(&self.token));
    }
}

/// The game of `board`, checked against the solver's rules
/// (`UnsupportedRulesError` naming the limit).
fn game_of(board: &Bound<'_, PyAny>) -> PyResult<Game> {
    let game = board_arg(board, "board")?.game.clone();
    CoreSolver::check_rules(game.rules())?;
    Ok(game)
}

impl Solver {
    fn lock_calls(&self) -> MutexGuard<'_, Vec<CancelToken>> {
        self.calls.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn lock_core(&self) -> MutexGuard<'_, CoreSolver> {
        self.core.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn register(&self) -> Call<'_> {
        let token = CancelToken::new();
        self.lock_calls().push(token.clone());
        Call {
            solver: self,
            token,
        }
    }

    /// Waits (interpreter released) for the solver to be free. Ctrl-C raises
    /// `KeyboardInterrupt` and a cancelled token `CancelledError`, both at once.
    fn wait_turn(&self, py: Python<'_>, token: &CancelToken) -> PyResult<GateGuard<'_>> {
        loop {
            match py.detach(|| self.turn.enter(POLL, token)) {
                Entry::Entered(turn) => return Ok(turn),
                Entry::Cancelled => return Err(SolveError::Interrupted.into()),
                Entry::TimedOut => py.check_signals()?,
            }
        }
    }

    /// Runs `work` on the solver with the interpreter released, interruptible by
    /// Ctrl-C and `cancel()`. The call waits for its turn (Ctrl-C or `cancel()`
    /// there return at once), searches up to `INLINE_NODES` on this thread, and
    /// only a search that needs more goes on to a worker thread (resuming from the
    /// table the first attempt filled).
    fn run<T: Send>(
        &self,
        py: Python<'_>,
        game: &Game,
        work: impl Fn(&mut CoreSolver, &AtomicBool) -> Result<T, SolveError> + Send + Sync,
    ) -> PyResult<T> {
        self.run_with(py, game, Start::Inline, work, |_| Ok(()))
    }

    /// [`Solver::run_with`] on a worker, reporting `count()` (`unit`s done) to
    /// `progress` (a tqdm bar for True, or a callable `f(done, None)`) every
    /// `POLL` and once at the end; a callback that raises cancels the work and
    /// is not called again.
    fn run_counting<T: Send>(
        &self,
        py: Python<'_>,
        game: &Game,
        progress: Option<&Bound<'_, PyAny>>,
        unit: &str,
        count: impl Fn() -> u64,
        work: impl Fn(&mut CoreSolver, &AtomicBool) -> Result<T, SolveError> + Send + Sync,
    ) -> PyResult<T> {
        let reporter = Progress::from_arg(py, progress, None, unit)?;
        let mut shown = 0u64;
        let mut tick = |_: Python<'_>| -> PyResult<()> {
            let now = count();
            if let Some(r) = &reporter {
                r.report(now, shown, None)?;
            }
            shown = now;
            Ok(())
        };
        let mut tick_failed = false;
        let result = self.run_with(py, game, Start::OnWorker, work, |py| {
            let r = tick(py);
            tick_failed = r.is_err();
            r
        });
        let final_tick = if tick_failed { Ok(()) } else { tick(py) };
        if let Some(r) = &reporter {
            r.close()?;
        }
        let value = result?;
        final_tick?;
        Ok(value)
    }

    /// [`Solver::run`], calling `on_tick` on this thread every `POLL` while the
    /// search runs on a worker (an error it raises cancels the search), started
    /// as `start` says.
    fn run_with<'py, T: Send>(
        &self,
        py: Python<'py>,
        game: &Game,
        start: Start,
        work: impl Fn(&mut CoreSolver, &AtomicBool) -> Result<T, SolveError> + Send + Sync,
        on_tick: impl FnMut(Python<'py>) -> PyResult<()>,
    ) -> PyResult<T> {
        // Only gravity games read the book: a free-placement call never loads it.
        let gravity = game.rules().gravity();
        let book = if self.book && gravity {
            shipped_book(py)
        } else {
            None
        };
        let call = self.register();
        let token = &call.token;
        let _turn = self.wait_turn(py, token)?;
        let mut guard = self.lock_core();
        let core: &mut CoreSolver = &mut guard;
        if gravity {
            core.set_book(book);
        }
        let inline = start == Start::Inline;
        let quick = if inline {
            py.detach(|| {
                core.set_node_limit(Some(INLINE_NODES));
                let r = work(core, token.flag());
                core.set_node_limit(None);
                r
            })
        } else {
            Err(SolveError::NodeLimit)
        };
        let result = match quick {
            Err(SolveError::NodeLimit) => {
                let inline_nodes = if inline { core.nodes() } else { 0 };
                let r = run_interruptible(py, token, || work(core, token.flag()), on_tick);
                // Stored before an interrupt propagates: `nodes` tells what it cost.
                self.nodes
                    .store(inline_nodes + core.nodes(), Ordering::Relaxed);
                r?
            }
            done => {
                self.nodes.store(core.nodes(), Ordering::Relaxed);
                done
            }
        };
        Ok(result?)
    }
}

/// How a call's search starts.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Start {
    /// A short attempt on the calling thread first, then the worker if it needs more.
    Inline,
    /// Straight on the worker: work whose every attempt costs more than its nodes
    /// (a journal read back and pinned) is done once.
    OnWorker,
}

#[pymethods]
impl Solver {
    /// `Solver(tt_bytes=256 MiB, threads=None, book=True)`: `tt_bytes` in 1 KiB..=16 GiB (the
    /// table's memory is reserved at once and taken as the searches fill it: up to
    /// 256 MiB by default, a few MiB for small searches; free-placement boards keep a
    /// second table of the same limit for outcomes alone, `weak=True`), `threads` in 1..=64 or
    /// None for one per core (more threads share one table: gravity searches, and the
    /// zone search of free-placement outcomes past its first nodes). Bad values raise `SolverConfigError` (a `ValueError`); a table that
    /// cannot be allocated raises `MemoryError`. `book=True` answers the 7x6
    /// Connect-Four openings the shipped book holds without a search (loaded once per
    /// process on first use; a book that cannot be loaded warns and is done without);
    /// `book=False` always searches.
    #[new]
    #[pyo3(signature = (tt_bytes=None, threads=None, book=None), text_signature = "(tt_bytes=268435456, threads=None, book=True)")]
    fn new(
        py: Python<'_>,
        tt_bytes: Option<&Bound<'_, PyAny>>,
        threads: Option<&Bound<'_, PyAny>>,
        book: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Solver> {
        let book = book
            .map(|b| bool_arg(b, "book"))
            .transpose()?
            .unwrap_or(true);
        let tt = match tt_bytes {
            None => DEFAULT_TT_BYTES,
            Some(v) => match int_arg(v, "tt_bytes")? {
                Some(x) if (MIN_TT_BYTES as i64..=MAX_TT_BYTES as i64).contains(&x) => x as usize,
                _ => {
                    return Err(SolverConfigError::new_err(format!(
                        "tt_bytes={} is out of range: allowed {MIN_TT_BYTES}..={MAX_TT_BYTES}",
                        v.repr()?
                    )))
                }
            },
        };
        let threads = match threads {
            None => default_threads(),
            Some(v) if v.is_none() => default_threads(),
            Some(v) => match int_arg(v, "threads")? {
                Some(x) if (1..=MAX_THREADS as i64).contains(&x) => x as usize,
                _ => {
                    return Err(SolverConfigError::new_err(format!(
                        "threads={} is out of range: allowed 1..={MAX_THREADS}",
                        v.repr()?
                    )))
                }
            },
        };
        let core = py.detach(|| {
            CoreSolver::new(SolverConfig {
                tt_bytes: tt,
                threads,
            })
        })?;
        Ok(Solver {
            turn: Gate::new(),
            core: Mutex::new(core),
            calls: Mutex::new(Vec::new()),
            nodes: AtomicU64::new(0),
            tt_bytes: tt,
            threads,
            book,
        })
    }

    /// The exact score of `board` for the side to move (Pons' convention: 0 draw,
    /// positive = the side to move wins, larger = sooner; on 7x6 -18..=18); with
    /// `weak=True` only its sign. On `N = width * height` cells, with or without
    /// gravity, a win whose winning stone is the (m+1)-th stone on the board scores
    /// `(N + 1 - m) // 2`; a loss the opponent's win negated. A finished game: the side to move has lost, scored
    /// as the winner's score one ply earlier, negated (-1 when weak); a full board 0.
    /// The board is never modified.
    ///
    /// `journal=PATH` (with `weak=True`, a free-placement board under the
    /// freestyle rule) makes a long solve resumable: the outcomes it proves for
    /// positions of at most 6 stones are appended to the file as they come, and a
    /// later call reads them back and goes on where an earlier one stopped (Ctrl-C,
    /// `cancel()`, a kill). A journal of another board raises `InvalidPositionError`,
    /// a file that cannot be read or written `OSError`. `progress`: True for a
    /// tqdm bar of the outcomes proven, or a callable `f(proven, None)`.
    #[pyo3(signature = (board, weak=None, journal=None, progress=None),
           text_signature = "($self, board, weak=False, journal=None, progress=None)")]
    fn solve(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        weak: Option<&Bound<'_, PyAny>>,
        journal: Option<PathBuf>,
        progress: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<i32> {
        let weak = weak_arg(weak)?;
        let game = game_of(board)?;
        let Some(path) = journal else {
            if progress.is_some_and(|p| !p.is_none()) {
                return Err(PyValueError::new_err(
                    "progress counts a journal's outcomes: give journal=PATH with it",
                ));
            }
            return self.run(py, &game, |s, c| s.solve_game(&game, weak, c));
        };
        if !weak {
            return Err(PyValueError::new_err(
                "journal holds outcomes (win, draw or loss), not scores: give weak=True with it",
            ));
        }
        let counts = JournalProgress::default();
        self.run_counting(
            py,
            &game,
            progress,
            "position",
            || counts.proven.load(Ordering::Relaxed) as u64,
            |s, c| s.solve_game_with_journal(&game, &path, DEFAULT_JOURNAL_STONES, &counts, c),
        )
    }

    /// The score of each action for the player who plays it (None where illegal,
    /// or everywhere once the game is over): one per column with gravity, one per
    /// cell (`row * width + col`) without.
    #[pyo3(signature = (board, weak=None), text_signature = "($self, board, weak=False)")]
    fn analyze(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        weak: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<Option<i32>>> {
        let weak = weak_arg(weak)?;
        let game = game_of(board)?;
        self.run(py, &game, |s, c| s.analyze_game(&game, weak, c))
    }

    /// Solves a free-placement `board` and writes a proof of its outcome to the
    /// file `path` (the format: `src/proof/mod.rs`); returns the first player's
    /// outcome, 1 win, 0 draw, -1 loss. The proof covers every reply (under the
    /// freestyle rule a draw's replies outside a zone by a pass), so it can hold
    /// more positions than the search visited: 7,7,5 takes 0.12M records (6.8 MB).
    /// A gravity board raises `UnsupportedRulesError`, a
    /// file that cannot be written `OSError`. `Solver.check_proof` checks it.
    ///
    /// `parts_from=N` writes a bundle instead, for proofs too large for one run
    /// or one check: zstd-compressed parts, one per position of `N` stones or
    /// more that a draw's claims reach, each checked on its own. It resumes:
    /// `PATH.parts` lists the parts written, and a later call (after Ctrl-C,
    /// `cancel()` or a kill) keeps them and goes on. `journal=PATH` (a journal
    /// of the board's outcome search, see `solve`) starts its search from that
    /// search's outcomes. `progress`: True for a tqdm bar of the parts written,
    /// or a callable `f(parts, None)`.
    #[pyo3(signature = (board, path, parts_from=None, journal=None, progress=None),
           text_signature = "($self, board, path, parts_from=None, journal=None, progress=None)")]
    fn prove(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        path: PathBuf,
        parts_from: Option<&Bound<'_, PyAny>>,
        journal: Option<PathBuf>,
        progress: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<i32> {
        let game = game_of(board)?;
        // 0: no bundle (a board has at most 128 cells).
        let cut = ranged_int::<PyValueError>(parts_from, "parts_from", 1, 128, 0)? as u32;
        let cut = (cut > 0).then_some(cut);
        let Some(cut) = cut else {
            if journal.is_some() || progress.is_some_and(|p| !p.is_none()) {
                return Err(PyValueError::new_err(
                    "journal and progress are for a bundle: give parts_from=N with them",
                ));
            }
            let (text, summary) = self.run(py, &game, |s, c| {
                let mut text = Vec::new();
                let summary = s.write_proof_game(&game, &mut text, c)?;
                Ok((text, summary))
            })?;
            py.detach(|| std::fs::write(&path, text))?;
            return Ok(summary.outcome);
        };
        let counts = BundleProgress::default();
        let summary = self.run_counting(
            py,
            &game,
            progress,
            "part",
            || counts.parts.load(Ordering::Relaxed),
            |s, c| s.write_proof_bundle_game(&game, &path, cut, journal.as_deref(), &counts, c),
        )?;
        Ok(summary.outcome)
    }

    /// Checks the proof file `path` with the proof checker (`src/proof`: rules
    /// code of its own, no solver code): the first player's outcome it proves (1
    /// win, 0 draw, -1 loss; None for a lone no-loss claim). The file may be
    /// zstd-compressed, and a bundle (several proofs, each checked on its own,
    /// `threads` at a time, default one per core, as `prove(parts_from=)`
    /// writes them). `progress` is True for a tqdm bar of the parts checked, or
    /// a callable `f(parts, None)`. Ctrl-C stops it (`KeyboardInterrupt`). A
    /// refused proof raises `ValueError` saying where it fails; an unreadable
    /// file `OSError`.
    #[staticmethod]
    #[pyo3(
        signature = (path, threads=None, progress=None),
        text_signature = "(path, threads=None, progress=None)"
    )]
    fn check_proof(
        py: Python<'_>,
        path: PathBuf,
        threads: Option<&Bound<'_, PyAny>>,
        progress: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<i32>> {
        let threads = ranged_int::<PyValueError>(
            threads,
            "threads",
            1,
            MAX_THREADS as i64,
            default_threads() as i64,
        )? as usize;
        let reporter = Progress::from_arg(py, progress, None, "part")?;
        let reader = py.detach(|| crate::proof::open(&path))?;
        let counts = CheckProgress::default();
        let token = CancelToken::new();
        let mut shown = 0u64;
        let checked = run_interruptible(
            py,
            &token,
            || crate::proof::check_bundle(reader, threads, &counts, token.flag()),
            |_| {
                let now = counts.parts.load(Ordering::Relaxed);
                if let Some(r) = &reporter {
                    r.report(now, shown, None)?;
                }
                shown = now;
                Ok(())
            },
        );
        if let Some(r) = &reporter {
            if checked.is_ok() {
                r.report(counts.parts.load(Ordering::Relaxed), shown, None)?;
            }
            r.close()?;
        }
        let verdict =
            checked?.map_err(|e| PyValueError::new_err(format!("{}: {e}", path.display())))?;
        Ok(verdict.outcome())
    }

    /// An optimal action: never a worse win/draw/loss outcome than another move;
    /// among the best outcome's moves the best exact score, ties centre first.
    /// Where the book holds every child, the best outcome without a search
    /// (centre first among equal outcomes, a move that lets the opponent win at
    /// once last). With `time_limit` (seconds, a finite
    /// number >= 0) the best move proven within the budget, never a timeout (see
    /// the Python docs for the order it falls back in). Raises `IllegalMoveError`
    /// on a finished game.
    #[pyo3(signature = (board, time_limit=None), text_signature = "($self, board, time_limit=None)")]
    fn best_move(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        time_limit: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<usize> {
        let budget = time_limit.map(time_limit_arg).transpose()?.flatten();
        let game = game_of(board)?;
        match (time_limit, budget) {
            (None, _) => self.run(py, &game, |s, c| {
                Ok(s.best_move_game(&game, None, c)?.column)
            }),
            (Some(_), budget) => {
                let deadline = match budget {
                    Some(b) => Deadline::after(b),
                    None => Deadline::never(),
                };
                self.run(py, &game, |s, c| {
                    Ok(s.best_move_game(&game, Some(&deadline), c)?.column)
                })
            }
        }
    }

    /// Whether the solver covers `rules_or_board` (an `inarow.Rules` or an
    /// `inarow.Board`): 2 players, and with gravity `width * (height + 1) <= 64`,
    /// without gravity `width * height <= 128`.
    /// `TypeError` for anything else.
    #[staticmethod]
    fn supports(rules_or_board: &Bound<'_, PyAny>) -> PyResult<bool> {
        let rules = if let Ok(board) = rules_or_board.cast::<Board>() {
            *board.try_borrow()?.game.rules()
        } else if let Ok(rules) = rules_or_board.cast::<PyRules>() {
            rules.get().rules
        } else {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "rules_or_board must be an inarow.Rules or an inarow.Board, got {}: {}",
                type_name(rules_or_board),
                shown(rules_or_board)
            )));
        };
        Ok(CoreSolver::check_rules(&rules).is_ok())
    }

    /// Nodes searched by the last call.
    #[getter]
    fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }
    #[getter]
    fn tt_bytes(&self) -> usize {
        self.tt_bytes
    }
    #[getter]
    fn threads(&self) -> usize {
        self.threads
    }
    /// Whether calls answer from the opening book.
    #[getter]
    fn book(&self) -> bool {
        self.book
    }
    /// The opening book's levels as `(ply, kind)`, plies increasing: kind "exact"
    /// (exact scores) or "weak" (win/draw/loss). Empty with `book=False` or when the
    /// book could not be loaded. Loads the book if no call has yet.
    #[getter]
    fn book_levels(&self, py: Python<'_>) -> Vec<(usize, &'static str)> {
        let book = if self.book { shipped_book(py) } else { None };
        book.map_or_else(Vec::new, |b| {
            b.levels()
                .iter()
                .map(|l| {
                    let kind = match l.kind {
                        Kind::Exact => "exact",
                        Kind::Weak => "weak",
                    };
                    (l.ply, kind)
                })
                .collect()
        })
    }

    /// Empties the transposition table (once the running search is done).
    fn clear(&self, py: Python<'_>) -> PyResult<()> {
        let _turn = self.wait_turn(py, &CancelToken::new())?;
        py.detach(|| self.lock_core().clear());
        Ok(())
    }

    /// Stops every call running or queued at this moment (from another thread);
    /// each raises `CancelledError`. Later calls are not affected.
    fn cancel(&self) {
        for token in self.lock_calls().iter() {
            token.cancel();
        }
        self.turn.wake_all();
    }

    fn __repr__(&self) -> String {
        format!(
            "Solver(tt_bytes={}, threads={}, book={})",
            self.tt_bytes,
            self.threads,
            if self.book { "True" } else { "False" }
        )
    }
}

/// `weak=` (a bool; False when omitted).
fn weak_arg(weak: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
    Ok(weak
        .map(|w| bool_arg(w, "weak"))
        .transpose()?
        .unwrap_or(false))
}
