"""Load the game data in ``data/`` into typed, immutable objects and validate it.

The map, counters and charts of SPI *Russian Civil War* are reconstructed (the printed
map is not in the sources); each data file carries a provenance section saying what is
from the sources and what is ours.  :func:`load` validates on load and raises
:class:`DataError` naming the bad entry.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from types import MappingProxyType

DATA_PACKAGE = "rcw.gamedata"     # the repository's data/ folder, installed as package data


def shipped() -> Traversable:
    """The folder of the shipped data files (``data/`` in the repository)."""
    return resources.files(DATA_PACKAGE)

RED, WHITE, BLUE, GREEN = "Red", "White", "Blue", "Green"
ANARCHIST = "Anarchist"      # 001 Anarchists: the black counters (Makhno and the other Anarchist units)
REGIONS = (
    "Greater Russia", "White Russia", "Ukraine", "Trans-Caucasus", "Siberia",
    "Cossack Territories", "Baltic", "Poland", "Finland",
)
SIBERIA = "Siberia"


_VARIANTS: dict[tuple[int, frozenset[int]], tuple[GameData, GameData]] = {}   # GameData.with_options


class DataError(ValueError):
    """The data files are inconsistent; the message names the file and the bad entry."""


@dataclass(frozen=True, slots=True)
class Province:
    code: str
    name: str
    region: str
    x: int
    y: int
    port: bool
    adjacent: frozenset[str]
    rail: frozenset[str]
    city: str = ""       # the city printed in it, if any (reconstructed; 001 Additional Randomizer Draws)


@dataclass(frozen=True, slots=True)
class Unit:
    """A counter that stands on the map: a leader, a combat unit or an Imperial unit."""

    id: int
    kind: str            # "leader", "combat" or "imperial"
    color: str           # Red, White, Blue, Green; "" for Imperial units
    name: str            # leader name, unit code (PETR, DON) or Czar/Gold
    strength: int        # combat strength; a leader's strength is its value (004 [8.26])
    province: str        # set-up province (home province for Red/White/Green combat units)
    nationality: str = ""  # Blue/Green nationality code
    asterisk: bool = False  # 004 [15.52]
    option: str = ""     # the game option that brings it into play (none: every game; 001's optional forces, the critique's Czechs)

    @property
    def is_leader(self) -> bool:
        return self.kind == "leader"

    @property
    def is_combat(self) -> bool:
        return self.kind == "combat"

    @property
    def is_imperial(self) -> bool:
        return self.kind == "imperial"

    @property
    def label(self) -> str:
        """Short label as the Bell prints it: ``RL3 Lenin``, ``WU8 DON``, ``BU2 KHER/FR``."""
        if self.kind == "imperial":
            return self.name.upper()
        c = self.color[0]
        if self.kind == "leader":
            return f"{c}L{self.strength} {self.name}"
        if self.option and self.name != self.province:   # 001's optional forces have no set-up code: ``AU6 Makhno``
            return f"{c}U{self.strength} {self.name}"
        if self.nationality:
            return f"{c}U{self.strength} {self.province}/{self.nationality}"
        return f"{c}U{self.strength} {self.name}"


@dataclass(frozen=True, slots=True)
class RandomEvent:
    roll: tuple[int, int]
    result: str                       # "epidemic", "subversion_doubled", "draw"
    provinces: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Tables:
    crt_columns: tuple[str, ...]
    crt: tuple[tuple[str, ...], ...]          # crt[die-1][column]
    purge_columns: tuple[str, ...]
    purge_bounds: tuple[tuple[int, int], ...]  # inclusive; last upper bound is a large number
    purge: tuple[tuple[str, ...], ...]        # purge[dice-2][column]
    random_events: Mapping[tuple[int, int], RandomEvent]
    assassination_success: int
    victory: Mapping[str, object]


@dataclass(frozen=True, slots=True)
class Markers:
    politburo: int
    politburo_initial: int
    assassin: int
    assassin_initial: int
    blue_control: tuple[str, ...]
    blue_withdrawal: tuple[str, ...]
    green_control: tuple[str, ...]
    player_sets: tuple[str, ...]
    player_set_size: int


@dataclass(frozen=True, slots=True)
class GameData:
    provinces: Mapping[str, Province]
    units: Mapping[int, Unit]
    tables: Tables
    markers: Markers
    white_only_borders: frozenset[frozenset[str]]
    lake_borders: frozenset[frozenset[str]]
    czech_exit: str
    finnish_provinces: frozenset[str]
    polish_regions: frozenset[str]
    region_letters: Mapping[str, str]
    green_home_region: Mapping[str, str]
    blue_names: Mapping[str, str]
    green_names: Mapping[str, str]
    siberia_only: frozenset[str]
    immobile: frozenset[str]
    czar: int
    gold: int
    czar_under: int
    gold_under: int
    provenance: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    # Counters in play only with a game option (``Unit.option``: 001's optional forces, the critique's
    # Czechs at Penza and Samara), not in the printed counter mix: every such counter, by id, with
    # the names of their new nationalities; a game's own data (:meth:`with_options`) holds in
    # ``units`` those its options bring into play.
    optional_units: Mapping[int, Unit] = field(default_factory=dict)
    optional_names: Mapping[str, str] = field(default_factory=dict)
    # The provinces of Russia: every province but those of the regions that had won their
    # independence by the game's start (map.toml [rules] foreign_regions: Finland, Poland).
    russian: frozenset[str] = frozenset()
    # Derived, for searches: the provinces in code order (a province is a bit, 1 << its index,
    # in a set of provinces held as an int; ``bit`` is a plain dict, read for every province a
    # search or a colour's provinces look at: never change it), and each province's neighbours
    # and rail links as such sets, with and without the borders only White units cross (004 [5.32]).
    codes: tuple[str, ...] = ()
    bit: Mapping[str, int] = field(default_factory=dict)
    adjacent_bits: tuple[int, ...] = ()
    rail_bits: tuple[int, ...] = ()
    adjacent_bits_not_white: tuple[int, ...] = ()
    rail_bits_not_white: tuple[int, ...] = ()
    # The colour of every leader and Red, White or Blue combat unit: a stack headed by one is of
    # its colour (not so a Green unit, which may be attached to a leader, 004 [13.26], nor an
    # Imperial unit; ``Board.stack_colors``; a plain dict, read for every stack of a view: never
    # change it).
    plain_color: Mapping[int, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        codes = tuple(sorted(self.provinces))
        bit = {c: 1 << i for i, c in enumerate(codes)}

        def links(attr: str, white: bool) -> tuple[int, ...]:
            return tuple(sum(bit[n] for n in getattr(self.provinces[c], attr)
                             if white or frozenset((c, n)) not in self.white_only_borders) for c in codes)

        for name, value in (("codes", codes), ("bit", bit),
                            ("adjacent_bits", links("adjacent", True)), ("rail_bits", links("rail", True)),
                            ("adjacent_bits_not_white", links("adjacent", False)),
                            ("rail_bits_not_white", links("rail", False)),
                            ("plain_color", {i: u.color for i, u in self.units.items()
                                             if u.kind != "imperial" and u.color != GREEN})):
            object.__setattr__(self, name, value)

    # -- the optional forces (001) --------------------------------------------------
    def with_options(self, options: Mapping | None) -> GameData:
        """The data of a game played with ``options``: its ``units`` are the printed counter mix
        and the optional forces (001) that its options bring into play (``Unit.option``), the
        Blue ones' nationalities named in ``blue_names``.  Without such an option, these data."""
        opts = options or {}
        want = frozenset(i for i, u in self.optional_units.items() if opts.get(u.option))
        if want == frozenset(self.optional_units) & frozenset(self.units):
            return self
        key = (id(self), want)
        hit = _VARIANTS.get(key)
        if hit is not None and hit[0] is self:
            return hit[1]
        units = {i: u for i, u in self.units.items() if i not in self.optional_units}
        units.update((i, self.optional_units[i]) for i in sorted(want))
        blue = {k: v for k, v in self.blue_names.items() if k not in self.optional_names}
        blue.update((u.nationality, self.optional_names[u.nationality]) for u in units.values()
                    if u.option and u.color == BLUE and u.nationality in self.optional_names)
        out = replace(self, units=MappingProxyType(units), blue_names=MappingProxyType(blue))
        _VARIANTS[key] = (self, out)
        return out

    def optional_forces(self) -> list[str]:
        """The game options that bring counters into play (001's optional forces, the critique's
        Czechs), in id order."""
        out: list[str] = []
        for u in sorted(self.optional_units.values(), key=lambda u: u.id):
            if u.option not in out:
                out.append(u.option)
        return out

    # -- convenience -------------------------------------------------------------
    def unit(self, uid: int) -> Unit:
        return self.units[uid]

    def by_name(self, name: str) -> Unit:
        """Find a leader by name or a Red/White combat unit by code (``Lenin``, ``DON``)."""
        for u in self.units.values():
            if u.name.lower() == name.lower() and u.kind != "imperial":
                return u
        raise KeyError(name)

    def leaders(self, color: str | None = None) -> list[Unit]:
        return [u for u in self.units.values() if u.is_leader and (color is None or u.color == color)]

    def combat_units(self, color: str | None = None) -> list[Unit]:
        return [u for u in self.units.values() if u.is_combat and (color is None or u.color == color)]

    def rail_links(self) -> list[tuple[str, str]]:
        return sorted({tuple(sorted((a, b))) for a, p in self.provinces.items() for b in p.rail})

    def borders(self) -> list[tuple[str, str]]:
        return sorted({tuple(sorted((a, b))) for a, p in self.provinces.items() for b in p.adjacent})

    def ports(self) -> list[str]:
        return sorted(c for c, p in self.provinces.items() if p.port)

    def purge_column(self, strength: int) -> int:
        """Index of the Purge Table column for a Purge Strength (004 [11.4])."""
        for i, (_lo, hi) in enumerate(self.tables.purge_bounds):
            if strength <= hi:
                return i
        return len(self.tables.purge_bounds) - 1


