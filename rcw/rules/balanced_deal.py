"""A balanced deal (the option ``balanced_deal``, group ``deal``: ours, beyond the sources; players
of the boxed game complain of skewed deals).  The Initial Forces Randomizer is shuffled and dealt
as 004 [15.31] deals it; then counters change hands until the deal is balanced:

- each seat keeps the number of counters 004 [15.31] dealt it ("as equally as possible");
- three quantities are balanced: each seat's Red leadership (the values of its Red leaders), its
  White leadership, and its Politburo Markers (those dealt plus the one 004 [15.32] gives with
  Lenin and with Trotsky; none in the Masses, which deals none);
- "the least possible": the spread of a quantity is its largest share less its smallest; the
  deal minimises the three spreads lexicographically (the Red spread first, then the White, then
  the Politburo).  No deal can do better than a spread of 0 for a quantity that the number of
  players divides and 1 for one it does not (:func:`bounds`), and the deal reaches those bounds
  for every number of players, with or without the Masses (``tests/test_balanced_deal.py``), so
  it is the least possible.  (Whether the bounds can be reached depends on the counters and the
  number of players only, never on the shuffle; with data where they could not, the seeded deal
  would stand as dealt.)

How (exact, deterministic from the seed, a few milliseconds): the counters that add a single
point to one quantity (Red and White leaders of value 1, Politburo Markers) or none (Assassin
Markers) are interchangeable for the balance; the others (Lenin and Trotsky, the leaders of value
2 and 3) are few.  Each quantity's shares are fixed at the bounds (the seats that get the larger
share are tried in order of their seeded shares, largest first); the few large counters are then
placed by a depth-first search, each first tried with the seat it was dealt to, then the next seats
clockwise, until every seat's shares can be made up with single-point counters within its number
of counters.  Every seat then keeps the counters it was dealt where it can (the large ones the
search left with it, and its single-point counters up to the number it needs, the first dealt
first); the rest pass, in the order they were dealt, to the seats that lack them.
"""

from __future__ import annotations

from itertools import combinations

from rcw.rules.base import LENIN, TROTSKY, Ctx

UNIT = ((1, 0, 0), (0, 1, 0), (0, 0, 1), (0, 0, 0))      # single points of one quantity, or none


def kind(ctx: Ctx, chit, bonus: bool = True) -> tuple[int, int, int]:
    """What a counter adds to a seat's (Red leadership, White leadership, Politburo Markers)."""
    if chit == "P":
        return (0, 0, 1)
    if chit == "A":
        return (0, 0, 0)
    u = ctx.data.units[chit]
    if u.color == "Red":
        return (u.strength, 0, 1 if bonus and chit in (LENIN, TROTSKY) else 0)
    return (0, u.strength, 0)


def bounds(totals, n: int) -> tuple[int, ...]:
    """The least spread each quantity can have: 0 if ``n`` seats share it evenly, else 1."""
    return tuple(0 if t % n == 0 else 1 for t in totals)


def shares(ctx: Ctx, hands: dict[str, list], bonus: bool = True) -> list[tuple[int, int, int]]:
    """Each seat's (Red leadership, White leadership, Politburo Markers)."""
    return [tuple(sum(kind(ctx, c, bonus)[q] for c in h) for q in range(3)) for h in hands.values()]


def spreads(ctx: Ctx, hands: dict[str, list], bonus: bool = True) -> tuple[int, int, int]:
    """The spreads of (Red leadership, White leadership, Politburo Markers) of ``hands``."""
    vs = shares(ctx, hands, bonus)
    return tuple(max(v[q] for v in vs) - min(v[q] for v in vs) for q in range(3))


