"""Trades by post with a computer player (004 [17.0] postal [4.2]): a trade by post is made when
both sheets hold mirror ``trade`` orders.  A human proposes one in chat (no engine action: the
engine judges the proposer's order and gives both orders, ``proposal.post``); an SDT bot answers
with its own valuation of trades (``Negotiator.judge``, the live bot's), and when it accepts it
sends its sheet again with the mirror order; when the human's sheet holds his side the
Gamesmaster makes the trade.  Between two humans the proposal is a card the other accepts or
declines, and each writes his order.  A malformed proposal, one to a seat not in the game, and
one when no sheet takes a trade get typed errors and change nothing."""

from __future__ import annotations

import pytest
from rcw.bots import make_agent
from rcw.bots.cooperation import CooperationTable
from rcw.bots.postal import TERMS
from rcw.server.client import ServerError
from server_helpers import STORES
from test_server_play import IN_PROCESS
from test_server_postal import phase, postal_game, serve

from rcw.data import default
from rcw.player import Player

# Candidate trades A proposes to B (what A gives, what it asks), tried in this order: the test
# takes the first the bot's own valuation accepts and the first it refuses (none hard-coded).
CANDIDATES = [{"give_politburo": 2, "take_politburo": 1}, {"give_politburo": 1, "take_politburo": 1},
              {"give_politburo": 1, "take_assassins": 1}, {"take_politburo": 1}, {"take_politburo": 2, "give_politburo": 1},
              {"give_politburo": 3, "take_politburo": 1}]


def reply_to(c, channel: str, mid: int) -> dict | None:
    return next((m for m in c.messages.get(channel, {}).values()
                 if isinstance(m.get("reply"), dict) and m["reply"].get("msg") == mid), None)


async def answer(c, channel: str, mid: int) -> dict:
    await c.wait_for(lambda c: reply_to(c, channel, mid) is not None, 10)
    return reply_to(c, channel, mid)


def resent(c, seat: str) -> list[dict]:
    """The events of ``seat`` sending its sheet again (every seat sees that, never what)."""
    return [e for e in c.events if e.get("kind") == "orders_submitted" and e["data"]["seat"] == seat
            and e["data"]["replaced"]]


def verdicts(agent, game, seat: str = "B", by: str = "A") -> tuple[dict | None, dict | None]:
    """The first candidate ``seat``'s agent accepts (not a gift: an exchange) and the first it
    refuses, by its own valuation (``weigh``) of ``by``'s order as the engine writes it."""
    player = Player(game, seat)
    yes = no = None
    for terms in CANDIDATES:
        try:
            order = game.trade_orders(by, {"with": seat, **terms})["order"]
        except Exception:
            continue                       # (markers one of them does not hold: not a candidate)
        ok, _ = agent.weigh(player, by, order, "trade:test")
        if ok and yes is None:
            yes = terms
        if not ok and no is None:
            no = terms
    return yes, no


@IN_PROCESS
@pytest.mark.parametrize("kind", STORES)
async def test_a_human_trades_with_an_sdt_bot_by_post(kind):
    """A proposes a trade the bot's valuation refuses (the bot declines, with its reason, and keeps
    its sheet), then one it accepts (it accepts, sends its sheet again with the mirror order);
    A writes his side and sends his sheet: the Gamesmaster makes the trade (postal [4.2])."""
    async with serve(kind) as srv:
        g, (a,) = await postal_game(srv, humans=1, seed=3, bots="sdt")
        gid = g["game"]
        await a.wait_for(lambda c: set("BCDE") <= set(c.view["postal"]["submitted"]), 10)
        rt = srv.hub.runtimes[gid]
        agent = rt.driver.agents[("B", "sdt")]
        yes, no = verdicts(agent, rt.game)
        assert yes is not None and no is not None, "the candidates give no accepted and no refused trade"
        seq = a.seq

        refused = await a.chat("A-B", "", {"kind": "trade", "to": "B", **no})
        post = refused["proposal"]["post"]
        assert (post["turn"], post["phase"]) == (1, "trading") and set(post["orders"]) == {"A", "B"}
        r = await answer(a, "A-B", refused["id"])
        assert r["seat"] == "B" and r["reply"]["accept"] is False and r["reply"]["by"] == "bot"
        assert r["text"].startswith(f"B declines the trade by post (proposal #{refused['id']})") and "worth" in r["text"]
        assert a.seq == seq                 # (no engine action for the proposal, none for the refusal)

        agreed = await a.chat("A-B", "", {"kind": "trade", "to": "B", **yes})
        mine, theirs = agreed["proposal"]["post"]["orders"]["A"], agreed["proposal"]["post"]["orders"]["B"]
        r = await answer(a, "A-B", agreed["id"])
        assert r["reply"]["accept"] is True and "its sheet holds the mirror order" in r["text"], r
        await a.wait_for(lambda c: len(resent(c, "B")) == 1, 10)       # B sends its sheet again, once
        assert theirs in [o for _, o in rt.game.view("B")["postal"]["sheet"]]      # (the Gamesmaster's copy)
        assert theirs == {"order": "trade", "with": "A", "give_leaders": [], "take_leaders": [],
                          **{f"give_{k}": yes.get(f"take_{k}", 0) for k in ("politburo", "assassins")},
                          **{f"take_{k}": yes.get(f"give_{k}", 0) for k in ("politburo", "assassins")}}
        before = {k: dict(a.view[k]) for k in ("politburo", "assassins")}

        await a.sheet([mine])                # A's side: the last sheet, the phase is adjudicated
        await a.wait_for(lambda c: phase(c) == (1, "first"), 10)
        for k in ("politburo", "assassins"):
            gave, took = yes.get(f"give_{k}", 0), yes.get(f"take_{k}", 0)
            assert a.view[k]["A"] == before[k]["A"] - gave + took, (k, before, a.view[k])
            assert a.view[k]["B"] == before[k]["B"] + gave - took, (k, before, a.view[k])
        report = (await a.reports())[-1]["text"]
        assert "between A and B" in report, report


