"""001's optional forces in the browser: a game created with them shows Makhno on the board as a
black counter (the Anarchists' colour) and names him, in Debian's headless Chromium.  (The
lobby's Options panel is tested with the lobby; here the game is created through the API.)"""

from __future__ import annotations

import pytest
from browser_helpers import DESKTOP, browser, http, open_seat, server, shot, skip_reason  # noqa: F401

pytestmark = pytest.mark.skipif(skip_reason() is not None, reason=skip_reason() or "")


def _makhno_as_drawn(server, browser) -> tuple[dict, object, list]:  # noqa: F811
    """A three-player game with 001's options and three human seats, each opened in a page of its
    own, where every seat ends the trading session (no bot plays on, so nothing moves until a
    player does): Makhno's counter as A's board draws it once the session is over, A's page,
    the pages' script errors and the pages."""
    g = http(server, "POST", "/api/games", {"players": 3,
                                            "options": {"anarchists": True, "shock_armies": True, "freikorps": True,
                                                        "additional_draws": True, "max_turns": 2}})
    gid = g["game"]
    errors: list[str] = []
    pages = []
    for seat, name in (("A", "Anna"), ("B", "Boris"), ("C", "Clara")):
        j = http(server, "POST", f"/api/games/{gid}/join", {"seat": seat, "name": name})
        page = browser.new_page(viewport=DESKTOP)
        page.set_default_timeout(30_000)
        page.on("pageerror", lambda e: errors.append(str(e)))
        open_seat(page, server, gid, j["token"], seat, name)
        pages.append(page)
    for page in pages:
        page.locator('.orders [data-act="EndTrading"]').first.click()
    page = pages[0]
    drawn = page.wait_for_function("""() => {
        const v = window.rcwApp && window.rcwApp.st.view;
        if (!v || v.phase === "trading") return null;
        const s = v.stacks.find((x) => x.units.includes(601));
        if (!s) return { gone: true };
        const c = document.querySelector(`svg.board g.counter[data-stack="${s.id}"]`);
        return c ? { color: c.dataset.color, fill: c.querySelector("rect.c-body").getAttribute("fill"),
                     title: c.querySelector("title").textContent } : null; }""").json_value()
    return drawn, page, errors, pages


def test_makhno_stands_black_in_yekaterinoslav(server, browser) -> None:  # noqa: F811
    """001 Anarchists: Makhno - "It begins the game in Yekaterinoslav, and is initially controlled
    by no player": once the trading session is over he is on the map, a black counter."""
    drawn, page, errors, pages = _makhno_as_drawn(server, browser)
    assert not drawn.get("gone"), "Makhno is not on the map once the trading session is over"
    assert drawn["color"] == "Anarchist"
    assert drawn["fill"] == "#151515"
    assert "AU6 Makhno" in drawn["title"]
    page.evaluate("window.rcwApp.board.centreOn('YEKA', true)")
    shot(page, "makhno.png")
    assert not errors, errors
    for p in pages:
        p.close()
