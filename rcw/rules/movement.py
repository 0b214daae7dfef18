"""004 [5.0] Movement, [7.0] Stacking and [13.1]-[13.3] moving Imperial units.

A force is built step by step: StartForce (a leader, or a Blue/Green stack), JoinForce
(other leaders, before the first step), Attach/Detach in any province passed, Move one
province at a time (overland 1 MP, or by rail), EndForce.  The force travels as its own
stack.  Readings the rules leave open:

* other Leaders join a force before its first step (004 [5.26]); en route it attaches and
  detaches combat and Imperial units only (004 [5.13], [13.12]);
* units that have been part of the force never make it stop (004 [5.27] is judged on what
  the force meets when it enters; a Green unit taken with the Gold and left behind is the
  "hot knife through butter" of 004 [29.0]), nor where it comes back to them;
* what a force leaves where it was formed, before its first step, has not moved (004 [5.25]),
  but the force does not take it back; and a move enters at most as many provinces as the map
  has (a force may go back where it has been): limits that keep a move finite;
* with the postal option (004 [17.0] [5.0]) the stop is judged on the colours noted when
  the Game-Turn began (``State.snapshot``), whatever has moved since."""

from __future__ import annotations

from collections.abc import Mapping

from rcw import options
from rcw.actions import (
    Action,
    Attach,
    CzechExit,
    Detach,
    Emigrate,
    EndForce,
    EndMovement,
    Event,
    JoinForce,
    Merge,
    Move,
    StartForce,
    TransferImperial,
)
from rcw.data import ANARCHIST, BLUE, GREEN, RED, SIBERIA, WHITE, GameData
from rcw.rules import anarchists, historical, no_suicide
from rcw.rules.base import Ctx
from rcw.state import UNASSIGNED, Force, Stack
from rcw.types import Route

BLUE_GREEN_MA = 3      # 004 [5.63], [5.72]
STACK_LIMIT = 5        # 004 [7.11]


def _mover(ctx: Ctx, seat: str) -> None:
    ctx.require_phasing(seat, "movement")
    if seat in ctx.s.quit:
        raise ctx.illegal("004 [14.22]", "a player who has quit may not move")


def _force(ctx: Ctx) -> tuple[Force, Stack]:
    f = ctx.s.force
    if f is None:
        raise ctx.illegal("004 [5.0]", "no force is being moved; start one first", "no_force")
    return f, ctx.s.stacks[f.stack]


def leader_ma(ctx: Ctx, leaders=()) -> int:
    """004 [5.0]: a leader's Movement Allowance (the ``leader_movement`` option).  With the
    option ``reduced_leader_movement`` (001 "Reduced Red and White leader movement": "Leaders
    move 2 + Leadership rating"), a force of ``leaders`` moves 2 + the lowest of their ratings
    (our reading for a force of several: every leader in it must be able to make the move)."""
    if leaders and ctx.s.options.get("reduced_leader_movement"):
        return 2 + min(ctx.data.units[u].strength for u in leaders)
    return int(options.value(ctx.s.options, "leader_movement"))


# -- forming a force ---------------------------------------------------------------------------
def check_start(ctx: Ctx, a: StartForce) -> None:
    _mover(ctx, a.seat)
    if ctx.s.force is not None:
        raise ctx.illegal("004 [5.0]", "forces move one at a time: end the current force first")
    if a.unit not in ctx.data.units:
        raise ctx.illegal("004 [5.0]", f"no unit {a.unit}", "unknown_unit")
    st = ctx.b.stack_of(a.unit)
    if st is None:
        raise ctx.illegal("004 [5.0]", f"{ctx.name(a.unit)} is not on the map")
    if st.owner != a.seat:
        raise ctx.illegal("004 [5.11]", f"{ctx.name(a.unit)} is not controlled by {a.seat}")
    u = ctx.data.units[a.unit]
    if a.unit in ctx.s.moved:
        raise ctx.illegal("004 [5.25]", f"{ctx.name(a.unit)} has already moved this Movement Phase")
    if u.is_leader:
        return
    if u.color in (BLUE, GREEN, ANARCHIST) and not st.attached.get(a.unit):
        if u.nationality in ctx.data.immobile:
            raise ctx.illegal("004 [5.62]", f"{u.nationality} units never move")
        return                                # (an Anarchist unit moves alone: 001 Anarchists)
    raise ctx.illegal("004 [5.22]", "combat units move only with a leader of their colour (or as a Blue/Green force)")


def do_start(ctx: Ctx, a: StartForce) -> list[Event]:
    s = ctx.s
    st = ctx.b.stack_of(a.unit)
    u = ctx.data.units[a.unit]
    if u.is_leader:
        group = [a.unit] + ctx.b.attached_to(st, a.unit)
        attached = {x: a.unit for x in group[1:]}
    else:
        group = [x for x in st.units if x not in s.moved and not ctx.data.units[x].is_leader]
        attached = {x: 0 for x in group if ctx.data.units[x].is_imperial}
    force_stack = _split(ctx, st, group, attached)
    # ``touched``: every unit that has been part of this force; units it leaves behind never
    # stop it (004 [5.27] is judged on entering; see also 004 [29.0] "hot knife").
    s.force = Force(force_stack.id, st.province, touched=list(group))
    s.moved += [x for x in group if x not in s.moved]
    return [Event("force", f"{a.seat} forms a force in {st.province}: {ctx.names(group)}",
                  {"seat": a.seat, "units": group, "province": st.province})]


def _split(ctx: Ctx, st: Stack, group: list[int], attached: dict[int, int]) -> Stack:
    if set(group) == set(st.units):
        st.attached = dict(attached)
        return st
    for x in group:
        st.units.remove(x)
        st.attached.pop(x, None)
    ctx.tidy(st)
    return ctx.new_stack(st.province, st.owner, group, attached)


