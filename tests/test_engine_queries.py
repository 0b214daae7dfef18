"""The rule queries ``Game`` answers for its clients (reach, capacity, odds, attack options,
hostility, scores, legality, clones, injected dice): each agrees with what ``apply`` then does,
so bots, the server and the browser can ask instead of keeping copies of the rules."""

from __future__ import annotations

import random

import pytest
from engine_helpers import blank, dice, phase, put, refused, stack_with, started, uid
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rcw.bots.match import Match
from rcw.bots.random_agent import RandomAgent

from rcw import actions as A
from rcw.actions import IllegalAction
from rcw.game import Game
from rcw.modes import new_game
from rcw.player import Player


def _movement_positions(seed: int, players: int = 5, limit: int = 6) -> list[Game]:
    """Clones of a random game at the start of Movement Phases (seeded random agents)."""
    g = Game.new(players, seed, {"max_turns": 4})
    m = Match(g, {p: RandomAgent(p, seed) for p in g.seats})
    out: list[Game] = []
    last = None
    while not g.over and len(out) < limit:
        key = (g.turn, g.view()["phasing"], g.phase)
        if g.phase == "movement" and g.view()["force"] is None and key != last:
            last = key
            out.append(g.clone())
        step = m.next_step()
        m.apply(step.seat, step.action, step.kind)
    return out


def _follow(g: Game, seat: str, route: dict) -> Game:
    """Apply the Moves of a route on a clone (raises IllegalAction if one is refused)."""
    h = g.clone()
    for p in route["path"]:
        h.apply(A.Move(seat, p, route["rail"]))
    return h


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_route_reach_gives_is_played_by_the_rules_and_nothing_one_step_beyond_is_missed(seed):
    """004 [5.2]-[5.5], [5.27]: for every force that may start, each route ``reach`` names is
    accepted Move by Move, and every province one more legal Move away from the end of a route
    (or from the start) is itself in ``reach``."""
    checked = 0
    for g in _movement_positions(seed):
        seat = g.view()["phasing"]
        for start in [a for a in g.legal_actions(seat) if isinstance(a, A.StartForce)]:
            routes = g.reach(start.unit)
            h = g.clone()
            h.apply(start)
            assert h.reach() == routes                      # the moving force: the same answer
            here = h.view()["stacks"]
            origin = next(s["province"] for s in here if start.unit in s["units"])
            for dest, route in routes.items():
                end = _follow(h, seat, route)
                assert next(s["province"] for s in end.view()["stacks"] if start.unit in s["units"]) == dest
                for mv in [a for a in end.legal_actions(seat) if isinstance(a, A.Move)]:
                    assert mv.to in routes or mv.to == origin, (dest, mv)
                    checked += 1
            for mv in [a for a in h.legal_actions(seat) if isinstance(a, A.Move)]:
                assert mv.to in routes
    assert checked > 50


def test_reach_stops_on_entering_another_colour_and_keeps_kerch_white():
    """004 [5.27]: a force entering a province held by another colour goes no farther;
    004 [5.32]: only White units cross the Kerch Straits (Taurida-Kuban)."""
    g = blank()
    put(g, "KURS", "A", "Lenin")
    put(g, "OREL", None, "WU2 TIFL")
    routes = g.reach(uid("Lenin"))
    assert routes["OREL"] == {"path": ["OREL"], "rail": False}
    assert all("OREL" not in r["path"][:-1] for r in routes.values())     # never through Orel
    g2 = blank()
    put(g2, "TAUR", "A", "Lenin")
    put(g2, "TAUR", "A", "Deniken")
    assert all(r["path"][0] != "KUBA" for r in g2.reach(uid("Lenin")).values())
    assert g2.reach(uid("Deniken"))["KUBA"] == {"path": ["KUBA"], "rail": False}


def test_leader_movement_option_is_the_reach_of_every_client():
    """The ``leader_movement`` option: a leader's overland reach grows and shrinks with it
    (the SDT bot once planned five-province moves whatever the option said)."""
    far = {}
    for ma in (2, 5):
        g = blank(options={"leader_movement": ma})
        put(g, "KALU", "A", "Kamenev")
        routes = g.reach(uid("Kamenev"))
        far[ma] = max(len(r["path"]) for r in routes.values() if not r["rail"])
        assert g.view()["limits"]["leader_movement"] == ma
    assert far == {2: 2, 5: 5}


