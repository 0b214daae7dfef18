"""004 [18.0]-[28.0]: the SPI solitaire game (Fred Georgian's rules) as an engine mode.

``rcw.modes.new_game(players, seed, {"mode": "spi-solitaire"})`` (``players`` 1 or 2; both mean the one
human) returns a :class:`SoloGame`.  It has two seats:

* ``"R"``, the Red Player (004 [18.0]): the only seat that ever acts.  It controls every Red
  unit (owner ``"R"`` on every Red stack).
* ``"N"``, the non-Red Player: "a system of rules, which restricts the operations of the
  non-Red forces" (004 [28.0]).  It owns every White stack and the Blue/Green stacks whose
  Control Marker it holds (004 [20.12]); uncontrolled Blue/Green stacks have no owner.

**Why the non-Red side lives in the engine, not in a bot.**  Every non-Red choice is fixed by
a procedure and a die roll: the target province and path (004 [21.13], [21.22]), the number
of provinces moved (004 [21.12], [21.26]), the stacking (004 [22.1]), which Red force to
attack and whether to attack at all (004 [23.11]-[23.15]), which units an Exchange takes
(004 [23.16]).  Run by the engine with the game's own RNG, the solitaire is a seed plus the
Red Player's actions (replay, saves and ``state_hash`` work as in the multi-player game),
the "must" rules are enforced rather than hoped for, and seat ``"N"`` never has to be
asked anything: ``legal_actions("N")`` is always empty and ``pending`` only ever names R.
Every non-Red step is reported as an :class:`~rcw.actions.Event` sentence citing its case.

**Sequence (004 [19.2]).**  Each Game-Turn: the non-Red Player-Turn (Random Events, Movement,
Stacking, Combat, Randomizer) runs inside ``apply`` with no input, except that the Red Player
chooses his own Exchange losses (004 [8.44]) and Imperial captures (004 [13.41]) when the
non-Red attacks call for them; then the Red Player-Turn: ``RollRandomEvents``, the Red
Leader Determination Phase (``DeployLeader`` ... ``EndLeaderDeployment``), Movement and
Combat exactly as in the multi-player game, ``DrawRandomizer``; then the Replacement Phase
(004 [25.0]) and the Game-Turn Indication Phase.  The game starts with Game-Turn 1's
non-Red Player-Turn already played (``Game.setup_events`` reports it, 004 [27.31]).

**Victory (004 [28.0]).**  ``result["victory"]`` is ``red_decisive`` / ``red_substantive`` /
``red_marginal`` (no non-Red unit left in Greater Russia, White Russia, Ukraine and the
Cossack region, achieved on Game-Turn 1-5 / 6 / 7, 004 [28.11], [28.12]), ``nonred_decisive``
(a non-Red unit in Petrograd or Tver at the end of a Game-Turn, 004 [28.13]) or ``draw``
(neither by the end of Game-Turn 7, 004 [27.32], [28.15]).

Readings where the rules are silent or ambiguous (each also noted where it is coded):

* 004 [28.12] lists Game-Turns 5, 6 and 7 only; we read it as "by Game-Turn 5" (an earlier
  sweep is also Decisive).  The Red objective is checked after every action and every
  non-Red step, because 004 [28.14] stops the game "immediately"; the non-Red objective
  only at the end of a Game-Turn, as 004 [28.13] says.
* 004 [21.13], [21.24] give every non-Red *force* a target and path at the start; forces
  later merge and split (004 [22.1]).  We store the path per unit: a stack follows the path
  of its first (lowest Identity Code) leader, or of its first unit if it has no leader, and
  all its units adopt that path.  A unit found off its path (a Green unit released by a Red
  Gold holder, a replaced Polish unit) gets a fresh shortest path to the same target.
* 004 [21.22] "determine at random by the roll of a die": with k <= 6 tied paths we roll a die
  and re-roll results above k; with more than six (Kherson has seven) a uniform draw.  A tie
  between Tver and Petrograd themselves is broken the same way.
* 004 [21.25]: Blue and Green forces follow their path while the next province is open to
  them (004 [5.65], [5.74]-[5.76]) and stop at the last one (no die is rolled once they
  cannot go on).  Movement is one province per pip, overland, along the path: the die *is*
  the Movement Allowance (004 [21.26]); non-Red forces never use unlimited rail movement.
  A force still stops on entering a province held by another colour (004 [5.27]; 004 [13.23]
  for a White force with the Czar) and on entering Tver or Petrograd (004 [21.23]).  Only
  controllable units move (004 [18.0]): White leaders with their attached units, and Blue/
  Green stacks under a Control Marker the non-Red Player holds; loose White combat units
  wait for a leader to pick them up in the Stacking Phase.  The non-Red Player never
  attaches Green units with the Gold (004 [22.1] speaks of White units only).
* 004 [22.1] "fewest but strongest stacks": per province, the lowest-Identity-Code White
  leader takes the strongest White combat units it may attach, the next leader goes on top
  with the next strongest, and so on until the stack holds five units; then the next stack.
  White combat units left without a leader are stacked together (five per stack).  Imperial
  units held by the non-Red Player go to the first leader of the first stack.
* 004 [23.11] with 004 [8.22], [8.25]: White and Green units cannot attack together and a
  stack is attacked once per Combat Phase.  So in a province with Red units the White forces
  (with the Blue ones, friendly to both, 004 [8.15]) attack the weakest Red force, then the
  Green forces attack the weakest Red force not yet attacked; each attack only at 1:1 or
  better (004 [23.14]).  White forces attack Green forces (004 [23.12]) whether or not the
  non-Red Player holds that Green Control Marker: the case does not distinguish.
* 004 [23.16] names Blue units, Green units and White *leaders*; we read the omitted White
  combat units as coming before the White leaders.  Within a class the weakest unit that
  covers what is still owed goes first; if none covers it, the strongest of the class.
  For an uncontrolled stack attacked by Red the Red Player chooses (004 [8.46]).
* 004 [13.41]: the non-Red Player always captures an Imperial unit it may capture.
* 004 [24.0]: "the Red Player must remove all Red Leaders other than Lenin and Trotsky" even
  when 004 [24.16] skips the phase (the Player's Note speaks of "the sole surviving
  Leader").  A Lenin/Trotsky death in a Combat Phase skips the next Red Leader Determination
  Phase (one per death: both in one Game-Turn skip two, 004 [24.15], [24.17]); the Red
  replacement penalty is 004 [9.14] as in the multi-player engine.
* 004 [24.11]: a deployed leader goes on top of a Red stack holding a Red combat unit (it
  attaches that stack's loose Red combat units, strongest first, up to its value) or alone in
  a province holding no non-Red unit ("may not be deployed on a non-Red unit").
* 004 [26.0]: the Czar is executed (removed to the game box, ``State.removed``) as soon as it
  is in one stack with a Red leader; it counts for nothing.
* 004 [20.11], [27.2]: no Assassin or Politburo markers, no purges, trades or Central
  Committee; the Auxiliary Forces Randomizer holds the 17 Blue and Green markers.  Every
  marker drawn, by either side, goes to the non-Red Player (004 [20.12]).
* 004 [9.16] still applies: no replacements after Game-Turn 5.  ``max_turns`` is ignored
  (the solitaire always ends with Game-Turn 7, 004 [27.32]); ``postal_movement`` is refused.

Engine hooks: ``rcw.modes.new_game`` and ``rcw.modes.from_bytes`` pick :class:`SoloGame` from
``rcw.modes`` when the options say ``"mode": "spi-solitaire"``; ``State.solo`` holds the
solitaire's bookkeeping (paths, the non-Red step in progress, the Red Leader Determination).
:class:`SoloGame` dispatches actions through its own table (``SOLO_HANDLERS``: the shared
movement and combat handlers plus the solitaire's own) and runs :func:`settle` after each,
instead of the multi-player ``Game.AFTER_APPLY`` hooks (politics has nothing to do here).
The two Red Leader Determination actions are defined in this module.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from rcw import actions as A
from rcw import options as O
from rcw.actions import Action, Event, IllegalAction, _action
from rcw.data import BLUE, GREEN, RED, SIBERIA, WHITE, GameData
from rcw.game import HANDLERS, Game
from rcw.rng import MASK, Dice
from rcw.rules import combat, movement, random_events, randomizer, sequence
from rcw.rules.base import LENIN, TROTSKY, Ctx
from rcw.state import Stack, State, opposed

MODE = "spi-solitaire"
RED_SEAT, NONRED = "R", "N"
LAST_TURN = 7                                             # 004 [27.32]
TARGETS = ("PETR", "TVER")                                # 004 [21.13]
OBJECTIVE_REGIONS = ("Greater Russia", "White Russia", "Ukraine", "Cossack Territories")   # 004 [28.11]
MAX_RED_LEADERS = 6                                        # 004 [24.12]
REPLACED_GREEN = ("PO", "FN")                              # 004 [25.12]
SETUP_MOVES = {266: 219, 267: 218, 268: 220, 269: 216, 270: 217}   # 004 [27.12]: leader -> WU in SARA URAL TIFL KIRG SAMA
STACK_LIMIT = 5                                            # 004 [7.11]
LEVELS = {"red_decisive": "Red Decisive Victory", "red_substantive": "Red Substantive Victory",
          "red_marginal": "Red Marginal Victory", "nonred_decisive": "non-Red Decisive Victory", "draw": "Draw"}


# -- the two actions of the Red Leader Determination Phase (004 [24.0]) ------------------------------
@_action
class DeployLeader(Action):
    """004 [24.0], [24.11]: deploy a Red leader on top of the Red stack ``stack`` (which must hold a
    Red combat unit), or, with ``stack`` 0, alone in ``province``."""
    leader: int = 0
    stack: int = 0
    province: str = ""


@_action
class EndLeaderDeployment(Action):
    """End the Red Leader Determination Phase (using fewer leaders than the die allows)."""


# ================================================================================================
# set-up (004 [27.0])
# ================================================================================================
def setup(ctx: Ctx) -> list[Event]:
    """004 [27.1]-[27.2]: combat units as in the standard set-up (004 [15.4]); White leaders as in
    the multi-player game except the five of 004 [27.12]; only Lenin and Trotsky for Red; the
    Randomizer without Politburo and Assassin markers; non-Red targets and paths (004 [21.24])."""
    s, d = ctx.s, ctx.data
    s.stacks, s.next_stack = {}, 1
    by_key: dict[tuple, list[int]] = {}
    for u in sorted(d.units.values(), key=lambda u: u.id):
        if not u.is_combat:
            continue
        if u.color in (BLUE, GREEN):
            by_key.setdefault((u.province, u.nationality), []).append(u.id)       # 004 [15.42]
        else:
            ctx.new_stack(u.province, RED_SEAT if u.color == RED else NONRED, [u.id])
    for (prov, _nat), ids in by_key.items():
        for i in range(0, len(ids), STACK_LIMIT):
            ctx.new_stack(prov, None, ids[i:i + STACK_LIMIT])
    for imp, under in ((d.czar, d.czar_under), (d.gold, d.gold_under)):      # 004 [15.51]
        ctx.put(imp, ctx.b.stack_of(under))
    leaders = [u for u in sorted(d.units) if d.units[u].is_leader and d.units[u].color == WHITE]
    leaders += [LENIN, TROTSKY]                                               # 004 [27.13]
    for lid in leaders:
        u = d.units[lid]
        if lid in SETUP_MOVES:                                                # 004 [27.12]
            unit = SETUP_MOVES[lid]
        else:                                                                 # 004 [27.11], [15.52]
            unit = next(v.id for v in d.units.values() if v.is_combat and v.color == u.color and v.province == u.province)
        st = ctx.b.stack_of(unit)
        st.units.insert(0, lid)
        st.attached[unit] = lid
        for imp in (d.czar, d.gold):
            if imp in st.units:
                st.attached[imp] = lid
        ctx.b.invalidate()
    m = d.markers                                                              # 004 [20.11], [27.2]
    s.aux = [f"BC:{n}" for n in m.blue_control] + [f"WD:{n}" for n in m.blue_withdrawal] + [f"GC:{n}" for n in m.green_control]
    s.hand, s.politburo, s.assassins = {}, {p: 0 for p in s.seats}, {p: 0 for p in s.seats}
    s.solo = {"nr": "", "queue": [], "routes": {}, "rld_skip": 0, "dead": [], "rld": {}, "czar": 0}
    ev = [Event("solitaire", "SPI solitaire (004 [18.0]-[28.0]): you are the Red Player; the non-Red forces follow "
                "the solitaire rules. Lenin in Petrograd and Trotsky in Tver are your only leaders on the map "
                "(004 [27.13]); win by clearing Greater Russia, White Russia, Ukraine and the Cossack region of "
                "non-Red units (004 [28.11]); lose if a non-Red unit ends a Game-Turn in Petrograd or Tver (004 [28.13]).",
                {"mode": MODE})]
    for st in sorted(s.stacks.values(), key=lambda x: x.id):                  # 004 [21.24]
        if st.owner != RED_SEAT and ctx.b.fighting_units(st):
            ev += _assign_route(ctx, st, setup=True)
    return ev


# ================================================================================================
# target provinces and paths (004 [21.13], [21.21], [21.22])
# ================================================================================================
_DIST: dict[tuple[int, str], tuple[object, dict[str, int]]] = {}


def rail_distances(d: GameData, target: str) -> dict[str, int]:
    """Fewest rail-connected provinces from every province to ``target`` (rail links only)."""
    key = (id(d), target)
    if key not in _DIST or _DIST[key][0] is not d:
        dist = {target: 0}
        q = deque([target])
        while q:
            x = q.popleft()
            for y in sorted(d.provinces[x].rail):
                if y not in dist:
                    dist[y] = dist[x] + 1
                    q.append(y)
        _DIST[key] = (d, dist)
    return _DIST[key][1]


def _all_shortest(d: GameData, start: str, target: str, dist: dict[str, int]) -> list[list[str]]:
    out: list[list[str]] = []

    def walk(p: str, path: list[str]) -> None:
        if p == target:
            out.append(path)
            return
        for n in sorted(d.provinces[p].rail):
            if dist.get(n, -1) == dist[p] - 1:
                walk(n, path + [n])

    walk(start, [start])
    return out


def shortest_routes(d: GameData, start: str) -> list[list[str]]:
    """Every path a non-Red force in ``start`` may be given (004 [21.13]): the shortest paths
    along rail lines to whichever of Petrograd and Tver is nearer (both when equally near).
    From a province with no rail line, first the fewest provinces overland to a rail province
    leading to either, then the rail path from there (004 [21.21])."""
    if start in TARGETS:
        return [[start]]
    dists = {t: rail_distances(d, t) for t in TARGETS}
    if d.provinces[start].rail and any(start in dists[t] for t in TARGETS):
        best = min(dists[t].get(start, 10**9) for t in TARGETS)
        out: list[list[str]] = []
        for t in TARGETS:
            if dists[t].get(start) == best:
                out += _all_shortest(d, start, t, dists[t])
        return out
    # 004 [21.21]: overland to the nearest rail province that leads to a target
    prev: dict[str, list[str]] = {start: []}
    frontier, found = [start], []
    while frontier and not found:
        nxt: dict[str, list[str]] = {}
        for p in frontier:
            for n in sorted(d.provinces[p].adjacent):
                if n not in prev:
                    nxt.setdefault(n, []).append(p)
        prev.update(nxt)
        frontier = sorted(nxt)
        found = [p for p in frontier if d.provinces[p].rail and any(p in dists[t] for t in TARGETS)]
    if not found:
        return []

    def back(p: str) -> list[list[str]]:
        if p == start:
            return [[start]]
        return [path + [p] for q in prev[p] for path in back(q)]

    combos = [head[:-1] + tail for r in found for head in back(r) for tail in shortest_routes(d, r)]
    best = min(len(c) for c in combos)
    return [c for c in combos if len(c) == best]


def _pick(ctx: Ctx, n: int) -> int:
    """004 [21.22], [23.11]: choose one of ``n`` equal options "by the roll of a die" (re-rolling
    results above ``n``); more than six options are drawn uniformly."""
    if n <= 1:
        return 0
    if n > 6:
        return ctx.below(n)
    while True:
        r = ctx.die()
        if r <= n:
            return r - 1


def _route_of(ctx: Ctx, uid: int) -> list[str] | None:
    r = ctx.s.solo["routes"].get(uid)
    return list(r) if r else None


def _set_route(ctx: Ctx, units: list[int], route: list[str]) -> None:
    for u in units:
        if not ctx.data.units[u].is_imperial:
            ctx.s.solo["routes"][u] = list(route)


def _assign_route(ctx: Ctx, st: Stack, setup: bool = False, target: str | None = None) -> list[Event]:
    """Give a force its target province and path (004 [21.13], [21.22]); ``target`` keeps the
    target already chosen (004 [21.24])."""
    d = ctx.data
    routes = shortest_routes(d, st.province)
    if target:
        keep = [r for r in routes if r[-1] == target]
        if not keep:
            dist = rail_distances(d, target)
            if st.province in dist:
                keep = _all_shortest(d, st.province, target, dist)
        routes = keep or routes
    if not routes:
        return []
    i = _pick(ctx, len(routes))
    route = routes[i]
    _set_route(ctx, ctx.b.fighting_units(st), route)
    tie = f" (one of {len(routes)} equally short paths, chosen by die, 004 [21.22])" if len(routes) > 1 else ""
    who = _force_name(ctx, st)
    text = (f"Target province of {who} in {st.province}: {d.provinces[route[-1]].name}, by "
            f"{'-'.join(route)}{tie} (004 [21.13])")
    return [Event("nonred_target", text, {"stack": st.id, "route": route, "setup": setup})]


def remaining_route(ctx: Ctx, st: Stack) -> list[str]:
    """The provinces a non-Red stack still has to go through to its target (its current province
    excluded)."""
    lead = _route_unit(ctx, st)
    route = _route_of(ctx, lead) if lead else None
    if not route or st.province not in route:
        return []
    return route[route.index(st.province) + 1:]


def _route_unit(ctx: Ctx, st: Stack) -> int | None:
    leaders = sorted(ctx.b.leaders_of(st))
    if leaders:
        return leaders[0]
    f = ctx.b.fighting_units(st)
    return f[0] if f else None


# ================================================================================================
# naming
# ================================================================================================
def _force_name(ctx: Ctx, st: Stack) -> str:
    d = ctx.data
    leaders = sorted(ctx.b.leaders_of(st))
    units = ctx.b.fighting_units(st)
    if leaders:
        head = f"{d.units[leaders[0]].name}'s force"
    else:
        u = d.units[units[0]] if units else None
        if u is None:
            return "an empty stack"
        names = d.blue_names if u.color == BLUE else d.green_names
        head = f"the {names.get(u.nationality, u.nationality)} force" if u.nationality else "a leaderless White stack"
    return f"{head} ({ctx.names(units)}, strength {sum(d.units[x].strength for x in units)})"


def _pname(ctx: Ctx, code: str) -> str:
    return f"{ctx.data.provinces[code].name} ({code})"


# ================================================================================================
# the non-Red Player-Turn (004 [19.2] A)
# ================================================================================================
def start_nonred_turn(ctx: Ctx) -> list[Event]:
    s = ctx.s
    s.order, s.current = [NONRED, RED_SEAT], 0
    _fresh_player_turn(ctx)
    s.phase = "random_events"
    s.solo["nr"] = "random_events"
    return [Event("player_turn", f"Game-Turn {s.turn}: the non-Red Player-Turn (004 [19.2] A, 004 [27.31])",
                  {"seat": NONRED, "turn": s.turn})]


def _fresh_player_turn(ctx: Ctx) -> None:
    s = ctx.s
    s.moved, s.imperial_moved, s.fought, s.defended = [], [], [], []
    s.subversion_doubled = False
    s.force = s.attack = None
    if hasattr(s, "drawn"):               # the multi-player Randomizer Phase's flag
        s.drawn = False


def nonred_step(ctx: Ctx) -> list[Event]:
    """Run the next piece of the non-Red Player-Turn."""
    s = ctx.s
    step = s.solo["nr"]
    if step == "random_events":                                    # 004 [19.2] A.1, [20.0]
        s.solo["nr"] = "movement"
        ev = roll_random_events(ctx, NONRED)
        s.phase = "movement"
        return ev
    if step == "movement":                                         # 004 [19.2] A.2, [21.0]
        s.solo["nr"] = "stacking"
        ev = nonred_movement(ctx)
        return ev
    if step == "stacking":                                         # 004 [19.2] A.3, [22.0]
        ev = nonred_stacking(ctx)
        s.solo["nr"] = "combat"
        s.phase = "combat"
        s.solo["queue"] = [[p, g] for p in sorted({st.province for st in s.stacks.values() if st.owner == NONRED})
                           for g in (0, 1)]
        return ev
    if step == "combat":                                           # 004 [19.2] A.4, [23.0]
        while s.solo["queue"]:
            prov, group = s.solo["queue"].pop(0)
            ev = nonred_attack(ctx, prov, group)
            if ev:
                return ev
        s.solo["nr"] = "randomizer"
        s.phase = "randomizer"
        return []
    if step == "randomizer":                                       # 004 [19.2] A.5
        s.solo["nr"] = ""
        ev = draw(ctx, NONRED)
        return ev + start_red_turn(ctx)
    s.solo["nr"] = ""
    return []


# -- Random Events (004 [20.0]) ------------------------------------------------------------------------
def roll_random_events(ctx: Ctx, who: str) -> list[Event]:
    """004 [12.0] as altered by 004 [20.1]: a 'Draw from the Randomizer' gives the marker to the
    non-Red Player whoever rolled."""
    r, c = ctx.die(), ctx.die()
    cell = ctx.data.tables.random_events[(r, c)]
    side = "Red" if who == RED_SEAT else "non-Red"
    if cell.result == "epidemic":
        names = ", ".join(ctx.data.provinces[p].name for p in cell.provinces)
        ev = [Event("random_event", f"{side} Random Events roll {r}-{c}: Epidemic in {names} (004 [12.11])",
                    {"roll": [r, c], "result": "epidemic", "provinces": list(cell.provinces), "seat": who})]
        for p in cell.provinces:
            ev += random_events.epidemic(ctx, p)
        return ev
    if cell.result == "subversion_doubled":
        ctx.s.subversion_doubled = True
        return [Event("random_event", f"{side} Random Events roll {r}-{c}: Subversive Attacks Doubled this Player-Turn "
                      "(004 [12.12])", {"roll": [r, c], "result": "subversion_doubled", "seat": who})]
    ev = [Event("random_event", f"{side} Random Events roll {r}-{c}: Draw from the Randomizer (004 [12.13])",
                {"roll": [r, c], "result": "draw", "seat": who})]
    return ev + draw(ctx, who)


def draw(ctx: Ctx, who: str) -> list[Event]:
    """A Randomizer draw by either side; the marker always goes to the non-Red Player (004 [20.12])."""
    side = "Red" if who == RED_SEAT else "non-Red"
    if not ctx.s.aux:
        return [Event("randomizer_empty", f"{side} Randomizer draw: the Auxiliary Forces Randomizer is empty", {})]
    ev = randomizer.draw(ctx, NONRED)
    out = []
    for e in ev:
        text = e.text
        if text.startswith(f"{NONRED} draws"):
            text = f"{side} draws" + text[len(NONRED) + 6:]
            if who == RED_SEAT and e.kind == "drew":
                text += " — it goes to the non-Red Player (004 [20.12])"
            elif who == NONRED and e.kind == "drew":
                text += " (004 [20.12])"
        out.append(Event(e.kind, text, dict(e.data) | {"drawn_by": who}))
    return out


# -- Movement (004 [21.0]) -----------------------------------------------------------------------------
def _movers(ctx: Ctx) -> list[Stack]:
    """The non-Red forces that must move, White first, then Green, then Blue (004 [21.11])."""
    d = ctx.data
    white, green, blue = [], [], []
    for st in ctx.s.stacks.values():
        if st.owner != NONRED:
            continue
        c = ctx.b.stack_color(st)
        if c == WHITE and ctx.b.leaders_of(st):
            white.append(st)
        elif c == GREEN:
            green.append(st)
        elif c == BLUE and all(d.units[u].nationality not in d.immobile for u in ctx.b.fighting_units(st)):
            blue.append(st)

    def key(st: Stack) -> tuple:
        return (min(ctx.b.fighting_units(st) or [0]), st.id)

    return sorted(white, key=key) + sorted(green, key=key) + sorted(blue, key=key)


def _may_enter(ctx: Ctx, units: list[int], color: str, frm: str, to: str) -> tuple[bool, str]:
    d = ctx.data
    if frozenset((frm, to)) in d.white_only_borders and color != WHITE:
        return False, "only White units cross the Kerch Straits (004 [5.32])"
    region = d.provinces[to].region
    for x in units:
        u = d.units[x]
        if u.color == BLUE:
            if u.nationality in d.siberia_only and region != SIBERIA:
                return False, "Czech and Japanese units never leave Siberia (004 [5.65])"
        elif u.color == GREEN:
            if u.nationality == "FN":
                if to not in d.finnish_provinces:
                    return False, "Finnish units enter only Archangel, Olonetz, Petrograd and Finland (004 [5.75])"
            elif u.nationality == "PO":
                if region not in d.polish_regions:
                    return False, "Polish units stay out of the Cossack, Trans-Caucasus and Siberia regions (004 [5.76])"
            elif region != d.green_home_region[u.nationality]:
                return False, f"{d.green_names[u.nationality]} units never leave their region (004 [5.74])"
    return True, ""


def _blocked_by(ctx: Ctx, st: Stack, province: str) -> list[str]:
    """Colours in ``province`` that stop the force (004 [5.27]; 004 [13.23] for a White force with the Czar)."""
    color = ctx.b.stack_color(st)
    colors = set()
    for o in ctx.b.stacks_in(province):
        if o.id == st.id:
            continue
        for x in ctx.b.fighting_units(o):
            c = ctx.b.color_of(x, o)
            if c != color:
                colors.add(c)
    if color == WHITE and ctx.data.czar in st.units and colors <= {BLUE}:
        return []
    return sorted(colors)


def nonred_movement(ctx: Ctx) -> list[Event]:
    """004 [21.1]: each controllable force in turn: name it, roll the die, move it that many
    provinces along its path."""
    ev = [Event("phase", "Non-Red Movement Phase (004 [21.0]): White forces first, then Green, then Blue "
                "(004 [21.11]); each rolls one die for its Movement Allowance (004 [21.12], [21.26])",
                {"phase": "movement", "seat": NONRED})]
    for st in _movers(ctx):
        if st.id in ctx.s.stacks and st.owner == NONRED:
            ev += move_force(ctx, st)
    return ev


def move_force(ctx: Ctx, st: Stack) -> list[Event]:
    s, d = ctx.s, ctx.data
    ev: list[Event] = []
    color = ctx.b.stack_color(st)
    if color == WHITE:                       # 004 [18.0]: only leaders and their attached units move
        leaders = ctx.b.leaders_of(st)
        group = [u for u in st.units if u in leaders or st.attached.get(u) in leaders]
        rest = [u for u in st.units if u not in group]
        if rest:
            for x in rest:
                st.units.remove(x)
                st.attached.pop(x, None)
            ctx.new_stack(st.province, NONRED, rest, {x: 0 for x in rest if d.units[x].is_imperial})
            ev.append(Event("nonred_leave", f"{ctx.names([x for x in rest if not d.units[x].is_imperial])} "
                            f"(not attached to a leader) stay in {st.province} (004 [18.0])", {"units": rest}))
    lead = _route_unit(ctx, st)
    route = _route_of(ctx, lead) if lead else None
    if not route or st.province not in route:
        target = route[-1] if route else None
        ev += _assign_route(ctx, st, target=target)
        route = _route_of(ctx, lead)
        if not route:
            return ev
    _set_route(ctx, ctx.b.fighting_units(st), route)
    ahead = route[route.index(st.province) + 1:]
    if not ahead:
        return ev
    units = ctx.b.fighting_units(st)
    ok, why = _may_enter(ctx, units, color, st.province, ahead[0])
    if not ok:                               # 004 [21.25]: as far as it may go; no need to roll
        return ev
    die = ctx.die()
    start = st.province
    path = [start]
    stop = ""
    for to in ahead[:die]:
        ok, why = _may_enter(ctx, units, color, st.province, to)
        if not ok:
            stop = f"; it may go no farther: {why}, 004 [21.25]"
            break
        st.province = to
        path.append(to)
        ctx.b.invalidate()
        for x in st.units:
            if x not in s.moved:
                s.moved.append(x)
        if to in TARGETS:
            stop = f"; it stops on entering {d.provinces[to].name} (004 [21.23])"
            break
        blockers = _blocked_by(ctx, st, to)
        if blockers:
            stop = f"; it stops in {to}, held by {'/'.join(blockers)} units (004 [5.27])"
            break
    target = route[-1]
    if len(path) == 1:
        text = f"Non-Red: {_force_name(ctx, st)} in {start} rolls {die} but cannot move{stop}"
    else:
        text = (f"Non-Red: {_force_name(ctx, st)} rolls {die} and moves {'→'.join(path)} toward "
                f"{d.provinces[target].name}{stop or ' (004 [21.12])'}")
    ev.append(Event("nonred_move", text, {"stack": st.id, "die": die, "path": path, "target": target}))
    return ev


# -- Stacking (004 [22.0]) -----------------------------------------------------------------------------
def _capacity(ctx: Ctx, leader: int, imperials: list[int]) -> int:
    """004 [5.14], [13.22], [13.25]: a White leader's value, +2 with the Czar, +2 with the Gold."""
    cap = ctx.data.units[leader].strength
    if ctx.data.czar in imperials:
        cap += 2
    if ctx.data.gold in imperials:
        cap += 2
    return cap


