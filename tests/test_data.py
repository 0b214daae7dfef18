"""The shipped game data (data/*.toml via rcw.data) against every fact the sources give.

Each test checks one fact of /work/shared/design/facts.md sections 1-3 and cites where it
comes from: ``004 [x.y]`` = rule case in seeds/004_8c1b9ecc5e5ea495.txt, "Bell #n" = the
sample postal game in the same file, "Profile" = the game profile article, "critique" =
DeBaun's critique.  The last part checks that ``rcw data check`` reports the data and that
the loader rejects corrupted data with a message naming the bad entry.
"""

from __future__ import annotations

import json
import shutil
import tomllib
from collections import Counter, deque
from itertools import pairwise
from pathlib import Path

import pytest

from rcw import cli, data
from rcw.data import BLUE, GREEN, RED, WHITE, full


@pytest.fixture(scope="module")
def gd() -> data.GameData:
    return data.default()


@pytest.fixture(scope="module")
def raw() -> dict[str, dict]:
    """The data files as plain TOML, for cross-checks independent of the loader."""
    out = {}
    for name in ("map", "counters", "tables"):
        with (data.shipped() / f"{name}.toml").open("rb") as f:
            out[name] = tomllib.load(f)
    return out


# =====================================================================================
# 1. Counter manifest (Bell #1 set-up; totals from the Profile)
# =====================================================================================

# Red combat units: code = home province -> strength (Bell #1).
RED_UNITS = {
    "PETR": 8, "TVER": 8, "NOVG": 8, "SMOL": 6, "KURS": 6, "TULA": 4, "PSKO": 4, "VLDM": 4, "VITE": 4,
    "KALU": 3, "OLON": 3, "OREL": 3, "YARO": 3, "BAKU": 3, "GROD": 3, "KAZA": 2, "YELI": 2, "VLDV": 2,
    "EKAT": 2, "KRAS": 2,
}
# White combat units: (code, home province, strength) (Bell #1).
WHITE_UNITS = [
    ("DON", "DCOS", 8), ("KHAR", "KHAR", 6), ("TAUR", "TAUR", 4), ("KUBA", "KUBA", 4), ("ASTR", "ASTR", 4),
    ("CHEL", "CHEL", 3), ("OMSK", "OMSK", 3), ("STAV", "STAV", 3), ("YEKA", "YEKA", 3), ("ESTO", "ESTO", 2),
    ("VLDV", "VLDV", 2), ("TERE", "TERE", 2), ("OREN", "OREN", 2), ("ARCH", "ARCH", 2), ("LIVO", "LIVO", 2),
    ("KIRG", "KIRG", 2), ("SAMA", "SAMA", 2), ("URAL", "URAL", 2), ("SARA", "SARA", 2), ("TIFL", "TIFL", 2),
]
# Red leaders: (name, value, set-up province) (Bell #1).
RED_LEADERS = [
    ("Lenin", 3, "PETR"), ("Trotsky", 3, "TVER"), ("Zinoviev", 2, "SMOL"), ("Tukhachevsky", 2, "NOVG"),
    ("Voroshilov", 2, "KURS"), ("Budenny", 2, "OREL"), ("Vatzetis", 2, "YARO"), ("Frunze", 2, "VLDM"),
    ("Sablin", 1, "PSKO"), ("Kalinin", 1, "KALU"), ("Kamenev", 1, "TULA"), ("Sorokin", 1, "TULA"),
    ("Markin", 1, "KAZA"), ("Sytin", 1, "TVER"), ("Smirnov", 1, "OREL"), ("Bonch-Bruevich", 1, "OLON"),
    ("Peterson", 1, "PETR"), ("Slavin", 1, "SMOL"), ("Muraviev", 1, "PSKO"), ("Kikvidze", 1, "VLDV"),
    ("Stalin", 1, "KURS"), ("Sivers", 1, "YELI"), ("Berzin", 1, "TVER"), ("Yeserov", 1, "KALU"),
    ("Rykov", 1, "BAKU"), ("Bela Kun", 1, "GROD"), ("Bogomoletz", 1, "KRAS"), ("Blucher", 1, "EKAT"),
    ("Gai", 1, "NOVG"), ("Antonov", 1, "VITE"),
]
# White leaders: (name, value, set-up province) (Bell #1; Lukomsky printed "KULA", read KUBA).
WHITE_LEADERS = [
    ("Deniken", 3, "KUBA"), ("Wrangel", 3, "ASTR"), ("Kolchak", 2, "OMSK"), ("Krasnov", 1, "DCOS"),
    ("Kappel", 1, "OMSK"), ("Rodzyanko", 1, "ESTO"), ("Lukomsky", 1, "KUBA"), ("Kutepov", 1, "TAUR"),
    ("Dieterichs", 1, "VLDV"), ("Khanzin", 1, "CHEL"), ("Chatilov", 1, "ASTR"), ("Markov", 1, "TERE"),
    ("Sidorin", 1, "STAV"), ("Dutov", 1, "OREN"), ("Miller", 1, "ARCH"), ("Ulagi", 1, "ASTR"),
    ("Yudenich", 1, "LIVO"), ("May-Maevsky", 1, "KHAR"), ("Romanovsky", 1, "KUBA"), ("Abramov", 1, "YEKA"),
]
# Blue units known from the Bell: (nationality, strength, province, how many).
BLUE_UNITS = [
    ("US", 2, "VLDV", 2), ("JA", 6, "VLDV", 3), ("CZ", 3, "OMSK", 1), ("CZ", 3, "CHEL", 1), ("CZ", 3, "EKAT", 1),
    ("FR", 2, "KHER", 3), ("GR", 2, "KHER", 1), ("RM", 2, "KHER", 1), ("GE", 2, "KHER", 1), ("HU", 2, "KHER", 1),
    ("GE", 2, "POLT", 1), ("GE", 2, "CHER", 1), ("GE", 2, "VITE", 1), ("GE", 2, "MOHI", 1), ("GE", 2, "LIVO", 1),
    ("US", 2, "ARCH", 1), ("BR", 2, "ARCH", 1),
]
# Green units known from the Bell: (nationality, strength, province, how many).
GREEN_UNITS = [
    ("SB", 2, "VLDV", 1), ("SB", 2, "CHIT", 1), ("SB", 2, "IRKU", 1), ("TC", 2, "BAKU", 1), ("TC", 2, "DAGH", 1),
    ("BY", 2, "MINS", 1), ("BY", 2, "VITE", 1), ("UK", 4, "KIEV", 1), ("UK", 2, "KHER", 1), ("UK", 2, "KHAR", 1),
    ("PO", 8, "POLA", 3), ("BA", 2, "KOVN", 1), ("BA", 2, "COUR", 1), ("BA", 2, "LIVO", 1), ("BA", 2, "ESTO", 1),
    ("FN", 6, "FINL", 3),
]
GREEN_HOME = {"SB": "Siberia", "TC": "Trans-Caucasus", "BY": "White Russia", "UK": "Ukraine", "PO": "Poland",
              "BA": "Baltic", "FN": "Finland"}
LONE_WHITE_UNITS = {"SARA": "Chatilov", "URAL": "Ulagi", "TIFL": "Romanovsky", "KIRG": "Lukomsky", "SAMA": "Kappel"}


