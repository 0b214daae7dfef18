"""The replay of a finished game on a server that limits costly requests (its default does:
``--costly-rate``, ``--costly-burst``; docs/protocol.md "Limits"), in a real headless Chromium.

Each step of a replay asks the server for the position then (``GET /api/games/{id}/view?seq=N``,
a costly request).  QA played a replay, and scrubbed back through one: past the burst the server
answered 429, and the page stopped asking for good, its map frozen at the last position it had
("map as at step 180") whatever step it was told to show."""

from __future__ import annotations

import pytest
from browser_helpers import NO_BOT_WAIT_ARGS, NO_LIMITS, http, new_page, rcw_server, skip_reason

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
    page.wait_for_function("() => document.body.dataset.status === 'open'")
    http(server, "POST", f"/api/games/{gid}/bots", {}, g["admin_token"])
    page.locator(".modal.final").wait_for(timeout=120_000)
    page.keyboard.press("Escape")
    page.reload()                                # (a page that did not watch the game: it asks the server)
    page.wait_for_function("() => document.body.dataset.status === 'over' && window.rcwApp.snaps.size <= 2")
    if page.locator(".modal").count():
        page.keyboard.press("Escape")
    page.click(".menu-btn")
    page.click('.modal [data-act="replay"]')
    page.locator(".replay-slider").wait_for()
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
