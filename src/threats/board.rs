//! The threat engine's board: two players placing freely, every window of `k`
//! cells with each player's stone count, a Zobrist key and a line evaluation,
//! all kept up to date on make and unmake.
//!
//! A *window* is `k` consecutive cells of a row, a column or a diagonal. A player
//! *threatens* a cell when a window through it holds `k - 1` of the player's
//! stones and nothing else: a stone there completes a line. A *four* (for any
//! `k`: a threat of `k - 1`) is a move that creates such a cell.

use crate::game::Game;
use crate::lines::WindowTable;
use crate::rng::splitmix64;
use crate::rules::Rules;

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

/// A free-placement position of two players (see the module docs).
#[derive(Clone, Debug)]
pub struct ThreatBoard {
    rules: Rules,
    k: usize,
    windows: WindowTable,
    /// `counts[window][p]`: stones of player `p` in the window.
    counts: Vec<[u8; 2]>,
    /// Owner per cell, row-major: 0 empty, else 1-based player.
    cells: Vec<u8>,
    zobrist: Vec<[u64; 2]>,
    /// `weights[n]`: the weight of a window of `n` stones of one player only.
    weights: Vec<i64>,
    hash: u64,
    /// Sum of the weights of each player's pure windows.
    scores: [i64; 2],
    /// Windows holding `k - 1` stones of one player and none of the other, per player.
    open_fours: [u32; 2],
    stones: usize,
    to_move: usize,
    winner: Option<usize>,
    /// Scratch marks for collecting distinct cells.
    marks: Vec<u32>,
    mark: u32,
}

impl ThreatBoard {
    /// An empty board for `rules` (2 players, no gravity: the caller checks).
    pub fn new(rules: Rules) -> ThreatBoard {
        let (w, h, k) = (rules.width(), rules.height(), rules.k());
        let windows = WindowTable::new(w, h, k);
        let zobrist = (0..w * h)
            .map(|c| {
                let base = splitmix64(0x7448_5245_4154_5300 ^ c as u64);
                [splitmix64(base), splitmix64(base ^ 1)]
            })
            .collect();
        let open_fours = [empty_open_fours(k, windows.len()); 2];
        ThreatBoard {
            rules,
            k,
            counts: vec![[0; 2]; windows.len()],
            windows,
            cells: vec![0; w * h],
            zobrist,
            weights: window_weights(k),
            hash: 0,
            scores: [0; 2],
            open_fours,
            stones: 0,
            to_move: 0,
            winner: None,
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
        self.counts.fill([0; 2]);
        self.cells.fill(0);
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
    /// The cell's owner: 0 empty, else 1-based player.
    #[inline]
    pub fn owner(&self, cell: usize) -> u8 {
        self.cells[cell]
    }
    #[inline]
    pub fn is_empty(&self, cell: usize) -> bool {
        self.cells[cell] == 0
    }
    /// The sum of the weights of `player`'s windows that hold no stone of the other.
    pub fn score(&self, player: usize) -> i64 {
        self.scores[player]
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

    /// Whether `player` has a window of `k - 1` stones and an empty cell.
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
        for wi in 0..self.windows.len() {
            let c = self.counts[wi];
            if c[player] == need && c[1 - player] == 0 {
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

    /// The distinct empty cells of the windows holding `min..=max` stones of
    /// `player` and none of the other, appended to `out`. With `k - 2` (both
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
        for wi in 0..self.windows.len() {
            let c = self.counts[wi];
            if (min..=max).contains(&(c[player] as usize)) && c[1 - player] == 0 {
                for cell in self.windows.window(wi).cells(self.k) {
                    if self.cells[cell] == 0 && self.marks[cell] != self.mark {
                        self.marks[cell] = self.mark;
                        out.push(cell);
                    }
                }
            }
        }
    }

    /// Whether a stone of `player` on the empty `cell` makes a window of `k - 1`
    /// (a four), and whether it completes a line.
    pub fn four_or_win(&self, cell: usize, player: usize) -> (bool, bool) {
        let k = self.k as u8;
        let (mut four, mut win) = (false, false);
        for &wi in self.windows_through(cell) {
            let c = self.counts[wi as usize];
            if c[1 - player] == 0 {
                four |= c[player] + 2 == k;
                win |= c[player] + 1 == k;
            }
        }
        (four, win)
    }

    /// How much a stone of `player` on the empty `cell` is worth for ordering:
    /// the weight it adds to `player`'s windows plus the weight it takes from the other's.
    pub fn move_value(&self, cell: usize, player: usize) -> i64 {
        let mut value = 0;
        for &wi in self.windows_through(cell) {
            let c = self.counts[wi as usize];
            let (mine, theirs) = (c[player] as usize, c[1 - player] as usize);
            if theirs == 0 {
                value += self.weights[mine + 1] - self.weights[mine];
            } else if mine == 0 {
                value += self.weights[theirs];
            }
        }
        value
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
        let k = self.k as u8;
        self.cells[cell] = p as u8 + 1;
        self.stones += 1;
        self.hash ^= self.zobrist[cell][p];
        for &wi in self.windows.through(cell) {
            let wi = wi as usize;
            let c = self.counts[wi];
            let (mine, theirs) = (c[p], c[1 - p]);
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
            self.counts[wi][p] = mine + 1;
        }
    }

    fn remove(&mut self, cell: usize, p: usize) {
        let k = self.k as u8;
        self.cells[cell] = 0;
        self.stones -= 1;
        self.hash ^= self.zobrist[cell][p];
        for &wi in self.windows.through(cell) {
            let wi = wi as usize;
            let c = self.counts[wi];
            let (mine, theirs) = (c[p] - 1, c[1 - p]);
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
            self.counts[wi][p] = mine;
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
