"""Postal games on the server (004 [17.0], issue 16): sheets over the WebSocket, who has
submitted (never what), a phase closed when every seat has sent a sheet or at its deadline (the
missing seats given their bot's sheet or none), reports pushed and kept in an archive; the
deadlines as absolute times in the store, pauses that move them for everyone, civil disorder
after missed deadlines and the player's return; and every bad request a typed error that
changes nothing."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time

import pytest
from rcw.server.client import GameClient, Lobby, ServerError
from rcw.server.config import Config
from server_helpers import STORES, kind_store, play_randomly, running_server

from rcw.data import default


@contextlib.asynccontextmanager
async def serve(kind: str = "memory", **config):
    clients: list[GameClient] = []
    async with kind_store(kind, "postal") as store, running_server(store, Config(**config)) as srv, \
            Lobby(srv.base) as lobby:
        async def connect(gid: str, token: str | None = None) -> GameClient:
            c = await GameClient.connect(srv.base, gid, token)
            clients.append(c)
            return c
        srv.lobby, srv.connect = lobby, connect
        try:
            yield srv
        finally:
            for c in clients:
                await c.close()


async def postal_game(srv, humans: int = 2, **spec) -> tuple[dict, list[GameClient]]:
    """A five-seat postal game: ``humans`` joined seats (A, B...), bots in the others."""
    bots = [s for s in "ABCDE"[humans:]]
    g = await srv.lobby.create_game(mode="postal", players=5, bot_seats=bots, seed=spec.pop("seed", 3), **spec)
    cs = []
    for i in range(humans):
        j = await srv.lobby.join(g["game"], name=f"player{i}")
        cs.append(await srv.connect(g["game"], j["token"]))
        cs[-1].token = j["token"]
    return g, cs


def phase(c: GameClient) -> tuple[int, str]:
    return c.view["turn"], c.view["postal"]["phase"]


@pytest.mark.parametrize("kind", STORES)
async def test_sheets_who_submitted_and_the_report_when_every_seat_has_sent_one(kind):
    """004 [17.0]: each seat sends a sheet; the others see that it did, never what; the phase is
    adjudicated when the last sheet arrives; the report is pushed to every seat and kept."""
    async with serve(kind) as srv:
        g, (a, b) = await postal_game(srv)
        await a.wait_for(lambda c: set("CDE") <= set(c.view["postal"]["submitted"]), 10)   # the bots' sheets
        assert phase(a) == (1, "trading") and a.deadlines == {}                           # (no deadline set)
        trade = {"order": "accept_gifts", "from": ["C"]}
        r = await a.sheet([trade])
        assert r["sheet"] == [[0, trade]] and r["rejected"] == []
        await b.wait_for(lambda c: "A" in c.view["postal"]["submitted"], 10)
        assert not b.view["postal"].get("sheet") and "'from': ['C']" not in str(b.view)   # that A sent one, not what
        r = await a.sheet([])                                                            # replaced until it closes
        assert r["sheet"] == [] and phase(a) == (1, "trading")
        last = await b.sheet([])              # the last sheet: its reply is of the phase it closed (QA: its
        assert last["submitted"] == list("ABCDE"), last        # 'submitted' was the next phase's, bots' only)
        await a.wait_for(lambda c: phase(c) == (1, "first"), 10)
        got = [e for e in a.events if e.get("kind") == "report"]
        assert len(got) == 1 and got[0]["data"]["phase"] == "trading"
        await b.wait_for(lambda c: any(e.get("kind") == "report" for e in c.events), 10)
        reports = await b.reports()
        assert [(r["turn"], r["phase"]) for r in reports] == [(1, "trading")]
        assert reports[0]["text"].startswith("REPORT OF GAME-TURN 1") and reports[0]["by"] == "player"
        assert (await b.reports(after=1)) == []


@pytest.mark.parametrize("missing", ["bot", "none"])
async def test_the_deadline_closes_the_phase_with_the_bots_sheet_or_none(missing):
    """A seat without a sheet at the deadline gets its bot's sheet (``missing: bot``) or no
    orders (``missing: none``); the phase is closed by the Gamesmaster, ``by: deadline``."""
    async with serve() as srv:
        g, (a, b) = await postal_game(srv, deadline=2.0, missing=missing, seed=5)
        key = "phase:1:trading"
        await a.wait_for(lambda c: key in c.deadlines, 5)
        assert time.time() * 1000 < a.deadlines[key] <= time.time() * 1000 + 2000
        a.keep_pushes = True
        due = a.deadlines[key]
        await a.sheet([])                       # A sends, B lets the deadline pass
        await a.wait_for(lambda c: phase(c) != (1, "trading"), 10)
        assert due - 50 <= time.time() * 1000 < due + 3000       # closed at the deadline, not before
        closing = [p for p in a.pushes if p["t"] == "update" and p.get("action") == "ClosePhase"]
        assert len(closing) == 1 and closing[0]["by"] == "deadline" and closing[0]["actor"] == "GM"
        rec = await srv.lobby.record(g["game"], g["admin_token"])
        close = next(x for x in rec["actions"] if x["t"] == "ClosePhase")
        assert ("B" in close["sheets"]) == (missing == "bot") and "A" not in close["sheets"]
        await a.wait_for(lambda c: c.seats["B"].get("missed") == 1, 5)    # B missed one deadline
        assert "missed" not in a.seats["A"]
        # the next phase has its own deadline, seen by both
        await b.wait_for(lambda c: any(k.startswith("phase:1:first") for k in c.deadlines), 5)


async def test_bad_sheets_get_typed_errors_and_change_nothing():
    async with serve() as srv:
        g, (a, b) = await postal_game(srv, deadline=30)
        await a.wait_for(lambda c: set("CDE") <= set(c.view["postal"]["submitted"]) and c.deadlines, 10)
        before = (a.seq, dict(a.deadlines))

        async def refused(code: str, engine: str | None = None, **frame) -> None:
            with pytest.raises(ServerError) as e:
                await a.request("sheet", **frame)
            assert e.value.code == code, e.value
            if engine:
                assert e.value.engine_code == engine, e.value.frame

        await refused("bad_request", sheet="not a sheet", turn=1, phase="trading")           # not a map
        await refused("bad_request", sheet={"orders": []}, phase="trading")                    # no turn
        await refused("illegal_action", "bad_request", sheet={"orders": "all out"}, turn=1, phase="trading")
        await refused("not_your_seat", sheet={"orders": []}, turn=1, phase="trading", seat="B")
        await refused("illegal_action", "wrong_phase", sheet={"orders": []}, turn=1, phase="first")   # not open
        await refused("illegal_action", "wrong_phase", sheet={"orders": []}, turn=2, phase="trading")
        with pytest.raises(ServerError) as e:
            await a.act({"t": "SubmitOrders", "seat": "B", "turn": 1, "phase": "trading", "sheet": {"orders": []}})
        assert e.value.code == "not_your_seat"
        spec = await srv.connect(g["game"])
        with pytest.raises(ServerError) as e:
            await spec.sheet([], 1, "trading")
        assert e.value.code == "not_your_seat"
        v = await a.request("view")
        assert (v["seq"], v["deadlines"]) == before and "A" not in v["view"]["postal"]["submitted"]
        # a live game takes no sheets
        live = await srv.lobby.create_game(players=3)
        j = await srv.lobby.join(live["game"])
        c = await srv.connect(live["game"], j["token"])
        for t in ("sheet", "reports"):
            with pytest.raises(ServerError) as e:
                await c.request(t, sheet={}, turn=1, phase="first")
            assert e.value.code == "not_postal"


async def test_the_check_query_offers_a_plotted_move_what_the_engine_lets_it_take_along():
    """A draft judged over the socket (``query check``): a kept move's verdict carries the
    engine's offers (``Game.check_sheet(offers=True)``): who may join it, what it may drop and
    pick up on its path, where it may go on to; the page's move plotter shows these."""
    async with serve() as srv:
        g, (a, b) = await postal_game(srv)
        await a.wait_for(lambda c: set("CDE") <= set(c.view["postal"]["submitted"]), 10)
        await a.sheet([])
        await b.sheet([])
        await a.wait_for(lambda c: phase(c) == (1, "first"), 10)
        leader = default().units
        mine = [st for st in a.view["stacks"] if st["owner"] == "A"]
        st, lead = next((st, u) for st in mine for u in st["units"] if leader[u].is_leader)
        draft = {"orders": [{"order": "move", "unit": lead, "path": []}]}
        (plain,) = (await a.query("check", sheet=draft))["orders"]
        assert plain["ok"] and "offers" not in plain                 # (asked for by the order's index only)
        (vd,) = (await a.query("check", sheet=draft, offers=0))["orders"]
        assert vd["ok"] and set(vd["offers"]) == {"join", "drop", "pick", "reach", "rail"}
        assert vd["offers"]["reach"] == await a.query("reach", unit=lead)      # (alone: the leader and his units)
        assert {j["leader"] for j in vd["offers"]["join"]} <= {u for s in mine if s["province"] == st["province"] for u in s["units"]}
        assert set(vd["offers"]["drop"]) == {st["province"]}
        (bad,) = (await a.query("check", sheet={"orders": [{"order": "move", "unit": 99999, "path": []}]}, offers=0))["orders"]
        assert not bad["ok"] and "offers" not in bad


