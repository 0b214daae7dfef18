"""Movement (004 [5.0]-[5.7]) and stacking (004 [7.0]), one rule case at a time.

Each test builds the few stacks it needs on an empty map (``blank``/``put``) with seat A
phasing in its Movement Phase, and checks what a player would notice: where the force ends,
what it carries, and which rule case an illegal step names (with the state unchanged)."""

from __future__ import annotations

import dataclasses
from types import MappingProxyType

import pytest
from engine_helpers import D, blank, move, on_map, phase, put, refused, run, stack_with, uid, uids, where

from rcw import actions as A
from rcw.rules import sequence


def lead(name: str) -> int:
    return uid(name)


# -- leaders and what they carry (004 [5.0], [5.13], [5.14], [5.22]) --------------------------
def test_leader_attaches_up_to_its_value():
    """004 [5.14]: a Leader attaches at most his Leadership Value in combat units."""
    g = blank()
    put(g, "TVER", None, "RU8 TVER", "RU4 TULA", "RU3 KALU", "RU2 KAZA")
    put(g, "TVER", "A", "Lenin")
    g.apply(A.StartForce("A", lead("Lenin")))
    for lab in ("RU8 TVER", "RU4 TULA", "RU3 KALU"):
        g.apply(A.Attach("A", uid(lab), lead("Lenin")))
    refused(g, A.Attach("A", uid("RU2 KAZA"), lead("Lenin")), "004 [5.14]")
    g.apply(A.Move("A", "RYAZ", False))
    assert set(stack_with(g, "Lenin").units) == {lead("Lenin")} | set(map(uid, ("RU8 TVER", "RU4 TULA", "RU3 KALU")))
    assert where(g, "RU2 KAZA") == "TVER"


def test_value_one_leader_carries_one_unit():
    g = blank()
    put(g, "TVER", "A", "Sytin", "RU8 TVER", "RU4 TULA")
    g.apply(A.StartForce("A", lead("Sytin")))
    g.apply(A.Attach("A", uid("RU8 TVER"), lead("Sytin")))
    refused(g, A.Attach("A", uid("RU4 TULA"), lead("Sytin")), "004 [5.14]")


def test_combat_units_move_only_with_a_leader_of_their_colour():
    """004 [5.0], [5.22]: combat units have no Movement Allowance of their own; a Red Leader
    moves Red units only."""
    g = blank()
    put(g, "TVER", "A", "Lenin")
    put(g, "TVER", "A", "RU8 TVER")
    put(g, "TVER", None, "WU8 DON")
    refused(g, A.StartForce("A", uid("RU8 TVER")), "004 [5.22]")
    g.apply(A.StartForce("A", lead("Lenin")))
    refused(g, A.Attach("A", uid("WU8 DON"), lead("Lenin")), "004 [5.22]")
    g.apply(A.Attach("A", uid("RU8 TVER"), lead("Lenin")))


def test_attach_and_detach_en_route():
    """004 [5.13]: attach and detach in any province passed, the start one included; no MP cost."""
    g = blank()
    put(g, "PETR", "A", "Lenin", "RU8 PETR", attach={"RU8 PETR": "Lenin"})
    put(g, "PSKO", None, "RU4 PSKO")
    g.apply(A.StartForce("A", lead("Lenin")))
    g.apply(A.Move("A", "PSKO", False))
    run(g, A.Detach("A", uid("RU8 PETR")), A.Attach("A", uid("RU4 PSKO"), lead("Lenin")))
    g.apply(A.Move("A", "TVER", False))
    assert g.state.force.mp == 2
    g.apply(A.EndForce("A"))
    assert where(g, "RU8 PETR") == "PSKO" and stack_with(g, "RU8 PETR").owner == "A"
    assert where(g, "RU4 PSKO") == "TVER" and stack_with(g, "RU4 PSKO").owner == "A"
    assert stack_with(g, "Lenin").attached[uid("RU4 PSKO")] == lead("Lenin")


def test_a_unit_attached_to_another_leader_stays_with_him():
    """004 [5.26]: a combat unit attached to a Leader may not be attached by any other Leader."""
    g = blank()
    put(g, "TVER", "A", "Trotsky", "RU8 TVER", attach={"RU8 TVER": "Trotsky"})
    put(g, "TVER", "A", "Sytin")
    g.apply(A.StartForce("A", lead("Sytin")))
    refused(g, A.Attach("A", uid("RU8 TVER"), lead("Sytin")), "004 [5.26]")


def test_leaders_with_their_units_join_a_larger_force():
    """004 [5.26]: a Leader and his attached units may move together with other Leaders."""
    g = blank()
    put(g, "TVER", "A", "Trotsky", "RU8 TVER", attach={"RU8 TVER": "Trotsky"})
    put(g, "TVER", "A", "Berzin")
    move(g, "A", "Berzin", ["YARO", "VOLO"], rail=True, join=["Trotsky"])
    st = stack_with(g, "Trotsky")
    assert st.province == "VOLO" and st.attached[uid("RU8 TVER")] == lead("Trotsky")
    assert set(st.units) == {lead("Trotsky"), lead("Berzin"), uid("RU8 TVER")}


def test_join_force_limits():
    g = blank()
    put(g, "TVER", "A", "Trotsky", "RU8 TVER", "RU4 TULA", "RU3 KALU",
        attach={"RU8 TVER": "Trotsky", "RU4 TULA": "Trotsky", "RU3 KALU": "Trotsky"})
    put(g, "TVER", "A", "Berzin", "RU2 KAZA", attach={"RU2 KAZA": "Berzin"})
    put(g, "TVER", "A", "Sytin")
    put(g, "TVER", "A", "Deniken")
    put(g, "TVER", "B", "Lenin")
    g.apply(A.StartForce("A", lead("Trotsky")))
    refused(g, A.JoinForce("A", lead("Berzin")), "004 [7.11]")          # 4 + 2 > 5
    refused(g, A.JoinForce("A", lead("Deniken")), "004 [7.13]")         # another colour
    refused(g, A.JoinForce("A", lead("Lenin")), "004 [5.26]")           # B's leader
    g.apply(A.JoinForce("A", lead("Sytin")))