def countered(agent, game, seat: str = "B", by: str = "A") -> dict | None:
    """The first candidate ``seat``'s agent declines with a counter-offer (its own valuation)."""
    player = Player(game, seat)
    for terms in CANDIDATES:
        try:
            order = game.trade_orders(by, {"with": seat, **terms})["order"]
        except Exception:
            continue
        if not agent.weigh(player, by, order, "trade:test")[0] and agent.counter(player, by, order) is not None:
            return terms
    return None


def card_from(c, channel: str, seat: str) -> dict | None:
    return next((m for m in c.messages.get(channel, {}).values()
                 if m.get("seat") == seat and isinstance(m.get("proposal"), dict)), None)


@IN_PROCESS
async def test_an_sdt_bot_counters_a_trade_by_post_and_keeps_to_it_when_the_player_accepts():
    """Where the live bot would counter a trade (within COUNTER_BAND of what it asks), the postal
    bot declines and posts a counter-offer by post: a card of its own with both orders, the
    engine's.  The player accepts it: the bot sends its sheet again with its order; the player
    adds his and the Gamesmaster makes the trade (postal [4.2]; before, the bot said only
    "propose a little more")."""
    async with serve() as srv:
        g, (a,) = await postal_game(srv, humans=1, seed=3, bots="sdt")
        gid = g["game"]
        await a.wait_for(lambda c: set("BCDE") <= set(c.view["postal"]["submitted"]), 10)
        rt = srv.hub.runtimes[gid]
        terms = countered(rt.driver.agents[("B", "sdt")], rt.game)
        assert terms is not None, "no candidate gets a counter-offer from B"
        asked = await a.chat("A-B", "", {"kind": "trade", "to": "B", **terms})
        r = await answer(a, "A-B", asked["id"])
        assert r["reply"]["accept"] is False and r["text"].startswith(f"B declines the trade by post (proposal #{asked['id']})")
        assert "counters" in r["text"], r
        await a.wait_for(lambda c: card_from(c, "A-B", "B") is not None, 10)
        card = card_from(a, "A-B", "B")
        prop = card["proposal"]
        assert prop["kind"] == "trade" and prop["to"] == "A" and prop["addressees"] == ["A"] and prop["counter"] == asked["id"]
        post = prop["post"]
        assert (post["turn"], post["phase"]) == (1, "trading") and set(post["orders"]) == {"A", "B"}
        # the counter changes the trade (by one marker) and is the engine's own pair of orders
        assert post["orders"]["A"] != asked["proposal"]["post"]["orders"]["A"]
        assert rt.game.trade_orders("B", {"with": "A", **{k: prop.get(k, [] if k.endswith("leaders") else 0)
                                                          for k in TERMS}}) == {"order": post["orders"]["B"],
                                                                                "mirror": post["orders"]["A"]}
        assert not resent(a, "B")                    # (nothing on B's sheet before A accepts)
        before = {k: dict(a.view[k]) for k in ("politburo", "assassins")}

        await a.accept("A-B", card["id"])
        await a.wait_for(lambda c: len(resent(c, "B")) == 1, 10)       # B sends its sheet again, once
        assert post["orders"]["B"] in [o for _, o in rt.game.view("B")["postal"]["sheet"]]
        await a.sheet([post["orders"]["A"]])         # A's side: the last sheet, the phase is adjudicated
        await a.wait_for(lambda c: phase(c) == (1, "first"), 10)
        for k in ("politburo", "assassins"):
            gave, took = prop.get(f"take_{k}", 0), prop.get(f"give_{k}", 0)     # (B's terms: give_* is B's side)
            assert a.view[k]["A"] == before[k]["A"] - gave + took, (k, before, a.view[k])
            assert a.view[k]["B"] == before[k]["B"] + gave - took, (k, before, a.view[k])


