"""The units a sheet's order may name, as the engine offers them to the sheet's writer
(``PostalGame.order_choices``, ``view.postal.choices``; the page's "More orders" card lists
these and no other): each judged by the check its order gets when the sheet arrives, so a
one-order sheet naming a unit offered is kept and one naming a unit not offered is refused
(004 [5.41] merge, 004 [13.15] transfer, 004 [13.31] emigration, 004 [5.66] the Czechs' exit,
004 [17.0] postal [13.26] a Green unit stolen with the Gold, 004 [8.44] losses)."""

from __future__ import annotations

from engine_helpers import put, uid
from test_postal import board, ready, second_board

from rcw.postal.validate import CHOSEN


def names(g, units) -> list[str]:
    return sorted(g.ctx.name(u) for u in units)


def kept(g, seat: str, order: dict) -> bool:
    """Whether the engine keeps ``order`` alone on ``seat``'s sheet (``Game.check_sheet``)."""
    return not g.check_sheet(seat, {"orders": [order]})["refused"]


def judged(g, seat: str, kind: str) -> dict[str, set]:
    """For each unit field of ``kind``, the units on the map a one-order sheet may name there and
    be kept (with some unit on the map in its other field, for a kind with two: then ``pairs``,
    the two named together)."""
    on_map = sorted(g.ctx.b.index())
    fields = CHOSEN[kind]
    if len(fields) == 1:
        return {fields[0]: {u for u in on_map if kept(g, seat, {"order": kind, fields[0]: u})}}
    f, h = fields
    pairs = {(u, v) for u in on_map for v in on_map if kept(g, seat, {"order": kind, f: u, h: v})}
    return {f: {u for u, _ in pairs}, h: {v for _, v in pairs}, "pairs": pairs}


def offered(got: dict) -> dict[str, set]:
    return {f: {tuple(x) for x in us} if f == "pairs" else set(us) for f, us in got.items()}


def siberia():
    """A's Gold in Omsk with Kolchak, Dieterichs in Vladivostok (the Siberian region), Deniken in
    Samara (another region); the Czar with Miller in Arkhangelsk (a port); a Czech unit in
    Vladivostok and one in Chelyabinsk; two of A's stacks in Petrograd, one of B's in Novgorod
    beside two of B's (B's to merge, not A's)."""
    g = board()
    put(g, "OMSK", "A", "Kolchak", "Gold", attach={"Gold": "Kolchak"})
    put(g, "VLDV", "A", "Dieterichs")
    put(g, "SAMA", "A", "Deniken")
    put(g, "ARCH", "A", "Miller", "Czar", attach={"Czar": "Miller"})
    put(g, "VLDV", "A", "BU3 OMSK/CZ")
    put(g, "CHEL", "A", "BU3 CHEL/CZ")
    put(g, "PETR", "A", "Lenin", "RU8 PETR", attach={"RU8 PETR": "Lenin"})
    put(g, "PETR", "A", "Zinoviev")
    put(g, "NOVG", "B", "Trotsky")
    put(g, "NOVG", "B", "Sablin")
    ready(g)
    return g


