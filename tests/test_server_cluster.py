"""Real server processes (``rcw serve --redis ...``, run as subprocesses) sharing one real Redis:
players on different processes play and chat together, and a server killed with SIGKILL
mid-game loses nothing it acknowledged once it (or another process) is started again.  The
same two-process game and chat is played on a local three-master Redis Cluster too."""

from __future__ import annotations

import asyncio
import random
import signal

import aiohttp
from rcw.server.client import GameClient, Lobby
from rcw.server.store import game_slot
from server_helpers import (
    REDIS_URL,
    ServerProcess,
    check_trail,
    destroy_prefix,
    needs_cluster,
    needs_redis,
    play_randomly,
    redis_cluster,
    replay_hashes,
    unique_prefix,
)


async def _stop_all(procs, clients, lobbies, prefix, destroy=True):
    for c in clients:
        await c.close()
    for lb in lobbies:
        await lb.close()
    for p in procs:
        await p.stop()
    if destroy:
        await destroy_prefix(prefix)


@needs_redis
async def test_two_processes_serve_one_game_players_on_each_play_and_chat_together():
    await two_processes_play_and_chat(REDIS_URL, unique_prefix("two"))


async def two_processes_play_and_chat(redis_url: str, prefix: str, check=None, redis_url2: str | None = None) -> None:
    """Two ``rcw serve --redis redis_url`` processes (the second one given ``redis_url2`` if set);
    players on each play a game to its end and chat; then ``check(p1, p2, lobby1, gid)`` if given.
    Everything under ``prefix`` is deleted afterwards on the single Redis (a test cluster is
    thrown away whole)."""
    args = ("--prefix", prefix, "--lease-ttl", "2", "--log-level", "WARNING")
    p1 = ServerProcess("--redis", redis_url, *args)
    p2 = ServerProcess("--redis", redis_url2 or redis_url, *args)
    clients: list[GameClient] = []
    l1 = l2 = None
    try:
        await asyncio.gather(p1.start(), p2.start())
        l1, l2 = Lobby(p1.base), Lobby(p2.base)
        assert (await l1.healthz())["broker"] == (await l2.healthz())["broker"] == "redis"
        g = await l1.create_game(players=5, seed=5, options={"max_turns": 3})     # created on process 1
        gid = g["game"]
        a = await l1.join(gid, name="on p1")
        b = await l2.join(gid, name="on p2")                                      # seated through process 2
        assert b["seat"] == "B"
        ca = await GameClient.connect(p1.base, gid, a["token"])
        cb = await GameClient.connect(p2.base, gid, b["token"])
        spec = await GameClient.connect(p2.base, gid)
        clients += [ca, cb, spec]
        # who is online, whichever process holds the connection (``presence``)
        for c in (ca, cb, spec):
            await c.wait_for(lambda c: c.online == ["A", "B"], 5)
        await l2.fill_bots(gid, g["admin_token"])                               # bots filled through process 2
        await ca.wait_for(lambda c: c.status == "playing", 5)

        # A bot seat answers a trade offered in chat, whichever process drives the bots.
        gift = await cb.chat("B-C", "a gift", {"kind": "trade", "to": "C", "give_politburo": 1})
        await cb.wait_for(lambda c: any((m.get("reply") or {}).get("msg") == gift["id"] and m["seat"] == "C"
                                        for m in c.messages["B-C"].values()), 10)
        hello = await ca.chat("A-B", "from A on process 1")
        await cb.wait_for(lambda c: hello["id"] in c.messages["A-B"], 5)
        back = await cb.chat("A-B", "from B on process 2")
        await ca.wait_for(lambda c: back["id"] in c.messages["A-B"], 5)
        said: list = []
        await asyncio.wait_for(asyncio.gather(
            play_randomly(ca, random.Random(1), chat=["public", "A-B"], chat_every=15, said=said),
            play_randomly(cb, random.Random(2), chat=["public"], chat_every=15, said=said)), 100)
        for c in clients:
            await c.wait_for(lambda c: c.over, 10)

        record = await l2.record(gid)
        hashes = replay_hashes(record)
        assert len(record["actions"]) == ca.seq == cb.seq == spec.seq
        for c in clients:
            check_trail(c.trail, hashes)
        assert ca.trail == cb.trail == spec.trail
        for ch, mid, text in said:
            for c in [ca, cb] + ([spec] if ch == "public" else []):
                await c.wait_for(lambda c, ch=ch, mid=mid: mid in c.messages.get(ch, {}), 5)
                assert c.messages[ch][mid]["text"] == text
        assert not spec.messages.get("A-B")
        await cb.close()                    # B's page closes on process 2: process 1's clients hear it
        await ca.wait_for(lambda c: c.online == ["A"], 5)
        await spec.wait_for(lambda c: c.online == ["A"], 5)
        if check is not None:
            await check(p1, p2, l1, gid)
    except BaseException:
        print("process 1 log:", p1.stderr_tail(), "\nprocess 2 log:", p2.stderr_tail())
        raise
    finally:
        await _stop_all([p1, p2], clients, [x for x in (l1, l2) if x], prefix, destroy=redis_url == REDIS_URL)


