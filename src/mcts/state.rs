//! The positions a tree walks through: a copyable one-word state for boards whose
//! layout fits a `u64` (Connect Four, tic-tac-toe), and [`Game`] for every other board.
//!
//! Both follow the layout of [`Rules`]: bit `col * (height + 1) + row_from_bottom`.

use crate::batch::random_legal_action;
use crate::game::Game;
use crate::rng::Rng;
use crate::rules::{Rules, MAX_PLAYERS};

/// How a position stands: still in play, won by a player (0-based), or drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Status {
    Ongoing,
    Won(usize),
    Draw,
}

/// What the search needs of a position. `play` takes a legal action; `rollout`
/// plays uniformly random moves to the end and leaves the position as it was.
pub(crate) trait SearchState: Clone + Send + Sync {
    /// Rules-derived tables shared by every position of a search.
    type Geometry: Send + Sync;

    fn geometry(rules: Rules) -> Self::Geometry;
    fn from_game(game: &Game, geometry: &Self::Geometry) -> Self;
    fn to_move(&self) -> usize;
    fn status(&self, geometry: &Self::Geometry) -> Status;
    fn play(&mut self, action: usize, geometry: &Self::Geometry);
    /// Returns to `root`, an ancestor of this position (cheap for both kinds).
    fn rewind_to(&mut self, root: &Self);
    fn for_each_legal(&self, geometry: &Self::Geometry, f: impl FnMut(usize));
    fn rollout(&mut self, geometry: &Self::Geometry, rng: &mut Rng) -> Status;
    /// Egocentric planes `(players, height, width)`, plane 0 the side to move.
    fn write_planes(&self, geometry: &Self::Geometry, out: &mut [f32]);
    fn same_position(&self, other: &Self) -> bool;
}

/// Tables of a one-word board.
pub(crate) struct WordGeometry {
    rules: Rules,
    /// The layout bit of each action's cell (free placement) or of each column's
    /// bottom cell (gravity).
    action_bit: Vec<u64>,
    /// The top cell of each column (gravity: a column is playable while it is empty).
    column_top: Vec<u64>,
    /// The bottom cell of every column.
    bottom: u64,
    /// Every real cell.
    cells: u64,
    directions: [u32; 4],
}

/// A one-word position: stones per player, occupancy, side to move, result.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WordState {
    stones: [u64; MAX_PLAYERS],
    occupied: u64,
    to_move: u8,
    /// `u8::MAX` while nobody has won.
    winner: u8,
}

impl WordGeometry {
    #[inline]
    fn has_line(&self, stones: u64) -> bool {
        let k = self.rules.k();
        if k == 4 {
            // Connect Four's k, unrolled: two shift-ands per direction.
            return self.directions.iter().any(|&step| {
                let m = stones & (stones >> step);
                step != 0 && m & (m >> (2 * step)) != 0
            });
        }
        self.directions.iter().any(|&step| {
            if step == 0 {
                return false;
            }
            let step = step as usize;
            let (mut m, mut run) = (stones, 1);
            while run < k {
                let t = run.min(k - run);
                m &= m >> (t * step);
                run += t;
            }
            m != 0
        })
    }

    /// The cell an action fills, given the occupancy.
    #[inline]
    fn cell_of(&self, action: usize, occupied: u64) -> u64 {
        if self.rules.gravity() {
            let column = self.column_top[action] * 2 - self.action_bit[action];
            (occupied + self.action_bit[action]) & column
        } else {
            self.action_bit[action]
        }
    }
}

