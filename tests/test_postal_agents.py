"""The postal agents (rcw.bots.postal, 004 [17.0]): a sheet written by playing the phase in the
engine's rehearsal is carried out by the Gamesmaster exactly as it was rehearsed (when no one
else's orders get in the way), and every order on it is legal when it arrives."""

from __future__ import annotations

import pytest
from engine_helpers import D
from rcw.bots.postal import RandomPostalAgent, SDTPostalAgent

from rcw.modes import new_game
from rcw.player import Player
from rcw.postal import SubmitOrders

MOVES = ("move", "merge", "transfer", "emigrate", "czech_exit")


def _quiet_events(n: int) -> list[int]:
    roll = next(c.roll for c in D.tables.random_events.values() if c.result == "epidemic")
    return list(roll) * n


def _where(g, seat: str, gone=frozenset()) -> list[tuple]:
    """``seat``'s stacks as (province, units), leaving out the units in ``gone``."""
    out = [(s["province"], tuple(sorted(u for u in s["units"] if u not in gone)))
           for s in g.view(None)["stacks"] if s["owner"] == seat]
    return sorted(x for x in out if x[1])


@pytest.mark.parametrize("cls", [RandomPostalAgent, SDTPostalAgent])
@pytest.mark.parametrize("seed", range(4))
def test_postal_5_0_a_rehearsed_sheet_is_carried_out_as_rehearsed(cls, seed):
    """postal [5.0]: each seat's orders are adjudicated "as if that Player were the first to move"
    - the position its rehearsal played on - so with no other orders its moves end where they
    ended in the rehearsal; and no order of the sheet is refused on arrival."""
    g = new_game(5, seed, {"mode": "postal"})
    for p in g.seats:
        g.apply(SubmitOrders(p, 1, "trading", {"orders": []}))
    agent = cls("A", seed)
    sheet = agent.choose(Player(g, "A")).sheet.data
    moves = {"orders": [o for o in sheet["orders"] if o["order"] in MOVES]}
    gone = {u for v in agent.last.view(None)["vp"].values() for u, _ in v}   # (its assassinations: not ordered here)
    rehearsed = _where(agent.last, "A")
    got = g.check_sheet("A", sheet)
    # (a random purge order may be in doubt as things stand: the phase's trades may settle it)
    assert got["refused"] == [] and [w for w in got["warnings"] if w.get("step") != "as things stand"] == [], got
    epidemic_free = next(c for c in D.tables.random_events.values() if c.result == "epidemic")
    g.load_dice(list(epidemic_free.roll) * 2)
    g.apply(SubmitOrders("A", 1, "first", moves))
    for p in g.seats[1:]:
        g.apply(SubmitOrders(p, 1, "first", {"orders": []}))
    hit = set(epidemic_free.provinces)
    assert [x for x in _where(g, "A", gone) if x[0] not in hit] == [x for x in rehearsed if x[0] not in hit]


def _sent(g):
    """A postal game whose every seat has sent its (empty) pre-season sheet but A."""
    for p in g.seats[1:]:
        g.apply(SubmitOrders(p, 1, "trading", {"orders": []}))
    return g


