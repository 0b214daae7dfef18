"""Combat (004 [8.0]-[8.5], [7.3]): who may attack whom, odds, results, Victory Point
sections, Subversive Attacks."""

from __future__ import annotations

import pytest
from engine_helpers import (
    D,
    attack,
    blank,
    combat_event,
    dice,
    phase,
    put,
    refused,
    run,
    section,
    stack_with,
    uid,
    where,
)

from rcw import actions as A
from rcw.data import BLUE, GREEN, RED, WHITE
from rcw.rules.combat import odds_column, odds_label
from rcw.state import UNASSIGNED, opposed


def combat_game(seat: str = "A"):
    g = blank()
    phase(g, seat, "combat")
    return g


def result(ev):
    c = combat_event(ev).data
    return c["attack"], c["defense"], c["odds"], c["result"]


# -- the hostility table (004 [8.1]) ------------------------------------------------------------
@pytest.mark.parametrize("a, b, hostile", [
    (RED, WHITE, True), (RED, BLUE, True), (RED, GREEN, True), (RED, RED, False),     # 8.12
    (WHITE, GREEN, True), (WHITE, BLUE, False), (WHITE, WHITE, False),                # 8.13
    (GREEN, BLUE, False), (GREEN, GREEN, False),                                      # 8.14
    (BLUE, BLUE, False),                                                              # 8.15
])
def test_hostility_table(a, b, hostile):
    """004 [8.11] opposition by colour only, even under one player: [8.12] Red opposes every
    other colour, [8.13] White opposes Red and Green, [8.14] Green opposes Red and White,
    [8.15] Blue opposes Red only."""
    assert opposed(a, b) is hostile and opposed(b, a) is hostile


@pytest.mark.parametrize("attacker, defender, legal", [
    ("Sytin", "WU2 TERE", True), ("Sytin", "GU2 MINS", True), ("Sytin", "BU2 MOHI/GE", True),   # 8.12
    ("Markov", "GU2 MINS", True), ("Markov", "BU2 MOHI/GE", False),                            # 8.13
    ("GU2 VITE", "BU2 MOHI/GE", False), ("GU2 VITE", "Markov", True),                          # 8.14
    ("BU2 ARCH/BR", "GU2 MINS", False), ("BU2 ARCH/BR", "Markov", False), ("BU2 ARCH/BR", "Sytin", True),  # 8.15
])
def test_8_11_attacks_follow_the_hostility_table_even_within_one_player(attacker, defender, legal):
    """004 [8.11]-[8.15] as a player meets them: A's own units of two colours in one province
    may fight each other exactly when the colours are opposed (004 [8.22])."""
    g = combat_game()
    put(g, "MOHI", "A", attacker)
    put(g, "MOHI", "A", defender)
    target = stack_with(g, defender).id
    if legal:
        assert A.DeclareAttack("A", target, False) in g.legal_actions("A")
        g.apply(A.DeclareAttack("A", target, False))
        g.apply(A.AddAttacker("A", stack_with(g, attacker).id))
    else:
        assert A.DeclareAttack("A", target, False) not in g.legal_actions("A")
        refused(g, A.DeclareAttack("A", target, False), "004 [8.22]")


# -- odds (004 [8.0] procedure, [8.47], [8.48]) ----------------------------------------------------
@pytest.mark.parametrize("att, dfn, label", [
    (13, 4, "3:1"),        # the rule's example: 3.25 to 1, rounded for the defender
    (9, 2, "4:1"), (11, 2, "5:1"), (7, 2, "3:1"), (2, 2, "1:1"), (3, 4, "1:2"), (2, 4, "1:2"),
    (1, 3, "below 1:2"), (14, 2, "6:1"), (100, 1, "6:1"), (5, 10, "1:2"), (6, 10, "1:2"), (10, 10, "1:1"),
])
def test_odds_rounded_for_the_defender(att, dfn, label):
    assert odds_label(att, dfn) == label


def test_no_attack_below_one_to_two():
    """004 [8.47]."""
    g = combat_game()
    put(g, "TVER", "A", "Sytin")
    put(g, "TVER", None, "WU4 KUBA")
    attack(g, "A", "WU4 KUBA", ["Sytin"])
    refused(g, A.ResolveAttack("A"), "004 [8.47]")
    g.apply(A.CancelAttack("A"))
    assert g.state.attack is None


