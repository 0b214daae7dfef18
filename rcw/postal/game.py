"""The postal game as a game mode: :class:`PostalGame`, a :class:`rcw.game.Game` whose players
send order sheets and whose Gamesmaster is the engine (004 [17.0]).

Two actions play it (:mod:`rcw.postal.sheets`): ``SubmitOrders(seat, turn, phase, sheet)``,
which a seat may send again to replace its sheet until the phase is adjudicated, and
``ClosePhase("GM", turn, phase, sheets)``, the Gamesmaster's deadline (a server calls it; only
the seat ``GM`` may, and it is not one of the game's seats).  ``Quit`` leaves the game as in the
multi-player game (004 [14.2]).  The phase is adjudicated inside the ``apply`` of the last sheet
(or of ``ClosePhase``, or of the ``Quit`` of the last seat awaited); its events end with the
``report`` event (:mod:`rcw.postal.report`).

``pending`` names the seats whose sheet is awaited (kind ``orders``); ``legal_actions(seat)``
lists the empty sheet and ``Quit`` (any sheet may be sent: the orders the rules refuse are left
out, see :mod:`rcw.postal.validate`), and for ``GM`` the ``ClosePhase`` with no sheets.  The view
adds ``postal``: the phase being collected, who has sent a sheet (never what), the seat's own
sheet and refused orders (to itself only), an execution order awaiting its answer and the last
report.  ``check_sheet(seat, sheet)`` judges a sheet without sending it, ``trade_orders(seat,
terms)`` a trade a seat proposes (its order and the partner's mirror order); the rule queries
(``reach``, ``attack_options`` in the Second Phase, ``odds``...) answer for the position whose
orders are collected.
"""

from __future__ import annotations

from typing import Any

from rcw import actions as A
from rcw.actions import Action, Event, IllegalAction, Plain
from rcw.data import GameData
from rcw.game import Game
from rcw.postal import sequence
from rcw.postal.base import GM, MODE, PHASE_NAMES, act_as, active, book
from rcw.postal.politics import POSTAL_4, mirror
from rcw.postal.sheets import ClosePhase, SubmitOrders, check_phase, normalize, open_kinds, orders_of
from rcw.postal.validate import check_sheet, choices, scratch
from rcw.rng import Dice
from rcw.rules import combat, quitting
from rcw.rules.base import Ctx
from rcw.state import copy_plain
from rcw.types import AttackOption


def check_submit(ctx: Ctx, a: SubmitOrders) -> None:
    check_phase(ctx.s, a.turn, a.phase)
    orders_of(a.sheet.data)


def do_submit(ctx: Ctx, a: SubmitOrders) -> list[Event]:
    b = book(ctx)
    accepted, rejected, warnings = check_sheet(ctx, a.seat, a.phase, a.sheet.data)
    again = a.seat in b["sheets"]
    b["sheets"][a.seat] = accepted
    b["rejected"][a.seat] = rejected
    b["warnings"][a.seat] = warnings
    ev = [Event("orders_submitted", f"{a.seat} {'sends a new sheet' if again else 'has sent its orders'} for "
                f"{PHASE_NAMES.get(a.phase, a.phase)} of Game-Turn {a.turn}",
                {"seat": a.seat, "turn": a.turn, "phase": a.phase, "replaced": again})]
    if sequence.complete(ctx):
        ev += sequence.adjudicate(ctx)
    return ev


def check_close(ctx: Ctx, a: ClosePhase) -> None:
    check_phase(ctx.s, a.turn, a.phase)
    given = a.sheets.data
    if not isinstance(given, dict):
        raise IllegalAction("004 [17.0]", "sheets maps seats to sheets", "bad_request")
    sent = book(ctx)["sheets"]
    for seat, sheet in given.items():
        if seat not in active(ctx) or seat in sent:
            raise IllegalAction("004 [17.0]", f"{seat!r} is not a seat whose sheet is awaited", "bad_request")
        orders_of(sheet)


def do_close(ctx: Ctx, a: ClosePhase) -> list[Event]:
    b = book(ctx)
    given = a.sheets.data
    missing = [p for p in active(ctx) if p not in b["sheets"]]
    for seat in missing:
        b["sheets"][seat], b["rejected"][seat], b["warnings"][seat] = check_sheet(
            ctx, seat, a.phase, given.get(seat, {"orders": []}))
    none = [p for p in missing if p not in given]
    written = [p for p in missing if p in given]
    ev = [Event("phase_closed", f"The deadline has passed: the Gamesmaster closes {PHASE_NAMES.get(a.phase, a.phase)} "
                f"of Game-Turn {a.turn}"
                + (f"; no sheet from {', '.join(written)}: a stand-in's sheet, written at the deadline, is used for "
                   f"{'each' if len(written) > 1 else 'it'} (a draft never sent counts for nothing)"
                   if written else "")
                + (f"; no sheet from {', '.join(none)}: no orders" if none else ""),
                {"turn": a.turn, "phase": a.phase, "missing": missing})]
    return ev + sequence.adjudicate(ctx, ev)