def test_the_force_being_moved_has_its_leaders_allowance_or_three():
    """004 [5.0], [5.63]: a force with a leader spends up to the leader Movement Allowance (the
    ``leader_movement`` option), a Blue or Green force three; the browser shows this number
    (it once chose between the two itself), and the rules stop the force there."""
    for ma in (2, 5):
        g = blank(options={"leader_movement": ma})
        put(g, "KALU", "A", "Kamenev")
        with pytest.raises(IllegalAction) as e:
            g.force_allowance()
        assert e.value.code == "no_force"
        g.apply(A.StartForce("A", uid("Kamenev")))
        assert g.force_allowance() == ma
    g = blank()
    put(g, "OMSK", "A", "BU3 OMSK/CZ")
    g.apply(A.StartForce("A", uid("BU3 OMSK/CZ")))
    assert g.force_allowance() == 3 == g.limits()["blue_green_movement"]
    path = max((r["path"] for r in g.reach().values() if not r["rail"]), key=len)
    assert len(path) == 3
    for to in path:                                   # three provinces, then no fourth
        g.apply(A.Move("A", to))
    here = g.data.provinces[path[-1]]
    refusals = {g.why_illegal(A.Move("A", to)).rule for to in here.adjacent if to not in path}
    assert "004 [5.28]" in refusals and g.force_allowance() == 3


def test_capacity_counts_the_czar_the_gold_and_the_stacking_limit():
    """004 [5.14]: a leader moves combat units up to his value; 004 [13.22]: +2 with the Czar
    for a White leader; 004 [13.25]: +2 Green with the Gold; 004 [7.11]: five units a stack."""
    g = blank()
    put(g, "DCOS", "A", "Krasnov", "WU8 DON", attach={"WU8 DON": "Krasnov"})
    c = g.capacity(uid("Krasnov"))
    assert c["attached"] == 1 and c["own"] == g.data.units[uid("Krasnov")].strength
    assert c["room"] == min(c["own"] - 1, 3)
    with pytest.raises(IllegalAction):
        g.capacity(uid("WU8 DON"))


def test_odds_of_a_hypothetical_attack_are_the_odds_it_resolves_at():
    """004 [8.0]: the odds ``odds`` gives are those the Combat Results Table is read at."""
    g = blank()
    put(g, "TULA", "A", "Trotsky", "RU8 PETR", attach={"RU8 PETR": "Trotsky"})
    put(g, "TULA", None, "WU2 TIFL")
    phase(g, "A", "combat")
    me, target = stack_with(g, "Trotsky").id, stack_with(g, "WU2 TIFL").id
    o = g.odds([me], target)
    assert (o["label"], sum(o["results"].values())) == ("5:1", 6)
    g.apply(A.DeclareAttack("A", target))
    g.apply(A.AddAttacker("A", me))
    assert g.odds() == o
    with dice(g, 6):
        ev = g.apply(A.ResolveAttack("A"))
    combat = next(e for e in ev if e.kind == "combat")
    assert combat.data["odds"] == o["label"] and combat.data["defender"] is None


def test_attack_options_never_combine_red_and_white():
    """004 [8.22]: only friendly units combine.  Kikvidze (Red) and Dieterichs (White) of one
    player stand with a Green stack: the options list them in separate groups, each at the odds
    it would really get (the browser once promised 3:1 for the two together)."""
    g = blank()
    put(g, "VLDV", "A", "Kikvidze")
    put(g, "VLDV", "A", "Dieterichs")
    put(g, "VLDV", None, "GU2 VLDV")
    phase(g, "A", "combat")
    target = stack_with(g, "GU2 VLDV").id
    opt = next(o for o in g.attack_options("A") if o["target"] == target)
    colors = [{g.view()["stacks"][[s["id"] for s in g.view()["stacks"]].index(x)]["color"] for x in grp["stacks"]}
              for grp in opt["groups"]]
    assert all(len(c) == 1 for c in colors) and len(opt["groups"]) == 2
    for grp in opt["groups"]:
        assert grp["odds"] == g.odds(grp["stacks"], target)
    both = [s for grp in opt["groups"] for s in grp["stacks"]]
    with pytest.raises(IllegalAction) as e:
        g.odds(both, target)
    assert e.value.rule == "004 [8.22]"


