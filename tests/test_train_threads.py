"""The trainer's torch threads follow the cores the machine gives it (pure Python: no
torch): fewer threads while other programs hold cores, the full count tried again
later, the waits between tries doubling while the cores stay taken."""

from __future__ import annotations

import pytest

from inarow.train.threads import MIN_WINDOW_SECONDS, TorchThreads


class Machine:
    """Fake clocks: ``run(seconds, cores)`` advances wall time and the process's CPU."""

    def __init__(self) -> None:
        self.wall = 1000.0
        self.cpu = 5.0
        self.set_calls: list[int] = []

    def run(self, seconds: float, cores: float) -> None:
        self.wall += seconds
        self.cpu += seconds * cores

    def watch(self, wanted: int, **kw) -> TorchThreads:
        return TorchThreads(
            wanted,
            self.set_calls.append,
            clock=lambda: self.wall,
            cpu_clock=lambda: self.cpu,
            **kw,
        )


def test_full_cores_keep_every_thread():
    m = Machine()
    w = m.watch(2)
    for _ in range(20):
        m.run(30, 1.97)
        assert w.update() is None
    assert w.threads == 2 and m.set_calls == [2]
    assert w.cores == pytest.approx(1.97)


def test_a_taken_core_drops_a_thread_and_the_full_count_is_tried_again_later():
    m = Machine()
    w = m.watch(2, retry_seconds=300)
    m.run(30, 1.0)
    said = w.update()
    assert w.threads == 1 and m.set_calls == [2, 1]
    assert "1.0 cores for 2 torch threads: running 1" in said and "next try in 300 s" in said
    for _ in range(9):  # 270 s on one thread: no try yet
        m.run(30, 1.0)
        assert w.update() is None
    m.run(30, 1.0)
    assert w.update() == "trying 2 torch threads again" and w.threads == 2
    m.run(30, 1.98)  # the other program has gone: the full count stays
    assert w.update() is None and w.threads == 2
    assert m.set_calls == [2, 1, 2]


def test_tries_that_find_the_cores_taken_wait_twice_as_long_up_to_the_cap():
    m = Machine()
    w = m.watch(2, retry_seconds=100, max_retry_seconds=350)
    m.run(30, 1.0)
    w.update()
    waits = []
    for _ in range(4):
        waited = 0
        while w.threads == 1:
            m.run(10, 1.0)
            waited += 10
            w.update()
        waits.append(waited)
        m.run(30, 1.0)  # the try: still one core
        assert "running 1" in w.update()
    assert waits == [100, 200, 350, 350]
    # A try that gets its cores starts the waits short again.
    while w.threads == 1:
        m.run(10, 1.0)
        w.update()
    m.run(30, 2.0)
    w.update()
    m.run(30, 1.0)
    assert "next try in 100 s" in w.update()


def test_many_threads_drop_to_the_cores_they_get():
    m = Machine()
    w = m.watch(16)
    m.run(30, 15.7)  # within half a core of 16: kept
    assert w.update() is None and w.threads == 16
    m.run(30, 11.4)
    assert "running 11" in w.update() and w.threads == 11
    m.run(30, 6.2)  # fewer again, from the 11 running
    assert "6.2 cores for 11 torch threads: running 6" in w.update()


def test_short_windows_and_other_work_are_not_judged():
    m = Machine()
    w = m.watch(2)
    m.run(MIN_WINDOW_SECONDS / 2, 1.0)
    assert w.update() is None and w.threads == 2  # too short: the window goes on
    m.run(30, 2.0)
    assert w.update() is None and w.threads == 2  # judged over both: 1.86 cores
    m.run(300, 1.0)  # an evaluation on one core
    w.restart()
    m.run(30, 1.99)
    assert w.update() is None and w.threads == 2


def test_one_thread_never_changes():
    m = Machine()
    w = m.watch(1)
    for cores in (0.2, 1.0, 0.5):
        m.run(400, cores)
        assert w.update() is None
    assert m.set_calls == [1]


@pytest.mark.parametrize(
    "kw, match",
    [
        (dict(wanted=0), "wanted=0: allowed an int of 1 or more"),
        (dict(wanted=True), "wanted=True"),
        (dict(wanted=2.0), "wanted=2.0"),
        (dict(wanted=2, retry_seconds=0), "retry_seconds=0"),
        (dict(wanted=2, retry_seconds=900, max_retry_seconds=600), "retry_seconds <= max"),
    ],
)
def test_bad_settings_are_refused(kw, match):
    with pytest.raises(ValueError, match=match):
        TorchThreads(set_threads=lambda n: None, **kw)
