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
        let r = *game.rules();
        let (n, moves) = (r.num_cells() as i32, game.stones_on_board() as i32);
        let mut cells = vec![0i8; r.num_cells()];
        game.write_cells(&mut cells);
        if let Some(&v) = self.memo.get(&cells) {
            return v;
        }
        let mut best = i32::MIN;
        for action in game.legal_actions() {
            game.play(action).unwrap();
            let v = if game.winner().is_some() {
                (n + 1 - moves) / 2
            } else if game.is_over() {
                0
            } else {
                -self.value(game)
            };
            game.undo().unwrap();
            best = best.max(v);
        }
        self.memo.insert(cells, best);
        best
    }
}
