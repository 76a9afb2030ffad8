//! Matches: agent `a` against agent `b` over many games, across threads,
//! deterministic for a seed whatever the thread count.
//!
//! Seating: with 2 players `a` plays one seat and `b` the other; with more
//! players `a` plays one seat and copies of `b` all the others. With `swap`, `a`'s
//! seat rotates with the game index (game `i`: seat `i % players`, so every seat
//! gets the same number of games up to one); without it `a` always moves first.
//!
//! Random streams belong to seats within a *round*: with `swap`, games
//! `r * players .. (r + 1) * players` form round `r` and share the streams of each
//! seat, so with 2 players `match(a, b)` and `match(b, a)` play exactly the same
//! games with the agents' seats exchanged (a's wins in one are its losses in the
//! other). Without `swap` every game is its own round. The games of a round also
//! start from the same opening ([`Openings`]): random moves drawn for the round, or
//! the next opening of a fixed set (round `r` plays opening `r % len`); a game the
//! opening already decided counts like any other.
//!
//! A match can be played in chunks (on several machines): `first_game` makes a
//! chunk play the games `first_game .. first_game + games` exactly as the whole
//! match plays them, and [`MatchResult::merge`] of the chunks' results equals the
//! whole match's result.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use super::{Agent, AgentError, AgentWorker};
use crate::game::Game;
use crate::rng::Rng;
use crate::rules::{Rules, MAX_PLAYERS};
use crate::solver::book::Book;
use crate::threads::on_threads;

/// How to run a match.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub games: u64,
    /// The index of the first game: this match plays games `first_game ..
    /// first_game + games` of a longer match (0 for a whole match).
    pub first_game: u64,
    pub seed: u64,
    /// Rotate `a`'s seat from game to game (else `a` always moves first).
    pub swap: bool,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// The moves that open every game before the agents play (the same opening for
    /// every game of a round, so each is played from every seat).
    pub openings: Openings,
    /// The perfect agent's opening book.
    pub book: Option<Arc<Book>>,
    /// Which finished games to keep, moves and all ([`MatchResult::kept`]).
    pub keep: Keep,
}

/// How a match's games open (the same opening for every game of a round).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Openings {
    /// This many uniformly random moves, drawn for each round from the match's seed.
    Random(usize),
    /// A fixed set of move sequences: round `r` opens with `set[r % set.len()]`.
    /// Not empty, and each sequence legal under the match's rules
    /// ([`Openings::check`]).
    Set(Arc<[Vec<usize>]>),
}

impl Openings {
    /// Whether every opening of a set is legal under `rules`: `Err` names the first
    /// bad opening (its index in the set) and move (from 1), and why.
    pub fn check(&self, rules: &Rules) -> Result<(), String> {
        let Openings::Set(set) = self else {
            return Ok(());
        };
        if set.is_empty() {
            return Err("the set of openings is empty".into());
        }
        let mut game = Game::new(*rules);
        for (i, moves) in set.iter().enumerate() {
            game.reset();
            for (j, &action) in moves.iter().enumerate() {
                if let Err(e) = game.play(action) {
                    return Err(format!(
                        "opening {i}: move {} (action {action}) is illegal: {e}",
                        j + 1
                    ));
                }
            }
        }
        Ok(())
    }

    /// The opening of round `round`'s games, for a set (`None` for random openings).
    pub fn of_round(&self, round: u64) -> Option<&[usize]> {
        match self {
            Openings::Random(_) => None,
            Openings::Set(set) => Some(&set[(round % set.len() as u64) as usize]),
        }
    }
}

/// Which games a match keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Keep {
    /// None: counts only.
    #[default]
    Nothing,
    /// The games `a` lost.
    Losses,
    /// Every game.
    All,
}

/// A game a match kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeptGame {
    /// Its index in the match.
    pub index: u64,
    /// `a`'s seat (0-based).
    pub seat: usize,
    /// The winner (0-based; `None`: a draw).
    pub winner: Option<usize>,
    /// Every move, the opening's first.
    pub moves: Vec<usize>,
}

/// Results of `a`: a loss is a game another player won.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Tally {
    /// Adds `o`'s counts to these.
    pub fn add(&mut self, o: &Tally) {
        self.games += o.games;
        self.wins += o.wins;
        self.draws += o.draws;
        self.losses += o.losses;
    }
}

