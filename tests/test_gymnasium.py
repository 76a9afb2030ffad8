"""The Gymnasium adapters: checkers, rewards, seats, opponents, errors, vector env."""

from __future__ import annotations

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium", reason="gymnasium is not installed")

import inarow  # noqa: E402
from inarow._svg import PLAYER_COLORS  # noqa: E402
from inarow.gymnasium import (  # noqa: E402
    ENV_IDS,
    InARowEnv,
    InARowVectorEnv,
    ResetNeeded,
    render_rgb,
)


def scripted(actions):
    """An opponent policy playing `actions` in order."""
    it = iter(actions)
    return lambda board: next(it)


def egocentric(board: inarow.Board, seat: int) -> np.ndarray:
    cells = board.to_numpy()
    p = board.players
    return np.stack([(cells == (seat - 1 + j) % p + 1) for j in range(p)]).astype(np.uint8)


@pytest.mark.parametrize("env_id", sorted(ENV_IDS))
def test_check_env_on_every_registered_id(env_id):
    from gymnasium.utils.env_checker import check_env

    env = gym.make(env_id)
    check_env(env.unwrapped)  # includes both render modes, seeding and determinism
    env.close()


def test_check_env_generic_three_players_random_seat():
    from gymnasium.utils.env_checker import check_env

    env = gym.make(
        "inarow/KInARow-v0",
        rules=inarow.Rules(width=5, height=5, k=3, players=3, gravity=False),
        agent_player=1,
    )
    check_env(env.unwrapped)
    env = InARowEnv(inarow.Rules(5, 4, 3, players=3, gravity=True), agent_player="random")
    check_env(env, skip_render_check=True)


def test_registered_rules():
    for env_id, rules in [
        ("inarow/ConnectFour-v0", (7, 6, 4, 2, True)),
        ("inarow/TicTacToe-v0", (3, 3, 3, 2, False)),
        ("inarow/Gomoku-v0", (15, 15, 5, 2, False)),
    ]:
        env = gym.make(env_id).unwrapped
        obs, _ = env.reset(seed=0)
        b = env.board
        assert (b.width, b.height, b.k, b.players, b.gravity) == rules
        assert obs["observation"].shape == (2, rules[1], rules[0])
        assert env.action_space.n == (rules[0] if rules[4] else rules[0] * rules[1])


def test_win_loss_draw_rewards():
    # The agent stacks column 3 while the opponent plays column 0: agent wins.
    env = InARowEnv(opponent=scripted([0, 0, 0]))
    obs, info = env.reset(seed=0)
    assert info["agent_player"] == 1
    for i in range(3):
        obs, r, term, trunc, info = env.step(3)
        assert (r, term, trunc) == (0.0, False, False)
        assert obs["observation"][1, 5 - i, 0] == 1  # opponent disc, from agent's view
    obs, r, term, trunc, info = env.step(3)
    assert (r, term, trunc, info["winner"]) == (1.0, True, False, 1)
    assert obs["observation"][0, 2:, 3].all() and obs["observation"][0].sum() == 4
    assert obs["action_mask"].all()  # terminal: all ones, as in pgx
    assert info["outcome"] == "win" and not info["illegal_action"]
    # The opponent stacks column 0: agent loses.
    env = InARowEnv(opponent=scripted([0, 0, 0, 0]))
    env.reset(seed=0)
    rewards = [env.step(a)[1] for a in (6, 5, 6)]
    obs, r, term, _, info = env.step(5)
    assert rewards == [0, 0, 0] and (r, term, info["winner"]) == (-1.0, True, 2)
    assert info["outcome"] == "loss"
    assert obs["observation"][1, 2:, 0].all()  # the winner's line, plane 1 from agent's view
    # Tic-tac-toe draw: X 0 1 5 6 8 / O 2 3 4 7 ... agent X, opponent O
    env = InARowEnv(inarow.Rules(3, 3, 3, gravity=False), opponent=scripted([4, 2, 3, 7]))
    env.reset(seed=0)
    out = [env.step(a) for a in (0, 6, 5, 1, 8)]
    assert [o[1] for o in out] == [0.0] * 5
    assert [o[2] for o in out] == [False] * 4 + [True]
    assert out[-1][4]["winner"] == 0 and out[-1][4]["outcome"] == "draw"
    assert [o[4]["outcome"] for o in out[:-1]] == ["running"] * 4


