"""Bad input, over the wire, against both stores: every malformed frame, out-of-range index and
bad lobby body is answered with a typed error naming the problem (the request id echoed
whenever it can be read; JSON over HTTP, whatever refused it), and the game, its chat and the
lobby are exactly as before."""

from __future__ import annotations

import contextlib
import json

import aiohttp
import pytest
from rcw.server.client import GameClient, Lobby, ServerError
from rcw.server.config import Config
from rcw.server.protocol import ERRORS, MAX_FRAME, MAX_INDEX, pack
from rcw.server.store import MemoryStore, RedisStore
from server_helpers import REDIS_URL, STORES, destroy_prefix, running_server, unique_prefix


@contextlib.asynccontextmanager
async def serve(kind: str):
    prefix = unique_prefix("input")
    store = MemoryStore() if kind == "memory" else RedisStore(REDIS_URL, prefix)
    clients: list[GameClient] = []
    try:
        async with running_server(store, Config()) as srv, Lobby(srv.base) as lobby:
            try:
                yield srv.base, lobby, clients
            finally:
                for c in clients:
                    await c.close()
    finally:
        if kind == "redis":
            await destroy_prefix(prefix)


async def a_game(base: str, lobby: Lobby, clients: list[GameClient]) -> tuple[dict, GameClient, GameClient]:
    """Seats A and B human, C a bot; a few messages in public, A-B and a group of A and B."""
    g = await lobby.create_game(players=3, bot_seats=["C"], seed=0)
    a, b = [await lobby.join(g["game"], name=n) for n in ("Ann", "Bob")]
    ca, cb = [await GameClient.connect(base, g["game"], s["token"]) for s in (a, b)]
    clients += [ca, cb]
    await ca.wait_for(lambda c: c.seq >= 1, 5)           # bot C has agreed to end trading
    await ca.chat("public", "one")
    await cb.chat("public", "two")
    await ca.chat("A-B", "between us")
    group = await ca.open_channel(["B"], title="A and B")
    await ca.chat(group["name"], "in the group")
    return g, ca, cb


async def snapshot(c: GameClient) -> tuple:
    """What a client can see of the game and of every channel it may read."""
    v = await c.request("view")
    chans = sorted(ch["name"] for ch in (await c.request("channels"))["channels"])
    hist = {}
    for ch in chans:
        r = await c.request("history", channel=ch, after=0, limit=500)
        hist[ch] = [(m["id"], m["seat"], m["text"]) for m in r["messages"]]
    ev = await c.request("events", after=0, limit=1000)
    return v["seq"], v["hash"], v["status"], hist, len(ev["entries"])


# -- WebSocket requests ------------------------------------------------------------------------------------
BIG = 9223372036854775806          # the issue's `after`: Redis refused the index (internal + a traceback)
HUGE = 18446744073709551615        # the issue's `msg`


