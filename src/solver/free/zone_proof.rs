//! Writing a `no-loss` claim with zone certificates (format 2 of
//! `crate::proof`): at each position where the other player (the attacker) is
//! to move, a pass record, the claimant's proof after that pass, and proofs
//! after only the attacker's moves inside the pass's zone. The claimant's moves
//! come from the zone search. Zones are computed here from the records written,
//! by the rules the checker applies (`crate::proof`'s `Replay::node`), so the
//! proof holds exactly the positions the checker asks for.

use std::collections::HashMap;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

use super::super::error::SolveError;
use super::geometry::Geometry;
use super::pairing::{defender_pairing, matched_pairing, pairing_reply};
use super::proof::pair_cells;
use super::search::{canonical, image};
use super::word::Word;
use super::zone::{preimage, runs_hit, ZoneSearch};

/// Where positions of a bundle's parts go (`bundle.rs`).
pub(super) trait PartSink<W: Word> {
    /// The zone of the claim of x (`claimant_is_x`) or o at the position (the
    /// attacker's stones `a`, the claimant's `d`), proven in a part of its own,
    /// or `None` where the position is not one of the parts.
    fn part(
        &mut self,
        a: W,
        d: W,
        defender_to_move: bool,
        claimant_is_x: bool,
    ) -> Result<Option<W>, SolveError>;
}

/// One `no-loss` claim being written.
pub(super) struct ZoneProofWriter<'a, 'b, W: Word> {
    pub geo: &'a Geometry<W>,
    pub search: ZoneSearch<'a, W>,
    pub out: &'b mut dyn Write,
    /// The claimant is x (the first player), else o.
    pub claimant_is_x: bool,
    cancel: &'a AtomicBool,
    /// Canonical positions written (x's stones, o's stones, x to move), each
    /// with its zone as cells of that canonical image.
    written: HashMap<(W, W, bool), W>,
    pub records: u64,
    pub pairings: u64,
    pub passes: u64,
    /// Positions proven in parts of their own, if any.
    pub parts: Option<&'b mut dyn PartSink<W>>,
}

impl<'a, 'b, W: Word> ZoneProofWriter<'a, 'b, W> {
    pub fn new(
        geo: &'a Geometry<W>,
        search: ZoneSearch<'a, W>,
        out: &'b mut dyn Write,
        claimant_is_x: bool,
        cancel: &'a AtomicBool,
    ) -> Self {
        ZoneProofWriter {
            geo,
            search,
            out,
            claimant_is_x,
            cancel,
            written: HashMap::new(),
            records: 0,
            pairings: 0,
            passes: 0,
            parts: None,
        }
    }

    fn line(&mut self, args: std::fmt::Arguments) -> Result<(), SolveError> {
        writeln!(self.out, "{args}")
            .map_err(|e| SolveError::Unsupported(format!("writing the proof: {e}")))
    }

    /// Stops on the search's abort: the stop flag or the node budget.
    fn aborted(&self) -> Result<(), SolveError> {
        match (
            self.search.limits.aborted,
            self.cancel.load(Ordering::Relaxed),
        ) {
            (false, _) => Ok(()),
            (true, true) => Err(SolveError::Interrupted),
            (true, false) => Err(SolveError::NodeLimit),
        }
    }

