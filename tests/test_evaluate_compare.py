"""evaluate.compare_accuracy: two agents' move accuracy paired position by position."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import random_play_boards

import inarow
from inarow import agents, evaluate
from inarow.evaluate.compare import mcnemar_p_value, paired_difference_interval


def leftmost(board: inarow.Board) -> int:
    return board.legal_moves()[0]


def rightmost(board: inarow.Board) -> int:
    return board.legal_moves()[-1]


def test_pairs_match_an_independent_count():
    sets = {"first": random_play_boards(25, 1), "second": random_play_boards(20, 2)}
    solver = inarow.Solver()

    def good(agent, board):
        scores = solver.analyze(board)
        best = max(s for s in scores if s is not None)
        mine = scores[agent(board)]
        return (mine > 0) - (mine < 0) == (best > 0) - (best < 0)

    a = evaluate.move_accuracy(leftmost, sets, progress=False)
    b = evaluate.move_accuracy(rightmost, sets, progress=False)
    c = evaluate.compare_accuracy(a, b)
    for name, boards in sets.items():
        flags = [(good(leftmost, x), good(rightmost, x)) for x in boards]
        p = c.sets[name]
        assert (p.both, p.only_a, p.only_b, p.neither) == (
            sum(x and y for x, y in flags),
            sum(x and not y for x, y in flags),
            sum(y and not x for x, y in flags),
            sum(not x and not y for x, y in flags),
        )
        assert p.a_rate == a.sets[name].good_rate and p.b_rate == b.sets[name].good_rate
        assert a.sets[name].good_by_position == tuple(x for x, _ in flags)
    total = c.overall
    assert total.positions == 45
    assert total.only_a == sum(p.only_a for p in c.sets.values())
    assert total.difference == pytest.approx(a.good_rate - b.good_rate)
    assert total.only_a + total.only_b > 0  # the two agents differ somewhere
    lo, hi = total.difference_interval
    assert lo <= total.difference <= hi
    assert "overall" in str(c) and "first" in str(c)
    # Swapping the agents swaps the counts and negates the difference.
    swapped = evaluate.compare_accuracy(b, a).overall
    assert (swapped.only_a, swapped.only_b) == (total.only_b, total.only_a)
    assert swapped.difference_interval == pytest.approx((-hi, -lo))


def test_an_agent_against_itself_differs_nowhere():
    boards = random_play_boards(12, 3)
    a = evaluate.move_accuracy(agents.perfect(seed=0), boards, progress=False)
    c = evaluate.compare_accuracy(a, a).overall
    assert (c.only_a, c.only_b, c.difference, c.p_value) == (0, 0, 0.0, 1.0)


def test_refuses_results_that_do_not_pair():
    boards = random_play_boards(10, 4)
    a = evaluate.move_accuracy(leftmost, boards, progress=False)
    other = evaluate.move_accuracy(leftmost, random_play_boards(10, 5), progress=False)
    with pytest.raises(ValueError, match="different positions"):
        evaluate.compare_accuracy(a, other)
    renamed = evaluate.move_accuracy(leftmost, {"late": boards}, progress=False)
    with pytest.raises(ValueError, match="different sets"):
        evaluate.compare_accuracy(a, renamed)
    by_hand = evaluate.AccuracyResult(
        {"positions": evaluate.SetAccuracy("positions", 10, 5, 5)},
        evaluate.SetAccuracy("overall", 10, 5, 5),
    )
    with pytest.raises(ValueError, match="per-position record"):
        evaluate.compare_accuracy(a, by_hand)
    with pytest.raises(TypeError, match="AccuracyResult"):
        evaluate.compare_accuracy(a, 0.9)


def test_paired_interval_matches_newcombes_published_example():
    # Newcombe (1998), Statistics in Medicine 17:2635, table II: 36/12/2/0 gives
    # a difference of 0.2000 with the interval 0.0569 to 0.3404 by method 10.
    lo, hi = paired_difference_interval(36, 12, 2, 0)
    assert (round(lo, 4), round(hi, 4)) == (0.0569, 0.3404)
    assert paired_difference_interval(0, 0, 0, 0) == (-1.0, 1.0)
    with pytest.raises(ValueError, match="only_b=-1"):
        paired_difference_interval(3, 1, -1, 0)


@given(st.integers(0, 300), st.integers(0, 40), st.integers(0, 40), st.integers(0, 300))
def test_paired_interval_holds_the_difference_and_is_tighter_than_separate_ones(
    both, only_a, only_b, neither
):
    n = both + only_a + only_b + neither
    if n == 0:
        return
    lo, hi = paired_difference_interval(both, only_a, only_b, neither)
    d = (only_a - only_b) / n
    assert -1.0 <= lo <= d <= hi <= 1.0
    assert (lo, hi) == pytest.approx(
        tuple(-x for x in reversed(paired_difference_interval(both, only_b, only_a, neither)))
    )
    # Pairs that agree on most positions: narrower than the separate intervals' spread.
    a_lo, a_hi = evaluate.wilson_interval(both + only_a, n)
    b_lo, b_hi = evaluate.wilson_interval(both + only_b, n)
    if both * neither > 4 * only_a * only_b and min(both, neither) > 20:
        assert hi - lo < (a_hi - a_lo) + (b_hi - b_lo)


@given(st.integers(0, 80), st.integers(0, 80))
def test_mcnemar_p_value_is_the_binomial_tail(only_a, only_b):
    n = only_a + only_b
    tail = sum(math.comb(n, i) for i in range(max(only_a, only_b), n + 1)) / 2**n
    expected = 1.0 if n == 0 else min(1.0, 2 * tail)
    assert mcnemar_p_value(only_a, only_b) == pytest.approx(expected, rel=1e-12)
    assert mcnemar_p_value(only_a, only_b) == mcnemar_p_value(only_b, only_a)


def test_mcnemar_p_value_known_values():
    assert mcnemar_p_value(10, 0) == 2 / 1024
    assert mcnemar_p_value(12, 2) == pytest.approx(2 * (1 + 14 + 91) / 2**14)
    assert mcnemar_p_value(5, 5) == 1.0
    with pytest.raises(ValueError, match="only_a=True"):
        mcnemar_p_value(True, 3)


def test_agents_judged_in_turn_on_the_same_boards_solve_each_position_once():
    sets = evaluate.judged_positions("connect_four", 3, seed=918_273, lengths=[10, 12])
    solved = []
    real = inarow.Solver()

    class CountingSolver:
        def analyze(self, board):
            solved.append(board.to_numpy().tobytes())
            return real.analyze(board)

    a = evaluate.move_accuracy(agents.greedy(seed=1), sets, solver=CountingSolver(), progress=False)
    b = evaluate.move_accuracy(agents.random(seed=2), sets, solver=CountingSolver(), progress=False)
    assert len(solved) == len(set(solved)) == 6
    comparison = evaluate.compare_accuracy(a, b)
    assert comparison.overall.positions == 6
