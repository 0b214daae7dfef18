"""Set-up (004 [15.0]): control letters, the Initial Forces dealt face up, the extra Politburo
markers, the trading session, deployment, the Auxiliary Forces Randomizer and the first
Player-Turn Sequencing draw."""

from __future__ import annotations

from collections import Counter

import pytest
from engine_helpers import D, every_unit_accounted, refused, stack_with, started, uid

from rcw import actions as A
from rcw.actions import IllegalAction
from rcw.data import BLUE, GREEN
from rcw.game import Game
from rcw.rules.base import LENIN, TROTSKY


# -- control letters (004 [15.21]) --------------------------------------------------------------
@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_one_letter_per_player(n):
    g = Game.new(n, 1)
    assert g.state.seats == list("ABCDEF"[:n])
    assert g.state.phase == "trading" and g.pending == [{"seat": p, "kind": "trading"} for p in "ABCDEF"[:n]]


@pytest.mark.parametrize("n", [2, 7, 0, "5"])
def test_three_to_six_players(n):
    """004 [2.0], [15.0]: the game is for three to six players."""
    with pytest.raises(IllegalAction) as e:
        Game.new(n, 1)
    assert e.value.rule == "004 [2.0]"


# -- the deal (004 [15.22], [15.31], [15.32]) ---------------------------------------------------
@pytest.mark.parametrize("n", [3, 4, 5, 6])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_65_chits_dealt_clockwise_from_a(n, seed):
    """All 65 dealt, as equally as possible, the extra chits to the first seats from A."""
    g = Game.new(n, seed)
    s = g.state
    leaders = [x for p in s.seats for x in s.hand[p]]
    assert sorted(leaders) == sorted(u.id for u in D.leaders())
    extra = {p: (LENIN in s.hand[p]) + (TROTSKY in s.hand[p]) for p in s.seats}
    dealt = {p: len(s.hand[p]) + s.politburo[p] - extra[p] + s.assassins[p] for p in s.seats}
    assert sum(dealt.values()) == 65
    q, r = divmod(65, n)
    assert [dealt[p] for p in s.seats] == [q + 1] * r + [q] * (n - r)
    assert sum(s.politburo.values()) == 15 and sum(s.assassins.values()) == 2


def test_extra_politburo_markers_for_lenin_and_trotsky():
    """004 [15.32]: one each to the holders of Lenin (#151) and Trotsky (#152), both to one
    player who holds both."""
    both = split = False
    for seed in range(60):
        g = Game.new(5, seed)
        dealt = next(e for e in g.setup_events if LENIN in e.data["leaders"])
        holder_l = next(p for p in g.state.seats if LENIN in g.state.hand[p])
        holder_t = next(p for p in g.state.seats if TROTSKY in g.state.hand[p])
        assert dealt.data["seat"] == holder_l
        if holder_l == holder_t:
            both = True
        else:
            split = True
    assert both and split


def test_the_deal_is_face_up():
    """004 [15.31] NOTE: no secrecy; every seat (and a spectator) sees every hand."""
    g = Game.new(4, 3)
    assert g.view("B")["hands"] == g.view(None)["hands"] == {p: g.state.hand[p] for p in "ABCD"}


def test_the_deal_depends_on_the_seed_only():
    assert Game.new(5, 42).state_hash() == Game.new(5, 42).state_hash()
    assert Game.new(5, 42).state.hand != Game.new(5, 43).state.hand


# -- the trading session (004 [15.33]) -----------------------------------------------------------
def test_trade_offer_accept():
    g = Game.new(3, 7)
    s = g.state
    la, lb = s.hand["A"][0], s.hand["B"][0]
    pa, pb = s.politburo["A"], s.politburo["B"]
    g.apply(A.EndTrading("C"))
    g.apply(A.OfferTrade("A", "B", give_leaders=(la,), take_leaders=(lb,)))
    assert g.view("A")["offers"] and g.view("B")["offers"] and not g.view("C")["offers"]
    assert A.AcceptTrade("B", 1) in g.legal_actions("B") and A.WithdrawTrade("A", 1) in g.legal_actions("A")
    refused(g, A.AcceptTrade("A", 1), "004 [15.33]")
    g.apply(A.AcceptTrade("B", 1))
    assert la in s.hand["B"] and lb in s.hand["A"] and la not in s.hand["A"]
    assert (s.politburo["A"], s.politburo["B"]) == (pa, pb)
    assert s.ready == []                                   # hands changed: everyone agrees again


