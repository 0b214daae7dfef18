"""The Gamesmaster's hands (004 [17.0]): every written order is carried out as the multi-player
game's own actions, checked and applied by the multi-player rule functions, and every decision
the live game would put to a player out of turn is answered from the orders on his sheet or,
where he wrote none, by a documented default - "the GM ... will act as an adjudicator"
without asking anyone.

=================  ==========================================================================
decision           answer
=================  ==========================================================================
``loss``           004 [8.44]: the owner's written order of sacrifice (the attack order's
                   ``losses`` for the attacker's own units, else his standing ``losses``
                   order), the first listed unit still owed; without one, the engine's least
                   loss (``Game.minimum_loss``: combat units before leaders, the smallest total)
``capture``        004 [13.41]: captured (the first stack that fought, its top leader) unless a
                   ``capture`` order with ``accept`` false is on file
``redraw``         004 [12.13]: the ``redraw`` order; without one the marker is kept (as the
                   Bell's players did)
``place``          001 Optional Forces (the options ``anarchists``, ``shock_armies``, ``freikorps``):
                   the ``place`` order's first listed province or leader that the decision
                   offers; without one, the first place the decision offers
``spoils``         004 [11.21]-[11.23]: the taker's purge order's ``take`` list (Red leaders, 0
                   a Politburo marker), its first item the rules allow; then (or without one)
                   the most valuable leader the rules allow (lowest id on ties), else a
                   Politburo marker, else nothing more
``counterpurge``   postal [11.0]: the purged player's ``counterpurge`` order ("strongest" or
                   "weakest" participant, by Purge Strength, or a seat); "If no such orders are
                   submitted, no Counterpurge is conducted"
``execution``      postal [13.5]: the Czar's holder's ``comply_execution`` order; without one the
                   order waits for his next sheet (:mod:`rcw.postal.politics`)
=================  ==========================================================================

Purge approvals and the consents to an execution order never come up: those orders are
carried out only when every participant wrote a compatible one (postal [11.0], [13.5]).
"""

from __future__ import annotations

from rcw import actions as A
from rcw.actions import Action, Event, IllegalAction
from rcw.game import HANDLERS
from rcw.postal.base import book
from rcw.postal.sheets import standing
from rcw.rules import combat, politics
from rcw.rules.base import Ctx

STOP = ("execution", "vote")         # decisions the caller settles (postal [13.5], 004 [14.1])


def do(ctx: Ctx, action: Action) -> list[Event]:
    """Check and apply one multi-player action (raises :class:`IllegalAction` and changes
    nothing if the rules refuse it)."""
    check, act = HANDLERS[type(action)]
    check(ctx, action)
    ev = act(ctx, action)
    ctx.b.invalidate()
    return ev


def sheet(ctx: Ctx, seat: str) -> list:
    return book(ctx).get("sheets", {}).get(seat, [])


def answer(ctx: Ctx, losses: dict[str, list[int]] | None = None) -> list[Event]:
    """Answer the decisions the last action opened until play needs none (or one of
    :data:`STOP`).  ``losses``: orders of sacrifice that come before the standing ones (an
    attack order's own)."""
    ev: list[Event] = []
    for _ in range(1000):
        d = ctx.s.decision
        if d is None or d["kind"] in STOP:
            return ev
        ev += do(ctx, _answer(ctx, d, losses or {}))
    raise RuntimeError("the Gamesmaster's answers do not end")          # (never: each answer moves on)


def answer_one(ctx: Ctx) -> list[Event]:
    """Answer the decision play waits for, once, as the Gamesmaster would."""
    return do(ctx, _answer(ctx, ctx.s.decision, {}))


def legal(ctx: Ctx, action: Action) -> bool:
    """Whether the rules take ``action`` now (its check alone: nothing changes)."""
    try:
        HANDLERS[type(action)][0](ctx, action)
    except IllegalAction:
        return False
    return True


def _first_ok(ctx: Ctx, cands: list[Action]) -> Action | None:
    return next((a for a in cands if legal(ctx, a)), None)


def _answer(ctx: Ctx, d: dict, losses: dict[str, list[int]]) -> Action:
    seat, kind = d["seat"], d["kind"]
    mine = sheet(ctx, seat)
    if kind == "loss":
        prefer = losses.get(seat) or (standing(mine, "losses") or {}).get("prefer", [])
        unit = next((u for u in prefer if u in d["units"]), None)
        if unit is None:
            unit = combat.minimum_loss(ctx, seat)[0]
        return A.ChooseLoss(seat, unit)
    if kind == "capture":
        o = standing(mine, "capture")
        cands = combat.decision_candidates(ctx, seat)
        if o is None or o["accept"]:
            got = _first_ok(ctx, [a for a in cands if isinstance(a, A.CaptureImperial)])
            if got is not None:
                return got
        return A.DeclineCapture(seat)
    if kind == "redraw":
        o = standing(mine, "redraw")
        return A.RedrawChit(seat, bool(o and o["redraw"]))
    if kind == "place":
        o = standing(mine, "place") or {"provinces": [], "leaders": []}
        p = next((x for x in o["provinces"] if x in d["provinces"]), None)
        x = next((x for x in o["leaders"] if x in d["leaders"]), None)
        if p is None and x is None:
            p, x = (d["provinces"][0], None) if d["provinces"] else (None, d["leaders"][0])
        return A.PlaceUnit(seat, province=p) if p is not None else A.PlaceUnit(seat, leader=x)
    if kind == "spoils":
        return _spoil(ctx, seat, d, mine)
    if kind == "counterpurge":
        return A.Counterpurge(seat, counter_target(ctx, mine, d["options"]))
    if kind == "purge_approval":
        return A.ApprovePurge(seat, True)
    if kind == "purge_orders":
        return A.PassPurge(seat)
    if kind == "execution_consent":
        return A.OrderExecution(seat, True)
    raise RuntimeError(f"no answer for a {kind} decision")               # (never: STOP covers the rest)


def _spoil(ctx: Ctx, seat: str, d: dict, mine: list) -> Action:
    target = d["purge"]["target"]
    take = next((o["take"] for _, o in mine if o["order"] == "purge" and o["target"] == target), [])
    got = _first_ok(ctx, [A.TakeSpoil(seat, x) for x in take])
    if got is not None:
        return got
    units = ctx.data.units
    leaders = sorted(politics.purgeable_leaders(ctx, target), key=lambda u: (-units[u].strength, u))
    got = _first_ok(ctx, [A.TakeSpoil(seat, x) for x in leaders] + [A.TakeSpoil(seat, 0)])
    return got or A.EndSpoils(seat)


def counter_target(ctx: Ctx, mine: list, options: list[str]) -> str:
    """postal [11.0]: the purger a ``counterpurge`` order names among ``options`` ('' for none)."""
    o = standing(mine, "counterpurge")
    if o is None or not options:
        return ""
    t = o["target"]
    if t in ("strongest", "weakest"):
        sign = -1 if t == "strongest" else 1
        return min(options, key=lambda p: (sign * politics.purge_strength(ctx, [p]), options.index(p)))
    return t if t in options else ""
