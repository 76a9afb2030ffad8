//! Moves: legality, move generation, play and undo.

use super::{zobrist, Game};
use crate::bitboard::Bitboard;
use crate::error::MoveError;
use crate::lines::renju::{Grid, BLACK, WHITE};
use crate::lines::{line_is_exact, Forbidden};
use crate::rng::Rng;
use crate::rules::WinRule;

impl Game {
    #[inline]
    pub fn is_legal(&self, action: usize) -> bool {
        self.is_open(action) && !(self.renju_black() && self.forbidden(action).is_some())
    }

    /// Whether `action` is in range and its cell free (a column not full), in a
    /// game not over: legal but for renju's forbidden cells.
    #[inline]
    fn is_open(&self, action: usize) -> bool {
        if self.is_over() || action >= self.num_actions {
            return false;
        }
        if self.rules.gravity() {
            (self.heights[action] as usize) < self.rules.height()
        } else {
            !self.occupied(self.placement_bit(action))
        }
    }

    /// Whether renju's forbidden moves apply now: renju, black to move.
    #[inline(always)]
    pub(super) fn renju_black(&self) -> bool {
        self.renju && self.to_move == 0
    }

    /// Why black may not play the empty cell of `action` under renju (an
    /// overline, a double four or a double three), whoever is to move; `None`
    /// under the other rules, for an occupied cell, or where black may play.
    pub fn forbidden(&self, action: usize) -> Option<Forbidden> {
        if self.rules.rule() != WinRule::Renju
            || action >= self.num_actions
            || self.occupied(self.placement_bit(action))
        {
            return None;
        }
        let w = self.rules.width();
        self.renju_grid().forbidden(action / w, action % w)
    }

    /// Renju, black to move: each empty cell black may not play and why,
    /// ascending; empty otherwise (other rules, white to move, game over).
    pub fn forbidden_actions(&self) -> Vec<(usize, Forbidden)> {
        if !self.renju_black() || self.is_over() {
            return Vec::new();
        }
        self.renju_grid().forbidden_cells()
    }

    /// The board as renju's judge reads it (black is player 0).
    pub(crate) fn renju_grid(&self) -> Grid {
        let mut grid = Grid::new(self.rules.width(), self.rules.height());
        for (p, value) in [(0, BLACK), (1, WHITE)] {
            for bit in self.cells_of(p).bits() {
                let (row, col) = self.layout.cell(bit);
                grid.set(row, col, value);
            }
        }
        grid
    }

    /// Renju, black to move: the empty cells black may play, in ascending order.
    fn for_each_allowed(&self, mut f: impl FnMut(usize)) {
        let mut grid = self.renju_grid();
        let mut forbidden = grid
            .forbidden_cells()
            .into_iter()
            .map(|(a, _)| a)
            .peekable();
        let w = self.rules.width();
        for a in 0..self.num_cells {
            if grid.get(a / w, a % w) != 0 {
                continue;
            }
            if forbidden.peek() == Some(&a) {
                forbidden.next();
            } else {
                f(a);
            }
        }
    }

    /// Legal actions in ascending order (none once the game is over).
    pub fn legal_actions(&self) -> Vec<usize> {
        let mut out = Vec::new();
        self.for_each_legal(|a| out.push(a));
        out
    }

    /// Calls `f` on each legal action in ascending order.
    #[inline]
    pub fn for_each_legal(&self, mut f: impl FnMut(usize)) {
        if self.is_over() {
            return;
        }
        if self.renju_black() {
            return self.for_each_allowed(f);
        }
        let (w, h) = (self.rules.width(), self.rules.height());
        if self.rules.gravity() {
            for col in 0..w {
                if (self.heights[col] as usize) < h {
                    f(col);
                }
            }
        } else {
            for row in 0..h {
                for col in 0..w {
                    if !self.occupied(self.layout.bit(row, col)) {
                        f(row * w + col);
                    }
                }
            }
        }
    }

    /// A uniformly random legal action (the game must not be over).
    #[inline]
    pub fn random_action(&self, rng: &mut Rng) -> usize {
        let rules = self.rules();
        let n = self.num_actions;
        if rules.gravity() {
            let legal = self.open_columns();
            let mut pick = rng.below(legal as u32) as usize;
            for col in 0..n {
                if self.column_height(col) < rules.height() {
                    if pick == 0 {
                        return col;
                    }
                    pick -= 1;
                }
            }
            unreachable!("num_legal counted {legal} playable columns")
        } else {
            // Rejection sampling is uniform over the legal cells (under renju, black
            // judges only the cells drawn); after a few misses, the exact scan (also
            // uniform) bounds the cost on nearly full boards.
            // In range and the game not over: only the cell (and renju's judge) to ask.
            let judge = self.renju_black();
            for _ in 0..8 {
                let a = rng.below(n as u32) as usize;
                let barred =
                    self.occupied(self.placement_bit(a)) || (judge && self.forbidden(a).is_some());
                if !barred {
                    return a;
                }
            }
            self.random_action_by_scan(rng)
        }
    }

