use std::sync::atomic::AtomicBool;

use super::*;
use crate::agents::Agent;
use crate::batch::{AgentSeat, VecGames};
use crate::rng::Rng;
use crate::rules::Rules;

use crate::batch::OwnedBuffers as Owned;

fn owned(v: &VecGames) -> Owned {
    Owned::new(v.num_envs(), &v.dims())
}

fn versus(
    rules: Rules,
    n: usize,
    agent: Agent,
    seat: AgentSeat,
    mode: Autoreset,
    threads: usize,
) -> VecGames {
    let mut v = VecGames::new(rules, n, 7, mode, Some(threads)).unwrap();
    v.set_opponent(Opponent {
        kind: OpponentKind::Native(agent),
        seat,
    })
    .unwrap();
    v
}

fn observe(v: &mut VecGames, o: &mut Owned) {
    let out = o.bufs();
    v.observe_general(out, &AtomicBool::new(false)).unwrap();
}

fn step(v: &mut VecGames, o: &mut Owned, actions: &[i64]) {
    let out = o.bufs();
    v.step_general(actions, out, &AtomicBool::new(false))
        .unwrap();
}

/// Random legal actions for the agent (0 where an env waits for its reset).
fn agent_actions(v: &VecGames, rng: &mut Rng) -> Vec<i64> {
    v.games()
        .iter()
        .map(|g| {
            if g.is_over() {
                0
            } else {
                g.random_action(rng) as i64
            }
        })
        .collect()
}

#[test]
fn the_agent_is_to_move_after_every_step_and_rewards_are_its_own() {
    let rules = Rules::connect_four();
    for seat in [AgentSeat::Fixed(0), AgentSeat::Fixed(1), AgentSeat::Random] {
        let mut v = versus(rules, 64, Agent::Greedy, seat, Autoreset::NextStep, 1);
        let mut o = owned(&v);
        observe(&mut v, &mut o);
        let mut rng = Rng::new(3, 0);
        let (mut wins, mut losses, mut seats_seen) = (0, 0, [0; 2]);
        for _ in 0..200 {
            let actions = agent_actions(&v, &mut rng);
            step(&mut v, &mut o, &actions);
            for i in 0..64 {
                let g = &v.games()[i];
                let s = v.agent_seat(i).unwrap();
                assert_eq!(o.agent_player[i] as usize, s + 1);
                if o.terminated[i] {
                    assert_eq!(o.final_agent_player[i] as usize, s + 1);
                    let w = o.winner[i];
                    let expect = if w == 0 {
                        0.0
                    } else if w as usize == s + 1 {
                        1.0
                    } else {
                        -1.0
                    };
                    assert_eq!(o.rewards[i], expect);
                    assert_eq!(o.player_rewards[i * 2 + s], expect);
                    wins += usize::from(expect > 0.0);
                    losses += usize::from(expect < 0.0);
                    // The terminal observation is the agent's view: plane 0 its stones.
                    let cells = rules.num_cells();
                    let mut own = vec![0u8; 2 * cells];
                    g.write_planes_as(s, &mut own, 0, 1);
                    assert_eq!(&o.obs[i * 2 * cells..(i + 1) * 2 * cells], &own[..]);
                } else {
                    assert_eq!(g.to_move(), s, "the agent is to move");
                    assert_eq!(o.rewards[i], 0.0);
                    if o.reset[i] {
                        // A new episode: the opponent played the seats before the agent's.
                        assert_eq!(g.stones_on_board(), s);
                        seats_seen[s] += 1;
                    }
                }
            }
        }
        // Greedy beats a random agent far more often than it loses.
        assert!(losses > 3 * wins, "{seat:?}: {wins} wins, {losses} losses");
        if seat == AgentSeat::Random {
            assert!(seats_seen[0] > 20 && seats_seen[1] > 20, "{seats_seen:?}");
        }
    }
}

fn play_out(threads: usize, mode: Autoreset) -> (Vec<Vec<u16>>, Vec<f32>, Vec<u8>) {
    let rules = Rules::new(5, 4, 3, 2, true).unwrap();
    let mut v = versus(
        rules,
        2000,
        Agent::Negamax { depth: 2 },
        AgentSeat::Random,
        mode,
        threads,
    );
    let mut o = owned(&v);
    observe(&mut v, &mut o);
    let mut rng = Rng::new(1, 0);
    let mut rewards = Vec::new();
    for _ in 0..12 {
        let actions = agent_actions(&v, &mut rng);
        step(&mut v, &mut o, &actions);
        rewards.extend_from_slice(&o.rewards);
    }
    (
        v.games().iter().map(|g| g.history().to_vec()).collect(),
        rewards,
        o.obs.clone(),
    )
}

#[test]
fn results_do_not_depend_on_threads() {
    for mode in [Autoreset::NextStep, Autoreset::SameStep] {
        let one = play_out(1, mode);
        assert_eq!(one, play_out(2, mode));
        assert!(one.1.iter().any(|&r| r < 0.0));
    }
}

/// Two self-play Connect Four envs on one thread, illegal actions losing.
fn two_envs_where_illegal_loses(mode: Autoreset) -> (VecGames, Owned) {
    let mut v = VecGames::new(Rules::connect_four(), 2, 0, mode, Some(1)).unwrap();
    v.set_illegal_loss();
    let o = owned(&v);
    (v, o)
}