def test_attack_options_say_whether_any_group_reaches_1_2():
    """004 [8.47]: no attack may be made at less than 1:2.  Lenin (3) may declare an attack on
    Kolchak's stack (8), but no group reaches 1:2: its option says it is not possible (declared,
    it could only be called off); Kikvidze's on the lone GU2 is, at 1:1 or better."""
    g = blank()
    put(g, "TVER", "A", "Lenin")
    put(g, "TVER", "B", "Kolchak", "WU3 OMSK", "WU3 CHEL", attach={"WU3 OMSK": "Kolchak", "WU3 CHEL": "Kolchak"})
    put(g, "VLDV", "A", "Kikvidze", "RU2 VLDV", attach={"RU2 VLDV": "Kikvidze"})
    put(g, "VLDV", None, "GU2 VLDV")
    phase(g, "A", "combat")
    kol, gu2 = stack_with(g, "Kolchak").id, stack_with(g, "GU2 VLDV").id
    opts = {o["target"]: o for o in g.attack_options("A")}
    assert opts[kol]["possible"] is False and [gr["odds"]["column"] for gr in opts[kol]["groups"]] == [None]
    assert opts[gu2]["possible"] is True
    g.apply(A.DeclareAttack("A", kol))
    g.apply(A.AddAttacker("A", stack_with(g, "Lenin").id))
    legal = {type(a).__name__ for a in g.legal_actions("A")}
    assert "ResolveAttack" not in legal and "CancelAttack" in legal


def test_settles_tells_a_step_of_the_seats_own_from_one_that_leaves_it_open():
    """In the trading session (004 [15.33]) ending it decides what the game waits on from A; a
    trade offer, or an answer to one, leaves it open (what a server's bot may not do for an
    absent player at a deadline)."""
    from rcw.game import Game
    from rcw.player import Player

    g = Game.new(3, 1)
    assert g.state.phase == "trading" and g.settles(A.EndTrading("A"))
    assert not g.settles(A.OfferTrade("A", "B", give_politburo=1))
    g.apply(A.OfferTrade("B", "A", give_politburo=1))
    offer = g.offers("A")[0]["id"]
    p = Player(g, "A")
    assert p.is_legal(A.AcceptTrade("A", offer)) and not p.settles(A.AcceptTrade("A", offer))
    assert not p.settles(A.DeclineTrade("A", offer))
    assert {a.TYPE for a in p.legal if p.settles(a)} - {"Quit"} == {"EndTrading"}


def test_hostility_is_the_colour_table():
    """004 [8.11]-[8.15]."""
    g = started()
    assert g.hostile("Red", "White") and g.hostile("Red", "Blue") and g.hostile("White", "Green")
    assert not g.hostile("White", "Blue") and not g.hostile("Blue", "Green") and not g.hostile("Red", "Red")


def test_scores_in_the_view_are_the_victory_points_the_game_ends_with():
    """004 [14.4]: the scores a client shows are the engine's; at the end they are the result's."""
    g = Game.new(3, 5, {"max_turns": 2})
    m = Match(g, {p: RandomAgent(p, 5) for p in g.seats})
    m.play()
    assert g.over
    assert g.view("A")["scores"] == g.scores()
    if g.result["winner_color"]:
        assert g.result["scores"] == g.scores()[g.result["winner_color"]]


def test_purge_odds_and_assassination_chance_come_from_the_tables():
    g = started()
    po = g.purge_odds(["A"])
    assert sum(r["ways"] for r in po["rows"]) == 36 and po["column"] in g.data.tables.purge_columns
    assert g.purge_odds(["A"], counter=True)["strength"] >= po["strength"]
    lenin = uid("Lenin")
    one, three = g.assassination_chance(lenin, 1), g.assassination_chance(lenin, 3)
    assert 0 <= one < three <= 1
    with pytest.raises(IllegalAction):
        g.assassination_chance(uid("RU8 PETR"))


