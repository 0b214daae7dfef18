"""Helpers for the browser tests: a real ``rcw serve`` in a subprocess, Debian's Chromium driven
by Playwright (never a downloaded browser), and a :class:`Player` that answers its page's
pending decisions *through the page* (clicking the buttons and the map the way a person does).

The page exposes a little state for tests: ``document.body?.dataset`` carries ``seq``, ``status``,
``phase``, ``seat``, ``mine`` ("1" when the game waits on this page's seat) and ``pendingKind``;
``window.rcwApp.st`` is the last state frame (view, legal actions); every order button carries
``data-act`` (the action type) and its parameters (``data-unit``, ``data-target``, ...).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest
from rcw.server.store import MemoryStore
from server_helpers import NO_LIMITS, free_port, running_server

from rcw import modes
from rcw.game import Game

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "artifacts"
CHROMIUM = os.environ.get("RCW_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


#: ``rcw serve`` flags that switch admission control off: server_helpers.NO_LIMITS as flags (0: no limit).
NO_LIMITS_ARGS = [x for k, v in NO_LIMITS.items() for x in (f"--{k.replace('_', '-')}", str(v))]
#: A bot that invites a page's player to a Central Committee goes on at once instead of waiting
#: 20 s for an answer (``rcw serve --bot-wait``; as server_helpers.running_server does): the pages
#: of these tests answer a bot's invitation or not at all.
NO_BOT_WAIT_ARGS = ["--bot-wait", "0"]


def skip_reason() -> str | None:
    """Why the browser tests cannot run here (None: they can)."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the 'playwright' Python package is not installed (pip install playwright; never 'playwright install')"
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        return f"Debian's Chromium is not at {CHROMIUM} (apt-get install -y chromium)"
    return None