    /// A uniformly random legal action by counting them (the game must not be
    /// over): out of line, so the sampling loop stays small.
    #[cold]
    #[inline(never)]
    fn random_action_by_scan(&self, rng: &mut Rng) -> usize {
        let mut pick = rng.below(self.num_legal() as u32) as usize;
        let mut chosen = 0;
        self.for_each_legal(|a| {
            if pick == 0 {
                chosen = a;
            }
            pick = pick.wrapping_sub(1);
        });
        chosen
    }

    /// Number of legal actions.
    pub fn num_legal(&self) -> usize {
        if self.is_over() {
            0
        } else if self.rules.gravity() {
            self.open_columns()
        } else if self.renju_black() {
            let mut n = 0;
            self.for_each_allowed(|_| n += 1);
            n
        } else {
            self.num_cells - self.stones_on_board
        }
    }

    /// Gravity: the columns not full.
    #[inline]
    fn open_columns(&self) -> usize {
        let h = self.rules.height();
        self.heights.iter().filter(|&&c| (c as usize) < h).count()
    }

    /// Plays `action`; `Ok(true)` when it wins. On error the game is unchanged.
    pub fn play(&mut self, action: usize) -> Result<bool, MoveError> {
        let num_actions = self.num_actions;
        if action >= num_actions {
            return Err(MoveError::OutOfRange {
                action: action as i128,
                num_actions,
            });
        }
        if self.is_over() {
            return Err(MoveError::GameOver { action });
        }
        if !self.is_legal(action) {
            let (row, col) = (action / self.rules.width(), action % self.rules.width());
            return Err(if self.rules.gravity() {
                MoveError::ColumnFull { column: action }
            } else if let (false, Some(kind)) = (
                self.occupied(self.placement_bit(action)),
                self.forbidden(action),
            ) {
                MoveError::Forbidden {
                    action,
                    row,
                    col,
                    kind,
                }
            } else {
                MoveError::CellOccupied { action, row, col }
            });
        }
        Ok(self.play_unchecked(action))
    }

    /// Plays `action`, which must be legal (`is_legal(action)`); returns whether it wins.
    #[inline]
    pub fn play_unchecked(&mut self, action: usize) -> bool {
        debug_assert!(self.is_legal(action), "illegal action {action}");
        let bit = if self.rules.gravity() {
            let filled = self.heights[action] as usize;
            self.heights[action] += 1;
            self.layout.bit_from_bottom(action, filled)
        } else {
            self.heights[action % self.rules.width()] += 1;
            self.placement_bit(action)
        };
        let p = self.to_move;
        self.set(p, bit);
        self.hash ^= zobrist(p, bit);
        self.stones_on_board += 1;
        self.history.push(action as u16);
        self.to_move = if p + 1 == self.rules.players() {
            0
        } else {
            p + 1
        };
        let won = self.makes_line(p, bit);
        if won {
            self.winner = Some(p);
            self.over = true;
        } else if self.stones_on_board == self.num_cells {
            self.over = true;
        } else if self.renju_black() {
            self.update_stalled();
        }
        won
    }

    /// Renju, black to move: the game is drawn when black has no cell to play.
    #[cold]
    #[inline(never)]
    fn update_stalled(&mut self) {
        self.stalled = !self.black_has_a_move();
        self.over = self.stalled;
    }

    /// Renju: whether black has an empty cell that is not forbidden.
    pub(super) fn black_has_a_move(&self) -> bool {
        // The first allowed cell ends the scan: most cells are far from black's
        // stones and allowed at a glance.
        let mut grid = self.renju_grid();
        let w = self.rules.width();
        (0..self.num_cells)
            .any(|a| grid.get(a / w, a % w) == 0 && grid.forbidden(a / w, a % w).is_none())
    }

