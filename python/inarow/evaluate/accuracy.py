"""Move accuracy (``inarow.evaluate.move_accuracy``): how often an agent's move keeps
the best outcome, against shipped or solved truths."""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import inarow
from inarow._extras import missing
from inarow._native import Agent, Board
from inarow._rules import RulesLike, read_rules

from . import judged as _judged
from . import pons as _pons
from ._agent_calls import agent_actions, check_ray_args, require_picklable
from .intervals import rate, wilson_interval
from .judged import judged_positions
from .pons import PONS_SETS, pons_positions

__all__ = ["AccuracyResult", "SetAccuracy", "move_accuracy"]


@dataclass(frozen=True)
class SetAccuracy:
    """Move accuracy over one set of positions.

    ``good``: moves that keep the best win/draw/loss outcome of the position;
    ``perfect``: moves with the best exact score (a subset of the good ones).
    ``good_by_position``: for each position in order, whether the move was good;
    ``positions_digest``: a digest of the positions judged. Both are what
    :func:`inarow.evaluate.compare_accuracy` pairs two agents' results by (empty
    where a result was built by hand). ``random_good``: the good moves a uniformly
    random agent makes on these positions in expectation (the sum over positions
    of good moves / legal moves, exact): the floor the good-move rate is read
    against (on Pons' sets 65.1% overall; ``greedy`` makes 78.0%).
    """

    name: str
    positions: int
    good: int
    perfect: int
    good_by_position: tuple[bool, ...] = field(default=(), repr=False)
    positions_digest: str = field(default="", repr=False)
    random_good: float = 0.0

    @property
    def good_rate(self) -> float:
        return rate(self.good, self.positions)

    @property
    def random_good_rate(self) -> float:
        """A uniformly random agent's expected good-move rate on these positions."""
        return self.random_good / self.positions if self.positions else float("nan")

    @property
    def perfect_rate(self) -> float:
        return rate(self.perfect, self.positions)

    @property
    def good_interval(self) -> tuple[float, float]:
        """95% Wilson interval of the good-move rate."""
        return wilson_interval(self.good, self.positions)

    @property
    def perfect_interval(self) -> tuple[float, float]:
        return wilson_interval(self.perfect, self.positions)

    def _line(self) -> str:
        label = self.name + (f" ({PONS_SETS[self.name]})" if self.name in PONS_SETS else "")
        return (
            f"{label:<28} {self.positions:>9} {self.good_rate:10.1%} {self.perfect_rate:13.1%}"
            f" {self.random_good_rate:12.1%}"
        )


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
        head = f"{'set':<28} {'positions':>9} {'good':>10} {'perfect':>13} {'random good':>12}"
        lines = [s._line() for s in self.sets.values()] + [self.overall._line()]
        return head + "\n" + "\n".join(lines)


def _digest(parts: Iterable[bytes]) -> str:
    """A 128-bit digest of ``parts`` in order, each length-prefixed."""
    h = hashlib.blake2b(digest_size=16)
    for part in parts:
        h.update(len(part).to_bytes(8, "little"))
        h.update(part)
    return h.hexdigest()


def _bar(wanted: bool | None, total: int, desc: str) -> Any:
    """A tqdm bar of positions: always for ``True`` (tqdm needed), for ``None`` where
    tqdm is installed and there is work, never for ``False``."""
    if wanted is True or (wanted is None and total > 0):
        try:
            from tqdm.auto import tqdm
        except ImportError as e:
            if wanted is True:
                raise missing("progress", "progress=True", e) from e
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


