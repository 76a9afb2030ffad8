//! The state every threat search shares: the board, a table of positions already
//! shown to hold no win, the node count and when to stop.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::board::ThreatBoard;

/// The kinds of forced win the threat searches prove.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThreatKind {
    /// Victory by continuous fours: every attacker move makes a four (a window of
    /// `k - 1` with its last cell empty), so every reply is forced.
    Vcf,
    /// Victory by continuous threats: every attacker move is a four or a *three*
    /// (a move that makes a window of `k - 2` after which the attacker, moving
    /// again, would win by VCF); the defender's replies that could matter are all tried.
    Vct,
}

/// When a search stops: a node budget, a deadline, a cancel flag.
pub struct Stop<'a> {
    pub max_nodes: u64,
    pub deadline: Option<Instant>,
    pub cancel: &'a AtomicBool,
}

/// The cancel flag and the clock are read every this many nodes.
const POLL_NODES: u64 = 1 << 10;

impl Stop<'_> {
    /// Whether a search that has counted `nodes` nodes must stop: past the budget,
    /// or (read every 1,024 nodes) past the deadline or cancelled.
    #[inline]
    pub fn reached(&self, nodes: u64) -> bool {
        nodes > self.max_nodes
            || (nodes.is_multiple_of(POLL_NODES)
                && (self.deadline.is_some_and(|d| Instant::now() >= d)
                    || self.cancel.load(Ordering::Relaxed)))
    }

    /// Counts a node of a search that has counted `nodes` and is `stopped` or not;
    /// whether it must stop (it then stays stopped).
    #[inline]
    pub fn count(&self, nodes: &mut u64, stopped: &mut bool) -> bool {
        if !*stopped {
            *nodes += 1;
            *stopped = self.reached(*nodes);
        }
        *stopped
    }
}

/// Positions where an attacker was shown to have no win of a kind within a depth:
/// one slot per key's top bits, the key in the high bits and the depth in the low byte.
pub struct FailTable {
    slots: Vec<u64>,
    shift: u32,
}

impl FailTable {
    /// A table of `2^bits` slots.
    pub fn new(bits: u32) -> FailTable {
        FailTable {
            slots: vec![0; 1 << bits],
            shift: 64 - bits,
        }
    }

    /// Whether `key` was shown to hold no win within `depth` (or more).
    #[inline]
    pub fn failed(&self, key: u64, depth: u32) -> bool {
        let slot = self.slots[(key >> self.shift) as usize];
        slot != 0 && slot >> 8 == key >> 8 && (slot & 0xFF) as u32 >= depth
    }

    #[inline]
    pub fn record(&mut self, key: u64, depth: u32) {
        let slot = &mut self.slots[(key >> self.shift) as usize];
        *slot = (key & !0xFF) | depth.min(255) as u64;
    }
}

/// Keys of the fail table per kind and attacker, so that entries never mix.
pub(crate) fn table_key(hash: u64, kind: ThreatKind, attacker: usize) -> u64 {
    const SALTS: [[u64; 2]; 2] = [
        [0x9E37_79B9_7F4A_7C15, 0xC2B2_AE3D_27D4_EB4F],
        [0x1656_67B1_9E37_79F9, 0x27D4_EB2F_1656_67C5],
    ];
    hash ^ SALTS[kind as usize][attacker]
}

/// Mixed into the fail table's keys of strict searches under renju.
const STRICT_SALT: u64 = 0x5EC7_0B1A_C4F1_7E5D;

/// The tables a prover keeps from search to search (for one rule set).
pub struct ProverTables {
    pub fails: FailTable,
    /// Candidate buffers, one per ply.
    pub pool: Vec<Vec<usize>>,
}

impl ProverTables {
    pub fn new() -> ProverTables {
        ProverTables::sized_for(1 << 18)
    }

    /// Tables for searches of about `nodes` nodes: a slot per node, from 2^10 to 2^18.
    pub fn sized_for(nodes: u64) -> ProverTables {
        let bits = (64 - nodes.max(1).leading_zeros()).clamp(10, 18);
        ProverTables {
            fails: FailTable::new(bits),
            pool: Vec::new(),
        }
    }
}

impl Default for ProverTables {
    fn default() -> ProverTables {
        ProverTables::new()
    }
}

/// One threat search on a board.
pub struct Prover<'a> {
    pub board: &'a mut ThreatBoard,
    pub tables: &'a mut ProverTables,
    pub stop: &'a Stop<'a>,
    pub nodes: u64,
    /// Set once the budget, the deadline or the cancel flag stopped the search:
    /// its "no win" answers are then unproven and never recorded.
    pub stopped: bool,
    /// Whether the search looks for a win that no defender stone off its line can
    /// spoil (the VCT's pass line): under renju, black's moves must stay allowed
    /// whatever white adds ([`super::renju`]), and no white four may win by a
    /// block forbidden to black. The same search as any other under the other rules.
    pub strict: bool,
}

impl<'a> Prover<'a> {
    pub fn new(
        board: &'a mut ThreatBoard,
        tables: &'a mut ProverTables,
        stop: &'a Stop<'a>,
    ) -> Self {
        Prover {
            board,
            tables,
            stop,
            nodes: 0,
            stopped: false,
            strict: false,
        }
    }

    /// The fail table's key of `kind` for `attacker` here (a strict search under
    /// renju keeps its own entries: it fails where the other may win).
    fn fail_key(&self, kind: ThreatKind, attacker: usize) -> u64 {
        let salt = if self.strict && self.board.restricted(0) {
            STRICT_SALT
        } else {
            0
        };
        table_key(self.board.hash() ^ salt, kind, attacker)
    }

