"""001's alternative turn order (option ``drawn_turn_order``; 001 Start of Turn: "Pick a random
player out of the cup to go first, then clockwise around. Replace marker to cup. Or for less
predictable turn order, draw one chit and that player moves, then another until all have gone,
ending the turn."), instead of 004 [4.2] B.3's First Player and clockwise order: each Player-Turn's
player is drawn from the Player-Turn Randomizer as the one before it ends."""

from __future__ import annotations

from engine_helpers import started

from rcw import actions as A
from rcw import options as O
from rcw.game import Game


def _end_turn(g: Game) -> list:
    """Play the phasing player's Player-Turn through (roll, no moves, no attacks, draw)."""
    seat, turn = g.ctx.b.phasing(), g.turn
    ev = []
    while g.ctx.b.phasing() == seat and g.turn == turn and not g.over:
        p = g.pending[0]
        if p["seat"] != seat and g.decision is None:
            break
        legal = g.legal_actions(p["seat"])
        for name in ("RedrawChit", "EndPlayerTurn", "DrawRandomizer", "EndCombat", "EndMovement", "RollRandomEvents",
                     "DeclineCapture", "PassPurge", "EndSpoils", "ChooseLoss"):
            a = next((x for x in legal if x.TYPE == name), None)
            if a is not None:
                break
        ev += g.apply(a)
        if g.ctx.b.phasing() != seat:
            break
    return ev


def test_the_option_is_001s():
    o = O.OPTIONS["drawn_turn_order"]
    assert o.group == "001" and "less predictable turn order" in o.source and o.default is False


def test_each_next_player_is_drawn_as_a_player_turn_ends_and_no_one_knows_him_before():
    """001 Start of Turn: "draw one chit and that player moves, then another until all have gone"."""
    g = started(5, 3, {"drawn_turn_order": True})
    v = g.view("B")
    assert len(v["order"]) == 1 and v["order"] == [g.ctx.b.phasing()]     # only the first is drawn
    seen = [v["order"][0]]
    for k in range(2, 6):
        ev = _end_turn(g)
        order = g.view("B")["order"]
        assert len(order) == k and order[:-1] == seen and g.ctx.b.phasing() == order[-1]
        assert any(e.kind == "sequence" and "drawn to move next" in e.text for e in ev)
        seen = order
    assert sorted(seen) == list("ABCDE")                                   # until all have gone
    _end_turn(g)
    assert g.turn == 2 and len(g.view()["order"]) == 1                     # ending the turn; a new draw


def test_the_drawn_order_is_the_seeds_and_need_not_be_clockwise():
    orders = []
    for seed in range(30):
        g = started(5, seed, {"drawn_turn_order": True})
        for _ in range(4):
            _end_turn(g)
        orders.append(tuple(g.view()["order"]))
        h = started(5, seed, {"drawn_turn_order": True})
        for _ in range(4):
            _end_turn(h)
        assert tuple(h.view()["order"]) == orders[-1]                       # same seed, same draws
    seats = "ABCDE"
    clockwise = {tuple(seats[i:] + seats[:i]) for i in range(5)}
    assert any(o not in clockwise for o in orders)
    # 004 [4.2] B.3 without the option: the First Player, then clockwise
    g = started(5, 3)
    assert tuple(g.view()["order"]) in clockwise


def test_a_player_who_quits_is_not_drawn():
    g = started(5, 4, {"drawn_turn_order": True})
    first = g.ctx.b.phasing()
    out = next(p for p in "ABCDE" if p != first)
    g.apply(A.Quit(out))
    for _ in range(3):
        _end_turn(g)
    assert out not in g.view()["order"] and len(g.view()["order"]) == 4
    _end_turn(g)
    assert g.turn == 2