def test_above_six_to_one_resolves_at_six_to_one():
    """004 [8.48]."""
    g = combat_game()
    put(g, "TVER", "A", "Trotsky", "RU8 TVER", "RU4 TULA", attach={"RU8 TVER": "Trotsky", "RU4 TULA": "Trotsky"})
    put(g, "TVER", None, "WU2 TERE")
    ev = attack(g, "A", "WU2 TERE", ["Trotsky"], die=6)
    assert result(ev) == (15, 2, "6:1", D.tables.crt[5][6])


@pytest.mark.parametrize("die", range(1, 7))
@pytest.mark.parametrize("col", range(7))
def test_crt_lookup(die, col):
    """004 [8.5]: one die against the odds column."""
    att, dfn = [(1, 2), (2, 2), (4, 2), (6, 2), (8, 2), (10, 2), (12, 2)][col]
    assert odds_column(att, dfn) == col
    g = combat_game()
    # an attacker of exactly ``att`` points: leaders of value 1-3 with Red units
    pool = {1: ["Sytin"], 2: ["Zinoviev"], 4: ["Lenin", "Sytin"], 6: ["Lenin", "RU3 KALU"],
            8: ["Lenin", "RU3 KALU", "RU2 KAZA"], 10: ["Lenin", "RU4 TULA", "RU3 KALU"],
            12: ["Lenin", "RU8 PETR", "Sytin"]}[att]
    leader = pool[0]
    put(g, "TVER", "A", *pool, attach={u: leader for u in pool[1:] if u.startswith("R")})
    put(g, "TVER", None, "WU2 TERE")
    ev = attack(g, "A", "WU2 TERE", [leader], die=die)
    assert result(ev)[2:] == (D.tables.crt_columns[col], D.tables.crt[die - 1][col])


# -- who may attack (004 [8.2], [7.3]) ------------------------------------------------------------
def test_only_the_phasing_player_attacks():
    """004 [8.21]."""
    g = combat_game("A")
    put(g, "TVER", "B", "Trotsky")
    put(g, "TVER", None, "WU2 TERE")
    refused(g, A.DeclareAttack("B", stack_with(g, "WU2 TERE").id, False), "004 [4.2]")
    refused(g, A.DeclareAttack("A", stack_with(g, "WU2 TERE").id, False), "004 [8.23]")


def test_attackers_must_be_in_the_defenders_province():
    """004 [8.23]."""
    g = combat_game()
    put(g, "TVER", "A", "Trotsky")
    put(g, "YARO", "A", "Vatzetis")
    put(g, "TVER", None, "WU2 TERE")
    attack(g, "A", "WU2 TERE", [])
    refused(g, A.AddAttacker("A", stack_with(g, "Vatzetis").id), "004 [8.23]")
    g.apply(A.AddAttacker("A", stack_with(g, "Trotsky").id))


def test_attacks_only_on_enemies():
    """004 [8.22]: never against a friendly unit."""
    g = combat_game()
    put(g, "TVER", "A", "Trotsky")
    put(g, "TVER", None, "RU2 KAZA")
    put(g, "KHER", "A", "Kutepov")
    put(g, "KHER", None, "BU2 KHER/FR")
    refused(g, A.DeclareAttack("A", stack_with(g, "RU2 KAZA").id, False), "004 [8.22]")
    refused(g, A.DeclareAttack("A", stack_with(g, "BU2 KHER/FR").id, False), "004 [8.22]")


def test_attacking_is_voluntary():
    """004 [8.24]: the Combat Phase may end with enemies side by side."""
    g = combat_game()
    put(g, "TVER", "A", "Trotsky")
    put(g, "TVER", None, "WU2 TERE")
    g.apply(A.EndCombat("A"))
    assert g.state.phase == "randomizer"


def test_loose_red_and_white_units_do_not_attack():
    """004 [8.28]: only when attached to a Leader; they still defend normally."""
    g = combat_game()
    put(g, "TVER", "A", "Trotsky", "RU8 TVER", "RU4 TULA", attach={"RU8 TVER": "Trotsky"})
    put(g, "TVER", "A", "RU3 KALU")
    put(g, "TVER", None, "WU2 TERE")
    attack(g, "A", "WU2 TERE", [])
    refused(g, A.AddAttacker("A", stack_with(g, "RU3 KALU").id), "004 [8.28]")
    g.apply(A.AddAttacker("A", stack_with(g, "Trotsky").id))
    with dice(g, 6):
        ev = g.apply(A.ResolveAttack("A"))
    assert result(ev)[:2] == (11, 2)                                     # RU4 TULA (loose) not counted
    # and loose units defend: a White stack of loose units is attacked at full strength
    g2 = combat_game()
    put(g2, "TVER", "A", "Trotsky")
    put(g2, "TVER", "B", "WU4 KUBA", "WU2 TERE")
    assert result(attack(g2, "A", "WU4 KUBA", ["Trotsky"], die=6))[:2] == (3, 6)


