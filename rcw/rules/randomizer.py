"""004 [12.13] The Auxiliary Forces Randomizer: Assassin markers, Blue and Green Control
markers (control of every unit of that nationality), Blue Withdrawal markers; with the optional
forces of 001, their chits too (:mod:`rcw.rules.auxiliary`)."""

from __future__ import annotations

from rcw.actions import Event
from rcw.data import BLUE, GREEN
from rcw.rules import auxiliary
from rcw.rules.base import Ctx


def units_of(ctx: Ctx, nat: str, color: str) -> list[int]:
    return [u for st in ctx.s.stacks.values() for u in st.units
            if ctx.data.units[u].color == color and ctx.data.units[u].nationality == nat]


def withdrawal_markers_left(ctx: Ctx) -> list[str]:
    """The nationalities whose Withdrawal Marker is still in the Auxiliary Forces Randomizer
    (004 [5.67], [12.13]; the Freikorps' Out Marker, 001 Freikorps; none for the Germans when
    they leave on Game-Turn 2 anyway, the 004 critique's German withdrawal).  Public knowledge:
    every draw is shown, so what is left is known; only its order is secret (hence sorted)."""
    return sorted({chit[3:] for chit in ctx.s.aux if chit.startswith("WD:")})


def draw(ctx: Ctx, seat: str, ask: bool = False, after: str = "") -> list[Event]:
    """Pick a chit and apply it (004 [12.13]).  The drawer of the Control Marker of a Blue force
    withdrawn or totally eliminated, or of the Withdrawal Marker of a force totally eliminated,
    "may immediately draw again".  ``ask``: that is his decision (a ``redraw`` decision, answered
    with :class:`~rcw.actions.RedrawChit`; ``after`` names what the game does once the draw is
    over: ``"randomizer"``, the end of the Randomizer Phase).  Without ``ask`` (the SPI
    solitaire's non-Red Player, a procedure) he always draws again.  With nothing left to draw,
    the marker is kept."""
    s = ctx.s
    ev: list[Event] = []
    while s.aux:
        chit = s.aux.pop(ctx.below(len(s.aux)))
        optional, more = resolve(ctx, seat, chit, after)
        ev += more
        if not optional:
            return ev
        if not ask:
            ev.append(Event("redraw", f"{seat} draws again (004 [12.13])", {"seat": seat, "chit": chit}))
            continue
        if not s.aux:
            ev.append(keep(ctx, seat, chit))
            return ev
        s.decision = {"kind": "redraw", "seat": seat, "chit": chit, "after": after,
                      "marker": "control" if chit.startswith("BC:") else "withdrawal",
                      "force": ctx.data.blue_names[chit.split(":")[1]]}
        ev.append(Event("redraw_offered", f"{seat} may keep the marker or draw again (004 [12.13])",
                        {"seat": seat, "chit": chit}))
        return ev
    ev.append(Event("randomizer_empty", "The Auxiliary Forces Randomizer is empty", {}))
    return ev


def keep(ctx: Ctx, seat: str, chit: str) -> Event:
    """004 [12.13]: the drawer keeps a marker that entitled him to draw again: a Blue Control
    Marker stays his (:func:`resolve` gave it to him); a Withdrawal Marker is kept as a record."""
    nat = chit.split(":")[1]
    name = ctx.data.blue_names[nat]
    if chit.startswith("WD:"):
        ctx.s.withdrawal_markers.setdefault(seat, []).append(nat)
        what = "withdrawal"
    else:
        what = "control"
    return Event("kept", f"{seat} keeps the {name} {what} marker (004 [12.13])", {"seat": seat, "chit": chit})


def resolve(ctx: Ctx, seat: str, chit: str, after: str = "") -> tuple[bool, list[Event]]:
    """Apply one chit; returns (may the drawer draw again? (004 [12.13]), events).  A chit of
    an optional force (001) may suspend play on its drawer's decision (``after``: see :func:`draw`)."""
    s = ctx.s
    got = auxiliary.resolve(ctx, seat, chit, after)
    if got is not None:
        return got
    if chit == "A":
        s.assassins[seat] = s.assassins.get(seat, 0) + 1
        return False, [Event("drew", f"{seat} draws an Assassin marker", {"seat": seat, "chit": chit})]
    if chit == "P":
        s.politburo[seat] = s.politburo.get(seat, 0) + 1
        return False, [Event("drew", f"{seat} draws a Politburo marker", {"seat": seat, "chit": chit})]
    kind, nat = chit.split(":")
    if kind == "BC":
        name = ctx.data.blue_names[nat]
        if nat in s.withdrawn or not units_of(ctx, nat, BLUE):
            s.control[nat] = seat
            return True, [Event("drew", f"{seat} draws the {name} control marker, whose units are gone",
                                {"seat": seat, "chit": chit})]
        return False, [take_control(ctx, seat, nat, BLUE)]
    if kind == "GC":
        return False, [take_control(ctx, seat, nat, GREEN)]
    # Withdrawal (004 [5.67], [12.13] 3)
    name = ctx.data.blue_names[nat]
    gone = units_of(ctx, nat, BLUE)
    if not gone:
        return True, [Event("drew", f"{seat} draws the {name} withdrawal marker; that force is gone",
                            {"seat": seat, "chit": chit})]
    withdraw(ctx, nat)
    s.withdrawal_markers.setdefault(seat, []).append(nat)
    return False, [Event("withdrawal", f"{seat} draws the {name} withdrawal marker: {len(gone)} {nat} units leave the game",
                         {"seat": seat, "chit": chit, "units": gone})]


def withdraw(ctx: Ctx, nat: str) -> list[int]:
    """004 [5.67]: every Blue unit of ``nat`` on the map is permanently removed from play (not to
    the Victory Point Chart); returns them."""
    gone = units_of(ctx, nat, BLUE)
    for u in gone:
        ctx.take(u)
        ctx.s.removed.append(u)
    ctx.s.withdrawn.append(nat)
    return gone


def take_control(ctx: Ctx, seat: str, nat: str, color: str) -> Event:
    """004 [5.61], [5.71]: the drawer controls every unit of that nationality, except Green
    units attached to another player's leader holding the Gold (004 [13.26])."""
    s = ctx.s
    s.control[nat] = seat
    names = ctx.data.blue_names if color == BLUE else ctx.data.green_names
    n = 0
    for st in list(s.stacks.values()):
        mine = [u for u in st.units if ctx.data.units[u].color == color and ctx.data.units[u].nationality == nat]
        if not mine:
            continue
        if color == GREEN and any(st.attached.get(u) for u in mine):
            continue
        st.owner = seat
        n += len(mine)
    return Event("drew", f"{seat} draws the {names[nat]} control marker and takes command of {n} unit{'s' if n != 1 else ''}",
                 {"seat": seat, "chit": f"{'BC' if color == BLUE else 'GC'}:{nat}", "units": n})
