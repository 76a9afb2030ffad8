"""The shipped networks (plain install, numpy inference): they load, stay under 1 MB,
play legal moves, expose their raw policy and value; the tic-tac-toe network makes no
win/draw/loss mistake on any reachable position."""

from __future__ import annotations

import os

import numpy as np
import pytest
from harness import TIC_TAC_TOE_ARGS, play

import inarow
from inarow.pretrained import PRETRAINED, _weights_path
from inarow.train.evaluation import brute_force_mistakes, solve_small_board

GAMES = sorted(PRETRAINED)


@pytest.mark.installed
@pytest.mark.parametrize("game", GAMES)
def test_shipped_weights_are_small_and_numpy_only(game):
    path = _weights_path(game)
    assert path.is_file() and os.path.getsize(path) <= 1_000_000
    with np.load(path, allow_pickle=False) as data:  # no pickles in the shipped files
        assert all(data[n].dtype != object for n in data.files)


@pytest.mark.parametrize("game", GAMES)
def test_pretrained_agents_play_legal_moves(game):
    agent = inarow.agents.pretrained(game, simulations=8)
    rng = np.random.default_rng(0)
    board = inarow.Board.connect_four() if game == "connect_four" else inarow.Board.tic_tac_toe()
    for _ in range(4):
        b = board.copy()
        while not b.is_over:
            if rng.random() < 0.5:
                a = agent(b)
            else:
                a = int(rng.choice(b.legal_moves()))
            assert b.is_legal(a)
            before = b.copy()
            b.move(a)
            assert before != b
        policy, value = agent.policy_value(board)
        assert policy.shape == (board.num_actions,) and abs(policy.sum() - 1) < 1e-5
        assert isinstance(value, float) and -1 <= value <= 1
    full = inarow.Board.from_moves([0, 0, 0, 0, 0, 0]) if game == "connect_four" else None
    if full is not None:
        policy, _ = agent.policy_value(full)
        assert policy[0] == 0  # an illegal column gets no probability
        assert agent(full) != 0


def test_pretrained_refuses_unknown_games_and_foreign_boards():
    with pytest.raises(ValueError, match="gomoku"):
        inarow.agents.pretrained("gomoku")
    agent = inarow.agents.pretrained("tic_tac_toe")
    with pytest.raises(ValueError, match="rules"):
        agent(inarow.Board.connect_four())
    with pytest.raises(ValueError, match="simulations"):
        inarow.agents.pretrained("tic_tac_toe", simulations=-1)
    over = inarow.Board.from_moves([0, 3, 1, 4, 2], width=3, height=3, k=3, gravity=False)
    with pytest.raises(inarow.IllegalMoveError):
        agent(over)


def test_pretrained_tic_tac_toe_makes_no_mistake():
    table = solve_small_board(dict(width=3, height=3, k=3, players=2, gravity=False))
    for simulations in (0, 32):
        agent = inarow.agents.pretrained("tic_tac_toe", simulations=simulations)
        positions, mistakes = brute_force_mistakes(agent, table)
        assert (positions, mistakes) == (4520, 0), simulations


def test_move_accuracy_batches_network_agents():
    agent = inarow.agents.pretrained("connect_four", simulations=0)
    calls = []
    real = agent.actions

    def counting(boards):
        calls.append(len(boards))
        return real(boards)

    agent.actions = counting
    r = inarow.evaluate.move_accuracy(agent, "pons", per_set=5, progress=False)
    assert r.overall.positions == 30 and calls == [5] * 6


def test_the_cli_plays_against_the_pretrained_network():
    # The human's scripted cells (occupied ones are refused and skipped): it never wins.
    moves = "".join(f"{r} {c}\n" for r in range(3) for c in range(3))
    r = play(*TIC_TAC_TOE_ARGS, "--opponent", "pretrained:16", stdin=moves)
    assert r.returncode == 0, r.stderr
    assert "engine (pretrained:16)" in r.stdout and "you win" not in r.stdout
    assert "draw" in r.stdout or "player 2 wins" in r.stdout
    r = play("--width", "4", "--height", "4", "--opponent", "pretrained")
    assert r.returncode == 2 and "pretrained networks exist" in r.stderr