def check_join(ctx: Ctx, a: JoinForce) -> None:
    _mover(ctx, a.seat)
    f, fs = _force(ctx)
    if f.path:
        raise ctx.illegal("004 [5.26]", "leaders join a force before it moves")
    if a.leader not in ctx.data.units or not ctx.data.units[a.leader].is_leader:
        raise ctx.illegal("004 [5.26]", f"{a.leader} is not a leader", "unknown_unit")
    st = ctx.b.stack_of(a.leader)
    if st is None or st.province != fs.province or st.owner != a.seat or st.id == fs.id:
        raise ctx.illegal("004 [5.26]", f"{ctx.name(a.leader)} is not one of {a.seat}'s leaders in {fs.province}")
    if a.leader in ctx.s.moved:
        raise ctx.illegal("004 [5.25]", f"{ctx.name(a.leader)} has already moved")
    if a.leader in f.touched:
        raise ctx.illegal(*_left_problem(ctx, a.leader))
    if not ctx.b.leaders_of(fs):
        raise ctx.illegal("004 [7.13]", "a Blue or Green force cannot carry leaders")
    if ctx.data.units[a.leader].color != ctx.b.stack_color(fs):
        raise ctx.illegal("004 [7.13]", "units of different colours never stack together")
    group = [a.leader] + ctx.b.attached_to(st, a.leader)
    n = len(ctx.b.fighting_units(fs)) + len([x for x in group if not ctx.data.units[x].is_imperial])
    if n > STACK_LIMIT:
        raise ctx.illegal("004 [7.11]", f"the force would hold {n} units (limit 5)")
    for imp in (ctx.data.czar, ctx.data.gold):
        if imp in group and imp in fs.units:
            raise ctx.illegal("004 [7.11]", "a stack holds at most one of each Imperial unit")


def do_join(ctx: Ctx, a: JoinForce) -> list[Event]:
    fs = ctx.s.stacks[ctx.s.force.stack]
    st = ctx.b.stack_of(a.leader)
    group = [a.leader] + ctx.b.attached_to(st, a.leader)
    # 004 [5.26]: the joining Leader brings his attached units, still attached to him (read
    # the attachments before taking the Leader, which would clear them).
    leads = {x: st.attached.get(x, 0) for x in group}
    for x in group:
        ctx.take(x)
        ctx.put(x, fs, leads[x] if x != a.leader else 0)
        if x not in ctx.s.moved:
            ctx.s.moved.append(x)
        ctx.s.force.touched.append(x)
    return [Event("force_join", f"{ctx.name(a.leader)} joins the force", {"leader": a.leader})]


# -- attach / detach -------------------------------------------------------------------------------
def _left_problem(ctx: Ctx, unit: int) -> tuple[str, str]:
    """A force does not take back a unit or leader it has left (one left where it was formed has
    not moved, :func:`do_detach`): an engine reading that keeps a move finite."""
    return "004 [5.0]", f"{ctx.name(unit)} was left by this force: it does not take him back"


def _green_count(ctx: Ctx, fs: Stack, leader: int) -> int:
    return sum(1 for x in ctx.b.attached_to(fs, leader) if ctx.data.units[x].color == GREEN)


def check_attach(ctx: Ctx, a: Attach) -> None:
    _mover(ctx, a.seat)
    f, fs = _force(ctx)
    d = ctx.data
    if a.unit not in d.units:
        raise ctx.illegal("004 [5.13]", f"no unit {a.unit}", "unknown_unit")
    u = d.units[a.unit]
    st = ctx.b.stack_of(a.unit)
    if st is None or st.province != fs.province or st.id == fs.id:
        raise ctx.illegal("004 [5.13]", f"{ctx.name(a.unit)} is not in {fs.province} outside the force")
    leaders = ctx.b.leaders_of(fs)
    if u.is_leader:
        raise ctx.illegal("004 [5.26]", f"{ctx.name(a.unit)} is a leader: a leader is not picked up, he moves with "
                          "the force from where it starts (he joins it before it moves)")
    p = anarchists.alone_problem(ctx, fs, st)
    if p:
        raise ctx.illegal(*p)
    if a.unit in f.touched:
        raise ctx.illegal(*_left_problem(ctx, a.unit))
    if u.is_imperial:
        if st.owner not in (None, a.seat):
            raise ctx.illegal("004 [13.14]", f"the {u.name} is controlled by {st.owner}")
        if a.unit in ctx.s.moved:
            raise ctx.illegal("004 [5.25]", f"the {u.name} has already moved this phase")
        if leaders and a.leader not in leaders:
            raise ctx.illegal("004 [13.21]", "name the force's leader who takes the Imperial unit")
        if not leaders and a.leader:
            raise ctx.illegal("004 [13.21]", "a Blue or Green force has no leader: name leader 0")
        return
    if not leaders:                                     # a Blue/Green force picks up its own kind
        kind = d.units[fs.units[0]] if fs.units else None
        if kind is None or u.color != kind.color or u.nationality != kind.nationality:
            raise ctx.illegal("004 [7.14]", "a Blue/Green force takes only units of its own nationality")
        if st.owner != a.seat or st.attached.get(a.unit):
            raise ctx.illegal("004 [5.61]", f"{ctx.name(a.unit)} is not under {a.seat}'s control")
        if a.unit in ctx.s.moved:
            raise ctx.illegal("004 [5.25]", f"{ctx.name(a.unit)} has already moved")
        if len(ctx.b.fighting_units(fs)) >= STACK_LIMIT:
            raise ctx.illegal("004 [7.11]", "the force already holds 5 units")
        return
    if a.leader not in leaders:
        raise ctx.illegal("004 [5.13]", f"{a.leader} is not a leader in the force")
    lead = d.units[a.leader]
    own, gold_slots = ctx.b.capacity(fs, a.leader)
    attached = [x for x in ctx.b.attached_to(fs, a.leader) if d.units[x].is_combat]
    if u.color == GREEN and u.color != lead.color:
        if not gold_slots:
            raise ctx.illegal("004 [5.22]", "only a leader holding the Gold may attach Green units")
        if u.nationality in ("FN", "PO"):
            raise ctx.illegal("004 [13.27]", "Finnish and Polish units are never attached by a leader")
        if st.attached.get(a.unit):
            raise ctx.illegal("004 [5.26]", f"{ctx.name(a.unit)} is attached to another leader")
        if _green_count(ctx, fs, a.leader) >= gold_slots:
            raise ctx.illegal("004 [13.25]", "the Gold allows only two extra units")
    else:
        if u.color != lead.color:
            raise ctx.illegal("004 [5.22]", f"a {lead.color} leader moves only {lead.color} combat units")
        if st.owner not in (None, a.seat):
            raise ctx.illegal("004 [7.12]", f"{ctx.name(a.unit)} is controlled by {st.owner}")
        if st.attached.get(a.unit):
            raise ctx.illegal("004 [5.26]", f"{ctx.name(a.unit)} is attached to another leader")
        if a.unit in ctx.s.moved:
            raise ctx.illegal("004 [5.25]", f"{ctx.name(a.unit)} has already moved with another force")
    if len(attached) >= own:
        raise ctx.illegal("004 [5.14]", f"{lead.name} may attach at most {own} combat units")
    if len(ctx.b.fighting_units(fs)) >= STACK_LIMIT:
        raise ctx.illegal("004 [7.11]", "the force already holds 5 units")


