"""Batched MCTS (inarow.MCTS) against OpenSpiel's C++ MCTSBot, side by side in one run.

    pip install open_spiel        # the peer (not a test dependency)
    python benchmarks/mcts.py     # --rounds N, --quick

Every measurement is repeated in interleaved rounds (ours, then the peer, then ours
again...) so that machine noise hits both alike; tables show medians. Rollout rows
give simulations per second of wall time and, for one thread, per CPU second (the
process's CPU time: robust when other work shares the machine; for two threads,
the last column compares CPU seconds per simulation with one thread: 1.00 means no
parallel overhead, so two idle cores give twice the rate). Both searches use
UCT with the same constant (2.0, OpenSpiel's example default), one random playout
per leaf, and the MCTS-solver.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # the evaluator gets one core, like the tree

import time
from collections.abc import Callable
from pathlib import Path

import harness
import numpy as np

import inarow

UCT_C = 2.0
# Trees searched at once for the multi-core rows (each tree stays on one thread).
TREES = 16


def clock(fn: Callable[[], object]) -> tuple[float, float]:
    """(wall seconds, process CPU seconds) of one call."""
    w, c = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - w, time.process_time() - c


def openspiel_bot(game_name: str, params: dict, simulations: int):
    import pyspiel

    game = pyspiel.load_game(game_name, params)
    evaluator = pyspiel.RandomRolloutEvaluator(1, 0)
    bot = pyspiel.MCTSBot(game, evaluator, UCT_C, simulations, 1 << 20, True, 0, False)
    state = game.new_initial_state()
    return lambda: bot.step(state)


def inarow_search(board: inarow.Board, simulations: int, trees: int, threads: int):
    search = inarow.MCTS(
        board, num_simulations=simulations, c_uct=UCT_C, reuse_tree=False, threads=threads
    )
    boards = [board] * trees
    return lambda: search.run(boards, "rollout")


def rollout_table(rounds: int, quick: bool) -> None:
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("open_spiel is not installed: pip install open_spiel")
        return
    cases = [
        ("Connect Four 7x6", "connect_four", {}, inarow.Board(), [1000, 10_000]),
        ("Gomoku 15x15", "mnk", {"m": 15, "n": 15, "k": 5}, inarow.Board.gomoku(), [1000]),
    ]
    print("\n## Rollout MCTS from the empty board (simulations/s, medians)\n")
    print(
        f"| game | simulations | OpenSpiel MCTSBot, 1 thread | inarow, 1 tree, 1 thread | ratio "
        f"| per CPU s: OpenSpiel | inarow | ratio | inarow {TREES} trees, 1 thread | 2 threads "
        f"| 2 threads / 1 | 2 threads / OpenSpiel | per CPU s, 2 threads / 1 |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, game, params, board, sims in cases:
        for n in sims:
            if quick and n > 1000:
                continue
            searches = {
                "peer": (openspiel_bot(game, params, n), n),
                "one": (inarow_search(board, n, 1, 1), n),
                "many1": (inarow_search(board, n, TREES, 1), TREES * n),
                "many2": (inarow_search(board, n, TREES, 2), TREES * n),
            }
            rows: dict[str, list[tuple[float, float]]] = {k: [] for k in searches}
            for fn, _ in searches.values():
                fn()  # warm up
            for _ in range(rounds):
                for key, (fn, _) in searches.items():
                    rows[key].append(clock(fn))
            wall = {k: s / harness.median(w for w, _ in rows[k]) for k, (_, s) in searches.items()}
            cpu = {k: s / harness.median(c for _, c in rows[k]) for k, (_, s) in searches.items()}
            print(
                f"| {name} | {n:,} | {wall['peer']:,.0f} | {wall['one']:,.0f} | {wall['one'] / wall['peer']:.1f}x "
                f"| {cpu['peer']:,.0f} | {cpu['one']:,.0f} | {cpu['one'] / cpu['peer']:.1f}x "
                f"| {wall['many1']:,.0f} | {wall['many2']:,.0f} | {wall['many2'] / wall['many1']:.2f}x "
                f"| {wall['many2'] / wall['peer']:.1f}x | {cpu['many2'] / cpu['many1']:.2f} |"
            )


class Net:
    """Times its calls: `seconds` inside, `leaves` evaluated."""

    def __init__(self):
        self.seconds = 0.0
        self.cpu_seconds = 0.0
        self.leaves = 0

    def __call__(self, obs: np.ndarray, mask: np.ndarray):
        start, cpu = time.perf_counter(), time.process_time()
        out = self.forward(obs)
        self.seconds += time.perf_counter() - start
        self.cpu_seconds += time.process_time() - cpu
        self.leaves += len(obs)
        return out

    def forward(self, obs: np.ndarray):
        raise NotImplementedError


def weights(rng, fan_in: int, fan_out: int) -> np.ndarray:
    return rng.normal(0, (2 / fan_in) ** 0.5, (fan_in, fan_out)).astype(np.float32)


class ConvNet(Net):
    """A small residual conv net in numpy (float32, one BLAS thread): a 3x3 stem to
    `channels`, `blocks` residual blocks of one 3x3 conv each, a policy head over
    the flattened features and a tanh value head over their spatial mean."""

    def __init__(self, players: int, height: int, width: int, actions: int, channels=32, blocks=2):
        super().__init__()
        rng = np.random.default_rng(0)
        self.convs = [weights(rng, 9 * players, channels)]
        self.convs += [weights(rng, 9 * channels, channels) for _ in range(blocks)]
        self.policy = weights(rng, height * width * channels, actions)
        self.value = weights(rng, channels, 1)

    @staticmethod
    def conv(x: np.ndarray, w: np.ndarray) -> np.ndarray:
        n, h, wd, c = x.shape
        padded = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
        patches = np.lib.stride_tricks.sliding_window_view(padded, (3, 3), axis=(1, 2))
        return (patches.reshape(n * h * wd, c * 9) @ w).reshape(n, h, wd, -1)

    def forward(self, obs):
        x = np.maximum(self.conv(obs.transpose(0, 2, 3, 1), self.convs[0]), 0)
        for w in self.convs[1:]:
            x = np.maximum(x + self.conv(x, w), 0)
        logits = x.reshape(len(x), -1) @ self.policy
        value = np.tanh(x.mean(axis=(1, 2)) @ self.value)[:, 0]
        return logits, value


class DenseNet(Net):
    """`hidden` ReLU layers of `width` over the flattened planes (0: one dense layer
    from the planes straight to the heads)."""

    def __init__(self, inputs: int, actions: int, width: int, hidden: int):
        super().__init__()
        rng = np.random.default_rng(0)
        sizes = [inputs] + [width] * hidden
        self.layers = [weights(rng, a, b) for a, b in zip(sizes, sizes[1:])]
        self.policy = weights(rng, sizes[-1], actions)
        self.value = weights(rng, sizes[-1], 1)

    def forward(self, obs):
        x = obs.reshape(len(obs), -1)
        for w in self.layers:
            x = np.maximum(x @ w, 0)
        return x @ self.policy, np.tanh(x @ self.value)[:, 0]


NETS = {
    "conv 2 blocks x 32 channels": lambda: ConvNet(2, 6, 7, 7),
    "MLP 84-256-256": lambda: DenseNet(84, 7, 256, 2),
    "one dense layer 84-(7+1)": lambda: DenseNet(84, 7, 0, 0),
}


def evaluator_table(rounds: int, quick: bool) -> None:
    games, sims = (256, 50) if quick else (256, 100)
    print(
        f"\n## A Python evaluator over {games} Connect-Four games, {sims} simulations each (medians)\n"
    )
    print(
        "| net | tree threads | wall s | evaluator s | outside the evaluator: wall | CPU "
        "| evaluator leaves per CPU s | tree + glue CPU per simulation |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    boards = [inarow.Board() for _ in range(games)]
    for label, make in NETS.items():
        for threads in (1, 2):
            search = inarow.MCTS(num_simulations=sims, reuse_tree=False, threads=threads)
            runs = []
            for _ in range(rounds):
                net = make()
                wall, cpu = clock(lambda net=net, search=search: search.run(boards, net))
                runs.append((wall, cpu, net.seconds, net.cpu_seconds, net.leaves))
            wall, cpu, inside, inside_cpu = (harness.median(r[i] for r in runs) for i in range(4))
            leaves = runs[0][4]
            print(
                f"| {label} | {threads} | {wall:.2f} | {inside:.2f} | {(wall - inside) / wall:.1%} "
                f"| {(cpu - inside_cpu) / cpu:.1%} | {leaves / inside_cpu:,.0f} "
                f"| {(cpu - inside_cpu) / (games * sims) * 1e6:.2f} us |"
            )


def continuation_table(quick: bool) -> None:
    """A search that keeps thinking about one position: runs of 1,000 rollout
    simulations on the empty board with the same MCTS object. With reuse each run
    adds to the kept tree and should cost what its own simulations cost."""
    runs = 60 if quick else 150
    marks = [m for m in (1, 2, 10, 50, 100, 150) if m <= runs]
    print(f"\n## Thinking longer: {runs} runs of 1,000 rollout simulations on one root\n")
    print(
        "| reuse_tree | "
        + " | ".join(f"run {m} ms" for m in marks)
        + f" | run {runs} / run 2 | root visits at the end |"
    )
    print("|---|" + "---:|" * (len(marks) + 2))
    board = inarow.Board()
    for reuse in (True, False):
        search = inarow.MCTS(num_simulations=1000, reuse_tree=reuse, threads=1, seed=0)
        times = [clock(lambda s=search: s.run([board], "rollout"))[0] for _ in range(runs)]
        visits = int(search.result().visit_counts.sum())
        # A run's time is noisy: each mark is the median of its neighbours (+-2 runs).
        around = [harness.median(times[max(0, i - 2) : i + 3]) for i in range(runs)]
        cells = " | ".join(f"{around[m - 1] * 1e3:.2f}" for m in marks)
        ratio = around[runs - 1] / harness.median(times[1:4])
        print(f"| {reuse} | {cells} | {ratio:.2f}x | {visits:,} |")


def self_play_game_costs(
    reuse: bool, choose: str, games: int, sims: int, seed: int
) -> tuple[float, int, int]:
    """One self-play session to the end of every game: tree and glue CPU seconds
    per simulation outside the evaluator, moves, leaves evaluated."""
    net = NETS["one dense layer 84-(7+1)"]()
    search = inarow.MCTS(num_simulations=sims, reuse_tree=reuse, threads=1, seed=seed)
    boards = [inarow.Board() for _ in range(games)]
    rng = np.random.default_rng(seed)
    moves = simulations = 0
    cpu = time.process_time()
    while not all(b.is_over for b in boards):
        out = search.run(boards, net)
        simulations += sims * sum(not b.is_over for b in boards)
        actions = out.actions.copy()
        for i, b in enumerate(boards):
            if not b.is_over:
                if choose == "sampled":
                    # Moves drawn from the search's policy: the games differ more.
                    p = out.policy[i].astype(np.float64)
                    actions[i] = rng.choice(len(p), p=p / p.sum())
                b.move(int(actions[i]))
                moves += 1
        search.advance(actions)
    cpu = time.process_time() - cpu
    return (cpu - net.cpu_seconds) / simulations, moves, net.leaves


def self_play_table(rounds: int, quick: bool) -> None:
    """Self-play: run, advance, until every game ends; tree and glue CPU per
    simulation outside a numpy evaluator, with kept subtrees and with fresh trees,
    the moves played the search's own choices (argmax) or drawn from its policy.
    Kept and fresh sessions alternate, so machine noise hits both alike."""
    games, sims = (128, 100) if quick else (256, 200)
    print(f"\n## Self-play over {games} Connect-Four games, {sims} simulations a move (medians)\n")
    print(
        "| moves played | reuse_tree | moves | evaluator leaves | outside the evaluator: CPU per simulation |"
    )
    print("|---|---|---:|---:|---:|")
    ratios = {}
    for choose in ("argmax", "sampled"):
        costs: dict[bool, list] = {True: [], False: []}
        for r in range(rounds):
            for reuse in (True, False):
                costs[reuse].append(self_play_game_costs(reuse, choose, games, sims, r))
        per_sim = {reuse: harness.median(c for c, _, _ in rows) for reuse, rows in costs.items()}
        for reuse, rows in costs.items():
            print(
                f"| {choose} | {reuse} | {rows[0][1]:,} | {rows[0][2]:,} | {per_sim[reuse] * 1e6:.2f} us |"
            )
        ratios[choose] = per_sim[True] / per_sim[False]
    print(
        "\nWith reuse / fresh, per simulation: "
        + ", ".join(f"{k} {v:.2f}x" for k, v in ratios.items())
        + "."
    )


def strength_table(quick: bool) -> None:
    data = Path(inarow.__file__).resolve().parent / "data" / "connect4-pons"  # package data
    if not data.is_dir():
        print("\nPons' test sets not found: strength table skipped")
        return
    per_set = 30 if quick else 100
    solver = inarow.Solver(tt_bytes=64 << 20)
    print(
        f"\n## Strength: good-move rate on Pons' test sets ({per_set} positions each, exact solver as the judge)\n"
    )
    print("| set | 1,000 simulations | 10,000 simulations |")
    print("|---|---:|---:|")
    searches = {
        n: inarow.MCTS(num_simulations=n, c_uct=UCT_C, reuse_tree=False) for n in (1000, 10_000)
    }
    for name in ("Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1"):
        lines = (data / name).read_text().split()[0::2][:per_set]
        boards = [inarow.Board.from_pons(m) for m in lines]
        good_sets = []
        for b in boards:
            scores = solver.analyze(b, weak=True)
            best = max(s for s in scores if s is not None)
            good_sets.append({a for a, s in enumerate(scores) if s == best})
        rates = []
        for search in searches.values():
            out = search.run(boards, "rollout")
            rates.append(np.mean([int(a) in g for a, g in zip(out.actions, good_sets)]))
        print(f"| {name} | {rates[0]:.0%} | {rates[1]:.0%} |")


def main() -> None:
    parser = harness.parser(__doc__)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="fewer sizes and rounds")
    parser.add_argument(
        "--only",
        nargs="+",
        choices=["rollout", "evaluator", "continuation", "self-play"],
        help="run only these tables",
    )
    args = parser.parse_args()
    rounds = 2 if args.quick else args.rounds
    harness.print_machine()
    parser_tables = {
        "rollout": lambda: rollout_table(rounds, args.quick),
        "evaluator": lambda: evaluator_table(rounds, args.quick),
        "continuation": lambda: continuation_table(args.quick),
        "self-play": lambda: self_play_table(rounds, args.quick),
    }
    for name in args.only or list(parser_tables):
        parser_tables[name]()
    if args.only:
        return
    strength_table(args.quick)


if __name__ == "__main__":
    main()