def white_arrangement(ctx: Ctx, leaders: list[int], units: list[int], imperials: list[int]) -> list[tuple[list[int], dict[int, int]]]:
    """004 [22.1]: the stacks the White units of one province are arranged in."""
    d = ctx.data
    leaders = sorted(leaders)
    combat_units = sorted(units, key=lambda u: (-d.units[u].strength, u))
    out: list[tuple[list[int], dict[int, int]]] = []
    imps = sorted(imperials)
    while leaders:
        stack: list[int] = []
        att: dict[int, int] = {}
        n = 0
        while leaders and n + 1 <= STACK_LIMIT:
            lead = leaders.pop(0)
            stack.append(lead)
            n += 1
            mine = imps if not out and len(stack) == 1 else []
            for imp in mine:
                stack.append(imp)
                att[imp] = lead
            imps = [i for i in imps if i not in mine]
            take = min(_capacity(ctx, lead, mine), STACK_LIMIT - n, len(combat_units))
            for u in combat_units[:take]:
                stack.append(u)
                att[u] = lead
            combat_units = combat_units[take:]
            n += take
        out.append((stack, att))
    while combat_units:
        chunk = combat_units[:STACK_LIMIT]
        combat_units = combat_units[STACK_LIMIT:]
        att = {}
        if imps:
            chunk = imps + chunk
            att = {i: 0 for i in imps}
            imps = []
        out.append((chunk, att))
    if imps:
        out.append((imps, {i: 0 for i in imps}))
    return out


