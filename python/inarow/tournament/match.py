"""Engine against engine: games from an opening book, each opening from both seats,
logged game by game (resumable), scored with intervals and an SPRT.

Player A is the engine under test, B the reference. A player is given as text:

* ``gomocup:COMMAND``: a Gomocup brain run as a process (:class:`inarow.engines.Gomocup`,
  the command split as a shell does), given each move's time by ``INFO timeout_turn``
  and the rule by ``INFO rule``; ``gomocup:python -m inarow pbrain`` is inarow itself
  as a process;
* ``threats``: inarow's threat engine in this process (:func:`inarow.agents.threats`)
  with the match's time or node budget per move; ``threats:nodes=N``,
  ``threats:time=S``, ``threats:threads=T`` (comma-separated) set its own, and
  ``threats:native=PATH`` plays the engine of another build of inarow's extension
  (a copy of ``inarow/_native.abi3.so`` kept from before a change), loaded beside this
  one: an A/B test of two builds with node budgets, in one process;
* any other name of :func:`inarow.agents.named` (``negamax:3``, ``greedy``...).

In-process players get a fresh agent each game, seeded from the match's seed, the
pair and the seat, so a match with node budgets replays move for move.
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import random
import shlex
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import inarow
from inarow.engines import _RULE_CODES, EngineError, Gomocup
from inarow.tournament import stats
from inarow.tournament.book import Opening

__all__ = [
    "RULES",
    "describe",
    "game_seed",
    "GameRecord",
    "Player",
    "Summary",
    "make_player",
    "new_board",
    "play_game",
    "read_log",
    "replay",
    "run",
    "summarize",
]

#: The tournament rules and their piskvork ``INFO rule`` numbers (the engines').
RULES = _RULE_CODES


def new_board(size: int, rule: str) -> inarow.Board:
    """An empty ``size`` x ``size`` gomoku board (five in a row) under ``rule``
    (``freestyle``, ``standard`` or ``renju``). Raises ``ValueError`` for another rule."""
    if rule not in RULES:
        raise ValueError(f"rule must be one of {', '.join(RULES)}, got {rule!r}")
    return inarow.Board.gomoku(size, rule=rule)  # type: ignore[arg-type]


class Player:
    """One side of a match: ``play(board, seed)`` returns its move; ``close()`` ends
    what it runs. ``spec`` is the text it was made from."""

    spec: str

    def start_game(self, seed: int) -> None:
        """Called before each game with the game's seed."""

    def play(self, board: inarow.Board) -> int:
        raise NotImplementedError

    def close(self) -> None:
        pass


class _AgentPlayer(Player):
    def __init__(self, spec: str, make: Callable[[int], Callable[[inarow.Board], int]]):
        self.spec = spec
        self._make = make
        self._agent: Callable[[inarow.Board], int] | None = None

    def start_game(self, seed: int) -> None:
        self._agent = self._make(seed)

    def play(self, board: inarow.Board) -> int:
        assert self._agent is not None, "start_game first"
        return int(self._agent(board))


class _EnginePlayer(Player):
    def __init__(self, spec: str, engine: Gomocup):
        self.spec = spec
        self.engine = engine

    def play(self, board: inarow.Board) -> int:
        return self.engine(board)

    def close(self) -> None:
        self.engine.close()


def _options(text: str) -> dict[str, str]:
    options = {}
    for item in filter(None, text.split(",")):
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"option {item!r} is not key=value")
        options[key.strip()] = value.strip()
    return options


def make_player(
    spec: str,
    *,
    time_limit: float | None,
    nodes: int | None = None,
    rule: str = "freestyle",
    threads: int = 1,
    cwd: str | None = None,
) -> Player:
    """The player ``spec`` describes (see the module's docstring), given ``time_limit``
    seconds or ``nodes`` positions a move (``nodes`` only for inarow's engines)."""
    if spec.startswith("gomocup:"):
        if time_limit is None:
            raise ValueError(f"{spec!r}: a Gomocup brain needs a time per move (--time)")
        engine = Gomocup(
            shlex.split(spec[len("gomocup:") :]),
            timeout_turn=time_limit,
            rule=RULES[rule],
            startup_timeout=30.0,
            cwd=cwd,
        )
        return _EnginePlayer(spec, engine)
    name, _, rest = spec.partition(":")
    if name == "threats":
        options = _options(rest)
        unknown = set(options) - {"nodes", "time", "threads", "native"}
        if unknown:
            raise ValueError(f"{spec!r}: unknown options {sorted(unknown)}")
        own_nodes = int(options["nodes"]) if "nodes" in options else nodes
        own_time = float(options["time"]) if "time" in options else time_limit
        own_threads = int(options.get("threads", threads))
        if own_nodes is None and own_time is None:
            raise ValueError(f"{spec!r}: give a time (--time) or a node budget (--nodes)")

        native = _load_native(options["native"]) if "native" in options else None

        def make_threats(seed: int) -> Callable[[inarow.Board], int]:
            if native is None:
                return inarow.agents.threats(
                    time_limit=1.0 if own_time is None else own_time,
                    nodes=own_nodes,
                    seed=seed,
                    threads=own_threads,
                )
            agent = native.Agent.threats(
                1.0 if own_time is None else own_time, own_nodes, seed, own_threads
            )
            return lambda board: agent(_handed_over(native, board))

        return _AgentPlayer(spec, make_threats)
    return _AgentPlayer(spec, lambda seed: inarow.agents.named(spec, seed=seed))


