"""Long work lands a Ctrl-C (KeyboardInterrupt) or a cancel flag quickly and leaves
every object usable. Latency bounds here are generous correctness bounds (the
requirement is one second; see the README for measured figures), not speed tests."""

from __future__ import annotations

import _thread
import threading
import time

import pytest

import inarow

# Positions that take far longer than the test to solve or count: an opening solved
# exactly without the opening book (with it, 0.1 s).
HARD_SOLVE = inarow.Board.from_pons("4")


def hard_solver(**kwargs) -> inarow.Solver:
    return inarow.Solver(tt_bytes=1 << 20, book=False, **kwargs)


def interrupt_after(seconds: float) -> list[float]:
    """Simulates Ctrl-C after `seconds`; returns a list receiving the send time."""
    sent: list[float] = []

    def fire():
        time.sleep(seconds)
        sent.append(time.perf_counter())
        _thread.interrupt_main()

    threading.Thread(target=fire, daemon=True).start()
    return sent


def land(call, bound: float = 2.0) -> float:
    sent = interrupt_after(0.3)
    with pytest.raises(KeyboardInterrupt):
        call()
    latency = time.perf_counter() - sent[0]
    assert latency < bound, f"the interrupt took {latency:.2f} s to land"
    return latency


def in_background(call) -> tuple[threading.Thread, list[object]]:
    """Runs `call` in a daemon thread; the list receives its result or exception."""
    outcome: list[object] = []

    def work():
        try:
            outcome.append(call())
        except BaseException as e:  # noqa: BLE001 - recorded for the assertion
            outcome.append(e)

    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    return thread, outcome


def cancel_in_background(call, cancel, after: float = 0.3, bound: float | None = None) -> None:
    """Runs `call` in the background and `cancel()` after `after` seconds: the call
    ends with `CancelledError` (within `bound` seconds of the cancel, when given)."""
    thread, outcome = in_background(call)
    time.sleep(after)
    sent = time.perf_counter()
    cancel()
    thread.join(timeout=10)
    assert not thread.is_alive(), "the call survived the cancel"
    if bound is not None:
        assert time.perf_counter() - sent < bound
    assert len(outcome) == 1 and isinstance(outcome[0], inarow.CancelledError), outcome


def test_ctrl_c_lands_in_simulate_and_it_runs_again():
    land(lambda: inarow.simulate(10**12, seed=0))
    assert inarow.simulate(1000, seed=0).games == 1000


def test_ctrl_c_lands_in_solve_and_the_solver_still_works():
    solver = hard_solver()
    land(lambda: solver.solve(HARD_SOLVE))
    end = inarow.Board.from_pons("2252576253462244111563365343671351441")
    assert solver.solve(end) == -1  # a Pons test-set position, known score


def test_ctrl_c_lands_in_perft_and_the_board_is_unchanged():
    board = inarow.Board.from_moves([3, 3])
    land(lambda: board.perft(30))
    assert board.moves == [3, 3] and board.perft(2) == 49


def test_cancel_event_stops_a_background_simulate():
    event = threading.Event()
    cancel_in_background(lambda: inarow.simulate(10**12, seed=1, cancel=event), event.set, 0.2)


def test_solver_cancel_from_another_thread():
    solver = hard_solver()
    cancel_in_background(lambda: solver.solve(HARD_SOLVE), solver.cancel)
    assert solver.solve(inarow.Board.from_pons("2252576253462244111563365343671351441")) == -1


def test_cancel_must_be_an_event():
    with pytest.raises(TypeError, match="is_set"):
        inarow.simulate(10, cancel=object())


# A position that 1 MiB and one thread solve in seconds, and a Pons end position.
SECONDS_SOLVE = inarow.Board.from_pons("4453")
END = inarow.Board.from_pons("2252576253462244111563365343671351441")  # score -1


