//! Replaying a proof with rules code of its own: the cells in a vector (and
//! each player's stones as a bit set), a line found by walking from the last
//! stone, every reply of the other player tried.

use std::fmt;
use std::io::BufRead;
use std::sync::atomic::{AtomicBool, Ordering};

use super::format::{Bits, Board, Key, Record, Section};
use super::parts::{check_parts, CheckProgress, Roots};

/// What a claim says of its player (0 = x, the first player; 1 = o).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClaimKind {
    /// Every game ends in a line of the player.
    Win,
    /// No game ends in a line of the other player.
    NoLoss,
}

/// One claim of a proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Claim {
    /// 0 for x (the first player), 1 for o.
    pub player: usize,
    pub kind: ClaimKind,
}

/// What a proof proved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Every claim of the proof, each verified.
    pub claims: Vec<Claim>,
    /// Positions the checker visited, all claims (and parts) together.
    pub positions: usize,
    /// The parts of a bundle checked before the last one (0: a single proof).
    pub lemmas: usize,
}

impl Verdict {
    /// The outcome the claims establish for x (the first player): 1 a win, -1
    /// a loss, 0 a draw; `None` if they establish none (a lone `no-loss`).
    pub fn outcome(&self) -> Option<i32> {
        let has = |player, kind| self.claims.contains(&Claim { player, kind });
        if has(0, ClaimKind::Win) {
            Some(1)
        } else if has(1, ClaimKind::Win) {
            Some(-1)
        } else if has(0, ClaimKind::NoLoss) && has(1, ClaimKind::NoLoss) {
            Some(0)
        } else {
            None
        }
    }
}

/// Why a proof is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProofError {
    /// The text does not follow the format (`line` 0: the file as a whole).
    Format { line: usize, why: String },
    /// The strategy fails at the position `cells` (. x o, row-major).
    Refuted {
        claim: String,
        cells: String,
        why: String,
    },
    /// The check was cancelled before it ended.
    Interrupted,
}

impl fmt::Display for ProofError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProofError::Format { line, why } => write!(f, "proof format, line {line}: {why}"),
            ProofError::Refuted { claim, cells, why } => {
                write!(f, "claim {claim} fails at {cells}: {why}")
            }
            ProofError::Interrupted => write!(f, "the check was interrupted"),
        }
    }
}

impl std::error::Error for ProofError {}

/// Checks the proof `text`: every claim of it, from its root.
pub fn check(text: &str) -> Result<Verdict, ProofError> {
    check_reader(text.as_bytes())
}

/// [`check`] of a proof read line by line from `reader` (a file need not be
/// held in memory). The file may be a bundle: proofs of one board one after
/// another, each checked on its own (so only one is held in memory), where a
/// later proof meets the roots of the earlier ones as proven, for the same
/// claim, with the zones the earlier checks found there. The verdict is the
/// last proof's.
pub fn check_reader(reader: impl BufRead) -> Result<Verdict, ProofError> {
    check_bundle(
        reader,
        1,
        &CheckProgress::default(),
        &AtomicBool::new(false),
    )
}

/// [`check_reader`] with the parts of a bundle checked `threads` at a time,
/// each still meeting only the roots of the parts before it (a part waits for
/// an earlier one it meets to be checked); `progress` counts what is checked,
/// and `cancel` ends the check with [`ProofError::Interrupted`]. The verdict
/// and any refusal are those of [`check_reader`]: of the first part that
/// fails.
pub fn check_bundle(
    reader: impl BufRead,
    threads: usize,
    progress: &CheckProgress,
    cancel: &AtomicBool,
) -> Result<Verdict, ProofError> {
    check_parts(reader, threads, progress, cancel).map(|(verdict, _)| verdict)
}

/// What one proof of a bundle proved: its verdict, each claim's zone at its
/// root (0 at a root that is over) and the roots it proved with their zones.
pub(super) struct Replayed {
    pub verdict: Verdict,
    pub zones: Vec<u128>,
    pub roots: Vec<((Claim, Key<u128>), u128)>,
}

/// The board's symmetries and runs, shared by the replays of its proofs.
pub(super) struct Shape {
    /// Each symmetry as the image of every cell, and the inverses.
    symmetries: Vec<Vec<usize>>,
    inverses: Vec<Vec<usize>>,
    /// Every run of `k` cells on the board, as cells and as a bit set.
    runs: Vec<Vec<usize>>,
    run_sets: Vec<u128>,
    /// Every cell of the board.
    all: u128,
}

