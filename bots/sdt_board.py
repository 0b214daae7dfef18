"""Read helpers over a player's ``view`` (and the static data) for the SDT bot.

Everything here is a pure function of ``game.view(seat)`` and :func:`rcw.data.default`;
it never touches a :class:`rcw.game.Game`.  Reachability mirrors the movement rules the
engine enforces (004 [5.2]-[5.7]); the bot still checks every step against
``legal_actions`` before it takes it.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from functools import cache

from rcw.data import BLUE, GREEN, RED, SIBERIA, WHITE, GameData, default

LEADER_MA, BLUE_GREEN_MA, STACK_LIMIT = 5, 3, 5


@cache
def data() -> GameData:
    return default()


def opposed(a: str, b: str) -> bool:
    """004 [8.11]-[8.15] (same table as :func:`rcw.state.opposed`)."""
    if not a or not b or a == b:
        return False
    if RED in (a, b):
        return True
    return {a, b} == {WHITE, GREEN}


@dataclass
class VStack:
    id: int
    province: str
    owner: str | None
    units: list[int]
    attached: dict[int, int]
    color: str
    fighting: list[int] = field(default_factory=list)
    leaders: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        du = data().units
        self.fighting = [u for u in self.units if not du[u].is_imperial]
        self.leaders = [u for u in self.units if du[u].is_leader]

    def attack_units(self) -> list[int]:
        """004 [8.28]: leaders, combat units attached to a leader, Blue/Green units."""
        d = data()
        out = []
        for u in self.units:
            uu = d.units[u]
            if uu.is_imperial:
                continue
            if uu.is_leader or self.attached.get(u) or uu.color in (BLUE, GREEN):
                out.append(u)
        return out

    def attack_strength(self) -> int:
        d = data()
        return sum(d.units[u].strength for u in self.attack_units())

    def defense(self) -> int:
        d = data()
        return sum(d.units[u].strength for u in self.fighting)

    def attached_to(self, leader: int) -> list[int]:
        return [u for u in self.units if self.attached.get(u) == leader]

    def has_imperial(self) -> bool:
        d = data()
        return d.czar in self.units or d.gold in self.units


@dataclass
class Board:
    """The map as one player sees it."""

    view: dict
    stacks: list[VStack] = field(default_factory=list)
    by_id: dict[int, VStack] = field(default_factory=dict)
    where: dict[int, VStack] = field(default_factory=dict)
    colors_in: dict[str, set[str]] = field(default_factory=dict)

    @classmethod
    def of(cls, view: dict) -> Board:
        b = cls(view)
        for s in view["stacks"]:
            st = VStack(s["id"], s["province"], s["owner"], list(s["units"]),
                        {int(k): int(v) for k, v in s["attached"].items()}, s["color"])
            b.stacks.append(st)
            b.by_id[st.id] = st
            for u in st.units:
                b.where[u] = st
            if st.fighting:
                b.colors_in.setdefault(st.province, set()).add(st.color)
        return b

    # -- who holds what ------------------------------------------------------------------
    def mine(self, seat: str) -> list[VStack]:
        return [s for s in self.stacks if s.owner == seat]

    def holder(self, uid: int) -> str | None:
        st = self.where.get(uid)
        return st.owner if st else None

    def leadership(self, seat: str) -> tuple[int, int]:
        """(Red, White) leader values a player controls on the map (the PIT markers)."""
        d = data()
        red = white = 0
        for st in self.stacks:
            if st.owner != seat:
                continue
            for u in st.leaders:
                if d.units[u].color == RED:
                    red += d.units[u].strength
                elif d.units[u].color == WHITE:
                    white += d.units[u].strength
        return red, white

    def controls_any(self, seat: str) -> bool:
        return any(s.owner == seat and s.fighting for s in self.stacks)

    # -- movement ----------------------------------------------------------------------------
    def reach(self, start: str, color: str, leader: bool, nationalities: frozenset[str] = frozenset(),
              extra_blocked: dict[str, set[str]] | None = None) -> dict[str, list[tuple[str, bool]]]:
        """Provinces a force of ``color`` starting in ``start`` can reach this Movement Phase,
        with one path each (list of (province, by_rail)).  A force stops on entering a
        province holding units of another colour (004 [5.27]); overland costs 1 MP per
        province (leaders 5, Blue/Green 3, 004 [5.0], [5.63]); rail only for Red/White forces
        with a leader that start in a rail province (004 [5.5]); the Kerch Straits are White
        only (004 [5.32]); Czech/Japanese stay in Siberia (004 [5.65]); Green units stay in
        their region (004 [5.74]-[5.76])."""
        d = data()
        colors_in = self.colors_in
        ma = LEADER_MA if leader else BLUE_GREEN_MA
        ma = int(self.view.get("options", {}).get("leader_movement", ma)) if leader else ma

        def blocked(p: str) -> bool:
            cs = colors_in.get(p, set())
            if extra_blocked and p in extra_blocked:
                cs = cs | extra_blocked[p]
            return any(c != color for c in cs)

        def allowed(a: str, b: str) -> bool:
            if frozenset((a, b)) in d.white_only_borders and color != WHITE:
                return False
            region = d.provinces[b].region
            for nat in nationalities:
                if nat in d.siberia_only and region != SIBERIA:
                    return False
                if nat == "FN" and b not in d.finnish_provinces:
                    return False
                if nat == "PO" and region not in d.polish_regions:
                    return False
                if nat in d.green_home_region and nat not in ("FN", "PO") and color == GREEN \
                        and region != d.green_home_region[nat]:
                    return False
            return True

        out: dict[str, list[tuple[str, bool]]] = {}
        # overland
        seen = {start}
        q: deque[tuple[str, list[tuple[str, bool]]]] = deque([(start, [])])
        while q:
            p, path = q.popleft()
            if len(path) >= ma:
                continue
            if path and blocked(p):
                continue
            for n in sorted(d.provinces[p].adjacent):
                if n in seen or not allowed(p, n):
                    continue
                seen.add(n)
                np = path + [(n, False)]
                out[n] = np
                q.append((n, np))
        # rail
        if leader and color in (RED, WHITE) and d.provinces[start].rail:
            seen = {start}
            q = deque([(start, [])])
            while q:
                p, path = q.popleft()
                if path and blocked(p):
                    continue
                for n in sorted(d.provinces[p].rail):
                    if n in seen or not allowed(p, n):
                        continue
                    seen.add(n)
                    np = path + [(n, True)]
                    if n not in out or len(np) < len(out[n]):
                        out[n] = np
                    q.append((n, np))
        return out


def odds_col(att: int, dfn: int) -> int | None:
    """The CRT column (0 = 1:2, 1 = 1:1 ... 6 = 6:1) — :func:`rcw.rules.combat.odds_column`."""
    from rcw.rules.combat import odds_column

    return odds_column(att, dfn)