_NATIVES: dict[str, Any] = {}


def _load_native(path: str) -> Any:
    """Another build of inarow's extension module, loaded under a name of its own (its
    classes are its own: boards are handed over as their moves)."""
    path = os.path.abspath(path)
    if path not in _NATIVES:
        name = f"_inarow_build_{len(_NATIVES)}._native"
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            raise ValueError(f"{path} is not an extension module")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _NATIVES[path] = module
    return _NATIVES[path]


def _handed_over(native: Any, board: inarow.Board) -> Any:
    """``board`` as a board of another build: its moves replayed there (a build of
    another byte format reads them too). Freestyle only, as older builds know no
    other rule. The other build's own ``Rules``, passed as ``rules=`` (which builds
    with and without the loose rule keywords take); a build older than ``Rules``
    takes the keywords."""
    if getattr(board.rules, "rule", "freestyle") != "freestyle":
        return native.Board.from_bytes(board.to_bytes())
    if hasattr(native, "Rules"):
        rules = native.Rules(board.width, board.height, board.k, gravity=False)
        return native.Board.from_moves(board.moves, rules=rules)
    return native.Board.from_moves(
        board.moves, width=board.width, height=board.height, k=board.k, gravity=False
    )  # old keywords: a build before Rules


def game_seed(seed: int, pair: int, a_seat: int, who: str) -> int:
    """The seed of one side in one game (deterministic, independent of the others)."""
    return random.Random(f"{seed}:{pair}:{a_seat}:{who}").getrandbits(62)


@dataclass
class GameRecord:
    """One game as logged: the settings it was played under, the opening, A's seat
    (1: black, the first player), the winner (1, 2 or 0 for a draw), how it ended,
    every action from the first opening stone on, and each side's seconds."""

    config: dict[str, Any]
    pair: int
    opening: str
    opening_moves: list[int]
    a_seat: int
    winner: int
    reason: str
    moves: list[int]
    seconds: dict[str, float] = field(default_factory=dict)
    plies: dict[str, int] = field(default_factory=dict)

    @property
    def a_points(self) -> float:
        """A's points: 1 for a win, 1/2 for a draw, 0 for a loss."""
        if self.winner == 0:
            return 0.5
        return 1.0 if self.winner == self.a_seat else 0.0

    def to_json(self) -> str:
        return json.dumps(self.__dict__, separators=(",", ":"))

    @staticmethod
    def from_json(line: str) -> GameRecord:
        return GameRecord(**json.loads(line))


def replay(record: GameRecord) -> inarow.Board:
    """The game's final position, replayed from its moves under its rule (raises if a
    move is illegal there)."""
    board = new_board(record.config["size"], record.config["rule"])
    for action in record.moves:
        board.move(action)
    return board


def play_game(
    a: Player,
    b: Player,
    opening: Sequence[int],
    a_seat: int,
    size: int,
    rule: str,
    seeds: tuple[int, int] = (0, 0),
) -> tuple[int, str, list[int], dict[str, float], dict[str, int]]:
    """One game from ``opening`` (actions, black first), A playing seat ``a_seat``.
    Returns (winner or 0, how it ended, every action, seconds per side, moves per side).
    A Gomocup brain's fault (it exits, times out, plays an illegal move) loses the game
    for that side."""
    board = new_board(size, rule)
    for action in opening:
        board.move(action)
    a.start_game(seeds[0])
    b.start_game(seeds[1])
    spent = {"a": 0.0, "b": 0.0}
    plies = {"a": 0, "b": 0}
    while not board.is_over:
        side = "a" if board.current_player == a_seat else "b"
        player = a if side == "a" else b
        began = time.monotonic()
        try:
            action = player.play(board.copy())
        except EngineError as e:
            winner = 3 - board.current_player
            return winner, f"fault {side}: {e}", board.moves, spent, plies
        spent[side] += time.monotonic() - began
        plies[side] += 1
        board.move(action)
    winner = board.winner or 0
    how = "draw" if winner == 0 else f"five ({board.num_stones} stones)"
    return winner, how, board.moves, spent, plies


