"""Notifications (issue 16): e-mail through a real SMTP server on loopback (aiosmtpd), a
game's webhook posted to a local HTTP endpoint, the links back to the seat (a one-time login
code by e-mail, never the token; the game's page alone in the webhook), and the typed refusals
of a bad address or webhook, which change nothing."""

from __future__ import annotations

import asyncio
import contextlib
import email
import email.utils
import re
import threading
from urllib.parse import urlsplit

import aiohttp
import pytest
from aiohttp import web
from rcw.server.client import GameClient, Lobby, ServerError
from rcw.server.config import Config
from rcw.server.store import MemoryStore, RedisStore
from server_helpers import (
    REDIS_URL,
    ServerProcess,
    destroy_prefix,
    free_port,
    needs_redis,
    running_server,
    unique_prefix,
)

aiosmtpd = pytest.importorskip("aiosmtpd.controller")


class Inbox:
    """An SMTP server on 127.0.0.1 (aiosmtpd, in its own thread) keeping what it receives."""

    def __init__(self) -> None:
        self.mails: list[email.message.Message] = []
        self.lock = threading.Lock()
        self.port = free_port()
        self.controller = aiosmtpd.Controller(self, hostname="127.0.0.1", port=self.port)

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):   # (aiosmtpd's hook)
        if address.startswith("nobody@"):        # (an address the server refuses for good)
            return "550 5.1.1 no such user"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):     # (aiosmtpd's handler hook)
        with self.lock:
            self.mails.append(email.message_from_bytes(envelope.content))
        return "250 OK"

    def to(self, addr: str, subject: str = "") -> list[email.message.Message]:
        with self.lock:
            return [m for m in self.mails if m["To"] == addr and subject in m["Subject"]]

    async def wait(self, addr: str, subject: str, n: int = 1, timeout: float = 15) -> list:
        for _ in range(int(timeout * 20)):
            got = self.to(addr, subject)
            if len(got) >= n:
                return got
            await asyncio.sleep(0.05)
        raise AssertionError(f"no e-mail {subject!r} to {addr}: {[m['Subject'] for m in self.mails]}")


def body(m) -> str:
    return m.get_payload(decode=True).decode()


def link(m, path: str = "/") -> str:
    return next(u for u in re.findall(r"http://\S+", body(m)) if urlsplit(u).path == path)


def login_code(m) -> str:
    """The one-time login code of an e-mail's link to its seat (``/#/login/<code>``)."""
    frag = urlsplit(link(m)).fragment
    assert frag.startswith("/login/"), frag
    return frag[len("/login/"):]


@contextlib.asynccontextmanager
async def hooks():
    """A local webhook endpoint: the JSON bodies it received."""
    got: list[dict] = []

    async def take(request: web.Request) -> web.Response:
        got.append(await request.json())
        return web.Response(text="ok")
    app = web.Application()
    app.router.add_post("/hook", take)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}/hook", got
    finally:
        await runner.cleanup()


@contextlib.asynccontextmanager
async def serve_with_mail(**config):
    inbox = Inbox()
    inbox.controller.start()
    try:
        cfg = Config(smtp=f"smtp://127.0.0.1:{inbox.port}", allow_private_webhooks=True, **config)
        async with running_server(MemoryStore(), cfg) as srv, Lobby(srv.base) as lobby:
            srv.lobby, srv.inbox = lobby, inbox
            yield srv
    finally:
        inbox.controller.stop()


