//! What a timed search proved about each move, and the move chosen from it.

/// What a timed search proved about one move, for the player who plays it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveValue {
    /// The outcome is at least this: 1 win, 0 draw, -1 loss.
    pub lo: i32,
    /// The outcome is at most this (`lo == hi`: proven).
    pub hi: i32,
    /// The exact score (Pons' convention), if proven.
    pub exact: Option<i32>,
}

impl MoveValue {
    pub(super) fn unknown() -> MoveValue {
        MoveValue {
            lo: -1,
            hi: 1,
            exact: None,
        }
    }

    pub(super) fn proven(outcome: i32, exact: Option<i32>) -> MoveValue {
        MoveValue {
            lo: outcome,
            hi: outcome,
            exact,
        }
    }
}

/// The answer of [`Solver::best_move_within`](super::Solver::best_move_within).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimedMove {
    /// The chosen action: a column, or a cell `row * width + col` without gravity.
    pub column: usize,
    /// Per column what was proven (`None`: a full column).
    pub moves: Vec<Option<MoveValue>>,
    /// The search finished: `column` is the move of [`Solver::best_move`](super::Solver::best_move).
    pub complete: bool,
}

impl TimedMove {
    /// The best of `moves` by the order of [`Solver::best_move_within`](super::Solver::best_move_within).
    pub(super) fn choose(moves: Vec<Option<MoveValue>>, complete: bool) -> TimedMove {
        let order = centre_first(moves.len());
        TimedMove::choose_in(moves, complete, &order)
    }

    /// [`TimedMove::choose`] with ties broken by `order` (every action, the
    /// preferred first) instead of centre-first columns.
    pub(super) fn choose_in(
        moves: Vec<Option<MoveValue>>,
        complete: bool,
        order: &[usize],
    ) -> TimedMove {
        let mut best: Option<(usize, MoveValue)> = None;
        for &c in order {
            let Some(m) = moves[c] else { continue };
            let key = |m: MoveValue| (m.lo, m.hi, m.exact.is_some(), m.exact.unwrap_or(0));
            let better = match best {
                None => true,
                Some((_, b)) => {
                    let (k, kb) = (key(m), key(b));
                    // Exact scores compare only between moves that both have one.
                    (k.0, k.1) > (kb.0, kb.1)
                        || ((k.0, k.1) == (kb.0, kb.1) && (k.2, k.3) > (kb.2, kb.3))
                }
            };
            if better {
                best = Some((c, m));
            }
        }
        TimedMove {
            column: best.map_or(0, |(c, _)| c),
            moves,
            complete,
        }
    }
}

/// The columns of a board `width` wide, nearest the centre first (the left one
/// of two equally near).
pub(super) fn centre_first(width: usize) -> Vec<usize> {
    let w = width as i32;
    let mut cols: Vec<usize> = (0..width).collect();
    cols.sort_by_key(|&c| ((2 * c as i32 - (w - 1)).abs(), c));
    cols
}
