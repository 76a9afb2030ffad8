//! When a free-placement search stops: a stop flag, a deadline or a node budget,
//! looked at every [`POLL_NODES`] nodes.

use std::sync::atomic::{AtomicBool, Ordering};

use super::super::deadline::Deadline;

/// Nodes between two looks at the stop flags.
const POLL_NODES: u64 = 1024;

/// A search's nodes and the limits they run against.
pub(super) struct Limits<'a> {
    cancel: &'a AtomicBool,
    /// A second stop flag: another thread of the same search is done.
    pub stop: Option<&'a AtomicBool>,
    pub deadline: Option<&'a Deadline>,
    /// Nodes the search may visit before it stops.
    pub budget: u64,
    pub nodes: u64,
    /// A stop flag, the deadline or the budget ended the search; its result is
    /// then meaningless.
    pub aborted: bool,
}

impl<'a> Limits<'a> {
    /// No deadline, no budget: only `cancel` stops the search.
    pub fn new(cancel: &'a AtomicBool) -> Limits<'a> {
        Limits {
            cancel,
            stop: None,
            deadline: None,
            budget: u64::MAX,
            nodes: 0,
            aborted: false,
        }
    }

    /// Counts a node; whether the search is aborted (then it stays aborted).
    #[inline]
    pub fn count_node(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(POLL_NODES)
            && (self.cancel.load(Ordering::Relaxed)
                || self.stop.is_some_and(|stop| stop.load(Ordering::Relaxed))
                || self.nodes > self.budget
                || self.deadline.is_some_and(Deadline::passed))
        {
            self.aborted = true;
        }
        self.aborted
    }
}
