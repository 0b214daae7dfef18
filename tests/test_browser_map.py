"""Readable counters (issue 17) in Debian's headless Chromium against a real ``rcw serve``, at
1280x800 and on a 390x844 phone: in the most crowded provinces of real positions every counter's
labels (the owner's letter, the leaders' stars, the strength, a "+n") are on screen and covered
by no other counter; a crowded province fans all its stacks out; the map's legend covers no
province (it is a Key panel, folded until asked for).

Three positions: the hands dealt in the pre-game session of a five-player game on the server
(the leaders, faint, where they will deploy: Tver, Petrograd ...), the game when it first waits
on its human seat after that session (provinces of five stacks and more: Kherson, Vladivostok), and the first position of Game-Turn 3 or later in an SDT bots' game (rcw.bots) with a
province of six stacks, drawn by the page's own board.
"""

from __future__ import annotations

import time
from collections import Counter

import pytest
from browser_helpers import BOTH, Player, http, new_page, open_seat, seen, shot, skip_reason

from rcw.game import Game

pytestmark = pytest.mark.skipif(skip_reason() is not None, reason=skip_reason() or "")

#: For each counter (and "+n" counter) of the given provinces: its labels that another counter
#: covers (bounding boxes), and those not on top on screen (elementFromPoint at their centres).
COVERED = """(codes) => {
  const svg = document.querySelector('svg.board');
  const all = [...svg.querySelectorAll('.ov-stacks > g, .ov-fan .fan > g[data-stack]')];
  const meet = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
  const map = document.querySelector('.map').getBoundingClientRect();
  const out = { covered: [], hidden: [], labels: 0, counters: 0 };
  for (const c of all.filter((e) => codes.includes(e.dataset.province))) {
    out.counters++;
    const name = `${c.dataset.province} ${c.dataset.stack ? 'stack ' + c.dataset.stack : c.dataset.more ? '+n' : '?'}`;
    for (const t of c.querySelectorAll('text')) {
      if (!t.textContent.trim()) continue;
      out.labels++;
      const r = t.getBoundingClientRect();
      for (const o of all) if (o !== c && meet(r, o.getBoundingClientRect())) out.covered.push(`${name} '${t.textContent}' under ${o.dataset.province} ${o.dataset.stack || '+n'}`);
      const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
      if (x < map.left || x > map.right || y < map.top || y > map.bottom) { out.hidden.push(`${name} '${t.textContent}' off the map`); continue; }
      const e = document.elementFromPoint(x, y);
      if (!e || !c.contains(e)) out.hidden.push(`${name} '${t.textContent}' under ${e ? e.tagName + '.' + (e.getAttribute('class') || '') : 'nothing'}`);
    }
  }
  return out;
}"""


def _crowded(view: dict, least: int = 3) -> list[str]:
    """The provinces of a view with at least ``least`` stacks, the most crowded first."""
    return [p for p, n in Counter(s["province"] for s in view["stacks"]).most_common() if n >= least]


def _check(page, codes: list[str], where: str) -> int:
    """Every label of every counter in ``codes`` readable: covered by no other counter, on top
    on screen once its province is centred (toasts dismissed).  Returns the labels checked."""
    seen = 0
    for code in codes:
        page.evaluate(f"() => {{ document.querySelectorAll('.toasts').forEach((t) => t.remove()); window.rcwApp.board.centreOn({code!r}, true); }}")
        got = page.evaluate(COVERED, [code])
        assert got["counters"] >= 1, f"{where}: no counter in {code}"
        assert not got["covered"], f"{where}: {got['covered']}"
        assert not got["hidden"], f"{where}: {got['hidden']}"
        seen += got["labels"]
    return seen


