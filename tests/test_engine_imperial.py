"""Imperial units (004 [13.0]): the Czar and the Gold - attaching, carrying, transfer,
capture, emigration, the Czar's and the Gold's bonuses, stealing Green units."""

from __future__ import annotations

from engine_helpers import (
    D,
    attack,
    blank,
    check_invariants,
    move,
    on_map,
    phase,
    put,
    refused,
    run,
    stack_with,
    uid,
    where,
)

from rcw import actions as A
from rcw.rules import random_events, randomizer, victory
from rcw.state import UNASSIGNED

CZAR, GOLD = D.czar, D.gold


def czar_stack(g):
    return g.ctx.b.stack_of(CZAR)


# -- moving Imperial units (004 [13.1]) -------------------------------------------------------
def test_imperial_units_do_not_move_alone():
    """004 [13.11]: no Movement Allowance of their own."""
    g = blank()
    put(g, "EKAT", "A", "Blucher", "RU2 EKAT", "Czar", attach={"RU2 EKAT": "Blucher", "Czar": "Blucher"})
    refused(g, A.StartForce("A", CZAR), "004 [5.22]")


def test_any_force_attaches_an_uncontrolled_imperial_unit():
    """004 [13.12], [13.14], [13.42]: a lone Imperial unit is nobody's; the Phasing Player's
    force (here a Blue one) attaches it at no cost and carries it."""
    g = blank()
    put(g, "CHEL", None, "Gold")
    put(g, "OMSK", "A", "BU3 OMSK/CZ")
    g.apply(A.StartForce("A", uid("BU3 OMSK/CZ")))
    g.apply(A.Move("A", "CHEL", False))
    g.apply(A.Attach("A", GOLD, 0))
    g.apply(A.Move("A", "EKAT", False))
    g.apply(A.EndForce("A"))
    st = g.ctx.b.stack_of(GOLD)
    assert st.province == "EKAT" and st.owner == "A" and st.attached[GOLD] == 0
    assert g.ctx.b.color_of(GOLD) == "Blue"                              # 004 [13.21]


def test_a_blue_force_names_no_leader_for_the_imperial_unit():
    """004 [13.21]: a Blue or Green force has no Leader to stack it under."""
    g = blank()
    put(g, "CHEL", None, "Gold")
    put(g, "CHEL", "A", "BU3 CHEL/CZ")
    g.apply(A.StartForce("A", uid("BU3 CHEL/CZ")))
    refused(g, A.Attach("A", GOLD, uid("Lenin")), "004 [13.21]")


def test_a_leader_must_be_named_for_the_imperial_unit():
    g = blank()
    put(g, "EKAT", None, "Czar")
    put(g, "EKAT", "A", "Blucher")
    g.apply(A.StartForce("A", uid("Blucher")))
    refused(g, A.Attach("A", CZAR, 0), "004 [13.21]")
    g.apply(A.Attach("A", CZAR, uid("Blucher")))
    assert czar_stack(g).attached[CZAR] == uid("Blucher")


def test_no_one_takes_an_imperial_unit_another_player_controls():
    """004 [13.14]: 'A Player may never detach an Imperial unit from a force which he does not control.'"""
    g = blank()
    put(g, "EKAT", "B", "Blucher", "RU2 EKAT", "Czar", attach={"RU2 EKAT": "Blucher", "Czar": "Blucher"})
    put(g, "EKAT", "A", "Khanzin")
    g.apply(A.StartForce("A", uid("Khanzin")))
    refused(g, A.Attach("A", CZAR, uid("Khanzin")), "004 [13.14]")


def test_detached_imperial_unit_is_uncontrolled():
    """004 [13.42]: never alone with a Player Control Marker."""
    g = blank()
    put(g, "OMSK", "A", "Kolchak", "Gold", attach={"Gold": "Kolchak"})
    g.apply(A.StartForce("A", uid("Kolchak")))
    g.apply(A.Move("A", "EKAT", False))
    g.apply(A.Detach("A", GOLD))
    g.apply(A.EndForce("A"))
    st = g.ctx.b.stack_of(GOLD)
    assert st.province == "EKAT" and st.owner is None and st.units == [GOLD]


