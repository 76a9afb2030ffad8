//! A board for the agents' look-ahead: every line window of `k` cells, with each
//! player's stone count per window, kept up to date move by move.
//!
//! A *window* is `k` consecutive cells along a row, a column or a diagonal. A
//! window is *open* for a player when it holds stones of that player only and,
//! where the rule makes the player's lines exactly `k` long
//! ([`crate::lines::line_is_exact`]), neither of its flanks (the cells just beyond
//! its ends) holds the player's stone: filling it would make an overline, no line.
//! The evaluation of a player sums, over its open windows, `weight(n) = 4^(n-1)`
//! for `n` of its stones in the window (`n >= 1`; the exponent stops growing at
//! 15, so a window of 16 or more stones weighs `4^15`). Completing an open window
//! is a win. Under renju black's forbidden cells are no legal move (the judge,
//! [`crate::lines::renju`], on a copy of the board). Any rules: any size, any `k`,
//! 2 to 16 players, gravity or not, every win rule.

use crate::game::Game;
use crate::lines::renju::{Grid, BLACK, WHITE};
use crate::lines::{line_is_exact, WindowTable};
use crate::rules::{Rules, WinRule};

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
            table: WindowTable::new(
                rules.width(),
                rules.height(),
                rules.k(),
                !rules.is_freestyle(),
            ),
        }
    }

    /// The windows through `cell` (`row * width + col`).
    #[inline]
    pub fn through(&self, cell: usize) -> &[u32] {
        self.table.through(cell)
    }
}

/// The stones and the per-window counts and evaluations (apart from the window
/// table, which the updates read while they write here).
#[derive(Clone, Debug)]
struct Tally {
    /// Owner per cell, row-major from the top: 0 empty, else 1-based player.
    cells: Vec<u8>,
    /// `counts[window * players + p]`: stones of player `p` in the window.
    counts: Vec<u8>,
    /// Stones of all players in each window.
    totals: Vec<u8>,
    /// Sum of the weights of each player's open windows.
    scores: Vec<i64>,
    players: usize,
    k: usize,
    /// Bit `p` set: player `p`'s lines must be exactly `k` long.
    exact: u32,
}

impl Tally {
    /// The one player holding every stone of a non-empty window, if any.
    #[inline]
    fn sole_owner(&self, wi: usize) -> Option<usize> {
        let total = self.totals[wi];
        if total == 0 {
            return None;
        }
        (0..self.players).find(|&p| self.counts[wi * self.players + p] == total)
    }

    /// Whether `player` must be exact and a flank of window `wi` holds its stone
    /// (the window is then no line for it, full or not).
    #[inline]
    fn overlined(&self, table: &WindowTable, wi: usize, player: usize) -> bool {
        self.exact >> player & 1 == 1
            && table.flank_holds(wi, |cell| self.cells[cell] as usize == player + 1)
    }

    /// The player window `wi` is open for and its weight, if any.
    #[inline]
    fn contribution(&self, table: &WindowTable, wi: usize) -> Option<(usize, i64)> {
        let q = self.sole_owner(wi)?;
        if self.overlined(table, wi, q) {
            return None;
        }
        Some((
            q,
            window_weight(self.counts[wi * self.players + q] as usize),
        ))
    }

    /// Adds (`sign` 1) or takes away (`sign` -1) what window `wi` adds to the scores.
    #[inline]
    fn count_window(&mut self, table: &WindowTable, wi: usize, sign: i64) {
        if let Some((q, weight)) = self.contribution(table, wi) {
            self.scores[q] += sign * weight;
        }
    }

