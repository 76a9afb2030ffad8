"""Matplotlib helpers (needs the ``plot`` extra)."""

from __future__ import annotations

from typing import Any

import inarow

__all__ = ["plot_analysis"]


def plot_analysis(board: inarow.Board, solver: inarow.Solver | None = None, ax: Any = None) -> Any:
    """The exact score of every move (`Solver.analyze`, Pons' convention for the
    player to move: positive wins, larger sooner; 0 draws): with gravity a bar per
    column (illegal columns marked "x"; green bars win, grey draw, red lose), without
    gravity the board as a grid coloured by the score of playing each free cell
    (stones shown by their player's number). The best move is outlined. Returns the
    matplotlib ``Axes``.

    Raises `inarow.UnsupportedRulesError` where the solver does not apply.
    """
    import matplotlib.pyplot as plt

    solver = solver if solver is not None else inarow.Solver()
    scores = solver.analyze(board)
    if not board.gravity:
        return _plot_cells(board, scores, ax)
    if ax is None:
        _, ax = plt.subplots(figsize=(max(4.0, 0.6 * len(scores)), 3.0))
    cols = list(range(len(scores)))
    values = [0 if s is None else s for s in scores]
    colors = [
        "#dddddd" if s is None else ("#2ca02c" if s > 0 else "#d62728" if s < 0 else "#7f7f7f")
        for s in scores
    ]
    bars = ax.bar(cols, values, color=colors)
    legal = [s for s in scores if s is not None]
    if legal:
        best = max(legal)
        for bar, s in zip(bars, scores):
            if s == best:
                bar.set_edgecolor("black")
                bar.set_linewidth(2)
    for c, s in zip(cols, scores):
        if s is None:
            ax.annotate("x", (c, 0), ha="center", va="center", color="#888888")
        else:
            ax.annotate(str(s), (c, s), ha="center", va="bottom" if s >= 0 else "top")
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xticks(cols)
    ax.set_xlabel("column")
    ax.set_ylabel("score")
    who = board.current_player
    ax.set_title(f"solver analysis: player {who} to move")
    return ax


def _plot_cells(board: inarow.Board, scores: list[int | None], ax: Any) -> Any:
    """`plot_analysis` of a free-placement board: a grid, row 0 at the top."""
    import matplotlib.pyplot as plt
    import numpy as np
    from matplotlib.patches import Rectangle

    h, w = board.height, board.width
    if ax is None:
        _, ax = plt.subplots(figsize=(max(3.0, 0.6 * w + 1), max(3.0, 0.6 * h)))
    grid = np.full((h, w), np.nan)
    for a, s in enumerate(scores):
        if s is not None:
            grid[a // w, a % w] = s
    legal = [s for s in scores if s is not None]
    reach = max([1] + [abs(s) for s in legal])
    ax.imshow(grid, cmap="RdYlGn", vmin=-reach, vmax=reach)
    cells = board.to_numpy()
    best = max(legal) if legal else None
    for a, s in enumerate(scores):
        r, c = divmod(a, w)
        if s is None:
            ax.annotate(f"P{cells[r, c]}", (c, r), ha="center", va="center", color="#444444")
            continue
        ax.annotate(str(s), (c, r), ha="center", va="center")
        if s == best:
            ax.add_patch(Rectangle((c - 0.5, r - 0.5), 1, 1, fill=False, linewidth=2))
    ax.set_xticks(range(w))
    ax.set_yticks(range(h))
    ax.set_xlabel("column")
    ax.set_ylabel("row (0 = top)")
    ax.set_title(f"solver analysis: player {board.current_player} to move")
    return ax
