"""Accessibility (issue 17): axe-core (vendored in tests/vendor/, injected into the page) finds
no serious or critical violation in the lobby, a seat's game page and its panes, the map's key
and a province's stacks fanned out, the dialogs, every decision card, a finished game with its
scoreboard, Verify and the replay, on a 1280x800 desktop and a 390x844 phone, in Debian's
headless Chromium against a real ``rcw serve``.  Moderate and minor findings are printed for the
eye."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_helpers import BOTH, DESKTOP, http, new_page, open_seat, skip_reason

pytestmark = pytest.mark.skipif(skip_reason() is not None, reason=skip_reason() or "")

AXE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text(encoding="utf-8")
BLOCKING = ("serious", "critical")


def axe(page, where: str) -> list[dict]:
    """The violations axe-core finds in the page as it is now."""
    if not page.evaluate("() => !!window.axe"):
        page.add_script_tag(content=AXE)
    found = page.evaluate("""async () => (await axe.run(document, { resultTypes: ["violations"] })).violations
        .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 4).map((n) => n.target.join(" ")) }))""")
    for v in found:
        print(f"\n[{where}] {v['impact']}: {v['id']} ({v['help']}) at {v['nodes']}")
    return [v for v in found if v["impact"] in BLOCKING]


@BOTH
def test_no_serious_accessibility_violations(server, browser, phone) -> None:
    g = http(server, "POST", "/api/games", {"players": 5, "bots": "sdt", "bot_seats": ["C", "D", "E"]})
    gid = g["game"]
    j = http(server, "POST", f"/api/games/{gid}/join", {"seat": "A", "name": "Anna"})
    page = new_page(browser, phone)
    bad: list[tuple[str, dict]] = []

    def check(where: str) -> None:
        bad.extend((where, v) for v in axe(page, where))

    page.goto(server + "/")
    page.locator(".game-row").first.wait_for()
    page.click("details.options summary")
    check("lobby")
    open_seat(page, server, gid, j["token"])
    check("game")
    if phone:
        page.click('.mnav .mtab[data-tab="map"]')
    page.click('[data-act="map-key"]')                     # the map's key, and a province's stacks fanned out
    page.evaluate("""() => { const n = {}; for (const c of document.querySelectorAll('svg.board .counter')) n[c.dataset.province] = (n[c.dataset.province] || 0) + 1;
        window.rcwApp.board.fan(Object.keys(n).sort((a, b) => n[b] - n[a])[0]); }""")
    page.locator("svg.board .fan").wait_for()
    check("map key, fan")
    page.click('[data-act="map-key"]')
    page.keyboard.press("Escape")
    for tab in ("orders", "talk", "log", "players"):
        if phone:
            page.click(f'.mnav .mtab[data-tab="{tab}"]')
        elif tab != "orders":
            page.click(f'.dtabs .dtab[data-tab="{tab}"]')
        check(f"game, {tab}")
    page.click(".menu-btn")
    check("menu")
    page.keyboard.press("Escape")
    # a finished game: the scoreboard, Verify, the replay
    f = http(server, "POST", "/api/games", {"players": 3, "bots": "random", "options": {"max_turns": 1}})
    page.goto(f"{server}/#/g/{f['game']}")
    page.wait_for_function("() => document.body?.dataset.status === 'open'")
    http(server, "POST", f"/api/games/{f['game']}/bots", {}, f["admin_token"])
    page.locator(".modal.final").wait_for(timeout=120_000)
    check("final scoreboard")
    page.keyboard.press("Escape")
    page.click(".menu-btn")
    page.click('.modal [data-act="verify"]')
    page.locator(".modal[data-verified]").wait_for()
    check("verify")
    page.keyboard.press("Escape")
    page.click(".menu-btn")
    page.click('.modal [data-act="replay"]')
    page.locator(".replay-slider").wait_for()
    check("replay")
    page.context.close()
    assert not bad, "\n".join(f"{w}: {v['impact']} {v['id']} ({v['help']}) at {v['nodes']}" for w, v in bad)


@BOTH
def test_no_serious_accessibility_violations_in_the_decision_cards(server, browser, phone) -> None:
    """Every decision card of tests/test_browser_prompts.py (Exchange losses, attack, force with its
    destinations, capture, purge approval, counterpurge, spoils, the Czar, trade, vote, redraw ...)
    on engine-built positions, checked by axe-core."""
    from test_browser_prompts import CASES, SETUP_JS, _blank_page, _payload

    page, errors = _blank_page(browser, server, phone=phone)
    for case in sorted(CASES):
        build, seat = CASES[case][0], CASES[case][1]
        page.evaluate(f"async (d) => document.getElementById('app').append(await ({SETUP_JS})(d))", _payload(build(), seat))
    page.locator(".prompt-case").last.wait_for()
    assert page.locator(".prompt-case").count() == len(CASES)
    bad = axe(page, "decision cards")
    assert not bad, bad
    assert not errors, errors
    page.context.close()


def test_the_map_answers_the_keyboard(server, browser) -> None:
    """Issue 17: keyboard navigation of the board: the map takes the focus, the arrow keys pan and
    + zooms; Tab reaches the counters, each a labelled button, and Enter opens one in the inspector
    (as a click does) with the focus kept on it.  (A desktop's: a phone has no keyboard.)"""
    g = http(server, "POST", "/api/games", {"players": 3, "bots": "random"})
    page = browser.new_page(viewport=DESKTOP)
    page.goto(f"{server}/#/g/{g['game']}")
    page.wait_for_function("() => document.querySelectorAll('svg.board .counter').length > 10")
    vb = "() => document.querySelector('svg.board').getAttribute('viewBox').split(' ').map(Number)"
    page.focus("svg.board")
    x0, y0, w0, h0 = page.evaluate(vb)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    x1, y1, w1, _ = page.evaluate(vb)
    assert x1 > x0 and y1 > y0 and w1 == w0
    page.keyboard.press("+")
    assert page.evaluate(vb)[2] < w1
    page.keyboard.press("0")
    page.keyboard.press("Tab")
    focused = page.evaluate("() => ({ stack: document.activeElement.dataset.stack, role: document.activeElement.getAttribute('role'),"
                            " label: document.activeElement.querySelector('title').textContent })")
    assert focused["stack"] and focused["role"] == "button" and focused["label"].startswith(("Player", "Uncontrolled"))
    page.keyboard.press("Enter")
    insp = page.locator(".inspector")
    insp.wait_for()
    assert focused["label"].split(" · ")[-1] in insp.locator(".insp-head").inner_text()      # the counter's province
    assert page.evaluate("() => document.activeElement.dataset.stack") == focused["stack"]
    # zoomed in on one corner, Tab on: a counter it reaches outside the view is brought into it
    # (QA: the focus went on to counters under the Orders pane or below the screen)
    page.keyboard.press("Escape")
    page.evaluate("() => window.rcwApp.board.setVB({ x: 0, y: 0, w: 200, h: 150 })")
    inside = """() => { const e = document.activeElement, b = e.getBoundingClientRect(), a = window.rcwApp.board.openArea();
      return b.left >= a.left - 2 && b.right <= a.right + 2 && b.top >= a.top - 2 && b.bottom <= a.bottom + 2; }"""
    page.focus("svg.board")
    moved = False
    for _ in range(40):
        page.keyboard.press("Tab")
        if not page.evaluate("() => !!document.activeElement.closest('svg.board [data-province]')"):
            continue
        assert page.evaluate(inside), page.evaluate("() => document.activeElement.dataset.province")
        moved = moved or page.evaluate(vb)[:2] != [0, 0]
    assert moved, "no counter reached by Tab lay outside the zoomed view"
    page.close()


def test_a_dialog_keeps_the_keyboard_and_gives_it_back_and_a_skip_link_leads_to_the_orders(server, browser) -> None:
    """QA with the keyboard alone: the Menu opened by Enter left the focus on its button, Tab went
    on to the players' strip and the map's counters behind the dialog, and Escape left the focus
    on the page's body; the first order was some sixty Tab stops in.  A dialog takes the focus,
    Tab goes round inside it, and closing it gives the focus back to what opened it; the first
    Tab stop of a game's page is a link that skips to the Orders."""
    g = http(server, "POST", "/api/games", {"players": 3, "seed": 1, "bots": "random", "bot_seats": ["B", "C"]})
    j = http(server, "POST", f"/api/games/{g['game']}/join", {"seat": "A", "name": "Anna"})
    page = new_page(browser)
    open_seat(page, server, g["game"], j["token"], "A", "Anna")
    page.wait_for_function("() => document.body?.dataset.mine === '1'")
    page.keyboard.press("Tab")                              # (from the page's start)
    assert page.evaluate("() => document.activeElement.className") == "skip-link"
    assert page.locator(".skip-link").is_visible()
    page.keyboard.press("Enter")
    assert page.evaluate("() => !!document.activeElement.closest('.orders')")
    assert page.evaluate("() => document.activeElement.dataset.act") == "EndTrading"
    page.focus(".menu-btn")
    page.keyboard.press("Enter")
    page.locator(".modal").wait_for()
    page.wait_for_function("() => !!document.activeElement.closest('.modal')")
    for _ in range(25):                                     # (more than the dialog's controls: round again)
        page.keyboard.press("Tab")
        assert page.evaluate("() => !!document.activeElement.closest('.modal')"), page.evaluate(
            "() => document.activeElement.outerHTML.slice(0, 120)")
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("() => !!document.activeElement.closest('.modal')")
    page.keyboard.press("Escape")
    assert page.locator(".modal").count() == 0
    assert page.evaluate("() => document.activeElement.classList.contains('menu-btn')")
    page.context.close()


def test_the_players_strip_reads_in_words(server, browser) -> None:
    """QA with a screen reader's eyes: the players' strip was read as its symbols ("A Anna ☭ 3 † 1").
    Each card's accessible name now says it in words (the symbols are for the eye only): its
    Politburo and Assassin markers, whether its player is online, and a bot is called one."""
    g = http(server, "POST", "/api/games", {"players": 3, "seed": 1, "bots": "random", "bot_seats": ["B", "C"]})
    j = http(server, "POST", f"/api/games/{g['game']}/join", {"seat": "A", "name": "Anna"})
    page = new_page(browser)
    open_seat(page, server, g["game"], j["token"], "A", "Anna")
    page.wait_for_function("() => document.body?.dataset.mine === '1'")
    view = page.evaluate("() => rcwApp.st.view")
    names = {s: page.evaluate("""(s) => { const b = document.querySelector(`.strip .pcard[data-seat="${s}"]`);
        return [...b.childNodes].map(function walk(n) { return n.nodeType === 3 ? n.textContent
          : n.getAttribute && n.getAttribute("aria-hidden") === "true" ? "" : [...n.childNodes].map(walk).join(""); }).join(""); }""", s)
             for s in "ABC"}
    for s in "ABC":
        pm, am = view["politburo"].get(s, 0), view["assassins"].get(s, 0)
        assert f"{pm} Politburo marker{'' if pm == 1 else 's'}" in names[s], names[s]
        assert f"{am} Assassin marker{'' if am == 1 else 's'}" in names[s], names[s]
        assert "☭" not in names[s] and "†" not in names[s], names[s]
    assert "Anna" in names["A"] and "online now" in names["A"] and "bot" in names["B"]
    # and the button's accessible name, as a screen reader gets it, holds the words
    assert page.get_by_role("button", name=f"Politburo marker{'' if view['politburo'].get('A', 0) == 1 else 's'}").count() >= 1
    page.context.close()
