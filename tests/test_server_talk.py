"""Bots that negotiate on a real server (issue 18): every proposal kind put to a bot in chat is
answered, with a reason, within a second; a bot's Committee invitation to a human becomes a
Central Committee when accepted; a broken pact is announced to its victim and shifts the bots'
table."""

from __future__ import annotations

import asyncio
import contextlib
import re
import time

import pytest
from rcw.bots.negotiation import SHIFT_PACT_BREAK, Pact
from rcw.bots.sdt_tables import SHIFT_ATTACK
from rcw.server.client import GameClient, Lobby, ServerError
from rcw.server.config import Config
from rcw.server.store import RedisStore
from server_helpers import REDIS_URL, destroy_prefix, needs_redis, restartable_store, running_server, unique_prefix
from test_server_play import IN_PROCESS, STORES, events_of, serve, until_free


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


async def free_for(seat: str, clients: dict) -> None:
    """Play the humans' steps until ``seat`` is free to start politics (004 [11.0])."""
    for _ in range(50):
        free = await until_free(clients)
        if free == seat:
            return
        c = clients[free]
        await c.wait_for(lambda x: x.seq >= clients[seat].seq and bool(x.legal), 10)
        await c.act(next((x for x in c.legal if x["t"].startswith("End")), c.legal[0]), seq=c.seq)
    raise AssertionError(f"{seat} never got a free moment")




def runtime(h, gid: str):
    return h.hub.runtimes[gid]


@IN_PROCESS
@pytest.mark.parametrize("kind", STORES)
async def test_every_proposal_kind_to_a_bot_is_answered_with_a_reason_within_a_second(kind):
    async with serve(kind) as h:
        # Seed 0: A and B hold 6 Politburo markers each, C holds the Czar. B is the SDT bot; A
        # and C are humans, so no Committee forms (and nobody purges) without A: the purge of
        # C below is open to the Committee of A and B (004 [11.13]).
        g, (a, c) = await h.game(players=3, humans=2, bot_seats=["B"], seed=0, options={"max_turns": 3})
        gid = g["game"]
        ca, cc = await h.connect(gid, a["token"]), await h.connect(gid, c["token"])
        humans = {"A": ca, "C": cc}
        await free_for("A", humans)

        trade = await ca.chat("A-B", "", {"kind": "trade", "to": "B", "take_politburo": 3})
        r = await reply_within(ca, "A-B", trade["id"])
        assert r["seat"] == "B" and r["reply"]["accept"] is False and "worth" in r["reply"]["reason"]
        # named by the game's number for the offer, as its card, the Orders panel and the log name it
        assert r["text"].startswith(f"B declines Trade #{trade['proposal']['offer']} (proposal #{trade['id']}): "), r["text"]

        pact = await ca.chat("A-B", "", {"kind": "pact", "with": "B", "until": 2})
        r = await reply_within(ca, "A-B", pact["id"])
        assert r["seat"] == "B" and r["reply"]["reason"] and "PCT" in r["reply"]["reason"]

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

        await free_for("A", humans)       # (C, a human, answers the order if B consented)
        assert sorted(ca.view["committee"]) == ["A", "B"]
        # the engine lists the Committee's purge of C: neither member purged this Game-Turn
        assert any(x["t"] == "DeclarePurge" and x["target"] == "C" and sorted(x["purgers"]) == ["A", "B"]
                   for x in ca.legal), ca.legal
        purge = await ca.chat("A-B", "", {"kind": "purge", "target": "C", "purgers": ["A", "B"], "shares": ["A", "B"]})
        r = await reply_within(ca, "A-B", purge["id"])
        assert r["seat"] == "B" and r["reply"]["by"] == "bot" and r["reply"]["reason"]
        assert r["reply"]["accept"] is True and "approves" in r["reply"]["reason"]   # (no pact with C)
        await ca.wait_for(lambda c: c.seq >= r["reply"]["seq"], 5)
        assert events_of(ca, "purge_approved")


