"""An independent referee for gomoku's win rules, and the clustered random games
that the engine is compared with it on.

Written apart from the engine (no bitboards, no shared code): a 2-D list grid and
explicit walks along the four line directions. Who wins:

* ``freestyle``: a run of ``k`` or more stones through the last move;
* ``standard``: a run of exactly ``k`` through the last move (an overline is none);
* ``renju``: black (player 1) exactly five, white five or more.

Renju's forbidden cells come from the pip package ``renju``, a port of the Piskvork
judge (``renju.check_forbid.get_foul_type``: 0 allowed, 1 double three, 2 double
four, 3 overline), which reads square boards only.

Used by ``tests/test_win_rules.py`` (thousands of positions) and by
``scripts/referee_diff.py`` (millions, resumable), both through `compare_game`, the
one harness that plays a game on the engine beside the referee (the only part of
this file that imports ``inarow``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field

DIRECTIONS = [(0, 1), (1, 0), (1, 1), (1, -1)]

#: The judge's codes, as the engine names the shapes.
FOUL_NAMES = {1: "double three", 2: "double four", 3: "overline"}


def run_through(grid: list[list[int]], row: int, col: int, dr: int, dc: int) -> int:
    """The run of the owner of ``(row, col)`` through it along ``(dr, dc)``."""
    h, w = len(grid), len(grid[0])
    who = grid[row][col]
    n = 1
    for sign in (1, -1):
        r, c = row + sign * dr, col + sign * dc
        while 0 <= r < h and 0 <= c < w and grid[r][c] == who:
            n += 1
            r, c = r + sign * dr, c + sign * dc
    return n


def wins(grid: list[list[int]], row: int, col: int, k: int, rule: str) -> bool:
    """Whether the stone just played at ``(row, col)`` wins under ``rule``."""
    runs = [run_through(grid, row, col, dr, dc) for dr, dc in DIRECTIONS]
    exact = rule == "standard" or (rule == "renju" and grid[row][col] == 1)
    return any(r == k for r in runs) if exact else any(r >= k for r in runs)


def foul(grid: list[list[int]], row: int, col: int) -> int:
    """The Piskvork judge's code for black on the empty ``(row, col)`` (0 allowed)."""
    from renju.check_forbid import get_foul_type

    return get_foul_type(grid, row, col)


def foul_near(grid: list[list[int]], row: int, col: int) -> int:
    """``foul``, skipping cells with fewer than four black stones within five cells
    along their lines (a five, an overline, two fours or two threes all need four):
    the judge is slow, and most cells of a board are far from black's stones."""
    h, w = len(grid), len(grid[0])
    near = 0
    for dr, dc in DIRECTIONS:
        for t in range(-5, 6):
            r, c = row + t * dr, col + t * dc
            if t and 0 <= r < h and 0 <= c < w and grid[r][c] == 1:
                near += 1
    return foul(grid, row, col) if near >= 4 else 0


@dataclass
class Step:
    """One move of a refereed game, with what the referee said before and after."""

    action: int
    player: int
    #: Renju, black to move: every empty cell the judge forbids, with its code.
    forbidden: dict[int, int] = field(default_factory=dict)
    #: The winner after the move (1-based), or 0.
    winner: int = 0


