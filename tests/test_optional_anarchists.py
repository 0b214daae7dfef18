"""001 Anarchists (the option ``anarchists``): Makhno and the other Anarchist units.

Each test cites the paragraph of 001's "Optional Forces" it checks (``001 Anarchists: Roving
Attack``...; tests/rules_coverage.py lists them), in positions built with engine_helpers and
loaded dice."""

from __future__ import annotations

import pytest
from engine_helpers import (
    blank,
    check_invariants,
    dice,
    every_unit_accounted,
    phase,
    put,
    refused,
    run,
    stack_with,
    started,
    uid,
    where,
)

from rcw import actions as A
from rcw.data import default
from rcw.game import Game
from rcw.rules import random_events
from rcw.state import UNASSIGNED

OPT = {"anarchists": True}
MAKHNO = uid("AU6 Makhno")
SMALL = sorted(u.id for u in default().optional_units.values() if u.label == "AU3 Anarchists")


def anarchy_game(**kw) -> Game:
    """An empty map, seat A phasing in its Movement Phase, with the Anarchists."""
    return blank(options={**OPT, **kw})


def keep_the_game_going(g: Game) -> None:
    """Red and White leaders and a White combat unit outside Siberia, so that no 004 [14.1]
    condition ends the game at the end of a Game-Turn."""
    put(g, "PETR", "E", "Lenin")
    put(g, "ARCH", "E", "Miller", "WU2 ARCH")


def end_game_turn(g: Game) -> list:
    """A is the last to play this Game-Turn and ends its Player-Turn: the Interphase follows."""
    s = g.state
    phase(g, "A", "randomizer")
    s.order, s.current, s.drawn = ["A"], 0, True
    return g.apply(A.EndPlayerTurn("A"))


def draw(g: Game, seat: str, chit: str) -> list:
    """``seat`` draws ``chit`` in its Randomizer Phase (the cup holds it alone)."""
    phase(g, seat, "randomizer")
    g.state.aux = [chit]
    return g.apply(A.DrawRandomizer(seat))


# -- set-up ----------------------------------------------------------------------------------------
def test_makhno_begins_uncontrolled_in_yekaterinoslav():
    """001 Anarchists: Makhno - "Strength 6 combat unit ... begins the game in Yekaterinoslav,
    and is initially controlled by no player"; 001 Anarchists: Other Anarchist Units - two
    strength-3 units "begin the game in the Auxiliary Forces Randomizer"; 001 Anarchists:
    Anarchist Control Marker - "placed in the Auxiliary Forces Randomizer"."""
    g = started(options=OPT)
    st = g.ctx.b.stack_of(MAKHNO)
    assert (st.province, st.owner, st.units) == ("YEKA", None, [MAKHNO])
    assert g.data.units[MAKHNO].strength == 6 and g.data.units[MAKHNO].color == "Anarchist"
    assert [g.data.units[u].strength for u in SMALL] == [3, 3]
    assert sorted(c for c in g.state.aux if c.startswith("U:") or c == "AN") == ["AN"] + [f"U:{u}" for u in SMALL]
    every_unit_accounted(g)
    plain = started()
    assert MAKHNO not in plain.data.units and "AN" not in plain.state.aux
    assert len(g.state.aux) == len(plain.state.aux) + 3


def test_the_option_is_off_by_default_and_other_modes_refuse_it():
    """001 Anarchists: an option, off by default; the SPI solitaire has no Anarchists."""
    from rcw import modes
    from rcw.actions import IllegalAction

    assert Game.new(5, 1).options.get("anarchists") is None
    with pytest.raises(IllegalAction) as e:
        modes.new_game(options={"mode": "spi-solitaire", "anarchists": True})
    assert e.value.code == "bad_request"


