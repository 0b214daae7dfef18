"""What every part of the SPI solitaire shares: its seats and numbers (004 [18.0], [21.13],
[27.32], [28.11]), the way its event sentences name a force, and the die that picks among
equal options (004 [21.22], [23.11])."""

from __future__ import annotations

from rcw.data import BLUE, RED, WHITE
from rcw.rules import combat
from rcw.rules.base import Ctx
from rcw.state import Stack

MODE = "spi-solitaire"
RED_SEAT, NONRED = "R", "N"                               # 004 [18.0]: the Red Player and the system
LAST_TURN = 7                                             # 004 [27.32]
TARGETS = ("PETR", "TVER")                                # 004 [21.13]
OBJECTIVE_REGIONS = ("Greater Russia", "White Russia", "Ukraine", "Cossack Territories")   # 004 [28.11]


def side(seat: str) -> str:
    """How the event sentences name the side of ``seat``."""
    return "Red" if seat == RED_SEAT else "non-Red"


def pick(ctx: Ctx, n: int) -> int:
    """004 [21.22], [23.11]: choose one of ``n`` equal options "by the roll of a die".  Reading:
    with k <= 6 options we roll a die and re-roll results above k; with more than six (Kherson
    has seven equally short paths) a uniform draw."""
    if n <= 1:
        return 0
    if n > 6:
        return ctx.below(n)
    while True:
        r = ctx.die()
        if r <= n:
            return r - 1


def force_name(ctx: Ctx, st: Stack) -> str:
    """A non-Red force as the event sentences name it: its first leader's, or its nationality's."""
    d = ctx.data
    leaders = sorted(ctx.b.leaders_of(st))
    units = ctx.b.fighting_units(st)
    if leaders:
        head = f"{d.units[leaders[0]].name}'s force"
    else:
        u = d.units[units[0]] if units else None
        if u is None:
            return "an empty stack"
        names = d.blue_names if u.color == BLUE else d.green_names
        head = f"the {names.get(u.nationality, u.nationality)} force" if u.nationality else "a leaderless White stack"
    return f"{head} ({ctx.names(units)}, strength {combat.strength(ctx, units)})"


def pname(ctx: Ctx, code: str) -> str:
    """A province as ``Name (CODE)``."""
    return f"{ctx.data.provinces[code].name} ({code})"


def normalize_owners(ctx: Ctx) -> None:
    """Every Red stack is the Red Player's, every White stack the non-Red Player's (004 [18.0]);
    a Blue or Green stack is whoever holds its Control Marker (004 [20.12]), or no one's."""
    for st in ctx.s.stacks.values():
        c = ctx.b.stack_color(st)
        if c == RED:
            st.owner = RED_SEAT
        elif c == WHITE:
            st.owner = NONRED
