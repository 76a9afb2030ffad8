"""The README's Python examples run as written."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


def test_readme_has_examples():
    assert python_blocks()


def test_readme_examples_run(capsys):
    for block in python_blocks():
        exec(compile(block, str(README), "exec"), {})
    assert "X" in capsys.readouterr().out  # the printed board
