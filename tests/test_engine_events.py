"""Random Events (004 [12.0]-[12.2]) and the Auxiliary Forces Randomizer (004 [12.13],
[5.61], [5.67], [5.71])."""

from __future__ import annotations

import pytest
from engine_helpers import D, blank, dice, on_map, phase, put, refused, section, stack_with, uid, uids, where

from rcw import actions as A
from rcw.rules import random_events, randomizer
from rcw.state import UNASSIGNED


def cell_of(result: str):
    return next(c for c in D.tables.random_events.values() if c.result == result)


def epidemic_cell(province: str):
    return next(c for c in D.tables.random_events.values() if province in c.provinces)


# -- the roll (004 [12.0] general rule) --------------------------------------------------------
@pytest.mark.parametrize("roll", [(1, 2), (2, 1), (6, 5), (5, 6)])
def test_first_die_is_the_row_second_the_column(roll):
    g = blank()
    phase(g, "A", "random_events")
    with dice(g, *roll):
        ev = g.apply(A.RollRandomEvents("A"))
    assert ev[0].data["roll"] == list(roll)
    assert ev[0].data["result"] == D.tables.random_events[roll].result
    assert g.state.phase == "movement"


def test_only_the_phasing_player_rolls_once():
    g = blank()
    phase(g, "A", "random_events")
    refused(g, A.RollRandomEvents("B"), "004 [4.2]")
    with dice(g, 1, 1):
        g.apply(A.RollRandomEvents("A"))
    refused(g, A.RollRandomEvents("A"), "004 [4.2]")


# -- epidemics (004 [12.11]) ---------------------------------------------------------------------
def test_epidemic_takes_the_strongest_unit_of_each_red_green_white_stack():
    g = blank()
    put(g, "KALU", "A", "Kalinin", "RU3 KALU", "RU8 PETR", attach={"RU3 KALU": "Kalinin"})
    put(g, "KALU", "B", "WU2 TERE", "WU4 KUBA")
    put(g, "KALU", None, "GU2 KHER")
    put(g, "KALU", None, "BU2 KHER/FR")
    ev = random_events.epidemic(g.ctx, "KALU")
    gone = sorted(e.data["unit"] for e in ev if e.kind == "eliminated")
    assert gone == sorted(map(uid, ("RU8 PETR", "WU4 KUBA", "GU2 KHER")))
    assert all(section(g, x) == UNASSIGNED for x in ("RU8 PETR", "WU4 KUBA", "GU2 KHER"))
    assert where(g, "Kalinin") == "KALU" and where(g, "RU3 KALU") == "KALU"      # leaders immune
    assert where(g, "BU2 KHER/FR") == "KALU"                                      # Blue immune


def test_epidemic_ties_take_the_topmost():
    g = blank()
    put(g, "KALU", None, "WU2 TERE", "WU2 TIFL", "WU2 SARA")
    random_events.epidemic(g.ctx, "KALU")
    assert section(g, "WU2 TERE") == UNASSIGNED
    assert where(g, "WU2 TIFL") == "KALU" and where(g, "WU2 SARA") == "KALU"


def test_epidemic_spares_leaders_imperial_units_and_blue_units():
    g = blank()
    put(g, "EKAT", "A", "Blucher", "Czar", attach={"Czar": "Blucher"})
    put(g, "EKAT", None, "BU3 EKAT/CZ", "Gold", attach={"Gold": ""})
    assert random_events.epidemic(g.ctx, "EKAT") == []
    assert where(g, "Czar") == "EKAT" and where(g, "Gold") == "EKAT" and where(g, "Blucher") == "EKAT"


def test_epidemic_cell_names_up_to_four_provinces():
    g = blank()
    c = epidemic_cell("TSIT")
    put(g, "RYAZ", None, "RU8 NOVG")
    put(g, "TIFL", None, "WU2 TIFL")
    put(g, "KAZA", None, "RU2 KAZA")                      # not in the cell
    phase(g, "A", "random_events")
    with dice(g, *c.roll):
        ev = g.apply(A.RollRandomEvents("A"))
    assert sorted(e.data["unit"] for e in ev if e.kind == "eliminated") == sorted(map(uid, ("RU8 NOVG", "WU2 TIFL")))
    assert where(g, "RU2 KAZA") == "KAZA"


def test_epidemic_hits_only_units_there_during_the_phase():
    """004 [12.11]: units entering the province afterwards are not affected."""
    g = blank()
    c = epidemic_cell("KALU")
    put(g, "TULA", "A", "Sorokin", "RU4 TULA", attach={"RU4 TULA": "Sorokin"})
    phase(g, "A", "random_events")
    with dice(g, *c.roll):
        g.apply(A.RollRandomEvents("A"))
    g.apply(A.StartForce("A", uid("Sorokin")))
    g.apply(A.Move("A", "KALU", False))
    g.apply(A.EndForce("A"))
    assert where(g, "RU4 TULA") == "KALU"


def test_epidemic_leaves_an_imperial_unit_alone_and_uncontrolled():
    """004 [13.42]: the last unit with the Czar dies of typhus; the Czar is nobody's."""
    g = blank()
    put(g, "EKAT", None, "RU2 EKAT", "Czar", attach={"Czar": ""})
    random_events.epidemic(g.ctx, "EKAT")
    st = g.ctx.b.stack_of(D.czar)
    assert st.units == [D.czar] and st.owner is None


# -- Subversive Attacks Doubled (004 [12.12]) -------------------------------------------------------
def test_subversion_doubled_lasts_the_player_turn():
    g = blank()
    phase(g, "A", "random_events")
    with dice(g, *cell_of("subversion_doubled").roll):
        g.apply(A.RollRandomEvents("A"))
    assert g.state.subversion_doubled and g.view()["subversion_doubled"]
    g.apply(A.EndMovement("A"))
    g.apply(A.EndCombat("A"))
    g.state.aux = ["A"]
    g.apply(A.DrawRandomizer("A"))
    assert g.state.phase == "random_events" and not g.state.subversion_doubled


