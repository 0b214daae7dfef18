"""004 "RUSSIAN CIVIL WAR FOR THE MASSES" (Richard Ware), the option ``masses`` and its two
sub-switches (rcw/rules/masses.py; docs/variants.md): "[8.3] SUBVERSIVE ATTACK. This section can
be made optional or deleted.", "[12.12] Subversive Attacks Doubled. Ignore this result.",
"[13.0] IMPERIAL UNITS This whole section can also be deleted or declared optional.",
"[11.0] PURGE All the Politburo and Purge rules should be deleted.", the article's own
[13.51]-[13.54] and its [15.22] of 52 counters, [15.32] deleted."""

from __future__ import annotations

import pytest
from engine_helpers import blank, dice, every_unit_accounted, phase, play, put, refused, run, started, uid

from rcw import actions as A
from rcw import options as O
from rcw.actions import IllegalAction
from rcw.game import Game
from rcw.rules.masses import MASSES

M = {"masses": True}


def test_the_variant_is_one_switch_and_its_optional_deletions_are_sub_switches():
    assert O.OPTIONS["masses"].group == "masses"
    for sub in ("masses_no_imperial", "masses_subversion"):
        assert (O.OPTIONS[sub].group, O.OPTIONS[sub].requires) == ("masses", "masses")
        with pytest.raises(IllegalAction, match=f"{sub} is part of masses"):
            Game.new(5, 1, {sub: True})
    with pytest.raises(IllegalAction, match="may not be on together"):       # no purges, so no Red Terror
        Game.new(5, 1, {"masses": True, "red_terror": True})


# -- "[15.22] ... a total of 52 counters ...: 30 Red Leaders, 20 White Leaders and two Assassin
#    Markers." and "Rule [15.32] is deleted." ------------------------------------------------------------
@pytest.mark.parametrize("players", [3, 5, 6])
def test_52_counters_are_dealt_and_no_politburo_marker(players):
    """004 Masses [15.22]: 52 counters; 004 Masses [15.32]: deleted."""
    g = Game.new(players, 7, M)
    s = g.state
    assert sum(len(h) for h in s.hand.values()) == 50 and sum(s.assassins.values()) == 2
    assert set(s.politburo.values()) == {0}                                # not even for Lenin and Trotsky
    dealt = sorted(len(s.hand[p]) + s.assassins[p] for p in s.seats)
    assert dealt[-1] - dealt[0] <= 1 and sum(dealt) == 52                  # as equally as possible (004 [15.31])


# -- "[11.0] PURGE All the Politburo and Purge rules should be deleted." -------------------------------------
def test_no_central_committee_and_no_purge():
    """004 Masses [11.0]: no Politburo, no Central Committee, no purge."""
    g = blank(options=M)
    g.state.politburo["A"] = 9                                             # (even if someone held markers)
    refused(g, A.JoinCommittee("A", ("A",)), f"{MASSES} [11.0]")
    refused(g, A.DeclarePurge("A", "B", ("A",), ()), f"{MASSES} [11.0]")
    assert not any(isinstance(a, (A.JoinCommittee, A.DeclarePurge)) for a in g.legal_actions("A"))


# -- "[8.3] SUBVERSIVE ATTACK. This section can be made optional or deleted." ---------------------------------
@pytest.mark.parametrize("keep", [False, True])
def test_subversive_attacks_are_deleted_unless_kept(keep):
    """004 Masses [8.3]: deleted, or kept with masses_subversion ("optional")."""
    g = blank(options={**M, "masses_subversion": keep})
    put(g, "TVER", "A", "Trotsky", "RU8 NOVG", attach={"RU8 NOVG": "Trotsky"})
    blue = put(g, "KALU", None, "BU2 LIVO/GE")
    phase(g, "A", "combat")
    if keep:
        run(g, A.DeclareAttack("A", blue.id, True))
    else:
        refused(g, A.DeclareAttack("A", blue.id, True), f"{MASSES} [8.3]")


# -- "[12.12] Subversive Attacks Doubled. Ignore this result." -----------------------------------------------
def test_subversive_attacks_doubled_is_ignored():
    """004 Masses [12.12]: the result is ignored."""
    g = blank(options={**M, "masses_subversion": True})
    phase(g, "A", "random_events")
    with dice(g, 1, 1):                          # 1-1: Subversive Attacks Doubled
        ev = g.apply(A.RollRandomEvents("A"))
    assert g.view()["subversion_doubled"] is False
    assert f"{MASSES} [12.12]" in ev[0].text and ev[0].data["result"] == "ignored"


# -- "[13.0] IMPERIAL UNITS This whole section can also be deleted or declared optional." --------------------
@pytest.mark.parametrize("delete", [False, True])
def test_imperial_units_are_kept_or_deleted(delete):
    """004 Masses [13.0]: kept, or deleted with masses_no_imperial."""
    g = started(options={**M, "masses_no_imperial": delete})
    on_map = {u for st in g.state.stacks.values() for u in st.units}
    assert (g.data.czar in on_map, g.data.gold in on_map) == (not delete, not delete)


