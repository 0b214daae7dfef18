"""The game state: stacks on the map, the Victory Point Chart, markers, randomizers, turn.

Everything here is plain data that round-trips through msgpack (:meth:`State.to_dict`).
Rules live in :mod:`rcw.rules`; they read and change a :class:`State`.

Stacks (004 [7.0]): a stack is an ordered list of units in one province under at most one
Player Control Marker.  Red/White combat units and Imperial units may be *attached* to a
leader of the stack (``attached[unit] = leader``, 004 [7.21]); a Blue or Green force carries
an Imperial unit with ``attached[imperial] = 0``.  Units with no entry are loose.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rcw.data import ANARCHIST, BLUE, GREEN, RED, SIBERIA, WHITE, GameData, Unit

UNASSIGNED = "unassigned"   # the "unassigned" section of the VP chart (004 [8.46], [12.11])
PHASES = ("trading", "random_events", "movement", "combat", "randomizer", "vote", "over")


@dataclass
class Stack:
    id: int
    province: str
    owner: str | None              # player letter, or None for an uncontrolled stack
    units: list[int]               # top to bottom
    attached: dict[int, int] = field(default_factory=dict)

    def to_list(self) -> list:
        return [self.id, self.province, self.owner, list(self.units), [[k, v] for k, v in sorted(self.attached.items())]]

    @classmethod
    def from_list(cls, a: list) -> Stack:
        return cls(a[0], a[1], a[2], list(a[3]), {int(k): int(v) for k, v in a[4]})


@dataclass
class Force:
    """A force being moved right now (004 [5.0] 'a force'): the stack it travels as, where
    it started, how it moves and what it has touched."""

    stack: int
    start: str
    mode: str = ""                 # "", "rail" or "overland" (004 [5.53])
    mp: int = 0                    # movement points spent
    path: list[str] = field(default_factory=list)
    touched: list[int] = field(default_factory=list)   # units attached during the move

    def to_list(self) -> list:
        return [self.stack, self.start, self.mode, self.mp, list(self.path), list(self.touched)]

    @classmethod
    def from_list(cls, a: list) -> Force:
        return cls(a[0], a[1], a[2], a[3], list(a[4]), list(a[5]))      # (a 7th item, once saved, is no more)


@dataclass
class Attack:
    """An attack being assembled in the Combat Phase (004 [8.0])."""

    target: int
    subversive: bool = False
    attackers: list[int] = field(default_factory=list)

    def to_list(self) -> list:
        return [self.target, self.subversive, list(self.attackers)]

    @classmethod
    def from_list(cls, a: list) -> Attack:
        return cls(a[0], a[1], list(a[2]))


@dataclass
class State:
    seats: list[str]                       # player letters in clockwise table order
    seed: int
    rng: int
    options: dict = field(default_factory=dict)
    turn: int = 1
    phase: str = "trading"
    order: list[str] = field(default_factory=list)   # Player-Turn order this Game-Turn
    current: int = 0
    stacks: dict[int, Stack] = field(default_factory=dict)
    next_stack: int = 1
    next_offer: int = 1
    vp: dict[str, list[list]] = field(default_factory=dict)   # section -> [[unit, face_up], ...]
    removed: list[int] = field(default_factory=list)          # withdrawn Blue units, out of play
    politburo: dict[str, int] = field(default_factory=dict)
    assassins: dict[str, int] = field(default_factory=dict)
    control: dict[str, str] = field(default_factory=dict)      # nationality -> holder of its marker
    withdrawn: list[str] = field(default_factory=list)         # nationalities withdrawn (004 [5.67])
    withdrawal_markers: dict[str, list[str]] = field(default_factory=dict)  # kept as record
    aux: list[str] = field(default_factory=list)               # Auxiliary Forces Randomizer chits
    hand: dict[str, list[int]] = field(default_factory=dict)   # pre-game: leaders dealt to each seat
    ready: list[str] = field(default_factory=list)             # seats agreeing to end trading
    offers: dict[int, dict] = field(default_factory=dict)
    moved: list[int] = field(default_factory=list)             # units moved this Movement Phase
    imperial_moved: list[int] = field(default_factory=list)
    fought: list[int] = field(default_factory=list)            # units that attacked this Combat Phase
    defended: list[int] = field(default_factory=list)          # units attacked this Combat Phase (004 [8.25])
    force: Force | None = None
    attack: Attack | None = None
    decision: dict | None = None       # an out-of-turn decision that suspends play
    subversion_doubled: bool = False
    drawn: bool = False                # the Randomizer chit of this Player-Turn has been drawn
    red_block: int = 0                 # Red replacement phases still suspended (004 [9.14])
    red_block_new: list[int] = field(default_factory=list)   # Lenin/Trotsky killed this Game-Turn
    quit: list[str] = field(default_factory=list)
    votes: dict[str, bool] = field(default_factory=dict)
    committee: list[str] = field(default_factory=list)
    committee_consent: dict[str, list[str]] = field(default_factory=dict)
    purged_this_turn: list[str] = field(default_factory=list)
    purge_turn: int = 0                # the Game-Turn purged_this_turn refers to (004 [11.13])
    result: dict | None = None
    stats: dict[str, int] = field(default_factory=dict)
    snapshot: dict[str, list[str]] = field(default_factory=dict)   # postal: colours at turn start
    solo: dict = field(default_factory=dict)       # SPI solitaire bookkeeping (rcw.solitaire)
    # 001's optional forces and rules: "poles_in_ukraine" (Makhno's Poland condition, 001 Anarchists),
    # "draws" (the Randomizer draws of this Player-Turn, 001 Additional Randomizer Draws); and the
    # option one_end_vote's "vote_failed" (an end-game vote has failed, 004 [14.1] 3)
    optional: dict = field(default_factory=dict)
    postal: dict = field(default_factory=dict)     # postal game bookkeeping (rcw.postal): sheets, phase, report

    def clone(self) -> State:
        """An independent copy, field by field (much cheaper than a deep copy or a round trip
        through msgpack)."""
        c = State.__new__(State)
        c.__dict__.update({k: copy_plain(v) for k, v in self.__dict__.items() if k not in ("stacks", "force", "attack")})
        c.stacks = {i: Stack(st.id, st.province, st.owner, list(st.units), dict(st.attached)) for i, st in self.stacks.items()}
        c.force = Force.from_list(self.force.to_list()) if self.force else None
        c.attack = Attack.from_list(self.attack.to_list()) if self.attack else None
        return c

    # -- serialisation -------------------------------------------------------------
    def to_dict(self) -> dict:
        d = {k: v for k, v in self.__dict__.items()}
        d["stacks"] = [s.to_list() for s in sorted(self.stacks.values(), key=lambda s: s.id)]
        d["force"] = self.force.to_list() if self.force else None
        d["attack"] = self.attack.to_list() if self.attack else None
        d["offers"] = [[k, v] for k, v in sorted(self.offers.items())]
        for k in ("optional", "postal"):
            if not d[k]:
                del d[k]           # (saves and state hashes of games without them stay as they were)
        return d

    @classmethod
    def from_dict(cls, d: dict) -> State:
        d = dict(d)
        d["stacks"] = {a[0]: Stack.from_list(a) for a in d["stacks"]}
        d["force"] = Force.from_list(d["force"]) if d["force"] else None
        d["attack"] = Attack.from_list(d["attack"]) if d["attack"] else None
        d["offers"] = {int(k): v for k, v in d["offers"]}
        return cls(**d)


def copy_plain(x):
    """A copy of nested dicts and lists of plain values (far cheaper than ``copy.deepcopy``)."""
    if isinstance(x, dict):
        return {k: copy_plain(v) for k, v in x.items()}
    if isinstance(x, list):
        return [copy_plain(v) for v in x]
    return x


class Board:
    """Read helpers over a :class:`State` with its :class:`GameData`."""

    def __init__(self, data: GameData, state: State) -> None:
        self.data = data
        self.s = state
        self._where: dict[int, int] | None = None
        self._stale = False
        self._colors: dict[str, frozenset[str]] | None = None
        self._color_bits: dict[str, int] | None = None
        self._searches: dict | None = None
        self._stack_colors: dict[int, str] | None = None

    # -- where things are ----------------------------------------------------------
    # What is read off the stacks is kept until :meth:`invalidate`, which the rules call after
    # every change to the stacks (``Game.apply`` after every action); code that edits a State
    # directly (tests building positions) must call it too.
    def index(self) -> dict[int, int]:
        """Unit -> the id of the stack holding it, for every unit on the map."""
        if self._where is None or self._stale:
            self._where = {u: s.id for s in self.s.stacks.values() for u in s.units}
            self._stale = False
        return self._where

    def invalidate(self) -> None:
        """Forget what was read off the stacks (after any change to them).  The unit index is
        kept for :meth:`stack_of`, which checks each answer it takes from it."""
        self._stale = True
        self._colors = None
        self._color_bits = None
        self._searches = None
        self._stack_colors = None

    def stack_colors(self) -> dict[int, str]:
        """Every stack's colour by id (:meth:`stack_color`; a stack headed by a leader or a Red,
        White or Blue combat unit is of that unit's colour, ``GameData.plain_color``)."""
        if self._stack_colors is None:
            self._read_colors()
        return self._stack_colors  # type: ignore[return-value]

    def _read_colors(self) -> None:
        """:meth:`stack_colors` and :meth:`color_bits`, read off the stacks in one pass."""
        color, plain, bit = self.stack_color, self.data.plain_color, self.data.bit
        colors: dict[int, str] = {}
        bits: dict[str, int] = {}
        for i, st in self.s.stacks.items():
            units = st.units
            c = plain.get(units[0]) if units else None
            if c is None:
                c = color(st)
            colors[i] = c
            if c:
                bits[c] = bits.get(c, 0) | bit[st.province]
        self._stack_colors, self._color_bits = colors, bits

    def colors_in(self) -> dict[str, frozenset[str]]:
        """The colours of the units in each province (Imperial units alone have none); a
        stack has one colour (004 [7.13])."""
        if self._colors is None:
            out: dict[str, set[str]] = {}
            colors = self.stack_colors()
            for st in self.s.stacks.values():
                c = colors[st.id]
                if c:
                    out.setdefault(st.province, set()).add(c)
            self._colors = {p: frozenset(cs) for p, cs in out.items()}
        return self._colors

    def searches(self) -> dict:
        """A memo for :func:`rcw.rules.movement.reach`, kept until :meth:`invalidate`: the
        searches of one position (:meth:`rcw.rules.movement.Routes.search`; each depends only on
        its arguments) and the provinces a force of each colour must stop in there."""
        if self._searches is None:
            self._searches = {}
        return self._searches

    def color_bits(self) -> dict[str, int]:
        """Colour -> the provinces holding units of that colour, as a set of bits
        (``GameData.bit``): :meth:`colors_in` turned round."""
        if self._color_bits is None:
            self._read_colors()
        return self._color_bits  # type: ignore[return-value]

    def stack_of(self, uid: int) -> Stack | None:
        where = self._where
        if where is not None:
            sid = where.get(uid)
            if sid is not None:
                st = self.s.stacks.get(sid)
                if st is not None and uid in st.units:
                    return st                  # still there (whatever else has changed)
            elif not self._stale:
                return None                    # a fresh index: not on the map
        sid = self.index().get(uid)            # the unit has moved between stacks: read them again
        return self.s.stacks.get(sid) if sid is not None else None

    def stacks_in(self, province: str) -> list[Stack]:
        return [s for s in self.s.stacks.values() if s.province == province]

    def unit(self, uid: int) -> Unit:
        return self.data.units[uid]

    def on_vp_chart(self, uid: int) -> str | None:
        for section, entries in self.s.vp.items():
            for e in entries:
                if e[0] == uid:
                    return section
        return None

    # -- colour and strength -------------------------------------------------------
    def color_of(self, uid: int, stack: Stack | None = None) -> str:
        """A unit's colour; a Green unit attached to a Gold leader takes the leader's colour
        (004 [13.26]); an Imperial unit takes its controller's colour (004 [13.21])."""
        u = self.data.units[uid]
        stack = stack or self.stack_of(uid)
        if u.is_imperial:
            if stack is None:
                return ""
            lead = stack.attached.get(uid)
            if lead:
                return self.data.units[lead].color
            others = [x for x in stack.units if not self.data.units[x].is_imperial]
            return self.color_of(others[0], stack) if others else ""
        if u.color == GREEN and stack is not None and stack.attached.get(uid):
            return self.data.units[stack.attached[uid]].color
        return u.color

    def stack_color(self, stack: Stack) -> str:
        """The colour of a stack's units (one colour a stack, 004 [7.13]; see :meth:`color_of`)."""
        units = self.data.units
        for uid in stack.units:
            u = units[uid]
            if u.kind != "imperial":
                if u.color == GREEN:
                    lead = stack.attached.get(uid)
                    if lead:
                        return units[lead].color       # 004 [13.26]
                return u.color
        return ""

    def strength(self, uid: int) -> int:
        return self.data.units[uid].strength

    def fighting_units(self, stack: Stack) -> list[int]:
        """Units of a stack that count in combat: leaders and combat units (004 [8.26])."""
        units = self.data.units
        return [u for u in stack.units if units[u].kind != "imperial"]

    def is_mobile_blue_green(self, uid: int) -> bool:
        u = self.data.units[uid]
        return u.color in (BLUE, GREEN) and u.nationality not in self.data.immobile

    # -- leaders ---------------------------------------------------------------------
    def leaders_of(self, stack: Stack) -> list[int]:
        units = self.data.units
        return [u for u in stack.units if units[u].kind == "leader"]

    def attached_to(self, stack: Stack, leader: int) -> list[int]:
        att = stack.attached
        return [u for u in stack.units if att.get(u) == leader]

    def capacity(self, stack: Stack, leader: int) -> tuple[int, int]:
        """(own-colour slots, of which Green-capable slots) for a leader (004 [5.14], [13.22], [13.25])."""
        return self.capacity_holding(leader, self.attached_to(stack, leader))

    def capacity_holding(self, leader: int, held) -> tuple[int, int]:
        """:meth:`capacity` of ``leader`` with the units ``held`` attached to him, before any
        stack is made: his value, two more with the Czar if he is White (004 [13.22]), two
        more with the Gold, which may be Green units (004 [13.25])."""
        lu = self.data.units[leader]
        base = lu.strength
        if self.data.czar in held and lu.color == WHITE:
            base += 2
        gold = 2 if self.data.gold in held else 0
        return base + gold, gold

    def owner_of(self, uid: int) -> str | None:
        st = self.stack_of(uid)
        return st.owner if st else None

    def _on_map(self, kind: str, color: str, outside_siberia: bool):
        """The ``kind`` units of ``color`` on the map, by :meth:`color_of` (a Green unit attached
        to a leader holding the Gold is his colour for all purposes, 004 [13.26])."""
        units, provinces = self.data.units, self.data.provinces
        for st in self.s.stacks.values():
            if outside_siberia and provinces[st.province].region == SIBERIA:
                continue
            for u in st.units:
                uu = units[u]
                if uu.kind == kind and (uu.color == color if uu.color != GREEN else self.color_of(u, st) == color):
                    yield u

    def map_leaders(self, color: str, outside_siberia: bool = False) -> list[int]:
        return list(self._on_map("leader", color, outside_siberia))

    def map_combat(self, color: str, outside_siberia: bool = False) -> list[int]:
        return list(self._on_map("combat", color, outside_siberia))

    def any_on_map(self, kind: str, color: str, outside_siberia: bool = False) -> bool:
        """Whether a ``kind`` ("leader", "combat") of ``color`` stands on the map (outside Siberia)."""
        return next(self._on_map(kind, color, outside_siberia), None) is not None

    def phasing(self) -> str | None:
        if self.s.phase in ("random_events", "movement", "combat", "randomizer") and self.s.order:
            return self.s.order[self.s.current]
        return None

    def active_seats(self) -> list[str]:
        return [p for p in self.s.seats if p not in self.s.quit]


def opposed(a: str, b: str) -> bool:
    """004 [8.11]-[8.15]: the colour hostility table; Anarchist units are "hostile to all units for
    Combat purposes, including other Anarchists" (001 Anarchists, rule 3)."""
    if not a or not b:
        return False
    if ANARCHIST in (a, b):
        return True
    if a == b:
        return False
    if RED in (a, b):
        return True
    return {a, b} == {WHITE, GREEN}
