//! One agent's moves on many positions at once, across threads.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use super::{Agent, AgentError, AgentWorker};
use crate::game::Game;
use crate::rng::Rng;
use crate::solver::book::Book;
use crate::threads::on_threads;

/// `agent`'s move on each of `games` (none finished), across `threads`; game `i`
/// draws from stream `first_stream + i` of `seed`, so the moves do not depend on the
/// thread count, and a slice of the games starting at `j` with `first_stream = j`
/// gets the moves the whole call gives it. The first error stops every thread; raising `cancel` stops within a
/// move ([`AgentError::Cancelled`] from the agents that search). `book`: the
/// perfect agent's opening book.
pub fn choose_many(
    agent: Agent,
    book: Option<Arc<Book>>,
    games: &[Game],
    seed: u64,
    first_stream: u64,
    threads: usize,
    cancel: &AtomicBool,
) -> Result<Vec<usize>, AgentError> {
    let next = AtomicU64::new(0);
    let out: Vec<AtomicU64> = (0..games.len()).map(|_| AtomicU64::new(0)).collect();
    let failure: Mutex<Option<AgentError>> = Mutex::new(None);
    let work = || {
        let mut worker = AgentWorker::new(agent).with_book(book.clone());
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed) as usize;
            if i >= games.len() {
                break;
            }
            let mut rng = Rng::new(seed, first_stream + i as u64);
            match worker.choose(&games[i], &mut rng, cancel) {
                Ok(a) => out[i].store(a as u64, Ordering::Relaxed),
                Err(e) => {
                    failure
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .get_or_insert(e);
                    // Stops the other workers too.
                    next.store(games.len() as u64, Ordering::Relaxed);
                    break;
                }
            }
        }
    };
    on_threads(threads.clamp(1, games.len().max(1)), "inarow-agent", work);
    if let Some(e) = failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    Ok(out.into_iter().map(|a| a.into_inner() as usize).collect())
}