def _fan_out(page, code: str, stacks: int, where: str, picture: str) -> None:
    """The "+n" counter of ``code`` fans every one of its stacks out, all readable; Escape folds."""
    page.evaluate(f"window.rcwApp.board.centreOn({code!r}, true)")
    page.click(f'svg.board [data-more="{code}"]')
    fan = page.locator(f'svg.board .fan[data-fanned="{code}"]')
    fan.wait_for()
    assert fan.locator("g.counter").count() == stacks
    got = page.evaluate(COVERED, [code])
    assert got["counters"] == stacks and not got["hidden"], f"{where}, fanned: {got['hidden']}"
    assert page.evaluate(f"() => !!document.activeElement.closest('.fan[data-fanned=\"{code}\"]')")   # (the keyboard follows)
    shot(page, picture)
    page.keyboard.press("Escape")
    assert fan.count() == 0
    assert page.evaluate("() => document.activeElement.dataset.more") == code


def _mid_game() -> tuple[Game, dict]:
    """The first position of Game-Turn 3 or later with a province of six stacks in a five-player
    game of SDT bots (seed 4), with the strengths the server would send."""
    from rcw.bots import make_agent
    from rcw.bots.match import Match
    from rcw.server import facts

    g = Game.new(5, 4)
    m = Match(g, {s: make_agent("sdt", s, 4) for s in "ABCDE"})
    while not g.over and m.play(1):
        if g.turn >= 3:
            view = g.view(None)
            if Counter(s["province"] for s in view["stacks"]).most_common(1)[0][1] >= 6:
                return g, {"view": view, "strengths": facts.seat_facts(g, view, None, [])["strengths"]}
    raise AssertionError("no province of six stacks on Game-Turn 3 or later")


@BOTH
def test_counter_labels_are_never_covered_in_crowded_provinces(server, browser, phone) -> None:
    g = http(server, "POST", "/api/games", {"players": 5, "bots": "sdt", "bot_seats": ["B", "C", "D", "E"], "seed": 1,
                                            "options": {"max_turns": 2}})
    gid = g["game"]
    j = http(server, "POST", f"/api/games/{gid}/join", {"seat": "A", "name": "Anna"})
    page = new_page(browser, phone)
    open_seat(page, server, gid, j["token"])
    A = Player(page, "Anna", phone=phone)
    page.wait_for_function("() => document.body?.dataset.mine === '1' && document.body?.dataset.phase === 'trading'")
    # the pre-game session: the dealt leaders, faint, where they will deploy (Tver, Petrograd ...)
    if phone:
        A.tab("map")
    ghosts = Counter(page.evaluate("() => [...document.querySelectorAll('svg.board g.counter.ghost')].map((c) => c.dataset.province)"))
    assert ghosts and max(ghosts.values()) >= 2, ghosts
    _check(page, [p for p, n in ghosts.items() if n >= 2], f"the hands dealt ({seen(phone)})")
    A.act('[data-act="EndTrading"]')
    page.wait_for_function("() => document.body?.dataset.mine === '1' && document.body?.dataset.phase !== 'trading'")
    if phone:
        A.tab("map")
    v = seen(phone)
    # the legend covers no province: it is not on the map; the Key shows it, folded by default
    assert page.locator("svg.board g.legend").count() == 0
    key = page.locator(".map-key")
    assert key.is_hidden()
    page.click('[data-act="map-key"]')
    assert key.is_visible() and key.locator("svg.key-legend").count() == 1
    assert "Railway" in key.inner_text() and key.locator(".key-counters li").count() >= 4
    shot(page, f"map-key-{v}.png")
    page.click('[data-act="map-key"]')
    assert key.is_hidden()
    # Escape closes it, from its button or from within it (QA: only its x did)
    page.click('[data-act="map-key"]')
    assert key.is_visible()
    page.keyboard.press("Escape")                          # (the focus on its button, just clicked)
    assert key.is_hidden()
    page.click('[data-act="map-key"]')
    key.locator("button.modal-x").focus()
    page.keyboard.press("Escape")
    assert key.is_hidden() and page.evaluate("() => document.activeElement.dataset.act") == "map-key"
    # larger counters: 24 px wide at least at the starting zoom (were 18 on a phone)
    page.evaluate("window.rcwApp.board.fit(true)")
    width = page.evaluate("() => document.querySelector('svg.board g.counter .c-body').getBoundingClientRect().width")
    assert width >= 23.9, width
    # the set-up: every label of the crowded provinces readable, the "+n" fans them out
    view = A.state()["view"]
    crowded = _crowded(view)
    stacks = Counter(s["province"] for s in view["stacks"])
    assert stacks[crowded[0]] >= 5, stacks.most_common(3)
    labels = _check(page, crowded, f"set-up ({v})")
    assert labels >= 3 * sum(stacks[c] for c in crowded[:2]) // 2
    page.evaluate(f"window.rcwApp.board.centreOn({crowded[0]!r}, true)")
    shot(page, f"counters-setup-{v}.png")
    _fan_out(page, crowded[0], stacks[crowded[0]], f"set-up ({v})", f"counters-fanned-{v}.png")
    # mid-game: a position of Game-Turn 3 drawn by the page's board
    _, mid = _mid_game()
    page.evaluate("([v, s]) => window.rcwApp.board.render(v, { strengths: s, me: 'A' })", [mid["view"], mid["strengths"]])
    crowded = _crowded(mid["view"])
    stacks = Counter(s["province"] for s in mid["view"]["stacks"])
    _check(page, crowded, f"Game-Turn 3 ({v})")
    page.evaluate(f"() => {{ document.querySelectorAll('.toasts').forEach((t) => t.remove()); window.rcwApp.board.centreOn({crowded[0]!r}, true); }}")
    shot(page, f"counters-midgame-{v}.png")
    _fan_out(page, crowded[0], stacks[crowded[0]], f"Game-Turn 3 ({v})", f"counters-midgame-fanned-{v}.png")
    assert not A.errors, A.errors
    page.context.close()


