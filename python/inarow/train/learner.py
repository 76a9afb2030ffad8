"""One training step: policy cross-entropy against the search's improved policy
(over legal actions; positions without a policy target left out) plus the value's
squared error against the game's outcome, plus the weighted cross-entropies of the
auxiliary heads the network has (the final board's per cell, the reply's)."""

from __future__ import annotations

import math

import numpy as np
import torch
import torch.nn.functional as F

from inarow.train.config import TrainConfig
from inarow.train.device import autocast
from inarow.train.network import Network
from inarow.train.replay import NO_FINAL_BOARD, Batch

__all__ = ["Learner"]


class Learner:
    """AdamW on the network; ``step(batch)`` returns the loss terms."""

    def __init__(self, net: Network, config: TrainConfig) -> None:
        self.net = net
        self.optimizer = torch.optim.AdamW(
            net.parameters(), lr=config.learning_rate, weight_decay=config.weight_decay
        )
        self.steps = 0
        self.mixed_precision = config.mixed_precision
        self.base_learning_rate = config.learning_rate
        self.final_share = config.final_learning_rate_share
        # Where this session's cosine starts: the full rate for a new run; for a
        # resumed one, the rate it had reached (a schedule never jumps back up).
        self.start_share = 1.0
        self.final_board_weight = config.final_board_weight
        self.reply_weight = config.reply_weight

    def resume_schedule(self) -> None:
        """Starts this session's cosine at the rate the loaded optimizer holds."""
        lr = self.optimizer.param_groups[0]["lr"]
        share = lr / self.base_learning_rate if self.base_learning_rate > 0 else 1.0
        self.start_share = min(max(share, self.final_share), 1.0)

    def anneal(self, progress: float) -> None:
        """Sets the learning rate for ``progress`` in [0, 1] of this session's time
        budget: a cosine from the start share down to the final share."""
        p = min(max(progress, 0.0), 1.0)
        span = self.start_share - self.final_share
        share = self.final_share + span * 0.5 * (1 + math.cos(math.pi * p))
        for group in self.optimizer.param_groups:
            group["lr"] = self.base_learning_rate * share

    def step(self, batch: Batch) -> dict[str, float]:
        device = next(self.net.parameters()).device
        obs, mask, policy, value, final_board, reply = (
            torch.from_numpy(np.ascontiguousarray(a)).to(device, non_blocking=True) for a in batch
        )
        self.net.train()
        with autocast(self.mixed_precision, device):
            logits, v, final_logits, reply_logits = self.net.forward_all(obs)
        # The losses in float32 (softmax and squared error lose too much in bfloat16).
        logits, v = logits.float(), v.float()
        log_p = F.log_softmax(logits.masked_fill(~mask, -1e9), dim=1)
        # Cross-entropy minus the target's entropy: the KL divergence, 0 at a perfect fit.
        # Positions of fast searches (playout cap randomisation) carry an all-zero
        # target and stay out of the mean.
        target_log = torch.log(policy.clamp_min(1e-12))
        per_position = (policy * (target_log - log_p)).sum(1)
        has_target = (policy.sum(1) > 0).float()
        policy_loss = (per_position * has_target).sum() / has_target.sum().clamp_min(1.0)
        value_loss = F.mse_loss(v, value)
        loss = policy_loss + value_loss
        out = {"policy_loss": policy_loss, "value_loss": value_loss}
        if final_logits is not None or reply_logits is not None:
            aux_loss = torch.zeros((), device=device)
            if final_logits is not None:
                aux_loss = aux_loss + self.final_board_weight * _cross_entropy(
                    final_logits.float(), final_board.long(), ignore=NO_FINAL_BOARD
                )
            if reply_logits is not None:
                aux_loss = aux_loss + self.reply_weight * _cross_entropy(
                    reply_logits.float(), reply.long(), ignore=-1
                )
            loss = loss + aux_loss
            out["aux_loss"] = aux_loss
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        self.optimizer.step()
        self.steps += 1
        return {k: t.item() for k, t in out.items()}


def _cross_entropy(logits: torch.Tensor, target: torch.Tensor, ignore: int) -> torch.Tensor:
    """Mean cross-entropy over the targets that are not ``ignore`` (0 when none is),
    without a host-device synchronisation."""
    total = F.cross_entropy(logits, target, ignore_index=ignore, reduction="sum")
    return total / (target != ignore).sum().clamp_min(1)
