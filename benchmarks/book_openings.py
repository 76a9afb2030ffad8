"""Solver latency in the openings with and without the shipped opening book.

    python benchmarks/book_openings.py        # --positions N per ply, --search-from P

For each ply 0..5, `--positions` random positions (seeded): `best_move` and
`analyze(weak=True)` from a fresh `Solver()` each (book on), and from a fresh
`Solver(book=False)` for plies >= `--search-from` (earlier plies take minutes a
call without the book). Prints medians and maxima per ply and the ratio of the
medians. The book's loading is measured apart, in a fresh process.
"""

from __future__ import annotations

import random
import subprocess
import sys
import time

import harness

import inarow

LOAD = """
import time, inarow
board = inarow.Board()
solver = inarow.Solver()
start = time.perf_counter()
solver.solve(board, weak=True)
print(time.perf_counter() - start)
"""


def random_board(rng: random.Random, plies: int) -> inarow.Board:
    board = inarow.Board()
    for _ in range(plies):
        board.move(rng.choice(board.legal_moves()))
    return board


def timed(call, solver: inarow.Solver, board: inarow.Board) -> float:
    start = time.perf_counter()
    call(solver, board)
    return time.perf_counter() - start


def cell(times: list[float]) -> str:
    if not times:
        return "-"
    return f"{harness.median(times) * 1e3:9.3f} / {max(times) * 1e3:9.3f}"


def main() -> None:
    parser = harness.parser(__doc__)
    parser.add_argument("--positions", type=int, default=3)
    parser.add_argument("--search-from", type=int, default=3)
    args = parser.parse_args()
    harness.print_machine()
    loads = [float(subprocess.check_output([sys.executable, "-c", LOAD])) for _ in range(3)]
    print(f"book load + first lookup, fresh process: median {harness.median(loads) * 1e3:.1f} ms")
    print("ms, median / max; 'search' = Solver(book=False)")
    print(f"{'ply':>3} {'call':>18} {'book':>21} {'search':>21} {'ratio':>8}")
    rng = random.Random(0)
    for ply in range(6):
        boards = [random_board(rng, ply) for _ in range(args.positions)]
        for name, call in (
            ("best_move", lambda s, b: s.best_move(b)),
            ("analyze(weak)", lambda s, b: s.analyze(b, weak=True)),
        ):
            book = [timed(call, inarow.Solver(), b) for b in boards]
            search = []
            if ply >= args.search_from:
                search = [timed(call, inarow.Solver(book=False), b) for b in boards]
            ratio = f"{harness.median(search) / harness.median(book):7.1f}x" if search else "-"
            print(f"{ply:>3} {name:>18} {cell(book):>21} {cell(search):>21} {ratio:>8}")


if __name__ == "__main__":
    main()
