"""Victory (004 [14.0]): how the game ends, the Victory Point Schedule, players quitting."""

from __future__ import annotations

import pytest
from engine_helpers import blank, phase, put, refused, stack_with, uid

from rcw import actions as A
from rcw.rules import victory
from rcw.state import UNASSIGNED


def end_turn(g):
    """Finish the Player-Turn series of the current Game-Turn: the last player draws."""
    s = g.state
    s.aux = s.aux or ["A"]
    s.current = len(s.order) - 1
    s.phase = "randomizer"
    s.force = s.attack = s.decision = None
    return g.apply(A.DrawRandomizer(s.order[-1]))


def base(g):
    """A Red leader and a White leader with a White unit outside Siberia: nobody has won."""
    put(g, "TVER", "A", "Sytin")
    put(g, "TERE", "B", "Markov", "WU2 TERE")


# -- how the game ends (004 [14.1]) -------------------------------------------------------------
def test_game_goes_on_while_both_sides_stand():
    g = blank()
    base(g)
    end_turn(g)
    assert g.state.phase == "random_events" and g.state.turn == 2


def test_white_victory_no_red_leaders_outside_siberia():
    """004 [14.1] 1: Red leaders in Siberia or on the VP chart do not count."""
    g = blank()
    base(g)
    stack_with(g, "Sytin").province = "OMSK"
    g.ctx.b.invalidate()
    ev = end_turn(g)
    assert g.state.phase == "over" and g.result["winner_color"] == "White"
    assert any(e.kind == "game_over" for e in ev)


def test_red_victory_no_white_combat_units_outside_siberia():
    """004 [14.1] 2: White leaders do not prevent it."""
    g = blank()
    base(g)
    stack_with(g, "WU2 TERE").province = "VLDV"
    g.ctx.b.invalidate()
    put(g, "DCOS", "C", "Krasnov")
    end_turn(g)
    assert g.result["winner_color"] == "Red"


def test_14_1_a_green_unit_with_a_white_gold_leader_is_a_white_combat_unit():
    """004 [13.26] "for all purposes" with 004 [14.1] 2: a Green unit attached to a White leader
    holding the Gold is a White combat unit left outside Siberia: no Red Victory (as the Victory
    Point scoring counts it White, 004 [14.44])."""
    g = blank()
    put(g, "TVER", "A", "Sytin")
    put(g, "KIEV", "B", "Kutepov", "Gold", "GU4 KIEV", attach={"Gold": "Kutepov", "GU4 KIEV": "Kutepov"})
    end_turn(g)
    assert g.state.phase == "random_events" and g.result is None
    assert g.scores()["White"]["B"] == 1 + 4 + 5


def test_14_1_a_green_unit_with_a_red_gold_leader_is_not_white():
    """004 [13.26], [14.1] 2: a Green unit attached to a Red leader holding the Gold is Red;
    with no other White combat unit outside Siberia, Red wins."""
    g = blank()
    put(g, "TVER", "A", "Sytin")
    put(g, "TERE", "B", "Markov")
    put(g, "KIEV", "C", "Lenin", "Gold", "GU4 KIEV", attach={"Gold": "Lenin", "GU4 KIEV": "Lenin"})
    end_turn(g)
    assert g.result["winner_color"] == "Red"


def test_conditions_are_checked_only_at_the_end_of_the_game_turn():
    """004 [14.1]: '... at the end of a Game-Turn'."""
    g = blank()
    put(g, "TERE", "B", "Markov", "WU2 TERE")
    put(g, "TVER", "A", "Sytin")
    phase(g, "A", "combat")
    ev = []
    g.ctx.eliminate(uid("Sytin"), "B", ev, "assassination")          # the last Red leader
    g.apply(A.EndCombat("A"))
    g.state.aux = ["A"]
    g.apply(A.DrawRandomizer("A"))
    assert g.state.phase == "random_events" and g.ctx.b.phasing() == "B"
    end_turn(g)
    assert g.result["winner_color"] == "White"


def test_red_victory_by_politburo_agreement():
    """004 [14.1] 3: no White leaders outside Siberia and players holding >= 10 Politburo
    markers agree."""
    g = blank()
    put(g, "TVER", "A", "Sytin")
    put(g, "TERE", None, "WU2 TERE")
    g.state.politburo.update({"A": 6, "B": 4, "C": 1})
    end_turn(g)
    s = g.state
    assert s.phase == "vote" and g.pending[0]["kind"] == "vote"
    voters = list(s.decision["voters"])
    assert set(voters) == {"A", "B", "C"}
    order = {p: (p in ("A", "B")) for p in voters}
    for p in voters:
        assert s.decision["seat"] == p
        refused(g, A.VoteEndGame([q for q in voters if q != p][0], True), "004 [14.1]")
        g.apply(A.VoteEndGame(p, order[p]))
    assert s.phase == "over" and g.result["winner_color"] == "Red"


