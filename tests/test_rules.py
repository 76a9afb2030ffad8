"""`inarow.Rules` (value semantics, presets, `rules` as the one way rules enter) and the RL
semantics the core computes once: `Board.returns`, `Board.observation(player=)`,
`Solver.supports`."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import played_boards, rule_kwargs, rules

import inarow
from inarow import Board, Rules

# ------------------------------------------------------------------ the value


@given(rule_kwargs(max_width=12, max_height=12, max_players=16))
def test_rules_round_trip_through_repr_pickle_copy_and_to_dict(kw):
    r = Rules(**kw)
    assert (r.width, r.height, r.k, r.players, r.gravity) == tuple(kw.values())
    assert r.num_actions == (kw["width"] if kw["gravity"] else kw["width"] * kw["height"])
    assert r.to_dict() == kw
    for same in (
        eval(repr(r), {"Rules": Rules}),
        pickle.loads(pickle.dumps(r)),
        copy.copy(r),
        copy.deepcopy(r),
        Rules(**r.to_dict()),
        Board(r).rules,
        Board(rules=r).rules,
        inarow.VecEnv(1, rules=r, seed=0).rules,
    ):
        assert same == r and hash(same) == hash(r) and type(same) is Rules


@given(rule_kwargs(max_width=9, max_height=9), rule_kwargs(max_width=9, max_height=9))
def test_equality_and_hash_follow_the_five_fields(a, b):
    ra, rb = Rules(**a), Rules(**b)
    assert (ra == rb) == (a == b)
    assert (ra != rb) == (a != b)
    if a == b:
        assert hash(ra) == hash(rb)
    assert len({ra, rb, Rules(**a)}) == (1 if a == b else 2)


def test_rules_are_frozen_and_never_equal_to_other_types():
    r = Rules()
    with pytest.raises(AttributeError):
        r.width = 8  # type: ignore[misc]
    assert r != r.to_dict() and r != (7, 6, 4, 2, True) and r != Board()


def test_presets_match_the_board_presets_and_the_gymnasium_ids():
    assert Rules() == Rules.connect_four() == Board.connect_four().rules
    assert Rules.tic_tac_toe() == Board.tic_tac_toe().rules == Rules(3, 3, 3, 2, False)
    assert Rules.gomoku() == Board.gomoku().rules == Rules(15, 15, 5, 2, False)
    assert Rules.gomoku(19) == Board.gomoku(19).rules
    gym = pytest.importorskip("inarow.gymnasium")
    ids = gym.ENV_IDS
    assert ids["inarow/ConnectFour-v0"] == Rules.connect_four()
    assert ids["inarow/TicTacToe-v0"] == Rules.tic_tac_toe()
    assert ids["inarow/Gomoku-v0"] == Rules.gomoku()


def test_replace_changes_only_the_given_fields_and_validates():
    r = Rules.connect_four()
    assert r.replace(k=5) == Rules(k=5) and r == Rules()
    assert r.replace(players=3, gravity=False) == Rules(players=3, gravity=False)
    with pytest.raises(inarow.InvalidRulesError, match="k=9"):
        r.replace(k=9)


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        (dict(width=0), inarow.InvalidRulesError, "width=0"),
        (dict(width=65), inarow.InvalidRulesError, "width=65"),
        (dict(k=8), inarow.InvalidRulesError, "k=8"),
        (dict(players=17), inarow.InvalidRulesError, "players=17"),
        (dict(width=2**70), inarow.InvalidRulesError, str(2**70)),
        (dict(width=True), TypeError, "width must be an integer, not bool"),
        (dict(k=4.0), TypeError, "k must be an integer"),
        (dict(gravity=1), TypeError, "gravity must be a bool"),
    ],
)
def test_bad_rules_raise_the_usual_errors_naming_the_value(kwargs, error, message):
    with pytest.raises(error, match=message):
        Rules(**kwargs)


def test_gomoku_size_out_of_range():
    with pytest.raises(inarow.InvalidRulesError, match=r"k=5 is larger than both sides \(4x4\)"):
        Rules.gomoku(4)
    with pytest.raises(inarow.InvalidRulesError, match=str(2**70)):
        Rules.gomoku(2**70)


# ------------------------------------------------- rules, the one way rules enter

R = Rules(5, 4, 3, 3, False)

# Every binding entry point that takes rules: (call with rules given positionally,
# call with rules=, call with one loose rule keyword, the rules of the result).
ENTRY_POINTS = {
    "Board": (
        lambda: Board(R),
        lambda: Board(rules=R),
        lambda: Board(width=5),  # refused keyword
        lambda b: b.rules,
    ),
    "Board.from_moves": (
        lambda: Board.from_moves([0, 7], R),
        lambda: Board.from_moves([0, 7], rules=R),
        lambda: Board.from_moves([0, 7], width=5),  # refused keyword
        lambda b: b.rules,
    ),
    "Board.from_numpy": (
        lambda: Board.from_numpy(np.zeros((4, 5), dtype=np.int8), R),
        lambda: Board.from_numpy(np.zeros((4, 5), dtype=np.int8), rules=R),
        lambda: Board.from_numpy(np.zeros((4, 5), dtype=np.int8), k=3),
        lambda b: b.rules,
    ),
    "VecEnv": (
        lambda: inarow.VecEnv(2, R, 0),
        lambda: inarow.VecEnv(2, rules=R, seed=0),
        lambda: inarow.VecEnv(2, gravity=False),  # refused keyword
        lambda env: env.rules,
    ),
    "simulate": (
        lambda: inarow.simulate(3, R, 1),
        lambda: inarow.simulate(3, rules=R, seed=1),
        lambda: inarow.simulate(3, players=3),  # refused keyword
        lambda result: (result.wins, result.draws),
    ),
    "MCTS": (
        lambda: inarow.MCTS(R, num_simulations=2),
        lambda: inarow.MCTS(rules=R, num_simulations=2),
        lambda: inarow.MCTS(width=5),  # refused keyword
        lambda search: search.num_actions,
    ),
    "play_match": (
        lambda: inarow._native.play_match(inarow.agents.random(), inarow.agents.random(), 2, R, 1),
        lambda: inarow._native.play_match(
            inarow.agents.random(), inarow.agents.random(), 2, rules=R, seed=1
        ),
        lambda: inarow._native.play_match(
            inarow.agents.random(), inarow.agents.random(), 2, k=3
        ),  # refused keyword
        lambda counts: sorted(counts),
    ),
    "match_openings": (
        lambda: inarow._native.match_openings(4, R, 1, opening_plies=2),
        lambda: inarow._native.match_openings(4, rules=R, seed=1, opening_plies=2),
        lambda: inarow._native.match_openings(4, k=3),  # refused keyword
        lambda openings: openings,
    ),
}


@pytest.mark.parametrize("name", ENTRY_POINTS)
def test_every_entry_point_takes_rules_positionally_or_by_keyword(name):
    positional, keyword, _, result = ENTRY_POINTS[name]
    assert result(positional()) == result(keyword())


@pytest.mark.parametrize("name", ENTRY_POINTS)
def test_every_entry_point_refuses_the_loose_rule_keywords(name):
    _, _, loose, _ = ENTRY_POINTS[name]
    with pytest.raises(TypeError, match="unexpected keyword argument"):
        loose()


def test_the_given_rules_are_the_ones_played():
    assert Board(R).rules == Board.from_moves([0, 7], R).rules == R
    assert Board.from_numpy(np.zeros((4, 5), dtype=np.int8), R).rules == R
    assert inarow.VecEnv(2, R, 0).rules == R
    assert len(inarow.simulate(3, R, 1).wins) == 3
    assert inarow.MCTS(R).num_actions == R.num_actions == 20
    assert Board.from_pons("12", Rules(9, 7, 5)).rules == Rules(9, 7, 5)


def test_none_is_connect_four_everywhere():
    c4 = Rules.connect_four()
    assert Board(None).rules == Board().rules == Board.from_moves([]).rules == c4
    assert inarow.VecEnv(1, None).rules == inarow.VecEnv(1).rules == c4
    assert Board.from_pons("44", None).rules == c4
    assert inarow.MCTS(None).num_actions == 7


def test_from_numpy_without_rules_takes_the_array_size_with_the_defaults():
    board = Board.from_numpy(np.zeros((5, 9), dtype=np.int8))
    assert board.rules == Rules(9, 5, 4, 2, True)


def test_from_numpy_refuses_rules_of_another_size_naming_both():
    with pytest.raises(ValueError) as info:
        Board.from_numpy(np.zeros((6, 8), dtype=np.int8), Rules.connect_four())
    message = str(info.value)
    assert "(6, 8)" in message and "7x6" in message and "width=7, height=6" in message


def test_from_pons_refuses_rules_without_gravity():
    with pytest.raises(inarow.InvalidRulesError, match="gravity") as info:
        Board.from_pons("1", Rules.tic_tac_toe())
    assert "Rules(width=3, height=3" in str(info.value)


def test_python_adapters_take_rules_first():
    gym = pytest.importorskip("inarow.gymnasium")
    ttt = Rules.tic_tac_toe()
    assert gym.InARowEnv(ttt).rules == ttt
    assert gym.InARowVectorEnv(2, ttt).rules == ttt
    with pytest.raises(TypeError, match="unexpected keyword argument"):
        gym.InARowEnv(width=3)  # type: ignore[call-arg]  refused keyword
    with pytest.raises(TypeError, match="unexpected keyword argument"):
        gym.InARowVectorEnv(2, k=3)  # type: ignore[call-arg]  refused keyword


@pytest.mark.parametrize("bad", [5, "connect_four", {"width": 7}, Board()])
def test_rules_must_be_a_rules_value(bad):
    with pytest.raises(TypeError, match="rules must be an inarow.Rules"):
        Board(rules=bad)
    with pytest.raises(TypeError, match="rules must be an inarow.Rules"):
        inarow.VecEnv(1, rules=bad)


# ----------------------------------------------------------------------- returns


def reference_returns(board: Board) -> np.ndarray:
    out = np.zeros(board.players, dtype=np.float32)
    if board.winner is not None:
        out[:] = -1
        out[board.winner - 1] = 1
    return out


@given(played_boards(max_width=7, max_height=6, max_players=4))
def test_returns_follow_pgx(board):
    r = board.returns()
    assert r.dtype == np.float32 and r.shape == (board.players,)
    assert np.array_equal(r, reference_returns(board))
    if board.winner is None:  # a draw or a game still running
        assert not r.any()
    else:  # one winner at +1, every other player at -1
        assert r.sum() == 2 - board.players
        assert np.flatnonzero(r > 0).tolist() == [board.winner - 1]
        assert (r[r != 1] == -1).all()


def test_returns_at_known_ends():
    win = Board.from_moves([3, 3, 4, 4, 5, 5, 6])
    assert win.returns().tolist() == [1.0, -1.0]
    draw = Board.from_moves([0, 1, 2, 4, 3, 5, 7, 6, 8], Rules(3, 3, 3, 2, False))
    assert draw.is_draw and draw.returns().tolist() == [0.0, 0.0]
    three = Board.from_moves([0, 1, 2, 0, 1, 2, 0], Rules(3, 4, 3, 3, True))
    assert three.winner == 1 and three.returns().tolist() == [1.0, -1.0, -1.0]
    assert Board(rules=Rules(players=5)).returns().tolist() == [0.0] * 5


# ------------------------------------------------------------ observation(player)


def reference_planes(board: Board, player: int) -> np.ndarray:
    grid = board.to_numpy()
    p = board.players
    return np.stack([grid == (player - 1 + i) % p + 1 for i in range(p)]).astype(np.uint8)


@given(played_boards(max_width=7, max_height=6, max_players=4), st.data())
def test_observation_of_any_player_against_numpy(board, data):
    player = data.draw(st.integers(1, board.players))
    before = (board.to_bytes(), board.moves)
    for dtype, np_dtype in (("uint8", np.uint8), ("bool", np.bool_), ("float32", np.float32)):
        planes = board.observation(dtype, player=player)
        assert planes.dtype == np_dtype
        assert np.array_equal(planes.astype(np.uint8), reference_planes(board, player))
    assert np.array_equal(board.observation(), board.observation(player=board.current_player))
    assert np.array_equal(board.observation(player=None), board.observation())
    assert (board.to_bytes(), board.moves) == before


@pytest.mark.parametrize(
    "player, error, message",
    [
        (0, ValueError, "player=0 is out of range: allowed 1..=3"),
        (4, ValueError, "player=4"),
        (-1, ValueError, "player=-1"),
        (2**70, ValueError, str(2**70)),
        (True, TypeError, "player must be an integer, not bool"),
        (1.0, TypeError, "player must be an integer"),
        ("1", TypeError, "player must be an integer"),
    ],
)
def test_bad_player_raises_and_changes_nothing(player, error, message):
    board = Board.from_moves([0, 1, 2], rules=Rules(players=3))
    before = board.copy()
    with pytest.raises(error, match=message):
        board.observation(player=player)
    assert board == before and board.moves == before.moves


# ------------------------------------------------------------------ Solver.supports


@given(rule_kwargs(max_width=12, max_height=12))
def test_solver_supports_exactly_where_the_solver_runs(kw):
    r = Rules(**kw)
    w, h = kw["width"], kw["height"]
    fits = w * (h + 1) <= 64 if kw["gravity"] else w * h <= 128
    expected = kw["players"] == 2 and fits
    assert inarow.Solver.supports(r) is expected
    assert inarow.Solver.supports(Board(rules=r)) is expected
    if not expected:
        with pytest.raises(inarow.UnsupportedRulesError):
            inarow.Solver(tt_bytes=1 << 16, threads=1).solve(Board(rules=r))


@pytest.mark.parametrize("bad", [None, 5, "7x6", {"width": 7}])
def test_solver_supports_refuses_other_types(bad):
    with pytest.raises(
        TypeError, match="rules_or_board must be an inarow.Rules or an inarow.Board"
    ):
        inarow.Solver.supports(bad)


@given(rules(max_width=3, max_height=3))
def test_the_shared_rules_strategy_builds_values_within_its_bounds(r):
    assert isinstance(r, Rules) and r.width <= 3 and r.height <= 3 and 2 <= r.players <= 4


def test_one_python_reader_of_rules_and_one_table_of_named_games():
    from inarow._rules import PRESETS, read_rules
    from inarow.gymnasium import ENV_IDS
    from inarow.train import GAMES

    assert read_rules(None) == inarow.Rules.connect_four()
    assert read_rules("gomoku") == inarow.Rules.gomoku() == PRESETS["gomoku"]
    assert read_rules(dict(width=3, height=3, k=3, gravity=False)) == inarow.Rules.tic_tac_toe()
    assert read_rules(inarow.Board(rules=inarow.Rules.tic_tac_toe())) == inarow.Rules.tic_tac_toe()
    for bad, error in [("chess", ValueError), (dict(size=3), ValueError), (3, TypeError)]:
        with pytest.raises(error):
            read_rules(bad)
    with pytest.raises(ValueError, match="empty board"):
        read_rules(inarow.Board.from_moves([3]))
    assert GAMES["tic_tac_toe"] == PRESETS["tic_tac_toe"].to_dict()
    assert ENV_IDS["inarow/Gomoku-v0"] == PRESETS["gomoku"]
    # MCTS takes an inarow.Rules too.
    assert inarow.MCTS(inarow.Rules.tic_tac_toe(), num_simulations=1).run(
        [inarow.Board(rules=inarow.Rules.tic_tac_toe())], "rollout"
    ).visit_counts.shape == (1, 9)
