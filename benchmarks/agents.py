"""Agents: match throughput, move-accuracy time, and the built-in agents' strength.

    python benchmarks/agents.py                      # throughput + a small strength table
    python benchmarks/agents.py --games 200 --pons 100 --perfect-games 20
    python benchmarks/agents.py --games 0 --rr-games 0 --perfect-games 40 --pons 1000

Prints games per minute of ``inarow.evaluate.match`` for random/greedy/negamax on
Connect Four, the time of ``move_accuracy`` per agent, a round robin of negamax
depths 1..6 (and greedy, random), each against ``perfect``, and good-move rates on
the first ``--pons`` positions of each of Pons' sets (with the shipped analyses
where present, else solved here: slow for the Begin sets).
"""

from __future__ import annotations

import time
from pathlib import Path

import harness

import inarow
from inarow import agents, evaluate


def throughput(games: int, threads: int | None) -> None:
    print(f"match throughput, Connect Four, {games} games each, both seats")
    pairs = [
        ("random", agents.random(), agents.random(), 1),
        ("greedy", agents.greedy(), agents.greedy(), 1),
        ("negamax:2", agents.negamax(2), agents.negamax(2), 10),
        ("negamax:4", agents.negamax(4), agents.negamax(4), 100),
    ]
    for name, a, b, divisor in pairs:
        n = max(2, games // divisor)
        r = evaluate.match(a, b, games=n, seed=0, threads=threads)
        print(
            f"  {name:>10} vs itself: {n:>7} games in {r.seconds:7.2f} s = "
            f"{r.games_per_minute:>12,.0f} games/min ({r.moves / r.seconds:,.0f} moves/s)"
        )


def round_robin(
    entrants: dict, games: int, perfect_games: int, threads: int | None, opening: int
) -> None:
    names = list(entrants)
    columns = names if games else []  # 0 games: only the column against perfect
    print(
        f"\nscore of the row agent against the column agent ({games or perfect_games} games, "
        f"both seats, {opening} random opening plies)"
    )
    print(" " * 10 + "".join(f"{n:>11}" for n in columns) + f"{'perfect':>11}")
    for row in names:
        cells = []
        for col in columns:
            if row == col:
                cells.append(f"{'-':>11}")
                continue
            r = evaluate.match(
                entrants[row],
                entrants[col],
                games=games,
                seed=1,
                threads=threads,
                opening_plies=opening,
            )
            cells.append(f"{r.score:>11.3f}")
        if perfect_games:
            r = evaluate.match(
                entrants[row],
                agents.perfect(),
                games=perfect_games,
                seed=1,
                threads=threads,
                opening_plies=opening,
            )
            cells.append(f"{r.score:>7.3f} W{r.wins}/D{r.draws}/L{r.losses}")
        print(f"{row:>10}" + "".join(cells), flush=True)


def accuracy(entrants: dict, per_set: int, threads: int | None) -> None:
    print(f"\ngood-move / perfect-move rates on the first {per_set} positions of each Pons set")
    truth_note = True
    for name, agent in entrants.items():
        r = evaluate.move_accuracy(agent, "pons", per_set=per_set, threads=threads)
        if truth_note:
            print(f"  (truth: {r.truth_seconds:.1f} s)")
            truth_note = False
        sets = "  ".join(f"{evaluate.PONS_SETS[s]}: {a.good_rate:5.1%}" for s, a in r.sets.items())
        print(
            f"  {name:>10}: good {r.good_rate:6.1%}  perfect {r.perfect_rate:6.1%}  "
            f"({r.agent_seconds:.2f} s for {r.overall.positions} positions)  {sets}",
            flush=True,
        )


def main() -> None:
    p = harness.parser(__doc__)
    p.add_argument(
        "--games", type=int, default=100_000, help="games of the throughput runs (0: skip them)"
    )
    p.add_argument(
        "--rr-games",
        type=int,
        default=100,
        help="games per round-robin pairing (0: only against perfect)",
    )
    p.add_argument("--perfect-games", type=int, default=0, help="games against perfect")
    p.add_argument("--pons", type=int, default=50, help="positions per Pons set (0: skip)")
    p.add_argument("--threads", type=int, default=None)
    p.add_argument("--max-depth", type=int, default=6)
    p.add_argument("--opening-plies", type=int, default=4, help="random plies opening each game")
    p.add_argument(
        "--pons-dir",
        type=Path,
        default=None,
        help="read the Pons sets and analyses from here instead of the package "
        "(e.g. the output of scripts/pons_analysis.py --limit N)",
    )
    args = p.parse_args()
    harness.print_machine()
    if args.pons_dir is not None:
        evaluate.pons._pons_dir = lambda: args.pons_dir
    print(f"inarow {inarow.__version__}")
    if args.games:
        throughput(args.games, args.threads)
    entrants = {"random": agents.random(), "greedy": agents.greedy()}
    entrants |= {f"negamax:{d}": agents.negamax(d) for d in range(1, args.max_depth + 1)}
    t0 = time.perf_counter()
    round_robin(entrants, args.rr_games, args.perfect_games, args.threads, args.opening_plies)
    print(f"  ({time.perf_counter() - t0:.0f} s)")
    if args.pons:
        accuracy(entrants, args.pons, args.threads)


if __name__ == "__main__":
    main()
