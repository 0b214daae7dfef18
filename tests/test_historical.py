"""The critique's historical suggestions (004, Richard F. DeBaun's critique: "RCW omits important
historical factors ... For example:"), each a game option of the group ``historical``
(rcw/rules/historical.py; docs/variants.md gives the numbers we chose): German withdrawal on
Game-Turn 2, the Czechs at Penza and Samara, leaders subject to epidemics, the Red Terror, the
evacuation of White units from a port."""

from __future__ import annotations

import pytest
from engine_helpers import blank, dice, phase, put, refused, run, started, uid, where

from rcw import actions as A
from rcw import options as O
from rcw.actions import IllegalAction
from rcw.game import Game
from rcw.modes import new_game
from rcw.rules.historical import CRITIQUE

HISTORICAL = ("german_withdrawal", "czech_penza_samara", "leader_epidemics", "red_terror", "evacuation")


def test_each_suggestion_is_an_option_of_its_own_labelled_as_a_critics_suggestion():
    for name in HISTORICAL:
        o = O.OPTIONS[name]
        assert (o.group, o.default, o.note) == ("historical", False, "a critic's suggestion")
        assert "DeBaun" in o.source
    with pytest.raises(IllegalAction, match="not played in the spi-solitaire game"):
        new_game(None, 1, {"mode": "spi-solitaire", "red_terror": True})


# -- "GERMAN WITHDRAWAL: ... The Germans should automatically be withdrawn on Turn 2." ----------------
def _ge_units(g: Game) -> list[int]:
    return sorted(u for st in g.state.stacks.values() for u in st.units
                  if g.data.units[u].nationality == "GE" and g.data.units[u].color == "Blue")


def _to_turn_2(g: Game) -> list:
    """End every Player-Turn of Game-Turn 1 (the seats just roll, end movement and combat, draw)."""
    ev = []
    while g.turn == 1:
        seat = g.pending[0]["seat"]
        kind = g.pending[0]["kind"]
        act = {"random_events": A.RollRandomEvents, "movement": A.EndMovement, "combat": A.EndCombat,
               "randomizer": A.DrawRandomizer}.get(kind)
        if act is None or not g.is_legal(act(seat)):
            legal = g.legal_actions(seat)
            a = next((x for x in legal if x.TYPE in ("EndPlayerTurn", "RedrawChit", "DeclineCapture", "PassPurge")), legal[0])
        else:
            a = act(seat)
        ev += g.apply(a)
    return ev


def test_german_units_leave_as_game_turn_2_begins_and_their_marker_is_not_drawn():
    """004 critique GERMAN WITHDRAWAL: automatic on Game-Turn 2 (004 [5.67])."""
    g = started(options={"german_withdrawal": True})
    assert "WD:GE" not in g.state.aux and len(_ge_units(g)) == 6
    ev = _to_turn_2(g)
    assert _ge_units(g) == [] and "GE" in g.state.withdrawn
    assert len([u for u in g.state.removed if g.data.units[u].nationality == "GE"]) == 6   # out of play, not on the chart
    w = next(e for e in ev if e.kind == "withdrawal" and CRITIQUE in e.text)
    assert w.data["seat"] is None
    # without the option the marker waits in the Randomizer and the Germans stay
    h = started()
    assert "WD:GE" in h.state.aux
    _to_turn_2(h)
    assert "GE" in h.state.withdrawn or _ge_units(h)


