"""The symmetries of a board that keep the rules: they map a position, its legal
mask and its policy to an equally valued position (augmentation for training).

- gravity: the horizontal mirror (columns reversed) and the identity;
- free placement on a square board: the 8 rotations and reflections (dihedral group);
- free placement on a non-square board: identity, both mirrors and the half turn.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["Symmetry", "symmetries"]


class Symmetry:
    """``k`` quarter turns of the last two axes ``(height, width)``, after a mirror
    of the width axis if ``mirror``."""

    def __init__(self, quarter_turns: int, mirror: bool, gravity: bool) -> None:
        self.quarter_turns = quarter_turns
        self.mirror = mirror
        self.gravity = gravity

    def __repr__(self) -> str:
        return f"Symmetry(quarter_turns={self.quarter_turns}, mirror={self.mirror})"

    def inverse(self) -> Symmetry:
        """The symmetry that undoes this one: a reflection is its own inverse, a turn
        by ``k`` quarters is undone by ``4 - k``."""
        if self.mirror:
            return self
        return Symmetry(-self.quarter_turns % 4, False, self.gravity)

    def planes(self, x: np.ndarray) -> np.ndarray:
        """Any array whose last two axes are ``(height, width)``."""
        if self.mirror:
            x = x[..., ::-1]
        if self.quarter_turns:
            x = np.rot90(x, self.quarter_turns, axes=(-2, -1))
        return x

    def actions(self, x: np.ndarray, height: int, width: int) -> np.ndarray:
        """An array over actions (last axis): columns with gravity, cells without."""
        if self.gravity:
            return x[..., ::-1] if self.mirror else x
        grid = x.reshape(*x.shape[:-1], height, width)
        out = self.planes(grid)
        return out.reshape(*x.shape[:-1], -1)


def symmetries(rules: dict[str, Any]) -> list[Symmetry]:
    """The symmetries of ``rules``, the identity first."""
    gravity = rules["gravity"]
    if gravity:
        return [Symmetry(0, False, True), Symmetry(0, True, True)]
    if rules["width"] == rules["height"]:
        return [Symmetry(k, m, False) for m in (False, True) for k in range(4)]
    # Mirror of the width axis, the half turn, and both (the mirror of the height axis).
    return [Symmetry(k, m, False) for m in (False, True) for k in (0, 2)]
