"""What every ecosystem adapter reads the same way: the illegal-action modes, the
observation dtypes a Box holds, what an action in the space is, and seeds (any
non-negative int, as Gymnasium takes them, reduced for the native engine). Plain
Python and numpy: no ecosystem is imported here."""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

#: The ``illegal_action`` modes of `InARowEnv` (the PettingZoo and RLlib adapters
#: take the same): "loss" ends the episode as a loss for the offender, "raise"
#: raises `inarow.IllegalMoveError` with the state unchanged.
ILLEGAL_ACTION_MODES = ("loss", "raise")

#: Native seeds are 63-bit; larger seeds are hashed down (see `native_seed`).
_NATIVE_SEED_LIMIT = 2**63


def check_illegal_action_mode(illegal_action: Any) -> str:
    """`illegal_action` if it is one of `ILLEGAL_ACTION_MODES`, else ``ValueError``."""
    if not isinstance(illegal_action, str) or illegal_action not in ILLEGAL_ACTION_MODES:
        raise ValueError(
            f"illegal_action {illegal_action!r} is not supported: allowed 'loss' (the "
            "default: an illegal action ends the game as a loss for the player who made "
            "it) or 'raise' (inarow.IllegalMoveError, state unchanged)"
        )
    return illegal_action


def check_box_dtype(obs_dtype: Any) -> str:
    """`obs_dtype` if a Box observation space holds it ("uint8" or "float32"), else
    ``ValueError``."""
    if obs_dtype not in ("uint8", "float32"):
        raise ValueError(f"obs_dtype {obs_dtype!r} is not supported: allowed uint8, float32")
    return str(obs_dtype)


def in_action_space(action: Any, num_actions: int) -> bool:
    """Whether `action` is an integer in ``0..num_actions`` (bools are not actions)."""
    if isinstance(action, (bool, np.bool_)):
        return False
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action.item()
    try:
        value = operator.index(action)
    except TypeError:
        return False
    return 0 <= value < num_actions


def seed_value(seed: Any, name: str = "seed") -> int | None:
    """`seed` as a Python int (None stays None): any non-negative integer, numpy
    integers included, as Gymnasium accepts. ``TypeError`` for a non-integer (bools
    included), ``ValueError`` for a negative one, both naming `name`."""
    if seed is None:
        return None
    if isinstance(seed, (bool, np.bool_)):
        raise TypeError(f"{name} must be a non-negative int or None, got a bool ({seed!r})")
    try:
        value = operator.index(seed)
    except TypeError as e:
        raise TypeError(f"{name} must be a non-negative int or None, got {seed!r}") from e
    if value < 0:
        raise ValueError(f"{name}={value} is out of range: allowed a non-negative int or None")
    return value


def native_seed(seed: Any, name: str = "seed") -> int | None:
    """A seed as the native engine takes it (``0..2**63``): None and smaller
    seeds unchanged; a larger one (Gymnasium accepts any non-negative int) reduced
    deterministically through ``numpy.random.SeedSequence``. Refuses what
    `seed_value` refuses."""
    value = seed_value(seed, name)
    if value is None or value < _NATIVE_SEED_LIMIT:
        return value
    (state,) = np.random.SeedSequence(value).generate_state(1, np.uint64)
    return int(state) >> 1
