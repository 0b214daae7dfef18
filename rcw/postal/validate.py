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

from rcw.actions import IllegalAction
from rcw.postal.base import LIVE_PHASE, book, order_error
from rcw.postal.combat import attack
from rcw.postal.movement import KINDS as MOVES
from rcw.postal.movement import carry_out, check_assassinate
from rcw.postal.politics import POSTAL_4, check_execute, check_purge, check_steal, check_trade, do_steal, purge_doubt
from rcw.postal.sheets import normalize, open_kinds, orders_of
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
