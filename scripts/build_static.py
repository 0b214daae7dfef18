"""Generate the browser client's static data: ``map.svg`` and ``data.json``.

    python scripts/build_static.py          # rewrite both files next to this script
    python scripts/build_static.py --check  # exit 1 if either is out of date (the tests do this)

``map.svg`` is :func:`rcw.mapdraw.render_svg` of the shipped data, as it is.  ``data.json``
is everything the page needs to know about the game that is not in a ``view``: provinces
(name, region, adjacency, rail, port, city), every counter (kind, colour, name, strength,
nationality, label; the optional forces of 001 too, with the option that brings each in), the
region colours, the Combat Results and Purge tables (to print
them; the odds, columns and chances the page shows are the engine's, sent by the server), the
colours each colour opposes (``Game.hostile``, for the rules in brief), the marker mix, the game options and the bot kinds the server offers.  Both files are generated, never
edited by hand: run this script after changing ``data/`` or ``rcw/mapdraw.py``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HERE = ROOT / "server" / "static"          # where the generated files live (and are served from)


def build_data() -> dict:
    from rcw import __version__
    from rcw.data import ANARCHIST, BLUE, GREEN, RED, REGIONS, WHITE, full
    from rcw.game import Game
    from rcw.mapdraw import REGION_COLOURS
    from rcw.options import GROUPS, describe
    from rcw.postal import KINDS

    d = full()                           # every counter any game may hold (the optional forces of 001 too)
    COLORS = (RED, WHITE, BLUE, GREEN, ANARCHIST)
    try:
        from rcw.bots import AGENTS

        bots = sorted(AGENTS)
    except Exception:  # pragma: no cover - bots are part of the project
        bots = ["random"]
    t = d.tables
    provinces = {
        code: {"name": p.name, "region": p.region, "x": p.x, "y": p.y, "port": p.port,
               "adjacent": sorted(p.adjacent), "rail": sorted(p.rail), **({"city": p.city} if p.city else {})}
        for code, p in sorted(d.provinces.items())
    }
    units = {
        str(u.id): {"id": u.id, "kind": u.kind, "color": u.color, "name": u.name, "strength": u.strength,
                    "province": u.province, "nationality": u.nationality, "asterisk": u.asterisk, "label": u.label,
                    **({"option": u.option} if u.option else {})}
        for u in sorted(d.units.values(), key=lambda u: u.id)
    }
    m = d.markers
    return {
        "version": __version__,
        "regions": [{"name": r, "colour": REGION_COLOURS[r], "letter": d.region_letters.get(r, "")} for r in REGIONS],
        "provinces": provinces,
        "units": units,
        "czar": d.czar,
        "gold": d.gold,
        "blue_names": dict(sorted(d.blue_names.items())),
        "green_names": dict(sorted(d.green_names.items())),
        "white_only_borders": sorted(sorted(p) for p in d.white_only_borders),
        "lake_borders": sorted(sorted(p) for p in d.lake_borders),
        "czech_exit": d.czech_exit,
        "markers": {"politburo": m.politburo, "assassin": m.assassin, "blue_control": list(m.blue_control),
                    "blue_withdrawal": list(m.blue_withdrawal), "green_control": list(m.green_control)},
        "tables": {                      # for display only: the engine computes every column and chance
            "crt": [list(r) for r in t.crt],
            "purge": [list(r) for r in t.purge],
        },
        # 004 [8.11]-[8.15] (and 001's Anarchists): the colours each colour opposes, as the engine
        # answers (Game.hostile), for the rules in brief
        "opposes": {a: [b for b in COLORS if Game.hostile(a, b)] for a in COLORS},
        "options": describe(),
        "option_groups": GROUPS,
        "bots": bots,
        # the postal game's order kinds as the engine reads them (rcw.postal.KINDS): the phases each
        # is written for, its rule case, its fields' types and defaults (the sheet's builders)
        # (and the options a kind matters with, if any)
        # (which kinds a sheet is offered is the view's ``postal.kinds``)
        "postal_orders": {k: {"rule": rule, "fields": {f: list(v) for f, v in fields.items()}}
                          for k, (_phases, rule, fields) in KINDS.items()},
    }


def build_svg() -> str:
    from rcw.data import default
    from rcw.mapdraw import render_svg

    return render_svg(default())


def outputs() -> dict[Path, str]:
    return {
        HERE / "map.svg": build_svg(),
        HERE / "data.json": json.dumps(build_data(), indent=1, ensure_ascii=False, sort_keys=False) + "\n",
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="do not write; exit 1 if a file is out of date")
    args = ap.parse_args(argv)
    stale = []
    for path, text in outputs().items():
        old = path.read_text(encoding="utf-8") if path.exists() else None
        if old != text:
            stale.append(path.name)
            if not args.check:
                path.write_text(text, encoding="utf-8")
    if args.check:
        if stale:
            print(f"out of date: {', '.join(stale)} (run python scripts/build_static.py)")
            return 1
        print("map.svg and data.json are up to date")
        return 0
    print(f"wrote {', '.join(stale) or 'nothing (already up to date)'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
