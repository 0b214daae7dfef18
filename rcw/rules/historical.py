"""The critique's historical suggestions (004, Richard F. DeBaun's critique of *Russian Civil War*,
the list "RCW omits important historical factors ... For example:"), each a game option of the
group ``historical`` (docs/variants.md gives the words, our reading and the numbers we chose):

- ``german_withdrawal``: "GERMAN WITHDRAWAL: The end of World War I was not a 'random event.'
  The Germans should automatically be withdrawn on Turn 2."  The German units leave the map as
  Game-Turn 2 begins (in the Interphase that ends Game-Turn 1, after its Replacement Segment,
  before the Player-Turn Sequencing draw), as a drawn German Withdrawal Marker would remove them
  (004 [5.67], [12.13] 3); that marker is not put in the Auxiliary Forces Randomizer.
- ``czech_penza_samara``: "CZECHS: The initial set-up omits the Czech forces at Penza and
  Samara."  Two Czech units (strength 3, as the printed ones; data/counters.toml) are set up in
  Penza and Samara with the other Blue units (004 [15.42]).
- ``leader_epidemics``: "EPIDEMICS: Historically, leaders were not immune from epidemic."  After
  an Epidemic has taken its combat units (004 [12.11]), every leader in the stricken province
  rolls one die and dies on a 6, to the Unassigned section of the Victory Point Chart.
- ``red_terror``: "ASSASSINS: Failed assassination attempts on Lenin or Trotsky should allow them
  to conduct a 'free purge'".  When an attempt on Lenin or Trotsky fails, his owner may purge the
  player who made it at once (:mod:`rcw.rules.politics`, decision ``red_terror``).
- ``evacuation``: "EVACUATION: White armies historically evacuated Russia on two occasions.
  Players should have the option to do the same ... Units so evacuated, of course, should not be
  allowed to return to the game as replacements."  ``Evacuate`` (below).
"""

from __future__ import annotations

from collections.abc import Callable

from rcw.actions import Action, Evacuate, Event
from rcw.data import WHITE
from rcw.rules.base import LENIN, TROTSKY, Ctx
from rcw.state import UNASSIGNED

CRITIQUE = "004 critique (DeBaun)"
GERMANY = "GE"
LEADER_DEATH = 6          # leader_epidemics: a leader in a stricken province dies on this roll of one die


def on(ctx: Ctx, name: str) -> bool:
    return bool(ctx.s.options.get(name))


# -- German withdrawal -------------------------------------------------------------------------------
def withdrawal_markers(ctx: Ctx) -> list[str]:
    """The Blue Withdrawal Markers of the Auxiliary Forces Randomizer (004 [15.23]): without the
    German one when the Germans leave on Game-Turn 2 anyway (``german_withdrawal``)."""
    ms = list(ctx.data.markers.blue_withdrawal)
    if on(ctx, "german_withdrawal") and GERMANY in ms:
        ms.remove(GERMANY)
    return ms


def german_withdrawal(ctx: Ctx, withdraw: Callable[[Ctx, str], list[int]]) -> list[Event]:
    """``german_withdrawal``: as Game-Turn 2 begins the German units leave the game (004 [5.67]),
    by ``withdraw`` (:func:`rcw.rules.randomizer.withdraw`, passed in by the sequence: the
    Randomizer's rules sit above this module's)."""
    if not on(ctx, "german_withdrawal") or ctx.s.turn != 2 or GERMANY in ctx.s.withdrawn:
        return []
    gone = withdraw(ctx, GERMANY)
    return [Event("withdrawal", f"The war in the West is over: {len(gone)} German units leave the game "
                  f"({CRITIQUE}, German withdrawal on Game-Turn 2)", {"seat": None, "chit": f"WD:{GERMANY}",
                                                                          "units": gone})]


