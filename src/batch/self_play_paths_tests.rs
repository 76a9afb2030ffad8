//! Self-play with illegal losses takes the fast step; the general step (an
//! opponent's path) handles self-play too. Both must agree on every output and
//! every state, on random action streams full of illegal actions.

use std::sync::atomic::AtomicBool;

use super::*;
use crate::batch::OwnedBuffers;

/// A batch stepped by one path: `step` (fast) or `step_general`.
struct Side {
    v: VecGames,
    out: OwnedBuffers,
    general: bool,
}

impl Side {
    fn new(rules: Rules, n: usize, mode: Autoreset, threads: usize, general: bool) -> Side {
        let mut v = VecGames::new(rules, n, 11, mode, Some(threads)).unwrap();
        v.set_illegal_loss();
        let out = OwnedBuffers::new(n, &v.dims());
        let mut side = Side { v, out, general };
        side.observe();
        side
    }

    fn observe(&mut self) {
        if self.general {
            let never = AtomicBool::new(false);
            self.v.observe_general(self.out.bufs(), &never).unwrap();
        } else {
            self.v.observe(self.out.bufs());
        }
    }

    fn step(&mut self, actions: &[i64]) -> Result<(), ActionError> {
        if self.general {
            let never = AtomicBool::new(false);
            self.v
                .step_general(actions, self.out.bufs(), &never)
                .map_err(|e| match e {
                    StepError::Action(a) => a,
                    StepError::Opponent(o) => panic!("no opponent, yet {o}"),
                })
        } else {
            self.v.step(actions, self.out.bufs())
        }
    }
}

/// Equal outputs and equal games (positions, histories, pending resets).
fn assert_same(fast: &Side, general: &Side, what: &str) {
    assert_eq!(fast.out, general.out, "{what}: outputs");
    assert_eq!(fast.v.games(), general.v.games(), "{what}: games");
    for (i, (a, b)) in fast.v.games().iter().zip(general.v.games()).enumerate() {
        assert_eq!(a.history(), b.history(), "{what}: history of env {i}");
        assert_eq!(
            fast.v.needs_reset(i),
            general.v.needs_reset(i),
            "{what}: env {i}"
        );
    }
}

/// Per env: a legal action three times in four, else any in-range action (often illegal).
fn actions(v: &VecGames, rng: &mut Rng) -> Vec<i64> {
    let a = v.rules().num_actions() as u32;
    v.games()
        .iter()
        .map(|g| {
            if g.is_over() || rng.below(4) == 0 {
                rng.below(a) as i64
            } else {
                g.random_action(rng) as i64
            }
        })
        .collect()
}

fn differential(rules: Rules, n: usize, mode: Autoreset, threads: usize) -> (usize, usize) {
    let what = format!("{rules} {mode:?} threads={threads}");
    let mut fast = Side::new(rules, n, mode, threads, false);
    let mut general = Side::new(rules, n, mode, threads, true);
    assert_same(&fast, &general, &what);
    let mut rng = Rng::new(5, 0);
    let (mut forfeits, mut refusals) = (0, 0);
    for round in 0..3 * rules.num_cells() + 40 {
        let mut acts = actions(&fast.v, &mut rng);
        if round % 7 == 3 {
            // Out of range somewhere: both refuse the whole batch, naming the same env.
            let i = rng.below(n as u32) as usize;
            acts[i] = if rng.below(2) == 0 {
                -1
            } else {
                rules.num_actions() as i64
            };
        }
        let a = fast.step(&acts);
        let b = general.step(&acts);
        assert_eq!(a, b, "{what}: round {round}");
        refusals += usize::from(a.is_err());
        assert_same(&fast, &general, &format!("{what}: round {round}"));
        forfeits += fast.out.illegal.iter().filter(|&&f| f).count();
        if mode == Autoreset::Disabled && round % 5 != 1 {
            // A finished env refuses every batch until its explicit reset (left
            // pending every fifth round, so that the next batch is refused).
            let ended: Vec<bool> = (0..n)
                .map(|i| fast.v.needs_reset(i) || fast.v.games()[i].is_over())
                .collect();
            fast.v.reset_some(&ended);
            general.v.reset_some(&ended);
            fast.observe();
            general.observe();
            assert_same(
                &fast,
                &general,
                &format!("{what}: reset after round {round}"),
            );
        }
    }
    (forfeits, refusals)
}

#[test]
fn fast_and_general_self_play_agree_with_illegal_losses() {
    let configs = [
        (7, 6, 4, 2, true),
        (3, 3, 3, 2, false),
        (4, 3, 3, 3, true),
        (4, 4, 3, 3, false),
        (3, 4, 2, 4, true),
        (4, 4, 3, 4, false),
    ];
    for (w, h, k, p, gravity) in configs {
        let rules = Rules::new(w, h, k, p, gravity).unwrap();
        for mode in [
            Autoreset::NextStep,
            Autoreset::SameStep,
            Autoreset::Disabled,
        ] {
            let (forfeits, refusals) = differential(rules, 40, mode, 1);
            // The streams exercise what they are meant to.
            assert!(forfeits > 20, "{rules} {mode:?}: {forfeits} forfeits");
            assert!(refusals > 0, "{rules} {mode:?}");
        }
    }
    // Batches large enough to be split across threads.
    let rules = Rules::new(4, 3, 3, 3, true).unwrap();
    for mode in [
        Autoreset::NextStep,
        Autoreset::SameStep,
        Autoreset::Disabled,
    ] {
        differential(rules, 2 * GRAIN + 77, mode, 2);
    }
}

#[test]
fn a_finished_game_under_disabled_autoreset_refuses_actions_with_illegal_losses() {
    let rules = Rules::new(3, 3, 3, 2, false).unwrap();
    for general in [false, true] {
        let mut side = Side::new(rules, 2, Autoreset::Disabled, 1, general);
        for (a0, a1) in [(0, 0), (3, 1), (1, 2), (4, 3), (2, 4)] {
            side.step(&[a0, a1]).unwrap();
        }
        assert!(side.out.terminated[0] && !side.out.illegal[0]);
        assert_eq!(side.out.winner[0], 1);
        let before = side.v.games().to_vec();
        let err = side.step(&[5, 5]).unwrap_err();
        assert_eq!(err.env, 0);
        assert_eq!(err.error, MoveError::GameOver { action: 5 });
        assert_eq!(side.v.games(), &before[..]);
    }
}
