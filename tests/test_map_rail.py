"""The rail net of ``data/map.toml`` after the issue-13 review: each change of the provenance's
``map_changes`` list pinned by what a player notices, with its reason.

Sources: "Profile" = the game profile in seeds/004 ("key provinces ... Tver, Don Cossacks,
Ryazan, and Samara for regular movement; Tver, Don Cossacks, Kursk, and Chelyabinsk for rail
movement"); design notes [3.0] ("the railroads shown are the main lines"); historical notes
("Denikin advanced due north along the Moscow-Rostov railway"); 004 [27.0] (the solitaire set-up
is the standard set-up), 004 [21.13] (non-Red forces follow the fewest rail-connected provinces
to Tver or Petrograd); the Fanatics article ("an exercise in attrition as the Red player tries to
pick off the White hordes as they come trickling into the heartland").
"""

from __future__ import annotations

from collections import deque
from itertools import pairwise

import pytest
from engine_helpers import D, blank, move, put, refused, stack_with, started, uid, where

from rcw import actions as A
from rcw import solitaire as S
from rcw.modes import new_game
from rcw.solitaire.routes import shortest_routes

DON_MOSCOW = ["DCOS", "KHAR", "KURS", "OREL", "TULA", "TVER"]   # Rostov-Kharkov-Kursk-Orel-Tula-Moscow
PROFILE_RAIL_HUBS = ("TVER", "DCOS", "KURS", "CHEL")


def rail(a: str, b: str) -> bool:
    return b in D.provinces[a].rail


def red_garrisons() -> set[str]:
    """Provinces with a Red combat unit in the standard set-up (the solitaire's too, 004 [27.0])."""
    return {u.province for u in D.units.values() if u.color == "Red" and u.kind == "combat" and u.province}


def rail_distance_to(target: str, held: str | None = None) -> dict[str, int]:
    """Fewest rail links from every province to ``target``, not passing through ``held``."""
    dist = {target: 0}
    todo = deque([target])
    while todo:
        here = todo.popleft()
        for n in D.provinces[here].rail:
            if n not in dist and n != held:
                dist[n] = dist[here] + 1
                todo.append(n)
    return dist


def lengthened_by_holding(province: str) -> set[str]:
    """Provinces whose shortest rail route to Tver gets longer (or is cut) when ``province`` is
    held: what the Profile means by a key province "for rail movement"."""
    free, held = rail_distance_to("TVER"), rail_distance_to("TVER", province)
    return {p for p, d in free.items() if p not in (province, "TVER") and held.get(p, 10**6) > d}


# -- change 1: no rail Tambov-Ryazan --------------------------------------------------------------
def test_tambov_ryazan_is_an_overland_border_without_rail():
    """map change 1 (Profile: Ryazan is key "for regular movement", not a rail hub): the two
    provinces still touch, but no railway joins them, and Ryazan is no rail junction."""
    assert "RYAZ" in D.provinces["TAMB"].adjacent
    assert not rail("TAMB", "RYAZ") and not rail("RYAZ", "TAMB")
    assert sorted(D.provinces["RYAZ"].rail) == ["TULA", "TVER"]


def test_a_force_in_tambov_cannot_take_the_train_to_ryazan():
    """map change 1, as a player meets it: a rail move Tambov->Ryazan is refused (004 [5.52]); the
    same force walks there overland (Ryazan is key for regular movement, Profile)."""
    g = blank()
    put(g, "TAMB", "A", "Krasnov", "WU8 DON", attach={"WU8 DON": "Krasnov"})
    g.apply(A.StartForce("A", uid("Krasnov")))
    refused(g, A.Move("A", "RYAZ", True), "004 [5.52]")
    g.apply(A.Move("A", "RYAZ", False))
    g.apply(A.Move("A", "TVER", False))
    assert where(g, "WU8 DON") == "TVER"


@pytest.mark.parametrize("start", ["TAUR", "BLAC", "TERE"])
def test_no_white_force_rides_past_the_ungarrisoned_tambov_to_tver_at_set_up(start):
    """map change 1: in the standard set-up (Red units in Kursk, Orel, Tula; none in Voronezh,
    Tambov, Ryazan) a White force beyond overland range of Tver used to reach Tver in one move by
    rail along DCOS-VORO-TAMB-RYAZ-TVER; now no route to Tver is open to it (Game.reach)."""
    g = started(5, 1)
    st = stack_with(g, "Krasnov")
    g.state.order, g.state.current, g.state.phase = [st.owner], 0, "movement"
    st.province = start
    g.ctx.b.invalidate()
    routes = g.reach(uid("Krasnov"))
    assert "TVER" not in routes
    assert all("RYAZ" not in r["path"] for r in routes.values() if r["rail"])


