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
from .openings import OpeningSet, OpeningsLike, opening_set

__all__ = [
    "KeptGame",
    "MatchResult",
    "OpeningValues",
    "RepeatedGameWarning",
    "SeatResult",
    "match",
]


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
class OpeningValues:
    """What a match's openings decided before the agents played, where the solver
    covers the rules: the games whose opening position is won, drawn or lost for
    ``a``'s seat under perfect play from both sides."""

    games: int
    won: int
    drawn: int
    lost: int

    @property
    def score(self) -> float:
        """(won + drawn / 2) / games: what perfect play scores from these openings
        against a perfect opponent, the most any agent can score against one."""
        return rate(2 * self.won + self.drawn, self.games) / 2

    def __str__(self) -> str:
        return (
            f"{self.won} won, {self.drawn} drawn, {self.lost} lost under perfect play "
            f"(score {self.score:.3f})"
        )


@dataclass(frozen=True)
class KeptGame:
    """A game a match kept (``keep_games=``): its moves, the opening's first, as
    :meth:`inarow.Board.from_moves` takes them (columns with gravity, ``row * width
    + col`` without), and which opening began it."""

    #: Its index in the match (game ``i`` of ``match(..., seed=s)`` replays it).
    index: int
    #: The player number (1-based) ``a`` played.
    seat: int
    #: The winner (1-based), 0 for a draw.
    winner: int
    moves: tuple[int, ...]
    #: The moves that opened it (the first ``opening_plies`` of ``moves``).
    opening_plies: int
    rules: dict = field(default_factory=dict)
    #: The opening's label in the match's set of openings (``"1D-kansei"``,
    #: ``"openings[3]"``); ``""`` for a random opening.
    opening: str = ""

    @property
    def result(self) -> str:
        """``"win"``, ``"draw"`` or ``"loss"``, for ``a``."""
        if self.winner == 0:
            return "draw"
        return "win" if self.winner == self.seat else "loss"

    def board(self, plies: int | None = None) -> Board:
        """The board after the first ``plies`` moves (default: all, the final position)."""
        moves = self.moves if plies is None else self.moves[:plies]
        return Board.from_moves(moves, rules=inarow.Rules(**self.rules))


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
    #: The random moves that opened each round's games (0 with a set of openings).
    opening_plies: int = 2
    #: Every game from each seat of ``a`` was one and the same game (deterministic
    #: agents from one opening): the score measures one game per seat.
    repeats_one_game: bool = False
    #: The set of openings the games began with, as ``openings=`` named it (a book's
    #: name such as ``"renju-26"``, or ``"N openings given"``); None: random openings
    #: of ``opening_plies`` moves.
    openings: str | None = None
    #: Where the solver covers the rules: what the openings decided for ``a``'s
    #: seat (None where it was not computed: see ``opening_values=`` of :func:`match`).
    opening_values: OpeningValues | None = None
    #: A perfect player's results in ``a``'s place: the same games (openings, seats,
    #: seeds) against the same ``b`` (None where not played: ``reference=``).
    reference: SeatResult | None = None
    #: The games kept with ``keep_games=``, by index.
    kept: tuple[KeptGame, ...] = ()

    @property
    def opening_text(self) -> str:
        """How the games opened, in words: the set, or the random plies."""
        seats = "from every seat" if self.swap else "a moving first"
        if self.openings is not None:
            return f"{self.openings}, each opening in turn {seats}"
        return f"{self.opening_plies} random plies, each opening {seats}"

    @property
    def _openings_short(self) -> str:
        return self.openings or f"{self.opening_plies} random plies"

    @property
    def games_per_minute(self) -> float:
        return 60 * self.games / self.seconds if self.seconds > 0 else float("inf")

    def __str__(self) -> str:
        head = (
            f"{'a as':>8} {'games':>8} {'wins':>8} {'draws':>7} {'losses':>8}   win rate [95% CI]"
        )
        rows = [self._line("all")]
        rows += [s._line(f"player {s.seat}") for s in self.seats if s.games]
        text = (
            f"a = {self.a}\nb = {self.b}\nopenings: {self.opening_text}\n{head}\n"
            + "\n".join(rows)
            + f"\nscore of a: {self.score:.3f}; {self.moves} moves in {self.seconds:.2f} s"
        )
        if self.reference is not None:
            r = self.reference
            text += (
                f"\nscore of a perfect player in a's place: {r.score:.3f} "
                f"({r.wins} won, {r.draws} drawn, {r.losses} lost: the same openings and b)"
            )
        if self.opening_values is not None:
            o = self.opening_values
            text += (
                f"\nthe openings ({self._openings_short}) were, for a's seat: "
                f"{o.won} won, {o.drawn} drawn, {o.lost} lost under perfect play "
                f"(the most any agent can score against a perfect b: {o.score:.3f})"
            )
        return text


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
        bar = tqdm(total=total, unit=unit)  # whole games: no unit_scale (20.0/20.0)

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
    raw = _native.play_match(
        a, b, games, first_game=first_game, **settings, rules=inarow.Rules(**rules)
    )
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
    out["kept"] = sorted((g for part in parts for g in part.get("kept", ())), key=lambda g: g[0])
    return out


