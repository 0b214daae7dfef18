"""Server benchmark: a real server process, many WebSocket spectators of bot games, seats that chat.

    python bench/server.py                          # 200 clients at 20 games, about a minute
    python bench/server.py --clients 1000 --json    # the figures of the performance targets

Starts ``rcw serve --redis URL --bot-delay 0 --bot-wait 0`` as a subprocess (the bots play at
full speed: no pause between actions, no wait for the humans they invite to a Central
Committee, who never answer here) with every limit off (chat,
frame, create, costly rates; game and bot-game caps), creates GAMES five-player games, each
with one human seat (a *chatter*: the Python client ``server/client.py``, which only chats;
its seat is played by its deadline bot, ``deadline`` 1 ms) and four bots playing at full speed, and spreads the other CLIENTS - GAMES WebSocket
connections over them as spectators (raw aiohttp clients that decode only the ``msg`` pushes).
A finished game is replaced by a new one, and its spectators move to it. In one run it measures:

1. memory (the server's VmRSS, its bot workers' included): at start, after the games are
   created (not started) and after the spectators connected to them (idle connections:
   MB per 1 000 idle connections), then after the bots played for a moment (MB per live game:
   replica, snapshots, channels, bot state and the traffic's buffers);
2. *saturated* (closed loop; the throughput figures), for SECONDS with the bots playing: every
   chatter posts on ``public`` and waits until its line reached every spectator of its game (or
   2 s) before the next one, so the server is saturated by design and its latencies are mostly
   queueing; chat deliveries/s, the server's CPU seconds (utime+stime from /proc) per thousand
   deliveries and the ratio to the raw fan-out (4.) come from this phase (its chat and ping
   latencies are reported too, for information only);
3. *open loop* (a fixed offered load; the latency figures), for SECONDS more: every chatter
   posts on a fixed schedule, CHAT_RATE messages/s (default 2, the server's default sustained
   ``--chat-rate``), whether or not the earlier ones were delivered; p50/p99 chat delivery (post
   sent -> ``msg`` received by a spectator) and p50/p99 of a ``ping`` on an extra idle
   connection (one ping at a time, every 5 ms); then for SECONDS/2, the same load while one
   hostile client (a spectator of a live game) keeps 32 ``events`` (after 0, limit 1000) and
   ``view`` requests in flight: the ping again;
4. a raw Redis fan-out baseline: redis-py async pub/sub, one subscriber connection per
   spectator on GAMES channels, one publisher per chatter posting a frame of the same size with
   the closed loop of 2.; deliveries/s and the saturated server's ratio to it.

It reports whether the bench process itself was CPU-bound (its CPU time against wall time) or
the machine was saturated (the bench's and the server's CPU against the cores): then the
delivery rate is the clients' limit as much as the server's, and the server's CPU per
delivery is the figure to trust. Targets (two cores, 1 000 clients, 20 games): ping p99 < 10 ms and
chat delivery p99 < 25 ms (open loop), deliveries >= 50 % of the raw baseline (saturated), <= 64 MB per 1 000 idle
connections, <= 1 MB per live game; the table marks each.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))   # server_helpers: the test fixtures

import aiohttp  # noqa: E402
from rcw.server.client import GameClient, Lobby, ServerError  # noqa: E402
from rcw.server.config import Config  # noqa: E402
from rcw.server.protocol import pack, unpack  # noqa: E402
from server_helpers import ServerProcess, destroy_prefix, unique_prefix  # noqa: E402

MSG = b"\xa1t\xa3msg"           # a msgpack map whose first key is "t" and its value "msg"
UPDATE = b"\xa1t\xa6update"
PUSHES = (MSG, UPDATE, b"\xa1t\xa8channels", b"\xa1t\xa5seats")
CLK = os.sysconf("SC_CLK_TCK")
TARGETS = {"ping_p99_ms": 10.0, "chat_p99_ms": 25.0, "vs_raw": 0.5, "mb_per_1000_idle": 64.0, "mb_per_game": 1.0}


def pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def ms(x: float) -> float:
    return round(x * 1e3, 2)


# -- the server process from /proc -----------------------------------------------------------------
def _pids(pid: int) -> list[int]:
    """The process and its descendants (bot workers)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        with contextlib.suppress(OSError):
            for task in os.listdir(f"/proc/{p}/task"):
                with contextlib.suppress(OSError), open(f"/proc/{p}/task/{task}/children") as f:
                    todo += [int(c) for c in f.read().split()]
    return out


