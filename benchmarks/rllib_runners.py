"""RLlib env runners' throughput: env steps per second of each runner's vector env
(``num_envs_per_env_runner`` copies of `inarow.rllib.InARowMultiAgentEnv`, self-play
with one shared policy as in ``examples/rllib_selfplay.py``) with 1 and 2 remote
env runners on a new local Ray instance.

    python benchmarks/rllib_runners.py     # --runners 1 2 --envs 8 --steps 2000 --repeats 3

Each runner samples ``--steps`` env steps per round, all runners at once (RLlib's
``foreach_env_runner``), timed inside the runner. Two measures, each the median of
``--repeats`` rounds: uniformly random actions (the vector env and RLlib's episode
bookkeeping alone) and the PPO policy's actions (its forward pass included, one
torch thread). A runner's rate that drops as runners are added shows them
competing for the machine's cores.
"""

from __future__ import annotations

import os
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")

import harness
import ray  # noqa: E402
from ray.rllib.algorithms.ppo import PPOConfig  # noqa: E402

import inarow  # noqa: E402
from inarow.rllib import register  # noqa: E402

GAMES = {
    "connect_four": {"rules": inarow.Rules(7, 6, 4)},
    "small": {"rules": inarow.Rules(4, 4, 3)},
}


def shared_policy(agent_id, episode, **kwargs):
    return "shared"


def timed_sample(runner, steps: int, random_actions: bool) -> tuple[int, int, float]:
    """In the runner: (its index, env steps sampled, seconds). Each round starts new
    episodes: RLlib cannot go on with an episode of random actions by the policy's
    (the policy's outputs are missing for the earlier steps)."""
    start = time.perf_counter()
    episodes = runner.sample(num_timesteps=steps, random_actions=random_actions, force_reset=True)
    seconds = time.perf_counter() - start
    return runner.worker_index, sum(len(e) for e in episodes), seconds


def measure(runners: int, env_config: dict, envs: int, steps: int, repeats: int) -> dict:
    """{measure: {runner index: median env steps per second}}."""
    config = (
        PPOConfig()
        .environment("inarow", env_config=env_config)
        .multi_agent(policies={"shared"}, policy_mapping_fn=shared_policy)
        .env_runners(num_env_runners=runners, num_envs_per_env_runner=envs)
    )
    algo = config.build_algo()
    try:
        out = {}
        for name, random_actions in (("random actions", True), ("policy actions", False)):
            rates: dict[int, list[float]] = {}
            for _ in range(repeats):
                rounds = algo.env_runner_group.foreach_env_runner(
                    lambda r, ra=random_actions: timed_sample(r, steps, ra),
                    local_env_runner=False,
                )
                for index, n, seconds in rounds:
                    rates.setdefault(index, []).append(n / seconds)
            out[name] = {i: harness.median(r) for i, r in sorted(rates.items())}
        return out
    finally:
        algo.stop()


def main() -> int:
    parser = harness.parser(__doc__)
    parser.add_argument("--runners", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--envs", type=int, default=8, help="envs per runner")
    parser.add_argument("--steps", type=int, default=2000, help="env steps per runner per round")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--game", choices=sorted(GAMES), default="connect_four")
    args = parser.parse_args()
    harness.print_machine(Ray=ray.__version__)
    print(
        f"# {args.game}, self-play, {args.envs} envs per runner, "
        f"{args.steps} steps per runner per round, median of {args.repeats}"
    )
    print(f"{'runners':>7}  {'measure':<15} env steps/s per runner")
    for runners in args.runners:
        # A new local instance with a CPU per runner, whatever cluster this machine runs.
        ray.init(address="local", num_cpus=runners, include_dashboard=False, log_to_driver=False)
        try:
            register()
            rates = measure(runners, GAMES[args.game], args.envs, args.steps, args.repeats)
        finally:
            ray.shutdown()
        for name, per_runner in rates.items():
            shown = "  ".join(f"runner {i}: {rate:8.0f}" for i, rate in per_runner.items())
            print(f"{runners:>7}  {name:<15} {shown}  (sum {sum(per_runner.values()):.0f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
