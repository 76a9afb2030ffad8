"""The CleanRL-style masked PPO example (examples/cleanrl_masked_ppo.py) runs over
the vector env against its built-in opponent with default env settings, never
samples a masked action (the env raises on illegal actions by default), and learns:
the agent's mean return against random rises. Needs torch; marker ``ecosystem``."""

from __future__ import annotations

import numpy as np
import pytest
from harness import load_example

import inarow

torch = pytest.importorskip("torch", reason="torch is not installed")
pytestmark = pytest.mark.ecosystem


@pytest.fixture(autouse=True)
def one_torch_thread():
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def test_masked_ppo_learns_against_random():
    """Tic-tac-toe, random seats: the mean return starts near 0 (a random player)
    and passes +0.7 within 40k steps on seeds 0-2; the bounds leave a wide margin."""
    lines: list[str] = []
    history = load_example("cleanrl_masked_ppo").train(total_steps=24_576, seed=0, log=lines.append)
    returns = history["mean_return"]
    assert len(returns) == len(lines) == 24
    assert min(history["episodes"]) > 50
    first, last = np.mean(returns[:3]), np.mean(returns[-3:])
    assert abs(first) < 0.35
    assert last > 0.4 and last - first > 0.3


def test_the_masks_reach_the_sampler_on_connect_four():
    history = load_example("cleanrl_masked_ppo").train(
        total_steps=4096,
        num_envs=32,
        rules=inarow.Rules.connect_four(),
        opponent="greedy",
        seed=1,
        log=lambda _: None,
    )
    assert len(history["mean_return"]) == 2
    assert all(-1 <= r <= 1 for r in history["mean_return"])
