"""The lobby of one server process: its games, their leases, and the seats people take.

One :class:`Hub` per process holds a :class:`~rcw.server.runtime.GameRuntime` for every game
this process serves: a game is loaded when a client connects to it or when this process wins
its driver lease, and unloaded when nobody has watched it for a while.  The hub answers the
HTTP lobby (create, list, join, fill with bots, leave, replay views, records) and renews, every
``lease_ttl / 3`` seconds, the driver leases of the games whose bots run here
(:class:`~rcw.server.driver.Driver`), taking over games nobody drives.
"""

from __future__ import annotations

import asyncio
import collections
import hmac
import logging
import re
import secrets
import time
from collections.abc import Coroutine
from typing import Any

from rcw.server import chat, facts
from rcw.server.absence import PROCS
from rcw.server.admission import Admission
from rcw.server.botworker import BotWorkers
from rcw.server.config import Config, default_bot_kind
from rcw.server.driver import BotTurns
from rcw.server.metrics import Metrics
from rcw.server.notify import Notifier, check_webhook_target, check_webhook_url
from rcw.server.protocol import ProtocolError, now_ms
from rcw.server.replay import rebuild, record_of
from rcw.server.runtime import OVER, GameRuntime
from rcw.server.seats import OPEN, public_seats, seats_status, token_hash
from rcw.server.store import STORE_DOWN, Backoff, Store, stop_task

from rcw import RULES_EDITION, __version__, modes, verify
from rcw import options as O
from rcw.actions import IllegalAction, Quit
from rcw.rng import SEED_MAX

log = logging.getLogger("rcw.server")

GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(s|m|min|h|d)?\s*$")
UNITS = {None: 1, "s": 1, "m": 60, "min": 60, "h": 3600, "d": 86400}


#: How many finished games the lobby lists (``GET /api/games?status=finished``): the most recent.
FINISHED_LISTED = 20


def duration(value: Any, name: str, hi: float = 30 * 86400) -> float | None:
    """A length of time given as seconds (a number) or a string with a unit: ``"90s"``,
    ``"45m"``, ``"36h"``, ``"2d"`` (null: none).  Out of ``0 < d <= hi``: ``bad_request``."""
    if value is None:
        return None
    if isinstance(value, str):
        m = DURATION.match(value)
        secs = float(m.group(1)) * UNITS[m.group(2)] if m else None
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        secs = float(value)
    else:
        secs = None
    if secs is None or not 0 < secs <= hi:
        raise ProtocolError("bad_request", f"{name} must be a duration: seconds, or a number with s, m, h or d "
                            f"(e.g. \"36h\"), more than 0 and at most {hi / 86400:g} days")
    return secs


def _token() -> str:
    """A secret token (URL-safe base64 of 24 random bytes) that never begins with "-", so that
    ``rcw play --token TOKEN`` never reads it as an option."""
    while True:
        t = secrets.token_urlsafe(24)
        if not t.startswith("-"):
            return t


#: A process whose lease rounds stopped this long ago is forgotten from the processes' hash
#: (``P {g:_}:h:procs``, one entry a process start), swept at most this often (ms).
PROCS_SWEEP_MS = 600_000
PRESENCE_CHECK_MS = 10_000        # how often the seats online are read again for the games with connections here