def test_transfer_within_a_region():
    """004 [13.15]: between two of one's forces in one region, if it has not moved."""
    g = blank()
    put(g, "OMSK", "A", "Kolchak", "Gold", attach={"Gold": "Kolchak"})
    far = put(g, "VLDV", "A", "Dieterichs")
    out = put(g, "SAMA", "A", "Deniken")
    refused(g, A.TransferImperial("A", GOLD, out.id, uid("Deniken")), "004 [13.15]")   # Cossack region
    refused(g, A.TransferImperial("A", GOLD, far.id, 0), "004 [13.21]")
    g.apply(A.TransferImperial("A", GOLD, far.id, uid("Dieterichs")))
    assert where(g, "Gold") == "VLDV" and stack_with(g, "Dieterichs").attached[GOLD] == uid("Dieterichs")
    back = stack_with(g, "Kolchak")
    refused(g, A.TransferImperial("A", GOLD, back.id, uid("Kolchak")), "004 [13.15]")  # moved already


def test_no_transfer_after_the_imperial_unit_moved():
    g = blank()
    put(g, "OMSK", "A", "Kolchak", "Gold", attach={"Gold": "Kolchak"})
    other = put(g, "VLDV", "A", "Dieterichs")
    move(g, "A", "Kolchak", ["EKAT"])
    refused(g, A.TransferImperial("A", GOLD, other.id, uid("Dieterichs")), "004 [13.15]")


def test_transfer_needs_control():
    g = blank()
    put(g, "OMSK", "B", "Kolchak", "Gold", attach={"Gold": "Kolchak"})
    mine = put(g, "VLDV", "A", "Dieterichs")
    refused(g, A.TransferImperial("A", GOLD, mine.id, uid("Dieterichs")), "004 [13.15]")


# -- the Czar and the Gold: bonuses (004 [13.2]) ------------------------------------------------
def test_white_leader_with_the_czar_attaches_two_more():
    """004 [13.22]: value 2 + 2 = four White units."""
    g = blank()
    put(g, "OMSK", "A", "Kolchak", "Czar", attach={"Czar": "Kolchak"})
    whites = ["WU3 OMSK", "WU3 CHEL", "WU2 VLDV", "WU2 OREN", "WU2 SAMA"]
    for w in whites:
        put(g, "OMSK", None, w)
    g.apply(A.StartForce("A", uid("Kolchak")))
    for w in whites[:4]:
        g.apply(A.Attach("A", uid(w), uid("Kolchak")))
    refused(g, A.Attach("A", uid(whites[4]), uid("Kolchak")), "004 [5.14]")


def test_red_leader_gets_nothing_from_the_czar():
    """004 [13.24]."""
    g = blank()
    put(g, "EKAT", "A", "Blucher", "Czar", attach={"Czar": "Blucher"})
    put(g, "EKAT", None, "RU2 EKAT")
    put(g, "EKAT", None, "RU2 KRAS")
    g.apply(A.StartForce("A", uid("Blucher")))
    g.apply(A.Attach("A", uid("RU2 EKAT"), uid("Blucher")))
    refused(g, A.Attach("A", uid("RU2 KRAS"), uid("Blucher")), "004 [5.14]")


