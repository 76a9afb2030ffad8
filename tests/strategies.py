"""Hypothesis strategies shared by the test files: rules of the family (as keyword
dicts or `inarow.Rules`) and positions reached by legal play. Each test picks its
bounds; the definitions live here once."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import strategies as st

import inarow


@st.composite
def rule_kwargs(
    draw: Any, max_width: int = 7, max_height: int = 6, min_players: int = 2, max_players: int = 4
) -> dict[str, Any]:
    """``width, height, k, players, gravity`` within the bounds, k up to the longer side."""
    width = draw(st.integers(1, max_width))
    height = draw(st.integers(1, max_height))
    k = draw(st.integers(1, max(width, height)))
    players = draw(st.integers(min_players, max_players))
    gravity = draw(st.booleans())
    return dict(width=width, height=height, k=k, players=players, gravity=gravity)


def rules(**bounds: int) -> st.SearchStrategy[inarow.Rules]:
    """`inarow.Rules` values within the bounds of `rule_kwargs`."""
    return rule_kwargs(**bounds).map(lambda kw: inarow.Rules(**kw))


@st.composite
def played_boards(draw: Any, **bounds: int) -> inarow.Board:
    """A board of random rules (`rule_kwargs` bounds) after a random number of legal
    moves, each drawn among the legal ones; the game may have ended."""
    board = inarow.Board(rules=draw(rules(**bounds)))
    for choice in draw(st.lists(st.integers(0, 10**6), max_size=board.width * board.height)):
        if board.is_over:
            break
        legal = board.legal_moves()
        board.move(legal[choice % len(legal)])
    return board


def random_play_boards(
    n: int, seed: int = 0, plies: tuple[int, int] = (24, 34)
) -> list[inarow.Board]:
    """``n`` Connect Four positions after a number of uniformly random moves drawn
    from ``range(*plies)``, none of them over (late ones solve quickly)."""
    rng = random.Random(seed)
    out: list[inarow.Board] = []
    while len(out) < n:
        board = inarow.Board()
        for _ in range(rng.randrange(*plies)):
            if board.is_over:
                break
            board.move(rng.choice(board.legal_moves()))
        if not board.is_over:
            out.append(board)
    return out
