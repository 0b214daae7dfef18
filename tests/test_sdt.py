"""The "Solitaire for Fanatics" bot (bots/sdt.py, bots/sdt_tables.py): every table pinned to
the article (004, "RUSSIAN CIVIL WAR Solitaire for Fanatics" by J. Richard Jarvinen), the
agent's bookkeeping, and whole seeded games."""

from __future__ import annotations

import json
import time

import pytest

from bots import AGENTS, make_agent
from bots import sdt_tables as T
from bots.sdt import SDTAgent
from bots.simulate import answer_offers, play
from rcw import actions as A
from rcw.actions import IllegalAction
from rcw.game import Game

R, W, B, G, U = T.RED, T.WHITE, T.BLUE, T.GREEN, T.UNDECIDED


# -- Political Indicator Table ---------------------------------------------------------------------
@pytest.mark.parametrize("turn,band", [(1, (1, 5)), (2, (1, 4)), (3, (1, 3)), (4, (1, 2)), (5, (1, 1)),
                                       (6, None), (7, None), (20, None)])
def test_pit_undecided_band_shrinks_each_turn(turn, band):
    """"On game turn one the boundaries are one and five ... turn five only ... column one ...
    On all remaining game turns there can no longer be any Undecided players.\""""
    assert T.undecided_band(turn) == band


def test_pit_colour_for_every_pcm_and_turn():
    for turn in range(1, 9):
        band = T.undecided_band(turn)
        for pcm in range(-25, 41):
            want = W if pcm < 1 else (U if band and band[0] <= pcm <= band[1] else R)
            assert T.political_color(pcm, turn) == want, (pcm, turn)


def test_pit_article_example():
    """Player D: Red leaders worth 7, White 3 → PCM 4 (facts.md §4): Undecided on turns 1
    and 2, Red from turn 3; a PCM on column 5 is Undecided on turn 1, Red on turn 2."""
    m = T.pcm(7, 3)
    assert m == 4
    assert [T.political_color(m, t) for t in range(1, 7)] == [U, U, R, R, R, R]
    assert T.political_color(5, 1) == U and T.political_color(5, 2) == R
    assert T.political_color(6, 1) == R
    assert T.political_color(0, 1) == W and T.political_color(-4, 9) == W
    assert T.political_color(1, 5) == U and T.political_color(1, 6) == R


def test_pit_counts_leader_values_from_the_view():
    g = Game.new(5, 11)
    for p in g.state.seats:
        g.apply(A.EndTrading(p))
    agent = SDTAgent("A", 11)
    v = g.view("A")
    d = g.data
    for p in g.state.seats:
        red = sum(d.units[u].strength for st in g.state.stacks.values() if st.owner == p for u in st.units
                  if d.units[u].is_leader and d.units[u].color == "Red")
        white = sum(d.units[u].strength for st in g.state.stacks.values() if st.owner == p for u in st.units
                    if d.units[u].is_leader and d.units[u].color == "White")
        assert agent.pit(v, p)[:3] == (red, white, red - white)


# -- Player Cooperation Table ------------------------------------------------------------------------
@pytest.mark.parametrize("a,b,col", [(R, R, 2), (W, W, 2), (U, U, 2), (R, W, 5), (W, R, 5),
                                     (U, R, 3), (R, U, 3), (U, W, 3), (W, U, 3)])
def test_pct_initial_settings(a, b, col):
    assert T.initial_relation(a, b) == col


def test_pct_article_example_rows():
    """A and C Red, B and E Undecided, D White: A/B 3, A/C 2, A/D 5, A/E 3; B/C 3, B/D 3,
    B/E 2; C/D 5, C/E 3."""
    colors = {"A": R, "B": U, "C": R, "D": W, "E": U}
    rel = lambda x, y: T.initial_relation(colors[x], colors[y])  # noqa: E731
    assert [rel("A", p) for p in "BCDE"] == [3, 2, 5, 3]
    assert [rel("B", p) for p in "ACDE"] == [3, 3, 3, 2]
    assert [rel("C", p) for p in "ABDE"] == [2, 3, 5, 3]
    assert T.friendliness_order({p: rel("A", p) for p in "BCDE"}) == ["C", "B", "E", "D"]


