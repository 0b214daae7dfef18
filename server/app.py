"""The aiohttp application: lobby over HTTP JSON, play and chat over one WebSocket per client.

``make_app(store, config)`` builds it; ``rcw serve`` runs it.  Routes::

    GET  /healthz                    status, version, broker type
    GET  /api/games?status=open      open games (status=live: not over; all: every game;
                                     finished: the 20 most recent over, with their result)
    POST /api/games                  create a game -> {game, admin_token, info}
    GET  /api/games/{id}             a game's public summary
    POST /api/games/{id}/join        take a seat -> {seat, token}
    POST /api/games/{id}/bots        fill open seats with bots (admin token)
    POST /api/games/{id}/leave       leave a seat (seat token)
    GET  /api/games/{id}/record      seed + action log (when over, or with the admin token: a drawn seed sealed)
    GET  /api/games/{id}/verify      the record checked: seed commitment and replay (rcw.verify)
    GET  /api/games/{id}/view?seq=N  a spectator's view after N actions (the same rule)
    POST /api/games/{id}/reclaim     take back a seat in civil disorder (seat token)
    POST /api/login                  an e-mail link's one-time code -> a device token of its seat
    GET  /api/email/verify?code=C    an e-mail address confirmed by its link
    GET  /ws                         the play protocol (docs/protocol.md)
                                     (``events``: the game's event history, read from the log;
                                     ``query``: the engine's answers, server/facts.py)
    GET  /  and static files         the browser client in server/static/
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import math
import struct
import time
from pathlib import Path
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web
from rcw.server import facts, metrics
from rcw.server.chat import RateLimiter
from rcw.server.config import Config
from rcw.server.lobby import Hub
from rcw.server.notify import public_prefs
from rcw.server.protocol import (
    MAX_EVENTS,
    MAX_FRAME,
    MAX_HISTORY,
    MAX_PROPOSAL,
    MAX_TEXT,
    WS_HARD_LIMIT,
    ProtocolError,
    error_frame,
    field,
    index,
    now_ms,
    pack,
    peek_id,
    unpack_frame,
)
from rcw.server.replay import rebuild
from rcw.server.runtime import GameRuntime
from rcw.server.store import STORE_DOWN, Store

from rcw.actions import IllegalAction, action_from_wire, to_wire

log = logging.getLogger("rcw.server")
STATIC = Path(__file__).parent / "static"
HUB = web.AppKey("hub", Hub)
#: Largest lobby request body (bytes); a longer one is refused with ``body_too_large`` (413).
MAX_BODY = 64 * 1024

_store_down_said = 0.0


def unavailable(e: BaseException) -> ProtocolError:
    """The ``unavailable`` error for a request that met the store down; one warning line every
    30 s at most (an outage is not a traceback per request)."""
    global _store_down_said
    now = time.monotonic()
    if now - _store_down_said >= 30:
        _store_down_said = now
        log.warning("the game store cannot be reached (%s): requests are answered 'unavailable'", e)
    return ProtocolError("unavailable", "the game store cannot be reached just now; retry later")


HTTP_STATUS = {"bad_request": 400, "bad_frame": 400, "unknown_game": 404, "bad_token": 403, "forbidden": 403,
               "bad_email": 400, "bad_webhook": 400, "no_email": 409, "not_postal": 409, "pause_refused": 409,
               "seat_taken": 409, "game_full": 409, "illegal_action": 409, "not_started": 409, "busy": 503,
               "rate_limited": 429, "unavailable": 503, "damaged_game": 500, "internal": 500, "not_found": 404,
               "method_not_allowed": 405, "body_too_large": 413}


#: Bytes a client's socket may hold unsent before its frames wait in its queue (for the writer
#: task, which waits until the client reads) instead of being written at once.
DIRECT_WRITE_LIMIT = 64 * 1024
_LEN1, _LEN2, _LEN3 = struct.Struct("!BB"), struct.Struct("!BBH"), struct.Struct("!BBQ")


def ws_binary_frame(data: bytes) -> bytes:
    """The header of a server's (unmasked, uncompressed) binary WebSocket frame, RFC 6455 5.2."""
    n = len(data)
    if n < 126:
        return _LEN1.pack(0x82, n)
    if n < 65536:
        return _LEN2.pack(0x82, 126, n)
    return _LEN3.pack(0x82, 127, n)