    /// Whether `attacker` may play the empty `cell` in this search: any cell, but
    /// under renju black's allowed ones, and in a strict search those that stay
    /// allowed whatever white adds.
    #[inline]
    pub fn may_play(&mut self, cell: usize, attacker: usize) -> bool {
        if !self.board.restricted(attacker) {
            return true;
        }
        if self.board.forbidden(cell) {
            return false;
        }
        !self.strict
            || crate::lines::renju::three_shapes(self.board.cells(), self.board.width(), cell) < 2
    }

    /// Drops from `cells` those `player` may not play ([`Prover::may_play`]).
    pub fn keep_playable(&mut self, cells: &mut Vec<usize>, player: usize) {
        if self.board.restricted(player) {
            cells.retain(|&c| self.may_play(c, player));
        }
    }

    /// After `attacker`'s four, whose only block is `block`: `None` where the
    /// defender may block there (always in a strict search); where it may not
    /// (black, renju, a forbidden cell) `Some` of a move it may play instead (the
    /// first allowed empty cell), after which the attacker completes, or of `None`
    /// where it has no move at all (the game is drawn).
    pub fn forbidden_block(&mut self, attacker: usize, block: usize) -> Option<Option<usize>> {
        let defender = 1 - attacker;
        if self.strict || !self.board.restricted(defender) || !self.board.forbidden(block) {
            return None;
        }
        Some(
            (0..self.board.num_cells())
                .find(|&c| c != block && self.board.is_empty(c) && !self.board.forbidden(c)),
        )
    }

    /// [`try_candidates`] with the buffer of `ply` from the pool.
    #[allow(clippy::too_many_arguments)]
    pub fn try_candidates(
        &mut self,
        kind: ThreatKind,
        attacker: usize,
        depth: u32,
        ply: usize,
        line: &mut Vec<usize>,
        candidates: fn(&mut Self, usize, &mut Vec<usize>),
        wins: fn(&mut Self, usize, usize, u32, usize, &mut Vec<usize>) -> bool,
    ) -> bool {
        let mut moves = self.take_buffer(ply);
        let won = try_candidates(
            self,
            kind,
            attacker,
            depth,
            &mut moves,
            |s, moves| candidates(s, attacker, moves),
            |s, cell| wins(s, attacker, cell, depth, ply, line),
        );
        self.give_buffer(ply, moves);
        won
    }

    /// The candidate buffer of `ply`, emptied.
    pub fn take_buffer(&mut self, ply: usize) -> Vec<usize> {
        if self.tables.pool.len() <= ply {
            self.tables.pool.resize_with(ply + 1, Vec::new);
        }
        let mut buf = std::mem::take(&mut self.tables.pool[ply]);
        buf.clear();
        buf
    }

    pub fn give_buffer(&mut self, ply: usize, buf: Vec<usize>) {
        self.tables.pool[ply] = buf;
    }

    /// Sorts `cells` by how much a stone of `player` is worth there, best first
    /// (ties by cell, so the order is a function of the position).
    pub fn order(&self, cells: &mut [usize], player: usize) {
        cells.sort_by_cached_key(|&c| (std::cmp::Reverse(self.board.move_value(c, player)), c));
    }
}

impl ThreatSearch for Prover<'_> {
    #[inline]
    fn out_of_budget(&mut self) -> bool {
        self.stop.count(&mut self.nodes, &mut self.stopped)
    }

    fn stopped(&self) -> bool {
        self.stopped
    }

    fn known_fail(&self, kind: ThreatKind, attacker: usize, depth: u32) -> bool {
        let key = self.fail_key(kind, attacker);
        self.tables.fails.failed(key, depth)
    }

    fn record_fail(&mut self, kind: ThreatKind, attacker: usize, depth: u32) {
        if !self.stopped {
            let key = self.fail_key(kind, attacker);
            self.tables.fails.record(key, depth);
        }
    }
}

/// What the candidate/answer loop ([`try_candidates`]) needs of a threat search:
/// its node count and stop, and its table of positions without a win.
pub(crate) trait ThreatSearch {
    /// Counts a node; whether the search must stop (it then stays stopped).
    fn out_of_budget(&mut self) -> bool;
    fn stopped(&self) -> bool;
    /// Whether `attacker` was shown to have no win of `kind` within `depth` here.
    fn known_fail(&self, kind: ThreatKind, attacker: usize, depth: u32) -> bool;
    /// Records that it has none, unless the search was cut short.
    fn record_fail(&mut self, kind: ThreatKind, attacker: usize, depth: u32);
}

/// The loop every threat search shares (VCF and VCT on free boards, the column
/// prover on gravity boards): unless the budget is spent or the position is known
/// to fail at `depth`, `candidates` lists the attacker's moves into `moves`, best
/// first, and each is tried with `wins` until one wins; a position where none
/// does is recorded as failing.
pub(crate) fn try_candidates<S: ThreatSearch>(
    s: &mut S,
    kind: ThreatKind,
    attacker: usize,
    depth: u32,
    moves: &mut Vec<usize>,
    candidates: impl FnOnce(&mut S, &mut Vec<usize>),
    mut wins: impl FnMut(&mut S, usize) -> bool,
) -> bool {
    if s.out_of_budget() || s.known_fail(kind, attacker, depth) {
        return false;
    }
    moves.clear();
    candidates(s, moves);
    for &cell in moves.iter() {
        if wins(s, cell) {
            return true;
        }
        if s.stopped() {
            return false;
        }
    }
    s.record_fail(kind, attacker, depth);
    false
}
