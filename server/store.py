"""Storage and broker: where games, seats, action logs and chat live, and how processes talk.

Two implementations of one interface:

* :class:`MemoryStore` - everything in this process (dicts and in-process pub/sub).  The
  default of ``rcw serve``: nothing else to install, one process, nothing survives a restart.
* :class:`RedisStore` - Redis (``redis.asyncio``).  Games, seats, action logs and chat
  history are Redis lists and hashes; live fan-out between processes is Redis pub/sub.
  Several processes may serve the same games; a restarted process resumes them.

Concurrency model (both stores): the action log of a game is appended *only* through
:meth:`Store.append_action`, which appends iff the log still has the length the writer
expected and publishes the notice in the same atomic step (a Lua script on Redis).  Any
process may apply a player's action: it validates the action on its replica of the game,
appends conditionally, and on a lost race rebuilds its replica from the log and retries
(optimistic concurrency).  Chat messages are appended with :meth:`Store.chat_append`, which
assigns the next id and publishes in the same atomic step, so every process sees a channel's
messages in id order.  A per-game *driver lease* (:meth:`Store.lease`) decides which single
process runs the game's bots and decision deadlines; correctness never depends on it.

Everything stored is msgpack.  Key layout under the prefix ``P`` (default ``rcw:``)::

    P games              ZSET  game id -> creation time (every game)
    P live               SET   ids of games not over
    P g:<id>:meta        STR   game settings (players, seed, options, secrets, admin token hash)
    P g:<id>:seats       HASH  seat letter -> seat record
    P g:<id>:log         LIST  accepted actions, wire form, in order (the game is seed + this)
    P g:<id>:chans       HASH  channel name -> channel record (members, pub/sub secret)
    P g:<id>:chat:<name> LIST  the channel's messages; message id = position + 1
    P g:<id>:groups      STR   counter for group channel names
    P lease:<id>         STR   the driver lease (owner process id, expires)
    P rate:<id>:<seat>   HASH  the seat's chat token bucket (tokens, time; expires when full)
    P ps:<secret>        pub/sub topic (a game's or a channel's random secret; never the game id)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

from rcw.server.protocol import pack, unpack

log = logging.getLogger("rcw.server.store")

Callback = Callable[[bytes], None]


class Store(ABC):
    """The storage/broker interface the server is written against."""

    kind: str = "abstract"
    #: True when other processes may write the same games (replicas must re-read the log).
    shared: bool = False

    def __init__(self, prefix: str = "rcw:") -> None:
        self.prefix = prefix

    def topic(self, secret: str) -> str:
        """The pub/sub topic for a game or channel secret."""
        return f"{self.prefix}ps:{secret}"

    async def start(self) -> None:  # noqa: B027 - optional hook
        pass

    async def close(self) -> None:  # noqa: B027 - optional hook
        pass

    # -- games -----------------------------------------------------------------------------
    @abstractmethod
    async def create_game(self, gid: str, meta: dict, seats: dict[str, dict], channels: dict[str, dict]) -> None: ...

    @abstractmethod
    async def game_ids(self, live_only: bool = True) -> list[str]: ...

    @abstractmethod
    async def load_meta(self, gid: str) -> dict | None: ...

    @abstractmethod
    async def load_seats(self, gid: str) -> dict[str, dict]: ...

    @abstractmethod
    async def cas_seat(self, gid: str, seat: str, expected: dict, new: dict) -> bool:
        """Replace a seat record iff it still equals ``expected``."""

    @abstractmethod
    async def mark_over(self, gid: str) -> None: ...

    # -- the action log ------------------------------------------------------------------------
    @abstractmethod
    async def log_len(self, gid: str) -> int: ...

    @abstractmethod
    async def log_range(self, gid: str, start: int, stop: int | None = None) -> list[dict]:
        """Entries ``start`` (0-based) up to ``stop`` (exclusive; None: the end)."""

    @abstractmethod
    async def append_action(self, gid: str, expected_len: int, entry: dict, topic: str, notice: bytes) -> bool:
        """Append ``entry`` iff the log has ``expected_len`` entries, and publish ``notice``
        on ``topic`` in the same atomic step.  False: someone else appended first."""

    # -- chat --------------------------------------------------------------------------------
    @abstractmethod
    async def load_channels(self, gid: str) -> dict[str, dict]: ...

    @abstractmethod
    async def add_channel(self, gid: str, name: str, rec: dict) -> None: ...

    @abstractmethod
    async def next_group_id(self, gid: str) -> int: ...

    @abstractmethod
    async def chat_append(self, gid: str, channel: str, msg: dict, topic: str) -> int:
        """Store a message, give it the next id of its channel, publish ``id|packed`` on
        ``topic`` in the same atomic step; returns the id (1, 2, ...)."""

    @abstractmethod
    async def chat_range(self, gid: str, channel: str, after: int, limit: int) -> list[dict]:
        """Messages with id > ``after``, oldest first, at most ``limit``, each with its ``id``."""

    @abstractmethod
    async def chat_len(self, gid: str, channel: str) -> int: ...

    # -- pub/sub -----------------------------------------------------------------------------
    @abstractmethod
    async def publish(self, topic: str, data: bytes) -> None: ...

    @abstractmethod
    async def subscribe(self, topic: str, cb: Callback) -> None: ...

    @abstractmethod
    async def unsubscribe(self, topic: str, cb: Callback) -> None: ...

    # -- leases --------------------------------------------------------------------------------
    @abstractmethod
    async def lease(self, name: str, owner: str, ttl: float) -> bool:
        """Take or renew the lease ``name`` for ``ttl`` seconds; False if another owner holds it."""

    @abstractmethod
    async def release(self, name: str, owner: str) -> None: ...

    # -- rate limits ---------------------------------------------------------------------------
    @abstractmethod
    async def take_token(self, key: str, rate: float, burst: float) -> bool:
        """Token bucket ``key`` (``burst`` tokens, refilled at ``rate`` per second): take one
        token, or return False if none is left.  Shared by every process of the store."""


def split_chat_notice(data: bytes) -> tuple[int, dict]:
    """A chat notice is ``b"<id>|" + packed message``."""
    head, _, body = data.partition(b"|")
    msg = unpack(body)
    msg["id"] = int(head)
    return msg["id"], msg


# ============================================================================================
class MemoryStore(Store):
    """Everything in this process.  Pub/sub callbacks run on the next loop iteration, like a
    network broker's would, so code paths match :class:`RedisStore`."""

    kind = "memory"
    shared = False

    def __init__(self, prefix: str = "rcw:") -> None:
        super().__init__(prefix)
        self.meta: dict[str, bytes] = {}
        self.seats: dict[str, dict[str, bytes]] = {}
        self.logs: dict[str, list[bytes]] = {}
        self.chans: dict[str, dict[str, bytes]] = {}
        self.chat: dict[tuple[str, str], list[bytes]] = {}
        self.groups: dict[str, int] = {}
        self.created: dict[str, float] = {}
        self.live: set[str] = set()
        self.subs: dict[str, list[Callback]] = {}
        self.leases: dict[str, tuple[str, float]] = {}
        self.buckets: dict[str, tuple[float, float]] = {}

    async def create_game(self, gid, meta, seats, channels):
        self.meta[gid] = pack(meta)
        self.seats[gid] = {k: pack(v) for k, v in seats.items()}
        self.chans[gid] = {k: pack(v) for k, v in channels.items()}
        self.logs[gid] = []
        self.created[gid] = time.time()
        self.live.add(gid)

    async def game_ids(self, live_only=True):
        ids = sorted(self.created, key=self.created.__getitem__)
        return [g for g in ids if g in self.live] if live_only else ids

    async def load_meta(self, gid):
        raw = self.meta.get(gid)
        return unpack(raw) if raw is not None else None

    async def load_seats(self, gid):
        return {k: unpack(v) for k, v in sorted(self.seats.get(gid, {}).items())}

    async def cas_seat(self, gid, seat, expected, new):
        cur = self.seats.get(gid, {}).get(seat)
        if cur != pack(expected):
            return False
        self.seats[gid][seat] = pack(new)
        return True

    async def mark_over(self, gid):
        self.live.discard(gid)

    async def log_len(self, gid):
        return len(self.logs.get(gid, ()))

    async def log_range(self, gid, start, stop=None):
        return [unpack(x) for x in self.logs.get(gid, [])[start:stop]]

    async def append_action(self, gid, expected_len, entry, topic, notice):
        lst = self.logs[gid]
        if len(lst) != expected_len:
            return False
        lst.append(pack(entry))
        await self.publish(topic, notice)
        return True

    async def load_channels(self, gid):
        return {k: unpack(v) for k, v in self.chans.get(gid, {}).items()}

    async def add_channel(self, gid, name, rec):
        self.chans[gid][name] = pack(rec)

    async def next_group_id(self, gid):
        self.groups[gid] = self.groups.get(gid, 0) + 1
        return self.groups[gid]

    async def chat_append(self, gid, channel, msg, topic):
        lst = self.chat.setdefault((gid, channel), [])
        body = pack(msg)
        lst.append(body)
        n = len(lst)
        await self.publish(topic, str(n).encode() + b"|" + body)
        return n

    async def chat_range(self, gid, channel, after, limit):
        lst = self.chat.get((gid, channel), [])
        out = []
        for i in range(max(after, 0), min(len(lst), max(after, 0) + limit)):
            m = unpack(lst[i])
            m["id"] = i + 1
            out.append(m)
        return out

    async def chat_len(self, gid, channel):
        return len(self.chat.get((gid, channel), ()))

    async def publish(self, topic, data):
        loop = asyncio.get_running_loop()
        for cb in list(self.subs.get(topic, ())):
            loop.call_soon(_safe_call, cb, data)

    async def subscribe(self, topic, cb):
        self.subs.setdefault(topic, []).append(cb)

    async def unsubscribe(self, topic, cb):
        cbs = self.subs.get(topic, [])
        if cb in cbs:
            cbs.remove(cb)
        if not cbs:
            self.subs.pop(topic, None)

    async def lease(self, name, owner, ttl):
        now = time.monotonic()
        cur = self.leases.get(name)
        if cur is None or cur[0] == owner or cur[1] < now:
            self.leases[name] = (owner, now + ttl)
            return True
        return False

    async def release(self, name, owner):
        cur = self.leases.get(name)
        if cur and cur[0] == owner:
            del self.leases[name]

    async def take_token(self, key, rate, burst):
        now = time.monotonic()
        tokens, last = self.buckets.get(key, (burst, now))
        tokens = min(burst, tokens + (now - last) * rate)
        ok = tokens >= 1.0
        self.buckets[key] = (tokens - 1.0 if ok else tokens, now)
        if len(self.buckets) > 100_000:   # forget idle buckets (they would be full anyway)
            self.buckets = {k: v for k, v in self.buckets.items() if now - v[1] < burst / max(rate, 1e-9)}
        return ok


