"""Helpers for tests and benchmarks: run a server (in this process or as a subprocess), play
a seat randomly through the client, and recompute a game's hashes from its record."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from rcw.server.app import HUB, make_app
from rcw.server.client import GameClient, ServerError
from rcw.server.config import Config
from rcw.server.lobby import Hub
from rcw.server.store import MemoryStore, RedisStore, Store

REDIS_URL = os.environ.get("RCW_TEST_REDIS", "redis://127.0.0.1:6379/0")
# Steps a random test player avoids unless nothing else is legal: they undo or repeat
# (a committee consent can be given and withdrawn forever) rather than move the game on.
UNDO = ("Quit", "CancelAttack", "RemoveAttacker", "JoinCommittee", "LeaveCommittee", "OfferTrade", "AcceptTrade",
        "DeclineTrade", "WithdrawTrade")


def redis_reachable(host: str = "127.0.0.1", port: int = 6379, timeout: float = 0.5) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def unique_prefix(tag: str = "test") -> str:
    return f"rcwtest:{tag}:{uuid.uuid4().hex[:10]}:"


@dataclass
class Running:
    base: str
    hub: Hub
    store: Store
    runner: web.AppRunner


#: Admission control switched off (server/admission.py): every test client comes from 127.0.0.1.
NO_LIMITS = {"create_rate": 0.0, "costly_rate": 0.0, "max_games": 0, "max_bot_games": 0}


@contextlib.asynccontextmanager
async def running_server(store: Store, config: Config | None = None, limits: bool = False) -> AsyncIterator[Running]:
    """The real aiohttp application on 127.0.0.1, an ephemeral port, in this event loop.  Unless
    ``limits``, without admission control (the tests of other things create many games from one
    address); the tests of the limits pass ``limits=True``."""
    config = config or Config()
    if not config.bot_workers and os.environ.get("RCW_TEST_BOT_WORKERS"):
        # (the suite again with the bots in worker processes: RCW_TEST_BOT_WORKERS=1 python -m pytest ...)
        config = dataclasses.replace(config, bot_workers=int(os.environ["RCW_TEST_BOT_WORKERS"]))
    if not limits:
        config = dataclasses.replace(config, **NO_LIMITS)
    if config.bot_wait == Config.bot_wait:
        # (the tests' humans answer a bot's Committee invitation or not at all: the bots do not
        # wait for them unless a test says how long, e.g. tests/test_server_talk.py)
        config = dataclasses.replace(config, bot_wait=0.0)
    app = make_app(store, config)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    if not app[HUB].notifier.base:
        app[HUB].notifier.base = f"http://127.0.0.1:{port}"    # (as rcw serve does: the links of e-mails)
    try:
        yield Running(f"http://127.0.0.1:{port}", app[HUB], store, runner)
    finally:
        await runner.cleanup()


@contextlib.asynccontextmanager
async def kind_store(kind: str, tag: str) -> AsyncIterator[Store]:
    """A fresh store of ``kind`` (``memory``, or ``redis`` under a prefix of its own, deleted after)."""
    prefix = unique_prefix(tag)
    try:
        yield MemoryStore() if kind == "memory" else RedisStore(REDIS_URL, prefix)
    finally:
        if kind == "redis":
            await destroy_prefix(prefix)


@contextlib.asynccontextmanager
async def restartable_store(kind: str, tag: str) -> AsyncIterator[Callable[[], Store]]:
    """For servers started one after another on the same data: a function that gives a store of
    ``kind`` on it each time (the one ``memory`` store, or a new ``redis`` one under the same
    prefix, deleted after)."""
    prefix = unique_prefix(tag)
    memory = MemoryStore()
    try:
        yield lambda: memory if kind == "memory" else RedisStore(REDIS_URL, prefix)
    finally:
        if kind == "redis":
            await destroy_prefix(prefix)


async def destroy_prefix(prefix: str, url: str = REDIS_URL) -> None:
    s = RedisStore(url, prefix)
    import redis.asyncio as aioredis

    s.r = aioredis.Redis.from_url(url)
    try:
        await s.destroy()
    finally:
        await s.r.aclose()


class ServerProcess:
    """``rcw serve`` (``python -m rcw.cli serve``: the console script's own entry point) as a
    real subprocess, for multi-process and kill -9 tests."""

    def __init__(self, *args: str) -> None:
        self.args = list(args)
        if "--bot-wait" not in self.args:
            # (as running_server: the tests' humans answer a bot's Committee invitation or not at
            # all, so a bot does not wait 20 s for them unless a test says how long)
            self.args += ["--bot-wait", "0"]
        self.proc: asyncio.subprocess.Process | None = None
        self.base = ""
        self.banner = ""            # the first stdout line ("rcw serve: listening on ...")
        self.log = Path(tempfile.mkstemp(prefix="rcw-serve-", suffix=".log")[1])

    async def start(self, timeout: float = 30.0) -> str:
        root = Path(__file__).resolve().parent.parent
        env = dict(os.environ)
        env["PYTHONPATH"] = str(root) + os.pathsep + env.get("PYTHONPATH", "")
        self._errf = open(self.log, "ab")  # noqa: SIM115 - closed in stop()
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "rcw.cli", "serve", "--port", "0", *self.args,
            stdout=asyncio.subprocess.PIPE, stderr=self._errf, cwd=str(root), env=env)
        line = await asyncio.wait_for(self.proc.stdout.readline(), timeout)
        text = self.banner = line.decode()
        if "http://" not in text:
            raise RuntimeError(f"server did not start: {text!r}; log: {self.log.read_text()[-2000:]}")
        self.base = text.split("http://", 1)[1].split("/", 1)[0]
        self.base = "http://" + self.base
        return self.base

    async def kill(self) -> None:
        """SIGKILL: no cleanup, no lease release, sockets dropped."""
        if self.proc and self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()

    async def stop(self) -> None:
        if self.proc and self.proc.returncode is None:
            self.proc.terminate()
            try:
                await asyncio.wait_for(self.proc.wait(), 10)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()
        with contextlib.suppress(Exception):
            self._errf.close()

    def stderr_tail(self, n: int = 3000) -> str:
        with contextlib.suppress(OSError):
            return self.log.read_text(errors="replace")[-n:]
        return ""


def choose(legal: list[dict], rng: random.Random) -> dict:
    """A random legal action that moves the game on (an ``End...`` step one time in four)."""
    opts = [a for a in legal if a["t"] not in UNDO] or [a for a in legal if a["t"] != "Quit"] or legal
    ends = [a for a in opts if a["t"].startswith("End")]
    if ends and rng.random() < 0.25:
        return rng.choice(ends)
    return rng.choice(opts)


async def play_randomly(c: GameClient, rng: random.Random, *, chat: list[str] | None = None, chat_every: int = 0,
                        stop_at: int | None = None, acked: list[int] | None = None,
                        said: list[tuple[str, int, str]] | None = None, timeout: float = 60.0) -> int:
    """Play ``c``'s seat with random legal actions until the game is over (or ``seq`` reaches
    ``stop_at``); every ``chat_every`` actions post a line to each channel in ``chat``.
    Acknowledged action seqs go to ``acked``, acknowledged messages to ``said``."""
    n = 0

    def ready(c: GameClient) -> bool:
        return c.over or (stop_at is not None and c.seq >= stop_at) or (c.my_turn and bool(c.legal))

    while True:
        await c.wait_for(ready, timeout)
        if c.over or (stop_at is not None and c.seq >= stop_at):
            return n
        try:
            r = await c.act(choose(c.legal, rng), seq=c.seq)
        except ServerError as e:
            if e.code in ("stale", "rate_limited", "not_started"):
                await asyncio.sleep(0.005 if e.code == "stale" else 0.2)
                continue
            raise
        n += 1
        if acked is not None:
            acked.append(r["seq"])
        if chat and chat_every and n % chat_every == 0:
            for ch in chat:
                text = f"{c.seat} says {n} in {ch}"
                msg = await c.chat(ch, text)
                if said is not None:
                    said.append((ch, msg["id"], text))


def replay_hashes(record: dict) -> dict[int, str]:
    """The state hash after every action of a game record (seq 0: before any action), in its mode."""
    from rcw import modes

    g = modes.new_game(record["players"], record["seed"], record["options"])
    out = {0: g.state_hash()}
    for i, a in enumerate(record["actions"], 1):
        g.apply(a)
        out[i] = g.state_hash()
    return out


def check_trail(trail: list[tuple[int, str]], hashes: dict[int, str], contiguous: bool = True) -> None:
    """A client's (seq, hash) trail agrees with the replayed game (and, unless the client
    reconnected, has every seq from its first to its last)."""
    seqs = [s for s, _ in trail]
    if contiguous:
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), f"gaps in the trail: {seqs[:5]}...{seqs[-5:]}"
    for s, h in trail:
        assert hashes[s] == h, f"hash differs from the replayed game at seq {s}"


def summary(x: Any) -> str:
    return repr(x)[:200]


# -- a local Redis Cluster ---------------------------------------------------------------------
def redis_cluster_missing() -> str | None:
    """Why a local Redis Cluster cannot be started here (None: it can)."""
    for tool in ("redis-server", "redis-cli"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed"
    out = subprocess.run(["redis-server", "--version"], capture_output=True, text=True).stdout
    version = out.split("v=", 1)[1].split()[0] if "v=" in out else "0"
    if int(version.split(".")[0]) < 7:
        return f"redis-server {version} has no sharded pub/sub (7.0 or later needed)"
    return None


def free_port() -> int:
    """A TCP port free on loopback now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def free_ports(n: int) -> list[int]:
    """``n`` different TCP ports free on loopback now (held together while chosen: two calls of
    :func:`free_port` may give the same port)."""
    socks = [socket.socket() for _ in range(n)]
    try:
        for s in socks:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