impl Shape {
    pub fn of(board: &Board) -> Shape {
        let symmetries = symmetries(board.width, board.height);
        let inverses = symmetries
            .iter()
            .map(|s| {
                let mut inv = vec![0; s.len()];
                for (cell, &image) in s.iter().enumerate() {
                    inv[image] = cell;
                }
                inv
            })
            .collect();
        let runs = runs(board);
        let run_sets = runs
            .iter()
            .map(|run| run.iter().fold(0u128, |set, &c| set | 1 << c))
            .collect();
        let cells = board.width * board.height;
        Shape {
            symmetries,
            inverses,
            runs,
            run_sets,
            all: u128::MAX >> (128 - cells),
        }
    }

    /// The canonical form of the position (x's stones `x`, o's `o`) with
    /// `turn` to move: the smallest (x's stones, o's stones) of its images
    /// under the board's symmetries, and the symmetries that give it (a bit
    /// each; the lowest is the one a record's cells are mapped back by).
    pub fn key(&self, x: u128, o: u128, turn: u8) -> (Key<u128>, u32) {
        let mut least = (x, o, turn);
        let mut giving = 1;
        for s in 1..self.symmetries.len() {
            let image = (
                mapped(x, &self.symmetries[s]),
                mapped(o, &self.symmetries[s]),
                turn,
            );
            if image < least {
                (least, giving) = (image, 1 << s);
            } else if image == least {
                giving |= 1 << s;
            }
        }
        (least, giving)
    }
}

/// The cells `cells` (a bit set) mapped by `map`.
fn mapped(cells: u128, map: &[usize]) -> u128 {
    let mut out = 0;
    let mut rest = cells;
    while rest != 0 {
        out |= 1 << map[rest.trailing_zeros() as usize];
        rest &= rest - 1;
    }
    out
}

/// The stones of `who` in `cells` as a bit set.
pub(super) fn stones_of(cells: &[u8], who: u8) -> u128 {
    (0..cells.len())
        .filter(|&c| cells[c] == who)
        .fold(0, |set, c| set | 1 << c)
}

/// The side to move at a root: x when the stones are even.
pub(super) fn root_turn(cells: &[u8]) -> u8 {
    if count(cells, 1) == count(cells, 2) {
        1
    } else {
        2
    }
}

/// Replays every claim of the `part`-th proof of a bundle, meeting the roots
/// of the earlier parts (from `roots`) as proven.
pub(super) fn replay_all<B: Bits>(
    board: &Board,
    shape: &Shape,
    sections: Vec<Section<B>>,
    roots: &Roots,
    part: usize,
    cancel: &AtomicBool,
) -> Result<Replayed, ProofError> {
    let mut positions = 0;
    let mut zones = Vec::new();
    let mut proven = Vec::new();
    let claims = sections.iter().map(|s| s.claim).collect();
    for section in sections {
        let mut replay = Replay {
            proof: board,
            section,
            cells: board.root.clone(),
            stones: [0, stones_of(&board.root, 1), stones_of(&board.root, 2)],
            turn: 1,
            shape,
            roots,
            part,
            cancel,
        };
        zones.push(replay.root()?);
        positions += replay.section.entries.values().filter(|e| e.proven).count();
        let (key, _) = replay.key();
        if let Some(zone) = replay.section.proven(&key) {
            let wide = (key.0.wide(), key.1.wide(), key.2);
            proven.push(((replay.section.claim, wide), zone.wide()));
        }
    }
    Ok(Replayed {
        verdict: Verdict {
            claims,
            positions,
            lemmas: 0,
        },
        zones,
        roots: proven,
    })
}

/// One claim's replay.
struct Replay<'a, B: Bits> {
    proof: &'a Board,
    /// The claim, its records, and the positions proven so far with their
    /// zones (see [`Replay::node`]) as cells of the canonical image.
    section: Section<B>,
    /// The position: 0 empty, 1 x, 2 o; and x's and o's stones as bit sets
    /// (at 1 and 2).
    cells: Vec<u8>,
    stones: [u128; 3],
    /// The side to move: 1 x, 2 o (after a pass, not what the stones say).
    turn: u8,
    shape: &'a Shape,
    /// Roots of the proofs of a bundle, and which of them this one is.
    roots: &'a Roots,
    part: usize,
    cancel: &'a AtomicBool,
}

/// How the game stands after a move.
enum After {
    /// The mover made a line (the claimant: any other line is refused).
    Line,
    /// The board is full.
    Full,
    /// The game goes on; the claim holds there with this zone.
    Goes(u128),
}

