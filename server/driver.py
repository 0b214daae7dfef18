"""The bots of one game, and the deadlines that let a bot decide for a slow human.

A :class:`Driver` runs only in the process holding the game's driver lease
(:meth:`Store.lease`, renewed by the :class:`~rcw.server.lobby.Hub`); if that process dies the
lease expires and another process (or the restarted one) takes over.  The bots play through
the match loop of :mod:`rcw.bots.match` (answers out of turn, then the pending seat, one action
at a time), and each action they choose takes the path of every action
(:meth:`GameRuntime.commit_locked`).

With a game ``deadline``, every decision a human seat owes is timed from when the seat became
pending, and every trade offer made to a human seat from when it was made; when the time is up
the seat's bot decides that one step (``by: "deadline"``).  In a postal game (004 [17.0]) the
deadline is the phase's: when it passes, the Gamesmaster closes the phase (``ClosePhase``), the
seats without a sheet given their bot's sheet or none (the game's ``missing`` setting,
:mod:`rcw.server.postal`).  Every deadline is an absolute time in the store
(:mod:`rcw.server.clock`): the timers are armed from it, so they survive a restart or a
fail-over.  A human seat that lets K deadlines pass in a row falls into civil disorder and its
bot plays it until the player takes it back (:mod:`rcw.server.absence`); while every human seat
is in civil disorder, no one is there to be held up, and their bots decide at the deadlines.

With ``--bot-workers N`` (``Config.bot_workers``) the bots decide in a worker process
(:mod:`rcw.server.botworker`): the game's worker keeps its own copy of the game, the match and
the agents, fed every applied action, and the driver awaits its answers without blocking the
event loop.  With 0 the match runs here, in the event loop (tests, tiny setups).  Either way
the match keeps the game's one Player Cooperation Table (:mod:`rcw.bots.cooperation`) and hands
it to every SDT agent of the game, the bot that decides for a slow human included.

Bots talk (issue 18, :mod:`rcw.bots.negotiation`): what the agents said with a step (the
match's :meth:`~rcw.bots.match.Match.messages`, here or from the worker) is posted after the
step is committed (:meth:`Driver._post_said`): the reasons of an answer go into the reply to
the proposal it answers, a decline without an action is posted as a reply, a card of the bot's
own step becomes a proposal in the pair channel (with the step's ``seq`` and the engine's
``offer``), the rest is plain text.  When an agent waits for humans (the Committee it invited
them to, ``Match.waiting``), the driver looks again when the wait is over.  Pacts accepted in
chat are told to the match (:meth:`Driver.pact`), and pacts proposed to a bot are put to its
agent (:meth:`Driver.consider`).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from rcw.bots import committee_refusal
from rcw.bots.match import Match, Step
from rcw.bots.negotiation import Message, Pact
from rcw.server.botworker import WorkerError, WorkerGone, agent_seed, bot_reasons
from rcw.server.host import Host
from rcw.server.protocol import ProtocolError, now_ms
from rcw.server.store import STORE_DOWN, Backoff

from rcw.actions import Action, DeclineTrade, IllegalAction, action_from_wire
from rcw.game import Game
from rcw.player import Player

log = logging.getLogger("rcw.server")

# At a deadline the bot's steps that leave the seat's decision open (Game.settles: the SDT bot's
# gift of an Assassin marker, an answer to another's offer) are not made for an absent player;
# after this many, the seat's first legal step that decides is played instead.
SIDE_STEPS = 3


class BotTurns:
    """The bots of every game this process drives commit their actions in turns (:meth:`turn`,
    an async context): one bot action at a time, the next one a pass of the event loop after
    the last one was committed and pushed.  asyncio runs every callback that is ready in one
    pass, so without turns the steps of twenty games playing at full speed, and their fan-outs,
    pile up in the same passes, and a person's request (a ``ping``, a chat post) waits behind
    all of them; in turns, it waits behind one."""

    def __init__(self) -> None:
        self._waiting: collections.deque[asyncio.Future] = collections.deque()
        self._armed = False
        self._busy = False

    @contextlib.asynccontextmanager
    async def turn(self):
        """Hold the bots' turn (wait for it first)."""
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        self._waiting.append(fut)
        self._arm()
        try:
            await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():     # (given the turn, then cancelled: pass it on)
                self._release()
            raise
        try:
            yield
        finally:
            self._release()

    def _arm(self) -> None:
        if not self._armed and not self._busy and self._waiting:
            self._armed = True
            asyncio.get_running_loop().call_soon(self._next)

    def _release(self) -> None:
        self._busy = False
        self._arm()

    def _next(self) -> None:
        self._armed = False
        q = self._waiting
        while q:
            fut = q.popleft()
            if not fut.done():            # (a waiter cancelled meanwhile: the next one)
                fut.set_result(None)
                self._busy = True
                return


