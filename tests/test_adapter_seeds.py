"""Seeds across the Gymnasium adapters: any non-negative int, as Gymnasium accepts,
reduced deterministically for the native engine's 63-bit seeds; the same refusals
everywhere."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

gym = pytest.importorskip("gymnasium", reason="gymnasium is not installed")

import inarow  # noqa: E402
from inarow.gymnasium import InARowEnv, InARowVectorEnv, native_seed  # noqa: E402

BIG = st.integers(0, 2**200)


def vector_games(seed: int, constructor_seed: int | None = None) -> np.ndarray:
    env = InARowVectorEnv(4, threads=1, seed=constructor_seed)
    env.reset(seed=seed)
    return np.stack([env.native.random_actions() for _ in range(8)])


def single_episode(seed: int) -> list[int]:
    env = InARowEnv(agent_player="random")
    env.reset(seed=seed)
    while not env.step(int(np.flatnonzero(env.action_masks())[0]))[2]:
        pass
    return [env.seat, *env.board.moves]


@settings(max_examples=40)
@given(BIG)
def test_every_non_negative_seed_is_accepted_and_deterministic(seed):
    reduced = native_seed(seed)
    assert 0 <= reduced < 2**63 and reduced == native_seed(seed)
    if seed < 2**63:
        assert reduced == seed  # the native engine's own seeds pass unchanged
    np.testing.assert_array_equal(vector_games(seed), vector_games(seed))
    assert single_episode(seed) == single_episode(seed)
    InARowVectorEnv(2, seed=seed).reset()  # the constructor takes the same seeds


@settings(max_examples=40)
@given(st.integers(0, 2**63 - 1))
def test_native_range_seeds_match_the_native_env(seed):
    native = inarow.VecEnv(4, threads=1, seed=seed)
    native.reset(seed=seed)
    expected = np.stack([native.random_actions() for _ in range(8)])
    np.testing.assert_array_equal(vector_games(seed), expected)


def test_big_seeds_give_different_games():
    seeds = [2**63, 2**63 + 1, 2**64, 2**100, 3 * 2**100 + 7]
    games = {vector_games(s).tobytes() for s in seeds}
    assert len(games) == len(seeds)
    assert len({native_seed(s) for s in seeds}) == len(seeds)


@pytest.mark.parametrize("seed", [np.int64(5), np.uint64(2**64 - 1), 2**64 - 1])
def test_numpy_and_unsigned_seeds(seed):
    assert vector_games(seed).shape == (8, 4)
    single_episode(seed)


@pytest.mark.parametrize(
    ("seed", "error", "message"),
    [
        (-1, ValueError, "seed=-1 is out of range: allowed a non-negative int"),
        (-(2**70), ValueError, "out of range"),
        (1.5, TypeError, "seed must be a non-negative int or None, got 1.5"),
        ("3", TypeError, "got '3'"),
        (True, TypeError, "got a bool"),
        ([1, 2], TypeError, "got \\[1, 2\\]"),
    ],
)
def test_bad_seeds_are_refused_alike(seed, error, message):
    single = InARowEnv()
    vector = InARowVectorEnv(2)
    for call in (
        lambda: single.reset(seed=seed),
        lambda: vector.reset(seed=seed),
        lambda: InARowVectorEnv(2, seed=seed),
    ):
        with pytest.raises(error, match=message):
            call()


def test_sync_vector_env_with_a_big_seed():
    env = gym.make_vec("inarow/TicTacToe-v0", num_envs=2, vectorization_mode="sync")
    obs, info = env.reset(seed=2**70)
    assert obs["observation"].shape == (2, 2, 3, 3)
    native = gym.make_vec(
        "inarow/TicTacToe-v0", num_envs=2, vectorization_mode="vector_entry_point"
    )
    obs, info = native.reset(seed=2**70)
    assert obs["observation"].shape == (2, 2, 3, 3)