def test_pct_shifts_and_limits():
    assert (T.SHIFT_ATTACK, T.SHIFT_PURGE, T.SHIFT_ASSASSINATION) == (1, 1, 1)
    assert (T.SHIFT_ASSASSIN_GIFT, T.SHIFT_POLITBURO_GIFT) == (-1, -2)
    assert T.shift(5, T.SHIFT_ATTACK) == 6
    assert T.shift(7, T.SHIFT_ATTACK) == 7          # never right of column 7
    assert T.shift(3, T.SHIFT_POLITBURO_GIFT) == 2  # never left of column 2
    assert T.shift(2, T.SHIFT_ASSASSIN_GIFT) == 2
    assert T.shift(6, T.SHIFT_POLITBURO_GIFT) == 4
    for v in range(2, 8):
        for dlt in range(-6, 7):
            assert 2 <= T.shift(v, dlt) <= 7


def test_friendliness_ties_alphabetical():
    assert T.friendliness_order({"E": 3, "B": 3, "D": 2, "C": 7}) == ["D", "B", "E", "C"]


@pytest.mark.parametrize("pct", range(2, 8))
def test_attack_consideration(pct):
    """"If the die roll ... is greater than the number indicated on the PCT ... the attack is
    aborted"; equal or less: the attack takes place."""
    assert [T.attack_goes_ahead(pct, d) for d in range(1, 7)] == [d <= pct for d in range(1, 7)]


# -- Purge Cooperation -------------------------------------------------------------------------------
@pytest.mark.parametrize("pct", range(2, 8))
def test_committee_join_roll(pct):
    """"If the die roll is equal to or greater than the number on the PCT ... that player joins"."""
    assert [T.joins_committee(pct, d) for d in range(1, 7)] == [d >= pct for d in range(1, 7)]


def test_collective_and_politburo_rolls():
    assert [T.collective_purge(d) for d in range(1, 7)] == [False, False, True, True, True, True]
    assert [T.politburo_instead(d) for d in range(1, 7)] == [True, True, False, False, False, False]
    assert T.COMMITTEE_MIN_POLITBURO == 8


# -- Strategy Determination Table ------------------------------------------------------------------
@pytest.mark.parametrize("roll,attacks,min_odds,purge,assass", [
    (1, 1, 1, False, False), (2, 2, 2, False, False), (3, 3, 1, False, True),
    (4, 4, 2, True, False), (5, 5, 2, True, True)])
def test_sdt_rows(roll, attacks, min_odds, purge, assass):
    row = T.SDT[roll]
    assert (row.attacks, row.min_odds, row.purge, row.assassination, row.vindictive) == \
        (attacks, min_odds, purge, assass, False)
    assert row.gift_assassin == (roll == 1)


def test_sdt_row_six_is_the_vst():
    row = T.SDT[6]
    assert row.vindictive and (row.attacks, row.min_odds) == (T.VST_ATTACKS, T.VST_MIN_ODDS) == (3, 1)
    assert not row.purge and not row.assassination
    assert sorted(T.SDT) == [1, 2, 3, 4, 5, 6]
    assert T.ESCORT_MIN_ODDS == 3


# -- Attack Priority Table ----------------------------------------------------------------------------
def _apt(color):
    return [(e.priority, e.units, e.target) for e in T.APT[color]]


def test_apt_white_follows_the_worked_example():
    """"Blue controlled units against Red units ... Green ... against Red ... White vs. Red, Red
    vs. Green, White vs. Green (this is a Priority II attack), Red vs. Blue, Green vs. White
    (Priority III), and Red vs. White.\""""
    assert _apt(W) == [(1, B, R), (1, G, R), (1, W, R), (1, R, G), (2, W, G), (2, R, B), (3, G, W), (3, R, W)]


def test_apt_red():
    """Red units of a Red player attack White before Blue, both Priority I."""
    assert _apt(R) == [(1, G, W), (1, R, W), (1, R, B), (1, W, G), (2, R, G), (2, W, R), (3, G, R), (3, B, R)]


def test_apt_undecided():
    """Green units of an Undecided player attack Red, then White, under Priority II."""
    assert _apt(U) == [(1, R, B), (2, R, G), (2, W, G), (2, G, R), (2, G, W), (3, R, W), (3, W, R), (3, B, R)]


@pytest.mark.parametrize("color", [R, W, U])
def test_apt_entries_are_possible_attacks(color):
    from rcw.state import opposed

    pri = [e.priority for e in T.APT[color]]
    assert pri == sorted(pri)
    for e in T.APT[color]:
        assert opposed(e.units, e.target), e