def test_fact_lists_add_up_to_the_profile_totals():
    """Transcription check of the lists above: Profile totals 20/80, 20/60, 30/40, 20/25."""
    assert (len(RED_UNITS), sum(RED_UNITS.values())) == (20, 80)
    assert (len(WHITE_UNITS), sum(s for _, _, s in WHITE_UNITS)) == (20, 60)
    assert (len(RED_LEADERS), sum(v for _, v, _ in RED_LEADERS)) == (30, 40)
    assert (len(WHITE_LEADERS), sum(v for _, v, _ in WHITE_LEADERS)) == (20, 25)


@pytest.mark.parametrize(
    "kind, color, count, total",
    [("combat", RED, 20, 80), ("combat", WHITE, 20, 60), ("leader", RED, 30, 40), ("leader", WHITE, 20, 25)],
)
def test_counter_totals(gd, kind, color, count, total):
    """Profile: Red combat 20/80, White combat 20/60, Red leaders 30/40, White leaders 20/25."""
    us = [u for u in gd.units.values() if u.kind == kind and u.color == color]
    assert (len(us), sum(u.strength for u in us)) == (count, total)


@pytest.mark.parametrize("code, strength", sorted(RED_UNITS.items()))
def test_red_unit(gd, code, strength):
    """Bell #1 set-up: each Red combat unit, its strength and home (= set-up) province."""
    [u] = [u for u in gd.combat_units(RED) if u.name == code]
    assert (u.strength, u.province) == (strength, code)


@pytest.mark.parametrize("code, home, strength", WHITE_UNITS)
def test_white_unit(gd, code, home, strength):
    """Bell #1 set-up: each White combat unit, its strength and home province (DON in DCOS)."""
    [u] = [u for u in gd.combat_units(WHITE) if u.name == code]
    assert (u.strength, u.province) == (strength, home)


def test_no_red_or_white_combat_units_beyond_the_bell(gd):
    """Bell #1 lists every Red and White combat unit; the data has exactly those."""
    assert {u.name for u in gd.combat_units(RED)} == set(RED_UNITS)
    assert {u.name for u in gd.combat_units(WHITE)} == {c for c, _, _ in WHITE_UNITS}


@pytest.mark.parametrize("color, name, value, province",
                         [(RED, *x) for x in RED_LEADERS] + [(WHITE, *x) for x in WHITE_LEADERS])
def test_leader(gd, color, name, value, province):
    """Bell #1 set-up: each leader's colour, value and set-up province (Lukomsky 'KULA' read KUBA)."""
    u = gd.by_name(name)
    assert (u.kind, u.color, u.strength, u.province) == ("leader", color, value, province)


def test_no_leaders_beyond_the_bell(gd):
    """Bell #1 lists every Red and White leader; the data has exactly those."""
    assert {u.name for u in gd.leaders(RED)} == {n for n, _, _ in RED_LEADERS}
    assert {u.name for u in gd.leaders(WHITE)} == {n for n, _, _ in WHITE_LEADERS}


@pytest.mark.parametrize(
    "uid, kind, color, name, province, source",
    [
        (111, "combat", RED, "TVER", "TVER", "004 [15.52]"),
        (212, "combat", WHITE, "DON", "DCOS", "Bell #1"),
        (151, "leader", RED, "Lenin", "PETR", "004 [15.32]"),
        (152, "leader", RED, "Trotsky", "TVER", "004 [15.32], [15.52]"),
        (266, "leader", WHITE, "Chatilov", "ASTR", "004 [27.12]"),
        (267, "leader", WHITE, "Ulagi", "ASTR", "004 [27.12]"),
        (268, "leader", WHITE, "Romanovsky", "KUBA", "004 [27.12]"),
        (269, "leader", WHITE, "Lukomsky", "KUBA", "004 [27.12]"),
        (270, "leader", WHITE, "Kappel", "OMSK", "004 [27.12]"),
    ],
)
def test_printed_identity_codes(gd, uid, kind, color, name, province, source):
    """Identity codes printed in the rules (source given per case)."""
    u = gd.units[uid]
    assert (u.kind, u.color, u.name, u.province) == (kind, color, name, province), source


@pytest.mark.parametrize(
    "kind, color, lo, hi",
    [("combat", RED, 100, 199), ("leader", RED, 151, 180), ("combat", WHITE, 200, 299), ("leader", WHITE, 251, 270)],
)
def test_identity_code_ranges(gd, kind, color, lo, hi):
    """Red units 1xx, Red leaders 151-180, White units 2xx, White leaders 251-270 (004 [27.12], [15.32])."""
    ids = [u.id for u in gd.units.values() if u.kind == kind and u.color == color]
    assert ids and all(lo <= i <= hi for i in ids), sorted(i for i in ids if not lo <= i <= hi)


def test_leader_ids_fill_their_ranges(gd):
    """30 Red leaders in 151-180 and 20 White leaders in 251-270: each range is used exactly."""
    assert sorted(u.id for u in gd.leaders(RED)) == list(range(151, 181))
    assert sorted(u.id for u in gd.leaders(WHITE)) == list(range(251, 271))


def test_identity_codes_unique(gd, raw):
    """Identity codes break ties (004 [17.0], [22.1]), so no two counters share one (checked on the raw file)."""
    c = raw["counters"]
    ids = [e["id"] for key in ("red_unit", "white_unit", "red_leader", "white_leader", "blue_unit", "green_unit")
           for e in c[key]] + [c["imperial"][k]["id"] for k in ("czar", "gold")] + [e["id"] for e in c["optional_unit"]]
    dupes = [i for i, n in Counter(ids).items() if n > 1]
    assert not dupes
    assert len(ids) == len(full().units)          # (optional counters included: GameData.optional_units)


# --- Asterisk leaders (004 [15.52]) ----------------------------------------------------

@pytest.mark.parametrize("name", ["Lenin", "Trotsky", "Kalinin", "Krasnov"])
def test_asterisk_leaders_from_the_bell(gd, name):
    """Bell #1 shows Lenin with RU8 PETR, Kalinin with RU3 KALU, Krasnov with WU8 DON; Trotsky 004 [15.52]."""
    assert gd.by_name(name).asterisk


def test_trotsky_stacks_with_tver_unit_111(gd):
    """004 [15.52]: Trotsky (#152) must be stacked with the Red TVER combat unit (#111)."""
    assert gd.units[152].asterisk and gd.units[152].province == gd.units[111].province == "TVER"


def test_every_asterisk_leader_has_a_unit_of_his_colour(gd):
    """004 [15.52]: an asterisk leader starts stacked with the combat unit of his colour in his province."""
    bad = [u.name for u in gd.leaders() if u.asterisk and not any(
        v.color == u.color and v.province == u.province for v in gd.combat_units())]
    assert not bad


@pytest.mark.parametrize("code", sorted(RED_UNITS))
def test_every_red_unit_has_exactly_one_asterisk_leader(gd, code):
    """Bell #1: every Red unit starts with one leader of its province stacked on it (004 [15.52])."""
    stars = [u.name for u in gd.leaders(RED) if u.asterisk and u.province == code]
    assert len(stars) == 1, stars


def test_lone_white_units_are_exactly_the_five_of_27_12(gd):
    """004 [27.12]: SARA, URAL, TIFL, KIRG, SAMA are the White units without a leader of their own."""
    lone = {u.province for u in gd.combat_units(WHITE)
            if not any(ld.asterisk and ld.province == u.province for ld in gd.leaders(WHITE))}
    assert lone == set(LONE_WHITE_UNITS)


