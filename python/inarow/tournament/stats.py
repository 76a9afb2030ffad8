"""What a match's results say: score, Elo difference with an interval, and the
sequential probability ratio test (SPRT) that accepts or rejects a change.

Every figure is for player A (the engine under test) against player B.

* **Trinomial** statistics treat each game as a sample (win 1, draw 1/2, loss 0); the
  interval of their score is Wilson's (:func:`wilson_estimate`).
* **Pentanomial** statistics treat each *pair* (one opening played from both seats)
  as a sample: the pair's score 0, 1/4, 1/2, 3/4 or 1. The two games of a pair share
  an opening, so they are not independent; in gomoku the opening decides much, and
  the pair is the honest unit (the trinomial interval is then too narrow or too wide).

The Elo difference of a score ``s`` is ``-400 log10(1/s - 1)`` (logistic Elo); its
interval is the score's normal interval (the sample mean plus or minus ``z`` standard
errors, the variance measured from the samples) mapped the same way; where every
sample is the same (all wins, say) the Wilson interval of the games' score is used.

The SPRT is the generalized SPRT (GSPRT) of logistic Elo, as engine testers run it:
H0 "the difference is ``elo0``" against H1 "it is ``elo1``". The log-likelihood ratio
(LLR) compares the multinomial of the samples' outcomes, fitted under the constraint
that its mean score is the score of ``elo1``, with the one fitted for ``elo0`` (the
maximum-likelihood distribution with a given mean, :func:`_constrained_mle`; every
possible outcome takes part, an unseen one with the small count :data:`UNSEEN`). The test
stops when the LLR leaves ``[log(beta / (1 - alpha)), log((1 - beta) / alpha)]``:
above, H1 is accepted (the change is kept); below, H0 (it is dropped). ``alpha`` is the
chance of accepting a change worth ``elo0``, ``beta`` of rejecting one worth ``elo1``.
:func:`llr_normal` is the common normal approximation of the same ratio.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

__all__ = [
    "Estimate",
    "Sprt",
    "elo",
    "elo_estimate",
    "llr",
    "llr_normal",
    "llr_of_mean",
    "score_of",
    "sprt",
    "sprt_bounds",
    "wilson_estimate",
]

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054


def elo(score: float) -> float:
    """The logistic Elo difference a score (0..1) means; infinite at 0 and 1."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def score_of(elo_difference: float) -> float:
    """The expected score of a logistic Elo difference (the inverse of :func:`elo`)."""
    return 1 / (1 + 10 ** (-elo_difference / 400))


def _samples(counts: Mapping[float, int]) -> tuple[int, float, float]:
    """(n, mean, variance) of samples given as {value: count}."""
    n = sum(counts.values())
    if n == 0:
        return 0, math.nan, math.nan
    mean = sum(v * c for v, c in counts.items()) / n
    var = sum(c * (v - mean) ** 2 for v, c in counts.items()) / n
    return n, mean, var


def _wilson(successes: float, n: int, z: float) -> tuple[float, float]:
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if p <= 0 else max(0.0, centre - half)
    high = 1.0 if p >= 1 else min(1.0, centre + half)
    return low, high


@dataclass(frozen=True)
class Estimate:
    """A score with its interval, and the Elo differences they mean."""

    samples: int  #: games (trinomial) or pairs (pentanomial)
    score: float
    low: float
    high: float

    @property
    def elo(self) -> float:
        return elo(self.score)

    @property
    def elo_low(self) -> float:
        return elo(self.low)

    @property
    def elo_high(self) -> float:
        return elo(self.high)

    def __str__(self) -> str:
        return (
            f"score {self.score:.3f} [{self.low:.3f}, {self.high:.3f}], Elo {self.elo:+.0f} "
            f"[{self.elo_low:+.0f}, {self.elo_high:+.0f}]"
        )


def elo_estimate(counts: Mapping[float, int], z: float = Z95) -> Estimate:
    """The score of samples given as ``{score: count}`` (``{1: wins, 0.5: draws, 0:
    losses}`` for games, ``{0: .., 0.25: .., ...}`` for pairs), with its normal interval
    (``z`` standard errors; the Wilson interval when every sample is the same)."""
    n, mean, var = _samples(counts)
    if n == 0:
        return Estimate(0, math.nan, 0.0, 1.0)
    if var <= 0:
        low, high = _wilson(mean * n, n, z)
    else:
        half = z * math.sqrt(var / n)
        low, high = max(0.0, mean - half), min(1.0, mean + half)
    return Estimate(n, mean, low, high)


def wilson_estimate(points: float, games: int, z: float = Z95) -> Estimate:
    """The score of ``points`` in ``games`` games (draws count half) with its Wilson
    interval, which stays inside (0, 1) where the normal one reaches 0 or 1."""
    if games <= 0:
        return Estimate(0, math.nan, 0.0, 1.0)
    low, high = _wilson(points, games, z)
    return Estimate(games, points / games, low, high)


#: The count given to an outcome never observed, in the SPRT's fits: without it a fit
#: puts no weight on the outcomes not seen yet, and two drawn pairs and one won pair
#: would read as overwhelming evidence (an LLR of +17 against bounds of +-2.9).
UNSEEN = 1e-3


