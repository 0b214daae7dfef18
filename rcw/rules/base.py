"""Shared machinery for the rule modules: the rule context and its mutation helpers.

Every action kind has a ``check_*`` function that raises :class:`IllegalAction` (naming the
rule case) without changing anything, and a ``do_*`` function that applies it and returns
events.  ``do_*`` runs only after its check passed.
"""

from __future__ import annotations

from rcw.actions import Event, IllegalAction
from rcw.data import GameData
from rcw.rng import Dice, Rng
from rcw.state import UNASSIGNED, Board, Stack, State

LENIN, TROTSKY = 151, 152


def counted(n: int, noun: str) -> str:
    """``n`` and ``noun``, plural unless one ("1 Politburo marker", "2 Politburo markers")."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"



#: Rules that place an eliminated unit of an optional force (001) somewhere else than the VP
#: chart: each ``(ctx, uid, turn, why, events) -> bool`` answers True once it has placed the
#: unit.  :mod:`rcw.rules.auxiliary` registers itself (the rule modules never import upwards).
ELIMINATION_RULES: list = []


class Ctx:
    """The rules' view of one game: data, state, board helpers and the RNG.  ``dice``: a
    source of die rolls put in place of the game's RNG (:class:`rcw.rng.LoadedDice`, for
    tests and look-ahead); None rolls with the seeded RNG, which is what replays need."""

    def __init__(self, data: GameData, state: State, dice: Dice | None = None) -> None:
        self.data = data
        self.s = state
        self.b = Board(data, state)
        self.dice = dice
        self.memo: dict = {}        # what follows from the data alone, worked out once a game

    # -- randomness --------------------------------------------------------------------
    def _rng(self) -> Rng:
        return Rng(self.s.rng)

    def die(self) -> int:
        if self.dice is not None:
            return self.dice.roll()
        r = self._rng()
        v = r.die()
        self.s.rng = r.state
        return v

    def below(self, n: int) -> int:
        r = self._rng()
        v = r.below(n)
        self.s.rng = r.state
        return v

    def shuffle(self, items: list) -> None:
        r = self._rng()
        r.shuffle(items)
        self.s.rng = r.state

    # -- naming --------------------------------------------------------------------------
    def name(self, uid: int) -> str:
        u = self.data.units[uid]
        return u.name if u.is_leader or u.is_imperial else u.label

    def names(self, uids) -> str:
        return ", ".join(self.name(u) for u in uids)

    def bump(self, stat: str, n: int = 1) -> None:
        self.s.stats[stat] = self.s.stats.get(stat, 0) + n

    # -- stacks ----------------------------------------------------------------------------
    def new_stack(self, province: str, owner: str | None, units: list[int], attached: dict[int, int] | None = None) -> Stack:
        st = Stack(self.s.next_stack, province, owner, list(units), dict(attached or {}))
        self.s.next_stack += 1
        self.s.stacks[st.id] = st
        self.b.invalidate()
        return st

    def take(self, uid: int) -> Stack:
        """Remove a unit from its stack (keeping the rest consistent) and return that stack."""
        st = self.b.stack_of(uid)
        assert st is not None, uid
        u = self.data.units[uid]
        holder = st.attached.get(uid, 0) if u.is_imperial else 0
        stolen = [x for x, v in st.attached.items() if v == uid and self.data.units[x].is_combat
                  and self.data.units[x].color != u.color] if u.is_leader else []
        st.units.remove(uid)
        st.attached.pop(uid, None)
        if u.is_leader:
            for k in [k for k, v in st.attached.items() if v == uid]:
                del st.attached[k]
        if stolen or (holder and holder in st.units):
            self.forfeit(st, stolen)
        self.tidy(st)
        self.b.invalidate()
        return st

    def forfeit(self, st: Stack, released: list[int]) -> None:
        """004 [13.29]: a Leader who loses an Imperial unit forfeits its benefit at once.  Engine
        reading: the units he can no longer hold stop being attached and are set apart in the
        same province - Green units (004 [13.26]) first, back under the holder of their Control
        Marker, then his own colour's units from the bottom, still his player's.  ``released``
        are Green units whose Gold-holding Leader has just left the stack."""
        d = self.data
        drop_own: list[int] = []
        drop_green = [x for x in released if x in st.units]
        for lead in self.b.leaders_of(st):
            own, gslots = self.b.capacity(st, lead)
            lc = d.units[lead].color
            att = [x for x in self.b.attached_to(st, lead) if d.units[x].is_combat]
            greens = [x for x in att if d.units[x].color != lc]
            drop_green += greens[gslots:]
            kept = [x for x in att if x not in greens[gslots:]]
            for x in reversed([x for x in kept if d.units[x].color == lc]):
                if len(kept) <= own:
                    break
                kept.remove(x)
                drop_own.append(x)
        if not drop_own and not drop_green:
            return
        for x in drop_own + drop_green:
            st.units.remove(x)
            st.attached.pop(x, None)
        if drop_own:
            self.new_stack(st.province, st.owner, list(reversed(drop_own)))
        by_nat: dict[str, list[int]] = {}
        for x in drop_green:
            by_nat.setdefault(d.units[x].nationality, []).append(x)
        for nat, xs in by_nat.items():
            holder = self.s.control.get(nat)
            self.new_stack(st.province, holder if holder and holder not in self.s.quit else None, xs)
        self.b.invalidate()

    def tidy(self, st: Stack) -> None:
        """Drop an empty stack; an Imperial unit left alone is under no one's control (004 [13.42]);
        an Imperial unit in a Blue/Green stack rides with the stack."""
        if not st.units:
            self.s.stacks.pop(st.id, None)
            self.b.invalidate()
            return
        fighting = [u for u in st.units if not self.data.units[u].is_imperial]
        if not fighting:
            st.owner = None
            st.attached.clear()
            return
        leaders = [u for u in fighting if self.data.units[u].is_leader]
        for imp in (self.data.czar, self.data.gold):
            if imp in st.units:
                lead = st.attached.get(imp)
                if lead and lead not in st.units:
                    lead = 0
                if not lead and leaders:
                    st.attached[imp] = leaders[0]
                elif not leaders:
                    st.attached[imp] = 0

    def put(self, uid: int, st: Stack, leader: int = 0) -> None:
        st.units.append(uid)
        u = self.data.units[uid]
        if leader or (u.is_imperial and not self.b.leaders_of(st)):
            st.attached[uid] = leader
        self.b.invalidate()

    # -- the Victory Point Chart ---------------------------------------------------------------
    def to_chart(self, uid: int, section: str, face_up: bool = True) -> None:
        self.s.vp.setdefault(section, []).append([uid, face_up])

    def from_chart(self, uid: int) -> None:
        for entries in self.s.vp.values():
            for e in entries:
                if e[0] == uid:
                    entries.remove(e)
                    return

    def eliminate(self, uid: int, section: str, events: list[Event], why: str, turn: int | None = None) -> None:
        """Remove a unit from the map to a section of the VP chart (004 [8.45], [8.46], [12.11]).
        An optional force of 001 eliminated in Game-Turn ``turn`` (None: the current one) may go
        elsewhere by its own rules (:func:`rcw.rules.auxiliary.eliminated`)."""
        if self.data.units[uid].option:
            when = self.s.turn if turn is None else turn
            if any(rule(self, uid, when, why, events) for rule in ELIMINATION_RULES):
                return
        st = self.b.stack_of(uid)
        owner = st.owner if st else None
        self.take(uid)
        self.to_chart(uid, section)
        where = "the unassigned section" if section == UNASSIGNED else f"{section}'s section"
        events.append(Event("eliminated", f"{self.name(uid)} eliminated ({why}); to {where} of the VP chart",
                            {"unit": uid, "section": section, "why": why}))
        if uid in (LENIN, TROTSKY):
            self.s.red_block_new.append(uid)        # 004 [9.14]
            if owner and self.s.politburo.get(owner, 0) > 0:   # 004 [11.32]
                self.s.politburo[owner] -= 1
                self.s.aux.append("P")
                events.append(Event("politburo_sacrificed",
                                    f"{owner} sacrifices a Politburo marker to the Randomizer for {self.name(uid)} (004 [11.32])",
                                    {"seat": owner}))

    # -- checks ------------------------------------------------------------------------------------
    @staticmethod
    def illegal(rule: str, msg: str, code: str = "illegal_action") -> IllegalAction:
        return IllegalAction(rule, msg, code)

    def require_decision(self, seat: str, kind: str, rule: str, none: str, owner: str = "") -> dict:
        """The decision of ``kind`` that suspends play, which ``seat`` must answer (004 [4.2]): else
        ``no_decision`` (``none`` says why) or ``not_your_decision`` (``owner``, where ``{owner}``
        is the deciding seat and ``{seat}`` the one asking)."""
        d = self.s.decision
        if d is None or d.get("kind") != kind:
            raise self.illegal(rule, none, "no_decision")
        if d["seat"] != seat:
            raise self.illegal(rule, (owner or "{owner} decides this, not {seat}").format(owner=d["seat"], seat=seat),
                               "not_your_decision")
        return d

    def require_phasing(self, seat: str, phase: str | tuple[str, ...] | None = None) -> None:
        ph = self.b.phasing()
        if ph is None:
            raise self.illegal("004 [4.2]", f"no Player-Turn is in progress (phase {self.s.phase})", "wrong_phase")
        if seat != ph:
            raise self.illegal("004 [4.2]", f"it is {ph}'s Player-Turn, not {seat}'s", "not_your_turn")
        if phase is not None:
            phases = (phase,) if isinstance(phase, str) else phase
            if self.s.phase not in phases:
                raise self.illegal("004 [4.2]", f"not allowed in the {self.s.phase.replace('_', ' ')} phase", "wrong_phase")
        if self.s.decision is not None:
            d = self.s.decision
            raise self.illegal("004 [4.2]", f"waiting for {d['seat']} to decide ({d['kind']})", "decision_pending")
