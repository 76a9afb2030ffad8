"""Forced wins by threats for 2 players (any size, any ``k``): fours and threes on
free-placement boards, threatened columns on gravity boards.

A *four* (for any ``k``) is a move after which a window of ``k`` cells of a row,
column or diagonal holds ``k - 1`` of the mover's stones and one empty cell: the
opponent must block that cell. A *three* is a move after which the mover, if it
could move again, would win by fours.

* ``kind="vcf"``, victory by continuous fours: every attacker move is a four, so
  every reply is forced. The search is exact within ``max_depth``.
* ``kind="vct"``, victory by continuous threats: fours and threes. Against a three
  every defender move that could matter is tried (the cells of the attacker's
  winning line of fours and the cells that could give the defender a four along
  it; any other defence leaves that line winning), so a line found is a forced win.
  Threes are the moves that make a window of ``k - 2``: a win that needs another
  kind of quiet move is not searched. Free placement only.
* On gravity boards a threat is a column where the attacker's next drop would
  complete a line; ``kind="vcf"`` searches continuous threats there (see
  :func:`find_win`).
* Every win rule: under ``rule="standard"`` (both players) and ``"renju"`` (black) a
  line is exactly ``k``, so a four or five that would make an overline is no threat;
  under renju black's moves are only the cells it may play, and a white four whose
  one block is forbidden to black wins (see :func:`find_win`).

>>> import inarow
>>> from inarow.threats import find_win
>>> board = inarow.Board(rules=inarow.Rules.gomoku(15))
>>> for action in [7 * 15 + 5, 0, 7 * 15 + 6, 14, 7 * 15 + 7, 14 * 15]:
...     _ = board.move(action)
>>> line = find_win(board)            # the open three on row 7 wins by fours
>>> len(line) % 2, line[-1] // 15     # attacker, defender, ..., the completing move
(1, 7)
"""

from __future__ import annotations

from typing import Literal

from inarow._native import Board
from inarow._native import find_win as _find_win
from inarow._native import winning_moves as _winning_moves

__all__ = ["find_win", "winning_moves"]


def find_win(
    board: Board,
    kind: Literal["vcf", "vct"] = "vcf",
    max_depth: int | None = None,
    max_nodes: int | None = None,
) -> list[int] | None:
    """A forced win of ``kind`` for the player to move, or None.

    The win is a list of actions: attacker and defender alternating, starting and
    ending with the attacker, the last action completing a line of ``k``. Every
    attacker action but the last is a four (or, for ``"vct"``, a three), every
    defender action the forced block (for a VCT, at each three the reply that holds
    out longest: one line of the proof, which covers every reply). When a four
    leaves two cells to complete, the defender's action is one of them and the
    attacker completes the other.

    ``max_depth``: the most attacker actions along any line, the completing one
    included (default 30 for ``"vcf"``, 10 for ``"vct"``; at most 225).
    ``max_nodes``: the most positions searched (default 1,000,000; at most 2**40);
    None then means "none found within the budget". The board is not modified.

    Under renju, when a white four's only block is forbidden to black, the line's
    next two actions are black's first allowed cell (black cannot stop the five) and
    white's five on the forbidden cell; black's actions are always legal.

    On gravity boards (Connect Four and its relatives, any size and ``k``) a threat
    is a column: ``"vcf"`` searches continuous threats, each attacker drop leaving
    a column where it would complete a line, the defender dropping there (which
    may open the cell above to the attacker: a threat stacked on a threat), until
    two columns threaten at once or a stacked threat completes; the actions are
    columns.

    Every win rule is searched (``board.rules.rule``). Raises
    :class:`inarow.UnsupportedRulesError` for ``"vct"`` on gravity boards or other
    than 2 players, :class:`inarow.IllegalMoveError` for a finished game, ``ValueError``
    for an unknown kind or an argument out of range. Ctrl-C stops the search.
    """
    return _find_win(board, kind, max_depth, max_nodes)


def _proven_move(board: Board, max_nodes: int) -> int | None:
    """The first action of a forced win that the threat search proves for the side
    to move within ``max_nodes`` positions (VCT without gravity, VCF columns with
    it), or None. The proofs of network agents and of self-play."""
    line = _find_win(board, "vcf" if board.gravity else "vct", None, max_nodes)
    return int(line[0]) if line else None


def winning_moves(
    board: Board,
    kind: Literal["vcf", "vct"] = "vcf",
    max_depth: int | None = None,
    max_nodes: int | None = None,
) -> list[int]:
    """Every first action of a forced win of ``kind`` for the player to move
    (the actions that complete a line at once, if any, instead), ascending; each
    action's search stops after ``max_nodes``. Arguments and errors as in
    :func:`find_win`."""
    return _winning_moves(board, kind, max_depth, max_nodes)