/// Fills column 0 of env 0 (env 1 plays column `other`), then plays it once more:
/// env 0's mover (player 1) forfeits, env 1 (playing `other + 1`) goes on.
fn forfeit_env_0(v: &mut VecGames, o: &mut Owned, other: i64) {
    for _ in 0..6 {
        step(v, o, &[0, other]);
    }
    step(v, o, &[0, other + 1]);
    assert_eq!(o.illegal, vec![true, false]);
    assert_eq!(o.terminated, vec![true, false]);
    assert_eq!(o.rewards[0], -1.0);
}

#[test]
fn an_illegal_action_loses_when_asked() {
    let (mut v, mut o) = two_envs_where_illegal_loses(Autoreset::NextStep);
    forfeit_env_0(&mut v, &mut o, 1);
    assert_eq!(&o.player_rewards[..2], &[-1.0, 1.0]);
    assert_eq!(o.winner[0], 2);
    assert!(o.mask[..7].iter().all(|&m| m));
    step(&mut v, &mut o, &[3, 2]);
    assert!(o.reset[0] && !o.illegal[0]);
    assert_eq!(v.games()[0].stones_on_board(), 0);
    // Out of range still refuses the batch.
    let out = o.bufs();
    assert!(v
        .step_general(&[7, 0], out, &AtomicBool::new(false))
        .is_err());
}

#[test]
fn under_disabled_autoreset_a_forfeited_env_waits_for_its_reset() {
    let (mut v, mut o) = two_envs_where_illegal_loses(Autoreset::Disabled);
    observe(&mut v, &mut o);
    forfeit_env_0(&mut v, &mut o, 0);
    assert!(!o.reset[0]);
    // No legal action while it waits; any action for it refuses the whole batch.
    assert!(o.mask[..7].iter().all(|&m| !m));
    assert!(o.mask[7..].iter().any(|&m| m));
    let before = v.games()[1].stones_on_board();
    let out = o.bufs();
    assert!(v
        .step_general(&[3, 2], out, &AtomicBool::new(false))
        .is_err());
    assert_eq!(v.games()[1].stones_on_board(), before);
    v.reset_some(&[true, false]);
    step(&mut v, &mut o, &[3, 2]);
    assert_eq!(v.games()[0].stones_on_board(), 1);
    assert!(o.mask[..7].iter().all(|&m| m));
}

#[test]
fn an_external_opponent_moves_between_rounds() {
    let rules = Rules::new(3, 3, 3, 2, false).unwrap();
    let mut v = VecGames::new(rules, 3, 0, Autoreset::SameStep, Some(1)).unwrap();
    v.set_opponent(Opponent {
        kind: OpponentKind::External,
        seat: AgentSeat::Fixed(1),
    })
    .unwrap();
    let mut o = owned(&v);
    observe(&mut v, &mut o);
    assert_eq!(v.opponent_pending(), vec![0, 1, 2]);
    assert!(v.validate_opponent(&[0, 1, 2], &[4, 4, 9]).is_err());
    let out = o.bufs();
    v.play_opponent(&[0, 1, 2], &[4, 4, 0], out);
    let out = o.bufs();
    v.write_views(out);
    assert!(v.opponent_pending().is_empty());
    assert_eq!(v.games()[2].history(), &[0]);
    // The agent's view: its stones on plane 0 (none yet), the opponent's on plane 1.
    assert_eq!(o.obs[9 + 4], 1);
    assert!(o.obs[..9].iter().all(|&x| x == 0));
    assert_eq!(o.current_player, vec![2, 2, 2]);
    let saved = v.save();
    let out = o.bufs();
    v.step_general(&[0, 1, 2], out, &AtomicBool::new(false))
        .unwrap();
    assert_eq!(v.opponent_pending(), vec![0, 1, 2]);
    v.restore(saved);
    assert!(v.opponent_pending().is_empty());
    assert_eq!(v.games()[0].history(), &[4]);
}

#[test]
fn impossible_seats_are_refused() {
    let ttt = Rules::new(3, 3, 3, 2, false).unwrap();
    let k1 = Rules::new(3, 3, 1, 2, false).unwrap();
    let check = |rules: &Rules, seat| {
        Opponent {
            kind: OpponentKind::Native(Agent::Random),
            seat,
        }
        .check(rules)
    };
    assert!(check(&ttt, AgentSeat::Fixed(1)).is_ok());
    assert!(check(&ttt, AgentSeat::Fixed(2)).is_err());
    assert!(check(&k1, AgentSeat::Fixed(0)).is_ok());
    assert!(check(&k1, AgentSeat::Random).is_err());
    // Two cells, three players: the second seat moves once, the third never.
    let two_cells = Rules::new(1, 2, 2, 3, false).unwrap();
    assert!(check(&two_cells, AgentSeat::Fixed(1)).is_ok());
    assert!(check(&two_cells, AgentSeat::Fixed(2)).is_err());
    assert!(check(&two_cells, AgentSeat::Random).is_err());
    let perfect = Opponent {
        kind: OpponentKind::Native(Agent::Perfect {
            temperature: 0.0,
            tt_bytes: 1 << 20,
            threads: 1,
        }),
        seat: AgentSeat::Fixed(0),
    };
    assert!(perfect.check(&Rules::connect_four()).is_ok());
    assert!(perfect.check(&ttt).is_ok());
    assert!(perfect
        .check(&Rules::new(12, 11, 5, 2, false).unwrap())
        .is_err());
}
