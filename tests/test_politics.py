"""Politics: trading markers (004 [10.0], [11.0], [15.33]), assassination (004 [10.0]), the
Central Committee and purges (004 [11.0]-[11.3]), execution of the Czar (004 [13.5]) and the
Politburo's end-game vote (004 [14.1] case 3), with the worked examples of the rules and the
purge orders of The Bell #3 and #4.  Everything is done through ``legal_actions`` /
``apply`` / ``pending``, as a bot or a remote player would."""

from __future__ import annotations

import pytest
from engine_helpers import blank as empty_map
from engine_helpers import committee_abc, form, markers, phase, put, started, uid

from rcw import actions as A
from rcw.actions import IllegalAction
from rcw.data import default
from rcw.game import Game
from rcw.player import Player
from rcw.rules import politics, victory
from rcw.rules.base import Ctx
from rcw.state import Attack, Stack

D = default()


# -- helpers (the shared ones are in engine_helpers) ------------------------------------------------
def blank(seat: str = "A", ph: str = "movement") -> Game:
    """A started 5-player game with an empty map and no markers; ``seat`` is phasing."""
    g = empty_map()
    phase(g, seat, ph)
    return g


def owner(g: Game, label: str) -> str | None:
    st = g.ctx.b.stack_of(uid(label))
    return st.owner if st else None


def stack_of(g: Game, label: str) -> Stack:
    st = g.ctx.b.stack_of(uid(label))
    assert st is not None
    return st


def refused(g: Game, action: A.Action, rule: str | None = None) -> IllegalAction:
    before = g.state_hash()
    with pytest.raises(IllegalAction) as e:
        g.apply(action)
    assert g.state_hash() == before, "a refused action changed the state"
    if rule is not None:
        assert e.value.rule == rule, f"expected {rule}, got {e.value.rule}: {e.value.message}"
    return e.value


def kinds(events) -> list[str]:
    return [e.kind for e in events]


@pytest.fixture
def dice(monkeypatch):
    """Force the next die rolls; every forced die must be used."""
    queue: list[int] = []

    def die(self: Ctx) -> int:
        assert queue, "more dice rolled than forced"
        return queue.pop(0)

    monkeypatch.setattr(Ctx, "die", die)
    yield queue
    assert not queue, f"dice left unrolled: {queue}"


# == trading (004 [10.0], [11.0], [15.33]) =================================================================
def test_marker_trade_in_game_offer_and_accept():
    g = blank("C")
    s = g.state
    s.politburo.update(A=3, B=1)
    s.assassins.update(A=0, B=2)
    # A is not phasing: markers are traded at any time (004 [10.0], [11.0] commentary).
    ev = g.apply(A.OfferTrade("A", to="B", give_politburo=1, take_assassins=2))
    oid = ev[0].data["offer"]
    assert A.AcceptTrade("B", oid) in g.legal_actions("B") and A.DeclineTrade("B", oid) in g.legal_actions("B")
    assert A.WithdrawTrade("A", oid) in g.legal_actions("A")
    assert g.view("B")["offers"] and g.view("A")["offers"] and not g.view("C")["offers"]
    g.apply(A.AcceptTrade("B", oid))
    assert (s.politburo["A"], s.politburo["B"], s.assassins["A"], s.assassins["B"]) == (2, 2, 2, 0)
    assert s.stats["trades"] == 1


def test_marker_trade_decline_withdraw_and_gift():
    g = blank("A")
    s = g.state
    s.politburo.update(A=3)
    s.assassins.update(B=1)
    o1 = g.apply(A.OfferTrade("A", to="B", give_politburo=1, take_assassins=1))[0].data["offer"]
    g.apply(A.DeclineTrade("B", o1))
    o2 = g.apply(A.OfferTrade("A", to="B", give_politburo=1, take_assassins=1))[0].data["offer"]
    refused(g, A.AcceptTrade("C", o2), "004 [15.33]")          # not C's offer
    g.apply(A.WithdrawTrade("A", o2))
    refused(g, A.AcceptTrade("B", o2), "004 [15.33]")
    assert s.politburo["A"] == 3 and s.assassins["B"] == 1 and not s.offers
    # A gift: something for nothing, still by mutual agreement.
    o3 = g.apply(A.OfferTrade("A", to="C", give_politburo=2))[0].data["offer"]
    g.apply(A.AcceptTrade("C", o3))
    assert s.politburo["A"] == 1 and s.politburo["C"] == 2
    refused(g, A.OfferTrade("A", to="C", give_politburo=5), "004 [11.0]")    # A holds only 1 (a trade of what he holds)
    refused(g, A.OfferTrade("A", to="C", give_assassins=1), "004 [10.0]")    # (and no Assassin marker)


def test_leaders_trade_only_before_the_game():
    g = Game.new(5, 1)
    s = g.state
    la, lb = s.hand["A"][0], s.hand["B"][0]
    oid = g.apply(A.OfferTrade("A", to="B", give_leaders=(la,), take_leaders=(lb,)))[0].data["offer"]
    g.apply(A.AcceptTrade("B", oid))
    assert lb in s.hand["A"] and la in s.hand["B"]
    for p in s.seats:
        g.apply(A.EndTrading(p))
    assert s.phase == "random_events"
    # In the game only Politburo and Assassin markers change hands (004 [15.33]).
    e = refused(g, A.OfferTrade("A", to="B", give_leaders=(la,)), "004 [15.33]")
    assert "only Politburo and Assassin markers" in e.message
    refused(g, A.OfferTrade("A", to="B", take_leaders=(lb,)), "004 [15.33]")


# == assassination (004 [10.0]) ============================================================================
def _assassination_position() -> Game:
    g = blank("A")
    put(g, "PETR", "B", "Lenin", "RU8 PETR", attach={"RU8 PETR": "Lenin"})
    put(g, "PETR", "A", "Peterson")
    put(g, "TVER", "B", "Trotsky")
    g.state.politburo.update(A=1, B=2)
    return g


def test_assassination_worked_example_fails_and_markers_go_to_the_victims_owner(dice):
    """004 [10.0] example: three markers against a value-3 leader, roll 7: 7 + 2 - 3 = 6, fails."""
    g = _assassination_position()
    s = g.state
    s.assassins["A"] = 3
    assert A.Assassinate("A", uid("Lenin"), 3) in g.legal_actions("A")
    dice += [3, 4]
    ev = g.apply(A.Assassinate("A", uid("Lenin"), 3))
    assert ev[0].data["total"] == 6 and ev[0].data["success"] is False
    assert owner(g, "Lenin") == "B"
    assert s.assassins == {**s.assassins, "A": 0, "B": 3}       # 004 [10.23]
    assert s.stats["assassination_attempts"] == 1 and "assassinations" not in s.stats


def test_assassination_success_eliminates_and_markers_go_to_the_randomizer(dice):
    g = _assassination_position()
    s = g.state
    s.assassins["A"] = 2
    aux = len(s.aux)
    dice += [4, 3]                                   # 7 + 1 - 3 = 5: fails, markers to B
    g.apply(A.Assassinate("A", uid("Lenin"), 2))
    assert s.assassins["B"] == 2
    s.assassins["A"] = 2
    dice += [5, 4]                                   # 9 + 1 - 3 = 7: success (004 [10.17] unlimited tries)
    ev = g.apply(A.Assassinate("A", uid("Lenin"), 2))
    assert ev[0].data["success"] is True
    assert g.ctx.b.stack_of(uid("Lenin")) is None and g.ctx.b.on_vp_chart(uid("Lenin")) == "A"   # 004 [10.21]
    assert s.aux[aux:].count("A") == 2 and s.aux.count("P") >= 1        # 004 [10.22]; [11.32] below
    assert s.politburo["B"] == 1 and "politburo_sacrificed" in kinds(ev)  # Lenin's owner sacrifices one (004 [11.32])
    assert stack_of(g, "RU8 PETR").attached == {}                       # his unit stays, unattached
    assert s.stats["assassination_attempts"] == 2 and s.stats["assassinations"] == 1


def test_assassination_threshold_is_seven(dice):
    g = _assassination_position()
    s = g.state
    s.assassins["A"] = 4
    dice += [3, 3]                                   # 6 + 1 - 1 = 6 < 7
    put(g, "PETR", "C", "Gai")
    assert g.apply(A.Assassinate("A", uid("Gai"), 2))[0].data["success"] is False
    assert s.assassins["C"] == 2
    dice += [4, 3]                                   # 7 + 1 - 1 = 7
    assert g.apply(A.Assassinate("A", uid("Gai"), 2))[0].data["success"] is True