def test_leaders_fight_at_their_value():
    """004 [8.26]: a Leader alone attacks and defends with his Leadership Value and dies like a unit."""
    g = combat_game()
    put(g, "TVER", "A", "Trotsky")
    put(g, "TVER", "B", "Deniken")
    ev = attack(g, "A", "Deniken", ["Trotsky"], die=1)
    assert result(ev) == (3, 3, "1:1", "De")
    assert section(g, "Deniken") == "A"


def test_several_stacks_combine():
    """004 [7.33], [8.22]: several stacks, and friendly colours (White with Blue) together."""
    g = combat_game()
    g.state.control = {"FR": "A"}
    put(g, "KHER", "A", "Kutepov", "WU4 TAUR", attach={"WU4 TAUR": "Kutepov"})
    put(g, "KHER", "A", "BU2 KHER/FR", "BU2 KHER/FR")
    put(g, "KHER", "B", "Lenin")
    ev = attack(g, "A", "Lenin", ["Kutepov", "BU2 KHER/FR"], die=1)
    assert result(ev) == (9, 3, "3:1", "De")


def test_opposed_colours_never_combine():
    """004 [8.22] (the hostility table wins over the rule's White-and-Green example: see
    rcw.rules.combat)."""
    g = combat_game()
    g.state.control = {"UK": "A"}
    put(g, "KHER", "A", "Kutepov")
    put(g, "KHER", "A", "GU2 KHER")
    put(g, "KHER", "B", "Lenin")
    attack(g, "A", "Lenin", ["Kutepov"])
    refused(g, A.AddAttacker("A", stack_with(g, "GU2 KHER").id), "004 [8.22]")


def white_and_green_against_red(options=None):
    """A's White stack and A's Green stack (A holds the Ukrainian marker) share KHER with B's Lenin."""
    g = blank(options=options)
    phase(g, "A", "combat")
    g.state.control = {"UK": "A", "FR": "A"}
    put(g, "KHER", "A", "Kutepov", "WU4 TAUR", attach={"WU4 TAUR": "Kutepov"})
    put(g, "KHER", "A", "GU2 KHER")
    put(g, "KHER", "A", "BU2 KHER/FR")
    put(g, "KHER", "B", "Lenin")
    return g


def test_8_22_white_and_green_do_not_combine_by_default():
    """004 [8.13], [8.14] over 8.22's example (the default of the ``white_green_combine``
    option, docs/rules-coverage.md "Readings"): White and Green attack a Red unit apart."""
    g = white_and_green_against_red()
    w, gr, lenin = (stack_with(g, x).id for x in ("Kutepov", "GU2 KHER", "Lenin"))
    with pytest.raises(A.IllegalAction) as e:
        g.odds([w, gr], lenin)
    assert e.value.rule == "004 [8.22]"
    opt = next(o for o in g.attack_options("A") if o["target"] == lenin)
    assert all(not {w, gr} <= set(grp["stacks"]) for grp in opt["groups"])
    attack(g, "A", "Lenin", ["Kutepov"])
    refused(g, A.AddAttacker("A", gr), "004 [8.22]")


def test_8_22_white_and_green_combine_against_red_with_the_option():
    """004 [8.22]'s example "White and Green units may combine to attack a Red unit", with the
    option ``white_green_combine``: White, Green (and Blue, friendly to both) in one attack."""
    g = white_and_green_against_red({"white_green_combine": True})
    w, gr, bl, lenin = (stack_with(g, x).id for x in ("Kutepov", "GU2 KHER", "BU2 KHER/FR", "Lenin"))
    assert g.odds([w, gr, bl], lenin)["attack"] == 1 + 4 + 2 + 2
    opt = next(o for o in g.attack_options("A") if o["target"] == lenin)
    assert opt["groups"][0]["stacks"] == sorted([w, gr, bl]) and opt["groups"][0]["odds"]["attack"] == 9
    ev = attack(g, "A", "Lenin", ["Kutepov", "GU2 KHER", "BU2 KHER/FR"], die=1)
    assert result(ev) == (9, 3, "3:1", "De")


