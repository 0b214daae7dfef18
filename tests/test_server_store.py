"""The two stores keep the same promises: conditional appends of the action log, chat ids in
order with the notice published in the same step, seat compare-and-set, exclusive leases."""

from __future__ import annotations

import asyncio

import pytest
from rcw.server.protocol import pack, unpack
from rcw.server.store import MemoryStore, RedisStore, split_chat_notice
from server_helpers import REDIS_URL, redis_reachable, unique_prefix

needs_redis = pytest.mark.skipif(not redis_reachable(), reason="no Redis on 127.0.0.1:6379")


@pytest.fixture(params=["memory", pytest.param("redis", marks=needs_redis)])
async def store(request):
    s = MemoryStore() if request.param == "memory" else RedisStore(REDIS_URL, unique_prefix("store"))
    await s.start()
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
    await store.subscribe("t1", got.append)
    assert await store.append_action("g1", 0, {"a": 1}, "t1", b"n1")
    assert not await store.append_action("g1", 0, {"a": "loser"}, "t1", b"lost")   # someone else was first
    assert await store.append_action("g1", 1, {"a": 2}, "t1", b"n2")
    assert await store.log_len("g1") == 2
    assert await store.log_range("g1", 0) == [{"a": 1}, {"a": 2}]
    assert await store.log_range("g1", 1) == [{"a": 2}]
    assert await store.log_range("g1", 0, 1) == [{"a": 1}]
    assert await store.log_range("g1", 1, 1) == []
    await until(lambda: len(got) == 2)
    assert got == [b"n1", b"n2"]                     # only successful appends are announced, in order


async def test_racing_appends_keep_exactly_one_winner_per_position(store):
    await store.create_game("g2", {}, {}, {})
    results = await asyncio.gather(*(store.append_action("g2", 0, {"w": i}, "t", b"") for i in range(10)))
    assert sum(results) == 1 and await store.log_len("g2") == 1


async def test_chat_ids_are_assigned_in_order_and_published_with_the_message(store):
    await store.create_game("g3", {}, {}, {"public": {"name": "public"}})
    got: list[tuple[int, dict]] = []
    await store.subscribe("chat-topic", lambda d: got.append(split_chat_notice(d)))
    ids = [await store.chat_append("g3", "public", {"seat": "A", "text": f"m{i}"}, "chat-topic") for i in range(5)]
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
    assert [await store.next_group_id("g5") for _ in range(3)] == [1, 2, 3]


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