# -- the Randomizer -------------------------------------------------------------------------------
def test_the_control_marker_gives_every_anarchist_and_goes_back_into_the_cup():
    """001 Anarchists: Anarchist Control Marker - "The player who draws this immediately assumes
    control of the Makhno unit, as well as any of the two smaller Anarchist units (if present).
    This chit is immediately returned to the Randomizer"."""
    g = anarchy_game()
    put(g, "YEKA", None, "AU6 Makhno")
    put(g, "KIEV", "B", "AU3 Anarchists")
    ev = draw(g, "C", "AN")
    assert stack_with(g, "AU6 Makhno").owner == "C"
    assert {g.ctx.b.stack_of(u).owner for u in SMALL if g.ctx.b.stack_of(u)} == {"C"}
    assert g.state.aux == ["AN"]
    drew = next(e for e in ev if e.kind == "drew")
    assert "Makhno" in drew.text and drew.data["chit"] == "AN"
    assert g.stats["anarchist_control"] == 1


def test_the_control_marker_brings_an_eliminated_makhno_back():
    """001 Anarchists: Anarchist Control Marker - "if the Makhno unit has been eliminated, but
    the current Game Turn is not 6 or later, the Makhno unit is taken from the Victory Points
    Chart and placed in Yekaterinoslav"; 001 Anarchists: 4 - whoever stands there."""
    g = anarchy_game()
    put(g, "YEKA", "D", "Deniken", "WU3 YEKA", attach={"WU3 YEKA": "Deniken"})
    g.state.vp = {UNASSIGNED: [[MAKHNO, True]]}
    draw(g, "B", "AN")
    st = stack_with(g, "AU6 Makhno")
    assert (st.province, st.owner, st.units) == ("YEKA", "B", [MAKHNO])
    assert g.ctx.b.on_vp_chart(MAKHNO) is None
    assert g.stats["makhno_returns"] == 1


def test_the_control_marker_brings_makhno_back_only_before_game_turn_6():
    """001 Anarchists: Anarchist Control Marker - Makhno comes back on the marker only if "the
    current Game Turn is not 6 or later".  Eliminated by the Roving Attack that ends Game-Turn 5
    (the Interphase of Game-Turn 5: to the unassigned section, Elimination (a)), he is not
    brought back by a draw of the marker in Game-Turn 6, which still gives its drawer every
    Anarchist unit on the map; Elimination (a) brings him back at the Replacement Segment."""
    g = anarchy_game()
    keep_the_game_going(g)
    g.state.turn = 5
    put(g, "YEKA", None, "AU6 Makhno")
    put(g, "KHAR", "B", "WU6 KHAR")                # 6 against 6: 1:1
    with dice(g, 5):                               # (the CRT's Ae at 1:1)
        end_game_turn(g)
    assert g.state.turn == 6 and g.ctx.b.on_vp_chart(MAKHNO) == UNASSIGNED
    ev = draw(g, "C", "AN")
    assert g.ctx.b.stack_of(MAKHNO) is None and g.ctx.b.on_vp_chart(MAKHNO) == UNASSIGNED
    assert not any(e.kind == "makhno_returns" for e in ev)
    assert next(e for e in ev if e.kind == "drew").data["chit"] == "AN" and g.state.aux == ["AN"]
    with dice(g, 1):                               # (back, he roves against WU6 KHAR again)
        ev = end_game_turn(g)                      # (the Interphase of Game-Turn 6)
    back = next(e for e in ev if e.kind == "makhno_returns")
    assert back.data["province"] == "YEKA" and back.data["seat"] is None
    assert [e.kind for e in ev].index("makhno_returns") < [e.kind for e in ev].index("roving")


def test_a_small_anarchist_drawn_is_placed_by_its_drawer_under_his_control():
    """001 Anarchists: Other Anarchist Units - "If drawn, they may be placed anywhere by the
    drawing player, and are under his control"; 001 Anarchists: 4 - "The presence of any units
    ... never interferes with the placement"; our reading of "anywhere": a Russian province."""
    g = anarchy_game()
    put(g, "KIEV", "B", "GU4 KIEV")
    ev = draw(g, "A", f"U:{SMALL[0]}")
    d = g.decision
    assert d["kind"] == "place" and d["seat"] == "A" and d["unit"] == SMALL[0]
    assert "KIEV" in d["provinces"] and "FINL" not in d["provinces"] and "POLA" not in d["provinces"]
    assert A.PlaceUnit("A", province="KIEV") in g.legal_actions("A")
    assert g.legal_actions("B") == []
    refused(g, A.PlaceUnit("A", province="FINL"), "001 Anarchists")
    refused(g, A.PlaceUnit("B", province="KIEV"), "001 Optional Forces")
    ev += g.apply(A.PlaceUnit("A", province="KIEV"))
    st = g.ctx.b.stack_of(SMALL[0])
    assert (st.province, st.owner, st.units) == ("KIEV", "A", [SMALL[0]])
    assert any(e.kind == "placed" and "Kiev" in e.text for e in ev)
    assert g.pending == [{"seat": "B", "kind": "random_events"}]       # the draw ended A's Player-Turn


