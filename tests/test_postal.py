"""The postal game (004 [17.0]): its sequence, sheets and API, and each adjudication rule of the
Gamesmaster, each test citing its case (``004 [17.0] postal [x.y]``; the Bell is
tests/test_postal_bell.py)."""

from __future__ import annotations

import pytest
from engine_helpers import D, cleared, put, refused, section, uid, where

from rcw import actions as A
from rcw.actions import IllegalAction
from rcw.modes import from_bytes, from_record, new_game
from rcw.postal import GM, ClosePhase, SubmitOrders, report
from rcw.rules.sequence import take_snapshot
from rcw.state import UNASSIGNED


def first(players: int = 5, seed: int = 1, **options):
    """A postal game past the pre-season trades (no orders): Game-Turn 1's First Phase."""
    g = new_game(players, seed, {"mode": "postal", **options})
    for p in g.seats:
        g.apply(SubmitOrders(p, 1, "trading", {"orders": []}))
    return g


def board(players: int = 5):
    """The First Phase on an empty map: :func:`put` the stacks, then :func:`ready`."""
    return cleared(first(players))


def ready(g) -> None:
    """The colours noted as the Game-Turn begins (postal [5.0]) are those just put."""
    take_snapshot(g.ctx)
    g.ctx.b.invalidate()


def send(g, **sheets) -> list:
    """Every active seat sends its sheet for the phase being collected (none: no orders)."""
    v = g.view(None)
    ev = []
    for p in [x for x in g.seats if x not in g.quit]:
        ev += g.apply(SubmitOrders(p, v["turn"], v["postal"]["phase"], {"orders": sheets.get(p, [])}))
    return ev


def mv(leader: str, path: list[str], rail: bool = False, pick: dict | None = None, **kw) -> dict:
    o = {"order": "move", "unit": uid(leader), "path": path, "rail": rail, **kw}
    if pick:
        o["pick"] = {p: [uid(x) for x in labs] for p, labs in pick.items()}
    return o


def atk(target: str, *attackers: str, sub: bool = False) -> dict:
    return {"order": "attack", "target": uid(target), "attackers": [uid(a) for a in attackers], "subversive": sub}


def skipped(g) -> list[tuple]:
    return [(k["seat"], k["index"], k["rule"], k.get("code")) for k in g.view(None)["postal"]["report"]["skipped"]]


def to_second(g, **sheets) -> list:
    """Adjudicate the First Phase (no Random Events die to load: tests call this on boards
    where the dice are loaded by the test)."""
    return send(g, **sheets)


def events(n: int, result: str = "epidemic_none") -> list[int]:
    """Dice for ``n`` Random Events rolls that do nothing (an epidemic in empty provinces)."""
    roll = next(c.roll for c in D.tables.random_events.values() if c.result == "epidemic"
                and not {"PETR", "TVER", "RYAZ", "NOVG", "EKAT", "KHAR", "KAZA", "ARCH"} & set(c.provinces))
    return list(roll) * n


# =====================================================================================
# The sequence and the sheets (004 [17.0] Procedure, postal [4.2], [15.0])
# =====================================================================================
@pytest.mark.parametrize("players, first_rolls, second_rolls", [(3, 1, 2), (5, 2, 3), (6, 3, 3)])
def test_postal_4_2_two_phases_a_game_turn(players, first_rolls, second_rolls):
    """postal [4.2]: the pre-season trades, then First and Second Phases; Random Events once for
    every two players, rounded down in the First Phase and up in the Second."""
    g = new_game(players, 7, {"mode": "postal"})
    assert g.phase == "trading" and [p["kind"] for p in g.pending] == ["orders"] * players
    send(g)
    assert (g.turn, g.phase) == (1, "first")
    ev = send(g)
    assert sum(e.kind == "random_event" for e in ev) == first_rolls and (g.turn, g.phase) == (1, "second")
    ev = send(g)
    assert sum(e.kind == "random_event" for e in ev) == second_rolls
    drawn = {e.data["seat"] for e in ev if e.kind in ("drew", "withdrawal")}
    assert drawn == set(g.seats)                     # 4. the Randomizer: one chit for each player
    assert (g.turn, g.phase) == (2, "first") or g.over


def test_postal_sheets_are_replaced_until_the_phase_closes_and_stay_private():
    """004 [17.0] Procedure: orders may be sent again until the phase closes; the others see who
    has sent a sheet, never what."""
    g = board()
    put(g, "PETR", "A", "Lenin")
    ready(g)
    ev = g.apply(SubmitOrders("A", 1, "first", {"orders": [mv("Lenin", ["NOVG"])]}))
    assert ev[0].data == {"seat": "A", "turn": 1, "phase": "first", "replaced": False}
    ev = g.apply(SubmitOrders("A", 1, "first", {"orders": [mv("Lenin", ["PSKO"])]}))
    assert ev[0].data["replaced"] and g.view("A")["postal"]["sheet"][0][1]["path"] == ["PSKO"]
    b = g.view("B")["postal"]
    assert b["submitted"] == ["A"] and b["sheet"] is None and b["rejected"] == b["warnings"] == []
    assert [p["seat"] for p in g.pending] == ["B", "C", "D", "E"]
    assert g.legal_actions("A") == [SubmitOrders("A", 1, "first", {"orders": []}), A.Quit("A")]
    send(g, A=[mv("Lenin", ["PSKO"])])
    assert where(g, "Lenin") == "PSKO"


