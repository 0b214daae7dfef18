"""Replacement of combat units (004 [9.0]) in the Game-Turn Interphase (004 [4.2] B.2)."""

from __future__ import annotations

import pytest
from engine_helpers import blank, phase, put, section, stack_with, uid, where

from rcw import actions as A
from rcw.rules import replacement
from rcw.rules.base import LENIN, TROTSKY
from rcw.state import UNASSIGNED


def chart(g, *labels, to="B"):
    for lab in labels:
        g.ctx.to_chart(uid(lab), to)


def leaders_on_map(g):
    """Keep one Red and one White leader somewhere harmless (004 [9.15])."""
    put(g, "VLDV", "C", "Kikvidze")
    put(g, "VLDV", "C", "Dieterichs")


def test_units_return_to_their_home_province_alone():
    """004 [9.0]: back on the map in the printed province, never stacked with anything."""
    g = blank()
    leaders_on_map(g)
    put(g, "KHAR", "A", "May-Maevsky")
    chart(g, "WU6 KHAR", "RU8 PETR", "GU4 KIEV")
    g.state.control["UK"] = "C"
    ev = replacement.replace(g.ctx, 1)
    assert {e.data["unit"] for e in ev if e.kind == "replaced"} == {uid("WU6 KHAR"), uid("RU8 PETR"), uid("GU4 KIEV")}
    for lab, prov in (("WU6 KHAR", "KHAR"), ("RU8 PETR", "PETR"), ("GU4 KIEV", "KIEV")):
        st = stack_with(g, lab)
        assert st.province == prov and st.units == [uid(lab)]
    assert stack_with(g, "WU6 KHAR").owner is None                  # Red/White come back unaligned
    assert stack_with(g, "GU4 KIEV").owner == "C"                  # Green: the Control Marker's holder
    assert not g.state.vp["B"]


def test_only_red_white_green_combat_units():
    """004 [9.11]: never Leaders, Imperial or Blue units."""
    g = blank()
    leaders_on_map(g)
    chart(g, "Lenin", "BU2 ARCH/US")
    g.ctx.to_chart(uid("Czar"), "B", face_up=True)
    assert replacement.replace(g.ctx, 1) == []
    assert section(g, "Lenin") == "B" and section(g, "BU2 ARCH/US") == "B" and section(g, "Czar") == "B"


@pytest.mark.parametrize("occupants, ok", [
    ([("RL1 Stalin", "A")], False),                               # 9.12: an opposing unit
    ([("RL1 Stalin", "A"), ("WL1 Krasnov", "C")], True),          # ... unless one of his colour is there
    ([("BU2 KHER/FR", None)], True),                              # Blue does not oppose White
    ([("GU2 KHER", None)], False),                                # Green opposes White
    ([], True),
])
def test_the_don_cossack_example(occupants, ok):
    """004 [9.12]: 'the Don Cossack combat unit (#212) could only be replaced if ... the Don
    Cossack province was occupied by at least one White Leader or combat unit'."""
    g = blank()
    leaders_on_map(g)
    for lab, owner in occupants:
        put(g, "DCOS", owner, lab)
    chart(g, "WU8 DON")
    replacement.replace(g.ctx, 1)
    assert (where(g, "WU8 DON") == "DCOS") is ok


@pytest.mark.parametrize("key", ["TVER", "PETR"])
def test_tver_and_petrograd(key):
    """004 [9.13]: non-Red units in Tver or Petrograd stop every Red replacement, unless a Red
    unit is there too."""
    g = blank()
    leaders_on_map(g)
    put(g, key, None, "GU2 KHER")
    chart(g, "RU2 KAZA", "WU2 TERE")
    replacement.replace(g.ctx, 1)
    assert section(g, "RU2 KAZA") == "B" and where(g, "WU2 TERE") == "TERE"
    put(g, key, "A", "Stalin")
    replacement.replace(g.ctx, 2)
    assert where(g, "RU2 KAZA") == "KAZA"


def test_lenin_or_trotsky_killed_one_replacement_phase():
    """004 [9.14]: none in the first Replacement Phase after Lenin (or Trotsky) is eliminated."""
    g = blank()
    leaders_on_map(g)
    put(g, "PETR", "A", "Lenin")
    ev = []
    g.ctx.eliminate(LENIN, "B", ev, "assassination")
    chart(g, "RU2 KAZA")
    out = replacement.replace(g.ctx, 1)
    assert section(g, "RU2 KAZA") == "B" and out[-1].kind == "replacement_blocked"
    replacement.replace(g.ctx, 2)
    assert where(g, "RU2 KAZA") == "KAZA"


def test_lenin_and_trotsky_killed_in_one_turn_two_phases():
    """004 [9.14] note: two consecutive Replacement Phases."""
    g = blank()
    leaders_on_map(g)
    put(g, "PETR", "A", "Lenin")
    put(g, "TVER", "A", "Trotsky")
    ev = []
    g.ctx.eliminate(LENIN, "B", ev, "combat")
    g.ctx.eliminate(TROTSKY, "B", ev, "combat")
    chart(g, "RU2 KAZA", "WU2 TERE")
    replacement.replace(g.ctx, 1)
    assert section(g, "RU2 KAZA") == "B" and where(g, "WU2 TERE") == "TERE"   # White unaffected
    replacement.replace(g.ctx, 2)
    assert section(g, "RU2 KAZA") == "B"
    replacement.replace(g.ctx, 3)
    assert where(g, "RU2 KAZA") == "KAZA"


