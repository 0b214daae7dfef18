"""001 No Leader Suicide (the option ``no_leader_suicide``): "In order to prevent players sending
Leaders to an easy death ... the following prohibitions with regard to Leader activity must be
observed".  The rule's three prohibitions, as the engine reads them (docs/variants.md):

1. *Leaders without combat units may never initiate regular Combat against combat units and
   may only initiate combat versus another leader if the odds are 1:1 or greater.*  A stack
   attacks "without combat units" when the units it attacks with (004 [8.26]-[8.28]) are
   leaders only.  Such a stack may not attack a stack holding a combat unit, and an attack it
   joins on a stack of leaders alone is resolved only at 1:1 or better (the attack's odds, all
   attacking stacks together).  A Subversive Attack (004 [8.3]) is not "regular Combat": its
   attackers risk nothing (004 [8.33]).
2. *A Leader who is not stacked with at least one combat-capable, non-Leader unit may never be
   moved to a province containing hostile forces (forces of a different color) of any sort,
   unless* A-D.  A force "of leaders alone" (leaders, and perhaps Imperial units, but no combat
   unit) may not enter a province holding units of another colour than its own (units that
   were part of the force do not count, as for the stop rule 004 [5.27]) unless: (A) a stack
   of its colour its player controls is there with room for it (004 [7.11]-[7.13]); (B) every
   unit of another colour there is its player's; (C) every unit of another colour there is a
   leader; (D) loose combat units of its colour are there that it may attach (uncontrolled or
   its player's, not attached to a leader, not moved this phase, room under its leaders'
   capacity and the stacking limit): "can and will attempt to usurp control", so it may end
   its move there only after attaching one (Attach).
3. *Whenever possible, a Leader alone must be moved to and stacked with the nearest available
   friendly unit(s), even if only other Leaders.*  The "available friendly units" of a force of
   leaders alone are the stacks of its colour its player controls with room for it and the
   loose units of its colour it may attach (as in D), other than its own; the distance is the
   map's: the fewest provinces between, along the borders its colour may cross (004 [5.32],
   [5.33]), whatever stands in between.  While such units exist, every step of such a force's
   move (overland or by rail) must bring it one province nearer to the nearest of them; when
   it can still reach one this Movement Phase (its Movement Points or rail, the stop rule,
   prohibition 2), it may not end its move short of it; and a force that ends its move with
   them is stacked with them: it joins their stack (as a Merge, 004 [5.41]) or must first
   attach one of the loose units.  "Whenever possible ... must be moved": the Movement Phase
   does not end while a stack of the Phasing Player's leaders alone that has not moved can be
   stacked with such units (:func:`duties`; ``Game.leaders_to_stack``), and a force of leaders
   alone that has not moved ends its move as one that has.

Every refusal is an :class:`~rcw.actions.IllegalAction` citing ``001 No Leader Suicide 1``,
``2`` or ``3``.  The engine's ``reach`` and ``attack_options`` follow the rule, so clients that
ask them never choose a refused step.
"""

from __future__ import annotations

from rcw.data import WHITE
from rcw.rules.base import Ctx
from rcw.state import Stack

RULE1, RULE2, RULE3 = "001 No Leader Suicide 1", "001 No Leader Suicide 2", "001 No Leader Suicide 3"
STACK_LIMIT = 5            # 004 [7.11]
FAR = 1 << 20              # the distance of a province no friendly unit can be reached from


def on(ctx: Ctx) -> bool:
    return bool(ctx.s.options.get("no_leader_suicide"))


def alone(ctx: Ctx, units) -> bool:
    """Leaders with no combat unit among ``units`` ("not stacked with at least one combat-capable,
    non-Leader unit"; Imperial units are not combat-capable)."""
    us = ctx.data.units
    kinds = {us[u].kind for u in units}
    return "leader" in kinds and "combat" not in kinds


# -- 1: attacks -------------------------------------------------------------------------------------
def attack_problem(ctx: Ctx, units: list[int], target: Stack, subversive: bool) -> tuple[str, str] | None:
    """Prohibition 1 for one attacking stack whose attacking units are ``units``."""
    if subversive or not on(ctx) or not alone(ctx, units):
        return None
    if any(ctx.data.units[u].kind == "combat" for u in target.units):
        return RULE1, "leaders without combat units may never attack combat units"
    return None


