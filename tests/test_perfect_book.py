"""The perfect agent on 7x6 answers opening positions from the shipped book: moves
of the best win/draw/loss outcome at once, where an exact search takes minutes."""

from __future__ import annotations

import random

from book_positions import lets_opponent_win_at_once, lost_book_positions

import inarow


def test_the_perfect_agent_plays_the_openings_from_the_book():
    agent = inarow.agents.perfect(seed=0)
    assert agent(inarow.Board()) == 3  # the only winning first move
    solver = inarow.Solver(tt_bytes=1 << 20)
    rng = random.Random(5)
    for _ in range(20):
        board = inarow.Board()
        for _ in range(rng.randrange(1, 4)):
            board.move(rng.choice(board.legal_moves()))
        weak = solver.analyze(board, weak=True)
        assert solver.nodes == 0  # the book answered
        best = max(v for v in weak if v is not None)
        assert weak[agent(board)] == best, board.moves


def test_in_a_lost_opening_the_perfect_agent_does_not_lose_at_once_needlessly():
    """Where the book answers and every move loses, a move that lets the opponent win
    at once is the worst there is: the agent (at temperature 0, any seed) plays one
    only if every move does, so a weak opponent still has to find the win."""
    for board in lost_book_positions(7, (2, 11), 40, inarow.Solver(tt_bytes=1 << 20)):
        escapes = [c for c in board.legal_moves() if not lets_opponent_win_at_once(board, c)]
        for seed in range(3):
            col = inarow.agents.perfect(seed=seed)(board)
            assert not escapes or col in escapes, (board.moves, col)
    # every move loses here, and all but column 2 let the opponent win at once
    board = inarow.Board.from_pons("46152")
    assert [lets_opponent_win_at_once(board, c) for c in range(7)] == [True] * 2 + [False] + [
        True
    ] * 4
    assert {inarow.agents.perfect(seed=s)(board) for s in range(5)} == {2}


def test_in_a_lost_opening_the_perfect_agent_avoids_moves_that_lose_soon():
    """Every move loses: a move after which the opponent forces a win by their 4th
    stone (checked against the exact scores) is played only if every move is one."""
    exact = inarow.Solver(tt_bytes=64 << 20)
    for board in lost_book_positions(12, (10, 11), 6, exact):
        scores = exact.analyze(board)
        # The opponent's win with their j-th stone after the move scores, for the
        # mover, -((43 - stones after the move) // 2 - (j - 1)).
        worst_slow = -((43 - len(board.moves) - 1) // 2 - 3) + 1
        slow = [c for c in board.legal_moves() if scores[c] >= worst_slow]
        for seed in range(3):
            col = inarow.agents.perfect(seed=seed)(board)
            assert not slow or col in slow, (board.moves, scores, col)
