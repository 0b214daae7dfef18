"""Notifications (issue 16): e-mail through SMTP, a per-game webhook, and the links back to a seat.

**E-mail** (``rcw serve --smtp URL``; the standard library's :mod:`smtplib`, run in a thread
so the event loop never waits on a mail server).  Every e-mail goes through an outbox in the
store (:class:`Outbox`) before it is sent: one the mail server fails is tried again after each
of ``--mail-retry``'s delays, and one whose process died before it was sent (``kill -9``) is
sent by the next process on the same store that sweeps the outbox (at least once: a process
killed between the mail server's acceptance and the outbox's deletion sends it again).

A seat gives an address with the ``notify`` frame; the server sends a link to it and counts the address only once the link was opened
(``GET /api/email/verify?code=...``).  The seat chooses what it wants (``want``):

========== ==================================================================================
``report`` a postal phase was adjudicated: the report's text
``due``    orders (a postal sheet, a live decision) due in ``due_hours`` hours and not sent yet
``decision`` a live game waits on the seat while it is away (no connection open)
``message`` a private message (a channel other than ``public``) while the seat is away
``absence`` a pause, civil disorder, a player back
========== ==================================================================================

**Webhook**: the game's creator may give ``webhook`` (an ``http``/``https`` URL, e.g. a chat
room's incoming webhook); every phase report, pause, civil disorder and return, and the end of
the game is POSTed to it as JSON ``{game, name, event, seat, text, link, turn, phase, ts}``.  A
target that is, or resolves to, a loopback, private, link-local, multicast or reserved address
is refused (when the game is created, before each post, and as the post connects: a name is
asked again then, see :func:`public_resolver`) unless the operator allows it
(``rcw serve --allow-private-webhooks``): the server cannot be turned against its own network.

**Links** (docs/protocol.md "Notifications"): no message carries a seat token.  The webhook's
link is the game's page (``/#/g/<id>``): whoever opens it sees the game as a spectator, or
plays if their browser already holds the seat's token (the page keeps it).  An e-mail goes
only to the seat's own verified address, so its link may carry a one-time login code
(``/#/login/<code>``, valid 7 days, good for one use; in the fragment, which browsers never
send to a server, so no proxy or server log keeps it): the page exchanges it
(``POST /api/login``) for a new device token of that seat, which is stored as a hash like
every token; the seat's other tokens keep working.  A forwarded or leaked link that was used
already is worthless, and the token never travels in a URL (a URL ends up in logs, histories
and Referer headers).

Only the process that drives a game (its lease holder) sends the game's notifications, so each
is sent once; a private message is sent by the process that posted it.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import re
import secrets
import smtplib
import socket
import ssl
from email.message import EmailMessage
from email.utils import formatdate, make_msgid, parseaddr
from typing import Any
from urllib.parse import unquote, urlencode, urlsplit

from rcw.server.protocol import ProtocolError, now_ms, pack
from rcw.server.store import GLOBAL

from rcw.postal.base import PHASE_NAMES

log = logging.getLogger("rcw.server")

WANTS = ("report", "due", "decision", "message", "absence")
EMAIL = re.compile(r"^[^@\s<>\"',;]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)+$")
CODE_TTL = 7 * 86400          # seconds an e-mail's link works
DUE_HOURS = 12                # the default reminder: orders due in 12 hours
MAX_DEVICES = 4               # device tokens a seat keeps from login links (the oldest goes)
WEBHOOK_TIMEOUT = 10.0


def check_email(value: Any) -> str:
    if not isinstance(value, str) or len(value) > 254 or not EMAIL.match(value):
        raise ProtocolError("bad_email", "'email' must be an e-mail address (name@domain.example)")
    return value


def check_webhook_url(value: Any) -> str:
    """A webhook URL's form: http(s), a host, no credentials (the address is checked separately)."""
    if not isinstance(value, str) or len(value) > 2000:
        raise ProtocolError("bad_webhook", "'webhook' must be an http or https URL")
    u = urlsplit(value)
    if u.scheme not in ("http", "https") or not u.hostname:
        raise ProtocolError("bad_webhook", "'webhook' must be an http or https URL")
    if u.username or u.password:
        raise ProtocolError("bad_webhook", "a webhook URL may not carry a user name or password")
    return value


