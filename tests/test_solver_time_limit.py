"""`Solver.best_move(board, time_limit=...)`: anytime, always a legal move, never a
worse proven outcome, the untimed answer when the budget lets the search finish,
and clear errors for bad budgets. Budgets are checked by node accounting, never
by the clock."""

from __future__ import annotations

import math
import random

import pytest
from book_positions import BOOK_DEPTH, random_board
from pons import positions

import inarow


@pytest.fixture(scope="module")
def solver():
    return inarow.Solver(tt_bytes=16 << 20)


def best_by_analysis(solver: inarow.Solver, board: inarow.Board) -> int:
    """The documented untimed answer: best exact score, ties nearest the centre."""
    scores = solver.analyze(board, weak=False)
    centre = sorted(range(board.width), key=lambda c: (abs(2 * c - (board.width - 1)), c))
    legal = [c for c in centre if scores[c] is not None]
    return max(legal, key=lambda c: (scores[c], -centre.index(c)))


def test_a_generous_budget_gives_the_untimed_best_move(solver):
    rng = random.Random(13)
    # From the book's depth on (where the book no longer holds every child, so the
    # untimed move is the best exact score).
    for plies in [BOOK_DEPTH, 16, 20, 26, 32]:
        for _ in range(6):
            board = random_board(rng, plies)
            want = best_by_analysis(solver, board)
            solver.clear()
            assert solver.best_move(board, time_limit=3600) == want, board.moves
            assert solver.best_move(board) == want, board.moves
    for moves, _ in positions("Test_L2_R1", 10):
        board = inarow.Board.from_pons(moves)
        assert solver.best_move(board, time_limit=1e9) == best_by_analysis(solver, board)


def test_any_budget_gives_a_legal_move_and_never_a_proven_worse_outcome(solver):
    rng = random.Random(7)
    for i in range(40):
        board = random_board(rng, rng.randrange(0, 30))
        before = board.moves
        limit = [0, 0.0, 1e-4, 0.002, 0.01][i % 5]
        move = solver.best_move(board, time_limit=limit)
        assert move in board.legal_moves()
        assert board.moves == before
        # Moves that lose at once are known without a search: never chosen when
        # some move does not.
        weak_now = [
            None if c not in board.legal_moves() else _loses_at_once(board, c)
            for c in range(board.width)
        ]
        if not all(weak_now[c] for c in board.legal_moves()):
            assert not weak_now[move], board.moves


def _loses_at_once(board: inarow.Board, col: int) -> bool:
    child = board.copy()
    if child.move(col):
        return False
    return any(child.copy().move(c) for c in child.legal_moves())


def test_no_time_means_no_search(solver):
    # 16 plies, past the book: the untimed best move searches (some 0.3M nodes).
    board = inarow.Board.from_pons("2562711776376711")
    assert len(board.moves) > max((ply for ply, _ in solver.book_levels), default=-1)
    assert solver.best_move(board, time_limit=0) in board.legal_moves()
    assert solver.nodes == 0
    solver.best_move(board)
    assert solver.nodes > 0
    # An immediate win is taken and a single threat blocked, even without time.
    win = inarow.Board.from_moves([3, 0, 3, 0, 3, 1])
    assert solver.best_move(win, time_limit=0) == 3
    block = inarow.Board.from_moves([3, 0, 3, 0, 3])
    assert solver.best_move(block, time_limit=0) == 3


def test_the_book_answers_timed_calls_too():
    s = inarow.Solver(tt_bytes=1 << 20)
    empty = inarow.Board()
    assert s.best_move(empty, time_limit=0) == s.best_move(empty) == 3
    assert s.nodes == 0


@pytest.mark.parametrize("bad", [-1, -1e-9, math.nan, math.inf, -math.inf, 2**2000], ids=repr)
def test_out_of_range_budgets_raise_value_error(solver, bad):
    board = inarow.Board.from_pons("4453")
    with pytest.raises(ValueError, match="time_limit"):
        solver.best_move(board, time_limit=bad)
    assert board.moves == [3, 3, 4, 2]


@pytest.mark.parametrize("bad", [True, False, "1", [1], object()], ids=repr)
def test_non_numbers_raise_type_error(solver, bad):
    with pytest.raises(TypeError, match="time_limit"):
        solver.best_move(inarow.Board(), time_limit=bad)


def test_a_finished_game_raises_whatever_the_budget(solver):
    won = inarow.Board.from_moves([3, 0, 3, 0, 3, 0, 3])
    with pytest.raises(inarow.IllegalMoveError):
        solver.best_move(won, time_limit=1.0)
