"""Proofs written by the free-placement solver (``Solver.prove``) and checked by the
independent proof checker (``Solver.check_proof``); corrupted proofs refused."""

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
