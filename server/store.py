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

    P games                ZSET  game id -> creation time (every game)
    P live                 SET   ids of games not over
    P {g:<id>}:meta        STR   game settings (players, seed, options, secrets, admin token hash)
    P {g:<id>}:seats       HASH  seat letter -> seat record
    P {g:<id>}:log         LIST  accepted actions, in order (the game is seed + this): each entry the
                                 action's wire form, who chose it, when, and the events it caused
    P {g:<id>}:snaps       ZSET  snapshots of the game (Game.to_bytes, zlib-compressed: a sixth of
                                 the size; one stored uncompressed by an older server still loads),
                                 scored by their seq: one every ``snapshot_every`` actions, so a
                                 replica or a past view is rebuilt from the nearest snapshot plus a
                                 few actions, never from the seed
    P {g:<id>}:chans       HASH  channel name -> channel record (members, pub/sub secret)
    P {g:<id>}:chat:<name> LIST  the channel's messages; message id = position + 1
    P {g:<id>}:pacts       HASH  pact id (``<channel>:<message id>``) -> the pact made in chat (issue 18)
                                 and, once broken, its break
    P lease:<id>           STR   the driver lease (owner process id, expires)
    P rate:<id>:<seat>     HASH  the seat's chat token bucket (tokens, time; expires when full)
    P ps:{<tag>}<secret>   pub/sub topic (a game's or a channel's random secret; never the game id)