@pytest.mark.parametrize("cls", [RandomPostalAgent, SDTPostalAgent])
def test_postal_4_2_a_trade_accepted_by_post_is_written_on_the_sheet_sent_again(cls):
    """postal [4.2]: a trade by post is made when both sheets hold mirror orders.  A postal bot
    answers a trade proposed to it (the random one at random, the same answer to the same
    proposal; the SDT one by its valuation); accepted, it sends its sheet again with the mirror
    order, once; refused, or proposed for a phase adjudicated since, its sheet is left alone."""
    from rcw.bots.match import Match

    g = _sent(new_game(5, 3, {"mode": "postal"}))
    agent = cls("B", 2)
    m = Match(g, {"B": agent})
    prop = {"kind": "trade", "to": "B", "give_politburo": 1, "take_politburo": 1, "seat": "A",
            "post": {"turn": 1, "phase": "trading"}}
    answers = {}
    for k in range(8):
        msg = m.consider("B", prop, f"trade:A-B:{k}")
        assert msg.to == "A" and msg.answers == f"trade:A-B:{k}" and msg.text.startswith("B ")
        answers[k] = msg.accept
        if cls is RandomPostalAgent:
            assert cls("B", 2).consider(Player(g, "B"), prop, f"trade:A-B:{k}").accept == msg.accept   # (seeded)
        else:
            assert "worth" in msg.text, msg.text             # (the SDT bots' valuation, in its words)
        step = m.next_step()
        if not msg.accept:
            assert step is None
            continue
        mirror = g.trade_orders("A", {"with": "B", "give_politburo": 1, "take_politburo": 1})["mirror"]
        assert step.seat == "B" and step.action.sheet.data["orders"].count(mirror) == sum(answers.values())
        m.apply("B", step.action, step.kind)
        assert m.next_step() is None                      # (sent again once)
    if cls is SDTPostalAgent:
        assert len(set(answers.values())) == 1            # (the same trade, the same answer)
    else:
        assert len(set(answers.values())) == 2            # (at random: both answers in eight)
    late = dict(prop, post={"turn": 1, "phase": "first"})
    msg = m.consider("B", late, "trade:A-B:late")
    assert not msg.accept and "adjudicated" in msg.text and m.next_step() is None
    assert m.consider("B", {"kind": "pact", "with": ["A", "B"], "until": 1, "seat": "A"}, "pact:A-B:9") is None


def test_a_bots_sheet_orders_that_need_a_players_are_told_to_him():
    """QA: a bot's sheet held a gift to a player, a purge or the Czar's execution with him (made
    only when his sheet holds the matching order, postal [4.2], [11.0], [13.5]); he heard nothing
    and read in the report "A ordered no matching trade: none is made".  The bot tells him: a
    trade is a card by post with both orders (the engine's), a purge or the execution in words,
    each once.  With its card's order added to A's sheet, B's gift is made."""
    from rcw.bots import make_agent
    from rcw.bots.match import Match

    g = new_game(5, 1, {"mode": "postal", "max_turns": 2})     # (seed 1: B gives A a Politburo marker, Game-Turn 1)
    m = Match(g, {p: make_agent("sdt", p, 1, mode="postal") for p in g.seats if p != "A"})
    said, gift = [], None
    while gift is None and not g.over:
        m.play()
        new = m.messages()
        said += new
        gift = next((x for x in new if x.card and x.card["kind"] == "trade"), None)
        if gift is None and any(p["seat"] == "A" for p in g.pending):
            v = g.view("A")
            m.apply("A", SubmitOrders("A", v["turn"], v["postal"]["phase"], {"orders": []}), by_agent=False)
    assert gift is not None and gift.seat == "B" and gift.to == "A", [x.text for x in said]
    post = gift.card["post"]
    v = g.view("A")
    assert (post["turn"], post["phase"]) == (v["turn"], v["postal"]["phase"]) == (1, "first")
    assert post["orders"]["B"] in [o for _, o in g.view("B")["postal"]["sheet"]]        # (what B's sheet holds)
    assert gift.text.startswith("B's sheet for the First Phase of Game-Turn 1 gives you 1 Politburo: a gift by post")
    words = [x for x in said if x.card is None]
    assert words and all(x.to == "A" and "it is made only if your sheet orders the same" in x.text for x in words)
    assert len({(x.seat, x.text) for x in said}) == len(said)                   # (each told once)
    before = g.state.politburo["A"]
    assert [p["seat"] for p in g.pending] == ["A"]                           # (A's sheet, the last, is adjudicated)
    m.apply("A", SubmitOrders("A", 1, "first", {"orders": [post["orders"]["A"]]}), by_agent=False)
    assert g.view("A")["postal"]["phase"] == "second" and g.state.politburo["A"] == before + 1
