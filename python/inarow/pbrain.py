"""inarow's agents as a Gomocup brain: ``inarow pbrain`` speaks the piskvork
protocol on stdin/stdout, so piskvork, GomocupJudge or :class:`inarow.engines.Gomocup`
can run it.

The brain plays freestyle gomoku (five or more in a row wins: ``INFO rule 0``),
and exactly five (``INFO rule 1``) or renju (``INFO rule 4``) with an agent that
plays them (the default threat engine, the random, greedy and negamax agents; the
perfect agent and the pretrained networks answer ``ERROR``, and the brain plays on by
its rule), on any board from 5 to ``inarow.MAX_SIDE`` cells a side (``START n`` or
``RECTSTART w,h``). Piskvork's ``x,y`` is column ``x``, row ``y`` (from 0, row 0
the top row): the action ``y * width + x``. Every reply is one flushed line;
an unknown command gets ``UNKNOWN``, a malformed one ``ERROR``, and the brain
reads on.

>>> import io, inarow
>>> from inarow.pbrain import serve
>>> out = io.StringIO()
>>> commands = io.StringIO("START 15\\nTURN 7,7\\nEND\\n")
>>> serve(inarow.agents.negamax(2, seed=0), commands, out)
0
>>> out.getvalue().splitlines()[0]
'OK'
"""

from __future__ import annotations

import inspect
import random
import time
from typing import Any, Callable, TextIO

import inarow
from inarow import _piskvork
from inarow._native import Board

__all__ = [
    "ABOUT",
    "DEFAULT_TURN_SECONDS",
    "MAX_AGENT_SECONDS",
    "BestWithinTime",
    "DeepeningNegamax",
    "serve",
]

#: The brain's ``ABOUT`` reply.
ABOUT = {"name": "inarow", "version": inarow.__version__, "author": "inarow developers"}
#: The time per move when neither the manager (``INFO``) nor ``--time-limit`` gives one.
DEFAULT_TURN_SECONDS = 5.0
#: The share of the manager's limit an agent is given (the rest covers the pipes and
#: a search that runs over its estimate).
TIME_SHARE = 0.7
#: The most seconds an agent is given for a move, whatever the manager allows (its
#: ``timeout_turn`` may say 24 days, ``--time-limit`` infinity): the threat engine's
#: largest ``time_limit`` (``inarow.agents.threats``: 0 < t <= 3600).
MAX_AGENT_SECONDS = 3600.0
#: The moves a match's remaining time (``INFO time_left``) is spread over, at most.
MOVES_TO_PLAN = 20
#: The least growth expected from one negamax depth to the next (measured on 15x15 and
#: 20x20 gomoku: 10x to 45x from depth 3 to 4).
MIN_DEPTH_GROWTH = 30.0


class BestWithinTime:
    """``pbrain``'s default agent: the threat engine (`inarow.agents.threats`) where it
    plays (2 players, free placement, ``k >= 4``: gomoku and its relatives), given
    each move's time, on ``threads`` threads; elsewhere :class:`DeepeningNegamax`."""

    def __init__(self, seed: int | None = None, threads: int = 1) -> None:
        self._rng = random.Random(seed)
        self.threads = threads
        self.negamax = DeepeningNegamax(seed=self._rng.getrandbits(62))

    def __call__(self, board: Board, time_limit: float | None = None) -> int:
        budget = DEFAULT_TURN_SECONDS if time_limit is None else time_limit
        if board.players == 2 and not board.gravity and board.k >= 4:
            seed = self._rng.getrandbits(62)
            engine = inarow.agents.threats(time_limit=budget, seed=seed, threads=self.threads)
            return int(engine(board))
        return self.negamax(board, budget)

    def __repr__(self) -> str:
        threads = "" if self.threads == 1 else f"threads={self.threads}"
        return f"inarow.pbrain.BestWithinTime({threads})"