class Connection:
    """One WebSocket client: at most one game, a seat (or none: a spectator), an outbound queue.

    A frame is written to the socket at once, in the pass of the event loop that made it, when
    nothing waits before it and the client keeps up (:meth:`_put`); otherwise it waits in the
    queue for the writer task, which waits for the client to read.  A client that lets
    ``max_queue`` frames pile up is dropped."""

    def __init__(self, ws: web.WebSocketResponse, hub: Hub, addr: str | None = None, transport: Any = None) -> None:
        self.ws = ws
        self.transport = transport       # the client's socket (None: every frame goes through the writer task)
        self.hub = hub
        self.addr = addr
        self.rt: GameRuntime | None = None
        self.seat: str | None = None
        self.token: str | None = None
        self.prefs_shown: dict | None = None   # the seat's notification settings as this client last heard them
        self.closed = False
        self.dropped = False               # dropped for not reading (:meth:`_drop`)
        # The outbound frames (None: close), written in order by the writer task; ``_wake`` is
        # the future it waits on while the queue is empty (a deque and one future: cheaper per
        # frame than an asyncio.Queue, and the writer drains every queued frame per wake-up).
        self.queue: collections.deque[bytes | None] = collections.deque()
        self._wake: asyncio.Future | None = None
        self.limiter = RateLimiter(hub.config.frame_rate, hub.config.frame_burst)
        self.writer = asyncio.create_task(self._write_loop())

    # -- output -------------------------------------------------------------------------------
    def send(self, frame: dict, data: bytes | None = None, count: bool = True) -> bool:
        """Queue ``frame`` for the client; ``data``: the frame already packed (one frame sent to
        many clients is packed once); ``count``: count it in the metrics (a broadcast counts its
        frames once, with :meth:`Metrics.sent`'s ``n``).  Whether the frame was queued."""
        if self.closed:
            return False
        if len(self.queue) >= self.hub.config.max_queue:
            self._drop()
            return False
        if count:
            self.hub.metrics.sent(frame)
        self._put(pack(frame) if data is None else data)
        return True

    def _drop(self) -> None:
        """A client that lets ``max_queue`` frames pile up is dropped at once: its queue goes, the
        socket is closed with 1008 (or cut, if even the close cannot be written in 2 s).  QA: the
        writer went on sending the whole queue first, so a client that read later got thousands
        of frames and then 1000, and one that never read held its place for a minute."""
        rt = self.rt
        log.warning("game %s, seat %s, %s: dropping a client that does not read (%d frames queued)",
                    rt.gid if rt is not None else "-", self.seat or "spectator", self.addr or "?", len(self.queue))
        self.hub.metrics.limited("slow_reader")
        self.closed = self.dropped = True
        self.queue.clear()
        self.writer.cancel()          # (it may wait for the client to read a frame: it never will)

    def _put(self, data: bytes | None) -> None:
        if data is not None and self._wake is not None and not self.queue and self._write_now(data):
            return
        self.queue.append(data)
        w = self._wake
        if w is not None:
            self._wake = None
            if not w.done():
                w.set_result(None)

    def _write_now(self, data: bytes) -> bool:
        """Write one binary frame to the socket now (the writer task is idle, nothing is queued),
        unless the socket is closing or holds more than DIRECT_WRITE_LIMIT unsent bytes."""
        t = self.transport
        if t is None or t.is_closing() or self.ws.closed or t.get_write_buffer_size() > DIRECT_WRITE_LIMIT:
            return False
        if len(data) > 16384:
            t.writelines((ws_binary_frame(data), data))
        else:
            t.write(ws_binary_frame(data) + data)
        return True

    async def _write_loop(self) -> None:
        q = self.queue
        try:
            while True:
                if not q:
                    self._wake = w = asyncio.get_running_loop().create_future()
                    await w
                    continue
                data = q.popleft()
                if data is None:
                    break
                await self.ws.send_bytes(data)
        except (ConnectionError, RuntimeError, asyncio.CancelledError):
            pass
        finally:
            self.closed = True
            self._wake = None
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(self.ws.close(code=1008 if q or self.dropped else 1000,
                                                     message=b"the client does not read" if self.dropped else b""), 2)
            if self.dropped and self.transport is not None:
                self.transport.abort()    # (a closing socket still waits to write what it holds: it never will)

    async def close(self) -> None:
        if self.rt is not None:
            self.rt.detach(self)
        if not self.closed:
            self.closed = True
            self._put(None)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.writer, 2)

    # -- input --------------------------------------------------------------------------------
    async def handle(self, data: bytes) -> None:
        rid: Any = None
        try:
            frame = unpack_frame(data)
            rid = frame.get("id")
            if not self.limiter.allow(None):
                rate = self.hub.config.frame_rate
                raise ProtocolError("rate_limited", "too many frames; slow down", retry_after=max(0.1, round(1 / rate, 1)))
            t = frame["t"]
            if t not in ("hello", "ping") and self.rt is None:
                raise ProtocolError("not_joined", "send 'hello' first")
            reply = await self.hub.metrics.request(t, getattr(self, "on_" + t)(frame))
            if reply is not None:
                reply["id"] = rid
                self.send(reply)
        except ProtocolError as e:
            self.send(e.frame(rid))
        except IllegalAction as e:
            self.send(error_frame(rid, "illegal_action", e.message, rule=e.rule, engine_code=e.code))
        except STORE_DOWN as e:
            self.send(unavailable(e).frame(rid))
        except Exception:
            log.exception("request failed")
            self.send(error_frame(rid, "internal", "server error (logged)"))

    def _seat(self) -> str:
        """The seat this connection acts for, its token re-checked (a seat can be left)."""
        if self.seat is None:
            raise ProtocolError("not_your_seat", "a spectator cannot do this; join a seat")
        if not self.rt.token_valid(self.seat, self.token or ""):
            raise ProtocolError("bad_token", f"the token no longer holds seat {self.seat}")
        return self.seat

    def _reader(self) -> str | None:
        return self._seat() if self.seat is not None else None

    async def on_ping(self, f: dict) -> dict:
        return {"t": "pong", "time": now_ms()}

    async def on_hello(self, f: dict) -> dict:
        if self.rt is not None:
            raise ProtocolError("not_joined", "this connection already joined a game")
        gid = field(f, "game", str)
        token = field(f, "token", str, None)
        while True:
            rt = await self.hub.get(gid)
            seat = None
            if token is not None:
                seat = await rt.seat_for_token(token)
                if seat is None:
                    raise ProtocolError("bad_token", "not a seat token of this game")
            async with rt.lock:
                if rt.closed:           # unloaded meanwhile (idle): load it again
                    continue
                await rt.ensure_current()
                self.rt, self.seat, self.token = rt, seat, token
                rt.attach(self)
                w = rt.state_frame("welcome", seat)
                w["channels"] = rt.channels.channel_list(seat)
                w["info"] = rt.info()
                w["online"] = sorted(set(await rt.online()) | ({seat} if seat is not None else set()))
                if seat is not None:
                    w["away"] = await rt.absence.digest(seat)     # (None: nothing by others since the last look)
                    w["notify"] = self.prefs_shown = public_prefs(rt.prefs.get(seat) or {})
                w["limits"] = {"frame": MAX_FRAME, "text": MAX_TEXT, "proposal": MAX_PROPOSAL,
                               "chat_rate": self.hub.config.chat_rate, "chat_burst": self.hub.config.chat_burst,
                               "bot_wait": self.hub.config.bot_wait}
                return w

    async def on_view(self, f: dict) -> dict:
        seat = self._reader()
        async with self.rt.lock:
            await self.rt.ensure_current()
            return self.rt.state_frame("view", seat)

    async def on_act(self, f: dict) -> dict:
        seat = self._seat()
        wire = field(f, "action", dict)
        expect = index(f, "seq", None)
        if "seat" not in wire:
            wire = {**wire, "seat": seat}
        elif wire["seat"] != seat:
            raise ProtocolError("not_your_seat", f"this connection holds seat {seat}, not {str(wire['seat'])[:8]!r}")
        action = action_from_wire(wire)
        seq, _events = await self.rt.submit(action, by="player", expect_seq=expect)
        return {"t": "ok", "seq": seq}

    async def on_chat(self, f: dict) -> dict:
        seat = self._seat()
        name = field(f, "channel", str)
        msg = await self.rt.channels.post(seat, name, field(f, "text", str, ""), f.get("proposal"))
        self.hub.notifier.message(self.rt, self.rt.channels.records.get(name, {}), seat, msg)
        return {"t": "ok", "msg": msg}

    async def on_history(self, f: dict) -> dict:
        seat = self._reader()
        name = field(f, "channel", str)
        after, limit = index(f, "after", 0), index(f, "limit", 200, 1, MAX_HISTORY)
        return await self.rt.channels.history(seat, name, after, limit)

    async def on_events(self, f: dict) -> dict:
        self._reader()
        after, limit = index(f, "after", 0), index(f, "limit", 500, 1, MAX_EVENTS)
        await self.hub.admission.take("costly", self.addr, self.token)
        return await event_history(self.rt, after, limit)

    async def on_channels(self, f: dict) -> dict:
        return {"t": "channels", "channels": self.rt.channels.channel_list(self._reader())}

    async def on_open_channel(self, f: dict) -> dict:
        seat = self._seat()
        info = await self.rt.channels.open_channel(seat, field(f, "members", list), field(f, "title", str, ""))
        return {"t": "ok", "channel": info}

    async def _answer(self, f: dict, accept: bool) -> dict:
        seat = self._seat()
        msg = await self.rt.channels.answer(seat, field(f, "channel", str), index(f, "msg", lo=1), accept)
        return {"t": "ok", "msg": msg}

    async def on_accept(self, f: dict) -> dict:
        return await self._answer(f, True)

    async def on_decline(self, f: dict) -> dict:
        return await self._answer(f, False)

    async def on_query(self, f: dict) -> dict:
        """A question for the engine (odds, purge odds, an assassination's chance...): facts.answer."""
        seat = self._reader()
        if f.get("q") == "check":           # (a whole sheet judged on scratch copies: a costly request)
            await self.hub.admission.take("costly", self.addr, self.token)
        async with self.rt.lock:
            await self.rt.ensure_current()
            ans = facts.answer(self.rt.game, seat, f)
            return {"t": "answer", "q": f["q"], "seq": self.rt.seq, "answer": ans}

    # -- postal games, absences, notifications (issue 16) -----------------------------------------
    def _postal(self):
        if self.rt.postal is None:
            raise ProtocolError("not_postal", "this game is not a postal game")
        return self.rt.postal

    async def on_sheet(self, f: dict) -> dict:
        """Send or replace the seat's order sheet for the open phase (rcw.server.postal)."""
        desk = self._postal()
        return await desk.submit(self._seat(), f)

    async def on_reports(self, f: dict) -> dict:
        """The archive of phase reports (``after``: how many the client has)."""
        desk = self._postal()
        self._reader()
        await self.hub.admission.take("costly", self.addr, self.token)
        return await desk.reports(index(f, "after", 0))

    async def on_pause(self, f: dict) -> dict:
        return await self.rt.absence.pause(self._seat(), f.get("seconds"))

    async def on_reclaim(self, f: dict) -> dict:
        return {"t": "ok", **await self.rt.absence.reclaim(self._seat())}

    async def on_notify(self, f: dict) -> dict:
        got = await self.hub.notifier.set_prefs(self.rt, self._seat(), f)
        self.prefs_shown = got["notify"]          # (the answer shows them: no push of the same to this client)
        return got

    async def on_seen(self, f: dict) -> dict:
        """The client showed the seat the game up to action ``seq`` (its last look)."""
        seat, rt = self._seat(), self.rt
        seq = f.get("seq")
        if rt.store.shared and type(seq) is int and seq > rt.seq:
            async with rt.lock:           # (a page ahead of this replica: another server's; catch up first)
                await rt.ensure_current()
        await rt.absence.seen(seat, index(f, "seq", hi=rt.seq))     # (no later than the game)
        return {"t": "ok"}

    async def on_leave(self, f: dict) -> dict:
        seat = self._seat()
        res = await self.hub.leave(self.rt.gid, self.token)
        self.seat = self.token = None
        return {"t": "ok", "seat": seat, "now": res["now"]}


