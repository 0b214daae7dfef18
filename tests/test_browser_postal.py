"""Issue 16's done-when, in Debian's Chromium against a real ``rcw serve``: a postal game
(004 [17.0]) with two browser players and three bots and a deadline of a few seconds; both plot
moves on the map (a step the rules refuse is refused with the engine's reason), one sends its
sheet and the other lets the deadline pass; the report appears for both, drawn on the map
beside its text; one reloads and finds the archive, phase by phase; an SMTP server on loopback
(aiosmtpd) receives the confirmation and the reports with links that work (the one-time login
link opens the seat in a browser that never held its token), and a local HTTP endpoint
receives the webhook's posts."""

from __future__ import annotations

import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from browser_helpers import (
    NO_LIMITS_ARGS,
    as_seat,
    http,
    keep_toasts,
    new_page,
    open_seat,
    rcw_server,
    shot,
    skip_reason,
    toast_text,
)
from test_server_notify import Inbox, body, link

pytestmark = pytest.mark.skipif(skip_reason() is not None, reason=skip_reason() or "")


class Hooks:
    """A local webhook endpoint in a thread: the JSON bodies it received."""

    def __init__(self) -> None:
        got = self.got = []

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                got.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *a) -> None:
                pass
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def wait(self, pred, timeout: float = 10) -> list[dict]:
        end = time.time() + timeout
        while time.time() < end:
            if pred(self.got):
                return self.got
            time.sleep(0.05)
        raise AssertionError(f"webhook posts: {self.got}")


def wait_mail(inbox: Inbox, to: str, subject: str, timeout: float = 15):
    end = time.time() + timeout
    while time.time() < end:
        got = inbox.to(to, subject)
        if got:
            return got[0]
        time.sleep(0.05)
    raise AssertionError(f"no e-mail {subject!r}: {[m['Subject'] for m in inbox.mails]}")


def plot_a_move(page, seat: str) -> str:
    """Click one of the seat's stacks, then a province its reach rings show; returns it."""
    st = page.evaluate(f"() => window.rcwApp.st.view.stacks.find(s => s.owner === {seat!r})")
    page.evaluate(f"window.rcwApp.board.centreOn({st['province']!r}, true)")
    page.locator(f'svg g[data-stack="{st["id"]}"]').first.click()
    page.wait_for_function("() => window.rcwApp.postal.plot && window.rcwApp.postal.plot.routes")
    routes = page.evaluate("() => window.rcwApp.postal.plot.routes")
    dest = sorted(k for k, r in routes.items() if len(r["path"]) == 1)[0]
    page.locator(f'svg g.reach-target[data-province="{dest}"]').first.click()
    page.wait_for_function(f"() => document.body?.dataset.plotPath === {dest!r}")
    return st["province"], dest


def anna_and_boris_by_post(browser, server: str, players: int = 3, phone: bool = False, seed: int = 4,
                           deadline: str | None = "1h", bots: str = "random"):
    """A postal game of ``seed`` (``bots`` in the seats after A and B, a ``deadline`` a phase)
    with two people, Anna (A) and Boris (B), and Anna's page open on it: (the page, its page
    errors, the game's id, a function that sends Boris's empty sheet for the open phase over his
    own socket)."""
    g = http(server, "POST", "/api/games", {"mode": "postal", "players": players, "bot_seats": list("CDEF"[:players - 2]),
                                            "bots": bots, "seed": seed, "deadline": deadline})
    gid = g["game"]
    a = http(server, "POST", f"/api/games/{gid}/join", {"name": "Anna"})
    b = http(server, "POST", f"/api/games/{gid}/join", {"name": "Boris"})

    async def sends(c) -> None:
        await c.sheet([])
    page = new_page(browser, phone=phone)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_seat(page, server, gid, a["token"], "A", "Anna")
    return page, errors, gid, lambda: as_seat(server, gid, b["token"], sends)


def test_a_postal_game_in_two_browsers_with_bots_a_deadline_emails_and_a_webhook(browser):
    inbox, hooks = Inbox(), Hooks()
    inbox.controller.start()
    try:
        with rcw_server([*NO_LIMITS_ARGS, "--smtp", f"smtp://127.0.0.1:{inbox.port}", "--allow-private-webhooks"]) as base:
            g = http(base, "POST", "/api/games", {"mode": "postal", "players": 5, "bot_seats": ["C", "D", "E"], "seed": 3,
                                                  "deadline": 12, "webhook": hooks.url, "name": "by post"})
            gid = g["game"]
            a = http(base, "POST", f"/api/games/{gid}/join", {"name": "Anna"})
            pa = new_page(browser)
            open_seat(pa, base, gid, a["token"], "A", "Anna")
            # Anna asks for e-mail in the page and confirms her address by the link she receives
            pa.locator(".absence-card summary").click()
            pa.locator('.absence-card input[type="email"]').fill("anna@example.org")
            pa.locator('[data-act="save-notify"]').click()
            confirm = wait_mail(inbox, "anna@example.org", "confirm your address")
            other = new_page(browser)
            other.goto(link(confirm, "/api/email/verify"))
            assert "Address confirmed" in other.content()
            # Anna's page hears of it (it said "check your mail" until reloaded), and its card,
            # open as she left it, was not rebuilt under her hands by the pushes meanwhile
            card = pa.locator(".absence-card")
            card.locator(".email-status", has_text="(confirmed)").wait_for()
            assert card.evaluate("(d) => d.open")
            card.locator('input[type="email"]').fill("anna@example.net")      # (typed, not saved)
            pa.evaluate("() => window.rcwApp.render()")
            assert card.locator('input[type="email"]').input_value() == "anna@example.net"
            card.locator('input[type="email"]').fill("anna@example.org")
            b = http(base, "POST", f"/api/games/{gid}/join", {"name": "Boris"})    # (the game starts: deadlines run)
            pb = new_page(browser)
            open_seat(pb, base, gid, b["token"], "B", "Boris")
            for p in (pa, pb):       # the pre-season trades: empty sheets, the phase closes when both are in
                p.wait_for_selector(".postal-phase .countdown")
                p.locator('[data-act="send-sheet"]').click()
            for p in (pa, pb):
                p.wait_for_function("() => window.rcwApp.st.view.postal.phase === 'first'")
            # First Phase: Anna plots a move on the map; a step the rules refuse is refused with the reason
            start, dest = plot_a_move(pa, "A")
            far = "ARCH" if start != "ARCH" else "BAKU"     # (far from any one step)
            pa.evaluate(f"window.rcwApp.board.centreOn({far!r}, true)")
            pa.locator(f'svg g.province[data-province="{far}"]').first.click()
            pa.wait_for_function("() => document.body?.dataset.plotRefused")
            assert "(004 [" in pa.locator(".plot-problem").inner_text()
            assert pa.evaluate("document.body?.dataset.plotPath") == dest
            pa.locator('[data-act="add-move"]').click()
            pa.wait_for_selector(".draft-order.ok")
            pa.wait_for_selector('svg polyline.draft-path[data-order="0"]', state="attached")   # the sheet's move on the map
            shot(pa, "postal-plotted.png")
            pa.locator('[data-act="send-sheet"]').click()
            pa.wait_for_selector(".sent-badge")
            pb.wait_for_selector('.submitted .sub.in[data-seat="A"]')         # Boris sees that Anna sent one...
            assert "order" not in pb.evaluate("JSON.stringify(window.rcwApp.st.view.postal.sheet || [])")   # ...not what
            # Boris plots a move but lets the deadline pass
            plot_a_move(pb, "B")
            pb.locator('[data-act="add-move"]').click()
            pb.wait_for_selector(".draft-order")
            assert pb.locator(".sent-badge").count() == 0
            for p in (pa, pb):       # the deadline closes the phase: the report for both, text and map
                p.wait_for_function("() => document.body?.dataset.reports === '2'", timeout=20_000)
                p.wait_for_selector('.report-card[data-phase="first"]')
                assert p.locator("svg line.report-move").count() > 0
            shot(pa, "postal-report.png")
            assert f"{start}\u2192{dest}" in pa.locator(".report-text").inner_text()
            assert pa.locator(f'svg line.report-move[data-from="{start}"][data-to="{dest}"][data-seat="A"]').count() == 1
            # Boris reloads and browses the archive, phase by phase
            pb.reload()
            pb.wait_for_function("() => document.body?.dataset.reports === '2'")
            pb.locator('[data-act="report-prev"]').click()
            pb.wait_for_selector('.report-card[data-phase="trading"]')
            assert "THE PRE-SEASON TRADES" in pb.locator(".report-text").inner_text()
            pb.locator('[data-act="report-next"]').click()
            pb.wait_for_selector('.report-card[data-phase="first"]')
            pb.locator(".menu-btn").click()                     # the menu's replay: the archive from its start
            pb.locator('[data-act="replay"]').click()
            pb.wait_for_selector('.report-card[data-phase="trading"][data-index="0"]')
            assert pb.locator(".archive-note").count() == 1    # (the map shows the position after that phase)
            # ...with the strengths the report gives its stacks (found in a QA game: the archive's
            # counters were blank, the live map's strengths keyed by other stacks' ids)
            rep0 = pb.evaluate("() => rcwApp.postal.reports[0].report")
            want = sorted(st["strength"] for sts in [*rep0["stacks"].values(), rep0["unaligned"]] for st in sts)
            shown = pb.evaluate("() => Object.values(rcwApp.strengths())")
            assert sorted(shown) == want and any(want), (shown, want)
            titles = pb.locator("svg g.counter").evaluate_all(
                "(gs) => gs.filter((g) => Number(g.dataset.stack) < 0).map((g) => g.querySelector('title').textContent)")
            assert titles and all(" · strength " in t for t in titles), titles[:3]
            shot(pb, "postal-archive.png")
            # the e-mails: the reports, with a one-time login link that opens Anna's seat elsewhere
            rep = wait_mail(inbox, "anna@example.org", "report of Game-Turn 1, the First Phase")
            assert f"{start}\u2192{dest}" in body(rep) and a["token"] not in body(rep)
            assert wait_mail(inbox, "anna@example.org", "report of Game-Turn 1, the pre-season trades")
            fresh = new_page(browser)
            fresh.goto(link(rep))
            fresh.wait_for_function("() => document.body?.dataset.seat === 'A'")
            assert "/login/" not in fresh.url
            # the webhook heard of both reports, with the game's page as its link
            posts = hooks.wait(lambda got: sum(p["event"] == "report" for p in got) >= 2)
            assert {p["link"] for p in posts} == {f"{base}/#/g/{gid}"}
            for p in (pa, pb, other, fresh):
                p.context.close()
    finally:
        inbox.controller.stop()
        hooks.server.shutdown()