def test_forces_move_one_at_a_time_and_once():
    """004 [5.0] procedure and [5.25]: once a force has moved, no part of it moves again."""
    g = blank()
    put(g, "PETR", "A", "Lenin", "RU8 PETR", attach={"RU8 PETR": "Lenin"})
    put(g, "PETR", "A", "Peterson")
    put(g, "NOVG", "A", "Tukhachevsky")
    g.apply(A.StartForce("A", lead("Lenin")))
    refused(g, A.StartForce("A", lead("Peterson")), "004 [5.0]")        # one force at a time
    g.apply(A.Move("A", "NOVG", False))
    g.apply(A.Detach("A", uid("RU8 PETR")))
    g.apply(A.EndForce("A"))
    refused(g, A.StartForce("A", lead("Lenin")), "004 [5.25]")
    g.apply(A.StartForce("A", lead("Tukhachevsky")))
    refused(g, A.Attach("A", uid("RU8 PETR"), lead("Tukhachevsky")), "004 [5.25]")


def test_movement_only_by_the_phasing_player_in_his_movement_phase():
    """004 [5.11], [5.21]."""
    g = blank()
    put(g, "PETR", "A", "Lenin")
    put(g, "TVER", "B", "Trotsky")
    refused(g, A.StartForce("B", lead("Trotsky")), "004 [4.2]")
    refused(g, A.StartForce("A", lead("Trotsky")), "004 [5.11]")
    phase(g, "A", "combat")
    refused(g, A.StartForce("A", lead("Lenin")), "004 [4.2]")
    refused(g, A.Merge("A", 1, 2), "004 [5.41]")


def test_no_combat_during_movement():
    """004 [5.11]: no combat in the Movement Phase."""
    g = blank()
    put(g, "PETR", "A", "Lenin")
    put(g, "PETR", None, "WU8 DON")
    refused(g, A.DeclareAttack("A", stack_with(g, "WU8 DON").id, False), "004 [4.2]")


# -- Movement Points (004 [5.12], [5.23], [5.28]) ---------------------------------------------
def test_five_movement_points_overland():
    g = blank()
    put(g, "PETR", "A", "Lenin")
    move(g, "A", "Lenin", ["NOVG", "TVER", "YARO", "VOLO", "ARCH"], end=False)
    assert g.state.force.mp == 5
    refused(g, A.Move("A", "OLON", False), "004 [5.28]")
    # what the page shows for it (facts.force.stop): the same words as the refusal's
    assert g.force_stop() == {"rule": "004 [5.28]", "message": g.why_illegal(A.Move("A", "OLON", False)).message}


def test_reduced_leader_movement_option():
    g = blank(options={"leader_movement": 4})
    put(g, "PETR", "A", "Lenin")
    move(g, "A", "Lenin", ["NOVG", "TVER", "YARO", "VOLO"], end=False)
    refused(g, A.Move("A", "ARCH", False), "004 [5.28]")


def test_moves_only_to_adjacent_provinces():
    """004 [5.24]."""
    g = blank()
    put(g, "PETR", "A", "Lenin")
    g.apply(A.StartForce("A", lead("Lenin")))
    refused(g, A.Move("A", "TVER", False), "004 [5.24]")
    refused(g, A.Move("A", "NOWHERE", False), "004 [5.24]")


def test_a_force_may_go_back_where_it_has_been():
    """Audit: the engine read "a force never enters the same province twice in one move"; 004
    [5.0] limits a move by the Movement Allowance alone ([5.12], [5.23]: a point for each
    province entered) and [5.13] lets a leader attach units anywhere on the way, so Trotsky
    fetches RU8 NOVG from Novgorod and brings it home to Tver: two points of five.  The engine's
    reach offers the way back too, by its route."""
    g = blank()
    put(g, "TVER", "A", "Trotsky")
    put(g, "NOVG", None, "RU8 NOVG")
    g.apply(A.StartForce("A", uid("Trotsky")))
    g.apply(A.Move("A", "NOVG", False))
    g.apply(A.Attach("A", uid("RU8 NOVG"), uid("Trotsky")))
    assert g.reach()["TVER"] == {"path": ["TVER"], "rail": False}
    g.apply(A.Move("A", "TVER", False))
    assert g.state.force.mp == 2 and where(g, "RU8 NOVG") == "TVER"
    g.apply(A.Move("A", "NOVG", False))                  # (and out again: every step a point)
    g.apply(A.EndForce("A"))
    assert where(g, "Trotsky") == "NOVG"


def test_a_force_back_in_a_province_it_left_units_in_is_not_stopped_by_them():
    """004 [5.27] is judged on what a force meets when it enters: the units it has carried never
    stop it (the 004 [29.0] hot knife), nor does its reach say they do when it comes back where
    it left them: Blucher, with the Gold, takes the Green unit in Krasnoyarsk, leaves it there,
    goes on to Irkutsk and may come back by rail through Krasnoyarsk to Barnaul."""
    g = blank()
    g.state.control = {"SB": "B"}
    put(g, "OMSK", "A", "Blucher", "Gold", attach={"Gold": "Blucher"})
    put(g, "KRAS", "B", "GU2 IRKU")
    g.apply(A.StartForce("A", uid("Blucher")))
    run(g, A.Move("A", "BARN", True), A.Move("A", "KRAS", True))
    g.apply(A.Attach("A", uid("GU2 IRKU"), uid("Blucher")))
    g.apply(A.Detach("A", uid("GU2 IRKU")))
    g.apply(A.Move("A", "IRKU", True))
    assert g.reach()["BARN"] == {"path": ["KRAS", "BARN"], "rail": True}
    run(g, A.Move("A", "KRAS", True), A.Move("A", "BARN", True))
    assert where(g, "Blucher") == "BARN"


# -- rail (004 [5.5]) -----------------------------------------------------------------------
def test_rail_movement_is_unlimited_and_free():
    """004 [5.52], [5.53]: any number of rail-connected provinces, no Movement Points."""
    g = blank()
    put(g, "PETR", "A", "Lenin", "RU8 PETR", attach={"RU8 PETR": "Lenin"})
    path = ["NOVG", "TVER", "TULA", "OREL", "KURS", "KHAR", "DCOS", "KUBA"]
    move(g, "A", "Lenin", path, rail=True, end=False)
    assert g.state.force.mp == 0 and where(g, "RU8 PETR") == "KUBA"