def test_postal_bad_orders_are_refused_one_by_one_and_the_rest_kept():
    """004 [17.0]: each order judged on its own when the sheet arrives: a typed error naming the
    order (its index) and the rule; the good orders are kept."""
    g = board()
    put(g, "PETR", "A", "Lenin")
    put(g, "TVER", "B", "Trotsky")
    ready(g)
    orders = [{"order": "fly"}, {"order": "move", "unit": "Lenin"}, mv("Trotsky", ["NOVG"]), mv("Lenin", ["NOVG"]),
              mv("Lenin", ["PSKO"]), {"order": "attack", "target": 1, "attackers": []}]
    g.apply(SubmitOrders("A", 1, "first", {"orders": orders}))
    v = g.view("A")["postal"]
    assert [(r["index"], r["rule"], r["code"]) for r in v["rejected"]] == [
        (0, "004 [17.0]", "bad_order"), (1, "004 [17.0]", "bad_order"), (2, "004 [5.11]", "illegal_action"),
        (4, "004 [5.25]", "illegal_action"), (5, "004 [17.0] postal [4.2]", "bad_order")]
    assert [i for i, _ in v["sheet"]] == [3]
    assert g.check_sheet("A", {"orders": orders})["refused"] == v["rejected"]


def test_postal_5_0_a_force_ordered_past_a_stop_goes_as_far_as_it_may():
    """004 [17.0] postal [5.0], the rulebook's example: A's Red stack in PETR is ordered
    PETR-NOVG-TVER-RYAZ and stops in TVER, where B had a White stack when the Game-Turn began;
    B's RYAZ stack passes through TVER (only White there at the start) to PETR, and B's TVER
    stack moves to RYAZ.  The order is kept when it arrives, the step that will fail noted."""
    g = board()
    put(g, "PETR", "A", "Lenin", "RU8 PETR", attach={"RU8 PETR": "Lenin"})
    put(g, "TVER", "B", "Yudenich")
    put(g, "RYAZ", "B", "Miller")
    ready(g)
    g.apply(SubmitOrders("A", 1, "first", {"orders": [mv("Lenin", ["NOVG", "TVER", "RYAZ"])]}))
    (w,) = g.view("A")["postal"]["warnings"]
    assert (w["index"], w["rule"], w["step"]) == (0, "004 [5.27]", "the move TVER->RYAZ")
    assert g.view("A")["postal"]["rejected"] == []
    g.load_dice(events(2))
    send(g, A=[mv("Lenin", ["NOVG", "TVER", "RYAZ"])], B=[mv("Miller", ["TVER", "NOVG", "PETR"]), mv("Yudenich", ["RYAZ"])])
    assert (where(g, "Lenin"), where(g, "RU8 PETR"), where(g, "Miller"), where(g, "Yudenich")) == (
        "TVER", "TVER", "PETR", "RYAZ")
    assert skipped(g) == [("A", 0, "004 [5.27]", "illegal_action")]


def test_postal_5_0_check_sheet_says_where_a_force_ordered_past_a_stop_stops():
    """004 [17.0] postal [5.0]: ``Game.check_sheet`` (a draft, not sent) says where the force of
    the rulebook's example stops (TVER, ``at``); the warnings a sent sheet keeps in the game are
    as before (no ``at``: the game's state, and so its hash, unchanged by the answer)."""
    g = board()
    put(g, "PETR", "A", "Lenin", "RU8 PETR", attach={"RU8 PETR": "Lenin"})
    put(g, "TVER", "B", "Yudenich")
    ready(g)
    order = mv("Lenin", ["NOVG", "TVER", "RYAZ"])
    (w,) = g.check_sheet("A", {"orders": [order]})["warnings"]
    assert (w["step"], w["at"]) == ("the move TVER->RYAZ", "TVER")
    g.apply(SubmitOrders("A", 1, "first", {"orders": [order]}))
    (kept,) = g.view("A")["postal"]["warnings"]
    assert "at" not in kept and kept == {k: v for k, v in w.items() if k != "at"}


def test_a_written_path_names_each_province_once():
    """A force may go back where it has been (004 [5.0]), but a postal move order writes its drops
    and pick-ups by province: a path through a province twice is refused when the sheet
    arrives, naming the province (a review found the pick-ups of PETR made again, and failing,
    on the way back), and the plotter's reach offers no way back."""
    g = board()
    put(g, "PETR", "A", "Lenin", "RU8 PETR", attach={"RU8 PETR": "Lenin"})
    ready(g)
    (r,) = g.check_sheet("A", {"orders": [mv("Lenin", ["NOVG", "PETR"])]})["refused"]
    assert r["rule"] == "004 [17.0] postal [5.0]" and "enters PETR twice" in r["message"], r
    assert g.check_sheet("A", {"orders": [mv("Lenin", ["NOVG", "TVER"])]}) == {"refused": [], "warnings": []}
    reach = g.check_sheet("A", {"orders": [mv("Lenin", ["NOVG"])]}, offers=0)["offers"][0]["reach"]
    assert "PETR" not in reach and "TVER" in reach
    assert all("PETR" not in route["path"] and "NOVG" not in route["path"] for route in reach.values())


def _claim(g, unit: str, *claims: tuple[str, str]) -> None:
    for seat, leader in claims:
        g.apply(SubmitOrders(seat, 1, "first", {"orders": [mv(leader, [], pick={where(g, leader): [unit]})]}))


def test_postal_5_0_two_leaders_picking_up_one_unit_lower_identity_code_wins():
    """postal [5.0]: "the Leader with the lower identity code is successful"; the other order's
    pick-up is skipped and reported."""
    g = board()
    put(g, "KAZA", None, "RU2 KAZA")
    put(g, "KAZA", "A", "Tukhachevsky")            # 154
    put(g, "KAZA", "B", "Trotsky")                 # 152
    ready(g)
    g.load_dice(events(2))
    send(g, A=[mv("Tukhachevsky", [], pick={"KAZA": ["RU2 KAZA"]})], B=[mv("Trotsky", [], pick={"KAZA": ["RU2 KAZA"]})])
    st = g.ctx.b.stack_of(uid("RU2 KAZA"))
    assert st.owner == "B" and st.attached[uid("RU2 KAZA")] == uid("Trotsky")
    assert skipped(g) == [("A", 0, "004 [17.0] postal [5.0]", "precedence")]


