"""The shapes of what :class:`rcw.game.Game` answers: views, pending decisions, results and the
rule queries (routes, capacity, odds, attack options).  All are plain dicts and lists (they
travel as msgpack to remote players unchanged), typed here for readers and type checkers."""

from __future__ import annotations

from typing import TypedDict


class StackView(TypedDict):
    id: int
    province: str
    owner: str | None            # player letter; None for an uncontrolled stack
    units: list[int]             # top to bottom (004 [7.21])
    attached: dict[str, int]     # unit id (as a string) -> the leader it is attached to (0: a Blue/Green force)
    color: str                   # the stack's colour (004 [13.21], [13.26]); "" for Imperial units alone


class Pending(TypedDict):
    seat: str
    kind: str                    # "trading", a phase, "force", "attack" or a decision kind ("loss", "capture", "redraw", ...)


class RedrawDecision(TypedDict):
    """004 [12.13]: ``view.decision`` while the drawer of a marker that entitles him to draw again
    decides (``RedrawChit``: keep it, or draw again)."""
    kind: str                    # "redraw"
    seat: str                    # the drawer
    chit: str                    # the marker drawn: "BC:<nat>" (Blue Control) or "WD:<nat>" (Withdrawal)
    marker: str                  # "control" or "withdrawal"
    force: str                   # the Blue force's name ("Great Britain")
    after: str                   # what follows the draw: "randomizer" (the Player-Turn's end) or "" (play goes on)


class Offer(TypedDict):
    id: int
    to: str
    give_leaders: list[int]
    give_politburo: int
    give_assassins: int
    take_leaders: list[int]
    take_politburo: int
    take_assassins: int


class Result(TypedDict, total=False):
    winner_color: str | None     # "Red", "White" or None (no victor)
    reason: str
    scores: dict[str, int]       # Victory Points of the winning colour (004 [14.4])
    winner: str | None           # the one player with the most Victory Points (None: none, or a shared win)
    winners: list[str]           # every player with the most (a tie shares the win: 004 [14.0] is silent)
    ranking: list[str]
    turn: int
    victory: str                 # the SPI solitaire's victory level (004 [28.0])


class Limits(TypedDict):
    """The game's numbers (``Game.limits``): the stacking limit (004 [7.11]), Movement
    Allowances (004 [5.0], [5.63]), the Politburo markers a Committee, an execution order and an
    end-game vote need (004 [11.11], [13.52], [14.1]), and whether the Politburo rules are in
    play (``politburo``: not in the Masses game, 004 Masses [11.0])."""
    stack: int
    leader_movement: int       # (the ``leader_movement`` option; with 001's ``reduced_leader_movement``
                               # a force's is 2 + its lowest Leadership rating: ``force_allowance``, ``reach``)
    blue_green_movement: int
    committee_markers: int
    execution_markers: int
    vote_markers: int
    politburo: bool


class Scores(TypedDict):
    """Red and White Victory Points of every player as the position stands (004 [14.4])."""
    Red: dict[str, int]
    White: dict[str, int]


class View(TypedDict, total=False):
    """What a seat sees (``Game.view(seat)``; ``you`` None for a spectator).  Everything on the
    map and the VP chart is open (004 [8.29]); trade offers only to the two players in them."""
    mode: str                    # the game mode ("standard", "spi-solitaire")
    options: dict                # the game's options (rcw.options)
    limits: Limits               # stacking limit, Movement Allowances, marker thresholds (Game.limits)
    seats: list[str]
    you: str | None
    turn: int                    # the Game-Turn under way, or the last played (Game.turns_played)
    phase: str
    order: list[str]             # Player-Turn order this Game-Turn
    phasing: str | None
    pending: list[Pending]
    stacks: list[StackView]
    vp: dict[str, list[list]]    # VP chart section -> [[unit, face_up], ...]
    politburo: dict[str, int]
    assassins: dict[str, int]
    control: dict[str, str]      # Blue/Green nationality -> holder of its Control Marker
    withdrawn: list[str]
    randomizer: int              # chits left in the Auxiliary Forces Randomizer
    hands: dict[str, list[int]]  # pre-game: the leaders dealt to each seat
    offers: list[dict]
    ready: list[str]
    quit: list[str]
    force: list | None           # the force being moved: [stack, start, mode, mp, path, touched, stopped]
    attack: list | None          # the attack being assembled: [target, subversive, attackers]
    decision: dict | None        # the out-of-turn decision play waits for (e.g. a RedrawDecision; the SPI solitaire adds ``note``, what its rules make of it: the Czar captured, 004 [26.0])
    subversion_doubled: bool
    committee: list[str]
    committee_consent: dict[str, list[str]]
    scores: Scores
    result: Result | None
    solitaire: dict              # the SPI solitaire's own read-outs (rcw.solitaire)
    postal: PostalView           # the postal game's (rcw.postal, 004 [17.0])


class Route(TypedDict):
    """How a force reaches a province this Movement Phase: the provinces entered in order
    (the destination last) and whether it goes by rail (004 [5.5]) or overland (1 MP each)."""
    path: list[str]
    rail: bool


