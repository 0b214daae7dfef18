"""Talking with the bots in the browser (issue 18), Debian's headless Chromium against a real
``rcw serve``, at 1280x800 and on a 390x844 phone.

A human proposes, from the chat's Propose menu, a trade and a pact to the SDT bot B; the page
shows B's answers with its reasons, labels B's counter-proposal card with the proposal it
counters, and the human accepts it there.  A pact the human then breaks with a real attack (over
the WebSocket, as another tab of the same seat would) shows as a notice in the pair channel,
and the channel's head says the pact was broken.  Screenshots: ``artifacts/talk-*.png``.
"""

from __future__ import annotations

import time

import pytest
from browser_helpers import (
    PLAY_ON,
    as_seat,
    http,
    keep_toasts,
    new_page,
    open_channel,
    open_seat,
    shot,
    skip_reason,
    toast_text,
)

pytestmark = pytest.mark.skipif(skip_reason() is not None, reason=skip_reason() or "")

#: Each wait's limit: the suite runs two files at once on a shared two-core machine, where a bot
#: game beside a page has held a click for more than 20 s (a slow page still passes; a stuck one fails).
SLOW = 60_000


def _open(server: str, browser, seed: int, phone: bool):
    """A three-player game of ``seed`` with the SDT bots in B and C; Anna's page as A, on the
    chat's pair channel with B.  The context, the page, the page's errors, A's token."""
    g = http(server, "POST", "/api/games", {"players": 3, "bots": "sdt", "bot_seats": ["B", "C"], "seed": seed,
                                            "options": {"max_turns": 2}})
    j = http(server, "POST", f"/api/games/{g['game']}/join", {"seat": "A", "name": "Anna"})
    page = new_page(browser, phone, SLOW)
    ctx = page.context
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_seat(page, server, g["game"], j["token"])
    page.click('.mnav .mtab[data-tab="talk"]' if phone else '.dtabs .dtab[data-tab="talk"]')
    page.locator('[data-act="propose-menu"]').wait_for()
    open_channel(page, "A-B")
    return ctx, page, errors, g["game"], j["token"]


def _propose(page, what: str) -> None:
    page.click('[data-act="propose-menu"]')
    page.click(f'.propose-menu [data-act="{what}"]')
    page.locator(".modal").wait_for()


def _posted_and_answered(page, post: str, card: str):
    """Post the dialog's proposal; its message id and the reason of the answer to it, once shown."""
    page.click(f'.modal [data-act="{post}"]')
    mine = page.locator(f".msg-list {card}").first
    mine.wait_for()
    mid = mine.get_attribute("data-msg")
    reason = page.locator(f'.msg.reply:has([data-act="goto-msg"][data-msg="{mid}"]) .reply-reason')
    reason.wait_for()
    return mid, reason


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_a_trade_and_a_pact_to_a_bot_are_answered_with_reasons_and_a_counter_card_is_accepted(server, browser, phone):
    # Seed 0, the pre-game session: the bots' table is not set up (column 3, B asks a worth of
    # 0), so one Politburo marker asked for nothing (-2 to B) is countered, and a pact accepted.
    ctx, page, errors, _, _ = _open(server, browser, 0, phone)
    assert page.evaluate("() => document.body?.dataset.phase") == "trading"
    # the bot's channel says how to talk to a bot (it reads no plain words)
    assert "it answers proposals (Propose" in page.locator(".chan-head .bot-hint").inner_text()

    # the trade: B's answer with its reason, then its counter card naming the proposal
    _propose(page, "propose-trade")
    assert page.locator('.modal .seg button.on[data-to="B"]').count() == 1      # (the channel's other seat)
    page.fill('.modal [data-field="take_politburo"]', "1")
    ask_id, reason = _posted_and_answered(page, "post-trade", '.proposal[data-kind="trade"]:not(.counter)')
    assert reason.get_attribute("data-accept") == "0"
    assert reason.inner_text().startswith("B counters: worth -2 to B") and "PCT 3 with A (2 friendliest, 7 most hostile)" in reason.inner_text()
    card = page.locator(f'.proposal.counter[data-counter="{ask_id}"]')
    card.wait_for()
    assert card.locator(".counter-tag").inner_text() == f"counter-proposal to #{ask_id}"
    assert "B gives" in card.inner_text() and "1 Politburo" in card.inner_text()
    shot(page, f"talk-counter-{'phone' if phone else 'desktop'}.png")
    card.locator('[data-act="accept"]').click()
    card.locator(".ans.yes").wait_for()                      # A's acceptance, on the card
    page.wait_for_function("() => (window.rcwApp.st.view.offers || []).length === 0")

    # the pact: B agrees, with its reason; the channel's head shows the pact
    _propose(page, "propose-pact")
    assert page.locator('.modal .seg button.on[data-with="B"]').count() == 1
    pid, agrees = _posted_and_answered(page, "post-pact", '.proposal[data-kind="pact"]')
    assert agrees.get_attribute("data-accept") == "1" and agrees.inner_text().startswith("B agrees: no attacks")
    page.locator(".chan-head .pact-badge:not(.broken)").wait_for()
    assert "pact until the end of Game-Turn" in page.locator(".chan-head .pact-badge").inner_text()
    shot(page, f"talk-pact-{'phone' if phone else 'desktop'}.png")
    assert "null" not in page.locator(".msg-list").inner_text()
    # the reply names the proposal it answers: a click shows it
    page.locator(f'.msg.reply [data-act="goto-msg"][data-msg="{pid}"]').click()
    page.locator(f'.msg.flash[data-id="{pid}"]').wait_for()
    # (and stays flashing when the list is drawn again meanwhile, as the game's news redraws it:
    # before, a redraw took the flash away before it was seen)
    page.evaluate("() => rcwApp.chat.renderMessages()")
    assert page.locator(f'.msg.flash[data-id="{pid}"]').count() == 1
    assert not errors, errors
    ctx.close()