def test_a_small_anarchist_drawn_on_a_random_event_is_placed_before_the_movement_phase():
    """001 Anarchists: Other Anarchist Units with 004 [12.13]: drawn on a "Draw from the
    Randomizer" Random Event, the unit is placed, then the drawer's Movement Phase follows."""
    g = anarchy_game()
    phase(g, "A", "random_events")
    g.state.aux = [f"U:{SMALL[1]}"]
    roll = next(c.roll for c in g.data.tables.random_events.values() if c.result == "draw")
    with dice(g, *roll):
        g.apply(A.RollRandomEvents("A"))
    assert g.pending == [{"seat": "A", "kind": "place"}]
    g.apply(A.PlaceUnit("A", province="OMSK"))
    assert where(g, "AU3 Anarchists") == "OMSK" and g.pending == [{"seat": "A", "kind": "movement"}]
    assert A.StartForce("A", SMALL[1]) in g.legal_actions("A")


# -- movement ---------------------------------------------------------------------------------------
def test_anarchists_move_four_never_by_rail():
    """001 Anarchists: Moving Anarchist Units - "The Movement Allowance of all Anarchist units is
    4 ... Anarchist units may never use Rail Movement"."""
    g = anarchy_game()
    put(g, "VOLO", "A", "AU3 Anarchists")
    g.apply(A.StartForce("A", SMALL[0]))
    assert g.force_allowance() == 4
    refused(g, A.Move("A", "YARO", True), "004 [5.51]")
    run(g, A.Move("A", "YARO"), A.Move("A", "KOST"), A.Move("A", "VYAT"), A.Move("A", "PERM"))
    refused(g, A.Move("A", "EKAT"), "004 [5.28]")
    assert set(g.reach()) == set()


def test_makhno_stays_in_his_area_and_the_others_in_russia():
    """001 Anarchists: Moving Anarchist Units - "Movement of the Makhno unit, however, is
    restricted to Ukrainian provinces, plus ... Grodno, Minsk, Mohilev, Orel, Kursk, and Don
    Cossacks ... The two smaller Anarchist units may move anywhere within Russia"."""
    g = anarchy_game()
    put(g, "OREL", "A", "AU6 Makhno")
    reach = g.reach(MAKHNO)
    assert "KURS" in reach and "KHAR" in reach and "TULA" not in reach and "VORO" not in reach
    g.apply(A.StartForce("A", MAKHNO))
    refused(g, A.Move("A", "TULA"), "001 Anarchists")
    g.apply(A.EndForce("A"))
    put(g, "PETR", "A", "AU3 Anarchists")
    assert "FINL" not in g.reach(SMALL[0]) and "NOVG" in g.reach(SMALL[0])
    g.apply(A.StartForce("A", SMALL[0]))
    refused(g, A.Move("A", "FINL"), "001 Anarchists")


def test_makhno_enters_poland_once_poland_is_controlled_and_poles_have_entered_the_ukraine():
    """001 Anarchists: Moving Anarchist Units - "If Poland is both player-controlled, and Polish
    units have ever entered a Ukrainian province, then Makhno may move, conduct Combat, into
    Poland as well"."""
    g = anarchy_game()
    put(g, "VOLY", "A", "AU6 Makhno")
    put(g, "POLA", "B", "GU8 POLA")
    assert "POLA" not in g.reach(MAKHNO)
    g.state.control["PO"] = "B"
    assert "POLA" not in g.reach(MAKHNO)            # no Polish unit has entered the Ukraine yet
    phase(g, "B", "movement")
    run(g, A.StartForce("B", stack_with(g, "GU8 POLA").units[0]), A.Move("B", "VOLY"), A.EndForce("B"))
    phase(g, "A", "movement")
    assert "POLA" in g.reach(MAKHNO)
    g.state.quit.append("B")                        # no longer player-controlled
    g.ctx.b.invalidate()
    assert "POLA" not in g.reach(MAKHNO)


