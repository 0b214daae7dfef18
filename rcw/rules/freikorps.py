"""001 Freikorps (an optional force; the game option ``freikorps``): "The Freikorps Control
Marker and the Freikorp Out Marker are both added to the Auxiliary Force Randomizer.  The
Freikorps 6 strength Interventionist (Blue) combat unit is placed on the map when its Control
Marker is drawn.  Roll a die for placement; 1 = Finland 2 = Estonia 3 = Livonia 4 = Courland
5 = Kovno 6 = player chooses from 1-5.  All Subversion attacks against the Freikorp are -1 to
die due to their targeting of Bolsheviks in the civilian population."

The Freikorps is a Blue force of its own nationality (FK): its Control Marker is ``"BC:FK"``
and its Out Marker ``"WD:FK"`` in the Randomizer, so once on the map it is controlled, withdrawn
and redrawn for as a Blue force is (004 [5.61], [5.67], [12.13]).

Readings (001 is silent):

* The Control Marker drawn while the Freikorps has not yet come: its drawer holds the marker and
  controls the unit, placed by the die; on a 6 he chooses the province (the ``place`` decision).
  Drawn once it is on the map: 004 [12.13] 2 (control); once it is gone (withdrawn, or
  eliminated): 004 [12.13]'s substitute draw.
* The Out Marker: 001 does not say what it does.  Read as a Blue Withdrawal Marker (004 [5.67],
  [12.13] 3): the Freikorps leaves the game - at once if it is on the map; if it has not yet
  come, it never will (removed from play, like a withdrawn force); if it was eliminated, the
  drawer may draw again, as for any force totally eliminated.
* The placement is never blocked: the unit is a stack of its own in the province drawn, whoever
  stands there (a Blue unit may share a province with anyone, 004 [7.15]).
* "-1 to die": our reconstructed Combat Results Table runs from the attacker's best row (die 1)
  to his worst (die 6) (data/tables.toml; the printed table is not in the sources), and 001's
  reason makes the Freikorps harder to subvert, so the roll is moved one row against the
  attacker: a Subversive Attack on a stack holding the Freikorps resolves on the die plus one
  (six at most).
"""

from __future__ import annotations

from rcw.actions import Event
from rcw.rules.base import Ctx

RULE = "001 Freikorps"
OPTION = "freikorps"
PROVINCES = ("FINL", "ESTO", "LIVO", "COUR", "KOVN")     # die 1-5; 6: the drawer's choice of these


def on(ctx: Ctx) -> bool:
    return bool(ctx.s.options.get(OPTION))


def unit(ctx: Ctx) -> int:
    return next(u.id for u in ctx.data.units.values() if u.option == OPTION)


def is_freikorps(ctx: Ctx, uid: int) -> bool:
    return ctx.data.units[uid].option == OPTION


def markers(ctx: Ctx) -> tuple[str, str]:
    """The Control and Out markers' chits."""
    nat = ctx.data.units[unit(ctx)].nationality
    return f"BC:{nat}", f"WD:{nat}"


def deploy(ctx: Ctx) -> list[Event]:
    """The Control and Out markers into the Auxiliary Forces Randomizer."""
    ctx.s.aux += list(markers(ctx))
    return [Event("freikorps", "The Freikorps Control and Out markers are in the Auxiliary Forces Randomizer "
                  "(001 Freikorps)", {"unit": unit(ctx)})]


def waiting(ctx: Ctx) -> bool:
    """The Freikorps has not yet come: not on the map, the VP chart or out of play."""
    u = unit(ctx)
    s = ctx.s
    d = s.decision
    return (ctx.b.stack_of(u) is None and ctx.b.on_vp_chart(u) is None and u not in s.removed
            and not (d is not None and d.get("kind") == "place" and d.get("unit") == u))


def control_drawn(ctx: Ctx, seat: str) -> tuple[list[Event], bool]:
    """The Control Marker drawn while the Freikorps waits: the drawer holds it; the die places the
    unit (events, whether the drawer must choose the province: a 6)."""
    u = unit(ctx)
    nat = ctx.data.units[u].nationality
    ctx.s.control[nat] = seat
    die = ctx.die()
    ev = [Event("drew", f"{seat} draws the Freikorps Control Marker and rolls {die} for its landing (001 Freikorps)",
                {"seat": seat, "chit": markers(ctx)[0], "die": die})]
    if die == 6:
        return ev, True
    return ev + place(ctx, seat, PROVINCES[die - 1]), False


def place(ctx: Ctx, seat: str, province: str) -> list[Event]:
    """The Freikorps lands in ``province`` under the holder of its Control Marker."""
    u = unit(ctx)
    ctx.new_stack(province, seat, [u])
    ctx.bump("freikorps_placed")
    return [Event("placed", f"The Freikorps lands in {ctx.data.provinces[province].name} under {seat} (001 Freikorps)",
                  {"seat": seat, "unit": u, "province": province})]


def out_drawn(ctx: Ctx, seat: str) -> list[Event] | None:
    """The Out Marker drawn (our reading: a Withdrawal Marker): the Freikorps on the map leaves
    the game, one that has not yet come never will; None once it was eliminated (004 [12.13] 3's
    substitute draw, as for any force totally eliminated)."""
    s = ctx.s
    u = unit(ctx)
    st = ctx.b.stack_of(u)
    if st is None and not waiting(ctx):
        return None
    nat = ctx.data.units[u].nationality
    if st is not None:
        ctx.take(u)
    s.removed.append(u)
    s.withdrawn.append(nat)
    s.withdrawal_markers.setdefault(seat, []).append(nat)
    ctx.bump("freikorps_out")
    what = f"the Freikorps leaves {st.province}" if st is not None else "the Freikorps will not come"
    return [Event("withdrawal", f"{seat} draws the Freikorps Out Marker: {what} (001 Freikorps)",
                  {"seat": seat, "chit": markers(ctx)[1], "units": [u]})]


def subversion_die(ctx: Ctx, defenders: list[int], die: int) -> int:
    """"All Subversion attacks against the Freikorp are -1 to die": one row against the attacker
    on our table (see the module's readings)."""
    if on(ctx) and any(is_freikorps(ctx, u) for u in defenders):
        return min(6, die + 1)
    return die
