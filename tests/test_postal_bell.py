"""The Bell (004 [17.0], issues #1-#4) played as a postal game: the engine is the Gamesmaster.

Bell #1's deal; Bell #2's trades as pre-season trade orders (004 [17.0] postal [15.0]); the
First Phase sheets that Bell #3's report implies (every move, pick-up and stacking, the purge
orders it quotes) give exactly Bell #3's positions; the Second Phase sheets of Bell #4 (its
combat chart, its purge orders) give the printed odds and results (the dice are loaded to
match the printed results, the printed tables being lost), every eliminated unit in the
printed box, and the purge as printed.  Where the Bell contradicts the rules the test follows
the rules and says so:

* Ryazan's epidemic (Bell #4, third roll): the purge splits B's RYAZ stack in two before the
  Random Events (postal [4.2] Second Phase: purge 3, Random Events 6), so 004 [12.11] ("each
  Red ... stack") takes RU6 KURS from B's Voroshilov as well as RU8 NOVG from A's Tukhachevsky;
  the Bell's GM took RU8 NOVG only.
* Bell #4's "7-1" Subversive Attack on BU2 ARCH/US is resolved at 6:1 (004 [8.48]).
* RU2 KAZA stays with Markin in SARA (Bell #4 shows it back in KAZA, unaligned, although
  nothing eliminated it), and Bell #4 forgets Sytin in TVER (tests/test_bell.py).
"""

from __future__ import annotations

import pytest
from bell_data import (
    DEPLOYED,
    JULY,
    MOVED,
    UNALIGNED_START,
    VP_JULY,
    S,
    arrange_draws,
    deal,
    event_cell,
    ids,
)
from engine_helpers import D, every_unit_accounted, positions, uid, uids

from rcw.modes import new_game
from rcw.postal import SubmitOrders, render
from rcw.state import UNASSIGNED


def mv(leader: str, path: list[str], rail: bool = False, join=(), pick: dict | None = None) -> dict:
    """A move order, units named as the Bell prints them."""
    o = {"order": "move", "unit": uid(leader), "path": path, "rail": rail, "join": list(ids(*join))}
    if pick:
        o["pick"] = {p: [uids(lab)[0] for lab in labs] for p, labs in pick.items()}
    return o


def mg(a: str, b: str) -> dict:
    return {"order": "merge", "unit": uid(a), "into": uid(b)}


def atk(target: str, *attackers: str, sub: bool = False, losses=()) -> dict:
    return {"order": "attack", "target": uids(target)[0], "attackers": list(ids(*attackers)), "subversive": sub,
            "losses": list(ids(*losses))}


PREGAME = {
    "C": [{"order": "trade", "with": "D", "give_leaders": list(ids("Berzin", "Yeserov", "Rykov", "Bela Kun")),
           "take_leaders": list(ids("Sidorin", "Miller", "Ulagi", "May-Maevsky"))},
          {"order": "trade", "with": "E", "give_politburo": 2, "take_leaders": list(ids("Wrangel"))}],
    "D": [{"order": "trade", "with": "C", "take_leaders": list(ids("Berzin", "Yeserov", "Rykov", "Bela Kun")),
           "give_leaders": list(ids("Sidorin", "Miller", "Ulagi", "May-Maevsky"))},
          {"order": "trade", "with": "B", "give_leaders": list(ids("Stalin")), "take_leaders": list(ids("Slavin"))}],
    "E": [{"order": "trade", "with": "C", "take_politburo": 2, "give_leaders": list(ids("Wrangel"))}],
    "B": [{"order": "trade", "with": "D", "give_leaders": list(ids("Slavin")), "take_leaders": list(ids("Stalin"))}],
}

