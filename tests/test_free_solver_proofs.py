"""Proofs written by the free-placement solver (``Solver.prove``) and checked by the
independent proof checker (``Solver.check_proof``); corrupted proofs refused."""

from pathlib import Path

import pytest
from test_interrupts import cancel_in_background

import inarow


def free(width: int, height: int, k: int, rule: str = "freestyle") -> inarow.Board:
    return inarow.Board(rules=inarow.Rules(width, height, k, gravity=False, rule=rule))


@pytest.fixture
def solver():
    return inarow.Solver(tt_bytes=1 << 22, threads=1, book=False)


@pytest.mark.parametrize(
    "shape,rule,outcome",
    [
        ((3, 3, 3), "freestyle", 0),
        ((4, 4, 3), "freestyle", 1),
        ((5, 4, 4), "freestyle", 0),
        ((4, 4, 3), "standard", 1),
        ((5, 4, 4), "standard", 0),
    ],
)
def test_proofs_check_and_give_the_solvers_outcome(solver, tmp_path, shape, rule, outcome):
    path = tmp_path / "proof.txt"
    board = free(*shape, rule=rule)
    assert solver.prove(board, path) == outcome
    assert solver.solve(board, weak=True) == outcome
    assert inarow.Solver.check_proof(path) == outcome
    assert inarow.Solver.check_proof(str(path)) == outcome


def test_a_position_after_moves_is_proven_from_the_side_to_move(solver, tmp_path):
    board = free(3, 3, 3)
    for action in (0, 1, 2, 4, 6):  # o to move completes 1-4-7
        board.move(action)
    path = tmp_path / "proof.txt"
    assert solver.prove(board, path) == -1
    assert inarow.Solver.check_proof(path) == -1


def test_a_corrupted_proof_is_refused(solver, tmp_path):
    board = free(3, 3, 3)
    board.move(0)  # x in a corner: o must take the centre (cell 4)
    path = tmp_path / "proof.txt"
    assert solver.prove(board, path) == 0
    text = path.read_text()
    assert "\n1 0 o m 4\n" in text
    path.write_text(text.replace("\n1 0 o m 4\n", "\n1 0 o m 1\n"))
    with pytest.raises(ValueError, match="o no-loss"):
        inarow.Solver.check_proof(path)
    path.write_text(text.replace("end\n", ""))
    with pytest.raises(ValueError, match="format"):
        inarow.Solver.check_proof(path)


def test_gravity_boards_and_missing_files(solver, tmp_path):
    with pytest.raises(inarow.UnsupportedRulesError, match="free-placement"):
        solver.prove(inarow.Board(rules=inarow.Rules(4, 4, 3, gravity=True)), tmp_path / "p")
    with pytest.raises(OSError):
        inarow.Solver.check_proof(tmp_path / "missing.txt")
    with pytest.raises(OSError):
        solver.prove(free(3, 3, 3), tmp_path / "no-such-folder" / "p.txt")


def test_a_long_proof_is_cancelled(solver, tmp_path):
    # 8,8,5's proof runs for hours: cancel() ends it, and the solver still works.
    path = tmp_path / "proof.txt"
    cancel_in_background(lambda: solver.prove(free(8, 8, 5), path), solver.cancel, bound=2.0)
    assert solver.prove(free(3, 3, 3), path) == 0


