"""001 Shock Armies (an optional force; the game option ``shock_armies``): "2 red and 1 white
Shock Army combat units (all 8 strength) are placed into the Auxiliary Force Randomizer.  When
drawn can be placed with any leader, not in Siberia, within stacking limits.  If eliminated
before turn 6 the marker is returned to the Auxiliary Force Randomizer."

The units are their own chits in the Randomizer (``"U:<id>"``, :mod:`rcw.rules.auxiliary`);
drawn, the drawer chooses the leader (the ``place`` decision).

Readings (001 is silent):

* "any leader": a leader of the Shock Army's colour (a Red combat unit goes with a Red leader,
  004 [5.22], [7.13]) on the map, whoever controls him; the unit joins his stack, so it is
  controlled by that stack's player (004 [7.12]).
* "within stacking limits": 004 [7.11], five leader and combat units in his stack.  004 [5.14]
  limits what a leader may *attach*, not what stands in his stack: the Shock Army is attached to
  him when he has room (004 [5.14], [13.22], [13.25]) and otherwise stands loose in his stack,
  like the units a leader is deployed over (004 [15.53]), to be attached when he has room.
* No such leader: the Shock Army goes back into the Randomizer, and the draw is spent (004
  [12.13] gives a substitute draw only for a vanished Blue force).
* Eliminated in Game-Turns 1-5 (by combat or by an epidemic): back into the Randomizer, not on
  the VP chart; from Game-Turn 6 the usual rules.  Never replaced (no home province: they return
  only by being drawn again).
"""

from __future__ import annotations

from rcw.actions import Event
from rcw.data import SIBERIA
from rcw.rules.base import Ctx

RULE = "001 Shock Armies"
OPTION = "shock_armies"
STACK_LIMIT = 5                        # 004 [7.11]
LAST_RETURN_TURN = 5                   # "If eliminated before turn 6 ..."


def on(ctx: Ctx) -> bool:
    return bool(ctx.s.options.get(OPTION))


def is_shock(ctx: Ctx, uid: int) -> bool:
    return ctx.data.units[uid].option == OPTION


def units(ctx: Ctx) -> list[int]:
    return sorted(u.id for u in ctx.data.units.values() if u.option == OPTION)


def deploy(ctx: Ctx) -> list[Event]:
    """The Shock Armies into the Auxiliary Forces Randomizer."""
    ctx.s.aux += [f"U:{u}" for u in units(ctx)]
    return [Event("shock_armies", "Two Red and one White Shock Army are in the Auxiliary Forces Randomizer "
                  "(001 Shock Armies)", {"units": units(ctx)})]


def leaders_for(ctx: Ctx, uid: int) -> list[int]:
    """The leaders a drawn Shock Army may be placed with: of its colour, on the map outside
    Siberia, in a stack with room under 004 [7.11]."""
    d = ctx.data
    color = d.units[uid].color
    out = []
    for st in ctx.s.stacks.values():
        if d.provinces[st.province].region == SIBERIA or len(ctx.b.fighting_units(st)) >= STACK_LIMIT:
            continue
        out += [u for u in ctx.b.leaders_of(st) if d.units[u].color == color]
    return sorted(out)


def place(ctx: Ctx, uid: int, leader: int) -> tuple[bool, str]:
    """Put the Shock Army in ``leader``'s stack, attached to him if he has room (004 [5.14]);
    returns (attached?, the stack's province)."""
    st = ctx.b.stack_of(leader)
    own, _green = ctx.b.capacity(st, leader)
    held = sum(1 for u in ctx.b.attached_to(st, leader) if ctx.data.units[u].is_combat)
    room = held < own
    ctx.put(uid, st, leader if room else 0)
    return room, st.province


def no_leader(ctx: Ctx, seat: str, uid: int, chit: str) -> list[Event]:
    """No leader can take it: back into the Randomizer (the draw is spent)."""
    ctx.s.aux.append(chit)
    ctx.bump("shock_armies_returned")
    return [Event("drew", f"{seat} draws {ctx.name(uid)}, but no {ctx.data.units[uid].color} leader outside Siberia "
                  "has room for it: it goes back into the Randomizer (001 Shock Armies)",
                  {"seat": seat, "chit": chit, "unit": uid})]


def eliminated(ctx: Ctx, uid: int, turn: int, why: str, events: list[Event]) -> bool:
    """Before Game-Turn 6, back into the Randomizer (True); from then on the usual rules (False)."""
    if turn > LAST_RETURN_TURN:
        return False
    ctx.take(uid)
    ctx.s.aux.append(f"U:{uid}")
    ctx.bump("shock_armies_returned")
    events.append(Event("eliminated", f"{ctx.name(uid)} eliminated ({why}); back into the Auxiliary Forces Randomizer "
                        "(001 Shock Armies)", {"unit": uid, "section": "randomizer", "why": why}))
    return True
