//! Move-path enumeration: the known counts that pin the rules down.

use crate::game::Game;

/// Work (nodes plus the actions generated at them) between two polls of
/// `keep_going`: about a millisecond on any board, so a stop lands quickly even
/// where every node has hundreds of actions.
const POLL_WORK: u64 = 1 << 15;

/// Counts work and polls `keep_going` once per [`POLL_WORK`] of it.
struct Poll<'a> {
    left: u64,
    keep_going: &'a mut dyn FnMut() -> bool,
}

impl Poll<'_> {
    /// Spends `work`; false once `keep_going` said stop.
    #[inline]
    fn spend(&mut self, work: usize) -> bool {
        let work = work as u64;
        if self.left > work {
            self.left -= work;
            return true;
        }
        self.left = POLL_WORK;
        (self.keep_going)()
    }
}

/// Number of move sequences of exactly `depth` plies from `game` (a game that ends
/// earlier is not extended and adds nothing). `perft(0) == 1`.
pub fn perft(game: &mut Game, depth: u32) -> u64 {
    perft_interruptible(game, depth, &mut || true).expect("never interrupted")
}

/// Number of complete games from `game`: paths to a won or drawn position
/// (tic-tac-toe: 255,168).
pub fn count_games(game: &mut Game) -> u64 {
    count_games_interruptible(game, &mut || true).expect("never interrupted")
}

/// [`perft`] that polls `keep_going` after every ~32k units of work (nodes plus
/// generated actions), so a long count stops quickly on any board; `None` when
/// interrupted (`game` is then unchanged).
pub fn perft_interruptible(
    game: &mut Game,
    depth: u32,
    keep_going: &mut dyn FnMut() -> bool,
) -> Option<u64> {
    let mut poll = Poll {
        left: POLL_WORK,
        keep_going,
    };
    walk_polled(game, Some(depth), &mut poll)
}

/// [`count_games`] with the polling of [`perft_interruptible`].
pub fn count_games_interruptible(
    game: &mut Game,
    keep_going: &mut dyn FnMut() -> bool,
) -> Option<u64> {
    let mut poll = Poll {
        left: POLL_WORK,
        keep_going,
    };
    walk_polled(game, None, &mut poll)
}

/// The leaves below `game`: with `depth`, the move sequences of exactly that many
/// plies (a game ending earlier adds nothing); without, the finished games.
fn walk_polled(game: &mut Game, depth: Option<u32>, poll: &mut Poll<'_>) -> Option<u64> {
    if depth == Some(0) {
        return Some(1);
    }
    if game.is_over() {
        return Some(u64::from(depth.is_none()));
    }
    // The legal actions on the stack where they fit (every gravity board), so that
    // a node costs no allocation.
    let (mut inline, mut heap) = ([0u16; 64], Vec::new());
    let actions: &[u16] = if game.rules().num_actions() <= inline.len() {
        let mut n = 0;
        game.for_each_legal(|a| {
            inline[n] = a as u16;
            n += 1;
        });
        &inline[..n]
    } else {
        game.for_each_legal(|a| heap.push(a as u16));
        &heap
    };
    if !poll.spend(1 + actions.len()) {
        return None;
    }
    if depth == Some(1) {
        return Some(actions.len() as u64);
    }
    let below = depth.map(|d| d - 1);
    let mut total = 0;
    for &a in actions {
        game.play_unchecked(a as usize);
        let sub = walk_polled(game, below, poll);
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

    #[test]
    fn polls_by_work_not_by_depth() {
        // perft(3) on 19x19: 1 + 361 + 361*360 nodes generate 361, 360 and 359
        // actions each. A depth-based poll asks once; a work-based one about once
        // per POLL_WORK of that work, and still counts right.
        let mut g = Game::new(Rules::new(19, 19, 5, 2, false).unwrap());
        let work: u64 = 362 + 361 * 361 + 361 * 360 * 360;
        let mut polls = 0u64;
        let n = perft_interruptible(&mut g, 3, &mut || {
            polls += 1;
            true
        });
        assert_eq!(n, Some(361 * 360 * 359));
        // Between two polls: at most POLL_WORK plus one node's 362 units.
        assert!(
            polls >= work / (POLL_WORK + 362) - 1,
            "{polls} polls for {work} work"
        );
    }

    #[test]
    fn a_stop_lands_on_boards_with_many_actions() {
        // 20x20 k=2 (games end after three moves, hundreds of actions a node) and
        // 8x8 free: interrupted at the third poll, the counts stop there and leave
        // the game as it was.
        for rules in [
            Rules::new(20, 20, 2, 2, false).unwrap(),
            Rules::new(8, 8, 4, 2, false).unwrap(),
        ] {
            let mut g = Game::new(rules);
            let before = g.clone();
            for count in [false, true] {
                let mut polls = 0;
                let mut stop_at_third = || {
                    polls += 1;
                    polls < 3
                };
                let got = if count {
                    count_games_interruptible(&mut g, &mut stop_at_third)
                } else {
                    perft_interruptible(&mut g, 7, &mut stop_at_third)
                };
                assert_eq!(got, None);
                assert_eq!(polls, 3, "a stop is final");
                assert_eq!(g, before);
            }
        }
    }
}
