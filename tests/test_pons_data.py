"""Pascal Pons' six test sets ship in the repository and in the package, byte for byte
as their README's sha1sums say."""

from __future__ import annotations

import hashlib
import re
from importlib import resources

import pytest
from pons import DIR, SETS, positions

import inarow

SHA1 = {
    "Test_L1_R1": "d2eb4f68f8f933226ae07f90f96dcf98795ab2f4",
    "Test_L1_R2": "8df4c3a812f45ab6f7ec218abc6df69ca8d89d71",
    "Test_L1_R3": "83d24adca8e80e0db770bf5eb0cb058910751e7b",
    "Test_L2_R1": "592b097aef6b0038988c57a704ff61fe227621b5",
    "Test_L2_R2": "9431c1be9ca59dc2d69494d83d12f219612da43e",
    "Test_L3_R1": "91f8b2d7c7f3173433121dbda307f1db22513659",
}


def sha1(data: bytes) -> str:
    return hashlib.sha1(data).hexdigest()


def test_the_repository_files_have_the_published_sha1sums():
    assert (
        sorted(p.name for p in DIR.glob("Test_*") if p.suffix == "") == sorted(SHA1) == sorted(SETS)
    )
    assert {name: sha1((DIR / name).read_bytes()) for name in SHA1} == SHA1


def test_the_readme_lists_the_same_sha1sums_and_the_attribution():
    readme = (DIR / "README.md").read_text()
    assert (
        dict(
            (name, digest) for digest, name in re.findall(r"([0-9a-f]{40})  (Test_L\d_R\d)", readme)
        )
        == SHA1
    )
    assert "Pascal Pons" in readme and "blog.gamesolver.org" in readme


@pytest.mark.parametrize("name", SETS)
def test_every_line_is_a_reachable_position_with_a_score_in_range(name):
    lines = positions(name)
    assert len(lines) == 1000
    for moves, score in lines:
        board = inarow.Board.from_pons(moves)
        assert not board.is_over, moves
        assert -18 <= score <= 18, moves


@pytest.mark.installed
def test_the_installed_package_carries_the_six_sets_and_their_readme():
    data = resources.files("inarow") / "data" / "connect4-pons"
    assert {name: sha1((data / name).read_bytes()) for name in SHA1} == SHA1
    assert (data / "README.md").read_bytes() == (DIR / "README.md").read_bytes()
