//! The one-word position: boards whose layout fits a `u64` (Connect Four,
//! tic-tac-toe, 8x7 and smaller) as a copyable value of a few words, with no
//! history and no hash. Random playouts stand on it: `simulate`'s whole games and
//! the search's rollouts are the same loop, [`WordState::rollout`].
//!
//! It stands on the board's [`Layout`] (where a stone sits) and [`Bitboard`]
//! (what a line is).

use crate::bitboard::Bitboard;
use crate::game::Game;
use crate::layout::Layout;
use crate::rng::Rng;
use crate::rules::{Rules, MAX_PLAYERS};

/// How a position stands: still in play, won by a player (0-based), or drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Status {
    Ongoing,
    Won(usize),
    Draw,
}

/// A one-word board: its [`Layout`] and the cells of each action.
pub(crate) struct WordGeometry {
    rules: Rules,
    layout: Layout,
    /// Gravity: the cells of each column; free placement: each action's cell.
    action_cells: Vec<Bitboard>,
}

/// A one-word position: stones per player, occupancy, side to move, result.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WordState {
    stones: [Bitboard; MAX_PLAYERS],
    occupied: Bitboard,
    to_move: u8,
    /// `u8::MAX` while nobody has won.
    winner: u8,
}

impl WordGeometry {
    #[inline]
    fn has_line(&self, stones: Bitboard) -> bool {
        let steps = self.layout.line_steps();
        match self.layout.k() {
            // Connect Four's k as a constant: the line test unrolls to two
            // shift-ands per direction.
            4 => stones.has_line(steps, 4),
            k => stones.has_line(steps, k),
        }
    }

    /// The cells of `playable` where one more stone of `stones` completes a
    /// line ([`crate::lines::winning_cells`]).
    pub(crate) fn winning_cells(&self, stones: Bitboard, playable: Bitboard) -> Bitboard {
        let wins = crate::lines::winning_cells(stones.0, self.layout.line_steps(), self.layout.k());
        Bitboard(wins) & playable
    }

    /// The cell an action fills, given the occupancy.
    #[inline]
    fn cell_of(&self, action: usize, occupied: Bitboard) -> Bitboard {
        if self.rules.gravity() {
            self.layout.drop_cells(occupied) & self.action_cells[action]
        } else {
            self.action_cells[action]
        }
    }
}

impl WordState {
    #[inline]
    fn place(&mut self, cell: Bitboard, geometry: &WordGeometry) {
        let p = self.to_move as usize;
        self.stones[p] |= cell;
        self.occupied |= cell;
        if geometry.has_line(self.stones[p]) {
            self.winner = p as u8;
        }
        self.to_move = if p + 1 == geometry.rules.players() {
            0
        } else {
            p as u8 + 1
        };
    }
}

impl WordGeometry {
    /// The geometry of `rules`, or `None` when they are not the one-word fast
    /// path's ([`Rules::fits_word`]: one word, freestyle).
    pub(crate) fn new(rules: Rules) -> Option<WordGeometry> {
        let layout = Layout::of(&rules);
        if !rules.fits_word() {
            return None;
        }
        let w = layout.width();
        let action_cells = if rules.gravity() {
            (0..w).map(|col| layout.column(col)).collect()
        } else {
            (0..rules.num_cells())
                .map(|a| Bitboard(1 << layout.bit(a / w, a % w)))
                .collect()
        };
        Some(WordGeometry {
            rules,
            layout,
            action_cells,
        })
    }
}

impl WordState {
    /// The empty board.
    pub(crate) fn empty() -> WordState {
        WordState {
            stones: [Bitboard(0); MAX_PLAYERS],
            occupied: Bitboard(0),
            to_move: 0,
            winner: u8::MAX,
        }
    }

    pub(crate) fn from_game(game: &Game, geometry: &WordGeometry) -> WordState {
        let mut stones = [Bitboard(0); MAX_PLAYERS];
        for (p, s) in stones.iter_mut().enumerate().take(geometry.rules.players()) {
            *s = Bitboard(game.stones(p)[0]);
        }
        WordState {
            stones,
            occupied: stones.iter().fold(Bitboard(0), |a, &s| a | s),
            to_move: game.to_move() as u8,
            winner: game.winner().map_or(u8::MAX, |p| p as u8),
        }
    }

    #[inline]
    pub(crate) fn to_move(self) -> usize {
        self.to_move as usize
    }

    /// Stones on the board.
    #[inline]
    pub(crate) fn stones_on_board(&self) -> usize {
        self.occupied.count() as usize
    }

