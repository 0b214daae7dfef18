"""The "Solitaire for Fanatics" computer player (SDT bot), after J. Richard Jarvinen's article
in ``004_8c1b9ecc5e5ea495.txt`` ("RUSSIAN CIVIL WAR Solitaire for Fanatics").  The tables
themselves are in :mod:`bots.sdt_tables`, each with the article's words and our reading.

The bot plays one seat through :class:`rcw.player.Player`, the engine's public API, and knows
no rule of the game: where a force can go, how much a leader can carry, what attacks and at
what odds, which colours are hostile, the stacking limit and the marker thresholds are all
asked of the engine (see *What the bot asks the engine* below).  What it reads itself is a
plain index of its view (which stacks stand where, whose they are, which units they hold) and
the printed counters (a unit's colour and value).

How a turn is played
--------------------
The engine offers small steps, so the bot plans a whole Player-Turn when its Movement Phase
opens and then emits the matching steps one per :meth:`SDTAgent.choose` call, checking each
with one rule check (``player.is_legal``; a step that is no longer legal is skipped or, for
a move, the force is re-routed by the engine's ``reach``; nothing illegal is returned).

1. Random Events Phase: roll (nothing to decide).  Non-Attack Policy 10: a player who
   controls no units at all leaves the game ("he is automatically out of the game").
2. Movement Phase opens: roll the SDT (row 6: the VST).  Row 1: give one Assassin marker to
   the 2nd friendliest player.  Rows 4-5: Purge Cooperation (see *Politics*).  Then the
   required attacks are chosen from the APT (or the VST) at the row's minimum odds, forces
   are sent to the target provinces, and the rest follow the Non-Attack Policies.
3. Combat Phase: rows 3 and 5 first make the assassination attempt ("Purges are attempted
   before assassinations"), then each planned attack rolls Attack Consideration (not on the
   VST) and is declared, joined by every assigned stack, and resolved.
4. Randomizer Phase: draw.

Common-sense rules we chose (the article leaves them to the player's judgement)
-----------------------------------------------------------------------------
- *Which target first* within one APT line: the target that reaches the highest odds, then
  the strongest target (more Victory Points), then the lowest stack id.  Forces already in
  the target's province are used before forces that must move; among them the strongest
  first, until the minimum odds are reached ("Different stacks of units may be combined").
  Then ("When possible, the highest odds that can be achieved should be used"), once every
  required attack has its forces and the assassin its leader, each planned attack in turn
  takes the other free forces of its colour that can join it, wherever they stand (the
  engine's ``reach``; for a Subversive Attack, to a province next to the target), those
  already there first, then the strongest, while they raise its odds (the engine's
  ``odds_of``): a force that would not raise them stays for the Non-Attack Policies, and so
  do the Imperial escorts and a force that alone garrisons a province (Policies 3, 6, 7).
  When the attack is declared, our stacks in the province that no later attack needs join
  it as well (the engine's ``attack_problem`` and ``odds``).
- *Own units as targets*: a White player never attacks his own White units, a Red player
  never his own Red units (the article's exceptions); an Undecided player never attacks his
  own units at all.  Other own units may be attacked, as the article's APT implies.
- *Subversive Attacks* (004 [8.3]): the article does not name them, but its APT lines
  "Red vs Blue" (Red player I, White player II, Undecided player I) and a VST grudge
  against a player's Blue units call for Red units attacking Blue units, and a Subversive
  Attack from an adjacent province is such an attack.  Our rule: when the Red forces that
  are in, or can reach, provinces adjacent to the Blue stack reach the minimum odds
  subversively (the engine's ``attack_strength(units, subversive=True)`` counts the
  doubling of a "Subversive Attacks Doubled" Player-Turn), the bot attacks subversively:
  "Ae" and "Ex" then have no effect (004 [8.33]), which is what "the highest odds ... in
  order to minimize combat results of AE or EX" asks for.  Otherwise it attacks normally
  from inside the province.  Attack Consideration and the PCT shift apply to Subversive
  Attacks like any other.  (The bot plans from the map's adjacency; whether a border may
  be attacked across is the engine's answer when the attack is declared.)
- *Assassination*: the target is a leader of the worst enemy (unfriendliest on the PCT) of the
  first level in the article's order (one marker: 1, 2, 3; two: 2, 3, 1; three or more: 3,
  2, 1) that a leader of ours can be with in the Combat Phase (004 [10.13]): one that is
  there and stays, one that goes there to attack, or a free leader (not needed for an
  attack, no escort) that can reach it this Movement Phase and is sent there; within the
  level, the leader "who controls the greatest combat strength", then one we are with
  already, then the nearest.  If no leader of the enemy can be reached, the attempt is
  aborted.
- *Non-Attack Policies*, in this order for every force not needed for an attack: (1) Czechs
  of a White player go to Vladivostok and leave; a White player's Czar goes to the nearest
  port and emigrates; (4) the Gold's leader goes to steal Green units within reach (the
  Green units it may take are the engine's answer when it tries: a unit it was refused is
  not sought again); (3) other Czar/Gold escorts never leave their Imperial unit: when
  other players' hostile forces stand in or next to their province they move to the
  reachable province with the least such strength around it (preferring one where their
  own stacks are, to consolidate), else they stay (and consolidate by the merges below);
  (5) leaders with room (the engine's ``capacity``) pick up loose uncontrolled combat units
  of their colour (the strongest within reach); (6) Red players' Red forces garrison Tver,
  Petrograd and the home provinces of Red units awaiting replacement (Game-Turns 1-5), one
  force per province; (7) White players' White forces garrison the home provinces of White
  units awaiting replacement; (8) a smaller force screens a larger stack of its colour that
  other players' hostile forces threaten: it stands in the province next to that stack, free
  of hostile units, with the most hostile strength in or next to it (one screen per
  province screened; a force already screening stays); (5) else a smaller force joins the
  player's strongest stack of its colour within reach (if the two stay within the engine's
  stacking limit); at the end
  of movement every two of the player's stacks in one province are merged where the
  engine allows.  (9) Exchange losses are taken from combat units before leaders (the
  smallest unit that covers the loss, else the largest).  (2) A Red player holding the Czar
  tries to have it executed by a Central Committee formed as for purges (never on
  Game-Turn 1).
- *Trades*: the bot accepts an offer that asks nothing of it (a gift) and declines every
  other offer; it offers nothing except the SDT gifts, and withdraws a gift still unanswered
  when its next Movement Phase begins.
- *End-game vote* (004 [14.1] case 3): the bot votes to end the game when its PIT colour is
  Red.
- *Capture* (004 [13.41]): always capture an Imperial unit on offer.

001's optional forces and rules (the article knows none of them; our choices, by the spirit of its tables)
------------------------------------------------------------------------------------------------------
- *Anarchist units it controls* (001 Anarchists) are forces of their own, like Blue and Green
  stacks, and attack by the lines :data:`bots.sdt_tables.APT_ANARCHISTS` adds (those of its
  Green units: the other colour that opposes Red and White), each after the printed lines of
  its priority; an Anarchist attacks alone (no other stack joins it, none raises its odds).
- *Anarchist units as targets*: "no victory is possible" while one stands in European Russia,
  so the colour a player backs attacks them last (III), never his own; from Game-Turn 6, when an
  eliminated one stays off the map and counts for the player's Victory Points, first
  (:data:`bots.sdt_tables.APT_ORDER`, before the printed lines), his own too.
- *Placing a unit drawn* (the ``place`` decision): a Shock Army with its own leader of the
  unit's colour whose stack attacks strongest (Non-Attack Policy 5's strongest stack), else with
  the friendliest player's; a small Anarchist unit, or the Freikorps on a 6, where it can attack
  at once the weakest stack of another player of a colour its PIT colour fights (Red for the
  Blue Freikorps, 004 [8.15]) at the best odds, 1:1 at least; with none, an Anarchist goes to
  Siberia (where it stands in no one's way to victory) and the Freikorps to the first province.
- *Bonus draws* (001 Additional Randomizer Draws) are drawn as the redraw of 004 [12.13] is:
  always, unless the Withdrawal Markers of its own Blue forces (the Freikorps' Out Marker among
  them) make a third or more of the cup (:meth:`SDTAgent._draw_again`).

The PCT and what the bot sees
-----------------------------
Each agent works out the PIT from the view whenever needed ("the settings on the PIT are
changed the moment a leader is lost or gained").  The PCT is the game's one table
(:class:`bots.cooperation.CooperationTable`: the article keeps one table, its second row for
a pair being "redundant"), which the match loop keeps and hands to every SDT bot of the game
(:meth:`SDTAgent.use_table`).  It starts from the PIT colours of the deal (the leaders in
every hand when the forces are deployed, from the public ``dealt`` and ``trade`` events),
before anyone moves, and moves with the events of every action, shown to the table once,
one shift per act, as the notes under the PCT list them:

- an attack: each ``combat`` event shifts the pair (``seat``, the attacker; ``defender``, the
  owner of the attacked stack) one column right (an attack on uncontrolled units shifts
  nothing; Attack Consideration's "moved only for attacks that actually take place" holds,
  since only a resolved attack makes a ``combat`` event);
- an assassination attempt: each ``assassination`` event (success or failure) shifts
  (``seat``, ``owner`` of the victim) one column right;
- a purge attempt: each ``purge`` or ``counterpurge`` event (the roll) shifts every pair
  (purger, ``target``) one column right;
- gifts: each ``trade`` event shifts (giver, receiver) one column left per Assassin marker
  and two per Politburo marker that changed hands (in either direction of the trade).

A match that takes over a game under way rebuilds the table from the game's record; an
agent used on its own (no match) keeps a table of its own from the events it is shown (set
up from the hands it sees while trading, or from the leaders on the map if it saw no deal).
The events tell the agent itself only what it keeps of its own (its leaders lost, offers
made to it, Committee news, the start of its Player-Turn): the match shows it only the
actions with such an event (:attr:`SDTAgent.observe_kinds`).

Every force a bot moves is announced in a note ("moves Trotsky to SAMA: to attack in SAMA
[APT priority I: Red vs White]"), which ``rcw solo`` prints before the engine's sentences.

What the bot asks the engine
----------------------------
``reach`` (where each force can go, with a route; at most once per force and Movement
Phase, and again only if a planned step is refused), ``capacity`` (a leader's room, within
the stacking limit), ``attack_units``/``defense``/``attack_strength``/``odds_of`` (what a
planned attack is worth), ``attack_problem`` and ``odds`` (who joins an attack, at what odds,
when it is declared), ``hostile`` (the colour table), ``limits`` (stacking limit, Committee
and execution thresholds), ``offers`` (looked at only when an event showed an offer made to
us since we last found none), ``stacks_of``, ``stack`` and ``stack_holding`` (our own
stacks, a stack, the stack of a unit: when a step needs those and not the whole map) and
``is_legal``.  A force's reach is asked only when a choice
comes to it: an attack takes the forces in the target's province, then the others strongest
first, until the odds are reached; targets are tried from the best bound down (the odds of
all the free forces of the colour together: a stronger attack never has worse odds against
the same defender) until none can beat the best found; the Non-Attack Policies ask it of a
force only when there are loose units, provinces to garrison or a stack to join (the same
choices as asking every force for every target, with fewer questions).  The view is read
only at the moments a decision needs the map or the markers (the start of a Movement Phase;
the merges at its end, which ask only for our stacks and the targets of our attacks, what the
Combat Phase then looks up, unless an assassination is planned; a decision, which for Exchange losses and purge spoils asks only for the stacks of the units
concerned; a Committee question that concerns the bot; the Random Events Phase when the
events no longer show a leader of ours, for Non-Attack Policy 10, which asks only for our
stacks): planned steps are emitted without it.

Speed (``python bench/engine.py``, ``sdt_vs_replay``): the match loop alone (agents that
replay a game's recorded steps through :class:`rcw.bots.match.Match`) costs about 1.6 times
the replay of the log; the rest of an SDT game is the bot: the engine's answers (``reach``,
about 290 a game, the whole map view, about 60 reads a game, the rule checks) and its own
reckoning, mostly the plan (about a third of a millisecond a Movement Phase beyond the
engine's answers).  The PCT is kept once per game, not once per bot, and the bots are shown
only the actions whose events they need (about a quarter of them).  The plan reads the map
once into an :class:`Index` whose lookups are made when first used; what it works out once
per view (loose units, provinces to garrison, hostile strength by province, our stacks by
strength) is kept in ``Index.memo``.  A stack's read-out (:class:`Stk`, with the engine's
``attack_units`` and ``defense`` of it) is made once and shared by the bots for as long as the
engine shows the same view entry, that is while the stack stays as it was (:meth:`Facts.stk`).

Out-of-turn answers
-------------------
Offers and Central Committee proposals are free actions, not pending decisions, so the
match loop (:class:`rcw.bots.match.Match`) calls :meth:`SDTAgent.react` for every bot seat
when one is open (and once more when what was open closes: a Committee that did not form
calls another); ``react`` returns an action or None.  Offers are read with
``player.offers()`` only when an offer to us has been shown since we last found none;
Committee questions are looked at only when a Committee event has been shown since the last
look (or the bot has a consent of its own standing).  Both rest on the match showing the bot
every action: when the game's version shows actions it was not shown (a server's driver that
stopped and resumed), the bot looks again at everything the events told it.
"""

from __future__ import annotations

import random
import weakref
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import attrgetter, itemgetter

from rcw.bots import sdt_tables as T
from rcw.bots.cooperation import CooperationTable
from rcw.bots.match import checked, told
from rcw.bots.negotiation import Negotiator, Wait, committee_refusal, is_gift

from rcw import actions as A
from rcw.actions import IllegalAction
from rcw.data import ANARCHIST, BLUE, GREEN, RED, SIBERIA, WHITE, GameData

SAFE_DEFAULTS = ("EndForce", "EndMovement", "EndCombat", "DrawRandomizer", "EndPlayerTurn", "RollRandomEvents", "EndTrading",
                 "DeclineCapture", "DeclineTrade", "EndSpoils")
NEVER = ("Quit", "CancelAttack", "RemoveAttacker", "JoinCommittee", "LeaveCommittee", "DeclarePurge",
         "OrderExecution", "PassPurge")
PHASES = ("trading", "random_events", "movement", "force", "combat", "attack", "randomizer")
POLITICAL_EVENTS = ("committee_consent", "committee_leave", "committee")
PHASE_EVENTS = ("phase", "player_turn", "turn", "sequence", "random_event", "quit", "game_over")
POLITICAL = frozenset(POLITICAL_EVENTS)
PHASE_NEWS = frozenset(PHASE_EVENTS) - {"player_turn"}      # (news only while a Committee may be under way)
OBSERVED = frozenset(("eliminated", "spoil", "trade", "trade_offered") + POLITICAL_EVENTS + PHASE_EVENTS)


# -- a plain index of the view: which stacks stand where, whose, holding which units ----------------
def _of_two(order: list[str]) -> str:
    """What "its 2nd friendliest player" is when there are only two others (a three-player game):
    its least friendly too, which the tables' gift to him and its purge of him then both say (QA
    read the two as a contradiction)."""
    return " (of two: its least friendly too)" if len(order) == 2 else ""


_bound = itemgetter(0, 1, 2)     # the sort key of a target's (bound, defense, -id, target): _best_target


def _least(cands: list[tuple], reach) -> tuple:
    """The least of ``cands``, (key, province, tie-break, ...) tuples, by key, then the length of
    the route to the province in ``reach`` (0 if it is not there: where the force stands), then
    the tie-break (no two share it): a route, which the engine puts together when it is first
    read, is looked at only where the keys tie."""
    k0 = min(c[0] for c in cands)
    tied = [c for c in cands if c[0] == k0]
    if len(tied) == 1:
        return tied[0]
    return min(tied, key=lambda c: (len(reach[c[1]]["path"]) if c[1] in reach else 0, c[2]))


def _around(forces: list[Force], tid: int, tp: str) -> tuple[list[Force], list[Force], int]:
    """The free ``forces`` other than target ``tid``'s own stack: those in the target's province
    ``tp``, those elsewhere (each in the given order), and their total strength."""
    local: list[Force] = []
    far: list[Force] = []
    total = 0
    for fc in forces:
        if fc.stack != tid:
            (local if fc.province == tp else far).append(fc)
            total += fc.strength
    return local, far, total


class Facts:
    """The printed counters and the map, read once per :class:`GameData`."""

    _cache: dict[int, tuple[GameData, Facts]] = {}

    def __init__(self, d: GameData) -> None:
        self.data = d
        us = d.units
        self.strength = {u: x.strength for u, x in us.items()}
        self.color = {u: x.color for u, x in us.items()}
        self.leader = frozenset(u for u, x in us.items() if x.is_leader)
        self.imperial = frozenset(u for u, x in us.items() if x.is_imperial)
        self.combat = frozenset(u for u, x in us.items() if x.is_combat)
        self.czar, self.gold = d.czar, d.gold
        self.adjacent = {p: frozenset(x.adjacent) for p, x in d.provinces.items()}
        self.around = {p: (p, *near) for p, near in self.adjacent.items()}     # a province and those next to it
        self.adjacent_bits = {p: sum(d.bit[n] for n in ns) for p, ns in self.adjacent.items()}   # (as GameData.bit sets)
        self.anarchists = any(x.color == ANARCHIST for x in us.values())      # (001: the option's counters)
        # (attack, defense) -> the CRT column the engine's ``odds_of`` gave (a printed table: the
        # same for every player of a game with these data, so the bots share what they asked)
        self.cols: dict[tuple[int, int], int | None] = {}
        # stack id -> the Stk last made of its view entry, shared by the bots (see :meth:`stk`)
        self.stks: dict[int, Stk] = {}

    @classmethod
    def of(cls, d: GameData) -> Facts:
        hit = cls._cache.get(id(d))
        if hit is None or hit[0] is not d:
            hit = cls._cache[id(d)] = (d, cls(d))
        return hit[1]

    def name(self, u: int) -> str:
        x = self.data.units[u]
        return x.name if x.is_leader else x.label

    def stk(self, s: dict) -> Stk:
        """The :class:`Stk` of the view entry ``s``: the one made before while the engine shows the
        same entry (it shows a stack's entry again while the stack stays as it was, and a Stk is
        never changed once made, so every bot reading these data shares it)."""
        st = self.stks.get(s["id"])
        if st is None or st.entry is not s:
            st = self.stks[s["id"]] = Stk(s, self)
        return st