def test_assassination_limits():
    g = _assassination_position()
    s = g.state
    refused(g, A.Assassinate("A", uid("Lenin"), 1), "004 [10.12]")        # no markers
    s.assassins.update(A=2, B=2)
    refused(g, A.Assassinate("A", uid("Lenin"), 3), "004 [10.12]")
    refused(g, A.Assassinate("A", uid("Lenin"), 0), "004 [10.12]")
    refused(g, A.Assassinate("A", uid("Trotsky"), 1), "004 [10.13]")      # no leader of A in TVER
    refused(g, A.Assassinate("B", uid("Peterson"), 1), "004 [10.11]")     # only the Phasing Player
    refused(g, A.Assassinate("A", uid("Peterson"), 1), "004 [10.13]")     # not by the victim himself
    put(g, "PETR", None, "Czar")
    refused(g, A.Assassinate("A", D.czar, 1), "004 [10.13]")               # the Czar is immune (004 [13.51])
    refused(g, A.Assassinate("A", uid("RU8 PETR"), 1), "004 [10.13]")
    lst = g.legal_actions("A")
    assert A.Assassinate("A", uid("Lenin"), 2) in lst and A.Assassinate("A", uid("Trotsky"), 1) not in lst
    assert not [a for a in g.legal_actions("B") if isinstance(a, A.Assassinate)]


def test_10_16_any_number_of_markers_in_one_attempt(dice):
    """004 [10.16]: any number of Assassin markers in one attempt, each beyond the first adding
    one to the roll; the legal actions offer every count the player holds."""
    g = _assassination_position()
    s = g.state
    s.assassins["A"] = 6
    offered = {a.markers for a in g.legal_actions("A") if isinstance(a, A.Assassinate) and a.victim == uid("Lenin")}
    assert offered == {1, 2, 3, 4, 5, 6}
    refused(g, A.Assassinate("A", uid("Lenin"), 7), "004 [10.12]")
    dice += [1, 1]                                   # 2 + 5 - 3 = 4: fails, all six to B
    ev = g.apply(A.Assassinate("A", uid("Lenin"), 6))
    assert (ev[0].data["total"], ev[0].data["success"]) == (4, False)
    assert (s.assassins["A"], s.assassins["B"]) == (0, 6)
    put(g, "PETR", "B", "Sablin")
    phase(g, "B", "movement")
    dice += [1, 2]                                   # 3 + 5 - 1 = 7: B's six kill Peterson
    assert g.apply(A.Assassinate("B", uid("Peterson"), 6))[0].data["success"]
    assert s.assassins["B"] == 0 and g.ctx.b.on_vp_chart(uid("Peterson")) == "B"


def test_assassinating_ones_own_leader_and_a_white_one(dice):
    """004 [10.14]-[10.15]: colour does not matter; one's own leader needs another leader present."""
    g = blank("A")
    s = g.state
    put(g, "KUBA", "A", "Deniken")
    put(g, "KUBA", "A", "Sablin")
    s.assassins["A"] = 2
    dice += [1, 1]                                   # 2 - 1 = 1: fails, the marker comes back to A
    g.apply(A.Assassinate("A", uid("Sablin"), 1))
    assert s.assassins["A"] == 2
    dice += [6, 6]
    g.apply(A.Assassinate("A", uid("Deniken"), 1))
    assert g.ctx.b.on_vp_chart(uid("Deniken")) == "A"
    refused(g, A.Assassinate("A", uid("Sablin"), 1), "004 [10.13]")       # no other leader of A left


def test_assassination_after_the_randomizer_draw(dice):
    """Issue 4 interleaving: A draws an Assassin marker in his Randomizer Phase and uses it in
    the same Player-Turn (004 [10.0]: "at any time during his Player-Turn"; [4.2] A.4,
    [12.13] 1).  The draw leaves the Player-Turn open while an assassination is possible;
    ``EndPlayerTurn`` ends it."""
    g = _assassination_position()
    s = g.state
    phase(g, "A", "randomizer")
    s.aux = ["A", "A"]
    ev = g.apply(A.DrawRandomizer("A"))
    assert s.assassins["A"] == 1 and g.ctx.b.phasing() == "A" and s.phase == "randomizer"
    assert g.pending == [{"seat": "A", "kind": "randomizer"}]
    legal = g.legal_actions("A")
    assert A.EndPlayerTurn("A") in legal and A.Assassinate("A", uid("Lenin"), 1) in legal
    assert A.DrawRandomizer("A") not in legal
    refused(g, A.DrawRandomizer("A"), "004 [4.2]")                          # one chit per phase
    refused(g, A.Assassinate("B", uid("Peterson"), 1), "004 [10.11]")       # B is not phasing
    dice += [6, 4]                                                          # 10 - 3 = 7: success
    ev = g.apply(A.Assassinate("A", uid("Lenin"), 1))
    assert ev[0].data["success"] and g.ctx.b.on_vp_chart(uid("Lenin")) == "A"
    assert s.assassins["A"] == 0 and s.aux.count("A") == 2                  # 004 [10.22]
    assert "politburo_sacrificed" in kinds(ev) and s.politburo["B"] == 1    # 004 [11.32]
    assert g.legal_actions("A")[0] == A.EndPlayerTurn("A")
    g.apply(A.EndPlayerTurn("A"))
    assert g.ctx.b.phasing() == "B" and s.phase == "random_events" and not s.drawn


def test_the_randomizer_draw_ends_the_turn_when_nothing_is_left_to_do():
    """004 [4.2] A.4: with no assassination possible the draw ends the Player-Turn at once;
    ``EndPlayerTurn`` is never legal before the draw."""
    g = _assassination_position()
    s = g.state
    phase(g, "A", "randomizer")
    refused(g, A.EndPlayerTurn("A"), "004 [4.2]")
    assert A.EndPlayerTurn("A") not in g.legal_actions("A")
    s.aux = ["GC:FN"]
    g.apply(A.DrawRandomizer("A"))                      # a Green control marker: no assassin
    assert g.ctx.b.phasing() == "B" and s.phase == "random_events"
    # A holds an Assassin marker but no leader of his shares a province with another leader.
    g2 = blank("A", "randomizer")
    put(g2, "PETR", "A", "Peterson")
    put(g2, "TVER", "B", "Trotsky")
    g2.state.aux = ["A"]
    g2.apply(A.DrawRandomizer("A"))
    assert g2.state.assassins["A"] == 1 and g2.ctx.b.phasing() == "B"


def test_assassination_after_the_random_events_draw(dice):
    """004 [12.13]: a "Draw from the Randomizer" event in the Random Events Phase gives an
    Assassin marker that may be used later in the same Player-Turn."""
    g = _assassination_position()
    s = g.state
    phase(g, "A", "random_events")
    s.aux = ["A"]
    draw = next(c.roll for c in D.tables.random_events.values() if c.result == "draw")
    dice += list(draw)
    g.apply(A.RollRandomEvents("A"))
    assert s.assassins["A"] == 1 and s.phase == "movement"
    assert A.Assassinate("A", uid("Lenin"), 1) in g.legal_actions("A")
    dice += [1, 1]                                       # 2 - 3 < 7: fails
    g.apply(A.Assassinate("A", uid("Lenin"), 1))
    assert s.assassins == {**s.assassins, "A": 0, "B": 1}


# == the Central Committee (004 [11.1]) ======================================================================
def test_committee_needs_unanimous_consent_and_eight_markers():
    g = blank("C")
    s = g.state
    markers(g, A=3, E=5, B=2)
    ev = g.apply(A.JoinCommittee("A", ("A", "E")))
    assert s.committee == [] and s.committee_consent == {"A": ["A", "E"]}
    assert A.JoinCommittee("E", ("A", "E")) in g.legal_actions("E")       # A's proposal, listed for E
    ev = g.apply(A.JoinCommittee("E", ("E", "A")))
    assert s.committee == ["A", "E"] and "committee" in kinds(ev)
    assert g.view("B")["committee"] == ["A", "E"]
    e = refused(g, A.JoinCommittee("B", ("B", "C")), "004 [11.11]")       # 2 markers
    assert "only 2 Politburo markers" in e.message
    refused(g, A.JoinCommittee("B", ("A", "E")), "004 [11.11]")           # must include himself
    refused(g, A.JoinCommittee("A", ("A", "E")), "004 [11.11]")           # already
    markers(g, B=1)
    e = refused(g, A.JoinCommittee("B", ("B", "C")), "004 [11.11]")
    assert "B, C hold only 1 Politburo marker;" in e.message               # (not "1 Politburo markers")
    e = refused(g, A.JoinCommittee("B", ("B",)), "004 [11.11]")
    assert "B holds only 1 Politburo marker;" in e.message                # (one man: not "B hold")


def test_committee_withdrawal_dissolves_below_eight_and_reforms():
    g = blank("A")
    s = g.state
    markers(g, A=4, B=4, C=2)
    form(g, "A", "B", "C")
    g.apply(A.LeaveCommittee("C"))                 # 004 [11.12]: A and B still hold 8
    assert s.committee == ["A", "B"]
    ev = g.apply(A.LeaveCommittee("B"))            # A alone holds 4: dissolved
    assert s.committee == [] and "no Central Committee" in ev[-1].text
    refused(g, A.DeclarePurge("A", "C", ("A",)), "004 [11.11]")
    form(g, "A", "B")                              # 004 [11.13]: re-formed any number of times
    g.apply(A.JoinCommittee("B", ("B", "C", "A")))  # B now wants another Committee: the old one is gone
    assert s.committee == []
    g.apply(A.JoinCommittee("C", ("A", "B", "C")))
    g.apply(A.JoinCommittee("A", ("A", "B", "C")))
    assert s.committee == ["A", "B", "C"]
    refused(g, A.LeaveCommittee("D"), "004 [11.12]")


