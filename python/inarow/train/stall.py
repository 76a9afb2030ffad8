"""Whether a run is still learning: each evaluation's headline measure (the searched
agent's good-move rate on Pons' sets or on solver-judged openings, its mistakes on a
solved board, else its score against the strongest negamax of the ladder), and a stall when several evaluations in
a row bring nothing beyond the measure's noise."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field
from typing import Any

from inarow.evaluate import wilson_interval

__all__ = ["Headline", "StallWatch", "headline"]

#: The share of self-play games drawn from which a stall is named a collapse onto draws.
COLLAPSE_DRAW_SHARE = 0.9

#: Evaluations in a row without progress that make a stall.
STALL_EVALUATIONS = 3


@dataclass(frozen=True)
class Headline:
    """One evaluation's measure: its name, value, whether higher is better, and a
    95% interval (the value itself where it is exact)."""

    name: str
    value: float
    higher_is_better: bool
    low: float
    high: float

    def beats(self, other: Headline) -> bool:
        """Better than `other` beyond both measures' noise (their intervals part)."""
        if self.higher_is_better:
            return self.low > other.high
        return self.high < other.low


def headline(row: dict[str, Any], config: Any) -> Headline | None:
    """The measure of `row` that says most about strength (see the module docs)."""

    def present(key: str) -> bool:
        v = row.get(key)
        return v is not None and not (isinstance(v, float) and math.isnan(v))

    if present("pons_good_search"):
        n = 6 * config.eval_per_set
        good = round(row["pons_good_search"] * n)
        lo, hi = wilson_interval(good, n)
        return Headline("Pons good moves (searched)", row["pons_good_search"], True, lo, hi)
    if present("judged_good_search"):
        n = int(row["judged_positions"])
        good = round(row["judged_good_search"] * n)
        lo, hi = wilson_interval(good, n)
        return Headline(
            "solver-judged good moves (searched)", row["judged_good_search"], True, lo, hi
        )
    if present("mistakes_search"):
        m = float(row["mistakes_search"])
        return Headline("mistakes on the solved board (searched)", m, False, m, m)
    depths = [d for d in config.eval_negamax_depths if present(f"negamax{d}_win")]
    if depths and config.eval_games:
        d = max(depths)
        n = config.eval_games
        score = row[f"negamax{d}_win"] + 0.5 * row[f"negamax{d}_draw"]
        lo, hi = wilson_interval(round(score * n), n)
        return Headline(f"score against negamax:{d}", score, True, lo, hi)
    if present("threats_win") and config.eval_games:
        n = config.eval_games
        score = row["threats_win"] + 0.5 * row["threats_draw"]
        lo, hi = wilson_interval(round(score * n), n)
        return Headline("score against the threat engine", score, True, lo, hi)
    return None


@dataclass
class StallWatch:
    """Follows the headline measure across evaluations (the untrained network's
    first one included) and says when the run has stalled."""

    best: Headline | None = None
    since_best: int = 0
    history: list[Headline] = field(default_factory=list)

    def add(self, measure: Headline | None, draw_share: float | None = None) -> str | None:
        """Takes an evaluation's measure and the share of self-play games drawn since
        the last one; returns a line saying the run stalled (once per stall, when it
        sets in; naming a collapse onto draws when self-play draws nearly every game)
        or None."""
        if measure is None:
            return None
        self.history.append(measure)
        if self.best is None or measure.beats(self.best) or self._perfect(measure):
            self.best, self.since_best = measure, 0
            return None
        self.since_best += 1
        if self.since_best == STALL_EVALUATIONS:
            line = (
                f"stalled: {STALL_EVALUATIONS} evaluations without progress on the "
                f"{self.best.name} beyond its noise (best {self._shown(self.best)}, now "
                f"{self._shown(measure)}); "
            )
            recent = statistics.fmean(m.value for m in self.history[-STALL_EVALUATIONS:])
            best = self.best.value
            if recent > best if self.best.higher_is_better else recent < best:
                return line + (
                    f"the last {STALL_EVALUATIONS} average {recent:.3f}, better than the best: "
                    "a rise smaller than one evaluation's noise may be under way, which only "
                    "later evaluations (or more evaluation positions) can tell"
                )
            if draw_share is not None and draw_share >= COLLAPSE_DRAW_SHARE:
                return line + (
                    f"self-play has collapsed onto draws ({draw_share:.0%} of its games since "
                    "the last evaluation), so its value targets say little: longer random "
                    "openings or more sampled plies (--random-opening-plies, "
                    "--temperature-plies) may help"
                )
            return line + (
                "more time, more simulations, a larger net or a lower learning rate may help"
            )
        return None

    @property
    def stalled(self) -> bool:
        """Whether the run is stalled now: no progress beyond the noise for the last
        few evaluations (a later one that beats the best ends the stall)."""
        return self.since_best >= STALL_EVALUATIONS

    @staticmethod
    def _perfect(m: Headline) -> bool:
        return (not m.higher_is_better and m.value == 0) or (m.higher_is_better and m.low >= 1)

    @staticmethod
    def _shown(m: Headline) -> str:
        if m.low == m.high:
            return f"{m.value:g}"
        return f"{m.value:.3f} [{m.low:.3f}, {m.high:.3f}]"
