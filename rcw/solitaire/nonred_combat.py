"""004 [23.0]: the non-Red Combat Phase, and the decisions the non-Red Player takes out of turn
(Exchange losses 004 [23.16], Imperial captures 004 [13.41]).

Attacks are declared, combined and resolved by the multi-player combat rules
(:mod:`rcw.rules.combat`: strength, odds, the Combat Results Table); the solitaire only decides
which attacks the non-Red Player must make.

Readings where the rules are silent or ambiguous:

* 004 [23.11] with 004 [8.22], [8.25]: "all White, Green and Blue controllable forces must
  attack" the weakest Red force.  Whether White and Green units may attack together is the
  option ``white_green_combine`` (docs/rules-coverage.md, "Readings").  By default they may
  not, and a stack is attacked once per Combat Phase: so in a province with Red units the
  White forces (with the Blue ones, friendly to both, 004 [8.15]) attack the weakest Red
  force, then the Green forces attack the weakest Red force not yet attacked.  With the
  option, all of them (White, Green and Blue) make one attack on the weakest Red force, as
  the case says.  Each attack only at 1:1 or better (004 [23.14]).  White forces attack Green forces (004 [23.12]) whether or not the
  non-Red Player holds that Green Control Marker: the case does not distinguish.
* 004 [23.16] names Blue units, Green units and White *leaders*; we read the omitted White
  combat units as coming before the White leaders.  Within a class the weakest unit that
  covers what is still owed goes first; if none covers it, the strongest of the class.
  For an uncontrolled stack attacked by Red the Red Player chooses (004 [8.46]).
* 004 [13.41]: the non-Red Player always captures an Imperial unit it may capture.
"""

from __future__ import annotations

from rcw import actions as A
from rcw.actions import Event, IllegalAction
from rcw.data import BLUE, GREEN, RED, WHITE
from rcw.rules import combat
from rcw.rules.base import Ctx
from rcw.solitaire.base import NONRED, force_name, pick
from rcw.state import Stack


def weakest(ctx: Ctx, stacks: list[Stack]) -> tuple[Stack | None, int]:
    """004 [23.11]: the weakest of ``stacks`` (a die picks among equals) and how many were equal."""
    if not stacks:
        return None, 0
    strengths = {st.id: combat.strength(ctx, ctx.b.fighting_units(st)) for st in stacks}
    low = min(strengths.values())
    tied = sorted((st for st in stacks if strengths[st.id] == low), key=lambda x: x.id)
    return tied[pick(ctx, len(tied))], len(tied)


def nonred_attack(ctx: Ctx, prov: str, group: int) -> list[Event]:
    """004 [23.11]-[23.17]: the attack (if any) one group of controllable non-Red forces in
    ``prov`` must make.  Group 0: White (with Blue) forces; group 1: Green forces.  With the
    ``white_green_combine`` option (004 [8.22]), group 0 against Red is every controllable
    force (White, Green and Blue) and group 1 makes no attack."""
    s, b = ctx.s, ctx.b
    here = b.stacks_in(prov)

    def fresh(st: Stack) -> bool:
        return not any(u in s.fought for u in combat.attack_units(ctx, st))

    def attackable(st: Stack, color: str) -> bool:
        return bool(b.fighting_units(st)) and b.stack_color(st) == color and not any(u in s.defended for u in b.fighting_units(st))

    mine = [st for st in here if st.owner == NONRED and combat.attack_units(ctx, st) and fresh(st)]
    any_red = any(b.fighting_units(st) and b.stack_color(st) == RED for st in here)
    if any_red:                                                          # 004 [23.11]
        together = combat.white_green_combine(ctx)                       # 004 [8.22]
        if group == 0:
            attackers = [st for st in mine if b.stack_color(st) in ((WHITE, BLUE, GREEN) if together else (WHITE, BLUE))]
        elif together:
            return []
        else:
            attackers = [st for st in mine if b.stack_color(st) == GREEN]
        targets, rule = [st for st in here if attackable(st, RED)], "004 [23.11]"
    else:                                                                # 004 [23.12], [23.13]
        if group != 0:
            return []
        attackers = [st for st in mine if b.stack_color(st) == WHITE]
        targets, rule = [st for st in here if attackable(st, GREEN)], "004 [23.12]"
    if not attackers or not targets:
        return []
    target, tied = weakest(ctx, targets)
    att = combat.attack_strength(ctx, attackers, False)
    dfn = combat.strength(ctx, b.fighting_units(target))
    tdesc = f"{ctx.names(b.fighting_units(target))} (strength {dfn})"
    adesc = "; ".join(force_name(ctx, st) for st in attackers)
    whom = "Red" if any_red else "Green"
    if (combat.odds_column(att, dfn) or 0) < 1:                          # 004 [23.14], [23.15]
        return [Event("nonred_no_attack", f"Non-Red in {prov}: {adesc} would attack the weakest {whom} force, "
                      f"{tdesc}, but {att} against {dfn} is below 1:1 — no non-Red attack (004 [23.14], [23.15])",
                      {"province": prov, "seat": NONRED})]
    ev = [Event("nonred_attack", f"Non-Red in {prov}: {adesc} must attack the weakest {whom} force, {tdesc}"
                + (f" (chosen by die among {tied} equally weak, {rule})" if tied > 1 else f" ({rule})"),
                {"province": prov, "target": target.id, "seat": NONRED})]
    declare = A.DeclareAttack(NONRED, target.id, False)
    combat.check_declare(ctx, declare)
    ev += combat.do_declare(ctx, declare)
    for st in attackers:
        add = A.AddAttacker(NONRED, st.id)
        combat.check_add(ctx, add)
        ev += combat.do_add(ctx, add)
    res = A.ResolveAttack(NONRED)
    combat.check_resolve(ctx, res)
    ev += combat.do_resolve(ctx, res)
    return ev