async def event_history(rt: GameRuntime, after: int, limit: int) -> dict:
    """The events of actions ``after+1 .. after+limit``, each as an ``update`` carried them
    (without the views), read from the log: every entry keeps the events its action caused.
    (An entry logged without them, by an older server, is rebuilt from the nearest snapshot in
    the rebuild worker processes.)  Every seat and spectator receives every event (docs/protocol.md
    section 7), so this is open to all."""
    async with rt.lock:
        await rt.ensure_current()
        last = rt.seq
        # how the game was set up (the deal; the SPI solitaire's introduction and the non-Red
        # Player's first Game-Turn, played before Red's first action): with the first entries
        setup = [to_wire(e) for e in rt.game.setup_events] if after == 0 and rt.game is not None else None
    extra = {"setup": setup} if setup else {}
    stop = min(last, after + limit)
    if after >= stop:
        return {"t": "events", "entries": [], "last": last, **extra}
    entries = await rt.store.log_range(rt.gid, after, stop)
    if any("ev" not in e for e in entries):
        snap = await rt.store.snapshot_before(rt.gid, after)
        base = snap[0] if snap else 0
        older = await rt.store.log_range(rt.gid, base, after)
        evs = await rt.hub.admission.offload(_replay_events, rt.gid, rt.meta, snap, older, entries)
        entries = [{**e, "ev": ev} for e, ev in zip(entries, evs, strict=True)]
    out = []
    for n, e in enumerate(entries, after + 1):
        a = e["a"]
        out.append({"seq": n, "actor": a.get("seat"), "action": a.get("t"), "by": e.get("by"), "ts": e.get("ts"),
                    "events": e["ev"], "why": e.get("why", [])})
    return {"t": "events", "entries": out, "last": last, **extra}


