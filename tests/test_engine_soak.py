"""Whole random games finish with no engine error: random legal play (tests.engine_helpers.play)
to the end, the invariants of tests.engine_helpers.check_invariants checked along the way.

The full soak - 200 games for each of 3, 5 and 6 players, up to 30 Game-Turns - is marked
``slow`` (``pytest -m slow``); the default run plays 20 games per player count, up to 10
Game-Turns."""

from __future__ import annotations

import pytest
from engine_helpers import play

MAX_ACTIONS = 20_000    # a 30-turn random game takes 1,000-3,000 actions: more is a livelock


def run(players: int, games: int, max_turns: int, first_seed: int = 0, check_every: int = 25) -> None:
    for seed in range(first_seed, first_seed + games):
        g = play(players, seed, seed, MAX_ACTIONS, {"max_turns": max_turns, "postal_movement": seed % 2 == 1},
                 check_every=check_every)
        assert g.over, f"{players} players, seed {seed}: unfinished after {len(g.log)} actions"


@pytest.mark.parametrize("players", [3, 5, 6])
def test_random_games_finish(players):
    run(players, 20, 10, first_seed=10_000)


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 5, 6])
def test_two_hundred_random_games_finish(players):
    run(players, 200, 30)


def test_random_agent_calls_off_an_attack_rather_than_idle_for_ever():
    """bots.random_agent: once its budget of free political steps is spent, an agent whose
    only other choices undo an attack (which cannot be resolved) takes the undo step; before,
    it joined and left a one-man Committee for ever (3 players, seed 5: 200 000 actions)."""
    from rcw.bots.random_agent import FREE_BUDGET, RandomAgent

    from rcw import actions as A

    agent = RandomAgent("B", 0)
    view = {"turn": 3, "phase": "combat", "phasing": "B"}
    legal = [A.JoinCommittee("B", ("B",)), A.CancelAttack("B"), A.RemoveAttacker("B", 7), A.Quit("B")]
    picks = [agent.pick(view, legal).TYPE for _ in range(FREE_BUDGET + 5)]
    assert picks[FREE_BUDGET:] and all(p in ("CancelAttack", "RemoveAttacker") for p in picks[FREE_BUDGET:])
    assert "Quit" not in picks
