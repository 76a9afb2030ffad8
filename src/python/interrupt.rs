//! Long work off the interpreter: run it on a worker thread, check for Ctrl-C (and
//! report progress) from the calling thread, cancel cleanly. The hand-over itself
//! lives in `crate::watch`; this layer adds the interpreter and its signals.

use std::time::Duration;

use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError};
use pyo3::prelude::*;

use crate::watch::{run_watched, CancelToken, Stopped, Watcher};

/// How often signals are checked and progress reported while work runs. It bounds
/// how late Ctrl-C is seen; results are handed back as soon as they are ready.
pub(crate) const POLL: Duration = Duration::from_millis(50);

struct PyWatcher<'py, F> {
    py: Python<'py>,
    on_tick: F,
}

impl<'py, F: FnMut(Python<'py>) -> PyResult<()>> Watcher for PyWatcher<'py, F> {
    type Error = PyErr;
    fn blocking<R: Send>(&mut self, wait: impl FnOnce() -> R + Send) -> R {
        self.py.detach(wait)
    }
    fn tick(&mut self) -> PyResult<()> {
        self.py.check_signals()?;
        (self.on_tick)(self.py)
    }
}

/// Runs `work` on a worker thread with the interpreter released; every `POLL`
/// checks Python signals and calls `on_tick`. A `KeyboardInterrupt` (or an error
/// of `on_tick`) cancels `token`, waits for the worker and is raised. `work` must
/// poll `token` and return promptly once it is set. When no thread can start, the
/// work runs on the calling thread.
pub(crate) fn run_interruptible<'py, T: Send>(
    py: Python<'py>,
    token: &CancelToken,
    work: impl FnOnce() -> T + Send,
    on_tick: impl FnMut(Python<'py>) -> PyResult<()>,
) -> PyResult<T> {
    let mut watcher = PyWatcher { py, on_tick };
    run_watched(&mut watcher, POLL, token, work).map_err(|stopped| match stopped {
        Stopped::Tick(e) => e,
        Stopped::Panicked => PyRuntimeError::new_err("internal error: the worker thread panicked"),
    })
}

/// Polls (each after ~32k units of work) a count makes on the calling thread
/// before it moves to an interruptible worker: a few milliseconds, so small counts
/// never pay for a thread and Ctrl-C is never held up for long.
const INLINE_POLLS: u32 = 8;

/// Runs `count` (a perft-like count polling its `keep_going`) on the calling
/// thread with the interpreter released; one that needs more than `INLINE_POLLS`
/// polls starts over on a worker that Ctrl-C interrupts (`KeyboardInterrupt`,
/// naming `what`).
pub(crate) fn run_count(
    py: Python<'_>,
    what: &str,
    mut count: impl FnMut(&mut dyn FnMut() -> bool) -> Option<u64> + Send,
) -> PyResult<u64> {
    let mut polls = 0;
    let quick = py.detach(|| {
        count(&mut || {
            polls += 1;
            polls <= INLINE_POLLS
        })
    });
    if let Some(n) = quick {
        return Ok(n);
    }
    let token = CancelToken::new();
    run_interruptible(
        py,
        &token,
        || count(&mut || !token.is_cancelled()),
        |_| Ok(()),
    )?
    .ok_or_else(|| PyKeyboardInterrupt::new_err(format!("{what} interrupted")))
}
