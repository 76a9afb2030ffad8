"""The shipped agents' cost per move (one core), and their strength.

    python benchmarks/pretrained.py                  # latency at 0, 50, 200, 800 simulations
    python benchmarks/pretrained.py --accuracy       # + good-move rates on Pons' shipped analyses
    python benchmarks/pretrained.py --negamax 4 --games 40
    python benchmarks/pretrained.py --weights runs/c4/network.npz --accuracy   # a candidate
    python benchmarks/pretrained.py --forward        # the forward pass alone, by batch size
    python benchmarks/pretrained.py --in-game 10     # per move in games, cache on and off

Latency: the median over positions of Pons' Middle-Easy set of one ``agent(board)``
call (CPU seconds of this process beside wall seconds, as the machine may be shared),
each on an empty cache of network outputs. In games (``--in-game``) each search
meets again what the agent's earlier searches evaluated: the median move against
``negamax(4)`` from random 4-ply openings, the agent with its cache and without, the
same games (the cache changes no move), alternating the two per move.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import time

import harness

import inarow
from inarow.evaluate import pons_positions
from inarow.numpy_net import NumpyNet
from inarow.pretrained import NetworkAgent


def make_agent(weights: str | None, simulations: int, stop_early: bool = False) -> NetworkAgent:
    """The shipped Connect Four network, or the one in ``weights`` (a ``network.npz``),
    searching exactly ``simulations`` a move unless ``stop_early``."""
    if weights is None:
        return inarow.agents.pretrained(
            "connect_four", simulations=simulations, stop_early=stop_early
        )
    net = NumpyNet.load(weights)
    return NetworkAgent(
        net, net.rules, simulations=simulations, name=weights, stop_early=stop_early
    )


def latency(agent: NetworkAgent, positions: int) -> tuple[float, float]:
    boards = [inarow.Board.from_pons(p.moves) for p in pons_positions(positions)["Test_L2_R1"]]
    wall, cpu = [], []
    agent(boards[0])  # warm-up
    for b in boards:
        agent.clear_cache()
        t, c = time.perf_counter(), time.process_time()
        agent(b)
        wall.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    return harness.median(wall), harness.median(cpu)


def in_game(simulations: int, games: int, seed: int = 0) -> None:
    """Median wall milliseconds per move in games against ``negamax(4)``, with the
    cache and without."""
    import numpy as np

    cached = inarow.agents.pretrained("connect_four", simulations=simulations, stop_early=False)
    plain = NetworkAgent(cached.net, cached.rules, simulations=simulations, cache=0)
    opponent = inarow.agents.negamax(4)
    rng = np.random.default_rng(seed)
    times: dict[str, list[float]] = {"cached": [], "uncached": []}
    order = [("cached", cached), ("uncached", plain)]
    for game in range(games):
        board = inarow.Board.connect_four()
        for _ in range(4):
            board.move(int(rng.choice(board.legal_moves())))
        seat = game % 2
        cached.clear_cache()
        while not board.is_over:
            if board.num_stones % 2 != seat:
                board.move(opponent(board))
                continue
            order.reverse()  # neither always runs first
            moves = {}
            for name, agent in order:
                t = time.perf_counter()
                moves[name] = agent(board)
                times[name].append(time.perf_counter() - t)
            assert moves["cached"] == moves["uncached"]
            board.move(moves["cached"])
    c, u = (1000 * harness.median(times[n]) for n in ("cached", "uncached"))
    print(
        f"{simulations} simulations, {games} games against negamax(4), "
        f"{len(times['cached'])} moves: median {c:.1f} ms a move with the cache, "
        f"{u:.1f} ms without ({u / c:.1f}x)"
    )


def forward_costs(weights: str | None, batches: list[int]) -> None:
    """Milliseconds per position of the forward pass at each batch size (the median
    of repeated calls on random 0/1 planes), native / numpy, for each shipped network,
    or ``weights``."""
    import numpy as np

    from inarow.pretrained import PRETRAINED_RULES, _weights_path

    paths = [weights] if weights else [str(_weights_path(g)) for g in PRETRAINED_RULES]
    print(f"{'network':<28} " + " ".join(f"{f'batch {n}':>16}" for n in batches))
    rng = np.random.default_rng(0)
    for path in paths:
        net = NumpyNet.load(path)
        r = net.rules
        costs = []
        for n in batches:
            obs = rng.integers(0, 2, (n, r["players"], r["height"], r["width"]))
            obs = obs.astype(np.float32)
            pair = []
            for forward in (net, net.forward_numpy):
                forward(obs)
                calls = max(5, 400 // n)
                times = []
                for _ in range(calls):
                    t = time.perf_counter()
                    forward(obs)
                    times.append(time.perf_counter() - t)
                pair.append(1000 * harness.median(times) / n)
            costs.append(f"{pair[0]:.3f} / {pair[1]:.3f}")
        print(f"{os.path.basename(path):<28} " + " ".join(f"{c:>16}" for c in costs))
    print("(ms per position, native / numpy; one thread, one BLAS thread)")


def main() -> None:
    p = harness.parser(__doc__)
    p.add_argument("--positions", type=int, default=20)
    p.add_argument("--simulations", type=int, nargs="*", default=[0, 50, 200, 800])
    p.add_argument("--accuracy", action="store_true")
    p.add_argument(
        "--stop-early", action="store_true", help="end each search once its move is settled"
    )
    p.add_argument("--negamax", type=int, nargs="*", default=[])
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--weights", help="a network.npz to measure instead of the shipped one")
    p.add_argument("--forward", type=int, nargs="*", help="batch sizes: the forward pass alone")
    p.add_argument("--in-game", type=int, metavar="GAMES", help="per move in games: cache on/off")
    args = p.parse_args()
    harness.print_machine()
    if args.in_game:
        for s in args.simulations:
            if s:
                in_game(s, args.in_game)
        return
    if args.forward is not None:
        forward_costs(args.weights, args.forward or [1, 8, 64, 256])
        return
    print(f"{'simulations':>11} {'wall ms/move':>13} {'cpu ms/move':>12}")
    for s in args.simulations:
        w, c = latency(make_agent(args.weights, s, args.stop_early), args.positions)
        print(f"{s:>11} {1000 * w:>13.1f} {1000 * c:>12.1f}")
    if args.accuracy:
        for s in args.simulations:
            agent = make_agent(args.weights, s, args.stop_early)
            r = inarow.evaluate.move_accuracy(agent, "pons", progress=False)
            print(f"\nsimulations={s}\n{r}")
    for d in args.negamax:
        for s in args.simulations:
            agent = make_agent(args.weights, s, args.stop_early)
            r = inarow.evaluate.match(agent, inarow.agents.negamax(d), games=args.games)
            print(f"\nsimulations={s} vs negamax({d})\n{r}")


if __name__ == "__main__":
    main()
