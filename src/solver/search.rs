//! The search: null-window negamax probes on two bitboards.
//!
//! One [`Search`] per thread; all share one [`Table`]. Scores follow Pons'
//! convention (see the module docs). Every bound stored in the table is a fact about
//! the position, which is what makes the lock-free sharing and the fail-soft returns
//! safe.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

use super::book::Book;
use super::deadline::Deadline;
use super::geometry::Geometry;
use super::order::MoveList;
use super::position::Position;
use super::table::Table;

/// How often (in nodes, a power of two minus one) the stop flags are polled.
const POLL_MASK: u64 = 0x3ff;

/// Enhanced transposition cutoffs (probing the children in the table) only with
/// more than this many empty cells: nearer the end the probes cost more than they
/// save (measured on 7x6: -7% time, +6% nodes).
const ETC_MIN_EMPTY: i32 = 12;

/// Plies below the root where threads advertise the nodes they are searching.
const BUSY_PLIES: i32 = 12;

/// Slots of the shared "being searched" table used with several threads.
pub(super) const BUSY_SLOTS: usize = 1 << 14;

/// Up to this many stones on the board, the first root probe is at 0 (opening
/// positions score near 0), then the search walks outwards from it.
const ZERO_FIRST_MAX_MOVES: i32 = 1;

pub(crate) struct Search<'a> {
    g: Geometry,
    n: i32,
    table: &'a Table,
    cancel: &'a AtomicBool,
    stop: &'a AtomicBool,
    /// Negamax calls made.
    pub nodes: u64,
    /// Set once a stop flag was seen (or the budget exceeded); every result after it
    /// is garbage.
    pub aborted: bool,
    /// Node budget: the search aborts (roughly) after this many nodes.
    pub budget: u64,
    /// Columns, centre first.
    centre: [u8; 64],
    /// Shared "being searched" markers (threads > 1), indexed by key hash.
    busy: Option<&'a [AtomicU64]>,
    /// Table stores since the table last grew (this thread).
    stores: u64,
    /// Threads sharing the table.
    threads: u64,
    /// Stones on the board at the root of the current search.
    root_moves: i32,
    /// Added to the first probe's window (helper threads search a neighbouring
    /// window, whose bound the main thread needs next).
    pub probe_offset: i32,
    /// The CPU runs [`Search::negamax_modern`].
    pub(crate) modern_cpu: bool,
    /// The opening book, probed at nodes with at most `book_plies` stones.
    book: Option<&'a Book>,
    book_plies: i32,
    /// Nodes the book bounded.
    pub book_hits: u64,
    /// Polled with the stop flags; past it the search aborts.
    pub deadline: Option<&'a Deadline>,
    /// The root's score bounds proven by the probes completed so far (valid after
    /// an abort too).
    pub bounds: (i32, i32),
}

/// Whether the CPU has the features of [`Search::negamax_modern`] (x86-64-v3).
fn modern_cpu() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("lzcnt")
            && std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

