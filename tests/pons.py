"""Pascal Pons' Connect-Four test sets, read from the repository
(``python/inarow/data/connect4-pons/``). A missing file or a malformed line raises:
a test that needs the sets fails without them, never skips."""

from __future__ import annotations

from pathlib import Path

DIR = Path(__file__).resolve().parent.parent / "python" / "inarow" / "data" / "connect4-pons"
SETS = ("Test_L1_R1", "Test_L1_R2", "Test_L1_R3", "Test_L2_R1", "Test_L2_R2", "Test_L3_R1")


def positions(name: str, count: int | None = None) -> list[tuple[str, int]]:
    """The first ``count`` lines of set ``name`` (all by default) as (moves, score):
    Pons' 1-based move string and the exact score for the player to move."""
    path = DIR / name
    if not path.is_file():
        raise FileNotFoundError(f"Pons' test set {path} is missing (it is part of the repository)")
    out = []
    for number, line in enumerate(path.read_text().splitlines()[:count], start=1):
        fields = line.split()
        if len(fields) != 2 or not fields[0].isdigit():
            raise ValueError(f"{path}:{number}: not '<moves> <score>': {line!r}")
        out.append((fields[0], int(fields[1])))
    return out


def analysis(name: str, directory: Path = DIR) -> list[tuple[str, list[int | None]]]:
    """The shipped per-move truth of set ``name`` (``name.analysis`` in ``directory``,
    written by examples/pons_analysis.rs), one line per set position: Pons' move
    string and each column's exact score for the player to move, None for a full
    column."""
    path = directory / f"{name}.analysis"
    assert path.exists(), f"{path} is missing"
    text = path.read_text()
    assert text.endswith("\n"), f"{path}: the last line is incomplete"
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        fields = line.split(" ")
        assert len(fields) == 8, f"{path}:{number}: expected moves and 7 scores: {line!r}"
        scores = [None if f == "." else int(f) for f in fields[1:]]
        out.append((fields[0], scores))
    return out
