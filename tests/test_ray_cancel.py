"""Cancelling Ray tasks (``inarow._ray.cancel``) against a stand-in for Ray whose
cancels can be lost, as one reaching a task still being handed to its worker is
(ray-project/ray#24359). Pure Python: Ray itself is not needed."""

from __future__ import annotations

import time

from inarow._ray import cancel


class LossyRay:
    """``cancel`` stops a task unless one of its lost cancels is left; ``wait``
    blocks its timeout while any task runs, as Ray's does."""

    def __init__(self, lost: dict[str, float]) -> None:
        self.lost = dict(lost)
        self.stopped: set[str] = set()
        self.cancels: list[str] = []

    def cancel(self, ref: str, force: bool) -> None:
        assert force
        self.cancels.append(ref)
        if self.lost.get(ref, 0) > 0:
            self.lost[ref] -= 1
        else:
            self.stopped.add(ref)

    def wait(self, refs: list[str], num_returns: int, timeout: float):
        assert num_returns == len(refs)
        running = [r for r in refs if r not in self.stopped]
        if running:
            time.sleep(timeout)
        return [r for r in refs if r in self.stopped], running


def test_a_lost_cancel_is_sent_again_until_the_task_stops():
    ray = LossyRay({"b": 2})
    cancel(ray, ["a", "b", "c"])
    assert ray.stopped == {"a", "b", "c"}
    assert ray.cancels.count("b") == 3 and ray.cancels.count("a") == 1


def test_a_task_that_never_stops_costs_the_caller_only_the_time_allowed():
    ray = LossyRay({"stuck": float("inf")})
    start = time.monotonic()
    cancel(ray, ["done", "stuck"], seconds=0.3)
    assert time.monotonic() - start < 0.6
    assert "done" in ray.stopped and "stuck" not in ray.stopped
    assert ray.cancels.count("stuck") >= 2 and ray.cancels.count("done") == 1


def test_nothing_to_cancel_returns_at_once():
    ray = LossyRay({})
    cancel(ray, [])
    assert ray.cancels == []
