"""External engines as inarow agents: any Gomocup brain (the piskvork protocol).

::

    with inarow.engines.Gomocup("/path/to/pbrain-rapfi", timeout_turn=1.0) as rapfi:
        result = inarow.evaluate.match("negamax:3", rapfi, games=20, rules="gomoku")

A :class:`Gomocup` engine is an agent ``agent(board) -> action``: it runs the
program as a child process and talks the piskvork brain protocol over its pipes
(``START`` or ``RECTSTART``, ``INFO``, ``BEGIN``/``TURN``/``BOARD``, ``END``).
Piskvork's ``x,y`` is column ``x``, row ``y`` (from 0, row 0 the top row), so the
engine's ``x,y`` is the action ``y * width + x``. Its reverse, inarow's agents as a
brain, is ``inarow pbrain``. See ``docs/engines.md``.
"""

from __future__ import annotations

import collections
import logging
import math
import numbers
import os
import queue
import re
import signal
import subprocess
import threading
import time
import weakref
from collections.abc import Mapping, Sequence
from typing import Any

from inarow import _piskvork
from inarow._native import Board, IllegalMoveError, UnsupportedRulesError

__all__ = ["EngineError", "EngineTimeout", "Gomocup", "IllegalEngineMove"]

logger = logging.getLogger("inarow.engines")

#: The longest line kept from an engine; the rest of a longer line is dropped.
MAX_LINE = 1 << 16
#: The most lines kept from an engine and not yet read; a faster engine waits.
MAX_QUEUED = 1024
#: ``INFO time_left`` for a match without a time limit (piskvork's "unlimited").
UNLIMITED_MS = 2_147_483_647
#: The longest limit of a setting, in seconds: piskvork's largest millisecond count
#: (2**31 - 1 ms, 24.8 days).
MAX_SECONDS = UNLIMITED_MS / 1000
#: How often a wait for an engine's line looks whether the engine has exited (its
#: output may stay open in a child of its own).
POLL_SECONDS = 0.1


class EngineError(RuntimeError):
    """An external engine failed: it exited, answered something that is not the
    protocol, or could not start. The message names the engine."""


class EngineTimeout(EngineError, TimeoutError):
    """An external engine did not answer in time (its turn limit plus the grace)."""


class IllegalEngineMove(EngineError, IllegalMoveError):
    """An external engine played off the board or onto a stone. ``move`` is the
    text it sent."""

    def __init__(self, message: str, move: str) -> None:
        super().__init__(message)
        self.move = move


_END_OF_OUTPUT = None


