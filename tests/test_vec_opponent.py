"""VecEnv against an opponent: the agent is to move after every step, rewards and
observations are the agent's, a Python policy agrees with a plain-Board oracle,
results are deterministic for a seed whatever the thread count, bad policy
outputs are refused with the batch unchanged, and illegal actions can lose."""

from __future__ import annotations

import numpy as np
import pytest
from test_vec_env import planes_of

import inarow

TTT = inarow.Rules.tic_tac_toe()


def boards(env: inarow.VecEnv) -> list[list[int]]:
    return [env.board(i).moves for i in range(env.num_envs)]


def expected_reward(winner: int, seat: int) -> float:
    return 0.0 if winner == 0 else (1.0 if winner == seat else -1.0)


@pytest.mark.parametrize("agent_player", [1, 2, "random"])
@pytest.mark.parametrize("opponent", ["random", "greedy", inarow.agents.negamax(2)])
def test_the_agent_moves_and_is_rewarded_from_its_seat(opponent, agent_player):
    env = inarow.VecEnv(32, seed=3, opponent=opponent, agent_player=agent_player)
    obs, info = env.reset(seed=3)
    seats_seen = set()
    for _ in range(60):
        obs, rewards, terminated, _, info = env.step(env.random_actions())
        seat = info["agent_player"]
        for i in range(env.num_envs):
            b = env.board(i)
            if terminated[i]:
                # The final position stays until the next-step reset: the winner is on it.
                assert b.is_over and info["winner"][i] == (b.winner or 0)
                assert rewards[i] == expected_reward(b.winner or 0, seat[i])
                assert info["player_rewards"][i, seat[i] - 1] == rewards[i]
                view = b.observation()
                if b.current_player != seat[i]:
                    view = view[::-1]  # two players: the agent's view swaps the planes
                np.testing.assert_array_equal(obs[i], view)
            else:
                assert rewards[i] == 0 and b.current_player == seat[i]
                np.testing.assert_array_equal(obs[i], planes_of(b))
                np.testing.assert_array_equal(info["action_mask"][i], b.legal_mask())
            seats_seen.add(int(seat[i]))
        assert list(info["current_player"]) == [env.board(i).current_player for i in range(32)]
    if agent_player == "random":
        assert seats_seen == {1, 2}
    else:
        assert seats_seen == {agent_player}


def test_the_opponent_opens_when_the_agent_moves_second():
    env = inarow.VecEnv(50, seed=0, opponent="random", agent_player=2)
    env.reset(seed=1)
    assert all(len(m) == 1 for m in boards(env))
    assert len({m[0] for m in boards(env)}) > 3  # drawn from per-env streams
    env = inarow.VecEnv(400, seed=0, opponent="random", agent_player="random")
    opened = [len(m) for m in boards(env)]
    assert set(opened) == {0, 1} and 120 < sum(opened) < 280


def test_strength_shows_in_the_agents_rewards():
    def mean_return(opponent):
        env = inarow.VecEnv(256, seed=5, opponent=opponent, agent_player="random")
        total, games = 0.0, 0
        for _ in range(120):
            _, r, t, _, _ = env.step(env.random_actions())
            total += r[t].sum()
            games += int(t.sum())
        return total / games

    vs_random, vs_negamax = mean_return("random"), mean_return("negamax:3")
    assert abs(vs_random) < 0.2
    assert vs_negamax < -0.8


def run(seed, threads, opponent="greedy", mode="next_step", n=2048):
    env = inarow.VecEnv(
        n, seed=seed, threads=threads, opponent=opponent, agent_player="random", autoreset=mode
    )
    trace = []
    for _ in range(15):
        obs, r, t, _, info = env.step(env.random_actions())
        trace.append((obs.copy(), r.copy(), t.copy(), info["agent_player"].copy()))
    return trace


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_deterministic_for_a_seed_whatever_the_threads(mode):
    a = run(7, 1, mode=mode)
    b = run(7, 2, mode=mode)
    for x, y in zip(a, b):
        for u, v in zip(x, y):
            np.testing.assert_array_equal(u, v)
    c = run(8, 2, mode=mode)
    assert any(not np.array_equal(x[0], y[0]) for x, y in zip(a, c))


def lowest_legal(obs, mask):
    return np.argmax(mask, axis=1)


