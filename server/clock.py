"""A game's deadlines as absolute times in the store, and the pauses that move them (issue 16).

Every deadline the server keeps for a game (a live game's human seat that owes a decision, a
trade offer made to a human seat, a postal phase) is a *key* with an absolute time in the
store's record ``timers`` of the game (:meth:`Store.hash_put`), not only an in-process timer:
the process that drives the game (:class:`~rcw.server.driver.Driver`) arms its timers from
these times, so a restart, or a fail-over to another process, keeps every deadline where it
was (a deadline already passed fires at once).

A pause (:mod:`rcw.server.absence`) adds its length to the game's ``_shift`` (an atomic
increment, so two processes cannot lose one); each key remembers the shift when it was set,
and its time is ``at + (shift now - shift then)``: every deadline running during a pause moves
by the pause, later ones do not.  After every change the clock publishes a ``clock`` notice
on the game's topic: each process reloads the record and pushes a ``deadline`` frame to its
clients (docs/protocol.md).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from rcw.server.protocol import now_ms, pack

RECORD = "timers"
SHIFT = "_shift"


class Clock:
    """One game's deadlines (see the module); held by its :class:`~rcw.server.runtime.GameRuntime`."""

    def __init__(self, rt: Any) -> None:
        self.rt = rt
        self.due: dict[str, list[int]] = {}     # key -> [at ms, shift when set]
        self.shift = 0                           # ms the game's deadlines were moved by pauses
        self._set: asyncio.Event | None = None   # (:meth:`until`'s waiters: set when a key is)

    async def load(self) -> None:
        h = await self.rt.store.hash_all(self.rt.gid, RECORD)
        self.shift = int(h.pop(SHIFT, 0) or 0)
        self.due = {k: list(v) for k, v in h.items() if isinstance(v, list) and len(v) == 2}
        self._wake()

    def at(self, key: str) -> int | None:
        """When ``key`` falls due (ms since the epoch), None if it is not set."""
        d = self.due.get(key)
        return None if d is None else d[0] + self.shift - d[1]

    def public(self) -> dict[str, int]:
        """Every deadline by key (``seat:A``, ``offer:3``, ``phase:2:first``): what clients see."""
        return {k: self.at(k) for k in sorted(self.due)}

    async def arm(self, key: str, seconds: float) -> int:
        """The time ``key`` falls due: the stored one if set (before a restart, or by another
        process), else now + ``seconds``, stored."""
        at = self.at(key)
        if at is None:
            at = now_ms() + int(seconds * 1000)
            self.due[key] = [at, self.shift]
            self._wake()
            await self.rt.store.hash_put(self.rt.gid, RECORD, {key: self.due[key]})
            await self.changed()
        return at

    def _wake(self) -> None:
        if self._set is not None:
            self._set.set()
            self._set = None

    async def until(self, ready: Callable[[], bool], timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for ``ready()``, asked again each time a deadline is set
        here (by this process's driver, or loaded after another's); its last answer."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not ready():
            left = end - loop.time()
            if left <= 0:
                return False
            if self._set is None:
                self._set = asyncio.Event()
            try:
                await asyncio.wait_for(self._set.wait(), left)
            except TimeoutError:
                return ready()
        return True

    async def drop(self, keys: list[str]) -> None:
        keys = [k for k in keys if k in self.due]
        if keys:
            for k in keys:
                del self.due[k]
            await self.rt.store.hash_put(self.rt.gid, RECORD, dict.fromkeys(keys))
            await self.changed()

    def forget(self, key: str) -> None:
        """Drop ``key`` now (its store record in the background): a seat acted."""
        if key in self.due:
            del self.due[key]
            self.rt.hub.spawn(self._forget(key))

    async def _forget(self, key: str) -> None:
        if key not in self.due:
            await self.rt.store.hash_put(self.rt.gid, RECORD, {key: None})
            await self.changed()

    async def move(self, ms: int, why: dict | None = None) -> None:
        """Move every running deadline by ``ms`` (a pause; ``why``: who paused, for how long)."""
        self.shift = await self.rt.store.hash_incr(self.rt.gid, RECORD, SHIFT, int(ms))
        await self.changed(why)

    async def changed(self, why: dict | None = None) -> None:
        await self.rt.store.publish(self.rt.topic, pack({"k": "clock", "why": why}))
