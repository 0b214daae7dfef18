"""Whole postal games (004 [17.0]) between computer players finish with no engine error, and the
same seed gives the same game: SDT bots and random agents writing order sheets
(:mod:`rcw.bots.postal`), through the one match loop, summarised as ``rcw simulate --mode postal``.

The full soak - 500 SDT and 500 random games for 5 players, 200 of each for 3 and 6, up to 30
Game-Turns - is marked ``slow`` (``pytest -m slow``); the default run plays a few of each."""

from __future__ import annotations

import argparse

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rcw.bots.simulate import play, simulate
from test_properties import SWITCHES, playable

from rcw.modes import from_record


def summary(agents: str, players: int, games: int, seed: int = 0, max_turns: int = 30) -> dict:
    s = simulate(argparse.Namespace(games=games, players=players, agents=agents, seed=seed, max_turns=max_turns,
                                    mode="postal", json_only_quiet=True))
    s.pop("seconds")
    return s


def check(s: dict) -> None:
    assert s["engine_errors"] == 0, s["errors"]
    assert s["illegal_actions"] == 0
    assert s["completed"] == s["games"] and s["ended"]["unfinished"] == 0


@pytest.mark.parametrize("agents", ["sdt", "random"])
@pytest.mark.parametrize("players", [3, 5, 6])
def test_postal_games_finish(agents, players):
    s = summary(agents, players, 2, seed=1000, max_turns=8)
    check(s)
    assert s["stats"]["attacks"] > 0


def test_postal_same_seed_same_json_and_the_record_replays():
    a, b = summary("sdt", 5, 2, seed=3, max_turns=6), summary("sdt", 5, 2, seed=3, max_turns=6)
    assert a == b
    rec = play(5, 4, "random", 4, with_record=True, mode="postal")
    assert from_record(rec["record"]).state_hash() == rec["hash"]


@pytest.mark.slow
@pytest.mark.parametrize("agents, players, games", [("sdt", 5, 500), ("random", 5, 500), ("sdt", 3, 200),
                                                     ("random", 3, 200), ("sdt", 6, 200), ("random", 6, 200)])
def test_postal_soak(agents, players, games):
    s = summary(agents, players, games)
    check(s)
    assert summary(agents, players, 20) == summary(agents, players, 20)      # same seed, same JSON


# any set of the switches the postal game takes (those that change what the postal rules fix, as
# postal_movement, are dropped: playable)
postal_options = st.fixed_dictionaries({k: st.booleans() for k in SWITCHES if k != "postal_movement"}).map(
    lambda d: playable(d, "postal"))
postal_games = st.tuples(postal_options, st.sampled_from(["sdt", "random"]), st.sampled_from([3, 5, 6]),
                         st.integers(0, 2**31))


def finishes_and_replays(options: dict, agents: str, players: int, seed: int) -> None:
    rec = play(players, seed, agents, 6, with_record=True, options=options, mode="postal")
    assert rec["finished"] and rec["illegal"] == 0, rec
    assert from_record(rec["record"]).state_hash() == rec["hash"]


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(postal_games)
def test_postal_games_with_any_set_of_options_finish_and_replay(game):
    """Whole postal games (6 Game-Turns) with any set of the options it takes (001's forces and
    rules, the critic's suggestions, the deal, our readings): no engine error, no refused agent
    action, and the record replays to the same state."""
    finishes_and_replays(*game)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(postal_games)
def test_postal_games_with_any_set_of_options_soak(game):
    finishes_and_replays(*game)
