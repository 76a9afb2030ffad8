"""The Connect Four moonshot's measures of a network (docs/training.md, "Connect Four").

    python benchmarks/moonshot.py                                    # the shipped network
    python benchmarks/moonshot.py --weights runs/c4/network.npz --seed 7202
    python benchmarks/moonshot.py --per-length 10 --pons-per-set 20 --games 10   # a quick look

Good moves (the move keeps the position's win/draw/loss, judged by the solver) on
fresh random openings of 6-16 plies and on Pons' six sets, for the raw policy and
with search; the median move on one core (numpy, one BLAS thread) on those
openings; the score against ``perfect()`` from random 4-ply openings, each played
from both seats. Rates come with 95% Wilson intervals; the targets are printed
beside them. Draw fresh openings with a new ``--seed`` rather than tuning on one.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import statistics
import time

import inarow
from inarow import agents, evaluate
from inarow.pretrained import NetworkAgent

TARGET_GOOD, TARGET_RAW, TARGET_MS = 0.98, 0.95, 50.0


def make_agent(
    weights: str | None, simulations: int, proof_nodes: int, symmetric: bool
) -> NetworkAgent:
    settings = dict(simulations=simulations, proof_nodes=proof_nodes, symmetric=symmetric)
    if weights is None:
        return agents.pretrained("connect_four", **settings)
    return agents.load(weights, **settings)


def rate(result: evaluate.AccuracyResult) -> str:
    lo, hi = result.overall.good_interval
    return f"{result.good_rate:6.2%} [{lo:.1%}, {hi:.1%}] of {result.overall.positions}"


def move_times(agent: NetworkAgent, boards: list[inarow.Board]) -> tuple[float, float]:
    """Median wall and CPU milliseconds of one ``agent(board)`` call on a position
    never seen before (the agent's cache of network outputs emptied each time)."""
    agent(boards[0].copy())  # warm-up
    wall, cpu = [], []
    for board in boards:
        agent.clear_cache()
        t, c = time.perf_counter(), time.process_time()
        agent(board.copy())
        wall.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    return 1000 * statistics.median(wall), 1000 * statistics.median(cpu)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--weights", help="a network.npz (default: the shipped Connect Four network)")
    p.add_argument("--simulations", type=int, default=200)
    p.add_argument("--proof-nodes", type=int, default=0)
    p.add_argument(
        "--symmetric", action="store_true", help="average the network over the board's mirror"
    )
    p.add_argument("--seed", type=int, default=7201, help="seed of the random openings")
    p.add_argument("--lengths", type=int, nargs="+", default=[6, 8, 10, 12, 14, 16])
    p.add_argument("--per-length", type=int, default=50)
    p.add_argument("--pons-per-set", type=int, default=None, help="default: all 1000")
    p.add_argument("--timed", type=int, default=40, help="openings the move is timed on (0: none)")
    p.add_argument("--games", type=int, default=100, help="games against perfect (0: none)")
    p.add_argument("--match-seed", type=int, default=4401)
    p.add_argument("--threads", type=int, default=None, help="threads choosing moves (timing: 1)")
    args = p.parse_args()

    name = args.weights or "the shipped connect_four network"
    print(
        f"{name}, {args.simulations} simulations, proof_nodes={args.proof_nodes}, "
        f"symmetric={args.symmetric}"
    )
    sets = evaluate.judged_positions(
        "connect_four", args.per_length, seed=args.seed, lengths=args.lengths
    )
    openings = [b for boards in sets.values() for b in boards]
    raw = make_agent(args.weights, 0, 0, args.symmetric)
    searched = make_agent(args.weights, args.simulations, args.proof_nodes, args.symmetric)

    t = time.perf_counter()
    rows = []
    for label, positions, per_set in (
        (f"openings of {min(args.lengths)}-{max(args.lengths)} plies", sets, None),
        ("Pons' six sets", "pons", args.pons_per_set),
    ):
        raw_r = evaluate.move_accuracy(raw, positions, per_set, threads=args.threads)
        searched_r = evaluate.move_accuracy(searched, positions, per_set, threads=args.threads)
        rows.append((label, raw_r, searched_r))
    print(f"(judged in {time.perf_counter() - t:.0f} s)\n")
    print(f"{'good moves':<28} {'raw policy':<30} {f'{args.simulations} simulations':<30}")
    for label, raw_r, searched_r in rows:
        print(f"{label:<28} {rate(raw_r):<30} {rate(searched_r):<30}")
    print(f"{'target':<28} {f'>= {TARGET_RAW:.0%}':<30} {f'>= {TARGET_GOOD:.0%}':<30}")
    for label, _, searched_r in rows:
        per_set = ", ".join(
            f"{evaluate.PONS_SETS.get(n, n)} {s.good_rate:.1%}" for n, s in searched_r.sets.items()
        )
        print(f"  {label}, searched: {per_set}")

    if args.timed > 0:
        wall, cpu = move_times(searched, openings[:: max(1, len(openings) // args.timed)])
        print(
            f"\nmedian move, one core: {wall:.1f} ms wall, {cpu:.1f} ms CPU "
            f"(target <= {TARGET_MS:.0f})"
        )

    if args.games:
        r = evaluate.match(
            searched,
            agents.perfect(),
            games=args.games,
            rules="connect_four",
            seed=args.match_seed,
            opening_plies=4,
        )
        lo, hi = r.loss_interval
        print(
            f"\nagainst perfect(), {r.games} games from random 4-ply openings (seed "
            f"{args.match_seed}): {r.wins}/{r.draws}/{r.losses}, score {r.score:.3f}, "
            f"losses {r.loss_rate:.0%} [{lo:.1%}, {hi:.1%}]"
        )


if __name__ == "__main__":
    main()
