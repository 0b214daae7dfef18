"""Every prompt the page answers, from real engine positions, in Debian's headless Chromium.

A game between people reaches an Exchange, a counterpurge or the Czar's execution only when
the dice say so; these tests build each position with the engine (as the engine tests do),
hand the page the exact ``view`` / ``legal`` / ``pending`` / ``facts`` a seat receives from the
server (``facts`` built by the server's own ``rcw.server.facts``), answer the page's ``query``
frames with the server's own ``facts.answer`` on that position,
and check that the Orders panel (or the dialog) shows the prompt with its odds and that the
button a player clicks sends one of the engine's legal actions - the very one meant.
The end-to-end test (test_browser_game.py) covers the path from that click to the server.
A sheet of all the prompts is saved as ``artifacts/prompts.png``.
"""

from __future__ import annotations

import re
import time
from contextlib import contextmanager

import pytest
from browser_helpers import ARTIFACTS, keep_toasts, new_page, open_seat, shot, skip_reason, toast_text
from engine_helpers import attack, committee_abc, dice, form, markers, phase, put, stack_with, uid
from engine_helpers import blank as empty_map
from rcw.server import facts
from rcw.server.protocol import ProtocolError

from rcw import actions as A
from rcw.actions import to_wire
from rcw.game import Game

pytestmark = pytest.mark.skipif(skip_reason() is not None, reason=skip_reason() or "")


@contextmanager
def planted(browser, g: Game, seat: str = "A", pacts: tuple[dict, ...] = ()):
    """The position ``g`` planted in a real server of this process (its store keeping ``pacts``);
    ``seat``'s player opens it on the desktop: the page (closed, with the server, afterwards)."""
    from browser_helpers import NAMES, Live

    live = Live()
    page = None
    try:
        gid, tokens = live.plant(g, pacts)
        page = new_page(browser)
        open_seat(page, live.base, gid, tokens[seat], seat, NAMES[seat])
        yield page
    finally:
        if page is not None:
            page.context.close()
        live.close()


# -- positions ---------------------------------------------------------------------------------------
def blank(seat: str = "A", ph: str = "movement") -> Game:
    """A started five-player game, nothing on the map, no markers; ``seat`` phasing in ``ph``."""
    g = empty_map()
    phase(g, seat, ph)
    return g


def combat(seat: str = "A") -> Game:
    return blank(seat, "combat")


def pos_loss() -> Game:
    """004 [8.45]: A's ten points beat B's five at 2:1, Ex: A removes at least 5 of his own."""
    g = combat()
    put(g, "TVER", "A", "Lenin", "RU4 TULA", "RU3 KALU", attach={"RU4 TULA": "Lenin", "RU3 KALU": "Lenin"})
    put(g, "TVER", "B", "Kolchak", "WU3 OMSK")
    attack(g, "A", "Kolchak", ["Lenin"], die=3)
    return g


def pos_attack() -> Game:
    """An attack declared, one stack added: the odds before resolving."""
    g = combat()
    put(g, "TVER", "A", "Lenin", "RU4 TULA", "RU3 KALU", attach={"RU4 TULA": "Lenin", "RU3 KALU": "Lenin"})
    put(g, "TVER", "B", "Kolchak", "WU3 OMSK")
    attack(g, "A", "Kolchak", ["Lenin"])
    return g


def pos_force() -> Game:
    """A leader picked up: a loose unit to attach where he stands, destinations overland and by rail."""
    g = blank("A")
    put(g, "TVER", "A", "Lenin", "RU4 TULA", attach={"RU4 TULA": "Lenin"})
    put(g, "TVER", "A", "RU3 KALU")
    put(g, "TULA", "B", "Kolchak", "WU3 OMSK", attach={"WU3 OMSK": "Kolchak"})
    g.apply(A.StartForce("A", uid("Lenin")))
    return g


def pos_capture(die: int | None = 1) -> Game:
    """004 [13.41]: A's Kolchak eliminates Blucher's stack (a die of 1), the Czar with it: A may
    capture him.  ``die=None``: the attack declared, not yet resolved."""
    g = combat()
    put(g, "EKAT", "B", "Blucher", "RU2 EKAT", "Czar", attach={"RU2 EKAT": "Blucher", "Czar": "Blucher"})
    put(g, "EKAT", "A", "Kolchak", "WU3 OMSK", "WU3 CHEL", attach={"WU3 OMSK": "Kolchak", "WU3 CHEL": "Kolchak"})
    attack(g, "A", "Blucher", ["Kolchak"], die=die)
    return g


def pos_purge_approval() -> Game:
    g = committee_abc()
    g.apply(A.DeclarePurge("A", "D", ("A", "B", "C"), ("A", "B", "C")))
    return g


def pos_spoils() -> Game:
    g = pos_purge_approval()
    g.apply(A.ApprovePurge("B", True))
    with dice(g, 3, 3):
        g.apply(A.ApprovePurge("C", True))
    return g


def pos_spoils_attached() -> Game:
    """The spoils of the purge of D, whose Tukhachevsky in NOVG has a Red unit attached: the
    spoil names it (QA read "with his attached units" and could not tell which)."""
    g = empty_map()
    phase(g, "E", "movement")
    markers(g, A=8, D=1)
    put(g, "PETR", "A", "Lenin", "Trotsky", "Frunze")
    put(g, "PSKO", "D", "Sablin", "Muraviev")
    put(g, "NOVG", "D", "Tukhachevsky", "RU8 NOVG", attach={"RU8 NOVG": "Tukhachevsky"})
    form(g, "A")
    with dice(g, 6, 6):
        g.apply(A.DeclarePurge("A", "D", ("A",), ("A",)))
    return g


def pos_counterpurge() -> Game:
    g = committee_abc()
    g.apply(A.DeclarePurge("A", "D", ("A", "B", "C"), ("A", "B", "C")))
    g.apply(A.ApprovePurge("B", True))
    with dice(g, 1, 1):
        g.apply(A.ApprovePurge("C", True))
    return g


def pos_purge_orders() -> Game:
    g = blank("B")
    markers(g, A=4, B=4, D=1)
    put(g, "PETR", "A", "Lenin")
    put(g, "TVER", "B", "Trotsky")
    put(g, "PSKO", "D", "Sablin", "Gai")
    put(g, "NOVG", "C", "Muraviev")
    form(g, "A", "B")
    g.apply(A.DeclarePurge("A", "D", ("A",)))
    return g


def _czar() -> Game:
    g = blank("D")
    markers(g, A=6, B=4)
    put(g, "VOLO", "C", "Blucher", "RU2 EKAT", "Czar", attach={"RU2 EKAT": "Blucher", "Czar": "Blucher"})
    form(g, "A", "B")
    return g


def pos_execution_consent() -> Game:
    g = _czar()
    g.apply(A.OrderExecution("A"))
    return g


def pos_execution() -> Game:
    g = pos_execution_consent()
    g.apply(A.OrderExecution("B", True))
    return g


def pos_vote() -> Game:
    g = blank("A")
    s = g.state
    markers(g, A=6, B=2, C=4)
    put(g, "PETR", "A", "Lenin")
    put(g, "KUBA", None, "WU4 KUBA")
    put(g, "OMSK", "B", "Kolchak")
    s.order = ["A", "B", "C", "D", "E"]
    s.current = 4
    s.phase = "randomizer"
    s.aux = ["A"]
    g.apply(A.DrawRandomizer("E"))
    return g


def pos_redraw() -> Game:
    """004 [12.13]: A draws the British Control Marker, that force being gone: keep or draw again."""
    from rcw.rng import Rng

    g = blank("A", "randomizer")
    i = Rng(g.state.rng).below(2)
    g.state.aux = ["A", "A"]
    g.state.aux[i] = "BC:BR"
    g.apply(A.DrawRandomizer("A"))
    return g


def pos_place_anarchist() -> Game:
    """001 Anarchists: A draws a small Anarchist unit and places it in a province of his choice."""
    g = empty_map(options={"anarchists": True})
    phase(g, "A", "randomizer")
    g.state.aux = ["U:602"]
    g.apply(A.DrawRandomizer("A"))
    return g


def pos_place_shock() -> Game:
    """001 Shock Armies: A draws a Red Shock Army and places it with a Red leader."""
    g = empty_map(options={"shock_armies": True})
    put(g, "PETR", "A", "Lenin")
    put(g, "TVER", "B", "Trotsky")
    phase(g, "A", "randomizer")
    g.state.aux = ["U:121"]
    g.apply(A.DrawRandomizer("A"))
    return g


def pos_trade() -> Game:
    g = blank("A")
    markers(g, A=1, C=3)
    put(g, "PETR", "A", "Lenin")
    g.apply(A.OfferTrade("C", "A", give_politburo=2, take_assassins=0))
    return g


def _consented(by: str) -> Game:
    """A phasing, A and B holding 9 Politburo markers; ``by`` has consented to a Committee of A
    and B, the other not (yet): no Committee (004 [11.11])."""
    g = blank("A")
    markers(g, A=4, B=5)
    put(g, "PETR", "A", "Lenin")
    g.apply(A.JoinCommittee(by, ("A", "B")))
    return g


def pos_committee() -> Game:
    return _consented("B")


def pos_consent() -> Game:
    return _consented("A")


def pos_committee_alone() -> Game:
    """A, holding 9 Politburo markers, is the Central Committee by himself (004 [11.11]: "any
    individual or group of Players")."""
    g = blank("A")
    markers(g, A=9, B=4)
    put(g, "PETR", "A", "Lenin")
    g.apply(A.JoinCommittee("A", ("A",)))
    return g


def pos_assassinate() -> Game:
    g = blank("A")
    put(g, "PETR", "B", "Lenin", "RU8 PETR", attach={"RU8 PETR": "Lenin"})
    put(g, "PETR", "A", "Peterson")
    put(g, "TVER", "B", "Trotsky")
    g.state.politburo.update(A=1, B=2)
    g.state.assassins["A"] = 3
    return g


