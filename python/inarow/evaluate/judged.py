"""Random openings to judge agents on, for any rules the solver covers."""

from __future__ import annotations

import random
from typing import Any

from inarow._native import Board
from inarow._rules import RulesLike, read_rules

__all__ = ["JUDGED_PER_SET", "JUDGED_SEED", "judged_lengths", "judged_positions"]

#: Positions per set of :func:`judged_positions` unless ``per_set`` says otherwise.
JUDGED_PER_SET = 100

#: The seed of :func:`judged_positions`: the same openings in every process.
JUDGED_SEED = 31

#: Truths computed for judged positions, kept for the process ((rules, cells) ->
#: per-action scores), so scoring several agents solves each position once.
_JUDGED_TRUTH: dict[tuple[Any, ...], tuple[int | None, ...]] = {}


def judged_lengths(rules: RulesLike) -> list[int]:
    """The opening lengths (stones on the board) of :func:`judged_positions`: about
    an eighth, a quarter, three eighths and half of the cells (at least 1, distinct)."""
    r = read_rules(rules)
    cells = r.width * r.height
    return sorted({max(1, cells * eighths // 8) for eighths in (1, 2, 3, 4)})


def judged_positions(
    rules: RulesLike, per_set: int | None = None, seed: int = JUDGED_SEED
) -> dict[str, list[Board]]:
    """Random openings of ``rules`` to judge agents on, one set per length of
    :func:`judged_lengths` (named ``"plies N"``): ``per_set`` distinct positions
    each (default :data:`JUDGED_PER_SET`; fewer where fewer exist), reached by
    uniformly random moves from the empty board and not over, drawn with ``seed``
    (the same boards every time). ``ValueError`` for bad ``rules``."""
    r = read_rules(rules)
    wanted = JUDGED_PER_SET if per_set is None else per_set
    rng = random.Random(seed)
    out: dict[str, list[Board]] = {}
    for plies in judged_lengths(r):
        boards: list[Board] = []
        seen: set[tuple[int, ...]] = set()
        # Distinct openings are drawn until enough or the draws stop finding new ones.
        for _ in range(wanted * 20):
            if len(boards) == wanted:
                break
            board = Board(rules=r)
            while board.num_stones < plies and not board.is_over:
                board.move(rng.choice(board.legal_moves()))
            cells = tuple(board.to_numpy().ravel().tolist())
            if board.is_over or cells in seen:
                continue
            seen.add(cells)
            boards.append(board)
        out[f"plies {plies}"] = boards
    return out


def _judged_key(board: Board) -> tuple[Any, ...]:
    return (board.rules, tuple(board.to_numpy().ravel().tolist()))