# -- legality, clones and dice ---------------------------------------------------------------------
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 400))
def test_is_legal_answers_as_the_list_does(seed, steps):
    """``a in legal`` (one check) agrees with the listed legal actions, for every seat, and
    for actions of another seat or phase."""
    g = Game.new(4, seed, {"max_turns": 3})
    m = Match(g, {p: RandomAgent(p, seed) for p in g.seats})
    m.play(steps)
    rng = random.Random(seed)
    pool = [a for p in g.seats for a in Game.new(4, seed).legal_actions(p)]
    for p in g.seats:
        listed = g.legal_actions(p)
        for a in listed:
            assert g.is_legal(a) and a in g.legal(p)
        for a in rng.sample(pool, min(10, len(pool))) + [A.EndMovement(p), A.EndCombat(p), A.Quit(p)]:
            if a.seat == p:
                assert (a in g.legal(p)) == (a in listed) or isinstance(a, A.OfferTrade), a


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(1, 600))
def test_a_clone_plays_on_as_the_original_and_leaves_it_alone(seed, steps):
    """``clone()`` costs no replay: the copy's future equals the original's, and playing the
    copy changes nothing in the original."""
    g = Game.new(5, seed, {"max_turns": 3})
    m = Match(g, {p: RandomAgent(p, seed) for p in g.seats})
    m.play(steps)
    before = g.state_hash()
    c = g.clone()
    assert c.state_hash() == before and c.log == g.log
    mc = Match(c, {p: RandomAgent(p, seed + 1) for p in c.seats})
    mc.play(200)
    assert g.state_hash() == before
    h = g.clone()
    again = Game.replay(seed, g.log, 5, {"max_turns": 3})
    assert again.state_hash() == h.state_hash() == before


def test_loaded_dice_are_rolled_in_order_and_only_for_that_game():
    g, other = blank(), blank()
    put(g, "TULA", "A", "Trotsky")
    put(g, "TULA", None, "WU2 TIFL")
    phase(g, "A", "combat")
    loaded = g.load_dice([6])
    g.apply(A.DeclareAttack("A", stack_with(g, "WU2 TIFL").id))
    g.apply(A.AddAttacker("A", stack_with(g, "Trotsky").id))
    ev = g.apply(A.ResolveAttack("A"))
    assert next(e for e in ev if e.kind == "combat").data["die"] == 6 and loaded.left == []
    assert other.ctx.dice is None                                # the other game rolls its own dice
    with pytest.raises(ValueError):
        g.load_dice([7])


def test_a_player_sees_its_view_and_asks_the_rules():
    g = started()
    p = Player(g, "A")
    assert p.view == g.view("A") and p.view is p.view            # kept until the game changes
    seat = g.pending[0]["seat"]
    q = Player(g, seat)
    a = q.legal[0]
    g.apply(a)
    assert q.view["pending"] == g.pending
    assert p.why_illegal(A.EndMovement("B")).code == "not_your_seat"


@pytest.mark.parametrize("seed", [1, 4])
def test_a_players_stacks_a_stack_and_the_stack_holding_a_unit_are_as_the_view_shows_them(seed):
    """A bot that needs its own stacks, one stack, or the stack of one unit, asks for those alone: the
    entries are the view's, in its order, all along a game (Green units carried by a leader,
    Imperial units and Blue forces included)."""
    g = Game.new(5, seed, {"max_turns": 3})
    m = Match(g, {p: RandomAgent(p, seed) for p in g.seats})
    checked = 0
    while not g.over and m.play(40):
        stacks = g.view()["stacks"]
        for seat in g.seats:
            assert g.stacks_of(seat) == [s for s in stacks if s["owner"] == seat]
            assert Player(g, seat).stacks_of() == g.stacks_of(seat)
        for s in stacks:
            assert g.stack(s["id"]) == s
            for u in s["units"]:
                assert g.stack_holding(u) == s
                checked += 1
    assert checked > 500
    assert g.stack_holding(max(g.data.units) + 1) is None and g.stack(g.state.next_stack) is None
    off = next(u for u in g.data.units if g.stack_holding(u) is None)      # (killed, withdrawn or never set up)
    assert all(off not in s["units"] for s in g.view()["stacks"])


def test_out_of_turn_actions_and_open_questions():
    """A trade offer is open to its addressee out of turn (004 [15.33], [10.0])."""
    g = started()
    assert g.open_questions() is None
    offer = A.OfferTrade("A", "B", give_politburo=1) if g.view()["politburo"]["A"] else A.OfferTrade(
        "A", "B", take_politburo=1)
    g.apply(offer)
    oid = g.offers("B")[0]["id"]
    assert A.AcceptTrade("B", oid) in g.out_of_turn("B") and A.DeclineTrade("B", oid) in g.out_of_turn("B")
    assert g.open_questions() is not None and g.offers("C") == []


