"""Random openings to judge agents on, for any rules the solver covers."""

from __future__ import annotations

import numbers
import random
from collections.abc import Iterable
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
    rules: RulesLike,
    per_set: int | None = None,
    seed: int = JUDGED_SEED,
    lengths: Iterable[int] | None = None,
) -> dict[str, list[Board]]:
    """Random openings of ``rules`` to judge agents on, one set per length (named
    ``"plies N"``; ``lengths``, default :func:`judged_lengths`): ``per_set`` distinct
    positions each (default :data:`JUDGED_PER_SET`; fewer where fewer exist), reached
    by uniformly random moves from the empty board and not over, drawn with ``seed``
    (the same boards every time). ``ValueError`` for bad ``rules`` or a length
    outside 0..cells - 1.

    >>> import inarow
    >>> sets = inarow.evaluate.judged_positions("connect_four", 5, lengths=range(6, 17, 2))
    >>> sorted(sets, key=lambda name: int(name.split()[1]))[-1], len(sets["plies 16"])
    ('plies 16', 5)
    """
    r = read_rules(rules)
    wanted = JUDGED_PER_SET if per_set is None else per_set
    if lengths is None:
        plies_of_sets = judged_lengths(r)
    else:
        plies_of_sets = sorted(set(lengths))
        cells = r.width * r.height
        bad = [
            n
            for n in plies_of_sets
            if isinstance(n, bool) or not isinstance(n, numbers.Integral) or not 0 <= n < cells
        ]
        if bad:
            raise ValueError(f"lengths {bad} are out of range: allowed 0..={cells - 1} stones")
    rng = random.Random(seed)
    out: dict[str, list[Board]] = {}
    for plies in plies_of_sets:
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


def position_key(board: Board) -> tuple[Any, ...]:
    """What identifies a judged position: its rules and its cells."""
    return (board.rules, tuple(board.to_numpy().ravel().tolist()))


def known_truth(key: tuple[Any, ...]) -> tuple[int | None, ...] | None:
    """The per-action scores of the position with this :func:`position_key`, computed
    earlier in this process, or ``None``."""
    return _JUDGED_TRUTH.get(key)


def remember_truth(key: tuple[Any, ...], scores: tuple[int | None, ...]) -> None:
    """Keeps the per-action scores of the position with this :func:`position_key` for
    the rest of the process."""
    _JUDGED_TRUTH[key] = scores
