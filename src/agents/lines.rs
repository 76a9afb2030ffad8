//! A board for the agents' look-ahead: every line window of `k` cells, with each
//! player's stone count per window, kept up to date move by move.
//!
//! A *window* is `k` consecutive cells along a row, a column or a diagonal. A
//! window is *open* for a player when it holds stones of that player only. The
//! evaluation of a player sums, over its open windows, `weight(n) = 4^(n-1)` for
//! `n` of its stones in the window (`n >= 1`; the exponent stops growing at 15, so
//! a window of 16 or more stones weighs `4^15`). Completing a window of `k` is a
//! win. Any rules: any size, any `k`, 2 to 16 players, gravity or not.

use crate::game::Game;
use crate::lines::WindowTable;
use crate::rules::Rules;

/// The weight of an open window holding `n` stones of one player.
pub fn window_weight(n: usize) -> i64 {
    if n == 0 {
        0
    } else {
        1i64 << (2 * (n - 1).min(15))
    }
}

/// The windows of a rule set ([`WindowTable`]), built once per rules.
#[derive(Clone, Debug)]
pub struct Windows {
    rules: Rules,
    table: WindowTable,
}

impl Windows {
    pub fn new(rules: Rules) -> Windows {
        Windows {
            rules,
            table: WindowTable::new(rules.width(), rules.height(), rules.k()),
        }
    }

    /// The windows through `cell` (`row * width + col`).
    #[inline]
    pub fn through(&self, cell: usize) -> &[u32] {
        self.table.through(cell)
    }
}

/// A position with per-window stone counts and per-player evaluations.
#[derive(Clone, Debug)]
pub struct LineBoard {
    windows: Windows,
    /// Owner per cell, row-major from the top: 0 empty, else 1-based player.
    cells: Vec<u8>,
    /// Stones per column.
    heights: Vec<u8>,
    /// `counts[window * players + p]`: stones of player `p` in the window.
    counts: Vec<u8>,
    /// Stones of all players in each window.
    totals: Vec<u8>,
    /// Sum of the weights of each player's open windows.
    scores: Vec<i64>,
    stones: usize,
    to_move: usize,
    winner: Option<usize>,
}

impl LineBoard {
    pub fn new(rules: Rules) -> LineBoard {
        let windows = Windows::new(rules);
        let n = windows.table.len();
        LineBoard {
            cells: vec![0; rules.num_cells()],
            heights: vec![0; rules.width()],
            counts: vec![0; n * rules.players()],
            totals: vec![0; n],
            scores: vec![0; rules.players()],
            stones: 0,
            to_move: 0,
            winner: None,
            windows,
        }
    }

    pub fn rules(&self) -> &Rules {
        &self.windows.rules
    }

    /// Sets this board to `game`'s position (rules must match; keeps allocations).
    pub fn load(&mut self, game: &Game) {
        debug_assert_eq!(game.rules(), self.rules());
        self.cells.fill(0);
        self.heights.fill(0);
        self.counts.fill(0);
        self.totals.fill(0);
        self.scores.fill(0);
        self.stones = 0;
        self.winner = None;
        let (w, h) = (self.rules().width(), self.rules().height());
        for row in 0..h {
            for col in 0..w {
                let owner = game.owner(row, col);
                if owner != 0 {
                    self.place(row * w + col, owner as usize - 1);
                    self.heights[col] += 1;
                }
            }
        }
        self.to_move = game.to_move();
        self.winner = game.winner();
    }

    pub fn to_move(&self) -> usize {
        self.to_move
    }
    pub fn winner(&self) -> Option<usize> {
        self.winner
    }
    pub fn is_over(&self) -> bool {
        self.winner.is_some() || self.stones == self.cells.len()
    }
    /// The evaluation of `player`: the sum of the weights of its open windows.
    pub fn score(&self, player: usize) -> i64 {
        self.scores[player]
    }
    pub fn stones(&self) -> usize {
        self.stones
    }

    /// The cell an action fills, if the action is legal.
    #[inline]
    pub fn cell_of(&self, action: usize) -> Option<usize> {
        let r = self.rules();
        let (w, h) = (r.width(), r.height());
        if self.is_over() {
            return None;
        }
        if r.gravity() {
            let filled = *self.heights.get(action)? as usize;
            (filled < h).then(|| (h - 1 - filled) * w + action)
        } else {
            (action < self.cells.len() && self.cells[action] == 0).then_some(action)
        }
    }

