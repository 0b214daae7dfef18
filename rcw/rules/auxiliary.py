"""The optional forces of 001 in the Auxiliary Forces Randomizer (004 [12.13]), and what they
share: their chits, the ``place`` decision, what happens when they are eliminated and at the
end of a Game-Turn.  Each force's own rules are in its module (:mod:`rcw.rules.anarchists`).

Chits (``State.aux``) beyond 004's: ``"U:<id>"`` - an optional unit itself in the Randomizer
(the small Anarchist units, 001 Anarchists; the Shock Armies, 001 Shock Armies); ``"AN"`` - the
Anarchist Control Marker; ``"BC:FK"``, ``"WD:FK"`` - the Freikorps' Control and Out markers
(001 Freikorps), Blue markers of their own nationality.

The ``place`` decision (answered with :class:`~rcw.actions.PlaceUnit`): the drawer of a unit
that he places where he chooses is asked where, like the redraw decision of 004 [12.13]:
``{kind: "place", seat, unit, chit, provinces: [...], leaders: [...], after}`` (``provinces``
or ``leaders`` lists the legal answers; ``after`` as in :func:`rcw.rules.randomizer.draw`).
"""

from __future__ import annotations

from rcw import options as O
from rcw.actions import Event, PlaceUnit
from rcw.rules import anarchists, freikorps, roving, shock_armies
from rcw.rules.base import ELIMINATION_RULES, Ctx

#: The counters of ``Game.stats`` each optional force reports (set to 0 when the game starts
#: with the option, so that summaries show them).
STATS: dict[str, tuple[str, ...]] = {
    "anarchists": ("roving_attacks", "makhno_returns", "anarchist_control", "anarchists_placed"),
    "shock_armies": ("shock_armies_placed", "shock_armies_returned"),
    "freikorps": ("freikorps_placed", "freikorps_out"),
    "additional_draws": ("extra_draws",),
}


def forces_on(ctx: Ctx) -> list[str]:
    """The optional-force options this game is played with."""
    return [name for name in STATS if O.value(ctx.s.options, name)]


def deploy(ctx: Ctx) -> list[Event]:
    """004 [15.23] with the optional forces: what they put on the map and in the Randomizer."""
    ev: list[Event] = []
    for name in forces_on(ctx):
        for k in STATS[name]:
            ctx.s.stats.setdefault(k, 0)
    if anarchists.on(ctx):
        ev += anarchists.deploy(ctx)
    if shock_armies.on(ctx):
        ev += shock_armies.deploy(ctx)
    if freikorps.on(ctx):
        ev += freikorps.deploy(ctx)
    return ev


# -- drawing ----------------------------------------------------------------------------------------
def resolve(ctx: Ctx, seat: str, chit: str, after: str) -> tuple[bool, list[Event]] | None:
    """Apply a chit of an optional force (None: not one of theirs): (may the drawer draw
    again?, events), as :func:`rcw.rules.randomizer.resolve`.  A unit placed by choice asks
    its drawer where (the ``place`` decision)."""
    if chit == anarchists.CHIT:
        return False, anarchists.take_control(ctx, seat)
    if freikorps.on(ctx) and chit in freikorps.markers(ctx):
        if chit == freikorps.markers(ctx)[1]:
            out = freikorps.out_drawn(ctx, seat)
            return None if out is None else (False, out)
        if not freikorps.waiting(ctx):
            return None                                 # 004 [12.13] 2, as for any Blue force
        ev, choose = freikorps.control_drawn(ctx, seat)
        if choose:
            ev += ask(ctx, seat, freikorps.unit(ctx), chit, after, provinces=list(freikorps.PROVINCES))
        return False, ev
    if not chit.startswith("U:"):
        return None
    uid = int(chit[2:])
    if anarchists.is_anarchist(ctx, uid):
        return False, ask(ctx, seat, uid, chit, after, provinces=anarchists.placements(ctx))
    if shock_armies.is_shock(ctx, uid):
        leaders = shock_armies.leaders_for(ctx, uid)
        if not leaders:
            return False, shock_armies.no_leader(ctx, seat, uid, chit)
        return False, ask(ctx, seat, uid, chit, after, leaders=leaders)
    raise AssertionError(f"no rule draws {chit}")


