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
//!   the pairs' cells;
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

use std::sync::atomic::AtomicBool;

use super::geometry::Geometry;
use super::limits::Limits;
use super::pairing::defender_pair_cells;
use super::search::{image, line_weights, MovePicker};
use super::word::Word;
use super::zone_table::ZoneTable;

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
    table: &'a mut ZoneTable<W>,
    pub limits: Limits<'a>,
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
        table: &'a mut ZoneTable<W>,
        cancel: &'a AtomicBool,
    ) -> ZoneSearch<'a, W> {
        ZoneSearch {
            geo,
            table,
            limits: Limits::new(cancel),
            monotone: !geo.exact,
            history: [W::per_cell(0); 2],
        }
    }

    /// Whether the attacker (stones `attacker`) forces a line against the
    /// defender (`defender`), the attacker to move if `attacker_to_move`; the
    /// position holds no line. Meaningless once aborted.
    pub fn attacker_wins(&mut self, attacker: W, defender: W, attacker_to_move: bool) -> bool {
        self.outcome(attacker, defender, attacker_to_move).is_none()
    }

    /// The outcome for the attacker (stones `attacker`) against the defender:
    /// `None` it forces a line, `Some(zone)` the defender holds with that zone.
    pub fn outcome(&mut self, attacker: W, defender: W, attacker_to_move: bool) -> Outcome<W> {
        let stones = Stones::new(self.geo, attacker, defender);
        if attacker_to_move {
            self.attacker_node(&stones)
        } else {
            self.defender_node(&stones, true)
        }
    }

    /// What the table knows of a position: `None` nothing, `Some(None)` the
    /// attacker wins, `Some(Some(zone))` the defender holds with that zone.
    pub fn known(&self, attacker: W, defender: W, attacker_to_move: bool) -> Option<Outcome<W>> {
        self.probe(
            &Stones::new(self.geo, attacker, defender),
            !attacker_to_move,
        )
        .0
    }

    /// The defender's moves among `candidates`, in the order its search tries
    /// them.
    pub fn defender_order(&self, attacker: W, defender: W, candidates: W) -> Vec<usize> {
        let empty = self.geo.board & !(attacker | defender);
        self.order(defender, attacker, empty, candidates, 1)
            .collect()
    }

    fn probe(&self, s: &Stones<W>, defender_to_move: bool) -> (Option<Outcome<W>>, W, W, usize) {
        let key = self.prefetch(s, defender_to_move);
        (self.lookup(key, defender_to_move), key.0, key.1, key.2)
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
            Some(threats | runs_hit(g, d, empty, 2))
        } else if !threats.is_empty() {
            // The only move that does not give the defender its line.
            let c = threats.first();
            self.attacker_moves(s, threats, W::ZERO, None)
                .map(|zone| zone | W::bit(c) | runs_hit(g, d, empty, 2))
        } else if let Some(pairs) = defender_pair_cells(g, d, empty) {
            Some(pairs)
        } else {
            self.attacker_choices(s, empty)
        };
        self.store((ka, kd, sym), false, outcome);
        outcome
    }

    /// The attacker's moves of a quiet node (no line to make or block): the
    /// likeliest win first, so a win ends the node before the pass is
    /// searched; then the pass, and the moves in the zone of its proof (every
    /// move if the defender loses even so and the rule is not monotone).
    fn attacker_choices(&mut self, s: &Stones<W>, empty: W) -> Outcome<W> {
        let g = self.geo;
        let (a, d) = (s.attacker[0], s.defender[0]);
        // The weights serve both orderings of this node (they read the stones
        // only; the history is read afresh).
        let weight = line_weights(g, a, d, empty);
        let first = MovePicker::new(empty, &weight, &self.history[0])
            .next()
            .expect("a quiet node has an empty cell");
        let Some(first_zone) = self.defender_node(&s.with_attacker(g, first), true) else {
            self.credit(0, first, empty);
            return None;
        };
        let rest = empty & !W::bit(first);
        let zone = first_zone | W::bit(first);
        // The pass: the same stones, whose pairing search just failed.
        match self.defender_node(s, false) {
            Some(pass_zone) => {
                self.attacker_moves(s, pass_zone & rest, zone | pass_zone, Some(&weight))
            }
            None if self.monotone => None,
            None => self.attacker_moves(s, rest, zone, Some(&weight)),
        }
    }

    /// The attacker's moves among `candidates`, best first (by `weight`, the
    /// node's line weights, when the caller has them): the first win ends it;
    /// else the defender holds with `zone` and every move's zone.
    fn attacker_moves(
        &mut self,
        s: &Stones<W>,
        candidates: W,
        mut zone: W,
        weight: Option<&W::PerCell<u32>>,
    ) -> Outcome<W> {
        let g = self.geo;
        let (a, d) = (s.attacker[0], s.defender[0]);
        let empty = g.board & !(a | d);
        let moves = match weight {
            // One move needs no order.
            _ if candidates.count() <= 1 => {
                MovePicker::new(candidates, &W::per_cell(0), &self.history[0])
            }
            Some(weight) => MovePicker::new(candidates, weight, &self.history[0]),
            None => self.order(a, d, empty, candidates, 0),
        };
        for cell in moves {
            match self.defender_node(&s.with_attacker(g, cell), true) {
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

    /// The defender to move; `pairing`: whether to look for a pairing (not
    /// where the same stones were just looked at).
    fn defender_node(&mut self, s: &Stones<W>, pairing: bool) -> Outcome<W> {
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
            return Some(c | runs_hit(g, d | c, empty & !c, 1));
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
        let outcome = if !threats.is_empty() {
            let c = threats.first();
            self.attacker_node(&s.with_defender(g, c))
                .map(|zone| zone | threats)
        } else if let Some(pairs) = pairing.then(|| defender_pair_cells(g, d, empty)).flatten() {
            Some(pairs)
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
            for cell in self.order(d, a, empty, candidates, 1) {
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
/// `empty` cells (all of them if it has fewer), shared where runs overlap.
pub(super) fn runs_hit<W: Word>(geo: &Geometry<W>, defender: W, empty: W, per_run: u32) -> W {
    let mut zone = W::ZERO;
    for &line in &geo.lines {
        if !(line & defender).is_empty() {
            continue;
        }
        let free = line & empty;
        let mut need = per_run
            .min(free.count())
            .saturating_sub((free & zone).count());
        let mut rest = free & !zone;
        while need > 0 {
            zone |= rest.first_bit();
            rest = rest.without_first();
            need -= 1;
        }
    }
    zone
}