def test_politburo_vote_fails():
    g = blank()
    put(g, "TVER", "A", "Sytin")
    put(g, "TERE", None, "WU2 TERE")
    g.state.politburo.update({"A": 6, "B": 4})
    end_turn(g)
    for p in list(g.state.decision["voters"]):
        g.apply(A.VoteEndGame(p, p == "A"))
    assert g.state.phase == "random_events" and g.state.turn == 2


@pytest.mark.parametrize("once", [False, True])
def test_14_1_a_failed_vote_is_called_again_unless_one_end_vote(once):
    """004 [14.1] 3: "If the required quorum to end the game cannot be found, the game is continued
    until ended by Condition #1 or #2".  By default (the engine's reading, "at the end of any
    Game-Turn") the vote is called again at the end of the next Game-Turn in which no White
    leaders remain; with the option ``one_end_vote`` (QA's reading of the note) never again, and
    only case 2 (or 1) ends the game."""
    g = blank(options={"one_end_vote": once})
    put(g, "TVER", "A", "Sytin")
    put(g, "TERE", None, "WU2 TERE")
    g.state.politburo.update({"A": 6, "B": 4})
    end_turn(g)
    # (the voters are told when it is the only vote)
    assert ("if this vote fails no other is called" in (g.view("A")["decision"].get("note") or "")) == once
    for p in list(g.state.decision["voters"]):
        g.apply(A.VoteEndGame(p, False))
    assert g.state.phase == "random_events" and g.state.turn == 2
    events = end_turn(g)
    called = any(e.kind == "vote_called" for e in events)
    assert called != once, [e.text for e in events]
    assert g.state.phase == ("vote" if not once else "random_events")
    if once:
        # case 2 still ends it: the last White combat unit outside Siberia is gone
        g.state.stacks.pop(stack_with(g, "WU2 TERE").id)
        g.state.vp.setdefault("A", []).append([uid("WU2 TERE"), True])
        end_turn(g)
        assert g.state.phase == "over" and g.result["winner_color"] == "Red"


def test_no_vote_without_ten_politburo_markers():
    g = blank()
    put(g, "TVER", "A", "Sytin")
    put(g, "TERE", None, "WU2 TERE")
    g.state.politburo.update({"A": 5, "B": 4})
    end_turn(g)
    assert g.state.phase == "random_events"


def test_turn_limit_option():
    g = blank(options={"max_turns": 1})
    base(g)
    end_turn(g)
    assert g.state.phase == "over" and g.result["winner_color"] is None
    assert g.legal_actions("A") == [] and g.pending == []
    refused(g, A.EndTrading("A"), "004 [14.1]")


# -- Victory Points (004 [14.4]) ------------------------------------------------------------------
def vp_game():
    g = blank()
    chart = {
        "A": [("Deniken", True), ("WU8 DON", True), ("BU2 ARCH/US", True), ("GU4 KIEV", True),
              ("RU8 PETR", True), ("Lenin", True)],
        "B": [("BU3 OMSK/CZ", True), ("BU3 CHEL/CZ", False), ("Czar", True), ("Gold", False)],
        UNASSIGNED: [("RU6 SMOL", True)],
    }
    for sec, items in chart.items():
        for lab, face in items:
            g.ctx.to_chart(uid(lab), sec, face_up=face)
    g.state.politburo.update({"A": 2, "B": 1})
    put(g, "TVER", "A", "Trotsky", "RU8 TVER", attach={"RU8 TVER": "Trotsky"})
    put(g, "KUBA", "A", "Romanovsky", "WU4 KUBA")
    put(g, "VLDV", "B", "Kikvidze", "GU2 VLDV", attach={})
    stack_with(g, "Kikvidze").units = [uid("Kikvidze")]
    g.ctx.b.invalidate()
    return g


