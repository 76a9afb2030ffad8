"""The ``openings=`` of :func:`inarow.evaluate.match`: a fixed set of openings, read from
a book's name, a book's openings, or move sequences, and checked under the match's
rules before any game starts."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Union

import inarow
from inarow.tournament.book import BOOKS, Opening, cell_name, load_book

__all__ = ["BOOK_SIZE", "OpeningSet", "OpeningsLike", "opening_set"]

#: The board the shipped books are written for (their openings sit at its centre).
BOOK_SIZE = 15

#: What ``openings=`` takes: a book's name (``"freestyle-15"``, ``"renju-26"``) or
#: file, a book's openings (``inarow.tournament.load_book``), or move sequences.
OpeningsLike = Union[str, Sequence[Opening], Sequence[Sequence[int]]]


@dataclass(frozen=True)
class OpeningSet:
    """A set of openings checked under some rules: each opening's moves (actions)
    and its label, and the set's name."""

    #: The book's name, or ``"N openings given"``.
    name: str
    moves: tuple[tuple[int, ...], ...]
    #: Each opening's name in its book (``"1D-kansei"``), else ``"openings[i]"``.
    labels: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.moves)

    def __str__(self) -> str:
        return f"{self.name} ({len(self)} openings)"


def opening_set(openings: Any, rules: inarow.Rules) -> OpeningSet:
    """``openings`` as an :class:`OpeningSet` under ``rules``. Raises ``ValueError``
    for an unknown book, a book on a board it is not written for, an empty set, or an
    opening with an illegal move (naming the opening and the move), ``TypeError`` for
    anything but a set of openings."""
    if isinstance(openings, OpeningSet):
        return openings
    if isinstance(openings, str):
        name = openings
        book = _book(openings, rules)
        moves = [o.actions(rules.width) for o in book]
        labels = [o.name for o in book]
    else:
        name = None
        moves, labels = _sequences(openings, rules)
    if not moves:
        raise ValueError("openings= is an empty set: give at least one opening")
    if name is None:
        name = f"{len(moves)} openings given"
    checked = OpeningSet(name, tuple(tuple(m) for m in moves), tuple(labels))
    for label, opening in zip(checked.labels, checked.moves):
        _check(label, opening, rules)
    return checked


def _notation_fits(rules: inarow.Rules) -> bool:
    """Whether the books' cell names (``h8``) fit ``rules``: square, free placement."""
    return not rules.gravity and rules.width == rules.height


def _book(name: str, rules: inarow.Rules) -> list[Opening]:
    """A book's openings, on the square free-placement board of ``rules``."""
    if not _notation_fits(rules):
        raise ValueError(
            f"openings={name!r}: a book is written in gomoku notation for a square board "
            f"with free placement, got {rules!r}"
        )
    if name in BOOKS and rules.width != BOOK_SIZE:
        raise ValueError(
            f"openings={name!r} is written for {BOOK_SIZE}x{BOOK_SIZE} (its openings sit at "
            f"that board's centre), got {rules.width}x{rules.height}"
        )
    try:
        return load_book(name, rules.width)
    except ValueError as e:
        raise ValueError(f"openings={name!r}: {e}") from None


def _sequences(openings: Any, rules: inarow.Rules) -> tuple[list[list[int]], list[str]]:
    """Move sequences (or a book's :class:`Opening` records) and their labels."""
    if isinstance(openings, (bytes, dict)) or not hasattr(openings, "__iter__"):
        raise TypeError(
            "openings must be a book's name (" + ", ".join(repr(b) for b in BOOKS) + "), "
            f"a book's openings or a sequence of move sequences, got {type(openings).__name__}"
        )
    moves: list[list[int]] = []
    labels: list[str] = []
    for i, opening in enumerate(openings):
        if isinstance(opening, Opening):
            labels.append(opening.name)
            if not _notation_fits(rules):
                raise ValueError(
                    f"openings[{i}] ({opening.name}) is in gomoku notation, for a square "
                    f"board with free placement, got {rules!r}"
                )
            try:
                moves.append(opening.actions(rules.width))
            except ValueError as e:
                raise ValueError(f"openings[{i}] ({opening.name}): {e}") from None
            continue
        labels.append(f"openings[{i}]")
        if isinstance(opening, (str, bytes)) or not hasattr(opening, "__iter__"):
            raise TypeError(
                f"openings[{i}] must be a sequence of actions, got {type(opening).__name__}: "
                f"{opening!r}"
            )
        actions = []
        for j, action in enumerate(opening):
            if isinstance(action, bool):
                raise TypeError(f"openings[{i}][{j}] must be an integer action, got {action!r}")
            try:
                actions.append(operator.index(action))
            except TypeError:
                raise TypeError(
                    f"openings[{i}][{j}] must be an integer action, got "
                    f"{type(action).__name__}: {action!r}"
                ) from None
        moves.append(actions)
    return moves, labels


def _check(label: str, moves: Sequence[int], rules: inarow.Rules) -> None:
    """Plays ``moves`` under ``rules``; ``ValueError`` naming the opening and the
    first illegal move, and why."""
    board = inarow.Board(rules=rules)
    where = label if label.startswith("openings[") else f"openings: {label}"
    for j, action in enumerate(moves):
        if board.is_over:
            raise ValueError(
                f"{where}: move {j + 1} ({_shown(action, rules)}) comes after the "
                f"game is over (won by player {board.winner} at move {j})"
                if board.winner
                else f"{where}: move {j + 1} ({_shown(action, rules)}) comes "
                "after the game is over (a draw)"
            )
        try:
            board.move(action)
        except (ValueError, OverflowError) as e:
            raise ValueError(
                f"{where}: move {j + 1} ({_shown(action, rules)}) is illegal under {rules!r}: {e}"
            ) from None


def _shown(action: int, rules: inarow.Rules) -> str:
    """An action, with its gomoku name on a square free-placement board."""
    square = _notation_fits(rules)
    if square and 0 <= action < rules.width * rules.height and rules.width <= 26:
        return f"action {action}, {cell_name(action, rules.width)}"
    return f"action {action}"