def do_quit(ctx: Ctx, a: A.Quit) -> list[Event]:
    """004 [14.2]; a phase that waited only for this seat is adjudicated."""
    ev = quitting.do(ctx, a)
    book(ctx)["sheets"].pop(a.seat, None)
    if ctx.s.phase != "over" and sequence.complete(ctx):
        ev += sequence.adjudicate(ctx)
    return ev


class PostalGame(Game):
    """The postal game (see the module docstring)."""

    MODE = MODE
    PLAYERS = 5
    HANDLERS = {SubmitOrders: (check_submit, do_submit), ClosePhase: (check_close, do_close),
                A.Quit: (quitting.check, do_quit)}
    # the choices order_choices last made: (the version they are for, {seat: choices})
    _choices_seen: tuple[int, dict[str, dict]] | None = None

    @classmethod
    def _options(cls, options: Any) -> dict:
        """The options of the multi-player game; ``postal_movement`` is always on (004 [17.0]
        postal [5.0]: the option's ``fixed`` value in this mode, :func:`rcw.options.validate`)."""
        if options is None or isinstance(options, dict):
            options = {"mode": MODE, **(options or {})}
        return super()._options(options)

    @classmethod
    def new(cls, players: int | None = None, seed: int = 0, options: dict | None = None,
            data: GameData | None = None, dice: Dice | None = None) -> PostalGame:
        """004 [15.31] the deal (the first report), then the pre-season trades are collected."""
        g = super().new(players, seed, options, data, dice)
        sequence.start(g.ctx, g.setup_events)
        return g  # type: ignore[return-value]

    def _handler(self, action: Action) -> tuple:
        if not isinstance(action, ClosePhase):
            self._check_seat(action)
        elif action.seat != GM:
            raise IllegalAction("004 [17.0]", "only the Gamesmaster (seat GM) closes a phase", "not_your_seat")
        elif self.state.phase == "over":
            raise IllegalAction("004 [14.1]", "the game is over", "game_over")
        handler = self.HANDLERS.get(type(action))
        if handler is None:
            raise IllegalAction("004 [17.0]", f"{action.TYPE} is not an action of the postal game: players send order "
                                "sheets (SubmitOrders) and the Gamesmaster carries them out", "unsupported")
        return handler

    def legal_actions(self, seat: str) -> list[Action]:
        s = self.state
        if s.phase == "over":
            return []
        phase = s.postal["phase"]
        if seat == GM:
            return [ClosePhase(GM, s.turn, phase)]
        if seat not in s.seats or seat in s.quit:
            return []
        return [SubmitOrders(seat, s.turn, phase, Plain({"orders": []})), A.Quit(seat)]

    @property
    def pending(self) -> list[dict]:
        s = self.state
        if s.phase == "over":
            return []
        sent = s.postal["sheets"]
        return [{"seat": p, "kind": "orders"} for p in self.ctx.b.active_seats() if p not in sent]

    def _turn_seat(self) -> str | None:
        return None

    # -- queries ----------------------------------------------------------------------------------------
    def check_sheet(self, seat: str, sheet: Any, offers: bool | int = False) -> dict[str, Any]:
        """What ``SubmitOrders`` would make of ``sheet`` now, without sending it: ``refused``, the
        orders it would leave out, and ``warnings``, the steps of kept orders the rules refuse
        (each an error: ``index``, ``order``, ``rule``, ``code``, ``message``, and ``step`` for a
        warning, with ``at`` for a move's step: the province where the force stops;
        :mod:`rcw.postal.validate`).  A sheet that is not one is refused
        (:class:`IllegalAction`).

        ``offers``: the answer also has ``offers``, for each ``move`` order kept (True) or the one
        of that index (an int), by its index, what its force may take along as the rules judge it
        where the order takes it (what a
        sheet's writer is offered while plotting a move): ``join``, the leaders who may join it
        as it starts, each ``{"leader", "with"}`` (the units attached to him, 004 [5.26]);
        ``drop`` and ``pick``, by province of its path (the start included), the units it may drop
        and pick up there (004 [5.13]); ``reach``, where it may go on to from where the order
        leaves it, with a route each (as :meth:`reach`; by rail only, before its first step, if
        the order says rail); ``rail``, whether it may (still) go by rail (004 [5.51]-[5.53])."""
        s = self.state
        if seat not in s.seats or seat in s.quit:
            raise IllegalAction("004 [15.21]", f"no active seat {seat!r} in this game", "unknown_seat")
        if s.phase == "over":
            raise IllegalAction("004 [14.1]", "the game is over", "game_over")
        offered: dict[int, dict] | None = {} if offers is not False else None
        only = None if isinstance(offers, bool) else offers
        _, refused, warnings = check_sheet(self.ctx, seat, s.postal["phase"], sheet.data if isinstance(sheet, Plain) else sheet,
                                           where=True, offers=offered, only=only)
        out: dict[str, Any] = {"refused": refused, "warnings": warnings}
        if offered is not None:
            out["offers"] = offered
        return out

    def order_choices(self, seat: str) -> dict[str, dict[str, list]]:
        """The units each unit field of an order kind may name in ``seat``'s sheet of the phase
        being collected, as the rules judge them on its position: ``{kind: {field: [unit id,
        ...]}}`` for the kinds of the phase among ``steal`` (004 [17.0] postal [13.26]),
        ``merge`` (004 [5.41]), ``transfer`` (004 [13.15]), ``emigrate`` (004 [13.31]),
        ``czech_exit`` (004 [5.66]), ``place`` (``leaders``, 001 Optional Forces) and ``losses``
        (``prefer``, 004 [8.44]); an empty list: none may be named.  A kind with two unit fields
        (``steal``, ``merge``, ``transfer``) also has ``pairs``, the ``[first, second]`` that may
        be named together.  Each is judged by the check its order gets when the sheet arrives
        (:func:`rcw.postal.validate.choices`): a ``merge``, ``transfer``, ``emigrate``,
        ``czech_exit`` or ``steal`` order alone on a sheet naming a unit listed (a pair, for
        two fields) is kept, one naming a unit not listed refused.  The answer is kept while
        the game stays as it is (:attr:`version`: the view of every push carries it,
        ``view.postal.choices``; code that edits a State directly, as tests do, does so first).
        For a seat not active, or once the game is over: ``{}``."""
        s = self.state
        if s.phase == "over" or seat not in s.seats or seat in s.quit:
            return {}
        seen = self._choices_seen
        if seen is None or seen[0] != self.version:
            seen = self._choices_seen = (self.version, {})
        got = seen[1].get(seat)
        if got is None:
            got = seen[1][seat] = choices(self.ctx, seat, s.postal["phase"])
        return copy_plain(got)

    def trade_orders(self, seat: str, terms: Any) -> dict[str, dict]:
        """A trade ``seat`` would propose now (postal [4.2]: a trade by post is made when both
        sheets hold mirror ``trade`` orders, or, for a gift, when the receiver accepts gifts):
        ``terms`` is its ``trade`` order without the ``order`` field (``with``, ``give_*``,
        ``take_*``; a field left out takes its default).  Returns ``order``, the order ``seat``
        writes, and ``mirror``, the one ``with`` writes to match it
        (:func:`rcw.postal.politics.mirror`), both with every field.  Raises
        :class:`IllegalAction` as its sheet would refuse the order now: the game over
        (``game_over``), a phase whose sheets take no trade (``wrong_phase``), an order of the
        wrong form (``bad_order``), or one the rules refuse as things stand (004 [15.33]:
        leaders in the pre-season trades only; markers the players hold, 004 [10.0], [11.0])."""
        s = self.state
        if s.phase == "over":
            raise IllegalAction("004 [14.1]", "the game is over", "game_over")
        if seat not in s.seats or seat in s.quit:
            raise IllegalAction("004 [15.21]", f"no active seat {seat!r} in this game", "unknown_seat")
        phase = s.postal["phase"]
        if "trade" not in open_kinds(phase, s.options, bool(s.postal.get("purged"))):
            raise IllegalAction(POSTAL_4, f"the sheets of {PHASE_NAMES.get(phase, phase)} take no trade orders",
                                "wrong_phase")
        if not isinstance(terms, dict) or "order" in terms:
            raise IllegalAction("004 [17.0]", "a trade's terms are a map of the trade order's fields", "bad_order")
        order = normalize({"order": "trade", **terms}, phase)
        _, refused, _ = check_sheet(self.ctx, seat, phase, {"orders": [order]})
        if refused:
            r = refused[0]
            raise IllegalAction(r["rule"], r["message"], r["code"])
        return {"order": order, "mirror": mirror(seat, order)}

    def rehearsal(self, seat: str, seed: int):
        """A copy of the phase whose orders are collected, in which ``seat`` plays its Movement
        Phase (First Phase) or Combat Phase (Second Phase) of the multi-player game, its actions
        written down as a sheet (:mod:`rcw.postal.rehearsal`): how a computer player writes its
        orders.  Its dice are drawn from ``seed``; the other seats' sheets are not in it."""
        s = self.state
        if seat not in s.seats or seat in s.quit:
            raise IllegalAction("004 [15.21]", f"no active seat {seat!r} in this game", "unknown_seat")
        if s.phase not in ("first", "second"):
            raise IllegalAction("004 [17.0] postal [4.2]", "only the First and Second Phases are played out", "wrong_phase")
        return _rehearse(self, seat, seed)

    def attack_options(self, seat: str) -> list[AttackOption]:
        """In the Second Phase: every attack ``seat`` may order, with the groups of its stacks that
        may make it and their odds (:func:`rcw.rules.combat.attack_options`, on the position whose
        orders are collected); otherwise none."""
        if self.state.phase != "second" or seat not in self.ctx.b.active_seats():
            return []
        sim = scratch(self.ctx)
        act_as(sim, seat, "combat")
        sim.s.fought, sim.s.defended = [], []
        return combat.attack_options(sim, seat)


