"""The perfect agent on 7x6 answers opening positions from the shipped book: moves
of the best win/draw/loss outcome at once, where an exact search takes minutes."""

from __future__ import annotations

import random

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