def test_an_open_postal_game_waits_for_its_players_then_shows_the_phases_deadline(browser, server):
    """A postal game with an open seat: its creator sees the 'Waiting for players' card (the join
    link, and bots for the open seats), not a desk whose sheet the server would refuse; once the
    seats are filled the desk shows the phase's deadline (before: 'No deadline' for a game with
    one, and no way to fill the seats from the page)."""
    g = http(server, "POST", "/api/games", {"mode": "postal", "players": 3, "bot_seats": ["C"], "deadline": "10m"})
    gid = g["game"]
    a = http(server, "POST", f"/api/games/{gid}/join", {"name": "Anna"})
    page = new_page(browser)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(server + "/")
        page.evaluate("([gid, token]) => localStorage.setItem('rcw:admin:' + gid, JSON.stringify(token))",
                      [gid, g["admin_token"]])
        watcher = new_page(browser)             # (a watcher: no seat, no notification card; QA saw "null")
        watcher.goto(f"{server}/#/g/{gid}")
        watcher.locator(".orders .card", has_text="Waiting for players").wait_for()
        assert "null" not in watcher.locator(".orders").inner_text()
        watcher.context.close()
        open_seat(page, server, gid, a["token"], "A", "Anna")
        card = page.locator(".orders .card", has_text="Waiting for players")
        card.wait_for()
        assert "Open: B" in card.inner_text() and page.locator('[data-act="send-sheet"]').count() == 0
        page.locator('[data-act="fill-bots"]').click()
        page.locator('[data-act="send-sheet"]').wait_for()
        assert http(server, "GET", f"/api/games/{gid}")["status"] == "playing"
        page.locator(".countdown, p.deadline").first.wait_for()
        assert "No deadline" not in page.locator("p.deadline").inner_text()
        assert not errors, errors
    finally:
        page.context.close()


def test_a_pause_civil_disorder_and_the_return_on_a_phone(browser, server):
    """On a 390x844 touch phone: a pause moves the phase's deadline for everyone (the lobby's
    info shows the new time, the page's countdown too); a seat that lets the deadline pass falls
    into civil disorder (``disorder_after: 1``: its bot sends its next sheets) and the player takes
    it back with one tap."""
    g = http(server, "POST", "/api/games", {"mode": "postal", "players": 5, "bot_seats": ["C", "D", "E"], "seed": 3,
                                            "bots": "sdt", "deadline": 20, "pause": "1h", "disorder_after": 1})
    # (the SDT bot: its sheets always hold its standing orders; a random bot's sheet, seeded by the
    # game's id, was once empty, and an empty draft proved nothing: CI, stop 46)
    # (20 s: time for both pages to open, on a loaded machine (the suite runs two test files at
    # once), before the Trading Phase's deadline passes; 8 s was once not enough)
    gid = g["game"]
    a = http(server, "POST", f"/api/games/{gid}/join", {"name": "Anna"})
    b = http(server, "POST", f"/api/games/{gid}/join", {"name": "Boris"})
    page = new_page(browser, phone=True)
    boris = new_page(browser)
    try:
        open_seat(boris, server, gid, b["token"], "B", "Boris")
        boris.locator('[data-act="send-sheet"]').click()          # Boris sends his sheet; Anna lets the deadline pass
        open_seat(page, server, gid, a["token"], "A", "Anna")
        page.locator('.mtab[data-tab="orders"]').tap()
        key = "phase:1:trading"
        before = page.wait_for_function(f"() => window.rcwApp.postal.deadlines[{key!r}]").json_value()
        page.locator(".absence-card summary").tap()
        # (the notifications in words, QA read the protocol's "report, due, decision, message, absence")
        assert page.locator('.absence-card label.chk[data-want="report"]').inner_text().strip() == "phase reports"
        # no pause of 0 hours: said in hours, by the page (QA read "'seconds' must be a number of seconds")
        page.locator('.absence-card input[aria-label="Pause (hours)"]').fill("0")
        page.locator('[data-act="pause"]').tap()
        page.locator(".toast.error", has_text="A pause is a number of hours above 0.").wait_for()
        page.locator('.absence-card input[aria-label="Pause (hours)"]').fill("0.001")       # 3.6 s
        page.locator('[data-act="pause"]').tap()
        page.wait_for_function(f"() => window.rcwApp.postal.deadlines[{key!r}] === {before + 3600}")
        # the toast says it exactly (QA: "you may pause 1 h more" after a pause of 72 s of an hour)
        page.locator(".toast", has_text="Every deadline moved 4 s later; you may pause 59 min 56 s more").wait_for()
        # Boris is told who paused, as exactly; Anna, who paused, is not told twice (QA: two toasts, rounded apart)
        boris.locator(".toast", has_text="Anna (A) paused the game: every deadline moves by 4 s").wait_for()
        assert page.locator(".toast", has_text="paused the game").count() == 0
        # (the countdown is drawn on the next render: waited for, then asserted)
        page.wait_for_function(f"() => Number(document.querySelector('.countdown')?.dataset.at) === {before + 3600}")
        assert int(page.locator(".countdown").get_attribute("data-at")) == before + 3600
        assert http(server, "GET", f"/api/games/{gid}")["deadlines"][key] == before + 3600   # for everyone
        # after the deadline Anna's seat is in civil disorder: her bot sends her First Phase sheet at once
        page.wait_for_selector(".card.disorder", timeout=45_000)     # (the 20 s deadline from the start, the pause, and slack)
        shot(page, "postal-disorder-phone.png")
        page.wait_for_function("() => window.rcwApp.st.view.postal.phase === 'first' && "
                               "window.rcwApp.st.view.postal.submitted.includes('A')")
        assert http(server, "GET", f"/api/games/{gid}")["seats"]["A"]["disorder"]
        # her draft is the sheet her bot sent, not an empty one "changed since you sent it" (QA:
        # sending that would have wiped the bot's orders)
        page.wait_for_function("() => JSON.stringify(window.rcwApp.postal.draft) === "
                               "JSON.stringify((window.rcwApp.st.view.postal.sheet || []).map(([, o]) => o))")
        assert page.evaluate("() => window.rcwApp.postal.draft.length") > 0
        assert page.locator(".unsent-badge").count() == 0
        page.locator('[data-act="reclaim"]').tap()             # (while the phase waits for Boris's sheet)
        page.wait_for_selector(".card.disorder", state="detached")
        seats = http(server, "GET", f"/api/games/{gid}")["seats"]
        assert "disorder" not in seats["A"] and "missed" not in seats["A"]
    finally:
        page.context.close()
        boris.context.close()


def test_a_live_games_deadline_counts_down_in_the_header(browser, server):
    """A live game's deadline (a bot decides for a slow player) is shown to the player it times,
    counting down from the absolute time the server keeps."""
    g = http(server, "POST", "/api/games", {"players": 3, "bot_seats": ["B", "C"], "seed": 0, "deadline": "10m"})
    a = http(server, "POST", f"/api/games/{g['game']}/join", {"name": "Anna"})
    page = new_page(browser)
    try:
        open_seat(page, server, g["game"], a["token"], "A", "Anna")
        due = page.wait_for_function("() => (window.rcwApp.st.deadlines || {})['seat:A']").json_value()
        assert http(server, "GET", f"/api/games/{g['game']}")["deadlines"]["seat:A"] == due
        cd = page.locator(".pend.mine .countdown")
        assert int(cd.get_attribute("data-at")) == due
        first = cd.inner_text()
        assert re.fullmatch(r"(10:00|9:\d\d) left", first), first
        page.wait_for_function("(t) => document.querySelector('.pend.mine .countdown').textContent !== t", arg=first)
    finally:
        page.context.close()


def test_a_step_the_deadline_takes_for_the_player_is_told(browser, server):
    """QA: when a live game's decision deadline passed, the bot's step for the player went by
    without a word (the header simply moved on).  The page says the time ran out and what the
    bot did."""
    g = http(server, "POST", "/api/games", {"players": 3, "bot_seats": ["B", "C"], "seed": 0, "deadline": "2s"})
    a = http(server, "POST", f"/api/games/{g['game']}/join", {"name": "Anna"})
    page = new_page(browser)
    try:
        keep_toasts(page)
        open_seat(page, server, g["game"], a["token"], "A", "Anna")
        text = toast_text(page, "deadline-step")
        assert text.startswith("Your time ran out: a bot acted for you — "), text
        assert len(text) > len("Your time ran out: a bot acted for you — "), text
    finally:
        page.context.close()


