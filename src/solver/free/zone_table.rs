//! The table of the zone search: per canonical position and side to move,
//! whether the attacker forces a line, and if not, the relevance zone of the
//! defender's proof (as cells of the canonical position). Keyed by the whole
//! position, so a hit is never a collision; replaced always.
//!
//! Threads share it. Each slot is a seqlock: its sequence number is odd while a
//! thread writes it, and a read that saw the number change sees nothing, so a
//! read returns a whole entry or none. A thread that finds a slot being written
//! skips its own store there (the table is a cache).
//!
//! All the slots are allocated at once, zeroed by the system and backed by
//! memory only where touched; the searches use the first of them, four times as
//! many each time they have stored as many positions as they use, so a small
//! search touches little memory.

use std::collections::HashMap;
use std::sync::atomic::{fence, AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Mutex;

use super::super::error::SolveError;
use super::word::Word;

/// Slots the searches use in a new or emptied table.
const FIRST_SLOTS: usize = 1 << 16;

/// Slots of the table of positions being searched.
const BUSY_SLOTS: usize = 1 << 14;

/// Stores a search counts before it adds them to the table's count.
pub(super) const STORE_BATCH: usize = 1024;

/// The low byte of a slot's `meta`: bit 0 set for a used slot, bit 1 the
/// defender to move, bit 2 the defender holds (else the attacker wins). Above
/// it, the slot's sequence number.
const DATA: u64 = 0xff;
const SEQUENCE_ONE: u64 = 1 << 8;

/// One slot: the attacker's and the defender's stones, the zone, and `meta`.
/// All-zero bytes are an unused slot.
struct Slot<W: Word> {
    attacker: W::Atomic,
    defender: W::Atomic,
    zone: W::Atomic,
    meta: AtomicU64,
}

/// A position's outcome the zone search proved, in the canonical form of its
/// board (see [`super::FreeSolver::set_pinned_stones`]): the attacker's and the
/// defender's stones as cell sets (bit `row * width + col`), the side to move,
/// and the zone of the defender's proof (`None`: the attacker forces a line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PinnedOutcome {
    pub attacker: u128,
    pub defender: u128,
    pub defender_to_move: bool,
    pub zone: Option<u128>,
}

/// What the table knows of a position: `None` zone for an attacker's win.
pub(super) type Known<W> = Option<W>;