@needs_cluster
async def test_two_processes_play_and_chat_on_a_redis_cluster():
    """Three masters on loopback; the two processes are given one node each (redis+cluster:// for
    one, a plain redis:// URL, detected as a cluster node, for the other)."""
    import redis.asyncio as aioredis
    from redis.asyncio.cluster import RedisCluster

    prefix = "rcwtest:cl:"

    async def check(p1: ServerProcess, p2: ServerProcess, lobby: Lobby, gid: str) -> None:
        for p in (p1, p2):
            assert "redis cluster" in p.banner, p.banner
            assert "Traceback" not in p.stderr_tail(1 << 20)
            async with Lobby(p.base) as lb:
                h = await lb.healthz()
            assert h["status"] == "ok" and h["broker"] == "redis" and h["mode"] == "cluster"
            async with aiohttp.ClientSession() as http, http.get(p.base + "/metrics") as r:
                assert 'rcw_store_info{kind="redis",mode="cluster"} 1.0' in await r.text()
        rc = RedisCluster(host=nodes[0][0], port=nodes[0][1])
        lobby2 = Lobby(p2.base)
        try:
            await rc.initialize()
            owner = rc.get_node_from_key(f"{prefix}{{g:{gid}}}:log")
            assert rc.keyslot(f"{prefix}{{g:{gid}}}:log") == game_slot(gid)
            # Every key of the game is in its slot (so every script touched one slot) ...
            game_keys = [k async for k in rc.scan_iter(match=f"{prefix}{{g:{gid}}}*")]
            assert {rc.keyslot(k) for k in game_keys} == {game_slot(gid)}
            assert len(game_keys) >= 5 and await rc.llen(f"{prefix}{{g:{gid}}}:log") > 0
            # ... and the game's topics are sharded channels on the node owning that slot.
            node = aioredis.Redis(host=owner.host, port=owner.port)
            try:
                shard = await node.execute_command("PUBSUB", "SHARDCHANNELS", f"{prefix}ps:*")
                assert shard and all(rc.keyslot(ch) == game_slot(gid) for ch in shard)
                assert not [ch for ch in await node.pubsub_channels(f"{prefix}ps:*")]   # no plain pub/sub topics
            finally:
                await node.aclose()
            # More games, made through both processes, land on several nodes; both list them all.
            # (A game's slot follows its random id: seven games all land on one of three nodes once
            # in some 700 runs, so games are made, three through each process at least, until two
            # nodes hold some: 24 games miss once in some 10**11 runs.)
            more: list[str] = []
            nodes_used = {rc.get_node_from_key(f"{prefix}{{g:{gid}}}:log").name}
            while len(more) < 6 or (len(nodes_used) < 2 and len(more) < 24):
                lb = (lobby, lobby2)[len(more) % 2]
                g = (await lb.create_game(players=3, bot_seats=["A", "B", "C"], options={"max_turns": 1}))["game"]
                more.append(g)
                nodes_used.add(rc.get_node_from_key(f"{prefix}{{g:{g}}}:log").name)
            assert len(nodes_used) >= 2
            for lb in (lobby, lobby2):
                listed = {g["game"] for g in await lb.list_games("all")}
                assert set(more) | {gid} <= listed
        finally:
            await rc.aclose()
            await lobby2.close()

    with redis_cluster(3) as nodes:
        (h1, port1), (h2, port2) = nodes[0], nodes[1]
        await asyncio.wait_for(two_processes_play_and_chat(f"redis+cluster://{h1}:{port1}", prefix, check,
                                                           redis_url2=f"redis://{h2}:{port2}/0"), 60)


