//! The one-word kernel: whole random games on boards whose layout fits a `u64`
//! (Connect Four, tic-tac-toe, 8x7 and smaller), with no history and no hash.

use crate::bitboard::Bitboard;
use crate::layout::Layout;
use crate::rng::Rng;
use crate::rules::Rules;

/// Outcome of one game: the winner (0-based) or `None` for a draw, and its length.
pub(crate) struct Outcome {
    pub winner: Option<usize>,
    pub moves: usize,
}

pub(crate) struct FastKernel {
    rules: Rules,
    layout: Layout,
}

impl FastKernel {
    pub fn new(rules: Rules) -> Option<FastKernel> {
        let layout = Layout::of(&rules);
        layout.fits_word().then_some(FastKernel { rules, layout })
    }

    /// Plays one uniformly random game to its end.
    #[inline]
    pub fn random_game(&self, rng: &mut Rng) -> Outcome {
        let players = self.rules.players();
        let (steps, k) = (self.layout.line_steps(), self.layout.k());
        let board = self.layout.board();
        let mut stones = [Bitboard(0); crate::rules::MAX_PLAYERS];
        let mut occupied = Bitboard(0);
        let cells = self.rules.num_cells();
        let mut player = 0;
        for moves in 1..=cells {
            let choices = if self.rules.gravity() {
                // Lowest empty cell of each column; pick one of the playable columns.
                self.layout.drop_cells(occupied)
            } else {
                !occupied & board
            };
            let cell = choices.nth(rng.below(choices.count()));
            occupied |= cell;
            stones[player] |= cell;
            if stones[player].has_line(steps, k) {
                return Outcome {
                    winner: Some(player),
                    moves,
                };
            }
            player += 1;
            if player == players {
                player = 0;
            }
        }
        Outcome {
            winner: None,
            moves: cells,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_games_end_legally() {
        let kernel = FastKernel::new(Rules::connect_four()).unwrap();
        let mut rng = Rng::new(3, 0);
        for _ in 0..1000 {
            let o = kernel.random_game(&mut rng);
            assert!((7..=42).contains(&o.moves));
            if o.winner.is_none() {
                assert_eq!(o.moves, 42);
            } else {
                assert_eq!(o.winner, Some((o.moves - 1) % 2));
            }
        }
    }
}
