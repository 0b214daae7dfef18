"""004 [17.0] postal [5.0] Movement and postal [10.0] Assassination: the First Phase's
movement portion, adjudicated by the Gamesmaster.

Every seat's orders are carried out "in the sequence listed" by the multi-player movement
rules (:mod:`rcw.rules.movement`), the seat made the Phasing Player of one Movement Phase
shared by all; the stop on entering a province held by another colour is judged on the
colours noted when the Game-Turn began (``State.snapshot``, the ``postal_movement`` option
every postal game has), so "each Player's orders will be adjudicated as if that Player were
the first to move" whichever seat the Gamesmaster takes first (we take them in seat order).

A ``move`` order is the multi-player force's steps: ``StartForce(unit)``, a ``JoinForce`` for
each leader of ``join`` (in the start province, before the force moves, 004 [5.26]), then one
``Move`` a province of ``path`` (all by rail or all overland, ``rail``); in each province
passed (the start province included) the units of ``drop`` are detached, then those of
``pick`` attached (004 [5.13]): a pick-up ``[unit, leader]`` to the leader it names (the stack
listed top to bottom, 004 [7.21]), a bare unit to the first of the force's leaders who may take
it, the ordering one first.  When a step is refused the force ends its move where it stands: the order
was legal as far as it went (postal [5.0]'s example: a force ordered through a province
where it must stop stops there), and the rest is reported as skipped.

Readings where the postal rules are silent:

* Two or more leaders ordered to pick up the same uncontrolled unit (postal [5.0]): the one
  with precedence (the Gold's leader for a Green unit, postal [13.26]; for an Imperial unit
  claimed by leaders of different colours the highest Leadership Value, ties by a die roll
  (:func:`rcw.postal.base.gm_pick`);
  otherwise the lowest identity code) is decided on the orders as written, before anyone
  moves; the other claims are skipped.  If the winning order then fails to reach the unit,
  the unit stays where it is.
* A written path names each province once: what a force drops and picks up is written by
  province, so a path back through a province (which 004 [5.0] allows a force moved in the
  live game) is refused when its sheet arrives, and not offered by the plotter's reach.
* A sheet is checked as it arrives (:mod:`rcw.postal.validate`) by carrying its orders out on
  the seat's own start position: an order that cannot even begin (a leader not the seat's, one
  that moved already) is refused; one refused at a later step is kept, the steps that will be
  skipped noted as warnings (on the start position they are certain to be: postal [5.0]'s
  example force stops in TVER whatever anyone else orders).
* 001 No Leader Suicide in a postal game: an order that would leave a force of leaders alone
  where Prohibition 2 D or 3 forbids it to end its move (by loose units of its colour it does not
  take, short of friendly units it can still reach) is refused when its sheet arrives.  Others'
  moves can still bring that about at the adjudication; the Gamesmaster then ends the force
  where its orders leave it, having it take the strongest loose unit there the rules let it take
  ("takes one of them"; an ``order_amended`` event), and going no further than its orders (the
  rest of Prohibition 3 reported as an order skipped): the orders are carried out as written.
* Assassinations (postal [10.0]) are attempted when every seat's movement is done, seat by
  seat, each seat's orders in the order listed: an ``assassinate`` order names its victims
  ("and/or") and the markers to use on each; each victim whose movement route (the province
  it started in and every one it entered) includes the final province of another leader of
  the ordering player is attempted (the multi-player resolution, 004 [10.0], [10.2]), while
  the player still holds the markers; for the others "no attempt takes place".
"""

from __future__ import annotations

from rcw import actions as A
from rcw.actions import Event, IllegalAction
from rcw.data import GREEN
from rcw.postal.base import OrderRun, act_as, active, gm_pick, skipped
from rcw.postal.gm import do, legal
from rcw.postal.sheets import of_kind
from rcw.rules import assassination, no_suicide
from rcw.rules.base import Ctx, counted
from rcw.rules.movement import candidates, finish_force, rail_open, reach

