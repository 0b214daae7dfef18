"""The game options' one registry (rcw.options): what ``rcw options`` lists, how ``rcw simulate
--option`` reads values, how a game's options are put in words, and the refusals of
``validate`` for a variant's sub-switch without its variant and for options that exclude each
other (issue 14)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from rcw.bots import simulate

from rcw import options as O
from rcw.actions import IllegalAction
from rcw.cli import main
from rcw.game import Game


def test_every_option_is_described_with_its_group_label_and_source():
    d = O.describe()
    assert set(d) == set(O.OPTIONS)
    for name, o in d.items():
        assert o["group"] in O.GROUPS, name
        assert o["label"] and o["help"] and o["source"], name
        assert o["type"] in ("int", "bool"), name
        assert o["requires"] is None or o["requires"] in O.OPTIONS, name
        assert all(c in O.OPTIONS for c in o["conflicts"]), name
        # off (or the rulebook's value) by default: a game without options is 004's game
        assert O.validate({name: o["default"]}) == {name: o["default"]}


def test_rcw_options_lists_every_option_by_group(capsys):
    assert main(["options"]) == 0
    out = capsys.readouterr().out
    for name, o in O.OPTIONS.items():
        assert f"  {name} (" in out and o.source in out
    for heading in {O.GROUPS[o.group] for o in O.OPTIONS.values()}:
        assert heading in out
    assert main(["options", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["groups"] == O.GROUPS and d["options"] == json.loads(json.dumps(O.describe()))


@pytest.mark.parametrize("name, text, value", [
    ("postal_movement", "on", True), ("postal_movement", "False", False), ("postal_movement", "1", True),
    ("postal_movement", "no", False), ("max_turns", "12", 12), ("max_turns", " +3 ", 3),
])
def test_parse_reads_a_value_by_the_options_type(name, text, value):
    assert O.parse(name, text) == value


@pytest.mark.parametrize("name, text, says", [
    ("postal_movement", "maybe", "postal_movement must be true or false, not 'maybe'"),
    ("max_turns", "3.5", "max_turns must be an integer"), ("max_turns", "ten", "max_turns must be an integer"),
    ("nope", "1", "unknown option 'nope'"),
])
def test_parse_refuses_a_value_of_the_wrong_type(name, text, says):
    with pytest.raises(IllegalAction) as e:
        O.parse(name, text)
    assert (e.value.code, e.value.rule) == ("bad_request", "options") and says in e.value.message


def test_every_problem_with_the_options_is_named_at_once():
    """QA: creating a game with several wrong options named only the first; the player fixed it
    and was refused again for the next.  ``validate`` names every one, and changes nothing."""
    with pytest.raises(IllegalAction) as e:
        O.validate({"max_turns": -3, "leader_movement": 99, "nope": 1, "anarchists": "yes"})
    said = e.value.message
    for part in ("max_turns must be between 0 and 1000", "leader_movement must be between 1 and 20",
                 "unknown option 'nope'", "anarchists must be"):
        assert part in said, said
    assert said.count(";") == 3, said


def test_a_sub_switch_needs_its_variant_and_conflicting_options_are_refused(monkeypatch):
    """``requires`` and ``conflicts`` (a variant's sub-switches; options that exclude each other)
    are refused by ``validate`` whatever the options are, and so by ``Game.new``."""
    reg = dict(O.OPTIONS)
    reg["x_variant"] = O.Option("x_variant", bool, False, "a variant", "test", group="001")
    reg["x_sub"] = O.Option("x_sub", bool, False, "part of it", "test", group="001", requires="x_variant")
    reg["x_other"] = O.Option("x_other", bool, False, "not with it", "test", group="001", conflicts=("x_variant",))
    monkeypatch.setattr(O, "OPTIONS", reg)
    assert O.validate({"x_variant": True, "x_sub": True}) == {"x_variant": True, "x_sub": True}
    assert O.validate({"x_sub": False}) == {"x_sub": False}
    with pytest.raises(IllegalAction, match="x_sub is part of x_variant"):
        O.validate({"x_sub": True})
    with pytest.raises(IllegalAction, match="x_other and x_variant may not be on together"):
        Game.new(3, 1, {"x_variant": True, "x_other": True})


def test_words_put_a_games_options_in_the_registrys_order():
    assert O.words({}) == []
    assert O.words({"turn5_replacements": False, "max_turns": 10, "postal_movement": True, "mode": "x"}) == [
        "max turns 10", "postal movement", "replacements after Game-Turn 5: off"]
    # (by post, postal movement is always on: not said of every postal game)
    assert O.words({"max_turns": 10, "postal_movement": True, "mode": "postal"}) == ["max turns 10"]


def test_simulate_plays_with_the_options_given_and_reports_them(capsys):
    assert simulate.parse_options(["postal_movement=on", "reduced_leader_movement"]) == {
        "postal_movement": True, "reduced_leader_movement": True}
    assert main(["simulate", "--games", "1", "--players", "3", "--max-turns", "2", "--json",
                 "--option", "reduced_leader_movement=yes"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["options"] == {"reduced_leader_movement": True} and out["completed"] == 1
    rec = simulate.play(3, 0, "random", 2, options={"reduced_leader_movement": True}, with_record=True)
    assert rec["record"]["options"] == {"reduced_leader_movement": True, "max_turns": 2}


def test_simulate_refuses_a_bad_option_with_the_registrys_words():
    r = subprocess.run([sys.executable, "-m", "rcw.cli", "simulate", "--games", "1", "--option", "postal_movement=maybe"],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "option postal_movement must be true or false" in r.stderr
    r = subprocess.run([sys.executable, "-m", "rcw.cli", "simulate", "--games", "1", "--option", "nope=1"],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "unknown option 'nope'" in r.stderr


@pytest.mark.parametrize("args, says", [
    (["serve", "--port", "99999"], "argument --port: 99999 is out of range (0-65535)"),
    (["serve", "--bot-workers", "-1"], "argument --bot-workers: -1 is below 0"),
    (["serve", "--snapshot-every", "0"], "argument --snapshot-every: 0 is below 1"),
    (["simulate", "--games", "-1"], "argument --games: -1 is below 1"),
    (["simulate", "--max-turns", "-1"], "argument --max-turns: -1 is below 0"),
    (["simulate", "--seed", "-5"], "argument --seed: -5 is out of range (0-9223372036854775807)"),
    (["simulate", "--games", "1", "--option", "max_turns=-1"], "option max_turns must be between 0 and 1000"),
    (["simulate", "--red", "greedy", "--evidence"], "rcw simulate: --red, --evidence are for --mode spi-solitaire only"),
    (["simulate", "--jobs", "0", "--mode", "spi-solitaire"], "argument --jobs: 0 is below 1"),
    (["serve", "--bot-delay", "nan"], "argument --bot-delay: 'nan' is not a finite number"),
    (["serve", "--bot-wait", "-1"], "argument --bot-wait: -1 must be at least 0"),
    (["serve", "--chat-rate", "-1"], "argument --chat-rate: -1 must be greater than 0"),
    (["serve", "--chat-burst", "0.5"], "argument --chat-burst: 0.5 must be at least 1"),
    (["serve", "--frame-rate", "inf"], "argument --frame-rate: 'inf' is not a finite number"),
    (["serve", "--frame-rate", "0.4"], "argument --frame-rate: 0.4 must be at least 0.5"),   # (a burst of 2x: < 1 frame)
    (["serve", "--lease-ttl", "0"], "argument --lease-ttl: 0 must be greater than 0"),
    (["serve", "--create-rate", "x"], "argument --create-rate: 'x' is not a number"),
    (["solo", "--max-turns", "-2"], "argument --max-turns: -2 is below 0"),
    (["play", "--humans", "0"], "argument --humans: 0 is out of range (1-6)"),
    (["play", "--players", "4", "--humans", "5"], "rcw play: --humans 5 is more than the game's 4 players"),
    (["play", "notaurl"], "rcw play: 'notaurl' is not a server's address"),
])
def test_the_command_line_refuses_numbers_out_of_range_with_a_usage_error(args, says):
    """Found by an operator's QA: ``--port 99999`` ended in a traceback, ``--bot-workers -1`` and
    ``--games -1`` were taken ("0/-1 games completed").  A second QA: ``--bot-delay nan`` (the bots
    never acted), ``--chat-rate -1`` (every message refused), ``--lease-ttl 0``, ``simulate
    --max-turns -1`` (an "engine error"), ``--seed -5`` (which the server refuses), ``--red``
    without the SPI solitaire (ignored), ``rcw play notaurl`` (a traceback) were taken too."""
    r = subprocess.run([sys.executable, "-m", "rcw.cli", *args], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and says in r.stderr and "Traceback" not in r.stderr, r.stderr


def test_a_reader_that_goes_away_ends_the_listing_quietly():
    """``rcw options | head -1``: no BrokenPipeError traceback when the reader stops reading."""
    r = subprocess.run(f"{sys.executable} -m rcw.cli options | head -1", shell=True, capture_output=True, text=True,
                       timeout=60)
    assert r.stdout.strip() and "Traceback" not in r.stderr and "BrokenPipe" not in r.stderr, r.stderr
