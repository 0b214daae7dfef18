"""001 Anarchists (an optional force; the game option ``anarchists``): Makhno and the other
Anarchist units, the black counters.

What 001 says, paragraph by paragraph, and where the engine does it:

* *Makhno*: strength 6, begins in Yekaterinoslav controlled by no player (:func:`deploy`).
* *Other Anarchist Units*: two of strength 3 begin in the Auxiliary Forces Randomizer; drawn,
  each is placed by the drawer, under his control (:mod:`rcw.rules.auxiliary`, the ``place``
  decision; :func:`placements`).
* *Anarchist Control Marker*: in the Randomizer; its drawer takes control of every Anarchist
  unit on the map, Makhno eliminated comes back to Yekaterinoslav under him if the current
  Game-Turn is not 6 or later, and the marker goes back into the Randomizer at once
  (:func:`take_control`).
* *Moving Anarchist Units*: Movement Allowance 4 (:data:`MOVEMENT_ALLOWANCE`), never by rail;
  Makhno only in his area (:func:`area`), the others only within Russia (:func:`entry_problem`).
  1. An Anarchist unit disrupts rail movement from, to and through its province
     (:func:`rail_problem`, :func:`rail_blocked`).
  2. ... and prevents emigration (004 [13.3]) and the Czech exodus (004 [5.66], [14.45]) from
     its port (:func:`port_problem`).
  3. Never stacked with other units (movement's Merge, Attach, TransferImperial, combat's
     captures: :func:`alone_problem`); hostile to all units for combat, other Anarchists
     included (:func:`rcw.state.opposed`; an Anarchist stack attacks alone, combat's
     ``may_combine``).
  4. Placement and replacement are never blocked (:func:`place` puts the unit in a stack of its
     own whatever stands there).
* *Roving Attack* (:mod:`rcw.rules.roving`), *Elimination* (a), (b) and the Game-Turn 6 change
  (:func:`eliminated`, :func:`replacement_segment`), *Tenacity* (epidemics skip Anarchist stacks,
  rcw.rules.random_events; Subversive Attacks are made on Blue units only, 004 [8.31]),
  *Anarchy versus Order* (:func:`anarchy`, rcw.rules.victory).

Readings (001 is silent; docs/engine.md lists them too):

* "Within Russia", "Russian province": every province but those of Finland and Poland
  (``GameData.russian``: map.toml's ``foreign_regions``), Siberia included.  A small Anarchist
  unit drawn is placed in any Russian province (the provinces it may move in).
* Stopping (004 [5.27]): each Anarchist unit is a colour of its own.  An Anarchist force stops
  on entering a province holding any other unit, another Anarchist included; every other force
  stops on entering a province holding an Anarchist unit.
* Makhno in Poland: "Poland player-controlled" is the Polish Control Marker held by a player
  still in the game; "Polish units have ever entered a Ukrainian province" is remembered from
  the first Move of a force with a Polish unit into the Ukraine region.
* Makhno coming back at the Replacement Segment is controlled by no one (the Control Marker
  is back in the Randomizer): the next drawer of the marker takes him.
* The Roving Attack: a "force" is a stack; "player-controlled" a stack under the marker of a
  player still in the game, holding a leader or combat unit; "closest" the fewest provinces
  Makhno must move (none: his own province), by his own movement rules (overland, his area,
  stopping where he enters a province holding a unit), at most 4; "weakest" the least defence
  strength; odds of 1:1 or better (004 [8.0]'s rounding).  He moves there and attacks alone;
  the die is rolled on the CRT as in 004 [8.4].  The defenders he eliminates go to the
  unassigned section (no player attacked them: 004 [8.46]'s mirror); at 1:1 or better an
  Exchange eliminates every defender, and Makhno, a single unit, with them.
* Victory Points (004 [14.4]): an Anarchist unit eliminated from Game-Turn 6 on goes to the
  section 004 [8.45] names (the attacker's, or the defender's when it attacked) and is worth its
  strength in Red and in White Victory Points there, "regardless of which faction wins"; on the
  map and in the unassigned section it is worth nothing.  The "current Game-Turn" of the
  Roving Attack, which follows the Replacement Segment, is the Game-Turn that Interphase ends
  (004 [4.1]).
* Anarchy versus Order: while an Anarchist unit stands in a Russian province outside the
  Siberia region, none of 004 [14.1]'s three ways ends the game (the end-game vote is not
  called either).
"""

from __future__ import annotations

from rcw.actions import Event
from rcw.data import ANARCHIST, SIBERIA
from rcw.rules.base import Ctx
from rcw.state import UNASSIGNED, Stack

RULE = "001 Anarchists"
OPTION = "anarchists"
MOVEMENT_ALLOWANCE = 4                 # "The Movement Allowance of all Anarchist units is 4."
CHIT = "AN"                            # the Anarchist Control Marker in State.aux
UKRAINE = "Ukraine"
AREA_EXTRA = ("GROD", "MINS", "MOHI", "OREL", "KURS", "DCOS")   # Makhno's area beyond the Ukraine
POLAND = "Poland"
LAST_RETURN_TURN = 5                   # "If, however, the current Game Turn is 6 or later ..."


