"""Where engine A's lost games were lost to a forced win: for each game of a match
log (``python -m inarow.tournament --log``) that A lost, the first position after
one of A's moves where the opponent, to move, has a VCT that ``inarow.threats``
finds (``--depth`` threats at most, ``--nodes`` nodes), its length in actions,
and how many plies the game went on after it.

    python scripts/vct_onsets.py match.jsonl [--seat 1] [--games 25] [--nodes 200000]

A VCT found right after A's move means that move allowed a forced win of that
length (or every move did). The threat engine checks its root moves against the
opponent's VCTs of 8 threats (``DEFENCE_VCT_DEPTH``); onsets longer than that are
the ones it cannot see.
"""

from __future__ import annotations

import argparse
import statistics
import sys

from inarow.threats import find_win
from inarow.tournament.match import new_board, read_log


def onset(record, depth: int, nodes: int) -> tuple[int, int] | None:
    """(the ply after which the opponent first has a VCT, the VCT's length), or None."""
    board = new_board(record.config["size"], record.config["rule"])
    opening = len(record.opening_moves)
    for ply, action in enumerate(record.moves):
        board.move(action)
        a_moved = (ply % 2 == 0) == (record.a_seat == 1)
        if ply + 1 > opening and a_moved and not board.is_over:
            line = find_win(board, "vct", max_depth=depth, max_nodes=nodes)
            if line is not None:
                return ply + 1, len(line)
    return None


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("log")
    p.add_argument("--seat", type=int, choices=(1, 2), default=None, help="A's seat only")
    p.add_argument("--games", type=int, default=25, help="the first N games A lost")
    p.add_argument("--depth", type=int, default=10, help="threats at most")
    p.add_argument("--nodes", type=int, default=200_000)
    args = p.parse_args(argv)
    lost = [
        r
        for r in read_log(args.log)
        if r.winner not in (0, r.a_seat) and args.seat in (None, r.a_seat)
    ][: args.games]
    if not lost:
        p.error(f"{args.log}: no lost games of A (seat {args.seat or 'either'})")
    after = []
    for r in lost:
        found = onset(r, args.depth, args.nodes)
        plies = len(r.moves)
        if found is None:
            print(f"pair {r.pair + 1} {r.opening} A as {r.a_seat}: {plies} plies, no VCT found")
        else:
            at, length = found
            after.append(plies - at)
            print(
                f"pair {r.pair + 1} {r.opening} A as {r.a_seat}: {plies} plies, the "
                f"opponent's VCT of {length} actions after ply {at} ({plies - at} before the end)"
            )
    if after:
        print(
            f"{len(after)} of {len(lost)} lost games had an onset; plies from it to the end: "
            f"median {statistics.median(after):g}, range {min(after)}-{max(after)}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
