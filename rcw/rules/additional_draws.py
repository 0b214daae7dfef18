"""001 Additional Randomizer Draws (an optional rule; the game option ``additional_draws``): "If
any Russian province containing a city is occupied solely Red or White forces under the sole
control of one player, that player may make up to two Randomizer draws during his turn.  If
either Moscow or Petrograd are controlled, this option increases to three draws.  No player may
gain bonus draws from more than one city in this manner."

The cities are map data (``Province.city``, reconstructed: data/map.toml's provenance); Tver
stands for Moscow.  In the standard game they have no effect (004 [5.37]).

Readings (001 is silent):

* "up to two Randomizer draws during his turn": two draws in all in his Randomizer Phase, the
  usual one and a bonus one; three in all with Moscow (Tver) or Petrograd.  "No player may gain
  bonus draws from more than one city": the best city counts, never the sum.
* "occupied solely [by] Red or White forces under the sole control of one player": every leader
  and combat unit in the province is Red or White (a Green unit attached to a leader holding the
  Gold is his colour, 004 [13.26]) and stands in a stack he controls; Imperial units do not
  count; an empty province is not occupied.  A Russian province: not Finland nor Poland
  (``GameData.russian``).
* "may": each draw is the player's choice.  After the first, ``DrawRandomizer`` stays legal while
  the position (judged at each draw: a chit drawn may change it) allows another, and
  ``EndPlayerTurn`` ends the Player-Turn instead.  A "Draw from the Randomizer" Random Event is
  not one of these draws.
"""

from __future__ import annotations

from rcw.data import RED, WHITE
from rcw.rules.base import Ctx

RULE = "001 Additional Randomizer Draws"
OPTION = "additional_draws"
CAPITALS = ("TVER", "PETR")            # Moscow (Tver stands for it, 004 [9.13]) and Petrograd: three draws


def on(ctx: Ctx) -> bool:
    return bool(ctx.s.options.get(OPTION))


def held_cities(ctx: Ctx, seat: str) -> list[str]:
    """The Russian provinces with a city that ``seat``'s Red or White forces alone occupy."""
    d = ctx.data
    colors = ctx.b.stack_colors()
    ok: dict[str, bool] = {}
    for st in ctx.s.stacks.values():
        p = st.province
        if not d.provinces[p].city or p not in d.russian or ok.get(p) is False:
            continue
        if not ctx.b.fighting_units(st):
            continue                                  # Imperial units alone do not count
        ok[p] = st.owner == seat and colors[st.id] in (RED, WHITE)
    return sorted(p for p, good in ok.items() if good)


def allowance(ctx: Ctx, seat: str) -> int:
    """How many Randomizer draws ``seat`` may make in this Randomizer Phase: one, two for a city,
    three for Moscow or Petrograd (the best one city only)."""
    if not on(ctx):
        return 1
    held = held_cities(ctx, seat)
    if not held:
        return 1
    return 3 if any(p in CAPITALS for p in held) else 2


def made(ctx: Ctx) -> int:
    """The Randomizer draws made in this Randomizer Phase."""
    if not ctx.s.drawn:
        return 0
    return ctx.s.optional.get("draws", 1)


def note_draw(ctx: Ctx) -> None:
    """Count a draw of the Randomizer Phase (before it is made)."""
    if on(ctx):
        n = made(ctx) + 1
        ctx.s.optional["draws"] = n
        if n > 1:
            ctx.bump("extra_draws")


def more(ctx: Ctx, seat: str) -> bool:
    """Whether ``seat`` may draw again in this Randomizer Phase."""
    return on(ctx) and made(ctx) < allowance(ctx, seat) and bool(ctx.s.aux)