#: kind -> (builder, seat, the card's marker, the button clicked, the action it must send, what the card must say)
CASES = {
    "loss": (pos_loss, "A", '[data-decision="loss"]', f'[data-act="ChooseLoss"][data-unit="{uid("RU3 KALU")}"]',
             lambda: A.ChooseLoss("A", uid("RU3 KALU")), ["Exchange", "at least 5 strength",
                                                           # (RU4 and RU3, 7 points: Lenin and RU3 would be 6)
                                                           "Suggested: RU4 TULA, RU3 KALU (7 points)", "the leaders are kept"]),
    "attack": (pos_attack, "A", ".card.phase", '[data-act="ResolveAttack"]', lambda: A.ResolveAttack("A"),
               ["10 : 5", "2:1", "Defender eliminated", "Resolve at 2:1"]),
    "force": (pos_force, "A", ".card.phase", f'[data-act="Attach"][data-unit="{uid("RU3 KALU")}"]',
              lambda: A.Attach("A", uid("RU3 KALU"), uid("Lenin")),
              ["Moving: Lenin + 1 unit", "From TVER", "overland (1 MP)", "by rail",
               # (the thin dashed rings of the farther provinces have keys too: QA read one as rail)
               "farther overland", "farther by rail", "Pick up RU3 KALU → Lenin", "Halt here"]),
    "capture": (pos_capture, "A", '[data-decision="capture"]', '[data-act="CaptureImperial"]', None, ["Czar"]),
    "purge_approval": (pos_purge_approval, "B", '[data-decision="purge_approval"]', '[data-act="ApprovePurge"].primary',
                       lambda: A.ApprovePurge("B", True), ["purge D", "column", "Counterpurge"]),
    "spoils_attached": (pos_spoils_attached, "A", '[data-decision="spoils"]', f'[data-act="TakeSpoil"][data-leader="{uid("Tukhachevsky")}"]',
                        lambda: A.TakeSpoil("A", uid("Tukhachevsky")), ["Take Tukhachevsky (2) in Novgorod with RU8"]),
    "spoils": (pos_spoils, "A", '[data-decision="spoils"]', f'[data-act="TakeSpoil"][data-leader="{uid("Sablin")}"]',
               lambda: A.TakeSpoil("A", uid("Sablin")), ["Spoils of the purge of D", "2 purged points",
                                                          "Take Sablin (1) in Pskov, with no unit attached"]),
    "counterpurge": (pos_counterpurge, "D", '[data-decision="counterpurge"]', '[data-act="Counterpurge"][data-target="B"]',
                     lambda: A.Counterpurge("D", "B"), ["Counterpurge!", "counting double", "strength: 4 (Red leaders) + 2 × 1 (Politburo) = 6", "column 1-10", "chance of a counter-counterpurge"]),
    "purge_orders": (pos_purge_orders, "B", '[data-decision="purge_orders"]', '[data-act="PassPurge"]',
                     lambda: A.PassPurge("B"), ["A on D"]),
    "execution_consent": (pos_execution_consent, "B", '[data-decision="execution_consent"]',
                          '[data-act="OrderExecution"].primary', lambda: A.OrderExecution("B", True), ["Execute the Czar?"]),
    "execution": (pos_execution, "C", '[data-decision="execution"]', '[data-act="AnswerExecution"].primary',
                  lambda: A.AnswerExecution("C", True), ["Czar's execution", "Comply"]),
    "vote": (pos_vote, "A", '[data-decision="vote"]', '[data-act="VoteEndGame"].primary', lambda: A.VoteEndGame("A", True),
             ["End-game vote"]),
    "redraw": (pos_redraw, "A", '[data-decision="redraw"]', '[data-act="RedrawChit"].primary', lambda: A.RedrawChit("A", True),
               ["Draw again?", "Great Britain Control Marker", "004 [12.13]", "Keep the marker"]),
    "place_anarchist": (pos_place_anarchist, "A", '[data-decision="place"]', '[data-act="PlaceUnit"][data-province="KIEV"]',
                        lambda: A.PlaceUnit("A", province="KIEV"), ["Place AU3 Anarchists", "in a province", "Kiev"]),
    "place_shock": (pos_place_shock, "A", '[data-decision="place"]', f'[data-act="PlaceUnit"][data-leader="{152}"]',
                    lambda: A.PlaceUnit("A", leader=152), ["Place RU8 SHOCK1", "with Trotsky (B)", "with Lenin (A)"]),
    "trade": (pos_trade, "A", '.offers', '[data-act="AcceptTrade"]', None, ["offers", "2 Politburo"]),
    "committee": (pos_committee, "A", ".card.politics", '[data-act="JoinCommittee"]', lambda: A.JoinCommittee("A", ("A", "B")),
                  ["Player B invites you to a Central Committee of A, B (9 PM)", "cannot be purged (004 [11.14])",
                   "Join Player B's Committee"]),
    "consent": (pos_consent, "A", ".card.politics", '[data-act="LeaveCommittee"]', lambda: A.LeaveCommittee("A"),
                ["There is no Central Committee", "Player A consents to a Committee of A, B (9 PM)",
                 "Withdraw your consent (to A, B)"]),
    # (QA: "a Committee of A" read as a slip: one man's Committee is named as his alone)
    "committee_alone": (pos_committee_alone, "A", ".card.politics", '[data-act="LeaveCommittee"]',
                        lambda: A.LeaveCommittee("A"), ["Central Committee: A alone (9 Politburo markers)", "Leave the Committee"]),
}

SETUP_JS = """async ({view, legal, pending, seat, facts, seats, botWait, card}) => {
  const { loadData } = await import("/js/data.js");
  await loadData();
  const { buildOrders } = await import("/js/orders.js");
  const sent = [];
  const app = {
    st: { seq: 1, status: "playing", view, legal, pending, facts, seats: seats || {}, result: null, info: { options: {} } },
    seat, gid: "test", busy: false, lastError: null, adminToken: null, botWait: botWait || 0,
    seatName: (s) => `Player ${s}`,
    act: async (a) => { sent.push(a); return true; },
    ask: async (q, args) => {   // the server's facts.answer on the position the test built
      const r = await window.__rcwQuery({ t: "query", q, ...args });
      if (r.error) throw new Error(r.error);
      return r.answer;
    },
    render() {}, setBusy() {}, showError(e) { sent.push({ error: e.message }); },
    chat: { proposalForOffer: () => null, pactWith: () => null, pactBreak: () => "", answer: async () => true, committeeCard: () => card || null,
            propose: async (members, proposal) => { sent.push({ proposal, members }); return true; } },
  };
  window.__sent = sent;
  window.__app = app;
  const { el } = buildOrders(app);
  const box = document.createElement("div");
  box.className = "orders prompt-case";
  box.dataset.case = seat;
  box.append(el);
  return box;
}"""


#: The position the page's ``query`` frames are answered on (see :func:`_payload`).
ASKED: dict = {"game": None, "seat": None}


def _query(frame: dict) -> dict:
    """A ``query`` frame from the page, answered as the server answers it (rcw.server.facts)."""
    try:
        return {"answer": facts.answer(ASKED["game"], ASKED["seat"], frame)}
    except ProtocolError as e:
        return {"error": e.message, "code": e.code}


def _payload(g: Game, seat: str) -> dict:
    """What the server sends ``seat`` in this position (its state frame's fields); the page's
    queries are answered on it from now on."""
    ASKED.update(game=g, seat=seat)
    view = g.view(seat)
    legal = [to_wire(a) for a in g.legal_actions(seat)]
    return {"view": view, "legal": legal, "pending": g.pending, "seat": seat, "facts": facts.seat_facts(g, view, seat, legal)}


def _blank_page(browser, server, phone: bool = False):
    page = new_page(browser, phone, 10_000)
    page.expose_function("__rcwQuery", _query)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/#/prompts")
    page.wait_for_selector(".lobby-main")
    _reset(page)
    return page, errors


def _reset(page) -> None:
    page.evaluate("""() => {
      document.querySelectorAll('.modal-back, .toasts').forEach((e) => e.remove());
      const app = document.getElementById('app');
      app.replaceChildren();
      app.className = 'game';
      window.__sent = [];
    }""")


@pytest.fixture(scope="module")
def desk(server, browser):
    """One desktop page for the prompt tests (each starts from an empty #app)."""
    page, errors = _blank_page(browser, server)
    yield page, errors
    page.context.close()


@pytest.fixture(scope="module")
def phone(server, browser):
    """One 390x844 phone page (touch) for the prompt tests."""
    page, errors = _blank_page(browser, server, phone=True)
    yield page, errors
    page.context.close()


@pytest.fixture(params=["desktop", "phone"])
def screen(request):
    """The prompt tests at 1280x800 and on a 390x844 phone."""
    return request.getfixturevalue("desk" if request.param == "desktop" else "phone")


@pytest.mark.parametrize("case", sorted(CASES))
def test_prompt_offers_the_legal_answer(screen, case) -> None:
    build, seat, marker, button, expect, says = CASES[case]
    g = build()
    data = _payload(g, seat)
    assert data["legal"], f"{case}: the engine offers {seat} nothing"
    page, errors = screen
    _show(page, data)
    card = page.locator(f".prompt-case {marker}").first
    card.wait_for()
    text = card.inner_text()
    for s in says:
        assert s in text, f"{case}: {s!r} not in {text!r}"
    # every button the panel offers sends an action the engine listed
    acts = page.evaluate("""() => [...document.querySelectorAll('.prompt-case [data-act]')]
        .map((b) => b.dataset.act).filter((t) => /^[A-Z]/.test(t))""")
    legal_types = {a["t"] for a in data["legal"]}
    assert set(acts) <= legal_types, f"{case}: the page offers {set(acts) - legal_types}, not legal"
    if case == "force":   # every destination twice, told apart: overland and by rail
        moves = [a for a in data["legal"] if a["t"] == "Move"]
        assert page.locator(".prompt-case .dest.rail").count() == sum(a["rail"] for a in moves) > 0
        assert page.locator(".prompt-case .dest.land").count() == sum(not a["rail"] for a in moves) > 0
    page.locator(f".prompt-case {button}").first.click()
    if case == "loss":                  # losses are confirmed first (a way back before anything is sent)
        page.locator('.modal [data-act="confirm-loss"]').click()
    sent = page.evaluate("window.__sent")
    assert len(sent) == 1 and "error" not in sent[0], sent
    assert sent[0] in data["legal"], f"{case}: sent {sent[0]}, not a legal action"
    if expect is not None:
        assert sent[0] == to_wire(expect())
    assert not errors, errors


def test_the_force_card_shows_the_engines_movement_allowance(screen) -> None:
    """The Movement Allowance of the force being moved is the engine's (``facts.force``): the
    ``leader_movement`` option for a leader's force, three for a Blue force (004 [5.0], [5.63]);
    the page once chose between the view's two limits itself."""
    page, errors = screen
    shown = {}
    for name, options, start, units in (("leader", {"leader_movement": 4}, "Lenin", ("Lenin",)),
                                        ("blue", None, "BU3 OMSK/CZ", ("BU3 OMSK/CZ",))):
        g = empty_map(options=options)
        phase(g, "A", "movement")
        put(g, "OMSK" if name == "blue" else "TVER", "A", *units)
        g.apply(A.StartForce("A", uid(start)))
        data = _payload(g, "A")
        assert data["facts"]["force"] == {"allowance": g.force_allowance(), "stop": g.force_stop()}
        _reset(page)
        page.evaluate(f"async (d) => document.getElementById('app').append(await ({SETUP_JS})(d))", data)
        text = page.locator(".prompt-case .force-info").first.inner_text()
        shown[name] = (g.force_allowance(), text)
        assert f"{g.force_allowance()} MP" in text, text
    assert shown["leader"][0] == 4 and shown["blue"][0] == 3
    # rail is said only where the engine lists a move by rail (QA: "3 MP, or rail" for a Blue
    # force, which never moves by rail, 004 [5.51])
    assert "or rail" in shown["leader"][1] and "rail" not in shown["blue"][1], shown
    # the page works out nothing itself: whatever number the engine sends is the one shown
    data["facts"]["force"] = {"allowance": 7}
    _show(page, data)
    assert "7 MP" in page.locator(".prompt-case .force-info").first.inner_text()
    assert not errors, errors


