"""The "Solitaire for Fanatics" bot (bots/sdt.py, bots/sdt_tables.py): every table pinned to
the article (004, "RUSSIAN CIVIL WAR Solitaire for Fanatics" by J. Richard Jarvinen), the
agent's bookkeeping, and whole seeded games."""

from __future__ import annotations

import io
import json
import sys
import time

import pytest
from rcw.bots import AGENTS, make_agent
from rcw.bots import sdt_tables as T
from rcw.bots.match import Match
from rcw.bots.sdt import SDTAgent
from rcw.bots.simulate import play

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


# The ATTACK PRIORITY TABLE, entry by entry, in the order the attacks must be attempted:
# (priority, colour of the phasing player's units, colour attacked).
APT_ARTICLE = {
    W: [(1, B, R), (1, G, R), (1, W, R), (1, R, G), (2, W, G), (2, R, B), (3, G, W), (3, R, W)],
    R: [(1, G, W), (1, R, W), (1, R, B), (1, W, G), (2, R, G), (2, W, R), (3, G, R), (3, B, R)],
    U: [(1, R, B), (2, R, G), (2, W, G), (2, G, R), (2, G, W), (3, R, W), (3, W, R)],
}


@pytest.mark.parametrize("color,i,entry", [(c, i, e) for c, es in APT_ARTICLE.items() for i, e in enumerate(es)])
def test_apt_entry(color, i, entry):
    """ATTACK PRIORITY TABLE (004, Solitaire for Fanatics): each entry in its place."""
    assert _apt(color)[i] == entry


@pytest.mark.parametrize("color,tokens", [(W, (4, 2, 2)), (R, (3, 2, 2)), (U, (1, 3, 2))])
def test_apt_token_counts_match_the_printed_table(color, tokens):
    """The OCR of the APT prints, per priority column, one colour token per entry (W/B and R/W
    are one token for two attacks): White 4/2/2, Red 3/2/2, Undecided 1/3/2.  No entry is
    invented (the Undecided table has no Blue-units line)."""
    entries = APT_ARTICLE[color]
    assert len(T.APT[color]) == len(entries)
    for pri, n in zip((1, 2, 3), tokens, strict=True):
        rows = [e for e in entries if e[0] == pri]
        double = sum(1 for a, b in zip(rows, rows[1:], strict=False) if a[1] == b[1])   # W/B, R/W
        assert len(rows) - double == n, (color, pri)


def test_apt_white_follows_the_worked_example():
    """"Blue controlled units against Red units ... Green ... against Red ... White vs. Red, Red
    vs. Green, White vs. Green (this is a Priority II attack), Red vs. Blue, Green vs. White
    (Priority III), and Red vs. White.\""""
    assert _apt(W) == [(1, B, R), (1, G, R), (1, W, R), (1, R, G), (2, W, G), (2, R, B), (3, G, W), (3, R, W)]


def test_apt_red():
    """Red units of a Red player attack White before Blue, both Priority I."""
    assert _apt(R) == APT_ARTICLE[R]
    assert _apt(R).index((1, R, W)) + 1 == _apt(R).index((1, R, B))


def test_apt_undecided():
    """Green units of an Undecided player attack Red, then White, under Priority II."""
    assert _apt(U) == APT_ARTICLE[U]
    assert _apt(U).index((2, G, R)) + 1 == _apt(U).index((2, G, W))
    assert not [e for e in _apt(U) if e[1] == B]


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
        agents[p].choose_view(g.view(p), g.legal_actions(p))
        g.apply(A.EndTrading(p))
    seat = g.pending[0]["seat"]
    agents[seat].choose_view(g.view(seat), g.legal_actions(seat))
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
    a.observe_view(before)
    a.observe_view(after)
    assert a.relation("C", "D") == 4                     # one attack, two units lost
    assert a.relation("A", "C") == 3
    # a failed assassination on our leader: markers arrive from the assassin
    b4 = _view(stacks=[_stack(2, "TULA", "A", [162])], assassins={"A": 0, "B": 2, "C": 0, "D": 0, "E": 0})
    af = _view(stacks=[_stack(2, "TULA", "A", [162])], assassins={"A": 2, "B": 0, "C": 0, "D": 0, "E": 0})
    a.observe_view(b4)
    a.observe_view(af)
    assert a.relation("A", "B") == 4
    # a purge: our Red leader now under E's marker
    p1 = _view(stacks=[_stack(2, "TULA", "A", [162])])
    p2 = _view(stacks=[_stack(2, "TULA", "E", [162])])
    a.observe_view(p1)
    a.observe_view(p2)
    assert a.relation("A", "E") == 4


