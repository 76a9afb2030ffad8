//! Memory for large tables: zeroed by the system, on huge pages where the
//! kernel allows, and loaded ahead of a probe.
//!
//! A probe of a table of hundreds of MiB misses the TLB on 4 KiB pages, and the
//! page walk costs about as much as the cache miss itself; with 2 MiB pages the
//! TLB covers the whole table.

/// `len` zeroed `T`s, or `None` when the allocation fails. Zeroed by the
/// allocator: large blocks come straight from the OS as zero pages that are only
/// backed by memory once touched, so a new table costs no time and only the part
/// the searches use takes memory; the pages are advised huge before any is.
///
/// # Safety
///
/// All-zero bytes must be a valid `T` (integers, atomics, structs of them).
pub(crate) unsafe fn zeroed_table<T>(len: usize) -> Option<Vec<T>> {
    let layout = std::alloc::Layout::array::<T>(len).ok()?;
    if layout.size() == 0 {
        return Some(Vec::new());
    }
    // SAFETY: the layout has a non-zero size.
    let p = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<T>();
    if p.is_null() {
        return None;
    }
    advise_huge_pages(p, layout.size());
    // SAFETY: `p` comes from the global allocator with the layout of `len` `T`s
    // (what a Vec of that capacity uses), and the caller vouches that all-zero
    // bytes are a valid `T`.
    Some(unsafe { Vec::from_raw_parts(p, len, len) })
}

/// Advises the kernel to back the 2 MiB-aligned part of `bytes` bytes at `start`
/// with huge pages. Call it before the memory is first touched; where the kernel
/// refuses (or is not Linux) nothing changes.
#[cfg(target_os = "linux")]
pub(crate) fn advise_huge_pages<T>(start: *const T, bytes: usize) {
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
pub(crate) fn advise_huge_pages<T>(_start: *const T, _bytes: usize) {}

/// Starts loading `item` into the cache, for a read soon after (a hint only).
#[inline(always)]
pub(crate) fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults and has no effect but on the cache.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
            (item as *const T).cast(),
        )
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}
