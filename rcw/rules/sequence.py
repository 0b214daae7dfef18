"""004 [4.0] Sequence of play: Player-Turns of four phases in the drawn order, then the
Game-Turn Interphase (turn marker, replacements, Player-Turn Sequencing draw).

Victory is checked when the Player-Turn series ends, before the Interphase (004 [14.1]:
'at the end of a Game-Turn'); replacements follow Game-Turns 1-5 (004 [9.16], [14.3]; 1-4 with the
option ``turn5_replacements`` off, :func:`rcw.rules.replacement.last_turn`)."""

from __future__ import annotations

from rcw.actions import (
    DrawRandomizer,
    EndCombat,
    EndMovement,
    EndPlayerTurn,
    Event,
    IllegalAction,
    PlaceUnit,
    RedrawChit,
    RollRandomEvents,
    VoteEndGame,
)
from rcw.rules import additional_draws, auxiliary, historical, no_suicide, randomizer, replacement, victory
from rcw.rules.base import Ctx
from rcw.state import copy_plain

DRAWN = "001 Start of Turn"        # the option drawn_turn_order (001's "less predictable turn order")


def drawn(ctx: Ctx) -> bool:
    """The option ``drawn_turn_order`` (001 Start of Turn: "Or for less predictable turn order, draw
    one chit and that player moves, then another until all have gone, ending the turn."): each
    Player-Turn's player is drawn from the Player-Turn Randomizer as the one before it ends, so
    ``State.order`` holds only the players drawn so far (no one knows who moves next)."""
    return bool(ctx.s.options.get("drawn_turn_order"))


def start_game_turn(ctx: Ctx) -> list[Event]:
    """004 [4.2] B.3 / [15.62]: draw the First Player from the Player-Turn Randomizer; the
    others follow clockwise (with ``drawn_turn_order``, each is drawn in his turn instead)."""
    s = ctx.s
    active = ctx.b.active_seats()
    if not active:
        s.phase = "over"
        s.result = victory.result(ctx, None, "every player has quit")
        return [Event("game_over", "Every player has left; the game ends without a victor", {})]
    first = active[ctx.below(len(active))]
    if drawn(ctx):
        s.order = [first]
        s.current = 0
        if s.options.get("postal_movement"):
            take_snapshot(ctx)
        ev = [Event("sequence", f"Game-Turn {s.turn}: {first} is drawn to move first ({DRAWN}: each next player is "
                    "drawn as a Player-Turn ends)", {"turn": s.turn, "order": [first]})]
        return ev + begin_player_turn(ctx)
    i = s.seats.index(first)
    ring = s.seats[i:] + s.seats[:i]
    s.order = [p for p in ring if p not in s.quit]
    s.current = 0
    if s.options.get("postal_movement"):
        take_snapshot(ctx)
    ev = [Event("sequence", f"Game-Turn {s.turn}: {first} is First Player; order {' '.join(s.order)}",
                {"turn": s.turn, "order": list(s.order)})]
    return ev + begin_player_turn(ctx)


def take_snapshot(ctx: Ctx) -> None:
    """004 [17.0] postal [5.0]: note which colours occupy each province as the Game-Turn starts."""
    snap: dict[str, set] = {}
    for st in ctx.s.stacks.values():
        for u in st.units:
            if not ctx.data.units[u].is_imperial:
                snap.setdefault(st.province, set()).add(ctx.b.color_of(u, st))
    ctx.s.snapshot = {k: sorted(v) for k, v in sorted(snap.items())}


def begin_player_turn(ctx: Ctx) -> list[Event]:
    s = ctx.s
    s.phase = "random_events"
    s.moved, s.imperial_moved, s.fought, s.defended = [], [], [], []
    s.subversion_doubled = False
    s.drawn = False
    s.optional.pop("draws", None)          # (001 Additional Randomizer Draws)
    s.force = s.attack = None
    p = s.order[s.current]
    return [Event("player_turn", f"{p}'s Player-Turn begins (Game-Turn {s.turn})", {"seat": p, "turn": s.turn})]