@pytest.mark.parametrize("die, winner", [(None, "Kolchak"), (1, "Frunze"), (4, "Kolchak")])
def test_postal_5_0_an_imperial_unit_claimed_by_leaders_of_two_colours(die, winner):
    """postal [5.0]: for an Imperial unit claimed by leaders of different colours the highest
    Leadership Value succeeds; "in the case of a tie, the Gamesmaster determines in a random
    fashion" (a die: 1-3 the lower identity code, 4-6 the other)."""
    g = board()
    put(g, "EKAT", None, "Czar")
    put(g, "EKAT", "A", "Frunze" if die else "Blucher")          # 158 (2) / 178 (1)
    put(g, "EKAT", "B", "Kolchak")                               # 253 (2)
    ready(g)
    red = "Frunze" if die else "Blucher"
    g.load_dice(([die] if die else []) + events(2))
    send(g, A=[mv(red, [], pick={"EKAT": ["Czar"]})], B=[mv("Kolchak", [], pick={"EKAT": ["Czar"]})])
    st = g.ctx.b.stack_of(D.czar)
    assert st.attached[D.czar] == uid(winner)


def test_postal_13_26_the_golds_leader_has_precedence_for_a_green_unit():
    """postal [13.26]: "a Leader in control of the Gold always has precedence over any other
    Leader detailed to pick up the same uncontrolled Green unit" (lower identity code or not)."""
    g = board()
    put(g, "KHAR", None, "GU2 KHAR")
    put(g, "KHAR", "A", "Kolchak", "Gold", attach={"Gold": "Kolchak"})        # 253
    put(g, "KHAR", "B", "Deniken")                                            # 251
    ready(g)
    g.load_dice(events(2))
    send(g, A=[mv("Kolchak", [], pick={"KHAR": ["GU2 KHAR"]})], B=[mv("Deniken", [], pick={"KHAR": ["GU2 KHAR"]})])
    assert g.ctx.b.stack_of(uid("GU2 KHAR")).owner == "A"


def test_postal_10_0_assassination_only_where_routes_meet():
    """postal [10.0], the rulebook's example: A sends three Assassin markers against "Trotsky
    and/or Tukhachevsky"; A's leaders end in KURS and TVER.  Trotsky's route (RYAZ-TULA-KALU-
    SMOL-PSKO-PETR) meets neither: no attempt, no markers spent.  Tukhachevsky's (PETR-NOVG-
    TVER-RYAZ) passes TVER: the attempt is made (two dice, 004 [10.0])."""
    g = board()
    put(g, "PETR", "A", "Sablin")
    put(g, "TVER", "A", "Smirnov")
    put(g, "RYAZ", "B", "Trotsky")
    put(g, "PETR", "B", "Tukhachevsky")
    g.state.assassins["A"] = 3
    ready(g)
    g.load_dice([6, 6] + events(2))
    ev = send(g, A=[mv("Sablin", ["PSKO", "SMOL", "OREL", "KURS"]),
                    {"order": "assassinate", "victims": [uid("Trotsky"), uid("Tukhachevsky")], "markers": 3}],
              B=[mv("Trotsky", ["TULA", "KALU", "SMOL", "PSKO", "PETR"]), mv("Tukhachevsky", ["NOVG", "TVER", "RYAZ"])])
    (no,) = [e for e in ev if e.kind == "no_attempt"]
    assert no.data["victim"] == uid("Trotsky")
    (hit,) = [e for e in ev if e.kind == "assassination"]
    assert hit.data["victim"] == uid("Tukhachevsky") and hit.data["markers"] == 3 and hit.data["success"]
    assert section(g, "Tukhachevsky") == "A" and where(g, "Trotsky") == "PETR"


def test_postal_4_2_an_assassination_may_use_the_markers_its_sheets_trades_bring_first():
    """postal [4.2]: the First Phase's trades come before its movement and the assassinations in
    it.  A holds one Assassin marker and orders three against Tukhachevsky, with a trade taking
    two from C: the sheet is not refused on arrival (it was: the count ignored the trade), and
    with C's matching order the attempt is made with three.  Without the trade it is refused."""
    g = board()
    put(g, "TVER", "A", "Smirnov")
    put(g, "PETR", "B", "Tukhachevsky")
    g.state.assassins.update(A=1, C=2)
    ready(g)
    hit = {"order": "assassinate", "victims": [uid("Tukhachevsky")], "markers": 3}
    (r,) = g.check_sheet("A", {"orders": [hit]})["refused"]
    assert r["rule"] == "004 [10.12]" and "holds only 1 Assassin marker" in r["message"]
    take = {"order": "trade", "with": "C", "take_assassins": 2}
    assert g.check_sheet("A", {"orders": [hit, take]}) == {"refused": [], "warnings": []}
    (r,) = g.check_sheet("A", {"orders": [hit, {**take, "take_assassins": 1}]})["refused"]
    assert "and its trades may bring 1 more" in r["message"]
    # (a trade the rules refuse, or markers the partner does not hold, bring nothing; found by the review)
    for bad in ({**take, "with": "A"}, {**take, "with": "D"}):
        refused = g.check_sheet("A", {"orders": [hit, bad]})["refused"]
        assert [r["rule"] for r in refused if r["index"] == 0] == ["004 [10.12]"], refused
    assert g.check_sheet("A", {"orders": [hit, {"order": "accept_gifts", "from": ["C"]}]})["refused"] == []
    (r,) = g.check_sheet("A", {"orders": [hit, {"order": "accept_gifts", "from": ["D"]}]})["refused"]
    assert r["index"] == 0
    g.load_dice([6, 6] + events(2))
    ev = send(g, A=[hit, take], B=[mv("Tukhachevsky", ["NOVG", "TVER", "RYAZ"])],
              C=[{"order": "trade", "with": "A", "give_assassins": 2}])
    (a,) = [e for e in ev if e.kind == "assassination"]
    assert a.data["victim"] == uid("Tukhachevsky") and a.data["markers"] == 3


# =====================================================================================
# Combat (postal [8.0])
# =====================================================================================
def second_board():
    """The Second Phase on an empty map (the First Phase adjudicated with no orders)."""
    g = board()
    ready(g)
    g.load_dice(events(2))
    send(g)
    g.load_dice(None)
    return g


