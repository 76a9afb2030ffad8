"""The solver from Python: exact scores on Pascal Pons' test positions, the analysis
and best move agree with the scores, over positions, limits and bad input."""

from __future__ import annotations

import pytest
from pons import positions

import inarow


@pytest.fixture(scope="module")
def solver():
    return inarow.Solver(tt_bytes=16 << 20)


@pytest.mark.parametrize(
    "name,count", [("Test_L3_R1", 200), ("Test_L2_R1", 100), ("Test_L2_R2", 10)]
)
def test_exact_scores_on_pons_sets(solver, name, count):
    nodes = 0
    for moves, score in positions(name, count):
        board = inarow.Board.from_pons(moves)
        solver.clear()
        assert solver.solve(board) == score, moves
        nodes += solver.nodes
        assert solver.solve(board, weak=True) == (score > 0) - (score < 0), moves
        assert board.moves == [int(c) - 1 for c in moves]  # never modified
    assert nodes > 0


def test_analysis_and_best_move_agree_with_the_scores(solver):
    for moves, score in positions("Test_L3_R1", 40):
        board = inarow.Board.from_pons(moves)
        scores = solver.analyze(board)
        assert len(scores) == 7
        for col, s in enumerate(scores):
            assert (s is None) == (col not in board.legal_moves())
            if s is not None and not board.copy().move(col):
                child = board.copy()
                child.move(col)
                assert s == -solver.solve(child), (moves, col)
        assert max(s for s in scores if s is not None) == score
        best = solver.best_move(board)
        assert scores[best] == score


def test_small_boards_other_k():
    # Tic-tac-toe-like gravity 3x3 k=3 and 4x4 k=3, against brute force.
    def brute(board: inarow.Board) -> int:
        n = board.width * board.height
        best = -n
        for a in board.legal_moves():
            child = board.copy()
            if child.move(a):
                return (n + 1 - (len(board.moves))) // 2
            best = max(best, 0 if child.is_draw else -brute(child))
        return best

    solver = inarow.Solver(tt_bytes=1 << 16)
    for w, h, k, prefix in [(3, 3, 3, []), (4, 4, 3, [1, 2, 1]), (4, 3, 3, [0]), (5, 2, 2, [])]:
        board = inarow.Board.from_moves(prefix, rules=inarow.Rules(width=w, height=h, k=k))
        assert solver.solve(board) == brute(board), (w, h, k, prefix)


def test_finished_positions_have_documented_answers(solver):
    won = inarow.Board.from_moves([0, 1, 0, 1, 0, 1, 0])  # player 1 wins with the 7th stone
    assert won.winner == 1
    assert solver.solve(won) == -((42 + 2 - 7) // 2)
    assert solver.solve(won, weak=True) == -1
    assert solver.analyze(won) == [None] * 7
    with pytest.raises(inarow.IllegalMoveError, match="over"):
        solver.best_move(won)


@pytest.mark.parametrize(
    "board",
    [
        inarow.Board(rules=inarow.Rules(players=3)),
        inarow.Board(rules=inarow.Rules(width=12, height=11, gravity=False)),
        inarow.Board(rules=inarow.Rules(width=8, height=8)),
        inarow.Board(rules=inarow.Rules(width=13, height=5)),
    ],
    ids=["3-players", "no-gravity-12x11", "8x8", "13x5"],
)
def test_unsupported_rules_name_the_limit(solver, board):
    with pytest.raises(inarow.UnsupportedRulesError, match="players|128 cells|height"):
        solver.solve(board)


@pytest.mark.parametrize(
    "kwargs,match",
    [
        (dict(tt_bytes=0), "tt_bytes=0"),
        (dict(tt_bytes=-1), "tt_bytes=-1"),
        (dict(tt_bytes=2**70), "tt_bytes="),
        (dict(threads=0), "threads=0"),
        (dict(threads=65), "threads=65"),
    ],
)
def test_bad_config(kwargs, match):
    with pytest.raises(inarow.SolverConfigError, match=match):
        inarow.Solver(**kwargs)


def test_bad_arguments(solver):
    with pytest.raises(TypeError):
        solver.solve("4453")
    with pytest.raises(TypeError):
        solver.solve(inarow.Board(), weak="yes")