    /// Puts `p`'s stone on the empty `cell`; whether it completes a line.
    fn place(&mut self, table: &WindowTable, cell: usize, p: usize) -> bool {
        if self.exact == 0 {
            return self.place_freestyle(table, cell, p);
        }
        // The windows this cell flanks change only for exact players.
        for &wi in table.flanked_by(cell) {
            self.count_window(table, wi as usize, -1);
        }
        self.cells[cell] = p as u8 + 1;
        let mut won = false;
        for &wi in table.through(cell) {
            let wi = wi as usize;
            self.count_window(table, wi, -1);
            self.counts[wi * self.players + p] += 1;
            self.totals[wi] += 1;
            self.count_window(table, wi, 1);
            won |= self.counts[wi * self.players + p] as usize == self.k
                && !self.overlined(table, wi, p);
        }
        for &wi in table.flanked_by(cell) {
            self.count_window(table, wi as usize, 1);
        }
        won
    }

    /// [`Tally::place`] where no player is exact: no flank matters, and a window's
    /// weight changes only from its sole owner's count.
    #[inline]
    fn place_freestyle(&mut self, table: &WindowTable, cell: usize, p: usize) -> bool {
        let players = self.players;
        self.cells[cell] = p as u8 + 1;
        let mut won = false;
        for &wi in table.through(cell) {
            let wi = wi as usize;
            if let Some(q) = self.sole_owner(wi) {
                self.scores[q] -= window_weight(self.counts[wi * players + q] as usize);
            }
            self.counts[wi * players + p] += 1;
            self.totals[wi] += 1;
            let mine = self.counts[wi * players + p];
            if mine == self.totals[wi] {
                self.scores[p] += window_weight(mine as usize);
                won |= mine as usize == self.k;
            }
        }
        won
    }

    /// Takes `p`'s stone off `cell`.
    fn remove(&mut self, table: &WindowTable, cell: usize, p: usize) {
        if self.exact == 0 {
            return self.remove_freestyle(table, cell, p);
        }
        for &wi in table.flanked_by(cell) {
            self.count_window(table, wi as usize, -1);
        }
        for &wi in table.through(cell) {
            let wi = wi as usize;
            self.count_window(table, wi, -1);
            self.counts[wi * self.players + p] -= 1;
            self.totals[wi] -= 1;
            self.count_window(table, wi, 1);
        }
        self.cells[cell] = 0;
        for &wi in table.flanked_by(cell) {
            self.count_window(table, wi as usize, 1);
        }
    }