def test_the_movement_orders_offer_exactly_the_units_the_rules_allow():
    """004 [5.41] a merge of two of one's stacks in one province (each named by any unit in it),
    004 [13.15] a transfer of an Imperial unit to another of one's forces in its region,
    004 [13.31] an emigration from a port, 004 [5.66] the Czechs' exit from Vladivostok."""
    g = siberia()
    got = g.order_choices("A")
    assert set(got) >= {"merge", "transfer", "emigrate", "czech_exit", "steal"}
    assert {f: names(g, us) for f, us in got["merge"].items() if f != "pairs"} == {
        "unit": ["Lenin", "RU8 PETR", "Zinoviev"], "into": ["Lenin", "RU8 PETR", "Zinoviev"]}
    # the Gold to Dieterichs or the Czech stacks in Siberia, the Czar to Lenin's or Zinoviev's
    # stack in Petrograd (the Czar's region); Deniken, in Samara, to neither
    assert names(g, got["transfer"]["unit"]) == ["Czar", "Gold"]
    assert names(g, got["transfer"]["to"]) == ["BU3 CHEL/CZ", "BU3 OMSK/CZ", "Dieterichs", "Lenin", "Zinoviev"]
    assert names(g, got["emigrate"]["unit"]) == ["Czar"]
    assert names(g, got["czech_exit"]["unit"]) == [g.ctx.name(uid("BU3 OMSK/CZ"))]
    # the engine's own check of a one-order sheet agrees, unit by unit, for every unit on the map
    for kind in ("merge", "transfer", "emigrate", "czech_exit"):
        assert offered(got[kind]) == judged(g, "A", kind), kind
    # B's stacks are merged by B alone
    assert names(g, g.order_choices("B")["merge"]["unit"]) == ["Sablin", "Trotsky"]
    assert not kept(g, "A", {"order": "merge", "unit": uid("Trotsky"), "into": uid("Sablin")})


def test_each_choice_written_alone_is_kept_and_an_unlisted_unit_refused():
    g = siberia()
    got = g.order_choices("A")
    for u in got["emigrate"]["unit"] + got["czech_exit"]["unit"]:
        kind = "emigrate" if u in got["emigrate"]["unit"] else "czech_exit"
        assert kept(g, "A", {"order": kind, "unit": u})
    assert not kept(g, "A", {"order": "emigrate", "unit": uid("Gold")})                 # Omsk is no port
    assert not kept(g, "A", {"order": "czech_exit", "unit": uid("BU3 CHEL/CZ")})         # not in Vladivostok
    assert kept(g, "A", {"order": "transfer", "unit": uid("Gold"), "to": uid("Dieterichs")})
    assert not kept(g, "A", {"order": "transfer", "unit": uid("Gold"), "to": uid("Deniken")})   # another region


def test_a_steal_offers_the_golds_leader_and_the_green_units_of_others_with_him():
    """postal [13.26]: the Gold's leader takes Green units controlled by another player in his
    province; not an uncontrolled one, nor one elsewhere."""
    g = board()
    put(g, "KHAR", "A", "Kolchak", "Gold", attach={"Gold": "Kolchak"})
    put(g, "KHAR", "A", "Deniken")
    put(g, "KHAR", "B", "GU2 KHAR")
    put(g, "KIEV", "B", "GU4 KIEV")
    put(g, "KHAR", None, "GU8 POLA")
    ready(g)
    got = g.order_choices("A")["steal"]
    assert names(g, got["leader"]) == ["Kolchak"] and got["unit"] == [uid("GU2 KHAR")]
    assert offered(got) == judged(g, "A", "steal")
    assert got["pairs"] == [[uid("GU2 KHAR"), uid("Kolchak")]]
    assert g.order_choices("B")["steal"] == {"unit": [], "leader": [], "pairs": []}


def test_losses_offer_the_units_whose_exchange_losses_the_seat_chooses():
    """004 [8.44]: the owner chooses; for an uncontrolled stack its attacker (004 [8.46]); the
    First Phase's kinds are gone in the Second."""
    g = second_board()
    put(g, "PETR", "A", "Lenin", "RU8 PETR", attach={"RU8 PETR": "Lenin"})
    put(g, "NOVG", None, "RU2 KAZA")
    put(g, "TVER", "B", "Trotsky")
    ready(g)
    got = g.order_choices("A")
    assert "merge" not in got and "transfer" not in got
    assert names(g, got["losses"]["prefer"]) == ["Lenin", "RU2 KAZA", "RU8 PETR"]
    assert names(g, g.order_choices("B")["losses"]["prefer"]) == ["RU2 KAZA", "Trotsky"]


def test_the_choices_travel_in_the_seats_own_view():
    g = siberia()
    assert g.view("A")["postal"]["choices"] == g.order_choices("A")
    assert "choices" not in g.view(None)["postal"]
    assert g.order_choices("GM") == {}