def test_trade_markers_and_refusals():
    g = Game.new(3, 7)
    s = g.state
    a_lead = s.hand["A"][0]
    refused(g, A.OfferTrade("A", "A", give_politburo=1), "004 [15.33]")
    refused(g, A.OfferTrade("A", "Z", give_politburo=1), "004 [15.33]")
    refused(g, A.OfferTrade("A", "B"), "004 [15.33]")                           # nothing
    refused(g, A.OfferTrade("A", "B", give_leaders=(s.hand["B"][0],)), "004 [15.33]")
    refused(g, A.OfferTrade("A", "B", give_politburo=s.politburo["A"] + 1), "004 [15.33]")
    refused(g, A.OfferTrade("A", "B", give_assassins=s.assassins["A"] + 1), "004 [15.33]")
    refused(g, A.OfferTrade("A", "B", give_politburo=-1), "004 [15.33]")
    refused(g, A.OfferTrade("A", "B", give_leaders=(a_lead, a_lead)), "004 [15.33]")
    g.apply(A.OfferTrade("A", "B", give_leaders=(a_lead,)))
    g.apply(A.DeclineTrade("B", 1))
    assert a_lead in s.hand["A"] and not s.offers
    g.apply(A.OfferTrade("A", "B", give_leaders=(a_lead,)))
    g.apply(A.WithdrawTrade("A", 2))
    refused(g, A.AcceptTrade("B", 2), "004 [15.33]")


def test_an_offer_becomes_unacceptable_when_the_goods_are_gone():
    g = Game.new(3, 7)
    s = g.state
    x = s.hand["A"][0]
    g.apply(A.OfferTrade("A", "B", give_leaders=(x,)))
    g.apply(A.OfferTrade("A", "C", give_leaders=(x,)))
    g.apply(A.AcceptTrade("C", 2))
    refused(g, A.AcceptTrade("B", 1), "004 [15.33]")


def test_trading_ends_when_everyone_agrees():
    g = Game.new(3, 7)
    g.apply(A.EndTrading("A"))
    refused(g, A.EndTrading("A"), "004 [15.33]")
    g.apply(A.EndTrading("B"))
    assert g.state.phase == "trading" and g.pending == [{"seat": "C", "kind": "trading"}]
    refused(g, A.RollRandomEvents("C"), "004 [15.33]")
    g.apply(A.EndTrading("C"))
    assert g.state.phase == "random_events"
    refused(g, A.EndTrading("C"), "004 [15.33]")


def test_after_the_session_only_markers_are_traded():
    """004 [15.33]: leaders never again; Politburo and Assassin markers at any time."""
    g = started(3, 7)
    s = g.state
    some = next(iter(s.stacks.values()))
    refused(g, A.OfferTrade("A", "B", give_leaders=(some.units[0],)), "004 [15.33]")
    pa = s.politburo["A"]
    if pa:
        g.apply(A.OfferTrade("A", "B", give_politburo=1))
        g.apply(A.AcceptTrade("B", 1))
        assert s.politburo["A"] == pa - 1


def test_leader_offers_lapse_when_the_session_ends():
    g = Game.new(3, 7)
    s = g.state
    g.apply(A.OfferTrade("A", "B", give_leaders=(s.hand["A"][0],)))
    g.apply(A.OfferTrade("A", "B", give_politburo=1) if s.politburo["A"] else A.OfferTrade("A", "B", take_politburo=1))
    for p in "ABC":
        g.apply(A.EndTrading(p))
    assert [o["id"] for o in s.offers.values()] == [2]


# -- deployment (004 [15.4], [15.5]) ------------------------------------------------------------
@pytest.mark.parametrize("n, seed", [(3, 0), (4, 5), (5, 11), (6, 2)])
def test_deployment(n, seed):
    g = started(n, seed)
    s, b = g.state, g.ctx.b
    every_unit_accounted(g)
    assert not s.vp and not s.hand
    for st in s.stacks.values():
        fighting = b.fighting_units(st)
        assert len(fighting) <= 5                                   # 004 [15.43], [15.55], [7.11]
        colors = {b.color_of(u, st) for u in fighting}
        assert len(colors) <= 1                                                 # 004 [7.13]
        for u in st.units:
            assert D.units[u].province == st.province or D.units[u].is_imperial  # printed province
        if b.leaders_of(st):
            assert st.owner is not None                                          # 004 [15.53]
    # 004 [15.52]: each asterisk leader stacked with (and commanding) his colour's unit there
    for u in D.leaders():
        st = g.ctx.b.stack_of(u.id)
        if u.asterisk:
            unit = next(v.id for v in D.units.values() if v.is_combat and v.color == u.color and v.province == u.province)
            assert unit in st.units and st.attached[unit] == u.id
    assert stack_with(g, "RU8 TVER") is stack_with(g, "Trotsky")