def cpu_seconds(pid: int) -> float:
    total = 0.0
    for p in _pids(pid):
        with contextlib.suppress(OSError), open(f"/proc/{p}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / CLK      # utime, stime
    return total


def machine_busy() -> int:
    """Busy jiffies of every CPU (/proc/stat: all but idle and iowait)."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    return sum(v[:8]) - v[3] - v[4]


def rss_mb(pid: int) -> float:
    total = 0
    for p in _pids(pid):
        with contextlib.suppress(OSError), open(f"/proc/{p}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total / 1024


# -- the clients --------------------------------------------------------------------------------
class Stats:
    def __init__(self) -> None:
        self.deliveries = 0
        self.chat_lat: list[float] = []
        self.posts = 0
        self.actions = 0
        self.games_finished = 0
        self.disconnects = 0
        self.errors: dict[str, int] = {}
        self.waiting: dict[str, list] = {}     # message key -> [deliveries still expected, event]

    def err(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1


def _on_frame(data: bytes, st: Stats, now: float) -> None:
    if data[1:7] != MSG:
        return
    text = unpack(data)["msg"]["text"]
    if not text.startswith("b:"):
        return
    _, key, t0, _ = text.split(":", 3)
    st.deliveries += 1
    st.chat_lat.append(now - float(t0))
    w = st.waiting.get(key)
    if w is not None:
        w[0] -= 1
        if w[0] <= 0:
            w[1].set()


async def spectator(ws: aiohttp.ClientWebSocketResponse, st: Stats) -> None:
    async for m in ws:
        if m.type == aiohttp.WSMsgType.BINARY:
            _on_frame(m.data, st, time.perf_counter())
        elif m.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.ERROR):
            break


async def ws_hello(session: aiohttp.ClientSession, base: str, gid: str) -> aiohttp.ClientWebSocketResponse:
    ws = await session.ws_connect(base.replace("http", "ws", 1) + "/ws", max_msg_size=0, heartbeat=None)
    await ws.send_bytes(pack({"t": "hello", "id": 1, "game": gid}))
    while True:
        f = unpack((await ws.receive()).data)
        if f.get("id") == 1:
            if f["t"] != "welcome":
                raise RuntimeError(f"hello refused: {f}")
            return ws


class Barrier:
    """The first round of every table stops twice so that memory is measured at rest."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.arrived = {1: 0, 2: 0}
        self.all_in = {1: asyncio.Event(), 2: asyncio.Event()}
        self.go = {1: asyncio.Event(), 2: asyncio.Event()}

    async def wait(self, k: int) -> None:
        self.arrived[k] += 1
        if self.arrived[k] == self.n:
            self.all_in[k].set()
        await self.go[k].wait()


async def table(i: int, base: str, session: aiohttp.ClientSession, n_spec: int, args: argparse.Namespace,
                stop: asyncio.Event, chatting: asyncio.Event, st: Stats, barrier: Barrier,
                live_games: list[str], mode: list[str]) -> None:
    """One table: a game with one chatter seat, four bots and n_spec spectators, replaced when over."""
    lobby = Lobby(base, session)
    rng = random.Random(args.seed * 1000 + i)
    first = True
    while not stop.is_set():
        g = await lobby.create_game(players=5, options={"max_turns": args.max_turns}, seed=rng.randrange(2**62),
                                    deadline=0.001)      # the chatter's seat is played by its deadline bot
        gid = g["game"]
        seat = await lobby.join(gid, name=f"chatter{i}")
        chatter = await GameClient.connect(base, gid, seat["token"], session=session)
        chatter.on_push = _count_updates(st)
        if first:
            await barrier.wait(1)
        specs = [await ws_hello(session, base, gid) for _ in range(n_spec)]
        readers = [asyncio.create_task(spectator(w, st)) for w in specs]
        if first:
            await barrier.wait(2)
            first = False
        await lobby.fill_bots(gid, g["admin_token"])
        live_games[i] = gid
        tasks = [asyncio.create_task(chat(chatter, f"{i}", n_spec, stop, chatting, st, mode, args.chat_rate))]
        over = asyncio.create_task(chatter.wait_for(lambda c: c.over, 1e6))
        stopper = asyncio.create_task(stop.wait())
        await asyncio.wait([over, stopper, *readers], return_when=asyncio.FIRST_COMPLETED)
        if over.done() and not over.cancelled() and over.exception() is None:
            st.games_finished += 1
        st.disconnects += sum(1 for r in readers if r.done())
        for t in tasks + readers + [over, stopper]:
            t.cancel()
        await asyncio.gather(*tasks, *readers, over, stopper, return_exceptions=True)
        for w in specs:
            await w.close()
        await chatter.close()


def _count_updates(st: Stats):
    def f(frame: dict) -> None:
        if frame.get("t") == "update":
            st.actions += 1
    return f


async def chat(c: GameClient, key: str, n_spec: int, stop: asyncio.Event, chatting: asyncio.Event,
               st: Stats, mode: list[str], rate: float) -> None:
    """Posts on ``public``: ``mode[0]`` ``closed`` (the next post once this one reached every
    spectator) or ``open`` (``rate`` posts/s on a fixed schedule, not waiting for anything)."""
    await chatting.wait()
    n = 0
    due: float | None = None             # the open loop's next post (perf_counter)
    posting: set[asyncio.Task] = set()
    try:
        while not stop.is_set():
            n += 1
            k = f"{key}.{n}"
            if mode[0] == "open":
                if due is None:          # a random phase: the chatters do not post in step
                    due = time.perf_counter() + random.random() / rate
                delay = due - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
                due += 1 / rate
                t = asyncio.create_task(_post(c, k, st))
                posting.add(t)
                t.add_done_callback(posting.discard)
                continue
            due = None
            await _closed_post(c, k, n_spec, st)
    finally:
        for t in list(posting):
            t.cancel()


async def _post(c: GameClient, k: str, st: Stats) -> None:
    try:
        await c.chat("public", f"b:{k}:{time.perf_counter()!r}: the Politburo meets at dawn")
        st.posts += 1
    except ServerError as e:
        st.err(e.code)


async def _closed_post(c: GameClient, k: str, n_spec: int, st: Stats) -> None:
    done = asyncio.Event()
    st.waiting[k] = [n_spec, done]
    try:
        await c.chat("public", f"b:{k}:{time.perf_counter()!r}: the Politburo meets at dawn")
        st.posts += 1
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(done.wait(), 2.0)
    except ServerError as e:
        st.err(e.code)
        await asyncio.sleep(0.01)
    finally:
        st.waiting.pop(k, None)


async def pinger(ws: aiohttp.ClientWebSocketResponse, out: dict[str, list[float]], phase: list[str],
                 stop: asyncio.Event) -> None:
    i = 100
    while not stop.is_set():
        i += 1
        t0 = time.perf_counter()
        await ws.send_bytes(pack({"t": "ping", "id": i}))
        while True:
            f = unpack((await ws.receive()).data)
            if f.get("id") == i:
                break
        if phase[0]:
            out.setdefault(phase[0], []).append(time.perf_counter() - t0)
        await asyncio.sleep(0.005)


async def hostile(ws: aiohttp.ClientWebSocketResponse, stop: asyncio.Event, count: list[int], window: int = 32) -> None:
    slots = asyncio.Semaphore(window)

    async def reader() -> None:
        async for m in ws:
            if m.type != aiohttp.WSMsgType.BINARY:
                break
            if m.data[1:16].startswith(PUSHES):
                continue
            count[0] += 1
            slots.release()

    rt = asyncio.create_task(reader())
    i = 1000
    try:
        while not stop.is_set() and not rt.done():
            await slots.acquire()
            i += 1
            f = {"t": "events", "id": i, "after": 0, "limit": 1000} if i % 2 else {"t": "view", "id": i}
            await ws.send_bytes(pack(f))
    finally:
        rt.cancel()
        await asyncio.gather(rt, return_exceptions=True)


# -- raw Redis fan-out ---------------------------------------------------------------------------
async def redis_fanout_baseline(url: str, per_game: list[int], seconds: float) -> dict:
    """One pub/sub connection per spectator, on one channel per game; one publisher per game
    posting a msg-sized frame and waiting until every subscriber of its channel got it (or 2 s)."""
    import redis.asyncio as aioredis

    n_subs = sum(per_game)
    r = aioredis.Redis.from_url(url, max_connections=n_subs + 16)
    topic = unique_prefix("bench-raw")
    received = 0
    lat: list[float] = []
    waiting: dict[str, list] = {}
    subs = []
    for gi, n in enumerate(per_game):
        for _ in range(n):
            ps = r.pubsub(ignore_subscribe_messages=True)
            await ps.subscribe(f"{topic}{gi}")
            subs.append(ps)
    stop = asyncio.Event()

    async def reader(ps) -> None:
        nonlocal received
        async for m in ps.listen():
            if m["type"] != "message":
                continue
            msg = unpack(m["data"])["msg"]
            _, key, t0, _ = msg["text"].split(":", 3)
            received += 1
            lat.append(time.perf_counter() - float(t0))
            w = waiting.get(key)
            if w is not None:
                w[0] -= 1
                if w[0] <= 0:
                    w[1].set()

    async def publisher(gi: int, n: int) -> None:
        pub = aioredis.Redis.from_url(url)
        k = 0
        try:
            while not stop.is_set():
                k += 1
                key = f"{gi}.{k}"
                done = asyncio.Event()
                waiting[key] = [n, done]
                text = f"b:{key}:{time.perf_counter()!r}: the Politburo meets at dawn"
                frame = {"t": "msg", "id": None, "game": "x" * 22, "channel": "public",
                         "msg": {"id": k, "seat": "A", "ts": time.time(), "text": text}}
                await pub.publish(f"{topic}{gi}", pack(frame))
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(done.wait(), 2.0)
                waiting.pop(key, None)
        finally:
            await pub.aclose()

    readers = [asyncio.create_task(reader(ps)) for ps in subs]
    await asyncio.sleep(0.2)
    pubs = [asyncio.create_task(publisher(gi, n)) for gi, n in enumerate(per_game) if n]
    await asyncio.sleep(0.5)                                  # warm-up
    n0, l0, c0, t0 = received, len(lat), time.process_time(), time.perf_counter()
    await asyncio.sleep(seconds)
    n1, l1, c1, dt = received, len(lat), time.process_time(), time.perf_counter() - t0
    stop.set()
    await asyncio.gather(*pubs, return_exceptions=True)
    for t in readers:
        t.cancel()
    await asyncio.gather(*readers, return_exceptions=True)
    for ps in subs:
        await ps.aclose()
    await r.aclose()
    return {"deliveries_per_s": round((n1 - n0) / dt, 1), "subscribers": n_subs, "publishers": len(pubs),
            "latency_ms": {"p50": ms(pct(lat[l0:l1], 0.5)), "p99": ms(pct(lat[l0:l1], 0.99))},
            "bench_cpu_share": round((c1 - c0) / dt, 2)}


# -- main ----------------------------------------------------------------------------------------
def serve_flags() -> str:
    return subprocess.run([sys.executable, "-m", "rcw.cli", "serve", "--help"], capture_output=True, text=True,
                          cwd=str(ROOT)).stdout


async def run(args: argparse.Namespace) -> dict:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = 2 * args.clients + 256
    if soft < need:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(need, soft)), hard))
    if args.games < 1 or args.clients < 2 * args.games:
        sys.exit("need at least one game and two clients (a chatter and a spectator) per game")
    load_before = os.getloadavg()[0]
    prefix = unique_prefix("bench")
    srv_args = ["--redis", args.redis, "--prefix", prefix, "--bot-delay", "0", "--bot-wait", "0",
                "--chat-rate", "1e9", "--chat-burst", "1e9", "--frame-rate", "1e9",
                "--create-rate", "0", "--costly-rate", "0", "--max-games", "0", "--max-bot-games", "0",
                "--log-level", "WARNING"]
    if args.bot_workers is not None:
        if "--bot-workers" not in serve_flags():
            sys.exit("this rcw serve has no --bot-workers flag")
        srv_args += ["--bot-workers", str(args.bot_workers)]
    server = ServerProcess(*srv_args)
    await server.start()
    pid = server.proc.pid
    n_spec = args.clients - args.games
    per_game = [n_spec // args.games + (1 if i < n_spec % args.games else 0) for i in range(args.games)]
    st = Stats()
    stop, chatting = asyncio.Event(), asyncio.Event()
    barrier = Barrier(args.games)
    live_games = [""] * args.games
    mode = ["closed"]
    res: dict = {"clients": args.clients, "games": args.games, "spectators": n_spec, "chatters": args.games,
                 "seconds": args.seconds, "cpus": os.cpu_count(), "load_avg_before": round(load_before, 2),
                 "bot_workers": args.bot_workers}
    try:
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
            lobby = Lobby(server.base, session)
            idle = (await lobby.create_game(players=5))["game"]            # never starts: the probes' game
            warm = await ws_hello(session, server.base, idle)
            await warm.close()
            await asyncio.sleep(0.5)
            rss0 = rss_mb(pid)
            tables = [asyncio.create_task(table(i, server.base, session, per_game[i], args, stop, chatting, st,
                                                barrier, live_games, mode)) for i in range(args.games)]
            await _wait_or_fail(barrier.all_in[1], tables)
            await asyncio.sleep(0.5)
            rss_games = rss_mb(pid)
            barrier.go[1].set()
            await _wait_or_fail(barrier.all_in[2], tables)
            await asyncio.sleep(1.0)
            rss_idle = rss_mb(pid)
            barrier.go[2].set()
            await asyncio.sleep(args.warmup)
            rss_live = rss_mb(pid)
            mb_conn = (rss_idle - rss_games) / n_spec * 1000
            mb_game = (rss_live - rss_idle + (rss_games - rss0)) / args.games
            res["memory_mb"] = {"start": round(rss0, 1), "games_created": round(rss_games, 1),
                                "idle_connections": round(rss_idle, 1), "live_games": round(rss_live, 1),
                                "per_1000_idle_connections": round(mb_conn, 2), "per_live_game": round(mb_game, 3)}

            probe = await ws_hello(session, server.base, idle)
            pings: dict[str, list[float]] = {}
            phase = [""]
            pstop = asyncio.Event()
            ptask = asyncio.create_task(pinger(probe, pings, phase, pstop))
            chatting.set()
            await asyncio.sleep(1.0)                                         # the chat loop warms up

            def snap() -> tuple:
                return (time.perf_counter(), time.process_time(), cpu_seconds(pid), st.deliveries, len(st.chat_lat),
                        st.posts, st.actions, machine_busy())

            phase[0] = "saturated"                        # closed loop: the throughput
            a = snap()
            await asyncio.sleep(args.seconds)
            b = snap()
            phase[0] = ""
            mode[0] = "open"                              # a fixed offered load: the latencies
            await asyncio.sleep(2.5)                      # the closed loop's last posts drain
            phase[0] = "bots"
            o0 = snap()
            await asyncio.sleep(args.seconds)
            o1 = snap()
            phase[0] = "hostile"
            gid = next(g for g in live_games if g)
            hws = await ws_hello(session, server.base, gid)
            hcount = [0]
            hstop = asyncio.Event()
            htask = asyncio.create_task(hostile(hws, hstop, hcount))
            hs = args.seconds / 2
            h0 = time.perf_counter()
            await asyncio.sleep(hs)
            c = snap()
            hdt = time.perf_counter() - h0
            phase[0] = ""
            hstop.set()
            pstop.set()
            stop.set()
            for t in (htask, ptask):
                t.cancel()
            await asyncio.gather(htask, ptask, *tables, return_exceptions=True)
            await hws.close()
            await probe.close()
    finally:
        await server.stop()
        await destroy_prefix(prefix, args.redis)
    dt = b[0] - a[0]
    deliveries = b[3] - a[3]
    sat_lat = st.chat_lat[a[4]:b[4]]
    lat = st.chat_lat[o0[4]:o1[4]]
    server_cpu = b[2] - a[2]
    bench_cpu = b[1] - a[1]
    odt = o1[0] - o0[0]
    offered = args.chat_rate * args.games
    res.update({
        # the saturated phase (closed loop): throughput
        "chat_deliveries_per_s": round(deliveries / dt, 1),
        "chat_posts_per_s": round((b[5] - a[5]) / dt, 1),
        "saturated": {"chat_latency_ms": {"p50": ms(pct(sat_lat, 0.5)), "p99": ms(pct(sat_lat, 0.99))},
                      "ping_ms": {"p50": ms(pct(pings.get("saturated", []), 0.5)),
                                  "p99": ms(pct(pings.get("saturated", []), 0.99)),
                                  "n": len(pings.get("saturated", []))}},
        # the open-loop phase (a fixed offered load): latencies
        "open_loop": {"chat_rate": args.chat_rate, "offered_posts_per_s": round(offered, 1),
                      "offered_deliveries_per_s": round(offered * n_spec / args.games, 1),
                      "posts_per_s": round((o1[5] - o0[5]) / odt, 1),
                      "deliveries_per_s": round((o1[3] - o0[3]) / odt, 1),
                      "server_cpu_share": round((o1[2] - o0[2]) / odt, 2),
                      "bench_cpu_share": round((o1[1] - o0[1]) / odt, 2)},
        "chat_latency_ms": {"p50": ms(pct(lat, 0.5)), "p99": ms(pct(lat, 0.99))},
        "ping_idle_ms": {"p50": ms(pct(pings.get("bots", []), 0.5)), "p99": ms(pct(pings.get("bots", []), 0.99)),
                         "n": len(pings.get("bots", []))},
        "ping_hostile_ms": {"p50": ms(pct(pings.get("hostile", []), 0.5)),
                            "p99": ms(pct(pings.get("hostile", []), 0.99)), "n": len(pings.get("hostile", []))},
        "hostile_replies_per_s": round(hcount[0] / hdt, 1),
        "hostile_chat_deliveries_per_s": round((c[3] - o1[3]) / (c[0] - o1[0]), 1),
        "actions_per_s": round((b[6] - a[6]) / dt, 1),
        "other_cpu_share": round((b[7] - a[7]) / CLK / dt - server_cpu / dt - bench_cpu / dt, 2),
        "server_cpu_s_per_1000_deliveries": round(server_cpu / deliveries * 1000, 4) if deliveries else None,
        "server_cpu_share": round(server_cpu / dt, 2),          # cores
        "bench_cpu_share": round(bench_cpu / dt, 2),            # of one core (one asyncio loop)
        "games_finished": st.games_finished, "disconnects": st.disconnects, "errors": st.errors,
    })
    bench_bound = res["bench_cpu_share"] >= 0.9
    machine_bound = (b[7] - a[7]) / CLK / dt >= 0.9 * (os.cpu_count() or 1)     # every process counted
    res["bench_cpu_bound"] = bench_bound
    res["machine_saturated"] = machine_bound
    res["starved"] = bench_bound or machine_bound
    res["server_cpu_bound"] = res["server_cpu_share"] >= 0.9     # its event loop is one thread
    raw = await redis_fanout_baseline(args.redis, per_game, args.baseline_seconds)
    res["raw_redis_fanout"] = raw
    res["vs_raw_fanout"] = round(res["chat_deliveries_per_s"] / raw["deliveries_per_s"], 4) \
        if raw["deliveries_per_s"] else None
    res["targets"] = {
        "ping_p99": res["ping_idle_ms"]["p99"] < TARGETS["ping_p99_ms"],
        "ping_hostile_p99": res["ping_hostile_ms"]["p99"] < TARGETS["ping_p99_ms"],
        "chat_p99": res["chat_latency_ms"]["p99"] < TARGETS["chat_p99_ms"],
        "vs_raw_fanout": (res["vs_raw_fanout"] or 0) >= TARGETS["vs_raw"],
        "mb_per_1000_idle": res["memory_mb"]["per_1000_idle_connections"] <= TARGETS["mb_per_1000_idle"],
        "mb_per_live_game": res["memory_mb"]["per_live_game"] <= TARGETS["mb_per_game"],
    }
    return res


async def _wait_or_fail(ev: asyncio.Event, tasks: list[asyncio.Task]) -> None:
    w = asyncio.create_task(ev.wait())
    await asyncio.wait([w, *tasks], return_when=asyncio.FIRST_COMPLETED)
    for t in tasks:
        if t.done() and t.exception() is not None:
            w.cancel()
            raise t.exception()
    await w


def report(res: dict) -> None:
    ok = {True: "ok", False: "MISSED"}
    t, m = res["targets"], res["memory_mb"]
    raw = res["raw_redis_fanout"]
    o, sat = res["open_loop"], res["saturated"]
    print(f"server benchmark: {res['clients']} clients ({res['spectators']} spectators, {res['chatters']} chatting seats) "
          f"at {res['games']} bot games, {res['cpus']} CPUs, load average {res['load_avg_before']} before; "
          f"bot workers: {res['bot_workers']}")
    print(f"SATURATED phase ({res['seconds']} s; closed-loop chat: each post waits for its deliveries; throughput)")
    print(f"  chat deliveries/s        {res['chat_deliveries_per_s']:>10}   ({res['chat_posts_per_s']} posts/s)")
    print(f"  raw Redis fan-out/s      {raw['deliveries_per_s']:>10}   ({raw['subscribers']} subscribers, "
          f"{raw['publishers']} publishers; p50 {raw['latency_ms']['p50']} ms, p99 {raw['latency_ms']['p99']} ms)")
    print(f"  ratio                    {res['vs_raw_fanout']:>10}   target >= 0.5: {ok[t['vs_raw_fanout']]}")
    print(f"  server CPU               {res['server_cpu_s_per_1000_deliveries']} s per 1000 deliveries "
          f"({res['server_cpu_share']} cores busy; bench process {res['bench_cpu_share']} of a core)")
    print(f"  (queueing latency)       chat delivery p50 {sat['chat_latency_ms']['p50']} ms, "
          f"p99 {sat['chat_latency_ms']['p99']} ms; ping p50 {sat['ping_ms']['p50']} ms, p99 {sat['ping_ms']['p99']} ms"
          f"   (saturated by design: not held to the latency targets)")
    print(f"OPEN-LOOP phase ({res['seconds']} s + {res['seconds'] / 2:g} s hostile; each chatting seat posts "
          f"{o['chat_rate']:g} msgs/s on a fixed schedule: offered {o['offered_posts_per_s']} posts/s, "
          f"{o['offered_deliveries_per_s']} deliveries/s; latencies)")
    print(f"  delivered                {o['deliveries_per_s']} deliveries/s ({o['posts_per_s']} posts/s; "
          f"{res['hostile_chat_deliveries_per_s']}/s under the hostile flood), server {o['server_cpu_share']} cores "
          f"busy, bench process {o['bench_cpu_share']} of a core")
    print(f"  chat delivery            p50 {res['chat_latency_ms']['p50']} ms, p99 {res['chat_latency_ms']['p99']} ms"
          f"   target p99 < 25 ms: {ok[t['chat_p99']]}")
    print(f"  ping, bots playing       p50 {res['ping_idle_ms']['p50']} ms, p99 {res['ping_idle_ms']['p99']} ms"
          f"   target p99 < 10 ms: {ok[t['ping_p99']]}")
    print(f"  ping, hostile flood      p50 {res['ping_hostile_ms']['p50']} ms, p99 {res['ping_hostile_ms']['p99']} ms"
          f"   target p99 < 10 ms: {ok[t['ping_hostile_p99']]}   ({res['hostile_replies_per_s']} events/view "
          f"replies/s to the hostile client)")
    print("OTHER")
    print(f"  memory                   {m['per_1000_idle_connections']} MB per 1000 idle connections "
          f"(target <= 64: {ok[t['mb_per_1000_idle']]}), {m['per_live_game']} MB per live game "
          f"(target <= 1: {ok[t['mb_per_live_game']]})")
    print(f"                           RSS {m['start']} MB at start, {m['games_created']} with the games created, "
          f"{m['idle_connections']} with the spectators, {m['live_games']} with the bots playing")
    print(f"  other processes          {res['other_cpu_share']} cores busy (the machine is shared)")
    print(f"  actions/s {res['actions_per_s']} (bots and deadline bots), games finished {res['games_finished']}, "
          f"disconnects {res['disconnects']}, errors {res['errors'] or 'none'}")
    if res["server_cpu_bound"]:
        print(f"  NOTE (saturated phase): the server used {res['server_cpu_share']} cores: its event loop was busy all the time.")
    if res["starved"]:
        why = "the bench process was CPU-bound" if res["bench_cpu_bound"] else \
            "the machine's cores were saturated (the bench, the server and other processes)"
        print(f"  NOTE (saturated phase): {why}: the clients starve the server (or themselves), so deliveries/s and the latencies "
              f"are the clients' limit as much as the server's; trust the server's CPU per delivery "
              f"({res['server_cpu_s_per_1000_deliveries']} s per 1000).")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--clients", type=int, default=200,
                   help="WebSocket clients: one chatting seat per game, the rest spectators (default 200)")
    p.add_argument("--games", type=int, default=20, help="bot games played at once (default 20)")
    p.add_argument("--seconds", type=float, default=20.0,
                   help="measured seconds of each of the saturated and the open-loop phases; the hostile phase "
                        "lasts half as long (default 20)")
    p.add_argument("--chat-rate", type=float, default=Config.chat_rate,
                   help="the open-loop phase's offered load: messages/s each chatting seat posts (default 2, "
                        "the server's default sustained --chat-rate)")
    p.add_argument("--baseline-seconds", type=float, default=5.0, help="seconds of the raw Redis baseline (default 5)")
    p.add_argument("--warmup", type=float, default=2.0, help="seconds of play before the live-game memory (default 2)")
    p.add_argument("--redis", default="redis://127.0.0.1:6379/0", help="Redis URL (default redis://127.0.0.1:6379/0)")
    p.add_argument("--max-turns", type=int, default=0, help="turn limit of each game (default 0: none)")
    p.add_argument("--bot-workers", type=int, default=None,
                   help="pass --bot-workers N to rcw serve (if that server has the flag)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true", help="print the result as JSON only")
    args = p.parse_args()
    if args.chat_rate <= 0:
        p.error("--chat-rate must be positive")
    res = asyncio.run(run(args))
    if args.json:
        print(json.dumps(res, indent=2))
    else:
        report(res)
    return 0


if __name__ == "__main__":
    sys.exit(main())
