"""The layers hold (import-linter contracts in pyproject.toml, run on the installed layout by
scripts/lint_imports.py): the engine imports nothing of the bots or the server, the bots and
the server use only the engine's public API, no import cycles; and a violation is caught."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("lint_imports", ROOT / "scripts" / "lint_imports.py")
lint_imports = importlib.util.module_from_spec(spec)
spec.loader.exec_module(lint_imports)

@pytest.fixture(scope="module")
def tree(tmp_path_factory) -> Path:
    return lint_imports.layout(tmp_path_factory.mktemp("layout"))


def test_the_contracts_are_kept(tree):
    r = lint_imports.lint(tree)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Contracts: 3 kept, 0 broken." in r.stdout


def _violate(tree: Path, tmp: Path, module: str, line: str) -> str:
    bad = tmp / "bad"
    shutil.copytree(tree, bad)
    path = bad.joinpath(*module.split(".")).with_suffix(".py")
    path.write_text(path.read_text() + f"\n{line}\n")
    r = lint_imports.lint(bad)
    assert r.returncode != 0
    return r.stdout


def test_the_engine_importing_the_server_breaks_the_layers(tree, tmp_path):
    out = _violate(tree, tmp_path, "rcw.rules.movement", "from rcw.server import app as _app  # noqa")
    assert "rcw.rules is not allowed to import rcw.server" in out


def test_a_bot_reading_the_rule_modules_breaks_the_public_api_contract(tree, tmp_path):
    out = _violate(tree, tmp_path, "rcw.bots.random_agent", "from rcw.rules import movement as _m  # noqa")
    assert "rcw.bots is not allowed to import rcw.rules" in out


def test_an_import_cycle_is_caught(tree, tmp_path):
    out = _violate(tree, tmp_path, "rcw.rules.base", "from rcw.rules import sequence as _s  # noqa")
    assert "No cycles are allowed in rcw.rules" in out
