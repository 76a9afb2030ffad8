//! The positions a tree walks through: the copyable one-word state
//! ([`crate::word`]) for boards whose layout fits a `u64` (Connect Four,
//! tic-tac-toe), and [`Game`] for every other board.

use crate::game::Game;
use crate::rng::Rng;
use crate::rules::Rules;
pub(crate) use crate::word::{Status, WordGeometry, WordState};

/// What the search needs of a position. `play` takes a legal action; `rollout`
/// plays uniformly random moves to the end and leaves the position as it was.
pub(crate) trait SearchState: Clone + Send + Sync {
    /// Rules-derived tables shared by every position of a search.
    type Geometry: Send + Sync;

    fn geometry(rules: Rules) -> Self::Geometry;
    fn from_game(game: &Game, geometry: &Self::Geometry) -> Self;
    fn to_move(&self) -> usize;
    fn status(&self, geometry: &Self::Geometry) -> Status;
    /// The result one move of lookahead proves of an ongoing position (see
    /// [`WordState::forced_result`]); `Ongoing` when it proves none.
    fn forced_result(&self, geometry: &Self::Geometry) -> Status;
    fn play(&mut self, action: usize, geometry: &Self::Geometry);
    /// Returns to `root`, an ancestor of this position (cheap for both kinds).
    fn rewind_to(&mut self, root: &Self);
    fn for_each_legal(&self, geometry: &Self::Geometry, f: impl FnMut(usize));
    fn rollout(&mut self, geometry: &Self::Geometry, rng: &mut Rng) -> Status;
    /// Egocentric planes `(players, height, width)`, plane 0 the side to move.
    fn write_planes(&self, geometry: &Self::Geometry, out: &mut [f32]);
    fn same_position(&self, other: &Self) -> bool;
}

impl SearchState for WordState {
    type Geometry = WordGeometry;

    fn geometry(rules: Rules) -> WordGeometry {
        WordGeometry::new(rules).expect("WordState needs a one-word layout")
    }

    fn from_game(game: &Game, geometry: &WordGeometry) -> WordState {
        WordState::from_game(game, geometry)
    }

    #[inline]
    fn to_move(&self) -> usize {
        WordState::to_move(*self)
    }

    #[inline]
    fn status(&self, geometry: &WordGeometry) -> Status {
        WordState::status(self, geometry)
    }

    #[inline]
    fn forced_result(&self, geometry: &WordGeometry) -> Status {
        WordState::forced_result(self, geometry)
    }

    #[inline]
    fn play(&mut self, action: usize, geometry: &WordGeometry) {
        WordState::play(self, action, geometry)
    }

    #[inline]
    fn rewind_to(&mut self, root: &WordState) {
        *self = *root;
    }

    #[inline]
    fn for_each_legal(&self, geometry: &WordGeometry, f: impl FnMut(usize)) {
        WordState::for_each_legal(self, geometry, f)
    }

    #[inline]
    fn rollout(&mut self, geometry: &WordGeometry, rng: &mut Rng) -> Status {
        WordState::rollout(self, geometry, rng)
    }

    fn write_planes(&self, geometry: &WordGeometry, out: &mut [f32]) {
        WordState::write_planes(self, geometry, out)
    }