def test_a_member_who_consents_to_another_committee_withdraws_from_the_sitting_one():
    """004 [11.12]: "The only effective course of action by which an individual member may object
    ... is to withdraw his own membership"; the rest remain the Committee if they still meet
    004 [11.11].  A member's consent to a different Committee is such a withdrawal: C's proposal
    of C, D, E left no Committee at all, though A and B still consent to each other and hold 8
    (an audit's finding), as they are after C's LeaveCommittee."""
    g = blank("A")
    s = g.state
    markers(g, A=4, B=4, C=1, D=4, E=3)
    form(g, "A", "B", "C")
    g.apply(A.JoinCommittee("C", ("C", "D", "E")))
    assert s.committee == ["A", "B"] and s.committee_consent["C"] == ["C", "D", "E"]
    assert g.is_legal(A.DeclarePurge("A", "D", ("A",)))
    # a member who invites a newcomer leaves the rest as they would be without him
    g = blank("A")
    s = g.state
    markers(g, A=8, B=1, C=1)
    form(g, "A", "B")
    g.apply(A.JoinCommittee("B", ("A", "B", "C")))
    assert s.committee == ["A"]                                  # A alone holds 8 (004 [11.11])
    g.apply(A.JoinCommittee("C", ("A", "B", "C")))
    g.apply(A.JoinCommittee("A", ("A", "B", "C")))
    assert s.committee == ["A", "B", "C"]
    # a consent to a Committee that does not sit is only replaced: the others' stay as given
    g = blank("A")
    s = g.state
    markers(g, A=4, B=4, C=4)
    g.apply(A.JoinCommittee("A", ("A", "B", "C")))
    g.apply(A.JoinCommittee("B", ("A", "B", "C")))
    assert s.committee == []                                      # (C has not consented)
    g.apply(A.JoinCommittee("B", ("B", "C")))
    assert s.committee_consent["A"] == ["A", "B", "C"] and s.committee_consent["B"] == ["B", "C"]


def test_an_invitation_stands_while_its_proposer_consents_to_exactly_its_members():
    """004 [11.11]: a consent is to a Committee of those members, in any order; what a chat
    invitation to a Committee stands on (``Game.consents_to``, asked by the server)."""
    g = blank("A")
    markers(g, A=4, B=4, C=2)
    g.apply(A.JoinCommittee("A", ("A", "B")))
    assert g.consents_to("A", ["B", "A"]) and g.consents_to("A", ("A", "B"))
    assert not g.consents_to("A", ["A", "B", "C"]) and not g.consents_to("A", ["A"])
    assert not g.consents_to("B", ["A", "B"])                  # B has not consented
    g.apply(A.JoinCommittee("A", ("A", "B", "C")))             # A invites another Committee now
    assert not g.consents_to("A", ["A", "B"]) and g.consents_to("A", ["C", "B", "A"])
    g.apply(A.LeaveCommittee("A"))                             # withdrawn: A invites no one
    assert not g.consents_to("A", ["A", "B", "C"])


def test_a_player_holding_eight_markers_is_a_committee_alone_and_the_log_says_so():
    """004 [11.11]: "any individual or group of Players" who hold 8 Politburo markers is the
    Central Committee; the log names one man's Committee as his alone (QA: "a Central Committee
    of A" read as a slip)."""
    g = blank("A")
    markers(g, A=9, B=2)
    ev = g.apply(A.JoinCommittee("A", ("A",)))
    assert g.state.committee == ["A"]
    texts = [e.text for e in ev]
    assert "A consents to a Central Committee of A alone" in texts
    assert "The Central Committee is A alone (9 Politburo markers)" in texts
    ev = g.apply(A.JoinCommittee("B", ("A", "B")))             # (two members are listed as ever)
    assert "B consents to a Central Committee of A, B" in [e.text for e in ev]


def test_committee_follows_the_markers_and_quitting():
    g = blank("A")
    s = g.state
    markers(g, A=4, B=4, C=3)
    form(g, "A", "B")
    oid = g.apply(A.OfferTrade("B", to="C", give_politburo=1))[0].data["offer"]
    ev = g.apply(A.AcceptTrade("C", oid))          # A and B hold 7 now: not a Committee
    assert s.committee == [] and "committee" in kinds(ev)
    oid = g.apply(A.OfferTrade("C", to="B", give_politburo=1))[0].data["offer"]
    g.apply(A.AcceptTrade("B", oid))
    assert s.committee == ["A", "B"]
    markers(g, A=4, B=4, C=4)
    form(g, "A", "B", "C")
    g.apply(A.Quit("C"))                           # quitting withdraws; A and B keep 8
    assert s.committee == ["A", "B"] and "C" not in s.committee_consent


# == purges (004 [11.0]-[11.3]) ==============================================================================
def _one_two_position() -> Game:
    """A alone is the Committee (8 PM) with 8 Red leadership: strength 16; B holds Trotsky (3),
    Tukhachevsky (2), Sablin and Muraviev (1 each) and one Politburo marker."""
    g = blank("C")
    markers(g, A=8, B=1)
    put(g, "PETR", "A", "Lenin")
    put(g, "VLDM", "A", "Frunze", "Vatzetis", "Kalinin")
    put(g, "TVER", "B", "Trotsky")
    put(g, "NOVG", "B", "Tukhachevsky", "RU8 NOVG", attach={"RU8 NOVG": "Tukhachevsky"})
    put(g, "PSKO", "B", "Sablin", "Muraviev", "RU4 PSKO", attach={"RU4 PSKO": "Muraviev"})
    form(g, "A")
    return g


def test_11_21_a_result_of_two_takes_one_value_two_leader(dice):
    g = _one_two_position()
    s = g.state
    act = A.DeclarePurge("A", "B", ("A",))
    assert act in g.legal_actions("A")             # A is not phasing (C is): any time in the series
    dice += [3, 3]
    ev = g.apply(act)
    p = next(e for e in ev if e.kind == "purge")
    assert (p.data["strength"], p.data["column"], p.data["result"]) == (16, "16-20", "2")
    assert g.pending == [{"seat": "A", "kind": "spoils"}]
    opts = g.legal_actions("A")
    assert set(opts) == {A.TakeSpoil("A", uid("Tukhachevsky")), A.TakeSpoil("A", uid("Sablin")),
                         A.TakeSpoil("A", uid("Muraviev")), A.TakeSpoil("A", 0), A.EndSpoils("A")}
    refused(g, A.TakeSpoil("A", uid("Trotsky")), "004 [11.21]")        # worth 3 > 2
    refused(g, A.TakeSpoil("A", uid("Lenin")), "004 [11.31]")          # not B's
    refused(g, A.EndMovement("C"))                                      # play is suspended
    assert g.legal_actions("C") == []
    g.apply(A.TakeSpoil("A", uid("Tukhachevsky")))
    st = stack_of(g, "Tukhachevsky")
    assert st.owner == "A" and st.province == "NOVG" and st.attached == {uid("RU8 NOVG"): uid("Tukhachevsky")}
    assert s.decision is None and g.pending == [{"seat": "C", "kind": "movement"}]
    assert s.stats["purges"] == 1 and politics.purged(g.ctx) == ["A"]


def test_11_31_white_leaders_and_red_leaders_off_the_map_are_never_purged(dice):
    """004 [11.31] (and [11.21] Note): only Red leaders on the map and Politburo markers change
    hands; B's White leader and a Red leader of B's on the Victory Point Chart are not offered
    and are refused by name."""
    g = _one_two_position()
    put(g, "KUBA", "B", "Deniken")
    g.ctx.take(uid("Trotsky"))
    g.ctx.to_chart(uid("Trotsky"), "B")
    dice += [6, 6]                                       # 16 at 16-20, roll 12: 4 points
    g.apply(A.DeclarePurge("A", "B", ("A",)))
    offered = {a.leader for a in g.legal_actions("A") if isinstance(a, A.TakeSpoil)}
    assert offered == {uid("Tukhachevsky"), uid("Sablin"), uid("Muraviev"), 0}
    refused(g, A.TakeSpoil("A", uid("Deniken")), "004 [11.31]")
    refused(g, A.TakeSpoil("A", uid("Trotsky")), "004 [11.31]")
    g.apply(A.TakeSpoil("A", uid("Tukhachevsky")))
    g.apply(A.TakeSpoil("A", 0))
    assert g.state.decision is None and owner(g, "Deniken") == "B" and g.ctx.b.on_vp_chart(uid("Trotsky")) == "B"


