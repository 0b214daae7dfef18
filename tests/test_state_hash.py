"""The state hash (``Game.state_hash``: SHA-256 of the msgpack of the state's canonical form) is
what a record is verified against (rcw.verify) and what every ``update`` frame carries, so it
must not change: the engine's canonical form (taking lists without a dict inside, and dicts of
string keys, whole) gives the hash of the plain recursion - every dict, at any depth, the list
of its ``[key, value]`` pairs sorted by ``str(key)`` - at every position of real games (SDT and
random games, with options, postal and solitaire) and for any plain data in the state."""

from __future__ import annotations

import hashlib

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rcw.bots import make_agent, simulate, spi
from rcw.bots.match import Match

from rcw.actions import action_from_wire
from rcw.game import Game
from rcw.modes import new_game


def plain_canonical(x):
    """The canonical form as the plain recursion over every element."""
    if isinstance(x, dict):
        return [[plain_canonical(k), plain_canonical(v)] for k, v in sorted(x.items(), key=lambda kv: str(kv[0]))]
    if isinstance(x, (list, tuple)):
        return [plain_canonical(v) for v in x]
    return x


def plain_hash(g: Game) -> str:
    return hashlib.sha256(msgpack.packb(plain_canonical(g.state.to_dict()), use_bin_type=True)).hexdigest()


def solitaire_record(seed: int) -> dict:
    g = new_game(1, seed, {"mode": spi.MODE})
    Match(g, {"R": spi.red_agent("sdt", seed)}).play(100_000)
    return g.record()


RECORDS = {
    "sdt": lambda: simulate.play(5, 1001, "sdt", 0, with_record=True)["record"],
    "random, 001's options": lambda: simulate.play(
        5, 702, "random", 30, with_record=True,
        options={"anarchists": True, "shock_armies": True, "freikorps": True, "additional_draws": True,
                 "no_leader_suicide": True, "drawn_turn_order": True})["record"],
    "sdt, the Masses": lambda: simulate.play(5, 803, "sdt", 30, with_record=True,
                                             options={"masses": True, "leader_epidemics": True})["record"],
    "postal": lambda: simulate.play(5, 500, "sdt", 8, with_record=True, mode="postal")["record"],
    "solitaire": lambda: solitaire_record(900),
}


@pytest.mark.parametrize("name", list(RECORDS))
def test_every_position_of_a_game_hashes_as_the_plain_recursion(name):
    rec = RECORDS[name]()
    g = new_game(rec["players"], rec["seed"], rec["options"])
    assert g.state_hash() == plain_hash(g)
    offers = decisions = 0
    for a in rec["actions"]:
        g.apply(action_from_wire(a))
        assert g.state_hash() == plain_hash(g), f"{name}: position {len(g.log)}"
        offers += bool(g.state.offers)
        decisions += g.state.decision is not None
    assert len(rec["actions"]) > 20
    if name == "sdt":      # (positions with dicts inside lists: trade offers, decisions that suspend play)
        assert offers and decisions


PLAIN = st.none() | st.booleans() | st.integers(-2**63, 2**64 - 1) | st.floats(allow_nan=False) | st.text(max_size=5) \
    | st.binary(max_size=4)
KEYS = st.text(max_size=3) | st.integers(-3, 12)       # (1 and "1" sort alike: the order they were put in)
DATA = st.recursive(PLAIN, lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
                    | st.dictionaries(KEYS, inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=4),
                    max_leaves=30)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(optional=st.dictionaries(st.text(max_size=4), DATA, max_size=4), stats=st.dictionaries(KEYS, DATA, max_size=3),
       removed=st.lists(DATA, max_size=4))
def test_any_plain_data_in_the_state_hashes_as_the_plain_recursion(optional, stats, removed):
    g = Game.new(5, 3)
    g.state.optional, g.state.stats, g.state.removed = optional, stats, removed
    assert g.state_hash() == plain_hash(g)


def test_a_state_hashes_as_before_after_a_game():
    """The hash of a known position (SDT game, seed 3, 200 actions) against the plain recursion
    and against its saved copy: what records and snapshots carry stays valid."""
    g = Game.new(5, 3)
    Match(g, {p: make_agent("sdt", p, 3) for p in g.seats}).play(200)
    assert g.state_hash() == plain_hash(g) == Game.from_bytes(g.to_bytes()).state_hash()
