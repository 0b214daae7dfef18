"""The decision prompts answered on a phone: a 390x844 touch page of a real game, tapped.

tests/test_browser_prompts.py checks every prompt's card (its words, odds and the action each
button sends) in a bare Orders panel.  Here a player holds a seat of a game served by the real
server, on a phone, and answers the Exchange loss, the capture of the Czar, a purge approval, a
counterpurge, the Czar's execution order and the end-game vote by tapping, as a person does: the
map's prompt ("▶ Exchange losses") leads to the Orders tab, the card's buttons are on the screen
(inside 390x844 once scrolled to, above the tab bar, under no toast, apart from each other, big
enough for a thumb, and the topmost thing where the finger lands), and the answer is applied: the
server's game moves on and the page shows it (the card gone, whom the game waits for now, the
result's toast).

A game reaches these prompts only when the dice say so, so each test builds its position with the
engine (the builders of test_browser_prompts.py) and plants it in a real server running in this
process (its own thread and event loop, a MemoryStore) as the game's snapshot at seq 0: the server
rebuilds its replica from it as it rebuilds any game, then every seat is taken by a person and only
the page's player acts.  Where the prompt comes from the page's own tap (the Exchange, the capture:
Resolve, then the prompt under the combat's toast) the position's next die is chosen by its RNG
state.
"""

from __future__ import annotations

import pytest
from browser_helpers import NAMES, PHONE, Live, new_page, open_seat, shot, skip_reason
from engine_helpers import stack_with, uid
from test_browser_prompts import (
    blank,
    pos_attack,
    pos_capture,
    pos_counterpurge,
    pos_execution_consent,
    pos_purge_approval,
    pos_vote,
)

from rcw import actions as A
from rcw.game import Game

pytestmark = pytest.mark.skipif(skip_reason() is not None, reason=skip_reason() or "")

WIDTH, HEIGHT = PHONE["viewport"]["width"], PHONE["viewport"]["height"]


@pytest.fixture(scope="module")
def live():
    s = Live()
    yield s
    s.close()


def next_roll(g: Game, action: A.Action, kind: str) -> Game:
    """``g`` with an RNG state under which ``action`` leads to a ``kind`` decision (tried on copies)."""
    for r in range(1, 1000):
        h = Game.from_bytes(g.to_bytes())
        h.state.rng = r
        h.apply(action)
        if (h.state.decision or {}).get("kind") == kind:
            g.state.rng = r
            return g
    raise AssertionError(f"no RNG state gives a {kind} decision")


