"""Opening books: fixed sets of opening positions, each played from both seats.

A book is a text file, one opening a line: a name, then its stones in the order played
(black first, the players alternating), in gomoku notation: a column letter from ``a``
(the left edge) and a row number from 1 (the bottom edge), so ``h8`` is the centre of
15x15. ``#`` starts a comment. inarow's action of ``h8`` on 15x15 is row ``15 - 8 = 7``
(row 0 is the top row), column 7: ``7 * 15 + 7 = 112``.

Books shipped (``load_book(name)``):

* ``"freestyle-15"``: 15x15 centre openings of 3 stones (black, white, black) within
  the centre 5x5, chosen for balance by ``scripts/generate_openings.py`` (see its
  docstring and ``docs/threats.md``);
* ``"renju-26"``: the 26 canonical renju openings, black ``h8``, white ``h9`` (the 13
  direct openings, ``1D`` to ``13D``) or ``i9`` (the 13 indirect ones, ``1I`` to
  ``13I``), and black's third stone within the centre 5x5; numbered row by row from the
  top of the usual diagram, left to right.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from importlib import resources

__all__ = ["BOOKS", "Opening", "cell_name", "load_book", "parse_book", "parse_cell"]

#: The books shipped in ``inarow/data/openings/``, by name.
BOOKS = ("freestyle-15", "renju-26")

_CELL = re.compile(r"([a-z])(\d{1,2})")
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def parse_cell(text: str, size: int) -> int:
    """The action of a cell in gomoku notation (``h8``) on a ``size`` x ``size`` board.
    Raises ``ValueError`` for text that is no cell of the board."""
    m = _CELL.fullmatch(text.strip().lower())
    if m is None:
        raise ValueError(f"{text!r} is not a cell: a column letter and a row number, as h8")
    col = _LETTERS.index(m.group(1))
    row_from_bottom = int(m.group(2))
    if not (col < size and 1 <= row_from_bottom <= size):
        raise ValueError(f"{text!r} is off a {size}x{size} board")
    return (size - row_from_bottom) * size + col


def cell_name(action: int, size: int) -> str:
    """The gomoku notation of an action on a ``size`` x ``size`` board (``112`` -> ``h8``
    on 15x15)."""
    if not 0 <= action < size * size or size > len(_LETTERS):
        raise ValueError(f"action {action} is not a cell of a {size}x{size} board")
    row, col = divmod(action, size)
    return f"{_LETTERS[col]}{size - row}"


@dataclass(frozen=True)
class Opening:
    """One opening: its name and its stones in gomoku notation, black first."""

    name: str
    cells: tuple[str, ...]

    def actions(self, size: int) -> list[int]:
        """The opening's stones as inarow actions on a ``size`` x ``size`` board."""
        return [parse_cell(c, size) for c in self.cells]

    def __str__(self) -> str:
        return f"{self.name} {' '.join(self.cells)}"


def parse_book(text: str, size: int = 15) -> list[Opening]:
    """The openings of a book's text; every cell is checked on a ``size`` board, and so
    is that no two stones share a cell. Raises ``ValueError`` naming the line."""
    openings = []
    names = set()
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, *cells = line.split()
        try:
            actions = [parse_cell(c, size) for c in cells]
        except ValueError as e:
            raise ValueError(f"line {number}: {e}") from None
        if not cells:
            raise ValueError(f"line {number}: opening {name!r} has no stones")
        if len(set(actions)) != len(actions):
            raise ValueError(f"line {number}: opening {name!r} plays a cell twice")
        if name in names:
            raise ValueError(f"line {number}: a second opening named {name!r}")
        names.add(name)
        openings.append(Opening(name, tuple(c.lower() for c in cells)))
    return openings


def load_book(book: str, size: int = 15) -> list[Opening]:
    """A shipped book by name (:data:`BOOKS`) or a book file by path."""
    if book in BOOKS:
        text = resources.files("inarow").joinpath(f"data/openings/{book}.txt").read_text()
    elif os.path.exists(book):
        with open(book, encoding="utf-8") as f:
            text = f.read()
    else:
        raise ValueError(f"no book {book!r}: a path, or one of {', '.join(BOOKS)}")
    return parse_book(text, size)