def _seconds(name: str, value: object, *, zero: bool = False, also: str = "") -> float:
    """A setting in seconds, checked: > 0 (>= 0 with ``zero``) and at most
    :data:`MAX_SECONDS`; ``also`` names the other values allowed, for the message."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number of seconds, got {value!r}")
    if not ((0 <= value if zero else 0 < value) and value <= MAX_SECONDS):
        raise ValueError(
            f"{name} must be {also}{'>= 0' if zero else '> 0'} and at most {MAX_SECONDS} "
            f"seconds (piskvork's largest limit, 2**31 - 1 ms), got {value!r}"
        )
    return float(value)


class _Process:
    """One running engine: its pipes, a thread per output stream, and its end."""

    def __init__(
        self, argv: list[str], cwd: str | None, env: Mapping[str, str] | None, name: str
    ) -> None:
        self.name = name
        self.popen = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env=None if env is None else dict(env),
            start_new_session=os.name == "posix",  # one process group: killed together
        )
        #: The engine's lines not yet read, :data:`MAX_QUEUED` at most: a reader waits
        #: while it is full, and so does an engine that writes faster than it is read.
        self.lines: queue.Queue[str | None] = queue.Queue(maxsize=MAX_QUEUED)
        self._stopping = threading.Event()  # set by `kill`: the readers queue no more
        self.stderr_tail: collections.deque[str] = collections.deque(maxlen=20)
        self._readers = [
            threading.Thread(target=self._read_stdout, name=f"{name} stdout", daemon=True),
            threading.Thread(target=self._read_stderr, name=f"{name} stderr", daemon=True),
        ]
        for reader in self._readers:
            reader.start()

    def _queue(self, line: str | None) -> None:
        """Queues a line (blank ones are dropped), waiting while the queue is full;
        nothing once the process is being killed."""
        if line is not None and not line.strip():
            return
        while not self._stopping.is_set():
            try:
                self.lines.put(line, timeout=POLL_SECONDS)
                return
            except queue.Full:
                pass

    def _read_stdout(self) -> None:
        """Splits stdout at CR, LF or CR LF (all allowed to a brain) into ``lines``.
        The stream is this thread's to close: closing it from another thread would
        wait for a read that a child of the engine, holding the pipe, can prolong."""
        stream = self.popen.stdout
        assert stream is not None
        pending = b""
        skipping = False
        try:
            while not self._stopping.is_set():
                try:
                    chunk = stream.read1(MAX_LINE)
                except (OSError, ValueError):
                    break
                if not chunk:
                    break
                parts = re.split(rb"\r\n|\r|\n", pending + chunk)
                pending = parts.pop()
                for part in parts:
                    if not skipping:
                        self._queue(part.decode("utf-8", "replace"))
                    skipping = False
                if len(pending) > MAX_LINE:
                    if not skipping:
                        self._queue(pending[:MAX_LINE].decode("utf-8", "replace"))
                    pending = b""
                    skipping = True
            if pending and not skipping:
                self._queue(pending.decode("utf-8", "replace"))
            self._queue(_END_OF_OUTPUT)
        finally:
            stream.close()

    def _read_stderr(self) -> None:
        stream = self.popen.stderr
        assert stream is not None
        try:
            for raw in iter(lambda: stream.readline(MAX_LINE), b""):
                text = raw.decode("utf-8", "replace").rstrip()
                self.stderr_tail.append(text)
                logger.debug("%s stderr: %s", self.name, text)
        except (OSError, ValueError):
            pass
        finally:
            stream.close()  # this thread's to close, as stdout

    def send(self, line: str) -> None:
        """Writes one command line (CR LF, as piskvork does)."""
        logger.debug("%s <- %s", self.name, line)
        stdin = self.popen.stdin
        assert stdin is not None
        try:
            stdin.write(line.encode() + b"\r\n")
            stdin.flush()
        except OSError:  # BrokenPipeError: the engine has exited
            raise EngineError(self.exited(f"before reading {line!r}")) from None

    def receive(self, timeout: float) -> str | None:
        """The next output line, None at the end of the output; ``queue.Empty``
        after ``timeout`` seconds."""
        line = self.lines.get(timeout=max(timeout, 0.0))
        if line is not None:
            logger.debug("%s -> %s", self.name, line)
        return line

    def exited(self, when: str) -> str:
        """A message saying the engine exited, with its code and last stderr lines."""
        try:
            code = self.popen.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            code = None
        if code is not None:
            self._readers[1].join(timeout=1.0)  # the stderr lines written before the exit
        text = (
            f"{self.name} closed its output {when}"
            if code is None
            else (f"{self.name} exited with code {code} {when}")
        )
        tail = " | ".join(line for line in self.stderr_tail if line)
        return f"{text}; its stderr: {tail}" if tail else text

    def stop(self, grace: float) -> None:
        """Sends ``END``, waits ``grace`` seconds for the process to end, then kills
        its group (what is left of it: children of the engine too) and reaps the
        process; closes stdin. The readers close stdout and stderr. Safe to call twice."""
        popen = self.popen
        if popen.poll() is None:
            try:
                assert popen.stdin is not None
                popen.stdin.write(b"END\r\n")
                popen.stdin.flush()
            except OSError:
                pass
            try:
                popen.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                pass
        self.kill()
        for reader in self._readers:  # they end at the end of the output
            reader.join(timeout=1.0)
        try:
            if popen.stdin is not None:
                popen.stdin.close()
        except OSError:
            pass

    def kill(self) -> None:
        """Kills the process group at once, whether or not the engine itself has
        ended (a child of its own may hold its pipes), and reaps the engine.

        The group's id is the engine's pid, which the system does not give another
        process while the group has a member."""
        popen = self.popen
        self._stopping.set()
        try:
            if os.name == "posix":
                os.killpg(popen.pid, signal.SIGKILL)
            elif popen.poll() is None:
                popen.kill()
        except (ProcessLookupError, PermissionError):  # the group has ended
            pass
        try:
            popen.wait(timeout=5.0)
        except subprocess.TimeoutExpired:  # killed, not yet reaped: `poll` later reaps it
            logger.warning("%s: killed, but still not ended after 5 s", self.name)


def _stop_process(process: _Process, grace: float) -> None:
    """The finaliser of a :class:`Gomocup`: holds the process, never the engine."""
    try:
        process.stop(grace)
    except Exception:  # interpreter shutdown: at least kill it
        process.kill()


#: Gomocup's ``INFO rule`` of each inarow rule.
_RULE_CODES = {"freestyle": 0, "standard": 1, "renju": 4}


class Gomocup:
    """An external Gomocup brain as an agent ``agent(board) -> action``.

    ``command``: the program and its arguments (a ``str`` is one program path).
    The process starts at once (``ABOUT`` is asked; its fields land in ``about``),
    gets ``START n`` (square boards) or ``RECTSTART w,h`` and the ``INFO`` limits
    on the first board, and is stopped by :meth:`close` (``END``, then a kill after
    ``grace`` seconds), by ``with``, or when the object is collected.

    Limits, in seconds and bytes as Python counts them (sent in piskvork's
    milliseconds, so at most :data:`MAX_SECONDS`, 24.8 days): ``timeout_turn`` per
    move; ``timeout_match`` per game (None or ``math.inf``: no limit; else ``INFO
    time_left`` tracks what the engine has used in this game);
    ``max_memory`` (None: no limit). An answer later than its limit plus ``grace``
    raises :class:`EngineTimeout`; ``startup_timeout`` bounds the answers to ``ABOUT``,
    ``START`` and ``RESTART``, and is added to the first move of each process (when
    engines fill their tables). ``settle``: the seconds between an engine's move and
    the next command to it, at least (Rapfi 0.43 prints its move before it ends its
    search, and drops a command that arrives in between).

    ``rule``: ``INFO rule`` (0: freestyle, five or more in a row wins, inarow's default
    rule; 1: exactly five, ``Rules(..., rule="standard")``; 4: renju), or the name of
    an inarow rule (``"freestyle"``, ``"standard"``, ``"renju"``). A board under
    standard or renju is played only by an engine started with that rule
    (``UnsupportedRulesError`` otherwise); other ``INFO rule`` values are the
    engine's own business. ``k``: the line length the engine plays (5 for a gomoku
    brain).

    Each call hands over the position: ``TURN x,y`` when the board extends the last
    one the engine answered by one move, else ``RESTART`` (a new game) and
    ``BEGIN`` on an empty board or ``BOARD`` ... ``DONE`` with the stones in the
    order played. ``MESSAGE``/``DEBUG``/``ERROR``/``UNKNOWN`` lines go to the
    ``inarow.engines`` logger.

    Raises: :class:`inarow.UnsupportedRulesError` for boards with gravity, other
    than 2 players, or another ``k``, and when the engine refuses the board size;
    :class:`inarow.IllegalMoveError` for a finished board; :class:`EngineTimeout`,
    :class:`IllegalEngineMove` (off the board or onto a stone) and
    :class:`EngineError` (it exited, or sent a line that is no move) name the
    engine. After any engine fault the process is killed; the next call starts a
    fresh one. ``FileNotFoundError``/``PermissionError`` from the constructor for a
    program that cannot run; ``ValueError``/``TypeError`` naming the setting for a
    limit out of its range (a NaN, a negative time, or one above :data:`MAX_SECONDS`).

    Copies and pickles are new, not yet started engines with the same settings;
    each starts its own process on its first move.
    """

    def __init__(
        self,
        command: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
        *,
        timeout_turn: float = 5.0,
        timeout_match: float | None = None,
        max_memory: int | None = None,
        rule: int | str = 0,
        k: int = 5,
        grace: float = 1.0,
        startup_timeout: float = 10.0,
        settle: float = 0.02,
        name: str | None = None,
        cwd: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
        _start: bool = True,
    ) -> None:
        if isinstance(command, (str, os.PathLike)):
            argv = [os.fspath(command)]
        else:
            argv = [os.fspath(part) for part in command]
        if not argv:
            raise ValueError("command is empty: give the engine's program")
        self.timeout_turn = _seconds("timeout_turn", timeout_turn)
        if timeout_match is None or timeout_match == math.inf:  # piskvork's "no limit"
            self.timeout_match: float | None = None
        else:
            self.timeout_match = _seconds(
                "timeout_match", timeout_match, also="None or inf (no limit), or "
            )
        if max_memory is not None and max_memory < 0:
            raise ValueError(f"max_memory must be None or >= 0 bytes, got {max_memory!r}")
        self.grace = _seconds("grace", grace, zero=True)
        self.startup_timeout = _seconds("startup_timeout", startup_timeout)
        self.settle = _seconds("settle", settle, zero=True)
        self.command = argv
        self.max_memory = max_memory
        if isinstance(rule, str):
            if rule not in _RULE_CODES:
                raise ValueError(
                    f"rule={rule!r} is not a rule: allowed {sorted(_RULE_CODES)} or an int"
                )
            rule = _RULE_CODES[rule]
        self.rule = int(rule)
        self.k = int(k)
        self.cwd = None if cwd is None else os.fspath(cwd)
        self.env = None if env is None else dict(env)
        self._given_name = name
        self.name = name or os.path.basename(argv[0])
        #: The engine's ``ABOUT`` fields (``name``, ``version``, ``author``...).
        self.about: dict[str, str] = {}
        self._lock = threading.RLock()
        self._process: _Process | None = None
        self._finalizer: weakref.finalize | None = None
        self._closed = False
        self._size: tuple[int, int] | None = None
        self._seen: list[int] | None = None  # the moves the engine knows, in order
        self._game_seconds = 0.0  # the engine's thinking time in the current game
        self._first_move = True  # the process's first move also gets startup_timeout
        self._answered_at = -math.inf  # when the engine last answered a move
        if _start:
            self._spawn()

    # ------------------------------------------------------------------- lifecycle

    def _spawn(self) -> None:
        process = _Process(self.command, self.cwd, self.env, self.name)
        self._process = process
        self._finalizer = weakref.finalize(self, _stop_process, process, self.grace)
        self._size = None
        self._seen = None
        self._first_move = True
        try:
            process.send("ABOUT")
            line = self._reply("ABOUT", self.startup_timeout)
        except EngineError:
            self._fail()
            raise
        about = _piskvork.parse_about(line)
        if about:
            self.about = about
            if self._given_name is None and about.get("name"):
                self.name = process.name = about["name"]

    def _running(self) -> _Process:
        if self._closed:
            raise EngineError(f"{self.name} is closed")
        if self._process is None:
            self._spawn()
        assert self._process is not None
        return self._process

    def _fail(self) -> None:
        """Kills the process after a fault; the next call starts a fresh one."""
        if self._finalizer is not None:
            self._finalizer.detach()
            self._finalizer = None
        if self._process is not None:
            self._process.kill()
            self._process.stop(0.0)
            self._process = None

    def close(self) -> None:
        """Ends the engine: ``END``, a kill after ``grace`` seconds, the process
        reaped. Later calls raise :class:`EngineError`."""
        with self._lock:
            self._closed = True
            if self._finalizer is not None:
                self._finalizer()  # runs _stop_process once
                self._finalizer = None
            self._process = None

    def __enter__(self) -> Gomocup:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def pid(self) -> int | None:
        """The running process's id, None when none runs."""
        return None if self._process is None else self._process.popen.pid

    def _settings(self) -> dict[str, Any]:
        return {
            "command": self.command,
            "timeout_turn": self.timeout_turn,
            "timeout_match": self.timeout_match,
            "max_memory": self.max_memory,
            "rule": self.rule,
            "k": self.k,
            "grace": self.grace,
            "startup_timeout": self.startup_timeout,
            "settle": self.settle,
            "name": self._given_name,
            "cwd": self.cwd,
            "env": self.env,
        }

    def __reduce__(self) -> tuple[Any, ...]:
        return (_unstarted, (self._settings(),))

    def __repr__(self) -> str:
        shown = {key: value for key, value in self._settings().items() if key != "command"}
        defaults = {
            "timeout_turn": 5.0,
            "timeout_match": None,
            "max_memory": None,
            "rule": 0,
            "k": 5,
            "grace": 1.0,
            "startup_timeout": 10.0,
            "settle": 0.02,
            "name": None,
            "cwd": None,
            "env": None,
        }
        args = [repr(self.command)]
        args += [f"{key}={value!r}" for key, value in shown.items() if defaults[key] != value]
        return f"inarow.engines.Gomocup({', '.join(args)})"

    # ------------------------------------------------------------------------ play

    def _check(self, board: Board) -> None:
        if not isinstance(board, Board):
            raise TypeError(f"{self.name} plays an inarow.Board, got {type(board).__name__}")
        if board.gravity or board.players != 2 or board.k != self.k:
            raise UnsupportedRulesError(
                f"{self.name} is a Gomocup brain: it plays 2 players placing stones freely, "
                f"{self.k} in a row (k={self.k}); this board has {board.players} players, "
                f"k={board.k}, gravity={board.gravity}"
            )
        wanted = _RULE_CODES[board.rules.rule]
        if wanted and self.rule != wanted:
            raise UnsupportedRulesError(
                f"{self.name} was started with INFO rule {self.rule}; this board plays "
                f"rule={board.rules.rule!r} (INFO rule {wanted}): pass rule={board.rules.rule!r}"
            )
        if board.is_over:
            raise IllegalMoveError(f"{self.name}: the game on this board is over")

    def __call__(self, board: Board) -> int:
        """The engine's move on ``board`` (see the class for what it raises)."""
        with self._lock:
            self._check(board)
            try:
                return self._play(board)
            except EngineError:
                self._fail()
                raise

    def _play(self, board: Board) -> int:
        time.sleep(max(0.0, self._answered_at + self.settle - time.monotonic()))
        self._running()
        size = (board.width, board.height)
        if self._size != size:
            if self._size is not None:  # a new size: a fresh process, as piskvork does
                self._fail()
                self._running()
            self._start_board(*size)
        history = self._history(board)
        seen = self._seen
        extends = seen is not None and len(history) == len(seen) + 1 and history[:-1] == seen
        if not extends:
            self._new_game()
        process = self._running()  # the one the game starts on, fresh or not
        if self.timeout_match is not None:
            left_ms = max(1, round((self.timeout_match - self._game_seconds) * 1000))
            process.send(f"INFO time_left {left_ms}")
        if extends:
            what = f"TURN {_piskvork.cell_text(history[-1], board.width)}"
            process.send(what)
        elif not history:
            what = "BEGIN"
            process.send(what)
        else:
            what = "BOARD"
            process.send("BOARD")
            for action in history:
                row, col = divmod(action, board.width)
                field = 1 if board.owner(row, col) == board.current_player else 2
                process.send(f"{col},{row},{field}")
            process.send("DONE")
        started = time.monotonic()
        limit = self.timeout_turn
        if self.timeout_match is not None:
            limit = min(limit, max(0.0, self.timeout_match - self._game_seconds))
        self._seen = None  # unknown until the engine answers
        allowance = self.startup_timeout if self._first_move else 0.0
        action = self._move(board, what, limit, allowance)
        self._first_move = False
        self._game_seconds += time.monotonic() - started
        self._seen = [*history, action]
        self._answered_at = time.monotonic()
        return action

    @staticmethod
    def _history(board: Board) -> list[int]:
        """The board's stones in the order played (alternating players from player 1
        when the board does not carry its history)."""
        moves = board.moves
        if len(moves) == board.num_stones:
            return list(moves)
        grid = board.to_numpy().ravel()
        first = [int(a) for a in (grid == 1).nonzero()[0]]
        second = [int(a) for a in (grid == 2).nonzero()[0]]
        order = [a for pair in zip(first, second) for a in pair]
        return order + first[len(second) :]

    def _start_board(self, width: int, height: int) -> None:
        process = self._running()
        command = f"START {width}" if width == height else f"RECTSTART {width},{height}"
        process.send(command)
        reply = self._reply(command, self.startup_timeout)
        head, rest = _piskvork.split_command(reply)
        if head != "OK":
            self._fail()
            raise UnsupportedRulesError(
                f"{self.name} refuses a {width}x{height} board: it answered {reply!r} to {command!r}"
            )
        process.send(f"INFO timeout_turn {round(self.timeout_turn * 1000)}")
        process.send(f"INFO timeout_match {round((self.timeout_match or 0) * 1000)}")
        process.send(f"INFO max_memory {self.max_memory or 0}")
        process.send("INFO game_type 1")
        process.send(f"INFO rule {self.rule}")
        if self.timeout_match is None:
            process.send(f"INFO time_left {UNLIMITED_MS}")
        self._size = (width, height)
        self._seen = []

    def _new_game(self) -> None:
        """``RESTART`` when the engine holds stones; a fresh process if it does not
        answer ``OK`` (piskvork's rule)."""
        self._game_seconds = 0.0
        if self._seen == []:
            return
        process = self._running()
        process.send("RESTART")
        reply = self._reply("RESTART", self.startup_timeout)
        if _piskvork.split_command(reply)[0] != "OK":
            size = self._size
            assert size is not None
            logger.info("%s answered %r to RESTART: starting it again", self.name, reply)
            self._fail()
            self._running()
            self._start_board(*size)
        self._seen = []

    def _next_line(self, what: str, deadline: float, limit: float, extra: float) -> str:
        """The next non-empty line that is not a message (those are logged), by
        ``deadline``: ``limit`` seconds plus ``extra`` from the command, however much
        the engine prints. An engine that has exited and printed nothing more for
        :data:`POLL_SECONDS` has ended, even while a child of its own holds its output."""
        process = self._running()
        exited = False
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise EngineTimeout(
                    f"{self.name} did not answer {what!r} within {limit:g} s (+ {extra:g} s grace)"
                )
            try:
                line = process.receive(min(left, POLL_SECONDS))
            except queue.Empty:
                if exited:
                    line = None
                else:
                    exited = process.popen.poll() is not None
                    continue
            if line is None:
                raise EngineError(process.exited(f"instead of answering {what!r}"))
            head, rest = _piskvork.split_command(line)
            if not head:
                continue
            if head == "MESSAGE":
                logger.info("%s: %s", self.name, rest)
            elif head == "DEBUG":
                logger.debug("%s: %s", self.name, rest)
            elif head in ("ERROR", "UNKNOWN") and what.split()[0] not in (
                "ABOUT",
                "START",
                "RECTSTART",
                "RESTART",
            ):
                logger.warning("%s: %s", self.name, line.strip())
            else:
                return line.strip()

    def _reply(self, what: str, limit: float) -> str:
        """The reply to a command other than a move."""
        return self._next_line(what, time.monotonic() + limit + self.grace, limit, self.grace)

    def _move(self, board: Board, what: str, limit: float, allowance: float) -> int:
        """Reads the engine's move (answering ``SUGGEST`` with ``PLAY``), checked."""
        deadline = time.monotonic() + limit + self.grace + allowance
        while True:
            line = self._next_line(what, deadline, limit, self.grace + allowance)
            head, rest = _piskvork.split_command(line)
            if head == "SUGGEST" and _piskvork.parse_cell(rest) is not None:
                self._running().send(f"PLAY {rest}")
                continue
            if head == "OK":
                continue
            cell = _piskvork.parse_cell(line)
            if cell is None:
                raise EngineError(
                    f"{self.name} answered {line[:200]!r} to {what!r}: not a move 'x,y'"
                )
            x, y = cell
            if not (0 <= x < board.width and 0 <= y < board.height):
                raise IllegalEngineMove(
                    f"{self.name} played {line!r} (column {x}, row {y}), off the "
                    f"{board.width}x{board.height} board",
                    line,
                )
            if board.owner(y, x) != 0:
                raise IllegalEngineMove(
                    f"{self.name} played {line!r} (column {x}, row {y}): the cell holds a "
                    f"stone of player {board.owner(y, x)}",
                    line,
                )
            return y * board.width + x


def _unstarted(settings: dict[str, Any]) -> Gomocup:
    """A copy of a pickled engine: same settings, started on its first move."""
    return Gomocup(**settings, _start=False)
