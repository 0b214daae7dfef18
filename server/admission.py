"""Admission control: what one client may ask of a server process, and how much CPU work runs
beside the event loop.

- Token buckets (:meth:`Store.take_token`, shared by every process of a Redis store) per client
  address and per token: ``create`` (creating a game, filling seats with bots) and ``costly``
  (the ``events`` request, ``GET .../view?seq=N``, ``GET .../record``).  An empty bucket
  answers ``rate_limited`` (HTTP 429) and changes nothing.
- Caps per process: live games loaded (``max_games``) and games whose bots run here
  (``max_bot_games``); past a cap, creating (or filling with bots) answers ``busy`` (HTTP 503).
- :meth:`Admission.offload`: CPU work a request cannot avoid (a past view rebuilt from the
  nearest snapshot) runs in a small pool of worker processes (never on the event loop, and not
  in a thread holding its interpreter lock); when too much is
  already waiting it answers ``busy``.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from rcw.server.protocol import ProtocolError
from rcw.server.seats import token_hash

T = TypeVar("T")


class Admission:
    """One process's limits (the :class:`~rcw.server.config.Config` knobs)."""

    def __init__(self, hub: Any) -> None:
        self.hub = hub
        self.pool: concurrent.futures.ProcessPoolExecutor | None = None
        self.waiting = 0

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)

    # -- rate limits ------------------------------------------------------------------------
    async def take(self, what: str, addr: str | None, token: str | None = None) -> None:
        """Take one token of ``what`` (``create`` or ``costly``) for the address and the token;
        ``rate_limited`` if either bucket is empty."""
        cfg = self.hub.config
        rate, burst = (cfg.create_rate, cfg.create_burst) if what == "create" else (cfg.costly_rate, cfg.costly_burst)
        if rate <= 0:
            return
        keys = [f"adm:{what}:ip:{addr or '?'}"]
        if isinstance(token, str) and token:
            keys.append(f"adm:{what}:tok:{token_hash(token)[:24]}")
        for key in keys:
            if not await self.hub.store.take_token(key, rate, burst):
                self.hub.metrics.limited(what)
                wait = max(0.1, round(1 / rate, 1))     # (QA: "retry in 0 s" with retry_after 0.5)
                raise ProtocolError("rate_limited", f"too many {'games created' if what == 'create' else 'costly requests'}"
                                    f" from this {'token' if ':tok:' in key else 'address'}; retry in "
                                    f"{wait:g} s", retry_after=wait)

    # -- caps ---------------------------------------------------------------------------------
    def live_games(self) -> int:
        return sum(1 for rt in list(self.hub.runtimes.values()) if rt.game is None or not rt.game.over)

    def bot_games(self) -> int:
        """Games whose bots run here: driven by this process, not over, with a bot seat."""
        return sum(1 for rt in list(self.hub.runtimes.values()) if rt.has_bot_work())

    def check_games(self, bots: bool) -> None:
        cfg = self.hub.config
        if cfg.max_games and self.live_games() >= cfg.max_games:
            self.hub.metrics.limited("games")
            raise ProtocolError("busy", f"this server runs {cfg.max_games} live games already; retry later")
        if bots:
            self.check_bot_games()

    def check_bot_games(self) -> None:
        cfg = self.hub.config
        if cfg.max_bot_games and self.bot_games() >= cfg.max_bot_games:
            self.hub.metrics.limited("bot_games")
            raise ProtocolError("busy", f"this server runs bots in {cfg.max_bot_games} game{'s' if cfg.max_bot_games != 1 else ''} already; retry later")

    # -- CPU work off the event loop -------------------------------------------------------------
    async def offload(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` (a module-level function, picklable arguments) in the rebuild worker
        processes; ``busy`` if too many wait already.  Processes, not threads: a replay in a
        thread would hold the interpreter lock the event loop needs."""
        n = max(1, self.hub.config.costly_workers)
        if self.pool is None:
            self.pool = concurrent.futures.ProcessPoolExecutor(n, mp_context=multiprocessing.get_context("forkserver"),
                                                               initializer=exit_with, initargs=(os.getpid(),))
        if self.waiting >= 8 * n:
            self.hub.metrics.limited("rebuild")
            raise ProtocolError("busy", "the server is rebuilding many past views; retry later")
        self.waiting += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self.pool, fn, *args)
        finally:
            self.waiting -= 1


def exit_with(server_pid: int, every: float = 1.0) -> None:
    """A rebuild worker's initializer: the worker exits once the server process ``server_pid`` is
    gone.  A server stopped cleanly shuts its pool down; one killed (kill -9, the OOM killer)
    cannot, and its workers would otherwise live on under init, holding the forkserver and the
    resource tracker alive with them (about 70 MB a crash)."""
    def watch() -> None:
        while True:
            time.sleep(every)
            try:
                os.kill(server_pid, 0)
            except ProcessLookupError:
                os._exit(0)
            except PermissionError:         # (the number is another user's process now: gone too)
                os._exit(0)
    threading.Thread(target=watch, name="rcw-exit-with-server", daemon=True).start()
