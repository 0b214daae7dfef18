"""004 [17.0] postal [8.0] Combat: the Second Phase's combat, adjudicated by the Gamesmaster.

"The GM adjudicates all combat, first resolving all Subversive Attacks and then determining the
results of normal combat."  Every attack order is the multi-player game's ``DeclareAttack`` on
the stack holding ``target``, an ``AddAttacker`` for the stack holding each unit of
``attackers`` (a stack the rules refuse is left out and reported), and ``ResolveAttack`` (the
seat made the Phasing Player of the one Combat Phase all seats share, so "no unit may attack or
be attacked more than once during a single Combat Phase", 004 [8.25], holds for the whole
Second Phase).  Exchange losses and captures are answered from the sheets (:mod:`rcw.postal.gm`).

* Subversive Attacks first, the one employing the most Strength Points first (counted when
  combat begins, doubled on a "Subversive Attacks Doubled" Second Phase); equal ones in seat
  order, each seat's in the order listed.  Losses are effective at once.
* Then normal attacks, province by province (in the order of the provinces' codes): in each, the
  attacks of the player with the most Strength Points there (all his units, of all colours,
  counted when the province's turn comes) first, in the order he listed them; then the next
  player's; equal totals in seat order.
* "Any attacks, Subversive or normal, ordered against units eliminated by attacks with greater
  precedence have no effect": such an order is reported as skipped (postal [8.0]); so is one
  whose attackers are gone or may no longer attack.
"""

from __future__ import annotations

from rcw import actions as A
from rcw.actions import Event, IllegalAction
from rcw.game import HANDLERS
from rcw.postal.base import OrderRun, act_as, active
from rcw.postal.gm import answer, do
from rcw.postal.movement import stack_id
from rcw.postal.sheets import of_kind
from rcw.rules import combat
from rcw.rules.base import Ctx

POSTAL_8 = "004 [17.0] postal [8.0]"


def attack(ctx: Ctx, seat: str, index: int, o: dict, warnings: list | None = None) -> list[Event]:
    """Carry out one attack order (see the module docstring).  Checking a sheet (``warnings``
    given): declare it and judge its odds without rolling; an attack that cannot be declared or
    made is refused (:class:`IllegalAction`), a stack that cannot join it noted in ``warnings``;
    its attackers and defenders count as having fought (004 [8.25]) for the orders after it."""
    run = OrderRun(ctx, seat, index, "attack", warnings)
    strict = run.checking
    act_as(ctx, seat, "combat")
    s = ctx.s
    st = ctx.b.stack_of(o["target"]) if o["target"] in ctx.data.units else None
    if st is None:
        what = ctx.name(o["target"]) if o["target"] in ctx.data.units else str(o["target"])
        e = IllegalAction(POSTAL_8, f"{what} is no longer on the map (eliminated by an attack with greater "
                          "precedence): the attack has no effect", "target_gone")
        if strict:
            raise IllegalAction("004 [8.0]", f"{what} is not on the map", "unknown_unit")
        run.fail(e)
        return run.ev
    try:
        run.ev += do(ctx, A.DeclareAttack(seat, st.id, o["subversive"]))
    except IllegalAction as e:
        if strict:
            raise
        run.fail(e)
        return run.ev
    try:
        for u in o["attackers"]:
            try:
                sid = stack_id(ctx, u)
                if sid not in s.attack.attackers:
                    run.ev += do(ctx, A.AddAttacker(seat, sid))
            except IllegalAction as e:
                run.fail(e, f"the stack of {ctx.name(u) if u in ctx.data.units else u}")
        resolve = A.ResolveAttack(seat)
        HANDLERS[A.ResolveAttack][0](ctx, resolve)
        if strict:
            for sid in s.attack.attackers:
                s.fought += combat.attack_units(ctx, s.stacks[sid])
            s.defended += ctx.b.fighting_units(st)
            run.ev += do(ctx, A.CancelAttack(seat))
            return run.ev
        run.ev += do(ctx, resolve)
        run.ev += answer(ctx, {seat: o["losses"]} if o["losses"] else None)
    except IllegalAction as e:
        if s.attack is not None:
            run.ev += do(ctx, A.CancelAttack(seat))
        if strict:
            raise
        run.fail(e)
    return run.ev


def _strength(ctx: Ctx, o: dict) -> int:
    """The Strength Points an attack order employs, as combat begins (004 [8.26], [12.12])."""
    sids = {ctx.b.stack_of(u).id for u in o["attackers"] if u in ctx.data.units and ctx.b.stack_of(u) is not None}
    return combat.attack_strength(ctx, [ctx.s.stacks[x] for x in sorted(sids)], o["subversive"])


def strength_in(ctx: Ctx, seat: str, province: str) -> int:
    """Every Strength Point ``seat`` has in ``province``, of all colours (postal [8.0])."""
    units = ctx.data.units
    return sum(units[u].strength for st in ctx.b.stacks_in(province) if st.owner == seat
               for u in ctx.b.fighting_units(st))


def combat_portion(ctx: Ctx, sheets: dict) -> list[Event]:
    """postal [4.2] Second Phase 2 (see the module docstring)."""
    s = ctx.s
    s.fought, s.defended = [], []
    seats = active(ctx)
    orders = [(seat, i, o) for seat in seats for i, o in of_kind(sheets.get(seat, []), "attack")]
    subs = [x for x in orders if x[2]["subversive"]]
    ev: list[Event] = []
    if subs:
        power = {(x[0], x[1]): _strength(ctx, x[2]) for x in subs}
        subs.sort(key=lambda x: (-power[x[0], x[1]], seats.index(x[0]), x[1]))
        ev.append(Event("postal_step", "Subversive Attacks, the strongest first (004 [17.0] postal [8.0]): "
                        + ", ".join(f"{x[0]} #{x[1] + 1} ({power[x[0], x[1]]})" for x in subs),
                        {"order": [[x[0], x[1], power[x[0], x[1]]] for x in subs]}))
        for seat, i, o in subs:
            ev += attack(ctx, seat, i, o)
    normal = [x for x in orders if not x[2]["subversive"]]
    by_province: dict[str, list] = {}
    for x in normal:
        st = ctx.b.stack_of(x[2]["target"]) if x[2]["target"] in ctx.data.units else None
        by_province.setdefault(st.province if st is not None else "", []).append(x)
    for province in sorted(by_province):
        group = by_province[province]
        if province:
            power = {p: strength_in(ctx, p, province) for p in {x[0] for x in group}}
            group.sort(key=lambda x: (-power[x[0]], seats.index(x[0]), x[1]))
            ev.append(Event("postal_step", f"Attacks in {province}, the player with most Strength Points there first "
                            f"(004 [17.0] postal [8.0]): " + ", ".join(f"{p} ({power[p]})" for p in
                                                                     dict.fromkeys(x[0] for x in group)),
                            {"province": province, "strength": dict(power)}))
        for seat, i, o in group:
            ev += attack(ctx, seat, i, o)
    return ev
