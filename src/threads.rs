//! The thread layer every search stands on: named scoped threads that the system
//! may refuse (the work then runs on fewer), work shared by several threads, Lazy
//! SMP's main search with helpers beside it, rayon pools, the core count. The
//! searches (solver, threat engine, agents, batches) say what runs where; how the
//! threads start, stop and are joined is written here once.

use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;

/// Spawns a named scoped thread; `None` when the system refuses a thread.
pub fn spawn_scoped<'scope, 'env, T: Send + 'scope>(
    scope: &'scope thread::Scope<'scope, 'env>,
    name: &str,
    f: impl FnOnce() -> T + Send + 'scope,
) -> Option<thread::ScopedJoinHandle<'scope, T>> {
    if spawn_refused() {
        return None;
    }
    thread::Builder::new()
        .name(name.into())
        .spawn_scoped(scope, f)
        .ok()
}

/// Runs `work` on `threads` threads at once: the calling thread and `threads - 1`
/// scoped ones named `name` (a thread the system refuses leaves its share to the
/// others). `work` takes its share of a common queue, so it runs until the queue
/// is empty.
pub fn on_threads(threads: usize, name: &str, work: impl Fn() + Sync) {
    let work = &work;
    thread::scope(|scope| {
        for _ in 1..threads {
            let _ = spawn_scoped(scope, name, work);
        }
        work();
    });
}

/// Lazy SMP's shape: `main` runs on the calling thread while each of `helpers`
/// runs `helper(item)` on a scoped thread named `name`; once `main` returns,
/// `done` (when given) is set so the helpers stop, and every helper is joined.
/// Returns `main`'s result and each helper's, `None` for a helper the system
/// refused or one that panicked (the search is then the same on fewer threads).
pub fn alongside<I, T, R>(
    name: &str,
    helpers: I,
    helper: impl Fn(I::Item) -> T + Sync,
    done: Option<&AtomicBool>,
    main: impl FnOnce() -> R,
) -> (R, Vec<Option<T>>)
where
    I: IntoIterator,
    I::Item: Send,
    T: Send,
{
    let helper = &helper;
    thread::scope(|scope| {
        let handles: Vec<_> = helpers
            .into_iter()
            .map(|item| spawn_scoped(scope, name, move || helper(item)))
            .collect();
        let result = main();
        if let Some(done) = done {
            done.store(true, Ordering::Relaxed);
        }
        let parts = handles
            .into_iter()
            .map(|h| h.and_then(|h| h.join().ok()))
            .collect();
        (result, parts)
    })
}

/// The cores this process may use (1 when the system does not say).
pub fn cores() -> usize {
    thread::available_parallelism().map_or(1, |n| n.get())
}

/// A rayon pool of `threads` threads (0: one per core); `None` when the system
/// refuses its threads (the caller then works on its own thread).
pub fn pool(threads: usize) -> Option<rayon::ThreadPool> {
    if spawn_refused() {
        return None;
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("inarow-pool-{i}"))
        .build()
        .ok()
}

#[cfg(test)]
thread_local! {
    /// Tests set this to make every spawn from their thread fail, as under a
    /// process limit.
    pub static REFUSE_SPAWN: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn spawn_refused() -> bool {
    #[cfg(test)]
    return REFUSE_SPAWN.with(|r| r.get());
    #[cfg(not(test))]
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU64;

    #[test]
    fn helpers_run_beside_main_stop_when_it_is_done_and_are_joined() {
        let done = AtomicBool::new(false);
        let spins = AtomicU64::new(0);
        let (main, parts) = alongside(
            "test",
            1..4usize,
            |i| {
                while !done.load(Ordering::Relaxed) {
                    spins.fetch_add(1, Ordering::Relaxed);
                    std::hint::spin_loop();
                }
                i * 10
            },
            Some(&done),
            || 7,
        );
        assert_eq!(main, 7);
        assert_eq!(parts, vec![Some(10), Some(20), Some(30)]);
    }

    #[test]
    fn a_refused_or_panicking_helper_gives_none() {
        let (main, parts) = alongside(
            "test",
            [false, true],
            |panics| {
                if panics {
                    panic!("a helper panics");
                }
                1
            },
            None,
            || 2,
        );
        assert_eq!((main, parts), (2, vec![Some(1), None]));
        REFUSE_SPAWN.with(|r| r.set(true));
        let (main, parts) = alongside("test", 0..2, |i| i, None, || 3);
        REFUSE_SPAWN.with(|r| r.set(false));
        assert_eq!((main, parts), (3, vec![None, None]));
    }
}