def _rehearse(g: PostalGame, seat: str, seed: int):
    from rcw.postal.rehearsal import rehearsal

    return rehearsal(g, seat, seed)


def _postal(g: Game, seat: str | None) -> dict:
    s = g.state
    b = s.postal
    out = {"phase": b.get("phase"), "turn": s.turn, "submitted": [p for p in s.seats if p in b.get("sheets", {})],
           "awaited": [p["seat"] for p in g.pending], "purged": bool(b.get("purged")),
           "kinds": open_kinds(b.get("phase"), s.options, bool(b.get("purged"))),
           "execution": copy_plain(b.get("execution")), "report": copy_plain(b.get("report"))}
    if seat in s.seats:
        out["sheet"] = copy_plain(b.get("sheets", {}).get(seat))
        out["rejected"] = copy_plain(b.get("rejected", {}).get(seat, []))
        out["warnings"] = copy_plain(b.get("warnings", {}).get(seat, []))
        out["choices"] = g.order_choices(seat) if isinstance(g, PostalGame) else {}
    return out


def reports(record: dict) -> list[dict]:
    """Every report of a postal game, in order (the deal's first), by replaying it: ``record`` is a game's record
    (``seed``, ``players``, ``options``, ``actions``), or, to try sheets out, ``seed``,
    ``players`` and ``sheets``: a list of ``{"seat", "turn", "phase", "orders"}``, sent in that
    order.  An action the rules refuse raises :class:`IllegalAction` (naming it by its place)."""
    if not isinstance(record, dict) or "seed" not in record:
        raise IllegalAction("004 [17.0]", "a record has a seed and the actions (or sheets) of the game", "bad_request")
    if record["seed"] is None:                         # (a running game's record: its seed is sealed)
        raise IllegalAction("004 [17.0]", "the record's seed is sealed until the game is over (its commitment is "
                            "published; the seed with it at the end): read a running game's reports in its page or "
                            "with rcw play ('reports')", "sealed")
    opts = record.get("options")
    if opts is None:                                   # (none given: a postal game's)
        opts = {"mode": MODE}
    elif isinstance(opts, dict) and "sheets" in record and "actions" not in record and not opts.get("mode"):
        opts = {**opts, "mode": MODE}                  # (sheets to try out: the postal game, with these options)
    if not isinstance(opts, dict) or opts.get("mode") != MODE:
        what = (f"its options are {opts!r}" if not isinstance(opts, dict) else
                f"the record is of a game of mode {opts['mode']!r}" if opts.get("mode") else
                "the record is of the multi-player game (no mode)")
        raise IllegalAction("options", f"not a postal game: {what}; only a postal game (mode 'postal') has reports",
                            "bad_request")
    if "actions" in record:
        actions = list(record["actions"])
    else:
        actions = [{"t": "SubmitOrders", "seat": x.get("seat"), "turn": x.get("turn"), "phase": x.get("phase"),
                    "sheet": {"orders": x.get("orders", [])}} for x in record.get("sheets", [])]
    g = PostalGame.new(record.get("players"), record["seed"], opts)
    out = [g.state.postal["report"]]
    for n, a in enumerate(actions):
        try:
            events = g.apply(a)
        except IllegalAction as e:
            raise IllegalAction(e.rule, f"action {n + 1} ({a.get('t') if isinstance(a, dict) else a}): {e.message}",
                                e.code) from None
        out += [e.data for e in events if e.kind == "report"]
    return out


PostalGame.VIEW_FIELDS = {**Game.VIEW_FIELDS, "phasing": lambda g, seat: None, "postal": _postal}