def test_assassination_dialog_shows_the_chance_and_sends_the_markers(screen) -> None:
    g = pos_assassinate()
    data = _payload(g, "A")
    lenin = uid("Lenin")
    assert to_wire(A.Assassinate("A", lenin, 3)) in data["legal"]
    page, errors = screen
    held = data["view"]["assassins"]["A"]
    for n, said in ((1, "1 Assassin marker"), (held, f"{held} Assassin markers")):    # (QA: "1 Assassin marker(s)")
        data["view"]["assassins"]["A"] = n
        _show(page, data)
        assert page.locator('.prompt-case .row.extra .small').inner_text() == said
    page.click('.prompt-case [data-act="assassinate"]')
    dlg = page.locator(".modal")
    dlg.wait_for()
    page.select_option(".modal select", str(lenin))
    page.fill(".modal input[type=number]", "3")
    # 004 [10.0]: two dice + (3 - 1) - 3 >= 7 -> 8+ on two dice: 15/36
    page.locator('.modal .odds-big:has-text("42%")').wait_for()
    assert "needs 8+" in dlg.inner_text()
    shot(page, f"assassin-dialog-{_vp(page)}.png")
    page.click('.modal [data-act="Assassinate"]')
    assert page.evaluate("window.__sent") == [to_wire(A.Assassinate("A", lenin, 3))]
    assert not errors, errors


def test_sheet_of_prompts_for_the_eye(server, browser) -> None:
    """All the decision cards side by side (artifacts/prompts.png), and on a phone."""
    for phone in (False, True):
        page, errors = _blank_page(browser, server, phone=phone)
        page.add_style_tag(content=".game { display: grid !important; grid-template-columns: repeat(auto-fill, minmax(330px, 1fr));"
                                   " gap: 10px; padding: 10px; height: auto !important; overflow: visible !important; }"
                                   " .prompt-case { border: 1px dashed #b9a27a; }")
        for case in ("loss", "attack", "counterpurge", "purge_approval", "spoils", "execution_consent", "execution",
                     "trade", "vote") if not phone else ("attack", "counterpurge"):
            build, seat = CASES[case][0], CASES[case][1]
            page.evaluate(f"async (d) => document.getElementById('app').append(await ({SETUP_JS})(d))", _payload(build(), seat))
        page.locator(".prompt-case").last.wait_for()
        if not phone:
            assert page.locator(".prompt-case").count() == 9
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / ("prompts-phone.png" if phone else "prompts.png")), full_page=True)
        if phone:
            assert page.evaluate("document.documentElement.scrollWidth") <= 392
        assert not errors, errors
        page.context.close()


# -- the combat list shows the engine's attack options ------------------------------------------------
def pos_red_and_white() -> Game:
    """004 [8.22]: A's Kikvidze (Red) and Dieterichs (White), each with a unit of 2 attached, in
    VLDV with the uncontrolled GU2 VLDV: 3 + 3 against 2, but Red and White never attack together,
    so each may attack only alone, at 1:1 (not both at 3:1)."""
    g = combat("A")
    put(g, "VLDV", "A", "Kikvidze", "RU2 VLDV", attach={"RU2 VLDV": "Kikvidze"})
    put(g, "VLDV", "A", "Dieterichs", "WU2 VLDV", attach={"WU2 VLDV": "Dieterichs"})
    put(g, "VLDV", None, "GU2 VLDV")
    return g


def _vp(page) -> str:
    """Which screen a page is (for the screenshots' names)."""
    return "phone" if page.viewport_size["width"] < 500 else "desktop"


def _show(page, data: dict) -> None:
    """A fresh page showing the Orders panel built from ``data`` (:func:`_payload`)."""
    _reset(page)
    page.evaluate(f"async (d) => document.getElementById('app').append(await ({SETUP_JS})(d))", data)


def _show_orders(page, g: Game, seat: str) -> dict:
    data = _payload(g, seat)
    _show(page, data)
    page.locator(".prompt-case .card").first.wait_for()
    return data


def _click_and_apply(page, g: Game, selector: str, steps: int = 1) -> list:
    """Click an order in the panel; the ``steps`` actions it sent are applied to the engine's game."""
    page.locator(f".prompt-case {selector}").first.click()
    if steps > 1:
        page.wait_for_function(f"() => window.__sent.length >= {steps}")
    sent = page.evaluate("window.__sent")
    assert len(sent) == steps and not any("error" in a for a in sent), sent
    return [e for a in sent for e in g.apply(a)]


def test_the_combat_list_offers_the_engines_attacks_never_red_and_white_together(screen) -> None:
    g = pos_red_and_white()
    kik, die = stack_with(g, "Kikvidze").id, stack_with(g, "Dieterichs").id
    gu2 = stack_with(g, "GU2 VLDV").id
    option = next(o for o in g.attack_options("A") if o["target"] == gu2)
    assert sorted(gr["stacks"] for gr in option["groups"]) == sorted([[kik], [die]])
    assert {gr["odds"]["label"] for gr in option["groups"]} == {"1:1"}
    page, errors = screen
    data = _show_orders(page, g, "A")
    assert data["facts"]["attack_options"] == g.attack_options("A")

    # the combat list: the target, each group of stacks that may attack it with its own odds
    button = page.locator(f'.prompt-case [data-act="DeclareAttack"][data-target="{gu2}"]')
    text = button.inner_text()
    assert "3:1" not in text and "6 →" not in text, text
    assert "strength 2" in text and text.count("3 → 1:1") == 2, text
    groups = button.locator(".group")
    assert sorted(groups.nth(i).get_attribute("data-stacks") for i in range(groups.count())) == sorted([str(kik), str(die)])
    assert {groups.nth(i).get_attribute("data-odds") for i in range(groups.count())} == {"1:1"}
    assert button.get_attribute("data-odds") == "1:1 1:1"
    assert "may not attack together (004 [8.22])" in page.locator(".prompt-case .card.phase").inner_text()
    # an attack on a stack of his own says why it is offered (QA: a newcomer was surprised by it)
    own = page.locator(f'.prompt-case [data-act="DeclareAttack"][data-target="{kik}"]')
    assert "your own stack: opposed colours fight even under one player" in own.inner_text()
    assert button.locator(".own-note").count() == 0
    shot(page, f"combat-groups-{_vp(page)}.png")

    # declaring: both stacks may join (either one), each bringing 3 for 1:1
    _click_and_apply(page, g, f'[data-act="DeclareAttack"][data-target="{gu2}"]')
    _show_orders(page, g, "A")
    for x in (kik, die):
        row = page.locator(f'.prompt-case li:has(input[data-act="AddAttacker"][data-stack="{x}"])')
        assert "strength 3 → 1:1" in row.inner_text()
    _click_and_apply(page, g, f'input[data-act="AddAttacker"][data-stack="{kik}"]')
    data = _show_orders(page, g, "A")
    # Kikvidze attacks: Dieterichs may no longer join (the engine lists no such action), the odds are 1:1
    assert not [a for a in data["legal"] if a["t"] == "AddAttacker"]
    assert page.locator('.prompt-case [data-act="AddAttacker"]').count() == 0
    assert g.odds()["label"] == "1:1" and data["facts"]["attack"]["odds"] == g.odds()
    odds = page.locator(".prompt-case .odds")
    assert odds.get_attribute("data-odds") == "1:1" and "3 : 2" in odds.inner_text()
    resolve = page.locator('.prompt-case [data-act="ResolveAttack"]')
    assert resolve.inner_text() == "Resolve at 1:1"
    with dice(g, 6):
        events = _click_and_apply(page, g, '[data-act="ResolveAttack"]')
    fight = next(e for e in events if e.kind == "combat")
    assert (fight.data["attack"], fight.data["defense"], fight.data["odds"]) == (3, 2, "1:1")
    assert not errors, errors



def pos_too_strong() -> Game:
    """A's Lenin (3) alone in TVER with B's Kolchak and two WU3 (8): 3 against 8 is below 1:2,
    whoever joins (004 [8.47]); in VLDV A's Kikvidze with a unit of 2 (3) and the uncontrolled
    GU2 VLDV (2), at 1:1."""
    g = combat("A")
    put(g, "TVER", "A", "Lenin")
    put(g, "TVER", "B", "Kolchak", "WU3 OMSK", "WU3 CHEL", attach={"WU3 OMSK": "Kolchak", "WU3 CHEL": "Kolchak"})
    put(g, "VLDV", "A", "Kikvidze", "RU2 VLDV", attach={"RU2 VLDV": "Kikvidze"})
    put(g, "VLDV", None, "GU2 VLDV")
    return g


def test_the_combat_list_does_not_offer_an_attack_below_1_2(screen) -> None:
    """The engine lets A declare an attack on Kolchak's stack, but every stack that may join it
    makes it less than 1:2 (its odds: column None), and no attack may be made at less than 1:2
    (004 [8.47]): declared, it could only be called off.  The combat list offered it as a target
    like any other; now it shows it, says why it cannot be made, and offers no button for it,
    while the attack at 1:1 is offered as before."""
    g = pos_too_strong()
    kol, gu2, lenin = stack_with(g, "Kolchak").id, stack_with(g, "GU2 VLDV").id, stack_with(g, "Lenin").id
    assert to_wire(A.DeclareAttack("A", kol, False)) in [to_wire(a) for a in g.legal_actions("A")]
    option = next(o for o in g.attack_options("A") if o["target"] == kol)
    assert [gr["odds"]["label"] for gr in option["groups"]] == ["below 1:2"] and option["possible"] is False
    page, errors = screen
    _show_orders(page, g, "A")
    strong = page.locator(f'.prompt-case [data-act="DeclareAttack"][data-target="{kol}"]')
    weak = page.locator(f'.prompt-case [data-act="DeclareAttack"][data-target="{gu2}"]')
    assert strong.is_disabled() and strong.get_attribute("data-below") == "1"
    text = strong.inner_text()
    assert "3 → below 1:2" in text and "whoever joins, no attack may be made at less than 1:2 (004 [8.47])" in text, text
    assert not weak.is_disabled() and "1:2 (004" not in weak.inner_text()
    shot(page, f"combat-below-{_vp(page)}.png")
    # in a list long enough to scroll (made so here), the greyed pick's words never lie over the
    # next pick: a click on it reaches it (in a game the reason once took the click, a flex item shrunk)
    page.add_style_tag(content=".pick-list { max-height: 60px !important; }")
    for b in (strong, weak):
        assert b.evaluate("(e) => e.scrollHeight <= e.clientHeight + 1"), b.inner_text()
    weak.scroll_into_view_if_needed()
    assert weak.evaluate("(e) => { const r = e.getBoundingClientRect(); "
                         "return e.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)); }")
    # why: declared and joined by Lenin, the engine would only let it be called off
    g2 = pos_too_strong()
    g2.apply(A.DeclareAttack("A", kol, False))
    g2.apply(A.AddAttacker("A", lenin))
    kinds = {type(a).__name__ for a in g2.legal_actions("A")}
    assert "ResolveAttack" not in kinds and "CancelAttack" in kinds, kinds
    # declared, with the one group of stacks the engine names for it added at once (QA: an attack
    # began with no attacker, "0 : 2, below 1:2", read by a newcomer as a refusal)
    group = next(o for o in g.attack_options("A") if o["target"] == gu2)["groups"]
    assert len(group) == 1
    _click_and_apply(page, g, f'[data-act="DeclareAttack"][data-target="{gu2}"]', steps=1 + len(group[0]["stacks"]))
    assert g.state.attack is not None and g.state.attack.target == gu2
    assert sorted(g.state.attack.attackers) == sorted(group[0]["stacks"])
    assert not errors, errors


