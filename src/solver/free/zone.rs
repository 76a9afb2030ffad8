//! The weak search: can one player (the attacker) force a line against the
//! other (the defender)? An AND/OR depth-first search over canonical positions
//! whose defender proofs carry relevance zones, after the threat-space and
//! relevance-zone methods of Hsu, Ko, Chen, Wei, Hsueh and Wu ("On solving the
//! 7,7,5-game and the 8,8,5-game", 2020), in a form of its own.
//!
//! # Zones
//!
//! A proof that the defender holds (the attacker never fills a run of `k`)
//! comes with a zone `Z` of empty cells: the defender still holds when the
//! attacker also has stones on any empty cells outside `Z`. So at a node where
//! the attacker is to move, the search first lets the attacker pass (the
//! defender moves instead); if the defender holds there with zone `Z`, every
//! attacker move outside `Z` is such an extra stone, and only the moves inside
//! `Z` are searched. The zones compose bottom-up:
//!
//! * no run open to the attacker, or a full board: the empty zone;
//! * a pairing of the defender (every open run holds both cells of a pair):
//!   the pairs' cells (where the defender is to move, it first looks for a
//!   move after which a pairing holds);
//! * the defender moves `m` and holds with `Z'`: `Z' + m`;
//! * the attacker passes and the defender holds with `Z`, and each attacker
//!   move `m` in `Z` is held with `Z_m`: `Z` and every `Z_m`;
//! * the defender makes a line (the game ends): its cell, and for each run
//!   still open to the attacker one of its empty cells, so the attacker's
//!   extra stones never fill a run before that line; where the attacker moves
//!   once more before the defender's line (a four it cannot or does not block),
//!   two empty cells of each open run.
//!
//! Every run open to the attacker at a leaf of a proof thus keeps an empty
//! cell of the zone, which only the proof's own moves fill: extra stones
//! outside it never complete a run, so the proof stands with them.
//!
//! Under the freestyle rule an extra stone of the attacker never hurts it, so
//! an attacker who wins after passing wins whatever it plays; under the
//! standard rule (an overline is no line) that shortcut is off and every move
//! is searched, so the solver asks negamax for weak values there.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::OnceLock;

use super::geometry::Geometry;
use super::limits::Limits;
use super::pairing::{defender_pair_cells, pairing_reply};
use super::search::{image, line_weights, MovePicker};
use super::word::Word;
use super::zone_table::{ZoneTable, STORE_BATCH};

/// The outcome of a node: `None` the attacker wins, `Some(zone)` the defender
/// holds, with the zone of its proof.
type Outcome<W> = Option<W>;

/// The stones of both sides under every symmetry of the board (index 0: as
/// they are), so the canonical form is a minimum.
#[derive(Clone, Copy)]
pub(super) struct Stones<W: Word> {
    attacker: [W; 8],
    defender: [W; 8],
}

impl<W: Word> Stones<W> {
    pub fn new(geo: &Geometry<W>, attacker: W, defender: W) -> Stones<W> {
        let mut s = Stones {
            attacker: [W::ZERO; 8],
            defender: [W::ZERO; 8],
        };
        for i in 0..geo.symmetry_count() {
            s.attacker[i] = image(geo, i, attacker);
            s.defender[i] = image(geo, i, defender);
        }
        s
    }

    #[inline(always)]
    fn with_attacker(&self, geo: &Geometry<W>, cell: usize) -> Stones<W> {
        let mut s = *self;
        for i in 0..geo.symmetry_count() {
            s.attacker[i] |= geo.map[i][cell];
        }
        s
    }

    #[inline(always)]
    fn with_defender(&self, geo: &Geometry<W>, cell: usize) -> Stones<W> {
        let mut s = *self;
        for i in 0..geo.symmetry_count() {
            s.defender[i] |= geo.map[i][cell];
        }
        s
    }

    /// The smallest image `(attacker, defender)` and its symmetry.
    #[inline(always)]
    fn canonical(&self, symmetries: usize) -> (W, W, usize) {
        let mut best = (self.attacker[0], self.defender[0], 0);
        for i in 1..symmetries {
            let key = (self.attacker[i], self.defender[i]);
            if key < (best.0, best.1) {
                best = (key.0, key.1, i);
            }
        }
        best
    }
}