async def test_email_verified_by_its_link_then_reports_reminders_and_a_one_time_login_link():
    async with serve_with_mail() as srv, hooks() as (hook, posts), aiohttp.ClientSession() as http:
        g = await srv.lobby.create_game(mode="postal", players=5, bot_seats=list("CDE"), seed=3, deadline=4,
                                        webhook=hook, name="by post")
        a = await srv.lobby.join(g["game"])
        b = await srv.lobby.join(g["game"])
        ca = await GameClient.connect(srv.base, g["game"], a["token"])
        cb = await GameClient.connect(srv.base, g["game"], b["token"])
        try:
            r = await ca.notify(email="anna@example.org", want=["report", "due"], due_hours=3 / 3600)
            assert r["notify"] == {"email": "anna@example.org", "verified": False, "want": ["due", "report"],
                                   "due_hours": 3 / 3600}
            (confirm,) = await srv.inbox.wait("anna@example.org", "confirm your address")
            async with http.get(link(confirm, "/api/email/verify")) as resp:
                assert resp.status == 200 and "Address confirmed" in await resp.text()
            async with http.get(link(confirm, "/api/email/verify")) as resp:      # (good once)
                assert resp.status == 400
                page = await resp.text()      # (and says how on, with a link: QA found a dead end)
                assert "used already, or expired" in page and f'<a href="{srv.base}/">' in page, page
            # A's orders are due in 3 s: a reminder; then the deadline closes the phase: a report.
            (due,) = await srv.inbox.wait("anna@example.org", "due in")
            assert "your orders for the pre-season trades of Game-Turn 1 are due in" in body(due)
            (rep,) = await srv.inbox.wait("anna@example.org", "report of Game-Turn 1, the pre-season trades")
            # it ends with what comes next, and when (QA: it said nothing of it)
            assert re.search(r"\r?\n\r?\nNext: orders for the First Phase of Game-Turn 1, due by .+ \(UTC\), in .+\.\r?\n", body(rep)), body(rep)
            assert "REPORT OF GAME-TURN 1, THE PRE-SEASON TRADES" in body(rep)
            for m in srv.inbox.mails:
                assert a["token"] not in body(m) and b["token"] not in body(m)
            # the link logs in once: a device token for seat A, the seat's own token still good
            url = link(rep)
            assert urlsplit(url).query == ""                   # (the code in the fragment: never sent to a server)
            async with http.get(url) as resp:
                assert resp.status == 200 and "js/main.js" in await resp.text()     # the game's page
            code = login_code(rep)
            got = await srv.lobby.login(code)
            assert got["seat"] == "A" and got["token"] != a["token"]
            again = await GameClient.connect(srv.base, g["game"], got["token"])
            assert again.seat == "A"
            await again.close()
            with pytest.raises(ServerError) as e:
                await srv.lobby.login(code)
            assert e.value.code == "bad_token"
            assert (await GameClient.connect(srv.base, g["game"], a["token"])).seat == "A"
            # the webhook heard of the report, with the game's page and nothing that logs in
            for _ in range(100):
                if any(p["event"] == "report" for p in posts):
                    break
                await asyncio.sleep(0.05)
            post = next(p for p in posts if p["event"] == "report")
            assert post["game"] == g["game"] and post["name"] == "by post" and post["text"].startswith("REPORT")
            assert post["link"] == f"{srv.base}/#/g/{g['game']}"
            assert all(a["token"] not in str(p) and "login" not in p["link"] for p in posts)
            assert srv.inbox.to("nobody") == [] and len(srv.inbox.to("anna@example.org", "report")) == 1
            async with http.get(f"{srv.base}/metrics") as resp:
                text = await resp.text()
            sent = {w: float(re.search(rf'rcw_notifications_total{{outcome="sent",way="{w}"}} (\S+)', text).group(1))
                    for w in ("email", "webhook")}
            assert sent["email"] >= 3 and sent["webhook"] >= 1, sent        # confirm, reminder, report; the post
        finally:
            await ca.close()
            await cb.close()


async def test_pauses_and_civil_disorder_reach_the_webhook_and_a_private_message_the_absent():
    async with serve_with_mail() as srv, hooks() as (hook, posts):
        g = await srv.lobby.create_game(mode="postal", players=5, bot_seats=list("CDE"), seed=3, deadline=30,
                                        pause="1h", webhook=hook)
        a = await srv.lobby.join(g["game"], name="Anna")
        b = await srv.lobby.join(g["game"])
        ca = await GameClient.connect(srv.base, g["game"], a["token"])
        cb = await GameClient.connect(srv.base, g["game"], b["token"])
        await cb.notify(email="boris@example.org", want=["message", "absence"])
        (confirm,) = await srv.inbox.wait("boris@example.org", "confirm")
        async with aiohttp.ClientSession() as http, http.get(link(confirm, "/api/email/verify")) as resp:
            assert resp.status == 200
        await ca.pause(600)
        (paused,) = await srv.inbox.wait("boris@example.org", "paused the game")
        assert "Seat A paused the game for 10 min: every deadline moves 10 min later" in body(paused)   # (QA: it stopped at "moves")
        for _ in range(100):
            if any(p["event"] == "pause" for p in posts):
                break
            await asyncio.sleep(0.05)
        assert next(p for p in posts if p["event"] == "pause")["seat"] == "A"
        await ca.chat("A-B", "while B is here")             # B is connected: no e-mail
        await cb.close()
        await asyncio.sleep(0.2)
        await ca.chat("A-B", "a word while you are away")
        (msg,) = await srv.inbox.wait("boris@example.org", "private message from Anna (A)")     # (by name, QA)
        assert body(msg).startswith("Anna (A) wrote to you (A-B):") and "a word while you are away" in body(msg)
        await ca.chat("public", "everyone")                 # public messages are not e-mailed
        await asyncio.sleep(0.5)
        assert len(srv.inbox.to("boris@example.org", "message")) == 1
        await ca.close()


