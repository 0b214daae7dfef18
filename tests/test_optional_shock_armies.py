"""001 Shock Armies (the option ``shock_armies``): two Red and one White strength-8 units in the
Auxiliary Forces Randomizer, placed with a leader when drawn, back into the cup if eliminated
before Game-Turn 6.  Each test cites ``001 Shock Armies`` (tests/rules_coverage.py)."""

from __future__ import annotations

from engine_helpers import blank, dice, every_unit_accounted, phase, put, refused, run, stack_with, started, uid

from rcw import actions as A
from rcw.rules import random_events
from rcw.state import UNASSIGNED

OPT = {"shock_armies": True}
RED1, RED2, WHITE1 = uid("RU8 SHOCK1"), uid("RU8 SHOCK2"), uid("WU8 SHOCK")


def draw(g, seat: str, chit: str) -> list:
    phase(g, seat, "randomizer")
    g.state.aux = [chit]
    return g.apply(A.DrawRandomizer(seat))


def test_three_shock_armies_begin_in_the_randomizer():
    """001 Shock Armies: "2 red and 1 white Shock Army combat units (all 8 strength) are placed
    into the Auxiliary Force Randomizer"."""
    g = started(options=OPT)
    assert {(g.data.units[u].color, g.data.units[u].strength) for u in (RED1, RED2, WHITE1)} == {("Red", 8), ("White", 8)}
    assert sorted(c for c in g.state.aux if c.startswith("U:")) == sorted(f"U:{u}" for u in (RED1, RED2, WHITE1))
    assert all(g.ctx.b.stack_of(u) is None for u in (RED1, RED2, WHITE1))
    every_unit_accounted(g)
    assert g.stats["shock_armies_placed"] == 0


def test_a_shock_army_drawn_goes_with_any_leader_of_its_colour_outside_siberia_with_room():
    """001 Shock Armies: "When drawn can be placed with any leader, not in Siberia, within
    stacking limits" (our reading: a leader of its colour, whoever controls him; a stack of
    fewer than five leader and combat units, 004 [7.11])."""
    g = blank(options=OPT)
    put(g, "PETR", "A", "Lenin")
    put(g, "TVER", "B", "Trotsky")                                     # another player's leader
    put(g, "OMSK", "A", "Frunze")                                      # in Siberia
    put(g, "KURS", "A", "Voroshilov", "Budenny", "Vatzetis", "RU6 KURS", "RU3 OREL")   # a full stack
    put(g, "DCOS", "A", "Krasnov")                                     # White
    draw(g, "A", f"U:{RED1}")
    d = g.decision
    assert d["kind"] == "place" and d["leaders"] == sorted([uid("Lenin"), uid("Trotsky")]) and d["provinces"] == []
    refused(g, A.PlaceUnit("A", leader=uid("Frunze")), "001 Shock Armies")
    refused(g, A.PlaceUnit("A", province="PETR"), "001 Shock Armies")
    ev = g.apply(A.PlaceUnit("A", leader=uid("Trotsky")))
    st = stack_with(g, "Trotsky")
    assert RED1 in st.units and st.attached[RED1] == uid("Trotsky") and st.owner == "B"     # B's now (004 [7.12])
    assert any(e.kind == "placed" and "Trotsky" in e.text for e in ev)
    assert g.stats["shock_armies_placed"] == 1


def test_a_leader_without_room_takes_it_into_his_stack_unattached():
    """001 Shock Armies with 004 [5.14]: within the stacking limit (004 [7.11]) it goes into the
    leader's stack; attached to him only if he has room to attach another unit (our reading)."""
    g = blank(options=OPT)
    put(g, "SMOL", "A", "Sablin", "RU6 SMOL", attach={"RU6 SMOL": "Sablin"})      # value 1, one unit attached
    draw(g, "A", f"U:{RED2}")
    g.apply(A.PlaceUnit("A", leader=uid("Sablin")))
    st = stack_with(g, "Sablin")
    assert RED2 in st.units and RED2 not in st.attached
    assert g.attack_units(st.id) == [uid("Sablin"), uid("RU6 SMOL")]               # loose: it does not attack (004 [8.28])


def test_no_leader_to_take_it_sends_it_back_into_the_randomizer():
    """001 Shock Armies: with no White leader outside Siberia the White Shock Army goes back into
    the cup and the draw is spent (our reading)."""
    g = blank(options=OPT)
    put(g, "OMSK", "A", "Kolchak")
    put(g, "PETR", "A", "Lenin")
    ev = draw(g, "A", f"U:{WHITE1}")
    assert g.decision is None and g.state.aux == [f"U:{WHITE1}"]
    assert any("goes back into the Randomizer" in e.text for e in ev)
    assert g.pending == [{"seat": "B", "kind": "random_events"}]


def test_eliminated_before_game_turn_6_it_goes_back_into_the_randomizer():
    """001 Shock Armies: "If eliminated before turn 6 the marker is returned to the Auxiliary
    Force Randomizer" - by combat or by an epidemic; from Game-Turn 6 the usual VP chart."""
    g = blank(options=OPT)
    g.state.aux = []
    put(g, "TVER", "B", "Trotsky", "RU8 SHOCK1", attach={"RU8 SHOCK1": "Trotsky"})
    put(g, "TVER", "A", "Deniken", "WU8 DON", "WU6 KHAR", attach={"WU8 DON": "Deniken", "WU6 KHAR": "Deniken"})
    phase(g, "A", "combat")
    with dice(g, 1):
        run(g, A.DeclareAttack("A", stack_with(g, "Trotsky").id), A.AddAttacker("A", stack_with(g, "Deniken").id),
            A.ResolveAttack("A"))
    assert g.state.aux == [f"U:{RED1}"] and g.ctx.b.on_vp_chart(RED1) is None
    assert g.ctx.b.on_vp_chart(uid("Trotsky")) == "A"
    cell = next(c for c in g.data.tables.random_events.values() if c.result == "epidemic" and "KIEV" in c.provinces)
    put(g, "KIEV", "C", "Kalinin", "RU8 SHOCK2", attach={"RU8 SHOCK2": "Kalinin"})
    random_events.resolve(g.ctx, "A", cell.roll)
    g.ctx.b.invalidate()
    assert sorted(g.state.aux) == sorted([f"U:{RED1}", f"U:{RED2}"])
    g.state.turn = 6
    put(g, "PETR", "B", "Lenin", "WU8 SHOCK", attach={"WU8 SHOCK": "Lenin"})   # (a stack as a test builds it)
    random_events.epidemic(g.ctx, "PETR")
    assert g.ctx.b.on_vp_chart(WHITE1) == UNASSIGNED
