"""Sequence of play (004 [4.0]): Player-Turns of four phases in the drawn order, then the
Game-Turn Interphase."""

from __future__ import annotations

from engine_helpers import blank, dice, put, refused, started

from rcw import actions as A


def test_four_phases_in_order():
    """004 [4.2] A: Random Events, Movement, Combat, Randomizer."""
    g = started(5, 2)
    s = g.state
    p = s.order[0]
    seen = [s.phase]
    with dice(g, 1, 1):                                  # 1-1: a harmless Random Event
        g.apply(A.RollRandomEvents(p))
    for act in (A.EndMovement(p), A.EndCombat(p), A.DrawRandomizer(p)):
        seen.append(s.phase)
        g.apply(act)
    if s.drawn:                 # p may still assassinate after the draw (004 [10.0]): he ends his turn
        assert g.ctx.b.phasing() == p and s.phase == "randomizer"
        g.apply(A.EndPlayerTurn(p))
    assert seen == ["random_events", "movement", "combat", "randomizer"]
    assert g.ctx.b.phasing() == s.order[1] and s.phase == "random_events"


def test_out_of_phase_and_out_of_turn_refused():
    g = started(5, 2)
    s = g.state
    p, q = s.order[0], s.order[1]
    refused(g, A.EndMovement(p), "004 [4.2]")
    refused(g, A.EndCombat(p), "004 [4.2]")
    refused(g, A.DrawRandomizer(p), "004 [4.2]")
    refused(g, A.RollRandomEvents(q), "004 [4.2]")
    assert g.pending == [{"seat": p, "kind": "random_events"}]
    assert {a.TYPE for a in g.legal_actions(q)} <= {"Quit", "OfferTrade", "AcceptTrade", "DeclineTrade", "WithdrawTrade"}


def _play_turn(g):
    s = g.state
    for _ in range(len(s.order)):
        p = s.order[s.current]
        with dice(g, 1, 1):
            g.apply(A.RollRandomEvents(p))
        g.apply(A.EndMovement(p))
        g.apply(A.EndCombat(p))
        g.apply(A.DrawRandomizer(p))
        while g.pending == [{"seat": p, "kind": "redraw"}]:     # 004 [12.13]: draw again
            g.apply(A.RedrawChit(p, True))
        if s.drawn:             # an assassination is still possible: the turn waits for its end
            g.apply(A.EndPlayerTurn(p))


def test_one_player_turn_per_player_then_the_interphase():
    """004 [4.1], [4.2] B: as many Player-Turns as players; then the turn marker advances and a
    new First Player is drawn; the others follow clockwise."""
    g = started(5, 2)
    s = g.state
    order1 = list(s.order)
    assert sorted(order1) == list("ABCDE")
    _play_turn(g)
    assert s.turn == 2 and s.phase == "random_events" and s.current == 0
    i = "ABCDE".index(s.order[0])
    assert s.order == list("ABCDE"[i:] + "ABCDE"[:i])


def test_first_player_changes_unpredictably():
    firsts = set()
    g = started(4, 8)
    for _ in range(12):
        firsts.add(g.state.order[0])
        _play_turn(g)
    assert len(firsts) >= 3


def test_pending_names_the_phasing_player_and_step():
    g = blank()
    put(g, "TVER", "A", "Trotsky")
    assert g.pending == [{"seat": "A", "kind": "movement"}]
    g.apply(A.StartForce("A", g.ctx.b.leaders_of(next(iter(g.state.stacks.values())))[0]))
    assert g.pending == [{"seat": "A", "kind": "force"}]


def test_a_game_ended_by_the_turn_limit_announces_no_game_turn_it_never_plays() -> None:
    """Issue 17 bug 6: the log opened a "Game-Turn 4" section before announcing the end of a
    three-turn game.  The Interphase that ends the last turn still replaces units (004 [4.2] B.2),
    then the game ends: no "Game-Turn 4 begins"."""
    from rcw.bots import make_agent
    from rcw.bots.match import Match

    from rcw.game import Game

    g = Game.new(3, 11, {"max_turns": 2})
    m = Match(g, {s: make_agent("random", s, 3) for s in g.seats})
    seen: list = []
    while (step := m.next_step()) is not None:
        seen += m.apply(step.seat, step.action, step.kind)
    kinds = [e.kind for e in seen]
    assert g.over and kinds[-1] == "game_over"
    assert [e.data["turn"] for e in seen if e.kind == "turn"] == [2]
    assert g.turn == 3 and g.result["reason"] == "turn limit 2 reached"



def test_a_game_ended_by_the_turn_limit_shows_the_last_game_turn_it_played() -> None:
    """Found by an operator: a game of `rcw simulate --max-turns 3` reported 4 Game-Turns (the
    marker moved on to the turn never played), and the page kept its own copy of the turn limit to
    show the right one.  ``Game.turns_played`` and the view's ``turn`` say the last turn played;
    ``Game.turn`` is the marker, as the rules move it."""
    from rcw.bots.simulate import play

    from rcw.modes import from_record

    got = play(3, 11, "random", 2, with_record=True)
    assert got["ended"] == "limit" and got["turns"] == 2
    g = from_record({**got["record"], "actions": got["record"]["actions"][:5]})
    assert not g.over and g.turns_played == g.view(None)["turn"] == g.turn == 1     # (under way: the marker)
    g = from_record(got["record"])
    assert g.over and g.turn == 3 and g.turns_played == g.view("A")["turn"] == 2
