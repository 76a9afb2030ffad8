"""``python -m inarow.tournament``: a match of two engines over an opening book.

    python -m inarow.tournament --a threats --b "gomocup:/path/to/pbrain-rapfi" \\
        --time 0.5 --book freestyle-15 --pairs 100 --log rapfi-0.5.jsonl
    python -m inarow.tournament --a threats:nodes=20000 --b threats:nodes=10000 \\
        --book freestyle-15 --pairs 400 --sprt 0,20 --log ab.jsonl
    python -m inarow.tournament --summary rapfi-0.5.jsonl      # a log's statistics
    python -m inarow.tournament --show rapfi-0.5.jsonl:7         # game 7: moves, board

Each opening of the book is played from both seats (A black, then A white), in book
order, ``--pairs`` openings in all (the book repeats when it is shorter: the in-process
players' seeds differ from round to round). Every game is appended to ``--log`` as a line
of JSON (settings, opening, A's seat, winner, every action: ``inarow.tournament.replay``
rebuilds the board), and a rerun with the same settings and log plays only the games
missing. Prints each game, then A's results: W/D/L, by seat, the pairs' points, the
score and Elo difference with 95% intervals per game and per pair, and with ``--sprt``
the LLR and its bounds (the match stops when the SPRT decides). With ``--base-log LOG
--paired-sprt H0,H1`` the match is paired, game by game, with another engine's match
against the same B on the same book, pairs and seed (``inarow.tournament.compare``),
and stops when the paired SPRT decides; it needs ``--log`` to print the comparison.
"""

from __future__ import annotations

import argparse
import sys

from inarow.tournament import compare, match
from inarow.tournament.book import cell_name, load_book


def _sprt(text: str) -> tuple[float, float]:
    elo0, elo1 = (float(t) for t in text.split(","))
    return elo0, elo1


def show(record: match.GameRecord) -> str:
    """A logged game: who played which seat, its moves in gomoku notation, the final
    board, and the ``inarow play`` command that opens it."""
    size = record.config["size"]
    seats = {record.a_seat: record.config["a"], 3 - record.a_seat: record.config["b"]}
    numbered = " ".join(f"{i + 1}.{cell_name(m, size)}" for i, m in enumerate(record.moves))
    rule = record.config["rule"]
    command = (
        f"inarow play --rules gomoku --width {size} --height {size} --moves "
        f'"{" ".join(str(m) for m in record.moves)}"'
    )
    return "\n".join(
        [
            f"{record.opening} (pair {record.pair + 1}), {rule}: player 1 (X) {seats[1]}, "
            f"player 2 (O) {seats[2]}; {match.describe(record).split(': ', 1)[1]}",
            numbered,
            str(match.replay(record)).rstrip(),
            command,
        ]
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m inarow.tournament",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--a", help="the engine under test (see inarow.tournament.match)")
    p.add_argument("--b", help="the reference engine")
    p.add_argument("--book", default="freestyle-15", help="a shipped book's name or a path")
    p.add_argument("--rule", default="freestyle", choices=list(match.RULES))
    p.add_argument("--size", type=int, default=15)
    p.add_argument("--time", type=float, default=None, help="seconds a move, each side")
    p.add_argument("--nodes", type=int, default=None, help="inarow's positions a move instead")
    p.add_argument("--threads", type=int, default=1, help="threads of inarow's engines")
    p.add_argument("--pairs", type=int, default=None, help="openings x 2 seats (default: the book)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--log", default=None, help="JSON lines file: one game a line, resumable")
    p.add_argument("--sprt", type=_sprt, default=None, metavar="ELO0,ELO1")
    p.add_argument("--alpha", type=float, default=0.05)
    p.add_argument("--beta", type=float, default=0.05)
    p.add_argument(
        "--base-log",
        default=None,
        metavar="LOG",
        help="another engine's match against the same B (same book, pairs, seed): "
        "with --paired-sprt, stop when the paired SPRT against it decides",
    )
    p.add_argument(
        "--paired-sprt",
        type=compare.hypotheses_argument,
        default=None,
        metavar="H0,H1",
        help="mean paired differences in points a pair (e.g. 0,0.1); needs --base-log",
    )
    p.add_argument("--engine-cwd", default=None, help="B's working directory (a brain's)")
    p.add_argument("--summary", default=None, metavar="LOG", help="only summarize a log")
    p.add_argument(
        "--show",
        default=None,
        metavar="LOG:N",
        help="print game N of a log (from 1): its moves, the final board, and the "
        "inarow play command that opens it",
    )
    args = p.parse_args(argv)

    if args.show:
        path, _, number = args.show.rpartition(":")
        records = match.read_log(path)
        if not number.isdigit() or not 1 <= int(number) <= len(records):
            p.error(f"--show {args.show}: give LOG:N with N from 1 to {len(records)}")
        print(show(records[int(number) - 1]))
        return 0
    sprt = None if args.sprt is None else (*args.sprt, args.alpha, args.beta)
    if args.summary:
        records = match.read_log(args.summary)
        if not records:
            p.error(f"no games in {args.summary}")
        print(f"{records[0].config['a']} (A) against {records[0].config['b']} (B)")
        print(match.summarize(records, sprt))
        return 0
    if not args.a or not args.b:
        p.error("--a and --b are required (or --summary LOG)")
    if args.time is None and args.nodes is None:
        p.error("give --time or --nodes")
    book = load_book(args.book, args.size)
    pairs = len(book) if args.pairs is None else args.pairs
    budget = " ".join(
        ([f"{args.time:g} s"] if args.time is not None else [])
        + ([f"{args.nodes} nodes"] if args.nodes is not None else [])
    )
    stop = None
    if (args.base_log is None) != (args.paired_sprt is None):
        p.error("--base-log and --paired-sprt go together")
    if args.base_log is not None:
        config = match.match_config(
            args.a,
            args.b,
            book,
            args.size,
            args.rule,
            args.time,
            args.nodes,
            args.seed,
            args.threads,
        )
        try:
            stop = compare.paired_stop(
                match.read_log(args.base_log), config, *args.paired_sprt, args.alpha, args.beta
            )
        except ValueError as e:
            p.error(f"--base-log {args.base_log}: {e}")
    print(
        f"A: {args.a}; B: {args.b}; {args.size}x{args.size} {args.rule}, {budget} a move; "
        f"book {args.book} ({len(book)} openings), {pairs} pairs, seed {args.seed}",
        flush=True,
    )
    summary = match.run(
        args.a,
        args.b,
        book,
        pairs=pairs,
        size=args.size,
        rule=args.rule,
        time_limit=args.time,
        nodes=args.nodes,
        seed=args.seed,
        log=args.log,
        sprt=sprt,
        threads=args.threads,
        cwd=args.engine_cwd,
        on_game=lambda r: print(match.describe(r), flush=True),
        stop=stop,
    )
    print(summary)
    if args.base_log is not None and args.log is not None:
        try:
            d = compare.paired_difference(match.read_log(args.log), match.read_log(args.base_log))
        except compare.TooFewPairs as e:
            print(f"paired with {args.base_log}: {e}")
        else:
            print(f"paired with {args.base_log}: {d}")
            print(f"  {compare.paired_sprt(d, *args.paired_sprt, args.alpha, args.beta)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