def test_a_bundle_checks_part_by_part_and_resumes(solver, tmp_path):
    path = tmp_path / "proof.zst"
    seen = []
    assert (
        solver.prove(free(5, 5, 4), path, parts_from=3, progress=lambda n, _: seen.append(n)) == 0
    )
    assert path.read_bytes()[:4] == b"\x28\xb5\x2f\xfd"  # zstd frames
    assert inarow.Solver.check_proof(path) == 0
    assert seen[-1] > 10
    whole = path.read_bytes()
    manifest = tmp_path / "proof.zst.parts"
    lines = manifest.read_text().splitlines(keepends=True)
    manifest.write_text("".join(lines[: len(lines) // 2]))
    assert solver.prove(free(5, 5, 4), path, parts_from=3) == 0
    assert path.read_bytes() == whole
    assert manifest.read_text() == "".join(lines)
    # A first player's win is one proof, bundled all the same.
    assert solver.prove(free(4, 4, 3), tmp_path / "win.zst", parts_from=3) == 1
    assert inarow.Solver.check_proof(tmp_path / "win.zst") == 1


def test_a_bundle_checks_on_threads_with_progress(solver, tmp_path):
    path = tmp_path / "proof.zst"
    assert solver.prove(free(5, 5, 4), path, parts_from=3) == 0
    parts = len((tmp_path / "proof.zst.parts").read_text().splitlines())  # with the header
    for threads in (1, 2, 3):
        seen = []

        def report(n, total, seen=seen):
            seen.append((n, total))

        assert inarow.Solver.check_proof(path, threads=threads, progress=report) == 0
        assert seen[-1] == (parts, None)
    for bad in (0, -1, 65):
        with pytest.raises(ValueError, match="threads"):
            inarow.Solver.check_proof(path, threads=bad)
    for bad in (True, 2.0, "2"):
        with pytest.raises(TypeError, match="threads"):
            inarow.Solver.check_proof(path, threads=bad)


def test_a_check_stops_when_its_progress_callback_raises(solver, tmp_path):
    # 7,7,5's bundle checks in a few tenths of a second; the first report, after
    # 50 ms, raises and ends the check.
    path = tmp_path / "proof.zst"
    assert solver.prove(free(7, 7, 5), path, parts_from=4) == 0
    calls = []

    def stop(done, total):
        calls.append(done)
        raise RuntimeError("enough")

    with pytest.raises(RuntimeError, match="enough"):
        inarow.Solver.check_proof(path, threads=1, progress=stop)
    assert len(calls) == 1
    assert inarow.Solver.check_proof(path) == 0


def test_a_bundle_without_its_parts_or_damaged_is_refused(solver, tmp_path):
    path = tmp_path / "proof.zst"
    assert solver.prove(free(5, 5, 4), path, parts_from=3) == 0
    data = path.read_bytes()
    frames = data.split(b"\x28\xb5\x2f\xfd")
    (tmp_path / "last.zst").write_bytes(b"\x28\xb5\x2f\xfd" + frames[-1])
    with pytest.raises(ValueError, match="no move of the claimant"):
        inarow.Solver.check_proof(tmp_path / "last.zst")
    (tmp_path / "cut.zst").write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError):
        inarow.Solver.check_proof(tmp_path / "cut.zst")


def test_bundle_arguments_are_checked(solver, tmp_path):
    board = free(5, 5, 4)
    for bad in (0, -1, 129):
        with pytest.raises(ValueError, match="parts_from"):
            solver.prove(board, tmp_path / "p", parts_from=bad)
    for bad in (True, 2.0, "3"):
        with pytest.raises(TypeError, match="parts_from"):
            solver.prove(board, tmp_path / "p", parts_from=bad)
    with pytest.raises(ValueError, match="parts_from"):
        solver.prove(board, tmp_path / "p", journal=tmp_path / "j")
    journal = tmp_path / "j"
    journal.write_text("inarow-pinned 1 5 5 3 freestyle\n")
    with pytest.raises(inarow.InvalidPositionError, match="another board"):
        solver.prove(board, tmp_path / "p", parts_from=3, journal=journal)
    path = tmp_path / "b.zst"
    solver.prove(board, path, parts_from=3)
    with pytest.raises(inarow.InvalidPositionError, match="another bundle"):
        solver.prove(board, path, parts_from=4)


def test_a_long_bundle_is_cancelled_and_leaves_its_manifest(solver, tmp_path):
    # 8,8,5's bundle from its outcome search's journal: the outcome is known at
    # once and the parts begin; cancel() ends the writing, and the solver still works.
    journal = Path(__file__).resolve().parent.parent / "scripts" / "free-8x8-k5.journal"
    path = tmp_path / "proof.zst"
    cancel_in_background(
        lambda: solver.prove(free(8, 8, 5), path, parts_from=4, journal=journal),
        solver.cancel,
        after=1.5,
        bound=2.0,
    )
    manifest = (tmp_path / "proof.zst.parts").read_text()
    assert manifest.startswith("inarow-bundle 1 8 8 5 freestyle 4\n")
    assert solver.prove(free(3, 3, 3), tmp_path / "small.txt") == 0