KINDS = ("move", "merge", "transfer", "emigrate", "czech_exit")
POSTAL_5 = "004 [17.0] postal [5.0]"
ENDING = (no_suicide.RULE2, no_suicide.RULE3)     # the rules that may keep a force of leaders alone from ending its move


def stack_id(ctx: Ctx, unit: int) -> int:
    """The stack holding ``unit`` (orders name stacks by a unit in them)."""
    st = ctx.b.stack_of(unit) if unit in ctx.data.units else None
    if st is None:
        raise IllegalAction("004 [7.0]", f"{ctx.name(unit) if unit in ctx.data.units else unit} is not on the map",
                            "unknown_unit")
    return st.id


# -- who picks up a unit claimed twice ------------------------------------------------------------------
def holds_gold(ctx: Ctx, leader: int) -> bool:
    st = ctx.b.stack_of(leader)
    return st is not None and ctx.data.gold in st.units and st.attached.get(ctx.data.gold) == leader


def precedence(ctx: Ctx, unit: int, claims: list[tuple[str, int, int]]) -> tuple[str, int, int]:
    """postal [5.0], [13.26]: which claim (seat, order index, claiming unit) to ``unit`` succeeds."""
    units = ctx.data.units
    u = units[unit]
    if u.color == GREEN:
        gold = [c for c in claims if holds_gold(ctx, c[2])]
        if gold:
            claims = gold
    if u.is_imperial and len({units[c[2]].color for c in claims}) > 1:
        best = max(units[c[2]].strength for c in claims)
        top = sorted((c for c in claims if units[c[2]].strength == best), key=lambda c: c[2])
        return top[gm_pick(ctx, len(top))]
    return min(claims, key=lambda c: (c[2], c[0], c[1]))


def pickups(ctx: Ctx, sheets: dict) -> tuple[dict[int, tuple[str, int, int]], list[Event]]:
    """The uncontrolled units more than one leader is ordered to pick up, each with the claim
    that succeeds (postal [5.0])."""
    claims: dict[int, list[tuple[str, int, int]]] = {}
    for seat in active(ctx):
        for i, o in of_kind(sheets.get(seat, []), "move"):
            for units in o["pick"].values():
                for u in units:
                    u = u[0] if isinstance(u, list) else u
                    st = ctx.b.stack_of(u) if u in ctx.data.units else None
                    if st is not None and st.owner is None:
                        claims.setdefault(u, []).append((seat, i, o["unit"]))
    winners, ev = {}, []
    for u in sorted(claims):
        cs = claims[u]
        if len({c[2] for c in cs}) < 2:
            continue
        w = winners[u] = precedence(ctx, u, cs)
        who = ", ".join(f"{ctx.name(c[2])} ({c[0]})" for c in cs)
        ev.append(Event("pickup_precedence", f"{ctx.name(u)} is claimed by {who}: {ctx.name(w[2])} ({w[0]}) takes it "
                        f"({POSTAL_5})", {"unit": u, "claims": [list(c) for c in cs], "winner": list(w)}))
    return winners, ev


def action_of(ctx: Ctx, seat: str, o: dict) -> A.Action:
    """The multi-player action a ``merge`` (004 [5.41]), ``transfer`` (004 [13.15]), ``emigrate``
    (004 [13.31]) or ``czech_exit`` (004 [5.66]) order is carried out as, in the seat's
    Movement Phase (:func:`carry_out`; :func:`rcw.postal.validate.choices` asks its check).
    Raises :class:`IllegalAction` for a unit not on the map."""
    kind = o["order"]
    if kind == "merge":
        return A.Merge(seat, stack_id(ctx, o["unit"]), stack_id(ctx, o["into"]))
    if kind == "transfer":
        to = o["to"]
        lead = to if to in ctx.data.units and ctx.data.units[to].is_leader else 0
        return A.TransferImperial(seat, o["unit"], stack_id(ctx, to), lead)
    if kind == "emigrate":
        return A.Emigrate(seat, o["unit"])
    return A.CzechExit(seat, o["unit"])


