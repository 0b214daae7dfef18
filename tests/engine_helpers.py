"""Shared helpers for the engine tests: naming units the way the Bell prints them, building
positions, forcing dice, and checking that an illegal action changes nothing.

Not a test module (pytest collects ``test_*.py`` only)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

import pytest
from rcw.bots.match import Match

from rcw import actions as A
from rcw.actions import IllegalAction
from rcw.data import ANARCHIST, BLUE, GREEN, default, full
from rcw.game import Game
from rcw.rules import auxiliary, masses
from rcw.state import Stack

D = default()
FULL = full()          # with the optional forces of 001 (their counters are named here too)
_LABEL = re.compile(r"^([RWBG])([LU])(\d+) (.+)$")


def uids(label: str) -> list[int]:
    """Every unit a Bell-style label names: ``Lenin``, ``RL3 Lenin``, ``RU8 PETR``,
    ``WU8 DON``, ``BU2 ARCH/US``, ``GU8 POLA``, ``Czar``, ``Gold``; the optional forces of 001
    by their labels (``AU6 Makhno``, ``AU3 Anarchists``).  Blue, Green and Anarchist labels
    may name several identical counters (the three Polish units); they come in id order."""
    if label.lower() == "czar":
        return [D.czar]
    if label.lower() == "gold":
        return [D.gold]
    optional = sorted(u.id for u in FULL.optional_units.values() if u.label.lower() == label.lower())
    if optional:
        return optional
    m = _LABEL.match(label)
    if m is None:
        return [FULL.by_name(label).id]
    color, kind, strength, rest = m.group(1), m.group(2), int(m.group(3)), m.group(4)
    if color in "RW":
        want_kind = "leader" if kind == "L" else "combat"
        found = [u.id for u in D.units.values() if u.name.lower() == rest.lower() and u.kind == want_kind
                 and u.color[0] == color and u.strength == strength]
        assert len(found) == 1, label
        return found
    prov, _, nat = rest.partition("/")
    want = BLUE if color == "B" else GREEN
    out = sorted(u.id for u in D.units.values() if u.color == want and u.province == prov
                 and u.strength == strength and (not nat or u.nationality == nat))
    assert out, label
    return out


def uid(label: str) -> int:
    ids = uids(label)
    assert len(ids) == 1, f"{label} names {len(ids)} units"
    return ids[0]


def label(u: int) -> str:
    return FULL.units[u].label


# -- positions -----------------------------------------------------------------------------------
def started(players: int = 5, seed: int = 1, options: dict | None = None, data=None) -> Game:
    """A game past the trading session (everyone agrees at once): deployed, turn 1 under way."""
    g = Game.new(players, seed, options, data)
    for p in g.state.seats:
        g.apply(A.EndTrading(p))
    return g


def blank(players: int = 5, seed: int = 1, options: dict | None = None, data=None) -> Game:
    """A started game with an empty map: tests then :func:`put` exactly the stacks they need.
    The first seat is phasing in its Movement Phase."""
    g = cleared(started(players, seed, options, data))
    phase(g, g.state.seats[0], "movement")
    return g


def cleared(g: Game) -> Game:
    """``g`` with an empty map, VP chart and control, and no markers."""
    s = g.state
    s.stacks = {}
    s.vp = {}
    s.control = {}
    s.politburo = {p: 0 for p in s.seats}
    s.assassins = {p: 0 for p in s.seats}
    g.ctx.b.invalidate()
    return g


def put(g: Game, province: str, owner: str | None, *labels: str, attach: dict[str, str] | None = None) -> Stack:
    """Add a stack (units top to bottom, by label); ``attach`` maps unit label -> leader label.
    Asking for a label that names several counters takes the first one not yet on the map."""
    placed = set(g.ctx.b.index())
    units = []
    for lab in labels:
        free = [u for u in uids(lab) if u not in placed and u not in units]
        assert free, f"no free {lab}"
        units.append(free[0])
    att = {}
    for k, v in (attach or {}).items():
        key = next(u for u in units if label(u) == k or FULL.units[u].name == k or u in uids(k))
        att[key] = 0 if v == "" else uid(v)
    st = g.ctx.new_stack(province, owner, units, att)
    g.ctx.b.invalidate()
    return st


def phase(g: Game, seat: str, ph: str, *, fresh: bool = True) -> None:
    """Make ``seat`` the Phasing Player in phase ``ph`` (order kept clockwise from ``seat``).
    ``fresh`` clears what the Player-Turn has used so far (moved/fought units, doubling)."""
    s = g.state
    i = s.seats.index(seat)
    s.order = [p for p in s.seats[i:] + s.seats[:i] if p not in s.quit]
    s.current = 0
    s.phase = ph
    s.force = None
    s.attack = None
    s.decision = None
    if fresh:
        s.moved, s.imperial_moved, s.fought, s.defended = [], [], [], []
        s.subversion_doubled = False


def on_map(g: Game, label_: str) -> int | None:
    """The unit a label names; of several identical counters, the first one on the map."""
    ids = uids(label_)
    return next((u for u in ids if g.ctx.b.stack_of(u) is not None), ids[0] if len(ids) == 1 else None)


def stack_with(g: Game, label_: str) -> Stack:
    u = on_map(g, label_)
    st = g.ctx.b.stack_of(u) if u is not None else None
    assert st is not None, f"{label_} is not on the map"
    return st


def where(g: Game, label_: str) -> str | None:
    u = on_map(g, label_)
    st = g.ctx.b.stack_of(u) if u is not None else None
    return st.province if st else None


def section(g: Game, label_: str) -> str | None:
    return g.ctx.b.on_vp_chart(uid(label_))


def positions(g: Game, owner: str | None) -> list[tuple[str, tuple[str, ...]]]:
    """Sorted (province, sorted unit labels) of every stack ``owner`` controls (None:
    uncontrolled): stack compositions, ignoring the order within a stack."""
    return sorted((st.province, tuple(sorted(label(u) for u in st.units)))
                  for st in g.state.stacks.values() if st.owner == owner)


def every_unit_accounted(g: Game) -> None:
    """Every unit of the game (its options' optional forces too) is exactly once: on the map,
    on the VP chart, removed (withdrawn), or waiting in the Auxiliary Forces Randomizer (its
    own chit ``U:<id>``, or the Freikorps until its markers are drawn, 001) or in the hand of a
    player placing it (the ``place`` decision).  With ``masses_no_imperial`` the Czar and the
    Gold are not in the game (004 Masses [13.0] deleted): they are nowhere."""
    s = g.state
    seen: list[int] = [g.data.czar, g.data.gold] if masses.no_imperial(g.ctx) else []
    for st in s.stacks.values():
        seen += st.units
    for entries in s.vp.values():
        seen += [e[0] for e in entries]
    seen += s.removed
    seen += auxiliary.in_reserve(g.ctx)
    if s.decision is not None and s.decision.get("kind") == "place":
        seen.append(s.decision["unit"])
    units = g.data.units
    assert sorted(seen) == sorted(units), (
        f"missing {sorted(set(units) - set(seen))}, "
        f"duplicated {sorted({u for u in seen if seen.count(u) > 1})}")


# -- actions ---------------------------------------------------------------------------------
def refused(g: Game, action: A.Action, rule: str | None = None) -> IllegalAction:
    """Apply an action that must be refused: the rule case is named and nothing changes."""
    before = g.state_hash()
    n = len(g.log)
    with pytest.raises(IllegalAction) as e:
        g.apply(action)
    assert g.state_hash() == before, "a refused action changed the state"
    assert len(g.log) == n
    if rule is not None:
        assert e.value.rule == rule, f"expected {rule}, got {e.value.rule}: {e.value.message}"
    return e.value


def run(g: Game, *acts: A.Action) -> list:
    ev = []
    for a in acts:
        ev += g.apply(a)
    return ev


def move(g: Game, seat: str, leader: str, path: Iterable[str], *, rail: bool = False,
         join: Iterable[str] = (), pick: dict[str, Iterable[str]] | None = None,
         end: bool = True) -> list:
    """Move a force led by ``leader`` along ``path``; ``join`` other leaders first; ``pick``
    maps a province to unit labels the leader attaches there (the start province included)."""
    pick = pick or {}
    ev = g.apply(A.StartForce(seat, on_map(g, leader)))
    for j in join:
        ev += g.apply(A.JoinForce(seat, uid(j)))
    here = where(g, leader)
    for lab in pick.get(here, ()):
        ev += g.apply(A.Attach(seat, _free_unit(g, lab, here), uid(leader)))
    for p in path:
        ev += g.apply(A.Move(seat, p, rail))
        for lab in pick.get(p, ()):
            ev += g.apply(A.Attach(seat, _free_unit(g, lab, p), uid(leader)))
    if end:
        ev += g.apply(A.EndForce(seat))
    return ev


def _free_unit(g: Game, lab: str, province: str) -> int:
    for u in uids(lab):
        st = g.ctx.b.stack_of(u)
        if st is not None and st.province == province:
            return u
    raise AssertionError(f"{lab} not in {province}")


def merge(g: Game, seat: str, a: str, b: str) -> None:
    """Merge the stack holding ``a`` into the stack holding ``b``."""
    g.apply(A.Merge(seat, stack_with(g, a).id, stack_with(g, b).id))


@contextmanager
def dice(g: Game, *values: int) -> Iterator[list[int]]:
    """Load the next die rolls of ``g`` (004 [8.0], [12.0]) through ``Game.load_dice``; fails if
    more are rolled or not all were used."""
    loaded = g.load_dice(values)
    try:
        yield loaded.left
    finally:
        g.load_dice(None)
    assert not loaded.left, f"dice left unrolled: {loaded.left}"


def attack(g: Game, seat: str, target: str, attackers: Iterable[str], *, subversive: bool = False,
           die: int | None = None) -> list:
    """Declare an attack on the stack holding ``target`` with the stacks holding each of
    ``attackers``, and resolve it with a forced die."""
    ev = g.apply(A.DeclareAttack(seat, stack_with(g, target).id, subversive))
    for a in attackers:
        ev += g.apply(A.AddAttacker(seat, stack_with(g, a).id))
    if die is None:
        return ev
    with dice(g, die):
        ev += g.apply(A.ResolveAttack(seat))
    return ev


def combat_event(events: list) -> A.Event:
    return next(e for e in events if e.kind == "combat")


def check_invariants(g: Game, complete: bool = True) -> None:
    """What must hold after every action: every unit exactly once; stacks within 004 [7.1]
    (five combat/leader units, one player, one colour, one Blue/Green nationality); every
    attachment inside its stack and within the Leader's capacity (004 [5.14], [13.22],
    [13.25]); a decision is owed by a player still in the game."""
    s, b, units = g.state, g.ctx.b, g.data.units
    if s.phase == "trading":                  # 004 [15.3]: the leaders are in the hands
        assert sorted(x for h in s.hand.values() for x in h) == sorted(u.id for u in D.leaders())
        assert not s.stacks
        return
    if complete:                              # (``blank`` test positions hold a few units only)
        every_unit_accounted(g)
    for st in s.stacks.values():
        assert st.units, f"empty stack {st.id}"
        fighting = b.fighting_units(st)
        assert len(fighting) <= 5, f"stack {st.id} in {st.province} holds {len(fighting)} units"
        colors = {b.color_of(u, st) for u in fighting}
        assert len(colors) <= 1, f"stack {st.id} in {st.province} mixes {colors}"
        nats = {units[u].nationality for u in fighting
                if units[u].color in (BLUE, GREEN) and not st.attached.get(u)}
        assert len(nats) <= 1, f"stack {st.id} mixes nationalities {nats}"
        if colors == {ANARCHIST}:             # 001 Anarchists: never stacked with other units
            assert len(st.units) == 1, f"an Anarchist unit stacked with others in {st.province}"
        if st.owner is not None and not fighting:
            raise AssertionError(f"Imperial unit alone under {st.owner}'s marker (004 [13.42])")
        for u, lead in st.attached.items():
            assert u in st.units, f"attachment of {u} outside its stack"
            if lead:
                assert lead in st.units and units[lead].is_leader, f"{u} attached to {lead} elsewhere"
            else:
                assert units[u].is_imperial, f"combat unit {u} attached to nobody"
        for lead in b.leaders_of(st):
            n = len([u for u in b.attached_to(st, lead) if units[u].is_combat])
            assert n <= b.capacity(st, lead)[0], f"{units[lead].name} carries {n}"
        for imp in (D.czar, D.gold):
            if imp in st.units and b.leaders_of(st):
                assert st.attached.get(imp) in b.leaders_of(st), "Imperial unit not under a Leader (004 [13.21])"
    if s.decision is not None:
        assert s.decision["seat"] not in s.quit, "a decision is owed by a player who has quit"
    if s.phase != "over":
        assert g.pending, "nobody to act in an unfinished game"


# -- random legal play -----------------------------------------------------------------------
# Steps that do not move the game on: calling off an attack, withdrawing an attacker, and the
# free Central Committee consents (an agent could join and leave for ever).
IDLE = ("CancelAttack", "RemoveAttacker", "JoinCommittee", "LeaveCommittee")


def choose(rng: random.Random, legal: list, quit_ok: bool = False):
    """A random legal action: idle steps rarely (always, if nothing else is legal), quitting
    only when allowed and rarely."""
    quits = [a for a in legal if a.TYPE == "Quit"]
    rest = [a for a in legal if a.TYPE != "Quit"]
    forward = [a for a in rest if a.TYPE not in IDLE]
    r = rng.random()
    if quit_ok and quits and r < 0.002:
        return quits[0]
    return rng.choice(rest if r < 0.02 or not forward else forward)


def random_offer(rng: random.Random, g: Game, seat: str) -> A.OfferTrade | None:
    """A random trade of Politburo and Assassin markers (``OfferTrade`` is parametric, so
    ``legal_actions`` does not list it): what ``seat`` could give for what the other holds."""
    s = g.state
    others = [p for p in s.seats if p != seat and p not in s.quit]
    if not others or s.phase == "over":
        return None
    to = rng.choice(others)
    a = A.OfferTrade(seat, to=to, give_politburo=rng.randint(0, s.politburo.get(seat, 0)),
                     give_assassins=rng.randint(0, s.assassins.get(seat, 0)),
                     take_politburo=rng.randint(0, min(1, s.politburo.get(to, 0))),
                     take_assassins=rng.randint(0, min(1, s.assassins.get(to, 0))))
    return a if a.give_politburo or a.give_assassins or a.take_politburo or a.take_assassins else None


def random_committee(rng: random.Random, g: Game, seat: str) -> A.JoinCommittee | None:
    """A random Central Committee proposal (``JoinCommittee`` is parametric too): ``seat`` and
    some others who together hold at least eight Politburo markers (004 [11.11])."""
    s = g.state
    others = [p for p in s.seats if p != seat and p not in s.quit]
    rng.shuffle(others)
    members = [seat]
    for p in others:
        if sum(s.politburo.get(q, 0) for q in members) >= 8:
            break
        members.append(p)
    if sum(s.politburo.get(q, 0) for q in members) < 8:
        return None
    return A.JoinCommittee(seat, tuple(sorted(members)))


class RandomLegal:
    """A test agent: a random legal action (:func:`choose`) for whichever seat it plays."""

    def __init__(self, rng: random.Random, quit_ok: bool = False) -> None:
        self.rng, self.quit_ok = rng, quit_ok

    def choose(self, player) -> A.Action:
        legal = list(player.legal)
        assert legal, f"{player.seat} owes {player.pending[0]['kind']} but has no legal action"
        return choose(self.rng, legal, self.quit_ok)


def play(players: int, seed: int, agent_seed: int, steps: int, options: dict, quit_ok: bool = False,
         check_every: int = 1, others: float = 0.0) -> Game:
    """Play up to ``steps`` random legal actions through the match loop (rcw.bots.match),
    checking :func:`check_invariants` every ``check_every`` actions and at the end; every
    pending seat must have a legal action.

    With ``others`` > 0, that share of the steps is taken by a random seat other than the
    pending one - what a player may do out of turn: trade offers and Committee proposals
    (random ones made here: both are parametric) and the answers to them, purges declared in
    another player's turn, quitting (when ``quit_ok``) - and every listed action must apply."""
    g = Game.new(players, seed, options)
    rng = random.Random(agent_seed)
    m = Match(g, {p: RandomLegal(rng, quit_ok) for p in g.seats})
    for i in range(steps):
        if g.over:
            break
        if others and rng.random() < others:
            seat = rng.choice([p for p in g.seats if p not in g.quit])
            r = rng.random()
            made = random_offer(rng, g, seat) if r < 0.2 else random_committee(rng, g, seat) if r < 0.25 else None
            if made is not None:
                try:
                    m.apply(seat, made, "answer")
                except IllegalAction:
                    pass                      # e.g. a pending decision, or a consent given already
                continue
            legal = [a for a in g.legal_actions(seat) if a.TYPE != "Quit" or (quit_ok and rng.random() < 0.01)]
            if legal:
                m.apply(seat, choose(rng, legal, quit_ok) if any(a.TYPE != "Quit" for a in legal) else legal[0], "answer")
        else:
            step = m.next_step()
            assert step is not None, f"nobody to act: {g.pending}"
            m.apply(step.seat, step.action, step.kind)
        if i % check_every == 0:
            check_invariants(g)
    check_invariants(g)
    return g


def markers(g: Game, **pm: int) -> None:
    """Set every seat's Politburo markers (unnamed seats get none)."""
    for p in g.state.seats:
        g.state.politburo[p] = pm.get(p, 0)


def form(g: Game, *members: str) -> list:
    """Every member consents to a Central Committee of exactly ``members`` (004 [11.11])."""
    ev = []
    for m in members:
        ev += g.apply(A.JoinCommittee(m, tuple(members)))
    assert g.state.committee == list(members)
    return ev


def committee_abc() -> Game:
    """004 [11.23]: A, B and C (the Committee, 8 PM) against D, who holds two value-1 leaders,
    a value-2 leader and a Politburo marker; A, B, C have 8 leadership (strength 16).
    E is phasing in the Movement Phase."""
    g = blank()
    phase(g, "E", "movement")
    markers(g, A=3, B=3, C=2, D=1)
    put(g, "PETR", "A", "Lenin")
    put(g, "TVER", "B", "Trotsky")
    put(g, "VLDM", "C", "Frunze")
    put(g, "PSKO", "D", "Sablin", "Muraviev")
    put(g, "NOVG", "D", "Tukhachevsky")
    form(g, "A", "B", "C")
    return g
