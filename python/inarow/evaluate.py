"""Scoring agents: matches between agents, and move accuracy against the truth.

>>> import inarow
>>> r = inarow.evaluate.match(inarow.agents.greedy(), inarow.agents.random(), games=200)
>>> r.games == r.wins + r.draws + r.losses == 200
True

``match`` plays two agents against each other (natively across threads when both
are built-in agents); ``move_accuracy`` measures how often an agent's move keeps
the best outcome on Pascal Pons' Connect-Four test positions (or any boards),
as AlphaZero.jl and c4a0 report it. Rates come with 95% Wilson intervals.
Both run across a Ray cluster with ``ray=`` (chunks of games or positions as
tasks), with the result of the local run.
"""

from __future__ import annotations

import math
import operator
import os
import random
import time
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import inarow
from inarow import _native
from inarow._native import Agent, Board
from inarow._rules import RulesLike, read_rules

__all__ = [
    "PONS_SETS",
    "AccuracyResult",
    "MatchResult",
    "MissedWin",
    "MissedWinsResult",
    "RepeatedGameWarning",
    "SeatResult",
    "SetAccuracy",
    "judged_lengths",
    "judged_positions",
    "match",
    "missed_wins",
    "move_accuracy",
    "pons_positions",
    "wilson_interval",
]

#: Pascal Pons' six test sets: file name -> the name on his blog.
PONS_SETS: dict[str, str] = {
    "Test_L3_R1": "End-Easy",
    "Test_L2_R1": "Middle-Easy",
    "Test_L2_R2": "Middle-Medium",
    "Test_L1_R1": "Begin-Easy",
    "Test_L1_R2": "Begin-Medium",
    "Test_L1_R3": "Begin-Hard",
}

_Z95 = 1.959963984540054
Rules = RulesLike


def _rate(successes: int, n: int) -> float:
    """successes / n; NaN for n = 0."""
    return successes / n if n else float("nan")


