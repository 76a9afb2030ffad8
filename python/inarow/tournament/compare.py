"""Two engines compared through one opponent: the two matches' logs paired game by game.

Each engine plays the same opponent on the same openings from the same seats
(``--book``, ``--pairs`` and ``--seed`` alike). A pair's difference is the first
engine's points in it minus the second's (-2 to +2); the mean of those differences
and its standard error measure the change. Pairing removes the openings' share of
the noise: where most games come out the same in both matches, the paired error is
below that of the two matches' scores taken apart (against Rapfi, 100 pairs: about
0.05 points a pair, against 0.07).

``--sprt H0,H1`` adds a sequential probability ratio test on the pairs'
differences (:func:`paired_sprt`): H0 "the mean difference is ``H0`` points a pair"
against H1 "it is ``H1``", read in pair order as if the two matches had been played
side by side, so it can be run while both still play and they stop at its verdict.
A pair's difference takes one of nine values (-2 to +2 by halves); the test is the
generalized SPRT of their mean (:func:`inarow.tournament.stats.llr_of_mean`), as the
match's own SPRT is of the score. A change of ``d`` points a pair is ``d / 2`` in
the score of each game against the opponent.

::

    python -m inarow.tournament.compare after.jsonl before.jsonl --sprt 0,0.1
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from inarow.tournament import stats
from inarow.tournament.match import GameRecord, read_log
from inarow.tournament.stats import Z95

__all__ = [
    "PairedDifference",
    "PairedSprt",
    "paired_difference",
    "paired_sprt",
    "paired_stop",
    "TooFewPairs",
]

#: The settings two matches must share to be paired (A is what differs).
SHARED_SETTINGS = ("b", "size", "rule", "time", "nodes", "book")


class TooFewPairs(ValueError):
    """Fewer than two pairs are complete in both logs: nothing to compare yet."""


@dataclass(frozen=True)
class PairedDifference:
    """The first match's engine against the second's, over the pairs both completed."""

    pairs: int
    points_first: float
    points_second: float
    mean: float  # points a pair, first minus second
    stderr: float
    games_differing: int  # games (one pair, one seat) with different results
    differences: tuple[float, ...] = ()  # each pair's, in the pairs' order

    def interval(self, z: float = Z95) -> tuple[float, float]:
        """The mean's normal interval (95% by default), in points a pair."""
        return self.mean - z * self.stderr, self.mean + z * self.stderr

    def __str__(self) -> str:
        low, high = self.interval()
        return (
            f"{self.pairs} pairs: {self.points_first:g} against {self.points_second:g} points; "
            f"{self.mean:+.3f} points a pair, standard error {self.stderr:.3f} "
            f"(95%: [{low:+.3f}, {high:+.3f}]); {self.games_differing} games differ"
        )


def _by_game(records: Sequence[GameRecord], name: str) -> dict[tuple[int, int], GameRecord]:
    games: dict[tuple[int, int], GameRecord] = {}
    for r in records:
        key = (r.pair, r.a_seat)
        if key in games:
            raise ValueError(f"{name}: pair {r.pair} seat {r.a_seat} is logged twice")
        games[key] = r
    return games


def paired_difference(
    first: Sequence[GameRecord], second: Sequence[GameRecord]
) -> PairedDifference:
    """The first log's engine against the second's, pair by pair (see the module's
    docstring). Pairs complete in both logs count. Raises ``ValueError`` where the
    matches do not share their opponent and settings, where a pair's opening differs
    between them, or where fewer than two pairs are complete in both."""
    if first:
        reference = first[0].config
        for name, records in (("first log", first), ("second log", second)):
            for r in records:
                for setting in SHARED_SETTINGS:
                    a, b = reference.get(setting), r.config.get(setting)
                    if a != b:
                        raise ValueError(
                            f"the matches differ in {setting!r}: {a!r} and {b!r} "
                            f"({name}, pair {r.pair} seat {r.a_seat})"
                        )
    games = [_by_game(first, "first log"), _by_game(second, "second log")]
    complete = [{p for p, _ in g if (p, 1) in g and (p, 2) in g} for g in games]
    pairs = sorted(complete[0] & complete[1])
    if len(pairs) < 2:
        raise TooFewPairs(
            f"{len(pairs)} pair(s) complete in both logs: at least 2 are needed to compare"
        )
    differences = []
    differing = 0
    points = [0.0, 0.0]
    for p in pairs:
        pair_points = [0.0, 0.0]
        for seat in (1, 2):
            x, y = games[0][(p, seat)], games[1][(p, seat)]
            if x.opening_moves != y.opening_moves:
                raise ValueError(
                    f"pair {p} seat {seat}: openings {x.opening!r} and {y.opening!r} differ "
                    "(the matches need the same book, pairs and seed)"
                )
            pair_points[0] += x.a_points
            pair_points[1] += y.a_points
            differing += x.a_points != y.a_points
        points[0] += pair_points[0]
        points[1] += pair_points[1]
        differences.append(pair_points[0] - pair_points[1])
    n = len(differences)
    mean = sum(differences) / n
    variance = sum((d - mean) ** 2 for d in differences) / (n - 1)
    return PairedDifference(
        pairs=n,
        points_first=points[0],
        points_second=points[1],
        mean=mean,
        stderr=math.sqrt(variance / n),
        games_differing=differing,
        differences=tuple(differences),
    )


#: The values a pair's difference can take: -2 to +2 points by halves.
DIFFERENCES = tuple(x / 2 for x in range(-4, 5))


