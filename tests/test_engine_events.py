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


def first_draw(g, *chits: str) -> None:
    """Fill the Randomizer with ``chits``, arranged so that the draws take them in this order
    (the cup's order is hidden; the RNG's picks are not changed)."""
    from rcw.rng import Rng

    r = Rng(g.state.rng)
    picks = [r.below(n) for n in range(len(chits), 0, -1)]
    cup: list = []
    for chit, i in zip(reversed(chits), reversed(picks), strict=True):
        cup.insert(i, chit)
    g.state.aux = cup


def test_draw_again_happens_at_once():
    """004 [12.13] 2: the drawer who chooses to draw again draws at once, in the same phase.
    (Before the redraw was the drawer's choice the engine drew again by itself; now it asks.)"""
    g = blank()
    first_draw(g, "BC:BR", "A")
    phase(g, "A", "randomizer")
    g.apply(A.DrawRandomizer("A"))
    g.apply(A.RedrawChit("A", True))
    assert g.state.aux == [] and g.state.assassins["A"] == 1 and g.state.control["BR"] == "A"


def test_12_13_the_redraw_is_the_drawers_decision():
    """004 [12.13] 2: "the Player *may* immediately draw again": a decision of the drawer,
    with two answers (keep, draw again); play waits for it."""
    g = blank()
    first_draw(g, "BC:BR", "A")
    phase(g, "A", "randomizer")
    ev = g.apply(A.DrawRandomizer("A"))
    assert [e.kind for e in ev] == ["drew", "redraw_offered"]
    assert g.pending == [{"seat": "A", "kind": "redraw"}]
    d = g.view("A")["decision"]
    assert d["kind"] == "redraw" and d["chit"] == "BC:BR" and d["marker"] == "control" and d["force"] == "Great Britain"
    assert g.legal_actions("A") == [A.RedrawChit("A", False), A.RedrawChit("A", True)]
    assert g.legal_actions("B") == []
    refused(g, A.RedrawChit("B", True), "004 [12.13]")
    refused(g, A.EndPlayerTurn("A"), "004 [4.2]")
    refused(g, A.Quit("A"), "004 [14.2]")
    assert g.ctx.b.phasing() == "A" and g.state.aux == ["A"]


def test_12_13_the_czech_marker_is_drawn_again_when_every_czech_unit_has_left_by_vladivostok():
    """004 [12.13] 2 gives the redraw for "a force which was previously withdrawn, or totally
    eliminated"; Czech units that left by Vladivostok (004 [5.66], face-down on the Victory Point
    Chart, 004 [14.45]) are neither, but the marker controls nothing either way: the engine reads
    "no unit of it left on the map" (docs/rules-coverage.md, "Words the engine reads one way",
    from a rules audit).  While one Czech unit stands on the map, the drawer takes control."""
    g = blank()
    czechs = [u for u, x in g.data.units.items() if x.nationality == "CZ" and x.is_combat]
    for st in list(g.state.stacks.values()):
        st.units = [u for u in st.units if u not in czechs]
        if not st.units:
            del g.state.stacks[st.id]
    g.state.vp.setdefault("B", []).extend([u, False] for u in czechs)      # exited, face down
    first_draw(g, "BC:CZ", "A")
    phase(g, "A", "randomizer")
    ev = g.apply(A.DrawRandomizer("A"))
    assert [e.kind for e in ev] == ["drew", "redraw_offered"] and "whose units are gone" in ev[0].text
    assert g.state.decision["force"] == "Czechoslovakia"


def test_12_13_keeping_the_marker_ends_the_draw():
    """004 [12.13] 2: a player who keeps a Blue Control Marker of a vanished force holds it
    (Bell #4: C kept the British one); the Player-Turn then ends as after any draw."""
    g = blank()
    first_draw(g, "BC:BR", "A")
    phase(g, "A", "randomizer")
    g.apply(A.DrawRandomizer("A"))
    ev = g.apply(A.RedrawChit("A", False))
    assert ev[0].kind == "kept" and "004 [12.13]" in ev[0].text
    assert g.state.aux == ["A"] and g.state.assassins["A"] == 0 and g.state.control["BR"] == "A"
    assert g.state.decision is None and g.ctx.b.phasing() == "B" and g.state.phase == "random_events"


def test_12_13_a_kept_withdrawal_marker_is_recorded():
    """004 [12.13] 3: the Withdrawal Marker of a force totally eliminated, kept (Bell #4: E)."""
    g = blank()
    first_draw(g, "WD:BR", "A")
    phase(g, "A", "randomizer")
    g.apply(A.DrawRandomizer("A"))
    assert g.view("A")["decision"]["marker"] == "withdrawal"
    g.apply(A.RedrawChit("A", False))
    assert g.state.withdrawal_markers == {"A": ["BR"]} and "BR" not in g.state.withdrawn
    assert g.state.aux == ["A"]


def test_12_13_a_second_draw_may_ask_again():
    """004 [12.13]: the substitute chit may itself entitle the drawer to another draw."""
    g = blank()
    first_draw(g, "BC:US", "WD:US", "A")
    phase(g, "A", "randomizer")
    g.apply(A.DrawRandomizer("A"))
    g.apply(A.RedrawChit("A", True))
    assert g.pending == [{"seat": "A", "kind": "redraw"}] and g.state.decision["chit"] == "WD:US"
    g.apply(A.RedrawChit("A", True))
    assert g.state.decision is None and g.state.assassins["A"] == 1 and g.state.control["US"] == "A"
    assert g.ctx.b.phasing() == "B"


def test_12_13_the_last_chit_is_kept():
    """004 [12.13]: with nothing left in the Randomizer there is nothing to draw again."""
    g = blank()
    g.state.aux = ["BC:BR"]
    phase(g, "A", "randomizer")
    ev = g.apply(A.DrawRandomizer("A"))
    assert "kept" in [e.kind for e in ev] and g.state.decision is None and g.ctx.b.phasing() == "B"


def test_12_13_a_random_event_draw_asks_too():
    """004 [12.13] through the Random Events Table: the decision comes before the Movement Phase."""
    g = blank()
    first_draw(g, "BC:BR", "A")
    phase(g, "A", "random_events")
    with dice(g, *cell_of("draw").roll):
        g.apply(A.RollRandomEvents("A"))
    assert g.pending == [{"seat": "A", "kind": "redraw"}]
    refused(g, A.EndMovement("A"), "004 [4.2]")
    g.apply(A.RedrawChit("A", True))
    assert g.state.assassins["A"] == 1 and g.pending == [{"seat": "A", "kind": "movement"}]
    g.apply(A.EndMovement("A"))


def test_12_13_without_asking_the_drawer_always_draws_again():
    """The SPI solitaire's non-Red Player is a procedure: ``randomizer.draw`` without ``ask``
    draws again by itself (004 [12.13])."""
    g = blank()
    first_draw(g, "BC:BR", "A")
    ev = randomizer.draw(g.ctx, "A")
    assert [e.kind for e in ev] == ["drew", "redraw", "drew"] and g.state.assassins["A"] == 1
    assert g.state.decision is None


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