#: The provinces whose box lies outside the map's visible part.
OFF_VIEW = """() => {
  const r = document.querySelector('svg.board').getBoundingClientRect();
  return [...document.querySelectorAll('svg.board g.province')].filter((g) => {
    const b = g.getBoundingClientRect();
    return b.left < r.left - 1 || b.right > r.right + 1 || b.top < r.top - 1 || b.bottom > r.bottom + 1;
  }).map((g) => g.dataset.province);
}"""


def test_on_a_desktop_the_opening_map_shows_every_province(server, browser) -> None:
    """QA: at 1920x1080 the map opened on European Russia, Siberia cut off though the whole map
    was readable at that size.  A desktop whose map box shows the whole map at the opening's
    readable scale opens on all of it; at 1280x800 it still opens on European Russia (the whole
    map there would be too small to read; the player's own stacks are taken in, as before)."""
    g = http(server, "POST", "/api/games", {"players": 3, "bots": "random", "bot_seats": ["B", "C"], "seed": 3})
    gid = g["game"]
    j = http(server, "POST", f"/api/games/{gid}/join", {"seat": "A", "name": "Anna"})
    seen_at = {}
    for size in ({"width": 1920, "height": 1080}, {"width": 1280, "height": 800}):
        ctx = browser.new_context(viewport=size)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        open_seat(page, server, gid, j["token"])
        page.wait_for_function("() => window.rcwApp && rcwApp.board && rcwApp.board.vb && rcwApp.st.view")
        page.wait_for_timeout(300)               # (the board refits to its box on a later frame)
        seen_at[size["width"]] = page.evaluate(OFF_VIEW)
        width = page.evaluate("() => document.querySelector('svg.board g.counter .c-body').getBoundingClientRect().width")
        assert width >= 23.9, (size, width)     # (readable counters either way)
        shot(page, f"opening-map-{size['width']}.png")
        assert not errors, errors
        ctx.close()
    assert seen_at[1920] == [], seen_at[1920]
    assert {"IRKU", "CHIT", "VLDV"} <= set(seen_at[1280]), seen_at[1280]      # (Siberia beyond European Russia)