async def test_a_sheet_after_the_deadline_is_refused():
    """Once the deadline has closed the phase, a sheet for it is late (004 [17.0] Procedure)."""
    async with serve() as srv:
        g, (a, b) = await postal_game(srv, deadline=1.5)
        await a.wait_for(lambda c: phase(c) == (1, "first"), 10)
        with pytest.raises(ServerError) as e:
            await a.sheet([], 1, "trading")
        assert e.value.code == "illegal_action" and e.value.engine_code == "wrong_phase"
        v = (await a.request("view"))["view"]
        assert (v["turn"], v["postal"]["phase"]) == (1, "first") and "A" not in v["postal"]["submitted"]


@pytest.mark.parametrize("kind", STORES)
async def test_a_pause_moves_the_deadline_for_everyone_within_the_allowance(kind):
    async with serve(kind) as srv:
        g, (a, b) = await postal_game(srv, deadline="20s", pause="30s")
        key = "phase:1:trading"
        await b.wait_for(lambda c: key in c.deadlines, 5)
        first = a.deadlines[key]
        assert time.time() * 1000 < first <= time.time() * 1000 + 20_000
        b.keep_pushes = True
        r = await a.pause(25)
        assert r["deadlines"][key] == first + 25_000 and r["left"] == 5
        await b.wait_for(lambda c: c.deadlines.get(key) == first + 25_000, 5)
        told = [p for p in b.pushes if p["t"] == "deadline" and p.get("why")]
        assert told[-1]["why"] == {"seat": "A", "seconds": 25}
        for seconds, code in ((6, "pause_refused"), (0, "bad_request"), ("1h", "bad_request")):
            with pytest.raises(ServerError) as e:
                await a.pause(seconds)
            assert e.value.code == code
            if code == "pause_refused":      # (to the seat itself, in words: it said "seat A may pause 5 more seconds")
                assert "you may pause 5 s more in this game (the creator allows 30 s in all)" in str(e.value), str(e.value)
        assert (await a.request("view"))["deadlines"][key] == first + 25_000     # nothing changed
        assert (await b.pause(30))["deadlines"][key] == first + 55_000         # B's own allowance


