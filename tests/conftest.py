"""Shared test configuration: hypothesis profiles, and `tests/` on the import path so
that the plain reference implementation imports as `reference`.

Profiles (select with the environment variable HYPOTHESIS_PROFILE, default "ci"):
  ci    200 examples per property, no deadline (the machine is shared);
  dev   1000 examples;
  long  5000 examples, for a thorough run before a release.

INAROW_REQUIRE_OPTIONAL=1 (CI's second environment, where every optional ecosystem is
installed) turns every skip, of a test or of a whole module, into a failure: a broken
install of an ecosystem cannot pass as "skipped".
"""

import os
import signal
import sys
import warnings

import pytest
from hypothesis import HealthCheck, settings

# A parent that starts the suite with SIGINT ignored (a background job of a
# non-interactive shell, some CI runners) would make every simulated Ctrl-C a no-op
# and the interrupt tests wait forever; the tests are about Ctrl-C reaching Python,
# so Python's own handler is put back (subprocesses then start with the default).
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# When a property fails, hypothesis imports libcst to write its patch file, and libcst
# triggers a DeprecationWarning (from mypy_extensions) that `filterwarnings = error`
# turns into a pytest INTERNALERROR hiding the failure. Import it once, quietly.
with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    try:
        import libcst  # noqa: F401
    except ImportError:
        pass

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

_COMMON = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile("ci", max_examples=200, **_COMMON)
settings.register_profile("dev", max_examples=1000, **_COMMON)
settings.register_profile("long", max_examples=5000, **_COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

REQUIRE_OPTIONAL = os.environ.get("INAROW_REQUIRE_OPTIONAL") == "1"


def _fail_skip(report):
    if REQUIRE_OPTIONAL and report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = f"skipped, but INAROW_REQUIRE_OPTIONAL=1 forbids skips: {reason}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    _fail_skip(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    outcome = yield
    _fail_skip(outcome.get_result())


@pytest.fixture(scope="module")
def cluster():
    """A simulated two-node Ray cluster for a test module: a head without CPUs for
    work and two worker nodes of one CPU each (tasks and env runners land on both)."""
    ray = pytest.importorskip("ray", reason="ray is not installed (the ray extra)")
    from ray.cluster_utils import Cluster

    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 0})
    for _ in range(2):
        c.add_node(num_cpus=1)
    ray.init(address=c.address, log_to_driver=False)
    yield c
    ray.shutdown()
    c.shutdown()


@pytest.fixture(autouse=True, scope="session")
def _sb3_logs_in_pytest_tmp(tmp_path_factory):
    """Stable-Baselines3 writes a log folder per `learn` call into the system's temporary
    folder unless SB3_LOGDIR names one; the suite keeps them under pytest's own."""
    previous = os.environ.get("SB3_LOGDIR")
    os.environ["SB3_LOGDIR"] = str(tmp_path_factory.mktemp("sb3-logs"))
    yield
    if previous is None:
        del os.environ["SB3_LOGDIR"]
    else:
        os.environ["SB3_LOGDIR"] = previous