def test_rail_and_overland_never_combine():
    """004 [5.53]."""
    g = blank()
    put(g, "KALU", "A", "Kalinin")
    g.apply(A.StartForce("A", lead("Kalinin")))
    g.apply(A.Move("A", "TULA", True))
    refused(g, A.Move("A", "RYAZ", False), "004 [5.53]")
    g.apply(A.EndForce("A"))
    put(g, "KALU", "A", "Yeserov")
    g.apply(A.StartForce("A", lead("Yeserov")))
    g.apply(A.Move("A", "TULA", False))
    refused(g, A.Move("A", "RYAZ", True), "004 [5.53]")


def test_rail_needs_a_railway_between_the_two_provinces():
    """004 [5.52]: KALU-OREL share a border but no railway."""
    g = blank()
    put(g, "KALU", "A", "Kalinin")
    g.apply(A.StartForce("A", lead("Kalinin")))
    assert "OREL" in D.provinces["KALU"].adjacent and "OREL" not in D.provinces["KALU"].rail
    refused(g, A.Move("A", "OREL", True), "004 [5.52]")
    g.apply(A.Move("A", "OREL", False))


def test_rail_only_from_a_rail_province():
    """004 [5.52]: 'a force which begins its Movement Phase in a province traversed by a
    Railline'.  Every shipped province has a railway, so a copy of the map without the
    railways of Olonets is used."""
    olon = dataclasses.replace(D.provinces["OLON"], rail=frozenset())
    data = dataclasses.replace(D, provinces=MappingProxyType({**D.provinces, "OLON": olon}))
    g = blank(data=data)
    put(g, "OLON", "A", "Bonch-Bruevich")
    g.apply(A.StartForce("A", lead("Bonch-Bruevich")))
    refused(g, A.Move("A", "PETR", True), "004 [5.52]")
    g.apply(A.Move("A", "PETR", False))


def test_only_red_and_white_use_rail():
    """004 [5.51], [5.64], [5.73]."""
    g = blank()
    g.state.control = {"FR": "A", "UK": "A"}
    put(g, "KHER", "A", "BU2 KHER/FR")
    put(g, "KIEV", "A", "GU4 KIEV")
    g.apply(A.StartForce("A", on_map(g, "BU2 KHER/FR")))
    refused(g, A.Move("A", "POLT", True), "004 [5.64]")     # (each refused by its own case: an audit)
    g.apply(A.EndForce("A"))
    g.apply(A.StartForce("A", uid("GU4 KIEV")))
    refused(g, A.Move("A", "POLT", True), "004 [5.73]")


# -- stopping (004 [5.27], [5.52], [6.0]) -----------------------------------------------------
@pytest.mark.parametrize("occupant, owner, stops", [
    ("WU8 DON", None, True),        # uncontrolled White: another colour
    ("WU8 DON", "A", True),         # the mover's own White stack: judged by colour, not owner
    ("BU2 KHER/FR", None, True),    # Blue
    ("GU4 KIEV", "B", True),        # Green
    ("RU4 TULA", "B", False),       # another player's Red stack: same colour
    ("RU4 TULA", None, False),      # uncontrolled Red unit
])
def test_stop_on_entering_another_colour(occupant, owner, stops):
    g = blank()
    put(g, "PETR", "A", "Lenin")
    put(g, "NOVG", owner, occupant)
    for rail in (False, True):
        phase(g, "A", "movement")
        g.apply(A.StartForce("A", lead("Lenin")))
        ev = g.apply(A.Move("A", "NOVG", rail))
        assert any(e.kind == "stop" for e in ev) == stops
        if stops:                   # (the line names the force: a log sums its move up only at its end)
            assert [e.text for e in ev if e.kind == "stop"][0].startswith("Lenin (A) enters NOVG, which holds units")
            refused(g, A.Move("A", "TVER", rail), "004 [5.27]")
            g.apply(A.EndForce("A"))
        else:
            g.apply(A.Move("A", "TVER", rail))
            g.apply(A.EndForce("A"))
        assert where(g, "Lenin") == ("NOVG" if stops else "TVER")
        stack_with(g, "Lenin").province = "PETR"
        g.ctx.b.invalidate()


def test_leaving_the_start_province_is_free():
    """004 [5.27]: a force may leave the province it starts in whatever stands there."""
    g = blank()
    put(g, "PETR", "A", "Lenin")
    put(g, "PETR", None, "WU8 DON")
    move(g, "A", "Lenin", ["NOVG", "TVER"])
    assert where(g, "Lenin") == "TVER"


def test_a_white_force_stops_for_red_units():
    g = blank()
    put(g, "DCOS", "A", "Krasnov", "WU8 DON", attach={"WU8 DON": "Krasnov"})
    put(g, "VORO", "B", "Stalin")
    g.apply(A.StartForce("A", lead("Krasnov")))
    assert g.force_stop() is None                         # (in DCOS, before the move: it may go on)
    g.apply(A.Move("A", "VORO", False))
    refused(g, A.Move("A", "TAMB", False), "004 [5.27]")
    # the same words the refusal gives, asked of the force (what the page shows: facts.force.stop)
    assert g.force_stop() == {"rule": "004 [5.27]", "message": g.why_illegal(A.Move("A", "TAMB", False)).message}
    g.apply(A.EndForce("A"))
    assert g.force_stop() is None


def test_postal_movement_uses_the_start_of_turn_colours():
    """004 [17.0] postal [5.0]: the example - a Red stack PETR-NOVG-TVER-RYAZ stops in TVER,
    which held a White stack when the Game-Turn began, even though that stack has left; the
    White stack RYAZ-TVER-NOVG-PETR need not stop in TVER; it could not have left PETR had
    it started there ... (here: it stops on entering PETR, Red at the start)."""
    g = blank(options={"postal_movement": True})
    put(g, "PETR", "A", "Lenin")
    put(g, "TVER", "B", "Kolchak")
    put(g, "RYAZ", "B", "Deniken")
    sequence.take_snapshot(g.ctx)
    phase(g, "B", "movement")
    move(g, "B", "Kolchak", ["RYAZ"])
    move(g, "B", "Deniken", ["TVER", "NOVG", "PETR"])
    assert where(g, "Deniken") == "PETR"
    phase(g, "A", "movement")
    g.apply(A.StartForce("A", lead("Lenin")))
    run(g, A.Move("A", "NOVG", False), A.Move("A", "TVER", False))      # Deniken left NOVG: no stop
    refused(g, A.Move("A", "RYAZ", False), "004 [5.27]")                 # TVER was White


