"""The opponents of the adapters' ``opponent=`` (Gymnasium's `InARowEnv`, the
PettingZoo and RLlib adapters): who plays every seat the learner does not.

An opponent is one of:

- ``"random"``: a uniform legal move drawn from the env's seeded generator;
- ``"solver"``: `inarow.Solver.best_move` (only where `inarow.Solver.supports` the
  rules; `inarow.UnsupportedRulesError` otherwise);
- any other name of `inarow.agents.named` (``"greedy"``, ``"negamax:4"``,
  ``"perfect:0.5"``, a trained ``network.npz`` path...): that agent, made once per
  env with seed 0, so a fresh env replays it;
- an agent: any callable ``agent(board) -> action`` (the ``inarow.agents`` ones, a
  trained policy...), given a copy of the board;
- a list (or tuple) of the above: one drawn per episode, uniformly, from the env's
  seeded generator;
- ``inarow.agents.curriculum(schedule)``: ``schedule(episode)`` names the opponent
  of each episode (0-based, counted per env).

Every choice comes from the env's seed, so a seeded env replays the same opponents.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import Any, Callable, Union

import numpy as np

import inarow
from inarow.agents import Curriculum

__all__ = [
    "Opponent",
    "OpponentError",
    "OpponentSeats",
    "check_agent_player",
    "check_opponent",
    "checked_action",
    "describe",
    "episode_opponent",
]

#: One episode's opponent: "random", "solver" or an agent ``agent(board) -> action``.
Opponent = Union[str, Callable[["inarow.Board"], Any]]

_ALLOWED = (
    f"'random', 'solver', an agent name ({inarow.agents.NAMES}), an agent (a callable "
    "agent(board) -> action), a list of them or inarow.agents.curriculum(schedule)"
)


class OpponentError(RuntimeError):
    """The opponent policy raised; the step (or reset) that called it is undone."""


def _check_one(opponent: Any, rules: inarow.Rules, where: str = "") -> Opponent:
    """`opponent` checked, with a name of `inarow.agents.named` made into its agent."""
    if isinstance(opponent, str):
        if opponent == "solver":
            if not inarow.Solver.supports(rules):
                raise inarow.UnsupportedRulesError(
                    f"opponent{where}='solver' needs rules the solver covers (2 players; "
                    "with gravity width * (height + 1) <= 64, without gravity width * "
                    f"height <= 128), got {rules!r}: use 'random' or an agent (on bigger "
                    "free-placement boards 'threats')"
                )
            return opponent
        if opponent == "random":
            return opponent
        # named's error on a name it knows (a bad argument, no shipped network for the
        # rules) is the one to show; any other name gets the whole list.
        known = opponent.partition(":")[0] in inarow.agents.NAME_HEADS or ".npz" in opponent
        try:
            agent = inarow.agents.named(opponent, seed=0, rules=rules)
        except ValueError as e:
            if known:
                raise ValueError(f"opponent{where} {opponent!r} is not supported: {e}") from None
            raise ValueError(
                f"opponent{where} {opponent!r} is not supported: allowed {_ALLOWED}"
            ) from None
        return _plays(agent, rules, where, opponent)
    elif callable(opponent) and not isinstance(opponent, Curriculum):
        return _plays(opponent, rules, where)
    raise ValueError(f"opponent{where} {opponent!r} is not supported: allowed {_ALLOWED}")


def _plays(agent: Any, rules: inarow.Rules, where: str, name: str | None = None) -> Any:
    """`agent`, where it plays `rules`: a built-in agent that does not (``perfect``
    beyond the solver, ``threats`` with 3+ players) raises
    `inarow.UnsupportedRulesError` here, at construction, not at the first move."""
    if isinstance(agent, inarow.agents.Agent):
        try:
            agent.check_rules(rules)
        except inarow.UnsupportedRulesError as e:
            shown = repr(agent) if name is None else repr(name)
            raise inarow.UnsupportedRulesError(f"opponent{where}={shown}: {e}") from None
    return agent


def check_agent_player(agent_player: Any, rules: inarow.Rules, allow_random: bool = False) -> Any:
    """`agent_player` if it is a seat 1..players that gets a move (with k = 1 the
    first move wins, so only seat 1; seat s needs s cells), or "random" where
    `allow_random` (every seat must get a move); else ``ValueError``."""
    if allow_random and isinstance(agent_player, str) and agent_player == "random":
        pass
    elif (
        isinstance(agent_player, bool)
        or not isinstance(agent_player, numbers.Integral)
        or not 1 <= agent_player <= rules.players
    ):
        allowed = f"1..={rules.players}" + (" or 'random'" if allow_random else "")
        raise ValueError(f"agent_player={agent_player!r} is invalid: allowed {allowed}")
    if rules.k == 1 and agent_player != 1:
        raise ValueError("with k=1 the first move wins: the agent must be player 1")
    last = rules.players if agent_player == "random" else agent_player
    if rules.width * rules.height < last:
        raise ValueError(
            f"agent_player={agent_player!r} never moves on {rules.width}x{rules.height} "
            f"with {rules.players} players: it needs at least {last} cells"
        )
    return agent_player


def check_opponent(opponent: Any, rules: inarow.Rules) -> Any:
    """Refuses what is not an opponent (``ValueError``) and the solver on rules it
    does not cover (`inarow.UnsupportedRulesError`); returns it with names of
    `inarow.agents.named` made into agents. A curriculum's choices are checked as
    each episode starts."""
    if isinstance(opponent, Curriculum):
        return opponent
    if isinstance(opponent, (list, tuple)):
        if not opponent:
            raise ValueError(f"opponent=[] is empty: allowed a non-empty list of {_ALLOWED}")
        return [_check_one(one, rules, f"[{i}]") for i, one in enumerate(opponent)]
    return _check_one(opponent, rules)


def uses_solver(opponent: Any) -> bool:
    """Whether `opponent` (before any curriculum) names the solver."""
    if isinstance(opponent, (list, tuple)):
        return any(isinstance(o, str) and o == "solver" for o in opponent)
    return isinstance(opponent, str) and opponent == "solver"


def episode_opponent(
    opponent: Any, episode: int, rng: np.random.Generator, rules: inarow.Rules
) -> Opponent:
    """The opponent of episode `episode`: the one given, one drawn from a list with
    `rng`, or a curriculum's choice (checked here)."""
    if isinstance(opponent, Curriculum):
        return _check_one(opponent.opponent_for(episode), rules, f" of episode {episode}")
    if isinstance(opponent, (list, tuple)):
        return opponent[int(rng.integers(len(opponent)))]
    return opponent


