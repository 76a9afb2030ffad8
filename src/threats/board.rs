//! The threat engine's board: two players placing freely, every window of `k`
//! cells with each player's stone count, a Zobrist key and a line evaluation,
//! all kept up to date on make and unmake, under each win rule.
//!
//! A *window* is `k` consecutive cells of a row, a column or a diagonal. It is
//! *live* for a player while nothing keeps it from becoming that player's line:
//! no stone of the other player in it, and, where the player's lines must be
//! exactly `k` (standard; black under renju), no stone of the player on either
//! flank (the cells just beyond its ends: filled, the window would be part of an
//! overline). A player *threatens* a cell when a live window through it holds
//! `k - 1` of the player's stones: a stone there completes a line. A *four* (for
//! any `k`: a threat of `k - 1`) is a move that creates such a cell.
//!
//! Under renju the board also keeps the position as renju's judge reads it, to
//! tell which empty cells black may not play ([`ThreatBoard::forbidden`]).

use crate::game::Game;
use crate::lines::renju::Grid;
use crate::lines::{line_is_exact, WindowTable};
use crate::rng::splitmix64;
use crate::rules::{Rules, WinRule};

use super::live_windows::LiveWindows;

/// The weights of a window holding `n` (index) stones of one player and none of
/// the other, for lines of `k`: eightfold per stone up to `k - 2`, so one more
/// stone in a line outweighs many shorter ones; a window of `k - 1` only half as
/// much again, as it forces one reply and is then dead (the search sees that).
fn window_weights(k: usize) -> Vec<i64> {
    let mut w: Vec<i64> = (0..=k)
        .map(|n| {
            if n == 0 {
                0
            } else {
                1i64 << (3 * (n - 1).min(15))
            }
        })
        .collect();
    if k >= 3 {
        w[k - 1] = w[k - 2] * 8;
    }
    w
}

/// One window's counts: `[stones of player 0, of player 1, blocks of player 0,
/// of player 1]`. A player's *blocks* are what keeps the window from being its
/// line: the other player's stones in it, and (exact lines) the player's own
/// stones on its flanks. The window is live for the player while they are 0.
pub(super) type Tally = [u8; 4];

/// Where a player's blocks sit in a [`Tally`].
pub(super) const BLOCKS: usize = 2;

/// A stone of player `p` in a window, as one addition to the tally read as a
/// word: one more stone of `p`, one more block of the other.
const FREE_STONE: [u32; 2] = [
    u32::from_ne_bytes([1, 0, 0, 1]),
    u32::from_ne_bytes([0, 1, 1, 0]),
];

/// A stone of `p` on a window's flank where `p`'s lines are exact, as one
/// addition to the tally read as a word: one more block of `p`.
const FLANK_BLOCK: [u32; 2] = [
    u32::from_ne_bytes([0, 0, 1, 0]),
    u32::from_ne_bytes([0, 0, 0, 1]),
];

/// A free-placement position of two players (see the module docs).
#[derive(Clone, Debug)]
pub struct ThreatBoard {
    rules: Rules,
    k: usize,
    windows: WindowTable,
    tallies: Vec<Tally>,
    /// Whether each player's lines must be exactly `k`.
    exact: [bool; 2],
    /// Whether either's must (the freestyle rule takes a faster path).
    any_exact: bool,
    /// Renju: the position as the forbidden-move judge reads it.
    renju: Option<Grid>,
    /// Owner per cell, row-major: 0 empty, else 1-based player.
    cells: Vec<u8>,
    zobrist: Vec<[u64; 2]>,
    /// `weights[n]`: the weight of a live window of `n` stones.
    weights: Vec<i64>,
    hash: u64,
    /// Sum of the weights of each player's live windows.
    scores: [i64; 2],
    /// Live windows holding `k - 1` stones of their player, per player.
    open_fours: [u32; 2],
    stones: usize,
    to_move: usize,
    winner: Option<usize>,
    /// Each player's live windows of `k - 3` stones and more.
    live: LiveWindows,
    /// Scratch: windows read from `live`.
    listed: Vec<u32>,
    /// Scratch marks for collecting distinct cells.
    marks: Vec<u32>,
    mark: u32,
}