def test_postal_ignores_units_that_arrived_during_the_turn():
    g = blank(options={"postal_movement": True})
    put(g, "PETR", "A", "Lenin")
    sequence.take_snapshot(g.ctx)
    put(g, "NOVG", None, "WU8 DON")                  # arrived after the snapshot
    move(g, "A", "Lenin", ["NOVG", "TVER"])
    assert where(g, "Lenin") == "TVER"


# -- terrain (004 [5.3]) -----------------------------------------------------------------------
def test_kerch_straits_white_only():
    """004 [5.32]: White units only move Taurida-Kuban."""
    g = blank()
    g.state.control = {"FR": "A"}
    put(g, "TAUR", "A", "Lenin")
    put(g, "TAUR", "A", "Kutepov")
    put(g, "TAUR", "A", "BU2 KHER/FR")
    g.apply(A.StartForce("A", lead("Lenin")))
    refused(g, A.Move("A", "KUBA", False), "004 [5.32]")
    refused(g, A.Move("A", "KUBA", True), "004 [5.32]")
    g.apply(A.EndForce("A"))
    g.apply(A.StartForce("A", on_map(g, "BU2 KHER/FR")))
    refused(g, A.Move("A", "KUBA", False), "004 [5.32]")
    g.apply(A.EndForce("A"))
    move(g, "A", "Kutepov", ["KUBA"])
    assert where(g, "Kutepov") == "KUBA"


def test_lake_pskov():
    """004 [5.33]: no move Petrograd-Livonia, either way, any colour."""
    g = blank()
    put(g, "LIVO", "A", "Yudenich")
    g.apply(A.StartForce("A", lead("Yudenich")))
    refused(g, A.Move("A", "PETR", False), "004 [5.33]")
    refused(g, A.Move("A", "PETR", True), "004 [5.33]")


# -- Blue units (004 [5.6]) --------------------------------------------------------------------
def test_blue_units_move_only_under_their_control_marker():
    """004 [5.61]: without the marker nobody moves them; with it, 3 MP (004 [5.63])."""
    g = blank()
    put(g, "KHER", None, "BU2 KHER/FR", "BU2 KHER/FR", "BU2 KHER/FR")
    refused(g, A.StartForce("A", on_map(g, "BU2 KHER/FR")), "004 [5.11]")
    stack_with(g, "BU2 KHER/FR").owner = "A"
    g.state.control["FR"] = "A"
    move(g, "A", "BU2 KHER/FR", ["POLT", "KHAR", "KURS"], end=False)
    assert len(stack_with(g, "BU2 KHER/FR").units) == 3
    refused(g, A.Move("A", "OREL", False), "004 [5.28]")


@pytest.mark.parametrize("nat", ["GE", "HU", "RM", "GR"])
def test_blue_units_without_a_control_marker_never_move(nat):
    """004 [5.62]: even a stack somehow marked with a player's marker does not move."""
    g = blank()
    put(g, "KHER", "A", f"BU2 KHER/{nat}")
    refused(g, A.StartForce("A", uid(f"BU2 KHER/{nat}")), "004 [5.62]")


@pytest.mark.parametrize("label_, start, out", [("BU3 OMSK/CZ", "OMSK", "UFIM"), ("BU6 VLDV/JA", "CHEL", "UFIM")])
def test_czechs_and_japanese_stay_in_siberia(label_, start, out):
    """004 [5.65]."""
    g = blank()
    put(g, start, "A", label_)
    g.apply(A.StartForce("A", on_map(g, label_)))
    if start == "OMSK":
        g.apply(A.Move("A", "CHEL", False))
    refused(g, A.Move("A", out, False), "004 [5.65]")
    g.apply(A.Move("A", "EKAT", False))


def test_other_blue_units_go_anywhere():
    """004 [5.65]: 'Other movable Blue units may enter any province on the map.'"""
    g = blank()
    put(g, "ARCH", "A", "BU2 ARCH/BR")
    move(g, "A", "BU2 ARCH/BR", ["FINL", "PETR", "ESTO"])
    assert where(g, "BU2 ARCH/BR") == "ESTO"


def test_blue_force_takes_only_its_own_nationality():
    """004 [7.14]: Blue (or Green) units of different nationalities never stack together."""
    g = blank()
    put(g, "ARCH", "A", "BU2 ARCH/BR")
    put(g, "ARCH", "A", "BU2 ARCH/US")
    g.apply(A.StartForce("A", uid("BU2 ARCH/BR")))
    refused(g, A.Attach("A", uid("BU2 ARCH/US"), 0), "004 [7.14]")


def test_blue_green_forces_carry_no_leaders():
    """004 [5.22]: there are no Blue or Green leaders; they do not stack with Red/White."""
    g = blank()
    put(g, "ARCH", "A", "BU2 ARCH/BR")
    put(g, "ARCH", "A", "Miller")
    g.apply(A.StartForce("A", uid("BU2 ARCH/BR")))
    refused(g, A.JoinForce("A", lead("Miller")), "004 [7.13]")
    g.apply(A.EndForce("A"))
    refused(g, A.Merge("A", stack_with(g, "BU2 ARCH/BR").id, stack_with(g, "Miller").id), "004 [7.13]")


def test_czech_exit_only_from_vladivostok():
    """004 [5.66], [14.45]: face-down on the VP chart, no MP."""
    g = blank()
    put(g, "VLDV", "A", "BU3 OMSK/CZ")
    put(g, "CHEL", "A", "BU3 CHEL/CZ")
    refused(g, A.CzechExit("A", uid("BU3 CHEL/CZ")), "004 [5.66]")
    refused(g, A.CzechExit("A", uids("BU6 VLDV/JA")[0]), "004 [5.66]")
    g.apply(A.CzechExit("A", uid("BU3 OMSK/CZ")))
    assert g.state.vp["A"] == [[uid("BU3 OMSK/CZ"), False]]
    assert where(g, "BU3 OMSK/CZ") is None


