"""004 [11.0] Purge and the Central Committee of the Politburo, [13.5] execution of the Czar.

Everything here goes through ``Game.legal_actions`` / ``apply`` / ``pending``: a purge is a
chain of small decisions held in ``State.decision`` (which suspends all other play, 004 [11.0]
Procedure), each owned by one seat.

**The Central Committee** (004 [11.1]).  ``JoinCommittee(members)`` records a seat's consent to
a Committee of exactly those members (``State.committee_consent``).  The Committee is the set
of active players who all consent to that same set and together hold at least eight
Politburo markers; it is recomputed after every action (``State.committee``), so it dissolves
when its members fall below eight markers (a trade, a purge, Lenin's death) and re-forms
when they hold eight again.  ``LeaveCommittee`` withdraws a consent (004 [11.12]); the other
members' consents then name the remaining members, who go on as the Committee if they
still hold eight markers.  A player who quits is treated as withdrawing.

**Declaring a purge** (004 [11.0] General Rule and Procedure).  At any time during the
Player-Turn series, by any member, phasing or not, while play is not suspended by another
decision, a moving force or an attack being assembled: ``DeclarePurge(target, purgers,
shares)`` against a non-member (004 [11.14]); no member takes part in more than one purge
per Game-Turn (004 [11.13]; counterpurges do not count).

- *Group purge*: ``purgers`` is the whole Committee and ``shares`` the agreed, binding
  division (004 [11.23]): the k-th purged point goes to ``shares[k % len(shares)]``, so the
  list of members in some order means "as equally as possible, in this order" (the Bell #3
  order "D takes the first point, A the second, B the third" is ``shares=(D, A, B)``).
  Every other member must then ``ApprovePurge`` it (decision ``purge_approval``, in turn
  order); one refusal calls it off (004 [11.0]: then they may only purge individually).
- *Individual purge*: ``purgers == (seat,)``.  Individual purges are resolved in the order of
  the members' Player-Turns (004 [11.0] Procedure), so they are collected first: every
  other member who has not purged this Game-Turn is asked, in turn order, to declare his own
  individual purge or ``PassPurge`` (decision ``purge_orders``); then they are resolved one
  after the other in Player-Turn order, each with the Purge Strength of that moment.
- Ill-formed orders are refused as the Gamesmaster of The Bell #3 refused them: purgers not
  specified, a group purge with no division of spoils, a conditional order.

**Resolution.**  Purge Strength = values of the Red leaders on the map controlled by the
purgers + their Politburo markers (doubled for a counterpurger, 004 [11.24]); two dice on
the Purge Table (004 [11.4]).

- *Number*: the purgers take spoils one item at a time (decision ``spoils``: ``TakeSpoil``
  a Red leader on the map controlled by the purged player, with its attached combat and
  Imperial units, split off as a new stack under the taker (004 [11.21]); or ``TakeSpoil(0)``
  a Politburo marker costing 2 points (004 [11.22]); ``EndSpoils`` to take no more).  Taking is
  optional and never exceeds the points.  In a group purge the members take in the agreed
  order, and a take is legal only if the division can still end as close to the agreement
  as any division could (see :func:`_closest`): this is our reading of "distributed according
  to the original agreement to the greatest possible extent" (004 [11.23]).  Its example: A, B,
  C share a 2 equally in that order; A and B each take a value-1 leader, C nothing; a
  Politburo marker (2 points to one member) is refused because the 1-1 split was possible.
  When no exact split exists, the division closest to the agreement is allowed (e.g. only a
  value-2 leader for shares 1-1: the first in order may take it).
- *C*: the purged player may ``Counterpurge`` one purger or decline (``Counterpurge('')``,
  004 [11.26]); from then on only those two are involved (004 [11.25]), each C handing the
  choice to the player just counterpurged, until a number result or a refusal.  The winner
  of a number result in a counterpurge takes his spoils freely (004 [11.27]).

**Execution of the Czar** (004 [13.5]).  While the Czar is attached to a Red leader, a member
of a Committee holding at least ten markers may propose an order (``OrderExecution``); the
other members are asked in turn order (``OrderExecution(consent=...)``, decision
``execution_consent``) until the consenting members hold ten markers (004 [13.52]) — we read
the consenting "Player(s)" as Committee members.  The Czar's holder then ``AnswerExecution``
(decision ``execution``): complying puts the Czar face up in his section of the Victory Point
Chart (004 [13.54]); refusing leaves it.  Orders are unlimited (004 [13.57]).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product

from rcw.actions import (
    Action,
    AnswerExecution,
    ApprovePurge,
    Counterpurge,
    DeclarePurge,
    EndSpoils,
    Event,
    JoinCommittee,
    LeaveCommittee,
    OrderExecution,
    PassPurge,
    TakeSpoil,
)
from rcw.data import RED
from rcw.rules import masses
from rcw.rules.base import Ctx, counted
from rcw.state import copy_plain
from rcw.words import committee_of, listed

TERROR = "004 critique (DeBaun)"   # the Red Terror (option red_terror, rcw.rules.historical)
COMMITTEE_MARKERS = 8          # 004 [11.11]
EXECUTION_MARKERS = 10         # 004 [13.52]
MARKER_COST = 2                # 004 [11.22]
SERIES = ("random_events", "movement", "combat", "randomizer")
KINDS = ("purge_approval", "purge_orders", "spoils", "counterpurge", "execution_consent", "execution", "red_terror")


# -- reading the state ---------------------------------------------------------------------------
def _pm(ctx: Ctx, seats) -> int:
    return sum(ctx.s.politburo.get(p, 0) for p in seats)


def _canon(ctx: Ctx, seats) -> list[str]:
    return [p for p in ctx.s.seats if p in set(seats)]


def _by_turn(ctx: Ctx, seats) -> list[str]:
    """Seats in the order of their Player-Turns this Game-Turn (004 [11.0] Procedure).  With 001's
    drawn turn order (the option ``drawn_turn_order``) the players not drawn yet follow those
    drawn, in table order: no one knows their turns yet."""
    order = list(ctx.s.order) + [p for p in ctx.s.seats if p not in ctx.s.order]
    return sorted(set(seats), key=order.index)


def committee(ctx: Ctx) -> list[str]:
    """004 [11.11]: the active players who all consent to exactly each other's membership
    and together hold at least eight Politburo markers (at most one such set exists)."""
    s = ctx.s
    for members in sorted({tuple(v) for v in s.committee_consent.values()}):
        if (members and all(s.committee_consent.get(p) == list(members) for p in members)
                and not any(p in s.quit or p not in s.seats for p in members)
                and _pm(ctx, members) >= COMMITTEE_MARKERS):
            return list(members)
    return []


def purged(ctx: Ctx) -> list[str]:
    """Players who have taken part in a purge this Game-Turn (004 [11.13])."""
    s = ctx.s
    return list(s.purged_this_turn) if s.purge_turn == s.turn else []


def leadership(ctx: Ctx, seat: str) -> int:
    """Values of the Red leaders on the map that ``seat`` controls (004 [11.0] Procedure)."""
    return sum(ctx.data.units[u].strength for st in ctx.s.stacks.values() if st.owner == seat
               for u in st.units if ctx.data.units[u].is_leader and ctx.data.units[u].color == RED)


def purge_strength(ctx: Ctx, purgers, counter: bool = False, markers: dict[str, int] | None = None) -> int:
    """004 [11.0] Procedure; a counterpurger doubles his Politburo markers (004 [11.24]).
    ``markers``: the markers each purger assigned to the purge, where fewer than all count (the
    postal game's purge orders, 004 [17.0] postal [11.0])."""
    return sum(leadership(ctx, p) + _markers(ctx, p, markers) * (2 if counter else 1) for p in purgers)


def _markers(ctx: Ctx, seat: str, assigned: dict[str, int] | None) -> int:
    held = ctx.s.politburo.get(seat, 0)
    return held if assigned is None else min(held, assigned.get(seat, 0))


def purgeable_leaders(ctx: Ctx, victim: str) -> list[int]:
    """004 [11.21], [11.31]: Red leaders on the map controlled by the purged player."""
    out = [u for st in ctx.s.stacks.values() if st.owner == victim for u in st.units if is_red_leader(ctx, u)]
    out.sort()
    return out


def is_red_leader(ctx: Ctx, unit: object) -> bool:
    """004 [11.31]: what may be taken as spoils, besides Politburo markers, is a Red leader."""
    u = ctx.data.units.get(unit) if isinstance(unit, int) else None
    return u is not None and u.kind == "leader" and u.color == RED


def czar_holder(ctx: Ctx) -> str | None:
    """004 [13.53]: the player whose Red leader has the Czar attached, if any."""
    czar = ctx.data.czar
    st = ctx.b.stack_of(czar)
    if st is None or st.owner is None:
        return None
    lead = st.attached.get(czar)
    if not lead or lead not in st.units or ctx.data.units[lead].color != RED:
        return None
    return st.owner


TWO_DICE = {t: 6 - abs(t - 7) for t in range(2, 13)}    # ways of rolling each total with two dice (of 36)


def purge_odds(ctx: Ctx, purgers, counter: bool = False) -> dict:
    """What a purge by ``purgers`` may bring (004 [11.0] Procedure, [11.4]): their Purge
    Strength (a counterpurger's markers doubled, 004 [11.24]), the Purge Table column, and for
    each two-dice total its result and how many of the 36 rolls give it."""
    strength = purge_strength(ctx, purgers, counter)
    col = ctx.data.purge_column(strength)
    rows = [{"roll": t, "result": ctx.data.tables.purge[t - 2][col], "ways": TWO_DICE[t]} for t in range(2, 13)]
    points = [r for r in rows if r["result"] != "C"]
    return {"strength": strength, "column": ctx.data.tables.purge_columns[col], "rows": rows,
            "counterpurge": sum(r["ways"] for r in rows if r["result"] == "C") / 36,
            "expected_points": sum(r["ways"] * int(r["result"]) for r in points) / 36,
            "nothing": sum(r["ways"] for r in points if int(r["result"]) == 0) / 36}


def assassination_need(ctx: Ctx, victim: int, markers: int) -> int:
    """004 [10.0]: the least two-dice total with which ``markers`` Assassin markers kill ``victim``
    (two dice, plus one a marker beyond the first, minus the leader's value, at least the table's number)."""
    return ctx.data.tables.assassination_success - (markers - 1) + ctx.data.units[victim].strength


def assassination_chance(ctx: Ctx, victim: int, markers: int) -> float:
    """004 [10.0]: the chance that ``markers`` Assassin markers kill ``victim`` (two dice, plus
    one a marker beyond the first, minus the leader's value, at least the table's number)."""
    need = assassination_need(ctx, victim, markers)
    return sum(w for t, w in TWO_DICE.items() if t >= need) / 36


def _decision(ctx: Ctx) -> dict | None:
    d = ctx.s.decision
    return d if d is not None and d.get("kind") in KINDS else None


def _free(ctx: Ctx, rule: str, what: str) -> None:
    """Politics that suspend play may start only during the Player-Turn series, when nothing
    else is being decided, moved or attacked (004 [11.0] General Rule)."""
    s = ctx.s
    if s.phase not in SERIES:
        raise ctx.illegal(rule, f"{what} only during the Player-Turn series (phase {s.phase})", "wrong_phase")
    if s.decision is not None:
        raise ctx.illegal(rule, f"waiting for {s.decision['seat']} to decide ({s.decision['kind']})", "decision_pending")
    if s.force is not None:
        raise ctx.illegal(rule, "a force is being moved: wait until it ends its move", "force_pending")
    if s.attack is not None:
        raise ctx.illegal(rule, "an attack is being assembled: wait until it is resolved or called off", "attack_pending")


def _deciding(ctx: Ctx, seat: str, kind: str, rule: str) -> dict:
    return ctx.require_decision(seat, kind, rule, f"no {kind.replace('_', ' ')} decision is pending")


# -- the Central Committee (004 [11.1]) ---------------------------------------------------------------
def check_join(ctx: Ctx, a: JoinCommittee) -> None:
    s = ctx.s
    p = masses.politburo_problem(ctx, "no Central Committee")
    if p:
        raise ctx.illegal(*p)
    if _decision(ctx):
        raise ctx.illegal("004 [11.1]", "not while a purge or an execution order is being resolved", "decision_pending")
    members = list(a.members)
    if not all(isinstance(p, str) for p in members):
        raise ctx.illegal("protocol", "members must be seat letters", "bad_action")
    if len(set(members)) != len(members):
        raise ctx.illegal("004 [11.11]", "a member is listed twice")
    if a.seat not in members:
        raise ctx.illegal("004 [11.11]", f"{a.seat} can only consent to a Committee that includes {a.seat}")
    for p in members:
        if p not in s.seats:
            raise ctx.illegal("004 [11.11]", f"no seat {p!r} in this game", "unknown_seat")
        if p in s.quit:
            raise ctx.illegal("004 [14.2]", f"{p} has left the game")
    n = _pm(ctx, members)
    if n < COMMITTEE_MARKERS:
        raise ctx.illegal("004 [11.11]", f"{', '.join(_canon(ctx, members))} {'holds' if len(members) == 1 else 'hold'} only "
                          f"{counted(n, 'Politburo marker')}; "
                          f"a Central Committee needs {COMMITTEE_MARKERS}")
    if s.committee_consent.get(a.seat) == _canon(ctx, members):
        raise ctx.illegal("004 [11.11]", f"{a.seat} already consents to that Committee", "already_consents")


def do_join(ctx: Ctx, a: JoinCommittee) -> list[Event]:
    """004 [11.11]; a member of the sitting Central Committee who consents to another withdraws
    his membership (004 [11.12]: a member objects only by withdrawing his own membership, and the
    rest remain the Committee if they still meet 004 [11.11]; his new consent used to dissolve
    it for all).  A consent to a Committee that does not sit is simply replaced."""
    members = _canon(ctx, a.members)
    rest = _withdraw(ctx, a.seat) if a.seat in ctx.s.committee else []
    ctx.s.committee_consent[a.seat] = members
    ev = [Event("committee_consent", f"{a.seat} consents to a Central Committee of {committee_of(members)}",
                {"seat": a.seat, "members": members, "rest": rest})]
    return ev + sync(ctx)


def consents_to(ctx: Ctx, seat: str, members) -> bool:
    """Whether ``seat`` consents now to a Central Committee of exactly ``members`` (004 [11.11]:
    a consent is to a Committee of those members, in any order; one given to another Committee,
    withdrawn, or a player who has quit consents to none)."""
    now = ctx.s.committee_consent.get(seat)
    return now is not None and seat not in ctx.s.quit and set(now) == set(members) and len(now) == len(members)


def check_leave(ctx: Ctx, a: LeaveCommittee) -> None:
    if _decision(ctx):
        raise ctx.illegal("004 [11.12]", "not while a purge or an execution order is being resolved", "decision_pending")
    if a.seat not in ctx.s.committee_consent:
        raise ctx.illegal("004 [11.12]", f"{a.seat} is not a member of (nor consenting to) a Central Committee")


def do_leave(ctx: Ctx, a: LeaveCommittee) -> list[Event]:
    sitting = a.seat in ctx.s.committee
    consent = ctx.s.committee_consent[a.seat]
    rest = _withdraw(ctx, a.seat)
    text = (f"{a.seat} withdraws from the Central Committee" if sitting else
            f"{a.seat} withdraws its consent to a Central Committee of {committee_of(consent)}")
    return [Event("committee_leave", text, {"seat": a.seat, "rest": rest})] + sync(ctx)


def _withdraw(ctx: Ctx, seat: str) -> list[str]:
    """004 [11.12]: the remaining members' consent now names the remaining members; those
    members (none if they were not unanimous: their consents stand as they were)."""
    s = ctx.s
    group = s.committee_consent.pop(seat, None) or []
    if all(s.committee_consent.get(p) == group for p in group if p != seat):   # they were unanimous
        rest = [p for p in group if p != seat]
        for p in rest:
            s.committee_consent[p] = list(rest)
        return rest
    return []


def sync(ctx: Ctx) -> list[Event]:
    """Recompute the Committee (after any action: trades, purges, quits and deaths change
    who holds the markers) and report a change.  ``Game.apply`` runs it after every action."""
    s = ctx.s
    for p in list(s.committee_consent):       # a player who quits withdraws (004 [11.12], [14.2])
        left = [q for q in s.committee_consent[p] if q not in s.quit]
        if p in s.quit or not left:
            del s.committee_consent[p]
        else:
            s.committee_consent[p] = left
    now = committee(ctx)
    if now == s.committee:
        return []
    s.committee = now
    if now:
        return [Event("committee", f"The Central Committee is {committee_of(now)} ({_pm(ctx, now)} Politburo markers)",
                      {"members": list(now), "politburo": _pm(ctx, now)})]
    return [Event("committee", "There is no Central Committee now (004 [11.12])", {"members": []})]


# -- declaring a purge (004 [11.0]) -------------------------------------------------------------------
def _order_problem(ctx: Ctx, a: DeclarePurge) -> str | None:
    """The Bell #3: the particulars the Gamesmaster required of a purge order."""
    bad = []
    if not a.purgers:
        bad.append("it does not specify which players take part in the purge")
    if a.condition:
        bad.append('"conditional" orders for purging are not allowed; all particulars must be agreed to and '
                   "specified in advance")
    if len(set(a.purgers)) > 1 and not a.shares:
        bad.append("it does not specify any means of dividing the spoils (004 [11.23])")
    return "; ".join(bad) or None


def check_declare(ctx: Ctx, a: DeclarePurge) -> None:
    s = ctx.s
    if not all(isinstance(p, str) for p in a.purgers + a.shares):
        raise ctx.illegal("protocol", "purgers and shares must be seat letters", "bad_action")
    d = s.decision
    if d is not None and d.get("kind") == "red_terror":          # the critique's Red Terror: a free purge
        _deciding(ctx, a.seat, "red_terror", TERROR)
        if a.target != d["target"] or tuple(a.purgers) != (a.seat,) or any(p != a.seat for p in a.shares) or a.condition:
            raise ctx.illegal(TERROR, f"the Red Terror is {a.seat}'s own purge of {d['target']}, who sent the assassins",
                              "bad_order")
        return
    p = masses.politburo_problem(ctx, "no purge")
    if p:
        raise ctx.illegal(*p)
    bad = _order_problem(ctx, a)
    if bad:
        raise ctx.illegal("004 [11.0]", f"the purge order is disallowed: {bad}", "bad_order")
    purgers = list(a.purgers)
    if len(set(purgers)) != len(purgers):
        raise ctx.illegal("004 [11.0]", "a purger is listed twice")
    if a.seat not in purgers:
        raise ctx.illegal("004 [11.0]", f"{a.seat} must be one of the purgers")
    d = s.decision
    asked = d is not None and d.get("kind") == "purge_orders" and d["seat"] == a.seat
    if not asked:
        _free(ctx, "004 [11.0]", "purges are declared")
    com = committee(ctx)
    if not com:
        raise ctx.illegal("004 [11.11]", "there is no Central Committee (players holding 8 Politburo markers who "
                          "consent to each other's membership)", "no_committee")
    if a.seat not in com:
        raise ctx.illegal("004 [11.0]", f"{a.seat} is not a member of the Central Committee ({', '.join(com)})")
    group = len(purgers) > 1
    if group and set(purgers) != set(com):
        raise ctx.illegal("004 [11.0]", "a purge is made by one member alone or by the whole Committee "
                          f"({', '.join(com)}) together")
    if asked and group:
        raise ctx.illegal("004 [11.0]", "while individual purges are being declared, only an individual purge "
                          "may be added")
    if group:
        if any(p not in purgers for p in a.shares):
            raise ctx.illegal("004 [11.23]", "the spoils may be divided only among the purgers")
    elif any(p != a.seat for p in a.shares):
        raise ctx.illegal("004 [11.23]", "an individual purger keeps all his spoils")
    if a.target not in s.seats:
        raise ctx.illegal("004 [11.0]", f"no seat {a.target!r} in this game", "unknown_seat")
    if a.target in s.quit:
        raise ctx.illegal("004 [14.2]", f"{a.target} has left the game")
    if a.target in com:
        raise ctx.illegal("004 [11.14]", f"{a.target} is a member of the Central Committee and may not be purged")
    done = [p for p in purgers if p in purged(ctx)]
    if done:
        raise ctx.illegal("004 [11.13]", f"{', '.join(done)} already took part in a purge this Game-Turn")
    if asked and any(o["purgers"] == [a.seat] for o in d["orders"]):
        raise ctx.illegal("004 [11.13]", f"{a.seat} has already declared a purge")


def purge_record(ctx: Ctx, a: DeclarePurge) -> dict:
    """The purge a legal ``DeclarePurge`` declares, as :func:`resolve_purges` takes it."""
    group = len(a.purgers) > 1
    return {"mode": "group" if group else "individual", "purgers": _by_turn(ctx, a.purgers),
            "target": a.target, "shares": list(a.shares) if group else [a.seat]}


def do_declare(ctx: Ctx, a: DeclarePurge) -> list[Event]:
    s = ctx.s
    d = s.decision
    if d is not None and d.get("kind") == "red_terror":
        rec = {"mode": "terror", "purgers": [a.seat], "target": a.target, "shares": [a.seat]}
        s.decision = None
        ev = [Event("purge_declared", f"{a.seat} declares the Red Terror: a free purge of {a.target} ({TERROR})",
                    {"seat": a.seat, **copy_plain(rec)})]
        return ev + _run(ctx, [rec])
    group = len(a.purgers) > 1
    rec = purge_record(ctx, a)
    if group:
        text = (f"{a.seat} proposes that the Committee ({', '.join(rec['purgers'])}) purge {a.target}, "
                f"the spoils divided in the order {', '.join(rec['shares'])}")
    else:
        text = f"{a.seat} declares a purge of {a.target}"
    ev = [Event("purge_declared", text, {"seat": a.seat, **copy_plain(rec)})]
    d = s.decision
    if d is not None and d.get("kind") == "purge_orders":            # an answer in the round
        d["orders"].append(rec)
        return ev + _next_order(ctx)
    if group:
        ask = [p for p in _by_turn(ctx, rec["purgers"]) if p != a.seat]
        s.decision = {"kind": "purge_approval", "seat": ask[0], "ask": ask[1:], "purge": rec, "by": a.seat}
        return ev
    others = [p for p in _by_turn(ctx, committee(ctx)) if p != a.seat and p not in purged(ctx)]
    if others:
        s.decision = {"kind": "purge_orders", "seat": others[0], "ask": others[1:], "orders": [rec]}
        return ev
    return ev + _run(ctx, [rec])


def check_pass(ctx: Ctx, a: PassPurge) -> None:
    d = ctx.s.decision
    if d is not None and d.get("kind") == "red_terror":
        _deciding(ctx, a.seat, "red_terror", TERROR)
        return
    _deciding(ctx, a.seat, "purge_orders", "004 [11.0]")


def do_pass(ctx: Ctx, a: PassPurge) -> list[Event]:
    d = ctx.s.decision
    if d.get("kind") == "red_terror":
        ctx.s.decision = None
        return [Event("purge_pass", f"{a.seat} lets the Red Terror pass", {"seat": a.seat})]
    return [Event("purge_pass", f"{a.seat} declares no purge", {"seat": a.seat})] + _next_order(ctx)


def _next_order(ctx: Ctx) -> list[Event]:
    d = ctx.s.decision
    ask = [p for p in d["ask"] if p not in ctx.s.quit]
    if ask:
        d["seat"], d["ask"] = ask[0], ask[1:]
        return []
    order = _by_turn(ctx, [o["purgers"][0] for o in d["orders"]])
    orders = sorted(d["orders"], key=lambda o: order.index(o["purgers"][0]))   # 004 [11.0] Procedure
    ctx.s.decision = None
    ev = []
    if len(orders) > 1:
        ev.append(Event("purge_order", "Individual purges are resolved in Player-Turn order: "
                        + ", ".join(f"{o['purgers'][0]} on {o['target']}" for o in orders), {}))
    return ev + _run(ctx, orders)


def check_approve(ctx: Ctx, a: ApprovePurge) -> None:
    _deciding(ctx, a.seat, "purge_approval", "004 [11.23]")


def do_approve(ctx: Ctx, a: ApprovePurge) -> list[Event]:
    s = ctx.s
    d = s.decision
    rec = d["purge"]
    if not a.approve:
        s.decision = None
        return [Event("purge_rejected", f"{a.seat} does not agree: the Committee's purge of {rec['target']} is "
                      "called off; members may still purge individually (004 [11.0])", {"seat": a.seat})]
    ev = [Event("purge_approved", f"{a.seat} agrees to the purge of {rec['target']}", {"seat": a.seat})]
    ask = [p for p in d["ask"] if p not in s.quit]
    if ask:
        d["seat"], d["ask"] = ask[0], ask[1:]
        return ev
    s.decision = None
    return ev + _run(ctx, [rec])


# -- resolution ---------------------------------------------------------------------------------------------
def _stale(ctx: Ctx, rec: dict) -> str | None:
    """Why a declared purge can no longer be made (someone quit, the Committee broke up)."""
    s = ctx.s
    people = rec["purgers"] + [rec["target"]]
    if any(p in s.quit for p in people):
        return "a player involved has left the game"
    if rec["mode"] in ("counter", "terror"):      # (neither needs a Committee)
        return None
    com = committee(ctx)
    if not set(rec["purgers"]) <= set(com):
        return "the purgers are no longer the Central Committee"
    if rec["target"] in com:
        return f"{rec['target']} is now a member of the Central Committee"
    if any(p in purged(ctx) for p in rec["purgers"]):
        return "a purger already took part in a purge this Game-Turn"
    return None


def resolve_purges(ctx: Ctx, queue: list[dict]) -> list[Event]:
    """Resolve the purges of ``queue`` (:func:`purge_record`; agreed by every purger) one after
    the other until one needs a decision (spoils, a counterpurge)."""
    return _run(ctx, queue)


def _run(ctx: Ctx, queue: list[dict]) -> list[Event]:
    """Resolve declared purges one after the other until one needs a decision."""
    s = ctx.s
    s.decision = None
    ev: list[Event] = []
    while queue:
        rec = queue.pop(0)
        why = _stale(ctx, rec)
        if why:
            ev.append(Event("purge_cancelled", f"The purge of {rec['target']} lapses: {why}", {"purge": rec}))
            continue
        if rec["mode"] == "terror":                    # free: not the purger's purge of the Game-Turn
            ctx.bump("red_terror_purges")
        elif rec["mode"] != "counter":
            if s.purge_turn != s.turn:
                s.purged_this_turn, s.purge_turn = [], s.turn
            s.purged_this_turn += [p for p in rec["purgers"] if p not in s.purged_this_turn]   # 004 [11.13]
            ctx.bump("purges")
        else:
            ctx.bump("counterpurges")
        ev += _roll(ctx, rec)
        if rec["result"] == "C":
            victim = rec["target"]
            options = [p for p in rec["purgers"] if p not in s.quit]
            s.decision = {"kind": "counterpurge", "seat": victim, "options": options, "queue": queue, "purge": rec}
            return ev
        _open_spoils(ctx, rec)
        taker = _next_taker(ctx, rec, 0)
        if taker is not None:
            s.decision = {"kind": "spoils", "seat": taker, "queue": queue, "purge": rec}
            return ev
        ev.append(_resolved(ctx, rec))
    return ev


def _roll(ctx: Ctx, rec: dict) -> list[Event]:
    counter = rec["mode"] == "counter"
    assigned = rec.get("markers")
    strength = purge_strength(ctx, rec["purgers"], counter, assigned)
    col = ctx.data.purge_column(strength)
    d1, d2 = ctx.die(), ctx.die()
    result = ctx.data.tables.purge[d1 + d2 - 2][col]
    rec.update(strength=strength, dice=[d1, d2], result=result)
    parts = ", ".join(f"{p} {leadership(ctx, p)} + {_markers(ctx, p, assigned)}{'x2' if counter else ''} PM"
                      for p in rec["purgers"])
    who = listed(rec["purgers"])
    verb = "counterpurges" if counter else ("purge" if len(rec["purgers"]) > 1 else "purges")
    outcome = "Counterpurge!" if result == "C" else counted(int(result), "point")
    text = (f"{who} {verb} {rec['target']}: strength {strength} ({parts}), column "
            f"{ctx.data.tables.purge_columns[col]}, roll {d1}+{d2} = {d1 + d2}: {outcome}")
    return [Event("counterpurge" if counter else "purge", text,
                  {"purgers": list(rec["purgers"]), "target": rec["target"], "strength": strength,
                   "column": ctx.data.tables.purge_columns[col], "dice": [d1, d2], "result": result,
                   "counter": counter})]


def entitlements(points: int, shares: list[str]) -> dict[str, int]:
    """004 [11.23]: point k goes to ``shares[k % len(shares)]`` ("as equally as possible, in
    the agreed order" when ``shares`` lists each member once)."""
    out = {p: 0 for p in shares}
    for k in range(points):
        out[shares[k % len(shares)]] += 1
    return out


def _open_spoils(ctx: Ctx, rec: dict) -> None:
    n = int(rec["result"])
    rec["points"] = n
    if rec["mode"] == "group":
        rec["takers"] = list(dict.fromkeys(rec["shares"]))
        rec["entitled"] = entitlements(n, rec["shares"])
    else:
        rec["takers"] = list(rec["purgers"])
        rec["entitled"] = {rec["purgers"][0]: n}
    rec["got"] = {p: 0 for p in rec["takers"]}
    rec["done"] = []
    rec["taken"] = []


def _remaining(rec: dict) -> int:
    return rec["points"] - sum(rec["got"].values())


def _pool(ctx: Ctx, victim: str) -> dict[int, int]:
    """What may still be taken, counted by cost (only the cost matters for the division)."""
    pool: dict[int, int] = {}
    for u in purgeable_leaders(ctx, victim):
        c = ctx.data.units[u].strength
        pool[c] = pool.get(c, 0) + 1
    if ctx.s.politburo.get(victim, 0) > 0:
        pool[MARKER_COST] = pool.get(MARKER_COST, 0) + ctx.s.politburo[victim]
    return pool


@lru_cache(maxsize=4096)
def _closest(takers: tuple[tuple[int, int], ...], rem: int, pool: tuple[tuple[int, int], ...]) -> int:
    """The least total deviation sum |got - entitled| over the given takers that a division
    of the remaining ``pool`` ((cost, count) pairs) within ``rem`` points can reach."""
    return _closest_from(takers, rem, tuple(min(n, rem // c) for c, n in pool), tuple(c for c, _ in pool))


@lru_cache(maxsize=1 << 14)
def _closest_from(takers: tuple[tuple[int, int], ...], rem: int, counts: tuple[int, ...], costs: tuple[int, ...]) -> int:
    """:func:`_closest` for the takers ``takers`` (the first of them choosing now) with ``counts``
    items of each cost in ``costs`` left (shared between the divisions that reach it)."""
    if not takers:
        return 0
    got, want = takers[0]
    rest = takers[1:]
    best = None
    for ks in product(*(range(min(n, rem // c) + 1) for n, c in zip(counts, costs, strict=True))):
        spent = sum(k * c for k, c in zip(ks, costs, strict=True))
        if spent > rem:
            continue
        v = abs(got + spent - want) + _closest_from(rest, rem - spent, tuple(n - k for n, k in zip(counts, ks, strict=True)),
                                                   costs)
        if best is None or v < best:
            best = v
    return best if best is not None else 0


def _deviation(rec: dict, taker: str, pool: dict[int, int], rem: int, extra: int = 0) -> int:
    """The closest the rest of the division (``taker`` and those after him, ``taker``
    having taken ``extra`` more points) can come to the agreement."""
    i = rec["takers"].index(taker)
    rest = [p for p in rec["takers"][i:] if p not in rec["done"]]
    takers = tuple((rec["got"][p] + (extra if p == taker else 0), rec["entitled"][p]) for p in rest)
    return _closest(takers, rem, tuple(sorted((c, n) for c, n in pool.items() if n > 0)))


def _spoil_problem(ctx: Ctx, rec: dict, taker: str, leader: int) -> tuple[str, str] | None:
    s, d = ctx.s, ctx.data
    victim = rec["target"]
    if leader == 0:
        if s.politburo.get(victim, 0) < 1:
            return "004 [11.22]", f"{victim} holds no Politburo marker"
        cost = MARKER_COST
    else:
        u = d.units.get(leader)
        if u is None or not u.is_leader or u.color != RED:
            return "004 [11.31]", "only Red leaders (or Politburo markers) may be purged"
        if leader not in purgeable_leaders(ctx, victim):
            return "004 [11.31]", f"{u.name} is not a Red leader on the map controlled by {victim}"
        cost = u.strength
    rem = _remaining(rec)
    if cost > rem:
        what = "a Politburo marker costs 2 points (004 [11.22])" if leader == 0 else f"{d.units[leader].name} is worth {cost}"
        return "004 [11.21]", f"only {rem} purged point{'s' if rem != 1 else ''} remain; {what}"
    if rec["mode"] != "group":
        return None
    pool = _pool(ctx, victim)
    after_pool = dict(pool)
    after_pool[cost] -= 1
    if _deviation(rec, taker, after_pool, rem - cost, cost) > _deviation(rec, taker, pool, rem):
        agreed = ", ".join(f"{p} {rec['entitled'][p]}" for p in rec["takers"])
        return "004 [11.23]", (f"the agreed division ({agreed}) can be followed more closely; "
                               f"{taker} may not take that")
    return None


def _items(ctx: Ctx, victim: str) -> list[int]:
    """Everything the purged player could lose: his Red leaders on the map, and a marker (0)."""
    out = list(purgeable_leaders(ctx, victim))
    if ctx.s.politburo.get(victim, 0) > 0:
        out.append(0)
    return out


def _can_take(ctx: Ctx, rec: dict, taker: str) -> bool:
    seen: set[int] = set()            # one item per cost is enough: only the cost matters
    for x in _items(ctx, rec["target"]):
        cost = MARKER_COST if x == 0 else ctx.data.units[x].strength
        if cost in seen:
            continue
        seen.add(cost)
        if _spoil_problem(ctx, rec, taker, x) is None:
            return True
    return False


def _next_taker(ctx: Ctx, rec: dict, start: int) -> str | None:
    """The next taker, in the agreed order, who can still take something (those who cannot
    are done); None when the spoils are over."""
    for p in rec["takers"][start:]:
        if p in rec["done"]:
            continue
        if p not in ctx.s.quit and _can_take(ctx, rec, p):
            return p
        rec["done"].append(p)
    return None


def _resolved(ctx: Ctx, rec: dict) -> Event:
    """The spoils are over (004 [11.22]): what each taker took, and why points were left unspent
    (none of the victim's Red leaders on the map or markers costs so little, 004 [11.21]: QA
    read "points taken: B 0" after a roll of 1 as a fault)."""
    got = ", ".join(f"{p} {rec['got'][p]}" for p in rec["takers"])
    left = _remaining(rec)
    why = ""
    if left > 0:
        costs = sorted({MARKER_COST if x == 0 else ctx.data.units[x].strength for x in _items(ctx, rec["target"])})
        why = (f"; {counted(left, 'point')} left unspent: nothing more can be taken from {rec['target']}" if not costs
               else f"; {counted(left, 'point')} left unspent: the cheapest of {rec['target']}'s costs {costs[0]}"
               if costs[0] > left else f"; {counted(left, 'point')} left unspent")
    return Event("purge_resolved", f"The purge of {rec['target']} is over (points taken: {got}{why})",
                 {"target": rec["target"], "purgers": list(rec["purgers"]), "got": dict(rec["got"]),
                  "taken": list(rec["taken"]), "unspent": left})


def _continue_spoils(ctx: Ctx, start: int) -> list[Event]:
    d = ctx.s.decision
    rec = d["purge"]
    taker = _next_taker(ctx, rec, start)
    if taker is not None:
        d["seat"] = taker
        return []
    return [_resolved(ctx, rec)] + _run(ctx, d["queue"])


def check_take(ctx: Ctx, a: TakeSpoil) -> None:
    d = _deciding(ctx, a.seat, "spoils", "004 [11.21]")
    p = _spoil_problem(ctx, d["purge"], a.seat, a.leader)
    if p:
        raise ctx.illegal(*p)


def do_take(ctx: Ctx, a: TakeSpoil) -> list[Event]:
    s = ctx.s
    rec = s.decision["purge"]
    victim = rec["target"]
    if a.leader == 0:
        s.politburo[victim] -= 1
        s.politburo[a.seat] = s.politburo.get(a.seat, 0) + 1
        cost = MARKER_COST
        ev = [Event("spoil", f"{a.seat} takes a Politburo marker from {victim} (2 points, 004 [11.22])",
                    {"seat": a.seat, "from": victim, "politburo": 1, "cost": cost})]
    else:
        cost = ctx.data.units[a.leader].strength
        st = transfer_leader(ctx, a.leader, a.seat)
        ev = [Event("spoil", f"{a.seat} takes {ctx.names(st.units)} "
                    f"in {st.province} from {victim} ({cost} point{'s' if cost > 1 else ''}, 004 [11.21])",
                    {"seat": a.seat, "from": victim, "leader": a.leader, "units": list(st.units), "cost": cost,
                     "stack": st.id})]
    rec["got"][a.seat] += cost
    rec["taken"].append([a.seat, a.leader])
    return ev + _continue_spoils(ctx, rec["takers"].index(a.seat))


def check_end_spoils(ctx: Ctx, a: EndSpoils) -> None:
    _deciding(ctx, a.seat, "spoils", "004 [11.21]")


def do_end_spoils(ctx: Ctx, a: EndSpoils) -> list[Event]:
    rec = ctx.s.decision["purge"]
    rec["done"].append(a.seat)
    ev = [Event("spoils_end", f"{a.seat} takes nothing more", {"seat": a.seat})]
    return ev + _continue_spoils(ctx, rec["takers"].index(a.seat))


def transfer_leader(ctx: Ctx, leader: int, taker: str):
    """004 [11.21]: the purged leader and the combat and Imperial units attached to it change
    control; a stack split this way becomes two, each under its owner's marker."""
    st = ctx.b.stack_of(leader)
    group = [leader] + ctx.b.attached_to(st, leader)
    if set(group) == set(st.units):
        st.owner = taker
        return st
    for u in group:
        st.units.remove(u)
        st.attached.pop(u, None)
    ctx.tidy(st)
    ctx.b.invalidate()
    return ctx.new_stack(st.province, taker, group, {u: leader for u in group[1:]})


# -- counterpurges (004 [11.24]-[11.27]) ----------------------------------------------------------------------
def check_counter(ctx: Ctx, a: Counterpurge) -> None:
    d = _deciding(ctx, a.seat, "counterpurge", "004 [11.24]")
    if a.target == "":
        return
    if a.target not in d["options"]:
        rule = "004 [11.25]" if d["purge"]["mode"] == "counter" else "004 [11.24]"
        raise ctx.illegal(rule, f"{a.seat} may counterpurge only {' or '.join(d['options']) or 'nobody'}")
    if a.target in ctx.s.quit:
        raise ctx.illegal("004 [14.2]", f"{a.target} has left the game")


def do_counter(ctx: Ctx, a: Counterpurge) -> list[Event]:
    s = ctx.s
    d = s.decision
    queue = d["queue"]
    if a.target == "":
        s.decision = None
        return [Event("counterpurge_declined", f"{a.seat} does not counterpurge; the purge is resolved (004 [11.26])",
                      {"seat": a.seat})] + _run(ctx, queue)
    rec = {"mode": "counter", "purgers": [a.seat], "target": a.target, "shares": [a.seat]}
    s.decision = None
    ev = [Event("counterpurge_declared", f"{a.seat} counterpurges {a.target}", {"seat": a.seat, "target": a.target})]
    return ev + _run(ctx, [rec] + queue)


# -- execution of the Czar (004 [13.5]) ----------------------------------------------------------------------
def check_order(ctx: Ctx, a: OrderExecution) -> None:
    s = ctx.s
    d = s.decision
    if d is not None and d.get("kind") == "execution_consent":
        _deciding(ctx, a.seat, "execution_consent", "004 [13.52]")
        return
    if not a.consent:
        raise ctx.illegal("004 [13.52]", "no execution order is asking for consent", "no_decision")
    _free(ctx, "004 [13.57]", "execution orders are given")
    if masses.on(ctx):                  # 004 Masses [13.52]: any coalition with the Czar's holder
        holder = czar_holder(ctx)
        if holder is None:
            raise ctx.illegal(f"{masses.MASSES} [13.52]", "the Czar is not controlled (attached) by a Red leader")
        if holder in s.quit:
            raise ctx.illegal("004 [14.2]", f"the Czar's holder {holder} has left the game")
        return
    com = committee(ctx)
    if a.seat not in com:
        raise ctx.illegal("004 [13.51]", f"only the Central Committee orders the Czar's execution; {a.seat} is not a member",
                          "no_committee")
    n = _pm(ctx, com)
    if n < EXECUTION_MARKERS:
        raise ctx.illegal("004 [13.52]", f"the Committee holds {n} Politburo markers; an execution order needs the "
                          f"consent of players holding {EXECUTION_MARKERS}")
    holder = czar_holder(ctx)
    if holder is None:
        raise ctx.illegal("004 [13.53]", "the Czar is not controlled (attached) by a Red leader")
    if holder in s.quit:
        raise ctx.illegal("004 [14.2]", f"the Czar's holder {holder} has left the game")


def do_order(ctx: Ctx, a: OrderExecution) -> list[Event]:
    if masses.on(ctx):
        return _masses_order(ctx, a)
    s = ctx.s
    d = s.decision
    if d is None:
        ask = [p for p in _by_turn(ctx, committee(ctx)) if p != a.seat]
        s.decision = {"kind": "execution_consent", "seat": a.seat, "ask": ask, "yes": [a.seat], "by": a.seat}
        ev = [Event("execution_proposed", f"{a.seat} proposes an order to execute the Czar", {"seat": a.seat})]
    else:
        if a.consent:
            d["yes"].append(a.seat)
        ev = [Event("execution_consent", f"{a.seat} {'consents to' if a.consent else 'refuses'} the execution order",
                    {"seat": a.seat, "consent": a.consent})]
    d = s.decision
    yes = _pm(ctx, d["yes"])
    if yes >= EXECUTION_MARKERS:
        holder = czar_holder(ctx)
        if holder is None or holder in s.quit:
            s.decision = None
            return ev + [Event("execution_lapsed", "The Czar is no longer held by a Red leader; the order lapses", {})]
        s.decision = {"kind": "execution", "seat": holder, "by": list(d["yes"])}
        return ev + [Event("execution_ordered", f"The Central Committee ({', '.join(d['yes'])}, {yes} Politburo markers) "
                           f"orders {holder} to execute the Czar (004 [13.52])", {"holder": holder, "by": list(d["yes"])})]
    ask = [p for p in d["ask"] if p not in s.quit]
    if ask:
        d["seat"], d["ask"] = ask[0], ask[1:]
        return ev
    s.decision = None
    return ev + [Event("execution_failed", f"Only {yes} Politburo markers consent; no execution order (004 [13.52])",
                       {"yes": yes})]


def _masses_order(ctx: Ctx, a: OrderExecution) -> list[Event]:
    """004 Masses [13.52]-[13.54]: the holder of the Czar is asked first, then the other players
    who control Red leaders on the map in Player-Turn order, until the consenting players, he among
    them, control two thirds of the Red leadership points on the map; his consent is the
    execution; his refusal ends the order."""
    s = ctx.s
    d = s.decision
    holder = czar_holder(ctx)
    rule = f"{masses.MASSES} [13.52]"
    if d is None:
        others = [p for p in _by_turn(ctx, ctx.b.active_seats())          # (a player with no Red leader
                  if p not in (a.seat, holder) and leadership(ctx, p) > 0]     # on the map adds nothing)
        ask = ([holder] if holder != a.seat else []) + others
        s.decision = d = {"kind": "execution_consent", "seat": a.seat, "ask": ask, "yes": [a.seat], "by": a.seat}
        ev = [Event("execution_proposed", f"{a.seat} proposes to execute the Czar ({rule}: a coalition with his holder "
                    "controlling two thirds of the Red leadership on the map)", {"seat": a.seat})]
    else:
        if a.consent:
            d["yes"].append(a.seat)
        ev = [Event("execution_consent", f"{a.seat} {'consents to' if a.consent else 'refuses'} the execution",
                    {"seat": a.seat, "consent": a.consent})]
        if not a.consent and a.seat == holder:
            s.decision = None
            return ev + [Event("execution_failed", f"The Czar's holder {holder} refuses: the Czar lives ({rule})", {})]
    if holder is None or holder in s.quit:
        s.decision = None
        return ev + [Event("execution_lapsed", "The Czar is no longer held by a Red leader; the order lapses", {})]
    if holder in d["yes"] and masses.coalition_holds(ctx, d["yes"], leadership):
        s.decision = None
        return ev + _execute(ctx, holder, f"{masses.MASSES} [13.54]")
    ask = [p for p in d["ask"] if p not in s.quit]
    if ask:
        d["seat"], d["ask"] = ask[0], ask[1:]
        return ev
    s.decision = None
    return ev + [Event("execution_failed", f"The consenting players control less than two thirds of the Red "
                       f"leadership: the Czar lives ({rule})", {})]


def check_answer(ctx: Ctx, a: AnswerExecution) -> None:
    _deciding(ctx, a.seat, "execution", "004 [13.54]")


def do_answer(ctx: Ctx, a: AnswerExecution) -> list[Event]:
    s = ctx.s
    s.decision = None
    if not a.comply:
        return [Event("execution_refused", f"{a.seat} refuses to execute the Czar, who stays on the map (004 [13.54])",
                      {"seat": a.seat})]
    return _execute(ctx, a.seat, "004 [13.54]")


def _execute(ctx: Ctx, seat: str, rule: str) -> list[Event]:
    """The Czar's holder ``seat`` puts him face up in his section of the Victory Point Chart
    (004 [13.54], [13.56])."""
    czar = ctx.data.czar
    st = ctx.b.stack_of(czar)
    province = st.province if st else "?"
    ctx.take(czar)
    ctx.to_chart(czar, seat, face_up=True)
    ctx.bump("czar_executions")
    return [Event("czar_executed", f"{seat} executes the Czar in {province}: the Czar goes face up to {seat}'s "
                  f"section of the Victory Point Chart ({rule})", {"seat": seat, "province": province})]


# -- candidates for legal_actions ------------------------------------------------------------------------------
def free_candidates(ctx: Ctx, seat: str) -> list[Action]:
    """Concrete choices only.  ``JoinCommittee`` and ``DeclarePurge`` are parametric: listed
    are the Committees others have proposed that include ``seat`` (and ``seat`` alone when
    it holds eight markers), and each purge target individually and with the whole Committee
    dividing in turn order; any other order passing the check may be declared too."""
    s = ctx.s
    if s.phase in ("trading", "over") or seat in s.quit:
        return []
    if masses.on(ctx):                  # (no Committee, no purges; the Czar's execution by coalition)
        free = s.decision is None and s.phase in SERIES and s.force is None and s.attack is None
        return [OrderExecution(seat)] if free else []
    out: list[Action] = []
    if _decision(ctx) is None:
        proposals = {tuple(v) for p, v in s.committee_consent.items() if p != seat and seat in v}
        if s.politburo.get(seat, 0) >= COMMITTEE_MARKERS:
            proposals.add((seat,))
        out += [JoinCommittee(seat, m) for m in sorted(proposals)]
        if seat in s.committee_consent:
            out.append(LeaveCommittee(seat))
    if s.decision is not None or s.phase not in SERIES or s.force is not None or s.attack is not None:
        return out
    com = committee(ctx)
    if seat not in com:
        return out
    order = tuple(_by_turn(ctx, com))
    for t in [p for p in s.seats if p not in com and p not in s.quit]:
        out.append(DeclarePurge(seat, t, (seat,), ()))
        if len(com) > 1:
            out.append(DeclarePurge(seat, t, order, order))
    out.append(OrderExecution(seat))
    return out


def decision_candidates(ctx: Ctx, seat: str) -> list[Action]:
    d = _decision(ctx)
    if d is None or d["seat"] != seat:
        return []
    k = d["kind"]
    if k == "purge_approval":
        return [ApprovePurge(seat, True), ApprovePurge(seat, False)]
    if k == "purge_orders":
        com = committee(ctx)
        return [DeclarePurge(seat, t, (seat,), ()) for t in ctx.s.seats if t not in com] + [PassPurge(seat)]
    if k == "spoils":
        rec = d["purge"]
        return [TakeSpoil(seat, x) for x in _items(ctx, rec["target"])] + [EndSpoils(seat)]
    if k == "counterpurge":
        return [Counterpurge(seat, t) for t in d["options"]] + [Counterpurge(seat, "")]
    if k == "execution_consent":
        return [OrderExecution(seat, True), OrderExecution(seat, False)]
    if k == "execution":
        return [AnswerExecution(seat, True), AnswerExecution(seat, False)]
    if k == "red_terror":
        return [DeclarePurge(seat, d["target"], (seat,), ()), PassPurge(seat)]
    return []


def after_apply(ctx: Ctx) -> list[Event]:
    return sync(ctx)


# The actions of this section, as (check, do) pairs for the game's handler table (rcw.game).
HANDLERS = {
    JoinCommittee: (check_join, do_join),
    LeaveCommittee: (check_leave, do_leave),
    DeclarePurge: (check_declare, do_declare),
    PassPurge: (check_pass, do_pass),
    ApprovePurge: (check_approve, do_approve),
    TakeSpoil: (check_take, do_take),
    EndSpoils: (check_end_spoils, do_end_spoils),
    Counterpurge: (check_counter, do_counter),
    OrderExecution: (check_order, do_order),
    AnswerExecution: (check_answer, do_answer),
}