def nonred_stacking(ctx: Ctx) -> list[Event]:
    """004 [22.0]: in each province, the fewest but strongest stacks of each colour."""
    s, d = ctx.s, ctx.data
    ev: list[Event] = []
    provinces = sorted({st.province for st in s.stacks.values() if st.owner == NONRED})
    for prov in provinces:
        mine = [st for st in ctx.b.stacks_in(prov) if st.owner == NONRED]
        groups: dict[str, list[Stack]] = {}
        for st in mine:
            c = ctx.b.stack_color(st)
            if c == WHITE:
                groups.setdefault("W", []).append(st)
            elif c in (BLUE, GREEN):
                nat = next((d.units[u].nationality for u in ctx.b.fighting_units(st)), "")
                groups.setdefault(nat, []).append(st)
            elif not ctx.b.fighting_units(st):
                groups.setdefault("W", []).append(st)        # an Imperial unit left alone with N's marker
        for key, stacks in sorted(groups.items()):
            units = [u for st in stacks for u in st.units]
            imps = [u for u in units if d.units[u].is_imperial]
            if key == "W":
                leaders = [u for u in units if d.units[u].is_leader]
                combat_units = [u for u in units if d.units[u].is_combat]
                want = white_arrangement(ctx, leaders, combat_units, imps)
            else:                                       # 004 [22.2], [7.14]
                cu = sorted((u for u in units if not d.units[u].is_imperial), key=lambda u: (-d.units[u].strength, u))
                want = []
                for i in range(0, len(cu), STACK_LIMIT):
                    chunk = cu[i:i + STACK_LIMIT]
                    att = {}
                    if i == 0 and imps:
                        chunk = imps + chunk
                        att = {x: 0 for x in imps}
                    want.append((chunk, att))
            have = sorted((sorted(st.units), sorted(st.attached.items())) for st in stacks)
            if have == sorted((sorted(u), sorted(a.items())) for u, a in want):
                continue
            for st in stacks:
                del s.stacks[st.id]
            ctx.b.invalidate()
            made = []
            for units_, att in want:
                ns = ctx.new_stack(prov, NONRED, units_, att)
                lead = _route_unit(ctx, ns)
                r = _route_of(ctx, lead) if lead else None
                if r and prov in r:
                    _set_route(ctx, ctx.b.fighting_units(ns), r)
                made.append(ns)
            desc = "; ".join(_force_name(ctx, ns) for ns in made if ctx.b.fighting_units(ns))
            ev.append(Event("nonred_stack", f"Non-Red stacking in {prov}: {desc} "
                            f"({'004 [22.1]' if key == 'W' else '004 [22.2]'})", {"province": prov}))
    return ev


