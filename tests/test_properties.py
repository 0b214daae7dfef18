"""Properties of random legal play (hypothesis): nothing is lost or duplicated, the stacking
rules always hold, a game is its seed plus its actions, and a saved game continues exactly as
the original."""

from __future__ import annotations

import random

import pytest
from engine_helpers import choose, play
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rcw import options as O
from rcw.actions import to_wire
from rcw.game import Game

SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


games = st.fixed_dictionaries({
    "players": st.sampled_from([3, 4, 5, 6]),
    "seed": st.integers(0, 2**32),
    "agent_seed": st.integers(0, 2**32),
    "steps": st.integers(50, 1500),
    "options": st.fixed_dictionaries({"max_turns": st.integers(1, 4), "postal_movement": st.booleans()}),
    # the share of steps taken out of turn by other seats: trades, Committee consents, purges
    "others": st.sampled_from([0.0, 0.1, 0.3]),
})


def playable(options: dict, mode: str = "standard") -> dict:
    """``options`` less those the registry says may not be set with the others (a variant's
    sub-switch without its variant, the second of two options that exclude each other) or in
    the game ``mode``."""
    out: dict = {}
    for k, v in options.items():
        o = O.OPTIONS[k]
        on = [j for j, w in out.items() if w != O.OPTIONS[j].default]
        if v != o.default and (o.requires and not out.get(o.requires) or o.modes and mode not in o.modes
                               or any(j in o.conflicts or k in O.OPTIONS[j].conflicts for j in on)):
            continue
        out[k] = v
    return O.validate(out, mode)


# every switch of the multi-player game (001's optional forces and rules, the variants printed in
# 004, our readings and the deal) in any combination the registry allows
SWITCHES = sorted(k for k, o in O.OPTIONS.items() if o.type is bool)
option_sets = st.fixed_dictionaries(
    {k: st.booleans() for k in SWITCHES},
    optional={"leader_movement": st.integers(2, 6)},
).map(lambda d: playable({**d, "max_turns": 3}))


def holds_with(game: dict, options: dict) -> None:
    """Random play with ``options``: every unit exactly once and stacking (checked along the
    way), and the game replays from its seed and actions to the same state."""
    g = play(**{**game, "options": options}, check_every=50)
    rec = g.record()
    again = Game.replay(rec["seed"], rec["actions"], rec["players"], rec["options"])
    assert again.state_hash() == g.state_hash()


@SETTINGS
@given(games)
def test_units_never_lost_or_duplicated_and_stacking_holds(game):
    """Every unit exactly once (map, VP chart, withdrawn); 004 [7.11]-[7.14], [5.14]."""
    play(**game, quit_ok=True)


@SETTINGS
@given(games)
def test_replay_reproduces_the_game(game):
    """Architecture: a game is its seed plus its action list."""
    holds_with(game, game["options"])


@SETTINGS
@given(games, st.integers(0, 2**32))
def test_saved_game_continues_identically(game, cont_seed):
    """Game.from_bytes(g.to_bytes()): same hash, then the same future."""
    g = play(**game, check_every=50)
    back = Game.from_bytes(g.to_bytes())
    assert back.state_hash() == g.state_hash()
    rng = random.Random(cont_seed)
    for _ in range(300):
        if g.over:
            assert back.over
            break
        seat = g.pending[0]["seat"]
        if rng.random() < game["others"]:                  # out of turn, as in play()
            seat = rng.choice([p for p in g.state.seats if p not in g.state.quit])
            if not [a for a in g.legal_actions(seat) if a.TYPE != "Quit"]:
                seat = g.pending[0]["seat"]
        legal = g.legal_actions(seat)
        assert back.pending == g.pending and back.legal_actions(seat) == legal
        a = choose(rng, legal, quit_ok=False)
        assert [to_wire(e) for e in g.apply(a)] == [to_wire(e) for e in back.apply(a)]
    assert back.state_hash() == g.state_hash()
    assert back.to_bytes() == g.to_bytes()


@SETTINGS
@given(games, option_sets)
def test_any_set_of_options_keeps_the_invariants_and_replays(game, options):
    """With any combination of the optional rules and variants: every unit exactly once,
    stacking holds, and the game is its seed plus its actions."""
    holds_with(game, options)


@pytest.mark.slow
@settings(SETTINGS, max_examples=500)
@given(games, option_sets)
def test_any_set_of_options_keeps_the_invariants_and_replays_soak(game, options):
    """The same over 500 games (``pytest -m slow``)."""
    holds_with(game, options)


def test_random_play_reaches_every_kind_of_play():
    """The random play above is not idle: over a few games it moves, fights, replaces, draws,
    trades markers, assassinates and purges (out of turn too)."""
    from engine_helpers import play as play_

    stats: dict[str, int] = {}
    for seed in range(4):
        g = play_(5, seed, seed, 1500, {"max_turns": 4}, check_every=100, others=0.3)
        for k, v in g.state.stats.items():
            stats[k] = stats.get(k, 0) + v
        assert len(g.log) > 300
    for k in ("attacks", "replacements", "trades", "assassination_attempts", "purges"):
        assert stats.get(k, 0) > 0, (k, stats)
