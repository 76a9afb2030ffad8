"""Torch's CPU threads kept at the cores the machine gives a run.

Torch's OpenMP threads meet at the end of every operation, and a thread that arrives
first spins while it waits. When another program takes one of two cores, each of the
run's many small operations waits a scheduler slice for the thread that lost its
core: on this project's 2-core machine, with a busy loop in another session,
``--threads 2`` self-play fell from 14,600 to 300 simulations/s and learner steps
from 14 to 0.6 a second, where one thread kept 9,200 and 8 (docs/training.md,
"Sharing the machine"). ``TorchThreads`` watches the cores the process gets (its
CPU time over the wall time of a window): short of its threads by half a core or
more, it runs on as many as it gets; it tries its full count again after
``retry_seconds``, twice as long after each try that finds the cores still taken.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

__all__ = ["TorchThreads"]

#: A window shorter than this is not judged (it goes on to the next update).
MIN_WINDOW_SECONDS = 10.0


class TorchThreads:
    """``update()`` once a window (the log interval) sets torch's threads for the next.

    ``set_threads`` is ``torch.set_num_threads`` (passed in: the module imports
    without torch); ``clock`` and ``cpu_clock`` are the wall and process CPU clocks.
    """

    def __init__(
        self,
        wanted: int,
        set_threads: Callable[[int], None],
        retry_seconds: float = 60.0,
        max_retry_seconds: float = 1800.0,
        clock: Callable[[], float] = time.monotonic,
        cpu_clock: Callable[[], float] = time.process_time,
    ) -> None:
        if isinstance(wanted, bool) or not isinstance(wanted, int) or wanted < 1:
            raise ValueError(f"wanted={wanted!r}: allowed an int of 1 or more")
        if not 0 < retry_seconds <= max_retry_seconds:
            raise ValueError(
                f"retry_seconds={retry_seconds}, max_retry_seconds={max_retry_seconds}: "
                "allowed 0 < retry_seconds <= max_retry_seconds"
            )
        self.wanted = wanted
        self.threads = wanted
        self._set_threads = set_threads
        self._first_retry = self._retry = retry_seconds
        self._max_retry = max_retry_seconds
        self._clock, self._cpu_clock = clock, cpu_clock
        self._trying = False  # this window runs the full count again, to see if it fits
        self._since = self._window_start = clock()
        self._cpu_start = cpu_clock()
        self.cores = float(wanted)  # the cores the last window got
        set_threads(wanted)

    def update(self) -> str | None:
        """Ends the window; returns a line to show when the thread count changes."""
        now, cpu = self._clock(), self._cpu_clock()
        wall = now - self._window_start
        if wall < MIN_WINDOW_SECONDS:  # too short to say: the window goes on
            return None
        self.cores = (cpu - self._cpu_start) / wall
        self._window_start, self._cpu_start = now, cpu
        if self.threads > 1 and self.cores < self.threads - 0.5:
            got = max(1, min(self.threads - 1, math.floor(self.cores + 0.5)))
            if self._trying:  # the cores are still taken: wait longer before the next try
                self._retry = min(2 * self._retry, self._max_retry)
            self._trying = False
            return self._change(
                got,
                now,
                f"{self.cores:.1f} cores for {self.threads} torch threads: "
                f"running {got} until the cores come back (next try in {self._retry:.0f} s)",
            )
        if self._trying:  # the full count got its cores: tries start short again
            self._trying = False
            self._retry = self._first_retry
        if self.threads < self.wanted and now - self._since >= self._retry:
            self._trying = True
            return self._change(self.wanted, now, f"trying {self.wanted} torch threads again")
        return None

    def restart(self) -> None:
        """Starts a fresh window without judging the last: a stretch of other work
        (an evaluation) says nothing about the cores training gets."""
        self._window_start, self._cpu_start = self._clock(), self._cpu_clock()

    def _change(self, threads: int, now: float, line: str) -> str:
        self.threads = threads
        self._since = now
        self._set_threads(threads)
        return line
