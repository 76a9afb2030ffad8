"""`inarow.sb3.InARowVecEnv` as Stable-Baselines3 uses it: every VecEnv method,
terminal observations, masks for MaskablePPO, and PPO / MaskablePPO runs that must
learn (the win rate against random rises, measured before and after). Needs
stable-baselines3 and sb3-contrib (the ``ecosystems`` extra); marker ``ecosystem``."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("stable_baselines3", reason="stable-baselines3 is not installed")
pytestmark = pytest.mark.ecosystem

import torch  # noqa: E402
from stable_baselines3 import PPO  # noqa: E402
from stable_baselines3.common.vec_env import VecMonitor  # noqa: E402

import inarow  # noqa: E402
from inarow.sb3 import InARowVecEnv, PolicyOpponent, win_rate  # noqa: E402

TTT = inarow.Rules.tic_tac_toe()


@pytest.fixture(autouse=True)
def one_torch_thread():
    """Torch's default thread pool fights the other processes of a loaded machine
    (here a 2-core one: 60x slower); the runs are tiny, one thread is fastest."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def test_steps_terminal_observations_and_infos():
    env = InARowVecEnv(8, rules=TTT, opponent="greedy", agent_player="random", seed=0)
    obs = env.reset()
    assert env.observation_space.contains({k: v[0] for k, v in obs.items()})
    finished = 0
    for _ in range(40):
        masks = env.action_masks()
        np.testing.assert_array_equal(masks, obs["action_mask"].astype(bool))
        env.step_async(np.array([np.flatnonzero(m)[0] for m in masks]))
        obs, rewards, dones, infos = env.step_wait()
        assert rewards.dtype == np.float32 and dones.dtype == bool and len(infos) == 8
        for i, info in enumerate(infos):
            assert info["agent_player"] in (1, 2)
            if dones[i]:
                finished += 1
                final = info["terminal_observation"]
                assert final["action_mask"].all() and final["observation"].shape == (2, 3, 3)
                winner, seat = info["winner"], info["agent_player"]
                assert rewards[i] == (0 if winner == 0 else 1 if winner == seat else -1)
                # the new episode starts at once: the agent to move, the opponent's opening played
                board = env.board(i)
                assert len(board.moves) == board.current_player - 1 and not board.is_over
            else:
                assert "terminal_observation" not in info and rewards[i] == 0
    assert finished > 8


def test_rules_come_as_one_rules_value():
    by_keyword = InARowVecEnv(4, rules=inarow.Rules.tic_tac_toe(), opponent="random", seed=1)
    by_position = InARowVecEnv(4, inarow.Rules.tic_tac_toe(), opponent="random", seed=1)
    assert by_keyword.native.rules == by_position.native.rules == inarow.Rules.tic_tac_toe()
    assert InARowVecEnv(2).native.rules == inarow.Rules.connect_four()
    with pytest.raises(TypeError, match="unexpected keyword argument"):
        InARowVecEnv(2, width=5)  # refused keyword


def test_vec_env_methods_are_honest():
    env = InARowVecEnv(4, seed=0)
    env.reset()
    rows = env.env_method("action_masks")
    assert len(rows) == 4 and rows[0].shape == (7,) and rows[0].dtype == bool
    assert len(env.env_method("action_masks", indices=[1, 3])) == 2
    assert [b.moves for b in env.env_method("board", indices=2)] == [[]]
    assert env.has_attr("action_masks") and not env.has_attr("no_such_thing")
    assert env.get_attr("render_mode") == [None] * 4
    assert env.env_is_wrapped(VecMonitor) == [False] * 4
    with pytest.raises(AttributeError, match="action_masks"):
        env.env_method("render_board")
    with pytest.raises(ValueError, match="share"):
        env.set_attr("render_mode", None, indices=[0])
    env.set_attr("render_mode", None)
    with pytest.raises(IndexError):
        env.get_attr("render_mode", indices=[7])
    with pytest.raises(RuntimeError):
        env.step_wait()
    env.set_options({"reset_mask": [True] * 4})
    with pytest.raises(ValueError, match="options"):
        env.reset()
    env.close()


def test_seed_applies_at_the_next_reset():
    def episode_starts(seed):
        env = InARowVecEnv(16, opponent="random", agent_player=2, seed=99)
        env.seed(seed)
        return env.reset()["observation"].copy()

    np.testing.assert_array_equal(episode_starts(5), episode_starts(5))
    assert not np.array_equal(episode_starts(5), episode_starts(6))


def test_maskable_ppo_reads_the_masks():
    sb3_contrib = pytest.importorskip("sb3_contrib", reason="sb3-contrib is not installed")
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    env = InARowVecEnv(4, rules=TTT, seed=0)
    assert is_masking_supported(env)
    env.reset()
    for _ in range(3):
        env.step(np.array([0, 1, 2, 3]))
    masks = get_action_masks(env)
    assert masks.shape == (4, 9) and masks.dtype == bool
    np.testing.assert_array_equal(masks, np.stack([env.board(i).legal_mask() for i in range(4)]))
    model = sb3_contrib.MaskablePPO("MultiInputPolicy", env, n_steps=32, seed=0, device="cpu")
    model.learn(128)