def test_czar_lets_a_white_force_through_blue_provinces():
    """004 [13.23]: solely Blue (or Blue and White) units do not stop a White force with the Czar."""
    g = blank()
    put(g, "OMSK", "A", "Kolchak", "Czar", attach={"Czar": "Kolchak"})
    put(g, "EKAT", None, "BU3 EKAT/CZ")
    put(g, "EKAT", None, "WU3 CHEL")
    put(g, "UFIM", None, "GU2 KHAR")
    move(g, "A", "Kolchak", ["EKAT", "UFIM"], end=False)
    refused(g, A.Move("A", "SAMA", False), "004 [5.27]")               # Green in UFIM: stop
    # without the Czar the Czechs stop him
    g2 = blank()
    put(g2, "OMSK", "A", "Kolchak")
    put(g2, "EKAT", None, "BU3 EKAT/CZ")
    move(g2, "A", "Kolchak", ["EKAT"], end=False)
    refused(g2, A.Move("A", "UFIM", False), "004 [5.27]")


def test_czar_gives_a_red_force_no_passage():
    g = blank()
    put(g, "OMSK", "A", "Blucher", "Czar", attach={"Czar": "Blucher"})
    put(g, "EKAT", None, "BU3 EKAT/CZ")
    move(g, "A", "Blucher", ["EKAT"], end=False)
    refused(g, A.Move("A", "UFIM", False), "004 [5.27]")


def test_czar_passage_in_postal_movement():
    g = blank(options={"postal_movement": True})
    put(g, "OMSK", "A", "Kolchak", "Czar", attach={"Czar": "Kolchak"})
    put(g, "EKAT", None, "BU3 EKAT/CZ")
    from rcw.rules import sequence
    sequence.take_snapshot(g.ctx)
    move(g, "A", "Kolchak", ["EKAT", "UFIM"])
    assert where(g, "Kolchak") == "UFIM"


def test_gold_two_more_units_own_colour_or_green():
    """004 [13.25]: value 1 + 2; the two extra may be Green."""
    g = blank()
    put(g, "KIEV", "A", "Kutepov", "Gold", attach={"Gold": "Kutepov"})
    put(g, "KIEV", None, "WU4 TAUR")
    put(g, "KIEV", "B", "GU4 KIEV")
    put(g, "KIEV", None, "WU2 TERE")
    put(g, "KIEV", None, "WU2 TIFL")
    g.apply(A.StartForce("A", uid("Kutepov")))
    run(g, A.Attach("A", uid("WU4 TAUR"), uid("Kutepov")), A.Attach("A", uid("GU4 KIEV"), uid("Kutepov")),
        A.Attach("A", uid("WU2 TERE"), uid("Kutepov")))
    refused(g, A.Attach("A", uid("WU2 TIFL"), uid("Kutepov")), "004 [5.14]")
    st = stack_with(g, "Kutepov")
    assert g.ctx.b.color_of(uid("GU4 KIEV"), st) == "White"             # 004 [13.26]


def test_13_26_one_colour_for_all_purposes():
    """004 [13.26]: a Green unit attached to a leader holding the Gold is his colour in every
    place the engine asks a unit's colour (``Board.color_of``): its stack, the units of a colour
    on the map (004 [14.1]), Red doubling in a Subversive Attack (004 [12.12]), the view."""
    g = blank()
    st = put(g, "KIEV", "A", "Lenin", "Gold", "GU4 KIEV", attach={"Gold": "Lenin", "GU4 KIEV": "Lenin"})
    b = g.ctx.b
    kiev = uid("GU4 KIEV")
    assert b.color_of(kiev, st) == b.stack_color(st) == "Red"
    assert kiev in b.map_combat("Red") and kiev not in b.map_combat("Green")
    assert g.attack_strength([kiev], subversive=False) == 4
    g.state.subversion_doubled = True
    assert g.attack_strength([kiev], subversive=True) == 8
    assert next(v for v in g.view()["stacks"] if v["id"] == st.id)["color"] == "Red"


def test_gold_green_units_at_most_two():
    g = blank()
    put(g, "KHER", "A", "Lenin", "Gold", attach={"Gold": "Lenin"})
    put(g, "KHER", None, "GU2 KHER")
    put(g, "KHER", None, "GU4 KIEV")
    put(g, "KHER", None, "GU2 KHAR")
    g.apply(A.StartForce("A", uid("Lenin")))
    run(g, A.Attach("A", uid("GU2 KHER"), uid("Lenin")), A.Attach("A", uid("GU4 KIEV"), uid("Lenin")))
    refused(g, A.Attach("A", uid("GU2 KHAR"), uid("Lenin")), "004 [13.25]")


