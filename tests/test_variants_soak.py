"""Whole five-player games with each option of issue 14 (rcw.options: 001's No Leader Suicide and
drawn turn order, the Masses and its sub-switches, the critique's five historical suggestions,
the balanced deal), alone and together, between SDT bots and between random agents: every game
finishes, no agent action is refused (the bots ask the engine, which knows the options' rules)
and the engine raises nothing.

The full soak - 200 SDT and 200 random games for each option alone - is marked ``slow``
(``pytest -m slow``); the default run plays two of each."""

from __future__ import annotations

import pytest
from rcw.bots import simulate

OPTIONS: dict[str, dict] = {
    "no_leader_suicide": {"no_leader_suicide": True},           # 001 No Leader Suicide
    "drawn_turn_order": {"drawn_turn_order": True},             # 001 Start of Turn
    "masses": {"masses": True},                                 # 004 Masses (Ware)
    "masses_no_imperial": {"masses": True, "masses_no_imperial": True},
    "masses_subversion": {"masses": True, "masses_subversion": True},
    "german_withdrawal": {"german_withdrawal": True},           # 004 critique (DeBaun)
    "czech_penza_samara": {"czech_penza_samara": True},
    "leader_epidemics": {"leader_epidemics": True},
    "red_terror": {"red_terror": True},
    "evacuation": {"evacuation": True},
    "balanced_deal": {"balanced_deal": True},                   # ours
}
TOGETHER = {                # (the Masses exclude the Red Terror)
    "001 rules together": {"no_leader_suicide": True, "drawn_turn_order": True, "reduced_leader_movement": True},
    # every option of 001, its optional forces (Anarchists, Shock Armies, Freikorps, Additional
    # Randomizer Draws) with its rules (issue 14: "for all of 001's options together")
    "all of 001": {"anarchists": True, "shock_armies": True, "freikorps": True, "additional_draws": True,
                   "no_leader_suicide": True, "drawn_turn_order": True, "reduced_leader_movement": True},
    "all historical, balanced": {**{k: True for k in ("german_withdrawal", "czech_penza_samara", "leader_epidemics",
                                                      "red_terror", "evacuation", "balanced_deal")},
                                 "no_leader_suicide": True, "drawn_turn_order": True},
    "masses and more": {"masses": True, "masses_no_imperial": True, "no_leader_suicide": True, "drawn_turn_order": True,
                        "leader_epidemics": True, "evacuation": True, "balanced_deal": True, "german_withdrawal": True},
}


def soak(options: dict, agents: str, games: int, first_seed: int = 0) -> dict[str, int]:
    """Play ``games`` five-player games up to 30 Game-Turns; fail on an unfinished game, a refused
    agent action or an engine error (naming the seed).  Returns the stats added up."""
    total: dict[str, int] = {}
    for seed in range(first_seed, first_seed + games):
        try:
            rec = simulate.play(5, seed, agents, 30, options=options)
        except Exception as e:             # an engine error, with the seed that shows it
            raise AssertionError(f"{options} {agents} seed {seed}: {type(e).__name__}: {e}") from e
        assert rec["finished"], f"{options} {agents} seed {seed}: unfinished after {rec['actions']} actions"
        assert rec["illegal"] == 0, f"{options} {agents} seed {seed}: {rec['illegal']} refused agent actions"
        for k, v in rec["stats"].items():
            total[k] = total.get(k, 0) + v
    return total


@pytest.mark.parametrize("agents", ["sdt", "random"])
@pytest.mark.parametrize("name", list(OPTIONS) + list(TOGETHER))
def test_games_with_the_option_finish_legally(name, agents):
    soak({**OPTIONS, **TOGETHER}[name], agents, 2, first_seed=500)


@pytest.mark.slow
@pytest.mark.parametrize("agents", ["sdt", "random"])
@pytest.mark.parametrize("name", list(OPTIONS) + list(TOGETHER))
def test_two_hundred_games_with_the_option_finish_legally(name, agents):
    soak({**OPTIONS, **TOGETHER}[name], agents, 200)


def test_the_options_do_what_they_say_in_bot_games():
    """What ``rcw simulate --json`` counts for the options happens in SDT games (seeds chosen by
    no one: the first games)."""
    assert soak(OPTIONS["no_leader_suicide"], "sdt", 3).get("leaders_stacked_up", 0) > 0
    assert soak(OPTIONS["evacuation"], "random", 3).get("evacuated", 0) > 0
    assert soak(OPTIONS["masses"], "sdt", 3).get("purges", 0) == 0
