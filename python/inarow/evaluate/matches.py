"""Matches between agents (``inarow.evaluate.match``): natively across threads, or as
chunks of games on a Ray cluster."""

from __future__ import annotations

import operator
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import inarow
from inarow import _native
from inarow._extras import missing
from inarow._native import Board
from inarow._rules import RulesLike, read_rules

from ._agent_calls import check_ray_args, require_picklable
from .intervals import rate, wilson_interval

__all__ = ["MatchResult", "RepeatedGameWarning", "SeatResult", "match"]


@dataclass(frozen=True)
class SeatResult:
    """Results of agent ``a`` over some games: wins, draws, losses (another player won)."""

    games: int
    wins: int
    draws: int
    losses: int
    #: The player number (1-based) ``a`` played; 0 for the whole match.
    seat: int = 0

    @property
    def win_rate(self) -> float:
        return rate(self.wins, self.games)

    @property
    def draw_rate(self) -> float:
        return rate(self.draws, self.games)

    @property
    def loss_rate(self) -> float:
        return rate(self.losses, self.games)

    @property
    def score(self) -> float:
        """(wins + draws / 2) / games."""
        return rate(2 * self.wins + self.draws, self.games) / 2

    @property
    def win_interval(self) -> tuple[float, float]:
        """95% Wilson interval of the win rate."""
        return wilson_interval(self.wins, self.games)

    @property
    def draw_interval(self) -> tuple[float, float]:
        return wilson_interval(self.draws, self.games)

    @property
    def loss_interval(self) -> tuple[float, float]:
        return wilson_interval(self.losses, self.games)

    def _line(self, label: str) -> str:
        lo, hi = self.win_interval
        return (
            f"{label:>8} {self.games:>8} {self.wins:>8} {self.draws:>7} {self.losses:>8}"
            f"   {self.win_rate:6.1%} [{lo:6.1%}, {hi:6.1%}]"
        )


@dataclass(frozen=True)
class MatchResult(SeatResult):
    """The result of :func:`match`, from the point of view of agent ``a``.

    ``seats[i]`` holds ``a``'s results when it played player ``i + 1`` (player 1
    moves first).
    """

    seats: tuple[SeatResult, ...] = ()
    moves: int = 0
    seconds: float = 0.0
    a: str = ""
    b: str = ""
    rules: dict = field(default_factory=dict)
    seed: int = 0
    swap: bool = True
    opening_plies: int = 2
    #: Every game from each seat of ``a`` was one and the same game (deterministic
    #: agents from one opening): the score measures one game per seat.
    repeats_one_game: bool = False

    @property
    def games_per_minute(self) -> float:
        return 60 * self.games / self.seconds if self.seconds > 0 else float("inf")

    def __str__(self) -> str:
        head = (
            f"{'a as':>8} {'games':>8} {'wins':>8} {'draws':>7} {'losses':>8}   win rate [95% CI]"
        )
        rows = [self._line("all")]
        rows += [s._line(f"player {s.seat}") for s in self.seats if s.games]
        return (
            f"a = {self.a}\nb = {self.b}\n{head}\n"
            + "\n".join(rows)
            + f"\nscore of a: {self.score:.3f}; {self.moves} moves in {self.seconds:.2f} s"
        )


class RepeatedGameWarning(UserWarning):
    """A match whose games from each seat were all the same game."""


def _agent_arg(agent: Any, rules: dict) -> Any:
    """An agent, or the agent a name stands for (on these rules, for ``pretrained``)."""
    if not isinstance(agent, str):
        return agent
    return inarow.agents.named(agent, rules=inarow.Rules(**rules))


def _rules_dict(rules: RulesLike) -> dict:
    return read_rules(rules).to_dict()


def _progress_callback(progress: Any, total: int, unit: str) -> tuple[Callable | None, Any]:
    """(callback(done, total) or None, a tqdm bar to close or None)."""
    if progress is None or progress is False:
        return None, None
    if progress is True:
        try:
            from tqdm.auto import tqdm
        except ImportError as e:
            raise missing("progress", "progress=True", e) from e
        bar = tqdm(total=total, unit=unit, unit_scale=True)

        def update(done: int, _total: int) -> None:
            bar.update(done - bar.n)

        return update, bar
    if callable(progress):
        return progress, None
    raise TypeError(
        f"progress must be a bool or a callable progress(done, total), got {type(progress).__name__}"
    )


