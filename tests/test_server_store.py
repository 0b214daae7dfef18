"""The two stores keep the same promises: conditional appends of the action log, chat ids in
order with the notice published in the same step, seat compare-and-set, exclusive leases.  The
Redis store keeps them on a single Redis and on a local three-master Redis Cluster."""

from __future__ import annotations

import asyncio
import shutil
import subprocess

import pytest
from rcw.server.protocol import ProtocolError, pack, unpack
from rcw.server.store import GLOBAL, MemoryStore, RedisStore, game_slot, slot_tag, split_chat_notice, split_redis_url
from server_helpers import REDIS_URL, needs_cluster, needs_redis, unique_prefix


@pytest.fixture(params=["memory", pytest.param("redis", marks=needs_redis), pytest.param("cluster", marks=needs_cluster)])
async def store(request):
    if request.param == "memory":
        s = MemoryStore()
    elif request.param == "redis":
        s = RedisStore(REDIS_URL, unique_prefix("store"))
    else:
        s = RedisStore(request.getfixturevalue("cluster_url"), unique_prefix("store"))
    await s.start()
    assert getattr(s, "cluster", False) == (request.param == "cluster")
    try:
        yield s
    finally:
        if isinstance(s, RedisStore):
            await s.destroy()
        await s.close()


async def until(pred, timeout=2.0):
    end = asyncio.get_running_loop().time() + timeout
    while not pred():
        assert asyncio.get_running_loop().time() < end, "timed out"
        await asyncio.sleep(0.01)


async def test_the_action_log_appends_only_at_the_expected_length(store):
    await store.create_game("g1", {"x": 1}, {"A": {"kind": "open"}}, {"public": {"name": "public"}})
    got: list[bytes] = []
    t1 = store.topic("t1", "g1")
    await store.subscribe(t1, got.append)
    assert await store.append_action("g1", 0, {"a": 1}, t1, b"n1")
    assert not await store.append_action("g1", 0, {"a": "loser"}, t1, b"lost")   # someone else was first
    assert await store.append_action("g1", 1, {"a": 2}, t1, b"n2")
    assert await store.log_len("g1") == 2
    assert await store.log_range("g1", 0) == [{"a": 1}, {"a": 2}]
    assert await store.log_range("g1", 1) == [{"a": 2}]
    assert await store.log_range("g1", 0, 1) == [{"a": 1}]
    assert await store.log_range("g1", 1, 1) == []
    await until(lambda: len(got) == 2)
    assert got == [b"n1", b"n2"]                     # only successful appends are announced, in order


async def test_racing_appends_keep_exactly_one_winner_per_position(store):
    await store.create_game("g2", {}, {}, {})
    t = store.topic("t", "g2")
    results = await asyncio.gather(*(store.append_action("g2", 0, {"w": i}, t, b"") for i in range(10)))
    assert sum(results) == 1 and await store.log_len("g2") == 1


async def test_chat_ids_are_assigned_in_order_and_published_with_the_message(store):
    await store.create_game("g3", {}, {}, {"public": {"name": "public"}})
    got: list[tuple[int, dict]] = []
    topic = store.topic("chat-topic", "g3")
    await store.subscribe(topic, lambda d: got.append(split_chat_notice(d)))
    ids = [await store.chat_append("g3", "public", {"seat": "A", "text": f"m{i}"}, topic) for i in range(5)]
    assert ids == [1, 2, 3, 4, 5]
    assert [m["text"] for m in await store.chat_range("g3", "public", 2, 2)] == ["m2", "m3"]
    assert [m["id"] for m in await store.chat_range("g3", "public", 0, 100)] == ids
    assert await store.chat_range("g3", "public", 5, 10) == []
    assert await store.chat_len("g3", "public") == 5
    await until(lambda: len(got) == 5)
    assert [(i, m["text"]) for i, m in got] == [(i, f"m{i - 1}") for i in ids]


async def test_seats_change_only_from_the_expected_record(store):
    await store.create_game("g4", {}, {"A": {"kind": "open"}, "B": {"kind": "open"}}, {})
    human = {"kind": "human", "name": "x", "token": "h"}
    assert await store.cas_seat("g4", "A", {"kind": "open"}, human)
    assert not await store.cas_seat("g4", "A", {"kind": "open"}, {"kind": "bot"})
    assert (await store.load_seats("g4"))["A"] == human
    assert await store.cas_seat("g4", "A", human, {"kind": "bot", "bot": "random"})