def test_on_a_phone_the_time_left_and_a_lost_connection_show_in_the_header(browser, server):
    """QA: on a 390x844 phone the header hid the whole decision line, and with it a live game's
    time left, and the connection's state: a player learned of an outage when a tap failed.  Now
    the phone's header shows the time left (the decision itself is on the map's prompt) and,
    while the connection is down, that it is reconnecting."""
    g = http(server, "POST", "/api/games", {"players": 3, "bot_seats": ["B", "C"], "seed": 0, "deadline": "10m"})
    a = http(server, "POST", f"/api/games/{g['game']}/join", {"name": "Anna"})
    page = new_page(browser, phone=True)
    try:
        open_seat(page, server, g["game"], a["token"], "A", "Anna")
        page.wait_for_function("() => (window.rcwApp.st.deadlines || {})['seat:A']")
        cd = page.locator(".topbar .countdown")
        cd.wait_for()
        box, width = cd.bounding_box(), page.viewport_size["width"]
        assert box["width"] > 0 and 0 <= box["x"] and box["x"] + box["width"] <= width, box
        assert re.fullmatch(r"(10:00|9:\d\d) left", cd.inner_text()), cd.inner_text()
        assert not page.locator(".topbar .conn").is_visible()                       # (connected: nothing to say)
        page.evaluate("() => rcwApp.onConnStatus('connecting')")                    # (as the socket says when it drops)
        conn = page.locator(".conn-lost")        # (the banner under the header says it, test_browser_ux.py)
        assert conn.is_visible() and "reconnecting" in conn.inner_text().lower()
        cb = conn.bounding_box()
        assert cb["x"] + cb["width"] <= width, cb
        shot(page, "phone-header-deadline-reconnecting.png")
    finally:
        page.context.close()


def test_trades_with_leaders_and_a_purge_with_spoils_are_built_in_the_orders_panel(browser, server):
    """Issue 16's order builders beyond moves: in the pre-season trades Anna and Boris each build
    the same exchange in the Trades card (a leader of each hand, and a Politburo marker from Anna),
    the mirror orders the Gamesmaster matches (postal [4.2], 004 [15.33]); when both have sent
    their sheets the report says the trade is made and the leaders have changed hands. Then in
    the First Phase Anna builds a purge with the spoils she wants (004 [11.31]) and a conditional
    counterpurge; the engine's check judges every order the panel wrote (none is a malformed
    order)."""
    g = http(server, "POST", "/api/games", {"mode": "postal", "players": 5, "bot_seats": ["C", "D", "E"], "seed": 3,
                                            "deadline": "1h"})
    gid = g["game"]
    a = http(server, "POST", f"/api/games/{gid}/join", {"name": "Anna"})
    b = http(server, "POST", f"/api/games/{gid}/join", {"name": "Boris"})
    pa, pb = new_page(browser), new_page(browser)
    try:
        open_seat(pa, server, gid, a["token"], "A", "Anna")
        open_seat(pb, server, gid, b["token"], "B", "Boris")
        hands = pa.evaluate("() => window.rcwApp.st.view.hands")
        leader = lambda seat: next(u for u in hands[seat] if 151 <= u < 200)   # noqa: E731  (the leaders' ids)
        mine, theirs = leader("A"), leader("B")

        def build(page, other: str, give: int, take: int, give_politburo: int, take_politburo: int) -> None:
            card = page.locator(".trade-card")
            card.locator("summary").click()
            card.locator('select[aria-label="With"]').select_option(other)
            card.locator('select[aria-label="Give leaders"]').select_option(str(give))
            card.locator('select[aria-label="Take leaders"]').select_option(str(take))
            card.locator('input[aria-label="Give Politburo"]').fill(str(give_politburo))
            card.locator('input[aria-label="Take Politburo"]').fill(str(take_politburo))
            card.locator('[data-act="add-trade"]').click()
            page.wait_for_selector('.draft-order.ok[data-order="trade"]')
            page.locator('[data-act="send-sheet"]').click()     # (the second sheet closes the phase at once)
            page.wait_for_function("() => document.querySelector('.sent-badge') || window.rcwApp.st.view.postal.phase === 'first'")

        build(pa, "B", mine, theirs, 1, 0)
        text = pa.locator('.draft-order[data-order="trade"] .d-text').inner_text()
        assert text.startswith("Trade with B: give ") and "1 Politburo" in text, text
        build(pb, "A", theirs, mine, 0, 1)
        for p in (pa, pb):
            p.wait_for_function("() => window.rcwApp.st.view.postal.phase === 'first'")
        hands = pa.evaluate("() => window.rcwApp.st.view.hands || {}")
        report = pa.locator(".report-text").inner_text()
        assert "Trade" in report or "trade" in report, report
        stacks = pa.evaluate("() => window.rcwApp.st.view.stacks")
        owner = {u: s["owner"] for s in stacks for u in s["units"]}
        held = {u: seat for seat, us in hands.items() for u in us}
        assert (owner.get(theirs) or held.get(theirs)) == "A" and (owner.get(mine) or held.get(mine)) == "B"
        # First Phase: a purge of C with the spoils wanted, and a conditional counterpurge
        card = pa.locator(".purge-card")
        card.locator("summary").click()
        card.locator('select[aria-label="Target"]').select_option("C")
        pa.wait_for_selector('.purge-card select[aria-label="Spoils"][data-ready="1"]')
        # the spoils offered are the engine's: a Politburo marker and C's Red leaders on the map
        # (QA was offered White ones, 004 [11.31])
        offered = card.locator('select[aria-label="Spoils"] option').evaluate_all("(os) => os.map((o) => Number(o.value))")
        reds = pa.evaluate("""async () => { const { unit } = await import('/js/data.js');
            return rcwApp.st.view.stacks.filter((s) => s.owner === 'C').flatMap((s) => s.units)
              .filter((u) => unit(u).kind === 'leader' && unit(u).color === 'Red').sort((a, b) => a - b); }""")
        assert offered == [0, *reds], (offered, reds)
        card.locator('select[aria-label="Spoils"]').select_option("0")
        card.locator('[data-act="add-purge"]').click()
        card.locator('select[aria-label="Counterpurge"]').select_option("strongest")
        card.locator('[data-act="add-counterpurge"]').click()
        pa.wait_for_function("() => document.querySelectorAll('.draft-order.ok, .draft-order.bad').length === 2")
        purge = pa.locator('.draft-order[data-order="purge"]')
        assert "spoils wanted: a Politburo marker" in purge.inner_text()
        # A alone holds 3 Politburo markers (after giving one away): the purge is kept, and the
        # sheet says what the Gamesmaster would refuse as things stand (it said nothing before)
        assert "— as things stand: A holds only 3 Politburo markers; a Central Committee needs 8 (004 [11.11])" \
            in purge.inner_text(), purge.inner_text()
        for o in pa.locator(".draft-order.bad").all():      # every verdict is the engine's, with its rule
            assert re.search(r" — .+\((004|001) \[", o.inner_text()), o.inner_text()
        # the panel was drawn again after each order added: the card stayed open, as the player left it
        assert card.evaluate("(d) => d.open") and card.locator('select[aria-label="Target"]').input_value() == "C"
        draft = pa.evaluate("window.rcwApp.postal.draft")
        assert draft[0] == {"order": "purge", "target": "C", "participants": ["A"], "shares": ["A"], "take": [0]}
        assert draft[1] == {"order": "counterpurge", "target": "strongest"}
        shot(pa, "postal-builders.png")
    finally:
        pa.context.close()
        pb.context.close()


def test_on_a_phone_the_trades_card_keeps_each_number_with_its_word(browser, server):
    """QA: on a phone the Trades card's row "give [n] Politburo [n] Assassin · take ..." wrapped
    between a number and its word, the words left on lines of their own.  Each number stays
    on one line with its word, under "Give" or "Take"."""
    page, errors, _gid, _ = anna_and_boris_by_post(browser, server, players=5, phone=True)
    try:
        card = page.locator(".trade-card")        # (before the deployment a phone opens on its Orders)
        card.locator("summary").click()
        pairs = card.locator("label.pair").evaluate_all("""(ls) => ls.map((l) => {
            const c = l.querySelector('input, select').getBoundingClientRect(), b = l.getBoundingClientRect();
            const words = l.textContent.trim();
            const range = document.createRange(); range.selectNodeContents(l);
            const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top / 4)));
            return { words, inside: c.top >= b.top - 1 && c.bottom <= b.bottom + 1, height: b.height, control: c.height,
                     wide: b.right <= window.innerWidth }; })""")
        numbers = [x for x in pairs if x["words"] in ("Politburo", "Assassin")]
        assert len(numbers) == 4, pairs
        for x in numbers:                       # (one line: no taller than its number box, wholly on screen)
            assert x["inside"] and x["height"] <= x["control"] + 4 and x["wide"], x
        sides = card.locator(".trade-side > b").all_inner_texts()
        assert sides == ["Give", "Take"], sides
        card.scroll_into_view_if_needed()
        shot(page, "postal-trades-phone.png")
        assert not errors, errors
    finally:
        page.context.close()


