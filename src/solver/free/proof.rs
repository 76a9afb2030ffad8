//! Writing a proof of a position's outcome (the format of `crate::proof`): per
//! claim, the claimant's move at each position the claim reaches with the
//! claimant to move, chosen by the solver's scores, or a pairing certificate
//! where the pairing search finds one; every reply of the other player is
//! followed, so the proof covers what a checker will try. No-loss claims under
//! the freestyle rule are written with zone certificates (`zone_proof.rs`).

use std::collections::HashSet;
use std::io::Write;
use std::sync::atomic::AtomicBool;

use super::super::error::SolveError;
use super::geometry::{fits_one_word, Geometry};
use super::pairing::defender_pairing;
use super::position::{exact, FreePosition};
use super::search::canonical;
use super::solver::{centre_first, FreeSolver};
use super::word::Word;
use super::zone::ZoneSearch;
use super::zone_proof::ZoneProofWriter;
use super::zone_table::ZoneTable;

/// What [`FreeSolver::write_proof`] wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProofSummary {
    /// The first player's outcome: 1 win, 0 draw, -1 loss.
    pub outcome: i32,
    /// Records written (moves and pairings), all claims together.
    pub records: u64,
    /// Of them, pairing certificates.
    pub pairings: u64,
    /// Of them, passes of the other player (zone certificates).
    pub passes: u64,
}

/// A claim's player and whether it is a win (else no loss).
#[derive(Clone, Copy)]
struct Claim {
    /// 0 x (the first player), 1 o.
    player: usize,
    win: bool,
}

impl FreeSolver {
    /// Solves `pos` and writes a proof of its outcome to `out` in the format of
    /// `crate::proof` (checked there by `inarow::proof::check`, which shares no
    /// code with this solver): a win claim for the winner, or a no-loss claim
    /// for each player of a draw. The proof covers every reply, so it can hold
    /// more positions than the search visited. Where the zone search settles
    /// outcomes (the freestyle rule, [`FreeSolver::set_zone_search`] on), a
    /// no-loss claim carries zone certificates: at each position with the other
    /// player to move, a pass, and only that player's moves inside the pass's
    /// zone (7,6,5: 0.77M records, written in 2.5 s; without zones the writer
    /// had not finished after 15 minutes). [`SolveError::Interrupted`] once
    /// `cancel` is raised; past the node limit ([`FreeSolver::set_node_limit`], for
    /// the proof's searches together) [`SolveError::NodeLimit`]; an output error is
    /// [`SolveError::Unsupported`] naming it. [`FreeSolver::nodes`] counts the
    /// nodes of all its searches.
    pub fn write_proof(
        &mut self,
        pos: &FreePosition,
        out: &mut dyn Write,
        cancel: &AtomicBool,
    ) -> Result<ProofSummary, SolveError> {
        if fits_one_word(pos.cells()) {
            self.write_proof_in::<u64>(pos, out, cancel)
        } else {
            self.write_proof_in::<u128>(pos, out, cancel)
        }
    }

