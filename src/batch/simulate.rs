//! Whole random games, split across threads, deterministic for a seed.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;

use crate::game::Game;
use crate::rng::Rng;
use crate::rules::Rules;
use crate::word::{Status, WordGeometry, WordState};

/// Outcome of one game: the winner (0-based) or `None` for a draw, and its length.
struct Outcome {
    winner: Option<usize>,
    moves: usize,
}

/// Games per work unit: the granularity of threads, progress and cancellation.
const CHUNK: u64 = 2048;

#[derive(Clone, Debug)]
pub struct SimulateConfig {
    pub games: u64,
    pub seed: u64,
    /// Worker threads (1 = the calling thread only).
    pub threads: usize,
}

/// Totals over the games played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimulateResult {
    pub games: u64,
    pub moves: u64,
    /// Wins per player (0-based index).
    pub wins: Vec<u64>,
    pub draws: u64,
    /// `lengths[n]`: games that ended after exactly `n` moves.
    pub lengths: Vec<u64>,
}

impl SimulateResult {
    fn empty(rules: &Rules) -> SimulateResult {
        SimulateResult {
            games: 0,
            moves: 0,
            wins: vec![0; rules.players()],
            draws: 0,
            lengths: vec![0; rules.num_cells() + 1],
        }
    }

    fn add(&mut self, o: &Outcome) {
        self.games += 1;
        self.moves += o.moves as u64;
        match o.winner {
            Some(p) => self.wins[p] += 1,
            None => self.draws += 1,
        }
        self.lengths[o.moves] += 1;
    }

    fn merge(mut self, other: SimulateResult) -> SimulateResult {
        self.games += other.games;
        self.moves += other.moves;
        self.draws += other.draws;
        self.wins
            .iter_mut()
            .zip(&other.wins)
            .for_each(|(a, b)| *a += b);
        self.lengths
            .iter_mut()
            .zip(&other.lengths)
            .for_each(|(a, b)| *a += b);
        self
    }
}

/// Plays `config.games` uniformly random games. Game `i` draws from its own stream
/// `(seed, i)`, so the result does not depend on the thread count. `done` counts
/// finished games (for progress); setting `cancel` stops within one chunk and
/// returns `None`.
pub fn simulate(
    rules: Rules,
    config: &SimulateConfig,
    done: &AtomicU64,
    cancel: &AtomicBool,
) -> Option<SimulateResult> {
    let chunks = config.games.div_ceil(CHUNK);
    let word = WordGeometry::new(rules);
    let run_chunk = |chunk: u64| -> Option<SimulateResult> {
        if cancel.load(Ordering::Relaxed) {
            return None;
        }
        let mut result = SimulateResult::empty(&rules);
        let first = chunk * CHUNK;
        let last = (first + CHUNK).min(config.games);
        let mut game = Game::new(rules);
        for i in first..last {
            // Polled per game: a chunk of long games still stops at once.
            if cancel.load(Ordering::Relaxed) {
                return None;
            }
            let mut rng = Rng::new(config.seed, i);
            let outcome = match &word {
                Some(geometry) => word_random_game(geometry, &mut rng),
                None => general_random_game(&mut game, &mut rng),
            };
            result.add(&outcome);
        }
        done.fetch_add(last - first, Ordering::Relaxed);
        Some(result)
    };
    // One thread per chunk at most; without worker threads (one chunk, or the
    // system refused them) the same work runs here.
    let pool = match config.threads.min(chunks.try_into().unwrap_or(usize::MAX)) {
        0 | 1 => None,
        t => crate::threads::pool(t),
    };
    let Some(pool) = pool else {
        return (0..chunks)
            .map(run_chunk)
            .try_fold(SimulateResult::empty(&rules), |acc, r| Some(acc.merge(r?)));
    };
    pool.install(|| {
        (0..chunks)
            .into_par_iter()
            .map(run_chunk)
            // Short-circuits on the first cancelled chunk.
            .try_reduce(|| SimulateResult::empty(&rules), |a, b| Some(a.merge(b)))
    })
}

