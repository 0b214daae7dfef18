"""Observability: ``/metrics`` (Prometheus text format) scraped from a real server after real
WebSocket traffic, and ``rcw serve --log-format json`` (one JSON object per log line)."""

from __future__ import annotations

import asyncio
import io
import json
import logging

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families
from rcw.server import logs
from rcw.server.client import GameClient, Lobby, ServerError
from rcw.server.config import Config
from rcw.server.store import MemoryStore, RedisStore
from server_helpers import REDIS_URL, ServerProcess, destroy_prefix, needs_redis, running_server, unique_prefix


async def scrape(base: str) -> dict[tuple[str, tuple], float]:
    """Every sample of ``/metrics``: ``(name, sorted labels) -> value``."""
    async with aiohttp.ClientSession() as http, http.get(base + "/metrics") as r:
        assert r.status == 200
        assert r.headers["Content-Type"].startswith("text/plain; version=0.0.4")
        text = await r.text()
    out = {}
    for fam in text_string_to_metric_families(text):
        for s in fam.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def val(m: dict, name: str, **labels) -> float:
    return m.get((name, tuple(sorted(labels.items()))), 0.0)


@pytest.mark.parametrize("kind", ["memory", pytest.param("redis", marks=needs_redis)])
async def test_metrics_count_real_websocket_traffic(kind):
    prefix = unique_prefix("metrics")
    store = MemoryStore() if kind == "memory" else RedisStore(REDIS_URL, prefix)
    try:
        async with running_server(store, Config()) as srv, Lobby(srv.base) as lobby:
            before = await scrape(srv.base)
            assert val(before, "rcw_connections") == 0 and val(before, "rcw_games_live") == 0
            assert val(before, "rcw_store_info", kind=kind, mode="single") == 1

            # A game of bots, played to its end while nobody watches.
            bots = await lobby.create_game(players=3, seed=7, bot_seats=["A", "B", "C"], options={"max_turns": 1})
            await asyncio.wait_for(_until_over(lobby, bots["game"]), 60)
            # A game of three humans: only Ann connects, so nothing moves but her.
            g = await lobby.create_game(players=3, seed=11, options={"max_turns": 2})
            a, *_ = [await lobby.join(g["game"], name=n) for n in ("Ann", "Bob", "Cid")]
            with pytest.raises(ServerError):
                await lobby.game("no-such-game")                               # an HTTP error: unknown_game
            async with await GameClient.connect(srv.base, g["game"], a["token"]) as c, \
                    await GameClient.connect(srv.base, g["game"]) as spectator:
                await c.send_raw(b"\xc1 not msgpack")                          # a bad frame
                assert (await c.next_error())["code"] == "bad_frame"
                with pytest.raises(ServerError) as e:
                    await c.chat("nope", "hello")
                assert e.value.code == "unknown_channel"
                await c.chat("public", "hello all")
                assert c.my_turn and c.legal
                seq = c.seq
                await c.act(c.legal[0], seq=seq)                               # a player's action
                await spectator.wait_for(lambda s: s.seq > seq, 10)
                await spectator.wait_for(lambda s: 1 in s.messages.get("public", {}), 10)
                m = await scrape(srv.base)

                assert val(m, "rcw_connections") == 2
                assert val(m, "rcw_connections_opened_total") == 2
                assert val(m, "rcw_frames_received_total", type="hello") == 2
                assert val(m, "rcw_frames_received_total", type="act") == 1
                assert val(m, "rcw_frames_received_total", type="chat") == 2
                assert val(m, "rcw_frames_sent_total", type="welcome") == 2
                assert val(m, "rcw_frames_sent_total", type="update") == 2         # Ann's action, to both
                assert val(m, "rcw_frames_sent_total", type="msg") == 2            # "hello all", to both
                assert val(m, "rcw_frames_sent_total", type="error") == 2
                assert val(m, "rcw_errors_total", code="bad_frame", via="ws") == 1
                assert val(m, "rcw_errors_total", code="unknown_channel", via="ws") == 1
                assert val(m, "rcw_errors_total", code="unknown_game", via="http") == 1
                assert val(m, "rcw_actions_total", by="player") == 1
                assert val(m, "rcw_action_seconds_count", by="player") == 1
                assert 0 < val(m, "rcw_action_seconds_sum", by="player") < 5
                assert val(m, "rcw_action_seconds_bucket", by="player", le="+Inf") == 1
                n_bot = val(m, "rcw_actions_total", by="bot")
                assert n_bot >= 10 and val(m, "rcw_action_seconds_count", by="bot") == n_bot
                assert val(m, "rcw_bot_decision_seconds_count") >= n_bot
                assert val(m, "rcw_chat_seconds_count", type="chat") == 2
                assert val(m, "rcw_games_loaded") == 2 and val(m, "rcw_games_driving") >= 1
                for _ in range(50):                  # (the bots' game is marked over just after its last action)
                    if val(m, "rcw_games_live") == 1:
                        break
                    await asyncio.sleep(0.1)
                    m = await scrape(srv.base)
                assert val(m, "rcw_games_live") == 1
                if kind == "redis":
                    assert val(m, "rcw_redis_seconds_count", op="append_action") == n_bot + 1
                    assert val(m, "rcw_redis_seconds_count", op="chat_append") == 1
                    assert val(m, "rcw_redis_seconds_count", op="create_game") == 2
                    assert 0 < val(m, "rcw_redis_seconds_sum", op="append_action") < 10
                else:
                    assert not [k for k in m if k[0].startswith("rcw_redis_seconds")]
            for _ in range(50):
                after = await scrape(srv.base)
                if val(after, "rcw_connections") == 0:
                    break
                await asyncio.sleep(0.05)
            assert val(after, "rcw_connections") == 0 and val(after, "rcw_connections_opened_total") == 2
    finally:
        if kind == "redis":
            await destroy_prefix(prefix)


