"""Draw the game map as an SVG picture (and optionally a PNG) in the style of a period atlas.

:func:`render_svg` is pure: it takes the :class:`~rcw.data.GameData` and returns the SVG
text, the same every call, so the browser client and the tests can reuse it.  ``rcw map``
(:func:`add_parser`) writes it to a file and can also rasterise it to PNG, with the
``cairosvg`` package when it is installed, else with headless Chromium.

How the picture is built:

* the province positions in ``data/map.toml`` are projected onto the canvas (Siberia, which
  the data already compresses, is squeezed a little further) and then nudged apart by a
  small deterministic relaxation so that no two label boxes overlap;
* every province gets a Voronoi cell clipped to a disc around its centre; the cells are
  tinted by region, so the regions read as areas on a map, with region frontiers drawn
  where two cells of different regions meet;
* borders (adjacency) are thin grey lines, railways black lines with white dashes, the
  Kerch Straits a dashed blue line, Lake Pskov a small lake between Petrograd and Livonia;
* each province is a rounded box in its region's colour with the code in bold and the
  name small below; ports carry an anchor.

Every drawn element carries a class (``province``, ``border``, ``rail``, ``port``,
``kerch``, ``lake``) and ``data-province`` / ``data-link`` attributes for scripts and tests.
"""

from __future__ import annotations

import argparse
import math
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from rcw.data import REGIONS, GameData

# -- look ------------------------------------------------------------------------------

BACKGROUND = "#efe4c8"
PAPER_EDGE = "#d9c9a0"
INK = "#3b2f22"
SEA = "#bcd3d6"
SEA_INK = "#4f7782"
BORDER_GREY = "#8a8174"
HIGHLIGHT = "#c0281e"
KERCH_BLUE = "#1f4e8c"

#: Region colours: the label boxes use them as they are, the region areas a tint of them.
REGION_COLOURS: Mapping[str, str] = {
    "Greater Russia": "#d99a92",
    "White Russia": "#b9b0d8",
    "Ukraine": "#ecc85c",
    "Trans-Caucasus": "#9cc27f",
    "Siberia": "#8ea8da",
    "Cossack Territories": "#e2a46b",
    "Baltic": "#74c2ae",
    "Poland": "#e39ab9",
    "Finland": "#bfc3b6",
}
AREA_ALPHA = 0.5           # how strongly a region tints its area
SANS = "'DejaVu Sans', Verdana, Arial, sans-serif"
SANS_COND = "'DejaVu Sans Condensed', 'Arial Narrow', 'DejaVu Sans', sans-serif"
SERIF = "'DejaVu Serif', Georgia, 'Times New Roman', serif"

CODE_SIZE = 12.0           # font size of the province code
NAME_SIZE = 7.6            # font size of the province name
BOX_H = 27.0               # height of a province box
BOX_MIN_W = 42.0
GAP = 5.0                  # minimum clearance between two boxes
PORT_W = 13.0              # extra box width for a port's anchor

# -- projection from map units to canvas pixels ----------------------------------------

SCALE_X = 1.55             # west of the Urals
SCALE_SIB = 1.02           # east of SIB_X (Siberia is already compressed in the data)
SCALE_Y = 1.42
SIB_X = 660.0
X0, Y0 = 40.0, 60.0        # map units at the top-left corner of the drawing area
MARGIN_L, MARGIN_T = 84.0, 58.0
MARGIN_R, MARGIN_B = 40.0, 40.0


def _project(x: float, y: float) -> tuple[float, float]:
    """Map units to canvas pixels (piecewise linear in x)."""
    if x <= SIB_X:
        px = (x - X0) * SCALE_X
    else:
        px = (SIB_X - X0) * SCALE_X + (x - SIB_X) * SCALE_SIB
    return MARGIN_L + px, MARGIN_T + (y - Y0) * SCALE_Y


# Seas drawn over the land areas (under the lines and boxes), in map units:
# (label, outline points, label position, label rotation in degrees).
_SEAS: tuple[tuple[str, tuple[tuple[float, float], ...], tuple[float, float], float], ...] = (
    ("Baltic Sea", ((-60, 110), (30, 130), (70, 150), (92, 168), (100, 190), (96, 214), (66, 226), (52, 262),
                    (50, 300), (34, 330), (-60, 340)), (18, 238), -90),
    ("Gulf of Finland", ((70, 150), (120, 156), (168, 160), (190, 166), (172, 174), (122, 175), (92, 172)),
     (122, 168), 0),
    ("White Sea", ((292, 22), (362, 26), (362, 52), (344, 74), (318, 96), (296, 100), (282, 76)), (318, 58), -35),
    ("Black Sea", ((166, 520), (212, 512), (236, 532), (248, 552), (282, 560), (304, 548), (322, 578), (350, 584),
                   (374, 610), (380, 650), (350, 700), (250, 706), (170, 660), (150, 570)), (262, 628), 0),
    ("Sea of Azov", ((292, 492), (326, 486), (340, 500), (330, 510), (300, 512)), (316, 499), 0),
    ("Caspian Sea", ((490, 482), (522, 490), (546, 468), (572, 498), (578, 560), (566, 622), (548, 690),
                     (532, 694), (534, 660), (508, 612), (496, 576), (500, 540), (486, 514)), (544, 562), -75),
    ("Sea of Japan", ((1128, 556), (1150, 500), (1200, 480), (1210, 700), (1100, 700), (1092, 642), (1112, 612)),
     (1150, 640), -60),
)


# -- layout ----------------------------------------------------------------------------

@dataclass(frozen=True)
class _Box:
    code: str
    name: str
    region: str
    port: bool
    x: float               # centre, canvas pixels (after relaxation)
    y: float
    w: float
    h: float