Redis Cluster: every key of one game carries the hash tag ``{g:<id>}``, so the game lives in one
hash slot and every Lua script touches that one slot; the global keys (``games``, ``live``) and
each lease and rate bucket are single-key commands or scripts.  A game's topics carry, as their
hash tag, a short ``<tag>`` that hashes to the same slot as ``g:<id>`` (:func:`slot_tag`; it is not
the game id), so the scripts that append and publish in one step stay in the game's slot; on a
cluster they publish with ``SPUBLISH`` and the store listens with ``SSUBSCRIBE`` on the node
owning each topic's slot (sharded pub/sub, Redis 7).  The same layout serves a single Redis,
which publishes with plain ``PUBLISH``.
"""

from __future__ import annotations

import asyncio
import binascii
import contextlib
import functools
import logging
import re
import time
import zlib
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

import redis.exceptions
from rcw.server.protocol import ProtocolError, pack, unpack

log = logging.getLogger("rcw.server.store")

Callback = Callable[[bytes], None]
#: ``(operation, seconds)``: told the round-trip time of every Redis call (metrics).
Observer = Callable[[str, float], None]


def compress_snapshot(data: bytes) -> bytes:
    """A snapshot as Redis keeps it: zlib at level 1 (a finished game's ``Game.to_bytes``, which
    holds its log, shrinks about six times, in a third of a millisecond)."""
    return zlib.compress(data, 1)


def expand_snapshot(raw: bytes) -> bytes:
    """``Game.to_bytes`` again from :func:`compress_snapshot`'s output, or from a snapshot an
    older server stored as it was (msgpack of a map: its first byte is never zlib's 0x78)."""
    return zlib.decompress(raw) if raw[:1] == b"\x78" else raw


class Store(ABC):
    """The storage/broker interface the server is written against."""

    kind: str = "abstract"
    #: ``single`` or ``cluster`` (a Redis Cluster: :class:`RedisStore`, once started).
    mode: str = "single"
    #: True when other processes may write the same games (replicas must re-read the log).
    shared: bool = False

    def __init__(self, prefix: str = "rcw:") -> None:
        self.prefix = prefix
        #: Told the round-trip time of every call to a networked store (set by the metrics).
        self.observe: Observer | None = None

    def topic(self, secret: str, gid: str) -> str:
        """The pub/sub topic for a secret of game ``gid`` (the game's own, or one of its channels')."""
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

    async def count_live(self) -> int:
        """How many games are not over (every process's)."""
        return len(await self.game_ids(live_only=True))

    @abstractmethod
    async def load_meta(self, gid: str) -> dict | None: ...

    @abstractmethod
    async def load_seats(self, gid: str) -> dict[str, dict]: ...

    @abstractmethod
    async def cas_seat(self, gid: str, seat: str, expected: dict, new: dict) -> bool:
        """Replace a seat record iff it still equals ``expected``."""

    @abstractmethod
    async def mark_over(self, gid: str) -> None: ...

    @abstractmethod
    async def forget_game(self, gid: str) -> int:
        """Delete the game and everything kept of it (its meta, seats, log, snapshots, channels,
        chat, pacts and other records): for ``rcw archive``, once its record is kept elsewhere.
        It leaves the lobby's lists first.  Returns how many keys (records) went."""

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

    @abstractmethod
    async def save_snapshot(self, gid: str, seq: int, data: bytes) -> None:
        """Keep ``data`` (``Game.to_bytes()``) as the game after its first ``seq`` actions.
        Refused (``unknown_game``) for an archived game."""

    @abstractmethod
    async def snapshot_before(self, gid: str, seq: int) -> tuple[int, bytes] | None:
        """The stored snapshot with the greatest seq <= ``seq`` (None: there is none)."""

    # -- chat --------------------------------------------------------------------------------
    @abstractmethod
    async def load_channels(self, gid: str) -> dict[str, dict]: ...

    @abstractmethod
    async def add_channel(self, gid: str, name: str, rec: dict) -> None:
        """Keep a channel opened in play.  Like every write to a game's records (the log's append
        and a seat's compare-and-set fail on their own), refused with ProtocolError
        ``unknown_game`` once the game is no longer in the store (archived): nothing is written."""

    @abstractmethod
    async def chat_append(self, gid: str, channel: str, msg: dict, topic: str) -> int:
        """Store a message, give it the next id of its channel, publish ``id|packed`` on
        ``topic`` in the same atomic step; returns the id (1, 2, ...).  A game no longer in the
        store (archived) keeps nothing: ProtocolError ``unknown_game``."""

    @abstractmethod
    async def chat_range(self, gid: str, channel: str, after: int, limit: int) -> list[dict]:
        """Messages with id > ``after``, oldest first, at most ``limit``, each with its ``id``."""

    @abstractmethod
    async def chat_len(self, gid: str, channel: str) -> int: ...

    # -- pacts (issue 18: the engine knows nothing of them, so they are kept here) ------------
    @abstractmethod
    async def add_pact(self, gid: str, pid: str, rec: dict) -> bool:
        """Keep pact ``pid`` unless it is kept already (then False: the first record stands)."""

    @abstractmethod
    async def update_pact(self, gid: str, pid: str, rec: dict) -> None:
        """Replace pact ``pid``'s record (its break)."""

    @abstractmethod
    async def load_pacts(self, gid: str) -> dict[str, dict]: ...

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

    # -- small per-game records (deadlines, pauses, notification settings; issue 16) ----------
    @abstractmethod
    async def hash_all(self, gid: str, name: str) -> dict[str, Any]:
        """Every field of the game's record ``name`` (a map of small values)."""

    @abstractmethod
    async def hash_put(self, gid: str, name: str, fields: dict[str, Any]) -> None:
        """Set fields of the game's record ``name`` (a value None deletes its field); ``gid``
        GLOBAL: a record of no game.  Refused (``unknown_game``) for an archived game."""

    @abstractmethod
    async def hash_incr(self, gid: str, name: str, key: str, by: int) -> int:
        """Add ``by`` to the integer field ``key`` of the game's record ``name`` atomically; its new
        value.  A game no longer in the store (archived) keeps nothing: ProtocolError ``unknown_game``."""

    @abstractmethod
    async def put_code(self, code: str, value: dict, ttl: float) -> None:
        """Keep ``value`` under a one-time ``code`` for ``ttl`` seconds (e-mail links)."""

    @abstractmethod
    async def take_code(self, code: str) -> dict | None:
        """The value kept under ``code``, deleted as it is read (None: unknown, used or expired)."""

    async def check(self) -> None:  # noqa: B027 - a store in this process is always there
        """Raise if the store cannot serve every game now (``/healthz``, ``rcw_store_up``)."""

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
        self.snaps: dict[str, dict[int, bytes]] = {}
        self.chans: dict[str, dict[str, bytes]] = {}
        self.chat: dict[tuple[str, str], list[bytes]] = {}
        self.pacts: dict[str, dict[str, bytes]] = {}
        self.created: dict[str, float] = {}
        self.live: set[str] = set()
        self.subs: dict[str, list[Callback]] = {}
        self.leases: dict[str, tuple[str, float]] = {}
        self.buckets: dict[str, tuple[float, float]] = {}
        self.hashes: dict[tuple[str, str], dict[str, bytes]] = {}
        self.codes: dict[str, tuple[bytes, float]] = {}

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

    async def forget_game(self, gid):
        self.live.discard(gid)
        n = int(self.created.pop(gid, None) is not None)
        for d in (self.meta, self.seats, self.logs, self.snaps, self.chans, self.pacts):
            n += d.pop(gid, None) is not None
        for d in (self.chat, self.hashes):
            for k in [k for k in d if k[0] == gid]:
                del d[k]
                n += 1
        return n

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

    async def save_snapshot(self, gid, seq, data):
        self._check(gid)
        self.snaps.setdefault(gid, {})[seq] = data

    async def snapshot_before(self, gid, seq):
        snaps = self.snaps.get(gid, {})
        best = max((n for n in snaps if n <= seq), default=None)
        return None if best is None else (best, snaps[best])

    async def load_channels(self, gid):
        return {k: unpack(v) for k, v in self.chans.get(gid, {}).items()}

    def _check(self, gid: str) -> None:
        """A write to a game no longer here (archived) is refused (RedisStore's scripts)."""
        if gid != GLOBAL and gid not in self.meta:
            raise _no_game(gid)

    async def add_channel(self, gid, name, rec):
        self._check(gid)
        self.chans[gid][name] = pack(rec)

    async def chat_append(self, gid, channel, msg, topic):
        self._check(gid)
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

    async def add_pact(self, gid, pid, rec):
        self._check(gid)
        book = self.pacts.setdefault(gid, {})
        if pid in book:
            return False
        book[pid] = pack(rec)
        return True

    async def update_pact(self, gid, pid, rec):
        self._check(gid)
        self.pacts.setdefault(gid, {})[pid] = pack(rec)

    async def load_pacts(self, gid):
        return {k: unpack(v) for k, v in self.pacts.get(gid, {}).items()}

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

    async def hash_all(self, gid, name):
        return {k: unpack(v) for k, v in self.hashes.get((gid, name), {}).items()}

    async def hash_put(self, gid, name, fields):
        self._check(gid)
        h = self.hashes.setdefault((gid, name), {})
        for k, v in fields.items():
            if v is None:
                h.pop(k, None)
            else:
                h[k] = pack(v)

    async def hash_incr(self, gid, name, key, by):
        self._check(gid)
        h = self.hashes.setdefault((gid, name), {})
        n = (unpack(h[key]) if key in h else 0) + by
        h[key] = pack(n)
        return n

    async def put_code(self, code, value, ttl):
        self.codes[code] = (pack(value), time.monotonic() + ttl)

    async def take_code(self, code):
        got = self.codes.pop(code, None)
        return unpack(got[0]) if got is not None and got[1] > time.monotonic() else None

    async def take_token(self, key, rate, burst):
        now = time.monotonic()
        tokens, last = self.buckets.get(key, (burst, now))
        tokens = min(burst, tokens + (now - last) * rate)
        ok = tokens >= 1.0
        self.buckets[key] = (tokens - 1.0 if ok else tokens, now)
        if len(self.buckets) > 100_000:   # forget idle buckets (they would be full anyway)
            self.buckets = {k: v for k, v in self.buckets.items() if now - v[1] < burst / max(rate, 1e-9)}
        return ok


#: What an operation meets while Redis cannot be reached (an outage, not a fault of the server).
#: (A Redis Cluster with a master down answers CLUSTERDOWN, or TRYAGAIN while slots move: QA saw
#: them logged as tracebacks, and the bots stop.)
STORE_DOWN = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, ConnectionError,
              redis.exceptions.ClusterDownError, redis.exceptions.TryAgainError)