/// The cells whose images under symmetry `s` are `cells`.
pub(super) fn preimage<W: Word>(geo: &Geometry<W>, s: usize, cells: W) -> W {
    let mut out = W::ZERO;
    let mut rest = cells;
    while !rest.is_empty() {
        out |= W::bit(geo.inverse[s][rest.first()] as usize);
        rest = rest.without_first();
    }
    out
}

/// One zone search: the geometry and table it works on, and when it stops.
pub(super) struct ZoneSearch<'a, W: Word> {
    geo: &'a Geometry<W>,
    table: &'a ZoneTable<W>,
    pub limits: Limits<'a>,
    /// Positions stored and not yet counted in the table's count.
    stores: usize,
    /// Scratch space of [`runs_hit`].
    scratch: Vec<W>,
    /// Whether other threads search the same tree with this table: a node near
    /// the root then marks itself busy while it searches, an attacker's node
    /// leaves its busy moves for last, and a node looks for its own outcome
    /// again before each move (another thread may have found it).
    shared: bool,
    /// Whether an extra stone never hurts the attacker (the freestyle rule).
    monotone: bool,
    /// Per side (0 the attacker, 1 the defender) and cell, how often a move
    /// there settled a node, weighted by the square of the empty cells left:
    /// ties of the line weights go to the larger.
    history: [W::PerCell<u64>; 2],
}

