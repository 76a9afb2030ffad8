"""Executes examples/tour.ipynb with nbclient (kernel "python3")."""

from __future__ import annotations

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat", reason="nbformat is not installed")
nbclient = pytest.importorskip("nbclient", reason="nbclient is not installed")
pytest.importorskip("ipykernel", reason="ipykernel is not installed")
pytest.importorskip("matplotlib", reason="matplotlib is not installed")

NOTEBOOK = Path(__file__).resolve().parent.parent / "examples" / "tour.ipynb"


def test_tour_notebook_runs_and_draws(tmp_path):
    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(
        nb,
        timeout=120,
        kernel_name="python3",
        resources={"metadata": {"path": str(tmp_path)}},
    )
    client.execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    data = [o.get("data", {}) for o in outputs]
    svgs = [d["image/svg+xml"] for d in data if "image/svg+xml" in d]
    assert len(svgs) >= 3 and all(s.lstrip().startswith("<svg") for s in svgs)
    assert any("winning-line" in s for s in svgs)
    assert sum("image/png" in d for d in data) >= 2  # the analysis and lengths plots
    text = "".join(o.get("text", "") for o in outputs)
    assert "score: 8 best move: 4" in text and "SimulateResult(games=20000" in text


def test_the_committed_tour_is_executed_and_covers_the_whole_job():
    # Browsed on a forge, the notebook shows its boards, plots and results: every code
    # cell is committed with its outputs, none an error.
    nb = nbformat.read(NOTEBOOK, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code and all(c.get("outputs") for c in code), "run the notebook before committing"
    outputs = [o for c in code for o in c["outputs"]]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    text = "".join(o.get("text", "") for o in outputs)
    for shown in ("score of a", "Test_L1_R1", "MCTS plays column", "SimulateResult(games="):
        assert shown in text
    assert any("train" in c.source and "agents.load" in c.source for c in code)


def test_the_tour_reads_scores_against_what_perfect_play_and_random_moves_get():
    # A match's score beside a perfect player's from the same openings, a kept lost
    # game, and the random agent's floor beside the good-move rate.
    nb = nbformat.read(NOTEBOOK, as_version=4)
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    text = "".join(o.get("text", "") for o in outputs)
    assert "score of a perfect player in a's place:" in text
    assert "the openings (2 random plies) were, for a's seat:" in text
    assert "the network as player" in text
    assert "random good" in text