def do_attach(ctx: Ctx, a: Attach) -> list[Event]:
    f, fs = ctx.s.force, ctx.s.stacks[ctx.s.force.stack]
    ctx.take(a.unit)
    ctx.put(a.unit, fs, a.leader)
    if a.unit not in ctx.s.moved:
        ctx.s.moved.append(a.unit)
    f.touched.append(a.unit)
    who = ctx.name(a.leader) if a.leader else "the force"
    return [Event("attach", f"{who} picks up {ctx.name(a.unit)} in {fs.province}",
                  {"unit": a.unit, "leader": a.leader, "province": fs.province})]


def check_detach(ctx: Ctx, a: Detach) -> None:
    _mover(ctx, a.seat)
    f, fs = _force(ctx)
    if a.unit not in fs.units:
        raise ctx.illegal("004 [5.13]", f"{ctx.name(a.unit) if a.unit in ctx.data.units else a.unit} is not in the force")
    u = ctx.data.units[a.unit]
    rest = [x for x in ctx.b.fighting_units(fs) if x != a.unit]
    if u.is_leader:
        rest = [x for x in rest if fs.attached.get(x) != a.unit]
        if not [x for x in rest if ctx.data.units[x].is_leader]:
            raise ctx.illegal("004 [5.0]", "the force's last leader is not dropped: the force ends its move where it is instead")
        p = no_suicide.detach_problem(ctx, fs, [a.unit] + ctx.b.attached_to(fs, a.unit))
        if p:                                                # 001 No Leader Suicide 3
            raise ctx.illegal(*p)
    elif not rest:
        raise ctx.illegal("004 [5.0]", "the force's last unit is not dropped: the force ends its move where it is instead")


def do_detach(ctx: Ctx, a: Detach) -> list[Event]:
    s = ctx.s
    fs = s.stacks[s.force.stack]
    u = ctx.data.units[a.unit]
    group = [a.unit] + (ctx.b.attached_to(fs, a.unit) if u.is_leader else [])
    att = {x: fs.attached[x] for x in group if fs.attached.get(x) and x != a.unit}
    for x in group:
        ctx.take(x)
    owner: str | None = a.seat
    if u.is_imperial:
        owner = None                                        # 004 [13.42]
    stolen = (u.color == GREEN and not u.is_leader and ctx.b.leaders_of(fs)
              and ctx.data.units[ctx.b.leaders_of(fs)[0]].color != GREEN)
    if stolen:
        holder = s.control.get(u.nationality)               # a stolen Green unit reverts (004 [13.26])
        owner = holder if holder not in s.quit else None
    left = ctx.new_stack(fs.province, owner, group, att)
    if not s.force.path and not stolen:
        # Left where the force was formed, before its first step: they never moved (004 [5.25]
        # speaks of units that moved with a force), so they may move later this phase, with
        # another leader or as another Blue or Green force ("all, some or none", 004 [5.61],
        # [5.71]; forces reorganised by unstacking, 004 [7.0]).  Every unit of a force that has
        # not stepped yet was unmoved when it joined it (StartForce and Attach take no other),
        # but an Imperial unit transferred this phase (004 [13.15]) and a Green unit stolen with
        # the Gold, which may have moved before (004 [13.26]): those stay moved.
        s.moved[:] = [x for x in s.moved if x not in group or x in s.imperial_moved]
    ev = [Event("detach", f"{ctx.names(group)} left in {fs.province}", {"units": group, "province": fs.province})]
    return ev + (no_suicide.stack_up(ctx, left, (fs.id,)) if u.is_leader else [])    # 001 No Leader Suicide 3


# -- moving ----------------------------------------------------------------------------------------------
def force_color(ctx: Ctx, fs: Stack) -> str:
    return ctx.b.stack_color(fs)


def blocking_colors(ctx: Ctx, province: str, color: str, has_czar: bool, ignore=(), own: int | None = None) -> list[str]:
    """004 [5.27]: the colours in ``province`` that stop a force of ``color`` entering it
    (empty: it may go on).  ``ignore``: units that have been part of the force (they never
    stop it); ``own``: the force's own stack.  A White force with the Czar is not stopped by
    Blue units (004 [13.23]).  With the postal option the colours noted when the Game-Turn
    began decide (004 [17.0] postal [5.0])."""
    alone = color == ANARCHIST        # 001 Anarchists: hostile to all, other Anarchists included
    if ctx.s.options.get("postal_movement"):
        colors = {c for c in ctx.s.snapshot.get(province, []) if c != color or alone}
    else:
        colors = set()
        for st in ctx.b.stacks_in(province):
            if st.id == own:
                continue
            for x in st.units:
                if ctx.data.units[x].is_imperial or x in ignore:
                    continue
                c = ctx.b.color_of(x, st)
                if c != color or alone:
                    colors.add(c)
    if has_czar and colors <= {BLUE}:
        return []                                      # 004 [13.23]
    return sorted(colors)


def _blockers(ctx: Ctx, f: Force, fs: Stack) -> list[str]:
    """Colours in the force's province that make it stop there (004 [5.27])."""
    color = force_color(ctx, fs)
    return blocking_colors(ctx, fs.province, color, ctx.data.czar in fs.units and color == WHITE, f.touched, fs.id)


def stop_problem(ctx: Ctx) -> tuple[str, str] | None:
    """004 [5.27] for the force being moved: it entered a province held by units of another
    colour and may go no further (what :func:`move_problem` says of any step on; None if it may)."""
    f = ctx.s.force
    fs = ctx.s.stacks[f.stack]
    if f.path and _blockers(ctx, f, fs):
        return "004 [5.27]", f"the force entered {fs.province}, held by units of another colour, and must stop"
    return None