def read_log(path: str) -> list[GameRecord]:
    """Every game of a log file (none if it does not exist)."""
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [GameRecord.from_json(line) for line in f if line.strip()]


@dataclass
class Summary:
    """A match's results for A: counts, by seat, per pair, and the statistics."""

    games: int
    wins: int
    draws: int
    losses: int
    by_seat: dict[int, tuple[int, int, int]]  # A's seat -> (W, D, L)
    pairs: dict[float, int]  # pentanomial: pair score -> count
    trinomial: stats.Estimate
    pentanomial: stats.Estimate
    first_player_score: float  # the share of points won by seat 1, whoever held it
    faults: dict[str, int]
    seconds_per_move: dict[str, float]
    sprt: stats.Sprt | None = None

    def lines(self) -> list[str]:
        out = [
            f"A: W/D/L {self.wins}/{self.draws}/{self.losses} in {self.games} games",
            *(
                f"  A as player {seat} ({'black' if seat == 1 else 'white'}): W/D/L {w}/{d}/{lo}"
                for seat, (w, d, lo) in sorted(self.by_seat.items())
            ),
            "  pairs by A's points (0, 0.5, 1, 1.5, 2): "
            + " ".join(str(self.pairs[k]) for k in sorted(self.pairs)),
            f"  per game (trinomial, {self.trinomial.samples}): {self.trinomial}",
            f"  per pair (pentanomial, {self.pentanomial.samples}): {self.pentanomial}",
            f"  player 1 (black) scored {self.first_player_score:.3f} of the points",
            "  faults: " + (", ".join(f"{k} {v}" for k, v in self.faults.items()) or "none"),
            "  seconds per move: "
            + ", ".join(f"{k.upper()} {v:.3f}" for k, v in self.seconds_per_move.items()),
        ]
        if self.sprt is not None:
            out.append(f"  {self.sprt} (pentanomial)")
        return out

    def __str__(self) -> str:
        return "\n".join(self.lines())


def summarize(
    records: Sequence[GameRecord], sprt: tuple[float, float, float, float] | None = None
) -> Summary:
    """The statistics of ``records``; ``sprt``: (elo0, elo1, alpha, beta) to test on
    the complete pairs."""
    wins = sum(r.a_points == 1 for r in records)
    draws = sum(r.a_points == 0.5 for r in records)
    losses = len(records) - wins - draws
    by_seat = {}
    for seat in (1, 2):
        rs = [r for r in records if r.a_seat == seat]
        w = sum(r.a_points == 1 for r in rs)
        d = sum(r.a_points == 0.5 for r in rs)
        by_seat[seat] = (w, d, len(rs) - w - d)
    by_pair: dict[int, list[GameRecord]] = {}
    for r in records:
        by_pair.setdefault(r.pair, []).append(r)
    pair_points = [sum(r.a_points for r in rs) for rs in by_pair.values() if len(rs) == 2]
    pairs = stats.pentanomial(pair_points)
    first = sum(1.0 if r.winner == 1 else 0.5 if r.winner == 0 else 0.0 for r in records)
    faults: dict[str, int] = {}
    for r in records:
        if r.reason.startswith("fault"):
            side = r.reason.split()[1].rstrip(":").upper()
            faults[side] = faults.get(side, 0) + 1
    seconds = {}
    for side in ("a", "b"):
        moves = sum(r.plies.get(side, 0) for r in records)
        spent = sum(r.seconds.get(side, 0.0) for r in records)
        seconds[side] = spent / moves if moves else math.nan
    test = None
    if sprt is not None:
        elo0, elo1, alpha, beta = sprt
        test = stats.sprt(pairs, elo0, elo1, alpha, beta)
    return Summary(
        games=len(records),
        wins=wins,
        draws=draws,
        losses=losses,
        by_seat=by_seat,
        pairs=pairs,
        trinomial=stats.wilson_estimate(wins + draws / 2, len(records)),
        pentanomial=stats.elo_estimate(pairs),
        first_player_score=first / len(records) if records else math.nan,
        faults=faults,
        seconds_per_move=seconds,
        sprt=test,
    )


