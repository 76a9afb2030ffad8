"""Long work lands a Ctrl-C (KeyboardInterrupt) or a cancel flag quickly and leaves
every object usable. Latency bounds here are generous correctness bounds (the
requirement is one second; see the README for measured figures), not speed tests."""

from __future__ import annotations

import _thread
import threading
import time

import pytest

import inarow

# Positions that take far longer than the test to solve or count.
HARD_SOLVE = inarow.Board.from_pons("4")


def interrupt_after(seconds: float) -> list[float]:
    """Simulates Ctrl-C after `seconds`; returns a list receiving the send time."""
    sent: list[float] = []

    def fire():
        time.sleep(seconds)
        sent.append(time.perf_counter())
        _thread.interrupt_main()

    threading.Thread(target=fire, daemon=True).start()
    return sent


def land(call) -> float:
    sent = interrupt_after(0.3)
    with pytest.raises(KeyboardInterrupt):
        call()
    latency = time.perf_counter() - sent[0]
    assert latency < 2.0, f"the interrupt took {latency:.2f} s to land"
    return latency


def test_ctrl_c_lands_in_simulate_and_it_runs_again():
    land(lambda: inarow.simulate(10**12, seed=0))
    assert inarow.simulate(1000, seed=0).games == 1000


def test_ctrl_c_lands_in_solve_and_the_solver_still_works():
    solver = inarow.Solver(tt_bytes=1 << 20)
    land(lambda: solver.solve(HARD_SOLVE))
    end = inarow.Board.from_pons("2252576253462244111563365343671351441")
    assert solver.solve(end) == -1  # a Pons test-set position, known score


def test_ctrl_c_lands_in_perft_and_the_board_is_unchanged():
    board = inarow.Board.from_moves([3, 3])
    land(lambda: board.perft(30))
    assert board.moves == [3, 3] and board.perft(2) == 49


def test_cancel_event_stops_a_background_simulate():
    event = threading.Event()
    errors: list[BaseException] = []

    def work():
        try:
            inarow.simulate(10**12, seed=1, cancel=event)
        except BaseException as e:  # noqa: BLE001 - recorded for the assertion
            errors.append(e)

    worker = threading.Thread(target=work)
    worker.start()
    time.sleep(0.2)
    event.set()
    worker.join(timeout=10)
    assert not worker.is_alive()
    assert len(errors) == 1 and isinstance(errors[0], inarow.CancelledError)


def test_solver_cancel_from_another_thread():
    solver = inarow.Solver(tt_bytes=1 << 20)
    errors: list[BaseException] = []

    def work():
        try:
            solver.solve(HARD_SOLVE)
        except BaseException as e:  # noqa: BLE001 - recorded for the assertion
            errors.append(e)

    worker = threading.Thread(target=work)
    worker.start()
    time.sleep(0.3)
    solver.cancel()
    worker.join(timeout=10)
    assert not worker.is_alive()
    assert len(errors) == 1 and isinstance(errors[0], inarow.CancelledError)
    assert solver.solve(inarow.Board.from_pons("2252576253462244111563365343671351441")) == -1


def test_cancel_must_be_an_event():
    with pytest.raises(TypeError, match="is_set"):
        inarow.simulate(10, cancel=object())