def _to_combat(base: str, gid: str, token: str) -> None:
    """Seat A, over its own WebSocket: to its first Combat Phase."""
    from test_server_play import until_free

    async def act(c) -> None:
        assert await until_free({"A": c}) == "A"
        while c.view["phase"] != "combat":
            await c.act(next(x for x in c.legal if x["t"].startswith("End") or x["t"] == "RollRandomEvents"))
            await c.wait_for(lambda c: any(p["seat"] == "A" for p in c.pending), 10)
    as_seat(base, gid, token, act)


def _attack_b(base: str, gid: str, token: str) -> None:
    """Seat A, over its own WebSocket: to its first Combat Phase and an attack on B's stack
    (tests/test_server_talk.py)."""
    from test_server_play import until_free
    from test_server_talk import attack_b

    async def act(c) -> None:
        assert await until_free({"A": c}) == "A"
        await attack_b(c)
    as_seat(base, gid, token, act)


def test_a_broken_pact_is_a_notice_in_the_pair_channel(server, browser):
    # Seed 5: A plays first in Game-Turn 1 and its stacks share VLDV with one of B's.
    ctx, page, errors, gid, token = _open(server, browser, 5, False)
    _propose(page, "propose-pact")
    page.click('.modal [data-act="post-pact"]')
    page.locator('.msg-list .reply-reason[data-accept="1"]').wait_for()
    # QA: nothing warned before the attack.  Now, in A's Combat Phase, the Orders panel's attack
    # on B's stack says it breaks the pact (and the attacks on others do not)
    _to_combat(server, gid, token)
    page.locator('.orders [data-act="DeclareAttack"]').first.wait_for()
    for b in page.locator('.orders [data-act="DeclareAttack"]').all():
        owner = page.evaluate("(id) => (rcwApp.st.view.stacks.find((s) => s.id === id) || {}).owner", int(b.get_attribute("data-target")))
        text = b.inner_text()
        assert ("breaks your pact with B (until the end of Game-Turn" in text) == (owner == "B"), (owner, text)
    assert page.locator(".orders .pact-note").count() >= 1
    # ... and so does the stack card of B's stack, in the same words
    b_stack = page.evaluate("() => rcwApp.st.view.stacks.find((s) => s.owner === 'B' && s.province === 'VLDV').id")
    page.evaluate("window.rcwApp.board.centreOn('VLDV', true)")
    page.locator(f'svg g[data-stack="{b_stack}"]').first.click()
    card_attack = page.locator(f'.inspector .stack-card[data-stack="{b_stack}"] [data-act="DeclareAttack"]').first
    assert "Attack: breaks your pact with B (until the end of Game-Turn" in card_attack.inner_text()
    page.evaluate("window.rcwApp.select(null)")
    _attack_b(server, gid, token)
    note = page.locator(".msg-list .msg.notice.pact-broken")
    note.wait_for()
    assert "A broke its pact with B" in note.inner_text() and "Pact broken" in note.inner_text()
    assert page.locator(".chan-head .pact-badge.broken").inner_text() == "pact broken by A"
    shot(page, "talk-pact-broken-desktop.png")
    assert not errors, errors
    ctx.close()


def test_the_spi_solitaire_offers_no_proposal(server, browser):
    """The SPI solitaire has no Politburo, Committee or trades (004 [18.0]) and its seat N is the
    engine, which answers nothing: the chat offers no Propose menu (before, it offered a trade, a
    pact and a Committee to N, and the pact was posted and never answered), and a proposal the
    page is asked to send is not sent."""
    page = new_page(browser, False, SLOW)
    ctx = page.context
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/")
    page.click('[data-act="solo-spi"]')                   # the lobby's one click: Red (R) against the engine (N)
    page.wait_for_function("() => document.body?.dataset.seat === 'R'")
    assert page.evaluate("() => Boolean(rcwApp.st.view.solitaire)")
    page.click('.dtabs .dtab[data-tab="talk"]')
    for name in ("N-R", "public"):
        open_channel(page, name)
        page.locator('.chat-tools [data-act="new-group"]').wait_for()     # (the chat's tools are shown)
        assert page.locator('[data-act="propose-menu"]').is_hidden()
        assert page.locator(".propose-menu").is_hidden()
    sent = page.evaluate("() => rcwApp.chat.propose(['R', 'N'], {kind: 'pact', with: 'N', until: 1})")
    assert sent is False
    assert page.locator(".msg-list .proposal").count() == 0
    for name in ("N-R", "public"):                        # nothing reached the server
        assert page.evaluate(f"() => rcwApp.conn.request('history', {{channel: {name!r}, after: 0, limit: 500}})"
                             ".then((r) => r.messages.length)") == 0
    assert not errors, errors
    ctx.close()