def test_11_21_or_two_value_one_leaders_splitting_the_stack(dice):
    g = _one_two_position()
    dice += [3, 3]
    g.apply(A.DeclarePurge("A", "B", ("A",)))
    g.apply(A.TakeSpoil("A", uid("Muraviev")))
    # Muraviev and his attached RU4 PSKO become A's force; Sablin stays B's (004 [11.21]).
    mur, sab = stack_of(g, "Muraviev"), stack_of(g, "Sablin")
    assert mur.id != sab.id and mur.province == sab.province == "PSKO"
    assert (mur.owner, sorted(mur.units), sab.owner, sab.units) == (
        "A", sorted([uid("Muraviev"), uid("RU4 PSKO")]), "B", [uid("Sablin")])
    assert set(g.legal_actions("A")) == {A.TakeSpoil("A", uid("Sablin")), A.EndSpoils("A")}
    g.apply(A.TakeSpoil("A", uid("Sablin")))
    assert g.state.decision is None and owner(g, "Sablin") == "A"


def test_11_22_a_politburo_marker_costs_two(dice):
    g = _one_two_position()
    s = g.state
    dice += [3, 3]
    g.apply(A.DeclarePurge("A", "B", ("A",)))
    ev = g.apply(A.TakeSpoil("A", 0))
    assert (s.politburo["A"], s.politburo["B"]) == (9, 0) and s.decision is None
    assert "2 points" in ev[0].text


def test_a_purger_may_take_less_and_takes_only_what_he_is_owed(dice):
    g = _one_two_position()
    dice += [1, 3]                                  # 4 at 16-20: 1 point
    g.apply(A.DeclarePurge("A", "B", ("A",)))
    assert set(g.legal_actions("A")) == {A.TakeSpoil("A", uid("Sablin")), A.TakeSpoil("A", uid("Muraviev")),
                                         A.EndSpoils("A")}
    refused(g, A.TakeSpoil("A", 0), "004 [11.21]")
    g.apply(A.EndSpoils("A"))
    assert g.state.decision is None and owner(g, "Sablin") == "B"


def test_11_23_example_a_and_b_take_value_one_leaders_c_nothing(dice):
    g = committee_abc()
    s = g.state
    ev = g.apply(A.DeclarePurge("A", "D", ("A", "B", "C"), ("A", "B", "C")))
    assert g.pending == [{"seat": "B", "kind": "purge_approval"}]
    g.apply(A.ApprovePurge("B", True))
    assert g.pending == [{"seat": "C", "kind": "purge_approval"}]
    dice += [3, 3]
    ev = g.apply(A.ApprovePurge("C", True))
    assert next(e for e in ev if e.kind == "purge").data["result"] == "2"
    assert g.pending == [{"seat": "A", "kind": "spoils"}]
    # A is owed 1 point: a Politburo marker (2) is refused because a fairer split is possible.
    e = refused(g, A.TakeSpoil("A", 0), "004 [11.23]")
    assert "A 1, B 1, C 0" in e.message
    refused(g, A.TakeSpoil("A", uid("Tukhachevsky")), "004 [11.23]")
    assert set(g.legal_actions("A")) == {A.TakeSpoil("A", uid("Sablin")), A.TakeSpoil("A", uid("Muraviev")),
                                         A.EndSpoils("A")}
    g.apply(A.TakeSpoil("A", uid("Sablin")))
    assert g.pending == [{"seat": "B", "kind": "spoils"}]
    refused(g, A.TakeSpoil("B", 0), "004 [11.21]")              # 2 points; 1 remains
    g.apply(A.TakeSpoil("B", uid("Muraviev")))
    assert s.decision is None                          # C gains nothing
    assert (owner(g, "Sablin"), owner(g, "Muraviev"), owner(g, "Tukhachevsky")) == ("A", "B", "D")
    assert s.politburo["D"] == 1 and sorted(politics.purged(g.ctx)) == ["A", "B", "C"]


def test_11_23_the_closest_split_when_no_exact_one_exists(dice):
    """Only a value-2 leader and a marker: A (first in the order) may take 2 points."""
    g = committee_abc()
    g.ctx.take(uid("Sablin"))
    g.ctx.take(uid("Muraviev"))
    g.apply(A.DeclarePurge("B", "D", ("A", "B", "C"), ("A", "B", "C")))
    g.apply(A.ApprovePurge("A", True))
    dice += [3, 3]
    g.apply(A.ApprovePurge("C", True))
    assert set(g.legal_actions("A")) == {A.TakeSpoil("A", uid("Tukhachevsky")), A.TakeSpoil("A", 0), A.EndSpoils("A")}
    g.apply(A.EndSpoils("A"))                          # A declines; B may take them instead
    assert g.pending == [{"seat": "B", "kind": "spoils"}]
    g.apply(A.TakeSpoil("B", 0))
    assert g.state.decision is None and g.state.politburo["B"] == 4


def _uneven_position(*d_leaders: str) -> Game:
    """A (Lenin, 4 PM) and B (Trotsky, 4 PM): strength 14; C holds ``d_leaders``."""
    g = blank("D")
    markers(g, A=4, B=4)
    put(g, "PETR", "A", "Lenin")
    put(g, "TVER", "B", "Trotsky")
    put(g, "PSKO", "C", *d_leaders)
    form(g, "A", "B")
    return g


def test_group_purge_whose_spoils_cannot_be_split_evenly(dice):
    """Three points shared by A and B in that order: A is owed 2, B 1.  A may not take a
    value-1 leader first: B could then get nothing though a 2-1 split was possible."""
    g = _uneven_position("Tukhachevsky", "Gai", "Sablin")
    g.apply(A.DeclarePurge("A", "C", ("A", "B"), ("A", "B")))
    dice += [5, 6]                                      # 11 at 11-15: 3 points
    g.apply(A.ApprovePurge("B", True))
    assert g.state.decision["purge"]["entitled"] == {"A": 2, "B": 1}
    refused(g, A.TakeSpoil("A", uid("Gai")), "004 [11.23]")
    g.apply(A.TakeSpoil("A", uid("Tukhachevsky")))
    assert g.pending == [{"seat": "B", "kind": "spoils"}]
    refused(g, A.TakeSpoil("A", uid("Sablin")), "004 [11.21]")         # B's turn to take
    g.apply(A.TakeSpoil("B", uid("Gai")))
    assert g.state.decision is None and owner(g, "Sablin") == "C"


def test_the_odd_point_goes_first_in_the_agreed_order(dice):
    g = _uneven_position("Tukhachevsky", "Gai", "Sablin", "Muraviev")
    g.apply(A.DeclarePurge("A", "C", ("A", "B"), ("B", "A")))
    dice += [5, 6]
    g.apply(A.ApprovePurge("B", True))
    assert g.state.decision["purge"]["entitled"] == {"B": 2, "A": 1}
    assert g.pending == [{"seat": "B", "kind": "spoils"}]
    g.apply(A.TakeSpoil("B", uid("Gai")))
    g.apply(A.TakeSpoil("B", uid("Sablin")))          # two value-1 leaders make B's 2 too
    assert g.pending == [{"seat": "A", "kind": "spoils"}]
    refused(g, A.TakeSpoil("A", uid("Tukhachevsky")), "004 [11.21]")   # only 1 point remains
    g.apply(A.TakeSpoil("A", uid("Muraviev")))
    assert g.state.decision is None and owner(g, "Tukhachevsky") == "C"


def test_a_member_may_not_spoil_the_next_members_share(dice):
    """B is owed 2 and A 1; B taking a value-1 leader first would leave only Tukhachevsky (2)
    for the last point, so B must take Tukhachevsky."""
    g = _uneven_position("Tukhachevsky", "Gai")
    g.apply(A.DeclarePurge("A", "C", ("A", "B"), ("B", "A")))
    dice += [5, 6]
    g.apply(A.ApprovePurge("B", True))
    assert set(g.legal_actions("B")) == {A.TakeSpoil("B", uid("Tukhachevsky")), A.EndSpoils("B")}
    refused(g, A.TakeSpoil("B", uid("Gai")), "004 [11.23]")
    g.apply(A.TakeSpoil("B", uid("Tukhachevsky")))
    g.apply(A.TakeSpoil("A", uid("Gai")))
    assert g.state.decision is None


def test_uneven_spoils_with_only_value_two_leaders(dice):
    g = _uneven_position("Tukhachevsky", "Zinoviev")
    g.apply(A.DeclarePurge("B", "C", ("A", "B"), ("A", "B")))
    dice += [5, 6]
    g.apply(A.ApprovePurge("A", True))
    ev = g.apply(A.TakeSpoil("A", uid("Zinoviev")))
    assert g.state.decision is None                    # B's 1 point buys nothing
    assert owner(g, "Tukhachevsky") == "C"
    # the log says why B took nothing (QA read "points taken: A 2, B 0" after 3 points as a fault)
    over = next(e for e in ev if e.kind == "purge_resolved")
    assert over.text == ("The purge of C is over (points taken: A 2, B 0; 1 point left unspent: "
                         "the cheapest of C's costs 2)"), over.text
    assert over.data["unspent"] == 1 and over.data["purgers"] == ["A", "B"]


