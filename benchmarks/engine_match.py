"""A Gomocup brain (an external engine) against an inarow agent, in ``evaluate.match``:
the same openings and seating as any match of inarow's agents.

    python benchmarks/engine_match.py --engine /path/to/pbrain-rapfi --opponent negamax:4 \\
        --rules 9,9,5 --time 0.5 --games 40 --seed 9602
    python benchmarks/engine_match.py --engine /path/to/pbrain-rapfi --opponent threats:0.5 \\
        --rules 15,15,5 --rule renju --book renju-26 --time 0.5 --games 52

The openings: ``--opening-plies`` random plies (the default, as in any match), or a
book with ``--book``: a shipped book's name (``freestyle-15``, ``renju-26``: written for
15x15) or a book file (``inarow.tournament.load_book``'s format), round r opening with
the book's opening r mod its size, each opening from both seats. ``--rule`` is the
win rule (freestyle, standard, renju), told to the engine as ``INFO rule``.

Prints the engine's wins/draws/losses with the 95% Wilson interval of its win share,
its results from each seat, and the match's wall time. ``benchmarks/gomocup_rating.py``
is the other direction: an inarow agent rated against the engine on gomoku openings.
"""

from __future__ import annotations

import argparse
import shlex
import time

import harness

import inarow
from inarow.engines import Gomocup
from inarow.tournament.match import RULES


def _size(text: str) -> tuple[int, int, int]:
    try:
        w, h, k = (int(t) for t in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--rules wants W,H,K (three integers), got {text!r}"
        ) from None
    return w, h, k


def main() -> None:
    p = harness.parser(__doc__)
    p.add_argument("--engine", required=True, help="the brain's command line")
    p.add_argument("--engine-cwd", default=None, help="the brain's working directory")
    p.add_argument("--opponent", default="negamax:4", help="an inarow agent name")
    p.add_argument("--rules", type=_size, default="9,9,5", help="W,H,K (2 players, free)")
    p.add_argument("--rule", default="freestyle", choices=list(RULES))
    p.add_argument(
        "--book",
        default=None,
        help="openings from a book: freestyle-15, renju-26 or a book file (default: random plies)",
    )
    p.add_argument("--time", type=float, default=0.5, help="the engine's seconds a move")
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--opening-plies", type=int, default=2)
    args = p.parse_args()
    width, height, k = args.rules
    rules = inarow.Rules(width, height, k, gravity=False, rule=args.rule)
    openings = dict(openings=args.book) if args.book else dict(opening_plies=args.opening_plies)
    harness.print_machine()
    t = time.monotonic()
    with Gomocup(
        shlex.split(args.engine),
        timeout_turn=args.time,
        k=k,
        rule=args.rule,
        startup_timeout=30.0,
        cwd=args.engine_cwd,
    ) as engine:
        name = f"{engine.about.get('name', 'engine')} {engine.about.get('version', '')}".strip()
        r = inarow.evaluate.match(
            engine,
            args.opponent,
            games=args.games,
            rules=rules,
            seed=args.seed,
            threads=1,
            **openings,
        )
    lo, hi = r.win_interval
    print(
        f"{name} ({args.time} s a move) against {args.opponent}, {rules}, "
        f"openings: {r.openings or f'{args.opening_plies} random plies'}, seed {args.seed}: "
        f"W/D/L {r.wins}/{r.draws}/{r.losses}, wins {r.win_rate:.1%} [{lo:.1%}, {hi:.1%}]"
    )
    for s in r.seats:
        print(f"  as player {s.seat}: W/D/L {s.wins}/{s.draws}/{s.losses}")
    print(f"({time.monotonic() - t:.0f} s)")


if __name__ == "__main__":
    main()