# -- out-of-turn decisions the non-Red Player takes (004 [23.16], [13.41]) ----------------------------------
def _loss_class(ctx: Ctx, uid: int) -> int:
    """004 [23.16]: Blue units first, then Green, then White combat units, White leaders last."""
    u = ctx.data.units[uid]
    if u.color == BLUE:
        return 0
    if u.color == GREEN:
        return 1
    if u.is_combat:
        return 2
    return 3


def choose_exchange_loss(ctx: Ctx, units: list[int], need: int) -> int:
    """004 [23.16]: the next unit the non-Red Player loses to an Exchange: Blue units first, then
    Green, then White combat units, White leaders last.  Within a class the weakest unit that
    covers what is still owed, else the strongest of the class."""
    d = ctx.data
    cls = min(_loss_class(ctx, u) for u in units)
    pool = sorted((u for u in units if _loss_class(ctx, u) == cls), key=lambda u: (d.units[u].strength, u))
    covers = [u for u in pool if d.units[u].strength >= need]
    if covers:
        return covers[0]
    return max(pool, key=lambda u: (d.units[u].strength, -u))


def nonred_decision(ctx: Ctx) -> list[Event]:
    """Answer the decision play waits for when it is the non-Red Player's: an Exchange loss
    (004 [23.16]) or an Imperial capture (004 [13.41]), through the multi-player handlers."""
    s = ctx.s
    dec = s.decision
    if dec["kind"] == "loss":
        u = choose_exchange_loss(ctx, dec["units"], dec["need"])
        ev = [Event("nonred_loss", f"Non-Red Exchange loss: {ctx.name(u)} (Blue, then Green, then White units, "
                    "White leaders last: 004 [23.16])", {"unit": u, "seat": NONRED})]
        a = A.ChooseLoss(NONRED, u)
        combat.check_loss(ctx, a)
        return ev + combat.do_loss(ctx, a)
    if dec["kind"] == "capture":
        for u in dec["units"]:
            for sid in dec["stacks"]:
                if sid in s.stacks:
                    leaders = sorted(ctx.b.leaders_of(s.stacks[sid]))
                    a = A.CaptureImperial(NONRED, u, sid, leaders[0] if leaders else 0)
                    try:
                        combat.check_capture(ctx, a)
                    except IllegalAction:
                        continue
                    return combat.do_capture(ctx, a)
        return combat.do_decline_capture(ctx, A.DeclineCapture(NONRED))
    raise RuntimeError(f"no solitaire procedure for a non-Red {dec['kind']} decision")
