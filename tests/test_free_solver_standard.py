"""The free-placement solver under rule="standard" (exactly k in a row wins, an
overline is no win) against a plain negamax over ``inarow.Board`` under that rule."""

import random

import pytest

import inarow


def standard(width: int, height: int, k: int) -> inarow.Rules:
    return inarow.Rules(width, height, k, gravity=False, rule="standard")


def negamax(board: inarow.Board, memo: dict[bytes, int]) -> int:
    """The exact score for the side to move (Pons' convention: a win with the
    ``m+1``-th stone of ``N`` cells scores ``(N + 1 - m) // 2``) of a game not over."""
    key = board.to_numpy().tobytes()
    if key in memo:
        return memo[key]
    n, m = board.width * board.height, board.num_stones
    best = -n
    for action in board.legal_moves():
        board.move(action)
        if board.winner is not None:
            value = (n + 1 - m) // 2
        elif board.is_over:
            value = 0
        else:
            value = -negamax(board, memo)
        board.undo()
        best = max(best, value)
    memo[key] = best
    return best


def random_boards(rules: inarow.Rules, count: int, least: int, seed: int) -> list[inarow.Board]:
    rng = random.Random(seed)
    boards: list[inarow.Board] = []
    while len(boards) < count:
        board = inarow.Board(rules=rules)
        for _ in range(rng.randrange(least, rules.width * rules.height)):
            board.move(rng.choice(board.legal_moves()))
            if board.is_over:
                break
        if not board.is_over:
            boards.append(board)
    return boards


@pytest.mark.parametrize(
    "shape,count,least",
    [((4, 4, 3), 25, 5), ((5, 4, 4), 15, 11), ((4, 3, 3), 25, 0)],
    ids=["4x4k3", "5x4k4", "4x3k3"],
)
def test_standard_scores_equal_the_negamax(shape, count, least):
    rules = standard(*shape)
    solver = inarow.Solver(tt_bytes=1 << 22, threads=1, book=False)
    memo: dict[bytes, int] = {}
    for board in random_boards(rules, count, least, seed=5):
        expected = negamax(board, memo)
        assert solver.solve(board) == expected, board.moves()
        assert solver.solve(board, weak=True) == (expected > 0) - (expected < 0)
        scores = solver.analyze(board)
        assert max(s for s in scores if s is not None) == expected, board.moves()


def test_an_overline_is_no_win_under_standard():
    # 5x2, k = 3: X on 0, 1, 3 of the top row, O on 5, 6, 8; X's 2 is an overline.
    moves = [0, 5, 1, 6, 3, 8]
    solver = inarow.Solver(tt_bytes=1 << 20, threads=1, book=False)
    strict = inarow.Board(rules=standard(5, 2, 3))
    loose = inarow.Board(rules=inarow.Rules(5, 2, 3, gravity=False))
    for board in (strict, loose):
        for action in moves:
            board.move(action)
    win_at_once = (10 + 1 - 6) // 2
    assert solver.analyze(loose)[2] == win_at_once
    assert solver.analyze(strict)[2] != win_at_once
    assert solver.solve(strict) == negamax(strict, {})


def test_the_solver_supports_standard_without_gravity_only():
    assert inarow.Solver.supports(standard(7, 7, 5))
    assert inarow.Solver.supports(inarow.Board(rules=standard(3, 3, 3)))
    gravity = inarow.Rules(7, 6, 4, gravity=True, rule="standard")
    assert not inarow.Solver.supports(gravity)
    solver = inarow.Solver(tt_bytes=1 << 20, threads=1, book=False)
    with pytest.raises(inarow.UnsupportedRulesError, match="standard"):
        solver.solve(inarow.Board(rules=gravity))


def test_renju_is_refused_by_name():
    renju = inarow.Rules(8, 8, 5, gravity=False, rule="renju")
    assert not inarow.Solver.supports(renju)
    solver = inarow.Solver(tt_bytes=1 << 20, threads=1, book=False)
    for call in (solver.solve, solver.analyze, solver.best_move):
        with pytest.raises(inarow.UnsupportedRulesError, match="renju"):
            call(inarow.Board(rules=renju))