def test_second_seat_observation_is_egocentric():
    env = InARowEnv(agent_player=2, opponent=scripted([3, 3, 2]))
    obs, info = env.reset(seed=0)
    assert info["agent_player"] == 2 and env.seat == 2
    assert obs["observation"][1, 5, 3] == 1 and obs["observation"].sum() == 1
    obs, *_ = env.step(4)
    np.testing.assert_array_equal(obs["observation"], egocentric(env.board, 2))
    np.testing.assert_array_equal(obs["action_mask"], env.board.legal_mask().astype(np.int8))
    assert obs["action_mask"].dtype == np.int8


def test_random_seat_uses_both_seats_and_is_seeded():
    env = InARowEnv(agent_player="random")
    seats = {env.reset(seed=s)[1]["agent_player"] for s in range(20)}
    assert seats == {1, 2}
    a = [env.reset(seed=7)[1]["agent_player"] for _ in range(1)]
    b = [env.reset(seed=7)[1]["agent_player"] for _ in range(1)]
    assert a == b


def test_reset_needed_before_reset_and_after_end():
    assert issubclass(ResetNeeded, gym.error.ResetNeeded)
    assert issubclass(ResetNeeded, RuntimeError)
    env = InARowEnv(opponent=scripted([0, 0, 0, 0]))
    with pytest.raises(ResetNeeded, match="before reset"):
        env.step(0)
    env.reset(seed=0)
    for _ in range(4):
        env.step(3)
    with pytest.raises(ResetNeeded, match="ended"):
        env.step(1)
    env.reset(seed=0)  # a reset makes it usable again
    assert env.step(1)[2] is False


@pytest.mark.parametrize("mode", ["raise", "loss"])
def test_actions_outside_the_action_space_raise_in_every_mode(mode):
    env = InARowEnv(
        inarow.Rules(3, 3, 3, gravity=False), opponent=scripted([4, 2]), illegal_action=mode
    )
    env.reset(seed=0)
    env.step(0)
    before = env.board
    for bad in (9, -1, 2**70):
        with pytest.raises(inarow.IllegalMoveError, match="out of range"):
            env.step(bad)
    for bad in (1.5, None, float("nan"), True, "3"):
        with pytest.raises(TypeError):
            env.step(bad)
    assert env.board == before and env.board.moves == before.moves
    assert env.step(np.int64(8))[2] is False  # numpy integers are fine


def test_illegal_action_raise_leaves_state_unchanged():
    env = InARowEnv(
        inarow.Rules(3, 3, 3, gravity=False), opponent=scripted([4, 2]), illegal_action="raise"
    )
    env.reset(seed=0)
    env.step(0)
    before = env.board
    for bad in (0, 4, np.int64(4)):
        with pytest.raises(inarow.IllegalMoveError, match="occupied"):
            env.step(bad)
    assert env.board == before and env.board.moves == before.moves
    assert env.step(8)[2] is False


@pytest.mark.parametrize("players", [2, 3])
def test_illegal_action_loss_is_the_default(players):
    env = InARowEnv(
        inarow.Rules(3, 3, 3, players=players, gravity=False), opponent=scripted([4, 2, 5, 6])
    )
    assert env.illegal_action == "loss"
    env.reset(seed=0)
    env.step(0)  # the opponent(s) answer 4 (and 2)
    before = env.board
    obs, r, term, trunc, info = env.step(4)  # occupied
    assert (r, term, trunc) == (-1.0, True, False)
    assert info == {
        "agent_player": 1,
        "winner": 2 if players == 2 else 0,  # two players: the opponent wins by forfeit
        "illegal_action": True,
        "outcome": "illegal_action",
    }
    assert env.board == before  # the illegal stone is not placed
    np.testing.assert_array_equal(obs["observation"], egocentric(before, 1))
    assert obs["action_mask"].all() and env.action_masks().all()
    with pytest.raises(ResetNeeded, match="ended"):
        env.step(1)
    env.reset(seed=0)  # usable again
    assert env.step(1)[4]["outcome"] == "running"


