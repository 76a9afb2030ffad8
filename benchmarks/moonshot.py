"""The Connect Four moonshot's measures of a network (docs/training.md, "Connect Four").

    python benchmarks/moonshot.py                                    # the shipped network
    python benchmarks/moonshot.py --weights runs/c4/network.npz --seed 7202
    python benchmarks/moonshot.py --per-length 10 --pons-per-set 20 --games 10   # a quick look
    python benchmarks/moonshot.py --weights runs/c4/network.npz --against shipped --seed 7203
    python benchmarks/moonshot.py --against shipped --seed 7301 7302 7303 --pons-per-set 1 --games 0
    python benchmarks/moonshot.py --against shipped --against-simulations 200 \
        --no-against-stop-early --seed 7701 --games 0     # one network, two searches

Good moves (the move keeps the position's win/draw/loss, judged by the solver) on
fresh random openings of 6-16 plies and on Pons' six sets, for the raw policy and
with search; the median move on one core (one BLAS thread; with `--against`, the two
agents taking turns board by board) on those
openings; the score against ``perfect()`` from random 4-ply openings, each played
from both seats. Rates come with 95% Wilson intervals; the targets are printed
beside them. Draw fresh openings with a new ``--seed`` rather than tuning on one;
one seed's 600 openings (``--per-length 100``) carry about half a point of sampling
error, so give several seeds to pool their openings.

``--against`` judges a second network (a network.npz, or ``shipped``; the same one
with other search settings: ``--against-simulations``, ``--against-stop-early``) on
the same positions and games and pairs the two position by position
(``evaluate.compare_accuracy``): the difference of good-move rates with its 95%
paired interval and the exact McNemar p-value, the measure to decide whether a
candidate replaces the shipped network.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import random
import time
from collections import defaultdict

import harness

import inarow
from inarow import agents, evaluate
from inarow.pretrained import NetworkAgent, default_search

TARGET_GOOD, TARGET_RAW, TARGET_MS = 0.98, 0.95, 50.0


def make_agent(
    weights: str | None,
    simulations: int,
    proof_nodes: int,
    symmetric: bool,
    stop_early: bool = False,
) -> NetworkAgent:
    settings = dict(
        simulations=simulations,
        proof_nodes=proof_nodes,
        symmetric=symmetric,
        stop_early=stop_early,
    )
    if weights is None or weights == "shipped":
        return agents.pretrained("connect_four", **settings)
    return agents.load(weights, **settings)


def per_set_rates(result: evaluate.AccuracyResult) -> str:
    """Good-move rates per Pons set, or per opening length pooled over the seeds."""
    good: dict[str, int] = defaultdict(int)
    total: dict[str, int] = defaultdict(int)
    for name, s in result.sets.items():
        key = evaluate.PONS_SETS.get(name, name.split(", seed ")[0])
        good[key] += s.good
        total[key] += s.positions
    return ", ".join(f"{key} {good[key] / total[key]:.1%}" for key in good if total[key])


def rate(result: evaluate.AccuracyResult) -> str:
    lo, hi = result.overall.good_interval
    return f"{result.good_rate:6.2%} [{lo:.1%}, {hi:.1%}] of {result.overall.positions}"


def paired(c: evaluate.AccuracyComparison) -> str:
    p = c.overall
    lo, hi = p.difference_interval
    return (
        f"{100 * p.difference:+.2f} points [{100 * lo:+.2f}, {100 * hi:+.2f}], "
        f"{p.only_a} vs {p.only_b} positions, p = {p.p_value:.3f}"
    )


def move_times(
    searched: list[NetworkAgent], boards: list[inarow.Board]
) -> list[tuple[float, tuple[float, float], float]]:
    """Per agent: the median wall milliseconds of one ``agent(board)`` call on a
    position never seen before (the agent's cache emptied each time), the median's
    95% bootstrap interval, and the median CPU milliseconds. The agents take turns
    board by board, so that a change in the machine's load falls on all of them."""
    for agent in searched:
        agent(boards[0].copy())  # warm-up
    wall: list[list[float]] = [[] for _ in searched]
    cpu: list[list[float]] = [[] for _ in searched]
    for board in boards:
        for agent, w, c in zip(searched, wall, cpu):
            agent.clear_cache()
            t, p = time.perf_counter(), time.process_time()
            agent(board.copy())
            w.append(1000 * (time.perf_counter() - t))
            c.append(1000 * (time.process_time() - p))
    rng = random.Random(0)
    out = []
    for w, c in zip(wall, cpu):
        mid, lo, hi = harness.median_interval(w, rng=rng)
        out.append((mid, (lo, hi), harness.median(c)))
    return out


def main() -> None:
    p = harness.parser(__doc__)
    p.add_argument("--weights", help="a network.npz (default: the shipped Connect Four network)")
    p.add_argument(
        "--against", help="a second network.npz (or 'shipped') judged on the same positions"
    )
    shipped_simulations, shipped_stop_early = default_search("connect_four")
    p.add_argument(
        "--simulations",
        type=int,
        default=shipped_simulations,
        help="simulations a move (default: the shipped agent's)",
    )
    p.add_argument("--proof-nodes", type=int, default=0)
    p.add_argument(
        "--stop-early",
        action=argparse.BooleanOptionalAction,
        default=shipped_stop_early,
        help="end each search once its most visited move is settled (MCTS stop_early; "
        "default: as the shipped agent)",
    )
    p.add_argument(
        "--against-simulations",
        type=int,
        default=None,
        help="simulations of the --against agent (default: --simulations)",
    )
    p.add_argument(
        "--against-stop-early",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="whether the --against agent stops early (default: as --stop-early)",
    )
    p.add_argument(
        "--symmetric", action="store_true", help="average the network over the board's mirror"
    )
    p.add_argument(
        "--seed",
        type=int,
        nargs="+",
        default=[7201],
        help="seeds of the random openings (several: their openings pooled)",
    )
    p.add_argument("--lengths", type=int, nargs="+", default=[6, 8, 10, 12, 14, 16])
    p.add_argument("--per-length", type=int, default=50)
    p.add_argument("--pons-per-set", type=int, default=None, help="default: all 1000")
    p.add_argument("--timed", type=int, default=40, help="openings the move is timed on (0: none)")
    p.add_argument("--games", type=int, default=100, help="games against perfect (0: none)")
    p.add_argument("--match-seed", type=int, default=4401)
    p.add_argument("--threads", type=int, default=None, help="threads choosing moves (timing: 1)")
    args = p.parse_args()
    harness.print_machine()

    shipped = "the shipped connect_four network"
    simulations = [args.simulations]
    stop_early = [args.stop_early]
    names = [args.weights if args.weights not in (None, "shipped") else shipped]
    if args.against:
        names.append(shipped if args.against == "shipped" else args.against)
        simulations.append(
            args.simulations if args.against_simulations is None else args.against_simulations
        )
        stop_early.append(
            args.stop_early if args.against_stop_early is None else args.against_stop_early
        )
    searches = [
        f"{n} simulations" + (", stop_early" if e else "") for n, e in zip(simulations, stop_early)
    ]
    names = [f"{name} ({search})" for name, search in zip(names, searches)]
    print(
        f"{' against '.join(names)}: proof_nodes={args.proof_nodes}, "
        f"symmetric={args.symmetric}; openings of seeds {', '.join(map(str, args.seed))}"
    )
    sets = {
        f"{name}, seed {seed}": boards
        for seed in args.seed
        for name, boards in evaluate.judged_positions(
            "connect_four", args.per_length, seed=seed, lengths=args.lengths
        ).items()
    }
    openings = [b for boards in sets.values() for b in boards]
    weights = [args.weights] + ([args.against] if args.against else [])
    same_network = len(weights) == 2 and {weights[0], weights[1]} <= {None, "shipped"}
    # The same network's raw policy is judged once (it plays the same moves).
    raws = [make_agent(w, 0, 0, args.symmetric) for w in weights[: 1 if same_network else 2]]
    searcheds = [
        make_agent(w, n, args.proof_nodes, args.symmetric, e)
        for w, n, e in zip(weights, simulations, stop_early)
    ]

    t = time.perf_counter()
    tables = []
    for label, positions, per_set in (
        (f"openings of {min(args.lengths)}-{max(args.lengths)} plies", sets, None),
        ("Pons' six sets", "pons", args.pons_per_set),
    ):
        results = [
            [
                evaluate.move_accuracy(agent, positions, per_set, threads=args.threads)
                for agent in row
            ]
            for row in (raws, searcheds)
        ]
        if same_network:
            results[0].append(results[0][0])
        tables.append((label, results))
    print(f"(judged in {time.perf_counter() - t:.0f} s)")
    for i, name in enumerate(names):
        print(f"\n{name}")
        print(f"{'good moves':<28} {'raw policy':<30} {'searched':<30}")
        for label, (raw_rs, searched_rs) in tables:
            print(f"{label:<28} {rate(raw_rs[i]):<30} {rate(searched_rs[i]):<30}")
        print(f"{'target':<28} {f'>= {TARGET_RAW:.0%}':<30} {f'>= {TARGET_GOOD:.0%}':<30}")
        for label, (_, searched_rs) in tables:
            print(f"  {label}, searched: {per_set_rates(searched_rs[i])}")
    if args.against:
        print("\npaired, the first network minus the second (good moves):")
        for label, (raw_rs, searched_rs) in tables:
            for kind, rs in (("raw", raw_rs), ("searched", searched_rs)):
                comparison = evaluate.compare_accuracy(rs[0], rs[1])
                print(f"  {label}, {kind}: {paired(comparison)}")

    if args.timed > 0:
        timed = openings[:: max(1, len(openings) // args.timed)]
        for name, (wall, (lo, hi), cpu) in zip(names, move_times(searcheds, timed)):
            print(
                f"\nmedian move, one core, {name}: {wall:.1f} ms wall [{lo:.1f}, {hi:.1f}], "
                f"{cpu:.1f} ms CPU over {len(timed)} openings (target <= {TARGET_MS:.0f})"
            )

    if args.games:
        for name, searched in zip(names, searcheds):
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
                f"\n{name} against perfect(), {r.games} games from random 4-ply openings "
                f"(seed {args.match_seed}): {r.wins}/{r.draws}/{r.losses}, score "
                f"{r.score:.3f}, losses {r.loss_rate:.0%} [{lo:.1%}, {hi:.1%}]"
            )


if __name__ == "__main__":
    main()