def test_an_anarchist_disrupts_rail_movement_from_to_and_through_its_province():
    """001 Anarchists: 1 - "Any Anarchist unit present in a province through which a Rail line
    passes disrupts Rail Movement from, to, or through that province"."""
    g = anarchy_game()
    put(g, "TVER", "A", "Trotsky")
    put(g, "TULA", "B", "AU3 Anarchists")
    reach = g.reach(uid("Trotsky"))
    assert not reach["TULA"]["rail"]                              # not to Tula by rail,
    rail = [r["path"] for r in reach.values() if r["rail"]]
    assert rail and not any("TULA" in p for p in rail)            # nor through it
    g.apply(A.StartForce("A", uid("Trotsky")))
    refused(g, A.Move("A", "TULA", True), "001 Anarchists")
    run(g, A.Move("A", "NOVG", True), A.Move("A", "PETR", True))   # other lines run
    g.apply(A.EndForce("A"))
    put(g, "PETR", "A", "Lenin")
    put(g, "PETR", "C", "AU3 Anarchists")
    assert all(not r["rail"] for r in g.reach(uid("Lenin")).values())   # not from there either


def test_an_anarchist_holds_its_port_against_emigration_and_the_czech_exodus():
    """001 Anarchists: 2 - "Any Anarchist unit present in a Port province will prevent
    Emigration of Imperial Units [13.3] and/or exodus of Czech units"."""
    for held in (False, True):
        g = anarchy_game()
        put(g, "KHER", "A", "Deniken", "Czar", attach={"Czar": "Deniken"})
        put(g, "VLDV", "A", "BU3 OMSK/CZ")
        if not held:
            assert g.is_legal(A.Emigrate("A", g.data.czar))
            assert g.is_legal(A.CzechExit("A", uid("BU3 OMSK/CZ")))
    put(g, "KHER", "B", "AU3 Anarchists")
    put(g, "VLDV", "C", "AU3 Anarchists")
    refused(g, A.Emigrate("A", g.data.czar), "001 Anarchists")
    refused(g, A.CzechExit("A", uid("BU3 OMSK/CZ")), "001 Anarchists")


def test_anarchists_are_never_stacked_with_other_units():
    """001 Anarchists: 3 - "Anarchist units may never be stacked with other units"."""
    g = anarchy_game()
    a1 = put(g, "KIEV", "A", "AU3 Anarchists")
    a2 = put(g, "KIEV", "A", "AU3 Anarchists")
    put(g, "KIEV", "A", "Deniken", "Gold", attach={"Gold": "Deniken"})
    put(g, "KIEV", "A", "Czar")
    refused(g, A.Merge("A", a1.id, a2.id), "001 Anarchists")
    refused(g, A.TransferImperial("A", g.data.gold, a1.id, 0), "001 Anarchists")
    g.apply(A.StartForce("A", a1.units[0]))
    refused(g, A.Attach("A", g.data.czar, 0), "001 Anarchists")
    refused(g, A.Attach("A", a2.units[0], 0), "001 Anarchists")
    g.apply(A.EndForce("A"))
    g.apply(A.StartForce("A", uid("Deniken")))
    refused(g, A.Attach("A", a2.units[0], uid("Deniken")), "001 Anarchists")
    g.apply(A.Attach("A", g.data.czar, uid("Deniken")))        # (what an Anarchist may not do, a leader may)