@pytest.mark.parametrize("width", [390, 320])
def test_on_a_phone_the_trades_card_keeps_each_label_with_its_control(browser, server, width):
    """QA, at 390 and 320 px: "With" was a word beside its list, not its label; a side's numbers
    wrapped under "Give"/"Take", and the leaders' lists pushed the card past the screen's edge.
    "With" labels its list; each side's numbers stand in a column beside its word; every label
    sits on the line of its control; nothing is wider than the screen."""
    page, errors, _gid, _ = anna_and_boris_by_post(browser, server, players=5, phone=True)
    try:
        page.set_viewport_size({"width": width, "height": 844})
        card = page.locator(".trade-card")
        try:                                     # (ci-local under load once took more than 30 s to draw it,
            card.wait_for(timeout=90_000)        # and once more than 90 s: say what the page showed)
        except Exception:
            shot(page, f"trades-card-missing-{width}.png")
            state = page.evaluate("() => ({ status: document.body?.dataset.status, phase: document.body?.dataset.phase, "
                                  "conn: document.querySelector('.game')?.dataset.conn, "
                                  "tab: document.querySelector('.game')?.dataset.mtab, "
                                  "orders: (document.querySelector('.orders') || {}).textContent?.slice(0, 300), "
                                  "kinds: window.rcwApp?.st?.view?.postal?.kinds })")
            raise AssertionError(f"no Trades card: {state}; page errors {errors}") from None
        card.locator("summary").click()
        assert card.locator('label:has(select[aria-label="With"])').inner_text().strip().startswith("With")
        got = card.evaluate("""(card) => {
            const box = (e) => e.getBoundingClientRect();
            const sides = [...card.querySelectorAll('.trade-side')].map((row) => {
                const word = box(row.querySelector('b'));
                return { word: row.querySelector('b').textContent,
                         right_of_word: [...row.querySelectorAll('label.pair')].every((l) => box(l).left >= word.right - 1) };
            });
            const pairs = [...card.querySelectorAll('label')].map((l) => {
                const c = l.querySelector('input, select');
                if (!c) return null;
                const range = document.createRange();
                const text = [...l.childNodes].filter((n) => n.nodeType === 3 && n.textContent.trim());
                if (!text.length) return null;
                range.selectNodeContents(text[0]);
                const t = range.getBoundingClientRect(), b = box(c);
                return { words: text[0].textContent.trim(), together: t.bottom > b.top && t.top < b.bottom };
            }).filter(Boolean);
            return { sides, pairs, right: box(card).right, scroll: document.scrollingElement.scrollWidth };
        }""")
        card.scroll_into_view_if_needed()
        shot(page, f"postal-trades-phone-{width}.png")
        assert [x["word"] for x in got["sides"]] == ["Give", "Take"]
        assert all(x["right_of_word"] for x in got["sides"]), got["sides"]
        assert {"With", "Politburo", "Assassin"} <= {x["words"] for x in got["pairs"]}, got["pairs"]
        assert all(x["together"] for x in got["pairs"]), got["pairs"]
        assert got["right"] <= width + 1 and got["scroll"] <= width + 1, got
        assert not errors, errors
    finally:
        page.context.close()


def test_the_trade_form_is_blank_again_after_add_trade(browser, server):
    """After "Add trade" the trade is on the sheet and the Trades card is blank for the next one:
    no leader still chosen, no markers still counted (before, the leaders and numbers of the trade
    just added stayed chosen, and a second "Add trade" added the same trade again)."""
    g = http(server, "POST", "/api/games", {"mode": "postal", "players": 5, "bot_seats": ["C", "D", "E"], "seed": 3,
                                            "deadline": "1h"})
    gid = g["game"]
    a = http(server, "POST", f"/api/games/{gid}/join", {"name": "Anna"})
    http(server, "POST", f"/api/games/{gid}/join", {"name": "Boris"})
    page = new_page(browser)
    try:
        open_seat(page, server, gid, a["token"], "A", "Anna")
        hands = page.evaluate("() => window.rcwApp.st.view.hands")
        mine = next(u for u in hands["A"] if 151 <= u < 200)       # (the leaders' ids)
        theirs = next(u for u in hands["B"] if 151 <= u < 200)
        card = page.locator(".trade-card")
        card.locator("summary").click()
        card.locator('select[aria-label="With"]').select_option("B")
        card.locator('select[aria-label="Give leaders"]').select_option(str(mine))
        card.locator('select[aria-label="Take leaders"]').select_option(str(theirs))
        card.locator('input[aria-label="Give Politburo"]').fill("1")
        card.locator('[data-act="add-trade"]').click()
        page.wait_for_selector('.draft-order[data-order="trade"]')
        assert page.evaluate("window.rcwApp.postal.draft")[0] == {
            "order": "trade", "with": "B", "give_leaders": [mine], "give_politburo": 1, "give_assassins": 0,
            "take_leaders": [theirs], "take_politburo": 0, "take_assassins": 0}
        # the card is still open, with nothing chosen in it but the partner
        assert card.evaluate("(d) => d.open")
        for label in ("Give leaders", "Take leaders"):
            assert card.locator(f'select[aria-label="{label}"] option:checked').count() == 0, label
        for label in ("Give Politburo", "Give Assassins", "Take Politburo", "Take Assassins"):
            assert card.locator(f'input[aria-label="{label}"]').input_value() == "0", label
        assert card.locator('select[aria-label="With"]').input_value() == "B"
    finally:
        page.context.close()


def test_a_stacks_move_takes_its_other_leaders_and_the_sheet_says_when_it_changed_since_sent(browser, server):
    """Found in a QA game (seed 4: Anna's SMOL stack holds Slavin, Zinoviev and RU6 SMOL under
    Zinoviev).  Clicking the stack plotted Slavin's move alone: Zinoviev and his unit stayed
    behind while the card offered to drop them on the way (a drop the engine refused), and it
    offered to pick up leaders elsewhere (refused: a leader joins a force where it starts, 004
    [5.26]).  Now the stack's other leaders move with it (``join``; a box to leave one behind),
    what the force carries is what it offers to drop, and no leader is offered as a pick-up.
    Then the sheet: changed after it was sent, it no longer says "sent" but that the sheet sent
    counts; sent by the last player whose sheet is out, it says the phase is carried out at once,
    and asks first when orders of it are refused.  (And the assassination card says how many
    Assassin markers the player holds.)"""
    from rcw.data import default

    d = default()
    uid = {d.units[u].label: u for u in d.units}
    slavin, zinoviev, ru6 = uid["RL1 Slavin"], uid["RL2 Zinoviev"], uid["RU6 SMOL"]
    page, errors, gid, boris_sends = anna_and_boris_by_post(browser, server, players=5)
    try:
        page.locator('[data-act="send-sheet"]').wait_for()
        assert page.locator(".last-note").count() == 0                # (Boris's sheet is out too)
        boris_sends()
        page.locator(".last-note").wait_for()                         # Anna's is the last
        page.locator('[data-act="send-sheet"]').click()               # (an empty sheet: nothing refused, no question)
        page.wait_for_function("() => window.rcwApp.st.view.postal.phase === 'first'")
        # (the assassination card says how many Assassin markers Anna holds: none)
        assert page.evaluate("() => rcwApp.st.view.assassins.A") == 0
        page.locator(".assassin-card summary").click()
        assert page.locator(".assassin-card .held").inner_text() == "You hold 0 Assassin markers now."
        # the First Phase: Anna clicks her SMOL stack
        st = page.evaluate(f"() => rcwApp.st.view.stacks.find((s) => s.units.includes({slavin}))")
        assert st["province"] == "SMOL" and set(st["units"]) == {slavin, zinoviev, ru6}
        page.evaluate("window.rcwApp.board.centreOn('SMOL', true)")
        page.locator(f'svg g[data-stack="{st["id"]}"]').first.click()
        page.wait_for_function("() => window.rcwApp.postal.plot && window.rcwApp.postal.plot.routes")
        card = page.locator(".plot-card.plotting")
        assert card.locator(f'input[data-join="{zinoviev}"]').is_checked()
        assert "Zinoviev" in card.locator(".joins").inner_text() and "RU6 SMOL" in card.locator(".joins").inner_text()
        drops = lambda: {int(x) for x in card.locator("select[data-drop]").evaluate_all("(ss) => ss.map((s) => s.dataset.drop)")}  # noqa: E731
        # (no drop in SMOL for Zinoviev: unticking him leaves him there; his unit may stay as he goes)
        assert drops() == {ru6}
        card.locator(f'input[data-join="{zinoviev}"]').set_checked(False)          # (left behind)
        page.wait_for_function(f"() => !window.rcwApp.postal.plot.join.includes({zinoviev}) && !window.rcwApp.postal.plot.busy")
        card.locator(f'input[data-join="{zinoviev}"]').set_checked(True)
        page.wait_for_function(f"() => window.rcwApp.postal.plot.join.includes({zinoviev}) && !window.rcwApp.postal.plot.busy")
        picks = card.locator("input[data-pick]").evaluate_all("(ps) => ps.map((p) => Number(p.dataset.pick))")
        assert not [u for u in picks if d.units[u].is_leader], picks
        routes = page.evaluate("() => window.rcwApp.postal.plot.routes")
        dest = sorted(k for k, r in routes.items() if len(r["path"]) == 1)[0]
        page.locator(f'svg g.reach-target[data-province="{dest}"]').first.click()
        page.wait_for_function(f"() => document.body?.dataset.plotPath === {dest!r}")
        # on the way, the two may be dropped (in {dest}, not in SMOL)
        page.wait_for_function("() => document.querySelectorAll('.plot-card select[data-drop]').length === 2")
        assert drops() == {zinoviev, ru6}
        places = {int(s): card.locator(f'select[data-drop="{s}"] option').evaluate_all("(os) => os.map((o) => o.value)")
                  for s in (zinoviev, ru6)}
        assert places == {zinoviev: ["", dest], ru6: ["", "SMOL", dest]}, places
        # the map says a move is being plotted, and how far (on a phone, the Orders tab is elsewhere)
        page.wait_for_function(f"() => (document.querySelector('.map-prompt[data-plotting]') || {{}}).textContent"
                               f"?.includes('Plotting Slavin\\'s move: SMOL→{dest}')")
        page.locator('[data-act="add-move"]').click()
        page.wait_for_selector(".draft-order.ok")
        assert page.locator(".map-prompt[data-plotting]").count() == 0
        # (QA: a draft never sent went at the deadline without a word: the sheet says it is not sent)
        assert "Not sent yet" in page.locator(".sheet-card .unsent-badge.never").inner_text()
        order = page.evaluate("() => window.rcwApp.postal.draft[0]")
        assert order["unit"] == slavin and order["join"] == [zinoviev], order
        # (its route from where it stands: QA read "VOLO–KOST" as a move from Vologda)
        assert f"(with Zinoviev): SMOL–{dest} overland" in page.locator(".draft-order .d-text").inner_text()
        # sent; then changed: the page says the sheet sent counts until it is sent again
        page.locator('[data-act="send-sheet"]').click()
        page.wait_for_selector(".sent-badge")
        assert page.locator(".unsent-badge").count() == 0
        page.locator('[data-act="delete-order"]').click()
        page.locator(".unsent-badge").wait_for()
        assert page.locator(".sent-badge").count() == 0
        page.evaluate(f"() => window.rcwApp.postal.add({json.dumps(order)})")     # (the move again, as sent)
        page.wait_for_selector(".sent-badge")
        assert page.locator(".unsent-badge").count() == 0
        boris_sends()                                                 # (the phase is carried out: the three move)
        page.wait_for_function("() => window.rcwApp.st.view.postal.phase === 'second'")
        moved = page.evaluate(f"() => rcwApp.st.view.stacks.find((s) => s.units.includes({slavin}))")
        assert moved["province"] == dest and {zinoviev, ru6} <= set(moved["units"]), moved
        # the Second Phase's cards are those of the order kinds the engine offers (postal [4.2]):
        # attacks and a purge, no moves; where it offers no purge (after one in the First Phase,
        # rcw.postal.sheets.open_kinds) the panel has no Purge card
        kinds = page.evaluate("() => rcwApp.st.view.postal.kinds")
        assert {"attack", "purge"} <= set(kinds) and "move" not in kinds, kinds
        page.locator(".attack-card").wait_for()
        assert page.locator(".purge-card").count() == 1 and page.locator(".plot-card").count() == 0
        page.evaluate("() => { const v = rcwApp.st.view; v.postal.kinds = v.postal.kinds.filter((k) => k !== 'purge');"
                      " rcwApp.render(); }")
        page.wait_for_function("() => !document.querySelector('.purge-card') && document.querySelector('.attack-card')")
        # the Second Phase: Boris sends first; Anna's sheet holds an order the engine refuses
        boris_sends()
        page.locator(".last-note").wait_for()
        page.evaluate(f"() => window.rcwApp.postal.add({{ order: 'attack', attackers: [{slavin}], target: 99999 }})")
        page.wait_for_selector(".draft-order.bad")
        # (its edit dialog keeps a text that is no JSON, with the reason, instead of losing it)
        page.locator('.draft-order.bad [data-act="edit-order"]').click()
        page.locator(".modal textarea.order-json").fill('{"order": "attack", "target": 99999,')
        page.locator('.modal [data-act="keep-order"]').click()
        assert "Not an order yet" in page.locator(".modal .order-json-error").inner_text()
        assert page.locator(".modal textarea.order-json").input_value().endswith("99999,")
        page.locator(".modal .btn", has_text="Cancel").click()
        page.locator('[data-act="send-sheet"]').click()
        page.locator(".modal").wait_for()
        assert "cannot be changed after" in page.locator(".modal").inner_text()
        page.locator(".modal .btn", has_text="Keep editing").click()
        page.evaluate("() => rcwApp.conn.request('ping', {})")       # (a round trip: a send would be in by now)
        assert page.evaluate("window.rcwApp.st.view.postal.phase") == "second"
        page.locator('[data-act="send-sheet"]').click()
        page.locator('.modal [data-act="confirm-send"]').click()
        page.wait_for_function("() => window.rcwApp.st.view.postal.phase !== 'second'")
        assert not errors, errors
    finally:
        page.context.close()