def _anna_and_boris(server: str, browser, options: dict | None = None):
    """A three-seat game of seed 0 with two people, Anna (A) and Boris (B), and a bot in C;
    Boris's page open on it (every toast it shows kept in ``window.__toasts``): (the page, its
    page errors, the game's id, Anna's seat as joined, Boris's)."""
    g = http(server, "POST", "/api/games", {"players": 3, "seed": 0, "bots": "random", "bot_seats": ["C"],
                                            "options": options or {}})
    gid = g["game"]
    a = http(server, "POST", f"/api/games/{gid}/join", {"seat": "A", "name": "Anna"})
    b = http(server, "POST", f"/api/games/{gid}/join", {"seat": "B", "name": "Boris"})
    page = new_page(browser, False, SLOW)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    keep_toasts(page)
    open_seat(page, server, gid, b["token"], "B", "Boris")
    return page, errors, gid, a, b


def _invited(server: str, browser, options: dict | None = None):
    """A three-seat game (Anna A, Boris B, a bot in C) past its trading session, Boris's page on
    the A-B channel showing Anna's invitation to a Central Committee of A and B, which he may
    accept: (the page, its page errors, Anna's seat as joined, with the game's id)."""
    # (seed 0: A and B hold 12 Politburo markers, enough for a Committee, 004 [11.11])
    page, errors, gid, a, b = _anna_and_boris(server, browser, options)

    async def end_trading(c) -> None:
        await c.act({"t": "EndTrading", "seat": "A"})

    async def invite(c) -> None:       # (as the chat's Propose menu posts it; not in the pre-game session, 004 [15.33])
        await c.chat("A-B", "Central Committee of A, B?", {"kind": "committee", "members": ["A", "B"]})
    as_seat(server, gid, a["token"], end_trading)
    page.locator('.orders [data-act="EndTrading"]').click()
    page.wait_for_function("() => document.body?.dataset.phase !== 'trading'")
    as_seat(server, gid, a["token"], invite)
    page.click('.dtabs .dtab[data-tab="talk"]')
    open_channel(page, "A-B")
    page.locator('.msg-list .proposal[data-kind="committee"] [data-act="accept"]').wait_for()   # (B may answer)
    return page, errors, {**a, "game": gid}


def test_a_finished_game_offers_no_answer_to_a_committee_invitation(server, browser):
    """A Committee invitation left unanswered kept its Accept and Decline after the game had
    ended (while the page watched, and when it was opened again): buttons for an answer the
    finished game can no longer take.  Now its card says the game is over, and offers none."""
    page, errors, a = _invited(server, browser, {"max_turns": 1})
    gid, card = a["game"], page.locator('.msg-list .proposal[data-kind="committee"]')
    # (a bot plays A from now on: once it leaves that Committee, the card no longer stands, so
    # it is looked at first)
    http(server, "POST", f"/api/games/{gid}/leave", {"token": a["token"]})
    # Boris plays a step (PLAY_ON) whenever the game waits on him, to the game's end
    deadline = time.time() + 120
    while page.evaluate("() => document.body?.dataset.status") != "over":
        assert time.time() < deadline, "the game did not end"
        if page.evaluate("() => document.body?.dataset.mine") == "1":
            page.evaluate(PLAY_ON)
        page.wait_for_timeout(50)
    page.locator(".modal.final").wait_for()
    page.keyboard.press("Escape")
    for when in ("as the game ended", "opened again"):
        card.wait_for()
        assert card.locator("button").count() == 0, f"{when}: {card.inner_text()}"
        text = card.inner_text()
        assert "the game is over" in text and "did not answer" in text and "to answer" not in text, f"{when}: {text}"
        if when == "as the game ended":
            page.reload()
            page.click('.dtabs .dtab[data-tab="talk"]')
            open_channel(page, "A-B")
    assert not errors, errors
    page.context.close()