def test_a_blue_stack_splits_into_forces_that_go_their_own_ways():
    """Audit: a Blue force took every unit of its stack, and the units it left where it was formed
    counted as moved: three French units in Kherson could never go two ways.  004 [5.61]: the
    holder moves "all, some or none" of them; 004 [7.0]: forces are reorganised by unstacking;
    004 [5.25] bars only units that moved with a force."""
    g = blank()
    put(g, "KHER", "A", "BU2 KHER/FR", "BU2 KHER/FR", "BU2 KHER/FR")
    g.state.control["FR"] = "A"
    fr = uids("BU2 KHER/FR")
    g.apply(A.StartForce("A", fr[0]))
    g.apply(A.Detach("A", fr[2]))                       # one left in Kherson before the first step
    g.apply(A.Move("A", "POLT", False))
    g.apply(A.EndForce("A"))
    assert A.StartForce("A", fr[2]) in g.legal_actions("A")
    g.apply(A.StartForce("A", fr[2]))
    g.apply(A.Move("A", "TAUR", False))
    g.apply(A.EndForce("A"))
    assert [g.ctx.b.stack_of(u).province for u in fr] == ["POLT", "POLT", "TAUR"]
    refused(g, A.StartForce("A", fr[2]), "004 [5.25]")         # (it moved now)
    refused(g, A.StartForce("A", fr[0]), "004 [5.25]")


def test_a_unit_dropped_before_the_first_step_may_go_with_another_leader():
    """Audit: Lenin formed his force with RU3 KALU and left it in Kaluga before his first step;
    Sytin, in Kaluga too, could not take it ("already moved with another force"), though it never
    left.  Once a force has stepped, what it drops has moved (004 [5.25])."""
    g = blank()
    put(g, "KALU", "A", "Lenin", "RU3 KALU", attach={"RU3 KALU": "Lenin"})
    put(g, "KALU", "A", "Sytin")
    g.apply(A.StartForce("A", uid("Lenin")))
    g.apply(A.Detach("A", uid("RU3 KALU")))
    g.apply(A.Move("A", "TULA", False))
    g.apply(A.EndForce("A"))
    g.apply(A.StartForce("A", uid("Sytin")))
    g.apply(A.Attach("A", uid("RU3 KALU"), uid("Sytin")))
    g.apply(A.Move("A", "SMOL", False))
    g.apply(A.Detach("A", uid("RU3 KALU")))              # (dropped after a step: it has moved)
    g.apply(A.EndForce("A"))
    assert where(g, "RU3 KALU") == "SMOL"
    put(g, "SMOL", "A", "Frunze")
    g.apply(A.StartForce("A", uid("Frunze")))
    refused(g, A.Attach("A", uid("RU3 KALU"), uid("Frunze")), "004 [5.25]")


def test_a_green_unit_stolen_with_the_gold_and_left_at_once_does_not_move_again():
    """Review: a Green unit that had moved as a Green force may still be stolen by a leader
    holding the Gold (004 [13.26]: "even if they were moved previously"); left by him before his
    first step it had not moved, by the rule for units left where a force is formed, and moved
    a second time.  A stolen unit left so stays moved (004 [5.25])."""
    g = blank()
    g.state.control = {"SB": "A"}
    put(g, "IRKU", "A", "GU2 IRKU")
    put(g, "KRAS", "A", "Blucher", "Gold", attach={"Gold": "Blucher"})
    g.apply(A.StartForce("A", uid("GU2 IRKU")))
    g.apply(A.Move("A", "KRAS", False))
    g.apply(A.EndForce("A"))
    g.apply(A.StartForce("A", uid("Blucher")))
    g.apply(A.Attach("A", uid("GU2 IRKU"), uid("Blucher")))            # (stolen, though it moved)
    g.apply(A.Detach("A", uid("GU2 IRKU")))
    g.apply(A.EndForce("A"))
    refused(g, A.StartForce("A", uid("GU2 IRKU")), "004 [5.25]")


def test_a_force_does_not_take_back_what_it_left():
    """Review: a unit left where its force was formed has not moved; were the force to take it
    back, it could leave it and take it again without end (a move of no end, a deadline held
    off for ever).  A force does not take back a unit or leader it has left (an engine reading,
    rules-coverage.md)."""
    g = blank()
    put(g, "KALU", "A", "Lenin", "RU3 KALU", attach={"RU3 KALU": "Lenin"})
    put(g, "KALU", "A", "Sytin")
    g.apply(A.StartForce("A", uid("Lenin")))
    g.apply(A.JoinForce("A", uid("Sytin")))
    g.apply(A.Detach("A", uid("RU3 KALU")))
    g.apply(A.Detach("A", uid("Sytin")))
    refused(g, A.Attach("A", uid("RU3 KALU"), uid("Lenin")), "004 [5.0]")
    refused(g, A.JoinForce("A", uid("Sytin")), "004 [5.0]")
    assert not [a for a in g.legal_actions("A") if type(a) in (A.Attach, A.JoinForce)]


def test_a_move_enters_at_most_as_many_provinces_as_the_map_has():
    """Review: with a force free to go back where it has been, rail movement (unlimited, 004
    [5.52]) had no end: a move enters at most as many provinces as the map has (an engine limit
    no real move comes near), and the force's reach says so too."""
    g = blank()
    put(g, "PETR", "A", "Lenin")
    g.apply(A.StartForce("A", uid("Lenin")))
    n = len(g.data.provinces)
    for i in range(n):
        g.apply(A.Move("A", "NOVG" if i % 2 == 0 else "PETR", True))
    refused(g, A.Move("A", "NOVG" if n % 2 == 0 else "PETR", True), "004 [5.0]")
    assert len(g.reach()) == 0


def test_a_czech_unit_leaves_the_map_only_once_its_force_has_ended_its_move():
    """Audit: a Czech force entering Vladivostok could leave the map at once, as the force's last
    unit; the force under way then had no stack and the game could not go on (every query
    raised).  004 [5.0]: forces are moved one at a time: the exit waits for EndForce."""
    g = blank()
    put(g, "KHAB", "A", "BU3 CHEL/CZ")
    g.state.control["CZ"] = "A"
    cz = uid("BU3 CHEL/CZ")
    g.apply(A.StartForce("A", cz))
    g.apply(A.Move("A", "VLDV", False))
    refused(g, A.CzechExit("A", cz), "004 [5.0]")
    assert A.CzechExit("A", cz) not in g.legal_actions("A")
    g.apply(A.EndForce("A"))
    assert A.CzechExit("A", cz) in g.legal_actions("A")
    g.apply(A.CzechExit("A", cz))
    assert where(g, "BU3 CHEL/CZ") is None and g.state.vp["A"] == [[cz, False]]
    assert A.EndMovement("A") in g.legal_actions("A")