/// The hash that places a canonical position and side to move.
#[inline(always)]
fn hash<W: Word>(attacker: W, defender: W, defender_to_move: bool) -> u64 {
    (attacker.hash_bits() ^ defender.hash_bits().rotate_left(29))
        .wrapping_add(defender_to_move as u64)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The zone search's table (see the module docs).
pub(super) struct ZoneTable<W: Word> {
    /// All the slots: a power of two of them.
    slots: Vec<Slot<W>>,
    /// Slots in use: a power of two, at most `most`.
    live: AtomicUsize,
    /// Stores since `live` last grew.
    stores: AtomicUsize,
    /// Set while a thread moves the entries over to more slots.
    growing: AtomicBool,
    /// The positions threads are searching now, by hash (0: none): another
    /// thread leaves them for last (ABDADA's deferral).
    busy: Vec<AtomicU64>,
    /// Positions of at most `pinned_stones` stones (0: none) are also kept
    /// apart, never replaced, for a long search that saves what it has proven
    /// and resumes from it.
    pinned_stones: u32,
    pinned: Mutex<Pinned<W>>,
}

/// The pinned positions, by canonical (attacker, defender, defender to move),
/// and where the newly proven ones go.
pub(super) struct Pinned<W: Word> {
    known: HashMap<(W, W, bool), Known<W>>,
    sink: Option<Sender<PinnedOutcome>>,
}

impl<W: Word> ZoneTable<W> {
    /// A table of at most `bytes` (a power of two slots, at least one); fails
    /// with [`SolveError::OutOfMemory`] if the slots cannot be had.
    pub fn new(bytes: usize) -> Result<ZoneTable<W>, SolveError> {
        let wanted = (bytes / std::mem::size_of::<Slot<W>>()).max(1);
        let most = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        // SAFETY: all-zero bytes are an unused slot (every field is atomics).
        let slots = unsafe { crate::memory::zeroed_table::<Slot<W>>(most) }.ok_or_else(|| {
            SolveError::OutOfMemory(format!("zone table of {most} slots: the allocation failed"))
        })?;
        Ok(ZoneTable {
            slots,
            live: AtomicUsize::new(most.min(FIRST_SLOTS)),
            stores: AtomicUsize::new(0),
            growing: AtomicBool::new(false),
            busy: (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect(),
            pinned_stones: 0,
            pinned: Mutex::new(Pinned {
                known: HashMap::new(),
                sink: None,
            }),
        })
    }

    /// Keeps the positions of at most `stones` stones apart (0: none), and
    /// sends each one newly proven to `sink`.
    pub fn pin(&mut self, stones: u32, sink: Option<Sender<PinnedOutcome>>) {
        self.pinned_stones = stones;
        self.pinned.get_mut().expect("never poisoned").sink = sink;
    }

    #[inline(always)]
    fn pins(&self, attacker: W, defender: W) -> bool {
        self.pinned_stones > 0 && (attacker | defender).count() <= self.pinned_stones
    }

    /// Adds a canonical position's outcome to the pinned ones; `proven`: newly
    /// (sent to the sink), else what an earlier search saved.
    pub fn add_pinned(
        &self,
        attacker: W,
        defender: W,
        defender_to_move: bool,
        known: Known<W>,
        proven: bool,
    ) {
        let mut pinned = self.pinned.lock().expect("never poisoned");
        let fresh = pinned
            .known
            .insert((attacker, defender, defender_to_move), known)
            .is_none();
        if let (true, true, Some(sink)) = (fresh, proven, &pinned.sink) {
            // A sink that hung up only stops hearing of them.
            let _ = sink.send(PinnedOutcome {
                attacker: attacker.widen(),
                defender: defender.widen(),
                defender_to_move,
                zone: known.map(|z| z.widen()),
            });
        }
    }

    /// Adds the outcomes an earlier search saved (not sent to the sink).
    pub fn add_saved(&self, outcomes: &[PinnedOutcome]) {
        for o in outcomes {
            self.add_pinned(
                W::narrow(o.attacker),
                W::narrow(o.defender),
                o.defender_to_move,
                o.zone.map(W::narrow),
                false,
            );
        }
    }

    #[inline(always)]
    fn slot(&self, hash: u64) -> &Slot<W> {
        &self.slots[index(hash, self.live.load(Ordering::Relaxed))]
    }

    /// The outcome stored for the canonical position: `Some(None)` the attacker
    /// wins, `Some(Some(zone))` the defender holds.
    #[inline]
    pub fn get(&self, attacker: W, defender: W, defender_to_move: bool) -> Option<Known<W>> {
        if self.pins(attacker, defender) {
            let pinned = self.pinned.lock().expect("never poisoned");
            if let Some(&known) = pinned.known.get(&(attacker, defender, defender_to_move)) {
                return Some(known);
            }
        }
        let (a, d, data, zone) = read(self.slot(hash(attacker, defender, defender_to_move)))?;
        if data & 2 != (defender_to_move as u64) << 1 || a != attacker || d != defender {
            return None;
        }
        Some((data & 4 != 0).then_some(zone))
    }

    /// Starts loading the slot of the canonical position into the cache.
    #[inline(always)]
    pub fn prefetch(&self, attacker: W, defender: W, defender_to_move: bool) {
        crate::memory::prefetch(self.slot(hash(attacker, defender, defender_to_move)));
    }

    /// Stores the outcome of the canonical position (unless another thread is
    /// writing its slot).
    #[inline]
    pub fn put(&self, attacker: W, defender: W, defender_to_move: bool, known: Known<W>) {
        if self.pins(attacker, defender) {
            self.add_pinned(attacker, defender, defender_to_move, known, true);
        }
        let data = 1 | (defender_to_move as u64) << 1 | (known.is_some() as u64) << 2;
        let zone = known.unwrap_or(W::ZERO);
        write(
            self.slot(hash(attacker, defender, defender_to_move)),
            (attacker, defender, data, zone),
        );
    }

    /// The key of a canonical position with the defender to move (the nodes
    /// that mark themselves busy) for [`ZoneTable::enter`] and
    /// [`ZoneTable::is_busy`].
    #[inline(always)]
    pub fn busy_key(attacker: W, defender: W) -> u64 {
        hash(attacker, defender, true) | 1
    }

    /// Marks the position of `key` as being searched by this thread; whether
    /// it could (then [`ZoneTable::leave`] it when done).
    #[inline]
    pub fn enter(&self, key: u64) -> bool {
        self.busy[busy_index(key)]
            .compare_exchange(0, key, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
    }

    /// Unmarks a position this thread entered.
    #[inline]
    pub fn leave(&self, key: u64) {
        self.busy[busy_index(key)].store(0, Ordering::Relaxed);
    }

    /// Whether some thread is searching the position of `key` now.
    #[inline]
    pub fn is_busy(&self, key: u64) -> bool {
        self.busy[busy_index(key)].load(Ordering::Relaxed) == key
    }

    /// Counts `stores` more positions stored, and lets the searches use four
    /// times the slots once they have stored as many as they use.
    pub fn count_stores(&self, stores: usize) {
        let live = self.live.load(Ordering::Relaxed);
        if live == self.slots.len() {
            return;
        }
        if self.stores.fetch_add(stores, Ordering::Relaxed) + stores <= live
            || self.growing.swap(true, Ordering::Acquire)
        {
            return;
        }
        if self.live.load(Ordering::Relaxed) == live {
            // Each entry moves to its slot among the new ones (unused until
            // `live` grows below); what other threads store meanwhile in the
            // old ones may be left behind.
            let bigger = self.slots.len().min(live * 4);
            for (i, slot) in self.slots[..live].iter().enumerate() {
                let Some(entry) = read(slot) else {
                    continue;
                };
                let (a, d, data, _) = entry;
                let j = index(hash(a, d, data & 2 != 0), bigger);
                if j != i {
                    write(&self.slots[j], entry);
                }
            }
            self.stores.store(0, Ordering::Relaxed);
            self.live.store(bigger, Ordering::Release);
        }
        self.growing.store(false, Ordering::Release);
    }

    /// Empties the table, back to its first slots (the memory of the others
    /// returned to the system where a fresh allocation can be had).
    pub fn clear(&mut self) {
        let live = *self.live.get_mut();
        let pinned = self.pinned.get_mut().expect("never poisoned");
        pinned.known.clear();
        let sink = pinned.sink.clone();
        if live > FIRST_SLOTS {
            if let Ok(mut fresh) = ZoneTable::new(self.bytes()) {
                fresh.pin(self.pinned_stones, sink);
                *self = fresh;
                return;
            }
        }
        for slot in &self.slots[..live] {
            slot.meta.store(0, Ordering::Relaxed);
        }
        *self.live.get_mut() = self.slots.len().min(FIRST_SLOTS);
        *self.stores.get_mut() = 0;
    }

    /// The most memory the table may take, in bytes.
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot<W>>()
    }
}

#[inline(always)]
fn busy_index(key: u64) -> usize {
    (key >> 40) as usize & (BUSY_SLOTS - 1)
}

/// The slot of `hash` among the first `live` (a power of two).
#[inline(always)]
fn index(hash: u64, live: usize) -> usize {
    (hash >> 20) as usize & (live - 1)
}

/// A slot's entry `(attacker, defender, data, zone)`, unless it is unused or
/// being written.
#[inline(always)]
fn read<W: Word>(s: &Slot<W>) -> Option<(W, W, u64, W)> {
    let before = s.meta.load(Ordering::Acquire);
    if before & 1 == 0 || before & SEQUENCE_ONE != 0 {
        return None;
    }
    let (a, d, zone) = (W::load(&s.attacker), W::load(&s.defender), W::load(&s.zone));
    fence(Ordering::Acquire);
    (s.meta.load(Ordering::Relaxed) == before).then_some((a, d, before & DATA, zone))
}

/// Writes an entry into a slot, unless another thread is writing it.
#[inline(always)]
fn write<W: Word>(s: &Slot<W>, (attacker, defender, data, zone): (W, W, u64, W)) {
    let meta = s.meta.load(Ordering::Relaxed);
    let writing = (meta & !DATA).wrapping_add(SEQUENCE_ONE);
    if meta & SEQUENCE_ONE != 0
        || s.meta
            .compare_exchange(meta, writing, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
    {
        return;
    }
    fence(Ordering::Release);
    W::store(&s.attacker, attacker);
    W::store(&s.defender, defender);
    W::store(&s.zone, zone);
    s.meta
        .store(writing.wrapping_add(SEQUENCE_ONE) | data, Ordering::Release);
}