# -- Combat (004 [23.0]) ---------------------------------------------------------------------------------
def _smallest(ctx: Ctx, stacks: list[Stack]) -> tuple[Stack | None, int]:
    if not stacks:
        return None, 0
    strengths = {st.id: combat.strength(ctx, ctx.b.fighting_units(st)) for st in stacks}
    low = min(strengths.values())
    tied = sorted((st for st in stacks if strengths[st.id] == low), key=lambda x: x.id)
    return tied[_pick(ctx, len(tied))], len(tied)


def nonred_attack(ctx: Ctx, prov: str, group: int) -> list[Event]:
    """004 [23.11]-[23.17]: the attack (if any) one group of controllable non-Red forces in
    ``prov`` must make.  Group 0: White (with Blue) forces; group 1: Green forces."""
    s, b = ctx.s, ctx.b
    here = b.stacks_in(prov)

    def fresh(st: Stack) -> bool:
        return not any(u in s.fought for u in combat.attack_units(ctx, st))

    mine = [st for st in here if st.owner == NONRED and combat.attack_units(ctx, st) and fresh(st)]
    reds = [st for st in here if b.fighting_units(st) and b.stack_color(st) == RED
            and not any(u in s.defended for u in b.fighting_units(st))]
    any_red = any(b.fighting_units(st) and b.stack_color(st) == RED for st in here)
    if any_red:                                                          # 004 [23.11]
        if group == 0:
            attackers = [st for st in mine if b.stack_color(st) in (WHITE, BLUE)]
        else:
            attackers = [st for st in mine if b.stack_color(st) == GREEN]
        targets, rule = reds, "004 [23.11]"
    else:                                                                # 004 [23.12], [23.13]
        if group != 0:
            return []
        attackers = [st for st in mine if b.stack_color(st) == WHITE]
        targets = [st for st in here if b.fighting_units(st) and b.stack_color(st) == GREEN
                   and not any(u in s.defended for u in b.fighting_units(st))]
        rule = "004 [23.12]"
    if not attackers or not targets:
        return []
    target, tied = _smallest(ctx, targets)
    att = sum(combat.strength(ctx, combat.attack_units(ctx, st)) for st in attackers)
    dfn = combat.strength(ctx, b.fighting_units(target))
    tdesc = f"{ctx.names(b.fighting_units(target))} (strength {dfn})"
    adesc = "; ".join(_force_name(ctx, st) for st in attackers)
    if att < dfn:                                                        # 004 [23.14], [23.15]
        return [Event("nonred_no_attack", f"Non-Red in {prov}: {adesc} would attack the weakest "
                      f"{'Red' if any_red else 'Green'} force, {tdesc}, but {att} against {dfn} is below 1:1 "
                      "— no non-Red attack (004 [23.14], [23.15])", {"province": prov})]
    ev = [Event("nonred_attack", f"Non-Red in {prov}: {adesc} must attack the weakest "
                f"{'Red' if any_red else 'Green'} force, {tdesc}"
                + (f" (chosen by die among {tied} equally weak, {rule})" if tied > 1 else f" ({rule})"),
                {"province": prov, "target": target.id})]
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
    s = ctx.s
    dec = s.decision
    if dec["kind"] == "loss":
        u = choose_exchange_loss(ctx, dec["units"], dec["need"])
        ev = [Event("nonred_loss", f"Non-Red Exchange loss: {ctx.name(u)} (Blue, then Green, then White units, "
                    "White leaders last: 004 [23.16])", {"unit": u})]
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