def test_entitlements():
    assert politics.entitlements(2, ["A", "B", "C"]) == {"A": 1, "B": 1, "C": 0}
    assert politics.entitlements(3, ["A", "E"]) == {"A": 2, "E": 1}
    assert politics.entitlements(5, ["D", "A", "B"]) == {"D": 2, "A": 2, "B": 1}
    assert politics.entitlements(3, ["A", "A", "E"]) == {"A": 2, "E": 1}


def _bell4_position() -> Game:
    """The Bell #4, June 1918: A (12 Red leadership, 3 PM) and E (9, 5 PM) purge B."""
    g = blank("C")
    markers(g, A=3, E=5, B=2, C=3, D=2)
    put(g, "PETR", "A", "Lenin", "Kalinin", "Kamenev")
    put(g, "SMOL", "A", "Zinoviev", "Voroshilov", "Budenny", "Sorokin")
    put(g, "TVER", "E", "Trotsky", "Sytin")
    put(g, "OREL", "E", "Vatzetis", "Frunze", "Markin")
    put(g, "RYAZ", "B", "Tukhachevsky", "Gai", "RU8 NOVG", attach={"RU8 NOVG": "Tukhachevsky"})
    put(g, "PSKO", "B", "Muraviev", "RU4 PSKO", attach={"RU4 PSKO": "Muraviev"})
    put(g, "KURS", "D", "Stalin")
    form(g, "A", "E")
    return g


def test_bell4_purge_of_b_by_a_and_e(dice):
    g = _bell4_position()
    s = g.state
    assert politics.leadership(g.ctx, "A") == 12 and politics.leadership(g.ctx, "E") == 9
    # The orders that were not compatible: B "Purge E", D "Purge A with E".
    refused(g, A.DeclarePurge("B", "E", ("B",)), "004 [11.0]")
    refused(g, A.DeclarePurge("D", "A", ("D", "E"), ("D", "E")), "004 [11.0]")
    refused(g, A.DeclarePurge("A", "E", ("A",)), "004 [11.14]")          # E is a member
    g.apply(A.DeclarePurge("A", "B", ("A", "E"), ("A", "E")))
    dice += [1, 1]
    ev = g.apply(A.ApprovePurge("E", True))
    p = next(e for e in ev if e.kind == "purge")
    assert (p.data["strength"], p.data["dice"], p.data["result"]) == (29, [1, 1], "3")
    assert "A 12 + 3 PM" in p.text and "E 9 + 5 PM" in p.text
    # A is owed 2, E 1 (3 points as equally as possible, A first).
    assert set(g.legal_actions("A")) == {A.TakeSpoil("A", uid("Tukhachevsky")), A.TakeSpoil("A", 0), A.EndSpoils("A")}
    g.apply(A.TakeSpoil("A", uid("Tukhachevsky")))
    g.apply(A.TakeSpoil("E", uid("Muraviev")))
    assert s.decision is None
    tuk = stack_of(g, "Tukhachevsky")
    assert (tuk.owner, tuk.province, sorted(tuk.units)) == ("A", "RYAZ", sorted([uid("Tukhachevsky"), uid("RU8 NOVG")]))
    assert (owner(g, "Gai"), stack_of(g, "Gai").province) == ("B", "RYAZ")
    mur = stack_of(g, "Muraviev")
    assert (mur.owner, mur.province, sorted(mur.units)) == ("E", "PSKO", sorted([uid("Muraviev"), uid("RU4 PSKO")]))
    assert sorted(politics.purged(g.ctx)) == ["A", "E"]
    refused(g, A.DeclarePurge("A", "D", ("A",)), "004 [11.13]")          # one purge per Game-Turn


def test_bell3_purge_orders():
    """The Bell #3: B's order (with D and A; D first point, A second, B third) is legal but
    needs A's and D's agreement; D's conditional order names no purgers; E's names no division."""
    g = blank("A")
    s = g.state
    markers(g, A=2, B=3, D=3, E=5)
    put(g, "PETR", "E", "Lenin")
    form(g, "A", "B", "D")
    e = refused(g, A.DeclarePurge("D", "A", (), (), "Purge Strength of 25 or greater; D first or second priority"),
                "004 [11.0]")
    assert "does not specify which players" in e.message and '"conditional" orders' in e.message
    e = refused(g, A.DeclarePurge("D", "E", ("D", "A", "B"), ("D", "A"), "only if strength >= 25"), "004 [11.0]")
    assert "conditional" in e.message
    e = refused(g, A.DeclarePurge("E", "A", ("E", "D")), "004 [11.0]")
    assert "does not specify any means of dividing the spoils" in e.message
    g.apply(A.DeclarePurge("B", "E", ("B", "D", "A"), ("D", "A", "B")))
    assert g.pending == [{"seat": "A", "kind": "purge_approval"}]
    g.apply(A.ApprovePurge("A", True))
    ev = g.apply(A.ApprovePurge("D", False))           # D's orders were not compatible
    assert "purge_rejected" in kinds(ev) and s.decision is None
    assert politics.purged(g.ctx) == [] and "purges" not in s.stats
    # Individually they may still purge.
    assert A.DeclarePurge("D", "E", ("D",)) in g.legal_actions("D")


def test_bell3_order_resolved_d_a_b(dice):
    g = blank("A")
    markers(g, A=2, B=3, D=3)
    put(g, "PETR", "A", "Kalinin")
    put(g, "TVER", "B", "Kamenev")
    put(g, "SMOL", "D", "Sorokin")
    put(g, "PSKO", "E", "Sablin", "Muraviev", "Gai")
    form(g, "A", "B", "D")
    g.apply(A.DeclarePurge("B", "E", ("B", "D", "A"), ("D", "A", "B")))
    g.apply(A.ApprovePurge("A", True))
    dice += [5, 6]                                     # 3 + 8 = 11 at 11-15, roll 11: 3 points
    g.apply(A.ApprovePurge("D", True))
    for p, lead in (("D", "Sablin"), ("A", "Muraviev"), ("B", "Gai")):
        assert g.pending == [{"seat": p, "kind": "spoils"}]
        g.apply(A.TakeSpoil(p, uid(lead)))
    assert g.state.decision is None


def test_purge_refusals():
    g = committee_abc()
    refused(g, A.DeclarePurge("D", "E", ("D",)), "004 [11.0]")               # not a member
    refused(g, A.DeclarePurge("A", "B", ("A",)), "004 [11.14]")
    refused(g, A.DeclarePurge("A", "D", ("A", "B"), ("A", "B")), "004 [11.0]")  # not the whole Committee
    refused(g, A.DeclarePurge("A", "D", ("A", "B", "C"), ("A", "D")), "004 [11.23]")
    refused(g, A.DeclarePurge("A", "D", ("B",)), "004 [11.0]")               # for another seat
    refused(g, A.DeclarePurge("A", "Z", ("A",)), "004 [11.0]")
    refused(g, A.ApprovePurge("B", True), "004 [11.23]")                      # nothing to approve
    refused(g, A.TakeSpoil("A", 0), "004 [11.21]")
    refused(g, A.Counterpurge("D", "A"), "004 [11.24]")
    g.state.phase = "vote"
    refused(g, A.DeclarePurge("A", "D", ("A",)), "004 [11.0]")               # only in the Player-Turn series


def test_individual_purges_resolve_in_player_turn_order(dice):
    """A declares first, B adds his own; B's Player-Turn comes first, so B's purge is
    resolved first, and A's strength is counted after it (004 [11.0] Procedure)."""
    g = blank("B")                                      # order B C D E A
    markers(g, A=4, B=4, D=1)
    put(g, "PETR", "A", "Lenin")
    put(g, "TVER", "B", "Trotsky")
    put(g, "PSKO", "D", "Sablin", "Gai")
    put(g, "NOVG", "C", "Muraviev")
    form(g, "A", "B")
    g.apply(A.DeclarePurge("A", "D", ("A",)))
    assert g.pending == [{"seat": "B", "kind": "purge_orders"}]
    assert A.PassPurge("B") in g.legal_actions("B")
    refused(g, A.DeclarePurge("B", "D", ("A", "B"), ("A", "B")), "004 [11.0]")
    refused(g, A.EndMovement("B"))
    dice += [3, 4]                                     # B: 3 + 4 = 7 at 1-10, roll 7: 1 point
    ev = g.apply(A.DeclarePurge("B", "C", ("B",)))
    purges = [e for e in ev if e.kind == "purge"]
    assert [p.data["purgers"] for p in purges] == [["B"]]
    assert g.pending == [{"seat": "B", "kind": "spoils"}]
    dice += [3, 4]
    ev = g.apply(A.TakeSpoil("B", uid("Muraviev")))    # B's done; now A's purge (strength 3 + 4)
    p = next(e for e in ev if e.kind == "purge")
    assert p.data["purgers"] == ["A"] and p.data["strength"] == 7
    g.apply(A.TakeSpoil("A", uid("Gai")))
    assert g.state.decision is None and sorted(politics.purged(g.ctx)) == ["A", "B"]
    assert g.pending == [{"seat": "B", "kind": "movement"}]


