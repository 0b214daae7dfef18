"""The postal game's names and bookkeeping (004 [17.0]), shared by its modules.

``State.postal`` holds everything the postal game adds to a game's state (plain data):

* ``phase``: the phase whose orders are being collected: ``"trading"`` (the pre-season trades of
  004 [17.0] postal [15.0]), ``"first"`` or ``"second"`` (the First and Second Phases of postal
  [4.2]); the same word is ``State.phase`` while orders are collected.
* ``sheets``: each seat's accepted orders for that phase, ``{seat: [[index, order], ...]}`` (the
  index is the order's place in the sheet as submitted, which reports and errors name).
* ``rejected``, ``warnings``: each seat's refused orders of its last submission, and the steps
  of its kept orders that the rules refuse (what its view shows it, :mod:`rcw.postal.validate`).
* ``purged``: whether a purge was conducted in this Game-Turn's First Phase (postal [4.2]).
* ``execution``: an execution order of the Czar awaiting its holder's answer (postal [13.5]).
* ``report``: the report of the last phase adjudicated (:mod:`rcw.postal.report`).

While a phase is adjudicated (inside one ``apply``) ``State.phase`` takes the names of the
multi-player game's phases ("movement", "combat") and ``State.order``/``State.current`` make the
seat whose orders are carried out the Phasing Player, so that the multi-player rule functions
judge each order as that player's own move (postal [5.0]: "as if that Player were the first to
move").  Between phases no Player-Turn is in progress.
"""

from __future__ import annotations

from rcw.actions import Event, IllegalAction
from rcw.rules.base import Ctx

MODE = "postal"
GM = "GM"                  # the seat name of the Gamesmaster's own action (ClosePhase): never a player
PHASES = ("trading", "first", "second")
PHASE_NAMES = {"deal": "the deal", "trading": "the pre-season trades", "first": "the First Phase", "second": "the Second Phase"}
MAX_ORDERS = 200           # orders on one sheet


def book(ctx: Ctx) -> dict:
    """``State.postal`` (see the module docstring)."""
    return ctx.s.postal


def active(ctx: Ctx) -> list[str]:
    return ctx.b.active_seats()


#: The multi-player phase whose actions a postal phase's orders are (postal [4.2]: the First
#: Phase's orders are a Movement Phase's, the Second's a Combat Phase's).
LIVE_PHASE = {"first": "movement", "second": "combat"}


def act_as(ctx: Ctx, seat: str, phase: str) -> None:
    """Make ``seat`` the Phasing Player in the multi-player ``phase`` ("movement", "combat") for
    the rule functions that judge its orders."""
    s = ctx.s
    if seat not in s.order:
        s.order = [p for p in s.seats if p not in s.quit or p == seat]
    s.current = s.order.index(seat)
    s.phase = phase


def order_error(index: int, kind: str, e: IllegalAction) -> dict:
    """A refused or skipped order as data: which (``index`` on the sheet, ``order`` kind), the
    rule case, the error code and the reason."""
    return {"index": index, "order": kind, "rule": e.rule, "code": e.code, "message": e.message}


def skipped(ctx: Ctx, seat: str, index: int, kind: str, e: IllegalAction, what: str = "") -> Event:
    """An order (or one step of it) the Gamesmaster could not carry out: "The Gamesmaster
    carries out all legal, written orders" (004 [17.0] Procedure), so it is skipped and reported."""
    data = {"seat": seat, **order_error(index, kind, e)}
    if what:
        data["step"] = what
    part = f" ({what})" if what else ""
    return Event("order_skipped", f"{seat}'s order #{index + 1} ({kind}){part} is not carried out: {e.rule}: {e.message}",
                 data)


class OrderRun:
    """One order being carried out: its events, and what becomes of a step the rules refuse:
    at the adjudication it is reported as skipped (an ``order_skipped`` event); while a sheet is
    checked as it arrives (``warnings`` given) it is noted there, the order being kept (it will be
    carried out as far as it goes).  A refusal that stops the whole order is the caller's to
    raise: at the adjudication it is reported, on arrival it refuses the order."""

    def __init__(self, ctx: Ctx, seat: str, index: int, kind: str, warnings: list | None = None,
                 offers: dict | None = None) -> None:
        self.ctx, self.seat, self.index, self.kind, self.warnings = ctx, seat, index, kind, warnings
        self.offers = offers       # (a sheet being checked for its writer: what a move may take along)
        self.ev: list[Event] = []

    @property
    def checking(self) -> bool:
        return self.warnings is not None

    def fail(self, e: IllegalAction, what: str = "", at: str | None = None) -> None:
        """``at``: where a moving force is when the step is refused (it stops there)."""
        if self.warnings is not None:
            self.warnings.append({**order_error(self.index, self.kind, e), "step": what, **({"at": at} if at else {})})
        else:
            self.ev.append(skipped(self.ctx, self.seat, self.index, self.kind, e, what))


def gm_pick(ctx: Ctx, n: int) -> int:
    """004 [17.0] postal [5.0], [12.0]: "the Gamesmaster determines in a random fashion" - one of
    ``n`` (at most six) by a die roll: the die's faces shared out equally, the rest rolled again."""
    if n <= 1:
        return 0
    if n > 6:
        return ctx.below(n)
    top = (6 // n) * n
    while True:
        r = ctx.die()
        if r <= top:
            return (r - 1) // (6 // n)
