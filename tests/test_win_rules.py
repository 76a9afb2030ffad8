"""Gomoku's tournament rules (``Rules(..., rule="freestyle" | "standard" | "renju")``):
the value, and the game core against an independent referee (`rule_referee`, whose
renju judge is the pip package ``renju``, a port of the Piskvork judge), move by
move: the winner after every move and, on every black turn under renju, the legal
cells against the judge's allowed ones."""

from __future__ import annotations

import copy
import os
import pickle
import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from rule_referee import compare_game

import inarow
from inarow import Board, ForbiddenMoveError, InvalidRulesError, Rules

pytest.importorskip("renju", reason="the renju judge (pip install renju) is the oracle")

#: Games per rule set; ``INAROW_REFEREE_GAMES`` scales them (the long run is
#: ``scripts/referee_diff.py``).
GAMES = int(os.environ.get("INAROW_REFEREE_GAMES", "40"))

# ------------------------------------------------------------------ the value


@pytest.mark.parametrize("rule", ["freestyle", "standard", "renju"])
def test_the_rule_round_trips_through_every_form(rule):
    r = Rules.gomoku(15, rule=rule)
    assert r.rule == rule and (r.k, r.players, r.gravity) == (5, 2, False)
    for same in (
        eval(repr(r), {"Rules": Rules}),
        pickle.loads(pickle.dumps(r)),
        copy.deepcopy(r),
        Rules(**r.to_dict()),
        Rules(15, 15, 5, 2, False, rule=rule),
        Board(rules=r).rules,
        Board.gomoku(15, rule=rule).rules,
        inarow.VecEnv(1, rules=r, seed=0).rules,
    ):
        assert same == r and hash(same) == hash(r)
    assert (Rules.gomoku(15) == r) == (rule == "freestyle")
    assert ("rule" in r.to_dict()) == (rule != "freestyle")
    assert r.replace(rule="freestyle") == Rules.gomoku(15)


def test_boards_under_a_rule_rebuild_from_repr_bytes_and_pickle():
    b = Board(rules=Rules.gomoku(9, rule="standard"))
    for a in (40, 41, 31):
        b.move(a)
    env = {"Board": Board, "Rules": Rules}
    for same in (eval(repr(b), env), Board.from_bytes(b.to_bytes()), pickle.loads(pickle.dumps(b))):
        assert same == b and same.rules.rule == "standard" and same.moves == b.moves
    assert "rule=" in repr(b)
    grid = b.to_numpy()
    assert Board.from_numpy(grid, b.rules).rules.rule == "standard"
    with pytest.raises(ValueError, match="shape"):
        Board.from_numpy(grid[:, :8], rules=b.rules)


def test_format_version_one_still_loads_as_freestyle():
    b = Board.from_moves([3, 3, 4])
    data = bytearray(b.to_bytes())
    assert data[4] == inarow.FORMAT_VERSION == 2 and data[10] == 0
    del data[10]
    data[4] = 1
    assert Board.from_bytes(bytes(data)) == b


def test_bad_rules_are_refused_naming_the_value():
    with pytest.raises(InvalidRulesError, match="rule='caro' is not a rule: allowed"):
        Rules.gomoku(rule="caro")
    with pytest.raises(TypeError, match="rule must be a str"):
        Rules.gomoku(rule=4)
    with pytest.raises(InvalidRulesError, match=r"needs k=5, got k=4.*needs gravity=False"):
        Rules(rule="renju")
    with pytest.raises(InvalidRulesError, match="needs players=2"):
        Rules(9, 9, 5, 3, False, rule="renju")
    # Every problem at once, the rule's among them.
    with pytest.raises(InvalidRulesError, match=r"width=0.*needs k=5"):
        Rules(0, 9, 4, 2, False, rule="renju")
    assert Rules.connect_four().replace(rule="standard").rule == "standard"
    # A board takes its rules whole: the fields as keywords are refused.
    with pytest.raises(TypeError):
        Board(**Rules.gomoku(rule="standard").to_dict())


# ------------------------------------------------------------------ standard


