"""The free-placement solver's figures for BENCHMARKS.md ("Free-placement solver").

1. Tic-tac-toe: ``Solver.analyze`` of every reachable position that is not over
   (4520 of them), on one warm solver and on a fresh solver per position.
2. Empty boards: ``Solver.solve`` of each m,n,k game named, a fresh solver each,
   one thread, median of ``--rounds`` runs, with node counts.

    python benchmarks/free_solver.py --rounds 5
"""

from __future__ import annotations

import time

import harness

import inarow

TTT = inarow.Rules.tic_tac_toe()
# Every free m,n,k with 3 <= n <= m <= 5 and 3 <= k <= m, then 6x6 with k = 4 and 5.
SMALL = [(m, n, k) for n in range(3, 6) for m in range(n, 6) for k in range(3, m + 1)]
LARGE = [(6, 6, 4), (6, 6, 5)]


def tic_tac_toe_positions() -> list[inarow.Board]:
    """Every position reachable in tic-tac-toe that is not over, once each."""
    out, seen, stack = [], set(), [inarow.Board(rules=TTT)]
    while stack:
        board = stack.pop()
        key = tuple(board.to_numpy().ravel().tolist())
        if key in seen:
            continue
        seen.add(key)
        if board.is_over:
            continue
        out.append(board)
        for action in board.legal_moves():
            child = board.copy()
            child.move(action)
            stack.append(child)
    return out


def tic_tac_toe(rounds: int) -> None:
    boards = tic_tac_toe_positions()
    warm = inarow.Solver(threads=1)
    for board in boards:
        warm.analyze(board)
    per_call = []
    for _ in range(rounds):
        start = time.perf_counter()
        for board in boards:
            warm.analyze(board)
        per_call.append((time.perf_counter() - start) / len(boards))
    fresh = []
    for board in boards[:: max(1, len(boards) // 200)]:
        solver = inarow.Solver(threads=1, tt_bytes=1 << 20)
        start = time.perf_counter()
        solver.analyze(board)
        fresh.append(time.perf_counter() - start)
    print(f"tic-tac-toe: {len(boards)} positions not over")
    print(f"  analyze, warm solver: median {harness.median(per_call) * 1e6:.1f} us per position")
    print(
        f"  analyze, fresh 1 MiB solver each ({len(fresh)} positions): median "
        f"{harness.median(fresh) * 1e6:.1f} us, max {max(fresh) * 1e6:.1f} us"
    )


def empty_boards(shapes: list[tuple[int, int, int]], rounds: int) -> float:
    total = 0.0
    for m, n, k in shapes:
        times, nodes, score = [], 0, 0
        for _ in range(rounds):
            solver = inarow.Solver(threads=1)
            start = time.perf_counter()
            score = solver.solve(inarow.Board(inarow.Rules(m, n, k, gravity=False)))
            times.append(time.perf_counter() - start)
            nodes = solver.nodes
        median = harness.median(times)
        total += median
        print(f"  {m},{n},{k}: score {score:+d}, {nodes:,} nodes, median {median:.4f} s")
    return total


def main() -> None:
    parser = harness.parser(__doc__)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    harness.print_machine()
    tic_tac_toe(args.rounds)
    print("empty boards, m,n <= 5:")
    total = empty_boards(SMALL, args.rounds)
    print(f"  total of the medians: {total:.3f} s")
    print("empty boards, 6x6:")
    empty_boards(LARGE, args.rounds)


if __name__ == "__main__":
    main()