#: For each province's group of counters on the map (its counters and "+n", not a fan): the
#: distance from the group to its own province's box and to the nearest other box (map units),
#: and which box that is.
NEAREST_BOX = """() => {
  const boxes = window.rcwApp.board.boxes, groups = {};
  for (const el of document.querySelectorAll('svg.board .ov-stacks > g[data-province]')) {
    const p = el.dataset.province, r = el.getBBox(), m = el.transform.baseVal.consolidate().matrix;
    const g = groups[p] = groups[p] || { x1: 1e9, y1: 1e9, x2: -1e9, y2: -1e9 };
    g.x1 = Math.min(g.x1, m.e + r.x); g.y1 = Math.min(g.y1, m.f + r.y);
    g.x2 = Math.max(g.x2, m.e + r.x + r.width); g.y2 = Math.max(g.y2, m.f + r.y + r.height);
  }
  const gap = (g, b) => Math.hypot(Math.max(0, b.x - g.x2, g.x1 - b.x - b.w), Math.max(0, b.y - g.y2, g.y1 - b.y - b.h));
  const out = {};
  for (const [p, g] of Object.entries(groups)) {
    let near = null, d = Infinity;
    for (const [c, b] of Object.entries(boxes)) if (c !== p && gap(g, b) < d) { d = gap(g, b); near = c; }
    out[p] = { own: gap(g, boxes[p]), other: d, near };
  }
  return out;
}"""


def test_a_provinces_counters_sit_by_its_own_box_not_a_neighbours(server, browser) -> None:
    """QA: at the set-up, Vitebsk's counters were drawn nearer Vilna's box than their own (and
    read as Vilna's, or Livonia's).  A group of counters goes where it is nearer its own
    province's box than any other's, as far as the map has room (board.js ``_place``): Vitebsk's,
    in the set-up of three five-player games; and every group of those set-ups touches its own
    box."""
    from rcw.bots import make_agent
    from rcw.bots.match import Match
    from rcw.server import facts

    g = http(server, "POST", "/api/games", {"players": 5, "bots": "random", "seed": 1})
    page = new_page(browser)
    try:
        page.goto(f"{server}/#/g/{g['game']}")
        page.wait_for_function("() => window.rcwApp && window.rcwApp.board && window.rcwApp.st.view")
        for seed in (0, 1, 2):
            game = Game.new(5, seed)
            m = Match(game, {s: make_agent("sdt", s, seed) for s in game.seats})
            while game.phase == "trading" and m.play(1):
                pass
            view = game.view(None)
            strengths = facts.seat_facts(game, view, None, [])["strengths"]
            page.evaluate("([v, s]) => window.rcwApp.board.render(v, { strengths: s, me: 'A' })", [view, strengths])
            groups = page.evaluate(NEAREST_BOX)
            assert "VITE" in groups, f"seed {seed}: no stack in Vitebsk"
            far = {p: x for p, x in groups.items() if x["own"] > 3}
            assert not far, f"seed {seed}: groups away from their own box: {far}"
            vite = groups["VITE"]
            assert vite["own"] <= vite["other"], f"seed {seed}: Vitebsk's counters nearer {vite['near']}'s box: {vite}"
        shot(page, "counters-by-their-box.png")
    finally:
        page.context.close()