def test_without_the_gold_no_green_units():
    g = blank()
    put(g, "KHER", "A", "Lenin")
    put(g, "KHER", None, "GU2 KHER")
    g.apply(A.StartForce("A", uid("Lenin")))
    refused(g, A.Attach("A", uid("GU2 KHER"), uid("Lenin")), "004 [5.22]")


def test_finns_and_poles_never_attached():
    """004 [13.27]."""
    g = blank()
    put(g, "PETR", "A", "Lenin", "Gold", attach={"Gold": "Lenin"})
    put(g, "PETR", None, "GU6 FINL")
    put(g, "PETR", None, "GU8 POLA")
    g.apply(A.StartForce("A", uid("Lenin")))
    refused(g, A.Attach("A", on_map(g, "GU6 FINL"), uid("Lenin")), "004 [13.27]")
    refused(g, A.Attach("A", on_map(g, "GU8 POLA"), uid("Lenin")), "004 [13.27]")


def test_gold_steals_green_units_even_after_they_moved():
    """004 [13.26]: any Green unit, whatever its control, even one moved earlier this turn."""
    g = blank()
    g.state.control = {"UK": "A"}
    put(g, "KIEV", "A", "GU4 KIEV")
    put(g, "POLT", "A", "Lenin", "Gold", attach={"Gold": "Lenin"})
    move(g, "A", "GU4 KIEV", ["POLT"])
    g.apply(A.StartForce("A", uid("Lenin")))
    g.apply(A.Attach("A", uid("GU4 KIEV"), uid("Lenin")))
    # and another player's Green unit
    g2 = blank()
    g2.state.control = {"UK": "B"}
    put(g2, "KIEV", "B", "GU4 KIEV")
    put(g2, "KIEV", "A", "Lenin", "Gold", attach={"Gold": "Lenin"})
    g2.apply(A.StartForce("A", uid("Lenin")))
    g2.apply(A.Attach("A", uid("GU4 KIEV"), uid("Lenin")))
    st = stack_with(g2, "Lenin")
    assert st.owner == "A" and g2.ctx.b.color_of(uid("GU4 KIEV"), st) == "Red"


def test_stolen_green_units_keep_to_their_home_region():
    """004 [13.26]: '... except they may not be moved in violation of Case 5.74'."""
    g = blank()
    put(g, "KURS", None, "GU4 KIEV")
    put(g, "KURS", "A", "Lenin", "Gold", attach={"Gold": "Lenin"})
    g.apply(A.StartForce("A", uid("Lenin")))
    g.apply(A.Attach("A", uid("GU4 KIEV"), uid("Lenin")))
    refused(g, A.Move("A", "OREL", False), "004 [5.74]")
    g.apply(A.Move("A", "CHER", False))                                  # Ukraine


def test_hot_knife_through_butter():
    """004 [29.0]: a Red force with the Gold enters KRAS, attaches the Siberian Green unit (for
    a moment it is Red), leaves it behind and moves on to attack the Whites beyond."""
    g = blank()
    g.state.control = {"SB": "B"}
    put(g, "OMSK", "A", "Blucher", "RU2 EKAT", "Gold", attach={"RU2 EKAT": "Blucher", "Gold": "Blucher"})
    put(g, "KRAS", "B", "GU2 IRKU")
    put(g, "IRKU", None, "WU2 VLDV")
    g.apply(A.StartForce("A", uid("Blucher")))
    run(g, A.Move("A", "BARN", True), A.Move("A", "KRAS", True))
    g.apply(A.Attach("A", uid("GU2 IRKU"), uid("Blucher")))
    g.apply(A.Detach("A", uid("GU2 IRKU")))
    g.apply(A.Move("A", "IRKU", True))
    g.apply(A.EndForce("A"))
    assert where(g, "Blucher") == "IRKU"
    left = stack_with(g, "GU2 IRKU")
    assert left.province == "KRAS" and left.owner == "B"              # back to its controller
    # without the trick the Green unit stops the force
    g2 = blank()
    put(g2, "OMSK", "A", "Blucher", "Gold", attach={"Gold": "Blucher"})
    put(g2, "KRAS", None, "GU2 IRKU")
    g2.apply(A.StartForce("A", uid("Blucher")))
    run(g2, A.Move("A", "BARN", True), A.Move("A", "KRAS", True))
    refused(g2, A.Move("A", "IRKU", True), "004 [5.27]")