def _replay_events(gid: str, meta: dict, snap: tuple[int, bytes] | None, older: list[dict],
                   entries: list[dict]) -> list[list]:
    """(In a rebuild worker process.)  The events of ``entries``, replayed after ``snap`` + ``older``."""
    _, evs = rebuild(meta, snap, older + entries, gid)
    return [[to_wire(x) for x in ev] for ev in evs[len(older):]]


# ============================================================================================
async def ws_handler(request: web.Request) -> web.StreamResponse:
    hub = request.app[HUB]
    addr = request.remote or "?"
    # (QA as an operator: one client held 1500 sockets, and 300 that never said hello, unrefused)
    cap = hub.config.max_conns_per_addr
    if cap and hub.conns_by_addr[addr] >= cap:
        hub.metrics.limited("connections")
        return _json_error(ProtocolError("rate_limited", f"more than {cap} connections from this address at once "
                                         "(rcw serve --max-conns-per-addr); close some first", retry_after=5))
    hub.conns_by_addr[addr] += 1       # (counted before the upgrade's awaits: many at once cannot all pass, review)
    try:
        return await _serve_ws(request, hub)
    finally:
        hub.conns_by_addr[addr] -= 1
        if hub.conns_by_addr[addr] <= 0:
            del hub.conns_by_addr[addr]