class Stk:
    """One stack of the view, read out once: the bots share it while the view shows the same
    entry (:meth:`Facts.stk`), and it is never changed once made (:meth:`Index.merged` puts a new
    one in its place), but for the engine's answers about it, kept when first asked: the units
    that attack with it (``attack_units``, 004 [8.26]-[8.28]) and the strength it defends with
    (``defense``, 004 [8.26]), which depend on its units and their attachments alone, so hold
    while the view shows the same entry."""

    __slots__ = ("id", "province", "owner", "units", "color", "attached", "fighting", "leaders", "loose", "imperial",
                 "entry", "attackers", "dfn")

    def __init__(self, s: dict, f: Facts) -> None:
        self.entry = s                     # the view's entry it was made from
        self.attackers: list[int] | None = None      # the engine's answers, when first asked
        self.dfn: int | None = None
        self.id = s["id"]
        self.province = s["province"]
        self.owner = s["owner"]
        units = self.units = s["units"]
        self.color = s["color"]
        raw = s["attached"]
        att = self.attached = {int(k): v for k, v in raw.items()} if raw else {}
        lead, combat = f.leader, f.combat
        leaders: list[int] = []
        loose: list[int] = []              # combat units led by no one
        imperial = False                   # a unit neither leader nor combat unit: an Imperial one
        for u in units:
            if u in lead:
                leaders.append(u)
            elif u in combat:
                if not att.get(u):
                    loose.append(u)
            else:
                imperial = True
        self.leaders, self.loose, self.imperial = leaders, loose, imperial
        self.fighting = [u for u in units if u not in f.imperial] if imperial else units    # (lists never changed)

    def attached_to(self, leader: int) -> list[int]:
        att = self.attached
        return [u for u in self.units if att.get(u) == leader] if att else []

    def joined(self, x: Stk) -> Stk:
        """A new Stk: this stack once stack ``x`` has merged into it (the same id, province, owner
        and colour; ``x``'s units added)."""
        y = Stk.__new__(Stk)
        y.entry, y.id, y.province, y.owner, y.color = None, self.id, self.province, self.owner, self.color
        y.attackers = y.dfn = None
        y.units = self.units + x.units
        y.attached = {**self.attached, **x.attached}
        y.fighting = self.fighting + x.fighting
        y.leaders = self.leaders + x.leaders
        y.loose = self.loose + x.loose
        y.imperial = self.imperial or x.imperial
        return y


class Index:
    """The stacks of one view, by id, by unit and by province (a read-out, no rules).  A stack
    object is made when a stack is first asked for, and each lookup when first used: a
    decision that needs two stacks does not pay for the whole map."""

    def __init__(self, view: dict, f: Facts, whole: bool = False) -> None:
        self.view = view
        self._f = f
        self._whole = whole                    # the whole map (a view), not some of its stacks (:meth:`of`)
        self._made: dict[int, Stk] = {}        # stack id -> its Stk, made so far
        self._gone: set[int] = set()           # stacks merged away
        self._all: list[Stk] | None = None
        self._where: dict[int, Stk] | None = None
        self._by_id: dict[int, Stk] | None = None
        self._by_province: dict[str, list[Stk]] | None = None
        self._colors_in: dict[str, set[str]] | None = None
        self._mine: dict[str | None, list[Stk]] = {}
        self._imperial: list[Stk] | None = None
        self.memo: dict = {}                   # what the bot works out once per view

    @classmethod
    def of(cls, stacks: list[dict], f: Facts) -> Index:
        """An index of these stacks alone (view entries, by id), not of the whole map."""
        return cls({"stacks": stacks}, f)

    def _stk(self, s: dict) -> Stk:
        st = self._made.get(s["id"])
        if st is None:
            st = self._made[s["id"]] = self._f.stk(s)
        return st

    @property
    def stacks(self) -> list[Stk]:
        if self._all is None:
            gone, made, f = self._gone, self._made, self._f
            entries = self.view["stacks"]
            known = f.stks
            if self._whole and len(known) > 2 * len(entries) + 64:     # (the Stks of the stacks long gone are forgotten)
                known = f.stks = {i: known[i] for s in entries if (i := s["id"]) in known}
            out = []
            first = not made                       # (the usual first look: no Stk of ours yet, none gone)
            for s in entries:
                i = s["id"]
                if first or (st := made.get(i)) is None:
                    st = known.get(i)              # (Facts.stk, inline)
                    if st is None or st.entry is not s:
                        st = known[i] = Stk(s, f)
                    made[i] = st
                elif i in gone:
                    continue
                out.append(st)
            self._all = out
        return self._all

    @property
    def by_id(self) -> dict[int, Stk]:
        if self._by_id is None:
            self._by_id = {st.id: st for st in self.stacks}
        return self._by_id

    @property
    def by_province(self) -> dict[str, list[Stk]]:
        if self._by_province is None:
            out: dict[str, list[Stk]] = {}
            for st in self.stacks:
                p = out.get(st.province)
                if p is None:
                    out[st.province] = [st]
                else:
                    p.append(st)
            self._by_province = out
        return self._by_province

    @property
    def colors_in(self) -> dict[str, set[str]]:
        """Province -> the colours of the stacks there holding units other than Imperial ones."""
        if self._colors_in is None:
            out: dict[str, set[str]] = {}
            for st in self.stacks:
                if st.fighting:
                    c = out.get(st.province)
                    if c is None:
                        out[st.province] = {st.color}
                    else:
                        c.add(st.color)
            self._colors_in = out
        return self._colors_in

    @property
    def where(self) -> dict[int, Stk]:
        if self._where is None:
            self._where = {u: st for st in self.stacks for u in st.units}
        return self._where

    def get(self, sid: int) -> Stk | None:
        """The stack ``sid`` (None if there is none)."""
        if self._by_id is not None:
            return self._by_id.get(sid)
        if sid in self._gone:
            return None
        st = self._made.get(sid)
        if st is not None:
            return st
        for s in self.view["stacks"]:
            if s["id"] == sid:
                return self._stk(s)
        return None

    def stack_of(self, uid: int) -> Stk | None:
        """The stack holding unit ``uid`` (None if it is not on the map): once :attr:`stacks` are
        read, an Imperial unit is looked for in the few stacks holding one alone."""
        if self._where is not None or self._gone:
            return self.where.get(uid)
        if self._all is not None and uid in self._f.imperial:
            imperial = self._imperial
            if imperial is None:
                imperial = self._imperial = [st for st in self._all if st.imperial]
            for st in imperial:
                if uid in st.units:
                    return st
            return None
        for s in self.view["stacks"]:
            if uid in s["units"]:
                return self._stk(s)
        return None

    def mine(self, seat: str | None) -> list[Stk]:
        """The stacks ``seat`` controls, read off :attr:`stacks` (a plan that asks for them reads the
        whole map too)."""
        out = self._mine.get(seat)
        if out is None:
            out = self._mine[seat] = [s for s in self.stacks if s.owner == seat]
        return out

    def holder(self, uid: int) -> str | None:
        st = self.stack_of(uid)
        return st.owner if st else None

    def merged(self, stack: int, into: int) -> None:
        """Our own ``Merge(stack, into)`` was applied: ``into`` now holds both stacks' units (a new
        Stk in this index: the old ones are shared, :meth:`Facts.stk`)."""
        x, y = self.get(stack), self.get(into)
        z = self._made[into] = y.joined(x)
        self._gone.add(stack)
        if self._all is not None:
            self._all.remove(x)
            self._all[self._all.index(y)] = z
        if self._by_id is not None:
            del self._by_id[stack]
            self._by_id[into] = z
        if self._by_province is not None:
            here = self._by_province[x.province]
            here.remove(x)
            here[here.index(y)] = z
        if self._where is not None:
            for u in z.units:
                self._where[u] = z
        self._mine.clear()
        self._imperial = None


def leadership(stacks: list[dict], seat: str, f: Facts) -> tuple[int, int]:
    """(Red, White) values of the leaders a player controls on the map (the PIT markers), by
    the stacks of the view (or his own, ``Player.stacks_of``)."""
    lead = f.leader
    return leaders_value([u for s in stacks if s["owner"] == seat for u in s["units"] if u in lead], f)


def leaders_value(leaders: Iterable[int], f: Facts) -> tuple[int, int]:
    """(Red, White) values of these leaders: each one's value on its colour's PIT marker."""
    red = white = 0
    color, strength = f.color, f.strength
    for u in leaders:
        c = color[u]
        if c == RED:
            red += strength[u]
        elif c == WHITE:
            white += strength[u]
    return red, white


def controls_any(stacks: list[dict], seat: str, f: Facts) -> bool:
    """Whether a player controls any unit on the map (Imperial units alone are no one's), by
    the stacks of the view (or his own, ``Player.stacks_of``)."""
    imp = f.imperial
    return any(s["owner"] == seat and any(u not in imp for u in s["units"]) for s in stacks)


@dataclass
class Force:
    """One movable force as planned: a leader (with what is attached to it) or a Blue/Green stack."""

    lead: int
    stack: int
    province: str
    color: str
    strength: int
    leader: bool
    escort: bool
    units: list[int]                       # the units that attack with it (the engine's attack_units)
    pickups: list[int] = field(default_factory=list)
    reach: dict | None = None
    reached: int = 0                       # the provinces in ``reach``, as a set of bits (GameData.bit)
    sub_strength: int | None = None


class Free:
    """The free forces of one colour as an attack search starts (:meth:`SDTAgent._free`): those
    that escort no Imperial unit and the escorts (each strongest first), their total strength, and
    that total by the stack they stand in; the same two for those that escort no Imperial unit."""

    __slots__ = ("plain", "escorts", "total", "by_stack", "plain_total", "plain_by_stack")

    def __init__(self, plain: list[Force], escorts: list[Force], total: int, by_stack: dict[int, int],
                 plain_total: int, plain_by_stack: dict[int, int]) -> None:
        self.plain, self.escorts, self.total, self.by_stack = plain, escorts, total, by_stack
        self.plain_total, self.plain_by_stack = plain_total, plain_by_stack


@dataclass
class PlannedAttack:
    target: int
    province: str
    color: str                   # colour of the attacking units
    forces: list[int]            # lead units
    owner: str | None
    min_col: int
    consider: bool               # roll Attack Consideration first
    label: str = ""
    subversive: bool = False     # 004 [8.3]: Red units from provinces adjacent to a Blue stack


@dataclass
class Order:
    lead: int
    dest: str | None
    attach_start: list[int] = field(default_factory=list)
    attach_dest: list[int] = field(default_factory=list)
    after: list[A.Action] = field(default_factory=list)
    why: str = ""
    route: dict | None = None    # the engine's route to ``dest`` when planned
    steal: bool = False          # attach_dest are Green units bought with the Gold


class Walk:
    """The force under way (an :class:`Order` carried out): the units it attaches at the start,
    the provinces left on its route, the units it attaches at its destination."""

    __slots__ = ("order", "lead", "start", "path", "rail", "i", "dest", "rerouted", "stacking")

    def __init__(self, order: Order, lead: int, path: list[str], rail: bool) -> None:
        self.order, self.lead, self.path, self.rail, self.i = order, lead, path, rail, 0
        self.start, self.dest, self.rerouted = list(order.attach_start), list(order.attach_dest), False
        self.stacking = False         # (001 No Leader Suicide 3 asked for its way on: once)


@dataclass
class TurnPlan:
    turn: int
    row: T.SdtRow
    color: str
    vst: str | None = None
    vst_target: str | None = None
    attacks: list[PlannedAttack] = field(default_factory=list)
    orders: list[Order] = field(default_factory=list)
    pre: list[A.Action] = field(default_factory=list)     # gifts, emigrations at the start
    assassinate: bool = False
    assassin_target: int | None = None
    assassinated: bool = False
    purge: bool = False
    execute_czar: bool = False
    politics_done: bool = False
    combat_queue: list | None = None
    current_owner: str | None = None      # owner of the stack under attack now
    merges_done: bool = False
    merge_queue: list | None = None
    dead: set = field(default_factory=set)      # stacks merged away
    stacked: set = field(default_factory=set)   # leaders 001 No Leader Suicide 3 took to friends (tried once)
    nls: bool = False                           # 001 No Leader Suicide is played
    move_ix: Index | None = None                # the end of movement, merges applied: our stacks and
                                                # our attacks' targets (the map if we assassinate)
    combat_ix: Index | None = None
    att: dict = field(default_factory=dict)     # stack id -> attack strength (engine), this plan
    dfn: dict = field(default_factory=dict)     # stack id -> defense (engine), this plan
    tries: dict = field(default_factory=dict)   # (target, colour, odds) -> attack (or None)
    room: dict = field(default_factory=dict)    # leader -> room (engine's capacity), this plan


class SeatActions:
    """The actions of one seat that take no parameter but the seat (``acts.EndForce`` is
    ``EndForce(seat)``), each made when first asked for and then kept: actions are immutable, so
    one object serves every time, and making a frozen dataclass costs about as much as a step's
    own bookkeeping in the match loop.  The steps of the seat's forces are kept likewise, by
    their parameters (:meth:`start`, :meth:`move`): a force's every step is one of those."""

    def __init__(self, seat: str) -> None:
        self.seat = seat
        self._starts: dict[int, A.StartForce] = {}           # unit -> StartForce(seat, unit)
        self._moves: tuple[dict[str, A.Move], dict[str, A.Move]] = ({}, {})    # overland, by rail

    def start(self, unit: int) -> A.StartForce:
        """``StartForce(seat, unit)``."""
        a = self._starts.get(unit)
        if a is None:
            a = self._starts[unit] = A.StartForce(self.seat, unit)
        return a

    def move(self, province: str, rail: bool) -> A.Move:
        """``Move(seat, province, rail)``."""
        moves = self._moves[rail]
        a = moves.get(province)
        if a is None:
            a = moves[province] = A.Move(self.seat, province, rail)
        return a

    def __getattr__(self, name: str) -> A.Action:
        if name.startswith("_"):           # (copy and pickle ask for their hooks: not actions)
            raise AttributeError(name)
        a = getattr(A, name)(self.seat)
        setattr(self, name, a)
        return a