@dataclass(frozen=True)
class PairedSprt:
    """A paired SPRT read in pair order: its state after the last pair, and the pair
    (counted from 1) at which it first left its bounds (``None``: it has not)."""

    final: stats.Sprt
    pairs: int
    decided_at: int | None
    verdict: str  # the verdict where it first left its bounds, else "continue"

    def __str__(self) -> str:
        if self.decided_at is None:
            return f"{self.final} after {self.pairs} pairs: undecided"
        return f"{self.final} after {self.pairs} pairs; decided {self.verdict} at pair {self.decided_at}"


def paired_sprt(
    d: PairedDifference, h0: float, h1: float, alpha: float = 0.05, beta: float = 0.05
) -> PairedSprt:
    """The SPRT of H0 "the mean difference is ``h0`` points a pair" against H1 "it is
    ``h1``" on ``d``'s differences, read pair by pair in order. Both hypotheses lie
    strictly between -2 and +2."""
    reader = _PairedLlr(h0, h1, alpha, beta)
    for x in d.differences:
        reader.read(x)
    final = stats.Sprt(
        h0, h1, alpha, beta, reader.value, reader.lower, reader.upper, unit="points a pair"
    )
    return PairedSprt(final, len(d.differences), reader.decided_at, reader.verdict)


class _PairedLlr:
    """The paired SPRT's LLR read one pair's difference at a time: its value after
    the last, and the pair (from 1) where it first left its bounds, with the verdict."""

    def __init__(self, h0: float, h1: float, alpha: float, beta: float) -> None:
        self.h0, self.h1 = h0, h1
        self.lower, self.upper = stats.sprt_bounds(alpha, beta)
        self.counts: dict[float, int] = {}
        self.pairs = 0
        self.value = 0.0
        self.decided_at: int | None = None
        self.verdict = "continue"

    def read(self, x: float) -> None:
        self.counts[x] = self.counts.get(x, 0) + 1
        self.pairs += 1
        self.value = stats.llr_of_mean(self.counts, DIFFERENCES, self.h0, self.h1)
        if self.decided_at is None and not self.lower < self.value < self.upper:
            self.decided_at = self.pairs
            self.verdict = "H1" if self.value >= self.upper else "H0"


def paired_stop(
    base: Sequence[GameRecord],
    config: Mapping[str, object],
    h0: float,
    h1: float,
    alpha: float = 0.05,
    beta: float = 0.05,
) -> Callable[[Sequence[GameRecord]], bool]:
    """A ``stop`` for :func:`inarow.tournament.match.run`: true once the paired SPRT
    (:func:`paired_sprt`) of the match's games against ``base``'s has decided. The
    match's ``config`` must share ``base``'s settings (:data:`SHARED_SETTINGS`);
    raises ``ValueError`` naming the first that differs, or where ``base`` is empty.
    Each call reads only the pairs completed since the last, so a match pays one fit
    of the LLR a pair."""
    if not base:
        raise ValueError("the base log holds no games")
    for setting in SHARED_SETTINGS:
        a, b = config.get(setting), base[0].config.get(setting)
        if a != b:
            raise ValueError(f"the match and the base log differ in {setting!r}: {a!r} and {b!r}")

    # The differences read so far, in pair order: each call reads only the new pairs.
    read: list[float] = []
    reader = _PairedLlr(h0, h1, alpha, beta)

    def stop(records: Sequence[GameRecord]) -> bool:
        nonlocal reader
        try:
            differences = paired_difference(records, base).differences
        except TooFewPairs:
            return False
        if tuple(read) != differences[: len(read)]:
            # A pair completed before the last one read (a resumed log): read all again.
            read.clear()
            reader = _PairedLlr(h0, h1, alpha, beta)
        for x in differences[len(read) :]:
            read.append(x)
            reader.read(x)
        return reader.decided_at is not None

    return stop


def hypotheses_argument(text: str) -> tuple[float, float]:
    """``H0,H1`` on a command line: two different mean differences in points a pair,
    strictly between -2 and +2 (``argparse.ArgumentTypeError`` otherwise)."""
    try:
        h0, h1 = (float(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: give H0,H1, two mean differences in points a pair, as 0,0.1"
        ) from None
    if not (-2 < h0 < 2 and -2 < h1 < 2 and h0 != h1):
        raise argparse.ArgumentTypeError(
            f"{text!r}: H0 and H1 must differ and lie strictly between -2 and +2"
        )
    return h0, h1


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m inarow.tournament.compare",
        description="Two engines' matches against one opponent, compared pair by pair.",
    )
    p.add_argument("first", help="the log of the engine under test (e.g. after a change)")
    p.add_argument("second", help="the log of the engine it is compared with")
    p.add_argument(
        "--sprt",
        type=hypotheses_argument,
        default=None,
        metavar="H0,H1",
        help="test H0 against H1, mean differences in points a pair (e.g. 0,0.1)",
    )
    p.add_argument("--alpha", type=float, default=0.05)
    p.add_argument("--beta", type=float, default=0.05)
    args = p.parse_args(argv)
    logs = []
    for path in (args.first, args.second):
        records = read_log(path)
        if not records:
            p.error(f"{path}: no games logged (or no such file)")
        logs.append(records)
    try:
        d = paired_difference(logs[0], logs[1])
        print(d)
        if args.sprt is not None:
            print(paired_sprt(d, *args.sprt, alpha=args.alpha, beta=args.beta))
    except ValueError as e:
        p.error(str(e))
    return 0


if __name__ == "__main__":
    sys.exit(main())
