"""The RLlib adapter with several env runners on a simulated two-node cluster: PPO
with two remote env runners (two envs each, against an opponent list holding a
native agent), one training iteration. The runners ran on the two worker nodes
with the envs and opponents pickled to them, every env's generator was seeded
apart, and each runner's env steps add up to what the iteration reports. Needs
ray[rllib] and torch (CI's second environment); marker ``rllib``."""

from __future__ import annotations

import os

import pytest

ray = pytest.importorskip("ray", reason="ray is not installed (the ray extra)")
pytest.importorskip("ray.rllib", reason="ray[rllib] is not installed")
pytest.importorskip("torch", reason="torch is not installed (RLlib's PPO needs it)")
pytestmark = pytest.mark.rllib

import inarow  # noqa: E402
from inarow import agents  # noqa: E402
from inarow.rllib import InARowMultiAgentEnv, runner_seed  # noqa: E402

ENV_CONFIG = {
    "rules": inarow.Rules(4, 4, 3),
    "opponent": ["random", agents.greedy(seed=1)],
    "agent_player": 2,  # the opponent opens every game
}


def test_runner_seeds_differ_by_runner_and_stay_put_locally():
    assert runner_seed(None, 3) is None and runner_seed(44, 0) == 44
    assert len({runner_seed(44, w) for w in (1, 2, 3)}) == 3
    assert runner_seed(44, 1) == runner_seed(44, 1) < 2**63


def test_ppo_with_two_env_runners_on_two_nodes(cluster):
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.tune.registry import register_env

    class Recording(InARowMultiAgentEnv):
        """Counts its steps since it was last seeded and keeps, per seeded reset, the
        seed RLlib gave and the state of the generator it seeded (defined here:
        pickled by value)."""

        def __init__(self, config):
            super().__init__(config)
            self.steps = 0
            self.seeded = []

        def reset(self, *, seed=None, options=None):
            out = super().reset(seed=seed, options=options)
            if seed is not None:  # RLlib's env check, then the runner's first reset
                self.seeded.append((seed, repr(self.np_random.bit_generator.state)))
                self.steps = 0  # the check's steps are no sampling
            return out

        def step(self, action_dict):
            self.steps += 1
            return super().step(action_dict)

    register_env("inarow_recording", lambda config: Recording(config))
    config = (
        PPOConfig()
        .environment("inarow_recording", env_config=ENV_CONFIG)
        .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent_id, *a, **kw: "shared")
        .env_runners(num_env_runners=2, num_envs_per_env_runner=2, rollout_fragment_length=50)
        .training(train_batch_size_per_learner=200, minibatch_size=50, num_epochs=1)
        .debugging(seed=42)
    )

    def report(runner):
        envs = [env.unwrapped for env in runner.env.envs]
        return dict(
            node=ray.get_runtime_context().get_node_id(),
            pid=os.getpid(),
            worker_index=runner.worker_index,
            steps=[env.steps for env in envs],
            seeded=[env.seeded for env in envs],
            opponents=[[repr(o) for o in env._opponents._given] for env in envs],
        )

    algo = config.build_algo()
    try:
        result = algo.train()
        reports = algo.env_runner_group.foreach_env_runner(report, local_env_runner=False)
    finally:
        algo.stop()

    # Two runners, one on each worker node, away from this process.
    assert sorted(r["worker_index"] for r in reports) == [1, 2]
    nodes = {r["node"] for r in reports}
    assert len(nodes) == 2 and ray.get_runtime_context().get_node_id() not in nodes
    assert os.getpid() not in {r["pid"] for r in reports}
    # The opponents arrived pickled: the native agent with its seed.
    for r in reports:
        assert r["opponents"] == [["'random'", "inarow.agents.greedy(seed=1)"]] * 2
    # RLlib seeds env i of runner w with 42 + w + i before sampling (its env check
    # reset with 42 before that): env 1 of runner 1 and env 0 of runner 2 get the
    # same seed (44); every env's generator must differ all the same.
    given = [env[-1][0] for r in reports for env in r["seeded"]]
    states = [env[-1][1] for r in reports for env in r["seeded"]]
    assert sorted(given) == [43, 44, 44, 45]
    assert len(set(states)) == 4, "two envs of the run share their random stream"
    # The metrics came back, and the runners' own counts make them up.
    runners = result["env_runners"]
    steps = {r["worker_index"]: sum(r["steps"]) for r in reports}
    print(f"env steps per runner: {steps}; reported: {runners['num_env_steps_sampled']}")
    assert all(n > 0 for n in steps.values())
    assert sum(steps.values()) == runners["num_env_steps_sampled"] >= 200
    assert runners["num_episodes"] > 0
