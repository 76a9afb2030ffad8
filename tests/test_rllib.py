"""The RLlib adapter: RLlib's own multi-agent env check, episode semantics, and the
self-play example (2 env runners, one PPO iteration; needs torch).

Deselect with ``-k "not rllib"``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("ray.rllib", reason="ray[rllib] is not installed: skipping the RLlib adapter")
pytestmark = pytest.mark.rllib

from ray.rllib.env.multi_agent_env import MultiAgentEnv  # noqa: E402

import inarow  # noqa: E402
from inarow.rllib import InARowMultiAgentEnv, register  # noqa: E402

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "rllib_selfplay.py"


def test_rllib_env_check_and_registration():
    from ray.rllib.utils.pre_checks.env import check_multiagent_environments
    from ray.tune.registry import ENV_CREATOR, _global_registry

    for cfg in ({}, {"observation": "dict", "rules": inarow.Rules(5, 5, 3, players=3)}):
        env = InARowMultiAgentEnv(cfg)
        assert isinstance(env, MultiAgentEnv)
        check_multiagent_environments(env)
    assert register() == "inarow"
    creator = _global_registry.get(ENV_CREATOR, "inarow")
    env = creator({"rules": inarow.Rules(4, 4, 3)})
    assert isinstance(env, InARowMultiAgentEnv) and env.board.width == 4


def test_rllib_only_mover_observes_and_rewards_at_end():
    env = InARowMultiAgentEnv({"rules": inarow.Rules(5, 5, 3, players=3, gravity=False)})
    assert env.possible_agents == ["player_1", "player_2", "player_3"]
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    turn = 0
    while True:
        (agent,) = obs  # exactly one agent observes while the game runs
        assert agent == f"player_{turn % 3 + 1}"
        planes = obs[agent].reshape(3, 5, 5)
        np.testing.assert_array_equal(planes, env.board.observation("float32"))
        action = int(rng.choice(env.board.legal_moves()))
        obs, rew, term, trunc, info = env.step({agent: action})
        turn += 1
        if term["__all__"]:
            break
        assert rew == {} and not trunc["__all__"]
    b = env.board
    assert set(obs) == set(rew) == set(env.possible_agents)
    if b.winner:
        assert rew[f"player_{b.winner}"] == 1.0 and sum(rew.values()) == -1.0
    else:
        assert set(rew.values()) == {0.0}
    # the winner's own view: plane 0 holds its stones
    if b.winner:
        mine = obs[f"player_{b.winner}"].reshape(3, 5, 5)[0]
        np.testing.assert_array_equal(mine, (b.to_numpy() == b.winner).astype(np.float32))


def test_rllib_illegal_action_loss_is_the_default():
    env = InARowMultiAgentEnv({"rules": inarow.Rules(4, 2, 3)})
    assert env.illegal_action == "loss"
    env.reset()
    env.step({"player_1": 0})
    env.step({"player_2": 0})
    before = env.board.copy()
    obs, rew, term, _, info = env.step({"player_1": np.int64(0)})  # column 0 is full
    assert term["__all__"] and rew == {"player_1": -1.0, "player_2": 0.0}
    assert info["player_1"]["illegal_action"] is True
    assert env.board == before and set(obs) == {"player_1", "player_2"}
    with pytest.raises(inarow.IllegalMoveError, match="game is over"):
        env.step({"player_1": 1})  # the game ended: no further moves
    env.reset()
    env.step({"player_1": 1})


@pytest.mark.parametrize("mode", ["raise", "loss"])
def test_rllib_actions_outside_the_action_space_raise(mode):
    env = InARowMultiAgentEnv({"rules": inarow.Rules(4, 2, 3), "illegal_action": mode})
    env.reset()
    with pytest.raises(inarow.IllegalMoveError, match="player_1.*out of range"):
        env.step({"player_1": 7})
    with pytest.raises(TypeError, match="player_1"):
        env.step({"player_1": 1.5})
    assert env.board.moves == []
    if mode == "raise":
        env.step({"player_1": 0})
        env.step({"player_2": 0})
        with pytest.raises(inarow.IllegalMoveError, match="full"):
            env.step({"player_1": 0})
        assert env.board.moves == [0, 0]
    for bad in ("penalty", "ignore"):
        with pytest.raises(ValueError, match="illegal_action .* allowed 'loss'"):
            InARowMultiAgentEnv({"illegal_action": bad})
    with pytest.raises(ValueError, match="unknown env_config"):
        InARowMultiAgentEnv({"widht": 4})
    with pytest.raises(ValueError, match="unknown env_config keys: \\['width'\\]"):
        InARowMultiAgentEnv({"width": 4})  # the rules come whole, as "rules"


def test_rllib_selfplay_example_runs():
    pytest.importorskip("torch", reason="the RLlib self-play example needs torch (PPO)")
    r = subprocess.run([sys.executable, str(EXAMPLE)], capture_output=True, text=True, timeout=240)
    assert r.returncode == 0, r.stderr[-3000:]
    lines = dict(line.split(": ", 1) for line in r.stdout.splitlines() if ": " in line)
    assert lines["mode"] == "ppo"
    assert int(lines["env steps"]) >= 200 and int(lines["episodes"]) > 0
