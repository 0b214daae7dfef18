"""004 [24.0]: the Red Leader Determination Phase, and 004 [26.0]: the Czar.

The Red Player's Random Events roll (004 [19.2] B) leads into the Red Leader Determination
Phase: every Red leader but Lenin and Trotsky leaves the map, one die says how many may be
deployed again (``DeployLeader`` ... ``EndLeaderDeployment``, the two actions of this mode).

Readings where the rules are silent or ambiguous:

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
"""

from __future__ import annotations

from rcw import actions as A
from rcw.actions import Action, Event, _action
from rcw.data import RED
from rcw.rules import sequence
from rcw.rules.base import LENIN, TROTSKY, Ctx
from rcw.rules.movement import STACK_LIMIT
from rcw.solitaire.base import RED_SEAT, pname
from rcw.solitaire.random_events import roll_random_events
from rcw.words import listed

MAX_RED_LEADERS = 6                                        # 004 [24.12]


# -- the two actions of the Red Leader Determination Phase ------------------------------------------------
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


# -- the Red Random Events Phase, which leads into it ------------------------------------------------------
def check_roll(ctx: Ctx, a: A.RollRandomEvents) -> None:
    sequence.check_roll(ctx, a)


def do_roll(ctx: Ctx, a: A.RollRandomEvents) -> list[Event]:
    """004 [19.2] B.1-B.2: the Red Random Events, then the Red Leader Determination Phase."""
    ev = roll_random_events(ctx, RED_SEAT)
    if ctx.s.phase == "over":
        return ev
    return ev + enter_leader_phase(ctx)


# -- the phase -------------------------------------------------------------------------------------------------
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


#: What becomes of the leaders deployed, for the player to read while deploying them (the view's
#: ``solitaire.leaders_note``; QA: they left the map again unexplained, leaving units that could
#: not move): :func:`enter_leader_phase` removes them, skipped phase or not.
LEADERS_NOTE = ("At the start of the next Red Leader Determination Phase every Red leader but Lenin and Trotsky "
                "leaves the map again (004 [24.0]): Red combat units move only with a leader (004 [5.22]), so those "
                "left without one stay where they are until one is deployed on them.")


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
    skips = s.solo["rld_skips"]
    if s.turn in skips:                                         # 004 [24.14]-[24.17]
        skips.remove(s.turn)
        s.solo["rld"] = {"die": 0, "allowed": 0, "deployed": [], "skipped": True}
        ev.append(Event("leaders_skipped", "No Red Leader Determination this Game-Turn: Lenin or Trotsky was "
                        "eliminated (004 [24.14]-[24.17])", {}))
        return ev + to_movement(ctx)
    die = ctx.die()
    allowed = max(0, min(die, MAX_RED_LEADERS - len(on_map)))
    s.solo["rld"] = {"die": die, "allowed": allowed, "deployed": [], "skipped": False}
    cap = f" (at most {MAX_RED_LEADERS} Red leaders in all, 004 [24.12])" if allowed < die else ""
    ev.append(Event("leaders_roll", f"Red Leader Determination die: {die} — you may deploy {allowed} Red "
                    f"leader{'s' if allowed != 1 else ''} besides {listed(d.units[u].name for u in on_map) or 'no one'}"
                    f"{cap}", {"die": die, "allowed": allowed}))
    if allowed == 0 or not available_leaders(ctx):
        return ev + to_movement(ctx)
    return ev


def to_movement(ctx: Ctx) -> list[Event]:
    """The end of the Red Leader Determination Phase (004 [19.2] B.3)."""
    ctx.s.phase = "movement"
    return [Event("phase", "Red Movement Phase", {"phase": "movement"})]


def red_phase(ctx: Ctx, seat: str, phase: str, rule: str) -> None:
    """Refuse an action of the solitaire's own unless it is the Red Player's, in ``phase`` of
    the Red Player-Turn, with no decision pending."""
    s = ctx.s
    if seat != RED_SEAT:
        raise ctx.illegal("004 [28.0]", "the non-Red Player is a system of rules: the engine moves it", "not_your_turn")
    if s.decision is not None:
        raise ctx.illegal("004 [4.2]", f"waiting for {s.decision['seat']} to decide ({s.decision['kind']})", "decision_pending")
    if s.phase != phase or s.current != 1:
        raise ctx.illegal(rule, f"not allowed in the {s.phase.replace('_', ' ')} phase", "wrong_phase")


def check_deploy(ctx: Ctx, a: DeployLeader) -> None:
    red_phase(ctx, a.seat, "leaders", "004 [24.0]")
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


def loose_units(ctx: Ctx, st) -> list[int]:
    """004 [24.11]: the Red combat units of stack ``st`` that no leader commands: those a leader
    deployed on it takes command of (up to his value, the strongest first)."""
    d = ctx.data
    return [x for x in st.units if d.units[x].is_combat and d.units[x].color == RED and not st.attached.get(x)]


