"""Judging a sheet when it arrives (004 [17.0] Procedure), order by order.

A sheet that is not a sheet (not ``{"orders": [...]}``, too many orders) is refused whole.
Otherwise each order is judged on its own, in the order listed, on the position of the phase
as the seat alone would change it: its form (:func:`rcw.postal.sheets.normalize`), then the
rules, by carrying it out on a scratch copy of the game with the same code that adjudicates
it (movement, attacks and Gold thefts are played there: a move the rules refuse at any step,
an attack that cannot be declared or resolved, is refused; orders later on the sheet see the
seat's earlier orders carried out).  What depends on the other seats' orders (a trade's match,
whether a purge is compatible, who wins a unit claimed twice, whether an assassination's
condition is met) is judged at the adjudication; an assassination asking more Assassin markers
than the seat holds is refused only if the sheet's own trades cannot bring the rest first
(postal [4.2]: the trades come before the movement): the trades the rules take, as far as the
partners hold the markers, and the gifts it accepts, as far as the givers hold them.

A refused order is left out and reported as data (``index`` on the sheet, ``order`` kind, the
``rule`` case, an error ``code``, the ``message``); the rest of the sheet is kept.  An order the
rules allow to begin but refuse at a later step (a force that must stop short of its path's
end, postal [5.0]'s example; a stack that may not join an attack) is kept, for the
Gamesmaster carries out "all legal, written orders" as far as they go, and the refused step
is reported the same way among the warnings (with the ``step``).  A purge order that the
rules would refuse as things stand (its participants short of the Politburo markers of a Central
Committee, 004 [11.11]; one of them has purged this Game-Turn) is kept with a warning (``step``
"as things stand", :func:`rcw.postal.politics.purge_doubt`): this phase's trades come first and
may change that.  A purge order in the Second Phase of a Game-Turn with a purge in the First is
refused (postal [4.2]: the Second Phase's purge step is for a Game-Turn with none).  A second
standing order of one kind (``losses``, ``capture``, ``redraw``, ``vote``, ``counterpurge``,
``comply_execution``, ``accept_gifts``) is refused: the first is the one on file.
"""

from __future__ import annotations

from rcw import actions as A
from rcw.actions import IllegalAction
from rcw.postal.base import LIVE_PHASE, act_as, book, order_error
from rcw.postal.combat import attack
from rcw.postal.gm import legal
from rcw.postal.movement import KINDS as MOVES
from rcw.postal.movement import action_of, carry_out, check_assassinate
from rcw.postal.politics import POSTAL_4, check_execute, check_purge, check_steal, check_trade, do_steal, purge_doubt
from rcw.postal.sheets import normalize, open_kinds, orders_of
from rcw.rules import combat, shock_armies
from rcw.rules import movement as live_movement
from rcw.rules.base import Ctx

STANDING = ("losses", "capture", "redraw", "vote", "counterpurge", "comply_execution", "accept_gifts", "place", "draws")
PLAYED = MOVES + ("attack", "steal")      # orders carried out on the scratch copy


def scratch(ctx: Ctx) -> Ctx:
    """A copy of the game's position to try orders on (without the postal bookkeeping: the
    sheets and the report are no concern of the rules)."""
    s = ctx.s
    keep, s.postal = s.postal, {}
    try:
        return Ctx(ctx.data, s.clone())
    finally:
        s.postal = keep


def check_sheet(ctx: Ctx, seat: str, phase: str, sheet, where: bool = False,
                offers: dict | None = None, only: int | None = None) -> tuple[list[list], list[dict], list[dict]]:
    """(the accepted orders as ``[index, order]`` pairs, the refused ones as errors, the warnings).
    ``where``: a warning about a move's step says where the force stops (``at``); the warnings a
    sent sheet keeps in the game do not (``Game.check_sheet`` answers with it).  ``offers``: a
    dict filled, for each ``move`` order kept (``only``: the one of that index), with what its
    force may take along (:func:`rcw.postal.movement.carry_out`), by its index."""
    raw = orders_of(sheet)
    sim = scratch(ctx)
    accepted: list[list] = []
    rejected: list[dict] = []
    warnings: list[dict] = []
    seen: set[str] = set()
    coming = _assassins_coming(ctx, seat, raw, phase)
    # (the scratch copy has no postal book: what it says is read here)
    purge_open = "purge" in open_kinds(phase, ctx.s.options, bool(book(ctx).get("purged")))
    for i, o in enumerate(raw):
        kind = o.get("order") if isinstance(o, dict) else None
        try:
            n = normalize(o, phase)
            if n["order"] in STANDING:
                if n["order"] in seen:
                    raise IllegalAction("004 [17.0]", f"a second {n['order']} order: the first one is on file", "bad_order")
                seen.add(n["order"])
            if n["order"] in PLAYED:
                keep = sim.s.clone()
                said: list[dict] = []
                offered = {} if offers is not None and n["order"] == "move" and only in (None, i) else None
                try:
                    _play(sim, seat, i, n, said, offered)
                except IllegalAction:
                    sim = Ctx(ctx.data, keep)
                    raise
                warnings += said
                if offered is not None:
                    offers[i] = offered
            else:
                if n["order"] == "purge" and not purge_open:
                    raise IllegalAction(POSTAL_4, "a purge was conducted in the First Phase: none in the Second", "wrong_phase")
                _judge(sim, seat, n, coming)
                if n["order"] == "purge":
                    doubt = purge_doubt(sim, seat, n, LIVE_PHASE[phase])
                    if doubt is not None:
                        warnings.append({**order_error(i, "purge", doubt), "step": "as things stand"})
        except IllegalAction as e:
            rejected.append(order_error(i, str(kind), e))
            continue
        accepted.append([i, n])
    if not where:
        warnings = [{k: v for k, v in w.items() if k != "at"} for w in warnings]
    return accepted, rejected, warnings