def test_individual_purge_other_members_may_pass(dice):
    g = blank("B")
    markers(g, A=4, B=4)
    put(g, "PETR", "A", "Lenin")
    put(g, "PSKO", "D", "Sablin")
    form(g, "A", "B")
    g.apply(A.DeclarePurge("A", "D", ("A",)))
    dice += [6, 6]
    ev = g.apply(A.PassPurge("B"))
    assert "purge_pass" in kinds(ev) and g.pending == [{"seat": "A", "kind": "spoils"}]
    g.apply(A.TakeSpoil("A", uid("Sablin")))
    assert politics.purged(g.ctx) == ["A"]
    # B did not purge: he still may, and A, who has, is not asked again.
    dice += [6, 6]
    g.apply(A.DeclarePurge("B", "D", ("B",)))
    assert g.state.decision is None                    # D has nothing left: nothing to take


def _chain_position() -> Game:
    """A, B, C (3, 3, 2 PM; one value-1 leader each: strength 11) purge D (Tukhachevsky, 2 PM)."""
    g = blank("E")
    markers(g, A=3, B=3, C=2, D=2)
    put(g, "PETR", "A", "Kalinin")
    put(g, "TVER", "B", "Kamenev")
    put(g, "SMOL", "C", "Sorokin")
    put(g, "NOVG", "D", "Tukhachevsky")
    form(g, "A", "B", "C")
    return g


def test_counterpurge_chain_of_three_links(dice):
    """Issue 4 interleaving: 004 [11.24]-[11.27], a C result, then counterpurges back and forth
    between D and A only ([11.25]) until a number result ends the chain ([11.26]); the winner
    takes his spoils freely ([11.27])."""
    g = _chain_position()
    s = g.state
    g.apply(A.DeclarePurge("A", "D", ("A", "B", "C"), ("A", "B", "C")))
    g.apply(A.ApprovePurge("B", True))
    dice += [1, 1]                                     # 11 at 11-15, roll 2: C
    ev = g.apply(A.ApprovePurge("C", True))
    assert next(e for e in ev if e.kind == "purge").data["result"] == "C"
    assert g.pending == [{"seat": "D", "kind": "counterpurge"}]
    assert set(g.legal_actions("D")) == {A.Counterpurge("D", p) for p in ("A", "B", "C", "")}
    # Link 1: D counterpurges A with doubled markers: 2 + 2x2 = 6, roll 3: C.
    dice += [1, 2]
    ev = g.apply(A.Counterpurge("D", "A"))
    c1 = next(e for e in ev if e.kind == "counterpurge")
    assert (c1.data["strength"], c1.data["result"]) == (6, "C")
    assert g.pending == [{"seat": "A", "kind": "counterpurge"}]
    refused(g, A.Counterpurge("A", "B"), "004 [11.25]")                # only A and D now
    # Link 2: A counterpurges D: 1 + 3x2 = 7, roll 4: C.
    dice += [2, 2]
    ev = g.apply(A.Counterpurge("A", "D"))
    assert next(e for e in ev if e.kind == "counterpurge").data["strength"] == 7
    assert set(g.legal_actions("D")) == {A.Counterpurge("D", "A"), A.Counterpurge("D", "")}
    # Link 3: D counterpurges A again, roll 12: 2 points, taken freely (004 [11.27]).
    dice += [6, 6]
    g.apply(A.Counterpurge("D", "A"))
    assert g.pending == [{"seat": "D", "kind": "spoils"}]
    ev = g.apply(A.TakeSpoil("D", 0))
    assert (s.politburo["A"], s.politburo["D"]) == (2, 3)
    assert s.committee == [] and "committee" in kinds(ev)  # A, B, C now hold 7
    assert s.decision is None and g.pending == [{"seat": "E", "kind": "movement"}]
    assert s.stats["purges"] == 1 and s.stats["counterpurges"] == 3
    assert sorted(politics.purged(g.ctx)) == ["A", "B", "C"]           # D only counterpurged


def test_counterpurge_may_be_declined(dice):
    """004 [11.26]: a player is never forced to counterpurge; declining resolves the purge."""
    g = _chain_position()
    g.apply(A.DeclarePurge("A", "D", ("A", "B", "C"), ("A", "B", "C")))
    g.apply(A.ApprovePurge("B", True))
    dice += [1, 1]
    g.apply(A.ApprovePurge("C", True))
    ev = g.apply(A.Counterpurge("D", ""))
    assert "counterpurge_declined" in kinds(ev) and g.state.decision is None
    assert owner(g, "Tukhachevsky") == "D" and "counterpurges" not in g.state.stats


def test_no_trade_is_consummated_while_a_purge_or_the_vote_is_resolved(dice):
    """Markers are traded "at any time" (004 [10.0], [11.0] commentary), but a purge suspends
    all other game functions until it is resolved (004 [11.0] Procedure): an offer may be
    made during a counterpurge or spoils decision, it is accepted only afterwards, so the
    purged player cannot trade his markers out of reach and no strength changes mid-chain."""
    g = _chain_position()
    s = g.state
    s.assassins["D"] = 1
    g.apply(A.DeclarePurge("A", "D", ("A", "B", "C"), ("A", "B", "C")))
    g.apply(A.ApprovePurge("B", True))
    dice += [1, 1]                                       # C: D may counterpurge
    g.apply(A.ApprovePurge("C", True))
    ev = g.apply(A.OfferTrade("D", to="E", give_politburo=2))   # D tries to hide his markers
    oid = ev[0].data["offer"]
    assert A.AcceptTrade("E", oid) not in g.legal_actions("E")
    e = refused(g, A.AcceptTrade("E", oid), "004 [11.0]")
    assert e.code == "decision_pending"
    dice += [6, 6]                                       # D counterpurges A: 2 points
    g.apply(A.Counterpurge("D", "A"))
    assert g.pending == [{"seat": "D", "kind": "spoils"}]
    refused(g, A.AcceptTrade("E", oid), "004 [11.0]")
    g.apply(A.TakeSpoil("D", 0))
    assert s.decision is None and s.politburo["D"] == 3
    g.apply(A.AcceptTrade("E", oid))                     # resolved: the trade goes through now
    assert (s.politburo["D"], s.politburo["E"]) == (1, 2) and s.stats["trades"] == 1


def test_trades_go_on_during_an_exchange_loss_choice(dice):
    """A combat decision does not suspend trading (004 [10.0]: "at any time"); the loss
    choice is unaffected."""
    g = blank("A", "combat")
    s = g.state
    s.assassins["B"] = 1
    put(g, "PETR", "A", "Lenin", "RU8 PETR", attach={"RU8 PETR": "Lenin"})
    put(g, "PETR", "B", "Kolchak", "WU3 OMSK", "WU2 TERE", attach={"WU3 OMSK": "Kolchak", "WU2 TERE": "Kolchak"})
    g.apply(A.DeclareAttack("A", stack_of(g, "Kolchak").id))
    g.apply(A.AddAttacker("A", stack_of(g, "Lenin").id))
    dice += [next(i + 1 for i, row in enumerate(D.tables.crt) if row[1] == "Ex")]   # 11 vs 7 at 1:1
    g.apply(A.ResolveAttack("A"))
    assert g.pending == [{"seat": "A", "kind": "loss"}]
    ev = g.apply(A.OfferTrade("B", to="C", give_assassins=1))
    g.apply(A.AcceptTrade("C", ev[0].data["offer"]))
    assert s.assassins["C"] == 1 and g.pending == [{"seat": "A", "kind": "loss"}]
    g.apply(A.ChooseLoss("A", uid("RU8 PETR")))
    assert s.decision is None


def test_purge_declared_in_the_middle_of_another_players_turn(dice):
    g = blank("A")
    s = g.state
    markers(g, C=8)
    put(g, "PETR", "A", "Lenin", "RU8 PETR", attach={"RU8 PETR": "Lenin"})
    put(g, "TVER", "C", "Trotsky")
    form(g, "C")
    g.apply(A.StartForce("A", uid("Lenin")))
    e = refused(g, A.DeclarePurge("C", "A", ("C",)))
    assert e.code == "force_pending"
    assert not [a for a in g.legal_actions("C") if isinstance(a, A.DeclarePurge)]
    g.apply(A.EndForce("A"))
    assert A.DeclarePurge("C", "A", ("C",)) in g.legal_actions("C")
    dice += [6, 6]                                     # 3 + 8 = 11, roll 12: 3 points
    g.apply(A.DeclarePurge("C", "A", ("C",)))
    assert g.pending == [{"seat": "C", "kind": "spoils"}] and g.legal_actions("A") == []
    refused(g, A.EndMovement("A"))
    g.apply(A.TakeSpoil("C", uid("Lenin")))
    assert owner(g, "Lenin") == "C" and owner(g, "RU8 PETR") == "C"
    assert s.phase == "movement" and g.pending == [{"seat": "A", "kind": "movement"}]
    g.apply(A.EndMovement("A"))
    assert s.phase == "combat"


