"""Generates the freestyle opening book ``python/inarow/data/openings/freestyle-15.txt``.

    python scripts/generate_openings.py > python/inarow/data/openings/freestyle-15.txt

The candidates are every 3-stone opening (black, white, black; white to move) within
``--radius`` cells of the centre of 15x15 (the centre 7x7 by default), one per class of the board's 8 symmetries, in a fixed order
shuffled by ``--seed``. Each candidate is judged by ``--games`` games of the threat
engine against itself (``agents.threats(nodes=--nodes)``, a different seed each game):
it is kept when black scores between ``--low`` and ``--high`` of those points (neither
side wins every game), until ``--count`` are kept. The judge is weak and the games few,
so the book is *balanced-looking*, not balanced: every opening is played from both
seats, which cancels what imbalance is left, and a match reports black's share of the
points (``docs/threats.md``). Deterministic: the same arguments write the same book.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import inarow
from inarow.tournament.book import cell_name

SIZE = 15


def _symmetries(cell: tuple[int, int]) -> list[tuple[int, int]]:
    r, c = cell
    m = SIZE - 1
    return [
        (r, c),
        (c, m - r),
        (m - r, m - c),
        (m - c, r),
        (r, m - c),
        (m - c, m - r),
        (m - r, c),
        (c, r),
    ]


def candidates(radius: int = 2) -> list[tuple[tuple[int, int], int]]:
    """Every (black cells, white cell) within ``radius`` of the centre, one per symmetry
    class (its smallest image), as actions, sorted."""
    centre = SIZE // 2
    cells = [
        (centre + dr, centre + dc)
        for dr in range(-radius, radius + 1)
        for dc in range(-radius, radius + 1)
    ]
    seen = set()
    for i, b1 in enumerate(cells):
        for b2 in cells[i + 1 :]:
            for w in cells:
                if w in (b1, b2):
                    continue
                images = []
                for k in range(8):
                    x1, x2, y = (_symmetries(c)[k] for c in (b1, b2, w))
                    blacks = tuple(sorted(r * SIZE + c for r, c in (x1, x2)))
                    images.append((blacks, y[0] * SIZE + y[1]))
                seen.add(min(images))
    return sorted(seen)


def black_score(blacks: tuple[int, int], white: int, games: int, nodes: int, seed: int) -> float:
    """Black's share of the points in ``games`` self-play games from the opening."""
    points = 0.0
    for g in range(games):
        board = inarow.Board.gomoku(SIZE)
        for action in (blacks[0], white, blacks[1]):
            board.move(action)
        engines = {
            p: inarow.agents.threats(nodes=nodes, seed=seed * 1000 + 2 * g + p) for p in (1, 2)
        }
        while not board.is_over:
            board.move(engines[board.current_player](board))
        points += 1.0 if board.winner == 1 else 0.5 if board.winner is None else 0.0
    return points / games


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--count", type=int, default=50)
    p.add_argument("--games", type=int, default=4)
    p.add_argument("--nodes", type=int, default=10_000)
    p.add_argument("--low", type=float, default=0.25)
    p.add_argument("--high", type=float, default=0.75)
    p.add_argument("--radius", type=int, default=3, help="cells from the centre")
    p.add_argument("--seed", type=int, default=2026)
    args = p.parse_args()
    pool = candidates(args.radius)
    random.Random(args.seed).shuffle(pool)
    kept = []
    began = time.monotonic()
    for tried, (blacks, white) in enumerate(pool, 1):
        score = black_score(blacks, white, args.games, args.nodes, args.seed + tried)
        if args.low <= score <= args.high:
            kept.append((blacks, white, score))
            print(
                f"kept {len(kept)}/{args.count} after {tried} tried "
                f"({time.monotonic() - began:.0f} s)",
                file=sys.stderr,
                flush=True,
            )
        if len(kept) == args.count:
            break
    print(
        f"# 15x15 freestyle centre openings: black, white, black within {args.radius} cells of\n"
        f"# the centre, white to move; "
        f"{len(kept)} kept of {tried} candidates ({len(pool)} symmetry classes),\n"
        f"# black scoring {args.low:g}-{args.high:g} in {args.games} games of "
        f"agents.threats(nodes={args.nodes}) against itself.\n"
        f"# Written by: python scripts/generate_openings.py --count {args.count} --games "
        f"{args.games} --nodes {args.nodes} --radius {args.radius} --seed {args.seed}\n"
        f"# name  black white black  # black's score in the judging games"
    )
    for i, (blacks, white, score) in enumerate(kept, 1):
        cells = " ".join(cell_name(a, SIZE) for a in (blacks[0], white, blacks[1]))
        print(f"f{i:02d} {cells}  # {score:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
