"""Self-play with Ray RLlib (new API stack) on an inarow game.

Every agent ("player_1", "player_2") maps to one shared policy. Builds PPO with 2 env
runners under ``ray.init(num_cpus=2)`` and runs one ``train()`` iteration (self-play
episodes collected by both runners, one update). Needs torch. Kept small: 4x4 boards,
k=3, a 200-step batch.

    python examples/rllib_selfplay.py
"""

from __future__ import annotations

import importlib.util
import os
import sys

os.environ.setdefault("RAY_DEDUP_LOGS", "0")

import ray  # noqa: E402

import inarow  # noqa: E402
from inarow.rllib import register  # noqa: E402

ENV_CONFIG = {"rules": inarow.Rules(4, 4, 3, players=2, gravity=True)}


def shared_policy(agent_id, episode, **kwargs):
    return "shared"


def base_config(config):
    return (
        config.environment("inarow", env_config=ENV_CONFIG)
        .multi_agent(policies={"shared"}, policy_mapping_fn=shared_policy)
        .env_runners(num_env_runners=2, num_envs_per_env_runner=1, rollout_fragment_length=50)
    )


def train_ppo() -> None:
    from ray.rllib.algorithms.ppo import PPOConfig

    config = base_config(PPOConfig()).training(
        train_batch_size_per_learner=200, minibatch_size=50, num_epochs=1
    )
    algo = config.build_algo()
    result = algo.train()
    runners = result["env_runners"]
    print("mode: ppo")
    print(f"episodes: {runners.get('num_episodes', 0)}")
    print(f"env steps: {runners.get('num_env_steps_sampled', 0)}")
    algo.stop()


def main() -> int:
    if importlib.util.find_spec("torch") is None:
        print("rllib_selfplay needs torch (RLlib's env runners and PPO use it)", file=sys.stderr)
        return 2
    # A new local instance, whatever other Ray cluster this machine runs.
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        register()
        train_ppo()
    finally:
        ray.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
