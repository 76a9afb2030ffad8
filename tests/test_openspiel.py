"""A fast sample of the differential test against OpenSpiel (the full run is
``python tests/openspiel_diff.py --games 100000``)."""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel", reason="open_spiel is not installed (pip install open_spiel)")
pytestmark = pytest.mark.openspiel

import openspiel_diff  # noqa: E402


def test_random_games_agree_with_openspiel():
    stats = openspiel_diff.run(games=1500, seed=2026)
    assert stats.games == 1500
    assert stats.wins > 0 and stats.draws > 0
    assert len(stats.rule_sets) > 50


def test_the_comparison_catches_a_wrong_board():
    import pyspiel

    rules = dict(width=7, height=6, k=4, players=2, gravity=True)
    state = openspiel_diff.load(pyspiel, rules).new_initial_state()
    state.apply_action(3)
    wrong = __import__("inarow").Board()
    wrong.move(2)
    with pytest.raises(AssertionError):
        openspiel_diff.compare(state, wrong, rules, "deliberately different")