class Backoff:
    """A loop's retries while Redis fails: 0.5 s, doubling up to 10 s, and one warning line at the
    first failure and every 60 s of an outage (not a traceback twice a second), one info line
    when it works again."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.delay = 0.0
        self.said = 0.0
        self.since = 0.0

    async def wait(self, e: BaseException, then: str = "retrying") -> None:
        now = time.monotonic()
        if not self.delay:
            self.since = now
        if now - self.said >= 60:
            self.said = now
            log.warning("%s failed (%s: %s); %s, waiting up to 10 s between tries", self.what, type(e).__name__, e, then)
        self.delay = min(max(self.delay * 2, 0.5), 10.0)
        await asyncio.sleep(self.delay)

    def ok(self) -> None:
        if self.delay:
            log.info("%s works again after %.0f s", self.what, time.monotonic() - self.since)
            self.delay = self.said = 0.0


async def stop_task(task: asyncio.Task | None, every: float = 1.0) -> None:
    """Cancel ``task`` (a loop that talks to Redis) and wait until it is done, telling it again
    every ``every`` seconds: on Python 3.11 a cancellation that lands as an awaited call
    completes inside ``asyncio.wait_for`` (as redis-py uses for some calls) is lost, and the loop
    would go on for ever (seen with the lease loop).  The loops also stop at the end of their
    round once their owner is closing."""
    if task is None:
        return
    while not task.done():
        task.cancel()
        await asyncio.wait({task}, timeout=every)
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await task


#: The ``gid`` of the records of no game (the processes' lease rounds, rcw.server.absence.PROCS):
#: their writes are never refused as a deleted game's are.
GLOBAL = "_"


def _no_game(gid: str) -> ProtocolError:
    """What a write to a game no longer in the store meets (``rcw archive`` deleted it while a
    process still had it open): nothing is written."""
    return ProtocolError("unknown_game", f"no game {gid!r} (archived)")


def _safe_call(cb: Callback, data: bytes) -> None:
    try:
        cb(data)
    except Exception:  # a subscriber's bug must not break the broker
        log.exception("pub/sub callback failed")


# ============================================================================================
# The scripts publish with ``{pub}``: PUBLISH on a single Redis, SPUBLISH (sharded) on a cluster,
# where the topic hashes to the slot of KEYS[1] (the game's hash tag; see Store.topic).
_APPEND_ACTION = """
if redis.call('LLEN', KEYS[1]) ~= tonumber(ARGV[1]) then return 0 end
redis.call('RPUSH', KEYS[1], ARGV[2])
redis.call('{pub}', ARGV[3], ARGV[4])
return 1
"""

_CHAT_APPEND = """
if redis.call('EXISTS', KEYS[2]) == 0 then return 0 end
local n = redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('{pub}', ARGV[2], tostring(n) .. '|' .. ARGV[1])
return n
"""

# A write to a game's records (hash_put, add_channel, add_pact, update_pact, save_snapshot):
# KEYS[2], the game's meta, must still be there (rcw archive deletes it last); ARGV[1] 'zadd'
# (score ARGV[2], member ARGV[3]), 'setnx' (ARGV[2], ARGV[3]) or 'set' then field, value pairs
# (an empty value deletes the field: a packed value never is).
_GAME_WRITE = """
if #KEYS > 1 and redis.call('EXISTS', KEYS[2]) == 0 then return -1 end
if ARGV[1] == 'zadd' then return redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3]) end
if ARGV[1] == 'setnx' then return redis.call('HSETNX', KEYS[1], ARGV[2], ARGV[3]) end
for i = 2, #ARGV, 2 do
  if ARGV[i + 1] == '' then redis.call('HDEL', KEYS[1], ARGV[i]) else redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