# -- carrying out one order -------------------------------------------------------------------------------
def carry_out(ctx: Ctx, seat: str, index: int, o: dict, winners: dict, routes: dict[int, list[str]],
              warnings: list | None = None, offers: dict | None = None) -> list[Event]:
    """Carry out one movement-portion order of ``seat`` (see the module docstring).  Checking a
    sheet (``warnings`` given): an order that cannot be begun is refused (:class:`IllegalAction`),
    the steps refused later are noted in ``warnings``; ``offers`` (a dict) is filled with what a
    ``move`` order may take along (:func:`_offer`)."""
    run = OrderRun(ctx, seat, index, o["order"], warnings, offers)
    act_as(ctx, seat, "movement")
    try:
        kind = o["order"]
        if kind == "move":
            _move(run, o, winners, routes)
        else:
            run.ev += do(ctx, action_of(ctx, seat, o))
    except IllegalAction as e:
        if run.checking:
            raise
        run.fail(e)
    finally:
        if ctx.s.force is not None:
            run.ev += _end(run)
    return run.ev


def _end(run: OrderRun) -> list[Event]:
    """The order's force ends its move where the orders leave it.  With 001's No Leader Suicide
    a leader alone may not end there (Prohibitions 2 D and 3): a sheet checked as it arrives is
    refused for it, but others' moves can bring it about at the adjudication, where the
    Gamesmaster resolves it (see the module docstring)."""
    ctx, seat = run.ctx, run.seat
    try:
        return do(ctx, A.EndForce(seat))
    except IllegalAction as e:
        if run.checking or e.rule not in ENDING:
            raise
    ev: list[Event] = []
    f = ctx.s.force
    fs = ctx.s.stacks[f.stack]
    lo = no_suicide.lone(ctx, fs, f.touched)
    p = lo.stack_problem(fs.province, bool(f.path)) if lo is not None else None
    if p:
        ev += _take_loose(run, fs.province, p[0])
    try:
        return ev + do(ctx, A.EndForce(seat))
    except IllegalAction as e:
        if e.rule not in ENDING:
            raise
        run.fail(e, f"going on from {fs.province}")
    ev += finish_force(ctx)
    ctx.b.invalidate()
    return ev


def _take_loose(run: OrderRun, province: str, rule: str) -> list[Event]:
    """001 No Leader Suicide 2 D, 3 (``rule``): "takes (Attach) one of them" - the strongest loose
    unit the rules let the force's leaders take there (then the lowest identity code), for a seat
    whose orders took none."""
    ctx, seat = run.ctx, run.seat
    units = ctx.data.units
    offers = sorted((a for a in candidates(ctx, seat) if type(a) is A.Attach and units[a.unit].is_combat),
                    key=lambda a: (-units[a.unit].strength, a.unit, a.leader))
    for a in offers:
        try:
            ev = do(ctx, a)
        except IllegalAction:
            continue
        return [Event("order_amended", f"{seat}'s order #{run.index + 1} ({run.kind}): {ctx.name(a.leader)} takes "
                      f"{ctx.name(a.unit)} in {province} before ending his move ({rule}: a Leader alone who comes "
                      f"to loose units of his colour takes one of them)",
                      {"seat": seat, "index": run.index, "unit": a.unit, "leader": a.leader})] + ev
    return []