# ================================================================================================
# the Red Player-Turn (004 [19.2] B)
# ================================================================================================
def start_red_turn(ctx: Ctx) -> list[Event]:
    s = ctx.s
    s.current = 1
    _fresh_player_turn(ctx)
    s.phase = "random_events"
    return [Event("player_turn", f"Game-Turn {s.turn}: the Red Player-Turn (004 [19.2] B)", {"seat": RED_SEAT, "turn": s.turn})]


def check_roll(ctx: Ctx, a: A.RollRandomEvents) -> None:
    sequence.check_roll(ctx, a)


def do_roll(ctx: Ctx, a: A.RollRandomEvents) -> list[Event]:
    ev = roll_random_events(ctx, RED_SEAT)
    if ctx.s.phase == "over":
        return ev
    return ev + enter_leader_phase(ctx)


def available_leaders(ctx: Ctx) -> list[int]:
    """004 [24.13]: Red leaders not on the map and not eliminated (not on the VP chart)."""
    d, s = ctx.data, ctx.s
    out = []
    for u in sorted(d.units):
        uu = d.units[u]
        if not uu.is_leader or uu.color != RED or u in (LENIN, TROTSKY):
            continue
        if ctx.b.stack_of(u) is None and ctx.b.on_vp_chart(u) is None and u not in s.removed:
            out.append(u)
    return out