def test_postal_8_0_subversive_attacks_first_the_strongest_first():
    """postal [8.0]: Subversive Attacks before normal ones; against the same Blue unit the one
    employing the most Strength Points first, its losses effective at once; the other then
    has no effect (its target is gone)."""
    g = second_board()
    put(g, "ARCH", None, "BU2 ARCH/US")
    put(g, "VOLO", "A", "Sablin")                                         # 1 point
    put(g, "OLON", "B", "Lenin", "RU8 PETR", attach={"RU8 PETR": "Lenin"})  # 11 points
    put(g, "ARCH", "C", "Miller")
    put(g, "ARCH", None, "BU2 ARCH/BR")
    g.ctx.b.invalidate()
    g.load_dice([1, 1] + [1] * 6 + [6] * 6)
    ev = send(g, A=[atk("BU2 ARCH/US", "Sablin", sub=True)], B=[atk("BU2 ARCH/US", "Lenin", sub=True)])
    combats = [(e.data["seat"], e.data["subversive"]) for e in ev if e.kind == "combat"]
    assert combats == [("B", True)]
    assert section(g, "BU2 ARCH/US") == "B"
    assert skipped(g)[0][:3] == ("A", 0, "004 [17.0] postal [8.0]")


def test_postal_8_0_normal_attacks_province_by_province_the_strongest_player_first():
    """postal [8.0]: in a province the attacks of the player with the most Strength Points there
    (all his units, of all colours) are resolved first; an attack on units it eliminated has
    no effect."""
    g = second_board()
    put(g, "KHAR", None, "GU2 KHAR")
    put(g, "KHAR", "A", "Smirnov")                                     # Red 1
    put(g, "KHAR", "B", "Deniken", "WU4 KUBA", attach={"WU4 KUBA": "Deniken"})   # White 7
    g.ctx.b.invalidate()
    g.load_dice([1] + [6] * 12)
    ev = send(g, A=[atk("GU2 KHAR", "Smirnov")], B=[atk("GU2 KHAR", "Deniken")])
    assert [e.data["seat"] for e in ev if e.kind == "combat"] == ["B"]
    assert section(g, "GU2 KHAR") == "B"
    step = next(e for e in ev if e.kind == "postal_step" and e.data.get("province") == "KHAR")
    assert step.data["strength"] == {"A": 1, "B": 7}


def test_postal_8_25_one_combat_phase_for_all_players():
    """004 [8.25] in the postal game: all attacks are made in the one Combat Phase of the Second
    Phase, so a unit attacked once (and surviving, Ae) is not attacked again by another player."""
    g = second_board()
    put(g, "KHAR", None, "GU2 KHAR")
    put(g, "KHAR", "A", "Smirnov")
    put(g, "KHAR", "B", "Sablin")
    put(g, "KHAR", "C", "Deniken")                                     # White 3: goes first
    g.ctx.b.invalidate()
    g.load_dice([6] + [6] * 12)                                        # 3 vs 2 at 1:1, die 6: Ae
    send(g, A=[atk("GU2 KHAR", "Smirnov")], C=[atk("GU2 KHAR", "Deniken")])
    assert section(g, "Deniken") == UNASSIGNED and where(g, "GU2 KHAR") == "KHAR"
    assert skipped(g)[0][:3] == ("A", 0, "004 [8.25]")


@pytest.mark.parametrize("sacrifice, lost", [(None, ["RU8 PETR"]), (["RU2 KAZA", "Lenin"], ["RU2 KAZA", "Lenin"])])
def test_postal_8_44_exchange_losses_by_order_of_sacrifice_or_the_least_loss(sacrifice, lost):
    """004 [8.44]: the owner chooses his Exchange losses: from his written order of sacrifice,
    else the engine's least loss (combat units before leaders, the smallest total).  13 vs 4 at
    3:1, die 4: Ex; A owes 4 points."""
    g = second_board()
    put(g, "KIEV", None, "GU4 KIEV")
    put(g, "KIEV", "A", "Lenin", "RU8 PETR", "RU2 KAZA", attach={"RU8 PETR": "Lenin", "RU2 KAZA": "Lenin"})
    g.ctx.b.invalidate()
    g.load_dice([4] + [6] * 12)
    ev = send(g, A=[{**atk("GU4 KIEV", "Lenin"), "losses": [uid(x) for x in sacrifice or []]}])
    gone = [e.data["unit"] for e in ev if e.kind == "eliminated" and e.data["why"] == "exchange"]
    assert gone == [uid("GU4 KIEV")] + [uid(x) for x in lost]


@pytest.mark.parametrize("accept", [None, False])
def test_postal_13_41_captures_are_taken_unless_declined_in_writing(accept):
    """004 [13.41]: the Gold left alone by a De may be captured: without a ``capture`` order it is;
    with ``accept`` false it is left where it is."""
    g = second_board()
    put(g, "OMSK", "B", "Kolchak", "Gold", attach={"Gold": "Kolchak"})
    put(g, "OMSK", "A", "Lenin", "RU2 KAZA", "RU8 PETR", attach={"RU2 KAZA": "Lenin", "RU8 PETR": "Lenin"})
    g.ctx.b.invalidate()
    g.load_dice([1] + [6] * 12)                                         # 13 vs 2 at 6:1: De
    orders = [atk("Kolchak", "Lenin")] + ([{"order": "capture", "accept": accept}] if accept is not None else [])
    send(g, A=orders)
    assert g.ctx.b.stack_of(D.gold).owner == ("A" if accept is None else None)


# =====================================================================================
# Random Events (postal [12.0])
# =====================================================================================
def _cell(result: str) -> list[int]:
    return list(next(c.roll for c in D.tables.random_events.values() if c.result == result))