    fn same_position(&self, other: &WordState) -> bool {
        WordState::same_position(self, other)
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

    fn forced_result(&self, _: &Rules) -> Status {
        let me = Game::to_move(self);
        let two = self.rules().players() == 2;
        // A line needs k - 1 stones already down: most nodes of a big board's
        // tree hold fewer, and the scan over every cell is skipped.
        let k = self.rules().k() as u32;
        let stones = |p: usize| self.stones(p).iter().map(|w| w.count_ones()).sum::<u32>();
        let (mine, theirs) = (stones(me) + 1 >= k, two && stones(1 - me) + 1 >= k);
        if !mine && !theirs {
            return Status::Ongoing;
        }
        if mine && self.count_wins(me, 1) > 0 {
            Status::Won(me)
        } else if theirs && self.count_wins(1 - me, 2) >= 2 {
            Status::Won(1 - me)
        } else {
            Status::Ongoing
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
            let a = self.random_action(rng);
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

    /// One-word rule sets of every kind: gravity and free, 2 and 3 players, k = 1..5.
    fn word_rule_sets() -> [Rules; 9] {
        [
            Rules::connect_four(),
            Rules::tic_tac_toe(),
            Rules::new(4, 4, 3, 3, true).unwrap(),
            Rules::new(5, 4, 3, 3, false).unwrap(),
            Rules::new(8, 7, 5, 2, true).unwrap(),
            Rules::new(6, 6, 4, 2, false).unwrap(),
            Rules::new(9, 5, 4, 2, true).unwrap(),
            Rules::new(1, 5, 1, 2, false).unwrap(),
            Rules::new(5, 1, 2, 2, false).unwrap(),
        ]
    }

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
                let a = game.random_action(&mut rng);
                game.play(a).unwrap();
                SearchState::play(&mut word, a, &geometry);
            }
        }
    }

    #[test]
    fn the_word_state_agrees_with_the_game() {
        for rules in word_rule_sets() {
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

    /// The cells where `player` would complete a line, by placing the stone
    /// and asking the plain win detector.
    fn brute_force_wins(game: &Game, player: usize) -> usize {
        let rules = *game.rules();
        let (w, h) = (rules.width(), rules.height());
        let mut cells = vec![0i8; w * h];
        game.write_cells(&mut cells);
        let mut wins = 0;
        for a in game.legal_actions() {
            let cell = if rules.gravity() {
                (h - 1 - game.column_height(a)) * w + a
            } else {
                a
            };
            let mut grid: Vec<i64> = cells.iter().map(|&c| c as i64).collect();
            grid[cell] = player as i64 + 1;
            let winner = crate::detect::winners(&grid, 1, h, w, rules.k())[0];
            wins += usize::from(winner == player as i64 + 1);
        }
        wins
    }

    fn brute_force_forced_result(game: &Game) -> Status {
        let me = game.to_move();
        if brute_force_wins(game, me) > 0 {
            Status::Won(me)
        } else if game.rules().players() == 2 && brute_force_wins(game, 1 - me) >= 2 {
            Status::Won(1 - me)
        } else {
            Status::Ongoing
        }
    }

    #[test]
    fn forced_results_agree_with_placing_each_stone() {
        let mut proven = [0usize; 2];
        for rules in word_rule_sets() {
            let geometry = WordState::geometry(rules);
            random_games(rules, 150, |game, word| {
                if game.is_over() {
                    return;
                }
                let expected = brute_force_forced_result(game);
                assert_eq!(
                    word.forced_result(&geometry),
                    expected,
                    "{rules} {:?}",
                    game.history()
                );
                assert_eq!(
                    SearchState::forced_result(game, &rules),
                    expected,
                    "{rules}"
                );
                if let Status::Won(p) = expected {
                    proven[usize::from(p != game.to_move())] += 1;
                }
            });
        }
        // Both rules fire often on random games.
        assert!(proven[0] > 500 && proven[1] > 50, "{proven:?}");
        // Boards past one word take the game's own test.
        let mut rng = Rng::new(5, 5);
        for rules in [
            Rules::gomoku(15).unwrap(),
            Rules::new(10, 9, 5, 2, true).unwrap(),
            Rules::new(12, 7, 3, 2, false).unwrap(),
        ] {
            for _ in 0..20 {
                let mut game = Game::new(rules);
                while !game.is_over() && game.stones_on_board() < 120 {
                    assert_eq!(
                        SearchState::forced_result(&game, &rules),
                        brute_force_forced_result(&game),
                        "{rules} {:?}",
                        game.history()
                    );
                    let a = game.random_action(&mut rng);
                    game.play(a).unwrap();
                }
            }
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
        let word = WordState::from_game(&Game::new(c4), &geometry);
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