def _fail(file: str, where: str, msg: str) -> None:
    raise DataError(f"{file}: {where}: {msg}")


def _read(path: Path | Traversable) -> dict:
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        where = getattr(path, "parent", None) or DATA_PACKAGE
        raise DataError(f"{path.name}: file is missing from {where}") from None
    except tomllib.TOMLDecodeError as e:
        raise DataError(f"{path.name}: not valid TOML: {e}") from None


def _req(file: str, entry: dict, key: str, typ: type, where: str):
    if key not in entry:
        _fail(file, where, f"missing field '{key}'")
    v = entry[key]
    if typ is int and isinstance(v, bool) or not isinstance(v, typ):
        _fail(file, where, f"field '{key}' should be {typ.__name__}, got {v!r}")
    return v


def _load_map(doc: dict) -> tuple[dict[str, Province], dict]:
    F = "map.toml"
    provs: dict[str, Province] = {}
    raw = doc.get("province")
    if not isinstance(raw, list) or not raw:
        _fail(F, "[[province]]", "no provinces")
    for i, p in enumerate(raw):
        where = f"province #{i + 1}"
        code = _req(F, p, "code", str, where)
        where = f"province {code}"
        if len(code) != 4 or not code.isalpha() or not code.isupper():
            _fail(F, where, "code must be 4 capital letters")
        if code in provs:
            _fail(F, where, "duplicate province code")
        region = _req(F, p, "region", str, where)
        if region not in REGIONS:
            _fail(F, where, f"unknown region {region!r}")
        provs[code] = Province(
            code=code, name=_req(F, p, "name", str, where), region=region,
            x=_req(F, p, "x", int, where), y=_req(F, p, "y", int, where),
            port=_req(F, p, "port", bool, where),
            adjacent=frozenset(_req(F, p, "adjacent", list, where)),
            rail=frozenset(_req(F, p, "rail", list, where)),
            city=_req(F, p, "city", str, where) if "city" in p else "",
        )
    for code, p in provs.items():
        where = f"province {code}"
        for n in sorted(p.adjacent):
            if n not in provs:
                _fail(F, where, f"adjacent to unknown province {n!r}")
            if n == code:
                _fail(F, where, "adjacent to itself")
            if code not in provs[n].adjacent:
                _fail(F, where, f"adjacency is not symmetric: {code} lists {n} but {n} does not list {code}")
        for n in sorted(p.rail):
            if n not in p.adjacent:
                _fail(F, where, f"rail link to {n} but {n} is not adjacent")
            if code not in provs[n].rail:
                _fail(F, where, f"rail link is not symmetric: {code} lists {n} but {n} does not list {code}")
    rules = doc.get("rules", {})
    return provs, rules