impl<'a, W: Word> ZoneSearch<'a, W> {
    pub fn new(
        geo: &'a Geometry<W>,
        table: &'a ZoneTable<W>,
        cancel: &'a AtomicBool,
    ) -> ZoneSearch<'a, W> {
        ZoneSearch {
            geo,
            table,
            limits: Limits::new(cancel),
            stores: 0,
            scratch: Vec::with_capacity(geo.lines.len()),
            shared: false,
            monotone: !geo.exact,
            history: [W::per_cell(0); 2],
        }
    }

    /// Makes this search one of several threads that search one tree with one
    /// table, stopping when `stop` is set.
    pub fn share(&mut self, stop: &'a AtomicBool) {
        self.shared = true;
        self.limits.stop = Some(stop);
    }

    /// The outcome for the attacker (stones `attacker`) against the defender:
    /// `None` it forces a line, `Some(zone)` the defender holds with that zone.
    pub fn outcome(&mut self, attacker: W, defender: W, attacker_to_move: bool) -> Outcome<W> {
        let stones = Stones::new(self.geo, attacker, defender);
        if attacker_to_move {
            self.attacker_node(&stones)
        } else {
            self.defender_node(&stones)
        }
    }

    /// What the table knows of a position: `None` nothing, `Some(None)` the
    /// attacker wins, `Some(Some(zone))` the defender holds with that zone.
    pub fn known(&self, attacker: W, defender: W, attacker_to_move: bool) -> Option<Outcome<W>> {
        let s = Stones::new(self.geo, attacker, defender);
        self.lookup(self.prefetch(&s, !attacker_to_move), !attacker_to_move)
    }

    /// The defender's moves among `candidates`, in the order its search tries
    /// them.
    pub fn defender_order(&self, attacker: W, defender: W, candidates: W) -> Vec<usize> {
        let empty = self.geo.board & !(attacker | defender);
        self.order(defender, attacker, empty, candidates, 1)
            .collect()
    }

    /// The canonical key of `s`, its table slot on its way into the cache (the
    /// slot's load, a miss in a large table, overlaps the node's first tests).
    #[inline(always)]
    fn prefetch(&self, s: &Stones<W>, defender_to_move: bool) -> (W, W, usize) {
        let (a, d, sym) = s.canonical(self.geo.symmetry_count());
        self.table.prefetch(a, d, defender_to_move);
        (a, d, sym)
    }

    /// What the table knows of the position of canonical `key`.
    #[inline(always)]
    fn lookup(&self, key: (W, W, usize), defender_to_move: bool) -> Option<Outcome<W>> {
        let (a, d, sym) = key;
        self.table
            .get(a, d, defender_to_move)
            .map(|k| k.map(|zone| preimage(self.geo, sym, zone)))
    }

    fn store(&mut self, key: (W, W, usize), defender_to_move: bool, outcome: Outcome<W>) {
        if self.limits.aborted {
            return;
        }
        let (a, d, sym) = key;
        let canonical = outcome.map(|zone| image(self.geo, sym, zone));
        self.table.put(a, d, defender_to_move, canonical);
        self.stores += 1;
        if self.stores == STORE_BATCH {
            self.table.count_stores(STORE_BATCH);
            self.stores = 0;
        }
    }

    /// The attacker to move.
    fn attacker_node(&mut self, s: &Stones<W>) -> Outcome<W> {
        if self.limits.count_node() {
            return Some(W::ZERO);
        }
        let g = self.geo;
        let key = self.prefetch(s, false);
        let (a, d) = (s.attacker[0], s.defender[0]);
        let empty = g.board & !(a | d);
        if !g.winning_cells(a, empty).is_empty() {
            return None;
        }
        if empty.is_empty() || g.open_cells(d).is_empty() {
            return Some(W::ZERO);
        }
        if let Some(outcome) = self.lookup(key, false) {
            return outcome;
        }
        let (ka, kd, sym) = key;
        let threats = g.winning_cells(d, empty);
        let outcome = if threats.count() >= 2 {
            // The defender makes a line after any move that makes none.
            Some(threats | runs_hit(g, d, empty, 2, &mut self.scratch))
        } else if !threats.is_empty() {
            // The only move that does not give the defender its line.
            let c = threats.first();
            self.attacker_moves(s, threats, W::ZERO, None, None)
                .map(|zone| zone | W::bit(c) | runs_hit(g, d, empty, 2, &mut self.scratch))
        } else if let Some(pairs) = defender_pair_cells(g, d, empty) {
            Some(pairs)
        } else {
            self.attacker_choices(s, empty, key)
        };
        self.store((ka, kd, sym), false, outcome);
        outcome
    }

    /// The attacker's moves of a quiet node (no line to make or block): the
    /// likeliest win first, so a win ends the node before the pass is
    /// searched; then the pass, and the moves in the zone of its proof (every
    /// move if the defender loses even so and the rule is not monotone).
    fn attacker_choices(&mut self, s: &Stones<W>, empty: W, key: (W, W, usize)) -> Outcome<W> {
        let g = self.geo;
        let (a, d) = (s.attacker[0], s.defender[0]);
        // The weights serve both orderings of this node (they read the stones
        // only; the history is read afresh).
        let weight = line_weights(g, a, d, empty);
        let first = MovePicker::new(empty, &weight, &self.history[0])
            .next()
            .expect("a quiet node has an empty cell");
        let first_child = s.with_attacker(g, first);
        // The pass: the same stones, with the defender to move. First, where
        // another thread is searching the first move.
        let mut pass = None;
        if self.shared && self.marks(empty) {
            let (ca, cd, _) = first_child.canonical(g.symmetry_count());
            if self.table.is_busy(ZoneTable::busy_key(ca, cd)) {
                let outcome = self.defender_node(s);
                if outcome.is_none() && self.monotone {
                    return None;
                }
                pass = Some(outcome);
            }
        }
        let Some(first_zone) = self.defender_node(&first_child) else {
            self.credit(0, first, empty);
            return None;
        };
        let rest = empty & !W::bit(first);
        let zone = first_zone | W::bit(first);
        match pass.unwrap_or_else(|| self.defender_node(s)) {
            Some(pass_zone) => self.attacker_moves(
                s,
                pass_zone & rest,
                zone | pass_zone,
                Some(&weight),
                Some(key),
            ),
            None if self.monotone => None,
            None => self.attacker_moves(s, rest, zone, Some(&weight), Some(key)),
        }
    }

    /// The attacker's moves among `candidates`, best first (by `weight`, the
    /// node's line weights, when the caller has them; with other threads, the
    /// moves they are searching last): the first win ends it; else the defender
    /// holds with `zone` and every move's zone. `node`: the node's key where this is the node's
    /// outcome (then another thread's outcome for it ends the loop).
    fn attacker_moves(
        &mut self,
        s: &Stones<W>,
        candidates: W,
        mut zone: W,
        weight: Option<&W::PerCell<u32>>,
        node: Option<(W, W, usize)>,
    ) -> Outcome<W> {
        let g = self.geo;
        let (a, d) = (s.attacker[0], s.defender[0]);
        let empty = g.board & !(a | d);
        let count = candidates.count() as usize;
        let mut moves = match weight {
            // One move needs no order.
            _ if count <= 1 => MovePicker::new(candidates, &W::per_cell(0), &self.history[0]),
            Some(weight) => MovePicker::new(candidates, weight, &self.history[0]),
            None => self.order(a, d, empty, candidates, 0),
        };
        // Moves whose subtree another thread is searching now, for last.
        let defer = self.shared && self.marks(empty);
        let mut deferred = W::per_cell(0u8);
        let mut deferred_count = 0;
        let mut next = 0;
        while next < count + deferred_count {
            let i = next;
            next += 1;
            let cell = if i < count {
                moves.next().expect("one move per candidate")
            } else {
                deferred[i - count] as usize
            };
            if self.shared && i > 0 {
                if let Some(known) = node.and_then(|key| self.lookup(key, false)) {
                    return known;
                }
            }
            let child = s.with_attacker(g, cell);
            if defer && i < count && i + 1 < count + deferred_count {
                let (ca, cd, _) = child.canonical(g.symmetry_count());
                if self.table.is_busy(ZoneTable::busy_key(ca, cd)) {
                    deferred[deferred_count] = cell as u8;
                    deferred_count += 1;
                    continue;
                }
            }
            match self.defender_node(&child) {
                None => {
                    self.credit(0, cell, empty);
                    return None;
                }
                Some(z) => zone |= z | W::bit(cell),
            }
            if self.limits.aborted {
                break;
            }
        }
        Some(zone)
    }

    /// Whether a node with `empty` cells marks itself busy while a thread
    /// searches it (a third of the board or more: 7,7,5 took the same time
    /// with a half or a sixth, and varied more from run to run with a half).
    #[inline(always)]
    fn marks(&self, empty: W) -> bool {
        empty.count() as i32 * 3 >= self.geo.cells
    }

    /// The defender to move: its line, the block of the attacker's four, a
    /// pairing now or after a move of its own, else its moves best first.
    fn defender_node(&mut self, s: &Stones<W>) -> Outcome<W> {
        if self.limits.count_node() {
            return Some(W::ZERO);
        }
        let g = self.geo;
        let key = self.prefetch(s, true);
        let (a, d) = (s.attacker[0], s.defender[0]);
        let empty = g.board & !(a | d);
        let lines = g.winning_cells(d, empty);
        if !lines.is_empty() {
            // The defender's line ends the game.
            let c = lines.first_bit();
            return Some(c | runs_hit(g, d | c, empty & !c, 1, &mut self.scratch));
        }
        if empty.is_empty() {
            return Some(W::ZERO);
        }
        let threats = g.winning_cells(a, empty);
        if threats.count() >= 2 {
            return None;
        }
        let open = g.open_cells(d);
        if open.is_empty() {
            return Some(W::ZERO);
        }
        if let Some(outcome) = self.lookup(key, true) {
            return outcome;
        }
        let (ka, kd, sym) = key;
        let busy = (self.shared && self.marks(empty))
            .then(|| ZoneTable::busy_key(ka, kd))
            .filter(|&k| self.table.enter(k));
        let outcome = if !threats.is_empty() {
            let c = threats.first();
            self.attacker_node(&s.with_defender(g, c))
                .map(|zone| zone | threats)
        } else if let Some((_, zone)) = pairing_reply(g, d, empty) {
            Some(zone)
        } else {
            // Cells on no run open to either side are one move (a pass): one
            // of them is tried, last.
            let live = empty & (open | g.open_cells(a));
            let mut candidates = live;
            let dead = empty & !live;
            if !dead.is_empty() {
                candidates |= dead.first_bit();
            }
            let mut outcome = None;
            for (i, cell) in self.order(d, a, empty, candidates, 1).enumerate() {
                if self.shared && i > 0 {
                    if let Some(known) = self.lookup(key, true) {
                        outcome = known;
                        break;
                    }
                }
                if let Some(zone) = self.attacker_node(&s.with_defender(g, cell)) {
                    self.credit(1, cell, empty);
                    outcome = Some(zone | W::bit(cell));
                    break;
                }
                if self.limits.aborted {
                    break;
                }
            }
            outcome
        };
        if let Some(k) = busy {
            self.table.leave(k);
        }
        self.store((ka, kd, sym), true, outcome);
        outcome
    }

    fn credit(&mut self, side: usize, cell: usize, empty: W) {
        let left = empty.count() as u64;
        let h = &mut self.history[side][cell];
        *h = h.saturating_add(left * left);
    }

    /// `candidates`, best first for the side with `mine` against `theirs`
    /// (history side `side`).
    fn order(&self, mine: W, theirs: W, empty: W, candidates: W, side: usize) -> MovePicker<W> {
        let weight = line_weights(self.geo, mine, theirs, empty & candidates);
        MovePicker::new(candidates, &weight, &self.history[side])
    }
}

