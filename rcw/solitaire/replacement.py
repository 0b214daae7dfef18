"""004 [25.0]: the Replacement Phase of the solitaire.

Only Red combat units and the Polish and Finnish Green units are replaced (004 [25.11]-
[25.13]); leaders never are (004 [25.14]).  The restrictions of 004 [9.1] still apply and are
the multi-player rules (:func:`rcw.rules.replacement.blocked_reason`): 004 [9.12] enemy-held
home province, 004 [9.13] Tver or Petrograd lost, 004 [9.14] Lenin or Trotsky killed, and
004 [9.16]: no replacements after Game-Turn 5.  Units are judged simultaneously (004 [9.17]).

Reading: 004 [9.15] "every Red leader eliminated" means on the VP chart: in the solitaire the
Red leaders off the map wait for the next Red Leader Determination Phase (004 [24.13]) and
are not eliminated.
"""

from __future__ import annotations

from rcw.actions import Event
from rcw.data import BLUE, GREEN, RED, WHITE
from rcw.rules import replacement
from rcw.rules.base import Ctx
from rcw.solitaire.base import NONRED, RED_SEAT, pname

REPLACED_GREEN = ("PO", "FN")                              # 004 [25.12]
LAST_REPLACEMENT_TURN = 5                                  # 004 [9.16]


def replacement_block(ctx: Ctx, uid: int, red_blocked: bool) -> str | None:
    """Why a unit on the Victory Point Chart is not replaced now (004 [25.1], [9.1]), or None."""
    d = ctx.data
    u = d.units[uid]
    if not u.is_combat:
        return "004 [25.14]: leaders are never replaced"
    if u.color == WHITE or u.color == BLUE or (u.color == GREEN and u.nationality not in REPLACED_GREEN):
        return "004 [25.11]: no White, Blue or Green units are replaced (only Polish and Finnish, 004 [25.12])"
    why = replacement.blocked_reason(ctx, uid, red_blocked)         # 004 [9.12]-[9.14]
    if why is not None and not why.startswith("004 [9.15]"):
        return why
    if u.color == RED and all(ctx.b.on_vp_chart(x.id) is not None for x in d.leaders(RED)):
        return "004 [9.15]: every Red leader has been eliminated"
    return None


def replacement_phase(ctx: Ctx) -> list[Event]:
    """004 [19.2] C, [25.0]: Red, Polish and Finnish combat units return to their home provinces
    (Game-Turns 1-5 only, 004 [9.16]); judged simultaneously (004 [9.17])."""
    s = ctx.s
    s.red_block = max(s.red_block, len(set(s.red_block_new)))
    s.red_block_new = []
    ev = [Event("phase", "Replacement Phase (004 [25.0])", {"phase": "replacement"})]
    if s.turn > LAST_REPLACEMENT_TURN:
        return ev + [Event("replacement_none", "No replacements after Game-Turn 5 (004 [9.16])", {})]
    red_blocked = s.red_block > 0
    if red_blocked:
        s.red_block -= 1
    chosen = sorted(uid for entries in s.vp.values() for uid, _f in entries
                    if replacement_block(ctx, uid, red_blocked) is None)
    for uid in chosen:
        u = ctx.data.units[uid]
        ctx.from_chart(uid)
        owner = RED_SEAT if u.color == RED else (NONRED if s.control.get(u.nationality) == NONRED else None)
        ctx.new_stack(u.province, owner, [uid])
        ctx.bump("replacements")
        ev.append(Event("replaced", f"{ctx.name(uid)} is replaced in {pname(ctx, u.province)} (004 [25.1])",
                        {"unit": uid, "province": u.province}))
    if red_blocked:
        ev.append(Event("replacement_blocked", "No Red replacements this Game-Turn: Lenin or Trotsky was eliminated "
                        "(004 [9.14], [24.14], [24.15])", {}))
    return ev
