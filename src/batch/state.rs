//! A batch's state as bytes: what a [`VecGames`] made with the same arguments needs
//! to continue exactly where another stopped (pickling, checkpoints).
//!
//! Layout, little-endian: `b"IVEC"`, a version byte, `u32` envs, a byte that is 1
//! when there is an opponent; then per env: `u32` length and the game's
//! [`crate::record::to_bytes`], a byte "waits for its reset", the env generator's
//! four `u64`, and with an opponent the agent's seat byte and the opponent
//! generator's four `u64`.

use super::vec_env::{Saved, VecGames};
use crate::record::{from_bytes, to_bytes};
use crate::rng::Rng;

const MAGIC: &[u8; 4] = b"IVEC";
const VERSION: u8 = 1;

/// Why bytes do not restore this batch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StateError(pub String);

impl std::fmt::Display for StateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "invalid VecEnv state: {}", self.0)
    }
}
impl std::error::Error for StateError {}

fn put_rng(out: &mut Vec<u8>, rng: &Rng) {
    for word in rng.state() {
        out.extend_from_slice(&word.to_le_bytes());
    }
}

/// Reads the bytes in order; every shortfall is an error naming what was missing.
struct Reader<'a> {
    rest: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], StateError> {
        if self.rest.len() < n {
            return Err(StateError(format!(
                "truncated: {what} needs {n} bytes, {} left",
                self.rest.len()
            )));
        }
        let (head, tail) = self.rest.split_at(n);
        self.rest = tail;
        Ok(head)
    }
    fn byte(&mut self, what: &str) -> Result<u8, StateError> {
        Ok(self.take(1, what)?[0])
    }
    fn flag(&mut self, what: &str) -> Result<bool, StateError> {
        match self.byte(what)? {
            0 => Ok(false),
            1 => Ok(true),
            b => Err(StateError(format!("{what} is {b}: allowed 0 or 1"))),
        }
    }
    fn u32(&mut self, what: &str) -> Result<u32, StateError> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn rng(&mut self, what: &str) -> Result<Rng, StateError> {
        let mut s = [0u64; 4];
        for word in &mut s {
            let b = self.take(8, what)?;
            *word = u64::from_le_bytes(b.try_into().expect("8 bytes"));
        }
        Rng::from_state(s).ok_or_else(|| StateError(format!("{what} is all zeros")))
    }
}

impl VecGames {
    /// The batch's state as bytes (see the module docs).
    pub fn state_bytes(&self) -> Vec<u8> {
        let saved = self.save();
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.push(VERSION);
        out.extend_from_slice(&(self.num_envs() as u32).to_le_bytes());
        out.push(self.has_opponent() as u8);
        for i in 0..self.num_envs() {
            let game = to_bytes(&self.games()[i]);
            out.extend_from_slice(&(game.len() as u32).to_le_bytes());
            out.extend_from_slice(&game);
            out.push(self.needs_reset(i) as u8);
            put_rng(&mut out, &self.env_rngs()[i]);
            if self.has_opponent() {
                out.push(saved.seats[i]);
                put_rng(&mut out, &saved.rngs[i]);
            }
        }
        out
    }