def test_no_purge_while_an_attack_is_assembled():
    g = blank("A", "combat")
    markers(g, C=8)
    form(g, "C")
    put(g, "TVER", "C", "Trotsky")
    g.state.attack = Attack(target=1)
    assert refused(g, A.DeclarePurge("C", "A", ("C",))).code == "attack_pending"


def test_purged_leader_takes_the_czar_along(dice):
    g = blank("A")
    markers(g, A=8)
    put(g, "PETR", "A", "Lenin")
    put(g, "VOLO", "B", "Blucher", "Gai", "RU2 EKAT", "Czar", attach={"RU2 EKAT": "Blucher", "Czar": "Blucher"})
    form(g, "A")
    dice += [6, 6]
    g.apply(A.DeclarePurge("A", "B", ("A",)))
    g.apply(A.TakeSpoil("A", uid("Blucher")))
    st = stack_of(g, "Czar")
    assert st.owner == "A" and uid("Blucher") in st.units and owner(g, "Gai") == "B"
    assert politics.czar_holder(g.ctx) == "A"


def test_purge_strength_counts_only_red_leaders_on_the_map():
    g = blank("A")
    markers(g, A=8)
    put(g, "PETR", "A", "Lenin", "Deniken", "RU8 PETR")
    g.ctx.to_chart(uid("Trotsky"), "A")
    assert politics.purge_strength(g.ctx, ["A"]) == 3 + 8
    assert politics.purge_strength(g.ctx, ["A"], counter=True) == 3 + 16
    put(g, "KUBA", "B", "Wrangel")
    form(g, "A")
    g.apply(A.DeclarePurge("A", "B", ("A",)))  # RNG decides; B has no Red leader and no marker
    d = g.state.decision
    assert d is None or d["kind"] == "counterpurge"


def _purged_by_a(monkeypatch, g, target: str) -> None:
    """A's Committee with B (formed beforehand) purges ``target`` with A alone as purger, the
    dice forced to 6, 6; B passes, A ends the spoils if there are any."""
    s = g.state
    forced = [6, 6]
    real = Ctx.die
    monkeypatch.setattr(Ctx, "die", lambda self: forced.pop(0) if forced else real(self))
    g.apply(A.DeclarePurge("A", target, ("A",)))
    g.apply(A.PassPurge("B"))
    if s.decision is not None:
        g.apply(A.EndSpoils("A"))
    assert not forced


def _to_next_game_turn(g) -> None:
    """Play on to the next Game-Turn, every phase ended as soon as it may be."""
    s = g.state
    turn = s.turn
    enders = (A.RollRandomEvents, A.EndMovement, A.EndCombat, A.DrawRandomizer, A.DeclineCapture, A.ChooseLoss)
    while s.turn == turn and not g.over:
        seat = g.pending[0]["seat"]
        acts = g.legal_actions(seat)
        g.apply(next((a for a in acts if isinstance(a, enders)), acts[0]))


def _committee_of_a_and_b():
    """A started game, A and B in a Central Committee, the target of their purge."""
    g = started()
    s = g.state
    markers(g, A=4, B=4, C=3, D=2, E=2)
    form(g, "A", "B")
    target = next(p for p in s.seats if p not in ("A", "B"))
    return g, target


def test_one_purge_per_game_turn_until_the_next(monkeypatch):
    """004 [11.13]: a purger may not purge again this Game-Turn; in the next one he may."""
    g, target = _committee_of_a_and_b()
    s = g.state
    _purged_by_a(monkeypatch, g, target)
    assert s.decision is None
    refused(g, A.DeclarePurge("A", target, ("A",)), "004 [11.13]")
    refused(g, A.DeclarePurge("B", target, ("A", "B"), ("A", "B")), "004 [11.13]")
    assert A.DeclarePurge("B", target, ("B",)) in g.legal_actions("B")
    turn = s.turn
    _to_next_game_turn(g)
    assert s.turn == turn + 1 and politics.purged(g.ctx) == []
    assert s.committee == ["A", "B"]
    assert A.DeclarePurge("A", target, ("A",)) in g.legal_actions("A")     # allowed again


def test_purged_names_who_may_not_purge_again_this_game_turn(monkeypatch):
    """004 [11.13]: ``Game.purged`` (and ``Player.purged``) lists the players who took part in
    a purge this Game-Turn: the purges refused for 004 [11.13] are those with one of them as
    purger; the list is empty again in the next Game-Turn."""
    g, target = _committee_of_a_and_b()
    s = g.state
    assert g.purged() == [] and Player(g, "B").purged() == []
    _purged_by_a(monkeypatch, g, target)
    assert g.purged() == ["A"] and Player(g, "B").purged() == ["A"]
    for purgers in (("A",), ("A", "B")):
        for seat in purgers:
            why = g.why_illegal(A.DeclarePurge(seat, target, purgers, purgers if len(purgers) > 1 else ()))
            assert why is not None and why.rule == "004 [11.13]"
    assert g.is_legal(A.DeclarePurge("B", target, ("B",)))
    turn = s.turn
    _to_next_game_turn(g)
    assert s.turn == turn + 1 and g.purged() == []
    assert g.is_legal(A.DeclarePurge("A", target, ("A",)))


def test_a_purge_survives_saving_and_loading(dice):
    g = committee_abc()
    g.apply(A.DeclarePurge("A", "D", ("A", "B", "C"), ("A", "B", "C")))
    g.apply(A.ApprovePurge("B", True))
    dice += [3, 3]
    g.apply(A.ApprovePurge("C", True))
    h = Game.from_bytes(g.to_bytes())
    assert h.state_hash() == g.state_hash() and h.pending == g.pending
    assert h.legal_actions("A") == g.legal_actions("A")
    h.apply(A.TakeSpoil("A", uid("Sablin")))
    assert h.pending == [{"seat": "B", "kind": "spoils"}]


def test_politics_through_the_api_replays_exactly():
    """Committee, group purge and whatever the dice bring, all by legal actions: the log
    replays to the same state."""
    g = started(5, 3)
    s = g.state
    rich = sorted(s.seats, key=lambda p: -s.politburo[p])
    members: list[str] = []
    for p in rich:
        members.append(p)
        if sum(s.politburo[q] for q in members) >= 8:
            break
    for m in members:
        g.apply(A.JoinCommittee(m, tuple(sorted(members, key=s.seats.index))))
    assert s.committee == sorted(members, key=s.seats.index)
    target = next(p for p in s.seats if p not in members)
    order = tuple(politics._by_turn(g.ctx, members))
    act = A.DeclarePurge(members[0], target, order, order if len(order) > 1 else ())
    assert act in g.legal_actions(members[0])
    g.apply(act)
    steps = 0
    while s.decision is not None and steps < 50:
        seat = s.decision["seat"]
        acts = g.legal_actions(seat)
        assert acts, s.decision
        yes = [a for a in acts if isinstance(a, (A.ApprovePurge, A.TakeSpoil)) and getattr(a, "approve", True)]
        g.apply(yes[0] if yes else acts[0])
        steps += 1
    assert s.decision is None and s.stats["purges"] == 1
    r = Game.replay(s.seed, g.log, 5)
    assert r.state_hash() == g.state_hash()


# == execution of the Czar (004 [13.5]) ========================================================================
def _czar_position(**pm: int) -> Game:
    g = blank("D")
    markers(g, **pm)
    put(g, "VOLO", "C", "Blucher", "RU2 EKAT", "Czar", attach={"RU2 EKAT": "Blucher", "Czar": "Blucher"})
    return g


def test_czar_execution_ordered_and_obeyed():
    g = _czar_position(A=6, B=4)
    s = g.state
    form(g, "A", "B")
    red_before = victory.score(g.ctx, "Red")["C"]
    assert A.OrderExecution("A") in g.legal_actions("A")
    g.apply(A.OrderExecution("A"))
    assert g.pending == [{"seat": "B", "kind": "execution_consent"}]
    ev = g.apply(A.OrderExecution("B", True))
    assert "execution_ordered" in kinds(ev)
    assert g.pending == [{"seat": "C", "kind": "execution"}]
    assert set(g.legal_actions("C")) == {A.AnswerExecution("C", True), A.AnswerExecution("C", False)}
    g.apply(A.AnswerExecution("C", True))
    assert g.ctx.b.stack_of(D.czar) is None and [D.czar, True] in s.vp["C"]     # 004 [13.54]
    assert s.stats["czar_executions"] == 1 and s.decision is None
    assert victory.score(g.ctx, "Red")["C"] == red_before + 5                   # 004 [13.55]
    refused(g, A.OrderExecution("A"), "004 [13.53]")                           # 004 [13.56]: gone