@pytest.mark.parametrize("province, name", sorted(LONE_WHITE_UNITS.items()))
def test_unitless_white_leaders_not_asterisked(gd, province, name):
    """004 [27.12]: Chatilov, Ulagi, Romanovsky, Lukomsky, Kappel are unit-less; solitaire puts them on
    the lone White units (Chatilov SARA, Ulagi URAL, Romanovsky TIFL, Lukomsky KIRG, Kappel SAMA)."""
    assert not gd.by_name(name).asterisk
    assert [u.name for u in gd.combat_units(WHITE) if u.province == province] == [province]


def test_white_units_with_a_leader_have_exactly_one(gd):
    """Bell #1 / 004 [27.12]: the other 15 White units each carry one asterisked White leader."""
    for u in gd.combat_units(WHITE):
        stars = [ld.name for ld in gd.leaders(WHITE) if ld.asterisk and ld.province == u.province]
        assert len(stars) == (0 if u.province in LONE_WHITE_UNITS else 1), (u.name, stars)


@pytest.mark.parametrize("name, province", [("Lenin", "PETR"), ("Trotsky", "TVER")])
def test_solitaire_red_leaders_have_their_units(gd, name, province):
    """004 [27.13]: solitaire deploys Lenin (151) on the Red unit in PETR, Trotsky (152) on the one in TVER."""
    assert gd.by_name(name).province == province
    assert any(u.province == province for u in gd.combat_units(RED))


# --- Imperial units (004 [13.0]) --------------------------------------------------------

@pytest.mark.parametrize("which, province, color", [("czar", "EKAT", RED), ("gold", "OMSK", WHITE)])
def test_imperial_units(gd, which, province, color):
    """004 [13.0]: the Czar under the Red unit in EKAT, the Gold under the White unit in OMSK."""
    imp, under = (gd.czar, gd.czar_under) if which == "czar" else (gd.gold, gd.gold_under)
    i, u = gd.units[imp], gd.units[under]
    assert i.kind == "imperial" and i.province == province
    assert (u.kind, u.color, u.province) == ("combat", color, province)


# --- Blue and Green units (004 [5.6], [5.7]; Bell #1/#4) -------------------------------

@pytest.mark.parametrize("nat, strength, province, n", BLUE_UNITS)
def test_blue_units_from_the_bell(gd, nat, strength, province, n):
    """Bell #4 unaligned units (= Bell #1 positions) plus Bell #4 eliminations: Blue units."""
    found = [u for u in gd.combat_units(BLUE)
             if (u.nationality, u.strength, u.province) == (nat, strength, province)]
    assert len(found) == n


@pytest.mark.parametrize("nat, strength, province, n", GREEN_UNITS)
def test_green_units_from_the_bell(gd, nat, strength, province, n):
    """Bell #4 unaligned units (= Bell #1 positions) plus Bell #4 eliminations: Green units."""
    found = [u for u in gd.combat_units(GREEN)
             if (u.nationality, u.strength, u.province) == (nat, strength, province)]
    assert len(found) == n


@pytest.mark.xfail(strict=True, reason=(
    "facts.md §1: 'The players' notes (004 [29.0]) imply a Siberian Green unit in Krasnoyarsk'; "
    "counters.toml sets up none there (its provenance reads the notes as hypothetical and follows "
    "the Bell #4 unaligned list)"))
def test_siberian_green_unit_in_krasnoyarsk(gd):
    """004 [29.0] players' notes: a Siberian Green combat unit in Krasnoyarsk."""
    assert any(u.nationality == "SB" and u.province == "KRAS" for u in gd.combat_units(GREEN))


def test_blue_nationalities(gd):
    """004 [5.6]: GE, CZ, FR, HU, RM (printed "RU"), GR, JA, US, BR (printed "UK" in the Bell)."""
    assert set(gd.blue_names) == {"GE", "CZ", "FR", "HU", "RM", "GR", "JA", "US", "BR"}
    assert {u.nationality for u in gd.combat_units(BLUE)} <= set(gd.blue_names)


def test_green_nationalities_and_home_regions(gd):
    """004 [5.7] / facts §1: the seven nationalist forces and their home regions."""
    assert set(gd.green_names) == set(GREEN_HOME)
    assert dict(gd.green_home_region) == GREEN_HOME


def test_green_units_start_in_their_home_region(gd):
    """Bell #4 unaligned list: each Green unit is set up in its own nationalist region."""
    bad = [u.label for u in gd.combat_units(GREEN)
           if gd.provinces[u.province].region != gd.green_home_region[u.nationality]]
    assert not bad


def test_blue_control_markers_and_immobile_nationalities(gd):
    """004 [5.61]: control markers for FR, BR, US, JA, CZ only; 004 [5.62]: HU, RM, GR, GE never move or attack."""
    assert set(gd.markers.blue_control) == {"FR", "BR", "US", "JA", "CZ"}
    assert len(gd.markers.blue_control) == 5
    assert gd.immobile == {"HU", "RM", "GR", "GE"}
    assert gd.immobile.isdisjoint(gd.markers.blue_control)
    assert gd.immobile | set(gd.markers.blue_control) == set(gd.blue_names)


def test_czechs_and_japanese_stay_in_siberia(gd):
    """004 [5.65]: CZ and JA never leave Siberia, so they are also set up there."""
    assert gd.siberia_only == {"CZ", "JA"}
    bad = [u.label for u in gd.combat_units(BLUE)
           if u.nationality in gd.siberia_only and gd.provinces[u.province].region != "Siberia"]
    assert not bad


# --- Markers (004 [15.2]-[15.3], [5.61], [5.67], [5.71]) -------------------------------

def test_marker_counts(gd):
    """004 [15.22], [15.23], [15.32]: 15 Politburo (13 initial), 15 Assassin (2 initial)."""
    m = gd.markers
    assert (m.politburo, m.politburo_initial) == (15, 13)
    assert (m.assassin, m.assassin_initial) == (15, 2)
    # 004 [15.32]: the two Politburo markers not in the randomizer go to Lenin's and Trotsky's holders.
    assert m.politburo - m.politburo_initial == 2


def test_blue_withdrawal_markers(gd):
    """004 [5.67]: five Blue Withdrawal markers; GE (critique) and BR (Bell "UK Withdraw") among them."""
    w = gd.markers.blue_withdrawal
    assert len(w) == 5 and len(set(w)) == 5
    assert {"GE", "BR"} <= set(w)
    assert set(w) <= set(gd.blue_names)


def test_green_control_markers(gd):
    """004 [5.71], [15.23]: seven Green Control markers BA, BY, UK, TC, SB, FN, PO."""
    g = gd.markers.green_control
    assert len(g) == 7 and set(g) == {"BA", "BY", "UK", "TC", "SB", "FN", "PO"}


def test_player_control_marker_sets(gd):
    """004 [15.21]: six sets of Player Control Markers, A-F, 35 counters each."""
    assert gd.markers.player_sets == ("A", "B", "C", "D", "E", "F")
    assert gd.markers.player_set_size == 35


def test_initial_forces_randomizer_holds_65(gd):
    """004 [15.22]: 30 Red leaders + 20 White leaders + 13 Politburo + 2 Assassins = 65."""
    m = gd.markers
    parts = (len(gd.leaders(RED)), len(gd.leaders(WHITE)), m.politburo_initial, m.assassin_initial)
    assert parts == (30, 20, 13, 2) and sum(parts) == 65


