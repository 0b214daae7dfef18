"""004 [21.0]: the non-Red Movement Phase.

Each controllable non-Red force in turn, White first, then Green, then Blue (004 [21.11]),
rolls one die and moves that many provinces along its path (004 [21.12], [21.26]).

Readings where the rules are silent or ambiguous:

* 004 [21.25]: Blue and Green forces follow their path while the next province is open to
  them (004 [5.65], [5.74]-[5.76]) and stop at the last one (no die is rolled once they
  cannot go on).  Movement is one province per pip, overland, along the path: the die *is*
  the Movement Allowance (004 [21.26]); non-Red forces never use unlimited rail movement.
* A force still stops on entering a province held by another colour (004 [5.27]; 004 [13.23]
  for a White force with the Czar) and on entering Tver or Petrograd (004 [21.23]).  Where a
  force may go and where it must stop are the multi-player rules
  (:func:`rcw.rules.movement.crossing_problem`, :func:`~rcw.rules.movement.entry_problem`,
  :func:`~rcw.rules.movement.blocking_colors`).
* Only controllable units move (004 [18.0]): White leaders with their attached units, and
  Blue/Green stacks under a Control Marker the non-Red Player holds; loose White combat units
  wait for a leader to pick them up in the Stacking Phase.  The non-Red Player never
  attaches Green units with the Gold (004 [22.1] speaks of White units only).
"""

from __future__ import annotations

from rcw.actions import Event
from rcw.data import BLUE, GREEN, WHITE
from rcw.rules import movement
from rcw.rules.base import Ctx
from rcw.solitaire.base import NONRED, TARGETS, force_name
from rcw.solitaire.routes import assign_route, route_of, route_unit, set_route
from rcw.state import Stack


def movers(ctx: Ctx) -> list[Stack]:
    """The non-Red forces that must move, White first, then Green, then Blue (004 [21.11])."""
    d = ctx.data
    white, green, blue = [], [], []
    for st in ctx.s.stacks.values():
        if st.owner != NONRED:
            continue
        c = ctx.b.stack_color(st)
        if c == WHITE and ctx.b.leaders_of(st):
            white.append(st)
        elif c == GREEN:
            green.append(st)
        elif c == BLUE and all(d.units[u].nationality not in d.immobile for u in ctx.b.fighting_units(st)):
            blue.append(st)

    def key(st: Stack) -> tuple:
        return (min(ctx.b.fighting_units(st) or [0]), st.id)

    return sorted(white, key=key) + sorted(green, key=key) + sorted(blue, key=key)


def step_problem(ctx: Ctx, units: list[int], color: str, frm: str, to: str) -> tuple[str, str] | None:
    """Why a force of ``units`` (colour ``color``) may not go from ``frm`` into ``to``: the Kerch
    Straits (004 [5.32]) and where Blue and Green units never go (004 [5.65], [5.74]-[5.76])."""
    return movement.crossing_problem(ctx, frm, to, color) or movement.entry_problem(ctx, units, to)


def nonred_movement(ctx: Ctx) -> list[Event]:
    """004 [21.1]: each controllable force in turn: name it, roll the die, move it that many
    provinces along its path."""
    ev = [Event("phase", "Non-Red Movement Phase (004 [21.0]): White forces first, then Green, then Blue "
                "(004 [21.11]); each rolls one die for its Movement Allowance (004 [21.12], [21.26])",
                {"phase": "movement", "seat": NONRED})]
    for st in movers(ctx):
        if st.id in ctx.s.stacks and st.owner == NONRED:
            ev += move_force(ctx, st)
    return ev


def _leave_loose(ctx: Ctx, st: Stack) -> list[Event]:
    """004 [18.0]: of a White stack only the leaders and their attached units move; the rest
    stays behind as a stack of its own."""
    d = ctx.data
    leaders = ctx.b.leaders_of(st)
    group = [u for u in st.units if u in leaders or st.attached.get(u) in leaders]
    rest = [u for u in st.units if u not in group]
    if not rest:
        return []
    for x in rest:
        st.units.remove(x)
        st.attached.pop(x, None)
    ctx.new_stack(st.province, NONRED, rest, {x: 0 for x in rest if d.units[x].is_imperial})
    return [Event("nonred_leave", f"{ctx.names([x for x in rest if not d.units[x].is_imperial])} "
                  f"(not attached to a leader) stay in {st.province} (004 [18.0])", {"units": rest, "seat": NONRED})]


def move_force(ctx: Ctx, st: Stack) -> list[Event]:
    """004 [21.12], [21.23], [21.25], [21.26]: one force rolls its die and moves along its path."""
    s, d = ctx.s, ctx.data
    ev: list[Event] = []
    color = ctx.b.stack_color(st)
    if color == WHITE:
        ev += _leave_loose(ctx, st)
    lead = route_unit(ctx, st)
    route = route_of(ctx, lead) if lead else None
    if not route or st.province not in route:
        target = route[-1] if route else None
        ev += assign_route(ctx, st, target=target)
        route = route_of(ctx, lead)
        if not route:
            return ev
    set_route(ctx, ctx.b.fighting_units(st), route)
    ahead = route[route.index(st.province) + 1:]
    if not ahead:
        return ev
    units = ctx.b.fighting_units(st)
    if step_problem(ctx, units, color, st.province, ahead[0]):    # 004 [21.25]: as far as it may go; no roll
        return ev
    has_czar = color == WHITE and d.czar in st.units                # 004 [13.23]
    die = ctx.die()
    start = st.province
    path = [start]
    stop = ""
    for to in ahead[:die]:
        problem = step_problem(ctx, units, color, st.province, to)
        if problem:
            rule, why = problem
            stop = f"; it may go no farther: {why} ({rule}), 004 [21.25]"
            break
        st.province = to
        path.append(to)
        ctx.b.invalidate()
        for x in st.units:
            if x not in s.moved:
                s.moved.append(x)
        if to in TARGETS:
            stop = f"; it stops on entering {d.provinces[to].name} (004 [21.23])"
            break
        blockers = movement.blocking_colors(ctx, to, color, has_czar, own=st.id)
        if blockers:
            stop = f"; it stops in {to}, held by {'/'.join(blockers)} units (004 [5.27])"
            break
    target = route[-1]
    if len(path) == 1:
        text = f"Non-Red: {force_name(ctx, st)} in {start} rolls {die} but cannot move{stop}"
    else:
        text = (f"Non-Red: {force_name(ctx, st)} rolls {die} and moves {'→'.join(path)} toward "
                f"{d.provinces[target].name}{stop or ' (004 [21.12])'}")
    ev.append(Event("nonred_move", text, {"stack": st.id, "die": die, "path": path, "target": target, "seat": NONRED}))
    return ev
