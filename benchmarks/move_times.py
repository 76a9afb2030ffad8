"""The shipped Connect Four agent's move, one core, at several search settings on the
same fresh openings, the settings taking turns board by board (the machine's drift
shared alike); each move on an empty cache.

    python benchmarks/move_times.py 200 400e 600e 800e --seed 7740 --per-length 40

A setting is a simulation budget, ``e`` after it for ``stop_early=True``. Prints each
setting's median move with its 95% bootstrap interval, the mean and the 90th
percentile.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import re
import time

import harness
import numpy as np

from inarow import agents, evaluate


def setting(text: str) -> tuple[int, bool]:
    match = re.fullmatch(r"(\d+)(e?)", text)
    if not match:
        raise argparse.ArgumentTypeError(f"{text!r}: allowed a budget, e.g. 200 or 600e")
    return int(match[1]), bool(match[2])


def main() -> None:
    p = harness.parser(__doc__)
    p.add_argument("settings", type=setting, nargs="+", help="e.g. 200 400e 600e")
    p.add_argument("--seed", type=int, default=7740, help="seed of the random openings")
    p.add_argument("--per-length", type=int, default=40, help="openings of each length")
    p.add_argument("--lengths", type=int, nargs="+", default=[6, 8, 10, 12, 14, 16])
    args = p.parse_args()
    harness.print_machine()

    sets = evaluate.judged_positions(
        "connect_four", args.per_length, seed=args.seed, lengths=args.lengths
    )
    boards = [b for bs in sets.values() for b in bs]
    players = [
        agents.pretrained("connect_four", simulations=n, stop_early=e) for n, e in args.settings
    ]
    for agent in players:
        agent(boards[0].copy())  # the first call's one-off costs
    times: list[list[float]] = [[] for _ in players]
    for board in boards:
        for agent, spent in zip(players, times):
            agent.clear_cache()
            start = time.perf_counter()
            agent(board.copy())
            spent.append(1000 * (time.perf_counter() - start))
    for (n, e), spent in zip(args.settings, times):
        t = np.array(spent)
        mid, lo, hi = harness.median_interval(spent)
        print(
            f"{n}{', stop_early' if e else ''}: median {mid:.1f} ms [{lo:.1f}, "
            f"{hi:.1f}], mean {t.mean():.1f}, p90 {np.percentile(t, 90):.1f} "
            f"({len(t)} openings, seed {args.seed})"
        )


if __name__ == "__main__":
    main()
