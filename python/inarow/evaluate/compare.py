"""Two agents' move accuracy on the same positions, compared position by position
(``inarow.evaluate.compare_accuracy``).

Judged on the same boards, two agents' good-move rates are paired: most positions
are good (or bad) for both, and only the positions where they differ say which is
better. The paired difference is far tighter than two separate intervals: on Pons'
6,000 positions two networks 0.2 points apart have Wilson intervals that overlap
almost wholly, while the pairs may still separate them.

>>> from inarow import agents, evaluate
>>> a = evaluate.move_accuracy(agents.perfect(), rules="tic_tac_toe", progress=False)
>>> b = evaluate.move_accuracy(agents.negamax(1, seed=3), rules="tic_tac_toe", progress=False)
>>> c = evaluate.compare_accuracy(a, b)
>>> c.overall.only_b, c.overall.difference > 0
(0, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from .accuracy import AccuracyResult, SetAccuracy
from .intervals import wilson_interval

__all__ = ["AccuracyComparison", "PairedAccuracy", "compare_accuracy"]


@dataclass(frozen=True)
class PairedAccuracy:
    """Agents ``a`` and ``b`` on the same positions of one set: how many positions
    each got right (``both``, ``only_a``, ``only_b``, ``neither``)."""

    name: str
    positions: int
    both: int
    only_a: int
    only_b: int
    neither: int

    @property
    def a_rate(self) -> float:
        return (self.both + self.only_a) / self.positions if self.positions else math.nan

    @property
    def b_rate(self) -> float:
        return (self.both + self.only_b) / self.positions if self.positions else math.nan

    @property
    def difference(self) -> float:
        """``a``'s good-move rate minus ``b``'s."""
        return (self.only_a - self.only_b) / self.positions if self.positions else math.nan

    @property
    def difference_interval(self) -> tuple[float, float]:
        """95% interval of :attr:`difference` for paired rates (Newcombe 1998, method
        10: the two Wilson intervals combined with the pairs' correlation)."""
        return paired_difference_interval(self.both, self.only_a, self.only_b, self.neither)

    @property
    def p_value(self) -> float:
        """Two-sided exact McNemar test of equal rates: the chance of a split of the
        differing positions at least this uneven if each were a fair coin."""
        return mcnemar_p_value(self.only_a, self.only_b)

    def _line(self) -> str:
        lo, hi = self.difference_interval
        interval = f"[{100 * lo:+.2f}, {100 * hi:+.2f}]"
        return (
            f"{self.name:<20} {self.positions:>9} {self.a_rate:8.2%} {self.b_rate:8.2%} "
            f"{self.only_a:>7} {self.only_b:>7} {100 * self.difference:+10.2f} "
            f"{interval:<20} {self.p_value:6.3f}"
        )


@dataclass(frozen=True)
class AccuracyComparison:
    """The result of :func:`compare_accuracy`: per set and overall."""

    sets: dict[str, PairedAccuracy]
    overall: PairedAccuracy

    def __str__(self) -> str:
        head = (
            f"{'set':<20} {'positions':>9} {'a good':>8} {'b good':>8} {'only a':>7} "
            f"{'only b':>7} {'a - b, pts':>10} {'95% interval':<20} {'p':>6}"
        )
        lines = [s._line() for s in self.sets.values()] + [self.overall._line()]
        return head + "\n" + "\n".join(lines)


def _check_counts(**counts: int) -> None:
    for name, count in counts.items():
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ValueError(f"{name}={count!r}: allowed an integer >= 0")


def paired_difference_interval(
    both: int, only_a: int, only_b: int, neither: int
) -> tuple[float, float]:
    """The 95% interval of ``rate_a - rate_b`` for paired binary outcomes (Newcombe's
    method 10); (-1, 1) for no pairs."""
    _check_counts(both=both, only_a=only_a, only_b=only_b, neither=neither)
    n = both + only_a + only_b + neither
    if n == 0:
        return (-1.0, 1.0)
    a_good, b_good = both + only_a, both + only_b
    p_a, p_b = a_good / n, b_good / n
    lo_a, hi_a = wilson_interval(a_good, n)
    lo_b, hi_b = wilson_interval(b_good, n)
    # The correlation of the pairs (phi), 0 where a margin is empty.
    margins = (both + only_a) * (only_b + neither) * (both + only_b) * (only_a + neither)
    phi = (both * neither - only_a * only_b) / math.sqrt(margins) if margins else 0.0
    d = p_a - p_b
    below = (p_a - lo_a) ** 2 - 2 * phi * (p_a - lo_a) * (hi_b - p_b) + (hi_b - p_b) ** 2
    above = (hi_a - p_a) ** 2 - 2 * phi * (hi_a - p_a) * (p_b - lo_b) + (p_b - lo_b) ** 2
    return (max(-1.0, d - math.sqrt(max(below, 0.0))), min(1.0, d + math.sqrt(max(above, 0.0))))


def mcnemar_p_value(only_a: int, only_b: int) -> float:
    """Two-sided exact McNemar p-value: ``2 P(X <= min)`` for ``X ~ Binomial(only_a +
    only_b, 1/2)``, at most 1; 1 when no position differs."""
    _check_counts(only_a=only_a, only_b=only_b)
    n, k = only_a + only_b, min(only_a, only_b)
    if n == 0:
        return 1.0
    tail = Fraction(sum(math.comb(n, i) for i in range(k + 1)), 2**n)
    return float(min(Fraction(1), 2 * tail))


def _paired(name: str, a: SetAccuracy, b: SetAccuracy) -> PairedAccuracy:
    for label, s in (("a", a), ("b", b)):
        if len(s.good_by_position) != s.positions or not s.positions_digest:
            raise ValueError(
                f"{label}: set {s.name!r} has no per-position record (a result of "
                "evaluate.move_accuracy has one; one built by hand does not)"
            )
    if a.positions_digest != b.positions_digest:
        raise ValueError(
            f"set {name!r}: a and b judged different positions ({a.positions} and "
            f"{b.positions}, digests {a.positions_digest[:8]} and {b.positions_digest[:8]}); "
            "judge both agents on the same boards"
        )
    pairs = list(zip(a.good_by_position, b.good_by_position))
    return PairedAccuracy(
        name,
        len(pairs),
        sum(x and y for x, y in pairs),
        sum(x and not y for x, y in pairs),
        sum(y and not x for x, y in pairs),
        sum(not x and not y for x, y in pairs),
    )


def compare_accuracy(a: AccuracyResult, b: AccuracyResult) -> AccuracyComparison:
    """Pair two :func:`~inarow.evaluate.move_accuracy` results on the same positions:
    per set and overall, the positions each agent alone got right, the difference of
    the good-move rates (``a - b``) with its 95% paired interval, and the exact
    McNemar p-value. ``ValueError`` if the sets or their positions differ."""
    for label, r in (("a", a), ("b", b)):
        if not isinstance(r, AccuracyResult):
            raise TypeError(
                f"{label} must be an evaluate.AccuracyResult (from move_accuracy), "
                f"got {type(r).__name__}"
            )
    if list(a.sets) != list(b.sets):
        raise ValueError(
            f"a and b judged different sets: {list(a.sets)} and {list(b.sets)}; "
            "judge both agents on the same positions"
        )
    sets = {name: _paired(name, a.sets[name], b.sets[name]) for name in a.sets}
    return AccuracyComparison(sets, _paired("overall", a.overall, b.overall))