@contextmanager
def chromium():
    """Debian's headless Chromium under Playwright (never a downloaded browser)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@contextmanager
def rcw_server(extra: list[str] | None = None, port: int | None = None):
    """Run ``python -m rcw.cli serve`` (the embedded store) on a free port (or ``port``: a server
    restarted where it was); yields the base URL."""
    port = port or free_port()
    cmd = [sys.executable, "-m", "rcw.cli", "serve", "--host", "127.0.0.1", "--port", str(port), "--log-level", "WARNING",
           *(extra or [])]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 30
        while time.time() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"rcw serve exited: {proc.stdout.read()}")
            try:
                with urllib.request.urlopen(base + "/healthz", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                time.sleep(0.1)
        else:
            raise RuntimeError("rcw serve did not start in 30 s")
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


def http(base: str, method: str, path: str, body: dict | None = None, token: str | None = None) -> dict:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def seed_with_politburo(total: int = 8, players: int = 5) -> int:
    """A seed whose deal gives seats A and B together at least ``total`` Politburo markers
    (so that they can form a Central Committee, 004 [11.11]), each holding some."""
    from rcw.game import Game

    for seed in range(1, 5000):
        pm = Game.new(players, seed).state.politburo
        if pm["A"] + pm["B"] >= total and pm["A"] >= 2 and pm["B"] >= 2:
            return seed
    raise RuntimeError("no seed found")


class Player:
    """One browser page holding one seat; answers the game's decisions by clicking the page."""

    def __init__(self, page, name: str, phone: bool = False) -> None:
        self.page = page
        self.name = name
        self.phone = phone
        self.errors: list[str] = []
        self.console: list[str] = []
        self.moved_turns: set[tuple[int, str]] = set()
        self.attacked_turns: set[tuple[int, str]] = set()
        self.moves = 0
        self.attacks = 0
        self.attached = 0
        self.steps = 0
        self.odds_seen: list[str] = []
        self.hooks: dict = {}
        self.requests: list[str] = []      # every URL the page asked for (HTTP and WebSocket)
        page.on("request", lambda r: self.requests.append(r.url))
        page.on("websocket", lambda ws: self.requests.append(ws.url))
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("console", lambda m: self.console.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)

    # -- reading the page ----------------------------------------------------------------------
    def body(self) -> dict:
        return self.page.evaluate("() => ({...document.body?.dataset})")

    def state(self) -> dict:
        return self.page.evaluate("() => window.rcwApp ? window.rcwApp.st : null")

    def seq(self) -> int:
        return int(self.body().get("seq", "-1") or -1)

    def mark(self) -> int:
        """Before an act: the position drawn now (:meth:`seq`), the refusal shown now noted, for
        :meth:`wait_seq_after`."""
        self.page.evaluate("() => { window.__rcwErrorBefore = window.rcwApp && window.rcwApp.lastError; }")
        return self.seq()

    def mine(self) -> bool:
        b = self.body()
        return b.get("mine") == "1" and self.page.evaluate("() => !!window.rcwApp && !window.rcwApp.busy")

    # -- tabs on a phone -----------------------------------------------------------------------
    def tab(self, name: str) -> None:
        """Show a pane: on a phone the bottom tab bar, on a desktop the side tabs (orders and map are always shown)."""
        if self.phone:
            self.page.click(f'.mnav .mtab[data-tab="{name}"]')
        elif name in ("talk", "log", "players"):
            self.page.click(f'.dtabs .dtab[data-tab="{name}"]')

    def click_order(self, selector: str, timeout: float = 10_000) -> None:
        if self.phone:
            self.tab("orders")
        self.page.locator(f".orders {selector}").first.click(timeout=timeout)

    def wait_seq_after(self, before: int, timeout: float = 15_000) -> None:
        """Wait until the page has drawn a position after ``before`` (``body.dataset.seq`` is set
        as it draws), or a refusal newer than the one it showed when the act began (an older
        one, not yet cleared, let the driver read a page still to be drawn, CI)."""
        self.page.wait_for_function(
            "([s]) => Number(document.body?.dataset.seq) > s || (window.rcwApp && window.rcwApp.lastError"
            " && window.rcwApp.lastError !== window.__rcwErrorBefore)",
            arg=[before], timeout=timeout)

    def act(self, selector: str, where: str = "orders") -> None:
        before = self.mark()
        if where == "orders":
            self.click_order(selector)
        else:
            self.page.locator(selector).first.click()
        self.wait_seq_after(before)
        self.steps += 1

    def check_only_legal(self) -> None:
        """Every action button of the Orders panel (``data-act`` naming an action type) is one
        of the legal actions the panel was built from, with the same parameters."""
        offered, legal = self.page.evaluate("""() => [
            [...document.querySelectorAll('.orders [data-act]')].filter((b) => /^[A-Z]/.test(b.dataset.act))
              .map((b) => ({...b.dataset})),
            window.rcwApp.shownLegal || []]""")

        def values(a: dict) -> set[str]:
            out = set()
            for v in a.values():
                for x in v if isinstance(v, list) else [v]:
                    out.add(("1" if x else "0") if isinstance(x, bool) else str(x))
            return out

        for b in offered:
            same = [a for a in legal if a["t"] == b["act"]]
            assert same, f"{self.name}: the page offers {b['act']}, which is not legal"
            want = {b[k] for k in ("unit", "target", "stack", "to", "offer", "leader", "rail", "subversive") if b.get(k)}
            assert any(want <= values(a) for a in same), f"{self.name}: {b} is not a legal {b['act']}"

    def on_map(self, locator) -> bool:
        """Whether the element is inside the visible part of the map."""
        box = locator.bounding_box()
        area = self.page.locator(".map").bounding_box()
        if not box or not area:
            return False
        cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        return area["x"] < cx < area["x"] + area["width"] and area["y"] < cy < area["y"] + area["height"]

    # -- the driver ----------------------------------------------------------------------------
    def play_until(self, done, seconds: float) -> None:
        """Answer the seat's decisions (its :attr:`hooks` first) until ``done()`` is true, the game
        is over, or ``seconds`` have passed."""
        deadline = time.time() + seconds
        while time.time() < deadline and not done() and self.page.evaluate("document.body?.dataset.status") != "over":
            if not self.step():
                time.sleep(0.05)

    def step(self) -> bool:
        """Answer one pending decision through the page; False if nothing was pending."""
        if not self.mine():
            return False
        st = self.state()
        b = self.body()
        kind = b.get("pendingKind", "")
        view = st["view"]
        legal = st["legal"]
        types = {a["t"] for a in legal}
        turn = view["turn"]
        self.check_only_legal()
        hook = self.hooks.get(kind)
        if hook and hook(self, st):
            return True
        if kind == "trading":
            self.act('[data-act="EndTrading"]')
        elif kind == "random_events":
            self.act('[data-act="RollRandomEvents"]')
        elif kind == "movement":
            key = (turn, "move")
            starts = [a for a in legal if a["t"] == "StartForce"]
            if key not in self.moved_turns and starts:
                self.moved_turns.add(key)
                unit = self._best_force(st, starts)
                self.act(f'[data-act="StartForce"][data-unit="{unit}"]')
            else:
                self.act('[data-act="EndMovement"]')
        elif kind == "force":
            force = view["force"]
            path = force[4]
            moves = [a for a in legal if a["t"] == "Move"]
            attach = [a for a in legal if a["t"] == "Attach"]
            if not path and attach and (turn, "attach") not in self.moved_turns:
                # pick a leader, then attach a unit to him before choosing where to go
                self.moved_turns.add((turn, "attach"))
                u = attach[0]["unit"]
                self.act(f'[data-act="Attach"][data-unit="{u}"]')
                self.page.locator(f'.orders .force-units li[data-unit="{u}"]').wait_for(state="attached")
                self.attached += 1
            elif not path and moves:
                dest = self._best_destination(st, moves)
                if self.phone:
                    self.tab("map")
                before = self.mark()
                ring = self.page.locator(f'svg.board g.move-target[data-province="{dest["to"]}"]').first
                if not self.on_map(ring):       # pan to it, as a player would (a rail move can go far)
                    self.page.evaluate(f"window.rcwApp.board.centreOn({dest['to']!r}, true)")
                ring.click()
                if self.page.locator(".modal .btn[data-act='Move']").count():
                    self.page.locator(".modal .btn[data-act='Move'][data-rail='0']").click()
                self.wait_seq_after(before)
                self.moves += 1
                self.steps += 1
            else:
                self.act('[data-act="EndForce"]')
        elif kind == "combat":
            key = (turn, "attack")
            decl = [a for a in legal if a["t"] == "DeclareAttack" and not a["subversive"]]
            target = self._best_target(st, decl) if key not in self.attacked_turns else None
            if target is not None:
                self.attacked_turns.add(key)
                self.act(f'[data-act="DeclareAttack"][data-target="{target}"][data-subversive="0"]')
            else:
                self.act('[data-act="EndCombat"]')
        elif kind == "attack":
            if "AddAttacker" in types and not view["attack"][2]:
                add = next(a for a in legal if a["t"] == "AddAttacker")
                self.act(f'input[data-act="AddAttacker"][data-stack="{add["stack"]}"]')
            elif "ResolveAttack" in types:
                # the odds are on the screen before the attack is committed
                if self.phone:
                    self.tab("orders")
                odds = self.page.locator(".orders .card.phase .odds").first
                assert odds.is_visible(), "no odds shown before resolving"
                # (the box and the button read from one drawing of the panel)
                column, button = self.page.evaluate("""() => [document.querySelector('.orders .card.phase .odds').dataset.odds,
                    document.querySelector('.orders [data-act="ResolveAttack"]').innerText]""")
                assert column and column in button, (column, button)
                assert re.search(r"\d+ : \d+", odds.inner_text())
                self.odds_seen.append(odds.inner_text().split("\n")[0])
                self.act('[data-act="ResolveAttack"]')
                self.attacks += 1
            elif "AddAttacker" in types:
                add = next(a for a in legal if a["t"] == "AddAttacker")
                self.act(f'input[data-act="AddAttacker"][data-stack="{add["stack"]}"]')
            else:
                self.act('[data-act="CancelAttack"]')
        elif kind == "randomizer":
            self.act('[data-act="DrawRandomizer"]' if "DrawRandomizer" in types else '[data-act="EndPlayerTurn"]')
        elif kind == "loss":            # the suggested least loss, confirmed
            before = self.mark()
            self.click_order('[data-act="suggested-loss"]')
            self.page.locator('.modal [data-act="confirm-loss"]').click()
            self.wait_seq_after(before)
        elif kind == "capture":
            self.act('[data-act="CaptureImperial"]' if "CaptureImperial" in types else '[data-act="DeclineCapture"]')
        elif kind == "vote":
            self.act('[data-act="VoteEndGame"]')
        elif kind == "redraw":
            self.act('[data-act="RedrawChit"].primary')
        elif kind == "purge_approval":
            self.act('[data-act="ApprovePurge"]')
        elif kind == "purge_orders":
            self.act('[data-act="PassPurge"]')
        elif kind == "spoils":
            self.act('[data-act="TakeSpoil"]' if "TakeSpoil" in types else '[data-act="EndSpoils"]')
        elif kind == "counterpurge":
            self.act('[data-act="Counterpurge"][data-target=""]')
        elif kind in ("execution_consent", "execution"):
            self.act(".card.decision .btn")
        else:
            raise AssertionError(f"{self.name}: no driver for pending kind {kind!r}: {sorted(types)}")
        return True

    # -- choosing like a (simple) player -------------------------------------------------------
    def _data(self) -> dict:
        if not hasattr(self, "_dj"):
            self._dj = self.page.evaluate("() => fetch('data.json').then(r => r.json())")
        return self._dj

    def _ask(self, q: str, **args) -> dict | None:
        """The engine's answer to a ``query`` frame, asked through the page (None if refused)."""
        return self.page.evaluate("([q, a]) => window.rcwApp.ask(q, a).catch(() => null)", [q, args])

    def _can_attack(self, stacks: list[int], target: int) -> int | None:
        """The odds column of ``stacks`` attacking ``target`` (the engine's), None below 1:2."""
        ans = self._ask("odds", stacks=stacks, target=target)
        return ans["column"] if ans else None

    def _best_force(self, st: dict, starts: list[dict]) -> int:
        """A leader whose stack stands next to an enemy stack it could attack at 1:2 or better
        (the engine's odds, ``Game.hostile``); else the first force."""
        d = self._data()
        view = st["view"]
        for a in starts:
            stack = next((s for s in view["stacks"] if a["unit"] in s["units"]), None)
            if stack is None or d["units"][str(a["unit"])]["kind"] != "leader":
                continue
            for n in d["provinces"][stack["province"]]["adjacent"]:
                for t in view["stacks"]:
                    if t["province"] == n and Game.hostile(stack["color"], t["color"]) \
                            and self._can_attack([stack["id"]], t["id"]) is not None:
                        return a["unit"]
        return starts[0]["unit"]

    def _best_destination(self, st: dict, moves: list[dict]) -> dict:
        """An overland move into a province with an enemy stack the force could attack at 1:2
        or better (the engine's odds); else the first overland move."""
        view = st["view"]
        fs = next(s for s in view["stacks"] if s["id"] == view["force"][0])
        land = [m for m in moves if not m["rail"]] or moves
        for m in land:
            for t in view["stacks"]:
                if t["province"] == m["to"] and Game.hostile(fs["color"], t["color"]) \
                        and self._can_attack([fs["id"]], t["id"]) is not None:
                    return m
        return land[0]

    def _best_target(self, st: dict, decl: list[dict]) -> int | None:
        """The declarable attack with the best odds at 1:2 or better (the engine's
        ``attack_options``: the groups of stacks that may attack together, with their odds)."""
        targets = {a["target"] for a in decl}
        best = None
        for o in st["facts"].get("attack_options") or []:
            if o["target"] not in targets or o["subversive"]:
                continue
            for grp in o["groups"]:
                col = grp["odds"]["column"]
                if col is not None and (best is None or col > best[0]):
                    best = (col, o["target"])
        return best[1] if best else None