    /// [`FreeSolver::write_proof`] with the stone sets in the word `W`.
    fn write_proof_in<W: Word>(
        &mut self,
        pos: &FreePosition,
        out: &mut dyn Write,
        cancel: &AtomicBool,
    ) -> Result<ProofSummary, SolveError> {
        let limit = self.node_limit();
        let value = self.solve(pos, true, cancel)?;
        let spent = self.nodes();
        let x_to_move = pos.moves.is_multiple_of(2);
        let outcome = if x_to_move { value } else { -value };
        let rule = pos.rule.name();
        // No-loss claims carry zone certificates where the zone search
        // settles outcomes (the freestyle rule).
        let zoned = self.zone_search_on() && !exact(pos.rule);
        let (x, o) = pos.x_and_o::<W>();
        let cells = cells_text(pos.cells(), x, o);
        let mut writer = ProofWriter {
            solver: self,
            geometry: Geometry::<W>::new(pos.width, pos.height, pos.k, exact(pos.rule))?,
            out,
            order: centre_first(pos.width, pos.height),
            claim: Claim {
                player: 0,
                win: false,
            },
            written: HashSet::new(),
            records: 0,
            pairings: 0,
            passes: 0,
            cancel,
            limit,
            spent,
        };
        writer.line(format_args!(
            "inarow-proof 2\nboard {} {} {} {rule}\nroot {cells}",
            pos.width, pos.height, pos.k
        ))?;
        let claims: Vec<Claim> = match outcome {
            1 => vec![Claim {
                player: 0,
                win: true,
            }],
            -1 => vec![Claim {
                player: 1,
                win: true,
            }],
            _ => (0..2).map(|player| Claim { player, win: false }).collect(),
        };
        for claim in claims {
            writer.claim = claim;
            writer.written.clear();
            let kind = if claim.win { "win" } else { "no-loss" };
            writer.line(format_args!("claim {} {kind}", ["x", "o"][claim.player]))?;
            if pos.is_over() {
            } else if !claim.win && zoned {
                writer.zone_claim(pos, claim.player == 0)?;
            } else {
                writer.node(pos)?;
            }
        }
        writer.line(format_args!("end"))?;
        let (records, pairings, passes, spent) =
            (writer.records, writer.pairings, writer.passes, writer.spent);
        self.set_node_limit(limit);
        self.set_nodes(spent);
        Ok(ProofSummary {
            outcome,
            records,
            pairings,
            passes,
        })
    }
}

/// A pairing record's cells, ` A B C D ...`, each cell written as `key` maps it
/// (to the record's canonical image).
pub(super) fn pair_cells(pairs: &[(u8, u8)], key: impl Fn(usize) -> usize) -> String {
    pairs
        .iter()
        .map(|&(a, b)| format!(" {} {}", key(a as usize), key(b as usize)))
        .collect()
}

/// One proof being written.
struct ProofWriter<'a, W: Word> {
    solver: &'a mut FreeSolver,
    geometry: Geometry<W>,
    out: &'a mut dyn Write,
    /// Cells nearest the centre first: the order moves are tried in.
    order: Vec<usize>,
    claim: Claim,
    /// Positions (x's stones, o's stones) of this claim already covered.
    written: HashSet<(W, W)>,
    records: u64,
    pairings: u64,
    passes: u64,
    cancel: &'a AtomicBool,
    /// The solver's node limit for the whole proof, and the nodes its searches
    /// have spent so far.
    limit: Option<u64>,
    spent: u64,
}