@dataclass(frozen=True)
class _Layout:
    boxes: Mapping[str, _Box]
    cells: Mapping[str, tuple[tuple[tuple[float, float], str], ...]]  # vertex, tag of the edge leaving it
    width: float
    height: float
    lake: tuple[float, float, float, float, float]                   # cx, cy, rx, ry, angle
    legend: tuple[float, float]                                      # top-left corner of the legend


def _text_width(text: str, size: float, bold: bool = False, condensed: bool = False) -> float:
    """A rough width of ``text`` in DejaVu Sans at ``size`` px (good enough for box sizing)."""
    em = 0.0
    for ch in text:
        if ch == " ":
            em += 0.32
        elif ch in "iljtf.,'-":
            em += 0.34
        elif ch.isupper() or ch in "mw":
            em += 0.74 if bold else 0.70
        else:
            em += 0.64 if bold else 0.58
    if condensed:
        em *= 0.82
    return em * size


def _signature(data: GameData) -> tuple:
    """Everything about the map that the layout depends on, as a hashable key."""
    provs = tuple(
        (p.code, p.name, p.region, p.x, p.y, p.port, tuple(sorted(p.adjacent)), tuple(sorted(p.rail)))
        for p in sorted(data.provinces.values(), key=lambda p: p.code)
    )
    lakes = tuple(sorted(tuple(sorted(pair)) for pair in data.lake_borders))
    return provs, lakes


def _relax(codes: list[str], start: dict[str, tuple[float, float]], size: dict[str, tuple[float, float]],
           fixed: list[tuple[float, float, float, float]], edges: list[tuple[str, str]],
           bounds: tuple[float, float, float, float]) -> dict[str, tuple[float, float]]:
    """Push overlapping boxes apart while pulling each back towards where the data puts it.

    ``fixed`` are obstacles (centre x, y, half width, half height) that do not move.
    Boxes are also pushed off border lines they do not belong to.  Deterministic.
    """
    pos = {c: list(start[c]) for c in codes}
    n = len(codes)
    xmin, ymin, xmax, ymax = bounds
    for it in range(400):
        moved = 0.0
        for i in range(n):
            a = codes[i]
            pa, (wa, ha) = pos[a], size[a]
            for j in range(i + 1, n):
                b = codes[j]
                pb, (wb, hb) = pos[b], size[b]
                dx, dy = pb[0] - pa[0], pb[1] - pa[1]
                ox = (wa + wb) / 2 + GAP - abs(dx)
                if ox <= 0:
                    continue
                oy = (ha + hb) / 2 + GAP - abs(dy)
                if oy <= 0:
                    continue
                # separate along the cheaper axis, each box taking half the move
                if ox * 0.8 < oy:
                    s = (1.0 if dx >= 0 else -1.0) * ox / 2 * 1.02
                    pa[0] -= s
                    pb[0] += s
                else:
                    s = (1.0 if dy >= 0 else -1.0) * oy / 2 * 1.02
                    pa[1] -= s
                    pb[1] += s
                moved += min(ox, oy)
            for fx, fy, fw, fh in fixed:
                dx, dy = pa[0] - fx, pa[1] - fy
                ox = wa / 2 + fw + GAP - abs(dx)
                oy = ha / 2 + fh + GAP - abs(dy)
                if ox > 0 and oy > 0:
                    if ox < oy:
                        pa[0] += ox if dx >= 0 else -ox
                    else:
                        pa[1] += oy if dy >= 0 else -oy
                    moved += min(ox, oy)
        if it % 4 == 0:
            moved += _clear_edges(codes, pos, size, edges)
        for c in codes:
            p, (w, h) = pos[c], size[c]
            p[0] += (start[c][0] - p[0]) * 0.03
            p[1] += (start[c][1] - p[1]) * 0.03
            p[0] = min(max(p[0], xmin + w / 2), xmax - w / 2)
            p[1] = min(max(p[1], ymin + h / 2), ymax - h / 2)
        if it > 60 and moved < 0.05:
            break
    return {c: (pos[c][0], pos[c][1]) for c in codes}


def _clear_edges(codes: list[str], pos: dict[str, list[float]], size: dict[str, tuple[float, float]],
                 edges: list[tuple[str, str]]) -> float:
    """Nudge boxes that a border line of two other provinces runs through."""
    moved = 0.0
    for a, b in edges:
        ax, ay = pos[a]
        bx, by = pos[b]
        lx0, lx1 = min(ax, bx), max(ax, bx)
        ly0, ly1 = min(ay, by), max(ay, by)
        vx, vy = bx - ax, by - ay
        ll = vx * vx + vy * vy or 1.0
        for c in codes:
            if c == a or c == b:
                continue
            p = pos[c]
            w, h = size[c]
            hw, hh = w / 2 + 4, h / 2 + 4
            if p[0] + hw < lx0 or p[0] - hw > lx1 or p[1] + hh < ly0 or p[1] - hh > ly1:
                continue
            t = max(0.0, min(1.0, ((p[0] - ax) * vx + (p[1] - ay) * vy) / ll))
            qx, qy = ax + t * vx, ay + t * vy
            if abs(p[0] - qx) < hw and abs(p[1] - qy) < hh:
                # push perpendicular to the line, on the side the box is already on
                nx, ny = -vy, vx
                norm = math.hypot(nx, ny) or 1.0
                nx, ny = nx / norm, ny / norm
                side = (p[0] - ax) * nx + (p[1] - ay) * ny
                if side < 0:
                    nx, ny = -nx, -ny
                step = 1.5
                p[0] += nx * step
                p[1] += ny * step
                pos[a][0] -= nx * step * 0.3
                pos[a][1] -= ny * step * 0.3
                pos[b][0] -= nx * step * 0.3
                pos[b][1] -= ny * step * 0.3
                moved += step
    return moved


