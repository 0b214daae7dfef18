"""The postal game's trades, Gold thefts, purges, Czar executions and end-game votes
(004 [17.0] postal [4.2], [11.0], [13.26], [13.5], [15.0]), adjudicated by the Gamesmaster.

**Trades** (the first step of each phase, and the pre-season trades of postal [15.0]): a
``trade`` order is consummated when the other player's sheet holds the mirror order (what one
gives the other takes) - an exchange needs both - or, for a gift (a trade that takes nothing),
when he ordered ``accept_gifts`` (from anyone, or from the players it lists).  Trades are made
in seat order, each seat's in the order listed, through the multi-player game's offer and
acceptance (004 [15.33]: leaders in the pre-season trades only; markers held then); one that
is not matched, or no longer possible, is reported as skipped.

**Gold** (postal [13.26]): "Green units controlled by other Players may be 'stolen' during
either trade portion ... so long as they are in the same province as the Leader controlling
the Gold": a ``steal`` order attaches such a unit to the Gold's leader, within his capacity
(004 [13.25]: two Green units; 004 [5.14], [7.11]), never a Finnish or Polish unit (004 [13.27]).

**Purges** (postal [11.0]): every participant's ``purge`` order must be compatible (the same
object, participants and division of the spoils); the participants then form the Central
Committee for it (004 [11.11]: they must hold eight Politburo markers) and the multi-player
purge is resolved (004 [11.0]-[11.4]) with the markers each assigned: "Any Politburo Marker
assigned by its owner to more than one prospective Purge may be used for no Purge that Phase"
(reading: markers are alike, so a player who assigns more than he holds loses the excess from
each of his purges; ``markers`` left out assigns all he holds).  Orders with conditions are
refused ("'conditional' orders for Purging are not allowed", The Bell #3), as are group orders
that do not divide the spoils.  Spoils and counterpurges: :mod:`rcw.postal.gm`.  A purge in
the First Phase means none in the Second (postal [4.2]); compatible groups are resolved in
seat order of their first participant.

**Execution of the Czar** (postal [13.5]) "is handled in the same manner as Purges": the
participants of compatible ``execute_czar`` orders form the Committee (ten markers, 004
[13.52]) in both phases' purge step.  The holder's ``comply_execution`` order, if on file,
answers at once; otherwise the order is reported and waits: his sheet for the next phase
answers it (no ``comply_execution`` order there: he refuses).

**The end-game vote** (004 [14.1] case 3), held when a Game-Turn ends: each voter's ``vote``
order of the Second Phase; a voter who wrote none votes to go on.
"""

from __future__ import annotations

from rcw import actions as A
from rcw.actions import Event, IllegalAction
from rcw.data import GREEN
from rcw.postal.base import act_as, active, book, skipped
from rcw.postal.gm import answer, do
from rcw.postal.movement import holds_gold
from rcw.postal.sheets import of_kind, standing
from rcw.rules import movement, politics, sequence, setup
from rcw.rules.base import Ctx, counted

POSTAL_4 = "004 [17.0] postal [4.2]"
POSTAL_11 = "004 [17.0] postal [11.0]"
POSTAL_13_26 = "004 [17.0] postal [13.26]"
POSTAL_13_5 = "004 [17.0] postal [13.5]"


# -- trades ---------------------------------------------------------------------------------------------------
def offer(seat: str, o: dict) -> A.OfferTrade:
    return A.OfferTrade(seat, o["with"], tuple(o["give_leaders"]), o["give_politburo"], o["give_assassins"],
                        tuple(o["take_leaders"]), o["take_politburo"], o["take_assassins"])


def check_trade(ctx: Ctx, seat: str, o: dict) -> None:
    """004 [15.33], [10.0], [11.0]: the trade as the multi-player game would take the offer."""
    setup.check_offer(ctx, offer(seat, o))