class DeepeningNegamax:
    """Negamax at depth 1, 2, 3... while the next depth is expected to end within
    ``time_limit``: the next depth is searched when the last one's time times the
    largest growth seen (at least :data:`MIN_DEPTH_GROWTH`) fits in what is left.
    A depth in progress is never interrupted, so the limit is an estimate, not a
    bound. ``depth`` is the depth of the last move's search."""

    def __init__(self, seed: int | None = None, max_depth: int = 64) -> None:
        self._rng = random.Random(seed)
        self.max_depth = max_depth
        self.depth = 0

    def __call__(self, board: Board, time_limit: float | None = None) -> int:
        budget = DEFAULT_TURN_SECONDS if time_limit is None else time_limit
        start = time.monotonic()
        growth = MIN_DEPTH_GROWTH
        previous = None
        action = None
        for depth in range(1, self.max_depth + 1):
            began = time.monotonic()
            action = inarow.agents.negamax(depth, seed=self._rng.getrandbits(62))(board)
            took = time.monotonic() - began
            self.depth = depth
            if previous is not None:
                growth = max(growth, took / max(previous, 1e-4))
            previous = took
            if took * growth > budget - (time.monotonic() - start):
                break
        assert action is not None
        return action

    def __repr__(self) -> str:
        depth = "" if self.max_depth == 64 else f"max_depth={self.max_depth}"
        return f"inarow.pbrain.DeepeningNegamax({depth})"


def _takes_time_limit(agent: Callable[..., Any]) -> bool:
    """Whether ``agent`` accepts a ``time_limit`` keyword (seconds for this move)."""
    try:
        parameters = inspect.signature(agent).parameters.values()
    except (TypeError, ValueError):  # a native callable without a signature
        return False
    return any(
        p.name == "time_limit" or p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters
    )


class _BrainError(ValueError):
    """A command the brain cannot carry out; its message becomes an ``ERROR`` line."""


