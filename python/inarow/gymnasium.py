"""Gymnasium adapters (needs the ``gymnasium`` extra: ``pip install '.[gymnasium]'``
in a clone; without it, importing this module raises `inarow.MissingExtraError` with the
command).

- `InARowEnv`: a single-agent ``gymnasium.Env``. The agent holds one seat; every
  other seat is played by an opponent ("random", "solver", any agent
  ``agent(board) -> action``, a list of them drawn per episode, or a curriculum: see
  `inarow.opponents`).
- `InARowVectorEnv`: a ``gymnasium.vector.VectorEnv`` over the native `inarow.VecEnv`,
  in self-play (each step plays one action for the side to move in every env) or
  against an opponent played inside the native step (``opponent=``, ``agent_player=``).

Registered ids (on ``import inarow`` when gymnasium is installed):
``inarow/ConnectFour-v0`` (7x6, k=4, gravity), ``inarow/TicTacToe-v0`` (3x3, k=3),
``inarow/Gomoku-v0`` (15x15, k=5) and ``inarow/KInARow-v0`` (Connect Four unless
``rules=`` an `inarow.Rules`; ``rules=`` replaces any id's own). Each has a vector entry point:
``gymnasium.make_vec(id, num_envs=8, vectorization_mode="vector_entry_point")``.

Illegal actions (single-agent env), as in pgx, PettingZoo classic and Kaggle
ConnectX: with ``illegal_action="loss"`` (the default) an action of the action space
that the rules forbid now (an occupied cell, a full column) ends the episode as a
loss for the agent: reward ``illegal_reward`` (-1), ``terminated=True``,
``info["illegal_action"] = True``, ``info["outcome"] = "illegal_action"``. With
``illegal_action="raise"`` it raises `inarow.IllegalMoveError` (a ``ValueError``)
and leaves the state unchanged. In both modes an action outside the action space
raises (``TypeError`` for a non-integer, `inarow.IllegalMoveError` out of range).
The vector env follows the same default (reward -1 for the offender's env, the other
envs step; ``illegal_action="raise"`` refuses the whole batch instead). Stepping
before ``reset()`` or after the episode ended raises `ResetNeeded`.

Terminal observations carry an all-ones action mask (pgx's convention): the action
sampled from them is ignored by the autoreset and a masked sampler never sees an
empty mask. ``action_masks()`` (sb3-contrib's ``MaskablePPO`` convention) returns
the same mask as a bool array.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from inarow._extras import missing

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
except ImportError as e:
    raise missing("gymnasium", "inarow.gymnasium", e) from e

import inarow
from inarow._adapt import (
    ILLEGAL_ACTION_MODES,
    check_box_dtype,
    check_illegal_action_mode,
    native_seed,
    seed_value,
)
from inarow._episode import NativeEpisode
from inarow._render import render_ansi, render_rgb
from inarow._rules import PRESETS
from inarow.opponents import OpponentError, OpponentSeats, check_agent_player

__all__ = [
    "ENV_IDS",
    "ILLEGAL_ACTION_MODES",
    "InARowEnv",
    "InARowVectorEnv",
    "OpponentError",
    "ResetNeeded",
    "register_envs",
    "render_rgb",
    "solver_supports",
]

#: The registered ids and their rules.
ENV_IDS: dict[str, inarow.Rules | None] = {
    "inarow/ConnectFour-v0": PRESETS["connect_four"],
    "inarow/TicTacToe-v0": PRESETS["tic_tac_toe"],
    "inarow/Gomoku-v0": PRESETS["gomoku"],
    "inarow/KInARow-v0": None,
}

Policy = Callable[["inarow.Board"], int]


class ResetNeeded(gymnasium.error.ResetNeeded, RuntimeError):
    """``step()`` was called before ``reset()`` or after the episode ended."""


def solver_supports(width: int, height: int, players: int, gravity: bool) -> bool:
    """Whether `inarow.Solver` covers these rules (2 players; with gravity
    ``width * (height + 1) <= 64``, without it at most 128 cells);
    `inarow.Solver.supports` takes an `inarow.Rules` or a board. Rules beyond the
    limits are not covered."""
    try:
        rules = inarow.Rules(width, height, 1, players, gravity)
    except inarow.InvalidRulesError:
        return False
    return inarow.Solver.supports(rules)


class InARowEnv(gymnasium.Env):
    """One seat of a k-in-a-row game against an opponent.

    The episode runs on the native engine (an `inarow.VecEnv` of one env, the one
    episode step every adapter shares); this class only maps its fields.

    Parameters: ``rules``, an `inarow.Rules` (Connect Four when None); ``opponent``: "random"
    (uniform legal moves) or a built-in agent (``inarow.agents.*`` or a name such
    as "negamax:4"), played inside the native step from the env's seeded stream;
    "solver"
    (`inarow.Solver.best_move`; only where `inarow.Solver.supports` the rules, else
    `inarow.UnsupportedRulesError` at construction), any agent ``agent(board) ->
    action`` (the ``inarow.agents`` ones or a policy of yours) receiving a copy of the
    board, a list of those (one drawn per episode from the env's seeded generator),
    or ``inarow.agents.curriculum(schedule)`` (``schedule(episode)`` picks episode
    ``episode``'s opponent, counted from 0 per env; see `inarow.opponents`); with 3+
    players the opponent plays every other seat. ``agent_player``: 1..players
    (default 1) or "random" (a seat drawn per episode; see ``info["agent_player"]``).
    ``illegal_action``: "loss" (default: an illegal action of the agent ends the
    episode with reward ``illegal_reward``, default -1) or "raise"
    (`inarow.IllegalMoveError`, state unchanged). ``obs_dtype``: "uint8" (default)
    or "float32". ``render_mode``: None, "ansi" or "rgb_array".

    Observation: ``{"observation": (players, height, width) planes, plane 0 the
    agent's stones, plane i those of the player i seats after it; "action_mask":
    (num_actions,) int8}`` (all ones once the episode ended). Action: a column with
    gravity, ``row * width + col`` without. Reward: the agent's entry of
    `inarow.Board.returns` (+1 win, -1 loss, 0 draw or game still running), or
    ``illegal_reward`` for an illegal action. ``info``: ``agent_player``; ``winner``
    (0 none; after an illegal action in a two-player game, the opponent, who wins by
    forfeit); ``illegal_action`` (bool); ``outcome`` from the agent's view:
    "running", "win", "loss", "draw" or "illegal_action".

    A step is all-or-nothing: when the opponent policy raises (`OpponentError`)
    or returns something that is not a legal action (`inarow.IllegalMoveError`,
    naming the value), the agent's move is undone before the error propagates.
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}

    def __init__(
        self,
        rules: inarow.Rules | None = None,
        opponent: Any = "random",
        agent_player: int | str = 1,
        illegal_action: str = "loss",
        illegal_reward: float = -1.0,
        obs_dtype: str = "uint8",
        render_mode: str | None = None,
    ) -> None:
        self._empty = inarow.Board(rules)
        self.rules = self._empty.rules
        players = self.rules.players
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode {render_mode!r} is not supported: allowed None, "
                + ", ".join(repr(m) for m in self.metadata["render_modes"])
            )
        self.render_mode = render_mode
        self.illegal_action = check_illegal_action_mode(illegal_action)
        self.illegal_reward = float(illegal_reward)
        self.agent_player = check_agent_player(agent_player, self.rules, allow_random=True)
        self._opponents = OpponentSeats(opponent, self.rules)
        self.obs_dtype = check_box_dtype(obs_dtype)
        n = self.rules.num_actions
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    0, 1, (players, self.rules.height, self.rules.width), np.dtype(obs_dtype)
                ),
                "action_mask": spaces.Box(0, 1, (n,), np.int8),
            }
        )
        self.action_space = spaces.Discrete(n)
        self._episode = NativeEpisode(
            self, self.rules, self._opponents, self.illegal_action, self.obs_dtype
        )
        self._seat = 1
        self._done = True

    # -- helpers -------------------------------------------------------------
    @property
    def board(self) -> inarow.Board | None:
        """A copy of the current board (None before the first reset)."""
        return self._episode.board

    @property
    def seat(self) -> int:
        """The agent's player number in this episode."""
        return self._seat

    @property
    def opponent(self) -> Any:
        """What ``opponent=`` was given; assigning takes effect at the next ``reset()``."""
        return self._opponents.opponent

    @opponent.setter
    def opponent(self, opponent: Any) -> None:
        self._opponents.opponent = opponent

    @property
    def episode_opponent(self) -> Any:
        """The opponent of the current episode (drawn from a list or a curriculum)."""
        return self._opponents.current

    def action_masks(self) -> np.ndarray:
        """The legal actions as a ``(num_actions,)`` bool array (sb3-contrib's
        ``MaskablePPO`` reads it): the agent's legal moves while the episode runs,
        all True once it ended or before the first reset (any action is then
        refused or ignored, and a masked sampler never sees an empty mask)."""
        if self._done:
            return np.ones(self.rules.num_actions, dtype=bool)
        return self._episode.legal_mask()

    def _observation(self, planes: np.ndarray, mask: np.ndarray) -> dict[str, np.ndarray]:
        """Copies of the native env's planes and bool mask (its buffers are reused),
        the mask as int8, all ones once the episode ended."""
        if self._done:
            return {
                "observation": planes.copy(),
                "action_mask": np.ones(self.rules.num_actions, dtype=np.int8),
            }
        return {"observation": planes.copy(), "action_mask": mask.view(np.int8).copy()}

    def _info(self, outcome: str, winner: int) -> dict[str, Any]:
        return {
            "agent_player": self._seat,
            "winner": winner,
            "illegal_action": outcome == "illegal_action",
            "outcome": outcome,
        }

    # -- gymnasium API ---------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Starts a new game with this episode's opponent (see the class docs); the
        opponents move first when the agent's seat is not 1. ``seed``: any
        non-negative int (Gymnasium's convention). ``options`` is accepted and
        ignored. When an opponent fails, the previous episode's state is kept and the
        error propagates (see the class docs)."""
        super().reset(seed=seed_value(seed))
        if self.agent_player == "random":
            seat = int(self.np_random.integers(1, self.rules.players + 1))
        else:
            seat = int(self.agent_player)
        obs, info = self._episode.reset(seat)  # on error the episode is unchanged
        self._seat = seat
        self._done = False
        return self._observation(obs[0], info["action_mask"][0]), self._info("running", 0)

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        """Plays the agent's `action`, then the opponents until it is the agent's
        turn again or the game ends. Raises `ResetNeeded` before ``reset()`` or after
        the end; ``TypeError`` for a non-integer and `inarow.IllegalMoveError` for an
        action out of range (state unchanged); an illegal action in range ends the
        episode as a loss (``illegal_action="loss"``) or raises
        `inarow.IllegalMoveError` with the state unchanged (``"raise"``). When the
        opponent fails, the agent's move is undone and the error propagates."""
        if self._episode.native is None or self._done:
            raise ResetNeeded(
                "step() called "
                + ("before reset()" if self._episode.native is None else "after the episode ended")
                + ": call reset() first"
            )
        obs, rewards, terminated, _, info = self._episode.step(action)
        self._done = done = bool(terminated[0])
        observation = self._observation(obs[0], info["action_mask"][0])
        if not done:
            return observation, 0.0, False, False, self._info("running", 0)
        if "illegal_action" in info and info["illegal_action"][0]:
            reward, outcome = self.illegal_reward, "illegal_action"
        else:
            reward = float(rewards[0])
            outcome = "win" if reward > 0 else "loss" if reward < 0 else "draw"
        return observation, reward, True, False, self._info(outcome, int(info["winner"][0]))

    def render(self) -> str | np.ndarray | None:
        """ "ansi": the board as text; "rgb_array": an ``(h*32, w*32, 3)`` uint8 image."""
        board = self._episode.position
        board = self._empty if board is None else board
        if self.render_mode == "ansi":
            return render_ansi(board)
        if self.render_mode == "rgb_array":
            return render_rgb(board)
        return None


#: Native `inarow.VecEnv` info keys that `InARowVectorEnv` does not pass on as
#: per-env info: the mask is in its observations, the reset flags and final
#: observations become Gymnasium's autoreset keys.
_NATIVE_ONLY_KEYS = frozenset({"action_mask", "autoreset", "final_obs", "_final_obs"})


class InARowVectorEnv(VectorEnv):
    """``num_envs`` games stepped together by the native `inarow.VecEnv`, in
    self-play or against an opponent.

    Self-play (``opponent=None``, the default): each step takes one action per env
    for the side to move there; rewards are those of the player who just moved (1
    for a win, else 0) and ``info["player_rewards"]`` ``(n, players)`` is every
    player's zero-sum credit (+1 winner, -1 others: the loser's -1 arrives on the
    winning step; see ``examples/selfplay_credit.py``). Against an opponent
    (``opponent="random"``, ``"greedy"``, ``"negamax:D"``, ``"perfect"`` or an
    ``inarow.agents`` agent, played in Rust inside ``step``; or a batched callable
    ``policy(obs, mask) -> actions``, see `inarow.VecEnv`), the agent holds seat
    ``agent_player`` (``1..players`` or ``"random"`` per episode; the opponent
    opens after every reset when the agent is not first), every step is the
    agent's move and the opponent's replies, and rewards are the agent's (+1 win,
    -1 loss, 0 draw); ``info["agent_player"]`` holds each env's seat
    (``info["final_agent_player"]``: the seat of an episode that ended in the step,
    which a same-step reset has already replaced). Observations
    are batched Dicts ``{"observation": (n, players, h, w), "action_mask": (n, A)
    int8}`` (egocentric: plane 0 = side to move, the agent against an opponent);
    ``info`` holds ``current_player``, ``winner`` (0 none), ``player_rewards``,
    each with its ``_key`` mask. ``autoreset_mode``: "next_step" (default) or
    "same_step" (then, as in Gymnasium's own vector envs, ``info["final_obs"]`` /
    ``info["_final_obs"]`` and ``info["final_info"]`` / ``info["_final_info"]`` hold
    the terminal observations on a step where some env ended, and are absent on
    the others) or "disabled" (no autoreset: an env whose episode ended refuses
    actions until ``reset(options={"reset_mask": mask})`` resets it and shows an
    all-ones mask meanwhile; TorchRL's preferred mode). An env with no legal action (its game ended and
    waits for the next-step autoreset, or a ``final_obs``) shows an all-ones action
    mask, as in pgx: the action it gets is ignored and a masked sampler never sees an
    empty mask; ``action_masks()`` returns the same ``(num_envs, A)`` bool array. An
    illegal action ends that env's episode as a loss for its player (reward -1,
    ``info["illegal_action"]``, ``info["winner"]`` the other player of two) and the
    other envs step (``illegal_action="loss"``, the default, as `InARowEnv`, pgx,
    PettingZoo classic and ConnectX); with ``illegal_action="raise"`` it raises
    `inarow.IllegalMoveError` and steps no env. ``rules``: an `inarow.Rules`
    (Connect Four when None), as for `InARowEnv`. Seeds: any
    non-negative int; those >= 2**63 are reduced deterministically for the native
    engine (see `native_seed`). With ``copy=True`` (default) every returned array is
    fresh (the native env's own fresh arrays: nothing is copied twice); ``copy=False``
    runs the native env with ``reuse_buffers=True`` and returns its buffers
    (overwritten by the next step).
    """

    metadata = {"render_modes": [], "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(
        self,
        num_envs: int = 1,
        rules: inarow.Rules | None = None,
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
        obs_dtype: str = "uint8",
        threads: int | None = None,
        copy: bool = True,
        render_mode: str | None = None,
        seed: int | None = None,
        opponent: Any = None,
        agent_player: int | str | None = None,
        illegal_action: str = "loss",
    ) -> None:
        mode = (
            AutoresetMode(autoreset_mode)
            if isinstance(autoreset_mode, str)
            and (autoreset_mode in {m.value for m in AutoresetMode})
            else autoreset_mode
        )
        native = {
            AutoresetMode.NEXT_STEP: "next_step",
            AutoresetMode.SAME_STEP: "same_step",
            AutoresetMode.DISABLED: "disabled",
            "next_step": "next_step",
            "same_step": "same_step",
            "disabled": "disabled",
        }.get(mode)
        if native is None:
            raise ValueError(
                f"autoreset_mode {autoreset_mode!r} is not supported: allowed "
                "AutoresetMode.NEXT_STEP ('next_step'), AutoresetMode.SAME_STEP ('same_step') "
                "or AutoresetMode.DISABLED ('disabled')"
            )
        if render_mode is not None:
            raise ValueError("InARowVectorEnv does not render: use env.board(i) and render_rgb")
        check_box_dtype(obs_dtype)
        self._env = inarow.VecEnv(
            num_envs,
            rules,
            seed=native_seed(seed),
            autoreset=native,
            obs_dtype=obs_dtype,
            threads=threads,
            reuse_buffers=not copy,
            opponent=opponent,
            agent_player=agent_player,
            illegal_action=check_illegal_action_mode(illegal_action),
        )
        self.rules = self._env.rules
        modes = {
            "next_step": AutoresetMode.NEXT_STEP,
            "same_step": AutoresetMode.SAME_STEP,
            "disabled": AutoresetMode.DISABLED,
        }
        self.metadata = {"render_modes": [], "autoreset_mode": modes[native]}
        self.render_mode = None
        self.num_envs = int(num_envs)
        self.copy = bool(copy)
        n_act = self._env.num_actions
        self.single_observation_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    0,
                    1,
                    (self.rules.players, self.rules.height, self.rules.width),
                    np.dtype(obs_dtype),
                ),
                "action_mask": spaces.Box(0, 1, (n_act,), np.int8),
            }
        )
        self.single_action_space = spaces.Discrete(n_act)
        self.observation_space = gymnasium.vector.utils.batch_space(
            self.single_observation_space, self.num_envs
        )
        self.action_space = gymnasium.vector.utils.batch_space(
            self.single_action_space, self.num_envs
        )
        self._mask = np.zeros((self.num_envs, n_act), dtype=np.int8)
        self._disabled = native == "disabled"
        self._needs_reset = True

    @property
    def native(self) -> inarow.VecEnv:
        """The underlying `inarow.VecEnv`."""
        return self._env

    def board(self, index: int) -> inarow.Board:
        """A copy of env `index` as an `inarow.Board`."""
        return self._env.board(index)

    @property
    def autoreset_mode(self) -> AutoresetMode:
        """The autoreset mode, as Gymnasium's own vector envs expose it (TorchRL reads it)."""
        return self.metadata["autoreset_mode"]

    @property
    def player_rewards(self) -> np.ndarray:
        """``(num_envs, players)`` float32 of the latest step: each player's zero-sum
        credit (+1 to the winner of a game that ended, -1 to the others, 0 elsewhere)."""
        return self._env.player_rewards

    def action_masks(self) -> np.ndarray:
        """The legal actions of every env as a fresh ``(num_envs, num_actions)``
        bool array (sb3-contrib's ``MaskablePPO`` convention); all True in an env
        whose game ended and waits for its autoreset."""
        mask = self._env.legal_mask().copy()
        if self._disabled:
            mask[~mask.any(axis=1)] = True
        return mask

    def _obs(self, planes: np.ndarray, mask: np.ndarray) -> dict[str, np.ndarray]:
        if self.copy:
            out = mask.astype(np.int8)
        else:
            out = self._mask
            np.copyto(out, mask, casting="unsafe")
        if self._disabled:
            # An ended episode has no legal action: pgx's all-ones terminal mask.
            out[~mask.any(axis=1)] = 1
        return {"observation": planes, "action_mask": out}

    def _info(self, native: dict[str, Any]) -> dict[str, Any]:
        n = self.num_envs
        info: dict[str, Any] = {}
        # Every per-env output of the native info, each with its ``_key`` mask; the
        # mask is in the observation, the reset flags in the autoreset's own keys.
        # The all-True masks are the rows of one block (one allocation per step).
        keys = [key for key in native if key not in _NATIVE_ONLY_KEYS]
        for key, present in zip(keys, np.ones((len(keys), n), dtype=bool)):
            info[key] = native[key]
            info["_" + key] = present
        # As Gymnasium's own vector envs: the final_obs/final_info keys only on a
        # step where some env ended (TorchRL reads an all-None array as an error).
        if "final_obs" in native and native["_final_obs"].any():
            done = native["_final_obs"].copy()
            final = np.empty(n, dtype=object)
            fo = native["final_obs"]
            for i in np.flatnonzero(done):
                final[i] = {
                    "observation": fo[i].copy(),
                    "action_mask": np.ones(self._mask.shape[1], dtype=np.int8),
                }
            info["final_obs"] = final
            info["_final_obs"] = done
            info["final_info"] = {}
            info["_final_info"] = done.copy()
        return info

    def reset(
        self,
        *,
        seed: int | list[int] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Resets all envs (`seed`: any non-negative int seeds every env's stream,
        as in `native_seed`; a list is not supported); ``options={"reset_mask": bool
        array}`` resets only some."""
        value = seed_value(seed)
        super().reset(seed=value)
        obs, info = self._env.reset(seed=native_seed(value), options=options)
        self._needs_reset = False
        return self._obs(obs, info["action_mask"]), self._info(info)

    def step(
        self, actions: Any
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One action per env (envs being autoreset ignore theirs)."""
        if self._needs_reset:
            raise ResetNeeded("step() called before reset(): call reset() first")
        obs, rew, term, trunc, info = self._env.step(np.asarray(actions))
        return self._obs(obs, info["action_mask"]), rew, term, trunc, self._info(info)

    def close_extras(self, **kwargs: Any) -> None:
        pass


def _make_vector(num_envs: int = 1, **kwargs: Any) -> InARowVectorEnv:
    """Vector entry point: the single env's ``opponent="solver"`` is the vector env's
    ``"perfect"``; ``illegal_reward`` other than -1 is refused (the vector env's
    illegal loss is always -1)."""
    if kwargs.get("opponent") == "solver":
        kwargs["opponent"] = "perfect"
    reward = kwargs.pop("illegal_reward", -1.0)
    if reward != -1.0:
        raise ValueError(
            f"illegal_reward={reward!r} is not supported by the vector env: its illegal loss is -1"
        )
    kwargs.pop("max_episode_steps", None)
    return InARowVectorEnv(num_envs=num_envs, **kwargs)


def register_envs() -> None:
    """Registers the ``inarow/...`` ids with gymnasium (idempotent)."""
    from gymnasium.envs.registration import register, registry

    for env_id, rules in ENV_IDS.items():
        if env_id in registry:
            continue
        register(
            id=env_id,
            entry_point="inarow.gymnasium:InARowEnv",
            vector_entry_point="inarow.gymnasium:_make_vector",
            kwargs={"rules": rules},
        )
