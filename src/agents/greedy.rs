//! The greedy agent: one move of look-ahead for itself, one for the next player.

use super::LineBoard;
use crate::game::Game;
use crate::rng::Rng;

/// In order: a move that wins at once; else a move after which the next player
/// cannot win at once; else a move onto one of the next player's winning cells
/// (blocking one of several); else any legal move. Random among the candidates of
/// the first non-empty class. `board` is not over.
pub fn choose(board: &LineBoard, legal: &mut Vec<usize>, rng: &mut Rng) -> usize {
    let rules = *board.rules();
    let me = board.to_move();
    let next = (me + 1) % rules.players();
    board.legal_actions(legal);
    let cell = |a: usize| board.cell_of(a).expect("a legal action fills a cell");

    let wins: Vec<usize> = legal
        .iter()
        .copied()
        .filter(|&a| board.completes_line(cell(a), me))
        .collect();
    if !wins.is_empty() {
        return rng.pick(&wins);
    }

    // The cells where the next player would win if it moved now.
    let threats: Vec<usize> = if rules.gravity() {
        legal
            .iter()
            .map(|&a| cell(a))
            .filter(|&c| board.completes_line(c, next))
            .collect()
    } else {
        legal
            .iter()
            .copied()
            .filter(|&c| board.completes_line(c, next))
            .collect()
    };
    let width = rules.width();
    // With gravity a move also opens the cell above it to the next player.
    let opens_threat =
        |c: usize| rules.gravity() && c >= width && board.completes_line(c - width, next);
    pick_first_class(
        legal,
        rng,
        [
            &mut |a| {
                let c = cell(a);
                threats.iter().all(|&t| t == c) && !opens_threat(c)
            },
            &mut |a| threats.contains(&cell(a)),
        ],
    )
}

/// [`choose`] on the game itself, under any win rule (standard and renju: what
/// completes a line and which cells are legal are the game's): a move that wins at
/// once; else one after which the next player cannot win at once; else one onto a
/// cell where the next player would win; else any legal move. Random among the
/// candidates of the first non-empty class. `game` is not over.
pub fn choose_game(game: &Game, legal: &mut Vec<usize>, rng: &mut Rng) -> usize {
    let me = game.to_move();
    let next = (me + 1) % game.rules().players();
    legal.clear();
    game.for_each_legal(|a| legal.push(a));
    let wins: Vec<usize> = legal
        .iter()
        .copied()
        .filter(|&a| game.wins_at(me, a))
        .collect();
    if !wins.is_empty() {
        return rng.pick(&wins);
    }
    let mut after = game.clone();
    pick_first_class(
        legal,
        rng,
        [
            &mut |a| {
                after.play_unchecked(a);
                let safe = after.is_over() || after.count_wins(next, 1) == 0;
                after.undo().expect("the move just played");
                safe
            },
            &mut |a| game.wins_at(next, a),
        ],
    )
}

/// A random legal move of the first class (tested in order) that has one, else a
/// random legal move: the greedy agent's order after its winning moves.
fn pick_first_class(
    legal: &[usize],
    rng: &mut Rng,
    classes: [&mut dyn FnMut(usize) -> bool; 2],
) -> usize {
    for class in classes {
        let members: Vec<usize> = legal.iter().copied().filter(|&a| class(a)).collect();
        if !members.is_empty() {
            return rng.pick(&members);
        }
    }
    rng.pick(legal)
}
