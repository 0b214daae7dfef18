"""The postal agents (rcw.bots.postal, 004 [17.0]): a sheet written by playing the phase in the
engine's rehearsal is carried out by the Gamesmaster exactly as it was rehearsed (when no one
else's orders get in the way), and every order on it is legal when it arrives."""

from __future__ import annotations

import pytest
from engine_helpers import D
from rcw.bots.postal import RandomPostalAgent, SDTPostalAgent

from rcw.modes import new_game
from rcw.player import Player
from rcw.postal import SubmitOrders

MOVES = ("move", "merge", "transfer", "emigrate", "czech_exit")


def _quiet_events(n: int) -> list[int]:
    roll = next(c.roll for c in D.tables.random_events.values() if c.result == "epidemic")
    return list(roll) * n


def _where(g, seat: str, gone=frozenset()) -> list[tuple]:
    """``seat``'s stacks as (province, units), leaving out the units in ``gone``."""
    out = [(s["province"], tuple(sorted(u for u in s["units"] if u not in gone)))
           for s in g.view(None)["stacks"] if s["owner"] == seat]
    return sorted(x for x in out if x[1])


@pytest.mark.parametrize("cls", [RandomPostalAgent, SDTPostalAgent])
@pytest.mark.parametrize("seed", range(4))
def test_postal_5_0_a_rehearsed_sheet_is_carried_out_as_rehearsed(cls, seed):
    """postal [5.0]: each seat's orders are adjudicated "as if that Player were the first to move"
    - the position its rehearsal played on - so with no other orders its moves end where they
    ended in the rehearsal; and no order of the sheet is refused on arrival."""
    g = new_game(5, seed, {"mode": "postal"})
    for p in g.seats:
        g.apply(SubmitOrders(p, 1, "trading", {"orders": []}))
    agent = cls("A", seed)
    sheet = agent.choose(Player(g, "A")).sheet.data
    moves = {"orders": [o for o in sheet["orders"] if o["order"] in MOVES]}
    gone = {u for v in agent.last.view(None)["vp"].values() for u, _ in v}   # (its assassinations: not ordered here)
    rehearsed = _where(agent.last, "A")
    got = g.check_sheet("A", sheet)
    # (a random purge order may be in doubt as things stand: the phase's trades may settle it)
    assert got["refused"] == [] and [w for w in got["warnings"] if w.get("step") != "as things stand"] == [], got
    epidemic_free = next(c for c in D.tables.random_events.values() if c.result == "epidemic")
    g.load_dice(list(epidemic_free.roll) * 2)
    g.apply(SubmitOrders("A", 1, "first", moves))
    for p in g.seats[1:]:
        g.apply(SubmitOrders(p, 1, "first", {"orders": []}))
    hit = set(epidemic_free.provinces)
    assert [x for x in _where(g, "A", gone) if x[0] not in hit] == [x for x in rehearsed if x[0] not in hit]