def test_the_inspector_offers_no_attack_below_1_2(browser) -> None:
    """The same attack from the map: the stack card of Kolchak's stack (clicked on the map of a
    real game in that position) offered "Attack", which declared an attack that could only be
    called off; now its button says "Attack: below 1:2" and is not to be pressed, while the card
    of the uncontrolled GU2 offers the attack at 1:1."""
    g = pos_too_strong()
    with planted(browser, g) as page:
        page.wait_for_function("() => document.body?.dataset.mine === '1'")
        for name, below in (("Kolchak", True), ("GU2 VLDV", False)):
            st = stack_with(g, name)
            page.evaluate(f"window.rcwApp.board.centreOn({st.province!r}, true)")
            page.locator(f'svg g[data-stack="{st.id}"]').first.click()
            button = page.locator(f'.inspector .stack-card[data-stack="{st.id}"] [data-act="DeclareAttack"]')
            assert button.is_disabled() == below, name
            assert button.inner_text() == ("Attack: below 1:2" if below else "Attack"), name
        shot(page, "inspector-below-desktop.png")

POSTAL_ATTACKS_JS = """async ({view, opts}) => {
  const { loadData } = await import("/js/data.js");
  await loadData();
  const { PostalDesk } = await import("/js/postal.js");
  const added = [];
  const app = { seat: "A", gid: "test", st: { view }, known: () => opts, ask: async () => opts, renderSoon() {} };
  const desk = new PostalDesk(app);
  desk.add = (o) => added.push(o);
  window.__added = added;
  const box = document.createElement("div");
  box.className = "orders prompt-case";
  box.append(desk.attackCard({ targets: new Set() }));
  document.getElementById("app").append(box);
}"""


def test_the_postal_attack_card_offers_no_attack_below_1_2(desk) -> None:
    """The postal sheet's attack card (its list of the engine's attack options) offered "Lenin
    at below 1:2" as an order to add like any other; the engine then refused the sheet's order
    (004 [8.47]).  Now a group the engine gives no odds column is not to be pressed, and the
    target says why, while the attack at 1:1 is added to the sheet as before."""
    g = pos_too_strong()
    kol, gu2 = stack_with(g, "Kolchak").id, stack_with(g, "GU2 VLDV").id
    opts = g.attack_options("A")
    assert {o["target"]: o["possible"] for o in opts} == {kol: False, gu2: True}
    page, errors = desk
    _reset(page)
    page.evaluate(f"async (d) => ({POSTAL_ATTACKS_JS})(d)", {"view": g.view("A"), "opts": opts})
    strong = page.locator(f'.attack-card li[data-target="{kol}"]')
    weak = page.locator(f'.attack-card li[data-target="{gu2}"]')
    assert strong.locator("button").count() == 1 and strong.locator("button").is_disabled()
    assert "below 1:2" in strong.inner_text() and "no attack may be made at less than 1:2 (004 [8.47])" in strong.inner_text()
    assert not weak.locator("button").is_disabled() and "(004 [8.47])" not in weak.inner_text()
    strong.locator("button").click(force=True)              # (a press that reaches it anyway adds nothing)
    assert page.evaluate("window.__added") == []
    weak.locator("button").click()
    added = page.evaluate("window.__added")
    assert [(o["order"], o["target"]) for o in added] == [("attack", uid("GU2 VLDV"))], added
    assert not errors, errors


POSTAL_PLOT_JS = """async ({view, plot}) => {
  const { loadData } = await import("/js/data.js");
  await loadData();
  const { PostalDesk } = await import("/js/postal.js");
  const app = { seat: "A", gid: "test", st: { view }, known: () => undefined, ask: async () => ({}), renderSoon() {}, select() {} };
  const desk = new PostalDesk(app);
  desk.plot = { stack: 1, rail: false, pick: {}, drop: {}, problem: null, unchecked: null, routes: {}, queue: Promise.resolve(), busy: 0, was: null, ...plot };
  const box = document.createElement("div");
  box.className = "orders prompt-case";
  box.append(desk.plotCard());
  document.getElementById("app").append(box);
}"""


def test_the_postal_plot_card_tells_alike_units_apart_and_leaves_a_joining_leader_to_his_box(desk) -> None:
    """The plot card of a postal move (QA): the three Polish Green units all read "GU8 POLA/PO",
    and their drop lists read alike too; now they are numbered.  A leader offered to move with
    the force was offered a drop in the province the move starts from as well, which is what
    unticking him does; now his drops are offered along the path only."""
    g = Game.new(5, 4)
    page, errors = desk
    _reset(page)
    lenin, trotsky, ru = uid("Lenin"), uid("Trotsky"), uid("RU6 SMOL")
    plot = {"unit": 411, "from": "POLA", "path": ["LITH"], "join": [], "offers": {
        "drop": {"POLA": [412, 413], "LITH": [412, 413]}, "pick": {"LITH": [414]}}}
    page.evaluate(f"async (d) => ({POSTAL_PLOT_JS})(d)", {"view": g.view("A"), "plot": plot})
    card = page.locator(".plot-card.plotting")
    names = card.locator("label.drop").evaluate_all("(ls) => ls.map((l) => l.firstChild.textContent)")
    assert names == ["Drop GU8 POLA/PO (1) in ", "Drop GU8 POLA/PO (2) in "], names
    _reset(page)
    plot = {"unit": lenin, "from": "MOSC", "path": ["TVER"], "join": [trotsky], "offers": {
        "join": [{"leader": trotsky, "with": [ru]}], "drop": {"MOSC": [trotsky, ru], "TVER": [trotsky, ru]}}}
    page.evaluate(f"async (d) => ({POSTAL_PLOT_JS})(d)", {"view": g.view("A"), "plot": plot})
    card = page.locator(".plot-card.plotting")
    assert card.locator(f'input[data-join="{trotsky}"]').is_checked()
    places = {int(u): card.locator(f'select[data-drop="{u}"] option').evaluate_all("(os) => os.map((o) => o.value)")
              for u in (trotsky, ru)}
    assert places == {trotsky: ["", "TVER"], ru: ["", "MOSC", "TVER"]}, places
    assert not errors, errors


CARDS_JS = """async ({view, seat, messages}) => {
  const { loadData } = await import("/js/data.js");
  await loadData();
  const { Chat } = await import("/js/chat.js");
  const sent = [], answers = new Map(), asked = [];
  const app = { gid: "cards", seat, st: { view }, busy: false, seatName: (s) => `Player ${s}`,
    conn: { request: async (t, f) => { sent.push([t, f]); return {}; } },
    ask: (q, args) => {   // the server's facts.answer on the position the test built
      const got = window.__rcwQuery({ t: "query", q, ...args }).then((r) => {
        if (r.error) throw new Error(r.error);
        answers.set(`${q}|${JSON.stringify(args)}`, r.answer);
        return r.answer;
      });
      asked.push(got);
      return got;
    },
    known: (q, args) => answers.get(`${q}|${JSON.stringify(args)}`),   // (an answer had: the page's cache)
    renderSoon() {},
    setBusy() {}, showError(e) { sent.push(["error", e.message]); }, updateBadges() {}, talkVisible: () => true, showTalk() {} };
  window.__sent = sent;
  const chat = new Chat(app);
  chat.setSeat(seat);
  chat._chan({ name: "A-B", kind: "pair", members: ["A", "B"], title: "" });
  chat._chan({ name: "public", kind: "public", members: view.seats, title: "" });
  chat.current = "A-B";
  for (const msg of messages) chat.onPush({ t: "msg", channel: "A-B", msg });
  chat.render();
  await Promise.allSettled(asked);      // (the engine's answers in, the cards drawn again with them)
  chat.renderMessages();
  const box = document.createElement("div");
  box.className = "side";
  box.style.cssText = "width: min(420px, 100%); height: 760px; display: flex; flex-direction: column; position: static";
  box.append(chat.el);
  document.getElementById("app").append(box);
}"""