def test_auxiliary_forces_randomizer_holds_30(gd):
    """004 [15.23]: 5 Blue Control + 5 Blue Withdrawal + 7 Green Control + 13 Assassins = 30."""
    m = gd.markers
    parts = (len(m.blue_control), len(m.blue_withdrawal), len(m.green_control), m.assassin - m.assassin_initial)
    assert parts == (5, 5, 7, 13) and sum(parts) == 30


# =====================================================================================
# 2. The map
# =====================================================================================

PRINTED_CODES = (
    "ARCH ASTR BAKU BARN CHEL CHER CHIT COUR DAGH DCOS EKAT ESTO FINL GROD IRKU KALU KAZA KHAR KHER KIEV "
    "KIRG KOVN KRAS KUBA KURS LIVO MINS MOHI NOVG OLON OMSK OREL OREN PETR POLA POLT PSKO RYAZ SAMA SARA "
    "SMOL STAV TAUR TERE TIFL TULA TVER URAL VITE VLDM VLDV VOLO YARO YEKA YELI"
).split()
# Province names printed in the text -> code where the sources print one too (004 [15.41]: usually
# the first four letters of the name).
NAMED = {
    "Vyatka": None, "Kostroma": None, "Tsitsikar": None, "Perm": None, "Penza": None, "Kazan": "KAZA",
    "Minsk": "MINS", "Voronezh": None, "Yekaterinoslav": "YEKA", "Kovno": "KOVN", "Krasnoyarsk": "KRAS",
    "Kharkov": "KHAR", "Don Cossacks": "DCOS", "Kuban": "KUBA", "Astrakhan": "ASTR", "Omsk": "OMSK",
}


@pytest.mark.parametrize("code", PRINTED_CODES)
def test_printed_province_code_exists(gd, code):
    """facts §2: every province code the documents print is a province (4 letters, 004 [15.41])."""
    assert code in gd.provinces


@pytest.mark.parametrize("name, code", sorted(NAMED.items()))
def test_province_named_in_text_exists(gd, name, code):
    """facts §2: provinces named in the text (Bell, Profile, 2011 errata) exist by name."""
    found = [p.code for p in gd.provinces.values() if p.name == name]
    assert len(found) == 1
    if code is not None:
        assert found == [code]


@pytest.mark.parametrize("code, name", [("VLDV", "Vladivostok"), ("VLDM", "Vladimir")])
def test_vladivostok_and_vladimir_codes(gd, code, name):
    """004 [15.41]: VLAD (printed VLDV in the Bell) = Vladivostok; VLDM = Vladimir."""
    assert gd.provinces[code].name == name


def test_province_codes_are_four_capital_letters(gd):
    """004 [15.41]: province codes are four-letter abbreviations."""
    assert all(len(c) == 4 and c.isalpha() and c.isupper() for c in gd.provinces)


def test_province_count_fits_the_random_events_table(gd):
    """Profile: every epidemic province once on a 36-cell table at 1/36 odds -> roughly 80-110 provinces."""
    assert 80 <= len(gd.provinces) <= 110


def test_regions(gd):
    """004 [15.41] (G, W, U, T, S, C) and [5.76] (Baltic, Poland), [5.75] (Finland): nine regions, all used."""
    nine = {"Greater Russia", "White Russia", "Ukraine", "Trans-Caucasus", "Siberia", "Cossack Territories",
            "Baltic", "Poland", "Finland"}
    assert set(data.REGIONS) == nine
    assert {p.region for p in gd.provinces.values()} == nine


@pytest.mark.parametrize("region, letter", [
    ("Greater Russia", "G"), ("White Russia", "W"), ("Ukraine", "U"), ("Trans-Caucasus", "T"), ("Siberia", "S"),
    ("Cossack Territories", "C"),
])
def test_region_letters(gd, region, letter):
    """004 [15.41]: region codes on the counters G, W, U, T, S, C."""
    assert gd.region_letters[region] == letter


@pytest.mark.parametrize("code, region, source", [
    ("SARA", "Cossack Territories", "004 [27.12] Saratov/Cossack"),
    ("URAL", "Cossack Territories", "004 [27.12] Uralsk/Cossack"),
    ("KIRG", "Cossack Territories", "004 [27.12] Kirghiz/Cossack"),
    ("SAMA", "Cossack Territories", "004 [27.12] Samara/Cossack"),
    ("TIFL", "Trans-Caucasus", "004 [27.12] Tiflis/Trans Caucasus"),
    ("PETR", "Greater Russia", "004 [27.13] Petrograd/Greater Russia"),
    ("TVER", "Greater Russia", "004 [27.13] Tver/Greater Russia"),
    ("EKAT", "Siberia", "004 [13.0] the Czar sits in Siberia"),
    ("OMSK", "Siberia", "004 [13.0] the gold sits in Siberia; [29.0] Omsk (Siberia)"),
    ("VLDV", "Siberia", "004 [5.66] the Vladivostok province in Siberia"),
    ("CHIT", "Siberia", "004 [29.0] Chita (Siberia)"),
    ("KRAS", "Siberia", "004 [29.0] Krasnoyarsk (Siberia)"),
])
def test_province_region(gd, code, region, source):
    """Region of provinces the rules name together with their region."""
    assert gd.provinces[code].region == region, source


def test_siberia_lies_along_the_railway(gd):
    """Design notes [3.0]: Siberia shows only provinces along the Trans-Siberian railway: every Siberian
    province is on a rail line and the Siberian rail net is connected."""
    sib = {c for c, p in gd.provinces.items() if p.region == "Siberia"}
    assert all(gd.provinces[c].rail for c in sib)
    start = next(iter(sorted(sib)))
    seen, todo = {start}, [start]
    while todo:
        for n in gd.provinces[todo.pop()].rail & sib:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    assert seen == sib


def test_tver_stands_for_moscow(gd):
    """004 [9.13]: Tver stands for the Moscow area; there is no separate Moscow province."""
    assert "TVER" in gd.provinces
    assert not [p.code for p in gd.provinces.values() if "moscow" in p.name.lower() or p.code == "MOSC"]


def test_finnish_and_polish_limits(gd):
    """004 [5.75]: Finns enter only ARCH, OLON, PETR, FINL; 004 [5.76]: Poles enter G, W, Baltic, U, Poland."""
    assert gd.finnish_provinces == {"ARCH", "OLON", "PETR", "FINL"}
    assert gd.finnish_provinces <= set(gd.provinces)
    assert gd.provinces["FINL"].region == "Finland"
    assert gd.polish_regions == {"Greater Russia", "White Russia", "Baltic", "Ukraine", "Poland"}


# --- Movement facts -----------------------------------------------------------------------

def adjacent(gd, a, b) -> bool:
    return b in gd.provinces[a].adjacent


def test_kerch_straits_white_only(gd):
    """004 [5.32]: only White units may move Taurida-Kuban via the Kerch Straits."""
    assert adjacent(gd, "TAUR", "KUBA") and adjacent(gd, "KUBA", "TAUR")
    assert frozenset({"TAUR", "KUBA"}) in gd.white_only_borders


def test_lake_pskov(gd):
    """004 [5.33]: no move Petrograd-Livonia directly (Lake Pskov)."""
    assert not adjacent(gd, "PETR", "LIVO") and not adjacent(gd, "LIVO", "PETR")
    assert frozenset({"PETR", "LIVO"}) in gd.lake_borders