def test_a_python_policy_agrees_with_a_board_oracle():
    calls = []

    def policy(obs, mask):
        calls.append((obs.shape, obs.dtype, mask.dtype))
        return lowest_legal(obs, mask)

    n = 6
    env = inarow.VecEnv(
        n, rules=TTT, seed=0, opponent=policy, agent_player=2, autoreset="same_step"
    )
    oracle = [inarow.Board(rules=TTT) for _ in range(n)]
    for b in oracle:
        b.move(0)
    assert boards(env) == [b.moves for b in oracle]
    rng = np.random.default_rng(0)
    for _ in range(40):
        actions = [int(rng.choice(np.flatnonzero(b.legal_mask()))) for b in oracle]
        obs, rewards, terminated, _, info = env.step(actions)
        for i, b in enumerate(oracle):
            b.move(actions[i])
            while not b.is_over and b.current_player != 2:
                b.move(int(np.argmax(b.legal_mask())))
            assert terminated[i] == b.is_over
            if b.is_over:
                assert rewards[i] == expected_reward(b.winner or 0, 2)
                assert info["_final_obs"][i]
                view = b.observation() if b.current_player == 2 else b.observation()[::-1]
                np.testing.assert_array_equal(info["final_obs"][i], view)
                b = oracle[i] = inarow.Board(rules=TTT)
                b.move(0)
            assert env.board(i).moves == b.moves
    assert all(
        shape[1:] == (2, 3, 3) and dt == np.uint8 and md == np.bool_ for shape, dt, md in calls
    )


def snapshot(env):
    return boards(env), env.legal_mask().tolist()


@pytest.mark.parametrize(
    "returned, error, words",
    [
        (lambda obs, mask: np.zeros(len(obs) + 1, int), ValueError, "shape"),
        (lambda obs, mask: np.zeros(len(obs), float), TypeError, "opponent"),
        (lambda obs, mask: [None] * len(obs), TypeError, "opponent"),
        (lambda obs, mask: np.full(len(obs), 9), inarow.IllegalMoveError, "allowed 0..=6"),
        (lambda obs, mask: np.zeros(len(obs), bool), TypeError, "opponent"),
    ],
)
def test_bad_policy_outputs_are_refused_and_nothing_moves(returned, error, words):
    env = inarow.VecEnv(4, seed=0, opponent=returned)
    before = snapshot(env)
    with pytest.raises(error, match=words) as info:
        env.step([0, 1, 2, 3])
    assert info.value.__cause__ is not None or error is inarow.IllegalMoveError
    assert snapshot(env) == before


def test_an_illegal_policy_move_names_the_env_and_nothing_moves():
    def full_column(obs, mask):
        return np.zeros(len(obs), int)

    env = inarow.VecEnv(3, seed=0, opponent=full_column, agent_player=2)
    for _ in range(2):
        env.step([0, 1, 2])
    # Env 0: column 0 holds 5 stones; the agent fills it and the policy plays it again.
    before = snapshot(env)
    with pytest.raises(inarow.IllegalMoveError, match="env 0.*column 0 is full"):
        env.step([0, 1, 2])
    assert snapshot(env) == before


def test_a_raising_policy_propagates_and_reset_is_undone():
    state = {"fail": False}

    def policy(obs, mask):
        if state["fail"]:
            raise KeyError("boom")
        return lowest_legal(obs, mask)

    env = inarow.VecEnv(3, seed=0, opponent=policy, agent_player=2)
    env.step([3, 3, 3])
    before = snapshot(env)
    state["fail"] = True
    with pytest.raises(KeyError, match="boom"):
        env.step([4, 4, 4])
    assert snapshot(env) == before
    with pytest.raises(KeyError):
        env.reset()
    assert snapshot(env) == before


def test_agents_and_names_choose_the_same_native_opponent():
    a = run(1, 1, opponent="negamax:2", n=64)
    b = run(1, 1, opponent=inarow.agents.negamax(2, seed=123), n=64)
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x[0], y[0])