/// For every run of `k` cells free of `defender`'s stones, `per_run` of its
/// `empty` cells (all of them if it has fewer), shared where runs overlap:
/// each run takes the cells on the most open runs (ties to the lowest), so the
/// zones that hold these cells stay small (7,7,5: 62.9M nodes, against 79.3M
/// for the first cells of each run). `open` is scratch space.
pub(super) fn runs_hit<W: Word>(
    geo: &Geometry<W>,
    defender: W,
    empty: W,
    per_run: u32,
    open: &mut Vec<W>,
) -> W {
    // The open runs' empty cells.
    open.clear();
    for &line in &geo.lines {
        let free = line & empty;
        if (line & defender).is_empty() && !free.is_empty() {
            open.push(free);
        }
    }
    // How many open runs each cell is on, then each run in turn takes its
    // cells of the most runs until it has `per_run`.
    let mut degree = W::per_cell(0u8);
    for &free in open.iter() {
        let mut rest = free;
        while !rest.is_empty() {
            degree[rest.first()] += 1;
            rest = rest.without_first();
        }
    }
    let mut zone = W::ZERO;
    for &free in open.iter() {
        while !at_least(free & zone, per_run) {
            let mut rest = free & !zone;
            if rest.is_empty() {
                break;
            }
            let (mut best, mut most) = (rest.first(), 0);
            while !rest.is_empty() {
                let cell = rest.first();
                if degree[cell] > most {
                    (best, most) = (cell, degree[cell]);
                }
                rest = rest.without_first();
            }
            zone |= W::bit(best);
        }
    }
    zone
}