    /// Takes back the last move and returns its action.
    pub fn undo(&mut self) -> Result<usize, MoveError> {
        let action = self.history.pop().ok_or(MoveError::NothingToUndo)? as usize;
        let players = self.rules.players();
        let p = (self.to_move + players - 1) % players;
        let bit = if self.rules.gravity() {
            self.heights[action] -= 1;
            self.layout
                .bit_from_bottom(action, self.heights[action] as usize)
        } else {
            self.heights[action % self.rules.width()] -= 1;
            self.placement_bit(action)
        };
        self.clear(p, bit);
        self.hash ^= zobrist(p, bit);
        self.stones_on_board -= 1;
        self.to_move = p;
        self.winner = None;
        self.stalled = false;
        self.over = false;
        Ok(action)
    }

    /// Reserves room for a whole game's history, so playing never allocates.
    pub fn reserve_history(&mut self) {
        let room = self.num_cells.saturating_sub(self.history.len());
        self.history.reserve_exact(room);
    }

    /// Resets to the empty board (keeps allocations).
    pub fn reset(&mut self) {
        self.stones.fill(0);
        self.heights.fill(0);
        self.history.clear();
        self.stones_on_board = 0;
        self.to_move = 0;
        self.winner = None;
        self.stalled = false;
        self.over = false;
        self.hash = 0;
        self.setup = None;
    }

    /// The bit of the last stone played since construction.
    pub(super) fn last_bit(&self) -> Option<usize> {
        let action = *self.history.last()? as usize;
        Some(if self.rules.gravity() {
            self.layout
                .bit_from_bottom(action, self.heights[action] as usize - 1)
        } else {
            self.placement_bit(action)
        })
    }

    /// The bit of free-placement `action` (the cell `row * width + col`).
    #[inline]
    fn placement_bit(&self, action: usize) -> usize {
        let w = self.rules.width();
        self.layout.bit(action / w, action % w)
    }

    /// Whether `player` would complete a line by playing the legal `action` now
    /// (whoever is to move).
    pub(crate) fn wins_at(&self, player: usize, action: usize) -> bool {
        let bit = if self.rules.gravity() {
            self.layout
                .bit_from_bottom(action, self.heights[action] as usize)
        } else {
            self.placement_bit(action)
        };
        let exact = line_is_exact(self.rules.rule(), player);
        // The walk counts `bit` itself, so it need not hold a stone yet.
        self.cells_of(player)
            .line_through(bit, &self.layout, exact)
            .is_some()
    }

    /// How many distinct legal actions would complete a line for `player` now
    /// (whoever is to move; under renju a cell that completes black's five is
    /// never forbidden),
    /// counted up to `limit`. With free placement only the empty neighbours of
    /// `player`'s stones are tried (a line of `k >= 2` through an empty cell
    /// holds a stone next to it), so the cost follows the stones, not the board.
    pub(crate) fn count_wins(&self, player: usize, limit: usize) -> usize {
        let mut found = 0;
        if self.rules.gravity() || self.rules.k() == 1 {
            for a in 0..self.num_actions {
                if found < limit && self.is_open(a) && self.wins_at(player, a) {
                    found += 1;
                }
            }
            return found;
        }
        let (w, h) = (self.rules.width() as isize, self.rules.height() as isize);
        let mut tried = [0u64; 64]; // one bit per action: boards hold at most 4,096 cells
        for bit in self.cells_of(player).bits() {
            let (row, col) = self.layout.cell(bit);
            for (dr, dc) in [
                (-1, -1),
                (-1, 0),
                (-1, 1),
                (0, -1),
                (0, 1),
                (1, -1),
                (1, 0),
                (1, 1),
            ] {
                let (r, c) = (row as isize + dr, col as isize + dc);
                if r < 0 || c < 0 || r >= h || c >= w {
                    continue;
                }
                let a = (r * w + c) as usize;
                if tried[a / 64] >> (a % 64) & 1 == 1 {
                    continue;
                }
                tried[a / 64] |= 1 << (a % 64);
                // A cell that wins is never forbidden (renju: a five is allowed).
                if self.is_open(a) && self.wins_at(player, a) {
                    found += 1;
                    if found == limit {
                        return found;
                    }
                }
            }
        }
        found
    }

    /// Whether `player`'s stone just played at `bit` makes a line under the
    /// rules. Freestyle on one word tests the whole board at once, which is
    /// equivalent (no line existed before the move); otherwise only the lines
    /// through `bit`.
    #[inline]
    fn makes_line(&self, player: usize, bit: usize) -> bool {
        if self.whole_word_test >> player & 1 == 1 {
            let stones = Bitboard(self.stones[player]);
            return stones.has_line(self.layout.line_steps(), self.layout.k());
        }
        let exact = line_is_exact(self.rules.rule(), player);
        self.cells_of(player)
            .line_through(bit, &self.layout, exact)
            .is_some()
    }
}