def _clip(poly: list[tuple[tuple[float, float], str]], px: float, py: float, nx: float, ny: float,
          tag: str) -> list[tuple[tuple[float, float], str]]:
    """Clip a convex polygon to the half plane ``(v - p) . n <= 0``; new edges get ``tag``.

    The polygon is a list of (vertex, tag of the edge leaving that vertex).
    """
    out: list[tuple[tuple[float, float], str]] = []
    m = len(poly)
    for k in range(m):
        (a, t) = poly[k]
        b = poly[(k + 1) % m][0]
        da = (a[0] - px) * nx + (a[1] - py) * ny
        db = (b[0] - px) * nx + (b[1] - py) * ny
        if da <= 0:
            out.append((a, t))
        if (da <= 0) != (db <= 0):
            f = da / (da - db)
            i = (a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f)
            out.append((i, tag if da <= 0 else t))
    return out


def _cells(centres: dict[str, tuple[float, float]], radius: dict[str, float]
           ) -> dict[str, tuple[tuple[tuple[float, float], str], ...]]:
    """A Voronoi cell for every centre, clipped to a disc of its radius.

    Edge tags name the neighbouring province across that edge, or ``""`` for the rim.
    """
    out = {}
    codes = sorted(centres)
    for c in codes:
        cx, cy = centres[c]
        r = radius[c]
        poly = [((cx + r * math.cos(2 * math.pi * k / 40), cy + r * math.sin(2 * math.pi * k / 40)), "")
                for k in range(40)]
        for o in codes:
            if o == c:
                continue
            ox, oy = centres[o]
            if math.hypot(ox - cx, oy - cy) > r + radius[o]:
                continue
            poly = _clip(poly, (cx + ox) / 2, (cy + oy) / 2, ox - cx, oy - cy, o)
            if not poly:
                break
        out[c] = tuple(poly)
    return out


@lru_cache(maxsize=8)
def _layout(sig: tuple) -> _Layout:
    provs, lakes = sig
    codes = [p[0] for p in provs]
    info = {p[0]: p for p in provs}
    start = {c: _project(info[c][3], info[c][4]) for c in codes}
    size = {}
    for c in codes:
        name = info[c][1]
        w = max(BOX_MIN_W, _text_width(c, CODE_SIZE, bold=True) + 12,
                _text_width(name, NAME_SIZE, condensed=True) + 8)
        size[c] = (w + (PORT_W if info[c][5] else 0), BOX_H)

    width = _project(max(info[c][3] for c in codes) + 40, 0)[0] + MARGIN_R
    height = _project(0, max(info[c][4] for c in codes) + 12)[1] + MARGIN_B

    # Lake Pskov (and any other lake border): a fixed obstacle between the two provinces
    lake_specs = []
    for a, b in lakes:
        (ax, ay), (bx, by) = start[a], start[b]
        cx, cy = (ax + bx) / 2, (ay + by) / 2
        lake_specs.append((cx, cy))
    fixed = [(cx, cy, 12.0, 16.0) for cx, cy in lake_specs]
    edges = sorted({tuple(sorted((c, n))) for c in codes for n in info[c][6]})
    bounds = (MARGIN_L, MARGIN_T, width - MARGIN_R, height - MARGIN_B)
    pos = _relax(codes, start, size, fixed, edges, bounds)

    if lake_specs:
        a, b = lakes[0]
        (ax, ay), (bx, by) = pos[a], pos[b]
        cx, cy = lake_specs[0]
        ang = math.degrees(math.atan2(by - ay, bx - ax)) + 90
        lake = (cx, cy, 9.0, 15.0, ang)
    else:
        lake = (0.0, 0.0, 0.0, 0.0, 0.0)

    # cell radius: large enough for a province to touch all its neighbours
    radius = {}
    for c in codes:
        far = max((math.dist(pos[c], pos[n]) for n in info[c][6]), default=60.0)
        radius[c] = min(max(0.62 * far, 58.0), 80.0)
    # ... and to reach the common corner of any three mutually adjacent provinces (no holes)
    for c in codes:
        for n1 in sorted(info[c][6]):
            for n2 in sorted(info[c][6]):
                if n1 < n2 and n2 in info[n1][6]:
                    corner = _circumcentre(pos[c], pos[n1], pos[n2])
                    if corner is not None:
                        r = math.dist(pos[c], corner) + 2
                        if r <= 120:
                            for k in (c, n1, n2):
                                radius[k] = max(radius[k], r)
    cells = _cells(pos, radius)

    boxes = {c: _Box(c, info[c][1], info[c][2], info[c][5], pos[c][0], pos[c][1], size[c][0], size[c][1])
             for c in codes}
    legend = _place_legend(boxes, cells, width, height)
    return _Layout(boxes=boxes, cells=cells, width=width, height=height, lake=lake, legend=legend)


def _circumcentre(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]
                  ) -> tuple[float, float] | None:
    """Centre of the circle through a, b, c when it lies inside the triangle (acute triangle), else None."""
    (ax, ay), (bx, by), (cx, cy) = a, b, c
    d = 2 * (ax * (by - cy) + bx * (cy - ay) + cx * (ay - by))
    if abs(d) < 1e-9:
        return None
    ux = ((ax * ax + ay * ay) * (by - cy) + (bx * bx + by * by) * (cy - ay) + (cx * cx + cy * cy) * (ay - by)) / d
    uy = ((ax * ax + ay * ay) * (cx - bx) + (bx * bx + by * by) * (ax - cx) + (cx * cx + cy * cy) * (bx - ax)) / d
    tri = ((a, ""), (b, ""), (c, ""))
    return (ux, uy) if _inside(tri, ux, uy) else None