def balance(ctx: Ctx, hands: dict[str, list], bonus: bool = True) -> dict[str, list]:
    """``hands`` (seat -> the counters dealt it, in order: leader ids, "P", "A") balanced; ``bonus``:
    Lenin and Trotsky bring a Politburo Marker (004 [15.32])."""
    seats = list(hands)
    n = len(seats)
    size = [len(hands[p]) for p in seats]
    seeded = shares(ctx, hands, bonus)
    totals = [sum(v[q] for v in seeded) for q in range(3)]
    big = [(s, c, kind(ctx, c, bonus)) for s, p in enumerate(seats) for c in hands[p] if kind(ctx, c, bonus) not in UNIT]
    big.sort(key=lambda x: -(sum(x[2]) - 1))          # (the largest first: the search prunes sooner)
    plus = []
    for q in range(3):                                 # who gets the larger share, most likely first
        order = sorted(range(n), key=lambda s, q=q: (-seeded[s][q], s))
        plus.append(sorted(combinations(order, totals[q] % n), key=lambda cs, q=q: (-sum(seeded[s][q] for s in cs),
                                                                                   sorted(cs))))
    for pr in plus[0]:
        for pw in plus[1]:
            for pp in plus[2]:
                target = [tuple(totals[q] // n + (s in (pr, pw, pp)[q]) for q in range(3)) for s in range(n)]
                placed = _place(big, target, size, n)
                if placed is not None:
                    return _hands(ctx, hands, seats, big, placed, target, bonus)
    return hands


def _place(big: list, target: list, size: list[int], n: int) -> list[int] | None:
    """A seat for each large counter of ``big`` (in order) such that every seat's shares can be
    made up to ``target`` with single-point counters within its ``size``; None if there is none."""
    got = [[0, 0, 0] for _ in range(n)]
    # a seat's counters: its large ones plus the single points it still needs
    room = [size[s] - sum(target[s]) for s in range(n)]        # -(excess it needs from large counters)
    left = sum(sum(k) - 1 for _s, _c, k in big)
    out: list[int] = []

    def need() -> int:
        return sum(max(0, -room[s]) for s in range(n))

    def go(i: int) -> bool:
        nonlocal left
        if i == len(big):
            return all(r >= 0 for r in room)
        dealt, _c, k = big[i]
        ex = sum(k) - 1
        for step in range(n):
            s = (dealt + step) % n
            if any(got[s][q] + k[q] > target[s][q] for q in range(3)):
                continue
            for q in range(3):
                got[s][q] += k[q]
            room[s] += ex
            left -= ex
            out.append(s)
            if left >= need() and go(i + 1):
                return True
            out.pop()
            left += ex
            room[s] -= ex
            for q in range(3):
                got[s][q] -= k[q]
        return False

    return out if go(0) else None


def _hands(ctx: Ctx, hands: dict[str, list], seats: list[str], big: list, placed: list[int], target: list,
           bonus: bool) -> dict[str, list]:
    """The balanced hands: the large counters where the search put them; each seat's single-point
    counters of each kind up to what it needs, its own (the first dealt) first, the rest passed on
    in the order they were dealt."""
    n = len(seats)
    out: list[list] = [[] for _ in range(n)]
    got = [[0, 0, 0] for _ in range(n)]
    for (_s, c, k), s in zip(big, placed, strict=True):
        out[s].append(c)
        for q in range(3):
            got[s][q] += k[q]
    size = [len(hands[p]) for p in seats]
    for u in UNIT:
        q = u.index(1) if 1 in u else None
        want = [target[s][q] - got[s][q] if q is not None else 0 for s in range(n)]
        if q is None:            # Assassin Markers (last): whatever room is left
            want = [size[s] - len(out[s]) for s in range(n)]
        pool = []
        for s, p in enumerate(seats):
            mine = [c for c in hands[p] if kind(ctx, c, bonus) == u]
            keep = min(len(mine), want[s])
            out[s] += mine[:keep]
            want[s] -= keep
            pool += mine[keep:]
        for s in range(n):
            out[s] += pool[:want[s]]
            pool = pool[want[s]:]
    return {p: out[s] for s, p in enumerate(seats)}
