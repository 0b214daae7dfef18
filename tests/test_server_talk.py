"""Bots that negotiate on a real server (issue 18): every proposal kind put to a bot in chat is
answered, with a reason, within a second; a bot's Committee invitation to a human becomes a
Central Committee when accepted; a broken pact is announced to its victim and shifts the bots'
table."""

from __future__ import annotations

import os
import time

import pytest
from rcw.bots.negotiation import Pact
from rcw.server.client import ServerError
from test_server_play import STORES, events_of, serve, until_free

from rcw.actions import Event


async def reply_within(c, channel: str, mid: int, seconds: float = 1.0) -> dict:
    """The reply to proposal ``mid`` in ``channel``, which must come within ``seconds``."""
    t0 = time.monotonic()

    def find(c):
        return next((m for m in c.messages.get(channel, {}).values()
                     if isinstance(m.get("reply"), dict) and m["reply"].get("msg") == mid), None)
    await c.wait_for(lambda c: find(c) is not None, 10)
    took = time.monotonic() - t0
    assert took <= seconds, f"the answer took {took:.2f} s"
    return find(c)


IN_PROCESS = pytest.mark.skipif(bool(os.environ.get("RCW_TEST_BOT_WORKERS")),
                                reason="reaches into the bots, which run in this process only without bot workers")


def runtime(h, gid: str):
    return h.hub.runtimes[gid]


@IN_PROCESS
@pytest.mark.parametrize("kind", STORES)
async def test_every_proposal_kind_to_a_bot_is_answered_with_a_reason_within_a_second(kind):
    async with serve(kind) as h:
        # Seed 0: A and B hold 6 Politburo markers each, C holds the Czar; B and C are SDT bots.
        g, (a,) = await h.game(players=3, humans=1, bot_seats=["B", "C"], seed=0, options={"max_turns": 3})
        gid = g["game"]
        ca = await h.connect(gid, a["token"])
        assert await until_free({"A": ca}) == "A"

        trade = await ca.chat("A-B", "", {"kind": "trade", "to": "B", "take_politburo": 3})
        r = await reply_within(ca, "A-B", trade["id"])
        assert r["seat"] == "B" and r["reply"]["accept"] is False and "worth" in r["reply"]["reason"]

        pact = await ca.chat("A-B", "", {"kind": "pact", "with": "B", "until": 2})
        r = await reply_within(ca, "A-B", pact["id"])
        assert r["seat"] == "B" and r["reply"]["reason"] and "cooperation" in r["reply"]["reason"]

        # The bot joins A's Committee (its own die roll, forced here: the test is of the answer)
        bot_b = runtime(h, gid).driver.agents[("B", "sdt")]
        bot_b.politics.willing[("A", ca.view["turn"])] = True
        bot_b.talk.note_roll("A", ca.view["turn"], 6, bot_b.relation("A", "B"))
        if ca.view["phase"] == "random_events":
            await ca.act({"t": "RollRandomEvents"})
            await ca.wait_for(lambda c: c.view["phase"] == "movement", 5)
        com = await ca.chat("A-B", "", {"kind": "committee", "members": ["A", "B"]})
        r = await reply_within(ca, "A-B", com["id"])
        assert r["reply"]["accept"] is True and "rolled 6" in r["reply"]["reason"], r["reply"]
        await ca.wait_for(lambda c: sorted(c.view["committee"]) == ["A", "B"], 5)

        ex = await ca.chat("A-B", "", {"kind": "execution", "to": ["B"]})
        r = await reply_within(ca, "A-B", ex["id"])
        assert r["seat"] == "B" and "PCM" in r["reply"]["reason"]

        await until_free({"A": ca})
        if sorted(ca.view["committee"]) == ["A", "B"]:
            try:            # (the engine may refuse it: B took part in a purge this Game-Turn, 004 [11.13])
                purge = await ca.chat("A-B", "", {"kind": "purge", "target": "C", "purgers": ["A", "B"],
                                                  "shares": ["A", "B"]})
            except ServerError as e:
                assert "illegal_action" in str(e)
            else:
                r = await reply_within(ca, "A-B", purge["id"])
                assert r["seat"] == "B" and r["reply"]["reason"]