def test_postal_12_0_the_draw_goes_to_a_player_chosen_by_the_gamesmaster():
    """postal [12.0]: "'Draw from the Randomizer' indicates that the GM determines in a random
    fashion the recipient of the draw": a die, 1-5 for five players (6 rolled again)."""
    g = board()
    ready(g)
    g.load_dice(_cell("draw") + [6, 4] + events(1))
    ev = send(g)
    (d,) = [e for e in ev if e.kind == "postal_draw"]
    assert d.data["seat"] == "D" and any(e.kind == "drew" and e.data["seat"] == "D" for e in ev)
    # the Gamesmaster rolled, then his die named the drawer (QA: the report read "D rolls 4-4",
    # after the line that gave D the draw)
    kinds = [e.kind for e in ev]
    roll = next(e for e in ev if e.kind == "random_event" and e.data["result"] == "draw")
    assert roll.text.startswith(f"{GM} rolls ") and kinds.index("random_event") < kinds.index("postal_draw") < kinds.index("drew")


def test_postal_12_12_subversive_attacks_doubled_means_the_next_second_phase():
    """postal [12.0]: "'Subversive Attacks Doubled' always refers to the subsequent Second Phase,
    which may not necessarily be the same Game-Turn": rolled in the Second Phase it doubles the
    next Game-Turn's Subversive Attacks (004 [12.12]), and no more."""
    g = board()
    put(g, "ARCH", None, "BU2 ARCH/US")
    put(g, "VOLO", "A", "Sablin", "RU2 KAZA", attach={"RU2 KAZA": "Sablin"})   # 3 points, 6 doubled
    put(g, "KIRG", "E", "Wrangel", "WU2 KIRG", attach={"WU2 KIRG": "Wrangel"})  # (the game goes on, 004 [14.1])
    ready(g)
    g.load_dice(events(2))
    send(g)
    g.load_dice(events(2) + _cell("subversion_doubled"))
    send(g)                                                    # Second Phase: no attack; doubled rolled
    assert g.view(None)["subversion_doubled"] and g.turn == 2
    g.load_dice(events(2))
    send(g)
    g.load_dice([3] + events(3))                               # 6 vs 2 at 3:1, die 3: De
    ev = send(g, A=[atk("BU2 ARCH/US", "Sablin", sub=True)])
    (c,) = [e for e in ev if e.kind == "combat"]
    assert (c.data["attack"], c.data["odds"]) == (6, "3:1") and "doubled" in c.text
    assert not g.view(None)["subversion_doubled"]


# =====================================================================================
# Trades, the Gold, purges, the Czar (postal [4.2], [11.0], [13.26], [13.5])
# =====================================================================================
def test_postal_4_2_a_trade_needs_both_players_orders_a_gift_an_acceptance():
    g = board()
    g.state.politburo.update(A=2, B=2)
    g.state.assassins.update(A=1)
    ready(g)
    g.load_dice(events(2))
    trade = {"order": "trade", "with": "B", "give_politburo": 1, "take_assassins": 0, "take_politburo": 0}
    send(g, A=[{**trade, "give_politburo": 1, "take_politburo": 0},
               {"order": "trade", "with": "C", "give_assassins": 1}],
         B=[{"order": "trade", "with": "A", "take_politburo": 1}, {"order": "trade", "with": "A", "take_politburo": 2}],
         C=[])
    assert g.view(None)["politburo"]["B"] == 3 and g.view(None)["assassins"]["A"] == 1
    assert [(k[0], k[1], k[3]) for k in skipped(g)] == [("A", 1, "no_match"), ("B", 1, "no_match")]
    g.load_dice(events(3))
    send(g, A=[{"order": "trade", "with": "C", "give_assassins": 1}], C=[{"order": "accept_gifts"}])
    gifts = [e["data"]["offer"] for e in g.view(None)["postal"]["report"]["happened"] if e["kind"] == "trade"]
    assert [(o["from"], o["to"], o["give_assassins"]) for o in gifts] == [("A", "C", 1)]


def test_postal_13_26_green_units_stolen_in_a_trade_portion():
    """postal [13.26]: in either trade portion the Gold's leader may take Green units controlled
    by another player in his province (not an uncontrolled one: that is picked up in movement)."""
    g = board()
    put(g, "KHAR", "A", "Kolchak", "Gold", attach={"Gold": "Kolchak"})
    put(g, "KHAR", "B", "GU2 KHAR")
    put(g, "KIEV", None, "GU4 KIEV")
    ready(g)
    g.load_dice(events(2))
    send(g, A=[{"order": "steal", "unit": uid("GU2 KHAR"), "leader": uid("Kolchak")},
               {"order": "steal", "unit": uid("GU4 KIEV"), "leader": uid("Kolchak")}])
    st = g.ctx.b.stack_of(uid("GU2 KHAR"))
    assert st.owner == "A" and st.attached[uid("GU2 KHAR")] == uid("Kolchak")
    (r,) = g.view(None)["postal"]["report"]["refused"]
    assert (r["seat"], r["index"], r["rule"]) == ("A", 1, "004 [17.0] postal [13.26]")


def _purgers(g, pm_a: int = 5, pm_c: int = 4):
    g.state.politburo.update(A=pm_a, B=1, C=pm_c)
    put(g, "PETR", "A", "Lenin")
    put(g, "TVER", "B", "Trotsky")
    put(g, "MOSC" if "MOSC" in D.provinces else "KURS", "C", "Stalin")
    ready(g)


def test_postal_11_0_compatible_orders_purge_with_the_markers_assigned():
    """postal [11.0]: the participants' compatible orders (object, participants, division) make
    the purge; the Purge Strength counts the markers each assigned (A 3 of 5, C all 4)."""
    g = board()
    _purgers(g)
    g.load_dice([1, 1] + events(2))
    order = {"order": "purge", "target": "B", "participants": ["A", "C"], "shares": ["A", "C"]}
    ev = send(g, A=[{**order, "markers": 3}], C=[order])
    (p,) = [e for e in ev if e.kind == "purge"]
    assert p.data["strength"] == 3 + 3 + 1 + 4 and p.data["purgers"] == ["A", "C"]