def test_red_victory_points():
    """004 [14.41] chart: White leaders and units, Blue, Green, Politburo, executed Czar;
    004 [14.42] map: Red leaders, Red units, the Gold; 004 [14.45] face-up Czechs only."""
    g = vp_game()
    red = victory.score(g.ctx, "Red")
    # A: chart Deniken 3 + DON 8 + US 2 + KIEV 4 (RU8 PETR, Lenin: nothing) + 2 PM = 4
    #    map Trotsky 3 + RU8 TVER 8 (Romanovsky, WU4 KUBA: nothing)
    assert red["A"] == 3 + 8 + 2 + 4 + 4 + 3 + 8
    # B: face-up Czech 3, face-down Czech 0, face-up (executed) Czar 5, face-down Gold 0, 1 PM; Kikvidze 1
    assert red["B"] == 3 + 5 + 2 + 1


def test_white_victory_points():
    """004 [14.43] chart: Red leaders and units, Green, face-down Czechs, emigrated Imperial
    units; 004 [14.44] map: White leaders and units, Imperial units held; no Politburo."""
    g = vp_game()
    white = victory.score(g.ctx, "White")
    assert white["A"] == 4 + 8 + 3 + 1 + 4                          # KIEV, RU8 PETR, Lenin; Romanovsky, WU4 KUBA
    assert white["B"] == 3 + 5                                      # face-down Czech, emigrated Gold


def test_imperial_units_on_the_map():
    g = blank()
    put(g, "OMSK", "A", "Kolchak", "Gold", "Czar", attach={"Gold": "Kolchak", "Czar": "Kolchak"})
    assert victory.score(g.ctx, "White")["A"] == 2 + 5 + 5
    assert victory.score(g.ctx, "Red")["A"] == 5                    # the Gold only (004 [14.42])


def test_green_units_held_with_the_gold_count_as_the_leaders_colour():
    """004 [13.26]: '... considered to be the color of that Leader for all purposes'."""
    g = blank()
    put(g, "KIEV", "A", "Lenin", "Gold", "GU4 KIEV", attach={"Gold": "Lenin", "GU4 KIEV": "Lenin"})
    put(g, "KHER", "A", "GU2 KHER")
    assert victory.score(g.ctx, "Red")["A"] == 3 + 5 + 4


def test_no_points_for_anything_else():
    """004 [14.47]: e.g. Blue units on the map, uncontrolled units, the unassigned section."""
    g = blank()
    put(g, "KHER", "A", "BU2 KHER/FR")
    put(g, "TVER", None, "RU8 TVER")
    g.ctx.to_chart(uid("WU8 DON"), UNASSIGNED)
    assert victory.score(g.ctx, "Red") == {p: 0 for p in g.state.seats}
    assert victory.score(g.ctx, "White") == {p: 0 for p in g.state.seats}


def test_winner_and_ranking():
    g = vp_game()
    r = victory.result(g.ctx, "Red", "test")
    assert r["winner"] == "A" and r["ranking"][:2] == ["A", "B"]


def test_players_tied_with_the_most_victory_points_share_the_win():
    """004 [2.0], [14.0]: "the Player with the largest number of Victory Points is judged the
    winner"; nothing covers a tie.  The engine named the earlier seat letter alone (an audit's
    finding); now the players tied with the most share the win: ``winners`` names them all and
    ``winner`` (one player with the most) is None."""
    g = blank()
    put(g, "TVER", "B", "Sytin")                         # 1 Red VP each (004 [14.41])
    put(g, "TULA", "A", "Kamenev")
    put(g, "VLDV", "C", "Dieterichs", "WU2 VLDV")        # White only in Siberia: Red Victory (004 [14.1] 2)
    end_turn(g)
    r = g.result
    assert r["winner_color"] == "Red" and r["scores"]["A"] == r["scores"]["B"] == 1, r
    assert r["winners"] == ["A", "B"] and r["winner"] is None and r["ranking"][:2] == ["A", "B"]
    g2 = vp_game()                                        # one with the most: he alone
    r2 = victory.result(g2.ctx, "Red", "test")
    assert r2["winners"] == [r2["winner"]] == ["A"]


def test_14_0_only_the_victorious_colours_points_count():
    """004 [14.0] General Rule: a Red victory ranks the players by Red Victory Points only, a
    White victory by White ones; the defeated colour's points are ignored."""
    g = vp_game()
    for lab in ("RU8 NOVG", "RU6 KURS"):                 # 14 more White points for B (004 [14.43])
        g.ctx.to_chart(uid(lab), "B")
    red, white = victory.score(g.ctx, "Red"), victory.score(g.ctx, "White")
    assert red["A"] > red["B"] and white["B"] > white["A"]
    r = victory.result(g.ctx, "Red", "test")
    w = victory.result(g.ctx, "White", "test")
    assert (r["winner"], r["scores"]) == ("A", red)
    assert (w["winner"], w["scores"]) == ("B", white)