def _actions_chunk(
    agent: Any, boards: list[Board], threads: int, seed: int | None, first: int
) -> tuple[list[int], float]:
    """A Ray task: the agent's actions on positions ``first ..`` of a set (a built-in
    agent draws from streams ``first ..`` of ``seed``, as one call on the set does)."""
    start = time.perf_counter()
    if isinstance(agent, Agent):
        actions = agent.actions(boards, threads=threads, seed=seed, first_stream=first)
    else:
        actions = agent_actions(agent, boards, threads, first)
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
        require_picklable(agent, "agent")
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
    seed: int | None = None,
    lengths: Iterable[int] | None = None,
) -> AccuracyResult:
    """How often ``agent``'s move keeps the best outcome (good-move rate) and has the
    best exact score (perfect-move rate), per set and overall.

    ``positions``: ``"pons"`` (Pascal Pons' six sets, 6000 Connect-Four positions,
    with the exact analyses shipped in the package), an iterable of
    :class:`inarow.Board` (one set named ``"positions"``) or a dict of named
    iterables. With ``rules`` (any rules the solver covers, e.g. ``"tic_tac_toe"``
    or ``dict(width=5, height=5, k=4, gravity=False)``) and ``positions`` left out:
    the random openings of :func:`judged_positions`, a set per opening length, their
    truth solved once per process; ``seed`` and ``lengths`` choose other openings
    (fresh seeds for a measurement not tuned on the default ones), as
    :func:`judged_positions` takes them. ``per_set`` keeps the first positions of each
    set. Where no analysis
    ships, the truth is computed with ``solver`` (default: ``inarow.Solver`` on all
    cores) with a progress bar if tqdm is installed (``progress=False``: never a
    bar; ``True``: always). Built-in agents choose across ``threads``; a Python
    callable is called on a copy of each board and must return a legal action; one
    with an ``actions(boards)`` method (``inarow.agents.pretrained``) gets every
    board of a set in one call.
    Boards must suit the solver (2 players; with gravity ``width * (height + 1) <=
    64``, without gravity at most 128 cells) and not be over.

    ``ray`` (``"local"`` or ``""``, ``"auto"``, or an address, as in :func:`match`):
    the agent chooses on a Ray cluster, ``chunk_positions`` positions per task
    (default: sized from the first tasks to run about two seconds each) on
    ``threads`` threads (default 1), with the local run's result; the truth stays
    here. The agent goes to the tasks pickled (``TypeError`` naming it if it does
    not pickle); a built-in agent draws one seed per set as a local run does.
    """
    if ray is not None:
        check_ray_args(ray, chunk_positions, "chunk_positions")
    elif chunk_positions is not None:
        raise ValueError(
            f"chunk_positions={chunk_positions!r} needs ray= (the chunks are Ray tasks)"
        )
    if per_set is not None and (
        isinstance(per_set, bool) or not isinstance(per_set, int) or per_set < 1
    ):
        raise ValueError(f"per_set={per_set!r}: allowed None or an integer >= 1")
    judged = rules is not None
    if not judged and (seed is not None or lengths is not None):
        raise ValueError(
            f"seed={seed!r}, lengths={lengths!r}: these choose the random openings of rules=; "
            "give rules= with them"
        )
    if judged:
        if not (isinstance(positions, str) and positions == "pons"):
            raise ValueError("give rules= (judged random openings) or positions=, not both")
        r = read_rules(rules)
        if not inarow.Solver.supports(r):
            raise inarow.UnsupportedRulesError(
                f"rules={r!r}: the solver does not cover them (2 players; with gravity "
                "width * (height + 1) <= 64, without gravity at most 128 cells)"
            )
        openings_seed = _judged.JUDGED_SEED if seed is None else seed
        positions = judged_positions(r, per_set, seed=openings_seed, lengths=lengths)
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
        keys = [_judged.position_key(board) for board in boards]
        if pons_moves is not None:
            for i, moves in enumerate(pons_moves[name]):
                truth[i] = truth[i] or _pons.computed_truth(moves)
        else:
            # Other sets' truth is kept by position (Pons' by its own cache), so
            # that agents judged in turn on the same boards solve each one once.
            for i, key in enumerate(keys):
                truth[i] = truth[i] or _judged.known_truth(key)
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
                    _pons.remember_truth(pons_moves[name][i], scores)
                else:
                    _judged.remember_truth(keys[i], scores)
        t1 = time.perf_counter()
        if on_ray is None:
            actions = agent_actions(agent, boards, threads)
        else:
            actions = _choose_with_bar(on_ray, boards, progress, name)
        t2 = time.perf_counter()
        truth_seconds += t1 - t0
        agent_seconds += t2 - t1
        perfect = 0
        random_good = 0.0
        good_by_position = []
        analyses = [scores for scores in truth if scores is not None]
        for scores, action in zip(analyses, actions, strict=True):
            best = max(s for s in scores if s is not None)
            mine = scores[action]
            if mine is None:  # the shipped analysis disagrees with the board
                raise ValueError(f"set {name}: the analysis marks legal action {action} illegal")
            good_by_position.append((mine > 0) - (mine < 0) == (best > 0) - (best < 0))
            perfect += mine == best
            legal = [x for x in scores if x is not None]
            good = sum((x > 0) - (x < 0) == (best > 0) - (best < 0) for x in legal)
            random_good += good / len(legal)
        results[name] = SetAccuracy(
            name,
            len(boards),
            sum(good_by_position),
            perfect,
            tuple(good_by_position),
            _digest(repr(key).encode() for key in keys),
            random_good,
        )
    total = SetAccuracy(
        "overall",
        sum(s.positions for s in results.values()),
        sum(s.good for s in results.values()),
        sum(s.perfect for s in results.values()),
        tuple(flag for s in results.values() for flag in s.good_by_position),
        _digest(f"{s.name}:{s.positions_digest}".encode() for s in results.values()),
        sum(s.random_good for s in results.values()),
    )
    return AccuracyResult(results, total, agent_seconds, truth_seconds)