end
return 1
"""

_CAS_HASH = """
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
  return 1
end
return 0
"""

# hash_incr: the fields are msgpack values; a msgpack integer is read and written by the script
# (cmsgpack is part of Redis's Lua).
_HASH_INCR = """
if redis.call('EXISTS', KEYS[2]) == 0 then return false end
local v = redis.call('HGET', KEYS[1], ARGV[1])
local n = tonumber(ARGV[2])
if v then n = n + cmsgpack.unpack(v) end
redis.call('HSET', KEYS[1], ARGV[1], cmsgpack.pack(n))
return n
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

#: URL schemes that select Redis Cluster explicitly (``redis://`` and ``rediss://`` ask the server).
CLUSTER_SCHEMES = {"redis+cluster": "redis", "rediss+cluster": "rediss"}


def split_redis_url(url: str) -> tuple[str, bool | None]:
    """``(the URL for redis-py, cluster)``: ``redis+cluster://`` and ``rediss+cluster://`` select a
    Redis Cluster (True); any other URL leaves it to the server (None: ask ``INFO cluster``)."""
    scheme, sep, rest = url.partition("://")
    if sep and scheme.lower() in CLUSTER_SCHEMES:
        return f"{CLUSTER_SCHEMES[scheme.lower()]}://{rest}", True
    if not sep or scheme.lower() not in ("redis", "rediss", "unix"):
        raise ValueError(f"Redis URL {url!r} must start with redis://, rediss:// or unix:// (a single Redis, "
                         "or a cluster found by asking it), or redis+cluster:// or rediss+cluster:// (a Redis Cluster)")
    return url, None


_SLOT_TAGS: dict[int, str] = {}   # hash slot -> the first hex string (0, 1, 2, ...) in that slot
_next_tag = 0                      # the next string to try


def slot_tag(slot: int) -> str:
    """The first hex string, in the order 0, 1, 2, ..., whose Redis Cluster hash slot is ``slot``:
    every process finds the same one.  The search goes on where the last one stopped, noting
    every slot it passes (all 16384 are known after about 315 000 strings, a fraction of a second)."""
    global _next_tag
    tag = _SLOT_TAGS.get(slot)
    while tag is None:
        cand = format(_next_tag, "x")
        _next_tag += 1
        s = binascii.crc_hqx(cand.encode(), 0) % 16384       # Redis Cluster's CRC16 (XMODEM)
        if s not in _SLOT_TAGS:
            _SLOT_TAGS[s] = cand
            if s == slot:
                tag = cand
    return tag


def game_slot(gid: str) -> int:
    """The hash slot of game ``gid``'s keys (their hash tag is ``g:<id>``)."""
    return binascii.crc_hqx(f"g:{gid}".encode(), 0) % 16384


def _timed(fn):
    """Report the call's round-trip time to the store's observer (if any) as ``fn``'s name."""
    op = fn.__name__

    @functools.wraps(fn)
    async def timed(self, *args, **kwargs):
        observe = self.observe
        if observe is None:
            return await fn(self, *args, **kwargs)
        t0 = time.perf_counter()
        try:
            return await fn(self, *args, **kwargs)
        finally:
            observe(op, time.perf_counter() - t0)

    return timed