def first_phase(browser, server, seed: int = 4):
    """A postal game of seed ``seed`` in its First Phase, Anna's (A) page open on it (Boris, B,
    sent his empty sheet; bots in C, D and E): (the page, the list its page errors go to)."""
    page, errors, gid, boris_sends = anna_and_boris_by_post(browser, server, players=5, seed=seed, deadline=None)
    boris_sends()
    send = page.locator('[data-act="send-sheet"]')
    try:                                 # (ci-local once waited 30 s for it in vain: say what the page showed)
        send.wait_for(timeout=60_000)
    except Exception:
        shot(page, "first-phase-no-send.png")
        state = page.evaluate("() => ({ status: document.body?.dataset.status, conn: document.querySelector('.game')?.dataset.conn,"
                              " pending: rcwApp.st.pending, phase: rcwApp.st.view && rcwApp.st.view.postal })")
        raise AssertionError(f"no Send button: {state}; page errors {errors}") from None
    send.click()
    page.wait_for_function("() => (window.rcwApp.postal.draftKey || '').endsWith(':first')")   # (its panel drawn)
    return page, errors


def test_a_new_phase_opens_the_orders_pane_at_its_top(browser, server):
    """QA: after an adjudication the Orders pane kept its scroll, deep in the report: the new
    phase's title and its sheet's Send button were out of view.  A phase that closes while the
    page is open brings the pane back to its top."""
    page, errors, gid, boris_sends = anna_and_boris_by_post(browser, server, players=5, seed=4, deadline=None)
    try:
        boris_sends()
        send = page.locator('[data-act="send-sheet"]')
        send.wait_for(timeout=60_000)
        send.click()                                         # (the Trading Phase's sheet: the First Phase opens)
        page.wait_for_function("() => (window.rcwApp.postal.draftKey || '').endsWith(':first')")
        page.wait_for_function("() => { const p = document.querySelector('.orders-pane'); "
                               "p.scrollTop = p.scrollHeight; return p.scrollTop > 100; }")   # (read down to the report's end)
        boris_sends()
        page.locator('[data-act="send-sheet"]').click()       # (the last sheet: the Second Phase opens at once)
        page.wait_for_function("() => (window.rcwApp.postal.draftKey || '').endsWith(':second')")
        # (the pane at its top and its first card in view, read in one go: a frame that comes
        # meanwhile redraws the pane, and a card read apart from its pane may be between two)
        got = page.wait_for_function("""() => { const p = document.querySelector('.orders-pane');
            const c = [...p.querySelectorAll('.card')].find((e) => e.getClientRects().length);
            if (p.scrollTop !== 0 || !c) return null;
            const a = p.getBoundingClientRect(), b = c.getBoundingClientRect();
            return { pane: [a.y, a.height], title: b.y }; }""").json_value()
        (top, height), title = got["pane"], got["title"]
        assert top - 1 <= title < top + height, got
        assert not errors, errors
    finally:
        page.context.close()


def _off_the_map_view(page, seat: str) -> list[str]:
    """The provinces holding ``seat``'s stacks whose box lies outside the map's visible part."""
    return page.evaluate("""(seat) => {
        const svg = document.querySelector('svg.board'), r = svg.getBoundingClientRect();
        const provs = new Set(rcwApp.st.view.stacks.filter((s) => s.owner === seat).map((s) => s.province));
        return [...provs].filter((p) => {
            const b = svg.querySelector(`g.province[data-province="${p}"]`).getBoundingClientRect();
            return b.left < r.left || b.right > r.right || b.top < r.top || b.bottom > r.bottom; }); }""", seat)


def test_on_a_desktop_the_opening_map_takes_in_every_stack_of_the_player(browser, server):
    """QA: on a desktop the map opened on European Russia, and a postal player's stacks in Siberia
    lay outside it, found only by dragging the map.  The opening view widens to take them in
    (while the player has not moved the map himself)."""
    page, errors = first_phase(browser, server)
    try:
        far = page.evaluate("() => rcwApp.st.view.stacks.filter((s) => s.owner === 'A').map((s) => s.province)")
        boxes = page.evaluate("(ps) => ps.map((p) => rcwApp.board.boxes[p].x)", far)
        assert max(boxes) > 1000, far           # (seed 4: Anna holds a stack east of the opening view's edge)
        assert _off_the_map_view(page, "A") == []
        shot(page, "postal-opening-view.png")
        page.reload()                            # (opened again: the same)
        page.wait_for_function("() => window.rcwApp && rcwApp.st.view && rcwApp.st.view.stacks.length")
        page.wait_for_timeout(300)
        assert _off_the_map_view(page, "A") == []
        assert not errors, errors
    finally:
        page.context.close()


def test_the_move_plotter_follows_a_far_ring_and_rings_where_the_force_may_go_on_to(browser, server):
    """The rings of a plotted move are the engine's answer for the whole force from where its path
    leaves it (``check``'s offers: who joins counts, and what the path has spent): before, they
    were the leader's alone and only before the first step.  A ring further than the next
    province takes the engine's route there, every step of it."""
    page, errors = first_phase(browser, server)
    try:
        st = page.evaluate("() => rcwApp.st.view.stacks.find((s) => s.owner === 'A' && s.province === 'SMOL')")
        page.evaluate("window.rcwApp.board.centreOn('SMOL', true)")
        page.locator(f'svg g[data-stack="{st["id"]}"]').first.click()
        page.wait_for_function("() => window.rcwApp.postal.plot && window.rcwApp.postal.plot.routes")
        routes = page.evaluate("() => window.rcwApp.postal.plot.routes")
        far = sorted((k for k, r in routes.items() if len(r["path"]) == 2 and not r["rail"]))[0]
        page.locator(f'svg g.reach-target[data-province="{far}"]').first.click()
        want = "-".join(routes[far]["path"])
        page.wait_for_function(f"() => document.body?.dataset.plotPath === {want!r} && window.rcwApp.postal.plot.routes")
        assert page.evaluate("() => window.rcwApp.postal.plot.rail") is False
        onward = page.evaluate("() => window.rcwApp.postal.plot.routes")
        # two provinces overland spent of the leaders' five (004 [5.0]): three left, overland only (004 [5.53])
        assert onward and max(len(r["path"]) for r in onward.values()) <= 3 and not any(r["rail"] for r in onward.values())
        page.wait_for_function(f"() => document.querySelectorAll('svg g.reach-target').length === {len(onward)}")
        page.locator('[data-act="add-move"]').click()
        page.wait_for_selector(".draft-order.ok")
        order = page.evaluate("() => window.rcwApp.postal.draft[0]")
        assert order["path"] == routes[far]["path"] and not order["rail"]
        assert not errors, errors
    finally:
        page.context.close()


