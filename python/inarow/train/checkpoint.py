"""Checkpoints: everything a run needs to continue (network, optimizer, replay
buffer, counters, random state, settings), written atomically so an interruption
at any moment leaves the previous checkpoint intact; and ``carry_run``, a copy of a
run small enough to commit or take to another machine.

Checkpoints are pickles (``torch.load(weights_only=False)``): load only your own.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import torch

from inarow.train.log import LOG, drop_rows_beyond

__all__ = ["CHECKPOINT", "carry_run", "load_checkpoint", "save_checkpoint"]

#: The checkpoint's file name in a run directory.
CHECKPOINT = "checkpoint.pt"


def save_checkpoint(run_dir: Path, state: dict[str, Any]) -> Path:
    """Writes ``run_dir/checkpoint.pt`` through a temporary file and a rename."""
    path = Path(run_dir) / CHECKPOINT
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        torch.save(state, f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    return path


def load_checkpoint(run_dir: Path) -> dict[str, Any] | None:
    """The run's checkpoint, or None if it has none."""
    path = Path(run_dir) / CHECKPOINT
    if not path.is_file():
        return None
    return torch.load(path, map_location="cpu", weights_only=False)


def carry_run(run_dir: str | Path, dest: str | Path, keep_positions: int = 0) -> Path:
    """Copies the run in ``run_dir`` to ``dest`` with its replay buffer cut to its
    newest ``keep_positions`` positions: the network, optimizer, counters, random
    state, settings and every other file of the run stay (the log cut where the
    checkpoint stands, for a run still going), so ``--resume`` on ``dest``
    continues the same run (its log, learning-rate schedule and evaluations) and
    refills the buffer by self-play before its next learner step. The buffer is most
    of a checkpoint (a Connect Four run's with 171k parameters: 37 MB, carried 2.1 MB:
    the network and the optimizer's two moments, 12 bytes a parameter). Returns the new checkpoint."""
    if isinstance(keep_positions, bool) or not isinstance(keep_positions, int):
        raise TypeError(f"keep_positions must be an int, got {type(keep_positions).__name__}")
    if keep_positions < 0:
        raise ValueError(f"keep_positions={keep_positions}: allowed 0 or more")
    run_dir, dest = Path(run_dir), Path(dest)
    state = load_checkpoint(run_dir)
    if state is None:
        raise FileNotFoundError(f"{run_dir} holds no checkpoint to carry")
    if (dest / CHECKPOINT).exists():
        raise FileExistsError(f"{dest} holds a checkpoint already: name another directory")
    replay = state["replay"]
    held = len(replay["obs"])
    newest = slice(held - min(keep_positions, held), held)  # stored oldest first
    state["replay"] = {k: v[newest] if hasattr(v, "shape") else v for k, v in replay.items()}
    dest.mkdir(parents=True, exist_ok=True)
    for path in run_dir.iterdir():
        if path.is_file() and path.name != CHECKPOINT and not path.name.endswith(".tmp"):
            shutil.copy2(path, dest / path.name)
    # A live run's log runs ahead of its last checkpoint: the copy ends where it does.
    drop_rows_beyond(dest / LOG, state["counters"]["games"], state["train_steps"])
    return save_checkpoint(dest, state)


def main(argv: list[str] | None = None) -> int:
    import argparse

    p = argparse.ArgumentParser(
        prog="python -m inarow.train.checkpoint",
        description="Copy a run without its replay buffer, small enough to commit or "
        "carry to another machine; --resume on the copy continues the run.",
    )
    p.add_argument("run_dir", type=Path)
    p.add_argument("dest", type=Path, help="the directory to write (new)")
    p.add_argument("--keep-positions", type=int, default=0, help="newest replay positions to keep")
    args = p.parse_args(argv)
    try:
        path = carry_run(args.run_dir, args.dest, args.keep_positions)
    except (FileNotFoundError, FileExistsError, ValueError) as e:
        p.error(str(e))
    print(f"{path} ({path.stat().st_size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
