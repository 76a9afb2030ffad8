"""The shipped per-move truth for Pons' test sets (`connect4-pons/*.analysis`, written
by examples/pons_analysis.rs): one line per set position, in the set's order, each
column's exact score or `.`; the best column's score is the set's score. The file
checks read no solver; one test re-solves a small sample with the solver."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from pons import analysis

import inarow

ROOT = Path(__file__).resolve().parents[1]
ANALYSIS = ROOT / "python" / "inarow" / "data" / "connect4-pons"
SETS = ["L3_R1", "L2_R1", "L2_R2", "L1_R1", "L1_R2", "L1_R3"]
POSITIONS_PER_SET = 1000


def set_dir() -> Path:
    """Where the set files are: beside the analysis files once shipped, else the
    shared data directory next to the repository (or $INAROW_PONS_DIR)."""
    candidates = [ANALYSIS, ROOT.parent / "shared" / "data" / "connect4-pons"]
    if "INAROW_PONS_DIR" in os.environ:
        candidates.insert(0, Path(os.environ["INAROW_PONS_DIR"]))
    for d in candidates:
        if (d / "Test_L1_R1").exists():
            return d
    pytest.skip("Pons' set files are absent")


def set_lines(name: str) -> list[tuple[str, int]]:
    out = []
    for line in (set_dir() / f"Test_{name}").read_text().splitlines():
        moves, score = line.split()
        out.append((moves, int(score)))
    return out


def analysis_lines(name: str) -> list[tuple[str, list[int | None]]]:
    return analysis(f"Test_{name}", ANALYSIS)


def full_columns(moves: str) -> list[bool]:
    heights = [0] * 7
    for ch in moves:
        heights[int(ch) - 1] += 1
    return [h == 6 for h in heights]


@pytest.mark.parametrize("name", SETS)
def test_each_line_matches_its_set_line(name):
    expected = set_lines(name)
    got = analysis_lines(name)
    assert len(got) <= len(expected) == POSITIONS_PER_SET
    if len(got) < len(expected):
        pytest.skip(
            f"Test_{name}.analysis holds {len(got)} of {len(expected)} lines: its "
            "generation is still running (examples/pons_analysis.rs resumes it)"
        )
    for (moves, score), (a_moves, scores) in zip(expected, got):
        assert a_moves == moves
        assert [s is None for s in scores] == full_columns(moves), moves
        legal = [s for s in scores if s is not None]
        assert max(legal) == score, moves
        # Pons' bounds: a move with m stones already played scores at most
        # (43 - m) // 2, at least -(42 - m) // 2 (a loss at the last cell).
        m = len(moves)
        assert all(-((42 - m) // 2) <= s <= (43 - m) // 2 for s in legal), moves


def test_the_checks_catch_a_wrong_score(tmp_path, monkeypatch):
    """The file checks above fail on a line whose best score is off by one."""
    name = "L3_R1"
    original = (ANALYSIS / f"Test_{name}.analysis").read_text().splitlines()
    moves, *scores = original[0].split(" ")
    best = max(int(s) for s in scores if s != ".")
    bumped = [str(best + 1) if s != "." and int(s) == best else s for s in scores]
    original[0] = " ".join([moves, *bumped])
    (tmp_path / f"Test_{name}.analysis").write_text("\n".join(original) + "\n")
    # The set files are found before ANALYSIS (where they ship) points elsewhere.
    monkeypatch.setenv("INAROW_PONS_DIR", str(set_dir()))
    monkeypatch.setattr(__import__(__name__), "ANALYSIS", tmp_path)
    with pytest.raises(AssertionError, match=moves):
        test_each_line_matches_its_set_line(name)


def test_a_random_sample_re_solved_agrees():
    """Three random lines of each of the faster sets, every column re-solved."""
    solver = inarow.Solver(tt_bytes=16 << 20)
    rng = random.Random(13)
    for name in ["L3_R1", "L2_R1", "L2_R2", "L1_R1", "L1_R2"]:
        got = analysis_lines(name)
        for moves, scores in rng.sample(got, 3):
            solver.clear()
            assert solver.analyze(inarow.Board.from_pons(moves)) == scores, moves