def test_anarchists_oppose_every_unit_and_each_other_and_attack_alone():
    """001 Anarchists: 3 - "They are considered to be hostile to all units for Combat purposes
    [8.11], including other Anarchists"."""
    g = anarchy_game()
    assert all(Game.hostile("Anarchist", c) for c in ("Red", "White", "Blue", "Green", "Anarchist"))
    a1 = put(g, "KIEV", "A", "AU3 Anarchists")
    a2 = put(g, "KIEV", "A", "AU3 Anarchists")
    put(g, "KIEV", "B", "AU6 Makhno")
    own = put(g, "KIEV", "A", "BU2 KHER/FR")
    phase(g, "A", "combat")
    groups = next(o for o in g.attack_options("A") if o["target"] == stack_with(g, "AU6 Makhno").id)["groups"]
    assert {tuple(x["stacks"]) for x in groups} == {(a1.id,), (a2.id,), (own.id,)}
    g.apply(A.DeclareAttack("A", stack_with(g, "AU6 Makhno").id))
    g.apply(A.AddAttacker("A", a1.id))
    refused(g, A.AddAttacker("A", a2.id), "001 Anarchists")
    refused(g, A.AddAttacker("A", own.id), "001 Anarchists")
    g.apply(A.CancelAttack("A"))
    g.apply(A.DeclareAttack("A", a2.id))                     # one of A's own Anarchists attacks the other
    g.apply(A.AddAttacker("A", a1.id))
    assert g.odds()["label"] == "1:1"


def test_a_force_stops_on_entering_a_province_with_an_anarchist_and_an_anarchist_on_entering_any():
    """001 Anarchists: 3 with 004 [5.27]: every Anarchist unit is a colour of its own (our
    reading): a force stops where an Anarchist unit stands, an Anarchist force where any unit does."""
    g = anarchy_game()
    put(g, "KALU", "A", "Trotsky")
    put(g, "TULA", "B", "AU3 Anarchists")
    reach = g.reach(uid("Trotsky"))
    assert "TULA" in reach and not any("TULA" in r["path"][:-1] for r in reach.values())
    put(g, "KIEV", "A", "AU3 Anarchists")
    put(g, "POLT", "A", "WU6 KHAR")                # A's own White unit stops A's own Anarchist too
    put(g, "CHER", "C", "AU6 Makhno")              # and so does another Anarchist
    reach = g.reach(SMALL[1])
    assert "POLT" in reach and "CHER" in reach
    assert not any({"POLT", "CHER"} & set(r["path"][:-1]) for r in reach.values())


def test_placement_is_never_blocked():
    """001 Anarchists: 4 - "The presence of any units (including Anarchists) in a province never
    interferes with the placement (or replacement) of Anarchist units"."""
    g = anarchy_game()
    keep_the_game_going(g)
    put(g, "YEKA", "B", "Deniken", "WU6 KHAR", "WU3 YEKA", attach={"WU6 KHAR": "Deniken", "WU3 YEKA": "Deniken"})
    put(g, "YEKA", None, "AU3 Anarchists")         # (12 and an uncontrolled unit: no Roving Attack)
    g.state.vp = {UNASSIGNED: [[MAKHNO, True]]}
    with dice(g):
        ev = end_game_turn(g)
    st = g.ctx.b.stack_of(MAKHNO)
    assert st.province == "YEKA" and st.units == [MAKHNO] and st.owner is None
    assert any(e.kind == "makhno_returns" for e in ev)


# -- the Roving Attack ----------------------------------------------------------------------------
def test_roving_attack_closest_then_weakest():
    """001 Anarchists: Roving Attack - "the Makhno unit, if not currently controlled by a player,
    must, if possible, move and attack the closest player-controlled enemy force within its
    operational sphere ... (Movement Allowance 4), and afford combat at no less than 1:1 odds ...
    closest then weakest"."""
    g = anarchy_game()
    keep_the_game_going(g)
    put(g, "YEKA", None, "AU6 Makhno")
    put(g, "KHAR", "B", "Deniken", "WU6 KHAR", attach={"WU6 KHAR": "Deniken"})   # next door, 7: below 1:1
    put(g, "TAUR", "C", "WU4 TAUR")                                               # next door, 4
    put(g, "KHER", "D", "GU2 KHER")                                               # next door, 2: the weakest
    put(g, "KIEV", "E", "GU4 KIEV")                                               # farther
    with dice(g, 1):
        ev = end_game_turn(g)
    rove = next(e for e in ev if e.kind == "roving")
    assert rove.data["province"] == "KHER" and rove.data["defender"] == "D" and rove.data["result"] == "De"
    assert rove.text.startswith("Makhno roves YEKA→KHER and attacks GU2 KHER/UK (D) in KHER: 6 vs 2 at 3:1, die 1: De")
    assert where(g, "AU6 Makhno") == "KHER"
    assert g.ctx.b.on_vp_chart(uid("GU2 KHER")) == UNASSIGNED
    assert g.stats["roving_attacks"] == 1


