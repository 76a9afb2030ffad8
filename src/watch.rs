//! Work on a worker thread, watched from the calling thread; per-call cancel
//! tokens; a turn-taking gate whose waiters can give up.
//!
//! The worker hands its result over through a mutex and a condition variable: the
//! waiter looks at the slot under the lock the worker fills it under, so a wake-up
//! cannot be missed, and the caller returns as soon as the result is there. The
//! caller also wakes every poll interval to run its `tick` (the Python layer checks
//! for Ctrl-C there); that interval bounds how late a signal is seen, never how late
//! a result is returned.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

use crate::threads::spawn_scoped;

/// One call's cancel flag: cancelling it stops that call's work and no other.
#[derive(Clone, Debug, Default)]
pub struct CancelToken(Arc<AtomicBool>);

impl CancelToken {
    pub fn new() -> CancelToken {
        CancelToken::default()
    }
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
    /// The flag itself, for work that polls an `AtomicBool`.
    pub fn flag(&self) -> &AtomicBool {
        &self.0
    }
    pub fn same_as(&self, other: &CancelToken) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // Nothing panics while holding these locks; a poisoned one still holds valid data.
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The worker's outcome, as the caller finds it.
enum Slot<T> {
    Pending,
    Done(T),
    Panicked,
}

/// The result slot shared by a worker and its caller.
struct Handoff<T> {
    slot: Mutex<Slot<T>>,
    filled: Condvar,
}

impl<T> Handoff<T> {
    fn new() -> Handoff<T> {
        Handoff {
            slot: Mutex::new(Slot::Pending),
            filled: Condvar::new(),
        }
    }

    fn fill(&self, outcome: Slot<T>) {
        *lock(&self.slot) = outcome;
        self.filled.notify_all();
    }

    /// Waits up to `timeout` (for ever with `None`) and takes the outcome: `None`
    /// if the worker is still running, `Some(Err(()))` if it panicked.
    fn take(&self, timeout: Option<Duration>) -> Option<Result<T, ()>> {
        let deadline = timeout.map(|t| Instant::now() + t);
        let mut slot = lock(&self.slot);
        loop {
            match std::mem::replace(&mut *slot, Slot::Pending) {
                Slot::Done(v) => return Some(Ok(v)),
                Slot::Panicked => return Some(Err(())),
                Slot::Pending => {}
            }
            slot = match deadline {
                None => self.filled.wait(slot).unwrap_or_else(|p| p.into_inner()),
                Some(d) => {
                    let now = Instant::now();
                    if now >= d {
                        return None;
                    }
                    self.filled
                        .wait_timeout(slot, d - now)
                        .unwrap_or_else(|p| p.into_inner())
                        .0
                }
            };
        }
    }
}

/// How the calling thread waits: the Python layer releases the interpreter around
/// each blocking wait and checks for signals in `tick`.
pub trait Watcher {
    type Error;
    /// Runs `wait`, which blocks until the worker finishes or a poll interval ends.
    fn blocking<R: Send>(&mut self, wait: impl FnOnce() -> R + Send) -> R;
    /// Called once per poll interval while the work goes on; an error stops it.
    fn tick(&mut self) -> Result<(), Self::Error>;
}

/// Why [`run_watched`] returned without the work's result.
#[derive(Debug, PartialEq, Eq)]
pub enum Stopped<E> {
    /// `tick` failed: the call's token was cancelled and the worker has finished.
    Tick(E),
    /// The work panicked (a bug); the panic stayed on the worker.
    Panicked,
}

/// Runs `work` on a new scoped thread while the calling thread waits for its
/// result, calling `watcher.tick()` every `poll`. When `tick` fails, `cancel` is
/// set, the worker is waited for (`work` must poll `cancel`) and the error returned.
/// When no thread can start, `work` runs on the calling thread inside
/// `watcher.blocking` (the call then completes but cannot be stopped by `tick`).
pub fn run_watched<T: Send, W: Watcher>(
    watcher: &mut W,
    poll: Duration,
    cancel: &CancelToken,
    work: impl FnOnce() -> T + Send,
) -> Result<T, Stopped<W::Error>> {
    let handoff = Handoff::new();
    // The work stays reachable from here when the thread cannot start.
    let work = Mutex::new(Some(work));
    let run = || {
        let work = lock(&work).take();
        match work.map(|w| catch_unwind(AssertUnwindSafe(w))) {
            Some(Ok(v)) => Slot::Done(v),
            _ => Slot::Panicked,
        }
    };
    thread::scope(|scope| {
        let (handoff, run) = (&handoff, &run);
        let spawned = spawn_scoped(scope, "inarow-worker", move || handoff.fill(run()));
        if spawned.is_none() {
            return match watcher.blocking(run) {
                Slot::Done(v) => Ok(v),
                _ => Err(Stopped::Panicked),
            };
        }
        loop {
            match watcher.blocking(|| handoff.take(Some(poll))) {
                Some(Ok(v)) => return Ok(v),
                Some(Err(())) => return Err(Stopped::Panicked),
                None => {}
            }
            if let Err(e) = watcher.tick() {
                cancel.cancel();
                watcher.blocking(|| handoff.take(None));
                return Err(Stopped::Tick(e));
            }
        }
    })
}

/// One holder at a time. Waiting for a turn times out (so the waiter can check for
/// signals) and ends early when the waiter's token is cancelled ([`Gate::wake_all`]).
#[derive(Default)]
pub struct Gate {
    busy: Mutex<bool>,
    freed: Condvar,
}

/// What [`Gate::enter`] found.
pub enum Entry<'a> {
    /// This caller's turn; it lasts until the guard drops.
    Entered(GateGuard<'a>),
    /// The token was cancelled before the turn came.
    Cancelled,
    /// The turn did not come within the timeout.
    TimedOut,
}

pub struct GateGuard<'a>(&'a Gate);