def test_solver_is_another_name_of_the_perfect_opponent():
    # The core reads opponent names once; "solver" is what the Python adapters say.
    traces = []
    for name in ("perfect", "solver"):
        env = inarow.VecEnv(
            16, rules=inarow.Rules(width=5, height=4), seed=3, opponent=name, agent_player="random"
        )
        trace = []
        for _ in range(12):
            obs, r, t, _, info = env.step(env.random_actions())
            trace.append((obs.copy(), r.copy(), t.copy(), info["agent_player"].copy()))
        traces.append(trace)
    for x, y in zip(*traces):
        for a, b in zip(x, y):
            np.testing.assert_array_equal(a, b)
    # The perfect opponent wins: the random agent never does.
    assert not any((r > 0).any() for _, r, _, _ in traces[1])


def test_illegal_actions_lose_when_asked():
    env = inarow.VecEnv(2, seed=0, illegal_action="loss")
    for _ in range(6):
        env.step([0, 1])
    obs, rewards, terminated, _, info = env.step([0, 2])
    assert list(info["illegal_action"]) == [True, False]
    assert list(terminated) == [True, False]
    assert rewards[0] == -1 and list(info["player_rewards"][0]) == [-1, 1]
    assert info["winner"][0] == 2 and info["action_mask"][0].all()
    with pytest.raises(inarow.IllegalMoveError, match="env 1"):
        env.step([0, 9])
    assert env.illegal_action == "loss" and inarow.VecEnv(1).illegal_action == "raise"


def test_the_vs_illegal_loss_is_the_agents():
    env = inarow.VecEnv(1, rules=TTT, seed=0, opponent="random", illegal_action="loss")
    env.step([4])
    occupied = int(np.flatnonzero(~env.legal_mask()[0])[0])
    _, rewards, terminated, _, info = env.step([occupied])
    assert terminated[0] and rewards[0] == -1 and info["illegal_action"][0]
    assert info["winner"][0] == 2 and list(info["player_rewards"][0]) == [-1, 1]


@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        (dict(agent_player=2), ValueError, "needs an opponent"),
        (dict(opponent="random", agent_player=3), ValueError, "agent_player=3"),
        (dict(opponent="random", agent_player="first"), ValueError, "random"),
        (dict(opponent="random", agent_player=True), TypeError, "bool"),
        (dict(opponent=5), TypeError, "opponent"),
        (dict(opponent="negamax:0"), ValueError, "negamax:D"),
        (
            dict(opponent="perfect", rules=inarow.Rules(12, 11, 5, gravity=False)),
            inarow.UnsupportedRulesError,
            "solver",
        ),
        (
            dict(opponent="random", agent_player=2, rules=inarow.Rules(k=1)),
            ValueError,
            "first move",
        ),
        (dict(illegal_action="lose"), ValueError, "illegal_action"),
    ],
)
def test_bad_opponent_arguments(kwargs, error, words):
    with pytest.raises(error, match=words):
        inarow.VecEnv(2, **kwargs)


def test_repr_and_getters():
    env = inarow.VecEnv(2, seed=0, opponent="greedy", agent_player="random")
    assert "opponent='greedy', agent_player='random'" in repr(env)
    assert env.opponent == "greedy" and env.agent_player == "random"
    selfplay = inarow.VecEnv(2, seed=0)
    assert selfplay.opponent is None and selfplay.agent_player is None
    assert selfplay.player_rewards.shape == (2, 2)
    assert "agent_player" not in selfplay.step([0, 0])[4]


def test_the_gymnasium_vector_env_plays_the_opponent():
    pytest.importorskip("gymnasium")
    from inarow.gymnasium import InARowVectorEnv

    env = InARowVectorEnv(8, seed=0, opponent="greedy", agent_player="random")
    obs, info = env.reset(seed=0)
    assert set(info["agent_player"]) <= {1, 2} and info["_agent_player"].all()
    total = 0.0
    for _ in range(100):
        mask = env.action_masks()
        np.testing.assert_array_equal(mask, obs["action_mask"].astype(bool))
        actions = [int(np.flatnonzero(m)[0]) for m in mask]
        obs, rewards, terminated, _, info = env.step(actions)
        assert obs in env.observation_space
        assert np.all(rewards[~terminated] == 0)
        total += rewards.sum()
    assert total < -10  # the lowest-column agent loses to greedy
    lossy = InARowVectorEnv(2, seed=0, illegal_action="loss")
    lossy.reset(seed=0)
    for _ in range(6):
        lossy.step([0, 0])
    _, rewards, terminated, _, info = lossy.step([0, 1])
    assert list(info["illegal_action"]) == [True, False] and rewards[0] == -1