def match(
    a: Callable[[Board], int],
    b: Callable[[Board], int],
    games: int | None = None,
    rules: RulesLike = None,
    seed: int = 0,
    swap: bool = True,
    threads: int | None = None,
    progress: bool | Callable[[int, int], Any] = False,
    opening_plies: int | None = None,
    ray: str | None = None,
    chunk_games: int | None = None,
    keep_games: bool | str = False,
    openings: OpeningsLike | None = None,
    opening_values: bool | None = None,
    reference: bool | None = None,
) -> MatchResult:
    """Plays ``games`` games of agent ``a`` against agent ``b``; ``a``'s results.
    ``games``: by default 1000, or with a set of ``openings`` one round per opening
    (each opening once from every seat).

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

    ``openings=``: a fixed set of openings instead, for boards where random moves
    leave one side lost (15x15 gomoku): a shipped book's name (``"freestyle-15"``: 50
    balanced centre openings; ``"renju-26"``: the 26 canonical renju openings; both
    for 15x15, see :mod:`inarow.tournament.book`) or a book file's path, a book's
    openings (``inarow.tournament.load_book``), or a sequence of move sequences
    (actions). Round ``r`` (the ``players`` games of a round seat ``a`` at every seat
    in turn; without ``swap`` every game is a round) opens with opening ``r %
    len(set)``, so ``games = len(set) * players`` (the default) plays each opening
    once from every seat; more games cycle through the set again (deterministic
    agents then replay the same games). Every opening is played under ``rules``
    before the match starts: ``ValueError`` naming the opening and its first illegal
    move (an occupied cell, a forbidden one under renju, a move after the game is
    over). ``opening_plies`` is then not to be given (``ValueError``). The result
    names the set (``result.openings``, and ``str(result)``); a kept game, its
    opening (``kept[i].opening``).

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

    What the openings decided (2 players, where :meth:`inarow.Solver.supports` the
    rules): ``opening_values=True`` solves each opening and counts the games whose
    opening is won, drawn or lost for ``a``'s seat under perfect play
    (``result.opening_values``); ``reference=True`` also plays a perfect player in ``a``'s
    place, the same games against the same ``b`` (``result.reference``: with 2 random
    plies on tic-tac-toe it scores 0.908 against ``random``, 0.740 against ``greedy``).
    ``str(result)`` prints both beside ``a``'s score; a ``progress`` callable follows
    the reference's pass of the games too. By default (``None``) the
    openings are solved where that is quick (boards of at most 30 cells, and 7x6
    Connect Four within the opening book's 14 plies), and the reference is played
    where ``b`` is a built-in agent on boards of at most 16 cells (on Connect Four it
    costs tens of times the match: ask for it); ``False`` skips them, ``True`` asks
    for them (``inarow.UnsupportedRulesError`` where the solver does not cover the
    rules).

    ``keep_games``: ``True`` keeps every game, ``"losses"`` the games ``a`` lost, as
    :class:`KeptGame` records in ``result.kept`` (by index; ``kept[i].board()`` is the
    final position, ``kept[i].moves`` opens in :meth:`inarow.Board.from_moves`).

    Raises ``ValueError`` for ``games`` outside 1..=2**40 and for a bad set of
    openings, ``TypeError`` for agents that are not callable,
    :class:`inarow.UnsupportedRulesError` for a ``perfect`` agent on rules beyond the
    solver. Ctrl-C stops the match.
    """
    r = _rules_dict(rules)
    a, b = (_agent_arg(x, r) for x in (a, b))
    keep = _keep_arg(keep_games)
    book = None
    if openings is not None:
        if opening_plies is not None:
            raise ValueError(
                f"opening_plies={opening_plies!r} and openings= exclude each other: a set of "
                "openings replaces the random ones"
            )
        book = opening_set(openings, inarow.Rules(**r))
        opening_plies = 0
        if games is None:
            games = len(book) * (inarow.Rules(**r).players if swap else 1)
    elif opening_plies is None:
        opening_plies = 2
    if games is None:
        games = 1000
    # What opens the games, as the native match takes it.
    opening_arg = (
        dict(opening_plies=opening_plies)
        if book is None
        else dict(openings=[list(m) for m in book.moves])
    )
    want_openings, want_reference = _reference_args(
        opening_values, reference, r, _longest_opening(book, opening_plies), b
    )
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
                keep_games=keep,
                rules=inarow.Rules(**r),
                **opening_arg,
            )
        else:
            settings = dict(
                seed=seed,
                swap=swap,
                threads=threads or 1,
                keep_games=keep,
                **opening_arg,
            )
            raw = _match_on_ray(ray, a, b, games, r, settings, chunk_games, callback)
    finally:
        if bar is not None:
            bar.close()
    seats = tuple(
        SeatResult(games=g, wins=w, draws=d, losses=lo, seat=i + 1)
        for i, (g, w, d, lo) in enumerate(raw["seats"])
    )
    if raw["repeats_one_game"]:
        how = f"opening_plies={opening_plies}" if book is None else f"openings: {book}"
        cure = "random openings (opening_plies=2 or more)" if book is None else "more openings"
        warnings.warn(
            f"every game of this match from each seat was the same game ({raw['games']} games, "
            f"{how}): the agents are deterministic, so the score describes one game per "
            f"seat; give {cure} for a score of the agents",
            RepeatedGameWarning,
            stacklevel=2,
        )
    values = ref = None
    if want_openings:
        values = _opening_values(raw["games"], r, seed, swap, opening_arg)
    if want_reference:
        ref = match(
            inarow.agents.perfect(),
            b,
            games=raw["games"],
            rules=r,
            seed=seed,
            swap=swap,
            threads=threads,
            opening_plies=None if book is not None else opening_plies,
            openings=book,
            opening_values=False,
            reference=False,
            # A progress callable follows the reference's pass too, so one that raises
            # to stop (a deadline) stops it; a bar covers the match's own games.
            progress=progress if callable(progress) else False,
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
        openings=None if book is None else book.name,
        opening_values=values,
        reference=None if ref is None else SeatResult(ref.games, ref.wins, ref.draws, ref.losses),
        kept=tuple(
            _kept_game(index, seat, winner, moves, r, book, opening_plies, swap)
            for index, seat, winner, moves in raw["kept"]
        ),
    )