def test_8_22_the_option_combines_white_and_green_only_against_red():
    """With ``white_green_combine`` still no Red unit combines with a White one (against a Green
    unit both oppose): only 8.22's example is read in."""
    g = blank(options={"white_green_combine": True})
    phase(g, "A", "combat")
    put(g, "KHER", "A", "Kutepov", "WU4 TAUR", attach={"WU4 TAUR": "Kutepov"})
    put(g, "KHER", "A", "Lenin")
    put(g, "KHER", None, "GU2 KHER")
    attack(g, "A", "GU2 KHER", ["Kutepov"])
    refused(g, A.AddAttacker("A", stack_with(g, "Lenin").id), "004 [8.22]")


@pytest.mark.parametrize("together", [False, True])
def test_23_11_the_spi_solitaire_follows_the_8_22_reading(together):
    """004 [23.11] "all White, Green and Blue controllable forces must attack a Red force": by
    default (004 [8.13], [8.14]) White with Blue, then Green apart; with ``white_green_combine``
    (004 [8.22]'s example) all of them in one attack on the weakest Red force."""
    from rcw import solitaire as S
    from rcw.modes import new_game

    g = new_game(1, 1, {"mode": S.MODE, "white_green_combine": together})
    s = g.state
    s.stacks, s.vp, s.control, s.removed, s.aux = {}, {}, {}, [], []
    s.order, s.current, s.phase = ["N", "R"], 0, "combat"
    s.decision = s.force = s.attack = None
    s.moved, s.imperial_moved, s.fought, s.defended = [], [], [], []
    white = put(g, "KIEV", "N", "Deniken", "WU4 KUBA", attach={"WU4 KUBA": "Deniken"})
    blue = put(g, "KIEV", "N", "BU2 KHER/FR")
    green = put(g, "KIEV", "N", "GU4 KIEV")
    weak = put(g, "KIEV", "R", "RU2 KAZA")
    other = put(g, "KIEV", "R", "RU3 OREL")
    with dice(g, 1):
        ev = S.nonred_attack(g.ctx, "KIEV", 0)
    c = next(e for e in ev if e.kind == "combat")
    assert c.data["target"] == weak.id
    if together:
        assert sorted(c.data["attackers"]) == sorted([white.id, blue.id, green.id])
        assert S.nonred_attack(g.ctx, "KIEV", 1) == []
    else:
        assert sorted(c.data["attackers"]) == sorted([white.id, blue.id])
        with dice(g, 1):
            ev = S.nonred_attack(g.ctx, "KIEV", 1)
        c = next(e for e in ev if e.kind == "combat")
        assert c.data["target"] == other.id and c.data["attackers"] == [green.id]


def test_13_26_green_units_with_the_gold_are_doubled_in_a_subversive_attack():
    """004 [13.26] with 004 [12.12]: Green units attached to a Red leader holding the Gold are
    Red "for all purposes": their strength is doubled with the Red units'."""
    g = combat_game()
    g.state.subversion_doubled = True
    put(g, "KURS", "A", "Kalinin", "Gold", "RU3 KALU", "GU4 KIEV",
        attach={"Gold": "Kalinin", "RU3 KALU": "Kalinin", "GU4 KIEV": "Kalinin"})
    put(g, "CHER", None, "BU2 CHER/GE")
    kalinin, target = stack_with(g, "Kalinin").id, stack_with(g, "BU2 CHER/GE").id
    assert g.odds([kalinin], target, True)["attack"] == 2 * (1 + 3 + 4)
    assert g.attack_strength([uid("Kalinin"), uid("RU3 KALU"), uid("GU4 KIEV")], True) == 16
    ev = attack(g, "A", "BU2 CHER/GE", ["Kalinin"], subversive=True, die=1)
    assert result(ev)[:3] == (16, 2, "6:1")
    g.state.subversion_doubled = False
    assert g.attack_strength([uid("GU4 KIEV")], True) == 4


def test_the_whole_stack_attacks_and_is_attacked():
    """004 [7.31], [7.32], [7.34]: a stack is attacked whole; separate stacks defend apart."""
    g = combat_game()
    put(g, "TVER", "A", "Trotsky", "RU8 TVER", attach={"RU8 TVER": "Trotsky"})
    put(g, "TVER", "B", "Deniken", "WU4 KUBA")
    put(g, "TVER", "B", "Krasnov", "WU8 DON")
    ev = attack(g, "A", "Deniken", ["Trotsky"], die=1)
    assert result(ev) == (11, 7, "1:1", "De")
    assert section(g, "Deniken") == "A" and section(g, "WU4 KUBA") == "A"
    assert where(g, "WU8 DON") == "TVER"