impl<W: Word> ProofWriter<'_, W> {
    /// [`FreeSolver::solve`] within what is left of the proof's node limit.
    fn solve(&mut self, pos: &FreePosition, weak: bool) -> Result<i32, SolveError> {
        let left = self.limit.map(|l| l.saturating_sub(self.spent));
        if left == Some(0) {
            return Err(SolveError::NodeLimit);
        }
        self.solver.set_node_limit(left);
        let value = self.solver.solve(pos, weak, self.cancel);
        self.spent += self.solver.nodes();
        self.solver.set_node_limit(self.limit);
        value
    }

    fn line(&mut self, args: std::fmt::Arguments) -> Result<(), SolveError> {
        writeln!(self.out, "{args}")
            .map_err(|e| SolveError::Unsupported(format!("writing the proof: {e}")))
    }

    /// Covers the position `pos` (not over) for the claim.
    fn node(&mut self, pos: &FreePosition) -> Result<(), SolveError> {
        let x_to_move = pos.moves.is_multiple_of(2);
        let (current, mask) = pos.stones::<W>();
        let (mine, theirs) = (current, current ^ mask);
        let (x, o) = pos.x_and_o::<W>();
        let ((x, o), s) = canonical(&self.geometry, x, o);
        if !self.written.insert((x, o)) {
            return Ok(());
        }
        let mover = if x_to_move { 'x' } else { 'o' };
        let to_key = |cell: usize| self.geometry.map[s][cell].first();
        let claimant_to_move = x_to_move == (self.claim.player == 0);
        let claimant = if claimant_to_move { mine } else { theirs };
        let empty = self.geometry.board & !mask;
        if !self.claim.win {
            if let Some(pairs) = defender_pairing(&self.geometry, claimant, empty) {
                let cells = pair_cells(&pairs, to_key);
                self.line(format_args!("{x:x} {o:x} {mover} p{cells}"))?;
                self.records += 1;
                self.pairings += 1;
                return Ok(());
            }
        }
        if claimant_to_move {
            let cell = self.claimant_move(pos)?;
            let recorded = self.geometry.map[s][cell].first();
            self.line(format_args!("{x:x} {o:x} {mover} m {recorded}"))?;
            self.records += 1;
            return self.follow(pos, cell);
        }
        let mut replies = empty;
        while !replies.is_empty() {
            let cell = replies.first();
            replies = replies.without_first();
            self.follow(pos, cell)?;
        }
        Ok(())
    }

    /// Covers the `no-loss` claim of x (`claimant_is_x`) or o at `pos` (not
    /// over) with zone certificates, by a zone search of its own table.
    fn zone_claim(&mut self, pos: &FreePosition, claimant_is_x: bool) -> Result<(), SolveError> {
        let table = ZoneTable::<W>::new(self.solver.tt_bytes())?;
        let x_to_move = pos.moves.is_multiple_of(2);
        let (x, o) = pos.x_and_o::<W>();
        let (attacker, defender) = if claimant_is_x { (o, x) } else { (x, o) };
        let mut search = ZoneSearch::new(&self.geometry, &table, self.cancel);
        search.limits.budget = self
            .limit
            .map_or(u64::MAX, |l| l.saturating_sub(self.spent));
        let mut writer = ZoneProofWriter::new(
            &self.geometry,
            search,
            &mut *self.out,
            claimant_is_x,
            self.cancel,
        );
        let written = writer.node(attacker, defender, x_to_move == claimant_is_x);
        self.spent += writer.search.limits.nodes;
        self.records += writer.records;
        self.pairings += writer.pairings;
        self.passes += writer.passes;
        written.map(|_| ())
    }

    fn follow(&mut self, pos: &FreePosition, cell: usize) -> Result<(), SolveError> {
        let mut child = *pos;
        child.play_unchecked(&self.geometry, cell);
        if child.is_over() {
            return Ok(());
        }
        self.node(&child)
    }

    /// A move of the claimant that keeps the claim: for a win the soonest win
    /// (the best exact score), else any move that does not lose, nearest the
    /// centre. An error if none does (the claim was wrong: a solver fault).
    fn claimant_move(&mut self, pos: &FreePosition) -> Result<usize, SolveError> {
        let (current, mask) = pos.stones::<W>();
        let empty = self.geometry.board & !mask;
        let wins = self.geometry.winning_cells(current, empty);
        if !wins.is_empty() {
            return Ok(wins.first());
        }
        let target = if self.claim.win {
            Some(self.solve(pos, false)?)
        } else {
            None
        };
        for i in 0..self.order.len() {
            let cell = self.order[i];
            if !pos.can_play(cell) {
                continue;
            }
            let mut child = *pos;
            child.play_unchecked(&self.geometry, cell);
            let keeps = match target {
                Some(best) => -self.solve(&child, false)? == best && best > 0,
                None => child.is_over() || self.solve(&child, true)? <= 0,
            };
            if keeps {
                return Ok(cell);
            }
        }
        Err(SolveError::InvalidPosition(format!(
            "no move keeps the claim at {:?}: the solver's value was wrong",
            pos.to_cells()
        )))
    }
}

/// A proof's `root` line: the cells row-major, row 0 the top row; `x` for the
/// first player's stones, `o` for the second's, `.` for an empty cell.
pub(super) fn cells_text<W: Word>(cells: usize, x: W, o: W) -> String {
    (0..cells)
        .map(|c| {
            let bit = W::bit(c);
            if !(x & bit).is_empty() {
                'x'
            } else if !(o & bit).is_empty() {
                'o'
            } else {
                '.'
            }
        })
        .collect()
}