def test_control_marker_does_not_take_gold_held_green_units():
    """004 [13.26] note: a player gaining the Nationalist Control Marker does not take a Green
    unit attached to another player's Gold leader."""
    g = blank()
    put(g, "KIEV", "A", "Lenin", "Gold", "GU4 KIEV", attach={"Gold": "Lenin", "GU4 KIEV": "Lenin"})
    put(g, "KHER", None, "GU2 KHER")
    g.state.aux = ["GC:UK"]
    randomizer.resolve(g.ctx, "B", "GC:UK")
    assert stack_with(g, "GU4 KIEV").owner == "A"
    assert stack_with(g, "GU2 KHER").owner == "B"


def test_blue_or_green_force_gets_no_bonus_from_imperial_units():
    """004 [13.24], [13.28]: they move 3 and carry nothing extra."""
    g = blank()
    put(g, "OMSK", "A", "BU3 OMSK/CZ", "Gold", attach={"Gold": ""})
    put(g, "OMSK", None, "GU2 IRKU")
    g.apply(A.StartForce("A", uid("BU3 OMSK/CZ")))
    refused(g, A.Attach("A", uid("GU2 IRKU"), 0), "004 [7.14]")


def test_losing_the_gold_forfeits_the_extra_units():
    """004 [13.29]: the Leader forfeits the benefit the instant he loses the Imperial unit.
    Engine reading: the units beyond his own value (Green ones first, then the last attached)
    are no longer attached; they stay where they are, Green ones back under their controller."""
    g = blank()
    g.state.control = {"UK": "B"}
    put(g, "KIEV", "A", "Kutepov", "Gold", "WU4 TAUR", "GU4 KIEV", "WU2 TERE",
        attach={"Gold": "Kutepov", "WU4 TAUR": "Kutepov", "GU4 KIEV": "Kutepov", "WU2 TERE": "Kutepov"})
    g.apply(A.StartForce("A", uid("Kutepov")))
    g.apply(A.Move("A", "POLT", False))
    g.apply(A.Detach("A", GOLD))
    g.apply(A.Move("A", "KHAR", False))
    g.apply(A.EndForce("A"))
    st = stack_with(g, "Kutepov")
    assert st.province == "KHAR" and set(st.units) == {uid("Kutepov"), uid("WU4 TAUR")}
    assert stack_with(g, "GU4 KIEV").province == "POLT" and stack_with(g, "GU4 KIEV").owner == "B"
    assert stack_with(g, "WU2 TERE").province == "POLT" and stack_with(g, "WU2 TERE").owner == "A"
    every = g.ctx.b
    for s in g.state.stacks.values():
        for lead in every.leaders_of(s):
            assert len([u for u in every.attached_to(s, lead) if D.units[u].is_combat]) <= every.capacity(s, lead)[0]