async def test_games_index_and_channels(store):
    await store.create_game("g5", {"m": 1}, {}, {"public": {"name": "public"}})
    await store.create_game("g6", {"m": 2}, {}, {})
    assert await store.game_ids() == ["g5", "g6"]
    await store.mark_over("g5")
    assert await store.game_ids() == ["g6"] and await store.game_ids(live_only=False) == ["g5", "g6"]
    assert await store.load_meta("g5") == {"m": 1} and await store.load_meta("nope") is None
    await store.add_channel("g5", "g1", {"name": "g1", "members": ["A", "B"]})
    assert set(await store.load_channels("g5")) == {"public", "g1"}


async def test_a_games_pacts_are_kept_first_record_first_and_their_breaks_written_in(store):
    await store.create_game("g7", {"m": 1}, {}, {})
    pact = {"a": "A", "b": "B", "until": 2, "since": 5, "id": "A-B:3"}
    assert await store.load_pacts("g7") == {}
    assert await store.add_pact("g7", "A-B:3", pact)
    assert not await store.add_pact("g7", "A-B:3", dict(pact, until=9))     # (another process, later: ignored)
    assert await store.load_pacts("g7") == {"A-B:3": pact}
    broken = dict(pact, broken={"by": "A", "victim": "B", "act": "attack", "seq": 40})
    await store.update_pact("g7", "A-B:3", broken)
    assert not await store.add_pact("g7", "A-B:3", pact)                      # (a late first write: the break stands)
    assert await store.load_pacts("g7") == {"A-B:3": broken} and await store.load_pacts("g8") == {}


async def test_a_lease_has_one_owner_until_it_expires(store):
    assert await store.lease("game", "p1", 0.3)
    assert await store.lease("game", "p1", 0.3)          # renewal
    assert not await store.lease("game", "p2", 0.3)
    await asyncio.sleep(0.45)
    assert await store.lease("game", "p2", 0.3)          # p1 stopped renewing
    await store.release("game", "p1")                    # not p1's any more: no effect
    assert not await store.lease("game", "p1", 0.3)
    await store.release("game", "p2")
    assert await store.lease("game", "p1", 0.3)


async def test_unsubscribed_callbacks_hear_nothing(store):
    got: list[bytes] = []
    await store.subscribe("t9", got.append)
    await store.publish("t9", pack({"k": 1}))
    await until(lambda: len(got) == 1)
    await store.unsubscribe("t9", got.append)
    await store.publish("t9", b"again")
    await asyncio.sleep(0.1)
    assert [unpack(x) for x in got] == [{"k": 1}]


async def test_topics_of_many_games_reach_their_subscribers(store):
    """Games whose slots are on different cluster nodes: each topic's notices reach exactly its
    own subscribers, and an unsubscribed topic hears nothing more."""
    got: dict[str, list[bytes]] = {}
    gids = [f"game{i}" for i in range(12)]
    for gid in gids:
        await store.create_game(gid, {}, {}, {})
        await store.subscribe(store.topic(f"secret-{gid}", gid), got.setdefault(gid, []).append)
    for gid in gids:
        assert await store.append_action(gid, 0, {"a": gid}, store.topic(f"secret-{gid}", gid), gid.encode())
    await until(lambda: all(got[g] for g in gids))
    await store.unsubscribe(store.topic("secret-game0", "game0"), got["game0"].append)
    for gid in gids:
        assert await store.append_action(gid, 1, {"a": gid}, store.topic(f"secret-{gid}", gid), gid.encode() + b"+")
    await until(lambda: all(len(got[g]) == 2 for g in gids[1:]))
    await asyncio.sleep(0.1)
    assert got == {g: [g.encode()] if g == "game0" else [g.encode(), g.encode() + b"+"] for g in gids}


def test_cluster_urls_and_slots():
    assert split_redis_url("redis+cluster://h:7000") == ("redis://h:7000", True)
    assert split_redis_url("rediss+cluster://u:p@h:7000/0") == ("rediss://u:p@h:7000/0", True)
    assert split_redis_url("redis://h:6379/0") == ("redis://h:6379/0", None)       # asks the server
    with pytest.raises(ValueError, match=r"redis\+cluster://"):                    # (the error names every scheme)
        split_redis_url("http://h:6379")
    assert RedisStore("redis+cluster://h:1").cluster and RedisStore("redis://h:1").cluster is None
    from redis.crc import key_slot

    s = RedisStore("redis://h:1", "P:")
    for gid in ("Xy3abcDEF", "g1", "a-b_c", "zz9"):
        keys = [s.gk(gid, "meta"), s.gk(gid, "log"), s.gk(gid, "chat", "A-B"), s.topic("f" * 32, gid)]
        assert {key_slot(k.encode()) for k in keys} == {game_slot(gid)}           # one slot per game
        assert gid not in s.topic("f" * 32, gid)                                  # topics never name the game
    assert all(key_slot(slot_tag(n).encode()) == n for n in (0, 1, 5000, 16383))


