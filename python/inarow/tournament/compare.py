"""Two engines compared through one opponent: the two matches' logs paired game by game.

Each engine plays the same opponent on the same openings from the same seats
(``--book``, ``--pairs`` and ``--seed`` alike). A pair's difference is the first
engine's points in it minus the second's (-2 to +2); the mean of those differences
and its standard error measure the change. Pairing removes the openings' share of
the noise: where most games come out the same in both matches, the paired error is
below that of the two matches' scores taken apart (against Rapfi, 100 pairs: about
0.05 points a pair, against 0.07).

::

    python -m inarow.tournament.compare after.jsonl before.jsonl
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from inarow.tournament.match import GameRecord, read_log
from inarow.tournament.stats import Z95

__all__ = ["PairedDifference", "paired_difference"]

#: The settings two matches must share to be paired (A is what differs).
SHARED_SETTINGS = ("b", "size", "rule", "time", "nodes", "book")


@dataclass(frozen=True)
class PairedDifference:
    """The first match's engine against the second's, over the pairs both completed."""

    pairs: int
    points_first: float
    points_second: float
    mean: float  # points a pair, first minus second
    stderr: float
    games_differing: int  # games (one pair, one seat) with different results

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
    if first and second:
        for setting in SHARED_SETTINGS:
            a, b = first[0].config.get(setting), second[0].config.get(setting)
            if a != b:
                raise ValueError(f"the matches differ in {setting!r}: {a!r} and {b!r}")
    games = [_by_game(first, "first log"), _by_game(second, "second log")]
    complete = [{p for p, _ in g if (p, 1) in g and (p, 2) in g} for g in games]
    pairs = sorted(complete[0] & complete[1])
    if len(pairs) < 2:
        raise ValueError(
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
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m inarow.tournament.compare",
        description="Two engines' matches against one opponent, compared pair by pair.",
    )
    p.add_argument("first", help="the log of the engine under test (e.g. after a change)")
    p.add_argument("second", help="the log of the engine it is compared with")
    args = p.parse_args(argv)
    logs = []
    for path in (args.first, args.second):
        records = read_log(path)
        if not records:
            p.error(f"{path}: no games logged (or no such file)")
        logs.append(records)
    try:
        print(paired_difference(logs[0], logs[1]))
    except ValueError as e:
        p.error(str(e))
    return 0


if __name__ == "__main__":
    sys.exit(main())
