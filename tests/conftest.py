"""Fixtures shared across test modules: the browser tests' real ``rcw serve`` (``server``) and
Debian's headless Chromium (``browser``), one of each a module (see tests/browser_helpers.py)."""

from browser_helpers import browser, server  # noqa: F401 (fixtures)