# Bell #3: the June 1918 movement, every stack's path in the order listed (postal [5.0]), and
# the purge orders its report quotes (postal [11.0]).
FIRST = {
    "A": [mv("Lenin", ["PSKO", "LIVO"]), mv("Rodzyanko", ["LIVO"]),
          mv("Lukomsky", ["TERE", "TIFL"], pick={"TIFL": ["WU2 TIFL"]}), mv("Kalinin", ["OREL", "KURS"]),
          mv("Sorokin", ["TAMB", "SARA"], join=["Kamenev"]), mv("Markin", ["SIMB", "SARA"]), mv("Zinoviev", ["MOHI"]),
          mv("Sablin", ["PETR"]), mv("Smirnov", ["TULA", "TVER", "NOVG"], rail=True)],
    "B": [mv("Khanzin", ["EKAT"], rail=True), mv("Bonch-Bruevich", ["ARCH"]), mv("Peterson", ["OLON", "ARCH"]),
          mv("Stalin", ["OREL", "TULA", "TVER", "YARO", "VOLO", "ARCH"], rail=True),
          mv("Tukhachevsky", ["TVER", "RYAZ"], rail=True), mv("Voroshilov", ["OREL", "TULA", "RYAZ"], rail=True),
          mg("Peterson", "Bonch-Bruevich"), mg("Stalin", "Bonch-Bruevich"), mg("Voroshilov", "Tukhachevsky"),
          # "a Purge of Player E with Players D and A (all three Markers). Player D will take the first
          # Leadership Point ..., Player A, the second ..., and B the third": legal, but not compatible.
          {"order": "purge", "target": "E", "participants": ["B", "D", "A"], "markers": 3, "shares": ["D", "A", "B"]}],
    "C": [mv("Kolchak", ["EKAT"], rail=True, join=["Kappel"]), mv("Miller", ["VOLO", "VYAT", "PERM", "EKAT"], rail=True),
          mv("Wrangel", ["KIRG", "SAMA", "UFIM", "EKAT"], rail=True, pick={"KIRG": ["WU2 KIRG"], "SAMA": ["WU2 SAMA"]}),
          mv("Deniken", ["DCOS", "TSAR", "KIRG", "URAL", "SAMA"], pick={"URAL": ["WU2 URAL"]}),
          mv("Sidorin", ["DCOS", "KHAR"])],
    "D": [mv("Yudenich", ["COUR"]), mv("Dutov", ["URAL"]), mv("Bogomoletz", ["BARN"]),
          mv("Trotsky", ["YARO", "VOLO"], rail=True, join=["Berzin"]), mv("Slavin", ["TVER", "YARO", "VOLO"], rail=True),
          mv("Yeserov", ["TVER", "YARO", "VOLO"], rail=True), mg("Slavin", "Trotsky"), mg("Yeserov", "Trotsky"),
          # "full support for a Purge against Dept. A if the following conditions are obtained ..."
          {"order": "purge", "target": "A", "participants": [], "condition": "Purge Strength of 25 or greater"}],
    "E": [mv("Abramov", ["DCOS", "KUBA", "TERE", "DAGH"]), mv("Romanovsky", ["TERE"]),
          mv("Blucher", ["PERM", "VYAT", "VOLO"], rail=True), mv("Antonov", ["SMOL", "OREL"]),
          mv("Frunze", ["TVER", "PSKO"]), mv("Vatzetis", ["TVER", "PSKO"]), mv("Gai", ["PSKO"]),
          mg("Antonov", "Budenny"), mg("Vatzetis", "Frunze"), mg("Gai", "Frunze"),
          # "Join with F. Davis (D) for Purge on B. Grossman (A); Counterpurge strongest"
          {"order": "purge", "target": "A", "participants": ["E", "D"]},
          {"order": "counterpurge", "target": "strongest"}],
}

# Bell #4: the combat chart and the purge orders ("A: Purge B with E. B: Purge E. D: Purge A with
# E. E: Purge B with A."); A and E divide as printed: A two points, E one.
PURGE_B = {"order": "purge", "target": "B", "participants": ["A", "E"], "shares": ["A", "E"]}
SECOND = {
    "A": [atk("BU2 CHER/GE", "Kalinin", sub=True), atk("WU2 SARA", "Sorokin", "Markin"), atk("BU2 MOHI/GE", "Zinoviev"),
          atk("BU2 LIVO/GE", "Lenin"), atk("GU2 LIVO", "Rodzyanko", losses=["WU2 ESTO"]),
          {**PURGE_B, "markers": 3, "take": list(ids("Tukhachevsky"))}],
    "B": [atk("BU2 ARCH/BR", "Stalin"), {"order": "purge", "target": "E", "participants": ["B"]}],
    "C": [atk("GU2 KHAR", "Sidorin", "May-Maevsky")],
    "D": [atk("BU2 ARCH/US", "Trotsky", sub=True), atk("GU2 COUR", "Yudenich"),
          {"order": "purge", "target": "A", "participants": ["D", "E"], "shares": ["D", "E"]}],
    "E": [atk("BU2 POLT/GE", "Budenny", sub=True), atk("BU2 ARCH/US", "Blucher", sub=True),
          atk("BU2 VITE/GE", "Frunze", sub=True), {**PURGE_B, "markers": 5, "take": list(ids("Muraviev"))}],
}
# Dice as printed: the Subversive Attacks by strength (ARCH/US 14, VITE 12, CHER 4; E's 3 on
# ARCH/US finds nothing), then province by province: ARCH, COUR, KHAR, LIVO (Red, White), MOHI, SARA.
COMBAT_DICE = [3, 6, 1, 3, 4, 5, 5, 2, 3, 3]