def _play(sim: Ctx, seat: str, i: int, n: dict, warnings: list[dict], offers: dict | None = None) -> None:
    kind = n["order"]
    if kind == "attack":
        attack(sim, seat, i, n, warnings)
    elif kind == "steal":
        check_steal(sim, seat, n)
        do_steal(sim, seat, n)
    else:
        carry_out(sim, seat, i, n, {}, {}, warnings, offers)


def _assassins_coming(ctx: Ctx, seat: str, raw: list, phase: str) -> int:
    """The Assassin markers a sheet's own trades may bring before its assassinations are
    attempted (postal [4.2]: the phase's trades come first, wherever the sheet lists them): what
    its ``trade`` orders the rules take now ask for, as far as each partner holds them, and, if
    it accepts gifts, what the givers it accepts hold.  Whether they come is known at the
    adjudication, which counts the markers held at the attempt (postal [10.0])."""
    held = ctx.s.assassins
    others = [p for p in ctx.s.seats if p != seat and p not in ctx.s.quit]
    coming = 0
    for o in raw:
        try:
            n = normalize(o, phase)
            if n["order"] == "trade":
                check_trade(ctx, seat, n)
                coming += min(n["take_assassins"], held.get(n["with"], 0))
            elif n["order"] == "accept_gifts":
                coming += sum(held.get(p, 0) for p in others if not n["from"] or p in n["from"])
        except IllegalAction:
            continue
    return min(coming, sum(held.get(p, 0) for p in others))


def _judge(sim: Ctx, seat: str, n: dict, coming: int = 0) -> None:
    kind, s = n["order"], sim.s
    if kind == "trade":
        check_trade(sim, seat, n)
    elif kind == "assassinate":
        check_assassinate(sim, seat, n, coming)
    elif kind == "purge":
        check_purge(sim, seat, n)
    elif kind == "execute_czar":
        check_execute(sim, seat, n)
    elif kind == "counterpurge":
        t = n["target"]
        if t not in ("strongest", "weakest", "") and t not in s.seats:
            raise IllegalAction("004 [17.0] postal [11.0]", f"counterpurge 'strongest', 'weakest', '' or a seat, not {t!r}",
                                "bad_order")
    elif kind == "accept_gifts":
        bad = [p for p in n["from"] if p not in s.seats]
        if bad:
            raise IllegalAction("004 [17.0] postal [4.2]", f"no seat {bad[0]!r} in this game", "unknown_seat")


# -- the units an order's fields may name ------------------------------------------------------------------
#: The unit fields (``int``, ``ints``) of the order kinds whose units a sheet's writer picks from
#: the engine's :func:`choices` (the page's "More orders" card): kind -> fields.
CHOSEN: dict[str, tuple[str, ...]] = {
    "steal": ("unit", "leader"), "merge": ("unit", "into"), "transfer": ("unit", "to"), "emigrate": ("unit",),
    "czech_exit": ("unit",), "place": ("leaders",), "losses": ("prefer",)}


