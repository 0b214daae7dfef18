"""004 [19.0]: the solitaire's Sequence of Play, and :func:`settle`, which runs everything that
happens without the Red Player.

Each Game-Turn (004 [19.2]): the non-Red Player-Turn (Random Events, Movement, Stacking,
Combat, Randomizer) runs inside ``apply`` with no input, except that the Red Player chooses his
own Exchange losses (004 [8.44]) and Imperial captures (004 [13.41]) when the non-Red attacks
call for them; then the Red Player-Turn: ``RollRandomEvents``, the Red Leader Determination
Phase (``DeployLeader`` ... ``EndLeaderDeployment``), Movement and Combat exactly as in the
multi-player game, ``DrawRandomizer``; then the Replacement Phase (004 [25.0]) and the
Game-Turn Indication Phase.  The game starts with Game-Turn 1's non-Red Player-Turn already
played (``Game.setup_events`` reports it, 004 [27.31]).

``State.solo["nr"]`` names the next step of the non-Red Player-Turn ("" when none is under
way), ``State.solo["queue"]`` the attacks still to consider in its Combat Phase.
"""

from __future__ import annotations

from rcw import actions as A
from rcw.actions import Event
from rcw.rules import sequence
from rcw.rules.base import Ctx
from rcw.solitaire import nonred_combat, nonred_movement, nonred_stacking, random_events, red, replacement, victory
from rcw.solitaire.base import LAST_TURN, NONRED, RED_SEAT, normalize_owners


# -- the two Player-Turns (004 [19.2] A, B) ------------------------------------------------------------
def start_nonred_turn(ctx: Ctx) -> list[Event]:
    """004 [19.2] A, [27.31]: the non-Red Player-Turn begins (the non-Red Player is first)."""
    s = ctx.s
    s.order, s.current = [NONRED, RED_SEAT], 0
    sequence.begin_player_turn(ctx)                         # a fresh Player-Turn, in its Random Events Phase
    s.solo["nr"] = "random_events"
    return [Event("player_turn", f"Game-Turn {s.turn}: the non-Red Player-Turn (004 [19.2] A, 004 [27.31])",
                  {"seat": NONRED, "turn": s.turn})]


def start_red_turn(ctx: Ctx) -> list[Event]:
    """004 [19.2] B: the Red Player-Turn begins."""
    s = ctx.s
    s.current = 1
    sequence.begin_player_turn(ctx)
    return [Event("player_turn", f"Game-Turn {s.turn}: the Red Player-Turn (004 [19.2] B)", {"seat": RED_SEAT, "turn": s.turn})]


def nonred_step(ctx: Ctx) -> list[Event]:
    """Run the next piece of the non-Red Player-Turn."""
    s = ctx.s
    step = s.solo["nr"]
    if step == "random_events":                                    # 004 [19.2] A.1, [20.0]
        s.solo["nr"] = "movement"
        ev = random_events.roll_random_events(ctx, NONRED)
        s.phase = "movement"
        return ev
    if step == "movement":                                         # 004 [19.2] A.2, [21.0]
        s.solo["nr"] = "stacking"
        return nonred_movement.nonred_movement(ctx)
    if step == "stacking":                                         # 004 [19.2] A.3, [22.0]
        ev = nonred_stacking.nonred_stacking(ctx)
        s.solo["nr"] = "combat"
        s.phase = "combat"
        s.solo["queue"] = [[p, g] for p in sorted({st.province for st in s.stacks.values() if st.owner == NONRED})
                           for g in (0, 1)]
        return ev
    if step == "combat":                                           # 004 [19.2] A.4, [23.0]
        while s.solo["queue"]:
            prov, group = s.solo["queue"].pop(0)
            ev = nonred_combat.nonred_attack(ctx, prov, group)
            if ev:
                return ev
        s.solo["nr"] = "randomizer"
        s.phase = "randomizer"
        return []
    if step == "randomizer":                                       # 004 [19.2] A.5
        s.solo["nr"] = ""
        ev = random_events.draw(ctx, NONRED)
        return ev + start_red_turn(ctx)
    s.solo["nr"] = ""
    return []


# -- the Red Randomizer Phase ends the Game-Turn (004 [19.2] B.10, C, D) ---------------------------------
def check_draw(ctx: Ctx, a: A.DrawRandomizer) -> None:
    red.red_phase(ctx, a.seat, "randomizer", "004 [19.2]")


def do_draw(ctx: Ctx, a: A.DrawRandomizer) -> list[Event]:
    """004 [19.2] B.10, then C (Replacement) and D (Game-Turn Indication)."""
    ev = random_events.draw(ctx, RED_SEAT)
    ev += victory.check_red_objective(ctx)          # a withdrawal may clear the last non-Red units
    if ctx.s.phase == "over":
        return ev
    return ev + end_game_turn(ctx)


def end_game_turn(ctx: Ctx) -> list[Event]:
    """004 [19.2] C-D: the Replacement Phase, the non-Red objective (004 [28.13]), the end of
    the game after Game-Turn 7 (004 [27.32], [28.15]), else the next Game-Turn."""
    s = ctx.s
    ev = replacement.replacement_phase(ctx)
    ev += red.settle_kills(ctx)
    won = victory.check_nonred_objective(ctx)                      # 004 [28.13]
    if won:
        return ev + won
    if s.turn >= LAST_TURN:                                         # 004 [27.32], [28.15]
        left = victory.objective_units(ctx)
        return ev + victory.finish(ctx, "draw", f"Game-Turn {LAST_TURN} is over: {len(left)} non-Red units remain in the "
                                   "Red objective regions and none holds Petrograd or Tver (004 [28.15])")
    s.turn += 1                                                      # 004 [19.2] D
    ev.append(Event("turn", f"Game-Turn {s.turn} begins (004 [19.2] D)", {"turn": s.turn}))
    return ev + start_nonred_turn(ctx)


# -- after every action and every non-Red step ----------------------------------------------------------------
def relabel(events: list[Event]) -> list[Event]:
    """The shared rule modules name seats by letter ("N attacks ..."); say "Red"/"Non-Red"."""
    out = []
    for e in events:
        text = e.text
        for seat, side in ((NONRED, "Non-Red"), (RED_SEAT, "Red")):
            if text.startswith(seat + " ") or text.startswith(seat + "'s "):
                text = side + text[len(seat):]
            text = text.replace(f"to {seat}'s section", f"to the {side} section")
        out.append(e if text == e.text else Event(e.kind, text, e.data))
    return out


def settle(ctx: Ctx) -> list[Event]:
    """Run everything that happens without the Red Player: the Czar's execution, the non-Red
    decisions and the non-Red Player-Turn, victory checks; stop when the Red Player must act."""
    s = ctx.s
    ev: list[Event] = []
    for _ in range(10_000):
        ctx.b.invalidate()
        ev += red.czar_check(ctx)
        normalize_owners(ctx)
        ev += red.settle_kills(ctx)
        if s.phase == "over":
            return ev
        ev += victory.check_red_objective(ctx)
        if s.phase == "over":
            return ev
        if s.decision is not None:
            if s.decision["seat"] != NONRED:
                return ev
            ev += nonred_combat.nonred_decision(ctx)
            continue
        if s.solo.get("nr"):
            ev += nonred_step(ctx)
            continue
        return ev
    raise RuntimeError("the solitaire procedure did not settle")