def test_illegal_reward_and_seat_two():
    env = InARowEnv(
        inarow.Rules(4, 2, 3), agent_player=2, opponent=scripted([0, 1]), illegal_reward=-5
    )
    env.reset(seed=0)  # the opponent plays 0
    env.step(0)  # column 0 is now full; the opponent plays 1
    obs, r, term, trunc, info = env.step(0)
    assert (r, term, info["winner"], info["agent_player"]) == (-5.0, True, 1, 2)
    assert info["illegal_action"] and info["outcome"] == "illegal_action"


def test_illegal_action_mode_is_checked():
    for bad in ("ignore", "penalty", None, 1):
        with pytest.raises(ValueError, match="illegal_action .* allowed 'loss'"):
            InARowEnv(illegal_action=bad)


def test_solver_opponent_is_perfect_and_rules_checked():
    # 4x4 k=3 with gravity is a first-player win: the solver as player 1 never loses.
    env = InARowEnv(inarow.Rules(4, 4, 3), opponent="solver", agent_player=2)
    for seed in range(5):
        obs, _ = env.reset(seed=seed)
        term, r = False, 0.0
        while not term:
            legal = np.flatnonzero(obs["action_mask"])
            obs, r, term, _, _ = env.step(int(env.np_random.choice(legal)))
        assert r == -1.0
    with pytest.raises(inarow.UnsupportedRulesError):
        InARowEnv(inarow.Rules(15, 15, 5, gravity=False), opponent="solver")
    with pytest.raises(inarow.UnsupportedRulesError):
        InARowEnv(inarow.Rules(5, 5, 3, players=3), opponent="solver")


def test_callable_opponent_gets_a_copy_and_illegal_reply_is_reported():
    seen = []

    def policy(board):
        seen.append(board)
        board.move(board.legal_moves()[0])  # mutating the copy must not matter
        return 0

    env = InARowEnv(opponent=policy)
    env.reset(seed=0)
    env.step(3)
    assert env.board.moves == [3, 0]
    env = InARowEnv(inarow.Rules(3, 3, 3, gravity=False), opponent=lambda b: 4)
    env.reset(seed=0)
    with pytest.raises(inarow.IllegalMoveError, match="opponent"):
        env.step(4)  # the opponent then answers 4 (occupied)
    with pytest.raises(ValueError, match="opponent"):
        InARowEnv(opponent="minimax")


def test_three_players_random_opponents():
    env = InARowEnv(inarow.Rules(6, 6, 3, players=3, gravity=False), agent_player=2)
    rewards = set()
    for seed in range(10):
        obs, info = env.reset(seed=seed)
        assert obs["observation"].shape == (3, 6, 6)
        term = False
        while not term:
            np.testing.assert_array_equal(obs["observation"], egocentric(env.board, 2))
            assert env.board.current_player == 2
            a = int(env.np_random.choice(np.flatnonzero(obs["action_mask"])))
            obs, r, term, _, info = env.step(a)
        b = env.board
        assert r == (0.0 if b.winner is None else (1.0 if b.winner == 2 else -1.0))
        np.testing.assert_array_equal(obs["observation"], egocentric(b, 2))
        rewards.add(r)
    assert rewards <= {-1.0, 0.0, 1.0} and -1.0 in rewards


@pytest.mark.parametrize("opponent", ["random", "negamax:2", "python"])
def test_a_pickled_env_continues_exactly_like_the_original(opponent):
    """Mid-game, after an illegal-action loss and before any reset: the copy's
    future (opponent replies from the env's streams, observations, rewards) is the
    original's."""
    import pickle

    from gymnasium.utils.env_checker import data_equivalence

    rng = np.random.default_rng(0)
    chosen = first_legal_reply if opponent == "python" else opponent
    env = InARowEnv(inarow.Rules(5, 4, 3, gravity=False), opponent=chosen, agent_player="random")
    assert pickle.loads(pickle.dumps(env)).board is None
    env.reset(seed=3)

    def play(e, actions):
        out = []
        for a in actions:
            if e._done:
                out.append(e.reset())
            else:
                out.append(e.step(int(a)))
        return out

    for _ in range(4):
        actions = rng.integers(0, 20, size=12)  # some illegal: a loss, then a reset
        play(env, actions[:5])
        clone = pickle.loads(pickle.dumps(env))
        assert clone.board == env.board and clone.seat == env.seat
        np.testing.assert_array_equal(clone.action_masks(), env.action_masks())
        for mine, theirs in zip(play(env, actions[5:]), play(clone, actions[5:])):
            assert data_equivalence(mine, theirs, exact=True)


