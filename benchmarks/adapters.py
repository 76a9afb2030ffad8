"""Per-step cost of each adapter against the raw Board / VecEnv (a script, not a test).

    python benchmarks/adapters.py [--steps 20000] [--envs 256]

Connect Four, uniformly random legal moves, one thread. Prints microseconds per
step (per env-step for the batched rows) and the overhead factor over the raw layer.
Random move choice is included in every row (done the same way where possible).
"""

from __future__ import annotations

import time

import harness
import numpy as np

import inarow


def per_step(fn, steps: int) -> float:
    t0 = time.perf_counter()
    done = fn(steps)
    return (time.perf_counter() - t0) / done * 1e6


def raw_board(steps: int) -> int:
    rng = np.random.default_rng(0)
    b, n = inarow.Board(), 0
    while n < steps:
        legal = b.legal_moves()
        b.move(legal[rng.integers(len(legal))])
        b.observation()
        b.legal_mask()
        n += 1
        if b.is_over:
            b = inarow.Board()
    return n


def gym_env(steps: int) -> int:
    from inarow.gymnasium import InARowEnv

    # Self-play-equivalent cost: opponent "random" adds one Board.move per step.
    env = InARowEnv(opponent="random")
    obs, _ = env.reset(seed=0)
    rng, n = np.random.default_rng(0), 0
    while n < steps:
        legal = np.flatnonzero(obs["action_mask"])
        obs, r, term, trunc, _ = env.step(int(legal[rng.integers(len(legal))]))
        n += 2  # agent move + opponent move
        if term:
            obs, _ = env.reset()
    return n


def pettingzoo_env(steps: int) -> int:
    from inarow.pettingzoo import env as make

    env = make()
    env.reset(seed=0)
    rng, n = np.random.default_rng(0), 0
    while n < steps:
        obs, r, term, trunc, _ = env.last()
        if term:
            env.step(None)
            if not env.agents:
                env.reset()
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
        n += 1
    return n


def rllib_env(steps: int) -> int:
    from inarow.rllib import InARowMultiAgentEnv

    env = InARowMultiAgentEnv({})
    obs, _ = env.reset()
    rng, n = np.random.default_rng(0), 0
    while n < steps:
        (agent,) = obs
        legal = env.board.legal_moves()
        obs, r, term, trunc, _ = env.step({agent: legal[rng.integers(len(legal))]})
        n += 1
        if term["__all__"]:
            obs, _ = env.reset()
    return n


def raw_vec(envs: int):
    def run(steps: int) -> int:
        env = inarow.VecEnv(envs, seed=0, threads=1)
        env.reset(seed=0)
        for _ in range(steps // envs):
            env.step(env.random_actions())
        return (steps // envs) * envs

    return run


def gym_vec(envs: int, copy: bool):
    def run(steps: int) -> int:
        from inarow.gymnasium import InARowVectorEnv

        env = InARowVectorEnv(envs, threads=1, copy=copy)
        env.reset(seed=0)
        for _ in range(steps // envs):
            env.step(env.native.random_actions())
        return (steps // envs) * envs

    return run


def main() -> None:
    p = harness.parser(__doc__)
    p.add_argument("--steps", type=int, default=20_000)
    p.add_argument("--envs", type=int, default=256)
    a = p.parse_args()
    harness.print_machine()
    rows = [
        ("raw Board (move + observation + legal_mask)", raw_board, None),
        ("gymnasium InARowEnv (per move)", gym_env, "raw Board (move + observation + legal_mask)"),
        (
            "pettingzoo AEC env (per move)",
            pettingzoo_env,
            "raw Board (move + observation + legal_mask)",
        ),
        (
            "rllib MultiAgentEnv (per move)",
            rllib_env,
            "raw Board (move + observation + legal_mask)",
        ),
        (f"raw VecEnv x{a.envs} (per env-step)", raw_vec(a.envs), None),
        (
            f"gymnasium InARowVectorEnv x{a.envs}, copy=True",
            gym_vec(a.envs, True),
            f"raw VecEnv x{a.envs} (per env-step)",
        ),
        (
            f"gymnasium InARowVectorEnv x{a.envs}, copy=False",
            gym_vec(a.envs, False),
            f"raw VecEnv x{a.envs} (per env-step)",
        ),
    ]
    results: dict[str, float] = {}
    print(f"{'layer':52s} {'us/step':>9s} {'x raw':>7s}")
    for name, fn, base in rows:
        fn(min(a.steps, 2000))  # warm-up (imports, allocation)
        us = per_step(fn, a.steps if "Vec" not in name else a.steps * 10)
        results[name] = us
        ratio = f"{us / results[base]:.1f}" if base else "1.0"
        print(f"{name:52s} {us:9.3f} {ratio:>7s}")


if __name__ == "__main__":
    main()