async def _anna_and_boris(srv, **game) -> tuple[GameClient, GameClient]:
    """A five-seat postal game of seed 3 (``game``: more of its settings) with Anna (A) and Boris
    (B) connected, the SDT bots in C-E: their clients."""
    g = await srv.lobby.create_game(mode="postal", players=5, bot_seats=list("CDE"), seed=3, **game)
    a = await srv.lobby.join(g["game"])
    b = await srv.lobby.join(g["game"])
    return (await GameClient.connect(srv.base, g["game"], a["token"]),
            await GameClient.connect(srv.base, g["game"], b["token"]))


async def _verified(srv, client, address: str, want: list[str]) -> None:
    await client.notify(email=address, want=want)
    (confirm,) = await srv.inbox.wait(address, "confirm")
    async with aiohttp.ClientSession() as http, http.get(link(confirm, "/api/email/verify")) as resp:
        assert resp.status == 200


def test_a_span_of_time_reads_exactly_in_words():
    """QA: a pause's span read "1.2 min", and what was left "1 h" of 58 minutes."""
    from rcw.server.absence import _span

    assert [_span(x) for x in (2, 72, 600, 3528, 86328, 90000)] == \
        ["2 s", "1 min 12 s", "10 min", "58 min 48 s", "23 h 58 min 48 s", "1 d 1 h"]


async def test_a_seat_is_told_of_its_own_pause_and_civil_disorder_as_you():
    """QA: the e-mails of a pause and of civil disorder went alike to every seat, so the player
    who paused, or who fell into disorder, read of himself as "Seat B ..." and was told that "the
    player of seat B is back" when he came back.  Now his own reads "You ..." (with how to take
    the seat back), the others' still name the seat, and he is not told of his own return."""
    async with serve_with_mail() as srv:
        ca, cb = await _anna_and_boris(srv, deadline=1.5, disorder_after=1, pause="1h")
        try:
            await _verified(srv, ca, "anna@example.org", ["absence"])
            await _verified(srv, cb, "boris@example.org", ["absence"])
            await cb.pause(2)
            (own,) = await srv.inbox.wait("boris@example.org", "paused the game")
            (other,) = await srv.inbox.wait("anna@example.org", "paused the game")
            assert body(own).startswith("You paused the game for 2 s: every deadline moves 2 s later"), body(own)
            assert body(other).startswith("Seat B paused the game for 2 s"), body(other)
            # both miss the trading deadline (1.5 s, moved 2 s on): each falls into disorder
            (own,) = await srv.inbox.wait("boris@example.org", "seat B is in civil disorder", timeout=30)
            assert own["Subject"].endswith(": seat B is in civil disorder"), own["Subject"]     # (not cut mid-sentence)
            assert body(own).startswith("You missed 1 deadline: a bot plays your seat B until you return"), body(own)
            (other,) = await srv.inbox.wait("anna@example.org", "seat B is in civil disorder", timeout=30)
            assert body(other).startswith("Seat B missed 1 deadline")
            assert "its bot plays it until the player returns" in body(other)
            assert not [m for m in srv.inbox.to("boris@example.org") if body(m).startswith("Seat B missed")]
            await cb.reclaim()
            await srv.inbox.wait("anna@example.org", "The player of seat B is back")
            await asyncio.sleep(0.5)
            assert not srv.inbox.to("boris@example.org", "is back")
        finally:
            await ca.close()
            await cb.close()


