"""Absences (issue 16): pauses within the creator's limits, civil disorder after missed
deadlines, the player's return, and the "while you were away" digest.

- **Pause** (a vacation): a seat asks for ``seconds`` of pause; every running deadline of the
  game moves by it (:meth:`Clock.move`) and every seat is told (the ``deadline`` push names
  who paused and for how long).  The creator's ``pause`` setting is the most pause time each
  seat may take in the game (0: none); the seat's total is counted atomically in the store
  (``paused`` record), so two requests in two processes cannot overdraw it.
- **Civil disorder**: a human seat that lets ``disorder_after`` deadlines pass in a row (the
  creator's setting; none: never) falls into civil disorder: its record gets ``disorder``,
  its bot plays it (the driver counts it among the bot seats), its deadlines stop.  But when
  every human seat is in civil disorder no one is there to be held up, and the game goes on at
  the pace of its deadlines (each seat in disorder decided by its bot at its deadline,
  :meth:`rcw.server.driver.Driver.everyone_away`) instead of playing itself to its end in
  minutes.  Acting in time resets the count.  The player takes the seat back with the seat token (the
  ``reclaim`` frame, or ``POST /api/games/{id}/reclaim``), or by simply acting again.
- **While you were away**: each seat's last look (the ``seen`` record: the action count when
  its last connection closed, or what its client reported with ``seen``) and a few lines on
  what happened since, from the action log's events (``away`` in ``welcome``, and in the
  e-mails of :mod:`rcw.server.notify`).
"""

from __future__ import annotations

from typing import Any

from rcw.server.protocol import ProtocolError, now_ms
from rcw.server.store import GLOBAL

#: Event kinds worth a line in the digest (their ``text``), besides the reports and the counts.
NOTABLE = ("combat", "eliminated", "purge_resolved", "assassination", "czar_executed", "execution", "capture",
           "quit", "game_over", "random_event", "spoils")
DIGEST_LINES = 8
ARMING = 2.0           # seconds a pause waits for the deadline of a decision that has just opened
#: The store record where each process notes the time of its last lease round (its heartbeat):
#: the seats its connections hold count as present only while it is alive (rcw.server.runtime).
PROCS = (GLOBAL, "procs")


