"""inarow.MCTS across runs: a failed run leaves the last finished search readable
and advanceable, continuing a kept tree adds only the new simulations, and value
sums hold whatever the evaluator's (accepted) values."""

from __future__ import annotations

import numpy as np
import pytest
from test_mcts import hashed, random_boards, same_result, uniform

import inarow


def broken(obs, mask):
    raise ZeroDivisionError("the net fell over")


def refused(obs, mask):
    return np.zeros(mask.shape, np.float32), np.full(len(obs), np.nan, np.float32)


@pytest.mark.parametrize("root", ["puct", "gumbel"])
@pytest.mark.parametrize("failure", [broken, refused], ids=["raises", "refused"])
def test_a_failed_run_leaves_the_finished_search_readable_and_advanceable(root, failure):
    boards = random_boards(5, 21)
    search = inarow.MCTS(num_simulations=40, root=root)
    twin = inarow.MCTS(num_simulations=40, root=root)
    first = search.run(boards, hashed())
    same_result(first, twin.run(boards, hashed()))
    with pytest.raises((RuntimeError, ValueError)):
        search.run(boards, failure)
    same_result(search.result(), first)
    search.advance(first.actions)
    twin.advance(first.actions)
    after = []
    for board, action in zip(boards, first.actions):
        board = board.copy()
        board.move(int(action))
        after.append(board)
    same_result(search.run(after, hashed()), twin.run(after, hashed()))


def test_an_aborted_step_by_step_search_leaves_the_last_result():
    boards = random_boards(3, 22)
    search = inarow.MCTS(num_simulations=30)
    first = search.run(boards, uniform)
    pending = search.start(boards)
    search.feed(*uniform(*pending))
    with pytest.raises(RuntimeError):
        search.run(boards, broken)  # drops the step-by-step search too
    same_result(search.result(), first)


def test_a_kept_tree_searched_again_and_again_costs_only_the_new_simulations():
    # 60 runs of 500 rollout simulations on one root: the tree holds 30,000
    # visits at the end, and each run added exactly its own.
    search = inarow.MCTS(num_simulations=500, seed=3)
    board = inarow.Board()
    for run in range(1, 61):
        out = search.run([board], "rollout")
        assert out.visit_counts.sum() == 500 * run


def test_values_beyond_the_accepted_bound_are_refused_not_made_infinite():
    boards = random_boards(2, 23)
    search = inarow.MCTS(num_simulations=20)
    first = search.run(boards, uniform)

    def huge(obs, mask):
        return np.zeros(mask.shape, np.float32), np.full(len(obs), -3e38, np.float32)

    with pytest.raises(ValueError, match=r"values\[0\] = -3e38.*within -1e6..=1e6"):
        search.run(boards, huge)
    same_result(search.result(), first)

    def bounded(obs, mask):
        return np.zeros(mask.shape, np.float32), np.full(len(obs), -1e6, np.float32)

    out = inarow.MCTS(num_simulations=20).run(boards, bounded)
    assert np.isfinite(out.values).all()


@pytest.mark.parametrize("name", ["c_puct", "c_uct"])
@pytest.mark.parametrize("value", [3e38, 1e7])
def test_exploration_constants_are_bounded_by_what_the_arithmetic_carries(name, value):
    # c * sqrt(N) (c**2 * ln N for UCT) must stay finite for every visit count,
    # else every child scores inf and the first one takes every visit.
    with pytest.raises(ValueError, match=rf"{name}=.* out of range: allowed .* <= 1e6"):
        inarow.MCTS(**{name: value})
    inarow.MCTS(**{name: 1e6})
