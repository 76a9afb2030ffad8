"""The solver answers from the shipped opening book: known opening values without a
search, the book's values agree with the search's, positions past the book fall back
to the search, and a book that cannot be loaded only warns."""

from __future__ import annotations

import importlib.resources
import random
import subprocess
import sys
import textwrap

import pytest
from book_positions import (
    BOOK_DEPTH,
    EXACT_DEPTH,
    lets_opponent_win_at_once,
    lost_book_positions,
    random_board,
)
from pons import analysis, positions

import inarow

# Pons: the empty board's moves score -2 -1 0 1 0 -1 -2 (columns 1..7); as
# win/draw/loss for the first player, and for the second player after each.
FIRST_MOVES = [-1, -1, 0, 1, 0, -1, -1]


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


@pytest.fixture(scope="module")
def book_solver():
    return inarow.Solver(tt_bytes=16 << 20)


def test_the_empty_board_is_answered_without_a_search(book_solver):
    board = inarow.Board()
    assert book_solver.solve(board, weak=True) == 1
    assert book_solver.nodes == 0
    assert book_solver.analyze(board, weak=True) == FIRST_MOVES
    assert book_solver.nodes == 0
    assert book_solver.best_move(board) == 3
    assert book_solver.nodes == 0


@pytest.mark.parametrize("col", range(7))
def test_positions_after_one_move_are_answered_without_a_search(book_solver, col):
    board = inarow.Board.from_moves([col])
    assert book_solver.solve(board, weak=True) == -FIRST_MOVES[col]
    assert book_solver.nodes == 0
    scores = book_solver.analyze(board, weak=True)
    assert book_solver.nodes == 0
    assert max(s for s in scores if s is not None) == -FIRST_MOVES[col]
    best = book_solver.best_move(board)
    assert book_solver.nodes == 0
    assert scores[best] == max(s for s in scores if s is not None)


def test_book_answers_agree_with_pons_scores(book_solver):
    """Pons' positions within the book's plies (an independent source): solve
    (weak) is the sign of Pons' exact score, without a search."""
    checked = 0
    for name in ("Test_L1_R1", "Test_L1_R2", "Test_L1_R3"):
        for moves, score in positions(name):
            if len(moves) > 4:
                continue
            board = inarow.Board.from_pons(moves)
            assert book_solver.solve(board, weak=True) == sign(score), moves
            assert book_solver.nodes == 0
            checked += 1
    assert checked > 200


def test_book_analysis_agrees_with_pons_per_move_truth(book_solver):
    """The shipped per-move analysis of Pons' positions with at most 3 stones
    (children within the book): analyze (weak) is its signs, best_move is never
    a worse outcome than the best."""
    checked = 0
    for moves, scores in analysis("Test_L1_R3"):
        if len(moves) > 3:
            continue
        truth = [None if s is None else sign(s) for s in scores]
        board = inarow.Board.from_pons(moves)
        assert book_solver.analyze(board, weak=True) == truth, moves
        assert book_solver.nodes == 0
        assert truth[book_solver.best_move(board)] == max(t for t in truth if t is not None)
        checked += 1
    assert checked > 0


def pons_truth(max_moves: int) -> list[tuple[str, list[int | None]]]:
    """Pons' opening positions of at most ``max_moves`` stones with the shipped exact
    score of each move (None: a full column)."""
    sets = ("Test_L1_R1", "Test_L1_R2", "Test_L1_R3")
    return [line for name in sets for line in analysis(name) if len(line[0]) <= max_moves]