def do_deploy(ctx: Ctx, a: DeployLeader) -> list[Event]:
    s, d = ctx.s, ctx.data
    name = d.units[a.leader].name
    if a.stack:
        st = s.stacks[a.stack]
        top = st.units[0] if st.units else None         # (the stack is named by its top counter, QA read "stack 1")
        st.units.insert(0, a.leader)
        loose = sorted(loose_units(ctx, st), key=lambda x: (-d.units[x].strength, x))
        own, _green = ctx.b.capacity_holding(a.leader, ())             # 004 [5.14]: his value
        took = loose[:own]
        for x in took:
            st.attached[x] = a.leader
        ctx.b.invalidate()
        ctx.tidy(st)
        where = (f"on top of {d.units[top].name + chr(39) + 's' if top is not None else 'a'} stack in {pname(ctx, st.province)}"
                 + (f", taking command of {ctx.names(took)}" if took else ""))
    else:
        ctx.new_stack(a.province, RED_SEAT, [a.leader])
        where = f"alone in {pname(ctx, a.province)}"
    rld = s.solo["rld"]
    rld["deployed"].append(a.leader)
    ev = [Event("leader_deployed", f"{name} is deployed {where} (004 [24.11]); "
                f"{rld['allowed'] - len(rld['deployed'])} more may be deployed", {"leader": a.leader})]
    if len(rld["deployed"]) >= rld["allowed"] or not available_leaders(ctx):
        ev += to_movement(ctx)
    return ev


def check_end_deploy(ctx: Ctx, a: EndLeaderDeployment) -> None:
    red_phase(ctx, a.seat, "leaders", "004 [24.0]")


def do_end_deploy(ctx: Ctx, a: EndLeaderDeployment) -> list[Event]:
    return to_movement(ctx)


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


# -- deaths and the Czar (checked after every action and every non-Red step) ----------------------------------
def settle_kills(ctx: Ctx) -> list[Event]:
    """004 [24.14]-[24.17]: a death of Lenin or Trotsky cancels the next Red Leader Determination
    Phase: this Game-Turn's when he falls before it (the non-Red Player-Turn, [24.16] example 1),
    the next Game-Turn's when he falls after it (the Red Combat Phase, example 2).  When both fall
    in the same Game-Turn the phase after the first one's is cancelled too ([24.15], [24.17]).
    Two deaths in different Game-Turns that name the same phase cancel it once: each is [24.14]'s
    "one Phase".  ``solo["rld_skips"]``: the Game-Turns whose phase is cancelled."""
    s = ctx.s
    ev = []
    before = _before_phase(s)
    skips = s.solo["rld_skips"]
    killed = s.solo["killed"]                           # [unit, Game-Turn, the phase's Game-Turn]
    for u in (LENIN, TROTSKY):
        if u in s.solo["dead"] or ctx.b.on_vp_chart(u) is None:
            continue
        s.solo["dead"].append(u)
        phase_turn = s.turn if before else s.turn + 1
        first = next((t for _, turn, t in killed if turn == s.turn), None)
        killed.append([u, s.turn, phase_turn])
        # (not a phase gone by: the first death's, this Game-Turn's, was skipped already)
        turns = [t for t in ([phase_turn] if first is None else [first, first + 1]) if t > s.turn or before]
        skips[:] = sorted(set(skips) | set(turns))
        ev.append(Event("leader_lost", f"{ctx.name(u)} is dead: no Red Leader Determination in Game-Turn "
                        f"{' or '.join(map(str, turns))}, and Red replacements stop (004 [24.14]-[24.17], [9.14])",
                        {"unit": u, "skips": turns}))
    return ev


def _before_phase(s) -> bool:
    """Whether this Game-Turn's Red Leader Determination Phase is still to come (the non-Red
    Player-Turn, or the Red Random Events Phase that leads into it)."""
    return s.order[s.current] != RED_SEAT or s.phase == "random_events"


def upgrade(ctx: Ctx) -> None:
    """A game saved before the skipped phases were kept by Game-Turn holds their count
    (``solo["rld_skip"]``): the next that many phases, from this Game-Turn's if it is still to
    come (``solo["rld_skips"]``, :func:`settle_kills`)."""
    solo, s = ctx.s.solo, ctx.s
    if "rld_skips" not in solo:
        n, first = int(solo.pop("rld_skip", 0) or 0), s.turn + (0 if _before_phase(s) else 1)
        solo["rld_skips"] = list(range(first, first + n))
    solo.setdefault("killed", [])


def capture_note(ctx: Ctx, decision: dict | None) -> str | None:
    """004 [26.0]: what capturing the Czar does in the solitaire, for Red's capture decision (QA:
    the capture card offered him without a word, and the log then said he was executed)."""
    if decision and decision.get("kind") == "capture" and ctx.data.czar in decision.get("units", ()):
        return ("Attached to a Red leader, the Czar is executed at once and removed from play; "
                "he counts for nothing (004 [26.0])")
    return None


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
    return [Event("czar_executed", f"A Red leader is stacked with the Czar in {pname(ctx, prov)}: the Czar is executed "
                  "and removed from play; he counts for nothing (004 [26.0])", {"province": prov})]