def _load_counters(doc: dict, provs: Mapping[str, Province]) -> dict[int, Unit]:
    F = "counters.toml"
    units: dict[int, Unit] = {}

    def add(u: Unit, where: str) -> None:
        if u.id in units:
            _fail(F, where, f"duplicate id {u.id} (also {units[u.id].label})")
        if u.province not in provs:
            _fail(F, where, f"province {u.province!r} does not exist")
        if u.strength < 1 and u.kind != "imperial":
            _fail(F, where, "strength must be at least 1")
        units[u.id] = u

    for color, key in ((RED, "red_unit"), (WHITE, "white_unit")):
        for i, e in enumerate(doc.get(key, [])):
            where = f"{key} #{i + 1}"
            uid = _req(F, e, "id", int, where)
            where = f"{key} {uid}"
            add(Unit(uid, "combat", color, _req(F, e, "code", str, where), _req(F, e, "strength", int, where),
                     _req(F, e, "home", str, where)), where)
    for color, key in ((RED, "red_leader"), (WHITE, "white_leader")):
        for i, e in enumerate(doc.get(key, [])):
            where = f"{key} #{i + 1}"
            uid = _req(F, e, "id", int, where)
            where = f"{key} {uid}"
            add(Unit(uid, "leader", color, _req(F, e, "name", str, where), _req(F, e, "value", int, where),
                     _req(F, e, "province", str, where), asterisk=_req(F, e, "asterisk", bool, where)), where)
    nats = doc.get("nationalities", {})
    for color, key, natkey in ((BLUE, "blue_unit", "blue"), (GREEN, "green_unit", "green")):
        for i, e in enumerate(doc.get(key, [])):
            where = f"{key} #{i + 1}"
            uid = _req(F, e, "id", int, where)
            where = f"{key} {uid}"
            nat = _req(F, e, "nationality", str, where)
            if nat not in nats.get(natkey, {}):
                _fail(F, where, f"unknown {color} nationality {nat!r}")
            prov = _req(F, e, "province", str, where)
            option = e.get("option", "")
            if not isinstance(option, str):
                _fail(F, where, "option must be the name of a game option")
            add(Unit(uid, "combat", color, prov, _req(F, e, "strength", int, where), prov, nationality=nat,
                     option=option), where)
    imp = doc.get("imperial", {})
    for key in ("czar", "gold"):
        e = imp.get(key)
        if not isinstance(e, dict):
            _fail(F, "[imperial]", f"missing {key}")
        where = f"imperial {key}"
        add(Unit(_req(F, e, "id", int, where), "imperial", "", _req(F, e, "name", str, where), 0,
                 _req(F, e, "province", str, where)), where)
        under = _req(F, e, "under", int, where)
        if under not in units or units[under].province != units[e["id"]].province:
            _fail(F, where, f"'under' must be a unit set up in {e['province']}")
    # 004 [15.52]: an asterisk leader needs a combat unit of his colour in his province.
    for u in units.values():
        if u.asterisk and not any(v.is_combat and v.color == u.color and v.province == u.province
                                  for v in units.values()):
            _fail(F, f"leader {u.id} {u.name}", f"asterisk but no {u.color} combat unit in {u.province}")
    # Leader id ranges named by the rules (004 [27.12], [9.14]).
    for u in units.values():
        if u.kind == "leader":
            lo, hi = (151, 180) if u.color == RED else (251, 270)
            if not lo <= u.id <= hi:
                _fail(F, f"leader {u.id} {u.name}", f"{u.color} leader ids run {lo}-{hi}")
    for home, nat_region in nats.get("green_home_region", {}).items():
        if nat_region not in REGIONS:
            _fail(F, "[nationalities] green_home_region", f"{home}: unknown region {nat_region!r}")
    return units


