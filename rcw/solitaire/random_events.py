"""004 [20.0]: Random Events and the Auxiliary Forces Randomizer in the solitaire.

Both sides roll on the Random Events Table as in the multi-player game (004 [12.0]); the only
alteration is 004 [20.12]: every Control or Withdrawal marker drawn, by either side, in a
Random Event or in a Randomizer Phase, goes to the non-Red Player.  (004 [20.11]: the
Randomizer holds no Assassin or Politburo markers, see :mod:`rcw.solitaire.setup`.)
"""

from __future__ import annotations

from rcw.actions import Event
from rcw.rules import random_events as standard
from rcw.rules import randomizer
from rcw.rules.base import Ctx
from rcw.solitaire.base import NONRED, RED_SEAT, side

CASES = {"epidemic": "004 [12.11]", "subversion_doubled": "004 [12.12]"}


def roll_random_events(ctx: Ctx, who: str) -> list[Event]:
    """004 [12.0] as altered by 004 [20.1]: an Epidemic or Subversive Attacks Doubled as in the
    multi-player game; a 'Draw from the Randomizer' gives the marker to the non-Red Player
    whoever rolled."""
    r, c = ctx.die(), ctx.die()
    cell = ctx.data.tables.random_events[(r, c)]
    if cell.result == "draw":
        ev = [Event("random_event", f"{side(who)} Random Events roll {r}-{c}: Draw from the Randomizer (004 [12.13])",
                    {"roll": [r, c], "result": "draw", "seat": who})]
        return ev + draw(ctx, who)
    ev = standard.resolve(ctx, who, (r, c))
    head = ev[0]                                   # "<who> rolls r-c: <what>"
    what = head.text.split(": ", 1)[1]
    moot = ", which changes nothing: only Red units make Subversive Attacks (004 [8.31])" \
        if cell.result == "subversion_doubled" and who == NONRED else ""
    return [Event(head.kind, f"{side(who)} Random Events roll {r}-{c}: {what} ({CASES[cell.result]}){moot}",
                  head.data | {"seat": who})] + ev[1:]


def draw(ctx: Ctx, who: str) -> list[Event]:
    """A Randomizer draw by either side; the marker always goes to the non-Red Player (004 [20.12])."""
    if not ctx.s.aux:
        return [Event("randomizer_empty", f"{side(who)} Randomizer draw: the Auxiliary Forces Randomizer is empty", {})]
    ev = randomizer.draw(ctx, NONRED)
    out = []
    for e in ev:
        text = e.text
        if text.startswith(f"{NONRED} draws"):
            text = f"{side(who)} draws" + text[len(NONRED) + 6:]
            if who == RED_SEAT and e.kind == "drew":
                head, took, tail = text.partition(" and takes command of ")
                text = head + " — it goes to the non-Red Player" + (f", who takes command of {tail}" if took else "") \
                    + " (004 [20.12])"
            elif who == NONRED and e.kind == "drew":
                text += " (004 [20.12])"
        out.append(Event(e.kind, text, dict(e.data) | {"drawn_by": who}))
    return out