async def test_a_seats_connections_hear_when_its_address_is_confirmed_or_its_settings_saved_elsewhere():
    """QA: the page said "check your mail for the confirmation link" after the link had been
    opened, until it was loaded again.  Every connection of the seat now hears (``notify``) when
    its address is confirmed, and another tab hears of settings saved in one; another seat's
    connections hear nothing of them."""
    async with serve_with_mail() as srv:
        g = await srv.lobby.create_game(mode="postal", players=5, bot_seats=list("CDE"), seed=3)
        a = await srv.lobby.join(g["game"])
        b = await srv.lobby.join(g["game"])
        ca = await GameClient.connect(srv.base, g["game"], a["token"])
        tab = await GameClient.connect(srv.base, g["game"], a["token"])
        cb = await GameClient.connect(srv.base, g["game"], b["token"])
        try:
            got = await ca.notify(email="anna@example.org", want=["report"])
            assert got["notify"]["verified"] is False
            await tab.wait_for(lambda c: (c.notify_prefs or {}).get("email") == "anna@example.org", 5)
            assert tab.notify_prefs["want"] == ["report"] and tab.notify_prefs["verified"] is False
            (confirm,) = await srv.inbox.wait("anna@example.org", "confirm")
            async with aiohttp.ClientSession() as http, http.get(link(confirm, "/api/email/verify")) as resp:
                assert resp.status == 200
            for c in (ca, tab):
                await c.wait_for(lambda c: (c.notify_prefs or {}).get("verified") is True, 5)
            assert cb.notify_prefs == {} or not (cb.notify_prefs or {}).get("email")
        finally:
            for c in (ca, tab, cb):
                await c.close()


async def test_the_webhook_is_told_when_every_player_is_away():
    """The civil disorder that leaves no player in the game says that the game now goes at the
    pace of its deadlines (until then, a seat in disorder is simply its bot's)."""
    async with serve_with_mail() as srv, hooks() as (hook, posts):
        g = await srv.lobby.create_game(mode="postal", players=5, bot_seats=list("CDE"), seed=3, deadline=1,
                                        disorder_after=1, webhook=hook)
        await srv.lobby.join(g["game"])
        await srv.lobby.join(g["game"])
        for _ in range(300):
            if sum(p["event"] == "disorder" for p in posts) >= 2:
                break
            await asyncio.sleep(0.05)
        said = [p for p in posts if p["event"] == "disorder"]
        assert sorted(p["seat"] for p in said) == ["A", "B"], posts
        assert all("its bot plays it until the player returns" in p["text"] for p in said)
        away = [p for p in said if "Every human seat is in civil disorder now" in p["text"]]     # (the second one to fall)
        assert len(away) == 1 and "decide at the deadlines" in away[0]["text"], said


async def test_bad_addresses_and_webhooks_are_typed_errors_that_change_nothing():
    async with serve_with_mail() as srv:
        g = await srv.lobby.create_game(mode="postal", players=5, bot_seats=list("BCDE"))
        a = await srv.lobby.join(g["game"])
        c = await GameClient.connect(srv.base, g["game"], a["token"])
        try:
            for bad in ("not an address", "a@b", "<a@example.org>", 7, "x" * 300 + "@example.org"):
                with pytest.raises(ServerError) as e:
                    await c.notify(email=bad)
                assert e.value.code == "bad_email", bad
            with pytest.raises(ServerError) as e:
                await c.notify(want=["everything"])
            assert e.value.code == "bad_request"
            assert (await c.request("view"))["seq"] == c.seq and srv.inbox.mails == []
            games = len(await srv.lobby.list_games("all"))
            for hook in ("ftp://example.org/x", "javascript:alert(1)", "http://", "example.org/hook",
                         "http://user:pw@example.org/hook"):
                with pytest.raises(ServerError) as e:
                    await srv.lobby.create_game(webhook=hook)
                assert e.value.code == "bad_webhook", hook
            assert len(await srv.lobby.list_games("all")) == games
        finally:
            await c.close()
    # without --allow-private-webhooks, loopback and private targets are refused; without
    # --smtp, addresses are
    async with running_server(MemoryStore(), Config()) as srv, Lobby(srv.base) as lobby:
        for hook in ("http://127.0.0.1:9/hook", "http://localhost/hook", "http://10.1.2.3/x", "http://[::1]/x",
                     "http://169.254.169.254/latest", "http://192.168.0.1/"):
            with pytest.raises(ServerError) as e:
                await lobby.create_game(webhook=hook)
            assert e.value.code == "bad_webhook", hook
        g = await lobby.create_game(players=3)
        a = await lobby.join(g["game"])
        c = await GameClient.connect(srv.base, g["game"], a["token"])
        with pytest.raises(ServerError) as e:
            await c.notify(email="anna@example.org")
        assert e.value.code == "no_email"
        await c.close()