class _Brain:
    """The state of one brain: the board, the manager's limits, the agent."""

    def __init__(self, agent: Callable[..., Any], out: TextIO, time_limit: float | None) -> None:
        self.agent = agent
        self.timed = _takes_time_limit(agent)
        self.out = out
        self.time_limit = time_limit
        self.board: Board | None = None
        self.info: dict[str, int] = {}
        #: The game's rule (``INFO rule``): "freestyle", "standard" or "renju".
        self.rule = "freestyle"

    def say(self, line: str) -> None:
        self.out.write(line + "\n")
        self.out.flush()

    # ------------------------------------------------------------------- commands

    def handle(self, line: str, inp: TextIO) -> bool:
        """Carries out one command line; False after ``END``."""
        command, rest = _piskvork.split_command(line)
        if not command:
            return True
        if command == "END":
            return False
        handler = {
            "ABOUT": self.about,
            "START": self.start,
            "RECTSTART": self.rectstart,
            "RESTART": self.restart,
            "INFO": self.set_info,
            "BEGIN": self.begin,
            "TURN": self.turn,
            "PLAY": self.play,
            "TAKEBACK": self.takeback,
        }.get(command)
        try:
            if command == "BOARD":
                self.position(inp)
            elif handler is None:
                self.say(f"UNKNOWN command {command[:40]!r} is not supported")
            else:
                handler(rest)
        except _BrainError as e:
            self.say(f"ERROR {e}")
        return True

    def about(self, rest: str) -> None:
        self.say(_piskvork.about_line(ABOUT))

    def start(self, rest: str) -> None:
        size = _integer(rest, "START needs the board size, e.g. 'START 15'")
        self.new_board(size, size)

    def rectstart(self, rest: str) -> None:
        cell = _piskvork.parse_cell(rest)
        if cell is None:
            raise _BrainError("RECTSTART needs 'width,height', e.g. 'RECTSTART 20,15'")
        self.new_board(*cell)

    def new_board(self, width: int, height: int) -> None:
        if (
            not (1 <= width <= inarow.MAX_SIDE and 1 <= height <= inarow.MAX_SIDE)
            or max(width, height) < 5
        ):
            raise _BrainError(
                f"unsupported size {width}x{height}: inarow plays boards of 1 to "
                f"{inarow.MAX_SIDE} cells a side, at least 5 one way"
            )
        board = Board(rules=inarow.Rules(width, height, 5, 2, False, rule=self.rule))
        # An agent with `rules` (a network: the rules it learned; a Rules or a dict of
        # its fields) plays those only.
        plays = getattr(self.agent, "rules", None)
        if isinstance(plays, dict):
            plays = inarow.Rules(**plays)
        if isinstance(plays, inarow.Rules) and plays != board.rules:
            raise _BrainError(
                f"unsupported size {width}x{height}: the agent ({self.agent!r}) plays {plays} only"
            )
        self.board = board
        self.say("OK")

    def restart(self, rest: str) -> None:
        board = self.need_board()
        self.board = Board(rules=board.rules)
        self.say("OK")

    def set_info(self, rest: str) -> None:
        key, _, value = rest.partition(" ")
        key = key.lower()
        if key not in ("timeout_turn", "timeout_match", "time_left", "max_memory", "rule"):
            return  # game_type, folder, evaluate and unknown keys need nothing
        number = _integer(value, f"INFO {key} needs an integer, got {value.strip()!r}")
        self.info[key] = number
        if key == "rule":
            self.set_rule(number)

    def set_rule(self, number: int) -> None:
        """``INFO rule``: 0 freestyle, 1 exactly five (standard), 4 renju, on an empty
        board, where the agent plays it (it is asked for a move on an empty board of
        the rule); anything else (caro, an agent that refuses) is an ``ERROR``, and
        the brain plays on by its rule."""
        if number & _piskvork.RULE_RENJU:
            rule = "renju"
        elif number & _piskvork.RULE_EXACTLY_FIVE:
            rule = "standard"
        else:
            rule = "freestyle"
        if rule == self.rule and not number & _piskvork.RULE_CARO:
            return
        board = self.board
        if number & _piskvork.RULE_CARO:
            problem = "caro is not one of inarow's rules"
        elif board is not None and board.num_stones:
            problem = "the rule changes on an empty board only (send it before the moves)"
        else:
            width, height = (board.width, board.height) if board is not None else (15, 15)
            empty = Board(rules=inarow.Rules(width, height, 5, 2, False, rule=rule))
            try:
                if rule != "freestyle":  # every agent plays freestyle
                    self.agent(empty.copy())
                problem = ""
            except Exception as e:  # the agent's refusal (UnsupportedRulesError...)
                problem = f"the agent does not play it: {type(e).__name__}: {e}"
        if problem:
            raise _BrainError(
                f"rule {number} is not supported: {problem}; inarow plays on by rule={self.rule!r}"
            )
        self.rule = rule
        if board is not None:
            self.board = empty

    def begin(self, rest: str) -> None:
        board = self.need_board()
        if board.num_stones:
            raise _BrainError("BEGIN needs an empty board: send RESTART first")
        self.think()

    def turn(self, rest: str) -> None:
        self.place(rest, "TURN")
        self.think()

    def play(self, rest: str) -> None:
        board = self.need_board()
        action = self.place(rest, "PLAY")
        self.say(_piskvork.cell_text(action, board.width))

    def takeback(self, rest: str) -> None:
        board = self.need_board()
        action = self.cell(rest, "TAKEBACK")
        if board.last_move != action:
            raise _BrainError(f"TAKEBACK {rest}: the last stone is not there")
        board.undo()
        self.say("OK")

    def position(self, inp: TextIO) -> None:
        """``BOARD``: ``x,y,field`` lines up to ``DONE`` (field 1: the brain's stone,
        2: the opponent's, 3: a continuous game's mark, ignored), then a move."""
        board = self.board
        stones: dict[int, list[int]] = {1: [], 2: []}
        problems: list[str] = []
        for raw in iter(inp.readline, ""):
            line = raw.strip()
            if line.upper() == "DONE":
                break
            if not line:
                continue
            fields = line.split(",")
            if len(fields) != 3 or _piskvork.parse_cell(",".join(fields[:2])) is None:
                problems.append(f"{line[:40]!r} is not 'x,y,field'")
                continue
            try:
                field = int(fields[2])
            except ValueError:
                field = 0
            if field == 3:
                continue
            if field not in (1, 2):
                problems.append(f"{line[:40]!r}: the field must be 1, 2 or 3")
                continue
            if board is not None:
                try:
                    stones[field].append(self.cell(",".join(fields[:2]), "BOARD"))
                except _BrainError as e:
                    problems.append(str(e))
        else:
            raise _BrainError("BOARD ended without DONE")
        if board is None:
            raise _BrainError("no board: send START first")
        if problems:
            raise _BrainError("BOARD: " + "; ".join(problems[:3]))
        self.board = _alternate(stones[1], stones[2], board)
        self.think()

    # ----------------------------------------------------------------------- play

    def need_board(self) -> Board:
        if self.board is None:
            raise _BrainError("no board: send START first")
        return self.board

    def cell(self, text: str, command: str) -> int:
        """The action of an ``x,y`` argument on the board."""
        board = self.need_board()
        cell = _piskvork.parse_cell(text)
        if cell is None:
            raise _BrainError(f"{command} needs 'x,y', got {text[:40]!r}")
        x, y = cell
        if not (0 <= x < board.width and 0 <= y < board.height):
            raise _BrainError(f"{command} {x},{y} is off the {board.width}x{board.height} board")
        return y * board.width + x

    def place(self, text: str, command: str) -> int:
        board = self.need_board()
        action = self.cell(text, command)
        if board.is_over:
            raise _BrainError(f"{command} {text}: the game is over")
        if not board.is_legal(action):
            raise _BrainError(f"{command} {text}: the cell is taken")
        board.move(action)
        return action

    def budget(self) -> float:
        """Seconds for this move: ``--time-limit``, ``INFO timeout_turn`` and a share of
        ``INFO time_left``, whichever is least; a share of that goes to the agent, and
        :data:`MAX_AGENT_SECONDS` at most."""
        limits = [] if self.time_limit is None else [self.time_limit]
        turn_ms = self.info.get("timeout_turn")
        if turn_ms is not None:
            limits.append(max(turn_ms, 1) / 1000 * TIME_SHARE)
        left_ms = self.info.get("time_left")
        if left_ms is not None and 0 < left_ms < 2_147_483_647 and self.info.get("timeout_match"):
            limits.append(left_ms / 1000 / MOVES_TO_PLAN)
        if not limits:
            limits.append(DEFAULT_TURN_SECONDS * TIME_SHARE)
        return min(*limits, MAX_AGENT_SECONDS)

    def think(self) -> None:
        board = self.need_board()
        if board.is_over:
            raise _BrainError("the game is over: no move to make")
        began = time.monotonic()
        try:
            if self.timed:
                action = self.agent(board.copy(), time_limit=self.budget())
            else:
                action = self.agent(board.copy())
            board.move(int(action))
        except Exception as e:  # the agent's fault: reported, the brain reads on
            raise _BrainError(f"the agent failed: {type(e).__name__}: {e}") from None
        negamax = self.agent.negamax if isinstance(self.agent, BestWithinTime) else self.agent
        if isinstance(negamax, DeepeningNegamax) and negamax.depth:
            took = time.monotonic() - began
            self.say(f"MESSAGE negamax depth {negamax.depth} in {took:.2f} s")
        self.say(_piskvork.cell_text(int(action), board.width))


