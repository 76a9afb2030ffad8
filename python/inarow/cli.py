"""The ``inarow`` command line: ``play``, ``solve``, ``bench``, ``simulate``, ``train``,
``pbrain``.

Examples::

    inarow play                       # Connect Four against the solver
    inarow play --opponent negamax:4  # against a depth-4 search (also: greedy, random,
                                      # perfect, perfect:0.5 = solver with temperature 0.5,
                                      # pretrained:800 = the shipped network, 800 simulations)
    inarow play --width 3 --height 3 --k 3 --no-gravity --first engine
    inarow solve 4453                 # who wins, with which stone (Pons' 1-based columns)
    inarow solve 4453 --analyze       # score of each move (--plain: the numbers alone)
    inarow solve --rules tic_tac_toe 1,1 0,1   # free placement: cells row,col from 0
    inarow solve < Test_L3_R1         # "moves [expected]" lines -> "moves score nodes time_us"
    inarow simulate 100000 --players 3 --width 8 --height 8 --k 4 --no-gravity
    inarow bench
    inarow train tic_tac_toe --minutes 5   # self-play training (needs the train extra)
    inarow pbrain --agent negamax:3   # a Gomocup brain on stdin/stdout (piskvork protocol)

Ctrl-C ends any command with exit code 130 and a one-line message.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Sequence
from typing import TextIO

import inarow
from inarow._rule_flags import add_rule_flags, rules_from_flags
from inarow._rules import PRESETS

__all__ = ["main"]

EXIT_INTERRUPTED = 130


def _add_rules(p: argparse.ArgumentParser, players: bool = True) -> None:
    g = p.add_argument_group("rules (default: Connect Four)")
    g.add_argument(
        "--rules",
        choices=sorted(PRESETS),
        help="a named game; --width, --height, ... given beside it change it",
    )
    add_rule_flags(g, players)


def _rules(args: argparse.Namespace) -> inarow.Rules:
    """The rules the options name: ``--rules`` (Connect Four by default), changed by
    the flags given (``InvalidRulesError`` for impossible rules)."""
    return rules_from_flags(PRESETS[getattr(args, "rules", None) or "connect_four"], args)


# ------------------------------------------------------------------------------ play


def _ask(board: inarow.Board) -> str:
    """How a person enters a move on ``board``."""
    if board.gravity:
        return f"enter a column number, 1 to {board.width}"
    return (
        f"enter 'row col' (from 0, row 0 the top row, as labelled: rows 0 to "
        f"{board.height - 1}, columns 0 to {board.width - 1}) or the action row * "
        f"{board.width} + col"
    )


def _parse_move(text: str, board: inarow.Board) -> int:
    """The action a person typed: with gravity a column counted from 1 (as Pons'
    digits); without, ``row col`` or ``row,col`` counted from 0 as ``str(board)``
    labels them (row 0 the top row), or the action ``row * width + col`` itself."""
    parts = text.replace(",", " ").split()
    ask = _ask(board)
    if not parts or len(parts) > (1 if board.gravity else 2):
        raise ValueError(ask)
    try:
        numbers = [int(p) for p in parts]
    except ValueError:
        raise ValueError(ask) from None
    if board.gravity:
        (col,) = numbers
        if not 1 <= col <= board.width:
            raise ValueError(f"column {col} is not on the board: {ask}")
        if not board.legal_mask()[col - 1]:
            raise ValueError(f"column {col} is full: {ask}")
        return col - 1
    if len(numbers) == 1:
        (action,) = numbers
        if not 0 <= action < board.num_actions:
            raise ValueError(f"action {action} is not on the board: {ask}")
        row, col = divmod(action, board.width)
    else:
        row, col = numbers
        if not (0 <= row < board.height and 0 <= col < board.width):
            raise ValueError(f"row {row}, column {col} is not on the board: {ask}")
        action = row * board.width + col
    if not board.legal_mask()[action]:
        raise ValueError(f"row {row}, column {col} is taken: {ask}")
    return action


def _shown(board: inarow.Board) -> str:
    """The board as printed to a person: with gravity, columns counted from 1 under
    it (as Pons' digits); without, ``str(board)``: rows and columns from 0."""
    if not board.gravity:
        return str(board)
    lines = str(board).rstrip("\n").split("\n")[: board.height]
    width = len(str(board.width))
    cols = " ".join(str(c + 1).rjust(width) for c in range(board.width))
    body = [" ".join(cell.rjust(width) for cell in line.split()) for line in lines]
    return "\n".join([*body, cols]) + "\n"


def _describe(action: int, board: inarow.Board) -> str:
    if board.gravity:
        return f"column {action + 1}"
    row, col = divmod(action, board.width)
    return f"{row},{col} (row {row}, column {col})"


def _undo(board: inarow.Board, human: int) -> int:
    """Takes back the human's last move and every move after it; the moves taken
    back (0 when the human has not moved)."""
    played = len(board.moves)
    mine = [ply for ply in range(played) if ply % board.players == human - 1]
    if not mine:
        return 0
    for _ in range(played - mine[-1]):
        board.undo()
    return played - mine[-1]


def _hint(board: inarow.Board, seed: int | None) -> tuple[str, int]:
    """A suggested move for the side to move, and who suggests it: the solver where
    it applies (3 s at most), else the threat engine (2 players, 1 s), else negamax:4."""
    if inarow.Solver.supports(board):
        return "solver", inarow.Solver().best_move(board, time_limit=3.0)
    name = "threats:1" if board.players == 2 else "negamax:4"
    return name, int(inarow.agents.named(name, seed=seed)(board))


#: Free-placement boards up to this many cells are solved from the empty board in
#: about a second or less (6x6, k = 5: 0.3 s); larger ones may take minutes.
QUICK_FREE_CELLS = 36


def _default_engine(board: inarow.Board, game: str | None) -> str:
    """The strongest fitting opponent: the solver where it applies and answers at
    once (free placement: at most ``QUICK_FREE_CELLS`` cells), the shipped network of
    a game that has one, else a depth-4 search."""
    quick = board.gravity or board.width * board.height <= QUICK_FREE_CELLS
    if inarow.Solver.supports(board) and quick:
        return "solver"
    return "pretrained" if game is not None else "negamax:4"


def _opponent(spec: str) -> str:
    """Checks an ``--opponent`` value (see ``inarow.agents.NAMES``)."""
    try:
        inarow.agents.named(spec)
    except (ValueError, FileNotFoundError) as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return spec


def _cmd_play(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    board = inarow.Board(rules=_rules(args))
    if args.moves:
        try:
            for action in args.moves.replace(",", " ").split():
                board.move(int(action))
        except ValueError as e:  # IllegalMoveError is a ValueError
            print(f"error: --moves: {e}", file=sys.stderr)
            return 2
    human = 1 if args.first == "human" else 2
    engine = args.engine
    agent = None
    from inarow.pretrained import pretrained_game

    game = pretrained_game(board.rules)
    if args.opponent is not None:
        engine = args.opponent
        if engine.startswith("perfect") and not inarow.Solver.supports(board):
            print(
                "error: the perfect opponent needs the solver's rules (2 players; the "
                "freestyle rule, or standard without gravity; gravity with "
                "width * (height + 1) <= 64, or at most 128 cells without)",
                file=sys.stderr,
            )
            return 2
        try:
            agent = inarow.agents.named(engine, seed=args.seed, rules=board.rules)
        except ValueError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
    elif engine == "auto":
        engine = _default_engine(board, game)
        if engine != "solver":
            agent = inarow.agents.named(engine, seed=args.seed, rules=board.rules)
    solver = None
    if engine == "solver":
        if not inarow.Solver.supports(board):
            print(
                "error: the solver covers 2 players: gravity with width * (height + 1) "
                "<= 64, or at most 128 cells without gravity",
                file=sys.stderr,
            )
            return 2
        solver = inarow.Solver()
    rng = random.Random(args.seed)
    how = (
        f"a column 1 to {board.width}"
        if board.gravity
        else f"'row col' (from 0, row 0 the top row, as labelled) or an action row * "
        f"{board.width} + col"
    )
    print(
        f"you are player {human} ({'XOABCDEFGHIJKLMN'[human - 1]}); the engine ({engine}) "
        f"plays the other seats. Enter {how}; 'u' takes your last move back, '?' asks "
        "for a hint, 'q' quits.",
        file=out,
    )
    show = True  # the board is printed once a turn: before the human's move, and at the end
    while True:
        if show:
            print(_shown(board), file=out, end="")
        show = False
        if board.is_over:
            if board.winner is None:
                print("draw", file=out)
            elif board.winner == human:
                print("you win", file=out)
            else:
                print(f"player {board.winner} wins", file=out)
            return 0
        if board.current_player == human:
            print(f"your move (player {human}): ", file=out, end="", flush=True)
            line = inp.readline()
            if not line:
                print("\nend of input: game abandoned", file=out)
                return 0
            typed = line.strip().lower()
            if typed in ("q", "quit", "exit"):
                print("bye", file=out)
                return 0
            if typed in ("u", "undo"):
                taken = _undo(board, human)
                if taken:
                    print(f"took back {taken} move{'s' if taken > 1 else ''}", file=out)
                else:
                    print("nothing to undo: you have not moved yet", file=out)
                show = bool(taken)
                continue
            if typed in ("?", "hint"):
                who, action = _hint(board, args.seed)
                print(f"hint ({who}): {_describe(action, board)}", file=out)
                continue
            try:
                action = _parse_move(line, board)
                board.move(action)
            except (ValueError, TypeError) as e:  # IllegalMoveError is a ValueError
                print(f"illegal: {e}", file=out)
                continue
            show = board.is_over
            continue
        if agent is not None:
            action = agent(board)
        elif solver is not None:
            action = solver.best_move(board)
        else:
            action = rng.choice(board.legal_moves())
        print(f"player {board.current_player} plays {_describe(action, board)}", file=out)
        board.move(action)
        show = board.is_over or board.current_player == human


# ----------------------------------------------------------------------------- solve


def _free_position(text: str, rules: inarow.Rules) -> inarow.Board:
    """A free-placement position: moves separated by spaces or ``;``, each a cell
    ``row,col`` (both from 0, row 0 the top row, as ``str(board)`` labels them) or an
    action ``row * width + col``; ``-`` or nothing is the empty board."""
    board = inarow.Board(rules=rules)
    width, height = board.width, board.height
    for index, move in enumerate(text.replace(";", " ").split(), 1):
        if move == "-":
            continue
        where = f"move {index} ({move!r})"
        parts = move.split(",")
        try:
            numbers = [int(part) for part in parts]
        except ValueError:
            numbers = []
        if len(numbers) == 2:
            row, col = numbers
            if not (0 <= row < height and 0 <= col < width):
                raise ValueError(
                    f"{where}: row {row}, column {col} is off the {width}x{height} board "
                    f"(rows 0 to {height - 1}, columns 0 to {width - 1}, row 0 the top row)"
                )
            action = row * width + col
        elif len(numbers) == 1:
            action = numbers[0]
            if not 0 <= action < width * height:
                raise ValueError(
                    f"{where}: action {action} is off the board (0 to {width * height - 1}: "
                    f"row * {width} + col)"
                )
        else:
            raise ValueError(
                f"{where} is not a cell: give 'row,col' (from 0, row 0 the top row) or an "
                f"action row * {width} + col, moves separated by spaces or ';'"
            )
        try:
            board.move(action)
        except ValueError as e:  # a taken cell, a finished game
            raise ValueError(f"{where}: {e}") from None
    return board


def _position(text: str, rules: inarow.Rules) -> inarow.Board:
    """The board of a position: Pons' 1-based column digits with gravity, cells
    without (see :func:`_free_position`)."""
    if rules.gravity:
        return inarow.Board.from_pons(text, rules)
    return _free_position(text, rules)


def _solve_line(
    lineno: int, line: str, fields: list[str], rules: inarow.Rules, weak: bool
) -> tuple[str, inarow.Board, int | None]:
    """One ``moves [expected_score]`` line of stdin: its board and expected score
    (win/draw/loss when ``weak``). Errors name the line and its text."""
    where = f"line {lineno} ({line.strip()!r})"
    if len(fields) > 2:
        raise ValueError(f"{where}: expected 'moves [expected_score]', got {len(fields)} fields")
    try:
        board = _position(fields[0], rules)
    except ValueError as e:
        raise ValueError(f"{where}: {e}") from e
    if len(fields) == 1:
        return fields[0], board, None
    try:
        expected = int(fields[1])
    except ValueError:
        raise ValueError(f"{where}: the expected score {fields[1]!r} is not an integer") from None
    if weak:
        expected = (expected > 0) - (expected < 0)
    return fields[0], board, expected


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _verdict(board: inarow.Board, score: int, weak: bool) -> str:
    """A solved score in words: who wins, and with which stone (Pons' convention: a
    win whose winning stone is the ``m+1``-th of the game scores ``(N + 1 - m) // 2``
    on ``N`` cells, for the side to move; a loss the negation)."""
    if board.is_over:
        if board.winner is None:
            return "the game is over: a draw"
        return f"the game is over: player {board.winner} has won"
    mover = board.current_player
    other = 3 - mover
    if score == 0:
        return f"a draw with best play (player {mover} to move)"
    winner, loser = (mover, other) if score > 0 else (other, mover)
    who = (
        f"player {winner} (to move) wins"
        if score > 0
        else f"player {winner} wins whatever player {loser} (to move) plays"
    )
    if weak:
        return f"{who} (score {score}: the outcome only, with --weak)"
    n, cells = board.num_stones, board.width * board.height
    first = n if score > 0 else n + 1  # the stones on the board before the winner's next
    m = next(m for m in (cells + 1 - 2 * abs(score), cells - 2 * abs(score)) if m % 2 == first % 2)
    own = (m - first) // 2 + 1
    return (
        f"{who}: with best play on both sides, its {_ordinal(own)} stone from here wins "
        f"(the {_ordinal(m + 1)} stone of the game; score {score}, Pons' convention for the "
        "side to move: > 0 a win, larger sooner)"
    )


def _cells_label(board: inarow.Board) -> str:
    return (
        "columns counted from 1, as Pons' digits"
        if board.gravity
        else "cells 'row,col' from 0, row 0 the top row (action row * width + col)"
    )


def _analysis(moves: str, board: inarow.Board, scores: list, weak: bool) -> str:
    """Every move's score, labelled: whose turn, the convention, the best moves.
    Gravity: a row of scores under the columns (from 1); free placement: a grid of
    scores, rows and columns from 0 as ``str(board)`` labels them."""
    width = max(3, *(len(str(s)) for s in scores if s is not None))
    cells = ["-" if s is None else str(s) for s in scores]
    legal = [s for s in scores if s is not None]
    best = max(legal)
    if board.gravity:
        best_moves = [str(c + 1) for c, s in enumerate(scores) if s == best]
        table = (
            f"column {' '.join(str(c + 1).rjust(width) for c in range(board.width))}\n"
            f"score  {' '.join(c.rjust(width) for c in cells)}\n"
        )
        noun = "column"
    else:
        best_moves = [
            f"{a // board.width},{a % board.width}" for a, s in enumerate(scores) if s == best
        ]
        label = len(str(board.height - 1))
        rows = [
            " " * (label + 1) + " ".join(str(c).rjust(width) for c in range(board.width)),
            *(
                f"{r:>{label}} "
                + " ".join(c.rjust(width) for c in cells[r * board.width : (r + 1) * board.width])
                for r in range(board.height)
            ),
        ]
        table = "scores by cell ('-': taken)\n" + "\n".join(rows) + "\n"
        noun = "cell"
    if weak:
        meaning = {1: "a win", 0: "a draw", -1: "a loss"}[best]
        convention = "1 a win, 0 a draw, -1 a loss, for the side to move"
    else:
        meaning = "a draw" if best == 0 else ("a win" if best > 0 else "a loss")
        convention = (
            "Pons' scores for the side to move: > 0 a win (larger: sooner), "
            "0 a draw, < 0 a loss (smaller: sooner)"
        )
    many = len(best_moves) > 1
    comma = ", " if board.gravity else " "  # a cell's own comma: cells apart by spaces
    which = comma.join(best_moves[:-1]) + " or " + best_moves[-1] if many else best_moves[0]
    return (
        f"position {moves or '(empty)'}: player {board.current_player} to move\n"
        f"{table}"
        f"best: {noun}{'s' if many else ''} {which} (score {best}: {meaning})\n"
        f"scores: {convention}; {_cells_label(board)}\n"
    )


def _cmd_solve(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    rules = _rules(args)  # impossible rules: the library's message
    if rules.players != 2:
        raise ValueError(f"the solver plays 2 players, got --players {rules.players}")
    if rules.gravity and len(args.position) > 1:
        raise ValueError(
            f"a position with gravity is one string of Pons' column digits (e.g. 4453), "
            f"got {len(args.position)}: {' '.join(args.position)!r}"
        )
    solver = inarow.Solver(tt_bytes=args.tt_mib << 20)
    if args.position:
        text = " ".join(args.position)
        board = _position(text, rules)
        if args.analyze:
            scores = solver.analyze(board, weak=args.weak)
            if args.plain:
                print(" ".join("-" if s is None else str(s) for s in scores), file=out)
            elif not any(s is not None for s in scores):
                print(_verdict(board, solver.solve(board, weak=args.weak), args.weak), file=out)
            else:
                print(_analysis(text, board, scores, args.weak), file=out, end="")
        else:
            score = solver.solve(board, weak=args.weak)
            print(score if args.plain else _verdict(board, score, args.weak), file=out)
        return 0
    if hasattr(inp, "isatty") and inp.isatty():
        what = "Pons' column digits" if rules.gravity else "cells 'row,col' joined by ';'"
        print(
            f"inarow solve: reading 'moves [expected_score]' lines from stdin (moves: {what}); "
            "Ctrl-D ends. Give a position as an argument to solve one (inarow solve --help).",
            file=sys.stderr,
        )
    mismatches = 0
    for lineno, line in enumerate(inp, 1):
        fields = line.split()
        if not fields:
            continue
        moves, board, expected = _solve_line(lineno, line, fields, rules, args.weak)
        t0 = time.perf_counter()
        score = solver.solve(board, weak=args.weak)
        us = int((time.perf_counter() - t0) * 1e6)
        print(f"{moves} {score} {solver.nodes} {us}", file=out, flush=True)
        if expected is not None:
            if score != expected:
                mismatches += 1
                print(f"line {lineno}: {moves}: expected {expected}, got {score}", file=sys.stderr)
    if mismatches:
        print(f"{mismatches} mismatch(es)", file=sys.stderr)
        return 1
    return 0


# --------------------------------------------------------------------- simulate, bench


def _cmd_simulate(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    r = inarow.simulate(
        args.games,
        rules=_rules(args),
        seed=args.seed,
        threads=args.threads,
        progress=not args.no_progress,
    )
    wins = ", ".join(f"player {i + 1}: {w}" for i, w in enumerate(r.wins))
    print(f"games: {r.games}", file=out)
    print(f"wins: {wins}; draws: {r.draws}", file=out)
    print(f"mean length: {r.mean_length:.2f} moves", file=out)
    print(f"time: {r.seconds:.3f} s ({r.moves_per_second:,.0f} moves/s)", file=out)
    return 0


#: Reference figures (BENCHMARKS.md, a quiet 2-core AMD EPYC VM, Connect Four):
#: simulate's stones placed per second, and VecEnv env-steps per second at 4096 envs.
REFERENCE = {
    "simulate": {1: 43_251_438, 2: 84_482_796},
    "vec_env": {2: 12_861_974},
}


def _cmd_bench(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    rules = _rules(args)
    cores = os.cpu_count() or 1
    threads = args.threads or cores
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    board = inarow.Board(rules=rules)
    print(
        f"inarow {inarow.__version__} bench: {threads} thread(s) on {cores} core(s), "
        f"load average {load:.2f} (1 min); rules {board.rules!r}",
        file=out,
    )
    r = inarow.simulate(args.games, rules=rules, seed=0, threads=args.threads)
    print(
        f"simulate: {r.games:,} random games, {r.moves:,} moves (stones placed) in "
        f"{r.seconds:.3f} s: {r.moves_per_second:,.0f} moves/s",
        file=out,
    )
    env = inarow.VecEnv(args.envs, rules=rules, seed=0, threads=args.threads)
    env.reset(seed=0)
    t0 = time.perf_counter()
    for _ in range(args.steps):
        env.step(env.random_actions())
    dt = time.perf_counter() - t0
    steps = args.envs * args.steps
    print(
        f"VecEnv: {args.envs:,} envs x {args.steps} steps in {dt:.3f} s: "
        f"{steps / dt:,.0f} env-steps/s ({dt / args.steps * 1e6:.1f} us per batch step, "
        "random actions drawn in Rust)",
        file=out,
    )
    if board.rules == inarow.Rules.connect_four():
        sim = REFERENCE["simulate"].get(min(threads, 2))
        vec = REFERENCE["vec_env"].get(min(threads, 2)) if args.envs == 4096 else None
        parts = [f"simulate {r.moves_per_second / sim:.2f}x of {sim:,} moves/s"] if sim else []
        if vec:
            parts.append(f"VecEnv {steps / dt / vec:.2f}x of {vec:,} env-steps/s")
        if parts:
            print(
                f"against the reference (BENCHMARKS.md, a quiet 2-core machine, "
                f"{min(threads, 2)} thread(s)): " + "; ".join(parts),
                file=out,
            )
    if load >= cores:
        print(
            f"note: the load average ({load:.1f}) is at or above the cores ({cores}): other "
            "work shares the machine, so these rates are low; run again when it is quiet",
            file=out,
        )
    return 0


# ---------------------------------------------------------------------------- pbrain


def _gomoku_agent(spec: str) -> str:
    """Checks a ``pbrain --agent`` value: ``auto`` or an agent name."""
    if spec != "auto":
        _opponent(spec)
    return spec


def _seconds(text: str) -> float:
    """A ``--time-limit`` value: seconds > 0."""
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not seconds > 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds > 0")
    return seconds


def _search_threads(text: str) -> int:
    try:
        threads = int(text)
    except ValueError:
        threads = 0
    if not 1 <= threads <= 256:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of threads in 1..256")
    return threads


def _cmd_pbrain(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    from inarow.pbrain import BestWithinTime, serve

    if inp is sys.stdin and hasattr(inp, "reconfigure"):
        inp.reconfigure(errors="replace")  # a manager's stray bytes are no crash
    if args.agent == "auto":
        agent = BestWithinTime(seed=args.seed, threads=args.threads)
    else:
        # "pretrained" is the network shipped for freestyle gomoku, 15x15.
        agent = inarow.agents.named(args.agent, seed=args.seed, rules=inarow.Rules.gomoku(15))
    return serve(agent, inp, out, time_limit=args.time_limit)


# ------------------------------------------------------------------------------ main


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="inarow",
        description="k-in-a-row games: play, solve, simulate, benchmark, train, and be a "
        "Gomocup brain",
    )
    p.add_argument("--version", action="version", version=f"inarow {inarow.__version__}")
    sub = p.add_subparsers(dest="command", required=True)

    play = sub.add_parser("play", help="play against the solver or another agent on stdin")
    _add_rules(play)
    play.add_argument(
        "--first",
        choices=["human", "engine"],
        default="human",
        help="who moves first: you (default) or the engine",
    )
    play.add_argument(
        "--engine",
        choices=["auto", "solver", "random"],
        default="auto",
        help=f"auto (default): the solver where it applies and answers at once (gravity "
        f"boards it covers, such as Connect Four; free-placement boards of at most "
        f"{QUICK_FREE_CELLS} cells, such as tic-tac-toe), else the network shipped for the "
        "rules (gomoku 15x15), else negamax:4; --opponent overrides it",
    )
    play.add_argument(
        "--opponent",
        type=_opponent,
        default=None,
        metavar="AGENT",
        help="random, greedy, negamax[:DEPTH] (default depth 4), perfect[:TEMPERATURE], "
        "threats[:SECONDS], pretrained[:SIMULATIONS] (the network shipped for the rules; "
        "default: 600 stopping early for Connect Four, else 200), or your trained "
        "PATH/network.npz[:SIMULATIONS] (see inarow.agents.named); plays every seat but yours",
    )
    play.add_argument("--seed", type=int, default=None, help="seed of the engine's random choices")
    play.add_argument(
        "--moves",
        default=None,
        metavar="ACTIONS",
        help="start from the position these actions reach, in order, separated by spaces "
        "or commas (a game of python -m inarow.tournament's log: --show prints them)",
    )
    play.set_defaults(func=_cmd_play)

    solve = sub.add_parser(
        "solve",
        help="solve a position: who wins, and with which stone (Connect Four by default)",
        description="Solves a 2-player position exactly and says who wins and with which "
        "stone (--plain: Pons' score alone). With gravity the position is Pons' column "
        "digits counted from 1 (4453); without (--rules tic_tac_toe, --no-gravity) it is "
        "cells 'row,col' counted from 0, row 0 the top row, or actions row * width + col, "
        "separated by spaces or ';' (inarow solve --rules tic_tac_toe 1,1 0,0). Without a "
        "position, reads 'moves [expected_score]' lines from stdin (free-placement moves "
        "joined by ';') and prints 'moves score nodes time_us'; exits 1 if an expected "
        "score differs.",
    )
    solve.add_argument(
        "position",
        nargs="*",
        help='e.g. "4453" with gravity, "1,1 0,0" without (omit to read stdin)',
    )
    solve.add_argument("--analyze", action="store_true", help="score every move")
    solve.add_argument("--weak", action="store_true", help="only win/draw/loss (-1/0/1)")
    solve.add_argument(
        "--plain",
        action="store_true",
        help="the score alone (with --analyze: the scores on one line, '-' for a full "
        "column or a taken cell), for scripts",
    )
    solve.add_argument(
        "--tt-mib", type=int, default=256, help="transposition table MiB (default 256)"
    )
    _add_rules(solve)
    solve.set_defaults(func=_cmd_solve)

    sim = sub.add_parser("simulate", help="play N uniformly random games")
    sim.add_argument("games", type=int, metavar="N", help="games to play")
    _add_rules(sim)
    sim.add_argument("--seed", type=int, default=0, help="seed of the random moves (default 0)")
    sim.add_argument("--threads", type=int, default=None, help="threads (default: one per core)")
    sim.add_argument("--no-progress", action="store_true", help="no progress bar")
    sim.set_defaults(func=_cmd_simulate)

    bench = sub.add_parser("bench", help="a short throughput benchmark")
    _add_rules(bench)
    bench.add_argument(
        "--games", type=int, default=1_000_000, help="random games simulated (default 1000000)"
    )
    bench.add_argument(
        "--envs", type=int, default=4096, help="VecEnv environments stepped at once (default 4096)"
    )
    bench.add_argument(
        "--steps", type=int, default=200, help="VecEnv batch steps timed (default 200)"
    )
    bench.add_argument("--threads", type=int, default=None, help="threads (default: one per core)")
    bench.set_defaults(func=_cmd_bench)

    pbrain = sub.add_parser(
        "pbrain",
        help="be a Gomocup brain: the piskvork protocol on stdin/stdout",
        description="Plays freestyle gomoku (five or more in a row) for piskvork, "
        "GomocupJudge or inarow.engines.Gomocup; x,y is column x, row y from the top, "
        "both from 0. See docs/engines.md.",
    )
    pbrain.add_argument(
        "--agent",
        type=_gomoku_agent,
        default="auto",
        metavar="AGENT",
        help="auto (default: the threat engine on gomoku-like boards, else negamax as deep as "
        "the time per move allows), or an agent "
        "name: random, greedy, negamax[:DEPTH] ... (see inarow.agents.named)",
    )
    pbrain.add_argument(
        "--time-limit",
        type=_seconds,
        default=None,
        metavar="S",
        help="at most S seconds per move ('inf': no limit of its own); 70%% of the "
        "manager's INFO timeout_turn and a twentieth of its time_left bound it too; "
        "without any: 70%% of 5 s; 3600 s at most; agents with a fixed depth ignore it",
    )
    pbrain.add_argument(
        "--threads",
        type=_search_threads,
        default=1,
        metavar="N",
        help="threads of the threat engine's search (auto agent only; default 1)",
    )
    pbrain.add_argument("--seed", type=int, default=None, help="seed of the agent's random choices")
    pbrain.set_defaults(func=_cmd_pbrain)

    from inarow.train.cli import add_parser as add_train_parser

    add_train_parser(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line; returns the exit code (130 after Ctrl-C)."""
    args = _parser().parse_args(argv)
    try:
        return int(args.func(args, sys.stdout, sys.stdin))
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # e.g. `inarow solve < set | head`
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # no second error when Python flushes stdout
        return 0
    except (ValueError, ImportError) as e:  # bad rules, positions, options
        print(f"inarow: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
