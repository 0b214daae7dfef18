"""The postal game (004 [17.0]) with 001's optional forces: the Gamesmaster places a unit drawn
by the drawer's ``place`` order, takes the bonus draws a ``draws`` order asks for where a city
allows them, and Makhno roves at the end of the Game-Turn."""

from __future__ import annotations

import pytest
from engine_helpers import cleared, put, uid, where
from rcw.bots.simulate import play
from test_postal import events, mv, ready, send, skipped

from rcw.modes import from_record, new_game
from rcw.postal import SubmitOrders, reports

SHOCK = uid("RU8 SHOCK1")


def _second(options: dict):
    """A postal game of ``options`` at Game-Turn 1's Second Phase, on a cleared map with A's Lenin
    in KAZA and Trotsky in TVER, and only ``RU8 SHOCK1`` in the Auxiliary Forces Randomizer."""
    g = new_game(5, 1, {"mode": "postal", **options})
    for p in g.seats:
        g.apply(SubmitOrders(p, 1, "trading", {"orders": []}))
    cleared(g)
    put(g, "KAZA", "A", "Lenin")
    put(g, "TVER", "A", "Trotsky")
    g.state.aux = [f"U:{SHOCK}"]
    g.load_dice(events(2) + events(3))        # (First Phase: 2 Random Events rolls; Second: 3)
    send(g)
    assert g.view(None)["postal"]["phase"] == "second"
    return g


@pytest.mark.parametrize("order, leader", [([], "Lenin"), (["Trotsky"], "Trotsky")])
def test_postal_001_shock_armies_placed_by_the_place_order_or_the_first_leader_offered(order, leader):
    """001 Shock Armies in a postal game: the Gamesmaster places the Shock Army A draws with the
    leader A's standing ``place`` order names; without one, with the first leader the decision
    offers (rcw/postal/gm.py)."""
    g = _second({"shock_armies": True})
    orders = [{"order": "place", "leaders": [uid(x) for x in order]}] if order else []
    ev = send(g, A=orders)
    placed = [e for e in ev if e.kind == "placed"]
    assert len(placed) == 1 and where(g, "RU8 SHOCK1") == where(g, leader)


def test_postal_001_additional_draws_only_as_ordered_and_as_a_city_allows():
    """001 Additional Randomizer Draws in a postal game: A's forces alone hold Tver (Moscow: three
    draws in all), and its ``draws`` order asks for two more; the Gamesmaster draws them while
    chits are left.  B, with no order, draws once."""
    g = _second({"additional_draws": True})
    g.state.aux = ["A"] * 8
    before = dict(g.view(None)["assassins"])
    send(g, A=[{"order": "draws", "extra": 5}])
    after = g.view(None)["assassins"]
    assert after.get("A", 0) - before.get("A", 0) == 3          # one draw and two bonus draws
    assert after.get("B", 0) - before.get("B", 0) == 1
    assert g.stats["extra_draws"] == 2


def test_postal_a_bad_place_order_is_refused_with_its_rule():
    g = _second({"shock_armies": True})
    got = g.check_sheet("A", {"orders": [{"order": "place", "leaders": "Lenin"}]})
    assert got["refused"] and got["refused"][0]["index"] == 0


@pytest.mark.parametrize("kind", ["sdt", "random"])
def test_postal_games_with_all_of_001s_optional_forces(kind):
    """Whole postal games with every 001 option: no engine error, and the options do something
    (Makhno's Roving Attack at the end of the Game-Turn, 001 Anarchists; Shock Armies placed)."""
    opts = {"anarchists": True, "shock_armies": True, "freikorps": True, "additional_draws": True,
            "reduced_leader_movement": True}
    stats: dict[str, int] = {}
    for seed in range(3):
        r = play(5, seed, kind, 12, options=opts, mode="postal")
        for k, v in r["stats"].items():
            stats[k] = stats.get(k, 0) + v
    assert stats.get("roving_attacks", 0) > 0 and stats.get("shock_armies_placed", 0) > 0