# -- "CZECHS: The initial set-up omits the Czech forces at Penza and Samara." -----------------------------
def test_czech_units_are_set_up_in_penza_and_samara():
    """004 critique CZECHS: the Czech forces at Penza and Samara at set-up (004 [15.42], [5.65])."""
    g = started(options={"czech_penza_samara": True})
    czechs = {g.data.units[u].province: u for st in g.state.stacks.values() for u in st.units
              if g.data.units[u].nationality == "CZ"}
    assert {"PENZ", "SAMA", "OMSK", "CHEL", "EKAT"} <= set(czechs)
    assert all(g.data.units[czechs[p]].strength == 3 for p in ("PENZ", "SAMA"))
    assert where_unit(g, czechs["PENZ"]) == "PENZ" and where_unit(g, czechs["SAMA"]) == "SAMA"
    # they follow the CZ Control Marker (004 [5.61]) and never enter a province outside Siberia (004 [5.65])
    s = g.state
    s.control["CZ"] = "A"
    for st in s.stacks.values():
        if any(g.data.units[u].nationality == "CZ" for u in st.units):
            st.owner = "A"
    g.ctx.b.invalidate()
    phase(g, "A", "movement")
    assert dict(g.reach(czechs["PENZ"])) == {}
    run(g, A.StartForce("A", czechs["SAMA"]))
    refused(g, A.Move("A", "UFIM", False), "004 [5.65]")
    # without the option they are not in play
    assert 323 not in started().data.units and 323 in g.data.units


def where_unit(g: Game, u: int) -> str:
    return g.ctx.b.stack_of(u).province


# -- "EPIDEMICS: Historically, leaders were not immune from epidemic." ------------------------------------
@pytest.mark.parametrize("die, dies", [(6, True), (5, False)])
def test_an_epidemic_kills_a_leader_in_a_stricken_province_on_a_six(die, dies):
    """004 critique EPIDEMICS: 004 [12.11] strikes the strongest combat unit of each stack; with
    leader_epidemics each leader there rolls one die too (roll 1-3: Epidemic in Vyatka, Kaluga, Kiev)."""
    g = blank(options={"leader_epidemics": True})
    put(g, "KALU", "A", "Kalinin", "RU4 TULA", attach={"RU4 TULA": "Kalinin"})
    phase(g, "A", "random_events")
    with dice(g, 1, 3, die):
        ev = g.apply(A.RollRandomEvents("A"))
    assert g.ctx.b.on_vp_chart(uid("RU4 TULA")) == "unassigned"          # 004 [12.11]
    assert (g.ctx.b.on_vp_chart(uid("Kalinin")) == "unassigned") is dies
    assert any(CRITIQUE in e.text for e in ev) is dies
    assert g.stats.get("leader_epidemic_deaths", 0) == int(dies)
    # without the option leaders are immune (004 [12.11]) and no die is rolled for them
    h = blank()
    put(h, "KALU", "A", "Kalinin")
    phase(h, "A", "random_events")
    with dice(h, 1, 3):
        h.apply(A.RollRandomEvents("A"))
    assert where(h, "Kalinin") == "KALU"


# -- "ASSASSINS: Failed assassination attempts on Lenin or Trotsky should allow them to conduct a
#    'free purge' ... to reflect the 'Red Terror' phenomenon." ------------------------------------------
def _attempt(die1: int, die2: int, victim: str = "Lenin", options=None) -> tuple[Game, list]:
    g = blank(options={"red_terror": True} if options is None else options)
    put(g, "PETR", "B", "Lenin", "RU8 PETR", attach={"RU8 PETR": "Lenin"})
    put(g, "PETR", "B", "Peterson")
    put(g, "PETR", "A", "Kolchak")
    put(g, "TVER", "A", "Trotsky", "RU8 NOVG", attach={"RU8 NOVG": "Trotsky"})
    g.state.assassins["A"] = 1
    g.state.politburo.update(A=2, B=1)
    with dice(g, die1, die2):
        ev = g.apply(A.Assassinate("A", uid(victim), 1))
    return g, ev