impl ThreatBoard {
    /// An empty board for `rules` (2 players, no gravity: the caller checks).
    pub fn new(rules: Rules) -> ThreatBoard {
        let (w, h, k) = (rules.width(), rules.height(), rules.k());
        let windows = WindowTable::new(w, h, k, !rules.is_freestyle());
        let zobrist = (0..w * h)
            .map(|c| {
                let base = splitmix64(0x7448_5245_4154_5300 ^ c as u64);
                [splitmix64(base), splitmix64(base ^ 1)]
            })
            .collect();
        let open_fours = [empty_open_fours(k, windows.len()); 2];
        let windows_len = windows.len();
        let rule = rules.rule();
        ThreatBoard {
            rules,
            k,
            tallies: vec![[0; 4]; windows.len()],
            windows,
            exact: [line_is_exact(rule, 0), line_is_exact(rule, 1)],
            any_exact: line_is_exact(rule, 0) || line_is_exact(rule, 1),
            renju: (rule == WinRule::Renju).then(|| Grid::new(w, h)),
            cells: vec![0; w * h],
            zobrist,
            weights: window_weights(k),
            hash: 0,
            scores: [0; 2],
            open_fours,
            stones: 0,
            to_move: 0,
            winner: None,
            live: LiveWindows::new(k, windows_len),
            listed: Vec::new(),
            marks: vec![0; w * h],
            mark: 0,
        }
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Sets this board to `game`'s position (same rules; keeps allocations).
    pub fn load(&mut self, game: &Game) {
        debug_assert_eq!(game.rules(), &self.rules);
        self.tallies.fill([0; 4]);
        self.live.clear();
        self.cells.fill(0);
        if let Some(grid) = self.renju.as_mut() {
            grid.clear();
        }
        self.hash = 0;
        self.scores = [0; 2];
        self.open_fours = [empty_open_fours(self.k, self.windows.len()); 2];
        self.stones = 0;
        let w = self.rules.width();
        for cell in 0..self.cells.len() {
            let owner = game.owner(cell / w, cell % w);
            if owner != 0 {
                self.place(cell, owner as usize - 1);
            }
        }
        self.to_move = game.to_move();
        self.winner = game.winner();
    }
    pub fn width(&self) -> usize {
        self.rules.width()
    }
    pub fn num_cells(&self) -> usize {
        self.cells.len()
    }
    pub fn k(&self) -> usize {
        self.k
    }
    pub fn to_move(&self) -> usize {
        self.to_move
    }
    pub fn winner(&self) -> Option<usize> {
        self.winner
    }
    pub fn stones(&self) -> usize {
        self.stones
    }
    pub fn is_full(&self) -> bool {
        self.stones == self.cells.len()
    }
    /// The Zobrist key of the stones (not of the side to move).
    pub fn hash(&self) -> u64 {
        self.hash
    }
    /// Owner per cell, row-major: 0 empty, else 1-based player (renju's judge's
    /// encoding: 1 black, 2 white).
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }
    /// The cell's owner: 0 empty, else 1-based player.
    #[inline]
    pub fn owner(&self, cell: usize) -> u8 {
        self.cells[cell]
    }
    #[inline]
    pub fn is_empty(&self, cell: usize) -> bool {
        self.cells[cell] == 0
    }
    /// The sum of the weights of `player`'s live windows.
    pub fn score(&self, player: usize) -> i64 {
        self.scores[player]
    }

    /// `player`'s live windows by stone count, 1 to 4, for lines of five (the
    /// counts of 2 to 5 are listed; those of 1 are what the score leaves).
    #[inline]
    pub fn live_counts_of_five(&self, player: usize) -> [i64; 4] {
        debug_assert_eq!(self.k, 5);
        let [c2, c3, c4, c5] = [2, 3, 4, 5].map(|n| self.live.len(player, n) as i64);
        let w = &self.weights;
        let c1 = (self.scores[player] - w[2] * c2 - w[3] * c3 - w[4] * c4 - w[5] * c5) / w[1];
        [c1, c2, c3, c4]
    }

    /// `player`'s live windows by stone count, 0 to `k`, read from every window's
    /// tally (tests).
    #[cfg(test)]
    pub fn live_counts_scanned(&self, player: usize) -> Vec<i64> {
        let mut counts = vec![0; self.k + 1];
        for t in &self.tallies {
            if t[BLOCKS + player] == 0 {
                counts[t[player] as usize] += 1;
            }
        }
        counts
    }

    /// Places a stone of the side to move on the empty `cell` and passes the turn.
    #[inline]
    pub fn play(&mut self, cell: usize) {
        let p = self.to_move;
        self.place(cell, p);
        self.to_move = 1 - p;
    }

    /// Takes back the last move, which filled `cell`.
    #[inline]
    pub fn unplay(&mut self, cell: usize) {
        let p = 1 - self.to_move;
        self.remove(cell, p);
        self.to_move = p;
        self.winner = None;
    }

    /// Places a stone of `player` on the empty `cell` without touching the turn
    /// (the threat searches let one side move several times).
    #[inline]
    pub fn put(&mut self, cell: usize, player: usize) {
        self.place(cell, player);
    }