def _blocked(ip: str) -> bool:
    a = ipaddress.ip_address(ip.split("%", 1)[0])
    if isinstance(a, ipaddress.IPv6Address) and a.ipv4_mapped is not None:
        a = a.ipv4_mapped
    return not a.is_global or a.is_multicast


async def check_webhook_target(url: str, allow_private: bool) -> None:
    """Refuse a webhook whose host is, or resolves to, a non-public address (unless allowed)."""
    if allow_private:
        return
    host = urlsplit(url).hostname or ""
    port = urlsplit(url).port or (443 if url.startswith("https") else 80)
    try:
        infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError:
        raise ProtocolError("bad_webhook", f"the webhook's host {host!r} does not resolve") from None
    if not infos or any(_blocked(i[4][0]) for i in infos):
        raise ProtocolError("bad_webhook", f"the webhook's host {host!r} is a loopback or private address; "
                            "the server's operator does not allow those (--allow-private-webhooks)")


def public_resolver() -> Any:
    """An aiohttp resolver that refuses a host name resolving to a non-public address, asked
    again at every connection: a name that was public when the game was created (or at the
    check before a post) and is made to point into the server's own network afterwards (DNS
    rebinding) is refused when the post connects.  (An address written in the URL is not
    resolved: :func:`check_webhook_target` has judged it, and it cannot change.)"""
    from aiohttp.abc import AbstractResolver
    from aiohttp.resolver import ThreadedResolver

    class PublicResolver(AbstractResolver):
        def __init__(self) -> None:
            self.inner = ThreadedResolver()

        async def resolve(self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET) -> list:
            found = await self.inner.resolve(host, port, family)
            if not found or any(_blocked(r["host"]) for r in found):
                raise OSError(f"the webhook's host {host!r} resolves to a loopback or private address now")
            return found

        async def close(self) -> None:
            await self.inner.close()

    return PublicResolver()


class Mailer:
    """SMTP through the standard library, in a thread: ``smtp://[user:password@]host[:port]``
    (``smtps://`` for TLS from the start, ``smtp+starttls://`` to upgrade)."""

    def __init__(self, url: str, sender: str) -> None:
        u = urlsplit(url)
        if u.scheme not in ("smtp", "smtps", "smtp+starttls") or not u.hostname:
            raise ValueError(f"--smtp must be smtp://, smtps:// or smtp+starttls:// with a host, not {url!r}")
        self.scheme, self.host = u.scheme, u.hostname
        self.port = u.port or (465 if u.scheme == "smtps" else 25)
        self.user = unquote(u.username) if u.username else None
        self.password = unquote(u.password) if u.password else None
        self.sender = sender

    def _send(self, to: str, subject: str, body: str) -> None:
        m = EmailMessage()
        m["From"], m["To"], m["Subject"] = self.sender, to, " ".join(subject.split())[:200]   # (one line: names are players')
        # (RFC 5322 asks both; a mail server that relays may not add them, QA: none had them)
        m["Date"] = formatdate(usegmt=True)
        m["Message-ID"] = make_msgid(domain=parseaddr(self.sender)[1].rpartition("@")[2] or "localhost")   # ("RCW <rcw@host>" too)
        m.set_content(body)
        cls = smtplib.SMTP_SSL if self.scheme == "smtps" else smtplib.SMTP
        with cls(self.host, self.port, timeout=30) as s:
            if self.scheme == "smtp+starttls":
                s.starttls(context=ssl.create_default_context())
            if self.user:
                s.login(self.user, self.password or "")
            s.send_message(m)

    async def send(self, to: str, subject: str, body: str) -> None:
        await asyncio.to_thread(self._send, to, subject, body)


