"""Lost opening positions and the moves that lose at once, for the tests of how the
solver and the perfect agent choose among losing moves (plain ``inarow.Board`` play,
independent of the solver's bitboards)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import inarow

# The shipped book's levels: its deepest ply, and its deepest exact level (-1: none).
_LEVELS = inarow.Solver(tt_bytes=1 << 16).book_levels
BOOK_DEPTH = max(ply for ply, _ in _LEVELS)
EXACT_DEPTH = max((ply for ply, kind in _LEVELS if kind == "exact"), default=-1)


def random_board(rng: random.Random, plies: int) -> inarow.Board:
    """A random game of ``plies`` stones that is not over (games that end sooner are
    drawn again)."""
    while True:
        board = inarow.Board()
        for _ in range(plies):
            board.move(rng.choice(board.legal_moves()))
            if board.is_over:
                break
        if not board.is_over:
            return board


def lets_opponent_win_at_once(board: inarow.Board, col: int) -> bool:
    """Whether playing ``col`` lets the opponent win with their next move."""
    after = board.copy()
    if after.move(col):
        return False
    return any(after.copy().move(c) for c in after.legal_moves())


def lost_book_positions(
    seed: int, plies: tuple[int, int], count: int, solver: inarow.Solver
) -> Iterator[inarow.Board]:
    """``count`` random positions of ``plies`` (inclusive range) stones, not over, that
    the side to move loses by ``solver`` (seeded)."""
    rng = random.Random(seed)
    found = 0
    while found < count:
        board = inarow.Board()
        for _ in range(rng.randint(*plies)):
            if not board.is_over:
                board.move(rng.choice(board.legal_moves()))
        if not board.is_over and solver.solve(board, weak=True) == -1:
            found += 1
            yield board