def clustered_game(
    rng: random.Random, size: int, k: int, rule: str, spread: int = 2
) -> Iterator[tuple[list[list[int]], Step]]:
    """A random game on a ``size`` x ``size`` board whose moves fall near the stones
    already down (within ``spread`` cells, black favouring its own stones), so that
    fours, threes and overlines come often. Yields the grid before each move and the
    move's `Step`; ends at a win, a full board, or black without an allowed cell."""
    grid = [[0] * size for _ in range(size)]
    player = 1
    first = (size // 2) * size + size // 2
    while True:
        empty = [a for a in range(size * size) if grid[a // size][a % size] == 0]
        forbidden: dict[int, int] = {}
        if rule == "renju" and player == 1:
            for a in empty:
                code = foul_near(grid, a // size, a % size)
                if code:
                    forbidden[a] = code
        allowed = [a for a in empty if a not in forbidden]
        if not allowed:
            return
        near = _near(grid, allowed, player, spread)
        action = first if not any(map(any, grid)) else rng.choice(near or allowed)
        step = Step(action, player, forbidden)
        before = [row[:] for row in grid]
        row, col = divmod(action, size)
        grid[row][col] = player
        if wins(grid, row, col, k, rule):
            step.winner = player
        yield before, step
        if step.winner or len(empty) == 1:
            return
        player = 3 - player


def _near(grid: list[list[int]], cells: list[int], player: int, spread: int) -> list[int]:
    """The cells within ``spread`` of a stone (black: of a black stone, when any)."""
    size = len(grid)
    own = [(r, c) for r in range(size) for c in range(size) if grid[r][c] == player]
    anchors = (
        own
        if player == 1 and own
        else [(r, c) for r in range(size) for c in range(size) if grid[r][c]]
    )
    return [
        a
        for a in cells
        if any(abs(a // size - r) <= spread and abs(a % size - c) <= spread for r, c in anchors)
    ]


# ------------------------------------------------------------------ the harness


class Disagreement(AssertionError):
    """The engine and the referee disagree; the message shows the position."""


def compare_game(size: int, k: int, rule: str, seed: int) -> tuple[int, int]:
    """Plays clustered game ``seed`` on ``inarow.Board`` and a one-env ``VecEnv``
    beside the referee. After every move the winners must agree; on every black turn
    under renju the legal cells must be the judge's allowed ones (mask of the VecEnv
    too), and each forbidden cell must raise ``ForbiddenMoveError`` naming the
    judge's shape and leave the board unchanged. Returns (positions compared,
    forbidden cells met); raises `Disagreement`."""
    import numpy as np

    import inarow

    rules = inarow.Rules(size, size, k, 2, False, rule=rule)
    board = inarow.Board(rules=rules)
    env = inarow.VecEnv(1, rules=rules, seed=0)
    env.reset(seed=0)
    positions = forbidden_met = 0

    def check(ok: bool, what: str) -> None:
        if not ok:
            raise Disagreement(
                f"{rule} {size}x{size} k={k} seed {seed}, moves {board.moves}: {what}\n{board}"
            )

    for _, step in clustered_game(random.Random(seed), size, k, rule):
        positions += 1
        if rule == "renju" and step.player == 1:
            cells = board.to_numpy().ravel()
            empty = {a for a in range(size * size) if cells[a] == 0}
            check(
                set(board.legal_moves()) == empty - set(step.forbidden),
                f"legal cells differ from the judge's; the judge forbids {step.forbidden}",
            )
            check(
                bool(np.array_equal(env.legal_mask()[0], board.legal_mask())),
                "the VecEnv's mask differs from the board's",
            )
            named = {a: FOUL_NAMES[code] for a, code in step.forbidden.items()}
            check(
                dict(board.forbidden_moves()) == named,
                f"forbidden_moves() {board.forbidden_moves()} differs from the judge's {named}",
            )
            for a, code in step.forbidden.items():
                forbidden_met += 1
                before = board.copy()
                try:
                    board.move(a)
                except inarow.ForbiddenMoveError as e:
                    check(FOUL_NAMES[code] in str(e), f"cell {a}: {e} (judge: {FOUL_NAMES[code]})")
                else:
                    check(False, f"cell {a} was played; the judge forbids it")
                check(
                    board == before and board.moves == before.moves,
                    "a refused move changed the board",
                )
        won = board.move(step.action)
        env.step(np.array([step.action]))
        check(
            won == bool(step.winner) and (board.winner or 0) == step.winner,
            f"after {step.action} the referee says winner {step.winner}, the engine {board.winner}",
        )
    if not board.is_over:
        # The referee stopped because black has no allowed cell: a draw.
        check(
            rule == "renju" and board.is_draw and board.legal_moves() == [], "the game did not end"
        )
    return positions, forbidden_met
