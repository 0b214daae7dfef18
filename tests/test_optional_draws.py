"""001 Additional Randomizer Draws (the option ``additional_draws``): a player whose Red or White
forces alone hold a Russian city may draw twice in his Randomizer Phase, three times with Moscow
(Tver) or Petrograd.  Each test cites ``001 Additional Randomizer Draws``
(tests/rules_coverage.py)."""

from __future__ import annotations

from engine_helpers import blank, phase, put, refused

from rcw import actions as A
from rcw.player import Player

OPT = {"additional_draws": True}
RULE = "001 Additional Randomizer Draws"


def randomizer_phase(g, seat: str = "A", chits: int = 6) -> None:
    """``seat``'s Randomizer Phase, the cup full of Assassin markers; a leader of his stands with
    another player's in Volhynia (no city), so that once he has drawn an Assassin marker his
    Player-Turn stays open after his draws (004 [10.0]) and a draw too many can be asked for."""
    put(g, "VOLY", seat, "Sablin")
    put(g, "VOLY", "E" if seat != "E" else "D", "Muraviev")
    phase(g, seat, "randomizer")
    g.state.aux = ["A"] * chits                    # Assassin markers: nothing else happens
    g.state.assassins = {p: 0 for p in g.state.seats}


def draws(g, seat: str = "A") -> int:
    """Draw while the engine allows (every DrawRandomizer listed is taken); how many were made."""
    n = 0
    while A.DrawRandomizer(seat) in g.legal_actions(seat):
        g.apply(A.DrawRandomizer(seat))
        n += 1
    return n


def test_5_37_without_the_option_cities_do_nothing():
    """004 [5.37]: "The Cities printed on the map have no effect on game play": one draw, even
    holding Moscow."""
    g = blank()
    put(g, "TVER", "A", "Trotsky", "RU8 TVER", attach={"RU8 TVER": "Trotsky"})
    randomizer_phase(g)
    assert draws(g) == 1


def test_a_city_held_alone_gives_two_draws_moscow_or_petrograd_three():
    """001 Additional Randomizer Draws: "If any Russian province containing a city is occupied
    solely [by] Red or White forces under the sole control of one player, that player may make
    up to two Randomizer draws during his turn.  If either Moscow or Petrograd are controlled,
    this option increases to three draws"."""
    g = blank(options=OPT)
    put(g, "KIEV", "A", "Trotsky", "RU8 TVER", attach={"RU8 TVER": "Trotsky"})
    put(g, "KIEV", "A", "WU6 KHAR")                # his White units too
    randomizer_phase(g)
    assert draws(g) == 2
    refused(g, A.DrawRandomizer("A"), RULE)
    assert g.stats["extra_draws"] == 1
    g = blank(options=OPT)
    put(g, "PETR", "A", "Lenin")
    randomizer_phase(g)
    assert draws(g) == 3
    assert g.state.assassins["A"] == 3


def test_bonus_draws_come_from_one_city_only():
    """001 Additional Randomizer Draws: "No player may gain bonus draws from more than one city
    in this manner": two cities give two draws, Moscow and Kiev three."""
    g = blank(options=OPT)
    put(g, "KIEV", "A", "Trotsky")
    put(g, "KHAR", "A", "Lenin")
    randomizer_phase(g)
    assert draws(g) == 2
    g = blank(options=OPT)
    put(g, "KIEV", "A", "Trotsky")
    put(g, "TVER", "A", "Lenin")
    randomizer_phase(g)
    assert draws(g) == 3


def test_no_bonus_unless_his_red_or_white_forces_alone_hold_a_russian_city():
    """001 Additional Randomizer Draws: another player's unit there, his own Blue or Green units,
    a province without a city, a city outside Russia (Helsingfors): one draw."""
    cases = [
        [("KIEV", "A", ("Trotsky",)), ("KIEV", "B", ("GU4 KIEV",))],
        [("KIEV", "A", ("GU4 KIEV",))],
        [("KIEV", "A", ("BU2 KHER/FR",)), ("KIEV", "A", ("Lenin",))],
        [("PODO", "A", ("Trotsky",))],
        [("FINL", "A", ("Trotsky",))],
    ]
    for case in cases:
        g = blank(options=OPT)
        for prov, owner, labels in case:
            put(g, prov, owner, *labels)
        randomizer_phase(g)
        assert draws(g) == 1, case
        refused(g, A.DrawRandomizer("A"), RULE)


def test_imperial_units_alone_do_not_count():
    """001 Additional Randomizer Draws (our reading): an Imperial unit alone in the city neither
    occupies it nor spoils it."""
    g = blank(options=OPT)
    put(g, "OMSK", "A", "Kolchak")
    put(g, "OMSK", None, "Gold")
    randomizer_phase(g)
    assert draws(g) == 2


def test_the_bonus_draws_are_the_players_choice():
    """001 Additional Randomizer Draws: "may make up to two": after the first draw the Player-Turn
    stays open; the player draws again or ends it."""
    g = blank(options=OPT)
    put(g, "TVER", "A", "Trotsky")
    randomizer_phase(g)
    ev = g.apply(A.DrawRandomizer("A"))
    assert g.pending == [{"seat": "A", "kind": "randomizer"}]
    assert any(e.kind == "phase" and "may draw again" in e.text for e in ev)
    assert {A.DrawRandomizer("A"), A.EndPlayerTurn("A")} <= set(g.legal_actions("A"))
    g.apply(A.EndPlayerTurn("A"))
    assert g.pending == [{"seat": "B", "kind": "random_events"}] and g.stats["extra_draws"] == 0


def test_may_draw_answers_as_the_rules_then_allow():
    """004 [4.2] A.4 and 001 Additional Randomizer Draws: ``Game.may_draw`` (and
    ``Player.may_draw``) says whether a Randomizer draw is open, as ``DrawRandomizer`` is then
    allowed: before the first draw, after it while a bonus draw is left, and for no one else."""
    g = blank(options=OPT)
    put(g, "PETR", "A", "Trotsky")
    randomizer_phase(g)
    p = Player(g, "A")
    seen = []
    while True:
        for seat in g.state.seats:
            assert g.may_draw(seat) == g.is_legal(A.DrawRandomizer(seat)), seat
        assert p.may_draw() == g.may_draw("A")
        seen.append(p.may_draw())
        if not p.may_draw():
            break
        g.apply(A.DrawRandomizer("A"))
    assert seen == [True, True, True, False]
