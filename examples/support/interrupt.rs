//! SIGINT / SIGTERM for the long-running examples: a flag their searches poll as
//! their cancel flag, so an interrupted run saves its progress.

use std::sync::atomic::{AtomicBool, Ordering};

/// Set by SIGINT / SIGTERM.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

#[cfg(unix)]
pub fn install_interrupt_handler() {
    extern "C" fn on_signal(_: i32) {
        INTERRUPTED.store(true, Ordering::SeqCst);
    }
    extern "C" {
        fn signal(signum: i32, handler: extern "C" fn(i32)) -> usize;
    }
    const SIGINT: i32 = 2;
    const SIGTERM: i32 = 15;
    // SAFETY: the handler only stores to an atomic, which is async-signal-safe.
    unsafe {
        signal(SIGINT, on_signal);
        signal(SIGTERM, on_signal);
    }
}

#[cfg(not(unix))]
pub fn install_interrupt_handler() {}
