"""The lobby's Options panel (issue 14) in Debian's headless Chromium against a real ``rcw serve``,
at 1280x800 and on a 390x844 phone: every option of the engine's registry (rcw.options, sent in
data.json) is offered in its group; a game created with options ticked in several groups gets
them, and its menu shows them in words."""

from __future__ import annotations

import pytest
from browser_helpers import DESKTOP, PHONE, http, shot, skip_reason

from rcw import options as O

pytestmark = pytest.mark.skipif(skip_reason() is not None, reason=skip_reason() or "")

#: what the test ticks: options of different groups (name -> value)
TICKED = {"max_turns": 4, "reduced_leader_movement": True, "white_green_combine": True, "turn5_replacements": False}


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_a_game_created_from_the_lobby_gets_the_options_ticked(server, browser, phone) -> None:
    ctx = browser.new_context(**PHONE) if phone else browser.new_context(viewport=DESKTOP)
    ctx.set_default_timeout(20_000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/")
    page.click("details.options summary")
    # every option of the registry, in the group the registry gives it, with its source
    for name, o in O.OPTIONS.items():
        row = page.locator(f'fieldset.opt-group[data-group="{o.group}"] .form-row.opt[data-option="{name}"]')
        assert row.count() == 1, name
        assert o.source in row.inner_text()
    assert [page.locator("fieldset.opt-group legend").nth(i).inner_text()
            for i in range(page.locator("fieldset.opt-group").count())] == \
        [h for g, h in O.GROUPS.items() if any(o.group == g for o in O.OPTIONS.values())]
    page.fill("#g-name", "Options from the lobby")
    for name, v in TICKED.items():
        el = page.locator(f"#g-opt-{name}")
        if isinstance(v, bool):
            el.set_checked(v)
        else:
            el.fill(str(v))
    page.locator("#g-opt-turn5_replacements").scroll_into_view_if_needed()
    shot(page, f"lobby-options-{'phone' if phone else 'desktop'}.png")
    page.click("#g-create")
    page.wait_for_function("() => location.hash.startsWith('#/g/') && document.body.dataset.status")
    gid = page.evaluate("() => location.hash.split('/')[2]")
    info = http(server, "GET", f"/api/games/{gid}")
    assert info["options"] == TICKED
    # the menu shows them in words
    page.click(".menu-btn")
    text = page.locator(".modal").inner_text()
    assert "options: " + ", ".join(O.words(TICKED)) in text
    shot(page, f"lobby-options-menu-{'phone' if phone else 'desktop'}.png")
    assert not errors
    ctx.close()