/// A random game on the one-word position (the playout of the search's rollouts).
#[inline]
fn word_random_game(geometry: &WordGeometry, rng: &mut Rng) -> Outcome {
    let mut position = WordState::empty();
    let status = position.play_out(geometry, rng);
    Outcome {
        winner: match status {
            Status::Won(p) => Some(p),
            _ => None,
        },
        moves: position.stones_on_board(),
    }
}

fn general_random_game(game: &mut Game, rng: &mut Rng) -> Outcome {
    game.reset();
    loop {
        let a = game.random_action(rng);
        if game.play_unchecked(a) {
            return Outcome {
                winner: game.winner(),
                moves: game.stones_on_board(),
            };
        }
        if game.is_over() {
            return Outcome {
                winner: None,
                moves: game.stones_on_board(),
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(rules: Rules, games: u64, threads: usize) -> SimulateResult {
        let config = SimulateConfig {
            games,
            seed: 42,
            threads,
        };
        simulate(rules, &config, &AtomicU64::new(0), &AtomicBool::new(false)).unwrap()
    }

    #[test]
    fn totals_are_consistent_and_thread_independent() {
        for rules in [
            Rules::connect_four(),
            Rules::new(8, 8, 5, 3, false).unwrap(),
            Rules::tic_tac_toe(),
        ] {
            let one = run(rules, 5000, 1);
            let two = run(rules, 5000, 2);
            assert_eq!(one, two);
            crate::threads::REFUSE_SPAWN.with(|r| r.set(true));
            let refused = run(rules, 5000, 2);
            crate::threads::REFUSE_SPAWN.with(|r| r.set(false));
            assert_eq!(one, refused);
            assert_eq!(one.games, 5000);
            assert_eq!(one.wins.iter().sum::<u64>() + one.draws, 5000);
            assert_eq!(one.lengths.iter().sum::<u64>(), 5000);
            let moves: u64 = one
                .lengths
                .iter()
                .enumerate()
                .map(|(n, c)| n as u64 * c)
                .sum();
            assert_eq!(moves, one.moves);
        }
    }

    #[test]
    fn tic_tac_toe_random_play_matches_known_odds() {
        // Uniform random tic-tac-toe: first player wins ~58.5%, second ~28.8%, draws ~12.7%.
        let r = run(Rules::tic_tac_toe(), 200_000, 2);
        let f = |x: u64| x as f64 / r.games as f64;
        assert!((f(r.wins[0]) - 0.585).abs() < 0.01, "{r:?}");
        assert!((f(r.wins[1]) - 0.288).abs() < 0.01, "{r:?}");
        assert!((f(r.draws) - 0.127).abs() < 0.01, "{r:?}");
    }

    #[test]
    fn fast_kernel_and_general_path_agree_in_distribution() {
        // Different streams use different code paths; compare outcome frequencies.
        let rules = Rules::connect_four();
        let fast = run(rules, 100_000, 2);
        let mut game = Game::new(rules);
        let mut general = SimulateResult::empty(&rules);
        for i in 0..100_000 {
            let mut rng = Rng::new(7, i);
            general.add(&general_random_game(&mut game, &mut rng));
        }
        let p = |x: u64| x as f64 / 100_000.0;
        assert!((p(fast.wins[0]) - p(general.wins[0])).abs() < 0.01);
        assert!((fast.moves as f64 / general.moves as f64 - 1.0).abs() < 0.01);
    }

    #[test]
    fn cancel_stops_early() {
        let config = SimulateConfig {
            games: 1_000_000,
            seed: 0,
            threads: 1,
        };
        assert!(simulate(
            Rules::connect_four(),
            &config,
            &AtomicU64::new(0),
            &AtomicBool::new(true)
        )
        .is_none());
    }
}