@IN_PROCESS
async def test_a_committee_the_bot_refused_is_answered_again_when_proposed_again():
    """docs/protocol.md section 5: "a Committee proposed again later is answered again".  QA:
    the SDT bot B refused A's Committee of A and B (its Purge Cooperation roll); A proposed A
    and C, then A and B again, and B never answered the second card (it still counted the first
    answer, since a Committee without B had not shown it A's change of mind)."""
    async with serve("memory") as h:
        g, (a, c) = await h.game(players=3, humans=2, bot_seats=["B"], seed=0, options={"max_turns": 3})
        gid = g["game"]
        ca, cc = await h.connect(gid, a["token"]), await h.connect(gid, c["token"])
        await free_for("A", {"A": ca, "C": cc})
        if ca.view["phase"] == "random_events":
            await ca.act({"t": "RollRandomEvents"})
            await ca.wait_for(lambda c: c.view["phase"] == "movement", 5)
        bot_b = runtime(h, gid).driver.agents[("B", "sdt")]
        turn = ca.view["turn"]
        bot_b.politics.willing[("A", turn)] = False        # (its roll, forced: the test is of the answers)
        bot_b.talk.note_roll("A", turn, 1, bot_b.relation("A", "B"))
        first = await ca.chat("A-B", "", {"kind": "committee", "members": ["A", "B"]})
        r = await reply_within(ca, "A-B", first["id"])
        assert r["seat"] == "B" and r["reply"]["accept"] is False and "rolled 1" in r["reply"]["reason"], r
        await ca.chat("A-C", "", {"kind": "committee", "members": ["A", "C"]})
        again = await ca.chat("A-B", "", {"kind": "committee", "members": ["A", "B"]})
        r = await reply_within(ca, "A-B", again["id"])
        assert r["seat"] == "B" and r["reply"]["accept"] is False and "rolled 1" in r["reply"]["reason"], r


def committee_card(c: GameClient, closed: frozenset | set = frozenset()) -> tuple[str, dict] | None:
    """A bot's Central Committee invitation to A that A has not answered and has not found
    closed (``closed``: their (channel, id)), the newest first: (channel, message)."""
    found = None
    for ch, msgs in c.messages.items():
        for m in msgs.values():
            p = m.get("proposal") or {}
            if p.get("kind") == "committee" and m.get("seat") != "A" and "A" in p.get("members", []) \
                    and (ch, m["id"]) not in closed \
                    and not any((x.get("reply") or {}).get("msg") == m["id"] for x in msgs.values()):
                if found is None or m["ts"] > found[1]["ts"] or (m["ts"] == found[1]["ts"] and m["id"] > found[1]["id"]):
                    found = ch, m
    return found


async def standing_card(c: GameClient, closed: set) -> tuple[str, dict] | None:
    """The newest invitation to A that still stands, as the browser's card asks the engine (the
    ``consents`` query, 004 [11.11]): a bot that has since consented to another Committee (its
    invitation again, to those who would join) or ended the step invites no one by the old card,
    which goes into ``closed``."""
    while (got := committee_card(c, closed)) is not None:
        ch, m = got
        if await c.query("consents", seat=m["seat"], members=m["proposal"]["members"]):
            return got
        closed.add((ch, m["id"]))
    return None


async def play_until_invited(h, seed: int, ca: GameClient | None = None,
                             closed: set | None = None) -> tuple[GameClient, tuple[str, dict] | None]:
    """A (human, with bots B and C) plays the first legal action each time until a bot invites
    it to a Central Committee by an invitation that stands, or the game of six Game-Turns ends
    (a new game of ``seed``, or on with the game of ``ca``)."""
    closed = set() if closed is None else closed
    if ca is None:
        g, (a,) = await h.game(players=3, humans=1, bot_seats=["B", "C"], seed=seed, options={"max_turns": 6})
        ca = await h.connect(g["game"], a["token"])
        ca.keep_pushes = True
    for _ in range(400):
        got = await standing_card(ca, closed)
        if got is not None:
            return ca, got
        if not any(p["seat"] == "A" for p in ca.pending):
            await ca.wait_for(lambda c: committee_card(c, closed) is not None or any(p["seat"] == "A" for p in c.pending)
                              or c.status != "playing", 40)     # (a bot waits 30 s at most for A)
            if ca.status != "playing":
                break
            continue
        act = next((x for x in ca.legal if x["t"].startswith("End") or x["t"] in ("RollRandomEvents",
                                                                                   "DrawRandomizer")),
                   ca.legal[0])
        seq = ca.seq
        try:
            await ca.act(act)
        except ServerError:       # (refused: the page's legal list was behind the game; wait for the news)
            with contextlib.suppress(asyncio.TimeoutError):
                await ca.wait_for(lambda c, seq=seq: c.seq != seq, 5)
    return ca, None


