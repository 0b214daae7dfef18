"""004 [12.0] Random Events: two dice in order on the Random Events Table; epidemics,
Subversive Attacks Doubled, Draw from the Randomizer."""

from __future__ import annotations

from rcw.actions import Event
from rcw.data import ANARCHIST, BLUE
from rcw.rules import historical, masses, randomizer
from rcw.rules.base import Ctx
from rcw.state import UNASSIGNED


def roll(ctx: Ctx, seat: str) -> list[Event]:
    r, c = ctx.die(), ctx.die()
    cell = ctx.data.tables.random_events[(r, c)]
    return resolve(ctx, seat, cell.roll)


def resolve(ctx: Ctx, seat: str, roll: tuple[int, int], roller: str | None = None,
            told: tuple[Event, ...] = ()) -> list[Event]:
    """The Random Events Table's result for ``roll`` (004 [12.0]); a draw is ``seat``'s.
    ``roller``: who rolled, if not ``seat`` (the postal Gamesmaster); ``told``: what is said
    between the roll and a draw (the postal Gamesmaster's choice of the drawer)."""
    cell = ctx.data.tables.random_events[roll]
    r, c = roll
    by = roller or seat
    if cell.result == "epidemic":
        names = ", ".join(ctx.data.provinces[p].name for p in cell.provinces)
        ev = [Event("random_event", f"{by} rolls {r}-{c}: Epidemic in {names}",
                    {"roll": [r, c], "result": "epidemic", "provinces": list(cell.provinces)})]
        for p in cell.provinces:
            ev += epidemic(ctx, p)
        return ev
    if cell.result == "subversion_doubled" and masses.on(ctx):
        return [Event("random_event", f"{by} rolls {r}-{c}: Subversive Attacks Doubled, a result the Masses "
                      f"ignore ({masses.MASSES} [12.12])", {"roll": [r, c], "result": "ignored"})]
    if cell.result == "subversion_doubled":
        ctx.s.subversion_doubled = True                       # 004 [12.12]
        return [Event("random_event", f"{by} rolls {r}-{c}: Subversive Attacks Doubled this Player-Turn",
                      {"roll": [r, c], "result": "subversion_doubled"})]
    ev = [Event("random_event", f"{by} rolls {r}-{c}: Draw from the Randomizer", {"roll": [r, c], "result": "draw"})]
    return ev + list(told) + randomizer.draw(ctx, seat, ask=True)     # 004 [12.13]: a redraw is the drawer's choice


def epidemic(ctx: Ctx, province: str) -> list[Event]:
    """004 [12.11]: the strongest combat unit of each Red, Green and White stack (topmost on
    ties) goes to the unassigned section; Blue units, leaders and Imperial units are immune, and
    so are Anarchist units (001 Anarchists, "Tenacity")."""
    ev: list[Event] = []
    victims = []
    for st in ctx.b.stacks_in(province):
        if ctx.b.stack_color(st) in (BLUE, ANARCHIST):
            continue
        combat = [u for u in st.units if ctx.data.units[u].is_combat and ctx.data.units[u].color != BLUE]
        if combat:
            best = max(ctx.data.units[u].strength for u in combat)
            victims.append(next(u for u in combat if ctx.data.units[u].strength == best))
    for u in victims:
        ctx.eliminate(u, UNASSIGNED, ev, f"epidemic in {ctx.data.provinces[province].name}")
        ctx.bump("epidemic_losses")
    return ev + historical.leader_epidemic(ctx, province)         # (option leader_epidemics)