# -- Vindictive Strategy Table ----------------------------------------------------------------------
def test_vst_results():
    assert T.VST == {1: "friendliest", 2: "2nd friendliest", 3: "czar", 4: "gold",
                     5: "2nd unfriendliest", 6: "unfriendliest"}
    order = ["C", "B", "E", "D"]           # friendliest first
    got = {r: T.vst_target(T.VST[r], order, "E", "B") for r in range(1, 7)}
    assert got == {1: "C", 2: "B", 3: "E", 4: "B", 5: "E", 6: "D"}


def test_vst_rerolls():
    """"If the phasing player controls the Gold (or the Czar), or if the Czar has been
    executed or removed from play, roll the die again.\""""
    assert T.vst_needs_reroll(T.CZAR, "A", "A", "B")
    assert T.vst_needs_reroll(T.CZAR, "A", None, "B")          # executed, emigrated or uncontrolled
    assert not T.vst_needs_reroll(T.CZAR, "A", "C", "A")
    assert T.vst_needs_reroll(T.GOLD, "A", "C", "A")
    assert T.vst_needs_reroll(T.GOLD, "A", "C", None)
    assert not T.vst_needs_reroll(T.GOLD, "A", "A", "C")
    for r in (1, 2, 5, 6):
        assert not T.vst_needs_reroll(T.VST[r], "A", None, None)


# -- Assassinations -------------------------------------------------------------------------------------
def test_assassination_levels_and_markers():
    assert T.assassination_levels(0) == ()
    assert T.assassination_levels(1) == (1, 2, 3)
    assert T.assassination_levels(2) == (2, 3, 1)
    assert T.assassination_levels(3) == (3, 2, 1)
    assert T.assassination_levels(7) == (3, 2, 1)
    assert [T.assassin_markers_used(n) for n in range(6)] == [0, 1, 2, 3, 3, 3]


# -- the agent's bookkeeping ----------------------------------------------------------------------------------
def _view(**kw):
    v = {"seats": list("ABCDE"), "turn": 2, "phase": "movement", "phasing": "D", "stacks": [], "vp": {},
         "politburo": dict.fromkeys("ABCDE", 3), "assassins": dict.fromkeys("ABCDE", 0), "quit": [],
         "committee": [], "committee_consent": {}, "offers": [], "decision": None}
    v.update(kw)
    return v


def _stack(sid, prov, owner, units, attached=None, color="Red"):
    return {"id": sid, "province": prov, "owner": owner, "units": units,
            "attached": {str(k): v for k, v in (attached or {}).items()}, "color": color}


def test_initial_pct_from_the_deal():
    g = Game.new(5, 4)
    agents = {p: SDTAgent(p, 4) for p in g.state.seats}
    d = g.data
    colors = {}
    for p in g.state.seats:
        hand = g.state.hand[p]
        red = sum(d.units[u].strength for u in hand if d.units[u].color == "Red")
        white = sum(d.units[u].strength for u in hand if d.units[u].color == "White")
        colors[p] = T.political_color(red - white, 1)
    for p in g.state.seats:
        agents[p].choose(g.view(p), g.legal_actions(p))
        g.apply(A.EndTrading(p))
    seat = g.pending[0]["seat"]
    agents[seat].choose(g.view(seat), g.legal_actions(seat))
    for q in "ABCDE":
        if q != seat:
            assert agents[seat].relation(seat, q) == T.initial_relation(colors[seat], colors[q])


def test_pct_follows_attacks_seen_in_the_view():
    """A unit of C appearing in D's section of the VP chart is an attack between C and D."""
    a = SDTAgent("A", 0)
    a.pct_started = True
    a.pct = {frozenset(p): 3 for p in ("AB", "AC", "AD", "AE", "BC", "BD", "BE", "CD", "CE", "DE")}
    before = _view(stacks=[_stack(1, "KURS", "C", [155, 104], {104: 155}), _stack(2, "TULA", "A", [162])])
    after = _view(stacks=[_stack(2, "TULA", "A", [162])], vp={"D": [[155, True], [104, True]]})
    a.observe(before)
    a.observe(after)
    assert a.relation("C", "D") == 4                     # one attack, two units lost
    assert a.relation("A", "C") == 3
    # a failed assassination on our leader: markers arrive from the assassin
    b4 = _view(stacks=[_stack(2, "TULA", "A", [162])], assassins={"A": 0, "B": 2, "C": 0, "D": 0, "E": 0})
    af = _view(stacks=[_stack(2, "TULA", "A", [162])], assassins={"A": 2, "B": 0, "C": 0, "D": 0, "E": 0})
    a.observe(b4)
    a.observe(af)
    assert a.relation("A", "B") == 4
    # a purge: our Red leader now under E's marker
    p1 = _view(stacks=[_stack(2, "TULA", "A", [162])])
    p2 = _view(stacks=[_stack(2, "TULA", "E", [162])])
    a.observe(p1)
    a.observe(p2)
    assert a.relation("A", "E") == 4