    /// Legal actions in ascending order.
    pub fn legal_actions(&self, out: &mut Vec<usize>) {
        out.clear();
        if self.is_over() {
            return;
        }
        let r = self.rules();
        if r.gravity() {
            out.extend((0..r.width()).filter(|&c| (self.heights[c] as usize) < r.height()));
        } else {
            out.extend((0..self.cells.len()).filter(|&c| self.cells[c] == 0));
        }
    }

    /// Fills `cell` (the cell of a legal action: see [`LineBoard::cell_of`]) for the side to move.
    #[inline]
    pub fn play(&mut self, cell: usize) {
        let p = self.to_move;
        self.place(cell, p);
        let col = cell % self.rules().width();
        self.heights[col] += 1;
        self.to_move = if p + 1 == self.rules().players() {
            0
        } else {
            p + 1
        };
    }

    /// Takes back the last move, which filled `cell`.
    #[inline]
    pub fn unplay(&mut self, cell: usize) {
        let players = self.rules().players();
        let p = (self.to_move + players - 1) % players;
        self.remove(cell, p);
        let col = cell % self.rules().width();
        self.heights[col] -= 1;
        self.to_move = p;
        self.winner = None;
    }

    /// Whether `player` completes a line by a stone on the empty `cell`.
    #[inline]
    pub fn completes_line(&self, cell: usize, player: usize) -> bool {
        let (k, players) = (self.rules().k(), self.rules().players());
        self.windows.through(cell).iter().any(|&wi| {
            let wi = wi as usize;
            self.totals[wi] as usize == k - 1
                && self.counts[wi * players + player] as usize == k - 1
        })
    }

    /// How much a stone of `player` on the empty `cell` is worth for ordering moves:
    /// the weights it adds to `player`'s open windows plus those it takes from the
    /// windows it blocks.
    pub fn move_value(&self, cell: usize, player: usize) -> i64 {
        let players = self.rules().players();
        let mut value = 0;
        for &wi in self.windows.through(cell) {
            let wi = wi as usize;
            let total = self.totals[wi] as usize;
            let mine = self.counts[wi * players + player] as usize;
            if total == mine {
                value += window_weight(mine + 1) - window_weight(mine);
            } else if let Some(other) = self.sole_owner(wi) {
                value += window_weight(self.counts[wi * players + other] as usize);
            }
        }
        value
    }

    /// The one player holding every stone of a non-empty window, if any.
    #[inline]
    fn sole_owner(&self, wi: usize) -> Option<usize> {
        let players = self.rules().players();
        let total = self.totals[wi];
        if total == 0 {
            return None;
        }
        (0..players).find(|&p| self.counts[wi * players + p] == total)
    }

    /// The cell's owner (0 empty, else 1-based player).
    pub fn owner(&self, cell: usize) -> u8 {
        self.cells[cell]
    }

    /// The lowest empty cell of a column with gravity (the only playable one).
    pub fn playable_cell(&self, col: usize) -> Option<usize> {
        let r = self.rules();
        let filled = self.heights[col] as usize;
        (filled < r.height()).then(|| (r.height() - 1 - filled) * r.width() + col)
    }

    fn place(&mut self, cell: usize, p: usize) {
        let (k, players) = (self.rules().k(), self.rules().players());
        self.cells[cell] = p as u8 + 1;
        self.stones += 1;
        for &wi in self.windows.through(cell) {
            let wi = wi as usize;
            let before = self.sole_owner(wi);
            if let Some(q) = before {
                self.scores[q] -= window_weight(self.counts[wi * players + q] as usize);
            }
            self.counts[wi * players + p] += 1;
            self.totals[wi] += 1;
            let mine = self.counts[wi * players + p];
            if mine == self.totals[wi] {
                self.scores[p] += window_weight(mine as usize);
                if mine as usize == k {
                    self.winner = Some(p);
                }
            }
        }
    }