# -- epidemics among leaders ------------------------------------------------------------------------
def leader_epidemic(ctx: Ctx, province: str) -> list[Event]:
    """``leader_epidemics``: each leader in a stricken province dies on a die roll of 6."""
    if not on(ctx, "leader_epidemics"):
        return []
    ev: list[Event] = []
    leaders = [u for st in sorted(ctx.b.stacks_in(province), key=lambda st: st.id) for u in ctx.b.leaders_of(st)]
    for u in leaders:
        die = ctx.die()
        if die >= LEADER_DEATH:
            ctx.eliminate(u, UNASSIGNED, ev, f"epidemic in {ctx.data.provinces[province].name}, die {die} ({CRITIQUE})")
            ctx.bump("leader_epidemic_deaths")
    return ev


# -- the Red Terror -------------------------------------------------------------------------------------
def red_terror(ctx: Ctx, victim: int, owner: str | None, assassin: str) -> list[Event]:
    """``red_terror``: after a failed attempt on Lenin or Trotsky, his owner is asked whether he
    purges the would-be assassin (decision ``red_terror``: ``DeclarePurge`` of that player by
    himself alone, or ``PassPurge``)."""
    s = ctx.s
    if (not on(ctx, "red_terror") or victim not in (LENIN, TROTSKY) or owner is None or owner == assassin
            or owner in s.quit or assassin in s.quit or s.decision is not None):
        return []
    s.decision = {"kind": "red_terror", "seat": owner, "target": assassin, "victim": victim}
    return [Event("red_terror", f"The Red Terror: {owner} may purge {assassin}, who sent assassins against "
                  f"{ctx.name(victim)} ({CRITIQUE})", {"seat": owner, "target": assassin, "victim": victim})]


# -- evacuation ----------------------------------------------------------------------------------------
def check_evacuate(ctx: Ctx, a: Evacuate) -> None:
    if not on(ctx, "evacuation"):
        raise ctx.illegal(CRITIQUE, "evacuation is not in play (the option evacuation)", "unsupported")
    ctx.require_phasing(a.seat, "movement")
    if ctx.s.force is not None:
        raise ctx.illegal("004 [5.0]", "end the force being moved first")
    u = ctx.data.units.get(a.unit)
    if u is None or u.color != WHITE or u.kind not in ("leader", "combat"):
        raise ctx.illegal(CRITIQUE, "only White leaders and combat units are evacuated", "unknown_unit")
    st = ctx.b.stack_of(a.unit)
    if st is None or st.owner != a.seat:
        raise ctx.illegal(CRITIQUE, f"{a.seat} does not control {ctx.name(a.unit)} on the map")
    if u.kind == "combat" and st.attached.get(a.unit):
        raise ctx.illegal(CRITIQUE, f"{ctx.name(a.unit)} is attached to a leader: evacuate the leader")
    if not ctx.data.provinces[st.province].port:
        raise ctx.illegal(CRITIQUE, f"{st.province} has no port")


def do_evacuate(ctx: Ctx, a: Evacuate) -> list[Event]:
    st = ctx.b.stack_of(a.unit)
    prov = st.province
    group = [a.unit] + [x for x in ctx.b.attached_to(st, a.unit) if ctx.data.units[x].kind == "combat"]
    for x in group:
        ctx.take(x)
        ctx.s.removed.append(x)              # out of play: no Victory Points, never replaced
    ctx.bump("evacuated", len(group))
    return [Event("evacuation", f"{a.seat} evacuates {ctx.names(group)} from {prov}: out of the game ({CRITIQUE})",
                  {"seat": a.seat, "units": group, "province": prov})]


def evacuation_candidates(ctx: Ctx, seat: str) -> list[Action]:
    if not on(ctx, "evacuation") or ctx.s.force is not None:
        return []
    d = ctx.data
    out: list[Action] = []
    for st in ctx.s.stacks.values():
        if st.owner == seat and d.provinces[st.province].port:
            out += [Evacuate(seat, u) for u in st.units if d.units[u].color == WHITE
                    and (d.units[u].kind == "leader" or (d.units[u].kind == "combat" and not st.attached.get(u)))]
    return out