@pytest.mark.parametrize("kind", STORES)
async def test_a_pause_asked_before_the_first_deadline_is_set_waits_for_it(kind, monkeypatch):
    """A live game's only human asks for a pause while the server has not yet set the deadline
    of their first decision (its driver held up here until the test lets it go): the pause
    waits for the deadline and moves it (before, it was refused as "no deadline is running");
    a pause in a game whose creator allows none is refused at once."""
    from rcw.server.driver import Driver

    arm, go, held = Driver._arm_deadlines, asyncio.Event(), []

    async def slow(self):             # (the real one, once the test lets it go: a driver that is late)
        if go.is_set():
            return await arm(self)
        if not held:
            async def later():
                await go.wait()
                async with self.rt.lock:
                    await arm(self)
            held.append(asyncio.ensure_future(later()))
    monkeypatch.setattr(Driver, "_arm_deadlines", slow)
    async with serve(kind) as srv:
        g = await srv.lobby.create_game(players=3, bot_seats=["B", "C"], deadline="1h", pause="1h", seed=0)
        j = await srv.lobby.join(g["game"])
        a = await srv.connect(g["game"], j["token"])
        assert "seat:A" not in a.deadlines and a.view["pending"]          # (A owes a decision, not timed yet)
        asked = asyncio.ensure_future(a.pause(60))
        await asyncio.sleep(0.3)
        assert not asked.done()                   # (it waits for the deadline)
        go.set()
        r = await asyncio.wait_for(asked, 5)
        assert r["deadlines"]["seat:A"] > time.time() * 1000 + 3600_000 and r["left"] == 3600 - 60, r
        await a.wait_for(lambda c: c.deadlines.get("seat:A") == r["deadlines"]["seat:A"], 5)
        g2 = await srv.lobby.create_game(players=3, bot_seats=["B", "C"], deadline="1h", seed=0)
        j2 = await srv.lobby.join(g2["game"])
        a2 = await srv.connect(g2["game"], j2["token"])
        t0 = time.monotonic()
        with pytest.raises(ServerError) as e:
            await a2.pause(60)
        assert e.value.code == "pause_refused" and "allows no pauses" in str(e.value) and time.monotonic() - t0 < 1


