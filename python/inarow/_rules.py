"""The named games and the one reader of a ``rules=`` argument in the Python layer
(the native layer reads its own, with the same forms)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Union

import inarow
from inarow._native import Board

#: The named games, defined once: ``rules="gomoku"`` and the like everywhere.
PRESETS: dict[str, inarow.Rules] = {
    "connect_four": inarow.Rules.connect_four(),
    "tic_tac_toe": inarow.Rules.tic_tac_toe(),
    "gomoku": inarow.Rules.gomoku(),
}

#: What a ``rules=`` argument may be.
RulesLike = Union[None, str, Mapping[str, Any], Board, inarow.Rules]


def read_rules(rules: RulesLike) -> inarow.Rules:
    """`rules` as an `inarow.Rules`: None (Connect Four), a game name of `PRESETS`, an
    `inarow.Rules`, a dict of `inarow.Rules` arguments, or an empty `inarow.Board`.
    ``ValueError`` for an unknown name or key, a board with stones or impossible
    rules; ``TypeError`` for anything else."""
    if rules is None:
        return PRESETS["connect_four"]
    if isinstance(rules, str):
        try:
            return PRESETS[rules]
        except KeyError:
            raise ValueError(
                f"rules={rules!r} is not a known game: allowed {sorted(PRESETS)}, "
                "a dict of Rules arguments, or an empty Board"
            ) from None
    if isinstance(rules, inarow.Rules):
        return rules
    if isinstance(rules, Board):
        if rules.num_stones:
            raise ValueError(
                "rules=Board(...) must be an empty board: matches start from the empty board"
            )
        return rules.rules
    if isinstance(rules, Mapping):
        unknown = set(rules) - {"width", "height", "k", "players", "gravity", "rule"}
        if unknown:
            raise ValueError(
                f"rules has unknown keys {sorted(unknown)}: allowed width, height, k, players, "
                "gravity, rule"
            )
        return inarow.Rules(**rules)
    raise TypeError(
        "rules must be None (Connect Four), a game name, a dict of Rules arguments or an "
        f"empty Board, got {type(rules).__name__}"
    )
