//! The perfect agent: the exact solver's scores, played greedily or sampled.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use super::AgentError;
use crate::game::Game;
use crate::rng::Rng;
use crate::rules::Rules;
use crate::solver::{Position, SolveError, Solver};

/// The solver's rules ([`Solver::check_rules`]), refused in its words.
pub fn check_rules(rules: &Rules) -> Result<(), AgentError> {
    Solver::check_rules(rules).map_err(|e| {
        let why = match e {
            SolveError::Unsupported(m) => m,
            e => e.to_string(),
        };
        AgentError::Unsupported(format!(
            "the perfect agent plays the solver's rules, not {rules}: {why}"
        ))
    })
}

/// Positions analysed before; sampling the same position again (temperature play,
/// many games from one opening) costs a lookup instead of a search.
#[derive(Default)]
pub struct Cache {
    scores: HashMap<CacheKey, Vec<Option<i32>>>,
}

/// The rules (the win rule included: the same cells score differently under
/// freestyle and standard) and the cells of a position.
type CacheKey = (Rules, Vec<u8>);

/// Entries kept before the cache starts over.
const CACHE_ENTRIES: usize = 1 << 14;

/// Scores every move (exactly, or from the book where it holds every child:
/// win/draw/loss there for a win/draw/loss book, below -1 for a move whose loss is
/// forced soon) and picks one with [`softmax_pick`].
pub fn choose(
    solver: &mut Solver,
    cache: &mut Cache,
    game: &Game,
    temperature: f64,
    rng: &mut Rng,
    cancel: &AtomicBool,
) -> Result<usize, AgentError> {
    let r = game.rules();
    let mut cells = vec![0i8; r.num_cells()];
    game.write_cells(&mut cells);
    let cells: Vec<u8> = cells.into_iter().map(|c| c as u8).collect();
    let key = (*r, cells);
    if let Some(scores) = cache.scores.get(&key) {
        return softmax_pick(scores, temperature, rng).ok_or(AgentError::GameOver);
    }
    if !r.gravity() {
        let scores = solver.analyze_game(game, false, cancel)?;
        let choice = softmax_pick(&scores, temperature, rng).ok_or(AgentError::GameOver);
        remember(cache, key, scores);
        return choice;
    }
    let pos = Position::from_cells(r.width(), r.height(), r.k(), &key.1)?;
    // Opening positions take seconds to minutes to score exactly: the book's
    // values where it holds every child.
    let scores = match solver.book_scores(&pos) {
        Some((scores, true)) => scores,
        Some((mut scores, false)) => {
            demote_quick_losses(solver, &pos, &mut scores, cancel)?;
            scores
        }
        None => solver.analyze(&pos, false, cancel)?,
    };
    let choice = softmax_pick(&scores, temperature, rng).ok_or(AgentError::GameOver);
    remember(cache, key, scores);
    choice
}

/// Keeps a position's scores, starting the cache over when it is full.
fn remember(cache: &mut Cache, key: CacheKey, scores: Vec<Option<i32>>) {
    if cache.scores.len() >= CACHE_ENTRIES {
        cache.scores.clear();
    }
    cache.scores.insert(key, scores);
}

/// Win/draw/loss scores of a lost position: a move after which the opponent forces
/// a win by their [`QUICK_LOSS_REPLIES`]-th stone (its exact score is below every
/// other move's) scores below -1: -2 for the slowest of them, one less per stone
/// sooner (the step of the exact scores). A weak opponent then has to find a long
/// win.
fn demote_quick_losses(
    solver: &mut Solver,
    pos: &Position,
    scores: &mut [Option<i32>],
    cancel: &AtomicBool,
) -> Result<(), AgentError> {
    if scores.iter().flatten().any(|&s| s > -1) {
        return Ok(());
    }
    let quick = solver.quick_loss_scores(pos, QUICK_LOSS_REPLIES, cancel)?;
    // The slowest of the quick losses scores -2.
    let Some(slowest) = quick.iter().flatten().max().copied() else {
        return Ok(());
    };
    for (s, q) in scores.iter_mut().zip(quick) {
        if let Some(q) = q {
            *s = Some(-2 - (slowest - q));
        }
    }
    Ok(())
}

/// How many of the opponent's stones a quick loss lets them win within: beyond
/// what `negamax(6)` sees.
pub const QUICK_LOSS_REPLIES: u32 = 4;

/// An action given each action's score (`None`: illegal). Temperature 0: uniformly
/// among the best scores. Temperature `t > 0`: action `i` with probability
/// proportional to `exp(score_i / t)`. `None` when no action is legal.
pub fn softmax_pick(scores: &[Option<i32>], temperature: f64, rng: &mut Rng) -> Option<usize> {
    let legal: Vec<(usize, i32)> = scores
        .iter()
        .enumerate()
        .filter_map(|(a, s)| s.map(|s| (a, s)))
        .collect();
    let best = legal.iter().map(|&(_, s)| s).max()?;
    if temperature == 0.0 {
        let ties: Vec<usize> = legal
            .iter()
            .filter(|&&(_, s)| s == best)
            .map(|&(a, _)| a)
            .collect();
        return Some(rng.pick(&ties));
    }
    // Shifted by the best score so that the largest weight is 1 (no overflow).
    let weights: Vec<f64> = legal
        .iter()
        .map(|&(_, s)| ((s - best) as f64 / temperature).exp())
        .collect();
    let total: f64 = weights.iter().sum();
    let mut x = unit_f64(rng) * total;
    for (&(a, _), &w) in legal.iter().zip(&weights) {
        if x < w {
            return Some(a);
        }
        x -= w;
    }
    // Rounding left `x` at the very top: the last action with weight.
    legal
        .iter()
        .zip(&weights)
        .rev()
        .find(|(_, &w)| w > 0.0)
        .map(|(&(a, _), _)| a)
}

/// A uniform draw in `[0, 1)` with 53 random bits.
fn unit_f64(rng: &mut Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}
