"""Gymnasium's own `check_env` on every registered id and on random rules, seats and
opponents; the illegal-action loss that lets an unmasked client (`action_space.sample()`)
play; `action_masks()` and the terminal masks."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import rule_kwargs

gym = pytest.importorskip("gymnasium", reason="gymnasium is not installed")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import inarow  # noqa: E402
from inarow.gymnasium import ENV_IDS, InARowEnv, InARowVectorEnv, solver_supports  # noqa: E402


def first_legal(board: inarow.Board) -> int:
    return board.legal_moves()[0]


@st.composite
def env_kwargs(draw):
    """Rules with 2-4 players, gravity on or off, a seat and an opponent."""
    rules = draw(rule_kwargs(max_width=7, max_height=6))
    width, height, k, players, gravity = rules.values()
    # Seats that get a move: k = 1 ends at the first move, seat s needs s cells.
    cells = width * height
    seats = [1] if k == 1 else [s for s in range(1, players + 1) if s <= cells]
    if k > 1 and cells >= players:
        seats.append("random")
    opponents: list = ["random", first_legal]
    if solver_supports(width, height, players, gravity) and width * height <= 16:
        opponents.append("solver")
    return dict(
        rules=inarow.Rules(**rules),
        agent_player=draw(st.sampled_from(seats)),
        opponent=draw(st.sampled_from(opponents)),
        obs_dtype=draw(st.sampled_from(["uint8", "float32"])),
    )


@pytest.mark.parametrize("env_id", sorted(ENV_IDS))
@pytest.mark.parametrize("agent_player", [1, 2, "random"])
def test_check_env_on_every_registered_id_and_seat(env_id, agent_player):
    env = gym.make(env_id, agent_player=agent_player)
    check_env(env.unwrapped)  # render modes, seeding, determinism, data reuse
    env.close()


@settings(max_examples=60)
@given(env_kwargs())
def test_check_env_on_random_rules(kwargs):
    check_env(InARowEnv(**kwargs), skip_render_check=True)


@settings(max_examples=30)
@given(env_kwargs(), st.integers(0, 2**32))
def test_unmasked_random_play_never_raises(kwargs, seed):
    """An unmasked client samples the action space; the game ends, never raises."""
    env = InARowEnv(**kwargs)
    env.action_space.seed(seed)
    for episode in range(3):
        obs, info = env.reset(seed=seed + episode)
        terminated = False
        while not terminated:
            np.testing.assert_array_equal(obs["action_mask"], env.action_masks())
            obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
            assert not truncated and obs in env.observation_space
        assert obs["action_mask"].all() and env.action_masks().all()
        expected = {
            "win": 1.0,
            "loss": -1.0,
            "draw": 0.0,
            "illegal_action": env.illegal_reward,
        }[info["outcome"]]
        assert reward == expected and info["illegal_action"] == (
            info["outcome"] == "illegal_action"
        )


def test_action_masks_single_env():
    env = InARowEnv(inarow.Rules(3, 3, 3, gravity=False), opponent=lambda b: 4)
    assert env.action_masks().dtype == bool and env.action_masks().all()  # before reset
    obs, _ = env.reset(seed=0)
    env.step(0)  # the opponent answers 4
    mask = env.action_masks()
    assert mask.dtype == bool and mask.shape == (9,)
    np.testing.assert_array_equal(mask, env.board.legal_mask())
    assert not mask[0] and not mask[4] and mask.sum() == 7
    mask[:] = False  # a fresh array each call
    assert env.action_masks().sum() == 7


def test_action_masks_vector_env_and_terminal_rows():
    env = InARowVectorEnv(3, inarow.Rules(3, 3, 3, 2, False), seed=0)
    obs, _ = env.reset(seed=0)
    masks = env.action_masks()
    assert masks.dtype == bool and masks.shape == (3, 9) and masks.all()
    # env 0 plays a winning line for player 1; envs 1 and 2 play elsewhere
    for a0, a1 in [(0, 8), (3, 7), (1, 6), (4, 5)]:
        env.step(np.array([a0, a1, a1]))
    obs, rew, term, trunc, info = env.step(np.array([2, 0, 0]))
    assert term.tolist() == [True, False, False] and rew[0] == 1.0
    masks = env.action_masks()
    # the finished game waits for its next-step reset: every action is accepted and ignored
    assert masks[0].all() and obs["action_mask"][0].all()
    np.testing.assert_array_equal(masks[1:], obs["action_mask"][1:].astype(bool))
    np.testing.assert_array_equal(masks[1], env.board(1).legal_mask())
    assert masks[1].sum() == 9 - 5
    obs, *_ = env.step(np.array([0, 1, 1]))  # env 0 resets, ignoring its action
    assert env.board(0).moves == [] and obs["action_mask"][0].all()


def test_same_step_final_observation_masks_are_all_ones():
    env = InARowVectorEnv(2, inarow.Rules(3, 3, 3, 2, False), autoreset_mode="same_step", seed=0)
    env.reset(seed=0)
    for a in (0, 3, 1, 4):
        env.step(np.array([a, a]))
    obs, rew, term, trunc, info = env.step(np.array([2, 2]))
    assert term.all() and info["_final_obs"].all()
    for i in range(2):
        assert info["final_obs"][i]["action_mask"].all()
        assert info["final_obs"][i]["action_mask"].dtype == np.int8
    assert obs["action_mask"].all()  # the reset boards: every action legal
