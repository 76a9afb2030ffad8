"""Absurd sizes are refused before allocating, and real allocation failures are a
MemoryError, never an abort: checked in a subprocess under an address-space limit."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

import inarow

resource = pytest.importorskip("resource", reason="needs POSIX resource limits")

PROBE = textwrap.dedent(
    """
    import resource, sys
    import inarow
    limit = 3 << 30
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    attempts = {
        "vecenv_16M_connect_four": lambda: inarow.VecEnv(2**24, seed=0),
        "vecenv_4M_19x19": lambda: inarow.VecEnv(2**22, rules=inarow.Rules(width=19, height=19, k=5, gravity=False)),
        "solver_16GiB": lambda: inarow.Solver(tt_bytes=16 << 30),
        "board_10e9": lambda: inarow.Board(rules=inarow.Rules(width=10**9, height=1)),
    }
    for name, make in attempts.items():
        try:
            make()
            print(name, "built")
        except MemoryError:
            print(name, "MemoryError")
        except ValueError as e:
            print(name, "ValueError", type(e).__name__)
        sys.stdout.flush()
    # Still alive and usable after the failures.
    print("after", inarow.simulate(1000, seed=0).games)
    """
)


def test_allocation_failures_raise_instead_of_aborting():
    result = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr[-2000:]
    lines = dict(line.split(" ", 1) for line in result.stdout.splitlines())
    assert lines["vecenv_16M_connect_four"] == "MemoryError"
    assert lines["vecenv_4M_19x19"] == "MemoryError"
    assert lines["solver_16GiB"] == "MemoryError"
    assert lines["board_10e9"] == "ValueError InvalidRulesError"
    assert lines["after"] == "1000"


@pytest.mark.parametrize(
    "make",
    [
        lambda: inarow.Board(rules=inarow.Rules(width=10**9, height=10**9)),
        lambda: inarow.Board(rules=inarow.Rules(width=2**70)),
        lambda: inarow.VecEnv(10**12),
        lambda: inarow.VecEnv(
            2**24, rules=inarow.Rules(width=64, height=64, k=5, players=16, gravity=False)
        ),
        lambda: inarow.Solver(tt_bytes=2**70),
        lambda: inarow.Solver(threads=10**6),
        lambda: inarow.simulate(10**30),
    ],
    ids=[
        "board-1e18-cells",
        "board-2**70",
        "vecenv-1e12",
        "vecenv-huge-obs",
        "tt-2**70",
        "threads-1e6",
        "games-1e30",
    ],
)
def test_absurd_sizes_are_refused_at_once(make):
    with pytest.raises(ValueError):
        make()