impl<B: Bits> Replay<'_, B> {
    fn claim_name(&self) -> String {
        let c = self.section.claim;
        let who = if c.player == 0 { "x" } else { "o" };
        let what = match c.kind {
            ClaimKind::Win => "win",
            ClaimKind::NoLoss => "no-loss",
        };
        format!("{who} {what}")
    }

    fn refuted(&self, why: impl Into<String>) -> ProofError {
        let cells = self
            .cells
            .iter()
            .map(|&c| [b'.', b'x', b'o'][c as usize] as char);
        ProofError::Refuted {
            claim: self.claim_name(),
            cells: cells.collect(),
            why: why.into(),
        }
    }

    fn claimant(&self) -> u8 {
        self.section.claim.player as u8 + 1
    }

    /// The root: over already (a line, or a full board), or a search; its zone.
    fn root(&mut self) -> Result<u128, ProofError> {
        let p = self.proof;
        let (x, o) = (count(&self.cells, 1), count(&self.cells, 2));
        if x != o && x != o + 1 {
            return Err(self.refuted(format!(
                "{x} x and {o} o stones: not a position of the game"
            )));
        }
        self.turn = root_turn(&self.cells);
        let lines: Vec<u8> = (1..=2)
            .filter(|&who| (0..self.cells.len()).any(|c| self.cells[c] == who && self.line_at(c)))
            .collect();
        match lines.as_slice() {
            [] if x + o == p.width * p.height => self.ends_full().map(|()| 0),
            [] => self.node(),
            &[who] => self.ends_in_line(who).map(|()| 0),
            _ => Err(self.refuted("both players hold lines")),
        }
    }

    /// The position's canonical form and the symmetries that give it
    /// ([`Shape::key`]).
    fn key(&self) -> (Key<B>, u32) {
        let ((x, o, turn), giving) = self.shape.key(self.stones[1], self.stones[2], self.turn);
        ((B::from_wide(x), B::from_wide(o), turn), giving)
    }

    /// The cell whose image under symmetry `s` is `cell`.
    fn preimage(&self, s: usize, cell: usize) -> usize {
        self.shape.inverses[s][cell]
    }

    fn empty_cells(&self) -> u128 {
        self.shape.all & !(self.stones[1] | self.stones[2])
    }

    /// The claim at a position not over, with `self.turn` to move. Returns its
    /// zone: empty cells such that the claim (of a `no-loss` claim) still holds
    /// when the other player also has stones on any empty cells outside it.
    /// The checker computes it from the proof by these rules:
    ///
    /// * no run open to the other player: the empty zone;
    /// * a pairing: the pairs' cells;
    /// * the claimant's move `m`: its zone after `m`, and `m`; if `m` makes
    ///   the claimant's line, `m` and the record's hit set (which must hold an
    ///   empty cell of every run still open to the other player), or every
    ///   empty cell without one; `m` alone if it fills the board;
    /// * the other player to move: the union of the zones after each of its
    ///   moves; or with a pass record (`z`), the zone of the same stones with
    ///   the claimant to move, and the zones after each of the other player's
    ///   moves inside it, the only moves then tried.
    ///
    /// A move outside a pass's zone is an extra stone of the other player at
    /// the position after the pass, where the claim holds with that zone. A
    /// zone is then widened by its images under the symmetries that leave the
    /// position as it is (a larger zone holds too).
    fn node(&mut self) -> Result<u128, ProofError> {
        if self.cancel.load(Ordering::Relaxed) {
            return Err(ProofError::Interrupted);
        }
        let (key, giving) = self.key();
        let s = giving.trailing_zeros() as usize;
        let shape = self.shape;
        let inverse = shape.inverses[s].as_slice();
        if let Some(zone) = self.section.proven(&key) {
            return Ok(mapped(zone.wide(), inverse));
        }
        let wide = (key.0.wide(), key.1.wide(), key.2);
        if let Some(zone) = self.roots.before(self.part, self.section.claim, wide) {
            self.section.prove(key, B::from_wide(zone));
            return Ok(mapped(zone, inverse));
        }
        let claimant = self.claimant();
        let no_loss = self.section.claim.kind == ClaimKind::NoLoss;
        let record = self.section.record(&key);
        let zone = if no_loss && self.no_open_run(3 - claimant, &[]) {
            0
        } else if let Some(Record::Pairs(pairs)) = &record {
            let pairs: Vec<(usize, usize)> = pairs
                .iter()
                .map(|&(a, b)| (self.preimage(s, a), self.preimage(s, b)))
                .collect();
            self.pairing_holds(&pairs, claimant)?;
            pairs.iter().fold(0, |z, &(a, b)| z | 1 << a | 1 << b)
        } else if self.turn == claimant {
            let Some(Record::Move(recorded, hits)) = &record else {
                return Err(self.refuted("no move of the claimant recorded here"));
            };
            let cell = self.preimage(s, *recorded);
            if self.cells[cell] != 0 {
                return Err(self.refuted(format!("the recorded move {recorded} is taken")));
            }
            let everywhere = self.empty_cells();
            let hits: Option<Vec<usize>> = hits
                .as_ref()
                .map(|h| h.iter().map(|&c| self.preimage(s, c)).collect());
            let bit = 1u128 << cell;
            match self.after(cell, claimant, hits.as_deref())? {
                After::Line => match hits {
                    Some(h) => h.iter().fold(bit, |z, &c| z | 1 << c),
                    None => everywhere,
                },
                After::Full => bit,
                After::Goes(zone) => zone | bit,
            }
        } else if let Some(Record::Pass) = record {
            if !no_loss {
                return Err(self.refuted("a pass record (z) in a win claim"));
            }
            self.turn = claimant;
            let passed = self.node();
            self.turn = 3 - claimant;
            let passed = passed?;
            let mut zone = passed;
            for cell in 0..self.cells.len() {
                if passed >> cell & 1 == 1 {
                    if let After::Goes(z) = self.after(cell, 3 - claimant, None)? {
                        zone |= z;
                    }
                }
            }
            zone
        } else {
            let mut zone = 0;
            for cell in 0..self.cells.len() {
                if self.cells[cell] == 0 {
                    if let After::Goes(z) = self.after(cell, 3 - claimant, None)? {
                        zone |= z;
                    }
                }
            }
            zone
        };
        // Closed under the position's own symmetries, so a zone does not
        // depend on the image the replay met first.
        let canonical = (0..self.shape.symmetries.len())
            .filter(|&g| giving >> g & 1 == 1)
            .fold(0, |z, g| z | mapped(zone, &self.shape.symmetries[g]));
        self.section.prove(key, B::from_wide(canonical));
        Ok(mapped(canonical, self.shape.inverses[s].as_slice()))
    }

    /// `who` plays the empty `cell`; what follows. A line of the other player
    /// is refused, and so is a claimant's line whose `hits` miss a run open to
    /// the other player.
    fn after(&mut self, cell: usize, who: u8, hits: Option<&[usize]>) -> Result<After, ProofError> {
        self.cells[cell] = who;
        self.stones[who as usize] |= 1 << cell;
        let turn = self.turn;
        self.turn = 3 - who;
        let result = if self.line_at(cell) {
            self.ends_in_line(who).and_then(|()| match hits {
                Some(h) => self.hits_every_open_run(h).map(|()| After::Line),
                None => Ok(After::Line),
            })
        } else if self.empty_cells() == 0 {
            self.ends_full().map(|()| After::Full)
        } else {
            self.node().map(After::Goes)
        };
        self.cells[cell] = 0;
        self.stones[who as usize] &= !(1 << cell);
        self.turn = turn;
        result
    }

    /// Verifies a hit set: empty cells, one in every run open to the other
    /// player (free of the claimant's stones).
    fn hits_every_open_run(&self, hits: &[usize]) -> Result<(), ProofError> {
        if let Some(&c) = hits.iter().find(|&&c| self.cells[c] != 0) {
            return Err(self.refuted(format!("hit cell {c} is taken")));
        }
        if self.no_open_run(3 - self.claimant(), hits) {
            Ok(())
        } else {
            Err(self.refuted("a run open to the other player holds no hit cell"))
        }
    }

    /// Whether every run of `k` cells holds a stone of the player other than
    /// `who`, or one of the cells `hits`.
    fn no_open_run(&self, who: u8, hits: &[usize]) -> bool {
        let blocked = hits
            .iter()
            .fold(self.stones[3 - who as usize], |set, &c| set | 1 << c);
        self.shape.run_sets.iter().all(|&run| run & blocked != 0)
    }

    fn ends_in_line(&self, who: u8) -> Result<(), ProofError> {
        if who == self.section.claim.player as u8 + 1 {
            Ok(())
        } else {
            Err(self.refuted("the other player has a line"))
        }
    }

    fn ends_full(&self) -> Result<(), ProofError> {
        match self.section.claim.kind {
            ClaimKind::NoLoss => Ok(()),
            ClaimKind::Win => Err(self.refuted("the board is full without a line of the claimant")),
        }
    }

    /// Whether the stone on `cell` makes a line: a run through it of `k` or more
    /// (exactly `k` under the standard rule) along one of the four directions.
    fn line_at(&self, cell: usize) -> bool {
        let p = self.proof;
        let who = self.cells[cell];
        let (r, c) = ((cell / p.width) as i64, (cell % p.width) as i64);
        [(0, 1), (1, 0), (1, 1), (1, -1)].iter().any(|&(dr, dc)| {
            let mut run = 1;
            for sign in [1, -1] {
                let (mut rr, mut cc) = (r + sign * dr, c + sign * dc);
                while self.owner(rr, cc) == Some(who) {
                    run += 1;
                    rr += sign * dr;
                    cc += sign * dc;
                }
            }
            if p.exact {
                run == p.k
            } else {
                run >= p.k
            }
        })
    }

    fn owner(&self, r: i64, c: i64) -> Option<u8> {
        let p = self.proof;
        let on = (0..p.height as i64).contains(&r) && (0..p.width as i64).contains(&c);
        on.then(|| self.cells[(r * p.width as i64 + c) as usize])
    }

    /// Verifies a pairing certificate of the claimant: `no-loss` claims only;
    /// distinct empty cells; every run of `k` cells without a stone of the
    /// claimant holds both cells of a pair.
    fn pairing_holds(&self, pairs: &[(usize, usize)], claimant: u8) -> Result<(), ProofError> {
        if self.section.claim.kind != ClaimKind::NoLoss {
            return Err(self.refuted("a pairing proves no-loss, not a win"));
        }
        let mut used = vec![false; self.cells.len()];
        for &(a, b) in pairs {
            for c in [a, b] {
                if self.cells[c] != 0 || used[c] {
                    return Err(self.refuted(format!("pair cell {c} is taken or paired twice")));
                }
                used[c] = true;
            }
        }
        let pair_sets: Vec<u128> = pairs.iter().map(|&(a, b)| 1 << a | 1 << b).collect();
        let claimants = self.stones[claimant as usize];
        let shape = self.shape;
        let missed = (0..shape.runs.len()).find(|&r| {
            let run = shape.run_sets[r];
            run & claimants == 0 && pair_sets.iter().all(|&p| run & p != p)
        });
        match missed {
            Some(r) => Err(self.refuted(format!(
                "the run of {} from cell {} holds no pair",
                self.proof.k, shape.runs[r][0]
            ))),
            None => Ok(()),
        }
    }
}