OPTIONAL_COLORS = (RED, WHITE, BLUE, ANARCHIST)


def _load_optional(doc: dict, provs: Mapping[str, Province], units: Mapping[int, Unit]) -> tuple[dict[int, Unit], dict[str, str]]:
    """The optional forces of 001 (``[[optional_unit]]``): combat units that only a game option
    brings into play, with no set-up province unless they start on the map (Makhno)."""
    F = "counters.toml"
    names = dict(doc.get("optional_nationalities", {}))
    out: dict[int, Unit] = {}
    for i, e in enumerate(doc.get("optional_unit", [])):
        where = f"optional_unit #{i + 1}"
        uid = _req(F, e, "id", int, where)
        where = f"optional_unit {uid}"
        if uid in units or uid in out:
            _fail(F, where, f"duplicate id {uid}")
        color = _req(F, e, "color", str, where)
        if color not in OPTIONAL_COLORS:
            _fail(F, where, f"colour must be one of {', '.join(OPTIONAL_COLORS)}")
        prov = _req(F, e, "province", str, where)
        if prov and prov not in provs:
            _fail(F, where, f"province {prov!r} does not exist")
        nat = e.get("nationality", "")
        if nat and nat not in names:
            _fail(F, where, f"nationality {nat!r} is not in [optional_nationalities]")
        if color in (BLUE, ANARCHIST) and not nat:
            _fail(F, where, f"a {color} unit needs a nationality")
        strength = _req(F, e, "strength", int, where)
        if strength < 1:
            _fail(F, where, "strength must be at least 1")
        out[uid] = Unit(uid, "combat", color, _req(F, e, "name", str, where), strength, prov, nationality=nat,
                        option=_req(F, e, "option", str, where))
    return out, names