def _roll(result: str) -> list[int]:
    return list(next(c.roll for c in D.tables.random_events.values() if c.result == result))


def send(g, turn: int, phase: str, sheets: dict) -> list:
    ev = []
    for seat in g.seats:
        ev += g.apply(SubmitOrders(seat, turn, phase, {"orders": sheets.get(seat, [])}))
    return ev


def pregame():
    g = deal(new_game(5, 1976, {"mode": "postal"}))
    return g, send(g, 1, "trading", PREGAME)


def june():
    """Bell #3's First Phase: 2 Random Events (5 players, rounded down): the Vyatka-Kaluga-Kiev
    epidemic and a draw that the Gamesmaster's die (2 of 1-5) gives B: an Assassin marker."""
    g, _ = pregame()
    arrange_draws(g, "A")
    g.load_dice([*event_cell("VYAT"), *_roll("draw"), 2])
    ev = send(g, 1, "first", FIRST)
    assert not g.ctx.dice.left
    return g, ev


def july():
    """Bell #4's Second Phase: combat, the purge (roll 1+1), the Randomizer (A, A, UK Control,
    A, UK Withdrawal), replacements and 3 Random Events (rounded up): doubled, doubled, epidemic."""
    g, _ = june()
    arrange_draws(g, "A", "A", "BC:BR", "A", "WD:BR")
    g.load_dice([*COMBAT_DICE, 1, 1, *_roll("subversion_doubled"), *_roll("subversion_doubled"), *event_cell("TSIT")])
    ev = send(g, 1, "second", SECOND)
    assert not g.ctx.dice.left
    return g, ev


@pytest.fixture(scope="module")
def june_game():
    return june()


@pytest.fixture(scope="module")
def july_game():
    return july()


# -- Bell #1, #2: the deal and the pre-season trades (postal [15.0]) ----------------------------
@pytest.mark.parametrize("seat", "ABCDE")
def test_postal_15_0_pre_season_trades_give_the_bell_deployment(seat):
    """004 [17.0] postal [15.0]: the pre-season trades are orders, adjudicated together; the
    deployment that follows (004 [15.4], [15.5]) is Bell #1 as altered by Bell #2."""
    g, _ = pregame()
    assert positions(g, seat) == sorted(DEPLOYED[seat])
    assert g.view(seat)["politburo"] == {"A": 3, "B": 3, "C": 0, "D": 4, "E": 5}
    assert g.phase == "first" and g.pending == [{"seat": p, "kind": "orders"} for p in "ABCDE"]


def test_postal_15_0_the_second_report_lists_the_trades():
    g, ev = pregame()
    rep = g.view(None)["postal"]["report"]
    assert rep["phase"] == "trading" and not rep["skipped"]
    assert sum(1 for e in rep["happened"] if e["kind"] == "trade") == 3
    assert positions(g, None) == sorted(UNALIGNED_START)


# -- Bell #3: the June movement --------------------------------------------------------------------
@pytest.mark.parametrize("seat", "ABCDE")
def test_postal_5_0_bell3_positions(june_game, seat):
    """004 [17.0] postal [5.0]: every seat's moves carried out in the order listed, each judged
    on the start positions, give Bell #3's positions exactly."""
    g, _ = june_game
    assert positions(g, seat) == sorted(MOVED[seat])


def test_postal_12_0_bell3_random_events_and_unaligned_units(june_game):
    """Bell #3: 'Epidemic in Vyatka (NE), Kaluga (NE), and Kiev (GU4 KIEV elim)'; 'Assassin
    Marker to Player B' (postal [12.0]: the Gamesmaster's die chose B)."""
    g, ev = june_game
    picked = {S("KIRG", "WU2 KIRG"), S("SAMA", "WU2 SAMA"), S("URAL", "WU2 URAL"), S("TIFL", "WU2 TIFL"),
              S("KIEV", "GU4 KIEV")}
    assert positions(g, None) == sorted(x for x in UNALIGNED_START if x not in picked)
    assert g.view(None)["vp"] == {UNASSIGNED: [[uid("GU4 KIEV"), True]]}
    assert g.view(None)["assassins"] == {"A": 0, "B": 1, "C": 0, "D": 1, "E": 1}
    draw = next(e for e in ev if e.kind == "postal_draw")
    assert draw.data["seat"] == "B"
    every_unit_accounted(g)


