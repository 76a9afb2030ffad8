"""inarow.MCTS against the truth on every tic-tac-toe position of at most 5 stones
(17,290 move sequences): no root rule, with rollouts, ever picks a move whose
outcome with best play is worse than the position's. A plain minimax judges."""

from __future__ import annotations

from functools import cache

import pytest
from test_mcts import uniform

import inarow

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def won(cells):
    return any(cells[a] and cells[a] == cells[b] == cells[c] for a, b, c in LINES)


@cache
def value(cells):
    """The result of best play for the side to move: +1, 0 or -1."""
    me = 1 if sum(1 for x in cells if x) % 2 == 0 else 2
    best = -1
    for i in range(9):
        if not cells[i]:
            best = max(best, after(cells, i, me))
    return best


def after(cells, i, me):
    """The mover's result of playing cell `i`."""
    child = cells[:i] + (me,) + cells[i + 1 :]
    if won(child):
        return 1
    return 0 if all(child) else -value(child)


def positions():
    """Every move sequence of at most 5 moves whose game is not over."""
    found = []

    def walk(cells, moves):
        found.append((cells, moves))
        if len(moves) == 5:
            return
        me = 1 if len(moves) % 2 == 0 else 2
        for i in range(9):
            if not cells[i]:
                child = cells[:i] + (me,) + cells[i + 1 :]
                if not won(child):
                    walk(child, moves + [i])

    walk((0,) * 9, [])
    return found


POSITIONS = positions()


def test_the_judge_covers_the_issue_s_positions():
    assert len(POSITIONS) == 17_290
    assert value((0,) * 9) == 0
    # X at 0 and 2, O at 1 and 4: only the block at 7 keeps the draw.
    cells = (1, 2, 1, 0, 2, 0, 0, 0, 0)
    assert [i for i in range(9) if not cells[i] and after(cells, i, 1) == value(cells)] == [7]


# Seed 0 of each combination; docs/mcts.md gives the rates over fresh seeds
# (Gumbel with an evaluator that knows nothing can still pick, by its noise, between
# two unproven survivors one of which loses deep down).
@pytest.mark.parametrize(
    "root, evaluate",
    [("puct", "rollout"), ("gumbel", "rollout"), ("puct", "uniform"), ("gumbel", "uniform")],
)
def test_no_move_is_worse_than_best_play(root, evaluate):
    rules = inarow.Rules.tic_tac_toe()
    boards = [inarow.Board.from_moves(moves, rules=rules) for _, moves in POSITIONS]
    search = inarow.MCTS(rules, num_simulations=2000, root=root, seed=0)
    actions = []
    for i in range(0, len(boards), 4000):
        chunk = boards[i : i + 4000]
        out = search.run(chunk, "rollout" if evaluate == "rollout" else uniform)
        actions.extend(out.actions.tolist())
    worse = [
        (moves, a)
        for (cells, moves), a in zip(POSITIONS, actions)
        if after(cells, a, 1 if len(moves) % 2 == 0 else 2) < value(cells)
    ]
    assert worse == [], f"{len(worse)} worse-outcome moves, e.g. {worse[:5]}"
