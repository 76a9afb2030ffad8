//! Several searches at once (the moves of an analysis): each thread searches one
//! alone on the shared table, then takes the next, and a thread that finds none
//! left helps with one still running. On 2 cores this beats searching them one
//! after the other with both threads on each (Lazy SMP gains about 1.4x on one
//! search of a million nodes, independent searches nearly 2x).

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering::Relaxed};

use super::config::SOLO_NODE_BUDGET;
use super::error::SolveError;
use super::plan::Plan;
use super::position::Position;
use super::search::{Search, BUSY_SLOTS};
use super::state::Solver;

/// One search: its value (as [`Solver::search_to_end`] gives it) within `window`,
/// given that it is at least `floor` (a fact the caller knows, e.g. from the
/// parent's exact score).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Job {
    pub pos: Position,
    pub window: Option<(i32, i32)>,
    pub floor: Option<i32>,
}

/// A job's result before it is known.
const UNKNOWN: i32 = i32::MIN;

impl Solver {
    /// The value of every job (its sign if `weak`), each as
    /// [`Solver::search_to_end`] would give it. Jobs known without a search are
    /// answered first; then, on this thread, the jobs that fit in
    /// [`SOLO_NODE_BUDGET`] nodes in all (with one thread, every job); the rest on
    /// the solver's threads at once. Fails as a single search fails (node limit,
    /// interruption), after every thread has stopped.
    pub(crate) fn search_all(
        &mut self,
        jobs: &[Job],
        weak: bool,
        cancel: &AtomicBool,
    ) -> Result<Vec<i32>, SolveError> {
        let sign = |s: i32| if weak { s.signum() } else { s };
        let mut values = vec![UNKNOWN; jobs.len()];
        let mut open: Vec<(usize, i32, i32)> = Vec::new();
        for (i, job) in jobs.iter().enumerate() {
            match self.plan(&job.pos, weak, job.window, cancel)? {
                Plan::Known(v) => values[i] = v,
                Plan::Search { lo, hi, .. } => {
                    let lo = job.floor.map_or(lo, |f| lo.max(f));
                    if lo >= hi {
                        values[i] = sign(lo);
                    } else {
                        open.push((i, lo, hi));
                    }
                }
            }
        }
        let limit = self.node_limit.unwrap_or(u64::MAX);
        let solo_budget = if self.threads <= 1 {
            u64::MAX
        } else {
            SOLO_NODE_BUDGET
        };
        let mut solo_nodes = 0u64;
        let mut first_open = 0;
        let never = AtomicBool::new(false);
        while let Some(&(i, lo, hi)) = open.get(first_open) {
            let pos = &jobs[i].pos;
            let mut s = Search::new(pos.geo, &self.table, cancel, &never, None, 1);
            s.set_book(self.book.as_deref());
            s.budget = limit
                .saturating_sub(self.nodes)
                .min(solo_budget.saturating_sub(solo_nodes));
            let r = s.solve(pos.current, pos.mask, pos.moves as i32, lo, hi);
            self.nodes += s.nodes;
            self.book_hits += s.book_hits;
            solo_nodes += s.nodes;
            if s.aborted {
                if cancel.load(Relaxed) {
                    return Err(SolveError::Interrupted);
                }
                if self.nodes >= limit {
                    return Err(SolveError::NodeLimit);
                }
                break;
            }
            values[i] = sign(r);
            first_open += 1;
        }
        let rest = &open[first_open..];
        if !rest.is_empty() {
            let found = self.search_together(jobs, rest, limit, cancel)?;
            for (&(i, ..), v) in rest.iter().zip(found) {
                values[i] = sign(v);
            }
        }
        Ok(values)
    }