def test_standard_an_overline_does_not_end_the_game():
    r = Rules(9, 3, 5, 2, False, rule="standard")
    b = Board(rules=r)
    # Black: 0 1 2 _ 4 5 on row 0; white far away on row 2.
    for black, white in zip([0, 1, 2, 4, 5], [18, 19, 20, 22, 24]):
        b.move(black)
        b.move(white)
    assert b.move(3) is False and b.winner is None and not b.is_over  # six: no line
    free = Board(rules=r.replace(rule="freestyle"))
    for a in b.moves:
        free.move(a)
    assert free.winner == 1
    # The exact five wins even beside an overline elsewhere.
    b.move(26)
    assert b.winner is None
    b2 = Board.from_moves([9, 18, 10, 19, 11, 20, 12, 22], rules=r)
    assert b2.move(13) is True and b2.winner == 1
    assert b2.winning_line() == [(1, 0), (1, 1), (1, 2), (1, 3), (1, 4)]


@pytest.mark.parametrize(("size", "k"), [(7, 4), (9, 5), (10, 5), (12, 6)])
def test_standard_games_agree_with_the_referee_move_by_move(size, k):
    positions = sum(compare_game(size, k, "standard", seed)[0] for seed in range(GAMES))
    assert positions > 10 * GAMES