def crossing_problem(ctx: Ctx, frm: str, to: str, color: str) -> tuple[str, str] | None:
    """004 [5.32]: only White units cross the Kerch Straits (the border is passable by them alone)."""
    if frozenset((frm, to)) in ctx.data.white_only_borders and color != WHITE:
        return "004 [5.32]", "only White units may cross the Kerch Straits"
    return None


def entry_problem(ctx: Ctx, units, to: str) -> tuple[str, str] | None:
    """Where Blue and Green units may never go: Czechs and Japanese stay in Siberia (004 [5.65]),
    Finns in four provinces (004 [5.75]), Poles out of three regions (004 [5.76]), other Greens
    in their home region (004 [5.74]) - whoever carries them."""
    d = ctx.data
    to_region = d.provinces[to].region
    for x in units:
        u = d.units[x]
        if u.color == ANARCHIST:
            p = anarchists.entry_problem(ctx, x, to)
            if p:
                return p
            continue
        if u.color == BLUE and u.nationality in d.siberia_only and to_region != SIBERIA:
            return "004 [5.65]", "Czech and Japanese units never leave Siberia"
        if u.color == GREEN:
            if u.nationality == "FN" and to not in d.finnish_provinces:
                return "004 [5.75]", "Finnish units enter only Archangel, Olonetz, Petrograd and Finland"
            if u.nationality == "PO":
                if to_region not in d.polish_regions:
                    return "004 [5.76]", "Polish units never enter the Cossack, Trans-Caucasus or Siberia regions"
            elif u.nationality != "FN" and to_region != d.green_home_region[u.nationality]:
                return "004 [5.74]", f"{u.nationality} units never leave the {d.green_home_region[u.nationality]} region"
    return None


# GameData id -> (those data, what :func:`barred` worked out for them): games played with the
# same counters share it (a few entries; forgotten all at once when there are many).
_BARRED: dict[int, tuple[GameData, dict[tuple, int]]] = {}


def barred(ctx: Ctx, units) -> int:
    """The provinces (as a set of bits, ``GameData.bit``) that some of ``units`` may never
    enter (:func:`entry_problem`): those each kind of unit (colour and nationality, and what an
    Anarchist unit's depend on) may never enter, put together, each worked out once for the
    game's data (they depend on nothing else)."""
    d = ctx.data
    got = _BARRED.get(id(d))
    if got is None or got[0] is not d:
        if len(_BARRED) >= 16:
            _BARRED.clear()
        got = _BARRED[id(d)] = (d, {})
    memo = got[1]
    out = 0
    for x in units:
        u = d.units[x]
        key = (u.color, u.nationality) + (anarchists.barred_key(ctx, x) if u.color == ANARCHIST else ())
        b = memo.get(key)
        if b is None:
            b = memo[key] = sum(d.bit[p] for p in d.codes if entry_problem(ctx, (x,), p) is not None)
        out |= b
    return out


def allowance(ctx: Ctx, units) -> int:
    """004 [5.0], [5.63], [5.72]: a force of ``units`` with a leader spends up to its leaders'
    Movement Allowance (:func:`leader_ma`), a Blue or Green force three, an Anarchist unit four
    (001 Anarchists); one Movement Point a province overland."""
    us = ctx.data.units
    leaders = [u for u in units if us[u].kind == "leader"]
    if leaders:
        return leader_ma(ctx, leaders)
    if any(us[u].color == ANARCHIST for u in units):
        return anarchists.MOVEMENT_ALLOWANCE
    return BLUE_GREEN_MA


def rail_open(ctx: Ctx) -> bool:
    """Whether the force being moved may go (on) by rail: a Red or White force with a leader that
    began its move in a rail province not disrupted, and has not moved overland (004 [5.51]-[5.53],
    001 Anarchists)."""
    f = ctx.s.force
    if f is None or f.mode == "overland":
        return False
    fs = ctx.s.stacks[f.stack]
    has_leader = any(ctx.data.units[u].kind == "leader" for u in fs.units)
    return rails_ok(ctx, force_color(ctx, fs), has_leader, f.start) is None


def no_rail(color: str) -> tuple[str, str]:
    """Why a force of ``color`` (or one without a leader) has no rail movement: 004 [5.64] for
    Blue units, [5.73] for Green ones, else [5.51]."""
    if color == BLUE:
        return "004 [5.64]", "Blue units may not use rail movement"
    if color == GREEN:
        return "004 [5.73]", "Green units may not use rail movement"
    return "004 [5.51]", "only Red and White forces use rail movement"


def rails_ok(ctx: Ctx, color: str, has_leader: bool, start: str) -> tuple[str, str] | None:
    """004 [5.51], [5.52]: rail movement is for Red and White forces with a leader that begin
    their move in a rail province (not one an Anarchist unit disrupts, 001 Anarchists)."""
    if color not in (RED, WHITE) or not has_leader:
        return no_rail(color)
    if not ctx.data.provinces[start].rail:
        return "004 [5.52]", f"the force did not begin its move in a rail province ({start})"
    return anarchists.rail_problem(ctx, start)


def move_problem(ctx: Ctx, a: Move) -> tuple[str, str] | None:
    s, d = ctx.s, ctx.data
    f, fs = s.force, s.stacks[s.force.stack]
    here = d.provinces[fs.province]
    if a.to not in d.provinces:
        return "004 [5.24]", f"no province {a.to!r}"
    if len(f.path) >= len(d.provinces):
        return "004 [5.0]", f"a force enters at most {len(d.provinces)} provinces in one move (an engine limit)"
    if a.to not in here.adjacent:
        if frozenset((fs.province, a.to)) in d.lake_borders:
            return "004 [5.33]", "no movement between Petrograd and Livonia across Lake Pskov"
        return "004 [5.24]", f"{a.to} is not adjacent to {fs.province}"
    color = force_color(ctx, fs)
    p = crossing_problem(ctx, fs.province, a.to, color)
    if p:
        return p
    p = stop_problem(ctx)
    if p:
        return p
    p = entry_problem(ctx, fs.units, a.to) or no_suicide.step_problem(ctx, fs, f.touched, a.to)
    if p:
        return p
    has_leader = bool(ctx.b.leaders_of(fs))
    if a.rail:
        if color not in (RED, WHITE) or not has_leader:
            return no_rail(color)
        if f.mode == "overland":
            return "004 [5.53]", "a force may not combine rail and overland movement"
        p = rails_ok(ctx, color, has_leader, f.start)
        if p:
            return p
        if a.to not in here.rail:
            return "004 [5.52]", f"no railway between {fs.province} and {a.to}"
        return anarchists.rail_problem(ctx, fs.province, a.to)
    if f.mode == "rail":
        return "004 [5.53]", "a force may not combine rail and overland movement"
    return spent_problem(ctx)


