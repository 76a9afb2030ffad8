"""Binomial rates and their 95% Wilson intervals, as every evaluation reports them."""

from __future__ import annotations

import math

__all__ = ["rate", "wilson_interval"]

_Z95 = 1.959963984540054


def rate(successes: int, n: int) -> float:
    """successes / n; NaN for n = 0."""
    return successes / n if n else float("nan")


def wilson_interval(successes: int, n: int, z: float = _Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial rate (95% by default); (0, 1) for n = 0."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))