async def test_an_email_to_a_seat_whose_page_is_open_tells_nothing_of_while_you_were_away():
    """QA: a report e-mail said "While you were away: 10 actions since you looked" to a player
    whose page had been open on the game throughout (her last look was an earlier visit).  A seat
    a connection holds is not away: its e-mails carry no such digest."""
    async with serve_with_mail() as srv:
        ca, cb = await _anna_and_boris(srv)
        try:
            await _verified(srv, ca, "anna@example.org", ["report"])
            gid, token = ca.game, ca.token
            await ca.close()                                   # (a last look, then she comes back)
            ca = await GameClient.connect(srv.base, gid, token)
            await cb.sheet([])                                 # (others act meanwhile)
            await ca.sheet([])                                 # (her sheet closes the phase: a report)
            (rep,) = await srv.inbox.wait("anna@example.org", "report of Game-Turn 1")
            assert "While you were away" not in body(rep), body(rep)
        finally:
            await ca.close()
            await cb.close()


async def test_a_live_game_waiting_on_an_absent_seat_sends_it_an_email():
    async with serve_with_mail() as srv:
        g = await srv.lobby.create_game(players=3, bot_seats=["B", "C"], seed=0, deadline=0.5, options={"max_turns": 1})
        a = await srv.lobby.join(g["game"])
        c = await GameClient.connect(srv.base, g["game"], a["token"])
        await c.notify(email="anna@example.org", want=["decision"])
        (confirm,) = await srv.inbox.wait("anna@example.org", "confirm")
        async with aiohttp.ClientSession() as http, http.get(link(confirm, "/api/email/verify")) as resp:
            assert resp.status == 200
        await c.close()                 # A is away: the deadlines' bot plays A's steps, and A is told
        (m, *_) = await srv.inbox.wait("anna@example.org", "waits on your decision", timeout=30)
        assert "Seat A: the game waits on you" in body(m) and a["token"] not in body(m)
        assert "While you were away:" in body(m)


async def test_a_webhook_name_that_points_into_the_servers_network_later_is_refused_when_it_connects():
    """DNS rebinding: a webhook host name that was public when the game was created may be made to
    resolve to a loopback or private address afterwards.  The server's webhook session asks the
    name again at every connection and refuses such an address there: a real endpoint on
    127.0.0.1, reached as ``localhost``, receives nothing; the same endpoint by its address with
    the operator's leave (--allow-private-webhooks: no such resolver) does."""
    from rcw.server.notify import public_resolver

    got: list[str] = []

    async def hook(request: web.Request) -> web.Response:
        got.append(await request.text())
        return web.Response(status=204)

    app = web.Application()
    app.router.add_post("/hook", hook)
    runner = web.AppRunner(app)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    try:
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(resolver=public_resolver())) as s:
            with pytest.raises(aiohttp.ClientError) as e:
                await s.post(f"http://localhost:{port}/hook", json={"event": "report"})
            assert "loopback or private" in str(e.value.os_error)
        assert got == []
        async with aiohttp.ClientSession() as s, s.post(f"http://127.0.0.1:{port}/hook", json={"event": "report"}) as r:
            assert r.status == 204
        assert len(got) == 1
    finally:
        await runner.cleanup()


async def test_a_phase_shorter_than_the_reminders_lead_is_reminded_at_once():
    """QA: with the default reminder 12 hours before the deadline and phases of minutes, no
    reminder ever came (its time had passed when the phase opened).  It is sent at once then,
    saying how long is left."""
    async with serve_with_mail() as srv:
        g = await srv.lobby.create_game(mode="postal", players=5, bot_seats=list("CDE"), seed=3, deadline="10m")
        a = await srv.lobby.join(g["game"])
        b = await srv.lobby.join(g["game"])
        ca = await GameClient.connect(srv.base, g["game"], a["token"])
        cb = await GameClient.connect(srv.base, g["game"], b["token"])
        try:
            await ca.notify(email="anna@example.org", want=["due"])              # (12 hours before: the default)
            (confirm,) = await srv.inbox.wait("anna@example.org", "confirm your address")
            async with aiohttp.ClientSession() as http, http.get(link(confirm, "/api/email/verify")) as resp:
                assert resp.status == 200
            (due,) = await srv.inbox.wait("anna@example.org", "due in")
            assert re.search(r"due in (10|9) min$", due["Subject"]), due["Subject"]
            assert "the pre-season trades of Game-Turn 1 are due in" in body(due)
            # with the phase reports wanted too, the next phase's reminder would come with its report,
            # which ends with the orders due and when: only the report comes (QA: both, every phase)
            await ca.notify(want=["due", "report"])
            await ca.sheet([])
            await cb.sheet([])
            (rep,) = await srv.inbox.wait("anna@example.org", "report of Game-Turn 1")
            assert re.search(r"Next: orders for the First Phase of Game-Turn 1, due by .+ \(UTC\), in (10|9) min", body(rep))
            await asyncio.sleep(1.0)
            assert len(srv.inbox.to("anna@example.org", "due in")) == 1, [m["Subject"] for m in srv.inbox.mails]
            # a player who asks for both in the middle of that phase, after its report went out, had no
            # report: he is reminded at once (review: he got neither)
            await _verified(srv, cb, "boris@example.org", ["due", "report"])
            (due,) = await srv.inbox.wait("boris@example.org", "due in")
            assert "the First Phase of Game-Turn 1 are due in" in body(due), body(due)
        finally:
            await ca.close()
            await cb.close()


