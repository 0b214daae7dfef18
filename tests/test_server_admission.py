"""One client cannot stall the server: costly requests read stored entries and snapshots (no
replay from the seed on the event loop), a closed connection's queued requests are dropped, and
admission control answers ``rate_limited`` / ``busy`` (server/admission.py) with nothing changed.

Every test runs a real server on a real Redis with real WebSockets; "delay" is what another
client notices: the round trip of its ``ping`` while the flood goes on."""

from __future__ import annotations

import asyncio
import contextlib
import os
import time

import aiohttp
import pytest
from rcw.server.client import GameClient, Lobby, ServerError
from rcw.server.config import Config
from rcw.server.protocol import pack
from rcw.server.store import RedisStore
from server_helpers import REDIS_URL, ServerProcess, destroy_prefix, redis_reachable, running_server, unique_prefix

pytestmark = pytest.mark.skipif(not redis_reachable(), reason="no Redis on 127.0.0.1:6379")


@contextlib.asynccontextmanager
async def serve(config: Config, limits: bool):
    prefix = unique_prefix("adm")
    try:
        async with running_server(RedisStore(REDIS_URL, prefix), config, limits=limits) as srv, \
                Lobby(srv.base) as lobby:
            yield srv, lobby
    finally:
        await destroy_prefix(prefix)


async def finished_game(lobby: Lobby, seed: int = 11) -> tuple[dict, GameClient]:
    """A 5-player game of bots played to its end (3 Game-Turns), and a spectator watching it."""
    g = await lobby.create_game(players=5, seed=seed, bot_seats=list("ABCDE"), options={"max_turns": 3})
    w = await GameClient.connect(lobby.base, g["game"])
    await w.wait_for(lambda c: c.over, 120)
    return g, w


async def pinging(base: str, gid: str, stop: asyncio.Event) -> list[float]:
    """Another client's ping round trips (seconds), one every 10 ms until ``stop``."""
    c = await GameClient.connect(base, gid)
    out: list[float] = []
    try:
        while not stop.is_set():
            t0 = time.perf_counter()
            await c.ping()
            out.append(time.perf_counter() - t0)
            await asyncio.sleep(0.01)
    finally:
        await c.close()
    return out


def p99(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * 0.99))]


async def metric(base: str, name: str) -> float:
    async with aiohttp.ClientSession() as s, s.get(base + "/metrics") as r:
        text = await r.text()
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines() if line.startswith(name))


async def test_a_flood_of_costly_requests_then_close_does_not_delay_another_clients_ping():
    """1 000 ``events(after=0, limit=1000)`` on one socket (then closed at once) and 40 past
    views over HTTP, with no rate limit: another client's ping p99 stays under 100 ms, the
    requests left on the closed socket are dropped, and the answers given are right."""
    async with serve(Config(), limits=False) as (srv, lobby):
        g, w = await finished_game(lobby)
        gid, last = g["game"], w.seq
        assert last > 300
        first = await w.request("events", after=0, limit=1000)
        assert [e["seq"] for e in first["entries"]] == list(range(1, last + 1))
        assert first["entries"][-1]["events"][-1]["kind"] == "game_over"

        async def flooded() -> tuple[list[float], list]:
            """The flood, and another client's pings meanwhile."""
            stop = asyncio.Event()
            pings = asyncio.create_task(pinging(srv.base, gid, stop))
            await asyncio.sleep(0.3)
            flood = await GameClient.connect(srv.base, gid)
            for i in range(1000):
                await flood.ws.send_bytes(pack({"t": "events", "id": i, "after": 0, "limit": 1000}))
            await flood.close()
            async with aiohttp.ClientSession() as s:
                async def view(seq: int) -> tuple[int, dict]:
                    async with s.get(f"{srv.base}/api/games/{gid}/view", params={"seq": str(seq)}) as r:
                        return r.status, await r.json()
                answers = await asyncio.gather(*(view(7 * i + 1) for i in range(40)))
            await asyncio.sleep(1.5)
            stop.set()
            return await pings, answers

        # (a second flood if the first one's pings came slow: the suite runs two test files at once
        # on a shared two-core machine, and the other one's burst once gave a p99 of 537 ms; a
        # server that the flood itself stalls is slow both times)
        rtt, answers = await flooded()
        if p99(rtt) >= 0.1:
            rtt, answers = await flooded()
        assert len(rtt) > 50
        assert p99(rtt) < 0.1, f"ping p99 {p99(rtt) * 1000:.0f} ms during the flood"
        assert await metric(srv.base, "rcw_requests_dropped_total") > 0
        # a past view is the game at that seq (the hash the updates carried then); past the
        # rebuild queue's cap (8 per thread), the rest are answered busy at once
        trail = dict(w.trail)
        assert {st for st, _ in answers} <= {200, 503}
        views = [(i, v) for i, (st, v) in enumerate(answers) if st == 200]
        assert len(views) >= 16
        assert all(v["error"]["code"] == "busy" for st, v in answers if st == 503)
        for i, v in views:
            assert v["seq"] == 7 * i + 1 and v["view"]["turn"] >= 1
            if v["seq"] in trail:
                assert v["hash"] == trail[v["seq"]]
        info = await lobby.game(gid)
        assert info["seq"] == last and info["status"] == "over"
        await w.close()