def _inside(poly: tuple[tuple[tuple[float, float], str], ...], x: float, y: float) -> bool:
    """Is (x, y) inside the convex, clockwise-or-anticlockwise polygon ``poly``?"""
    sign = 0
    m = len(poly)
    for k in range(m):
        (ax, ay), (bx, by) = poly[k][0], poly[(k + 1) % m][0]
        cr = (bx - ax) * (y - ay) - (by - ay) * (x - ax)
        if cr != 0:
            s = 1 if cr > 0 else -1
            if sign and s != sign:
                return False
            sign = s
    return True


def _place_legend(boxes: Mapping[str, _Box], cells: Mapping[str, tuple], width: float,
                  height: float) -> tuple[float, float]:
    """Put the legend along the bottom where it hides no province and as little land as possible."""
    lw, lh = LEGEND_SIZE
    y = height - lh - 30
    bbs = {}
    for c, cell in cells.items():
        if len(cell) >= 3:
            xs, ys = [v[0] for v, _ in cell], [v[1] for v, _ in cell]
            bbs[c] = (min(xs), min(ys), max(xs), max(ys))
    best: tuple[float, float] | None = None
    x = width - lw - 30
    while x >= 30:
        hit = any(b.x + b.w / 2 + 10 > x and b.x - b.w / 2 - 10 < x + lw and b.y + b.h / 2 + 10 > y
                  for b in boxes.values())
        if not hit:
            land = 0
            for sx in range(int(x), int(x + lw), 16):
                for sy in range(int(y), int(y + lh), 16):
                    land += any(bb[0] <= sx <= bb[2] and bb[1] <= sy <= bb[3] and _inside(cells[c], sx, sy)
                                for c, bb in bbs.items())
            if best is None or land < best[0]:
                best = (land, x)
        x -= 20
    return (best[1] if best else width - lw - 30), y


# -- SVG helpers -----------------------------------------------------------------------

def _f(v: float) -> str:
    """Format a coordinate compactly and deterministically."""
    s = f"{v:.1f}"
    return s[:-2] if s.endswith(".0") else s


