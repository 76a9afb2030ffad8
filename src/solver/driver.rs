//! The anytime move choice, written once for every exact solver (gravity and
//! free placement): each move's outcome in rounds of growing node budgets (every
//! move gets some search before any gets much), then the exact scores of the moves
//! sharing the best outcome, until the deadline passes. Each solver adds only what
//! is its own (the book, the moves known without a search, an untimed shortcut).

use std::sync::atomic::AtomicBool;

use super::choice::MoveValue;
use super::deadline::Deadline;
use super::error::SolveError;

/// How a limited search of one position ended.
pub(crate) enum Searched {
    /// The value.
    Done(i32),
    /// The node allowance or the deadline ended it; the value lies in `lo..=hi`.
    Stopped { lo: i32, hi: i32 },
}

/// What the move choice asks of an exact solver.
pub(crate) trait MoveSearch {
    type Position;
    /// Nodes a move gets in the first round of outcome searches (four times more each round).
    const FIRST_ROUND_NODES: u64;
    /// The position after `action`.
    fn child(&self, pos: &Self::Position, action: usize) -> Self::Position;
    /// The value of `pos` for its side to move (its sign if `weak`) within `budget`
    /// nodes and the deadline; with a `window` `(a, b)` a value `<= a` only bounds
    /// it from above and one `>= b` from below. Fails once the call's node limit is
    /// spent (a stop at `budget` or at the deadline is no failure).
    fn search_limited(
        &mut self,
        pos: &Self::Position,
        weak: bool,
        budget: u64,
        window: Option<(i32, i32)>,
        deadline: Option<&Deadline>,
        cancel: &AtomicBool,
    ) -> Result<Searched, SolveError>;
    /// The nodes this call may still search.
    fn nodes_left(&self) -> u64;
}

/// Narrows `moves` (per action of `order`, the preferred first) by the outcome
/// rounds, then the exact scores; whether the search finished.
pub(crate) fn search_moves<S: MoveSearch>(
    s: &mut S,
    pos: &S::Position,
    order: &[usize],
    moves: &mut [Option<MoveValue>],
    deadline: Option<&Deadline>,
    cancel: &AtomicBool,
) -> Result<bool, SolveError> {
    search_outcomes(s, pos, order, moves, deadline, cancel)?;
    search_exact_scores(s, pos, order, moves, deadline, cancel)
}

/// Each move's outcome, in rounds of four times the nodes per open move.
fn search_outcomes<S: MoveSearch>(
    s: &mut S,
    pos: &S::Position,
    order: &[usize],
    moves: &mut [Option<MoveValue>],
    deadline: Option<&Deadline>,
    cancel: &AtomicBool,
) -> Result<(), SolveError> {
    let mut round_nodes = S::FIRST_ROUND_NODES;
    loop {
        let open = outcome_round(s, pos, order, moves, round_nodes, deadline, cancel)?;
        if !open || deadline.is_some_and(Deadline::seen_passed) {
            return Ok(());
        }
        round_nodes = round_nodes.saturating_mul(4);
    }
}

/// One round over the moves not yet settled; whether one is still open.
fn outcome_round<S: MoveSearch>(
    s: &mut S,
    pos: &S::Position,
    order: &[usize],
    moves: &mut [Option<MoveValue>],
    round_nodes: u64,
    deadline: Option<&Deadline>,
    cancel: &AtomicBool,
) -> Result<bool, SolveError> {
    let mut open = false;
    for (i, &c) in order.iter().enumerate() {
        if settled(moves, order, i) {
            continue;
        }
        let Some(m) = moves[c] else { continue };
        let left = s.nodes_left();
        if left == 0 {
            return Err(SolveError::NodeLimit);
        }
        // A passed deadline ends the rounds (`seen_passed` from now on).
        if deadline.is_some_and(Deadline::passed) {
            return Ok(open);
        }
        let budget = if deadline.is_some() {
            round_nodes.min(left)
        } else {
            left
        };
        // Once a win is proven, or a move nearer the centre is proven to draw
        // at least, only whether this move wins matters (one probe instead of
        // two).
        let wins_only =
            moves.iter().flatten().any(|m| m.lo == 1) || nearer_floor(moves, order, i) >= Some(0);
        let (m, still_open) =
            search_outcome(s, &s.child(pos, c), m, wins_only, budget, deadline, cancel)?;
        open |= still_open;
        moves[c] = Some(m);
    }
    Ok(open)
}