async def test_costly_requests_and_game_creation_are_rate_limited_and_change_nothing():
    cfg = Config(costly_rate=0.01, costly_burst=5, create_rate=0.01, create_burst=2)
    async with serve(cfg, limits=True) as (srv, lobby):
        g, w = await finished_game(lobby)
        gid = g["game"]
        before = await lobby.game(gid)
        codes = []
        for _ in range(8):
            try:
                await w.request("events", after=0, limit=1000)
                codes.append("ok")
            except ServerError as e:
                codes.append(e.code)
                assert e.frame["retry_after"] > 0
        assert codes == ["ok"] * 5 + ["rate_limited"] * 3
        # the same address's budget also covers past views and records over HTTP: spent already
        with pytest.raises(ServerError) as e:
            await lobby._call("GET", f"/api/games/{gid}/view", params={"seq": "3"})
        assert e.value.code == "rate_limited"
        async with aiohttp.ClientSession() as s, s.get(f"{srv.base}/api/games/{gid}/record") as r:
            assert r.status == 429 and (await r.json())["error"]["code"] == "rate_limited"
            assert int(r.headers["Retry-After"]) >= 1            # (HTTP's header too, found by an operator's QA)
        # creation: the first game above and one more pass, the third is refused and not created
        n_games = len(await lobby.list_games("all"))
        await lobby.create_game(players=3)
        with pytest.raises(ServerError) as e:
            await lobby.create_game(players=3)
        assert e.value.code == "rate_limited"
        assert len(await lobby.list_games("all")) == n_games + 1
        assert await lobby.game(gid) == before
        assert await w.ping()          # the connection is still served


async def test_caps_on_live_games_and_bot_games_answer_busy():
    cfg = Config(max_games=3, max_bot_games=1, create_rate=0)
    async with serve(cfg, limits=True) as (srv, lobby):
        bots = await lobby.create_game(players=3, bot_seats=["A", "B", "C"], options={"max_turns": 50}, bots="random")
        with pytest.raises(ServerError) as e:                       # a second bot game: no room
            await lobby.create_game(players=3, bot_seats=["B", "C"])
        assert e.value.code == "busy"
        human = await lobby.create_game(players=3)                  # a game of humans: room
        with pytest.raises(ServerError) as e:                       # ... but not filled with bots here
            await lobby.fill_bots(human["game"], human["admin_token"])
        assert e.value.code == "busy"
        assert (await lobby.game(human["game"]))["seats"]["A"]["kind"] == "open"
        await lobby.create_game(players=3)
        with pytest.raises(ServerError) as e:                       # a fourth live game
            await lobby.create_game(players=3)
        assert e.value.code == "busy"
        async with aiohttp.ClientSession() as s, s.post(f"{srv.base}/api/games", json={"players": 3}) as r:
            assert r.status == 503
        assert len(await lobby.list_games("all")) == 3
        assert (await lobby.game(bots["game"]))["status"] in ("playing", "over")