def test_a_committee_card_closes_when_its_proposer_withdraws_while_the_page_watches(server, browser):
    """QA: the bots' Committee invitations kept their Accept and Decline after the bots had
    withdrawn their consent (the card was drawn again only when a message came; Accept then got
    proposal_closed, and the card still offered it).  Now the game's news of a consent redraws
    the cards, each asking the engine whether it still stands (the consents query)."""
    page, errors, a = _invited(server, browser)

    async def withdraw(c) -> None:
        await c.act({"t": "LeaveCommittee", "seat": "A"})
    as_seat(server, a["game"], a["token"], withdraw)
    page.wait_for_function("() => { const c = document.querySelector('.msg-list .proposal[data-kind=\"committee\"]');"
                           " return c && !c.querySelector('[data-act]') && c.textContent.includes('A no longer consents to it'); }")
    text = page.locator('.msg-list .proposal[data-kind="committee"]').inner_text()
    assert "did not answer" in text and "to answer" not in text, text       # (QA: it read as still open)
    # the withdrawal in a gap of the page's log (or one no event tells of): the log no longer
    # closes the card, the engine's consents query does (review)
    page.evaluate("() => { window.keptConsents = new Map(rcwApp.log.consents); rcwApp.log.consents.clear();"
                  " rcwApp.answers.clear(); rcwApp.chat.renderMessages(); }")
    page.wait_for_function("() => { const c = document.querySelector('.msg-list .proposal[data-kind=\"committee\"]');"
                           " return c && !c.querySelector('[data-act]') && c.textContent.includes('A no longer consents to it'); }")
    page.evaluate("() => { for (const [k, v] of window.keptConsents) rcwApp.log.consents.set(k, v); }")
    # Anna consents to the same Committee again (a new invitation of hers, not this one): the old
    # card stays closed (QA: it came back to life and asked again)

    async def again(c) -> None:
        await c.act({"t": "JoinCommittee", "seat": "A", "members": ["A", "B"]})
    as_seat(server, a["game"], a["token"], again)
    page.wait_for_function("() => (window.rcwApp.st.view.committee_consent || {}).A")
    page.evaluate("() => window.rcwApp.chat.renderMessages()")
    card = page.locator('.msg-list .proposal[data-kind="committee"]')
    assert card.locator("[data-act]").count() == 0 and "A no longer consents to it" in card.inner_text(), card.inner_text()
    assert not errors, errors
    page.context.close()


def test_a_committee_proposed_in_a_group_channel_starts_with_its_members_ticked(server, browser):
    """QA: "Central Committee…" from the Propose menu of a group channel of A, B and C ticked A
    alone; the channel's members are whom one means.  (And the dialog no longer says nobody
    purges a Committee's members: a member may be counterpurged, 004 [11.14].)"""
    g = http(server, "POST", "/api/games", {"players": 4, "bots": "random", "bot_seats": ["D"]})
    gid = g["game"]
    a = http(server, "POST", f"/api/games/{gid}/join", {"seat": "A", "name": "Anna"})
    http(server, "POST", f"/api/games/{gid}/join", {"seat": "B", "name": "Boris"})
    http(server, "POST", f"/api/games/{gid}/join", {"seat": "C", "name": "Clara"})
    page = new_page(browser, False, SLOW)
    ctx = page.context
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_seat(page, server, gid, a["token"], "A", "Anna")
    got: dict = {}

    async def group(c) -> None:
        got.update(await c.open_channel(["B", "C"], "the three of us"))
    as_seat(server, gid, a["token"], group)
    name = got["name"]
    page.click('.dtabs .dtab[data-tab="talk"]')
    page.locator(f'.chan-tab[data-channel="{name}"]').wait_for()
    open_channel(page, name)
    page.click('[data-act="propose-menu"]')
    page.click('[data-act="committee-dialog"]')
    ticked = page.locator(".modal input[data-member]").evaluate_all(
        "(xs) => xs.filter((x) => x.checked).map((x) => x.dataset.member)")
    assert ticked == ["A", "B", "C"], ticked
    assert "may be counterpurged (004 [11.14])" in page.locator(".modal").inner_text()
    assert not errors, errors
    ctx.close()


def test_the_committee_dialog_says_the_bots_answer_only_in_the_conveners_movement_phase(server, browser):
    """QA: a Committee proposed to bots outside the proposer's Movement Phase was always declined
    ("it answers a Central Committee in its convener's Movement Phase"), with no word of it
    before it was sent.  The dialog says so as soon as a bot is ticked, and not for humans."""
    ctx, page, errors, _, _ = _open(server, browser, 0, False)     # (the trading session: not A's Movement Phase)
    _propose(page, "committee-dialog")
    note = page.locator(".modal .bots-decline")
    assert note.count() == 1        # (B, the pair channel's other member, is ticked: a bot)
    # (the bots' own reason, the one B's decline would give: rcw.bots.negotiation.committee_refusal)
    assert note.inner_text() == ("B is played by a bot and would decline it now: it answers a Central Committee in its "
                                 "convener's Movement Phase (Purge Cooperation; now it is the pre-game trading session)."), \
        note.inner_text()
    page.locator('.modal input[data-member="B"]').uncheck()
    assert note.count() == 0
    page.locator('.modal input[data-member="C"]').check()
    assert page.locator(".modal .bots-decline").inner_text().startswith("C is played by a bot")
    assert not errors, errors
    ctx.close()
    # random bots consent at random: nothing to say of them (review)
    page, errors, gid, a, b = _anna_and_boris(server, browser)
    page.click('.dtabs .dtab[data-tab="talk"]')
    _propose(page, "committee-dialog")
    page.locator('.modal input[data-member="C"]').check()
    assert page.locator(".modal .bots-decline").count() == 0
    page.context.close()


