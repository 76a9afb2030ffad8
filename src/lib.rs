//! # inarow: exact, fast k-in-a-row games
//!
//! The whole family (Connect Four, tic-tac-toe, gomoku and variants): any board up
//! to 64x64, any line length `k`, 2 to 16 players, with or without gravity.
//!
//! ```
//! use inarow::{Game, Rules};
//!
//! let mut game = Game::new(Rules::connect_four());
//! for col in [3, 3, 4, 4, 5, 5] {
//!     assert!(!game.play(col).unwrap());
//! }
//! assert!(game.play(6).unwrap()); // four in a row on the bottom
//! assert_eq!(game.winner(), Some(0));
//! assert!(game.play(0).is_err()); // the game is over
//! ```
//!
//! Conventions: rows count from the top (row 0 is the top row, as printed); a
//! gravity action is a column, a free-placement action is `row * width + col`.
//! Players are 0-based in Rust and 1-based in Python.

mod bitboard;
mod detect;
mod error;
mod game;
mod layout;
mod lines;
mod memory;
mod perft;
mod record;
mod rng;
mod rules;
mod word;
// The thread layer under every search.
mod threads;
// The call machinery of the Python layer.
#[cfg_attr(not(feature = "python"), allow(dead_code))]
mod watch;

pub mod agents;
pub mod batch;
pub mod mcts;
pub mod net;
pub mod proof;
pub mod solver;
pub mod threats;

#[cfg(feature = "python")]
mod python;

pub use detect::winners;
pub use error::{MoveError, PonsError, PositionError};
pub use game::Game;
pub use lines::Forbidden;
pub use perft::{count_games, count_games_interruptible, perft, perft_interruptible};
pub use record::{from_bytes, to_bytes, FORMAT_VERSION};
pub use rng::Rng;
pub use rules::{RuleValue, Rules, RulesError, WinRule, MAX_PLAYERS, MAX_SIDE};