async def test_a_restart_after_the_report_sends_no_reminder_beside_it():
    """The report that opened a phase holds back that phase's at-once reminder (above); this was
    the process's memory, so a server restarted between the report and the phase's deadlines
    being armed again sent the reminder after all.  It is kept with the seat's settings, in the
    store."""
    inbox = Inbox()
    inbox.controller.start()
    store = MemoryStore()                     # (the same store for both servers: a restart)
    cfg = Config(smtp=f"smtp://127.0.0.1:{inbox.port}")
    try:
        async with running_server(store, cfg) as srv, Lobby(srv.base) as lobby:
            srv.inbox = inbox
            g = await lobby.create_game(mode="postal", players=5, bot_seats=list("CDE"), seed=3, deadline="10m")
            a = await lobby.join(g["game"])
            b = await lobby.join(g["game"])
            ca = await GameClient.connect(srv.base, g["game"], a["token"])
            cb = await GameClient.connect(srv.base, g["game"], b["token"])
            try:
                await _verified(srv, ca, "anna@example.org", ["due", "report"])
                await inbox.wait("anna@example.org", "due in")             # (the trading phase's, at once)
                await ca.sheet([])
                await cb.sheet([])
                await inbox.wait("anna@example.org", "report of Game-Turn 1")
                await asyncio.sleep(0.5)
            finally:
                await ca.close()
                await cb.close()
        async with running_server(store, cfg) as srv:                      # (the restart: the game is loaded again)
            for _ in range(100):
                if g["game"] in srv.hub.runtimes and srv.hub.runtimes[g["game"]].driver.driving:
                    break
                await asyncio.sleep(0.05)
            await asyncio.sleep(1.5)
            # (one reminder: the trading phase's; none for the First Phase, whose report came)
            assert len(inbox.to("anna@example.org", "due in")) == 1, [m["Subject"] for m in inbox.mails]
    finally:
        inbox.controller.stop()


async def test_a_reminder_to_a_seat_in_civil_disorder_says_its_bot_writes_the_orders():
    """QA: a seat in civil disorder was reminded that "your orders are due", though its bot
    would write them at the deadline.  Its reminder says so now, and how to take the seat back."""
    async with serve_with_mail() as srv:
        ca, cb = await _anna_and_boris(srv, deadline=2.5, disorder_after=1)
        try:
            await _verified(srv, cb, "boris@example.org", ["due"])
            await cb.notify(due_hours=1 / 3600)                 # (1 s before each deadline)
            await cb.wait_for(lambda c: c.seats["B"].get("disorder"), 20)      # (B let the trading deadline pass)
            for _ in range(200):
                got = [m for m in srv.inbox.to("boris@example.org", "due in") if "civil disorder" in body(m)]
                if got:
                    break
                await asyncio.sleep(0.05)
            assert got, [body(m) for m in srv.inbox.to("boris@example.org", "due in")]
            assert re.match(r"Your seat B is in civil disorder: its bot writes the orders for the [\w -]+ of Game-Turn \d+ "
                            r"at the deadline, in .+ UTC\), unless you act first, which takes the seat back", body(got[0]))
        finally:
            await ca.close()
            await cb.close()


