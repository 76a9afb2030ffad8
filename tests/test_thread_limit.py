"""Every parallel entry point works on the calling thread alone when the system refuses
new threads: the same answers, never a panic or an error.

The limit is RLIMIT_NPROC = 0 in a subprocess, after the imports. Root ignores that
limit, so as root the subprocess first drops to the unprivileged uid/gid 65534."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent(
    """
    import os, resource, threading
    import numpy as np
    import inarow

    if os.geteuid() == 0:
        os.setgid(65534)
        os.setuid(65534)
    resource.setrlimit(resource.RLIMIT_NPROC, (0, 0))
    try:
        threading.Thread(target=lambda: None).start()
    except RuntimeError:
        pass
    else:
        print("NO LIMIT")
        raise SystemExit(0)

    def check(name, got, want):
        assert got == want, f"{name}: {got!r} != {want!r}"
        print("ok", name, flush=True)

    # winners: one grid, and a batch large enough to split across threads.
    grid = np.zeros((1, 6, 7), dtype=np.int64)
    grid[0, 5, :4] = 1
    check("winners small", inarow.winners(grid).tolist(), [1])
    many = np.repeat(grid, 30_000, axis=0)
    many[::2, 5, :4] = 2
    check("winners large", inarow.winners(many).tolist(), [2, 1] * 15_000)

    # simulate: below the inline size, and large runs with 2 and default threads.
    one = inarow.simulate(200_000, seed=5, threads=1)
    for threads in (2, None):
        got = inarow.simulate(200_000, seed=5, threads=threads)
        check(f"simulate threads={threads}", (got.wins, got.draws, got.moves),
              (one.wins, one.draws, one.moves))
    check("simulate small", inarow.simulate(10, seed=5).games, 10)

    # VecEnv: parallel-sized batches with 2 and default threads agree with 1 thread.
    def play(threads):
        env = inarow.VecEnv(4096, seed=3, threads=threads)
        env.reset(seed=3)
        for _ in range(30):
            obs, rewards, terminated, truncated, info = env.step(env.random_actions())
        return obs.tobytes(), rewards.tobytes()
    want = play(1)
    check("VecEnv threads=2", play(2), want)
    check("VecEnv default threads", play(None), want)

    # Solver: a search past the single-thread budget (goes to a worker and helpers).
    for threads in (2, None):
        solver = inarow.Solver(tt_bytes=1 << 22, threads=threads)
        check(f"Solver threads={threads} solve",
              solver.solve(inarow.Board.from_pons("274121776146")), 4)
        board = inarow.Board.from_pons("274121776146")
        scores = solver.analyze(board)
        check(f"Solver threads={threads} analyze", max(s for s in scores if s is not None), 4)
        check(f"Solver threads={threads} best_move", scores[solver.best_move(board)], 4)

    # Counts past the inline budget (they go to an interruptible worker).
    check("perft", inarow.Board().perft(7), 823_536)
    check("count_games", inarow.Board.tic_tac_toe().count_games(), 255_168)
    print("ALL DONE")
    """
)


def test_every_entry_point_degrades_to_the_calling_thread():
    if not hasattr(os, "geteuid"):
        pytest.skip("needs POSIX process limits")
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=600
    )
    if "NO LIMIT" in result.stdout:
        pytest.skip("this system starts threads despite RLIMIT_NPROC = 0")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "ALL DONE" in result.stdout, result.stdout + result.stderr
    assert "panicked" not in result.stderr, result.stderr