def test_ctrl_c_in_a_queued_call_stops_only_that_call():
    # Another thread's search holds the solver; Ctrl-C in this thread's queued call
    # returns at once, without searching, and leaves the other search running.
    solver = hard_solver(threads=1)
    running, outcome = in_background(lambda: solver.solve(HARD_SOLVE))
    time.sleep(0.3)
    land(lambda: solver.solve(SECONDS_SOLVE))
    time.sleep(0.2)
    assert running.is_alive() and outcome == [], f"the other call ended: {outcome}"
    solver.cancel()
    running.join(timeout=10)
    assert len(outcome) == 1 and isinstance(outcome[0], inarow.CancelledError)


def test_ctrl_c_in_the_running_call_leaves_the_queued_call_alone():
    solver = hard_solver(threads=1)
    sent = interrupt_after(0.6)
    queued: list[tuple[threading.Thread, list[object]]] = []
    threading.Timer(0.3, lambda: queued.append(in_background(lambda: solver.solve(END)))).start()
    with pytest.raises(KeyboardInterrupt):
        solver.solve(HARD_SOLVE)
    assert time.perf_counter() - sent[0] < 2.0
    thread, outcome = queued[0]
    thread.join(timeout=10)
    assert outcome == [-1]


def test_cancel_stops_every_call_running_or_queued_and_no_later_one():
    solver = hard_solver(threads=1)
    calls = []
    for _ in range(3):  # one searching, two queued behind it
        calls.append(in_background(lambda: solver.solve(HARD_SOLVE)))
        time.sleep(0.2)
    solver.cancel()
    for thread, outcome in calls:
        thread.join(timeout=10)
        assert not thread.is_alive(), "a call survived cancel()"
        assert len(outcome) == 1 and isinstance(outcome[0], inarow.CancelledError), outcome
    assert solver.solve(END) == -1  # a later call is not cancelled


def test_cancel_lands_on_the_largest_solver_board():
    # 8x7 fills the 64-bit layout: the largest board the solver takes.
    solver = inarow.Solver(tt_bytes=1 << 20)
    board = inarow.Board(rules=inarow.Rules(width=8, height=7))
    cancel_in_background(lambda: solver.solve(board), solver.cancel, bound=5.0)


# Boards where every node has hundreds of actions: a poll by depth waits for a
# whole root subtree (seconds to hours); a poll by work lands at once.
@pytest.mark.parametrize(
    "board, count",
    [
        (inarow.Board.gomoku(19), lambda b: b.perft(7)),
        (inarow.Board.gomoku(15), lambda b: b.perft(7)),
        (inarow.Board(rules=inarow.Rules(width=8, height=8, gravity=False)), lambda b: b.perft(7)),
        (
            inarow.Board(rules=inarow.Rules(width=20, height=20, k=2, gravity=False)),
            lambda b: b.count_games(),
        ),
        (inarow.Board.gomoku(15), lambda b: b.count_games()),
    ],
    ids=[
        "gomoku19-perft7",
        "gomoku15-perft7",
        "8x8-free-perft7",
        "20x20-k2-count",
        "gomoku15-count",
    ],
)
def test_ctrl_c_lands_in_counts_on_big_boards(board, count):
    land(lambda: count(board), bound=5.0)
    assert board.moves == []


@pytest.mark.parametrize("size", [15, 19])
def test_ctrl_c_and_cancel_land_in_simulate_on_gomoku(size):
    land(
        lambda: inarow.simulate(
            10**12, rules=inarow.Rules(width=size, height=size, k=5, gravity=False)
        ),
        bound=5.0,
    )
    event = threading.Event()
    cancel_in_background(
        lambda: inarow.simulate(
            10**12, rules=inarow.Rules(width=size, height=size, k=5, gravity=False), cancel=event
        ),
        event.set,
        bound=5.0,
    )


def test_a_progress_callback_that_raised_is_not_called_again():
    calls = []

    def progress(done, total):
        calls.append(done)
        raise ValueError("the callback refuses")

    with pytest.raises(ValueError, match="refuses"):
        inarow.simulate(10**12, seed=0, progress=progress)
    assert len(calls) == 1