@needs_cluster
async def test_a_cluster_refuses_a_prefix_with_braces_and_a_database_number(cluster_url):
    with pytest.raises(ValueError, match="braces"):
        await RedisStore(cluster_url, "rcw{x}:").start()
    with pytest.raises(ValueError, match="database 0"):
        await RedisStore(cluster_url + "/2").start()


@needs_cluster
async def test_sharded_subscriptions_follow_a_slot_the_cluster_moves(cluster_nodes, cluster_url):
    """The game's slot migrates to another node mid-game: Redis drops the shard subscription
    there, the store subscribes again at the new owner, and notices arrive as before."""
    import redis.asyncio as aioredis

    s = RedisStore(cluster_url, unique_prefix("move"))
    await s.start()
    clients = {port: aioredis.Redis(host=host, port=port) for host, port in cluster_nodes}
    try:
        gid = "moving-game"
        await s.create_game(gid, {}, {}, {})
        topic = s.topic("secret", gid)
        got: list[bytes] = []
        await s.subscribe(topic, got.append)
        await until(lambda: topic in s.shards.confirmed)
        assert await s.append_action(gid, 0, {"a": 0}, topic, b"before")
        await until(lambda: got == [b"before"])

        slot = game_slot(gid)
        src = s.r.get_node_from_key(topic)
        dst_port = next(p for _, p in cluster_nodes if p != src.port)
        ids = {p: (await c.execute_command("CLUSTER", "MYID")).decode() for p, c in clients.items()}
        a, b = clients[src.port], clients[dst_port]
        await b.execute_command("CLUSTER", "SETSLOT", slot, "IMPORTING", ids[src.port])
        await a.execute_command("CLUSTER", "SETSLOT", slot, "MIGRATING", ids[dst_port])
        while keys := await a.execute_command("CLUSTER", "GETKEYSINSLOT", slot, 100):
            await a.execute_command("MIGRATE", "127.0.0.1", dst_port, "", 0, 5000, "KEYS", *keys)
        for c in clients.values():
            await c.execute_command("CLUSTER", "SETSLOT", slot, "NODE", ids[dst_port])

        # (Notices published until the new subscription is confirmed would be missed: a runtime
        # catches up from the log at its next notice.)
        await until(lambda: s.shards.confirmed.get(topic) == f"127.0.0.1:{dst_port}", 10)
        assert await s.append_action(gid, 1, {"a": 1}, topic, b"after")   # (the client follows MOVED)
        await until(lambda: got == [b"before", b"after"])
        assert await s.log_len(gid) == 2
        shard = await b.execute_command("PUBSUB", "SHARDCHANNELS", s.prefix + "*")
        assert [x.decode() for x in shard] == [topic]
        assert not await a.execute_command("PUBSUB", "SHARDCHANNELS", s.prefix + "*")
    finally:
        await s.destroy()
        await s.close()
        for c in clients.values():
            await c.aclose()


def lose_a_cancellation(ps) -> list[int]:
    """Make the pub/sub ``ps`` lose the first cancellation that reaches its ``get_message``, as
    redis-py's ``asyncio.wait_for`` does on Python 3.11 when the cancellation lands as the call
    completes: the call returns as if nothing happened.  Returns (the calls begun since, those
    lost)."""
    real, begun, lost = ps.get_message, [], []

    async def get_message(*args, **kwargs):
        begun.append(1)
        try:
            return await real(*args, **kwargs)
        except asyncio.CancelledError:
            if lost:
                raise
            lost.append(1)
            return None

    ps.get_message = get_message
    return begun, lost