def _load_tables(doc: dict, provs: Mapping[str, Province]) -> Tables:
    F = "tables.toml"
    crt = doc.get("crt", {})
    cols = tuple(crt.get("columns", ()))
    rows = tuple(tuple(r) for r in crt.get("rows", ()))
    if len(rows) != 6:
        _fail(F, "[crt]", f"needs 6 rows (one die), found {len(rows)}")
    for i, r in enumerate(rows):
        if len(r) != len(cols):
            _fail(F, f"[crt] row {i + 1}", f"has {len(r)} entries for {len(cols)} columns")
        for x in r:
            if x not in ("Ae", "De", "Ex"):
                _fail(F, f"[crt] row {i + 1}", f"unknown result {x!r}")
    pg = doc.get("purge", {})
    pcols = tuple(pg.get("columns", ()))
    prow = tuple(tuple(r) for r in pg.get("rows", ()))
    if len(prow) != 11:
        _fail(F, "[purge]", f"needs 11 rows (2-12), found {len(prow)}")
    bounds = []
    for c in pcols:
        try:
            if c.endswith("+"):
                bounds.append((int(c[:-1]), 10**9))
            else:
                lo, hi = c.split("-")
                bounds.append((int(lo), int(hi)))
        except ValueError:
            _fail(F, "[purge] columns", f"bad column {c!r}")
    for (_lo1, hi1), (lo2, _) in zip(bounds, bounds[1:], strict=False):
        if lo2 != hi1 + 1:
            _fail(F, "[purge] columns", f"columns must be contiguous ({hi1} then {lo2})")
    for i, r in enumerate(prow):
        if len(r) != len(pcols):
            _fail(F, f"[purge] row {i + 2}", f"has {len(r)} entries for {len(pcols)} columns")
        for x in r:
            if x != "C" and not x.isdigit():
                _fail(F, f"[purge] row {i + 2}", f"result must be a number or C, got {x!r}")
    cells: dict[tuple[int, int], RandomEvent] = {}
    seen: dict[str, tuple[int, int]] = {}
    for e in doc.get("random_events", {}).get("cell", []):
        roll = tuple(e.get("roll", ()))
        where = f"random event {roll[0]}-{roll[1]}" if len(roll) == 2 else "random event"
        if len(roll) != 2 or not all(isinstance(d, int) and 1 <= d <= 6 for d in roll):
            _fail(F, where, "roll must be two dice 1-6")
        if roll in cells:
            _fail(F, where, "duplicate cell")
        res = e.get("result")
        if res not in ("epidemic", "subversion_doubled", "draw"):
            _fail(F, where, f"unknown result {res!r}")
        ps = tuple(e.get("provinces", ()))
        if res == "epidemic" and not 1 <= len(ps) <= 4:
            _fail(F, where, "an epidemic names one to four provinces")
        for p in ps:
            if p not in provs:
                _fail(F, where, f"unknown province {p!r}")
            if p in seen:
                _fail(F, where, f"{p} already appears in cell {seen[p][0]}-{seen[p][1]}")
            seen[p] = roll
        cells[roll] = RandomEvent(roll, res, ps)
    if len(cells) != 36:
        _fail(F, "[random_events]", f"needs 36 cells, found {len(cells)}")
    return Tables(
        crt_columns=cols, crt=rows, purge_columns=pcols, purge_bounds=tuple(bounds), purge=prow,
        random_events=MappingProxyType(cells),
        assassination_success=int(doc.get("assassination", {}).get("success_at_least", 7)),
        victory=MappingProxyType(doc.get("victory", {})),
    )