def test_proposal_cards_answer_with_accept_and_decline(screen) -> None:
    """The structured proposals (trade, Central Committee, purge plan, Czar's order) as cards in
    a pair channel: the addressee gets Accept / Decline (sending ``accept`` / ``decline`` for
    that message), an answered card shows the answer instead."""
    g = blank("A")
    markers(g, A=4, B=5)
    put(g, "PETR", "A", "Lenin")
    put(g, "TVER", "B", "Trotsky")
    g.state.assassins["B"] = 1
    g.apply(A.OfferTrade("A", "B", give_politburo=1, take_assassins=1))
    offer = g.view("B")["offers"][0]["id"]
    ts = 1_700_000_000_000
    messages = [
        {"id": 1, "seat": "A", "ts": ts, "text": "A proposes a trade",
         "proposal": {"kind": "trade", "to": "B", "give_politburo": 1, "take_assassins": 1, "offer": offer,
                      "addressees": ["B"], "seq": 3}},
        {"id": 2, "seat": "A", "ts": ts, "text": "Central Committee of A, B?",
         "proposal": {"kind": "committee", "members": ["A", "B"], "addressees": ["B"], "seq": 4}},
        {"id": 3, "seat": "A", "ts": ts, "text": "Purge C?",
         "proposal": {"kind": "purge", "target": "C", "purgers": ["A", "B"], "shares": ["A", "B"], "addressees": ["B"], "seq": 5}},
        {"id": 4, "seat": "A", "ts": ts, "text": "Execute the Czar?",
         "proposal": {"kind": "execution", "to": ["B"], "addressees": ["B"], "seq": 6}},
        {"id": 5, "seat": "B", "ts": ts, "text": "B accepts", "reply": {"msg": 2, "accept": True, "seq": 7}},
    ]
    page, errors = screen
    _reset(page)
    ASKED.update(game=g, seat="B")
    page.evaluate(f"async (d) => ({CARDS_JS})(d)", {"view": g.view("B"), "seat": "B", "messages": messages})
    cards = page.locator(".proposal")
    assert cards.count() == 4
    page.locator('.proposal[data-kind="purge"] .purge-now:has-text("Strength")').wait_for()   # the engine's answer
    titles = [cards.nth(i).locator(".proposal-title").inner_text() for i in range(4)]
    assert [t.split("#")[0].strip().lower() for t in titles] == ["trade", "central committee", "purge c", "execute the czar"]
    # numbered as the replies name them (the message's id); a trade is titled by the number the
    # log and the Orders panel give it, its message number after it
    assert [t.split("#")[-1].split()[0] for t in titles] == ["1", "2", "3", "4"], titles
    assert titles[0].startswith(f"Trade #{offer} · message #1"), titles
    assert "1 Politburo" in cards.nth(0).inner_text() and "1 Assassin" in cards.nth(0).inner_text()
    assert "9 Politburo markers" in cards.nth(1).inner_text()
    assert "Strength" in cards.nth(2).inner_text() and "counterpurge" in cards.nth(2).inner_text()
    # the Committee card was answered: no buttons, the answer shown
    assert cards.nth(1).locator("[data-act]").count() == 0 and cards.nth(1).locator(".ans.yes").count() == 1
    for i in (0, 2, 3):
        assert cards.nth(i).locator('[data-act="accept"]').count() == 1
        assert cards.nth(i).locator('[data-act="decline"]').count() == 1
    shot(page, f"proposal-cards-{_vp(page)}.png")
    cards.nth(3).locator('[data-act="decline"]').click()
    cards.nth(2).locator('[data-act="accept"]').click()
    cards.nth(0).locator('[data-act="accept"]').click()
    assert page.evaluate("window.__sent") == [["decline", {"channel": "A-B", "msg": 4}], ["accept", {"channel": "A-B", "msg": 3}],
                                              ["accept", {"channel": "A-B", "msg": 1}]]
    assert not errors, errors


def test_a_committee_card_its_proposer_no_longer_stands_by_is_closed(desk) -> None:
    """Found in play: a bot's invitation to a Central Committee of A, B, C, D stayed open with
    Accept and Decline after the bot had consented to another Committee; accepting made the
    player consent to a Committee no one else wanted.  A card stands while its proposer's
    consent (the view's ``committee_consent``) names exactly its members: here A's invitation to
    A and B does; A's older one to A, B and C, and C's to B and C (C consents to none), do not."""
    g = blank("A")
    markers(g, A=4, B=5, C=3)
    g.apply(A.JoinCommittee("A", ("A", "B")))
    assert g.view("B")["committee_consent"] == {"A": ["A", "B"]}
    ts = 1_700_000_000_000
    card = lambda i, seat, members: {"id": i, "seat": seat, "ts": ts, "text": "", "proposal": {   # noqa: E731
        "kind": "committee", "members": members, "addressees": [m for m in members if m != seat], "seq": i}}
    messages = [card(1, "A", ["A", "B", "C"]), card(2, "C", ["B", "C"]), card(3, "A", ["A", "B"])]
    page, errors = desk
    _reset(page)
    ASKED.update(game=g, seat="B")
    page.evaluate(f"async (d) => ({CARDS_JS})(d)", {"view": g.view("B"), "seat": "B", "messages": messages})
    cards = {i: page.locator(f'.proposal[data-msg="{i}"]') for i in (1, 2, 3)}
    for i, who in ((1, "A"), (2, "C")):
        assert cards[i].locator("[data-act]").count() == 0, i
        assert f"{who} no longer consents to it" in cards[i].inner_text(), i
    assert cards[3].locator('[data-act="accept"]').count() == 1 and "no longer" not in cards[3].inner_text()
    cards[3].locator('[data-act="accept"]').click()
    assert page.evaluate("window.__sent") == [["accept", {"channel": "A-B", "msg": 3}]]
    assert not errors, errors


def test_assassination_dialog_preselects_no_victim_and_marks_your_own_leaders(screen) -> None:
    """Issue 17 bug 4: the dialog chose one of your own leaders for you (one click on Strike killed
    your own man).  Now nothing is chosen, Strike waits for a choice, enemies come first and your
    own leaders are marked."""
    g = pos_assassinate()
    put(g, "PETR", "A", "Kalinin")          # a second leader of A's there: A may strike its own Peterson
    data = _payload(g, "A")
    lenin, peterson = uid("Lenin"), uid("Peterson")
    assert to_wire(A.Assassinate("A", peterson, 1)) in data["legal"]      # the engine allows it: the page must not pick it
    page, errors = screen
    _show(page, data)
    page.click('.prompt-case [data-act="assassinate"]')
    dlg = page.locator(".modal")
    dlg.wait_for()
    assert page.eval_on_selector(".modal select", "s => s.value") == ""
    assert page.locator('.modal [data-act="Assassinate"]').is_disabled()
    options = page.locator(".modal select option")
    assert options.nth(1).get_attribute("value") == str(lenin)
    own = page.locator('.modal select option[data-own="1"]')
    assert own.count() == 2 and str(peterson) in [own.nth(i).get_attribute("value") for i in range(2)]
    assert all("YOUR OWN" in own.nth(i).inner_text() for i in range(2))
    page.select_option(".modal select", str(peterson))
    assert "one of your own leaders" in dlg.inner_text()
    page.select_option(".modal select", str(lenin))
    assert not page.locator('.modal [data-act="Assassinate"]').is_disabled()
    page.click('.modal [data-act="Assassinate"]')
    assert page.evaluate("window.__sent") == [to_wire(A.Assassinate("A", lenin, 1))]
    assert not errors, errors



def test_the_assassin_dialog_counts_no_marker_before_a_victim_is_chosen(screen) -> None:
    """Before a victim is chosen the dialog said "Markers 1 of 1", as if a marker were already
    committed (and A holds 3).  Now the markers row counts nothing until a victim is chosen; then
    it offers 1 of the markers that may go against him."""
    g = pos_assassinate()
    data = _payload(g, "A")
    lenin = uid("Lenin")
    page, errors = screen
    _show(page, data)
    page.click('.prompt-case [data-act="assassinate"]')
    page.locator(".modal").wait_for()
    row = page.locator('.modal .form-row:has(label:text-is("Markers"))')
    text = row.inner_text()
    assert row.locator("input").count() == 0 and " of " not in text, text
    assert "choose a victim first" in text and "you hold 3 Assassin markers" in text, text
    page.select_option(".modal select", str(lenin))
    assert row.locator("input").input_value() == "1" and row.inner_text().strip().endswith("of 3"), row.inner_text()
    assert not errors, errors

def pos_loss_uncontrolled() -> Game:
    """004 [8.46]: A's six points attack an uncontrolled stack of twelve at 1:2; Ex: A's force is
    gone, and A, the attacker, chooses which of the defender's units make up the six points."""
    g = combat()
    put(g, "TVER", "A", "Lenin", "RU3 KALU", attach={"RU3 KALU": "Lenin"})
    put(g, "TVER", None, "GU8 POLA/PO", "GU2 KOVN/BA", "GU2 COUR/BA")
    attack(g, "A", "GU2 KOVN/BA", ["Lenin"], die=1)
    return g


@pytest.mark.parametrize("whose", ["own", "defender"])
def test_exchange_card_says_whose_losses_are_chosen(screen, whose) -> None:
    """Issue 17 bug 3: against an uncontrolled defender the card said "choose your losses" and
    listed the enemy's units.  It says whose units these are (004 [8.44] yours, [8.46] the
    uncontrolled defender's, chosen by the attacker)."""
    g = pos_loss() if whose == "own" else pos_loss_uncontrolled()
    d = g.state.decision
    assert d["kind"] == "loss" and d["seat"] == "A"
    data = _payload(g, "A")
    page, errors = screen
    _show(page, data)
    card = page.locator('.prompt-case [data-decision="loss"]').first
    card.wait_for()
    head = card.locator("h3")
    assert head.get_attribute("data-whose") == whose
    text = card.inner_text()
    if whose == "own":
        assert "choose your losses" in text and "units of yours" in text
    else:
        assert "choose the uncontrolled defender's losses" in text and "your losses" not in text and "004 [8.46]" in text
        assert "GU8 POLA" in text
    shot(page, f"exchange-{whose}-{_vp(page)}.png")
    picks = card.locator('[data-act="ChooseLoss"]')
    assert sorted(int(picks.nth(i).get_attribute("data-unit")) for i in range(picks.count())) == sorted(d["units"])
    assert not errors, errors


def pos_white_victory() -> Game:
    """A finished game: White Victory (004 [14.1] 1), scored by the engine (004 [14.4])."""
    from rcw.rules import victory

    g = blank("B", "combat")
    put(g, "TVER", "B", "Kolchak", "WU3 OMSK", attach={"WU3 OMSK": "Kolchak"})
    put(g, "OMSK", "C", "Wrangel")
    put(g, "PETR", "A", "RU8 PETR")
    g.state.phase = "over"
    g.state.result = victory.result(g.ctx, "White", "no Red leaders remain on the map outside Siberia (004 [14.1] 1)")
    return g


def test_the_final_scoreboard_shows_both_colours_the_winner_and_the_ranking(screen) -> None:
    """Issue 17: the end of a game shows every player's Red and White Victory Points, the
    winning colour and the ranking (the engine's ``result`` and ``view.scores``), the replay below."""
    g = pos_white_victory()
    r, scores = g.result, g.scores()
    assert r["winner"] == "B" and r["ranking"][:2] == ["B", "C"]
    data = _payload(g, "A")
    data["view"]["result"] = r
    page, errors = screen
    _show(page, data)
    board = page.locator(".prompt-case table.scores.final")
    board.wait_for()
    assert board.get_attribute("data-winner-color") == "White"
    rows = board.locator("tbody tr")
    assert [rows.nth(i).get_attribute("data-seat") for i in range(rows.count())] == r["ranking"]
    for i, p in enumerate(r["ranking"]):
        cells = rows.nth(i).locator("td")
        assert cells.nth(0).inner_text() == str(i + 1)
        assert cells.nth(2).inner_text() == str(scores["Red"][p]) and cells.nth(3).inner_text() == str(scores["White"][p])
    assert board.locator("th.win-col").text_content() == "White VP"
    assert rows.nth(0).get_attribute("class") == "winner"
    shot(page, f"scoreboard-card-{_vp(page)}.png")
    text = page.locator(".prompt-case .card.over").inner_text()
    assert "White Victory" in text and "Player B (B) wins" in text
    assert page.locator('.prompt-case .card.over [data-act="replay"]').count() == 1
    assert not errors, errors


