"""End-to-end throughput of inarow against its peers, side by side in one process.

    pip install '.[bench]'        # pettingzoo, open_spiel, pgx with CPU jax
    python benchmarks/bench.py    # --rounds N, --quick, --only inarow

Every measurement is repeated in interleaved rounds (ours, then each peer, then ours
again...) so that machine noise hits all of them alike; the table shows medians and
the ratio of inarow to each peer. Peers that are not installed are skipped.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import harness
import numpy as np

import inarow

Measure = Callable[[], tuple[float, float]]  # returns (work units, seconds)


def timed(fn: Callable[[], float]) -> tuple[float, float]:
    start = time.perf_counter()
    units = fn()
    return units, time.perf_counter() - start


# --- inarow -------------------------------------------------------------------------


def inarow_simulate(threads: int, games: int, **rules) -> Measure:
    def run():
        r = inarow.simulate(games, seed=1, threads=threads, rules=inarow.Rules(**rules))
        return float(r.moves), r.seconds

    return run


def inarow_vec_random(num_envs: int, steps: int, **rules) -> Measure:
    env = inarow.VecEnv(num_envs, seed=0, rules=inarow.Rules(**rules))
    env.reset(seed=0)

    def run():
        return timed(
            lambda: [env.step(env.random_actions()) for _ in range(steps)] and num_envs * steps
        )

    return run


def inarow_vec_numpy_sampled(num_envs: int, steps: int, **rules) -> Measure:
    env = inarow.VecEnv(num_envs, seed=0, rules=inarow.Rules(**rules))
    env.reset(seed=0)
    rng = np.random.default_rng(0)

    def body():
        for _ in range(steps):
            mask = env.legal_mask()
            actions = np.argmax(rng.random(mask.shape) * mask, axis=1)
            env.step(actions)
        return num_envs * steps

    return lambda: timed(body)


def inarow_board_moves(games: int) -> Measure:
    rng = np.random.default_rng(0)

    def body():
        moves = 0
        for _ in range(games):
            b = inarow.Board()
            while not b.is_over:
                legal = b.legal_moves()
                b.move(legal[int(rng.integers(len(legal)))])
                moves += 1
        return moves

    return lambda: timed(body)


# --- peers --------------------------------------------------------------------------


def pgx_connect_four(batch: int, steps: int) -> Measure | None:
    try:
        import jax
        import jax.numpy as jnp
        import pgx
        from pgx.experimental import auto_reset
    except ImportError:
        return None
    env = pgx.make("connect_four")
    init = jax.jit(jax.vmap(env.init))
    step = jax.jit(jax.vmap(auto_reset(env.step, env.init)))

    def act(key, mask):
        logits = jnp.where(mask, 0.0, -jnp.inf)
        return jax.random.categorical(key, logits, axis=-1)

    act = jax.jit(act)
    key = jax.random.PRNGKey(0)
    key, sub = jax.random.split(key)
    state = init(jax.random.split(sub, batch))

    @jax.jit
    def many(state, key):
        def body(carry, _):
            state, key = carry
            key, k1, k2 = jax.random.split(key, 3)
            action = act(k1, state.legal_action_mask)
            state = step(state, action, jax.random.split(k2, batch))
            return (state, key), None

        (state, key), _ = jax.lax.scan(body, (state, key), None, length=steps)
        return state, key

    state, key = many(state, key)  # compile
    jax.block_until_ready(state)
    holder = {"state": state, "key": key}

    def body():
        s, k = many(holder["state"], holder["key"])
        jax.block_until_ready(s)
        holder["state"], holder["key"] = s, k
        return batch * steps

    return lambda: timed(body)


def open_spiel_cpp_loop(games: int) -> Measure | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("connect_four")
    bots = [pyspiel.make_uniform_random_bot(p, 1234 + p) for p in range(2)]

    def body():
        moves = 0
        for i in range(games):
            state = game.new_initial_state()
            pyspiel.evaluate_bots(state, bots, i)  # plays the game out on `state`, in C++
            moves += len(state.history())
        return moves

    return lambda: timed(body)


def open_spiel_python(games: int) -> Measure | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("connect_four")
    rng = np.random.default_rng(0)

    def body():
        moves = 0
        for _ in range(games):
            state = game.new_initial_state()
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.integers(len(legal)))])
                moves += 1
        return moves

    return lambda: timed(body)


def pettingzoo_connect_four(games: int) -> Measure | None:
    try:
        from pettingzoo.classic import connect_four_v3
    except ImportError:
        return None
    env = connect_four_v3.env()
    rng = np.random.default_rng(0)

    def body():
        moves = 0
        for g in range(games):
            env.reset(seed=g)
            for _agent in env.agent_iter():
                obs, _, term, trunc, _ = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[int(rng.integers(len(legal)))]))
                moves += 1
        return moves

    return lambda: timed(body)


def run(rounds: int, quick: bool, only: str | None) -> None:
    scale = 0.2 if quick else 1.0
    n = lambda x: max(1, int(x * scale))  # noqa: E731
    gomoku = dict(width=15, height=15, k=5, players=2, gravity=False)
    three = dict(width=8, height=8, k=5, players=3, gravity=False)
    # (group, label, measure, unit)
    rows: list[tuple[str, str, Measure | None]] = [
        ("c4 whole games", "inarow simulate, 1 thread", inarow_simulate(1, n(1_000_000))),
        ("c4 whole games", "inarow simulate, 2 threads", inarow_simulate(2, n(2_000_000))),
        ("c4 whole games", "OpenSpiel C++ loop (evaluate_bots)", open_spiel_cpp_loop(n(20_000))),
        ("c4 batch 4096", "inarow VecEnv.step(random_actions())", inarow_vec_random(4096, n(300))),
        (
            "c4 batch 4096",
            "inarow VecEnv.step, numpy-sampled",
            inarow_vec_numpy_sampled(4096, n(100)),
        ),
        ("c4 batch 4096", "pgx jit+vmap auto-reset (CPU)", pgx_connect_four(4096, n(200))),
        ("c4 per move from Python", "inarow Board.move loop", inarow_board_moves(n(5_000))),
        ("c4 per move from Python", "OpenSpiel Python loop", open_spiel_python(n(3_000))),
        ("c4 per move from Python", "PettingZoo connect_four_v3", pettingzoo_connect_four(n(100))),
        ("gomoku 15x15 k=5", "inarow simulate, 2 threads", inarow_simulate(2, n(20_000), **gomoku)),
        ("gomoku 15x15 k=5", "inarow simulate, 1 thread", inarow_simulate(1, n(10_000), **gomoku)),
        (
            "gomoku 15x15 k=5",
            "inarow VecEnv.step, batch 1024",
            inarow_vec_random(1024, n(200), **gomoku),
        ),
        (
            "8x8 k=5 3 players",
            "inarow simulate, 2 threads",
            inarow_simulate(2, n(100_000), **three),
        ),
        ("8x8 k=5 3 players", "inarow simulate, 1 thread", inarow_simulate(1, n(50_000), **three)),
        (
            "8x8 k=5 3 players",
            "inarow VecEnv.step, batch 4096",
            inarow_vec_random(4096, n(100), **three),
        ),
    ]
    rows = [r for r in rows if r[2] is not None and (only is None or r[1].startswith(only))]
    samples: dict[tuple[str, str], list[float]] = {(g, label): [] for g, label, _ in rows}
    for r in range(rounds):
        for group, label, measure in rows:
            units, seconds = measure()
            samples[(group, label)].append(units / seconds)
        print(f"round {r + 1}/{rounds} done", flush=True)
    print()
    harness.print_machine()
    print(f"{'group':26} {'what':40} {'median moves/s':>15} {'vs inarow best':>15}")
    groups: dict[str, float] = {}
    for group, label, _ in rows:
        med = harness.median(samples[(group, label)])
        if label.startswith("inarow"):
            groups[group] = max(groups.get(group, 0.0), med)
    for group, label, _ in rows:
        med = harness.median(samples[(group, label)])
        best = groups.get(group)
        ratio = "" if label.startswith("inarow") or not best else f"inarow {best / med:8.1f}x"
        print(f"{group:26} {label:40} {med:15,.0f} {ratio:>15}")


def main() -> None:
    parser = harness.parser(__doc__, whole=True)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="smaller workloads (a smoke run)")
    parser.add_argument("--only", help="only rows whose label starts with this")
    args = parser.parse_args()
    run(args.rounds, args.quick, args.only)


if __name__ == "__main__":
    main()