def test_game_modes_are_created_through_one_registry():
    solo = new_game(1, 3, {"mode": "spi-solitaire"})
    assert solo.MODE == "spi-solitaire" and solo.view("R")["mode"] == "spi-solitaire"
    with pytest.raises(IllegalAction):
        Game.new(5, 3, {"mode": "spi-solitaire"})                # Game.new makes the multi-player game only
    with pytest.raises(IllegalAction) as e:
        new_game(5, 3, {"max_turns": -1})
    assert e.value.code == "bad_request"


def test_a_refused_query_changes_nothing():
    g = blank()
    put(g, "KURS", "A", "Lenin")
    before = g.state_hash()
    for bad in (lambda: g.reach(999_999), lambda: g.odds([1234], 5678), lambda: g.capacity(-1),
                lambda: g.attack_units(4321)):
        with pytest.raises(IllegalAction):
            bad()
    assert g.state_hash() == before
    refused(g, A.Move("A", "TVER"))


# -- the queries' shortcuts give the plain answers -----------------------------------------------------
def test_query_shortcuts_answer_as_the_plain_computation_along_whole_games():
    """What the queries keep or work out once (a position's stops and searches, the provinces
    each kind of Blue/Green unit may never enter, the stack colours, the CRT counts, the stacks'
    view entries shown again while a stack stays as it was) gives, along whole games of the SDT
    bots, the answers of the plain computation on a fresh copy."""
    from rcw.bots import make_agent

    from rcw.rules import combat, movement
    from rcw.state import Board

    checked = {"reach": 0, "barred": 0, "colors": 0, "views": 0}
    for seed in (2, 5):
        g = Game.new(5, seed, {"max_turns": 3})
        m = Match(g, {p: make_agent("sdt", p, seed) for p in g.seats})
        n = 0
        while (step := m.next_step()) is not None:
            n += 1
            b = g.ctx.b
            if n % 7 == 0:                                   # stack colours and the colour map
                plain = Board(g.data, g.state)
                assert b.stack_colors() == {i: plain.stack_color(st) for i, st in g.state.stacks.items()}
                turned: dict[str, int] = {}
                for p, cs in plain.colors_in().items():
                    for c in cs:
                        turned[c] = turned.get(c, 0) | g.data.bit[p]
                assert b.color_bits() == turned
                checked["colors"] += 1
            if n % 5 == 0:                                   # the stacks' entries, kept or made anew
                fresh = g.clone()
                assert g.view()["stacks"] == fresh.view()["stacks"]
                seat = g.seats[n % len(g.seats)]
                assert g.stacks_of(seat) == fresh.stacks_of(seat)
                checked["views"] += 1
            if g.phase == "movement" and g.decision is None and n % 3 == 0:
                seat = g.pending[0]["seat"]
                units = [a.unit for a in g.legal_actions(seat) if isinstance(a, A.StartForce)]
                if g.state.force is not None:
                    units = [None]
                kept = [g.reach(u) for u in units]           # asked one after another at one position
                fresh = g.clone()                            # (no searches, stops or memo kept)
                for u, r in zip(units, kept, strict=True):
                    f = fresh.reach(u)
                    assert list(r) == list(f) and all(r[p] == f[p] for p in f)
                    checked["reach"] += 1
                for st in list(g.state.stacks.values()) if n % 21 == 0 else ():
                    limited = [x for x in st.units if g.data.units[x].color in ("Blue", "Green")]
                    if limited:
                        plain_barred = sum(g.data.bit[p] for p in g.data.codes
                                           if movement.entry_problem(g.ctx, limited, p) is not None)
                        assert movement.barred(g.ctx, limited) == plain_barred
                        checked["barred"] += 1
            m.apply(step.seat, step.action, step.kind)
    assert checked["reach"] > 100 and checked["barred"] > 20 and checked["colors"] > 20 and checked["views"] > 100, checked
    g = Game.new(5, 1)
    for att, dfn in ((1, 3), (1, 2), (2, 2), (5, 1), (13, 2), (3, 0)):
        o = g.odds_of(att, dfn)
        col = combat.odds_column(att, dfn)
        assert o == {"attack": att, "defense": dfn, "column": col, "label": combat.odds_label(att, dfn),
                     "results": combat.crt_results(g.ctx, col), "row": combat.crt_row(g.ctx, col)}
        o["results"]["De"] = 99                              # an answer is the caller's own copy
        o["row"][:] = ["De"] * len(o["row"])
        assert g.odds_of(att, dfn)["results"] == combat.crt_results(g.ctx, col)
        assert g.odds_of(att, dfn)["row"] == combat.crt_row(g.ctx, col)


