"""One game in one server process: its replica, its seats, its connections and their frames.

A :class:`GameRuntime` is a *replica*: the game rebuilt from the nearest snapshot (the
store keeps one every ``snapshot_every`` actions, :meth:`Store.save_snapshot`) plus the actions
logged after it, and kept current from the game's pub/sub notices.  Every accepted action takes the same path (:meth:`GameRuntime.submit`,
or the bots through :class:`~rcw.server.driver.Driver`): validate on the replica through
``Game.apply`` (an illegal action changes nothing), append to the durable log iff the log is
still as long as the replica (otherwise catch up and retry), then push ``update`` frames to the
local connections.  Other processes receive the notice, apply the same action to their replicas
and push the same frames.

The runtime owns three helpers, one job each:

- ``channels`` (:class:`~rcw.server.channels.Channels`): the game's chat channels;
- ``proposals`` (:class:`~rcw.server.proposals.Proposals`): replies in chat for proposals a bot answered;
- ``driver`` (:class:`~rcw.server.driver.Driver`): bots and deadlines, in the process holding the lease;
- ``clock`` (:class:`~rcw.server.clock.Clock`): the deadlines as absolute times in the store;
- ``absence`` (:class:`~rcw.server.absence.Absence`): pauses, civil disorder, last looks;
- ``postal`` (:class:`~rcw.server.postal.PostalDesk`, postal games only): sheets, phase deadlines, reports.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from rcw.server import facts
from rcw.server.absence import PROCS, Absence
from rcw.server.channels import Channels
from rcw.server.clock import Clock
from rcw.server.driver import Driver
from rcw.server.host import Hub
from rcw.server.notify import public_prefs
from rcw.server.postal import PostalDesk
from rcw.server.proposals import Proposals
from rcw.server.protocol import ProtocolError, now_ms, pack, unpack
from rcw.server.replay import rebuild
from rcw.server.seats import holds, public_seats, seats_status

from rcw import options
from rcw.actions import Action, IllegalAction, to_wire
from rcw.game import Game

#: The record (:meth:`Store.hash_put`) of a finished game's outcome, for the lobby's list of them.
OVER = "over"

log = logging.getLogger("rcw.server")


class GameRuntime:
    """One game's replica in this process, its local connections and (if driving) its bots."""

    def __init__(self, hub: Hub, gid: str, meta: dict) -> None:
        self.hub = hub
        self.store = hub.store
        self.gid = gid
        self.meta = meta
        self.seats: dict[str, dict] = {}
        self.game: Game | None = None
        self.loaded = False                      # (loaded once: a replica dropped since is rebuilt, not loaded)
        self.seq = 0
        self.hash = ""
        self.lock = asyncio.Lock()
        self.conns: set[Any] = set()
        self.online_shown: list[str] | None = None     # the seats online as the clients were last told
        self.notices = asyncio.Lock()      # the presence and notification-settings notices, one at a time
        self.topic = self.store.topic(meta["secret"], gid)
        self._snap: tuple[int, bytes] | None = None
        self._over_marked = False
        self.closed = False
        self.gone = False                        # (archived: nothing more is written for it, Hub.archived)
        self.last_used = time.monotonic()
        self.channels = Channels(self)
        self.proposals = Proposals(self)
        self.clock = Clock(self)
        self.absence = Absence(self)
        self.postal = PostalDesk(self) if meta["options"].get("mode") == "postal" else None
        self.prefs: dict[str, dict] = {}         # seat -> its notification settings (rcw.server.notify)
        self.reported: dict[str, str] = {}       # seat -> the phase whose report was e-mailed to it (rcw.server.notify)
        self._pending: set[str] = set()          # the seats pending before the last action
        self.driver = Driver(self)

    def touch(self) -> None:
        self.last_used = time.monotonic()

    # -- loading ----------------------------------------------------------------------------
    async def load(self) -> None:
        await self.store.subscribe(self.topic, self._on_game_notice)
        self.seats = await self.store.load_seats(self.gid)
        await self.proposals.load()
        await self.channels.load()
        await self.clock.load()
        self.prefs = await self.store.hash_all(self.gid, "notify")
        self.reported = await self.store.hash_all(self.gid, "reported")
        async with self.lock:
            await self._rebuild_locked()
        self.loaded = True
        if self.game.over:   # (a process may have died between the last append and marking it)
            self._over_marked = True
            await self._mark_over()

    async def _mark_over(self) -> None:
        """The game is over: keep its outcome (the engine's ``result``, the turns played) in its
        record ``over`` for the lobby's list of finished games, then take it off the live list."""
        g = self.game
        if g is not None:
            with contextlib.suppress(ProtocolError):      # (archived meanwhile: nothing to keep)
                if "result" not in await self.store.hash_all(self.gid, OVER):
                    await self.store.hash_put(self.gid, OVER, {"result": g.result, "turn": g.turns_played, "ended": now_ms()})
        await self.store.mark_over(self.gid)

    async def shutdown(self, keep: bool = False) -> None:
        """Unload the game here; ``keep``: the process is stopping (:meth:`_keep_position`)."""
        self.closed = True
        self.driver.stop()
        self.hub.notifier.forget(self.gid)
        if keep:
            with contextlib.suppress(Exception):
                await self._keep_position()
        with contextlib.suppress(Exception):
            await self.store.unsubscribe(self.topic, self._on_game_notice)
            await self.channels.close()
            await self.store.release(self.gid, self.hub.proc)

    async def _keep_position(self) -> None:
        """A server that stops stores each game's position as a snapshot at its last action
        (unless the store has that one): a server started again loads the game as it stands and
        does not judge its log again, which a rule fixed since (``rcw.RULES_EDITION``) might
        refuse."""
        async with asyncio.timeout(5):
            async with self.lock:
                g = self.game
                if g is None or self.seq == 0:
                    return
                stored = await self.store.snapshot_before(self.gid, self.seq)
                if stored is None or stored[0] < self.seq:
                    await self.store.save_snapshot(self.gid, self.seq, g.to_bytes())

    async def _rebuild_locked(self, upto: int | None = None) -> None:
        """Rebuild the replica silently (no frames) from the snapshot and the log."""
        self.game = None
        snap = self._snap if self._snap is not None and (upto is None or self._snap[0] <= upto) else None
        stored = await self.store.snapshot_before(self.gid, (1 << 62) if upto is None else upto)
        if stored is not None and (snap is None or stored[0] > snap[0]):
            snap = stored
        base = snap[0] if snap is not None else 0
        entries = await self.store.log_range(self.gid, base, upto)
        g, _ = rebuild(self.meta, snap, entries, self.gid)      # (a log of older rules: rcw.server.replay)
        self.game = g
        self.seq = base + len(entries)
        self.hash = g.state_hash()
        self._pending = {p["seat"] for p in g.pending}
        self.driver.replace_game(g)

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
                "option_words": options.words(self.meta["options"]),
                "bots": self.meta["bots"], "on_leave": self.meta["on_leave"], "deadline": self.meta.get("deadline"),
                "mode": self.meta["options"].get("mode", "standard"), "missing": self.meta.get("missing"),
                "pause": self.meta.get("pause"), "disorder_after": self.meta.get("disorder_after"),
                "webhook": bool(self.meta.get("webhook")), "deadlines": self.clock.public(),
                "created": self.meta["created"], "seq": self.seq, "hash": self.hash,
                "commitment": self.meta.get("commitment"),
                "turn": g.turns_played if g else None, "phase": g.phase if g else None,
                "result": g.result if g else None}

    def has_bot_work(self) -> bool:
        """Whether this process runs bots for this game now (driving, not over, a bot seat)."""
        return (self.driver.driving and not (self.game is not None and self.game.over)
                and any(r["kind"] == "bot" for r in self.seats.values()))

    # -- seats ----------------------------------------------------------------------------------
    async def seat_for_token(self, token: Any) -> str | None:
        if not isinstance(token, str) or not token:
            return None
        seat = self._seat_for_token(token)
        if seat is None and self.store.shared:
            await self.reload_seats(notify=True)
            seat = self._seat_for_token(token)
        return seat

    def _seat_for_token(self, token: str) -> str | None:
        for s, rec in self.seats.items():
            if holds(rec, token):
                return s
        return None

    def token_valid(self, seat: str, token: str) -> bool:
        rec = self.seats.get(seat)
        return bool(rec and holds(rec, token))

    async def reload_seats(self, notify: bool = True) -> None:
        seats = await self.store.load_seats(self.gid)
        if seats == self.seats:
            return
        was = self.status()
        self.seats = seats
        self.driver.seats_changed()         # a seat that became a bot is asked from now on
        for c in list(self.conns):          # a seat that was left: its connections become spectators
            if c.seat is not None and not self.token_valid(c.seat, c.token or ""):
                c.seat = c.token = None
        moved = was != self.status()
        if notify:
            frame = {"t": "seats", "id": None, "game": self.gid, "seats": public_seats(seats), "status": self.status()}
            if moved and self.game is not None:   # the game starts, or waits again: what a seat may do changes
                self._send_each(frame, self._seat_news)
            else:
                data = pack(frame)
                for c in list(self.conns):
                    c.send(frame, data)
        if moved or self.driver.driving:
            self.driver.kick()

    async def seats_changed(self) -> None:
        """After a seat record changed in the store: update here, tell the other processes."""
        await self.reload_seats(notify=True)
        await self.store.publish(self.topic, pack({"k": "seats"}))

    # -- connections and frames ---------------------------------------------------------------
    def attach(self, conn: Any) -> None:
        self.conns.add(conn)
        self.touch()
        conn.present = conn.seat          # (counted while the connection lasts, even if the seat is left)
        if conn.seat is not None:
            self.hub.spawn(self._arrived(conn.seat))

    async def _arrived(self, seat: str) -> None:
        if await self._count_presence(seat, 1):
            await self.store.publish(self.topic, pack({"k": "presence"}))

    def detach(self, conn: Any) -> None:
        seat = getattr(conn, "present", None)
        if conn in self.conns and seat is not None and not self.gone:
            self.hub.spawn(self._gone(seat, self.seq))
        self.conns.discard(conn)
        self.touch()

    async def _gone(self, seat: str, seq: int) -> None:
        """A seat's connection closed: one fewer presence, and its last look (absence digest)."""
        if await self._count_presence(seat, -1):
            await self.store.publish(self.topic, pack({"k": "presence"}))
            await self.absence.seen(seat, seq)

    async def _count_presence(self, seat: str, by: int) -> bool:
        """Count a connection of ``seat`` in this process, or one fewer.  False if the store no
        longer has the game (archived, and this process missed the notice): it is unloaded."""
        try:
            await self.store.hash_incr(self.gid, "present", f"{seat}|{self.hub.proc}", by)
        except ProtocolError as e:
            if e.code != "unknown_game":
                raise
            await self.hub.archived(self)
            return False
        return True

    async def present(self, seat: str) -> bool:
        """Whether a connection holds the seat (:meth:`online`).  rcw.server.notify e-mails only
        seats that are away."""
        return seat in await self.online()

    async def online(self) -> list[str]:
        """The seats a connection holds, in a process that is alive (its lease rounds go on: a
        process killed with connections open does not keep its seats present), in seat order."""
        counts = await self.store.hash_all(self.gid, "present")
        alive = await self.store.hash_all(*PROCS)
        recent = now_ms() - int(3000 * self.hub.config.lease_ttl) - 1000
        held = {s for key, n in counts.items() for s, _, proc in [key.partition("|")]
                if n > 0 and alive.get(proc, 0) >= recent}
        return sorted(held)

    async def presence_changed(self) -> None:
        """A seat's connection came or went (in any process): push who is online (``presence``)
        to this process's clients when it changed.  One notice at a time (:attr:`notices`), each
        reading the store afresh (two reads finishing out of order left a stale dot: review)."""
        async with self.notices:
            online = await self.online()
            if online == self.online_shown:
                return
            self.online_shown = online
            frame = {"t": "presence", "id": None, "game": self.gid, "online": online}
            data = pack(frame)
            for c in list(self.conns):
                c.send(frame, data)

    def state_frame(self, t: str, seat: str | None) -> dict:
        """The full picture for one seat (``welcome`` and ``view`` replies); under the lock."""
        g = self.game
        view = g.view(seat)
        legal, seat_facts = self._seat_part(seat, view)
        return {"t": t, "game": self.gid, "seat": seat, "seq": self.seq, "hash": self.hash, "status": self.status(),
                "view": view, "pending": g.pending, "legal": legal, "facts": seat_facts,
                "seats": public_seats(self.seats), "result": g.result, "pacts": self.proposals.of(seat),
                "deadlines": self.clock.public()}

    def _seat_part(self, seat: str | None, view: dict, board: dict[str, int] | None = None) -> tuple[list[dict], dict]:
        """What a frame tells one seat alone: its legal actions (none before the game starts, nor
        for a spectator) and its facts (section 3.1) in ``view``; ``board``: the stacks'
        strengths (``facts.strengths``) when the caller has them."""
        legal = [to_wire(a) for a in self.game.legal_actions(seat)] if seat and self.status() == "playing" else []
        out = facts.seat_facts(self.game, view, seat, legal, board)
        if legal and self.postal is None and view["phase"] != "over":     # (by post a Committee is an order)
            bots = self.driver.committee_refusals(seat, view)
            if bots:
                out["committee_bots"] = bots
        return legal, out

    def _seat_news(self, seat: str | None) -> dict:
        """A seat's part of a ``seats`` frame when the status changed: its legal actions and facts
        (nothing for a spectator)."""
        if seat is None:
            return {}
        legal, seat_facts = self._seat_part(seat, self.game.view(seat))
        return {"legal": legal, "facts": seat_facts}

    def _push_update(self, entry: dict | None, events: list) -> None:
        g = self.game
        pending = g.pending
        a = entry["a"] if entry else {}
        base = {"t": "update", "id": None, "game": self.gid, "seq": self.seq, "actor": a.get("seat"),
                "action": a.get("t"), "by": entry.get("by") if entry else None,
                "events": entry["ev"] if entry and "ev" in entry else [to_wire(e) for e in events], "hash": self.hash, "pending": pending,
                "status": self.status(), "result": g.result, "why": entry.get("why", []) if entry else []}
        board: dict[str, int] | None = None                      # the stacks' strengths, the same for all

        def own(seat: str | None) -> dict:
            nonlocal board
            view = g.view(seat)
            if board is None:
                board = facts.strengths(g, view)
            legal, seat_facts = self._seat_part(seat, view, board)
            return {"view": view, "legal": legal, "facts": seat_facts}

        n = self._send_each(base, own, count=False)
        self.hub.metrics.sent(base, n)          # every seat's frame is an "update": counted once

    def _send_each(self, base: dict, own: Callable[[str | None], dict], count: bool = True) -> int:
        """Send every connection ``base`` with what its seat alone is told, ``own(seat)`` (None:
        a spectator), made and packed once for each seat; how many frames were queued."""
        frames: dict[str | None, tuple[dict, bytes]] = {}      # seat -> its frame, packed once
        n = 0
        for c in list(self.conns):
            fd = frames.get(c.seat)
            if fd is None:
                f = {**base, **own(c.seat)}
                fd = frames[c.seat] = (f, pack(f))
            if c.send(fd[0], fd[1], count=count):
                n += 1
        return n

    def _after_apply(self, entry: dict, events: list, kind: str = "turn") -> None:
        self.hash = self.game.state_hash()
        if self.seq % self.hub.config.snapshot_every == 0:
            self._snap = (self.seq, self.game.to_bytes())
        self._push_update(entry, events)
        self.proposals.applied(events, self.seq)
        self.driver.applied(entry, events, kind)
        before, self._pending = self._pending, {p["seat"] for p in self.game.pending}
        self.hub.notifier.applied(self, entry.get("ev") or [to_wire(x) for x in events], before)
        if self.game.over and not self._over_marked:
            self._over_marked = True
            self.hub.spawn(self._mark_over())
        self.touch()
        self.driver.kick()

    # -- accepting actions -------------------------------------------------------------------
    async def submit(self, action: Action, by: str, expect_seq: int | None = None) -> tuple[int, list]:
        """Validate, persist, apply and push one action; returns (seq, events)."""
        async with self.lock:
            out = await self.commit_locked(action, by, expect_seq)
        if by == "player":
            await self.absence.acted(action.seat)      # (missed deadlines forgotten, civil disorder over)
        return out

    async def commit_locked(self, action: Action, by: str, expect_seq: int | None = None,
                            kind: str = "turn", why: list[str] | None = None) -> tuple[int, list]:
        """(Under the lock.)  :meth:`submit`'s work; ``kind`` tells the bots' match loop whether
        the action was a turn step or an out-of-turn answer; ``why``: a bot's reasons, kept with
        the action in the log and shown with it (never in a postal game, whose orders are secret
        until the phase closes)."""
        t0 = time.perf_counter()
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
            # The entry keeps the events too: the ``events`` request reads them (never a replay).
            entry = {"a": to_wire(action), "by": by, "ts": now_ms(), "ev": [to_wire(x) for x in events]}
            # (not in a postal game: a bot's reasons tell its orders, which are the Gamesmaster's
            # alone until the phase closes, 004 [17.0]; QA read a bot's attack on his stack there)
            if why and self.postal is None:
                entry["why"] = list(why)
            notice = pack({"k": "act", "seq": before + 1, "e": entry})
            try:
                ok = await self.store.append_action(self.gid, before, entry, self.topic, notice)
            except BaseException:
                self.game = None            # the replica is ahead of the log: rebuild on next use
                raise
            if ok:
                self.seq = before + 1
                self._after_apply(entry, events, kind)
                if self.game.over:            # (logged by the process that wrote the last action: once)
                    r = self.game.result or {}
                    log.info("game %s is over after %d actions, Game-Turn %d: %s", self.gid, self.seq,
                             self.game.turns_played, r.get("reason") or "ended")
                if self._snap is not None and self._snap[0] == self.seq:   # (the writer stores the snapshot)
                    self.hub.spawn(self.store.save_snapshot(self.gid, self.seq, self._snap[1]))
                self.hub.metrics.action(by, time.perf_counter() - t0)
                return self.seq, events
            # Another process appended first: rewind, catch up (pushing its actions), retry.
            log.info("game %s: lost the race for seq %d; catching up", self.gid, before + 1)
            await self._rebuild_locked(before)
            await self._catch_up_locked()
            if expect_seq is not None:
                raise ProtocolError("stale", f"the game moved on to seq {self.seq}", seq=self.seq)
        raise ProtocolError("busy", "the game changed under the request too many times; retry")

    # -- notices from the other processes ----------------------------------------------------
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
            self.hub.spawn(self.channels.notice(msg.get("name")))
        elif k == "clock":
            self.hub.spawn(self._clock_notice(msg.get("why")))
        elif k == "notify":
            self.hub.spawn(self._prefs_notice())
        elif k == "presence":
            self.hub.spawn(self.presence_changed())
        elif k == "gone":
            self.hub.spawn(self.hub.archived(self))

    async def _clock_notice(self, why: dict | None) -> None:
        """The game's deadlines changed (set, dropped, moved by a pause): reload them, tell the
        clients (``deadline``), and the driver arms its timers again if they moved."""
        await self.clock.load()
        frame = {"t": "deadline", "id": None, "game": self.gid, "deadlines": self.clock.public(), "why": why}
        data = pack(frame)
        for c in list(self.conns):
            c.send(frame, data)
        if why is not None:
            self.driver.clock_changed()
        if self.driver.driving:
            self.hub.notifier.deadlines(self)

    async def _prefs_notice(self) -> None:
        """A seat's notification settings changed (saved, or its address confirmed by the link):
        reload them and push each changed seat's to its connections (``notify``).  One notice at
        a time (:attr:`notices`), each reading the store afresh: an earlier read finishing after a
        later one would push settings no longer current."""
        async with self.notices:
            self.prefs = await self.store.hash_all(self.gid, "notify")
            for c in list(self.conns):
                if c.seat is None:
                    continue
                now = public_prefs(self.prefs.get(c.seat) or {})
                if now != c.prefs_shown:             # (what its welcome, or the last push, showed it)
                    c.prefs_shown = now
                    c.send({"t": "notify", "id": None, "game": self.gid, "notify": now})
        if self.driver.driving:
            self.hub.notifier.deadlines(self)      # (a seat's reminders follow its settings)

    async def _sync(self, msg: dict) -> None:
        async with self.lock:
            if self.game is None or msg["seq"] <= self.seq:
                return
            if msg["seq"] == self.seq + 1:
                await self._apply_entry(msg["e"])
            else:
                await self._catch_up_locked()