async def test_a_seat_in_civil_disorder_whose_bot_plays_it_now_gets_no_reminder():
    """QA: Boris's seat fell into civil disorder while Anna played on; each phase's "orders due"
    e-mail still came, saying its bot would write the orders at the deadline, while the bot had
    sent them already (the page showed B's sheet in).  While another player is there, the bot
    plays a seat in disorder at once: no reminder goes.  (QA's came in the race between the
    phase's reminders, sent at once when the phase is shorter than their lead, and the bot's sheet:
    here Boris holds E and the bots take 2 s a step, as ``--bot-delay`` has it: E's sheet, the
    last of the bots', comes seconds after the phase's reminders.)"""
    async with serve_with_mail(bot_delay=2.0) as srv:
        g = await srv.lobby.create_game(mode="postal", players=5, bot_seats=list("BCD"), seed=3, deadline=8,
                                        disorder_after=1)
        a, e = await srv.lobby.join(g["game"]), await srv.lobby.join(g["game"])
        assert e["seat"] == "E"
        ca = await GameClient.connect(srv.base, g["game"], a["token"])
        cb = await GameClient.connect(srv.base, g["game"], e["token"])
        try:
            await _verified(srv, cb, "boris@example.org", ["due"])      # (12 hours before: at once, phases are short)
            await srv.inbox.wait("boris@example.org", "due in")            # (the trading session's)
            await ca.sheet([])                                             # (Anna sends hers; Boris lets it pass)
            await cb.wait_for(lambda c: c.seats["E"].get("disorder"), 30)
            await ca.wait_for(lambda c: c.view["postal"]["phase"] == "first", 30)
            await ca.wait_for(lambda c: "E" in c.view["postal"]["submitted"], 30)      # (E's bot, after the others)
            await asyncio.sleep(0.5)
            got = [m for m in srv.inbox.to("boris@example.org", "due in") if "civil disorder" in body(m)]
            assert not got, [body(m) for m in got]
        finally:
            await ca.close()
            await cb.close()


@contextlib.asynccontextmanager
async def _warnings():
    """The server's warnings logged meanwhile (their messages, as they come)."""
    import logging

    seen: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record):
            seen.append(record.getMessage())
    logger, h = logging.getLogger("rcw.server"), Keep(logging.WARNING)
    logger.addHandler(h)
    try:
        yield seen
    finally:
        logger.removeHandler(h)


async def _some(seen: list, timeout: float = 2.0) -> None:
    for _ in range(int(timeout * 50)):
        if seen:
            return
        await asyncio.sleep(0.02)
    raise AssertionError("no warning was logged")


async def test_an_email_the_mail_server_fails_is_tried_again_and_carries_its_date_and_id():
    """QA: the mail server down for a minute, the phase report and the civil disorder notice sent
    meanwhile never came (one log line, "e-mail to a seat failed", naming no game); and the
    e-mails had no Date or Message-ID.  A failed e-mail is tried again after each of
    ``--mail-retry``'s delays, the log naming its game, seat and subject; each has both headers."""
    async with serve_with_mail(mail_retry=(0.5, 1.0, 2.0)) as srv:
        ca, cb = await _anna_and_boris(srv)
        try:
            srv.inbox.controller.stop()                                  # (the mail server goes down)
            async with _warnings() as seen:
                await cb.notify(email="boris@example.org", want=["report"])
                await _some(seen)
                assert f"game {cb.game}, seat B: confirm the address" in seen[0] and "trying again in 0.5 s" in seen[0], seen
                srv.inbox.controller = aiosmtpd.Controller(srv.inbox, hostname="127.0.0.1", port=srv.inbox.port)
                srv.inbox.controller.start()                             # (back up: the next try gets through)
                (confirm,) = await srv.inbox.wait("boris@example.org", "confirm your address")
            assert confirm["Date"] and email.utils.parsedate_to_datetime(confirm["Date"]).tzinfo is not None
            assert re.fullmatch(r"<[^<>@\s]+@localhost>", confirm["Message-ID"]), confirm["Message-ID"]
            # an address the mail server refuses for good (550) is not tried again (review)
            async with _warnings() as seen:
                await ca.notify(email="nobody@example.org", want=["report"])
                await _some(seen)
                await asyncio.sleep(1.0)               # (past the first retry's 0.5 s)
                assert len(seen) == 1 and "given up" in seen[0] and "550" in seen[0], seen
        finally:
            await ca.close()
            await cb.close()


async def test_each_live_decision_gets_its_own_reminder():
    """Review: a live seat's deadline has the same key for every decision, and its reminder was
    kept as sent by that key alone: only the first decision of a game was ever reminded.  Each
    is now, at its time (not at once: a live decision lasts minutes)."""
    async with serve_with_mail() as srv:
        g = await srv.lobby.create_game(players=3, bot_seats=["B", "C"], seed=0, deadline=6)
        a = await srv.lobby.join(g["game"])
        ca = await GameClient.connect(srv.base, g["game"], a["token"])
        try:
            await ca.notify(email="anna@example.org", want=["due"], due_hours=3 / 3600)
            (confirm,) = await srv.inbox.wait("anna@example.org", "confirm your address")
            async with aiohttp.ClientSession() as http, http.get(link(confirm, "/api/email/verify")) as resp:
                assert resp.status == 200
            await srv.inbox.wait("anna@example.org", "due in")
            await ca.wait_for(lambda c: c.my_turn, 10)
            seq = ca.seq
            await ca.act(next((x for x in ca.legal if x["t"].startswith("End")), ca.legal[0]))
            await ca.wait_for(lambda c: c.my_turn and c.seq > seq, 20)
            for _ in range(100):                    # (the next decision's, 3 s before its deadline)
                if len(srv.inbox.to("anna@example.org", "due in")) >= 2:
                    break
                await asyncio.sleep(0.1)
            assert len(srv.inbox.to("anna@example.org", "due in")) >= 2, [m["Subject"] for m in srv.inbox.mails]
        finally:
            await ca.close()


