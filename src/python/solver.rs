//! `inarow.Solver`: the perfect Connect-Four solver, from Python.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use pyo3::exceptions::{PyMemoryError, PyTypeError};
use pyo3::prelude::*;

use super::args::{bool_arg, int_arg};
use super::board::Board;
use super::errors::{
    CancelledError, IllegalMoveError, InvalidPositionError, SolverConfigError,
    UnsupportedRulesError,
};
use super::interrupt::run_interruptible;
use crate::solver::{Position, SolveError, Solver as CoreSolver, SolverConfig};
use crate::solver::{DEFAULT_TT_BYTES, MAX_THREADS, MAX_TT_BYTES, MIN_TT_BYTES};

fn solve_error(e: SolveError) -> PyErr {
    match e {
        SolveError::Unsupported(m) => UnsupportedRulesError::new_err(m),
        SolveError::OutOfMemory(m) => PyMemoryError::new_err(m),
        SolveError::InvalidConfig(m) => SolverConfigError::new_err(m),
        SolveError::IllegalMove(m) | SolveError::GameOver(m) => IllegalMoveError::new_err(m),
        SolveError::InvalidPosition(m) => InvalidPositionError::new_err(m),
        SolveError::Interrupted => CancelledError::new_err("search cancelled"),
    }
}

/// An exact solver for 2-player gravity boards whose layout fits 64 bits
/// (`width * (height + 1) <= 64`: 7x6, 8x7, 9x5, ...), any k. Scores follow Pascal
/// Pons' convention, for the side to move. One search at a time per solver: calls
/// from several threads are serialized; `cancel()` stops a running search.
#[pyclass(module = "inarow._native", name = "Solver", frozen)]
pub struct Solver {
    core: Mutex<CoreSolver>,
    cancel: Arc<AtomicBool>,
    nodes: AtomicU64,
    tt_bytes: usize,
    threads: usize,
}

fn position(board: &Bound<'_, PyAny>) -> PyResult<Position> {
    let board = board.cast::<Board>().map_err(|_| {
        PyTypeError::new_err(format!(
            "board must be an inarow.Board, got {}",
            board
                .get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ))
    })?;
    Position::from_game(&board.borrow().game).map_err(solve_error)
}

impl Solver {
    /// Runs `work` on the solver off the interpreter, interruptible by Ctrl-C and `cancel()`.
    fn run<T: Send>(
        &self,
        py: Python<'_>,
        work: impl FnOnce(&mut CoreSolver, &AtomicBool) -> Result<T, SolveError> + Send,
    ) -> PyResult<T> {
        let cancel = &*self.cancel;
        let result = run_interruptible(
            py,
            cancel,
            || {
                let mut core = self.core.lock().unwrap_or_else(|p| p.into_inner());
                cancel.store(false, Ordering::Relaxed);
                let r = work(&mut core, cancel);
                self.nodes.store(core.nodes(), Ordering::Relaxed);
                r
            },
            |_| Ok(()),
        )?;
        result.map_err(solve_error)
    }
}

#[pymethods]
impl Solver {
    /// `Solver(tt_bytes=64 MiB, threads=1)`: `tt_bytes` in 1 KiB..=16 GiB, `threads`
    /// in 1..=64 (more threads share one table). Bad values raise
    /// `SolverConfigError` (a `ValueError`); a table that cannot be allocated raises
    /// `MemoryError`.
    #[new]
    #[pyo3(signature = (tt_bytes=None, threads=None), text_signature = "(tt_bytes=67108864, threads=1)")]
    fn new(
        py: Python<'_>,
        tt_bytes: Option<&Bound<'_, PyAny>>,
        threads: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Solver> {
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
            None => 1,
            Some(v) if v.is_none() => 1,
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
        let core = py
            .detach(|| {
                CoreSolver::new(SolverConfig {
                    tt_bytes: tt,
                    threads,
                })
            })
            .map_err(solve_error)?;
        Ok(Solver {
            core: Mutex::new(core),
            cancel: Arc::new(AtomicBool::new(false)),
            nodes: AtomicU64::new(0),
            tt_bytes: tt,
            threads,
        })
    }

    /// The exact score of `board` for the side to move (Pons' convention: 0 draw,
    /// positive = the side to move wins, larger = sooner; on 7x6 -18..=18); with
    /// `weak=True` only its sign. A finished game: the side to move has lost, scored
    /// as the winner's score one ply earlier, negated (-1 when weak); a full board 0.
    /// The board is never modified.
    #[pyo3(signature = (board, weak=None), text_signature = "($self, board, weak=False)")]
    fn solve(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        weak: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<i32> {
        let weak = weak
            .map(|w| bool_arg(w, "weak"))
            .transpose()?
            .unwrap_or(false);
        let pos = position(board)?;
        self.run(py, |s, c| s.solve(&pos, weak, c))
    }

    /// The score of each action for the player who plays it (None where illegal,
    /// or everywhere once the game is over).
    #[pyo3(signature = (board, weak=None), text_signature = "($self, board, weak=False)")]
    fn analyze(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        weak: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<Option<i32>>> {
        let weak = weak
            .map(|w| bool_arg(w, "weak"))
            .transpose()?
            .unwrap_or(false);
        let pos = position(board)?;
        self.run(py, |s, c| s.analyze(&pos, weak, c))
    }

    /// An optimal action (ties broken centre first). Raises `IllegalMoveError` on a
    /// finished game.
    fn best_move(&self, py: Python<'_>, board: &Bound<'_, PyAny>) -> PyResult<usize> {
        let pos = position(board)?;
        self.run(py, |s, c| s.best_move(&pos, c))
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

    /// Empties the transposition table.
    fn clear(&self, py: Python<'_>) {
        py.detach(|| self.core.lock().unwrap_or_else(|p| p.into_inner()).clear());
    }

    /// Stops the running search (from another thread); it raises `CancelledError`.
    fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    fn __repr__(&self) -> String {
        format!(
            "Solver(tt_bytes={}, threads={})",
            self.tt_bytes, self.threads
        )
    }
}