@pytest.mark.parametrize("kind", STORES)
async def test_a_bots_committee_invitation_to_a_human_becomes_a_central_committee(kind):
    """The Purge Cooperation step of a bot with a human seat: its invitation comes as a card in
    the pair channel; the human's accept forms the Committee (every member consented).  Whether
    a bot invites A in a game is the bots' dice (their seeds differ with each game's id): a game
    without an invitation gives way to another, up to four.  A card that no longer stands when A
    answers (the bot invited again, or the step ended, as A's answer came: the server refuses it,
    ``proposal_closed``) is passed over for the bot's next one, as a player would."""
    async with serve(kind, bot_wait=30.0) as h:
        closed: set = set()
        for seed in range(4):
            ca, got = await play_until_invited(h, seed, closed=closed)
            if got is not None:
                break
            await ca.close()
        assert got is not None, "no bot invited A to a Central Committee in four games"
        n = len(events_of(ca, "committee"))

        def formed(c):
            return [e["data"]["members"] for e in events_of(c, "committee")[n:] if "A" in e["data"].get("members", [])]
        for _ in range(3):        # (the invitation of all; if some refuse, the bot invites again those who would)
            ch, m = got
            try:
                r = await ca.accept(ch, m["id"])
            except ServerError as e:
                assert e.code == "proposal_closed", e
                closed.add((ch, m["id"]))
                ca, got = await play_until_invited(h, 0, ca, closed)
                assert got is not None, f"the bot's invitation {m['proposal']} closed and no other came"
                continue
            assert r["reply"]["accept"] is True
            # (formed; or invited again; or the game moved on to A's turn: a bot invited refused by
            # its die, and those willing held too few markers, the bot's "no Committee")
            try:
                await ca.wait_for(lambda c: bool(formed(c)) or committee_card(c, closed) is not None
                                  or any(p["seat"] == "A" for p in c.pending), 40)
            except TimeoutError:
                raise AssertionError(f"A accepted {m['proposal']} and then, for 40 s, no Committee formed, no new "
                                     f"invitation came and the game did not move on to A: phase {ca.view['phase']}, "
                                     f"pending {ca.pending}, the channel {list(ca.messages.get(ch, {}).values())[-3:]}") from None
            if formed(ca):
                break
            ca, got = await play_until_invited(h, 0, ca, closed)
            if got is None:       # (that game ended without another invitation: on with a new one)
                await ca.close()
                ca, got = await play_until_invited(h, 4, closed=closed)
                n = 0
            assert got is not None, f"A accepted {m['proposal']}, no Committee formed, and no other invitation came"
        assert formed(ca) and m["seat"] in formed(ca)[0]


async def propose_again(ca: GameClient) -> dict:
    """A proposes a Committee of A and B in its Random Events Phase (the bot B declines: it
    answers a Committee in its convener's Movement Phase, 004 [11.1]), then the same again in
    its Movement Phase, its consent standing since (004 [11.11]): B's reply to the second."""
    assert await until_free({"A": ca}) == "A" and ca.view["phase"] == "random_events"   # (before its movement)
    first = await ca.chat("A-B", "", {"kind": "committee", "members": ["A", "B"]})
    r = await reply_within(ca, "A-B", first["id"], 5)
    assert r["reply"]["accept"] is False and "convener's Movement Phase" in r["reply"]["reason"], r["reply"]
    for _ in range(20):                    # A's Random Events Phase: on to its Movement Phase
        if ca.view["phase"] == "movement" and any(p["seat"] == "A" for p in ca.pending):
            break
        await ca.wait_for(lambda c: any(p["seat"] == "A" for p in c.pending) and bool(c.legal), 10)
        act = next((x for x in ca.legal if x["t"] in ("RollRandomEvents", "EndRandomEvents")
                    or x["t"].startswith("End")), ca.legal[0])
        await ca.act(act, seq=ca.seq)
    assert ca.view["phase"] == "movement" and ca.view["phasing"] == "A"
    assert ca.view["committee_consent"].get("A") == ["A", "B"]       # (the consent stands)
    again = await ca.chat("A-B", "now?", {"kind": "committee", "members": ["A", "B"]})
    assert again["proposal"].get("again") is True
    r = await reply_within(ca, "A-B", again["id"], 5)
    assert r["seat"] == "B" and r["reply"]["by"] == "bot" and "convener's Movement Phase" not in r["reply"]["reason"]
    return r