def _kept_game(
    index: int,
    seat: int,
    winner: int,
    moves: Sequence[int],
    rules: dict,
    book: OpeningSet | None,
    plies: int,
    swap: bool,
) -> KeptGame:
    """A kept game, with the opening it began with."""
    if book is None:
        return KeptGame(index, seat, winner, tuple(moves), min(plies, len(moves)), rules)
    round_ = index // inarow.Rules(**rules).players if swap else index
    which = round_ % len(book)
    plies = len(book.moves[which])
    return KeptGame(index, seat, winner, tuple(moves), plies, rules, book.labels[which])


def _longest_opening(book: OpeningSet | None, plies: Any) -> Any:
    """The most moves an opening of the match has."""
    return plies if book is None else max(len(m) for m in book.moves)


def _keep_arg(keep_games: Any) -> bool | str:
    if isinstance(keep_games, bool) or keep_games == "losses":
        return keep_games
    raise ValueError(
        f"keep_games={keep_games!r} is invalid: allowed False, True (every game) or "
        "'losses' (the games a lost)"
    )


def _reference_args(
    openings: bool | None, reference: bool | None, rules: dict, plies: Any, b: Any
) -> tuple[bool, bool]:
    """Whether to solve the openings and to play the perfect reference (see ``match``);
    ``plies``: the longest opening."""
    for value, name in ((openings, "opening_values"), (reference, "reference")):
        if value is not None and not isinstance(value, bool):
            raise TypeError(f"{name} must be None, True or False, got {value!r}")
    rules_ = inarow.Rules(**rules)
    covered = inarow.Solver.supports(rules_)
    if (openings or reference) and not covered:
        raise inarow.UnsupportedRulesError(
            f"{'opening_values' if openings else 'reference'}=True needs rules the solver covers "
            "(2 players; with gravity width * (height + 1) <= 64, without gravity width * "
            f"height <= 128), got {rules_!r}"
        )
    cells = rules_.width * rules_.height
    connect_four = rules_ == inarow.Rules.connect_four()
    if openings is None:
        in_book = connect_four and isinstance(plies, int) and plies <= 14
        openings = covered and (cells <= 30 or in_book)
    if reference is None:
        reference = (
            covered
            and isinstance(b, inarow.agents.Agent)
            and cells <= 16
            and _perfect_plays(rules_)
        )
    return openings, reference


def _perfect_plays(rules: inarow.Rules) -> bool:
    """Whether the perfect agent (the reference) plays ``rules``."""
    try:
        inarow.agents.perfect().check_rules(rules)
    except inarow.UnsupportedRulesError:
        return False
    return True


def _opening_values(
    games: int, rules: dict, seed: int, swap: bool, opening_arg: dict
) -> OpeningValues:
    """The openings of a match's games, solved: won, drawn, lost for ``a``'s seat."""
    solver = inarow.Solver(tt_bytes=64 << 20, threads=1)
    counts = [0, 0, 0]  # won, drawn, lost
    openings = _native.match_openings(
        games, seed=seed, swap=swap, rules=inarow.Rules(**rules), **opening_arg
    )
    values: dict[tuple[int, ...], int] = {}  # opening -> value for player 1
    for moves, seat, n in openings:
        key = tuple(moves)
        if key not in values:
            board = Board.from_moves(moves, rules=inarow.Rules(**rules))
            if board.is_over:
                value = {None: 0, 1: 1}.get(board.winner, -1)
            else:
                score = solver.solve(board, weak=True)
                value = (score > 0) - (score < 0)
                value = value if board.current_player == 1 else -value
            values[key] = value
        value = values[key] if seat == 1 else -values[key]
        counts[1 - value] += n
    return OpeningValues(games, *counts)