def end_player_turn(ctx: Ctx) -> list[Event]:
    s = ctx.s
    s.current += 1
    while s.current < len(s.order) and s.order[s.current] in s.quit:
        s.current += 1
    if s.current < len(s.order):
        return begin_player_turn(ctx)
    if drawn(ctx):                         # the next player is drawn from those yet to move
        left = [p for p in ctx.b.active_seats() if p not in s.order]
        if left:
            p = left[ctx.below(len(left))]
            s.order.append(p)
            s.current = len(s.order) - 1
            return [Event("sequence", f"{p} is drawn to move next ({DRAWN})",
                          {"turn": s.turn, "order": list(s.order)})] + begin_player_turn(ctx)
    return end_game_turn(ctx)


def end_game_turn(ctx: Ctx) -> list[Event]:
    s = ctx.s
    ev = victory.check_end(ctx)
    if s.phase in ("over", "vote"):
        return ev
    return ev + interphase(ctx)


def turns_played(ctx: Ctx) -> int:
    """The Game-Turn under way, or the last one played once the game is over: a game ended by
    its turn limit (the ``max_turns`` option) has moved the Game-Turn marker on to a turn it never
    plays (:func:`interphase`)."""
    s = ctx.s
    limit = s.options.get("max_turns")
    return limit if s.phase == "over" and limit and s.turn > limit else s.turn


def interphase(ctx: Ctx) -> list[Event]:
    s = ctx.s
    finished = s.turn
    s.turn += 1                                           # 004 [4.2] B.1
    limit = s.options.get("max_turns")
    ending = bool(limit and s.turn > limit)               # (no "Game-Turn N begins" for a turn never played)
    ev = [] if ending else [Event("turn", f"Game-Turn {s.turn} begins", {"turn": s.turn})]
    ev += replacement.replace(ctx, finished)              # 004 [4.2] B.2, [9.0]
    ev += historical.german_withdrawal(ctx, randomizer.withdraw)               # (option german_withdrawal: as Game-Turn 2 begins)
    ev += auxiliary.replacement_segment(ctx)              # 001 Anarchists: Makhno comes back
    if ending:
        s.phase = "over"
        s.result = victory.result(ctx, None, f"turn limit {limit} reached")
        return ev + [Event("game_over", f"The turn limit ({limit}) is reached; no side has won", {})]
    ev += auxiliary.end_of_game_turn(ctx, finished)       # 001 Anarchists: the Roving Attack
    return ev + start_game_turn(ctx)                      # 004 [4.2] B.3


# -- phase-ending actions ------------------------------------------------------------------------
def check_roll(ctx: Ctx, a: RollRandomEvents) -> None:
    ctx.require_phasing(a.seat, "random_events")


def do_roll(ctx: Ctx, a: RollRandomEvents) -> list[Event]:
    from rcw.rules import random_events

    ev = random_events.roll(ctx, a.seat)
    if ctx.s.phase == "random_events":
        ctx.s.phase = "movement"
    return ev


def check_end_movement(ctx: Ctx, a: EndMovement) -> None:
    from rcw.rules import movement

    ctx.require_phasing(a.seat, "movement")
    p = movement.end_problem(ctx)              # (ending the phase ends the force's move)
    if p:
        raise ctx.illegal(*p)
    for duty in movement.stacking_duties(ctx, a.seat, first=True):     # 001 No Leader Suicide 3
        raise ctx.illegal(*no_suicide.duty_problem(duty, ctx.name))


def do_end_movement(ctx: Ctx, a: EndMovement) -> list[Event]:
    from rcw.rules import movement

    ev = movement.finish_force(ctx) if ctx.s.force else []
    ctx.s.phase = "combat"
    return ev + [Event("phase", f"{a.seat}'s Combat Phase", {"phase": "combat"})]


def check_end_combat(ctx: Ctx, a: EndCombat) -> None:
    ctx.require_phasing(a.seat, "combat")
    if ctx.s.attack is not None:
        raise ctx.illegal("004 [8.0]", "resolve or cancel the attack being declared first")


def do_end_combat(ctx: Ctx, a: EndCombat) -> list[Event]:
    ctx.s.phase = "randomizer"
    return [Event("phase", f"{a.seat}'s Randomizer Phase", {"phase": "randomizer"})]


