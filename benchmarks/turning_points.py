"""Turning points of lost gomoku games: does a player find the move that survives?

    python benchmarks/turning_points.py extract LOG POINTS.jsonl [--limit 80]
    python benchmarks/turning_points.py score "threats" POINTS.jsonl --time 0.5
    python benchmarks/turning_points.py score "gomocup:/path/to/pbrain-rapfi" POINTS.jsonl \
        --engine-cwd /path/to/build --time 0.5

``extract`` reads a match log of ``inarow.tournament`` and, in each game player A
lost, finds A's first move after which the opponent has a victory by continuous
threats (``find_win(kind="vct")``, depth 20, 200,000 nodes): the turning point. The
position before that move is kept, with A to move, when at least one candidate move
(an empty cell within two of a stone) leaves the opponent no such win (100,000 nodes
each): those are its *safe* moves. One JSON line a point (the moves, the rule, the
safe cells, the move A played); a rerun appends.

``score`` asks a player (a ``--a`` spec of ``inarow.tournament``: ``threats``,
``threats:native=PATH``, ``gomocup:COMMAND``...) for its move at each point and counts
the safe ones (a move outside the list is checked the same way), with a 95% Wilson
interval. The points come from the games A lost, so the player who lost them scores
low on its own points by construction: compare players on points drawn from other
games than those any of them was tuned on.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

import harness

import inarow
from inarow.threats import find_win
from inarow.tournament.match import make_player, new_board

TURN_NODES = 200_000
SAFE_NODES = 100_000
DEPTH = 20


def opponent_wins(board: inarow.Board, nodes: int) -> bool:
    """Whether the side to move has a VCT within ``DEPTH`` and ``nodes``."""
    return find_win(board, "vct", max_depth=DEPTH, max_nodes=nodes) is not None


def candidates(board: inarow.Board) -> list[int]:
    """The empty cells within two cells of a stone that the side to move may play."""
    grid = board.to_numpy()
    height, width = grid.shape
    return [
        r * width + c
        for r in range(height)
        for c in range(width)
        if grid[r, c] == 0
        and (grid[max(0, r - 2) : r + 3, max(0, c - 2) : c + 3] != 0).any()
        and board.is_legal(r * width + c)
    ]


def safe(board: inarow.Board, cell: int) -> bool:
    """Whether after ``cell`` the opponent has no VCT (within ``SAFE_NODES``)."""
    after = board.copy()
    after.move(cell)
    return not opponent_wins(after, SAFE_NODES)


def turning_point(record: dict[str, Any], size: int, rule: str) -> dict[str, Any] | None:
    """The lost game's turning point (see the module docs), or None."""
    seat = record["a_seat"]
    board = new_board(size, rule)
    first = len(record["opening_moves"]) - 1
    for i, action in enumerate(record["moves"]):
        board.move(action)
        if i >= first and 1 + i % 2 == seat and opponent_wins(board, TURN_NODES):
            before = new_board(size, rule)
            for a in record["moves"][:i]:
                before.move(a)
            cells = [c for c in candidates(before) if safe(before, c)]
            if not cells:
                return None
            return {
                "pair": record["pair"],
                "seat": seat,
                "size": size,
                "rule": rule,
                "moves": record["moves"][:i],
                "safe": cells,
                "played": action,
            }
    return None


def extract(log: Path, out: Path, limit: int) -> None:
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    config = lines[0]["config"]
    kept = 0
    with out.open("a") as f:
        for record in lines:
            if record["winner"] in (0, record["a_seat"]):
                continue
            point = turning_point(record, config["size"], config["rule"])
            if point is None:
                continue
            f.write(json.dumps(point) + "\n")
            f.flush()
            kept += 1
            print(
                f"pair {record['pair']:3d} seat {record['a_seat']}: "
                f"{len(point['safe'])} safe moves",
                flush=True,
            )
            if kept >= limit:
                break
    print(f"{kept} turning points in {out}")


def wilson(hits: int, n: int, z: float = 1.96) -> tuple[float, float]:
    p = hits / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - spread) / (1 + z * z / n), (centre + spread) / (1 + z * z / n)


def score(spec: str, points_path: Path, seconds: float, cwd: str | None) -> None:
    points = [json.loads(line) for line in points_path.read_text().splitlines() if line]
    if not points:
        sys.exit(f"{points_path} holds no turning points")
    player = make_player(spec, time_limit=seconds, rule=points[0]["rule"], cwd=cwd)
    hits = 0
    try:
        for i, point in enumerate(points):
            board = new_board(point["size"], point["rule"])
            for action in point["moves"]:
                board.move(action)
            player.start_game(1000 + i)
            move = player.play(board)
            ok = move in point["safe"] or (move != point["played"] and safe(board, move))
            hits += ok
    finally:
        player.close()
    lo, hi = wilson(hits, len(points))
    print(f"{spec}: {hits} of {len(points)} safe, {hits / len(points):.3f} [{lo:.3f}, {hi:.3f}]")


def main() -> None:
    parser = harness.parser(__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    ext = sub.add_parser("extract", help="turning points of a match log's lost games")
    ext.add_argument("log", type=Path)
    ext.add_argument("out", type=Path)
    ext.add_argument("--limit", type=int, default=80, help="most points kept")
    sco = sub.add_parser("score", help="how often a player's move at the points is safe")
    sco.add_argument("player")
    sco.add_argument("points", type=Path)
    sco.add_argument("--time", type=float, default=0.5, help="seconds a move")
    sco.add_argument("--engine-cwd", default=None, help="working folder of a Gomocup brain")
    args = parser.parse_args()
    harness.print_machine()
    if args.command == "extract":
        extract(args.log, args.out, args.limit)
    else:
        score(args.player, args.points, args.time, args.engine_cwd)


if __name__ == "__main__":
    main()
