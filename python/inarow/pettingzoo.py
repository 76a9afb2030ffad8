"""PettingZoo AEC adapter (needs the ``pettingzoo`` extra; without it,
importing this module raises `inarow.MissingExtraError` with the command that installs it).

``inarow.pettingzoo.env(rules=None, render_mode=None, connect_four_v3_layout=False,
illegal_action="loss", illegal_reward=-1, opponent=None, agent_player=1)`` returns an
AEC env (wrapped in PettingZoo's ``OrderEnforcingWrapper``) for any rules (``rules``
an `inarow.Rules`, Connect Four when None) and 2..16 players; ``raw_env(...)`` the
bare env.

Agents are ``"player_0" .. "player_{players-1}"`` (PettingZoo's classic naming;
agent i is inarow player i + 1 and moves (i+1)-th). With ``opponent=`` (any opponent
of `inarow.opponents`: "random", "solver", an agent, a list of them or a curriculum,
drawn per episode from the generator ``reset(seed=...)`` seeds) the env has one
agent, the seat ``agent_player`` (1..players, keeping its name
``"player_{agent_player-1}"``), and the opponent plays every other seat inside
``reset`` and ``step``, all-or-nothing as in `inarow.gymnasium.InARowEnv`.
Observation of agent a:
``{"observation": uint8 planes (players, height, width)`` (the dtype of the
Gymnasium env's) with plane 0 = a's stones, plane j = the stones of the player j
seats after a; ``"action_mask": int8 (num_actions,)`` (all zeros unless a is to
move)``}``. With ``connect_four_v3_layout=True`` the planes are int8 and
channel-last ``(height, width, players)``, exactly as
``pettingzoo.classic.connect_four_v3`` (for Connect Four rules, the same arrays for
the same moves, including its quirk of an action mask of the non-full columns for
the agent selected after the game ended), so agents trained there run unchanged.

Rewards arrive at the end, each agent's entry of `inarow.Board.returns`: +1 for the
winner, -1 for every other agent; 0 each on a draw. Illegal actions (an action of the action space the rules forbid now): with
``illegal_action="loss"`` (the default) the game ends as in PettingZoo classic's
``TerminateIllegalWrapper``: the offender gets ``illegal_reward``, the others 0,
all agents terminate and ``infos[offender]["illegal_move"]`` is True; with
``"raise"`` they raise `inarow.IllegalMoveError` (a ``ValueError``), leaving the
state unchanged. In both modes an action outside the action space raises
(``TypeError`` for non-integers, `inarow.IllegalMoveError` out of range).
``step()`` before ``reset()`` raises ``AssertionError`` (the wrapper's convention).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from inarow._extras import missing

try:
    from gymnasium import spaces
    from gymnasium.utils import seeding
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
    from pettingzoo.utils.agent_selector import AgentSelector
except ImportError as e:
    raise missing("pettingzoo", "inarow.pettingzoo", e) from e

import inarow
from inarow._adapt import check_illegal_action_mode
from inarow._episode import NativeEpisode
from inarow._render import render_ansi, render_rgb
from inarow.opponents import OpponentSeats, check_agent_player

__all__ = ["InARowAECEnv", "env", "raw_env"]


class InARowAECEnv(AECEnv):
    """The bare AEC env; see the module docs. Pickles with its full state."""

    metadata = {
        "render_modes": ["ansi", "rgb_array"],
        "name": "inarow_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        rules: inarow.Rules | None = None,
        render_mode: str | None = None,
        connect_four_v3_layout: bool = False,
        illegal_action: str = "loss",
        illegal_reward: float = -1.0,
        opponent: Any = None,
        agent_player: int = 1,
    ) -> None:
        super().__init__()
        self._empty = inarow.Board(rules)
        self.rules = r = self._empty.rules
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode {render_mode!r} is not supported: allowed None, 'ansi', 'rgb_array'"
            )
        self.render_mode = render_mode
        self.illegal_action = check_illegal_action_mode(illegal_action)
        self.illegal_reward = float(illegal_reward)
        self.channel_last = bool(connect_four_v3_layout)
        self._names = [f"player_{i}" for i in range(r.players)]  # seat s is _names[s - 1]
        self._opponents: OpponentSeats | None = None
        if opponent is None:
            learners = list(range(1, r.players + 1))
        else:
            learners = [check_agent_player(agent_player, r)]
            self._opponents = OpponentSeats(opponent, r, learners)
        self.possible_agents = [self._names[s - 1] for s in learners]
        self._index = {self._names[s - 1]: s - 1 for s in learners}
        self.np_random: np.random.Generator | None = None  # type: ignore[assignment]
        shape = (
            (r.height, r.width, r.players) if self.channel_last else (r.players, r.height, r.width)
        )
        self._obs_dtype = np.dtype(np.int8 if self.channel_last else np.uint8)
        n = r.num_actions
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0, 1, shape, self._obs_dtype),
                    "action_mask": spaces.Box(0, 1, (n,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        seat = learners[0] if self._opponents is not None else None
        self._seat = seat
        self._episode = NativeEpisode(self, r, self._opponents, self.illegal_action)
        # The native view of the agent to move: its planes and mask (None when over).
        self._view: tuple[np.ndarray, np.ndarray] | None = None
        self.agents: list[str] = []

    @property
    def board(self) -> inarow.Board:
        """The current position (read it; a copy made once per move)."""
        position = self._episode.position
        return self._empty.copy() if position is None else position

    def _moved(self, obs: np.ndarray, info: dict[str, Any], over: bool) -> None:
        """Keeps the native view of the agent to move (the native env's own buffers,
        valid until its next call; `observe` copies them); the board is copied on
        demand."""
        self._view = None if over else (obs[0], info["action_mask"][0].view(np.int8))

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if self._view is not None and agent == self.agent_selection:
            planes = self._view[0].copy()
            mask = self._view[1].copy()
            if self.channel_last:
                planes = planes.view(self._obs_dtype)
                planes = np.ascontiguousarray(np.moveaxis(planes, 0, -1))
            return {"observation": planes, "action_mask": mask}
        b = self.board
        seat = self._index[agent] + 1
        planes = b.observation("uint8", player=seat).view(self._obs_dtype)
        if self.channel_last:
            planes = np.ascontiguousarray(np.moveaxis(planes, 0, -1))
        if agent == self.agent_selection and not b.is_over:
            mask = b.legal_mask().view(np.int8)
        elif agent == self.agent_selection and self.channel_last:
            # connect_four_v3 keeps masking the non-full columns after the game ended.
            cells = b.to_numpy()
            mask = (cells[0] if b.gravity else cells.ravel()) == 0
            mask = mask.astype(np.int8)
        else:
            mask = np.zeros(b.num_actions, dtype=np.int8)
        return {"observation": planes, "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. `seed` seeds the generator of the opponent's choices (the
        rules themselves are deterministic); with an opponent that fails, the
        previous state is kept and the error propagates."""
        if seed is not None or self.np_random is None:
            self.np_random, _ = seeding.np_random(seed)
        obs, info = self._episode.reset(self._seat)  # on error the episode is unchanged
        self._moved(obs, info, over=False)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._agent_selector = AgentSelector(self.agents)
        self.agent_selection = self._agent_selector.reset()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        # Type, range and (with "raise") legality errors leave the state unchanged,
        # and so does an opponent that fails.
        obs, _, terminated, _, info = self._episode.step(action)
        done = bool(terminated[0])
        self._moved(obs, info, over=done)
        self._cumulative_rewards[agent] = 0.0
        if done and "illegal_action" in info and info["illegal_action"][0]:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.rewards[agent] = self.illegal_reward
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos[agent]["illegal_move"] = True
            self._accumulate_rewards()
            return
        if done:
            returns = info["player_rewards"][0].tolist()
            self.rewards = {a: returns[self._index[a]] for a in self.agents}
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
        # AgentSelector cycles in seat order, which is the game's turn order.
        self.agent_selection = self._agent_selector.next()
        self._accumulate_rewards()

    def render(self) -> str | np.ndarray | None:
        if self.render_mode == "ansi":
            return render_ansi(self.board)
        if self.render_mode == "rgb_array":
            return render_rgb(self.board)
        return None

    def close(self) -> None:
        pass


def raw_env(**kwargs: Any) -> InARowAECEnv:
    """The bare AEC env (no order enforcement)."""
    return InARowAECEnv(**kwargs)


def env(**kwargs: Any) -> AECEnv:
    """The AEC env wrapped in PettingZoo's ``OrderEnforcingWrapper``."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))