    /// Takes back [`ThreatBoard::put`].
    #[inline]
    pub fn take(&mut self, cell: usize, player: usize) {
        self.remove(cell, player);
        self.winner = None;
    }

    /// Whether the lists of live windows match the window counts (tests).
    #[cfg(test)]
    pub fn live_lists_match(&self) -> bool {
        self.live.matches(&self.tallies)
    }

    /// Whether `player` has a live window of `k - 1` stones (and an empty cell).
    #[inline]
    pub fn has_threat(&self, player: usize) -> bool {
        self.open_fours[player] > 0
    }

    /// The first two distinct cells where a stone of `player` completes a line.
    pub fn threat_pair(&mut self, player: usize) -> (Option<usize>, Option<usize>) {
        if self.open_fours[player] == 0 {
            return (None, None);
        }
        let need = self.k as u8 - 1;
        let mut first = None;
        if self.live.lists_from(need as usize) {
            // The listed fours, in window order: the same cells as the scan below.
            self.live
                .windows_with(player, need as usize, need as usize, &mut self.listed);
            for i in 0..self.listed.len() {
                let wi = self.listed[i] as usize;
                let cell = self.empty_cells_of(wi).next().expect("one cell is empty");
                match first {
                    None => first = Some(cell),
                    Some(f) if f != cell => return (first, Some(cell)),
                    Some(_) => {}
                }
            }
            return (first, None);
        }
        for wi in 0..self.windows.len() {
            let t = self.tallies[wi];
            if t[player] == need && t[BLOCKS + player] == 0 {
                let cell = self.empty_cells_of(wi).next().expect("one cell is empty");
                match first {
                    None => first = Some(cell),
                    Some(f) if f != cell => return (first, Some(cell)),
                    Some(_) => {}
                }
            }
        }
        (first, None)
    }

    /// The distinct empty cells of `player`'s live windows holding `min..=max`
    /// of its stones, appended to `out` (after the cells already in it). With `k - 2` (both
    /// bounds) these are `player`'s fours; with `k - 3`, the moves that make a
    /// window of `k - 2`.
    pub fn cells_of_windows_with(
        &mut self,
        player: usize,
        min: usize,
        max: usize,
        out: &mut Vec<usize>,
    ) {
        self.next_mark();
        for &cell in out.iter() {
            self.marks[cell] = self.mark;
        }
        if self.live.lists_from(min) {
            // The listed windows, in window order: the same cells as the scan below.
            self.live.windows_with(player, min, max, &mut self.listed);
            for i in 0..self.listed.len() {
                let wi = self.listed[i] as usize;
                for cell in self.windows.window(wi).cells(self.k) {
                    if self.cells[cell] == 0 && self.marks[cell] != self.mark {
                        self.marks[cell] = self.mark;
                        out.push(cell);
                    }
                }
            }
            return;
        }
        for wi in 0..self.windows.len() {
            let t = self.tallies[wi];
            if (min..=max).contains(&(t[player] as usize)) && t[BLOCKS + player] == 0 {
                for cell in self.windows.window(wi).cells(self.k) {
                    if self.cells[cell] == 0 && self.marks[cell] != self.mark {
                        self.marks[cell] = self.mark;
                        out.push(cell);
                    }
                }
            }
        }
    }

    /// Whether a stone of `player` on the empty `cell` makes a live window of
    /// `k - 1` (a four), and whether it completes a line.
    pub fn four_or_win(&self, cell: usize, player: usize) -> (bool, bool) {
        let k = self.k as u8;
        let (mut four, mut win) = (false, false);
        for &wi in self.windows_through(cell) {
            let t = self.tallies[wi as usize];
            if t[BLOCKS + player] == 0 {
                four |= t[player] + 2 == k;
                win |= t[player] + 1 == k;
            }
        }
        (four, win)
    }

    /// Whether renju forbids black the empty `cell` here (an overline, a double
    /// four or a double three not making exactly five); never under the other rules.
    #[inline]
    pub fn forbidden(&mut self, cell: usize) -> bool {
        let w = self.rules.width();
        match self.renju.as_mut() {
            Some(grid) => grid.forbidden(cell / w, cell % w).is_some(),
            None => false,
        }
    }

    /// Whether `player` may play the empty `cell` (renju forbids black some cells).
    #[inline]
    pub fn allowed(&mut self, cell: usize, player: usize) -> bool {
        player != 0 || self.renju.is_none() || !self.forbidden(cell)
    }