async def test_two_apps_in_one_process_keep_their_own_metrics():
    async with running_server(MemoryStore()) as one, running_server(MemoryStore()) as two, Lobby(one.base) as lobby:
        g = await lobby.create_game(players=3, bot_seats=["A", "B", "C"], options={"max_turns": 1})
        async with await GameClient.connect(one.base, g["game"]):
            m1, m2 = await scrape(one.base), await scrape(two.base)
        assert val(m1, "rcw_connections_opened_total") == 1 and val(m1, "rcw_games_live") == 1
        assert val(m2, "rcw_connections_opened_total") == 0 and val(m2, "rcw_games_live") == 0
        assert one.hub.metrics.registry is not two.hub.metrics.registry


def test_json_log_lines_carry_the_message_the_exception_and_extra_fields():
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logs.JsonFormatter())
    log = logging.getLogger("rcw.server.test-json")
    log.addHandler(handler)
    log.setLevel(logging.DEBUG)
    try:
        log.info("game %s: %d actions", "Xy3", 12, extra={"game": "Xy3"})
        try:
            raise ValueError("boom")
        except ValueError:
            log.exception("request failed")
    finally:
        log.removeHandler(handler)
    lines = out.getvalue().splitlines()
    assert len(lines) == 2
    first, second = (json.loads(x) for x in lines)
    assert first["msg"] == "game Xy3: 12 actions" and first["level"] == "INFO" and first["logger"] == log.name
    assert first["game"] == "Xy3" and first["ts"].endswith("Z") and isinstance(first["pid"], int)
    assert second["level"] == "ERROR" and "ValueError: boom" in second["exc"] and "Traceback" in second["exc"]
    with pytest.raises(ValueError):
        logs.configure("INFO", "xml")


async def test_rcw_serve_log_format_json_writes_one_json_object_per_line():
    p = ServerProcess("--log-format", "json", "--log-level", "DEBUG")
    try:
        await p.start()
        async with Lobby(p.base) as lobby:
            g = await lobby.create_game(players=3, bot_seats=["A", "B", "C"], options={"max_turns": 1})
            await asyncio.wait_for(_until_over(lobby, g["game"]), 60)
    finally:
        await p.stop()
    lines = [x for x in p.log.read_text().splitlines() if x.strip()]
    assert lines, "nothing was logged"
    records = [json.loads(x) for x in lines]            # every line is one JSON object
    assert all({"ts", "level", "logger", "msg", "pid"} <= set(r) for r in records)
    started = [r for r in records if r["logger"] == "rcw.server" and r["msg"].startswith("listening on")]
    assert started and started[0]["level"] == "INFO" and started[0]["port"] == int(p.base.rsplit(":", 1)[1])
    assert started[0]["store"] == "memory"
    assert any(r["logger"] == "rcw.server" and r["msg"] == "stopped" for r in records)
    # the game a line names is a field of its own, for a shipper to index (QA as an operator)
    about = [r for r in records if g["game"] in r["msg"]]
    assert about and all(r.get("game") == g["game"] for r in about), about[:3]
    assert not [r for r in records if "game" in r and r["game"] not in r["msg"]]


async def _until_over(lobby: Lobby, gid: str) -> None:
    while (await lobby.game(gid))["status"] != "over":
        await asyncio.sleep(0.1)