def test_gifts_accepted_shift_left():
    a = SDTAgent("A", 0)
    a.pct_started = True
    a.pct = {frozenset("AB"): 5}
    v = _view(offers=[{"id": 7, "from": "B", "to": "A", "give_leaders": [], "give_politburo": 1, "give_assassins": 1,
                       "take_leaders": [], "take_politburo": 0, "take_assassins": 0}])
    act = a.react_view(v, [A.AcceptTrade("A", 7), A.DeclineTrade("A", 7)])
    assert act == A.AcceptTrade("A", 7)
    assert a.relation("A", "B") == 2                     # 5 - 2 - 1
    v["offers"][0]["take_politburo"] = 1                 # not a gift: declined
    assert a.react_view(v, [A.AcceptTrade("A", 7), A.DeclineTrade("A", 7)]) == A.DeclineTrade("A", 7)


def test_exchange_losses_from_combat_units():
    """Non-Attack Policy 9: losses from combat units, not leaders."""
    a = SDTAgent("A", 0)
    a.pct_started = True
    v = _view(stacks=[_stack(1, "KURS", "A", [155, 104, 110], {104: 155, 110: 155})],
              decision={"kind": "loss", "seat": "A", "need": 2, "units": [155, 104, 110]})
    legal = [A.ChooseLoss("A", u) for u in (155, 104, 110)]
    # 104 = RU6 KURS, 110 = RU3 KALU: the smallest unit covering 2 points
    assert a.choose_view(v, legal) == A.ChooseLoss("A", 110)
    v["decision"]["need"] = 5
    assert a.choose_view(v, legal) == A.ChooseLoss("A", 104)


# -- whole games -----------------------------------------------------------------------------------------------
def test_sdt_registered():
    assert AGENTS["sdt"] is SDTAgent
    assert isinstance(make_agent("sdt", "C", 3), SDTAgent)


def _play_checked(seed: int, max_turns: int = 60) -> Game:
    """Drive a game like ``rcw simulate`` (the match loop) and check that every action the
    bots return is legal: listed in ``legal``, or a parametric action (a gift, a Committee
    proposal) the engine accepts."""
    g = Game.new(5, seed, {"max_turns": max_turns})
    m = Match(g, {p: make_agent("sdt", p, seed) for p in g.seats})
    steps = 0
    while not g.over:
        step = m.next_step()
        assert m.refused == 0, step
        if step.action not in g.legal_actions(step.seat):
            assert step.action.TYPE in ("OfferTrade", "JoinCommittee", "DeclarePurge"), step.action
        m.apply(step.seat, step.action, step.kind)      # raises IllegalAction if the bot was wrong
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


def test_bots_hit_no_internal_error():
    """The agent falls back to a safe action when its own code fails (never an illegal
    move); such a failure must not happen at all: it once hid that bots never took the
    leaders a purge won them (PoliticsAdapter had no board)."""
    for seed in (0, 1, 2, 5):
        g = Game.new(5, seed, {"max_turns": 60})
        agents = {p: make_agent("sdt", p, seed) for p in g.seats}
        m = Match(g, agents)
        errors: list[str] = []
        taken = 0
        while not g.over:
            step = m.next_step()
            taken += isinstance(step.action, A.TakeSpoil) and step.action.leader != 0
            m.apply(step.seat, step.action, step.kind)
            for ag in agents.values():
                errors += [n for n in ag.take_notes() if "error (" in n]
        assert not errors, (seed, errors[:3])
        if g.state.stats.get("purges"):
            assert taken or g.state.stats.get("counterpurges"), seed


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