class SDTAgent:
    """A Fanatics-table player for one seat, playing through :class:`rcw.player.Player`."""

    name = "sdt"
    committee_refusal = staticmethod(committee_refusal)     # (what the server tells a human's Committee dialog)

    def __init__(self, seat: str, seed: int = 0) -> None:
        self.seat = seat
        self.acts = SeatActions(seat)     # our parameterless actions, made once
        self.rng = random.Random(f"{seed}:{seat}")
        self.table = CooperationTable()    # the game's PCT: our own until the match hands us the game's one
        self._own_table = True
        self.plan: TurnPlan | None = None
        self.cur: Walk | None = None
        self.notes: list[str] = []
        self.politics = PoliticsAdapter(self)
        self.p = None                      # the Player of the call under way
        self._observing = False            # the match shows us events
        self._pol_dirty = True             # Committee news for us since react last looked
        self._offer_news = True            # an offer to us may be open (we have not looked since one was made)
        self._version: int | None = None   # the game's version as the events shown to us have brought it
        self._consenting = False           # we may have a Committee consent standing
        self._not_live = False             # a proposal to us waits for its proposer's Movement Phase
        self._phasing: str | None = None   # whose Player-Turn it is, and which Game-Turn (from the events)
        self._turn = 0
        self._hostile: dict[tuple[str, str], bool] = {}
        self._ix: tuple | None = None      # (view, Index) of the last view indexed
        self._refused: set[tuple[int, int]] = set()      # (leader, unit) attachments the engine refused
        self._rank_cache: tuple[list, dict] | None = None     # (the plan's forces, _ranked by colour)
        self._bounds_last: tuple | None = None   # (targets, forces, used, min_col, colours, _best_target's bounds)
        self._free_last: tuple | None = None     # (forces, used, its size, _free's answers by colour)
        self._last_ok: A.Action | None = None
        self._f: Facts | None = None
        self._f_p = None                   # the Player whose data _f was checked against
        self._leaders: set[int] | None = None    # our leaders at our last look, less those the events took
        self.talk = Negotiator(self)       # what the bot says and answers in chat (bots.negotiation)

    # -- the Player Cooperation Table ------------------------------------------------------------------
    def use_table(self, table: CooperationTable) -> None:
        """Read the game's Player Cooperation Table (the match keeps it and shows it every
        event) instead of a table of our own.  (Handed to us when a match takes us on, perhaps
        again: we look again at everything the events told us.)"""
        self.table = table
        self._own_table = False
        self._leaders = None
        self._pol_dirty = True
        self._offer_news = True

    @property
    def observe_kinds(self) -> frozenset[str] | None:
        """The event kinds :meth:`observe` needs (the match shows us only the actions with one
        of them, :class:`rcw.bots.match.Match`): every action while we keep a table of our own."""
        return None if self._own_table else OBSERVED

    @property
    def pct(self) -> dict[frozenset, int]:
        """The PCT (one column per pair of players) of the table we read."""
        return self.table.pct

    @property
    def pct_started(self) -> bool:
        return self.table.started

    # -- public helpers (also used by the solo game to explain the bots) -------------------
    def relation(self, a: str, b: str) -> int:
        return self.table.relation(a, b)

    def row(self, view) -> dict[str, int]:
        """The bot's PCT row: every other active player -> column (a view or a Player)."""
        v = self._as_view(view)
        me, gone, relation = self.seat, v["quit"], self.table.relation
        return {p: relation(me, p) for p in v["seats"] if p != me and p not in gone}

    def friendliness(self, view) -> list[str]:
        return T.friendliness_order(self.row(view))

    def pit(self, view, seat: str | None = None) -> tuple[int, int, int, str]:
        """(Red, White, PCM, colour) of a player now (a view or a Player).  Read from the
        player's own stacks (``Player.stacks_of``) when the view is the one of the Player we
        play through and we have not indexed its map (whose stacks are then read already)."""
        v = self._as_view(view)
        seat = seat or self.seat
        p, ix = self.p, self._ix
        if p is not None and (ix is None or ix[0] is not v) and p.view is v:
            stacks = p.stacks_of(seat)
        else:
            stacks = v["stacks"]
        red, white = leadership(stacks, seat, self._facts())
        m = T.pcm(red, white)
        return red, white, m, T.political_color(m, v["turn"])

    def _pit_of(self, ix: Index, turn: int) -> tuple[int, str]:
        """(PCM, colour) of the bot by the stacks of an index of the map (as :meth:`pit`, by the
        leaders its Stks read out: the plan reads our stacks anyway)."""
        red, white = leaders_value([u for st in ix.mine(self.seat) for u in st.leaders], self._facts())
        m = T.pcm(red, white)
        return m, T.political_color(m, turn)

    # -- negotiation (bots.negotiation: the match loop's calls) -----------------------------------
    def meet(self, humans, wait: float | None = None) -> None:
        """The human seats of the game (the bot talks only to them); ``wait``: how long it
        waits for them to answer its Committee invitation."""
        self.talk.meet(humans, wait)

    def messages(self) -> list:
        """What the bot said since the last call (:class:`bots.negotiation.Message`)."""
        return self.talk.drain()

    def hear(self, news: dict) -> None:
        """Chat news (:meth:`bots.negotiation.Talk.hear`); ``{"kind": "committee", "seat",
        "members"}``: a human has proposed again the Central Committee it consents to already,
        which applies no action (so no event tells us): answered as a new proposal would be."""
        if news.get("kind") == "committee" and news.get("seat") in self.talk.humans \
                and self.seat in (news.get("members") or ()):
            self.talk.proposed(news["members"])
            self._pol_dirty = True
        self.talk.hear(news)

    def consider(self, player, proposal: dict, key: str):
        """The answer to a proposal without an engine action (a pact): a Message."""
        self.p = player
        return self.talk.consider(self._view(player), proposal, key)

    def take_notes(self) -> list[str]:
        out, self.notes = self.notes, []
        return out

    def note(self, text: str) -> None:
        self.notes.append(f"{self.seat}: {text}")

    def die(self) -> int:
        return self.rng.randint(1, 6)

    # -- reading the view and asking the engine ------------------------------------------------------
    def _as_view(self, x) -> dict:
        if isinstance(x, Mapping):
            self._ensure_pct(x)
            return x
        return self._view(x)

    def _view(self, player) -> dict:
        v = player.view
        self._ensure_pct(v)
        return v

    def _look_at_leaders(self, mine: list[dict]) -> None:
        """Note our leaders on the map (``mine``: our stacks; the events then tell us of each one
        we lose)."""
        lead = self._facts().leader
        self._leaders = {u for s in mine for u in s["units"] if u in lead}

    def _index_of(self, view: dict) -> Index:
        if self._ix is not None and self._ix[0] is view:
            return self._ix[1]
        ix = Index(view, self._facts(), whole=True)       # (the view's stacks read when first asked for)
        self._ix = (view, ix)
        return ix

    def _index(self, player) -> Index:
        return self._index_of(self._view(player))

    def _facts(self) -> Facts:
        f, p = self._f, self.p
        if f is not None and (p is None or p is self._f_p):
            return f
        if p is not None:
            if f is None or f.data is not p.data:
                f = Facts.of(p.data)
            self._f_p = p                  # (a Player's data never change)
        else:
            from rcw.data import full

            f = Facts.of(full())               # (every counter a game may hold: 001's optional forces too)
        self._f = f
        return f

    def unanswered_gifts(self, view: dict) -> list[A.WithdrawTrade]:
        """The withdrawal of each gift of ours still open (to a player who has not answered, a
        human away): a gift is made for its Game-Turn (the SDT's, a purge's), and is withdrawn
        when the bot's next Movement Phase begins, so that the player is not left a pile of
        offers for turns gone by (a bot accepts a gift at once: between bots there is none)."""
        me = self.seat
        return [A.WithdrawTrade(me, o["id"]) for o in view["offers"] if o["from"] == me and is_gift(o)]

    def _ok(self, a: A.Action) -> bool:
        """One rule check of ``a`` (remembered, so that :meth:`choose` does not check it again)."""
        if self.p.is_legal(a):
            self._last_ok = a
            return True
        return False

    def _found_legal(self, a: A.Action) -> bool:
        """Whether :meth:`_ok` found ``a`` (or an action equal to it) legal last."""
        last = self._last_ok
        return a is last or (type(a) is type(last) and a == last)

    def _col(self, att: int, dfn: int) -> int | None:
        """The odds column of ``att`` against ``dfn`` (the engine's ``odds_of``, asked once per data)."""
        cols = self._facts().cols
        key = (att, dfn)
        c = cols.get(key, cols)            # (the dict itself: not asked yet; a column may be None)
        if c is cols:
            c = cols[key] = self.p.odds_of(att, dfn)["column"]
        return c

    def hostile(self, a: str, b: str) -> bool:
        key = (a, b)
        h = self._hostile.get(key)
        if h is None:
            h = self._hostile[key] = bool(a and b) and self.p.hostile(a, b)
        return h

    def _attackers(self, st: Stk) -> list[int]:
        """The engine's ``attack_units`` of a stack (kept on its Stk, :attr:`Stk.attackers`)."""
        units = st.attackers
        if units is None:
            units = st.attackers = self.p.attack_units(st.id)
        return units

    def _att(self, st: Stk) -> int:
        """The attack strength of a stack as the engine counts its attacking units (cached per plan)."""
        cache = self.plan.att if self.plan is not None else {}
        v = cache.get(st.id)
        if v is None:
            strength = self._facts().strength
            v = cache[st.id] = sum(map(strength.__getitem__, self._attackers(st)))
        return v

    def _room(self, lead: int) -> int:
        """The engine's ``capacity(lead)["room"]`` (asked once per plan)."""
        cache = self.plan.room if self.plan is not None else {}
        v = cache.get(lead)
        if v is None:
            v = cache[lead] = self.p.capacity(lead)["room"]
        return v

    def _dfn(self, st: Stk) -> int:
        """The engine's ``defense`` of a stack (cached per plan, and kept on its Stk, :attr:`Stk.dfn`)."""
        cache = self.plan.dfn if self.plan is not None else {}
        v = cache.get(st.id)
        if v is None:
            v = st.dfn
            if v is None:
                v = st.dfn = self.p.defense(st.id)
            cache[st.id] = v
        return v

    def _my_kind(self, player) -> str | None:
        for p in player.pending:
            if p["seat"] == self.seat:
                return p["kind"]
        return None

    # -- the PCT ------------------------------------------------------------------------------------------
    def _ensure_pct(self, view: dict) -> None:
        """A table that saw neither the deal nor the game from its start (an agent used on its
        own, on a position set up by hand) is set up from the leaders on the map."""
        t = self.table
        if t.started or view["phase"] == "trading":
            return
        t.start_from_map(view["seats"], view["stacks"], self._facts().data)

    def observe(self, events) -> None:
        """The events of an action the match applied: our leaders lost, offers made to us, the
        start of our Player-Turn (a new plan), and Committee news for :meth:`react` (and the
        PCT shifts, when we keep a table of our own: else the match shows them to the game's
        table once)."""
        if self._own_table:
            self.table.observe(events)
            if self._version is not None:
                self._version += 1             # (one call per action applied)
        if not self._observing:
            self._observing = True
            self._offer_news = True
        for e in events:
            k = e.kind
            if k not in OBSERVED:              # (another event of an action shown to us)
                continue
            if k in PHASE_NEWS:
                if self._phasing is None or self._consenting or self._not_live:
                    self._committee_news(k, e.data)     # (a phase event is news only in those cases)
                continue
            d = e.data
            if k == "eliminated":
                if self._leaders:
                    self._leaders.discard(d.get("unit"))
            elif k in POLITICAL:
                self._committee_news(k, d)
                if k == "committee_consent" and d.get("seat") in self.talk.humans \
                        and self.seat in (d.get("members") or ()):
                    if self.politics.called_by_another(d["seat"], d["members"]):
                        self.talk.joined_call(d["members"])
                    else:
                        self.talk.proposed(d["members"])
                        self._pol_dirty = True     # a human's proposal to us: answered with a reason
                if k != "committee" and d.get("rest") and self.talk.joined:
                    self.talk.left(d["seat"], d["rest"])      # (a Committee's members regrouped, 004 [11.12])
            elif k == "player_turn":
                self._phasing, self._turn = d.get("seat"), d.get("turn", self._turn)
                self.politics.track(k, d)
                if d.get("seat") == self.seat:
                    self.plan, self.cur = None, None
                if self._phasing is None or self._consenting or self._not_live:
                    self._committee_news(k, d)
            elif k == "spoil":
                if self._leaders and d.get("from") == self.seat:
                    self._leaders.discard(d.get("leader"))
            elif k == "trade_offered":
                if d.get("to") == self.seat:
                    self._offer_news = True
            elif k == "trade":
                o = d.get("offer") or {}
                f, t = o.get("from"), o.get("to")
                if self.seat in (f, t) and (o.get("give_leaders") or o.get("take_leaders")):
                    self._leaders = None

    def _committee_news(self, k: str, d: dict) -> None:
        """Whether an event may change what :meth:`react` answers (PoliticsAdapter.react):
        a proposal to us by the phasing player or of our counter-committee, the forming of our
        counter-committee, a withdrawal by the phasing player (our consent goes stale, or a
        counter-committee may form) and, while we consent, the end of the phasing player's
        Movement Phase (a consent to withdraw)."""
        me, ph = self.seat, self._phasing
        if k in POLITICAL:
            self.politics.track(k, d)
            if k != "committee" and d.get("seat") == me:      # our own consent given or withdrawn
                self._consenting = k == "committee_consent"
                return
        if ph is None:
            self._pol_dirty = True
        elif k == "committee_consent":
            if me not in (d.get("members") or ()):
                return
            cc = self.politics.pending_counter(ph, self._turn)
            if cc is not None and d.get("seat") == cc.convener:
                self._pol_dirty = True             # the new Committee's convener calls us
            elif d.get("seat") == ph and self.politics.willing.get((ph, self._turn)) is not False:
                self._pol_dirty = True             # (once we refused ph this turn, its proposals are not ours)
        elif k == "committee_leave":
            if d.get("seat") == ph:
                self._pol_dirty = True
        elif k == "committee":
            cc = self.politics.pending_counter(ph, self._turn)
            if cc is not None and cc.convener == me and (members := list(d.get("members") or ())) \
                    and members == cc.members:
                self._pol_dirty = True             # our counter-committee formed: we declare its purge
        elif k == "random_event":
            if self._not_live:
                self._pol_dirty = True
        elif self._consenting or self._not_live:
            self._pol_dirty = True

    # -- the calls of the match loop ----------------------------------------------------------------------
    def _catch_up(self, player) -> None:
        """What the events told us (our leaders, Committee news, offers made to us) holds only if
        the match showed us every action: when the game moved on by actions we were not shown
        (a server's driver stopped and resumed, a replica rebuilt), look again at everything."""
        v = player.version
        seen = self._shown()
        if v != seen:
            if seen is not None or self._observing:
                self._leaders = None
                self._pol_dirty = True
                self._offer_news = True
            self._version = v
            if not self._own_table:
                self._observing = False        # (until the match shows us events again)

    def _shown(self) -> int | None:
        """The game's version as the actions the match showed us have brought it: the game's
        table's (the match shows it every action, and us those with an event we need,
        :attr:`observe_kinds`) once the match shows us events; else our own count."""
        if self._observing and not self._own_table:
            return self.table.version
        return self._version

    @checked                               # (a step we found in player.legal, or a Wait)
    @told
    def choose(self, player, kind: str | None = None, version: int | None = None) -> A.Action:
        """Our step; ``kind`` and ``version``: what our entry in ``player.pending`` asks for and
        the game's version, when the match tells them (read from the player otherwise)."""
        self.p = player
        self._last_ok = None
        if version is None:
            version, kind = player.version, self._my_kind(player)
        if version != (self.table.version if self._observing and not self._own_table else self._version):
            self._catch_up(player)                 # (the version :meth:`_shown` says, inlined)
        try:
            act = self._choose(player, kind)
        except Exception as e:  # never let a planning bug become an illegal move
            self.note(f"planning error ({type(e).__name__}: {e}); falling back")
            self.plan = None
            self.cur = None
            act = None
        if isinstance(act, Wait):
            return act                         # (for the humans invited to a Committee)
        last = self._last_ok
        if act is None or not (act is last or (last is not None and self._found_legal(act)) or player.is_legal(act)):
            act = self.fallback(player)
        if self.talk.humans:                   # (only a step toward a human seat has a card)
            self.talk.stepped(player, act)
        return act

    @checked                               # (an answer we found legal, or None)
    def react(self, player) -> A.Action | None:
        """Out of turn (the match asks every bot seat when offers or Committee proposals are
        open): answer offers, proposals and the counter-committee; None to do nothing."""
        self.p = player
        self._last_ok = None
        if player.version != (self.table.version if self._observing and not self._own_table else self._version):
            self._catch_up(player)                 # (as in :meth:`choose`)
        if self._observing and not (self._pol_dirty or self._offer_news or self.talk.queue):
            return None                    # no offer, no counter-offer, no Committee news since we last looked
        try:
            act = self._offer_answer(player)
            if act is None:
                if self._observing and not self._pol_dirty:
                    return None            # no Committee news for us since we last looked
                self._pol_dirty = False
                view = self._view(player)
                cons = view["committee_consent"]
                self._consenting = self.seat in cons
                ph = view["phasing"]
                self._not_live = ph in cons and self.seat in cons[ph] and view["phase"] != "movement"
                act = self.politics.react(view)
                self.talk.committee_replies(view, act)
        except Exception as e:
            self.note(f"politics error ({type(e).__name__}: {e})")
            return None
        if act is None or not (act is self._last_ok or self._found_legal(act) or player.is_legal(act)):
            return None
        return act

    def fallback(self, player) -> A.Action:
        """A safe step when the plan has none (or the engine refused it): the first of the
        phase-ending steps the engine allows, else any step but the political ones."""
        self.p = player
        me = self.seat
        for name in SAFE_DEFAULTS:
            if name == "DeclineTrade":
                cands = [A.DeclineTrade(me, o["id"]) for o in player.offers() if o.get("to") == me]
            else:
                cands = [getattr(A, name)(me)]
            for a in cands:
                if player.is_legal(a):
                    return a
        legal = list(player.legal)                # rare: nothing safe is open
        ok = [a for a in legal if a.TYPE not in NEVER] or [a for a in legal if a.TYPE != "Quit"]
        return ok[0] if ok else legal[0]

    # -- offers -------------------------------------------------------------------------------------------
    def _offer_answer(self, player) -> A.Action | None:
        """The answer to the first offer made to us that may be answered now: gifts are
        accepted, everything else declined (the PCT shift comes with the trade event).  While
        the match shows us the events, the offers are looked at only when one was made to us
        since we last found none."""
        if self.talk.queue:
            act = self.talk.queued(player)     # a counter-offer of ours
            if act is not None:
                return act
        if self._observing and not self._offer_news:
            return None
        mine = sorted((o for o in player.offers() if o.get("to") == self.seat), key=lambda o: o["id"])
        self._offer_news = bool(mine)
        for o in mine:
            act = self.talk.answer_offer(player, o)       # bots.negotiation: the valuation rule
            if self._ok(act):
                return act
        return None

    # -- one decision -------------------------------------------------------------------------------------
    def _choose(self, player, kind: str | None) -> A.Action | None:
        me = self.seat
        if self._offer_news or not self._observing:
            act = self._offer_answer(player)                  # offers to us first
            if act is not None:
                return act
        if kind == "force" or kind == "movement":            # (most steps)
            plan = self.plan
            if plan is None:
                plan = self.plan = self.make_plan(player)
            elif kind == "force" and plan.politics_done and not plan.pre:     # (most of them: a force moving)
                return self._force_step() if self.cur is not None else self.acts.EndForce
            return self._movement_step(player, kind)
        if kind is None:
            return None
        if kind == "trading":
            if self._own_table and not self.table.started:     # (the game's table saw the deal)
                self.table.note_hands(player.view.get("hands", {}))
                if self.table.data is None:
                    self.table.data = player.data
            a = self.acts.EndTrading
            return a if self._ok(a) else None
        if kind in ("purge_approval", "purge_orders"):
            # Purge Cooperation: a member agrees to the Committee's purge; an individual purge
            # is the phasing player's, so the others pass.  (The engine lists both answers to
            # its question; one check in a pending decision would list every answer anyway.)
            act = A.ApprovePurge(me, True) if kind == "purge_approval" else self.acts.PassPurge
            if kind == "purge_approval" and (self.talk.humans or self.table.pacts):
                act = self.talk.purge_answer(self._view(player), act)
            self._last_ok = act
            return act
        if kind not in PHASES:
            view = self._view(player)
            return self._decide(player, view, kind, view["decision"] or {})
        if kind == "random_events":
            self.plan = None
            self.cur = None
            # Non-Attack Policy 10.  A leader of ours stays ours unless an event says it was
            # eliminated or taken, so while the events we saw leave us one, we control units
            # and need not look at the map.
            if not (self._observing and self._leaders):
                view = self._view(player)
                mine = player.stacks_of()               # (our stacks: not the whole map)
                self._look_at_leaders(mine)
                if view["turn"] > 1 and not controls_any(mine, me, self._facts()) and self._ok(A.Quit(me)):
                    self.note("controls no units and leaves the game (Non-Attack Policy 10)")
                    return A.Quit(me)
            return self.acts.RollRandomEvents
        if kind in ("combat", "attack"):
            if self.plan is None:
                return None
            return self._combat_step(player, kind)
        if kind == "randomizer":
            # After the draw the Player-Turn stays open only for assassinations (004 [4.2],
            # [10.0]); the bot assassinates in its Combat Phase (above), so it ends the turn.
            # A bonus draw (001 Additional Randomizer Draws: both steps open) is the bot's choice,
            # made as the redraw of 004 [12.13] is (:meth:`_draw_again`).
            # (our choice first: ending the turn is asked about only when we would end it, as it
            # is not open before the draw that the turn's first step makes)
            a = self.acts.DrawRandomizer
            end = self.acts.EndPlayerTurn
            if not (player.may_draw() and self._ok(a)):
                return end
            if not self._draw_again(self._view(player)) and self._ok(end):
                self.note("keeps to the draws made: its Blue forces' Withdrawal Markers are a third of the cup")
                return end
            return a
        return None

    # -- decisions out of turn ---------------------------------------------------------------
    def _decide(self, player, view: dict, kind: str, d: dict) -> A.Action | None:
        if kind == "loss":
            return self._choose_loss(player, view, d)
        if kind == "capture":
            caps = [a for a in player.legal if isinstance(a, A.CaptureImperial)]     # a rare decision
            return caps[0] if caps else None           # (listed: legal)
        if kind == "vote":
            red = self.pit(view)[3] == RED
            return A.VoteEndGame(self.seat, red)
        if kind == "redraw":
            return self._redraw(view)
        if kind == "place":
            return self._place(player, view, d)
        act = self.politics.decide(view, d)
        self.talk.explain(view, d, act)
        return act

    def _redraw(self, view: dict) -> A.Action:
        """004 [12.13]: keep the marker of a vanished Blue force, or draw again?  Our policy (the
        article has none): draw again (:meth:`_draw_again`)."""
        return A.RedrawChit(self.seat, self._draw_again(view))

    def _draw_again(self, view: dict) -> bool:
        """Whether to draw another chit when the draw is ours to choose (the redraw of 004 [12.13],
        the bonus draws of 001 Additional Randomizer Draws).  Our policy (the article has none):
        draw, since a new chit is an Assassin Marker or command of units far more often than it
        hurts (and a marker kept instead is worth nothing: no units to command, no Victory Points,
        004 [14.47]); unless the Withdrawal Markers of Blue forces we command on the map make a
        third or more of the chits left (the engine says which markers are still in the cup,
        ``withdrawal_markers_left``, 004 [5.67]; the Freikorps' Out Marker is one, 001): then we
        stop, rather than risk losing them.  (The map is read only when those forces could make a
        third.)"""
        left = view["randomizer"]
        if not left:
            return True
        me = self.seat
        ours = {nat for nat, p in view["control"].items() if p == me}
        if not ours:
            return True
        watch = ours.intersection(self.p.withdrawal_markers_left())
        if 3 * len(watch) < left:                  # (fewer than a third even if all are on the map)
            return True
        units = self._facts().data.units
        at_risk = {units[u].nationality for s in view["stacks"] for u in s["units"]
                   if units[u].color == BLUE and units[u].nationality in watch}
        return 3 * len(at_risk) < left

    def _place(self, player, view: dict, d: dict) -> A.Action | None:
        """Where a unit drawn from the Randomizer goes (001's optional forces; ours, by the spirit
        of the tables, which know no such units):

        * a Shock Army (with a leader): with one of our own leaders of its colour, the one whose
          stack attacks strongest ("joins our strongest stack", Non-Attack Policy 5), else with a
          leader of the friendliest player (PCT) who has one;
        * an Anarchist unit or the Freikorps (in a province): where it can attack at once the
          weakest stack of a colour our PIT colour fights (White for a Red player, Red for a White
          one, either for an Undecided one; Red for the Blue Freikorps, 004 [8.15]) that another
          player controls, at the best odds, 1:1 at least; with none, an Anarchist goes to
          Siberia, where it stands in no one's way to victory (001 "Anarchy versus Order"), and
          the Freikorps to the first province offered."""
        f = self._facts()
        me = self.seat
        opts = [a for a in player.legal if isinstance(a, A.PlaceUnit)]           # a rare decision
        if not opts:
            return None
        ix = self._index_of(view)
        uid = d.get("unit")
        if d.get("leaders"):
            order = self.friendliness(view)

            def rank(a: A.PlaceUnit) -> tuple:
                st = ix.stack_of(a.leader)
                owner = st.owner if st else None
                who = 0 if owner == me else 1 + (order.index(owner) if owner in order else len(order))
                return who, -(self._att(st) if st else 0), a.leader

            return min(opts, key=rank)
        color = self.pit(view)[3]
        enemy = (RED,) if f.color.get(uid) == BLUE else {RED: (WHITE,), WHITE: (RED,)}.get(color, (RED, WHITE))
        allowed = {a.province: a for a in opts}
        strength = f.strength.get(uid, 0)
        best = None
        for st in ix.stacks:
            if st.province not in allowed or st.owner in (None, me) or st.color not in enemy or not st.fighting:
                continue
            dfn = self._dfn(st)
            c = self._col(strength, dfn)
            if c is None or c < 1:
                continue
            key = (-c, dfn, st.province)
            if best is None or key < best[0]:
                best = (key, st.province)
        if best is not None:
            return allowed[best[1]]
        far = sorted(p for p in allowed if f.data.provinces[p].region == SIBERIA)
        return allowed[far[0]] if far and f.color.get(uid) == ANARCHIST else opts[0]

    def _choose_loss(self, player, view: dict, d: dict) -> A.Action | None:
        """Non-Attack Policy 9: "Whenever exchanges occur, losses should be taken from combat
        units, not leaders."  Our rule: the smallest combat unit that covers what is still
        owed, else the largest combat unit; leaders only when no combat unit is left.  When
        the losing units are not ours (an uncontrolled defender, 004 [8.46]) we take the
        leaders and largest units first."""
        f = self._facts()
        me = self.seat
        opts = [A.ChooseLoss(me, u) for u in dict.fromkeys(d.get("units") or ())]     # (the decision's units)
        if not opts:
            return None
        need = d.get("need", 0)
        held = {}                                  # unit -> the owner of its stack (not the whole map)
        for a in opts:
            if a.unit not in held:
                st = player.stack_holding(a.unit)
                if st is not None:
                    for u in st["units"]:
                        held[u] = st["owner"]
        ours = all(held.get(a.unit) == me for a in opts)
        if not ours:
            return max(opts, key=lambda a: (a.unit in f.leader, f.strength[a.unit], -a.unit))
        combat = [a for a in opts if a.unit in f.combat]
        pool = combat or opts
        cover = [a for a in pool if f.strength[a.unit] >= need]
        if cover:
            return min(cover, key=lambda a: (f.strength[a.unit], a.unit))
        return max(pool, key=lambda a: (f.strength[a.unit], -a.unit))

    # -- planning ----------------------------------------------------------------------------------
    def make_plan(self, player) -> TurnPlan:
        """The Player-Turn's plan, made when the Movement Phase opens."""
        self.p = player
        view = self._view(player)
        me = self.seat
        f = self._facts()
        ix = self._index_of(view)
        pcm, color = self._pit_of(ix, view["turn"])
        roll = self.die()
        row = T.SDT[roll]
        plan = TurnPlan(view["turn"], row, color)
        plan.nls = bool(view["options"].get("no_leader_suicide"))
        plan.pre = self.unanswered_gifts(view)
        if plan.pre:
            self.note(f"withdraws its unanswered gift{'s' if len(plan.pre) > 1 else ''} of an earlier Game-Turn")
        self.plan = plan
        self.politics.reset()
        order = self.friendliness(view)
        czar_holder, gold_holder = ix.holder(f.czar), ix.holder(f.gold)
        if row.vindictive:
            while True:
                r2 = self.die()
                res = T.VST[r2]
                if not T.vst_needs_reroll(res, me, czar_holder, gold_holder):
                    break
            plan.vst = res
            plan.vst_target = T.vst_target(res, order, czar_holder, gold_holder)
            self.note(f"rolls 6 on the Strategy Determination Table, then {r2} on the Vindictive Strategy Table: "
                      f"attack the {res} player ({plan.vst_target}), 3 attacks at 1-1 or better")
            if plan.vst_target is not None and self.talk.spares(plan.vst_target):
                # (a pact of ours: no attack on the partner, whatever the table says; QA saw a bot
                # attack the Czar's holder it had a pact with)
                self.note(f"keeps its pact with {plan.vst_target}: no attack on it")
                plan.vst_target = None
        else:
            self.note(f"is {color} (PCM {pcm}); rolls {roll} on the Strategy Determination Table: "
                      f"{row.attacks} attack{'s' if row.attacks > 1 else ''} at {row.min_odds}-1 or better"
                      + (", a purge" if row.purge else "") + (", an assassination" if row.assassination else ""))
        if row.gift_assassin and view["assassins"].get(me, 0) > 0 and len(order) >= 2:
            to = order[1]
            plan.pre.append(A.OfferTrade(me, to, give_assassins=1))
            self.note(f"gives an Assassin marker to {to}, its 2nd friendliest player{_of_two(order)} (SDT roll 1)")
        plan.purge = row.purge
        plan.assassinate = row.assassination and view["assassins"].get(me, 0) > 0
        if color == RED and czar_holder == me and view["turn"] > 1:
            st = ix.stack_of(f.czar)
            lead = st.attached.get(f.czar) if st else 0
            if lead and f.color[lead] == RED:
                plan.execute_czar = True
        forces = self._forces(ix)
        self._rank_cache = self._free_last = self._bounds_last = None
        used: set[int] = set()
        if plan.vst:
            self._plan_vst(view, ix, plan, forces, used)
        else:
            self._plan_apt(view, ix, plan, forces, used)
        if plan.assassinate:
            self._plan_assassination(view, ix, plan, forces, used)
        if plan.attacks:
            self._raise_odds(view, ix, plan, forces, used)
        self._plan_non_attack(view, ix, plan, forces, used)
        self.talk.intent(view, plan, ix)
        return plan

    def _forces(self, ix: Index) -> list[Force]:
        me, f, p = self.seat, self._facts(), self.p
        strength = f.strength
        weigh = strength.__getitem__           # (a unit's printed strength)
        att_cache = self.plan.att if self.plan is not None else {}
        out = []
        reserved: set[int] = set()
        for st in sorted(ix.mine(me), key=attrgetter("id")):
            if st.leaders:
                attacking = self._attackers(st)
                att_cache[st.id] = sum(map(weigh, attacking))      # (what _att would ask)
                attacking = set(attacking)
                for lead in st.leaders:
                    with_him = st.attached_to(lead)
                    att = [u for u in with_him if u in attacking]
                    units = [lead] + att
                    esc = f.czar in with_him or f.gold in with_him
                    fc = Force(lead, st.id, st.province, f.color[lead], sum(map(weigh, units)), True, esc, units)
                    loose = self._loose(ix, st.province, fc.color, reserved)
                    room = self._room(lead) if loose else 0
                    for u in loose:
                        if room <= 0:
                            break
                        fc.pickups.append(u)
                        reserved.add(u)
                        fc.strength += f.strength[u]
                        room -= 1
                    out.append(fc)
            else:
                first = st.units[0]
                if first in f.combat and f.color[first] in (BLUE, GREEN, ANARCHIST) and p.is_legal(self.acts.start(first)):
                    units = self._attackers(st)      # (a stack that may not move, e.g. 004 [5.62], is no force)
                    n = att_cache[st.id] = sum(map(weigh, units))
                    out.append(Force(first, st.id, st.province, st.color, n, False, st.imperial, list(units)))
        return out

    def _loose_map(self, ix: Index, color: str) -> dict[str, list[int]]:
        """Province -> the combat units of ``color`` there, in no other player's stack and led by
        no one (strongest first): read once per view and colour (only our leaders' colours are
        asked for, not the many Blue and Green units left on the map)."""
        key = ("loose", self.seat, color)
        out = ix.memo.get(key)
        if out is None:
            f = self._facts()
            colors, me = f.color, self.seat
            out = {}
            for st in ix.stacks:
                if st.loose and (st.owner is None or st.owner == me):
                    for u in st.loose:
                        if colors[u] == color:
                            out.setdefault(st.province, []).append(u)
            strength = f.strength
            for us in out.values():
                if len(us) > 1:
                    us.sort(key=lambda u: (-strength[u], u))
            ix.memo[key] = out
        return out

    def _loose(self, ix: Index, province: str, color: str, reserved: set[int]) -> list[int]:
        """Combat units of ``color`` in ``province``, in no other player's stack and led by no
        one, that a leader of ours would pick up (strongest first); the engine rules on each
        Attach when it is made."""
        here = self._loose_map(ix, color).get(province)
        return [u for u in here if u not in reserved] if here else []       # (mostly none)

    def _reach(self, fc: Force) -> dict:
        """The engine's reach of a force this Movement Phase (asked at most once per force and plan),
        and the provinces in it as a set of bits (:attr:`Force.reached`, what the attack search reads)."""
        if fc.reach is None:
            r = fc.reach = self.p.reach(fc.lead)
            fc.reached = r.bits
        return fc.reach

    def _targets(self, ix: Index, target_color: str, plan: TurnPlan, owner: str | None = None,
                 any_owner: bool = False) -> list[Stk]:
        me = self.seat
        out = []
        pacts = bool(self.table.pacts)
        for st in ix.stacks:
            if not st.fighting or (target_color and st.color != target_color):
                continue
            if owner is not None and st.owner != owner:
                continue
            if pacts and self.talk.spares(st.owner):
                continue                       # a pact of ours (bots.negotiation)
            if st.owner == me and not any_owner:
                if plan.color == T.UNDECIDED or st.color == plan.color or \
                        (st.color == ANARCHIST and plan.turn < T.ANARCHY_TURN):
                    continue
            out.append(st)
        return out

    def _ranked(self, forces: list[Force], color: str) -> Sequence[Force]:
        """The forces of ``color``, strongest first (then by leader), for every colour at once
        when first asked of ``forces``."""
        got = self._rank_cache
        if got is None or got[0] is not forces:
            by_color: dict[str, list[Force]] = {}
            for fc in sorted(forces, key=lambda fc: (-fc.strength, fc.lead)):
                ranked = by_color.get(fc.color)
                if ranked is None:
                    by_color[fc.color] = [fc]
                else:
                    ranked.append(fc)
            got = self._rank_cache = (forces, by_color)
        return got[1].get(color, ())

    def _free(self, forces: list[Force], colors: tuple[str, ...], used: set[int]) -> dict[str, Free]:
        """The free forces (not in ``used``) of each colour of ``colors`` (:class:`Free`), by colour
        (a colour not asked for may be there too): each colour's is kept while ``used`` (which only
        grows within a plan) stays as it was, for the targets one search tries and the searches
        that follow until a force is used (:meth:`_plan_apt`, :meth:`_best_target`, :meth:`_try`)."""
        last = self._free_last
        if last is None or last[0] is not forces or last[1] is not used or last[2] != len(used):
            last = self._free_last = (forces, used, len(used), {})
        out = last[3]
        for color in colors:
            if color in out:
                continue
            plain: list[Force] = []
            escorts: list[Force] = []
            total = 0
            by_stack: dict[int, int] = {}
            for fc in self._ranked(forces, color):
                if fc.lead not in used:
                    (escorts if fc.escort else plain).append(fc)
                    n = fc.strength
                    total += n
                    sid = fc.stack
                    by_stack[sid] = by_stack.get(sid, 0) + n
            if escorts:
                plain_total = sum(fc.strength for fc in plain)
                plain_by_stack: dict[int, int] = {}
                for fc in plain:
                    plain_by_stack[fc.stack] = plain_by_stack.get(fc.stack, 0) + fc.strength
            else:
                plain_total, plain_by_stack = total, by_stack
            out[color] = Free(plain, escorts, total, by_stack, plain_total, plain_by_stack)
        return out

    def _try(self, ix: Index, t: Stk, colors: tuple[str, ...], forces: list[Force], used: set[int],
             min_col: int, free: dict[str, Free] | None = None,
             dfn: int | None = None) -> tuple[int, list[Force], str, dict | None] | None:
        """Greedy: the forces of one colour that reach ``t`` with the best odds at or above
        ``min_col`` (:meth:`_try_color_now` for each colour of ``colors`` hostile to the target;
        the best odds, then the fewest forces, then the first colour).  Returns (odds column,
        forces, their colour, None), or for a Subversive Attack (Red on Blue, preferred when it
        reaches the odds) (column, forces, Red, the provinces next to the target) at once (where
        each force goes, :meth:`_post`, is worked out when the attack is assigned).

        Within one plan the forces only get used up, so an attack found impossible stays so,
        and an attack found stays the same while none of its forces is used: both are kept
        (``TurnPlan.tries``, by target, colour and odds) and not worked out again.  ``free`` and
        ``dfn``: :meth:`_free` of ``colors`` and the target's defense, when the caller has them
        (else asked when first needed)."""
        plan = self.plan
        memo = plan.tries if plan is not None else {}
        best = None
        tc, tid = t.color, t.id
        hostile = self._hostile              # (self.hostile's answers so far)
        for color in colors:
            h = hostile.get((color, tc))
            if not (h or h is None and self.hostile(color, tc)):
                continue
            key = (tid, color, min_col)
            got = memo.get(key, memo)            # (memo itself: not worked out yet)
            if got is memo or (got is not None and any(fc.lead in used for fc in got[1])):
                if free is None:
                    free = self._free(forces, colors, used)
                if dfn is None:
                    dfn = self._dfn(t)
                got = memo[key] = self._try_color_now(ix, t, color, forces, used, min_col, free[color], dfn)
            if got is None:
                continue
            if got[3] is not None:
                return got
            if best is None or (got[0], -len(got[1])) > (best[0], -len(best[1])):
                best = got
        return best

    def _try_color_now(self, ix: Index, t: Stk, color: str, forces: list[Force], used: set[int],
                       min_col: int, free: Free, dfn: int) -> tuple[int, list[Force], str, dict | None] | None:
        """The attack of the forces of ``color`` on ``t`` (see :meth:`_try`; ``free``: the free
        forces of ``color``; ``dfn``: the target's defense): a Subversive Attack if Red on Blue reaches the odds, else the
        forces taken in order (those in the province, then those that reach it, each group
        strongest first; escorts only when the others fall short, and then only at
        ESCORT_MIN_ODDS) until the odds are reached.  A stronger attack never has worse odds
        than a weaker one against the same defender, so when even all the forces of the colour
        together, wherever they stand, fall short, no force's reach is asked, and the walk stops
        (asking no more reaches) once those chosen and those not yet come to fall short."""
        if color == ANARCHIST:
            return self._try_alone(t, forces, used, min_col, dfn)
        if color == RED and t.color == BLUE:
            sub = self._try_subversive(ix, t, forces, used, min_col, dfn)
            if sub is not None:
                return sub
        tp, tid = t.province, t.id
        f = self._facts()
        cols = f.cols                        # (the odds asked so far: _col)
        col_of = self._col
        plain = free.plain                   # (a force elsewhere is never in the target's stack)
        up_plain = free.plain_total - free.plain_by_stack.get(tid, 0)
        esc: list[Force] = []                # the escorts that may join if the others fall short
        if free.escorts:
            le, fe, up_esc = _around(free.escorts, tid, tp)      # the escorts in the province, elsewhere
            if le or fe:
                c = col_of(up_plain + up_esc, dfn)
                if c is not None and c >= max(min_col, T.ESCORT_MIN_ODDS):
                    esc = le + fe
        goal = None                          # the odds the others alone reach, if they may (else all walk)
        if plain:
            c = cols.get((up_plain, dfn), cols)
            if c is cols:
                c = col_of(up_plain, dfn)
            if c is not None and c >= min_col:
                goal = min_col
        if goal is None and not esc:
            return None
        chosen: list[Force] = []
        att = 0
        for fc in plain:                     # those in the province first,
            if fc.province == tp and fc.stack != tid:
                chosen.append(fc)
                att += fc.strength
                if goal is not None:
                    c = col_of(att, dfn)
                    if c is not None and c >= goal:
                        return c, chosen, color, None
        tb = f.data.bit[tp]
        bound = up_plain                     # (the strength of those chosen and those not yet come to)
        for fc in plain:                     # then those that reach it
            if fc.province != tp:
                if fc.reach is None:
                    self._reach(fc)
                if not fc.reached & tb:
                    if not esc:
                        bound -= fc.strength
                        c = cols.get((bound, dfn), cols)
                        if c is cols:
                            c = col_of(bound, dfn)
                        if c is None or c < goal:
                            return None
                    continue
                chosen.append(fc)
                att += fc.strength
                if goal is not None:
                    c = cols.get((att, dfn), cols)
                    if c is cols:
                        c = col_of(att, dfn)
                    if c is not None and c >= goal:
                        return c, chosen, color, None
        need = max(min_col, T.ESCORT_MIN_ODDS)
        for fc in esc:
            if fc.province != tp:
                if fc.reach is None:
                    self._reach(fc)
                if not fc.reached & tb:
                    continue
            chosen.append(fc)
            att += fc.strength
            c = col_of(att, dfn)
            if c is not None and c >= need:
                return c, chosen, color, None
        return None

    def _try_alone(self, t: Stk, forces: list[Force], used: set[int], min_col: int,
                   dfn: int) -> tuple[int, list[Force], str, dict | None] | None:
        """An Anarchist force attacks alone (001 Anarchists: hostile to all, each other too): the
        strongest free one that reaches ``t`` at ``min_col`` or better, one already there first."""
        tp, tid = t.province, t.id
        ranked = [fc for fc in self._ranked(forces, ANARCHIST) if fc.lead not in used and fc.stack != tid]
        for fc in [fc for fc in ranked if fc.province == tp] + [fc for fc in ranked if fc.province != tp]:
            if fc.province != tp and tp not in self._reach(fc):
                continue
            c = self._col(fc.strength, dfn)
            if c is not None and c >= min_col:
                return c, [fc], ANARCHIST, None
        return None

    def _subversion_posts(self, province: str) -> frozenset[str]:
        """Provinces next to ``province`` (the map, :attr:`Facts.adjacent`; as a set of bits,
        :attr:`Facts.adjacent_bits`), where Red forces would stand to attack Blue units there
        subversively; the engine judges each border when the attack is made."""
        return self._facts().adjacent[province]

    def _sub_strength(self, fc: Force) -> int:
        if fc.sub_strength is None:
            fc.sub_strength = self.p.attack_strength(fc.units + fc.pickups, True)
        return fc.sub_strength

    def _try_subversive(self, ix: Index, t: Stk, forces: list[Force], used: set[int], min_col: int,
                        dfn: int) -> tuple[int, list[Force], str, frozenset[str]] | None:
        """Red forces already in, or able to reach, a province adjacent to ``t``: those
        already in place first, then the strongest; each mover goes to the nearest such
        province, preferring one with no units of another colour (where it could itself be
        attacked).  Strength as the engine counts it for a Subversive Attack this Player-Turn
        (doubled on a "Subversive Attacks Doubled" turn, 004 [12.12]).  (As in :meth:`_try_color_now`,
        reach is asked only of the forces the greedy choice comes to, and the walk stops once
        those chosen and those not yet come to fall short.)  ``dfn``: the target's defense."""
        posts = self._subversion_posts(t.province)
        if not posts:
            return None
        post_bits = self._facts().adjacent_bits[t.province]      # (those, as a set of bits, GameData.bit)
        col_of, sub_of = self._col, self._sub_strength
        lp: list[Force] = []
        fp: list[Force] = []
        le: list[Force] = []
        fe: list[Force] = []
        up_plain = up_esc = 0
        for fc in self._ranked(forces, RED):
            if fc.lead in used or not fc.leader:
                continue
            local = fc.province in posts
            if fc.escort:
                (le if local else fe).append(fc)
                up_esc += sub_of(fc)
            else:
                (lp if local else fp).append(fc)
                up_plain += sub_of(fc)
        esc: list[Force] = []                # the escorts that may join if the others fall short
        if le or fe:
            c = col_of(up_plain + up_esc, dfn)
            if c is not None and c >= max(min_col, T.ESCORT_MIN_ODDS):
                esc = le + fe
        goal = None                          # the odds the others alone reach, if they may (else all walk)
        if lp or fp:
            c = col_of(up_plain, dfn)
            if c is not None and c >= min_col:
                goal = min_col
        if goal is None and not esc:
            return None
        chosen: list[Force] = []
        att = 0
        bound = up_plain                     # (the strength of those chosen and those not yet come to)
        for fc in lp + fp:                   # those in place first, then those that reach a post
            if fc.province not in posts:
                if fc.reach is None:
                    self._reach(fc)
                if not fc.reached & post_bits:
                    if not esc:
                        bound -= sub_of(fc)
                        c = col_of(bound, dfn)
                        if c is None or c < goal:
                            return None
                    continue
            chosen.append(fc)
            att += sub_of(fc)
            if goal is not None:
                c = col_of(att, dfn)
                if c is not None and c >= goal:
                    return c, chosen, RED, posts
        need = max(min_col, T.ESCORT_MIN_ODDS)
        for fc in esc:
            if fc.province not in posts:
                if fc.reach is None:
                    self._reach(fc)
                if not fc.reached & post_bits:
                    continue
            chosen.append(fc)
            att += sub_of(fc)
            c = col_of(att, dfn)
            if c is not None and c >= need:
                return c, chosen, RED, posts
        return None

    def _post(self, ix: Index, fc: Force, posts: frozenset[str]) -> str | None:
        """Where a force goes to attack subversively: nowhere if it stands next to the target,
        else the nearest of ``posts`` it reaches, preferring one with no units of another colour."""
        if fc.province in posts:
            return None
        reach = fc.reach if fc.reach is not None else self._reach(fc)
        colors_in = ix.colors_in
        opts = [(any(c != RED for c in colors_in.get(p, ())), p, p) for p in posts if p in reach]
        return _least(opts, reach)[1]

    def _assign(self, ix: Index, plan: TurnPlan, t: Stk, got: tuple, min_col: int,
                consider: bool, used: set[int], label: str) -> None:
        col, chosen, color, posts = got
        sub = posts is not None
        why = (f"to make a Subversive Attack on {t.province} [{label}]" if sub
               else f"to attack in {t.province} [{label}]")
        for fc in chosen:
            used.add(fc.lead)
            dest = self._post(ix, fc, posts) if sub else (t.province if fc.province != t.province else None)
            if dest:
                plan.orders.append(Order(fc.lead, dest, list(fc.pickups), why=why, route=self._reach(fc).get(dest)))
            elif fc.pickups:
                plan.orders.append(Order(fc.lead, None, list(fc.pickups), why=f"picks up units {why}"))
        plan.attacks.append(PlannedAttack(t.id, t.province, color, [fc.lead for fc in chosen], t.owner, min_col,
                                          consider and t.owner not in (None, self.seat), label, sub))

    def _best_target(self, ix: Index, targets: list[Stk], attacked: set[int], colors: tuple[str, ...],
                     forces: list[Force], used: set[int], min_col: int) -> tuple | None:
        """The target whose attack (:meth:`_try`) reaches the highest odds, then the strongest
        target, then the lowest stack id: ((column, defense, -id), target, attack) or None.

        Targets are tried from the best bound down, until no other can do better than the best
        found (the same choice as trying them all, with fewer reaches): a target's bound is
        the odds of every free force of a colour hostile to it together, wherever it stands
        (or, Red on Blue, of the Red leaders' Subversive Attack strength): a stronger attack
        never has worse odds against the same defender.  Within a plan the free forces only
        get fewer, so a bound stays a bound: those of the last search are kept for the next one
        over the same ``targets``, ``colors``, ``min_col``, ``forces`` and ``used`` (a line of the
        APT after an attack is assigned, the VST's attacks), less the targets ``attacked`` since."""
        free = self._free(forces, colors, used)
        last = self._bounds_last
        if last is not None and last[0] is targets and last[1] is forces and last[2] is used \
                and last[3] == min_col and last[4] == colors:
            return self._best_of(ix, [r for r in last[5] if r[3].id not in attacked], colors, forces, used,
                                 min_col, free)
        sub_total = None
        col_of, dfn_of, hostile = self._col, self._dfn, self.hostile
        cols = self._facts().cols
        dfns = self.plan.dfn if self.plan is not None else {}
        against: dict[str, list[tuple]] = {}       # target colour -> for each colour of ours hostile to it:
        #                                            (its free forces' strength, that by stack, Red on Blue)
        ranked = []
        tc = ours = None
        for t in targets:
            tid = t.id
            if tid in attacked:
                continue
            dfn = dfns.get(tid)
            if dfn is None:
                dfn = t.dfn                    # (_dfn, inline: the engine's answer kept on the Stk)
                if dfn is None:
                    dfn = dfn_of(t)
                else:
                    dfns[tid] = dfn
            if t.color != tc:
                tc = t.color
                ours = against.get(tc)
                if ours is None:
                    ours = against[tc] = [(free[c].total, free[c].by_stack, c == RED and tc == BLUE) for c in colors
                                          if hostile(c, tc)]
            ub = min_col - 1                   # (the best column so far: columns are whole numbers)
            for total, by_stack, red_on_blue in ours:
                key = (total - by_stack[tid] if tid in by_stack else total, dfn)
                c = cols.get(key, cols)
                if c is cols:
                    c = col_of(*key)
                if red_on_blue and self._subversion_posts(t.province):
                    if sub_total is None:
                        sub_total = sum(self._sub_strength(fc) for fc in self._ranked(forces, RED)
                                        if fc.lead not in used and fc.leader)
                    c2 = col_of(sub_total, dfn)
                    if c2 is not None and (c is None or c2 > c):
                        c = c2
                if c is not None and c > ub:
                    ub = c
            if ub >= min_col:
                ranked.append((ub, dfn, -tid, t))
        ranked.sort(key=_bound, reverse=True)
        self._bounds_last = (targets, forces, used, min_col, colors, ranked)
        return self._best_of(ix, ranked, colors, forces, used, min_col, free)

    def _best_of(self, ix: Index, ranked: list[tuple], colors: tuple[str, ...], forces: list[Force], used: set[int],
                 min_col: int, free: dict[str, Free]) -> tuple | None:
        """:meth:`_best_target`'s search over the targets ``ranked`` by bound, the best first:
        (bound, defense, -id, target) each."""
        best = None
        best_key = None
        for ub, dfn, neg_id, t in ranked:
            if best_key is not None and (ub, dfn, neg_id) <= best_key:
                break
            got = self._try(ix, t, colors, forces, used, min_col, free, dfn)
            if got is None:
                continue
            key = (got[0], dfn, neg_id)
            if best_key is None or key > best_key:
                best, best_key = (key, t, got), key
        return best

    def _plan_apt(self, view: dict, ix: Index, plan: TurnPlan, forces: list[Force], used: set[int]) -> None:
        row = plan.row
        attacked: set[int] = set()
        targets: dict[str, list[Stk]] = {}
        lines = T.APT[plan.color]
        if self._facts().anarchists:           # 001's Anarchists (bots.sdt_tables.APT_ANARCHISTS)
            lines = tuple(sorted(lines + T.APT_ANARCHISTS[plan.color], key=lambda e: e.priority))
            if plan.turn >= T.ANARCHY_TURN:
                lines = T.APT_ORDER[plan.color] + lines
        for e in lines:
            while len(plan.attacks) < row.attacks:
                free = self._free(forces, (e.units,), used)[e.units]
                if not (free.plain or free.escorts):
                    break                        # no force of that colour left for this line
                if e.target not in targets:
                    targets[e.target] = self._targets(ix, e.target, plan)
                best = self._best_target(ix, targets[e.target], attacked, (e.units,), forces, used, row.min_odds)
                if best is None:
                    break
                _, t, got = best
                attacked.add(t.id)
                self._assign(ix, plan, t, got, row.min_odds, True, used,
                             f"APT priority {'I' * e.priority}: {e.units} vs {e.target}")
            if len(plan.attacks) >= row.attacks:
                break

    def _plan_vst(self, view: dict, ix: Index, plan: TurnPlan, forces: list[Force], used: set[int]) -> None:
        victim = plan.vst_target
        if not victim:
            return
        f = self._facts()
        colors = (RED, WHITE, BLUE, GREEN) + ((ANARCHIST,) if f.anarchists else ())
        attacked: set[int] = set()
        if plan.vst in (T.CZAR, T.GOLD):
            imp = f.czar if plan.vst == T.CZAR else f.gold
            st = ix.stack_of(imp)
            if st is not None and st.owner == victim and st.fighting:
                got = self._try(ix, st, colors, forces, used, T.VST_MIN_ODDS)
                attacked.add(st.id)
                if got:
                    self._assign(ix, plan, st, got, T.VST_MIN_ODDS, False, used, f"VST: the {plan.vst} holder")
        targets = self._targets(ix, "", plan, owner=victim, any_owner=True)
        while len(plan.attacks) < T.VST_ATTACKS:
            best = self._best_target(ix, targets, attacked, colors, forces, used, T.VST_MIN_ODDS)
            if best is None:
                break
            _, t, got = best
            attacked.add(t.id)
            self._assign(ix, plan, t, got, T.VST_MIN_ODDS, False, used, f"VST: {plan.vst} player {victim}")

    def _raise_odds(self, view: dict, ix: Index, plan: TurnPlan, forces: list[Force], used: set[int]) -> None:
        """"Different stacks of units may be combined in order to satisfy the minimum odds.  When
        possible, the highest odds that can be achieved should be used in order to minimize
        combat results of AE or EX."  Once every required attack has its forces at the minimum
        odds (and the assassin its leader), each planned attack in turn takes the free forces of
        its colour that can join it (in the province or, for a Subversive Attack, next to it;
        the engine's ``reach``) while they raise its odds (the engine's ``odds_of``): those
        already there first, then the strongest; a force that would not raise the odds is not
        sent.  Escorts of the Czar or the Gold stay with it (Non-Attack Policy 3), and a force
        that alone garrisons a province to hold stays (Non-Attack Policies 6, 7)."""
        col_of, f = self._col, self._facts()
        base = None
        for pa in plan.attacks:
            t = ix.get(pa.target)
            if t is None or pa.color == ANARCHIST:     # (an Anarchist attacks alone: no one joins it)
                continue
            sub = pa.subversive
            posts = self._subversion_posts(t.province) if sub else frozenset((t.province,))
            post_bits = f.adjacent_bits[t.province] if sub else f.data.bit[t.province]    # (posts as bits)
            worth = self._sub_strength if sub else (lambda fc: fc.strength)
            mine = [fc for fc in forces if fc.lead in pa.forces]
            att = sum(map(worth, mine))
            dfn = self._dfn(t)
            col = col_of(att, dfn)
            if col is None:
                continue
            cands = [fc for fc in self._ranked(forces, pa.color) if fc.lead not in used and not fc.escort
                     and fc.stack != t.id and (fc.leader or not sub)]
            if not cands:
                continue
            if col_of(att + sum(map(worth, cands)), dfn) <= col:
                continue                     # even all of them together would not raise the odds
            if base is None:
                base = self._garrison_base(view, ix, plan.color, plan.turn) if plan.color in (RED, WHITE) else []
            local = [fc for fc in cands if fc.province in posts]
            far = [fc for fc in cands if fc.province not in posts]
            added: list[tuple[Force, str | None]] = []
            keep = 0
            for fc in local + far:
                if fc.color == plan.color and fc.province in base \
                        and self._garrison_open(ix, fc.province, plan.color, fc.stack):
                    continue                 # it holds a province alone (Policies 6, 7)
                dest = None
                if fc.province not in posts:
                    if fc.reach is None:
                        self._reach(fc)
                    if not fc.reached & post_bits:
                        continue
                    dest = self._post(ix, fc, posts) if sub else t.province
                c = col_of(att + worth(fc), dfn)
                if c is None:
                    continue
                added.append((fc, dest))
                att += worth(fc)
                if c > col:
                    col, keep = c, len(added)
            for fc, dest in added[:keep]:
                used.add(fc.lead)
                pa.forces.append(fc.lead)
                why = (f"to join the Subversive Attack on {t.province} at higher odds [{pa.label}]" if sub
                       else f"to attack in {t.province} at higher odds [{pa.label}]")
                if dest:
                    plan.orders.append(Order(fc.lead, dest, list(fc.pickups), why=why, route=self._reach(fc).get(dest)))
                elif fc.pickups:
                    plan.orders.append(Order(fc.lead, None, list(fc.pickups), why=f"picks up units {why}"))

    def _plan_assassination(self, view: dict, ix: Index, plan: TurnPlan, forces: list[Force], used: set[int]) -> None:
        """"An assassination attempt is always against the phasing player's worst enemy, as
        defined on the PCT", at the level the markers call for, else the next level in the
        article's order ("If the target player has no level 1 leader, the attempt is made
        against a level 2 leader ...").  A target needs a leader of ours in its province
        (004 [10.13]): one that is there and stays, or goes there to attack, or a free leader
        (not needed for an attack, no escort) that can reach it.  Among the leaders of the
        first level that has any such target: "that leader should be selected as target who
        controls the greatest combat strength", then one a leader of ours is with already,
        then the nearest."""
        order = self.talk.unspared(self.friendliness(view))
        if not order:
            plan.assassinate = False
            return
        enemy = order[-1]
        markers = view["assassins"].get(self.seat, 0)
        f = self._facts()
        moving = {o.lead: o.dest for o in plan.orders if o.dest}
        present: dict[str, list[Force]] = {}       # province -> our leaders there in the Combat Phase
        for fc in forces:
            if fc.leader:
                present.setdefault(moving.get(fc.lead, fc.province), []).append(fc)
        free = [fc for fc in forces if fc.lead not in used and fc.leader and not fc.escort]
        best = None
        for level in T.assassination_levels(markers):
            for st in ix.mine(enemy):
                for v in st.leaders:
                    if f.strength[v] != level:
                        continue
                    ctrl = f.strength[v] + sum(f.strength[u] for u in st.attached_to(v) if u in f.combat)
                    there = [fc for fc in present.get(st.province, ()) if fc.lead != v]
                    if there:
                        stay = next((fc for fc in there if fc.lead in used), there[0])
                        key = (-ctrl, 0, v, stay.lead)
                        cand = (key, v, st, stay, None)
                    else:
                        cand = None
                        for fc in free:
                            route = self._reach(fc).get(st.province)
                            if route is None:
                                continue
                            key = (-ctrl, len(route["path"]), v, fc.lead)
                            if cand is None or key < cand[0]:
                                cand = (key, v, st, fc, route)
                    if cand is not None and (best is None or cand[0] < best[0]):
                        best = cand
            if best:
                break
        if best is None:
            plan.assassinate = False
            self.note(f"has no leader with or within reach of a leader of {enemy}, its worst enemy: no assassination")
            return
        _, v, st, fc, route = best
        plan.assassin_target = v
        if fc.lead not in used:
            used.add(fc.lead)                      # it stays (or goes) where the target is
            if route is not None:
                plan.orders.insert(0, Order(fc.lead, st.province, list(fc.pickups),
                                            why=f"to send assassins after {f.name(v)} of {enemy}, its worst enemy",
                                            route=route))
            elif fc.pickups:
                plan.orders.append(Order(fc.lead, None, list(fc.pickups), why="picks up units and stays for the assassins"))

    def _assassin_target(self, ix: Index, enemy: str, markers: int) -> int | None:
        """A leader of ``enemy`` sharing a province with one of our leaders, by the article's
        level order; ties go to the leader controlling the greatest combat strength."""
        f = self._facts()
        mine = {st.province for st in ix.mine(self.seat) if st.leaders}
        for level in T.assassination_levels(markers):
            cands = []
            for st in ix.mine(enemy):
                if st.province not in mine:
                    continue
                for v in st.leaders:
                    if f.strength[v] == level:
                        ctrl = f.strength[v] + sum(f.strength[u] for u in st.attached_to(v) if u in f.combat)
                        cands.append((-ctrl, v))
            if cands:
                return min(cands)[1]
        return None

    def _plan_non_attack(self, view: dict, ix: Index, plan: TurnPlan, forces: list[Force], used: set[int]) -> None:
        f = self._facts()
        d = f.data
        me = self.seat
        turn = view["turn"]
        limit = self.p.limits()["stack"]
        reserved: set[int] = set()
        garrisoned: set[str] = set()
        for fc in forces:
            reserved.update(fc.pickups)
        forces = sorted(forces, key=attrgetter("lead"))       # (both passes take the forces by leader)
        screens = self._screens_in_place(ix, forces, used)     # Policy 8: screens already posted stay
        screened = {st.province for sid in screens.values() if (st := ix.get(sid)) is not None}
        for fc in forces:
            if fc.lead in used:
                continue
            st = ix.get(fc.stack)
            # 1: Czechs of a White player leave from Vladivostok; his Czar emigrates.
            if plan.color == WHITE and not fc.leader and any(d.units[u].nationality == "CZ" for u in st.fighting):
                czechs = [u for u in st.units if d.units[u].nationality == "CZ"]
                exits = [A.CzechExit(me, u) for u in czechs]
                if fc.province == d.czech_exit:
                    plan.pre += exits
                    self.note("moves its Czechs off the map (Non-Attack Policy 1)")
                elif d.czech_exit in self._reach(fc):
                    plan.orders.append(Order(fc.lead, d.czech_exit, after=exits, route=self._reach(fc)[d.czech_exit],
                                             why="Czechs go to Vladivostok to leave (Non-Attack Policy 1)"))
                used.add(fc.lead)
                continue
            czar_here = f.czar in st.units and (not fc.leader or st.attached.get(f.czar) == fc.lead)
            if fc.escort and czar_here:
                if plan.color == WHITE:
                    if d.provinces[fc.province].port:
                        plan.pre.append(A.Emigrate(me, f.czar))
                        self.note("sends the Czar abroad (Non-Attack Policy 1)")
                        used.add(fc.lead)
                        continue
                    reach = self._reach(fc)
                    ports = [p for p in reach if d.provinces[p].port]
                    if ports:
                        dest = min(ports, key=lambda p: (len(reach[p]["path"]), p))
                        plan.orders.append(Order(fc.lead, dest, list(fc.pickups), after=[A.Emigrate(me, f.czar)],
                                                 route=reach[dest],
                                                 why="takes the Czar to a port to emigrate (Non-Attack Policy 1)"))
                        used.add(fc.lead)
                        continue
                    # no port within reach: Non-Attack Policy 3 below ("If unable to exit the map")
            if fc.escort and fc.leader and f.gold in st.attached_to(fc.lead):
                steal = self._steal_plan(ix, fc, st)
                if steal:
                    dest, units = steal
                    plan.orders.append(Order(fc.lead, dest, list(fc.pickups), attach_dest=units, steal=True,
                                             route=self._reach(fc).get(dest) if dest else None,
                                             why="the Gold buys Green units (Non-Attack Policy 4)"))
                    used.add(fc.lead)
                    continue
            if fc.escort:
                used.add(fc.lead)
                dest = self._isolated_area(ix, fc) if fc.leader else None
                if dest:
                    imp = "the Czar" if f.czar in st.attached_to(fc.lead) else "the Gold"
                    plan.orders.append(Order(fc.lead, dest, list(fc.pickups), route=self._reach(fc)[dest],
                                             why=f"takes {imp} away from the enemy (Non-Attack Policy 3)"))
                elif fc.pickups:
                    plan.orders.append(Order(fc.lead, None, list(fc.pickups),
                                             why="strengthens the Imperial escort (Non-Attack Policy 3)"))
                continue
            if not fc.leader:
                if self._plan_screen(ix, plan, fc, screens, screened):
                    used.add(fc.lead)
                continue
            # 6/7: a force that alone garrisons a province to hold stays there
            if fc.color == plan.color and plan.color in (RED, WHITE) and fc.province not in garrisoned \
                    and fc.province in self._garrison_base(view, ix, plan.color, turn) \
                    and self._garrison_open(ix, fc.province, plan.color, fc.stack):
                garrisoned.add(fc.province)
                if fc.pickups:
                    plan.orders.append(Order(fc.lead, None, list(fc.pickups),
                                             why=f"stays to garrison {fc.province} "
                                                 f"(Non-Attack Policy {6 if fc.color == RED else 7})"))
                used.add(fc.lead)
                continue
            # 5: pick up loose units (as many as the engine's capacity leaves room for)
            room = self._room(fc.lead) - len(fc.pickups)
            if room > 0:
                cands = []
                spots = [p for p, us in self._loose_map(ix, fc.color).items()
                         if any(u not in reserved for u in us)]
                reach = self._reach(fc) if spots else {}
                for p in spots:
                    if p not in reach or any(self.hostile(c, fc.color) for c in ix.colors_in.get(p, ())):
                        continue
                    loose = self._loose(ix, p, fc.color, reserved)[:room]
                    cands.append((-sum(map(f.strength.__getitem__, loose)), p, p, loose))
                if cands:                        # the most strength, then the nearest
                    _, p, _, loose = _least(cands, reach)
                    reserved.update(loose)
                    plan.orders.append(Order(fc.lead, p, list(fc.pickups), attach_dest=loose, route=self._reach(fc)[p],
                                             why="collects loose units (Non-Attack Policy 5)"))
                    used.add(fc.lead)
                    continue
            # 6/7: garrisons
            targets = [p for p in self._garrison_targets(view, ix, plan.color, fc.color, turn)
                       if p not in garrisoned]
            reach = fc.reach
            if targets and reach is None:
                reach = self._reach(fc)
            options = [p for p in targets if p in reach]
            if options:
                p = min(options, key=lambda p: (len(reach[p]["path"]), p))
                garrisoned.add(p)
                plan.orders.append(Order(fc.lead, p, list(fc.pickups), route=reach[p],
                                         why=f"garrisons {p} (Non-Attack Policy {6 if fc.color == RED else 7})"))
                used.add(fc.lead)
                continue
            # 8: a smaller force screens a larger stack
            if self._plan_screen(ix, plan, fc, screens, screened):
                used.add(fc.lead)
                continue
            # 5: a smaller force joins our strongest stack of its colour within reach
            size = 1 + len([u for u in st.attached_to(fc.lead) if u in f.combat]) + len(fc.pickups)
            cands = []
            for other in self._bigger(ix, fc):
                if len(other.fighting) + size > limit:
                    continue
                if reach is None:
                    reach = self._reach(fc)
                if other.province not in reach:
                    continue
                cands.append((-self._att(other), other.province, other.id, other))
            if cands:                            # the strongest, then the nearest
                join = _least(cands, reach)[3]
                plan.orders.append(Order(fc.lead, join.province, list(fc.pickups), route=reach[join.province],
                                         why="joins a stronger stack (Non-Attack Policy 5)"))
                used.add(fc.lead)
                continue
            if fc.pickups:
                plan.orders.append(Order(fc.lead, None, list(fc.pickups),
                                         why="picks up loose units (Non-Attack Policy 5)"))
                used.add(fc.lead)

    def _screen_posts(self, ix: Index, big: Stk, color: str) -> list[tuple[int, str]]:
        """Non-Attack Policy 8: where a smaller stack would screen ``big``: the provinces next
        to it holding no units hostile to ``color``, with other players' hostile strength in or
        next to them (the way an enemy would come), the most threatened first: (threat,
        province) pairs, worked out once per view."""
        key = ("screen posts", big.id, color)
        out = ix.memo.get(key)
        if out is None:
            out = []
            for q in self._facts().adjacent[big.province]:
                threat = self._post_threat(ix, q, color)
                if threat > 0:
                    out.append((threat, q))
            out.sort(key=lambda x: (-x[0], x[1]))
            ix.memo[key] = out
        return out

    def _post_threat(self, ix: Index, q: str, color: str) -> int:
        """How much a screen of ``color`` in ``q`` would face (:meth:`_threat`), 0 if ``q`` holds units
        hostile to ``color`` (no screen post, :meth:`_screen_posts`)."""
        here = ix.colors_in.get(q)
        if here:
            hostile = self.hostile
            for c in here:
                if hostile(c, color):
                    return 0
        return self._threat(ix, q, color)

    def _bigger(self, ix: Index, fc: Force) -> list[Stk]:
        """Our stacks of ``fc``'s colour with leaders, stronger than ``fc`` (the strongest first)."""
        key = ("ours by strength", fc.color)
        ranked = ix.memo.get(key)
        if ranked is None:                     # (once per view and colour)
            ranked = [(self._att(st), st) for st in ix.mine(self.seat) if st.color == fc.color and st.leaders]
            ranked.sort(key=lambda x: (-x[0], x[1].id))
            ix.memo[key] = ranked
        n, sid = fc.strength, fc.stack
        out = []
        for att, st in ranked:
            if att <= n:
                break
            if st.id != sid:
                out.append(st)
        return out

    def _screens_in_place(self, ix: Index, forces: list[Force], used: set[int]) -> dict[int, int]:
        """The free forces that already screen a larger stack of ours (Policy 8): force -> the
        stack it screens (one screen per province screened; ``forces`` taken in their order, by
        leader)."""
        out: dict[int, int] = {}
        taken: set[str] = set()
        adjacent = self._facts().adjacent
        for fc in forces:
            if fc.lead in used or fc.escort:
                continue
            here = fc.province
            near = adjacent[here]
            for big in self._bigger(ix, fc):
                if big.province in taken or big.province not in near or here not in adjacent[big.province]:
                    continue
                # the first such stack: ``here`` is one of its screen posts or one of none of them
                if self._post_threat(ix, here, fc.color) > 0:
                    out[fc.lead] = big.id
                    taken.add(big.province)
                break
        return out

    def _plan_screen(self, ix: Index, plan: TurnPlan, fc: Force, screens: dict[int, int], screened: set[str]) -> bool:
        """Non-Attack Policy 8: "Smaller stacks of units should attempt to screen or protect the
        larger stacks."  Our rule: a force not needed elsewhere that is weaker than one of our
        stacks of its colour stands next to that stack on the way the enemy would come (a
        province next to it holding no hostile units, with other players' hostile strength in
        or next to it: the most threatened one it can reach, then the nearest); one screen per
        province screened, the strongest stacks first; a force already screening stays.  A stack no enemy
        threatens needs no screen (the force consolidates instead, Policy 5)."""
        if fc.escort:
            return False
        if fc.lead in screens:
            big = ix.get(screens[fc.lead])
            self.note(f"keeps {self._facts().name(fc.lead)} in {fc.province} to screen its stack in "
                      f"{big.province if big else '?'} (Non-Attack Policy 8)")
            if fc.pickups:
                plan.orders.append(Order(fc.lead, None, list(fc.pickups), why="picks up units and screens (Non-Attack Policy 8)"))
            return True
        reach = None
        for big in self._bigger(ix, fc):
            if big.province in screened:
                continue
            posts = self._screen_posts(ix, big, fc.color)
            if not posts:
                continue
            if reach is None:
                reach = fc.reach if fc.reach is not None else self._reach(fc)
            opts = [(-threat, q, q) for threat, q in posts if q in reach]
            if not opts:
                continue
            q = _least(opts, reach)[1]           # the most threatened, then the nearest
            screened.add(big.province)
            plan.orders.append(Order(fc.lead, q, list(fc.pickups), route=reach[q],
                                     why=f"screens its stack in {big.province} (Non-Attack Policy 8)"))
            return True
        return False

    def _threat(self, ix: Index, province: str, color: str) -> int:
        """Strength of other players' forces hostile to ``color`` in ``province`` or next to it
        (each province's own worked out when first needed, once per view)."""
        key = ("hostile strength", self.seat, color)
        got = ix.memo.get(key)
        if got is None:                        # (province -> that strength in it, province -> the answer)
            got = ix.memo[key] = ({}, {})
        inside, around = got
        n = around.get(province)
        if n is None:
            n = 0
            me, hostile, by_province = self.seat, self.hostile, ix.by_province
            for p in self._facts().around[province]:
                h = inside.get(p)
                if h is None:
                    h = 0
                    for st in by_province.get(p, ()):
                        if st.owner not in (None, me) and st.fighting and hostile(st.color, color):
                            h += self._att(st)
                    inside[p] = h
                n += h
            around[province] = n
        return n

    def _isolated_area(self, ix: Index, fc: Force) -> str | None:
        """Non-Attack Policy 3: "units controlling the Czar (and the Gold) should attempt to
        consolidate with other units for greater protection.  They should also try to move
        to isolated areas."  Our rule: when other players' hostile forces stand in or next
        to the escort's province, it moves to the reachable province with the least such
        strength around it (only to a province holding no units of another colour), then
        the one where its own stacks of its colour are strongest (to consolidate), then the
        nearest; it stays if no province is safer."""
        here = self._threat(ix, fc.province, fc.color)
        if here == 0:
            return None
        cands = []
        reach = self._reach(fc)
        for p in reach:
            if any(c != fc.color for c in ix.colors_in.get(p, ())):
                continue
            threat = self._threat(ix, p, fc.color)
            if threat >= here:
                continue
            own = sum(self._att(st) for st in ix.by_province.get(p, ()) if st.owner == self.seat and st.color == fc.color)
            cands.append(((threat, -own), p, p))
        return _least(cands, reach)[1] if cands else None

    def _garrison_targets(self, view: dict, ix: Index, player_color: str, force_color: str, turn: int,
                          own_stack: int | None = None) -> list[str]:
        """Provinces to garrison: Tver and Petrograd for Red, and the home provinces of units of
        the player's colour awaiting replacement (Game-Turns 1-5), that hold no unit of that
        colour (other than ``own_stack``) and no enemy."""
        if force_color != player_color or player_color not in (RED, WHITE):
            return []
        if own_stack is None:
            key = ("garrison open", player_color, turn)
            out = ix.memo.get(key) if ix.view is view else None
            if out is None:
                out = [p for p in self._garrison_base(view, ix, player_color, turn)
                       if self._garrison_open(ix, p, player_color, None)]
                if ix.view is view:
                    ix.memo[key] = out
            return out
        return [p for p in self._garrison_base(view, ix, player_color, turn)
                if self._garrison_open(ix, p, player_color, own_stack)]

    def _garrison_base(self, view: dict, ix: Index, player_color: str, turn: int) -> list[str]:
        """Tver and Petrograd for Red, and the home provinces of the units of the player's colour
        awaiting replacement on Game-Turns 1-5 (worked out once per view)."""
        key = ("garrison", player_color, turn)
        out = ix.memo.get(key) if ix.view is view else None
        if out is None:
            f = self._facts()
            out = ["TVER", "PETR"] if player_color == RED else []
            if turn <= 5:
                for entries in view["vp"].values():
                    for uid, _face in entries:
                        if uid in f.combat and f.color[uid] == player_color:
                            home = f.data.units[uid].province
                            if home not in out:
                                out.append(home)
            if ix.view is view:
                ix.memo[key] = out
        return out

    def _garrison_open(self, ix: Index, p: str, player_color: str, own_stack: int | None) -> bool:
        """Whether ``p`` holds no unit of ``player_color`` (other than ``own_stack``) and no enemy."""
        cs = {st.color for st in ix.by_province.get(p, ()) if st.fighting and st.id != own_stack}
        return not (player_color in cs or any(self.hostile(c, player_color) for c in cs))

    def _steal_plan(self, ix: Index, fc: Force, st: Stk) -> tuple[str | None, list[int]] | None:
        """Non-Attack Policy 4: the Green units within reach the Gold's leader could take (as
        many as the engine's ``capacity`` leaves Gold slots and room for)."""
        f = self._facts()
        cap = self.p.capacity(fc.lead)
        greens = len([u for u in st.attached_to(fc.lead) if f.color[u] == GREEN])
        slots = min(cap["green"] - greens, cap["room"] - len(fc.pickups))
        if slots <= 0:
            return None
        takes: dict[str, list[int]] = {}         # province -> the Green units there it could take
        color, refused = f.color, self._refused
        for other in ix.stacks:
            if other.id == st.id:
                continue
            for u in other.loose:                # (combat units led by no one)
                if color[u] == GREEN and (fc.lead, u) not in refused:
                    takes.setdefault(other.province, []).append(u)
        if not takes:
            return None
        reach = self._reach(fc)
        cands = []
        for p, units in takes.items():
            if p == fc.province or p in reach:
                units = sorted(units, key=lambda u: (-f.strength[u], u))[:slots]
                cands.append((-sum(map(f.strength.__getitem__, units)), p, p, units))
        if not cands:
            return None
        _, p, _, units = _least(cands, reach)         # the most strength, then the nearest
        return (None if p == fc.province else p), units

    # -- executing the movement plan -----------------------------------------------------------
    def _movement_step(self, player, kind: str) -> A.Action | None:
        plan = self.plan
        me = self.seat
        if not plan.politics_done:
            while plan.pre and type(plan.pre[0]) is A.WithdrawTrade:     # (the gifts of turns gone by, first)
                a = plan.pre.pop(0)
                if self._ok(a):
                    return a
            act = self.politics.start_of_turn(player, plan)
            if act is not None:
                return act
            plan.politics_done = True
        while plan.pre:
            a = plan.pre.pop(0)
            if self._ok(a):
                return a
        forcing = kind == "force"
        if not forcing and self.cur is not None:
            after = self.cur.order.after
            self.cur = None
            for a in after:
                if self._ok(a):
                    plan.pre = [x for x in after if x is not a] + plan.pre
                    return a
        if forcing:
            if self.cur is None:
                return self.acts.EndForce
            return self._force_step()
        f = self._facts()
        while plan.orders:
            o = plan.orders.pop(0)
            start = self.acts.start(o.lead)
            if not self._ok(start):
                continue
            path: list[str] = []
            rail = False
            if o.dest:
                if o.route is None:
                    continue
                path, rail = list(o.route["path"]), bool(o.route["rail"])
            if not path and not o.attach_start and not o.attach_dest and not o.after:
                continue
            if o.why:
                self.note(f"moves {f.name(o.lead)}" + (f" to {o.dest}" if path else "") + f": {o.why}")
            self.cur = Walk(o, o.lead if o.lead in f.leader else 0, path, rail)
            return start
        if not plan.merges_done:
            if plan.merge_queue is None:
                if plan.assassinate:                   # (the assassin's target is looked for on the map)
                    ix = plan.move_ix = self._index(player)
                    mine = sorted((st.id, st.province, st.color) for st in ix.mine(me))
                else:
                    ours = player.stacks_of()          # (by id)
                    mine = [(s["id"], s["province"], s["color"]) for s in ours]
                    if plan.attacks:
                        # the targets of our attacks and our stacks where they are made from: all
                        # the Combat Phase looks up (:meth:`_attack_sequence`)
                        stacks = {s["id"]: s for s in ours}
                        posts: set[str] = set()
                        for pa in plan.attacks:
                            t = stacks.get(pa.target)
                            if t is None and (t := player.stack(pa.target)) is not None:
                                stacks[pa.target] = t
                            if t is not None:
                                posts.update(self._subversion_posts(t["province"]) if pa.subversive else (t["province"],))
                        targets = {pa.target for pa in plan.attacks}
                        held = [i for i in sorted(stacks) if i in targets or stacks[i]["province"] in posts]
                        ix = plan.move_ix = Index.of([stacks[i] for i in held], f)
                        ix.memo["held"] = frozenset(held)      # (the stacks it indexes)
                # (province, colour) -> our stacks of that colour there, by id: stacks of two
                # colours never merge (004 [7.13]; the view's colours are the engine's)
                here: dict[tuple[str, str], list[int]] = {}
                for sid, province, color in mine:
                    here.setdefault((province, color), []).append(sid)
                plan.merge_queue = [A.Merge(me, x, y) for x, province, color in mine for y in here[province, color] if x < y]
            while plan.merge_queue:
                m = plan.merge_queue.pop(0)
                if m.stack in plan.dead or m.into in plan.dead:
                    continue
                if self._ok(m):
                    plan.dead.add(m.stack)
                    ix = plan.move_ix
                    if ix is not None:
                        held = ix.memo.get("held")       # (None: the whole map)
                        if held is None or (m.stack in held and m.into in held):
                            ix.merged(m.stack, m.into)
                    return m
            plan.merges_done = True
        duty = self._stacking_duty(player, kind)
        return duty if duty is not None else self.acts.EndMovement

    def _stacking_duty(self, player, kind: str) -> A.Action | None:
        """001 No Leader Suicide 3: our leaders alone that the engine says must be stacked with
        the nearest friendly units before the Movement Phase ends (``leaders_to_stack``; none
        without the option): merged with the stack beside them, or moved by the engine's route,
        taking a loose unit where they stand; each tried once."""
        plan, me = self.plan, self.seat
        for d in player.leaders_to_stack():
            lead = d["leader"]
            if lead in plan.stacked:
                continue
            plan.stacked.add(lead)
            name = self._facts().name(lead)
            if d["do"] == "merge":
                a = A.Merge(me, d["stack"], d["into"])
                if self._ok(a):
                    self.note(f"stacks {name} with the friendly units beside him (No Leader Suicide 3)")
                    return a
                continue
            if d["do"] == "attach":
                plan.orders.append(Order(lead, None, attach_start=list(d["units"][:1]),
                                         why="a leader alone takes a loose unit beside him (No Leader Suicide 3)"))
            else:
                dest = d["to"][0]
                plan.orders.append(Order(lead, dest, attach_dest=list(d["take"].get(dest, [])[:1]),
                                         route=player.reach(lead).get(dest),
                                         why="a leader alone goes to the nearest friendly units (No Leader Suicide 3)"))
            return self._movement_step(player, kind)
        return None

    def _force_step(self) -> A.Action | None:
        """The next step of the force under way (:attr:`cur`)."""
        me = self.seat
        w = self.cur
        while w.start:
            a = A.Attach(me, w.start.pop(0), w.lead)
            if self._ok(a):
                return a
        while w.i < len(w.path):
            a = self.acts.move(w.path[w.i], w.rail)
            w.i += 1
            if self.p.is_legal(a):                  # (:meth:`_ok` inline: most steps are a force's moves)
                self._last_ok = a
                return a
            # refused (something moved into the way): ask the engine once for another route
            route = None if w.rerouted else self.p.reach().get(w.order.dest)
            w.rerouted = True
            if route:
                w.path, w.rail, w.i = list(route["path"]), bool(route["rail"]), 0
                continue
            why = self.p.why_illegal(a)         # (its note said where it went: say where it stops, and why)
            if why is not None and w.order.dest:
                self.note(f"{self._facts().name(w.order.lead)} stops short of {w.order.dest}: {why.message} ({why.rule})")
            w.i = len(w.path)
            w.dest = []
            break
        o = w.order
        while w.dest:
            u = w.dest.pop(0)
            a = A.Attach(me, u, w.lead)
            if self._ok(a):
                return a
            if o.steal:
                self._refused.add((o.lead, u))          # the Gold may not take this one: never sought again
        if self.plan.nls and not w.stacking and not self._ok(self.acts.EndForce):
            w.stacking = True
            step = self._force_duty(w)
            if step is not None:
                return step
        return self.acts.EndForce

    def _force_duty(self, w: Walk) -> A.Action | None:
        """001 No Leader Suicide 3 for a force of leaders alone the engine will not let end its move
        here (``leaders_to_stack``, the force's entry): it takes a loose unit where it stands, or
        goes on by the engine's route to the nearest friendly units."""
        for d in self.p.leaders_to_stack():
            if not d["force"]:
                continue
            if d["do"] == "attach":
                a = A.Attach(self.seat, d["units"][0], w.lead)
                return a if self._ok(a) else None
            if d["do"] == "move":
                dest = d["to"][0]
                route = self.p.reach().get(dest)
                if route:
                    self.note(f"moves {self._facts().name(w.lead)} on to {dest}: a leader alone goes to the nearest "
                              "friendly units (No Leader Suicide 3)")
                    w.path, w.rail, w.i = list(route["path"]), bool(route["rail"]), 0
                    w.dest = list(d["take"].get(dest, [])[:1])
                    return self._force_step()
        return None

    # -- combat ------------------------------------------------------------------------------------
    def _combat_step(self, player, kind: str) -> A.Action | None:
        plan = self.plan
        me = self.seat
        if kind == "attack":
            q = plan.combat_queue or []
            while q:
                a = q.pop(0)
                if self._ok(a):
                    return a
                if isinstance(a, A.ResolveAttack):
                    break
            plan.combat_queue = []
            a = self.acts.CancelAttack
            return a if self._ok(a) else None
        if plan.combat_ix is None:        # the map as movement left it (or a fresh look)
            plan.combat_ix = plan.move_ix or self._index(player)
            plan.att, plan.dfn = {}, {}
        ix = plan.combat_ix
        if plan.assassinate and not plan.assassinated:
            plan.assassinated = True
            markers = ix.view["assassins"].get(me, 0)
            # (its worst enemy but a pact partner, as the plan chose: QA saw a bot send assassins
            # after a partner the Player-Turn after it made the pact)
            order = self.talk.unspared(self.friendliness(ix.view))
            if order and markers > 0:
                enemy = order[-1]
                v = plan.assassin_target
                if v is None or ix.holder(v) != enemy \
                        or not self._ok(A.Assassinate(me, v, T.assassin_markers_used(markers))):
                    v = self._assassin_target(ix, enemy, markers)
                if v is not None:
                    a = A.Assassinate(me, v, T.assassin_markers_used(markers))
                    if self._found_legal(a) or self._ok(a):      # (the planned one: found legal just now)
                        self.note(f"sends {a.markers} assassin{'s' if a.markers > 1 else ''} after "
                                  f"{self._facts().name(v)} of {enemy}, its worst enemy")
                        return a
        while plan.attacks:
            pa = plan.attacks.pop(0)
            seq = self._attack_sequence(ix, pa, plan)
            if seq:
                plan.combat_queue = seq[1:]
                plan.current_owner = pa.owner
                return seq[0]
        return self.acts.EndCombat

    def _attack_sequence(self, ix: Index, pa: PlannedAttack, plan: TurnPlan) -> list[A.Action] | None:
        """The steps of a planned attack as the position now stands: the engine says which of
        our stacks may join (``attack_problem``) and at what odds (``odds``)."""
        me, p = self.seat, self.p
        t = ix.get(pa.target)
        sub = pa.subversive
        if t is None:
            return None
        if self.table.pacts and (now := p.stack(t.id)) is not None and self.talk.spares(now["owner"]):
            return None          # (its stack passed to a pact partner since the plan: a purge's spoils)
        f = self._facts()
        forces = frozenset(pa.forces)
        later = None                       # the forces of the attacks still to come (when first needed)
        posts = self._subversion_posts(t.province) if sub else {t.province}
        stacks = []
        for st in ix.mine(me):             # (the engine is asked about the stacks we would send)
            if st.province not in posts or st.id == t.id:
                continue
            if forces.isdisjoint(st.units):                 # not planned: a free stack of its colour
                if st.color != pa.color:
                    continue
                if later is None:
                    later = {lead for other in plan.attacks for lead in other.forces}
                if not later.isdisjoint(st.units):
                    continue
            if p.attack_problem(st.id, t.id, sub) is not None:
                continue
            stacks.append(st)
        # only friendly stacks combine: keep the planned colour's group (an Anarchist stack alone)
        if pa.color == ANARCHIST:
            stacks = [s for s in stacks if not forces.isdisjoint(s.units)][:1]
        else:
            stacks = [s for s in stacks if not self.hostile(s.color, pa.color)]
        plain = [s for s in stacks if not s.imperial]
        choice = None
        asked: tuple | None = None         # (the pool last asked about, its column: no Imperial stack, one pool)
        for pool, need in ((plain + [s for s in stacks if s.imperial], max(pa.min_col, T.ESCORT_MIN_ODDS)),
                           (plain, pa.min_col)):
            if not pool:
                continue
            if asked is not None and asked[0] == pool:
                col = asked[1]
            else:
                try:
                    col = p.odds([s.id for s in pool], t.id, sub)["column"]
                except IllegalAction:           # stacks that may not attack together (004 [8.22])
                    col = None
                asked = (pool, col)
            if col is not None and col >= need:
                choice = pool
                break
        if choice is None:
            return None
        # (the rules are asked about the attack only once we would make it: an attack checked
        # and then made is not checked again, one checked and then dropped costs a check)
        declare = A.DeclareAttack(me, t.id, sub)
        if not self._ok(declare):
            return None
        if pa.consider:
            rel = self.relation(me, pa.owner)
            die = self.die()
            if not T.attack_goes_ahead(rel, die):
                self.note(f"is talked out of attacking {pa.owner} in {t.province} "
                          f"(Attack Consideration: rolled {die}, PCT {rel})")
                return None
        names = ", ".join(f.name(u) for u in t.fighting)
        if sub:
            self.note(f"makes a Subversive Attack on {names} ({pa.owner or 'uncontrolled'}) in {t.province} from "
                      f"{', '.join(sorted({s.province for s in choice}))} [{pa.label}]")
        else:
            self.note(f"attacks {names} ({pa.owner or 'uncontrolled'}) in {t.province} [{pa.label}]")
        seq: list[A.Action] = [declare]
        seq += [A.AddAttacker(me, s.id) for s in choice]
        seq.append(self.acts.ResolveAttack)
        return seq