# -- Draw from the Randomizer (004 [12.13]) ------------------------------------------------------
def test_draw_event_draws_a_chit():
    g = blank()
    g.state.aux = ["A"]
    phase(g, "A", "random_events")
    with dice(g, *cell_of("draw").roll):
        g.apply(A.RollRandomEvents("A"))
    assert g.state.assassins["A"] == 1 and g.state.aux == []


def test_assassin_marker():
    g = blank()
    more, ev = randomizer.resolve(g.ctx, "C", "A")
    assert not more and g.state.assassins["C"] == 1


def test_blue_control_marker_controls_every_unit_of_the_nationality():
    """004 [12.13] 2, [5.61]: a Player Control Marker on each unit or force."""
    g = blank()
    put(g, "KHER", None, "BU2 KHER/FR", "BU2 KHER/FR")
    put(g, "POLT", None, "BU2 KHER/FR")
    put(g, "KHER", None, "BU2 KHER/GE")
    more, _ = randomizer.resolve(g.ctx, "B", "BC:FR")
    assert not more and g.state.control["FR"] == "B"
    fr = uids("BU2 KHER/FR")
    assert {g.ctx.b.stack_of(u).owner for u in fr} == {"B"}
    assert stack_with(g, "BU2 KHER/GE").owner is None


def test_green_control_marker():
    g = blank()
    put(g, "KIEV", None, "GU4 KIEV")
    put(g, "KHER", None, "GU2 KHER")
    put(g, "KHAR", None, "GU2 KHAR")
    randomizer.resolve(g.ctx, "D", "GC:UK")
    assert {stack_with(g, x).owner for x in ("GU4 KIEV", "GU2 KHER", "GU2 KHAR")} == {"D"}


def test_blue_control_of_a_vanished_force_draws_again():
    """004 [12.13] 2: Blue marker of a force withdrawn or totally eliminated: draw again."""
    g = blank()
    more, _ = randomizer.resolve(g.ctx, "A", "BC:BR")                  # BR not on the map
    assert more
    g.state.withdrawn.append("US")
    put(g, "ARCH", None, "BU2 ARCH/US")
    assert randomizer.resolve(g.ctx, "A", "BC:US")[0]


def test_green_control_of_a_vanished_force_does_not_draw_again():
    """004 [12.13] 2: 'Conversely ... Green ... not entitled to a substitute draw.'"""
    g = blank()
    more, _ = randomizer.resolve(g.ctx, "A", "GC:UK")
    assert not more and g.state.control["UK"] == "A"


def test_draw_again_happens_at_once():
    g = blank()
    g.state.aux = ["BC:BR", "A"]
    phase(g, "A", "randomizer")
    g.apply(A.DrawRandomizer("A"))
    assert g.state.aux == [] and g.state.assassins["A"] == 1 and g.state.control["BR"] == "A"


def test_withdrawal_removes_the_units_from_play():
    """004 [5.67], [12.13] 3: units on the map leave for good (not to the VP chart); units
    already eliminated stay on the chart."""
    g = blank()
    put(g, "ARCH", "C", "BU2 ARCH/US")
    put(g, "VLDV", None, "BU2 VLDV/US", "BU2 VLDV/US")
    g.ctx.to_chart(uids("BU2 VLDV/US")[1], "B")
    g.ctx.take(uids("BU2 VLDV/US")[1])
    more, ev = randomizer.resolve(g.ctx, "E", "WD:US")
    assert not more
    assert all(g.ctx.b.stack_of(u) is None for u in uids("BU2 ARCH/US") + uids("BU2 VLDV/US"))
    assert set(g.state.removed) == {uid("BU2 ARCH/US"), uids("BU2 VLDV/US")[0]}
    assert section(g, "BU2 ARCH/US") is None and g.state.vp["B"] == [[uids("BU2 VLDV/US")[1], True]]
    assert "US" in g.state.withdrawn


def test_withdrawal_of_an_eliminated_force_draws_again():
    g = blank()
    assert randomizer.resolve(g.ctx, "E", "WD:BR")[0]


def test_withdrawal_leaves_a_carried_imperial_unit_behind():
    g = blank()
    put(g, "OMSK", "A", "BU3 OMSK/CZ", "Gold", attach={"Gold": ""})
    g.state.withdrawal_markers = {}
    randomizer.resolve(g.ctx, "B", "WD:GE")          # nothing: GE absent
    put(g, "KHER", None, "BU2 KHER/GE")
    randomizer.resolve(g.ctx, "B", "WD:GE")
    assert where(g, "BU2 KHER/GE") is None and where(g, "Gold") == "OMSK"


def test_empty_randomizer():
    g = blank()
    g.state.aux = []
    ev = randomizer.draw(g.ctx, "A")
    assert ev[-1].kind == "randomizer_empty"


def test_randomizer_phase_draws_one_chit_then_the_next_player():
    """004 [4.2] A.4."""
    g = blank()
    g.state.aux = ["A", "A", "A"]
    phase(g, "A", "randomizer")
    g.apply(A.DrawRandomizer("A"))
    assert g.state.assassins["A"] == 1 and len(g.state.aux) == 2
    assert g.ctx.b.phasing() == "B" and g.state.phase == "random_events"


def test_on_map_helper_for_duplicates():
    g = blank()
    put(g, "POLA", None, "GU8 POLA", "GU8 POLA")
    assert on_map(g, "GU8 POLA") == uids("GU8 POLA")[0]