@pytest.mark.parametrize("kind", STORES)
async def test_a_committee_proposed_again_to_a_bot_is_answered_though_the_consent_stood(kind):
    """Found by a player's QA: the same proposal again applied no action and told the bots
    nothing, so its card waited for B's answer for ever (:func:`propose_again`).  B answers it."""
    async with serve(kind) as h:
        g, (a,) = await h.game(players=3, humans=1, bot_seats=["B", "C"], seed=0, options={"max_turns": 2})
        await propose_again(await h.connect(g["game"], a["token"]))


@needs_redis
async def test_a_committee_proposed_again_on_a_process_that_does_not_run_the_bots_reaches_them():
    """The review's case: A is connected to the process that does not drive the game; the
    proposal again is passed on to the bots by the one that does (the message's ``again``)."""
    prefix = unique_prefix("again")
    try:
        async with running_server(RedisStore(REDIS_URL, prefix), Config(lease_ttl=2.0)) as s1, \
                running_server(RedisStore(REDIS_URL, prefix), Config(lease_ttl=2.0)) as s2, Lobby(s1.base) as lobby:
            g = await lobby.create_game(players=3, seed=0, options={"max_turns": 2}, bot_seats=["B", "C"])
            gid = g["game"]
            a = await lobby.join(gid, name="A")
            watchers = [await GameClient.connect(s.base, gid) for s in (s1, s2)]      # (both load the game)
            for _ in range(100):
                driving = [s for s in (s1, s2) if gid in s.hub.runtimes and s.hub.runtimes[gid].driver.driving]
                if driving:
                    break
                await asyncio.sleep(0.1)
            other = s2 if driving == [s1] else s1
            ca = await GameClient.connect(other.base, gid, a["token"])
            await ca.wait_for(lambda c: c.status == "playing", 10)
            await propose_again(ca)
            for c in (ca, *watchers):
                await c.close()
    finally:
        await destroy_prefix(prefix)


@pytest.mark.parametrize("kind", STORES)
async def test_a_near_trade_is_countered_by_a_card_that_names_it_and_can_be_accepted(kind):
    """The pre-game session of seed 0 (the bots' table not set up: column 3, B asks a worth of
    0): one Politburo marker for nothing is worth -2 to B, within COUNTER_BAND of its ask, so B
    declines with its reason and counters with a card in the same channel that names the
    proposal (``counter``: its message id); A's accept makes the trade."""
    async with serve(kind) as h:
        g, (a,) = await h.game(players=3, humans=1, bot_seats=["B", "C"], seed=0, options={"max_turns": 1})
        ca = await h.connect(g["game"], a["token"])
        await ca.wait_for(lambda c: c.status == "playing" and c.view["phase"] == "trading", 5)
        pm = dict(ca.view["politburo"])
        ask = await ca.chat("A-B", "", {"kind": "trade", "to": "B", "take_politburo": 1})
        r = await reply_within(ca, "A-B", ask["id"])
        assert r["reply"]["accept"] is False and "B counters: worth -2 to B" in r["reply"]["reason"], r["reply"]

        def card(c):
            return next((m for m in c.messages.get("A-B", {}).values()
                         if (m.get("proposal") or {}).get("counter") == ask["id"]), None)
        await ca.wait_for(lambda c: card(c) is not None, 5)
        m = card(ca)
        p = m["proposal"]
        assert m["seat"] == "B" and p["kind"] == "trade" and p["addressees"] == ["A"] and p["offer"] >= 1
        # one marker each way (the smallest change worth B's while): B gives 1 and takes 1
        assert (p.get("give_politburo"), p.get("take_politburo")) == (1, 1), p
        done = await ca.accept("A-B", m["id"])
        await ca.wait_for(lambda c: c.seq >= done["reply"]["seq"], 5)
        assert any(e["kind"] == "trade" for e in ca.events) and ca.view["politburo"] == pm


def cooperation(reason: str) -> int:
    """The PCT column a bot's reason gives ('PCT 6 with A (2 friendliest, 7 most hostile)...')."""
    m = re.search(r"PCT (\d) with [A-F] \(2 friendliest, 7 most hostile\)", reason)
    assert m, reason
    return int(m.group(1))


# Seed 5: A plays first in Game-Turn 1 and its stacks share VLDV with one of the bot B's; B's
# table has A on column 3 (it accepts a pact: a request to do nothing).
ATTACK_GAME = {"players": 3, "bot_seats": ["B", "C"], "seed": 5, "options": {"max_turns": 2}}


