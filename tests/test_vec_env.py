"""VecEnv and simulate: the batch agrees with separate Boards, is deterministic
for a seed whatever the thread count, and refuses bad batches without stepping."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import rule_kwargs

import inarow


def rule_sets():
    return rule_kwargs(max_width=8, max_height=7)


def planes_of(board: inarow.Board) -> np.ndarray:
    grid = board.to_numpy()
    p = board.players
    return np.stack([(grid == (board.current_player - 1 + i) % p + 1) for i in range(p)]).astype(
        np.uint8
    )


@given(
    rules=rule_sets(), seed=st.integers(0, 2**32), mode=st.sampled_from(["next_step", "same_step"])
)
def test_batch_matches_separate_boards(rules, seed, mode):
    n = 5
    env = inarow.VecEnv(n, rules=inarow.Rules(**rules), seed=seed, autoreset=mode, threads=1)
    obs, info = env.reset()
    boards = [inarow.Board(rules=inarow.Rules(**rules)) for _ in range(n)]
    pending = [False] * n
    for _ in range(3 * rules["width"] * rules["height"] + 2):
        actions = env.random_actions().copy()
        expected_rewards = np.zeros(n, np.float32)
        expected_terminated = np.zeros(n, bool)
        expected_final = {}
        for i, b in enumerate(boards):
            if pending[i]:
                boards[i] = b = inarow.Board(rules=inarow.Rules(**rules))
                pending[i] = False
                continue
            assert actions[i] in b.legal_moves()
            mover = b.current_player
            won = b.move(int(actions[i]))
            expected_rewards[i] = 1.0 if won else 0.0
            if b.is_over:
                expected_terminated[i] = True
                assert info is not None
                if mode == "next_step":
                    pending[i] = True
                else:
                    expected_final[i] = planes_of(b)
                    boards[i] = inarow.Board(rules=inarow.Rules(**rules))
            if won:
                assert b.winner == mover
        obs, rewards, terminated, truncated, info = env.step(actions)
        np.testing.assert_array_equal(rewards, expected_rewards)
        np.testing.assert_array_equal(terminated, expected_terminated)
        assert not truncated.any()
        for i, b in enumerate(boards):
            np.testing.assert_array_equal(obs[i], planes_of(b))
            expected_mask = np.ones(b.num_actions, bool) if pending[i] else b.legal_mask()
            np.testing.assert_array_equal(info["action_mask"][i], expected_mask)
            assert info["current_player"][i] == b.current_player
            assert env.board(i) == b
            if expected_terminated[i]:
                winner = info["winner"][i]
                pr = info["player_rewards"][i]
                if winner:
                    assert pr[winner - 1] == 1 and (pr == -1).sum() == rules["players"] - 1
                else:
                    assert (pr == 0).all()
        if mode == "same_step":
            for i, final in expected_final.items():
                assert info["_final_obs"][i]
                np.testing.assert_array_equal(info["final_obs"][i], final)


def play(threads, seed=3, steps=60, **rules):
    env = inarow.VecEnv(3000, rules=inarow.Rules(**rules), seed=seed, threads=threads)
    trace = []
    for _ in range(steps):
        obs, rewards, terminated, _, info = env.step(env.random_actions())
        trace.append((rewards.sum(), terminated.sum(), int(obs.sum())))
    return trace, env.board(2999).moves


@pytest.mark.parametrize(
    "rules", [{}, dict(width=8, height=8, k=5, players=3, gravity=False)], ids=["c4", "8x8p3"]
)
def test_deterministic_for_a_seed_whatever_the_threads(rules):
    assert play(1, **rules) == play(2, **rules) == play(None, **rules)
    assert play(1, **rules) != play(1, seed=4, **rules)


def test_next_step_autoreset_ignores_the_action():
    env = inarow.VecEnv(1, seed=0)
    for a in [0, 1, 0, 1, 0, 1]:
        env.step(np.array([a]))
    obs, rewards, terminated, _, info = env.step(np.array([0]))
    assert terminated[0] and rewards[0] == 1 and info["winner"][0] == 1
    np.testing.assert_array_equal(info["player_rewards"][0], [1, -1])
    assert info["action_mask"][0].all() and env.legal_mask()[0].all()
    obs, rewards, terminated, _, info = env.step(np.array([123456]))  # ignored
    assert not terminated[0] and info["autoreset"][0] and obs.sum() == 0
    assert env.board(0).moves == []


def test_disabled_autoreset_refuses_finished_envs_until_reset():
    env = inarow.VecEnv(
        2, rules=inarow.Rules(width=3, height=3, k=3, gravity=False), autoreset="disabled", seed=0
    )
    for a0, a1 in [(0, 0), (3, 1), (1, 2), (4, 3), (2, 4)]:
        env.step(np.array([a0, a1]))
    assert env.board(0).winner == 1
    assert not env.legal_mask()[0].any() and env.legal_mask()[1].sum() == 4
    with pytest.raises(inarow.IllegalMoveError, match="env 0.*over"):
        env.step(np.array([5, 5]))
    env.reset(options={"reset_mask": np.array([True, False])})
    assert env.board(0).moves == [] and env.board(1).moves == [0, 1, 2, 3, 4]
    env.step(np.array([5, 5]))


def test_observation_dtypes():
    for dtype, np_dtype in [("uint8", np.uint8), ("bool", np.bool_), ("float32", np.float32)]:
        env = inarow.VecEnv(4, obs_dtype=dtype, seed=0)
        obs, _ = env.reset()
        assert obs.dtype == np_dtype and obs.shape == (4, 2, 6, 7)
        obs, *_ = env.step(np.array([3, 3, 3, 3]))
        assert obs[:, 1, 5, 3].all() and not obs[:, 0].any()


def returned_arrays(result):
    *arrays, info = result
    return arrays + [v for v in info.values() if isinstance(v, np.ndarray)]


@pytest.mark.parametrize("autoreset", ["next_step", "same_step"])
def test_returned_arrays_survive_later_calls(autoreset):
    env = inarow.VecEnv(
        16, rules=inarow.Rules(width=3, height=3, k=3, gravity=False), seed=0, autoreset=autoreset
    )
    kept = [returned_arrays(env.reset())]
    for _ in range(12):
        actions = env.random_actions()
        kept.append([*returned_arrays(env.step(actions)), actions])
    snapshots = [[a.copy() for a in arrays] for arrays in kept]
    env.step(env.random_actions())
    env.reset(options={"reset_mask": np.ones(16, bool)})
    for arrays, snapshot in zip(kept, snapshots):
        for a, before in zip(arrays, snapshot):
            np.testing.assert_array_equal(a, before)
    assert any(t.any() for t in (arrays[2] for arrays in kept[1:]))
    assert not any(np.shares_memory(x, y) for x in kept[-1] for y in kept[-2])
    assert not env.reuse_buffers


def test_reuse_buffers_writes_every_call_into_the_same_arrays():
    env = inarow.VecEnv(8, seed=0, reuse_buffers=True)
    assert env.reuse_buffers and "reuse_buffers=True" in repr(env)
    first = returned_arrays(env.step(env.random_actions()))
    second = returned_arrays(env.step(env.random_actions()))
    assert all(a is b for a, b in zip(first, second))
    assert env.legal_mask() is second[5] and env.random_actions() is env.random_actions()
    obs, info = env.reset()
    assert obs is first[0] and info["action_mask"] is first[5]


@pytest.mark.parametrize("reuse", [False, True])
def test_truncated_is_all_false_fresh_or_one_read_only_array(reuse):
    env = inarow.VecEnv(
        8, rules=inarow.Rules(width=3, height=3, k=3, gravity=False), seed=0, reuse_buffers=reuse
    )
    seen = [env.step(env.random_actions())[3] for _ in range(20)]
    assert all(t.dtype == np.bool_ and t.shape == (8,) and not t.any() for t in seen)
    assert all((a is b) == reuse for a, b in zip(seen, seen[1:]))
    if reuse:  # the one shared array is read-only: no caller can change it
        with pytest.raises(ValueError, match="read-only"):
            seen[0][:] = True
    else:  # a caller's write never reaches another call's array
        seen[0][:] = True
        assert not env.step(env.random_actions())[3].any()


@pytest.mark.parametrize(
    "kwargs, extra",
    [
        ({}, {"autoreset"}),
        ({"autoreset": "same_step"}, {"final_obs", "_final_obs"}),
        ({"illegal_action": "loss"}, {"autoreset", "illegal_action"}),
        ({"opponent": "random"}, {"autoreset", "agent_player", "final_agent_player"}),
        (
            {"opponent": "random", "illegal_action": "loss", "autoreset": "disabled"},
            {"autoreset", "agent_player", "final_agent_player", "illegal_action"},
        ),
    ],
)
def test_info_keys_follow_the_configuration(kwargs, extra):
    env = inarow.VecEnv(4, seed=0, **kwargs)
    common = {"current_player", "action_mask", "winner", "player_rewards"}
    _, info = env.reset(seed=0)
    assert set(info) == common | extra
    info = env.step(env.random_actions())[4]
    assert set(info) == common | extra
    assert all(v.shape[0] == 4 for v in info.values())


def test_reuse_buffers_rejects_non_booleans():
    with pytest.raises(TypeError, match="reuse_buffers"):
        inarow.VecEnv(2, reuse_buffers="yes")


@pytest.mark.parametrize(
    "rules",
    [dict(width=3, height=3, k=3, gravity=False), dict(width=4, height=2, k=2), {}],
    ids=["ttt", "4x2k2", "c4"],
)
def test_a_masked_categorical_sampler_never_sees_an_empty_row(rules):
    env = inarow.VecEnv(64, rules=inarow.Rules(**rules), seed=1)
    rng = np.random.default_rng(0)
    obs, info = env.reset()
    mask = info["action_mask"]
    finished = 0
    for _ in range(200):
        assert mask.any(axis=1).all()
        logits = np.where(mask, rng.normal(size=mask.shape), -np.inf)
        probs = np.exp(logits - logits.max(axis=1, keepdims=True))
        probs /= probs.sum(axis=1, keepdims=True)
        assert np.isfinite(probs).all()
        actions = (probs.cumsum(axis=1) < rng.random((len(probs), 1))).sum(axis=1)
        actions = np.minimum(actions, mask.shape[1] - 1)
        assert mask[np.arange(len(actions)), actions].all()
        obs, rewards, terminated, truncated, info = env.step(actions)
        mask = info["action_mask"]
        np.testing.assert_array_equal(mask[terminated], True)
        finished += int(terminated.sum())
    assert finished > 100


def finished_and_running_pair():
    env = inarow.VecEnv(2, rules=inarow.Rules(width=3, height=3, k=3, gravity=False), seed=0)
    for a0, a1 in [(0, 0), (3, 1), (1, 2), (4, 3), (2, 4)]:
        _, _, terminated, _, info = env.step(np.array([a0, a1]))
    assert terminated.tolist() == [True, False]
    return env, info


def test_finished_envs_keep_an_all_true_mask_until_reset():
    env, info = finished_and_running_pair()
    np.testing.assert_array_equal(info["action_mask"], [[1] * 9, [0] * 5 + [1] * 4])
    obs, info = env.reset(options={"reset_mask": np.array([False, True])})
    np.testing.assert_array_equal(info["action_mask"], [[1] * 9, [1] * 9])
    np.testing.assert_array_equal(env.legal_mask(), info["action_mask"])
    assert env.board(0).winner == 1 and env.board(1).moves == []


@pytest.mark.parametrize("ignored", [0, 8, -5, 10**6])
def test_any_action_of_a_finished_env_is_accepted_and_ignored(ignored):
    env, _ = finished_and_running_pair()
    _, _, terminated, _, info = env.step(np.array([ignored, 5]))
    assert info["autoreset"].tolist() == [True, False] and not terminated.any()
    assert env.board(0).moves == [] and env.board(1).moves == [0, 1, 2, 3, 4, 5]
    np.testing.assert_array_equal(info["action_mask"][0], [1] * 9)


def test_actions_of_any_integer_dtype_and_strides():
    env = inarow.VecEnv(4, seed=0)
    base = np.array([[3, 0], [3, 0], [2, 0], [1, 0]], dtype=np.int16)
    env.step(base[:, 0])  # non-contiguous column view
    env.step([0, 1, 2, 3])  # a list
    env.step(np.array([6, 6, 6, 6], dtype=np.uint8)[::-1])
    assert env.board(0).moves == [3, 0, 6] and env.board(3).moves == [1, 3, 6]


BAD_BATCHES = [
    (np.zeros(4, dtype=np.float64), TypeError, "dtype float64"),
    (np.array([0, 1, 2, "x"], dtype=object), TypeError, "dtype object"),
    (np.zeros(3, dtype=np.int64), ValueError, r"shape \(4,\)"),
    (np.zeros((4, 1), dtype=np.int64), ValueError, r"shape \(4,\)"),
    (np.array([1, 2, 3, 7]), inarow.IllegalMoveError, "env 3: action 7 is out of range"),
    (np.array([1, -1, 3, 4]), inarow.IllegalMoveError, "env 1: action -1"),
    (
        np.array([1, 2, 3, 2**64 - 1], dtype=np.uint64),
        inarow.IllegalMoveError,
        "env 3: action 18446744073709551615",
    ),
    (np.array([0, 0, 0, 0]), inarow.IllegalMoveError, "env 0: action 0: column 0 is full"),
]


@pytest.mark.parametrize("actions,error,message", BAD_BATCHES)
def test_a_refused_batch_steps_nothing(actions, error, message):
    env = inarow.VecEnv(4, seed=0)
    for _ in range(6):
        env.step(np.array([0, 1, 2, 3]))
    env.step(np.array([1, 2, 3, 4]))
    before = [env.board(i) for i in range(4)]
    with pytest.raises(error, match=message):
        env.step(actions)
    assert [env.board(i) for i in range(4)] == before
    assert [env.board(i).moves for i in range(4)] == [b.moves for b in before]
    obs = env.step(np.array([1, 2, 3, 4]))[0]
    for i in range(4):
        np.testing.assert_array_equal(obs[i], planes_of(env.board(i)))
        assert env.board(i).moves == before[i].moves + [i + 1]


def test_occupied_cell_names_the_env_and_cell():
    env = inarow.VecEnv(3, rules=inarow.Rules(width=3, height=3, k=3, gravity=False), seed=0)
    env.step(np.array([4, 4, 4]))
    with pytest.raises(inarow.IllegalMoveError, match=r"env 1: action 4: cell \(row 1, col 1\)"):
        env.step(np.array([0, 4, 0]))
    assert env.board(0).moves == [4]


@pytest.mark.parametrize(
    "kwargs,error",
    [
        (dict(num_envs=0), ValueError),
        (dict(num_envs=-5), ValueError),
        (dict(num_envs=10**12), ValueError),
        (dict(num_envs=2**24, rules=inarow.Rules(64, 64, 5, 16, False)), ValueError),
        (dict(num_envs=1.5), TypeError),
        (dict(num_envs=4, autoreset="sometimes"), ValueError),
        (dict(num_envs=4, obs_dtype="int64"), ValueError),
        (dict(num_envs=4, threads=0), ValueError),
        (dict(num_envs=4, seed=-1), ValueError),
    ],
)
def test_bad_construction_is_refused_before_allocating(kwargs, error):
    with pytest.raises(error):
        inarow.VecEnv(**kwargs)


def test_simulate_totals_and_thread_independence():
    one = inarow.simulate(20_000, seed=5, threads=1)
    two = inarow.simulate(20_000, seed=5, threads=2)
    assert (one.games, one.moves, one.wins, one.draws, one.lengths) == (
        two.games,
        two.moves,
        two.wins,
        two.draws,
        two.lengths,
    )
    assert one.games == sum(one.wins) + one.draws == sum(one.lengths) == 20_000
    assert one.moves == sum(n * c for n, c in enumerate(one.lengths))
    assert all(c == 0 for c in one.lengths[:7])  # no Connect Four game ends before move 7
    assert one.wins != inarow.simulate(20_000, seed=6, threads=1).wins


def test_simulate_matches_known_random_play_odds():
    # Uniform random tic-tac-toe: X wins 58.5%, O 28.8%, draws 12.7%.
    r = inarow.simulate(100_000, rules=inarow.Rules(width=3, height=3, k=3, gravity=False), seed=1)
    assert r.wins[0] / r.games == pytest.approx(0.585, abs=0.01)
    assert r.wins[1] / r.games == pytest.approx(0.288, abs=0.01)
    assert r.draws / r.games == pytest.approx(0.127, abs=0.01)


def test_simulate_reports_progress_and_validates():
    seen = []
    r = inarow.simulate(50_000, seed=0, progress=lambda done, total: seen.append((done, total)))
    assert r.games == 50_000 and seen and seen[-1] == (50_000, 50_000)
    assert inarow.simulate(0).games == 0
    with pytest.raises(ValueError, match="num_games=-1"):
        inarow.simulate(-1)
    with pytest.raises(inarow.InvalidRulesError):
        inarow.simulate(10, rules=inarow.Rules(k=9))
    with pytest.raises(ValueError, match="policy"):
        inarow.simulate(10, policy="greedy")