def _move(run: OrderRun, o: dict, winners: dict, routes: dict[int, list[str]]) -> None:
    ctx, seat = run.ctx, run.seat
    st = ctx.b.stack_of(o["unit"]) if o["unit"] in ctx.data.units else None
    start = st.province if st is not None else "?"
    visited = [start, *o["path"]]
    if len(set(visited)) < len(visited):     # (a force may go back where it has been, 004 [5.0], but not on paper)
        twice = next(p for p in visited if visited.count(p) > 1)
        raise IllegalAction("004 [17.0] postal [5.0]", f"the path enters {twice} twice: a written path names each "
                            "province once (what the force drops and picks up is written by province)", "bad_order")
    run.ev += do(ctx, A.StartForce(seat, o["unit"]))        # refused: the whole order is (a leader is named)
    _offer(run, "join")
    for j in o["join"]:
        try:
            run.ev += do(ctx, A.JoinForce(seat, j))
        except IllegalAction as e:
            run.fail(e, f"{_name(ctx, j)} joining")
    fs = ctx.s.stacks[ctx.s.force.stack]
    for lead in ctx.b.leaders_of(fs):
        routes.setdefault(lead, [start])
    _at(run, o, start, winners)
    here = start
    try:
        for to in o["path"]:
            try:
                run.ev += do(ctx, A.Move(seat, to, o["rail"]))
            except IllegalAction as e:
                rest = o["path"][o["path"].index(to):]
                run.fail(e, f"the move {here}->{to}" + (f" (and on to {rest[-1]})" if len(rest) > 1 else ""), here)
                return
            here = to
            fs = ctx.s.stacks[ctx.s.force.stack]
            for lead in ctx.b.leaders_of(fs):
                routes.setdefault(lead, [start]).append(to)
            _at(run, o, to, winners)
    finally:
        if run.offers is not None:           # (where the force may go on to from where it stands, the way it goes)
            seen = set(visited)              # (on paper a path enters a province once, as above)
            run.offers["reach"] = {p: r for p, r in reach(ctx, mode="rail" if o["rail"] else "").items()
                                   if p not in seen and seen.isdisjoint(r["path"])}
            run.offers["rail"] = rail_open(ctx)


def _offer(run: OrderRun, what: str, province: str = "", o: dict | None = None) -> None:
    """What the force of a ``move`` order being checked may take along, as the rules judge it on
    the scratch copy (for the writer of the sheet, ``Game.check_sheet(offers=i)``): ``what``
    ``"join"``, right after it starts, the leaders who may join it (004 [5.26]) with the units
    attached to each, ``[{"leader", "with"}]``; ``"drop"``, in a province it is in, before its
    drops there, the units it may drop (004 [5.13]); ``"pick"``, after them, the units it may pick
    up there (004 [5.13], [5.26]: unattached units, leaders never), those it dropped left out."""
    ctx, seat, out = run.ctx, run.seat, run.offers
    if out is None:
        return
    cands = candidates(ctx, seat)
    if what == "join":
        joins = [a.leader for a in cands if type(a) is A.JoinForce and legal(ctx, a)]
        out["join"] = [{"leader": j, "with": ctx.b.attached_to(ctx.b.stack_of(j), j)} for j in joins]
    elif what == "drop":
        out.setdefault("drop", {})[province] = [a.unit for a in cands if type(a) is A.Detach and legal(ctx, a)]
    else:
        dropped = set(o["drop"].get(province, [])) if o else set()
        out.setdefault("pick", {})[province] = list(dict.fromkeys(
            a.unit for a in cands if type(a) is A.Attach and a.unit not in dropped and legal(ctx, a)))


def _name(ctx: Ctx, u: int) -> str:
    return ctx.name(u) if u in ctx.data.units else str(u)


def _at(run: OrderRun, o: dict, province: str, winners: dict) -> None:
    """In a province the force is in: drop, then pick up (004 [5.13])."""
    ctx, seat = run.ctx, run.seat
    _offer(run, "drop", province)
    for u in o["drop"].get(province, []):
        try:
            run.ev += do(ctx, A.Detach(seat, u))
        except IllegalAction as e:
            run.fail(e, f"dropping {_name(ctx, u)} in {province}")
    _offer(run, "pick", province, o)
    for u in o["pick"].get(province, []):
        u, named = (u[0], u[1]) if isinstance(u, list) else (u, None)
        w = winners.get(u)
        if w is not None and (w[0], w[1]) != (seat, run.index):
            run.fail(IllegalAction(POSTAL_5, f"{ctx.name(w[2])} ({w[0]}) takes precedence in picking up "
                                   f"{ctx.name(u)}", "precedence"), f"picking up {ctx.name(u)} in {province}")
            continue
        fs = ctx.s.stacks[ctx.s.force.stack]
        leaders = [named] if named is not None else ctx.b.leaders_of(fs)
        leaders.sort(key=lambda x: x != o["unit"])
        first: IllegalAction | None = None
        for lead in leaders or [0]:
            try:
                run.ev += do(ctx, A.Attach(seat, u, lead))
                break
            except IllegalAction as e:
                first = first or e
        else:
            run.fail(first, f"picking up {_name(ctx, u)} in {province}")


