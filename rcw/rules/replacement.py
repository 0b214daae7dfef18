"""004 [9.0] Replacement of combat units, in the Interphase after Game-Turns 1-5.

Reading (the option ``turn5_replacements``, docs/rules-coverage.md "Readings"): 004 [9.16] "No
units may be replaced after the Fifth Game-Turn" and 004 [14.3] "after the Replacement Segment
of the Fifth Game-Turn" are read by default with 004 [4.1] (the Interphase is part of the
Game-Turn it follows), so the Interphase that ends Game-Turn 5 has the last replacements; with
the option off, the last is the one that ends Game-Turn 4 (its Game-Turn Indication Segment,
004 [4.2] B.1, has just moved the marker to 5)."""

from __future__ import annotations

from rcw.actions import Event
from rcw.data import BLUE, GREEN, RED, WHITE
from rcw.rules.base import Ctx
from rcw.state import opposed


def blocked_reason(ctx: Ctx, uid: int, red_blocked: bool) -> str | None:
    """Why a unit on the VP chart cannot be replaced now, or None (004 [9.11]-[9.15])."""
    u = ctx.data.units[uid]
    if not u.is_combat or u.color == BLUE:
        return "004 [9.11]: only Red, White and Green combat units are replaced"
    if u.option:
        return "001: the optional forces return by their own rules, never by 004 [9.0]"
    colors = {ctx.b.color_of(x, st) for st in ctx.b.stacks_in(u.province) for x in st.units
              if not ctx.data.units[x].is_imperial}
    if any(opposed(u.color, c) for c in colors) and u.color not in colors:
        return f"004 [9.12]: {u.province} is held by an enemy"
    if u.color == RED:
        if red_blocked:
            return "004 [9.14]: Lenin or Trotsky was eliminated"
        for key in ("TVER", "PETR"):
            cs = {ctx.b.color_of(x, st) for st in ctx.b.stacks_in(key) for x in st.units
                  if not ctx.data.units[x].is_imperial}
            if cs - {RED} and RED not in cs:
                return f"004 [9.13]: {key} is occupied by non-Red units"
    if u.color in (RED, WHITE) and not ctx.b.any_on_map("leader", u.color):
        return f"004 [9.15]: every {u.color} leader has been eliminated"
    return None


def last_turn(ctx: Ctx) -> int:
    """The last Game-Turn whose Interphase replaces units (004 [9.16], [14.3]; the option
    ``turn5_replacements``)."""
    return 5 if ctx.s.options.get("turn5_replacements", True) else 4


def replace(ctx: Ctx, finished_turn: int) -> list[Event]:
    s = ctx.s
    s.red_block = max(s.red_block, len(set(s.red_block_new)))
    s.red_block_new = []
    if finished_turn > last_turn(ctx):                      # 004 [9.16], [14.3]
        return []
    red_blocked = s.red_block > 0
    if red_blocked:
        s.red_block -= 1
    chosen = []
    for entries in s.vp.values():
        for uid, _face in entries:
            if blocked_reason(ctx, uid, red_blocked) is None:    # judged simultaneously (004 [9.17])
                chosen.append(uid)
    ev = []
    for uid in sorted(chosen):
        u = ctx.data.units[uid]
        ctx.from_chart(uid)
        owner = s.control.get(u.nationality) if u.color == GREEN else None
        if owner in s.quit:
            owner = None
        ctx.new_stack(u.province, owner, [uid])                # 004 [9.0]: never stacked on return
        ctx.bump("replacements")
        ev.append(Event("replaced", f"{ctx.name(uid)} is replaced in {ctx.data.provinces[u.province].name}",
                        {"unit": uid, "province": u.province}))
    if red_blocked:
        ev.append(Event("replacement_blocked", "No Red replacements this Game-Turn (Lenin or Trotsky was eliminated, 004 [9.14])", {}))
    return ev
