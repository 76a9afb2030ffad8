//! The transposition table: bounds on scores, shared lock-free between threads.
//!
//! Buckets of two entries (32 bytes, two buckets per cache line). An entry is two
//! `u64` words, `key ^ data` and `data` (Hyatt's lockless trick: a torn write fails
//! the key check instead of returning a mixed entry). `data` packs
//!
//! ```text
//! bits  0..8   lower bound (i8)      bits 16..24  best column + 1 (0 = none)
//! bits  8..16  upper bound (i8)      bits 24..32  log2 of the work (nodes) spent
//! bits 32..40  generation (0 = empty)
//! ```
//!
//! Both bounds are facts about the position (they do not depend on the search
//! window that produced them), so entries for the same key are merged by taking the
//! tighter bound of each side. Replacement keeps the costlier entry of the bucket.
//! [`Table::clear`] is O(1): it bumps the generation, and entries of another
//! generation count as empty; every 255 clears the memory is zeroed for real.
//!
//! The number of buckets is a power of two. Only a prefix of the table is in use at
//! first (256 KiB, cache-resident: small searches stay fast); it doubles whenever the
//! searches have stored about as many entries as it has buckets, up to the whole
//! table. Indexes are the low bits of the hashed key, so after a doubling half of the
//! entries are still found; the unreachable ones are the first to be replaced. On
//! Linux the memory is advised to use transparent huge pages (fewer TLB misses).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use super::error::SolveError;

/// Bytes per entry.
pub(crate) const ENTRY_BYTES: usize = 16;

/// A probed entry.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub lower: i32,
    pub upper: i32,
    /// Best column (in the stored orientation), if known.
    pub best: Option<u32>,
}

/// Buckets in use right after a clear.
const MIN_LIVE_BUCKETS: u64 = 1 << 13;

pub(crate) struct Table {
    words: Vec<AtomicU64>,
    buckets: u64,
    /// `live buckets - 1`: the buckets in use now (a power of two <= `buckets`).
    live_mask: AtomicU64,
    generation: u8,
}

#[inline(always)]
fn pack(lower: i32, upper: i32, best: Option<u32>, work: u32, generation: u8) -> u64 {
    (lower as i8 as u8 as u64)
        | ((upper as i8 as u8 as u64) << 8)
        | ((best.map_or(0, |b| b + 1) as u64 & 0xff) << 16)
        | ((work.min(255) as u64) << 24)
        | ((generation as u64) << 32)
}

#[inline(always)]
fn lower_of(d: u64) -> i32 {
    d as u8 as i8 as i32
}
#[inline(always)]
fn upper_of(d: u64) -> i32 {
    (d >> 8) as u8 as i8 as i32
}
#[inline(always)]
fn best_of(d: u64) -> Option<u32> {
    let b = (d >> 16) as u8 as u32;
    b.checked_sub(1)
}
#[inline(always)]
fn work_of(d: u64) -> u32 {
    (d >> 24) as u8 as u32
}
#[inline(always)]
fn gen_of(d: u64) -> u8 {
    (d >> 32) as u8
}

impl Table {
    /// A table of about `bytes` bytes (at least one bucket). Allocation failure is
    /// [`SolveError::OutOfMemory`], never an abort.
    pub fn new(bytes: usize) -> Result<Table, SolveError> {
        let want = (bytes / (2 * ENTRY_BYTES)).max(1);
        // Largest power of two not above `want`.
        let buckets = 1usize << (usize::BITS - 1 - want.leading_zeros());
        let words = buckets * 4;
        // SAFETY: all-zero bytes are a valid `AtomicU64` (an empty entry).
        let v = unsafe { crate::memory::zeroed_table::<AtomicU64>(words) }.ok_or_else(|| {
            SolveError::OutOfMemory(format!(
                "transposition table of {bytes} bytes: the allocation failed"
            ))
        })?;
        let buckets = buckets as u64;
        Ok(Table {
            words: v,
            buckets,
            live_mask: AtomicU64::new(buckets.min(MIN_LIVE_BUCKETS) - 1),
            generation: 1,
        })
    }

    /// Size in bytes.
    pub fn buckets(&self) -> u64 {
        self.buckets
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.words.len() * 8
    }

    /// Buckets in use now.
    #[inline]
    pub fn live_buckets(&self) -> u64 {
        self.live_mask.load(Relaxed) + 1
    }

    /// Doubles the buckets in use (if `seen` is still the current count).
    pub fn grow(&self, seen: u64) {
        let next = (seen * 2).min(self.buckets);
        let _ = self
            .live_mask
            .compare_exchange(seen - 1, next - 1, Relaxed, Relaxed);
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        *self.live_mask.get_mut() = self.buckets.min(MIN_LIVE_BUCKETS) - 1;
        if self.generation == u8::MAX {
            for w in self.words.iter_mut() {
                *w.get_mut() = 0;
            }
            self.generation = 1;
        } else {
            self.generation += 1;
        }
    }

    #[inline(always)]
    fn hash(key: u64) -> u64 {
        let h = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^ (h >> 32)
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        (Self::hash(key) & self.live_mask.load(Relaxed)) as usize * 4
    }

    /// Hints the CPU to load the bucket of `key`.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let i = self.bucket(key);
            let p = self.words[i..].as_ptr() as *const i8;
            // SAFETY: prefetch is a hint; the pointer is in bounds of `words`.
            unsafe { std::arch::x86_64::_mm_prefetch(p, std::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry for `key`, if stored in the current generation.
    #[inline(always)]
    pub fn get(&self, key: u64) -> Option<Entry> {
        let i = self.bucket(key);
        let g = self.generation;
        for s in 0..2 {
            let d = self.words[i + 2 * s + 1].load(Relaxed);
            let kx = self.words[i + 2 * s].load(Relaxed);
            if kx ^ d == key && gen_of(d) == g {
                return Some(Entry {
                    lower: lower_of(d),
                    upper: upper_of(d),
                    best: best_of(d),
                });
            }
        }
        None
    }

    /// Records `lower <= score <= upper` for `key`, merged with what is known.
    /// `work` is log2 of the nodes the search spent (replacement priority).
    #[inline]
    pub fn put(&self, key: u64, mut lower: i32, mut upper: i32, best: Option<u32>, work: u32) {
        let live = self.live_mask.load(Relaxed);
        let i = (Self::hash(key) & live) as usize * 4;
        let g = self.generation;
        let mut victim = 0;
        let mut victim_prio = u32::MAX;
        for s in 0..2 {
            let d = self.words[i + 2 * s + 1].load(Relaxed);
            let kx = self.words[i + 2 * s].load(Relaxed);
            // Replacement priority: empty 0, left behind by a doubling 1, else 2 + work.
            let prio = if gen_of(d) != g {
                0
            } else if kx ^ d == key {
                lower = lower.max(lower_of(d));
                upper = upper.min(upper_of(d));
                let best = best.or(best_of(d));
                let work = work.max(work_of(d));
                let nd = pack(lower, upper, best, work, g);
                self.words[i + 2 * s].store(key ^ nd, Relaxed);
                self.words[i + 2 * s + 1].store(nd, Relaxed);
                return;
            } else if (Self::hash(kx ^ d) & live) as usize * 4 != i {
                1
            } else {
                2 + work_of(d)
            };
            if prio < victim_prio {
                victim = s;
                victim_prio = prio;
            }
        }
        let nd = pack(lower, upper, best, work, g);
        self.words[i + 2 * victim].store(key ^ nd, Relaxed);
        self.words[i + 2 * victim + 1].store(nd, Relaxed);
    }
}
