//! Move-path enumeration: the known counts that pin the rules down.

use crate::game::Game;

/// Number of move sequences of exactly `depth` plies from `game` (a game that ends
/// earlier is not extended and adds nothing). `perft(0) == 1`.
pub fn perft(game: &mut Game, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if game.is_over() {
        return 0;
    }
    let mut actions = Vec::with_capacity(game.rules().num_actions());
    game.for_each_legal(|a| actions.push(a));
    if depth == 1 {
        return actions.len() as u64;
    }
    let mut total = 0;
    for a in actions {
        game.play_unchecked(a);
        total += perft(game, depth - 1);
        game.undo().expect("a move was just played");
    }
    total
}

/// Number of complete games from `game`: paths to a won or drawn position
/// (tic-tac-toe: 255,168).
pub fn count_games(game: &mut Game) -> u64 {
    if game.is_over() {
        return 1;
    }
    let mut actions = Vec::with_capacity(game.rules().num_actions());
    game.for_each_legal(|a| actions.push(a));
    let mut total = 0;
    for a in actions {
        game.play_unchecked(a);
        total += count_games(game);
        game.undo().expect("a move was just played");
    }
    total
}

/// [`perft`] that polls `keep_going` between subtrees near the root, so a long count
/// can be interrupted; `None` when interrupted.
pub fn perft_interruptible(
    game: &mut Game,
    depth: u32,
    keep_going: &mut dyn FnMut() -> bool,
) -> Option<u64> {
    if depth <= 6 {
        return keep_going().then(|| perft(game, depth));
    }
    if game.is_over() {
        return Some(0);
    }
    let actions = game.legal_actions();
    let mut total = 0;
    for a in actions {
        game.play_unchecked(a);
        let sub = perft_interruptible(game, depth - 1, keep_going);
        game.undo().expect("a move was just played");
        total += sub?;
    }
    Some(total)
}

/// [`count_games`] with the same interruption points as [`perft_interruptible`].
pub fn count_games_interruptible(
    game: &mut Game,
    keep_going: &mut dyn FnMut() -> bool,
) -> Option<u64> {
    if game.is_over() {
        return Some(1);
    }
    let remaining = game.rules().num_cells() - game.stones_on_board();
    if remaining <= 8 {
        return keep_going().then(|| count_games(game));
    }
    let actions = game.legal_actions();
    let mut total = 0;
    for a in actions {
        game.play_unchecked(a);
        let sub = count_games_interruptible(game, keep_going);
        game.undo().expect("a move was just played");
        total += sub?;
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn tic_tac_toe_has_255168_games() {
        let mut g = Game::new(Rules::tic_tac_toe());
        assert_eq!(count_games(&mut g), 255_168);
        assert_eq!(perft(&mut g, 9), 127_872);
    }

    #[test]
    fn connect_four_shallow_perft() {
        let mut g = Game::new(Rules::connect_four());
        let expected = [1, 7, 49, 343, 2401, 16807, 117_649, 823_536];
        for (d, &n) in expected.iter().enumerate() {
            assert_eq!(perft(&mut g, d as u32), n, "depth {d}");
        }
        assert_eq!(perft_interruptible(&mut g, 7, &mut || true), Some(823_536));
        assert_eq!(perft_interruptible(&mut g, 7, &mut || false), None);
    }
}