@pytest.mark.parametrize("kind", STORES)
async def test_a_bots_committee_invitation_to_a_human_becomes_a_central_committee(kind):
    """The Purge Cooperation step of a bot with a human seat: its invitation comes as a card in
    the pair channel; the human's accept forms the Committee (every member consented)."""
    async with serve(kind, bot_wait=30.0) as h:
        g, (a,) = await h.game(players=3, humans=1, bot_seats=["B", "C"], seed=0, options={"max_turns": 6})
        gid = g["game"]
        ca = await h.connect(gid, a["token"])
        ca.keep_pushes = True

        def card(c):
            for ch, msgs in c.messages.items():
                for m in msgs.values():
                    p = m.get("proposal") or {}
                    if p.get("kind") == "committee" and m.get("seat") != "A" and "A" in p.get("members", []) \
                            and not any((x.get("reply") or {}).get("msg") == m["id"] for x in msgs.values()):
                        return ch, m
            return None
        for _ in range(400):
            got = card(ca)
            if got is not None:
                break
            mine = next((p for p in ca.pending if p["seat"] == "A"), None)
            if mine is None:
                await ca.wait_for(lambda c: card(c) is not None or any(p["seat"] == "A" for p in c.pending)
                                  or c.status != "playing", 20)
                if ca.status != "playing":
                    break
                continue
            act = next((x for x in ca.legal if x["t"].startswith("End") or x["t"] in ("RollRandomEvents",
                                                                                       "DrawRandomizer")),
                       ca.legal[0])
            try:
                await ca.act(act)
            except Exception:
                pass
        assert got is not None, "no bot invited A to a Central Committee"
        n = len(events_of(ca, "committee"))

        def formed(c):
            return [e["data"]["members"] for e in events_of(c, "committee")[n:] if "A" in e["data"].get("members", [])]
        for _ in range(3):        # (the invitation of all; if some refuse, the bot invites again those who would)
            ch, m = got
            r = await ca.accept(ch, m["id"])
            assert r["reply"]["accept"] is True
            await ca.wait_for(lambda c: bool(formed(c)) or card(c) is not None, 20)
            if formed(ca):
                break
            got = card(ca)
        assert formed(ca) and m["seat"] in formed(ca)[0]


@IN_PROCESS
@pytest.mark.parametrize("kind", STORES)
async def test_a_broken_pact_is_announced_to_its_victim_and_shifts_the_bots_table(kind):
    async with serve(kind) as h:
        g, (a,) = await h.game(players=3, humans=1, bot_seats=["B", "C"], seed=0, options={"max_turns": 3})
        gid = g["game"]
        ca = await h.connect(gid, a["token"])
        assert await until_free({"A": ca}) == "A"
        rt = runtime(h, gid)
        turn = ca.view["turn"]
        for _ in range(20):                                  # B agrees (its table: column 4 or less)
            rt.driver._the_match().table.pct[frozenset(("A", "B"))] = 2
            p = await ca.chat("A-B", "", {"kind": "pact", "with": "B", "until": turn + 1})
            r = await reply_within(ca, "A-B", p["id"])
            if r["reply"]["accept"]:
                break
        assert r["reply"]["accept"] is True
        await ca.wait_for(lambda c: bool(rt.proposals.pacts.pacts), 5)
        table = rt.driver._the_match().table
        assert table.pacts.in_force("A", "B", turn) is not None        # the bots keep it
        before = table.relation("A", "B")
        # A breaks it: the events of an attack of A's on B's stack, shown to the runtime and the
        # bots' table as an applied action's are (an attack itself needs a position set up for it)
        events = [Event("combat", "A attacks B", {"seat": "A", "defender": "B"})]
        rt.proposals.applied(events, rt.seq + 1)
        table.version = rt.seq + 1
        table.observe(events)
        await ca.wait_for(lambda c: any(m.get("pact_broken") for m in c.messages.get("A-B", {}).values()), 5)
        note = next(m for m in ca.messages["A-B"].values() if m.get("pact_broken"))
        assert note["seat"] is None and note["pact_broken"]["victim"] == "B" and "broke its pact" in note["text"]
        assert table.relation("A", "B") > before


def test_a_pact_record_round_trips():
    p = Pact("A", "B", 3, 7, "A-B:4")
    assert Pact(**p.to_dict()) == p


def test_every_proposal_kind_and_what_bots_add_is_documented():
    from pathlib import Path

    from rcw.server.chat import PROPOSAL_KINDS

    doc = (Path(__file__).resolve().parent.parent / "docs" / "protocol.md").read_text()
    for kind in PROPOSAL_KINDS:
        assert f"| `{kind}` |" in doc, kind
    for word in ("pact_broken", "reply.reason", "counter: true", "--bot-wait"):
        assert word in doc, word
