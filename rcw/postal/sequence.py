"""004 [17.0] postal [4.2] The postal Sequence of Play, and postal [15.0] the pre-game reports.

The game is dealt as the multi-player game (004 [15.31], the first report); then the orders
of each phase are collected (``State.phase`` is ``"trading"``, ``"first"`` or ``"second"``) and
adjudicated, all at once, when every active seat has sent a sheet or the Gamesmaster closes
the phase:

* **pre-season trades** (postal [15.0]; the second report): the ``trade`` orders (leaders and
  markers, 004 [15.33]), then the deployment (004 [15.4], [15.5]); Game-Turn 1's First Phase
  opens.
* **First Phase**: 1. trades (and Gold thefts); 2. movement, with the assassinations;
  3. purge (and Czar executions); 4. Random Events, one roll for every two players, rounded
  down.
* **Second Phase**: 1. trades; 2. combat; 3. purge, if none was conducted in the First Phase
  (Czar executions in any case: "up to twice per Game-Turn", postal [13.5]); 4. the
  Randomizer, one chit for each player (in seat order; with the option ``additional_draws``,
  the bonus draws a ``draws`` order asks for); 5. replacements (004 [9.0]); 6. Random
  Events, one roll for every two players, rounded up.  With the option ``anarchists`` an
  uncontrolled Makhno comes back in the Replacement Segment and makes his Roving Attack at
  the end of the Game-Turn, after the Random Events (001 Anarchists).  Then the Game-Turn ends:
  victory is checked (004 [14.1], the end-game vote answered from the sheets), the turn limit,
  and the next Game-Turn's First Phase opens on the colours noted in every province
  (``State.snapshot``, postal [5.0]).

Random Events (postal [12.0]): the Gamesmaster's rolls belong to no player; "Draw from the
Randomizer" goes to a player chosen by a die roll (:func:`rcw.postal.base.gm_pick`); "Subversive
Attacks Doubled" holds for the next Second Phase's combat (``State.subversion_doubled`` is
cleared when a Second Phase's combat is over, so a Second Phase roll carries to the next
Game-Turn).
"""

from __future__ import annotations

from rcw.actions import Event
from rcw.postal import combat, movement, politics, report
from rcw.postal.base import GM, PHASE_NAMES, active, book, gm_pick
from rcw.postal.gm import answer, sheet
from rcw.postal.sheets import standing
from rcw.rules import additional_draws, auxiliary, historical, random_events, randomizer, replacement, setup, victory
from rcw.rules import sequence as standard
from rcw.rules.base import Ctx


def start(ctx: Ctx, dealt: list[Event]) -> None:
    """After the deal: its report (the first of postal [15.0]); the pre-season trades are collected."""
    ctx.s.postal = {"phase": "trading", "sheets": {}, "rejected": {}, "warnings": {}, "purged": False, "report": None}
    ctx.s.postal["report"] = report.build(ctx, 1, "deal", dealt)


def open_phase(ctx: Ctx, phase: str) -> None:
    s = ctx.s
    s.phase = phase
    s.order = active(ctx)
    s.current = 0
    s.force = s.attack = s.decision = None
    s.moved, s.imperial_moved, s.fought, s.defended = [], [], [], []
    s.drawn = False
    b = book(ctx)
    b["phase"], b["sheets"], b["rejected"], b["warnings"] = phase, {}, {}, {}
    if phase == "first":
        b["purged"] = False
        standard.take_snapshot(ctx)                     # postal [5.0]: the colours as the Game-Turn begins


def complete(ctx: Ctx) -> bool:
    """Every active seat has sent its sheet (or has none to send: the game is over)."""
    sheets = book(ctx)["sheets"]
    return all(p in sheets for p in active(ctx))


def step(text: str, phase: str, n: int) -> Event:
    return Event("postal_step", text, {"phase": phase, "step": n})


def adjudicate(ctx: Ctx, before: list[Event] | None = None) -> list[Event]:
    """The Gamesmaster adjudicates the phase whose orders are in, reports it and opens the next.
    ``before``: the events that closed the phase, reported first (the deadline's, the sheets
    written for those who sent none); they are the caller's to return."""
    s = ctx.s
    b = book(ctx)
    phase, turn = b["phase"], s.turn
    sheets = {p: v for p, v in b["sheets"].items() if p not in s.quit}
    ev = [Event("adjudication", f"The Gamesmaster adjudicates {PHASE_NAMES[phase]} of Game-Turn {turn} "
                f"(004 [17.0] postal [4.2])", {"turn": turn, "phase": phase})]
    if phase == "trading":
        ev += _pregame(ctx, sheets)
    elif phase == "first":
        ev += _first(ctx, sheets)
    else:
        ev += _second(ctx, sheets)
    rep = report.build(ctx, turn, phase, (before or []) + ev)
    b["report"] = rep
    ev.append(Event("report", report.title(rep), rep))
    if s.phase != "over":
        open_phase(ctx, "second" if phase == "first" else "first")
    return ev


def _pregame(ctx: Ctx, sheets: dict) -> list[Event]:
    ev = politics.trades(ctx, sheets)
    ctx.s.offers = {}
    return ev + setup.deploy(ctx)


