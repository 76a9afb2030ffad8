//! Random 7x6 positions for the solver's measurements.

use inarow::solver::Position;
use inarow::Rng;

/// Random play from the empty board until `ply` stones, restarting whenever the game
/// ends first or the player to move could win at once.
pub fn random_position(rng: &mut Rng, ply: usize) -> Position {
    'retry: loop {
        let mut pos = Position::new(7, 6, 4).expect("7x6 is supported");
        for _ in 0..ply {
            let legal: Vec<usize> = (0..7).filter(|&c| pos.can_play(c)).collect();
            let col = legal[rng.below(legal.len() as u32) as usize];
            pos.play(col).expect("legal column");
            if pos.is_over() {
                continue 'retry;
            }
        }
        if (0..7).any(|c| pos.is_winning_move(c)) {
            continue;
        }
        return pos;
    }
}
