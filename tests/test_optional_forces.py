"""001's optional forces and Additional Randomizer Draws, whole games: random legal play keeps
every unit exactly once and every stacking rule (hypothesis), a game with options is still its
seed plus its actions, ``rcw simulate`` reports what the options did, and the SDT bots and the
random agent play whole five-player games with each option alone and all together with no
illegal action and no engine error.

The full soak (200 SDT and 200 random games for each option alone and for all of them together
with 001's Reduced leader movement, up to 30 Game-Turns) is marked ``slow`` (``pytest -m
slow``); the default run plays two games of each."""

from __future__ import annotations

import argparse
import json

import pytest
from engine_helpers import play as random_play
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rcw.bots.simulate import play as bot_play
from rcw.bots.simulate import run as simulate_run

from rcw.game import Game
from rcw.options import OPTIONS

FORCES = ("anarchists", "shock_armies", "freikorps", "additional_draws")
ALL = {**{o: True for o in FORCES}, "reduced_leader_movement": True}
SETS = {o: {o: True} for o in FORCES} | {"all": ALL}
SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])

games = st.fixed_dictionaries({
    "players": st.sampled_from([3, 5, 6]),
    "seed": st.integers(0, 2**32),
    "agent_seed": st.integers(0, 2**32),
    "steps": st.integers(100, 1500),
    "options": st.fixed_dictionaries({"max_turns": st.integers(2, 8), "postal_movement": st.booleans(),
                                      **{o: st.booleans() for o in FORCES}}),
    "others": st.sampled_from([0.0, 0.1]),
})


def test_the_options_are_registered_off_by_default_in_the_001_group():
    """001 Anarchists, 001 Freikorps, 001 Shock Armies, 001 Additional Randomizer Draws: each a
    game option, off by default, citing its source."""
    for name in FORCES:
        o = OPTIONS[name]
        assert o.type is bool and o.default is False and o.group == "001" and o.source.startswith("001 ")


@SETTINGS
@given(games)
def test_units_never_lost_or_duplicated_with_the_optional_forces(game):
    """Every unit exactly once (map, VP chart, withdrawn, waiting in the Randomizer or being
    placed), Anarchists never stacked, 004 [7.11]-[7.14] - with any of 001's optional forces."""
    random_play(**game, quit_ok=True, check_every=5)


@SETTINGS
@given(games)
def test_a_game_with_options_replays_from_its_record(game):
    """A game with 001's options is its seed, options and actions (the Roving Attack's die and
    ties, the Freikorps' landing die, every chit drawn)."""
    g = random_play(**game, check_every=100)
    rec = g.record()
    again = Game.replay(rec["seed"], rec["actions"], rec["players"], rec["options"])
    assert again.state_hash() == g.state_hash()
    back = Game.from_bytes(g.to_bytes())
    assert back.state_hash() == g.state_hash() and set(back.data.units) == set(g.data.units)


def test_simulate_reports_what_the_options_did(capsys):
    """``rcw simulate``'s summary counts what the optional forces did (``Game.stats``: Roving
    Attacks, Makhno's returns, Shock Armies and the Freikorps placed, extra draws...)."""
    args = argparse.Namespace(agents="random", players=5, games=2, seed=3, max_turns=10, json=True, mode="",
                              json_only_quiet=True, options=ALL)
    assert simulate_run(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["illegal_actions"] == 0 and out["engine_errors"] == 0
    for k in ("roving_attacks", "makhno_returns", "anarchist_control", "anarchists_placed", "shock_armies_placed",
              "shock_armies_returned", "freikorps_placed", "freikorps_out", "extra_draws"):
        assert k in out["stats"], k
    assert out["stats"]["extra_draws"] > 0 and out["stats"]["shock_armies_placed"] > 0


def _soak(agent: str, options: dict, games: int, first_seed: int = 0) -> None:
    for seed in range(first_seed, first_seed + games):
        rec = bot_play(5, seed, agent, 30, options=options)
        assert rec["finished"], f"{agent} {options} seed {seed}: unfinished"
        assert rec["illegal"] == 0, f"{agent} {options} seed {seed}: {rec['illegal']} illegal actions"


@pytest.mark.parametrize("agent", ["sdt", "random"])
@pytest.mark.parametrize("which", sorted(SETS))
def test_bots_play_whole_games_with_each_option(agent, which):
    """001's optional forces and Additional Randomizer Draws: five-player games between SDT bots
    and between random agents finish with no illegal action and no engine error (two each here;
    the slow soak plays 200)."""
    _soak(agent, SETS[which], 2, first_seed=1000)


@pytest.mark.slow
@pytest.mark.parametrize("agent", ["sdt", "random"])
@pytest.mark.parametrize("which", sorted(SETS))
def test_two_hundred_games_with_each_option(agent, which):
    """The soak: 200 five-player games per agent kind with each option alone and with all of
    them (and 001 Reduced leader movement) together."""
    _soak(agent, SETS[which], 200)
