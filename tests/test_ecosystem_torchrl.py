"""TorchRL reads inarow's Gymnasium and PettingZoo envs with default settings and no
glue: `GymEnv` by id, its own `check_env_specs`, random rollouts across episodes,
`GymWrapper` over the vector env, and `PettingZooWrapper` over the AEC env with
masks. Needs torchrl (the ``ecosystems`` extra); marker ``ecosystem``."""

from __future__ import annotations

import pytest

pytest.importorskip("torchrl", reason="torchrl is not installed")
pytestmark = pytest.mark.ecosystem

import torch  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402
from torchrl.envs import GymEnv, GymWrapper, PettingZooWrapper  # noqa: E402
from torchrl.envs.utils import check_env_specs  # noqa: E402

import inarow  # noqa: E402, F401  (registers the Gymnasium ids)
from inarow.gymnasium import ENV_IDS, InARowVectorEnv  # noqa: E402


@pytest.mark.parametrize("env_id", sorted(ENV_IDS))
def test_gym_env_specs_and_rollouts(env_id):
    env = GymEnv(env_id)
    env.set_seed(0)
    check_env_specs(env)
    rollout = env.rollout(300, break_when_any_done=False)
    assert rollout.batch_size == torch.Size([300])
    reward = rollout["next", "reward"]
    done = rollout["next", "done"]
    assert done.sum() >= 1  # several episodes, random actions included (illegal ones lose)
    assert set(reward.unique().tolist()) <= {-1.0, 0.0, 1.0}
    assert (reward[~done] == 0).all()
    mask = rollout["action_mask"]
    assert mask.dtype == torch.int8 and mask.shape[-1] == env.action_spec.shape[-1]


@pytest.mark.parametrize("opponent", [None, "random"])
@pytest.mark.parametrize("rules", [inarow.Rules.tic_tac_toe(), inarow.Rules.connect_four()])
def test_gym_wrapper_over_the_vector_env(opponent, rules):
    """TorchRL's preferred vector mode (no autoreset: it resets the ended envs
    through ``reset_mask``); its random actions include illegal ones, which lose."""
    vector = InARowVectorEnv(
        4, rules=rules, autoreset_mode=AutoresetMode.DISABLED, opponent=opponent, seed=0
    )
    env = GymWrapper(vector)
    env.set_seed(0)
    check_env_specs(env)
    rollout = env.rollout(120, break_when_any_done=False)
    assert rollout.batch_size == torch.Size([4, 120])
    reward = rollout["next", "reward"]
    done = rollout["next", "done"]
    assert done.sum() >= 4  # every env ended episodes and was reset by TorchRL
    assert set(reward.unique().tolist()) <= {-1.0, 0.0, 1.0}
    assert (reward[~done] == 0).all() and (reward[done] != 0).any()
    mask = rollout["action_mask"]
    assert mask.dtype == torch.int8 and (mask.sum(-1) > 0).all()  # never an empty mask


# TorchRL warns that it is tested with PettingZoo 1.24.3 only: its own notice.
@pytest.mark.filterwarnings("ignore:PettingZoo in TorchRL is tested using version:UserWarning")
@pytest.mark.parametrize("kwargs", [dict(), dict(rules=inarow.Rules.tic_tac_toe())])
def test_pettingzoo_wrapper_over_the_aec_env(kwargs):
    import inarow.pettingzoo as pz

    env = PettingZooWrapper(env=pz.env(**kwargs), use_mask=True)
    check_env_specs(env)
    rollout = env.rollout(200, break_when_any_done=False)
    r0 = rollout["next", "player_0", "reward"]
    r1 = rollout["next", "player_1", "reward"]
    assert rollout["next", "done"].sum() >= 1
    # Zero-sum: every decided game gives +1 to one player and -1 to the other.
    assert r0.sum() == -r1.sum()
    mask = rollout["player_0", "action_mask"]
    assert mask.dtype == torch.bool
