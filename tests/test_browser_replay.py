"""The replay of a finished game on a server that limits costly requests (its default does:
``--costly-rate``, ``--costly-burst``; docs/protocol.md "Limits"), in a real headless Chromium.

Each step of a replay asks the server for the position then (``GET /api/games/{id}/view?seq=N``,
a costly request).  QA played a replay, and scrubbed back through one: past the burst the server
answered 429, and the page stopped asking for good, its map frozen at the last position it had
("map as at step 180") whatever step it was told to show."""

from __future__ import annotations

import pytest
from browser_helpers import (
    NO_BOT_WAIT_ARGS,
    NO_LIMITS,
    finished_game,
    http,
    new_page,
    open_replay,
    rcw_server,
    skip_reason,
)

pytestmark = pytest.mark.skipif(skip_reason() is not None, reason=skip_reason() or "")


@pytest.fixture(scope="module")
def server():
    """``rcw serve`` with no limit but a tight one on costly requests (one a second, three at once)."""
    limits = {**NO_LIMITS, "costly_rate": 1, "costly_burst": 3}
    args = [x for k, v in limits.items() for x in (f"--{k.replace('_', '-')}", str(v))]
    with rcw_server([*args, *NO_BOT_WAIT_ARGS]) as base:
        yield base


def test_a_replay_stepped_past_the_servers_limit_shows_each_step_once_the_server_lets_it(server, browser) -> None:
    g = http(server, "POST", "/api/games", {"players": 3, "bots": "random", "options": {"max_turns": 1}})
    gid = g["game"]
    page = new_page(browser, False, 60_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/#/g/{gid}")
    page.wait_for_function("() => document.body?.dataset.status === 'open'")
    http(server, "POST", f"/api/games/{gid}/bots", {}, g["admin_token"])
    page.locator(".modal.final").wait_for(timeout=120_000)
    page.keyboard.press("Escape")
    page.reload()                                # (a page that did not watch the game: it asks the server)
    page.wait_for_function("() => document.body?.dataset.status === 'over' && window.rcwApp.snaps.size <= 2")
    open_replay(page)
    # back a step at a time, as fast as the page goes: more steps than the server's burst
    last = page.evaluate("""async () => { const r = rcwApp.replay;
        for (let i = 1; i <= 8; i++) await rcwApp.replayTo(r.max - 7 * i);
        return r.at; }""")
    # the page waits as long as the server says, then shows the very step it was told to
    page.wait_for_function(f"() => rcwApp.replay.at === {last} && rcwApp.replay.shown === {last}", timeout=15_000)
    assert page.evaluate("() => rcwApp.replay.serverViews"), "the page gave up asking the server"
    assert "map as at step" not in page.locator(".replay-bar").inner_text()
    assert not errors, errors
    page.context.close()


def _costly(base: str, path: str) -> dict:
    """A costly GET, waiting as long as this module's server's limit says."""
    import time
    import urllib.error

    for _ in range(30):
        try:
            return http(base, "GET", path)
        except urllib.error.HTTPError as e:
            if e.code != 429:
                raise
            time.sleep(float(e.headers.get("Retry-After") or 1))
    raise AssertionError(f"{path}: refused for good")


def _moves_by_step(record: dict) -> tuple[list[list[tuple[str, str]]], list[bool]]:
    """The engine's replay of a record: each step's moves (from, to), and whether it begins a Player-Turn."""
    from rcw.actions import action_from_wire
    from rcw.modes import new_game

    g = new_game(record.get("players"), record["seed"], record.get("options"))
    moves: list[list[tuple[str, str]]] = [[]]
    turns: list[bool] = [False]
    for a in record["actions"]:
        mv: list[tuple[str, str]] = []
        new_turn = False
        for e in g.apply(action_from_wire(a)):
            if e.kind == "player_turn":
                new_turn = True
            elif e.kind == "move":
                mv.append((e.data["from"], e.data["to"]))
            elif e.kind == "nonred_move":
                p = e.data.get("path") or []
                mv += list(zip(p, p[1:], strict=False))
        moves.append(mv)
        turns.append(new_turn)
    return moves, turns


def test_each_replay_step_draws_the_moves_of_that_step_not_the_last_turns(server, browser) -> None:
    """QA: stepping through a replay, the map drew the arrows of the game's last moves at every
    step.  Now a step draws the moves made up to it in its Player-Turn (as the page drew them
    live): at the game's first move, that move's arrow alone; before it, none; at the first move
    of a later Player-Turn, again that move's alone."""
    gid = finished_game(server)["game"]
    page = new_page(browser, False, 60_000)
    page.goto(f"{server}/#/g/{gid}")
    page.wait_for_function("() => document.body?.dataset.status === 'over'", timeout=120_000)
    record = _costly(server, f"/api/games/{gid}/record")
    moves, turns = _moves_by_step(record)
    stepped = [n for n, mv in enumerate(moves) if mv]
    assert stepped, "the bots moved nothing"
    first = stepped[0]
    # the first move of a later Player-Turn than the first move's (a turn begun after it)
    later = next((n for n in stepped if any(turns[first + 1:n + 1])), None)
    open_replay(page)

    def arrows_at(n: int) -> list[tuple[str, str]]:
        page.evaluate(f"() => rcwApp.replayTo({n})")
        page.wait_for_function(f"() => rcwApp.replay.at === {n} && rcwApp.replay.shown === {n}", timeout=30_000)
        return [tuple(x) for x in page.locator("line.report-move").evaluate_all(
            "(ls) => ls.map((l) => [l.dataset.from, l.dataset.to])")]

    assert arrows_at(first - 1) == [], "arrows before any move was made"
    assert arrows_at(first) == moves[first]
    # each arrow begins and ends outside its two provinces' boxes, over neither name (QA: the
    # arrows hid TVER, TULA, OREL...), unless the boxes are too close for that
    covered = page.evaluate("""() => { const B = rcwApp.board.boxes, out = [];
        const inside = (b, x, y) => x > b.x && x < b.x + b.w && y > b.y && y < b.y + b.h;
        for (const l of document.querySelectorAll('line.report-move')) {
          const f = B[l.dataset.from], t = B[l.dataset.to];
          const [x1, y1, x2, y2] = ['x1', 'y1', 'x2', 'y2'].map((k) => Number(l.getAttribute(k)));
          if (Math.hypot(t.cx - f.cx, t.cy - f.cy) < 60) continue;
          if (inside(f, x1, y1) || inside(t, x2, y2)) out.push([l.dataset.from, l.dataset.to]); }
        return [document.querySelectorAll('line.report-move').length, out]; }""")
    assert covered[0] and not covered[1], covered
    # the caption's words in small print read on the bar's dark ground (QA: faint; WCAG's 4.5:1)
    contrast = page.evaluate("""() => {
        const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
        const lum = ([r, g, b]) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
            return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
        const bar = getComputedStyle(document.querySelector('.replay-bar')).backgroundColor;
        const cap = document.querySelector('.replay-caption');
        if (!cap.querySelector('.small:not(.warn)')) cap.append(Object.assign(document.createElement('span'),
            { className: 'small', textContent: ' — a bot reason' }));      // (random bots give none: as an SDT bot's)
        return [...document.querySelectorAll('.replay-caption, .replay-caption .small:not(.warn)')].map((e) => {
            const [a, b] = [lum(rgb(getComputedStyle(e).color)), lum(rgb(bar))].sort((x, y) => y - x);
            return (a + 0.05) / (b + 0.05); }); }""")
    assert len(contrast) >= 2 and min(contrast) >= 4.5, contrast      # (the caption, and its small print)
    if later is not None:
        assert arrows_at(later) == moves[later]
    page.context.close()


def test_a_finished_game_opens_on_a_phone_on_who_won(server, browser) -> None:
    """QA: a finished game opened on a phone showed the map, the result nowhere in sight once the
    final scores were closed.  It opens on the Orders pane, whose card says who won and offers
    the replay; the Map tab is a tap away."""
    gid = finished_game(server)["game"]
    page = new_page(browser, phone=True, timeout=60_000)
    try:
        page.goto(f"{server}/#/g/{gid}")
        page.wait_for_function("() => document.body?.dataset.status === 'over'", timeout=120_000)
        if page.locator(".modal").count():
            page.keyboard.press("Escape")                    # (the final scores)
        card = page.locator(".card.over")
        card.wait_for()
        assert page.locator(".game").get_attribute("data-mtab") == "orders"
        box = card.bounding_box()
        assert box is not None and box["width"] > 0 and 0 <= box["y"] < 844, box     # (in sight on the phone)
        page.locator('.mtab[data-tab="map"]').tap()
        assert page.locator(".game").get_attribute("data-mtab") == "map"
    finally:
        page.context.close()


def test_the_live_games_orders_are_not_offered_during_a_replay(server, browser) -> None:
    """QA: during a replay of Game-Turn 2 the Orders panel still offered the live Game-Turn's
    Roll, and a click on it rolled in the live game, the map still on the replay.  During a
    replay the Orders panel says the game goes on and waits for the player, and offers only the
    way back; the map's "Your decision" prompt is gone.  Back, the orders are as they were."""
    g = http(server, "POST", "/api/games", {"players": 3, "seed": 2, "bots": "random", "bot_seats": ["B", "C"]})
    j = http(server, "POST", f"/api/games/{g['game']}/join", {"seat": "A", "name": "Anna"})
    page = new_page(browser, False, 60_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    from browser_helpers import open_seat

    open_seat(page, server, g["game"], j["token"], "A", "Anna")
    page.wait_for_function("() => document.body?.dataset.mine === '1'")
    orders = page.locator(".orders")
    live = page.evaluate("() => [...document.querySelectorAll('.orders [data-act]')].map((b) => b.dataset.act)")
    assert "EndTrading" in live, live
    seq = page.evaluate("() => document.body.dataset.seq")
    open_replay(page)
    page.locator('.orders .replay-note [data-act="close-replay"]').wait_for()
    assert "waits for your decision" in orders.inner_text()
    acts = page.evaluate("() => [...document.querySelectorAll('.orders [data-act]')].map((b) => b.dataset.act)")
    assert acts == ["close-replay"], acts
    assert page.locator(".map-prompt").is_hidden()
    page.click('.orders [data-act="close-replay"]')
    page.locator('.orders [data-act="EndTrading"]').wait_for()
    assert page.locator(".replay-bar").is_hidden() and page.locator(".map-prompt").is_visible()
    assert page.evaluate("() => document.body.dataset.seq") == seq        # (nothing was played meanwhile)
    assert not errors, errors
    page.context.close()