async def _serve_ws(request: web.Request, hub: Hub) -> web.WebSocketResponse:
    """One WebSocket client, from the upgrade to its end (:class:`Connection`)."""
    ws = web.WebSocketResponse(max_msg_size=WS_HARD_LIMIT, heartbeat=30, compress=False)
    await ws.prepare(request)
    conn = Connection(ws, hub, request.remote, request.transport)
    hub.conns.add(conn)
    hub.metrics.opened()
    wait = hub.config.hello_timeout

    def no_hello() -> None:                  # (a socket that joins no game in time is closed)
        if conn.rt is None and not conn.closed:
            hub.spawn(ws.close(code=WSCloseCode.POLICY_VIOLATION, message=f"send hello within {wait:g} s".encode()))
    hello_timer = asyncio.get_running_loop().call_later(wait, no_hello) if wait > 0 else None
    # A reader task takes the client's frames as they arrive, so that when the client closes,
    # the requests it left are dropped, not handled for nobody.  At most ``max_pending`` wait
    # behind the one being handled; one more is answered ``busy`` at once (and not handled).
    inbox: asyncio.Queue = asyncio.Queue()
    cap = max(1, hub.config.max_pending)

    async def read() -> None:
        try:
            async for msg in ws:
                if msg.type in (WSMsgType.BINARY, WSMsgType.TEXT):
                    if inbox.qsize() >= cap:
                        hub.metrics.limited("pending")
                        conn.send(error_frame(peek_id(msg.data), "busy", f"more than {cap} requests wait on this "
                                              "connection; wait for the answers before sending more"))
                    else:
                        inbox.put_nowait(msg)
                elif msg.type == WSMsgType.ERROR:
                    break
        finally:
            conn.closed = True       # (the client is gone or going: nothing more is sent, nothing handled)
            dropped = 0
            while not inbox.empty():
                if inbox.get_nowait() is not None:
                    dropped += 1
            if dropped:
                hub.metrics.dropped.inc(dropped)
            inbox.put_nowait(None)

    reader = asyncio.create_task(read(), name="ws-reader")
    try:
        while True:
            msg = await inbox.get()
            if msg is None or conn.closed or request.transport is None or request.transport.is_closing():
                break
            if msg.type == WSMsgType.BINARY:
                await conn.handle(msg.data)
            else:
                conn.send(error_frame(peek_id(msg.data), "bad_frame",
                                      "frames are msgpack maps in binary WebSocket messages"))
    finally:
        hub.conns.discard(conn)
        if hello_timer is not None:
            hello_timer.cancel()
        await conn.close()
        reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await reader
    return ws


