"""004 [14.0] Victory conditions and the Victory Point Schedule."""

from __future__ import annotations

from rcw.actions import Event
from rcw.data import ANARCHIST, BLUE, GREEN, RED, WHITE
from rcw.rules import anarchists
from rcw.rules.base import Ctx
from rcw.state import copy_plain

VOTE_MARKERS = 10     # 004 [14.1] case 3: Politburo markers that may vote the game over


def check_end(ctx: Ctx) -> list[Event]:
    """004 [14.1], checked when the Player-Turn series of a Game-Turn is over.  Units count by
    their colour on the map (``Board.color_of``): a Green unit attached to a White leader holding
    the Gold is a White combat unit, one attached to a Red leader is not (004 [13.26] "for all
    purposes"), as in the Victory Point scoring (:func:`scores`).  With the Anarchists (001,
    "Anarchy versus Order") no victory is possible while an Anarchist unit stands in a Russian
    province outside Siberia: a condition met then does not end the game (nor call the vote).

    Reading (the option ``one_end_vote``, docs/rules-coverage.md "Readings"): case 3's vote is
    called at the end of every Game-Turn in which it holds; with the option, once one has failed,
    never again (its note: "If the required quorum to end the game cannot be found, the game is
    continued until ended by Condition #1 or #2")."""
    s, b = ctx.s, ctx.b
    if not b.any_on_map("leader", RED, outside_siberia=True):
        why = "no Red leaders remain on the map outside Siberia (004 [14.1] 1)"
        won, text = WHITE, "White Victory: no Red leaders remain outside Siberia"
    elif not b.any_on_map("combat", WHITE, outside_siberia=True):
        why = "no White combat units remain on the map outside Siberia (004 [14.1] 2)"
        won, text = RED, "Red Victory: no White combat units remain outside Siberia"
    elif not b.any_on_map("leader", WHITE, outside_siberia=True):
        if s.optional.get("vote_failed"):
            return []       # (the option one_end_vote: "the game is continued until ended by Condition #1 or #2")
        voters = [p for p in s.order if p not in s.quit and s.politburo.get(p, 0) > 0]
        if sum(s.politburo.get(p, 0) for p in voters) < VOTE_MARKERS:
            return []
        won = None
        why = "no White leaders remain outside Siberia (004 [14.1] 3)"
    else:
        return []
    held = anarchists.anarchy(ctx)
    if held:
        return [Event("anarchy", f"No victory is possible while Anarchist units hold {', '.join(held)}, though {why} "
                      "(001 Anarchists)", {"provinces": held, "condition": why})]
    if won is None:
        s.phase = "vote"
        s.votes = {}
        s.decision = {"kind": "vote", "seat": voters[0], "voters": voters}
        if s.options.get("one_end_vote", False):       # (the players are told it is the only one)
            s.decision["note"] = ("if this vote fails no other is called: only no Red leaders or no White combat "
                                  "units outside Siberia end the game then (004 [14.1] 3, the option one_end_vote)")
        return [Event("vote_called", "No White leaders remain outside Siberia: the Politburo votes on ending the game (004 [14.1] 3)",
                      {"voters": list(voters)})]
    s.phase = "over"
    s.result = result(ctx, won, why)
    return [Event("game_over", text, copy_plain(s.result))]


def score(ctx: Ctx, color: str) -> dict[str, int]:
    """Red or White Victory Points for every player (004 [14.4]-[14.47])."""
    return scores(ctx)[color]


def scores(ctx: Ctx, colors: dict[int, str] | None = None) -> dict[str, dict[str, int]]:
    """Red and White Victory Points for every player (004 [14.4]-[14.47]), in one pass
    (``colors``: each stack's colour by id, when the caller has them already)."""
    s, d = ctx.s, ctx.data
    red, white = {p: 0 for p in s.seats}, {p: 0 for p in s.seats}
    for p in s.seats:
        for uid, face_up in s.vp.get(p, []):
            u = d.units[uid]
            if u.is_imperial:
                if not face_up:
                    white[p] += 5                     # emigrated (004 [14.43], [14.46])
                elif uid == d.czar:
                    red[p] += 5                       # executed Czar (004 [14.41], [14.46])
            elif u.color == BLUE and u.nationality == "CZ":          # 004 [14.45]
                (red if face_up else white)[p] += u.strength
            else:
                # (an Anarchist unit counts "regardless of which faction wins", 001 Anarchists)
                if u.color in (WHITE, BLUE, GREEN, ANARCHIST):
                    red[p] += u.strength
                if u.color in (RED, GREEN, ANARCHIST):
                    white[p] += u.strength
        red[p] += 2 * s.politburo.get(p, 0)           # 004 [14.41]
    for st in s.stacks.values():
        if st.owner is None:
            continue
        # A stack has one colour (004 [7.13]); a Green unit attached to a Leader holding the
        # Gold counts as his colour (004 [13.26] "for all purposes"); plain Green units score
        # nothing on the map.
        side = {RED: red, WHITE: white}.get(colors[st.id] if colors is not None else ctx.b.stack_color(st))
        for uid in st.units:
            u = d.units[uid]
            if u.is_imperial:
                white[st.owner] += 5                  # 004 [14.44] both for White
                if uid == d.gold:
                    red[st.owner] += 5                # 004 [14.42] the Gold for Red
            elif side is not None:
                side[st.owner] += u.strength
    return {RED: red, WHITE: white}


def result(ctx: Ctx, color: str | None, reason: str) -> dict:
    s = ctx.s
    scores = score(ctx, color) if color else {}
    live = {p: v for p, v in scores.items() if p not in s.quit}        # 004 [14.21]
    # 004 [2.0], [14.0]: "the Player with the largest number of Victory Points is judged the
    # winner"; the rules say nothing of a tie: the players tied with the most share the win
    # (``winners``; ``winner`` only when one has the most alone).
    top = max(live.values()) if live else None
    winners = sorted(p for p, v in live.items() if v == top)
    ranking = sorted(live, key=lambda p: (-live[p], p))
    return {"winner_color": color, "reason": reason, "scores": scores,
            "winner": winners[0] if len(winners) == 1 else None, "winners": winners,
            "ranking": ranking, "turn": s.turn}