@IN_PROCESS
async def test_a_seat_in_civil_disorder_answers_a_trade_by_post_through_its_bot():
    """A seat in civil disorder is its bot's while another player is there (rcw.server.absence):
    a trade by post offered to it is answered by that bot, which writes the mirror order on the
    seat's sheet (QA: the offer waited for an answer that never came)."""
    async with serve() as srv:
        g, (a, b) = await postal_game(srv, humans=2, seed=3, bots="sdt", deadline=3600, disorder_after=1)
        gid = g["game"]
        rt = srv.hub.runtimes[gid]
        await rt.absence.missed(["B"])              # B lets a deadline pass: civil disorder
        await a.wait_for(lambda c: c.seats["B"].get("disorder") and "B" in c.view["postal"]["submitted"], 10)
        yes, _ = verdicts(rt.driver.agent("B", "sdt"), rt.game)
        assert yes is not None, "the candidates give no trade B's bot accepts"
        agreed = await a.chat("A-B", "", {"kind": "trade", "to": "B", **yes})
        theirs = agreed["proposal"]["post"]["orders"]["B"]
        r = await answer(a, "A-B", agreed["id"])
        assert r["seat"] == "B" and r["reply"]["accept"] is True and r["reply"]["by"] == "bot", r
        await a.wait_for(lambda c: len(resent(c, "B")) >= 1, 10)       # its bot sends B's sheet again
        assert theirs in [o for _, o in rt.game.view("B")["postal"]["sheet"]]
        assert b.seats["B"].get("disorder")         # (still in disorder: the bot answered, not the player)


@IN_PROCESS
async def test_a_trade_the_bot_accepts_before_it_sends_its_sheet_is_on_its_first_sheet():
    """A sheet not sent yet (the bots of a game write theirs as soon as its phase opens; here the
    agent answers on the engine's copy of the game before its seat has sent one) holds the trades
    accepted by post: no second sheet."""
    from rcw.bots.match import Match

    from rcw.modes import new_game

    g = new_game(5, 3, {"mode": "postal"})
    agent = make_agent("sdt", "B", 3, mode="postal")
    m = Match(g, {"B": agent})
    yes, _ = verdicts(agent, g)
    got = g.trade_orders("A", {"with": "B", **yes})
    msg = m.consider("B", {"kind": "trade", "to": "B", **yes, "seat": "A", "post": {"turn": 1, "phase": "trading"}}, "k")
    assert msg.accept
    step = m.next_step()
    assert step.seat == "B" and got["mirror"] in step.action.sheet.data["orders"]
    m.apply("B", step.action)
    assert m.next_step() is None            # (no sheet sent again)


async def test_bad_trade_proposals_by_post_get_typed_errors_and_change_nothing():
    """A malformed trade (a field the order has not, a count that is not a number), one to a seat
    not in the game, one the rules refuse (markers A does not hold; a leader after the
    pre-season trades, 004 [15.33]) and one when no sheet takes a trade (the game over): a typed
    error, nothing posted, the game unchanged."""
    async with serve() as srv:
        g, (a, b) = await postal_game(srv, humans=2, seed=3, options={"max_turns": 1})
        await a.wait_for(lambda c: set("CDE") <= set(c.view["postal"]["submitted"]), 10)

        async def refused(code: str, engine: str | None, proposal: dict, channel: str = "A-B") -> ServerError:
            seq, said = a.seq, len(await a.history(channel))
            with pytest.raises(ServerError) as e:
                await a.chat(channel, "", proposal)
            assert e.value.code == code, e.value
            if engine:
                assert e.value.engine_code == engine, e.value.frame
            assert (a.seq, len(await a.history(channel))) == (seq, said)        # nothing applied, nothing posted
            return e.value

        held = a.view["politburo"]["A"]
        await refused("illegal_action", "bad_order", {"kind": "trade", "to": "B", "give_politburo": "two"})
        e = await refused("bad_request", None, {"kind": "trade", "to": "B", "give_gold": 1})
        assert "give_gold" in str(e)
        e = await refused("bad_request", None, {"kind": "trade", "to": "Z", "give_politburo": 1}, "public")
        assert "no seat 'Z' in this game" in str(e)
        e = await refused("illegal_action", None, {"kind": "trade", "to": "B", "give_politburo": held + 1})
        assert e.frame.get("rule") == "004 [15.33]" and f"holds only {held}" in str(e)
        await refused("illegal_action", None, {"kind": "trade", "to": "B"})                # trades nothing
        await a.sheet([])
        await b.sheet([])
        await a.wait_for(lambda c: phase(c) == (1, "first") and set("CDE") <= set(c.view["postal"]["submitted"]), 10)
        leader = next(u.id for u in default().units.values() if u.is_leader)
        e = await refused("illegal_action", None, {"kind": "trade", "to": "B", "give_leaders": [leader]})
        assert "after the pre-game session only" in str(e)

        # between two humans: a card with both orders, no engine action; B's acceptance is a reply
        seq = a.seq
        card = await a.chat("A-B", "", {"kind": "trade", "to": "B", "give_politburo": 1, "take_politburo": 1})
        assert card["proposal"]["post"]["phase"] == "first" and a.seq == seq
        r = await b.accept("A-B", card["id"])
        assert r["reply"]["accept"] is True and r["text"].startswith("B accepts the trade by post") and b.seq == seq
        late = await a.chat("A-B", "", {"kind": "trade", "to": "B", "give_politburo": 1, "take_politburo": 1})
        await a.sheet([])
        await b.sheet([])
        await b.wait_for(lambda c: phase(c) == (1, "second"), 20)
        with pytest.raises(ServerError) as e:           # (its phase adjudicated, the card takes no answer)
            await b.accept("A-B", late["id"])
        assert e.value.code == "proposal_closed" and "adjudicated" in str(e.value)

        # the game over (max_turns 1): no sheet takes a trade
        await a.sheet([])
        await b.sheet([])
        await a.wait_for(lambda c: c.view["phase"] == "over", 20)
        await refused("illegal_action", "game_over", {"kind": "trade", "to": "B", "give_politburo": 1})