def _games_arg(games: Any) -> int:
    """``games`` checked as the native match checks it."""
    try:
        n = operator.index(games)
    except TypeError:
        raise TypeError(f"games must be an integer, got {type(games).__name__}") from None
    if isinstance(games, bool) or not 1 <= n <= 2**40:
        raise ValueError(f"games={games!r} is out of range: allowed 1..=2**40")
    return n


def _match_chunk(a: Any, b: Any, first_game: int, games: int, rules: dict, settings: dict) -> Any:
    """A Ray task: games ``first_game .. first_game + games`` of the match."""
    raw = _native.play_match(a, b, games, first_game=first_game, **settings, **rules)
    return raw, raw["seconds"]


def _match_on_ray(
    address: str,
    a: Any,
    b: Any,
    games: int,
    rules: dict,
    settings: dict,
    chunk_games: int | None,
    progress: Callable[[int, int], Any] | None,
) -> dict[str, Any]:
    """The native match's counts, played as chunks of games on a Ray cluster."""
    from inarow._ray import connect, run_chunks

    for agent, name in ((a, "a"), (b, "b")):
        if not callable(agent):
            raise TypeError(
                f"{name} must be an agent: an inarow.agents agent or a callable "
                f"agent(board) -> action, got {type(agent).__name__}: {agent!r}"
            )
        require_picklable(agent, name)
    ray = connect(address, "evaluate.match(ray=...)")
    task = ray.remote(_match_chunk).options(num_cpus=settings["threads"])
    a_ref, b_ref = ray.put(a), ray.put(b)
    start = time.perf_counter()
    parts = run_chunks(
        ray,
        lambda first, n: task.remote(a_ref, b_ref, first, n, rules, settings),
        games,
        chunk_games,
        progress,
    )
    raw = _merge_match_counts([part for _, part in parts], inarow.Rules(**rules).players)
    raw["seconds"] = time.perf_counter() - start
    return raw


def _merge_match_counts(parts: Sequence[dict[str, Any]], players: int) -> dict[str, Any]:
    """The counts of a match from those of its chunks (``repeats_one_game`` as the
    native merge of threads decides it: per seat, whether every game was the first)."""
    out: dict[str, Any] = dict.fromkeys(("games", "wins", "draws", "losses", "moves"), 0)
    seats = [(0, 0, 0, 0)] * players
    first_lines: list[tuple[int, int] | None] = [None] * players
    varied = [False] * players
    for part in parts:
        for key in out:
            out[key] += part[key]
        seats = [tuple(x + y for x, y in zip(s, p)) for s, p in zip(seats, part["seats"])]
        for seat, (line, other_varied) in enumerate(zip(part["first_lines"], part["varied"])):
            varied[seat] |= other_varied
            kept = first_lines[seat]
            if line is None:
                continue
            if kept is None:
                first_lines[seat] = line
                continue
            varied[seat] |= kept[1] != line[1]
            if line[0] < kept[0]:
                first_lines[seat] = line
    out["seats"] = seats
    out["first_lines"] = first_lines
    out["varied"] = varied
    out["repeats_one_game"] = out["games"] > players and not any(varied)
    return out


