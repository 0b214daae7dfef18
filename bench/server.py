"""Server benchmark: real server process, real WebSocket clients, games and chat at once.

    python bench/server.py --clients 10 --games 2 --seconds 10
    python bench/server.py --redis ''            # the embedded in-process store instead of Redis

Starts ``python -m server serve`` as a subprocess, seats CLIENTS WebSocket clients (the
Python client, ``server/client.py``) at GAMES tables (the other seats are bots; a finished
game is replaced by a new one), and for SECONDS lets every client play its seat with random
legal actions while it chats on the public channel (each client waits for the server's
``ok`` before its next message).  It prints:

- actions/s (every accepted action, bots included) and human actions/s;
- chat messages/s (acknowledged) and deliveries/s (``msg`` pushes received);
- p50/p99 chat delivery latency (post sent -> ``msg`` received by another client) and
  p50/p99 action latency (``act`` sent -> ``ok`` received);
- and, measured in the same run with the same number of concurrent clients, two baselines:
  raw redis-py PUBLISH throughput (one awaited PUBLISH at a time per client, one subscriber)
  and a bare aiohttp WebSocket echo server (one frame in flight per client); the ratio of
  chat messages/s to each.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))   # server_helpers: the test fixtures

import aiohttp  # noqa: E402
from rcw.server.client import GameClient, Lobby, ServerError  # noqa: E402
from rcw.server.protocol import pack, unpack  # noqa: E402
from server_helpers import ServerProcess, choose, destroy_prefix, redis_reachable, unique_prefix  # noqa: E402


def pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


class Stats:
    def __init__(self) -> None:
        self.human_actions = 0
        self.chat_acked = 0
        self.deliveries = 0
        self.chat_lat: list[float] = []
        self.act_lat: list[float] = []
        self.actions = 0
        self.games_finished = 0
        self.errors: dict[str, int] = {}


async def table(base: str, session: aiohttp.ClientSession, n_humans: int, players: int, max_turns: int,
                stop: asyncio.Event, st: Stats, rng: random.Random) -> None:
    """One table: a game with n_humans clients, replaced by a new game when it ends."""
    lobby = Lobby(base, session)
    while not stop.is_set():
        g = await lobby.create_game(players=players, options={"max_turns": max_turns})
        gid = g["game"]
        seats = [await lobby.join(gid, name=f"bench{i}") for i in range(n_humans)]
        clients = [await GameClient.connect(base, gid, s["token"], session=session) for s in seats]
        for i, c in enumerate(clients):
            c.on_push = _on_push(c, st, counts_actions=i == 0)
        await lobby.fill_bots(gid, g["admin_token"])
        await clients[0].wait_for(lambda c: c.status == "playing", 10)
        tasks = [asyncio.create_task(player(c, stop, st, random.Random(rng.random()))) for c in clients]
        tasks += [asyncio.create_task(chatter(c, stop, st)) for c in clients]
        over = asyncio.create_task(clients[0].wait_for(lambda c: c.over, 3600))
        stopper = asyncio.create_task(stop.wait())
        await asyncio.wait([over, stopper], return_when=asyncio.FIRST_COMPLETED)
        if over.done() and not over.cancelled():
            st.games_finished += 1
        for t in tasks + [over, stopper]:
            t.cancel()
        await asyncio.gather(*tasks, over, stopper, return_exceptions=True)
        for c in clients:
            await c.close()


def _on_push(c: GameClient, st: Stats, counts_actions: bool):
    def f(frame: dict) -> None:
        if frame.get("t") == "update" and counts_actions:
            st.actions += 1
        elif frame.get("t") == "msg":
            text = frame["msg"]["text"]
            if text.startswith("b:") and frame["msg"]["seat"] != c.seat:
                st.deliveries += 1
                st.chat_lat.append(time.perf_counter() - float(text.split(":")[2]))
    return f


async def player(c: GameClient, stop: asyncio.Event, st: Stats, rng: random.Random) -> None:
    while not stop.is_set() and not c.over:
        await c.wait_for(lambda c: c.over or (c.my_turn and bool(c.legal)), 3600)
        if c.over or stop.is_set():
            return
        t0 = time.perf_counter()
        try:
            await c.act(choose(c.legal, rng), seq=c.seq)
        except ServerError as e:
            st.errors[e.code] = st.errors.get(e.code, 0) + 1
            await asyncio.sleep(0.001)
            continue
        if not stop.is_set():
            st.act_lat.append(time.perf_counter() - t0)
            st.human_actions += 1


async def chatter(c: GameClient, stop: asyncio.Event, st: Stats) -> None:
    while not stop.is_set():
        try:
            await c.chat("public", f"b:{c.seat}:{time.perf_counter()!r}: the Politburo meets at dawn")
        except ServerError as e:
            st.errors[e.code] = st.errors.get(e.code, 0) + 1
            await asyncio.sleep(0.01)
            continue
        if not stop.is_set():
            st.chat_acked += 1


# -- baselines ---------------------------------------------------------------------------------
async def redis_publish_baseline(url: str, clients: int, seconds: float) -> float:
    import redis.asyncio as aioredis

    r = aioredis.Redis.from_url(url, max_connections=clients + 4)
    sub = aioredis.Redis.from_url(url)
    ps = sub.pubsub(ignore_subscribe_messages=True)
    topic = unique_prefix("bench-raw") + "topic"
    await ps.subscribe(topic)
    received = 0
    stop = asyncio.Event()

    async def reader() -> None:
        nonlocal received
        while not stop.is_set():
            m = await ps.get_message(timeout=0.2)
            if m:
                received += 1

    payload = pack({"seat": "A", "ts": 0, "text": "b:A:0.0: the Politburo meets at dawn"})
    count = 0

    async def pub() -> None:
        nonlocal count
        while not stop.is_set():
            await r.publish(topic, payload)
            count += 1

    rt = asyncio.create_task(reader())
    t0 = time.perf_counter()
    tasks = [asyncio.create_task(pub()) for _ in range(clients)]
    await asyncio.sleep(seconds)
    stop.set()
    n, dt = count, time.perf_counter() - t0
    await asyncio.gather(*tasks, rt, return_exceptions=True)
    await ps.aclose()
    await sub.aclose()
    await r.aclose()
    return n / dt


async def echo_server_main(port: int) -> None:
    from aiohttp import web

    async def ws(request):
        w = web.WebSocketResponse(max_msg_size=1 << 20)
        await w.prepare(request)
        async for m in w:
            if m.type == aiohttp.WSMsgType.BINARY:
                await w.send_bytes(m.data)
        return w

    app = web.Application()
    app.router.add_get("/ws", ws)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", port)
    await site.start()
    print(f"echo: listening on http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}/", flush=True)
    await asyncio.Event().wait()


async def ws_echo_baseline(clients: int, seconds: float) -> float:
    proc = await asyncio.create_subprocess_exec(sys.executable, __file__, "--echo-server", stdout=asyncio.subprocess.PIPE)
    line = (await asyncio.wait_for(proc.stdout.readline(), 20)).decode()
    base = "ws://" + line.split("http://", 1)[1].split("/", 1)[0] + "/ws"
    count = 0
    stop = asyncio.Event()
    frame = pack({"t": "chat", "id": 1, "channel": "public", "text": "b:A:0.0: the Politburo meets at dawn"})
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as s:
        wss = [await s.ws_connect(base) for _ in range(clients)]

        async def one(w) -> None:
            nonlocal count
            while not stop.is_set():
                await w.send_bytes(frame)
                m = await w.receive()
                unpack(m.data)
                count += 1

        t0 = time.perf_counter()
        tasks = [asyncio.create_task(one(w)) for w in wss]
        await asyncio.sleep(seconds)
        stop.set()
        n, dt = count, time.perf_counter() - t0
        await asyncio.gather(*tasks, return_exceptions=True)
        for w in wss:
            await w.close()
    proc.kill()
    await proc.wait()
    return n / dt


# -- main ----------------------------------------------------------------------------------------
async def run(args: argparse.Namespace) -> dict:
    redis_url = args.redis or None
    if redis_url and not redis_reachable():
        sys.exit(f"no Redis at {redis_url}; start one or pass --redis '' for the embedded store")
    load_before = os.getloadavg()[0] if hasattr(os, "getloadavg") else None   # other work on the machine skews it
    prefix = unique_prefix("bench")
    srv_args = ["--chat-rate", "1e9", "--chat-burst", "1e9", "--frame-rate", "1e9", "--log-level", "WARNING"]
    if redis_url:
        srv_args += ["--redis", redis_url, "--prefix", prefix]
    server = ServerProcess(*srv_args)
    if args.url:                                   # a server started elsewhere (its own limits apply)
        server.base = args.url.rstrip("/")
        redis_url = None
    else:
        await server.start()
    st = Stats()
    stop = asyncio.Event()
    per_table = [args.clients // args.games + (1 if i < args.clients % args.games else 0) for i in range(args.games)]
    if max(per_table) > args.players:
        sys.exit(f"{args.clients} clients do not fit at {args.games} tables of {args.players} seats")
    rng = random.Random(args.seed)
    try:
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
            tables = [asyncio.create_task(table(server.base, session, n, args.players, args.max_turns, stop, st,
                                                random.Random(rng.random())))
                      for n in per_table if n > 0]
            await asyncio.sleep(1.0)                       # warm-up: games created, seats filled
            base = (st.human_actions, st.chat_acked, st.deliveries, len(st.chat_lat), len(st.act_lat), st.actions)
            t0 = time.perf_counter()
            await asyncio.sleep(args.seconds)
            dt = time.perf_counter() - t0
            snap = (st.human_actions, st.chat_acked, st.deliveries, len(st.chat_lat), len(st.act_lat), st.actions)
            stop.set()
            await asyncio.gather(*tables, return_exceptions=True)
    finally:
        if not args.url:
            await server.stop()
        if redis_url:
            await destroy_prefix(prefix, redis_url)
    human = snap[0] - base[0]
    chat_n = snap[1] - base[1]
    deliveries = snap[2] - base[2]
    chat_lat = st.chat_lat[base[3]:snap[3]]
    act_lat = st.act_lat[base[4]:snap[4]]
    actions = snap[5] - base[5]
    res = {
        "store": "external" if args.url else "redis" if redis_url else "memory", "clients": args.clients, "games": args.games,
        "players": args.players, "seconds": round(dt, 2),
        "actions_per_s": round(actions / dt, 1), "human_actions_per_s": round(human / dt, 1),
        "games_finished": st.games_finished,
        "chat_msgs_per_s": round(chat_n / dt, 1), "chat_deliveries_per_s": round(deliveries / dt, 1),
        "chat_latency_ms": {"p50": round(pct(chat_lat, 0.5) * 1e3, 2), "p99": round(pct(chat_lat, 0.99) * 1e3, 2)},
        "action_latency_ms": {"p50": round(pct(act_lat, 0.5) * 1e3, 2), "p99": round(pct(act_lat, 0.99) * 1e3, 2)},
        "errors": st.errors,
    }
    base_s = min(args.seconds, args.baseline_seconds)
    url = redis_url or ("redis://127.0.0.1:6379/0" if redis_reachable() else None)
    if url:
        pub = await redis_publish_baseline(url, args.clients, base_s)
        res["redis_publish_per_s"] = round(pub, 1)
        res["chat_vs_redis_publish"] = round(res["chat_msgs_per_s"] / pub, 4)
    echo = await ws_echo_baseline(args.clients, base_s)
    res["ws_echo_per_s"] = round(echo, 1)
    res["chat_vs_ws_echo"] = round(res["chat_msgs_per_s"] / echo, 4)
    res["cpus"] = os.cpu_count()
    res["load_avg_before"] = round(load_before, 2) if load_before is not None else None
    res["chat_latency_mean_ms"] = round(statistics.fmean(chat_lat) * 1e3, 2) if chat_lat else None
    return res


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--clients", type=int, default=10, help="WebSocket clients, each a human seat (default 10)")
    p.add_argument("--games", type=int, default=2, help="tables played at once (default 2)")
    p.add_argument("--seconds", type=float, default=10.0, help="measured seconds of play and chat (default 10)")
    p.add_argument("--redis", default="redis://127.0.0.1:6379/0",
                   help="Redis URL for the server (default redis://127.0.0.1:6379/0; '' for the embedded store)")
    p.add_argument("--players", type=int, default=5, help="seats per game (default 5)")
    p.add_argument("--max-turns", type=int, default=3, help="turn limit of each game (default 3)")
    p.add_argument("--baseline-seconds", type=float, default=3.0, help="seconds for each baseline (default 3)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--url", default=None,
                   help="benchmark a server that is already running at this URL instead of starting one")
    p.add_argument("--json", action="store_true", help="print the result as JSON only")
    p.add_argument("--echo-server", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.echo_server:
        asyncio.run(echo_server_main(args.port))
        return 0
    res = asyncio.run(run(args))
    if args.json:
        print(json.dumps(res, indent=2))
        return 0
    print(f"server benchmark: {res['store']} store, {res['clients']} clients at {res['games']} tables of "
          f"{res['players']}, {res['seconds']} s, {res['cpus']} CPUs (load average {res['load_avg_before']} before; "
          f"the clients, the server and the baselines share them)")
    print(f"  actions/s          {res['actions_per_s']:>10}   (human {res['human_actions_per_s']}; "
          f"games finished {res['games_finished']})")
    print(f"  chat messages/s    {res['chat_msgs_per_s']:>10}   (deliveries/s {res['chat_deliveries_per_s']})")
    print(f"  chat delivery      p50 {res['chat_latency_ms']['p50']} ms, p99 {res['chat_latency_ms']['p99']} ms")
    print(f"  action round trip  p50 {res['action_latency_ms']['p50']} ms, p99 {res['action_latency_ms']['p99']} ms")
    if "redis_publish_per_s" in res:
        print(f"  raw redis-py PUBLISH/s {res['redis_publish_per_s']:>10}   chat/PUBLISH = {res['chat_vs_redis_publish']}")
    print(f"  bare aiohttp WS echo/s {res['ws_echo_per_s']:>10}   chat/echo    = {res['chat_vs_ws_echo']}")
    if res["errors"]:
        print(f"  errors: {res['errors']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
