"""001's optional forces in the browser: a game created with them shows Makhno on the board as a
black counter (the Anarchists' colour) and names him, in Debian's headless Chromium.  (The
lobby's Options panel is tested with the lobby; here the game is created through the API.)"""

from __future__ import annotations

import pytest
from browser_helpers import DESKTOP, browser, http, open_seat, server, shot, skip_reason  # noqa: F401

pytestmark = pytest.mark.skipif(skip_reason() is not None, reason=skip_reason() or "")


def test_makhno_stands_black_in_yekaterinoslav(server, browser) -> None:  # noqa: F811
    """001 Anarchists: Makhno - "It begins the game in Yekaterinoslav, and is initially controlled
    by no player": once the trading session is over he is on the map, a black counter."""
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
    # Makhno's counter as the board draws it, read in one go as soon as it is drawn (the random bots
    # play on at once, and may attack him or take him soon after)
    drawn = page.wait_for_function("""() => {
        const s = window.rcwApp && window.rcwApp.st.view.stacks.find((x) => x.units.includes(601));
        const c = s && document.querySelector(`svg.board g.counter[data-stack="${s.id}"]`);
        return c ? { color: c.dataset.color, fill: c.querySelector("rect.c-body").getAttribute("fill"),
                     title: c.querySelector("title").textContent } : null; }""").json_value()
    page.evaluate("window.rcwApp.board.centreOn('YEKA', true)")
    assert drawn["color"] == "Anarchist"
    assert drawn["fill"] == "#151515"
    assert "AU6 Makhno" in drawn["title"]
    shot(page, "makhno.png")
    assert not errors, errors
    page.close()