class _Tty(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize("tty", [True, False])
def test_simulate_progress_bar_only_on_a_terminal(monkeypatch, capsys, tty):
    """``rcw simulate`` draws a progress bar on stderr when stderr is a terminal, and nothing
    there otherwise; stdout holds only the JSON summary."""
    from rcw.cli import main

    err = _Tty(tty)
    monkeypatch.setattr(sys, "stderr", err)
    assert main(["simulate", "--agents", "random", "--games", "3", "--max-turns", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["completed"] == 3 and out["agents"] == "random"
    bar = err.getvalue()
    if tty:
        assert "3/3 games" in bar and "[" + "#" * 30 + "]" in bar and bar.endswith("\n")
    else:
        assert bar == ""


@pytest.mark.parametrize("agents", ["sdt", "random", "mixed"])
def test_simulate_json_summary_for_each_agent_kind(capsys, agents):
    from rcw.cli import main

    assert main(["simulate", "--agents", agents, "--games", "1", "--seed", "4", "--max-turns", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    for k in ("games", "players", "agents", "completed", "illegal_actions", "engine_errors", "outcomes", "ended",
              "mean_game_turns", "stats", "seconds"):
        assert k in out, k
    assert out["agents"] == agents and out["illegal_actions"] == 0 and out["engine_errors"] == 0
    assert set(out["outcomes"]) == {"red", "white", "none"}
    assert {"purges", "counterpurges", "assassinations", "subversive_attacks"} <= set(out["stats"])


def test_simulate_plain_text_summary(capsys):
    from rcw.cli import main

    assert main(["simulate", "--agents", "sdt", "--games", "1", "--max-turns", "2"]) == 0
    out = capsys.readouterr().out
    assert "1/1 games completed" in out and "outcomes: Red" in out and "illegal actions 0" in out


def _bench():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "bench" / "engine.py"
    spec = importlib.util.spec_from_file_location("bench_engine", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_bench_engine_reports_play_against_replay(capsys):
    """bench/engine.py, in one run: SDT and random games against the replay of their own logs
    (``sdt_vs_replay``, ``random_vs_replay``), microseconds per replayed action and per
    ``Game.clone()`` - the figures the README reports."""
    bench = _bench()
    assert bench.main(["--games", "1", "--max-turns", "2"]) == 0
    out = capsys.readouterr().out
    import re

    assert re.search(r"^\s*sdt: 1 games, \d+ actions, .* replayed in [\d.]+ s \([\d.]+x\)", out, re.M)
    assert re.search(r"^random: 1 games, \d+ actions", out, re.M)
    assert re.search(r"^replay: [\d.]+ us per action; Game.clone\(\): [\d.]+ us", out, re.M)
    assert bench.main(["--games", "1", "--max-turns", "2", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["sdt_vs_replay"] > 1 and res["random_vs_replay"] > 1
    assert res["replay_us_per_action"] > 0 and res["clone_us"] > 0
    for kind in ("sdt", "random"):
        r = res[kind]
        assert r["games"] == r["finished"] == 1 and r["actions"] > 0
        assert abs(r["vs_replay"] - r["play_seconds"] / r["replay_seconds"]) < 0.05 * r["vs_replay"]


@pytest.mark.slow
def test_thousand_sdt_games_soak():
    """1000 seeded five-player SDT games: no illegal action, no engine error; both Red and
    White victories occur; purges, counterpurges and assassinations happen."""
    import contextlib
    import io
    from argparse import Namespace

    from rcw.bots.simulate import run

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
    a.observe_view(_white_view())
    _scripted(a, [4])
    plan = a.make_plan(_white_view())
    assert plan.color == W and plan.row == T.SDT[4] and plan.purge
    assert [(p.target, p.province, p.color, p.consider) for p in plan.attacks] == [(2, "VORO", W, True)]
    assert any(o.lead == 254 and o.dest == "VORO" for o in plan.orders)


def test_plan_roll_one_gives_an_assassin_and_accepts_1_1():
    a = SDTAgent("A", 0)
    v = _white_view()
    v["assassins"]["A"] = 2
    a.observe_view(v)
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
    a.observe_view(v)
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
    a.observe_view(v)
    _scripted(a, [6, 4, 3, 1])                         # 4: Gold (ours), 3: Czar (nobody's), 1
    plan = a.make_plan(v)
    assert plan.vst == T.FRIENDLIEST


# -- more table pins -------------------------------------------------------------------------------------
@pytest.mark.parametrize("roll,result,target", [
    (1, "friendliest", "C"), (2, "2nd friendliest", "B"), (3, "czar", "E"), (4, "gold", "B"),
    (5, "2nd unfriendliest", "E"), (6, "unfriendliest", "D")])
def test_vst_result(roll, result, target):
    """VINDICTIVE STRATEGY TABLE (VST): "1 Attack friendliest player, 2 ... 2nd friendliest, 3
    ... the player who controls the C[zar], [4] ... the Gold, [5] ... 2nd unfriendliest, 6 ...
    unfriendliest"; friendliness order C, B, E, D; E holds the Czar, B the Gold."""
    assert T.VST[roll] == result
    assert T.vst_target(result, ["C", "B", "E", "D"], "E", "B") == target


@pytest.mark.parametrize("event,delta", [
    ("attack", +1), ("purge attempt", +1), ("assassination attempt", +1),
    ("assassin marker given", -1), ("Politburo marker given", -2)])
def test_pct_shift_per_event(event, delta):
    """Notes under the PLAYER COOPERATION TABLE: one column per attack, purge attempt or
    assassination attempt (right: less cooperation, our reading of the OCR), one column left
    per Assassin marker given, two per Politburo marker given; limits 2 and 7."""
    got = {"attack": T.SHIFT_ATTACK, "purge attempt": T.SHIFT_PURGE, "assassination attempt": T.SHIFT_ASSASSINATION,
           "assassin marker given": T.SHIFT_ASSASSIN_GIFT, "Politburo marker given": T.SHIFT_POLITBURO_GIFT}[event]
    assert got == delta
    for start in range(2, 8):
        assert T.shift(start, got) == max(2, min(7, start + delta))


# -- the agent playing the tables (synthetic views) ---------------------------------------------------------
def _agent(seat: str, v: dict, pct: dict[str, int] | None = None, rolls: list[int] | None = None) -> SDTAgent:
    a = SDTAgent(seat, 0)
    a.observe_view(v)
    for pair, val in (pct or {}).items():
        a.pct[frozenset(pair)] = val
    if rolls is not None:
        _scripted(a, rolls)
    return a


def _combat_view(**kw):
    """After movement: A's White Krasnov with WU8 DON shares VORO with B's Stalin."""
    v = _view(phasing="A", phase="combat", turn=2, stacks=[
        _stack(1, "VORO", "A", [254, 212], {212: 254}, "White"),
        _stack(2, "VORO", "B", [171], {}, "Red"),
    ])
    v.update(kw)
    return v


def _planned(a: SDTAgent, turn: int = 2, color: str = W, **kw):
    from rcw.bots.sdt import PlannedAttack, TurnPlan

    a.plan = TurnPlan(turn, T.SDT[4], color)
    pa = PlannedAttack(**({"target": 2, "province": "VORO", "color": W, "forces": [254], "owner": "B", "min_col": 2,
                            "consider": True, "label": "APT priority I: White vs Red"} | kw))
    a.plan.attacks = [pa]
    return pa


def test_attack_consideration_aborts_when_die_exceeds_pct():
    """Attack Consideration: die 4 against PCT 3 aborts; the PCT marker does not move
    ("the markers on the PCT are moved only for attacks that actually take place")."""
    v = _combat_view()
    a = _agent("A", v, {"AB": 3}, [4])
    _planned(a)
    legal = [A.EndCombat("A"), A.DeclareAttack("A", 2, False)]
    assert a._combat_step(v, legal) == A.EndCombat("A")
    assert a.relation("A", "B") == 3
    assert any("talked out" in n for n in a.take_notes())


def test_attack_consideration_goes_ahead_and_shifts_pct_when_resolved():
    v = _combat_view()
    a = _agent("A", v, {"AB": 3}, [3])
    _planned(a)
    assert a._combat_step(v, [A.EndCombat("A"), A.DeclareAttack("A", 2, False)]) == A.DeclareAttack("A", 2, False)
    assert a.relation("A", "B") == 3                       # not yet: declared only
    v2 = _combat_view(attack=[2, False, []])
    legal = [A.CancelAttack("A"), A.ResolveAttack("A"), A.AddAttacker("A", 1)]
    assert a._combat_step(v2, legal) == A.AddAttacker("A", 1)
    assert a._combat_step(v2, legal) == A.ResolveAttack("A")
    assert a.relation("A", "B") == 4                       # the attack took place: one column


def test_no_attack_consideration_against_uncontrolled_units():
    v = _combat_view()
    v["stacks"][1]["owner"] = None
    a = _agent("A", v, {"AB": 2}, [])                      # no die may be rolled
    _planned(a, owner=None, consider=False)
    assert a._combat_step(v, [A.EndCombat("A"), A.DeclareAttack("A", 2, False)]) == A.DeclareAttack("A", 2, False)


def test_own_units_of_the_players_colour_are_never_targets():
    """"White players are never required to attack their own White units, nor are Red
    players ever required to attack their own Red units"; an Undecided player attacks none of
    his own (our rule); other own units are APT targets."""
    from rcw.bots.sdt import TurnPlan

    v = _view(phasing="A", turn=6, stacks=[
        _stack(1, "VORO", "A", [254, 212], {212: 254}, "White"),
        _stack(2, "VORO", "A", [171], {}, "Red"),
        _stack(3, "KURS", "A", [264], {}, "White"),
    ])
    a = _agent("A", v)
    b = a._board(v)
    ids = lambda color, pc: sorted(s.id for s in a._targets(b, color, TurnPlan(6, T.SDT[1], pc)))  # noqa: E731
    assert ids(W, W) == [] and ids(R, W) == [2]
    assert ids(R, R) == [] and ids(W, R) == [1, 3]
    assert ids(R, U) == [] and ids(W, U) == []


# -- Purge Cooperation --------------------------------------------------------------------------------------
FULL = ("A", "B", "C", "D", "E")


def _purge_agent(seat="A", pct=None, rolls=None, **kw):
    from rcw.bots.sdt import TurnPlan

    v = _view(phasing=seat, turn=3, **kw)
    a = _agent(seat, v, pct or {"AB": 2, "AC": 4, "AD": 5, "AE": 7}, rolls)
    a.plan = TurnPlan(3, T.SDT[4], W, purge=True)
    a.politics.reset()
    a.politics.purpose = "purge"            # what start_of_turn sets for SDT rows 4-5
    return a, v


def test_purge_step1_politburo_marker_to_2nd_friendliest():
    """Purge Cooperation 1]: "A Politburo Marker, if available, is given to that player
    defined as 2nd friendliest by the PCT.  The markers ... moved two columns left.\""""
    a, v = _purge_agent()
    act = a.politics.start_of_turn(v, [], a.plan)
    assert act == A.OfferTrade("A", "C", give_politburo=1)
    assert a.relation("A", "C") == 2


def test_purge_no_gift_without_politburo_markers():
    a, v = _purge_agent(politburo={"A": 0, "B": 4, "C": 4, "D": 4, "E": 4})
    act = a.politics.start_of_turn(v, [], a.plan)
    assert act == A.JoinCommittee("A", FULL)               # straight to the Committee
    assert a.relation("A", "C") == 4


def test_purge_committee_of_the_willing_purges_the_most_unfriendly_non_member():
    """2]: the others who join (their die >= PCT) form the Committee with the phasing player;
    with 8+ Politburo markers it purges "that player not on the Central Committee most
    unfriendly to the phasing player"; 3]: a die of 3+ means a collective purge."""
    a, v = _purge_agent(rolls=[3])
    a.politics.stage = "invite"
    assert a.politics.start_of_turn(v, [], a.plan) == A.JoinCommittee("A", FULL)
    v["committee_consent"] = {"A": list(FULL), "B": list(FULL), "C": list(FULL)}
    assert a.politics.start_of_turn(v, [], a.plan) == A.JoinCommittee("A", ("A", "B", "C"))
    v["committee_consent"] = {p: ["A", "B", "C"] for p in "ABC"}
    v["committee"] = ["A", "B", "C"]
    legal = [A.DeclarePurge("A", "E", ("A",), ()), A.DeclarePurge("A", "E", ("A", "B", "C"), ()),
             A.DeclarePurge("A", "D", ("A",), ())]
    act = a.politics.start_of_turn(v, legal, a.plan)
    assert act == A.DeclarePurge("A", "E", ("A", "B", "C"), ("A", "B", "C"))
    assert a.relation("A", "E") == 7                         # shifted right, capped at 7


def test_purge_individual_on_a_die_of_one_or_two():
    a, v = _purge_agent(rolls=[2])
    v["committee"] = ["A", "B", "C"]
    legal = [A.DeclarePurge("A", "E", ("A",), ()), A.DeclarePurge("A", "E", ("A", "B", "C"), ())]
    assert a.politics._declare(v, legal, ["A", "B", "C"], None) == A.DeclarePurge("A", "E", ("A",), ())


def test_collective_spoils_begin_with_the_phasing_player_then_alphabetical():
    """"Collective purge spoils are always doled out one factor at a time, beginning with the
    phasing player and progressing alphabetically.\""""
    a, v = _purge_agent(seat="C", pct={"AC": 2, "BC": 7, "CD": 2, "CE": 3}, rolls=[5])
    legal = [A.DeclarePurge("C", "B", ("A", "C", "E"), ())]
    assert a.politics._declare(v, legal, ["A", "C", "E"], None) == A.DeclarePurge("C", "B", ("A", "C", "E"),
                                                                                  ("C", "A", "E"))


def test_purge_everyone_joins_no_purge():
    """"If all players succeed in joining the Central Committee (hah!), no purge is attempted.\""""
    a, v = _purge_agent()
    a.politics.stage = "count"
    a.politics.full = list(FULL)
    v["committee_consent"] = {p: list(FULL) for p in FULL}
    assert a.politics.start_of_turn(v, [], a.plan) == A.LeaveCommittee("A")
    assert any("no purge" in n for n in a.take_notes())


def test_purge_too_few_markers_no_committee():
    """"If the total is less than eight, the Central Committee is dissolved.\""""
    a, v = _purge_agent(politburo={"A": 3, "B": 3, "C": 3, "D": 3, "E": 3})
    a.politics.stage = "count"
    a.politics.full = list(FULL)
    v["committee_consent"] = {"A": list(FULL), "B": list(FULL)}          # A + B: 6 markers
    assert a.politics.start_of_turn(v, [], a.plan) == A.LeaveCommittee("A")
    assert a.politics.stage == "done"


@pytest.mark.parametrize("pct,die,joins", [(4, 3, False), (4, 4, True), (2, 2, True), (7, 6, False)])
def test_committee_formation_roll_of_each_invitee(pct, die, joins):
    """2]: "If the die roll is equal to or greater than the number on the PCT reflecting the
    two players' cooperation, that player joins the Central Committee" (rolled once per
    proposer and Game-Turn)."""
    v = _view(phasing="A", turn=3, committee_consent={"A": list(FULL)})
    b = _agent("B", v, {"AB": pct}, [die])
    legal = [A.JoinCommittee("B", FULL)]
    got = b.react_view(v, legal)
    assert (got == A.JoinCommittee("B", FULL)) is joins
    assert b.politics.willing[("A", 3)] is joins


def test_counter_committee_of_those_left_out_purges_the_phasing_player():
    """2]: "a new Central Committee is formed by those players not on the original Central
    Committee ... If the new committee's Politburo Marker total is eight or greater, that
    committee attempts to purge the phasing player!\""""
    v = _view(phasing="A", turn=3)
    b = _agent("B", v, {"AB": 7}, [4])                    # collective die 4
    b.politics.willing[("A", 3)] = False                 # B refused A's Committee
    act = b.react_view(v, [A.JoinCommittee("B", ("B", "C", "D", "E"))])
    assert act == A.JoinCommittee("B", ("B", "C", "D", "E"))
    v["committee"] = ["B", "C", "D", "E"]
    legal = [A.DeclarePurge("B", "A", ("B", "C", "D", "E"), ())]
    got = b.react_view(v, legal)
    assert got == A.DeclarePurge("B", "A", ("B", "C", "D", "E"), ("B", "C", "D", "E"))


def test_counterpurges_are_mandatory_and_aimed_at_the_phasing_player():
    """"All counterpurges are mandatory.  Counterpurges are always attempted against the
    phasing player.\""""
    v = _view(phasing="A", turn=3)
    b = _agent("B", v, {"AB": 3, "BC": 3})
    d = {"kind": "counterpurge", "seat": "B", "options": ["C", "A"], "purge": {"purgers": ["A", "C"], "target": "B"}}
    legal = [A.Counterpurge("B", "C"), A.Counterpurge("B", "A"), A.Counterpurge("B", "")]
    assert b.politics.decide(v, legal, d) == A.Counterpurge("B", "A")


@pytest.mark.parametrize("die,target", [(1, "B"), (2, "C"), (3, "B"), (6, "C")])
def test_phasing_counterpurger_rolls_among_two_purgers(die, target):
    """"In the case where the phasing player is attempting a counterpurge against two or more
    players, a die is rolled to determine against whom the counterpurge takes place.\""""
    v = _view(phasing="A", turn=3)
    a = _agent("A", v, {}, [die])
    d = {"kind": "counterpurge", "seat": "A", "options": ["B", "C"], "purge": {"purgers": ["B", "C"], "target": "A"}}
    legal = [A.Counterpurge("A", "B"), A.Counterpurge("A", "C"), A.Counterpurge("A", "")]
    assert a.politics.decide(v, legal, d) == A.Counterpurge("A", target)


def _spoils_view():
    return _view(phasing="A", turn=3, stacks=[
        _stack(1, "PETR", "B", [151, 101], {101: 151}, "Red"),      # Lenin with RU8: 11 points
        _stack(2, "TVER", "B", [152], {}, "Red"),                     # Trotsky alone: 3
        _stack(3, "KURS", "B", [171, 104], {104: 171}, "Red"),      # Stalin with RU6: 7
    ])


@pytest.mark.parametrize("die,mode,points,want", [
    (1, "individual", 2, 0), (2, "individual", 3, 0), (3, "individual", 2, 151),
    (1, "individual", 1, 151), (1, "group", 4, 151), (2, "counter", 2, 0)])
def test_spoils_politburo_instead_roll_and_strongest_leader(die, mode, points, want):
    """"Purge results should be always carried out against those leaders controlling the
    greatest combat strength points.  If an individual purge result yields a two or more, a
    die is rolled ...  A die roll of one or two implies that the purging player takes one
    Politburo Marker if available.\""""
    v = _spoils_view()
    a = _agent("A", v, {}, [die])
    d = {"kind": "spoils", "seat": "A", "purge": {"mode": mode, "points": points, "purgers": ["A"], "target": "B"}}
    legal = [A.TakeSpoil("A", 0), A.TakeSpoil("A", 152), A.TakeSpoil("A", 151), A.TakeSpoil("A", 171),
             A.EndSpoils("A")]
    assert a.politics._spoil(v, legal, d) == A.TakeSpoil("A", want)


# -- assassinations ---------------------------------------------------------------------------------------
def _assassin_view(markers: int):
    return _view(phasing="A", turn=3, assassins={"A": markers, "B": 0, "C": 0, "D": 0, "E": 0}, stacks=[
        _stack(1, "KURS", "A", [264], {}, "White"),                   # our May-Maevsky
        _stack(2, "KURS", "E", [171], {}, "Red"),                     # Stalin (1)
        _stack(3, "KURS", "E", [155, 104], {104: 155}, "Red"),      # Voroshilov (2) with RU6
        _stack(4, "KURS", "E", [156], {}, "Red"),                     # Budenny (2)
        _stack(5, "KURS", "D", [152], {}, "Red"),                     # Trotsky (3), not the worst enemy
    ])


@pytest.mark.parametrize("markers,victim,used", [(1, 171, 1), (2, 155, 2), (3, 155, 3), (5, 155, 3)])
def test_assassination_targets_worst_enemy_by_level(markers, victim, used):
    """"An assassination attempt is always against the phasing player's worst enemy"; one
    marker: level 1, else 2, else 3; two: level 2, 3, 1; three or more: level 3, 2, 1 (E has
    no level 3 here); ties: "that leader ... who controls the greatest combat strength"; all
    markers up to three are used; the PCT shifts whether or not it succeeds."""
    from rcw.bots.sdt import TurnPlan

    v = _assassin_view(markers)
    v["phase"] = "combat"
    a = _agent("A", v, {"AB": 2, "AC": 3, "AD": 5, "AE": 6})
    a.plan = TurnPlan(3, T.SDT[3], W, assassinate=True)
    legal = [A.EndCombat("A"), A.Assassinate("A", victim, used)]
    assert a._combat_step(v, legal) == A.Assassinate("A", victim, used)
    assert a.relation("A", "E") == 7


def test_assassination_aborted_without_a_target():
    v = _assassin_view(2)
    v["stacks"] = [s for s in v["stacks"] if s["owner"] != "E"]
    a = _agent("A", v, {"AB": 2, "AC": 3, "AD": 5, "AE": 6})
    assert a._assassin_target(a._board(v), "E", 2) is None


# -- Vindictive Strategy Table --------------------------------------------------------------------------------
def test_vst_first_attack_on_the_czar_holders_escort():
    """"When attacking the player who controls the Gold or the Czar, the first attack must be
    attempted against those units which control the Gold or the Czar, even if this means that
    the required number of attacks cannot be fulfilled" — Stalin alone would give 9:1."""
    v = _view(phasing="A", turn=2, stacks=[
        _stack(1, "VORO", "A", [254, 212], {212: 254}, "White"),
        _stack(2, "VORO", "B", [171], {}, "Red"),
        _stack(3, "VORO", "B", [152, 501], {501: 152}, "Red"),
    ])
    a = _agent("A", v, {}, [6, 3])
    plan = a.make_plan(v)
    assert plan.vst == T.CZAR and plan.vst_target == "B"
    assert [(p.target, p.consider) for p in plan.attacks] == [(3, False)]


# -- Subversive Attacks (004 [8.3]) ---------------------------------------------------------------------------
def _subversion_view(doubled=False, lead=(166, 110)):
    """A (Red on turn 6: PCM 1) has Bonch-Bruevich in OLON, next to ARCH where an uncontrolled
    US battalion (BU2) stands."""
    units = list(lead)
    return _view(phasing="A", turn=6, subversion_doubled=doubled, stacks=[
        _stack(1, "OLON", "A", units, {u: units[0] for u in units[1:]}, "Red"),
        _stack(2, "ARCH", None, [321], {}, "Blue"),
    ])


def test_red_vs_blue_apt_line_made_as_a_subversive_attack():
    """Red player, SDT roll 1: the first possible APT line is Red vs Blue; Bonch-Bruevich with
    RU3 OLON (4) attacks the BU2 (2) at 2:1 from the adjacent province, where "Ae" and "Ex"
    have no effect (004 [8.33])."""
    v = _subversion_view()
    a = _agent("A", v, {}, [1])
    plan = a.make_plan(v)
    assert plan.color == R
    assert [(p.target, p.subversive, p.color) for p in plan.attacks] == [(2, True, R)]
    assert not [o for o in plan.orders if o.lead == 166 and o.dest]       # already next door
    a.plan = plan
    v["phase"] = "combat"
    legal = [A.EndCombat("A"), A.DeclareAttack("A", 2, True)]
    assert a._combat_step(v, legal) == A.DeclareAttack("A", 2, True)
    assert a.plan.combat_queue[:2] == [A.AddAttacker("A", 1), A.ResolveAttack("A")]


@pytest.mark.parametrize("doubled,attacks", [(False, 0), (True, 1)])
def test_subversive_strength_doubled(doubled, attacks):
    """Bonch-Bruevich alone (1) against the BU2 (2) is 1:2, short of the 1-1 minimum, unless
    Subversive Attacks are doubled this Player-Turn (004 [12.12])."""
    v = _subversion_view(doubled, lead=(166,))
    a = _agent("A", v, {}, [1])
    plan = a.make_plan(v)
    assert [p.subversive for p in plan.attacks] == [True] * attacks


def test_subversive_attacker_moves_next_door_not_into_the_province():
    v = _subversion_view()
    v["stacks"][0]["province"] = "TVER"
    a = _agent("A", v, {}, [1])
    plan = a.make_plan(v)
    assert [p.subversive for p in plan.attacks] == [True]
    dest = next(o.dest for o in plan.orders if o.lead == 166)
    assert dest in ("OLON", "VOLO", "FINL")


# -- Non-Attack Policies ---------------------------------------------------------------------------------------
def _orders(plan, lead):
    return [o for o in plan.orders if o.lead == lead]


def test_policy1_white_players_czechs_leave_from_vladivostok():
    """1] "Czechs controlled by a White player should attempt to move off the map.\""""
    v = _view(phasing="A", turn=3, stacks=[
        _stack(1, "DCOS", "A", [254], {}, "White"),
        _stack(2, "KHAB", "A", [306], {}, "Blue"),
    ])
    a = _agent("A", v, {}, [1])
    plan = a.make_plan(v)
    o = _orders(plan, 306)
    assert o and o[0].dest == "VLDV" and o[0].after == [A.CzechExit("A", 306)]
    v["stacks"][1]["province"] = "VLDV"
    a = _agent("A", v, {}, [1])
    assert A.CzechExit("A", 306) in a.make_plan(v).pre


def test_policy1_white_players_czar_emigrates():
    """1] "When controlled by a White player the Czar should attempt to move off the map.\""""
    v = _view(phasing="A", turn=3, stacks=[_stack(1, "VLDV", "A", [253, 501], {501: 253}, "White")])
    a = _agent("A", v, {}, [1])
    assert A.Emigrate("A", 501) in a.make_plan(v).pre


@pytest.mark.parametrize("turn,leader,execute", [(1, 151, False), (2, 151, True), (2, 253, False)])
def test_policy2_red_player_tries_to_execute_the_czar(turn, leader, execute):
    """2] "When controlled by a Red player, the Czar should be executed ... The Czar may not be
    executed on the first turn.\""""
    stacks = [_stack(1, "EKAT", "A", [leader, 501], {501: leader}, "Red" if leader == 151 else "White"),
              _stack(2, "PETR", "A", [152, 153, 155], {}, "Red")]          # A is Red either way
    v = _view(phasing="A", turn=turn, stacks=stacks)
    a = _agent("A", v, {}, [2])
    plan = a.make_plan(v)
    assert plan.color == R and plan.execute_czar is execute


def test_policy3_czar_escort_moves_away_from_the_enemy():
    """3] "units controlling the Czar (and the Gold) should attempt to consolidate ... They
    should also try to move to isolated areas.\""""
    v = _view(phasing="A", turn=6, stacks=[
        _stack(1, "TVER", "A", [151, 501], {501: 151}, "Red"),
        _stack(2, "KALU", "B", [251, 203], {203: 251}, "White"),
    ])
    a = _agent("A", v, {}, [1])
    plan = a.make_plan(v)
    o = _orders(plan, 151)
    assert o and o[0].dest and "Policy 3" in o[0].why
    assert a._threat(a._board(v), o[0].dest, R) == 0 < a._threat(a._board(v), "TVER", R)


def test_policy4_gold_steals_green_units():
    """4] "Units controlling the Gold should attempt to 'steal' Green units.\""""
    v = _view(phasing="A", turn=3, stacks=[
        _stack(1, "OMSK", "A", [253, 502], {502: 253}, "White"),
        _stack(2, "IRKU", None, [403], {}, "Green"),
    ])
    a = _agent("A", v, {}, [1])
    o = _orders(a.make_plan(v), 253)
    assert o and o[0].dest == "IRKU" and o[0].attach_dest == [403]


def test_policy5_leader_collects_loose_units():
    """5] "Units should attempt to consolidate and stack with each other" — a lone White
    leader picks up the strongest loose White units within reach."""
    v = _view(phasing="A", turn=3, stacks=[
        _stack(1, "STAV", "A", [260], {}, "White"),
        _stack(2, "KUBA", None, [203], {}, "White"),
    ])
    a = _agent("A", v, {}, [1])
    o = _orders(a.make_plan(v), 260)
    assert o and o[0].dest == "KUBA" and o[0].attach_dest == [203]


def test_policy6_red_player_garrisons_tver_and_petrograd():
    """6] "Red players should attempt to garrison Tver, Petrograd and those areas where Red
    replacements are expected.\""""
    v = _view(phasing="A", turn=6, stacks=[
        _stack(1, "KALU", "A", [161], {}, "Red"),
        _stack(2, "PETR", "A", [151], {}, "Red"),
    ])
    a = _agent("A", v, {}, [1])
    plan = a.make_plan(v)
    assert [o.dest for o in _orders(plan, 161)] == ["TVER"]
    assert not _orders(plan, 151)                          # Lenin already holds Petrograd


def test_policy7_white_player_garrisons_where_replacements_are_expected():
    """7] "White units should attempt to garrison those areas where White replacements are
    expected": WU3 STAV is on the VP chart, so Stavropol will see it replaced."""
    v = _view(phasing="A", turn=3, vp={"B": [[207, True]]}, stacks=[_stack(1, "DCOS", "A", [254], {}, "White")])
    a = _agent("A", v, {}, [1])
    assert [o.dest for o in _orders(a.make_plan(v), 254)] == ["STAV"]


def test_policy10_a_player_with_no_units_leaves():
    """10] "If a player controls no units of any color, he is automatically out of the game.\""""
    v = _view(phasing="A", phase="random_events", turn=3, stacks=[_stack(1, "PETR", "B", [151], {}, "Red")])
    a = _agent("A", v)
    assert a.choose_view(v, [A.RollRandomEvents("A"), A.Quit("A")]) == A.Quit("A")
    v["turn"] = 1
    assert a.choose_view(v, [A.RollRandomEvents("A"), A.Quit("A")]) == A.RollRandomEvents("A")


def test_every_bot_move_is_explained():
    """rcw solo shows the bots' notes: each force a bot moves comes with its reason."""
    v = _view(phasing="A", phase="movement", turn=6, stacks=[_stack(1, "KALU", "A", [161], {}, "Red")])
    a = _agent("A", v, {}, [1])
    a.take_notes()
    act = a.choose_view(v, [A.EndMovement("A"), A.StartForce("A", 161)])
    assert act == A.StartForce("A", 161)
    notes = a.take_notes()
    assert any("moves Kamenev to TVER: garrisons TVER (Non-Attack Policy 6)" in n for n in notes), notes
