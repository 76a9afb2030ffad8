"""Matplotlib helpers (needs ``pip install 'inarow[plot]'``)."""

from __future__ import annotations

from typing import Any

import inarow

__all__ = ["plot_analysis"]


def plot_analysis(board: inarow.Board, solver: inarow.Solver | None = None, ax: Any = None) -> Any:
    """A bar per action: the exact score of playing it (`Solver.analyze`, Pons'
    convention for the player to move: positive wins, larger sooner; 0 draws); an
    action is a column with gravity, a cell ``row * width + col`` without.
    Illegal actions are marked with an "x". Green bars win, grey draw, red lose; the
    best move is outlined. Returns the matplotlib ``Axes``.

    Raises `inarow.UnsupportedRulesError` where the solver does not apply.
    """
    import matplotlib.pyplot as plt

    solver = solver if solver is not None else inarow.Solver()
    scores = solver.analyze(board)
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
    ax.set_xlabel("column" if board.gravity else "cell (row * width + col)")
    ax.set_ylabel("score")
    who = board.current_player
    ax.set_title(f"solver analysis: player {who} to move")
    return ax