class Notifier:
    """The server's notifications (see the module); one per :class:`~rcw.server.lobby.Hub`."""

    def __init__(self, hub: Any) -> None:
        self.hub = hub
        cfg = hub.config
        self.mailer = Mailer(cfg.smtp, cfg.mail_from) if cfg.smtp else None
        self.base = (cfg.public_url or "").rstrip("/")
        self.session: Any = None
        self._due: dict[str, list[asyncio.TimerHandle]] = {}   # game -> its reminders' timers
        self.outbox = Outbox(hub, self.mailer) if self.mailer else None

    async def close(self) -> None:
        for hs in self._due.values():
            for h in hs:
                h.cancel()
        if self.outbox is not None:
            self.outbox.close()
        if self.session is not None:
            await self.session.close()

    # -- links -----------------------------------------------------------------------------------
    def game_link(self, gid: str) -> str:
        return f"{self.base}/#/g/{gid}"

    async def seat_link(self, gid: str, seat: str) -> str:
        """A one-time login link for ``seat`` (e-mail only; see the module)."""
        code = secrets.token_urlsafe(18)
        await self.hub.store.put_code("login:" + code, {"game": gid, "seat": seat}, CODE_TTL)
        return f"{self.base}/#/login/{code}"

    # -- settings ----------------------------------------------------------------------------------
    async def set_prefs(self, rt: Any, seat: str, f: dict) -> dict:
        """The ``notify`` frame: ``email`` (an address, or null to stop e-mail), ``want`` (a
        list of WANTS), ``due_hours`` (a number of hours before a deadline)."""
        cur = dict(rt.prefs.get(seat) or {})
        new = dict(cur)
        if "email" in f:
            if f["email"] is None:
                new.pop("email", None)
                new.pop("verified", None)
            else:
                email = check_email(f["email"])
                if self.mailer is None:
                    raise ProtocolError("no_email", "this server sends no e-mail (rcw serve --smtp)")
                if email != cur.get("email"):
                    new["email"], new["verified"] = email, False
        if "want" in f:
            want = f["want"]
            if not isinstance(want, list) or not all(isinstance(w, str) and w in WANTS for w in want):
                raise ProtocolError("bad_request", f"'want' must be a list of {', '.join(WANTS)}")
            new["want"] = sorted(set(want))
        if "due_hours" in f:
            h = f["due_hours"]
            if isinstance(h, bool) or not isinstance(h, (int, float)) or not 0 <= h <= 24 * 30:
                raise ProtocolError("bad_request", "'due_hours' must be a number of hours from 0 to 720")
            new["due_hours"] = h
        new.setdefault("want", list(WANTS))
        new.setdefault("due_hours", DUE_HOURS)
        await self.hub.store.hash_put(rt.gid, "notify", {seat: new})
        await rt.store.publish(rt.topic, pack({"k": "notify"}))
        rt.prefs[seat] = new
        if new.get("email") and not new.get("verified") and new.get("email") != cur.get("email"):
            code = secrets.token_urlsafe(18)
            await self.hub.store.put_code("verify:" + code, {"game": rt.gid, "seat": seat, "email": new["email"]},
                                          CODE_TTL)
            link = f"{self.base}/api/email/verify?{urlencode({'code': code})}"
            # (spawned: a mail server that is down is tried again later, not while the seat waits)
            self.hub.spawn(self._mail(
                new["email"], f"Russian Civil War: confirm your address for seat {seat}",
                f"Someone (you, we hope) asked for news of seat {seat} of the game "
                f"{rt.meta.get('name') or rt.gid} at this address.\n\nOpen this link to confirm it:\n"
                f"{link}\n\nIf it was not you, ignore this message: nothing will be sent.\n",
                about=f"game {rt.gid}, seat {seat}: confirm the address"))
        return {"t": "ok", "notify": public_prefs(new)}

    async def verify(self, code: Any) -> dict:
        """An e-mail's confirmation link was opened."""
        got = await self.hub.store.take_code("verify:" + code) if isinstance(code, str) and code else None
        if got is None:
            raise ProtocolError("bad_request", "this link is not valid (used already, or expired)")
        rt = await self.hub.get(got["game"])
        prefs = (await self.hub.store.hash_all(rt.gid, "notify")).get(got["seat"]) or {}
        if prefs.get("email") != got["email"]:
            raise ProtocolError("bad_request", "this address is no longer the seat's")
        prefs["verified"] = True
        await self.hub.store.hash_put(rt.gid, "notify", {got["seat"]: prefs})
        await rt.store.publish(rt.topic, pack({"k": "notify"}))
        rt.prefs[got["seat"]] = prefs
        return {"game": rt.gid, "seat": got["seat"], "email": got["email"], "verified": True}

    # -- sending -----------------------------------------------------------------------------------
    async def _mail(self, to: str, subject: str, body: str, about: str = "") -> None:
        """Send an e-mail through the outbox (:class:`Outbox`: kept in the store until the mail
        server took it, tried again after each of ``--mail-retry``'s delays).  ``about``: what the
        log names it by ("game G, seat B: report of...")."""
        if self.outbox is not None:
            await self.outbox.send(to, subject, body, about)

    async def _post(self, rt: Any, body: dict) -> None:
        url = rt.meta.get("webhook")
        try:
            await check_webhook_target(url, self.hub.config.allow_private_webhooks)
            import aiohttp

            if self.session is None:
                connector = None if self.hub.config.allow_private_webhooks else aiohttp.TCPConnector(resolver=public_resolver())
                self.session = aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=WEBHOOK_TIMEOUT))
            async with self.session.post(url, json=body, allow_redirects=False) as r:
                if r.status >= 300:
                    raise OSError(f"it answered HTTP {r.status}")
            self.hub.metrics.notifications.labels("webhook", "sent").inc()
        except Exception as e:
            log.warning("game %s: the webhook post failed: %s", rt.gid, e)
            self.hub.metrics.notifications.labels("webhook", "failed").inc()

    def _mine(self, rt: Any) -> bool:
        """Whether this process sends the game's notifications (it drives the game)."""
        return rt.driver.driving

    def game_event(self, rt: Any, event: str, seat: str | None = None, text: str = "", want: str = "absence",
                   to: list[str] | None = None, subject: str = "", own: str | None = None) -> None:
        """Something every seat hears of: the webhook, and the e-mail of the seats that want it
        (``to``: only these seats).  ``own``: what the seat the event is about reads instead, in the
        second person (its player is told of himself as "you", not as "Seat B"); "" sends it none."""
        if not self._mine(rt):
            return
        g = rt.game
        if rt.meta.get("webhook"):
            self.hub.spawn(self._post(rt, {"game": rt.gid, "name": rt.meta.get("name", ""), "event": event,
                                           "seat": seat, "text": text, "link": self.game_link(rt.gid),
                                           "turn": g.turns_played if g else None, "phase": g.phase if g else None,
                                           "ts": now_ms()}))
        for s in to if to is not None else list(rt.prefs):
            said = own if s == seat and own is not None else text
            if said:
                self.hub.spawn(self.email_seat(rt, s, want, subject or said.split("\n", 1)[0][:120], said))

    async def email_seat(self, rt: Any, seat: str, want: str, subject: str, text: str) -> bool:
        p = rt.prefs.get(seat) or {}
        if self.mailer is None or not p.get("email") or not p.get("verified") or want not in p.get("want", ()):
            return False
        if rt.seats.get(seat, {}).get("kind") != "human":
            return False
        link = await self.seat_link(rt.gid, seat)
        # (what happened while he was away: not for a player whose page is open on the game, QA)
        away = None if await rt.present(seat) else await rt.absence.digest(seat)
        more = "\n\nWhile you were away:\n" + "\n".join(f"- {x}" for x in away["lines"]) if away else ""
        await self._mail(p["email"], f"Russian Civil War {rt.meta.get('name') or rt.gid}: {subject}",
                         f"{text}{more}\n\nYour seat {seat}: {link}\n(The link logs you in once; "
                         "do not forward it.)\n", about=f"game {rt.gid}, seat {seat}: {subject}")
        return True

    # -- what the game tells -----------------------------------------------------------------------
    def applied(self, rt: Any, events: list, pending_before: set[str]) -> None:
        """(In the driving process, after every action.)  A phase report, the end of the game,
        and decisions newly pending for seats that are away."""
        if not self._mine(rt):
            return
        from rcw.server.postal import report_of

        rep = report_of(events)
        if rep is not None:
            from rcw.postal import render
            self.game_event(rt, "report", text=render(rep, rt.game.data) + self._next_sheet(rt), want="report",
                            subject=f"report of Game-Turn {rep['turn']}, {_phase(rep['phase'])}")
            self._note_reported(rt)
        if rt.game.over and any(e.get("kind") == "game_over" for e in events):
            self.game_event(rt, "over", text="The game is over", want="report")
        if rt.postal is None and any((rt.prefs.get(s) or {}).get("email") for s in rt.prefs):
            for p in rt.game.pending:
                if p["seat"] not in pending_before and p["seat"] in rt.prefs:
                    self.hub.spawn(self._if_away(rt, p["seat"], "decision", "the game waits on your decision",
                                                 f"Seat {p['seat']}: the game waits on you ({p.get('kind', 'a decision')})."))

    def _note_reported(self, rt: Any) -> None:
        """Note for each seat (the game's ``reported`` record, and ``rt.reported``) the phase
        ("phase:<turn>:<phase>") whose orders the report just e-mailed to it announced, with when
        they are due: that phase's reminder is not sent at once beside it (:meth:`deadlines`).  In
        the store, so that a restart or a fail-over between the report and the reminder does not
        send both; a record of its own, so that the seat's settings are never written from this
        process's copy (review: a change made meanwhile in another process would be undone)."""
        g = rt.game
        changed: dict[str, str | None] = {}
        for s, p in rt.prefs.items():
            key = None if g.over or not (p.get("verified") and "report" in p.get("want", ())) else f"phase:{g.turn}:{g.phase}"
            if rt.reported.get(s) != key:
                changed[s] = key
                if key is None:
                    rt.reported.pop(s, None)
                else:
                    rt.reported[s] = key
        if changed:
            self.hub.spawn(self._save_reported(rt, changed))

    async def _save_reported(self, rt: Any, changed: dict) -> None:
        with contextlib.suppress(ProtocolError):       # (a game archived meanwhile keeps nothing)
            await self.hub.store.hash_put(rt.gid, "reported", changed)

    @staticmethod
    def _next_sheet(rt: Any) -> str:
        """What a report's e-mail ends with: the phase whose orders are collected now, and when
        they are due (the phase's deadline runs from now; QA: the report said nothing of what next)."""
        g = rt.game
        if g is None or g.over:
            return ""
        what = f"orders for {_phase(g.phase)} of Game-Turn {g.turn}"
        secs = rt.meta.get("deadline")
        if not secs or rt.postal is None or not rt.postal.timed_phase():     # (no human seat timed: none runs)
            return f"\n\nNext: {what}; the phase closes when every sheet is in."
        # (the phase's deadline as the clock has it; armed from now, if not yet)
        at = rt.clock.at(f"phase:{g.turn}:{g.phase}") or now_ms() + int(float(secs) * 1000)
        return f"\n\nNext: {what}, due by {_utc(at)} (UTC), in {_left(at - now_ms())}."

    async def _if_away(self, rt: Any, seat: str, want: str, subject: str, text: str) -> None:
        if not await rt.present(seat):
            await self.email_seat(rt, seat, want, subject, text)

    def message(self, rt: Any, rec: dict, seat: str, msg: dict) -> None:
        """A chat message was posted (by this process): its private readers who are away hear of it."""
        if rec.get("kind") == "public" or self.mailer is None:
            return
        name = (rt.seats.get(seat) or {}).get("name")
        who = f"{name} ({seat})" if name else seat        # (QA: "from A", the player has a name)
        for s in rec.get("members", ()):
            if s != seat and (rt.prefs.get(s) or {}).get("verified"):
                self.hub.spawn(self._if_away(rt, s, "message", f"a private message from {who}",
                                             f"{who} wrote to you ({rec['name']}):\n\n{msg.get('text', '')}"))

    def deadlines(self, rt: Any) -> None:
        """(In the driving process, after the game's deadlines were armed.)  The ``due`` reminders:
        for each running deadline and each seat that wants one, ``due_hours`` before it."""
        self.forget(rt.gid)
        if self.mailer is None or not self._mine(rt):
            return
        loop, now, hs = asyncio.get_running_loop(), now_ms(), []
        for key, at in rt.clock.public().items():
            seats = [key[5:]] if key.startswith("seat:") else list(rt.prefs) if key.startswith("phase:") else []
            for s in seats:
                p = rt.prefs.get(s) or {}
                if "due" in p.get("want", ()) and p.get("verified"):
                    when = at - int(float(p.get("due_hours", DUE_HOURS)) * 3_600_000)
                    # (QA: a postal phase shorter than the reminder's lead had none: it is sent at
                    # once; a live decision's deadline, minutes, is reminded only at its time)
                    # (but not to a seat just sent the report that opened this phase, which ends with
                    # the orders due and when: QA got both at once, every phase)
                    now_ = when <= now - 1000
                    if now_ and rt.reported.get(s) == key:
                        continue
                    if not now_ or (key.startswith("phase:") and at > now):
                        hs.append(loop.call_later(max(0.0, (when - now) / 1000), self._due_fired, rt, key, s, at))
        self._due[rt.gid] = hs

    def forget(self, gid: str) -> None:
        """The game was unloaded here: its reminders' timers go."""
        for h in self._due.pop(gid, []):
            h.cancel()

    def _due_fired(self, rt: Any, key: str, seat: str, at: int) -> None:
        self.hub.spawn(self._remind(rt, key, seat, at))

    async def _remind(self, rt: Any, key: str, seat: str, at: int) -> None:
        g = rt.game
        if g is None or rt.closed or rt.clock.at(key) != at or seat not in {p["seat"] for p in g.pending}:
            return
        if rt.driver.bot_plays(seat):
            # (a seat in civil disorder while another player is there: its bot plays it at once, not
            # at the deadline; QA got "its bot writes the orders at the deadline" with its sheet in)
            return
        if await rt.store.hash_incr(rt.gid, "reminded", f"{key}:{at}:{seat}", 1) != 1:
            return      # (reminded already, before a restart or by another process)
        left = _left(at - now_ms())
        what = f"your orders for {_phase(g.phase)} of Game-Turn {g.turn}" if rt.postal is not None \
            else "your decision"
        text = (f"Seat {seat}: {what} {'are' if rt.postal is not None else 'is'} due in {left}; the deadline is at "
                f"{_utc(at)} (UTC).")
        if rt.seats.get(seat, {}).get("disorder"):      # (its bot decides at the deadline: say so, and how to return)
            does = f"writes the orders for {_phase(g.phase)} of Game-Turn {g.turn}" if rt.postal is not None \
                else "decides"
            text = (f"Your seat {seat} is in civil disorder: its bot {does} at the deadline, in {left} ({_utc(at)} UTC), "
                    "unless you act first, which takes the seat back.")
        await self.email_seat(rt, seat, "due", f"{what} due in {left}", text)


