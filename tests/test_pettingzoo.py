"""The PettingZoo AEC adapter: PettingZoo's own checkers, a differential test against
``pettingzoo.classic.connect_four_v3``, rewards, illegal moves and pickling."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="pettingzoo is not installed")

with warnings.catch_warnings():
    # pettingzoo.test imports pettingzoo.classic.connect_four_v3 through its deprecated
    # module path, which emits a DeprecationWarning at import time (not about our env).
    warnings.simplefilter("ignore", DeprecationWarning)
    from pettingzoo.classic import connect_four_v3
    from pettingzoo.test import api_test, seed_test

import inarow  # noqa: E402
import inarow.pettingzoo as pz  # noqa: E402

# api_test's heuristics that do not fit board games with dict observations: it
# exempts PettingZoo's own classic games (connect_four_v3, tictactoe_v3, chess_v6)
# by name from the first two; an empty board is all zeros (connect_four_v3 warns too).
API_TEST_HEURISTICS = [
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning"),
    pytest.mark.filterwarnings(
        "ignore:Observation space for each agent probably should be:UserWarning"
    ),
    pytest.mark.filterwarnings("ignore:Observation numpy array is all zeros:UserWarning"),
]

RULES = {
    "connect_four": dict(),
    "connect_four_v3_layout": dict(connect_four_v3_layout=True),
    "free_8x8_k5_3p": dict(rules=inarow.Rules(8, 8, 5, players=3, gravity=False)),
    "gravity_5x4_k3_4p": dict(rules=inarow.Rules(5, 4, 3, players=4, gravity=True)),
    # one agent against an opponent drawn per episode from reset(seed=...)'s generator
    "seat_2_vs_random_or_solver": dict(
        rules=inarow.Rules(5, 4, 3), opponent=["random", "solver"], agent_player=2
    ),
    "free_4x4_k3_3p_vs_random": dict(
        rules=inarow.Rules(4, 4, 3, players=3, gravity=False), opponent="random"
    ),
}


def apply(marks):
    def deco(f):
        for m in marks:
            f = m(f)
        return f

    return deco


@apply(API_TEST_HEURISTICS)
@pytest.mark.parametrize("name", sorted(RULES))
def test_api_test(name):
    api_test(pz.env(**RULES[name]), num_cycles=300)


@pytest.mark.parametrize("name", sorted(RULES))
def test_seed_test(name):
    seed_test(lambda: pz.env(**RULES[name]), num_cycles=100)


@pytest.mark.parametrize("name", ["connect_four", "free_8x8_k5_3p"])
def test_pickle_round_trip_keeps_state(name):
    env = pz.env(**RULES[name])
    env.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(5):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    clone = pickle.loads(pickle.dumps(env))
    assert clone.agent_selection == env.agent_selection
    assert clone.unwrapped.board == env.unwrapped.board
    for agent in env.agents:
        a, b = env.observe(agent), clone.observe(agent)
        for key in a:
            np.testing.assert_array_equal(a[key], b[key])
    # both continue identically
    while env.agents:
        obs, rew, term, trunc, info = env.last()
        obs2, rew2, term2, trunc2, info2 = clone.last()
        assert (rew, term, trunc) == (rew2, term2, trunc2)
        action = None if term else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
        clone.step(action)
    assert not clone.agents
    fresh = pickle.loads(pickle.dumps(pz.env()))  # an env never reset pickles too
    fresh.reset()
    assert fresh.agent_selection == "player_0"


@pytest.mark.parametrize("seed", range(6))
def test_connect_four_v3_layout_matches_pettingzoo(seed):
    """Same moves, same observations, rewards and terminations as the real env."""
    ours = pz.env(connect_four_v3_layout=True)
    theirs = connect_four_v3.env()
    ours.reset()
    theirs.reset(seed=seed)
    assert ours.possible_agents == theirs.possible_agents
    for agent in ours.possible_agents:
        assert ours.observation_space(agent) == theirs.observation_space(agent)
        assert ours.action_space(agent) == theirs.action_space(agent)
    rng = np.random.default_rng(seed)
    steps = 0
    for agent, agent2 in zip(ours.agent_iter(), theirs.agent_iter()):
        assert agent == agent2
        obs, rew, term, trunc, _ = ours.last()
        obs2, rew2, term2, trunc2, _ = theirs.last()
        assert (rew, term, trunc) == (rew2, term2, trunc2)
        for other in ours.agents:
            a, b = ours.observe(other), theirs.observe(other)
            assert a["observation"].dtype == b["observation"].dtype == np.int8
            np.testing.assert_array_equal(a["observation"], b["observation"])
            np.testing.assert_array_equal(a["action_mask"], b["action_mask"])
        action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        ours.step(action)
        theirs.step(action)
        steps += 1
    assert not ours.agents and not theirs.agents and steps >= 7


def test_default_layout_planes_and_rewards_three_players():
    env = pz.env(rules=inarow.Rules(width=4, height=4, k=2, players=3, gravity=True))
    env.reset()
    env.step(0)  # player_0 at (3, 0)
    env.step(3)  # player_1 at (3, 3)
    obs = env.observe("player_2")
    assert obs["observation"].shape == (3, 4, 4)
    assert obs["observation"][0].sum() == 0  # own stones: none yet
    assert obs["observation"][1, 3, 0] == 1  # next seat after player_2 is player_0
    assert obs["observation"][2, 3, 3] == 1
    assert env.observe("player_0")["action_mask"].sum() == 0  # not to move
    env.step(2)  # player_2 at (3, 2)
    env.step(1)  # player_0 at (3, 1): next to its (3, 0): wins with k=2
    assert env.terminations == dict.fromkeys(env.possible_agents, True)
    got = {a: env._cumulative_rewards[a] for a in env.possible_agents}
    assert got == {"player_0": 1.0, "player_1": -1.0, "player_2": -1.0}
    while env.agents:
        env.step(None)


def test_draw_rewards_zero():
    env = pz.env(rules=inarow.Rules(width=3, height=3, k=3, gravity=False))
    env.reset()
    for a in (0, 4, 8, 1, 7, 6, 2, 5, 3):
        assert not env.terminations[env.agent_selection]
        env.step(a)
    assert all(env.terminations.values())
    assert env._cumulative_rewards == {"player_0": 0.0, "player_1": 0.0}


def test_illegal_move_raise_leaves_state_unchanged():
    env = pz.env(rules=inarow.Rules(width=3, height=3, k=3, gravity=False), illegal_action="raise")
    env.reset()
    env.step(4)
    with pytest.raises(inarow.IllegalMoveError, match="occupied"):
        env.step(4)
    assert env.agent_selection == "player_1" and env.unwrapped.board.moves == [4]
    assert not any(env.terminations.values())
    with pytest.raises(AssertionError, match="reset"):
        pz.env().step(0)


@pytest.mark.parametrize("mode", ["raise", "loss"])
def test_actions_outside_the_action_space_raise_in_every_mode(mode):
    env = pz.env(rules=inarow.Rules(width=3, height=3, k=3, gravity=False), illegal_action=mode)
    env.reset()
    env.step(4)
    for bad in (9, -1):
        with pytest.raises(inarow.IllegalMoveError, match="out of range"):
            env.step(bad)
    for bad in ("4", 1.5, True):
        with pytest.raises(TypeError):
            env.step(bad)
    assert env.agent_selection == "player_1" and env.unwrapped.board.moves == [4]
    assert not any(env.terminations.values())


@pytest.mark.parametrize("players", [2, 3])
def test_illegal_move_loss_is_the_default(players):
    """PettingZoo classic's TerminateIllegalWrapper: offender -1, others 0, all end."""
    env = pz.env(rules=inarow.Rules(width=4, height=2, k=3, players=players))
    env.reset()
    for action in [0, 0] + [1] * (players - 2):  # column 0 is full, player_0 to move
        env.step(action)
    offender = env.agent_selection
    assert offender == "player_0"
    before = env.unwrapped.board.copy()
    env.step(0)  # column 0 is full
    assert env.unwrapped.board == before
    assert all(env.terminations.values())
    expected = dict.fromkeys(env.possible_agents, 0.0)
    expected[offender] = -1.0
    assert env._cumulative_rewards == expected
    assert env.infos[offender]["illegal_move"] is True
    obs, rew, term, _, _ = env.last()
    assert env.agent_selection == offender and rew == -1.0 and term
    while env.agents:
        env.step(None)