@pytest.mark.parametrize("path", [
    "PETR-NOVG-TVER-RYAZ", "RYAZ-TULA-KALU-SMOL-PSKO-PETR", "PETR-PSKO-SMOL-OREL-KURS",
])
def test_postal_example_paths(gd, path):
    """004 [17.0] postal examples of 004 [5.0]/[10.0]: each step is between adjacent provinces."""
    steps = path.split("-")
    assert [(a, b) for a, b in pairwise(steps) if not adjacent(gd, a, b)] == []


@pytest.mark.parametrize("a, b, adj", [
    ("KURS", "CHER", True), ("VOLO", "ARCH", True), ("PSKO", "VITE", True), ("OREL", "POLT", False),
])
def test_bell_4_subversive_attack_adjacencies(gd, a, b, adj):
    """Bell #4 subversive attacks: KURS-CHER, VOLO-ARCH, PSKO-VITE adjacent; OREL on POLT rejected as illegal."""
    assert adjacent(gd, a, b) is adj and adjacent(gd, b, a) is adj


def test_vladivostok_port_and_czech_exit(gd):
    """004 [5.66]: Czechs exit only from Vladivostok; 004 [13.32]: emigration is from a port."""
    assert gd.provinces["VLDV"].port
    assert gd.czech_exit == "VLDV"


@pytest.mark.parametrize("code", ["TVER", "DCOS", "KURS", "CHEL"])
def test_rail_hubs(gd, code):
    """Profile: Tver, Don Cossacks, Kursk, Chelyabinsk are the key provinces for rail movement."""
    assert len(gd.provinces[code].rail) >= 3


@pytest.mark.parametrize("code", ["TVER", "DCOS", "RYAZ", "SAMA"])
def test_key_movement_provinces(gd, code):
    """Profile: Tver, Don Cossacks, Ryazan, Samara are the key provinces for regular movement."""
    assert len(gd.provinces[code].adjacent) >= 5


# --- Bell turn-1 moves (Bell #1/#2 vs Bell #3), positions as at the start of the turn -------

LEADER_MA = 5  # 004 [5.0]: all Leaders have a Movement Allowance of five.


def occupants(gd) -> dict[str, set[str]]:
    """Colours of the combat units and leaders in each province at set-up (Imperial units excluded)."""
    occ: dict[str, set[str]] = {}
    for u in gd.units.values():
        if u.kind != "imperial":
            occ.setdefault(u.province, set()).add(u.color)
    return occ


def can_step(gd, a, b, color, rail) -> bool:
    """One step a->b: contiguous (004 [5.24]), along a rail line for rail movement (004 [5.52]), not
    across the Kerch Straits unless White (004 [5.32]); lakes are never adjacent (004 [5.33])."""
    if rail and b not in gd.provinces[a].rail:
        return False
    if not adjacent(gd, a, b):
        return False
    return color == WHITE or frozenset({a, b}) not in gd.white_only_borders


def may_pass(occ, province, color) -> bool:
    """004 [5.27]: a force must stop on entering a province held by a unit of another colour."""
    return occ.get(province, set()) <= {color}


def path_problems(gd, path, color, rail) -> list[str]:
    occ = occupants(gd)
    out = [f"{a}-{b}" for a, b in pairwise(path) if not can_step(gd, a, b, color, rail)]
    out += [f"stopped at {p}" for p in path[1:-1] if not may_pass(occ, p, color)]
    if not rail and len(path) - 1 > LEADER_MA:
        out.append(f"{len(path) - 1} movement points")
    return out


def bfs_reaches(gd, start, dest, color, rail, via=()) -> bool:
    """Whether some legal route start->dest exists that passes through every province in ``via``."""
    occ = occupants(gd)
    need = frozenset(via)
    first = (start, need - {start})
    dist = {first: 0}
    todo = deque([first])
    while todo:
        here, left = todo.popleft()
        if here == dest and not left:
            return True
        if here != start and not may_pass(occ, here, color):
            continue
        if not rail and dist[(here, left)] >= LEADER_MA:
            continue
        for n in gd.provinces[here].adjacent:
            if can_step(gd, here, n, color, rail):
                state = (n, left - {n})
                if state not in dist:
                    dist[state] = dist[(here, left)] + 1
                    todo.append(state)
    return False


# (leader, colour, rail?, path as the Bell implies it, provinces the force must pass: pick-ups)
TURN1_MOVES = [
    ("Wrangel", WHITE, True, "ASTR-KIRG-SAMA-UFIM-EKAT", ("KIRG", "SAMA")),
    ("Miller", WHITE, True, "ARCH-VOLO-VYAT-PERM-EKAT", ()),
    ("Kolchak", WHITE, True, "OMSK-EKAT", ()),
    ("Blucher", RED, True, "EKAT-PERM-VYAT-VOLO", ()),
    ("Stalin", RED, True, "KURS-OREL-TULA-TVER-YARO-VOLO-ARCH", ()),
    ("Deniken", WHITE, False, "KUBA-DCOS-TSAR-KIRG-URAL-SAMA", ("URAL",)),
    ("Abramov", WHITE, False, "YEKA-DCOS-STAV-TERE-DAGH", ()),
    ("Lukomsky", WHITE, False, "KUBA-TERE-TIFL", ()),
    ("Lenin", RED, False, "PETR-PSKO-LIVO", ()),
    ("Dutov", WHITE, False, "OREN-URAL", ()),
    ("Bogomoletz", RED, False, "KRAS-BARN", ()),
    ("Yudenich", WHITE, False, "LIVO-COUR", ()),
    ("Antonov", RED, False, "VITE-SMOL-OREL", ()),
    ("Frunze", RED, False, "VLDM-TVER-PSKO", ()),
    ("Vatzetis", RED, False, "YARO-TVER-PSKO", ()),
]
TURN1_IDS = [m[0] for m in TURN1_MOVES]


@pytest.mark.parametrize("leader, color, rail, path, via", TURN1_MOVES, ids=TURN1_IDS)
def test_bell_turn1_move_path_is_legal(gd, leader, color, rail, path, via):
    """Bell #1/#2 -> #3: the turn-1 move is legal step by step (004 [5.2], [5.5]; postal reading 004 [17.0]);
    rail moves along rail links only, overland moves within the leader's 5 movement points."""
    steps = path.split("-")
    u = gd.by_name(leader)
    assert (u.color, u.province) == (color, steps[0])
    assert set(via) <= set(steps)
    assert path_problems(gd, steps, color, rail) == []


@pytest.mark.parametrize("leader, color, rail, path, via", TURN1_MOVES, ids=TURN1_IDS)
def test_bell_turn1_move_route_exists(gd, leader, color, rail, path, via):
    """Same moves, found by search: some legal route (rail or at most 5 steps overland) exists."""
    steps = path.split("-")
    assert bfs_reaches(gd, steps[0], steps[-1], color, rail, via)


def test_lenin_to_livonia_is_not_direct(gd):
    """Bell: Lenin PETR->LIVO, which 004 [5.33] forbids as a direct move, so it needs an intermediate step."""
    assert not adjacent(gd, "PETR", "LIVO")
    assert bfs_reaches(gd, "PETR", "LIVO", RED, rail=False)