@needs_redis
async def test_an_email_queued_by_a_process_killed_with_kill_9_is_sent_by_the_next_one():
    """QA (left undone until now): an e-mail a process had queued while the mail server was down
    was lost when that process was killed (its retries lived in its memory).  Every e-mail goes
    through the store's outbox: ``rcw serve --redis`` queues the confirmation e-mail, the mail
    server refuses it, the process is killed with ``kill -9``; a new process on the same Redis
    and prefix sends it once the mail server is back, and once only."""
    prefix = unique_prefix("outbox")
    inbox = Inbox()                               # (its port known, nothing listening yet: the mail server is down)
    args = ("--redis", REDIS_URL, "--prefix", prefix, "--lease-ttl", "0.6", "--bot-workers", "0",
            "--smtp", f"smtp://127.0.0.1:{inbox.port}", "--mail-retry", "1")
    p1, p2 = ServerProcess(*args), ServerProcess(*args)
    try:
        await p1.start()
        async with Lobby(p1.base) as lobby:
            g = await lobby.create_game(mode="postal", players=5, bot_seats=list("CDE"), seed=3)
            b = await lobby.join(g["game"], name="Boris")
        cb = await GameClient.connect(p1.base, g["game"], b["token"])
        await cb.notify(email="boris@example.org", want=["report"])
        await cb.close()
        for _ in range(200):                      # (its first try failed: the log says so)
            if "confirm the address) failed" in p1.stderr_tail():
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError(p1.stderr_tail())
        await p1.kill()                           # kill -9: the retry timed in its memory dies with it
        inbox.controller.start()                  # (the mail server is back)
        await p2.start()
        (confirm,) = await inbox.wait("boris@example.org", "confirm your address", timeout=20)
        assert "/api/email/verify?code=" in body(confirm)
        await asyncio.sleep(2.5)                  # (past another sweep and retry: it is not sent twice)
        assert len(inbox.to("boris@example.org")) == 1
    finally:
        await p1.stop()
        await p2.stop()
        with contextlib.suppress(Exception):
            inbox.controller.stop()
        await destroy_prefix(prefix)


@needs_redis
async def test_two_tries_of_one_letter_in_one_process_send_it_once():
    """Review: a letter's timed try and a sweep of the outbox (or the first try and a sweep) could
    both pass the process's own check before taking the store's lease, which the same process may
    renew: the e-mail went twice.  A try claims the letter in the process before its first await."""
    import types

    from rcw.server.config import Config as Cfg
    from rcw.server.metrics import Metrics
    from rcw.server.notify import OUTBOX, Outbox

    class SlowMailer:
        def __init__(self) -> None:
            self.sent: list[str] = []

        async def send(self, to, subject, body) -> None:
            await asyncio.sleep(0.3)
            self.sent.append(subject)

    prefix = unique_prefix("outbox2")
    store = RedisStore(REDIS_URL, prefix)
    await store.start()
    tasks: set = set()
    try:
        def spawn(coro):
            t = asyncio.get_running_loop().create_task(coro)
            tasks.add(t)
            return t
        hub = types.SimpleNamespace(store=store, proc="p1", config=Cfg(), metrics=Metrics(), spawn=spawn)
        mailer = SlowMailer()
        box = Outbox(hub, mailer)
        await store.hash_put(*OUTBOX, {"m1": {"to": "a@example.org", "subject": "s", "body": "b", "about": "s",
                                              "tries": 0, "next": 0}})
        await asyncio.gather(box._try("m1"), box._try("m1"), box.sweep())
        await asyncio.gather(*tasks)
        assert mailer.sent == ["s"]
        assert await store.hash_all(*OUTBOX) == {}
    finally:
        await store.close()
        await destroy_prefix(prefix)