/// `a`'s results over the whole match and per seat (0-based, seat 0 moves first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchResult {
    pub total: Tally,
    pub seats: Vec<Tally>,
    /// Moves played in all games.
    pub moves: u64,
    /// Per seat of `a`: the first game played from it (its index and a hash of its
    /// moves: the same whatever the thread count), and whether another game from it
    /// went differently. Two deterministic agents from one opening play one game per
    /// seat, over and over: [`MatchResult::repeats_one_game`].
    lines: Vec<Option<(u64, u64)>>,
    varied: Vec<bool>,
    /// The games kept (see [`MatchConfig::keep`]), in no particular order.
    pub kept: Vec<KeptGame>,
}

impl MatchResult {
    pub fn new(players: usize) -> MatchResult {
        MatchResult {
            total: Tally::default(),
            seats: vec![Tally::default(); players],
            moves: 0,
            lines: vec![None; players],
            varied: vec![false; players],
            kept: Vec::new(),
        }
    }

    /// Adds the finished game number `index`, in which `a` sat at `seat`.
    pub fn record_game(&mut self, seat: usize, index: u64, game: &Game) {
        self.record(seat, game.winner(), game.stones_on_board());
        let line = game
            .history()
            .iter()
            .fold(0x5EED_u64, |h, &a| crate::rng::splitmix64(h ^ a as u64));
        self.note_line(seat, (index, line));
    }

    /// Adds game number `index` (finished, `a` at `seat`) as [`record_game`] does,
    /// and keeps it if `keep` asks for it.
    ///
    /// [`record_game`]: MatchResult::record_game
    pub fn record_and_keep(&mut self, seat: usize, index: u64, game: &Game, keep: Keep) {
        self.record_game(seat, index, game);
        let winner = game.winner();
        let kept = match keep {
            Keep::Nothing => false,
            Keep::Losses => winner.is_some_and(|w| w != seat),
            Keep::All => true,
        };
        if kept {
            self.kept.push(KeptGame {
                index,
                seat,
                winner,
                moves: game.history().iter().map(|&a| a as usize).collect(),
            });
        }
    }

    fn note_line(&mut self, seat: usize, (index, line): (u64, u64)) {
        match self.lines[seat] {
            None => self.lines[seat] = Some((index, line)),
            Some((first, kept)) => {
                self.varied[seat] |= kept != line;
                if index < first {
                    self.lines[seat] = Some((index, line));
                }
            }
        }
    }

    /// Whether every game from each seat of `a` was one and the same game, over more
    /// games than seats: the score then measures one game per seat, not the agents.
    pub fn repeats_one_game(&self) -> bool {
        self.total.games > self.seats.len() as u64 && !self.varied.iter().any(|&v| v)
    }

    /// Adds one game: `a` sat at `seat`, `winner` won (`None`: a draw) after `moves`.
    pub fn record(&mut self, seat: usize, winner: Option<usize>, moves: usize) {
        let one = Tally {
            games: 1,
            wins: u64::from(winner == Some(seat)),
            draws: u64::from(winner.is_none()),
            losses: u64::from(winner.is_some_and(|w| w != seat)),
        };
        self.total.add(&one);
        self.seats[seat].add(&one);
        self.moves += moves as u64;
    }

    /// Per seat of `a`: the first game played from it (its index and a hash of its
    /// moves), and whether another game from it went differently.
    pub fn seat_lines(&self) -> impl Iterator<Item = (Option<(u64, u64)>, bool)> + '_ {
        self.lines.iter().copied().zip(self.varied.iter().copied())
    }

    /// Adds the results of other games of the same match (a chunk of it, or what
    /// another thread played).
    pub fn merge(&mut self, other: &MatchResult) {
        self.total.add(&other.total);
        for (s, o) in self.seats.iter_mut().zip(&other.seats) {
            s.add(o);
        }
        self.moves += other.moves;
        for seat in 0..self.seats.len() {
            self.varied[seat] |= other.varied[seat];
            if let Some(line) = other.lines[seat] {
                self.note_line(seat, line);
            }
        }
        self.kept.extend(other.kept.iter().cloned());
    }
}

/// `a`'s seat (0-based) in game `game`.
pub fn seat_of_a(game: u64, players: usize, swap: bool) -> usize {
    if swap {
        (game % players as u64) as usize
    } else {
        0
    }
}