    /// [`Tally::remove`] where no player is exact.
    #[inline]
    fn remove_freestyle(&mut self, table: &WindowTable, cell: usize, p: usize) {
        let players = self.players;
        self.cells[cell] = 0;
        for &wi in table.through(cell) {
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

/// A position with per-window stone counts and per-player evaluations.
#[derive(Clone, Debug)]
pub struct LineBoard {
    windows: Windows,
    tally: Tally,
    /// Stones per column.
    heights: Vec<u8>,
    /// Renju: the board as the forbidden-move judge reads it.
    renju: Option<Grid>,
    stones: usize,
    to_move: usize,
    winner: Option<usize>,
}

impl LineBoard {
    pub fn new(rules: Rules) -> LineBoard {
        let windows = Windows::new(rules);
        let n = windows.table.len();
        let exact = (0..rules.players())
            .filter(|&p| line_is_exact(rules.rule(), p))
            .fold(0u32, |mask, p| mask | 1 << p);
        LineBoard {
            tally: Tally {
                cells: vec![0; rules.num_cells()],
                counts: vec![0; n * rules.players()],
                totals: vec![0; n],
                scores: vec![0; rules.players()],
                players: rules.players(),
                k: rules.k(),
                exact,
            },
            heights: vec![0; rules.width()],
            renju: (rules.rule() == WinRule::Renju)
                .then(|| Grid::new(rules.width(), rules.height())),
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
        let (w, h) = (self.rules().width(), self.rules().height());
        self.tally.cells.fill(0);
        self.tally.counts.fill(0);
        self.tally.totals.fill(0);
        self.tally.scores.fill(0);
        self.heights.fill(0);
        if let Some(grid) = self.renju.as_mut() {
            grid.clear();
        }
        self.stones = 0;
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
    /// Whether someone has won or the board is full (a renju position where black
    /// has only forbidden cells shows as no legal move instead).
    pub fn is_over(&self) -> bool {
        self.winner.is_some() || self.stones == self.tally.cells.len()
    }
    /// The evaluation of `player`: the sum of the weights of its open windows.
    pub fn score(&self, player: usize) -> i64 {
        self.tally.scores[player]
    }
    pub fn stones(&self) -> usize {
        self.stones
    }

    /// The cell an action fills, if the action is open (renju's forbidden cells
    /// included: see [`LineBoard::forbidden_cells`]).
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
            (action < self.tally.cells.len() && self.tally.cells[action] == 0).then_some(action)
        }
    }

    /// Whether renju's forbidden cells apply now: renju, black to move.
    #[inline]
    pub fn renju_black(&self) -> bool {
        self.renju.is_some() && self.to_move == 0
    }

    /// The cells black may not play now (row-major, ascending; renju with black to
    /// move, else none), by renju's judge.
    pub fn forbidden_cells(&mut self, out: &mut Vec<usize>) {
        out.clear();
        if let (Some(grid), true) = (self.renju.as_mut(), self.to_move == 0) {
            out.extend(grid.forbidden_cells().into_iter().map(|(cell, _)| cell));
        }
    }

    /// Legal actions in ascending order (renju's forbidden cells left out).
    pub fn legal_actions(&self, out: &mut Vec<usize>) {
        out.clear();
        if self.is_over() {
            return;
        }
        let r = self.rules();
        if r.gravity() {
            out.extend((0..r.width()).filter(|&c| (self.heights[c] as usize) < r.height()));
        } else {
            out.extend((0..self.tally.cells.len()).filter(|&c| self.tally.cells[c] == 0));
        }
        if let (Some(grid), true) = (self.renju.as_ref(), self.renju_black()) {
            let forbidden: Vec<usize> = grid
                .clone()
                .forbidden_cells()
                .into_iter()
                .map(|(cell, _)| cell)
                .collect();
            out.retain(|c| forbidden.binary_search(c).is_err());
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
        self.tally.remove(&self.windows.table, cell, p);
        if let Some(grid) = self.renju.as_mut() {
            let w = self.windows.rules.width();
            grid.set(cell / w, cell % w, 0);
        }
        self.stones -= 1;
        let col = cell % self.rules().width();
        self.heights[col] -= 1;
        self.to_move = p;
        self.winner = None;
    }

    /// Whether `player` completes a line by a stone on the empty `cell`.
    #[inline]
    pub fn completes_line(&self, cell: usize, player: usize) -> bool {
        let (k, players) = (self.tally.k, self.tally.players);
        let table = &self.windows.table;
        table.through(cell).iter().any(|&wi| {
            let wi = wi as usize;
            self.tally.totals[wi] as usize == k - 1
                && self.tally.counts[wi * players + player] as usize == k - 1
                && !self.tally.overlined(table, wi, player)
        })
    }

    /// How much a stone of `player` on the empty `cell` is worth for ordering moves:
    /// the weights it adds to `player`'s windows holding no other player's stone
    /// plus those it takes from the windows it blocks (flanks aside).
    pub fn move_value(&self, cell: usize, player: usize) -> i64 {
        let players = self.tally.players;
        let mut value = 0;
        for &wi in self.windows.through(cell) {
            let wi = wi as usize;
            let total = self.tally.totals[wi] as usize;
            let mine = self.tally.counts[wi * players + player] as usize;
            if total == mine {
                value += window_weight(mine + 1) - window_weight(mine);
            } else if let Some(other) = self.tally.sole_owner(wi) {
                value += window_weight(self.tally.counts[wi * players + other] as usize);
            }
        }
        value
    }

    /// The cell's owner (0 empty, else 1-based player).
    pub fn owner(&self, cell: usize) -> u8 {
        self.tally.cells[cell]
    }

    /// The lowest empty cell of a column with gravity (the only playable one).
    pub fn playable_cell(&self, col: usize) -> Option<usize> {
        let r = self.rules();
        let filled = self.heights[col] as usize;
        (filled < r.height()).then(|| (r.height() - 1 - filled) * r.width() + col)
    }

    fn place(&mut self, cell: usize, p: usize) {
        if self.tally.place(&self.windows.table, cell, p) {
            self.winner = Some(p);
        }
        if let Some(grid) = self.renju.as_mut() {
            let w = self.windows.rules.width();
            grid.set(cell / w, cell % w, if p == 0 { BLACK } else { WHITE });
        }
        self.stones += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// The evaluation recomputed from scratch, window by window: a window counts
    /// for the one player holding its stones, unless that player must be exact and
    /// a cell just beyond either end holds its stone.
    fn brute_scores(board: &LineBoard) -> Vec<i64> {
        let r = *board.rules();
        let (w, h, k, players) = (r.width(), r.height(), r.k(), r.players());
        let mut scores = vec![0i64; players];
        let owner = |row: isize, col: isize| -> Option<u8> {
            ((0..h as isize).contains(&row) && (0..w as isize).contains(&col))
                .then(|| board.owner(row as usize * w + col as usize))
        };
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
                        .map(|i| owner(row + dr * i, col + dc * i))
                        .collect();
                    let Some(cells) = cells else { continue };
                    let owners: Vec<u8> = cells.iter().copied().filter(|&c| c != 0).collect();
                    let Some(&first) = owners.first() else {
                        continue;
                    };
                    let p = first as usize - 1;
                    let flanked = [-1, k as isize]
                        .into_iter()
                        .any(|t| owner(row + dr * t, col + dc * t) == Some(first));
                    if owners.iter().all(|&o| o == first)
                        && !(line_is_exact(r.rule(), p) && flanked)
                    {
                        scores[p] += window_weight(owners.len());
                    }
                }
            }
        }
        scores
    }

    /// A legal action of `game`, three times in four next to a stone (lines and
    /// overlines form quickly).
    fn clustered_action(game: &Game, rng: &mut Rng) -> usize {
        let legal = game.legal_actions();
        let r = game.rules();
        let (w, h) = (r.width() as isize, r.height() as isize);
        let near: Vec<usize> = legal
            .iter()
            .copied()
            .filter(|&a| {
                let (row, col) = if r.gravity() {
                    (h - 1 - game.column_height(a) as isize, a as isize)
                } else {
                    ((a / r.width()) as isize, (a % r.width()) as isize)
                };
                (-1..=1).any(|dr| {
                    (-1..=1).any(|dc| {
                        let (rr, cc) = (row + dr, col + dc);
                        (0..h).contains(&rr)
                            && (0..w).contains(&cc)
                            && game.owner(rr as usize, cc as usize) != 0
                    })
                })
            })
            .collect();
        let from = if !near.is_empty() && rng.below(4) != 0 {
            &near
        } else {
            &legal
        };
        from[rng.below(from.len() as u32) as usize]
    }

    /// Plays `games` clustered random games of `rules` on a [`LineBoard`] and the
    /// [`Game`] side by side, checking after every move the winner, the side to
    /// move, the legal actions (renju's forbidden cells left out), which cells
    /// complete a line for each player, and the evaluation against a recount;
    /// then loading and taking every move back. Returns how many positions had a
    /// forbidden cell.
    fn agrees_with_the_game(rules: Rules, games: usize, seed: u64) -> usize {
        let mut rng = Rng::new(seed, 0);
        let mut legal = Vec::new();
        let mut with_forbidden = 0;
        for _ in 0..games {
            let mut game = Game::new(rules);
            let mut board = LineBoard::new(rules);
            let mut played = Vec::new();
            while !game.is_over() {
                let a = clustered_action(&game, &mut rng);
                let cell = board.cell_of(a).expect("legal in both");
                board.play(cell);
                game.play(a).unwrap();
                played.push(cell);
                assert_eq!(
                    board.winner(),
                    game.winner(),
                    "{rules}: {:?}",
                    game.history()
                );
                assert_eq!(board.to_move(), game.to_move());
                board.legal_actions(&mut legal);
                assert_eq!(legal, game.legal_actions(), "{rules}: {:?}", game.history());
                let open = (0..rules.num_actions()).filter(|&a| board.cell_of(a).is_some());
                with_forbidden += usize::from(open.count() != legal.len());
                assert_eq!(board.is_over() || legal.is_empty(), game.is_over());
                if !game.is_over() {
                    for p in 0..rules.players() {
                        for a in 0..rules.num_actions() {
                            if let Some(c) = board.cell_of(a) {
                                let expect = game.wins_at(p, a);
                                assert_eq!(board.completes_line(c, p), expect, "{rules} p{p} a{a}");
                            }
                        }
                    }
                }
                let brute = brute_scores(&board);
                for (p, &s) in brute.iter().enumerate() {
                    assert_eq!(board.score(p), s, "{rules}: {:?}", game.history());
                }
            }
            let mut loaded = LineBoard::new(rules);
            loaded.load(&game);
            assert_eq!(loaded.winner(), game.winner());
            assert_eq!(loaded.tally.scores, board.tally.scores);
            assert_eq!(loaded.heights, board.heights);
            assert_eq!(loaded.tally.cells, board.tally.cells);
            assert_eq!(loaded.renju, board.renju);
            while let Some(cell) = played.pop() {
                board.unplay(cell);
            }
            assert!(board.tally.scores.iter().all(|&s| s == 0));
            assert!(board.tally.counts.iter().all(|&c| c == 0));
            assert_eq!(board.renju, LineBoard::new(rules).renju);
        }
        with_forbidden
    }

    #[test]
    fn agrees_with_the_game_under_the_freestyle_rule() {
        for (i, rules) in [
            Rules::connect_four(),
            Rules::tic_tac_toe(),
            Rules::new(6, 5, 3, 3, false).unwrap(),
            Rules::new(5, 7, 4, 4, true).unwrap(),
            Rules::new(4, 4, 1, 2, false).unwrap(),
        ]
        .into_iter()
        .enumerate()
        {
            assert_eq!(agrees_with_the_game(rules, 40, 3 + i as u64), 0);
        }
    }

    #[test]
    fn agrees_with_the_game_under_the_standard_rule() {
        for (i, rules) in [
            Rules::new(9, 9, 5, 2, false).unwrap(),
            Rules::new(7, 6, 4, 2, true).unwrap(),
            Rules::new(6, 6, 3, 3, false).unwrap(),
            Rules::new(5, 4, 2, 2, false).unwrap(),
            Rules::new(4, 4, 1, 2, false).unwrap(),
        ]
        .into_iter()
        .enumerate()
        {
            let rules = rules.with_rule(WinRule::Standard).unwrap();
            assert_eq!(agrees_with_the_game(rules, 40, 30 + i as u64), 0);
        }
    }

    #[test]
    fn agrees_with_the_game_under_the_renju_rule() {
        for (i, size) in [9, 15].into_iter().enumerate() {
            let rules = Rules::gomoku_with(size, WinRule::Renju).unwrap();
            let seen = agrees_with_the_game(rules, 15, 60 + i as u64);
            assert!(seen > 0, "{size}x{size}: no forbidden cell in the games");
        }
    }

    #[test]
    fn an_overline_is_no_win_for_an_exact_player() {
        // Standard 9x9, k = 5: black's xxxx.x, then the gap filled: six in a row.
        let rules = Rules::new(9, 9, 5, 2, false)
            .unwrap()
            .with_rule(WinRule::Standard)
            .unwrap();
        let mut board = LineBoard::new(rules);
        for (black, white) in [(0, 18), (1, 19), (2, 20), (3, 21), (5, 77)] {
            board.play(black);
            board.play(white);
        }
        assert!(!board.completes_line(4, 0));
        let before = board.score(0);
        board.play(4);
        assert_eq!(board.winner(), None);
        // The windows of row 0 flanked by black's own stones count no more.
        assert!(board.score(0) < before + window_weight(5));
        // White's exact five on row 2 wins.
        assert!(board.completes_line(22, 1));
        board.play(22);
        assert_eq!(board.winner(), Some(1));
    }
}
