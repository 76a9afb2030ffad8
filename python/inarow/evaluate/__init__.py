"""Scoring agents: matches between agents, and move accuracy against the truth.

>>> import inarow
>>> r = inarow.evaluate.match(inarow.agents.greedy(), inarow.agents.random(), games=200)
>>> r.games == r.wins + r.draws + r.losses == 200
True

``match`` plays two agents against each other (natively across threads when both
are built-in agents); ``move_accuracy`` measures how often an agent's move keeps
the best outcome on Pascal Pons' Connect-Four test positions (or any boards),
as AlphaZero.jl and c4a0 report it. Rates come with 95% Wilson intervals.
Both run across a Ray cluster with ``ray=`` (chunks of games or positions as
tasks), with the result of the local run.

One module per subject: ``matches``, ``accuracy`` (over ``pons`` or ``judged``
positions), ``compare`` (two agents' accuracy paired position by position),
``missed`` (forced wins), ``intervals``.
"""

from __future__ import annotations

from .accuracy import AccuracyResult, SetAccuracy, move_accuracy
from .compare import AccuracyComparison, PairedAccuracy, compare_accuracy
from .intervals import wilson_interval
from .judged import JUDGED_PER_SET, JUDGED_SEED, judged_lengths, judged_positions
from .matches import (
    KeptGame,
    MatchResult,
    OpeningValues,
    RepeatedGameWarning,
    SeatResult,
    match,
)
from .missed import MissedWin, MissedWinsResult, missed_wins
from .pons import PONS_SETS, PonsPosition, pons_positions

__all__ = [
    "JUDGED_PER_SET",
    "JUDGED_SEED",
    "PONS_SETS",
    "AccuracyComparison",
    "AccuracyResult",
    "KeptGame",
    "MatchResult",
    "MissedWin",
    "MissedWinsResult",
    "OpeningValues",
    "PairedAccuracy",
    "PonsPosition",
    "RepeatedGameWarning",
    "SeatResult",
    "SetAccuracy",
    "compare_accuracy",
    "judged_lengths",
    "judged_positions",
    "match",
    "missed_wins",
    "move_accuracy",
    "pons_positions",
    "wilson_interval",
]
