"""Bot decisions off the event loop: a fixed set of worker processes (``rcw serve --bot-workers N``).

Agents keep state between calls (plans, the events they observed) and the match loop
(:class:`rcw.bots.match.Match`) keeps bookkeeping that every applied action changes, so a
game's bots cannot be asked by whichever process is free.  Instead every game this server
process drives is bound to one worker (a hash of its id), and that worker keeps, for the
game, a copy of the game (``rcw.modes.from_bytes`` and ``Game.apply``), its match and its
agents (built with the seeds the in-process driver uses).  The match keeps the game's one
Player Cooperation Table (:mod:`rcw.bots.cooperation`) and hands it to every SDT agent of the
game, a deadline's bot included: all the game's agents live in this one worker process (a new
match rebuilds the table from the game's record).  The driver
(:class:`~rcw.server.driver.Driver`) feeds it, in order, through the worker's stdin:

- ``reset``: the game as the replica has it (its bytes and seq) and the bot seats, whenever
  the replica is rebuilt or the worker does not hold the game yet (a new match unless the
  worker holds one already);
- ``applied``: every action applied to the replica (by anyone, in any process), its kind and
  whether an agent chose it (what :meth:`Match.applied` needs);
- ``seats``: the bot seats when the seat records change; ``stop`` / ``close`` when the driver
  stops driving / the game is unloaded;
- ``pact`` / ``hear``: a pact accepted in chat, a human's decline of a bot's card (issue 18);

and asks it ``step`` (:meth:`Match.next_step`, with what the bots said, ``Match.messages``,
and how long an agent waits for humans), ``consider`` (a pact put to a bot), ``choose`` and
``react`` (a deadline's bot)
with the seq it expects the worker's copy to be at; the answers come back on the worker's
stdout.  The driver awaits them without blocking the event loop and commits the action
through the path of every action.  A worker whose copy does not match answers ``desync`` and
the driver resets it.  A worker that dies (or hangs past :data:`CALL_TIMEOUT`) is replaced at
once; its games are reset on their next step (with new agents: their memory was lost).

Frames are a 4-byte big-endian length and a pickle (the worker is this server's own child).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import logging
import os
import pickle
import struct
import sys
from typing import Any

log = logging.getLogger("rcw.server")

CALL_TIMEOUT = 120.0     # seconds a worker may take to answer one question before it is replaced
#: The workers' niceness: when the cores are busy, the event loop (people's requests, chat, the
#: fan-out of every action) runs before the bots' thinking, which only makes the bots slower.
NICE = 10
_LEN = struct.Struct(">I")


class WorkerGone(Exception):
    """The worker died (or was replaced) before it answered."""


class WorkerError(Exception):
    """The worker answered with an error: ``desync`` (its copy of the game is not the
    replica's) or an exception raised by an agent."""


def default_workers() -> int:
    """``--bot-workers`` by default: one per core but one (for the event loop), at least one."""
    return max(1, (os.cpu_count() or 2) - 1)


def bot_reasons(match: Any) -> list[str]:
    """The reasons the game's agents wrote since the last step ("B: Attack Consideration: rolled 4,
    PCT 3"; the SDT bots' notes, what ``rcw solo`` prints with ``*``), taken once."""
    return [n for a in match.agents.values() if hasattr(a, "take_notes") for n in a.take_notes()][:20]


def agent_seed(meta_seed: int, gid: str) -> int:
    """The seed of a game's agents (the same in-process and in a worker)."""
    return int.from_bytes(hashlib.sha256(f"{meta_seed}:{gid}".encode()).digest()[:8], "big")


# -- the parent's side ------------------------------------------------------------------------------
class Worker:
    """One worker process and the questions put to it."""

    def __init__(self, index: int, on_restart: Any = None) -> None:
        self.index = index
        self.proc: asyncio.subprocess.Process | None = None
        self.gen = 0                        # bumped each time the process is replaced (it forgot everything)
        self.restarts = 0
        self._futures: dict[int, asyncio.Future] = {}
        self._ids = itertools.count(1)
        self._reader: asyncio.Task | None = None
        self._closing = False
        self._on_restart = on_restart
        self.up = asyncio.Event()
        self._out = bytearray()              # the messages of this pass of the loop, not written yet,
        self._out_for: Any = None            # ... and the process they go to

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None else None

    async def start(self) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "rcw.server.botworker", stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, limit=1 << 24)
        self._reader = asyncio.create_task(self._read(self.proc), name=f"bot-worker-{self.index}")
        self.up.set()

    def send(self, msg: tuple) -> None:
        """Queue one message (never blocks; dropped if the process is gone: its games reset).
        The messages of one pass of the event loop go to the process in one write (one
        wake-up of the worker, not one per action applied and per question)."""
        p = self.proc
        if p is None or p.stdin is None or p.stdin.is_closing():
            return
        data = pickle.dumps(msg, protocol=pickle.HIGHEST_PROTOCOL)
        if self._out_for is not p:             # (nothing waits for this process yet)
            self._out_for, self._out = p, bytearray()
            asyncio.get_running_loop().call_soon(self._flush, p)
        self._out += _LEN.pack(len(data))
        self._out += data

    def _flush(self, p: asyncio.subprocess.Process) -> None:
        if self._out_for is not p:             # (written already, or for a process since replaced)
            return
        data, self._out, self._out_for = self._out, bytearray(), None
        if p is self.proc and p.stdin is not None and not p.stdin.is_closing():
            p.stdin.write(data)

    async def call(self, *msg: Any) -> Any:
        """Ask the worker ``(op, gid, *args)``; its answer (WorkerError if it answered one)."""
        if self.proc is None:
            raise WorkerGone(f"bot worker {self.index} is restarting")
        rid = next(self._ids)
        fut = asyncio.get_running_loop().create_future()
        self._futures[rid] = fut
        self.send((msg[0], msg[1], rid, *msg[2:]))
        try:
            return await asyncio.wait_for(asyncio.shield(fut), CALL_TIMEOUT)
        except TimeoutError:
            log.error("bot worker %d (pid %s) did not answer %s in %.0f s; replacing it",
                      self.index, self.pid, msg[0], CALL_TIMEOUT)
            self.kill()
            raise WorkerGone("the bot worker hung") from None
        finally:
            self._futures.pop(rid, None)

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError, AttributeError):
            self.proc.kill()

    async def _read(self, proc: asyncio.subprocess.Process) -> None:
        out = proc.stdout
        try:
            while True:
                n = _LEN.unpack(await out.readexactly(_LEN.size))[0]
                rid, ok, value = pickle.loads(await out.readexactly(n))
                fut = self._futures.get(rid)
                if fut is not None and not fut.done():
                    if ok:
                        fut.set_result(value)
                    else:
                        fut.set_exception(WorkerError(value))
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            pass
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot worker %d: unreadable answer", self.index)
        # The process is gone (or talks nonsense): fail what it owed, replace it.
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
        code = await proc.wait()
        if self.proc is proc:
            self.proc = None
            self.up.clear()
            self.gen += 1
        for fut in self._futures.values():
            if not fut.done():
                fut.set_exception(WorkerGone(f"bot worker {self.index} exited ({code})"))
        if self._closing:
            return
        log.error("bot worker %d (pid %s) exited with %s; starting another (its games are reset)",
                  self.index, proc.pid, code)
        self.restarts += 1
        try:
            await self.start()
        except Exception:
            log.exception("bot worker %d: cannot start a new process", self.index)
            return
        if self._on_restart is not None:
            self._on_restart(self)

    async def close(self) -> None:
        self._closing = True
        p = self.proc
        if p is not None:
            self._flush(p)
        if p is not None and p.stdin is not None:
            with contextlib.suppress(Exception):
                p.stdin.close()
            try:
                await asyncio.wait_for(p.wait(), 5)
            except TimeoutError:
                self.kill()
        if self._reader is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._reader, 5)


