"""Fixtures shared across test modules: the browser tests' real ``rcw serve`` (``server``) and
Debian's headless Chromium (``browser``), one of each a module (see tests/browser_helpers.py)."""

import pytest
from browser_helpers import browser, server  # noqa: F401 (fixtures)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The soaks (``-m slow``) run as long as they take: pyproject's 10-minute limit a test is
    for the rest, where a test that hangs should fail alone and say where it was."""
    for item in items:
        if item.get_closest_marker("slow") is not None and item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(0))