def test_roving_attack_prefers_the_closest_even_if_stronger():
    """001 Anarchists: Roving Attack - "closest then weakest": a force in his own province comes
    first; one he cannot reach within 4, or outside his area, or uncontrolled, never."""
    g = anarchy_game()
    keep_the_game_going(g)
    put(g, "YEKA", None, "AU6 Makhno")
    put(g, "YEKA", "B", "WU6 KHAR")                                               # here, 6: 1:1
    put(g, "KHER", "D", "GU2 KHER")
    put(g, "TULA", "C", "RU4 TULA")                                               # outside his area
    put(g, "TAUR", None, "WU4 TAUR")                                              # uncontrolled
    with dice(g, 2):
        ev = end_game_turn(g)
    rove = next(e for e in ev if e.kind == "roving")
    assert rove.data["province"] == "YEKA" and rove.data["path"] == [] and rove.data["odds"] == "1:1"
    assert rove.data["result"] == "Ex"
    assert g.ctx.b.on_vp_chart(uid("WU6 KHAR")) == UNASSIGNED
    assert g.ctx.b.on_vp_chart(MAKHNO) == UNASSIGNED                # eliminated before Game-Turn 6


def test_roving_attack_needs_1_to_1_within_reach_and_no_controller():
    """001 Anarchists: Roving Attack - nothing at 1:1 or better within reach: he stays; a
    controlled Makhno never roves."""
    g = anarchy_game()
    keep_the_game_going(g)
    put(g, "YEKA", None, "AU6 Makhno")
    put(g, "KHAR", "B", "Deniken", "WU6 KHAR", attach={"WU6 KHAR": "Deniken"})  # 7
    put(g, "BESS", "C", "GU2 KHER")                              # three provinces, but Kherson holds units:
    put(g, "KHER", "D", "Wrangel", "WU4 TAUR", attach={"WU4 TAUR": "Wrangel"})  # 6 at Kherson stops him
    put(g, "KHER", "D", "WU2 ESTO")                                              # (one force of 6+2 is 2 stacks)
    with dice(g, 3):
        ev = end_game_turn(g)
    rove = next(e for e in ev if e.kind == "roving")
    assert rove.data["province"] == "KHER"                       # the 2 in Kherson, not the 2 beyond it
    g2 = anarchy_game()
    keep_the_game_going(g2)
    put(g2, "YEKA", "A", "AU6 Makhno")
    put(g2, "KHAR", "B", "WU3 YEKA")
    with dice(g2):
        ev = end_game_turn(g2)
    assert not [e for e in ev if e.kind == "roving"] and where(g2, "AU6 Makhno") == "YEKA"
    g3 = anarchy_game()
    keep_the_game_going(g3)
    put(g3, "YEKA", None, "AU6 Makhno")
    put(g3, "KHAR", "B", "Deniken", "WU6 KHAR", attach={"WU6 KHAR": "Deniken"})
    with dice(g3):
        ev = end_game_turn(g3)
    rove = next(e for e in ev if e.kind == "roving")
    assert rove.data["target"] is None and where(g3, "AU6 Makhno") == "YEKA"


def test_roving_attack_ties_are_broken_at_random():
    """001 Anarchists: Roving Attack - "If several forces satisfy these criteria, determine the
    target at random": both equal targets are chosen over the seeds."""
    chosen = set()
    for seed in range(12):
        g = blank(seed=seed, options=OPT)
        keep_the_game_going(g)
        put(g, "YEKA", None, "AU6 Makhno")
        put(g, "KHAR", "B", "WU3 YEKA")
        put(g, "POLT", "D", "WU3 OMSK")
        with dice(g, 6):
            ev = end_game_turn(g)
        chosen.add(next(e for e in ev if e.kind == "roving").data["province"])
    assert chosen == {"KHAR", "POLT"}