impl Drop for GateGuard<'_> {
    fn drop(&mut self) {
        *lock(&self.0.busy) = false;
        // Every waiter: a cancelled one leaves without taking the turn.
        self.0.freed.notify_all();
    }
}

impl Gate {
    pub fn new() -> Gate {
        Gate::default()
    }

    /// Waits up to `timeout` for the turn, unless `token` is (or gets) cancelled.
    pub fn enter(&self, timeout: Duration, token: &CancelToken) -> Entry<'_> {
        let deadline = Instant::now() + timeout;
        let mut busy = lock(&self.busy);
        loop {
            if token.is_cancelled() {
                return Entry::Cancelled;
            }
            if !*busy {
                *busy = true;
                return Entry::Entered(GateGuard(self));
            }
            let now = Instant::now();
            if now >= deadline {
                return Entry::TimedOut;
            }
            busy = self
                .freed
                .wait_timeout(busy, deadline - now)
                .unwrap_or_else(|p| p.into_inner())
                .0;
        }
    }

    /// Wakes every waiter to look at its token again (call after cancelling).
    pub fn wake_all(&self) {
        // Taking the lock orders this after a waiter's token check: a waiter either
        // saw the token set or is already waiting and gets the notification.
        drop(lock(&self.busy));
        self.freed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU64;

    /// Counts ticks; fails the tick numbered `fail_at`.
    struct Counting {
        ticks: u32,
        fail_at: Option<u32>,
    }

    impl Watcher for Counting {
        type Error = &'static str;
        fn blocking<R: Send>(&mut self, wait: impl FnOnce() -> R + Send) -> R {
            wait()
        }
        fn tick(&mut self) -> Result<(), &'static str> {
            self.ticks += 1;
            match self.fail_at {
                Some(n) if self.ticks >= n => Err("stop"),
                _ => Ok(()),
            }
        }
    }

    /// A few spins of varying length, so that the worker finishes at every point
    /// of the caller's wait.
    fn jitter(seed: u64) {
        for _ in 0..(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 58) {
            std::hint::spin_loop();
        }
        if seed.is_multiple_of(7) {
            thread::yield_now();
        }
    }

    #[test]
    fn no_result_is_ever_missed() {
        // A missed wake-up leaves the caller asleep until the poll interval ends
        // (then it either ticks or finds the result): every one of thousands of
        // short calls must return without a tick and long before the interval.
        const POLL: Duration = Duration::from_secs(10);
        let mut w = Counting {
            ticks: 0,
            fail_at: None,
        };
        for i in 0..5000u64 {
            let token = CancelToken::new();
            let start = Instant::now();
            let got = run_watched(&mut w, POLL, &token, || {
                jitter(i);
                i * 3
            });
            let waited = start.elapsed();
            assert_eq!(got, Ok(i * 3));
            assert_eq!(w.ticks, 0, "call {i} slept through the poll interval");
            assert!(waited < POLL / 2, "call {i} returned after {waited:?}");
        }
    }

    #[test]
    fn a_failed_tick_cancels_the_work_and_waits_for_it() {
        let token = CancelToken::new();
        let polls = AtomicU64::new(0);
        let mut w = Counting {
            ticks: 0,
            fail_at: Some(3),
        };
        let got = run_watched(&mut w, Duration::from_millis(1), &token, || {
            while !token.is_cancelled() {
                polls.fetch_add(1, Ordering::Relaxed);
                thread::yield_now();
            }
            "stopped"
        });
        assert_eq!(got, Err(Stopped::Tick("stop")));
        assert_eq!(w.ticks, 3);
        assert!(token.is_cancelled());
    }

    #[test]
    fn a_panicking_worker_is_reported_not_waited_for() {
        let mut w = Counting {
            ticks: 0,
            fail_at: None,
        };
        let got: Result<(), _> = run_watched(
            &mut w,
            Duration::from_secs(600),
            &CancelToken::new(),
            || panic!("a bug in the work"),
        );
        assert_eq!(got, Err(Stopped::Panicked));
    }

    #[test]
    fn without_threads_the_work_runs_on_the_caller() {
        use crate::threads::REFUSE_SPAWN;
        REFUSE_SPAWN.with(|r| r.set(true));
        let caller = thread::current().id();
        let mut w = Counting {
            ticks: 0,
            fail_at: None,
        };
        let ran_on = run_watched(
            &mut w,
            Duration::from_millis(1),
            &CancelToken::new(),
            || thread::current().id(),
        );
        assert_eq!(ran_on, Ok(caller));
        assert!(crate::threads::pool(2).is_none());
        REFUSE_SPAWN.with(|r| r.set(false));
    }

    #[test]
    fn the_gate_serialises_and_lets_cancelled_waiters_leave() {
        let gate = Gate::new();
        let holder = CancelToken::new();
        let Entry::Entered(turn) = gate.enter(Duration::from_secs(600), &holder) else {
            panic!("a free gate is entered at once")
        };
        let waiter = CancelToken::new();
        assert!(matches!(
            gate.enter(Duration::from_millis(5), &waiter),
            Entry::TimedOut
        ));
        thread::scope(|s| {
            let queued = s.spawn(|| {
                matches!(
                    gate.enter(Duration::from_secs(600), &waiter),
                    Entry::Cancelled
                )
            });
            thread::sleep(Duration::from_millis(10));
            waiter.cancel();
            gate.wake_all();
            assert!(
                queued.join().unwrap(),
                "the cancelled waiter left its queue"
            );
        });
        drop(turn);
        assert!(matches!(
            gate.enter(Duration::from_secs(600), &CancelToken::new()),
            Entry::Entered(_)
        ));
    }

    #[test]
    fn no_cancel_or_release_is_ever_missed_by_a_waiter() {
        // A missed notification leaves a waiter in its ten-minute wait: the test
        // would hang instead of finishing its thousands of rounds.
        let gate = Gate::new();
        for i in 0..2000u64 {
            let first = CancelToken::new();
            let Entry::Entered(turn) = gate.enter(Duration::from_secs(600), &first) else {
                panic!("the gate is free between rounds")
            };
            let waiter = CancelToken::new();
            thread::scope(|s| {
                let queued = s.spawn(|| match gate.enter(Duration::from_secs(600), &waiter) {
                    Entry::Entered(_) => "entered",
                    Entry::Cancelled => "cancelled",
                    Entry::TimedOut => "timed out",
                });
                jitter(i);
                if i % 2 == 0 {
                    waiter.cancel();
                    gate.wake_all();
                    let got = queued.join().unwrap();
                    drop(turn);
                    assert_eq!(got, "cancelled");
                } else {
                    drop(turn);
                    assert_eq!(queued.join().unwrap(), "entered");
                }
            });
        }
    }
}
