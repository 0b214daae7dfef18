"""004 [28.0]: victory in the solitaire.

``result["victory"]`` is ``red_decisive`` / ``red_substantive`` / ``red_marginal`` (no non-Red
unit left in Greater Russia, White Russia, Ukraine and the Cossack region, achieved on
Game-Turn 1-5 / 6 / 7, 004 [28.11], [28.12]), ``nonred_decisive`` (a non-Red unit in Petrograd
or Tver at the end of a Game-Turn, 004 [28.13]) or ``draw`` (neither by the end of Game-Turn
7, 004 [27.32], [28.15]).

Reading: 004 [28.12] lists Game-Turns 5, 6 and 7 only; we read it as "by Game-Turn 5" (an
earlier sweep is also Decisive).  The Red objective is checked after every action and every
non-Red step, because 004 [28.14] stops the game "immediately"; the non-Red objective only at
the end of a Game-Turn, as 004 [28.13] says.
"""

from __future__ import annotations

from rcw.actions import Event
from rcw.data import RED
from rcw.rules.base import Ctx
from rcw.solitaire.base import LAST_TURN, MODE, NONRED, OBJECTIVE_REGIONS, RED_SEAT, TARGETS
from rcw.state import copy_plain
from rcw.words import listed

LEVELS = {"red_decisive": "Red Decisive Victory", "red_substantive": "Red Substantive Victory",
          "red_marginal": "Red Marginal Victory", "nonred_decisive": "non-Red Decisive Victory", "draw": "Draw"}


def objective_units(ctx: Ctx) -> list[int]:
    """Non-Red units still in Greater Russia, White Russia, Ukraine and the Cossack region (004 [28.11])."""
    out = []
    for st in ctx.s.stacks.values():
        if ctx.data.provinces[st.province].region not in OBJECTIVE_REGIONS:
            continue
        out += [u for u in ctx.b.fighting_units(st) if ctx.b.color_of(u, st) != RED]
    return sorted(out)


def nonred_in_targets(ctx: Ctx) -> dict[str, list[int]]:
    """The non-Red units in Petrograd and Tver, by province (004 [28.13])."""
    out: dict[str, list[int]] = {}
    for p in TARGETS:
        us = [u for st in ctx.b.stacks_in(p) for u in ctx.b.fighting_units(st) if ctx.b.color_of(u, st) != RED]
        if us:
            out[p] = sorted(us)
    return out


def conditions(data) -> list[str]:
    """The victory conditions in words (004 [28.11]-[28.15]), for a player to read: the levels
    by :func:`red_level`, the regions, the targets and the last Game-Turn named as the rules do."""
    turns = range(1, LAST_TURN + 1)
    first = {lv: min(t for t in turns if red_level(t) == lv) for lv in ("red_decisive", "red_substantive", "red_marginal")}
    names = " or ".join(data.provinces[p].name for p in TARGETS)
    return [f"Red wins by clearing every non-Red unit out of {', '.join(OBJECTIVE_REGIONS)}: a Decisive Victory by "
            f"Game-Turn {first['red_substantive'] - 1}, Substantive on Game-Turn {first['red_substantive']}, Marginal on "
            f"Game-Turn {first['red_marginal']} (004 [28.11], [28.12]).",
            f"The non-Red Player wins at once if a non-Red unit stands in {names} at the end of a Game-Turn "
            f"(004 [28.13]); otherwise the game is drawn after Game-Turn {LAST_TURN} (004 [28.15])."]


def red_level(turn: int) -> str:
    """004 [28.12]: by Game-Turn 5 Decisive, on 6 Substantive, on 7 Marginal."""
    return "red_decisive" if turn <= 5 else ("red_substantive" if turn == 6 else "red_marginal")


def finish(ctx: Ctx, victory: str, reason: str) -> list[Event]:
    """End the game with ``victory`` (a key of :data:`LEVELS`)."""
    s = ctx.s
    s.phase = "over"
    s.force = s.attack = None
    s.decision = None
    s.solo["nr"] = ""
    winner_color = "Red" if victory.startswith("red") else ("non-Red" if victory == "nonred_decisive" else None)
    level = {"red_decisive": "Decisive", "red_substantive": "Substantive", "red_marginal": "Marginal",
             "nonred_decisive": "Decisive"}.get(victory)
    winner = RED_SEAT if winner_color == "Red" else (NONRED if winner_color else None)
    s.result = {"mode": MODE, "victory": victory, "level": level, "title": LEVELS[victory],
                "winner_color": winner_color, "winner": winner, "winners": [winner] if winner else [],
                "reason": reason, "turn": s.turn, "scores": {}, "ranking": [],
                "objective_left": len(objective_units(ctx))}
    return [Event("game_over", f"{LEVELS[victory]}: {reason}", copy_plain(s.result))]


def check_red_objective(ctx: Ctx) -> list[Event]:
    """004 [28.11], [28.14]: the game stops as soon as the four regions are clear."""
    s = ctx.s
    if s.phase == "over" or objective_units(ctx):
        return []
    v = red_level(s.turn)
    return finish(ctx, v, f"no non-Red unit is left in Greater Russia, White Russia, Ukraine or the Cossack region "
                  f"on Game-Turn {s.turn} (004 [28.11], [28.12])")


def check_nonred_objective(ctx: Ctx) -> list[Event]:
    """004 [28.13], at the end of a Game-Turn: a non-Red unit in Petrograd or Tver wins."""
    holders = nonred_in_targets(ctx)
    if not holders:
        return []
    held = listed(f"a non-Red unit ({ctx.names(us)}) holds {ctx.data.provinces[p].name}" if len(us) == 1
                  else f"non-Red units ({ctx.names(us)}) hold {ctx.data.provinces[p].name}" for p, us in holders.items())
    return finish(ctx, "nonred_decisive", f"{held} at the end of Game-Turn {ctx.s.turn} (004 [28.13])")