def _json_error(e: ProtocolError) -> web.Response:
    body = {"error": {"code": e.code, "message": e.message, "rule": e.rule, **e.extra}}
    r = web.json_response(body, status=HTTP_STATUS.get(e.code, 400))
    if isinstance(e.extra.get("retry_after"), int | float):       # (HTTP's own way to say it too, RFC 9110)
        r.headers["Retry-After"] = str(max(1, math.ceil(e.extra["retry_after"])))
    return r


async def _body(request: web.Request, known: tuple[str, ...] | None = None, hints: dict[str, str] | None = None) -> dict:
    """The request's JSON object (``{}`` without a body); with ``known``, a field not in it is
    refused (``bad_request``), so that a misspelt field is not silently ignored (``hints``: what
    to say of a field name one may expect here, e.g. another request's)."""
    if not request.can_read_body:
        return {}
    try:
        data = await request.json()
    except (ValueError, RecursionError):   # (JSONDecodeError and UnicodeDecodeError are ValueErrors)
        raise ProtocolError("bad_request", "the body must be JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_request", "the body must be a JSON object")
    if known is not None:
        extra = sorted(set(data) - set(known))
        if extra:
            hint = next((hints[f] for f in extra if hints and f in hints), None)
            raise ProtocolError("bad_request", f"unknown fields {extra} (known: {', '.join(known)})"
                                + (f": {hint}" if hint else ""))
    return data


def _bearer(request: web.Request) -> str | None:
    auth = request.headers.get("Authorization", "")
    return auth[7:].strip() if auth.lower().startswith("bearer ") else None