def mirror(seat: str, o: dict) -> dict:
    """The ``trade`` order that ``o["with"]`` writes to match ``seat``'s trade order ``o`` (postal
    [4.2]: what one gives the other takes): the order consummating it at the adjudication."""
    return {"order": "trade", "with": seat, "give_leaders": list(o["take_leaders"]), "give_politburo": o["take_politburo"],
            "give_assassins": o["take_assassins"], "take_leaders": list(o["give_leaders"]),
            "take_politburo": o["give_politburo"], "take_assassins": o["give_assassins"]}


def _mirror(a: dict, b: dict) -> bool:
    m = mirror("", a)
    return (sorted(m["give_leaders"]) == sorted(b["give_leaders"]) and sorted(m["take_leaders"]) == sorted(b["take_leaders"])
            and all(m[k] == b[k] for k in ("give_politburo", "give_assassins", "take_politburo", "take_assassins")))


def _gift(o: dict) -> bool:
    return not (o["take_leaders"] or o["take_politburo"] or o["take_assassins"])


def trades(ctx: Ctx, sheets: dict) -> list[Event]:
    """The trade portion: trades, then thefts with the Gold (see the module docstring)."""
    ev: list[Event] = []
    used: set[tuple[str, int]] = set()
    for seat in active(ctx):
        for i, o in of_kind(sheets.get(seat, []), "trade"):
            if (seat, i) in used:
                continue
            other = o["with"]
            theirs = sheets.get(other, [])
            match = next((j for j, p in of_kind(theirs, "trade") if (other, j) not in used and p["with"] == seat
                          and _mirror(o, p)), None)
            if match is None and _gift(o):
                acc = standing(theirs, "accept_gifts")
                if acc is not None and (not acc["from"] or seat in acc["from"]):
                    match = -1
            if match is None:
                ev.append(skipped(ctx, seat, i, "trade", IllegalAction(
                    POSTAL_4, f"{other} ordered no matching trade: none is made", "no_match")))
                continue
            used.add((seat, i))
            if match >= 0:
                used.add((other, match))
            try:
                a = offer(seat, o)
                setup.check_offer(ctx, a)
                made = setup.do_offer(ctx, a)
                acc = A.AcceptTrade(other, made[0].data["offer"])
                setup.check_accept(ctx, acc)
                ev += setup.do_accept(ctx, acc)
            except IllegalAction as e:
                ctx.s.offers.clear()
                ev.append(skipped(ctx, seat, i, "trade", e))
    for seat in active(ctx):
        for i, o in of_kind(sheets.get(seat, []), "steal"):
            try:
                check_steal(ctx, seat, o)
                ev.append(do_steal(ctx, seat, o))
            except IllegalAction as e:
                ev.append(skipped(ctx, seat, i, "steal", e))
    return ev


def check_steal(ctx: Ctx, seat: str, o: dict) -> None:
    """postal [13.26] (see the module docstring)."""
    d, b = ctx.data, ctx.b
    lead, unit = o["leader"], o["unit"]
    lst = b.stack_of(lead) if lead in d.units else None
    if lst is None or not d.units[lead].is_leader or lst.owner != seat:
        raise IllegalAction(POSTAL_13_26, f"{lead} is not a leader of {seat} on the map", "unknown_unit")
    if not holds_gold(ctx, lead):
        raise IllegalAction(POSTAL_13_26, f"{d.units[lead].name} does not control the Gold")
    u = d.units.get(unit)
    if u is None or not u.is_combat or u.color != GREEN:
        raise IllegalAction(POSTAL_13_26, f"only Green combat units are stolen with the Gold ({unit})")
    if u.nationality in ("FN", "PO"):
        raise IllegalAction("004 [13.27]", "Finnish and Polish units are never attached by a leader")
    st = b.stack_of(unit)
    if st is None or st.province != lst.province:
        raise IllegalAction(POSTAL_13_26, f"{u.label} is not in {lst.province} with {d.units[lead].name}")
    if st.owner in (None, seat) or st.attached.get(unit):
        raise IllegalAction(POSTAL_13_26, f"only Green units controlled by other players are stolen in the trades; "
                            f"{u.label} is {'uncontrolled (pick it up in the movement)' if st.owner is None else 'yours'}")
    own, gold = b.capacity(lst, lead)
    held = [x for x in b.attached_to(lst, lead) if d.units[x].is_combat]
    if sum(1 for x in held if d.units[x].color == GREEN) >= gold:
        raise IllegalAction("004 [13.25]", "the Gold allows only two extra units")
    if len(held) >= own:
        raise IllegalAction("004 [5.14]", f"{d.units[lead].name} may attach at most {own} combat units")
    if len(b.fighting_units(lst)) >= movement.STACK_LIMIT:
        raise IllegalAction("004 [7.11]", f"the stack of {d.units[lead].name} already holds {movement.STACK_LIMIT} units")