    fn remove(&mut self, cell: usize, p: usize) {
        let players = self.rules().players();
        self.cells[cell] = 0;
        self.stones -= 1;
        for &wi in self.windows.through(cell) {
            let wi = wi as usize;
            let mine = self.counts[wi * players + p];
            if mine == self.totals[wi] {
                self.scores[p] -= window_weight(mine as usize);
            }
            self.counts[wi * players + p] -= 1;
            self.totals[wi] -= 1;
            if let Some(q) = self.sole_owner(wi) {
                self.scores[q] += window_weight(self.counts[wi * players + q] as usize);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// The evaluation recomputed from scratch, window by window.
    fn brute_scores(board: &LineBoard) -> Vec<i64> {
        let r = *board.rules();
        let (w, h, k, players) = (r.width(), r.height(), r.k(), r.players());
        let mut scores = vec![0i64; players];
        // k = 1: a cell is one window, not four.
        let directions: &[(isize, isize)] = if k == 1 {
            &[(0, 1)]
        } else {
            &[(0, 1), (1, 0), (1, 1), (1, -1)]
        };
        for &(dr, dc) in directions {
            for row in 0..h as isize {
                for col in 0..w as isize {
                    let cells: Option<Vec<u8>> = (0..k as isize)
                        .map(|i| {
                            let (rr, cc) = (row + dr * i, col + dc * i);
                            ((0..h as isize).contains(&rr) && (0..w as isize).contains(&cc))
                                .then(|| board.owner(rr as usize * w + cc as usize))
                        })
                        .collect();
                    let Some(cells) = cells else { continue };
                    let owners: Vec<u8> = cells.iter().copied().filter(|&c| c != 0).collect();
                    if let Some(&first) = owners.first() {
                        if owners.iter().all(|&o| o == first) {
                            scores[first as usize - 1] += window_weight(owners.len());
                        }
                    }
                }
            }
        }
        scores
    }

    #[test]
    fn incremental_scores_and_wins_match_a_recount_on_random_games() {
        let mut rng = Rng::new(3, 0);
        for rules in [
            Rules::connect_four(),
            Rules::tic_tac_toe(),
            Rules::new(6, 5, 3, 3, false).unwrap(),
            Rules::new(5, 7, 4, 4, true).unwrap(),
            Rules::new(4, 4, 1, 2, false).unwrap(),
        ] {
            for _ in 0..50 {
                let mut game = Game::new(rules);
                let mut board = LineBoard::new(rules);
                let mut played = Vec::new();
                while !game.is_over() {
                    let legal = game.legal_actions();
                    let a = legal[rng.below(legal.len() as u32) as usize];
                    let cell = board.cell_of(a).expect("legal in both");
                    board.play(cell);
                    game.play(a).unwrap();
                    played.push(cell);
                    assert_eq!(board.winner(), game.winner());
                    assert_eq!(board.is_over(), game.is_over());
                    assert_eq!(board.to_move(), game.to_move());
                    let brute = brute_scores(&board);
                    for (p, &s) in brute.iter().enumerate() {
                        assert_eq!(board.score(p), s);
                    }
                }
                let mut loaded = LineBoard::new(rules);
                loaded.load(&game);
                assert_eq!(loaded.winner(), game.winner());
                assert_eq!(loaded.scores, board.scores);
                assert_eq!(loaded.heights, board.heights);
                assert_eq!(loaded.cells, board.cells);
                while let Some(cell) = played.pop() {
                    board.unplay(cell);
                }
                assert!(board.scores.iter().all(|&s| s == 0));
                assert!(board.counts.iter().all(|&c| c == 0));
            }
        }
    }

    #[test]
    fn completes_line_agrees_with_playing_the_move() {
        let mut rng = Rng::new(4, 0);
        let rules = Rules::new(6, 6, 4, 3, false).unwrap();
        for _ in 0..100 {
            let mut game = Game::new(rules);
            let mut board = LineBoard::new(rules);
            while !game.is_over() {
                for cell in 0..rules.num_cells() {
                    if board.owner(cell) != 0 {
                        continue;
                    }
                    let mut g = game.clone();
                    let expect = g.play(cell).unwrap();
                    assert_eq!(board.completes_line(cell, game.to_move()), expect);
                }
                let legal = game.legal_actions();
                let a = legal[rng.below(legal.len() as u32) as usize];
                board.play(a);
                game.play(a).unwrap();
            }
        }
    }
}