def _http_error(request: web.Request, e: web.HTTPException) -> web.Response:
    """aiohttp's own refusals (no route, wrong method, body too large...) as JSON error bodies."""
    if e.status == 404:
        err = ProtocolError("not_found", f"nothing at {request.path[:100]!r}")
    elif e.status == 405:
        err = ProtocolError("method_not_allowed",
                            f"{request.path[:100]!r} does not take {request.method[:10]}; it takes {e.headers.get('Allow', '')}")
    elif e.status == 413:
        err = ProtocolError("body_too_large", f"the request body is limited to {MAX_BODY} bytes")
    elif e.status < 500:
        err = ProtocolError("bad_request", e.reason)
    else:
        err = ProtocolError("internal", "server error (logged)")
    r = _json_error(err)
    r.set_status(e.status)
    if "Allow" in e.headers:
        r.headers["Allow"] = e.headers["Allow"]
    return r


@web.middleware
async def errors_middleware(request: web.Request, handler):
    """Every lobby error, the server's or aiohttp's, answered as ``{"error": {code, message, rule}}``."""
    try:
        return await handler(request)
    except ProtocolError as e:
        return _json_error(e)
    except IllegalAction as e:
        return _json_error(ProtocolError("illegal_action", e.message, rule=e.rule, engine_code=e.code))
    except web.HTTPException as e:
        if e.status < 400:
            raise
        return _http_error(request, e)
    except STORE_DOWN as e:
        return _json_error(unavailable(e))
    except Exception:
        log.exception("HTTP request failed: %s %s", request.method, request.path)
        return _json_error(ProtocolError("internal", "server error (logged)"))


async def healthz(request: web.Request) -> web.Response:
    hub = request.app[HUB]
    h = hub.health()
    try:
        await asyncio.wait_for(hub.store.check(), 2)
    except Exception as e:  # report, don't fail: /healthz is for humans and probes
        h["status"] = "degraded"
        h["error"] = f"{hub.store.kind}: {type(e).__name__}"
    return web.json_response(h, status=200 if h["status"] == "ok" else 503)


async def list_games(request: web.Request) -> web.Response:
    games = await request.app[HUB].list_games(request.query.get("status", "open"))
    return web.json_response({"games": games})


async def create_game(request: web.Request) -> web.Response:
    return web.json_response(await request.app[HUB].create_game(await _body(request), request.remote), status=201)


async def game_info(request: web.Request) -> web.Response:
    rt = await request.app[HUB].get(request.match_info["gid"])
    return web.json_response(rt.info())


async def join(request: web.Request) -> web.Response:
    b = await _body(request, ("seat", "name"))
    return web.json_response(await request.app[HUB].join(request.match_info["gid"], b.get("seat"), b.get("name")))


async def bots(request: web.Request) -> web.Response:
    b = await _body(request, ("admin_token", "kind", "seats"), {"token": "the game's admin token goes in 'admin_token' "
                                                                        "(or an 'Authorization: Bearer' header)"})
    token = b.get("admin_token") or _bearer(request)
    return web.json_response(await request.app[HUB].fill_bots(request.match_info["gid"], token, b.get("kind"),
                                                              b.get("seats"), request.remote))


async def leave(request: web.Request) -> web.Response:
    b = await _body(request, ("token",))
    token = b.get("token") or _bearer(request)
    return web.json_response(await request.app[HUB].leave(request.match_info["gid"], token))


async def reclaim(request: web.Request) -> web.Response:
    b = await _body(request, ("token",))
    return web.json_response(await request.app[HUB].reclaim(request.match_info["gid"], b.get("token") or _bearer(request)))


async def login(request: web.Request) -> web.Response:
    b = await _body(request, ("code",))
    return web.json_response(await request.app[HUB].login(b.get("code"), request.remote))


async def verify_email(request: web.Request) -> web.Response:
    """An e-mail's confirmation link: a page that says so (and links to the game)."""
    hub = request.app[HUB]
    await hub.admission.take("costly", request.remote)
    try:
        got = await hub.notifier.verify(request.query.get("code", ""))
    except ProtocolError as e:       # (a way on from here, as the confirmed page has: QA)
        lobby = f"{hub.notifier.base}/"
        return web.Response(status=400, content_type="text/html",
                            text=f"<!doctype html><meta charset=utf-8><title>Not confirmed</title><p>{e.message}</p>"
                                 "<p>Save the address again in the game's page (Pauses and notifications) for a new "
                                 f"link: <a href=\"{lobby}\">your games are in the lobby</a>.</p>")
    link = hub.notifier.game_link(got["game"])
    return web.Response(content_type="text/html",
                        text=f"<!doctype html><meta charset=utf-8><title>Address confirmed</title>"
                             f"<p>Address confirmed: news of seat {got['seat']} will come to it.</p>"
                             f"<p><a href=\"{link}\">Back to the game</a></p>")


