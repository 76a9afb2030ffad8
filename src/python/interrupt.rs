//! Long work off the interpreter: run it on a worker thread, poll for Ctrl-C
//! (and report progress) from the calling thread, cancel cleanly.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// How often signals are checked and progress reported.
const POLL: Duration = Duration::from_millis(50);

/// Runs `work` on a scoped thread; every `POLL` checks Python signals (a
/// `KeyboardInterrupt` sets `cancel`, waits for the worker and is re-raised) and
/// calls `on_tick`. `work` must poll `cancel` and return promptly once it is set.
pub(crate) fn run_interruptible<T: Send>(
    py: Python<'_>,
    cancel: &AtomicBool,
    work: impl FnOnce() -> T + Send,
    mut on_tick: impl FnMut(Python<'_>) -> PyResult<()>,
) -> PyResult<T> {
    std::thread::scope(|scope| {
        let caller = std::thread::current();
        let handle = std::thread::Builder::new()
            .name("inarow-worker".into())
            .spawn_scoped(scope, move || {
                let result = work();
                caller.unpark();
                result
            })
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start a worker thread: {e}")))?;
        loop {
            py.detach(|| {
                let start = std::time::Instant::now();
                while !handle.is_finished() && start.elapsed() < POLL {
                    std::thread::park_timeout(POLL.saturating_sub(start.elapsed()));
                }
            });
            let outcome = if handle.is_finished() {
                Ok(())
            } else {
                py.check_signals().and_then(|_| on_tick(py))
            };
            if let Err(e) = outcome {
                cancel.store(true, Ordering::Relaxed);
                let _ = py.detach(|| handle.join());
                return Err(e);
            }
            if handle.is_finished() {
                return py.detach(|| handle.join()).map_err(|_| {
                    PyRuntimeError::new_err("internal error: the worker thread panicked")
                });
            }
        }
    })
}