def test_an_action_found_legal_is_applied_as_if_unchecked_and_copies_of_it_too():
    """``a in legal`` remembers the actions it found legal (the last by identity): applying
    that action, an equal copy of it or one found legal earlier gives the events of a game
    where nothing was asked first."""
    g = started(seed=4)
    seat = g.pending[0]["seat"]
    h = g.clone()
    legal = g.legal(seat)
    acts = list(h.legal_actions(seat))
    first, last = acts[0], acts[-1]
    assert first in legal and last in legal and last in legal          # (asked again: the same answer)
    assert A.Quit("Z" if seat != "Z" else "Y") not in legal
    ev = g.apply(first)                                     # found legal before the last one
    assert [e.kind for e in ev] == [e.kind for e in h.apply(first)]
    assert g.state_hash() == h.state_hash()
    seat = g.pending[0]["seat"]
    a = g.legal_actions(seat)[0]
    assert g.is_legal(a)
    twin = A.action_from_wire(A.to_wire(a))                 # equal, not the same object
    assert twin == a and twin is not a
    g.apply(twin)
    h.apply(a)
    assert g.state_hash() == h.state_hash()


@pytest.mark.parametrize("seed", [0, 1])
def test_may_draw_is_the_answer_of_the_draws_rule_check_along_whole_games(seed):
    """``may_draw`` (004 [4.2] A.4, 001 Additional Randomizer Draws) says what a check of
    ``DrawRandomizer`` says, for every seat after every action of random games."""
    for opts in ({}, {"additional_draws": True}):
        g = Game.new(4, seed, {"max_turns": 3, **opts})
        m = Match(g, {p: RandomAgent(p, seed) for p in g.seats})
        open_ = {False: 0, True: 0}                # draws found open: first ones, bonus ones
        while not g.over:
            for p in g.seats:
                assert g.may_draw(p) == g.is_legal(A.DrawRandomizer(p)), (p, g.version)
                if g.may_draw(p):
                    open_[g.state.drawn] += 1
            if m.play(1) == 0:
                break
        assert open_[False] and bool(open_[True]) == bool(opts)


@pytest.mark.parametrize("opts", [{}, {"german_withdrawal": True}, {"freikorps": True}])
def test_the_withdrawal_markers_left_are_those_no_draw_has_shown(opts):
    """``withdrawal_markers_left`` (004 [5.67], [12.13], [15.23]; 001 Freikorps' Out Marker; the
    004 critique's German withdrawal): from the deal (the cup is filled right after it, 004 [15.23]), one for
    each Blue force's Withdrawal Marker (not the Germans' when they leave on Game-Turn 2 anyway;
    the Freikorps' Out Marker with that force); then a nationality leaves the list exactly when a
    draw of its marker is shown, as a player counting the draws would find."""
    g = Game.new(5, 3, {"max_turns": 12, **opts})
    m = Match(g, {p: RandomAgent(p, 3) for p in g.seats})
    blue = set(g.data.markers.blue_withdrawal) - ({"GE"} if opts.get("german_withdrawal") else set())
    # 004 [15.23]: the cup is filled right after the deal, in the pre-game trading session already
    assert g.state.phase == "trading" and set(g.withdrawal_markers_left()) == blue
    while g.state.phase == "trading":
        step = m.next_step()
        m.apply(step.seat, step.action, step.kind)
    start = set(g.withdrawal_markers_left())
    expected = blue | ({"FK"} if opts.get("freikorps") else set())      # (the Freikorps' with its force, as it deploys)
    assert start == expected and Player(g, "A").withdrawal_markers_left() == sorted(start)
    shown: set[str] = set()
    while not g.over and (step := m.next_step()) is not None:
        events = m.apply(step.seat, step.action, step.kind)
        shown |= {e.data["chit"][3:] for e in events if str(e.data.get("chit", "")).startswith("WD:")}
        assert set(g.withdrawal_markers_left()) == start - shown, g.version
    assert shown & start, "no Withdrawal Marker was drawn"