@pytest.mark.parametrize("leader, imperial", [("Blucher", "czar"), ("Kolchak", "gold")])
def test_imperial_units_start_with_the_leaders_who_move_them(gd, leader, imperial):
    """Bell turn 1: Blucher moves EKAT->VOLO with the Czar, Kolchak OMSK->EKAT with the Gold."""
    uid = gd.czar if imperial == "czar" else gd.gold
    assert gd.units[uid].province == gd.by_name(leader).province


def test_kerch_straits_closed_to_red(gd):
    """004 [5.32]: a Red force cannot go TAUR->KUBA directly, a White force can."""
    assert can_step(gd, "TAUR", "KUBA", WHITE, rail=False)
    assert not can_step(gd, "TAUR", "KUBA", RED, rail=False)


# -- cities (reconstructed; 001 Additional Randomizer Draws) ----------------------------

REGION_CAPITALS = {"Greater Russia": "Moscow", "White Russia": "Minsk", "Ukraine": "Kiev", "Trans-Caucasus": "Tiflis",
                   "Siberia": "Omsk", "Cossack Territories": "Rostov", "Baltic": "Riga", "Finland": "Helsingfors",
                   "Poland": "Warsaw"}


def test_cities_tver_stands_for_moscow(gd):
    """001 Additional Randomizer Draws names Moscow and Petrograd; Tver stands for the Moscow area
    (004 [9.13]), so Moscow is Tver's city."""
    assert gd.provinces["TVER"].city == "Moscow"
    assert gd.provinces["PETR"].city == "Petrograd"


def test_every_region_capital_is_a_city_in_its_region(gd):
    """The critique: "Regional capitals were of primary importance in the war" - each region's
    capital is on our map, in a province of that region."""
    where = {p.city: p for p in gd.provinces.values() if p.city}
    for region, capital in REGION_CAPITALS.items():
        assert capital in where and where[capital].region == region, capital


def test_cities_are_unique_one_a_province_and_named_in_the_provenance(gd, raw):
    """Each city once, in one province; the provenance lists every one of them."""
    names = [p.city for p in gd.provinces.values() if p.city]
    assert len(names) == len(set(names)) == 36
    prov = raw["map"]["provenance"]["reconstructed"]
    text = " ".join(prov.split())
    assert all(n in text for n in names if n != "Rostov") and "Rostov for the Don" in text
    assert all(isinstance(p.get("city", ""), str) for p in raw["map"]["province"])


def test_finland_and_poland_are_not_russian(gd):
    """001's "Russian province": Poland and Finland "had both won independence from Russia" by
    June 1918 (004, historical notes); every other province is Russian."""
    assert gd.russian == frozenset(c for c, p in gd.provinces.items() if p.region not in ("Finland", "Poland"))
    assert "FINL" not in gd.russian and "POLA" not in gd.russian and "OMSK" in gd.russian and "LIVO" in gd.russian


def test_a_bad_city_is_refused(tmp_path):
    """The loader names a province whose city is not a name."""
    d = tmp_path / "data"
    shutil.copytree(data.shipped(), d, ignore=shutil.ignore_patterns("__init__.py", "__pycache__"))
    text = (d / "map.toml").read_text()
    (d / "map.toml").write_text(text.replace('city = "Kiev"', "city = 7"))
    with pytest.raises(data.DataError, match="province KIEV: field 'city'"):
        data.load(d)


# =====================================================================================
# 3. Tables
# =====================================================================================

CRT_COLUMNS = ("1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1")


def crt_column(gd, odds) -> list[str]:
    i = gd.tables.crt_columns.index(odds)
    return [row[i] for row in gd.tables.crt]


def test_crt_shape(gd):
    """004 [8.0]-[8.5]: one die (6 rows), odds columns 1:2 to 6:1, results Ae, De, Ex only."""
    t = gd.tables
    assert t.crt_columns == CRT_COLUMNS
    assert len(t.crt) == 6 and all(len(r) == len(CRT_COLUMNS) for r in t.crt)
    assert {x for r in t.crt for x in r} <= {"Ae", "De", "Ex"}


@pytest.mark.parametrize("odds", ["3:1", "4:1", "5:1", "6:1"])
def test_crt_defender_always_eliminated_at_3_to_1(gd, odds):
    """Profile: 'A guaranteed De at 3-1 or better': every result at 3:1+ eliminates the defender (De or Ex)."""
    assert set(crt_column(gd, odds)) <= {"De", "Ex"}


@pytest.mark.parametrize("odds, result", [
    ("1:1", "Ex"), ("1:1", "Ae"), ("4:1", "De"), ("5:1", "De"), ("2:1", "De"), ("6:1", "De"),
])
def test_crt_results_observed_in_the_bell(gd, odds, result):
    """Bell #4: 1:1 gave Ex and Ae; 4:1 and 5:1 gave De; subversive 2:1, 6:1 (and 7:1 as 6:1) gave De."""
    assert result in crt_column(gd, odds)


def test_purge_table_shape(gd):
    """004 [11.0]/[11.4]: two dice (rows 2-12); results a number or C; critique: a '1-10' column exists."""
    t = gd.tables
    assert len(t.purge) == 11
    assert t.purge_columns[0] == "1-10"
    assert all(len(r) == len(t.purge_columns) for r in t.purge)
    assert all(x == "C" or x.isdigit() for r in t.purge for x in r)
    assert gd.purge_column(1) == gd.purge_column(10) == 0
    assert gd.purge_column(11) == 1


def test_every_purge_column_can_end_a_chain(gd):
    """004 [11.2]: a purge chain ends on a number, so every column has some numeric result."""
    t = gd.tables
    for i, col in enumerate(t.purge_columns):
        assert any(r[i].isdigit() for r in t.purge), col


def test_purge_bell_4_strength_29_roll_2(gd):
    """Bell #4: Purge strength 29 (12 + 3 PM with 9 + 5), roll 2 -> 3 leadership points."""
    assert gd.tables.purge[2 - 2][gd.purge_column(29)] == "3"


def test_random_events_cells(gd):
    """004 [12.0]/[12.2]: first die = row, second die = column, 36 cells; each Epidemic, Subversive Attacks
    Doubled or Draw from the Randomizer (004 [12.1])."""
    ev = gd.tables.random_events
    assert set(ev) == {(r, c) for r in range(1, 7) for c in range(1, 7)}
    assert all(e.roll == k for k, e in ev.items())
    assert {e.result for e in ev.values()} <= {"epidemic", "subversion_doubled", "draw"}


def test_random_events_each_province_at_most_once(gd):
    """Profile: every province appears once at 1/36 odds, so no province is in two cells."""
    names = [p for e in gd.tables.random_events.values() for p in e.provinces]
    assert [p for p, n in Counter(names).items() if n > 1] == []
    assert set(names) <= set(gd.provinces)


def test_random_events_epidemics_name_one_to_four_provinces(gd):
    """004 [12.11]: an Epidemic names one or more provinces (one to four on the printed table)."""
    for e in gd.tables.random_events.values():
        if e.result == "epidemic":
            assert 1 <= len(e.provinces) <= 4, e
        else:
            assert e.provinces == (), e


def test_random_events_other_results_present(gd):
    """004 [12.12], [12.13]: the table has Subversive Attacks Doubled and Draw from the Randomizer cells."""
    results = Counter(e.result for e in gd.tables.random_events.values())
    assert results["subversion_doubled"] >= 1 and results["draw"] >= 1