@needs_redis
async def test_kill_9_mid_game_then_restart_loses_nothing_acknowledged():
    prefix = unique_prefix("kill")
    args = ("--redis", REDIS_URL, "--prefix", prefix, "--lease-ttl", "1.5", "--log-level", "WARNING")
    p1 = ServerProcess(*args)
    p2 = ServerProcess(*args)
    clients: list[GameClient] = []
    lobbies: list[Lobby] = []
    try:
        await p1.start()
        l1 = Lobby(p1.base)
        lobbies.append(l1)
        g = await l1.create_game(players=3, seed=3, bot_seats=["C"], options={"max_turns": 3})
        gid = g["game"]
        a, b = await l1.join(gid), await l1.join(gid)
        ca = await GameClient.connect(p1.base, gid, a["token"])
        cb = await GameClient.connect(p1.base, gid, b["token"])
        clients += [ca, cb]
        acked: list[int] = []
        said: list[tuple[str, int, str]] = []
        await asyncio.wait_for(asyncio.gather(
            play_randomly(ca, random.Random(1), chat=["public", "A-B"], chat_every=5, stop_at=60, acked=acked, said=said),
            play_randomly(cb, random.Random(2), chat=["A-B"], chat_every=5, stop_at=60, acked=acked, said=said)), 60)
        # Keep both players busy right up to the kill: acknowledged requests race the SIGKILL.
        racing = [asyncio.create_task(play_randomly(ca, random.Random(3), chat=["public"], chat_every=1, acked=acked,
                                                    said=said)),
                  asyncio.create_task(play_randomly(cb, random.Random(4), chat=["A-B"], chat_every=1, acked=acked,
                                                    said=said))]
        await asyncio.sleep(0.3)
        assert not ca.over
        await p1.kill()
        assert p1.proc.returncode == -signal.SIGKILL                   # kill -9: no cleanup of any kind
        done = await asyncio.gather(*racing, return_exceptions=True)
        assert all(isinstance(x, Exception) for x in done), done      # the players lost their server mid-game
        last_acked = max(acked)
        seen_before = {c.seat: list(c.trail) for c in (ca, cb)}

        await p2.start()                                   # a new process, same Redis
        for c in (ca, cb):
            c.base = p2.base
            await c.reconnect()                            # hello with the same token, then chat catch-up
        assert ca.seq >= last_acked and ca.hash == cb.hash
        for ch, mid, text in said:                         # every acknowledged message is still there
            for c in (ca, cb):
                assert c.messages[ch][mid]["text"] == text

        await asyncio.wait_for(asyncio.gather(play_randomly(ca, random.Random(5)), play_randomly(cb, random.Random(6))), 90)
        l2 = Lobby(p2.base)
        lobbies.append(l2)
        record = await l2.record(gid)
        hashes = replay_hashes(record)
        for trail in seen_before.values():                 # what the players saw before the kill is the same game
            check_trail(trail, hashes)
        for c in (ca, cb):
            check_trail(c.trail, hashes, contiguous=False)
        assert all(record["actions"][s - 1] for s in acked)
        assert record["actions"][-1] and ca.over and cb.over
    except BaseException:
        print("process 1 log:", p1.stderr_tail(), "\nprocess 2 log:", p2.stderr_tail())
        raise
    finally:
        await _stop_all([p1, p2], clients, lobbies, prefix)


@needs_redis
async def test_a_player_whose_server_is_killed_is_shown_offline_soon():
    """QA, as an operator: after ``kill -9`` of the process holding Anna's connection, Boris's page
    (on the other process) showed her "online now" for ten minutes, until the processes' sweep:
    nothing tells the living process that her connection went.  Who is online is read again every
    ten seconds; a killed process's seats stop counting once its lease rounds stop."""
    prefix = unique_prefix("presence")
    args = ("--redis", REDIS_URL, "--prefix", prefix, "--lease-ttl", "0.6", "--bot-workers", "0")
    p1, p2 = ServerProcess(*args), ServerProcess(*args)
    clients: list[GameClient] = []
    try:
        await asyncio.gather(p1.start(), p2.start())
        async with Lobby(p1.base) as lobby:
            g = await lobby.create_game(players=3, bot_seats=["C"], seed=0)
            a = await lobby.join(g["game"], name="Anna")
            b = await lobby.join(g["game"], name="Boris")
        ca = await GameClient.connect(p1.base, g["game"], a["token"])
        cb = await GameClient.connect(p2.base, g["game"], b["token"])
        clients += [ca, cb]
        await cb.wait_for(lambda c: c.online == ["A", "B"], 10)
        await p1.kill()                                   # (Anna's connection dies with it, unannounced)
        await cb.wait_for(lambda c: c.online == ["B"], 25)
    finally:
        for c in clients:
            await c.close()
        await p1.stop()
        await p2.stop()
        await destroy_prefix(prefix)