def test_a_view_taken_past_the_maps_end_beside_a_panel_comes_back_when_it_closes(server, browser) -> None:
    """QA: on a desktop, after a Move the map stayed off to one side with a blank strip.  To show a
    province clear of the province panel (bottom left), the page scrolls the view past the map's
    end, the blank part under the panel; when the panel closes the view comes back to the map's
    end, and no blank strip is left.  A view the player pans there is left alone."""
    g = http(server, "POST", "/api/games", {"players": 3, "bot_seats": ["B", "C"], "seed": 3})
    j = http(server, "POST", f"/api/games/{g['game']}/join", {"seat": "A", "name": "Anna"})
    page = new_page(browser)
    try:
        open_seat(page, server, g["game"], j["token"])
        page.wait_for_function("() => window.rcwApp.board && window.rcwApp.board.vb")
        # how far the view goes past the map's ends (map units; > 0: a blank strip on that side)
        blank = """() => { const v = rcwApp.board.vb, f = rcwApp.board.full;
            return Math.max(f.x - v.x, v.x + v.w - f.x - f.w, f.y - v.y, v.y + v.h - f.y - f.h); }"""
        # the southernmost province, chosen on the map (the panel opens with its stacks), brought
        # clear of the panel as the page brings a force under way (GameApp.centreOnForce)
        south = page.evaluate("() => Object.entries(rcwApp.board.boxes).sort((a, b) => b[1].cy - a[1].cy)[0][0]")
        page.evaluate("() => { rcwApp.board.fit(true); rcwApp.board.zoomBy(0.6); }")
        page.evaluate(f"() => rcwApp.select({{ province: {south!r} }})")
        page.locator(".inspector:not([hidden])").wait_for()
        page.evaluate(f"() => rcwApp.board.centreOn({south!r}, true)")
        assert page.evaluate(blank) > 5, "the view did not go past the map's end beside the panel"
        shot(page, "map-beside-the-panel.png")
        page.locator('.inspector button[aria-label="Close"]').click()
        page.locator(".inspector").wait_for(state="hidden")
        assert page.evaluate(blank) <= 0.5, "a blank strip was left where the panel had been"
        shot(page, "map-after-the-panel.png")
        # the player's own pan past the end stays where she put it
        page.evaluate(f"() => rcwApp.select({{ province: {south!r} }})")
        page.evaluate(f"() => {{ rcwApp.board.centreOn({south!r}, true); const b = rcwApp.board; b.setVB({{ ...b.vb, x: b.vb.x - 10 }}); }}")
        panned = page.evaluate("() => rcwApp.board.vb")
        page.locator('.inspector button[aria-label="Close"]').click()
        page.locator(".inspector").wait_for(state="hidden")
        assert page.evaluate("() => rcwApp.board.vb") == panned
    finally:
        page.context.close()


@BOTH
def test_a_province_the_page_brings_into_view_is_clear_of_the_zoom_buttons(server, browser, phone) -> None:
    """QA: on a phone a stack in Archangel stood under the map's zoom buttons (top right).  The
    page brings a province into view (a force of the seat's, a counter reached by the keyboard)
    clear of them, as it does of the decision prompt and the province panel."""
    g = http(server, "POST", "/api/games", {"players": 3, "bot_seats": ["B", "C"], "seed": 3})
    j = http(server, "POST", f"/api/games/{g['game']}/join", {"seat": "A", "name": "Anna"})
    page = new_page(browser, phone)
    try:
        open_seat(page, server, g["game"], j["token"])
        if phone:
            Player(page, "Anna", phone=True).tab("map")
        page.wait_for_function("() => window.rcwApp.board && window.rcwApp.board.vb")
        # Archangel's box put right under the buttons, at a closer zoom
        page.evaluate("""() => { const b = rcwApp.board; b.fit(true); b.zoomBy(0.6);
            const z = document.querySelector('.map-zoom').getBoundingClientRect();
            const p = b.toMap((z.left + z.right) / 2, (z.top + z.bottom) / 2), box = b.boxes.ARCH;
            b.setVB({ ...b.vb, x: b.vb.x + box.cx - p.x, y: b.vb.y + box.cy - p.y }); }""")
        under = """() => { const z = document.querySelector('.map-zoom').getBoundingClientRect();
            const r = document.querySelector('svg.board [data-province="ARCH"]').getBoundingClientRect();
            return Math.min(r.right, z.right) - Math.max(r.left, z.left) > 0 && Math.min(r.bottom, z.bottom) - Math.max(r.top, z.top) > 0; }"""
        assert page.evaluate(under), "the test did not put Archangel under the buttons"
        page.evaluate("() => rcwApp.board.bringIntoView(['ARCH'])")
        assert not page.evaluate(under), "Archangel was left under the zoom buttons"
        shot(page, f"arch-clear-of-the-zoom-{seen(phone)}.png")
    finally:
        page.context.close()