# -- elimination ----------------------------------------------------------------------------------
def test_makhno_eliminated_comes_back_at_the_replacement_segment():
    """001 Anarchists: Elimination - "a. The RIAU is placed in the Unassigned section of the
    Victory Point Display, and is placed in Yekaterinoslav during the Replacement Segment"."""
    g = anarchy_game()
    keep_the_game_going(g)
    put(g, "YEKA", "B", "AU6 Makhno")
    put(g, "YEKA", "A", "Deniken", "WU6 KHAR", "WU3 YEKA", attach={"WU6 KHAR": "Deniken", "WU3 YEKA": "Deniken"})
    phase(g, "A", "combat")
    with dice(g, 1):
        run(g, A.DeclareAttack("A", stack_with(g, "AU6 Makhno").id), A.AddAttacker("A", stack_with(g, "Deniken").id),
            A.ResolveAttack("A"))
    assert g.ctx.b.on_vp_chart(MAKHNO) == UNASSIGNED          # not A's section: he comes back
    assert g.scores()["Red"]["A"] == 0
    with dice(g):
        ev = end_game_turn(g)
    st = g.ctx.b.stack_of(MAKHNO)
    assert (st.province, st.owner) == ("YEKA", None)
    assert any(e.kind == "makhno_returns" for e in ev)


def test_small_anarchists_eliminated_go_back_into_the_randomizer():
    """001 Anarchists: Elimination - "b. The smaller Anarchists are merely returned to the
    Auxiliary Forces Randomizer when eliminated, and immediately come back into play if drawn
    anew"."""
    g = anarchy_game()
    put(g, "KIEV", "B", "AU3 Anarchists")
    put(g, "KIEV", "A", "Deniken", "WU6 KHAR", attach={"WU6 KHAR": "Deniken"})
    g.state.aux = []
    phase(g, "A", "combat")
    with dice(g, 1):
        run(g, A.DeclareAttack("A", stack_with(g, "AU3 Anarchists").id), A.AddAttacker("A", stack_with(g, "Deniken").id),
            A.ResolveAttack("A"))
    assert g.state.aux == [f"U:{SMALL[0]}"] and g.ctx.b.on_vp_chart(SMALL[0]) is None
    every_unit_accounted_here = [int(c[2:]) for c in g.state.aux]
    assert every_unit_accounted_here == [SMALL[0]]


def test_from_game_turn_6_eliminated_anarchists_score_for_either_side():
    """001 Anarchists: Elimination - "If, however, the current Game Turn is 6 or later, any
    eliminated Anarchist unit is instead placed in the Victory Point Display and will count for
    Victory Points [14.4] regardless of which faction wins the game" (our reading: its strength
    in Red and in White Victory Points)."""
    g = anarchy_game()
    g.state.turn = 6
    put(g, "KIEV", "B", "AU3 Anarchists")
    put(g, "KIEV", "A", "Deniken", "WU6 KHAR", attach={"WU6 KHAR": "Deniken"})
    phase(g, "A", "combat")
    before = g.scores()
    with dice(g, 1):
        run(g, A.DeclareAttack("A", stack_with(g, "AU3 Anarchists").id), A.AddAttacker("A", stack_with(g, "Deniken").id),
            A.ResolveAttack("A"))
    assert g.ctx.b.on_vp_chart(SMALL[0]) == "A"
    after = g.scores()
    assert after["Red"]["A"] - before["Red"]["A"] == 3 and after["White"]["A"] - before["White"]["A"] == 3


