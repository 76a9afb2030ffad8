"""The piskvork ("Gomocup brain") protocol's vocabulary, shared by both ends:
``inarow.engines.Gomocup`` (inarow drives a brain) and ``inarow pbrain`` (inarow is
the brain).

Coordinates: piskvork's ``x,y`` is column ``x``, row ``y``, both from 0, row 0 the
top row, so the cell ``x,y`` is inarow's free-placement action ``y * width + x``
and ``to_numpy()[y, x]``.
"""

from __future__ import annotations

import re

#: A move line: two integers separated by a comma (``"7,7"``; spaces tolerated).
_CELL = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s*$")
#: One ``key="value"`` pair of an ``ABOUT`` reply.
_ABOUT_PAIR = re.compile(r'(\w+)\s*=\s*"([^"]*)"')

#: ``INFO rule`` bits beyond freestyle (0: five or more in a row wins).
RULE_EXACTLY_FIVE = 1
RULE_CONTINUOUS = 2
RULE_RENJU = 4
RULE_CARO = 8


def cell_text(action: int, width: int) -> str:
    """The ``x,y`` text of a free-placement action (x the column, y the row)."""
    row, col = divmod(action, width)
    return f"{col},{row}"


def parse_cell(text: str) -> tuple[int, int] | None:
    """``(x, y)`` of an ``x,y`` text, or None when it is not two integers."""
    found = _CELL.match(text)
    if found is None:
        return None
    return int(found.group(1)), int(found.group(2))


def parse_about(line: str) -> dict[str, str]:
    """The ``key="value"`` pairs of an ``ABOUT`` reply (keys lower-cased)."""
    return {key.lower(): value for key, value in _ABOUT_PAIR.findall(line)}


def about_line(fields: dict[str, str]) -> str:
    """An ``ABOUT`` reply: ``name="inarow", version="0.1.0", ...`` (quotes dropped
    from the values, which the format cannot escape)."""
    return ", ".join(f'{key}="{value.replace(chr(34), chr(39))}"' for key, value in fields.items())


def split_command(line: str) -> tuple[str, str]:
    """``(COMMAND, rest)`` of a line: the first word upper-cased, the rest stripped."""
    head, _, rest = line.strip().partition(" ")
    return head.upper(), rest.strip()
