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