@pytest.mark.parametrize("kind", STORES)
async def test_out_of_range_indexes_and_pages_are_refused_and_change_nothing(kind):
    async with serve(kind) as (base, lobby, clients):
        g, ca, cb = await a_game(base, lobby, clients)
        before = await snapshot(ca)
        cases = [
            ("history", {"channel": "public", "after": BIG}, "'after' must be an integer from 0 to"),
            ("history", {"channel": "public", "after": MAX_INDEX + 1}, "'after'"),
            ("history", {"channel": "public", "after": -5}, "'after'"),
            ("history", {"channel": "public", "after": "3"}, "'after' has the wrong type"),
            ("history", {"channel": "public", "after": 1.5}, "'after' has the wrong type"),
            ("history", {"channel": "public", "limit": -1}, "'limit' must be an integer from 1 to 500"),
            ("history", {"channel": "public", "limit": 0}, "'limit'"),
            ("history", {"channel": "public", "limit": 501}, "'limit'"),
            ("history", {"channel": "public", "limit": 10**6}, "'limit'"),
            ("history", {"channel": "public", "limit": True}, "'limit' has the wrong type"),
            ("events", {"after": BIG}, "'after'"),
            ("events", {"after": -1}, "'after'"),
            ("events", {"limit": 0}, "'limit' must be an integer from 1 to 1000"),
            ("events", {"limit": 1001}, "'limit'"),
            ("accept", {"channel": "public", "msg": HUGE}, "'msg' must be an integer from 1 to"),
            ("decline", {"channel": "public", "msg": BIG}, "'msg'"),
            ("accept", {"channel": "public", "msg": 0}, "'msg'"),
            ("accept", {"channel": "public", "msg": -3}, "'msg'"),
            ("accept", {"channel": "public"}, "needs the field 'msg'"),
            ("act", {"action": {"t": "EndTrading"}, "seq": -1}, "'seq'"),
            ("act", {"action": {"t": "EndTrading"}, "seq": HUGE}, "'seq'"),
        ]
        for t, fields, says in cases:
            rid = f"req-{t}-{len(str(fields))}"
            reply = await ca.send_raw_for(pack({"t": t, "id": rid, **fields}), rid)
            assert reply["t"] == "error" and reply["id"] == rid, (t, fields, reply)
            assert reply["code"] == "bad_request" and says in reply["message"], (t, fields, reply)
        # The largest index is in range: an empty page, an unknown message, a stale position.
        r = await ca.request("history", channel="public", after=MAX_INDEX, limit=500)
        assert r["messages"] == [] and r["last"] == 2
        r = await ca.request("events", after=MAX_INDEX, limit=1000)
        assert r["entries"] == [] and r["last"] == before[0]
        with pytest.raises(ServerError) as e:
            await ca.accept("public", MAX_INDEX)
        assert e.value.code == "unknown_message"
        with pytest.raises(ServerError) as e:
            await ca.act({"t": "EndTrading"}, seq=MAX_INDEX)
        assert e.value.code == "stale"
        assert await snapshot(ca) == before == await snapshot(ca)


@pytest.mark.parametrize("kind", STORES)
async def test_refused_frames_echo_the_id_whenever_it_can_be_read(kind):
    async with serve(kind) as (base, lobby, clients):
        g, ca, cb = await a_game(base, lobby, clients)
        before = await snapshot(ca)
        big_text = "x" * (MAX_FRAME + 10)
        readable = [   # (frame, the id it carries, the code)
            (pack({"t": "chat", "id": 101, "channel": "public", "text": big_text}), 101, "frame_too_large"),
            (pack({"channel": "public", "text": big_text, "t": "chat", "id": "late-id"}), "late-id", "frame_too_large"),
            (pack({"t": "ping", "id": 102}) + b"\xc1", 102, "bad_frame"),               # trailing bytes
            (pack({"t": 7, "id": 103}), 103, "bad_frame"),                              # a type that is no string
            (pack({"t": "launch", "id": 104}), 104, "unknown_type"),
            (json.dumps({"t": "ping", "id": 105}), 105, "bad_frame"),                   # JSON in a text frame
        ]
        for data, rid, code in readable:
            reply = await ca.send_raw_for(data, rid)
            assert reply["t"] == "error" and reply["id"] == rid and reply["code"] == code, (rid, reply)
            assert reply["message"]
        unreadable = [   # no id, or none that can be read: answered with id nil
            (pack({"t": "ping"}), "a request needs an 'id'"),
            (pack({"t": "ping", "id": None}), "a request needs an 'id'"),
            (pack({"t": "ping", "id": 1.5}), "'id' must be an integer or a string"),
            (pack({"t": "ping", "id": "x" * 65}), "'id' must be an integer or a string"),
            (pack({"t": "ping", "id": [1]}), "'id' must be"),
            (b"\xc1" + pack({"t": "ping", "id": 106}), "not msgpack"),
            (pack([{"t": "ping", "id": 107}]), "a frame must be a msgpack map"),
            ("not json at all", "frames are msgpack maps in binary WebSocket messages"),
        ]
        for data, says in unreadable:
            await ca.send_raw(data)
            err = await ca.next_error()
            assert err["t"] == "error" and err["id"] is None and err["code"] == "bad_frame", (data[:30], err)
            assert says in err["message"], (data[:30], err)
        assert (await ca.ping())["t"] == "pong"                    # the connection survives all of it
        assert await snapshot(ca) == before