def test_postal_11_0_a_marker_assigned_to_two_purges_counts_for_none():
    """postal [11.0]: "Any Politburo Marker assigned by its owner to more than one prospective
    Purge may be used for no Purge that Phase": A holds 8 and assigns 5 to each of two purges:
    the 2 assigned twice count in neither, 3 remain for each."""
    g = board()
    _purgers(g, pm_a=8)
    g.load_dice([1, 1] + events(2))
    ev = send(g, A=[{"order": "purge", "target": "B", "participants": ["A"], "markers": 5},
                    {"order": "purge", "target": "C", "participants": ["A"], "markers": 5}])
    (p,) = [e for e in ev if e.kind == "purge"]
    assert (p.data["target"], p.data["strength"]) == ("B", 3 + 3)
    assert skipped(g) == [("A", 1, "004 [11.13]", "illegal_action")]       # one purge a Game-Turn


@pytest.mark.parametrize("order, counter", [(None, None), ("strongest", "A"), ("C", "C")])
def test_postal_11_0_counterpurges_only_by_written_order(order, counter):
    """postal [11.0]: "A Player may submit hypothetical or conditional orders covering
    Counterpurge activities ... If no such orders are submitted, no Counterpurge is conducted."
    A 'C' result (004 [11.24]) against B: B's order names whom he counterpurges."""
    g = board()
    _purgers(g)
    c_roll = next(t for t in range(2, 13) if D.tables.purge[t - 2][D.purge_column(3 + 5 + 1 + 4)] == "C")
    dice = [1, c_roll - 1] if c_roll <= 7 else [6, c_roll - 6]
    g.load_dice(dice + ([1, 1] if counter else []) + events(2))
    purge = {"order": "purge", "target": "B", "participants": ["A", "C"], "shares": ["A", "C"]}
    b = [{"order": "counterpurge", "target": order}] if order else []
    ev = send(g, A=[purge], C=[purge], B=b)
    got = [e.data["target"] for e in ev if e.kind == "counterpurge_declared"]
    assert got == ([counter] if counter else [])
    if not counter:
        assert any(e.kind == "counterpurge_declined" for e in ev)


def test_postal_11_0_a_purge_short_of_a_committee_is_kept_with_a_warning_that_says_why():
    """004 [11.11]: a purge needs a Central Committee of its participants (8 Politburo markers
    between them).  A and C hold 5 + 2: the draft's purge is kept (this phase's trades, carried
    out first, may still bring a marker) but the sheet's writer is told, with the numbers, what
    the Gamesmaster would refuse as things stand; it was kept in silence and then refused.  With
    C at 3 there is no warning, and the purge is carried out."""
    g = board()
    _purgers(g, pm_c=2)
    order = {"order": "purge", "target": "B", "participants": ["A", "C"], "shares": ["A", "C"]}
    got = g.check_sheet("A", {"orders": [order]})
    assert got["refused"] == []
    (w,) = got["warnings"]
    assert (w["index"], w["order"], w["rule"], w["step"]) == (0, "purge", "004 [11.11]", "as things stand")
    assert "A, C hold only 7 Politburo markers" in w["message"] and "needs 8" in w["message"]
    g.load_dice([1, 1] + events(2))
    ev = send(g, A=[order], C=[order])
    assert not any(e.kind == "purge" for e in ev)
    assert ("A", 0, "004 [11.11]", "no_committee") in skipped(g)        # what the warning foretold
    g2 = board()
    _purgers(g2, pm_c=3)
    assert g2.check_sheet("A", {"orders": [order]}) == {"refused": [], "warnings": []}
    g2.load_dice([1, 1] + events(2))
    assert any(e.kind == "purge" for e in send(g2, A=[order], C=[order]))


def test_postal_11_31_a_purge_order_wanting_a_white_leader_as_spoils_is_refused():
    """004 [11.31]: the spoils of a purge are Red leaders and Politburo markers.  A purge order
    whose ``take`` names a White leader was kept, and the Gamesmaster then gave other spoils in
    silence; it is refused on arrival, naming him.  Red leaders and 0 (a marker) are kept."""
    g = board()
    _purgers(g, pm_a=8)
    white = uid("Kolchak")
    order = {"order": "purge", "target": "B", "participants": ["A"], "take": [uid("Trotsky"), white]}
    (r,) = g.check_sheet("A", {"orders": [order]})["refused"]
    assert r["rule"] == "004 [11.31]" and "Kolchak" in r["message"] and "Trotsky" not in r["message"]
    assert g.check_sheet("A", {"orders": [{**order, "take": [uid("Trotsky"), 0]}]})["refused"] == []


def _purged_in_the_first_phase():
    """C (8 markers) has purged B in the First Phase; D's Smirnov is in OREL."""
    g = board()
    _purgers(g)
    g.state.politburo["C"] = 8
    put(g, "OREL", "D", "Smirnov")
    g.load_dice([6, 6] + events(2))
    send(g, C=[{"order": "purge", "target": "B", "participants": ["C"]}])
    return g


def test_postal_4_2_a_second_phase_purge_after_one_in_the_first_is_refused_on_arrival():
    """postal [4.2]: the Second Phase's purge step is for a Game-Turn with no purge in the First.
    A purge order for it, by one who took part in the First's (004 [11.13] too) or anyone else,
    was kept in silence (the sheet is checked on a copy without the postal book) and passed over
    at the adjudication; it is refused on arrival, saying why."""
    g = _purged_in_the_first_phase()
    g.state.politburo["D"] = 8
    for seat, target in (("C", "D"), ("D", "A")):
        (r,) = g.check_sheet(seat, {"orders": [{"order": "purge", "target": target, "participants": [seat]}]})["refused"]
        assert (r["rule"], r["code"]) == ("004 [17.0] postal [4.2]", "wrong_phase"), r


