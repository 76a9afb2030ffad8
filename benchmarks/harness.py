"""What every script in benchmarks/ shares: its command line, the line that says which
machine and load a table was measured under, and the statistics of its timings
(medians, a bootstrap interval of the median, nearest-rank quantiles).

Scripts run as ``python benchmarks/NAME.py`` import it as ``harness`` (the script's
folder is on the path); the Rust examples share ``examples/support/`` the same way.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import random
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

__all__ = [
    "best_of",
    "load",
    "machine",
    "median",
    "median_interval",
    "parser",
    "print_machine",
    "quantile",
    "timed",
]


def parser(doc: str | None, whole: bool = False, **kwargs: Any) -> argparse.ArgumentParser:
    """The script's argument parser, described by its docstring's first paragraph (the
    whole docstring, kept as written, with ``whole=True``)."""
    if whole:
        kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
        return argparse.ArgumentParser(description=doc, **kwargs)
    description = (doc or "").strip().split("\n\n")[0]
    return argparse.ArgumentParser(description=description, **kwargs)


def load() -> tuple[float, float, float]:
    """The 1-, 5- and 15-minute load averages (zeros where the system has none)."""
    try:
        return os.getloadavg()
    except (AttributeError, OSError):  # Windows
        return (0.0, 0.0, 0.0)


def cores() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows
        return os.cpu_count() or 1


def machine(**extra: Any) -> str:
    """One line naming what a table was measured on: CPU, cores, load average,
    Python, numpy and inarow versions, and any ``extra`` fields (``name=value``)."""
    parts = [
        f"{platform.processor() or platform.machine()}",
        f"{cores()} cores",
        "load average {:.2f} {:.2f} {:.2f}".format(*load()),
        f"Python {platform.python_version()}",
    ]
    try:
        import numpy

        parts.append(f"numpy {numpy.__version__}")
    except ImportError:
        pass
    try:
        import inarow

        parts.append(f"inarow {inarow.__version__}")
    except ImportError:
        pass
    parts += [f"{k} {v}" for k, v in extra.items()]
    return "# " + ", ".join(parts)


def print_machine(**extra: Any) -> None:
    """Prints `machine` (every script's first line of output)."""
    print(machine(**extra), flush=True)


def median(xs: Iterable[float]) -> float:
    """The median (of a list, a generator, a numpy array)."""
    return statistics.median(list(xs))


def median_interval(
    xs: Sequence[float], rounds: int = 1000, rng: random.Random | None = None
) -> tuple[float, float, float]:
    """The median and its 95% bootstrap interval, ``(median, low, high)``: the 2.5th
    and 97.5th percentiles of the medians of ``rounds`` resamples (``rng``, default
    ``random.Random(0)``)."""
    xs = list(xs)
    rng = rng if rng is not None else random.Random(0)
    medians = sorted(statistics.median(rng.choices(xs, k=len(xs))) for _ in range(rounds))
    return statistics.median(xs), medians[int(0.025 * rounds)], medians[int(0.975 * rounds) - 1]


def quantile(xs: Sequence[float], q: float) -> float:
    """The nearest-rank quantile: the smallest value with at least ``q`` of the sample
    at or below it (p99 of 100 values: the second largest; of 300: the fourth)."""
    s = sorted(xs)
    return s[max(0, math.ceil(q * len(s) - 1e-9) - 1)]


def timed(fn: Callable[[], Any]) -> float:
    """Seconds one call of ``fn`` takes (``time.perf_counter``)."""
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def best_of(fn: Callable[[], Any], repeat: int) -> float:
    """The fastest of ``repeat`` calls of ``fn``, in seconds."""
    return min(timed(fn) for _ in range(repeat))