@pytest.mark.parametrize("kind", [pytest.param("redis", marks=needs_redis), pytest.param("cluster", marks=needs_cluster)])
async def test_a_store_closes_though_its_pubsub_reader_loses_a_cancellation(request, kind):
    """A server stopping closes its store: the pub/sub reader (one a node on a cluster) stops even
    when its cancellation was lost inside a Redis call (before, the store's close, and the
    server's stop with it, waited for ever)."""
    url = REDIS_URL if kind == "redis" else request.getfixturevalue("cluster_url")
    s = RedisStore(url, unique_prefix("close"))
    await s.start()
    got: list[bytes] = []
    topic = s.topic("public", "g1")
    await s.subscribe(topic, got.append)
    if s.cluster:
        await until(lambda: topic in s.shards.confirmed)
    readers = list(s.shards.nodes.values()) if s.cluster else [s.ps]
    faults = [lose_a_cancellation(ps) for ps in readers]
    await until(lambda: all(begun for begun, _ in faults), 5)     # (each reader waits in the call)
    loop = asyncio.get_running_loop()
    t0 = loop.time()
    await asyncio.wait_for(s.close(), 10)
    assert loop.time() - t0 < 3
    assert [lost for _, lost in faults] == [[1]] * len(readers)     # (each reader lost one)


async def test_small_records_and_one_time_codes(store):
    """The per-game records of issue 16 (deadlines, pauses, settings: ``hash_put``/``hash_all``,
    an atomic ``hash_incr``) and the e-mail links' one-time codes (read once, then gone)."""
    await store.create_game("g1", {}, {}, {})
    await store.hash_put("g1", "timers", {"seat:A": [1000, 0], "_shift": 0})
    await store.hash_put("g1", "timers", {"seat:A": None, "phase:1:first": [2000, 0]})
    assert await store.hash_all("g1", "timers") == {"_shift": 0, "phase:1:first": [2000, 0]}
    assert await store.hash_all("g2", "timers") == {}                  # (another game's record)
    got = await asyncio.gather(*(store.hash_incr("g1", "timers", "_shift", 250) for _ in range(20)))
    assert sorted(got) == list(range(250, 5001, 250))                  # each increment seen once
    assert await store.hash_incr("g1", "paused", "A", -5) == -5
    await store.put_code("login:abc", {"game": "g1", "seat": "A"}, 30)
    await store.put_code("login:old", {"game": "g1", "seat": "B"}, 0.05)
    assert await store.take_code("login:abc") == {"game": "g1", "seat": "A"}
    assert await store.take_code("login:abc") is None                 # used once
    await asyncio.sleep(0.2)
    assert await store.take_code("login:old") is None                 # expired


async def test_snapshots_come_back_as_saved_and_redis_keeps_them_compressed(store):
    """A finished game's snapshot (``Game.to_bytes``, its log included) comes back byte for byte
    and loads; Redis keeps it compressed (a sixth of the size: a game leaves a snapshot every 100
    actions), and a snapshot an older server stored uncompressed still loads."""
    from rcw.bots import make_agent
    from rcw.bots.match import Match

    from rcw.game import Game

    g = Game.new(5, 1, {"max_turns": 20})
    Match(g, {p: make_agent("sdt", p, 1) for p in g.seats}).play()
    data = g.to_bytes()
    await store.create_game("g1", {}, {}, {})
    await store.save_snapshot("g1", 100, b"\x81\xa1v\x01")       # (an earlier one: the nearest is taken)
    await store.save_snapshot("g1", len(g.log), data)
    seq, got = await store.snapshot_before("g1", 10_000)
    assert seq == len(g.log) and got == data
    assert Game.from_bytes(got).state_hash() == g.state_hash()
    assert (await store.snapshot_before("g1", 150))[0] == 100 and await store.snapshot_before("g1", 99) is None
    if isinstance(store, RedisStore):
        (kept,) = await store.r.zrangebyscore(store.gk("g1", "snaps"), len(g.log), len(g.log))
        assert len(kept) * 4 < len(data), (len(kept), len(data))
        await store.r.zadd(store.gk("g1", "snaps"), {data: len(g.log) + 1})      # as an older server stored it
        seq, got = await store.snapshot_before("g1", 10_000)
        assert seq == len(g.log) + 1 and got == data


