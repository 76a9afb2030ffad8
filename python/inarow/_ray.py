"""Work spread over a Ray cluster: joining one (``connect``), and running a long job
as chunks of tasks (``run_chunks``) whose results the caller merges into what one
local run gives. Needs the ``ray`` extra."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from inarow._extras import missing

__all__ = ["FIRST_CHUNK", "TASK_SECONDS", "cancel", "connect", "ray_module", "run_chunks"]

#: How long one chunk's task should run: long enough that scheduling costs little,
#: short enough that progress and Ctrl-C respond and the work spreads evenly.
TASK_SECONDS = 2.0

#: Items in each of the first chunks, before any task has been timed.
FIRST_CHUNK = 8

#: How often the wait for finished tasks wakes (Ctrl-C is noticed within it).
WAIT_SECONDS = 0.5

#: How long an error or Ctrl-C goes on cancelling the tasks a first cancel missed.
CANCEL_SECONDS = 1.0


def ray_module(needed_by: str = "--ray") -> Any:
    """The ``ray`` module, or `inarow.MissingExtraError` saying what needs it and
    how to install it."""
    try:
        import ray
    except ImportError as e:
        raise missing("ray", needed_by, e) from e
    return ray


def connect(address: str | None, needed_by: str = "--ray") -> Any:
    """Joins the Ray cluster at ``address`` ("auto": the one this machine belongs
    to; ``None`` or ``""``: a new local one on this machine's CPUs, never another
    cluster the machine runs) unless connected already; returns the ``ray`` module."""
    ray = ray_module(needed_by)
    if not ray.is_initialized():
        ray.init(address=address or "local", ignore_reinit_error=True, log_to_driver=False)
    return ray


def run_chunks(
    ray: Any,
    submit: Callable[[int, int], Any],
    total: int,
    chunk: int | None = None,
    on_done: Callable[[int, int], Any] | None = None,
) -> list[tuple[int, Any]]:
    """Runs items ``0 .. total`` as tasks: ``submit(first, n)`` starts one on items
    ``first .. first + n`` and returns its object ref, whose value is ``(result,
    seconds the task worked)``. Returns ``(first, result)`` per chunk, in item order.

    ``chunk``: items per task; None sizes them from the tasks timed so far (about
    :data:`TASK_SECONDS` each, and at most an even share of what is left per CPU).
    At most two tasks per cluster CPU wait or run at once. ``on_done(done, total)``
    after each finished chunk. On any error or Ctrl-C the tasks not finished are
    cancelled (their worker processes stopped) and the exception goes on."""
    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    limit = 2 * cpus
    size = chunk or FIRST_CHUNK
    in_flight: dict[Any, tuple[int, int]] = {}
    results: list[tuple[int, Any]] = []
    next_item = done = 0
    worked = 0.0
    try:
        while next_item < total or in_flight:
            while next_item < total and len(in_flight) < limit:
                n = min(size, total - next_item)
                in_flight[submit(next_item, n)] = (next_item, n)
                next_item += n
            ready, _ = ray.wait(list(in_flight), num_returns=1, timeout=WAIT_SECONDS)
            for ref in ready:
                first, n = in_flight.pop(ref)
                result, seconds = ray.get(ref)
                results.append((first, result))
                done += n
                worked += seconds
                if chunk is None and worked > 0:
                    share = math.ceil((total - next_item) / cpus)
                    size = max(1, min(int(done / worked * TASK_SECONDS), share))
                if on_done is not None:
                    on_done(done, total)
    finally:
        if in_flight:
            cancel(ray, list(in_flight))
    return sorted(results, key=lambda r: r[0])


def cancel(ray: Any, refs: list[Any], seconds: float = CANCEL_SECONDS) -> None:
    """Stops the tasks of ``refs``. Forced: a task inside a native call would finish
    its chunk before a polite cancel reached it. A cancel that reaches a task while
    its worker is still taking it up can be lost (ray-project/ray#24359: the task
    then runs to its end), so the tasks not stopped after a short wait are cancelled
    again, for up to ``seconds``."""
    deadline = time.monotonic() + seconds
    pending = refs
    while pending:
        for ref in pending:
            ray.cancel(ref, force=True)
        left = deadline - time.monotonic()
        if left <= 0:
            return
        _, pending = ray.wait(pending, num_returns=len(pending), timeout=min(0.2, left))
