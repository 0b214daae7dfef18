"""The balanced deal (option ``balanced_deal``, group ``deal``; ours, beyond the sources:
rcw/rules/balanced_deal.py): the Initial Forces dealt (004 [15.31]) so that every seat's Red
leadership, White leadership and Politburo Markers (004 [15.32]'s included) differ by the least
possible, each seat keeping the number of counters 004 [15.31] deals it."""

from __future__ import annotations

import time
from collections import Counter

import pytest

from rcw.game import Game
from rcw.rules import balanced_deal as B
from rcw.rules.base import LENIN, TROTSKY


def _hands(g: Game) -> dict[str, list]:
    """What each seat was dealt: its leaders, its Politburo Markers less 004 [15.32]'s, its Assassins."""
    s = g.state
    bonus = not g.options.get("masses")
    return {p: list(s.hand[p]) + ["P"] * (s.politburo[p] - (bonus and sum(x in (LENIN, TROTSKY) for x in s.hand[p])))
            + ["A"] * s.assassins[p] for p in s.seats}


def _shares(g: Game) -> list[tuple[int, int, int]]:
    s, us = g.state, g.data.units
    return [(sum(us[u].strength for u in s.hand[p] if us[u].color == "Red"),
             sum(us[u].strength for u in s.hand[p] if us[u].color == "White"), s.politburo[p]) for p in s.seats]


@pytest.mark.parametrize("masses", [False, True], ids=["standard", "masses"])
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_deal_reaches_the_least_possible_spreads(players, masses):
    """For every shuffle: Red leadership, then White, then Politburo Markers spread by 0 where the
    players divide the total, else by 1 - no deal can do better, so the lexicographic minimum."""
    opts = {"balanced_deal": True, **({"masses": True} if masses else {})}
    for seed in range(60):
        plain, g = Game.new(players, seed, {"masses": True} if masses else None), Game.new(players, seed, opts)
        sh = _shares(g)
        spread = tuple(max(v[q] for v in sh) - min(v[q] for v in sh) for q in range(3))
        totals = tuple(sum(v[q] for v in sh) for q in range(3))
        assert spread == B.bounds(totals, players), (seed, sh)
        # the same counters, each seat as many as 004 [15.31] deals it
        a, b = _hands(plain), _hands(g)
        assert Counter(x for h in a.values() for x in h) == Counter(x for h in b.values() for x in h)
        assert {p: len(h) for p, h in a.items()} == {p: len(h) for p, h in b.items()}


def test_the_deal_is_the_seeds_and_most_of_it_stands():
    a, b = Game.new(5, 11, {"balanced_deal": True}), Game.new(5, 11, {"balanced_deal": True})
    assert a.state.hand == b.state.hand and a.state.politburo == b.state.politburo
    seeded = Game.new(5, 11)
    kept = sum(len(set(seeded.state.hand[p]) & set(a.state.hand[p])) for p in a.state.seats)
    assert kept >= 30                                   # of 50 leaders: a balanced deal, not a fixed one
    assert Game.new(5, 12, {"balanced_deal": True}).state.hand != a.state.hand


def test_a_skewed_deal_is_evened_out():
    """A shuffle whose plain deal gives one seat five Red points more than another (Lenin and
    Trotsky together, say) is dealt evenly."""
    def red_spread(g: Game) -> int:
        red = [v[0] for v in _shares(g)]
        return max(red) - min(red)
    seed = next(s for s in range(500) if red_spread(Game.new(5, s)) >= 5)
    assert red_spread(Game.new(5, seed, {"balanced_deal": True})) == 0


def test_the_search_is_fast():
    g = Game.new(6, 0)
    hands = _hands(g)
    t0 = time.perf_counter()
    for _ in range(20):
        B.balance(g.ctx, hands)
    assert (time.perf_counter() - t0) / 20 < 0.05