# -- capture (004 [13.4]) ----------------------------------------------------------------------
def test_capture_after_the_stack_is_eliminated():
    """004 [13.41]: the opposing force may attach the Imperial unit at once."""
    g = blank()
    put(g, "EKAT", "B", "Blucher", "RU2 EKAT", "Czar", attach={"RU2 EKAT": "Blucher", "Czar": "Blucher"})
    put(g, "EKAT", "A", "Kolchak", "WU3 OMSK", "WU3 CHEL", attach={"WU3 OMSK": "Kolchak", "WU3 CHEL": "Kolchak"})
    phase(g, "A", "combat")
    ev = attack(g, "A", "Blucher", ["Kolchak"], die=1)                    # 8 vs 3 = 2:1, De
    assert any(e.kind == "capture_offer" for e in ev)
    assert g.pending == [{"seat": "A", "kind": "capture"}]
    st = stack_with(g, "Kolchak")
    legal = g.legal_actions("A")
    assert A.CaptureImperial("A", CZAR, st.id, uid("Kolchak")) in legal and A.DeclineCapture("A") in legal
    refused(g, A.CaptureImperial("A", CZAR, st.id, 0), "004 [13.21]")
    g.apply(A.CaptureImperial("A", CZAR, st.id, uid("Kolchak")))
    assert czar_stack(g).id == st.id and st.attached[CZAR] == uid("Kolchak")
    assert g.ctx.b.color_of(CZAR) == "White"


def test_declined_capture_leaves_the_imperial_unit_uncontrolled():
    g = blank()
    put(g, "EKAT", "B", "Blucher", "Czar", attach={"Czar": "Blucher"})
    put(g, "EKAT", "A", "Kolchak")
    phase(g, "A", "combat")
    attack(g, "A", "Blucher", ["Kolchak"], die=1)
    g.apply(A.DeclineCapture("A"))
    assert czar_stack(g).owner is None and g.state.decision is None


def test_defender_captures_when_the_attackers_die():
    """004 [13.41]: the attacker's Imperial unit, its stack eliminated (Ae), goes to the defender."""
    g = blank()
    put(g, "EKAT", "A", "Blucher", "RU2 EKAT", "Czar", attach={"RU2 EKAT": "Blucher", "Czar": "Blucher"})
    put(g, "EKAT", "B", "Kolchak", "WU3 OMSK", attach={"WU3 OMSK": "Kolchak"})
    phase(g, "A", "combat")
    attack(g, "A", "Kolchak", ["Blucher"], die=6)                        # 3 vs 5: 1:2, Ae
    assert g.pending == [{"seat": "B", "kind": "capture"}]
    g.apply(A.CaptureImperial("B", CZAR, stack_with(g, "Kolchak").id, uid("Kolchak")))
    assert czar_stack(g).owner == "B"


def test_an_imperial_unit_alone_before_the_combat_is_not_offered_as_a_capture():
    """004 [13.41] lets the opposing force attach an Imperial unit when "all of the combat and/or
    Leader units stacked with" it are eliminated in combat; one that stood alone already is
    nobody's (004 [13.42]) and is attached only in a Movement Phase (004 [13.14]).  The Gold
    alone in EKAT was offered to the winner of any combat there (an audit's finding): after
    Kolchak's De on a Red unit beside it, and to the defender after an Ae of a stack that
    carried nothing."""
    g = blank()
    put(g, "EKAT", None, "Gold", attach={"Gold": ""})
    put(g, "EKAT", "B", "RU2 EKAT")
    put(g, "EKAT", "A", "Kolchak", "WU3 OMSK", "WU3 CHEL", attach={"WU3 OMSK": "Kolchak", "WU3 CHEL": "Kolchak"})
    phase(g, "A", "combat")
    ev = attack(g, "A", "RU2 EKAT", ["Kolchak"], die=1)                 # De
    assert any(e.kind == "combat" and e.data["result"] == "De" for e in ev)
    assert not any(e.kind == "capture_offer" for e in ev) and g.state.decision is None
    assert stack_with(g, "Gold").owner is None

    g = blank()
    put(g, "EKAT", None, "Gold", attach={"Gold": ""})
    put(g, "EKAT", "B", "Blucher", "RU2 EKAT", attach={"RU2 EKAT": "Blucher"})
    put(g, "EKAT", "A", "Kolchak", "WU3 OMSK", attach={"WU3 OMSK": "Kolchak"})
    phase(g, "A", "combat")
    ev = attack(g, "A", "Blucher", ["Kolchak"], die=6)                   # Ae
    assert any(e.kind == "combat" and e.data["result"] == "Ae" for e in ev)
    assert not any(e.kind == "capture_offer" for e in ev) and g.state.decision is None