def enter_leader_phase(ctx: Ctx) -> list[Event]:
    """004 [24.0] Procedure: remove the Red leaders other than Lenin and Trotsky, roll one die."""
    s, d = ctx.s, ctx.data
    s.phase = "leaders"
    removed = [u for st in list(s.stacks.values()) for u in st.units
               if d.units[u].is_leader and d.units[u].color == RED and u not in (LENIN, TROTSKY)]
    for u in sorted(removed):
        ctx.take(u)
    ev = [Event("phase", "Red Leader Determination Phase (004 [24.0])", {"phase": "leaders"})]
    if removed:
        ev.append(Event("leaders_removed", f"Removed from the map until picked again: {ctx.names(sorted(removed))} "
                        "(004 [24.0], [24.13])", {"units": sorted(removed)}))
    on_map = [u for u in (LENIN, TROTSKY) if ctx.b.stack_of(u) is not None]
    if s.solo["rld_skip"] > 0:                                  # 004 [24.14]-[24.17]
        s.solo["rld_skip"] -= 1
        s.solo["rld"] = {"die": 0, "allowed": 0, "deployed": [], "skipped": True}
        ev.append(Event("leaders_skipped", "No Red Leader Determination this Game-Turn: Lenin or Trotsky was "
                        "eliminated (004 [24.14]-[24.17])", {}))
        return ev + _to_movement(ctx)
    die = ctx.die()
    allowed = max(0, min(die, MAX_RED_LEADERS - len(on_map)))
    s.solo["rld"] = {"die": die, "allowed": allowed, "deployed": [], "skipped": False}
    cap = f" (at most {MAX_RED_LEADERS} Red leaders in all, 004 [24.12])" if allowed < die else ""
    ev.append(Event("leaders_roll", f"Red Leader Determination die: {die} — you may deploy {allowed} Red "
                    f"leader{'s' if allowed != 1 else ''} besides {' and '.join(d.units[u].name for u in on_map) or 'no one'}"
                    f"{cap}", {"die": die, "allowed": allowed}))
    if allowed == 0 or not available_leaders(ctx):
        return ev + _to_movement(ctx)
    return ev


def _to_movement(ctx: Ctx) -> list[Event]:
    ctx.s.phase = "movement"
    return [Event("phase", "Red Movement Phase", {"phase": "movement"})]


def _red_phase(ctx: Ctx, seat: str, phase: str, rule: str) -> None:
    s = ctx.s
    if seat != RED_SEAT:
        raise ctx.illegal("004 [28.0]", "the non-Red Player is a system of rules: the engine moves it", "not_your_turn")
    if s.decision is not None:
        raise ctx.illegal("004 [4.2]", f"waiting for {s.decision['seat']} to decide ({s.decision['kind']})", "decision_pending")
    if s.phase != phase or s.current != 1:
        raise ctx.illegal(rule, f"not allowed in the {s.phase.replace('_', ' ')} phase", "wrong_phase")


def check_deploy(ctx: Ctx, a: DeployLeader) -> None:
    _red_phase(ctx, a.seat, "leaders", "004 [24.0]")
    s, d = ctx.s, ctx.data
    rld = s.solo["rld"]
    if len(rld["deployed"]) >= rld["allowed"]:
        raise ctx.illegal("004 [24.0]", f"the die allows {rld['allowed']} leader(s) this Game-Turn")
    u = d.units.get(a.leader)
    if u is None or not u.is_leader or u.color != RED:
        raise ctx.illegal("004 [24.0]", f"{a.leader} is not a Red leader", "unknown_unit")
    if a.leader in (LENIN, TROTSKY):
        raise ctx.illegal("004 [24.0]", "Lenin and Trotsky are never removed or redeployed")
    if ctx.b.on_vp_chart(a.leader) is not None:
        raise ctx.illegal("004 [24.13]", f"{u.name} was eliminated and is out of play")
    if ctx.b.stack_of(a.leader) is not None:
        raise ctx.illegal("004 [24.0]", f"{u.name} is already on the map")
    if a.stack:
        st = s.stacks.get(a.stack)
        if st is None:
            raise ctx.illegal("004 [24.11]", f"no stack {a.stack}", "unknown_stack")
        if ctx.b.stack_color(st) != RED or not any(d.units[x].is_combat and ctx.b.color_of(x, st) == RED for x in st.units):
            raise ctx.illegal("004 [24.11]", "a Red leader is deployed on a Red combat unit (never on a non-Red unit)")
        if len(ctx.b.fighting_units(st)) >= STACK_LIMIT:
            raise ctx.illegal("004 [7.11]", "that stack already holds five units")
        if a.province and a.province != st.province:
            raise ctx.illegal("004 [24.11]", f"stack {a.stack} is in {st.province}, not {a.province}")
        return
    if a.province not in d.provinces:
        raise ctx.illegal("004 [24.11]", f"no province {a.province!r}", "unknown_province")
    for st in ctx.b.stacks_in(a.province):
        if any(ctx.b.color_of(x, st) != RED for x in ctx.b.fighting_units(st)):
            raise ctx.illegal("004 [24.11]", f"{a.province} holds non-Red units: a Red leader may not be deployed on them")


def do_deploy(ctx: Ctx, a: DeployLeader) -> list[Event]:
    s, d = ctx.s, ctx.data
    name = d.units[a.leader].name
    if a.stack:
        st = s.stacks[a.stack]
        st.units.insert(0, a.leader)
        loose = sorted((x for x in st.units if d.units[x].is_combat and d.units[x].color == RED and not st.attached.get(x)),
                       key=lambda x: (-d.units[x].strength, x))
        took = loose[:d.units[a.leader].strength]
        for x in took:
            st.attached[x] = a.leader
        ctx.b.invalidate()
        ctx.tidy(st)
        where = (f"on top of stack {st.id} in {_pname(ctx, st.province)}"
                 + (f", taking command of {ctx.names(took)}" if took else ""))
    else:
        ctx.new_stack(a.province, RED_SEAT, [a.leader])
        where = f"alone in {_pname(ctx, a.province)}"
    rld = s.solo["rld"]
    rld["deployed"].append(a.leader)
    ev = [Event("leader_deployed", f"{name} is deployed {where} (004 [24.11]); "
                f"{rld['allowed'] - len(rld['deployed'])} more may be deployed", {"leader": a.leader})]
    if len(rld["deployed"]) >= rld["allowed"] or not available_leaders(ctx):
        ev += _to_movement(ctx)
    return ev


def check_end_deploy(ctx: Ctx, a: EndLeaderDeployment) -> None:
    _red_phase(ctx, a.seat, "leaders", "004 [24.0]")


def do_end_deploy(ctx: Ctx, a: EndLeaderDeployment) -> list[Event]:
    return _to_movement(ctx)


def deploy_candidates(ctx: Ctx) -> list[Action]:
    """Listed: every available leader on every Red stack with a Red combat unit and room, and
    alone in every province holding Red units and no non-Red unit.  Any other province passing
    :func:`check_deploy` may be named too (the action is parametric)."""
    s, b = ctx.s, ctx.b
    out: list[Action] = []
    hosts = [st for st in sorted(s.stacks.values(), key=lambda x: x.id) if b.stack_color(st) == RED
             and len(b.fighting_units(st)) < STACK_LIMIT and any(ctx.data.units[x].is_combat for x in st.units)]
    red_provs = sorted({st.province for st in s.stacks.values() if b.stack_color(st) == RED})
    for lead in available_leaders(ctx):
        out += [DeployLeader(RED_SEAT, lead, st.id, st.province) for st in hosts]
        out += [DeployLeader(RED_SEAT, lead, 0, p) for p in red_provs]
    out.append(EndLeaderDeployment(RED_SEAT))
    return out