    /// Whether the rule forbids `player` some cells (black under renju).
    #[inline]
    pub fn restricted(&self, player: usize) -> bool {
        player == 0 && self.renju.is_some()
    }

    /// How much a stone of `player` on the empty `cell` is worth for ordering:
    /// the weight it adds to `player`'s windows plus the weight it takes from the other's.
    pub fn move_value(&self, cell: usize, player: usize) -> i64 {
        let mut value = 0;
        for &wi in self.windows_through(cell) {
            let t = self.tallies[wi as usize];
            let (mine, theirs) = (t[player] as usize, t[1 - player] as usize);
            if t[BLOCKS + player] == 0 {
                value += self.weights[mine + 1] - self.weights[mine];
            }
            if t[BLOCKS + 1 - player] == 0 {
                value += self.weights[theirs];
            }
        }
        value
    }

    /// The windows through the empty `cell` by what a stone of `player` there
    /// does to them: `[n]` for the windows free of the other's stones holding `n`
    /// of `player`'s (`n < 5`: those it extends), `[5 + n]` for those free of
    /// `player`'s holding `n` of the other's (those it blocks). The learned move
    /// ordering's line features; `k` above 5 counts its longer windows in `[4]`
    /// and `[9]`.
    pub fn window_profile(&self, cell: usize, player: usize) -> [u32; 10] {
        let mut profile = [0u32; 10];
        for &wi in self.windows_through(cell) {
            let t = self.tallies[wi as usize];
            let (mine, theirs) = (t[player] as usize, t[1 - player] as usize);
            if t[BLOCKS + player] == 0 {
                profile[mine.min(4)] += 1;
            }
            if t[BLOCKS + 1 - player] == 0 {
                profile[5 + theirs.min(4)] += 1;
            }
        }
        profile
    }

    #[inline]
    fn windows_through(&self, cell: usize) -> &[u32] {
        self.windows.through(cell)
    }