@pytest.mark.parametrize("opponent", [None, "random"])
def test_under_disabled_autoreset_a_forfeited_env_waits_for_its_reset(opponent):
    rules = inarow.Rules(width=4, height=2, k=3)  # env 0's column 0 fills, no one wins
    env = inarow.VecEnv(
        2, rules=rules, seed=0, autoreset="disabled", illegal_action="loss", opponent=opponent
    )
    env.reset(seed=0)
    while env.legal_mask()[0, 0]:
        env.step([0, int(np.flatnonzero(env.legal_mask()[1])[0])])
    assert not env.board(0).is_over and env.board(0).legal_moves() != []
    stones = len(env.board(0).moves)
    _, rewards, terminated, _, info = env.step([0, int(np.flatnonzero(env.legal_mask()[1])[0])])
    assert info["illegal_action"][0] and terminated[0] and rewards[0] == -1
    assert not info["autoreset"][0] and len(env.board(0).moves) == stones
    assert not env.legal_mask()[0].any()  # nothing is legal until the reset
    before = env.board(1).moves
    with pytest.raises(inarow.IllegalMoveError, match="env 0"):
        env.step([1, 1])
    assert env.board(1).moves == before
    env.reset(options={"reset_mask": np.array([True, False])})
    assert env.legal_mask()[0].all() and env.board(1).moves == before


def test_ctrl_c_lands_in_a_searching_opponent_and_the_step_is_undone():
    from test_interrupts import land

    # 8x7 has no opening book: the perfect opponent's first reply is a long search.
    env = inarow.VecEnv(2, rules=inarow.Rules(width=8, height=7), seed=0, opponent="perfect")
    before = boards(env)
    land(lambda: env.step([3, 4]))
    assert boards(env) == before
    quick = inarow.VecEnv(2, seed=0, opponent="negamax:1")
    quick.step([3, 4])
    assert all(len(m) == 2 for m in boards(quick))


@pytest.mark.parametrize("agent_player", [1, 2, 3])
def test_three_players_the_opponent_holds_both_other_seats(agent_player):
    rules = dict(width=5, height=4, k=3, players=3)
    env = inarow.VecEnv(
        16, rules=inarow.Rules(**rules), seed=2, opponent="greedy", agent_player=agent_player
    )
    assert all(len(m) == agent_player - 1 for m in boards(env))
    outcomes = set()
    for _ in range(40):
        _, rewards, terminated, _, info = env.step(env.random_actions())
        for i in range(16):
            b = env.board(i)
            if terminated[i]:
                winner = b.winner or 0
                assert rewards[i] == expected_reward(winner, agent_player)
                outcomes.add(float(rewards[i]))
            else:
                assert b.current_player == agent_player and rewards[i] == 0
    assert -1.0 in outcomes


def test_reused_buffers_with_an_opponent():
    env = inarow.VecEnv(8, seed=0, opponent="random", reuse_buffers=True)
    first = env.step(env.random_actions())
    second = env.step(env.random_actions())
    assert first[0] is second[0] and first[4]["agent_player"] is second[4]["agent_player"]
    fresh = inarow.VecEnv(8, seed=0, opponent="random")
    fresh.step(fresh.random_actions())
    np.testing.assert_array_equal(fresh.step(fresh.random_actions())[0], second[0])


@pytest.mark.parametrize("by_name", [False, True], ids=["path", "pretrained"])
def test_a_trained_network_is_an_opponent_played_on_board_copies(by_name):
    """A ``network.npz`` path (inarow.agents.load's), or ``"pretrained"`` (the network
    shipped for the env's rules), plays in the env exactly the move the agent gives on
    that board; its replies come from copies it cannot disturb."""
    from inarow.pretrained import _weights_path

    path = str(_weights_path("tic_tac_toe"))
    oracle = inarow.agents.load(path, simulations=0)
    opponent = "pretrained:0" if by_name else path + ":0"
    env = inarow.VecEnv(8, rules=TTT, seed=4, opponent=opponent, agent_player="random")
    env.reset(seed=4)
    before = [env.board(i) for i in range(env.num_envs)]
    checked = 0
    for _ in range(30):
        actions = env.random_actions()
        _, _, terminated, _, info = env.step(actions)
        for i in range(env.num_envs):
            b = before[i]
            if b.is_over or terminated[i] or b.current_player != info["agent_player"][i]:
                continue
            after = b.copy()
            after.move(int(actions[i]))
            if not after.is_over:
                after.move(oracle(after.copy()))
                assert env.board(i).moves == after.moves
                checked += 1
        before = [env.board(i) for i in range(env.num_envs)]
    assert checked > 40


