"""An attempt at 9,9,5 (free placement, 81 cells) with the exact solver, opening by
opening, resumable: what it proves is kept in a checkpoint file.

The first move's canonical openings (the cells of one eighth of the board, row <=
col <= 4: 15 of them, the centre first) are searched in turn for their outcome
(``Solver.solve(weak=True)`` after that first stone), each attempt within a time
budget; an opening left unproven is tried again in the next pass with twice its
budget, on the same solver (its table keeps what the earlier attempts stored).
After every attempt the checkpoint (JSON) holds, per opening, the first player's
outcome (1 win, 0 draw, -1 loss) or "unproven after N nodes" (all its attempts
together), and what the openings prove of the empty board. Ctrl-C stops the search
within a second and saves (the attempt it cuts short is not counted); running the
same command again resumes, skipping the openings already proven.

    python benchmarks/free_9x9.py --checkpoint free_9x9.json --budget 60 --passes 3
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

import harness

import inarow

SIDE = 9


def openings(size: int) -> list[int]:
    """The first move's canonical cells (row <= col <= size // 2), nearest the
    centre first."""
    half = size // 2
    cells = [r * size + c for r in range(half + 1) for c in range(r, half + 1)]
    return sorted(
        cells, key=lambda cell: (abs(cell // size - half) + abs(cell % size - half), cell)
    )


def load(path: Path, rules: dict[str, Any]) -> dict[str, Any]:
    """The checkpoint at ``path`` (a fresh one where there is none); ``SystemExit``
    naming both if it was made for other rules."""
    if not path.exists():
        return {"rules": rules, "openings": {}}
    state = json.loads(path.read_text())
    if state.get("rules") != rules:
        sys.exit(f"{path} holds rules {state.get('rules')}, not {rules}: use another --checkpoint")
    return state


def save(path: Path, state: dict[str, Any]) -> None:
    """Writes the checkpoint whole, then moves it over the old one (never half a file)."""
    state["summary"] = summary(state)
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(state, indent=1) + "\n")
    os.replace(partial, path)


def summary(state: dict[str, Any]) -> str:
    """What the proven openings say of the empty board."""
    entries = state["openings"].values()
    values = [e["value"] for e in entries if e.get("value") is not None]
    size = state["rules"]["width"]
    if 1 in values:
        return "a first-player win (an opening wins)"
    if len(values) == len(openings(size)):
        return "a draw" if 0 in values else "a second-player win"
    if 0 in values:
        return f"the first player draws at least ({len(values)} of {len(openings(size))} openings proven)"
    return f"unknown ({len(values)} of {len(openings(size))} openings proven)"


def describe(entry: dict[str, Any]) -> str:
    if entry.get("value") is not None:
        return ["a loss", "a draw", "a win"][entry["value"] + 1] + " for the first player"
    return f"unproven after {entry['nodes']:,} nodes"


def attempt(solver: inarow.Solver, board: inarow.Board, budget: float) -> tuple[int | None, int]:
    """The first player's outcome after the opening ``board`` (o to move), or
    ``None`` if ``budget`` seconds pass first; and the nodes searched. On a terminal
    it shows the elapsed time every few seconds."""
    timer = threading.Timer(budget, solver.cancel)
    done = threading.Event()

    def ticker() -> None:
        start = time.monotonic()
        while not done.wait(5.0):
            print(f"\r    {time.monotonic() - start:6.0f} s of {budget:.0f} s", end="", flush=True)

    tick = threading.Thread(target=ticker, daemon=True)
    timer.start()
    if sys.stdout.isatty():
        tick.start()
    try:
        value: int | None = -solver.solve(board, weak=True)  # o to move: negate for x
    except inarow.CancelledError:
        value = None
    finally:
        timer.cancel()
        done.set()
        if tick.is_alive():
            tick.join()
            print("\r" + " " * 40 + "\r", end="", flush=True)
    return value, solver.nodes


def main() -> int:
    p = harness.parser(__doc__)
    p.add_argument("--checkpoint", type=Path, default=Path("free_9x9.json"))
    p.add_argument("--k", type=int, default=5, help="line length (default 5)")
    p.add_argument("--rule", default="freestyle", choices=["freestyle", "standard"])
    p.add_argument("--budget", type=float, default=60.0, help="seconds of a first attempt")
    p.add_argument("--passes", type=int, default=1, help="passes over the unproven openings")
    p.add_argument("--tt-mib", type=int, default=256, help="table size (default 256 MiB)")
    args = p.parse_args()
    rules_fields = {"width": SIDE, "height": SIDE, "k": args.k, "rule": args.rule}
    rules = inarow.Rules(SIDE, SIDE, args.k, gravity=False, rule=args.rule)
    state = load(args.checkpoint, rules_fields)
    solver = inarow.Solver(tt_bytes=args.tt_mib << 20, threads=1, book=False)
    harness.print_machine()
    print(f"{rules}: checkpoint {args.checkpoint}; {summary(state)}")
    # SIGTERM ends the run as Ctrl-C does: saved, resumable.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        for pass_ in range(args.passes):
            todo = [
                c for c in openings(SIDE) if state["openings"].get(str(c), {}).get("value") is None
            ]
            if not todo:
                break
            print(f"pass {pass_ + 1}: {len(todo)} openings unproven")
            for cell in todo:
                entry = state["openings"].setdefault(
                    str(cell),
                    {"cell": cell, "value": None, "nodes": 0, "seconds": 0.0, "budget": 0.0},
                )
                budget = entry["budget"] * 2 if entry["budget"] else args.budget
                board = inarow.Board.from_moves([cell], rules=rules)
                print(
                    f"  opening {cell} (row {cell // SIDE}, col {cell % SIDE}), {budget:.0f} s ..."
                )
                start = time.monotonic()
                # An attempt Ctrl-C cuts short counts for nothing (its nodes are unknown).
                value, nodes = attempt(solver, board, budget)
                entry["seconds"] += time.monotonic() - start
                entry["nodes"] += nodes
                entry["budget"] = budget
                entry["value"] = value
                save(args.checkpoint, state)
                print(f"  opening {cell}: {describe(entry)} ({entry['seconds']:.0f} s in all)")
                if value == 1:
                    break  # the empty board is a first-player win: nothing more to prove
            if summary(state).startswith("a first-player win"):
                break
    except KeyboardInterrupt:
        save(args.checkpoint, state)
        print(f"\nstopped; saved to {args.checkpoint}: run the same command to resume")
        return 130
    save(args.checkpoint, state)
    print(f"{rules}: {summary(state)}")
    for cell in openings(SIDE):
        entry = state["openings"].get(str(cell))
        if entry is not None:
            print(f"  {cell:2d} (row {cell // SIDE}, col {cell % SIDE}): {describe(entry)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
