"""Stable-Baselines3 and sb3-contrib read the Gymnasium env with default settings and
no glue: SB3's own `check_env`, PPO on unmasked actions, MaskablePPO through
`action_masks()`. Needs ``pip install stable-baselines3 sb3-contrib`` (and torch): not
in the ``[test]`` extra; run with ``-m ecosystem`` in the second CI environment."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("stable_baselines3", reason="stable-baselines3 is not installed")
pytestmark = pytest.mark.ecosystem

import gymnasium as gym  # noqa: E402
from stable_baselines3 import PPO  # noqa: E402
from stable_baselines3.common.env_checker import check_env  # noqa: E402
from stable_baselines3.common.preprocessing import is_image_space  # noqa: E402

from inarow.gymnasium import ENV_IDS  # noqa: E402

# SB3's checker calls every 3-D Box an image; the planes are not one (values 0/1, not
# 0..255), and SB3's policies agree (`is_image_space` is False: no CNN, no /255).
IMAGE_HEURISTICS = (
    "It seems that your observation space observation is an image but the upper and lower",
    "The minimal resolution for an image is 36x36",
)


@pytest.mark.parametrize("env_id", sorted(ENV_IDS))
def test_sb3_check_env(env_id):
    env = gym.make(env_id).unwrapped
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(5):  # random actions: illegal ones end the episode as a loss
            check_env(env)
    unexpected = [str(w.message) for w in caught if not str(w.message).startswith(IMAGE_HEURISTICS)]
    assert unexpected == []
    assert not is_image_space(env.observation_space["observation"])


def test_ppo_trains_on_unmasked_actions():
    """PPO samples full columns; the episode ends as a loss instead of raising."""
    env = gym.make("inarow/ConnectFour-v0")
    model = PPO("MultiInputPolicy", env, n_steps=256, batch_size=64, seed=0, device="cpu")
    model.learn(512)
    obs, _ = env.reset(seed=0)
    action, _ = model.predict(obs, deterministic=True)
    assert env.action_space.contains(int(action))


def test_maskable_ppo_uses_action_masks():
    sb3_contrib = pytest.importorskip("sb3_contrib", reason="sb3-contrib is not installed")
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    env = gym.make("inarow/TicTacToe-v0")
    assert is_masking_supported(env)
    model = sb3_contrib.MaskablePPO(
        "MultiInputPolicy", env, n_steps=128, batch_size=64, seed=0, device="cpu"
    )
    model.learn(256)
    masks = get_action_masks(model.get_env())
    assert masks.shape == (1, 9) and masks.dtype == bool
    # every masked prediction is legal, so a masked game never forfeits
    rng = np.random.default_rng(0)
    for _ in range(20):
        obs, _ = env.reset(seed=int(rng.integers(2**31)))
        terminated = False
        while not terminated:
            mask = env.unwrapped.action_masks()
            action, _ = model.predict(obs, action_masks=mask)
            assert mask[int(action)]
            obs, _, terminated, _, info = env.step(int(action))
        assert not info["illegal_action"]