def first_legal_reply(board):
    return board.legal_moves()[0]


def test_render_modes():
    env = InARowEnv(render_mode="ansi", opponent=scripted([0, 0, 0]))
    env.reset(seed=0)
    env.step(3)
    text = env.render()
    assert str(env.board) in text and "player 1 to move" in text
    env = InARowEnv(render_mode="rgb_array", opponent=scripted([0, 0, 0]))
    env.reset(seed=0)
    for _ in range(4):
        env.step(3)
    img = env.render()
    assert img.shape == (6 * 32, 7 * 32, 3) and img.dtype == np.uint8
    # centre of the bottom-left cell is an opponent (player 2) disc
    assert tuple(img[5 * 32 + 16, 16]) == PLAYER_COLORS[1]
    assert tuple(img[2 * 32 + 16, 3 * 32 + 16]) == PLAYER_COLORS[0]
    np.testing.assert_array_equal(img, render_rgb(env.board))
    with pytest.raises(ValueError, match="render_mode"):
        InARowEnv(render_mode="human")


# ----------------------------------------------------------------------------- vector


def test_make_vec_vector_entry_point():
    env = gym.make_vec("inarow/TicTacToe-v0", num_envs=3, vectorization_mode="vector_entry_point")
    assert isinstance(env.unwrapped, InARowVectorEnv)
    assert env.metadata["autoreset_mode"] == gym.vector.AutoresetMode.NEXT_STEP
    assert env.num_envs == 3
    assert env.single_action_space == gym.spaces.Discrete(9)
    assert env.action_space.shape == (3,)
    obs, info = env.reset(seed=0)
    assert obs in env.observation_space
    env = gym.make_vec(
        "inarow/KInARow-v0",
        num_envs=2,
        vectorization_mode="vector_entry_point",
        rules=inarow.Rules(width=5, height=5, k=4, players=3, gravity=False),
        autoreset_mode="same_step",
    )
    assert env.metadata["autoreset_mode"] == gym.vector.AutoresetMode.SAME_STEP
    assert env.single_observation_space["observation"].shape == (3, 5, 5)


def _play_vector(mode: str, steps: int = 120):
    env = InARowVectorEnv(4, inarow.Rules(4, 4, 3, 2, True), autoreset_mode=mode, seed=3)
    boards = [inarow.Board(inarow.Rules(4, 4, 3)) for _ in range(4)]
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=3)
    pending = [False] * 4
    episodes = 0
    for _ in range(steps):
        assert obs in env.observation_space
        for i, b in enumerate(boards):
            if not pending[i]:
                np.testing.assert_array_equal(obs["observation"][i], b.observation())
                np.testing.assert_array_equal(obs["action_mask"][i], b.legal_mask())
        actions = np.array(
            [rng.choice(b.legal_moves()) if not pending[i] else 99 for i, b in enumerate(boards)]
        )
        obs, rew, term, trunc, info = env.step(actions)
        assert not trunc.any()
        for i, b in enumerate(boards):
            if pending[i]:  # next_step: this step was the reset
                assert not term[i] and rew[i] == 0
                boards[i] = inarow.Board(inarow.Rules(4, 4, 3))
                pending[i] = False
                continue
            won = b.move(int(actions[i]))
            assert rew[i] == (1.0 if won else 0.0)
            assert term[i] == b.is_over
            if b.is_over:
                episodes += 1
                expect = np.full(2, -1.0 if b.winner else 0.0, dtype=np.float32)
                if b.winner:
                    expect[b.winner - 1] = 1.0
                np.testing.assert_array_equal(info["player_rewards"][i], expect)
                assert info["winner"][i] == (b.winner or 0)
                if mode == "same_step":
                    assert info["_final_obs"][i]
                    final = info["final_obs"][i]["observation"]
                    np.testing.assert_array_equal(final, b.observation())
                    boards[i] = inarow.Board(inarow.Rules(4, 4, 3))
                else:
                    pending[i] = True
            elif mode == "same_step":
                # As Gymnasium's vector envs: the keys only on a step where an env ended.
                assert not info.get("_final_obs", np.zeros(len(boards), dtype=bool))[i]
    assert episodes > 5