def test_a_trade_card_follows_the_game_however_the_offer_is_settled(server, browser):
    """QA: a trade proposed in chat and then withdrawn from the Orders panel left the cards saying
    "B to answer" for ever, and one accepted with the Orders panel's button (a bare AcceptTrade:
    no reply in chat) still read "A to answer" on the proposer's card while the log said the
    trade was made.  The cards now follow the game's own events: "withdrawn by A", and the seat
    that accepted, whatever way the answer came."""
    page, errors, gid, a, b = _anna_and_boris(server, browser)
    ctx = page.context
    page.click('.dtabs .dtab[data-tab="talk"]')
    open_channel(page, "A-B")
    offers: list[int] = []

    async def propose(c) -> None:      # (as the chat's Propose menu posts it)
        m = await c.chat("A-B", "", {"kind": "trade", "to": "B", "give_politburo": 1})
        offers.append(m["proposal"]["offer"])

    async def withdraw(c) -> None:     # (the Orders panel's Withdraw: an action, no reply in chat)
        await c.act({"t": "WithdrawTrade", "seat": "A", "offer": offers[0]})

    def card(offer: int):
        return page.locator(f'.msg-list .proposal[data-kind="trade"][data-offer="{offer}"]')

    as_seat(server, gid, a["token"], propose)
    card(offers[0]).locator('[data-act="accept"]').wait_for()
    as_seat(server, gid, a["token"], withdraw)
    page.wait_for_function(f"() => (document.querySelector('.msg-list .proposal[data-offer=\"{offers[0]}\"]') || {{}})"
                           f".textContent?.includes('withdrawn by A')")
    text = card(offers[0]).inner_text()
    assert card(offers[0]).locator("button").count() == 0 and "to answer" not in text, text

    # B accepts the next one with a bare action (as the Orders panel may send it): the card says so
    as_seat(server, gid, a["token"], propose)
    card(offers[1]).locator('[data-act="accept"]').wait_for()

    async def accept(c) -> None:
        await c.act({"t": "AcceptTrade", "seat": "B", "offer": offers[1]})
    as_seat(server, gid, b["token"], accept)
    page.wait_for_function(f"() => !!document.querySelector('.msg-list .proposal[data-offer=\"{offers[1]}\"] .ans.yes')")
    text = card(offers[1]).inner_text()
    assert "accepted" in text and "to answer" not in text and card(offers[1]).locator("button").count() == 0, text
    # a reloaded page reads the same from the game's history
    page.reload()
    page.click('.dtabs .dtab[data-tab="talk"]')
    open_channel(page, "A-B")
    page.wait_for_function("() => [...document.querySelectorAll('.msg-list .proposal[data-kind=\"trade\"]')]"
                           ".some((c) => c.textContent.includes('withdrawn by A'))")
    assert "accepted" in card(offers[1]).inner_text()
    assert not errors, errors
    ctx.close()


def test_a_pact_for_a_game_turn_gone_by_is_refused_in_the_dialog(server, browser):
    """QA: a pact typed "until 2" in Game-Turn 4 was posted as Game-Turn 4 without a word, and
    the server's refusal of one too far ahead showed the raw code "bad_request" under its
    message.  Now the Game-Turn goes as typed, the server says why it is out of range and the
    dialog stays open; a refusal's toast shows its message (and a rule case when it has one),
    never a protocol code."""
    ctx, page, errors, gid, token = _open(server, browser, 5, False)
    _propose(page, "propose-pact")
    page.fill('.modal input[data-field="until"]', "0")
    page.click('.modal [data-act="post-pact"]')
    page.wait_for_function("() => [...document.querySelectorAll('.toast.error')].some((t) => t.textContent.includes(\"'until'\"))")
    assert page.locator('.modal [data-act="post-pact"]').count() == 1            # the dialog stays
    assert page.locator('.msg-list .proposal[data-kind="pact"]').count() == 0    # nothing posted
    page.fill('.modal input[data-field="until"]', "999")
    page.click('.modal [data-act="post-pact"]')
    page.wait_for_function("() => [...document.querySelectorAll('.toast.error')].some((t) => t.textContent.includes('a pact lasts until a Game-Turn from'))")
    texts = page.locator(".toast.error").all_inner_texts()
    assert texts and not any("bad_request" in t for t in texts), texts
    assert not errors, errors
    ctx.close()


