"""The replay buffer: the latest self-play positions in a ring, sampled uniformly,
each sample under a random symmetry of the board (``inarow.train.symmetry``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from inarow.train.config import TrainConfig
from inarow.train.symmetry import symmetries

__all__ = ["Batch", "ReplayBuffer"]

Batch = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


class ReplayBuffer:
    """Positions as (observation planes, legal mask, policy target, value target)."""

    def __init__(self, config: TrainConfig) -> None:
        r = config.rules
        self.height, self.width = r["height"], r["width"]
        self.capacity = config.replay_capacity
        self.obs = np.zeros((self.capacity, r["players"], self.height, self.width), np.uint8)
        self.mask = np.zeros((self.capacity, config.num_actions), bool)
        self.policy = np.zeros((self.capacity, config.num_actions), np.float32)
        self.value = np.zeros((self.capacity, config.value_size), np.float32)
        self.size = 0
        self.next = 0
        self.added = 0  # positions ever added
        self.symmetries = symmetries(r)

    def __len__(self) -> int:
        return self.size

    def add(self, obs: np.ndarray, mask: np.ndarray, policy: np.ndarray, value: np.ndarray) -> None:
        n = len(obs)
        if n > self.capacity:
            obs, mask, policy, value = (
                obs[-self.capacity :],
                mask[-self.capacity :],
                policy[-self.capacity :],
                value[-self.capacity :],
            )
            self.added += n - self.capacity
            n = self.capacity
        idx = (self.next + np.arange(n)) % self.capacity
        self.obs[idx] = obs
        self.mask[idx] = mask
        self.policy[idx] = policy
        self.value[idx] = value.reshape(n, -1)
        self.next = int((self.next + n) % self.capacity)
        self.size = min(self.capacity, self.size + n)
        self.added += n

    def sample(self, n: int, rng: np.random.Generator) -> Batch:
        """``n`` positions drawn uniformly, each under a random symmetry."""
        if self.size == 0:
            raise ValueError("the replay buffer is empty")
        idx = rng.integers(0, self.size, n)
        obs = self.obs[idx].astype(np.float32)
        mask = self.mask[idx]
        policy = self.policy[idx]
        value = self.value[idx]
        which = rng.integers(0, len(self.symmetries), n)
        for s, sym in enumerate(self.symmetries[1:], start=1):
            sel = which == s
            if sel.any():
                obs[sel] = sym.planes(obs[sel])
                mask[sel] = sym.actions(mask[sel], self.height, self.width)
                policy[sel] = sym.actions(policy[sel], self.height, self.width)
        return obs, mask, policy, value

    def state(self) -> dict[str, Any]:
        n = self.size
        # Stored oldest first, so a resumed buffer of another capacity keeps the newest.
        order = (self.next - n + np.arange(n)) % self.capacity
        return dict(
            obs=self.obs[order],
            mask=self.mask[order],
            policy=self.policy[order],
            value=self.value[order],
            added=self.added,
        )

    def load_state(self, state: dict[str, Any]) -> None:
        self.size = self.next = 0
        self.add(state["obs"], state["mask"], state["policy"], state["value"])
        self.added = int(state["added"])