def do_steal(ctx: Ctx, seat: str, o: dict) -> Event:
    st = ctx.b.stack_of(o["unit"])
    victim = st.owner
    lst = ctx.b.stack_of(o["leader"])
    ctx.take(o["unit"])
    ctx.put(o["unit"], lst, o["leader"])
    return Event("steal", f"{ctx.name(o['leader'])} ({seat}) steals {ctx.name(o['unit'])} from {victim} in {lst.province} "
                 f"with the Gold ({POSTAL_13_26})", {"seat": seat, "from": victim, "unit": o["unit"], "leader": o["leader"]})


# -- purges ------------------------------------------------------------------------------------------------------
def _canon(ctx: Ctx, seats) -> tuple[str, ...]:
    return tuple(p for p in ctx.s.seats if p in set(seats))


def _shares(ctx: Ctx, seat: str, o: dict) -> tuple[str, ...]:
    return tuple(o["shares"]) if len(o["participants"]) > 1 else (seat,)


def check_purge(ctx: Ctx, seat: str, o: dict) -> None:
    """A purge order's particulars (postal [11.0]; the orders The Bell #3 disallowed)."""
    s = ctx.s
    if o["condition"]:
        raise IllegalAction(POSTAL_11, '"conditional" orders for Purging are not allowed; all particulars must be agreed '
                            "to and specified in advance (The Bell #3)", "bad_order")
    parts = o["participants"]
    if not parts:
        raise IllegalAction(POSTAL_11, "the order does not specify which players are involved in the Purge", "bad_order")
    if seat not in parts or len(set(parts)) != len(parts):
        raise IllegalAction(POSTAL_11, f"the participants must list {seat} once, and each other participant once",
                            "bad_order")
    for p in parts + [o["target"]]:
        if p not in s.seats or p in s.quit:
            raise IllegalAction("004 [14.2]", f"no player {p!r} in the game", "unknown_seat")
    if o["target"] in parts:
        raise IllegalAction("004 [11.14]", f"{o['target']} takes part in the purge and may not be purged")
    if len(parts) > 1 and not o["shares"]:
        raise IllegalAction("004 [11.23]", "the order fails to specify any means of dividing the spoils (The Bell #3)",
                            "bad_order")
    if any(p not in parts for p in o["shares"]) or (len(parts) == 1 and any(p != seat for p in o["shares"])):
        raise IllegalAction("004 [11.23]", "the spoils may be divided only among the participants")
    bad = [x for x in o["take"] if x != 0 and not politics.is_red_leader(ctx, x)]
    if bad:
        what = ", ".join(ctx.name(x) if x in ctx.data.units else str(x) for x in bad)
        raise IllegalAction("004 [11.31]", f"the spoils wanted may be Red leaders and Politburo markers (0) only, not {what}")
    if o["markers"] is not None and o["markers"] > s.politburo.get(seat, 0):
        raise IllegalAction("004 [11.0]", f"{seat} holds only {counted(s.politburo.get(seat, 0), 'Politburo marker')}")