class Hub:
    """Everything one server process knows: its runtimes, its store, its limits."""

    def __init__(self, store: Store, config: Config | None = None) -> None:
        self.store = store
        self.config = config or Config()
        self.proc = secrets.token_hex(6)
        self._procs_swept = 0
        self._presence_checked = 0
        self.runtimes: dict[str, GameRuntime] = {}
        self.conns: set[Any] = set()
        self.conns_by_addr: collections.Counter[str] = collections.Counter()   # open WebSockets by client address
        self.tasks: set[asyncio.Task] = set()
        self._load_lock = asyncio.Lock()
        self._damaged: dict[str, int] = {}    # game id -> its log's length when it was found damaged
        self._lease_task: asyncio.Task | None = None
        self._stopping = False
        self.started = time.time()
        self.metrics = Metrics()          # this process's /metrics (one registry per hub)
        self.admission = Admission(self)  # rate limits, caps, CPU work off the event loop
        self._views: dict[tuple[str, int], dict] = {}   # past views of finished games (they never change)
        self.bot_workers: BotWorkers | None = None       # where the bots decide (None: here, in the event loop)
        self.bot_turns = BotTurns()                      # the bots' actions, one per pass of the loop
        self.notifier = Notifier(self)                   # e-mail and webhooks (rcw.server.notify)

    # -- life cycle -------------------------------------------------------------------------
    async def start(self) -> None:
        await self.store.start()
        if self.config.bot_workers > 0:
            self.bot_workers = BotWorkers(self.config.bot_workers, on_restart=self._bot_worker_restarted)
            await self.bot_workers.start()
        self._lease_task = asyncio.create_task(self._lease_loop(), name="lease-loop")

    async def stop(self) -> None:
        self._stopping = True             # (the lease loop stops at the end of its round, store.stop_task)
        await stop_task(self._lease_task)
        # (together: each stores its game's position, within a few seconds, :meth:`GameRuntime.shutdown`)
        await asyncio.gather(*(rt.shutdown(keep=True) for rt in list(self.runtimes.values())), return_exceptions=True)
        for t in list(self.tasks):
            t.cancel()
        self.admission.close()
        await self.notifier.close()
        if self.bot_workers is not None:
            await self.bot_workers.close()
        await self.store.close()

    def _bot_worker_restarted(self, worker) -> None:
        """A bot worker was replaced: the games it served go on (their drivers reset it)."""
        for rt in list(self.runtimes.values()):
            if rt.driver.driving and self.bot_workers.for_game(rt.gid) is worker:
                rt.driver.kick()

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
        return {"status": "ok", "version": __version__, "broker": self.store.kind,
                "mode": self.store.mode, "process": self.proc,
                "games_loaded": len(self.runtimes), "connections": len(self.conns),
                "uptime": round(time.time() - self.started, 1)}

    # -- runtimes ---------------------------------------------------------------------------
    def unknown_game(self, message: str) -> ProtocolError:
        """``unknown_game``; on the embedded store (``kind`` memory) it says so, with when this
        process started (``memory``, ``started`` ms): a restart lost every game, and a page left
        open on one can tell its player that plainly."""
        if self.store.kind != "memory":
            return ProtocolError("unknown_game", message)
        return ProtocolError("unknown_game", f"{message} (this server keeps its games in memory: a restart loses them)",
                             memory=True, started=int(self.started * 1000))

    async def get(self, gid: Any) -> GameRuntime:
        if not isinstance(gid, str) or not GAME_ID.match(gid):
            raise self.unknown_game("no such game")
        rt = self.runtimes.get(gid)
        if rt is not None and not rt.closed:
            rt.touch()
            return rt
        async with self._load_lock:
            rt = self.runtimes.get(gid)
            if rt is not None and not rt.closed:
                return rt
            meta = await self.store.load_meta(gid)
            if meta is None:
                raise self.unknown_game(f"no game {gid!r}")
            rt = GameRuntime(self, gid, meta)
            try:
                await rt.load()
            except BaseException:
                await rt.shutdown()
                raise
            if rt.closed:                  # (archived as it loaded: Hub.archived)
                raise ProtocolError("unknown_game", f"no game {gid!r} (archived)")
            self.runtimes[gid] = rt
            return rt

    async def archived(self, rt: GameRuntime) -> None:
        """``rcw archive`` deleted the game from the store (its ``gone`` notice): unload it here and
        close its connections, writing nothing more for it (their pages, saying hello again, are
        told there is no such game)."""
        if rt.gone:
            return
        rt.gone = True
        if self.runtimes.get(rt.gid) is rt:
            del self.runtimes[rt.gid]
        async with rt.lock:                # (a hello attaches under the lock: it sees the game closed, or is closed here)
            await rt.shutdown()
            conns = list(rt.conns)
        await asyncio.gather(*(c.close() for c in conns), return_exceptions=True)

    async def _lease_loop(self) -> None:
        down = Backoff("lease round")        # (Redis away: a line a minute and backing off, not a traceback a round)
        while not self._stopping:
            try:
                await self._lease_round()
            except asyncio.CancelledError:
                raise
            except STORE_DOWN as e:
                await down.wait(e)
                continue
            except Exception:
                log.exception("lease round failed")
            else:
                down.ok()
            await asyncio.sleep(self.config.lease_ttl / 3)

    async def _lease_round(self) -> None:
        # (this process is alive: the seats its connections hold count as present, rcw.server.runtime)
        now = now_ms()
        await self.store.hash_put(PROCS[0], PROCS[1], {self.proc: now})
        if now - self._procs_swept >= PROCS_SWEEP_MS:     # (processes gone long since: forgotten)
            self._procs_swept = now
            procs = await self.store.hash_all(*PROCS)
            gone = {p: None for p, seen in procs.items() if not isinstance(seen, int) or now - seen > PROCS_SWEEP_MS}
            if gone:
                await self.store.hash_put(PROCS[0], PROCS[1], gone)
        live = await self.store.game_ids(live_only=True)
        live_set = set(live)
        # Renew what we drive first (cheap), so that loading new games cannot starve renewals.
        for gid, rt in list(self.runtimes.items()):
            if not rt.driver.driving:
                continue
            if gid not in live_set or (rt.game is not None and rt.game.over):
                rt.driver.set_driving(False)
                await self.store.release(gid, self.proc)
            else:
                rt.driver.set_driving(await self.store.lease(gid, self.proc, self.config.lease_ttl))
        # Then take over games nobody drives (new, or their driver died).
        for gid in live:
            rt = self.runtimes.get(gid)
            if rt is not None and (rt.driver.driving or (rt.game is not None and rt.game.over)):
                continue
            if gid in self._damaged:          # (a damaged log is not loaded again every round, until it changes)
                if await self.store.log_len(gid) == self._damaged[gid]:
                    continue
                del self._damaged[gid]
            cap = self.config.max_bot_games
            if cap and self.admission.bot_games() >= cap and (rt is None or any(
                    r["kind"] == "bot" for r in rt.seats.values())):
                continue      # (at the cap of bot games: leave it to a process with room)
            if not await self.store.lease(gid, self.proc, self.config.lease_ttl):
                continue
            if rt is None:
                try:
                    rt = await self.get(gid)
                except ProtocolError as e:
                    await self.store.release(gid, self.proc)
                    if e.code == "damaged_game":
                        self._damaged[gid] = await self.store.log_len(gid)
                    continue
            # (QA as an operator: a fail-over after kill -9 left no trace in the log)
            log.info("game %s: driven by this process now (no other held its lease)", gid)
            rt.driver.set_driving(True)
        if self.notifier.outbox is not None:      # (the e-mails of a process that died: sent from here)
            try:
                await self.notifier.outbox.sweep()
            except STORE_DOWN:
                raise
            except Exception:       # (the rest of the round goes on: presence, unloading)
                log.exception("the e-mail outbox's sweep failed")
        if now - self._presence_checked >= PRESENCE_CHECK_MS:
            # (a process killed with connections open sends no notice that they went: who is online
            # is read again now and then, its seats no longer counted once its lease rounds stop;
            # QA saw a player shown "online now" for ten minutes after his server was killed)
            self._presence_checked = now
            for rt in list(self.runtimes.values()):
                if rt.conns and self.store.shared:
                    self.spawn(rt.presence_changed())
        now = time.monotonic()
        for gid, rt in list(self.runtimes.items()):
            if not rt.conns and not rt.driver.driving and now - rt.last_used > self.config.idle_unload:
                self.runtimes.pop(gid, None)
                await rt.shutdown()

    async def claim(self, rt: GameRuntime) -> None:
        """Try to become the game's driver right now (after creating it or filling seats)."""
        if rt.game is not None and not rt.game.over:
            rt.driver.set_driving(await self.store.lease(rt.gid, self.proc, self.config.lease_ttl))

    # -- lobby --------------------------------------------------------------------------------
    async def create_game(self, spec: Any, addr: str | None = None) -> dict:
        from rcw.bots import AGENTS

        if not isinstance(spec, dict):
            raise ProtocolError("bad_request", "the body must be a JSON object")
        known = {"players", "seed", "options", "bots", "on_leave", "deadline", "name", "bot_seats", "mode",
                 "missing", "pause", "disorder_after", "webhook"}
        extra = set(spec) - known
        if extra:
            raise ProtocolError("bad_request", f"unknown fields {sorted(extra)} (known: {', '.join(sorted(known))})")
        # Every problem of the body is named at once, "; " between them (the lobby shows one a
        # line): QA saw only the first named, and fixing it met the next.
        problems: list[str] = []
        codes: dict[int, tuple[str, str | None]] = {}     # (a problem's own code and rule, when not bad_request's)

        def check(fn):
            try:
                return fn()
            except ProtocolError as e:
                problems.append(e.message)
                codes[len(problems) - 1] = (e.code, e.rule)
            except IllegalAction as e:
                problems.append(e.message)
                codes[len(problems) - 1] = ("bad_request", e.rule)
            return None
        seed = spec.get("seed")
        drawn = seed is None                 # (a seed the server draws is known to no one until the end)
        if drawn:
            seed = secrets.randbits(62)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= SEED_MAX:
            problems.append(f"seed must be a whole number from 0 to {SEED_MAX} (none: a random deal)")
            seed = None
        # The engine judges the number of players and the options (names, types, ranges: rcw.options).
        count = spec.get("players")
        if count is not None and (isinstance(count, bool) or not isinstance(count, int)):
            problems.append("players must be a whole number (the seats of the game)")
            count = False
        mode = spec.get("mode")             # a game mode of rcw.modes (none: the multi-player game)
        options = check(lambda: O.validate({} if spec.get("options") is None else spec.get("options")))
        cls = check(lambda: modes.find(mode))
        first = None
        if count is not False and options is not None and cls is not None:
            def deal():
                n = count if count is not None or (mode is not None and cls.MODE != modes.STANDARD) else 5
                opts = {**options, "mode": cls.MODE} if mode is not None and cls.MODE != modes.STANDARD else options
                return modes.new_game(n, 0 if seed is None else seed, opts)
            first = check(deal)
        bot_kind = spec.get("bots")
        standard = True
        if first is not None:
            options = first.options                 # (as the engine plays them: those its mode fixes too)
            standard = "mode" not in options
        if bot_kind is None:
            bot_kind = default_bot_kind() if standard else "random"
        if not isinstance(bot_kind, str) or bot_kind not in AGENTS:
            problems.append(f"bots must be one of {', '.join(sorted(AGENTS))}")
        elif first is not None and not standard and bot_kind != "random" and not (options["mode"] == "postal"):
            problems.append(f"bots must be 'random' in the {options['mode']} mode")
        on_leave = spec.get("on_leave", "bot")
        if on_leave not in ("bot", "quit"):
            problems.append("on_leave must be 'bot' (a bot takes the seat) or 'quit' (004 [14.2])")
        postal = first is not None and options.get("mode") == "postal"
        # A live game's deadline is for each decision; a postal game's for each phase (minutes to days).
        deadline = check(lambda: duration(spec.get("deadline"), "deadline", 30 * 86400 if postal else 7 * 86400))
        missing = spec.get("missing", "bot")
        if "missing" in spec and first is not None and not postal:
            problems.append("missing is for postal games (the sheets of the seats that sent none)")
        elif missing not in ("bot", "none"):
            problems.append("missing must be 'bot' (a seat without a sheet at the deadline gets its "
                            "bot's sheet) or 'none' (no orders)")
        pause = check(lambda: duration(spec.get("pause"), "pause", 90 * 86400)) or 0
        disorder_after = spec.get("disorder_after")
        if disorder_after is not None and (isinstance(disorder_after, bool) or not isinstance(disorder_after, int)
                                           or not 1 <= disorder_after <= 100):
            problems.append("disorder_after must be a number of missed deadlines (1-100) or null")
        webhook = spec.get("webhook")
        if webhook is not None:
            webhook = check(lambda: check_webhook_url(webhook))
        name = spec.get("name")
        if name is None:
            name = ""
        if not isinstance(name, str) or len(name) > 80:
            problems.append("name must be a string of at most 80 characters")
        bot_seats = spec.get("bot_seats")
        if bot_seats is None:
            bot_seats = []
        if first is not None:
            seats = list(first.seats)
            players = len(seats)
            free = [s for s in seats if s not in first.ENGINE_SEATS]
            if not isinstance(bot_seats, list) or not all(isinstance(s, str) and s in free for s in bot_seats):
                problems.append(f"bot_seats must be a list of seats among {''.join(free)}")
            elif len(set(bot_seats)) != len(bot_seats):
                problems.append("bot_seats names a seat twice")
        if problems:
            code, rule = codes.get(0, ("bad_request", None)) if len(problems) == 1 else ("bad_request", None)
            raise ProtocolError(code, "; ".join(problems), rule=rule)
        if webhook is not None:
            await check_webhook_target(webhook, self.config.allow_private_webhooks)
        self.admission.check_games(bool(bot_seats))      # (a refused request costs nothing)
        await self.admission.take("create", addr)
        gid = secrets.token_urlsafe(9).replace("-", "x").replace("_", "y")
        admin = _token()
        nonce = secrets.token_hex(16)        # the seed stays secret until the end; its commitment is public (rcw.verify)
        meta = {"id": gid, "name": name, "players": players, "seed": seed, "options": options, "bots": bot_kind,
                "on_leave": on_leave, "deadline": deadline, "created": now_ms(), "admin": token_hash(admin),
                "missing": missing, "pause": pause, "disorder_after": disorder_after, "webhook": webhook,
                "secret": secrets.token_hex(16), "nonce": nonce, "commitment": verify.commitment(seed, nonce),
                "rules": RULES_EDITION, "seed_given": not drawn}
        seat_recs = {s: ({"kind": "engine"} if s in first.ENGINE_SEATS else {"kind": "bot", "bot": bot_kind} if s in bot_seats
                         else dict(OPEN)) for s in seats}
        await self.store.create_game(gid, meta, seat_recs, chat.initial_channels(seats))
        rt = await self.get(gid)
        await self.claim(rt)
        log.info("game %s created: %s, %d seats, bots (%s) in %s, deadline %s", gid, options.get("mode") or "multi-player",
                 players, bot_kind, "".join(bot_seats) or "no seat", f"{deadline} s" if deadline else "none")
        return {"game": gid, "admin_token": admin, "info": rt.info()}

    async def list_games(self, status: str = "open") -> list[dict]:
        """The lobby's list: ``open`` games (a seat to take), ``live`` ones (not over), ``all``, or
        the ``finished`` ones: the most recent :data:`FINISHED_LISTED`, newest first, each with its
        outcome (the engine's ``result``, the turns played)."""
        if status not in ("open", "live", "all", "finished"):
            raise ProtocolError("bad_request", "status must be open, live, all or finished")
        ids = await self.store.game_ids(live_only=status in ("open", "live"))
        live = set(await self.store.game_ids(live_only=True)) if status in ("all", "finished") else set(ids)
        if status == "finished":
            ids = [g for g in reversed(ids) if g not in live]
        out = []
        for gid in ids:
            if status == "finished" and len(out) >= FINISHED_LISTED:
                break
            meta = await self.store.load_meta(gid)
            if meta is None:
                continue
            seats = await self.store.load_seats(gid)
            st = seats_status(seats) if gid in live else "over"
            if status == "open" and st != "open":
                continue
            row = {"game": gid, "name": meta.get("name", ""), "players": meta["players"], "status": st,
                   "seats": public_seats(seats), "open": [s for s, r in sorted(seats.items()) if r["kind"] == "open"],
                   "options": meta["options"], "option_words": O.words(meta["options"]),
                   "bots": meta["bots"], "on_leave": meta["on_leave"],
                   "deadline": meta.get("deadline"), "created": meta["created"],
                   "mode": meta["options"].get("mode", "standard")}
            if status == "finished":
                row.update(await self._outcome(gid))
            out.append(row)
        if status == "finished":
            out.sort(key=lambda r: r.get("ended") or r["created"], reverse=True)
        return out

    async def _outcome(self, gid: str) -> dict:
        """A finished game's ``result``, ``turn`` and ``ended`` (ms), from its record ``over``; a
        game finished before the server kept that record is loaded once (which keeps it)."""
        rec = await self.store.hash_all(gid, OVER)
        if "result" not in rec:
            try:
                rt = await self.get(gid)
            except ProtocolError:
                return {"result": None, "turn": None, "ended": None}
            g = rt.game
            rec = {"result": g.result if g else None, "turn": g.turns_played if g else None, "ended": None}
        return {"result": rec.get("result"), "turn": rec.get("turn"), "ended": rec.get("ended")}

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
            token = _token()
            rec = {"kind": "human", "name": name or f"Player {want}", "token": token_hash(token), "joined": now_ms()}
            if await self.store.cas_seat(rt.gid, want, OPEN, rec):
                await rt.seats_changed()
                log.info("game %s: seat %s joined%s", rt.gid, want,
                         "" if seats_status(rt.seats) == "open" else "; every seat is taken")
                return {"game": rt.gid, "seat": want, "token": token, "info": rt.info()}
        raise ProtocolError("busy", "the seats changed too often; retry")

    def _check_admin(self, rt: GameRuntime, admin_token: Any) -> None:
        if not isinstance(admin_token, str) or not hmac.compare_digest(token_hash(admin_token), rt.meta["admin"]):
            raise ProtocolError("forbidden", "the admin token of this game is needed")

    async def fill_bots(self, gid: Any, admin_token: Any, kind: Any = None, seats: Any = None,
                        addr: str | None = None) -> dict:
        from rcw.bots import AGENTS

        rt = await self.get(gid)
        self._check_admin(rt, admin_token)
        if not rt.has_bot_work():
            self.admission.check_bot_games()
        await self.admission.take("create", addr, admin_token)
        kind = rt.meta["bots"] if kind is None else kind
        if not isinstance(kind, str) or kind not in AGENTS:
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
        if filled:
            log.info("game %s: bots (%s) in %s", rt.gid, kind, "".join(filled))
        return {"game": rt.gid, "filled": filled, "info": rt.info()}

    async def leave(self, gid: Any, token: Any) -> dict:
        """A player leaves: before the start the seat reopens; after it a bot takes the seat, or
        (if the creator chose ``on_leave: quit``) the seat quits the game under 004 [14.2]."""
        rt = await self.get(gid)
        seat = await self._seat_of(rt, token)
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
        log.info("game %s: seat %s left (%s)", rt.gid, seat, "the game is over" if rt.game is not None and rt.game.over else
                 {"reopened": "the seat is open again", "quit": "it quits the game", "bot": "a bot plays it"}[how])
        return {"game": rt.gid, "seat": seat, "now": how}

    async def reclaim(self, gid: Any, token: Any) -> dict:
        """The player takes back a seat in civil disorder (rcw.server.absence) with its token."""
        rt = await self.get(gid)
        return {**await rt.absence.reclaim(await self._seat_of(rt, token)), "game": rt.gid}

    @staticmethod
    async def _seat_of(rt: GameRuntime, token: Any) -> str:
        """The seat whose token ``token`` is (a request without one is told what it lacks)."""
        if token is None or token == "":
            raise ProtocolError("bad_request", "token missing: the seat's token goes in 'token' "
                                "(or an 'Authorization: Bearer' header)")
        seat = await rt.seat_for_token(token)
        if seat is None:
            raise ProtocolError("bad_token", "not a seat token of this game")
        return seat

    async def login(self, code: Any, addr: str | None = None) -> dict:
        """An e-mail's one-time login code (rcw.server.notify) for a new device token of its seat."""
        if not isinstance(code, str) or not code:
            raise ProtocolError("bad_request", "code missing: the login link's code (a string)")
        await self.admission.take("costly", addr)
        got = await self.store.take_code("login:" + code) if len(code) <= 64 else None
        if got is None:
            raise ProtocolError("bad_token", "this login link is not valid (used already, or expired)")
        rt = await self.get(got["game"])
        seat = got["seat"]
        for _ in range(8):
            await rt.reload_seats(notify=False)
            rec = rt.seats.get(seat, {})
            if rec.get("kind") != "human":
                raise ProtocolError("bad_token", f"seat {seat} is no longer a player's")
            token = _token()
            new = {**rec, "devices": [*rec.get("devices", ()), token_hash(token)][-4:]}
            if await self.store.cas_seat(rt.gid, seat, rec, new):
                await rt.seats_changed()
                return {"game": rt.gid, "seat": seat, "token": token}
        raise ProtocolError("busy", "the seat changed too often; retry")

    async def view_at(self, gid: Any, seq: Any, admin_token: Any = None, addr: str | None = None) -> dict:
        """A spectator's view after the first ``seq`` actions (for replays): when the game is
        over, or with the admin token.  Rebuilt from the nearest stored snapshot and the few
        actions after it, in the rebuild worker processes (never on the event loop)."""
        rt = await self.get(gid)
        over = rt.game is not None and rt.game.over
        if not over:
            self._check_admin(rt, admin_token)
        if isinstance(seq, bool) or not isinstance(seq, int) or not 0 <= seq <= rt.seq:
            raise ProtocolError("bad_request", f"seq must be 0..{rt.seq}")
        await self.admission.take("costly", addr, admin_token)
        key = (rt.gid, seq)
        if key in self._views:
            return self._views[key]
        snap = await self.store.snapshot_before(rt.gid, seq)
        base = snap[0] if snap else 0
        entries = await self.store.log_range(rt.gid, base, seq)
        out = await self.admission.offload(_view_at, rt.gid, rt.meta, snap, entries)
        out["game"] = rt.gid
        if over:
            if len(self._views) >= 512:
                self._views.pop(next(iter(self._views)))
            self._views[key] = out
        return out

    async def record(self, gid: Any, admin_token: Any = None, addr: str | None = None, seal: bool = True) -> dict:
        """The game's record (:func:`record_of`): when it is over, or with the admin token.  Before
        the end a seed the server drew stays sealed even then (``seed`` and ``nonce`` null,
        ``sealed`` true): it would tell every die roll to come, and the creator who holds the
        admin token often plays (a seed the creator gave is the creator's already).  ``seal``
        False: for the server's own check (:meth:`verify`), never sent."""
        rt = await self.get(gid)
        if rt.game is None or not rt.game.over:
            self._check_admin(rt, admin_token)
        await self.admission.take("costly", addr, admin_token)
        async with rt.lock:
            await rt.ensure_current()
            rec = record_of(rt.gid, rt.meta, rt.game, rt.hash)
            if seal and not rt.game.over and not rt.meta.get("seed_given"):
                rec.update(seed=None, nonce=None, sealed=True)
            return rec

    async def verify(self, gid: Any, admin_token: Any = None, addr: str | None = None) -> dict:
        """The record checked by :func:`rcw.verify.check` (commitment, then a replay to the final
        state), in a rebuild worker process: ``{"verified": true, "actions", "hash"}`` or
        ``{"verified": false, "problem"}``.  Like the record: when over, or with the admin token
        (the seed a sealed record hides is checked here, on the server, and not shown)."""
        rec = await self.record(gid, admin_token, addr, seal=False)
        return await self.admission.offload(_verify, rec)


def _verify(record: dict) -> dict:
    """(In a rebuild worker process.)  :func:`rcw.verify.check` of a record, as a JSON answer."""
    try:
        v = verify.check(record)
    except verify.VerifyError as e:
        return {"game": record.get("game"), "verified": False, "problem": str(e)}
    return {"game": record.get("game"), "verified": True, "actions": v.actions, "hash": v.hash, "over": v.over}


def _view_at(gid: str, meta: dict, snap: tuple[int, bytes] | None, entries: list[dict]) -> dict:
    """(In a rebuild worker process.)  The spectator's view of the game ``snap`` (or its start) plus ``entries``."""
    g, _ = rebuild(meta, snap, entries, gid)
    view = g.view(None)
    return {"seq": (snap[0] if snap else 0) + len(entries), "hash": g.state_hash(), "view": view,
            "strengths": facts.strengths(g, view)}