def test_gifts_accepted_shift_left():
    a = SDTAgent("A", 0)
    a.pct_started = True
    a.pct = {frozenset("AB"): 5}
    v = _view(offers=[{"id": 7, "from": "B", "to": "A", "give_leaders": [], "give_politburo": 1, "give_assassins": 1,
                       "take_leaders": [], "take_politburo": 0, "take_assassins": 0}])
    act = a.react(v, [A.AcceptTrade("A", 7), A.DeclineTrade("A", 7)])
    assert act == A.AcceptTrade("A", 7)
    assert a.relation("A", "B") == 2                     # 5 - 2 - 1
    v["offers"][0]["take_politburo"] = 1                 # not a gift: declined
    assert a.react(v, [A.AcceptTrade("A", 7), A.DeclineTrade("A", 7)]) == A.DeclineTrade("A", 7)


def test_exchange_losses_from_combat_units():
    """Non-Attack Policy 9: losses from combat units, not leaders."""
    a = SDTAgent("A", 0)
    a.pct_started = True
    v = _view(stacks=[_stack(1, "KURS", "A", [155, 104, 110], {104: 155, 110: 155})],
              decision={"kind": "loss", "seat": "A", "need": 2, "units": [155, 104, 110]})
    legal = [A.ChooseLoss("A", u) for u in (155, 104, 110)]
    # 104 = RU6 KURS, 110 = RU3 KALU: the smallest unit covering 2 points
    assert a.choose(v, legal) == A.ChooseLoss("A", 110)
    v["decision"]["need"] = 5
    assert a.choose(v, legal) == A.ChooseLoss("A", 104)


# -- whole games -----------------------------------------------------------------------------------------------
def test_sdt_registered():
    assert AGENTS["sdt"] is SDTAgent
    assert isinstance(make_agent("sdt", "C", 3), SDTAgent)


def _play_checked(seed: int, max_turns: int = 60) -> Game:
    """Drive a game like ``rcw simulate`` and check that every action the bots return is
    legal: listed in ``legal``, or a parametric action (a gift, a Committee proposal) the
    engine accepts."""
    g = Game.new(5, seed, {"max_turns": max_turns})
    agents = {p: make_agent("sdt", p, seed) for p in g.state.seats}
    memo: dict = {}
    steps = 0
    while not g.over:
        seat = g.pending[0]["seat"]
        legal = g.legal_actions(seat)
        a = agents[seat].choose(g.view(seat), legal)
        if a not in legal:
            assert a.TYPE in ("OfferTrade", "JoinCommittee", "DeclarePurge"), a
        g.apply(a)                     # raises IllegalAction if the bot was wrong
        answer_offers(g, agents, memo)
        steps += 1
        assert steps < 100_000
    return g


def test_twenty_seeded_games_complete_without_illegal_actions():
    t0 = time.perf_counter()
    ended = []
    for seed in range(20):
        g = _play_checked(seed)
        assert g.over
        ended.append(g.result.get("winner_color"))
    assert time.perf_counter() - t0 < 300


def test_same_seed_same_game():
    a = play(5, 7, "sdt", 60)
    b = play(5, 7, "sdt", 60)
    assert a["hash"] == b["hash"] and a["actions"] == b["actions"]
    assert a["illegal"] == 0


def test_replay_of_an_sdt_game():
    g = _play_checked(3)
    rec = g.record()
    again = Game.replay(rec["seed"], rec["actions"], rec["players"], rec["options"])
    assert again.state_hash() == g.state_hash()


def test_bots_never_return_an_illegal_listed_action():
    """Spot check: mixed bot kinds, the SDT bot still plays legally."""
    rec = play(5, 2, "mixed", 30)
    assert rec["illegal"] == 0 and rec["finished"]


