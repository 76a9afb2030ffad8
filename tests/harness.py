"""The project's own entry points, as the test files run them: the ``inarow`` command
line in a subprocess (``python -m inarow``), and the example scripts loaded as modules
from ``examples/``. Defined here once for every test file that needs them."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

# `inarow play` arguments for tic-tac-toe: 3x3, three in a row, free placement.
TIC_TAC_TOE_ARGS = ["--width", "3", "--height", "3", "--k", "3", "--no-gravity"]


def play(*args: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess:
    """``python -m inarow play *args`` with `stdin` as its input; text output captured."""
    return subprocess.run(
        [sys.executable, "-m", "inarow", "play", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def load_example(name: str) -> ModuleType:
    """``examples/<name>.py``, executed afresh as a module named `name`."""
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def blind_net(obs):
    """A free-placement network with no opinion: equal logits over the cells, value 0
    (``net(obs) -> (logits, values)``; its search is blind)."""
    import numpy as np

    n = len(obs)
    return np.zeros((n, obs.shape[2] * obs.shape[3]), np.float32), np.zeros(n, np.float32)


def blind_evaluator(players: int = 2):
    """Self-play's ``evaluate(obs, mask)`` for :func:`blind_net`: one value per
    position for 2 players, one per player for more."""
    import numpy as np

    def evaluate(obs, mask):
        logits, values = blind_net(obs)
        return logits, values if players == 2 else np.zeros((len(obs), players), np.float32)

    return evaluate