def test_blue_and_green_of_one_nationality_deployed_together():
    """004 [15.42]: e.g. the three Polish units in one stack in Poland."""
    g = started(5, 3)
    b = g.ctx.b
    groups = Counter()
    for st in g.state.stacks.values():
        nats = {(D.units[u].color, D.units[u].nationality) for u in st.units if D.units[u].color in (BLUE, GREEN)}
        assert len(nats) <= 1
        for nat in nats:
            groups[(st.province, nat)] += 1
        if nats:
            assert st.owner is None and not b.leaders_of(st)
    assert all(v == 1 for v in groups.values())
    assert len(stack_with(g, "GU8 POLA").units) == 3


def test_imperial_units_under_their_units():
    """004 [13.0], [15.51]: the Czar under the Red unit in EKAT, the Gold under the White one in OMSK."""
    g = started(5, 3)
    czar = g.ctx.b.stack_of(D.czar)
    gold = g.ctx.b.stack_of(D.gold)
    assert czar.province == "EKAT" and uid("RU2 EKAT") in czar.units and czar.units[-1] == D.czar
    assert gold.province == "OMSK" and uid("WU3 OMSK") in gold.units
    assert g.ctx.b.color_of(D.czar) == "Red" and g.ctx.b.color_of(D.gold) == "White"


def test_15_54_one_players_leaders_may_share_a_stack():
    """004 [15.54]: leaders of one player may be deployed stacked together within the limits of
    004 [7.11] (e.g. Kamenev and Sorokin in Tula, Bell #1); a player may also merge them
    himself in his first Movement Phase."""
    seen = 0
    for seed in range(6):
        g = started(5, seed)
        b = g.ctx.b
        for st in g.state.stacks.values():
            if len(b.leaders_of(st)) > 1:
                seen += 1
                assert st.owner is not None and len(b.fighting_units(st)) <= 5
                assert {D.units[u].province for u in b.leaders_of(st)} == {st.province}
    assert seen


def test_leaders_of_different_players_never_stack():
    """004 [15.53]."""
    g = started(6, 9)
    b = g.ctx.b
    for st in g.state.stacks.values():
        owners = {st.owner for _ in b.leaders_of(st)}
        assert len(owners) <= 1


def test_auxiliary_forces_randomizer_holds_thirty():
    """004 [15.23]: 5 Blue Control, 5 Blue Withdrawal, 7 Green Control, 13 Assassins."""
    g = started(5, 3)
    c = Counter(x.split(":")[0] for x in g.state.aux)
    assert c == {"BC": 5, "WD": 5, "GC": 7, "A": 13} and len(g.state.aux) == 30
    assert g.view("A")["randomizer"] == 30 and "aux" not in g.view("A")


def test_the_auxiliary_forces_randomizer_is_filled_right_after_the_deal():
    """004 [15.23]: "After all of the units in the Initial Forces Randomizer have been distributed
    ... Player A places the following units in the same container": in the pre-game trading
    session already (before, it was filled as the forces deployed), and a player who quits then
    adds his markers to it (004 [14.23])."""
    g = Game.new(5, 3)
    assert g.state.phase == "trading" and g.view("A")["randomizer"] == 30
    held = g.state.politburo["E"] + g.state.assassins["E"]
    g.apply(A.Quit("E"))
    assert g.view("A")["randomizer"] == 30 + held


def test_first_sequencing_draw():
    """004 [15.62], [4.2] B.3: a First Player drawn at random, the others clockwise;
    004 [15.61]: the game starts on Game-Turn 1."""
    firsts = set()
    for seed in range(40):
        g = started(4, seed)
        order = g.state.order
        i = "ABCD".index(order[0])
        assert order == list("ABCD"[i:] + "ABCD"[:i])
        assert g.state.turn == 1 and g.state.phase == "random_events" and g.state.current == 0
        firsts.add(order[0])
    assert firsts == set("ABCD")