def test_vector_env_illegal_actions_lose_by_default_as_the_single_env():
    env = InARowVectorEnv(2, seed=0)
    single = InARowEnv()
    assert single.illegal_action == "loss" and env.native.illegal_action == "loss"
    env.reset(seed=0)
    for _ in range(6):
        env.step(np.array([0, 0]))
    assert env.board(0).moves == [0] * 6 == env.board(1).moves
    _, rewards, terminated, _, info = env.step(np.array([0, 0]))  # column 0 is full in both
    assert list(info["illegal_action"]) == [True, True] and info["_illegal_action"].all()
    assert list(rewards) == [-1.0, -1.0] and terminated.all()
    assert list(info["winner"]) == [2, 2]  # player 1 moved: player 2 wins by forfeit
    np.testing.assert_array_equal(info["player_rewards"], [[-1.0, 1.0], [-1.0, 1.0]])
    # A step with no illegal action: the other envs step as usual.
    env.reset(seed=0)
    _, rewards, terminated, _, info = env.step(np.array([3, 4]))
    assert not info["illegal_action"].any() and not terminated.any()
    with pytest.raises(ValueError, match="illegal_action"):
        InARowVectorEnv(2, illegal_action="ignore")


@pytest.mark.parametrize("via_make_vec", [False, True])
def test_vector_env_takes_rules(via_make_vec):
    rules = inarow.Rules.tic_tac_toe()
    if via_make_vec:
        env = gym.make_vec(
            "inarow/KInARow-v0", num_envs=3, vectorization_mode="vector_entry_point", rules=rules
        )
        same = gym.make_vec(
            "inarow/TicTacToe-v0", num_envs=3, vectorization_mode="vector_entry_point", rules=rules
        )
        assert same.unwrapped.native.rules == rules
        # The given rules replace the id's own, as any keyword of gymnasium.make does.
        other = gym.make_vec(
            "inarow/ConnectFour-v0",
            num_envs=3,
            vectorization_mode="vector_entry_point",
            rules=rules,
        )
        assert other.unwrapped.native.rules == rules
    else:
        env = InARowVectorEnv(3, rules=rules)
        with pytest.raises(TypeError, match="unexpected keyword argument"):
            InARowVectorEnv(3, width=7)  # refused keyword
    assert env.unwrapped.rules == rules == env.unwrapped.native.rules
    assert env.single_observation_space["observation"].shape == (2, 3, 3)
    assert env.single_action_space.n == 9
    obs, _ = env.reset(seed=0)
    assert obs["observation"].shape == (3, 2, 3, 3)


def test_vector_env_matches_boards_next_step():
    _play_vector("next_step")


def test_vector_env_matches_boards_same_step():
    _play_vector("same_step")


def test_vector_env_errors_and_copies():
    env = InARowVectorEnv(2, seed=0, illegal_action="raise")
    with pytest.raises(ResetNeeded):
        env.step(np.zeros(2, dtype=np.int64))
    obs, _ = env.reset(seed=0)
    first = obs["observation"]
    obs2, *_ = env.step(np.array([3, 3]))
    assert first.sum() == 0 and obs2["observation"].sum() == 2  # copies are not overwritten
    for i in range(6):
        env.step(np.array([0, 1 + i % 2]))
    with pytest.raises(inarow.IllegalMoveError):
        env.step(np.array([0, 4]))  # column 0 is full in env 0 ...
    assert env.board(1).moves == [3, 1, 2, 1, 2, 1, 2]  # ... and env 1 did not move
    with pytest.raises(ValueError, match="autoreset_mode"):
        InARowVectorEnv(2, autoreset_mode="never")
    vs = gym.make_vec(
        "inarow/ConnectFour-v0",
        num_envs=2,
        vectorization_mode="vector_entry_point",
        opponent="solver",
    )
    assert vs.unwrapped.native.opponent == "perfect"
    with pytest.raises(ValueError, match="illegal_reward"):
        gym.make_vec(
            "inarow/ConnectFour-v0",
            num_envs=2,
            vectorization_mode="vector_entry_point",
            illegal_reward=-5,
        )
