"""001 Anarchists, the Roving Attack: "At the end of any Game Turn, following the Replacement
Segment, the Makhno unit, if not currently controlled by a player, must, if possible, move and
attack the closest player-controlled enemy force within its operational sphere."  The engine
plays it as a procedure (like the SPI solitaire's non-Red moves); the readings are those of
:mod:`rcw.rules.anarchists`."""

from __future__ import annotations

from rcw.actions import Event
from rcw.rules import combat, movement
from rcw.rules.anarchists import makhno
from rcw.rules.base import Ctx
from rcw.state import UNASSIGNED, Stack


def roving_targets(ctx: Ctx) -> list[tuple[int, int, Stack, list[str]]]:
    """The targets of an uncontrolled Makhno's Roving Attack, best first: (provinces moved,
    defence strength, stack, route) of every player-controlled stack he can reach and attack at
    1:1 or better (see the module's readings); empty when he is controlled or off the map."""
    s = ctx.s
    m = makhno(ctx)
    here = ctx.b.stack_of(m)
    if here is None or here.owner is not None:
        return []
    att = ctx.data.units[m].strength
    routes = movement.reach(ctx, m)
    out = []
    for st in s.stacks.values():
        if st.owner is None or st.owner in s.quit or st.id == here.id:
            continue
        fighters = ctx.b.fighting_units(st)
        if not fighters:
            continue
        if st.province == here.province:
            path: list[str] = []
        elif st.province in routes:
            path = list(routes[st.province]["path"])
        else:
            continue
        dfn = combat.strength(ctx, fighters)
        col = combat.odds_column(att, dfn)
        if col is None or col < 1:          # "no less than 1:1 odds"
            continue
        out.append((len(path), dfn, st, path))
    out.sort(key=lambda x: (x[0], x[1]))
    return out


def roving_attack(ctx: Ctx, turn: int) -> list[Event]:
    """The Roving Attack at the end of Game-Turn ``turn``, after the Replacement Segment: an
    uncontrolled Makhno "must, if possible, move and attack the closest player-controlled enemy
    force" within his area and range at 1:1 or better, "closest then weakest", ties at random."""
    m = makhno(ctx)
    here = ctx.b.stack_of(m)
    if here is None or here.owner is not None:
        return []
    targets = roving_targets(ctx)
    if not targets:
        return [Event("roving", f"Makhno finds no player-controlled force he can attack at 1:1 or better "
                      f"and stays in {here.province} (001 Anarchists)", {"unit": m, "province": here.province, "target": None})]
    best = [t for t in targets if t[:2] == targets[0][:2]]
    dist, dfn, t, path = best[ctx.below(len(best))] if len(best) > 1 else best[0]
    frm = here.province
    here.province = t.province
    ctx.b.invalidate()
    defenders = ctx.b.fighting_units(t)
    att = ctx.data.units[m].strength
    col = combat.odds_column(att, dfn)
    die = ctx.die()
    res = ctx.data.tables.crt[die - 1][col]
    label = ctx.data.tables.crt_columns[col]
    ctx.bump("roving_attacks")
    route = "→".join([frm] + path) if path else frm
    move = f"roves {route} and attacks" if path else f"attacks, in {frm},"
    ev = [Event("roving", f"Makhno {move} {ctx.names(defenders)} ({t.owner}) in {t.province}: {att} vs {dfn} at "
                f"{label}, die {die}: {res} (001 Anarchists, Roving Attack)",
                {"unit": m, "from": frm, "path": list(path), "province": t.province, "target": t.id, "defender": t.owner,
                 "attack": att, "defense": dfn, "odds": label, "die": die, "result": res})]
    owner = t.owner
    if res in ("De", "Ex"):                    # at 1:1 or better an Exchange takes every defender
        for u in defenders:
            ctx.eliminate(u, UNASSIGNED, ev, "Makhno's Roving Attack", turn=turn)
    if res in ("Ae", "Ex"):
        ctx.eliminate(m, owner or UNASSIGNED, ev, "Roving Attack", turn=turn)
    return ev
