"""Pascal Pons' six Connect-Four test sets, with the exact analyses shipped in the
package."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

__all__ = ["PONS_SETS", "PonsPosition", "pons_positions"]

#: Pascal Pons' six test sets: file name -> the name on his blog.
PONS_SETS: dict[str, str] = {
    "Test_L3_R1": "End-Easy",
    "Test_L2_R1": "Middle-Easy",
    "Test_L2_R2": "Middle-Medium",
    "Test_L1_R1": "Begin-Easy",
    "Test_L1_R2": "Begin-Medium",
    "Test_L1_R3": "Begin-Hard",
}


def _pons_dir() -> Path:
    """Where the Pons sets and their analyses ship inside the package."""
    return Path(str(resources.files("inarow") / "data" / "connect4-pons"))


@dataclass(frozen=True)
class PonsPosition:
    """One test position: Pons' 1-based move string, its score, the exact score of
    each column (``None`` where illegal; ``None`` as a whole if no analysis ships)."""

    moves: str
    score: int
    analysis: tuple[int | None, ...] | None


def _read_analysis(path: Path, lines: Sequence[str]) -> list[tuple[int | None, ...] | None]:
    """The shipped analysis of each of ``lines`` (None past the end of a file that a
    generation run has not finished, or for every line without a file)."""
    rows = path.read_text().splitlines() if path.is_file() else []
    out: list[tuple[int | None, ...] | None] = []
    for i, moves in enumerate(lines):
        if i >= len(rows):
            out.append(None)
            continue
        fields = rows[i].split()
        if len(fields) != 8 or fields[0] != moves:
            raise ValueError(
                f"{path} line {i + 1} is corrupt: expected {moves!r} and 7 scores, got {rows[i]!r}"
            )
        out.append(tuple(None if f == "." else int(f) for f in fields[1:]))
    return out


def pons_positions(per_set: int | None = None) -> dict[str, list[PonsPosition]]:
    """Pascal Pons' six Connect-Four test sets (1000 positions each) with the shipped
    per-column exact analyses (``python/inarow/data/connect4-pons``); ``per_set``
    keeps the first positions of each set."""
    directory = _pons_dir()
    out: dict[str, list[PonsPosition]] = {}
    for name in PONS_SETS:
        path = directory / name
        if not path.is_file():
            raise FileNotFoundError(
                f"Pons' test set {name} is missing from {directory} (a broken installation?)"
            )
        entries = [line.split() for line in path.read_text().splitlines() if line.strip()]
        if per_set is not None:
            entries = entries[:per_set]
        moves = [e[0] for e in entries]
        analysis = _read_analysis(directory / f"{name}.analysis", moves)
        out[name] = [
            PonsPosition(m, int(e[1]), known) for m, e, known in zip(moves, entries, analysis)
        ]
    return out


#: Truths computed for Pons positions without a shipped analysis, kept for the process
#: (move string -> per-column scores), so scoring several agents solves each once.
_COMPUTED_PONS: dict[str, tuple[int | None, ...]] = {}


def computed_truth(moves: str) -> tuple[int | None, ...] | None:
    """The per-column scores of the Pons position ``moves`` computed earlier in this
    process, or ``None``."""
    return _COMPUTED_PONS.get(moves)


def remember_truth(moves: str, scores: tuple[int | None, ...]) -> None:
    """Keeps the per-column scores of the Pons position ``moves`` for the process."""
    _COMPUTED_PONS[moves] = scores