def test_each_unit_attacks_once_and_is_attacked_once():
    """004 [8.25], [8.27]."""
    g = combat_game()
    put(g, "TVER", "A", "Trotsky")
    put(g, "TVER", "B", "Deniken")
    put(g, "TVER", "B", "Krasnov")
    attack(g, "A", "Deniken", ["Trotsky"], die=6)                      # 1:1 Ae? die 6 -> Ae
    # Trotsky died (Ae); a fresh attacker cannot hit Deniken again
    put(g, "TVER", "A", "Sytin")
    refused(g, A.DeclareAttack("A", stack_with(g, "Deniken").id, False), "004 [8.25]")
    g2 = combat_game()
    put(g2, "TVER", "A", "Trotsky", "RU8 TVER", attach={"RU8 TVER": "Trotsky"})
    put(g2, "TVER", "B", "Deniken")
    put(g2, "TVER", "B", "Krasnov")
    attack(g2, "A", "Deniken", ["Trotsky"], die=1)
    refused(g2, A.DeclareAttack("A", stack_with(g2, "Krasnov").id, False), "004 [8.25]")


def test_a_unit_that_attacked_may_still_be_attacked_once():
    """004 [8.25] read literally (rcw.rules.combat): attacking and being attacked count apart -
    A's Whites may attack A's own Red stack that attacked earlier this phase."""
    g = combat_game()
    put(g, "TVER", "A", "Trotsky", "RU8 TVER", attach={"RU8 TVER": "Trotsky"})
    put(g, "TVER", None, "WU2 TERE")
    put(g, "TVER", "A", "Deniken", "WU8 DON", "WU4 KUBA", attach={"WU8 DON": "Deniken", "WU4 KUBA": "Deniken"})
    attack(g, "A", "WU2 TERE", ["Trotsky"], die=1)
    ev = attack(g, "A", "Trotsky", ["Deniken"], die=1)
    assert result(ev) == (15, 11, "1:1", "De")
    assert section(g, "Trotsky") == "A"                                  # own units: own section (8.45)


def test_ae_eliminates_every_attacker_to_the_defenders_section():
    """004 [8.41], [8.45]."""
    g = combat_game()
    put(g, "TVER", "A", "Sytin", "RU4 TULA", attach={"RU4 TULA": "Sytin"})
    put(g, "TVER", "B", "Krasnov", "WU8 DON")
    ev = attack(g, "A", "Krasnov", ["Sytin"], die=2)                     # 5 vs 9: 1:2, Ae
    assert result(ev) == (5, 9, "1:2", "Ae")
    assert section(g, "Sytin") == "B" and section(g, "RU4 TULA") == "B"


def test_8_42_de_eliminates_every_defender_to_the_attackers_section():
    """004 [8.42], [8.45]: on "De" every defending unit of the stack, leader included, goes to
    the attacker's section; the attackers stay where they are."""
    g = combat_game()
    put(g, "TVER", "A", "Lenin", "RU8 TVER", attach={"RU8 TVER": "Lenin"})
    put(g, "TVER", "B", "Krasnov", "WU2 TERE", attach={"WU2 TERE": "Krasnov"})
    ev = attack(g, "A", "Krasnov", ["Lenin"], die=1)                     # 11 vs 3: 3:1, De
    assert result(ev) == (11, 3, "3:1", "De")
    assert section(g, "Krasnov") == "A" and section(g, "WU2 TERE") == "A"
    assert where(g, "Lenin") == "TVER" and where(g, "RU8 TVER") == "TVER"
    assert [e.data["unit"] for e in ev if e.kind == "eliminated"] == [uid("Krasnov"), uid("WU2 TERE")]