# -- the phone ----------------------------------------------------------------------------------------
def _phone(browser, live: Live, g: Game, seat: str):
    """The position ``g`` planted in the server; ``seat``'s player opens it on a phone and sees
    the map, the game waiting on him.  Returns (page, page errors, game id)."""
    gid, tokens = live.plant(g)
    page = new_page(browser, phone=True, timeout=10_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_seat(page, live.base, gid, tokens[seat], seat, NAMES[seat])
    page.wait_for_function("() => document.body?.dataset.mine === '1'")
    assert page.locator(".game").get_attribute("data-mtab") == "map"
    return page, errors, gid


def _boxes_apart(a: dict, b: dict, gap: float = 0) -> bool:
    return (a["x"] + a["width"] + gap <= b["x"] or b["x"] + b["width"] + gap <= a["x"]
            or a["y"] + a["height"] + gap <= b["y"] or b["y"] + b["height"] + gap <= a["y"])


def _reachable(page, loc) -> dict:
    """Where a thumb finds ``loc``: scrolled to, wholly on the 390x844 screen, at least 40 px high,
    above the tab bar (unless in a dialog, which lies over it), under no toast, and the topmost
    element under its centre (what a tap there reaches).  Returns its box."""
    loc.scroll_into_view_if_needed()
    b = loc.bounding_box()
    what = loc.inner_text().strip().replace("\n", " ") or loc.get_attribute("data-act")
    assert b is not None, f"{what!r} is not shown"
    assert b["x"] >= 0 and b["y"] >= 0 and b["x"] + b["width"] <= WIDTH and b["y"] + b["height"] <= HEIGHT, \
        f"{what!r} at {b} is cut off the {WIDTH}x{HEIGHT} screen"
    assert b["height"] >= 40, f"{what!r} is {b['height']} px high: too small to tap"
    if not loc.evaluate("(e) => !!e.closest('.modal')"):
        nav = page.locator(".mnav").bounding_box()
        assert nav and b["y"] + b["height"] <= nav["y"], f"{what!r} at {b} is under the tab bar {nav}"
    _clear_of_toasts(page, loc, repr(what))
    hit = loc.evaluate("(e, [x, y]) => e.contains(document.elementFromPoint(x, y))", [b["x"] + b["width"] / 2, b["y"] + b["height"] / 2])
    assert hit, f"something else lies over {what!r} at {b}"
    return b


def _usable(page, card) -> None:
    """Every button of the prompt is reachable (:func:`_reachable`) and apart from the others
    (a finger on one never lands on its neighbour: 4 px between them at least)."""
    buttons = card.locator("button")
    assert buttons.count() > 0
    boxes = [(buttons.nth(i).inner_text().replace("\n", " "), _reachable(page, buttons.nth(i))) for i in range(buttons.count())]
    for i, (n1, b1) in enumerate(boxes):
        for n2, b2 in boxes[i + 1:]:
            assert _boxes_apart(b1, b2, 4), f"{n1!r} {b1} and {n2!r} {b2} touch: a tap meant for one may hit the other"


def _tap(page, loc) -> None:
    _reachable(page, loc)
    loc.tap()


def _to_the_orders(page, kind: str):
    """The player on the map taps its prompt (it names the decision, first on its line: "An
    attack") and the Orders show the card."""
    prompt = page.locator(".map-prompt")
    assert f"▶ {kind[0].upper()}{kind[1:]}" in prompt.inner_text()
    _tap(page, prompt)
    page.locator('.game[data-mtab="orders"]').wait_for()


def _clear_of_toasts(page, loc, what: str) -> None:
    toasts = page.locator(".toast")
    for i in range(toasts.count()):
        t, b = toasts.nth(i).bounding_box(), loc.bounding_box()
        assert t is None or _boxes_apart(b, t), f"a toast {t} ({toasts.nth(i).inner_text()!r}) lies over {what} at {b}"


def _prompt(page, kind: str):
    """The prompt's card on the Orders tab: shown, no toast over any of it (its heading says
    what is asked), its buttons usable (:func:`_usable`)."""
    card = page.locator(f'.orders [data-decision="{kind}"]')
    card.wait_for()
    assert card.is_visible()
    _clear_of_toasts(page, card, f"the {kind} prompt")
    _usable(page, card)
    return card


def _answered(page, seq: int) -> None:
    page.wait_for_function("(s) => Number(document.body?.dataset.seq) >= s", arg=seq)


def _waiting_for(page, seat: str, kind: str) -> None:
    """The page has moved on: no prompt, the Orders say whom the game waits for and on what."""
    page.locator(".orders .card.decision").wait_for(state="detached")
    line = page.locator(".orders .card.waiting .pending-line")
    line.wait_for()
    assert f"{NAMES[seat]} ({kind})" in line.inner_text()
    assert page.evaluate("document.body?.dataset.mine") == "0"


# -- the prompts --------------------------------------------------------------------------------------
def test_on_a_phone_the_exchange_losses_are_chosen_by_tapping(live, browser) -> None:
    """The attack resolved at 2:1 rolls Ex (004 [8.45]): under the combat's toast the Exchange
    card; the suggested loss tapped, confirmed in the dialog, and the units are gone."""
    g = next_roll(pos_attack(), A.ResolveAttack("A"), "loss")
    page, errors, gid = _phone(browser, live, g, "A")
    _to_the_orders(page, "an attack")
    _tap(page, page.locator('.orders [data-act="ResolveAttack"]'))
    toast = page.locator(".toast.result")
    toast.wait_for()
    assert "Exchange in TVER" in toast.inner_text()
    card = _prompt(page, "loss")                    # (the toast still up: it covers none of the buttons)
    _, there = live.game(gid)
    suggested = there.minimum_loss("A")
    assert suggested and sorted(int(x) for x in card.locator(".pick.suggested").evaluate_all("(es) => es.map((e) => e.dataset.unit)")) \
        == sorted(suggested)
    shot(page, "phone-prompt-loss.png")
    _tap(page, card.locator('[data-act="suggested-loss"]'))
    dialog = page.locator(".modal")
    dialog.wait_for()
    assert "the Exchange needs 5" in dialog.inner_text()
    _reachable(page, dialog.locator('[data-act="loss-back"]'))
    _tap(page, dialog.locator('[data-act="confirm-loss"]'))
    _answered(page, 1 + len(suggested))
    seq, there = live.game(gid)
    assert seq == 1 + len(suggested) and there.state.decision is None and there.pending == [{"seat": "A", "kind": "combat"}]
    assert all(there.ctx.b.stack_of(u) is None for u in suggested)             # removed from the map
    assert there.ctx.b.stack_of(uid("Lenin")) is not None                       # (the leader kept)
    page.locator(".orders .card.decision").wait_for(state="detached")
    page.locator('.orders [data-act="EndCombat"]').wait_for()                   # back to the Combat Phase
    assert page.locator(".modal").count() == 0
    assert not errors, errors
    page.context.close()


def test_on_a_phone_the_czar_is_captured_by_tapping(live, browser) -> None:
    """Kolchak eliminates the Czar's guard (004 [13.41]): under the combat's toast the capture
    card; "Attach the Czar to Kolchak" tapped, and the Czar is in Kolchak's stack."""
    g = next_roll(pos_capture(die=None), A.ResolveAttack("A"), "capture")
    page, errors, gid = _phone(browser, live, g, "A")
    _to_the_orders(page, "an attack")
    _tap(page, page.locator('.orders [data-act="ResolveAttack"]'))
    page.locator(".toast.result").wait_for()
    card = _prompt(page, "capture")
    assert "Capture an Imperial unit" in card.inner_text()
    shot(page, "phone-prompt-capture.png")
    _tap(page, card.locator('[data-act="CaptureImperial"]'))
    _answered(page, 2)
    seq, there = live.game(gid)
    assert seq == 2 and there.state.decision is None and there.pending == [{"seat": "A", "kind": "combat"}]
    assert uid("Czar") in stack_with(there, "Kolchak").units and stack_with(there, "Kolchak").owner == "A"
    page.locator(".orders .card.decision").wait_for(state="detached")
    page.locator('.orders [data-act="EndCombat"]').wait_for()
    assert not errors, errors
    page.context.close()


def test_on_a_phone_a_purge_is_approved_by_tapping(live, browser) -> None:
    """A proposes the Committee's purge of D (004 [11.23]); B taps Approve: C is asked next."""
    page, errors, gid = _phone(browser, live, pos_purge_approval(), "B")
    _to_the_orders(page, "approving a purge")
    card = _prompt(page, "purge_approval")
    assert "purge D" in card.inner_text() and "column" in card.inner_text()
    shot(page, "phone-prompt-purge-approval.png")
    _tap(page, card.locator('[data-act="ApprovePurge"].primary'))
    _answered(page, 1)
    seq, there = live.game(gid)
    assert seq == 1 and there.pending == [{"seat": "C", "kind": "purge_approval"}]
    assert there.state.decision["purge"]["target"] == "D"
    _waiting_for(page, "C", "approving a purge")
    assert not errors, errors
    page.context.close()


def test_on_a_phone_a_counterpurge_is_made_by_tapping(live, browser) -> None:
    """The purge of D rolled C (004 [11.24]); D taps "Counterpurge B": the counterpurge is
    rolled, its result shows in a toast, and play goes on."""
    page, errors, gid = _phone(browser, live, pos_counterpurge(), "D")
    _to_the_orders(page, "a counterpurge")
    card = _prompt(page, "counterpurge")
    assert "Counterpurge!" in card.inner_text()
    shot(page, "phone-prompt-counterpurge.png")
    _tap(page, card.locator('[data-act="Counterpurge"][data-target="B"]'))
    _answered(page, 1)
    seq, there = live.game(gid)
    assert seq == 1 and there.state.decision is None and there.pending == [{"seat": "E", "kind": "movement"}]
    toast = page.locator('.toast.result[data-result="counterpurge"]')
    toast.wait_for()
    assert toast.inner_text().startswith("Counterpurge of B by D")
    _waiting_for(page, "E", "Movement")
    assert not errors, errors
    page.context.close()


def test_on_a_phone_the_czars_execution_is_consented_to_by_tapping(live, browser) -> None:
    """A orders the Czar's execution; B, of the Committee, taps Consent (004 [13.52]): C, who
    holds the Czar, is to comply or refuse."""
    page, errors, gid = _phone(browser, live, pos_execution_consent(), "B")
    _to_the_orders(page, "an execution order")
    card = _prompt(page, "execution_consent")
    assert "Execute the Czar?" in card.inner_text()
    shot(page, "phone-prompt-execution-consent.png")
    _tap(page, card.locator('[data-act="OrderExecution"].primary'))
    _answered(page, 1)
    seq, there = live.game(gid)
    assert seq == 1 and there.pending == [{"seat": "C", "kind": "execution"}]
    assert there.state.decision["by"] == ["A", "B"]
    _waiting_for(page, "C", "the Czar's execution")
    assert not errors, errors
    page.context.close()


def test_on_a_phone_the_end_game_vote_is_cast_by_tapping(live, browser) -> None:
    """No White leader is left outside Siberia (004 [14.1]): A taps "End the game"; B votes next."""
    page, errors, gid = _phone(browser, live, pos_vote(), "A")
    _to_the_orders(page, "the end-game vote")
    card = _prompt(page, "vote")
    assert "End-game vote" in card.inner_text()
    shot(page, "phone-prompt-vote.png")
    _tap(page, card.locator('[data-act="VoteEndGame"].primary'))
    _answered(page, 1)
    seq, there = live.game(gid)
    assert seq == 1 and there.pending == [{"seat": "B", "kind": "vote"}]
    assert there.state.decision["voters"] == ["B", "C"]
    _waiting_for(page, "B", "the end-game vote")
    assert not errors, errors
    page.context.close()


# -- the map after the Orders tab ----------------------------------------------------------------------
def test_on_a_phone_a_force_started_from_the_orders_is_on_the_map_when_it_is_shown(live, browser) -> None:
    """Found in play: a leader picked on the Orders tab (the map hidden), then the Map tab: the map
    stayed where it was, the force off the screen, to be looked for.  Now the map brings the
    force under way into view when it is shown."""
    from engine_helpers import put
    from test_browser_prompts import blank

    g = blank("A")
    put(g, "PETR", "A", "Lenin")
    put(g, "VLDV", "A", "Trotsky")
    page, errors, gid = _phone(browser, live, g, "A")

    def on_screen(code: str) -> bool:
        box = page.locator(f'svg [data-province="{code}"]').first.bounding_box()
        nav = page.locator(".mnav").bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        return 0 <= x <= WIDTH and 0 <= y <= nav["y"]

    page.evaluate("rcwApp.board.centreOn('PETR', true)")
    assert on_screen("PETR") and not on_screen("VLDV")           # (the test's premise: Vladivostok far off)
    page.locator('.mtab[data-tab="orders"]').tap()
    _tap(page, page.locator(f'.orders [data-act="StartForce"][data-unit="{uid("Trotsky")}"]'))
    _answered(page, 1)
    page.locator('.mtab[data-tab="map"]').tap()
    page.wait_for_function("() => document.querySelector('.game').dataset.mtab === 'map'")
    page.wait_for_timeout(300)                                    # (a frame or two for the map to move)
    assert on_screen("VLDV"), "the force under way is off the screen"
    assert "tap a ringed province" in page.locator(".map-prompt").inner_text()     # (a phone is tapped)
    # (alone, without the desktop's "Your decision:", the decision begins the line with a capital)
    assert page.locator(".map-prompt").inner_text().startswith("▶ Moving a force"), page.locator(".map-prompt").inner_text()
    shot(page, "phone-force-from-orders.png")
    assert not errors, errors
    page.context.close()


def test_on_a_phone_opening_a_channel_does_not_bring_up_the_keyboard(live, browser) -> None:
    """Found in play: every channel tapped put the focus in the message box, which on a phone
    brings up the keyboard over the messages just opened to read.  On a touch screen the box is
    focused only when the player taps it (on a desktop it still is, to type at once)."""
    from test_browser_prompts import blank

    page, errors, gid = _phone(browser, live, blank("A"), "A")
    page.locator('.mtab[data-tab="talk"]').tap()
    for channel in ("A-B", "public"):
        tab = page.locator(f'.chan-tab[data-channel="{channel}"]')
        tab.tap()
        page.wait_for_function("(c) => document.querySelector('.chan-tab.on').dataset.channel === c", arg=channel)
        assert page.evaluate("() => document.activeElement.tagName") != "TEXTAREA", channel
    assert not errors, errors
    page.context.close()


def test_on_a_phone_the_players_strip_shows_there_is_more_of_it(live, browser) -> None:
    """QA: on a phone the players' strip scrolls sideways with no hint, the last players off the
    screen.  Its far edge now fades while there is more of it, and not once scrolled to its end."""
    page, errors, _gid = _phone(browser, live, blank("A"), "A")
    strip = page.locator(".strip")
    assert strip.locator(".pcard").count() == 5
    assert page.evaluate("() => { const s = document.querySelector('.strip'); return s.scrollWidth > s.clientWidth; }")
    page.wait_for_function("() => document.querySelector('.strip').classList.contains('more')")
    page.evaluate("() => { const s = document.querySelector('.strip'); s.scrollLeft = s.scrollWidth; s.dispatchEvent(new Event('scroll')); }")
    page.wait_for_function("() => !document.querySelector('.strip').classList.contains('more')")
    assert not errors, errors
    page.context.close()


def test_on_a_phone_a_force_in_the_south_has_its_ringed_provinces_above_the_prompt(live, browser) -> None:
    """QA: a force started in the south stood in view, so the map stayed; the provinces it could
    move to lay under the map's prompt ("▶ moving a force — tap a ringed province") and the tab
    bar, to be found by dragging the map.  Now the map brings the force and every ringed
    province into the open part of the screen, each one the topmost thing where a thumb taps."""
    from engine_helpers import put

    g = blank("A")
    put(g, "TIFL", "A", "Lenin")
    page, errors, gid = _phone(browser, live, g, "A")
    # the map zoomed in and scrolled so that Erivan, south of Tiflis, lies where the prompt will be
    prompt_y = page.evaluate("""() => { const b = rcwApp.board; b.zoomBy(0.3); const vb = b.vb, r = b.svg.getBoundingClientRect();
      const k = Math.min(r.width / vb.w, r.height / vb.h), oy = r.top + (r.height - vb.h * k) / 2;
      const ox = r.left + (r.width - vb.w * k) / 2, x = (r.left + r.right) / 2;
      const nav = document.querySelector('.mnav').getBoundingClientRect(), y = nav.top - 12;
      b.setVB({ ...vb, x: b.boxes.TIFL.cx - (x - ox) / k, y: b.boxes.ERIV.cy - (y - oy) / k }); return y; }""")
    page.wait_for_timeout(200)
    tifl = page.locator('svg [data-province="TIFL"]').first.bounding_box()
    assert tifl["y"] + tifl["height"] / 2 < prompt_y - 150        # (the premise: Tiflis well in view)

    def tappable(code: str) -> bool:
        ring = page.locator(f'svg .move-target[data-province="{code}"]')
        b = ring.bounding_box()
        x, y = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
        return 0 <= x <= WIDTH and 0 <= y <= HEIGHT and ring.evaluate("(e, [x, y]) => e.contains(document.elementFromPoint(x, y))", [x, y])

    page.evaluate(f"rcwApp.act({{t: 'StartForce', seat: 'A', unit: {uid('Lenin')}}})")
    _answered(page, 1)
    page.locator("svg .move-target").first.wait_for()
    page.wait_for_timeout(300)                                    # (a frame or two for the map to move)
    rings = page.evaluate("[...document.querySelectorAll('svg .move-target')].map((e) => e.dataset.province)")
    assert len(rings) >= 3, rings
    assert "tap a ringed province" in page.locator(".map-prompt").inner_text()
    shot(page, "phone-force-in-the-south.png")
    hidden = [code for code in rings if not tappable(code)]
    assert not hidden, f"ringed provinces under the prompt, the tab bar or off the screen: {hidden}"
    assert not errors, errors
    page.context.close()