@pytest.mark.parametrize("roll, province", [((2, 5), "KOVN"), ((3, 2), "YEKA"), ((4, 1), "VORO")])
def test_random_events_errata_cells(gd, roll, province):
    """2011 reprint errata: 2-5 includes Kovno, 3-2 Yekaterinoslav, 4-1 Voronezh."""
    e = gd.tables.random_events[roll]
    assert e.result == "epidemic" and province in e.provinces


@pytest.mark.parametrize("group, source", [
    ({"VYAT", "KALU", "KIEV"}, "Bell #3 epidemic roll"),
    ({"TSIT", "KOST", "RYAZ", "TIFL"}, "Bell #4 epidemic roll"),
    ({"KAZA", "MINS", "PERM", "PENZ"}, "Profile"),
])
def test_random_events_known_epidemic_groups(gd, group, source):
    """Known epidemic groups are exactly one cell's province set."""
    cells = [e for e in gd.tables.random_events.values() if set(e.provinces) == group]
    assert len(cells) == 1 and cells[0].result == "epidemic", source


def assassination_succeeds(gd, roll, markers, value) -> bool:
    """004 [10.0]: success when 2d6 + (markers - 1) - victim's value >= the threshold."""
    return roll + (markers - 1) - value >= gd.tables.assassination_success


def test_assassination_threshold_and_worked_example(gd):
    """004 [10.0]: success at 7 or more; example: 3 markers, roll 7, value 3 -> 6, fails."""
    assert gd.tables.assassination_success == 7
    assert 7 + (3 - 1) - 3 == 6
    assert not assassination_succeeds(gd, roll=7, markers=3, value=3)
    assert assassination_succeeds(gd, roll=8, markers=3, value=3)


def test_victory_points_schedule(gd):
    """004 [14.4]: Imperial unit 5 points, Politburo marker 2 (units score strength, leaders value)."""
    v = gd.tables.victory
    assert (v["imperial_unit"], v["politburo_marker"]) == (5, 2)


@pytest.mark.parametrize("color, where, items, source", [
    ("red", "chart", {"white_leader", "white_unit", "blue_unit", "green_unit", "politburo", "czar_executed"},
     "004 [14.41]"),
    ("red", "map", {"red_leader", "red_unit", "gold"}, "004 [14.42]"),
    ("white", "chart", {"red_leader", "red_unit", "green_unit", "czech_unit", "imperial_emigrated"}, "004 [14.43]"),
    ("white", "map", {"white_leader", "white_unit", "czar", "gold"}, "004 [14.44]"),
    ("red", "czech", "face_up", "004 [14.45]"),
    ("white", "czech", "face_down", "004 [14.45]"),
])
def test_victory_points_colour_lists(gd, color, where, items, source):
    """004 [14.41]-[14.47]: what scores Red and White points, on the chart and on the map."""
    got = gd.tables.victory[color][where]
    assert (set(got) if isinstance(items, set) else got) == items, source


# =====================================================================================
# rcw data check
# =====================================================================================

def test_data_check_json(capsys, raw):
    """``rcw data check --json`` prints the summary; its numbers agree with the raw files and the facts."""
    assert cli.main(["data", "check", "--json"]) == 0
    s = json.loads(capsys.readouterr().out)
    # the fixed keys, and (001) the cities and the optional forces beside the printed counter mix
    assert set(s) == {"provinces", "regions", "rail_links", "ports", "counters", "markers", "tables",
                      "cities", "optional_counters"}
    assert set(s["counters"]) == {"red_leaders", "white_leaders", "red_units", "white_units", "blue_units",
                                  "green_units"}
    assert set(s["markers"]) == {"politburo", "assassin", "blue_control", "blue_withdrawal", "green_control"}
    assert set(s["tables"]) == {"crt_columns", "purge_columns", "random_events_cells"}

    provs = raw["map"]["province"]
    assert s["provinces"] == len(provs)
    assert s["regions"] == dict(Counter(p["region"] for p in provs))
    assert s["rail_links"] == len({frozenset((p["code"], r)) for p in provs for r in p["rail"]})
    assert sorted(s["ports"]) == sorted(p["code"] for p in provs if p["port"])

    c = raw["counters"]

    def tally(key, field, value_key):            # (the printed counter mix: no option's counters)
        es = [e for e in c[key] if not e.get("option")]
        return {"count": len(es), value_key: sum(e[field] for e in es)}

    assert s["counters"] == {
        "red_leaders": tally("red_leader", "value", "value"),
        "white_leaders": tally("white_leader", "value", "value"),
        "red_units": tally("red_unit", "strength", "strength"),
        "white_units": tally("white_unit", "strength", "strength"),
        "blue_units": tally("blue_unit", "strength", "strength"),
        "green_units": tally("green_unit", "strength", "strength"),
    }
    # Profile totals.
    assert s["counters"]["red_leaders"] == {"count": 30, "value": 40}
    assert s["counters"]["white_leaders"] == {"count": 20, "value": 25}
    assert s["counters"]["red_units"] == {"count": 20, "strength": 80}
    assert s["counters"]["white_units"] == {"count": 20, "strength": 60}
    assert s["counters"]["blue_units"] == {"count": 22, "strength": 59}
    # the counters options bring in, by option (001's forces, the critique's Czechs)
    assert s["optional_counters"]["czech_penza_samara"] == {"count": 2, "strength": 6}
    # 004 [15.22]-[15.23], [5.61], [5.67], [5.71].
    assert s["markers"] == {"politburo": 15, "assassin": 15, "blue_control": 5, "blue_withdrawal": 5,
                            "green_control": 7}
    assert s["tables"] == {
        "crt_columns": list(CRT_COLUMNS),
        "purge_columns": raw["tables"]["purge"]["columns"],
        "random_events_cells": 36,
    }


def test_data_check_plain(capsys):
    """``rcw data check`` validates the shipped data and exits 0."""
    assert cli.main(["data", "check"]) == 0
    assert capsys.readouterr().out.startswith("data OK")


# =====================================================================================
# The loader rejects corrupted data, naming the bad entry
# =====================================================================================

@pytest.fixture
def data_copy(tmp_path) -> Path:
    d = tmp_path / "data"
    shutil.copytree(str(data.shipped()), d)
    return d


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in {path.name}"
    path.write_text(text.replace(old, new))