def open_channel(page, name: str) -> None:
    """Show a chat channel (its tab must be on screen) and wait until it is the current one."""
    page.click(f'.chan-tab[data-channel="{name}"]')
    page.locator(f'.chan-tab[data-channel="{name}"].on').wait_for()


#: A test at 1280x800 and on a 390x844 touch phone (its ``phone`` argument).
BOTH = pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])


def new_page(browser, phone: bool = False, timeout: float = 30_000):
    """A page in a context of its own: a 1280x800 desktop, or a 390x844 touch phone (close it
    with ``page.context.close()``)."""
    ctx = browser.new_context(**PHONE) if phone else browser.new_context(viewport=DESKTOP)
    ctx.set_default_timeout(timeout)
    return ctx.new_page()


def seen(phone: bool) -> str:
    """The viewport's name, for screenshots."""
    return "phone" if phone else "desktop"


# Every toast a page shows, kept in ``window.__toasts`` as {cls, result, text}: a toast goes after
# a few seconds, and a loaded machine may look later than that.
_KEEP_TOASTS = """(() => { if (window.__toasts) return; window.__toasts = [];
  new MutationObserver((ms) => { for (const m of ms) for (const n of m.addedNodes)
    if (n.classList && n.classList.contains("toast"))
      window.__toasts.push({ cls: n.className, result: n.dataset.result || "", text: n.textContent }); })
    .observe(document, { childList: true, subtree: true }); })()"""