# -- the movement portion -------------------------------------------------------------------------------------
def movement(ctx: Ctx, sheets: dict) -> tuple[list[Event], dict[int, list[str]]]:
    """postal [4.2] First Phase 2: every seat's movement orders, and the route of every leader
    that moved (for the assassinations)."""
    winners, ev = pickups(ctx, sheets)
    routes: dict[int, list[str]] = {}
    for seat in active(ctx):
        for i, o in of_kind(sheets.get(seat, []), *KINDS):
            ev += carry_out(ctx, seat, i, o, winners, routes)
    return ev, routes


def check_assassinate(ctx: Ctx, seat: str, o: dict, coming: int = 0) -> None:
    """An assassination order as written (004 [10.12], [10.13], [10.16]); whether it is
    attempted is known only when everyone has moved (postal [10.0]).  ``coming``: the markers
    the sheet's own trades may bring first (postal [4.2]); the count at the attempt decides."""
    if not o["victims"]:
        raise IllegalAction("004 [17.0] postal [10.0]", "name at least one leader to assassinate", "bad_order")
    held = ctx.s.assassins.get(seat, 0)
    if held + coming < o["markers"]:
        more = f" and its trades may bring {coming} more" if coming else ""
        raise IllegalAction("004 [10.12]", f"{seat} holds only {counted(held, 'Assassin marker')}{more}")
    for v in o["victims"]:
        u = ctx.data.units.get(v)
        if u is None or not u.is_leader:
            raise IllegalAction("004 [10.13]", f"{v} is not a leader (the Czar may not be assassinated)")
        if ctx.b.stack_of(v) is None:
            raise IllegalAction("004 [10.13]", f"{u.name} is not on the map")


def assassinations(ctx: Ctx, sheets: dict, routes: dict[int, list[str]]) -> list[Event]:
    """postal [10.0] (see the module docstring)."""
    ev: list[Event] = []
    for seat in active(ctx):
        for i, o in of_kind(sheets.get(seat, []), "assassinate"):
            for v in o["victims"]:
                st = ctx.b.stack_of(v)
                if st is None:
                    ev.append(skipped(ctx, seat, i, "assassinate", IllegalAction(
                        "004 [10.13]", f"{ctx.name(v)} is no longer on the map"), f"against {ctx.name(v)}"))
                    continue
                route = routes.get(v) or [st.province]
                finals = {x.province for x in ctx.s.stacks.values() if x.owner == seat
                          for u in ctx.b.leaders_of(x) if u != v}
                met = [p for p in route if p in finals]
                if not met:
                    ev.append(Event("no_attempt", f"No attempt on {ctx.name(v)}: no leader of {seat} ends its move in "
                                    f"{', '.join(route)} (004 [17.0] postal [10.0])",
                                    {"seat": seat, "victim": v, "route": list(route)}))
                    continue
                if ctx.s.assassins.get(seat, 0) < o["markers"]:
                    ev.append(skipped(ctx, seat, i, "assassinate", IllegalAction(
                        "004 [10.12]", f"{seat} holds only {counted(ctx.s.assassins.get(seat, 0), 'Assassin marker')} now"),
                        f"against {ctx.name(v)}"))
                    continue
                act_as(ctx, seat, "movement")
                ev += assassination.do(ctx, A.Assassinate(seat, v, o["markers"]))
                ctx.b.invalidate()
    return ev
