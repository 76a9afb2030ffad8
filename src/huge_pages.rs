//! Large tables ask the kernel for huge pages. A probe of a table of hundreds of
//! MiB misses the TLB on 4 KiB pages, and the page walk costs about as much as the
//! cache miss itself; with 2 MiB pages the TLB covers the whole table.

/// Advises the kernel to back the 2 MiB-aligned part of `bytes` bytes at `start`
/// with huge pages. Call it before the memory is first touched; where the kernel
/// refuses (or is not Linux) nothing changes.
#[cfg(target_os = "linux")]
pub(crate) fn advise<T>(start: *const T, bytes: usize) {
    extern "C" {
        fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
    }
    const MADV_HUGEPAGE: i32 = 14;
    const HUGE: usize = 2 << 20;
    let start = start as usize;
    let end = start + bytes;
    let a = (start + HUGE - 1) & !(HUGE - 1);
    let b = end & !(HUGE - 1);
    if b > a {
        // SAFETY: the range lies inside the caller's allocation; madvise only
        // changes how the kernel backs it, and failure is harmless.
        unsafe {
            madvise(a as *mut std::ffi::c_void, b - a, MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn advise<T>(_start: *const T, _bytes: usize) {}
