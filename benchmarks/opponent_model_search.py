"""Whether a win against fixed opponents exists within a few of one's own moves: a
player that models the opponents exactly (it tries each move, lets the modeled
opponents reply, and takes a line that leaves it an immediate win within ``--depth``
of its own moves, else plays the fallback agent) in a match against them.

    python benchmarks/opponent_model_search.py --rules 8,8,5,3 --opponent negamax:2 \\
        --depth 2 --games 6 --seed 11
    python benchmarks/opponent_model_search.py --depth 4 --candidates 8 --games 6

``--candidates N`` looks deeper for the same work: at each of its own moves it tries
only the ``N`` cells where its open lines are strongest (each ``k``-cell window free of
other stones through the cell counts ``4 ** (own stones in it)``), where ``0`` (the
default) tries every legal move.

The model draws its own tie-breaks, so where the opponents choose among equal moves
at random the model can be wrong; a line it finds is then only a chance of a win.
"""

from __future__ import annotations

import functools
import time

import harness
import numpy as np

from inarow import agents, evaluate


def _rules(text: str) -> dict:
    w, h, k, players = (int(t) for t in text.split(","))
    return dict(width=w, height=h, k=k, players=players, gravity=False)


def _winning_move(board) -> int | None:
    me = board.current_player
    for a in board.legal_moves():
        after = board.copy()
        after.move(a)
        if after.winner == me:
            return a
    return None


@functools.cache
def _windows(width: int, height: int, k: int) -> np.ndarray:
    """Every line of ``k`` cells on the board, as flat cell indices (one row each)."""
    lines = []
    for r in range(height):
        for c in range(width):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                er, ec = r + dr * (k - 1), c + dc * (k - 1)
                if 0 <= er < height and 0 <= ec < width:
                    lines.append([(r + dr * i) * width + c + dc * i for i in range(k)])
    return np.array(lines, dtype=np.intp)


def _attacking_moves(board, count: int) -> list[int]:
    """The ``count`` empty cells where the side to move's open lines are strongest."""
    windows = _windows(board.width, board.height, board.k)
    cells = board.to_numpy().ravel()
    me = board.current_player
    stones = cells[windows]
    open_lines = ~((stones != 0) & (stones != me)).any(axis=1)
    weight = np.where(open_lines, 4.0 ** (stones == me).sum(axis=1), 0.0)
    score = np.zeros(cells.size)
    np.add.at(score, windows, weight[:, None])
    score[cells != 0] = -1.0
    best = np.argsort(-score, kind="stable")[:count]
    return [int(a) for a in best if score[a] >= 0]


def model_search_agent(model, fallback, depth: int, players: int, candidates: int = 0):
    def own_moves(board) -> list[int]:
        if candidates <= 0:
            return board.legal_moves()
        return _attacking_moves(board, candidates)

    def reply(boards) -> None:
        """The modeled opponents move in every unfinished board, in turn."""
        for _ in range(players - 1):
            live = [b for b in boards if not b.is_over]
            if not live:
                return
            for b, a in zip(live, model.actions(live, threads=1, seed=1)):
                b.move(int(a))

    def agent(board) -> int:
        win = _winning_move(board)
        if win is not None:
            return win
        me = board.current_player
        frontier = []
        for first in own_moves(board):
            after = board.copy()
            after.move(first)
            frontier.append((first, after))
        for level in range(depth):
            reply([b for _, b in frontier])
            deeper = []
            for first, b in frontier:
                if b.is_over:
                    continue
                if _winning_move(b) is not None:
                    return first
                if level + 1 < depth:
                    for move in own_moves(b):
                        after = b.copy()
                        after.move(move)
                        if after.winner == me:
                            return first
                        deeper.append((first, after))
            frontier = deeper
        return fallback(board)

    return agent


def main() -> None:
    p = harness.parser(__doc__)
    p.add_argument("--rules", type=_rules, default="8,8,5,3", help="W,H,K,PLAYERS (free)")
    p.add_argument("--opponent", default="negamax:2")
    p.add_argument("--depth", type=int, default=1, help="own moves looked ahead")
    p.add_argument(
        "--candidates", type=int, default=0, help="own moves tried at each level (0: all)"
    )
    p.add_argument("--games", type=int, default=12)
    p.add_argument("--seed", type=int, default=11)
    args = p.parse_args()
    harness.print_machine()
    agent = model_search_agent(
        agents.named(args.opponent, seed=args.seed + 1),
        agents.named(args.opponent, seed=args.seed + 2),
        args.depth,
        args.rules["players"],
        args.candidates,
    )
    t = time.monotonic()
    r = evaluate.match(
        agent, agents.named(args.opponent), games=args.games, rules=args.rules, seed=args.seed
    )
    lo, hi = r.win_interval
    print(
        f"depth {args.depth} candidates {args.candidates or 'all'} against {args.opponent}: W/D/L {r.wins}/{r.draws}/{r.losses}, "
        f"wins {r.win_rate:.1%} [{lo:.1%}, {hi:.1%}] ({time.monotonic() - t:.0f} s)"
    )


if __name__ == "__main__":
    main()