def test_clicks_made_while_the_engine_is_asked_wait_for_its_verdict(browser, server):
    """Found by the review: a click made while a verdict was awaited worked on the plot as it was
    before it: two quick steps left no rings; "Add to sheet" at once left the stack's other
    leader behind; Undo step, then a ring of where it stood, showed the old rings.  The plot's
    questions are now asked one at a time, each on the plot the one before left."""
    from rcw.data import default

    d = default()
    page, errors = first_phase(browser, server)
    fresh = """async () => { const P = rcwApp.postal, p = P.plot;
        const v = await P.app.conn.request("query", { q: "check", sheet: { orders: [P.plotOrder(p)] }, offers: 0 });
        return { path: p.path, shown: Object.keys(p.routes || {}).sort(),
                 fresh: Object.keys(v.answer.orders[0].offers.reach).sort() }; }"""
    try:
        st = page.evaluate("() => rcwApp.st.view.stacks.find((s) => s.owner === 'A' && s.province === 'SMOL')")
        leaders = [u for u in st["units"] if d.units[u].is_leader]
        assert len(leaders) == 2
        # "Add to sheet" before the first verdict: the stack's other leader still goes along
        page.evaluate(f"() => {{ rcwApp.postal.onStack({st['id']}, 'SMOL'); rcwApp.postal.finishPlot(); }}")
        page.wait_for_function("() => window.rcwApp.postal.draft.length === 1")
        order = page.evaluate("() => window.rcwApp.postal.draft[0]")
        assert order["join"] == [u for u in leaders if u != order["unit"]], order
        page.evaluate("() => { rcwApp.postal.draft = []; rcwApp.postal.save(); }")
        # two quick steps: both judged, the rings those of where the second leaves the force
        page.evaluate(f"() => rcwApp.postal.onStack({st['id']}, 'SMOL')")
        page.wait_for_function("() => window.rcwApp.postal.plot && window.rcwApp.postal.plot.routes")
        routes = page.evaluate("() => window.rcwApp.postal.plot.routes")
        one, two = next(r["path"] for _, r in sorted(routes.items()) if len(r["path"]) == 2 and not r["rail"])
        page.evaluate("() => { rcwApp.postal.plot = null; }")
        page.evaluate(f"() => {{ rcwApp.postal.onStack({st['id']}, 'SMOL'); rcwApp.postal.onProvince({one!r}); "
                      f"rcwApp.postal.onProvince({two!r}); }}")
        page.wait_for_function(f"() => document.body?.dataset.plotPath === '{one}-{two}' && rcwApp.postal.plot.busy === 0")
        got = page.evaluate(fresh)
        assert got["shown"] and got["shown"] == got["fresh"], got
        # Undo step and at once a ring of where it stood: judged after the undo, on its rings
        page.locator(".plot-card button", has_text="Undo step").click()
        three = next(x for x in sorted(d.provinces[one].adjacent) if x not in ("SMOL", two))
        page.evaluate(f"() => rcwApp.postal.onProvince({three!r})")
        page.wait_for_function("() => rcwApp.postal.plot.busy === 0")
        got = page.evaluate(fresh)
        assert got["path"] == [one, three] and got["shown"] == got["fresh"], got
        assert not errors, errors
    finally:
        page.context.close()


def test_a_leader_left_behind_gets_his_own_move_and_an_edit_keeps_its_place_on_the_sheet(browser, server):
    """QA of the move plotter: a stack's second click plotted its first leader again (refused:
    he had moved), so a leader left behind could not be moved; changing a move took it off the
    sheet at once (Cancel lost it) and put it back last (by post the moves are carried out in the
    sequence listed, 004 [17.0]); the map said nothing of a refused step (on a phone the Orders
    tab, which did, is elsewhere)."""
    from rcw.data import default

    d = default()
    page, errors = first_phase(browser, server)
    card = page.locator(".plot-card.plotting")
    try:
        st = page.evaluate("() => rcwApp.st.view.stacks.find((s) => s.owner === 'A' && s.province === 'SMOL')")
        first, second = [u for u in st["units"] if d.units[u].is_leader]
        page.evaluate("window.rcwApp.board.centreOn('SMOL', true)")
        # the first leader moves alone: his companion left behind
        page.locator(f'svg g[data-stack="{st["id"]}"]').first.click()
        card.locator(f'input[data-join="{second}"]').wait_for()
        card.locator(f'input[data-join="{second}"]').set_checked(False)
        page.wait_for_function("() => window.rcwApp.postal.plot.busy === 0 && !window.rcwApp.postal.plot.join.length")
        dest = sorted(k for k, r in page.evaluate("() => window.rcwApp.postal.plot.routes").items()
                      if len(r["path"]) == 1 and not r["rail"])[0]
        page.locator(f'svg g.reach-target[data-province="{dest}"]').first.click()
        page.wait_for_function(f"() => document.body?.dataset.plotPath === {dest!r} && window.rcwApp.postal.plot.busy === 0")
        page.locator('[data-act="add-move"]').click()
        page.wait_for_function("() => window.rcwApp.postal.draft.length === 1")
        # a second click on the stack (still in SMOL on the map): the leader left behind
        page.evaluate("window.rcwApp.board.centreOn('SMOL', true)")
        page.locator(f'svg g[data-stack="{st["id"]}"]').first.click()
        page.wait_for_function(f"() => window.rcwApp.postal.plot && window.rcwApp.postal.plot.unit === {second}")
        page.wait_for_function(f"() => (document.querySelector('.plot-card.plotting h3') || {{}}).textContent"
                               f"?.includes(\"Plotting {d.units[second].name}'s move\")")
        page.wait_for_function("() => window.rcwApp.postal.plot.busy === 0 && window.rcwApp.postal.plot.routes")
        assert not card.locator(".plot-problem").count(), card.inner_text()
        routes = page.evaluate("() => window.rcwApp.postal.plot.routes")
        there = sorted(k for k, r in routes.items() if len(r["path"]) == 1 and not r["rail"])[-1]
        page.locator(f'svg g.reach-target[data-province="{there}"]').first.click()
        page.wait_for_function(f"() => document.body?.dataset.plotPath === {there!r} && window.rcwApp.postal.plot.busy === 0")
        page.locator('[data-act="add-move"]').click()
        page.wait_for_function("() => window.rcwApp.postal.draft.length === 2")
        sheet = page.evaluate("() => window.rcwApp.postal.draft")
        assert [o["unit"] for o in sheet] == [first, second] and sheet[1]["path"] == [there], sheet
        # a third click on the stack, both its leaders' moves on the sheet: the first's order opens
        # for a change (QA: a plot the engine refused, "has already moved", and no Add)
        page.evaluate("window.rcwApp.board.centreOn('SMOL', true)")
        page.locator(f'svg g[data-stack="{st["id"]}"]').first.click()
        page.wait_for_function("() => (document.querySelector('.plot-card.plotting h3') || {}).textContent"
                               "?.startsWith('Changing order #1')")
        page.wait_for_function("() => window.rcwApp.postal.plot && window.rcwApp.postal.plot.busy === 0")
        assert not card.locator(".plot-problem").count(), card.inner_text()
        card.locator(".btn", has_text="Cancel").click()
        assert page.evaluate("() => window.rcwApp.postal.draft") == sheet
        # change order #1, then Cancel: the sheet as it was
        page.locator('.draft-order[data-index="0"] [data-act="edit-order"]').click()
        page.wait_for_function("() => window.rcwApp.postal.plot && window.rcwApp.postal.plot.busy === 0")
        page.wait_for_function("() => (document.querySelector('.plot-card.plotting h3') || {}).textContent"
                               "?.startsWith('Changing order #1')")
        card.locator(".btn", has_text="Cancel").click()
        assert page.evaluate("() => window.rcwApp.postal.draft") == sheet
        # change it again, and add it: it keeps its place (#1)
        page.locator('.draft-order[data-index="0"] [data-act="edit-order"]').click()
        page.wait_for_function("() => window.rcwApp.postal.plot && window.rcwApp.postal.plot.busy === 0")
        card.locator(".btn", has_text="Undo step").click()
        page.wait_for_function("() => window.rcwApp.postal.plot.busy === 0 && !window.rcwApp.postal.plot.path.length")
        page.locator('[data-act="add-move"]').click()
        page.wait_for_function("() => !window.rcwApp.postal.plot")
        now = page.evaluate("() => window.rcwApp.postal.draft")
        assert [o["unit"] for o in now] == [first, second] and now[0]["path"] == [] and now[1] == sheet[1], now
        # changing #2 while #1 is deleted (review): the change lands on the order it changes, now #1
        page.locator('.draft-order[data-index="1"] [data-act="edit-order"]').click()
        page.wait_for_function("() => window.rcwApp.postal.plot && window.rcwApp.postal.plot.busy === 0")
        page.locator('.draft-order[data-index="0"] [data-act="delete-order"]').click()
        page.wait_for_function("() => window.rcwApp.postal.draft.length === 1")
        page.wait_for_function("() => (document.querySelector('.plot-card.plotting h3') || {}).textContent"
                               "?.startsWith('Changing order #1')")
        card.locator(".btn", has_text="Undo step").click()
        page.wait_for_function("() => window.rcwApp.postal.plot.busy === 0 && !window.rcwApp.postal.plot.path.length")
        page.locator('[data-act="add-move"]').click()
        page.wait_for_function("() => !window.rcwApp.postal.plot")
        now = page.evaluate("() => window.rcwApp.postal.draft")
        assert [(o["unit"], o["path"]) for o in now] == [(second, [])], now
        assert not errors, errors
    finally:
        page.context.close()


