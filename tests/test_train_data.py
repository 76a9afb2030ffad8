"""The trainer's torch-free parts: board symmetries keep the rules and the values,
the replay buffer keeps the newest positions and augments consistently, outcome
targets follow the MCTS value convention."""

from __future__ import annotations

import numpy as np
import pytest
from harness import blind_evaluator, blind_net

import inarow
from inarow.symmetry import symmetries
from inarow.train.config import TrainConfig
from inarow.train.evaluation import solve_small_board
from inarow.train.replay import ReplayBuffer
from inarow.train.selfplay import (
    SelfPlay,
    final_board_classes,
    outcome_values,
    reply_targets,
)

_blind = blind_evaluator()


RULES = [
    dict(width=7, height=6, k=4, players=2, gravity=True),
    dict(width=3, height=3, k=3, players=2, gravity=False),
    dict(width=5, height=4, k=3, players=3, gravity=False),
    dict(width=4, height=5, k=3, players=2, gravity=True),
]


def _random_board(rules, rng, plies):
    b = inarow.Board(rules=inarow.Rules(**rules))
    for _ in range(plies):
        if b.is_over:
            break
        b.move(int(rng.choice(b.legal_moves())))
    return b


@pytest.mark.parametrize("rules", RULES, ids=lambda r: "{width}x{height}k{k}p{players}".format(**r))
def test_symmetries_map_positions_to_legal_positions(rules):
    syms = symmetries(rules)
    expected = 2 if rules["gravity"] else (8 if rules["width"] == rules["height"] else 4)
    assert len(syms) == expected
    rng = np.random.default_rng(1)
    for _ in range(40):
        b = _random_board(rules, rng, int(rng.integers(0, 12)))
        grids = set()
        for sym in syms:
            grid = np.ascontiguousarray(sym.planes(b.to_numpy()))
            t = inarow.Board.from_numpy(grid, inarow.Rules(**rules))
            h, w = rules["height"], rules["width"]
            assert np.array_equal(t.legal_mask(), sym.actions(b.legal_mask(), h, w))
            assert np.array_equal(t.observation(), sym.planes(b.observation()))
            assert t.current_player == b.current_player
            grids.add(grid.tobytes())
        if b.num_stones == 0:
            assert len(grids) == 1


def test_symmetries_keep_tic_tac_toe_values():
    rules = dict(width=3, height=3, k=3, players=2, gravity=False)
    table = solve_small_board(rules)
    assert len(table) == 4520  # reachable non-terminal positions of tic-tac-toe
    syms = symmetries(rules)
    for board, outcome in list(table.items())[::7]:
        for sym in syms:
            grid = np.ascontiguousarray(sym.planes(board.to_numpy()))
            t = inarow.Board.from_numpy(grid, inarow.Rules(3, 3, 3, gravity=False))
            mapped = sym.actions(np.array([-9 if o is None else o for o in outcome]), 3, 3)
            assert [None if o == -9 else int(o) for o in mapped] == table[t]


def test_solve_small_board_knows_tic_tac_toe():
    table = solve_small_board(dict(width=3, height=3, k=3, players=2, gravity=False))
    empty = inarow.Board.tic_tac_toe()
    assert table[empty] == [0] * 9  # every opening move draws
    # X in a corner, O on an edge next to it: X wins (e.g. by the centre).
    b = inarow.Board.from_moves([0, 1], rules=inarow.Rules(width=3, height=3, k=3, gravity=False))
    assert max(o for o in table[b] if o is not None) == 1


def test_outcome_values():
    movers = np.array([1, 2, 1])
    assert outcome_values(1, movers, 2)[:, 0].tolist() == [1, -1, 1]
    assert outcome_values(0, movers, 2).tolist() == [[0], [0], [0]]
    v = outcome_values(3, np.array([1, 2, 3]), 3)
    # column i: the player i turns after the mover
    assert v.tolist() == [[-1, -1, 1], [-1, 1, -1], [1, -1, -1]]