def spent_problem(ctx: Ctx) -> tuple[str, str] | None:
    """004 [5.28] for the force being moved overland: it has no Movement Point left for a step."""
    f = ctx.s.force
    ma = allowance(ctx, ctx.s.stacks[f.stack].units)
    if f.mode != "rail" and f.mp + 1 > ma:
        return "004 [5.28]", f"the force has spent all {ma} Movement Points"
    return None


# id of a ``links`` tuple -> (it, the same indexed by ``bit_length()``, the bit of each bit length,
# every province):
# what :meth:`Routes.search` reads for the top province of a layer, without a subtraction and a
# shift; the last is shared by every ``links`` of as many provinces (``_TOPS``)
_BY_TOP: dict[int, tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int]] = {}
_TOPS: dict[int, tuple[int, ...]] = {}


def _by_top(links: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """``links`` indexed by a province's ``bit.bit_length()`` (one more than its index), the
    province's bit by the same, and every province of the map (made once for each ``links``
    tuple)."""
    got = _BY_TOP.get(id(links))
    if got is None or got[0] is not links:
        if len(_BY_TOP) >= 64:
            _BY_TOP.clear()
        n = len(links)
        top = _TOPS.get(n)
        if top is None:
            top = _TOPS[n] = (0, *(1 << i for i in range(n)))
        got = _BY_TOP[id(links)] = (links, (0, *links), top, (1 << n) - 1)
    return got[1], got[2], got[3]


class Routes(Mapping[str, Route]):
    """What :func:`reach` finds: province -> :class:`~rcw.types.Route` (a read-only mapping, in
    the order the searches reach the provinces).  A search keeps, layer by layer, the provinces
    it reaches; a route is put together when it is first read: it goes on from the first (in code
    order) of the provinces of the layer before that the force may go on from."""

    __slots__ = ("_codes", "_bit", "_searches", "_all", "_made")

    def __init__(self, codes: tuple[str, ...], bit: Mapping[str, int]) -> None:
        self._codes, self._bit = codes, bit
        # per search: (by rail, links, provinces reached at each length, those it may go on from,
        # those it may end its move in)
        self._searches: list[tuple[bool, tuple[int, ...], list[int], list[int], int]] = []
        self._all = 0
        self._made: dict[str, Route] = {}

    def search(self, here: int, closed: int, stops: int, links: tuple[int, ...], steps: int | None,
               rail: bool, memo: dict | None = None, ends: int = -1, back: tuple[int, ...] | None = None) -> None:
        """Breadth first from the province ``here`` (a bit) along ``links``: every province not
        ``closed`` within ``steps`` provinces (None: no limit), never on from a province in
        ``stops`` (004 [5.27]: a force stops where it enters another colour).  ``memo``: the
        searches made so far (a search depends on nothing but its arguments).  ``ends``: the
        provinces it may end its move in (all: -1; 001 No Leader Suicide 3 passes others);
        ``back``: ``links`` turned round, when they are not the same both ways (a route is traced
        back from its end)."""
        if memo is not None:
            key = (here, closed, stops, id(links), steps)
            got = memo.get(key)
            if got is not None:
                reached_at, onward, found = got
                self._all |= found & ends
                self._searches.append((rail, links, reached_at, onward, ends))
                return
        above, top, every = _by_top(links)
        # (sets of provinces held as positive numbers: a negative one costs a copy at every & and |)
        unseen = start = every & ~(closed | here)   # the provinces not reached yet
        go = every & ~stops
        reached_at, onward = [here], [here]
        layer = here
        left = steps if steps is not None else len(links)    # (no search is longer than the map)
        while left > 0:
            reached = 0                             # the provinces next to those of the layer
            while layer:
                i = layer.bit_length()              # (its top province, from the top down)
                reached |= above[i]
                layer ^= top[i]
            reached &= unseen
            if not reached:
                break
            unseen ^= reached
            reached_at.append(reached)
            layer = reached & go
            onward.append(layer)
            if not layer:
                break
            left -= 1
        found = start ^ unseen
        self._all |= found & ends
        self._searches.append((rail, links if back is None else back, reached_at, onward, ends))
        if memo is not None:
            memo[key] = (reached_at, onward, found)

    def __getitem__(self, province: str) -> Route:
        route = self._made.get(province)
        if route is not None:
            return route
        b = self._bit.get(province, 0)
        if not b & self._all:
            raise KeyError(province)
        return self._trace(province, b)

    def _trace(self, province: str, b: int) -> Route:
        """The route to ``province`` (its bit ``b``, one the searches found), put together and kept."""
        best = 0                     # the first search's route unless a later one is strictly shorter
        for search in self._searches:
            if not search[4] & b:
                continue
            reached_at = search[2]
            stop = len(reached_at)
            if best and best < stop:
                stop = best
            for length in range(1, stop):
                if reached_at[length] & b:
                    best, rail, links, onward = length, search[0], search[1], search[3]
                    break
        codes = self._codes
        path = [province]
        i = b.bit_length() - 1
        for k in range(best - 1, 0, -1):
            via = links[i] & onward[k]
            i = (via & -via).bit_length() - 1
            path.append(codes[i])
        route = self._made[province] = {"path": path[::-1], "rail": rail}
        return route

    def get(self, province: str, default=None):      # type: ignore[override]
        """The route to ``province``, or ``default`` if the force cannot end its move there."""
        route = self._made.get(province)
        if route is not None:
            return route
        b = self._bit.get(province, 0)
        return self._trace(province, b) if b & self._all else default

    def __contains__(self, province: object) -> bool:
        try:
            return self._bit.get(province, 0) & self._all != 0       # (not a province's code: 0)
        except TypeError:                                            # (not even hashable)
            return False

    def __iter__(self):
        codes, done = self._codes, 0
        for _rail, _links, reached_at, _onward, ends in self._searches:
            for layer in reached_at[1:]:
                rest = layer & ends & ~done
                done |= rest
                while rest:
                    low = rest & -rest
                    yield codes[low.bit_length() - 1]
                    rest ^= low

    def __len__(self) -> int:
        return self._all.bit_count()

    @property
    def bits(self) -> int:
        """The provinces found, as a set of bits (``GameData.bit``)."""
        return self._all

    def __repr__(self) -> str:
        return f"Routes({dict(self)!r})"


def reach(ctx: Ctx, unit: int | None = None, mode: str = "") -> Routes:
    """Where a force can end its move this Movement Phase, with one route each (004 [5.2]-[5.5]):
    the moving force from where it stands (``unit`` None), or the force ``StartForce(unit)``
    would pick up (a leader with his attached units, or a Blue/Green stack) as if it moved now.
    ``mode`` ("rail", "overland"): a force that has not moved yet as if it moved that way (004
    [5.53]: one or the other, never both).

    Exactly the moves :func:`move_problem` allows: overland one province a Movement Point up to
    the allowance, or by rail without limit for a Red or White force with a leader that began in
    a rail province, never both (004 [5.53]); a force stops on entering a province held by
    another colour (004 [5.27], [13.23]; the postal option's start-of-turn colours; it may go
    back where it has been, 004 [5.0] forbids no province twice), never crosses the Kerch Straits unless White
    (004 [5.32]) and never takes Blue or Green units where they may not go (004 [5.65],
    [5.74]-[5.76]).  A route is overland unless rail is strictly shorter."""
    s, d = ctx.s, ctx.data
    units_of = d.units
    bit = d.bit
    if unit is None:
        f = s.force
        if f is None:
            raise ctx.illegal("004 [5.0]", "no force is being moved: name the unit that would start one", "no_force")
        fs = s.stacks[f.stack]
        units, here = list(fs.units), fs.province
        start, mode, mp = f.start, f.mode or mode, f.mp
        color = force_color(ctx, fs)
        seat, touched = fs.owner, f.touched
        if f.path and _blockers(ctx, f, fs):
            return Routes(d.codes, bit)         # (it must stop where it stands)
        has_leader = any(units_of[x].kind == "leader" for x in units)
        closed = 0
    else:
        st = ctx.b.stack_of(unit) if unit in units_of else None
        if st is None:
            raise ctx.illegal("004 [5.0]", f"{unit} is not on the map", "unknown_unit")
        u = units_of[unit]
        if u.kind == "leader":
            units = [unit] + ctx.b.attached_to(st, unit)
            lead, has_leader = unit, True
        elif u.color in (BLUE, GREEN, ANARCHIST) and not st.attached.get(unit):
            units = [x for x in st.units if units_of[x].kind != "leader"]
            lead, has_leader = next((x for x in units if units_of[x].kind != "imperial"), None), False
        else:
            raise ctx.illegal("004 [5.22]", "combat units move only with a leader of their colour (or as a Blue/Green force)")
        here = start = st.province
        mp = 0
        color = ctx.b.color_of(lead, st) if lead else ""
        closed = bit[here]
        seat, touched = st.owner, units
    has_czar = color == WHITE and d.czar in units
    memo = ctx.b.searches()                     # (forces that start alike search alike)
    # The colours in each province, read once a position (and for a force under way, judged
    # again where it left units behind: they never stop it).
    key = ("stops", color, has_czar)
    stops = memo.get(key)                       # provinces it must stop in, as a set of bits
    if stops is None:
        stop = frozenset((BLUE, color) if has_czar else (color,) if color != ANARCHIST else ())  # 004 [5.27], [13.23]
        stops = 0
        if s.options.get("postal_movement"):
            for p, cs in s.snapshot.items():
                if not frozenset(cs) <= stop:
                    stops |= bit[p]
        else:                                   # (the provinces holding a colour not in ``stop``)
            for c, b in ctx.b.color_bits().items():
                if c not in stop:
                    stops |= b
        memo[key] = stops
    left = [x for x in touched if x not in units] if unit is None else ()
    if left:
        for p in {st.province for st in map(ctx.b.stack_of, left) if st is not None}:
            if blocking_colors(ctx, p, color, has_czar, touched, f.stack):
                stops |= bit[p]
            else:
                stops &= ~bit[p]
    limited = [x for x in units if units_of[x].color in (BLUE, GREEN, ANARCHIST)]  # 004 [5.65], [5.74]-[5.76]; 001
    if limited:                                 # where its Blue/Green units may never go
        closed |= barred(ctx, limited)
    kerch = color != WHITE                      # 004 [5.32]: the Kerch Straits are closed to it

    out = Routes(d.codes, bit)
    ma = allowance(ctx, units)
    home = bit[here]
    by_rail = mode != "overland" and not rails_ok(ctx, color, has_leader, start)
    if by_rail:                                 # 001 Anarchists: rail movement disrupted where they are
        disrupted = anarchists.where_bits(ctx)
        by_rail = not disrupted & home
    if no_suicide.on(ctx) and no_suicide.alone(ctx, units):    # 001 No Leader Suicide 2, 3
        lo = no_suicide.of(ctx, seat, color, units, touched)
        closed |= lo.forbidden
        if lo.targets:
            if mode != "rail":
                toward, back = lo.toward(False)
                can = lo.distance(here) <= ma - mp       # (every step toward them costs one MP)
                ends = lo.targets | ~lo.onward(toward, closed, stops) if can else -1
                out.search(home, closed, stops, toward, ma - mp, False, None, ends, back)
            if by_rail:
                toward, back = lo.toward(True)
                out.search(home, closed | disrupted, stops, toward, None, True, None,
                           lo.targets | ~lo.onward(toward, closed, stops), back)
            return out
    if mode != "rail":
        out.search(home, closed, stops, d.adjacent_bits_not_white if kerch else d.adjacent_bits,
                   ma - mp, False, memo)
    if by_rail:                                 # (rail: no limit but the engine's, move_problem)
        out.search(home, closed | disrupted, stops, d.rail_bits_not_white if kerch else d.rail_bits,
                   None if unit is not None or not f.path else len(d.provinces) - len(f.path), True, memo)
    return out


def check_move(ctx: Ctx, a: Move) -> None:
    _mover(ctx, a.seat)
    _force(ctx)
    p = move_problem(ctx, a)
    if p:
        raise ctx.illegal(*p)


def do_move(ctx: Ctx, a: Move) -> list[Event]:
    f = ctx.s.force
    fs = ctx.s.stacks[f.stack]
    frm = fs.province
    fs.province = a.to
    f.path.append(a.to)
    anarchists.note_move(ctx, fs.units, a.to)          # (Makhno's Poland condition, 001 Anarchists)
    if a.rail:
        f.mode = "rail"
    else:
        f.mode = "overland"
        f.mp += 1
    ctx.b.invalidate()
    how = "by rail" if a.rail else f"overland ({f.mp} MP)"
    who = ctx.names(ctx.b.leaders_of(fs) or fs.units[:1])
    ev = [Event("move", f"{who} ({a.seat}) moves {frm}→{a.to} {how}",
                {"seat": a.seat, "from": frm, "to": a.to, "rail": a.rail, "stack": fs.id})]
    if _blockers(ctx, f, fs):           # (a line of its own in a log that sums the move up at its end)
        ev.append(Event("stop", f"{who} ({a.seat}) enters {a.to}, which holds units of another colour: "
                        "the force must stop there (004 [5.27])", {"province": a.to, "seat": a.seat}))
    return ev


def check_end_force(ctx: Ctx, a: EndForce) -> None:
    _mover(ctx, a.seat)
    _force(ctx)
    p = end_problem(ctx)
    if p:
        raise ctx.illegal(*p)


def end_problem(ctx: Ctx) -> tuple[str, str] | None:
    """Why the force being moved may not end its move where it stands (001 No Leader Suicide 2,
    3: :func:`rcw.rules.no_suicide.end_problem`), or None."""
    f = ctx.s.force
    if f is None or not no_suicide.on(ctx):
        return None
    return no_suicide.end_problem(ctx, ctx.s.stacks[f.stack], f.touched, bool(f.path), lambda: reach(ctx).bits)


def stacking_duties(ctx: Ctx, seat: str, first: bool = False) -> list[dict]:
    """001 No Leader Suicide 3: what ``seat``'s leaders alone must do before the Movement Phase
    ends (:func:`rcw.rules.no_suicide.duties`, with this module's reach; ``first``: the first)."""
    return no_suicide.duties(ctx, seat, lambda leader: reach(ctx, leader), first)


def finish_force(ctx: Ctx) -> list[Event]:
    f = ctx.s.force
    fs = ctx.s.stacks[f.stack]
    ctx.s.force = None
    route = "-".join([f.start] + f.path)
    ev = [Event("force_done", f"Force ends its move in {fs.province} (route {route})",
                {"stack": fs.id, "route": [f.start] + f.path})]
    return ev + no_suicide.stack_up(ctx, fs)            # 001 No Leader Suicide 3


def do_end_force(ctx: Ctx, a: EndForce) -> list[Event]:
    return finish_force(ctx)


# -- stacking, Imperial transfers and exits ------------------------------------------------------------
def check_merge(ctx: Ctx, a: Merge) -> None:
    if ctx.b.phasing() is not None and (ctx.b.phasing() != a.seat or ctx.s.phase != "movement"):
        raise ctx.illegal("004 [5.41]", "units are stacked or unstacked only in their owner's own Movement Phase",
                          "wrong_phase")
    _mover(ctx, a.seat)
    if ctx.s.force is not None:
        raise ctx.illegal("004 [5.0]", "end the force being moved first")
    s = ctx.s
    x, y = s.stacks.get(a.stack), s.stacks.get(a.into)
    if x is None or y is None or x.id == y.id:
        raise ctx.illegal("004 [7.0]", "name two different stacks", "unknown_stack")
    if x.owner != a.seat or y.owner != a.seat:
        raise ctx.illegal("004 [7.12]", "units controlled by different players never stack together")
    if x.province != y.province:
        raise ctx.illegal("004 [7.0]", "stacks merge only within one province")
    cx, cy = ctx.b.stack_color(x), ctx.b.stack_color(y)
    p = anarchists.alone_problem(ctx, x, y)
    if p:
        raise ctx.illegal(*p)
    if cx != cy:
        raise ctx.illegal("004 [7.13]", "different colours never stack together")
    nx = {ctx.data.units[u].nationality for u in x.units if ctx.data.units[u].is_combat and ctx.data.units[u].color in (BLUE, GREEN) and not x.attached.get(u)}
    ny = {ctx.data.units[u].nationality for u in y.units if ctx.data.units[u].is_combat and ctx.data.units[u].color in (BLUE, GREEN) and not y.attached.get(u)}
    if len(nx | ny) > 1:
        raise ctx.illegal("004 [7.14]", "Blue or Green units of different nationalities never stack together")
    if len(ctx.b.fighting_units(x)) + len(ctx.b.fighting_units(y)) > STACK_LIMIT:
        raise ctx.illegal("004 [7.11]", "a stack holds at most 5 combat and leader units")
    for imp in (ctx.data.czar, ctx.data.gold):
        if imp in x.units and imp in y.units:
            raise ctx.illegal("004 [7.11]", "a stack holds at most one of each Imperial unit")
    if (ctx.b.leaders_of(x) or ctx.b.leaders_of(y)) and cx in (BLUE, GREEN):
        raise ctx.illegal("004 [7.13]", "Blue/Green units never stack with leaders")


def do_merge(ctx: Ctx, a: Merge) -> list[Event]:
    s = ctx.s
    x, y = s.stacks[a.stack], s.stacks[a.into]
    y.units += x.units
    y.attached.update(x.attached)
    del s.stacks[x.id]
    ctx.b.invalidate()
    ctx.tidy(y)
    return [Event("merge", f"{a.seat} stacks {ctx.names(x.units)} with {ctx.names(y.units[:1])} in {y.province}",
                  {"stack": a.into})]


def check_transfer(ctx: Ctx, a: TransferImperial) -> None:
    _mover(ctx, a.seat)
    d = ctx.data
    if a.unit not in (d.czar, d.gold):
        raise ctx.illegal("004 [13.15]", "only the Czar and the Gold are transferred")
    st = ctx.b.stack_of(a.unit)
    to = ctx.s.stacks.get(a.to_stack)
    if st is None or st.owner != a.seat:
        raise ctx.illegal("004 [13.15]", f"{a.seat} does not control the {d.units[a.unit].name}")
    if a.unit in ctx.s.moved:
        raise ctx.illegal("004 [13.15]", "an Imperial unit that moved this phase may not be transferred")
    if to is None or to.owner != a.seat or to.id == st.id:
        raise ctx.illegal("004 [13.15]", "transfer to another force you control", "unknown_stack")
    if d.provinces[to.province].region != d.provinces[st.province].region:
        raise ctx.illegal("004 [13.15]", "transfers stay within one region")
    if a.unit in to.units or (a.leader and a.leader not in ctx.b.leaders_of(to)) or (not a.leader and ctx.b.leaders_of(to)):
        raise ctx.illegal("004 [13.21]", "name a leader of the receiving force (0 for a Blue/Green force)")
    if ctx.s.force is not None and ctx.s.force.stack in (st.id, to.id):
        raise ctx.illegal("004 [13.15]", "not while that force is moving")
    p = anarchists.alone_problem(ctx, to)
    if p:
        raise ctx.illegal(*p)


def do_transfer(ctx: Ctx, a: TransferImperial) -> list[Event]:
    st = ctx.b.stack_of(a.unit)
    frm = st.province
    to = ctx.s.stacks[a.to_stack]
    ctx.take(a.unit)
    ctx.put(a.unit, to, a.leader)
    to.attached[a.unit] = a.leader
    ctx.s.imperial_moved.append(a.unit)
    ctx.s.moved.append(a.unit)
    return [Event("transfer", f"The {ctx.name(a.unit)} is transferred from {frm} to {to.province}", {"unit": a.unit})]


def check_emigrate(ctx: Ctx, a: Emigrate) -> None:
    _mover(ctx, a.seat)
    d = ctx.data
    if a.unit not in (d.czar, d.gold):
        raise ctx.illegal("004 [13.31]", "only Imperial units emigrate")
    st = ctx.b.stack_of(a.unit)
    if st is None or st.owner != a.seat:
        raise ctx.illegal("004 [13.31]", f"{a.seat} does not control the {d.units[a.unit].name}")
    if not d.provinces[st.province].port:
        raise ctx.illegal("004 [13.32]", f"{st.province} has no port")
    p = anarchists.port_problem(ctx, st.province)
    if p:
        raise ctx.illegal(*p)


def do_emigrate(ctx: Ctx, a: Emigrate) -> list[Event]:
    st = ctx.b.stack_of(a.unit)
    prov = st.province
    ctx.take(a.unit)
    ctx.to_chart(a.unit, a.seat, face_up=False)           # 004 [14.46]
    ctx.bump("emigrations")
    return [Event("emigrate", f"The {ctx.name(a.unit)} leaves Russia from {prov} ({a.seat}, face-down on the VP chart)",
                  {"unit": a.unit, "seat": a.seat})]


def check_czech_exit(ctx: Ctx, a: CzechExit) -> None:
    _mover(ctx, a.seat)
    d = ctx.data
    u = d.units.get(a.unit)
    if u is None or u.color != BLUE or u.nationality != "CZ":
        raise ctx.illegal("004 [5.66]", "only Czech units leave the map this way")
    if ctx.s.force is not None:         # (a force left without its last unit would be moved no more)
        raise ctx.illegal("004 [5.0]", "end the force being moved first")
    st = ctx.b.stack_of(a.unit)
    if st is None or st.owner != a.seat:
        raise ctx.illegal("004 [5.61]", f"{a.seat} does not control {u.label}")
    if st.province != d.czech_exit:
        raise ctx.illegal("004 [5.66]", f"Czech units leave only from {d.czech_exit}")
    p = anarchists.port_problem(ctx, st.province)
    if p:
        raise ctx.illegal(*p)


def do_czech_exit(ctx: Ctx, a: CzechExit) -> list[Event]:
    ctx.take(a.unit)
    ctx.to_chart(a.unit, a.seat, face_up=False)           # 004 [14.45]
    return [Event("czech_exit", f"{ctx.name(a.unit)} leaves from Vladivostok ({a.seat}, face-down)", {"unit": a.unit})]


# -- candidates for legal_actions ------------------------------------------------------------------------
def candidates(ctx: Ctx, seat: str) -> list[Action]:
    s, d = ctx.s, ctx.data
    out: list[Action] = [EndMovement(seat)]
    mine = [st for st in s.stacks.values() if st.owner == seat]
    if s.force is None:
        for st in mine:
            for u in st.units:
                uu = d.units[u]
                if uu.is_leader or (uu.color in (BLUE, GREEN, ANARCHIST) and u == st.units[0]):
                    out.append(StartForce(seat, u))
        for x in mine:
            for y in mine:
                if x.id < y.id and x.province == y.province:
                    out.append(Merge(seat, x.id, y.id))
        for st in mine:
            for imp in (d.czar, d.gold):
                if imp in st.units:
                    if d.provinces[st.province].port:
                        out.append(Emigrate(seat, imp))
                    for to in mine:
                        if to.id != st.id and d.provinces[to.province].region == d.provinces[st.province].region:
                            for lead in ctx.b.leaders_of(to) or [0]:
                                out.append(TransferImperial(seat, imp, to.id, lead))
            for u in st.units:
                if d.units[u].nationality == "CZ" and d.units[u].color == BLUE:
                    out.append(CzechExit(seat, u))
        return out + historical.evacuation_candidates(ctx, seat)
    f, fs = s.force, s.stacks[s.force.stack]
    out.append(EndForce(seat))
    leaders = ctx.b.leaders_of(fs)
    for st in ctx.b.stacks_in(fs.province):
        if st.id == fs.id:
            continue
        for u in st.units:
            uu = d.units[u]
            if uu.is_leader:
                if st.owner == seat and not f.path:
                    out.append(JoinForce(seat, u))
            else:
                for lead in leaders or [0]:
                    out.append(Attach(seat, u, lead))
    for u in fs.units:
        out.append(Detach(seat, u))
    for n in sorted(d.provinces[fs.province].adjacent):
        out.append(Move(seat, n, False))
        if n in d.provinces[fs.province].rail:
            out.append(Move(seat, n, True))
    for imp in (d.czar, d.gold):
        if imp in fs.units and d.provinces[fs.province].port:
            out.append(Emigrate(seat, imp))
    return out


__all__ = ["candidates", "UNASSIGNED"]
