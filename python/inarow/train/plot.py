"""Plots of a run's ``log.csv`` (needs matplotlib, the ``plot`` extra).

python -m inarow.train.plot inarow-runs/connect_four            # -> training.png there
python -m inarow.train.plot inarow-runs/connect_four --out c4.png
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import Any

from inarow.train.log import LOG, read_log

__all__ = ["plot_log"]


def _series(log: dict[str, list[float]], column: str) -> tuple[list[float], list[float]]:
    pts = [
        (t / 60, v)
        for t, v in zip(log["seconds"], log.get(column, []))
        if not (math.isnan(v) or math.isnan(t))
    ]
    return [p[0] for p in pts], [p[1] for p in pts]


def plot_log(path: str | Path, out: str | Path | None = None) -> Any:
    """Losses, throughput and every evaluation column against minutes of training.

    ``path``: a run directory or its ``log.csv``. Saves a PNG to ``out`` if given;
    returns the matplotlib figure.
    """
    import matplotlib

    if out is not None:
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    path = Path(path)
    log = read_log(path / LOG if path.is_dir() else path)
    if not log:
        raise ValueError(f"{path} has no rows yet")
    panels = [
        ("loss", ["policy_loss", "value_loss"]),
        ("simulations per second", ["simulations_per_s"]),
    ]
    if any(c.startswith("pons_") for c in log):
        panels.append(("Pons good-move rate", ["pons_good_raw", "pons_good_search"]))
    if "judged_good_raw" in log:
        panels.append(("solver-judged good-move rate", ["judged_good_raw", "judged_good_search"]))
    if "mistakes_raw" in log:
        panels.append(("mistakes (all positions)", ["mistakes_raw", "mistakes_search"]))
    negamax = sorted({c.split("_")[0] for c in log if c.startswith(("negamax", "threats"))})
    for n in negamax:  # score: wins + draws / 2
        log[f"{n}_score"] = [w + d / 2 for w, d in zip(log[f"{n}_win"], log[f"{n}_draw"])]
    if negamax:
        panels.append(("score vs the ladder (wins + draws/2)", [f"{n}_score" for n in negamax]))
    fig, axes = plt.subplots(len(panels), 1, figsize=(7, 2.4 * len(panels)), sharex=True)
    axes = [axes] if len(panels) == 1 else list(axes)
    for ax, (title, columns) in zip(axes, panels):
        for c in columns:
            x, y = _series(log, c)
            if x:
                ax.plot(x, y, marker="o" if len(x) < 30 else None, label=c)
        ax.set_title(title)
        if title.startswith("mistakes"):
            ax.set_yscale("symlog", linthresh=1)
        ax.grid(alpha=0.3)
        ax.legend(fontsize="small")
    axes[-1].set_xlabel("minutes of training")
    fig.tight_layout()
    if out is not None:
        fig.savefig(out, dpi=100)
    return fig


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m inarow.train.plot", description=__doc__)
    p.add_argument("run", type=Path, help="a run directory or its log.csv")
    p.add_argument("--out", type=Path, default=None, help="default: training.png beside the log")
    args = p.parse_args(argv)
    out = args.out or (args.run if args.run.is_dir() else args.run.parent) / "training.png"
    plot_log(args.run, out)
    print(out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
