"""The replay buffer: the latest self-play positions in a ring, sampled uniformly,
each sample under a random symmetry of the board (``inarow.symmetry``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from inarow.symmetry import symmetries
from inarow.train.config import TrainConfig

__all__ = ["Batch", "ReplayBuffer", "plain_batch"]

Batch = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]

#: A final-board target no position has (a buffer saved before there were any): left
#: out of the loss, as a reply of -1 is.
NO_FINAL_BOARD = 255


def plain_batch(
    obs: np.ndarray,
    num_actions: int,
    policy: np.ndarray | None = None,
    value: np.ndarray | None = None,
) -> Batch:
    """A learner batch for ``obs`` ``(n, players, H, W)`` without auxiliary targets
    (final board unknown, no reply): every action legal, and unless given, uniform
    policy targets and values of 0 (one column with 2 players, one per player else)."""
    n, players, h, w = obs.shape
    return (
        obs,
        np.ones((n, num_actions), bool),
        np.full((n, num_actions), 1 / num_actions, np.float32) if policy is None else policy,
        np.zeros((n, 1 if players == 2 else players), np.float32) if value is None else value,
        np.full((n, h, w), NO_FINAL_BOARD, np.uint8),
        np.full(n, -1, np.int16),
    )


class ReplayBuffer:
    """Positions as (observation planes, legal mask, policy target, value target,
    final-board target, reply target): the fields of ``inarow.train.selfplay.Games``."""

    def __init__(self, config: TrainConfig) -> None:
        r = config.rules
        self.height, self.width = r["height"], r["width"]
        self.capacity = config.replay_capacity
        self.obs = np.zeros((self.capacity, r["players"], self.height, self.width), np.uint8)
        self.mask = np.zeros((self.capacity, config.num_actions), bool)
        self.policy = np.zeros((self.capacity, config.num_actions), np.float32)
        self.value = np.zeros((self.capacity, config.value_size), np.float32)
        self.final_board = np.zeros((self.capacity, self.height, self.width), np.uint8)
        self.reply = np.zeros(self.capacity, np.int16)
        self.size = 0
        self.next = 0
        self.added = 0  # positions ever added
        self.symmetries = symmetries(r)
        # Where each symmetry sends an action: the reply target's own map.
        actions = np.arange(config.num_actions)[None, :]
        self.action_maps = [
            np.argsort(sym.actions(actions, self.height, self.width)[0]) for sym in self.symmetries
        ]

    def __len__(self) -> int:
        return self.size

    def add(
        self,
        obs: np.ndarray,
        mask: np.ndarray,
        policy: np.ndarray,
        value: np.ndarray,
        final_board: np.ndarray,
        reply: np.ndarray,
    ) -> None:
        # The value store's width, not -1: an empty batch (a carried run's buffer) has none to infer.
        values = value.reshape(len(obs), self.value.shape[1])
        fields = [obs, mask, policy, values, final_board, reply]
        n = len(obs)
        if n > self.capacity:
            fields = [f[-self.capacity :] for f in fields]
            self.added += n - self.capacity
            n = self.capacity
        idx = (self.next + np.arange(n)) % self.capacity
        for store, f in zip(self._stores(), fields):
            store[idx] = f
        self.next = int((self.next + n) % self.capacity)
        self.size = min(self.capacity, self.size + n)
        self.added += n

    def _stores(self) -> list[np.ndarray]:
        return [self.obs, self.mask, self.policy, self.value, self.final_board, self.reply]

    def sample(self, n: int, rng: np.random.Generator) -> Batch:
        """``n`` positions drawn uniformly, each under a random symmetry."""
        if self.size == 0:
            raise ValueError("the replay buffer is empty")
        idx = rng.integers(0, self.size, n)
        obs = self.obs[idx].astype(np.float32)
        mask = self.mask[idx]
        policy = self.policy[idx]
        value = self.value[idx]
        final_board = self.final_board[idx]
        reply = self.reply[idx]
        which = rng.integers(0, len(self.symmetries), n)
        for s, sym in enumerate(self.symmetries[1:], start=1):
            sel = which == s
            if sel.any():
                obs[sel] = sym.planes(obs[sel])
                mask[sel] = sym.actions(mask[sel], self.height, self.width)
                policy[sel] = sym.actions(policy[sel], self.height, self.width)
                final_board[sel] = sym.planes(final_board[sel])
                moved = reply[sel]
                reply[sel] = np.where(moved >= 0, self.action_maps[s][np.maximum(moved, 0)], -1)
        return obs, mask, policy, value, final_board, reply

    def state(self) -> dict[str, Any]:
        n = self.size
        # Stored oldest first, so a resumed buffer of another capacity keeps the newest.
        order = (self.next - n + np.arange(n)) % self.capacity
        return dict(
            obs=self.obs[order],
            mask=self.mask[order],
            policy=self.policy[order],
            value=self.value[order],
            final_board=self.final_board[order],
            reply=self.reply[order],
            added=self.added,
        )

    def load_state(self, state: dict[str, Any]) -> None:
        n = len(state["obs"])
        # A buffer saved before the auxiliary targets has none: its positions train
        # the policy and value only.
        final_board = state.get("final_board")
        if final_board is None:
            final_board = np.full((n, self.height, self.width), NO_FINAL_BOARD, np.uint8)
        reply = state.get("reply")
        if reply is None:
            reply = np.full(n, -1, np.int16)
        self.size = self.next = 0
        self.add(state["obs"], state["mask"], state["policy"], state["value"], final_board, reply)
        self.added = int(state["added"])