def keep_toasts(page) -> None:
    """Keep every toast ``page`` shows from now on, in this document and in those it loads later."""
    page.add_init_script(_KEEP_TOASTS)
    page.evaluate(_KEEP_TOASTS)


def toast_text(page, cls: str = "", result: str = "") -> str:
    """The text of the first toast kept (:func:`keep_toasts`) whose class names include ``cls``
    and whose result kind is ``result`` (either left empty: any), once one has been shown."""
    find = "(t) => (!c || t.cls.split(' ').includes(c)) && (!r || t.result === r)"
    page.wait_for_function(f"([c, r]) => (window.__toasts || []).some({find})", arg=[cls, result])
    return page.evaluate(f"([c, r]) => window.__toasts.find({find}).text", [cls, result])


def on_top(page, sel: str) -> tuple[float, float] | None:
    """The middle of the first ``sel`` when it is on top there (nothing covers it), else None."""
    b = page.locator(sel).first.bounding_box()
    if not b:
        return None
    x, y = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
    hit = page.evaluate("([x, y, sel]) => { const e = document.elementFromPoint(x, y); return !!(e && e.closest(sel)); }",
                        [x, y, sel])
    return (x, y) if hit else None


def finished_game(base: str, turns: int = 1, name: str | None = None) -> dict:
    """A three-player game of random bots played to its end (``max_turns`` ``turns``), returned
    once the server says it is over: the server's answer to its creation (``game``,
    ``admin_token``, ``info``).  (A page opened sooner would open a game still being played:
    on a phone, on the map, not on the result.)"""
    spec = {"players": 3, "bots": "random", "options": {"max_turns": turns}} | ({"name": name} if name else {})
    g = http(base, "POST", "/api/games", spec)
    http(base, "POST", f"/api/games/{g['game']}/bots", {}, g["admin_token"])
    deadline = time.time() + 120
    while http(base, "GET", f"/api/games/{g['game']}")["status"] != "over":
        assert time.time() < deadline, "the bots did not finish the game in 2 minutes"
        time.sleep(0.25)
    return g