def test_illegal_reward_and_mode_checked():
    env = pz.env(illegal_reward=-3)
    env.reset()
    for _ in range(6):
        env.step(0)
    env.step(0)  # column 0 is full: player_0 offends
    assert env._cumulative_rewards == {"player_0": -3.0, "player_1": 0.0}
    for bad in ("penalty", "ignore", None):
        with pytest.raises(ValueError, match="illegal_action .* allowed 'loss'"):
            pz.env(illegal_action=bad)


@pytest.mark.parametrize("layout", [False, True])
def test_observation_dtypes(layout):
    """uint8 planes as in the Gymnasium env; int8 in connect_four_v3's layout."""
    env = pz.env(connect_four_v3_layout=layout)
    env.reset()
    env.step(3)
    expected = np.int8 if layout else np.uint8
    for agent in env.agents:
        obs = env.observe(agent)
        assert obs["observation"].dtype == expected
        assert env.observation_space(agent)["observation"].dtype == expected
        assert obs in env.observation_space(agent)
        assert obs["action_mask"].dtype == np.int8


def test_render():
    env = pz.env(render_mode="ansi")
    env.reset()
    env.step(3)
    assert str(env.unwrapped.board) in env.render()
    env = pz.env(rules=inarow.Rules(width=3, height=3, k=3, gravity=False), render_mode="rgb_array")
    env.reset()
    assert env.render().shape == (96, 96, 3)