async def pact_with_b(ca) -> tuple[dict, int]:
    """A proposes a pact to B until the end of this Game-Turn; B accepts.  The proposal, and
    A's PCT column with B as B's reason gives it."""
    assert await until_free({"A": ca}) == "A"
    p = await ca.chat("A-B", "", {"kind": "pact", "with": "B", "until": ca.view["turn"]})
    r = await reply_within(ca, "A-B", p["id"])
    assert r["reply"]["accept"] is True, r["reply"]
    return p, cooperation(r["reply"]["reason"])


async def attack_b(ca) -> None:
    """A's Combat Phase: the attack on B's stack, through the game's own actions (004 [8.2])."""
    turn = ca.view["turn"]
    while ca.view["phase"] != "combat":
        act = next(x for x in ca.legal if x["t"].startswith("End") or x["t"] == "RollRandomEvents")
        await ca.act(act)
        await ca.wait_for(lambda c: any(p["seat"] == "A" for p in c.pending), 10)
    assert ca.view["phasing"] == "A" and ca.view["turn"] == turn
    stacks = {s["id"]: s for s in ca.view["stacks"]}
    option = next(o for o in await ca.query("attack_options") if stacks[o["target"]]["owner"] == "B")
    await ca.act({"t": "DeclareAttack", "target": option["target"], "subversive": False})
    for sid in option["groups"][0]["stacks"]:
        await ca.act({"t": "AddAttacker", "stack": sid})
    await ca.act({"t": "ResolveAttack"})
    assert any(e["kind"] == "combat" and e["data"].get("defender") == "B" for e in ca.events)


async def the_break_is_told(ca, p: dict, before: int) -> None:
    """The break is announced to B in the pair channel, and B holds it against A: one column
    for the attack, SHIFT_PACT_BREAK more for the break, as B's next answer says."""
    turn = ca.view["turn"]

    def broken(c):
        return next((m for m in c.messages.get("A-B", {}).values() if m.get("pact_broken")), None)
    await ca.wait_for(lambda c: broken(c) is not None, 5)
    note = broken(ca)
    assert note["seat"] is None and "A broke its pact with B" in note["text"]
    assert {k: note["pact_broken"][k] for k in ("by", "victim", "act")} == {"by": "A", "victim": "B", "act": "attack"}
    assert note["pact_broken"]["pact"]["until"] == turn and note["pact_broken"]["pact"]["id"] == f"A-B:{p['id']}"
    again = await ca.chat("A-B", "", {"kind": "pact", "with": "B", "until": turn + 1})
    r = await reply_within(ca, "A-B", again["id"])
    assert cooperation(r["reply"]["reason"]) == min(7, before + SHIFT_ATTACK + SHIFT_PACT_BREAK), r["reply"]
    assert "A attacked B once" in r["reply"]["reason"]


@pytest.mark.parametrize("kind", STORES)
async def test_a_broken_pact_is_announced_to_its_victim_and_shifts_the_bots_table(kind):
    """A makes a pact with the bot B, then attacks B's stack in its first Combat Phase."""
    async with serve(kind) as h:
        g, (a,) = await h.game(humans=1, **ATTACK_GAME)
        ca = await h.connect(g["game"], a["token"])
        p, before = await pact_with_b(ca)
        await attack_b(ca)
        await the_break_is_told(ca, p, before)


async def stored(store, gid: str, pred, timeout: float = 5.0) -> None:
    """Wait until the store's pacts of game ``gid`` satisfy ``pred``."""
    end = asyncio.get_running_loop().time() + timeout
    while not pred(await store.load_pacts(gid)):
        assert asyncio.get_running_loop().time() < end, "the store never got the pact"
        await asyncio.sleep(0.02)


