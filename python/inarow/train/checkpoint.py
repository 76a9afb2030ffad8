"""Checkpoints: everything a run needs to continue (network, optimizer, replay
buffer, counters, random state, settings), written atomically so an interruption
at any moment leaves the previous checkpoint intact.

Checkpoints are pickles (``torch.load(weights_only=False)``): load only your own.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import torch

__all__ = ["CHECKPOINT", "load_checkpoint", "save_checkpoint"]

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