# -- the HTTP lobby ------------------------------------------------------------------------------------
async def http(base: str, method: str, path: str, **kw) -> tuple[int, dict, aiohttp.ClientResponse]:
    async with aiohttp.ClientSession() as s, s.request(method, base + path, **kw) as r:
        assert r.content_type == "application/json", (method, path, r.status, await r.text())
        return r.status, await r.json(), r


def assert_error(status: int, body: dict, want_status: int, code: str, says: str = "") -> None:
    assert status == want_status, (status, body)
    err = body["error"]
    assert err["code"] == code and err["code"] in ERRORS and isinstance(err["message"], str) and err["message"]
    assert says in err["message"], err


BAD_CREATE = [   # (body, words of the message)
    ({"options": "x"}, "options must be a map"),
    ({"options": []}, "options must be a map"),
    ({"options": 0}, "options must be a map"),
    ({"options": {"max_turns": 2**70}}, "max_turns must be between 0 and 1000"),
    ({"options": {"max_turns": -1}}, "max_turns must be between 0 and 1000"),
    ({"options": {"max_turns": 1001}}, "max_turns must be between 0 and 1000"),
    ({"options": {"max_turns": 2.0}}, "max_turns must be an integer"),
    ({"options": {"max_turns": "3"}}, "max_turns must be an integer"),
    ({"options": {"max_turns": True}}, "max_turns must be an integer"),
    ({"options": {"leader_movement": 0}}, "leader_movement must be between 1 and 20"),
    ({"options": {"postal_movement": 1}}, "postal_movement must be true or false"),
    ({"options": {"no_such_rule": 1}}, "unknown option 'no_such_rule'"),
    ({"options": {"mode": "spi-solitaire"}}, "unknown option 'mode'"),
    ({"players": 2}, "3 to 6 players"),
    ({"players": 2**70}, "3 to 6 players"),
    ({"players": "5"}, "players must be a whole number"),
    ({"seed": -1}, "seed must be"),
    ({"seed": 2**63}, "seed must be"),
    ({"seed": "7"}, "seed must be"),
    ({"bots": []}, "bots must be one of"),
    ({"bots": 0}, "bots must be one of"),
    ({"bots": "nobody"}, "bots must be one of"),
    ({"on_leave": "sulk"}, "on_leave must be"),
    ({"deadline": 0}, "deadline must be"),
    ({"deadline": "soon"}, "deadline must be"),
    ({"name": 0}, "name must be a string"),
    ({"name": False}, "name must be a string"),
    ({"name": "x" * 81}, "name must be a string"),
    ({"bot_seats": ""}, "bot_seats must be a list"),
    ({"bot_seats": "A"}, "bot_seats must be a list"),
    ({"bot_seats": [["A"]]}, "bot_seats must be a list"),
    ({"bot_seats": ["F"]}, "bot_seats must be a list"),
    ({"colour": "red"}, "unknown fields ['colour']"),
]


@pytest.mark.parametrize("kind", STORES)
async def test_bad_lobby_bodies_are_400_bad_request_and_create_nothing(kind):
    async with serve(kind) as (base, lobby, clients):
        games = await lobby.list_games("all")
        for body, says in BAD_CREATE:
            status, got, _ = await http(base, "POST", "/api/games", json=body)
            assert_error(status, got, 400, "bad_request", says)
        for raw in (b"{not json", b"[1, 2]", b"\xff\xfe", b"[" * 60000):
            status, got, _ = await http(base, "POST", "/api/games", data=raw,
                                        headers={"Content-Type": "application/json"})
            assert_error(status, got, 400, "bad_request", "the body must be")
        assert await lobby.list_games("all") == games == []


