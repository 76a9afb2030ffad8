"""`evaluate.match` and `evaluate.move_accuracy` with ``ray=``, on a simulated
two-node cluster on this machine: chunks of games (or positions) run as tasks on
both nodes and give the local run's result field by field. Needs ray (CI's
second environment); marker ``rllib``."""

from __future__ import annotations

import dataclasses
import os
import threading

import pytest

ray = pytest.importorskip("ray", reason="ray is not installed (the ray extra)")
pytestmark = pytest.mark.rllib

import inarow  # noqa: E402
from inarow import agents, evaluate  # noqa: E402


def _same(local, remote):
    """Every field of two match results but the time."""
    fields = [f.name for f in dataclasses.fields(local) if f.name != "seconds"]
    assert {f: getattr(remote, f) for f in fields} == {f: getattr(local, f) for f in fields}


def test_a_match_of_built_in_agents_on_the_cluster_equals_the_local_one(cluster):
    local = evaluate.match("negamax:2", "greedy", games=200, seed=7)
    remote = evaluate.match("negamax:2", "greedy", games=200, seed=7, ray="", chunk_games=16)
    _same(local, remote)
    assert 0 < remote.losses < remote.wins  # the games were played, not all alike
    # Chunks sized by timing give the same result too.
    _same(local, evaluate.match("negamax:2", "greedy", games=200, seed=7, ray="auto"))


def test_a_match_over_a_set_of_openings_on_the_cluster_equals_the_local_one(cluster):
    rules = inarow.Rules(5, 5, 4, gravity=False, rule="freestyle")
    settings = dict(games=40, seed=3, rules=rules, openings=[[12], [0, 24], [6]], keep_games=True)
    local = evaluate.match("negamax:1", "random", **settings)
    _same(local, evaluate.match("negamax:1", "random", ray="", chunk_games=7, **settings))
    assert local.openings == "3 openings given"


def test_progress_counts_finished_chunks(cluster):
    calls = []
    evaluate.match(
        agents.greedy(),
        agents.random(),
        games=100,
        ray="",
        chunk_games=30,
        progress=lambda done, total: calls.append((done, total)),
    )
    assert [total for _, total in calls] == [100] * 4
    assert sorted(done for done, _ in calls) == [done for done, _ in calls]
    assert calls[-1][0] == 100 and {b - a for (a, _), (b, _) in zip(calls, calls[1:])} <= {
        10,
        30,
    }


def test_a_python_agent_goes_to_the_tasks_and_gives_the_local_result(cluster):
    def centre_first(board):  # defined here: pickled by value, as from a script
        legal = board.legal_moves()
        return min(legal, key=lambda a: (abs(2 * a - (board.num_actions - 1)), a))

    driver = os.getpid()

    def centre_first_in_tasks(board):  # None (not an action) if called here
        return centre_first(board) if os.getpid() != driver else None

    for rules in ("tic_tac_toe", None):
        local = evaluate.match(centre_first, "greedy", games=40, seed=2, rules=rules)
        remote = evaluate.match(
            centre_first_in_tasks, "greedy", games=40, seed=2, rules=rules, ray="", chunk_games=6
        )
        _same(local, dataclasses.replace(remote, a=local.a))


def test_move_accuracy_on_the_cluster_equals_the_local_one(cluster):
    for make in (lambda: agents.random(seed=5), lambda: agents.negamax(2, seed=5)):
        local = evaluate.move_accuracy(make(), rules="tic_tac_toe", per_set=40, progress=False)
        remote = evaluate.move_accuracy(
            make(), rules="tic_tac_toe", per_set=40, progress=False, ray="", chunk_positions=7
        )
        assert remote.sets == local.sets and remote.overall == local.overall
    assert local.overall.positions > 100 and 0 < local.overall.good < local.overall.positions

    def leftmost(board):
        return board.legal_moves()[0]

    boards = evaluate.judged_positions("tic_tac_toe", 30)
    local = evaluate.move_accuracy(leftmost, boards, progress=False)
    remote = evaluate.move_accuracy(leftmost, boards, progress=False, ray="")
    assert remote.sets == local.sets


class _Locked:
    """A callable agent that does not pickle (it holds a lock)."""

    def __init__(self):
        self.lock = threading.Lock()

    def __call__(self, board):
        return board.legal_moves()[0]

    def __repr__(self):
        return "Locked()"


def test_an_agent_that_does_not_pickle_is_refused_by_name(cluster):
    with pytest.raises(TypeError, match=r"agent b \(Locked\(\)\) cannot go to Ray tasks"):
        evaluate.match(agents.random(), _Locked(), games=10, ray="")
    with pytest.raises(TypeError, match=r"agent \(Locked\(\)\) cannot go to Ray tasks"):
        evaluate.move_accuracy(_Locked(), rules="tic_tac_toe", per_set=5, ray="")


def test_errors_in_tasks_reach_the_caller_as_their_own_type(cluster):
    def illegal(board):
        return 99

    with pytest.raises(inarow.IllegalMoveError, match="illegal action 99"):
        evaluate.match(illegal, agents.random(), games=10, ray="", chunk_games=5)


def test_ctrl_c_cancels_the_chunks_still_running(cluster):
    from inarow._ray import run_chunks

    @ray.remote(num_cpus=1)
    def work(first, n):
        import time

        time.sleep(0 if first == 0 else 120)
        return first, 0.0

    refs = []

    def submit(first, n):
        refs.append(work.remote(first, n))
        return refs[-1]

    def interrupt(done, total):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_chunks(ray, submit, total=4, chunk=1, on_done=interrupt)
    assert len(refs) == 4  # two per CPU were in flight
    for ref in refs[1:]:
        with pytest.raises(ray.exceptions.TaskCancelledError):
            # Long before the two minutes the task sleeps (the margin covers a loaded
            # machine restarting the killed workers).
            ray.get(ref, timeout=60)