def load(directory: Path | str | None = None) -> GameData:
    """Read and validate ``map.toml``, ``counters.toml`` and ``tables.toml`` from ``directory``
    (default: the shipped data, package ``rcw.gamedata``)."""
    d: Path | Traversable = Path(directory) if directory is not None else shipped()
    mdoc, cdoc, tdoc = _read(d / "map.toml"), _read(d / "counters.toml"), _read(d / "tables.toml")
    provs, rules = _load_map(mdoc)

    def pairs(key: str) -> frozenset[frozenset[str]]:
        out = set()
        for pair in rules.get(key, []):
            if len(pair) != 2 or any(p not in provs for p in pair):
                _fail("map.toml", f"[rules] {key}", f"bad pair {pair!r}")
            out.add(frozenset(pair))
        return frozenset(out)

    white_only, lakes = pairs("white_only_borders"), pairs("lake_borders")
    for pair in white_only:
        a, b = sorted(pair)
        if b not in provs[a].adjacent:
            _fail("map.toml", "[rules] white_only_borders", f"{a}-{b} must also be adjacent")
    for pair in lakes:
        a, b = sorted(pair)
        if b in provs[a].adjacent:
            _fail("map.toml", "[rules] lake_borders", f"{a}-{b} are across a lake and must not be adjacent")
    every = _load_counters(cdoc, provs)
    units = {i: u for i, u in every.items() if not u.option}
    optional, optional_names = _load_optional(cdoc, provs, every)
    optional.update((i, u) for i, u in every.items() if u.option)
    tables = _load_tables(tdoc, provs)
    foreign = rules.get("foreign_regions", [])
    for r in foreign:
        if r not in REGIONS:
            _fail("map.toml", "[rules] foreign_regions", f"unknown region {r!r}")
    mk = cdoc.get("markers", {})
    markers = Markers(
        politburo=mk["politburo"], politburo_initial=mk["politburo_initial_randomizer"],
        assassin=mk["assassin"], assassin_initial=mk["assassin_initial_randomizer"],
        blue_control=tuple(mk["blue_control"]), blue_withdrawal=tuple(mk["blue_withdrawal"]),
        green_control=tuple(mk["green_control"]), player_sets=tuple(mk["player_sets"]),
        player_set_size=mk["player_set_size"],
    )
    nats = cdoc["nationalities"]
    for n in markers.blue_control + markers.blue_withdrawal:
        if n not in nats["blue"]:
            _fail("counters.toml", "[markers]", f"unknown Blue nationality {n!r}")
    for n in markers.green_control:
        if n not in nats["green"]:
            _fail("counters.toml", "[markers]", f"unknown Green nationality {n!r}")
    czech_exit = rules.get("czech_exit", "VLDV")
    if czech_exit not in provs or not provs[czech_exit].port:
        _fail("map.toml", "[rules] czech_exit", f"{czech_exit!r} must be a port province")
    imp = cdoc["imperial"]
    return GameData(
        provinces=MappingProxyType(provs), units=MappingProxyType(units), tables=tables, markers=markers,
        white_only_borders=white_only, lake_borders=lakes, czech_exit=czech_exit,
        finnish_provinces=frozenset(rules.get("finnish_provinces", ())),
        polish_regions=frozenset(rules.get("polish_regions", ())),
        region_letters=MappingProxyType(dict(mdoc.get("regions", {}))),
        green_home_region=MappingProxyType(dict(nats["green_home_region"])),
        blue_names=MappingProxyType(dict(nats["blue"])), green_names=MappingProxyType(dict(nats["green"])),
        siberia_only=frozenset(nats.get("siberia_only", ())), immobile=frozenset(nats.get("immobile", ())),
        czar=imp["czar"]["id"], gold=imp["gold"]["id"],
        czar_under=imp["czar"]["under"], gold_under=imp["gold"]["under"],
        provenance=MappingProxyType({n: doc.get("provenance", {}) for n, doc in
                                     (("map", mdoc), ("counters", cdoc), ("tables", tdoc))}),
        optional_units=MappingProxyType(optional), optional_names=MappingProxyType(optional_names),
        russian=frozenset(c for c, p in provs.items() if p.region not in foreign),
    )


