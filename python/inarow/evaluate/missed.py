"""Missed forced wins (``inarow.evaluate.missed_wins``): where an agent let a threat
sequence go."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from inarow._native import Board

from ._agent_calls import agent_actions
from .intervals import rate, wilson_interval

__all__ = ["MissedWin", "MissedWinsResult", "missed_wins"]


@dataclass(frozen=True)
class MissedWin:
    """A position where the agent missed a forced win: ``action`` is not the first
    move of any win of the kind, and ``win`` is one (see :func:`inarow.threats.find_win`)."""

    index: int
    board: Board
    action: int
    win: list[int]


@dataclass(frozen=True)
class MissedWinsResult:
    """How often an agent missed the forced wins of ``positions``."""

    positions: int
    #: Positions holding a forced win of the kind for the side to move.
    wins: int
    missed: list[MissedWin]
    kind: str

    @property
    def miss_rate(self) -> float:
        """Missed wins per position holding one (0.0 when none does)."""
        return rate(len(self.missed), self.wins)

    @property
    def miss_interval(self) -> tuple[float, float]:
        return wilson_interval(len(self.missed), self.wins)

    def __str__(self) -> str:
        lo, hi = self.miss_interval
        return (
            f"{self.kind} wins in {self.wins} of {self.positions} positions; missed "
            f"{len(self.missed)}: {self.miss_rate:.1%} [{lo:.1%}, {hi:.1%}]"
        )


def missed_wins(
    agent: Callable[[Board], int],
    positions: Iterable[Board],
    kind: str = "vcf",
    max_depth: int | None = None,
    max_nodes: int | None = None,
    threads: int | None = None,
) -> MissedWinsResult:
    """Where ``agent`` missed a forced win: on each board (free placement, 2
    players) that holds a win of ``kind`` (``"vcf"`` or ``"vct"``, see
    :mod:`inarow.threats`) for the side to move, whether the agent's move is the
    first move of such a win (or completes a line at once). A move that wins in
    some other way than the kind's threats counts as missed.

    ``max_depth`` and ``max_nodes`` bound the searches as in
    :func:`inarow.threats.find_win`. Built-in agents choose for all boards across
    ``threads``. Raises ``TypeError`` for a position that is not a Board, and what
    ``find_win`` raises (finished games, ``"vct"`` on gravity boards, other than 2 players).

    >>> import inarow
    >>> board = inarow.Board(rules=inarow.Rules(width=15, height=15, k=5, gravity=False))
    >>> for action in [7 * 15 + 5, 0, 7 * 15 + 6, 14, 7 * 15 + 7, 14 * 15]:
    ...     _ = board.move(action)
    >>> r = inarow.evaluate.missed_wins(inarow.agents.random(seed=0), [board])
    >>> r.wins, len(r.missed)
    (1, 1)
    """
    from inarow.threats import find_win, winning_moves

    boards = list(positions)
    for i, board in enumerate(boards):
        if not isinstance(board, Board):
            raise TypeError(f"positions[{i}] must be an inarow.Board, got {type(board).__name__}")
    lines = [find_win(b, kind, max_depth, max_nodes) for b in boards]
    holding = [i for i, line in enumerate(lines) if line is not None]
    actions = agent_actions(agent, [boards[i] for i in holding], threads)
    missed = []
    for i, action in zip(holding, actions):
        if action not in winning_moves(boards[i], kind, max_depth, max_nodes):
            missed.append(MissedWin(i, boards[i].copy(), action, lines[i]))
    return MissedWinsResult(len(boards), len(holding), missed, kind)