def test_lenin_and_trotsky_killed_in_different_turns():
    g = blank()
    leaders_on_map(g)
    put(g, "PETR", "A", "Lenin")
    put(g, "TVER", "A", "Trotsky")
    chart(g, "RU2 KAZA")
    ev = []
    g.ctx.eliminate(LENIN, "B", ev, "combat")
    replacement.replace(g.ctx, 1)
    g.ctx.eliminate(TROTSKY, "B", ev, "combat")
    replacement.replace(g.ctx, 2)
    assert section(g, "RU2 KAZA") == "B"
    replacement.replace(g.ctx, 3)
    assert where(g, "RU2 KAZA") == "KAZA"


@pytest.mark.parametrize("color_leader, unit", [("Kikvidze", "RU2 KAZA"), ("Dieterichs", "WU2 TERE")])
def test_no_replacements_once_every_leader_of_the_colour_is_dead(color_leader, unit):
    """004 [9.15]."""
    g = blank()
    leaders_on_map(g)
    chart(g, unit)
    ev = []
    g.ctx.eliminate(uid(color_leader), "A", ev, "combat")
    replacement.replace(g.ctx, 1)
    assert section(g, unit) == "B"


def test_none_after_the_fifth_game_turn():
    """004 [9.16], [14.3] (engine reading: the Interphases after Game-Turns 1-5 replace)."""
    g = blank()
    leaders_on_map(g)
    chart(g, "RU2 KAZA")
    assert replacement.replace(g.ctx, 6) == []
    assert section(g, "RU2 KAZA") == "B"
    replacement.replace(g.ctx, 5)
    assert where(g, "RU2 KAZA") == "KAZA"


@pytest.mark.parametrize("turn5, last", [(True, 5), (False, 4)])
def test_9_16_the_turn5_replacements_option(turn5, last):
    """004 [9.16], [14.3], [4.2]: the option ``turn5_replacements`` (default on) decides whether
    the Interphase that ends Game-Turn 5 replaces units; the one ending Game-Turn 4 always does,
    the one ending Game-Turn 6 never."""
    g = blank(options={} if turn5 else {"turn5_replacements": False})
    leaders_on_map(g)
    chart(g, "RU2 KAZA")
    assert replacement.last_turn(g.ctx) == last
    replacement.replace(g.ctx, 6)
    assert section(g, "RU2 KAZA") == "B"
    replacement.replace(g.ctx, 5)
    assert (where(g, "RU2 KAZA") == "KAZA") is turn5
    if not turn5:
        replacement.replace(g.ctx, 4)
        assert where(g, "RU2 KAZA") == "KAZA"


@pytest.mark.parametrize("turn5", [True, False])
def test_14_3_the_interphase_ending_game_turn_5(turn5):
    """004 [14.3], [4.2] B through the engine: the last Player-Turn of Game-Turn 5 ends, the
    Game-Turn Marker moves on and the Replacement Segment replaces, or not (the option)."""
    g = blank(players=3, options={"turn5_replacements": turn5})
    leaders_on_map(g)
    put(g, "TVER", "C", "Sytin")                    # keep 004 [14.1] from ending the game
    put(g, "TERE", None, "WU2 TERE")
    chart(g, "RU2 KAZA")
    s = g.state
    s.turn = 5
    s.aux = ["A"] * 5
    phase(g, "C", "randomizer")
    s.order = ["A", "B", "C"]
    s.current = 2
    g.apply(A.DrawRandomizer("C"))
    if s.drawn and s.phase == "randomizer":
        g.apply(A.EndPlayerTurn("C"))
    assert s.turn == 6 and (where(g, "RU2 KAZA") == "KAZA") is turn5


def test_replacements_are_simultaneous():
    """004 [9.17]: a White unit replaced in Kharkov does not stop the Green one there."""
    g = blank()
    leaders_on_map(g)
    chart(g, "WU6 KHAR", "GU2 KHAR")
    replacement.replace(g.ctx, 1)
    assert where(g, "WU6 KHAR") == "KHAR" and where(g, "GU2 KHAR") == "KHAR"
    assert stack_with(g, "WU6 KHAR").id != stack_with(g, "GU2 KHAR").id


def test_replaced_every_turn():
    """004 [9.18]."""
    g = blank()
    leaders_on_map(g)
    for turn in (1, 2, 3):
        chart(g, "RU2 KAZA", to=UNASSIGNED)
        if turn > 1:
            g.ctx.take(uid("RU2 KAZA"))
        replacement.replace(g.ctx, turn)
        assert where(g, "RU2 KAZA") == "KAZA"


def test_replacement_in_the_interphase():
    """004 [4.2] B: turn marker, replacement, sequencing draw."""
    g = blank(players=3)
    leaders_on_map(g)
    put(g, "TVER", "C", "Sytin")                    # keep 004 [14.1] from ending the game
    put(g, "TERE", None, "WU2 TERE")
    chart(g, "RU2 KAZA")
    s = g.state
    s.aux = ["A"] * 5
    phase(g, "A", "randomizer")
    s.order = ["A", "B", "C"]
    for p in "ABC":
        s.current = "ABC".index(p)
        s.phase = "randomizer"
        g.apply(A.DrawRandomizer(p))
        if s.drawn:                                 # an assassination is possible: end the turn
            g.apply(A.EndPlayerTurn(p))
    assert s.turn == 2 and where(g, "RU2 KAZA") == "KAZA" and s.phase == "random_events"