def test_a_capture_after_exchange_losses_offers_only_the_imperial_unit_of_the_eliminated_stack():
    """004 [13.41] after an Exchange whose losses the owner chooses (004 [8.44]): the capture is
    offered once the losses are taken, of the Czar whose guard they eliminated, not of the Gold
    that stood alone in the province before."""
    g = blank()
    put(g, "EKAT", None, "Gold", attach={"Gold": ""})
    put(g, "EKAT", "B", "Blucher", "RU2 EKAT", "Czar", attach={"RU2 EKAT": "Blucher", "Czar": "Blucher"})
    put(g, "EKAT", "A", "Kolchak", "WU3 OMSK", "WU3 CHEL", attach={"WU3 OMSK": "Kolchak", "WU3 CHEL": "Kolchak"})
    phase(g, "A", "combat")
    attack(g, "A", "Blucher", ["Kolchak"], die=3)                        # 8 vs 3 at 2:1: Ex
    d = g.state.decision
    assert d is not None and d["kind"] == "loss" and d["seat"] == "A", d
    g.apply(A.ChooseLoss("A", uid("WU3 OMSK")))                          # (3 strength points)
    d = g.state.decision
    assert d is not None and d["kind"] == "capture" and d["units"] == [CZAR], d


def test_czar_never_eliminated():
    """004 [13.51]: not by combat, not by epidemic."""
    g = blank()
    put(g, "EKAT", None, "RU2 EKAT", "Czar", attach={"Czar": ""})
    random_events.epidemic(g.ctx, "EKAT")
    assert where(g, "Czar") == "EKAT" and g.ctx.b.on_vp_chart(CZAR) is None
    assert g.ctx.b.on_vp_chart(uid("RU2 EKAT")) == UNASSIGNED


# -- emigration (004 [13.3]) -------------------------------------------------------------------
def test_emigration_from_a_port_face_down():
    """004 [13.31]-[13.34], [14.46]: face-down in the player's section; White VP only."""
    g = blank()
    put(g, "ARCH", "A", "Miller", "Czar", attach={"Czar": "Miller"})
    put(g, "VOLO", "A", "Kolchak", "Gold", attach={"Gold": "Kolchak"})
    refused(g, A.Emigrate("A", GOLD), "004 [13.32]")
    refused(g, A.Emigrate("B", CZAR), "004 [4.2]")
    g.apply(A.Emigrate("A", CZAR))
    assert g.state.vp["A"] == [[CZAR, False]] and where(g, "Czar") is None
    assert victory.score(g.ctx, "White")["A"] == 5 + 1 + 2 + 5          # Czar emigrated, Miller, Kolchak, Gold held
    assert victory.score(g.ctx, "Red")["A"] == 5                         # the Gold on the map only


def test_13_33_emigration_costs_no_movement_points():
    """004 [13.33]: a force that has spent all five Movement Points still lets its Imperial unit
    emigrate from the port it reached; 004 [13.34]: the unit is then out of play."""
    g = blank()
    put(g, "TVER", "A", "Kolchak", "Gold", attach={"Gold": "Kolchak"})
    move(g, "A", "Kolchak", ["NOVG", "VOLO", "OLON", "PETR"], end=False)
    g.apply(A.Move("A", "ESTO", False))
    assert g.state.force.mp == 5
    assert A.Emigrate("A", GOLD) in g.legal_actions("A")
    g.apply(A.Emigrate("A", GOLD))
    g.apply(A.EndForce("A"))
    assert g.state.vp["A"] == [[GOLD, False]] and where(g, "Gold") is None and where(g, "Kolchak") == "ESTO"
    assert not [a for a in g.legal_actions("A") if getattr(a, "unit", None) == GOLD]