def choices(ctx: Ctx, seat: str, phase: str) -> dict[str, dict[str, list[int]]]:
    """For each order kind of :data:`CHOSEN` a sheet of ``phase`` is offered (:func:`open_kinds`),
    the units each of its unit fields may name for ``seat`` on the position whose orders are
    collected, ``{kind: {field: [unit id, ...]}}`` (ids ascending; an empty list: none may be
    named); a kind with two unit fields also has ``pairs``, ``[[first, second], ...]`` (in the
    order of :data:`CHOSEN`): the two may be named together.  Each is judged by the code that judges the order when its sheet arrives, on one
    scratch copy (nothing is carried out):

    - ``merge`` (004 [5.41]), ``transfer`` (004 [13.15]), ``emigrate`` (004 [13.31]),
      ``czech_exit`` (004 [5.66]): the actions the seat's Movement Phase would offer
      (:func:`rcw.rules.movement.candidates`), each written as the order and kept when the rules'
      check takes the action the order is carried out as (:func:`rcw.postal.movement.action_of`,
      what :func:`check_sheet` plays); a stack is named by any unit in it, so every unit of a
      stack that may be named is listed (for ``transfer``'s ``to``, each unit judged: naming a
      leader transfers to him);
    - ``steal`` (004 [17.0] postal [13.26]): each of the seat's leaders with each unit on the
      map, kept when :func:`rcw.postal.politics.check_steal` takes them (one pair at least for
      each unit listed);
    - ``place`` (001 Optional Forces): ``leaders``, those a Shock Army still in the Randomizer
      may be placed with if drawn now (:func:`rcw.rules.shock_armies.leaders_for`, what the
      ``place`` decision offers; none without the option);
    - ``losses`` (004 [8.44]): ``prefer``, the units on the map whose Exchange losses the seat
      chooses (:func:`rcw.rules.combat.loss_chooser`: its own, and an uncontrolled or quit
      player's stack it attacks, 004 [8.46], [14.22]).

    Those of ``place`` and ``losses`` are read where the decisions they answer come up; the
    position may then differ (moves, combats), so they are what may be named as things stand."""
    kinds = [k for k in open_kinds(phase, ctx.s.options, bool(book(ctx).get("purged"))) if k in CHOSEN]
    if not kinds:
        return {}
    sim = scratch(ctx)
    s, d = sim.s, sim.data
    out: dict[str, dict[str, set[int]]] = {k: {f: set() for f in CHOSEN[k]} for k in kinds}
    pairs: dict[str, set[tuple[int, int]]] = {k: set() for k in kinds if len(CHOSEN[k]) == 2}
    moving = [k for k in kinds if k in MOVES]
    if moving:
        act_as(sim, seat, "movement")
        orders: list[dict] = []
        for a in live_movement.candidates(sim, seat):
            if type(a) is A.Merge and "merge" in moving:
                for x, y in ((a.stack, a.into), (a.into, a.stack)):
                    orders.append({"order": "merge", "unit": s.stacks[x].units[0], "into": s.stacks[y].units[0]})
            elif type(a) is A.TransferImperial and "transfer" in moving:
                orders += [{"order": "transfer", "unit": a.unit, "to": v} for v in s.stacks[a.to_stack].units]
            elif type(a) is A.Emigrate and "emigrate" in moving:
                orders.append({"order": "emigrate", "unit": a.unit})
            elif type(a) is A.CzechExit and "czech_exit" in moving:
                orders.append({"order": "czech_exit", "unit": a.unit})
        for o in {repr(sorted(o.items())): o for o in orders}.values():
            try:
                ok = legal(sim, action_of(sim, seat, normalize(o, phase)))
            except IllegalAction:
                ok = False
            if ok:
                kind = o["order"]
                got = out[kind]
                named = {f: [o[f]] if kind != "merge" else list(sim.b.stack_of(o[f]).units) for f in got}
                for f in got:          # (a merge names each stack by any unit in it: all are listed)
                    got[f].update(named[f])
                if kind in pairs:
                    f, h = CHOSEN[kind]
                    pairs[kind].update((u, v) for u in named[f] for v in named[h])
    on_map = sorted(sim.b.index())
    if "steal" in kinds:
        mine = [u for st in s.stacks.values() if st.owner == seat for u in st.units if d.units[u].is_leader]
        for lead in mine:
            for u in on_map:
                try:
                    check_steal(sim, seat, normalize({"order": "steal", "unit": u, "leader": lead}, phase))
                except IllegalAction:
                    continue
                out["steal"]["unit"].add(u)
                out["steal"]["leader"].add(lead)
                pairs["steal"].add((u, lead))
    if "place" in kinds and shock_armies.on(sim):
        for u in shock_armies.units(sim):
            if f"U:{u}" in s.aux:
                out["place"]["leaders"].update(shock_armies.leaders_for(sim, u))
    if "losses" in kinds:
        out["losses"]["prefer"] = {u for st in s.stacks.values() if combat.loss_chooser(sim, st.owner, seat) == seat
                                   for u in st.units}
    answer: dict[str, dict[str, list]] = {k: {f: sorted(v) for f, v in fs.items()} for k, fs in out.items()}
    for k, ps in pairs.items():
        answer[k]["pairs"] = [list(p) for p in sorted(ps)]
    return answer
