"""The network path under renju and standard: MCTS never expands a forbidden cell, the
network agent plays the rule it was trained under only, and the shipped networks
refuse other rules naming the one they play (issue 57)."""

from __future__ import annotations

import numpy as np
import pytest

import inarow

RENJU = inarow.Rules.gomoku(rule="renju")
FORBIDDEN = 7 * 15 + 7  # h8


def _double_three() -> inarow.Board:
    """Black to move with a double three at h8: black's stones on row 7 (cols 5, 6)
    and col 7 (rows 5, 6), white's on the top row."""
    b = inarow.Board(rules=RENJU)
    for row, col in [(7, 5), (0, 0), (7, 6), (0, 2), (5, 7), (0, 4), (6, 7), (0, 6)]:
        b.move(row * 15 + col)
    assert (FORBIDDEN, "double three") in b.forbidden_moves()
    return b


def _all_on(cell: int):
    """An evaluator whose prior puts nearly everything on ``cell``."""

    def evaluate(obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        logits = np.zeros(mask.shape, np.float32)
        logits[:, cell] = 50.0
        return logits, np.zeros(len(obs), np.float32)

    return evaluate


@pytest.mark.parametrize("root", ["puct", "gumbel"])
def test_mcts_never_expands_a_forbidden_cell_whatever_the_prior(root):
    board = _double_three()
    assert not board.legal_mask()[FORBIDDEN]
    search = inarow.MCTS(RENJU, num_simulations=64, root=root, seed=1, threads=1)
    out = search.run([board], _all_on(FORBIDDEN))
    assert out.policy[0][FORBIDDEN] == 0
    assert int(out.actions[0]) != FORBIDDEN and board.is_legal(int(out.actions[0]))


def test_the_shipped_networks_refuse_another_rule_naming_the_one_they_play():
    with pytest.raises(inarow.UnsupportedRulesError, match="plays rule='freestyle' only"):
        inarow.agents.named("pretrained", rules=RENJU)
    agent = inarow.agents.pretrained("15x15_k5_free", simulations=0)
    with pytest.raises(inarow.UnsupportedRulesError, match="plays rule='freestyle' only"):
        agent(_double_three())
    # Rules that no network plays under any rule stay a plain ValueError.
    with pytest.raises(ValueError, match="no shipped network plays"):
        inarow.agents.named("pretrained", rules=inarow.Rules.gomoku(9))


def test_vec_env_masks_leave_out_the_cells_forbidden_to_black():
    env = inarow.VecEnv(1, rules=RENJU, seed=0, threads=1)
    env.reset()
    for action in _double_three().moves:
        env.step(np.array([action]))
    mask = env.legal_mask()[0]
    assert not mask[FORBIDDEN] and mask.sum() == 225 - 8 - 1
