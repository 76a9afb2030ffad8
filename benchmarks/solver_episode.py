"""Whole Gymnasium episodes against ``opponent="solver"`` (a script, not a test).

    python benchmarks/solver_episode.py [--episodes 40] [--seed 0]

Connect Four 7x6, a uniformly random agent in a random seat each episode, one env
(its solver persists across episodes, as a user's env does). Times each episode from
``reset()`` to its end, the first one included (it loads the opening book), and
prints the median, p90 and maximum next to the issue's target (<= 0.5 s an episode).
Run on an idle machine for absolute numbers; the load average is printed.
"""

from __future__ import annotations

import time

import harness
import numpy as np

from inarow.gymnasium import InARowEnv


def episode_seconds(env: InARowEnv, rng: np.random.Generator, seed: int) -> tuple[float, int]:
    """One episode's wall time and length (agent moves)."""
    start = time.perf_counter()
    obs, _ = env.reset(seed=seed)
    moves, done = 0, False
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        obs, _, terminated, truncated, _ = env.step(int(rng.choice(legal)))
        moves += 1
        done = terminated or truncated
    return time.perf_counter() - start, moves


def main() -> None:
    parser = harness.parser(__doc__)
    parser.add_argument("--episodes", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    harness.print_machine()
    env = InARowEnv(opponent="solver", agent_player="random")
    rng = np.random.default_rng(args.seed)
    times, lengths = [], []
    for i in range(args.episodes):
        seconds, moves = episode_seconds(env, rng, args.seed * 100_000 + i)
        times.append(seconds)
        lengths.append(moves)
    times.sort()
    p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
    print(
        f"{len(times)} episodes, {harness.median(lengths):.0f} agent moves (median): "
        f"median {harness.median(times) * 1e3:.1f} ms, p90 {p90 * 1e3:.1f} ms, "
        f"max {times[-1] * 1e3:.1f} ms (target <= 500 ms an episode)"
    )


if __name__ == "__main__":
    main()