@pytest.mark.parametrize("size", [9, 11, 15])
def test_renju_games_agree_with_the_judge_move_by_move(size):
    games = GAMES if size < 15 else max(GAMES // 4, 2)
    totals = [compare_game(size, 5, "renju", 1000 * size + seed) for seed in range(games)]
    positions = sum(p for p, _ in totals)
    forbidden = sum(f for _, f in totals)
    assert positions > 10 * games
    # The clustered games meet the forbidden shapes, or the test would prove little.
    assert forbidden > games // 2


def test_freestyle_games_agree_with_the_referee():
    for seed in range(GAMES // 4):
        compare_game(9, 5, "freestyle", seed)


# ------------------------------------------------------------------ renju


def _renju(rows: list[str]) -> Board:
    """A renju board from rows of ``x`` (black), ``o`` (white) and ``.``."""
    grid = np.array([[{"x": 1, "o": 2}.get(ch, 0) for ch in row] for row in rows])
    return Board.from_numpy(grid, rules=Rules.gomoku(len(rows), rule="renju"))


def test_renju_forbidden_kinds_are_named_and_nothing_changes():
    empty = ["." * 9] * 9
    rows = list(empty)
    rows[4] = "xxx.xx..."  # black to play 3: an overline
    rows[8] = "o.o.o.o.o"
    b = _renju(rows)
    assert 4 * 9 + 3 not in b.legal_moves()
    with pytest.raises(ForbiddenMoveError, match=r"action 39: cell \(row 4, col 3\).*overline"):
        b.move(4 * 9 + 3)
    assert b == _renju(rows)
    # White may play there, and wins with an overline.
    rows = list(empty)
    rows[4] = "ooo.oo..."
    rows[8] = "x.x.x.xx."
    rows[7] = "x........"
    w = _renju(rows)
    assert w.current_player == 2 and w.move(4 * 9 + 3) is True and w.winner == 2


def test_renju_vec_env_masks_and_whole_games_run():
    rules = Rules.gomoku(9, rule="renju")
    r = inarow.simulate(20, rules=rules, seed=1)
    assert r.games == 20 == sum(r.wins) + r.draws
    s = inarow.simulate(20, rules=rules.replace(rule="standard"), seed=1)
    assert s.games == 20


# ------------------------------------------------------------------ every engine


def _played(rule: str) -> Board:
    return Board.from_moves([40, 41, 31], rules=Rules.gomoku(9, rule=rule))


@pytest.mark.parametrize("rule", ["standard", "renju"])
def test_engines_that_cannot_play_a_rule_refuse_it_naming_it(rule):
    b = _played(rule)
    # The shipped networks play the rule they were trained under only.
    refusals = [
        lambda: inarow.agents.pretrained("15x15_k5_free")(Board(rules=Rules.gomoku(rule=rule))),
    ]
    if rule == "renju":
        # The solver serves freestyle and standard; renju it refuses by name.
        small = Board.from_moves([12, 13], rules=Rules(5, 5, 5, 2, False, rule="renju"))
        refusals += [
            lambda: inarow.agents.perfect()(small),
            lambda: inarow.Solver(tt_bytes=1 << 20).solve(small),
        ]
    for refuse in refusals:
        with pytest.raises(
            inarow.UnsupportedRulesError, match=rf"freestyle.*{rule}|{rule}.*freestyle"
        ):
            refuse()
    small_rules = Rules(5, 5, 5, 2, False, rule=rule)
    assert inarow.Solver.supports(small_rules) == (rule == "standard")
    # 81 cells: within the solver's two words, under the rules it plays.
    assert inarow.Solver.supports(b.rules) == (rule == "standard")
    assert inarow.Solver.supports(Rules(4, 4, 3, 2, False))


@pytest.mark.parametrize("rule", ["standard", "renju"])
def test_random_agents_vec_env_opponents_and_mcts_play_every_rule(rule):
    b = _played(rule)
    for _ in range(5):
        a = inarow.agents.random(seed=1)(b)
        assert a in b.legal_moves()
    env = inarow.VecEnv(4, rules=b.rules, seed=0, opponent="random")
    env.reset(seed=0)
    for _ in range(10):
        env.step(env.random_actions())
    search = inarow.MCTS(b.rules, num_simulations=32, seed=0)
    result = search.run([b], "rollout")
    assert int(np.argmax(result.policy[0])) in b.legal_moves()
    assert inarow.agents.negamax(2, seed=0)(b) in b.legal_moves()
    env = inarow.VecEnv(2, rules=b.rules, seed=0, opponent="negamax:1")
    env.reset(seed=0)
    env.step(env.random_actions())


def test_negamax_never_plays_a_forbidden_cell():
    # Black to move; 39 completes black's six (an overline), forbidden under renju,
    # and a win under freestyle.
    rows = ["." * 9] * 9
    rows[4] = "xxx.xx..."
    rows[8] = "o.o.o.o.o"
    grid = np.array([[{"x": 1, "o": 2}.get(ch, 0) for ch in row] for row in rows])
    for rule, expect in [("renju", False), ("freestyle", True)]:
        b = Board.from_numpy(grid, rules=Rules.gomoku(9, rule=rule))
        moves = {inarow.agents.negamax(2, seed=s)(b) for s in range(5)}
        assert moves <= set(b.legal_moves())
        assert (moves == {39}) == expect, (rule, moves)


def test_mcts_never_plays_a_forbidden_cell():
    rows = ["." * 9] * 9
    rows = list(rows)
    rows[4] = "xxx.xx..."  # 39 would be black's overline
    rows[8] = "o.o.o.o.o"
    grid = np.array([[{"x": 1, "o": 2}.get(ch, 0) for ch in row] for row in rows])
    b = Board.from_numpy(grid, rules=Rules.gomoku(9, rule="renju"))
    result = inarow.MCTS(b.rules, num_simulations=200, seed=0).run([b], "rollout")
    assert result.policy[0][39] == 0
    assert set(np.flatnonzero(result.policy[0])) <= set(b.legal_moves())


@given(st.integers(0, 10**6), st.integers(0, 60), st.sampled_from([9, 10, 13]))
def test_renju_forbidden_cells_follow_the_board_symmetries(seed, plies, size):
    """Independent of the judge: the eight symmetries of the board carry forbidden
    cells (and their kinds) onto forbidden cells."""
    # A clustered position played by the engine itself (the judge is not asked).
    rng = random.Random(seed)
    played = Board(rules=Rules.gomoku(size, rule="renju"))
    played.move(size * size // 2)
    for _ in range(plies):
        grid = played.to_numpy()
        near = [
            a
            for a in played.legal_moves()
            if grid[
                max(a // size - 2, 0) : a // size + 3, max(a % size - 2, 0) : a % size + 3
            ].any()
        ]
        if played.move(rng.choice(near)) or played.is_over:
            played.undo()
            break
    grid = played.to_numpy()
    rules = Rules.gomoku(size, rule="renju")
    board = Board.from_numpy(grid, rules=rules)
    marks = np.zeros((size, size), dtype=object)
    for a, kind in board.forbidden_moves():
        marks.flat[a] = kind
    for turns in range(4):
        for flip in (False, True):
            g, m = np.rot90(grid, turns), np.rot90(marks, turns)
            if flip:
                g, m = g.T, m.T
            image = Board.from_numpy(np.ascontiguousarray(g), rules=rules)
            assert image.forbidden_moves() == [(a, m.flat[a]) for a in np.flatnonzero(m != 0)]


# The heuristics of api_test that do not fit board games (see test_pettingzoo.py).
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.filterwarnings(
    "ignore:Observation space for each agent probably should be:UserWarning"
)
@pytest.mark.filterwarnings("ignore:Observation numpy array is all zeros:UserWarning")
@pytest.mark.parametrize("rule", ["standard", "renju"])
def test_adapters_pass_their_ecosystems_checkers_under_every_rule(rule):
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test

    rules = Rules.gomoku(9, rule=rule)
    api_test(inarow.pettingzoo.env(rules=rules), num_cycles=100)
    env = inarow.gymnasium.InARowEnv(rules=rules)
    check_env(env, skip_render_check=True)
    assert env.unwrapped.rules == rules


@pytest.mark.parametrize("rule", ["standard", "renju"])
def test_evaluate_match_plays_every_rule(rule):
    rules = Rules.gomoku(9, rule=rule)
    r = inarow.evaluate.match("random", "random", games=4, rules=rules, seed=1, opening_plies=2)
    assert r.games == 4
    same = inarow.evaluate.match(
        "random", "random", games=4, rules=rules.to_dict(), seed=1, opening_plies=2
    )
    assert same.wins == r.wins
    r = inarow.evaluate.match("negamax:1", "random", games=2, rules=rules, seed=1)
    assert r.games == 2
    with pytest.raises(inarow.UnsupportedRulesError):
        # 15x15: beyond the solver's 128 cells (9x9 standard is within them).
        inarow.evaluate.match("perfect", "random", games=2, rules=Rules.gomoku(rule=rule), seed=1)


def test_greedy_plays_every_rule_by_the_rule():
    # Standard: black threatens an exact five at (2, 2); its six at (0, 3) would be
    # no line, so white's only safe move is the block. Under freestyle both threaten.
    rows = ["." * 9] * 9
    rows = list(rows)
    rows[0] = "xxx.xx..."
    rows[2] = "xx.xx...."
    rows[8] = "o.o.o.o.o"
    rows[7] = "o.o.o...."
    grid = np.array([[{"x": 1, "o": 2}.get(ch, 0) for ch in row] for row in rows])
    standard = Board.from_numpy(grid, rules=Rules.gomoku(9, rule="standard"))
    free = Board.from_numpy(grid, rules=Rules.gomoku(9))
    assert standard.current_player == 2
    for seed in range(5):
        assert inarow.agents.greedy(seed=seed)(standard) == 2 * 9 + 2
        assert inarow.agents.greedy(seed=seed)(free) in (3, 2 * 9 + 2)
    # Renju: greedy never plays a forbidden cell, and blocks white's four.
    rows = ["." * 9] * 9
    rows = list(rows)
    rows[4] = "xxx.xx..."  # 39: black's overline, forbidden
    rows[6] = "....oooo."  # white threatens 6*9+3 and 6*9+8
    rows[8] = "o.o......"
    rows[0] = "x........"
    grid = np.array([[{"x": 1, "o": 2}.get(ch, 0) for ch in row] for row in rows])
    renju = Board.from_numpy(grid, rules=Rules.gomoku(9, rule="renju"))
    assert renju.current_player == 1 and (39, "overline") in renju.forbidden_moves()
    for seed in range(10):
        assert inarow.agents.greedy(seed=seed)(renju) in (6 * 9 + 3, 6 * 9 + 8)
    r = inarow.evaluate.match("greedy", "random", games=4, rules=renju.rules, seed=2)
    assert r.games == 4


def test_the_perfect_agent_plays_standard_by_the_solver():
    # 4x4, k = 3: X's 0, 1, 3 with 2 empty; 2 makes an overline, no line under standard.
    rules = Rules(4, 4, 3, 2, False, rule="standard")
    moves = [0, 5, 1, 12, 3, 15]
    b = Board.from_moves(moves, rules=rules)
    scores = inarow.Solver(tt_bytes=1 << 20).analyze(b)
    best = max(s for s in scores if s is not None)
    assert scores[2] < best  # the overline loses; blocking O's diagonal at 10 holds longer
    assert scores[inarow.agents.perfect()(b)] == best
    loose = Board.from_moves(moves, rules=rules.replace(rule="freestyle"))
    assert inarow.agents.perfect()(loose) == 2  # k or more: 2 wins at once
