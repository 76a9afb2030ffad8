"""One episode on the native engine, for the adapters that hold one game (the single
Gymnasium env, PettingZoo, RLlib): a `inarow.VecEnv` of one env with
``autoreset="disabled"`` plays it (the agent's move or forfeit, the opponents'
turns, the end, returns, the terminal mask), and each adapter only maps its fields.

With an opponent, "random" and the built-in agents play inside the native step from
the env's stream; every other opponent (an agent ``agent(board) -> action``,
"solver") answers through the native board-agent path as `inarow.opponents` plays it,
from the adapter's seeded generator. Plain Python and numpy: no ecosystem is
imported here."""

from __future__ import annotations

import numbers
from typing import Any, Protocol

import numpy as np

import inarow
from inarow.agents import Agent
from inarow.opponents import OpponentSeats, checked_action, episode_opponent

__all__ = ["NativeEpisode"]


class _Seeded(Protocol):
    np_random: np.random.Generator


class NativeEpisode:
    """The native env of the current episode, made anew when the agent's seat or the
    kind of opponent changes (a native env fixes both), kept otherwise.

    `owner` is the adapter: its ``np_random`` (read at each use) seeds the native
    streams at each reset and drives the Python opponents. `opponents`: None for
    self-play (every seat the caller's)."""

    def __init__(
        self,
        owner: _Seeded,
        rules: inarow.Rules,
        opponents: OpponentSeats | None,
        illegal_action: str,
        obs_dtype: str = "uint8",
    ) -> None:
        self.owner = owner
        self.rules = rules
        self.opponents = opponents
        self.illegal_action = illegal_action
        self.obs_dtype = obs_dtype
        self.python_opponent = _PythonOpponent(self)
        self.native: inarow.VecEnv | None = None
        self.key: tuple[int | None, Any] | None = None
        self._position: inarow.Board | None = None

    @property
    def board(self) -> inarow.Board | None:
        """A copy of the board (None before the first reset)."""
        return None if self.native is None else self.native.board(0)

    @property
    def position(self) -> inarow.Board | None:
        """The board, copied once per move on first use and shared until the next
        (for adapters whose ``board`` attribute callers only read)."""
        if self._position is None and self.native is not None:
            self._position = self.native.board(0)
        return self._position

    def legal_mask(self) -> np.ndarray:
        """The current legal mask, a fresh bool array (all False before a reset)."""
        if self.native is None:
            return np.zeros(self.rules.num_actions, dtype=bool)
        return self.native.legal_mask()[0].copy()

    def reset(self, seat: int | None) -> tuple[np.ndarray, dict[str, Any]]:
        """Starts an episode with the agent at `seat` (None: self-play) against the
        episode's opponent (drawn now); returns the native ``(obs, info)``. When the
        opponent fails, the previous episode is kept and the error propagates."""
        rng = self.owner.np_random
        chosen = None
        if self.opponents is not None:
            seats = self.opponents
            chosen = episode_opponent(seats.playing, seats.episodes, rng, self.rules)
        native, key = self._native_for(seat, chosen)
        playing = self.python_opponent.current
        self.python_opponent.current = chosen
        try:
            # On failure the native env (and so the previous episode) is unchanged.
            out = native.reset(seed=int(rng.integers(2**63)))
        except BaseException:
            self.python_opponent.current = playing
            raise
        self.native, self.key = native, key
        self._position = None
        if self.opponents is not None:
            self.opponents.current = chosen
            self.opponents.episodes += 1
        return out

    def step(self, action: Any) -> tuple[Any, ...]:
        """The native step of the one env (see `inarow.VecEnv.step`)."""
        assert self.native is not None
        out = self.native.step(one_action(action))
        self._position = None
        return out

    def _native_for(
        self, seat: int | None, opponent: Any
    ) -> tuple[inarow.VecEnv, tuple[int | None, Any]]:
        native_opponent = None if seat is None else _native_opponent(opponent)
        kind = native_opponent if native_opponent is not None or seat is None else "python"
        key = (seat, kind)
        if self.native is not None and self.key == key:
            return self.native, key
        versus: dict[str, Any] = {}
        if seat is not None:
            versus = dict(
                opponent=self.python_opponent if native_opponent is None else native_opponent,
                agent_player=seat,
            )
        playing = self.python_opponent.current
        self.python_opponent.current = None  # the constructor's opening is replaced
        try:
            native = inarow.VecEnv(
                1,
                rules=self.rules,
                autoreset="disabled",
                obs_dtype=self.obs_dtype,
                illegal_action=self.illegal_action,
                seed=0,
                reuse_buffers=True,  # the adapters copy what they return
                **versus,
            )
        finally:
            self.python_opponent.current = playing
        return native, key

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        native = state.pop("native")
        state["native_state"] = None if native is None else native.get_state()
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        native_state = state.pop("native_state")
        self.__dict__.update(state)
        self.native = None
        if native_state is not None:
            assert self.key is not None
            current = None if self.opponents is None else self.opponents.current
            native, key = self._native_for(self.key[0], current)
            native.set_state(native_state)
            self.native, self.key = native, key


def one_action(action: Any) -> list[Any]:
    """`action` as the native step's one-env batch: an integer of any kind, else
    ``TypeError`` naming it (a sequence or array would read as several)."""
    if type(action) is int or isinstance(action, np.integer):
        return [action]
    if isinstance(action, numbers.Integral) and not isinstance(action, bool):
        return [int(action)]
    if isinstance(action, np.ndarray) and action.ndim == 0 and action.dtype.kind in "iu":
        return [action.item()]
    raise TypeError(f"action must be an integer, got {type(action).__name__}: {action!r}")


def _native_opponent(opponent: Any) -> Any:
    """The native VecEnv opponent that plays `opponent` inside the step ("random" and
    the built-in agents), or None when Python answers for it."""
    if isinstance(opponent, str) and opponent == "random":
        return "random"
    if isinstance(opponent, Agent):
        return opponent
    return None


class _PythonOpponent:
    """The native env's opponent when the episode's opponent is Python's (an agent
    ``agent(board) -> action``, "solver"): asked for one board at a time, it plays
    as `inarow.opponents` does, from the adapter's seeded generator, and raises what
    it raises (the native step then undoes the agent's move)."""

    def __init__(self, episode: NativeEpisode) -> None:
        self._episode = episode
        #: The episode's opponent; None while a new native env plays its first,
        #: discarded opening (the first legal move, asking nobody).
        self.current: Any = None

    def actions(self, boards: list[inarow.Board]) -> list[int]:
        return [self._action(board) for board in boards]

    def _action(self, board: inarow.Board) -> int:
        if self.current is None:
            return int(board.legal_moves()[0])
        seats = self._episode.opponents
        assert seats is not None
        if isinstance(self.current, str) and self.current == "solver" and seats.solver is None:
            seats.solver = inarow.Solver()
        return checked_action(self.current, board, self._episode.owner.np_random, seats.solver)
