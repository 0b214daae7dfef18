"""004 [27.0]: the solitaire's set-up.

The combat units and the Imperial units start as in the multi-player game (004 [27.1], with
004 [15.41]-[15.42], [15.51]: :func:`rcw.rules.setup.place_units`); the White leaders too,
except the five that 004 [27.12] moves; Lenin and Trotsky are the only Red leaders on the map
(004 [27.13]).  004 [20.11], [27.2]: no Assassin or Politburo markers, no purges, trades or
Central Committee; the Auxiliary Forces Randomizer holds the 17 Blue and Green markers.  Every
non-Red force is given its target and path (004 [21.24]).
"""

from __future__ import annotations

from rcw.actions import Event
from rcw.data import WHITE
from rcw.rules import setup as standard
from rcw.rules.base import LENIN, TROTSKY, Ctx
from rcw.solitaire.base import MODE, RED_SEAT, normalize_owners
from rcw.solitaire.routes import assign_route

SETUP_MOVES = {266: 219, 267: 218, 268: 220, 269: 216, 270: 217}   # 004 [27.12]: leader -> WU in SARA URAL TIFL KIRG SAMA


def setup(ctx: Ctx) -> list[Event]:
    """004 [27.1]-[27.2]: combat units as in the standard set-up (004 [15.4]); White leaders as in
    the multi-player game except the five of 004 [27.12]; only Lenin and Trotsky for Red; the
    Randomizer without Politburo and Assassin markers; non-Red targets and paths (004 [21.24])."""
    s, d = ctx.s, ctx.data
    standard.place_units(ctx)
    normalize_owners(ctx)                                                     # 004 [18.0]
    leaders = [u for u in sorted(d.units) if d.units[u].is_leader and d.units[u].color == WHITE]
    for lid in leaders + [LENIN, TROTSKY]:                                    # 004 [27.11], [27.13], [15.52]
        standard.lead_unit(ctx, lid, SETUP_MOVES.get(lid))                   # 004 [27.12]
    m = d.markers                                                              # 004 [20.11], [27.2]
    s.aux = [f"BC:{n}" for n in m.blue_control] + [f"WD:{n}" for n in m.blue_withdrawal] + [f"GC:{n}" for n in m.green_control]
    s.hand, s.politburo, s.assassins = {}, {p: 0 for p in s.seats}, {p: 0 for p in s.seats}
    s.solo = {"nr": "", "queue": [], "routes": {}, "rld_skips": [], "killed": [], "dead": [], "rld": {}, "czar": 0}
    ev = [Event("solitaire", "SPI solitaire (004 [18.0]-[28.0]): you are the Red Player; the non-Red forces follow "
                "the solitaire rules. Lenin in Petrograd and Trotsky in Tver are your only leaders on the map "
                "(004 [27.13]); win by clearing Greater Russia, White Russia, Ukraine and the Cossack region of "
                "non-Red units (004 [28.11]); lose if a non-Red unit ends a Game-Turn in Petrograd or Tver (004 [28.13]).",
                {"mode": MODE})]
    for st in sorted(s.stacks.values(), key=lambda x: x.id):                  # 004 [21.24]
        if st.owner != RED_SEAT and ctx.b.fighting_units(st):
            ev += assign_route(ctx, st, setup=True)
    return ev