def test_exchange_example_of_8_45():
    """004 [8.45]: A's ten points attack B's five; Ex: all five to A's section, then A removes
    at least five of his own to B's section, choosing which (004 [8.44])."""
    g = combat_game()
    put(g, "TVER", "A", "Lenin", "RU4 TULA", "RU3 KALU", attach={"RU4 TULA": "Lenin", "RU3 KALU": "Lenin"})
    put(g, "TVER", "B", "Kolchak", "WU3 OMSK")
    ev = attack(g, "A", "Kolchak", ["Lenin"], die=3)
    assert result(ev) == (10, 5, "2:1", "Ex")
    assert section(g, "Kolchak") == "A" and section(g, "WU3 OMSK") == "A"
    d = g.state.decision
    assert d["kind"] == "loss" and d["seat"] == "A" and d["need"] == 5 and d["section"] == "B"
    assert set(g.legal_actions("A")) == {A.ChooseLoss("A", x) for x in map(uid, ("Lenin", "RU4 TULA", "RU3 KALU"))}
    assert g.legal_actions("B") == []
    g.apply(A.ChooseLoss("A", uid("RU3 KALU")))
    assert g.state.decision["need"] == 2
    g.apply(A.ChooseLoss("A", uid("RU4 TULA")))                          # 7 >= 5
    assert g.state.decision is None
    assert section(g, "RU3 KALU") == "B" and section(g, "RU4 TULA") == "B" and where(g, "Lenin") == "TVER"


def test_exchange_when_the_attacker_is_smaller():
    """004 [8.43]: the smaller side (here the attacker) dies whole; the defender's owner picks
    at least as many points of his own."""
    g = combat_game()
    put(g, "TVER", "A", "Sytin", "RU3 KALU", attach={"RU3 KALU": "Sytin"})
    put(g, "TVER", "B", "Deniken", "WU4 KUBA")
    ev = attack(g, "A", "Deniken", ["Sytin"], die=1)                     # 4 vs 7 = 1:2, Ex
    assert result(ev) == (4, 7, "1:2", "Ex")
    assert section(g, "Sytin") == "B" and section(g, "RU3 KALU") == "B"
    assert g.state.decision["seat"] == "B" and g.pending == [{"seat": "B", "kind": "loss"}]
    refused(g, A.ChooseLoss("A", uid("WU4 KUBA")), "004 [8.44]")
    g.apply(A.ChooseLoss("B", uid("WU4 KUBA")))
    assert section(g, "WU4 KUBA") == "A" and where(g, "Deniken") == "TVER"


def test_exchange_with_everything_needed_needs_no_choice():
    g = combat_game()
    put(g, "TVER", "A", "Trotsky", "RU2 KAZA", attach={"RU2 KAZA": "Trotsky"})
    put(g, "TVER", "B", "Deniken", "WU2 TERE")
    ev = attack(g, "A", "Deniken", ["Trotsky"], die=2)                   # 5 vs 5: Ex
    assert result(ev) == (5, 5, "1:1", "Ex")
    assert g.state.decision is None
    assert {section(g, x) for x in ("Deniken", "WU2 TERE")} == {"A"}
    assert {section(g, x) for x in ("Trotsky", "RU2 KAZA")} == {"B"}


def test_uncontrolled_defender_8_46():
    """004 [8.46]: attackers lost against an uncontrolled stack go to the unassigned section;
    and when that stack is partly eliminated the attacker chooses its losses."""
    g = combat_game()
    put(g, "TVER", "A", "Sytin")
    put(g, "TVER", None, "WU2 TERE")
    attack(g, "A", "WU2 TERE", ["Sytin"], die=6)                         # 1:2 Ae
    assert section(g, "Sytin") == UNASSIGNED
    g3 = combat_game()
    put(g3, "KHER", "A", "Sytin", "RU3 KALU", attach={"RU3 KALU": "Sytin"})
    put(g3, "KHER", None, "GU2 KHER")
    put(g3, "KHER", None, "BU2 KHER/FR", "BU2 KHER/FR", "BU2 KHER/FR")
    ev = attack(g3, "A", "BU2 KHER/FR", ["Sytin"], die=1)                # 4 vs 6: 1:2, Ex
    assert result(ev) == (4, 6, "1:2", "Ex")
    assert {section(g3, x) for x in ("Sytin", "RU3 KALU")} == {UNASSIGNED}
    assert g3.state.decision["seat"] == "A"                              # the attacker chooses
    g3.apply(A.ChooseLoss("A", stack_with(g3, "BU2 KHER/FR").units[0]))
    g3.apply(A.ChooseLoss("A", stack_with(g3, "BU2 KHER/FR").units[0]))
    assert len(stack_with(g3, "BU2 KHER/FR").units) == 1 and len(g3.state.vp["A"]) == 2


def test_attacking_your_own_units():
    """004 [8.0] general rule and [8.45]: the Phasing Player may attack units he controls; the
    eliminated units go to his own section."""
    g = combat_game()
    put(g, "TVER", "A", "Lenin", "RU8 PETR", attach={"RU8 PETR": "Lenin"})
    put(g, "TVER", "A", "Kolchak", "WU3 OMSK")
    ev = attack(g, "A", "Kolchak", ["Lenin"], die=1)
    assert result(ev)[3] == "De"
    assert section(g, "Kolchak") == "A" and section(g, "WU3 OMSK") == "A"


