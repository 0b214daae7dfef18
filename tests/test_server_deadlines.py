"""Deadlines as absolute times in the store (issue 16): ``kill -9`` of ``rcw serve --redis``
mid-phase, then a new process on the same Redis (a restart) or the other process already
serving the game (a fail-over), and the phase (a postal game) or the seat's decision (a live
game) still falls due when it was set to, with the sheets already sent."""

from __future__ import annotations

import asyncio
import time

import pytest
from rcw.server.client import GameClient, Lobby
from server_helpers import REDIS_URL, ServerProcess, destroy_prefix, needs_redis, unique_prefix


@needs_redis
@pytest.mark.parametrize("mode,after", [("postal", "restart"), ("live", "failover")])
async def test_kill_9_mid_phase_keeps_the_sheets_and_the_deadline(mode, after):
    prefix = unique_prefix("kill9")
    args = ("--redis", REDIS_URL, "--prefix", prefix, "--lease-ttl", "0.6", "--bot-workers", "0")
    p1, p2 = ServerProcess(*args), ServerProcess(*args)
    clients: list[GameClient] = []
    try:
        await (asyncio.gather(p1.start(), p2.start()) if after == "failover" else p1.start())
        async with Lobby(p1.base) as lobby:              # created on p1: p1 drives the game
            if mode == "postal":
                g = await lobby.create_game(mode="postal", players=5, bot_seats=list("CDE"), seed=3, deadline=6)
            else:
                g = await lobby.create_game(players=3, bot_seats=["C"], seed=0, deadline=6, options={"max_turns": 1})
            a = await lobby.join(g["game"], name="a")
            await lobby.join(g["game"], name="b")
        gid = g["game"]
        ca = await GameClient.connect(p1.base, gid, a["token"])
        clients.append(ca)
        if mode == "postal":
            await ca.wait_for(lambda c: "phase:1:trading" in c.deadlines, 5)
            key = "phase:1:trading"
            await ca.sheet([{"order": "accept_gifts", "from": ["B"]}])     # A sends; B waits for the deadline
        else:
            # (and the bot C done: its step after the deadline was announced moved seq; found by CI)
            await ca.wait_for(lambda c: any(k.startswith("seat:") for k in c.deadlines)
                              and c.pending and all(p["seat"] != "C" for p in c.pending), 10)
            key = next(k for k in ca.deadlines if k.startswith("seat:"))
        due = ca.deadlines[key]
        seq = ca.seq
        await ca.close()
        await p1.kill()                                          # kill -9: no lease released, nothing flushed
        if after == "restart":
            await asyncio.sleep(1.0)
            await p2.start()
        c = await GameClient.connect(p2.base, gid, a["token"])
        clients.append(c)
        assert c.seq == seq and c.deadlines.get(key) == due      # the same deadline, as an absolute time
        if mode == "postal":
            assert "A" in c.view["postal"]["submitted"] and c.view["postal"]["sheet"]   # A's sheet survived
        c.keep_pushes = True
        actor = "GM" if mode == "postal" else key.split(":")[1]     # (live: that seat's bot decides for it)

        def fired(c: GameClient) -> bool:
            return any(p["t"] == "update" and p.get("by") == "deadline" and p["actor"] == actor for p in c.pushes)
        await c.wait_for(fired, 15)
        assert f"game {gid}: driven by this process now" in p2.stderr_tail(1 << 20)   # (the fail-over is logged)
        now = time.time() * 1000
        assert due - 300 <= now <= due + 2500, (now - due)    # on time, not a new full deadline later
        if mode == "postal":
            assert c.view["postal"]["phase"] == "first"
            assert [(r["turn"], r["phase"]) for r in await c.reports()] == [(1, "trading")]
    finally:
        for x in clients:
            await x.close()
        await p1.stop()
        await p2.stop()
        await destroy_prefix(prefix)