def test_an_invitation_to_a_committee_is_told_at_once_and_offered_in_the_orders_panel(server, browser):
    """QA: a bot's invitation to a Central Committee was a card in a side channel and a line
    "Join a Committee…" among others; the Committee without the human purged him seconds later.
    Now a proposal put to the seat comes as a toast as it arrives (a click opens its card), and
    the Orders panel's Politics card puts the invitation first, with its Join button and why it
    matters (004 [11.14])."""
    page, errors, a = _invited(server, browser)
    text = toast_text(page, "invite")
    assert "Anna (A) invites you to a Central Committee of A, B" in text and "cannot be purged (004 [11.14])" in text, text
    # a button for the keyboard too (a review's finding): focused, Enter opens the card
    async def again(c) -> None:            # (a second proposal, to find its toast while it is shown)
        await c.chat("A-B", "", {"kind": "pact", "with": "B", "until": 3})
    as_seat(server, a["game"], a["token"], again)
    t = page.locator(".toast.invite button.toast-open").last
    t.wait_for()
    t.focus()
    page.keyboard.press("Enter")
    page.locator(".msg-list .msg.flash").wait_for()
    # and a click of the mouse on its button opens its card (a click on the toast passed through to
    # the map, and the card opened only from the keyboard); the rest of it lets clicks through
    async def third(c) -> None:
        got.update(await c.chat("A-B", "", {"kind": "pact", "with": "B", "until": 4}))
    got: dict = {}
    as_seat(server, a["game"], a["token"], third)
    mid = str(got["id"])              # (its own toast: an earlier one may still be up)
    toast = page.locator(f'.toast.invite[data-msg="{mid}"]')
    toast.wait_for()
    box = toast.bounding_box()
    assert page.evaluate("([x, y]) => !document.elementFromPoint(x, y).closest('.toast')", [box["x"] + 8, box["y"] + 8])
    b = toast.locator("button.toast-open").bounding_box()
    page.mouse.click(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2)
    page.locator(f'.msg-list .msg.flash[data-id="{mid}"]').wait_for()
    inv = page.locator('.orders .politics .invitation[data-seat="A"]')
    inv.wait_for()
    assert "invites you to a Central Committee of A, B" in inv.inner_text()
    join = inv.locator('[data-act="JoinCommittee"]')
    join.wait_for()                      # (ci-local under load once looked before the page had drawn it)
    assert join.count() == 1 and page.locator('.orders [data-act="JoinCommittee"][data-members="AB"]').count() == 1
    join.click()
    page.wait_for_function("() => (window.rcwApp.st.view.committee || []).length === 2")
    # the invitation's card in chat says so (QA: it said "B did not answer" after a Join from Orders)
    card = page.locator('.msg-list .proposal[data-kind="committee"]').first
    page.wait_for_function("() => { const c = document.querySelector('.msg-list .proposal[data-kind=\"committee\"]');"
                           " return c && c.textContent.includes('B accepted'); }")
    assert card.locator("[data-act]").count() == 0 and "did not answer" not in card.inner_text(), card.inner_text()
    assert not errors, errors
    page.context.close()


def test_an_invitation_is_declined_from_the_orders_panel_and_may_still_be_joined(server, browser):
    """QA: the Politics card offered an invitation's Join but not its Decline, which was only on
    the card in Talk: a player who would not join could not say so where the game asked him (and
    a bot that invited him waited out its time, ``--bot-wait``, for an answer).  The invitation
    now has its Decline, which answers on the card (the answer a waiting bot reads); then it
    says so, and the Join stays (004 [11.11]: a consent may come at any time)."""
    page, errors, a = _invited(server, browser)
    inv = page.locator('.orders .politics .invitation[data-seat="A"]')
    decline = inv.locator('[data-act="decline-committee"]')
    decline.wait_for()
    assert inv.locator('[data-act="JoinCommittee"]').count() == 1
    decline.click()
    # the card in chat has B's answer, and asks for none any more
    page.wait_for_function("() => { const c = document.querySelector('.msg-list .proposal[data-kind=\"committee\"]');"
                           " return c && c.textContent.includes('B declined') && !c.querySelector('[data-act=\"accept\"]'); }")
    inv.locator(".declined").wait_for()
    assert "You declined" in inv.inner_text() and decline.count() == 0
    assert (page.evaluate("() => window.rcwApp.st.view.committee_consent")).get("B") is None   # (nothing was joined)
    inv.locator('[data-act="JoinCommittee"]').click()           # a change of mind: the Committee forms
    page.wait_for_function("() => (window.rcwApp.st.view.committee || []).length === 2")
    assert not errors, errors
    page.context.close()


def test_an_invitation_given_again_without_a_card_offers_no_decline_of_the_old_one(server, browser):
    """A review's finding: the Decline answers the invitation's card, and a card of a consent
    withdrawn since is over; a consent given again by the Orders panel's Join (no card) must not
    have its Decline post to the old card.  The invitation is then only the Join."""
    page, errors, a = _invited(server, browser)
    inv = page.locator('.orders .politics .invitation[data-seat="A"]')
    inv.locator('[data-act="decline-committee"]').wait_for()

    async def again(c) -> None:              # Anna withdraws, then consents again (an action, no card)
        # (no seq: the client's is set by the update push, which may come after the act's reply)
        await c.act({"t": "LeaveCommittee", "seat": "A"})
        await c.act({"t": "JoinCommittee", "seat": "A", "members": ["A", "B"]})
    as_seat(server, a["game"], a["token"], again)
    page.wait_for_function("() => document.querySelector('.msg-list .proposal[data-kind=\"committee\"]')"
                           "?.textContent.includes('A no longer consents to it')")
    inv.locator('[data-act="JoinCommittee"]').wait_for()
    assert inv.locator('[data-act="decline-committee"]').count() == 0 and inv.locator(".declined").count() == 0
    assert not errors, errors
    page.context.close()