def _integer(text: str, problem: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise _BrainError(problem) from None


def _alternate(own: list[int], opponent: list[int], board: Board) -> Board:
    """The position of a ``BOARD`` command: the stones placed in turn, the side with
    more stones first (the brain first when both have as many: it is to move)."""
    if len(own) == len(opponent):
        first, second = own, opponent
    elif len(opponent) == len(own) + 1:
        first, second = opponent, own
    else:
        raise _BrainError(
            f"BOARD: {len(own)} own and {len(opponent)} opponent stones: the brain is to "
            "move, so it has as many stones as the opponent or one fewer"
        )
    position = Board(rules=board.rules)
    try:
        for index, action in enumerate(first):
            position.move(action)
            if index < len(second):
                position.move(second[index])
    except ValueError as e:  # a cell given twice, or a five already on the board
        raise _BrainError(f"BOARD: not a position to play on: {e}") from None
    return position


def serve(
    agent: Callable[..., Any],
    inp: TextIO,
    out: TextIO,
    time_limit: float | None = None,
) -> int:
    """Answers piskvork commands from ``inp`` on ``out`` until ``END`` or the end of
    the input; returns 0. ``agent(board) -> action`` plays every move; an agent that
    takes a ``time_limit`` keyword gets the seconds for each move (the least of
    ``time_limit``, the manager's ``timeout_turn`` and a share of its ``time_left``,
    and :data:`MAX_AGENT_SECONDS` at most: a limit above it, or ``math.inf``, is legal)."""
    brain = _Brain(agent, out, time_limit)
    for line in iter(inp.readline, ""):
        try:
            if not brain.handle(line, inp):
                break
        except Exception as e:  # never crash on a manager's input
            brain.say(f"ERROR internal error on {line.strip()[:40]!r}: {type(e).__name__}: {e}")
    return 0
