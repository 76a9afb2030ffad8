#!/usr/bin/env python3
"""The long differential run of gomoku's win rules: clustered random games on the
engine beside the independent referee of ``tests/rule_referee.py`` (renju's forbidden
cells from the pip package ``renju``, a port of the Piskvork judge), move by move.
The test suite (``tests/test_win_rules.py``) runs thousands of positions; this runs
millions.

    python scripts/referee_diff.py --positions 1000000          # standard and renju
    python scripts/referee_diff.py --rule renju --sizes 15 --positions 200000

Resumable: the next game of each (rule, size) and the counts so far are saved in
``--state`` (default ``runs/referee_diff.json``) after every game batch and on Ctrl-C
(or ``kill -INT`` / ``-TERM``); rerunning with the same arguments carries on. The first
disagreement stops the run, prints the game (rule, size, seed, moves, board) and
exits 1; ``tests/rule_referee.py``'s ``compare_game(size, k, rule, seed)`` replays it.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

from rule_referee import Disagreement, compare_game  # noqa: E402


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main() -> int:
    # kill -INT or -TERM saves and stops too, also where the shell started the run
    # in the background with SIGINT ignored.
    signal.signal(signal.SIGINT, _interrupt)
    signal.signal(signal.SIGTERM, _interrupt)
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rule", choices=["standard", "renju", "both"], default="both")
    p.add_argument("--sizes", type=int, nargs="+", default=[9, 11, 15])
    p.add_argument("--positions", type=int, default=1_000_000, help="positions to compare in all")
    p.add_argument("--state", default="runs/referee_diff.json")
    args = p.parse_args()

    rules = ["standard", "renju"] if args.rule == "both" else [args.rule]
    configs = [f"{rule}:{size}" for rule in rules for size in args.sizes]
    state = {"games": {c: 0 for c in configs}, "positions": 0, "forbidden": 0, "seconds": 0.0}
    if os.path.exists(args.state):
        with open(args.state) as f:
            saved = json.load(f)
        state.update({key: saved[key] for key in ("positions", "forbidden", "seconds")})
        state["games"].update({c: n for c, n in saved["games"].items() if c in state["games"]})
        print(f"resuming from {args.state}: {state['positions']:,} positions so far")

    def save() -> None:
        os.makedirs(os.path.dirname(args.state) or ".", exist_ok=True)
        tmp = args.state + ".tmp"
        with open(tmp, "w") as f:
            json.dump(state, f, indent=1)
        os.replace(tmp, args.state)

    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover - progress is optional
        tqdm = None
    bar = (
        tqdm(total=args.positions, initial=min(state["positions"], args.positions), unit="pos")
        if tqdm
        else None
    )
    start, last_save = time.monotonic(), time.monotonic()
    try:
        while state["positions"] < args.positions:
            for config in configs:
                rule, size = config.split(":")
                # Seeds apart per configuration, so that each (rule, size) has its own games.
                seed = state["games"][config] + 10_000_000 * int(size)
                positions, forbidden = compare_game(int(size), 5, rule, seed)
                state["games"][config] += 1
                state["positions"] += positions
                state["forbidden"] += forbidden
                if bar is not None:
                    bar.update(positions)
                    bar.set_postfix(forbidden=state["forbidden"])
            if time.monotonic() - last_save > 30:
                state["seconds"] += time.monotonic() - start
                start = last_save = time.monotonic()
                save()
    except KeyboardInterrupt:
        print("\ninterrupted; rerun to resume", file=sys.stderr)
        return_code = 130
    except Disagreement as e:
        print(f"\nDISAGREEMENT: {e}", file=sys.stderr)
        return_code = 1
    else:
        return_code = 0
    finally:
        if bar is not None:
            bar.close()
        state["seconds"] += time.monotonic() - start
        save()
    print(
        f"{state['positions']:,} positions compared ({state['forbidden']:,} forbidden cells met), "
        f"games {state['games']}, {state['seconds']:.0f} s; state in {args.state}"
    )
    return return_code


if __name__ == "__main__":
    sys.exit(main())
