"""The network: a small residual conv tower with a policy head and a value head.

Input: the search's egocentric planes ``(B, players, height, width)``. Outputs:
policy logits ``(B, num_actions)`` and values ``(B, value_size)`` in [-1, 1] (one
value for 2 players, the side to move's; else one per player, column ``i`` the
player ``i`` turns after the side to move), the contract of ``inarow.MCTS``.
Batch norm trains; the export folds it into the convolutions
(``inarow.train.export``), so the numpy forward (``inarow.numpy_net``) is convs,
ReLUs and two small linear heads.

Auxiliary heads (``TrainConfig.final_board_weight``, ``reply_weight``) share the
tower and train only: ``forward_all`` adds the final board's logits
``(B, players + 1, height, width)`` (class 0 empty, class ``i`` the player ``i - 1``
turns after the side to move) and the reply's logits ``(B, num_actions)``.
"""

from __future__ import annotations

import torch
from torch import nn

from inarow.train.config import TrainConfig

__all__ = ["Network", "VALUE_HIDDEN"]

#: Width of the value head's hidden layer.
VALUE_HIDDEN = 64


class _ConvBN(nn.Sequential):
    def __init__(self, cin: int, cout: int, kernel: int) -> None:
        super().__init__(
            nn.Conv2d(cin, cout, kernel, padding=kernel // 2, bias=False), nn.BatchNorm2d(cout)
        )


class _Residual(nn.Module):
    def __init__(self, channels: int) -> None:
        super().__init__()
        self.a = _ConvBN(channels, channels, 3)
        self.b = _ConvBN(channels, channels, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x + self.b(torch.relu(self.a(x))))


class Network(nn.Module):
    """Residual conv net for one rule set (``TrainConfig`` gives its sizes)."""

    def __init__(self, config: TrainConfig) -> None:
        super().__init__()
        r = config.rules
        self.players, self.height, self.width = r["players"], r["height"], r["width"]
        self.num_actions = config.num_actions
        self.value_size = config.value_size
        c = config.channels
        cells = self.height * self.width
        self.stem = _ConvBN(self.players, c, 3)
        self.blocks = nn.ModuleList(_Residual(c) for _ in range(config.blocks))
        self.policy_conv = _ConvBN(c, 2, 1)
        self.policy_fc = nn.Linear(2 * cells, self.num_actions)
        self.value_conv = _ConvBN(c, 1, 1)
        self.value_fc1 = nn.Linear(cells, VALUE_HIDDEN)
        self.value_fc2 = nn.Linear(VALUE_HIDDEN, self.value_size)
        final_board, reply = config.auxiliary_heads
        self.final_board_conv = nn.Conv2d(c, self.players + 1, 1) if final_board else None
        if reply:
            self.reply_conv: nn.Module | None = _ConvBN(c, 2, 1)
            self.reply_fc: nn.Module | None = nn.Linear(2 * cells, self.num_actions)
        else:
            self.reply_conv = self.reply_fc = None

    def _tower(self, obs: torch.Tensor) -> torch.Tensor:
        x = torch.relu(self.stem(obs))
        for block in self.blocks:
            x = block(x)
        return x

    def _heads(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        p = torch.relu(self.policy_conv(x)).flatten(1)
        logits = self.policy_fc(p)
        v = torch.relu(self.value_conv(x)).flatten(1)
        values = torch.tanh(self.value_fc2(torch.relu(self.value_fc1(v))))
        return logits, values

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self._heads(self._tower(obs))

    def forward_all(
        self, obs: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor | None, torch.Tensor | None]:
        """Policy logits, values, then the auxiliary heads' logits (``None`` where the
        network has no such head)."""
        x = self._tower(obs)
        logits, values = self._heads(x)
        final_board = self.final_board_conv(x) if self.final_board_conv is not None else None
        reply = None
        if self.reply_conv is not None and self.reply_fc is not None:
            reply = self.reply_fc(torch.relu(self.reply_conv(x)).flatten(1))
        return logits, values, final_board, reply

    def num_parameters(self) -> int:
        """The parameters of the network as exported (the auxiliary heads train only)."""
        auxiliary = ("final_board_conv.", "reply_conv.", "reply_fc.")
        return sum(p.numel() for n, p in self.named_parameters() if not n.startswith(auxiliary))