def describe(opponent: Opponent) -> str:
    """How messages name `opponent`."""
    if isinstance(opponent, str):
        return f"the {opponent!r} opponent"
    return f"the opponent policy {opponent!r}"


def opponent_action(
    opponent: Opponent,
    board: inarow.Board,
    rng: np.random.Generator,
    solver: Any,
) -> Any:
    """`opponent`'s action on `board` (an exception it raises becomes `OpponentError`)."""
    if isinstance(opponent, str) and opponent == "random":
        legal = board.legal_moves()
        return int(legal[rng.integers(len(legal))])
    try:
        if isinstance(opponent, str):  # "solver"
            return solver.best_move(board)
        return opponent(board.copy())
    except Exception as e:
        raise OpponentError(
            f"{describe(opponent)} raised {type(e).__name__}: {e} (as player "
            f"{board.current_player} after moves {board.moves}); the call that asked it for "
            "a move is undone"
        ) from e


def checked_action(
    opponent: Opponent, board: inarow.Board, rng: np.random.Generator, solver: Any = None
) -> int:
    """`opponent`'s action on `board`, checked legal: an exception it raises becomes
    `OpponentError`, an action that is not legal `inarow.IllegalMoveError` naming it."""
    player = board.current_player
    action = opponent_action(opponent, board, rng, solver)
    trial = board.copy()
    try:
        trial.move(action)
    except (TypeError, ValueError) as e:
        raise inarow.IllegalMoveError(
            f"{describe(opponent)} returned {action!r} as player {player} after moves "
            f"{board.moves}, which is not a legal action ({e}); the call that asked it "
            "for a move is undone"
        ) from e
    return int(trial.moves[-1])


class OpponentSeats:
    """The opponent of one env: what ``opponent=`` was given, this episode's choice
    (drawn by `inarow._episode.NativeEpisode` at each reset), and the solver it may
    need (made on first use where a curriculum names it)."""

    def __init__(self, opponent: Any, rules: inarow.Rules, learners: Sequence[int] = ()) -> None:
        self.rules = rules
        self.opponent = opponent
        self.learners = tuple(learners)
        self.solver: Any = inarow.Solver() if uses_solver(opponent) else None
        #: Episodes started so far (a curriculum's next index).
        self.episodes = 0
        #: The opponent of the current episode.
        self.current: Any = self._playing

    @property
    def opponent(self) -> Any:
        """What ``opponent=`` was given; assigning checks it, and it takes effect
        at the next episode."""
        return self._given

    @opponent.setter
    def opponent(self, opponent: Any) -> None:
        self._playing = check_opponent(opponent, self.rules)
        self._given = opponent

    @property
    def playing(self) -> Any:
        """The opponent as episodes draw from it (names made into their agents)."""
        return self._playing
