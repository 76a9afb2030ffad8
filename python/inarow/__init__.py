"""inarow: an exact, fast engine for k-in-a-row games (Connect Four, tic-tac-toe,
gomoku and their variants) for reinforcement learning and notebooks.

Conventions, everywhere: ``to_numpy()`` is ``(height, width)`` with row 0 the top
row; a gravity action is a column; a free-placement action is ``row * width + col``,
rows and columns from 0 (as ``str(board)`` labels them, and as the command line
takes free-placement cells ``row,col``; its gravity columns count from 1, as Pons'
digits); players are numbered 1..players (0 = empty) and move in turn from player 1.
"""

from __future__ import annotations

from inarow._extras import MissingExtraError
from inarow._native import (
    FORMAT_VERSION,
    MAX_ENVS,
    MAX_PLAYERS,
    MAX_SIDE,
    MCTS,
    Board,
    CancelledError,
    ForbiddenMoveError,
    IllegalMoveError,
    InvalidPositionError,
    InvalidRulesError,
    Rules,
    SearchResult,
    SimulateResult,
    Solver,
    SolverConfigError,
    UnsupportedRulesError,
    VecEnv,
    simulate,
    winners,
)


def _version() -> str:
    """The installed distribution's version (Cargo.toml's, written by maturin)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("inarow")
    except PackageNotFoundError:  # imported from a source tree that was never installed
        return "0+unknown"


__version__ = _version()

__all__ = [
    "FORMAT_VERSION",
    "MAX_ENVS",
    "MAX_PLAYERS",
    "MAX_SIDE",
    "Board",
    "ForbiddenMoveError",
    "IllegalMoveError",
    "InvalidPositionError",
    "InvalidRulesError",
    "CancelledError",
    "MCTS",
    "MissingExtraError",
    "Rules",
    "SearchResult",
    "SimulateResult",
    "Solver",
    "SolverConfigError",
    "UnsupportedRulesError",
    "VecEnv",
    "simulate",
    "winners",
]

# Adapter submodules, imported on first attribute access (``inarow.gymnasium``...).
_LAZY_SUBMODULES = (
    "gymnasium",
    "pettingzoo",
    "rllib",
    "plot",
    "cli",
    "agents",
    "evaluate",
    "engines",
    "pbrain",
    "threats",
)


def __getattr__(name: str):  # PEP 562: lazy adapter submodules
    if name in _LAZY_SUBMODULES:
        import importlib

        return importlib.import_module(f"inarow.{name}")
    raise AttributeError(f"module 'inarow' has no attribute {name!r}")


# Gymnasium ids (inarow/ConnectFour-v0...), only when gymnasium is installed.
try:
    from inarow.gymnasium import register_envs as _register_envs
except ImportError:
    pass
else:
    _register_envs()