def test_every_solitaire_route_to_tver_meets_a_red_garrison():
    """map change 1 (the issue's evidence): with Tambov-Ryazan every non-Red force of the Don, the
    Volga and the Caucasus had a shortest rail path to Tver (004 [21.13]) through provinces with no
    Red unit at set-up. Now every such path passes a Red garrison, where the force must stop
    (004 [5.27], [21.2]): Tver cannot fall to turn-1 movement alone."""
    red = red_garrisons()
    starts = {u.province for u in D.units.values() if u.color != "Red" and u.province in D.provinces}
    unguarded = ["-".join(r) for p in sorted(starts) for r in shortest_routes(D, p)
                 if r[-1] == "TVER" and not set(r[1:-1]) & red]
    assert unguarded == []


def test_solitaire_tver_holds_after_the_first_nonred_player_turn():
    """map changes 1-2 in play: the SPI solitaire starts after the first non-Red Player-Turn
    (004 [27.31]); in 40 games no non-Red unit stands in Tver then, unless a turn-1 epidemic
    (004 [20.0], [12.11]) took a Red garrison off its path."""
    red_units = [u for u in D.units.values() if u.color == "Red" and u.kind == "combat" and u.province]
    for seed in range(40):
        g = new_game(1, seed, {"mode": S.MODE})
        colors = g.ctx.b.stack_colors()
        for st in g.state.stacks.values():
            if st.province != "TVER" or colors[st.id] in ("Red", ""):
                continue
            path = g.state.solo["routes"].get(str(st.units[0])) or g.state.solo["routes"].get(st.units[0])
            lost = [u.province for u in red_units if path and u.province in path[1:-1]
                    and g.ctx.b.stack_of(u.id) is None]
            assert lost, f"seed {seed}: {st.units} reached Tver along {path} past every garrison"


# -- change 2: no rail Tambov-Orel; the Don-Moscow main line and the Profile's hubs ------------------
def test_tambov_orel_is_an_overland_border_without_rail():
    """map change 2 (Profile: Kursk, not Orel or Tambov, is the key province for rail movement)."""
    assert "OREL" in D.provinces["TAMB"].adjacent
    assert not rail("TAMB", "OREL") and not rail("OREL", "TAMB")


def test_the_don_moscow_main_line_is_a_railway():
    """Historical notes: Denikin "advanced due north along the Moscow-Rostov railway", the main
    line Rostov-Kharkov-Kursk-Orel-Tula-Moscow; a White force rides it from the Don to Tver in one
    Movement Phase (004 [5.52])."""
    assert all(rail(a, b) for a, b in pairwise(DON_MOSCOW))
    g = blank()
    put(g, "DCOS", "A", "Krasnov", "WU8 DON", attach={"WU8 DON": "Krasnov"})
    move(g, "A", "Krasnov", DON_MOSCOW[1:], rail=True)
    assert where(g, "WU8 DON") == "TVER"


def test_every_shortest_rail_route_from_the_don_to_tver_runs_through_kursk():
    """map change 2 + the main line: the solitaire's Don forces (004 [21.13]) and any player's
    train from the Don go to Moscow by Kursk, as Denikin did."""
    routes = shortest_routes(D, "DCOS")
    assert routes and all(r[-1] == "TVER" and "KURS" in r for r in routes)
    assert len(routes[0]) == len(DON_MOSCOW)


def test_the_profile_rail_hubs_are_hubs():
    """Profile: Tver, Don Cossacks, Kursk, Chelyabinsk are the key provinces "for rail movement".
    Tver has the most rail lines of any province; holding Don Cossacks or Kursk lengthens the
    shortest rail route to Tver of many provinces (Kursk: the Don, the Volga and the Caucasus,
    map change 2), holding Ryazan (key for regular movement only) of none; Chelyabinsk joins four
    lines. (Chelyabinsk is no chokepoint while EKAT-OMSK carries rail: see the provenance's
    rail_review.)"""
    degree = {p: len(v.rail) for p, v in D.provinces.items()}
    assert degree["TVER"] == max(degree.values())
    assert len(lengthened_by_holding("DCOS")) >= 10
    kursk = lengthened_by_holding("KURS")
    assert len(kursk) >= 20 and {"DCOS", "SARA", "TAMB", "VORO", "KUBA"} <= kursk
    assert lengthened_by_holding("RYAZ") == set()
    assert degree["CHEL"] >= 4 and degree["KURS"] >= 4 and degree["DCOS"] >= 5


def test_map_changes_are_documented_in_the_provenance():
    """Every change is listed with its reason in map.toml's provenance (issue 13)."""
    prov = D.provenance["map"]
    changes = prov["map_changes"]
    for link in ("TAMB-RYAZ", "TAMB-OREL"):
        assert link in changes
        a, b = link.split("-")
        assert not rail(a, b)
    assert "Reason" in changes and "rail_review" in prov
