"""Games on the server: the lobby, each game's replica, bots, deadlines and chat.

One :class:`Hub` per process holds a :class:`GameRuntime` for every game this process serves
(a game is loaded when a client connects to it or when this process wins its driver lease).
A runtime is a *replica*: the game rebuilt from seed + action log and kept current from the
game's pub/sub notices.  Every accepted action takes the same path (:meth:`GameRuntime.submit`
or the bot step): validate on the replica through ``Game.apply`` (an illegal action changes
nothing), append to the durable log iff the log is still as long as the replica (otherwise
catch up and retry), then push ``update`` frames to the local connections; other processes
receive the notice, apply the same action to their replicas and push the same frames.

Bots, and the deadline timers that let a bot decide for a slow human, run only in the process
holding the game's driver lease (:meth:`Store.lease`); if that process dies the lease expires
and another process (or the restarted one) takes over.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import re
import secrets
import time
from collections.abc import Coroutine
from dataclasses import dataclass
from functools import partial
from typing import Any

from rcw.bots.match import Match
from rcw.server import chat
from rcw.server.protocol import MAX_TEXT, ProtocolError, pack, unpack
from rcw.server.store import Store, split_chat_notice

from rcw import __version__, modes
from rcw import options as O
from rcw.actions import Action, DeclineTrade, IllegalAction, Quit, action_from_wire, to_wire
from rcw.game import SEATS, Game
from rcw.player import Player

log = logging.getLogger("rcw.server")

GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
SNAP_EVERY = 50
OPEN: dict = {"kind": "open"}


@dataclass
class Config:
    """Server knobs (``rcw serve`` flags)."""

    chat_rate: float = 2.0        # chat messages per second per seat, sustained
    chat_burst: float = 20.0      # ... and in a burst
    frame_rate: float = 1000.0    # frames per second per connection, sustained
    frame_burst: float = 2000.0
    lease_ttl: float = 5.0        # seconds a driver lease lasts without renewal
    bot_delay: float = 0.0        # seconds between two bot actions (0: as fast as possible)
    max_queue: int = 5000         # outbound frames queued for a connection before it is dropped
    idle_unload: float = 60.0     # unload a game nobody watches after this many seconds
    max_bot_streak: int = 50_000  # runaway guard: bot actions in a row before the bots stop


def default_bot_kind() -> str:
    from rcw.bots import AGENTS

    return "sdt" if "sdt" in AGENTS else "random"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def now_ms() -> int:
    return int(time.time() * 1000)


def public_seats(seats: dict[str, dict]) -> dict[str, dict]:
    out = {}
    for s, rec in sorted(seats.items()):
        d = {"kind": rec["kind"]}
        if rec.get("name"):
            d["name"] = rec["name"]
        if rec.get("bot"):
            d["bot"] = rec["bot"]
        out[s] = d
    return out


def seats_status(seats: dict[str, dict]) -> str:
    return "open" if any(r["kind"] == "open" for r in seats.values()) else "playing"


class Hub:
    """Everything one server process knows: its runtimes, its store, its limits."""

    def __init__(self, store: Store, config: Config | None = None) -> None:
        self.store = store
        self.config = config or Config()
        self.proc = secrets.token_hex(6)
        self.runtimes: dict[str, GameRuntime] = {}
        self.conns: set[Any] = set()
        self.tasks: set[asyncio.Task] = set()
        self._load_lock = asyncio.Lock()
        self._lease_task: asyncio.Task | None = None
        self.started = time.time()

    # -- life cycle -------------------------------------------------------------------------
    async def start(self) -> None:
        await self.store.start()
        self._lease_task = asyncio.create_task(self._lease_loop(), name="lease-loop")

    async def stop(self) -> None:
        if self._lease_task:
            self._lease_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._lease_task
        for rt in list(self.runtimes.values()):
            await rt.shutdown()
        for t in list(self.tasks):
            t.cancel()
        await self.store.close()

    def spawn(self, coro: Coroutine) -> asyncio.Task:
        t = asyncio.create_task(coro)
        self.tasks.add(t)
        t.add_done_callback(self._task_done)
        return t

    def _task_done(self, t: asyncio.Task) -> None:
        self.tasks.discard(t)
        if not t.cancelled() and t.exception() is not None:
            log.error("background task failed", exc_info=t.exception())

    def health(self) -> dict:
        return {"status": "ok", "version": __version__, "broker": self.store.kind, "process": self.proc,
                "games_loaded": len(self.runtimes), "connections": len(self.conns),
                "uptime": round(time.time() - self.started, 1)}

    # -- runtimes ---------------------------------------------------------------------------
    async def get(self, gid: Any) -> GameRuntime:
        if not isinstance(gid, str) or not GAME_ID.match(gid):
            raise ProtocolError("unknown_game", "no such game")
        rt = self.runtimes.get(gid)
        if rt is not None:
            rt.touch()
            return rt
        async with self._load_lock:
            rt = self.runtimes.get(gid)
            if rt is not None:
                return rt
            meta = await self.store.load_meta(gid)
            if meta is None:
                raise ProtocolError("unknown_game", f"no game {gid!r}")
            rt = GameRuntime(self, gid, meta)
            try:
                await rt.load()
            except BaseException:
                await rt.shutdown()
                raise
            self.runtimes[gid] = rt
            return rt

    async def _lease_loop(self) -> None:
        while True:
            try:
                await self._lease_round()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("lease round failed")
            await asyncio.sleep(self.config.lease_ttl / 3)

    async def _lease_round(self) -> None:
        live = await self.store.game_ids(live_only=True)
        live_set = set(live)
        # Renew what we drive first (cheap), so that loading new games cannot starve renewals.
        for gid, rt in list(self.runtimes.items()):
            if not rt.driving:
                continue
            if gid not in live_set or (rt.game is not None and rt.game.over):
                rt.set_driving(False)
                await self.store.release(gid, self.proc)
            else:
                rt.set_driving(await self.store.lease(gid, self.proc, self.config.lease_ttl))
        # Then take over games nobody drives (new, or their driver died).
        for gid in live:
            rt = self.runtimes.get(gid)
            if rt is not None and (rt.driving or (rt.game is not None and rt.game.over)):
                continue
            if not await self.store.lease(gid, self.proc, self.config.lease_ttl):
                continue
            if rt is None:
                try:
                    rt = await self.get(gid)
                except ProtocolError:
                    await self.store.release(gid, self.proc)
                    continue
            rt.set_driving(True)
        now = time.monotonic()
        for gid, rt in list(self.runtimes.items()):
            if not rt.conns and not rt.driving and now - rt.last_used > self.config.idle_unload:
                self.runtimes.pop(gid, None)
                await rt.shutdown()

    async def claim(self, rt: GameRuntime) -> None:
        """Try to become the game's driver right now (after creating it or filling seats)."""
        if rt.game is not None and not rt.game.over:
            rt.set_driving(await self.store.lease(rt.gid, self.proc, self.config.lease_ttl))

    # -- lobby --------------------------------------------------------------------------------
    async def create_game(self, spec: Any) -> dict:
        from rcw.bots import AGENTS

        if not isinstance(spec, dict):
            raise ProtocolError("bad_request", "the body must be a JSON object")
        known = {"players", "seed", "options", "bots", "on_leave", "deadline", "name", "bot_seats"}
        extra = set(spec) - known
        if extra:
            raise ProtocolError("bad_request", f"unknown fields {sorted(extra)} (known: {', '.join(sorted(known))})")
        players = spec.get("players", 5)
        if isinstance(players, bool) or not isinstance(players, int) or not 3 <= players <= 6:
            raise ProtocolError("bad_request", "players must be 3 to 6", rule="004 [2.0]")
        seed = spec.get("seed")
        if seed is None:
            seed = secrets.randbits(62)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < (1 << 63):
            raise ProtocolError("bad_request", "seed must be an integer 0 <= seed < 2**63")
        try:
            options = O.validate(spec.get("options") or {})
        except IllegalAction as e:
            raise ProtocolError("bad_request", e.message, rule=e.rule) from None
        bot_kind = spec.get("bots") or default_bot_kind()
        if bot_kind not in AGENTS:
            raise ProtocolError("bad_request", f"bots must be one of {', '.join(sorted(AGENTS))}")
        on_leave = spec.get("on_leave", "bot")
        if on_leave not in ("bot", "quit"):
            raise ProtocolError("bad_request", "on_leave must be 'bot' (a bot takes the seat) or 'quit' (004 [14.2])")
        deadline = spec.get("deadline")
        if deadline is not None and (isinstance(deadline, bool) or not isinstance(deadline, (int, float))
                                     or not 0 < deadline <= 7 * 86400):
            raise ProtocolError("bad_request", "deadline must be a number of seconds (0 < d <= 604800) or null")
        name = spec.get("name") or ""
        if not isinstance(name, str) or len(name) > 80:
            raise ProtocolError("bad_request", "name must be a string of at most 80 characters")
        seats = list(SEATS[:players])
        bot_seats = spec.get("bot_seats") or []
        if not isinstance(bot_seats, list) or not all(s in seats for s in bot_seats):
            raise ProtocolError("bad_request", f"bot_seats must be a list of seats among {''.join(seats)}")
        modes.new_game(players, seed, options)  # fails early on anything the engine refuses
        gid = secrets.token_urlsafe(9).replace("-", "x").replace("_", "y")
        admin = secrets.token_urlsafe(24)
        meta = {"id": gid, "name": name, "players": players, "seed": seed, "options": options, "bots": bot_kind,
                "on_leave": on_leave, "deadline": deadline, "created": now_ms(), "admin": token_hash(admin),
                "secret": secrets.token_hex(16)}
        seat_recs = {s: ({"kind": "bot", "bot": bot_kind} if s in bot_seats else dict(OPEN)) for s in seats}
        await self.store.create_game(gid, meta, seat_recs, chat.initial_channels(seats))
        rt = await self.get(gid)
        await self.claim(rt)
        return {"game": gid, "admin_token": admin, "info": rt.info()}

    async def list_games(self, status: str = "open") -> list[dict]:
        if status not in ("open", "live", "all"):
            raise ProtocolError("bad_request", "status must be open, live or all")
        ids = await self.store.game_ids(live_only=status != "all")
        live = set(await self.store.game_ids(live_only=True)) if status == "all" else set(ids)
        out = []
        for gid in ids:
            meta = await self.store.load_meta(gid)
            if meta is None:
                continue
            seats = await self.store.load_seats(gid)
            st = seats_status(seats) if gid in live else "over"
            if status == "open" and st != "open":
                continue
            out.append({"game": gid, "name": meta.get("name", ""), "players": meta["players"], "status": st,
                        "seats": public_seats(seats), "open": [s for s, r in sorted(seats.items()) if r["kind"] == "open"],
                        "options": meta["options"], "bots": meta["bots"], "on_leave": meta["on_leave"],
                        "deadline": meta.get("deadline"), "created": meta["created"]})
        return out

    async def join(self, gid: Any, seat: Any = None, name: Any = None) -> dict:
        rt = await self.get(gid)
        if name is not None and (not isinstance(name, str) or len(name) > 40):
            raise ProtocolError("bad_request", "name must be a string of at most 40 characters")
        if seat is not None and (not isinstance(seat, str) or seat not in rt.seats):
            raise ProtocolError("bad_request", f"seat must be one of {''.join(sorted(rt.seats))}")
        for _ in range(8):
            await rt.reload_seats(notify=False)
            if seat is not None:
                if rt.seats[seat]["kind"] != "open":
                    raise ProtocolError("seat_taken", f"seat {seat} is not open")
                want = seat
            else:
                opened = [s for s, r in sorted(rt.seats.items()) if r["kind"] == "open"]
                if not opened:
                    raise ProtocolError("game_full", "no open seat left")
                want = opened[0]
            token = secrets.token_urlsafe(24)
            rec = {"kind": "human", "name": name or f"Player {want}", "token": token_hash(token), "joined": now_ms()}
            if await self.store.cas_seat(rt.gid, want, OPEN, rec):
                await rt.seats_changed()
                return {"game": rt.gid, "seat": want, "token": token, "info": rt.info()}
        raise ProtocolError("busy", "the seats changed too often; retry")

    def _check_admin(self, rt: GameRuntime, admin_token: Any) -> None:
        if not isinstance(admin_token, str) or not hmac.compare_digest(token_hash(admin_token), rt.meta["admin"]):
            raise ProtocolError("forbidden", "the admin token of this game is needed")

    async def fill_bots(self, gid: Any, admin_token: Any, kind: Any = None, seats: Any = None) -> dict:
        from rcw.bots import AGENTS

        rt = await self.get(gid)
        self._check_admin(rt, admin_token)
        kind = kind or rt.meta["bots"]
        if kind not in AGENTS:
            raise ProtocolError("bad_request", f"bots must be one of {', '.join(sorted(AGENTS))}")
        await rt.reload_seats(notify=False)
        targets = seats if seats is not None else [s for s, r in sorted(rt.seats.items()) if r["kind"] == "open"]
        if not isinstance(targets, list) or not all(isinstance(s, str) and s in rt.seats for s in targets):
            raise ProtocolError("bad_request", "seats must be a list of seats of this game")
        filled = []
        for s in targets:
            if await self.store.cas_seat(rt.gid, s, OPEN, {"kind": "bot", "bot": kind}):
                filled.append(s)
        await rt.seats_changed()
        await self.claim(rt)
        return {"game": rt.gid, "filled": filled, "info": rt.info()}

    async def leave(self, gid: Any, token: Any) -> dict:
        """A player leaves: before the start the seat reopens; after it a bot takes the seat, or
        (if the creator chose ``on_leave: quit``) the seat quits the game under 004 [14.2]."""
        rt = await self.get(gid)
        seat = await rt.seat_for_token(token)
        if seat is None:
            raise ProtocolError("bad_token", "not a seat token of this game")
        rec = rt.seats[seat]
        if seats_status(rt.seats) == "open":
            new, how = dict(OPEN), "reopened"
        elif rt.meta["on_leave"] == "quit" and rt.game is not None and not rt.game.over:
            await rt.submit(Quit(seat), by="leave")
            new, how = {"kind": "quit", "name": rec.get("name", "")}, "quit"
        else:
            new, how = {"kind": "bot", "bot": rt.meta["bots"], "name": rec.get("name", "")}, "bot"
        if not await self.store.cas_seat(rt.gid, seat, rec, new):
            raise ProtocolError("busy", "the seat changed; retry")
        await rt.seats_changed()
        await self.claim(rt)
        return {"game": rt.gid, "seat": seat, "now": how}

    async def view_at(self, gid: Any, seq: Any, admin_token: Any = None) -> dict:
        """A spectator's view after the first ``seq`` actions (for replays): when the game is
        over, or with the admin token."""
        rt = await self.get(gid)
        if rt.game is None or not rt.game.over:
            self._check_admin(rt, admin_token)
        if isinstance(seq, bool) or not isinstance(seq, int) or not 0 <= seq <= rt.seq:
            raise ProtocolError("bad_request", f"seq must be 0..{rt.seq}")
        g = rt._new_game()
        for e in await self.store.log_range(rt.gid, 0, seq):
            g.apply(e["a"])
        return {"game": rt.gid, "seq": seq, "hash": g.state_hash(), "view": g.view(None)}

    async def record(self, gid: Any, admin_token: Any = None) -> dict:
        rt = await self.get(gid)
        if rt.game is None or not rt.game.over:
            self._check_admin(rt, admin_token)
        async with rt.lock:
            await rt.ensure_current()
            rec = rt.game.record()
            rec["game"] = rt.gid
            rec["hash"] = rt.hash
            return rec


