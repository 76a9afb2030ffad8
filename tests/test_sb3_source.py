"""What inarow.sb3 says of itself, read from its source: the module needs SB3 to
import, and these claims should hold where SB3 is not installed too."""

from __future__ import annotations

import ast
from pathlib import Path

import inarow

SOURCE = Path(inarow.__file__).with_name("sb3.py")


def _docstring(name: str) -> str:
    tree = ast.parse(SOURCE.read_text())
    (fn,) = (n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name)
    return " ".join(ast.get_docstring(fn).split())


def test_win_rate_does_not_claim_evaluate_matchs_openings():
    # Its openings randomise the model's moves only, each game on its own: not
    # match's (both players' first plies, each opening from both seats).
    doc = _docstring("win_rate")
    assert "as `inarow.evaluate.match`'s openings are" not in doc
    assert "These are not `inarow.evaluate.match`'s openings" in doc
    assert "inarow.evaluate.match(inarow.sb3.agent(model)" in doc