async def test_a_bot_in_a_worker_process_sends_its_sheet_again_with_the_trade_it_accepts():
    """With ``--bot-workers`` the bots decide in a worker process: the answer comes from there, and
    the sheet sent again too (the worker's match, asked for its next step)."""
    async with serve(bot_workers=1) as srv:
        g, (a,) = await postal_game(srv, humans=1, seed=5, bots="sdt")
        await a.wait_for(lambda c: set("BCDE") <= set(c.view["postal"]["submitted"]), 20)
        game = srv.hub.runtimes[g["game"]].game
        agent = make_agent("sdt", "C", 0, mode="postal")     # (its valuation, on a table of its own)
        table = CooperationTable(game.data)
        table.follow(game)
        agent.use_table(table)
        yes, _ = verdicts(agent, game, "C")
        assert yes is not None
        p = await a.chat("A-C", "", {"kind": "trade", "to": "C", **yes})
        r = await answer(a, "A-C", p["id"])
        assert r["reply"]["accept"] is True, r
        await a.wait_for(lambda c: len(resent(c, "C")) == 1, 10)
        before = dict(a.view["politburo"])
        await a.sheet([p["proposal"]["post"]["orders"]["A"]])
        await a.wait_for(lambda c: phase(c) == (1, "first"), 10)
        assert a.view["politburo"]["C"] == before["C"] + yes.get("give_politburo", 0) - yes.get("take_politburo", 0)


@IN_PROCESS
async def test_the_bots_tell_a_player_the_orders_of_their_sheets_that_need_his():
    """QA: the report said "D order #1 (trade): ... A ordered no matching trade: none is made", and
    A's channel with D was empty.  A bot's sheet order that needs a player's (a trade, a purge,
    the Czar's execution with him) is posted to him: a trade as a card by post, with both
    orders, the bot's being on its sheet; the rest in words.  (Its dice are the bots': the test
    plays phases with empty sheets until one comes.)"""
    async with serve() as srv:
        g, (a,) = await postal_game(srv, humans=1, seed=1, bots="sdt", options={"max_turns": 4})
        rt = srv.hub.runtimes[g["game"]]

        def told(c) -> list[dict]:
            return [m for ch, ms in c.messages.items() if ch.startswith("A-") for m in ms.values()
                    if m.get("seat") in "BCDE" and "sheet for" in (m.get("text") or "")]
        while not told(a) and not a.over:
            await a.wait_for(lambda c: set("BCDE") <= set(c.view["postal"]["submitted"]) or c.over, 20)
            if told(a) or a.over:
                break
            at = phase(a)
            await a.sheet([])
            await a.wait_for(lambda c, at=at: phase(c) != at or c.over, 20)
        got = told(a)
        assert got, "no bot's sheet needed A's in four Game-Turns"
        for m in got:
            p = m.get("proposal")
            if p is None:
                assert "it is made only if your sheet orders the same" in m["text"], m
                continue
            assert p["kind"] == "trade" and p["to"] == "A" and p["addressees"] == ["A"], p
            post = p["post"]
            if (post["turn"], post["phase"]) == phase(a):          # (the bot's order is on its sheet)
                assert post["orders"][m["seat"]] in [o for _, o in rt.game.view(m["seat"])["postal"]["sheet"]]
