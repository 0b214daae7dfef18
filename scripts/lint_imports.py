"""Check the import-linter contracts of ``pyproject.toml`` (``[tool.importlinter]``).

import-linter reads a package from disk, and in the repository ``rcw.bots``, ``rcw.server``
and ``rcw.gamedata`` live in ``bots/``, ``server/`` and ``data/`` (setuptools ``package-dir``).
This script lays the Python files out as they are installed (``rcw/``, ``rcw/bots/``,
``rcw/server/``, ``rcw/gamedata/``) in a temporary folder and runs ``lint-imports`` there.

    python scripts/lint_imports.py [--tree DIR]   # exit status: lint-imports' (0: every contract kept)
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def layout(dest: Path) -> Path:
    """Copy the package's Python files into ``dest`` in their installed layout; returns ``dest``."""
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]
    for package, folder in conf.items():
        target = dest.joinpath(*package.split("."))
        target.mkdir(parents=True, exist_ok=True)
        for src in (ROOT / folder).rglob("*.py"):
            rel = src.relative_to(ROOT / folder)
            if "__pycache__" in rel.parts or rel.parts[0] == "static":
                continue
            out = target / rel
            out.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, out)
    return dest


def lint(tree: Path) -> subprocess.CompletedProcess:
    """Run lint-imports on a laid-out tree (output captured)."""
    exe = shutil.which("lint-imports", path=os.path.dirname(sys.executable)) or shutil.which("lint-imports")
    if exe is None:
        raise SystemExit("lint-imports is not installed (pip install -e '.[test]')")
    env = dict(os.environ, PYTHONPATH=str(tree))
    # (the contracts where lint-imports looks by default, the current folder: its --config option
    # is deprecated and its positional form is recent)
    shutil.copyfile(ROOT / "pyproject.toml", tree / "pyproject.toml")
    return subprocess.run([exe, "--no-cache"], cwd=tree, env=env, capture_output=True, text=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tree", help="lay the files out here (kept) instead of a temporary folder")
    a = p.parse_args(argv)
    if a.tree:
        r = lint(layout(Path(a.tree)))
    else:
        with tempfile.TemporaryDirectory(prefix="rcw-layers-") as tmp:
            r = lint(layout(Path(tmp)))
    sys.stdout.write(r.stdout)
    sys.stderr.write(r.stderr)
    return r.returncode


if __name__ == "__main__":
    sys.exit(main())
