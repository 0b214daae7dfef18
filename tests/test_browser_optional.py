"""001's optional forces in the browser: a game created with them shows Makhno on the board as a
black counter (the Anarchists' colour) and names him, in Debian's headless Chromium.  (The
lobby's Options panel is tested with the lobby; here the game is created through the API.)"""

from __future__ import annotations

import pytest
from browser_helpers import DESKTOP, browser, http, open_seat, server, shot, skip_reason  # noqa: F401

pytestmark = pytest.mark.skipif(skip_reason() is not None, reason=skip_reason() or "")


def _makhno_as_drawn(server, browser) -> tuple[dict, object, list[str]]:  # noqa: F811
    """A three-player game with 001's options (random bots in B and C), opened as A, trading
    ended: Makhno's counter as the board draws it, read in one go as soon as it is drawn (the
    random bots play on at once: he may be attacked, or his stack merged, soon after), or
    ``{"gone": True}`` if the bots eliminated him before the board showed him."""
    g = http(server, "POST", "/api/games", {"players": 3, "bots": "random", "bot_seats": ["B", "C"],
                                            "options": {"anarchists": True, "shock_armies": True, "freikorps": True,
                                                        "additional_draws": True, "max_turns": 2}})
    gid = g["game"]
    j = http(server, "POST", f"/api/games/{gid}/join", {"seat": "A", "name": "Anna"})
    page = browser.new_page(viewport=DESKTOP)
    page.set_default_timeout(30_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_seat(page, server, gid, j["token"])
    page.locator('.orders [data-act="EndTrading"]').first.click()
    drawn = page.wait_for_function("""() => {
        const v = window.rcwApp && window.rcwApp.st.view;
        if (!v || v.phase === "trading") return null;
        const s = v.stacks.find((x) => x.units.includes(601));
        if (!s) return { gone: true };
        const c = document.querySelector(`svg.board g.counter[data-stack="${s.id}"]`);
        return c ? { color: c.dataset.color, fill: c.querySelector("rect.c-body").getAttribute("fill"),
                     title: c.querySelector("title").textContent } : null; }""").json_value()
    return drawn, page, errors


def test_makhno_stands_black_in_yekaterinoslav(server, browser) -> None:  # noqa: F811
    """001 Anarchists: Makhno - "It begins the game in Yekaterinoslav, and is initially controlled
    by no player": once the trading session is over he is on the map, a black counter.  (A new
    game is made, at most three times, if the random bots eliminated him before the board drew
    him: seen once in a loaded CI run.)"""
    for _ in range(3):
        drawn, page, errors = _makhno_as_drawn(server, browser)
        if not drawn.get("gone"):
            break
        page.close()
    assert not drawn.get("gone"), "the bots eliminated Makhno before the board drew him, three games running"
    assert drawn["color"] == "Anarchist"
    assert drawn["fill"] == "#151515"
    assert "AU6 Makhno" in drawn["title"]
    page.evaluate("window.rcwApp.board.centreOn('YEKA', true)")
    shot(page, "makhno.png")
    assert not errors, errors
    page.close()