# -- players quitting (004 [14.2]) ----------------------------------------------------------------
def test_quitter_scores_nothing():
    """004 [14.21]."""
    g = vp_game()
    g.state.quit.append("A")
    r = victory.result(g.ctx, "Red", "test")
    assert r["winner"] == "B" and "A" not in r["ranking"]


def test_quitting_returns_markers_to_the_randomizer():
    """004 [14.23]: Politburo, Assassin and Blue/Green Control Markers go into the Randomizer;
    those Blue/Green units are nobody's now."""
    g = blank()
    base(g)
    s = g.state
    s.politburo["C"], s.assassins["C"] = 2, 1
    s.control.update({"FR": "C", "UK": "C"})
    put(g, "KHER", "C", "BU2 KHER/FR")
    put(g, "KIEV", "C", "GU4 KIEV")
    put(g, "TULA", "C", "Kamenev")
    n = len(s.aux)
    g.apply(A.Quit("C"))
    assert sorted(s.aux[n:]) == sorted(["P", "P", "A", "BC:FR", "GC:UK"])
    assert s.politburo["C"] == 0 and s.assassins["C"] == 0 and "FR" not in s.control
    assert stack_with(g, "BU2 KHER/FR").owner is None and stack_with(g, "GU4 KIEV").owner is None
    assert stack_with(g, "Kamenev").owner == "C"                      # 004 [14.22]: still his, immobile


def test_quitters_units_stay_put_and_are_nobody_elses():
    """004 [14.22]: his Red and White units no longer move or attack; others cannot take them."""
    g = blank()
    base(g)
    put(g, "TULA", "C", "Kamenev", "RU4 TULA", attach={"RU4 TULA": "Kamenev"})
    put(g, "TULA", "A", "Sorokin")
    g.apply(A.Quit("C"))
    refused(g, A.StartForce("C", uid("Kamenev")), "004 [14.2]")
    g.apply(A.StartForce("A", uid("Sorokin")))
    refused(g, A.Attach("A", uid("RU4 TULA"), uid("Sorokin")), "004 [7.12]")


def test_quitters_player_turn_is_deleted():
    """004 [14.24]."""
    g = blank()
    base(g)
    s = g.state
    s.aux = ["A"] * 10
    phase(g, "A", "randomizer")
    g.apply(A.Quit("B"))
    g.apply(A.DrawRandomizer("A"))
    assert g.ctx.b.phasing() == "C"
    end_turn(g)
    assert "B" not in s.order and len(s.order) == 4


def test_phasing_player_quits_mid_turn():
    g = blank()
    base(g)
    phase(g, "A", "movement")
    g.apply(A.Quit("A"))
    assert g.ctx.b.phasing() == "B" and g.state.phase == "random_events"
    assert g.legal_actions("A") == []
    refused(g, A.EndTrading("A"), "004 [14.2]")


def test_everyone_quits():
    g = blank(players=3)
    base(g)
    for p in "ABC":
        g.apply(A.Quit(p))
    assert g.over and g.result["winner"] is None


def test_no_quitting_in_the_middle_of_a_decision():
    g = blank()
    base(g)
    g.state.decision = {"kind": "loss", "seat": "B", "need": 1, "units": [uid("WU2 TERE")], "section": "A",
                        "target": 0, "attackers": [], "defender_owner": "B", "province": "TERE", "attacker": "A"}
    refused(g, A.Quit("B"), "004 [14.2]")


@pytest.mark.parametrize("seat", ["A", "B"])
def test_quit_during_trading(seat):
    """A player may quit in the pre-game trading session; his Politburo and Assassin markers go
    to the Auxiliary Forces Randomizer (004 [14.23]), "the same container" as the Initial one
    (004 [15.23]), and stay there when it is filled at deployment (they were thrown away)."""
    from rcw.game import Game
    g = Game.new(3, 5)
    s = g.state
    held = (s.politburo[seat], s.assassins[seat])
    g.apply(A.Quit(seat))
    for p in "ABC":
        if p != seat:
            g.apply(A.EndTrading(p))
    assert s.phase == "random_events" and seat not in s.order
    m = g.data.markers
    assert sum(s.politburo.values()) + s.aux.count("P") == m.politburo == 15
    assert sum(s.assassins.values()) + s.aux.count("A") == m.assassin == 15
    assert s.aux.count("P") == held[0] and s.politburo[seat] == s.assassins[seat] == 0
    assert held != (0, 0)                      # (seed 5: each quitter had markers to lose)
