"""Stable-Baselines3 adapter: an SB3 ``VecEnv`` over the native batch (needs
``pip install stable-baselines3``; ``sb3-contrib`` for ``MaskablePPO``).

`InARowVecEnv` steps ``num_envs`` games in one native call, the opponent's
replies included (``opponent="random"``, ``"greedy"``, ``"negamax:D"``,
``"perfect"``, an ``inarow.agents`` agent, or a batched callable such as
`PolicyOpponent`), so SB3 sees one agent per env:

>>> from stable_baselines3 import PPO
>>> import inarow
>>> from inarow.sb3 import InARowVecEnv
>>> env = InARowVecEnv(16, inarow.Rules.tic_tac_toe(), opponent="random", seed=0)
>>> model = PPO("MultiInputPolicy", env, n_steps=64, seed=0, device="cpu").learn(1024)

Observations and spaces are the single `inarow.gymnasium.InARowEnv`'s: a Dict of
``"observation"`` (egocentric planes, plane 0 the agent's stones) and
``"action_mask"`` (int8), so a model trained on one runs on the other. Rewards are
the agent's: +1 win, -1 loss (an illegal action too, by default:
``illegal_action="loss"``), 0 draw. A finished episode resets in the same step:
``dones[i]`` is True and ``infos[i]["terminal_observation"]`` holds its last
observation (with an all-ones action mask), ``infos[i]["winner"]`` and
``infos[i]["illegal_action"]``; every info holds ``"agent_player"`` (of the episode
that ended, in a done env).
``env_method("action_masks")`` gives one ``(num_actions,)`` bool row per env
(sb3-contrib's ``get_action_masks`` stacks them), all True in a finished env.

``opponent=None`` is raw self-play: one policy moves for whichever side is to
move, and the reward is the mover's (+1 on a winning move; the loser's -1 is not
seen, since SB3 cannot credit past steps). For self-play that SB3 learns from,
play against the learning model itself with `PolicyOpponent`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from inarow._extras import missing

try:
    from gymnasium import spaces
    from stable_baselines3.common.vec_env import VecEnv as _SB3VecEnv
except ImportError as e:
    raise missing("sb3", "inarow.sb3", e) from e

import inarow
from inarow._adapt import check_box_dtype

__all__ = ["InARowVecEnv", "PolicyOpponent", "agent", "win_rate"]


class InARowVecEnv(_SB3VecEnv):
    """``num_envs`` k-in-a-row games as one SB3 ``VecEnv`` (see the module docs).

    ``rules``: an `inarow.Rules` (Connect Four when None), as for `inarow.VecEnv`.
    ``seed`` seeds every env's stream (the opponent's moves and seats); SB3's
    ``seed(s)`` takes effect at the next ``reset()`` (envs draw from streams of
    ``s``). ``agent_player``: ``1..players`` or ``"random"`` (per episode).
    """

    def __init__(
        self,
        num_envs: int = 8,
        rules: inarow.Rules | None = None,
        *,
        opponent: Any = "random",
        agent_player: int | str = 1,
        illegal_action: str = "loss",
        obs_dtype: str = "uint8",
        seed: int | None = None,
        threads: int | None = None,
    ) -> None:
        check_box_dtype(obs_dtype)
        self.native = inarow.VecEnv(
            num_envs,
            rules,
            seed=seed,
            autoreset="same_step",
            obs_dtype=obs_dtype,
            threads=threads,
            opponent=opponent,
            agent_player=agent_player if opponent is not None else None,
            illegal_action=illegal_action,
        )
        self.render_mode = None
        n_act = self.native.num_actions
        r = self.native.rules
        observation_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    0, 1, (r.players, r.height, r.width), np.dtype(obs_dtype)
                ),
                "action_mask": spaces.Box(0, 1, (n_act,), np.int8),
            }
        )
        super().__init__(int(num_envs), observation_space, spaces.Discrete(n_act))
        self._actions: np.ndarray | None = None
        self._closed = False

    # -- the batch ----------------------------------------------------------------

    def _obs(self, planes: np.ndarray, mask: np.ndarray) -> dict[str, np.ndarray]:
        return {"observation": planes, "action_mask": mask.astype(np.int8)}

    def reset(self) -> dict[str, np.ndarray]:
        """Resets every env; seeds set by ``seed()`` apply once (env streams of
        ``seeds[0]``: the native batch takes one seed for all its envs)."""
        if any(self._options):
            raise ValueError(
                f"reset options are not supported by InARowVecEnv, got {self._options[0]!r}"
            )
        seed = self._seeds[0]
        obs, info = self.native.reset(seed=seed)
        self._reset_seeds()
        self._reset_options()
        self.reset_infos = self._infos(info, np.zeros(self.num_envs, dtype=bool))
        return self._obs(obs, info["action_mask"])

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions).reshape(self.num_envs)

    def step_wait(self) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, list[dict]]:
        if self._actions is None:
            raise RuntimeError("step_wait() without step_async(actions)")
        actions, self._actions = self._actions, None
        obs, rewards, terminated, truncated, info = self.native.step(actions)
        dones = terminated | truncated
        return (
            self._obs(obs, info["action_mask"]),
            rewards.astype(np.float32),
            dones,
            self._infos(info, dones),
        )

    def _infos(self, info: dict[str, Any], dones: np.ndarray) -> list[dict[str, Any]]:
        seats = info.get("agent_player")
        if seats is None:
            infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        else:
            infos = [{"agent_player": s} for s in seats.tolist()]
        if dones.any():
            final = info["final_obs"]
            ones = np.ones(self.native.num_actions, dtype=np.int8)
            illegal = info.get("illegal_action")
            for i in np.flatnonzero(dones):
                infos[i]["terminal_observation"] = {"observation": final[i], "action_mask": ones}
                if seats is not None:  # the seat of the episode that ended, not the next one
                    infos[i]["agent_player"] = int(info["final_agent_player"][i])
                infos[i]["TimeLimit.truncated"] = False
                infos[i]["winner"] = int(info["winner"][i])
                infos[i]["illegal_action"] = bool(illegal[i]) if illegal is not None else False
        return infos

    def action_masks(self) -> np.ndarray:
        """``(num_envs, num_actions)`` bool: the legal actions of every env."""
        return self.native.legal_mask().copy()

    def board(self, index: int) -> inarow.Board:
        """A copy of env ``index`` as an `inarow.Board`."""
        return self.native.board(index)

    def close(self) -> None:
        self._closed = True

    # -- SB3's per-env access ---------------------------------------------------

    def _indices(self, indices: Any) -> list[int]:
        out = list(self._get_indices(indices))
        for i in out:
            if not 0 <= int(i) < self.num_envs:
                raise IndexError(f"env index {i} is out of range: allowed 0..={self.num_envs - 1}")
        return [int(i) for i in out]

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        """The batch's attribute, once per env in ``indices`` (the envs share it;
        ``"action_masks"`` and ``"board"`` are per-env through ``env_method``)."""
        value = getattr(self, attr_name)
        return [value for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        """Sets a shared attribute: only for every env at once."""
        if sorted(self._indices(indices)) != list(range(self.num_envs)):
            raise ValueError(
                f"set_attr({attr_name!r}) for some envs only: InARowVecEnv's envs share "
                "their attributes, set it for all (indices=None)"
            )
        setattr(self, attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
    ) -> list[Any]:
        """Per-env methods: ``"action_masks"`` (a ``(num_actions,)`` bool row per env)
        and ``"board"`` (a `inarow.Board` copy per env); other names raise
        ``AttributeError``."""
        envs = self._indices(indices)
        if method_name == "action_masks":
            masks = self.native.legal_mask()
            return [masks[i].copy() for i in envs]
        if method_name == "board":
            return [self.native.board(i) for i in envs]
        raise AttributeError(
            f"InARowVecEnv has no per-env method {method_name!r}: allowed 'action_masks', 'board'"
        )

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        """The envs are native games, never Gymnasium-wrapped."""
        return [False for _ in self._indices(indices)]

    def get_images(self) -> Sequence[np.ndarray | None]:
        from inarow._render import render_rgb

        return [render_rgb(self.native.board(i)) for i in range(self.num_envs)]


class PolicyOpponent:
    """A batched opponent ``(obs, mask) -> actions`` played by an SB3 model: pass
    it as ``opponent=`` and attach the model (``opponent.model = model``) to play
    against the learning policy itself, or a frozen copy. Until a model is
    attached it plays uniformly random legal moves from its own generator
    (``seed``). Masked models (sb3-contrib) get the masks; an unmasked model's
    action probabilities are restricted to the legal moves (sampled, or their
    argmax with ``deterministic=True``), so the opponent never forfeits."""

    def __init__(self, model: Any = None, deterministic: bool = False, seed: int | None = None):
        self.model = model
        self.deterministic = deterministic
        self._rng = np.random.default_rng(seed)

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        if self.model is None:
            return np.argmax(self._rng.random(mask.shape) * mask, axis=1)
        if _is_maskable(self.model):
            return _predict(self.model, obs, mask, self.deterministic)
        # An unmasked policy: its action probabilities restricted to the legal moves.
        import torch

        policy = self.model.policy
        batch = {"observation": obs, "action_mask": mask.astype(np.int8)}
        tensor, _ = policy.obs_to_tensor(batch)
        with torch.no_grad():
            probs = policy.get_distribution(tensor).distribution.probs.cpu().numpy()
        probs = np.where(mask, probs + 1e-12, 0.0)
        if self.deterministic:
            return np.argmax(probs, axis=1)
        cumulative = np.cumsum(probs, axis=1)
        draws = self._rng.random(len(probs)) * cumulative[:, -1]
        picks = (cumulative <= draws[:, None]).sum(axis=1)
        return np.minimum(picks, mask.shape[1] - 1)


def _predict(model: Any, obs: np.ndarray, mask: np.ndarray, deterministic: bool) -> np.ndarray:
    batch = {"observation": obs, "action_mask": mask.astype(np.int8)}
    if _is_maskable(model):
        actions, _ = model.predict(batch, deterministic=deterministic, action_masks=mask)
    else:
        actions, _ = model.predict(batch, deterministic=deterministic)
    return np.asarray(actions, dtype=np.int64)


def agent(model: Any, deterministic: bool = True) -> Callable[[inarow.Board], int]:
    """An SB3 or sb3-contrib model trained on `InARowVecEnv` as an agent
    ``agent(board) -> action`` for `inarow.evaluate.match`, the envs' ``opponent=``
    and ``inarow play``: it sees what the env showed it (the side to move's
    egocentric planes, in the model's dtype, and the legal mask; MaskablePPO gets
    the mask as ``action_masks``). A model without masks may return an illegal
    action, which `inarow.evaluate.match` refuses naming the agent."""
    dtype = model.observation_space["observation"].dtype

    def play(board: inarow.Board) -> int:
        obs = board.observation(str(dtype))[None]
        return int(_predict(model, obs, board.legal_mask()[None], deterministic)[0])

    play.__qualname__ = f"sb3_agent({type(model).__name__})"
    return play


def _is_maskable(model: Any) -> bool:
    try:
        from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
    except ImportError:
        return False
    return isinstance(getattr(model, "policy", None), MaskableActorCriticPolicy)


def win_rate(
    model: Any,
    env: InARowVecEnv,
    episodes: int,
    deterministic: bool = True,
    opening_plies: int = 2,
    seed: int | None = None,
    progress: bool = False,
) -> dict[str, float]:
    """Plays ``model`` in ``env`` (reset first) until ``episodes`` episodes ended;
    returns the shares of ``"wins"``, ``"draws"``, ``"losses"`` and
    ``"illegal"`` (losses by an illegal action) over the first ``episodes``.

    The model's moves among the first ``opening_plies`` plies of each game are
    uniformly random legal moves (from ``seed``), so a deterministic model against
    a deterministic opponent is scored on many games, not on one line it may have
    memorised; ``opening_plies=0`` scores it from the start position only. These
    are not `inarow.evaluate.match`'s openings: only the model's moves are random
    (the env's opponent plays its own moves in those plies), and no opening is
    played from both seats. For match's openings, its intervals and what perfect
    play scores from them, play the model as an agent:
    ``inarow.evaluate.match(inarow.sb3.agent(model), "greedy", rules=...)``.
    ``progress=True`` shows a bar of the episodes (needs tqdm)."""
    if opening_plies < 0:
        raise ValueError(f"opening_plies={opening_plies} must be at least 0")
    rng = np.random.default_rng(seed)
    bar = _episode_bar(progress, episodes)
    obs = env.reset()
    counts = {"wins": 0, "draws": 0, "losses": 0, "illegal": 0}
    try:
        _play_episodes(model, env, episodes, deterministic, opening_plies, rng, obs, counts, bar)
    finally:
        if bar is not None:
            bar.close()
    return {k: v / episodes for k, v in counts.items()}


def _episode_bar(progress: bool, episodes: int) -> Any:
    if not progress:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError as e:
        raise missing("progress", "win_rate(progress=True)", e) from e
    return tqdm(total=episodes, unit="episode")


def _play_episodes(
    model: Any,
    env: InARowVecEnv,
    episodes: int,
    deterministic: bool,
    opening_plies: int,
    rng: np.random.Generator,
    obs: Any,
    counts: dict[str, int],
    bar: Any,
) -> None:
    done = 0
    while done < episodes:
        masks = env.action_masks()
        actions = _predict(model, obs["observation"], masks, deterministic)
        stones = obs["observation"].reshape(len(masks), -1).sum(axis=1)
        for i in np.flatnonzero(stones < opening_plies):
            actions[i] = rng.choice(np.flatnonzero(masks[i]))
        obs, rewards, dones, infos = env.step(actions)
        for i in _first(np.flatnonzero(dones), episodes - done):
            counts["wins" if rewards[i] > 0 else "losses" if rewards[i] < 0 else "draws"] += 1
            counts["illegal"] += int(infos[i]["illegal_action"])
            done += 1
            if bar is not None:
                bar.update(1)


def _first(items: Iterable[int], n: int) -> list[int]:
    return list(items)[:n]