async def test_a_create_body_with_many_problems_is_refused_naming_every_one():
    """QA: the lobby's refusal named only the first problem of the form (fix it, meet the next).
    The server names every problem of a create body at once, "; " between them (the lobby shows
    one a line), and creates nothing."""
    async with serve("memory") as (base, lobby, clients):
        body = {"players": 9, "seed": -1, "name": 5, "bots": "nobody", "on_leave": "sulk", "deadline": "soon"}
        status, got, _ = await http(base, "POST", "/api/games", json=body)
        assert_error(status, got, 400, "bad_request", "seed must be")
        said = got["error"]["message"]
        for words in ("3 to 6 players", "seed must be", "name must be a string", "bots must be one of",
                      "on_leave must be", "deadline must be"):
            assert words in said, said
        assert len(said.split("; ")) == 6, said
        assert await lobby.list_games("all") == []
        # one problem alone keeps its own rule and code
        status, got, _ = await http(base, "POST", "/api/games", json={"players": 2})
        assert_error(status, got, 400, "bad_request", "3 to 6 players")
        assert got["error"]["rule"] == "004 [2.0]"
        # The edges of the engine's ranges are accepted, and the game keeps them.
        for opts in ({"max_turns": 0}, {"max_turns": 1000, "leader_movement": 20, "postal_movement": True}):
            g = await lobby.create_game(players=3, options=opts)
            assert g["info"]["options"] == opts


@pytest.mark.parametrize("kind", STORES)
async def test_bad_join_bots_and_leave_bodies_change_no_seat(kind):
    async with serve(kind) as (base, lobby, clients):
        g = await lobby.create_game(players=3)
        gid, admin = g["game"], g["admin_token"]
        seat = await lobby.join(gid, name="Ann")
        info = await lobby.game(gid)
        bad = [
            (f"/api/games/{gid}/join", {"seat": "B", "nam": "typo"}, {}, "unknown fields ['nam']"),
            (f"/api/games/{gid}/join", {"seat": ["B"]}, {}, "seat must be one of"),
            (f"/api/games/{gid}/join", {"name": 5}, {}, "name must be a string"),
            (f"/api/games/{gid}/bots", {"kind": []}, {"Authorization": f"Bearer {admin}"}, "bots must be one of"),
            (f"/api/games/{gid}/bots", {"kind": 3}, {"Authorization": f"Bearer {admin}"}, "bots must be one of"),
            (f"/api/games/{gid}/bots", {"seats": "B"}, {"Authorization": f"Bearer {admin}"}, "seats must be a list"),
            (f"/api/games/{gid}/bots", {"seat": ["B"]}, {"Authorization": f"Bearer {admin}"}, "unknown fields ['seat']"),
            (f"/api/games/{gid}/leave", {"tok": seat["token"]}, {}, "unknown fields ['tok']"),
            # (a seat's field name: the error says where the admin token goes; operator QA)
            (f"/api/games/{gid}/bots", {"token": admin}, {}, "the game's admin token goes in 'admin_token'"),
        ]
        for path, body, headers, says in bad:
            status, got, _ = await http(base, "POST", path, json=body, headers=headers)
            assert_error(status, got, 400, "bad_request", says)
        assert await lobby.game(gid) == info
        assert info["seats"]["B"] == {"kind": "open"} and info["seats"]["A"]["kind"] == "human"


@pytest.mark.parametrize("kind", STORES)
async def test_every_http_error_is_json(kind):
    async with serve(kind) as (base, lobby, clients):
        status, got, _ = await http(base, "GET", "/api/nothing")
        assert_error(status, got, 404, "not_found", "/api/nothing")
        status, got, _ = await http(base, "GET", "/no/such/asset.js")
        assert_error(status, got, 404, "not_found")
        status, got, r = await http(base, "DELETE", "/api/games")
        assert_error(status, got, 405, "method_not_allowed")
        assert "POST" in r.headers["Allow"] and "GET" in r.headers["Allow"]
        status, got, _ = await http(base, "PUT", "/healthz")
        assert_error(status, got, 405, "method_not_allowed")
        status, got, _ = await http(base, "POST", "/api/games", data=b"{" + b" " * 70000 + b"}",
                                    headers={"Content-Type": "application/json"})
        assert_error(status, got, 413, "body_too_large", "65536")
        status, got, _ = await http(base, "GET", "/api/games/no-such-game")
        assert_error(status, got, 404, "unknown_game")
        status, got, _ = await http(base, "GET", "/api/games", params={"status": "sideways"})
        assert_error(status, got, 400, "bad_request")
        assert await lobby.list_games("all") == []
