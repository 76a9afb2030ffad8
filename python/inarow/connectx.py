"""A ConnectX agent for Kaggle's ``kaggle-environments``: ``agent(observation,
configuration) -> column``.

>>> from inarow.connectx import agent
>>> agent({"board": [0] * 42, "mark": 1}, {"rows": 6, "columns": 7, "inarow": 4})
3

``observation.board`` is the flat grid, row-major, top row first (0 empty, 1 and 2
the players' marks), ``observation.mark`` the mark of the player to move;
``configuration`` gives ``rows``, ``columns``, ``inarow`` and ``actTimeout`` (seconds
per move, default 2). Both may be dicts, Kaggle's ``Struct`` or any object with
those attributes.

How it plays, any rows, columns and ``inarow``:

* Where :class:`inarow.Solver` applies (``inarow.Solver.supports``:
  ``columns * (rows + 1) <= 64``, 7x6, 8x7, 9x5, ...): ``Solver.best_move(board, time_limit=...)``, anytime, so never a
  timeout; on 7x6 with 4 in a row the shipped opening book answers the openings
  at once.
* Elsewhere: ``inarow.agents.negamax`` deepened one ply at a time while the next
  depth is expected to fit the budget (each ply costs about ``columns`` times the
  previous one), starting from depth 1, which takes an immediate win and blocks a
  single threat.

The budget is half of ``actTimeout`` counted from the moment the call starts, so
the first call's set-up (loading the book, building the solver) is inside it. The
solver persists between calls in this process.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import numpy as np

import inarow

__all__ = ["agent"]

#: The share of ``actTimeout`` a move may use (the rest is Kaggle's own overhead).
BUDGET_SHARE = 0.5
#: ``actTimeout`` when the configuration has none (Kaggle's default).
DEFAULT_ACT_TIMEOUT = 2.0

#: The deepest look-ahead of the fallback search.
MAX_FALLBACK_DEPTH = 64

_solver: inarow.Solver | None = None


def _field(obj: Any, name: str, default: Any = None) -> Any:
    if isinstance(obj, Mapping):
        value = obj.get(name, default)
    else:
        value = getattr(obj, name, default)
    if value is None:
        if default is None:
            raise ValueError(f"the ConnectX input has no {name!r}")
        return default
    return value


def _int_field(obj: Any, name: str, default: int | None = None) -> int:
    value = _field(obj, name, default)
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}: {value!r}")
    return int(value)


def board_of(observation: Any, configuration: Any) -> inarow.Board:
    """The :class:`inarow.Board` a ConnectX observation shows, checked: the grid's
    size, its stones (a position players reach moving in turn) and the mark of the
    player to move."""
    rows = _int_field(configuration, "rows", 6)
    columns = _int_field(configuration, "columns", 7)
    k = _int_field(configuration, "inarow", 4)
    grid = np.asarray(_field(observation, "board"))
    if grid.size != rows * columns:
        raise ValueError(
            f"observation.board has {grid.size} cells, expected rows * columns = "
            f"{rows} * {columns} = {rows * columns}"
        )
    board = inarow.Board.from_numpy(grid.reshape(rows, columns), inarow.Rules(columns, rows, k))
    mark = _int_field(observation, "mark")
    if mark != board.current_player:
        raise ValueError(
            f"observation.mark={mark}, but the board has player {board.current_player} to move"
        )
    return board


def _search_without_solver(board: inarow.Board, deadline: float) -> int:
    """Iterative deepening of the negamax agent while the next depth should fit."""
    t = time.monotonic()
    move = int(inarow.agents.negamax(1, seed=0)(board))
    last = time.monotonic() - t
    empty = board.width * board.height - len(board.moves)
    depth = 1
    while depth < min(empty, MAX_FALLBACK_DEPTH):
        t = time.monotonic()
        if t + last * board.width > deadline:
            break
        depth += 1
        move = int(inarow.agents.negamax(depth, seed=0)(board))
        last = time.monotonic() - t
    return move


def agent(observation: Any, configuration: Any) -> int:
    """The column to play (0-based), within half of ``configuration.actTimeout``."""
    global _solver
    start = time.monotonic()
    act_timeout = float(_field(configuration, "actTimeout", DEFAULT_ACT_TIMEOUT))
    if not (act_timeout > 0 and np.isfinite(act_timeout)):
        raise ValueError(f"configuration.actTimeout={act_timeout!r}: expected seconds > 0")
    deadline = start + BUDGET_SHARE * act_timeout
    board = board_of(observation, configuration)
    if not inarow.Solver.supports(board):
        return _search_without_solver(board, deadline)
    if _solver is None:
        _solver = inarow.Solver()
    left = max(0.0, deadline - time.monotonic())
    return int(_solver.best_move(board, time_limit=left))