# -- Green units (004 [5.7]) -------------------------------------------------------------------
def test_green_units_three_mp_in_their_home_region():
    """004 [5.72], [5.74]: Ukrainians move only within the Ukraine."""
    g = blank()
    put(g, "KIEV", "A", "GU4 KIEV")
    move(g, "A", "GU4 KIEV", ["POLT", "KHAR"], end=False)
    refused(g, A.Move("A", "KURS", False), "004 [5.74]")
    g.apply(A.Move("A", "YEKA", False))
    refused(g, A.Move("A", "KHER", False), "004 [5.28]")


def test_finns_enter_only_four_provinces():
    """004 [5.75]: Archangel, Olonetz, Petrograd, Finland."""
    g = blank()
    put(g, "FINL", "A", "GU6 FINL", "GU6 FINL", "GU6 FINL")
    move(g, "A", "GU6 FINL", ["PETR", "OLON"], end=False)
    refused(g, A.Move("A", "NOVG", False), "004 [5.75]")
    g.apply(A.Move("A", "ARCH", False))


def test_poles():
    """004 [5.76]: Greater Russia, White Russia, Baltic, Ukraine, Poland; never Cossack,
    Trans-Caucasus, Siberia."""
    g = blank()
    put(g, "YEKA", "A", "GU8 POLA")
    g.apply(A.StartForce("A", on_map(g, "GU8 POLA")))
    refused(g, A.Move("A", "DCOS", False), "004 [5.76]")
    run(g, A.Move("A", "KHAR", False), A.Move("A", "KURS", False), A.Move("A", "OREL", False))
    g2 = blank()
    put(g2, "POLA", "A", "GU8 POLA")
    move(g2, "A", "GU8 POLA", ["KOVN", "COUR", "LIVO"])      # Baltic
    assert where(g2, "GU8 POLA") == "LIVO"


def test_uncontrolled_green_units_do_not_move():
    g = blank()
    put(g, "KIEV", None, "GU4 KIEV")
    refused(g, A.StartForce("A", uid("GU4 KIEV")), "004 [5.11]")


# -- stacking (004 [7.0]) ------------------------------------------------------------------------
def test_stack_limit_five_combat_and_leader_units():
    """004 [7.11]: five combat/Leader units, plus either or both Imperial units."""
    g = blank()
    a = put(g, "TVER", "A", "Trotsky", "RU8 TVER", "RU4 TULA", "Czar", "Gold",
            attach={"RU8 TVER": "Trotsky", "RU4 TULA": "Trotsky", "Czar": "Trotsky", "Gold": "Trotsky"})
    b = put(g, "TVER", "A", "Sytin", "RU3 KALU")
    c = put(g, "TVER", "A", "Berzin")
    g.apply(A.Merge("A", b.id, a.id))                      # 5 + two Imperial units
    assert len(stack_with(g, "Trotsky").units) == 7
    refused(g, A.Merge("A", c.id, a.id), "004 [7.11]")


def test_stack_limit_on_attaching():
    """004 [7.11] with 004 [13.22]/[13.25]: Deniken (3) with Czar and Gold could attach 7,
    but a stack holds five units."""
    g = blank()
    put(g, "KUBA", "A", "Deniken", "Czar", "Gold", attach={"Czar": "Deniken", "Gold": "Deniken"})
    put(g, "KUBA", None, "WU4 KUBA")
    put(g, "KUBA", None, "WU4 TAUR")
    put(g, "KUBA", None, "WU4 ASTR")
    put(g, "KUBA", None, "WU3 STAV")
    put(g, "KUBA", None, "WU2 TERE")
    g.apply(A.StartForce("A", lead("Deniken")))
    for lab in ("WU4 KUBA", "WU4 TAUR", "WU4 ASTR", "WU3 STAV"):
        g.apply(A.Attach("A", uid(lab), lead("Deniken")))
    refused(g, A.Attach("A", uid("WU2 TERE"), lead("Deniken")), "004 [7.11]")


def test_different_players_never_stack():
    """004 [7.12]."""
    g = blank()
    a = put(g, "TVER", "A", "Trotsky")
    b = put(g, "TVER", "B", "Sytin")
    refused(g, A.Merge("A", a.id, b.id), "004 [7.12]")


def test_different_colours_never_stack():
    """004 [7.13]."""
    g = blank()
    a = put(g, "TVER", "A", "Trotsky")
    b = put(g, "TVER", "A", "Deniken")
    refused(g, A.Merge("A", a.id, b.id), "004 [7.13]")


def test_blue_green_nationalities_never_stack():
    """004 [7.14]."""
    g = blank()
    a = put(g, "KHER", "A", "BU2 KHER/FR")
    b = put(g, "KHER", "A", "BU2 KHER/GE")
    c = put(g, "KHER", "A", "BU2 KHER/FR")
    refused(g, A.Merge("A", a.id, b.id), "004 [7.14]")
    g.apply(A.Merge("A", c.id, a.id))


def test_uncontrolled_stacks_keep_their_stacking():
    """004 [7.16]: nobody rearranges uncontrolled stacks; the deployment stacks stay."""
    g = blank()
    a = put(g, "VLDV", None, "BU6 VLDV/JA", "BU6 VLDV/JA")
    b = put(g, "VLDV", None, "BU6 VLDV/JA")
    refused(g, A.Merge("A", a.id, b.id), "004 [7.12]")
    refused(g, A.StartForce("A", a.units[0]), "004 [5.11]")


def test_merge_only_in_one_province():
    g = blank()
    a = put(g, "TVER", "A", "Trotsky")
    b = put(g, "PSKO", "A", "Sytin")
    refused(g, A.Merge("A", a.id, b.id), "004 [7.0]")


