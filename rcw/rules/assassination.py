"""004 [10.0] Assassination."""

from __future__ import annotations

from rcw.actions import Action, Assassinate, Event
from rcw.rules import historical
from rcw.rules.base import Ctx, counted


def check(ctx: Ctx, a: Assassinate) -> None:
    ph = ctx.b.phasing()
    if ph is not None and ph != a.seat:
        raise ctx.illegal("004 [10.11]", f"only the Phasing Player ({ph}) may attempt an assassination", "not_your_turn")
    ctx.require_phasing(a.seat)                                   # 004 [10.11]
    s, d = ctx.s, ctx.data
    if s.force is not None or s.attack is not None:
        raise ctx.illegal("004 [10.0]", "finish the force or attack in progress first")
    if a.markers < 1:
        raise ctx.illegal("004 [10.12]", "at least one Assassin marker must be used")
    if s.assassins.get(a.seat, 0) < a.markers:
        raise ctx.illegal("004 [10.12]", f"{a.seat} holds only {counted(s.assassins.get(a.seat, 0), 'Assassin marker')}")
    u = d.units.get(a.victim)
    if u is None or not u.is_leader:
        raise ctx.illegal("004 [10.13]", "only leaders may be assassinated (never the Czar)")
    st = ctx.b.stack_of(a.victim)
    if st is None:
        raise ctx.illegal("004 [10.13]", f"{u.name} is not on the map")
    mine = [x for other in ctx.b.stacks_in(st.province) if other.owner == a.seat
            for x in ctx.b.leaders_of(other) if x != a.victim]
    if not mine:
        raise ctx.illegal("004 [10.13]", f"{a.seat} has no other leader in {st.province}")


def do(ctx: Ctx, a: Assassinate) -> list[Event]:
    s, d = ctx.s, ctx.data
    st = ctx.b.stack_of(a.victim)
    owner = st.owner
    value = d.units[a.victim].strength
    d1, d2 = ctx.die(), ctx.die()
    total = d1 + d2 + (a.markers - 1) - value
    s.assassins[a.seat] -= a.markers
    ctx.bump("assassination_attempts")
    text = (f"{a.seat} sends {a.markers} assassin{'s' if a.markers > 1 else ''} against {d.units[a.victim].name} "
            f"in {st.province}: roll {d1}+{d2}, +{a.markers - 1} - {value} = {total}")
    data = {"seat": a.seat, "victim": a.victim, "owner": owner, "markers": a.markers, "dice": [d1, d2], "total": total,
            "province": st.province, "extra": a.markers - 1, "value": value, "need": d.tables.assassination_success}
    if total >= d.tables.assassination_success:                        # 004 [10.0]
        ev = [Event("assassination", text + ": success", {**data, "success": True})]
        ctx.eliminate(a.victim, a.seat, ev, "assassination")            # 004 [10.21]
        s.aux += ["A"] * a.markers                                      # 004 [10.22]
        ctx.bump("assassinations")
        return ev
    receiver = owner if owner and owner not in s.quit else None
    if receiver:
        s.assassins[receiver] = s.assassins.get(receiver, 0) + a.markers   # 004 [10.23]
    else:
        s.aux += ["A"] * a.markers
    return [Event("assassination", text + f": fails; the markers pass to {receiver or 'the Randomizer'}",
                  {**data, "success": False})] + historical.red_terror(ctx, a.victim, owner, a.seat)


def candidates(ctx: Ctx, seat: str) -> list[Action]:
    s = ctx.s
    n = s.assassins.get(seat, 0)
    if n < 1 or s.force is not None or s.attack is not None:
        return []
    out: list[Action] = []
    provinces = {st.province for st in s.stacks.values() if st.owner == seat and ctx.b.leaders_of(st)}
    for st in s.stacks.values():
        if st.province in provinces:
            for v in ctx.b.leaders_of(st):
                for m in range(1, n + 1):
                    out.append(Assassinate(seat, v, m))
    return out
