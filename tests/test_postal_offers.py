"""What a postal move order may take along, as the engine offers it to the sheet's writer
(``Game.check_sheet(offers=True)``, 004 [17.0] postal [5.0]): the leaders who may join the force
(004 [5.26]), the units it may drop and pick up in each province of its path (004 [5.13]) and
where it may go on to.  The browser's move plotter shows these and nothing of its own."""

from __future__ import annotations

from engine_helpers import cleared, put, uid
from test_postal import board, mv, ready

from rcw.modes import new_game
from rcw.postal import SubmitOrders


def names(g, units) -> list[str]:
    return sorted(g.ctx.name(u) for u in units)


def offers(g, seat: str, *orders: dict) -> dict:
    """The offers of the last of ``orders`` (a move), asked for by its index."""
    got = g.check_sheet(seat, {"orders": list(orders)}, offers=len(orders) - 1)
    assert list(got["offers"]) == [len(orders) - 1]
    return got["offers"][len(orders) - 1]


def test_a_moves_offers_name_the_leaders_who_may_join_and_what_it_may_drop_and_pick_up_on_its_path():
    g = board()
    put(g, "PETR", "A", "Lenin", "Trotsky", "RU8 PETR", "RU4 PSKO", attach={"RU8 PETR": "Lenin", "RU4 PSKO": "Trotsky"})
    put(g, "PETR", "A", "Zinoviev", "RU3 KALU")          # (another of the seat's stacks there, with a loose unit)
    put(g, "NOVG", None, "RU2 KAZA")                      # (a loose unit on the way)
    put(g, "NOVG", "A", "Sablin")                         # (a leader on the way: never picked up, 004 [5.26])
    ready(g)
    o = offers(g, "A", mv("Lenin", ["NOVG", "TVER"]))
    joins = {g.ctx.name(j["leader"]): names(g, j["with"]) for j in o["join"]}
    assert joins == {"Trotsky": ["RU4 PSKO"], "Zinoviev": []}
    assert {p: names(g, us) for p, us in o["drop"].items()} == {"PETR": ["RU8 PETR"], "NOVG": ["RU8 PETR"], "TVER": ["RU8 PETR"]}
    assert {p: names(g, us) for p, us in o["pick"].items()} == {"PETR": ["RU3 KALU"], "NOVG": ["RU2 KAZA"], "TVER": []}
    # Trotsky joining: his unit goes along, and either leader may be dropped on the way (the other leads on)
    o = offers(g, "A", mv("Lenin", ["NOVG"], join=[uid("Trotsky")]))
    assert names(g, o["drop"]["NOVG"]) == ["Lenin", "RU4 PSKO", "RU8 PETR", "Trotsky"]
    # what the order drops in a province is not offered back to it there
    o = offers(g, "A", mv("Lenin", ["NOVG"], drop={"NOVG": [uid("RU8 PETR")]}))
    assert "RU8 PETR" not in names(g, o["pick"]["NOVG"])


def test_a_pick_up_that_fits_only_after_the_forces_drop_there_is_offered():
    """004 [5.13]: in a province the force drops, then picks up; Sablin (Leadership 1, one unit
    attached) may take KAZA's unit in NOVG only once he has dropped PETR's there (found by the
    review: the offer was made before the drops)."""
    g = board()
    put(g, "PETR", "A", "Sablin", "RU8 PETR", attach={"RU8 PETR": "Sablin"})
    put(g, "NOVG", None, "RU2 KAZA")
    ready(g)
    assert offers(g, "A", mv("Sablin", ["NOVG"]))["pick"]["NOVG"] == []
    swap = offers(g, "A", mv("Sablin", ["NOVG"], drop={"NOVG": [uid("RU8 PETR")]}))
    assert names(g, swap["pick"]["NOVG"]) == ["RU2 KAZA"]