    /// Restores what [`VecGames::state_bytes`] wrote for a batch made with the same
    /// arguments. Every defect (another size, rules or opponent setting, a game that
    /// does not decode, a seat out of range, trailing bytes) is an error and leaves
    /// the batch unchanged.
    pub fn set_state_bytes(&mut self, data: &[u8]) -> Result<(), StateError> {
        let mut r = Reader { rest: data };
        if r.take(4, "the magic")? != MAGIC {
            return Err(StateError("not VecEnv state (wrong magic)".into()));
        }
        let version = r.byte("the version")?;
        if version != VERSION {
            return Err(StateError(format!("version {version}: allowed {VERSION}")));
        }
        let n = r.u32("the number of envs")? as usize;
        if n != self.num_envs() {
            return Err(StateError(format!(
                "it holds {n} envs, this VecEnv {}",
                self.num_envs()
            )));
        }
        let versus = r.flag("the opponent flag")?;
        if versus != self.has_opponent() {
            return Err(StateError(format!(
                "it was saved {} an opponent, this VecEnv has {}",
                if versus { "with" } else { "without" },
                if self.has_opponent() { "one" } else { "none" }
            )));
        }
        let players = self.rules().players();
        let mut saved = Saved::empty(n);
        let mut env_rngs = Vec::with_capacity(n.min(1 << 16));
        for i in 0..n {
            let len = r.u32(&format!("env {i}'s game length"))? as usize;
            let game = from_bytes(r.take(len, &format!("env {i}'s game"))?)
                .map_err(|e| StateError(format!("env {i}: {e}")))?;
            if game.rules() != self.rules() {
                return Err(StateError(format!(
                    "env {i} plays {}, this VecEnv {}",
                    game.rules(),
                    self.rules()
                )));
            }
            saved.games.push(game);
            saved
                .needs_reset
                .push(r.flag(&format!("env {i}'s reset flag"))?);
            env_rngs.push(r.rng(&format!("env {i}'s generator"))?);
            if versus {
                let seat = r.byte(&format!("env {i}'s seat"))?;
                if seat as usize >= players {
                    return Err(StateError(format!(
                        "env {i}'s seat {} is out of range: allowed 1..={players}",
                        seat as usize + 1
                    )));
                }
                saved.seats.push(seat);
                saved
                    .rngs
                    .push(r.rng(&format!("env {i}'s opponent generator"))?);
            }
        }
        if !r.rest.is_empty() {
            return Err(StateError(format!(
                "{} bytes after the last env",
                r.rest.len()
            )));
        }
        self.restore(saved);
        self.set_env_rngs(env_rngs);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::batch::{AgentSeat, Autoreset, Opponent, OpponentKind, OwnedBuffers};
    use crate::Rules;

    fn batch(opponent: bool) -> VecGames {
        let mut g =
            VecGames::new(Rules::tic_tac_toe(), 3, 7, Autoreset::NextStep, Some(1)).unwrap();
        if opponent {
            g.set_opponent(Opponent {
                kind: OpponentKind::Native(crate::agents::Agent::Random),
                seat: AgentSeat::Random,
            })
            .unwrap();
        }
        g
    }

    /// Draws random actions from the envs' own streams and steps with them.
    fn step_randomly(g: &mut VecGames) -> Vec<i64> {
        let mut actions = vec![0; g.num_envs()];
        g.random_actions(&mut actions);
        let mut out = OwnedBuffers::new(g.num_envs(), &g.dims());
        g.step_general(&actions, out.bufs(), &AtomicBool::new(false))
            .unwrap();
        actions
    }

    #[test]
    fn a_restored_batch_continues_exactly() {
        for opponent in [false, true] {
            let mut a = batch(opponent);
            for _ in 0..5 {
                step_randomly(&mut a);
            }
            let bytes = a.state_bytes();
            let mut b = batch(opponent);
            b.set_state_bytes(&bytes).unwrap();
            assert_eq!(b.state_bytes(), bytes);
            for _ in 0..20 {
                assert_eq!(step_randomly(&mut a), step_randomly(&mut b));
                assert_eq!(a.state_bytes(), b.state_bytes());
            }
        }
    }

    #[test]
    fn every_defect_is_refused_and_changes_nothing() {
        let mut a = batch(true);
        step_randomly(&mut a);
        let good = a.state_bytes();
        let mut b = batch(true);
        let before = b.state_bytes();
        let mut cases: Vec<Vec<u8>> = (0..good.len()).map(|n| good[..n].to_vec()).collect();
        cases.push([good.clone(), vec![0]].concat());
        let mut bad_magic = good.clone();
        bad_magic[0] = b'X';
        cases.push(bad_magic);
        let mut bad_seat = good.clone();
        bad_seat[good.len() - 33] = 9; // the last env's seat, before its generator
        cases.push(bad_seat);
        let mut zero_rng = good.clone();
        zero_rng[good.len() - 32..].fill(0);
        cases.push(zero_rng);
        for case in cases {
            assert!(b.set_state_bytes(&case).is_err());
            assert_eq!(b.state_bytes(), before);
        }
        assert!(batch(false).set_state_bytes(&good).is_err());
        let mut other =
            VecGames::new(Rules::connect_four(), 3, 7, Autoreset::NextStep, Some(1)).unwrap();
        assert!(other.set_state_bytes(&batch(false).state_bytes()).is_err());
    }
}