def test_losses_are_suggested_and_confirmed_with_a_way_back(screen) -> None:
    """Issue 17, losses chosen safely: the least loss that satisfies the Exchange is suggested (the
    engine's minimum_loss: no leader while units suffice), nothing is sent before a confirmation
    that names the units and points, Back sends nothing, Remove sends one ChooseLoss a unit."""
    g = pos_loss()
    data = _payload(g, "A")
    suggested = g.minimum_loss("A")
    assert data["facts"]["loss"] == {"suggested": suggested} and uid("Lenin") not in suggested
    page, errors = screen
    _show(page, data)
    card = page.locator('.prompt-case [data-decision="loss"]')
    card.wait_for()
    marked = card.locator(".pick.suggested")
    assert sorted(int(marked.nth(i).get_attribute("data-unit")) for i in range(marked.count())) == sorted(suggested)
    # one unit clicked: a confirmation, and Back sends nothing
    card.locator(f'[data-act="ChooseLoss"][data-unit="{uid("Lenin")}"]').click()
    dlg = page.locator(".modal")
    assert "Lenin" in dlg.inner_text() and "you will choose more" in dlg.inner_text()
    shot(page, f"loss-confirm-{_vp(page)}.png")
    page.click('.modal [data-act="loss-back"]')
    assert page.evaluate("window.__sent") == [] and page.locator(".modal").count() == 0
    # the suggestion, confirmed
    card.locator('[data-act="suggested-loss"]').click()
    assert "the Exchange needs 5" in page.locator(".modal").inner_text()
    page.click('.modal [data-act="confirm-loss"]')
    page.wait_for_function(f"() => window.__sent.length === {len(suggested)}")
    assert page.evaluate("window.__sent") == [to_wire(A.ChooseLoss("A", u)) for u in suggested]
    assert not errors, errors


def test_the_masses_game_shows_no_committee_no_purge_and_its_own_execution_rule(screen) -> None:
    """004 Masses [11.0]: "All the Politburo and Purge rules should be deleted" - the Politics card
    (which asks the engine: ``limits()["politburo"]``) offers no Committee and shows no Purge
    Strength, and the Czar dialog explains the article's coalition rule, [13.52] (before: the
    Committee line with its eight markers, "Propose a Committee…" and the 004 [13.5] text)."""
    g = empty_map(options={"masses": True})
    phase(g, "A", "movement")
    page, errors = screen
    data = _show_orders(page, g, "A")
    assert data["view"]["limits"]["politburo"] is False
    card = page.locator(".prompt-case .card.politics")
    text = card.inner_text()
    assert "No Politburo, Central Committee or purges in this game" in text
    assert "Central Committee (" not in text and "Purge Strength" not in text
    assert card.locator('[data-act="committee-dialog"]').count() == 0
    page.evaluate("async () => { const { openCzarDialog } = await import('/js/dialogs.js'); openCzarDialog(window.__app); }")
    dialog = page.locator(".modal")
    assert "two thirds of the Red leadership" in dialog.inner_text() and "Politburo markers" not in dialog.inner_text()
    page.keyboard.press("Escape")
    assert not errors, errors


def test_a_committee_that_has_purged_is_told_why_it_has_no_purge_button(screen) -> None:
    """QA of a live game: in Game-Turn 2 the Committee of A and B had no Purge button, rightly
    (004 [11.13]: one purge a player a Game-Turn), and nothing said why.  The Politics card says
    so when the engine has A among this Game-Turn's purgers (the seat's facts: ``purge.done``)."""
    g = committee_abc()                                    # (A, B and C form the Committee)
    page, errors = screen
    data = _show_orders(page, g, "A")
    assert "done" not in data["facts"]["purge"]
    assert page.locator(".prompt-case .card.politics .purged-note").count() == 0
    g.state.purged_this_turn, g.state.purge_turn = ["A", "B", "C"], g.state.turn    # (as after their purge of D)
    assert g.purged() == ["A", "B", "C"] and not any(a.TYPE == "DeclarePurge" for a in g.legal_actions("A"))
    data = _show_orders(page, g, "A")
    assert data["facts"]["purge"]["done"] is True
    note = page.locator(".prompt-case .card.politics .purged-note")
    assert "no other until the next (004 [11.13])" in note.inner_text()
    assert not errors, errors


def test_a_committee_member_sees_the_committees_purge_strength_beside_his_own(screen) -> None:
    """QA: a member of the sitting Committee saw "Your Purge Strength: 5 + 2 = 7" alone in the
    Politics card, the Committee's only in the Purge dialog.  The card gives both (the engine's
    purge odds of all its members, the seat's facts)."""
    g = committee_abc()                                    # (A, B and C form the Committee)
    page, errors = screen
    _show_orders(page, g, "A")
    ours = g.purge_odds(["A", "B", "C"])
    text = page.locator(".prompt-case .card.politics .purge-strength").inner_text()
    assert f"the Committee's (A, B, C) together: {ours['strength']}, column {ours['column']}" in text, text
    assert text.startswith(f"Your Purge Strength: {g.leadership('A')} (Red leaders)"), text
    assert not errors, errors


def test_the_randomizer_card_after_the_draw_says_the_turn_stays_open(screen) -> None:
    """004 [10.0], [12.13]: once the seat has drawn, its Randomizer card says so and why the turn
    stays open (before, it still said "Draw one chit…" beside the only button, End your
    Player-Turn)."""
    g = blank("A", "randomizer")
    put(g, "PETR", "A", "Lenin")
    put(g, "PETR", "B", "Trotsky")                  # a leader A's assassins may go after (004 [10.13])
    g.state.aux = ["A", "A"]
    g.apply(A.DrawRandomizer("A"))
    page, errors = screen
    data = _show_orders(page, g, "A")
    assert {a["t"] for a in data["legal"]} >= {"EndPlayerTurn"} and "DrawRandomizer" not in {a["t"] for a in data["legal"]}
    text = page.locator(".prompt-case .card.phase").inner_text()
    assert "You have drawn" in text and "Draw one chit" not in text
    assert not errors, errors


def test_the_movement_card_says_which_leaders_alone_must_be_stacked_before_the_phase_ends(browser) -> None:
    """001 No Leader Suicide 3 as a duty: while Kalinin alone in KALU can reach Sorokin's stack
    in RYAZ, and Kamenev stands alone beside Trotsky's stack in PETR, the engine refuses the end
    of A's Movement Phase; the Orders panel, which offered the button only when the engine allows
    it, said nothing of why it was gone.  Now it lists what is left to do, from the engine's
    ``leaders_to_stack`` query, and the End button comes back once it is done."""
    g = empty_map(options={"no_leader_suicide": True})
    put(g, "KALU", "A", "Kalinin")
    put(g, "RYAZ", "A", "Sorokin", "RU4 TULA", attach={"RU4 TULA": "Sorokin"})
    put(g, "PETR", "A", "Kamenev")
    put(g, "PETR", "A", "Trotsky", "RU6 SMOL", attach={"RU6 SMOL": "Trotsky"})
    assert not g.is_legal(A.EndMovement("A"))
    with planted(browser, g) as page:
        duties = page.locator(".orders .duties li")
        duties.first.wait_for()
        lines = duties.all_inner_texts()
        assert len(lines) == 2 and "Kalinin" in lines[0] and g.data.provinces["RYAZ"].name in lines[0], lines
        assert "Kamenev" in lines[1] and "Stack" in lines[1], lines
        assert page.locator('.orders [data-act="EndMovement"]').count() == 0
        # and on the map: the two leaders' counters are marked (the Key says what the mark means)
        def marked() -> list[str]:
            return page.evaluate("() => [...document.querySelectorAll('svg.board .counter.duty')].map((c) => c.dataset.province).sort()")

        page.wait_for_function("() => document.querySelectorAll('svg.board .counter.duty').length === 2")
        assert marked() == ["KALU", "PETR"], marked()
        assert "No Leader Suicide" in page.locator('svg.board .counter.duty[data-province="KALU"] title').text_content()
        # done: Kamenev stacked with Trotsky's stack (the Other orders' button), Kalinin moved there
        # (opened and pressed at once: the panel is drawn again, closed, at every frame)
        page.evaluate("""() => { const d = document.querySelector('.orders details.other'); d.open = true;
          [...d.querySelectorAll('[data-act="Merge"]')].find((b) => b.textContent.includes('Kamenev')).click(); }""")
        page.wait_for_function("() => document.querySelectorAll('.orders .duties li').length === 1")
        page.wait_for_function("() => document.querySelectorAll('svg.board .counter.duty').length === 1")
        assert marked() == ["KALU"], marked()
        kalinin = uid("Kalinin")
        page.locator(f'.orders [data-act="StartForce"][data-unit="{kalinin}"]').click()
        for p in ("TULA", "RYAZ"):
            page.wait_for_function(f"() => !window.rcwApp.busy && (window.rcwApp.st.legal || []).some((a) => a.t === 'Move' && a.to === {p!r})")
            assert page.evaluate(f"() => window.rcwApp.act({{ t: 'Move', seat: 'A', to: {p!r}, rail: false }})") is not False
            page.wait_for_function(f"() => window.rcwApp.st.view.stacks.some((s) => s.province === {p!r} && s.units.includes({kalinin}))")
        page.locator('.orders [data-act="EndForce"]').click()
        page.locator('.orders [data-act="EndMovement"]').wait_for()
        assert page.locator(".orders .duties").count() == 0
        assert marked() == [], marked()


def test_a_refusal_names_the_provinces_as_the_map_does(browser) -> None:
    """The engine's refusals name provinces by code ("KALU is not adjacent to RYAZ"); the toast
    and the Orders panel's refusal read them by the names printed under the codes on the map
    (QA: a refusal in codes sent a new player hunting the map for "KALU")."""
    g = empty_map()
    put(g, "KALU", "A", "Kalinin")
    kalinin = uid("Kalinin")
    g.apply(A.StartForce("A", kalinin))
    refusal = g.why_illegal(A.Move("A", "VORO", False))
    assert refusal is not None and "KALU" in refusal.message, refusal
    with planted(browser, g) as page:
        page.wait_for_function("() => !window.rcwApp.busy && (window.rcwApp.st.legal || []).some((a) => a.t === 'Move')")
        page.evaluate("() => window.rcwApp.act({ t: 'Move', seat: 'A', to: 'VORO', rail: false })")
        toast = page.locator(".toast.error").first
        toast.wait_for()
        names = [g.data.provinces[p].name for p in ("KALU", "VORO")]
        for text in (toast.inner_text(), page.locator(".orders .refusal").inner_text()):
            assert all(n in text for n in names) and "KALU" not in text and "VORO" not in text, text
        assert "Rule 004 [5.24]" in toast.inner_text()
        # a unit's label keeps its code, as the counters and the log read it (a review's finding)
        said = page.evaluate("""async () => (await import("/js/data.js")).placeNames(
          "WU3 OMSK and BU2 CHER/GE are not in KALU")""")
        assert said == "WU3 OMSK and BU2 CHER/GE are not in Kaluga", said