def test_a_failed_attempt_on_lenin_gives_his_owner_a_free_purge_of_the_assassin():
    """004 critique ASSASSINS: the Red Terror, a free purge after a failed attempt (004 [10.23], [11.0])."""
    g, ev = _attempt(1, 2)
    assert g.decision == {"kind": "red_terror", "seat": "B", "target": "A", "victim": uid("Lenin")}
    assert any(e.kind == "red_terror" for e in ev)
    assert set(g.legal_actions("B")) == {A.DeclarePurge("B", "A", ("B",), ()), A.PassPurge("B")}
    refused(g, A.DeclarePurge("B", "C", ("B",), ()), CRITIQUE)       # the assassin, no one else
    refused(g, A.RollRandomEvents("A"))                               # play waits for the answer
    # no Central Committee is needed (004 [11.11]) and it is not B's purge of the Game-Turn (004 [11.13])
    assert g.state.committee == []
    with dice(g, 6, 6):                        # Purge Strength: Lenin 3 + Peterson 1 + 1 Politburo marker
        ev = g.apply(A.DeclarePurge("B", "A", ("B",), ()))
    purge = next(e for e in ev if e.kind == "purge")
    assert purge.data["purgers"] == ["B"] and purge.data["target"] == "A" and purge.data["strength"] == 5
    assert g.stats["red_terror_purges"] == 1 and "purges" not in g.stats
    assert "B" not in g.state.purged_this_turn


def test_the_red_terror_may_be_let_pass_and_comes_only_after_a_failed_attempt_on_lenin_or_trotsky():
    g, _ = _attempt(1, 2)
    run(g, A.PassPurge("B"))
    assert g.decision is None and "red_terror_purges" not in g.stats
    g, _ = _attempt(6, 6)                                             # success: Lenin is dead
    assert g.decision is None
    g, _ = _attempt(1, 1, victim="Peterson")                          # another leader
    assert g.decision is None
    g, _ = _attempt(1, 2, options={})                                  # no option: 004 [10.23] only
    assert g.decision is None and g.state.assassins["B"] == 1


# -- "EVACUATION: ... Players should have the option to do the same ... Units so evacuated ... should
#    not be allowed to return to the game as replacements." ---------------------------------------------
def test_white_units_evacuated_from_a_port_leave_the_game_for_good():
    """004 critique EVACUATION: out of the game, never replaced (004 [9.0])."""
    g = blank(options={"evacuation": True})
    st = put(g, "TAUR", "A", "Kutepov", "WU4 TAUR", attach={"WU4 TAUR": "Kutepov"})
    loose = put(g, "TAUR", "A", "WU4 KUBA").units[0]
    put(g, "KALU", "A", "Kolchak")
    assert A.Evacuate("A", uid("Kutepov")) in g.legal_actions("A")
    refused(g, A.Evacuate("A", uid("Kolchak")), CRITIQUE)                 # no port
    refused(g, A.Evacuate("A", uid("WU4 TAUR")), CRITIQUE)                # attached: the leader goes
    ev = run(g, A.Evacuate("A", uid("Kutepov")), A.Evacuate("A", loose))
    assert st.id not in g.state.stacks and g.ctx.b.stack_of(loose) is None
    assert sorted(g.state.removed) == sorted([uid("Kutepov"), uid("WU4 TAUR"), loose])
    assert all(g.ctx.b.on_vp_chart(u) is None for u in g.state.removed)   # no Victory Points to anyone
    assert g.stats["evacuated"] == 3 and any(e.kind == "evacuation" for e in ev)
    # never replaced: replacement takes units from the Victory Point Chart only (004 [9.0])
    from rcw.rules import replacement
    replacement.replace(g.ctx, 1)
    assert g.ctx.b.stack_of(loose) is None


def test_only_white_units_evacuate_and_only_with_the_option():
    g = blank(options={"evacuation": True})
    put(g, "PETR", "A", "Lenin", "RU8 PETR", attach={"RU8 PETR": "Lenin"})
    refused(g, A.Evacuate("A", uid("Lenin")), CRITIQUE)
    h = blank()
    put(h, "TAUR", "A", "Kutepov")
    refused(h, A.Evacuate("A", uid("Kutepov")), CRITIQUE)
    assert not any(isinstance(a, A.Evacuate) for a in h.legal_actions("A"))