def on(ctx: Ctx) -> bool:
    return bool(ctx.s.options.get(OPTION))


def units(ctx: Ctx) -> list[int]:
    """Every Anarchist counter of the game, in id order."""
    got = ctx.memo.get("anarchists")
    if got is None:
        got = ctx.memo["anarchists"] = sorted(u.id for u in ctx.data.units.values() if u.color == ANARCHIST)
    return got


def makhno(ctx: Ctx) -> int:
    """Makhno: the Anarchist counter that begins on the map (counters.toml gives him his province)."""
    return next(u for u in units(ctx) if ctx.data.units[u].province)


def is_anarchist(ctx: Ctx, uid: int) -> bool:
    return ctx.data.units[uid].color == ANARCHIST


def on_map(ctx: Ctx) -> list[Stack]:
    """The stacks holding an Anarchist unit (each holds that one unit only)."""
    colors = ctx.b.stack_colors()
    return [st for i, st in ctx.s.stacks.items() if colors[i] == ANARCHIST]


def where_bits(ctx: Ctx) -> int:
    """The provinces holding an Anarchist unit, as a set of bits (``GameData.bit``); none, and
    no look at the map, in a game without Anarchist counters (001 Anarchists not chosen), where
    every rail move's check asks it."""
    if not units(ctx):
        return 0
    return ctx.b.color_bits().get(ANARCHIST, 0)


# -- where they may go ----------------------------------------------------------------------------
def poland_open(ctx: Ctx) -> bool:
    """"If Poland is both player-controlled, and Polish units have ever entered a Ukrainian
    province, then Makhno may move, conduct Combat, into Poland as well." """
    holder = ctx.s.control.get("PO")
    return bool(holder and holder not in ctx.s.quit and ctx.s.optional.get("poles_in_ukraine"))


def area(ctx: Ctx) -> frozenset[str]:
    """Makhno's area: the Ukraine region, Grodno, Minsk, Mohilev, Orel, Kursk and the Don
    Cossacks, and Poland on 001's condition (:func:`poland_open`)."""
    d = ctx.data
    regions = (UKRAINE, POLAND) if poland_open(ctx) else (UKRAINE,)
    return frozenset(c for c, p in d.provinces.items() if p.region in regions) | frozenset(AREA_EXTRA)


def entry_problem(ctx: Ctx, uid: int, to: str) -> tuple[str, str] | None:
    """Where an Anarchist unit may never go: Makhno outside his area, the others outside Russia."""
    if uid == makhno(ctx):
        if to not in area(ctx):
            return RULE, ("Makhno moves only in the Ukraine, Grodno, Minsk, Mohilev, Orel, Kursk and the Don "
                          "Cossacks (and Poland once it is player-controlled and Polish units have entered the Ukraine)")
        return None
    if to not in ctx.data.russian:
        return RULE, "Anarchist units move only within Russia"
    return None


def barred_key(ctx: Ctx, uid: int) -> tuple:
    """What :func:`entry_problem` of ``uid`` depends on (movement's memo of barred provinces)."""
    return (uid == makhno(ctx), poland_open(ctx))


def note_move(ctx: Ctx, moved: list[int], to: str) -> None:
    """Remember that Polish units have entered a Ukrainian province (Makhno's Poland condition)."""
    d = ctx.data
    if (on(ctx) and not ctx.s.optional.get("poles_in_ukraine") and d.provinces[to].region == UKRAINE
            and any(d.units[u].nationality == "PO" and d.units[u].is_combat for u in moved)):
        ctx.s.optional["poles_in_ukraine"] = True


def rail_problem(ctx: Ctx, *provinces: str) -> tuple[str, str] | None:
    """Rule 1: rail movement from, to or through a province holding an Anarchist unit is disrupted."""
    bits = where_bits(ctx)
    if bits:
        for p in provinces:
            if bits & ctx.data.bit[p]:
                return RULE, f"an Anarchist unit in {p} disrupts rail movement there"
    return None


def port_problem(ctx: Ctx, province: str) -> tuple[str, str] | None:
    """Rule 2: no emigration of Imperial units nor Czech exodus from a port holding an Anarchist unit."""
    if where_bits(ctx) & ctx.data.bit[province]:
        return RULE, f"an Anarchist unit in {province} holds the port"
    return None


def alone_problem(ctx: Ctx, *stacks: Stack) -> tuple[str, str] | None:
    """Rule 3: an Anarchist unit is never stacked with another unit."""
    if any(ctx.b.stack_color(st) == ANARCHIST for st in stacks):
        return RULE, "Anarchist units are never stacked with other units"
    return None