def test_final_board_classes_and_replies():
    final = np.array([[1, 2, 0], [3, 0, 1]])
    # Seen by player 1: its stones class 1, the next player's 2, the third's 3.
    assert final_board_classes(final, np.array([1]), 3)[0].tolist() == [[1, 2, 0], [3, 0, 1]]
    # Seen by player 3: its stones 1, then player 1's (one turn later) 2, player 2's 3.
    assert final_board_classes(final, np.array([3]), 3)[0].tolist() == [[2, 3, 0], [1, 0, 2]]
    two = np.array([[1, 2], [0, 2]])
    assert final_board_classes(two, np.array([2]), 2)[0].tolist() == [[2, 1], [0, 1]]
    assert reply_targets(np.array([4, 0, 8])).tolist() == [0, 8, -1]


@pytest.mark.parametrize("rules", RULES, ids=lambda r: "{width}x{height}k{k}p{players}".format(**r))
def test_auxiliary_targets_follow_the_planes_under_symmetry(rules):
    """Sampled under any symmetry, each stone of a position is its own in the final
    board, and the reply is an empty cell (or column) of the position."""
    config = TrainConfig.for_game("custom", rules=rules)
    buf = ReplayBuffer(config)
    rng = np.random.default_rng(3)
    players = rules["players"]
    for _ in range(12):
        board, history = inarow.Board(rules=inarow.Rules(**rules)), []
        while not board.is_over:
            action = int(rng.choice(board.legal_moves()))
            history.append((board.observation(), board.legal_mask(), board.current_player, action))
            board.move(action)
        movers = np.array([h[2] for h in history])
        n = len(history)
        buf.add(
            np.stack([h[0] for h in history]),
            np.stack([h[1] for h in history]),
            np.zeros((n, config.num_actions), np.float32),
            np.zeros((n, 1 if players == 2 else players), np.float32),
            final_board_classes(board.to_numpy(), movers, players),
            reply_targets(np.array([h[3] for h in history])),
        )
    obs, mask, _, _, final, reply = buf.sample(2000, rng)
    for plane in range(players):
        stones = obs[:, plane] > 0
        assert np.all(final[stones] == plane + 1)
    has = reply >= 0
    assert has.mean() > 0.5 and np.all(mask[np.flatnonzero(has), reply[has]])
    if not rules["gravity"]:  # the reply's stone is the next player's in the final board
        rows, cols = np.divmod(reply[has], rules["width"])
        assert np.all(final[np.flatnonzero(has), rows, cols] == 2)
    # A buffer saved before the auxiliary targets loads with none.
    state = {k: v for k, v in buf.state().items() if k not in ("final_board", "reply")}
    again = ReplayBuffer(config)
    again.load_state(state)
    assert np.all(again.final_board[: len(again)] == 255) and np.all(
        again.reply[: len(again)] == -1
    )


def test_replay_buffer_keeps_the_newest_and_augments_consistently():
    config = TrainConfig.for_game("tic_tac_toe", replay_capacity=50)
    buf = ReplayBuffer(config)
    rng = np.random.default_rng(0)
    boards = [_random_board(config.rules, rng, int(rng.integers(0, 8))) for _ in range(80)]
    boards = [b for b in boards if not b.is_over]
    obs = np.stack([b.observation() for b in boards])
    mask = np.stack([b.legal_mask() for b in boards])
    # A policy target that marks cell (0, 0) when legal: follows the planes under symmetry.
    policy = mask / mask.sum(1, keepdims=True)
    value = np.arange(len(boards), dtype=np.float32)
    final = np.zeros((len(boards), 3, 3), np.uint8)
    reply = np.full(len(boards), -1, np.int16)
    buf.add(obs[:30], mask[:30], policy[:30], value[:30], final[:30], reply[:30])
    buf.add(obs[30:], mask[30:], policy[30:], value[30:], final[30:], reply[30:])
    assert len(buf) == min(50, len(boards)) and buf.added == len(boards)
    assert set(buf.value[: len(buf), 0].tolist()) == set(value[-len(buf) :].tolist())
    o, m, p, v, _, _ = buf.sample(400, rng)
    occupied = o.sum(1).reshape(len(o), -1) > 0
    assert np.array_equal(m, ~occupied)  # masks follow the planes
    assert np.allclose(p.sum(1), 1) and np.all(p[~m] == 0)
    state = buf.state()
    again = ReplayBuffer(config)
    again.load_state(state)
    assert again.added == buf.added and np.array_equal(
        np.sort(again.value[: len(again), 0]), np.sort(buf.value[: len(buf), 0])
    )