def _phase(phase: str) -> str:
    """A postal phase as the page names it ("the pre-season trades", "the First Phase")."""
    return PHASE_NAMES.get(phase, phase)


def _left(ms: int) -> str:
    """Time left in words: "less than a minute", "25 min", "11 h 40 min"."""
    minutes = max(0, ms) // 60000
    if minutes < 1:
        return "less than a minute"
    if minutes < 120:
        return f"{minutes} min"
    return f"{minutes // 60} h" + (f" {minutes % 60} min" if minutes % 60 else "")


def public_prefs(p: dict) -> dict:
    """A seat's notification settings as the seat sees them."""
    return {"email": p.get("email"), "verified": bool(p.get("verified")), "want": p.get("want", list(WANTS)),
            "due_hours": p.get("due_hours", DUE_HOURS)}


def _utc(ms: int) -> str:
    import datetime as dt

    return dt.datetime.fromtimestamp(ms / 1000, dt.UTC).strftime("%Y-%m-%d %H:%M:%S")


OUTBOX = (GLOBAL, "outbox")       # the store's record of the e-mails not sent yet: id -> letter
OUTBOX_SWEEP_S = 10.0             # how often a process looks for letters no process is sending
OUTBOX_LEASE_S = 90.0             # a letter's sender holds it this long (SMTP's timeout is 30 s)