def test_a_tie_for_the_most_victory_points_is_a_shared_win(browser) -> None:
    """004 [14.0] names "the Player with the largest number of Victory Points" the winner and is
    silent on a tie; the engine named the earlier seat letter alone.  Now Anna (A) and Boris (B),
    1 Red Victory Point each when the Red Victory comes with A's draw, share the win: the final
    card and the header say so, and both rows of the scoreboard are the winners'."""
    g = blank("A", "randomizer")
    s = g.state
    s.order, s.current, s.aux = ["B", "C", "D", "E", "A"], 4, ["A"]    # A draws last: the Game-Turn ends
    put(g, "TVER", "B", "Sytin")
    put(g, "TULA", "A", "Kamenev")
    put(g, "VLDV", "C", "Dieterichs", "WU2 VLDV")                       # White only in Siberia (004 [14.1] 2)
    with planted(browser, g) as page:
        page.locator('.orders [data-act="DrawRandomizer"]').click()
        final = page.locator(".modal.final")
        final.wait_for()
        text = final.inner_text()
        assert "Anna (A) and Boris (B) share the win" in text and "1 each" in text, text
        assert final.locator("tbody tr.winner").evaluate_all("(rs) => rs.map((r) => r.dataset.seat)") == ["A", "B"]
        # (the header is drawn on the next frame after the final card: waited for, ci-local once read it before)
        page.locator(".pendbox", has_text="share the win").wait_for(timeout=10_000)


def test_an_assassination_toast_shows_the_sum_the_engine_made(desk) -> None:
    """QA: the toast read "roll 6+2, total 6", which looks wrong: 004 [10.0] adds one for each
    marker beyond the first and takes away the victim's value.  The engine's event now carries
    those terms and the threshold, and the toast shows the whole sum as the log does."""
    from engine_helpers import dice as planted_dice

    g = blank("A", "randomizer")
    put(g, "PETR", "A", "Lenin")
    put(g, "PETR", "B", "Kolchak")
    g.state.assassins["A"] = 2
    kolchak = uid("Kolchak")
    with planted_dice(g, 6, 2):
        ev = next(e for e in g.apply(A.Assassinate("A", kolchak, 2)) if e.kind == "assassination")
    d = ev.data
    assert (d["dice"], d["extra"], d["value"]) == ([6, 2], 1, g.data.units[kolchak].strength)
    page, errors = desk
    got = page.evaluate("""async (e) => { const { loadData } = await import("/js/data.js"); await loadData();
      const { resultsOf } = await import("/js/results.js"); return resultsOf({ events: [e] }); }""",
                        {"t": "event", "kind": ev.kind, "text": ev.text, "data": ev.data})
    assert len(got) == 1, got
    total = 6 + 2 + 1 - g.data.units[kolchak].strength
    assert f"roll 6+2 +1 (markers) − {g.data.units[kolchak].strength} (Kolchak's value) = {total}" in got[0]["detail"], got
    assert f"{g.data.tables.assassination_success} or more needed" in got[0]["detail"], got
    assert not errors, errors


def test_a_subversive_attack_short_of_de_is_toasted_as_no_effect(desk) -> None:
    """QA: a Subversive Attack's toast read "Exchange in LIVO ... → Ex" while the log said "The
    Subversive Attack has no effect" (004 [8.33]: only De counts).  The toast follows the engine's
    ``no_effect`` event: "No effect in ...", the die and the table's result in its detail."""
    from engine_helpers import attack, phase
    from test_bell import bell_moved

    g = bell_moved()
    phase(g, "E", "combat")
    ev = attack(g, "E", "BU2 ARCH/US", ["Blucher"], subversive=True, die=2)      # (Ex at 1:1)
    assert [e.kind for e in ev][-2:] == ["combat", "no_effect"]
    page, errors = desk
    got = page.evaluate("""async (events) => { const { loadData } = await import("/js/data.js"); await loadData();
      const { resultsOf } = await import("/js/results.js"); return resultsOf({ events }); }""",
                        [{"t": "event", "kind": e.kind, "text": e.text, "data": e.data} for e in ev])
    combat = [r for r in got if r["kind"] == "combat"]
    assert len(combat) == 1 and combat[0]["title"] == "No effect in ARCH", got
    assert "(subversive)" in combat[0]["detail"] and combat[0]["detail"].endswith("→ Ex"), got
    assert not errors, errors


def test_a_subversive_attacks_odds_show_no_exchange_and_no_risk(browser) -> None:
    """QA: declaring a Subversive Attack, the odds box read "Exchange 2/6 · Attacker eliminated
    2/6" over red Ex and Ae cells, though the attackers risk nothing (004 [8.33]: only De has
    effect).  It shows the engine's row for the attack: "Ne", no effect, on every die but the De
    ones, and the chances of De and of no effect."""
    from engine_helpers import attack, phase
    from test_bell import bell_moved

    g = bell_moved()
    phase(g, "E", "combat")
    attack(g, "E", "BU2 ARCH/US", ["Blucher"], subversive=True)       # (declared, not resolved: 1:1)
    odds = g.odds()
    with planted(browser, g, "E") as page:
        box = page.locator(".orders .odds")
        box.wait_for()
        cells = box.locator(".crt-cell").evaluate_all("(cs) => cs.map((c) => c.className.split(' ').pop())")
        assert cells == odds["row"] and set(cells) == {"De", "Ne"}, cells
        text = box.inner_text()
        assert f"Defender eliminated {odds['results']['De']}/6" in text and f"no effect {odds['results']['Ne']}/6" in text, text
        assert "Exchange" not in text and "Attacker eliminated" not in text, text


def test_the_seats_own_roll_and_draw_are_told_where_it_looks(browser) -> None:
    """QA: a player's Random Events roll and Randomizer draw were told only in the log; the page
    went straight on to the next phase (004 [12.13]: the result is "immediately effected").  Now
    each comes as a toast with the engine's words, as combats do."""
    g = blank("A", "random_events")
    put(g, "PETR", "A", "Lenin")
    for r in range(1, 500):                   # (an RNG state whose roll is no epidemic: those were told already)
        h = Game.from_bytes(g.to_bytes())
        h.state.rng = r
        if not any(e.kind == "random_event" and e.data.get("result") == "epidemic" for e in h.apply(A.RollRandomEvents("A"))):
            g.state.rng = r
            break
    title = _draw_told(browser, g, "RollRandomEvents")
    assert title.startswith("A rolls ") and "Random Events Table (004 [12.0])" in title, title
    g = blank("A", "randomizer")                  # the Randomizer Phase's draw (004 [4.2] A.4)
    g.state.aux = ["P"]
    title = _draw_told(browser, g, "DrawRandomizer")
    assert title.startswith("A draws a Politburo marker") and "Auxiliary Forces Randomizer (004 [12.13])" in title, title


def _draw_told(browser, g: Game, act: str) -> str:
    """The position ``g`` planted; A presses the Orders' ``act``: the toast of A's own draw."""
    with planted(browser, g) as page:
        keep_toasts(page)
        page.locator(f'.orders [data-act="{act}"]').click()
        return toast_text(page, result="draw")


def test_a_force_that_must_stop_is_told_why_and_to_halt(browser) -> None:
    """QA: after entering a province held by another colour the Orders said only "No further
    move is open to this force now" (the reason, 004 [5.27], in the log alone), and the map's
    prompt still said to tap a ringed province, with none to tap."""
    g = empty_map()
    put(g, "KALU", "A", "Kalinin")
    put(g, "TULA", "B", "Markov", "WU2 TERE", attach={"WU2 TERE": "Markov"})
    g.apply(A.StartForce("A", uid("Kalinin")))
    g.apply(A.Move("A", "TULA", False))
    assert not any(type(a).__name__ == "Move" for a in g.legal_actions("A"))
    with planted(browser, g) as page:
        note = page.locator(".orders .no-move")
        note.wait_for()
        why = g.force_stop()
        assert why is not None and why["rule"] == "004 [5.27]"
        text = note.inner_text()                # (the engine's words, provinces by name, and its rule)
        assert "entered Tula, held by units of another colour, and must stop (004 [5.27])" in text and "Halt it here" in text, text
        assert "must stop here (004 [5.27])" in page.locator(".orders .force-info").inner_text()
        prompt = page.locator(".map-prompt")
        prompt.wait_for()
        assert "halt it (Orders)" in prompt.inner_text() and "ringed" not in prompt.inner_text()


def _b_invites_a() -> Game:
    """B's Movement Phase: B consents to a Central Committee of A and B (9 markers), A not yet."""
    g = blank("B")
    markers(g, A=4, B=5)
    put(g, "PETR", "A", "Lenin")
    g.apply(A.JoinCommittee("B", ("A", "B")))
    return g


def test_a_bot_that_waits_for_an_answer_to_its_invitation_is_said_to(screen) -> None:
    """Found in QA: while a bot waited (``--bot-wait``) for the player's answer to its Committee
    invitation, the Orders panel said only "Waiting for Bot B (Movement)…", the invitation
    further down.  The waiting line now says what it waits for; a human's invitation, or a
    bot's to a Committee the seat consents to already, adds nothing."""
    g = _b_invites_a()
    page, errors = screen
    line = page.locator(".prompt-case .pending-line")
    for kind, says in (("bot", True), ("human", False)):
        data = _payload(g, "A") | {"seats": {"B": {"kind": kind}}}
        _show(page, data)
        line.first.wait_for()
        text = line.first.inner_text()
        assert "Waiting for" in text and ("Player B waits for your answer to its Central Committee invitation" in text) is says, text
    g.apply(A.JoinCommittee("A", ("A", "B")))       # (answered: the Committee sits)
    _show(page, _payload(g, "A") | {"seats": {"B": {"kind": "bot"}}})
    line.first.wait_for()
    assert "waits for your answer" not in line.first.inner_text()
    assert not errors, errors


def test_the_waiting_line_brings_the_bots_invitation_into_view(screen) -> None:
    """QA: "Bot B waits for your answer to its Central Committee invitation (Politics, below)",
    and below the trade offers the invitation, its Join and its Decline were out of sight.  The
    "(Politics, below)" is a link now: it scrolls the invitation into view and flashes it."""
    g = blank("B")
    markers(g, A=4, B=5, C=3, D=3)
    put(g, "PETR", "A", "Lenin")
    for frm in ("B", "C", "D", "B", "C", "D"):           # (trade offers fill the panel above the Politics card)
        g.apply(A.OfferTrade(frm, "A", give_politburo=1, take_assassins=0))
    g.apply(A.JoinCommittee("B", ("A", "B")))
    page, errors = screen
    _show(page, _payload(g, "A") | {"seats": {"B": {"kind": "bot"}}})
    inv = page.locator('.prompt-case .politics .invitation[data-seat="B"]')
    inv.wait_for()
    # (the panel as the page holds it: a pane of its own height that scrolls, here 320 pixels)
    page.evaluate("() => Object.assign(document.querySelector('.prompt-case').style, {maxHeight: '320px', overflow: 'auto'})")
    in_view = """() => { const r = document.querySelector('.prompt-case .invitation').getBoundingClientRect(),
                           p = document.querySelector('.prompt-case').getBoundingClientRect();
                         return r.top >= p.top - 1 && r.bottom <= p.bottom + 1; }"""
    assert not page.evaluate(in_view), "the invitation was in view already: the test shows nothing"
    page.locator('.prompt-case .pending-line [data-act="goto-invitation"]').click()
    page.wait_for_function(in_view)
    assert "flash" in (inv.get_attribute("class") or "")
    assert not errors, errors