async def test_a_forgotten_game_leaves_nothing_behind_and_the_others_stay(store):
    """``rcw archive`` deletes a game once its record is kept elsewhere: everything the store
    keeps of it goes (log, snapshots, channels, chat, pacts, small records), the other games stay."""
    for gid in ("gone", "kept"):
        await store.create_game(gid, {"id": gid}, {"A": {"kind": "open"}}, {"public": {"name": "public"}})
        assert await store.append_action(gid, 0, {"a": 1}, store.topic("t", gid), b"n")
        await store.save_snapshot(gid, 1, b"position")
        await store.chat_append(gid, "public", {"seat": "A", "text": "hi"}, store.topic("t", gid))
        await store.add_pact(gid, "A-B:1", {"a": "A", "b": "B"})
        await store.hash_put(gid, "seen", {"A": 1})
    await store.mark_over("gone")
    assert await store.forget_game("gone") == 9      # (meta, seats, channels, log, snapshots, chat, pacts, seen, the index)
    assert await store.game_ids(live_only=False) == ["kept"]
    assert await store.load_meta("gone") is None and await store.log_len("gone") == 0
    assert await store.snapshot_before("gone", 5) is None and await store.chat_len("gone", "public") == 0
    assert await store.load_pacts("gone") == {} and await store.hash_all("gone", "seen") == {}
    assert await store.load_channels("gone") == {} and await store.load_seats("gone") == {}
    assert await store.forget_game("gone") == 0
    assert await store.log_len("kept") == 1 and await store.chat_len("kept", "public") == 1
    assert await store.hash_all("kept", "seen") == {"A": 1} and await store.game_ids() == ["kept"]


async def test_a_forgotten_game_takes_no_more_chat_or_presence(store):
    """A process that still had the game open when it was archived may write to its records after
    the deletion (a chat message, a page's presence or last look, a channel, a pact): refused
    (``unknown_game``), nothing is written."""
    await store.create_game("gone", {"id": "gone"}, {"A": {"kind": "open"}}, {"public": {"name": "public"}})
    await store.hash_incr("gone", "present", "A|proc", 1)
    assert await store.forget_game("gone") > 0 and await store.load_meta("gone") is None
    got: list[bytes] = []
    topic = store.topic("t", "gone")
    await store.subscribe(topic, got.append)
    for write in (store.chat_append("gone", "public", {"seat": "A", "text": "still there?"}, topic),
                  store.hash_incr("gone", "present", "A|proc", -1),
                  store.hash_put("gone", "seen", {"A": 12}),
                  store.add_channel("gone", "A-B", {"name": "A-B", "members": ["A", "B"]}),
                  store.add_pact("gone", "A-B:1", {"a": "A", "b": "B"}),
                  store.update_pact("gone", "A-B:1", {"a": "A", "b": "B", "broken": {}}),
                  store.save_snapshot("gone", 1, b"position")):
        with pytest.raises(ProtocolError) as e:
            await write
        assert e.value.code == "unknown_game"
    await asyncio.sleep(0.2)
    assert got == [] and await store.chat_len("gone", "public") == 0 and await store.hash_all("gone", "present") == {}
    assert await store.hash_all("gone", "seen") == {} and await store.load_pacts("gone") == {}
    assert await store.load_channels("gone") == {} and await store.snapshot_before("gone", 5) is None
    assert await store.forget_game("gone") == 0
    await store.hash_put(GLOBAL, "procs", {"p1": 5})        # (a record of no game is never refused)
    assert await store.hash_all(GLOBAL, "procs") == {"p1": 5}


@needs_cluster
async def test_a_cluster_node_with_a_database_number_says_a_cluster_has_only_database_0(cluster_nodes):
    """QA as an operator: ``--redis redis://<cluster node>/3`` failed with Redis's raw "SELECT is
    not allowed in cluster mode"; the node is found a cluster's (asked on database 0) and the
    error says what to write."""
    host, port = cluster_nodes[0]
    s = RedisStore(f"redis://{host}:{port}/3", unique_prefix("db3"))
    with pytest.raises(ValueError, match="a Redis Cluster has only database 0"):
        await s.start()


@pytest.mark.skipif(shutil.which("redis-server") is None, reason="redis-server is not installed")
async def test_a_redis_on_a_unix_socket_is_served(tmp_path):
    """Review: the question whether a Redis is a cluster node (asked of database 0) rewrote a
    ``unix://`` URL's path and broke it."""
    sock = tmp_path / "redis.sock"
    proc = subprocess.Popen(["redis-server", "--port", "0", "--unixsocket", str(sock), "--save", "", "--appendonly", "no",
                             "--dir", str(tmp_path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            if sock.exists():
                break
            await asyncio.sleep(0.05)
        s = RedisStore(f"unix://{sock}?db=2", unique_prefix("unix"))
        await s.start()
        try:
            assert s.mode == "single"
            await s.put_code("c", {"x": 1}, 60)
            assert await s.take_code("c") == {"x": 1}
        finally:
            await s.close()
    finally:
        proc.terminate()
        proc.wait(10)
