//! The free solver's oracle in tests: a plain negamax over [`Game`] (the game's
//! own moves and line tests, under any rule), memoised on the cells.

use std::collections::HashMap;

use crate::game::Game;

/// The exact score (Pons' convention) for the side to move of a game not over.
#[derive(Default)]
pub(super) struct GameNegamax {
    memo: HashMap<Vec<i8>, i32>,
}

impl GameNegamax {
    pub(super) fn new() -> GameNegamax {
        GameNegamax::default()
    }

    pub(super) fn value(&mut self, game: &mut Game) -> i32 {
        let mut cells = vec![0i8; game.rules().num_cells()];
        game.write_cells(&mut cells);
        if let Some(&v) = self.memo.get(&cells) {
            return v;
        }
        let best = game
            .legal_actions()
            .into_iter()
            .map(|action| self.score_of(game, action))
            .max()
            .unwrap_or(i32::MIN);
        self.memo.insert(cells, best);
        best
    }

    /// The exact score of the legal `action` for the side to move.
    pub(super) fn score_of(&mut self, game: &mut Game, action: usize) -> i32 {
        let n = game.rules().num_cells() as i32;
        game.play(action).unwrap();
        let score = if game.winner().is_some() {
            (n + 2 - game.stones_on_board() as i32) / 2
        } else if game.is_over() {
            0
        } else {
            -self.value(game)
        };
        game.undo().unwrap();
        score
    }
}