async def test_civil_disorder_after_missed_deadlines_and_the_players_return():
    """After ``disorder_after`` deadlines missed in a row the seat's bot plays it; the player takes
    it back with the seat token.  While every player is away the phases close at their deadlines
    (QA: such a game played itself to its end in minutes); while another player is there the
    seat's bot sends its sheets at once and no deadline waits for it."""
    async with serve() as srv:
        g, (a, b) = await postal_game(srv, deadline=1.5, disorder_after=2, seed=11)
        await a.wait_for(lambda c: c.seats["A"].get("disorder") and c.seats["B"].get("disorder"), 20)
        # every player away: the phase closes at its deadline (the bots' sheets in the closing action)
        a.keep_pushes = True
        await a.wait_for(lambda c: any(p["t"] == "update" and p["action"] == "ClosePhase" for p in c.pushes), 10)
        assert not any(p["t"] == "update" and p["action"] == "SubmitOrders" and p["actor"] in "AB"
                       for p in a.pushes), [p["actor"] for p in a.pushes if p["t"] == "update"]
        assert a.seats["A"].get("disorder") and a.seats["B"].get("disorder")
        with pytest.raises(ServerError) as e:
            await srv.lobby.reclaim(g["game"], "not-a-token")
        assert e.value.code == "bad_token"
        with pytest.raises(ServerError) as e:            # (no token at all: the request is told what it lacks)
            await srv.lobby.reclaim(g["game"], None)
        assert e.value.code == "bad_request" and "token missing" in e.value.message
        r = await srv.lobby.reclaim(g["game"], b.token)
        assert r == {"game": g["game"], "seat": "B", "disorder": False, "was": True}     # (the HTTP answer, no frame type)
        await a.wait_for(lambda c: not c.seats["B"].get("disorder"), 5)
        assert "missed" not in a.seats["B"] and a.seats["A"].get("disorder")
        # B is back: A's bot sends A's sheet at once; the phase waits for B's alone
        since = len(a.pushes)
        await a.wait_for(lambda c: any(p["t"] == "update" and p["action"] == "SubmitOrders" and p["actor"] == "A"
                                       and p["by"] == "bot" for p in c.pushes[since:]), 10)
        r = await a.reclaim()                  # the WebSocket way
        assert r["was"] is True
        await b.wait_for(lambda c: not c.seats["A"].get("disorder") and any(k.startswith("phase:") for k in c.deadlines), 10)


