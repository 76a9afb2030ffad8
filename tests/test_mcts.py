"""inarow.MCTS: batched tree search with rollouts or a Python evaluator.

The Rust suite (src/mcts/tests.rs) checks proven values against brute force on
tiny boards (2 and 3 players), the exact equivalence of a reused subtree with a
fresh search, and determinism across thread counts at the core; here the same
properties are checked through the Python surface, with its argument handling."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from test_interrupts import land

import inarow

TIC_TAC_TOE = dict(width=3, height=3, k=3, gravity=False)


def uniform(obs, mask):
    """An evaluator that knows nothing: equal logits, value 0."""
    return np.zeros(mask.shape, np.float32), np.zeros(len(obs), np.float32)


def hashed(players=2):
    """A deterministic evaluator: logits and values from the planes' bytes; huge
    logits on illegal actions (the search must ignore them)."""

    def evaluate(obs, mask):
        n = len(obs)
        flat = obs.reshape(n, -1)
        weights = np.sin(np.arange(flat.shape[1] * mask.shape[1], dtype=np.float64))
        logits = flat @ weights.reshape(flat.shape[1], mask.shape[1])
        logits = np.where(mask, logits, 1e30).astype(np.float32)
        value = np.tanh(flat @ np.cos(np.arange(flat.shape[1])) / 3)
        if players == 2:
            return logits, value.astype(np.float32)
        cols = [np.tanh(value + i) for i in range(players)]
        return logits, np.stack(cols, axis=1).astype(np.float32)

    return evaluate


def random_boards(n, seed, **rules):
    rng = np.random.default_rng(seed)
    boards = []
    while len(boards) < n:
        b = inarow.Board(rules=inarow.Rules(**rules))
        for _ in range(rng.integers(0, 6)):
            legal = b.legal_moves()
            if b.is_over:
                break
            b.move(int(rng.choice(legal)))
        if not b.is_over:
            boards.append(b)
    return boards


def same_result(a, b):
    for name in ("visit_counts", "policy", "values", "actions"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)


# ---------------------------------------------------------------- the surface


def test_outputs_have_the_documented_shapes_and_dtypes():
    boards = random_boards(5, 0)
    out = inarow.MCTS(num_simulations=50).run(boards, "rollout")
    assert out.visit_counts.shape == (5, 7) and out.visit_counts.dtype == np.int32
    assert out.policy.shape == (5, 7) and out.policy.dtype == np.float32
    assert out.values.shape == (5,) and out.values.dtype == np.float32
    assert out.actions.shape == (5,) and out.actions.dtype == np.int64
    np.testing.assert_array_equal(out.visit_counts.sum(axis=1), 50)
    np.testing.assert_allclose(out.policy.sum(axis=1), 1, rtol=1e-5)
    for b, a in zip(boards, out.actions):
        assert b.is_legal(int(a))
    three = inarow.MCTS(
        rules=inarow.Rules(width=5, height=5, k=4, players=3, gravity=False), num_simulations=20
    )
    out = three.run(
        random_boards(3, 1, width=5, height=5, k=4, players=3, gravity=False), hashed(3)
    )
    assert out.values.shape == (3, 3) and out.visit_counts.shape == (3, 25)


def test_rules_come_from_a_board_a_dict_keywords_or_any_rules_like_object():
    class RulesLike:
        width, height, k, players, gravity = 3, 3, 3, 2, False

    ttt = inarow.Board.tic_tac_toe()
    for rules in (ttt, {"width": 3, "height": 3, "k": 3, "gravity": False}, RulesLike()):
        assert inarow.MCTS(rules).num_actions == 9
    assert inarow.MCTS(rules=inarow.Rules(width=3, height=3, k=3, gravity=False)).num_actions == 9
    assert inarow.MCTS().num_actions == 7
    with pytest.raises(TypeError, match="unexpected keyword argument"):
        inarow.MCTS(ttt, width=3)  # refused keyword
    with pytest.raises(TypeError, match="unknown rules key"):
        inarow.MCTS({"size": 3})
    with pytest.raises(TypeError, match="no attribute"):
        inarow.MCTS(object())
    with pytest.raises(inarow.InvalidRulesError):
        inarow.MCTS(rules=inarow.Rules(width=0))


def test_a_vec_env_gives_one_tree_per_env_and_its_actions_step_it():
    env = inarow.VecEnv(6, seed=0)
    env.reset(seed=0)
    env.step(env.random_actions())
    search = inarow.MCTS(num_simulations=30)
    out = search.run(env, "rollout")
    assert out.visit_counts.shape == (6, 7)
    for i in range(6):
        assert env.board(i).is_legal(int(out.actions[i]))
    env.step(out.actions)


def test_observations_and_masks_are_those_of_the_boards():
    boards = random_boards(4, 2) + [
        inarow.Board(rules=inarow.Rules(width=5, height=4, k=3, players=3))
    ]
    search = inarow.MCTS(boards[0], num_simulations=3)
    obs, mask = search.start(boards[:4])
    for i, b in enumerate(boards[:4]):
        np.testing.assert_array_equal(obs[i], b.observation("float32"))
        np.testing.assert_array_equal(mask[i], b.legal_mask())
    assert obs.dtype == np.float32 and mask.dtype == np.bool_
    three = inarow.MCTS(boards[4], num_simulations=3)
    obs, mask = three.start([boards[4]])
    np.testing.assert_array_equal(obs[0], boards[4].observation("float32"))


def test_the_step_api_gives_the_same_result_as_run():
    boards = random_boards(9, 3)
    evaluate = hashed()
    for root in ("puct", "gumbel"):
        a = inarow.MCTS(num_simulations=40, root=root, seed=4)
        b = inarow.MCTS(num_simulations=40, root=root, seed=4)
        ran = a.run(boards, evaluate)
        pending = b.start(boards)
        calls = 0
        while pending is not None:
            calls += 1
            pending = b.feed(*evaluate(*pending))
        same_result(ran, b.result())
        assert calls == 41  # the roots, then one leaf per tree per simulation


# ---------------------------------------------------------------- semantics


@pytest.mark.parametrize("root", ["puct", "gumbel"])
def test_lookahead_proves_first_visits_without_the_evaluator_and_can_be_turned_off(root):
    # Tic-tac-toe, X to move: O holds 3 and 4, so after any X move but 5 O completes
    # a line at once; the lookahead proves those children lost for X at their first
    # visit, which the evaluator then never sees.
    board = inarow.Board.tic_tac_toe()
    for cell in (0, 3, 8, 4):
        board.move(cell)
    seen = {}
    for lookahead in (True, False):
        evaluated = 0

        def counting(obs, mask):
            nonlocal evaluated
            evaluated += len(obs)
            return uniform(obs, mask)

        search = inarow.MCTS(board, num_simulations=60, root=root, seed=1, lookahead=lookahead)
        assert f"lookahead={lookahead}" in repr(search)
        result = search.run([board], counting)
        seen[lookahead] = evaluated
        assert int(result.actions[0]) == 5, lookahead  # the only block
    assert seen[True] < seen[False], seen
    with pytest.raises(TypeError):
        inarow.MCTS(lookahead="yes")


@pytest.mark.parametrize("root", ["puct", "gumbel"])
def test_a_won_position_plays_the_win_on_small_and_wide_boards(root):
    c4 = inarow.Board.from_moves([0, 0, 1, 1, 2, 2])
    gomoku = inarow.Board(rules=inarow.Rules(width=9, height=9, k=5, gravity=False))
    for a in [40, 0, 41, 1, 42, 2, 43, 3]:  # X: four in a row on row 4, open at both ends
        gomoku.move(a)
    for board, wins in ((c4, {3}), (gomoku, {39, 44})):
        search = inarow.MCTS(board, num_simulations=300, root=root)
        for evaluate in ("rollout", uniform):
            out = search.run([board], evaluate)
            assert int(out.actions[0]) in wins
            assert out.values[0] == 1.0  # proven


@pytest.mark.parametrize("root", ["puct", "gumbel"])
def test_a_single_win_in_one_at_the_root_is_played_on_a_wide_board(root):
    # Gomoku 15x15, X to move with a closed four (one completing cell among 221
    # empty ones): the root's lookahead proves the winning child before any
    # simulation, so a uniform evaluator's spread of visits cannot miss it.
    board = inarow.Board(rules=inarow.Rules(width=15, height=15, k=5, gravity=False))
    for a in [112, 111, 113, 0, 114, 14, 115, 210]:  # X 112..115, O blocks 111
        board.move(a)
    for stop_early in (False, True):
        search = inarow.MCTS(
            board, num_simulations=400, root=root, stop_early=stop_early and root == "puct"
        )
        out = search.run([board], uniform)
        assert int(out.actions[0]) == 116, (root, stop_early)
        assert out.values[0] == 1.0  # proven


def test_illegal_actions_are_never_searched_whatever_the_logits():
    boards = random_boards(6, 5)
    for b in boards[:3]:
        while b.legal_mask()[3]:
            b.move(3)  # fill the centre column
    boards = [b for b in boards if not b.is_over]
    for root in ("puct", "gumbel"):
        out = inarow.MCTS(num_simulations=60, root=root).run(boards, hashed())
        for b, visits, policy in zip(boards, out.visit_counts, out.policy):
            illegal = ~b.legal_mask()
            assert (visits[illegal] == 0).all() and (policy[illegal] == 0).all()


def test_finished_games_are_not_searched():
    won = inarow.Board.from_moves([0, 0, 1, 1, 2, 2, 3])
    out = inarow.MCTS(num_simulations=20).run([won, inarow.Board()], uniform)
    assert out.actions[0] == -1 and out.values[0] == -1.0
    assert out.visit_counts[0].sum() == 0 and out.visit_counts[1].sum() == 20


def test_two_player_values_are_for_the_side_to_move_and_backed_up_as_negamax():
    search = inarow.MCTS(num_simulations=1, dirichlet_fraction=0.0)

    def by_side(obs, mask):
        first_to_move = obs.sum(axis=(1, 2, 3)) % 2 == 0  # even stone count: player 1 moves
        return np.zeros(mask.shape), np.where(first_to_move, 0.5, -0.25)

    out = search.run([inarow.Board()], by_side)
    # Root (player 1 to move): 0.5; the leaf below (player 2 to move): -0.25 for
    # player 2, so +0.25 for player 1.
    np.testing.assert_allclose(out.values, [(0.5 + 0.25) / 2])
    out = search.run([inarow.Board.from_moves([3])], by_side)
    np.testing.assert_allclose(out.values, [(-0.25 - 0.5) / 2])


def test_three_player_values_are_egocentric_and_backed_up_for_the_mover():
    board = inarow.Board(rules=inarow.Rules(width=5, height=5, k=4, players=3, gravity=False))
    search = inarow.MCTS(board, num_simulations=1, dirichlet_fraction=0.0)

    def constant(obs, mask):
        return np.zeros(mask.shape, np.float32), np.tile([0.5, -0.25, 0.125], (len(obs), 1))

    out = search.run([board], constant)
    # The root's evaluation, then one leaf whose side to move is the next player:
    # the root's player is 2 turns after it and gets the leaf's entry 2.
    np.testing.assert_allclose(
        out.values[0], [(0.5 + 0.125) / 2, (-0.25 + 0.5) / 2, (0.125 - 0.25) / 2]
    )


def test_results_do_not_depend_on_the_thread_count():
    boards = random_boards(70, 6)
    for evaluate in ("rollout", hashed()):
        for root in ("puct", "gumbel"):
            outs = [
                inarow.MCTS(num_simulations=50, root=root, seed=1, threads=t).run(boards, evaluate)
                for t in (1, 2, 3)
            ]
            same_result(outs[0], outs[1])
            same_result(outs[0], outs[2])
    a = inarow.MCTS(num_simulations=50, seed=1).run(boards, "rollout")
    b = inarow.MCTS(num_simulations=50, seed=2).run(boards, "rollout")
    assert (a.visit_counts != b.visit_counts).any()


def test_advance_keeps_the_subtree_and_the_next_search_adds_to_it():
    boards = random_boards(5, 7)
    search = inarow.MCTS(num_simulations=200, dirichlet_fraction=0.0)
    first = search.run(boards, hashed())
    search.advance(first.actions)
    kept = search.result().visit_counts.sum(axis=1)
    chosen = first.visit_counts[np.arange(5), first.actions]
    np.testing.assert_array_equal(kept, chosen - 1)  # the child's visits minus its own expansion
    for b, a in zip(boards, first.actions):
        b.move(int(a))
    again = search.run(boards, hashed())
    np.testing.assert_array_equal(again.visit_counts.sum(axis=1), kept + 200)
    # Without reuse every search starts afresh.
    fresh = inarow.MCTS(num_simulations=200, reuse_tree=False)
    fresh.run(boards, hashed())
    assert (fresh.run(boards, hashed()).visit_counts.sum(axis=1) == 200).all()


def late_boards(n, seed, stones):
    """Connect Four boards of `stones` random moves, game not over."""
    rng = np.random.default_rng(seed)
    boards = []
    while len(boards) < n:
        b = inarow.Board()
        while not b.is_over and b.num_stones < stones:
            b.move(int(rng.choice(b.legal_moves())))
        if not b.is_over:
            boards.append(b)
    return boards


@pytest.mark.parametrize("kind", ["early", "late", "tic_tac_toe"])
def test_a_reused_subtree_continues_like_a_fresh_search(kind):
    # PUCT without root noise and a deterministic evaluator: the kept subtree of a
    # child with c visits, searched n more times, is a fresh search of c - 1 + n.
    # Late positions and tic-tac-toe prove children within the first run: visits a
    # proven child took count below it all the same.
    if kind == "early":
        boards = random_boards(4, 8)
    elif kind == "late":
        boards = late_boards(8, 3, 26)
    else:
        boards = random_boards(6, 2, **TIC_TAC_TOE)
    rules = boards[0].rules
    search = inarow.MCTS(rules, num_simulations=300, dirichlet_fraction=0.0)
    first = search.run(boards, hashed())
    search.advance(first.actions)
    search.num_simulations = 60
    nexts = []
    for b, a in zip(boards, first.actions):
        b.move(int(a))
        nexts.append(b)
    continued = search.run(nexts, hashed())
    for i, b in enumerate(nexts):
        if b.is_over:
            continue
        c = int(first.visit_counts[i, first.actions[i]])
        fresh = inarow.MCTS(rules, num_simulations=c - 1 + 60, dirichlet_fraction=0.0)
        out = fresh.run([b], hashed())
        np.testing.assert_array_equal(continued.visit_counts[i], out.visit_counts[0])
        np.testing.assert_allclose(continued.values[i], out.values[0], rtol=1e-5)


@pytest.mark.parametrize("root", ["puct", "gumbel"])
def test_kept_trees_play_whole_games_whatever_was_proven(root):
    # Tic-tac-toe self-play with kept trees: children are proven early and often,
    # at their first visit or from below, and every run still spends its budget.
    boards = random_boards(16, 4, **TIC_TAC_TOE)
    search = inarow.MCTS(boards[0].rules, num_simulations=24, root=root, seed=2)
    kept = [0] * len(boards)  # visits below each kept root before the run
    while not all(b.is_over for b in boards):
        out = search.run(boards, hashed())
        for i, b in enumerate(boards):
            if not b.is_over:
                total = int(out.visit_counts[i].sum())
                if root == "puct":
                    assert total == kept[i] + 24, i
                else:  # Gumbel replays no visits of a kept root proven at its first visit
                    assert 24 <= total <= kept[i] + 24, i
                a = int(out.actions[i])
                kept[i] = max(int(out.visit_counts[i, a]) - 1, 0)
                b.move(a)
        search.advance(out.actions)


# ---------------------------------------------------------------- refusals


def test_bad_settings_are_refused_with_their_names():
    for kwargs, err, match in [
        ({"root": "alphabeta"}, ValueError, "root"),
        ({"num_simulations": -1}, ValueError, "num_simulations"),
        ({"num_simulations": 2**70}, ValueError, "num_simulations"),
        ({"num_simulations": True}, TypeError, "num_simulations"),
        ({"num_simulations": 1.5}, TypeError, "num_simulations"),
        ({"threads": 0}, ValueError, "threads"),
        ({"c_puct": -1.0}, ValueError, "c_puct"),
        ({"c_puct": "big"}, TypeError, "c_puct"),
        ({"dirichlet_fraction": 1.5}, ValueError, "dirichlet_fraction"),
        ({"gumbel_considered": 0}, ValueError, "gumbel_considered"),
        ({"max_memory": 0}, ValueError, "max_memory"),
        ({"reuse_tree": 1}, TypeError, "reuse_tree"),
    ]:
        with pytest.raises(err, match=match):
            inarow.MCTS(**kwargs)


def test_bad_boards_and_evaluators_are_refused():
    search = inarow.MCTS(num_simulations=5)
    board = inarow.Board()
    with pytest.raises(TypeError, match="wrap it"):
        search.run(board, "rollout")
    with pytest.raises(ValueError, match="empty"):
        search.run([], "rollout")
    with pytest.raises(TypeError, match=r"boards\[1\]"):
        search.run([board, 3], "rollout")
    with pytest.raises(ValueError, match="rules"):
        search.run([inarow.Board.tic_tac_toe()], "rollout")
    with pytest.raises(ValueError, match="rollout"):
        search.run([board], "random")
    with pytest.raises(TypeError, match="callable"):
        search.run([board], 42)
    with pytest.raises(ValueError, match="rollouts"):
        search.run([board], uniform, rollouts=3)
    with pytest.raises(ValueError, match="rollouts"):
        search.run([board], "rollout", rollouts=0)


class Unreadable:
    """Not an array: numpy fails to read it."""

    def __array__(self, dtype=None, copy=None):
        raise RuntimeError("no array here")


BAD_OUTPUTS = [
    (lambda o, m: np.zeros(m.shape), TypeError, "tuple"),
    (lambda o, m: (np.zeros(m.shape), np.zeros(len(o)), None), TypeError, "tuple"),
    (
        lambda o, m: (np.zeros((len(o), 6)), np.zeros(len(o))),
        ValueError,
        r"logits must be 2-dimensional with shape \(\d+, 7\) \(leaves, actions\), got shape \(\d+, 6\)",
    ),
    (
        lambda o, m: (np.zeros(m.shape), np.zeros((len(o), 2))),
        ValueError,
        r"values must be 1-dimensional with shape \(\d+,\) \(leaves,\), got shape",
    ),
    (
        lambda o, m: (np.zeros(m.shape, np.int64), np.zeros(len(o))),
        TypeError,
        "logits must hold floats, got dtype int64",
    ),
    (
        lambda o, m: (np.zeros(m.shape), np.zeros(len(o), bool)),
        TypeError,
        "values must hold floats",
    ),
    (lambda o, m: (np.zeros(m.shape, complex), np.zeros(len(o))), TypeError, "dtype complex128"),
    (
        lambda o, m: (np.full(m.shape, np.nan), np.zeros(len(o))),
        ValueError,
        r"logits\[0, 0\] is nan",
    ),
    (
        lambda o, m: (np.full(m.shape, np.inf), np.zeros(len(o))),
        ValueError,
        r"logits\[0, 0\] is inf",
    ),
    (lambda o, m: (np.zeros(m.shape), np.full(len(o), np.inf)), ValueError, "finite"),
    (
        lambda o, m: (np.zeros(m.shape), np.full(len(o), -np.inf)),
        ValueError,
        r"values\[0\] is -inf",
    ),
    (lambda o, m: (np.zeros(m.shape), np.full(len(o), 1e300)), ValueError, "float32"),
    (lambda o, m: (np.where(m, -np.inf, 0.0), np.zeros(len(o))), ValueError, "legal"),
    (lambda o, m: (np.zeros(m.shape), [None] * len(o)), TypeError, r"values\[0\] must be a float"),
    (
        lambda o, m: (np.zeros(m.shape), [0] * len(o)),
        TypeError,
        r"values\[0\] must be a float, got int",
    ),
    (lambda o, m: ([[0.0]] * len(o), np.zeros(len(o))), ValueError, "logits must be 2-dimensional"),
    (lambda o, m: ([[0.0] * 7, [0.0]], np.zeros(len(o))), ValueError, "logits"),
    (lambda o, m: ("garbage", np.zeros(len(o))), ValueError, r"logits must be .*got shape \(\)"),
    (lambda o, m: (Unreadable(), np.zeros(len(o))), TypeError, "logits must be an array"),
]


@pytest.mark.parametrize("bad, err, match", BAD_OUTPUTS)
def test_bad_evaluator_outputs_are_refused_and_every_tree_is_unchanged(bad, err, match):
    boards = random_boards(4, 9)
    search = inarow.MCTS(num_simulations=30)
    twin = inarow.MCTS(num_simulations=30)
    same_result(search.run(boards, hashed()), twin.run(boards, hashed()))
    rounds = 0

    def sometimes_bad(obs, mask):
        nonlocal rounds
        rounds += 1
        return bad(obs, mask) if rounds == 5 else hashed()(obs, mask)

    with pytest.raises(err, match=match):
        search.run(boards, sometimes_bad)
    # Nothing of the failed run remains: both objects search on identically.
    same_result(search.run(boards, hashed()), twin.run(boards, hashed()))


@pytest.mark.parametrize("bad, err, match", [b for b in BAD_OUTPUTS if b[2] != "tuple"])
def test_feed_refuses_bad_outputs_by_name_and_takes_good_ones_after(bad, err, match):
    boards = random_boards(3, 13)
    search = inarow.MCTS(num_simulations=6)
    twin = inarow.MCTS(num_simulations=6)
    pending = search.start(boards)
    with pytest.raises(err, match=match) as info:
        search.feed(*bad(*pending))
    assert not str(info.value).startswith("evaluate")
    while pending is not None:
        pending = search.feed(*hashed()(*pending))
    same_result(search.result(), twin.run(boards, hashed()))


def test_a_refused_output_of_run_names_the_evaluator_and_chains_the_reader_error():
    def wrong_shape(obs, mask):
        return np.zeros((len(obs), 3), np.float32), np.zeros(len(obs), np.float32)

    with pytest.raises(
        ValueError, match=r"^evaluate\(obs, mask\) returned bad outputs: logits"
    ) as info:
        inarow.MCTS(num_simulations=3).run([inarow.Board()], wrong_shape)
    assert isinstance(info.value.__cause__, ValueError)


def test_three_player_values_must_have_one_column_per_player():
    boards = [inarow.Board(rules=inarow.Rules(width=5, height=4, k=3, players=3))]

    def two_columns(obs, mask):
        return np.zeros(mask.shape), np.zeros((len(obs), 2))

    with pytest.raises(
        ValueError, match=r"values must be 2-dimensional with shape \(1, 3\) \(leaves, players\)"
    ):
        inarow.MCTS(boards[0], num_simulations=3).run(boards, two_columns)


@pytest.mark.parametrize(
    "form",
    [
        lambda a: a.astype(np.float64),
        lambda a: a.astype(np.float16),
        lambda a: np.asfortranarray(a),
        lambda a: a[::-1].copy()[::-1],
        lambda a: a.astype(a.dtype.newbyteorder(">")),
        lambda a: a.tolist(),
        lambda a: np.stack([a, a + 1], axis=-1)[..., 0],  # a strided view, as a net's heads
    ],
)
def test_outputs_are_read_whatever_their_float_dtype_layout_or_form(form):
    def rounded(obs, mask):
        # float16-exact values, so every form carries the same numbers.
        logits, values = hashed()(obs, mask)
        return (
            np.clip(logits, -6e4, 6e4).astype(np.float16).astype(np.float32),
            values.astype(np.float16).astype(np.float32),
        )

    def reformed(obs, mask):
        logits, values = rounded(obs, mask)
        return form(logits), form(values)

    boards = random_boards(3, 14)
    expected = inarow.MCTS(num_simulations=12).run(boards, rounded)
    same_result(inarow.MCTS(num_simulations=12).run(boards, reformed), expected)


def test_masked_logits_may_be_minus_infinity_at_illegal_actions():
    board = inarow.Board.from_moves([3] * 6)

    def masked(obs, mask):
        return np.where(mask, 0.0, -np.inf), np.zeros(len(obs))

    out = inarow.MCTS(num_simulations=20).run([board], masked)
    assert out.visit_counts[0, 3] == 0


def test_feed_checks_the_whole_batch_and_a_refused_feed_can_be_retried():
    boards = random_boards(3, 10)
    search = inarow.MCTS(num_simulations=4)
    twin = inarow.MCTS(num_simulations=4)
    obs, mask = search.start(boards)
    logits, values = uniform(obs, mask)
    bad = values.copy()
    bad[-1] = np.nan  # only the last row is bad: no tree may move
    with pytest.raises(ValueError, match=r"values\[2\]"):
        search.feed(logits, bad)
    pending = search.feed(logits, values)
    while pending is not None:
        pending = search.feed(*uniform(*pending))
    same_result(search.result(), twin.run(boards, uniform))
    with pytest.raises(RuntimeError, match="start"):
        search.feed(logits, values)


def test_an_evaluator_that_raises_propagates_chained_and_the_search_is_reusable():
    boards = random_boards(4, 11)
    search = inarow.MCTS(num_simulations=20)
    twin = inarow.MCTS(num_simulations=20)

    def broken(obs, mask):
        raise ZeroDivisionError("the net fell over")

    with pytest.raises(RuntimeError, match="ZeroDivisionError") as info:
        search.run(boards, broken)
    assert isinstance(info.value.__cause__, ZeroDivisionError)
    same_result(search.run(boards, uniform), twin.run(boards, uniform))


def test_ctrl_c_in_the_evaluator_passes_through_unwrapped_and_restores_the_trees():
    boards = random_boards(3, 12)
    search = inarow.MCTS(num_simulations=20)
    twin = inarow.MCTS(num_simulations=20)
    calls = 0

    def interrupted(obs, mask):
        nonlocal calls
        calls += 1
        if calls == 7:
            raise KeyboardInterrupt
        return uniform(obs, mask)

    with pytest.raises(KeyboardInterrupt):
        search.run(boards, interrupted)
    same_result(search.run(boards, uniform), twin.run(boards, uniform))


def test_advance_refuses_illegal_actions_and_moves_no_tree():
    boards = [inarow.Board(), inarow.Board.from_moves([0] * 6)]
    search = inarow.MCTS(num_simulations=20)
    with pytest.raises(RuntimeError, match="run"):
        search.advance([0, 1])
    out = search.run(boards, uniform)
    before = search.result()
    with pytest.raises(inarow.IllegalMoveError, match="tree 1"):
        search.advance([3, 0])  # column 0 of board 1 is full
    with pytest.raises(ValueError, match="shape"):
        search.advance([3])
    with pytest.raises(TypeError, match=r"actions\[0\] must be an integer"):
        search.advance([3.0, 1.0])
    with pytest.raises(TypeError, match="not bool"):
        search.advance([True, 0])
    with pytest.raises(inarow.IllegalMoveError, match="tree 1: action 18446744073709551615"):
        search.advance(np.array([3, 2**64 - 1], np.uint64))
    same_result(search.result(), before)
    search.advance(out.actions)


def test_the_memory_budget_refuses_before_allocating():
    gomoku = inarow.Board.gomoku()
    search = inarow.MCTS(gomoku, num_simulations=800)
    with pytest.raises(MemoryError, match="max_memory"):
        search.run([gomoku] * 4096, uniform)
    assert search.num_trees == 0  # refused up front: no tree was built, none evaluated
    small = inarow.MCTS(num_simulations=100, max_memory=10_000)
    with pytest.raises(MemoryError, match="max_memory"):
        small.run([inarow.Board()], "rollout")


def test_ctrl_c_lands_in_a_rollout_search_and_the_search_runs_again():
    search = inarow.MCTS(num_simulations=8 * 10**6, threads=1)
    gomoku = inarow.Board.gomoku()
    big = inarow.MCTS(gomoku, num_simulations=200_000, threads=1)
    land(lambda: big.run([gomoku], "rollout"))
    land(lambda: search.run([inarow.Board()] * 2, "rollout"))
    search.num_simulations = 10
    assert search.run([inarow.Board()], "rollout").visit_counts.sum() == 10


def test_the_interpreter_is_released_during_a_rollout_search():
    done = threading.Event()
    ticks = 0

    def work():
        inarow.MCTS(num_simulations=200_000, threads=1).run([inarow.Board()], "rollout")
        done.set()

    t = threading.Thread(target=work)
    t.start()
    while not done.is_set():
        ticks += 1
    t.join()
    assert ticks > 1000


def test_forced_playouts_visit_what_the_priors_rule_out_and_leave_it_out_of_the_policy():
    def skewed(obs, mask):
        logits = np.where(mask, 0.0, -1e9).astype(np.float32)
        logits[:, 0] = 8.0  # column 0 takes all but 0.0003 of each prior
        return logits, np.zeros(len(obs), np.float32)

    def search(k):
        mcts = inarow.MCTS(num_simulations=400, dirichlet_fraction=0.0, forced_playouts=k)
        return mcts.run([inarow.Board()], skewed)

    plain, forced = search(0.0), search(50.0)
    assert (plain.visit_counts[0, 1:] == 0).all()
    assert (forced.visit_counts[0, 1:] >= 3).all()  # sqrt(50 * 0.0003 * 400) = 2.6
    assert forced.policy[0, 0] == plain.policy[0, 0] == 1.0  # PUCT would give them none
    assert "forced_playouts=50" in repr(inarow.MCTS(forced_playouts=50))


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        (dict(forced_playouts=-1), ValueError, "out of range: allowed 0 \\(off\\)"),
        (dict(forced_playouts=float("nan")), ValueError, "out of range"),
        (dict(forced_playouts=2, root="gumbel"), ValueError, 'needs root="puct"'),
        (dict(forced_playouts=True), TypeError, "must be a number, not bool"),
    ],
)
def test_forced_playouts_are_checked(kwargs, error, message):
    with pytest.raises(error, match=message):
        inarow.MCTS(**kwargs)


def test_forced_playouts_need_an_evaluator():
    with pytest.raises(ValueError, match="needs an evaluator's priors"):
        inarow.MCTS(forced_playouts=2).run([inarow.Board()], "rollout")


def _leaning(obs, mask):
    """Priors leaning to the centre column, values from the stones on the board."""
    logits = np.where(mask, 0.0, -1e9).astype(np.float32)
    logits[:, 3] += 1.0
    values = np.tanh(obs[:, 0].sum(axis=(1, 2)) - obs[:, 1].sum(axis=(1, 2))).astype(np.float32)
    return logits, 0.1 * values


def test_stop_early_ends_once_the_most_visited_move_is_settled():
    boards = [inarow.Board.from_moves(m) for m in ([], [3], [3, 3, 2], [0, 6, 1, 5])]
    for board in boards:
        full = inarow.MCTS(num_simulations=300, dirichlet_fraction=0.0, reuse_tree=False)
        early = inarow.MCTS(
            num_simulations=300, dirichlet_fraction=0.0, reuse_tree=False, stop_early=True
        )
        a, b = full.run([board], _leaning), early.run([board], _leaning)
        used = int(b.visit_counts.sum())
        assert used < 300
        visits = np.sort(b.visit_counts[0])[::-1]
        assert visits[0] - visits[1] > 300 - used  # no later simulation could change it
        assert b.actions[0] == a.actions[0]
        # The stopped run is the plain run of as many simulations.
        cut = inarow.MCTS(num_simulations=used, dirichlet_fraction=0.0, reuse_tree=False)
        np.testing.assert_array_equal(cut.run([board], _leaning).visit_counts, b.visit_counts)
    assert "stop_early=True" in repr(early) and "stop_early=False" in repr(full)


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        (dict(stop_early=1), TypeError, "stop_early"),
        (dict(stop_early=True, root="gumbel"), ValueError, 'stop_early=True needs root="puct"'),
        (dict(stop_early=True, forced_playouts=2), ValueError, "needs forced_playouts=0"),
    ],
)
def test_stop_early_is_checked(kwargs, error, message):
    with pytest.raises(error, match=message):
        inarow.MCTS(**kwargs)