async def view_at(request: web.Request) -> web.Response:
    try:
        seq = int(request.query.get("seq", ""))
    except ValueError:
        raise ProtocolError("bad_request", "seq must be an integer") from None
    return web.json_response(await request.app[HUB].view_at(request.match_info["gid"], seq, _bearer(request),
                                                            request.remote))


async def record(request: web.Request) -> web.Response:
    return web.json_response(await request.app[HUB].record(request.match_info["gid"], _bearer(request),
                                                           request.remote))


async def verify(request: web.Request) -> web.Response:
    return web.json_response(await request.app[HUB].verify(request.match_info["gid"], _bearer(request),
                                                           request.remote))


PLACEHOLDER = """<!doctype html><meta charset="utf-8"><title>Russian Civil War</title>
<h1>Russian Civil War server</h1>
<p>The browser client is not installed. See <a href="/healthz">/healthz</a> and the
lobby <a href="/api/games">/api/games</a>; the protocol is in docs/protocol.md.</p>
"""


ASSET_SUFFIXES = (".html", ".css", ".js", ".svg", ".json")   # what the page loads; nothing else is served


async def static(request: web.Request) -> web.StreamResponse:
    """The browser client's assets under ``static/`` (no docs, no scripts, nothing outside it)."""
    rel = request.match_info.get("path", "") or "index.html"
    root = STATIC.resolve()
    try:
        p = (root / rel).resolve()
        p.relative_to(root)
    except (ValueError, OSError):
        raise web.HTTPNotFound() from None
    if p.is_dir():
        p = p / "index.html"
    if p.is_file() and p.suffix in ASSET_SUFFIXES:
        return web.FileResponse(p)
    if rel == "index.html":
        return web.Response(text=PLACEHOLDER, content_type="text/html")
    raise web.HTTPNotFound()


def make_app(store: Store, config: Config | None = None) -> web.Application:
    """The application; the hub (and the store) start and stop with it."""
    app = web.Application(middlewares=[errors_middleware], client_max_size=MAX_BODY)
    hub = Hub(store, config)
    app[HUB] = hub
    app.middlewares.insert(0, metrics.middleware(hub))    # counts the lobby's errors by code
    store.observe = hub.metrics.redis if store.kind == "redis" else None

    async def on_startup(app: web.Application) -> None:
        await hub.start()

    async def on_shutdown(app: web.Application) -> None:
        for c in list(hub.conns):
            with contextlib.suppress(Exception):
                await c.ws.close(code=1001, message=b"server shutdown")

    async def on_cleanup(app: web.Application) -> None:
        await hub.stop()

    app.on_startup.append(on_startup)
    app.on_shutdown.append(on_shutdown)
    app.on_cleanup.append(on_cleanup)
    r = app.router
    r.add_get("/healthz", healthz)
    r.add_get("/api/games", list_games)
    r.add_post("/api/games", create_game)
    r.add_get("/api/games/{gid}", game_info)
    r.add_post("/api/games/{gid}/join", join)
    r.add_post("/api/games/{gid}/bots", bots)
    r.add_post("/api/games/{gid}/leave", leave)
    r.add_get("/api/games/{gid}/record", record)
    r.add_get("/api/games/{gid}/verify", verify)
    r.add_get("/api/games/{gid}/view", view_at)
    r.add_post("/api/games/{gid}/reclaim", reclaim)
    r.add_post("/api/login", login)
    r.add_get("/api/email/verify", verify_email)
    r.add_get("/ws", ws_handler)
    r.add_get("/metrics", metrics.handler(hub))
    r.add_get("/{path:.*}", static)
    return app