def test_a_model_is_an_agent_for_match_and_play():
    sb3_contrib = pytest.importorskip("sb3_contrib", reason="sb3-contrib is not installed")
    from inarow.sb3 import agent

    env = InARowVecEnv(4, rules=TTT, opponent="random", seed=0)
    model = sb3_contrib.MaskablePPO("MultiInputPolicy", env, n_steps=32, seed=0, device="cpu")
    model.learn(64)
    player = agent(model)
    board = inarow.Board.from_moves([4, 0], rules=inarow.Rules.tic_tac_toe())
    assert board.legal_mask()[player(board)]  # masked: always a legal move
    r = inarow.evaluate.match(player, "random", games=20, rules="tic_tac_toe")
    assert r.games == 20
    # The same planes and mask the env showed the model give the same action.
    obs = env.reset()
    b0 = env.board(0)
    expected, _ = model.predict(
        {k: v[:1] for k, v in obs.items()}, deterministic=True, action_masks=env.action_masks()[:1]
    )
    assert player(b0) == int(expected[0])


def train(cls, seed, steps=20_000):
    env = InARowVecEnv(16, rules=TTT, opponent="random", agent_player="random", seed=seed)
    model = cls(
        "MultiInputPolicy",
        env,
        n_steps=64,
        batch_size=256,
        n_epochs=4,
        learning_rate=1e-3,
        seed=seed,
        device="cpu",
    )

    def measure():
        # Against a random opponent every game differs: scored from the start position.
        env = InARowVecEnv(100, rules=TTT, agent_player="random", seed=100)
        return win_rate(model, env, 1000, opening_plies=0)

    before = measure()
    model.learn(steps)
    return before, measure()


def test_ppo_learns_to_beat_random():
    """Unmasked PPO starts by losing nearly every game (mostly on illegal moves) and
    wins over 80% after 20k steps (4 seeds: 0.82-0.87); the bounds leave a wide margin."""
    before, after = train(PPO, seed=0)
    assert before["wins"] < 0.2
    assert after["wins"] > 0.65 and after["wins"] - before["wins"] > 0.4
    assert after["illegal"] < 0.2


def test_maskable_ppo_learns_to_beat_random():
    """Masked, the untrained policy is a random player (wins 0.40-0.50, 4 seeds); after
    20k steps it wins 0.81-0.82 and never plays an illegal move."""
    sb3_contrib = pytest.importorskip("sb3_contrib", reason="sb3-contrib is not installed")
    before, after = train(sb3_contrib.MaskablePPO, seed=1)
    assert before["illegal"] == 0 and after["illegal"] == 0
    assert after["wins"] > 0.7 and after["wins"] - before["wins"] > 0.2


def test_self_play_against_the_learning_policy():
    opponent = PolicyOpponent(seed=0)
    env = VecMonitor(InARowVecEnv(8, rules=TTT, opponent=opponent, agent_player="random", seed=0))
    model = PPO("MultiInputPolicy", env, n_steps=32, seed=0, device="cpu")
    opponent.model = model
    model.learn(512)
    assert len(model.ep_info_buffer) > 10
    assert all(ep["r"] in (-1.0, 0.0, 1.0) for ep in model.ep_info_buffer)
    # The learning model's own moves as the opponent: legal under any mask.
    masks = np.array([[1, 0, 0, 1, 0, 0, 0, 0, 1]] * 64, dtype=bool)
    actions = opponent(np.zeros((64, 2, 3, 3), np.uint8), masks)
    assert masks[np.arange(64), actions].all() and len(set(actions)) > 1


def test_policy_opponent_returns_legal_actions():
    opponent = PolicyOpponent(seed=0)
    mask = np.array([[0, 1, 0], [1, 0, 1]], dtype=bool)
    for _ in range(20):
        a = opponent(np.zeros((2, 2, 1, 3), np.uint8), mask)
        assert mask[0, a[0]] and mask[1, a[1]]
    assert isinstance(inarow.VecEnv(2, opponent=opponent).opponent, PolicyOpponent)


class LowestLegal:
    """A deterministic stand-in for a model: the lowest legal action."""

    def predict(self, obs, deterministic=True):
        return np.argmax(obs["action_mask"] > 0, axis=1), None


def test_win_rate_opens_games_at_random_unless_asked_not_to():
    class Recording(InARowVecEnv):
        first_moves: list[int] = []

        def step(self, actions):
            empty = self.native.legal_mask().all(axis=1)
            self.first_moves.extend(np.asarray(actions)[empty].tolist())
            return super().step(actions)

    def first_moves(plies):
        env = Recording(8, TTT, opponent="negamax:2", agent_player=1, seed=0)
        env.first_moves = []
        shares = win_rate(LowestLegal(), env, 64, opening_plies=plies, seed=5)
        assert sum(shares[k] for k in ("wins", "draws", "losses")) == pytest.approx(1.0)
        return env.first_moves

    assert set(first_moves(0)) == {0}
    assert len(set(first_moves(2))) > 3
    with pytest.raises(ValueError, match="opening_plies"):
        win_rate(LowestLegal(), InARowVecEnv(2, rules=TTT), 4, opening_plies=-1)


def test_win_rate_shows_a_bar_of_the_episodes(capsys):
    pytest.importorskip("tqdm")
    shares = win_rate(LowestLegal(), InARowVecEnv(4, rules=TTT, seed=0), 12, progress=True)
    assert sum(shares[k] for k in ("wins", "draws", "losses")) == pytest.approx(1.0)
    assert "12/12" in capsys.readouterr().err