impl<'a> Search<'a> {
    pub fn new(
        g: Geometry,
        table: &'a Table,
        cancel: &'a AtomicBool,
        stop: &'a AtomicBool,
        busy: Option<&'a [AtomicU64]>,
        threads: usize,
    ) -> Search<'a> {
        let mut centre = [0u8; 64];
        let w = g.width() as i32;
        let mut cols: Vec<i32> = (0..w).collect();
        cols.sort_by_key(|&c| ((2 * c - (w - 1)).abs(), c));
        for (i, c) in cols.into_iter().enumerate() {
            centre[i] = c as u8;
        }
        Search {
            g,
            n: g.cells,
            table,
            cancel,
            stop,
            nodes: 0,
            aborted: false,
            budget: u64::MAX,
            centre,
            busy,
            root_moves: 0,
            probe_offset: 0,
            modern_cpu: modern_cpu(),
            stores: 0,
            threads: threads as u64,
            book: None,
            book_plies: -1,
            book_hits: 0,
            deadline: None,
            bounds: (i32::MIN, i32::MAX),
        }
    }

    /// Probes `book` at the nodes it holds (if it is for this board and `k`).
    pub fn set_book(&mut self, book: Option<&'a Book>) {
        let (w, h, k) = (
            self.g.width() as usize,
            self.g.height() as usize,
            self.g.k as usize,
        );
        self.book = book.filter(|b| b.rules() == (w, h, k));
        self.book_plies = self.book.map_or(-1, |b| b.depth() as i32);
    }

    /// The table key of a position: `current + mask` (one bit on top of each column
    /// plus the mover's stones), or its mirror image if smaller. Returns the key,
    /// whether it was mirrored and whether it is its own mirror image (then the
    /// position and its mirror image score alike, and so do the children in mirrored
    /// columns). Where no parent computes the key for its enhanced transposition
    /// cutoffs, dead stones count as the mover's: positions that differ only in
    /// them share an entry (see the module docs for why not earlier).
    #[inline(always)]
    fn key(&self, current: u64, mask: u64, moves: i32) -> (u64, bool, bool) {
        let k = if self.n - moves < ETC_MIN_EMPTY {
            (current | self.g.dead_stones(current, mask)).wrapping_add(mask)
        } else {
            current.wrapping_add(mask)
        };
        // Mirrored at every depth: the empty board -4% nodes, -5% time (only
        // below 20 stones, as this once did, saved time on the old build).
        let m = self.g.mirror(k);
        (m.min(k), m < k, m == k)
    }

    /// The moves in `moves` (at most one cell per column) with their columns,
    /// centre columns first.
    #[inline(always)]
    fn centre_first(&self, moves: u64) -> impl Iterator<Item = (u32, u64)> + '_ {
        let g = self.g;
        self.centre[..g.width() as usize]
            .iter()
            .filter_map(move |&c| {
                let m = moves & g.column_mask(c as u32);
                (m != 0).then_some((c as u32, m))
            })
    }

    #[inline]
    fn busy_slot(&self, key: u64) -> Option<&AtomicU64> {
        let b = self.busy?;
        let h = key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
        b.get(h as usize % b.len())
    }

    fn mark_busy(&self, key: u64) {
        if let Some(s) = self.busy_slot(key) {
            s.store(key, Relaxed);
        }
    }

    fn unmark_busy(&self, key: u64) {
        if let Some(s) = self.busy_slot(key) {
            let _ = s.compare_exchange(key, u64::MAX, Relaxed, Relaxed);
        }
    }

    fn is_busy(&self, key: u64) -> bool {
        self.busy_slot(key).is_some_and(|s| s.load(Relaxed) == key)
    }

    /// Exact score of a position that is not over and where the player to move cannot
    /// win at once, by bisection with null windows, within `[lo, hi]`.
    pub fn solve(&mut self, current: u64, mask: u64, moves: i32, mut lo: i32, mut hi: i32) -> i32 {
        self.root_moves = moves;
        self.bounds = (lo, hi);
        let mut steps = 0;
        while lo < hi && !self.aborted {
            let mut med = lo + (hi - lo) / 2;
            if med <= 0 && lo / 2 < med {
                med = lo / 2;
            } else if med >= 0 && hi / 2 > med {
                med = hi / 2;
            }
            if moves <= ZERO_FIRST_MAX_MOVES && steps < 3 {
                // Early positions usually score near 0: try 0, then walk outwards.
                med = if lo < 0 && hi > 0 {
                    0
                } else if lo >= 0 {
                    lo
                } else {
                    hi - 1
                };
            }
            if steps == 0 {
                med = (med + self.probe_offset).clamp(lo, hi - 1);
            }
            steps += 1;
            let r = self.negamax(current, mask, moves, med, med + 1);
            if self.aborted {
                break;
            }
            if r <= med {
                hi = r.min(hi);
            } else {
                lo = r.max(lo);
            }
            self.bounds = (lo, hi);
        }
        lo
    }

    /// Static bounds from claimeven (Allis). A column with an even number of empty
    /// cells splits into pairs: whoever drops first in a pair gets its lower cell
    /// (`claim_rows`), the other answers on top. The next free cells of the columns
    /// with an odd number of empty cells (`odd` heads) are paired among themselves,
    /// and with an odd count of them the mover drops on one first. So when the
    /// opponent answers (claimeven + pairing), the mover ends with at most
    /// `claim_rows | odd` of the empty cells and the opponent with at least the
    /// rest minus `odd`: if the former makes no line the mover cannot win (score
    /// <= 0), if the latter also makes one the mover loses (<= -1). With an odd
    /// number of odd heads the mover plays one and then answers: the mirror image.
    /// `opp_win`: the cells completing a line of the opponent.
    #[inline(always)]
    pub(crate) fn claimeven_bounds(
        &self,
        cur: u64,
        opp: u64,
        mask: u64,
        opp_win: u64,
        lo: &mut i32,
        hi: &mut i32,
    ) {
        let g = &self.g;
        let odd = mask.wrapping_add(g.bottom()) & g.odd_heads & g.board();
        let empty = g.board() & !mask;
        let claim = empty & g.claim_rows;
        let rest = empty & !claim & !odd;
        let odd_count = odd.count_ones();
        if odd_count.is_multiple_of(2) {
            // The mover gets one head of each pair: with one pair, try both.
            let no_win = if odd_count == 2 {
                let a = odd & odd.wrapping_neg();
                !g.has_line(cur | claim | a) && !g.has_line(cur | claim | (odd ^ a))
            } else {
                !g.has_line(cur | claim | odd)
            };
            if no_win {
                *hi = (*hi).min(if g.has_line(opp | rest) { -1 } else { 0 });
                return;
            }
            // The zugzwang below from the other side: the mover drops on a head so
            // that one odd column is left, under a threat of his at a cell of
            // `claim_rows`, and then answers every move in the same column.
            let zugzwang = |m: u64, threats: u64, col: u64| {
                let c = threats & col & g.claim_rows & !m;
                if c == 0 {
                    return false;
                }
                let t = c & c.wrapping_neg();
                let head = if m & col != 0 { m << 1 } else { odd & col };
                let below = (t - 1) & !(head - 1);
                !g.has_line(opp | (claim & !col & !m) | (below & !g.claim_rows))
            };
            let won = match odd_count {
                0 => {
                    let threats = g.winning_cells(cur, mask) & g.claim_rows;
                    let mut heads = g.possible(mask);
                    let mut won = false;
                    while heads != 0 && threats != 0 {
                        let m = heads & heads.wrapping_neg();
                        heads ^= m;
                        let col = g.column_of(m);
                        if zugzwang(m, threats, col) {
                            won = true;
                            break;
                        }
                    }
                    won
                }
                2 => {
                    let a = odd & odd.wrapping_neg();
                    let b = odd ^ a;
                    [(a, b), (b, a)].iter().any(|&(m, other)| {
                        let threats = g.winning_cells(cur | m, mask | m);
                        let col = g.column_of(other);
                        zugzwang(m, threats, col)
                    })
                }
                _ => false,
            };
            if won {
                *lo = (*lo).max(1);
            }
        } else {
            // The mover drops on one head `x`; the opponent gets at most the others.
            if odd_count > 1 && g.has_line(opp | claim) {
                return;
            }
            let mut heads = odd;
            while heads != 0 {
                let x = heads & heads.wrapping_neg();
                heads ^= x;
                if !g.has_line(opp | claim | (odd ^ x)) {
                    *lo = (*lo).max(if g.has_line(cur | rest | x) { 1 } else { 0 });
                    return;
                }
            }
            if odd_count == 1 {
                // Zugzwang (Allis' odd threat): the opponent threatens at `t` in the
                // only odd column, at a cell the answering player gets there. The
                // opponent answers every move in the same column; the mover must
                // eventually play right under `t`. If the cells the mover can get
                // before that hold no line, the mover loses.
                let col = g.column_of(odd);
                let threats = opp_win & col & g.claim_rows;
                if threats != 0 {
                    let t = threats & threats.wrapping_neg();
                    let below = (t - 1) & !(odd - 1);
                    if !g.has_line(cur | (claim & !col) | (below & !g.claim_rows)) {
                        *hi = (*hi).min(-1);
                    }
                }
            }
        }
    }

    /// The book's value of a node as bounds: its exact score, or for a
    /// win/draw/loss value `>= 1`, `0` or `<= -1`.
    #[cold]
    fn book_bounds(&mut self, cur: u64, mask: u64, moves: i32, lo: &mut i32, hi: &mut i32) {
        let Some(book) = self.book else { return };
        let pos = Position {
            geo: self.g,
            current: cur,
            mask,
            moves: moves as u32,
            won: false,
        };
        let (l, h) = if let Some(v) = book.exact(&pos) {
            (v, v)
        } else {
            match book.weak(&pos) {
                Some(1) => (1, i32::MAX),
                Some(0) => (0, 0),
                Some(_) => (i32::MIN, -1),
                None => return,
            }
        };
        self.book_hits += 1;
        *lo = (*lo).max(l);
        *hi = (*hi).min(h);
    }

    /// Negamax with alpha-beta, fail-soft. Preconditions: the game is not over and the
    /// player to move cannot win at once. Returns `v` with: `v <= alpha` => score <= v;
    /// `v >= beta` => score >= v; otherwise score == v.
    pub fn negamax(&mut self, cur: u64, mask: u64, moves: i32, alpha: i32, beta: i32) -> i32 {
        self.child(cur, mask, moves, alpha, beta)
    }

    /// The recursive call, through the variant compiled for this CPU.
    #[inline(always)]
    fn child(&mut self, cur: u64, mask: u64, moves: i32, alpha: i32, beta: i32) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if self.modern_cpu {
            // SAFETY: `modern_cpu` is true only if the CPU has every feature
            // `negamax_modern` is compiled with.
            return unsafe { self.negamax_modern(cur, mask, moves, alpha, beta) };
        }
        self.negamax_baseline(cur, mask, moves, alpha, beta)
    }

    /// The search compiled for x86-64-v3 CPUs (wheels target the x86-64 baseline,
    /// where a popcount alone is a dozen instructions).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]
    fn negamax_modern(&mut self, cur: u64, mask: u64, moves: i32, alpha: i32, beta: i32) -> i32 {
        self.node(cur, mask, moves, alpha, beta)
    }

    fn negamax_baseline(&mut self, cur: u64, mask: u64, moves: i32, alpha: i32, beta: i32) -> i32 {
        self.node(cur, mask, moves, alpha, beta)
    }

    /// One node (see [`Search::negamax`]); inlined into both compiled variants.
    #[inline(always)]
    fn node(&mut self, cur: u64, mask: u64, moves: i32, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes & POLL_MASK == 0 {
            if self.cancel.load(Relaxed)
                || self.stop.load(Relaxed)
                || self.nodes > self.budget
                || self.deadline.is_some_and(Deadline::passed)
            {
                self.aborted = true;
            }
            let live = self.table.live_buckets();
            if live < self.table.buckets() && self.stores * self.threads > live {
                self.table.grow(live);
                self.stores = 0;
            }
        }
        if self.aborted {
            return 0;
        }
        let g = self.g;
        let n = self.n;
        // The table entry is loaded while the threats and static bounds are worked
        // out (wasted when they end the node, but it waits less on memory).
        let (key, mirrored, symmetric) = self.key(cur, mask, moves);
        self.table.prefetch(key);
        let possible = g.possible(mask);
        let opp = cur ^ mask;
        let opp_win = g.winning_cells(opp, mask);
        let forced = possible & opp_win;
        let mut next = possible;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                return -(n - moves) / 2; // two threats: lost next move
            }
            next = forced;
        }
        next &= !(opp_win >> 1); // never play under an opponent's threat
        if next == 0 {
            return -(n - moves) / 2;
        }
        if moves >= n - 2 {
            return 0;
        }
        if symmetric && moves < 16 {
            // The right half of the columns mirrors the left half.
            let mut keep = 0;
            for c in 0..g.width().div_ceil(2) {
                keep |= g.column_mask(c);
            }
            next &= keep;
        }

        // The children's entries (enhanced transposition cutoffs below) are loaded
        // while the static bounds are worked out.
        let etc = n - moves > ETC_MIN_EMPTY;
        let mut child_keys = [0u64; 32];
        if etc {
            for (j, (_, m)) in self.centre_first(next).enumerate() {
                let (ck, ..) = self.key(opp, mask | m, moves + 1);
                self.table.prefetch(ck);
                child_keys[j] = ck;
            }
        }
        // The opponent cannot win on the next move, we cannot win on this one.
        let mut lo = -(n - 2 - moves) / 2;
        let mut hi = (n - 1 - moves) / 2;
        self.claimeven_bounds(cur, opp, mask, opp_win, &mut lo, &mut hi);
        if moves <= self.book_plies {
            self.book_bounds(cur, mask, moves, &mut lo, &mut hi);
        }
        if lo >= beta {
            return lo;
        }
        if hi <= alpha {
            return hi;
        }

        // Children: a move after which the opponent has no safe reply wins at once
        // (two moves from now), with the earliest possible score.
        let mut list = MoveList::new();
        let mut tt_best = None;
        for (col, m) in self.centre_first(next) {
            let c2 = cur | m;
            let m2 = mask | m;
            let ours = g.winning_cells(c2, m2);
            let p2 = g.possible(m2);
            let f2 = ours & p2;
            let replies = if f2 == 0 {
                p2
            } else if f2 & (f2 - 1) == 0 {
                f2
            } else {
                0
            } & !(ours >> 1);
            if replies == 0 {
                return hi;
            }
            // Threats (cells completing our line) ordering, after c4: threats right
            // above an opponent's threat are useless; a threat right above a cell
            // the opponent could play (so he may not) counts most. (c4 also
            // favours threats two cells up: -5% nodes without it here.) A move
            // threatening to win at once gets a point more (-2% nodes).
            let useful = ours & !(opp_win << 1);
            let above_playable = (p2 << 1) & g.board();
            let score = 4 * (useful & above_playable).count_ones() as i32
                + useful.count_ones() as i32
                + (f2 != 0) as i32;
            list.push(col, score);
        }
        // No win within three plies: at best we win on our third move from here.
        hi = hi.min((n - 3 - moves) / 2);
        if hi <= alpha {
            return hi;
        }

        if list.len() == 1 {
            // A single move (forced or the only safe one): no table traffic.
            let m = next & g.column_mask(list.col(0));
            alpha = alpha.max(lo);
            beta = beta.min(hi);
            if alpha >= beta {
                return alpha;
            }
            return -self.child(opp, mask | m, moves + 1, -beta, -alpha);
        }

        if let Some(e) = self.table.get(key) {
            lo = lo.max(e.lower);
            hi = hi.min(e.upper);
            if lo >= beta || lo >= hi {
                return lo;
            }
            if hi <= alpha {
                return hi;
            }
            tt_best = e.best.map(|b| if mirrored { g.width() - 1 - b } else { b });
        }

        // Enhanced transposition cutoff: a child whose upper bound already refutes it.
        if etc {
            for &ck in &child_keys[..list.len()] {
                if let Some(e) = self.table.get(ck) {
                    let v = -e.upper;
                    if v >= beta {
                        return v;
                    }
                    lo = lo.max(v);
                }
            }
        }

        alpha = alpha.max(lo);
        beta = beta.min(hi);
        if alpha >= beta {
            return alpha;
        }

        if let Some(b) = tt_best {
            list.promote(b);
        }
        list.sort();

        let start_nodes = self.nodes;
        let alpha0 = alpha;
        let mut best = i32::MIN;
        let mut best_col = 0u32;
        // With several threads, near the root, a child another thread is already
        // searching is deferred to the end (ABDADA): by then its result is
        // probably in the table. The first child is never deferred.
        let shared = self.busy.is_some() && moves < self.root_moves + BUSY_PLIES;
        if shared {
            self.mark_busy(key);
        }
        let mut deferred = 0u64;
        'passes: for pass in 0..2 {
            for j in 0..list.len() {
                let col = list.col(j);
                let m = next & g.column_mask(col);
                if pass == 1 && deferred & (1 << j) == 0 {
                    continue;
                }
                if pass == 0
                    && shared
                    && j > 0
                    && self.is_busy(self.key(opp, mask | m, moves + 1).0)
                {
                    deferred |= 1 << j;
                    continue;
                }
                let v = -self.child(opp, mask | m, moves + 1, -beta, -alpha);
                if self.aborted {
                    return 0;
                }
                if v > best {
                    best = v;
                    best_col = col;
                    if v >= beta {
                        break 'passes;
                    }
                    if v > alpha {
                        alpha = v;
                    }
                }
            }
            if deferred == 0 {
                break;
            }
        }
        if shared {
            self.unmark_busy(key);
        }
        let (lower, upper) = if best >= beta {
            (best, hi)
        } else if best <= alpha0 {
            (lo, best)
        } else {
            (best, best)
        };
        let work = 64 - (self.nodes - start_nodes).leading_zeros();
        let stored_col = if mirrored {
            g.width() - 1 - best_col
        } else {
            best_col
        };
        self.table.put(key, lower, upper, Some(stored_col), work);
        self.stores += 1;
        best
    }
}
