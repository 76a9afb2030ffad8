"""The command line's rules flags (``--width``, ``--height``, ``--k``, ``--players``,
``--gravity``, ``--rule``), defined once for every subcommand of ``inarow`` that takes
rules (``play``, ``solve``, ``simulate``, ``bench``, ``train``), and the one place
they become an :class:`inarow.Rules`."""

from __future__ import annotations

import argparse
from typing import Any

import inarow
from inarow.engines import _RULE_CODES

__all__ = ["RULE_FLAGS", "add_rule_flags", "given_rule_flags", "rules_from_flags"]

#: The flags' names, as ``inarow.Rules`` takes them.
RULE_FLAGS = ("width", "height", "k", "players", "gravity", "rule")

_RULES = tuple(_RULE_CODES)


def add_rule_flags(group: Any, players: bool = True) -> None:
    """Adds the rules flags to ``group`` (a parser or an argument group); without
    ``players``, no ``--players`` or ``--gravity``."""
    group.add_argument("--width", type=int, help="columns (default 7)")
    group.add_argument("--height", type=int, help="rows (default 6)")
    group.add_argument("--k", type=int, help="stones in a row to win (default 4)")
    if players:
        group.add_argument("--players", type=int, help="players (default 2)")
        group.add_argument(
            "--gravity",
            action=argparse.BooleanOptionalAction,
            default=None,
            help="stones fall to the bottom of a column (--no-gravity: free placement)",
        )
    group.add_argument(
        "--rule",
        choices=_RULES,
        default=None,
        help="what wins: freestyle (k or more in a row; the default), standard (exactly "
        "k), renju (2 players, k=5, free placement; black's overline, double four and "
        "double three are forbidden)",
    )


def given_rule_flags(args: argparse.Namespace) -> dict[str, Any]:
    """The rules flags given on the command line, by name."""
    return {key: getattr(args, key) for key in RULE_FLAGS if getattr(args, key, None) is not None}


def rules_from_flags(base: inarow.Rules, args: argparse.Namespace) -> inarow.Rules:
    """``base`` changed by the rules flags given: one :class:`inarow.Rules`
    (``InvalidRulesError`` listing every problem)."""
    return inarow.Rules(**{**base.to_dict(), **given_rule_flags(args)})
