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
    page.wait_for_function("() => document.body.dataset.mine === '1' && document.body.dataset.phase === 'trading'")
    # the pre-game session: the dealt leaders, faint, where they will deploy (Tver, Petrograd ...)
    if phone:
        A.tab("map")
    ghosts = Counter(page.evaluate("() => [...document.querySelectorAll('svg.board g.counter.ghost')].map((c) => c.dataset.province)"))
    assert ghosts and max(ghosts.values()) >= 2, ghosts
    _check(page, [p for p, n in ghosts.items() if n >= 2], f"the hands dealt ({seen(phone)})")
    A.act('[data-act="EndTrading"]')
    page.wait_for_function("() => document.body.dataset.mine === '1' && document.body.dataset.phase !== 'trading'")
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