def _schedule(book: Sequence[Opening], pairs: int) -> Iterator[tuple[int, Opening]]:
    for pair in range(pairs):
        yield pair, book[pair % len(book)]


def match_config(
    a: str,
    b: str,
    book: Sequence[Opening],
    size: int,
    rule: str,
    time_limit: float | None,
    nodes: int | None,
    seed: int,
    threads: int,
) -> dict[str, Any]:
    """The settings :func:`run` logs with each game (a log resumes only under the same)."""
    return {
        "a": a,
        "b": b,
        "size": size,
        "rule": rule,
        "time": time_limit,
        "nodes": nodes,
        "seed": seed,
        "threads": threads,
        "book": [str(o) for o in book],
    }


def run(
    a: str,
    b: str,
    book: Sequence[Opening],
    *,
    pairs: int,
    size: int = 15,
    rule: str = "freestyle",
    time_limit: float | None = None,
    nodes: int | None = None,
    seed: int = 0,
    log: str | None = None,
    sprt: tuple[float, float, float, float] | None = None,
    threads: int = 1,
    cwd: str | None = None,
    on_game: Callable[[GameRecord], None] | None = None,
    stop: Callable[[Sequence[GameRecord]], bool] | None = None,
) -> Summary:
    """Plays ``pairs`` pairs of games, A against B: opening ``pair % len(book)`` of
    ``book`` from both seats (A black first, then A white). With ``log``, each game is
    appended to that file as a line of JSON as it ends, and games already there (with
    the same settings) are not played again: an interrupted match resumes. With
    ``sprt`` (elo0, elo1, alpha, beta), the match stops at the first complete pair
    where the pentanomial SPRT decides; with ``stop``, at the first complete pair
    where ``stop(games so far)`` is true (a paired SPRT against another log, say:
    ``inarow.tournament.compare.paired_stop``). Returns the summary of every game of
    the match (those in the log included)."""
    config = match_config(a, b, book, size, rule, time_limit, nodes, seed, threads)
    records = read_log(log) if log else []
    for r in records:
        if r.config != config:
            raise ValueError(
                f"{log} holds games of other settings ({r.config}); "
                "use another log file to play these"
            )
    done = {(r.pair, r.a_seat) for r in records}
    new_board(size, rule)  # the rule is checked before any engine starts
    players: list[Player] = []
    out = open(log, "a", encoding="utf-8") if log else None
    try:
        player_a = make_player(a, time_limit=time_limit, nodes=nodes, rule=rule, threads=threads)
        players.append(player_a)
        player_b = make_player(
            b, time_limit=time_limit, nodes=nodes, rule=rule, threads=threads, cwd=cwd
        )
        players.append(player_b)
        rules = new_board(size, rule).rules
        for p in players:
            if isinstance(p, _AgentPlayer):
                agent = p._make(0)
                if hasattr(agent, "check_rules"):
                    agent.check_rules(rules)  # UnsupportedRulesError before any game
        for pair, opening in _schedule(book, pairs):
            if sprt is not None and summarize(records, sprt).sprt.verdict != "continue":  # type: ignore[union-attr]
                break
            if stop is not None and stop(records):
                break
            moves = opening.actions(size)
            for a_seat in (1, 2):
                if (pair, a_seat) in done:
                    continue
                seeds = (game_seed(seed, pair, a_seat, "a"), game_seed(seed, pair, a_seat, "b"))
                winner, how, actions, spent, plies = play_game(
                    player_a, player_b, moves, a_seat, size, rule, seeds
                )
                record = GameRecord(
                    config=config,
                    pair=pair,
                    opening=opening.name,
                    opening_moves=moves,
                    a_seat=a_seat,
                    winner=winner,
                    reason=how,
                    moves=actions,
                    seconds={k: round(v, 4) for k, v in spent.items()},
                    plies=plies,
                )
                records.append(record)
                if out is not None:
                    out.write(record.to_json() + "\n")
                    out.flush()
                if on_game is not None:
                    on_game(record)
    finally:
        for p in players:
            p.close()
        if out is not None:
            out.close()
    return summarize(records, sprt)


def describe(record: GameRecord) -> str:
    """One line for a game: pair, opening, A's seat, the result and how it ended."""
    result = {0: "draw", record.a_seat: "A wins"}.get(record.winner, "B wins")
    return (
        f"pair {record.pair + 1:>4} {record.opening:<6} A as player {record.a_seat}: "
        f"{result:<7} ({record.reason})"
    )