def check_draw(ctx: Ctx, a: A.DrawRandomizer) -> None:
    _red_phase(ctx, a.seat, "randomizer", "004 [19.2]")


def do_draw(ctx: Ctx, a: A.DrawRandomizer) -> list[Event]:
    """004 [19.2] B.10, then C (Replacement) and D (Game-Turn Indication)."""
    ev = draw(ctx, RED_SEAT)
    ev += check_red_objective(ctx)          # a withdrawal may clear the last non-Red units
    if ctx.s.phase == "over":
        return ev
    return ev + end_game_turn(ctx)


# ================================================================================================
# Replacement (004 [25.0]), end of the Game-Turn, victory (004 [28.0])
# ================================================================================================
def replacement_block(ctx: Ctx, uid: int, red_blocked: bool) -> str | None:
    """Why a unit on the Victory Point Chart is not replaced now (004 [25.1], [9.1]), or None."""
    d, b = ctx.data, ctx.b
    u = d.units[uid]
    if not u.is_combat:
        return "004 [25.14]: leaders are never replaced"
    if u.color == WHITE or u.color == BLUE or (u.color == GREEN and u.nationality not in REPLACED_GREEN):
        return "004 [25.11]: no White, Blue or Green units are replaced (only Polish and Finnish, 004 [25.12])"
    colors = {b.color_of(x, st) for st in b.stacks_in(u.province) for x in b.fighting_units(st)}
    if any(opposed(u.color, c) for c in colors) and u.color not in colors:
        return f"004 [9.12]: {u.province} is held by an enemy"
    if u.color == RED:
        if red_blocked:
            return "004 [9.14]: Lenin or Trotsky was eliminated"
        for key in TARGETS:
            cs = {b.color_of(x, st) for st in b.stacks_in(key) for x in b.fighting_units(st)}
            if cs - {RED} and RED not in cs:
                return f"004 [9.13]: {key} is occupied by non-Red units"
        if all(b.on_vp_chart(x.id) is not None for x in d.leaders(RED)):
            return "004 [9.15]: every Red leader has been eliminated"
    return None


def replacement_phase(ctx: Ctx) -> list[Event]:
    """004 [19.2] C, [25.0]: Red, Polish and Finnish combat units return to their home provinces
    (Game-Turns 1-5 only, 004 [9.16]); judged simultaneously (004 [9.17])."""
    s = ctx.s
    s.red_block = max(s.red_block, len(set(s.red_block_new)))
    s.red_block_new = []
    ev = [Event("phase", "Replacement Phase (004 [25.0])", {"phase": "replacement"})]
    if s.turn > 5:
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
        ev.append(Event("replaced", f"{ctx.name(uid)} is replaced in {_pname(ctx, u.province)} (004 [25.1])",
                        {"unit": uid, "province": u.province}))
    if red_blocked:
        ev.append(Event("replacement_blocked", "No Red replacements this Game-Turn: Lenin or Trotsky was eliminated "
                        "(004 [9.14], [24.14], [24.15])", {}))
    return ev


def end_game_turn(ctx: Ctx) -> list[Event]:
    s = ctx.s
    ev = replacement_phase(ctx)
    ev += settle_kills(ctx)
    holders = nonred_in_targets(ctx)
    if holders:                                                     # 004 [28.13]
        where = ", ".join(f"{ctx.names(us)} in {ctx.data.provinces[p].name}" for p, us in holders.items())
        return ev + finish(ctx, "nonred_decisive", f"non-Red units hold {where} at the end of Game-Turn {s.turn} (004 [28.13])")
    if s.turn >= LAST_TURN:                                         # 004 [27.32], [28.15]
        left = objective_units(ctx)
        return ev + finish(ctx, "draw", f"Game-Turn {LAST_TURN} is over: {len(left)} non-Red units remain in the "
                           "Red objective regions and none holds Petrograd or Tver (004 [28.15])")
    s.turn += 1                                                      # 004 [19.2] D
    ev.append(Event("turn", f"Game-Turn {s.turn} begins (004 [19.2] D)", {"turn": s.turn}))
    return ev + start_nonred_turn(ctx)


def objective_units(ctx: Ctx) -> list[int]:
    """Non-Red units still in Greater Russia, White Russia, Ukraine and the Cossack region (004 [28.11])."""
    out = []
    for st in ctx.s.stacks.values():
        if ctx.data.provinces[st.province].region not in OBJECTIVE_REGIONS:
            continue
        out += [u for u in ctx.b.fighting_units(st) if ctx.b.color_of(u, st) != RED]
    return sorted(out)


def nonred_in_targets(ctx: Ctx) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for p in TARGETS:
        us = [u for st in ctx.b.stacks_in(p) for u in ctx.b.fighting_units(st) if ctx.b.color_of(u, st) != RED]
        if us:
            out[p] = sorted(us)
    return out


def red_level(turn: int) -> str:
    """004 [28.12]: by Game-Turn 5 Decisive, on 6 Substantive, on 7 Marginal."""
    return "red_decisive" if turn <= 5 else ("red_substantive" if turn == 6 else "red_marginal")


def finish(ctx: Ctx, victory: str, reason: str) -> list[Event]:
    s = ctx.s
    s.phase = "over"
    s.force = s.attack = None
    s.decision = None
    s.solo["nr"] = ""
    winner_color = "Red" if victory.startswith("red") else ("non-Red" if victory == "nonred_decisive" else None)
    level = {"red_decisive": "Decisive", "red_substantive": "Substantive", "red_marginal": "Marginal",
             "nonred_decisive": "Decisive"}.get(victory)
    s.result = {"mode": MODE, "victory": victory, "level": level, "title": LEVELS[victory],
                "winner_color": winner_color,
                "winner": RED_SEAT if winner_color == "Red" else (NONRED if winner_color else None),
                "reason": reason, "turn": s.turn, "scores": {}, "ranking": [],
                "objective_left": len(objective_units(ctx))}
    return [Event("game_over", f"{LEVELS[victory]}: {reason}", dict(s.result))]


# ================================================================================================
# after every action and every non-Red step
# ================================================================================================
def czar_check(ctx: Ctx) -> list[Event]:
    """004 [26.0]: a Red leader stacked with the Czar executes him at once."""
    d, s = ctx.data, ctx.s
    st = ctx.b.stack_of(d.czar)
    if st is None or not any(d.units[u].is_leader and d.units[u].color == RED for u in st.units):
        return []
    prov = st.province
    ctx.take(d.czar)
    s.removed.append(d.czar)
    s.solo["czar"] = s.turn
    ctx.bump("czar_executions")
    return [Event("czar_executed", f"A Red leader is stacked with the Czar in {_pname(ctx, prov)}: the Czar is executed "
                  "and removed from play; he counts for nothing (004 [26.0])", {"province": prov})]


def settle_kills(ctx: Ctx) -> list[Event]:
    """004 [24.14]-[24.17]: each death of Lenin or Trotsky skips one Red Leader Determination Phase."""
    s = ctx.s
    ev = []
    for u in (LENIN, TROTSKY):
        if u in s.solo["dead"] or ctx.b.on_vp_chart(u) is None:
            continue
        s.solo["dead"].append(u)
        s.solo["rld_skip"] += 1
        ev.append(Event("leader_lost", f"{ctx.name(u)} is dead: the next Red Leader Determination Phase is skipped and "
                        "Red replacements stop (004 [24.14]-[24.17], [9.14])", {"unit": u}))
    return ev


