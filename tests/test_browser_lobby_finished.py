"""The lobby's finished games, in a real headless Chromium against a real ``rcw serve``.

QA: the lobby listed only open games (or, ticked, those in progress); a finished game could not be
found again from it, to see who won and to replay it.  Now "show finished games" lists the most
recent ones (``GET /api/games?status=finished``), each with its result, each opening the game,
whose page offers the replay."""

from __future__ import annotations

import pytest
from browser_helpers import finished_game, http, new_page, open_replay, skip_reason

pytestmark = pytest.mark.skipif(skip_reason() is not None, reason=skip_reason() or "")


def test_a_finished_game_is_listed_with_its_result_and_opens_for_its_replay(server, browser) -> None:
    gid = finished_game(server, name="Done in Tsaritsyn")["game"]
    still_open = http(server, "POST", "/api/games", {"name": "Waiting in Omsk", "players": 3})["game"]
    # the API: the finished game, with the engine's result; not the open one
    listed = http(server, "GET", "/api/games?status=finished")["games"]
    row = next(r for r in listed if r["game"] == gid)
    info = http(server, "GET", f"/api/games/{gid}")
    assert row["status"] == "over" and row["result"] == info["result"] and row["turn"] == 1
    assert still_open not in [r["game"] for r in listed]
    winners = info["result"].get("winners") or ([info["result"]["winner"]] if info["result"].get("winner") else [])
    # the page: tick "show finished games", the game is there with who won, and opens
    page = new_page(browser, False, 30_000)
    page.goto(server + "/")
    page.locator(".lobby-main").wait_for()
    assert not page.locator(f'.game-row[data-game="{gid}"]').count()          # (not an open game)
    page.check('input[data-filter="finished"]')
    line = page.locator(f'.game-list .game-row[data-game="{gid}"]')
    line.wait_for()
    assert page.locator(".games-card h2").inner_text() == "Finished games"
    assert "Done in Tsaritsyn" in line.inner_text()
    result = line.locator(".gr-result")
    text = result.inner_text()
    if winners:
        assert all(f"({w})" in text for w in winners) and ("won" in text or "share the win" in text), text
    else:
        assert "No one won" in text, text
    assert info["result"]["reason"] in text, text                               # (why it ended, in the engine's words)
    assert not page.locator(f'.game-list .game-row[data-game="{still_open}"]').count()
    line.locator('[data-act="open-finished"]').click()
    page.wait_for_function("() => document.body?.dataset.status === 'over'")
    open_replay(page)
    page.context.close()


def test_the_finished_list_is_bounded_and_refuses_an_unknown_status(server) -> None:
    import urllib.error

    from rcw.server.lobby import FINISHED_LISTED

    listed = http(server, "GET", "/api/games?status=finished")["games"]
    assert len(listed) <= FINISHED_LISTED
    with pytest.raises(urllib.error.HTTPError) as e:
        http(server, "GET", "/api/games?status=done")
    assert e.value.code == 400 and b"finished" in e.value.read()
