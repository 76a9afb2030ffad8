"""Stable-Baselines3 throughput: `inarow.sb3.InARowVecEnv` (one native call per
step, the opponent's replies included) against SB3's `DummyVecEnv` over the single
`inarow.gymnasium.InARowEnv` (one Python env per slot), both against the random
opponent on Connect Four.

    python benchmarks/sb3_throughput.py            # --envs 16 64 --repeats 5 --seconds 1

Two measures, each the median of `--repeats` interleaved rounds:
- env steps per second through SB3's VecEnv interface (`step_async`/`step_wait`)
  with uniformly random legal actions: the environment's share of a rollout;
- PPO's `learn` steps per second (rollout plus update, one torch thread, a small
  `n_epochs=1` so the environment's share shows).
"""

from __future__ import annotations

import time

import harness
import numpy as np
import torch
from stable_baselines3 import PPO
from stable_baselines3.common.vec_env import DummyVecEnv

from inarow.gymnasium import InARowEnv
from inarow.sb3 import InARowVecEnv


def native(n: int):
    return InARowVecEnv(n, opponent="random", seed=0)


def dummy(n: int):
    return DummyVecEnv([lambda: InARowEnv(opponent="random") for _ in range(n)])


def masks_of(env) -> np.ndarray:
    return np.stack(env.env_method("action_masks"))


def env_steps_per_second(env, seconds: float) -> float:
    env.reset()
    rng = np.random.default_rng(0)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        masks = masks_of(env)
        actions = np.argmax(rng.random(masks.shape) * masks, axis=1)
        env.step(actions)
        steps += env.num_envs
    return steps / (time.perf_counter() - start)


def learn_steps_per_second(env, total: int) -> float:
    model = PPO("MultiInputPolicy", env, n_steps=128, n_epochs=1, batch_size=512, device="cpu")
    start = time.perf_counter()
    model.learn(total)
    return total / (time.perf_counter() - start)


def main() -> None:
    parser = harness.parser(__doc__)
    parser.add_argument("--envs", type=int, nargs="+", default=[16, 64])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0)
    args = parser.parse_args()
    torch.set_num_threads(1)
    harness.print_machine()
    print(f"{'envs':>5} {'measure':<22} {'InARowVecEnv':>13} {'DummyVecEnv':>12} {'ratio':>6}")
    for n in args.envs:
        for name, measure in (
            ("env steps/s", lambda env: env_steps_per_second(env, args.seconds)),
            ("PPO learn steps/s", lambda env, n=n: learn_steps_per_second(env, 128 * n * 2)),
        ):
            fast, slow = [], []
            for _ in range(args.repeats):
                fast.append(measure(native(n)))
                slow.append(measure(dummy(n)))
            a, b = harness.median(fast), harness.median(slow)
            print(f"{n:>5} {name:<22} {a:>13,.0f} {b:>12,.0f} {a / b:>5.1f}x")


if __name__ == "__main__":
    main()