#: The map's title box: the zoom buttons it meets on screen, whether it lies wholly in the map's
#: box, and the provinces whose boxes it covers (map units).
TITLE = """() => { const t = document.querySelector('svg.board g.title rect'), r = t.getBoundingClientRect();
  const m = document.querySelector('.map').getBoundingClientRect();
  const meet = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0;
  const [x, y, w, h] = ['x', 'y', 'width', 'height'].map((k) => +t.getAttribute(k));
  return { buttons: [...document.querySelectorAll('.map-zoom button')].filter((b) => meet(r, b.getBoundingClientRect())).map((b) => b.title),
           inside: r.left >= m.left && r.right <= m.right && r.top >= m.top && r.bottom <= m.bottom,
           provinces: Object.entries(rcwApp.board.boxes).filter(([, b]) => b.x < x + w && x < b.x + b.w && b.y < y + h && y < b.y + b.h).map(([c]) => c) }; }"""


def test_the_maps_title_is_clear_of_the_zoom_buttons(server, browser) -> None:
    """QA: the zoom buttons (top right) covered the map's title, at the map's top right, in the
    opening view and in the whole-map view.  The page moves the title to the corner the legend
    leaves when it becomes the Key panel (the bottom right, free of provinces)."""
    g = http(server, "POST", "/api/games", {"players": 5, "bot_seats": ["B", "C", "D", "E"], "seed": 7})
    j = http(server, "POST", f"/api/games/{g['game']}/join", {"seat": "A", "name": "Anna"})
    page = new_page(browser)
    try:
        open_seat(page, server, g["game"], j["token"])
        page.wait_for_function("() => window.rcwApp && rcwApp.board && rcwApp.board.vb && rcwApp.st.view")
        page.wait_for_timeout(300)               # (the board refits to its box on a later frame)
        opening = page.evaluate(TITLE)
        assert opening["buttons"] == [] and opening["provinces"] == [], opening
        page.click('.map-zoom button[title="Whole map"]')
        whole = page.evaluate(TITLE)
        shot(page, "title-clear-of-the-zoom.png")
        assert whole == {"buttons": [], "inside": True, "provinces": []}, whole
    finally:
        page.context.close()


def test_a_game_opened_while_the_lobby_still_loads_is_not_cleared_by_it(server, browser) -> None:
    """The lobby's page still loading (its module slow to come, as on a loaded machine) when the
    address goes on to a game: the game's page is built, and the lobby, coming after it, leaves
    it be (ci-local: a game's province panel never showed, the page wiped by the lobby)."""
    g = http(server, "POST", "/api/games", {"players": 3, "bot_seats": ["B", "C"], "seed": 3})
    j = http(server, "POST", f"/api/games/{g['game']}/join", {"seat": "A", "name": "Anna"})
    page = new_page(browser)
    try:
        page.goto(server + "/")
        page.locator(".lobby").wait_for()
        page.evaluate("([gid, token]) => localStorage.setItem('rcw:seats:' + gid, JSON.stringify({A: {token, name: 'Anna', joined: 1}}))",
                      [g["game"], j["token"]])
        page.context.route("**/lobby.js*", lambda route: (time.sleep(1.5), route.continue_()))
        page.evaluate("() => { location.hash = ''; }")
        page.reload()                                        # (the lobby's module now comes late)
        page.evaluate(f"() => {{ location.hash = '#/g/{g['game']}/A'; }}")
        page.wait_for_function("() => document.body?.dataset.seat === 'A'")
        page.wait_for_timeout(2500)                          # (the lobby's module has come)
        assert page.evaluate("() => document.getElementById('app').className") == "game"
        page.evaluate("() => rcwApp.select({ province: 'TVER' })")
        page.locator(".inspector:not([hidden])").wait_for(timeout=5000)
    finally:
        page.context.close()