def purge_doubt(ctx: Ctx, seat: str, o: dict, live_phase: str) -> IllegalAction | None:
    """What would stop a purge order that :func:`check_purge` takes, as things stand while the
    sheet is written (None: nothing known yet): its participants holding too few Politburo
    markers for a Central Committee (004 [11.11]), or the rules refusing the purge declared by a
    Committee of them now (one of them has purged this Game-Turn already, 004 [11.13]; spoils the
    rules refuse, 004 [11.31]).  Only a doubt, for the sheet's writer: this phase's trades, carried
    out first (postal [4.2]), may bring the markers, and the other participants' sheets decide."""
    parts = _canon(ctx, o["participants"])
    c = Ctx(ctx.data, ctx.s.clone())
    try:
        act_as(c, parts[0], live_phase)
        politics.check_join(c, A.JoinCommittee(parts[0], parts))
        _committee(c, parts)
        politics.check_declare(c, A.DeclarePurge(parts[0], o["target"], parts, _shares(c, seat, o) if len(parts) > 1 else ()))
    except IllegalAction as e:
        return e
    return None


def assigned(ctx: Ctx, sheets: dict) -> dict[tuple[str, int], int]:
    """The Politburo markers each purge order may use (see the module docstring)."""
    out = {}
    for seat in active(ctx):
        orders = of_kind(sheets.get(seat, []), "purge")
        held = ctx.s.politburo.get(seat, 0)
        want = {i: held if o["markers"] is None else min(o["markers"], held) for i, o in orders}
        over = max(0, sum(want.values()) - held)
        for i, n in want.items():
            out[seat, i] = max(0, n - over)
    return out


def agreed(ctx: Ctx, keys: dict[tuple[str, int], tuple], members, kind: str, ev: list[Event], rule: str,
           what: str = "") -> list[tuple[tuple, dict[str, int]]]:
    """The orders every participant sent alike (postal [11.0], [13.5]): ``keys`` gives each
    order (seat, index) what must agree, ``members(key)`` its participants; each group, in the
    seat order of its first participant, with the order of each participant (his first such);
    the orders of a group someone is missing from are reported as skipped in ``ev``."""
    groups: dict[tuple, dict[str, int]] = {}
    for (seat, i), key in keys.items():
        groups.setdefault(key, {}).setdefault(seat, i)
    out = []
    seats = ctx.s.seats
    for key in sorted(groups, key=lambda k: (seats.index(members(k)[0]), k)):
        orders = groups[key]
        missing = [p for p in members(key) if p not in orders]
        if missing:
            for seat, i in orders.items():
                ev.append(skipped(ctx, seat, i, kind, IllegalAction(
                    rule, f"{', '.join(missing)} submitted no compatible order{what}", "no_match")))
            continue
        out.append((key, orders))
    return out


def _committee(ctx: Ctx, parts: tuple[str, ...]) -> list[Event]:
    ctx.s.committee_consent = {p: list(parts) for p in parts}
    return politics.sync(ctx)


def purges(ctx: Ctx, sheets: dict, live_phase: str) -> list[Event]:
    """The purge step of a phase (see the module docstring); True in ``book()["purged"]`` when
    one was conducted."""
    ev: list[Event] = []
    markers = assigned(ctx, sheets)
    keys = {(seat, i): (o["target"], _canon(ctx, o["participants"]), _shares(ctx, seat, o))
            for seat in active(ctx) for i, o in of_kind(sheets.get(seat, []), "purge")}
    for key, orders in agreed(ctx, keys, lambda k: k[1], "purge", ev, POSTAL_11,
                              " (the same object, participants and division of the spoils)"):
        target, parts, shares = key
        ev += _committee(ctx, parts)
        try:
            act_as(ctx, parts[0], live_phase)
            a = A.DeclarePurge(parts[0], target, parts, shares if len(parts) > 1 else ())
            politics.check_declare(ctx, a)
            rec = politics.purge_record(ctx, a)
            rec["markers"] = {p: markers[p, i] for p, i in orders.items()}
            ev += politics.resolve_purges(ctx, [rec])
            ev += answer(ctx)
            book(ctx)["purged"] = True
        except IllegalAction as e:
            for seat, i in orders.items():
                ev.append(skipped(ctx, seat, i, "purge", e))
        finally:
            ev += _committee(ctx, ())
    return ev