class GameRuntime:
    """One game's replica in this process, its local connections and (if driving) its bots."""

    def __init__(self, hub: Hub, gid: str, meta: dict) -> None:
        self.hub = hub
        self.store = hub.store
        self.gid = gid
        self.meta = meta
        self.seats: dict[str, dict] = {}
        self.channels: dict[str, dict] = {}
        self.game: Game | None = None
        self.seq = 0
        self.hash = ""
        self.lock = asyncio.Lock()
        self.conns: set[Any] = set()
        self.topic = self.store.topic(meta["secret"])
        self.delivered: dict[str, int] = {}
        self._chat_cbs: dict[str, Any] = {}
        self._catching: set[str] = set()
        self._again: set[str] = set()
        self.driving = False
        self._drive_task: asyncio.Task | None = None
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._offer_timers: dict[int, asyncio.TimerHandle] = {}
        self.match: Match | None = None         # the bots' match loop (rcw.bots.match), while driving
        self._props: dict[str, tuple[str, int, list[str], int]] = {}   # proposal key -> channel, msg, to, seq
        self._answers: dict[str, list[tuple[str, bool, int, str]]] = {}  # ... -> (seat, accept, seq, by)
        self._replied: set[tuple[str, int, str]] = set()
        self._last_purge = 0                    # seq of the last purge declaration
        self._last_exec = 0                     # seq of the last execution order proposed
        self.agents: dict[tuple[str, str], Any] = {}
        self._snap: tuple[int, bytes] | None = None
        self._over_marked = False
        self.stalled = False
        self.bot_streak = 0
        self.closed = False
        self.last_used = time.monotonic()

    def touch(self) -> None:
        self.last_used = time.monotonic()

    # -- loading ----------------------------------------------------------------------------
    async def load(self) -> None:
        await self.store.subscribe(self.topic, self._on_game_notice)
        self.seats = await self.store.load_seats(self.gid)
        for name, rec in (await self.store.load_channels(self.gid)).items():
            await self._register_channel(name, rec, fresh=False)
        async with self.lock:
            await self._rebuild_locked()
        if self.game.over:   # (a process may have died between the last append and marking it)
            self._over_marked = True
            await self.store.mark_over(self.gid)

    async def shutdown(self) -> None:
        self.closed = True
        self.set_driving(False)
        if self._drive_task:
            self._drive_task.cancel()
        with contextlib.suppress(Exception):
            await self.store.unsubscribe(self.topic, self._on_game_notice)
            for name, rec in self.channels.items():
                await self.store.unsubscribe(self.store.topic(rec["secret"]), self._chat_cbs[name])
            await self.store.release(self.gid, self.hub.proc)

    def _new_game(self) -> Game:
        m = self.meta
        return modes.new_game(m["players"], m["seed"], m["options"])

    async def _rebuild_locked(self, upto: int | None = None) -> None:
        """Rebuild the replica silently (no frames) from the snapshot and the log."""
        self.game = None
        if self._snap is not None and (upto is None or self._snap[0] <= upto):
            base, g = self._snap[0], modes.from_bytes(self._snap[1])
        else:
            base, g = 0, self._new_game()
        entries = await self.store.log_range(self.gid, base, upto)
        for e in entries:
            g.apply(e["a"])
        self.game = g
        self.seq = base + len(entries)
        self.hash = g.state_hash()
        if self.match is not None:
            self.match.replace_game(g)

    async def ensure_current(self) -> None:
        """(Under the lock.)  Make sure the replica exists and has every logged action."""
        if self.game is None:
            await self._rebuild_locked()
        if self.store.shared:
            await self._catch_up_locked()

    async def _catch_up_locked(self) -> None:
        if self.game is None:
            await self._rebuild_locked()
            return
        for e in await self.store.log_range(self.gid, self.seq):
            if not await self._apply_entry(e):
                return

    async def _apply_entry(self, entry: dict) -> bool:
        """(Under the lock.)  Apply a logged action that another process accepted and push it
        to our clients.  If the replica refuses it (it cannot, unless it diverged), rebuild it
        from the log and push the current state instead."""
        try:
            events = self.game.apply(entry["a"])
        except IllegalAction:
            log.error("game %s: replica refused logged action %s; rebuilding", self.gid, entry["a"])
            await self._rebuild_locked()
            self._push_update(None, [])
            return False
        self.seq += 1
        self._after_apply(entry, events)
        return True

    # -- status -------------------------------------------------------------------------------
    def status(self) -> str:
        if self.game is not None and self.game.over:
            return "over"
        return seats_status(self.seats)

    def info(self) -> dict:
        g = self.game
        return {"game": self.gid, "name": self.meta.get("name", ""), "players": self.meta["players"],
                "status": self.status(), "seats": public_seats(self.seats), "options": self.meta["options"],
                "bots": self.meta["bots"], "on_leave": self.meta["on_leave"], "deadline": self.meta.get("deadline"),
                "created": self.meta["created"], "seq": self.seq, "hash": self.hash,
                "turn": g.turn if g else None, "phase": g.phase if g else None,
                "result": g.result if g else None}

    async def seat_for_token(self, token: Any) -> str | None:
        if not isinstance(token, str) or not token:
            return None
        seat = self._seat_for_token(token)
        if seat is None and self.store.shared:
            await self.reload_seats(notify=True)
            seat = self._seat_for_token(token)
        return seat

    def _seat_for_token(self, token: str) -> str | None:
        h = token_hash(token)
        for s, rec in self.seats.items():
            if rec["kind"] == "human" and hmac.compare_digest(rec.get("token", ""), h):
                return s
        return None

    def token_valid(self, seat: str, token: str) -> bool:
        rec = self.seats.get(seat)
        return bool(rec and rec["kind"] == "human" and hmac.compare_digest(rec.get("token", ""), token_hash(token)))

    async def reload_seats(self, notify: bool = True) -> None:
        seats = await self.store.load_seats(self.gid)
        if seats == self.seats:
            return
        was = self.status()
        self.seats = seats
        self._seat_agents()                 # a seat that became a bot is asked from now on
        for s in [s for s in self._timers if seats.get(s, {}).get("kind") != "human"]:
            self._timers.pop(s).cancel()
        for c in list(self.conns):          # a seat that was left: its connections become spectators
            if c.seat is not None and not self.token_valid(c.seat, c.token or ""):
                c.seat = c.token = None
        if notify:
            frame = {"t": "seats", "id": None, "game": self.gid, "seats": public_seats(seats), "status": self.status()}
            for c in list(self.conns):
                c.send(frame)
        if was != self.status() or self.driving:
            self.kick()

    async def seats_changed(self) -> None:
        """After a seat record changed in the store: update here, tell the other processes."""
        await self.reload_seats(notify=True)
        await self.store.publish(self.topic, pack({"k": "seats"}))

    # -- connections and frames ---------------------------------------------------------------
    def attach(self, conn: Any) -> None:
        self.conns.add(conn)
        self.touch()

    def detach(self, conn: Any) -> None:
        self.conns.discard(conn)
        self.touch()

    def channel_list(self, seat: str | None) -> list[dict]:
        return [chat.public_info(rec, self.delivered.get(n, 0))
                for n, rec in sorted(self.channels.items(), key=lambda kv: (kv[1]["kind"] != "public", kv[0]))
                if chat.can_read(rec, seat)]

    def state_frame(self, t: str, seat: str | None) -> dict:
        """The full picture for one seat (``welcome`` and ``view`` replies); under the lock."""
        g = self.game
        return {"t": t, "game": self.gid, "seat": seat, "seq": self.seq, "hash": self.hash, "status": self.status(),
                "view": g.view(seat), "pending": g.pending,
                "legal": [to_wire(a) for a in g.legal_actions(seat)] if seat and self.status() == "playing" else [],
                "seats": public_seats(self.seats), "result": g.result}

    def _push_update(self, entry: dict | None, events: list) -> None:
        g = self.game
        pending = g.pending
        a = entry["a"] if entry else {}
        base = {"t": "update", "id": None, "game": self.gid, "seq": self.seq, "actor": a.get("seat"),
                "action": a.get("t"), "by": entry.get("by") if entry else None,
                "events": [to_wire(e) for e in events], "hash": self.hash, "pending": pending,
                "status": self.status(), "result": g.result}
        views: dict[str | None, tuple[dict, list]] = {}
        playing = base["status"] == "playing"
        for c in list(self.conns):
            seat = c.seat
            if seat not in views:
                views[seat] = (g.view(seat), [to_wire(x) for x in g.legal_actions(seat)] if seat and playing else [])
            f = dict(base)
            f["view"], f["legal"] = views[seat]
            c.send(f)

    def _after_apply(self, entry: dict, events: list, kind: str = "turn") -> None:
        self.hash = self.game.state_hash()
        if self.seq % SNAP_EVERY == 0:
            self._snap = (self.seq, self.game.to_bytes())
        self._push_update(entry, events)
        for e in events:
            if e.kind == "purge_declared":
                self._last_purge = self.seq
            elif e.kind == "execution_proposed":
                self._last_exec = self.seq
        actor = entry["a"].get("seat")
        by_agent = entry.get("by") in ("bot", "deadline")
        if by_agent:
            self.bot_streak += 1
        else:
            self.bot_streak = 0
            self.stalled = False
        if self.match is not None:
            self.match.applied(action_from_wire(entry["a"]), events, kind, by_agent)
        if actor in self._timers:
            self._timers.pop(actor).cancel()
        if self.game.over and not self._over_marked:
            self._over_marked = True
            self.hub.spawn(self.store.mark_over(self.gid))
        self.touch()
        self.kick()

    # -- accepting actions -------------------------------------------------------------------
    async def submit(self, action: Action, by: str, expect_seq: int | None = None) -> tuple[int, list]:
        """Validate, persist, apply and push one action; returns (seq, events)."""
        async with self.lock:
            return await self._commit_locked(action, by, expect_seq)

    async def _commit_locked(self, action: Action, by: str, expect_seq: int | None = None,
                             kind: str = "turn") -> tuple[int, list]:
        for _attempt in range(10):
            if self.game is None:
                await self._rebuild_locked()
            if self.status() == "open":
                raise ProtocolError("not_started", "the game starts when every seat is filled")
            if expect_seq is not None and expect_seq != self.seq:
                if self.store.shared and expect_seq > self.seq:
                    await self._catch_up_locked()
                if expect_seq != self.seq:
                    raise ProtocolError("stale", f"the game is at seq {self.seq}, not {expect_seq}", seq=self.seq)
            before = self.seq
            try:
                events = self.game.apply(action)
            except IllegalAction:
                if self.store.shared and await self.store.log_len(self.gid) != self.seq:
                    log.info("game %s: replica behind at seq %d; catching up", self.gid, self.seq)
                    await self._catch_up_locked()   # our replica was behind: judge on the current game
                    continue
                raise
            entry = {"a": to_wire(action), "by": by, "ts": now_ms()}
            notice = pack({"k": "act", "seq": before + 1, "e": entry})
            try:
                ok = await self.store.append_action(self.gid, before, entry, self.topic, notice)
            except BaseException:
                self.game = None            # the replica is ahead of the log: rebuild on next use
                raise
            if ok:
                self.seq = before + 1
                self._after_apply(entry, events, kind)
                return self.seq, events
            # Another process appended first: rewind, catch up (pushing its actions), retry.
            log.info("game %s: lost the race for seq %d; catching up", self.gid, before + 1)
            await self._rebuild_locked(before)
            await self._catch_up_locked()
            if expect_seq is not None:
                raise ProtocolError("stale", f"the game moved on to seq {self.seq}", seq=self.seq)
        raise ProtocolError("busy", "the game changed under the request too many times; retry")

    def _on_game_notice(self, data: bytes) -> None:
        try:
            msg = unpack(data)
        except Exception:
            log.warning("game %s: undecodable notice", self.gid)
            return
        k = msg.get("k")
        if k == "act":
            if self.game is not None and msg["seq"] <= self.seq:
                return
            self.hub.spawn(self._sync(msg))
        elif k == "seats":
            self.hub.spawn(self.reload_seats(notify=True))
        elif k == "chan":
            self.hub.spawn(self._channel_notice(msg.get("name")))

    async def _sync(self, msg: dict) -> None:
        async with self.lock:
            if self.game is None or msg["seq"] <= self.seq:
                return
            if msg["seq"] == self.seq + 1:
                await self._apply_entry(msg["e"])
            else:
                await self._catch_up_locked()

    # -- bots and deadlines -----------------------------------------------------------------
    def set_driving(self, on: bool) -> None:
        if on and self.closed:
            return
        if on != self.driving:
            self.driving = on
            if not on:
                self._cancel_timers()
                self.match = None
        if on:
            self.kick()

    def kick(self) -> None:
        """Something changed: let the bots (and deadline timers) look again."""
        if not self.driving or self.game is None or self.closed:
            return
        if self._drive_task is None or self._drive_task.done():
            self._drive_task = asyncio.create_task(self._drive(), name=f"drive-{self.gid}")

    def _agent(self, seat: str, kind: str):
        from rcw.bots import make_agent

        key = (seat, kind)
        if key not in self.agents:
            seed = int.from_bytes(hashlib.sha256(f"{self.meta['seed']}:{self.gid}".encode()).digest()[:8], "big")
            self.agents[key] = make_agent(kind, seat, seed)
        return self.agents[key]

    def _seat_agents(self) -> None:
        """The match plays the bot seats (a seat's bot kind, else the game's)."""
        if self.match is not None:
            self.match.agents = {s: self._agent(s, rec.get("bot") or self.meta["bots"])
                                 for s, rec in self.seats.items() if rec["kind"] == "bot"}

    def _the_match(self) -> Match:
        if self.match is None or self.match.game is not self.game:
            if self.match is None:
                self.match = Match(self.game, {})
            self.match.replace_game(self.game)
            self._seat_agents()
        return self.match

    async def _drive(self) -> None:
        """Play the bot seats through the match loop (rcw.bots.match): answers out of turn, then
        the pending seat, one action at a time, each taking the path of every action."""
        failures = 0
        while self.driving and not self.closed and not self.stalled:
            if self.game is None or self.status() != "playing":
                break
            self._arm_offer_deadlines()
            async with self.lock:
                if self.game is None or self.status() != "playing":
                    break
                step = self._the_match().next_step()
                if step is None:
                    self._arm_deadlines()
                    break
                if step.kind == "turn" and self.bot_streak >= self.hub.config.max_bot_streak:
                    log.error("game %s: %d bot actions in a row without end; the bots stop until a human acts",
                              self.gid, self.bot_streak)
                    self.stalled = True
                    break
                if step.note:
                    log.info("game %s: %s", self.gid, step.note)
                ok = await self._commit_bot(step.action, "bot", step.kind)
            failures = 0 if ok else failures + 1
            if failures >= 3:
                log.error("game %s: bot %s cannot move; the game waits for a human action", self.gid, step.seat)
                self.stalled = True
                break
            await asyncio.sleep(self.hub.config.bot_delay)   # yield to the event loop between bot actions

    async def _commit_bot(self, action: Action, by: str, kind: str = "turn") -> bool:
        """(Under the lock.)  Commit a bot's action; False if it could not be."""
        try:
            seq, events = await self._commit_locked(action, by, kind=kind)
        except IllegalAction as e:
            log.warning("game %s: %s for %s refused: %s", self.gid, action.TYPE, action.seat, e)
            return False
        except ProtocolError as e:
            log.warning("game %s: %s for %s not applied: %s", self.gid, action.TYPE, action.seat, e)
            return True
        self._note_answer(action, events, seq, by)
        return True

    async def _deadline_step(self, seat: str) -> None:
        """A human seat let its deadline pass: its bot decides this once."""
        async with self.lock:
            g = self.game
            if (g is not None and self.status() == "playing" and self.seats.get(seat, {}).get("kind") == "human"
                    and seat in {p["seat"] for p in g.pending}):
                player = Player(g, seat)
                action = self._agent(seat, self.meta["bots"]).choose(player)
                if not player.is_legal(action):
                    action = player.legal[0]
                await self._commit_bot(action, "deadline")
        self.kick()

    def _cancel_timers(self) -> None:
        for h in list(self._timers.values()) + list(self._offer_timers.values()):
            h.cancel()
        self._timers.clear()
        self._offer_timers.clear()

    def _arm_offer_deadlines(self) -> None:
        """With a deadline, a trade offer to a human seat is answered by a bot after it."""
        dl = self.meta.get("deadline")
        if not dl or not self.driving or self.game is None or self.status() != "playing":
            for h in self._offer_timers.values():
                h.cancel()
            self._offer_timers.clear()
            return
        waiting = {o["id"] for o in self.game.offers()
                   if self.seats.get(o["to"], {}).get("kind") == "human"}
        for oid in [o for o in self._offer_timers if o not in waiting]:
            self._offer_timers.pop(oid).cancel()
        loop = asyncio.get_running_loop()
        for oid in waiting:
            if oid not in self._offer_timers:
                self._offer_timers[oid] = loop.call_later(float(dl), self._offer_deadline_fired, oid)

    def _offer_deadline_fired(self, oid: int) -> None:
        self._offer_timers.pop(oid, None)
        self.hub.spawn(self._offer_deadline_step(oid))

    async def _offer_deadline_step(self, oid: int) -> None:
        async with self.lock:
            g = self.game
            o = next((o for o in g.offers() if o["id"] == oid), None) if g is not None and not self.closed \
                and self.driving else None
            if o is None or self.seats.get(o["to"], {}).get("kind") != "human":
                return
            # The seat's bot answers this offer (a decline if it would rather answer another).
            seat = o["to"]
            action = self._agent(seat, self.meta["bots"]).react(Player(g, seat))
            if getattr(action, "offer", None) != oid or action.TYPE not in ("AcceptTrade", "DeclineTrade"):
                action = DeclineTrade(seat, oid)
            try:
                seq, events = await self._commit_locked(action, "deadline")
                self._note_answer(action, events, seq, "deadline")
            except (IllegalAction, ProtocolError) as e:
                log.info("game %s: deadline answer to offer %d not applied: %s", self.gid, oid, e)
        self.kick()

    # -- bots' answers to chat proposals --------------------------------------------------------
    @staticmethod
    def _proposal_key(prop: dict) -> str | None:
        kind = prop.get("kind")
        if kind == "trade" and prop.get("offer"):
            return f"trade:{prop['offer']}"
        if kind == "committee":
            return "committee:" + ",".join(sorted(prop.get("members", [])))
        if kind in ("purge", "execution") and prop.get("seq"):
            return f"{kind}:{prop['seq']}"
        return None

    def _note_answer(self, action: Action, events: list, seq: int, by: str) -> None:
        """A bot (or a deadline) applied ``action``: if it answers a proposal made in chat,
        the seat's reply is posted there, as if it had pressed accept or decline."""
        t = action.TYPE
        if t in ("AcceptTrade", "DeclineTrade"):
            key, accept = f"trade:{action.offer}", t == "AcceptTrade"
        elif t == "JoinCommittee":
            key, accept = "committee:" + ",".join(sorted(action.members)), True
        elif t == "ApprovePurge":
            key, accept = f"purge:{self._last_purge}", bool(action.approve)
        elif t == "OrderExecution" and any(e.kind == "execution_consent" for e in events):
            key, accept = f"execution:{self._last_exec}", bool(action.consent)
        else:
            return
        self._answers.setdefault(key, []).append((action.seat, accept, seq, by))
        if len(self._answers) > 500:
            self._answers.pop(next(iter(self._answers)))
        self._match(key)

    def _match(self, key: str) -> None:
        prop = self._props.get(key)
        if prop is None or not self.driving:
            return
        name, mid, addressees, pseq = prop
        for seat, accept, seq, by in self._answers.get(key, ()):
            if seat in addressees and seq > pseq and (name, mid, seat) not in self._replied:
                if len(self._replied) > 5000:
                    self._replied.clear()
                self._replied.add((name, mid, seat))
                self.hub.spawn(self._post_reply(name, mid, seat, accept, seq, key.split(":")[0], by))

    async def _post_reply(self, name: str, mid: int, seat: str, accept: bool, seq: int, kind: str, by: str) -> None:
        rec = self.channels.get(name)
        if rec is None or self.closed:
            return
        verb = "accepts" if accept else "declines"
        msg = {"seat": seat, "ts": now_ms(), "text": f"{seat} {verb} {kind} proposal #{mid}",
               "reply": {"msg": mid, "accept": accept, "seq": seq, "by": by}}
        await self.store.chat_append(self.gid, name, msg, self.store.topic(rec["secret"]))

    def _arm_deadlines(self) -> None:
        dl = self.meta.get("deadline")
        if not dl or not self.driving or self.game is None or self.status() != "playing":
            for h in self._timers.values():
                h.cancel()
            self._timers.clear()
            return
        waiting = {p["seat"] for p in self.game.pending if self.seats.get(p["seat"], {}).get("kind") == "human"}
        for s in [s for s in self._timers if s not in waiting]:
            self._timers.pop(s).cancel()
        loop = asyncio.get_running_loop()
        for s in waiting:
            if s not in self._timers:
                self._timers[s] = loop.call_later(float(dl), self._deadline_fired, s)

    def _deadline_fired(self, seat: str) -> None:
        self._timers.pop(seat, None)
        self.hub.spawn(self._deadline_step(seat))

    # -- chat ---------------------------------------------------------------------------------
    async def _register_channel(self, name: str, rec: dict, fresh: bool) -> None:
        if name in self.channels:
            return
        self.channels[name] = rec
        cb = partial(self._on_chat_notice, name)
        self._chat_cbs[name] = cb
        await self.store.subscribe(self.store.topic(rec["secret"]), cb)
        self.delivered[name] = 0 if fresh else await self.store.chat_len(self.gid, name)
        if fresh:
            frame = {"t": "channel", "id": None, "game": self.gid, "channel": chat.public_info(rec, 0)}
            for c in list(self.conns):
                if chat.can_read(rec, c.seat):
                    c.send(frame)
            self.hub.spawn(self._chat_catch_up(name))

    async def _channel_notice(self, name: Any) -> None:
        if not isinstance(name, str) or name in self.channels:
            return
        rec = (await self.store.load_channels(self.gid)).get(name)
        if rec is not None:
            await self._register_channel(name, rec, fresh=True)

    def _on_chat_notice(self, name: str, data: bytes) -> None:
        mid, msg = split_chat_notice(data)
        d = self.delivered.get(name, 0)
        if mid <= d:
            return
        if mid == d + 1 and name not in self._catching:
            self.delivered[name] = mid
            self._deliver(name, msg)
        elif name in self._catching:
            self._again.add(name)
        else:
            self.hub.spawn(self._chat_catch_up(name))

    async def _chat_catch_up(self, name: str) -> None:
        if name in self._catching:
            self._again.add(name)
            return
        self._catching.add(name)
        try:
            while True:
                self._again.discard(name)
                msgs = await self.store.chat_range(self.gid, name, self.delivered.get(name, 0), 1000)
                for m in msgs:
                    if m["id"] > self.delivered.get(name, 0):
                        self.delivered[name] = m["id"]
                        self._deliver(name, m)
                if len(msgs) < 1000 and name not in self._again:
                    break
        finally:
            self._catching.discard(name)

    def _deliver(self, name: str, msg: dict) -> None:
        rec = self.channels[name]
        prop = msg.get("proposal")
        if isinstance(prop, dict):
            key = self._proposal_key(prop)
            if key is not None:
                self._props[key] = (name, msg["id"], list(prop.get("addressees", [])), int(prop.get("seq") or 0))
                if len(self._props) > 500:
                    self._props.pop(next(iter(self._props)))
                self._match(key)
        frame = {"t": "msg", "id": None, "game": self.gid, "channel": name, "msg": msg}
        for c in list(self.conns):
            if chat.can_read(rec, c.seat):
                c.send(frame)

    def _channel(self, name: Any) -> dict:
        rec = self.channels.get(name) if isinstance(name, str) else None
        if rec is None:
            raise ProtocolError("unknown_channel", f"no channel {str(name)[:40]!r} in this game")
        return rec

    async def _rate(self, seat: str) -> None:
        """One token of the seat's chat bucket; the bucket lives in the store, so with Redis
        every process serving the game draws from the same one."""
        cfg = self.hub.config
        if not await self.store.take_token(f"{self.gid}:{seat}", cfg.chat_rate, cfg.chat_burst):
            raise ProtocolError("rate_limited", "too many chat messages; wait a moment")

    async def post(self, seat: str, name: Any, text: Any, proposal: Any = None) -> dict:
        rec = self._channel(name)
        if not chat.can_post(rec, seat):
            raise ProtocolError("not_member", f"{seat} is not a member of {name!r}")
        if not isinstance(text, str):
            raise ProtocolError("bad_request", "'text' must be a string")
        if len(text) > MAX_TEXT:
            raise ProtocolError("message_too_large", f"chat text is limited to {MAX_TEXT} characters")
        if proposal is None and not text.strip():
            raise ProtocolError("bad_request", "an empty message")
        prop = None
        if proposal is not None:
            prop = chat.parse_proposal(proposal, seat, rec, list(self.seats))
        await self._rate(seat)
        if prop is not None:
            for a in chat.post_actions(prop, seat):
                seq, events = await self.submit(a, by="chat")
                prop["seq"] = seq
                for e in events:
                    if e.kind == "trade_offered":
                        prop["offer"] = e.data["offer"]
            if not text:
                text = f"{seat} proposes a {prop['kind']}"
        msg: dict = {"seat": seat, "ts": now_ms(), "text": text}
        if prop is not None:
            msg["proposal"] = prop
        mid = await self.store.chat_append(self.gid, name, msg, self.store.topic(rec["secret"]))
        msg["id"] = mid
        return msg

    async def answer(self, seat: str, name: Any, msg_id: Any, accept: bool) -> dict:
        rec = self._channel(name)
        if not chat.can_post(rec, seat):
            raise ProtocolError("not_member", f"{seat} is not a member of {name!r}")
        if isinstance(msg_id, bool) or not isinstance(msg_id, int) or msg_id < 1:
            raise ProtocolError("bad_request", "'msg' must be a message id")
        found = await self.store.chat_range(self.gid, name, msg_id - 1, 1)
        if not found:
            raise ProtocolError("unknown_message", f"no message {msg_id} in {name!r}")
        prop = found[0].get("proposal")
        if not prop:
            raise ProtocolError("not_a_proposal", f"message {msg_id} carries no proposal")
        if seat not in prop.get("addressees", []):
            raise ProtocolError("not_addressed", f"proposal {msg_id} is not addressed to {seat}")
        await self._rate(seat)
        seq = None
        for a in chat.answer_actions(prop, seat, accept):
            seq, _ = await self.submit(a, by="chat")
        verb = "accepts" if accept else "declines"
        msg: dict = {"seat": seat, "ts": now_ms(), "text": f"{seat} {verb} {prop['kind']} proposal #{msg_id}",
                     "reply": {"msg": msg_id, "accept": bool(accept), "seq": seq}}
        mid = await self.store.chat_append(self.gid, name, msg, self.store.topic(rec["secret"]))
        msg["id"] = mid
        return msg

    async def open_channel(self, seat: str, members: Any, title: Any = "") -> dict:
        if not isinstance(members, list) or not all(isinstance(m, str) and m in self.seats for m in members):
            raise ProtocolError("bad_request", "'members' must be a list of seats of this game")
        ms = sorted(set(members) | {seat})
        if len(ms) < 2:
            raise ProtocolError("bad_request", "a group channel needs at least two members")
        if not isinstance(title, str) or len(title) > 80:
            raise ProtocolError("bad_request", "'title' must be a string of at most 80 characters")
        await self._rate(seat)
        name = f"g{await self.store.next_group_id(self.gid)}"
        rec = chat.channel_record(name, "group", ms, by=seat, title=title)
        await self.store.add_channel(self.gid, name, rec)
        await self._register_channel(name, rec, fresh=True)
        await self.store.publish(self.topic, pack({"k": "chan", "name": name}))
        return chat.public_info(rec, 0)

    async def history(self, seat: str | None, name: Any, after: int, limit: int) -> dict:
        rec = self._channel(name)
        if not chat.can_read(rec, seat):
            raise ProtocolError("not_member", f"{seat or 'a spectator'} may not read {name!r}")
        msgs = await self.store.chat_range(self.gid, name, max(0, after), max(1, min(limit, 500)))
        return {"t": "history", "channel": name, "messages": msgs,
                "last": max(self.delivered.get(name, 0), msgs[-1]["id"] if msgs else 0)}