class BotWorkers:
    """The worker processes of one server process; each game always goes to the same one."""

    def __init__(self, n: int, on_restart: Any = None) -> None:
        self.workers = [Worker(i, on_restart) for i in range(n)]

    async def start(self) -> None:
        await asyncio.gather(*(w.start() for w in self.workers))

    async def close(self) -> None:
        await asyncio.gather(*(w.close() for w in self.workers))

    def for_game(self, gid: str) -> Worker:
        h = int.from_bytes(hashlib.sha256(gid.encode()).digest()[:8], "big")
        return self.workers[h % len(self.workers)]

    @property
    def restarts(self) -> int:
        return sum(w.restarts for w in self.workers)


# -- the worker's side --------------------------------------------------------------------------------
class _GameCopy:
    """A worker's copy of one game: the game, its match and its agents."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.agents: dict[tuple[str, str], Any] = {}
        self.game: Any = None
        self.match: Any = None
        self.seq = 0
        self.synced = False
        self.bots: dict[str, str] = {}

    def agent(self, seat: str, kind: str) -> Any:
        from rcw.bots import make_agent

        key = (seat, kind)
        if key not in self.agents:
            self.agents[key] = make_agent(kind, seat, self.seed, mode=getattr(self.game, "MODE", None))
        if self.match is not None:
            self.match.share(self.agents[key])     # (the game's one Player Cooperation Table)
        return self.agents[key]

    def set_bots(self, bots: dict[str, str]) -> None:
        self.bots = dict(bots)
        if self.match is not None:
            self.match.agents = {s: self.agent(s, k) for s, k in self.bots.items()}


def _handle(games: dict[str, _GameCopy], msg: tuple) -> tuple | None:
    """One message; the answer to send back (None for a message that wants none)."""
    from rcw.bots.match import Match

    from rcw import modes
    from rcw.actions import IllegalAction, action_from_wire, to_wire
    from rcw.player import Player

    op, gid = msg[0], msg[1]
    if op == "reset":
        _, _, seed, bots, data, seq, new_match = msg[:7]
        wait = msg[7] if len(msg) > 7 else None       # (how long its bots wait for humans)
        c = games.get(gid)
        if c is None or c.seed != seed:
            c = games[gid] = _GameCopy(seed)
        c.game, c.seq, c.synced = modes.from_bytes(data), seq, True
        if c.match is None or new_match:
            c.match = Match(c.game, {}, human_wait=wait)
        c.match.replace_game(c.game)
        c.set_bots(bots)
        return None
    c = games.get(gid)
    if op == "applied":
        _, _, seq, wire, kind, by_agent = msg
        if c is None or not c.synced or c.game is None:
            return None
        if seq != c.seq + 1:
            c.synced = False
            return None
        action = action_from_wire(wire)
        try:
            events = c.game.apply(action)
        except IllegalAction:
            c.synced = False
            return None
        c.seq = seq
        c.match.applied(action, events, kind, by_agent)
        return None
    if op == "seats":
        if c is not None:
            c.set_bots(msg[2])
        return None
    if op == "pact":                  # a pact accepted in chat (rcw.bots.negotiation)
        if c is not None and c.match is not None:
            from rcw.bots.negotiation import Pact

            c.match.pact(Pact(**msg[2]))
        return None
    if op == "hear":
        if c is not None and c.match is not None:
            c.match.hear(msg[2])
        return None
    if op == "stop":
        if c is not None:
            c.match = c.game = None
            c.synced = False
        return None
    if op == "close":
        games.pop(gid, None)
        return None
    rid, seq = msg[2], msg[3]
    if c is None or not c.synced or c.game is None or c.seq != seq:
        return rid, False, "desync"
    try:
        if op == "step":
            step = c.match.next_step()
            value = (None if step is None else (step.seat, to_wire(step.action), step.kind, step.note,
                                                bot_reasons(c.match)),
                     c.match.messages(), c.match.waiting.seconds if c.match.waiting is not None else None)
        elif op == "consider":
            value = c.match.consider(msg[4], msg[5], msg[6])
        elif op == "choose":
            seat, kind = msg[4], msg[5]
            player = Player(c.game, seat)
            action = c.agent(seat, kind).choose(player)
            if not player.is_legal(action):
                action = player.legal[0]
            value = to_wire(action)
        elif op == "react":
            seat, kind = msg[4], msg[5]
            action = c.agent(seat, kind).react(Player(c.game, seat))
            value = to_wire(action) if action is not None and hasattr(action, "TYPE") else None
        else:
            return rid, False, f"unknown question {op!r}"
    except Exception as e:   # an agent's bug: the driver logs it and counts a failure
        import traceback

        traceback.print_exc(file=sys.stderr)
        return rid, False, f"{type(e).__name__}: {e}"
    return rid, True, value


def main() -> None:
    """``python -m rcw.server.botworker``: serve the questions of the server process on stdin."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)   # (Ctrl-C stops the server, which closes our stdin)
    with contextlib.suppress(OSError):
        os.nice(NICE)                # (people's requests in the event loop come first when the cores are busy)
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)                   # (stray prints go to stderr, not into the answers)
    inp = sys.stdin.buffer
    games: dict[str, _GameCopy] = {}
    import rcw.bots  # noqa: F401  (pay for the imports before the first question)
    import rcw.bots.match  # noqa: F401

    while True:
        head = inp.read(_LEN.size)
        if len(head) < _LEN.size:
            return
        (n,) = _LEN.unpack(head)
        msg = pickle.loads(inp.read(n))
        answer = _handle(games, msg)
        if answer is not None:
            data = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
            out.write(_LEN.pack(len(data)) + data)
            out.flush()


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt, BrokenPipeError):
        main()
