"""How fast the free-placement solver judges positions of boards just past the
solved ones (7x7 and 8x8, five in a row): ``Solver.analyze`` of positions from
random openings, each with a time limit, percentiles over fresh seeds.

A position is ``--stones`` uniformly random moves from the empty board (games
already over are drawn again). Each analysis has ``--limit`` seconds (then
``Solver.cancel`` stops it and it counts as "over the limit"); the percentiles are
of every position's time, an analysis over the limit counting as the limit (so a
percentile at the limit means "at least"). A fresh solver per position (no table
carried over), ``--threads`` threads (default 1; the zone search of ``--weak`` shares its
tree among them). ``--weak`` asks for each move's outcome only (win, draw or
loss: the zone search) instead of its exact score.

    python benchmarks/free_analyze.py --size 7 --stones 8 --positions 40 --limit 10
    python benchmarks/free_analyze.py --size 8 --stones 16 --positions 12 --limit 20 --weak
"""

from __future__ import annotations

import random
import threading
import time

import harness

import inarow


def random_position(rules: inarow.Rules, stones: int, rng: random.Random) -> inarow.Board:
    while True:
        board = inarow.Board(rules=rules)
        for _ in range(stones):
            board.move(rng.choice(board.legal_moves()))
            if board.is_over:
                break
        if not board.is_over:
            return board


def analyze_within(
    board: inarow.Board, limit: float, weak: bool, threads: int
) -> tuple[float, bool, int]:
    """Seconds, whether it finished within ``limit``, nodes searched."""
    solver = inarow.Solver(tt_bytes=1 << 27, threads=threads, book=False)
    timer = threading.Timer(limit, solver.cancel)
    timer.start()
    start = time.perf_counter()
    try:
        solver.analyze(board, weak=weak)
        done = True
    except inarow.CancelledError:
        done = False
    finally:
        timer.cancel()
    return time.perf_counter() - start, done, solver.nodes


def main() -> None:
    ap = harness.parser(__doc__)
    ap.add_argument("--size", type=int, default=7, help="the board is SIZE x SIZE (7 or 8)")
    ap.add_argument("--k", type=int, default=5, help="stones in a row that win (default 5)")
    ap.add_argument("--stones", type=int, default=8, help="random moves before the position")
    ap.add_argument("--positions", type=int, default=40, help="positions to analyze")
    ap.add_argument("--limit", type=float, default=10.0, help="seconds per analysis")
    ap.add_argument("--seed", type=int, default=0, help="seed of the openings (use fresh ones)")
    ap.add_argument("--weak", action="store_true", help="each move's outcome, not its score")
    ap.add_argument("--threads", type=int, default=1, help="solver threads (default 1)")
    args = ap.parse_args()
    harness.print_machine()
    rules = inarow.Rules(args.size, args.size, args.k, 2, False)
    rng = random.Random(args.seed)
    times, finished, nodes = [], 0, []
    for i in range(args.positions):
        board = random_position(rules, args.stones, rng)
        seconds, done, searched = analyze_within(board, args.limit, args.weak, args.threads)
        times.append(min(seconds, args.limit) if done else args.limit)
        finished += done
        nodes.append(searched)
        took = f"{seconds:.3f} s" if done else "over the limit"
        print(f"{i + 1:3d} {board.moves} {took} {searched:,} nodes", flush=True)
    print(
        f"\n{args.size}x{args.size}, k = {args.k}, {args.stones} random stones, seed {args.seed}"
        f"{', outcomes only' if args.weak else ''}, {args.threads} thread(s): "
        f"{finished} of {args.positions} analyzed within {args.limit:g} s; time p50 "
        f"{harness.quantile(times, 0.5):.3f} s, p90 {harness.quantile(times, 0.9):.3f} s, "
        f"max {max(times):.3f} s (an unfinished analysis counts as the limit); nodes p50 "
        f"{harness.quantile(nodes, 0.5):,}"
    )


if __name__ == "__main__":
    main()