def test_train_command_refuses_bad_arguments_before_training(tmp_path):
    from inarow.cli import main

    # A game and rules together, bad rules, and a resume without a checkpoint: exit 2,
    # a one-line error, nothing trained (the checks come before torch is needed).
    assert main(["train", "tic_tac_toe", "--width", "5", "--run-dir", str(tmp_path)]) == 2
    assert main(["train", "--k", "9", "--run-dir", str(tmp_path)]) == 2
    assert main(["train", "tic_tac_toe", "--resume", "--run-dir", str(tmp_path / "none")]) == 2
    assert not any(tmp_path.iterdir())


def test_train_flags_reach_the_config(capsys):
    from inarow.cli import _parser
    from inarow.train.cli import _config

    args = _parser().parse_args(
        "train --width 8 --height 8 --k 5 --players 3 --no-gravity --eval-negamax-depths 2 "
        "--gumbel-considered 12".split()
    )
    label, config = _config(args)
    assert label == "8x8_k5_p3_free"
    assert config.eval_negamax_depths == (2,) and config.gumbel_considered == 12
    assert (
        _config(_parser().parse_args(["train", "--eval-negamax-depths", ""]))[1].eval_negamax_depths
        == ()
    )
    for bad in ("0", "2,x", "65"):
        with pytest.raises(SystemExit):
            _parser().parse_args(["train", "--eval-negamax-depths", bad])
        assert "is not a comma-separated list of depths" in capsys.readouterr().err


def test_playout_cap_randomisation_trains_the_policy_of_full_searches_only():
    config = TrainConfig.for_game(
        "tic_tac_toe", games=8, simulations=24, fast_simulations=4, full_search_share=0.5
    )
    play = SelfPlay(config, _blind, seed=3)
    positions = []
    rounds = 0
    while sum(len(g.obs) for g in positions) < 200:
        games = play.step()
        rounds += 1
        if games is not None:
            positions.append(games)
    policy = np.concatenate([g.policy for g in positions])
    trained = policy.sum(1) > 0
    # Rounds are full or fast as a whole, about half each; a full round's policy sums to 1.
    assert 0.25 < trained.mean() < 0.75, trained.mean()
    np.testing.assert_allclose(policy[trained].sum(1), 1.0, atol=1e-5)
    assert play.simulations < 24 * 8 * rounds and play.simulations > 4 * 8 * rounds
    assert (play.simulations - 4 * 8 * rounds) % (20 * 8) == 0
    # Off by default: every position has its policy target.
    plain = SelfPlay(TrainConfig.for_game("tic_tac_toe", games=4), _blind, seed=3)
    while (games := plain.step()) is None:
        pass
    assert (games.policy.sum(1) > 0).all()
    for bad in (0.0, 1.5, -1.0):
        with pytest.raises(ValueError, match="full_search_share"):
            TrainConfig.for_game("tic_tac_toe", full_search_share=bad)
    with pytest.raises(ValueError, match="fast_simulations=0"):
        TrainConfig.for_game("tic_tac_toe", full_search_share=0.5, fast_simulations=0)