def test_the_proposer_withdraws_a_trade_on_its_card(server, browser):
    """QA: the only Withdraw of a trade proposed in chat was in the Orders panel.  The proposer's
    card offers it too while the engine lists the step; pressed, the card says so."""
    page, errors, a = _invited(server, browser)
    gid = a["game"]
    offers: list[int] = []

    async def propose(c) -> None:     # (Boris's own seat, over another connection: his page shows it)
        m = await c.chat("A-B", "", {"kind": "trade", "to": "A", "give_politburo": 1})
        offers.append(m["proposal"]["offer"])
    b_token = page.evaluate("() => window.rcwApp.token")
    as_seat(server, gid, b_token, propose)
    button = page.locator(f'.msg-list .proposal[data-kind="trade"] [data-act="WithdrawTrade"][data-offer="{offers[0]}"]')
    button.click()
    page.wait_for_function("() => !(window.rcwApp.st.view.offers || []).length")
    page.wait_for_function("() => [...document.querySelectorAll('.msg-list .proposal[data-kind=\"trade\"]')]"
                           ".some((c) => c.textContent.includes('withdrawn by B') && !c.querySelector('button'))")
    assert not errors, errors
    page.context.close()


def test_on_a_phone_the_channel_tabs_are_one_row_that_scrolls(server, browser):
    """QA: with three group channels the phone's channel tabs took three rows (a quarter of the
    screen).  They are one row that scrolls sideways, and the open channel's tab is in view."""
    ctx, page, errors, gid, token = _open(server, browser, 0, True)

    async def groups(c) -> None:
        for members in (["B", "C"], ["B"], ["C"]):
            await c.open_channel(members, title=f"Committee {', '.join(['A', *members])} and friends")
    as_seat(server, gid, token, groups)
    page.wait_for_function("() => document.querySelectorAll('.chan-tab[data-kind=\"group\"]').length === 3")
    box = page.evaluate("""() => { const t = document.querySelector('.chan-tabs'); const b = t.querySelector('.chan-tab');
      return [t.clientHeight, b.offsetHeight, t.scrollWidth, t.clientWidth]; }""")
    assert box[0] < 2 * box[1] + 12, box                 # one row of tabs
    assert box[2] > box[3], box                          # that scrolls
    last = page.locator('.chan-tab[data-kind="group"]').last
    last.scroll_into_view_if_needed()
    last.click()
    page.wait_for_function("""() => { const t = document.querySelector('.chan-tabs'), b = t.querySelector('.chan-tab.on');
      return b && b.dataset.kind === 'group' && b.offsetLeft >= t.scrollLeft && b.offsetLeft + b.offsetWidth <= t.scrollLeft + t.clientWidth + 1; }""")
    first = page.locator(".chan-tab").first         # (and back to the first: the row scrolls back)
    first.scroll_into_view_if_needed()
    first.click()
    page.wait_for_function("""() => { const t = document.querySelector('.chan-tabs'), b = t.querySelector('.chan-tab.on');
      return b && b.offsetLeft >= t.scrollLeft && b.offsetLeft + b.offsetWidth <= t.scrollLeft + t.clientWidth + 1; }""")
    assert not errors, errors
    ctx.close()


def test_a_message_says_how_long_it_may_be_as_it_nears_the_limit(server, browser):
    """QA: a pasted 2 100-character message was cut to 2 000 without a word.  The composer counts
    the characters as the message nears the limit and says so when the rest was cut."""
    ctx, page, errors, gid, token = _open(server, browser, 0, False)
    count = page.locator(".composer .msg-count")
    page.fill(".msg-input", "x" * 100)
    assert count.is_hidden()
    page.fill(".msg-input", "x" * 1900)
    assert count.inner_text() == "1900 / 2000"
    page.fill(".msg-input", "x" * 2100)
    assert page.evaluate("() => document.querySelector('.msg-input').value.length") == 2000
    assert "anything beyond it is cut" in count.inner_text()
    page.press(".msg-input", "Enter")
    page.wait_for_function("() => [...document.querySelectorAll('.msg-list .msg')].some((m) => m.textContent.includes('x'.repeat(2000)))")
    assert count.is_hidden()
    assert not errors, errors
    ctx.close()