def test_a_leader_an_earlier_order_of_the_sheet_moves_is_not_offered_to_join():
    g = board()
    put(g, "PETR", "A", "Lenin", "Trotsky")
    ready(g)
    assert [j["leader"] for j in offers(g, "A", mv("Lenin", []))["join"]] == [uid("Trotsky")]
    later = offers(g, "A", mv("Trotsky", ["NOVG"]), mv("Lenin", []))
    assert later["join"] == []


def test_a_moves_reach_is_the_whole_forces_from_where_the_order_leaves_it():
    """001 Reduced leader movement: a force moves 2 + the lowest Leadership rating among its
    leaders; Lenin (3) alone goes on four provinces overland after his first step, with Sablin (1)
    two.  ``Game.reach(Lenin)`` knows nothing of who joins him; the offers do."""
    g = new_game(5, 1, {"mode": "postal", "reduced_leader_movement": True})
    for p in g.seats:
        g.apply(SubmitOrders(p, 1, "trading", {"orders": []}))
    cleared(g)
    put(g, "PETR", "A", "Lenin", "Sablin")
    ready(g)
    alone = offers(g, "A", mv("Lenin", ["NOVG"]))["reach"]
    joined = offers(g, "A", mv("Lenin", ["NOVG"], join=[uid("Sablin")]))["reach"]
    assert set(joined) < set(alone)
    assert max(len(r["path"]) for r in joined.values()) == 2 and max(len(r["path"]) for r in alone.values()) == 4
    assert not any(r["rail"] for r in alone.values())      # (one step overland: the rest is overland too, 004 [5.53])


def test_offers_are_asked_for_only_the_answer_without_them_is_as_before():
    g = board()
    put(g, "PETR", "A", "Lenin")
    ready(g)
    assert g.check_sheet("A", {"orders": [mv("Lenin", ["NOVG"])]}) == {"refused": [], "warnings": []}
    got = g.check_sheet("A", {"orders": [mv("Lenin", ["NOVG"]), {"order": "merge", "unit": uid("Lenin"), "into": 1}]},
                        offers=True)
    assert list(got["offers"]) == [0]                       # (moves only; a refused order has none)
    put(g, "TVER", "A", "Trotsky")
    ready(g)
    two = {"orders": [mv("Lenin", ["NOVG"]), mv("Trotsky", [])]}
    assert list(g.check_sheet("A", two, offers=True)["offers"]) == [0, 1]
    assert list(g.check_sheet("A", two, offers=1)["offers"]) == [1]  # (the one asked for: the move plotted)


def test_the_offers_say_whether_the_force_may_go_by_rail_and_ring_the_way_it_goes():
    """004 [5.51]-[5.53]: only a Red or White force with a leader goes by rail, one way or the
    other for the whole move.  The plotter shows the "by rail" box only where the engine says the
    force may use it (QA: it was offered to a Green stack), and with it ticked before the first
    step the rings are the rail routes (QA: the tick changed nothing and the first click undid it)."""
    g = board()
    put(g, "PETR", "A", "Lenin", "RU8 PETR", attach={"RU8 PETR": "Lenin"})
    put(g, "KHAR", "B", "GU2 KHAR/UK")
    g.state.control["UK"] = "B"
    ready(g)
    either = offers(g, "A", mv("Lenin", []))
    by_rail = offers(g, "A", mv("Lenin", [], rail=True))
    assert either["rail"] and by_rail["rail"]
    assert by_rail["reach"] and all(r["rail"] for r in by_rail["reach"].values())
    assert {p for p, r in either["reach"].items() if r["rail"]} < set(by_rail["reach"])     # (and those overland is as short to)
    overland = offers(g, "A", mv("Lenin", ["NOVG"]))
    assert overland["rail"] is False                              # (it went overland: overland it goes on)
    green = offers(g, "B", mv("GU2 KHAR/UK", []))
    assert green["rail"] is False and green["reach"] and not any(r["rail"] for r in green["reach"].values())
