//! Observations and masks: the board written into caller buffers.

use super::Game;
use crate::bitboard::Bitboard;

impl Game {
    /// The owner of a cell: 0 empty, else 1-based player.
    pub fn owner(&self, row: usize, col: usize) -> u8 {
        let bit = self.layout.bit(row, col);
        (0..self.rules.players())
            .find(|&p| self.get(p, bit))
            .map_or(0, |p| p as u8 + 1)
    }

    /// Writes the board row-major (row 0 the top row): 0 empty, 1..=players owner.
    pub fn write_cells(&self, out: &mut [i8]) {
        out.fill(0);
        let w = self.rules.width();
        for p in 0..self.rules.players() {
            self.for_each_stone(p, |row, col| out[row * w + col] = p as i8 + 1);
        }
    }

    /// Calls `f(row, col)` for each stone of `player`, column by column (no division
    /// per stone: the hot path of observations).
    #[inline]
    fn for_each_stone(&self, player: usize, mut f: impl FnMut(usize, usize)) {
        let (w, h) = (self.layout.width(), self.layout.height());
        let words = self.stones(player);
        let column_mask = if h == 64 { u64::MAX } else { (1u64 << h) - 1 };
        for col in 0..w {
            let start = self.layout.bit_from_bottom(col, 0);
            let (i, off) = (start / 64, start % 64);
            let mut bits = words[i] >> off;
            if off > 0 && i + 1 < words.len() {
                bits |= words[i + 1] << (64 - off);
            }
            for level in Bitboard(bits & column_mask) {
                f(h - 1 - level, col);
            }
        }
    }

    /// Writes egocentric planes `(players, height, width)`: plane `i` holds the stones of
    /// the player `i` turns after the side to move (plane 0 = the side to move).
    pub fn write_planes<T: Copy>(&self, out: &mut [T], zero: T, one: T) {
        self.write_planes_as(self.to_move, out, zero, one);
    }

    /// [`Game::write_planes`] from the view of `player` (0-based): plane `i` holds the
    /// stones of the player `i` turns after `player`.
    pub fn write_planes_as<T: Copy>(&self, player: usize, out: &mut [T], zero: T, one: T) {
        let (p, cells) = (self.rules.players(), self.rules.num_cells());
        let w = self.rules.width();
        if self.words == 1 {
            // Dense boards: write every cell without branches on the stones.
            for plane in 0..p {
                let owner = (player + plane) % p;
                let dst = &mut out[plane * cells..(plane + 1) * cells];
                self.layout
                    .write_plane(Bitboard(self.stones[owner]), dst, zero, one);
            }
            return;
        }
        out[..p * cells].fill(zero);
        for plane in 0..p {
            let owner = (player + plane) % p;
            let dst = &mut out[plane * cells..(plane + 1) * cells];
            self.for_each_stone(owner, |row, col| dst[row * w + col] = one);
        }
    }

    /// Writes the return of each player (`players` entries, pgx's `returns`): +1 for
    /// the winner and -1 for every other player once someone has won, else 0 (a draw
    /// or a game still running).
    pub fn write_returns(&self, out: &mut [f32]) {
        match self.winner {
            Some(winner) => {
                out.fill(-1.0);
                out[winner] = 1.0;
            }
            None => out.fill(0.0),
        }
    }

    /// Writes the legal-action mask (`num_actions` entries; all false once over).
    pub fn write_legal_mask(&self, mask: &mut [bool]) {
        let (w, h) = (self.rules.width(), self.rules.height());
        if self.is_over() {
            mask.fill(false);
        } else if self.rules.gravity() {
            for (m, &filled) in mask.iter_mut().zip(&self.heights) {
                *m = (filled as usize) < h;
            }
        } else if self.renju_black() {
            mask.fill(false);
            self.for_each_legal(|a| mask[a] = true);
        } else {
            mask.fill(true);
            for p in 0..self.rules.players() {
                self.for_each_stone(p, |row, col| mask[row * w + col] = false);
            }
        }
    }
}
