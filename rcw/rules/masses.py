"""004 "RUSSIAN CIVIL WAR FOR THE MASSES" (Richard Ware): a simpler game, the option ``masses``
(group ``masses``; docs/variants.md).  The article deletes, or makes optional:

- "[8.3] SUBVERSIVE ATTACK. This section can be made optional or deleted."  Deleted; the
  sub-switch ``masses_subversion`` keeps it (the article's "optional").
- "[12.12] Subversive Attacks Doubled. Ignore this result."
- "[13.0] IMPERIAL UNITS This whole section can also be deleted or declared optional."  Kept (the
  article rewrites its [13.5] for them); the sub-switch ``masses_no_imperial`` deletes it: no
  Czar, no Gold.
- "[11.0] PURGE All the Politburo and Purge rules should be deleted."  No Politburo Markers, no
  Central Committee, no purges (a purge or a Committee is refused citing this).  The end-game
  vote (004 [14.1] case 3) needs ten Politburo Markers, so it never happens: Red wins by case 2
  only; and the 2 Victory Points a marker (004 [14.41]) are never scored.
- "[13.5] EXECUTION OF THE TSAR", rewritten: "[13.51] The Tsar may never be eliminated by
  combat, epidemic or assassination.  [13.52] The Tsar may be executed at any time he is
  controlled by a Red Leader, by the agreement of any coalition of players including the player
  who controls the Tsar, if the coalition controls together at least two thirds of all the Red
  leadership points on the board.  [13.53] When the Tsar is executed, the Victory Points (in the
  event of a Red Victory) are awarded to the executing player.  [13.54] To execute the Tsar, the
  controlling player simply moves the Tsar marker from the map to his Victory Point Chart."
  Any player may propose the execution (``OrderExecution``) while the Czar is attached to a Red
  leader; the Czar's holder is asked first, then the others who control Red leaders on the map
  in Player-Turn order, until the consenting players, the holder among them, control two thirds
  of the Red leadership points on the map (the values of the Red leaders there); the holder's consent is the execution (he
  moves the Czar, face up, to his section of the chart: :mod:`rcw.rules.politics`).
- "Rule [15.22] is changed to read: ... a total of 52 counters ...: 30 Red Leaders, 20 White
  Leaders and two Assassin Markers.  Rule [15.32] is deleted."
"""

from __future__ import annotations

from rcw.rules.base import Ctx

MASSES = "004 Masses"          # how refusals cite the article (its own case follows)


def on(ctx: Ctx) -> bool:
    return bool(ctx.s.options.get("masses"))


def no_imperial(ctx: Ctx) -> bool:
    """[13.0] deleted (the sub-switch ``masses_no_imperial``)."""
    return on(ctx) and bool(ctx.s.options.get("masses_no_imperial"))


def subversion_deleted(ctx: Ctx) -> bool:
    """[8.3] deleted (unless the sub-switch ``masses_subversion`` keeps it)."""
    return on(ctx) and not ctx.s.options.get("masses_subversion")


def politburo_problem(ctx: Ctx, what: str) -> tuple[str, str] | None:
    """[11.0] deleted: why a Committee or a purge may not be made."""
    if on(ctx):
        return f"{MASSES} [11.0]", f"{what}: the Politburo and Purge rules are deleted"
    return None


def red_leadership(ctx: Ctx) -> int:
    """The values of all the Red leaders on the map (the article's "Red leadership points on the
    board")."""
    us = ctx.data.units
    return sum(us[u].strength for st in ctx.s.stacks.values() for u in st.units
               if us[u].kind == "leader" and ctx.b.color_of(u, st) == "Red")


def coalition_holds(ctx: Ctx, seats, leadership) -> bool:
    """[13.52]: whether ``seats`` control together at least two thirds of the Red leadership on
    the map (``leadership(seat)``: a seat's Red leadership there)."""
    return 3 * sum(leadership(ctx, p) for p in set(seats)) >= 2 * red_leadership(ctx)