def _constrained_mle(counts: Mapping[float, float], s: float) -> dict[float, float]:
    """The distribution over the values of ``counts`` that maximizes the likelihood of
    ``counts`` under the constraint that its mean is ``s``: ``p_i = p̂_i / (1 + λ (x_i -
    s))``, with ``λ`` found by bisection so that the mean is ``s``. Every count must be
    positive and ``s`` lie strictly between the smallest and the largest value."""
    n = sum(counts.values())
    phat = {v: c / n for v, c in counts.items()}
    devs = [v - s for v in phat]
    # 1 + λ d > 0 for every d: λ in (-1/max d, -1/min d).
    lo = -1 / max(devs) if max(devs) > 0 else -math.inf
    hi = -1 / min(devs) if min(devs) < 0 else math.inf
    lo, hi = lo * (1 - 1e-12), hi * (1 - 1e-12)

    def mean_dev(lam: float) -> float:  # decreasing in λ
        return sum(p * d / (1 + lam * d) for p, d in zip(phat.values(), devs))

    for _ in range(200):
        mid = (lo + hi) / 2
        if mean_dev(mid) > 0:
            lo = mid
        else:
            hi = mid
    lam = (lo + hi) / 2
    return {v: p / (1 + lam * (v - s)) for v, p in phat.items()}


def llr_of_mean(
    counts: Mapping[float, int], outcomes: Iterable[float], mean0: float, mean1: float
) -> float:
    """The GSPRT log-likelihood ratio of H1 "the samples' mean is ``mean1``" against H0
    "it is ``mean0``", for samples ``{value: count}`` drawn from a distribution over
    ``outcomes`` and the values seen. Each outcome not seen counts :data:`UNSEEN` in
    the fits. Both means must lie strictly between the smallest and the largest
    outcome. 0 without samples."""
    if sum(counts.values()) == 0:
        return 0.0
    values = set(counts) | set(outcomes)
    if not min(values) < min(mean0, mean1) <= max(mean0, mean1) < max(values):
        raise ValueError(
            f"the hypotheses' means {mean0!r}, {mean1!r} must lie strictly between the "
            f"outcomes {min(values)!r} and {max(values)!r}"
        )
    fitted = {v: float(counts.get(v, 0)) or UNSEEN for v in values}
    p0 = _constrained_mle(fitted, mean0)
    p1 = _constrained_mle(fitted, mean1)
    return sum(c * math.log(p1[v] / p0[v]) for v, c in fitted.items())


def llr(counts: Mapping[float, int], elo0: float, elo1: float) -> float:
    """The GSPRT log-likelihood ratio of H1 (``elo1``) against H0 (``elo0``), logistic
    Elo, for samples ``{score: count}`` (games or pairs: :func:`trinomial`,
    :func:`pentanomial`). The outcomes are the keys of ``counts``, seen or not, from 0
    to 1; each unseen one counts :data:`UNSEEN` in the fits (as fishtest regularizes),
    so a few samples of two values cannot decide the test. 0 without samples."""
    if not all(0 <= v <= 1 for v in counts):
        raise ValueError(f"sample values lie in [0, 1], got {sorted(counts)}")
    return llr_of_mean(counts, (0.0, 1.0), score_of(elo0), score_of(elo1))


def llr_normal(counts: Mapping[float, int], elo0: float, elo1: float) -> float:
    """The normal approximation of :func:`llr`: ``N (s1 - s0) (2 mean - s0 - s1) / (2
    var)``, with ``s0``, ``s1`` the scores of ``elo0``, ``elo1``."""
    n, mean, var = _samples(counts)
    if n == 0 or var <= 0:
        return 0.0
    s0, s1 = score_of(elo0), score_of(elo1)
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """The SPRT's stopping bounds on the LLR: ``(log(beta / (1 - alpha)), log((1 -
    beta) / alpha))``; (-2.944, 2.944) for 5% each."""
    if not (0 < alpha < 1 and 0 < beta < 1):
        raise ValueError(f"alpha and beta must lie in (0, 1), got {alpha!r}, {beta!r}")
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


@dataclass(frozen=True)
class Sprt:
    """An SPRT's state: its hypotheses H0 and H1 (in ``unit``: logistic Elo, or points
    a pair for a paired comparison), the LLR, its bounds, and the verdict so far."""

    h0: float
    h1: float
    alpha: float
    beta: float
    llr: float
    lower: float
    upper: float
    unit: str = "elo"

    @property
    def verdict(self) -> str:
        """``"H1"`` (accept the change), ``"H0"`` (reject it) or ``"continue"``."""
        if self.llr >= self.upper:
            return "H1"
        if self.llr <= self.lower:
            return "H0"
        return "continue"

    def __str__(self) -> str:
        return (
            f"SPRT H0 {self.h0:g} H1 {self.h1:g} ({self.unit}), alpha={self.alpha:g} "
            f"beta={self.beta:g}: LLR {self.llr:+.3f} in [{self.lower:.3f}, "
            f"{self.upper:.3f}] -> {self.verdict}"
        )


def sprt(
    counts: Mapping[float, int],
    elo0: float = 0.0,
    elo1: float = 10.0,
    alpha: float = 0.05,
    beta: float = 0.05,
) -> Sprt:
    """The SPRT of ``elo0`` against ``elo1`` on samples ``{score: count}``."""
    lower, upper = sprt_bounds(alpha, beta)
    return Sprt(elo0, elo1, alpha, beta, llr(counts, elo0, elo1), lower, upper)


def trinomial(wins: int, draws: int, losses: int) -> dict[float, int]:
    """Game samples ``{1: wins, 0.5: draws, 0: losses}``."""
    return {1.0: wins, 0.5: draws, 0.0: losses}


def pentanomial(pair_scores: Sequence[float]) -> dict[float, int]:
    """Pair samples from each pair's total (0, 0.5, 1, 1.5 or 2 points in two games):
    ``{0: n, 0.25: n, 0.5: n, 0.75: n, 1: n}``."""
    counts = {0.0: 0, 0.25: 0, 0.5: 0, 0.75: 0, 1.0: 0}
    for points in pair_scores:
        key = points / 2
        if key not in counts:
            raise ValueError(f"a pair scores 0, 0.5, 1, 1.5 or 2 points, got {points!r}")
        counts[key] += 1
    return counts
