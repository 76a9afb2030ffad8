"""AlphaZero-style training for any rules of the family (the ``train`` extra).

>>> from inarow.train import TrainConfig
>>> TrainConfig.for_game("tic_tac_toe").num_actions
9

``inarow train connect_four --minutes 120`` runs it from the command line (see
``docs/training.md``); in Python, ``inarow.train.train(config, run_dir, minutes)``.
Modules, one concern each: ``config``, ``network``, ``selfplay``, ``replay`` and
``symmetry``, ``learner``, ``evaluation``, ``checkpoint``, ``log``, ``export``,
``loop``, ``plot``, ``cli``. Only ``config``, ``plot`` and ``symmetry`` (which the
numpy agents' ``symmetric=True`` uses too) import without torch.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inarow._extras import missing
from inarow.train.config import GAMES, TrainConfig

__all__ = ["GAMES", "TrainConfig", "train"]


def train(
    config: TrainConfig | None, run_dir: str | Path, minutes: float, resume: bool = False, **kw: Any
) -> Any:
    """Runs ``inarow.train.loop.train`` (see there); needs torch."""
    try:
        from inarow.train.loop import train as run
    except ImportError as e:
        raise missing("train", "training", e) from e
    return run(config, run_dir, minutes, resume=resume, **kw)