def test_anarchists_are_immune_to_epidemics_and_subversion():
    """001 Anarchists: Tenacity - "Anarchist units are immune to Epidemics and Subversive attacks"."""
    g = anarchy_game()
    cell = next(c for c in g.data.tables.random_events.values() if c.result == "epidemic" and "KIEV" in c.provinces)
    put(g, "KIEV", "B", "AU3 Anarchists")
    put(g, "KIEV", "C", "GU4 KIEV")
    random_events.resolve(g.ctx, "A", cell.roll)
    g.ctx.b.invalidate()
    assert where(g, "AU3 Anarchists") == "KIEV"
    assert g.ctx.b.on_vp_chart(uid("GU4 KIEV")) == UNASSIGNED
    put(g, "POLT", "A", "Lenin", "RU8 PETR", attach={"RU8 PETR": "Lenin"})
    phase(g, "A", "combat")
    refused(g, A.DeclareAttack("A", stack_with(g, "AU3 Anarchists").id, True), "004 [8.31]")


def test_no_victory_while_an_anarchist_stands_in_european_russia():
    """001 Anarchists: Anarchy versus Order - "No victory is possible while any Anarchist unit is
    present in any non-Siberian Russian province"."""
    g = anarchy_game()
    put(g, "ARCH", "E", "Miller", "WU2 ARCH")        # no Red leader outside Siberia: a White Victory...
    put(g, "KIEV", "B", "AU3 Anarchists")
    with dice(g):
        ev = end_game_turn(g)
    assert not g.over and any(e.kind == "anarchy" and "KIEV" in e.text for e in ev)
    g2 = anarchy_game()
    put(g2, "ARCH", "E", "Miller", "WU2 ARCH")
    put(g2, "OMSK", "B", "AU3 Anarchists")          # ... which an Anarchist in Siberia does not stop
    put(g2, "POLA", "C", "AU3 Anarchists")          # nor one in Poland (not Russia)
    with dice(g2):
        end_game_turn(g2)
    assert g2.over and g2.result["winner_color"] == "White"


def test_a_players_anarchists_are_no_ones_when_he_quits():
    """001 Anarchists with 004 [14.23]: the quitter's Anarchist units are under no one's control
    (an uncontrolled Makhno roves again)."""
    g = anarchy_game()
    put(g, "YEKA", "B", "AU6 Makhno")
    g.apply(A.Quit("B"))
    assert stack_with(g, "AU6 Makhno").owner is None


def test_random_games_with_the_anarchists_keep_every_unit():
    """001 Anarchists: every Anarchist unit is on the map, on the VP chart, in the Randomizer or
    being placed, and never stacked with another (engine_helpers.check_invariants)."""
    from engine_helpers import play

    for seed in range(3):
        g = play(5, seed, seed, 1500, {**OPT, "max_turns": 8}, check_every=10)
        check_invariants(g)


def test_an_anarchist_blocks_replacement_as_any_opposing_unit():
    """001 Anarchists: 3 ("hostile to all units") with 004 [9.12], [9.13]: an Anarchist unit in a
    unit's home province opposes it, and one in Tver is a non-Red unit there."""
    g = anarchy_game()
    put(g, "PETR", "E", "Lenin")
    put(g, "DCOS", "E", "Krasnov")
    g.state.vp = {"A": [[uid("WU6 KHAR"), True], [uid("RU3 KALU"), True]]}
    put(g, "KHAR", "B", "AU3 Anarchists")
    put(g, "TVER", None, "AU3 Anarchists")
    with dice(g):
        ev = end_game_turn(g)
    assert g.ctx.b.on_vp_chart(uid("WU6 KHAR")) == "A" and g.ctx.b.on_vp_chart(uid("RU3 KALU")) == "A"
    assert not any(e.kind == "replaced" for e in ev)


def test_the_control_marker_leaves_makhno_on_the_vp_chart_from_game_turn_6():
    """001 Anarchists: Anarchist Control Marker - Makhno comes back only "if ... the current Game
    Turn is not 6 or later": eliminated from Game-Turn 6 he stays on the VP chart."""
    g = anarchy_game()
    g.state.turn = 7
    g.state.vp = {"B": [[MAKHNO, True]]}
    draw(g, "C", "AN")
    assert g.ctx.b.on_vp_chart(MAKHNO) == "B" and g.ctx.b.stack_of(MAKHNO) is None
