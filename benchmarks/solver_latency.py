"""Solver latency at every ply of 7x6 Connect Four, from a fresh solver, as a user
meets it: `best_move`, `analyze(weak=True)` and exact `analyze` on random positions.

    python benchmarks/solver_latency.py                  # plies 0..41, 10 positions each
    python benchmarks/solver_latency.py --plies 13-20 --samples 40 --exact-from 13

Each ply runs in a fresh process, which first loads the opening book (timed on its
own: the `book load` column), then times every call on a fresh `Solver()` (default
table and threads; construction not timed). Positions are random games of that many
plies that are not over (seeded: the same positions every run). Exact `analyze` is
timed from ply `--exact-from` on (earlier plies take minutes each). p99 is the
nearest-rank one: over 100 positions the second slowest, over fewer than 100 the
slowest; `--samples 300` or more estimates it well (the fourth slowest of 300). The
slowest call of each ply is printed too. Run on an idle machine for absolute
numbers; `uptime` is printed.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time

import harness

GROUPS = [(0, 4), (5, 8), (9, 12), (13, 20), (21, 30), (31, 41)]


def positions(ply: int, count: int, seed: int) -> list[list[int]]:
    import inarow

    rng = random.Random(seed * 1000 + ply)
    out: list[list[int]] = []
    while len(out) < count:
        board = inarow.Board()
        for _ in range(ply):
            board.move(rng.choice(board.legal_moves()))
            if board.is_over:
                break
        if not board.is_over and len(board.moves) == ply:
            out.append(board.moves)
    return out


def worker(ply: int, count: int, seed: int, exact: bool) -> dict:
    """One ply in this (fresh) process."""
    import inarow

    # The first call with book=True loads the shipped book (then one lookup).
    start = time.perf_counter()
    inarow.Solver(tt_bytes=1 << 10, threads=1).solve(inarow.Board(), weak=True)
    load = time.perf_counter() - start
    rows = []
    for moves in positions(ply, count, seed):
        board = inarow.Board.from_moves(moves)
        row = {}
        calls = [("best_move", lambda s, b=board: s.best_move(b))]
        calls.append(("weak", lambda s, b=board: s.analyze(b, weak=True)))
        if exact:
            calls.append(("exact", lambda s, b=board: s.analyze(b)))
        for name, call in calls:
            solver = inarow.Solver()
            t = time.perf_counter()
            call(solver)
            row[name] = time.perf_counter() - t
            row[name + "_nodes"] = solver.nodes
        rows.append(row)
    return {"ply": ply, "load": load, "rows": rows}


def ms(x: float | None) -> str:
    return "-" if x is None else f"{x * 1e3:.2f}"


def main() -> None:
    p = harness.parser(__doc__)
    p.add_argument("--plies", default="0-41", help="a range a-b or one ply")
    p.add_argument("--samples", type=int, default=10)
    p.add_argument("--exact-from", type=int, default=12)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", help="also write the raw timings here")
    p.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.worker is not None:
        print(json.dumps(worker(a.worker, a.samples, a.seed, a.worker >= a.exact_from)))
        return
    lo, _, hi = a.plies.partition("-")
    plies = range(int(lo), int(hi or lo) + 1)
    harness.print_machine(**{"samples a ply": a.samples})
    results = []
    for ply in plies:
        out = subprocess.run(
            [
                sys.executable,
                __file__,
                "--worker",
                str(ply),
                "--samples",
                str(a.samples),
                "--seed",
                str(a.seed),
                "--exact-from",
                str(a.exact_from),
            ],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        r = json.loads(out)
        results.append(r)
        rows = r["rows"]

        def col(name: str, rows=rows) -> tuple[float | None, ...]:
            xs = [row[name] for row in rows if name in row]
            if not xs:
                return (None, None, None)
            return (harness.median(xs), harness.quantile(xs, 0.99), max(xs))

        b, w, e = col("best_move"), col("weak"), col("exact")
        print(
            f"ply {ply:2d}  best_move p50 {ms(b[0]):>7} p99 {ms(b[1]):>7} max {ms(b[2]):>7}  "
            f"weak p50 {ms(w[0]):>7} p99 {ms(w[1]):>7} max {ms(w[2]):>7}  "
            f"exact p50 {ms(e[0]):>7} p99 {ms(e[1]):>7} max {ms(e[2]):>7}  "
            f"book load {ms(r['load'])} ms",
            flush=True,
        )
    print("\nby ply group (all positions of the group pooled), ms")
    print(
        f"{'plies':>7} {'best p50':>9} {'best p99':>9} {'weak p50':>9} {'weak p99':>9} "
        f"{'exact p50':>9} {'exact p99':>9}"
    )
    for g_lo, g_hi in GROUPS:
        group = [row for r in results if g_lo <= r["ply"] <= g_hi for row in r["rows"]]
        if not group:
            continue
        cells = []
        for name in ["best_move", "weak", "exact"]:
            xs = [row[name] for row in group if name in row]
            cells += [harness.median(xs), harness.quantile(xs, 0.99)] if xs else [None, None]
        print(f"{g_lo:>3}-{g_hi:<3} " + " ".join(f"{ms(c):>9}" for c in cells))
    loads = [r["load"] for r in results]
    print(
        f"\nbook load (first call of a process), median over processes: "
        f"{ms(harness.median(loads))} ms"
    )
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f)


if __name__ == "__main__":
    main()