    /// The exact score of `pos`, by rounds of two null-window probes searched at
    /// once (with one thread, [`Solver::solve`]). The probes walk from the end of
    /// the score range nearest 0 (a win's score up from its least, a loss's down
    /// from its most, else the two that tell the outcome): scores lie mostly near
    /// it, and the two probes on either side of the score, the costliest by far,
    /// tend to fall in one round.
    pub(crate) fn exact_by_probe_pairs(
        &mut self,
        pos: &Position,
        cancel: &AtomicBool,
    ) -> Result<i32, SolveError> {
        let (mut lo, mut hi) = match self.plan(pos, false, None, cancel)? {
            Plan::Known(v) => return Ok(v),
            Plan::Search { lo, hi, .. } => (lo, hi),
        };
        if self.threads <= 1 {
            return self.solve_inner(pos, false, cancel);
        }
        while lo < hi {
            // "Is the score above a?", for each probe a in lo..hi.
            let probes: Vec<i32> = if lo >= 0 {
                vec![lo, lo + 1]
            } else if hi <= 0 {
                vec![hi - 1, hi - 2]
            } else {
                vec![-1, 0]
            };
            let jobs: Vec<Job> = probes
                .iter()
                .filter(|&&a| lo <= a && a < hi)
                .map(|&a| Job {
                    pos: *pos,
                    window: Some((a, a + 1)),
                    floor: None,
                })
                .collect();
            let found = self.search_all(&jobs, false, cancel)?;
            for (job, v) in jobs.iter().zip(found) {
                let (a, _) = job.window.unwrap_or_default();
                if v <= a {
                    hi = hi.min(v);
                } else {
                    lo = lo.max(v);
                }
            }
        }
        Ok(lo)
    }

    /// The raw results of the searches `open` (job index, score range) on the
    /// solver's threads at once.
    fn search_together(
        &mut self,
        jobs: &[Job],
        open: &[(usize, i32, i32)],
        limit: u64,
        cancel: &AtomicBool,
    ) -> Result<Vec<i32>, SolveError> {
        let allowed = limit.saturating_sub(self.nodes);
        let table = &self.table;
        let book = self.book.as_deref();
        let threads = self.threads;
        let next = AtomicUsize::new(0);
        // A job's flag stops every search of it: set once one of them ends it, or
        // once some search fails (then all are set).
        let done: Vec<AtomicBool> = open.iter().map(|_| AtomicBool::new(false)).collect();
        let results: Vec<AtomicI32> = open.iter().map(|_| AtomicI32::new(UNKNOWN)).collect();
        let failed = AtomicBool::new(false);
        let spent = AtomicU64::new(0);
        let hits = AtomicU64::new(0);
        let busy: Vec<AtomicU64> = (0..BUSY_SLOTS).map(|_| AtomicU64::new(u64::MAX)).collect();
        let work = || loop {
            if failed.load(Relaxed) {
                return;
            }
            let claimed = next.fetch_add(1, Relaxed);
            // Past the queue: help with a job still running.
            let (j, helping) = if claimed < open.len() {
                (claimed, false)
            } else {
                match (0..open.len()).find(|&j| !done[j].load(Relaxed)) {
                    Some(j) => (j, true),
                    None => return,
                }
            };
            let (i, lo, hi) = open[j];
            let pos = &jobs[i].pos;
            let mut s = Search::new(pos.geo, table, cancel, &done[j], Some(&busy), threads);
            s.set_book(book);
            s.budget = allowed.saturating_sub(spent.load(Relaxed));
            if helping {
                // The bound the owner needs next if its first probe fails.
                s.probe_offset = 1;
            }
            let r = s.solve(pos.current, pos.mask, pos.moves as i32, lo, hi);
            spent.fetch_add(s.nodes, Relaxed);
            hits.fetch_add(s.book_hits, Relaxed);
            if !s.aborted {
                let _ = results[j].compare_exchange(UNKNOWN, r, Relaxed, Relaxed);
                done[j].store(true, Relaxed);
            } else if !done[j].load(Relaxed) {
                // Out of nodes, or interrupted: every search stops.
                failed.store(true, Relaxed);
                for d in &done {
                    d.store(true, Relaxed);
                }
            }
        };
        crate::threads::on_threads(threads, "inarow-solver", work);
        self.nodes += spent.load(Relaxed);
        self.book_hits += hits.load(Relaxed);
        if cancel.load(Relaxed) {
            return Err(SolveError::Interrupted);
        }
        let values: Vec<i32> = results.iter().map(|r| r.load(Relaxed)).collect();
        if failed.load(Relaxed) || values.contains(&UNKNOWN) {
            return Err(SolveError::NodeLimit);
        }
        Ok(values)
    }
}