def test_czar_execution_refused_then_ordered_again():
    g = _czar_position(A=10)
    s = g.state
    form(g, "A")
    g.apply(A.OrderExecution("A"))                    # A alone holds 10: the order is given
    assert g.pending == [{"seat": "C", "kind": "execution"}]
    g.apply(A.AnswerExecution("C", False))
    assert politics.czar_holder(g.ctx) == "C" and s.decision is None
    g.apply(A.OrderExecution("A"))                    # 004 [13.57]: no limit
    g.apply(A.AnswerExecution("C", True))
    assert s.stats["czar_executions"] == 1


def test_czar_execution_needs_ten_consenting_markers():
    g = _czar_position(A=6, B=3)
    form(g, "A", "B")
    refused(g, A.OrderExecution("A"), "004 [13.52]")          # the Committee holds 9
    g.state.politburo["B"] = 4
    g.apply(A.OrderExecution("A"))
    ev = g.apply(A.OrderExecution("B", False))
    assert "execution_failed" in kinds(ev) and g.state.decision is None
    refused(g, A.OrderExecution("C"), "004 [13.51]")          # not a member
    refused(g, A.OrderExecution("A", False), "004 [13.52]")


def test_czar_must_be_attached_to_a_red_leader():
    g = blank("D")
    markers(g, A=10)
    form(g, "A")
    put(g, "OMSK", "C", "Kolchak", "Czar", attach={"Czar": "Kolchak"})
    refused(g, A.OrderExecution("A"), "004 [13.53]")
    g.ctx.take(uid("Kolchak"))
    refused(g, A.OrderExecution("A"), "004 [13.53]")          # uncontrolled


# == the end-game vote (004 [14.1] case 3) =======================================================================
def _vote_position(**pm: int) -> Game:
    """No White leader outside Siberia, White combat units and Red leaders remain; E's
    Randomizer Phase is the last of the Game-Turn."""
    g = blank("A")
    s = g.state
    markers(g, **pm)
    put(g, "PETR", "A", "Lenin")
    put(g, "KUBA", None, "WU4 KUBA")
    put(g, "OMSK", "B", "Kolchak")                  # in Siberia
    s.order = ["A", "B", "C", "D", "E"]
    s.current = 4
    s.phase = "randomizer"
    s.aux = ["A"]
    return g


def test_politburo_ends_the_game_in_a_red_victory():
    g = _vote_position(A=6, B=2, C=4)
    s = g.state
    ev = g.apply(A.DrawRandomizer("E"))
    assert "vote_called" in kinds(ev) and s.phase == "vote"
    assert g.pending == [{"seat": "A", "kind": "vote"}]
    assert set(g.legal_actions("A")) == {A.VoteEndGame("A", True), A.VoteEndGame("A", False)}
    refused(g, A.DeclarePurge("A", "B", ("A",)))             # no purges outside the Player-Turn series
    g.apply(A.VoteEndGame("A", True))
    g.apply(A.VoteEndGame("B", False))
    ev = g.apply(A.VoteEndGame("C", True))                 # 6 + 4 = 10
    assert g.over and g.result["winner_color"] == "Red" and "game_over" in kinds(ev)


def test_no_trade_is_consummated_during_the_end_game_vote():
    """004 [14.1] case 3: the quorum counts the markers held as the vote is held."""
    g = _vote_position(A=6, B=2, C=4)
    s = g.state
    ev = g.apply(A.OfferTrade("B", to="A", give_politburo=2))
    g.apply(A.DrawRandomizer("E"))
    assert s.phase == "vote"
    refused(g, A.AcceptTrade("A", ev[0].data["offer"]), "004 [14.1]")
    g.apply(A.VoteEndGame("A", True))
    g.apply(A.VoteEndGame("B", False))
    g.apply(A.VoteEndGame("C", False))
    assert s.phase != "over" and s.politburo["A"] == 6


def test_politburo_vote_without_quorum_goes_on():
    g = _vote_position(A=6, B=2, C=4)
    s = g.state
    g.apply(A.DrawRandomizer("E"))
    g.apply(A.VoteEndGame("A", True))
    g.apply(A.VoteEndGame("B", True))
    g.apply(A.VoteEndGame("C", False))                     # 8 < 10
    assert not g.over and s.turn == 2 and s.phase == "random_events"


def test_no_vote_when_fewer_than_ten_markers_are_held():
    g = _vote_position(A=6, B=2)
    g.apply(A.DrawRandomizer("E"))
    assert g.state.phase != "vote" and not g.over and g.state.turn == 2


# == the wire and random play ===================================================================================
def test_politics_actions_round_trip_the_wire(dice):
    g = committee_abc()
    wire = A.to_wire(A.DeclarePurge("A", "D", ("A", "B", "C"), ("A", "B", "C")))
    assert wire == {"t": "DeclarePurge", "seat": "A", "target": "D", "purgers": ["A", "B", "C"],
                    "shares": ["A", "B", "C"], "condition": ""}
    g.apply(wire)
    g.apply({"t": "ApprovePurge", "seat": "B", "approve": True})
    dice += [3, 3]
    g.apply({"t": "ApprovePurge", "seat": "C"})
    g.apply({"t": "TakeSpoil", "seat": "A", "leader": uid("Sablin")})
    for a in (A.PassPurge("A"), A.Counterpurge("D", ""), A.OrderExecution("A", False), A.AnswerExecution("C", True),
              A.JoinCommittee("A", ("A", "B")), A.LeaveCommittee("A"), A.EndSpoils("B")):
        assert A.action_from_wire(A.to_wire(a)) == a
    with pytest.raises(IllegalAction):
        g.apply({"t": "TakeSpoil", "seat": "B", "leader": "Muraviev"})
    refused(g, A.DeclarePurge("A", "D", (1, 2)), "protocol")


POLITICS = (A.JoinCommittee, A.LeaveCommittee, A.DeclarePurge, A.PassPurge, A.ApprovePurge, A.TakeSpoil,
            A.EndSpoils, A.Counterpurge, A.OrderExecution, A.AnswerExecution)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_politics_keeps_the_game_whole(seed):
    """Every seat acts at random, out of turn too, with politics favoured: whoever the game
    waits for always has a legal action, no unit or Politburo marker is lost or duplicated,
    and saving and loading changes nothing."""
    import random

    rng = random.Random(seed)
    g = started(5, seed)
    s = g.state
    markers(g, **rng.choice([dict(A=5, B=4, C=3, D=2, E=1), dict(A=10, B=2, C=1, D=1, E=1), dict(A=6, B=5, C=2, D=1, E=1)]))
    for _ in range(700):
        if g.over:
            break
        seat = g.pending[0]["seat"]
        if s.decision is None and rng.random() < 0.3:
            seat = rng.choice(s.seats)
            if rng.random() < 0.3:
                mem = tuple(sorted({seat, *rng.sample(s.seats, rng.randrange(3))}))
                try:
                    g.apply(A.JoinCommittee(seat, mem))
                    continue
                except IllegalAction:
                    pass
        # (sorted: the order of legal_actions is not part of the rules)
        acts = sorted((a for a in g.legal_actions(seat) if not isinstance(a, A.Quit)), key=lambda a: repr(A.to_wire(a)))
        assert acts or seat != g.pending[0]["seat"], (g.pending, s.decision)
        if not acts:
            continue
        pol = [a for a in acts if isinstance(a, POLITICS)]
        g.apply(rng.choice(pol) if pol and rng.random() < 0.7 else rng.choice(acts))
        units = [u for st in s.stacks.values() for u in st.units] + [e[0] for v in s.vp.values() for e in v] + s.removed
        assert sorted(units) == sorted(D.units)
        assert sum(s.politburo.values()) + s.aux.count("P") == 15 and min(s.politburo.values()) >= 0
        assert s.committee == politics.committee(g.ctx)
    assert Game.from_bytes(g.to_bytes()).state_hash() == g.state_hash()
    assert s.stats.get("purges", 0) > 0


def test_simulate_json_counts_the_politics(capsys):
    """Issue 4: ``rcw simulate --json`` counts assassination attempts and successes, purges,
    counterpurges, trades and Czar executions; the SDT bots do all of them."""
    import json

    from rcw.cli import main

    assert main(["simulate", "--agents", "sdt", "--players", "5", "--games", "2", "--seed", "2",
                 "--max-turns", "8", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["engine_errors"] == 0 and out["illegal_actions"] == 0
    st = out["stats"]
    for k in ("assassination_attempts", "assassinations", "purges", "counterpurges", "trades", "czar_executions"):
        assert st[k] > 0, (k, st)
    assert st["assassination_attempts"] >= st["assassinations"]


def test_events_are_snapshots_not_views_of_the_state():
    """An action's events keep what they said: later actions do not rewrite them (the server
    replays them to clients; once the end-game vote's voters list and a capture offer's
    units were shared with the pending decision and shrank as it was answered)."""
    g = _vote_position(A=6, B=2, C=4)
    ev = g.apply(A.DrawRandomizer("E"))
    called = next(e for e in ev if e.kind == "vote_called")
    assert called.data["voters"] == ["A", "B", "C"]
    g.apply(A.VoteEndGame("A", True))
    g.apply(A.VoteEndGame("B", True))
    assert called.data["voters"] == ["A", "B", "C"]