def test_the_last_sheet_of_a_phase_is_sent_without_a_false_refusal(browser, server):
    """QA: the last sheet of a phase closes it at once, and the update that opens the next phase
    reached the page before the reply to the sheet; the page, on the new phase already, showed
    "Refused: Cannot set properties of null" (its own error) though the sheet was taken and the
    phase carried out.  Now it says the sheet was sent and the phase carried out."""
    page, errors, gid, boris_sends = anna_and_boris_by_post(browser, server)
    try:
        keep_toasts(page)
        for _ in range(2):                                            # (the trading session, then a First Phase)
            page.locator('[data-act="send-sheet"]').wait_for()
            phase = page.evaluate("() => [rcwApp.st.view.turn, rcwApp.st.view.postal.phase]")
            boris_sends()
            page.locator(".last-note").wait_for()                     # Anna's is the last
            page.locator('[data-act="send-sheet"]').click()
            page.wait_for_function("(p) => JSON.stringify([rcwApp.st.view.turn, rcwApp.st.view.postal.phase]) !== JSON.stringify(p)",
                                   arg=phase)
            toast_text(page, "ok")
            toasts = page.evaluate("window.__toasts")
            assert not [t["text"] for t in toasts if "error" in t["cls"]], toasts
            assert any("Sheet sent" in t["text"] and "carried out" in t["text"] for t in toasts), toasts
            assert page.evaluate("() => rcwApp.lastError") is None
            page.evaluate("() => { window.__toasts = []; }")
        assert not errors, errors
    finally:
        page.context.close()


def test_every_order_kind_reads_in_words_on_the_sheet(browser, server):
    """QA: orders of several kinds read as raw JSON with unit numbers on the sheet
    (`merge {"unit":154,"into":153}`, `execute_czar {"participants":["A","B"]}`).  Every kind the
    engine knows (rcw.postal.KINDS) is said in words, its units by name."""
    from rcw.data import default
    from rcw.postal import KINDS

    d = default()
    lenin, gold = d.by_name("Lenin").id, d.gold
    sample = {"int": lenin, "nat": 1, "pos": 1, "bool": True, "str": "B", "ints": [lenin], "strs": ["A", "B"],
              "places": {"TVER": [lenin]}, "nat?": 2}
    orders = [{"order": k, **{f: (gold if f == "unit" and k in ("transfer", "emigrate") else sample[t])
                              for f, (t, _) in fields.items()}} for k, (_, _, fields) in KINDS.items()]
    page = new_page(browser)
    try:
        page.goto(server + "/")
        got = page.evaluate("""async (orders) => { const { loadData } = await import("/js/data.js"); await loadData();
          const { describe } = await import("/js/postal.js"); return orders.map(describe); }""", orders)
        for o, text in zip(orders, got, strict=True):
            assert "{" not in text and "[" not in text and not text.startswith(o["order"] + " "), (o, text)
            if any(t in ("int", "ints") for t, _ in KINDS[o["order"]][2].values()) and o["order"] not in ("draws",):
                assert "Lenin" in text or "Gold" in text, (o, text)
    finally:
        page.context.close()


def test_each_kind_of_verdict_on_a_draft_order_reads_for_its_order(browser, server):
    """A kept order the engine warns about read as a move's, whatever its kind: an attack that a
    stack cannot join said "stops where it is", as would a purge short of a Committee.  Now a
    move says where it stops, an attack the step refused, a purge "as things stand"."""
    page = new_page(browser)
    try:
        page.goto(server + "/")
        got = page.evaluate("""async () => { const { loadData } = await import("/js/data.js"); await loadData();
          const { verdictHead } = await import("/js/postal.js");
          return [verdictHead({ order: "move", path: ["TVER", "MOSC"] }, { ok: true, step: "the move TVER->MOSC", path: ["TVER"] }),
                  verdictHead({ order: "move", path: ["NOVG"] }, { ok: true, step: "going on from PETR", path: [] }),
                  verdictHead({ order: "move", path: ["NOVG", "PSKO"] }, { ok: true, step: "picking up RU3 PSKO in PSKO", path: ["NOVG", "PSKO"] }),
                  verdictHead({ order: "attack" }, { ok: true, step: "the stack of Trotsky" }),
                  verdictHead({ order: "purge" }, { ok: true, step: "as things stand" }),
                  verdictHead({ order: "attack" }, { ok: false })]; }""")
        assert got[0] == "stops in Tver" and got[1] == "stops where it is", got
        assert got[2] == "picking up RU3 PSKO in PSKO", got          # (the force got there: QA read "stops in Pskov")
        assert got[3:] == ["the stack of Trotsky", "as things stand", "refused"], got
    finally:
        page.context.close()


def test_on_a_phone_plotting_a_move_folds_the_province_panel(browser, server):
    """QA: on a phone, a tap on a stack began its move and opened the province panel over the
    lower half of the map; rings under it could not be tapped.  While a move is plotted on a
    phone the panel is folded to its head (a tap on ▸ unfolds it for this move)."""
    page, errors, gid, boris_sends = anna_and_boris_by_post(browser, server, phone=True)
    try:
        boris_sends()
        page.evaluate("() => rcwApp.postal.send()")                  # (the trading session: an empty sheet)
        page.wait_for_function("() => window.rcwApp.st.view.postal.phase === 'first'")
        page.evaluate("() => rcwApp.setTab('map')")
        st = page.evaluate("() => window.rcwApp.st.view.stacks.find((s) => s.owner === 'A' && s.units.length > 1)")
        page.evaluate(f"window.rcwApp.board.centreOn({st['province']!r}, true)")
        page.locator(f'svg g[data-stack="{st["id"]}"]').first.tap()
        page.wait_for_function("() => window.rcwApp.postal.plot && window.rcwApp.postal.plot.routes")
        insp = page.locator(".inspector")
        if insp.is_visible():
            assert insp.get_attribute("data-folded") == "1"
            assert insp.bounding_box()["height"] < 0.15 * page.viewport_size["height"], insp.bounding_box()
            # the plotting prompt stays in view, above the folded head and clear of it (QA: under it)
            prompt = page.locator(".map-prompt[data-plotting]")
            assert prompt.is_visible(), "the plotting prompt is hidden"
            p, i = prompt.bounding_box(), insp.bounding_box()
            assert p["y"] + p["height"] <= i["y"], (p, i)
            assert page.evaluate("""() => { const b = document.querySelector('.map-prompt').getBoundingClientRect();
                const e = document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2);
                return !!e && !!e.closest('.map-prompt'); }""")
            insp.locator('[data-act="fold-inspector"]').tap()            # (unfolded on asking, for this move)
            page.wait_for_function("() => document.querySelector('.inspector').dataset.folded === '0'")
        shot(page, "phone-postal-plotting.png")
        assert not errors, errors
    finally:
        page.context.close()


def test_the_chats_propose_menu_offers_a_trade_by_post_and_shows_the_bots_answer(browser, server):
    """QA: in a postal game the chat's Propose menu offered Central Committee…, which the server
    refused (by post a purge is an order on each one's sheet): the menu leaves it out and says so.
    It offers a trade (postal [4.2]: made when both sheets hold the matching orders): Anna
    proposes a gift to the SDT bot C, whose valuation always accepts a gift; its answer shows on
    the card, with a button that adds Anna's side to her sheet's draft."""
    page, errors, gid, boris_sends = anna_and_boris_by_post(browser, server, bots="sdt")
    try:
        page.wait_for_function("() => (rcwApp.st.view.postal.submitted || []).includes('C')")
        page.click('.dtabs .dtab[data-tab="talk"]')
        page.click('[data-act="propose-menu"]')
        menu = page.locator(".propose-menu")
        assert menu.locator('[data-act="propose-pact"]').is_visible()
        assert not menu.locator('[data-act="committee-dialog"]').is_visible()
        assert "a trade is made when both sheets hold the matching orders" in menu.locator(".postal-propose").inner_text()
        menu.locator('[data-act="propose-trade"]').click()
        page.locator('.trade-dialog [data-to="C"]').click()
        assert "By post" in page.locator(".trade-dialog .post-hint").inner_text()
        page.locator('.trade-dialog [data-field="give_politburo"]').fill("1")
        page.locator('[data-act="post-trade"]').click()
        page.locator('.proposal[data-kind="trade"]').last.wait_for()
        # (Anna's card, by its message: C's own cards by post come later, the next phase's gifts)
        mid = page.locator('.proposal[data-kind="trade"]').last.get_attribute("data-msg")
        card = page.locator(f'.proposal[data-kind="trade"][data-msg="{mid}"]')
        assert "Trade by post" in card.locator(".proposal-title").inner_text()
        assert "A gives 1 Politburo" in card.inner_text()
        card.locator(".ans.yes").wait_for(timeout=10_000)          # C's answer, on the card
        reply = page.locator(".msg-list li", has_text="C accepts the trade by post").last
        assert "a gift is always welcome" in reply.inner_text()
        add = card.locator('[data-act="add-post-trade"]')
        add.click()
        card.locator(".on-sheet").wait_for()
        draft = page.evaluate("() => rcwApp.postal.draft")
        assert {"order": "trade", "with": "C", "give_politburo": 1} .items() <= draft[-1].items(), draft
        # the phase adjudicated, the card points to its report (QA: "Agreed: the trade is made ... if"
        # stayed on it turns later)
        phase = page.evaluate("() => rcwApp.st.view.postal.phase")
        page.locator('[data-act="send-sheet"]').click()
        boris_sends()
        page.wait_for_function(f"() => rcwApp.st.view.postal.phase !== {phase!r}")
        note = card.locator(".post-note")
        note.filter(has_text="Adjudicated (Game-Turn 1, the pre-season trades): its report tells whether the trade was made").wait_for()
        assert "Agreed" not in note.inner_text() and card.locator('[data-act="add-post-trade"]').count() == 0
        assert not errors, errors
    finally:
        page.context.close()