def test_the_engine_tells_its_clients_whether_the_politburo_rules_are_in_play():
    """004 Masses [11.0] deleted: ``limits()["politburo"]`` says so (the browser then offers no
    Committee and shows no Purge Strength)."""
    assert started(options=M).limits()["politburo"] is False
    assert started().limits()["politburo"] is True
    assert started(options=M).view("A")["limits"]["politburo"] is False


@pytest.mark.parametrize("players", [3, 6])
def test_without_imperial_units_every_other_unit_is_still_accounted_for(players):
    """004 Masses [13.0] deleted: random games keep every invariant (units never lost nor
    duplicated, stacking) from start to finish, the Czar and the Gold never coming into play."""
    opts = {**M, "masses_no_imperial": True, "max_turns": 8}
    g = play(players, 3, 3, 20_000, opts, check_every=50)
    assert g.over
    ever = {u for st in g.state.stacks.values() for u in st.units} | {e[0] for es in g.state.vp.values() for e in es}
    assert not ever & {g.data.czar, g.data.gold}
    g.state.removed.append(g.data.czar)           # a unit turning up where it never was is caught
    with pytest.raises(AssertionError, match="duplicated"):
        every_unit_accounted(g)


# -- "[13.52] The Tsar may be executed at any time he is controlled by a Red Leader, by the agreement
#    of any coalition of players including the player who controls the Tsar, if the coalition controls
#    together at least two thirds of all the Red leadership points on the board." ----------------------
def _tsar(options=None) -> Game:
    """A holds the Czar with Kalinin (1); B has Trotsky (3), C Zinoviev (2): 6 Red points."""
    g = blank(options=M if options is None else options)
    put(g, "EKAT", "A", "Kalinin", "Czar", attach={"Czar": "Kalinin"})
    put(g, "TVER", "B", "Trotsky")
    put(g, "SMOL", "C", "Zinoviev")
    return g


def test_a_coalition_with_the_holder_and_two_thirds_of_the_red_leadership_executes_the_tsar():
    """004 Masses [13.52] (the coalition), 004 Masses [13.53] (his points), 004 Masses [13.54] (to the chart)."""
    g = _tsar()
    run(g, A.OrderExecution("B"))                               # any player proposes; the holder is asked first
    assert g.decision["kind"] == "execution_consent" and g.decision["seat"] == "A"
    run(g, A.OrderExecution("A", True))                          # A + B: 1 + 3 = 4 of 6: two thirds
    assert g.decision is None
    assert g.ctx.b.stack_of(g.data.czar) is None
    assert g.state.vp["A"] == [[g.data.czar, True]]               # [13.53], [13.54]: the holder's, face up
    assert g.stats["czar_executions"] == 1
    assert g.scores()["Red"]["A"] == 5 + 1                       # 004 [14.41] (and Kalinin on the map)


def test_too_small_a_coalition_or_the_holders_refusal_spares_the_tsar():
    """004 Masses [13.52]: two thirds, and the holder among them."""
    g = _tsar()
    run(g, A.OrderExecution("C"), A.OrderExecution("A", True))   # A + C: 3 of 6
    assert g.decision["seat"] == "B"
    ev = run(g, A.OrderExecution("B", False))
    assert g.decision is None and g.ctx.b.stack_of(g.data.czar) is not None
    assert any(e.kind == "execution_failed" and "two thirds" in e.text for e in ev)
    run(g, A.OrderExecution("B"))
    ev = run(g, A.OrderExecution("A", False))                    # the holder refuses: over at once
    assert g.decision is None and any("refuses" in e.text for e in ev)
    # the holder alone with two thirds needs no one
    h = _tsar()
    g2 = h
    put(g2, "KALU", "A", "Lenin", "Frunze")                      # A: 1 + 3 + 2 = 6 of 11
    run(g2, A.OrderExecution("A"))
    assert g2.decision["seat"] == "B"
    run(g2, A.OrderExecution("B", True))
    assert g2.ctx.b.stack_of(g2.data.czar) is None


def test_the_tsar_is_never_eliminated_but_by_execution():
    """004 Masses [13.51]: "The Tsar may never be eliminated by combat, epidemic or assassination"
    (as 004 [13.51]): an Epidemic in his province and an assassin leave him on the map."""
    g = blank(options=M)
    put(g, "EKAT", "B", "Kalinin", "RU4 TULA", "Czar", attach={"RU4 TULA": "Kalinin", "Czar": "Kalinin"})
    put(g, "EKAT", "A", "Kolchak")
    g.state.assassins["A"] = 1
    refused(g, A.Assassinate("A", g.data.czar, 1), "004 [10.13]")
    g.ctx.b.invalidate()
    from rcw.rules.random_events import epidemic
    epidemic(g.ctx, "EKAT")
    assert g.ctx.b.stack_of(g.data.czar) is not None


def test_no_order_while_no_red_leader_holds_the_tsar():
    g = blank(options=M)
    put(g, "EKAT", "A", "Kolchak", "Czar", attach={"Czar": "Kolchak"})
    refused(g, A.OrderExecution("A"), f"{MASSES} [13.52]")
    assert uid("Kolchak") and not any(isinstance(a, A.OrderExecution) for a in g.legal_actions("A"))
