"""The page's menu and its *Verify the dice* button (server/static/js/verify.js), in Debian's
headless Chromium against a real ``rcw serve``, at 1280x800 and on a 390x844 phone.

A spectator opens a bot game while it is being played (the page notes the seed commitment the
server published), the game ends, and Verify hashes the revealed seed in the browser, compares it
with the noted commitment and shows the server's replay verdict.  The menu also shows the options
in words (issue 17 bug 7) and closes when "Replay so far" opens the replay (bug 2).
"""

from __future__ import annotations

import pytest
from browser_helpers import DESKTOP, PHONE, chromium, http, rcw_server, shot, skip_reason

pytestmark = pytest.mark.skipif(skip_reason() is not None, reason=skip_reason() or "")


@pytest.fixture(scope="module")
def server():
    with rcw_server() as base:
        yield base


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_verify_the_dice_of_a_finished_game(server, browser, phone) -> None:
    g = http(server, "POST", "/api/games", {"players": 3, "bots": "random", "options": {"max_turns": 1}})
    gid = g["game"]
    ctx = browser.new_context(**PHONE) if phone else browser.new_context(viewport=DESKTOP)
    ctx.set_default_timeout(20_000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/#/g/{gid}")
    page.wait_for_function("() => document.body.dataset.status")
    noted = page.evaluate(f"() => JSON.parse(localStorage.getItem('rcw:commit:{gid}')).commitment")
    assert noted == g["info"]["commitment"]
    # the menu while the game runs: options in words, the commitment, no Verify yet
    page.click(".menu-btn")
    menu = page.locator(".modal")
    assert "options: max turns 1" in menu.inner_text() and "{" not in menu.inner_text()
    assert g["info"]["commitment"][:24] in menu.locator(".commitment").inner_text()
    assert menu.locator('[data-act="verify"]').count() == 0
    page.keyboard.press("Escape")
    http(server, "POST", f"/api/games/{gid}/bots", {}, g["admin_token"])
    page.wait_for_function("() => document.body.dataset.status === 'over'", timeout=120_000)
    # "Replay so far" closes the menu it was chosen from (bug 2)
    page.click(".menu-btn")
    page.click('.modal [data-act="replay"]')
    page.locator(".replay-slider").wait_for()
    assert page.locator(".modal-back").count() == 0
    page.click('[data-act="close-replay"]')
    # Verify: three checks, each passed
    page.click(".menu-btn")
    page.click('.modal [data-act="verify"]')
    dlg = page.locator('.modal[data-verified]')
    dlg.wait_for()
    assert dlg.get_attribute("data-verified") == "yes"
    items = dlg.locator(".verify-item")
    assert items.count() == 3
    assert [items.nth(i).get_attribute("data-ok") for i in range(3)] == ["yes", "yes", "yes"]
    text = dlg.inner_text()
    assert "Seed" in text and "actions replayed legally" in text
    shot(page, f"verify-{'phone' if phone else 'desktop'}.png")
    page.keyboard.press("Escape")
    # a commitment that is not the one this browser saw at the start fails the first check
    page.evaluate(f"() => localStorage.setItem('rcw:commit:{gid}', JSON.stringify({{commitment: '{'0' * 64}'}}))")
    page.click(".menu-btn")
    page.click('.modal [data-act="verify"]')
    dlg = page.locator('.modal[data-verified]')
    dlg.wait_for()
    assert dlg.get_attribute("data-verified") == "no"
    assert dlg.locator('.verify-item[data-ok="no"]').count() == 1
    assert "this browser noted 0000" in dlg.inner_text()
    assert not errors
    ctx.close()
