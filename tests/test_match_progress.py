"""``evaluate.match(progress=True)``: its bar counts whole games (issue 56)."""

from __future__ import annotations

import pytest

import inarow


def test_match_progress_bar_counts_games_as_integers(capsys):
    pytest.importorskip("tqdm", reason="tqdm is not installed")
    inarow.evaluate.match("random", "random", games=20, rules="tic_tac_toe", progress=True)
    bar = capsys.readouterr().err.replace("\r", "\n")
    assert "20/20" in bar and "20.0" not in bar
