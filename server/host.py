"""What the parts of a game runtime may use of it, as typing protocols.

A :class:`~rcw.server.runtime.GameRuntime` is composed of parts (``channels``, ``proposals``,
``driver``) that call back into it.  They see it through :class:`Host` (and the process through
:class:`Hub`) instead of importing the runtime, so that the modules of the server import one
another in one direction only (lobby > runtime > parts > host)."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, Protocol

from rcw.server.config import Config
from rcw.server.metrics import Metrics
from rcw.server.store import Store

from rcw.actions import Action, Event
from rcw.game import Game


class Hub(Protocol):
    """The server process (:class:`rcw.server.lobby.Hub`) as a game sees it."""

    store: Store
    config: Config
    proc: str
    metrics: Metrics
    bot_workers: Any       # rcw.server.botworker.BotWorkers, or None: the bots decide in the event loop
    bot_turns: Any         # rcw.server.driver.BotTurns: the bots' actions, one per pass of the event loop

    def spawn(self, coro: Coroutine) -> asyncio.Task: ...


class ChannelsPart(Protocol):
    records: dict[str, dict]


class ProposalsPart(Protocol):
    def seen(self, channel: str, msg: dict) -> None: ...
    def note_answer(self, action: Action, events: list[Event], seq: int, by: str) -> None: ...
    async def keep_pact(self, channel: str, mid: int, prop: dict, poster: str, seat: str) -> dict: ...


class DriverPart(Protocol):
    driving: bool


class Host(Protocol):
    """One game's runtime (:class:`rcw.server.runtime.GameRuntime`) as its parts see it."""

    hub: Hub
    store: Store
    gid: str
    meta: dict
    seats: dict[str, dict]
    game: Game | None
    seq: int
    lock: asyncio.Lock
    conns: set[Any]
    loaded: bool
    reported: dict[str, str]
    topic: str
    closed: bool
    channels: ChannelsPart
    proposals: ProposalsPart
    driver: DriverPart

    def status(self) -> str: ...

    async def submit(self, action: Action, by: str, expect_seq: int | None = None) -> tuple[int, list[Event]]: ...

    async def commit_locked(self, action: Action, by: str, expect_seq: int | None = None,
                            kind: str = "turn") -> tuple[int, list[Event]]: ...

    async def ensure_current(self) -> None: ...