def test_quit_defender_does_not_hang_the_exchange():
    """004 [14.22]: a quitter's units are governed by the standard rules; nobody is left to
    choose their Exchange losses, so the attacker chooses, as for an uncontrolled stack."""
    g = combat_game()
    put(g, "TVER", "A", "Sytin", "RU3 KALU", attach={"RU3 KALU": "Sytin"})
    put(g, "TVER", "B", "Deniken", "WU4 KUBA")
    g.state.quit.append("B")
    attack(g, "A", "Deniken", ["Sytin"], die=1)                          # 1:2 Ex
    assert g.state.decision["seat"] == "A"
    assert g.legal_actions("A")


# -- Subversive Attacks (004 [8.3], [12.12]) -------------------------------------------------------
def test_subversive_attack_from_adjacent_provinces_combined():
    """004 [8.31], [8.32]: Red units in several adjacent provinces combine against Blue units."""
    g = combat_game()
    put(g, "KURS", "A", "Kalinin", "RU3 KALU", attach={"RU3 KALU": "Kalinin"})
    put(g, "MOHI", "A", "Zinoviev")
    put(g, "CHER", None, "BU2 CHER/GE")
    ev = attack(g, "A", "BU2 CHER/GE", ["Kalinin", "Zinoviev"], subversive=True, die=1)
    assert result(ev) == (6, 2, "3:1", "De")
    assert section(g, "BU2 CHER/GE") == "A"


def test_subversive_attack_limits():
    """004 [8.31]: only Red units, only against Blue units, only from adjacent provinces,
    never from the same province; the Kerch Straits are not passable by Reds."""
    g = combat_game()
    put(g, "KURS", "A", "Kalinin")
    put(g, "KURS", "A", "Deniken")
    put(g, "CHER", "A", "Stalin")
    put(g, "CHER", None, "BU2 CHER/GE")
    put(g, "KIEV", None, "GU4 KIEV")
    put(g, "TAUR", None, "BU2 KHER/FR")
    put(g, "KUBA", "A", "Sorokin")
    t = stack_with(g, "BU2 CHER/GE").id
    refused(g, A.DeclareAttack("A", stack_with(g, "GU4 KIEV").id, True), "004 [8.31]")
    refused(g, A.DeclareAttack("A", stack_with(g, "BU2 KHER/FR").id, True), "004 [8.31]")  # Kerch
    g.apply(A.DeclareAttack("A", t, True))
    refused(g, A.AddAttacker("A", stack_with(g, "Deniken").id), "004 [8.22]")   # White does not oppose Blue
    refused(g, A.AddAttacker("A", stack_with(g, "Stalin").id), "004 [8.31]")    # same province
    g.apply(A.AddAttacker("A", stack_with(g, "Kalinin").id))


@pytest.mark.parametrize("die, res", [(1, "De"), (2, "Ex"), (4, "Ae")])
def test_subversive_only_de_counts(die, res):
    """004 [8.33]: Ae and Ex have no effect on either side."""
    g = combat_game()
    put(g, "KURS", "A", "Kalinin", "RU3 KALU", attach={"RU3 KALU": "Kalinin"})
    put(g, "CHER", None, "BU2 CHER/GE", "BU2 POLT/GE")
    ev = attack(g, "A", "BU2 CHER/GE", ["Kalinin"], subversive=True, die=die)
    assert result(ev) == (4, 4, "1:1", res)
    gone = res == "De"
    assert (where(g, "BU2 CHER/GE") is None) == gone
    assert where(g, "Kalinin") == "KURS" and where(g, "RU3 KALU") == "KURS"