# -- set-up, control and placement --------------------------------------------------------------
def deploy(ctx: Ctx) -> list[Event]:
    """Makhno in Yekaterinoslav, uncontrolled; the other Anarchist units and the Control Marker
    in the Auxiliary Forces Randomizer."""
    m = makhno(ctx)
    ctx.new_stack(ctx.data.units[m].province, None, [m])
    ctx.s.aux += [f"U:{u}" for u in units(ctx) if u != m] + [CHIT]
    return [Event("anarchists", f"Makhno stands in {ctx.data.provinces[ctx.data.units[m].province].name}, "
                  "controlled by no one; two Anarchist units and the Anarchist Control Marker are in the "
                  "Auxiliary Forces Randomizer (001 Anarchists)", {"unit": m, "province": ctx.data.units[m].province})]


def place(ctx: Ctx, uid: int, province: str, owner: str | None) -> Stack:
    """Rule 4: an Anarchist unit is placed in a stack of its own, whatever stands there."""
    ctx.from_chart(uid)
    return ctx.new_stack(province, owner, [uid])


def placements(ctx: Ctx) -> list[str]:
    """Where a drawn Anarchist unit may be placed: "anywhere" - any Russian province (our
    reading: where it may move)."""
    return sorted(ctx.data.russian)


def take_control(ctx: Ctx, seat: str) -> list[Event]:
    """The Anarchist Control Marker drawn: its drawer controls every Anarchist unit on the map,
    an eliminated Makhno (in the unassigned section) comes back to Yekaterinoslav, and the marker
    goes back into the Randomizer.  Makhno comes back on the marker only while "the current Game
    Turn is not 6 or later": one eliminated in the Interphase that ends Game-Turn 5 (the Roving
    Attack) waits in the unassigned section for the Replacement Segment, Elimination (a)."""
    s = ctx.s
    m = makhno(ctx)
    ev: list[Event] = []
    if ctx.b.on_vp_chart(m) == UNASSIGNED and s.turn <= LAST_RETURN_TURN:
        home = ctx.data.units[m].province
        place(ctx, m, home, seat)
        ctx.bump("makhno_returns")
        ev.append(Event("makhno_returns", f"Makhno comes back to {ctx.data.provinces[home].name} under {seat} (001 Anarchists)",
                        {"unit": m, "province": home, "seat": seat}))
    taken = []
    for st in on_map(ctx):
        st.owner = seat
        taken += st.units
    s.aux.append(CHIT)
    ctx.bump("anarchist_control")
    names = ", ".join(ctx.data.units[u].name for u in taken) or "no Anarchist unit on the map"
    ev.insert(0, Event("drew", f"{seat} draws the Anarchist Control Marker and takes command of {names}; the marker "
                       "goes back into the Randomizer (001 Anarchists)", {"seat": seat, "chit": CHIT, "units": list(taken)}))
    return ev


# -- elimination ----------------------------------------------------------------------------------
def eliminated(ctx: Ctx, uid: int, turn: int, why: str, events: list[Event]) -> bool:
    """Elimination (a), (b): before Game-Turn 6 Makhno goes to the unassigned section (back in
    Yekaterinoslav at the next Replacement Segment or draw of the Control Marker) and the small
    units back into the Randomizer; True when done here.  From Game-Turn 6 the usual rules
    place the unit on the VP chart (False), where it counts for Victory Points (rcw.rules.victory)."""
    if turn > LAST_RETURN_TURN:
        return False
    if uid == makhno(ctx):
        ctx.take(uid)
        ctx.to_chart(uid, UNASSIGNED)
        events.append(Event("eliminated", f"Makhno eliminated ({why}); to the unassigned section, to come back to "
                            "Yekaterinoslav (001 Anarchists)", {"unit": uid, "section": UNASSIGNED, "why": why}))
        return True
    ctx.take(uid)
    ctx.s.aux.append(f"U:{uid}")
    events.append(Event("eliminated", f"{ctx.name(uid)} eliminated ({why}); back into the Auxiliary Forces Randomizer "
                        "(001 Anarchists)", {"unit": uid, "section": "randomizer", "why": why}))
    return True


def replacement_segment(ctx: Ctx) -> list[Event]:
    """Elimination (a): Makhno, in the unassigned section, is placed in Yekaterinoslav during the
    Replacement Segment (controlled by no one)."""
    m = makhno(ctx)
    if ctx.b.on_vp_chart(m) != UNASSIGNED:
        return []
    home = ctx.data.units[m].province
    place(ctx, m, home, None)
    ctx.bump("makhno_returns")
    return [Event("makhno_returns", f"Makhno comes back to {ctx.data.provinces[home].name}, controlled by no one "
                  "(001 Anarchists)", {"unit": m, "province": home, "seat": None})]


# -- Anarchy versus Order -------------------------------------------------------------------------
def anarchy(ctx: Ctx) -> list[str]:
    """The Russian provinces outside Siberia that hold an Anarchist unit: while there is one,
    "No victory is possible"."""
    if not on(ctx):
        return []
    d = ctx.data
    return sorted({st.province for st in on_map(ctx)
                   if st.province in d.russian and d.provinces[st.province].region != SIBERIA})
