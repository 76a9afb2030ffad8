"""`inarow.connectx.agent`, the callable kaggle-environments calls, with plain dict,
namespace and Struct-like inputs: legal moves for any rules, wins taken and threats
blocked from the first move, bad observations refused."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

import inarow
from inarow.connectx import agent, board_of


class Struct(dict):
    """Kaggle's `Struct`: a dict whose keys are also attributes."""

    def __getattr__(self, name):
        return self[name]


def observation(board: inarow.Board) -> dict:
    return {"board": board.to_numpy().ravel().tolist(), "mark": board.current_player}


def config(rows: int = 6, columns: int = 7, k: int = 4, act_timeout: float = 2.0) -> dict:
    return {"rows": rows, "columns": columns, "inarow": k, "actTimeout": act_timeout}


@pytest.mark.parametrize("wrap", [dict, Struct, lambda d: SimpleNamespace(**d)])
def test_plain_inputs_of_every_shape(wrap):
    board = inarow.Board.from_moves([3, 0, 3, 0, 3])  # player 2 must block column 3
    assert agent(wrap(observation(board)), wrap(config())) == 3
    board.move(1)  # now player 1 wins in column 3
    assert agent(wrap(observation(board)), wrap(config())) == 3


def test_the_observation_is_read_top_row_first():
    board = inarow.Board.from_moves([0, 6, 0, 6, 0])
    got = board_of(observation(board), config())
    assert got == board and got.current_player == 2


@pytest.mark.parametrize(
    "rows,columns,k", [(6, 7, 4), (5, 6, 4), (7, 8, 4), (6, 7, 5), (10, 10, 5), (9, 12, 4)]
)
def test_whole_games_against_random_are_legal_and_won(rows, columns, k):
    rng = random.Random(rows * 100 + columns)
    conf = config(rows, columns, k, act_timeout=0.2)
    board = inarow.Board(rules=inarow.Rules(width=columns, height=rows, k=k))
    while not board.is_over:
        if board.current_player == 1:
            move = agent(observation(board), conf)
            assert move in board.legal_moves()
        else:
            move = rng.choice(board.legal_moves())
        board.move(move)
    if k == 4:
        assert board.winner == 1  # a random opponent never holds a 4-in-a-row agent


def test_bad_observations_raise_clearly():
    board = inarow.Board.from_moves([3])
    with pytest.raises(ValueError, match="mark=1"):
        agent({"board": observation(board)["board"], "mark": 1}, config())
    with pytest.raises(ValueError, match="41 cells"):
        agent({"board": [0] * 41, "mark": 1}, config())
    with pytest.raises(ValueError, match="'mark'"):
        agent({"board": [0] * 42}, config())
    with pytest.raises(TypeError, match="rows"):
        agent({"board": [0] * 42, "mark": 1}, {"rows": 6.0, "columns": 7, "inarow": 4})
    with pytest.raises(ValueError, match="actTimeout"):
        agent({"board": [0] * 42, "mark": 1}, config(act_timeout=-1))
    floating = [0] * 42
    floating[3] = 1  # a stone in the top row above empty cells
    with pytest.raises(inarow.InvalidPositionError):
        agent({"board": floating, "mark": 2}, config())
