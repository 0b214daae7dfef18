"""A page left open while the server (the embedded, in-memory store) restarts, in a real headless
Chromium.

QA: with the embedded store the games do not survive a restart, and the page, reconnecting, said
only "No such game".  Now the server's ``unknown_game`` says that it keeps its games in memory
(``memory``, ``started``), and the page tells its player plainly what happened, with the way back
to the lobby."""

from __future__ import annotations

import pytest
from browser_helpers import NO_BOT_WAIT_ARGS, NO_LIMITS_ARGS, http, new_page, rcw_server, skip_reason
from server_helpers import free_port

pytestmark = pytest.mark.skipif(skip_reason() is not None, reason=skip_reason() or "")


def test_a_page_open_on_a_game_when_the_memory_server_restarts_says_the_restart_lost_it(browser) -> None:
    port = free_port()
    page = new_page(browser, False, 30_000)
    with rcw_server([*NO_LIMITS_ARGS, *NO_BOT_WAIT_ARGS], port=port) as base:
        gid = http(base, "POST", "/api/games", {"name": "Lost in Kazan", "players": 3})["game"]
        page.goto(f"{base}/#/g/{gid}")
        page.wait_for_function("() => document.body?.dataset.status === 'open'")
    with rcw_server([*NO_LIMITS_ARGS, *NO_BOT_WAIT_ARGS], port=port):   # (the same address, its memory empty)
        box = page.locator(".notfound")
        box.wait_for(timeout=30_000)
        text = box.inner_text()
        assert "This game is no longer on the server" in text, text
        assert gid in text and "restarted" in text and "in memory" in text, text
        assert "No such game" not in text
        box.locator('a:text("Back to the lobby")').click()
        page.locator(".lobby-main").wait_for()
    page.context.close()


def test_an_unknown_game_on_the_memory_server_says_the_server_forgets_its_games_on_a_restart(server, browser) -> None:
    page = new_page(browser, False, 20_000)
    page.goto(f"{server}/#/g/nosuchgame42")
    box = page.locator(".notfound")
    box.wait_for()
    text = box.inner_text()
    assert "no longer on the server" in text and "nosuchgame42" in text and "restarted" in text, text
    box.locator('a:text("Back to the lobby")').click()
    page.locator(".lobby-main").wait_for()
    page.context.close()
