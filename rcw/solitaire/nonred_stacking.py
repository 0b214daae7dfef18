"""004 [22.0]: the non-Red Stacking Phase.

In each province the non-Red Player's units are arranged in the fewest but strongest stacks of
each colour (004 [22.1]); Blue and Green units combine with units of their own nationality
only (004 [22.2], [7.14]); uncontrolled units stay as they are (004 [7.16]).  A leader's
capacity and the stacking limit are the multi-player rules (:meth:`rcw.state.Board.capacity_holding`,
:data:`rcw.rules.movement.STACK_LIMIT`).

Reading: 004 [22.1] "fewest but strongest stacks": per province, the lowest-Identity-Code White
leader takes the strongest White combat units it may attach, the next leader goes on top with
the next strongest, and so on until the stack holds five units; then the next stack.  White
combat units left without a leader are stacked together (five per stack).  Imperial units
held by the non-Red Player go to the first leader of the first stack.
"""

from __future__ import annotations

from rcw.actions import Event
from rcw.data import BLUE, GREEN, WHITE
from rcw.rules.base import Ctx
from rcw.rules.movement import STACK_LIMIT
from rcw.solitaire.base import NONRED, force_name
from rcw.solitaire.routes import route_of, route_unit, set_route
from rcw.state import Stack

Arrangement = list[tuple[list[int], dict[int, int]]]      # (units, attached) of each stack to make


def white_arrangement(ctx: Ctx, leaders: list[int], units: list[int], imperials: list[int]) -> Arrangement:
    """004 [22.1]: the stacks the White units of one province are arranged in."""
    d = ctx.data
    leaders = sorted(leaders)
    combat_units = sorted(units, key=lambda u: (-d.units[u].strength, u))
    out: Arrangement = []
    imps = sorted(imperials)
    while leaders:
        stack: list[int] = []
        att: dict[int, int] = {}
        n = 0
        while leaders and n + 1 <= STACK_LIMIT:
            lead = leaders.pop(0)
            stack.append(lead)
            n += 1
            mine = imps if not out and len(stack) == 1 else []
            for imp in mine:
                stack.append(imp)
                att[imp] = lead
            imps = [i for i in imps if i not in mine]
            own, _green = ctx.b.capacity_holding(lead, mine)            # 004 [5.14], [13.22], [13.25]
            take = min(own, STACK_LIMIT - n, len(combat_units))
            for u in combat_units[:take]:
                stack.append(u)
                att[u] = lead
            combat_units = combat_units[take:]
            n += take
        out.append((stack, att))
    while combat_units:
        chunk = combat_units[:STACK_LIMIT]
        combat_units = combat_units[STACK_LIMIT:]
        att = {}
        if imps:
            chunk = imps + chunk
            att = {i: 0 for i in imps}
            imps = []
        out.append((chunk, att))
    if imps:
        out.append((imps, {i: 0 for i in imps}))
    return out


def nationality_arrangement(ctx: Ctx, units: list[int]) -> Arrangement:
    """004 [22.2], [7.14]: Blue or Green units of one nationality, strongest first, five to a
    stack; the Imperial units they hold ride with the first."""
    d = ctx.data
    imps = [u for u in units if d.units[u].is_imperial]
    cu = sorted((u for u in units if not d.units[u].is_imperial), key=lambda u: (-d.units[u].strength, u))
    out: Arrangement = []
    for i in range(0, len(cu), STACK_LIMIT):
        chunk = cu[i:i + STACK_LIMIT]
        att = {}
        if i == 0 and imps:
            chunk = imps + chunk
            att = {x: 0 for x in imps}
        out.append((chunk, att))
    return out


def _groups(ctx: Ctx, stacks: list[Stack]) -> dict[str, list[Stack]]:
    """The non-Red stacks of one province by what may stack together: "W" (White, and an
    Imperial unit left alone under the non-Red Player's marker) or a Blue/Green nationality."""
    d = ctx.data
    groups: dict[str, list[Stack]] = {}
    for st in stacks:
        c = ctx.b.stack_color(st)
        if c == WHITE:
            groups.setdefault("W", []).append(st)
        elif c in (BLUE, GREEN):
            nat = next((d.units[u].nationality for u in ctx.b.fighting_units(st)), "")
            groups.setdefault(nat, []).append(st)
        elif not ctx.b.fighting_units(st):
            groups.setdefault("W", []).append(st)
    return groups


def nonred_stacking(ctx: Ctx) -> list[Event]:
    """004 [22.0]: in each province, the fewest but strongest stacks of each colour."""
    s, d = ctx.s, ctx.data
    ev: list[Event] = []
    provinces = sorted({st.province for st in s.stacks.values() if st.owner == NONRED})
    for prov in provinces:
        groups = _groups(ctx, [st for st in ctx.b.stacks_in(prov) if st.owner == NONRED])
        for key, stacks in sorted(groups.items()):
            units = [u for st in stacks for u in st.units]
            if key == "W":
                imps = [u for u in units if d.units[u].is_imperial]
                leaders = [u for u in units if d.units[u].is_leader]
                combat_units = [u for u in units if d.units[u].is_combat]
                want = white_arrangement(ctx, leaders, combat_units, imps)
            else:
                want = nationality_arrangement(ctx, units)
            have = sorted((sorted(st.units), sorted(st.attached.items())) for st in stacks)
            if have == sorted((sorted(u), sorted(a.items())) for u, a in want):
                continue
            for st in stacks:
                del s.stacks[st.id]
            ctx.b.invalidate()
            made = []
            for units_, att in want:
                ns = ctx.new_stack(prov, NONRED, units_, att)
                lead = route_unit(ctx, ns)
                r = route_of(ctx, lead) if lead else None
                if r and prov in r:
                    set_route(ctx, ctx.b.fighting_units(ns), r)
                made.append(ns)
            desc = "; ".join(force_name(ctx, ns) for ns in made if ctx.b.fighting_units(ns))
            ev.append(Event("nonred_stack", f"Non-Red stacking in {prov}: {desc} "
                            f"({'004 [22.1]' if key == 'W' else '004 [22.2]'})", {"province": prov, "seat": NONRED}))
    return ev