class RedisStore(Store):
    """Games and chat in Redis; live fan-out through Redis pub/sub (one subscriber
    connection per process, one reader task dispatching to callbacks).

    On a Redis Cluster (``cluster``: True, or None to ask the server with ``INFO cluster`` when
    :meth:`start` connects) the client is redis-py's ``RedisCluster``, the scripts publish with
    ``SPUBLISH`` and the store listens through :class:`_ShardSubscriber` (``SSUBSCRIBE``)."""

    kind = "redis"
    shared = True

    def __init__(self, url: str = "redis://127.0.0.1:6379/0", prefix: str = "rcw:", cluster: bool | None = None) -> None:
        super().__init__(prefix)
        self.url, forced = split_redis_url(url)
        self.cluster = forced if cluster is None else cluster
        self.r: Any = None
        self.ps: Any = None
        self.shards: _ShardSubscriber | None = None
        self.subs: dict[str, list[Callback]] = {}
        self._reader: asyncio.Task | None = None
        self._closing = False           # (the reader stops at the end of its round)
        self._sub_lock = asyncio.Lock()

    @property
    def mode(self) -> str:
        """``cluster`` or ``single`` (known once started)."""
        return "cluster" if self.cluster else "single"

    def k(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    def gk(self, gid: str, *parts: str) -> str:
        """A key of game ``gid``: every one carries the hash tag ``{g:<id>}`` (one cluster slot)."""
        return f"{self.prefix}{{g:{gid}}}:" + ":".join(parts)

    def topic(self, secret: str, gid: str) -> str:
        return f"{self.prefix}ps:{{{slot_tag(game_slot(gid))}}}{secret}"

    async def start(self) -> None:
        import redis.asyncio as aioredis

        if self.cluster is None:
            self.cluster = await _cluster_enabled(self.url)
        if self.cluster:
            from redis.asyncio.cluster import RedisCluster
            from redis.asyncio.connection import parse_url

            if "{" in self.prefix or "}" in self.prefix:
                raise ValueError(f"a Redis Cluster key prefix may not contain braces: {self.prefix!r}")
            if parse_url(self.url).get("db") not in (None, 0):
                raise ValueError(f"a Redis Cluster has only database 0: {self.url}")
            self.r = RedisCluster.from_url(self.url)
            await self.r.initialize()
        else:
            self.r = aioredis.Redis.from_url(self.url)
        self._closing = False
        await self.r.ping()
        pub = "SPUBLISH" if self.cluster else "PUBLISH"
        self._append = self.r.register_script(_APPEND_ACTION.replace("{pub}", pub))
        self._chat = self.r.register_script(_CHAT_APPEND.replace("{pub}", pub))
        self._cas = self.r.register_script(_CAS_HASH)
        self._lease = self.r.register_script(_LEASE)
        self._release = self.r.register_script(_RELEASE)
        self._take = self.r.register_script(_TAKE_TOKEN)
        self._incr = self.r.register_script(_HASH_INCR)
        self._write = self.r.register_script(_GAME_WRITE)
        if self.cluster:
            for slot in range(16384):     # every slot's topic tag now (a fraction of a second, once per process)
                slot_tag(slot)
            self.shards = _ShardSubscriber(self)
            return
        self.ps = self.r.pubsub(ignore_subscribe_messages=True)
        # One subscription always exists so the reader never spins on an idle connection.
        await self.ps.subscribe(self.prefix + "ps:-")
        self._reader = asyncio.create_task(self._read_loop(), name="redis-pubsub-reader")

    async def close(self) -> None:
        self._closing = True
        await stop_task(self._reader)
        if self.shards is not None:
            await self.shards.close()
        if self.ps is not None:
            with contextlib.suppress(Exception):
                await self.ps.aclose()
        if self.r is not None:
            with contextlib.suppress(Exception):
                await self.r.aclose()

    async def _read_loop(self) -> None:
        failing = Backoff("pub/sub read")
        while not self._closing:
            try:
                m = await self.ps.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                await failing.wait(e)
                continue
            failing.ok()
            if not m or m.get("type") != "message":
                continue
            self.dispatch(m["channel"], m["data"])

    def dispatch(self, channel: bytes | str, data: bytes) -> None:
        """A message arrived on a topic: every callback subscribed to it here gets it."""
        topic = channel.decode() if isinstance(channel, bytes) else channel
        for cb in list(self.subs.get(topic, ())):
            _safe_call(cb, data)

    # -- games -----------------------------------------------------------------------------
    @_timed
    async def create_game(self, gid, meta, seats, channels):
        p = self.r.pipeline(transaction=True)
        p.set(self.gk(gid, "meta"), pack(meta))
        if seats:
            p.hset(self.gk(gid, "seats"), mapping={k: pack(v) for k, v in seats.items()})
        if channels:
            p.hset(self.gk(gid, "chans"), mapping={k: pack(v) for k, v in channels.items()})
        if self.cluster:     # a transaction stays in one slot: the game first, then the index
            await p.execute()
            p = self.r.pipeline(transaction=False)
        p.zadd(self.k("games"), {gid: time.time()})
        p.sadd(self.k("live"), gid)
        await p.execute()

    @_timed
    async def game_ids(self, live_only=True):
        ids = [x.decode() for x in await self.r.zrange(self.k("games"), 0, -1)]
        if not live_only:
            return ids
        live = {x.decode() for x in await self.r.smembers(self.k("live"))}
        return [g for g in ids if g in live]

    @_timed
    async def count_live(self):
        return int(await self.r.scard(self.k("live")))

    @_timed
    async def load_meta(self, gid):
        raw = await self.r.get(self.gk(gid, "meta"))
        return unpack(raw) if raw is not None else None

    @_timed
    async def load_seats(self, gid):
        raw = await self.r.hgetall(self.gk(gid, "seats"))
        return {k.decode(): unpack(v) for k, v in sorted(raw.items())}

    @_timed
    async def cas_seat(self, gid, seat, expected, new):
        return bool(await self._cas(keys=[self.gk(gid, "seats")], args=[seat, pack(expected), pack(new)]))

    @_timed
    async def mark_over(self, gid):
        await self.r.srem(self.k("live"), gid)

    @_timed
    async def forget_game(self, gid):
        # The game's records first, its meta last, and the lobby's lists at the very end: one
        # stopped half-way is still listed, and archived again (a listed game without meta is
        # one the lobby skips).  Every key of the game carries its hash tag: on a cluster one
        # node holds them all.
        pattern = re.sub(r"([*?\[\]\\])", r"\\\1", self.gk(gid, "")) + "*"
        extra = {"target_nodes": self.r.get_node_from_key(self.gk(gid, "meta"))} if self.cluster else {}
        meta = self.gk(gid, "meta").encode()
        keys = [k async for k in self.r.scan_iter(match=pattern, count=500, **extra) if k != meta]
        n = 0
        for i in range(0, len(keys), 500):                 # (one slot: a multi-key DEL on a cluster too)
            n += await self.r.delete(*keys[i:i + 500])
        n += await self.r.delete(meta)
        p = self.r.pipeline(transaction=False)
        p.srem(self.k("live"), gid)
        p.zrem(self.k("games"), gid)
        return n + (await p.execute())[1]

    @_timed
    async def log_len(self, gid):
        return int(await self.r.llen(self.gk(gid, "log")))

    @_timed
    async def log_range(self, gid, start, stop=None):
        end = -1 if stop is None else stop - 1
        if stop is not None and stop <= start:
            return []
        return [unpack(x) for x in await self.r.lrange(self.gk(gid, "log"), start, end)]

    @_timed
    async def append_action(self, gid, expected_len, entry, topic, notice):
        return bool(await self._append(keys=[self.gk(gid, "log")],
                                       args=[expected_len, pack(entry), topic, notice]))

    @_timed
    async def save_snapshot(self, gid, seq, data):
        await self._game_write(gid, self.gk(gid, "snaps"), "zadd", seq, compress_snapshot(data))

    @_timed
    async def snapshot_before(self, gid, seq):
        got = await self.r.zrevrangebyscore(self.gk(gid, "snaps"), seq, "-inf", start=0, num=1, withscores=True)
        if not got:
            return None
        data, score = got[0]
        return int(score), expand_snapshot(bytes(data))

    # -- chat --------------------------------------------------------------------------------
    @_timed
    async def load_channels(self, gid):
        raw = await self.r.hgetall(self.gk(gid, "chans"))
        return {k.decode(): unpack(v) for k, v in raw.items()}

    @_timed
    async def add_channel(self, gid, name, rec):
        await self._game_write(gid, self.gk(gid, "chans"), "set", name, pack(rec))

    async def _game_write(self, gid: str, key: str, *args: Any) -> int:
        """:data:`_GAME_WRITE` on the game's record ``key`` (a record of no game, GLOBAL: not
        refused); raises ``unknown_game`` if the game is no longer in the store."""
        keys = [key] if gid == GLOBAL else [key, self.gk(gid, "meta")]
        n = int(await self._write(keys=keys, args=list(args)))
        if n < 0:
            raise _no_game(gid)
        return n

    @_timed
    async def chat_append(self, gid, channel, msg, topic):
        n = int(await self._chat(keys=[self.gk(gid, "chat", channel), self.gk(gid, "meta")], args=[pack(msg), topic]))
        if not n:
            raise _no_game(gid)
        return n

    @_timed
    async def chat_range(self, gid, channel, after, limit):
        start = max(after, 0)
        raw = await self.r.lrange(self.gk(gid, "chat", channel), start, start + limit - 1)
        out = []
        for i, x in enumerate(raw):
            m = unpack(x)
            m["id"] = start + i + 1
            out.append(m)
        return out

    @_timed
    async def chat_len(self, gid, channel):
        return int(await self.r.llen(self.gk(gid, "chat", channel)))

    @_timed
    async def add_pact(self, gid, pid, rec):
        return bool(await self._game_write(gid, self.gk(gid, "pacts"), "setnx", pid, pack(rec)))

    @_timed
    async def update_pact(self, gid, pid, rec):
        await self._game_write(gid, self.gk(gid, "pacts"), "set", pid, pack(rec))

    @_timed
    async def load_pacts(self, gid):
        raw = await self.r.hgetall(self.gk(gid, "pacts"))
        return {k.decode(): unpack(v) for k, v in raw.items()}

    # -- pub/sub -----------------------------------------------------------------------------
    @_timed
    async def publish(self, topic, data):
        if self.cluster:
            await self.r.spublish(topic, data)
        else:
            await self.r.publish(topic, data)

    async def subscribe(self, topic, cb):
        async with self._sub_lock:
            first = topic not in self.subs
            self.subs.setdefault(topic, []).append(cb)
            if first:
                await (self.shards.add(topic) if self.cluster else self.ps.subscribe(topic))

    async def unsubscribe(self, topic, cb):
        async with self._sub_lock:
            cbs = self.subs.get(topic, [])
            if cb in cbs:
                cbs.remove(cb)
            if not cbs and topic in self.subs:
                del self.subs[topic]
                await (self.shards.remove(topic) if self.cluster else self.ps.unsubscribe(topic))

    # -- leases --------------------------------------------------------------------------------
    @_timed
    async def lease(self, name, owner, ttl):
        return bool(await self._lease(keys=[self.k("lease", name)], args=[owner, max(1, int(ttl * 1000))]))

    @_timed
    async def release(self, name, owner):
        await self._release(keys=[self.k("lease", name)], args=[owner])

    @_timed
    async def hash_all(self, gid, name):
        raw = await self.r.hgetall(self.gk(gid, "h", name))
        return {k.decode(): unpack(v) for k, v in raw.items()}

    @_timed
    async def hash_put(self, gid, name, fields):
        if fields:
            await self._game_write(gid, self.gk(gid, "h", name), "set",
                                   *(x for k, v in fields.items() for x in (k, b"" if v is None else pack(v))))

    @_timed
    async def hash_incr(self, gid, name, key, by):
        n = await self._incr(keys=[self.gk(gid, "h", name), self.gk(gid, "meta")], args=[key, int(by)])
        if n is None:
            raise _no_game(gid)
        return int(n)

    @_timed
    async def put_code(self, code, value, ttl):
        await self.r.set(self.k("code", code), pack(value), px=max(1, int(ttl * 1000)))

    @_timed
    async def take_code(self, code):
        raw = await self.r.getdel(self.k("code", code))
        return unpack(raw) if raw is not None else None

    @_timed
    async def take_token(self, key, rate, burst):
        if rate == float("inf") or burst == float("inf"):
            return True
        ttl_ms = int(min(86_400.0, burst / max(rate, 1e-9)) * 1000) + 1000   # a full bucket needs no key
        return bool(await self._take(keys=[self.k("rate", key)], args=[repr(float(rate)), repr(float(burst)), ttl_ms]))

    async def check(self) -> None:
        """Raise if the store cannot serve every game now: a single Redis that does not answer
        PING, or a Cluster one of whose primaries does not (the games of its slots are then
        unserved; QA: ``/healthz`` said "ok" with a primary down, a ping reaching another)."""
        if self.cluster:
            await self.r.ping(target_nodes=self.r.PRIMARIES)
        else:
            await self.r.ping()

    # -- maintenance (tests, benchmarks) ---------------------------------------------------
    async def destroy(self) -> int:
        """Delete every key under this store's prefix; returns how many."""
        n = 0
        async for key in self.r.scan_iter(match=self.prefix + "*", count=500):
            n += await self.r.delete(key)
        return n


async def _cluster_enabled(url: str) -> bool:
    """Whether the Redis at ``url`` is a node of a Redis Cluster (``INFO cluster``)."""
    import redis.asyncio as aioredis
    from redis.asyncio.connection import parse_url
    from redis.exceptions import ResponseError

    # (asked of database 0: a cluster node refuses SELECT, and QA met its raw "SELECT is not allowed
    # in cluster mode" for redis://node/3, instead of "a Redis Cluster has only database 0"; a
    # unix:// socket keeps its path, review)
    pool = aioredis.ConnectionPool(**{**parse_url(url), "db": 0})
    r = aioredis.Redis(connection_pool=pool)
    try:
        return bool((await r.info("cluster")).get("cluster_enabled"))
    except ResponseError:        # INFO refused (ACL, renamed command): take it for a single Redis
        return False
    finally:
        await r.aclose()
        await pool.disconnect()


def _shard_pubsub_class():
    from redis.asyncio.client import PubSub
    from redis.crc import key_slot

    class ShardPubSub(PubSub):
        """A node's subscriber connection; after a reconnect it subscribes again one slot at a
        time (SSUBSCRIBE refuses channels of several slots in one command)."""

        async def _resubscribe_shard_channels(self) -> None:
            by_slot: dict[int, dict] = {}
            for ch, handler in self.shard_channels.items():
                by_slot.setdefault(key_slot(self.encoder.encode(ch)), {})[ch] = handler
            for chans in by_slot.values():
                await self._resubscribe(chans, self.ssubscribe)

    return ShardPubSub


class _ShardSubscriber:
    """Sharded pub/sub on a Redis Cluster: each topic is subscribed (``SSUBSCRIBE``) on the
    primary that owns its slot, through one subscriber connection and one reader task per node.
    When the cluster moves a slot, Redis drops its subscriptions (an ``sunsubscribe`` the store
    did not ask for): the subscriber refreshes the cluster's slot map and subscribes again at the
    slot's new owner; a node that stops answering is retried and its topics re-placed the same way."""

    def __init__(self, store: RedisStore) -> None:
        self.store = store
        self.nodes: dict[str, Any] = {}              # node name -> its PubSub
        self.readers: dict[str, asyncio.Task] = {}   # node name -> its reader task
        self.where: dict[str, str] = {}              # topic -> the node it is subscribed on
        self.confirmed: dict[str, str] = {}          # topic -> the node that confirmed the subscription
        self._lock = asyncio.Lock()
        self._pubsub = _shard_pubsub_class()
        self._tasks: set[asyncio.Task] = set()
        self._closing = False                        # (the readers stop at the end of their round)

    def _node_pubsub(self, node: Any) -> Any:
        ps = self.nodes.get(node.name)
        if ps is None:
            from redis.asyncio import ConnectionPool

            pool = ConnectionPool.from_url(self.store.url)
            pool.connection_kwargs.update(host=node.host, port=node.port, db=0)
            ps = self._pubsub(connection_pool=pool, ignore_subscribe_messages=False)
            self.nodes[node.name] = ps
        return ps

    async def add(self, topic: str) -> None:
        async with self._lock:
            await self._add_locked(topic)

    async def _add_locked(self, topic: str) -> None:
        node = self.store.r.get_node_from_key(topic)
        ps = self._node_pubsub(node)
        self.where[topic] = node.name
        await ps.ssubscribe(topic)
        if node.name not in self.readers:
            self.readers[node.name] = asyncio.create_task(self._read_loop(node.name, ps),
                                                          name=f"redis-shard-reader-{node.name}")

    async def remove(self, topic: str) -> None:
        async with self._lock:
            name = self.where.pop(topic, None)
            self.confirmed.pop(topic, None)
            ps = self.nodes.get(name) if name else None
            if ps is not None:
                await ps.sunsubscribe(topic)

    async def close(self) -> None:
        self._closing = True
        await asyncio.gather(*(stop_task(t) for t in [*self.readers.values(), *self._tasks]))
        for ps in self.nodes.values():
            with contextlib.suppress(Exception):
                await ps.aclose()
                await ps.connection_pool.disconnect()
        self.readers.clear()
        self.nodes.clear()

    async def _read_loop(self, name: str, ps: Any) -> None:
        failing = Backoff(f"sharded pub/sub read from {name}")
        while not self._closing:
            try:
                m = await ps.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                await failing.wait(e, "re-placing its topics")
                await self._replace(name)
                continue
            failing.ok()
            if not m:
                continue
            kind = m.get("type")
            if kind == "smessage":
                self.store.dispatch(m["channel"], m["data"])
                continue
            ch = m["channel"]
            topic = ch.decode() if isinstance(ch, bytes) else ch
            if kind == "ssubscribe" and self.where.get(topic) == name:
                self.confirmed[topic] = name
            elif kind == "sunsubscribe":
                if self.confirmed.get(topic) == name:
                    del self.confirmed[topic]
                if self.where.get(topic) == name:     # not ours: the cluster moved the slot away
                    t = asyncio.get_running_loop().create_task(self._moved(name, [topic]))
                    self._tasks.add(t)
                    t.add_done_callback(self._tasks.discard)

    async def _moved(self, name: str, topics: list[str]) -> None:
        """Subscribe ``topics`` (last placed on node ``name``) where the cluster has them now."""
        try:
            async with self._lock:
                await self.store.r.nodes_manager.initialize()
                for topic in topics:
                    if self.where.get(topic) != name:
                        continue
                    if self.store.r.get_node_from_key(topic).name == name:
                        continue
                    ps = self.nodes.get(name)
                    if ps is not None:      # Redis dropped it (or the node is gone): forget it there
                        key = topic.encode()
                        ps.shard_channels.pop(key, None)
                        ps.pending_unsubscribe_shard_channels.discard(key)
                    await self._add_locked(topic)
                    log.info("sharded topic moved from %s to %s", name, self.where[topic])
        except Exception:
            log.exception("re-subscribing sharded topics failed")

    async def _replace(self, name: str) -> None:
        await self._moved(name, [t for t, n in list(self.where.items()) if n == name])


def make_store(redis_url: str | None, prefix: str = "rcw:") -> Store:
    return RedisStore(redis_url, prefix) if redis_url else MemoryStore(prefix)