def test_postal_11_0_bell3_purge_orders(june_game):
    """Bell #3 'Purges': B's order is legal but no one else's is compatible; D's conditional
    order and E's order without a division of the spoils are disallowed; E's conditional
    counterpurge is valid (postal [11.0])."""
    g, _ = june_game
    rep = g.view(None)["postal"]["report"]
    (b,) = [k for k in rep["skipped"] if k["order"] == "purge"]
    assert b["seat"] == "B" and b["rule"] == "004 [17.0] postal [11.0]" and "A, D submitted no compatible" in b["message"]
    assert not any(e["kind"] == "purge" for e in rep["happened"])
    # what each sheet was told when it arrived (its own view only)
    assert [(r["index"], r["rule"]) for r in g.view("D")["postal"]["rejected"]] == []     # (a new phase: cleared)


def test_postal_11_0_conditional_and_undivided_purge_orders_are_refused_on_arrival():
    g, _ = pregame()
    g.apply(SubmitOrders("D", 1, "first", {"orders": FIRST["D"]}))
    g.apply(SubmitOrders("E", 1, "first", {"orders": FIRST["E"]}))
    (d,) = g.view("D")["postal"]["rejected"]
    assert d["index"] == len(FIRST["D"]) - 1 and d["rule"] == "004 [17.0] postal [11.0]" and "conditional" in d["message"]
    (e,) = g.view("E")["postal"]["rejected"]
    assert e["rule"] == "004 [11.23]" and "dividing the spoils" in e["message"]
    sheet = g.view("E")["postal"]["sheet"]
    assert [o["order"] for _, o in sheet].count("move") == 7 and sheet[-1][1] == {"order": "counterpurge",
                                                                                  "target": "strongest"}
    assert g.view("A")["postal"]["submitted"] == ["D", "E"] and "sheet" in g.view("A")["postal"]
    assert g.view("A")["postal"]["sheet"] is None and g.view("A")["postal"]["rejected"] == []


# -- Bell #4: the June combat, the purge, the Randomizer, replacements, Random Events ---------------
def _combats(ev) -> list[tuple]:
    return [(e.data["seat"], e.data["province"], e.data["attack"], e.data["defense"], e.data["odds"], e.data["result"],
             e.data["subversive"]) for e in ev if e.kind == "combat"]


def test_postal_8_0_bell4_combat_chart(july_game):
    """Bell #4's chart: Subversive Attacks first, the strongest first; then province by province
    (004 [17.0] postal [8.0]); the odds and results as printed (ARCH-D's '7-1' at 6:1, 004 [8.48])."""
    g, ev = july_game
    assert _combats(ev) == [
        ("D", "ARCH", 14, 2, "6:1", "De", True), ("E", "VITE", 12, 2, "6:1", "De", True),
        ("A", "CHER", 4, 2, "2:1", "De", True),
        ("B", "ARCH", 6, 2, "3:1", "De", False), ("D", "COUR", 3, 2, "1:1", "Ae", False),
        ("C", "KHAR", 11, 2, "5:1", "De", False), ("A", "LIVO", 11, 2, "5:1", "De", False),
        ("A", "LIVO", 3, 2, "1:1", "Ex", False), ("A", "MOHI", 8, 2, "4:1", "De", False),
        ("A", "SARA", 9, 2, "4:1", "De", False)]


def test_postal_8_0_bell4_orders_without_effect(july_game):
    """'POLT Red E Stk in OREL ... None-illegal order' was refused when the sheet arrived (004
    [8.31]); 'ARCH Red E Stk in VOLO ... None - unit elim by D' is skipped: its target was
    eliminated by an attack with greater precedence (postal [8.0])."""
    g, ev = july_game
    rep = g.view(None)["postal"]["report"]
    skipped = [(k["seat"], k["index"], k["rule"]) for k in rep["skipped"] if k["order"] == "attack"]
    assert skipped == [("E", 1, "004 [17.0] postal [8.0]")]
    events = [e for e in ev if e.kind == "orders_submitted"]
    assert len(events) == 5 and all("orders" not in e.data for e in events)      # never what, to the others