class Outbox:
    """The e-mails not sent yet, kept in the store (``OUTBOX``: one record of every game's), so
    that neither a mail server that is down nor a process that dies loses one (QA: the reports
    e-mailed while the mail server was down for a minute never came; one queued in a process
    killed with ``kill -9`` was lost).

    A letter is ``{to, subject, body, about, tries, next}``: ``next`` the time (ms) of its next
    try, ``tries`` how many failed.  Whoever sends it holds the store's lease ``mail:<id>``
    (taken before each try and released after it), and reads the letter again under it: two
    processes never try it at once, and one already sent (deleted) is not sent again.  The
    process that wrote it tries it at once and again after each delay; every process sweeps the
    outbox every ``OUTBOX_SWEEP_S`` seconds (from its lease loop) for letters past their time
    that no process is trying, the letters of a process that died."""

    def __init__(self, hub: Any, mailer: Mailer) -> None:
        self.hub = hub
        self.mailer = mailer
        self._mine: set[str] = set()         # letters this process has a try of under way or timed
        self._timers: dict[str, asyncio.TimerHandle] = {}    # letter -> its next try here
        self._swept = 0.0

    def close(self) -> None:
        """(The process stops.)  Its timed tries go: the letters stay in the store, for the next
        process that sweeps it."""
        for h in self._timers.values():
            h.cancel()
        self._timers.clear()

    async def send(self, to: str, subject: str, body: str, about: str = "") -> None:
        mid = secrets.token_hex(8)
        letter = {"to": to, "subject": subject, "body": body, "about": about or subject, "tries": 0, "next": now_ms()}
        await self.hub.store.hash_put(*OUTBOX, {mid: letter})
        await self._try(mid)

    async def sweep(self) -> None:
        """(From the lease loop.)  Try the letters past their time that no process is trying (a
        dead process's)."""
        loop = asyncio.get_running_loop()
        if loop.time() - self._swept < OUTBOX_SWEEP_S:
            return
        self._swept = loop.time()
        now = now_ms()
        for mid, letter in (await self.hub.store.hash_all(*OUTBOX)).items():
            if mid not in self._mine and isinstance(letter, dict) and letter.get("next", 0) <= now:
                self.hub.spawn(self._try(mid))

    async def _try(self, mid: str, timed: bool = False) -> None:
        """One try of the letter ``mid``, under its lease; on a failure for now, the next one
        timed after the next of ``--mail-retry``'s delays.  A letter is this process's (in
        ``_mine``) from the moment a try starts until it is sent, given up or left to another
        process, so that a sweep never starts a second try of it here (``timed``: the try its
        timer started, the letter still ``_mine``)."""
        if not timed:
            if mid in self._mine:
                return      # (being tried here, or timed)
            self._mine.add(mid)
        store, lease = self.hub.store, "mail:" + mid
        retry = leased = None
        try:
            leased = await store.lease(lease, self.hub.proc, OUTBOX_LEASE_S)
            if not leased:
                return      # (being tried by another process)
            letter = (await store.hash_all(*OUTBOX)).get(mid)
            if not isinstance(letter, dict) or letter.get("next", 0) > now_ms() + 1000:
                return      # (sent already, or given up; or another process timed its next try)
            retry = await self._attempt(mid, letter)
        finally:
            if leased:
                await store.release(lease, self.hub.proc)
            if retry is None:
                self._mine.discard(mid)
            else:
                self._timers[mid] = asyncio.get_running_loop().call_later(retry, self._timed, mid)

    def _timed(self, mid: str) -> None:
        self._timers.pop(mid, None)
        self.hub.spawn(self._try(mid, timed=True))

    async def _attempt(self, mid: str, letter: dict) -> float | None:
        """Send ``letter``; the seconds before its next try, or None (sent, or given up)."""
        store, metrics = self.hub.store, self.hub.metrics
        try:
            await self.mailer.send(letter["to"], letter["subject"], letter["body"])
        except Exception as e:   # a mail server's failure is logged, never the game's
            delays = list(self.hub.config.mail_retry)
            tries = int(letter.get("tries", 0))
            # (a refusal for good - 5xx: an unknown address, a login refused - is not tried again)
            final = isinstance(e, smtplib.SMTPResponseException) and e.smtp_code >= 500 \
                or isinstance(e, smtplib.SMTPRecipientsRefused) and all(
                    c >= 500 for c, _ in e.recipients.values())
            if tries >= len(delays) or final:
                await store.hash_put(*OUTBOX, {mid: None})
                metrics.notifications.labels("email", "failed").inc()
                log.warning("e-mail (%s) failed, given up: %s", letter.get("about"), e)
                return None
            wait = delays[tries]
            if (await store.hash_all(*OUTBOX)).get(mid) != letter:
                return None     # (a try that outlived its lease: another process has it now, review)
            await store.hash_put(*OUTBOX, {mid: {**letter, "tries": tries + 1, "next": now_ms() + int(wait * 1000)}})
            log.warning("e-mail (%s) failed: %s; trying again in %s s", letter.get("about"), e, f"{wait:g}")
            return wait
        await store.hash_put(*OUTBOX, {mid: None})
        metrics.notifications.labels("email", "sent").inc()
        return None
