"""001 Freikorps (the option ``freikorps``): its Control and Out markers in the Auxiliary Forces
Randomizer, the strength-6 Blue unit landed by a die, Subversive Attacks on it one row worse.
Each test cites ``001 Freikorps`` (tests/rules_coverage.py)."""

from __future__ import annotations

import pytest
from engine_helpers import blank, dice, every_unit_accounted, phase, put, refused, run, stack_with, started, uid, where

from rcw import actions as A

OPT = {"freikorps": True}
FK = uid("BU6 Freikorps")


def draw(g, seat: str, chit: str, *rolls: int) -> list:
    phase(g, seat, "randomizer")
    g.state.aux = [chit]
    with dice(g, *rolls):
        return g.apply(A.DrawRandomizer(seat))


def test_its_markers_begin_in_the_randomizer():
    """001 Freikorps: Control and Out Markers - "The Freikorps Control Marker and the Freikorp Out
    Marker are both added to the Auxiliary Force Randomizer"; the unit waits off the map."""
    g = started(options=OPT)
    assert {"BC:FK", "WD:FK"} <= set(g.state.aux)
    assert g.data.units[FK].color == "Blue" and g.data.units[FK].strength == 6
    assert g.data.blue_names["FK"] == "Freikorps" and g.ctx.b.stack_of(FK) is None
    every_unit_accounted(g)
    assert "FK" not in started().data.blue_names


@pytest.mark.parametrize("die,province", [(1, "FINL"), (2, "ESTO"), (3, "LIVO"), (4, "COUR"), (5, "KOVN")])
def test_the_control_marker_lands_it_by_a_die(die, province):
    """001 Freikorps: Control and Out Markers - "The Freikorps ... is placed on the map when its
    Control Marker is drawn.  Roll a die for placement; 1 = Finland 2 = Estonia 3 = Livonia 4 =
    Courland 5 = Kovno"."""
    g = blank(options=OPT)
    ev = draw(g, "C", "BC:FK", die)
    st = g.ctx.b.stack_of(FK)
    assert (st.province, st.owner, st.units) == (province, "C", [FK])
    assert g.state.control["FK"] == "C"
    assert any(e.kind == "placed" and "Freikorps" in e.text for e in ev)
    assert g.stats["freikorps_placed"] == 1


def test_on_a_six_the_drawer_chooses():
    """001 Freikorps: Control and Out Markers - "6 = player chooses from 1-5" (the place decision)."""
    g = blank(options=OPT)
    draw(g, "B", "BC:FK", 6)
    d = g.decision
    assert d["kind"] == "place" and d["seat"] == "B" and d["provinces"] == ["FINL", "ESTO", "LIVO", "COUR", "KOVN"]
    refused(g, A.PlaceUnit("B", province="POLA"), "001 Freikorps")
    g.apply(A.PlaceUnit("B", province="COUR"))
    assert where(g, "BU6 Freikorps") == "COUR" and stack_with(g, "BU6 Freikorps").owner == "B"


def test_the_out_marker_withdraws_it_and_its_control_marker_then_allows_a_redraw():
    """001 Freikorps: Control and Out Markers - what the "Freikorp Out Marker" does is not said; read as a Blue
    Withdrawal Marker (004 [5.67], [12.13] 3): drawn first, the Freikorps never comes, and its
    Control Marker, drawn later, entitles its drawer to draw again (004 [12.13] 2)."""
    for seed in range(20):
        g = blank(seed=seed, options=OPT)
        ev = draw(g, "A", "WD:FK")
        assert FK in g.state.removed and "FK" in g.state.withdrawn
        assert any(e.kind == "withdrawal" and "will not come" in e.text for e in ev)
        phase(g, "B", "randomizer")
        g.state.aux = ["BC:FK", "A"]
        g.apply(A.DrawRandomizer("B"))                 # (the RNG picks the chit: a seed that picks BC:FK)
        if g.decision is not None:
            break
    assert g.decision["kind"] == "redraw" and g.decision["chit"] == "BC:FK" and g.decision["seat"] == "B"
    assert g.ctx.b.stack_of(FK) is None


def test_the_out_marker_removes_it_from_the_map():
    """001 Freikorps: Control and Out Markers - the Out Marker drawn once the Freikorps has landed:
    it leaves the game (our reading, 004 [5.67])."""
    g = blank(options=OPT)
    draw(g, "A", "BC:FK", 2)
    draw(g, "B", "WD:FK")
    assert g.ctx.b.stack_of(FK) is None and g.state.removed == [FK] and g.stats["freikorps_out"] == 1


def test_subversion_against_it_is_one_row_worse():
    """001 Freikorps: Subversion - "All Subversion attacks against the Freikorp are -1 to die"
    (our reading on our CRT, whose low rolls favour the attacker: the roll moves one row against
    him)."""
    g = blank(options=OPT)
    draw(g, "C", "BC:FK", 2)                                       # in Estonia, C's
    put(g, "PETR", "A", "Lenin", "RU3 OLON", attach={"RU3 OLON": "Lenin"})     # 6 against 6: 1:1
    phase(g, "A", "combat")
    with dice(g, 1):                                               # 1 at 1:1 is De; 2 is Ex
        ev = run(g, A.DeclareAttack("A", stack_with(g, "BU6 Freikorps").id, True),
                 A.AddAttacker("A", stack_with(g, "Lenin").id), A.ResolveAttack("A"))
    c = next(e for e in ev if e.kind == "combat")
    assert c.data["result"] == "Ex" and "die 1, 2 against the Freikorps" in c.text
    assert where(g, "BU6 Freikorps") == "ESTO"                      # Ex: no effect on a Subversive Attack (004 [8.33])
    g2 = blank(options=OPT)
    put(g2, "ESTO", "C", "BU2 KHER/FR")
    put(g2, "ESTO", "C", "BU2 KHER/FR")
    put(g2, "ESTO", "C", "BU2 KHER/FR")
    put(g2, "PETR", "A", "Lenin", "RU3 OLON", attach={"RU3 OLON": "Lenin"})
    phase(g2, "A", "combat")
    with dice(g2, 1):
        ev = run(g2, A.DeclareAttack("A", stack_with(g2, "BU2 KHER/FR").id, True),
                 A.AddAttacker("A", stack_with(g2, "Lenin").id), A.ResolveAttack("A"))
    assert next(e for e in ev if e.kind == "combat").data["result"] == "De"        # any other Blue unit: the die as rolled
