"""The ``events`` request: a (re)connecting client rebuilds the game's event log from the server.

Every seat and spectator receives every event in its ``update`` frames (docs/protocol.md,
section 7); ``events`` gives the same ``seq``, ``actor``, ``action``, ``by`` and ``events`` for
any range of past actions, rebuilt by replaying the action log, so a page opened mid-game (or
reloaded) shows the whole history, not only what it saw itself."""

from __future__ import annotations

import asyncio
import random

import pytest
from rcw.server.client import GameClient, Lobby, ServerError
from rcw.server.store import MemoryStore
from server_helpers import play_randomly, running_server

from rcw.actions import to_wire

KEYS = ("seq", "actor", "action", "by", "events")


async def _all_events(c: GameClient, after: int = 0, limit: int = 500) -> list[dict]:
    out: list[dict] = []
    while True:
        r = await c.request("events", after=after, limit=limit)
        assert r["t"] == "events"
        out += r["entries"]
        if not r["entries"] or r["entries"][-1]["seq"] >= r["last"]:
            return out
        after = r["entries"][-1]["seq"]


async def test_events_rebuild_exactly_what_the_updates_carried():
    async with running_server(MemoryStore()) as srv, Lobby(srv.base) as lobby:
        g = await lobby.create_game(players=3, seed=5, bot_seats=["B", "C"], bots="random", options={"max_turns": 2})
        gid = g["game"]
        watcher = await GameClient.connect(srv.base, gid)       # a spectator from the very start
        watcher.keep_pushes = True
        a = await lobby.join(gid, name="Anna")
        ca = await GameClient.connect(srv.base, gid, a["token"])
        try:
            await asyncio.wait_for(play_randomly(ca, random.Random(3)), 60)
            await watcher.wait_for(lambda c: c.over, 10)
            seen = [f for f in watcher.pushes if f["t"] == "update"]
            assert [f["seq"] for f in seen] == list(range(1, watcher.seq + 1))

            # a spectator who arrives after the end, paging in small steps
            late = await GameClient.connect(srv.base, gid)
            got = await _all_events(late, limit=37)
            assert [e["seq"] for e in got] == list(range(1, watcher.seq + 1))
            for e, f in zip(got, seen, strict=True):
                assert {k: e[k] for k in KEYS} == {k: f[k] for k in KEYS}
                assert isinstance(e["ts"], int)
            kinds = {ev["kind"] for e in got for ev in e["events"]}
            assert {"trading_agreed", "deployed", "game_over"} <= kinds

            # a seat asks for the tail only; a page asking again from the start (no cursor reuse)
            tail = await ca.request("events", after=watcher.seq - 3)
            assert [e["seq"] for e in tail["entries"]] == [watcher.seq - 2, watcher.seq - 1, watcher.seq]
            again = await ca.request("events", after=0, limit=5)
            assert [{k: e[k] for k in KEYS} for e in again["entries"]] == [{k: f[k] for k in KEYS} for f in seen[:5]]
            assert (await ca.request("events", after=watcher.seq))["entries"] == []
            assert (await ca.request("events", after=watcher.seq + 10))["entries"] == []

            for bad in ({"after": -1}, {"limit": 0}, {"limit": 1001}, {"after": "1"}, {"after": True}):
                with pytest.raises(ServerError) as err:
                    await ca.request("events", **bad)
                assert err.value.code == "bad_request"
            await late.close()
        finally:
            await ca.close()
            await watcher.close()


async def test_events_mid_game_and_before_hello():
    async with running_server(MemoryStore()) as srv, Lobby(srv.base) as lobby:
        g = await lobby.create_game(players=3, seed=8, bot_seats=["C"], bots="random")
        gid = g["game"]
        a = await lobby.join(gid, name="Anna")
        ca = await GameClient.connect(srv.base, gid, a["token"])
        fresh = await GameClient.connect(srv.base, gid, hello=False)
        try:
            with pytest.raises(ServerError) as err:
                await fresh.request("events")
            assert err.value.code == "not_joined"
            r = await ca.request("events")
            assert r["entries"] == [] and r["last"] == 0          # B's seat is still open: nothing yet
            b = await lobby.join(gid, name="Boris")
            cb = await GameClient.connect(srv.base, gid, b["token"])
            await ca.act({"t": "EndTrading"})
            r = await cb.request("events")
            assert r["last"] == cb.seq >= 1
            mine = [e for e in r["entries"] if e["actor"] == "A"]
            assert [(e["action"], e["by"]) for e in mine] == [("EndTrading", "player")]
            assert {e["actor"] for e in r["entries"]} == {"A", "C"}    # the bot agreed too
            await cb.close()
        finally:
            await ca.close()
            await fresh.close()


async def test_events_from_the_start_carry_the_setup_the_solitaires_first_non_red_turn_among_them():
    """``events`` with ``after`` 0 also gives the events of the game's setup (``setup``): the deal,
    and in the SPI solitaire its introduction and the non-Red Player's whole first Game-Turn,
    played before Red's first action (before, a page never showed them: its log began with
    Red's first step).  A later page of the history does not repeat them."""
    from rcw.modes import new_game

    async with running_server(MemoryStore()) as srv, Lobby(srv.base) as lobby:
        g = await lobby.create_game(mode="spi-solitaire", seed=11)
        r = await lobby.join(g["game"], name="Vladimir")
        c = await GameClient.connect(srv.base, g["game"], r["token"])
        try:
            first = await c.request("events", after=0)
            assert first["entries"] == [] and first["last"] == 0
            kinds = [e["kind"] for e in first["setup"]]
            assert kinds[0] == "solitaire" and "nonred_target" in kinds
            assert first["setup"] == [to_wire(e) for e in new_game(None, 11, {"mode": "spi-solitaire"}).setup_events]
            await c.act({"t": "RollRandomEvents"})
            assert "setup" not in await c.request("events", after=1)
            assert (await c.request("events", after=0))["setup"] == first["setup"]
        finally:
            await c.close()
        g5 = await lobby.create_game(players=3, seed=2)
        w = await GameClient.connect(srv.base, g5["game"])
        try:
            assert [e["kind"] for e in (await w.request("events", after=0))["setup"]] == ["dealt"] * 3
        finally:
            await w.close()