def test_a_puct_root_with_forced_playouts_plays_and_trains_on_its_visits():
    config = TrainConfig.for_game(
        "tic_tac_toe", games=8, simulations=24, root="puct", forced_playouts=2.0
    )
    play = SelfPlay(config, _blind, seed=3)
    search = repr(play._search(True, 0))
    assert 'root="puct"' in search and "forced_playouts=2" in search
    positions = 0
    while positions < 100:
        games = play.step()
        if games is not None:
            positions += len(games.obs)
            np.testing.assert_allclose(games.policy.sum(1), 1.0, atol=1e-5)
    gumbel = SelfPlay(TrainConfig.for_game("tic_tac_toe"), _blind, seed=3)
    assert 'root="gumbel"' in repr(gumbel._search(True, 0))
    for bad, message in [
        (dict(root="uct"), "root='uct' is not supported"),
        (dict(root="puct", forced_playouts=-1.0), "forced_playouts=-1.0 is out of range"),
        (dict(root="puct", forced_playouts=float("inf")), "out of range"),
        (dict(forced_playouts=2.0), 'needs root="puct"'),
    ]:
        with pytest.raises(ValueError, match=message):
            TrainConfig.for_game("tic_tac_toe", **bad)


def test_random_moves_replace_the_searched_ones_at_their_share():
    def centre(obs, mask):  # a network sure of the centre
        logits = np.zeros(mask.shape, np.float32)
        logits[:, 4] = 10.0
        return logits, np.zeros(len(obs), np.float32)

    def first_moves(share):
        config = TrainConfig.for_game(
            "tic_tac_toe",
            games=16,
            temperature_plies=0,
            random_opening_plies=0,
            random_move_share=share,
        )
        play = SelfPlay(config, centre, seed=5)
        cells = []
        while len(cells) < 150:
            games = play.step()
            if games is None:
                continue
            one_stone = games.obs.sum(axis=(1, 2, 3)) == 1
            cells += [int(np.flatnonzero(o.sum(0))[0]) for o in games.obs[one_stone]]
            # Every position keeps the search's policy target.
            np.testing.assert_allclose(games.policy.sum(1), 1.0, atol=1e-5)
        return np.bincount(cells, minlength=9) / len(cells)

    assert first_moves(0.0)[4] > 0.95
    random_first = first_moves(0.9)
    assert random_first[4] < 0.35 and (random_first > 0.03).all()
    for bad in (-0.1, 1.0, float("nan")):
        with pytest.raises(ValueError, match="random_move_share"):
            TrainConfig.for_game("tic_tac_toe", random_move_share=bad)


def test_self_play_plays_and_trains_on_proven_wins():
    """With threat proofs in self-play, a position whose policy target is a single
    move is one where that move wins (the solver agrees), and the blind network's
    games still reach such positions often."""

    rules = dict(width=5, height=5, k=4, players=2, gravity=False)
    config = TrainConfig.for_game(
        "custom",
        rules=rules,
        games=8,
        simulations=8,
        temperature_plies=0,
        random_opening_plies=6,
        selfplay_proof_nodes=5_000,
    )
    play = SelfPlay(config, _blind, seed=2)
    parts = []
    while sum(len(g.obs) for g in parts) < 150:
        games = play.step()
        if games is not None:
            parts.append(games)
    obs = np.concatenate([g.obs for g in parts])
    policy = np.concatenate([g.policy for g in parts])
    proven = np.flatnonzero(policy.max(1) == 1.0)
    assert len(proven) >= 30 and play.proof_seconds > 0
    solver = inarow.Solver()
    for i in proven:
        mine, theirs = obs[i, 0], obs[i, 1]
        mover = 1 if mine.sum() == theirs.sum() else 2
        grid = (mine * mover + theirs * (3 - mover)).astype(np.int8)
        board = inarow.Board.from_numpy(grid, inarow.Rules(**rules))
        assert board.current_player == mover
        score = solver.analyze(board)[int(policy[i].argmax())]
        assert score is not None and score > 0, board
    with pytest.raises(ValueError, match="selfplay_proof_nodes"):
        TrainConfig.for_game("custom", rules=dict(rules, players=3), selfplay_proof_nodes=10)
    with pytest.raises(ValueError, match="selfplay_proof_nodes"):
        TrainConfig.for_game("custom", rules=rules, selfplay_proof_nodes=-1)


