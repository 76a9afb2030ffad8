"""The self-play credit recipe (examples/selfplay_credit.py) against a Board replay:
each player's last move of a finished game carries its result, nothing else does."""

from __future__ import annotations

import pytest
from harness import load_example

import inarow


@pytest.mark.parametrize(
    "rules", [dict(width=3, height=3, k=3, gravity=False), dict(players=3, k=3)]
)
def test_credit_matches_a_board_replay(rules):
    ex = load_example("selfplay_credit")
    n, steps = 12, 80
    env = inarow.VecEnv(n, seed=4, rules=inarow.Rules(**rules))
    r = ex.rollout(env, steps)
    rewards, dones = ex.credit(r["movers"], r["player_rewards"], r["terminated"], r["skipped"])
    players = env.players
    finished = 0
    for i in range(n):
        board = inarow.Board(rules=inarow.Rules(**rules))
        moves: list[int] = []  # the steps of this episode's moves
        for t in range(steps):
            if r["skipped"][t, i]:
                continue
            assert board.current_player == r["movers"][t, i]
            board.move(int(r["actions"][t, i]))
            moves.append(t)
            if board.is_over:
                assert r["terminated"][t, i]
                finished += 1
                last = {}
                for ply, step in enumerate(moves):
                    last[ply % players + 1] = step
                for ply, step in enumerate(moves):
                    player = ply % players + 1
                    expect = 0.0
                    if step == last[player] and board.winner is not None:
                        expect = 1.0 if board.winner == player else -1.0
                    assert rewards[step, i] == expect
                    assert dones[step, i] == (step == last[player])
                if players == 2:
                    assert sum(rewards[s, i] for s in moves) == 0
                board = inarow.Board(rules=inarow.Rules(**rules))
                moves = []
        for step in moves:  # the unfinished game: nothing credited yet
            assert rewards[step, i] == 0 and not dones[step, i]
    assert finished > n


def test_the_example_runs(capsys):
    load_example("selfplay_credit").main()
    assert "zero-sum" in capsys.readouterr().out