def _blend(colour: str, alpha: float, under: str = BACKGROUND) -> str:
    """``colour`` laid over ``under`` with opacity ``alpha``, as an opaque hex colour."""
    c = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    u = [int(under[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(cc * alpha + uu * (1 - alpha)):02x}" for cc, uu in zip(c, u, strict=True))


def _darken(colour: str, f: float) -> str:
    return _blend("#000000", f, colour)


def _anchor(x: float, y: float, s: float = 1.0, colour: str = "#1f3b5a") -> str:
    """A small drawn anchor centred on (x, y), about 12*s px tall."""
    sw = _f(1.3 * s)
    return (
        f'<g transform="translate({_f(x)},{_f(y)}) scale({s})" fill="none" stroke="{colour}" '
        f'stroke-width="{sw}" stroke-linecap="round">'
        '<circle cx="0" cy="-4.6" r="1.4"/>'
        '<line x1="0" y1="-3.2" x2="0" y2="5"/>'
        '<line x1="-3" y1="-1.6" x2="3" y2="-1.6"/>'
        '<path d="M-4.4,1.6 Q-3.6,5.4 0,5.4 Q3.6,5.4 4.4,1.6"/>'
        '<path d="M-4.4,1.6 l-0.6,1.6 M-4.4,1.6 l1.6,0.4 M4.4,1.6 l0.6,1.6 M4.4,1.6 l-1.6,0.4"/>'
        "</g>"
    )


def _halo_text(x: float, y: float, text: str, attrs: str, halo: float) -> str:
    """Text with a paper-coloured halo behind it (two elements: not every renderer has paint-order)."""
    pos = f'x="{_f(x)}" y="{_f(y)}" {attrs}'
    t = escape(text)
    return (f'<text {pos} stroke="{BACKGROUND}" stroke-width="{_f(halo)}" stroke-linejoin="round">{t}</text>'
            f"<text {pos}>{t}</text>")


def _port_badge(x: float, y: float, code: str = "") -> str:
    """The port mark: an anchor on a small white disc (class ``port``)."""
    attr = f' data-province="{code}"' if code else ""
    return (f'<g class="{"port" if code else "port-sample"}"{attr}><circle cx="{_f(x)}" cy="{_f(y)}" r="7" '
            f'fill="#fbf7ea" stroke="#1f3b5a" stroke-width="0.9"/>{_anchor(x, y + 0.3, 0.8)}</g>')


def _rail_line(x1: float, y1: float, x2: float, y2: float, link: str) -> str:
    coords = f'x1="{_f(x1)}" y1="{_f(y1)}" x2="{_f(x2)}" y2="{_f(y2)}"'
    return (
        f'<g class="rail" data-link="{link}">'
        f'<line {coords} stroke="#1d1a16" stroke-width="4.2" stroke-linecap="butt"/>'
        f'<line {coords} stroke="#f6f0de" stroke-width="2" stroke-dasharray="5 5"/>'
        "</g>"
    )


def _poly_path(points: Iterable[tuple[float, float]]) -> str:
    pts = list(points)
    return "M" + " L".join(f"{_f(x)},{_f(y)}" for x, y in pts) + " Z"


def _smooth_path(points: list[tuple[float, float]]) -> str:
    """A closed smooth curve through ``points`` (quadratic Béziers through edge midpoints)."""
    n = len(points)
    mids = [((points[i][0] + points[(i + 1) % n][0]) / 2, (points[i][1] + points[(i + 1) % n][1]) / 2)
            for i in range(n)]
    d = [f"M{_f(mids[-1][0])},{_f(mids[-1][1])}"]
    for i in range(n):
        d.append(f"Q{_f(points[i][0])},{_f(points[i][1])} {_f(mids[i][0])},{_f(mids[i][1])}")
    return " ".join(d) + " Z"


def _normalise_highlight(data: GameData, highlight: Iterable[str] | Mapping[str, str] | None) -> dict[str, str]:
    if highlight is None:
        return {}
    if isinstance(highlight, str):
        highlight = [highlight]
    if isinstance(highlight, Mapping):
        out = {str(k): str(v) for k, v in highlight.items()}
    else:
        out = {str(k): HIGHLIGHT for k in highlight}
    unknown = sorted(set(out) - set(data.provinces))
    if unknown:
        raise ValueError(f"highlight: unknown province code(s) {', '.join(unknown)}")
    return out


# -- the picture -----------------------------------------------------------------------

TITLE = "Russian Civil War 1918-1922"


def render_svg(data: GameData, *, highlight: Iterable[str] | Mapping[str, str] | None = None) -> str:
    """Return the map as SVG text.  Pure and deterministic.

    ``highlight`` is an iterable of province codes to ring in red, or a mapping from code
    to a CSS colour for the ring.  Unknown codes raise :class:`ValueError`.
    """
    hl = _normalise_highlight(data, highlight)
    lay = _layout(_signature(data))
    boxes = lay.boxes
    W, H = lay.width, lay.height
    out: list[str] = []
    add = out.append
    add(f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(W)}" height="{_f(H)}" '
        f'viewBox="0 0 {_f(W)} {_f(H)}" font-family="{SANS}">')
    add(f"<title>{escape(TITLE)}</title>")
    add("<desc>Map of SPI's Russian Civil War (1976): provinces coloured by region, borders, "
        "railways, ports, the Kerch Straits and Lake Pskov.</desc>")
    add('<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(35)"><line x1="0" y1="0" x2="0" y2="6" stroke="#9fbcc1" '
        'stroke-width="0.7"/></pattern></defs>')

    # paper
    add(f'<rect class="paper" x="0" y="0" width="{_f(W)}" height="{_f(H)}" fill="{BACKGROUND}"/>')

    add(f'<clipPath id="inner-frame"><rect x="11" y="11" width="{_f(W - 22)}" height="{_f(H - 22)}"/></clipPath>')
    add('<g class="land-and-sea" clip-path="url(#inner-frame)">')
    # land: one cell per province, tinted by region
    add('<g class="areas">')
    for code in sorted(lay.cells):
        cell = lay.cells[code]
        if len(cell) < 3:
            continue
        tint = _blend(REGION_COLOURS[boxes[code].region], AREA_ALPHA)
        add(f'<path class="area" data-province="{code}" d="{_poly_path(v for v, _ in cell)}" '
            f'fill="{tint}" stroke="{tint}" stroke-width="1" stroke-linejoin="round"/>')
    add("</g>")

    # coast and frontiers from the tagged cell edges
    coast, frontier, inner = [], [], []
    for code in sorted(lay.cells):
        cell = lay.cells[code]
        m = len(cell)
        for k in range(m):
            (a, tag) = cell[k]
            b = cell[(k + 1) % m][0]
            seg = f"M{_f(a[0])},{_f(a[1])} L{_f(b[0])},{_f(b[1])}"
            if tag == "":
                coast.append(seg)
            elif tag > code:
                if boxes[tag].region != boxes[code].region:
                    frontier.append(seg)
                else:
                    inner.append(seg)
    add(f'<path class="province-edges" d="{" ".join(inner)}" fill="none" stroke="#b9a98a" '
        'stroke-width="0.7" stroke-dasharray="2 2.5"/>')
    add(f'<path class="coast" d="{" ".join(coast)}" fill="none" stroke="#a08c66" stroke-width="1.1"/>')
    add(f'<path class="frontiers" d="{" ".join(frontier)}" fill="none" stroke="#7c6a55" '
        'stroke-width="1.8" stroke-dasharray="7 2.5 1.5 2.5" stroke-linecap="round"/>')

    # seas over the land areas, so the coasts read
    add('<g class="seas">')
    for _name, pts, _at, _rot in _SEAS:
        d = _smooth_path([_project(x, y) for x, y in pts])
        add(f'<path d="{d}" fill="{SEA}" stroke="#7fa3ab" stroke-width="1.2"/>')
        add(f'<path d="{d}" fill="url(#hatch)" stroke="none"/>')
    for name, _pts, (lx, ly), rot in _SEAS:
        x, y = _project(lx, ly)
        add(f'<text class="sea-label" x="{_f(x)}" y="{_f(y)}" transform="rotate({rot} {_f(x)} {_f(y)})" '
            f'text-anchor="middle" font-family="{SERIF}" font-style="italic" font-size="11.5" fill="{SEA_INK}" '
            f'letter-spacing="1.5">{escape(name)}</text>')
    add("</g>")

    # Lake Pskov
    for a, b in sorted(tuple(sorted(p)) for p in data.lake_borders):
        cx, cy, rx, ry, ang = lay.lake
        add(f'<g class="lake" data-link="{a}-{b}">'
            f'<ellipse cx="{_f(cx)}" cy="{_f(cy)}" rx="{_f(rx)}" ry="{_f(ry)}" '
            f'transform="rotate({_f(ang)} {_f(cx)} {_f(cy)})" fill="#8fb8cf" stroke="{SEA_INK}" stroke-width="1"/>'
            + _halo_text(cx, cy + ry + 9, "L. Pskov", f'text-anchor="middle" font-family="{SERIF}" '
                         f'font-style="italic" font-size="9.5" fill="{SEA_INK}"', 2.5) + "</g>")
    add("</g>")

    # borders (adjacency), under the railways
    white_only = {tuple(sorted(p)) for p in data.white_only_borders}
    rails = set(data.rail_links())
    add('<g class="borders">')
    for a, b in data.borders():
        if (a, b) in white_only:
            continue
        pa, pb = boxes[a], boxes[b]
        add(f'<line class="border" data-link="{a}-{b}" x1="{_f(pa.x)}" y1="{_f(pa.y)}" x2="{_f(pb.x)}" '
            f'y2="{_f(pb.y)}" stroke="{BORDER_GREY}" stroke-width="1.2"/>')
    add("</g>")

    add('<g class="rails">')
    for a, b in sorted(rails):
        pa, pb = boxes[a], boxes[b]
        add(_rail_line(pa.x, pa.y, pb.x, pb.y, f"{a}-{b}"))
    add("</g>")

    # Kerch Straits: the line now, its label over the provinces
    kerch_labels = []
    for a, b in sorted(white_only):
        pa, pb = boxes[a], boxes[b]
        add(f'<line class="kerch" data-link="{a}-{b}" x1="{_f(pa.x)}" y1="{_f(pa.y)}" x2="{_f(pb.x)}" '
            f'y2="{_f(pb.y)}" stroke="{KERCH_BLUE}" stroke-width="2.4" stroke-dasharray="6 4"/>')
        ang = math.degrees(math.atan2(pb.y - pa.y, pb.x - pa.x))
        if ang > 90 or ang < -90:
            ang -= 180 if ang > 0 else -180
        # centre the label on the open stretch of line between the two boxes
        lo = pa.x + pa.w / 2 if pa.x < pb.x else pb.x + pb.w / 2
        hi = pb.x - pb.w / 2 if pa.x < pb.x else pa.x - pa.w / 2
        mx = (lo + hi) / 2 if hi > lo else (pa.x + pb.x) / 2
        t = (mx - pa.x) / (pb.x - pa.x) if pb.x != pa.x else 0.5
        my = pa.y + t * (pb.y - pa.y)
        kerch_labels.append(
            f'<g class="kerch-label" data-link="{a}-{b}" transform="rotate({_f(ang)} {_f(mx)} {_f(my)})">'
            + _halo_text(mx, my - 6, "Kerch (White only)",
                         f'text-anchor="middle" font-size="9" font-weight="bold" fill="{KERCH_BLUE}"', 3) + "</g>")

    # provinces
    add('<g class="provinces">')
    for code in sorted(boxes):
        bx = boxes[code]
        fill = REGION_COLOURS[bx.region]
        x0, y0 = bx.x - bx.w / 2, bx.y - bx.h / 2
        ring = hl.get(code)
        add(f'<g class="province" id="prov-{code}" data-province="{code}" data-region={quoteattr(bx.region)}>')
        add(f"<title>{escape(f'{code} {bx.name} ({bx.region})' + (', port' if bx.port else ''))}</title>")
        if ring:
            add(f'<rect class="highlight" x="{_f(x0 - 4)}" y="{_f(y0 - 4)}" width="{_f(bx.w + 8)}" '
                f'height="{_f(bx.h + 8)}" rx="7" fill="none" stroke={quoteattr(ring)} stroke-width="3.5"/>')
        add(f'<rect x="{_f(x0 + 1.2)}" y="{_f(y0 + 1.6)}" width="{_f(bx.w)}" height="{_f(bx.h)}" rx="5" '
            'fill="#000" fill-opacity="0.18"/>')
        add(f'<rect x="{_f(x0)}" y="{_f(y0)}" width="{_f(bx.w)}" height="{_f(bx.h)}" rx="5" fill="{fill}" '
            f'stroke="{_darken(fill, 0.55)}" stroke-width="1"/>')
        tx = bx.x - (PORT_W / 2 - 1 if bx.port else 0)
        add(f'<text x="{_f(tx)}" y="{_f(bx.y - 0.5)}" text-anchor="middle" font-size="{CODE_SIZE}" '
            f'font-weight="bold" fill="{INK}">{code}</text>')
        add(f'<text x="{_f(tx)}" y="{_f(bx.y + 9.5)}" text-anchor="middle" font-family="{SANS_COND}" '
            f'font-size="{NAME_SIZE}" fill="{INK}">{escape(bx.name)}</text>')
        if bx.port:
            add(_port_badge(x0 + bx.w - PORT_W / 2 - 2, bx.y, code))
        add("</g>")
    add("</g>")
    out.extend(kerch_labels)

    out.extend(_legend(*lay.legend))
    out.extend(_title(W))
    out.extend(_compass(64, H - 74))
    add(f'<rect x="6" y="6" width="{_f(W - 12)}" height="{_f(H - 12)}" fill="none" stroke="{INK}" '
        'stroke-width="2.2"/>')
    add(f'<rect x="11" y="11" width="{_f(W - 22)}" height="{_f(H - 22)}" fill="none" stroke="{INK}" '
        'stroke-width="0.7"/>')
    add("</svg>")
    return "\n".join(out) + "\n"


def _title(W: float) -> list[str]:
    tw, th = 360.0, 72.0
    x, y = W - tw - 30, 30.0
    return [
        '<g class="title">',
        f'<rect x="{_f(x)}" y="{_f(y)}" width="{_f(tw)}" height="{_f(th)}" rx="3" fill="#f7efd9" stroke="{INK}" '
        'stroke-width="1.2"/>',
        f'<rect x="{_f(x + 4)}" y="{_f(y + 4)}" width="{_f(tw - 8)}" height="{_f(th - 8)}" rx="2" fill="none" '
        f'stroke="{INK}" stroke-width="0.5"/>',
        f'<text x="{_f(x + tw / 2)}" y="{_f(y + 33)}" text-anchor="middle" font-family="{SERIF}" font-size="21" '
        f'font-weight="bold" fill="{INK}">{escape(TITLE)}</text>',
        f'<text x="{_f(x + tw / 2)}" y="{_f(y + 54)}" text-anchor="middle" font-family="{SERIF}" font-size="10.5" '
        f'font-style="italic" fill="{INK}">after the SPI game map (1976) — positions schematic</text>',
        "</g>",
    ]


LEGEND_ROW = 17.0
LEGEND_SIZE = (262.0, 34 + (len(REGIONS) + 1) // 2 * LEGEND_ROW + 6 + 5 * LEGEND_ROW + 8)


def _compass(x: float, y: float, r: float = 30.0) -> list[str]:
    """A plain compass rose centred on (x, y)."""
    o = ['<g class="compass">',
         f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(r * 0.62)}" fill="none" stroke="{INK}" stroke-width="0.8"/>',
         f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(r * 0.55)}" fill="none" stroke="{INK}" stroke-width="0.4"/>']
    for k in range(8):
        a = math.pi / 4 * k
        long = k % 2 == 0
        rr = r if long else r * 0.55
        wv = r * (0.16 if long else 0.12)
        tip = (x + rr * math.sin(a), y - rr * math.cos(a))
        left = (x + wv * math.sin(a - math.pi / 2), y - wv * math.cos(a - math.pi / 2))
        right = (x + wv * math.sin(a + math.pi / 2), y - wv * math.cos(a + math.pi / 2))
        o.append(f'<path d="M{_f(x)},{_f(y)} L{_f(left[0])},{_f(left[1])} L{_f(tip[0])},{_f(tip[1])} Z" '
                 f'fill="{INK}"/>')
        o.append(f'<path d="M{_f(x)},{_f(y)} L{_f(right[0])},{_f(right[1])} L{_f(tip[0])},{_f(tip[1])} Z" '
                 f'fill="#f7efd9" stroke="{INK}" stroke-width="0.6"/>')
    o.append(f'<text x="{_f(x)}" y="{_f(y - r - 4)}" text-anchor="middle" font-family="{SERIF}" '
             f'font-size="12" font-weight="bold" fill="{INK}">N</text>')
    o.append("</g>")
    return o


def _legend(x: float, y: float) -> list[str]:
    lw, lh = LEGEND_SIZE
    row = LEGEND_ROW
    rows_regions = (len(REGIONS) + 1) // 2
    o = ['<g class="legend">',
         f'<rect x="{_f(x)}" y="{_f(y)}" width="{_f(lw)}" height="{_f(lh)}" rx="3" fill="#f7efd9" '
         f'fill-opacity="0.95" stroke="{INK}" stroke-width="1.2"/>',
         f'<text x="{_f(x + lw / 2)}" y="{_f(y + 19)}" text-anchor="middle" font-family="{SERIF}" '
         f'font-size="13" font-weight="bold" fill="{INK}">Legend</text>']
    yy = y + 34
    for i, region in enumerate(REGIONS):
        cx = x + 12 + (i % 2) * (lw / 2 - 14)
        cy = yy + (i // 2) * row
        col = REGION_COLOURS[region]
        o.append(f'<rect x="{_f(cx)}" y="{_f(cy - 9)}" width="18" height="12" rx="3" fill="{col}" '
                 f'stroke="{_darken(col, 0.55)}" stroke-width="0.8"/>')
        o.append(f'<text x="{_f(cx + 24)}" y="{_f(cy + 1)}" font-size="9.5" fill="{INK}">{escape(region)}</text>')
    yy += rows_regions * row + 6
    x1, x2, tx = x + 12, x + 52, x + 62
    items = [
        (_rail_line(x1, yy - 4, x2, yy - 4, "legend").replace('class="rail"', 'class="legend-rail"'), "Railway"),
        (f'<line x1="{_f(x1)}" y1="{_f(yy + row - 4)}" x2="{_f(x2)}" y2="{_f(yy + row - 4)}" '
         f'stroke="{BORDER_GREY}" stroke-width="1.2"/>', "Border (adjacent provinces)"),
        (f'<line x1="{_f(x1)}" y1="{_f(yy + 2 * row - 4)}" x2="{_f(x2)}" y2="{_f(yy + 2 * row - 4)}" '
         f'stroke="{KERCH_BLUE}" stroke-width="2.4" stroke-dasharray="6 4"/>', "Kerch Straits (White only)"),
        (_port_badge((x1 + x2) / 2, yy + 3 * row - 4), "Port"),
        (f'<line x1="{_f(x1)}" y1="{_f(yy + 4 * row - 4)}" x2="{_f(x2)}" y2="{_f(yy + 4 * row - 4)}" '
         'stroke="#7c6a55" stroke-width="1.8" stroke-dasharray="7 2.5 1.5 2.5"/>', "Region frontier"),
    ]
    for i, (sym, label) in enumerate(items):
        o.append(sym)
        o.append(f'<text x="{_f(tx)}" y="{_f(yy + i * row)}" font-size="9.5" fill="{INK}">{escape(label)}</text>')
    o.append("</g>")
    return o


# -- PNG -------------------------------------------------------------------------------

class PngError(RuntimeError):
    """No way to turn SVG into PNG on this machine; the message says what is missing."""


CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome")


def _svg_size(svg: str) -> tuple[int, int]:
    import xml.etree.ElementTree as ET

    root = ET.fromstring(svg)
    return math.ceil(float(root.get("width", "1200"))), math.ceil(float(root.get("height", "720")))


def _find_chromium() -> str | None:
    for c in CHROMIUM_CANDIDATES:
        found = c if Path(c).is_file() else shutil.which(c)
        if found:
            return found
    return None


def svg_to_png(svg: str, path: Path, *, scale: float = 1.0) -> str:
    """Rasterise ``svg`` into the PNG file ``path``; return the tool used.

    Uses the ``cairosvg`` package when importable, else headless Chromium.  Raises
    :class:`PngError` naming what to install when neither is available or both fail.
    """
    try:
        import cairosvg  # type: ignore[import-not-found]
    except (ImportError, OSError):  # OSError: the package is there but the cairo library is not
        cairosvg = None
    cairo_error = ""
    if cairosvg is not None:
        try:
            cairosvg.svg2png(bytestring=svg.encode("utf-8"), write_to=str(path), scale=scale)
            return "cairosvg"
        except Exception as e:  # any cairosvg failure: fall back to Chromium
            cairo_error = f"cairosvg failed ({e}); "
    chromium = _find_chromium()
    if chromium is None:
        if cairo_error:
            raise PngError(cairo_error + "and Chromium (apt-get install chromium) was not found")
        raise PngError("PNG output needs either the Python package 'cairosvg' (pip install cairosvg; it also needs "
                       "the system cairo library) or Chromium (apt-get install chromium); neither was found")
    w, h = _svg_size(svg)
    with tempfile.TemporaryDirectory(prefix="rcw-map-") as tmp:
        src = Path(tmp) / "map.svg"
        src.write_text(svg, encoding="utf-8")
        profile = Path(tmp) / "profile"
        cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync",
               "--hide-scrollbars", f"--user-data-dir={profile}", f"--force-device-scale-factor={scale}",
               f"--screenshot={Path(path).resolve()}", f"--window-size={w},{h}", src.as_uri()]
        try:
            res = subprocess.run(cmd, capture_output=True, text=True, timeout=180, check=False)
        except (OSError, subprocess.TimeoutExpired) as e:
            raise PngError(f"Chromium ({chromium}) failed to render the PNG: {e}") from None
        if res.returncode != 0 or not Path(path).is_file():
            tail = (res.stderr or res.stdout).strip().splitlines()[-3:]
            raise PngError(f"Chromium ({chromium}) failed to render the PNG (exit {res.returncode}): "
                           + " | ".join(tail))
    return "chromium"


# -- command line ----------------------------------------------------------------------

MAP_HELP = "draw the game map (provinces by region, borders, railways, ports, Kerch Straits, Lake Pskov)"
MAP_DESCRIPTION = (
    "Draw the Russian Civil War game map in the style of a period atlas: every province as a box "
    "coloured by its region (code and name), region areas and frontiers, borders between adjacent "
    "provinces as thin grey lines, railways as black-and-white lines, ports with an anchor, the Kerch "
    "Straits (White units only) as a dashed line and Lake Pskov between Petrograd and Livonia, with a "
    "legend and title.  Write it as SVG (--svg) and/or PNG (--png; uses the cairosvg package if "
    "installed, else headless Chromium)."
)


def _run(args: argparse.Namespace) -> int:
    from rcw import data as rcw_data

    if not args.svg and not args.png:
        parser = getattr(args, "map_parser", None)
        if parser is not None:
            parser.print_usage(sys.stderr)
        print("rcw map: nothing to do: give --svg FILE and/or --png FILE", file=sys.stderr)
        return 2
    try:
        d = rcw_data.load(args.data_dir) if args.data_dir else rcw_data.default()
    except rcw_data.DataError as e:
        print(f"rcw map: bad game data: {e}", file=sys.stderr)
        return 1
    try:
        svg = render_svg(d, highlight=args.highlight or None)
    except ValueError as e:
        print(f"rcw map: {e}", file=sys.stderr)
        return 2
    try:
        if args.svg:
            Path(args.svg).write_text(svg, encoding="utf-8")
            print(f"wrote {args.svg}")
        if args.png:
            tool = svg_to_png(svg, Path(args.png), scale=args.scale)
            print(f"wrote {args.png} (rendered with {tool})")
    except PngError as e:
        print(f"rcw map: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"rcw map: cannot write: {e}", file=sys.stderr)
        return 1
    return 0


def _scale(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0.25 <= v <= 4:
        raise argparse.ArgumentTypeError("scale must be between 0.25 and 4")
    return v


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Add the ``map`` subcommand to the ``rcw`` command line's subparsers."""
    p = sub.add_parser("map", help=MAP_HELP, description=MAP_DESCRIPTION)
    p.add_argument("--svg", metavar="FILE", help="write the map as SVG to FILE")
    p.add_argument("--png", metavar="FILE", help="write the map as PNG to FILE (needs cairosvg or Chromium)")
    p.add_argument("--scale", type=_scale, default=1.0, help="PNG pixel scale (default 1; 2 for a sharp print)")
    p.add_argument("--highlight", metavar="CODE", nargs="+", help="ring these provinces in red (e.g. PETR TVER)")
    p.add_argument("--data-dir", default=None, help="read data files from this folder (default: the shipped data/)")
    p.set_defaults(func=_run, map_parser=p)