/// The generator of the agent at `seat` in game `game`: one stream per (round, seat).
pub fn game_rng(seed: u64, game: u64, players: usize, swap: bool, seat: usize) -> Rng {
    let round = round_of(game, players, swap);
    Rng::new(
        seed,
        round
            .wrapping_mul(MAX_PLAYERS as u64)
            .wrapping_add(seat as u64),
    )
}

/// The round of game `index`: its `players` games (with `swap`) share the agents'
/// streams and the opening.
pub fn round_of(index: u64, players: usize, swap: bool) -> u64 {
    if swap {
        index / players as u64
    } else {
        index
    }
}

/// The opening of game `index`, shared by the games of its round: played on `game`
/// (a fresh one). The moves of a set are played checked: an illegal one (a set not
/// passed through [`Openings::check`]) is left out, with the rest of its opening.
pub fn play_opening(game: &mut Game, config: &MatchConfig, index: u64) {
    let round = round_of(index, game.rules().players(), config.swap);
    match &config.openings {
        Openings::Random(plies) => {
            let mut rng = Rng::new(config.seed ^ 0x6F70_656E_696E_6773, round);
            for _ in 0..*plies {
                if game.is_over() {
                    break;
                }
                let a = game.random_action(&mut rng);
                game.play_unchecked(a);
            }
        }
        Openings::Set(_) => {
            for &a in config.openings.of_round(round).unwrap_or_default() {
                if game.play(a).is_err() {
                    break;
                }
            }
        }
    }
}

/// Plays `config.games` games of `a` against `b`. `done` counts finished games;
/// raising `cancel` stops within a move ([`AgentError::Cancelled`]).
pub fn play_match(
    rules: Rules,
    a: &Agent,
    b: &Agent,
    config: &MatchConfig,
    done: &AtomicU64,
    cancel: &AtomicBool,
) -> Result<MatchResult, AgentError> {
    for agent in [a, b] {
        agent.validate()?;
        agent.check_rules(&rules)?;
    }
    config
        .openings
        .check(&rules)
        .map_err(AgentError::InvalidConfig)?;
    let next = AtomicU64::new(0);
    let failure: Mutex<Option<AgentError>> = Mutex::new(None);
    let total = Mutex::new(MatchResult::new(rules.players()));
    let work = || {
        let mut result = MatchResult::new(rules.players());
        let worker = |agent: &Agent| AgentWorker::new(*agent).with_book(config.book.clone());
        let (mut wa, mut wb) = (worker(a), worker(b));
        let mut game = Game::new(rules);
        game.reserve_history();
        loop {
            let n = next.fetch_add(1, Ordering::Relaxed);
            if n >= config.games || cancel.load(Ordering::Relaxed) {
                break;
            }
            let i = config.first_game + n;
            let seat = seat_of_a(i, rules.players(), config.swap);
            match play_game(&mut game, &mut wa, &mut wb, seat, config, i, cancel) {
                Ok(_) => result.record_and_keep(seat, i, &game, config.keep),
                Err(e) => {
                    failure
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .get_or_insert(e);
                    // Stops the other workers too.
                    next.store(config.games, Ordering::Relaxed);
                    break;
                }
            }
            done.fetch_add(1, Ordering::Relaxed);
        }
        total
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .merge(&result);
    };
    let threads = config.threads.clamp(1, config.games.clamp(1, 256) as usize);
    on_threads(threads, "inarow-match", work);
    if let Some(e) = failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    if cancel.load(Ordering::Relaxed) {
        return Err(AgentError::Cancelled);
    }
    Ok(total.into_inner().unwrap_or_else(|p| p.into_inner()))
}

/// One game from the empty board; returns the winner (`None`: a draw).
fn play_game(
    game: &mut Game,
    a: &mut AgentWorker,
    b: &mut AgentWorker,
    seat_a: usize,
    config: &MatchConfig,
    index: u64,
    cancel: &AtomicBool,
) -> Result<Option<usize>, AgentError> {
    game.reset();
    play_opening(game, config, index);
    let players = game.rules().players();
    let mut rngs: Vec<Rng> = (0..players)
        .map(|s| game_rng(config.seed, index, players, config.swap, s))
        .collect();
    while !game.is_over() {
        let seat = game.to_move();
        let worker = if seat == seat_a { &mut *a } else { &mut *b };
        let action = worker.choose(game, &mut rngs[seat], cancel)?;
        game.play(action).map_err(|e| {
            AgentError::InvalidConfig(format!(
                "internal error: {:?} chose an illegal move: {e}",
                worker.agent()
            ))
        })?;
    }
    Ok(game.winner())
}