def test_13_13_the_player_whose_marker_is_above_controls_the_imperial_unit():
    """004 [13.13]: the Imperial unit belongs to the player controlling its stack (his marker on
    top); with no marker above it, to nobody (004 [13.42]) - and then anyone's force may take it."""
    g = blank()
    put(g, "EKAT", "B", "Blucher", "RU2 EKAT", "Czar", attach={"RU2 EKAT": "Blucher", "Czar": "Blucher"})
    put(g, "OMSK", None, "Gold")
    put(g, "OMSK", "A", "Kolchak")
    assert g.ctx.b.owner_of(CZAR) == "B" and g.ctx.b.owner_of(GOLD) is None
    refused(g, A.Emigrate("A", CZAR), "004 [13.31]")
    g.apply(A.StartForce("A", uid("Kolchak")))
    g.apply(A.Attach("A", GOLD, uid("Kolchak")))
    g.apply(A.EndForce("A"))
    assert g.ctx.b.owner_of(GOLD) == "A" and g.ctx.b.color_of(GOLD) == "White"


def test_emigration_needs_control():
    g = blank()
    put(g, "ARCH", "B", "Miller", "Czar", attach={"Czar": "Miller"})
    put(g, "ARCH", "A", "Stalin")
    refused(g, A.Emigrate("A", CZAR), "004 [13.31]")


def test_a_gold_leader_keeps_his_green_units_when_he_joins_or_leaves_a_force():
    """004 [5.26], [13.26]: Lenin with the Gold and a stolen Ukrainian joins Trotsky's force,
    and later drops out of it: the Green unit stays attached to him throughout."""
    g = blank()
    g.state.control = {"UK": "B"}
    put(g, "KIEV", "A", "Lenin", "Gold", "GU4 KIEV", attach={"Gold": "Lenin", "GU4 KIEV": "Lenin"})
    put(g, "KIEV", "A", "Trotsky", "RU8 TVER", attach={"RU8 TVER": "Trotsky"})
    g.apply(A.StartForce("A", uid("Trotsky")))
    g.apply(A.JoinForce("A", uid("Lenin")))
    st = stack_with(g, "Trotsky")
    assert st.attached[uid("GU4 KIEV")] == uid("Lenin") and st.attached[GOLD] == uid("Lenin")
    g.apply(A.Move("A", "CHER", False))
    g.apply(A.Detach("A", uid("Lenin")))
    lenin = stack_with(g, "Lenin")
    assert set(lenin.units) == {uid("Lenin"), GOLD, uid("GU4 KIEV")} and lenin.owner == "A"
    assert lenin.attached == {GOLD: uid("Lenin"), uid("GU4 KIEV"): uid("Lenin")}
    assert set(stack_with(g, "Trotsky").units) == {uid("Trotsky"), uid("RU8 TVER")}
    check_invariants(g, complete=False)


def test_a_gold_leader_killed_leaves_his_green_units_to_their_controller():
    """004 [13.29]: the Leader is eliminated; the Green units he held are Green again."""
    g = blank()
    g.state.control = {"UK": "B"}
    put(g, "KIEV", "A", "Lenin", "Gold", "GU4 KIEV", "RU8 PETR",
        attach={"Gold": "Lenin", "GU4 KIEV": "Lenin", "RU8 PETR": "Lenin"})
    ev = []
    g.ctx.eliminate(uid("Lenin"), "C", ev, "assassination")
    assert stack_with(g, "GU4 KIEV").owner == "B" and stack_with(g, "GU4 KIEV").units == [uid("GU4 KIEV")]
    rest = stack_with(g, "RU8 PETR")
    assert set(rest.units) == {GOLD, uid("RU8 PETR")} and rest.owner == "A"
    check_invariants(g, complete=False)