def match(
    a: Callable[[Board], int],
    b: Callable[[Board], int],
    games: int = 1000,
    rules: RulesLike = None,
    seed: int = 0,
    swap: bool = True,
    threads: int | None = None,
    progress: bool | Callable[[int, int], Any] = False,
    opening_plies: int = 2,
    ray: str | None = None,
    chunk_games: int | None = None,
) -> MatchResult:
    """Plays ``games`` games of agent ``a`` against agent ``b``; ``a``'s results.

    ``a`` and ``b``: agents ``agent(board) -> action``, or the names the envs'
    ``opponent=`` takes (``"negamax:1"``, ``"greedy"``, ``"perfect"``... see
    :data:`inarow.agents.NAMES`; ``"pretrained"`` is the shipped network of these
    rules).

    ``rules``: None (Connect Four), an :class:`inarow.Rules`, ``"connect_four"``,
    ``"tic_tac_toe"``, ``"gomoku"``, a dict of :class:`inarow.Board` arguments, or an
    empty Board.

    Seating: with 2 players ``a`` plays one seat and ``b`` the other; with more,
    ``a`` plays one seat and copies of ``b`` every other seat. ``swap=True`` rotates
    ``a``'s seat with the game index (game ``i``: player ``i % players + 1``, so
    every seat gets the same number of games, up to one); ``swap=False`` keeps
    ``a`` as player 1. A loss is a game another player won.

    Openings: every game starts with ``opening_plies`` uniformly random moves (2 by
    default; the same opening for the games of a round, so each is played from every
    seat). Two deterministic agents from the empty board (``opening_plies=0``) play
    one game per seat over and over; such a match warns
    (:class:`RepeatedGameWarning`) and says so in ``repeats_one_game``.

    Deterministic for ``seed``: in game ``i`` the agent at each seat draws from its
    own stream of ``seed`` (built-in agents' own generators are not used), so the
    result does not depend on ``threads`` (default: all cores). Two built-in agents
    play inside Rust across threads; with a Python callable the games run one by
    one here, and the callable gets a copy of the board and must return a legal
    action (else ``TypeError`` / :class:`inarow.IllegalMoveError` naming it).

    On a Ray cluster: ``ray="local"`` (or ``""``: a new Ray instance on this
    machine), ``"auto"`` (the cluster this machine belongs to) or an address
    plays the games as tasks of ``chunk_games`` games each (default: sized from
    the first tasks to run about two seconds each), each task on ``threads``
    threads (default 1) and as many CPUs; the result is the local run's for the
    same arguments (``seconds`` aside). Agents go to the tasks pickled: a Python
    agent must pickle (else ``TypeError`` naming it), and gets a fresh copy per
    task, so its moves must depend on the board alone (no state kept between
    moves) for the result to equal the local one. ``progress`` then counts the
    games of finished tasks; Ctrl-C cancels the tasks still running.

    Raises ``ValueError`` for ``games`` outside 1..=2**40, ``TypeError`` for agents
    that are not callable, :class:`inarow.UnsupportedRulesError` for a ``perfect``
    agent on rules beyond the solver. Ctrl-C stops the match.
    """
    r = _rules_dict(rules)
    a, b = (_agent_arg(x, r) for x in (a, b))
    if ray is not None:
        check_ray_args(ray, chunk_games, "chunk_games")
        games = _games_arg(games)
    elif chunk_games is not None:
        raise ValueError(f"chunk_games={chunk_games!r} needs ray= (the chunks are Ray tasks)")
    callback, bar = _progress_callback(progress, games if isinstance(games, int) else 0, "game")
    try:
        if ray is None:
            raw = _native.play_match(
                a,
                b,
                games,
                seed=seed,
                swap=swap,
                threads=threads,
                progress=callback,
                opening_plies=opening_plies,
                **r,
            )
        else:
            settings = dict(seed=seed, swap=swap, threads=threads or 1, opening_plies=opening_plies)
            raw = _match_on_ray(ray, a, b, games, r, settings, chunk_games, callback)
    finally:
        if bar is not None:
            bar.close()
    seats = tuple(
        SeatResult(games=g, wins=w, draws=d, losses=lo, seat=i + 1)
        for i, (g, w, d, lo) in enumerate(raw["seats"])
    )
    if raw["repeats_one_game"]:
        warnings.warn(
            f"every game of this match from each seat was the same game ({raw['games']} games, "
            f"opening_plies={opening_plies}): the agents are deterministic, so the score "
            "describes one game per seat; give random openings (opening_plies=2 or more) "
            "for a score of the agents",
            RepeatedGameWarning,
            stacklevel=2,
        )
    return MatchResult(
        games=raw["games"],
        wins=raw["wins"],
        draws=raw["draws"],
        losses=raw["losses"],
        seats=seats,
        moves=raw["moves"],
        seconds=raw["seconds"],
        a=repr(a),
        b=repr(b),
        rules=r,
        seed=seed,
        swap=swap,
        opening_plies=opening_plies,
        repeats_one_game=raw["repeats_one_game"],
    )
