"""A Redis outage, as an operator meets it (found by an operator's QA): the lobby and the sockets
answer the typed ``unavailable`` (HTTP 503) instead of ``internal`` with a traceback per request,
the pub/sub reader backs off and says so in a line or two instead of a traceback twice a second,
and all works again when Redis is back.  A redis-server of the test's own on loopback."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import shutil
import signal
import subprocess
import time

import aiohttp
import pytest
from rcw.server.client import GameClient, Lobby, ServerError
from rcw.server.config import Config
from rcw.server.store import RedisStore
from server_helpers import KillableRedis, free_port, needs_cluster, redis_cluster, running_server, unique_prefix

pytestmark = pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server")


def _redis(port: int) -> subprocess.Popen:
    p = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    end = time.monotonic() + 20
    while subprocess.run(["redis-cli", "-p", str(port), "ping"], capture_output=True, text=True).stdout.strip() != "PONG":
        assert time.monotonic() < end, "redis-server did not start"
        time.sleep(0.05)
    return p


async def test_a_redis_outage_is_answered_unavailable_and_logged_in_a_few_lines(caplog) -> None:
    port = free_port()
    redis = _redis(port)
    try:
        store = RedisStore(f"redis://127.0.0.1:{port}/0", unique_prefix("outage"))
        async with running_server(store) as srv, Lobby(srv.base) as lobby:
            g = await lobby.create_game(players=3)
            c = await GameClient.connect(srv.base, g["game"])
            async with aiohttp.ClientSession() as s, s.get(f"{srv.base}/metrics") as r:
                text = await r.text()
                assert "rcw_store_up 1.0" in text and "rcw_games_live 1.0" in text
            redis.terminate()
            redis.wait(10)
            # (QA: rcw_games_live read 0 in an outage, as if every game had ended: it keeps its last
            # reading, and rcw_store_up says the store is down)
            async with aiohttp.ClientSession() as s, s.get(f"{srv.base}/metrics") as r:
                text = await r.text()
                assert "rcw_store_up 0.0" in text and "rcw_games_live 1.0" in text, text[-1500:]
            caplog.clear()
            caplog.set_level(logging.INFO)
            async with aiohttp.ClientSession() as s:
                for _ in range(5):
                    async with s.get(f"{srv.base}/api/games") as r:
                        assert r.status == 503, await r.text()
                        assert (await r.json())["error"]["code"] == "unavailable"
            with pytest.raises(ServerError) as e:            # (a socket's request too)
                await c.request("events", after=0, limit=10)
            assert e.value.code == "unavailable"
            await asyncio.sleep(3)
            errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
            warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
            assert not errors, errors[:3]
            assert 1 <= len(warnings) <= 4, warnings
            redis = _redis(port)                             # back (empty: nothing was saved)
            end = time.monotonic() + 20
            while True:
                async with aiohttp.ClientSession() as s, s.get(f"{srv.base}/api/games") as r:
                    if r.status == 200:
                        break
                assert time.monotonic() < end, "the lobby did not come back"
                await asyncio.sleep(0.2)
            await c.close()
    finally:
        redis.terminate()
        redis.wait(10)


async def test_processes_long_gone_are_swept_from_the_processes_hash() -> None:
    """Found by an operator's QA: ``P {g:_}:h:procs`` gained an entry at every process start and
    never lost one.  A lease round sweeps out the processes silent for ten minutes (and keeps
    those alive)."""
    from rcw.server.absence import PROCS
    from rcw.server.lobby import PROCS_SWEEP_MS
    from rcw.server.store import MemoryStore

    store = MemoryStore()
    async with running_server(store) as srv:
        now = int(time.time() * 1000)
        await store.hash_put(*PROCS, {"old": now - PROCS_SWEEP_MS - 60_000, "peer": now - 5_000})
        srv.hub._procs_swept = 0
        await srv.hub._lease_round()
        procs = await store.hash_all(*PROCS)
        assert "old" not in procs and "peer" in procs and srv.hub.proc in procs, procs


async def test_a_redis_that_stops_answering_fails_requests_in_its_timeout_and_the_server_still_stops() -> None:
    """Redis frozen (SIGSTOP: a machine swapping, a network cut off, the connections kept open)
    is answered like Redis down: the lobby says ``unavailable`` within redis-py's command timeout
    (5 s since redis-py 8, which pyproject asks for) instead of holding the request for ever, and
    a server that stops then stops: each game's last position (kept at a stop, 5 s at most) and
    its release give up in their time."""
    port = free_port()
    redis = _redis(port)
    frozen = False
    try:
        store = RedisStore(f"redis://127.0.0.1:{port}/0", unique_prefix("frozen"))
        async with contextlib.AsyncExitStack() as stack:
            srv = await stack.enter_async_context(running_server(store))
            lobby = await stack.enter_async_context(Lobby(srv.base))
            g = await lobby.create_game(players=3, bot_seats=["B", "C"])
            c = await GameClient.connect(srv.base, g["game"])
            redis.send_signal(signal.SIGSTOP)
            frozen = True
            t0 = time.monotonic()
            async with aiohttp.ClientSession() as s, s.get(f"{srv.base}/api/games") as r:
                assert r.status == 503, await r.text()
                assert (await r.json())["error"]["code"] == "unavailable"
            assert time.monotonic() - t0 < 15, f"the lobby answered after {time.monotonic() - t0:.1f} s"
            await c.close()
            await asyncio.wait_for(stack.aclose(), 90)          # (the server stops, Redis still frozen)
    finally:
        if frozen:
            redis.send_signal(signal.SIGCONT)
        redis.terminate()
        redis.wait(10)


async def _seq_reaches(rt, n: int, timeout: float) -> bool:
    for _ in range(int(timeout * 20)):
        if rt.seq >= n:
            return True
        await asyncio.sleep(0.05)
    return False


async def test_the_bots_go_on_after_a_redis_outage() -> None:
    """QA, as an operator: after a Redis outage an all-bot game stood still for good (its
    process renewing the game's lease, so no other took it over) until the process was restarted:
    the bots' task had died on the store's error, and the game's replica, dropped after the write
    that failed, waited for a request to rebuild it.  The bots wait out the outage and go on, and
    what they write afterwards is in the store.  (Redis is killed with SIGKILL and started again
    on the same port with the same data, an append-only file.)"""
    redis = KillableRedis()
    redis.start()
    try:
        store = RedisStore(redis.url, prefix=unique_prefix("outage"))
        async with running_server(store, Config(bot_delay=0.1, lease_ttl=1.5)) as srv, Lobby(srv.base) as lobby:
            g = await lobby.create_game(players=3, bot_seats=list("ABC"), seed=2)
            gid = g["game"]
            for _ in range(100):
                if gid in srv.hub.runtimes:
                    break
                await asyncio.sleep(0.05)
            rt = srv.hub.runtimes[gid]
            assert await _seq_reaches(rt, 5, 20), rt.seq
            redis.kill()                                   # (an outage under the bots' next step)
            await asyncio.sleep(3.0)
            stopped_at = rt.seq
            redis.start()                                  # (back, with the same data)
            assert await _seq_reaches(rt, stopped_at + 10, 30), (stopped_at, rt.seq)
            assert await store.log_len(gid) >= stopped_at + 10
    finally:
        redis.close()


@needs_cluster
async def test_healthz_is_degraded_while_a_cluster_primary_is_down() -> None:
    """QA, as an operator: with one primary of a Redis Cluster down, ``/healthz`` said "ok" (its
    PING reached another node) while every request for that node's games was refused
    ``unavailable``: a load balancer or a monitor keyed on it missed the outage.  It pings every
    primary: 503, ``degraded``, with the error, while one does not answer."""
    with redis_cluster(3) as nodes:
        (host, port), (_, down) = nodes[0], nodes[2]
        store = RedisStore(f"redis+cluster://{host}:{port}", prefix="hz:")
        async with running_server(store) as srv, aiohttp.ClientSession() as http:
            async with http.get(srv.base + "/healthz") as r:
                assert r.status == 200 and (await r.json())["status"] == "ok"
            subprocess.run(["redis-cli", "-p", str(down), "shutdown", "nosave"], capture_output=True, timeout=10)
            async with http.get(srv.base + "/healthz") as r:
                got = await r.json()
                assert r.status == 503 and got["status"] == "degraded" and got["error"].startswith("redis: "), got