    fn empty_cells_of(&self, wi: usize) -> impl Iterator<Item = usize> + '_ {
        self.windows
            .window(wi)
            .cells(self.k)
            .filter(|&cell| self.cells[cell] == 0)
    }

    fn next_mark(&mut self) {
        self.mark = self.mark.wrapping_add(1);
        if self.mark == 0 {
            self.marks.fill(0);
            self.mark = 1;
        }
    }

    fn place(&mut self, cell: usize, p: usize) {
        self.cells[cell] = p as u8 + 1;
        self.stones += 1;
        self.hash ^= self.zobrist[cell][p];
        if self.any_exact {
            self.place_exact(cell, p);
        } else {
            self.place_free(cell, p);
        }
    }

    fn remove(&mut self, cell: usize, p: usize) {
        self.cells[cell] = 0;
        self.stones -= 1;
        self.hash ^= self.zobrist[cell][p];
        if self.any_exact {
            self.remove_exact(cell, p);
        } else {
            self.remove_free(cell, p);
        }
    }

    /// The windows through `cell` after `p`'s stone lands there, freestyle: a
    /// player's blocks are the other's stones.
    #[inline]
    fn place_free(&mut self, cell: usize, p: usize) {
        let k = self.k as u8;
        for &wi in self.windows.through(cell) {
            let t = &mut self.tallies[wi as usize];
            let old = *t;
            let (mine, theirs) = (t[p], t[1 - p]);
            if theirs == 0 {
                self.scores[p] += self.weights[mine as usize + 1] - self.weights[mine as usize];
                if mine + 1 == k - 1 {
                    self.open_fours[p] += 1;
                } else if mine + 1 == k {
                    self.open_fours[p] -= 1;
                    self.winner = Some(p);
                }
                if k == 1 {
                    // The empty one-cell window was the other player's too.
                    self.open_fours[1 - p] -= 1;
                }
            } else if mine == 0 {
                self.scores[1 - p] -= self.weights[theirs as usize];
                if theirs + 1 == k {
                    self.open_fours[1 - p] -= 1;
                }
            }
            *t = (u32::from_ne_bytes(*t) + FREE_STONE[p]).to_ne_bytes();
            let new = *t;
            self.live.update(wi, old, new);
        }
    }

    /// [`ThreatBoard::place_free`] taken back.
    #[inline]
    fn remove_free(&mut self, cell: usize, p: usize) {
        let k = self.k as u8;
        for &wi in self.windows.through(cell) {
            let t = &mut self.tallies[wi as usize];
            let old = *t;
            *t = (u32::from_ne_bytes(*t) - FREE_STONE[p]).to_ne_bytes();
            let new = *t;
            self.live.update(wi, old, new);
            let (mine, theirs) = (new[p], new[1 - p]);
            if theirs == 0 {
                self.scores[p] -= self.weights[mine as usize + 1] - self.weights[mine as usize];
                if mine + 1 == k - 1 {
                    self.open_fours[p] -= 1;
                } else if mine + 1 == k {
                    self.open_fours[p] += 1;
                }
                if k == 1 {
                    self.open_fours[1 - p] += 1;
                }
            } else if mine == 0 {
                self.scores[1 - p] += self.weights[theirs as usize];
                if theirs + 1 == k {
                    self.open_fours[1 - p] += 1;
                }
            }
        }
    }

    /// The windows through and flanked by `cell` after `p`'s stone lands there,
    /// where some player's lines are exact; the judge's copy under renju.
    fn place_exact(&mut self, cell: usize, p: usize) {
        let k = self.k as u8;
        let q = 1 - p;
        for &wi in self.windows.through(cell) {
            let t = &mut self.tallies[wi as usize];
            let old = *t;
            let mine = t[p];
            if t[BLOCKS + p] == 0 {
                self.scores[p] += self.weights[mine as usize + 1] - self.weights[mine as usize];
                if mine + 1 == k - 1 {
                    self.open_fours[p] += 1;
                } else if mine + 1 == k {
                    self.open_fours[p] -= 1;
                    self.winner = Some(p);
                }
            }
            if t[BLOCKS + q] == 0 {
                // The window was the other player's (with k = 1, an empty one too).
                let theirs = t[q];
                self.scores[q] -= self.weights[theirs as usize];
                if theirs + 1 == k {
                    self.open_fours[q] -= 1;
                }
            }
            // Word arithmetic: byte stores at a run-time index, read back as a
            // word, would stall store forwarding.
            let new = (u32::from_ne_bytes(old) + FREE_STONE[p]).to_ne_bytes();
            *t = new;
            self.live.update(wi, old, new);
        }
        if self.exact[p] {
            for &wi in self.windows.flanked_by(cell) {
                let t = &mut self.tallies[wi as usize];
                let old = *t;
                if t[BLOCKS + p] == 0 {
                    let mine = t[p];
                    self.scores[p] -= self.weights[mine as usize];
                    if mine + 1 == k {
                        self.open_fours[p] -= 1;
                    }
                }
                let new = (u32::from_ne_bytes(old) + FLANK_BLOCK[p]).to_ne_bytes();
                *t = new;
                self.live.update(wi, old, new);
            }
        }
        if let Some(grid) = self.renju.as_mut() {
            let w = self.rules.width();
            grid.set(cell / w, cell % w, p as u8 + 1);
        }
    }

    /// [`ThreatBoard::place_exact`] taken back.
    fn remove_exact(&mut self, cell: usize, p: usize) {
        let k = self.k as u8;
        let q = 1 - p;
        for &wi in self.windows.through(cell) {
            let t = &mut self.tallies[wi as usize];
            let old = *t;
            let mine = old[p] - 1;
            let new = (u32::from_ne_bytes(old) - FREE_STONE[p]).to_ne_bytes();
            *t = new;
            self.live.update(wi, old, new);
            let t = new;
            if t[BLOCKS + p] == 0 {
                self.scores[p] -= self.weights[mine as usize + 1] - self.weights[mine as usize];
                if mine + 1 == k - 1 {
                    self.open_fours[p] -= 1;
                } else if mine + 1 == k {
                    self.open_fours[p] += 1;
                }
            }
            if t[BLOCKS + q] == 0 {
                let theirs = t[q];
                self.scores[q] += self.weights[theirs as usize];
                if theirs + 1 == k {
                    self.open_fours[q] += 1;
                }
            }
        }
        if self.exact[p] {
            for &wi in self.windows.flanked_by(cell) {
                let t = &mut self.tallies[wi as usize];
                let old = *t;
                let new = (u32::from_ne_bytes(old) - FLANK_BLOCK[p]).to_ne_bytes();
                *t = new;
                self.live.update(wi, old, new);
                if new[BLOCKS + p] == 0 {
                    let mine = new[p];
                    self.scores[p] += self.weights[mine as usize];
                    if mine + 1 == k {
                        self.open_fours[p] += 1;
                    }
                }
            }
        }
        if let Some(grid) = self.renju.as_mut() {
            let w = self.rules.width();
            grid.set(cell / w, cell % w, 0);
        }
    }
}

/// Each player's open fours on an empty board: with `k = 1` every (one-cell)
/// window already holds `k - 1 = 0` stones and an empty cell.
fn empty_open_fours(k: usize, windows: usize) -> u32 {
    if k == 1 {
        windows as u32
    } else {
        0
    }
}
