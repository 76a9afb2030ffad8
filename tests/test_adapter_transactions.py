"""The adapters' transactions: a step is all-or-nothing whatever the opponent policy
does, and nothing an adapter returns aliases anything else it returned, now or later,
or any internal buffer."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

gym = pytest.importorskip("gymnasium", reason="gymnasium is not installed")

from gymnasium.utils.env_checker import data_equivalence  # noqa: E402

import inarow  # noqa: E402
from inarow.gymnasium import InARowEnv, InARowVectorEnv, OpponentError  # noqa: E402

# ----------------------------------------------------------------- opponent failures


def failing_on_call(n: int, failure: Callable[[], Any]) -> Callable[[inarow.Board], Any]:
    """A policy playing the first legal move, except on its `n`-th call (1-based),
    where it returns (or raises from) `failure()`."""
    calls = 0

    def policy(board: inarow.Board) -> Any:
        nonlocal calls
        calls += 1
        return failure() if calls == n else board.legal_moves()[0]

    return policy


def raise_(exc: BaseException) -> Callable[[], Any]:
    def f() -> Any:
        raise exc

    return f


GARBAGE = [None, 1.5, math.nan, -1, 99, 2**70, "3", True, np.float64(2.0), [1]]


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("bad", GARBAGE + ["occupied"], ids=repr)
def test_opponent_returning_garbage_undoes_the_step(players, bad):
    env = InARowEnv(inarow.Rules(4, 4, 3, players=players, gravity=False))
    # the last opponent of the second step fails; the earlier ones succeeded
    fail_at = 2 * (players - 1)
    value = (lambda: 0) if bad == "occupied" else (lambda: bad)
    env.opponent = failing_on_call(fail_at, value)
    env.reset(seed=0)
    env.step(5)
    before = env.board
    with pytest.raises(inarow.IllegalMoveError) as err:
        env.step(6)
    message = str(err.value)
    assert "opponent policy" in message and "undone" in message
    assert repr(0 if bad == "occupied" else bad) in message
    assert f"as player {players}" in message
    assert isinstance(err.value.__cause__, (TypeError, ValueError))
    assert env.board == before and env.board.moves == before.moves
    assert env.board.current_player == env.seat == 1
    # the next step plays the agent's action in the agent's seat
    obs, reward, terminated, truncated, info = env.step(6)
    assert env.board.moves[len(before.moves)] == 6
    assert env.board.to_numpy().ravel()[6] == 1


@pytest.mark.parametrize("players", [2, 3])
def test_opponent_raising_undoes_the_step_and_chains(players):
    env = InARowEnv(inarow.Rules(4, 4, 3, players=players, gravity=False))
    env.opponent = failing_on_call(2 * (players - 1), raise_(ZeroDivisionError("model broke")))
    env.reset(seed=0)
    env.step(5)
    before = env.board
    with pytest.raises(
        OpponentError, match="opponent policy .* raised ZeroDivisionError: model broke .*undone"
    ) as err:
        env.step(6)
    assert isinstance(err.value.__cause__, ZeroDivisionError)
    assert isinstance(err.value, RuntimeError)
    assert env.board == before and env.board.moves == before.moves
    env.step(6)
    assert env.board.to_numpy().ravel()[6] == 1


def test_interrupt_in_the_opponent_undoes_the_step_and_propagates_unchanged():
    env = InARowEnv(inarow.Rules(4, 4, 3, gravity=False))
    env.opponent = failing_on_call(2, raise_(KeyboardInterrupt()))
    env.reset(seed=0)
    env.step(5)
    before = env.board
    with pytest.raises(KeyboardInterrupt):
        env.step(6)
    assert env.board == before
    env.step(6)


def test_opponent_failing_in_reset_keeps_the_previous_episode():
    env = InARowEnv(inarow.Rules(4, 4, 3, gravity=False), agent_player=2)
    env.opponent = failing_on_call(3, lambda: None)  # the third call is the next reset's
    env.reset(seed=0)
    env.step(5)
    before, seat = env.board, env.seat
    with pytest.raises(inarow.IllegalMoveError, match="returned None"):
        env.reset(seed=1)
    assert env.board == before and env.seat == seat
    env.step(6)  # the previous episode goes on
    assert env.board.to_numpy().ravel()[6] == 2


def test_solver_opponent_failure_is_reported_and_undone():
    env = InARowEnv(inarow.Rules(4, 4, 3), opponent="solver")
    env.reset(seed=0)
    env.step(0)
    before = env.board

    class Broken:
        def best_move(self, board: inarow.Board) -> int:
            raise MemoryError("no table")

    env._opponents.solver = Broken()
    with pytest.raises(OpponentError, match="'solver' opponent raised MemoryError"):
        env.step(1)
    assert env.board == before


# ---------------------------------------------------------------------------- aliasing


def arrays(data: Any) -> Iterator[np.ndarray]:
    """Every numeric or bool array inside `data` (dicts, tuples, lists, object arrays)."""
    if isinstance(data, np.ndarray):
        if data.dtype == object:
            for item in data.flat:
                yield from arrays(item)
        else:
            yield data
    elif isinstance(data, dict):
        for value in data.values():
            yield from arrays(value)
    elif isinstance(data, (tuple, list)):
        for value in data:
            yield from arrays(value)


def scribble(a: np.ndarray) -> None:
    """Changes every element of `a`."""
    if a.dtype == bool:
        np.logical_not(a, out=a)
    else:
        a += a.dtype.type(1)


def equal(x: Any, y: Any) -> bool:
    return data_equivalence(x, y, exact=True)


class Tracker:
    """Holds every array an adapter returned with the value it must still have."""

    def __init__(self) -> None:
        self.held: list[tuple[np.ndarray, np.ndarray]] = []

    def check(self, start: int = 0) -> None:
        for i, (a, expected) in enumerate(self.held[start:], start):
            if not np.array_equal(a, expected):
                np.testing.assert_array_equal(a, expected, err_msg=f"returned array {i} changed")

    def take(self, out: Any) -> None:
        """Scribbles on each new array in turn: no other array may change, among
        the new ones (checked after each scribble) or those returned before."""
        self.check()
        start = len(self.held)
        self.held += [(a, a.copy()) for a in arrays(out)]
        for j in range(start, len(self.held)):
            a, _ = self.held[j]
            if not a.flags.writeable:
                continue
            scribble(a)
            self.held[j] = (a, a.copy())
            self.check(start)
        self.check()


def drive(
    make: Callable[[], Any], play: Callable[[Any, np.random.Generator], Any], n: int, seed: int
) -> None:
    """Plays `n` calls on an env whose results are scribbled on and on an untouched
    twin: the results must agree and no scribble may reach anything else."""
    env, twin = make(), make()
    rng, twin_rng = np.random.default_rng(seed), np.random.default_rng(seed)
    tracker = Tracker()
    for _ in range(n):
        out = play(env, rng)
        twin_out = play(twin, twin_rng)
        assert equal(out, twin_out)
        tracker.take(out)


def play_single(env: InARowEnv, rng: np.random.Generator) -> Any:
    if env._done or rng.random() < 0.05:
        return env.reset(seed=int(rng.integers(2**32)))
    if rng.random() < 0.1:  # sometimes an unmasked action: maybe illegal, a forfeit
        return env.step(int(rng.integers(env.action_space.n))), env.action_masks()
    legal = np.flatnonzero(env.action_masks())
    return env.step(int(rng.choice(legal))), env.action_masks()


def play_vector(env: InARowVectorEnv, rng: np.random.Generator) -> Any:
    if env._needs_reset or rng.random() < 0.05:
        return env.reset(seed=int(rng.integers(2**32)))
    masks = env.action_masks()
    actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
    return env.step(actions), env.action_masks()


@settings(max_examples=25)
@given(st.integers(0, 2**32), st.integers(2, 3), st.booleans())
def test_single_env_returns_never_alias(seed, players, gravity):
    drive(
        lambda: InARowEnv(inarow.Rules(4, 4, 3, players=players, gravity=gravity)),
        play_single,
        40,
        seed,
    )


@settings(max_examples=25)
@given(st.integers(0, 2**32), st.sampled_from(["next_step", "same_step"]), st.booleans())
def test_vector_env_returns_never_alias(seed, mode, gravity):
    drive(
        lambda: InARowVectorEnv(
            3, inarow.Rules(3, 3, 3, 2, gravity), autoreset_mode=mode, threads=1, seed=seed
        ),
        play_vector,
        30,
        seed,
    )


def test_vector_env_info_masks_are_separate_arrays():
    """Issue 11 defect 8: `_winner`, `_current_player`, `_player_rewards` were one array."""
    env = InARowVectorEnv(2, seed=0)
    _, info = env.reset(seed=0)
    _, _, _, _, info2 = env.step(np.array([3, 3]))
    masks = [info[k] for k in ("_winner", "_current_player", "_player_rewards")]
    masks += [info2[k] for k in ("_winner", "_current_player", "_player_rewards")]
    masks[0][:] = False
    assert all(m.all() for m in masks[1:])
    _, _, _, _, info3 = env.step(np.array([3, 3]))
    assert info3["_winner"].all()


def test_pettingzoo_returns_never_alias():
    pz = pytest.importorskip("inarow.pettingzoo")

    def play(env: Any, rng: np.random.Generator) -> Any:
        if not env._has_reset or not env.agents:
            env.reset()
            return env.last()
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        return [env.observe(a) for a in env.agents], env.last() if env.agents else None

    for kwargs in (
        {},
        {"connect_four_v3_layout": True},
        {"rules": inarow.Rules(5, players=3, k=3)},
    ):
        drive(lambda kwargs=kwargs: pz.env(**kwargs), play, 60, 0)


@pytest.mark.rllib
def test_rllib_returns_never_alias():
    rllib = pytest.importorskip("inarow.rllib", exc_type=ImportError)

    def play(env: Any, rng: np.random.Generator) -> Any:
        if env._over or not env.board.moves and rng.random() < 0.5:
            return env.reset(seed=0)
        agent = f"player_{env.board.current_player}"
        return env.step({agent: int(rng.choice(env.board.legal_moves()))})

    for cfg in ({}, {"observation": "dict", "rules": inarow.Rules(5, 5, 3, players=3)}):
        drive(lambda cfg=cfg: rllib.InARowMultiAgentEnv(cfg), play, 60, 0)