def _first(ctx: Ctx, sheets: dict) -> list[Event]:
    ev = [step("First Phase, 1. Trades", "first", 1)] + politics.trades(ctx, sheets)
    ev.append(step("First Phase, 2. Movement (with the assassinations)", "first", 2))
    moved, routes = movement.movement(ctx, sheets)
    ev += moved + movement.assassinations(ctx, sheets, routes)
    ev.append(step("First Phase, 3. Purge", "first", 3))
    ev += politics.purges(ctx, sheets, "movement") + politics.executions(ctx, sheets, "movement")
    ev.append(step("First Phase, 4. Random Events", "first", 4))
    return ev + events(ctx, len(active(ctx)) // 2)


def _second(ctx: Ctx, sheets: dict) -> list[Event]:
    s = ctx.s
    b = book(ctx)
    ev = [step("Second Phase, 1. Trades", "second", 1)] + politics.trades(ctx, sheets)
    ev.append(step("Second Phase, 2. Combat", "second", 2))
    ev += combat.combat_portion(ctx, sheets)
    s.subversion_doubled = False                        # postal [12.0]: it held for this combat
    ev.append(step("Second Phase, 3. Purge", "second", 3))
    if b.get("purged"):
        ev.append(Event("no_purge", "A purge was conducted in the First Phase: none in the Second "
                        "(004 [17.0] postal [4.2])", {}))        # (a purge order for it is refused on arrival)
    else:
        ev += politics.purges(ctx, sheets, "combat")
    ev += politics.executions(ctx, sheets, "combat")
    ev.append(step("Second Phase, 4. Randomizer", "second", 4))
    for seat in active(ctx):
        ev += randomizer.draw(ctx, seat, ask=True)
        ev += answer(ctx)
        ev += bonus_draws(ctx, seat)
    ev.append(step("Second Phase, 5. Replacements", "second", 5))
    ev += replacement.replace(ctx, s.turn)
    ev += auxiliary.replacement_segment(ctx)            # 001 Anarchists: Makhno comes back
    ev.append(step("Second Phase, 6. Random Events", "second", 6))
    ev += events(ctx, (len(active(ctx)) + 1) // 2)
    ev += auxiliary.end_of_game_turn(ctx, s.turn)       # 001 Anarchists: the Roving Attack ends the Game-Turn
    return ev + end_of_turn(ctx, sheets)


def bonus_draws(ctx: Ctx, seat: str) -> list[Event]:
    """001 Additional Randomizer Draws (the option ``additional_draws``): after the Gamesmaster's
    draw for ``seat``, the bonus draws its ``draws`` order asks for (``extra``; none without
    one: the GM carries out written orders only), each while a city its forces alone hold
    still allows it (judged before each draw, as in the live game)."""
    ev: list[Event] = []
    want = (standing(sheet(ctx, seat), "draws") or {}).get("extra", 0)
    for made in range(1, want + 1):
        if not ctx.s.aux or additional_draws.allowance(ctx, seat) <= made:
            break
        ctx.bump("extra_draws")
        ev.append(Event("postal_draw", f"{seat} draws again: a city held (001 Additional Randomizer Draws)",
                        {"seat": seat}))
        ev += randomizer.draw(ctx, seat, ask=True)
        ev += answer(ctx)
    return ev


def events(ctx: Ctx, n: int) -> list[Event]:
    """postal [12.0]: ``n`` rolls on the Random Events Table (see the module docstring)."""
    ev: list[Event] = []
    for _ in range(n):
        cell = ctx.data.tables.random_events[(ctx.die(), ctx.die())]
        seat, told = GM, ()
        if cell.result == "draw":                 # (the Gamesmaster rolls; his die then names the drawer)
            seats = active(ctx)
            seat = seats[gm_pick(ctx, len(seats))]
            told = (Event("postal_draw", f"The Gamesmaster's die gives the draw to {seat} (004 [17.0] postal [12.0])",
                          {"seat": seat}),)
        ev += random_events.resolve(ctx, seat, cell.roll, roller=GM, told=told)
        if cell.result == "subversion_doubled":
            ev.append(Event("postal_note", "Subversive Attacks are doubled in the next Second Phase's combat "
                            "(004 [17.0] postal [12.0])", {}))
        ev += answer(ctx)
    return ev


def end_of_turn(ctx: Ctx, sheets: dict) -> list[Event]:
    """004 [14.1] at the end of the Game-Turn, then the turn limit and the next Game-Turn."""
    s = ctx.s
    s.order = active(ctx)
    ev = victory.check_end(ctx)
    if s.phase == "vote":
        ev += politics.vote(ctx, sheets)
    if s.phase == "over":
        return ev
    s.turn += 1
    limit = s.options.get("max_turns")
    if limit and s.turn > limit:
        s.phase = "over"
        s.result = victory.result(ctx, None, f"turn limit {limit} reached")
        return ev + [Event("game_over", f"The turn limit ({limit}) is reached; no side has won", {})]
    ev.append(Event("turn", f"Game-Turn {s.turn} begins", {"turn": s.turn}))
    return ev + historical.german_withdrawal(ctx, randomizer.withdraw)     # (the critique's option: Game-Turn 2)