def test_config_for_games_and_round_trip():
    ttt = TrainConfig.for_game("tic_tac_toe", seed=5)
    assert ttt.num_actions == 9 and ttt.value_size == 1 and ttt.seed == 5
    p3 = TrainConfig.for_game(
        "custom", rules=dict(width=8, height=8, k=5, players=3, gravity=False)
    )
    assert p3.num_actions == 64 and p3.value_size == 3
    assert TrainConfig.from_dict(p3.to_dict()) == p3
    with pytest.raises(ValueError, match="gomoku"):
        TrainConfig.for_game("gomoku")
    with pytest.raises(ValueError, match="unknown"):
        TrainConfig.from_dict({"nope": 1})


def test_gomoku_boards_get_a_threat_engine_rung_by_default():
    gomoku = dict(width=9, height=9, k=5, players=2, gravity=False)
    config = TrainConfig.for_game("custom", rules=gomoku)
    assert config.eval_threats_nodes == 20_000
    assert (
        TrainConfig.for_game("custom", rules=gomoku, eval_threats_nodes=0).eval_threats_nodes == 0
    )
    for rules in (dict(gomoku, players=3), dict(gomoku, k=4), dict(gomoku, gravity=True)):
        assert TrainConfig.for_game("custom", rules=rules).eval_threats_nodes == 0
    assert TrainConfig.for_game("connect_four").eval_threats_nodes == 0
    for bad in (-1, True, 2**41):
        with pytest.raises(ValueError, match="eval_threats_nodes"):
            TrainConfig.for_game("custom", rules=gomoku, eval_threats_nodes=bad)


def test_the_threat_engine_rung_is_played_and_logged():
    from inarow.train.evaluation import evaluation_columns, measure_strength

    rules = dict(width=7, height=7, k=5, players=2, gravity=False)
    config = TrainConfig.for_game(
        "custom",
        rules=rules,
        eval_threats_nodes=300,
        eval_negamax_depths=(),
        eval_games=4,
        eval_match_simulations=4,
        eval_judged_per_set=0,
    )
    assert evaluation_columns(config)[-5:] == [
        "threats_win",
        "threats_draw",
        "threats_loss",
        "threats_games",
        "threats_perfect",  # blank: 7x7 is past the boards a match values exactly
    ]

    row = measure_strength(blind_net, config, seed=3)  # the engine should not lose to it
    assert set(row) == {"threats_win", "threats_draw", "threats_loss", "threats_games"}
    assert row["threats_games"] == 4
    assert row["threats_win"] + row["threats_draw"] + row["threats_loss"] == pytest.approx(1.0)
    assert row["threats_loss"] >= 0.5


@pytest.mark.parametrize(
    ("size", "k", "judged"),
    [(5, 4, True), (6, 4, True), (6, 5, True), (7, 5, False), (8, 5, False), (9, 5, False)],
)
def test_solver_judged_evaluation_only_where_the_solver_judges_in_seconds(size, k, judged):
    """Free boards past 36 cells are within the solver's 128 but not judged while
    training: a 7x7 opening of 6 stones takes it minutes, and nothing stops it."""
    from inarow.train.evaluation import judged_applies

    rules = dict(width=size, height=size, k=k, players=2, gravity=False)
    config = TrainConfig.for_game("custom", rules=rules)
    assert inarow.Solver.supports(inarow.Rules(**rules))
    assert judged_applies(config) is judged
