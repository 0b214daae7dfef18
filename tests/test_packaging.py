"""The package as a new user gets it: a wheel built from the checkout, installed into a fresh
virtual environment and run from another directory (no checkout on the path)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> tuple[Path, Path]:
    """(the wheel, the bin folder of a fresh virtual environment it is installed in)."""
    tmp = tmp_path_factory.mktemp("wheel")
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q", "-w", str(tmp / "dist")],
                       capture_output=True, text=True, cwd=tmp)
    assert r.returncode == 0, r.stderr
    wheel = next((tmp / "dist").glob("rcw-*.whl"))
    subprocess.run([sys.executable, "-m", "venv", str(tmp / "venv")], check=True)
    bin_ = tmp / "venv" / "bin"
    r = subprocess.run([str(bin_ / "pip"), "install", "-q", str(wheel)], capture_output=True, text=True, cwd=tmp)
    assert r.returncode == 0, r.stderr
    return wheel, bin_


def _run(bin_: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{bin_}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run([str(bin_ / "rcw"), *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=600)


def test_the_wheel_holds_one_package_and_no_test_fixtures_or_build_scripts(installed):
    wheel, _ = installed
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert tops == {"rcw"}                                  # no top-level bots/ or server/
    assert {"rcw/gamedata/map.toml", "rcw/gamedata/counters.toml", "rcw/gamedata/tables.toml",
            "rcw/server/static/index.html", "rcw/server/static/js/main.js", "rcw/bots/sdt.py"} <= set(names)
    assert not [n for n in names if n.endswith(("testing.py", "build.py", "build_static.py", ".md"))]


def test_installed_commands_work_from_any_directory(installed, tmp_path):
    """`rcw data check --json`, a two-game `rcw simulate --agents sdt` (and one SPI solitaire, one
    postal game), outside the checkout."""
    _, bin_ = installed
    r = _run(bin_, "data", "check", "--json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout)
    assert set(s) == {"provinces", "regions", "rail_links", "ports", "counters", "markers", "tables",
                      "cities", "optional_counters"}        # (the fixed keys, and 001's cities and forces)
    assert s["provinces"] == 80
    r = _run(bin_, "simulate", "--agents", "sdt", "--games", "2", "--max-turns", "6", "--json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["completed"] == 2 and out["illegal_actions"] == 0 and out["engine_errors"] == 0
    r = _run(bin_, "simulate", "--mode", "spi-solitaire", "--agents", "sdt", "--games", "1", "--json", cwd=tmp_path)
    assert r.returncode == 0 and json.loads(r.stdout)["completed"] == 1, r.stderr
    r = _run(bin_, "simulate", "--mode", "postal", "--agents", "sdt", "--games", "1", "--max-turns", "2", "--json",
             cwd=tmp_path)
    assert r.returncode == 0 and json.loads(r.stdout)["completed"] == 1, r.stderr
    # (python -m rcw, and python -m rcw.server, as the docs give them: the installed names, from anywhere)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    r = subprocess.run([str(bin_ / "python"), "-m", "rcw", "data", "check", "--json"], capture_output=True, text=True,
                       cwd=tmp_path, env=env, timeout=120)
    assert r.returncode == 0 and json.loads(r.stdout)["provinces"] == 80, r.stderr
    r = subprocess.run([str(bin_ / "python"), "-m", "rcw.server", "serve", "--help"], capture_output=True, text=True,
                       cwd=tmp_path, env=env, timeout=120)
    assert r.returncode == 0 and r.stdout.startswith("usage: python -m rcw.server serve"), (r.stdout, r.stderr)


def test_installed_server_serves_the_client_and_nothing_else(installed, tmp_path):
    _, bin_ = installed
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    proc = subprocess.Popen([str(bin_ / "rcw"), "serve", "--port", "0"], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = ""
        deadline = time.time() + 60
        while "http://" not in line and time.time() < deadline:
            line = proc.stdout.readline()
        base = line[line.index("http://"):].split()[0].rstrip("/")

        def get(path: str) -> tuple[int, bytes]:
            try:
                with urllib.request.urlopen(base + path, timeout=10) as r:
                    return r.status, r.read()
            except urllib.error.HTTPError as e:
                return e.code, b""

        status, body = get("/")
        assert status == 200 and b"<html" in body.lower()
        assert get("/js/main.js")[0] == 200 and get("/data.json")[0] == 200
        assert get("/README.md")[0] == 404 and get("/../pyproject.toml")[0] == 404
        assert json.loads(get("/healthz")[1])["status"] == "ok"
    finally:
        proc.terminate()
        proc.wait(10)


def test_no_source_file_holds_a_merge_conflict_marker() -> None:
    """A line left from a merge (``=======`` alone, ``<<<<<<< x``, ``>>>>>>> x``) breaks what it
    lands in: in the stylesheet one made the browser drop the rule after it (the map's move
    arrows were drawn with no stroke, unseen)."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    marker = re.compile(r"^(?:<{7}|>{7})(?: |$)|^={7}$", re.M)
    opening = re.compile(r"^(?:<{7}|>{7})(?: |$)", re.M)      # (Markdown underlines a heading with =)
    found = []
    for top in ("rcw", "bots", "server", "data", "docs", "scripts", "bench", "tests", ".ci"):
        for p in (root / top).rglob("*"):
            if p.is_file() and p.suffix in (".py", ".js", ".css", ".html", ".md", ".toml", ".json", ".txt", "") \
                    and "__pycache__" not in p.parts:
                try:
                    text = p.read_text(encoding="utf-8")
                except UnicodeDecodeError:
                    continue
                found += [f"{p.relative_to(root)}:{text.count(chr(10), 0, m.start()) + 1}"
                          for m in (opening if p.suffix == ".md" else marker).finditer(text)]
    assert not found, found