def test_the_exact_levels_answer_exact_calls_without_a_search(book_solver):
    """Where the book's exact levels hold every move (fewer stones than its deepest
    exact level), exact solve and analyze are Pons' scores and best_move an exact
    best, all without a search."""
    assert EXACT_DEPTH >= 1, "the shipped book holds exact levels (README)"
    checked = 0
    for moves, truth in pons_truth(EXACT_DEPTH - 1):
        board = inarow.Board.from_pons(moves)
        best = max(t for t in truth if t is not None)
        assert book_solver.analyze(board) == truth, moves
        assert book_solver.nodes == 0
        assert book_solver.solve(board) == best, moves
        assert book_solver.nodes == 0
        assert truth[book_solver.best_move(board)] == best, moves
        assert book_solver.nodes == 0
        checked += 1
    assert checked > 100


def test_one_stone_past_the_exact_levels_exact_analysis_is_still_pons_truth():
    """At the deepest exact level the position's own score bounds its moves'
    searches (none scores more than it); the scores are unchanged: Pons' truth."""
    solver = inarow.Solver(tt_bytes=64 << 20)
    lines = [(m, t) for m, t in pons_truth(EXACT_DEPTH) if len(m) == EXACT_DEPTH]
    for moves, truth in lines[:3]:
        assert solver.analyze(inarow.Board.from_pons(moves)) == truth, moves
    assert len(lines) >= 3


@pytest.mark.parametrize(
    "plies, boards, tt_bytes, in_book",
    [(min(4, BOOK_DEPTH), 3, 1 << 16, True), (BOOK_DEPTH + 2, 2, 64 << 20, False)],
    ids=["from-the-book", "past-the-book-searches"],
)
def test_book_solver_agrees_with_the_search_in_and_past_the_book(plies, boards, tt_bytes, in_book):
    """Random positions (seeded by their ply count): within the book's plies the book
    solver answers without a search, past them it falls back to the search; either way
    its value is the searcher's. The book solver's table is sized for what it does."""
    rng = random.Random(plies)
    searcher = inarow.Solver(tt_bytes=64 << 20, book=False)
    book_solver = inarow.Solver(tt_bytes=tt_bytes)
    for _ in range(boards):
        board = random_board(rng, plies)
        while any(board.copy().move(c) for c in board.legal_moves()):
            board = random_board(rng, plies)  # an immediate win needs no search either
        assert book_solver.solve(board, weak=True) == searcher.solve(board, weak=True), board.moves
        if in_book:
            assert book_solver.nodes == 0
            assert searcher.nodes > 0
        else:
            assert book_solver.nodes > 0


def test_one_stone_past_the_book_a_losing_parent_makes_a_win_without_a_search():
    """A parent in the book whose mover loses could have played into the position, so
    the position is a win for its own mover; the plain search agrees."""
    rng = random.Random(BOOK_DEPTH + 1)
    searcher = inarow.Solver(tt_bytes=64 << 20, book=False)
    book_solver = inarow.Solver(tt_bytes=1 << 20)
    free = 0
    for _ in range(200):
        board = random_board(rng, BOOK_DEPTH + 1)
        if any(board.copy().move(c) for c in board.legal_moves()):
            continue
        value = book_solver.solve(board, weak=True)
        if book_solver.nodes == 0:
            assert value == 1, board.moves
            assert searcher.solve(board, weak=True) == 1, board.moves
            free += 1
            if free == 3:
                break
    assert free == 3


def test_analyze_of_a_ply_3_position_is_consistent_and_free():
    rng = random.Random(3)
    book_solver = inarow.Solver(tt_bytes=1 << 16)
    for _ in range(5):
        board = random_board(rng, 3)
        scores = book_solver.analyze(board, weak=True)
        assert book_solver.nodes == 0
        best = max(s for s in scores if s is not None)
        assert book_solver.solve(board, weak=True) == best, board.moves
        col = book_solver.best_move(board)
        assert book_solver.nodes == 0
        assert scores[col] == best, board.moves
        # Centre first among the equally good moves, those that let the opponent
        # win at once last.
        order = sorted(range(7), key=lambda c: (abs(2 * c - 6), c))
        equal = [c for c in order if scores[c] == best]
        expected = next((c for c in equal if not lets_opponent_win_at_once(board, c)), equal[0])
        assert col == expected, board.moves


