"""The engine's one API (architecture: "One API for everyone"): illegal actions name their rule
and change nothing; actions and events round-trip through msgpack; views, options,
persistence and replay."""

from __future__ import annotations

import dataclasses
import random

import msgpack
import pytest
from engine_helpers import blank, choose, put, refused, started, uid

from rcw import actions as A
from rcw import options as O
from rcw.actions import IllegalAction, action_from_wire, action_types, to_wire
from rcw.game import Game


def sample(cls: type) -> A.Action:
    """An instance with every field set to something other than its default."""
    kw = {}
    for f in dataclasses.fields(cls):
        if f.name == "seat":
            kw[f.name] = "C"
        elif isinstance(f.default, bool):
            kw[f.name] = True
        elif isinstance(f.default, int):
            kw[f.name] = 7
        elif isinstance(f.default, tuple):
            kw[f.name] = ("A", "B") if f.name in ("members", "purgers", "shares") else (151, 152)
        elif isinstance(f.default, str):
            kw[f.name] = "TVER" if f.name == "to" else "B"
    return cls(**kw)


@pytest.mark.parametrize("name", sorted(action_types()))
def test_every_action_round_trips_through_msgpack(name):
    a = sample(action_types()[name])
    raw = msgpack.packb(to_wire(a), use_bin_type=True)
    back = action_from_wire(msgpack.unpackb(raw, raw=False))
    assert back == a and type(back) is type(a)
    assert to_wire(a)["t"] == name


@pytest.mark.parametrize("bad, code", [
    ([], "bad_action"),
    ({"t": "Nonsense", "seat": "A"}, "bad_action"),
    ({"t": "Move"}, "bad_action"),
    ({"t": "Move", "seat": "A", "to": 3}, "bad_action"),
    ({"t": "Move", "seat": "A", "rail": 1}, "bad_action"),
    ({"t": "StartForce", "seat": "A", "unit": True}, "bad_action"),
    ({"t": "OfferTrade", "seat": "A", "to": "B", "give_leaders": 151}, "bad_action"),
    ({"t": "EndForce", "seat": "A", "extra": 1}, "bad_action"),
])
def test_malformed_wire_actions_are_refused(bad, code):
    with pytest.raises(IllegalAction) as e:
        action_from_wire(bad)
    assert e.value.code == code and e.value.rule == "protocol"


def test_apply_takes_wire_maps():
    g = Game.new(3, 1)
    g.apply({"t": "EndTrading", "seat": "A"})
    assert g.state.ready == ["A"]
    with pytest.raises(IllegalAction):
        g.apply("EndTrading")                         # type: ignore[arg-type]


def test_unknown_seat_and_game_over():
    g = Game.new(3, 1)
    refused(g, A.EndTrading("D"), "004 [15.21]")
    g.state.phase = "over"
    refused(g, A.EndTrading("A"), "004 [14.1]")


def test_a_recorded_step_a_rule_fixed_since_refuses_is_applied_as_it_was_played(monkeypatch):
    """``Game.apply_recorded``: a step of a game's own record that a later edition of the rules
    refuses (here a Move, refused by a "fixed" check) happens as it did under the edition it was
    played under; what every action passes is still checked (the seat plays, the game goes on)."""
    g, rng = started(3, 4), random.Random(4)
    mover = None
    for _ in range(2000):               # play on until a Move is open
        legal = [a for p in g.pending for a in g.legal_actions(p["seat"])]
        mover = next((a for a in legal if a.TYPE == "Move"), None)
        if mover is not None:
            break
        g.apply(choose(rng, legal))
    assert mover is not None
    played = Game.from_bytes(g.to_bytes())
    played.apply(mover)                   # under the rules it was played under
    check, do = Game.HANDLERS[A.Move]

    def fixed(ctx, action):
        raise IllegalAction("004 [5.0]", "a rule fixed since refuses it")
    monkeypatch.setitem(Game.HANDLERS, A.Move, (fixed, do))
    before = g.state_hash()
    refused(g, mover, "004 [5.0]")
    assert g.state_hash() == before
    g.apply_recorded(to_wire(mover))
    assert g.state_hash() == played.state_hash() and g.version == played.version
    with pytest.raises(IllegalAction) as e:
        g.apply_recorded(A.EndTrading("D"))
    assert e.value.rule == "004 [15.21]"