def check_draw(ctx: Ctx, a: DrawRandomizer) -> None:
    """004 [4.2] A.4 (001 Additional Randomizer Draws): the draw :func:`may_draw` allows, else
    why not."""
    ctx.require_phasing(a.seat, "randomizer")
    if may_draw(ctx, a.seat):
        return
    if additional_draws.on(ctx):
        n = additional_draws.allowance(ctx, a.seat)
        if additional_draws.made(ctx) < n:
            raise ctx.illegal(additional_draws.RULE, "the Auxiliary Forces Randomizer is empty")
        if n > 1:
            raise ctx.illegal(additional_draws.RULE, f"{a.seat} has made the {n} draws a city allows; end the Player-Turn")
        raise ctx.illegal(additional_draws.RULE, f"{a.seat}'s forces alone hold no Russian city: one draw; "
                          "end the Player-Turn")
    raise ctx.illegal("004 [4.2]", "one chit is drawn in the Randomizer Phase; end the Player-Turn")


def may_draw(ctx: Ctx, seat: str) -> bool:
    """Whether ``seat`` may make a Randomizer draw now (the permission :func:`check_draw` gives,
    asked without a refusal): in its own Randomizer Phase, no decision open, the phase's draw not
    made yet (004 [4.2] A.4), or with the option ``additional_draws`` a bonus draw left (001
    Additional Randomizer Draws, :func:`rcw.rules.additional_draws.more`)."""
    s = ctx.s
    if s.phase != "randomizer" or s.decision is not None or ctx.b.phasing() != seat:
        return False
    return not s.drawn or additional_draws.more(ctx, seat)


def do_draw(ctx: Ctx, a: DrawRandomizer) -> list[Event]:
    """004 [4.2] A.4.  The Player-Turn goes on after the draw only while its owner may still
    do something in it: an assassination (004 [10.0] "at any time during his Player-Turn",
    e.g. with the Assassin marker just drawn); then ``EndPlayerTurn`` ends it.  Otherwise the
    draw ends the Player-Turn at once, as before.  A marker that entitles the drawer to draw
    again (004 [12.13]) first asks him whether he does (``RedrawChit``).  With the option
    ``additional_draws`` a player whose forces alone hold a Russian city may draw again (001
    Additional Randomizer Draws, :mod:`rcw.rules.additional_draws`): the Player-Turn goes on."""
    additional_draws.note_draw(ctx)
    ev = randomizer.draw(ctx, a.seat, ask=True, after="randomizer")
    ctx.s.drawn = True
    if ctx.s.decision is not None:
        return ev
    return ev + after_draw(ctx, a.seat)


def after_draw(ctx: Ctx, seat: str) -> list[Event]:
    """The end of the Randomizer Phase's draw: the Player-Turn ends, unless its owner may still
    assassinate or draw again (see :func:`do_draw`)."""
    if additional_draws.more(ctx, seat):
        return [Event("phase", f"{seat} may draw again or end the Player-Turn (001 Additional Randomizer Draws)",
                      {"phase": "randomizer", "drawn": True, "more": True})]
    if _may_go_on(ctx, seat):
        return [Event("phase", f"{seat} may still act before ending the Player-Turn (004 [10.0])",
                      {"phase": "randomizer", "drawn": True})]
    return end_player_turn(ctx)


# -- the optional redraw (004 [12.13]) ----------------------------------------------------------
def check_redraw(ctx: Ctx, a: RedrawChit) -> None:
    ctx.require_decision(a.seat, "redraw", "004 [12.13]", "no marker entitles anyone to draw again now",
                         "{owner} decides whether to draw again")


def do_redraw(ctx: Ctx, a: RedrawChit) -> list[Event]:
    """004 [12.13]: keep the marker, or set it aside and draw another chit (which may ask again)."""
    s = ctx.s
    d = s.decision
    s.decision = None
    if a.redraw:
        ev = [Event("redraw", f"{a.seat} draws again (004 [12.13])", {"seat": a.seat, "chit": d["chit"]})]
        ev += randomizer.draw(ctx, a.seat, ask=True, after=d["after"])
    else:
        ev = [randomizer.keep(ctx, a.seat, d["chit"])]
    if s.decision is None and d["after"] == "randomizer":
        ev += after_draw(ctx, a.seat)
    return ev