def open_replay(page) -> None:
    """A finished game's replay, from the page's menu (a modal over it, the final scores, closed first)."""
    if page.locator(".modal").count():
        page.keyboard.press("Escape")
    page.click(".menu-btn")
    page.click('.modal [data-act="replay"]')
    page.locator(".replay-slider").wait_for()


def shot(page, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / name
    page.screenshot(path=str(path))
    return path



# -- the fixtures every browser test module shares (imported by name into each module) -------------
@pytest.fixture(scope="module")
def server():
    """A real ``rcw serve`` (embedded store) for the module's tests, without admission control
    (every page comes from 127.0.0.1 and a module creates many games; the limits have their
    own tests in tests/test_server_admission.py)."""
    with rcw_server([*NO_LIMITS_ARGS, *NO_BOT_WAIT_ARGS]) as base:
        yield base


@pytest.fixture(scope="module")
def browser():
    """Debian's headless Chromium for the module's tests."""
    with chromium() as b:
        yield b


def open_seat(page, server: str, gid: str, token: str, seat: str = "A", name: str = "Anna") -> None:
    """Open game ``gid`` in ``page`` as ``seat`` (its token in localStorage, as the lobby leaves it)."""
    page.goto(server + "/")
    page.evaluate("([gid, seat, token, name]) => localStorage.setItem('rcw:seats:' + gid, JSON.stringify({[seat]: {token, name, joined: 1}}))",
                  [gid, seat, token, name])
    page.goto(f"{server}/#/g/{gid}/{seat}")
    page.wait_for_function(f"() => document.body?.dataset.seat === {seat!r}")


# The page plays one step of the seat, to move the game on: the step that ends the phase, the
# force or the attack if there is one (a first listed step may be an attack that can only be
# called off, declared again and again), else the first listed one; never Quit.
PLAY_ON = ("() => { const l = rcwApp.st.legal; const a = l.find((x) => /^End/.test(x.t)) || l.find((x) => x.t !== 'Quit'); "
           "return a && !rcwApp.busy && rcwApp.act(a); }")


def as_seat(base: str, gid: str, token: str, act, timeout: float = 60) -> None:
    """``await act(client)`` over a seat's own WebSocket (rcw.server.client; another tab, as it
    were), from a thread of its own (Playwright's sync API keeps an event loop in this one); what
    it raises is raised here."""
    from rcw.server.client import GameClient

    async def run() -> None:
        c = await GameClient.connect(base, gid, token)
        try:
            await act(c)
        finally:
            await c.close()

    failed: list[BaseException] = []

    def target() -> None:
        try:
            asyncio.run(asyncio.wait_for(run(), timeout))
        except BaseException as e:  # noqa: BLE001 (reported in the test's thread)
            failed.append(e)
    t = threading.Thread(target=target, daemon=True)     # (never keeps pytest from ending)
    t.start()
    t.join(timeout + 5)
    assert not t.is_alive(), f"the seat's client took more than {timeout} s"
    if failed:
        raise failed[0]


# -- a real server in this process, to plant positions in -------------------------------------------
NAMES = {"A": "Anna", "B": "Boris", "C": "Clara", "D": "Dmitri", "E": "Elena"}


class Live:
    """The real aiohttp application (server_helpers.running_server, a MemoryStore) on its own
    thread and event loop (Playwright's sync API keeps one in this thread)."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self._cm = running_server(MemoryStore())
        self.running = self.run(self._cm.__aenter__())
        self.base = self.running.base

    def run(self, coro, timeout: float = 30):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def close(self) -> None:
        try:
            self.run(self._cm.__aexit__(None, None, None))
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(10)

    def plant(self, g: Game, pacts: tuple[dict, ...] = ()) -> tuple[str, dict[str, str]]:
        """A new game of the server whose position is ``g``, every seat taken by a person, the
        store keeping ``pacts`` (records as made in chat: ``{a, b, until, since, id}``):
        (game id, seat -> token)."""
        gid = http(self.base, "POST", "/api/games", {"players": len(g.state.seats), "seed": 1})["game"]
        self.run(self._plant(gid, g.to_bytes(), pacts))
        return gid, {s: http(self.base, "POST", f"/api/games/{gid}/join", {"seat": s, "name": NAMES[s]})["token"]
                     for s in g.state.seats}

    async def _plant(self, gid: str, data: bytes, pacts: tuple[dict, ...]) -> None:
        # the replica dropped, the position stored as the snapshot at seq 0 (no action logged
        # yet), the game loaded again from the store: GameRuntime.load rebuilds it from that snapshot
        hub = self.running.hub
        old = hub.runtimes.pop(gid)
        await old.shutdown()
        await hub.store.save_snapshot(gid, 0, data)
        for rec in pacts:
            await hub.store.add_pact(gid, rec["id"], rec)
        await hub.claim(await hub.get(gid))

    def game(self, gid: str) -> tuple[int, Game]:
        """The server's game now: (seq, a copy of its replica)."""
        async def read():
            rt = await self.running.hub.get(gid)
            async with rt.lock:
                return rt.seq, modes.from_bytes(rt.game.to_bytes())
        return self.run(read())
