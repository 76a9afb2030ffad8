"""The hand-written stubs match the native module (``mypy.stubtest``; mypy is a test
dependency, so a missing mypy fails here rather than skipping the gate)."""

from __future__ import annotations

import subprocess
import sys


def test_stubs_match_the_native_module():
    result = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "inarow._native"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