def do_place(ctx: Ctx, a: PlaceUnit) -> list[Event]:
    """001's optional forces: the unit drawn is placed (:func:`rcw.rules.auxiliary.place`); then
    the draw is over and the Player-Turn goes on as after any draw."""
    after = ctx.s.decision["after"]
    ev = auxiliary.place(ctx, a)
    if ctx.s.decision is None and after == "randomizer":
        ev += after_draw(ctx, a.seat)
    return ev


def decision_candidates(ctx: Ctx, seat: str) -> list[RedrawChit]:
    """The answers to a ``redraw`` decision (004 [12.13]): keep, or draw again."""
    d = ctx.s.decision
    if d is None or d["seat"] != seat or d.get("kind") != "redraw":
        return []
    return [RedrawChit(seat, False), RedrawChit(seat, True)]


def _may_go_on(ctx: Ctx, seat: str) -> bool:
    from rcw.rules import assassination

    seen: set[int] = set()
    for a in assassination.candidates(ctx, seat):
        if a.victim in seen:
            continue
        seen.add(a.victim)
        try:
            assassination.check(ctx, a)
        except IllegalAction:
            continue
        return True
    return False


def check_end_turn(ctx: Ctx, a: EndPlayerTurn) -> None:
    ctx.require_phasing(a.seat, "randomizer")
    if not ctx.s.drawn:
        raise ctx.illegal("004 [4.2]", "draw from the Randomizer first (004 [4.2] A.4)")


def do_end_turn(ctx: Ctx, a: EndPlayerTurn) -> list[Event]:
    return [Event("player_turn_end", f"{a.seat} ends the Player-Turn", {"seat": a.seat})] + end_player_turn(ctx)


# -- the end-game vote (004 [14.1] case 3) ---------------------------------------------------------
def check_vote(ctx: Ctx, a: VoteEndGame) -> None:
    d = ctx.s.decision
    if ctx.s.phase != "vote" or d is None or d.get("kind") != "vote":
        raise ctx.illegal("004 [14.1]", "no end-game vote is being held", "wrong_phase")
    if a.seat != d["seat"]:
        raise ctx.illegal("004 [14.1]", f"it is {d['seat']}'s turn to vote", "not_your_turn")


def do_vote(ctx: Ctx, a: VoteEndGame) -> list[Event]:
    s = ctx.s
    s.votes[a.seat] = a.yes
    ev = [Event("vote", f"{a.seat} votes {'to end' if a.yes else 'to continue'} the game", {"seat": a.seat, "yes": a.yes})]
    d = s.decision
    d["voters"].remove(a.seat)
    if d["voters"]:
        d["seat"] = d["voters"][0]
        return ev
    ev += count_votes(ctx)
    if s.phase == "over":
        return ev
    s.phase = "randomizer"   # placeholder phase; the Interphase follows at once
    return ev + interphase(ctx)


def count_votes(ctx: Ctx) -> list[Event]:
    """004 [14.1] case 3: every vote is in; a Red Victory if the players voting to end the game
    hold ten Politburo markers (the game is then over), else the game goes on."""
    s = ctx.s
    s.decision = None
    yes = sum(s.politburo.get(p, 0) for p, v in s.votes.items() if v)
    s.votes = {}
    if yes >= victory.VOTE_MARKERS:
        s.phase = "over"
        s.result = victory.result(ctx, "Red", f"players holding {yes} Politburo markers agreed to end the game")
        return [Event("game_over", f"Red Victory: the Politburo ({yes} markers) ends the game", copy_plain(s.result))]
    if s.options.get("one_end_vote", False):       # (the reading that calls it once, victory.check_end)
        s.optional["vote_failed"] = True
        return [Event("vote_failed", f"Only {yes} Politburo markers agreed; the game goes on until no Red leaders or "
                      "no White combat units remain outside Siberia (004 [14.1] 3, one end-game vote)", {"yes": yes})]
    return [Event("vote_failed", f"Only {yes} Politburo markers agreed; the game goes on", {"yes": yes})]
