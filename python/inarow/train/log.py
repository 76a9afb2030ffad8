"""The run's CSV log: one row per log interval and per evaluation; columns fixed when
the run starts (the evaluation columns depend on the game), blank where a row has no
value. A resumed run appends to the same file; a log written before a column existed
gains it on resume, blank in its earlier rows."""

from __future__ import annotations

import csv
import math
import os
from pathlib import Path
from typing import Any

__all__ = ["LOG", "CsvLog", "drop_rows_beyond", "logged_evaluations", "read_log"]

#: The log's file name in a run directory.
LOG = "log.csv"

TRAINING_COLUMNS = [
    "seconds",  # training wall time, summed over resumed sessions
    "games",
    "positions",
    "simulations",
    "train_steps",
    "policy_loss",
    "value_loss",
    "games_per_s",
    "simulations_per_s",
    "network_share",  # share of self-play time spent in the network
    # Share of the interval's self-play games drawn: near 1 when self-play has
    # collapsed onto a few drawn lines.
    "selfplay_draw_share",
    "aux_loss",  # the auxiliary heads' weighted loss (blank without them)
    # The network's share of wins in the interval's games against the reference
    # opponents (blank without them).
    "opponents_win_share",
    # The CPU cores the process got over the row's interval, and torch's threads in it
    # (fewer than --threads while other programs hold the cores: train/threads.py).
    "cores",
    "torch_threads",
]


class CsvLog:
    def __init__(self, path: Path, eval_columns: list[str]) -> None:
        self.path = Path(path)
        columns = TRAINING_COLUMNS + eval_columns
        if self.path.is_file() and self.path.stat().st_size:
            with open(self.path, newline="") as f:
                header = next(csv.reader(f), [])
            if header:
                missing = [c for c in columns if c not in header]
                if missing:
                    _widen(self.path, header + missing)
                columns = header + missing
        else:
            with open(self.path, "w", newline="") as f:
                csv.writer(f).writerow(columns)
        self.columns = columns

    def write(self, row: dict[str, Any]) -> None:
        unknown = set(row) - set(self.columns)
        if unknown:
            raise ValueError(f"log columns {sorted(unknown)} are not in {self.path}'s header")

        def fmt(v: Any) -> str:
            if v is None or (isinstance(v, float) and math.isnan(v)):
                return ""
            if isinstance(v, float):
                return f"{v:.6g}"
            return str(v)

        with open(self.path, "a", newline="") as f:
            csv.writer(f).writerow([fmt(row.get(c)) for c in self.columns])


def _rewrite(path: Path, rows: list[list[str]]) -> None:
    """Replaces the log with ``rows`` atomically (a temporary file, then a rename)."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", newline="") as f:
        csv.writer(f).writerows(rows)
    os.replace(tmp, path)


def _widen(path: Path, columns: list[str]) -> None:
    """Rewrites the log under ``columns`` (its header's, then new ones); the new
    columns are blank in the rows already there."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    width = len(columns)
    _rewrite(path, [columns, *(row + [""] * (width - len(row)) for row in rows[1:])])


def drop_rows_beyond(path: Path, games: int, train_steps: int) -> int:
    """Removes the rows counting more games or learner steps than a checkpoint holds:
    a run that ends without its final checkpoint (a killed process, a machine gone)
    logged them, and once resumed from that checkpoint it plays that stretch again.
    Rewrites the log atomically; returns how many rows went."""
    path = Path(path)
    if not path.is_file():
        return 0
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows:
        return 0
    header, body = rows[0], rows[1:]
    limits = [
        (header.index(c), n)
        for c, n in (("games", games), ("train_steps", train_steps))
        if c in header
    ]

    def beyond(row: list[str]) -> bool:
        return any(i < len(row) and row[i] and float(row[i]) > n for i, n in limits)

    kept = [row for row in body if not beyond(row)]
    if len(kept) == len(body):
        return 0
    _rewrite(path, [header, *kept])
    return len(body) - len(kept)


def read_log(path: Path) -> dict[str, list[float]]:
    """Column -> values (NaN where blank)."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        return {}
    return {c: [float(r[c]) if r.get(c) else math.nan for r in rows] for c in rows[0]}


def logged_evaluations(path: Path) -> list[dict[str, float]]:
    """The evaluation rows of a log (those with any column beyond the training
    ones), each as column -> value, blanks left out; [] without a log."""
    if not Path(path).is_file():
        return []
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    out = []
    for r in rows:
        values = {c: float(v) for c, v in r.items() if c and v}
        if any(c not in TRAINING_COLUMNS for c in values):
            out.append(values)
    return out
