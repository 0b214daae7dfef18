"""The browser client's static files: generated data current, the msgpack library bundled with
its licence, nothing fetched from the internet at run time (no browser needed)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

STATIC = Path(__file__).resolve().parent.parent / "server" / "static"


def test_generated_map_and_data_are_current() -> None:
    r = subprocess.run([sys.executable, str(STATIC.parent.parent / "scripts" / "build_static.py"), "--check"], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_data_json_has_what_the_page_needs() -> None:
    d = json.loads((STATIC / "data.json").read_text(encoding="utf-8"))
    assert len(d["provinces"]) >= 80
    assert all({"name", "region", "adjacent", "rail", "port"} <= set(p) for p in d["provinces"].values())
    assert {"leader", "combat", "imperial"} == {u["kind"] for u in d["units"].values()}
    assert len(d["tables"]["crt"]) == 6 and len(d["tables"]["purge"]) == 11
    assert "max_turns" in d["options"] and d["bots"]


def test_msgpack_is_bundled_with_its_licence() -> None:
    lib = STATIC / "vendor" / "msgpack.min.js"
    assert lib.stat().st_size > 10_000
    assert "MessagePack" in lib.read_text(encoding="utf-8")[:2000]
    assert "Permission to use, copy, modify" in (STATIC / "vendor" / "msgpack.LICENSE").read_text(encoding="utf-8")
    assert 'src="vendor/msgpack.min.js"' in (STATIC / "index.html").read_text(encoding="utf-8")


def test_nothing_is_fetched_from_the_internet() -> None:
    pat = re.compile(r"""(?:src|href)\s*=\s*["']\s*(?:https?:)?//|(?:fetch|import)\s*\(\s*["'`]https?://|@import\s+url\(\s*["']?https?://""")
    for p in STATIC.rglob("*"):
        if p.suffix in (".html", ".js", ".css") and p.is_file():
            text = p.read_text(encoding="utf-8")
            assert not pat.search(text), f"{p.relative_to(STATIC)} loads something from another host"


def test_every_module_import_resolves() -> None:
    js = STATIC / "js"
    for p in js.glob("*.js"):
        for m in re.finditer(r"""^\s*import\s[^'"]*["'](\.[^'"]+)["']""", p.read_text(encoding="utf-8"), re.M):
            assert (p.parent / m.group(1)).resolve().is_file(), f"{p.name} imports missing {m.group(1)}"
        for m in re.finditer(r"""import\(\s*["'](\.[^'"]+)["']\s*\)""", p.read_text(encoding="utf-8")):
            assert (p.parent / m.group(1)).resolve().is_file(), f"{p.name} imports missing {m.group(1)}"