def _descendants(pid: int) -> set[int]:
    """The processes under ``pid`` (children, theirs...), read from /proc."""
    parent: dict[int, int] = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                stat = open(f"/proc/{d}/stat").read()          # noqa: SIM115 - read at once
                parent[int(d)] = int(stat.rsplit(")", 1)[1].split()[1])
    out, todo = set(), [pid]
    while todo:
        p = todo.pop()
        kids = [c for c, pp in parent.items() if pp == p]
        out.update(kids)
        todo += kids
    return out


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads the process tree from /proc")
async def test_a_killed_server_leaves_no_worker_processes_behind():
    """Found by an operator's QA: after a kill -9 of ``rcw serve``, the processes that rebuild past
    views (a forkserver, its worker, the resource tracker: about 70 MB) lived on under init.  Now
    every process the server started is gone within seconds of it."""
    srv = ServerProcess("--bot-workers", "1")
    kids: set[int] = set()
    try:
        await srv.start()
        async with Lobby(srv.base) as lobby:
            g, w = await finished_game(lobby)
            await w.close()
            await lobby._call("GET", f"/api/games/{g['game']}/view", params={"seq": "3"}, token=g["admin_token"])
        kids = _descendants(srv.proc.pid)
        assert len(kids) >= 3, kids                   # (the bot worker, the forkserver and its worker at least)
        srv.proc.kill()                               # (not srv.kill(): its wait lasts while any of them holds stdout)
        deadline = time.time() + 10
        while any(os.path.exists(f"/proc/{k}") and "zombie" not in _state(k) for k in kids):
            assert time.time() < deadline, [(k, _state(k)) for k in kids if os.path.exists(f"/proc/{k}")]
            await asyncio.sleep(0.2)
    finally:
        for k in kids:                                # (left behind: not to outlive the test)
            with contextlib.suppress(OSError):
                os.kill(k, 9)
        await asyncio.wait_for(srv.stop(), 20)


def _state(pid: int) -> str:
    try:
        return open(f"/proc/{pid}/status").read().split("State:", 1)[1].split("\n", 1)[0].strip().lower()  # noqa: SIM115
    except (OSError, IndexError):
        return "gone"


async def test_a_damaged_log_is_answered_damaged_game_and_the_rebuild_workers_serve_on():
    """A past view rebuilt in a worker process from a log holding a step no rules allow (here
    one of the game's last steps, overwritten in Redis) is answered ``damaged_game``, naming the step:
    the worker's error crosses to the server whole (an error that did not pickle broke the
    pool), and the next past view is served."""
    async with serve(Config(), limits=False) as (srv, lobby):
        g, w = await finished_game(lobby)
        gid, last = g["game"], w.seq
        await w.close()
        store = srv.hub.store
        k = last if last % 100 else last - 1     # (a step replayed after the nearest snapshot, not one with its own)
        await store.r.lset(store.gk(gid, "log"), k - 1, pack({"a": {"t": "EndTrading", "seat": "A"}, "ev": []}))
        async with aiohttp.ClientSession() as s:
            async def view(seq: int) -> tuple[int, dict]:
                async with s.get(f"{srv.base}/api/games/{gid}/view", params={"seq": str(seq)}) as r:
                    return r.status, await r.json()
            st, body = await view(k)
            assert st == 500 and body["error"]["code"] == "damaged_game", body
            assert f"logged action {k} does not replay" in body["error"]["message"] and body["error"]["rule"]
            st, body = await view(k - 1)
            assert st == 200 and body["seq"] == k - 1, body