def test_postal_4_2_the_sheet_is_offered_the_kinds_of_its_phase_and_no_purge_after_one():
    """The view's ``postal.kinds`` (what the browser's order cards follow): the First Phase's
    moves and purges, no attack; 001's kinds only in a game with their option; the Second
    Phase's attacks, and its purge only while no purge was conducted in the First (postal [4.2])."""
    g = board()
    first_kinds = g.view("A")["postal"]["kinds"]
    assert {"move", "assassinate", "purge", "trade"} <= set(first_kinds) and "attack" not in first_kinds
    assert "place" not in first_kinds
    assert "place" in first(anarchists=True).view("A")["postal"]["kinds"]
    g.load_dice(events(2))
    send(g)                                     # (no purge in the First Phase)
    second = g.view("A")["postal"]
    assert second["phase"] == "second" and {"attack", "purge"} <= set(second["kinds"]) and "move" not in second["kinds"]
    g = _purged_in_the_first_phase()
    second = g.view("D")["postal"]
    assert second["phase"] == "second" and second["purged"]
    assert "purge" not in second["kinds"] and {"attack", "counterpurge", "trade"} <= set(second["kinds"])


def test_postal_4_2_no_purge_in_the_second_phase_after_one_in_the_first():
    g = _purged_in_the_first_phase()
    g.load_dice(events(3))
    ev = send(g, C=[{"order": "purge", "target": "D", "participants": ["C"]}])
    assert not any(e.kind == "purge" for e in ev) and any(e.kind == "no_purge" for e in ev)


def _czar(g):
    g.state.politburo.update(A=6, B=5, C=1)
    put(g, "EKAT", "C", "Blucher", "Czar", attach={"Czar": "Blucher"})
    put(g, "PETR", "A", "Lenin")
    ready(g)


def test_postal_13_5_execution_answered_by_a_conditional_compliance():
    """postal [13.5]: the execution order "handled in the same manner as Purges" (the
    participants' compatible orders, ten markers, 004 [13.52]); the holder's conditional order
    on file answers at once: the Czar goes face up to his section (004 [13.54])."""
    g = board()
    _czar(g)
    g.load_dice(events(2))
    order = {"order": "execute_czar", "participants": ["A", "B"]}
    send(g, A=[order], B=[order], C=[{"order": "comply_execution", "comply": True}])
    assert section(g, "Czar") == "C"


def test_postal_13_5_without_an_answer_on_file_the_order_waits_for_the_next_sheet():
    """postal [13.5]: "If not, the order is reported along with the rest of the Phase's
    results and it is incumbent upon the Player controlling the Czar to submit an order to
    comply"; a next sheet without one refuses."""
    g = board()
    _czar(g)
    g.load_dice(events(2))
    order = {"order": "execute_czar", "participants": ["A", "B"]}
    ev = send(g, A=[order], B=[order])
    assert any(e.kind == "execution_waiting" for e in ev) and where(g, "Czar") == "EKAT"
    assert g.view("A")["postal"]["execution"]["holder"] == "C"
    g.load_dice(events(3))
    ev = send(g, C=[{"order": "comply_execution"}])
    assert section(g, "Czar") == "C" and g.view(None)["postal"]["execution"] is None


@pytest.mark.parametrize("votes, winner", [({"A": True, "B": True}, "Red"), ({"A": True}, None)])
def test_postal_14_1_the_end_game_vote_is_answered_from_the_second_phase_sheets(votes, winner):
    """004 [14.1] case 3 when the Game-Turn ends with no White leader outside Siberia: each
    voter's ``vote`` order (none: to continue); players holding ten Politburo markers end it."""
    g = board()
    g.state.politburo.update(A=6, B=5, C=2)
    put(g, "PETR", "A", "Lenin")
    put(g, "KIRG", None, "WU2 KIRG")
    ready(g)
    g.load_dice(events(2))
    send(g)
    g.load_dice(events(3))
    send(g, **{p: [{"order": "vote", "end": yes}] for p, yes in votes.items()})
    if winner:
        assert g.over and g.result["winner_color"] == winner
    else:
        assert not g.over and (g.turn, g.phase) == (2, "first")


# =====================================================================================
# The Gamesmaster's deadline, quitting, determinism
# =====================================================================================
def test_postal_close_phase_is_the_gamesmasters_and_takes_sheets_for_the_missing():
    """004 [17.0] Procedure: the phase closes at the pre-arranged date: seats that sent nothing
    have no orders, or the sheet the Gamesmaster is given for them."""
    g = board()
    put(g, "PETR", "A", "Lenin")
    put(g, "TVER", "B", "Trotsky")
    ready(g)
    g.apply(SubmitOrders("A", 1, "first", {"orders": [mv("Lenin", ["NOVG"])]}))
    assert g.legal_actions(GM) == [ClosePhase(GM, 1, "first")]
    refused(g, ClosePhase("B", 1, "first"), "004 [17.0]")
    refused(g, ClosePhase(GM, 1, "first", {"A": {"orders": []}}), "004 [17.0]")
    refused(g, ClosePhase(GM, 1, "second"), "004 [17.0] postal [4.2]")
    g.load_dice(events(2))
    ev = g.apply(ClosePhase(GM, 1, "first", {"B": {"orders": [mv("Trotsky", ["RYAZ"])]}}))
    assert ev[0].kind == "phase_closed" and ev[0].data["missing"] == ["B", "C", "D", "E"]
    assert (where(g, "Lenin"), where(g, "Trotsky"), g.phase) == ("NOVG", "RYAZ", "second")
    # the report says so, in words (found in a QA game: "The Gamesmaster closes first of Game-Turn 1"
    # in the log only, and nothing of it in the report)
    text = report.render(g.view("A")["postal"]["report"], g.data)
    assert ("The deadline has passed: the Gamesmaster closes the First Phase of Game-Turn 1; no sheet from B: a "
            "stand-in's sheet, written at the deadline, is used for it (a draft never sent counts for nothing); "
            "no sheet from C, D, E: no orders") in text
    assert g.apply(SubmitOrders("A", 1, "second", {"orders": []}))[0].text == \
        "A has sent its orders for the Second Phase of Game-Turn 1"


def test_postal_a_late_sheet_and_the_live_games_actions_are_refused():
    g = first()
    refused(g, SubmitOrders("A", 1, "second", {"orders": []}), "004 [17.0] postal [4.2]")
    refused(g, SubmitOrders("A", 2, "first", {"orders": []}), "004 [17.0] postal [4.2]")
    refused(g, SubmitOrders("A", 1, "first", {"moves": []}), "004 [17.0]")
    refused(g, A.StartForce("A", 151), "004 [17.0]")
    refused(g, SubmitOrders("F", 1, "first", {"orders": []}), "004 [15.21]")
    with pytest.raises(IllegalAction):
        SubmitOrders("A", 1, "first", {"orders": [1.5]})               # not plain data