class _NodeDied(Exception):
    """A cluster node exited as it started (most likely its port was taken meanwhile)."""


def _stop(procs: list[subprocess.Popen]) -> None:
    for p in procs:
        p.terminate()
    for p in procs:
        try:
            p.wait(10)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def _start_nodes(tmp: Path, masters: int, timeout: float, procs: list[subprocess.Popen]) -> list[tuple[str, int]]:
    """Start ``masters`` cluster-enabled redis-servers (appended to ``procs``) and wait until each
    answers; raises _NodeDied if one exits meanwhile."""
    ports = free_ports(2 * masters)
    nodes = [("127.0.0.1", port) for port in ports[:masters]]
    for port, bus in zip(ports[:masters], ports[masters:], strict=True):
        procs.append(subprocess.Popen(
            ["redis-server", "--port", str(port), "--cluster-port", str(bus), "--bind", "127.0.0.1",
             "--cluster-enabled", "yes", "--cluster-config-file", str(tmp / f"nodes-{port}.conf"),
             "--dir", str(tmp), "--save", "", "--appendonly", "no", "--logfile", str(tmp / f"{port}.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    end = time.monotonic() + timeout
    for proc, (_, port) in zip(procs, nodes, strict=True):
        while not _pong(port):
            if proc.poll() is not None:
                log = tmp / f"{port}.log"
                raise _NodeDied(f"redis-server on port {port} exited: "
                                f"{log.read_text()[-500:] if log.exists() else 'no log'}")
            assert time.monotonic() < end, f"redis-server on port {port} did not start"
            time.sleep(0.05)
    return nodes


def _pong(port: int) -> bool:
    """Whether a Redis answers PING on the port (what else listens there may not answer at all)."""
    try:
        return subprocess.run(["redis-cli", "-p", str(port), "ping"], capture_output=True, text=True,
                              timeout=2).stdout.strip() == "PONG"
    except subprocess.TimeoutExpired:
        return False


@contextlib.contextmanager
def redis_cluster(masters: int = 3, timeout: float = 30.0, tries: int = 3):
    """A Redis Cluster of ``masters`` primaries (no replicas) on loopback, in a temporary
    directory, with nothing saved; yields the nodes' ``[(host, port)]``.  Torn down on exit.  A
    node that exits as it starts (its port taken by another program meanwhile) is started again
    on other ports, up to ``tries`` times."""
    tmp = Path(tempfile.mkdtemp(prefix="rcw-redis-cluster-"))
    procs: list[subprocess.Popen] = []
    try:
        for attempt in range(tries):
            try:
                nodes = _start_nodes(tmp, masters, timeout, procs)
                break
            except _NodeDied:
                _stop(procs)
                procs.clear()
                if attempt == tries - 1:
                    raise
        end = time.monotonic() + timeout
        subprocess.run(["redis-cli", "--cluster", "create", *[f"{h}:{p}" for h, p in nodes], "--cluster-yes"],
                       check=True, capture_output=True, timeout=timeout)
        for _, port in nodes:
            while "cluster_state:ok" not in subprocess.run(["redis-cli", "-p", str(port), "cluster", "info"],
                                                           capture_output=True, text=True).stdout:
                assert time.monotonic() < end, f"the cluster node on port {port} is not ok"
                time.sleep(0.05)
        yield nodes
    finally:
        _stop(procs)
        shutil.rmtree(tmp, ignore_errors=True)


# -- what the tests of the stores need -----------------------------------------------------------
#: A test that speaks to a real Redis on loopback skips without one (.ci/run starts one).
needs_redis = pytest.mark.skipif(not redis_reachable(),
                                 reason="no Redis on 127.0.0.1:6379 (.ci/run starts one; start redis-server to run these)")
#: A test of a local Redis Cluster (``cluster_url`` in conftest.py) skips where none can be started.
needs_cluster = pytest.mark.skipif(redis_cluster_missing() is not None,
                                   reason=f"no local Redis Cluster: {redis_cluster_missing()}")
#: The stores a server test runs on (``pytest.mark.parametrize("store_kind", STORES)``): in
#: memory, and on the real Redis.
STORES = ["memory", pytest.param("redis", marks=needs_redis)]


class KillableRedis:
    """A standalone redis-server of the test's own on a free loopback port, keeping its data in
    an append-only file in a temporary directory, so that it can be killed with SIGKILL (an
    outage) and started again on the same port with the same data."""

    def __init__(self) -> None:
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="rcw-redis-"))
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 20.0) -> None:
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.dir), "--save", "",
             "--appendonly", "yes", "--appendfsync", "always", "--logfile", str(self.dir / "redis.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        end = time.monotonic() + timeout
        while not _pong(self.port):
            assert self.proc.poll() is None and time.monotonic() < end, "redis-server did not start"
            time.sleep(0.05)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def close(self) -> None:
        self.kill()
        shutil.rmtree(self.dir, ignore_errors=True)
