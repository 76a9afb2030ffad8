"""The cost of `VecEnv`'s safe default (fresh arrays per call) against
`reuse_buffers=True` (one set of arrays, overwritten every call), and against
reusing the buffers and copying every returned array in Python.

Prints the median time per `step` call and the ratios to `reuse_buffers=True`
(the machine may be shared: trust the ratios, not the absolute times).

    python benchmarks/vec_env_buffers.py [--repeats 15] [--steps 200]
"""

from __future__ import annotations

import time

import harness
import numpy as np

import inarow


def copy_all(result: tuple) -> tuple:
    *arrays, info = result
    return (*(a.copy() for a in arrays), {k: v.copy() for k, v in info.items()})


def legal_plan(num_envs: int, steps: int) -> list[np.ndarray]:
    """Random legal actions for `steps` steps of the games `reset(seed=0)` starts."""
    probe = inarow.VecEnv(num_envs, threads=1)
    probe.reset(seed=0)
    plan = []
    for _ in range(steps):
        plan.append(probe.random_actions())
        probe.step(plan[-1])
    return plan


MODES = ("reuse", "fresh", "reuse+copy")


def step_seconds(env: inarow.VecEnv, mode: str, plan: list[np.ndarray]) -> float:
    """Seconds per `step` call replaying `plan` from `reset(seed=0)`."""
    env.reset(seed=0)
    start = time.perf_counter()
    if mode == "reuse+copy":
        for actions in plan:
            copy_all(env.step(actions))
    else:
        for actions in plan:
            env.step(actions)
    return (time.perf_counter() - start) / len(plan)


def median_step_seconds(plan: list[np.ndarray], repeats: int) -> dict[str, float]:
    """Per mode, the median over `repeats` of the seconds per `step` call; the modes
    take turns so that a change in the machine's load hits them alike."""
    n = len(plan[0])
    envs = {m: inarow.VecEnv(n, threads=1, reuse_buffers=m != "fresh") for m in MODES}
    times: dict[str, list[float]] = {m: [] for m in MODES}
    for _ in range(repeats):
        for m in MODES:
            times[m].append(step_seconds(envs[m], m, plan))
    return {m: harness.median(t) for m, t in times.items()}


def main() -> None:
    parser = harness.parser(__doc__)
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--steps", type=int, default=200)
    args = parser.parse_args()
    harness.print_machine()
    print("num_envs  reuse us/step  fresh/reuse  (reuse+copy)/reuse")
    for n in (1, 256, 4096):
        plan = legal_plan(n, args.steps)
        t = median_step_seconds(plan, args.repeats)
        print(
            f"{n:8d}  {t['reuse'] * 1e6:13.1f}  {t['fresh'] / t['reuse']:11.2f}"
            f"  {t['reuse+copy'] / t['reuse']:18.2f}"
        )


if __name__ == "__main__":
    main()