def normalize_owners(ctx: Ctx) -> None:
    """Every Red stack is the Red Player's, every White stack the non-Red Player's."""
    for st in ctx.s.stacks.values():
        c = ctx.b.stack_color(st)
        if c == RED:
            st.owner = RED_SEAT
        elif c == WHITE:
            st.owner = NONRED


def check_red_objective(ctx: Ctx) -> list[Event]:
    s = ctx.s
    if s.phase == "over" or objective_units(ctx):
        return []
    v = red_level(s.turn)
    return finish(ctx, v, f"no non-Red unit is left in Greater Russia, White Russia, Ukraine or the Cossack region "
                  f"on Game-Turn {s.turn} (004 [28.11], [28.12])")


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
        ev += czar_check(ctx)
        normalize_owners(ctx)
        ev += settle_kills(ctx)
        if s.phase == "over":
            return ev
        ev += check_red_objective(ctx)
        if s.phase == "over":
            return ev
        if s.decision is not None:
            if s.decision["seat"] != NONRED:
                return ev
            ev += nonred_decision(ctx)
            continue
        if s.solo.get("nr"):
            ev += nonred_step(ctx)
            continue
        return ev
    raise RuntimeError("the solitaire procedure did not settle")


# ================================================================================================
# the game object
# ================================================================================================
ALLOWED = (A.RollRandomEvents, A.StartForce, A.JoinForce, A.Attach, A.Detach, A.Move, A.EndForce, A.Merge,
           A.TransferImperial, A.Emigrate, A.EndMovement, A.DeclareAttack, A.AddAttacker, A.RemoveAttacker,
           A.ResolveAttack, A.CancelAttack, A.ChooseLoss, A.CaptureImperial, A.DeclineCapture, A.EndCombat,
           A.DrawRandomizer)
SOLO_HANDLERS: dict[type, tuple[Any, Any]] = {t: HANDLERS[t] for t in ALLOWED if t in HANDLERS}
SOLO_HANDLERS[A.RollRandomEvents] = (check_roll, do_roll)
SOLO_HANDLERS[A.DrawRandomizer] = (check_draw, do_draw)
SOLO_HANDLERS[DeployLeader] = (check_deploy, do_deploy)
SOLO_HANDLERS[EndLeaderDeployment] = (check_end_deploy, do_end_deploy)

NOT_USED = {"Assassinate": "004 [20.11]: assassination is not used in the solitaire",
            "DeclarePurge": "004 [27.2]: purges are not used in the solitaire",
            "JoinCommittee": "004 [27.2]: there is no Central Committee in the solitaire",
            "OrderExecution": "004 [26.0]: the Czar is executed automatically",
            "AnswerExecution": "004 [26.0]: the Czar is executed automatically",
            "OfferTrade": "004 [18.0]: there is only one player"}


class SoloGame(Game):
    """The SPI solitaire (seats R and N); see the module docstring."""

    MODE = MODE
    PLAYERS = 1
    HANDLERS = SOLO_HANDLERS

    @classmethod
    def new(cls, players: int | None = 1, seed: int = 0, options: dict | None = None,
            data: GameData | None = None, dice: Dice | None = None) -> SoloGame:
        players = 1 if players is None else players
        opts = dict(options or {}) if isinstance(options, dict) or options is None else options
        if not isinstance(opts, dict):
            raise IllegalAction("options", "options must be a map of option names to values", "bad_request")
        opts.pop("mode", None)
        if isinstance(players, bool) or players not in (1, 2):
            raise IllegalAction("004 [18.0]", "the SPI solitaire has one player (seats R and N): players must be 1 or 2",
                                "bad_request")
        opts = O.validate(opts)
        if opts.get("postal_movement"):
            raise IllegalAction("004 [17.0]", "the postal rules are not part of the solitaire", "bad_request")
        opts["mode"] = MODE
        st = State(seats=[RED_SEAT, NONRED], seed=int(seed), rng=int(seed) & MASK, options=opts)
        g = cls(st, data, dice)
        ev = setup(g.ctx)
        st.phase = "random_events"
        ev += start_nonred_turn(g.ctx)
        ev += settle(g.ctx)
        g.setup_events = relabel(ev)
        return g

    def _handler(self, action: Action) -> tuple:
        s = self.state
        if action.seat not in s.seats:
            raise IllegalAction("004 [18.0]", f"no seat {action.seat!r} in the solitaire (R and N)", "unknown_seat")
        if s.phase == "over":
            raise IllegalAction("004 [28.14]", "the game is over", "game_over")
        if action.seat == NONRED:
            raise IllegalAction("004 [28.0]", "the non-Red Player is a system of rules: the engine makes its moves",
                                "not_your_turn")
        handler = self.HANDLERS.get(type(action))
        if handler is None:
            why = NOT_USED.get(action.TYPE, f"004 [18.0]: {action.TYPE} is not part of the SPI solitaire")
            raise IllegalAction(why.split(":")[0], why.split(": ", 1)[1], "unsupported")
        return handler

    def _after(self, events: list[Event]) -> list[Event]:
        """After each Red action the non-Red Player-Turn and the checks of [28.14] run on."""
        return relabel(events + settle(self.ctx))

    def legal_actions(self, seat: str) -> list[Action]:
        s = self.state
        if seat != RED_SEAT or s.phase == "over":
            return []
        if s.decision is not None:
            if s.decision["seat"] != seat:
                return []
            return self._filter(combat.decision_candidates(self.ctx, seat))
        if s.current != 1:
            return []
        ph = s.phase
        cands: list[Action] = []
        if ph == "random_events":
            cands = [A.RollRandomEvents(seat)]
        elif ph == "leaders":
            cands = deploy_candidates(self.ctx)
        elif ph == "movement":
            cands = movement.candidates(self.ctx, seat)
        elif ph == "combat":
            cands = combat.candidates(self.ctx, seat)
        elif ph == "randomizer":
            cands = [A.DrawRandomizer(seat)]
        return self._filter(cands)

    @property
    def pending(self) -> list[dict]:
        s = self.state
        if s.phase == "over":
            return []
        if s.decision is not None:
            return [{"seat": s.decision["seat"], "kind": s.decision["kind"]}]
        if s.current != 1:
            return []
        kind = s.phase
        if s.force is not None:
            kind = "force"
        elif s.attack is not None:
            kind = "attack"
        return [{"seat": RED_SEAT, "kind": kind}]

    def view(self, seat: str | None = None) -> dict:
        v = super().view(seat)
        s, ctx = self.state, self.ctx
        v["phasing"] = None if s.phase == "over" else (RED_SEAT if s.current == 1 else NONRED)
        routes = {}
        for st in sorted(s.stacks.values(), key=lambda x: x.id):
            if st.owner == NONRED or (st.owner is None and ctx.b.stack_color(st) in (BLUE, GREEN)):
                r = remaining_route(ctx, st)
                lead = _route_unit(ctx, st)
                full = _route_of(ctx, lead) if lead else None
                if full:
                    routes[str(st.id)] = {"target": full[-1], "ahead": r}
        rld = dict(s.solo.get("rld") or {})
        v["solitaire"] = {
            "mode": MODE, "last_turn": LAST_TURN, "nonred_step": s.solo.get("nr", ""),
            "leaders": rld | {"available": available_leaders(ctx)} if s.phase == "leaders" else rld,
            "rld_skip": s.solo.get("rld_skip", 0), "czar_executed": s.solo.get("czar", 0),
            "routes": routes, "objective_left": objective_units(ctx),
            "in_targets": {k: v_ for k, v_ in nonred_in_targets(ctx).items()},
        }
        return v

