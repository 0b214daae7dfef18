"""004 [14.2] Player participation: leaving the game."""

from __future__ import annotations

from rcw.actions import Event, Quit
from rcw.rules import anarchists, victory
from rcw.rules.base import Ctx


def check(ctx: Ctx, a: Quit) -> None:
    s = ctx.s
    if s.phase == "over":
        raise ctx.illegal("004 [14.1]", "the game is over", "game_over")
    if s.decision is not None and s.decision.get("seat") == a.seat:
        raise ctx.illegal("004 [14.2]", "answer the decision in front of you first", "decision_pending")
    if s.force is not None or s.attack is not None:
        if ctx.b.phasing() == a.seat:
            raise ctx.illegal("004 [14.2]", "finish the force or attack in progress first")


def do(ctx: Ctx, a: Quit) -> list[Event]:
    from rcw.rules import sequence

    s = ctx.s
    was_phasing = ctx.b.phasing() == a.seat
    s.quit.append(a.seat)
    # 004 [14.23]: markers go to the Auxiliary Forces Randomizer.
    s.aux += ["P"] * s.politburo.get(a.seat, 0) + ["A"] * s.assassins.get(a.seat, 0)
    s.politburo[a.seat] = 0
    s.assassins[a.seat] = 0
    for nat, holder in list(s.control.items()):
        if holder == a.seat:
            del s.control[nat]
            blue = nat in ctx.data.blue_names and nat not in ctx.data.green_names
            s.aux.append(("BC:" if blue else "GC:") + nat)
            for st in s.stacks.values():
                if st.owner == a.seat and any(ctx.data.units[u].nationality == nat for u in st.units
                                              if ctx.data.units[u].is_combat and not st.attached.get(u)):
                    st.owner = None
    for st in anarchists.on_map(ctx):                        # 001 Anarchists: his Anarchists are no one's
        if st.owner == a.seat:
            st.owner = None
    for oid in [k for k, o in s.offers.items() if a.seat in (o["from"], o["to"])]:
        del s.offers[oid]
    if a.seat in s.committee:
        s.committee = []
    ev = [Event("quit", f"{a.seat} leaves the game (004 [14.2])", {"seat": a.seat})]
    if s.phase == "trading":
        s.ready = [p for p in s.ready if p != a.seat]
        if set(ctx.b.active_seats()) <= set(s.ready) and ctx.b.active_seats():
            from rcw.rules import setup
            ev += setup.deploy(ctx) + sequence.start_game_turn(ctx)
        return ev
    if s.decision and s.decision.get("kind") == "vote" and a.seat in s.decision["voters"]:
        s.decision["voters"].remove(a.seat)
    if not ctx.b.active_seats():
        s.phase = "over"
        s.result = victory.result(ctx, None, "every player has quit")
        return ev + [Event("game_over", "Every player has left; the game ends", {})]
    if was_phasing:                                          # 004 [14.24]
        s.force = s.attack = None
        ev += sequence.end_player_turn(ctx)
    return ev