def test_the_waiting_line_counts_down_the_bots_wait_for_an_answer(screen) -> None:
    """QA: "Bot B waits for your answer" said not for how long: the bot goes on without it after
    the server's ``--bot-wait`` (the welcome's ``limits.bot_wait``) from its invitation's card.
    The line counts it down while the card is unanswered; not once answered, nor with no wait."""
    g = _b_invites_a()
    page, errors = screen
    line = page.locator(".prompt-case .pending-line")
    for wait, answer, counts in ((20, None, True), (20, False, False), (0, None, False)):
        card = {"channel": "A-B", "id": 1, "ts": int(time.time() * 1000) - 5000} | ({} if answer is None else {"answer": answer})
        _show(page, _payload(g, "A") | {"seats": {"B": {"kind": "bot"}}, "botWait": wait, "card": card})
        line.first.wait_for()
        left = page.locator(".prompt-case .pending-line .countdown.bot-wait")
        assert left.count() == (1 if counts else 0), (wait, answer, line.first.inner_text())
        if counts:                        # (20 s from a card posted 5 s ago)
            assert re.fullmatch(r"0:1[4-5] left", left.inner_text()), left.inner_text()
            assert "then it goes on without you" in line.first.inner_text()
    assert not errors, errors


def test_an_invitation_is_one_card_for_its_committee_and_none_once_consented(screen) -> None:
    """A review's findings on the Politics card's invitations: B and C both consenting to a
    Committee of A, B, C made two invitations, each with its Join; once A consented too the card
    still read "B invites you" (with no Join: the engine refuses a consent given already)."""
    g = blank("A")
    markers(g, A=2, B=3, C=4)
    put(g, "PETR", "A", "Lenin")
    g.apply(A.JoinCommittee("B", ("A", "B", "C")))
    g.apply(A.JoinCommittee("C", ("A", "B", "C")))
    page, errors = screen
    _show_orders(page, g, "A")
    inv = page.locator(".prompt-case .politics .invitation")
    assert inv.count() == 1, inv.all_inner_texts()
    assert "Player B and Player C invite you to a Central Committee of A, B, C" in inv.inner_text()
    assert inv.locator('[data-act="JoinCommittee"]').count() == 1
    assert page.locator('.prompt-case [data-act="JoinCommittee"][data-members="ABC"]').count() == 1
    g2 = blank("A")                                   # A consents to B's (C has not): no invitation left
    markers(g2, A=2, B=3, C=4)
    put(g2, "PETR", "A", "Lenin")
    g2.apply(A.JoinCommittee("B", ("A", "B", "C")))
    g2.apply(A.JoinCommittee("A", ("A", "B", "C")))
    _show_orders(page, g2, "A")
    assert page.locator(".prompt-case .politics .invitation").count() == 0
    assert "Player B consents to a Committee of A, B, C" in page.locator(".prompt-case .politics").inner_text()
    assert not errors, errors


def test_the_page_takes_its_pacts_from_the_server(browser) -> None:
    """Review: the page found its pacts by reading the chat's proposals and replies again, its own
    copy of what makes a pact.  Now it takes those the server keeps (the state frame's ``pacts``,
    and the replies that carry the pact kept): a pact with B, kept with the game though no
    message in this page's chat tells of it, is warned of on the attack on B's stack and on the
    pair channel's head, and one with C that ended with Game-Turn 0 is not."""
    g = combat()
    put(g, "TVER", "A", "Lenin", "RU4 TULA", attach={"RU4 TULA": "Lenin"})
    put(g, "TVER", "B", "Kolchak")
    put(g, "VLDV", "A", "Kikvidze", "RU3 KALU", attach={"RU3 KALU": "Kikvidze"})
    put(g, "VLDV", "C", "Wrangel")
    kept = ({"a": "A", "b": "B", "until": g.state.turn, "since": 0, "id": "A-B:1"},
            {"a": "C", "b": "A", "until": g.state.turn - 1, "since": 0, "id": "A-C:1"})
    with planted(browser, g, pacts=kept) as page:
        page.locator('.orders [data-act="DeclareAttack"]').first.wait_for()
        notes = {}
        for b in page.locator('.orders [data-act="DeclareAttack"]').all():
            owner = page.evaluate("(id) => rcwApp.st.view.stacks.find((s) => s.id === id).owner", int(b.get_attribute("data-target")))
            notes[owner] = b.inner_text()
        assert f"breaks your pact with B (until the end of Game-Turn {g.state.turn})" in notes["B"], notes
        assert "pact" not in notes["C"], notes
        page.click('.chan-tab[data-channel="A-B"]')
        assert page.locator(".chan-head .pact-badge:not(.broken)").inner_text() == f"pact until the end of Game-Turn {g.state.turn}"


def test_a_purge_card_follows_the_game_when_approved_from_the_orders_panel(browser) -> None:
    """QA: A's plan to purge D with B and C (004 [11.23]) was posted as a card; B approved it with
    the Orders panel's Approve (an ApprovePurge, no reply in chat), and the card went on asking B
    for an answer, its Accept refused ("no purge approval decision is pending"), and after the
    purge it still offered the odds "now".  The card now follows the game's own events: B's
    approval, then, C's given too and the purge rolled, that it was made (a reload reads the same
    from the game's history)."""
    from browser_helpers import NAMES, Live, as_seat, open_channel

    live = Live()
    page = None
    try:
        gid, tokens = live.plant(committee_abc())
        page = new_page(browser)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        open_seat(page, live.base, gid, tokens["B"], "B", NAMES["B"])
        chan: dict = {}

        async def propose(c) -> None:          # (as the Purge dialog posts it)
            chan.update(await c.open_channel(["A", "B", "C"], "Committee"))
            await c.chat(chan["name"], "", {"kind": "purge", "target": "D", "purgers": ["A", "B", "C"],
                                            "shares": ["A", "B", "C"]})
        as_seat(live.base, gid, tokens["A"], propose)
        page.click('.dtabs .dtab[data-tab="talk"]')
        open_channel(page, chan["name"])
        card = page.locator('.msg-list .proposal[data-kind="purge"]')
        card.locator('[data-act="accept"]').wait_for()
        page.locator('.orders [data-act="ApprovePurge"].primary').click()     # (the Orders panel, beside the chat)
        page.wait_for_function("() => { const c = document.querySelector('.msg-list .proposal[data-kind=\"purge\"]');"
                               " return c && !c.querySelector('[data-act=\"accept\"]') && c.querySelector('.ans.yes'); }")
        answers = [" ".join(t.split()) for t in card.locator(".ans").all_inner_texts()]
        assert answers == ["B accepted", "C to answer"], answers

        async def approve(c) -> None:
            await c.act({"t": "ApprovePurge", "seat": "C", "approve": True})
        as_seat(live.base, gid, tokens["C"], approve)
        for when in ("while the page watched", "reloaded"):
            page.wait_for_function("() => document.querySelector('.msg-list .proposal[data-kind=\"purge\"]')"
                                   "?.textContent.includes('The purge was made')")
            text = card.inner_text()
            assert card.locator("button").count() == 0 and "to answer" not in text and "Strength" not in text, f"{when}: {text}"
            assert card.locator(".ans.yes").count() == 2, f"{when}: {text}"
            if when == "while the page watched":
                page.reload()
                page.click('.dtabs .dtab[data-tab="talk"]')
                open_channel(page, chan["name"])
        assert not errors, errors
    finally:
        if page is not None:
            page.context.close()
        live.close()


def test_the_purge_dialog_says_why_the_whole_committee_may_not_purge(browser) -> None:
    """QA: C had purged this Game-Turn (004 [11.13]); B's Purge dialog offered "the whole
    Committee (A, B, C)" with its odds, and the declaration was refused.  The dialog now gives the
    engine's reason (the ``why_illegal`` query) and its Declare is disabled; B alone may purge."""
    g = committee_abc()
    g.state.purged_this_turn, g.state.purge_turn = ["C"], g.state.turn     # (as after C's purge this Game-Turn)
    assert not any(a.TYPE == "DeclarePurge" and len(a.purgers) > 1 for a in g.legal_actions("B"))
    with planted(browser, g, "B") as page:
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.click('.orders [data-act="purge-dialog"]')
        declare = page.locator('.modal [data-act="declare-purge"]')
        assert declare.is_enabled()                    # (B alone, the default)
        page.click('.modal [data-purgers="committee"]')
        warn = page.locator(".modal .purge-refusal .warn")
        warn.wait_for()
        assert "C already took part in a purge this Game-Turn (004 [11.13])" in warn.inner_text(), warn.inner_text()
        assert declare.is_disabled()
        page.click('.modal [data-purgers="alone"]')
        assert declare.is_enabled() and page.locator(".modal .purge-refusal .warn").count() == 0
        assert not errors, errors


def test_the_purge_and_assassins_dialogs_warn_of_a_pact(browser) -> None:
    """QA: A had a pact with B; the Purge dialog chose B as its target first, without a word of
    the pact, and the Assassins dialog struck B's Lenin without one, while the attack buttons
    warn ("breaks your pact with B").  Both dialogs warn now, and the Purge dialog chooses a
    target A has no pact with first."""
    g = pos_assassinate()                         # (A may strike B's Lenin in PETR)
    g.state.committee_consent, g.state.committee = {}, []
    markers(g, A=8, B=2, C=1)
    form(g, "A")                                  # (A alone is the Committee: he may purge B or C...)
    kept = ({"a": "A", "b": "B", "until": g.state.turn, "since": 0, "id": "A-B:1"},)
    with planted(browser, g, pacts=kept) as page:
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.click('.orders [data-act="purge-dialog"]')
        dialog = page.locator(".modal")
        chosen = dialog.locator("[data-target].on").get_attribute("data-target")
        assert chosen != "B", chosen                   # (one A has no pact with, first)
        assert dialog.locator(".pact-note").count() == 0
        dialog.locator('[data-target="B"]').click()
        assert dialog.locator(".pact-note").inner_text() == \
            f"A purge of B breaks your pact with B (until the end of Game-Turn {g.state.turn})."
        page.keyboard.press("Escape")
        page.click('.orders [data-act="assassinate"]')
        dialog.locator('select[aria-label="Victim"]').select_option(str(uid("Lenin")))
        assert dialog.locator(".pact-note").inner_text() == \
            f"Striking Lenin breaks your pact with B (until the end of Game-Turn {g.state.turn})."
        assert not errors, errors
