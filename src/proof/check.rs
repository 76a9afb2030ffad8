//! Replaying a proof with rules code of its own: the cells in a vector, a line
//! found by walking from the last stone, every reply of the other player tried.

use std::collections::HashSet;
use std::fmt;

use super::format::{parse, Proof, Record, Section};

/// What a claim says of its player (0 = x, the first player; 1 = o).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClaimKind {
    /// Every game ends in a line of the player.
    Win,
    /// No game ends in a line of the other player.
    NoLoss,
}

/// One claim of a proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    /// Positions the checker visited, all claims together.
    pub positions: usize,
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
}

impl fmt::Display for ProofError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProofError::Format { line, why } => write!(f, "proof format, line {line}: {why}"),
            ProofError::Refuted { claim, cells, why } => {
                write!(f, "claim {claim} fails at {cells}: {why}")
            }
        }
    }
}

impl std::error::Error for ProofError {}

/// Checks the proof `text`: every claim of it, from its root.
pub fn check(text: &str) -> Result<Verdict, ProofError> {
    let proof = parse(text)?;
    let mut positions = 0;
    for section in &proof.sections {
        let mut replay = Replay {
            proof: &proof,
            section,
            cells: proof.root.clone(),
            proven: HashSet::new(),
            symmetries: symmetries(proof.width, proof.height),
        };
        replay.root()?;
        positions += replay.proven.len();
    }
    Ok(Verdict {
        claims: proof.sections.iter().map(|s| s.claim).collect(),
        positions,
    })
}

/// One claim's replay.
struct Replay<'a> {
    proof: &'a Proof,
    section: &'a Section,
    /// The position: 0 empty, 1 x, 2 o.
    cells: Vec<u8>,
    /// Canonical positions (x's stones, o's stones) where the claim is verified.
    proven: HashSet<(u128, u128)>,
    /// The board's symmetries, each as the image of every cell.
    symmetries: Vec<Vec<usize>>,
}

impl Replay<'_> {
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

    /// The root: over already (a line, or a full board), or a search.
    fn root(&mut self) -> Result<(), ProofError> {
        let p = self.proof;
        let (x, o) = (count(&self.cells, 1), count(&self.cells, 2));
        if x != o && x != o + 1 {
            return Err(self.refuted(format!(
                "{x} x and {o} o stones: not a position of the game"
            )));
        }
        let lines: Vec<u8> = (1..=2)
            .filter(|&who| (0..self.cells.len()).any(|c| self.cells[c] == who && self.line_at(c)))
            .collect();
        match lines.as_slice() {
            [] if x + o == p.width * p.height => self.ends_full(),
            [] => self.node(),
            &[who] => self.ends_in_line(who),
            _ => Err(self.refuted("both players hold lines")),
        }
    }

    /// The side to move: 1 x, 2 o.
    fn to_move(&self) -> u8 {
        if count(&self.cells, 1) == count(&self.cells, 2) {
            1
        } else {
            2
        }
    }

    /// The position's canonical form, the smallest (x's stones, o's stones) of
    /// its images under the board's symmetries, and the symmetry that gives it.
    fn key(&self) -> ((u128, u128), usize) {
        let image = |s: usize| {
            let set = |who| {
                (0..self.cells.len())
                    .filter(|&c| self.cells[c] == who)
                    .fold(0u128, |set, c| set | 1 << self.symmetries[s][c])
            };
            (set(1), set(2))
        };
        (0..self.symmetries.len())
            .map(|s| (image(s), s))
            .min()
            .expect("the identity")
    }

    /// The cell whose image under symmetry `s` is `cell`.
    fn preimage(&self, s: usize, cell: usize) -> usize {
        self.symmetries[s]
            .iter()
            .position(|&c| c == cell)
            .expect("a symmetry is a permutation")
    }

    /// The claim at a position not over.
    fn node(&mut self) -> Result<(), ProofError> {
        let (key, s) = self.key();
        if self.proven.contains(&key) {
            return Ok(());
        }
        let claimant = self.section.claim.player as u8 + 1;
        let record = self.section.records.get(&key);
        if let Some(Record::Pairs(pairs)) = record {
            let pairs: Vec<(usize, usize)> = pairs
                .iter()
                .map(|&(a, b)| (self.preimage(s, a), self.preimage(s, b)))
                .collect();
            self.pairing_holds(&pairs, claimant)?;
        } else if self.to_move() == claimant {
            let Some(&Record::Move(recorded)) = record else {
                return Err(self.refuted("no move of the claimant recorded here"));
            };
            let cell = self.preimage(s, recorded);
            if self.cells[cell] != 0 {
                return Err(self.refuted(format!("the recorded move {recorded} is taken")));
            }
            self.after(cell, claimant)?;
        } else {
            for cell in 0..self.cells.len() {
                if self.cells[cell] == 0 {
                    self.after(cell, 3 - claimant)?;
                }
            }
        }
        self.proven.insert(key);
        Ok(())
    }

    /// The claim after `who` plays the empty `cell`.
    fn after(&mut self, cell: usize, who: u8) -> Result<(), ProofError> {
        self.cells[cell] = who;
        let result = if self.line_at(cell) {
            self.ends_in_line(who)
        } else if self.cells.iter().all(|&c| c != 0) {
            self.ends_full()
        } else {
            self.node()
        };
        self.cells[cell] = 0;
        result
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
        let p = self.proof;
        let (w, h, k) = (p.width as i64, p.height as i64, p.k as i64);
        for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
            for r in 0..h {
                for c in 0..w {
                    if self.owner(r + dr * (k - 1), c + dc * (k - 1)).is_none() {
                        continue;
                    }
                    let run: Vec<usize> = (0..k)
                        .map(|i| ((r + dr * i) * w + c + dc * i) as usize)
                        .collect();
                    if run.iter().any(|&x| self.cells[x] == claimant) {
                        continue;
                    }
                    if !pairs
                        .iter()
                        .any(|&(a, b)| run.contains(&a) && run.contains(&b))
                    {
                        return Err(self.refuted(format!(
                            "the run of {k} from cell {} holds no pair",
                            r * w + c
                        )));
                    }
                }
            }
        }
        Ok(())
    }
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