/// One move's outcome, `m` narrowed by a search of its `child`; whether it is still open.
fn search_outcome<S: MoveSearch>(
    s: &mut S,
    child: &S::Position,
    m: MoveValue,
    wins_only: bool,
    budget: u64,
    deadline: Option<&Deadline>,
    cancel: &AtomicBool,
) -> Result<(MoveValue, bool), SolveError> {
    // The child's side of -1/0: <= -1 means this move wins.
    let window = wins_only.then_some((-1, 0));
    let searched = s.search_limited(child, true, budget, window, deadline, cancel)?;
    Ok(match searched {
        Searched::Done(0) if window.is_some() => (
            MoveValue {
                hi: m.hi.min(0),
                ..m
            },
            false,
        ),
        Searched::Done(v) => (MoveValue::proven(-v, None), false),
        Searched::Stopped { lo, hi } => {
            let m = MoveValue {
                lo: m.lo.max(-hi),
                hi: m.hi.min(-lo),
                exact: None,
            };
            (m, true)
        }
    })
}

/// The exact scores of the moves sharing the best outcome; whether the search finished.
fn search_exact_scores<S: MoveSearch>(
    s: &mut S,
    pos: &S::Position,
    order: &[usize],
    moves: &mut [Option<MoveValue>],
    deadline: Option<&Deadline>,
    cancel: &AtomicBool,
) -> Result<bool, SolveError> {
    let best = moves.iter().flatten().map(|m| m.lo).max();
    let all_proven = (0..order.len()).all(|i| settled(moves, order, i));
    let contenders: Vec<usize> = order
        .iter()
        .copied()
        .filter(|&c| moves[c].is_some_and(|m| Some(m.lo) == best))
        .collect();
    // Only a shared win or loss needs them: draws all score 0.
    if !all_proven || contenders.len() <= 1 || best == Some(0) {
        return Ok(all_proven);
    }
    // The first contender's exact score, then for each later one only whether
    // it beats the best so far (one null-window probe), and its exact score if
    // it does.
    let mut best_exact = contenders
        .iter()
        .filter_map(|&c| moves[c].and_then(|m| m.exact))
        .max();
    for &c in &contenders {
        let Some(m) = moves[c] else { continue };
        if m.exact.is_some() {
            continue;
        }
        if deadline.is_some_and(Deadline::passed) {
            return Ok(false);
        }
        match exact_if_better(s, &s.child(pos, c), best_exact, deadline, cancel)? {
            Some(Searched::Done(v)) => {
                moves[c] = Some(MoveValue::proven(m.lo, Some(-v)));
                best_exact = best_exact.max(Some(-v));
            }
            Some(Searched::Stopped { .. }) => return Ok(false),
            None => {}
        }
    }
    Ok(true)
}

/// The exact search of `child`, the position after a move; `None` where one
/// null-window probe shows that the move does not beat `best`.
fn exact_if_better<S: MoveSearch>(
    s: &mut S,
    child: &S::Position,
    best: Option<i32>,
    deadline: Option<&Deadline>,
    cancel: &AtomicBool,
) -> Result<Option<Searched>, SolveError> {
    if let Some(b) = best {
        // Beats `b` <=> the child scores <= -b - 1.
        let a = -b - 1;
        let left = s.nodes_left();
        match s.search_limited(child, false, left, Some((a, a + 1)), deadline, cancel)? {
            Searched::Done(v) if v > a => return Ok(None),
            Searched::Done(_) => {}
            stopped => return Ok(Some(stopped)),
        }
    }
    let left = s.nodes_left();
    s.search_limited(child, false, left, None, deadline, cancel)
        .map(Some)
}

/// Whether move `order[i]` is settled: proven, or not to be chosen whatever it
/// turns out to be (it cannot beat a proven outcome, or at best draws where a
/// move nearer the centre draws at least).
fn settled(moves: &[Option<MoveValue>], order: &[usize], i: usize) -> bool {
    let Some(m) = moves[order[i]] else {
        return true;
    };
    let floor = moves.iter().flatten().map(|m| m.lo).max().unwrap_or(-1);
    m.lo == m.hi || m.hi < floor || (m.hi <= 0 && nearer_floor(moves, order, i) >= Some(0))
}

/// The best outcome proven for a move nearer the centre than `order[i]`.
fn nearer_floor(moves: &[Option<MoveValue>], order: &[usize], i: usize) -> Option<i32> {
    order[..i]
        .iter()
        .filter_map(|&d| moves[d])
        .map(|m| m.lo)
        .max()
}
