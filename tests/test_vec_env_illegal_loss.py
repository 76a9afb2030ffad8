"""VecEnv(illegal_action="loss") in self-play agrees with separate Boards on random
action streams full of illegal actions: every output, every autoreset mode, 2-4
players, gravity on and off. (The Rust tests prove the fast step and the general
one agree; this one proves both against the rules as a Board plays them.)"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import rule_kwargs

import inarow


def planes_of(board: inarow.Board) -> np.ndarray:
    """Egocentric planes from the grid: plane i holds the stones of the player i
    turns after the side to move."""
    grid, p = board.to_numpy(), board.players
    return np.stack([grid == (board.current_player - 1 + i) % p + 1 for i in range(p)]).astype(
        np.uint8
    )


class Model:
    """One env as the rules say: its Board and whether its episode ended and waits
    for a reset (next-step autoreset, or `disabled`'s explicit one)."""

    def __init__(self, rules: dict) -> None:
        self.rules = rules
        self.board = inarow.Board(rules=inarow.Rules(**rules))
        self.ended = False

    def restart(self) -> None:
        self.board = inarow.Board(rules=inarow.Rules(**self.rules))
        self.ended = False


def check_against_boards(rules: dict, seed: int, mode: str) -> int:
    """Steps a batch and its Boards side by side; returns the number of forfeits."""
    n, players = 6, rules["players"]
    env = inarow.VecEnv(
        n, rules=inarow.Rules(**rules), seed=seed, autoreset=mode, threads=1, illegal_action="loss"
    )
    rng = np.random.default_rng(seed)
    models = [Model(rules) for _ in range(n)]
    _, info = env.reset()
    keys = {"current_player", "action_mask", "winner", "player_rewards", "illegal_action"}
    keys |= {"final_obs", "_final_obs"} if mode == "same_step" else {"autoreset"}
    assert set(info) == keys
    forfeits = 0
    for _ in range(3 * rules["width"] * rules["height"] + 4):
        if mode == "disabled":
            ended = np.array([m.ended or m.board.is_over for m in models])
            if ended.any():
                # An ended episode refuses every action, the batch unchanged, until reset.
                with np.testing.assert_raises(inarow.IllegalMoveError):
                    env.step(env.random_actions())
                assert all(env.board(i) == m.board for i, m in enumerate(models))
                env.reset(options={"reset_mask": ended})
                for m in np.array(models)[ended]:
                    m.restart()
        actions = env.random_actions().copy()
        for i, m in enumerate(models):
            # Three times in ten, an illegal action where the position has one.
            illegal_moves = np.flatnonzero(~m.board.legal_mask())
            if len(illegal_moves) and rng.random() < 0.3:
                actions[i] = rng.choice(illegal_moves)
        rewards = np.zeros(n, np.float32)
        returns = np.zeros((n, players), np.float32)
        terminated = np.zeros(n, bool)
        illegal = np.zeros(n, bool)
        reset = np.zeros(n, bool)
        winner = np.zeros(n, np.int8)
        finals = {}
        for i, m in enumerate(models):
            if m.ended:  # next-step autoreset: the action is ignored
                m.restart()
                reset[i] = True
                continue
            b = m.board
            mover = b.current_player
            if int(actions[i]) in b.legal_moves():
                rewards[i] = float(b.move(int(actions[i])))
                if b.is_over:
                    returns[i] = b.returns()
                    winner[i] = b.winner or 0
            else:
                illegal[i] = True
                rewards[i] = -1
                returns[i, mover - 1] = -1
                if players == 2:
                    winner[i] = 3 - mover
                    returns[i, winner[i] - 1] = 1
            terminated[i] = illegal[i] or b.is_over
            if terminated[i]:
                if mode == "same_step":
                    finals[i] = planes_of(b)
                    m.restart()
                    reset[i] = True
                elif mode == "next_step" or illegal[i]:
                    m.ended = True
        obs, got_rewards, got_terminated, truncated, info = env.step(actions)
        assert set(info) == keys
        forfeits += illegal.sum()
        np.testing.assert_array_equal(got_rewards, rewards)
        np.testing.assert_array_equal(got_terminated, terminated)
        assert not truncated.any()
        np.testing.assert_array_equal(info["illegal_action"], illegal)
        np.testing.assert_array_equal(info["player_rewards"], returns)
        np.testing.assert_array_equal(info["winner"], winner)
        np.testing.assert_array_equal(
            info["_final_obs" if mode == "same_step" else "autoreset"], reset
        )
        for i, m in enumerate(models):
            assert env.board(i) == m.board
            np.testing.assert_array_equal(obs[i], planes_of(m.board))
            assert info["current_player"][i] == m.board.current_player
            if m.ended:
                expected = np.full(env.num_actions, mode != "disabled")
            else:
                expected = m.board.legal_mask()
            np.testing.assert_array_equal(info["action_mask"][i], expected)
        for i, final in finals.items():
            np.testing.assert_array_equal(info["final_obs"][i], final)
    return int(forfeits)


@settings(deadline=None, max_examples=60)
@given(
    rules=rule_kwargs(max_width=5, max_height=5).filter(lambda r: r["k"] >= 2 and r["width"] >= 2),
    seed=st.integers(0, 2**32),
    mode=st.sampled_from(["next_step", "same_step", "disabled"]),
)
def test_illegal_losses_match_separate_boards(rules, seed, mode):
    check_against_boards(rules, seed, mode)


@pytest.mark.parametrize("mode", ["next_step", "same_step", "disabled"])
@pytest.mark.parametrize(
    "rules",
    [
        dict(width=7, height=6, k=4, players=2, gravity=True),
        dict(width=3, height=3, k=3, players=2, gravity=False),
        dict(width=4, height=4, k=3, players=3, gravity=True),
        dict(width=5, height=5, k=4, players=4, gravity=False),
    ],
    ids=["c4", "ttt", "4x4p3", "5x5p4free"],
)
def test_the_streams_forfeit_on_games_that_last(rules, mode):
    assert check_against_boards(rules, 7, mode) > 5