async def test_one_address_may_hold_only_so_many_sockets_and_a_socket_must_say_hello():
    """QA as an operator: one client held 1500 sockets at once, and 300 that never said hello
    for as long as it liked, nothing refused.  Past ``--max-conns-per-addr`` the upgrade is refused
    (HTTP 429, ``rate_limited`` with ``retry_after``) while the others play on; a socket that sends
    no ``hello`` within the timeout is closed (1008) and frees its place."""
    import dataclasses

    cfg = dataclasses.replace(Config(max_conns_per_addr=5), hello_timeout=1.0)
    async with serve(cfg, limits=True) as (srv, lobby), aiohttp.ClientSession() as http:
        g = await lobby.create_game(players=3, bot_seats=["B", "C"], seed=1)
        a = await lobby.join(g["game"], seat="A")
        player = await GameClient.connect(srv.base, g["game"], a["token"])    # (one of the five)
        idle = [await http.ws_connect(srv.base + "/ws") for _ in range(4)]
        with pytest.raises(aiohttp.WSServerHandshakeError) as e:
            await http.ws_connect(srv.base + "/ws")
        assert e.value.status == 429
        async with http.get(srv.base + "/ws", headers={"Connection": "Upgrade", "Upgrade": "websocket",
                                                       "Sec-WebSocket-Version": "13",
                                                       "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}) as r:
            body = await r.json()
            assert r.status == 429 and body["error"]["code"] == "rate_limited" and body["error"]["retry_after"] > 0
            assert "--max-conns-per-addr" in body["error"]["message"]
        assert await player.ping()                       # (the player plays on)
        for ws in idle:                                  # (none said hello: closed within the timeout)
            msg = await asyncio.wait_for(ws.receive(), 5)
            assert msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED), msg
            assert ws.close_code == 1008 or msg.data == 1008, (ws.close_code, msg)
        for _ in range(50):                              # (their places are free again, once they have closed)
            try:
                again = await http.ws_connect(srv.base + "/ws")
                break
            except aiohttp.WSServerHandshakeError:
                await asyncio.sleep(0.1)
        else:
            raise AssertionError("the closed sockets still count")
        await again.close()
        assert await player.ping()                       # (the player, who said hello, stays)
        await player.close()
        for ws in idle:
            await ws.close()


def _raw_spectator(base: str, gid: str):
    """A WebSocket that says hello to ``gid`` as a spectator and then never reads (a small receive
    buffer, so that the server's pushes pile up fast): its raw socket."""
    import base64
    import socket

    from rcw.server.protocol import pack as _pack

    host, port = base.split("//")[1].split(":")
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect((host, int(port)))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(f"GET /ws HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
              f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
    got = b""
    while b"\r\n\r\n" not in got:
        got += s.recv(1)
    assert b" 101 " in got.split(b"\r\n", 1)[0], got
    payload, mask = _pack({"t": "hello", "id": 1, "game": gid}), os.urandom(4)
    head = bytes([0x82, 0x80 | len(payload)]) if len(payload) < 126 else bytes([0x82, 0x80 | 126]) + len(payload).to_bytes(2, "big")
    s.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
    return s


def _frames(data: bytes) -> list[tuple[int, bytes]]:
    out, i = [], 0
    while i + 2 <= len(data):
        op, n, j = data[i] & 0x0F, data[i + 1] & 0x7F, i + 2
        if n == 126:
            n, j = int.from_bytes(data[j:j + 2], "big"), j + 2
        elif n == 127:
            n, j = int.from_bytes(data[j:j + 8], "big"), j + 8
        if j + n > len(data):
            break
        out.append((op, data[j:j + n]))
        i = j + n
    return out


async def test_a_client_that_does_not_read_is_closed_at_once_with_1008():
    """QA as an operator: a spectator that never read its pushes was "dropped" after 5000 queued
    frames, yet the server went on writing the whole queue first: a client that read later got
    some 6500 frames and then close 1000, one that never read stayed counted for a minute.  Now
    the queue goes and the socket is closed at once with 1008; the players play on."""
    import dataclasses

    cfg = dataclasses.replace(Config(max_queue=20), chat_rate=10_000.0, chat_burst=100_000.0, frame_burst=100_000.0)
    async with serve(cfg, limits=False) as (srv, lobby):
        g = await lobby.create_game(players=3, bot_seats=["B", "C"], seed=1)
        a = await lobby.join(g["game"], seat="A")
        sock = await asyncio.to_thread(_raw_spectator, srv.base, g["game"])
        player = await GameClient.connect(srv.base, g["game"], a["token"])
        try:
            for _ in range(200):
                if not any(c.seat is None and c.rt is not None for c in srv.hub.conns):
                    await asyncio.sleep(0.02)
                    continue
                break
            spectator = next(c for c in srv.hub.conns if c.seat is None and c.rt is not None)
            t0 = time.monotonic()
            for i in range(6000):                     # (pushes to the spectator, ~2 KB each: past the sockets' buffers)
                await player.chat("public", f"{i} " + "y" * 1900)
                if spectator not in srv.hub.conns:
                    break
            for _ in range(100):
                if spectator not in srv.hub.conns:
                    break
                await asyncio.sleep(0.05)
            assert spectator.dropped, (len(spectator.queue), spectator.transport.get_write_buffer_size())
            assert spectator not in srv.hub.conns, "the client that does not read is still served"
            assert time.monotonic() - t0 < 30
            sock.settimeout(3)
            data = b""
            with contextlib.suppress(OSError):
                while chunk := await asyncio.to_thread(sock.recv, 1 << 20):
                    data += chunk
            frames = _frames(data)
            closes = [int.from_bytes(p[:2], "big") for op, p in frames if op == 8]
            assert closes in ([1008], []), closes                # (1008, or cut: never 1000)
            assert len(frames) < i, (len(frames), i)             # (not the whole queue first)
            assert await player.ping()
        finally:
            sock.close()
            await player.close()