class Absence:
    """One game's pauses, civil disorder and last looks (see the module)."""

    def __init__(self, rt: Any) -> None:
        self.rt = rt

    # -- civil disorder --------------------------------------------------------------------------
    async def _update_seat(self, seat: str, change) -> bool:
        """Apply ``change(record) -> new record | None`` to the seat's stored record (compare and
        set, retried); whether it changed."""
        rt = self.rt
        for _ in range(8):
            rec = (await rt.store.load_seats(rt.gid)).get(seat)
            new = change(rec) if rec is not None else None
            if new is None or new == rec:
                return False
            if await rt.store.cas_seat(rt.gid, seat, rec, new):
                await rt.seats_changed()
                return True
        return False

    async def missed(self, seats: list[str]) -> None:
        """These human seats let a deadline pass: count it; K in a row and the bot takes over."""
        limit = self.rt.meta.get("disorder_after")
        for seat in seats:
            def bump(rec: dict) -> dict | None:
                if rec.get("kind") != "human" or rec.get("disorder"):
                    return None
                new = {**rec, "missed": int(rec.get("missed", 0)) + 1}
                if limit and new["missed"] >= limit:
                    new["disorder"] = now_ms()
                return new
            if await self._update_seat(seat, bump) and self.rt.seats.get(seat, {}).get("disorder"):
                missed = "1 deadline" if limit == 1 else f"{limit} deadlines in a row"
                text = f"Seat {seat} missed {missed}: its bot plays it until the player returns"
                own = (f"You missed {missed}: a bot plays your seat {seat} until you return (open the game "
                       "and act, or take the seat back, and it is yours again)")
                if self.rt.driver.everyone_away():
                    # (every human seat is in disorder, whether or not a page is open on one: QA
                    # read "every player is away" with the game open)
                    every = (". Every human seat is in civil disorder now: their bots decide at the deadlines, "
                             "until a player returns")
                    text, own = text + every, own + every
                # (a subject of its own: the text's first 120 characters stopped mid-sentence)
                self.rt.hub.notifier.game_event(self.rt, "disorder", seat=seat, text=text, own=own,
                                                subject=f"seat {seat} is in civil disorder")

    async def acted(self, seat: str) -> None:
        """The player acted: the count of missed deadlines starts again, civil disorder ends."""
        rec = self.rt.seats.get(seat, {})
        if rec.get("missed") or rec.get("disorder"):
            await self.reclaim(seat)

    async def reclaim(self, seat: str) -> dict:
        """The player takes the seat back (civil disorder ends, the count starts again)."""
        was = bool(self.rt.seats.get(seat, {}).get("disorder"))

        def back(rec: dict) -> dict | None:
            if rec.get("kind") != "human":
                return None
            return {k: v for k, v in rec.items() if k not in ("missed", "disorder")}
        await self._update_seat(seat, back)
        if was:
            self.rt.hub.notifier.game_event(self.rt, "returned", seat=seat, text=f"The player of seat {seat} is back",
                                            own="")       # (he knows)
        return {"seat": seat, "disorder": False, "was": was}

    # -- pauses ----------------------------------------------------------------------------------
    async def pause(self, seat: str, seconds: Any) -> dict:
        """Move the game's running deadlines by ``seconds`` within the seat's allowance."""
        rt = self.rt
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 < seconds <= 30 * 86400:
            raise ProtocolError("bad_request", "'seconds' must be a number of seconds (0 < s <= 2592000)")
        allowance = float(rt.meta.get("pause") or 0)
        if not allowance:
            raise ProtocolError("pause_refused", "the creator of this game allows no pauses", left=0.0)
        if rt.driver.arming():                # (a decision has just opened: its deadline comes)
            await rt.clock.until(lambda: not rt.driver.arming(), ARMING)
        if not rt.clock.due:
            raise ProtocolError("pause_refused", "no deadline is running: there is nothing to pause")
        ms = int(seconds * 1000)
        used = await rt.store.hash_incr(rt.gid, "paused", seat, ms)
        if used > allowance * 1000:
            await rt.store.hash_incr(rt.gid, "paused", seat, -ms)
            left = max(0.0, allowance - (used - ms) / 1000)
            raise ProtocolError("pause_refused", f"you may pause {_span(left) if left >= 1 else 'no'} more in this game "
                                f"(the creator allows {_span(allowance)} in all)", left=left)
        await rt.clock.move(ms, {"seat": seat, "seconds": seconds})
        later = f"every deadline moves {_span(seconds)} later"
        rt.hub.notifier.game_event(rt, "pause", seat=seat, text=f"Seat {seat} paused the game for {_span(seconds)}: {later}",
                                   own=f"You paused the game for {_span(seconds)}: {later}")
        return {"t": "ok", "deadlines": rt.clock.public(), "left": allowance - used / 1000}

    # -- last looks ------------------------------------------------------------------------------
    async def seen(self, seat: str, seq: int) -> None:
        cur = (await self.rt.store.hash_all(self.rt.gid, "seen")).get(seat, 0)
        if seq > cur:
            await self.rt.store.hash_put(self.rt.gid, "seen", {seat: seq})

    async def digest(self, seat: str, since: int | None = None) -> dict | None:
        """What happened since the seat's last look, in a few lines (None: nothing by others, or
        the seat has left the game, 004 [14.2]: its player, looking on, is away from nothing)."""
        rt = self.rt
        if rt.game is not None and seat in rt.game.quit:
            return None
        if since is None:
            since = (await rt.store.hash_all(rt.gid, "seen")).get(seat)
        if since is None or since >= rt.seq:
            return None
        entries = await rt.store.log_range(rt.gid, since)
        lines = digest_lines(entries, seat)
        if lines is None:
            return None
        return {"since": since, "seq": rt.seq, "lines": lines}


def digest_lines(entries: list[dict], seat: str, limit: int = DIGEST_LINES) -> list[str] | None:
    """The digest of log ``entries`` (the store's: ``a`` the action, ``ev`` its events) for
    ``seat``, at most ``limit`` lines: how many actions, then the latest notable events (a report
    by its title), the first of them saying how many earlier ones were left out; None when only
    ``seat`` acted."""
    others = [e for e in entries if e["a"].get("seat") != seat]
    if not others:
        return None
    lines = [f"{len(entries)} action{'s' if len(entries) != 1 else ''} since you looked "
             f"({len(others)} by others)"]
    notable = []
    for e in entries:
        for ev in e.get("ev", ()):
            k = ev.get("kind")
            if k == "report":               # (its text is the report's title: "Report of Game-Turn 1, the ...")
                notable.append(f"{ev.get('text') or 'A report'}: in the archive")
            elif k in NOTABLE and ev.get("text"):
                notable.append(ev["text"])
    room = max(limit, 3) - 1                 # (the count, the word of what was left out, one event at least)
    if len(notable) > room:                 # (the latest; and a word that there was more)
        left = len(notable) - (room - 1)
        notable = [f"… {left} earlier event{'s' if left != 1 else ''}: see the log"] + notable[-(room - 1):]
    return lines + notable


def _span(seconds: float) -> str:
    """A span of time in words, exactly to the second: "10 min", "1 min 12 s", "23 h 57 min"
    ("1.2 min" and "0.98 h" read badly, and rounding said "1 h" of 58 minutes: QA)."""
    s = round(seconds)
    if s < 1:
        return f"{seconds:g} s"
    parts = [(s // 86400, "d"), (s % 86400 // 3600, "h"), (s % 3600 // 60, "min"), (s % 60, "s")]
    return " ".join(f"{n} {unit}" for n, unit in parts if n)
