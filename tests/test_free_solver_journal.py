"""A free-placement outcome search made resumable by a journal
(``Solver.solve(board, weak=True, journal=PATH)``): what one call proves, the next
reads back; a cancelled call keeps what it proved; bad journals and arguments refused."""

import time

import pytest
from test_interrupts import in_background

import inarow


def free(width: int, height: int, k: int, rule: str = "freestyle") -> inarow.Board:
    return inarow.Board(rules=inarow.Rules(width, height, k, gravity=False, rule=rule))


def solver() -> inarow.Solver:
    return inarow.Solver(tt_bytes=1 << 24, threads=1, book=False)


def outcome_lines(path) -> list[str]:
    return path.read_text().splitlines()[1:]


def test_a_journal_is_written_and_a_second_call_starts_from_it(tmp_path):
    path = tmp_path / "775.journal"
    first = solver()
    assert first.solve(free(7, 7, 5), weak=True, journal=path) == 0
    header, *lines = path.read_text().splitlines()
    assert header == "inarow-pinned 1 7 7 5 freestyle"
    assert len(lines) > 1000
    # A fresh solver (empty tables) finds the root proven in the journal.
    second = solver()
    assert second.solve(free(7, 7, 5), weak=True, journal=path) == 0
    assert second.nodes < first.nodes / 100
    assert outcome_lines(path) == lines  # nothing new to prove


def test_the_journal_gives_the_plain_outcomes(tmp_path):
    # Positions after moves, searched with and without a journal: the same outcomes.
    # 6,6,4 is a first-player win, 6,6,5 a draw.
    plain = solver()
    outcomes = set()
    for k in (4, 5):
        for moves in ([], [14], [14, 15], [0, 14, 35], [0, 1, 2]):
            board = free(6, 6, k)
            for m in moves:
                board.move(m)
            path = tmp_path / f"{k}-{len(moves)}.journal"
            value = solver().solve(board, weak=True, journal=path)
            assert value == plain.solve(board, weak=True)
            outcomes.add(value)
    assert outcomes == {-1, 0, 1}


def solve_until_written(s: inarow.Solver, board: inarow.Board, path, lines: int) -> None:
    """Solves `board` with a journal in the background and cancels once the
    journal holds `lines` outcomes: the call ends with CancelledError."""
    thread, outcome = in_background(lambda: s.solve(board, weak=True, journal=path))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and thread.is_alive():
        if path.exists() and len(outcome_lines(path)) >= lines:
            break
        time.sleep(0.02)
    s.cancel()
    thread.join(timeout=10)
    assert not thread.is_alive(), "the call survived the cancel"
    assert len(outcome) == 1 and isinstance(outcome[0], inarow.CancelledError), outcome


def test_a_cancelled_solve_keeps_what_it_proved(tmp_path):
    # 8,8,5 after three moves runs far longer than the test: it is cancelled
    # once the journal shows outcomes, which the next call reads and extends.
    board = free(8, 8, 5)
    for m in (27, 28, 36):
        board.move(m)
    path = tmp_path / "885.journal"
    s = solver()
    solve_until_written(s, board, path, 1)
    kept = outcome_lines(path)
    assert kept and all(len(line.split()) == 4 for line in kept)
    solve_until_written(s, board, path, len(kept) + 1)
    assert outcome_lines(path)[: len(kept)] == kept
    assert len(outcome_lines(path)) > len(kept)


def test_progress_counts_the_outcomes_written(tmp_path):
    path = tmp_path / "775.journal"
    seen: list[tuple[int, None]] = []
    assert (
        solver().solve(free(7, 7, 5), weak=True, journal=path, progress=lambda *a: seen.append(a))
        == 0
    )
    assert seen and seen[-1] == (len(outcome_lines(path)), None)
    assert all(total is None for _, total in seen)


def test_a_journal_of_another_board_or_a_broken_line_is_refused(tmp_path):
    path = tmp_path / "j"
    solver().solve(free(6, 6, 5), weak=True, journal=path)
    before = path.read_text()
    with pytest.raises(inarow.InvalidPositionError, match="journal of another board"):
        solver().solve(free(7, 7, 5), weak=True, journal=path)
    assert path.read_text() == before
    path.write_text(before + "zz 0 a win\n")
    with pytest.raises(inarow.InvalidPositionError, match="not an outcome"):
        solver().solve(free(6, 6, 5), weak=True, journal=path)


def test_a_line_cut_short_is_dropped(tmp_path):
    path = tmp_path / "j"
    solver().solve(free(6, 6, 5), weak=True, journal=path)
    whole = path.read_text()
    path.write_text(whole + "1f 2")  # a kill mid-line
    assert solver().solve(free(6, 6, 5), weak=True, journal=path) == 0
    assert path.read_text() == whole


def test_bad_arguments_are_refused(tmp_path):
    s = solver()
    path = tmp_path / "j"
    with pytest.raises(ValueError, match="weak=True"):
        s.solve(free(5, 5, 4), journal=path)
    with pytest.raises(ValueError, match="journal=PATH"):
        s.solve(free(5, 5, 4), weak=True, progress=True)
    with pytest.raises(inarow.UnsupportedRulesError, match="freestyle"):
        s.solve(free(5, 5, 4, rule="standard"), weak=True, journal=path)
    with pytest.raises(inarow.UnsupportedRulesError, match="gravity=False"):
        s.solve(inarow.Board(), weak=True, journal=path)
    with pytest.raises(TypeError):
        s.solve(free(5, 5, 4), weak=True, journal=3)
    assert not path.exists()
    with pytest.raises(OSError):
        s.solve(free(5, 5, 4), weak=True, journal=tmp_path)  # a folder
