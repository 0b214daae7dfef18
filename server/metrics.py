"""The server's metrics, served at ``/metrics`` in the Prometheus text format (prometheus-client).

One :class:`Metrics` per :class:`~rcw.server.lobby.Hub` (so per application), each with its own
registry: several applications in one process (the tests) never share a counter.  The rest of
the server calls a few hooks: the WebSocket connection (:meth:`Metrics.request`,
:meth:`Metrics.sent`, :meth:`Metrics.opened`), the runtime (:meth:`Metrics.action`), the driver
(``bot_decision``), the store (:meth:`Metrics.redis`, through ``Store.observe``) and the lobby's
HTTP errors (:func:`middleware`); the gauges are read from the hub when ``/metrics`` is scraped.

=====================================  =========  ==========================================================
metric                                 type       what
=====================================  =========  ==========================================================
``rcw_connections``                    gauge      open WebSocket connections
``rcw_connections_opened_total``       counter    WebSocket connections opened
``rcw_frames_received_total{type}``    counter    client requests handled, by frame type (``act``, ``chat``...)
``rcw_frames_sent_total{type}``        counter    frames queued to clients, by type (``update``, ``msg``, ``error``...)
``rcw_errors_total{code,via}``         counter    errors answered, by code, ``via`` ``ws`` (error frames) or ``http``
``rcw_actions_total{by}``              counter    actions this process accepted, by ``player``, ``bot``, ``deadline``...
``rcw_action_seconds{by}``             histogram  committing an accepted action: validate, append to the log, push
``rcw_chat_seconds{type}``             histogram  a chat request (``chat``, ``accept``, ``decline``, ``open_channel``),
                                                  from its frame to its reply
``rcw_bot_decision_seconds``           histogram  a bot choosing its next action (or a deadline's bot)
``rcw_redis_seconds{op}``              histogram  round trip of each Redis call, by store operation
``rcw_refused_total{limit}``           counter    requests refused by admission control (``create``, ``costly``,
                                                  ``connections``: ``rate_limited``; ``games``, ``bot_games``,
                                                  ``rebuild``, ``pending``: ``busy``; ``slow_reader``: dropped)
``rcw_requests_dropped_total``         counter    requests read from a connection that closed before they were handled
``rcw_games_live``                     gauge      games not over (all processes: read from the store; its last
                                                  reading while the store is down)
``rcw_store_up``                       gauge      1 if the store answered at the last scrape (every primary of a
                                                  Redis Cluster), else 0
``rcw_games_loaded``                   gauge      games this process holds a replica of
``rcw_games_driving``                  gauge      games whose bots and deadlines run in this process
``rcw_store_info{kind,mode}``          gauge      1; ``kind`` ``memory`` or ``redis``, ``mode`` ``single`` or ``cluster``
``process_*``                                     the process's CPU, memory and file descriptors
=====================================  =========  ==========================================================
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable
from typing import Any, TypeVar

from aiohttp import web
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, ProcessCollector
from prometheus_client.exposition import choose_encoder
from rcw.server.protocol import CLIENT_TYPES

log = logging.getLogger("rcw.server")
T = TypeVar("T")
#: The process's hub (:class:`rcw.server.lobby.Hub`; not imported: the hub imports this module).
Hub = Any

#: Requests timed as chat (``rcw_chat_seconds``).
CHAT_TYPES = ("chat", "accept", "decline", "open_channel")
LATENCY = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
REDIS_LATENCY = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)


class Metrics:
    """The instruments of one server application, in their own registry."""

    def __init__(self) -> None:
        r = self.registry = CollectorRegistry()
        self.connections = Gauge("rcw_connections", "Open WebSocket connections", registry=r)
        self.connections_opened = Counter("rcw_connections_opened", "WebSocket connections opened", registry=r)
        self.frames_received = Counter("rcw_frames_received", "Client requests handled, by frame type", ["type"],
                                       registry=r)
        self.frames_sent = Counter("rcw_frames_sent", "Frames queued to clients, by frame type", ["type"], registry=r)
        self.errors = Counter("rcw_errors", "Errors answered, by code and by way (ws: error frame, http: lobby)",
                              ["code", "via"], registry=r)
        self.actions = Counter("rcw_actions", "Actions this process accepted, by who chose them", ["by"], registry=r)
        self.action_seconds = Histogram("rcw_action_seconds", "Committing an accepted action (validate, append to "
                                        "the log, push), by who chose it", ["by"], buckets=LATENCY, registry=r)
        self.chat_seconds = Histogram("rcw_chat_seconds", "Chat requests, from the frame to the reply, by frame type",
                                      ["type"], buckets=LATENCY, registry=r)
        self.bot_decision = Histogram("rcw_bot_decision_seconds", "A bot choosing its next action", buckets=LATENCY,
                                      registry=r)
        self.redis_seconds = Histogram("rcw_redis_seconds", "Round trip of Redis calls, by store operation", ["op"],
                                       buckets=REDIS_LATENCY, registry=r)
        self.refused = Counter("rcw_refused", "Requests refused by admission control, by limit", ["limit"],
                               registry=r)
        self.dropped = Counter("rcw_requests_dropped", "Requests dropped: their connection closed first", registry=r)
        self.games_live = Gauge("rcw_games_live", "Games not over (every process's, from the store)", registry=r)
        self.store_up = Gauge("rcw_store_up", "1 if the store answered at the last scrape, else 0", registry=r)
        self.games_loaded = Gauge("rcw_games_loaded", "Games this process holds a replica of", registry=r)
        self.games_driving = Gauge("rcw_games_driving", "Games whose bots and deadlines run in this process",
                                   registry=r)
        self.notifications = Counter("rcw_notifications", "Notifications sent, by way (email, webhook) and outcome "
                                     "(sent, failed)", ["way", "outcome"], registry=r)
        self.store_info = Gauge("rcw_store_info", "The store: kind (memory, redis) and mode (single, cluster)",
                                ["kind", "mode"], registry=r)
        ProcessCollector(registry=r)
        self._sent: dict[str, Any] = {}              # frame type -> its counter (the hot path)
        self._errors: dict[tuple[str, str], Any] = {}

    # -- hooks ------------------------------------------------------------------------------------
    def opened(self) -> None:
        """A WebSocket connection was opened."""
        self.connections_opened.inc()

    async def request(self, t: str, handling: Awaitable[T]) -> T:
        """Await a client request's handler: count it, time it if it is a chat request."""
        self.frames_received.labels(t if t in CLIENT_TYPES else "other").inc()
        if t not in CHAT_TYPES:
            return await handling
        t0 = time.perf_counter()
        try:
            return await handling
        finally:
            self.chat_seconds.labels(t).observe(time.perf_counter() - t0)

    def sent(self, frame: dict, n: int = 1) -> None:
        """``frame`` was queued to ``n`` clients (an ``error`` frame also counts its code)."""
        if n <= 0:
            return
        t = frame.get("t", "?")
        c = self._sent.get(t)
        if c is None:
            c = self._sent[t] = self.frames_sent.labels(t)
        c.inc(n)
        if t == "error":
            self.error(str(frame.get("code")), "ws")

    def error(self, code: str, via: str) -> None:
        c = self._errors.get((code, via))
        if c is None:
            c = self._errors[(code, via)] = self.errors.labels(code, via)
        c.inc()

    def action(self, by: str, seconds: float) -> None:
        """An action was accepted (appended to the log by this process) ``seconds`` after its commit began."""
        self.actions.labels(by).inc()
        self.action_seconds.labels(by).observe(seconds)

    def limited(self, limit: str) -> None:
        """A request was refused by admission control (server/admission.py)."""
        self.refused.labels(limit).inc()

    def redis(self, op: str, seconds: float) -> None:
        """A Redis call's round trip (the store's ``observe`` hook)."""
        self.redis_seconds.labels(op).observe(seconds)

    # -- scraping -----------------------------------------------------------------------------------
    async def refresh(self, hub: Hub) -> None:
        """Read the gauges from ``hub`` (and its store) now."""
        self.connections.set(len(hub.conns))
        self.games_loaded.set(len(hub.runtimes))
        self.games_driving.set(sum(1 for rt in list(hub.runtimes.values()) if rt.driver.driving))
        store = hub.store
        self.store_info.labels(store.kind, store.mode).set(1)
        try:
            # (in time: a Redis that does not answer would hold the scrape past the scraper's own
            # timeout, and every metric would be lost in the outage, review)
            await asyncio.wait_for(store.check(), 2)
            self.games_live.set(await asyncio.wait_for(store.count_live(), 2))
            self.store_up.set(1)
        except Exception as e:   # the store is down: report the rest (and /healthz says degraded)
            # (QA: rcw_games_live read 0 in an outage, as if every game had ended: it keeps its last
            # reading, and rcw_store_up says the store is down)
            self.store_up.set(0)
            log.warning("metrics: the store does not answer: %s", e)


def handler(hub: Hub):
    """The ``GET /metrics`` handler for ``hub``'s application."""

    async def metrics(request: web.Request) -> web.Response:
        await hub.metrics.refresh(hub)
        # The Prometheus text format 0.0.4 unless the scraper asks for OpenMetrics (Accept header).
        encode, content_type = choose_encoder(request.headers.get("Accept", ""))
        return web.Response(body=encode(hub.metrics.registry), headers={"Content-Type": content_type})

    return metrics


def middleware(hub: Hub):
    """Counts the lobby's error answers (``{"error": {"code": ...}}``, status 4xx/5xx) by code."""

    @web.middleware
    async def count_errors(request: web.Request, handler):
        resp = await handler(request)
        if resp.status >= 400 and isinstance(resp, web.Response) and resp.content_type == "application/json":
            try:
                code = json.loads(resp.body)["error"]["code"]
            except (TypeError, ValueError, KeyError):
                code = str(resp.status)
            hub.metrics.error(str(code), "http")
        return resp

    return count_errors