def ask(ctx: Ctx, seat: str, uid: int, chit: str, after: str, provinces: list[str] | None = None,
        leaders: list[int] | None = None) -> list[Event]:
    """Suspend play on the drawer's ``place`` decision: where ``uid`` goes."""
    ctx.s.decision = {"kind": "place", "seat": seat, "unit": uid, "chit": chit, "provinces": list(provinces or []),
                      "leaders": list(leaders or []), "after": after}
    where = "in a province" if provinces else "with a leader"
    if freikorps.is_freikorps(ctx, uid):
        return [Event("place_offered", f"{seat} chooses where the Freikorps lands (001 Freikorps: a 6)",
                      {"seat": seat, "chit": chit, "unit": uid})]
    return [Event("drew", f"{seat} draws {ctx.name(uid)} from the Auxiliary Forces Randomizer and places it {where}",
                  {"seat": seat, "chit": chit, "unit": uid})]


def check_place(ctx: Ctx, a: PlaceUnit) -> None:
    d = ctx.require_decision(a.seat, "place", "001 Optional Forces", "no unit is being placed now",
                             "{owner} places the unit drawn")
    rule = _rule(ctx, d["unit"])
    if d["provinces"]:
        if a.leader or a.province not in d["provinces"]:
            raise ctx.illegal(rule, f"{ctx.name(d['unit'])} may be placed in {', '.join(d['provinces'])} only")
    elif a.province or a.leader not in d["leaders"]:
        raise ctx.illegal(rule, f"{ctx.name(d['unit'])} is placed with one of the leaders listed")


def place(ctx: Ctx, a: PlaceUnit) -> list[Event]:
    """Place the unit drawn (the draw's end is :func:`rcw.rules.sequence.do_place`)."""
    s = ctx.s
    d = s.decision
    s.decision = None
    uid = d["unit"]
    if anarchists.is_anarchist(ctx, uid):
        anarchists.place(ctx, uid, a.province, a.seat)
        ctx.bump("anarchists_placed")
        ev = [Event("placed", f"{a.seat} places {ctx.name(uid)} in {ctx.data.provinces[a.province].name} (001 Anarchists)",
                    {"seat": a.seat, "unit": uid, "province": a.province})]
    elif shock_armies.is_shock(ctx, uid):
        attached, province = shock_armies.place(ctx, uid, a.leader)
        ctx.bump("shock_armies_placed")
        how = "attached to" if attached else "in the stack of (he has no room to attach it)"
        ev = [Event("placed", f"{a.seat} places {ctx.name(uid)} {how} {ctx.name(a.leader)} in {province} (001 Shock Armies)",
                    {"seat": a.seat, "unit": uid, "leader": a.leader, "province": province, "attached": attached})]
    elif freikorps.is_freikorps(ctx, uid):
        ev = freikorps.place(ctx, a.seat, a.province)
    else:
        raise AssertionError(f"no rule places {uid}")
    return ev


def decision_candidates(ctx: Ctx, seat: str) -> list[PlaceUnit]:
    """The answers to a ``place`` decision."""
    d = ctx.s.decision
    if d is None or d["seat"] != seat or d.get("kind") != "place":
        return []
    return [PlaceUnit(seat, province=p) for p in d["provinces"]] + [PlaceUnit(seat, leader=x) for x in d["leaders"]]


def _rule(ctx: Ctx, uid: int) -> str:
    if anarchists.is_anarchist(ctx, uid):
        return anarchists.RULE
    return shock_armies.RULE if shock_armies.is_shock(ctx, uid) else freikorps.RULE


# -- elimination and the end of a Game-Turn -----------------------------------------------------------
def eliminated(ctx: Ctx, uid: int, turn: int, why: str, events: list[Event]) -> bool:
    """An optional unit eliminated in Game-Turn ``turn``: True when its own rules placed it
    (back into the Randomizer, or Makhno to the unassigned section); False: the usual rules."""
    if anarchists.is_anarchist(ctx, uid):
        return anarchists.eliminated(ctx, uid, turn, why, events)
    if shock_armies.is_shock(ctx, uid):
        return shock_armies.eliminated(ctx, uid, turn, why, events)
    return False


ELIMINATION_RULES.append(eliminated)


def replacement_segment(ctx: Ctx) -> list[Event]:
    """What the optional forces do in the Replacement Segment (004 [4.2] B.2)."""
    return anarchists.replacement_segment(ctx) if anarchists.on(ctx) else []


def end_of_game_turn(ctx: Ctx, turn: int) -> list[Event]:
    """What follows the Replacement Segment of Game-Turn ``turn``: Makhno's Roving Attack."""
    return roving.roving_attack(ctx, turn) if anarchists.on(ctx) else []


def in_reserve(ctx: Ctx) -> list[int]:
    """The optional units waiting in the Auxiliary Forces Randomizer: by their own chits, and the
    Freikorps until its Control or Out marker is drawn."""
    out = [int(c[2:]) for c in ctx.s.aux if c.startswith("U:")]
    if freikorps.on(ctx) and freikorps.waiting(ctx):
        out.append(freikorps.unit(ctx))
    return sorted(out)