@dataclass
class Counter:
    """The new Central Committee of the players left out of the phasing player's (Purge
    Cooperation 2]): its convener, the players left out, and the members its dice chose
    (None until the convener rolled, or if they hold too few markers)."""

    convener: str
    left: list[str]
    members: list[str] | None = None


class PoliticsAdapter:
    """Purge Cooperation and the Czar's execution committee (Non-Attack Policy 2) through the
    engine's politics actions (004 [11.0], [13.5]).

    The engine's Central Committee is a matter of consent (``JoinCommittee(members)`` by
    every member; free actions any seat may take at any time), so the article's procedure
    is played as a short exchange, the match loop putting proposals to the other seats
    through :meth:`SDTAgent.react`:

    1. The phasing player gives a Politburo marker to its 2nd friendliest player.
    2. It proposes a Committee of every active player.  Each other player decides once per
       proposer and Game-Turn whether it would join: "If the die roll is equal to or
       greater than the number on the PCT ... that player joins" (the roll is the invitee's
       own, so a human's proposal meets the same test as a bot's).  Those who would join
       consent.
    3. If everyone joined: "no purge is attempted" (hah!).  Otherwise the phasing player
       proposes the Committee of itself and those who would join; if they hold the
       engine's Committee threshold of Politburo markers (eight, ``limits()``) it forms, a
       die decides collective (3+) or individual (the phasing player alone; other members
       pass), and the purge is declared against the non-member most unfriendly to the
       phasing player.  Collective spoils are shared "beginning with the phasing player and
       progressing alphabetically" (our reading: the phasing player, then the other members
       in alphabetical order; a Committee without the phasing player shares
       alphabetically).  Ties on the PCT ("most unfriendly", "2nd friendliest") go by
       alphabetical order (:func:`bots.sdt_tables.friendliness_order`).
    4. If they hold fewer, the phasing player withdraws, and "a new Central Committee is
       formed by those players not on the original Central Committee.  The same procedure
       is used as stated above.  If the new committee's Politburo Marker total is eight or
       greater, that committee attempts to purge the phasing player!"  Our reading: the
       player left out who is most unfriendly to the phasing player (ties as above) takes
       the phasing player's part: it is a member, and rolls a die for each other player left
       out, who joins on a roll equal to or greater than their PCT column; if the members
       hold the threshold it proposes their Committee, the others consent, and it declares
       the purge of the phasing player (the same collective/individual roll; spoils
       alphabetical).  Only when the original Committee did not form: after it formed (and
       purged, or not) nobody calls a new one.  Those "on the original Central Committee"
       are the phasing player and everyone who consented to its proposal (the events say
       who, even after the phasing player's withdrawal has taken it out of their consents).
    5. Counterpurges are mandatory and aimed at the phasing player (a die picks among two
       or more purgers when the phasing player is the counterpurger: with n of them in the
       engine's order, die d picks number (d - 1) mod n + 1); spoils are the leaders
       controlling the most combat strength; an individual result of 2+ takes a Politburo
       marker instead on a die roll of 1-2.
    6. Execution of the Czar (a Red player holding it, after Game-Turn 1): the same
       exchange, White players not invited; a formed Committee holding the engine's
       execution threshold of markers (ten) orders the execution; the holder complies unless
       it is a White player.
    Consents are withdrawn when the phasing player's Movement Phase is over.
    """

    def __init__(self, agent: SDTAgent) -> None:
        # (a weak reference: the agent owns its adapter, and without a cycle between them a
        # finished game's agents, and the game they hold, are freed at once by reference
        # counting, not left for the cyclic garbage collector)
        self.agent = weakref.proxy(agent)
        self.willing: dict[tuple[str, int], bool] = {}
        self.counter: dict[tuple[str, int], Counter | None] = {}
        self.counter_declared: set[tuple[str, int]] = set()
        # this Player-Turn's Committee events: (seat, members) of each consent, the members of
        # each Committee formed (what the original Committee was, after it is gone)
        self.consents_seen: list[tuple[str, tuple[str, ...]]] = []
        self.formed_seen: list[tuple[str, ...]] = []
        self.stage = ""
        self.full: list[str] = []
        self.members: list[str] = []
        self.purpose = ""
        self.spoil_rolls: dict[tuple, bool] = {}

    # -- helpers ----------------------------------------------------------------------------------
    @property
    def me(self) -> str:
        return self.agent.seat

    def _ok(self, a: A.Action) -> bool:
        return self.agent._ok(a)

    def threshold(self, kind: str = "committee_markers") -> int:
        return self.agent.p.limits()[kind]

    @staticmethod
    def pm(view: dict, seats) -> int:
        held = view["politburo"]
        return sum(held.get(p, 0) for p in seats)

    @staticmethod
    def canon(view: dict, seats) -> list[str]:
        seats = set(seats)
        return [p for p in view["seats"] if p in seats]

    def active(self, view: dict) -> list[str]:
        gone = view["quit"]
        return [p for p in view["seats"] if p not in gone]

    def can_consent(self, view: dict, members: list[str]) -> bool:
        """Whether the engine takes our consent to a Committee of ``members`` now."""
        return self._ok(A.JoinCommittee(self.me, tuple(self.canon(view, members))))

    def consent(self, view: dict) -> list[str] | None:
        return view["committee_consent"].get(self.me)

    def pending_counter(self, ph: str | None, turn: int) -> Counter | None:
        """The new Committee against ``ph`` this Game-Turn we are left out with, if its purge is
        not declared yet."""
        key = (ph, turn)
        cc = self.counter.get(key)
        return cc if cc is not None and key not in self.counter_declared else None

    def track(self, k: str, d: dict) -> None:
        """The Committee events of the Player-Turn under way (a ``player_turn`` event starts
        another): every consent and every Committee formed."""
        if k == "player_turn":
            self.consents_seen, self.formed_seen = [], []
        elif k == "committee_consent":
            self.consents_seen.append((d.get("seat"), tuple(d.get("members") or ())))
        elif k == "committee" and d.get("members"):
            self.formed_seen.append(tuple(d["members"]))

    def called_by_another(self, seat: str, members) -> bool:
        """Whether another seat consented to the Committee of ``members`` before ``seat`` did in
        this Player-Turn (``seat``'s consent, the last seen, answers that call)."""
        want = sorted(members)
        return any(p != seat and sorted(m) == want for p, m in self.consents_seen[:-1])

    # -- the phasing player's procedure ---------------------------------------------------------------
    def start_of_turn(self, player, plan: TurnPlan) -> A.Action | None:
        ag, me = self.agent, self.me
        ag.p = player
        if not self.stage:
            want = "purge" if plan.purge else ("execute" if plan.execute_czar else "")
            if not want:
                return None
            self.purpose = want
            self.stage = "gift" if want == "purge" else "invite"
        view = ag._view(player)
        if self.purpose == "execute" and view["options"].get("masses"):
            # (004 Masses [13.52]: no Committee; the coalition is asked by the engine, which the
            # bots answer as they answer a Committee's order)
            if self._ok(ag.acts.OrderExecution):
                ag.note("proposes the Czar's execution to the other players (Non-Attack Policy 2; the Masses)")
                self.stage = "leaving"
                return ag.acts.OrderExecution
            return self._done()
        if self.stage == "gift":
            self.stage = "invite"
            order = ag.friendliness(view)
            if view["politburo"].get(me, 0) > 0 and len(order) >= 2:
                to = order[1]
                ag.note(f"gives a Politburo marker to {to}, its 2nd friendliest player{_of_two(order)}, before the purge")
                return A.OfferTrade(me, to, give_politburo=1)
        if self.stage == "invite":
            invitees = [p for p in self.active(view) if p != me]
            if self.purpose == "execute":
                invitees = [p for p in invitees if ag.pit(view, p)[3] != WHITE]
            self.full = self.canon(view, [me] + invitees)
            if not invitees and self.purpose == "purge":
                return self._done()
            if self.consent(view) == self.full:
                self.stage = "count"
            elif self.can_consent(view, self.full):
                self.stage = "count"
                ag.note(f"calls for a Central Committee ({'to purge' if self.purpose == 'purge' else 'to execute the Czar'})")
                return A.JoinCommittee(me, tuple(self.full))
            else:
                ag.note("cannot call a Central Committee (too few Politburo markers)")
                return self._done()
        cons = view["committee_consent"]
        if self.stage in ("count", "formed"):
            wait = ag.talk.wait_for(view, self.full if self.stage == "count" else self.members)
            if wait is not None:
                return wait                    # humans invited have not answered yet
        if self.stage == "count":
            willing = [p for p in self.full if p != me and cons.get(p) == self.full]
            others = [p for p in self.full if p != me]
            if self.purpose == "purge" and set(willing) == set(others):
                ag.note("everyone joins the Committee: no purge is attempted")
                return self._leave(view) or self._done()
            self.members = self.canon(view, [me] + willing)
            n = self.pm(view, self.members)
            if n < self.threshold():
                ag.note(f"finds only {', '.join(self.members)} willing ({n} Politburo markers): no Committee")
                return self._leave(view) or self._done()
            self.stage = "formed"
            if self.members != self.full and self.can_consent(view, self.members):
                return A.JoinCommittee(me, tuple(self.members))
        if self.stage == "formed":
            com = view["committee"]
            if me not in com:
                return self._leave(view) or self._done()
            if self.purpose == "purge":
                self.stage = "purged"
                act = self._declare(view, com, target=None)
                if act is not None:
                    return act
            else:
                self.stage = "executed"
        if self.stage == "purged":
            self.stage = "executed"
            if not (self.agent.plan and self.agent.plan.execute_czar):
                return self._leave(view) or self._done()
        if self.stage == "executed":
            self.stage = "leaving"
            com = view["committee"]
            if me in com and self.pm(view, com) >= self.threshold("execution_markers") \
                    and self._ok(ag.acts.OrderExecution):
                ag.note("orders the Czar's execution (Non-Attack Policy 2)")
                return ag.acts.OrderExecution
        if self.stage == "leaving":
            return self._leave(view) or self._done()
        return self._done()

    def _leave(self, view: dict) -> A.Action | None:
        self.stage = "done"
        if self.consent(view) is not None and view["decision"] is None:
            return self.agent.acts.LeaveCommittee
        return None

    def _done(self) -> None:
        self.stage = "done"
        return None

    def reset(self) -> None:
        self.stage = ""

    def _declare(self, view: dict, com: list[str], target: str | None) -> A.Action | None:
        """A purge by the Committee (a die: collective on 3+) or by us alone, against
        ``target`` or the non-member most unfriendly to us."""
        ag, me = self.agent, self.me
        if target is not None and ag.talk.spares(target):
            return None                            # (a pact of ours: the counter-committee's purge too)
        if target is None:
            row = ag.row(view)
            cands = ag.talk.unspared([p for p in T.friendliness_order(row) if p not in com])
            if not cands:
                return None
            target = cands[-1]
        die = ag.die()
        done = ag.p.purged()                       # (who may not purge again this Game-Turn: no check)
        collective = T.collective_purge(die) and len(com) > 1
        if collective and not any(p in done for p in com):
            purgers = tuple(self.canon(view, com))
            ph = view["phasing"]
            first = [ph] if ph in com else []
            shares = tuple(first + sorted(p for p in com if p not in first))
            a = A.DeclarePurge(me, target, purgers, shares)
            if self._ok(a):
                ag.note(f"and the Committee ({', '.join(com)}) purge {target} together (die {die})")
                return a
        alone = A.DeclarePurge(me, target, (me,), ())
        if me not in done and self._ok(alone):
            ag.note(f"purges {target} on its own (die {die})")
            return alone
        return None

    # -- out of turn: proposals, the counter-committee, cleanup -----------------------------------------
    def react(self, view: dict) -> A.Action | None:
        me = self.me
        turn, ph = view["turn"], view["phasing"]
        cons = view["committee_consent"]
        if view["decision"] is not None:
            return None
        # the counter-committee's purge of the phasing player
        key = (ph, turn)
        cc = self.counter.get(key)
        if cc and cc.members and me == cc.convener and key not in self.counter_declared \
                and (com := view["committee"]) == cc.members:
            self.counter_declared.add(key)
            act = self._declare(view, com, target=ph)
            if act is not None:
                return act
        live = ph is not None and view["phase"] == "movement"
        # the phasing player's Committee failed: those left out form a new one
        if live and ph != me and self.willing.get(key) is False and key not in self.counter and ph not in cons:
            act = self._left_out(view, ph, turn)
            if act is not None:
                return act
            cc = self.counter.get(key)
        # proposals that include us: answered while the phasing player's Movement Phase is
        # open and the proposal includes it (its purge or execution procedure), or when it is
        # the counter-committee we belong to
        for members in sorted({tuple(v) for p, v in cons.items() if p != me and me in v}) if live else ():
            if list(members) == [me]:
                continue
            if cc and me != cc.convener and cons.get(cc.convener) == list(members) and set(members) <= set(cc.left):
                a = A.JoinCommittee(me, members)
                if self._ok(a):                    # (the convener rolled for us, as the article's procedure)
                    return a
                continue
            # (once we refused ph this turn, its proposals are not ours: no need to ask the engine)
            if ph != me and ph in members and cons.get(ph) == list(members) and self.willing.get(key) is not False \
                    and self._ok(a := A.JoinCommittee(me, members)) and self._willing(view, ph):
                return a
        # withdraw stale consents
        mine = cons.get(me)
        if mine is not None:
            ours = cc is not None and cc.convener in mine and set(mine) <= set(cc.left)
            active_proc = live and (ph in mine or ours)
            if ph == me:
                return None
            if not active_proc:
                return self.agent.acts.LeaveCommittee
        return None

    def _left_out(self, view: dict, ph: str, turn: int) -> A.Action | None:
        """We refused ``ph``'s Committee, which did not form and is withdrawn: "a new Central
        Committee is formed by those players not on the original Central Committee.  The same
        procedure is used as stated above" (see the class).  We note the new Committee's
        players and convener; if we are the convener we roll for the others and call it (a human
        player among them is invited instead: he answers for himself, the bot's die does not)."""
        key = (ph, turn)
        cons = view["committee_consent"]
        if any(ph in members for members in self.formed_seen):
            self.counter[key] = None           # it formed: a purge was attempted (or everyone joined)
            return None
        original = {ph} | {p for p, members in self.consents_seen if ph in members} \
            | {p for p, v in cons.items() if ph in v}
        need = self.threshold()
        if self.pm(view, original) >= need:
            self.counter[key] = None
            return None
        left = self.canon(view, [p for p in self.active(view) if p not in original])
        if self.me not in left or self.pm(view, left) < need:
            self.counter[key] = None
            return None
        convener = T.friendliness_order(self.agent.table.row(ph, left))[-1]
        cc = self.counter[key] = Counter(convener, left)
        if convener != self.me:
            return None
        ag, me = self.agent, self.me
        members, rolls = [me], []
        for p in left:
            if p == me:
                continue
            if p in ag.talk.humans:            # (a player answers for himself: invited, no die for him)
                members.append(p)
                rolls.append(f"{p} is invited (a player answers for himself)")
                continue
            rel = ag.relation(me, p)
            die = ag.die()
            joins = T.joins_committee(rel, die)
            if joins:
                members.append(p)
            rolls.append(f"{p} {'joins' if joins else 'refuses'} (rolled {die}, PCT {rel})")
        members = self.canon(view, members)
        n = self.pm(view, members)
        ag.note(f"calls a new Central Committee of the players left out of {ph}'s against {ph}"
                + (": " + "; ".join(rolls) if rolls else ""))
        if n < need:
            ag.note(f"finds only {', '.join(members)} willing ({n} Politburo markers): no Committee")
            return None
        cc.members = members
        if self.can_consent(view, members):
            return A.JoinCommittee(me, tuple(members))
        return None

    def _willing(self, view: dict, proposer: str) -> bool:
        key = (proposer, view["turn"])
        if key not in self.willing:
            rel = self.agent.relation(self.me, proposer)
            die = self.agent.die()
            self.willing[key] = T.joins_committee(rel, die)
            self.agent.talk.note_roll(proposer, view["turn"], die, rel)
            self.agent.note(f"{'joins' if self.willing[key] else 'refuses'} {proposer}'s Central Committee "
                            f"(rolled {die}, PCT {rel})")
        return self.willing[key]

    # -- decisions ---------------------------------------------------------------------------------------
    def decide(self, view: dict, d: dict) -> A.Action | None:
        ag, me = self.agent, self.me
        kind = d.get("kind")
        if kind == "purge_approval":
            return A.ApprovePurge(me, True)
        if kind == "purge_orders":
            return ag.acts.PassPurge
        if kind == "spoils":
            return self._spoil(view, d)
        if kind == "counterpurge":
            opts = [p for p in d.get("options", []) if p]
            if not opts:
                return A.Counterpurge(me, "")
            ph = view["phasing"]
            if ph in opts and ph != me:
                target = ph
            elif len(opts) > 1:
                target = opts[(ag.die() - 1) % len(opts)]
            else:
                target = opts[0]
            ag.note(f"counterpurges {target}")
            return A.Counterpurge(me, target)
        if kind == "execution_consent":
            return A.OrderExecution(me, ag.pit(view)[3] != WHITE)
        if kind == "execution":
            comply = ag.pit(view)[3] != WHITE
            ag.note("executes the Czar" if comply else "refuses to execute the Czar")
            return A.AnswerExecution(me, comply)
        if kind == "red_terror":
            # (the critique's Red Terror, option red_terror: our policy, the article has none)
            # the free purge strikes the would-be assassin, whom the assassination made an
            # enemy (its PCT shift), and costs nothing: always taken.
            ag.note(f"answers the attempt on its leader with the Red Terror against {d['target']}")
            return A.DeclarePurge(me, d["target"], (me,), ())
        return None

    def _spoil(self, view: dict, d: dict) -> A.Action | None:
        """A spoil of the purge: the leader of the purged player's who controls the most combat
        strength, else a Politburo marker, else nothing more; an individual result of 2+ takes a
        marker instead on a die roll of 1-2 (rolled once we may take anything).  The leaders a
        purge of the purged player may take (the engine's ``purgeable_leaders``) are asked about
        one at a time, best first, and the first the engine allows is taken (not every possible
        spoil judged)."""
        ag, me = self.agent, self.me
        rec = d.get("purge", {})
        f = ag._facts()
        victim = rec.get("target")
        strength, combat = f.strength, f.combat
        spoils = set(ag.p.purgeable_leaders(victim)) if victim else set()    # 004 [11.21]: the engine's answer
        ranked = []                                # (combat strength controlled, value, -id) of each leader
        for u in spoils:             # (read in its own stack, not every stack of the victim's; the sort orders them all)
            st = f.stk(ag.p.stack_holding(u))
            ctrl = strength[u] + sum(strength[x] for x in st.attached_to(u) if x in combat)
            ranked.append((ctrl, strength[u], -u))
        ranked.sort(reverse=True)
        marker = A.TakeSpoil(me, 0)
        best = next((a for a in [A.TakeSpoil(me, -k[2]) for k in ranked] + [marker] if self._ok(a)), None)
        if best is None:
            return ag.acts.EndSpoils
        points = int(rec.get("points", 0) or 0)
        key = (tuple(rec.get("purgers", [])), victim, tuple(rec.get("dice", [])), view["turn"])
        individual = rec.get("mode") != "group"
        if individual and points >= 2 and key not in self.spoil_rolls:
            die = ag.die()
            self.spoil_rolls[key] = T.politburo_instead(die)
            if self.spoil_rolls[key] and (best is marker or self._ok(marker)):
                ag.note(f"takes a Politburo marker from {victim} instead of a leader (die {die})")
                return marker
        return best