def test_unsupported_action_is_refused_and_changes_nothing():
    g = Game.new(3, 1)

    @A._action
    class NotARule(A.Action):            # registered on the wire but with no rule module
        pass

    try:
        refused(g, NotARule("A"), "engine")
    finally:
        A._REGISTRY.pop("NotARule", None)


def test_options_are_validated():
    with pytest.raises(IllegalAction):
        Game.new(3, 1, {"no_such_option": 1})
    with pytest.raises(IllegalAction):
        Game.new(3, 1, {"max_turns": "3"})
    with pytest.raises(IllegalAction):
        Game.new(3, 1, {"postal_movement": 1})
    with pytest.raises(IllegalAction):
        Game.new(3, 1, {"max_turns": True})
    assert Game.new(3, 1, {"max_turns": 3, "postal_movement": True}).state.options["max_turns"] == 3


@pytest.mark.parametrize("options, says", [
    ("x", "options must be a map"), ([], "options must be a map"), (0, "options must be a map"),
    ({1: 3}, "unknown option 1"), ({"nope": 1}, "unknown option 'nope'"), ({"mode": "standard"}, "unknown option 'mode'"),
    ({"max_turns": -1}, "max_turns must be between 0 and 1000"), ({"max_turns": 1001}, "between 0 and 1000"),
    ({"max_turns": 2**70}, "between 0 and 1000"), ({"max_turns": -(2**70)}, "between 0 and 1000"),
    ({"max_turns": 3.0}, "max_turns must be an integer"), ({"max_turns": None}, "max_turns must be an integer"),
    ({"max_turns": False}, "max_turns must be an integer"), ({"leader_movement": 0}, "between 1 and 20"),
    ({"leader_movement": 21}, "between 1 and 20"), ({"postal_movement": 0}, "postal_movement must be true or false"),
])
def test_the_option_registry_refuses_what_it_does_not_know_by_name(options, says):
    """``rcw.options.validate`` is what a server asks about a game's options: anything else than
    known names with values of their type and range is a typed refusal naming the option."""
    with pytest.raises(IllegalAction) as e:
        O.validate(options)
    assert (e.value.code, e.value.rule) == ("bad_request", "options") and says in e.value.message


def test_the_option_registry_takes_the_edges_of_its_ranges():
    for name, d in O.describe().items():
        if d["type"] == "int":
            for v in (d["min"], d["max"]):
                assert O.validate({name: v}) == {name: v}
                assert Game.new(3, 1, {name: v}).options[name] == v
    assert O.validate({}) == {} and O.validate({"postal_movement": False}) == {"postal_movement": False}


def random_game(players: int, seed: int, steps: int, options: dict | None = None):
    """Play ``steps`` random legal actions; return the game and every (action, events)."""
    g = Game.new(players, seed, options)
    rng = random.Random(seed)
    trail = []
    for _ in range(steps):
        if g.over:
            break
        seat = g.pending[0]["seat"]
        a = choose(rng, g.legal_actions(seat))
        trail.append((a, g.apply(a)))
    return g, trail


def test_events_round_trip_through_msgpack():
    _, trail = random_game(5, 3, 1500)
    kinds = set()
    for _, events in trail:
        for e in events:
            w = to_wire(e)
            assert msgpack.unpackb(msgpack.packb(w, use_bin_type=True), raw=False, strict_map_key=False) == w
            assert isinstance(e.text, str) and e.text
            kinds.add(e.kind)
    assert {"force", "move", "combat", "eliminated", "random_event", "drew", "player_turn"} <= kinds