def test_postal_8_44_bell4_exchange_loss_from_the_sheet(july_game):
    """004 [8.44]: A's order of sacrifice (WU2 ESTO, not Rodzyanko) answers the Exchange."""
    g, _ = july_game
    assert positions(g, "A").count(S("LIVO", "Rodzyanko")) == 1


def test_postal_11_0_bell4_purge_as_printed(july_game):
    """'Twelve Leadership Value Points, plus three Politburo Markers from Player A combined with
    Nine Leadership Value Points and five Politburo Markers from Player E, equaled a total of
    twenty-nine Purge Points. A roll of "two" ...; three Leadership Value Points consequently
    changed hands. Player A got RL2 Tukachevsky and RU8 NOVG in RYAZ. Player E got RL1 Muraviev,
    RU4 PSKO in PSKO.'  B's, D's orders had no compatible partner (postal [11.0])."""
    g, ev = july_game
    (p,) = [e for e in ev if e.kind == "purge"]
    assert (p.data["purgers"], p.data["target"], p.data["strength"], p.data["dice"], p.data["result"]) == (
        ["A", "E"], "B", 29, [1, 1], "3")
    spoils = [(e.data["seat"], e.data["leader"], e.data["units"]) for e in ev if e.kind == "spoil"]
    assert spoils == [("A", uid("Tukhachevsky"), list(ids("Tukhachevsky", "RU8 NOVG"))),
                      ("E", uid("Muraviev"), list(ids("Muraviev", "RU4 PSKO")))]
    rep = g.view(None)["postal"]["report"]
    assert sorted((k["seat"], k["rule"]) for k in rep["skipped"] if k["order"] == "purge") == [
        ("B", "004 [11.11]"), ("D", "004 [17.0] postal [11.0]")]     # B alone holds 3 markers: no Committee


def test_postal_bell4_randomizer_replacements_and_random_events(july_game):
    g, ev = july_game
    v = g.view(None)
    assert v["assassins"] == {"A": 1, "B": 2, "C": 0, "D": 2, "E": 1}
    assert v["control"] == {"BR": "C"}
    assert sorted(e.data["unit"] for e in ev if e.kind == "replaced") == sorted(ids("WU2 LIVO", "GU4 KIEV"))
    assert v["subversion_doubled"]                # postal [12.0]: for the next Second Phase
    assert v["politburo"] == {"A": 3, "B": 3, "C": 0, "D": 4, "E": 5}


@pytest.mark.parametrize("seat", "ABCDE")
def test_postal_bell4_july_positions(july_game, seat):
    """Bell #4's 'Current Positions', the purge's split stacks included; the Ryazan epidemic
    strikes each Red stack there (004 [12.11]): RU6 KURS dies with RU8 NOVG (the Bell's GM
    spared it)."""
    g, _ = july_game
    want = {p: list(v) for p, v in JULY.items()}
    want["A"].append(S("RYAZ", "Tukhachevsky"))
    want["B"] = [x for x in want["B"] if x[0] not in ("RYAZ", "PSKO")] + [S("RYAZ", "Voroshilov")]
    want["E"].append(S("PSKO", "Muraviev", "RU4 PSKO"))
    assert positions(g, seat) == sorted(want[seat])


def test_postal_bell4_victory_boxes(july_game):
    g, _ = july_game
    vp = {k: sorted(e[0] for e in v) for k, v in g.view(None)["vp"].items() if v}
    want = {k: sorted(ids(*v)) for k, v in VP_JULY.items()}
    want[UNASSIGNED] = sorted(want[UNASSIGNED] + [uid("RU6 KURS")])       # 004 [12.11] (see the module)
    assert vp == want
    every_unit_accounted(g)
    assert g.turn == 2 and g.phase == "first"


def test_postal_report_text(july_game):
    g, _ = july_game
    text = render(g.view(None)["postal"]["report"], g.data)
    assert "REPORT OF GAME-TURN 1, THE SECOND PHASE (COMBAT)" in text
    assert "    RYAZ: RL2 Tukhachevsky" in text and "IN NEUTRAL BOX:" in text
    assert "E order #2 (attack): 004 [17.0] postal [8.0]" in text
    assert "E order #1 (attack): 004 [8.31]" in text                 # 'POLT ... None-illegal order'