async def test_a_seat_in_civil_disorder_keeps_its_bots_sheets_when_missing_sheets_give_no_orders():
    """``missing: "none"`` gives no orders to a player who lets a deadline pass; a seat in civil
    disorder is its bot's, and while every player is away its bot's sheet goes into the phase
    that closes at the deadline (it sent one at once before; a review found none sent)."""
    async with serve() as srv:
        g, (a,) = await postal_game(srv, humans=1, deadline=1.0, disorder_after=1, seed=11, missing="none")
        await a.wait_for(lambda c: c.seats["A"].get("disorder"), 20)
        since = await srv.hub.store.log_len(g["game"])
        a.keep_pushes = True
        await a.wait_for(lambda c: any(p["t"] == "update" and p["action"] == "ClosePhase" for p in c.pushes), 15)
        closes = [e["a"] for e in await srv.hub.store.log_range(g["game"], since) if e["a"]["t"] == "ClosePhase"]
        assert closes and "A" in (closes[0].get("sheets") or {}), closes


async def test_civil_disorder_in_a_live_game():
    """A live seat in civil disorder is played by its bot at once while another player is there;
    when every player is away, each seat in disorder is decided at its deadline instead (QA: a
    game whose players were all away played itself to its end in minutes)."""
    async with serve() as srv:
        g = await srv.lobby.create_game(players=3, bot_seats=["C"], deadline=1.0, disorder_after=1,
                                        options={"max_turns": 3}, seed=0)
        ja = await srv.lobby.join(g["game"])
        jb = await srv.lobby.join(g["game"])
        b = await srv.connect(g["game"], jb["token"])
        spec = await srv.connect(g["game"])
        spec.keep_pushes = True

        def steps(since: int, seats: str, by: str) -> list[dict]:
            return [p for p in spec.pushes[since:] if p["t"] == "update" and p["actor"] in seats and p["by"] == by]
        # B plays (at once, never late); A lets a deadline pass and falls into civil disorder
        playing = asyncio.ensure_future(play_randomly(b, random.Random(2), timeout=120))
        await spec.wait_for(lambda c: c.seats["A"].get("disorder"), 20)
        since = len(spec.pushes)
        await spec.wait_for(lambda c: len(steps(since, "A", "bot")) >= 2, 30)    # A's bot plays on, at once
        assert not steps(since, "A", "deadline")
        # B stops playing: at its next deadline it falls into civil disorder too, and every player is away
        playing.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await playing
        await spec.wait_for(lambda c: c.seats["B"].get("disorder"), 30)
        since, t0 = len(spec.pushes), time.monotonic()
        await spec.wait_for(lambda c: len(steps(since, "AB", "deadline")) >= 3, 30)
        elapsed = time.monotonic() - t0
        assert not steps(since, "AB", "bot") and spec.status == "playing"
        # (a seat in disorder decides at each deadline, its bot's side steps with it: a few steps a second at most)
        assert len(steps(since, "AB", "deadline")) <= 4 * (elapsed / 1.0 + 1), (len(steps(since, "AB", "deadline")), elapsed)
        r = await srv.lobby.reclaim(g["game"], ja["token"])
        assert r["seat"] == "A" and r["was"] is True
        await spec.wait_for(lambda c: not c.seats["A"].get("disorder"), 5)


