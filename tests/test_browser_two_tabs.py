"""One seat open in two tabs, in Debian's headless Chromium against a real ``rcw serve``.

QA: a seat open in two tabs acted in one; the other, still showing the old position, gave the
order again and was told the rules refused it, as if the move were illegal.  The page now says
the game had moved on (this seat acted in another tab or window), that nothing was done, and
shows the game as it is.
"""

from __future__ import annotations

import re

import msgpack
import pytest
from browser_helpers import http, keep_toasts, new_page, open_seat, shot, skip_reason

pytestmark = pytest.mark.skipif(skip_reason() is not None, reason=skip_reason() or "")


def test_an_order_from_a_tab_left_behind_says_the_game_moved_on_in_another_tab(server, browser) -> None:
    g = http(server, "POST", "/api/games", {"players": 3, "bots": "random", "bot_seats": ["B", "C"], "seed": 3})
    gid = g["game"]
    j = http(server, "POST", f"/api/games/{gid}/join", {"seat": "A", "name": "Anna"})
    first = new_page(browser)
    second = first.context.new_page()          # (the same browser: the same seat, the same token)
    held: list = []
    hold = {"on": False}

    ws_route: dict = {}

    def route(ws) -> None:                      # the second tab's news of the game, held back while hold is on
        ws_route["ws"] = ws
        srv = ws.connect_to_server()

        def down(msg) -> None:
            if hold["on"] and isinstance(msg, bytes) and msgpack.unpackb(msg).get("t") in ("update", "seats"):
                held.append(msg)
            else:
                ws.send(msg)
        srv.on_message(down)
    second.route_web_socket(re.compile(r".*/ws.*"), route)
    open_seat(first, server, gid, j["token"])
    open_seat(second, server, gid, j["token"])
    keep_toasts(second)
    for p in (first, second):
        p.wait_for_function("() => document.body?.dataset.mine === '1' && document.body?.dataset.phase === 'trading'")
    seq = second.evaluate("() => Number(document.body?.dataset.seq)")
    hold["on"] = True
    first.click('[data-act="EndTrading"]')
    first.wait_for_function(f"() => Number(document.body?.dataset.seq) > {seq}")
    # the second tab still shows Trading, and its player ends it there too
    assert second.evaluate("() => document.body?.dataset.phase") == "trading"
    second.click('[data-act="EndTrading"]')
    second.wait_for_function("() => (window.__toasts || []).length > 0")
    said = " | ".join(second.evaluate("() => window.__toasts.map((t) => t.text)"))
    assert "another tab or window" in said and "nothing was done" in said.lower(), said
    assert "rule" not in said.lower() and "illegal" not in said.lower(), said
    # ... and the tab shows the game as it is now, without waiting for the news it missed
    second.wait_for_function(f"() => Number(document.body?.dataset.seq) > {seq}")
    assert not second.locator(".toast.error").count(), "a rule refusal was shown"
    shot(second, "two-tabs-moved-on.png")
    # the news it missed, arriving late, changes nothing and breaks nothing
    errors: list[str] = []
    second.on("pageerror", lambda e: errors.append(str(e)))
    hold["on"] = False
    now = second.evaluate("() => Number(document.body?.dataset.seq)")
    for m in held:
        ws_route["ws"].send(m)
    second.wait_for_timeout(300)
    assert second.evaluate("() => Number(document.body?.dataset.seq)") >= now and not errors, errors
    first.context.close()