    #[inline]
    pub(crate) fn status(&self, geometry: &WordGeometry) -> Status {
        if self.winner != u8::MAX {
            Status::Won(self.winner as usize)
        } else if self.occupied == geometry.layout.board() {
            Status::Draw
        } else {
            Status::Ongoing
        }
    }

    /// Plays a legal `action`.
    #[inline]
    pub(crate) fn play(&mut self, action: usize, geometry: &WordGeometry) {
        let cell = geometry.cell_of(action, self.occupied);
        debug_assert!(
            cell.count() == 1 && (self.occupied & cell).is_empty(),
            "illegal action {action}"
        );
        self.place(cell, geometry);
    }

    #[inline]
    pub(crate) fn for_each_legal(&self, geometry: &WordGeometry, mut f: impl FnMut(usize)) {
        if self.winner != u8::MAX {
            return;
        }
        let gravity = geometry.rules.gravity();
        for (a, &cells) in geometry.action_cells.iter().enumerate() {
            // A column is playable until full, a cell while empty.
            let taken = self.occupied & cells;
            if if gravity {
                taken != cells
            } else {
                taken.is_empty()
            } {
                f(a);
            }
        }
    }

    /// Plays uniformly random moves from here to the end of the game (one random
    /// draw per move, among the playable cells); returns how it ended and leaves
    /// `self` at the final position.
    #[inline]
    pub(crate) fn play_out(&mut self, geometry: &WordGeometry, rng: &mut Rng) -> Status {
        loop {
            if self.winner != u8::MAX {
                return Status::Won(self.winner as usize);
            }
            let free = if geometry.rules.gravity() {
                geometry.layout.drop_cells(self.occupied)
            } else {
                !self.occupied & geometry.layout.board()
            };
            if free.is_empty() {
                return Status::Draw;
            }
            self.place(free.nth(rng.below(free.count())), geometry);
        }
    }

    /// [`WordState::play_out`] from a copy: the position stays as it is.
    #[inline]
    pub(crate) fn rollout(&self, geometry: &WordGeometry, rng: &mut Rng) -> Status {
        let mut s = *self;
        s.play_out(geometry, rng)
    }

    /// Egocentric planes `(players, height, width)`, plane 0 the side to move.
    pub(crate) fn write_planes(&self, geometry: &WordGeometry, out: &mut [f32]) {
        let p = geometry.rules.players();
        let cells = geometry.rules.num_cells();
        for (plane, dst) in out[..p * cells].chunks_exact_mut(cells).enumerate() {
            let stones = self.stones[(self.to_move as usize + plane) % p];
            geometry.layout.write_plane(stones, dst, 0.0, 1.0);
        }
    }

    /// What one move of lookahead proves of an ongoing position: the side to
    /// move wins at once, or (2 players) the opponent holds two wins and only
    /// one can be blocked. `Ongoing` when neither holds.
    pub(crate) fn forced_result(&self, geometry: &WordGeometry) -> Status {
        let me = self.to_move as usize;
        // A line needs k - 1 stones already down (most nodes near a root hold fewer).
        let k = geometry.layout.k() as u32;
        let mine = self.stones[me].count() + 1 >= k;
        let theirs = geometry.rules.players() == 2 && self.stones[1 - me].count() + 1 >= k;
        if !mine && !theirs {
            return Status::Ongoing;
        }
        let playable = if geometry.rules.gravity() {
            geometry.layout.drop_cells(self.occupied)
        } else {
            !self.occupied & geometry.layout.board()
        };
        if mine && !geometry.winning_cells(self.stones[me], playable).is_empty() {
            return Status::Won(me);
        }
        if theirs
            && geometry
                .winning_cells(self.stones[1 - me], playable)
                .count()
                >= 2
        {
            return Status::Won(1 - me);
        }
        Status::Ongoing
    }

    pub(crate) fn same_position(&self, other: &WordState) -> bool {
        self.stones == other.stones
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_games_from_the_empty_board_end_legally() {
        let geometry = WordGeometry::new(Rules::connect_four()).unwrap();
        let mut rng = Rng::new(3, 0);
        for _ in 0..1000 {
            let mut position = WordState::empty();
            let status = position.play_out(&geometry, &mut rng);
            let moves = position.stones_on_board();
            assert!((7..=42).contains(&moves));
            match status {
                Status::Won(p) => assert_eq!(p, (moves - 1) % 2),
                Status::Draw => assert_eq!(moves, 42),
                Status::Ongoing => panic!("a play-out ends the game"),
            }
        }
        assert!(WordGeometry::new(Rules::gomoku(15).unwrap()).is_none());
    }
}