def test_pretrained_on_rules_without_a_shipped_network_names_the_shipped_ones():
    with pytest.raises(ValueError, match=r"no shipped network plays .*width=9.*tic_tac_toe"):
        inarow.VecEnv(
            2, rules=inarow.Rules(width=9, height=9, k=5, gravity=False), opponent="pretrained"
        )
    with pytest.raises(ValueError, match=r"'pretrained:x' is not an agent name"):
        inarow.VecEnv(2, opponent="pretrained:x")


class Boards:
    """An agent answering many boards at once, recording what it was given."""

    def __init__(self, answer=None, error=None):
        self.answer, self.error, self.seen = answer, error, []

    def actions(self, boards):
        self.seen.append([b.moves for b in boards])
        if self.error:
            raise self.error
        return self.answer(boards) if self.answer else [b.legal_moves()[0] for b in boards]


def test_an_agent_with_actions_gets_one_call_per_round_and_bad_answers_undo_the_step():
    agent = Boards()
    env = inarow.VecEnv(4, rules=TTT, seed=0, opponent=agent, agent_player=2)
    agent.seen.clear()
    env.reset()
    assert agent.seen == [[[], [], [], []]]  # the opening round: every env at once
    env.step([4, 4, 4, 4])
    assert agent.seen[-1] == [[0, 4]] * 4
    for bad, error in [
        (Boards(lambda bs: [1] * len(bs)), inarow.IllegalMoveError),  # the agent's cell
        (Boards(lambda bs: [1]), ValueError),  # one answer for four boards
    ]:
        env = inarow.VecEnv(4, rules=TTT, seed=0, opponent=bad, agent_player=1)
        env.reset()
        with pytest.raises(error, match="opponent policy"):
            env.step([1, 1, 1, 1])
        assert boards(env) == [[]] * 4
    # What the agent raises is its own: it passes unchanged, and the step is undone.
    boom = KeyError("boom")
    env = inarow.VecEnv(4, rules=TTT, seed=0, opponent=Boards(error=boom), agent_player=1)
    env.reset()
    with pytest.raises(KeyError) as raised:
        env.step([1, 1, 1, 1])
    assert raised.value is boom
    assert boards(env) == [[]] * 4


def test_a_missing_network_path_is_refused_at_construction():
    with pytest.raises(FileNotFoundError, match="nothere.npz"):
        inarow.VecEnv(2, opponent="nothere.npz")
    with pytest.raises(ValueError, match="network.npz path"):
        inarow.VecEnv(2, opponent="bogus")


@pytest.mark.parametrize(
    "name", ["perfect:0.5", "solver:2", "negamax", "negamax:3", "threats:nodes=50", "greedy"]
)
def test_vec_env_reads_every_built_in_agent_name_as_agents_named_does(name):
    # One grammar: VecEnv(opponent=...) refused "perfect:0.5", which named accepts.
    agent = inarow.agents.named(name, seed=0)
    env = inarow.VecEnv(4, rules=inarow.Rules.tic_tac_toe(), opponent=name, seed=0)
    env.reset(seed=0)
    env.step(env.random_actions())
    assert inarow.agents.Agent.named(name).name == agent.name


@pytest.mark.parametrize(
    "name", ["perfect:-1", "perfect:nan", "perfect:inf", "negamax:0", "random:1", "greedy:x"]
)
def test_bad_agent_names_are_refused_alike_everywhere(name):
    with pytest.raises(ValueError, match="is not an agent name"):
        inarow.agents.named(name)
    with pytest.raises(ValueError, match=f"opponent='{name}' is not a known opponent"):
        inarow.VecEnv(2, opponent=name)
    with pytest.raises(ValueError, match="perfect:T"):
        inarow.agents.Agent.named(name)