def test_postal_14_2_a_quit_closes_a_phase_that_waited_only_for_the_quitter():
    g = first()
    for p in "ABCD":
        g.apply(SubmitOrders(p, 1, "first", {"orders": []}))
    assert g.phase == "first"
    g.apply(A.Quit("E"))
    assert g.phase == "second" and [p["seat"] for p in g.pending] == list("ABCD")


def test_postal_same_seed_and_sheets_same_game():
    """A game is its seed, options and action log: the record replays to the same state, and a
    save loads as the postal game."""
    g = first(seed=11)
    seat_a = next(st for st in g.state.stacks.values() if st.owner == "A" and g.ctx.b.leaders_of(st))
    lead = g.ctx.b.leaders_of(seat_a)[0]
    dest = next(iter(g.reach(lead)))
    g.apply(SubmitOrders("A", 1, "first", {"orders": [{"order": "move", "unit": lead, "path": g.reach(lead)[dest]["path"],
                                                           "rail": g.reach(lead)[dest]["rail"]}]}))
    send_rest = [p for p in g.seats if p != "A"]
    for p in send_rest:
        g.apply(SubmitOrders(p, 1, "first", {"orders": []}))
    send(g)
    again = from_record(g.record())
    assert again.state_hash() == g.state_hash() and again.MODE == "postal"
    assert from_bytes(g.to_bytes()).state_hash() == g.state_hash()
    assert g.record()["options"] == {"mode": "postal", "postal_movement": True}


# =====================================================================================
# rcw report
# =====================================================================================
def test_rcw_report_replays_a_record_or_sheets_and_prints_a_phase(tmp_path, capsys):
    """``rcw report``: the Gamesmaster's report of a phase (004 [17.0] Procedure), from a game's
    record or from sheets alone; exit 1 for a refused action or a phase not reached, 2 for a
    file that cannot be read."""
    import json

    from rcw.cli import main

    g = first(seed=5)
    lead = next(u for st in g.state.stacks.values() if st.owner == "B" for u in g.ctx.b.leaders_of(st))
    dest, route = next(iter(g.reach(lead).items()))
    sheets = [{"seat": p, "turn": 1, "phase": "trading", "orders": []} for p in g.seats]
    sheets += [{"seat": p, "turn": 1, "phase": "first",
                "orders": [{"order": "move", "unit": lead, **route}] if p == "B" else []} for p in g.seats]
    path = tmp_path / "sheets.json"
    path.write_text(json.dumps({"seed": 5, "players": 5, "sheets": sheets}))
    assert main(["report", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("REPORT OF GAME-TURN 1, THE FIRST PHASE (MOVEMENT)") and dest in out
    assert f"Force ends its move in {dest}" in out
    assert main(["report", str(path), "--phase", "trading", "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["phase"] == "trading" and rep["phase_now"] == "first"
    assert main(["report", str(path), "--all", "--json"]) == 0
    assert [r["phase"] for r in json.loads(capsys.readouterr().out)] == ["deal", "trading", "first"]
    assert main(["report", str(path), "--phase", "deal"]) == 0
    out_deal = capsys.readouterr().out
    assert "REPORT OF GAME-TURN 1, THE DEAL" in out_deal and "IN VICTORY BOX" in out_deal
    assert main(["report", str(path), "--turn", "2"]) == 1
    rec = tmp_path / "record.json"
    g2 = from_record({"seed": 5, "players": 5, "options": {"mode": "postal"}, "actions": [
        {"t": "SubmitOrders", "seat": s["seat"], "turn": s["turn"], "phase": s["phase"], "sheet": {"orders": s["orders"]}}
        for s in sheets]})
    rec.write_text(json.dumps(g2.record()))
    assert main(["report", str(rec), "--phase", "first"]) == 0
    assert capsys.readouterr().out == out
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"seed": 5, "players": 5, "sheets": [{"seat": "A", "turn": 1, "phase": "second"}]}))
    assert main(["report", str(bad)]) == 1
    assert "action 1 (SubmitOrders)" in capsys.readouterr().err
    assert main(["report", str(tmp_path / "missing.json")]) == 2
    live = tmp_path / "live.json"              # (a live game's record, options {}: no report, said so)
    live.write_text(json.dumps(from_record({"seed": 5, "players": 5, "options": {}, "actions": []}).record()))
    assert main(["report", str(live)]) == 1
    assert "not a postal game: the record is of the multi-player game (no mode)" in capsys.readouterr().err
    # a running game's record (its creator's, the seed sealed until the end): said so, no traceback (QA)
    running = tmp_path / "running.json"
    running.write_text(json.dumps({**g2.record(), "seed": None, "nonce": None}))
    assert main(["report", str(running)]) == 1
    assert "the record's seed is sealed until the game is over" in capsys.readouterr().err


def test_postal_5_0_a_pick_up_may_name_the_leader_who_takes_it():
    """004 [7.21] in the orders: "list the Leaders and units in each stack in order from top to
    bottom": a pick-up ``[unit, leader]`` is attached to that leader of the force."""
    g = board()
    put(g, "KAZA", None, "RU2 KAZA")
    put(g, "KAZA", "A", "Tukhachevsky")
    put(g, "KAZA", "A", "Sablin")
    ready(g)
    g.load_dice(events(2))
    send(g, A=[mv("Tukhachevsky", [], join=[uid("Sablin")], pick={"KAZA": []}) | {
        "pick": {"KAZA": [[uid("RU2 KAZA"), uid("Sablin")]]}}])
    st = g.ctx.b.stack_of(uid("RU2 KAZA"))
    assert st.attached[uid("RU2 KAZA")] == uid("Sablin") and uid("Tukhachevsky") in st.units