def test_simulate_cli_sdt_json(capsys):
    from rcw.cli import main

    assert main(["simulate", "--agents", "sdt", "--games", "2", "--seed", "5", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["agents"] == "sdt" and out["completed"] == 2 and out["illegal_actions"] == 0
    assert out["engine_errors"] == 0
    assert sum(out["ended"].values()) == 2


@pytest.mark.slow
def test_thousand_sdt_games_soak():
    """1000 seeded five-player SDT games: no illegal action, no engine error; both Red and
    White victories occur; purges, counterpurges and assassinations happen."""
    import contextlib
    import io
    from argparse import Namespace

    from bots.simulate import run

    buf = io.StringIO()
    t0 = time.perf_counter()
    with contextlib.redirect_stdout(buf):
        rc = run(Namespace(games=1000, seed=0, agents="sdt", players=5, max_turns=60, json=True,
                           json_only_quiet=True))
    s = json.loads(buf.getvalue())
    print(json.dumps({k: s[k] for k in ("completed", "illegal_actions", "engine_errors", "outcomes", "ended",
                                          "mean_game_turns", "stats")}, indent=1),
          f"\n{time.perf_counter() - t0:.0f} s")
    assert rc == 0
    assert s["completed"] == 1000 and s["illegal_actions"] == 0 and s["engine_errors"] == 0
    assert s["outcomes"]["red"] > 0 and s["outcomes"]["white"] > 0
    st = s["stats"]
    assert st["purges"] > 0 and st["counterpurges"] > 0 and st["assassinations"] > 0


def test_illegal_action_is_typed():
    with pytest.raises(IllegalAction):
        Game.new(5, 0).apply(A.EndMovement("A"))


# -- planning a turn from the tables ---------------------------------------------------------------------
def _scripted(agent: SDTAgent, rolls: list[int]) -> None:
    it = iter(rolls)
    agent.die = lambda: next(it)


def _white_view():
    """A is White (Krasnov with the Don Cossacks in DCOS); B's Stalin stands alone in VORO,
    an uncontrolled RU6 in KURS; C's Lenin with RU8 PETR far away."""
    return _view(phasing="A", turn=2, stacks=[
        _stack(1, "DCOS", "A", [254, 212], {212: 254}, "White"),
        _stack(2, "VORO", "B", [171], {}, "Red"),
        _stack(3, "KURS", None, [104], {}, "Red"),
        _stack(4, "PETR", "C", [151, 101], {101: 151}, "Red"),
    ])


def test_plan_follows_sdt_and_apt():
    """SDT roll 4: four attacks at 2-1; a White player's first possible APT line is White vs
    Red: Krasnov's 9 against Stalin's 1 (the RU6 in KURS would be only 1-1)."""
    a = SDTAgent("A", 0)
    a.observe(_white_view())
    _scripted(a, [4])
    plan = a.make_plan(_white_view())
    assert plan.color == W and plan.row == T.SDT[4] and plan.purge
    assert [(p.target, p.province, p.color, p.consider) for p in plan.attacks] == [(2, "VORO", W, True)]
    assert any(o.lead == 254 and o.dest == "VORO" for o in plan.orders)


def test_plan_roll_one_gives_an_assassin_and_accepts_1_1():
    a = SDTAgent("A", 0)
    v = _white_view()
    v["assassins"]["A"] = 2
    a.observe(v)
    _scripted(a, [1])
    plan = a.make_plan(v)
    assert plan.row.attacks == 1 and plan.row.min_odds == 1
    order = a.friendliness(v)
    assert plan.pre and plan.pre[0] == A.OfferTrade("A", order[1], give_assassins=1)
    # 1-1 is enough now, but the best odds come first: Stalin at 9:1 beats RU6 at 1:1
    assert [p.target for p in plan.attacks] == [2]


def test_plan_vindictive_never_rolls_consideration():
    a = SDTAgent("A", 0)
    v = _white_view()
    a.observe(v)
    a.pct[frozenset("AB")] = 7                       # B is A's worst enemy
    _scripted(a, [6, 6])
    plan = a.make_plan(v)
    assert plan.vst == T.UNFRIENDLIEST and plan.vst_target == "B"
    assert [(p.target, p.consider, p.min_col) for p in plan.attacks] == [(2, False, 1)]


def test_vst_reroll_when_holding_the_gold():
    a = SDTAgent("A", 0)
    v = _white_view()
    v["stacks"][0]["units"].append(502)              # A holds the Gold: a 4 is rolled again
    v["stacks"][0]["attached"]["502"] = 254
    a.observe(v)
    _scripted(a, [6, 4, 3, 1])                         # 4: Gold (ours), 3: Czar (nobody's), 1
    plan = a.make_plan(v)
    assert plan.vst == T.FRIENDLIEST