def test_8_33_a_subversive_attacks_odds_say_only_de_has_effect():
    """004 [8.33]: the odds the engine gives of a Subversive Attack (what the player is shown
    before resolving it) count De alone; the column's Ex and Ae rolls are no effect (``Ne``),
    die by die, while an ordinary attack at the same column keeps them."""
    g = combat_game()
    put(g, "KURS", "A", "Kalinin", "RU3 KALU", attach={"RU3 KALU": "Kalinin"})
    put(g, "CHER", None, "BU2 CHER/GE", "BU2 POLT/GE")
    t = stack_with(g, "BU2 CHER/GE").id
    option = next(o for o in g.attack_options("A") if o["target"] == t and o["subversive"])
    g.apply(A.DeclareAttack("A", t, True))
    g.apply(A.AddAttacker("A", stack_with(g, "Kalinin").id))
    o = g.odds()
    assert o["label"] == "1:1" and o == option["groups"][0]["odds"]
    column = [row[o["column"]] for row in D.tables.crt]
    de = column.count("De")
    assert 0 < de < 6 and {"Ex", "Ae"} & set(column)
    assert o["results"] == {"De": de, "Ex": 0, "Ae": 0, "Ne": 6 - de}
    assert o["row"] == [r if r == "De" else "Ne" for r in column]
    plain = g.odds_of(o["attack"], o["defense"])                 # (an ordinary attack at those strengths)
    assert plain["row"] == column and plain["results"]["Ex"] + plain["results"]["Ae"] == 6 - de


def test_subversion_doubled():
    """004 [12.12]: the Red units' strength is doubled in Subversive Attacks this Player-Turn."""
    g = combat_game()
    g.state.subversion_doubled = True
    put(g, "KURS", "A", "Kalinin", "RU3 KALU", attach={"RU3 KALU": "Kalinin"})
    put(g, "CHER", None, "BU2 CHER/GE")
    put(g, "KURS", None, "WU4 KUBA")
    ev = attack(g, "A", "BU2 CHER/GE", ["Kalinin"], subversive=True, die=6)
    assert result(ev) == (8, 2, "4:1", D.tables.crt[5][4])
    # normal attacks are not doubled
    g2 = combat_game()
    g2.state.subversion_doubled = True
    put(g2, "KURS", "A", "Kalinin", "RU3 KALU", attach={"RU3 KALU": "Kalinin"})
    put(g2, "KURS", None, "WU4 KUBA")
    assert result(attack(g2, "A", "WU4 KUBA", ["Kalinin"], die=1))[:2] == (4, 4)


def test_attack_assembly_steps():
    g = combat_game()
    put(g, "TVER", "A", "Trotsky")
    put(g, "TVER", "A", "Sytin")
    put(g, "TVER", None, "WU2 TERE")
    t = stack_with(g, "WU2 TERE").id
    tr, sy = stack_with(g, "Trotsky").id, stack_with(g, "Sytin").id
    refused(g, A.ResolveAttack("A"), "004 [8.0]")
    g.apply(A.DeclareAttack("A", t, False))
    refused(g, A.DeclareAttack("A", t, False), "004 [8.0]")
    refused(g, A.ResolveAttack("A"), "004 [8.0]")
    refused(g, A.EndCombat("A"), "004 [8.0]")
    run(g, A.AddAttacker("A", tr), A.AddAttacker("A", sy))
    refused(g, A.AddAttacker("A", tr), "004 [8.27]")
    g.apply(A.RemoveAttacker("A", sy))
    refused(g, A.RemoveAttacker("A", sy), "004 [8.0]")
    with dice(g, 6):
        ev = g.apply(A.ResolveAttack("A"))
    assert result(ev)[:2] == (3, 2)
    assert where(g, "Sytin") == "TVER"


def test_minimum_loss_suggests_the_least_loss_that_satisfies_the_exchange() -> None:
    """004 [8.44]: the chooser removes "at least" the points; Game.minimum_loss suggests the least
    such loss: no leader while combat units alone make up the need, then the smallest total, then
    the fewest units.  Following it ends the Exchange with exactly those units gone."""
    from engine_helpers import attack, blank, phase, put, uid

    g = blank()
    phase(g, "A", "combat")
    put(g, "TVER", "A", "Lenin", "RU4 TULA", "RU3 KALU", "RU2 VLDV",
        attach={"RU4 TULA": "Lenin", "RU3 KALU": "Lenin", "RU2 VLDV": "Lenin"})
    put(g, "TVER", "B", "Kolchak", "WU3 OMSK")
    attack(g, "A", "Kolchak", ["Lenin"], die=3)                 # 12 : 5 at 2:1, Ex: A removes at least 5
    d = g.state.decision
    assert d["kind"] == "loss" and d["need"] == 5
    assert g.minimum_loss("B") == [] and g.minimum_loss("A") == sorted([uid("RU3 KALU"), uid("RU2 VLDV")])
    for u in g.minimum_loss("A"):
        g.apply(A.ChooseLoss("A", u))
    assert g.state.decision is None
    assert {g.data.units[u].label for st in g.state.stacks.values() if st.owner == "A" for u in st.units} == {"RL3 Lenin", "RU4 TULA"}