# -- executing the Czar ------------------------------------------------------------------------------------------
def check_execute(ctx: Ctx, seat: str, o: dict) -> None:
    parts = o["participants"]
    if seat not in parts or len(set(parts)) != len(parts):
        raise IllegalAction(POSTAL_13_5, f"the participants must list {seat} once, and each other participant once",
                            "bad_order")
    for p in parts:
        if p not in ctx.s.seats or p in ctx.s.quit:
            raise IllegalAction("004 [14.2]", f"no player {p!r} in the game", "unknown_seat")


def _answer_execution(ctx: Ctx, holder: str, by: list[str], comply: bool) -> list[Event]:
    ctx.s.decision = {"kind": "execution", "seat": holder, "by": list(by)}
    return do(ctx, A.AnswerExecution(holder, comply))


def executions(ctx: Ctx, sheets: dict, live_phase: str) -> list[Event]:
    """postal [13.5] (see the module docstring)."""
    ev: list[Event] = []
    b = book(ctx)
    waiting = b.pop("execution", None)
    if waiting:
        holder = waiting["holder"]
        o = standing(sheets.get(holder, []), "comply_execution")
        if politics.czar_holder(ctx) != holder:
            ev.append(Event("execution_lapsed", f"{holder} no longer holds the Czar: the execution order lapses "
                            f"({POSTAL_13_5})", {"holder": holder}))
        else:
            ev += _answer_execution(ctx, holder, waiting["by"], bool(o and o["comply"]))
    keys = {(seat, i): _canon(ctx, o["participants"])
            for seat in active(ctx) for i, o in of_kind(sheets.get(seat, []), "execute_czar")}
    for parts, orders in agreed(ctx, keys, lambda k: k, "execute_czar", ev, POSTAL_13_5):
        ev += _committee(ctx, parts)
        try:
            act_as(ctx, parts[0], live_phase)
            ev += do(ctx, A.OrderExecution(parts[0], True))
            ev += answer(ctx)
            d = ctx.s.decision
            if d is not None and d["kind"] == "execution":
                holder = d["seat"]
                o = standing(sheets.get(holder, []), "comply_execution")
                if o is not None:
                    ev += do(ctx, A.AnswerExecution(holder, o["comply"]))
                else:
                    ctx.s.decision = None
                    b["execution"] = {"holder": holder, "by": list(d["by"])}
                    ev.append(Event("execution_waiting", f"{holder} has no order on file answering the execution order: "
                                    f"it stands until his next sheet ({POSTAL_13_5})", {"holder": holder}))
        except IllegalAction as e:
            ctx.s.decision = None
            for seat, i in orders.items():
                ev.append(skipped(ctx, seat, i, "execute_czar", e))
        finally:
            ev += _committee(ctx, ())
    return ev


# -- the end-game vote ---------------------------------------------------------------------------------------
def vote(ctx: Ctx, sheets: dict) -> list[Event]:
    """004 [14.1] case 3, each voter's ``vote`` order answering (see the module docstring)."""
    s = ctx.s
    ev = []
    for p in list(s.decision["voters"]):
        o = standing(sheets.get(p, []), "vote")
        s.votes[p] = yes = bool(o and o["end"])
        ev.append(Event("vote", f"{p} votes {'to end' if yes else 'to continue'} the game", {"seat": p, "yes": yes}))
    return ev + sequence.count_votes(ctx)