def test_a_double_click_on_accept_answers_a_card_once(server, browser):
    """QA: a double-click on a trade card's Accept made the trade, then showed "Refused: no open
    offer #2" in red for the second click, as if the trade had failed.  One card takes one answer
    from the page: the second click sends nothing."""
    page, errors, gid, a, b = _anna_and_boris(server, browser)
    page.click('.dtabs .dtab[data-tab="talk"]')
    open_channel(page, "A-B")
    offers: list[int] = []

    async def propose(c) -> None:
        m = await c.chat("A-B", "", {"kind": "trade", "to": "B", "give_politburo": 1})
        offers.append(m["proposal"]["offer"])
    as_seat(server, gid, a["token"], propose)
    card = page.locator(f'.msg-list .proposal[data-kind="trade"][data-offer="{offers[0]}"]')
    card.locator('[data-act="accept"]').dblclick()
    card.locator(".ans.yes").wait_for()
    page.wait_for_timeout(500)           # (the second answer's refusal, had it been sent, comes in well within this)
    told = page.evaluate("() => (window.__toasts || []).map((t) => t.cls + ': ' + t.text)")
    assert not any("error" in t for t in told), told
    assert page.evaluate("() => window.rcwApp.lastError") is None
    assert not errors, errors
    page.context.close()


def test_each_channel_keeps_its_own_draft(server, browser):
    """QA: a line typed in the A-B channel stayed in the box when the Public tab was opened, where
    Enter would have sent a private plan to everyone.  Each channel keeps its own draft: the box
    shows the one of the channel on screen, and a message sent clears only its own."""
    page, errors, gid, a, b = _anna_and_boris(server, browser)
    page.click('.dtabs .dtab[data-tab="talk"]')
    box = page.locator(".msg-input")
    open_channel(page, "A-B")
    box.fill("secret plan for Anna only")
    open_channel(page, "public")
    assert box.input_value() == ""
    box.fill("hello all")
    open_channel(page, "A-B")
    assert box.input_value() == "secret plan for Anna only"
    box.press("Enter")
    page.locator('.msg-list .msg:has-text("secret plan for Anna only")').wait_for()
    assert box.input_value() == ""
    open_channel(page, "public")
    assert box.input_value() == "hello all"
    assert page.locator('.msg-list .msg:has-text("secret plan")').count() == 0       # (nothing of it in Public)
    assert not errors, errors
    page.context.close()


def test_a_committee_proposed_again_asks_nothing_of_its_sitting_members(server, browser):
    """QA: Anna proposed again the Central Committee of A and B that sat already; the new card
    asked Boris, a member, to accept it (Accept and Decline, "B to answer").  A member who
    consents to that very Committee has nothing to answer: the card says he consents already."""
    page, errors, a = _invited(server, browser)
    page.locator('.msg-list .proposal[data-kind="committee"] [data-act="accept"]').click()
    page.wait_for_function("() => JSON.stringify(window.rcwApp.st.view.committee) === '[\"A\",\"B\"]'")

    async def again(c) -> None:
        await c.chat("A-B", "Still together?", {"kind": "committee", "members": ["A", "B"]})
    as_seat(server, a["game"], a["token"], again)
    cards = page.locator('.msg-list .proposal[data-kind="committee"]')
    page.wait_for_function("() => document.querySelectorAll('.msg-list .proposal[data-kind=\"committee\"]').length === 2")
    new = cards.nth(1)
    assert new.locator("button").count() == 0, new.inner_text()
    assert " ".join(new.locator(".ans").inner_text().split()) == "B consents already", new.inner_text()
    assert not errors, errors
    page.context.close()


def test_a_negative_count_in_the_trade_dialog_reads_as_none(server, browser):
    """QA: -1 typed as the Politburo markers given stayed in the box, and the dialog answered
    "the offer trades nothing": the box said one thing, the offer another.  A negative count
    is put back to 0 in the box, as the offer counts it."""
    page, errors, gid, a, b = _anna_and_boris(server, browser)
    page.click('.dtabs .dtab[data-tab="talk"]')
    open_channel(page, "A-B")
    _propose(page, "propose-trade")
    box = page.locator('.modal [data-field="give_politburo"]')
    box.fill("-1")
    assert box.input_value() == "0"
    box.fill("2")
    assert box.input_value() == "2"
    assert not errors, errors
    page.context.close()


def test_a_consent_the_game_rewrote_is_explained(server, browser):
    """QA: after the others withdrew from the Committee he had joined, a newcomer read "you consent
    to a Committee of A alone" and "Withdraw your consent (to A alone)", which he never chose.  The
    game rewrites the consents of those who stay (004 [11.12]); the Orders panel says so."""
    page, errors, a = _invited(server, browser)
    page.locator('.msg-list .proposal[data-kind="committee"] [data-act="accept"]').click()
    page.wait_for_function("() => (rcwApp.st.view.committee || []).join('') === 'AB'")
    assert page.locator(".orders .consent-note").count() == 0          # (his own consent: nothing to explain)

    async def withdraw(c) -> None:
        await c.act({"t": "LeaveCommittee", "seat": "A"})
    as_seat(server, a["game"], a["token"], withdraw)
    page.wait_for_function("() => ((rcwApp.st.view.committee_consent || {}).B || []).join('') === 'B'")
    note = page.locator(".orders .consent-note")
    note.wait_for()
    assert "Your consent now names B alone: the others withdrew from the Committee you joined" in note.inner_text()
    assert "004 [11.12]" in note.inner_text()
    assert not errors, errors
    page.context.close()