def test_in_a_lost_book_position_best_move_does_not_lose_at_once_needlessly(book_solver):
    """Where the book answers and every move loses, a move that lets the opponent win
    at once (the worst exact score there is) is chosen only if all moves do: a weak
    opponent must still find the win. Random lost positions of plies 2..11."""
    for board in lost_book_positions(11, (2, min(11, BOOK_DEPTH - 1)), 60, book_solver):
        col = book_solver.best_move(board)
        assert book_solver.nodes == 0
        if lets_opponent_win_at_once(board, col):
            assert all(lets_opponent_win_at_once(board, c) for c in board.legal_moves()), (
                board.moves
            )
    # the position that showed it: centre-first column 3 lets the opponent win
    board = inarow.Board.from_pons("46152")
    assert lets_opponent_win_at_once(board, 3) and book_solver.best_move(board) != 3


def test_exact_calls_still_search(book_solver):
    board = inarow.Board.from_pons("2252576253462244111563365343671351441")
    assert book_solver.solve(board) == -1
    assert book_solver.book
    assert not inarow.Solver(tt_bytes=1 << 16, book=False).book


def test_book_levels_name_every_ply_exact_ones_first(book_solver):
    levels = book_solver.book_levels
    plies = [ply for ply, _ in levels]
    kinds = [kind for _, kind in levels]
    assert plies == list(range(len(levels))) and len(levels) >= 13
    assert set(kinds) <= {"exact", "weak"} and kinds == sorted(kinds)  # exact, then weak
    # each kind answers as it says: an exact level's position without a search
    exact_depth = kinds.count("exact") - 1
    board = inarow.Board.from_pons("12345671234567"[:exact_depth])
    assert len(board.moves) == exact_depth
    book_solver.solve(board)
    assert book_solver.nodes == 0
    assert inarow.Solver(tt_bytes=1 << 16, book=False).book_levels == []


def test_the_shipped_book_fits_the_wheel_budget():
    # The book ships compressed (zip leaves a zstd frame as it is): 10 MB at most.
    data = importlib.resources.files("inarow").joinpath("data")
    size = len(data.joinpath("connect4-7x6.book.zst").read_bytes())
    assert 1_000_000 < size <= 10_000_000, size


@pytest.mark.parametrize("value", [1, 0, "yes", None.__class__])
def test_book_must_be_a_bool(value):
    with pytest.raises(TypeError, match="book"):
        inarow.Solver(tt_bytes=1 << 16, book=value)


def test_repr_names_the_book_setting():
    assert "book=False" in repr(inarow.Solver(tt_bytes=1 << 16, book=False))
    assert "book=True" in repr(inarow.Solver(tt_bytes=1 << 16))


@pytest.mark.parametrize(
    "read_bytes",
    [
        "raise FileNotFoundError('no such file')",
        "return b'INAROWBK' + bytes(40)",
        # a zstd frame that is no book container (no declared size, no blocks)
        "return bytes.fromhex('28b52ffd') + bytes(12)",
    ],
    ids=["missing", "corrupt", "bad container"],
)
def test_a_book_that_cannot_be_loaded_warns_and_the_solver_searches(read_bytes):
    script = textwrap.dedent(
        f"""
        import importlib.resources, warnings
        import inarow

        class Resource:
            def joinpath(self, name):
                return self
            def read_bytes(self):
                {read_bytes}

        importlib.resources.files = lambda package: Resource()
        board = inarow.Board.from_pons("2252576253462244111563365343671351441")
        solver = inarow.Solver(tt_bytes=1 << 20)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert solver.solve(board, weak=True) == -1
            assert solver.solve(board, weak=True) == -1
        assert len(caught) == 1, caught
        assert caught[0].category is RuntimeWarning
        assert "opening book" in str(caught[0].message)
        assert solver.analyze(inarow.Board.from_pons("22525762534622441115633653436713514"), weak=True)
        print("ok")
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