def test_detaching_the_last_leader_is_ending_the_move():
    g = blank()
    put(g, "TVER", "A", "Trotsky", "RU8 TVER", attach={"RU8 TVER": "Trotsky"})
    g.apply(A.StartForce("A", lead("Trotsky")))
    refused(g, A.Detach("A", lead("Trotsky")), "004 [5.0]")
    g.apply(A.Detach("A", uid("RU8 TVER")))


def test_end_movement_closes_an_open_force():
    g = blank()
    put(g, "TVER", "A", "Trotsky")
    g.apply(A.StartForce("A", lead("Trotsky")))
    g.apply(A.Move("A", "YARO", False))
    g.apply(A.EndMovement("A"))
    assert g.state.force is None and g.state.phase == "combat" and where(g, "Trotsky") == "YARO"


def test_legal_moves_listed_are_legal():
    """legal_actions lists only steps that apply (a few positions)."""
    g = blank()
    put(g, "TVER", "A", "Trotsky", "RU8 TVER", attach={"RU8 TVER": "Trotsky"})
    put(g, "NOVG", None, "WU8 DON")
    g.apply(A.StartForce("A", lead("Trotsky")))
    g.apply(A.Move("A", "NOVG", False))
    moves = [a for a in g.legal_actions("A") if isinstance(a, A.Move)]
    assert moves == []                                        # stopped in NOVG
    kinds = {a.TYPE for a in g.legal_actions("A")}
    assert {"EndForce", "Detach", "EndMovement"} <= kinds


# -- cases the sections above leave implicit ---------------------------------------------------
def test_5_31_no_sea_or_lake_areas_to_enter():
    """004 [5.31]: units never enter Sea or Lake areas.  The map holds land provinces only (the
    regions of 004 [15.41] and [5.76]); Lake Pskov is a border no move crosses (004 [5.33]);
    a destination that is not a province is refused and nothing changes."""
    land = {"Greater Russia", "White Russia", "Ukraine", "Trans-Caucasus", "Siberia", "Cossack Territories",
            "Baltic", "Poland", "Finland"}
    assert {p.region for p in D.provinces.values()} <= land
    for p in D.provinces.values():
        assert set(p.adjacent) <= set(D.provinces) and set(p.rail) <= set(p.adjacent)
    assert "LIVO" not in D.provinces["PETR"].adjacent
    g = blank()
    put(g, "PETR", "A", "Lenin")
    g.apply(A.StartForce("A", lead("Lenin")))
    refused(g, A.Move("A", "LIVO", False), "004 [5.33]")
    refused(g, A.Move("A", "Lake Pskov", False), "004 [5.24]")
    assert {a.to for a in g.legal_actions("A") if isinstance(a, A.Move)} <= set(D.provinces)


def test_5_34_only_czechs_and_imperial_units_leave_the_map():
    """004 [5.34]: combat units and leaders never leave the map voluntarily; the exceptions are
    Czech units from Vladivostok (004 [5.66]) and emigrating Imperial units (004 [13.3])."""
    g = blank()
    put(g, "VLDV", "A", "Kikvidze", "RU2 VLDV", attach={"RU2 VLDV": "Kikvidze"})
    us = put(g, "VLDV", "A", "BU2 VLDV/US").units[0]
    put(g, "VLDV", "A", "BU3 OMSK/CZ")
    refused(g, A.CzechExit("A", us), "004 [5.66]")
    refused(g, A.CzechExit("A", uid("RU2 VLDV")), "004 [5.66]")
    refused(g, A.Emigrate("A", lead("Kikvidze")), "004 [13.31]")
    refused(g, A.Emigrate("A", uid("RU2 VLDV")), "004 [13.31]")
    exits = {a for a in g.legal_actions("A") if isinstance(a, (A.CzechExit, A.Emigrate))}
    assert exits == {A.CzechExit("A", uid("BU3 OMSK/CZ"))}
    g.apply(A.StartForce("A", lead("Kikvidze")))
    assert {a.to for a in g.legal_actions("A") if isinstance(a, A.Move)} == set(D.provinces["VLDV"].adjacent)


def test_5_41_stacking_and_unstacking_only_in_ones_own_movement_phase():
    """004 [5.41]: stacking and unstacking are movement, free of MP cost, only in the owner's own
    Movement Phase; 004 [5.13] / [7.0]: a leader drops units (unstacks) while he moves."""
    g = blank()
    a = put(g, "TVER", "A", "Trotsky", "RU8 TVER", attach={"RU8 TVER": "Trotsky"})
    b = put(g, "TVER", "A", "Sytin")
    put(g, "PSKO", "B", "Muraviev")
    put(g, "PSKO", "B", "Sablin")
    g.apply(A.Merge("A", b.id, a.id))                       # stacking: no Movement Point spent
    assert set(stack_with(g, "Sytin").units) == {lead("Trotsky"), lead("Sytin"), uid("RU8 TVER")}
    g.apply(A.StartForce("A", lead("Trotsky")))
    g.apply(A.Detach("A", uid("RU8 TVER")))                 # unstacking in the start province
    assert g.state.force.mp == 0 and stack_with(g, "RU8 TVER").owner == "A"
    g.apply(A.EndForce("A"))
    mur, sab = stack_with(g, "Muraviev"), stack_with(g, "Sablin")
    refused(g, A.Merge("B", mur.id, sab.id), "004 [5.41]")      # not B's Movement Phase
    g.apply(A.EndMovement("A"))
    t, s_ = stack_with(g, "Trotsky"), stack_with(g, "RU8 TVER")
    refused(g, A.Merge("A", s_.id, t.id), "004 [5.41]")        # A's Combat Phase
    assert not [x for x in g.legal_actions("A") if isinstance(x, (A.Merge, A.StartForce, A.Detach))]


def test_5_42_a_force_never_ends_its_move_over_the_stacking_limit():
    """004 [5.42], [7.11]: a force ends its move as its own stack; joining it to another stack
    of five is refused, so no stack ends a Movement Phase above five units."""
    g = blank()
    put(g, "YARO", "A", "Vatzetis", "Sytin", "Berzin", "RU3 YARO", "RU4 VLDM",
        attach={"RU3 YARO": "Vatzetis", "RU4 VLDM": "Vatzetis"})
    put(g, "TVER", "A", "Trotsky", "RU8 TVER", attach={"RU8 TVER": "Trotsky"})
    move(g, "A", "Trotsky", ["YARO"])
    stacks = [st for st in g.state.stacks.values() if st.province == "YARO"]
    assert len(stacks) == 2 and sorted(len(st.units) for st in stacks) == [2, 5]
    refused(g, A.Merge("A", stack_with(g, "Trotsky").id, stack_with(g, "Vatzetis").id), "004 [7.11]")
    g.apply(A.EndMovement("A"))
    assert all(len(g.ctx.b.fighting_units(st)) <= 5 for st in g.state.stacks.values())