# (id, file, old text, new text, message the DataError must match)
CORRUPTIONS = [
    ("asymmetric-adjacency", "map.toml",
     'code = "ARCH"\nname = "Archangel"\nregion = "Greater Russia"\nx = 376\ny = 73\nport = true\n'
     'adjacent = ["FINL", "OLON", "VOLO"]',
     'code = "ARCH"\nname = "Archangel"\nregion = "Greater Russia"\nx = 376\ny = 73\nport = true\n'
     'adjacent = ["OLON", "VOLO"]',
     r"province FINL: adjacency is not symmetric: FINL lists ARCH but ARCH does not list FINL"),
    ("rail-not-adjacent", "map.toml",
     'rail = ["ESTO", "FINL", "NOVG", "OLON", "PSKO"]',
     'rail = ["ESTO", "FINL", "NOVG", "OLON", "PSKO", "TVER"]',
     r"province PETR: rail link to TVER but TVER is not adjacent"),
    ("unknown-region", "map.toml",
     'code = "KURS"\nname = "Kursk"\nregion = "Greater Russia"',
     'code = "KURS"\nname = "Kursk"\nregion = "Muscovy"',
     r"province KURS: unknown region 'Muscovy'"),
    ("duplicate-unit-id", "counters.toml",
     "[[red_unit]]\nid = 102\n", "[[red_unit]]\nid = 101\n",
     r"red_unit 101: duplicate id 101"),
    ("unit-home-missing", "counters.toml",
     'home = "KRAS"', 'home = "XXXX"',
     r"red_unit 120: province 'XXXX' does not exist"),
    ("asterisk-without-unit", "counters.toml",
     'name = "Lenin"\nvalue = 3\nprovince = "PETR"', 'name = "Lenin"\nvalue = 3\nprovince = "FINL"',
     r"leader 151 Lenin: asterisk but no Red combat unit in FINL"),
    ("leader-id-out-of-range", "counters.toml",
     "id = 180\n", "id = 190\n",
     r"leader 190 Antonov: Red leader ids run 151-180"),
    ("unknown-nationality", "counters.toml",
     'id = 322\nnationality = "BR"', 'id = 322\nnationality = "UK"',
     r"blue_unit 322: unknown Blue nationality 'UK'"),
    ("czar-under-wrong-unit", "counters.toml",
     'province = "EKAT", under = 119', 'province = "EKAT", under = 101',
     r"imperial czar: 'under' must be a unit set up in EKAT"),
    ("province-in-two-cells", "tables.toml",
     'provinces = ["KARS", "AMUR", "ERIV"]', 'provinces = ["KARS", "AMUR", "ERIV", "KOVN"]',
     r"random event 2-5: KOVN already appears in cell 1-2"),
    ("epidemic-five-provinces", "tables.toml",
     'provinces = ["KAZA", "MINS", "PERM", "PENZ"]', 'provinces = ["KAZA", "MINS", "PERM", "PENZ", "SMOL"]',
     r"random event 2-2: an epidemic names one to four provinces"),
    ("random-event-unknown-province", "tables.toml",
     'provinces = ["KOVN", "ESTO"]', 'provinces = ["KOVN", "MOSC"]',
     r"random event 2-5: unknown province 'MOSC'"),
    ("crt-row-wrong-length", "tables.toml",
     '["Ex", "De", "De", "De", "De", "De", "De"],  # 1', '["Ex", "De", "De", "De", "De", "De"],  # 1',
     r"\[crt\] row 1: has 6 entries for 7 columns"),
    ("crt-unknown-result", "tables.toml",
     '["Ae", "Ex", "De", "De", "De", "De", "De"],  # 2', '["Ae", "Ex", "Dr", "De", "De", "De", "De"],  # 2',
     r"\[crt\] row 2: unknown result 'Dr'"),
    ("purge-bad-result", "tables.toml",
     '["1", "1", "2", "3", "4", "5", "6"],   # 7', '["1", "1", "2", "3", "X", "5", "6"],   # 7',
     r"\[purge\] row 7: result must be a number or C, got 'X'"),
]


@pytest.mark.parametrize("file, old, new, message", [c[1:] for c in CORRUPTIONS], ids=[c[0] for c in CORRUPTIONS])
def test_loader_rejects_corruption(data_copy, file, old, new, message):
    """data.load validates on load and raises DataError naming the file and the bad entry."""
    edit(data_copy / file, old, new)
    with pytest.raises(data.DataError, match=message) as exc:
        data.load(data_copy)
    assert str(exc.value).startswith(file)


def test_loader_rejects_one_sided_adjacency_on_the_other_side(data_copy):
    """Removing PSKO from VITE's list (VITE-PSKO is a Bell #4 adjacency) is caught at PSKO."""
    edit(data_copy / "map.toml",
         'adjacent = ["COUR", "KOVN", "LIVO", "MINS", "MOHI", "PSKO", "SMOL", "VILN"]\n'
         'rail = ["LIVO", "MOHI", "PSKO", "SMOL", "VILN"]',
         'adjacent = ["COUR", "KOVN", "LIVO", "MINS", "MOHI", "SMOL", "VILN"]\n'
         'rail = ["LIVO", "MOHI", "SMOL", "VILN"]')
    with pytest.raises(data.DataError, match=r"map\.toml: province PSKO: adjacency is not symmetric: PSKO lists VITE"):
        data.load(data_copy)


def test_loader_rejects_petrograd_livonia_adjacency(data_copy):
    """004 [5.33]: PETR and LIVO made (symmetrically) adjacent across Lake Pskov is rejected."""
    m = data_copy / "map.toml"
    edit(m, 'adjacent = ["ESTO", "FINL", "NOVG", "OLON", "PSKO"]\n',
         'adjacent = ["ESTO", "FINL", "LIVO", "NOVG", "OLON", "PSKO"]\n')
    edit(m, 'adjacent = ["COUR", "ESTO", "PSKO", "VITE"]\n', 'adjacent = ["COUR", "ESTO", "PETR", "PSKO", "VITE"]\n')
    with pytest.raises(data.DataError, match=r"lake_borders: LIVO-PETR are across a lake and must not be adjacent"):
        data.load(data_copy)


def test_loader_rejects_white_only_border_that_is_not_a_border(data_copy):
    """004 [5.32]: the Kerch Straits rule names a border; a white-only pair must be adjacent."""
    edit(data_copy / "map.toml", 'white_only_borders = [["TAUR", "KUBA"]]', 'white_only_borders = [["TAUR", "CHEL"]]')
    with pytest.raises(data.DataError, match=r"white_only_borders: CHEL-TAUR must also be adjacent"):
        data.load(data_copy)


def test_loader_rejects_missing_random_event_cell(data_copy):
    """004 [12.2]: 36 cells; dropping the 6-6 cell is reported."""
    edit(data_copy / "tables.toml", '[[random_events.cell]]\nroll = [6, 6]\nresult = "subversion_doubled"\n', "")
    with pytest.raises(data.DataError, match=r"\[random_events\]: needs 36 cells, found 35"):
        data.load(data_copy)


def test_loader_rejects_invalid_toml(data_copy):
    (data_copy / "tables.toml").write_text("[crt\ncolumns = ")
    with pytest.raises(data.DataError, match=r"^tables\.toml: not valid TOML"):
        data.load(data_copy)


def test_loader_rejects_missing_file(data_copy):
    (data_copy / "counters.toml").unlink()
    with pytest.raises(data.DataError, match=r"^counters\.toml: file is missing"):
        data.load(data_copy)


def test_loader_accepts_an_unchanged_copy(data_copy):
    """Control for the corruption tests: the copied data loads and matches the shipped data."""
    d = data.load(data_copy)
    assert data.summary(d) == data.summary(data.default())


def test_data_check_bad_dir_fails(data_copy, capsys):
    """``rcw data check --data-dir BAD`` exits 1 and prints the loader's message to stderr."""
    edit(data_copy / "counters.toml", 'home = "KRAS"', 'home = "XXXX"')
    assert cli.main(["data", "check", "--data-dir", str(data_copy)]) == 1
    out = capsys.readouterr()
    assert out.out == ""
    assert "data check failed" in out.err
    assert "red_unit 120: province 'XXXX' does not exist" in out.err


def test_data_check_missing_dir_fails(tmp_path, capsys):
    assert cli.main(["data", "check", "--data-dir", str(tmp_path / "nowhere")]) == 1
    assert "map.toml: file is missing" in capsys.readouterr().err