def wilson_interval(successes: int, n: int, z: float = _Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial rate (95% by default); (0, 1) for n = 0."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


# ----------------------------------------------------------------------------- match


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
        return _rate(self.wins, self.games)

    @property
    def draw_rate(self) -> float:
        return _rate(self.draws, self.games)

    @property
    def loss_rate(self) -> float:
        return _rate(self.losses, self.games)

    @property
    def score(self) -> float:
        """(wins + draws / 2) / games."""
        return _rate(2 * self.wins + self.draws, self.games) / 2

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


def _rules_dict(rules: Rules) -> dict:
    return read_rules(rules).to_dict()


def _progress_callback(progress: Any, total: int, unit: str) -> tuple[Callable | None, Any]:
    """(callback(done, total) or None, a tqdm bar to close or None)."""
    if progress is None or progress is False:
        return None, None
    if progress is True:
        try:
            from tqdm.auto import tqdm
        except ImportError as e:
            raise ImportError("progress=True needs tqdm: pip install 'inarow[progress]'") from e
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


def _check_ray_args(ray: Any, chunk: Any, chunk_name: str) -> None:
    if not isinstance(ray, str):
        raise TypeError(
            f'ray must be None (run here), "local", "auto" or a cluster address, got {ray!r}'
        )
    if chunk is not None and (isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1):
        raise ValueError(
            f"{chunk_name}={chunk!r}: allowed None (sized by timing) or an integer >= 1"
        )


def _picklable(agent: Any, name: str) -> None:
    """Raises ``TypeError`` naming ``agent`` if Ray cannot send it to a task."""
    from inarow._ray import ray_module

    cloudpickle = ray_module("evaluate's ray=").cloudpickle
    try:
        cloudpickle.dumps(agent)
    except Exception as e:  # noqa: BLE001 (pickling raises many kinds)
        raise TypeError(
            f"agent {name} ({agent!r}) cannot go to Ray tasks: it does not pickle "
            f"({type(e).__name__}: {e}); give a picklable callable (a function, or an "
            "object whose attributes pickle), or run with ray=None"
        ) from e


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
        _picklable(agent, name)
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
    rules: Rules = None,
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
        _check_ray_args(ray, chunk_games, "chunk_games")
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


# --------------------------------------------------------------------- move accuracy


@dataclass(frozen=True)
class SetAccuracy:
    """Move accuracy over one set of positions.

    ``good``: moves that keep the best win/draw/loss outcome of the position;
    ``perfect``: moves with the best exact score (a subset of the good ones).
    """

    name: str
    positions: int
    good: int
    perfect: int

    @property
    def good_rate(self) -> float:
        return _rate(self.good, self.positions)

    @property
    def perfect_rate(self) -> float:
        return _rate(self.perfect, self.positions)

    @property
    def good_interval(self) -> tuple[float, float]:
        """95% Wilson interval of the good-move rate."""
        return wilson_interval(self.good, self.positions)

    @property
    def perfect_interval(self) -> tuple[float, float]:
        return wilson_interval(self.perfect, self.positions)

    def _line(self) -> str:
        label = self.name + (f" ({PONS_SETS[self.name]})" if self.name in PONS_SETS else "")
        return f"{label:<28} {self.positions:>9} {self.good_rate:10.1%} {self.perfect_rate:13.1%}"


@dataclass(frozen=True)
class AccuracyResult:
    """The result of :func:`move_accuracy`: per set and overall."""

    sets: dict[str, SetAccuracy]
    overall: SetAccuracy
    #: Time spent choosing the agent's moves, and computing the truth where needed.
    agent_seconds: float = 0.0
    truth_seconds: float = 0.0

    @property
    def good_rate(self) -> float:
        return self.overall.good_rate

    @property
    def perfect_rate(self) -> float:
        return self.overall.perfect_rate

    def __str__(self) -> str:
        head = f"{'set':<28} {'positions':>9} {'good':>10} {'perfect':>13}"
        lines = [s._line() for s in self.sets.values()] + [self.overall._line()]
        return head + "\n" + "\n".join(lines)


def _pons_dir() -> Path:
    """Where the Pons sets and their analyses ship inside the package."""
    return Path(str(resources.files("inarow") / "data" / "connect4-pons"))


@dataclass(frozen=True)
class PonsPosition:
    """One test position: Pons' 1-based move string, its score, the exact score of
    each column (``None`` where illegal; ``None`` as a whole if no analysis ships)."""

    moves: str
    score: int
    analysis: tuple[int | None, ...] | None


def _read_analysis(path: Path, lines: Sequence[str]) -> list[tuple[int | None, ...] | None]:
    """The shipped analysis of each of ``lines`` (None past the end of a file that a
    generation run has not finished, or for every line without a file)."""
    rows = path.read_text().splitlines() if path.is_file() else []
    out: list[tuple[int | None, ...] | None] = []
    for i, moves in enumerate(lines):
        if i >= len(rows):
            out.append(None)
            continue
        fields = rows[i].split()
        if len(fields) != 8 or fields[0] != moves:
            raise ValueError(
                f"{path} line {i + 1} is corrupt: expected {moves!r} and 7 scores, got {rows[i]!r}"
            )
        out.append(tuple(None if f == "." else int(f) for f in fields[1:]))
    return out


def pons_positions(per_set: int | None = None) -> dict[str, list[PonsPosition]]:
    """Pascal Pons' six Connect-Four test sets (1000 positions each) with the shipped
    per-column exact analyses (``python/inarow/data/connect4-pons``); ``per_set``
    keeps the first positions of each set."""
    directory = _pons_dir()
    out: dict[str, list[PonsPosition]] = {}
    for name in PONS_SETS:
        path = directory / name
        if not path.is_file():
            raise FileNotFoundError(
                f"Pons' test set {name} is missing from {directory} (a broken installation?)"
            )
        entries = [line.split() for line in path.read_text().splitlines() if line.strip()]
        if per_set is not None:
            entries = entries[:per_set]
        moves = [e[0] for e in entries]
        analysis = _read_analysis(directory / f"{name}.analysis", moves)
        out[name] = [
            PonsPosition(m, int(e[1]), known) for m, e, known in zip(moves, entries, analysis)
        ]
    return out


#: Truths computed for Pons positions without a shipped analysis, kept for the process
#: (move string -> per-column scores), so scoring several agents solves each once.
_COMPUTED_PONS: dict[str, tuple[int | None, ...]] = {}


def _bar(wanted: bool | None, total: int, desc: str) -> Any:
    """A tqdm bar of positions: always for ``True`` (tqdm needed), for ``None`` where
    tqdm is installed and there is work, never for ``False``."""
    if wanted is True or (wanted is None and total > 0):
        try:
            from tqdm.auto import tqdm
        except ImportError as e:
            if wanted is True:
                raise ImportError("progress=True needs tqdm: pip install 'inarow[progress]'") from e
        else:
            return tqdm(total=total, unit="position", desc=desc)
    return None


def _analyze_all(
    boards: Sequence[Board], solver: Any, bar_wanted: bool | None, label: str
) -> list[tuple[int | None, ...]]:
    """The exact analysis of every board, with a progress bar where wanted."""
    bar = _bar(bar_wanted, len(boards), f"solving {label}")
    try:
        out = []
        for board in boards:
            out.append(tuple(solver.analyze(board)))
            if bar is not None:
                bar.update(1)
        return out
    finally:
        if bar is not None:
            bar.close()


def _choose_with_bar(
    on_ray: _RayActions, boards: Sequence[Board], bar_wanted: bool | None, label: str
) -> list[int]:
    """The Ray tasks' actions, with a progress bar of the positions where wanted (as
    for the truth: ``True`` always, ``None`` where tqdm is installed)."""
    bar = _bar(bar_wanted, len(boards), f"choosing {label}")
    try:
        on_done = None if bar is None else (lambda done, _total: bar.update(done - bar.n))
        return on_ray(boards, on_done)
    finally:
        if bar is not None:
            bar.close()


def _agent_actions(
    agent: Any, boards: Sequence[Board], threads: int | None, first: int = 0
) -> list[int]:
    """The agent's action on each board; ``first``: the index of ``boards[0]`` in the
    set (errors name positions by it)."""
    if isinstance(agent, Agent):
        return agent.actions(boards, threads=threads)
    if not callable(agent):
        raise TypeError(
            "agent must be an inarow.agents agent or a callable agent(board) -> action, "
            f"got {type(agent).__name__}"
        )
    batched = getattr(agent, "actions", None)
    # An agent with a batched ``actions(boards)`` (a network agent) chooses for all at once.
    chosen = list(batched([b.copy() for b in boards])) if callable(batched) else None
    if chosen is not None and len(chosen) != len(boards):
        raise ValueError(
            f"agent {agent!r}.actions returned {len(chosen)} actions for {len(boards)} boards"
        )
    out = []
    for i, board in enumerate(boards):
        action = agent(board.copy()) if chosen is None else chosen[i]
        if isinstance(action, bool) or not hasattr(action, "__index__"):
            raise TypeError(
                f"agent {agent!r} returned {action!r} ({type(action).__name__}) on position "
                f"{first + i}: an agent must return an integer action"
            )
        if not board.is_legal(action):
            raise inarow.IllegalMoveError(
                f"agent {agent!r} returned an illegal action {action!r} on position {first + i}: "
                f"legal actions {board.legal_moves()}"
            )
        out.append(int(action))
    return out


def _actions_chunk(
    agent: Any, boards: list[Board], threads: int, seed: int | None, first: int
) -> tuple[list[int], float]:
    """A Ray task: the agent's actions on positions ``first ..`` of a set (a built-in
    agent draws from streams ``first ..`` of ``seed``, as one call on the set does)."""
    start = time.perf_counter()
    if isinstance(agent, Agent):
        actions = agent.actions(boards, threads=threads, seed=seed, first_stream=first)
    else:
        actions = _agent_actions(agent, boards, threads, first)
    return actions, time.perf_counter() - start


class _RayActions:
    """Chooses the agent's actions on a Ray cluster, a chunk of positions per task,
    with the actions a local call gives."""

    def __init__(self, address: str, agent: Any, threads: int, chunk: int | None) -> None:
        from inarow._ray import connect

        if not callable(agent):
            raise TypeError(
                "agent must be an inarow.agents agent or a callable agent(board) -> action, "
                f"got {type(agent).__name__}"
            )
        _picklable(agent, "agent")
        self.ray = connect(address, "evaluate.move_accuracy(ray=...)")
        self.agent = agent
        self.agent_ref = self.ray.put(agent)
        self.task = self.ray.remote(_actions_chunk).options(num_cpus=threads)
        self.threads, self.chunk = threads, chunk

    def __call__(self, boards: Sequence[Board], on_done: Callable | None) -> list[int]:
        from inarow._ray import run_chunks

        # One seed per set, drawn here as a local `agent.actions(boards)` draws it.
        seed = self.agent.draw_seed() if isinstance(self.agent, Agent) else None
        parts = run_chunks(
            self.ray,
            lambda first, n: self.task.remote(
                self.agent_ref, list(boards[first : first + n]), self.threads, seed, first
            ),
            len(boards),
            self.chunk,
            on_done,
        )
        return [action for _, actions in parts for action in actions]


def _named_sets(positions: Any) -> dict[str, list[Board]]:
    if isinstance(positions, Mapping):
        return {str(name): list(boards) for name, boards in positions.items()}
    if isinstance(positions, (str, bytes)):
        raise ValueError(f'positions={positions!r}: allowed "pons", boards, or a dict of them')
    if isinstance(positions, Iterable):
        return {"positions": list(positions)}
    raise TypeError(
        f'positions must be "pons", an iterable of Boards or a dict of them, got {type(positions).__name__}'
    )


#: Positions per set of :func:`judged_positions` unless ``per_set`` says otherwise.
JUDGED_PER_SET = 100

#: The seed of :func:`judged_positions`: the same openings in every process.
JUDGED_SEED = 31

#: Truths computed for judged positions, kept for the process ((rules, cells) ->
#: per-action scores), so scoring several agents solves each position once.
_JUDGED_TRUTH: dict[tuple[Any, ...], tuple[int | None, ...]] = {}


def judged_lengths(rules: RulesLike) -> list[int]:
    """The opening lengths (stones on the board) of :func:`judged_positions`: about
    an eighth, a quarter, three eighths and half of the cells (at least 1, distinct)."""
    r = read_rules(rules)
    cells = r.width * r.height
    return sorted({max(1, cells * eighths // 8) for eighths in (1, 2, 3, 4)})


def judged_positions(
    rules: RulesLike, per_set: int | None = None, seed: int = JUDGED_SEED
) -> dict[str, list[Board]]:
    """Random openings of ``rules`` to judge agents on, one set per length of
    :func:`judged_lengths` (named ``"plies N"``): ``per_set`` distinct positions
    each (default :data:`JUDGED_PER_SET`; fewer where fewer exist), reached by
    uniformly random moves from the empty board and not over, drawn with ``seed``
    (the same boards every time). ``ValueError`` for bad ``rules``."""
    r = read_rules(rules)
    wanted = JUDGED_PER_SET if per_set is None else per_set
    rng = random.Random(seed)
    out: dict[str, list[Board]] = {}
    for plies in judged_lengths(r):
        boards: list[Board] = []
        seen: set[tuple[int, ...]] = set()
        # Distinct openings are drawn until enough or the draws stop finding new ones.
        for _ in range(wanted * 20):
            if len(boards) == wanted:
                break
            board = Board(rules=r)
            while board.num_stones < plies and not board.is_over:
                board.move(rng.choice(board.legal_moves()))
            cells = tuple(board.to_numpy().ravel().tolist())
            if board.is_over or cells in seen:
                continue
            seen.add(cells)
            boards.append(board)
        out[f"plies {plies}"] = boards
    return out


def _judged_key(board: Board) -> tuple[Any, ...]:
    return (board.rules, tuple(board.to_numpy().ravel().tolist()))


def move_accuracy(
    agent: Callable[[Board], int],
    positions: str | Iterable[Board] | Mapping[str, Iterable[Board]] = "pons",
    per_set: int | None = None,
    solver: inarow.Solver | None = None,
    threads: int | None = None,
    progress: bool | None = None,
    rules: RulesLike = None,
    ray: str | None = None,
    chunk_positions: int | None = None,
) -> AccuracyResult:
    """How often ``agent``'s move keeps the best outcome (good-move rate) and has the
    best exact score (perfect-move rate), per set and overall.

    ``positions``: ``"pons"`` (Pascal Pons' six sets, 6000 Connect-Four positions,
    with the exact analyses shipped in the package), an iterable of
    :class:`inarow.Board` (one set named ``"positions"``) or a dict of named
    iterables. With ``rules`` (any rules the solver covers, e.g. ``"tic_tac_toe"``
    or ``dict(width=5, height=5, k=4, gravity=False)``) and ``positions`` left out:
    the random openings of :func:`judged_positions`, a set per opening length, their
    truth solved once per process. ``per_set`` keeps the first positions of each
    set. Where no analysis
    ships, the truth is computed with ``solver`` (default: ``inarow.Solver`` on all
    cores) with a progress bar if tqdm is installed (``progress=False``: never a
    bar; ``True``: always). Built-in agents choose across ``threads``; a Python
    callable is called on a copy of each board and must return a legal action; one
    with an ``actions(boards)`` method (``inarow.agents.pretrained``) gets every
    board of a set in one call.
    Boards must suit the solver (2 players; with gravity ``width * (height + 1) <=
    64``, without gravity at most 64 cells) and not be over.

    ``ray`` (``"local"`` or ``""``, ``"auto"``, or an address, as in :func:`match`):
    the agent chooses on a Ray cluster, ``chunk_positions`` positions per task
    (default: sized from the first tasks to run about two seconds each) on
    ``threads`` threads (default 1), with the local run's result; the truth stays
    here. The agent goes to the tasks pickled (``TypeError`` naming it if it does
    not pickle); a built-in agent draws one seed per set as a local run does.
    """
    if ray is not None:
        _check_ray_args(ray, chunk_positions, "chunk_positions")
    elif chunk_positions is not None:
        raise ValueError(
            f"chunk_positions={chunk_positions!r} needs ray= (the chunks are Ray tasks)"
        )
    if per_set is not None and (
        isinstance(per_set, bool) or not isinstance(per_set, int) or per_set < 1
    ):
        raise ValueError(f"per_set={per_set!r}: allowed None or an integer >= 1")
    judged = rules is not None
    if judged:
        if not (isinstance(positions, str) and positions == "pons"):
            raise ValueError("give rules= (judged random openings) or positions=, not both")
        r = read_rules(rules)
        if not inarow.Solver.supports(r):
            raise inarow.UnsupportedRulesError(
                f"rules={r!r}: the solver does not cover them (2 players; with gravity "
                "width * (height + 1) <= 64, without gravity at most 64 cells)"
            )
        positions = judged_positions(r, per_set)
    if not judged and positions == "pons":
        pons = pons_positions(per_set)
        sets = {name: [Board.from_pons(p.moves) for p in ps] for name, ps in pons.items()}
        shipped = {name: [p.analysis for p in ps] for name, ps in pons.items()}
        pons_moves: dict[str, list[str]] | None = {
            name: [p.moves for p in ps] for name, ps in pons.items()
        }
    else:
        sets = _named_sets(positions)
        pons_moves = None
        if per_set is not None:
            sets = {name: boards[:per_set] for name, boards in sets.items()}
        shipped = {}
        for name, boards in sets.items():
            for i, board in enumerate(boards):
                if not isinstance(board, Board):
                    raise TypeError(
                        f"positions[{name!r}][{i}] must be an inarow.Board, got {type(board).__name__}"
                    )
                if board.is_over:
                    raise ValueError(f"positions[{name!r}][{i}]: the game is over")
    truth_seconds = agent_seconds = 0.0
    results = {}
    own_solver = None
    on_ray = None if ray is None else _RayActions(ray, agent, threads or 1, chunk_positions)
    for name, boards in sets.items():
        t0 = time.perf_counter()
        truth = list(shipped.get(name) or [None] * len(boards))
        if pons_moves is not None:
            for i, moves in enumerate(pons_moves[name]):
                truth[i] = truth[i] or _COMPUTED_PONS.get(moves)
        if judged:
            for i, board in enumerate(boards):
                truth[i] = _JUDGED_TRUTH.get(_judged_key(board))
        missing = [i for i, known in enumerate(truth) if known is None]
        if missing:
            if solver is None and own_solver is None:
                own_solver = inarow.Solver(threads=min(os.cpu_count() or 1, 64))
            solved = _analyze_all(
                [boards[i] for i in missing], solver or own_solver, progress, name
            )
            for i, scores in zip(missing, solved):
                truth[i] = scores
                if pons_moves is not None:
                    _COMPUTED_PONS[pons_moves[name][i]] = scores
                if judged:
                    _JUDGED_TRUTH[_judged_key(boards[i])] = scores
        t1 = time.perf_counter()
        if on_ray is None:
            actions = _agent_actions(agent, boards, threads)
        else:
            actions = _choose_with_bar(on_ray, boards, progress, name)
        t2 = time.perf_counter()
        truth_seconds += t1 - t0
        agent_seconds += t2 - t1
        good = perfect = 0
        analyses = [scores for scores in truth if scores is not None]
        for scores, action in zip(analyses, actions, strict=True):
            best = max(s for s in scores if s is not None)
            mine = scores[action]
            if mine is None:  # the shipped analysis disagrees with the board
                raise ValueError(f"set {name}: the analysis marks legal action {action} illegal")
            good += (mine > 0) - (mine < 0) == (best > 0) - (best < 0)
            perfect += mine == best
        results[name] = SetAccuracy(name, len(boards), good, perfect)
    total = SetAccuracy(
        "overall",
        sum(s.positions for s in results.values()),
        sum(s.good for s in results.values()),
        sum(s.perfect for s in results.values()),
    )
    return AccuracyResult(results, total, agent_seconds, truth_seconds)


# --------------------------------------------------------------------- missed forced wins


@dataclass(frozen=True)
class MissedWin:
    """A position where the agent missed a forced win: ``action`` is not the first
    move of any win of the kind, and ``win`` is one (see :func:`inarow.threats.find_win`)."""

    index: int
    board: Board
    action: int
    win: list[int]


@dataclass(frozen=True)
class MissedWinsResult:
    """How often an agent missed the forced wins of ``positions``."""

    positions: int
    #: Positions holding a forced win of the kind for the side to move.
    wins: int
    missed: list[MissedWin]
    kind: str

    @property
    def miss_rate(self) -> float:
        """Missed wins per position holding one (0.0 when none does)."""
        return _rate(len(self.missed), self.wins)

    @property
    def miss_interval(self) -> tuple[float, float]:
        return wilson_interval(len(self.missed), self.wins)

    def __str__(self) -> str:
        lo, hi = self.miss_interval
        return (
            f"{self.kind} wins in {self.wins} of {self.positions} positions; missed "
            f"{len(self.missed)}: {self.miss_rate:.1%} [{lo:.1%}, {hi:.1%}]"
        )


def missed_wins(
    agent: Callable[[Board], int],
    positions: Iterable[Board],
    kind: str = "vcf",
    max_depth: int | None = None,
    max_nodes: int | None = None,
    threads: int | None = None,
) -> MissedWinsResult:
    """Where ``agent`` missed a forced win: on each board (free placement, 2
    players) that holds a win of ``kind`` (``"vcf"`` or ``"vct"``, see
    :mod:`inarow.threats`) for the side to move, whether the agent's move is the
    first move of such a win (or completes a line at once). A move that wins in
    some other way than the kind's threats counts as missed.

    ``max_depth`` and ``max_nodes`` bound the searches as in
    :func:`inarow.threats.find_win`. Built-in agents choose for all boards across
    ``threads``. Raises ``TypeError`` for a position that is not a Board, and what
    ``find_win`` raises (finished games, ``"vct"`` on gravity boards, other than 2 players).

    >>> import inarow
    >>> board = inarow.Board(width=15, height=15, k=5, gravity=False)
    >>> for action in [7 * 15 + 5, 0, 7 * 15 + 6, 14, 7 * 15 + 7, 14 * 15]:
    ...     _ = board.move(action)
    >>> r = inarow.evaluate.missed_wins(inarow.agents.random(seed=0), [board])
    >>> r.wins, len(r.missed)
    (1, 1)
    """
    from inarow.threats import find_win, winning_moves

    boards = list(positions)
    for i, board in enumerate(boards):
        if not isinstance(board, Board):
            raise TypeError(f"positions[{i}] must be an inarow.Board, got {type(board).__name__}")
    lines = [find_win(b, kind, max_depth, max_nodes) for b in boards]
    holding = [i for i, line in enumerate(lines) if line is not None]
    actions = _agent_actions(agent, [boards[i] for i in holding], threads)
    missed = []
    for i, action in zip(holding, actions):
        if action not in winning_moves(boards[i], kind, max_depth, max_nodes):
            missed.append(MissedWin(i, boards[i].copy(), action, lines[i]))
    return MissedWinsResult(len(boards), len(holding), missed, kind)