impl WordState {
    #[inline]
    fn place(&mut self, bit: u64, geometry: &WordGeometry) {
        let p = self.to_move as usize;
        self.stones[p] |= bit;
        self.occupied |= bit;
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

/// The `n`-th (0-based) set bit of `x`, as a one-bit mask.
#[inline]
fn nth_set_bit(mut x: u64, n: u32) -> u64 {
    for _ in 0..n {
        x &= x - 1;
    }
    x & x.wrapping_neg()
}

impl SearchState for WordState {
    type Geometry = WordGeometry;

    fn geometry(rules: Rules) -> WordGeometry {
        assert!(rules.fits_word(), "WordState needs a one-word layout");
        let (w, h) = (rules.width(), rules.height());
        let stride = h + 1;
        let bit = |row: usize, col: usize| 1u64 << (col * stride + (h - 1 - row));
        let action_bit = if rules.gravity() {
            (0..w).map(|col| bit(h - 1, col)).collect()
        } else {
            (0..w * h).map(|a| bit(a / w, a % w)).collect()
        };
        let column_top = (0..w).map(|col| bit(0, col)).collect();
        let bottom = (0..w).map(|col| bit(h - 1, col)).sum();
        let cells = (0..w * h).map(|a| bit(a / w, a % w)).sum();
        let (k, s) = (rules.k(), stride as u32);
        let diagonal = k <= w.min(h);
        let directions = [
            if k <= h { 1 } else { 0 },
            if k <= w { s } else { 0 },
            if diagonal { s + 1 } else { 0 },
            if diagonal { s - 1 } else { 0 },
        ];
        WordGeometry {
            rules,
            action_bit,
            column_top,
            bottom,
            cells,
            directions,
        }
    }

    fn from_game(game: &Game, geometry: &WordGeometry) -> WordState {
        let mut stones = [0u64; MAX_PLAYERS];
        for (p, s) in stones.iter_mut().enumerate().take(geometry.rules.players()) {
            *s = game.stones(p)[0];
        }
        WordState {
            stones,
            occupied: stones.iter().fold(0, |a, s| a | s),
            to_move: game.to_move() as u8,
            winner: game.winner().map_or(u8::MAX, |p| p as u8),
        }
    }

    #[inline]
    fn to_move(&self) -> usize {
        self.to_move as usize
    }

    #[inline]
    fn status(&self, geometry: &WordGeometry) -> Status {
        if self.winner != u8::MAX {
            Status::Won(self.winner as usize)
        } else if self.occupied == geometry.cells {
            Status::Draw
        } else {
            Status::Ongoing
        }
    }

    #[inline]
    fn play(&mut self, action: usize, geometry: &WordGeometry) {
        let bit = geometry.cell_of(action, self.occupied);
        debug_assert!(
            bit != 0 && self.occupied & bit == 0,
            "illegal action {action}"
        );
        self.place(bit, geometry);
    }

    #[inline]
    fn rewind_to(&mut self, root: &WordState) {
        *self = *root;
    }

    #[inline]
    fn for_each_legal(&self, geometry: &WordGeometry, mut f: impl FnMut(usize)) {
        if self.winner != u8::MAX {
            return;
        }
        if geometry.rules.gravity() {
            for (col, &top) in geometry.column_top.iter().enumerate() {
                if self.occupied & top == 0 {
                    f(col);
                }
            }
        } else {
            for (a, &bit) in geometry.action_bit.iter().enumerate() {
                if self.occupied & bit == 0 {
                    f(a);
                }
            }
        }
    }

    #[inline]
    fn rollout(&mut self, geometry: &WordGeometry, rng: &mut Rng) -> Status {
        let mut s = *self;
        loop {
            if s.winner != u8::MAX {
                return Status::Won(s.winner as usize);
            }
            let free = if geometry.rules.gravity() {
                (s.occupied + geometry.bottom) & geometry.cells
            } else {
                !s.occupied & geometry.cells
            };
            if free == 0 {
                return Status::Draw;
            }
            let bit = nth_set_bit(free, rng.below(free.count_ones()));
            s.place(bit, geometry);
        }
    }

    fn write_planes(&self, geometry: &WordGeometry, out: &mut [f32]) {
        let rules = &geometry.rules;
        let (p, w, h) = (rules.players(), rules.width(), rules.height());
        let cells = w * h;
        let stride = h + 1;
        for plane in 0..p {
            let stones = self.stones[(self.to_move as usize + plane) % p];
            let dst = &mut out[plane * cells..(plane + 1) * cells];
            for (row, line) in dst.chunks_exact_mut(w).enumerate() {
                let shift = h - 1 - row;
                for (col, cell) in line.iter_mut().enumerate() {
                    *cell = ((stones >> (col * stride + shift)) & 1) as f32;
                }
            }
        }
    }

    fn same_position(&self, other: &WordState) -> bool {
        self.stones == other.stones
    }
}

impl SearchState for Game {
    type Geometry = Rules;

    fn geometry(rules: Rules) -> Rules {
        rules
    }

    fn from_game(game: &Game, _: &Rules) -> Game {
        let mut g = game.clone();
        g.reserve_history();
        g
    }

    #[inline]
    fn to_move(&self) -> usize {
        Game::to_move(self)
    }

    #[inline]
    fn status(&self, _: &Rules) -> Status {
        match self.winner() {
            Some(p) => Status::Won(p),
            None if self.is_draw() => Status::Draw,
            None => Status::Ongoing,
        }
    }

    #[inline]
    fn play(&mut self, action: usize, _: &Rules) {
        self.play_unchecked(action);
    }

    fn rewind_to(&mut self, root: &Game) {
        for _ in root.history().len()..self.history().len() {
            // The moves above the root's history were played by the search.
            let _ = self.undo();
        }
    }

    fn for_each_legal(&self, _: &Rules, f: impl FnMut(usize)) {
        Game::for_each_legal(self, f)
    }

    fn rollout(&mut self, rules: &Rules, rng: &mut Rng) -> Status {
        let mut played = 0;
        let status = loop {
            let status = SearchState::status(self, rules);
            if status != Status::Ongoing {
                break status;
            }
            let a = random_legal_action(self, rng);
            self.play_unchecked(a);
            played += 1;
        };
        for _ in 0..played {
            let _ = self.undo();
        }
        status
    }

    fn write_planes(&self, _: &Rules, out: &mut [f32]) {
        Game::write_planes(self, out, 0.0, 1.0)
    }

    fn same_position(&self, other: &Game) -> bool {
        self == other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn random_games(rules: Rules, games: usize, mut check: impl FnMut(&Game, &WordState)) {
        let geometry = WordState::geometry(rules);
        let mut rng = Rng::new(11, 0);
        for _ in 0..games {
            let mut game = Game::new(rules);
            let mut word = WordState::from_game(&game, &geometry);
            loop {
                check(&game, &word);
                if game.is_over() {
                    break;
                }
                let a = random_legal_action(&game, &mut rng);
                game.play(a).unwrap();
                SearchState::play(&mut word, a, &geometry);
            }
        }
    }

    #[test]
    fn the_word_state_agrees_with_the_game() {
        let rule_sets = [
            Rules::connect_four(),
            Rules::tic_tac_toe(),
            Rules::new(4, 4, 3, 3, true).unwrap(),
            Rules::new(5, 4, 3, 3, false).unwrap(),
            Rules::new(8, 7, 5, 2, true).unwrap(),
            Rules::new(1, 5, 1, 2, false).unwrap(),
        ];
        for rules in rule_sets {
            let geometry = WordState::geometry(rules);
            let n = rules.num_actions();
            let planes = rules.players() * rules.num_cells();
            random_games(rules, 200, |game, word| {
                assert_eq!(word.status(&geometry), SearchState::status(game, &rules));
                assert_eq!(SearchState::to_move(word), game.to_move());
                let mut legal = Vec::new();
                word.for_each_legal(&geometry, |a| legal.push(a));
                assert_eq!(legal, game.legal_actions(), "{rules}");
                let (mut a, mut b) = (vec![0.0; planes], vec![0.0; planes]);
                word.write_planes(&geometry, &mut a);
                SearchState::write_planes(game, &rules, &mut b);
                assert_eq!(a, b);
                assert!(word.same_position(&WordState::from_game(game, &geometry)));
                assert!(legal.iter().all(|&x| x < n));
            });
        }
    }

    #[test]
    fn rollouts_leave_the_position_unchanged_and_end_the_game() {
        let rules = Rules::new(9, 9, 4, 3, false).unwrap();
        let mut rng = Rng::new(1, 1);
        let mut game = Game::from_actions(rules, &[40, 41, 42]).unwrap();
        let before = game.clone();
        for _ in 0..50 {
            let s = SearchState::rollout(&mut game, &rules, &mut rng);
            assert_ne!(s, Status::Ongoing);
            assert_eq!(game, before);
            assert_eq!(game.history(), before.history());
        }
        let c4 = Rules::connect_four();
        let geometry = WordState::geometry(c4);
        let mut word = WordState::from_game(&Game::new(c4), &geometry);
        let start = word;
        let mut wins = [0; 2];
        for _ in 0..2000 {
            if let Status::Won(p) = word.rollout(&geometry, &mut rng) {
                wins[p] += 1;
            }
            assert!(word.same_position(&start));
        }
        // The first player wins more random games of Connect Four (about 55%).
        assert!(wins[0] > wins[1] && wins[1] > 600, "{wins:?}");
    }
}
