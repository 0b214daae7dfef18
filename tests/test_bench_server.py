"""bench/server.py runs end to end with tiny numbers and reports every figure of its targets."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
from server_helpers import REDIS_URL, redis_reachable

pytestmark = pytest.mark.skipif(not redis_reachable(), reason="no Redis on 127.0.0.1:6379")

BENCH = Path(__file__).resolve().parent.parent / "bench" / "server.py"


def _finite(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def test_bench_server_reports_every_figure():
    out = subprocess.run([sys.executable, str(BENCH), "--clients", "20", "--games", "2", "--seconds", "3",
                          "--baseline-seconds", "1.5", "--warmup", "1", "--redis", REDIS_URL, "--json"],
                         capture_output=True, text=True, timeout=90)
    assert out.returncode == 0, out.stderr[-3000:]
    r = json.loads(out.stdout)
    assert (r["clients"], r["games"], r["spectators"], r["chatters"]) == (20, 2, 18, 2)
    # throughput: chat reached the spectators, and the raw fan-out baseline with as many subscribers
    assert r["chat_deliveries_per_s"] > 0 and r["chat_posts_per_s"] > 0
    assert r["raw_redis_fanout"]["subscribers"] == 18 and r["raw_redis_fanout"]["deliveries_per_s"] > 0
    assert _finite(r["vs_raw_fanout"]) and r["vs_raw_fanout"] > 0
    # latencies, in ms: p50 <= p99, both positive and under a minute
    for k in ("chat_latency_ms", "ping_idle_ms", "ping_hostile_ms"):
        assert _finite(r[k]["p50"]) and _finite(r[k]["p99"]), (k, r[k])
        assert 0 < r[k]["p50"] <= r[k]["p99"] < 60_000, (k, r[k])
    assert r["ping_idle_ms"]["n"] > 10 and r["ping_hostile_ms"]["n"] > 5
    assert r["hostile_replies_per_s"] > 0
    # the two phases: saturated (closed loop: throughput, informative latencies) and open loop (offered load)
    sat, o = r["saturated"], r["open_loop"]
    for x in (sat["chat_latency_ms"], sat["ping_ms"]):
        assert _finite(x["p50"]) and _finite(x["p99"]) and 0 < x["p50"] <= x["p99"] < 60_000, x
    assert o["chat_rate"] == 2.0 and o["offered_posts_per_s"] == 4.0 and o["offered_deliveries_per_s"] == 36.0
    assert o["posts_per_s"] > 0 and o["deliveries_per_s"] > 0
    # CPU: the server's per thousand deliveries, and the shares that say whether the clients starved it
    assert _finite(r["server_cpu_s_per_1000_deliveries"]) and r["server_cpu_s_per_1000_deliveries"] > 0
    assert 0 < r["server_cpu_share"] <= r["cpus"] + 0.5 and 0 < r["bench_cpu_share"] <= 1.5
    assert isinstance(r["starved"], bool) and isinstance(r["bench_cpu_bound"], bool)
    # memory, in MB: the server's RSS at each step, and the per-connection and per-game figures
    m = r["memory_mb"]
    assert 10 < m["start"] < 2000 and m["live_games"] > 0
    assert _finite(m["per_1000_idle_connections"]) and _finite(m["per_live_game"])
    assert -50 < m["per_1000_idle_connections"] < 2000 and -50 < m["per_live_game"] < 200
    assert set(r["targets"]) == {"ping_p99", "ping_hostile_p99", "chat_p99", "vs_raw_fanout", "mb_per_1000_idle",
                                 "mb_per_live_game"}
    assert r["disconnects"] == 0