async def test_while_you_were_away():
    """A seat that comes back is told in a few lines what happened since its last look."""
    async with serve() as srv:
        g, (a, b) = await postal_game(srv, deadline=2.0, pause=3600)
        await b.close()
        await a.wait_for(lambda c: phase(c) == (1, "second"), 20)
        await a.pause(600)           # (the Second Phase held open: its report would push the First's out of the digest)
        back = await srv.connect(g["game"], b.token)
        assert back.away is not None and back.away["since"] < back.seq
        assert "Report of Game-Turn 1, the First Phase (movement): in the archive" in back.away["lines"], back.away
        assert back.away["lines"][0].endswith("by others)")
        seen = a.seq                            # A's client reports its last look: a new device starts there
        await a.request("seen", seq=seen)
        assert (await srv.hub.store.hash_all(g["game"], "seen"))["A"] == seen
        with pytest.raises(ServerError) as e:     # a look beyond the game is refused, the last one kept
            await a.request("seen", seq=a.seq + 5)
        assert e.value.code == "bad_request" and "'seq'" in str(e.value)
        assert (await srv.hub.store.hash_all(g["game"], "seen"))["A"] == seen
        again = await srv.connect(g["game"], a.token)
        assert again.away is None or again.away["since"] == seen


async def test_a_seat_that_quit_is_not_told_while_you_were_away():
    """QA: a player who had left the game, looking on with his old link, got "While you were
    away", the summary for a player in it.  A seat that has quit (004 [14.2]) is away from nothing."""
    async with serve() as srv:
        g, (a, b) = await postal_game(srv, deadline=0.5)
        await a.wait_for(lambda c: bool(c.legal), 10)
        await a.act({"t": "Quit", "seat": "A"})
        await a.wait_for(lambda c: "A" in c.view["quit"], 5)
        left = a.seq
        await a.close()                                  # (its last look is kept as it closes)
        await b.act({"t": "SubmitOrders", "seat": "B", "turn": 1, "phase": phase(b)[1], "sheet": {"orders": []}})
        await b.wait_for(lambda c: c.seq > left + 1, 20)     # (the bots' sheets and the adjudication)
        back = await srv.connect(g["game"], a.token)
        assert back.seat == "A" and "A" in back.view["quit"] and back.seq > 0
        assert back.away is None, back.away


def test_while_you_were_away_says_when_it_leaves_earlier_events_out():
    """Found in a QA game: the digest showed only its latest lines, the first of them an epidemic's
    loss in the middle of a report, with no word that earlier ones were left out."""
    from rcw.server.absence import NOTABLE, digest_lines

    kind = next(iter(NOTABLE))
    entries = [{"a": {"seat": "B"}, "ev": [{"kind": kind, "text": f"event {i}"}]} for i in range(12)]
    entries.append({"a": {"seat": "GM"}, "ev": [{"kind": "report", "text": "Report of Game-Turn 1, the Second Phase (combat)"}]})
    lines = digest_lines(entries, "A", limit=8)
    assert len(lines) == 8 and lines[0] == "13 actions since you looked (13 by others)"
    assert lines[1] == "… 7 earlier events: see the log"          # (13 notable: 6 shown after it)
    assert lines[2:] == [f"event {i}" for i in range(7, 12)] + ["Report of Game-Turn 1, the Second Phase (combat): in the archive"]
    few = digest_lines(entries[:3], "A", limit=8)
    assert few == ["3 actions since you looked (3 by others)", "event 0", "event 1", "event 2"]
    assert digest_lines([{"a": {"seat": "A"}, "ev": []}], "A") is None