    /// Covers the position (the attacker's stones `a`, the claimant's `d`; no
    /// line, not full) for the claim; returns its zone.
    pub fn node(&mut self, a: W, d: W, defender_to_move: bool) -> Result<W, SolveError> {
        let g = self.geo;
        let (x, o) = if self.claimant_is_x { (d, a) } else { (a, d) };
        let x_to_move = defender_to_move == self.claimant_is_x;
        let ((kx, ko), s) = canonical(g, x, o);
        if let Some(&zone) = self.written.get(&(kx, ko, x_to_move)) {
            return Ok(preimage(g, s, zone));
        }
        let mover = if x_to_move { 'x' } else { 'o' };
        let key = |c: usize| g.map[s][c].first();
        let empty = g.board & !(a | d);
        let zone = if g.open_cells(d).is_empty() {
            W::ZERO
        } else if let Some(pairs) = if defender_to_move {
            // As the zone search: the exact search looked at these stones with
            // the attacker to move (a pass) or at a move the defender's pairing
            // reply is tried for next.
            matched_pairing(g, d, empty)
        } else {
            defender_pairing(g, d, empty)
        } {
            let cells = pair_cells(&pairs, key);
            self.line(format_args!("{kx:x} {ko:x} {mover} p{cells}"))?;
            self.records += 1;
            self.pairings += 1;
            pairs.iter().fold(W::ZERO, |z, &(p, q)| {
                z | W::bit(p as usize) | W::bit(q as usize)
            })
        } else if let Some(zone) = self.part(a, d, defender_to_move)? {
            zone
        } else if defender_to_move {
            let cell = self.defender_move(a, d, empty)?;
            let bit = W::bit(cell);
            if !g.winning_cells(d, empty & bit).is_empty() {
                let hits = runs_hit(g, d | bit, empty & !bit, 1, &mut Vec::new());
                let mut text = String::new();
                let mut rest = hits;
                while !rest.is_empty() {
                    text.push_str(&format!(" {}", key(rest.first())));
                    rest = rest.without_first();
                }
                self.line(format_args!(
                    "{kx:x} {ko:x} {mover} m {} h{text}",
                    key(cell)
                ))?;
                self.records += 1;
                bit | hits
            } else {
                self.line(format_args!("{kx:x} {ko:x} {mover} m {}", key(cell)))?;
                self.records += 1;
                if (empty & !bit).is_empty() {
                    bit
                } else {
                    bit | self.node(a, d | bit, false)?
                }
            }
        } else {
            if !g.winning_cells(a, empty).is_empty() {
                return Err(SolveError::InvalidPosition(
                    "the attacker makes a line: the zone search's value was wrong".into(),
                ));
            }
            self.line(format_args!("{kx:x} {ko:x} {mover} z"))?;
            self.records += 1;
            self.passes += 1;
            let passed = self.node(a, d, true)?;
            let mut zone = passed;
            let mut rest = passed;
            while !rest.is_empty() {
                let cell = rest.first();
                rest = rest.without_first();
                if !(empty & !W::bit(cell)).is_empty() {
                    zone |= self.node(a | W::bit(cell), d, true)?;
                }
            }
            zone
        };
        // Closed under the position's own symmetries, as the checker does.
        let canonical = (0..g.symmetry_count())
            .filter(|&t| (image(g, t, x), image(g, t, o)) == (kx, ko))
            .fold(W::ZERO, |z, t| z | image(g, t, zone));
        self.written.insert((kx, ko, x_to_move), canonical);
        Ok(preimage(g, s, canonical))
    }

    /// The position's zone from a part of its own, if it is one.
    fn part(&mut self, a: W, d: W, defender_to_move: bool) -> Result<Option<W>, SolveError> {
        let claimant_is_x = self.claimant_is_x;
        match self.parts.as_deref_mut() {
            Some(parts) => parts.part(a, d, defender_to_move, claimant_is_x),
            None => Ok(None),
        }
    }

    /// A move of the claimant that keeps it from losing: its line if it has
    /// one; the block of the attacker's four; else a move after which a
    /// pairing holds; else, of the moves the table
    /// already knows to hold, the one with the smallest zone, or the first
    /// the zone search proves to hold.
    fn defender_move(&mut self, a: W, d: W, empty: W) -> Result<usize, SolveError> {
        let g = self.geo;
        let wins = g.winning_cells(d, empty);
        if !wins.is_empty() {
            return Ok(wins.first());
        }
        let threats = g.winning_cells(a, empty);
        // As the search: a move after which a pairing holds, first.
        if let Some((Some(cell), _)) = pairing_reply(g, d, empty) {
            return Ok(cell);
        }
        let candidates = if threats.is_empty() { empty } else { threats };
        let mut best: Option<(u32, usize)> = None;
        let mut rest = candidates;
        while !rest.is_empty() {
            let cell = rest.first();
            rest = rest.without_first();
            if let Some(Some(zone)) = self.search.known(a, d | W::bit(cell), true) {
                let size = zone.count();
                if best.is_none_or(|(s, _)| size < s) {
                    best = Some((size, cell));
                }
            }
        }
        if let Some((_, cell)) = best {
            return Ok(cell);
        }
        for cell in self.search.defender_order(a, d, candidates) {
            let holds = self.search.outcome(a, d | W::bit(cell), true).is_some();
            self.aborted()?;
            if holds {
                return Ok(cell);
            }
        }
        Err(SolveError::InvalidPosition(
            "no move of the claimant holds: the zone search's value was wrong".into(),
        ))
    }
}
