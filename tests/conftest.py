"""Fixtures shared across test modules: the browser tests' real ``rcw serve`` (``server``) and
Debian's headless Chromium (``browser``), one of each a module (see tests/browser_helpers.py);
a local three-master Redis Cluster (``cluster_nodes``, ``cluster_url``), one a module that asks."""

import os
import sys
import time

import pytest
from browser_helpers import browser, server  # noqa: F401 (fixtures)
from server_helpers import redis_cluster

#: The test modules that drive real servers, sockets and a real browser on a shared two-core
#: machine, where a test's waits race the load of the others: a test of theirs that fails is run
#: once more (pytest-rerunfailures) and, passing then, is named in the summary as rerun (``-rR``,
#: pyproject's addopts), a flake to mend, not a pass to forget.  A test that fails twice fails.
RERUN_MODULES = ("test_browser_", "test_server_")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The soaks (``-m slow``) run as long as they take: pyproject's 10-minute limit a test is
    for the rest, where a test that hangs should fail alone and say where it was.  The tests of
    :data:`RERUN_MODULES` get one rerun (unless the plugin is off: ``-p no:rerunfailures``
    shows the flakes raw, with no warning of an unknown mark)."""
    reruns = config.pluginmanager.hasplugin("rerunfailures")
    for item in items:
        if item.get_closest_marker("slow") is not None and item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(0))
        module = getattr(item, "module", None)
        if reruns and module is not None and module.__name__.startswith(RERUN_MODULES) and item.get_closest_marker("flaky") is None:
            item.add_marker(pytest.mark.flaky(reruns=1, reruns_delay=1))


@pytest.fixture(scope="module")
def cluster_nodes():
    """A three-master Redis Cluster on loopback for the module's tests: its nodes' (host, port)
    (mark the tests ``server_helpers.needs_cluster``)."""
    with redis_cluster(3) as nodes:
        yield nodes


@pytest.fixture(scope="module")
def cluster_url(cluster_nodes):
    """The URL of the module's local Redis Cluster (:func:`cluster_nodes`)."""
    return f"redis+cluster://{cluster_nodes[0][0]}:{cluster_nodes[0][1]}"


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (pyproject's addopts): a worker a core this process may use, at most 4 (each
    may run a server, a browser or a Redis Cluster of its own), or ``RCW_TEST_WORKERS`` (a whole
    number; anything else is ignored)."""
    asked = os.environ.get("RCW_TEST_WORKERS", "")
    if asked.isdigit():
        return int(asked)
    return min(len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1, 4)


_clock = {"n": 0, "t0": None}


def pytest_runtest_logfinish(nodeid: str, location: tuple) -> None:
    """Under CI (``CI`` set, as .ci/run is run), a line every 250 tests with the time so far: a
    run cut off at CI's limit then shows whether it was slow or stuck, and where."""
    if not os.environ.get("CI"):
        return
    now = time.monotonic()
    if _clock["t0"] is None:
        _clock["t0"] = now
    _clock["n"] += 1
    if _clock["n"] % 250 == 0:
        print(f" ({_clock['n']} tests, {now - _clock['t0']:.0f} s; the last {nodeid})", file=sys.__stdout__, flush=True)