async def test_an_absent_players_bot_sheet_makes_no_trade_for_him():
    """QA: at the deadline an absent player's bot sheet gave his Politburo and Assassin markers
    away ("B gives 1 Politburo" to D), though an absent player's bot decides the phase and
    nothing else (a live game's rule: no trade offer is made, no marker given, for him).  The
    sheet used for him keeps its other orders and loses its trades (rcw.server.postal.absent)."""
    from rcw.postal import SubmitOrders

    async with serve() as srv:
        g, (a, b) = await postal_game(srv, deadline=2.0, seed=1)
        gid = g["game"]
        rt = srv.hub.runtimes[gid]
        real = rt.driver.bot_action
        gift = {"order": "trade", "with": "C", "give_politburo": 1}

        async def generous(seat):          # (A's bot would give C a Politburo marker)
            if seat != "A":
                return await real(seat)
            return SubmitOrders("A", rt.game.turn, rt.game.view("A")["postal"]["phase"],
                                {"orders": [gift, {"order": "accept_gifts", "from": ["C"]}]})
        rt.driver.bot_action = generous
        await b.sheet([])
        await a.wait_for(lambda c: phase(c) != (1, "trading"), 10)                 # A sends none
        rec = await srv.lobby.record(gid, g["admin_token"])
        close = next(x for x in rec["actions"] if x["t"] == "ClosePhase")
        assert [o["order"] for o in close["sheets"]["A"]["orders"]] == ["accept_gifts"], close["sheets"]["A"]


def test_an_absent_players_stand_in_spends_nothing_and_joins_no_committees_order():
    """QA: at a missed deadline the stand-in sheet sent one of the player's Assassin markers
    against a leader (it failed, and the marker passed to the victim's owner, 004 [10.23]) and
    joined an order to execute the Czar and a purge for him.  The stand-in decides the phase -
    moves, attacks, standing orders - and makes no trade, assassination, purge or execution
    order (rcw.postal.stand_in)."""
    from rcw.server.postal import absent

    orders = [{"order": "move", "unit": 151, "path": ["TVER"]}, {"order": "trade", "with": "C", "give_politburo": 1},
              {"order": "assassinate", "victims": [160], "markers": 1}, {"order": "attack", "target": 170, "attackers": [151]},
              {"order": "purge", "target": "C", "participants": ["A", "B"], "shares": ["A", "B"]},
              {"order": "execute_czar", "participants": ["A", "B"]}, {"order": "accept_gifts"},
              {"order": "counterpurge", "target": "strongest"}, {"order": "vote", "end": True}]
    kept = [o["order"] for o in absent({"orders": orders})["orders"]]
    assert kept == ["move", "attack", "accept_gifts", "counterpurge", "vote"]


async def test_the_bots_reasons_never_tell_their_orders_before_the_report():
    """Found in QA: in a postal game the SDT bots' reasons went out with each sheet they sent
    ("E * attacks Kikvidze (B) in VLDV"): a player read, before the deadline, an attack on his own
    stack.  Orders are the Gamesmaster's alone until the phase closes (004 [17.0]): a postal game
    keeps no bot reasons with its actions, pushed or in the history."""
    async with serve() as srv:
        g, (a, b) = await postal_game(srv, bots="sdt", seed=7)
        a.keep_pushes = True
        for want in ((1, "first"), (1, "second")):
            await a.wait_for(lambda c: set("CDE") <= set(c.view["postal"]["submitted"]), 20)   # the bots' sheets
            await a.sheet([])
            await b.sheet([])
            await a.wait_for(lambda c, want=want: phase(c) == want, 20)
        await a.wait_for(lambda c: set("CDE") <= set(c.view["postal"]["submitted"]), 20)   # the Second Phase's too
        sent = [p for p in a.pushes if p["t"] == "update" and p["action"] == "SubmitOrders" and p["actor"] in "CDE"]
        assert len(sent) >= 6 and not [p["why"] for p in sent if p.get("why")]     # (the First and Second Phases)
        hist = await a.request("events", after=0, limit=500)
        assert not [e["why"] for e in hist["entries"] if e["why"]]
