"""The protocol layer on its own: frame decoding never crashes, every frame type and error
code is documented, proposals map to the right engine actions, the CLI is wired."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rcw.server import chat
from rcw.server.protocol import (
    CLIENT_TYPES,
    ERRORS,
    MAX_FRAME,
    SERVER_TYPES,
    ProtocolError,
    pack,
    peek_id,
    unpack_frame,
)

from rcw.actions import AcceptTrade, ApprovePurge, DeclarePurge, DeclineTrade, JoinCommittee, OfferTrade, OrderExecution

DOC = Path(__file__).resolve().parent.parent / "docs" / "protocol.md"


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_any_bytes_decode_to_a_frame_or_a_typed_error(data):
    try:
        f = unpack_frame(data)
    except ProtocolError as e:
        assert e.code in ERRORS
    else:
        assert isinstance(f, dict) and f["t"] in CLIENT_TYPES


maps = st.dictionaries(st.sampled_from(["t", "id", "game", "x"]),
                       st.one_of(st.none(), st.booleans(), st.integers(-(2**63), 2**64 - 1), st.text(max_size=70), st.binary(max_size=5),
                                 st.lists(st.integers(-(2**63), 2**64 - 1), max_size=3)))


@settings(max_examples=300, deadline=None)
@given(maps)
def test_any_map_decodes_to_a_frame_or_a_typed_error_that_keeps_a_valid_id(m):
    try:
        f = unpack_frame(pack(m))
    except ProtocolError as e:
        assert e.code in ("bad_frame", "unknown_type")
        if e.code == "unknown_type":
            assert e.req_id == m.get("id")
    else:
        assert f["t"] in CLIENT_TYPES


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.binary(max_size=200), st.text(max_size=200), maps.map(pack)))
def test_reading_the_id_of_a_refused_frame_never_fails(data):
    rid = peek_id(data)
    assert rid is None or isinstance(rid, (int, str)) and not isinstance(rid, bool)


def test_a_request_needs_an_id_and_a_refused_frame_keeps_the_id_it_could_read():
    for m in ({"t": "ping"}, {"t": "ping", "id": None}, {"t": "ping", "id": True}, {"t": "ping", "id": 1.5}):
        with pytest.raises(ProtocolError) as e:
            unpack_frame(pack(m))
        assert e.value.code == "bad_frame" and e.value.req_id is None and e.value.frame()["id"] is None
    pad = "x" * MAX_FRAME
    cases = [
        (pack({"t": "ping", "id": 3, "pad": pad}), 3, "frame_too_large"),
        (pack({"pad": pad, "nested": [{"id": 1}], "id": "late"}), "late", "frame_too_large"),
        (pack({"t": "ping", "id": 4}) + b"\xc1", 4, "bad_frame"),
        (pack({"t": 1, "id": 5}), 5, "bad_frame"),
        (pack({"t": "nope", "id": 6}), 6, "unknown_type"),
    ]
    for data, rid, code in cases:
        with pytest.raises(ProtocolError) as e:
            unpack_frame(data)
        assert (e.value.code, e.value.req_id, e.value.frame()["id"]) == (code, rid, rid)
    assert peek_id('{"t": "ping", "id": 9}') == 9 and peek_id('{"id": 1.5}') is None and peek_id("[") is None
    assert peek_id(pack({"t": "ping", "id": 7})[:3]) is None           # cut before the id
    assert peek_id(pack([{"id": 8}])) is None and peek_id(pack({"id": {"x": 1}})) is None


def test_frame_size_limit():
    with pytest.raises(ProtocolError) as e:
        unpack_frame(pack({"t": "ping", "id": 1, "pad": "x" * MAX_FRAME}))
    assert e.value.code == "frame_too_large"


def test_the_protocol_document_lists_every_frame_type_and_error_code():
    doc = DOC.read_text()
    for t in CLIENT_TYPES + SERVER_TYPES:
        assert re.search(rf"`{t}`", doc), f"frame type {t} is not documented"
    for code in ERRORS:
        assert f"`{code}`" in doc, f"error code {code} is not documented"


SERVER_SRC = sorted((Path(__file__).resolve().parent.parent / "server").glob("*.py"))


def test_every_error_code_and_frame_type_in_the_code_is_declared_and_documented():
    """Grep the server's code: every error code it can send and every frame type it builds is
    declared in server.protocol and listed in docs/protocol.md, and nothing declared is unused."""
    from rcw.server.app import HTTP_STATUS, Connection

    doc = DOC.read_text()
    src = "\n".join(p.read_text() for p in SERVER_SRC)
    used = set(re.findall(r'ProtocolError\(\s*"([a-z_]+)"', src))
    used |= set(re.findall(r'error_frame\([^,()]+,\s*"([a-z_]+)"', src))
    assert {"bad_frame", "illegal_action", "internal", "rate_limited", "not_member"} <= used   # the grep works
    for code in used:
        assert code in ERRORS, f"error code {code!r} is sent but not declared in server.protocol.ERRORS"
        assert f"| `{code}` |" in doc, f"error code {code!r} is not in the table of docs/protocol.md"
    assert set(ERRORS) == used, f"declared but never sent: {sorted(set(ERRORS) - used)}"
    assert set(HTTP_STATUS) <= set(ERRORS)

    built = set(re.findall(r'\{"t":\s*"([a-z_]+)"', src)) | set(re.findall(r'state_frame\(\s*"([a-z_]+)"', src))
    built -= set(CLIENT_TYPES) - set(SERVER_TYPES)          # the client library builds requests too
    assert {"update", "msg", "welcome", "pong"} <= built
    assert built <= set(SERVER_TYPES), f"frames built but not declared: {sorted(built - set(SERVER_TYPES))}"
    for t in SERVER_TYPES:
        assert f"| `{t}` |" in doc, f"server frame {t!r} is not in a table of docs/protocol.md"
    handlers = {n[3:] for n in dir(Connection) if n.startswith("on_")}
    assert handlers == set(CLIENT_TYPES), "every client frame type has exactly one handler"
    for t in CLIENT_TYPES:
        assert f"| `{t}` |" in doc, f"client frame {t!r} is not in the table of docs/protocol.md"


def test_the_server_reads_the_game_through_its_methods_only():
    """Nothing in server/ reaches into the engine's state (``Game.state``, ``Game.ctx``): it
    asks ``Game`` methods (``view``, ``pending``, ``legal_actions``, ``odds``...); and every
    module says what its one job is."""
    import ast

    assert len(SERVER_SRC) >= 12
    for p in SERVER_SRC:
        tree = ast.parse(p.read_text())
        if p.name != "__init__.py":
            assert ast.get_docstring(tree), f"server/{p.name} has no docstring saying its job"
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in ("state", "ctx"):
                raise AssertionError(f"server/{p.name}:{node.lineno} reads .{node.attr} of the game")


def test_proposals_map_to_engine_actions():
    public = {"name": "public", "members": ["A", "B", "C"], "kind": "public"}
    seats = ["A", "B", "C"]
    p = chat.parse_proposal({"kind": "trade", "to": "B", "give_politburo": 1, "take_leaders": [151]}, "A", public, seats)
    assert p["addressees"] == ["B"]
    assert chat.post_actions(p, "A") == [OfferTrade("A", "B", give_politburo=1, take_leaders=(151,))]
    p["offer"] = 4
    assert chat.answer_actions(p, "B", True) == [AcceptTrade("B", 4)]
    assert chat.answer_actions(p, "B", False) == [DeclineTrade("B", 4)]

    p = chat.parse_proposal({"kind": "committee", "members": ["C", "A"]}, "A", public, seats)
    assert p["members"] == ["A", "C"] and p["addressees"] == ["C"]
    assert chat.post_actions(p, "A") == [JoinCommittee("A", ("A", "C"))]
    assert chat.answer_actions(p, "C", True) == [JoinCommittee("C", ("A", "C"))]

    p = chat.parse_proposal({"kind": "purge", "target": "C", "purgers": ["A", "B"], "shares": ["B", "A"]}, "A",
                            public, seats)
    assert chat.post_actions(p, "A") == [DeclarePurge("A", "C", ("A", "B"), ("B", "A"))]
    assert chat.answer_actions(p, "B", True) == [ApprovePurge("B", True)]
    assert chat.answer_actions(p, "B", False) == [ApprovePurge("B", False)]

    p = chat.parse_proposal({"kind": "execution", "to": ["B", "C"]}, "A", public, seats)
    assert p["addressees"] == ["B", "C"]
    assert chat.post_actions(p, "A") == [OrderExecution("A")]
    assert chat.answer_actions(p, "B", True) == [OrderExecution("B")]


@pytest.mark.parametrize("prop", [
    None, [], {"kind": "bribe"}, {"kind": "trade"}, {"kind": "trade", "to": "A"}, {"kind": "trade", "to": "Z"},
    {"kind": "trade", "to": "B", "steal": 1}, {"kind": "committee", "members": ["B", "C"]},
    {"kind": "committee", "members": ["A", "A"]}, {"kind": "purge", "target": "Q"},
    {"kind": "purge", "target": "C", "purgers": ["B"]}, {"kind": "execution", "to": "B"},
    {"kind": "committee", "members": ["A", "D"]},          # D is not in the channel
])
def test_malformed_proposals_are_refused(prop):
    ch = {"name": "A-B-C", "members": ["A", "B", "C"], "kind": "group"}
    with pytest.raises(ProtocolError) as e:
        chat.parse_proposal(prop, "A", ch, ["A", "B", "C", "D"])
    assert e.value.code in ("bad_request", "message_too_large")


def test_channel_membership_rules():
    pair = chat.initial_channels(["A", "B", "C"])["A-B"]
    public = chat.initial_channels(["A", "B", "C"])["public"]
    assert chat.can_read(pair, "A") and chat.can_post(pair, "B")
    assert not chat.can_read(pair, "C") and not chat.can_read(pair, None)
    assert chat.can_read(public, None) and not chat.can_post(public, None)
    assert pair["secret"] != public["secret"] and len(pair["secret"]) == 32
    assert "secret" not in chat.public_info(pair, 0)


def test_rate_limiter_allows_a_burst_then_the_rate():
    rl = chat.RateLimiter(rate=1000.0, burst=3)
    assert [rl.allow("k") for _ in range(4)][:3] == [True, True, True]
    slow = chat.RateLimiter(rate=0.001, burst=2)
    assert [slow.allow("k") for _ in range(3)] == [True, True, False]
    assert slow.allow("other")


def test_rcw_serve_help_states_the_real_defaults():
    import argparse

    from rcw.server import cli
    from rcw.server.config import Config

    p = argparse.ArgumentParser()
    cli._add_arguments(p)
    stated = 0
    for a in p._actions:
        m = re.search(r"\(default:? ([^;)]+)", a.help or "")
        if not m or a.default is None:
            continue
        said = m.group(1).strip().strip("'")
        if isinstance(a.default, tuple):          # (a list of numbers, as typed: --mail-retry)
            assert said == ",".join(f"{x:g}" for x in a.default), (a.dest, said, a.default)
        else:
            assert said == str(a.default) or float(said) == float(a.default), (a.dest, said, a.default)
        stated += 1
    assert stated >= 8
    args = p.parse_args([])
    c = Config()
    assert (args.chat_rate, args.chat_burst, args.frame_rate, args.lease_ttl, args.bot_delay) == \
        (c.chat_rate, c.chat_burst, c.frame_rate, c.lease_ttl, c.bot_delay)
    assert 2 * args.frame_rate == c.frame_burst                    # "burst twice that"


def test_rcw_serve_is_wired_into_the_cli():
    from rcw.cli import build_parser

    args = build_parser().parse_args(["serve", "--port", "0", "--redis", "redis://x:1/0"])
    assert args.command == "serve" and args.port == 0 and args.redis == "redis://x:1/0" and args.host == "127.0.0.1"
    args = build_parser().parse_args(["serve"])
    assert args.redis is None and args.port == 8080