# -- 001 No Leader Suicide in the postal game ------------------------------------------------------------
def test_postal_001_no_leader_suicide_a_leader_alone_stopped_by_anothers_move_ends_where_his_orders_leave_him():
    """A's White force (Kolchak) moves into TVER first; B's Trotsky, alone, ordered VOLO-YARO-TVER-RYAZ to
    join Lenin there, may not enter TVER now (001 No Leader Suicide 2) and stops in YARO, from
    where he could still reach Lenin by VLDM (Prohibition 3).  His sheet was accepted with
    no warning (TVER was empty when it arrived); the Gamesmaster ends his move in YARO, where his
    orders leave him, and reports the rest of Prohibition 3 as not carried out (before, the
    adjudication raised the refusal and the game could not go on)."""
    g = new_game(5, 1, {"mode": "postal", "no_leader_suicide": True})
    for p in g.seats:
        g.apply(SubmitOrders(p, 1, "trading", {"orders": []}))
    cleared(g)
    put(g, "KALU", "A", "Kolchak", "WU3 OMSK", attach={"WU3 OMSK": "Kolchak"})
    put(g, "VOLO", "B", "Trotsky")
    put(g, "RYAZ", "B", "Lenin", "RU8 PETR", attach={"RU8 PETR": "Lenin"})
    ready(g)
    trotsky = mv("Trotsky", ["YARO", "TVER", "RYAZ"])
    assert g.check_sheet("B", {"orders": [trotsky]}) == {"refused": [], "warnings": []}
    g.load_dice(events(2))
    send(g, A=[mv("Kolchak", ["TVER"])], B=[trotsky])
    assert (where(g, "Kolchak"), where(g, "Trotsky"), where(g, "Lenin")) == ("TVER", "YARO", "RYAZ")
    assert skipped(g) == [("B", 0, "001 No Leader Suicide 2", "illegal_action"),
                          ("B", 0, "001 No Leader Suicide 3", "illegal_action")]
    assert g.view(None)["postal"]["phase"] == "second"


def test_postal_001_no_leader_suicide_an_order_leaving_a_leader_alone_is_refused_when_the_sheet_arrives():
    """On the position the sheet is written on, Trotsky ordered alone into YARO, where a loose Red
    unit stands, must take it (001 No Leader Suicide 3): the order is refused unless it picks it up."""
    g = new_game(5, 1, {"mode": "postal", "no_leader_suicide": True})
    for p in g.seats:
        g.apply(SubmitOrders(p, 1, "trading", {"orders": []}))
    cleared(g)
    put(g, "VOLO", "B", "Trotsky")
    put(g, "YARO", None, "RU8 PETR")
    ready(g)
    (r,) = g.check_sheet("B", {"orders": [mv("Trotsky", ["YARO"])]})["refused"]
    assert (r["index"], r["rule"]) == (0, "001 No Leader Suicide 3") and "takes (Attach) one of them" in r["message"]
    assert g.check_sheet("B", {"orders": [mv("Trotsky", ["YARO"], pick={"YARO": ["RU8 PETR"]})]}) == {
        "refused": [], "warnings": []}


def test_postal_001_no_leader_suicide_whole_games_the_gamesmaster_resolves_leaders_left_alone():
    """A postal game with No Leader Suicide where others' moves leave leaders alone by loose units
    of their colour and short of their friends (seed 7001, found by a soak: the adjudication
    raised ``EndForce``'s refusal): the Gamesmaster has each take a loose unit (an
    ``order_amended`` event) or ends his move where his orders leave him; the game finishes and
    its record replays to the same state."""
    rec = play(6, 7001, "sdt", 12, with_record=True, options={"no_leader_suicide": True, "additional_draws": True},
               mode="postal")
    assert rec["finished"] and rec["illegal"] == 0
    assert from_record(rec["record"]).state_hash() == rec["hash"]
    happened = [e for r in reports(rec["record"]) for e in r["happened"]]
    amended = [e for e in happened if e["kind"] == "order_amended"]
    assert amended and all("001 No Leader Suicide" in e["text"] and "takes one of them" in e["text"] for e in amended)
    skipped = [k["rule"] for r in reports(rec["record"]) for k in r["skipped"]]
    assert "001 No Leader Suicide 3" in skipped


def test_the_postal_game_always_plays_postal_movement():
    """004 [17.0] postal [5.0]: the stop on entering is judged on the start positions in every
    postal game; the option registry says so (``Option.fixed``) and ``rcw.options.validate`` sets
    it, or refuses a postal game without it, naming the rule."""
    from rcw import options as O
    from rcw.actions import IllegalAction

    assert O.validate({}, "postal") == {"postal_movement": True} and O.validate({}) == {}
    assert new_game(5, 1, {"mode": "postal"}).state.options["postal_movement"] is True
    with pytest.raises(IllegalAction) as e:
        new_game(5, 1, {"mode": "postal", "postal_movement": False})
    assert e.value.code == "bad_request" and "always on in the postal game (004 [17.0] [5.0])" in e.value.message
    assert O.describe()["postal_movement"]["fixed"] == {"postal": True}
