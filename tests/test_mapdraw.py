"""Tests for the map renderer (rcw/mapdraw.py) and ``rcw map``."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from rcw import cli, data, mapdraw

SVG_NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def game() -> data.GameData:
    return data.default()


@pytest.fixture(scope="module")
def svg(game: data.GameData) -> str:
    return mapdraw.render_svg(game)


@pytest.fixture(scope="module")
def root(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def _classed(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def _texts(root: ET.Element) -> list[str]:
    return ["".join(e.itertext()).strip() for e in root.iter(f"{SVG_NS}text")]


def test_svg_parses_and_has_size(root: ET.Element) -> None:
    assert root.tag == f"{SVG_NS}svg"
    w, h = float(root.get("width")), float(root.get("height"))
    assert w > 1000 and h > 600
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"


def test_render_is_deterministic(game: data.GameData, svg: str) -> None:
    assert mapdraw.render_svg(game) == svg


def test_every_province_code_and_name_is_drawn(game: data.GameData, root: ET.Element) -> None:
    texts = set(_texts(root))
    for code, prov in game.provinces.items():
        assert code in texts, code
        assert prov.name in texts, prov.name
    groups = {e.get("data-province") for e in _classed(root, "province")}
    assert groups == set(game.provinces)


def test_one_rail_element_per_rail_link(game: data.GameData, root: ET.Element) -> None:
    rails = _classed(root, "rail")
    links = [e.get("data-link") for e in rails]
    assert len(rails) == len(game.rail_links())
    assert sorted(links) == [f"{a}-{b}" for a, b in game.rail_links()]


def test_borders_drawn_for_adjacencies_except_kerch(game: data.GameData, root: ET.Element) -> None:
    kerch = {"-".join(sorted(p)) for p in game.white_only_borders}
    links = {e.get("data-link") for e in _classed(root, "border")}
    assert links == {f"{a}-{b}" for a, b in game.borders()} - kerch


def test_every_port_is_marked(game: data.GameData, root: ET.Element) -> None:
    ports = sorted(e.get("data-province") for e in _classed(root, "port"))
    assert ports == game.ports()
    assert ports  # the data has ports


def test_kerch_straits_line_and_label(root: ET.Element) -> None:
    kerch = _classed(root, "kerch")
    assert [e.get("data-link") for e in kerch] == ["KUBA-TAUR"]
    assert kerch[0].tag == f"{SVG_NS}line"
    assert kerch[0].get("stroke-dasharray")
    assert "Kerch (White only)" in _texts(root)


def test_lake_pskov_is_a_lake_not_a_border(root: ET.Element) -> None:
    for e in root.iter():
        cls = (e.get("class") or "").split()
        if e.get("data-link") == "LIVO-PETR":
            assert "lake" in cls, cls
    assert [e.get("data-link") for e in _classed(root, "lake")] == ["LIVO-PETR"]
    assert "L. Pskov" in _texts(root)


def test_no_line_between_petrograd_and_livonia(game: data.GameData, root: ET.Element) -> None:
    assert frozenset(("PETR", "LIVO")) in game.lake_borders
    lay = mapdraw._layout(mapdraw._signature(game))
    p, q = lay.boxes["PETR"], lay.boxes["LIVO"]
    ends = {(mapdraw._f(p.x), mapdraw._f(p.y)), (mapdraw._f(q.x), mapdraw._f(q.y))}
    for line in root.iter(f"{SVG_NS}line"):
        assert set((line.get("data-link") or "").split("-")) != {"PETR", "LIVO"}
        assert {(line.get("x1"), line.get("y1")), (line.get("x2"), line.get("y2"))} != ends
    # the line test is not vacuous: PETR does have drawn borders, ending at its centre
    petr_lines = [ln for ln in root.iter(f"{SVG_NS}line")
                  if (ln.get("x1"), ln.get("y1")) == (mapdraw._f(p.x), mapdraw._f(p.y))]
    assert petr_lines


def test_legend_and_title(root: ET.Element) -> None:
    texts = _texts(root)
    assert "Russian Civil War 1918-1922" in texts
    assert "Legend" in texts
    for region in data.REGIONS:
        assert region in texts, region
    for item in ("Railway", "Port", "Kerch Straits (White only)"):
        assert item in texts


def test_region_areas_cover_every_province(game: data.GameData, root: ET.Element) -> None:
    areas = {e.get("data-province") for e in _classed(root, "area")}
    assert areas == set(game.provinces)


def test_boxes_do_not_overlap(game: data.GameData) -> None:
    lay = mapdraw._layout(mapdraw._signature(game))
    boxes = list(lay.boxes.values())
    for i, a in enumerate(boxes):
        assert 0 <= a.x - a.w / 2 and a.x + a.w / 2 <= lay.width, a.code
        assert 0 <= a.y - a.h / 2 and a.y + a.h / 2 <= lay.height, a.code
        for b in boxes[i + 1:]:
            overlap_x = (a.w + b.w) / 2 - abs(a.x - b.x)
            overlap_y = (a.h + b.h) / 2 - abs(a.y - b.y)
            assert overlap_x <= 0 or overlap_y <= 0, (a.code, b.code)


def test_highlight(game: data.GameData) -> None:
    root = ET.fromstring(mapdraw.render_svg(game, highlight=["PETR", "TVER"]))
    rings = _classed(root, "highlight")
    assert len(rings) == 2
    root = ET.fromstring(mapdraw.render_svg(game, highlight={"KIEV": "#00ff00"}))
    assert [r.get("stroke") for r in _classed(root, "highlight")] == ["#00ff00"]
    with pytest.raises(ValueError, match="XXXX"):
        mapdraw.render_svg(game, highlight=["XXXX"])


def test_cli_writes_svg(tmp_path: Path) -> None:
    out = tmp_path / "m.svg"
    assert cli.main(["map", "--svg", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    ET.fromstring(text)
    assert text == mapdraw.render_svg(data.default())


def test_cli_needs_an_output(capsys: pytest.CaptureFixture[str]) -> None:
    try:
        rc = cli.main(["map"])
    except SystemExit as e:  # argparse-style refusal is fine too
        rc = e.code
    assert rc not in (0, None)
    assert "--svg" in capsys.readouterr().err


def test_cli_help_says_what_it_draws(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        cli.main(["map", "--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    assert "--svg" in out and "--png" in out and "railways" in out


def test_png_without_any_renderer_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # import fails
    monkeypatch.setattr(mapdraw, "CHROMIUM_CANDIDATES", ("/nonexistent/chromium",))
    rc = cli.main(["map", "--png", str(tmp_path / "m.png")])
    assert rc == 1
    err = capsys.readouterr().err
    assert "cairosvg" in err and "chromium" in err.lower()
    assert not (tmp_path / "m.png").exists()


def test_png_when_a_renderer_exists(tmp_path: Path) -> None:
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError):
        if mapdraw._find_chromium() is None:
            pytest.skip("neither cairosvg nor Chromium is installed")
    out = tmp_path / "m.png"
    assert cli.main(["map", "--png", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