class StackingDuty(TypedDict, total=False):
    """001 No Leader Suicide 3 (``Game.leaders_to_stack``): a Leader alone (one leader, no troops)
    who must be stacked with the nearest available friendly units before the Movement Phase ends,
    or the force being moved if it may not end its move yet.  ``do``:
    "merge" (with the stack ``into``, in its province), "attach" (one of ``units``, loose units of
    its colour there, taken by a force of ``leader``) or "move" (``leader``'s force to one of
    ``to``, the provinces of the nearest such units it can reach, ``Game.reach(leader)``; ``take``:
    province of ``to`` -> the loose units there, one of which it takes, where no friendly stack
    stands).  ``force``: the force being moved (it may not end its move yet; ``Game.reach()``)."""
    leader: int
    stack: int
    province: str
    force: bool
    do: str
    into: int
    units: list[int]
    to: list[str]
    take: dict[str, list[int]]


class Capacity(TypedDict):
    """004 [5.14], [13.22], [13.25]: how many combat units a leader may have attached."""
    own: int                     # slots for combat units (his value, +2 with the Czar for a White leader, +2 with the Gold)
    green: int                   # of which may be Green units (the Gold's two)
    attached: int                # combat units attached now
    room: int                    # own - attached


class Odds(TypedDict):
    """The odds of an attack (004 [8.0]): strengths, the CRT column and its results."""
    attack: int
    defense: int
    column: int | None           # index into the CRT columns; None below 1:2 (004 [8.47])
    label: str                   # "1:2" ... "6:1", or "below 1:2"
    results: dict[str, int]      # how many of the six die rolls give each result ("De", "Ex", "Ae"; a
    #                              Subversive Attack's "Ne", no effect, in place of Ex and Ae, 004 [8.33])
    row: list[str]               # the results of die rolls 1-6, as this attack has them (none below 1:2)


class AttackGroup(TypedDict):
    stacks: list[int]            # stacks that may attack the target together (mutually friendly, 004 [8.22])
    odds: Odds


class AttackOption(TypedDict):
    """A stack the seat may attack now, and who could attack it with what odds."""
    target: int
    province: str
    subversive: bool
    groups: list[AttackGroup]    # the strongest first
    possible: bool               # some group reaches 1:2 (004 [8.47]); else, declared, it may only be called off


# -- the postal game (004 [17.0]; rcw.postal, docs/engine.md "Postal games") ------------------------------
class Sheet(TypedDict):
    """An order sheet: ``SubmitOrders.sheet``.  Each order is a map whose ``order`` names its kind
    (``move``, ``attack``, ``purge``...: ``rcw.postal.KINDS`` gives the fields of each)."""
    orders: list[dict]


class OrderError(TypedDict, total=False):
    """An order refused when its sheet arrived, a step of it the rules refuse (a warning, with
    ``step``), or an order not carried out at the adjudication (with ``seat``)."""
    index: int                   # its place on the sheet as sent (0 the first)
    order: str                   # its kind
    rule: str                    # the rule case ("004 [5.27]", "004 [17.0] postal [8.0]")
    code: str                    # the error code ("bad_order", "no_match", "precedence", "illegal_action"...)
    message: str
    step: str                    # which step ("the move TVER->RYAZ"), "" for the whole order
    seat: str


class PostalReport(TypedDict, total=False):
    """The Gamesmaster's report of a phase (rcw.postal.report; the ``report`` event)."""
    turn: int
    phase: str                   # "deal", "trading", "first" or "second": the phase reported
    happened: list[dict]         # every event of the adjudication (after the deadline's phase_closed, if any): {kind, text, data}
    skipped: list[OrderError]    # orders (or steps) not carried out
    refused: list[OrderError]    # orders refused when their sheet arrived
    stacks: dict[str, list[dict]]   # seat -> [{province, units (top to bottom), attached}]
    unaligned: list[dict]
    vp: dict[str, list[int]]
    politburo: dict[str, int]
    assassins: dict[str, int]
    control: dict[str, str]
    withdrawn: list[str]
    randomizer: int
    turn_now: int                # the phase whose orders are collected next (or "over")
    phase_now: str
    hands: dict[str, dict]       # the deal's report: seat -> {leaders, politburo, assassins}


class PostalView(TypedDict, total=False):
    """``view.postal``: what a seat sees of the orders being collected."""
    phase: str                   # the phase whose orders are collected: "trading", "first", "second"
    turn: int
    submitted: list[str]         # the seats that have sent a sheet (never what)
    awaited: list[str]           # the seats whose sheet is awaited
    purged: bool                 # a purge was conducted in this Game-Turn's First Phase
    kinds: list[str]             # the order kinds a sheet of this phase is offered (rcw.postal.sheets.open_kinds)
    execution: dict | None       # an execution order of the Czar awaiting its holder's answer
    report: PostalReport | None  # the last phase's report
    sheet: list | None           # the seat's own accepted orders, [[index, order], ...] (to itself only)
    rejected: list[OrderError]   # its refused orders (to itself only)
    warnings: list[OrderError]   # the steps of its kept orders the rules refuse (to itself only)
