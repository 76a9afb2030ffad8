"""Ray RLlib adapter (new API stack; needs the ``ray`` extra; without it, importing
this module raises `inarow.MissingExtraError` with the command that installs it).

`InARowMultiAgentEnv` is a ``ray.rllib.env.multi_agent_env.MultiAgentEnv`` with
agents ``"player_1" .. "player_p"`` (inarow's player numbers). Each step only the
agent to move receives an observation; rewards arrive once, at the end, for every
agent: its entry of `inarow.Board.returns` (+1 winner, -1 the others, 0 each on a
draw). With an opponent the one agent observes after each of its moves, and each
such observation comes with a reward of 0 (RLlib's episodes require a reward with
the observation that follows an action).

``env_config`` keys: ``rules`` (an `inarow.Rules`; Connect Four by default);
``opponent`` (any opponent of
`inarow.opponents`: "random", "solver", an agent, a list of them or a curriculum,
drawn per episode from the generator ``reset(seed=...)`` seeds) with
``agent_player`` (1..players, default 1): the env then has the one agent
``"player_{agent_player}"`` and the opponent plays every other seat inside ``reset``
and ``step``, all-or-nothing as in `inarow.gymnasium.InARowEnv`; ``observation``: "flat" (default: float32 egocentric planes flattened to
``(players*height*width,)``, which RLlib's default models take) or "dict"
(``{"observations": float32 (players, h, w), "action_mask": float32 (A,)}``, the
layout of RLlib's action-masking RLModule example); ``illegal_action`` for an
action of the action space the rules forbid now: "loss" (default, the convention
of the Gymnasium and PettingZoo adapters, pgx and PettingZoo classic: the game
ends, the offender gets ``illegal_reward`` = -1, the others 0,
``infos[agent]["illegal_action"]`` is True) or "raise" (`inarow.IllegalMoveError`,
state unchanged). In both modes an action outside the action space raises
(``TypeError`` for a non-integer, `inarow.IllegalMoveError` out of range).

Seeds: ``reset(seed=s)`` seeds the env's generator (the opponents' choices and
moves) with ``s``; on RLlib's remote env runners with a seed drawn from ``s`` and
the runner's ``worker_index`` (see `runner_seed`), so that no two envs of a run
share a seed.

``register()`` registers the env under the name ``"inarow"`` with
``ray.tune.registry.register_env``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from inarow._extras import missing

try:
    from gymnasium import spaces
    from ray.rllib.env.multi_agent_env import MultiAgentEnv
except ImportError as e:
    raise missing("ray", "inarow.rllib", e) from e

import inarow
from inarow._adapt import check_illegal_action_mode, in_action_space
from inarow._episode import NativeEpisode
from inarow.opponents import OpponentSeats, check_agent_player

__all__ = ["ENV_NAME", "InARowMultiAgentEnv", "register", "runner_seed"]

ENV_NAME = "inarow"

#: RLlib's agent id of each player number (1-based; at most 16 players).
_AGENT_NAMES = [f"player_{p}" for p in range(17)]


class InARowMultiAgentEnv(MultiAgentEnv):
    """A k-in-a-row game for RLlib; see the module docs for ``config``."""

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        super().__init__()
        cfg = dict(config or {})
        rules = cfg.pop("rules", None)
        self.observation_mode = cfg.pop("observation", "flat")
        self.illegal_action = check_illegal_action_mode(cfg.pop("illegal_action", "loss"))
        self.illegal_reward = float(cfg.pop("illegal_reward", -1.0))
        opponent = cfg.pop("opponent", None)
        agent_player = cfg.pop("agent_player", 1)
        if self.observation_mode not in ("flat", "dict"):
            raise ValueError(
                f"observation {self.observation_mode!r} is not supported: allowed 'flat', 'dict'"
            )
        # RLlib passes an EnvContext (a dict with worker_index etc. as attributes);
        # any other key is a mistake.
        self.worker_index = int(getattr(config, "worker_index", 0) or 0)
        if cfg:
            raise ValueError(f"unknown env_config keys: {sorted(cfg)}")
        self._empty = inarow.Board(rules)
        self.rules = r = self._empty.rules
        self._opponents: OpponentSeats | None = None
        if opponent is None:
            self._learners = list(range(1, r.players + 1))
        else:
            self._learners = [check_agent_player(agent_player, r)]
            self._opponents = OpponentSeats(opponent, r, self._learners)
        self.agents = self.possible_agents = [self._agent(p) for p in self._learners]
        shape = (r.players, r.height, r.width)
        n = r.num_actions
        if self.observation_mode == "flat":
            obs_space: spaces.Space = spaces.Box(0.0, 1.0, (int(np.prod(shape)),), np.float32)
        else:
            obs_space = spaces.Dict(
                {
                    "observations": spaces.Box(0.0, 1.0, shape, np.float32),
                    "action_mask": spaces.Box(0.0, 1.0, (n,), np.float32),
                }
            )
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        seat = self._learners[0] if self._opponents is not None else None
        self._seat = seat
        self._episode = NativeEpisode(
            self, r, self._opponents, self.illegal_action, obs_dtype="float32"
        )
        # The native view of the player to move: its number, planes and legal mask
        # (the native env's own buffers, valid until its next call).
        self._view: tuple[int, np.ndarray, np.ndarray] | None = None
        self._over = False

    @property
    def board(self) -> inarow.Board:
        """The current position (read it; a copy made once per move)."""
        position = self._episode.position
        return self._empty.copy() if position is None else position

    def _agent(self, player: int) -> str:
        return _AGENT_NAMES[player]

    def _obs(self, player: int) -> Any:
        b = self.board
        planes = b.observation("float32", player=player)
        if self.observation_mode == "flat":
            return planes.reshape(-1)
        mask = b.legal_mask().astype(np.float32)
        return {"observations": planes, "action_mask": mask}

    def _next(self, obs: np.ndarray, info: dict[str, Any]) -> dict[str, Any]:
        """The observation of the player to move, from the native step's outputs."""
        mover = int(info["current_player"][0])
        self._view = (mover, obs[0], info["action_mask"][0])
        if self.observation_mode == "flat":
            view: Any = obs[0].reshape(-1).copy()
        else:
            view = {
                "observations": obs[0].copy(),
                "action_mask": info["action_mask"][0].astype(np.float32),
            }
        return {self._agent(mover): view}

    def _end(self, rewards: dict[str, float], infos: dict[str, Any]) -> tuple:
        """The step that ends the game: every agent observes and gets its reward."""
        self._over = True
        self._view = None
        obs = {self._agent(p): self._obs(p) for p in self._learners}
        return obs, rewards, {"__all__": True}, {"__all__": False}, infos

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=runner_seed(seed, self.worker_index))
        obs, info = self._episode.reset(self._seat)  # on error the episode is unchanged
        self._over = False
        return self._next(obs, info), {}

    def step(self, action_dict: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        if self._episode.native is None:
            self.reset()  # a step before any reset starts the first game
        if self._over or self._view is None:
            raise inarow.IllegalMoveError("the game is over: call reset()")
        mover, _, mask = self._view
        agent = self._agent(mover)
        if agent not in action_dict:
            raise KeyError(f"no action for {agent}, the agent to move (got {list(action_dict)})")
        action = action_dict[agent]
        if isinstance(action, np.ndarray) and action.shape == ():
            action = action.item()
        plain = type(action) is int and 0 <= action < len(mask)
        if not plain or (self.illegal_action == "raise" and not mask[action]):
            self._judge(agent, action)
        # An opponent that fails leaves the episode unchanged.
        obs, _, terminated, _, info = self._episode.step(action)
        if not terminated[0]:
            # With an opponent the agent that acted observes again at once, and RLlib
            # requires a reward with that observation: 0 until the end.
            rewards = {} if self._opponents is None else {agent: 0.0}
            return self._next(obs, info), rewards, {"__all__": False}, {"__all__": False}, {}
        if "illegal_action" in info and info["illegal_action"][0]:
            rewards = dict.fromkeys(self.possible_agents, 0.0)
            rewards[agent] = self.illegal_reward
            return self._end(rewards, {agent: {"illegal_action": True}})
        returns = info["player_rewards"][0].tolist()
        return self._end({self._agent(p): returns[p - 1] for p in self._learners}, {})

    def _judge(self, agent: str, action: Any) -> None:
        """Raises, naming `agent`, for an action that is not an integer, is out of
        the action space, or (with "raise") is illegal now; returns for one the
        native step plays (a legal one, or an illegal one that loses)."""
        board = self.board.copy()
        try:
            board.move(action)
        except inarow.IllegalMoveError as e:
            if self.illegal_action == "raise" or not in_action_space(action, board.num_actions):
                raise inarow.IllegalMoveError(f"{agent}: {e} (legal: {board.legal_moves()})") from e
        except TypeError as e:
            raise TypeError(f"{agent}: {e}") from e

    def render(self) -> str:
        return str(self.board)


def runner_seed(seed: int | None, worker_index: int) -> int | None:
    """The seed an env on RLlib's env runner ``worker_index`` starts its generator
    from when ``reset(seed=seed)``: ``seed`` itself on the local runner (index 0) or
    outside RLlib, else one drawn from ``(seed, worker_index)``. RLlib seeds runner
    ``w`` with ``config.seed + w`` and the ``i``-th env of its vector env with that
    plus ``i``, so with several envs per runner, envs of neighbouring runners would
    otherwise share seeds (and play the same opponent moves)."""
    if seed is None or worker_index == 0:
        return seed
    return int(np.random.SeedSequence([seed, worker_index]).generate_state(1, np.uint64)[0] >> 1)


def register(name: str = ENV_NAME) -> str:
    """Registers `InARowMultiAgentEnv` with Ray Tune under `name`; returns it."""
    from ray.tune.registry import register_env

    register_env(name, lambda config: InARowMultiAgentEnv(config))
    return name