@pytest.mark.parametrize("kind", STORES)
async def test_pacts_and_their_breaks_are_kept_with_the_game_across_restarts(kind):
    """The store keeps a game's pacts: a server started again on it shows A its pact (the
    state frames' ``pacts``), announces its break and tells the bots, whose table holds the
    break; and a third server still knows it was broken."""
    async with restartable_store(kind, "pacts") as store:
        async with running_server(store()) as one, Lobby(one.base) as lobby:
            g = await lobby.create_game(**ATTACK_GAME)
            a = await lobby.join(g["game"])
            async with await GameClient.connect(one.base, g["game"], a["token"]) as ca:
                p, before = await pact_with_b(ca)
                pid = f"A-B:{p['id']}"
                pact = {"a": "A", "b": "B", "until": ca.view["turn"], "id": pid, "broken": None}
                await stored(one.store, g["game"], lambda r: pid in r)    # (a moment after the reply)
        async with running_server(store()) as two:
            async with await GameClient.connect(two.base, g["game"], a["token"]) as ca:
                got = (await ca.request("view"))["pacts"]
                assert [{k: x[k] for k in pact} for x in got] == [pact]
                await attack_b(ca)
                await the_break_is_told(ca, p, before)
                await stored(two.store, g["game"], lambda r: bool(r[pid].get("broken")))
        async with running_server(store()) as three:
            async with await GameClient.connect(three.base, g["game"], a["token"]) as ca:
                got = (await ca.request("view"))["pacts"]
                assert [x["broken"] for x in got if x["id"] == pid] == [{"by": "A", "victim": "B", "act": "attack"}]
                spec = await GameClient.connect(three.base, g["game"])
                assert (await spec.request("view"))["pacts"] == []          # (its parties only)
                await spec.close()


@pytest.mark.parametrize("kind", STORES)
async def test_a_pact_proposed_before_a_restart_and_accepted_after_it_is_kept(kind):
    """Between two humans: the reply that accepts a pact carries it (``reply.pact``, kept in the
    store first), so a server that never saw the proposal keeps it from the reply."""
    async with restartable_store(kind, "pacts") as store:
        async with running_server(store()) as one, Lobby(one.base) as lobby:
            g = await lobby.create_game(players=3, bot_seats=["C"], seed=0)
            a, b = await lobby.join(g["game"]), await lobby.join(g["game"])
            async with await GameClient.connect(one.base, g["game"], a["token"]) as ca:
                p = await ca.chat("A-B", "", {"kind": "pact", "with": "B", "until": 3})
        async with running_server(store()) as two:
            async with await GameClient.connect(two.base, g["game"], b["token"]) as cb, \
                    await GameClient.connect(two.base, g["game"], a["token"]) as ca:
                r = await cb.accept("A-B", p["id"])
                kept = {"a": "A", "b": "B", "until": 3, "id": f"A-B:{p['id']}"}
                assert {k: r["reply"]["pact"][k] for k in kept} == kept
                await ca.wait_for(lambda c: any(m.get("reply") for m in c.messages.get("A-B", {}).values()), 5)
                for c in (ca, cb):
                    assert [{k: x[k] for k in kept} for x in (await c.request("view"))["pacts"]] == [kept]
                assert set(await two.store.load_pacts(g["game"])) == {kept["id"]}


def test_a_pact_record_round_trips():
    p = Pact("A", "B", 3, 7, "A-B:4")
    assert Pact(**p.to_dict()) == p


def test_every_proposal_kind_and_what_bots_add_is_documented():
    from pathlib import Path

    from rcw.server.chat import PROPOSAL_KINDS

    doc = (Path(__file__).resolve().parent.parent / "docs" / "protocol.md").read_text()
    for kind in PROPOSAL_KINDS:
        assert f"| `{kind}` |" in doc, kind
    for word in ("pact_broken", "reply.reason", "counter: <msg id>", "--bot-wait", "`pacts`", "P {g:<id>}:pacts"):
        assert word in doc, word


@IN_PROCESS
async def test_a_reply_names_the_trade_even_once_the_server_forgot_the_proposal(monkeypatch):
    """Review: a bot's reply named its trade by the game's number for the offer only while this
    process still held the proposal (it keeps the last few thousand): after that the reply read
    "B declines trade proposal #3".  It reads the proposal from the store then."""
    from rcw.server.proposals import Proposals

    seen = Proposals.seen

    def forgetful(self, channel, msg):
        seen(self, channel, msg)
        self._by_msg.clear()                     # (as if thousands of proposals had come since)
    monkeypatch.setattr(Proposals, "seen", forgetful)
    async with serve("memory") as h:
        g, (a,) = await h.game(players=3, humans=1, bot_seats=["B", "C"], seed=0, options={"max_turns": 3})
        ca = await h.connect(g["game"], a["token"])
        await free_for("A", {"A": ca})
        trade = await ca.chat("A-B", "", {"kind": "trade", "to": "B", "take_politburo": 3})
        r = await reply_within(ca, "A-B", trade["id"], 5)
        assert r["text"].startswith(f"B declines Trade #{trade['proposal']['offer']} (proposal #{trade['id']})"), r["text"]
