//! When a timed call must stop: an instant on the monotonic clock.
//!
//! The search polls its deadline with its other stop flags (every ~1000 nodes,
//! well under a millisecond), so a call overshoots its deadline by at most one
//! poll interval per running thread. Every check is counted, so tests can bound a
//! search's work by its checks instead of by wall-clock time.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// A point past which a timed call stops searching; once passed it stays passed.
#[derive(Debug)]
pub struct Deadline {
    /// `None`: never (a budget beyond what the clock can count).
    at: Option<Instant>,
    /// For deterministic tests: passed from this check on (counted from 1).
    passes_at_check: Option<u64>,
    checks: AtomicU64,
    passed: AtomicBool,
}

impl Deadline {
    /// The deadline `budget` from now.
    pub fn after(budget: Duration) -> Deadline {
        Deadline {
            at: Instant::now().checked_add(budget),
            passes_at_check: None,
            checks: AtomicU64::new(0),
            passed: AtomicBool::new(false),
        }
    }

    /// A deadline that never passes.
    pub fn never() -> Deadline {
        Deadline {
            at: None,
            passes_at_check: None,
            checks: AtomicU64::new(0),
            passed: AtomicBool::new(false),
        }
    }

    /// The deadline at `at`.
    pub fn at(at: Instant) -> Deadline {
        Deadline {
            at: Some(at),
            passes_at_check: None,
            checks: AtomicU64::new(0),
            passed: AtomicBool::new(false),
        }
    }

    /// A deadline that passes at its `check`-th check whatever the clock says
    /// (1: at once), so that tests of timed calls do not depend on the machine's
    /// speed.
    pub fn at_check(check: u64) -> Deadline {
        Deadline {
            at: None,
            passes_at_check: Some(check),
            checks: AtomicU64::new(0),
            passed: AtomicBool::new(false),
        }
    }

    /// Whether the deadline has passed (counts as one check).
    pub fn passed(&self) -> bool {
        if self.passed.load(Relaxed) {
            return true;
        }
        let check = self.checks.fetch_add(1, Relaxed) + 1;
        let passed = match self.passes_at_check {
            Some(n) => check >= n,
            None => self.at.is_some_and(|at| Instant::now() >= at),
        };
        if passed {
            self.passed.store(true, Relaxed);
        }
        passed
    }

    /// Whether an earlier check found the deadline passed (no new check).
    pub fn seen_passed(&self) -> bool {
        self.passed.load(Relaxed)
    }

    /// Checks made so far (all threads).
    pub fn checks(&self) -> u64 {
        self.checks.load(Relaxed)
    }
}