@pytest.mark.parametrize("seed", [1, 2])
def test_every_listed_action_is_legal(seed):
    """legal_actions lists only actions that apply; checked in many states on copies."""
    g, _ = random_game(4, seed, 0)
    rng = random.Random(seed)
    for step in range(700):
        if g.over:
            break
        seat = g.pending[0]["seat"]
        legal = g.legal_actions(seat)
        assert legal, f"{seat} must {g.pending[0]['kind']} but has nothing to do"
        if step % 10 == 0:
            for a in rng.sample(legal, min(3, len(legal))):
                copy = Game.from_bytes(g.to_bytes())
                copy.apply(a)
        g.apply(choose(rng, legal))


@pytest.mark.parametrize("seed", [4, 5])
def test_illegal_actions_change_nothing(seed):
    """Random wire-level junk at random moments: refused with a rule, state unchanged."""
    g, _ = random_game(5, seed, 0)
    rng = random.Random(seed)
    types = sorted(action_types())
    refusals = 0
    for _ in range(600):
        if g.over:
            break
        for _ in range(3):
            cls = action_types()[rng.choice(types)]
            kw = {}
            for f in dataclasses.fields(cls):
                if f.name == "seat":
                    kw["seat"] = rng.choice("ABCDE")
                elif isinstance(f.default, bool):
                    kw[f.name] = rng.random() < 0.5
                elif isinstance(f.default, int):
                    kw[f.name] = rng.choice([0, 1, 2, 7, 111, 151, 212, 501, 502, 999, -1])
                elif isinstance(f.default, str):
                    kw[f.name] = rng.choice(["", "A", "B", "TVER", "KUBA", "XXXX"])
                elif isinstance(f.default, tuple):
                    kw[f.name] = tuple(rng.sample([151, 152, 251, 99], rng.randint(0, 2)))
            a = cls(**kw)
            before = g.state_hash()
            n = len(g.log)
            try:
                g.apply(a)
            except IllegalAction as e:
                refusals += 1
                assert e.rule and e.message
                assert g.state_hash() == before and len(g.log) == n
        if g.over:
            break
        seat = g.pending[0]["seat"]
        g.apply(choose(rng, g.legal_actions(seat)))
    assert refusals > 100


def test_view_is_open_but_hides_the_cups():
    """004 [8.29]: all stacks open; the Randomizer's order and the RNG are not shown."""
    g = started(5, 1)
    v = g.view("A")
    assert len(v["stacks"]) == len(g.state.stacks)
    assert "aux" not in v and "rng" not in v and v["randomizer"] == 30
    assert v == g.view("A") and set(v) == set(g.view(None))
    msgpack.packb(v, use_bin_type=True)


def test_persistence_round_trip_and_replay():
    g, _ = random_game(5, 9, 800, {"postal_movement": True})
    raw = g.to_bytes()
    h = g.state_hash()
    back = Game.from_bytes(raw)
    assert back.state_hash() == h and back.log == g.log
    rec = g.record()
    again = Game.replay(rec["seed"], rec["actions"], rec["players"], rec["options"])
    assert again.state_hash() == h
    # and both continue identically
    for _ in range(200):
        if g.over:
            break
        seat = g.pending[0]["seat"]
        legal = g.legal_actions(seat)
        assert legal == back.legal_actions(seat)
        a = legal[len(legal) // 2]
        assert to_wire_all(g.apply(a)) == to_wire_all(back.apply(a))
    assert g.state_hash() == back.state_hash()


def to_wire_all(events):
    return [to_wire(e) for e in events]


def test_illegal_positions_named_by_rule():
    g = blank()
    put(g, "TVER", "A", "Trotsky")
    refused(g, A.Move("A", "YARO", False), "004 [5.0]")
    refused(g, A.Attach("A", uid("RU8 TVER"), uid("Trotsky")), "004 [5.0]")
    refused(g, A.EndForce("A"), "004 [5.0]")
    refused(g, A.StartForce("A", 12345), "004 [5.0]")