@cache
def default() -> GameData:
    """The shipped data, loaded once per process."""
    return load()


@cache
def full() -> GameData:
    """The shipped data with every optional force of 001 in ``units`` (for naming and drawing
    any counter of any game: the browser's data, the terminal's names)."""
    d = default()
    return d.with_options({o: True for o in d.optional_forces()})


def summary(data: GameData) -> dict:
    """The machine-readable summary printed by ``rcw data check --json``."""
    regions: dict[str, int] = {}
    for p in data.provinces.values():
        regions[p.region] = regions.get(p.region, 0) + 1

    def tally(units: list[Unit], key: str) -> dict:
        return {"count": len(units), key: sum(u.strength for u in units)}

    m = data.markers
    return {
        "provinces": len(data.provinces),
        "regions": regions,
        "rail_links": len(data.rail_links()),
        "ports": data.ports(),
        "counters": {
            "red_leaders": tally(data.leaders(RED), "value"),
            "white_leaders": tally(data.leaders(WHITE), "value"),
            "red_units": tally(data.combat_units(RED), "strength"),
            "white_units": tally(data.combat_units(WHITE), "strength"),
            "blue_units": tally(data.combat_units(BLUE), "strength"),
            "green_units": tally(data.combat_units(GREEN), "strength"),
        },
        "markers": {
            "politburo": m.politburo, "assassin": m.assassin, "blue_control": len(m.blue_control),
            "blue_withdrawal": len(m.blue_withdrawal), "green_control": len(m.green_control),
        },
        "tables": {
            "crt_columns": list(data.tables.crt_columns),
            "purge_columns": list(data.tables.purge_columns),
            "random_events_cells": len(data.tables.random_events),
        },
        # beyond the fixed keys: the cities (reconstructed; 001 Additional Randomizer Draws) and
        # the counters a game option brings in (001's optional forces, the critique's Czechs), by option
        "cities": sum(1 for p in data.provinces.values() if p.city),
        "optional_counters": {
            o: tally([u for u in data.optional_units.values() if u.option == o], "strength")
            for o in data.optional_forces()
        },
    }