/// Every run of `k` cells on the board (its cells `row * width + col`), along
/// the rows, the columns and both diagonals.
fn runs(board: &Board) -> Vec<Vec<usize>> {
    let (w, h, k) = (board.width as i64, board.height as i64, board.k as i64);
    let on = |r: i64, c: i64| (0..h).contains(&r) && (0..w).contains(&c);
    let mut runs = Vec::new();
    for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
        for r in 0..h {
            for c in 0..w {
                if on(r + dr * (k - 1), c + dc * (k - 1)) {
                    runs.push(
                        (0..k)
                            .map(|i| ((r + dr * i) * w + c + dc * i) as usize)
                            .collect(),
                    );
                }
            }
        }
    }
    runs
}

fn count(cells: &[u8], who: u8) -> usize {
    cells.iter().filter(|&&c| c == who).count()
}

/// The symmetries of a `width` x `height` board, each as the image of every cell
/// (`row * width + col`): identity, the two mirrors and the half turn, and on a
/// square also the transpose, the anti-transpose and the quarter turns.
fn symmetries(width: usize, height: usize) -> Vec<Vec<usize>> {
    let (w, h) = (width, height);
    let image = |s: usize, r: usize, c: usize| match s {
        0 => (r, c),
        1 => (r, w - 1 - c),
        2 => (h - 1 - r, c),
        3 => (h - 1 - r, w - 1 - c),
        4 => (c, r),
        5 => (w - 1 - c, w - 1 - r),
        6 => (c, w - 1 - r),
        _ => (w - 1 - c, r),
    };
    let count = if w == h { 8 } else { 4 };
    (0..count)
        .map(|s| {
            (0..w * h)
                .map(|cell| {
                    let (r, c) = image(s, cell / w, cell % w);
                    r * w + c
                })
                .collect()
        })
        .collect()
}
