"""Postal games on the server (004 [17.0], issue 16): sheets over the WebSocket, phases closed
at their deadline, reports stored and browsable phase by phase.

The engine plays the postal game (:mod:`rcw.postal`: ``SubmitOrders`` from each seat,
``ClosePhase`` from the Gamesmaster, a ``report`` event ending each adjudication); this module
is what a server adds:

- the ``sheet`` frame: a seat sends (or replaces) its sheet for the open phase; the reply
  carries what the engine kept and refused (``view.postal``), and every seat sees who has
  submitted, never what (the ``update`` frames' ``view.postal.submitted``);
- the ``check`` query of :mod:`rcw.server.facts` judges a draft without sending it;
- the phase's deadline (the game's ``deadline``, an absolute time in the store,
  :mod:`rcw.server.clock`): when it passes, the Gamesmaster closes the phase (seat ``GM``,
  ``by: "deadline"`` in the log), the seats without a sheet given their bot's sheet
  (``missing: "bot"``, the default) or none (``missing: "none"``); a phase closes earlier when
  every seat has sent a sheet (the engine adjudicates it then);
- the ``reports`` frame: the archive, every phase's report (data and The Bell's text,
  :func:`rcw.postal.render`) read from the action log, where each adjudication keeps its
  events.
"""

from __future__ import annotations

import logging
from typing import Any

from rcw.server.protocol import ProtocolError, field, index

from rcw.actions import IllegalAction, to_wire
from rcw.postal import GM, ClosePhase, SubmitOrders, render, stand_in

log = logging.getLogger("rcw.server")

MISSING = ("bot", "none")


class PostalDesk:
    """One postal game's sheets, phase deadlines and reports (see the module)."""

    def __init__(self, rt: Any) -> None:
        self.rt = rt

    # -- sheets ---------------------------------------------------------------------------------
    async def submit(self, seat: str, f: dict) -> dict:
        """The ``sheet`` frame: ``turn``, ``phase`` (the open phase's, else ``wrong_phase``),
        ``sheet`` (``{"orders": [...]}``).  Replies with the seat's accepted sheet and refusals."""
        sheet = field(f, "sheet", dict)
        turn, phase = index(f, "turn", lo=0, hi=10_000), field(f, "phase", str)
        if "seat" in f and f["seat"] != seat:
            raise ProtocolError("not_your_seat", f"this connection holds seat {seat}, not {str(f['seat'])[:8]!r}")
        action = SubmitOrders(seat, turn, phase, sheet)
        rt = self.rt
        async with rt.lock:
            await rt.ensure_current()
            pre = rt.game.check_sheet(seat, action.sheet)      # (a sheet that is not one: refused here)
            g = rt.game
            seats = {seat, *g.view(seat)["postal"]["submitted"], *(p["seat"] for p in g.pending if p.get("kind") == "orders")}
        seq, _ = await rt.submit(action, by="player")
        async with rt.lock:
            mine = rt.game.view(seat)["postal"]
        if (rt.game.turn, mine["phase"]) != (turn, phase):     # this sheet completed the phase: judged as sent
            refused = {r["index"] for r in pre["refused"]}
            mine = {**mine, "sheet": [[i, o] for i, o in enumerate(sheet.get("orders") or []) if i not in refused],
                    "rejected": pre["refused"], "warnings": pre["warnings"],
                    "submitted": sorted(seats)}                 # (every seat of that phase; not the next one's)
        return {"t": "ok", "seq": seq, "sheet": mine.get("sheet") or [], "rejected": mine.get("rejected") or [],
                "warnings": mine.get("warnings") or [], "submitted": mine.get("submitted") or []}

    # -- the phase's deadline --------------------------------------------------------------------
    def timed_phase(self) -> set[str]:
        """The open phase (``turn:phase``) while a human seat's sheet is awaited, else nothing."""
        g, drv = self.rt.game, self.rt.driver
        if g is None or g.over or not any(drv.timed(p["seat"]) for p in g.pending):
            return set()
        return {f"{g.turn}:{g.phase}"}

    async def close_phase(self, key: str) -> list[str]:
        """(Under the lock.)  The deadline of phase ``key`` passed: close it.  Returns the human
        seats that sent no sheet (they missed the deadline)."""
        rt = self.rt
        g = rt.game
        if f"{g.turn}:{g.phase}" != key:
            return []
        awaited = [p["seat"] for p in g.pending if p.get("kind") == "orders"]
        if not awaited:
            return []
        sheets: dict[str, Any] = {}
        by_bot = rt.meta.get("missing", "bot") == "bot"
        for seat in awaited:                 # (a seat in civil disorder is its bot's whatever ``missing`` says)
            if by_bot or rt.seats.get(seat, {}).get("disorder"):
                a = await rt.driver.bot_action(seat)
                if isinstance(a, SubmitOrders):
                    sheets[seat] = absent(a.sheet.data) if rt.driver.absent(seat) else a.sheet.data
        action = ClosePhase(GM, g.turn, g.phase, sheets)
        try:
            await rt.commit_locked(action, "deadline")
        except IllegalAction as e:          # (the bot's sheet refused whole: close with no sheets)
            log.warning("game %s: closing %s with the bots' sheets refused (%s); closing without", rt.gid, key, e)
            await rt.commit_locked(ClosePhase(GM, g.turn, g.phase), "deadline")
        return [s for s in awaited if rt.driver.timed(s)]

    # -- the archive ------------------------------------------------------------------------------
    async def reports(self, after: int = 0) -> dict:
        """The ``reports`` frame: every phase's report after the ``after``-th (0: all), each with
        the action that closed its phase (``seq``), its data and its text."""
        rt = self.rt
        entries = await rt.store.log_range(rt.gid, 0)
        out = []
        for n, e in enumerate(entries, 1):
            for ev in e.get("ev", ()):
                if ev.get("kind") == "report":
                    out.append({"seq": n, "ts": e.get("ts"), "by": e.get("by"), "turn": ev["data"]["turn"],
                                "phase": ev["data"]["phase"], "report": ev["data"],
                                "text": render(ev["data"], rt.game.data)})
        return {"t": "reports", "reports": out[after:], "count": len(out)}


def absent(sheet: dict) -> dict:
    """The bot's sheet for a player who let the deadline pass (not one in civil disorder, whose
    bot plays the seat): it decides the phase and nothing else (:func:`rcw.postal.stand_in`)."""
    return stand_in(sheet)


def report_of(events: list) -> dict | None:
    """The phase report among an action's events (wire form), if it closed a phase."""
    for ev in events:
        w = ev if isinstance(ev, dict) else to_wire(ev)
        if w.get("kind") == "report":
            return w["data"]
    return None