class Driver:
    """Bots and deadline timers for one game runtime."""

    def __init__(self, rt: Host) -> None:
        self.rt = rt
        self.driving = False
        self._task: asyncio.Task | None = None
        self._timers: dict[str, asyncio.TimerHandle] = {}         # human seat (postal: the phase) -> its deadline
        self._offer_timers: dict[int, asyncio.TimerHandle] = {}   # offer to a human seat -> its deadline
        self._firing: set[str] = set()     # clock keys whose deadline has fired, its handler not done yet
        self.match: Match | None = None         # the bots' match loop (rcw.bots.match), while driving
        self.agents: dict[tuple[str, str], Any] = {}
        self.stalled = False                    # the bots gave up until a human acts
        self.bot_streak = 0                     # bot actions since the last human one
        self._why: list[str] = []               # the bots' reasons for the step being committed
        self._said: list[Message] = []          # what the bots said with it (rcw.bots.negotiation)
        self._wait: float | None = None         # an agent waits for humans this long (seconds)
        self._wait_timer: asyncio.TimerHandle | None = None
        # With bot workers: the worker generation holding our match (None: none there) and
        # whether its copy of the game must be reset before the next question.
        self._wgen: int | None = None
        self._wstale = False
        self._clock_read = False

    # -- switched on and off by the lease ------------------------------------------------------
    def set_driving(self, on: bool) -> None:
        if on and self.rt.closed:
            return
        if on != self.driving:
            self.driving = on
            self._clock_read = False        # (taking over: the deadlines as the store has them)
            if not on:
                self._cancel_timers()
                self.match = None
                self._remote_stop()
        if on:
            self.kick()

    def stop(self) -> None:
        self.set_driving(False)
        if self._task:
            self._task.cancel()
        w = self._worker()
        if w is not None:
            w.send(("close", self.rt.gid))

    def kick(self) -> None:
        """Something changed: let the bots (and deadline timers) look again.  (A replica dropped
        after a write the store failed, ``game`` None, is rebuilt by the drive: QA saw an all-bot
        game stop for good after a Redis outage, its replica waiting for a request to rebuild it.)"""
        rt = self.rt
        if not self.driving or rt.closed or (rt.game is None and not rt.loaded):
            return
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._drive(), name=f"drive-{rt.gid}")

    # -- what the runtime tells us ----------------------------------------------------------------
    def replace_game(self, g: Game) -> None:
        """The replica was rebuilt: the match follows the new game."""
        if self.match is not None:
            self.match.replace_game(g)
        if self._synced():             # (at once: the actions applied next are shown to the agents)
            self._wstale = True
            self._remote_reset()

    def seats_changed(self) -> None:
        """The seat records changed: bots for the bot seats, no deadline for seats not human."""
        self._seat_agents()
        for s in [s for s in self._timers if s in self.rt.seats and not self.timed(s)]:
            self._timers.pop(s).cancel()

    def everyone_away(self) -> bool:
        """Whether the game has human seats and every one is in civil disorder: no player is
        there to be held up, so the seats in disorder keep to the deadlines (QA: such a game
        played itself to its end in minutes, and its players came back to a game over)."""
        humans = [r for r in self.rt.seats.values() if r.get("kind") == "human"]
        return bool(humans) and all(r.get("disorder") for r in humans)

    def timed(self, seat: str) -> bool:
        """Whether deadlines time ``seat`` now: a human plays it, or it is in civil disorder while
        every player is (:meth:`everyone_away`: its bot decides at each deadline)."""
        rec = self.rt.seats.get(seat, {})
        return rec.get("kind") == "human" and (not rec.get("disorder") or self.everyone_away())

    def absent(self, seat: str) -> bool:
        """Whether ``seat``'s player is away without its bot in charge: a human seat that is
        timed and not in civil disorder (its bot decides at a deadline only what is owed)."""
        return self.timed(seat) and not self.rt.seats.get(seat, {}).get("disorder")

    def clock_changed(self) -> None:
        """The game's deadlines moved (a pause): the timers are armed again from the store's times."""
        self._cancel_timers()
        self.kick()

    def applied(self, entry: dict, events: list, kind: str) -> None:
        """An action was applied to the replica (by anyone, in any process)."""
        actor = entry["a"].get("seat")
        by_agent = entry.get("by") in ("bot", "deadline")
        if by_agent:
            self.bot_streak += 1
        else:
            self.bot_streak = 0
            self.stalled = False
        if self.match is not None:
            self.match.applied(action_from_wire(entry["a"]), events, kind, by_agent)
        if self._synced():
            self._worker().send(("applied", self.rt.gid, self.rt.seq, entry["a"], kind, by_agent))
        if actor in self._timers:
            self._timers.pop(actor).cancel()
        if self.driving and self.rt.postal is None:
            self.rt.clock.forget(f"seat:{actor}")     # (a new decision of the seat is timed anew)

    # -- the bots ---------------------------------------------------------------------------------
    def agent(self, seat: str, kind: str):
        from rcw.bots import make_agent

        key = (seat, kind)
        if key not in self.agents:
            self.agents[key] = make_agent(kind, seat, agent_seed(self.rt.meta["seed"], self.rt.gid),
                                          mode=self.rt.meta["options"].get("mode"))
        if self.match is not None:
            self.match.share(self.agents[key])     # (the game's one Player Cooperation Table)
        return self.agents[key]

    def _bot_kinds(self) -> dict[str, str]:
        """The bot seats and their agents' kinds (a seat's bot kind, else the game's)."""
        away = self.everyone_away()          # (then the seats in disorder wait for their deadlines)
        return {s: rec.get("bot") or self.rt.meta["bots"] for s, rec in self.rt.seats.items()
                if rec["kind"] == "bot" or rec.get("disorder") and not away}      # (civil disorder: rcw.server.absence)

    def bot_plays(self, seat: str) -> bool:
        """Whether a bot plays ``seat`` now: a bot seat, or a human seat in civil disorder while
        another player is there (rcw.server.absence; it answers what is put to the seat, as a
        bot seat does)."""
        return seat in self._bot_kinds()

    def committee_refusals(self, convener: str, view: dict) -> dict[str, str]:
        """The bot seats that would decline, whatever they roll, a Central Committee ``convener``
        proposes now, with their reasons (their kinds' policy, :func:`rcw.bots.committee_refusal`)."""
        return {s: why for s, k in self._bot_kinds().items()
                if s != convener and (why := committee_refusal(k, view, convener)) is not None}

    def _seat_agents(self) -> None:
        """The match plays the bot seats."""
        if self.match is not None:
            self.match.agents = {s: self.agent(s, k) for s, k in self._bot_kinds().items()}
        if self._synced():
            self._worker().send(("seats", self.rt.gid, self._bot_kinds()))

    # -- the game's bot worker (with --bot-workers) -------------------------------------------------
    def _worker(self):
        workers = getattr(self.rt.hub, "bot_workers", None)
        return workers.for_game(self.rt.gid) if workers is not None else None

    def _synced(self) -> bool:
        """Whether the game's worker holds our match (and is fed every applied action)."""
        w = self._worker()
        return w is not None and self._wgen == w.gen

    def _remote_reset(self) -> None:
        """(Under the lock.)  Make the worker's copy the replica (a new match there unless it
        holds ours)."""
        w, rt = self._worker(), self.rt
        if self._wgen == w.gen and not self._wstale:
            return
        w.send(("reset", rt.gid, agent_seed(rt.meta["seed"], rt.gid), self._bot_kinds(), rt.game.to_bytes(),
                rt.seq, self._wgen != w.gen, rt.hub.config.bot_wait))
        for p in rt.proposals.pacts.pacts:       # (a new match there knows no pacts)
            w.send(("pact", rt.gid, p.to_dict()))
        self._wgen, self._wstale = w.gen, False

    def _remote_stop(self) -> None:
        if self._synced():
            self._worker().send(("stop", self.rt.gid))
        self._wgen = None

    async def _ask(self, op: str, *args: Any) -> Any:
        """(Under the lock.)  Ask the game's worker about the current replica (reset first if
        needed; once more after a ``desync``)."""
        w = self._worker()
        for attempt in range(2):
            await w.up.wait()
            self._remote_reset()
            try:
                return await w.call(op, self.rt.gid, self.rt.seq, *args)
            except WorkerError as e:
                if str(e) != "desync" or attempt:
                    raise
                log.info("game %s: bot worker %d out of step; resetting it", self.rt.gid, w.index)
                self._wstale = True
            except WorkerGone:
                if attempt:
                    raise
                self._wgen = None
        raise AssertionError("unreachable")

    async def _next_step(self) -> Step | None:
        """(Under the lock.)  The match's next step, here or in the game's worker."""
        if self._worker() is None:
            m = self._the_match()
            step = m.next_step()
            self._why = bot_reasons(m) if step is not None else []
            self._said = m.messages()
            self._wait = m.waiting.seconds if m.waiting is not None else None
            return step
        got = await self._ask("step")
        step, self._said, self._wait = got
        if step is None:
            return None
        seat, wire, kind, note, self._why = step
        return Step(seat, action_from_wire(wire), kind, note)

    def _the_match(self) -> Match:
        g = self.rt.game
        if self.match is None or self.match.game is not g:
            if self.match is None:
                self.match = Match(g, {}, human_wait=self.rt.hub.config.bot_wait)
                for p in self.rt.proposals.pacts.pacts:
                    self.match.pact(p)
            self.match.replace_game(g)
            self._seat_agents()
        return self.match

    async def _drive(self) -> None:
        """Play the bot seats through the match loop (rcw.bots.match): answers out of turn, then
        the pending seat, one action at a time, each taking the path of every action.  While the
        store cannot be reached the bots wait and try again (:class:`~rcw.server.store.Backoff`:
        one line a minute, one when it works again), the lease loop meanwhile keeping or losing
        the game; they do not stop for good (QA: after a Redis outage of 20 s an all-bot game
        stood still until the process was restarted)."""
        down = Backoff(f"game {self.rt.gid}: the bots' store access")
        while self.driving and not self.rt.closed:
            try:
                await self._drive_round(down)
            except asyncio.CancelledError:
                raise
            except STORE_DOWN as e:
                await down.wait(e, "the bots try again")
                continue
            except ProtocolError as e:     # (the log cannot be rebuilt: damaged, or archived meanwhile)
                log.error("game %s: the bots stop: %s", self.rt.gid, e.message)
                self.stalled = True
            return

    async def _drive_round(self, down: Backoff) -> None:
        rt = self.rt
        failures = 0
        if rt.game is None:                   # (dropped after a write the store failed: rebuilt from the log)
            async with rt.lock:
                if rt.game is None:
                    await rt.ensure_current()
        if not self._clock_read:
            await rt.clock.load()
            # (the reports e-mailed, as the store has them: another process may have sent some)
            rt.reported = await rt.store.hash_all(rt.gid, "reported")
            self._clock_read = True
            rt.hub.notifier.deadlines(rt)     # (the reminders before the deadlines; then on each change)
        while self.driving and not rt.closed and not self.stalled:
            if rt.game is None or rt.status() != "playing":
                break
            await self._arm_offer_deadlines()
            down.ok()                          # (the store answers: "works again", after an outage)
            async with rt.lock:
                if rt.game is None or rt.status() != "playing":
                    break
                await self._arm_deadlines()       # (a human seat pending is timed from now, while the bots go on)
                t0 = time.perf_counter()
                try:
                    step = await self._next_step()
                except (WorkerError, WorkerGone) as e:
                    log.error("game %s: the bot worker failed: %s", rt.gid, e)
                    step, ok = None, isinstance(e, WorkerGone)   # (a worker replaced: not the bots' fault)
                else:
                    if step is None:
                        await self._post_said(None, None, [])
                        self._arm_wait()
                        break
                    if step.kind == "turn" and self.bot_streak >= rt.hub.config.max_bot_streak:
                        log.error("game %s: %d bot actions in a row without end; the bots stop until a human acts",
                                  rt.gid, self.bot_streak)
                        self.stalled = True
                        break
                    rt.hub.metrics.bot_decision.observe(time.perf_counter() - t0)
                    if step.note:
                        log.info("game %s: %s", rt.gid, step.note)
                    ok = await self._commit_bot(step.action, "bot", step.kind, self._why)
            failures = 0 if ok else failures + 1
            if failures >= 3:
                log.error("game %s: bot %s cannot move; the game waits for a human action", rt.gid,
                          step.seat if step is not None else "(worker)")
                self.stalled = True
                break
            if step is None:
                await asyncio.sleep(0.1)      # (the worker failed: give its replacement a moment)
            await asyncio.sleep(rt.hub.config.bot_delay)   # yield to the event loop between bot actions

    async def _commit_bot(self, action: Action, by: str, kind: str = "turn", why: list[str] | None = None) -> bool:
        """(Under the lock.)  Commit a bot's action (with the bots' reasons, ``why``); False if it could not be."""
        rt = self.rt
        try:
            async with rt.hub.bot_turns.turn():
                seq, events = await rt.commit_locked(action, by, kind=kind, why=why)
        except IllegalAction as e:
            log.warning("game %s: %s for %s refused: %s", rt.gid, action.TYPE, action.seat, e)
            self._wstale = True            # (a worker's copy may be out of step: reset it)
            return False
        except ProtocolError as e:
            log.warning("game %s: %s for %s not applied: %s", rt.gid, action.TYPE, action.seat, e)
            return True
        said, self._said = self._said, []
        # (the reasons of the seat that acted: another bot's answer to the same proposal is its own)
        reasons = {m.answers: m.text for m in said if m.answers is not None and m.card is None and m.seat == action.seat}
        rt.proposals.note_answer(action, events, seq, by, reasons)
        await self._post_said(said, seq, events, action)
        return True

    # -- talk (rcw.bots.negotiation) -------------------------------------------------------------------
    async def _post_said(self, said: list[Message] | None, seq: int | None, events: list,
                         action: Action | None = None) -> None:
        """Post what the bots said with a step (``said`` None: what they said without one)."""
        rt = self.rt
        if said is None:
            said, self._said = self._said, []
        answered = _answer_key(action)
        for m in said:
            try:
                if m.answers is not None and m.card is None:
                    if answered is None or m.seat != action.seat or m.answers not in (answered, answered.split(":")[0]):
                        rt.proposals.reply(m.seat, m.answers, bool(m.accept), "bot", m.text)
                    continue
                if m.card is None:
                    await rt.channels.post_bot(m.seat, m.channel(), m.text)
                    continue
                card = dict(m.card, addressees=[m.to] if m.to else [])
                if card["kind"] in ("trade", "committee", "execution"):
                    if seq is None:
                        continue            # (a card is the bot's step: none was taken)
                    card["seq"] = seq
                    for e in events:
                        if e.kind == "trade_offered":
                            card["offer"] = e.data["offer"]
                if m.answers is not None:     # a counter-proposal: the answer's reason, then the card
                    rt.proposals.reply(m.seat, m.answers, False, "bot", m.text)
                await self._post_card(m, card)
            except Exception:  # a message that cannot be posted never stops the bots
                log.exception("game %s: a bot message was not posted", rt.gid)

    async def _post_card(self, m: Message, card: dict) -> None:
        """Post a bot's proposal card; a counter-proposal is posted apart (it waits, without
        the lock, until the proposal it counters is seen: :meth:`Proposals.post_card`)."""
        rt = self.rt
        if card.get("counter"):
            rt.hub.spawn(rt.proposals.post_card(m.seat, m.channel(), m.text, card, m.to))
        else:
            await rt.channels.post_bot(m.seat, m.channel(), m.text, card)

    def _arm_wait(self) -> None:
        if self._wait_timer is not None:
            self._wait_timer.cancel()
            self._wait_timer = None
        if self._wait is not None and self.driving:
            self._wait_timer = asyncio.get_running_loop().call_later(max(0.05, self._wait), self.kick)

    def pact(self, pact: Pact) -> None:
        """A pact accepted in chat: the match (here or in the worker) keeps it for the bots."""
        if self.match is not None:
            self.match.pact(pact)
        if self._synced():
            self._worker().send(("pact", self.rt.gid, pact.to_dict()))
        self.kick()

    def hear(self, news: dict) -> None:
        """Chat news for the bots (a human declined a bot's card, or proposed again the Committee
        it consents to: :meth:`rcw.bots.match.Match.hear`)."""
        if self.match is not None:
            self.match.hear(news)
        if self._synced():
            self._worker().send(("hear", self.rt.gid, news))
        self.kick()

    async def consider(self, seat: str, proposal: dict, key: str) -> None:
        """A proposal without an engine action (a pact; a trade by post) addressed to a bot seat:
        its agent answers (accept, decline or counter, with the reason) and the answer is posted.
        A postal bot that accepts a trade sends its sheet again with the mirror order: the
        match's next step (``amend``, :meth:`rcw.bots.match.Match.consider`), taken when the
        bots look again."""
        rt = self.rt
        async with rt.lock:
            if not self.driving or rt.game is None or rt.closed:
                return
            try:
                if self._worker() is None:
                    msg = self._the_match().consider(seat, proposal, key)
                else:
                    msg = await self._ask("consider", seat, proposal, key)
            except (WorkerError, WorkerGone) as e:
                log.error("game %s: the bot worker failed: %s", rt.gid, e)
                msg = None
            if msg is None:
                kind = proposal.get("kind")
                what = "pacts" if kind == "pact" else "trades by post" if kind == "trade" else f"{kind} proposals"
                msg = Message(seat, f"{seat} does not make {what}", answers=key, accept=False)
        rt.proposals.reply(seat, key, bool(msg.accept), "bot", msg.text)
        if msg.card is not None:
            await self._post_card(msg, dict(msg.card, addressees=[msg.to] if msg.to else []))
        if msg.accept:
            self.kick()             # (what it agreed to may call for a step: a postal sheet sent again)

    # -- deadlines ----------------------------------------------------------------------------------
    def _deadline_on(self) -> bool:
        rt = self.rt
        return bool(rt.meta.get("deadline")) and self.driving and rt.game is not None and rt.status() == "playing"

    def arming(self) -> bool:
        """Whether a deadline of the game is about to be set: it has deadlines, and a human seat
        they time owes a decision that has none yet, or its postal phase has none yet (the
        driving process sets it as soon as it looks; any process may ask)."""
        rt = self.rt
        if not rt.meta.get("deadline") or rt.game is None or rt.status() != "playing":
            return False
        if rt.postal is not None:
            return not any(k.startswith("phase:") for k in rt.clock.due)
        return any(self.timed(p["seat"]) and f"seat:{p['seat']}" not in rt.clock.due for p in rt.game.pending)

    def _cancel_timers(self) -> None:
        for h in list(self._timers.values()) + list(self._offer_timers.values()):
            h.cancel()
        self._timers.clear()
        self._offer_timers.clear()

    async def _rearm(self, timers: dict, waiting: set, prefix: str, fired: Callable[[Any], None]) -> None:
        """One deadline timer per key of ``waiting`` (kept if running, started if not), due at
        the time the game's clock keeps for ``prefix + key`` (:mod:`rcw.server.clock`: set now
        if it has none); the other timers of ``timers`` and the clock's other ``prefix`` keys go."""
        clock = self.rt.clock
        for k in [k for k in timers if k not in waiting]:
            timers.pop(k).cancel()
        names = {f"{prefix}{k}" for k in waiting}
        await clock.drop([k for k in clock.due if k.startswith(prefix) and k not in names])
        for k in waiting:
            if k not in timers and f"{prefix}{k}" not in self._firing:
                at = await clock.arm(f"{prefix}{k}", float(self.rt.meta["deadline"]))
                if k not in timers and self.driving:
                    timers[k] = asyncio.get_running_loop().call_later(max(0.0, (at - now_ms()) / 1000), fired, k)

    async def _arm_deadlines(self) -> None:
        """With a deadline, each human seat the game waits on is timed (a postal game: its phase)."""
        rt = self.rt
        if rt.postal is not None:
            await self._rearm(self._timers, rt.postal.timed_phase() if self._deadline_on() else set(), "phase:",
                              self._phase_deadline_fired)
            return
        waiting = ({p["seat"] for p in rt.game.pending if self.timed(p["seat"])}
                   if self._deadline_on() else set())
        await self._rearm(self._timers, waiting, "seat:", self._deadline_fired)

    def _handle(self, name: str, handler: Callable[[], Any]) -> None:
        """Run a deadline's handler (``handler()``, a coroutine) once: until it is done, the clock
        key ``name`` is not timed again (a timer armed meanwhile, from the time passed, would
        fire at once for the same deadline: a second step decided for one deadline missed)."""
        self._firing.add(name)

        async def run() -> None:
            try:
                await handler()
            finally:
                self._firing.discard(name)
        self.rt.hub.spawn(run())

    def _phase_deadline_fired(self, key: str) -> None:
        self._timers.pop(key, None)
        self._handle(f"phase:{key}", lambda: self._phase_deadline(key))

    async def _phase_deadline(self, key: str) -> None:
        """A postal phase's deadline passed: the Gamesmaster closes it (rcw.server.postal)."""
        rt = self.rt
        missed: list[str] = []
        async with rt.lock:
            if self.driving and rt.game is not None and rt.status() == "playing":
                missed = await rt.postal.close_phase(key)
        await rt.absence.missed(missed)
        self.kick()

    async def bot_action(self, seat: str) -> Action:
        """(Under the lock.)  What ``seat``'s bot would do now (the game's bot kind), legal."""
        rt, g = self.rt, self.rt.game
        if self._worker() is None:
            player = Player(g, seat)
            self._the_match()
            action = self.agent(seat, rt.meta["bots"]).choose(player)
            return action if player.is_legal(action) else player.legal[0]
        try:           # (the worker checks it is legal, else plays the first legal action)
            return action_from_wire(await self._ask("choose", seat, rt.meta["bots"]))
        except (WorkerError, WorkerGone) as e:
            log.error("game %s: the bot worker failed: %s", rt.gid, e)
            return Player(g, seat).legal[0]

    def _deadline_fired(self, seat: str) -> None:
        self._timers.pop(seat, None)
        self._handle(f"seat:{seat}", lambda: self._deadline_step(seat))

    async def _deadline_step(self, seat: str) -> None:
        """A human seat let its deadline pass: its bot decides this once (a missed deadline:
        K in a row and the seat falls into civil disorder, rcw.server.absence)."""
        rt = self.rt
        async with rt.lock:
            g = rt.game
            if (g is not None and rt.status() == "playing" and self.timed(seat)
                    and seat in {p["seat"] for p in g.pending}):
                # The bot decides the step owed, and nothing else: a step that leaves it open
                # (the SDT bot's gift of an Assassin marker; an answer to another's offer) would
                # decide nothing and give away what is the player's, so it is not made, and the
                # bot is asked again.
                # A seat in civil disorder (every player away) is its bot's: its side steps are made.
                action, own = None, not self.absent(seat)
                for _ in range(SIDE_STEPS + 1):
                    t0 = time.perf_counter()
                    action = await self.bot_action(seat)
                    rt.hub.metrics.bot_decision.observe(time.perf_counter() - t0)
                    if rt.game.settles(action):
                        break
                    if own and await self._commit_bot(action, "deadline"):
                        continue
                    log.info("game %s: at %s's deadline its bot's %s is not made", rt.gid, seat, action.TYPE)
                else:
                    action = self._settling(seat)
                decided = action is not None and await self._commit_bot(action, "deadline")
                if not decided and (action := self._settling(seat, action)) is not None:
                    decided = await self._commit_bot(action, "deadline")      # (the bot's step refused)
                missed = [seat] if decided else []
            else:
                missed = []
        await rt.absence.missed(missed)
        self.kick()

    def _settling(self, seat: str, refused: Action | None = None) -> Action | None:
        """(Under the lock.)  The first of ``seat``'s legal actions that decides its step
        (``Game.settles``), other than leaving the game and other than ``refused`` (the step
        just refused: it is not tried twice)."""
        g = self.rt.game
        if g is None or self.rt.status() != "playing":
            return None
        return next((a for a in Player(g, seat).legal if g.settles(a) and a.TYPE != "Quit" and a != refused), None)

    async def _arm_offer_deadlines(self) -> None:
        """With a deadline, a trade offer to a human seat is answered by a bot after it."""
        rt = self.rt
        waiting = ({o["id"] for o in rt.game.offers() if self.timed(o["to"])}
                   if self._deadline_on() and rt.postal is None else set())
        await self._rearm(self._offer_timers, waiting, "offer:", self._offer_deadline_fired)

    def _offer_deadline_fired(self, oid: int) -> None:
        self._offer_timers.pop(oid, None)
        self._handle(f"offer:{oid}", lambda: self._offer_deadline_step(oid))

    async def _offer_deadline_step(self, oid: int) -> None:
        rt = self.rt
        async with rt.lock:
            g = rt.game
            o = next((o for o in g.offers() if o["id"] == oid), None) if g is not None and not rt.closed \
                and self.driving else None
            if o is None or not self.timed(o["to"]):
                return
            # The seat's bot answers this offer (a decline if it would rather answer another).
            seat = o["to"]
            if self._worker() is None:
                self._the_match()
                action = self.agent(seat, rt.meta["bots"]).react(Player(g, seat))
            else:
                try:
                    got = await self._ask("react", seat, rt.meta["bots"])
                except (WorkerError, WorkerGone) as e:
                    log.error("game %s: the bot worker failed: %s", rt.gid, e)
                    got = None
                action = action_from_wire(got) if got is not None else None
            if getattr(action, "offer", None) != oid or action.TYPE not in ("AcceptTrade", "DeclineTrade"):
                action = DeclineTrade(seat, oid)
            try:
                async with rt.hub.bot_turns.turn():
                    seq, events = await rt.commit_locked(action, "deadline")
                rt.proposals.note_answer(action, events, seq, "deadline")
            except (IllegalAction, ProtocolError) as e:
                log.info("game %s: deadline answer to offer %d not applied: %s", rt.gid, oid, e)
        self.kick()


def _answer_key(action: Action | None) -> str | None:
    """The proposal key an action answers (as :meth:`Proposals.note_answer` reads it)."""
    if action is None:
        return None
    t = action.TYPE
    if t in ("AcceptTrade", "DeclineTrade"):
        return f"trade:{action.offer}"
    if t == "JoinCommittee":
        return "committee:" + ",".join(sorted(action.members))
    if t == "ApprovePurge":
        return "purge"
    if t == "OrderExecution":
        return "execution"
    return None
