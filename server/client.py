"""An async Python client for the game server (used by the tests, the benchmark and the
terminal game).

    lobby = Lobby("http://127.0.0.1:8080")
    g = await lobby.create_game(players=5, bot_seats=["C", "D", "E"], options={"max_turns": 3})
    seat = await lobby.join(g["game"], name="Ann")
    c = await GameClient.connect("http://127.0.0.1:8080", g["game"], seat["token"])
    await c.act({"t": "EndTrading"})
    await c.chat("public", "Greetings, comrades")
    await c.wait_for(lambda c: c.status == "over")

:class:`GameClient` keeps the latest ``view``, ``pending``, ``legal``, ``facts``, ``seq`` and ``hash``
from ``update`` pushes, every event (``events``), the (seq, hash) trail (``trail``) and the
chat messages seen per channel (``messages``, deduplicated by id; :meth:`GameClient.catch_up`
fetches what was missed while disconnected).  Requests raise :class:`ServerError` on an
``error`` frame.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import Callable
from typing import Any

import aiohttp
from rcw.server.protocol import pack, unpack


class ServerError(Exception):
    """An ``error`` frame (or HTTP error body) from the server."""

    def __init__(self, code: str, message: str = "", rule: str | None = None, frame: dict | None = None) -> None:
        super().__init__(f"{code}: {message}" + (f" ({rule})" if rule else ""))
        self.code = code
        self.message = message
        self.rule = rule
        self.frame = frame or {}

    @property
    def engine_code(self) -> str | None:
        return self.frame.get("engine_code")


def _ws_url(base: str) -> str:
    base = base.rstrip("/")
    if base.startswith("https://"):
        return "wss://" + base[len("https://"):] + "/ws"
    if base.startswith("http://"):
        return "ws://" + base[len("http://"):] + "/ws"
    return base + "/ws"


class Lobby:
    """The HTTP JSON lobby."""

    def __init__(self, base_url: str, session: aiohttp.ClientSession | None = None) -> None:
        self.base = base_url.rstrip("/")
        self._own = session is None
        self.session = session or aiohttp.ClientSession()

    async def close(self) -> None:
        if self._own:
            await self.session.close()

    async def __aenter__(self) -> Lobby:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    async def _call(self, method: str, path: str, body: dict | None = None, token: str | None = None,
                    params: dict | None = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with self.session.request(method, self.base + path, json=body, headers=headers, params=params) as r:
            data = await r.json(content_type=None)
            if r.status >= 400:
                err = (data or {}).get("error", {}) if isinstance(data, dict) else {}
                raise ServerError(err.get("code", f"http_{r.status}"), err.get("message", ""), err.get("rule"), err)
            return data

    async def healthz(self) -> dict:
        return await self._call("GET", "/healthz")

    async def create_game(self, **spec: Any) -> dict:
        """players, seed, options, bots, on_leave, deadline, name, bot_seats -> {game, admin_token, info}."""
        return await self._call("POST", "/api/games", spec)

    async def list_games(self, status: str = "open") -> list[dict]:
        return (await self._call("GET", "/api/games", params={"status": status}))["games"]

    async def game(self, gid: str) -> dict:
        return await self._call("GET", f"/api/games/{gid}")

    async def join(self, gid: str, seat: str | None = None, name: str | None = None) -> dict:
        return await self._call("POST", f"/api/games/{gid}/join", {"seat": seat, "name": name})

    async def fill_bots(self, gid: str, admin_token: str, kind: str | None = None, seats: list[str] | None = None) -> dict:
        return await self._call("POST", f"/api/games/{gid}/bots", {"kind": kind, "seats": seats}, token=admin_token)

    async def leave(self, gid: str, token: str) -> dict:
        return await self._call("POST", f"/api/games/{gid}/leave", {}, token=token)

    async def reclaim(self, gid: str, token: str) -> dict:
        return await self._call("POST", f"/api/games/{gid}/reclaim", {"token": token})

    async def login(self, code: str) -> dict:
        return await self._call("POST", "/api/login", {"code": code})

    async def record(self, gid: str, admin_token: str | None = None) -> dict:
        return await self._call("GET", f"/api/games/{gid}/record", token=admin_token)


class GameClient:
    """One WebSocket to one game, as a seat (with its token) or as a spectator."""

    def __init__(self, base_url: str, game: str, token: str | None = None,
                 session: aiohttp.ClientSession | None = None) -> None:
        self.base = base_url
        self.game = game
        self.token = token
        self._own = session is None
        self.session = session
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self._ids = itertools.count(1)
        self._waiting: dict[Any, asyncio.Future] = {}
        self._reader: asyncio.Task | None = None
        self._changed = asyncio.Condition()
        self.seat: str | None = None
        self.seq = -1
        self.hash = ""
        self.status = ""
        self.view: dict = {}
        self.pending: list[dict] = []
        self.legal: list[dict] = []
        self.facts: dict = {}
        self.seats: dict = {}
        self.result: dict | None = None
        self.info: dict = {}
        self.deadlines: dict[str, int] = {}     # the game's running deadlines, ms since the epoch (issue 16)
        self.away: dict | None = None           # "while you were away" (welcome)
        self.notify_prefs: dict | None = None   # the seat's notification settings (welcome, ``notify`` pushes)
        self.online: list[str] = []             # the seats a connection holds (welcome, ``presence`` pushes)
        self.channels: dict[str, dict] = {}
        self.messages: dict[str, dict[int, dict]] = {}
        self.events: list[dict] = []
        self.trail: list[tuple[int, str]] = []
        self.pushes: list[dict] = []
        self.keep_pushes = False
        self.on_push: Callable[[dict], Any] | None = None
        self._queues: list[asyncio.Queue] = []
        self.closed = asyncio.Event()

    # -- connecting --------------------------------------------------------------------------
    @classmethod
    async def connect(cls, base_url: str, game: str, token: str | None = None, *,
                      session: aiohttp.ClientSession | None = None, hello: bool = True) -> GameClient:
        c = cls(base_url, game, token, session)
        try:
            await c._open()
            if hello:
                await c.hello()
        except BaseException:            # (refused: the connection, and a session of its own, closed)
            await c.close()
            raise
        return c

    async def _open(self) -> None:
        if self.session is None:
            self.session = aiohttp.ClientSession()
            self._own = True
        self.closed.clear()
        self.ws = await self.session.ws_connect(_ws_url(self.base), max_msg_size=0, autoping=True)
        self._reader = asyncio.create_task(self._read_loop())

    async def hello(self) -> dict:
        f: dict[str, Any] = {"game": self.game}
        if self.token:
            f["token"] = self.token
        w = await self.request("hello", **f)
        self._take_state(w)
        self.info = w.get("info", {})
        self.away = w.get("away")
        self.notify_prefs = w.get("notify")
        self.online = w.get("online", [])
        for ch in w.get("channels", []):
            self.channels[ch["name"]] = ch
            self.messages.setdefault(ch["name"], {})
        self.limits = w.get("limits", {})
        return w

    async def reconnect(self) -> dict:
        """Drop the socket, connect again with the same token, and fetch missed chat."""
        await self._close_ws()
        await self._open()
        w = await self.hello()
        await self.catch_up()
        return w

    async def _close_ws(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
        for fut in self._waiting.values():
            if not fut.done():
                fut.set_exception(ConnectionError("connection closed"))
        self._waiting.clear()

    async def close(self) -> None:
        await self._close_ws()
        if self._own and self.session is not None:
            await self.session.close()

    async def __aenter__(self) -> GameClient:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    # -- frames ------------------------------------------------------------------------------
    async def send_raw(self, data: bytes | str) -> None:
        """Send bytes (or a text frame) as they are: for testing the server's checks."""
        if isinstance(data, str):
            await self.ws.send_str(data)
        else:
            await self.ws.send_bytes(data)

    async def request(self, t: str, timeout: float = 30.0, **fields: Any) -> dict:
        rid = next(self._ids)
        fut = asyncio.get_running_loop().create_future()
        self._waiting[rid] = fut
        try:
            await self.ws.send_bytes(pack({"t": t, "id": rid, **fields}))
            reply = await asyncio.wait_for(fut, timeout)
        finally:
            self._waiting.pop(rid, None)
        if reply.get("t") == "error":
            raise ServerError(reply.get("code", "?"), reply.get("message", ""), reply.get("rule"), reply)
        return reply

    async def send_raw_for(self, data: bytes | str, rid: Any, timeout: float = 10.0) -> dict:
        """Send ``data`` as it is and wait for the frame answering request id ``rid`` (for testing
        that the server echoes an id it could read in a frame it refuses)."""
        fut = asyncio.get_running_loop().create_future()
        self._waiting[rid] = fut
        try:
            await self.send_raw(data)
            return await asyncio.wait_for(fut, timeout)
        finally:
            self._waiting.pop(rid, None)

    async def next_error(self, timeout: float = 10.0) -> dict:
        """Wait for an error push that answers no request (e.g. after :meth:`send_raw`)."""
        fut = asyncio.get_running_loop().create_future()
        self._waiting[("raw",)] = fut
        try:
            return await asyncio.wait_for(fut, timeout)
        finally:
            self._waiting.pop(("raw",), None)

    async def _read_loop(self) -> None:
        try:
            async for m in self.ws:
                if m.type != aiohttp.WSMsgType.BINARY:
                    continue
                f = unpack(m.data)
                rid = f.get("id")
                if rid is not None and rid in self._waiting:
                    fut = self._waiting[rid]
                    if not fut.done():
                        fut.set_result(f)
                    continue
                if f.get("t") == "error" and ("raw",) in self._waiting:
                    fut = self._waiting[("raw",)]
                    if not fut.done():
                        fut.set_result(f)
                    continue
                self._push(f)
                for q in self._queues:
                    q.put_nowait(f)
                if self.on_push is not None:
                    r = self.on_push(f)
                    if asyncio.iscoroutine(r):
                        await r
                async with self._changed:
                    self._changed.notify_all()
        finally:
            self.closed.set()
            for q in self._queues:
                q.put_nowait(None)
            for fut in self._waiting.values():
                if not fut.done():
                    fut.set_exception(ConnectionError("connection closed"))
            async with self._changed:
                self._changed.notify_all()

    def _take_state(self, f: dict) -> None:
        self.seat = f.get("seat", self.seat)
        self.seq = f["seq"]
        self.hash = f["hash"]
        self.status = f["status"]
        self.view = f["view"]
        self.pending = f["pending"]
        self.legal = f["legal"]
        self.facts = f.get("facts", {})
        self.result = f.get("result")
        if "seats" in f:
            self.seats = f["seats"]
        if "deadlines" in f:
            self.deadlines = f["deadlines"]
        if not self.trail or self.trail[-1][0] < self.seq:
            self.trail.append((self.seq, self.hash))

    def _push(self, f: dict) -> None:
        if self.keep_pushes:
            self.pushes.append(f)
        t = f.get("t")
        if t == "update":
            if f["seq"] <= self.seq and f.get("action") is not None:
                return
            self._take_state(f)
            self.events.extend(f["events"])
        elif t == "msg":
            self.messages.setdefault(f["channel"], {})[f["msg"]["id"]] = f["msg"]
        elif t == "channel":
            ch = f["channel"]
            self.channels[ch["name"]] = ch
            self.messages.setdefault(ch["name"], {})
        elif t == "seats":
            self.seats = f["seats"]
            self.status = f["status"]
            if "legal" in f:                # (the status changed: what this seat may do now)
                self.legal = f["legal"]
                self.facts = f.get("facts", {})
        elif t == "deadline":
            self.deadlines = f["deadlines"]
        elif t == "notify":
            self.notify_prefs = f["notify"]
        elif t == "presence":
            self.online = f["online"]

    def push_queue(self) -> asyncio.Queue:
        """A queue that receives every push from now on (``update``, ``msg``, ``channel``,
        ``seats``), after the client's own state has taken it in; ``None`` when the socket closes."""
        q: asyncio.Queue = asyncio.Queue()
        self._queues.append(q)
        return q

    async def wait_for(self, pred: Callable[[GameClient], bool], timeout: float = 30.0) -> None:
        """Wait until ``pred(self)`` holds (checked after every push)."""
        async def _wait() -> None:
            async with self._changed:
                while not pred(self):
                    if self.closed.is_set():
                        raise ConnectionError("connection closed")
                    await self._changed.wait()
        await asyncio.wait_for(_wait(), timeout)

    # -- the state -----------------------------------------------------------------------------
    @property
    def my_turn(self) -> bool:
        """Whether the game waits on this seat now."""
        return self.seat is not None and any(p["seat"] == self.seat for p in self.pending)

    @property
    def over(self) -> bool:
        return self.status == "over"

    # -- requests ------------------------------------------------------------------------------
    async def ping(self) -> dict:
        return await self.request("ping")

    async def refresh(self) -> dict:
        f = await self.request("view")
        self._take_state(f)
        return f

    async def act(self, action: dict, seq: int | None = None) -> dict:
        f: dict[str, Any] = {"action": action}
        if seq is not None:
            f["seq"] = seq
        return await self.request("act", **f)

    async def query(self, q: str, **args: Any) -> Any:
        """Ask the engine (``odds``, ``purge_odds``, ``assassination``...): its answer."""
        return (await self.request("query", q=q, **args))["answer"]

    async def chat(self, channel: str, text: str = "", proposal: dict | None = None) -> dict:
        f: dict[str, Any] = {"channel": channel, "text": text}
        if proposal is not None:
            f["proposal"] = proposal
        msg = (await self.request("chat", **f))["msg"]
        self.messages.setdefault(channel, {})[msg["id"]] = msg
        return msg

    async def history(self, channel: str, after: int = 0, limit: int = 200) -> list[dict]:
        r = await self.request("history", channel=channel, after=after, limit=limit)
        for m in r["messages"]:
            self.messages.setdefault(channel, {})[m["id"]] = m
        return r["messages"]

    def last_seen(self, channel: str) -> int:
        ms = self.messages.get(channel)
        return max(ms) if ms else 0

    async def catch_up(self) -> int:
        """Fetch every message newer than the last one seen, in every readable channel."""
        n = 0
        chans = (await self.request("channels"))["channels"]
        for ch in chans:
            self.channels[ch["name"]] = ch
            while True:
                got = await self.history(ch["name"], after=self.last_seen(ch["name"]), limit=500)
                n += len(got)
                if len(got) < 500:
                    break
        return n

    async def open_channel(self, members: list[str], title: str = "") -> dict:
        ch = (await self.request("open_channel", members=members, title=title))["channel"]
        self.channels[ch["name"]] = ch
        self.messages.setdefault(ch["name"], {})
        return ch

    async def accept(self, channel: str, msg: int) -> dict:
        return (await self.request("accept", channel=channel, msg=msg))["msg"]

    async def decline(self, channel: str, msg: int) -> dict:
        return (await self.request("decline", channel=channel, msg=msg))["msg"]

    # -- postal games, absences, notifications (issue 16) ------------------------------------------
    async def sheet(self, orders: list[dict], turn: int | None = None, phase: str | None = None) -> dict:
        """Send (or replace) this seat's order sheet for the open phase (or ``turn``/``phase``)."""
        return await self.request("sheet", turn=self.view["turn"] if turn is None else turn,
                                  phase=self.view["postal"]["phase"] if phase is None else phase,
                                  sheet={"orders": orders})

    async def reports(self, after: int = 0) -> list[dict]:
        """The postal game's phase reports, oldest first (each with ``text``)."""
        return (await self.request("reports", after=after))["reports"]

    async def pause(self, seconds: float) -> dict:
        return await self.request("pause", seconds=seconds)

    async def reclaim(self) -> dict:
        return await self.request("reclaim")

    async def notify(self, **prefs: Any) -> dict:
        return await self.request("notify", **prefs)

    async def leave(self) -> dict:
        r = await self.request("leave")
        self.seat = None
        self.token = None
        return r