def _safe_call(cb: Callback, data: bytes) -> None:
    try:
        cb(data)
    except Exception:  # a subscriber's bug must not break the broker
        log.exception("pub/sub callback failed")


# ============================================================================================
_APPEND_ACTION = """
if redis.call('LLEN', KEYS[1]) ~= tonumber(ARGV[1]) then return 0 end
redis.call('RPUSH', KEYS[1], ARGV[2])
redis.call('PUBLISH', ARGV[3], ARGV[4])
return 1
"""

_CHAT_APPEND = """
local n = redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('PUBLISH', ARGV[2], tostring(n) .. '|' .. ARGV[1])
return n
"""

_CAS_HASH = """
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
  return 1
end
return 0
"""

_LEASE = """
local v = redis.call('GET', KEYS[1])
if not v then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
if v == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

# A token bucket on the Redis server's clock (so every process shares one bucket per key).
_TAKE_TOKEN = """
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local v = redis.call('HMGET', KEYS[1], 'n', 't')
local tok, ts = tonumber(v[1]), tonumber(v[2])
if tok == nil or ts == nil then tok, ts = burst, now end
tok = math.min(burst, tok + math.max(0, now - ts) * rate)
local ok = 0
if tok >= 1 then tok = tok - 1; ok = 1 end
redis.call('HSET', KEYS[1], 'n', string.format('%.6f', tok), 't', string.format('%.6f', now))
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return ok
"""


class RedisStore(Store):
    """Games and chat in Redis; live fan-out through Redis pub/sub (one subscriber
    connection per process, one reader task dispatching to callbacks)."""

    kind = "redis"
    shared = True

    def __init__(self, url: str = "redis://127.0.0.1:6379/0", prefix: str = "rcw:") -> None:
        super().__init__(prefix)
        self.url = url
        self.r: Any = None
        self.ps: Any = None
        self.subs: dict[str, list[Callback]] = {}
        self._reader: asyncio.Task | None = None
        self._sub_lock = asyncio.Lock()

    def k(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    async def start(self) -> None:
        import redis.asyncio as aioredis

        self.r = aioredis.Redis.from_url(self.url)
        await self.r.ping()
        self._append = self.r.register_script(_APPEND_ACTION)
        self._chat = self.r.register_script(_CHAT_APPEND)
        self._cas = self.r.register_script(_CAS_HASH)
        self._lease = self.r.register_script(_LEASE)
        self._release = self.r.register_script(_RELEASE)
        self._take = self.r.register_script(_TAKE_TOKEN)
        self.ps = self.r.pubsub(ignore_subscribe_messages=True)
        # One subscription always exists so the reader never spins on an idle connection.
        await self.ps.subscribe(self.prefix + "ps:-")
        self._reader = asyncio.create_task(self._read_loop(), name="redis-pubsub-reader")

    async def close(self) -> None:
        if self._reader:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
        if self.ps is not None:
            with contextlib.suppress(Exception):
                await self.ps.aclose()
        if self.r is not None:
            with contextlib.suppress(Exception):
                await self.r.aclose()

    async def _read_loop(self) -> None:
        while True:
            try:
                m = await self.ps.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("pub/sub read failed; retrying")
                await asyncio.sleep(0.5)
                continue
            if not m or m.get("type") != "message":
                continue
            ch = m["channel"]
            topic = ch.decode() if isinstance(ch, bytes) else ch
            for cb in list(self.subs.get(topic, ())):
                _safe_call(cb, m["data"])

    # -- games -----------------------------------------------------------------------------
    async def create_game(self, gid, meta, seats, channels):
        p = self.r.pipeline(transaction=True)
        p.set(self.k("g", gid, "meta"), pack(meta))
        if seats:
            p.hset(self.k("g", gid, "seats"), mapping={k: pack(v) for k, v in seats.items()})
        if channels:
            p.hset(self.k("g", gid, "chans"), mapping={k: pack(v) for k, v in channels.items()})
        p.zadd(self.k("games"), {gid: time.time()})
        p.sadd(self.k("live"), gid)
        await p.execute()

    async def game_ids(self, live_only=True):
        ids = [x.decode() for x in await self.r.zrange(self.k("games"), 0, -1)]
        if not live_only:
            return ids
        live = {x.decode() for x in await self.r.smembers(self.k("live"))}
        return [g for g in ids if g in live]

    async def load_meta(self, gid):
        raw = await self.r.get(self.k("g", gid, "meta"))
        return unpack(raw) if raw is not None else None

    async def load_seats(self, gid):
        raw = await self.r.hgetall(self.k("g", gid, "seats"))
        return {k.decode(): unpack(v) for k, v in sorted(raw.items())}

    async def cas_seat(self, gid, seat, expected, new):
        return bool(await self._cas(keys=[self.k("g", gid, "seats")], args=[seat, pack(expected), pack(new)]))

    async def mark_over(self, gid):
        await self.r.srem(self.k("live"), gid)

    async def log_len(self, gid):
        return int(await self.r.llen(self.k("g", gid, "log")))

    async def log_range(self, gid, start, stop=None):
        end = -1 if stop is None else stop - 1
        if stop is not None and stop <= start:
            return []
        return [unpack(x) for x in await self.r.lrange(self.k("g", gid, "log"), start, end)]

    async def append_action(self, gid, expected_len, entry, topic, notice):
        return bool(await self._append(keys=[self.k("g", gid, "log")],
                                       args=[expected_len, pack(entry), topic, notice]))

    # -- chat --------------------------------------------------------------------------------
    async def load_channels(self, gid):
        raw = await self.r.hgetall(self.k("g", gid, "chans"))
        return {k.decode(): unpack(v) for k, v in raw.items()}

    async def add_channel(self, gid, name, rec):
        await self.r.hset(self.k("g", gid, "chans"), name, pack(rec))

    async def next_group_id(self, gid):
        return int(await self.r.incr(self.k("g", gid, "groups")))

    async def chat_append(self, gid, channel, msg, topic):
        return int(await self._chat(keys=[self.k("g", gid, "chat", channel)], args=[pack(msg), topic]))

    async def chat_range(self, gid, channel, after, limit):
        start = max(after, 0)
        raw = await self.r.lrange(self.k("g", gid, "chat", channel), start, start + limit - 1)
        out = []
        for i, x in enumerate(raw):
            m = unpack(x)
            m["id"] = start + i + 1
            out.append(m)
        return out

    async def chat_len(self, gid, channel):
        return int(await self.r.llen(self.k("g", gid, "chat", channel)))

    # -- pub/sub -----------------------------------------------------------------------------
    async def publish(self, topic, data):
        await self.r.publish(topic, data)

    async def subscribe(self, topic, cb):
        async with self._sub_lock:
            first = topic not in self.subs
            self.subs.setdefault(topic, []).append(cb)
            if first:
                await self.ps.subscribe(topic)

    async def unsubscribe(self, topic, cb):
        async with self._sub_lock:
            cbs = self.subs.get(topic, [])
            if cb in cbs:
                cbs.remove(cb)
            if not cbs and topic in self.subs:
                del self.subs[topic]
                await self.ps.unsubscribe(topic)

    # -- leases --------------------------------------------------------------------------------
    async def lease(self, name, owner, ttl):
        return bool(await self._lease(keys=[self.k("lease", name)], args=[owner, max(1, int(ttl * 1000))]))

    async def release(self, name, owner):
        await self._release(keys=[self.k("lease", name)], args=[owner])

    async def take_token(self, key, rate, burst):
        if rate == float("inf") or burst == float("inf"):
            return True
        ttl_ms = int(min(86_400.0, burst / max(rate, 1e-9)) * 1000) + 1000   # a full bucket needs no key
        return bool(await self._take(keys=[self.k("rate", key)], args=[repr(float(rate)), repr(float(burst)), ttl_ms]))

    # -- maintenance (tests, benchmarks) ---------------------------------------------------
    async def destroy(self) -> int:
        """Delete every key under this store's prefix; returns how many."""
        n = 0
        async for key in self.r.scan_iter(match=self.prefix + "*", count=500):
            n += await self.r.delete(key)
        return n


def make_store(redis_url: str | None, prefix: str = "rcw:") -> Store:
    return RedisStore(redis_url, prefix) if redis_url else MemoryStore(prefix)