def odds_problem(ctx: Ctx, stacks_units: list[list[int]], column: int | None, subversive: bool) -> tuple[str, str] | None:
    """Prohibition 1 for a whole attack (``stacks_units``: each attacking stack's attacking units):
    leaders without combat units attack other leaders only at 1:1 or better (CRT column 1)."""
    if subversive or not on(ctx) or (column is not None and column >= 1):
        return None
    if any(alone(ctx, us) for us in stacks_units):
        return RULE1, "leaders without combat units attack other leaders only at 1:1 or better"
    return None


# -- 2 and 3: what a force of leaders alone meets ----------------------------------------------------
class Lone:
    """What prohibitions 2 and 3 need to know about one force of leaders alone (``units``, of
    ``color``, controlled by ``seat``; ``touched``: the units that have been part of it this
    move, which never count against it): read off the position once."""

    def __init__(self, ctx: Ctx, seat: str | None, color: str, units: list[int], touched=()) -> None:
        self.ctx, self.seat, self.color, self.units = ctx, seat, color, list(units)
        d = ctx.data
        self.n = sum(1 for u in units if d.units[u].kind != "imperial")        # its stacking count
        mine = set(units)
        touched = set(touched) | mine
        cap = self._room_to_attach()
        self.friends = 0          # provinces of an available friendly stack (A; 3)
        self.loose = 0            # provinces of loose units it may attach (D; 3)
        self.forbidden = 0        # provinces prohibition 2 closes to it
        self.only_d = 0           # provinces it may enter only by D
        by_prov: dict[str, list[Stack]] = {}
        for st in ctx.s.stacks.values():
            by_prov.setdefault(st.province, []).append(st)
        colors = ctx.b.stack_colors()              # (a stack has one colour, 004 [7.13])
        for p, sts in by_prov.items():
            b = d.bit[p]
            friend = any(colors[st.id] == color and self._friend(st, mine) for st in sts)
            loose = cap and any(self._attachable(st, u) for st in sts if st.owner in (None, seat)
                                for u in st.units if u not in touched)
            self.friends |= b if friend else 0
            self.loose |= b if loose else 0
            other = [(st, u) for st in sts if colors[st.id] not in (color, "") for u in st.units
                     if u not in touched and d.units[u].kind != "imperial"]
            if not other or friend:
                continue
            if all(st.owner == seat for st, _u in other) or all(d.units[u].kind == "leader" for _st, u in other):
                continue                                  # B, C
            if loose:
                self.only_d |= b                          # D
            else:
                self.forbidden |= b
        self.targets = self.friends | self.loose          # prohibition 3's "available friendly units"
        self._dist: list[int] | None = None

    def _friend(self, st: Stack, mine=frozenset()) -> bool:
        """A stack of its colour its player controls with room for it (leaving out its own units)."""
        if st.owner != self.seat or st.owner is None:
            return False
        us = self.ctx.data.units
        rest = [u for u in st.units if u not in mine and us[u].kind != "imperial"]
        return bool(rest) and self.ctx.b.color_of(rest[0], st) == self.color and len(rest) + self.n <= STACK_LIMIT

    def _room_to_attach(self) -> bool:
        b, us = self.ctx.b, self.ctx.data.units
        if self.n >= STACK_LIMIT:
            return False
        return any(b.capacity_holding(u, self.units)[0] > 0 for u in self.units if us[u].kind == "leader")

    def _attachable(self, st: Stack, u: int) -> bool:
        uu = self.ctx.data.units[u]
        return (uu.kind == "combat" and uu.color == self.color and st.owner in (None, self.seat)
                and not st.attached.get(u) and u not in self.ctx.s.moved)

    # -- prohibition 2 ----------------------------------------------------------------------------
    def entry_problem(self, province: str) -> tuple[str, str] | None:
        if self.ctx.data.bit[province] & self.forbidden:
            return RULE2, (f"a Leader without combat units may not be moved into {province}, held by units of "
                           "another colour (no friendly stack with room, units not all his player's or all leaders, "
                           "no loose units of his colour to take there)")
        return None

    # -- prohibition 3: distances to the nearest available friendly units ---------------------------------
    def links(self, rail: bool) -> tuple[int, ...]:
        d = self.ctx.data
        if self.color == WHITE:
            return d.rail_bits if rail else d.adjacent_bits
        return d.rail_bits_not_white if rail else d.adjacent_bits_not_white

    def dist(self) -> list[int]:
        """Each province's distance (by index in ``GameData.codes``) to the nearest target."""
        if self._dist is None:
            d = self.ctx.data
            links = self.links(False)
            out = [FAR] * len(d.codes)
            layer, seen, k = self.targets, self.targets, 0
            while layer:
                nxt = 0
                rest = layer
                while rest:
                    low = rest & -rest
                    i = low.bit_length() - 1
                    out[i] = k
                    nxt |= links[i]
                    rest ^= low
                layer = nxt & ~seen
                seen |= layer
                k += 1
            self._dist = out
        return self._dist

    def distance(self, province: str) -> int:
        return self.dist()[self.ctx.data.codes.index(province)] if self.targets else FAR

    def toward(self, rail: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The links of ``rail`` or overland movement that bring a force one province nearer, and
        the same links turned round (from each province, those one province farther: what a
        route is traced back along, :class:`rcw.rules.movement.Routes`)."""
        dist = self.dist()
        n = len(self.ctx.data.codes)
        at: dict[int, int] = {}
        for i, k in enumerate(dist):
            at[k] = at.get(k, 0) | (1 << i)
        links = self.links(rail)
        near = tuple(links[i] & at.get(dist[i] - 1, 0) if 0 < dist[i] < FAR else 0 for i in range(n))
        far = tuple(links[i] & at.get(dist[i] + 1, 0) if dist[i] < FAR else 0 for i in range(n))
        return near, far

    def onward(self, toward: tuple[int, ...], closed: int, stops: int) -> int:
        """The provinces from which a force may still come to a target by steps along ``toward``
        (each one province nearer), through provinces it may pass (not ``stops``, where it would
        have to stop) and enter (not ``closed``, not prohibited)."""
        dist = self.dist()
        blocked = closed | self.forbidden
        out = self.targets & ~blocked
        order = sorted((k, i) for i, k in enumerate(dist) if 0 < k < FAR)
        for _k, i in order:
            b = 1 << i
            if not b & (stops | blocked) and toward[i] & out:
                out |= b
        return out

    def stack_problem(self, province: str, moved: bool) -> tuple[str, str] | None:
        """Whether a force that ends its move in ``province`` must first attach a loose unit there:
        entered by D, or come to loose units as its nearest friendly units, and no friendly stack
        to join."""
        b = self.ctx.data.bit[province]
        if not moved or not b & self.loose or b & self.friends:
            return None
        rule = RULE2 if b & self.only_d else RULE3
        return rule, (f"a Leader alone who comes to loose units of his colour in {province} takes (Attach) one of "
                      "them before he ends his move")


def lone(ctx: Ctx, fs: Stack, touched=()) -> Lone | None:
    """The :class:`Lone` view of the force ``fs`` when the option is on and it is of leaders alone."""
    if not on(ctx) or not alone(ctx, fs.units):
        return None
    return of(ctx, fs.owner, ctx.b.stack_color(fs), fs.units, touched)


def of(ctx: Ctx, seat: str | None, color: str, units, touched=()) -> Lone:
    """:class:`Lone`, kept until the position changes (``Board.searches``)."""
    memo = ctx.b.searches()
    key = ("lone", seat, color, tuple(units), frozenset(touched))
    lo = memo.get(key)
    if lo is None:
        lo = memo[key] = Lone(ctx, seat, color, units, touched)
    return lo


def step_problem(ctx: Ctx, fs: Stack, touched, to: str) -> tuple[str, str] | None:
    """Prohibitions 2 and 3 for one step of the force ``fs`` into ``to``."""
    lo = lone(ctx, fs, touched)
    if lo is None:
        return None
    p = lo.entry_problem(to)
    if p or not lo.targets:
        return p
    here, there = lo.distance(fs.province), lo.distance(to)
    if there != here - 1:
        return RULE3, (f"a Leader alone moves toward the nearest friendly units ({_nearest(lo, fs.province)}, {here} "
                       f"province{'s' if here != 1 else ''} from {fs.province}): {to} is not nearer")
    return None


def end_problem(ctx: Ctx, fs: Stack, touched, moved: bool, still) -> tuple[str, str] | None:
    """Prohibitions 2 and 3 when the force ``fs`` would end its move where it stands: it takes a
    loose unit first (D, 3), and it goes on to the nearest friendly units while it can still
    reach them (``still()``: the provinces it may still end its move in, the engine's reach).
    A force that has not moved is held to 3 as well ("Whenever possible ... must be moved"):
    standing with loose units of its colour it takes one, and it may not stay short of friendly
    units it can reach."""
    lo = lone(ctx, fs, touched)
    if lo is None:
        return None
    p = lo.stack_problem(fs.province, True)       # (loose units to take there, and no friendly stack)
    if p:
        return p if moved else (RULE3, f"{_who(ctx, fs)}, without combat units, first picks up (Attach) one of "
                                       f"the loose units of his colour in {fs.province}")
    if lo.targets and still() & lo.targets:
        return RULE3, (f"{_who(ctx, fs)}, without combat units, goes on to the nearest friendly units he can still "
                       f"reach this Movement Phase ({_nearest(lo, fs.province)})")
    return None


def _who(ctx: Ctx, fs: Stack) -> str:
    return ctx.names([u for u in fs.units if ctx.data.units[u].kind == "leader"] or fs.units[:1])


def duties(ctx: Ctx, seat: str, reach, first: bool = False) -> list[dict]:
    """Prohibition 3 as a duty of ``seat``'s Movement Phase: "Whenever possible, a Leader *alone*
    must be moved to and stacked with the nearest available friendly unit(s)".  A Leader alone
    is one leader with no other unit but Imperial ones (leaders stacked together are stacked with
    friendly units, "even if only other Leaders").  Each such stack of ``seat``'s whose leader has
    not moved this phase and that can be stacked with available friendly units now: ``do``
    "merge" (a friendly stack with room stands in its province: ``into``), "attach" (loose units
    of its colour it may take stand there: ``units``) or "move" (``to``: the provinces of the
    nearest such units its leader can reach this phase, by ``reach(leader)``, the engine's reach;
    ``take``: province -> the loose units there, where no friendly stack stands, one of which it
    takes).  The force being moved (``force`` true), if it is of leaders alone and may not end its
    move where it stands, too ("attach" or "move", by ``reach(None)``).  In stack order; ``first``: the first
    one only (whether the phase may end); none outside ``seat``'s Movement Phase."""
    if not on(ctx) or ctx.s.phase != "movement" or ctx.b.phasing() != seat:
        return []
    s = ctx.s
    moving = s.force.stack if s.force is not None else None
    memo = ctx.b.searches()                    # (asked at every check of EndMovement: once a position)
    key = ("duties", seat)
    got = memo.get(key)
    if got is None:
        got = memo[key] = [[], _duties(ctx, seat, moving, reach)]
    done, todo = got
    for duty in todo:
        done.append(duty)
        if first:
            break
    return done[:1] if first else done


def _duties(ctx: Ctx, seat: str, moving: int | None, reach):
    s, d = ctx.s, ctx.data
    moved = set(s.moved)
    for st in sorted((st for st in s.stacks.values() if st.owner == seat), key=lambda st: st.id):
        if not alone(ctx, st.units):
            continue
        leaders = [u for u in st.units if d.units[u].kind == "leader"]
        touched = s.force.touched if st.id == moving else ()
        if st.id != moving and (len(leaders) != 1 or leaders[0] in moved):
            continue
        lo = lone(ctx, st, touched)
        if lo is None or not lo.targets:
            continue
        here = d.bit[st.province]
        duty = {"leader": leaders[0], "stack": st.id, "province": st.province, "force": st.id == moving}
        if here & lo.friends:
            if st.id == moving:
                continue                           # (ending its move there stacks it with them)
            yield {**duty, "do": "merge", "into": _friends_here(ctx, lo, st.province, (st.id,))[0].id}
        elif here & lo.loose:
            yield {**duty, "do": "attach", "units": _loose_in(ctx, lo, st.province, st.id, seat)}
        else:
            r = reach(None if st.id == moving else leaders[0])
            hit = r.bits & lo.targets
            if hit:
                near = min(len(r[p]["path"]) for p in r if d.bit[p] & hit)
                to = sorted(p for p in r if d.bit[p] & hit and len(r[p]["path"]) == near)
                take = {p: _loose_in(ctx, lo, p, st.id, seat) for p in to if not d.bit[p] & lo.friends}
                yield {**duty, "do": "move", "to": to, "take": take}


def _loose_in(ctx: Ctx, lo: Lone, province: str, own: int, seat: str) -> list[int]:
    """The loose units of its colour the force of leaders alone ``lo`` may take in ``province``."""
    return sorted(u for x in ctx.b.stacks_in(province) if x.id != own and x.owner in (None, seat)
                  for u in x.units if lo._attachable(x, u))


def detach_problem(ctx: Ctx, fs: Stack, group: list[int]) -> tuple[str, str] | None:
    """Prohibition 3 when the force ``fs`` drops ``group`` (a leader and his attached units): a
    Leader alone, stacked with friendly units while he moves with the force, is dropped only
    where a friendly stack with room (not the force) stands for him to join (:func:`stack_up`)."""
    if not on(ctx) or not alone(ctx, group):
        return None
    lo = of(ctx, fs.owner, ctx.data.units[group[0]].color, group, ctx.s.force.touched if ctx.s.force else ())
    if _friends_here(ctx, lo, fs.province, (fs.id,)):
        return None
    if ctx.data.bit[fs.province] & lo.loose:
        return RULE3, (f"{ctx.name(group[0])}, a Leader alone, is not left in {fs.province}: he takes (Attach) one "
                       "of the loose units of his colour there first")
    return RULE3, (f"{ctx.name(group[0])}, a Leader alone, stays with the force: no other friendly stack stands in "
                   f"{fs.province} for him to join")


def duty_problem(duty: dict, name) -> tuple[str, str]:
    """The refusal of ending the Movement Phase while ``duty`` (:func:`duties`) is not done."""
    who = name(duty["leader"])
    if duty["do"] == "merge":
        return RULE3, f"first stack {who}, a Leader alone, with the friendly stack beside him in {duty['province']} (Merge)"
    if duty["do"] == "attach":
        return RULE3, (f"first have {who}, a Leader alone, pick up (Attach) one of the loose units of his colour in "
                       f"{duty['province']}")
    return RULE3, (f"first move {who}, a Leader alone, to the nearest friendly units he can reach "
                   f"({', '.join(duty['to'])})")


def _nearest(lo: Lone, province: str) -> str:
    """The targets nearest to ``province`` (by the map's distance, as :meth:`Lone.dist` counts it),
    for a refusal's words."""
    d = lo.ctx.data
    links = lo.links(False)
    seen = layer = d.bit[province]
    while layer and not layer & lo.targets:
        reached, rest = 0, layer
        while rest:
            low = rest & -rest
            reached |= links[low.bit_length() - 1]
            rest ^= low
        layer = reached & ~seen
        seen |= reached
    hit = layer & lo.targets
    return ", ".join(c for i, c in enumerate(d.codes) if hit >> i & 1)


def _friends_here(ctx: Ctx, lo: Lone, province: str, besides=()) -> list[Stack]:
    """The friendly stacks with room for ``lo`` in ``province`` (not those of ``besides``), by id."""
    return sorted((st for st in ctx.b.stacks_in(province) if st.id not in besides and lo._friend(st, lo.units)),
                  key=lambda st: st.id)


def stack_up(ctx: Ctx, fs: Stack, besides=()) -> list:
    """Prohibition 3's "stacked with": a force of leaders alone that ends its move where a friendly
    stack with room stands joins it (as a Merge, 004 [5.41]), moved or not; so does a Leader alone
    a force drops there (``besides``: the force's stack)."""
    from rcw.actions import Event

    lo = lone(ctx, fs)
    if lo is None or not ctx.data.bit[fs.province] & lo.friends:
        return []
    here = _friends_here(ctx, lo, fs.province, (fs.id, *besides))
    if not here:
        return []
    into = here[0]
    into.units += fs.units
    into.attached.update(fs.attached)
    del ctx.s.stacks[fs.id]
    ctx.b.invalidate()
    ctx.tidy(into)
    ctx.bump("leaders_stacked_up")
    return [Event("merge", f"{ctx.names(fs.units)} stack with {ctx.names(into.units[:1])} in {into.province} ({RULE3})",
                  {"stack": into.id, "rule": RULE3})]