/// Whether `cells` holds at least `n` cells (without a count for one or two:
/// the portable build has no popcount instruction).
#[inline(always)]
fn at_least<W: Word>(cells: W, n: u32) -> bool {
    match n {
        0 => true,
        1 => !cells.is_empty(),
        2 => !cells.without_first().is_empty(),
        _ => cells.count() >= n,
    }
}

/// Nodes a zone search runs on one thread before it shares the rest of the
/// tree among threads: small searches never pay for starting them.
pub(super) const SOLO_NODES: u64 = 1 << 16;

/// The outcome for the attacker (stones `attacker`) against the defender (the
/// attacker to move if `attacker_to_move`; no line on the board), by one
/// search for its first `solo_nodes` nodes, then by `threads` searches of the
/// same tree sharing `table` (ABDADA: a thread leaves for last the moves
/// another is searching, and what one proves the others find in the table);
/// the first to finish answers. `None` if the search stopped first (`cancel`,
/// or `budget` nodes in all); also the nodes of all threads.
#[allow(clippy::too_many_arguments)]
pub(super) fn outcome_shared<W: Word>(
    geo: &Geometry<W>,
    table: &ZoneTable<W>,
    cancel: &AtomicBool,
    budget: u64,
    threads: usize,
    solo_nodes: u64,
    attacker: W,
    defender: W,
    attacker_to_move: bool,
) -> (Option<Outcome<W>>, u64) {
    let mut solo = ZoneSearch::new(geo, table, cancel);
    solo.limits.budget = if threads > 1 {
        budget.min(solo_nodes)
    } else {
        budget
    };
    let outcome = solo.outcome(attacker, defender, attacker_to_move);
    let nodes = solo.limits.nodes;
    if !solo.limits.aborted {
        return (Some(outcome), nodes);
    }
    if threads <= 1 || nodes >= budget || cancel.load(Ordering::Relaxed) {
        return (None, nodes);
    }
    let history = solo.history;
    let each = ((budget - nodes) / threads as u64).max(1);
    let stop = AtomicBool::new(false);
    let answer = OnceLock::new();
    let counted = AtomicU64::new(nodes);
    let run = || {
        let mut search = ZoneSearch::new(geo, table, cancel);
        search.share(&stop);
        search.history = history;
        search.limits.budget = each;
        let outcome = search.outcome(attacker, defender, attacker_to_move);
        if !search.limits.aborted {
            let _ = answer.set(outcome);
            stop.store(true, Ordering::Relaxed);
        }
        counted.fetch_add(search.limits.nodes, Ordering::Relaxed);
    };
    std::thread::scope(|scope| {
        for _ in 1..threads {
            scope.spawn(run);
        }
        run();
    });
    (answer.into_inner(), counted.into_inner())
}