def test_5_54_5_55_a_leader_moving_by_rail_attaches_and_detaches():
    """004 [5.54]: attaching, carrying and detaching are not impaired by rail movement;
    004 [5.55]: combat units go by rail only with a leader of their colour."""
    g = blank()
    put(g, "TVER", "A", "Trotsky")
    put(g, "TVER", "A", "RU8 TVER")
    put(g, "YARO", None, "RU3 YARO")
    refused(g, A.StartForce("A", uid("RU8 TVER")), "004 [5.22]")       # no rail ride without a leader
    move(g, "A", "Trotsky", ["YARO", "VOLO"], rail=True, pick={"TVER": ["RU8 TVER"], "YARO": ["RU3 YARO"]},
         end=False)
    g.apply(A.Detach("A", uid("RU8 TVER")))
    g.apply(A.Move("A", "ARCH", True))
    g.apply(A.EndForce("A"))
    assert (where(g, "Trotsky"), where(g, "RU3 YARO"), where(g, "RU8 TVER")) == ("ARCH", "ARCH", "VOLO")
    assert stack_with(g, "RU3 YARO").attached[uid("RU3 YARO")] == lead("Trotsky")
    # A Blue force does not use the railway (004 [5.64]) even though it moves by itself.
    put(g, "ARCH", "A", "BU2 ARCH/US")
    g.apply(A.StartForce("A", uid("BU2 ARCH/US")))
    refused(g, A.Move("A", "VOLO", True), "004 [5.64]")


def test_7_15_any_number_of_stacks_in_a_province():
    """004 [7.15]: no limit to the stacks in one province (of one player or several)."""
    g = blank()
    names = ["Sytin", "Berzin", "Sablin", "Muraviev", "Kalinin", "Kamenev", "Sorokin"]
    for n in names:
        put(g, "NOVG", "A", n)
    put(g, "NOVG", "B", "Gai")
    put(g, "NOVG", None, "RU8 NOVG")
    put(g, "PETR", "A", "Peterson")
    move(g, "A", "Peterson", ["NOVG"])
    assert len(g.ctx.b.stacks_in("NOVG")) == 10
    g.apply(A.EndMovement("A"))
    assert g.state.phase == "combat"


def test_7_21_7_22_attached_units_are_stacked_under_their_leader():
    """004 [7.21]: a unit attached to a Leader is stacked directly under him and goes with him
    for movement and combat; 004 [7.22]: his Leadership Value is the number of combat units
    he may hold (Imperial units do not count, 004 [7.11])."""
    g = blank()
    put(g, "TVER", "A", "Vatzetis", "Sytin")
    put(g, "TVER", None, "RU8 TVER")
    put(g, "TVER", None, "RU4 TULA")
    put(g, "TVER", None, "RU3 KALU")
    g.apply(A.StartForce("A", lead("Vatzetis")))
    g.apply(A.Attach("A", uid("RU8 TVER"), lead("Vatzetis")))
    g.apply(A.Attach("A", uid("RU4 TULA"), lead("Vatzetis")))
    refused(g, A.Attach("A", uid("RU3 KALU"), lead("Vatzetis")), "004 [5.14]")   # value 2: two units
    g.apply(A.Move("A", "YARO", False))
    g.apply(A.EndForce("A"))
    st = stack_with(g, "Vatzetis")
    assert st.units[0] == lead("Vatzetis") and st.attached == {uid("RU8 TVER"): lead("Vatzetis"),
                                                               uid("RU4 TULA"): lead("Vatzetis")}
    assert g.view("A")["stacks"][-1]["attached"] == {str(uid("RU8 TVER")): lead("Vatzetis"),
                                                     str(uid("RU4 TULA")): lead("Vatzetis")}
    assert where(g, "Sytin") == "TVER" and where(g, "RU3 KALU") == "TVER"   # not attached: stayed


def test_7_23_every_stack_shows_one_controlling_player():
    """004 [7.23]: each stack a player controls carries one of his Control Markers (the
    ``owner`` every stack shows in the view); a stack split by a move shows its owner on both
    parts; uncontrolled stacks have none."""
    g = blank()
    put(g, "TVER", "A", "Trotsky", "Sytin", "RU8 TVER", attach={"RU8 TVER": "Trotsky"})
    put(g, "TVER", None, "WU8 DON")
    move(g, "A", "Trotsky", ["YARO"])
    owners = {(s["province"], tuple(sorted(s["units"]))): s["owner"] for s in g.view(None)["stacks"]}
    assert owners == {("YARO", tuple(sorted([lead("Trotsky"), uid("RU8 TVER")]))): "A",
                      ("TVER", (lead("Sytin"),)): "A", ("TVER", (uid("WU8 DON"),)): None}


def test_001_reduced_leader_movement_is_two_plus_the_leadership_rating():
    """001 "Reduced Red and White leader movement": "Leaders move 2 + Leadership rating hexes per
    turn rather than 5" (was wrongly a flat 4); a force of several leaders moves 2 + the lowest
    rating (our reading: each must be able to make the move).  Blue/Green forces keep three."""
    g = blank(options={"reduced_leader_movement": True})
    phase(g, "A", "movement")
    put(g, "URAL", "A", "Lenin")                         # value 3: 5 Movement Points
    put(g, "KIRG", "A", "Kamenev")                       # value 1: 3
    for leader, ma in (("Lenin", 5), ("Kamenev", 3)):
        g.apply(A.StartForce("A", uid(leader)))
        assert g.force_allowance() == ma
        far = max(len(r["path"]) for r in g.reach().values() if not r["rail"])
        assert far == ma, (leader, far)
        g.apply(A.EndForce("A"))
    assert blank(options={}).limits()["leader_movement"] == 5