#: Trades Anna proposes to C (her side first), tried in turn until C's valuation counters one.
COUNTER_CANDIDATES = [{"take_politburo": 1}, {"give_politburo": 1, "take_politburo": 1}, {"give_politburo": 1, "take_assassins": 1},
                      {"give_politburo": 2, "take_politburo": 1},
                      {"give_assassins": 1, "take_politburo": 1}, {"give_politburo": 1, "take_politburo": 2}]


def test_a_bots_counter_offer_by_post_is_a_card_the_player_accepts_and_adds_to_her_sheet(browser, server):
    """Where the SDT bot would counter a live trade it makes a counter-offer by post (postal
    [4.2]): its card, linked to Anna's proposal, with Accept; once she accepts, the card says the
    bot's sheet holds its order and offers to add hers to her draft (before, the bot only said
    "propose a little more")."""
    page, errors, gid, _ = anna_and_boris_by_post(browser, server, bots="sdt")
    try:
        page.wait_for_function("() => (rcwApp.st.view.postal.submitted || []).includes('C')")
        page.click('.dtabs .dtab[data-tab="talk"]')
        asked = None
        for terms in COUNTER_CANDIDATES:          # (sent as the page's own chat requests: the card is the subject)
            mid = page.evaluate("""async (p) => { try { return (await rcwApp.conn.request('chat',
                {channel: 'A-C', text: '', proposal: p})).msg.id; } catch (e) { return null; } }""",
                                {"kind": "trade", "to": "C", **terms})
            if mid is None:
                continue                          # (markers one of them does not hold)
            page.wait_for_function("""(id) => [...rcwApp.chat.channels.get('A-C').msgs.values()]
                .some((m) => m.reply && m.reply.msg === id)""", arg=mid, timeout=15_000)
            text = page.evaluate("""(id) => [...rcwApp.chat.channels.get('A-C').msgs.values()]
                .find((m) => m.reply && m.reply.msg === id).text""", mid)
            if "counters" in text:
                asked = mid
                break
        assert asked is not None, "C's valuation counters none of the candidates"
        page.evaluate("() => rcwApp.chat.show('A-C')")
        card = page.locator(f'.proposal.counter[data-counter="{asked}"]')
        card.wait_for(timeout=10_000)
        assert "Trade by post" in card.locator(".proposal-title").inner_text()
        assert "By post: made only if both sheets hold the matching orders" in card.inner_text()
        card.locator('[data-act="accept"]').click()
        card.locator('[data-act="add-post-trade"]').wait_for(timeout=10_000)
        assert "(C's sheet holds its order)" in card.inner_text()
        card.locator('[data-act="add-post-trade"]').click()
        card.locator(".on-sheet").wait_for()
        mine = page.evaluate(f"() => rcwApp.chat.channels.get('A-C').msgs.get({int(card.get_attribute('data-msg'))}).proposal.post.orders.A")
        assert page.evaluate("() => rcwApp.postal.draft")[-1] == mine
        page.wait_for_function("""() => (rcwApp.st.view.postal.submitted || []).includes('C')""")
        assert not errors, errors
    finally:
        page.context.close()


def test_the_order_kinds_without_a_card_of_their_own_are_written_in_more_orders(browser, server):
    """QA: the Czar's execution, the compliance with it, the end-game vote, the answer to a
    redraw and other order kinds could be written only by editing an order's JSON.  The "More
    orders" card offers every kind of the phase without a card of its own (the engine's kinds and
    fields, data.json ``postal_orders``; 001's only in games with their option), as a form."""
    page, errors = first_phase(browser, server)
    try:
        # (and the header shows no Player-Turn order, the trades card no pre-season rule: QA)
        assert page.locator(".seq-order").inner_text() == "all players at once, by post"
        assert page.locator(".seq-order .seq-seat").count() == 0
        assert page.locator(".trade-card summary").inner_text() == "Trades (postal [4.2])"
        card = page.locator(".more-card")
        card.locator("summary").click()
        offered = card.locator('select[aria-label="Order"] option').evaluate_all("(os) => os.map((o) => o.value)")
        assert offered == ["steal", "merge", "transfer", "emigrate", "czech_exit", "execute_czar", "comply_execution",
                           "redraw"], offered
        # every kind's form within the card (QA: the kind's and the units' lists ran past the panel's edge)
        for k in offered:
            card.locator('select[aria-label="Order"]').select_option(k)
            out = card.evaluate("""(c) => { const r = c.getBoundingClientRect();
                return [...c.querySelectorAll('select, input, button, label')].filter((e) => {
                  const b = e.getBoundingClientRect(); return b.width && (b.right > r.right + 0.5 || b.left < r.left - 0.5); })
                  .map((e) => e.outerHTML.slice(0, 60)); }""")
            assert not out, (k, out)
        card.locator('select[aria-label="Order"]').select_option("merge")
        card.scroll_into_view_if_needed()
        shot(page, "postal-more-orders.png")
        card.locator('select[aria-label="Order"]').select_option("comply_execution")
        assert "postal [13.5]" in card.inner_text()
        card.locator('.more-fields input[type="checkbox"]').uncheck()          # (refuse it)
        card.locator('[data-act="add-more"]').click()
        page.wait_for_selector('.draft-order.ok[data-order="comply_execution"]')
        assert page.locator('.draft-order[data-order="comply_execution"] .d-text').inner_text() == \
            "If the Czar's execution is ordered: refuse it"
        card.locator('select[aria-label="Order"]').select_option("execute_czar")
        card.locator('.more-fields input[value="B"]').check()
        card.locator('[data-act="add-more"]').click()
        page.wait_for_selector('.draft-order[data-order="execute_czar"]')
        draft = page.evaluate("window.rcwApp.postal.draft")
        assert draft[-2:] == [{"order": "comply_execution", "comply": False}, {"order": "execute_czar", "participants": ["A", "B"]}], draft
        assert not errors, errors
    finally:
        page.context.close()


def test_the_more_orders_card_offers_only_the_units_the_engine_allows(browser, server):
    """QA: the unit pickers of "More orders" (a merge's, a transfer's, an emigration's, the
    Czechs' exit, a theft with the Gold) listed every unit on the map, everyone's; the player had
    to guess which the rules allow.  They list the engine's choices for the seat
    (``view.postal.choices``, ``PostalGame.order_choices``: 004 [5.41], [13.15], [13.31], [5.66],
    postal [13.26]) and no other unit; a field with none says so in words, and its order
    cannot be added."""
    page, errors = first_phase(browser, server, seed=24)        # (Anna may hand an Imperial unit over)
    try:
        card = page.locator(".more-card")
        card.locator("summary").click()
        choices = page.evaluate("() => rcwApp.st.view.postal.choices")
        on_map = page.evaluate("() => rcwApp.st.view.stacks.flatMap((s) => s.units)")
        fields = {"steal": ["unit", "leader"], "merge": ["unit", "into"], "transfer": ["unit", "to"],
                  "emigrate": ["unit"], "czech_exit": ["unit"]}
        assert set(fields) <= set(choices), choices
        for kind, names in fields.items():
            card.locator('select[aria-label="Order"]').select_option(kind)
            rows = card.locator(".more-fields .row")
            assert rows.count() == len(names)
            for i, name in enumerate(names):
                row = rows.nth(i)
                want = choices[kind][name]
                if want:
                    got = row.locator("select option").evaluate_all("(os) => os.map((o) => Number(o.value))")
                    assert sorted(got) == sorted(want), (kind, name, got, want)
                    assert set(got) < set(on_map), (kind, name)          # (the old card: every unit on the map)
                else:
                    assert row.locator("select").count() == 0, (kind, name)
                    assert row.locator(".none").inner_text().startswith(("none of your", "no ")), (kind, name)
            if any(not choices[kind][n] for n in names):
                assert card.locator('[data-act="add-more"]').is_disabled(), kind
        # a transfer the card offers, added: the engine keeps it
        assert choices["transfer"]["unit"] and choices["transfer"]["to"], choices["transfer"]
        card.locator('select[aria-label="Order"]').select_option("transfer")
        assert card.locator('[data-act="add-more"]').is_enabled()
        rows = card.locator(".more-fields .row")       # (the stacks offered are those the unit chosen may go to)
        first = int(rows.nth(0).locator("select").input_value())
        partners = rows.nth(1).locator("select option:not([disabled])").evaluate_all("(os) => os.map((o) => Number(o.value))")
        assert sorted(partners) == sorted(v for u, v in choices["transfer"]["pairs"] if u == first), (first, partners)
        shot(page, "postal-more-orders-choices.png")
        card.locator('[data-act="add-more"]').click()
        page.wait_for_selector('.draft-order.ok[data-order="transfer"]')
        assert not errors, errors
    finally:
        page.context.close()
