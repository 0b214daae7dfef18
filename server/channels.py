"""A game's chat channels in one process: delivery in id order, posting, proposals, history.

The channel rules (names, membership, proposal checks) are in :mod:`rcw.server.chat`; this
module runs them for one live game.  Every channel has its own pub/sub topic; a message is
stored with the channel's next id and published in one step by the store, and
:class:`Channels` delivers each readable message to the local connections exactly once, in id
order, refilling any gap from the stored history (:meth:`Channels._catch_up`).  Posting,
answering a proposal and opening a group channel draw from the seat's chat rate bucket, which
the store keeps (so with Redis every process draws from the same one).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from rcw.bots.negotiation import pact_until_problem
from rcw.server import chat
from rcw.server.host import Host
from rcw.server.protocol import MAX_TEXT, ProtocolError, now_ms, pack
from rcw.server.store import split_chat_notice


class Channels:
    """The chat channels of one game runtime."""

    def __init__(self, rt: Host) -> None:
        self.rt = rt
        self.store = rt.store
        self.records: dict[str, dict] = {}       # channel name -> its record (members, secret, ...)
        self.delivered: dict[str, int] = {}      # channel name -> last message id pushed here
        self._cbs: dict[str, Any] = {}           # channel name -> its pub/sub callback
        self._catching: set[str] = set()
        self._again: set[str] = set()

    # -- subscribing ------------------------------------------------------------------------------
    async def load(self) -> None:
        for name, rec in (await self.store.load_channels(self.rt.gid)).items():
            await self._register(name, rec, fresh=False)

    async def close(self) -> None:
        for name, rec in self.records.items():
            await self.store.unsubscribe(self.store.topic(rec["secret"], self.rt.gid), self._cbs[name])

    async def _register(self, name: str, rec: dict, fresh: bool) -> None:
        if name in self.records:
            return
        rt = self.rt
        self.records[name] = rec
        cb = partial(self._on_notice, name)
        self._cbs[name] = cb
        await self.store.subscribe(self.store.topic(rec["secret"], self.rt.gid), cb)
        self.delivered[name] = 0 if fresh else await self.store.chat_len(rt.gid, name)
        if fresh:
            frame = {"t": "channel", "id": None, "game": rt.gid, "channel": chat.public_info(rec, 0)}
            data = pack(frame)
            for c in list(rt.conns):
                if chat.can_read(rec, c.seat):
                    c.send(frame, data)
            rt.hub.spawn(self._catch_up(name))

    async def notice(self, name: Any) -> None:
        """Another process opened a channel: subscribe to it here too."""
        if not isinstance(name, str) or name in self.records:
            return
        rec = (await self.store.load_channels(self.rt.gid)).get(name)
        if rec is not None:
            await self._register(name, rec, fresh=True)

    # -- delivering ---------------------------------------------------------------------------------
    def _on_notice(self, name: str, data: bytes) -> None:
        mid, msg = split_chat_notice(data)
        d = self.delivered.get(name, 0)
        if mid <= d:
            return
        if mid == d + 1 and name not in self._catching:
            self.delivered[name] = mid
            self._deliver(name, msg)
        elif name in self._catching:
            self._again.add(name)
        else:
            self.rt.hub.spawn(self._catch_up(name))

    async def _catch_up(self, name: str) -> None:
        if name in self._catching:
            self._again.add(name)
            return
        self._catching.add(name)
        try:
            while True:
                self._again.discard(name)
                msgs = await self.store.chat_range(self.rt.gid, name, self.delivered.get(name, 0), 1000)
                for m in msgs:
                    if m["id"] > self.delivered.get(name, 0):
                        self.delivered[name] = m["id"]
                        self._deliver(name, m)
                if len(msgs) < 1000 and name not in self._again:
                    break
        finally:
            self._catching.discard(name)

    def _deliver(self, name: str, msg: dict) -> None:
        rt = self.rt
        rec = self.records[name]
        rt.proposals.seen(name, msg)
        frame = {"t": "msg", "id": None, "game": rt.gid, "channel": name, "msg": msg}
        data = pack(frame)                  # (packed once for every reader, counted once)
        n = 0
        for c in list(rt.conns):
            if chat.can_read(rec, c.seat) and c.send(frame, data, count=False):
                n += 1
        rt.hub.metrics.sent(frame, n)

    # -- requests -----------------------------------------------------------------------------------
    def channel_list(self, seat: str | None) -> list[dict]:
        """The channels ``seat`` may read (spectators: ``public``), public first."""
        return [chat.public_info(rec, self.delivered.get(n, 0))
                for n, rec in sorted(self.records.items(), key=lambda kv: (kv[1]["kind"] != "public", kv[0]))
                if chat.can_read(rec, seat)]

    def _channel(self, name: Any, seat: str | None) -> dict:
        """The channel ``name`` as ``seat`` may know it.  A group channel the seat does not belong
        to is answered exactly like a channel that does not exist (``unknown_channel``), so that
        asking tells nobody that others opened one; the public and pair channels exist in every
        game, so reading another pair's is ``not_member`` (checked by the caller)."""
        rec = self.records.get(name) if isinstance(name, str) else None
        if rec is None or (rec["kind"] == "group" and not chat.can_read(rec, seat)):
            raise ProtocolError("unknown_channel", f"no channel {str(name)[:40]!r} in this game")
        return rec

    async def _rate(self, seat: str) -> None:
        """One token of the seat's chat bucket; the bucket lives in the store, so with Redis
        every process serving the game draws from the same one."""
        cfg = self.rt.hub.config
        if not await self.store.take_token(f"{self.rt.gid}:{seat}", cfg.chat_rate, cfg.chat_burst):
            wait = max(0.1, round(1 / cfg.chat_rate, 1))
            raise ProtocolError("rate_limited", f"too many chat messages; wait {wait:g} s", retry_after=wait)

    async def post(self, seat: str, name: Any, text: Any, proposal: Any = None) -> dict:
        rt = self.rt
        rec = self._channel(name, seat)
        if not chat.can_post(rec, seat):
            raise ProtocolError("not_member", f"{seat} is not a member of {name!r}")
        if not isinstance(text, str):
            raise ProtocolError("bad_request", "'text' must be a string")
        if len(text) > MAX_TEXT:
            raise ProtocolError("message_too_large", f"chat text is limited to {MAX_TEXT} characters")
        if proposal is None and not text.strip():
            raise ProtocolError("bad_request", "an empty message")
        prop = None
        if proposal is not None:
            prop = chat.parse_proposal(proposal, seat, rec, list(rt.seats),
                                       engine=[s for s, r in rt.seats.items() if r.get("kind") == "engine"])
            turn = rt.game.turn if rt.game is not None else 1
            why = pact_until_problem(turn, prop["until"]) if prop["kind"] == "pact" else None
            if why:
                raise ProtocolError("bad_request", why)
            if prop["kind"] == "trade" and rt.postal is not None:
                prop["post"] = await self._by_post(seat, prop)
        await self._rate(seat)
        if prop is not None:
            for a in chat.post_actions(prop, seat):
                if chat.done_already(a, rt.game):       # (invited again: the consent stands already)
                    prop["seq"] = rt.seq
                    if prop["kind"] == "committee":        # (told to the bots by the driving process: Proposals.seen)
                        prop["again"] = True
                    continue
                seq, events = await rt.submit(a, by="chat")
                prop["seq"] = seq
                for e in events:
                    if e.kind == "trade_offered":
                        prop["offer"] = e.data["offer"]
            if not text:
                text = f"{seat} proposes a {prop['kind']}"
        msg: dict = {"seat": seat, "ts": now_ms(), "text": text}
        if prop is not None:
            msg["proposal"] = prop
        mid = await self.store.chat_append(rt.gid, name, msg, self.store.topic(rec["secret"], self.rt.gid))
        msg["id"] = mid
        return msg

    async def _by_post(self, seat: str, prop: dict) -> dict:
        """A trade proposed in a postal game (004 [17.0] postal [4.2]): no engine action, for a
        trade by post is made when both sheets hold mirror ``trade`` orders.  The engine judges
        the proposer's order now (``PostalGame.trade_orders``: :class:`IllegalAction`, nothing
        posted, if a sheet would refuse it) and gives the two orders; the proposal keeps them
        with the phase whose sheets they are for (``post``: ``turn``, ``phase``, ``orders`` by
        seat)."""
        rt = self.rt
        terms = {f: prop[f] for f in chat.TRADE_FIELDS if f != "to" and f in prop}
        async with rt.lock:
            await rt.ensure_current()
            g = rt.game
            got = g.trade_orders(seat, {"with": prop["to"], **terms})
            return {"turn": g.turn, "phase": g.phase, "orders": {seat: got["order"], prop["to"]: got["mirror"]}}

    async def post_bot(self, seat: str, name: str, text: str, proposal: dict | None = None) -> dict | None:
        """A bot's message (rcw.bots.negotiation.Message), posted by the driving process: no
        rate limit, and a proposal card is the bot's own step already applied (its ``seq`` and
        ``offer`` filled in by the driver) or a pact.  None if the channel is gone."""
        rec = self.records.get(name)
        if rec is None or not chat.can_post(rec, seat):
            return None
        msg: dict = {"seat": seat, "ts": now_ms(), "text": text[:MAX_TEXT]}
        if proposal is not None:
            msg["proposal"] = proposal
        msg["id"] = await self.store.chat_append(self.rt.gid, name, msg, self.store.topic(rec["secret"], self.rt.gid))
        return msg

    async def answer(self, seat: str, name: Any, msg_id: int, accept: bool) -> dict:
        """``msg_id`` is an id the protocol layer checked (1 .. protocol.MAX_INDEX)."""
        rt = self.rt
        rec = self._channel(name, seat)
        if not chat.can_post(rec, seat):
            raise ProtocolError("not_member", f"{seat} is not a member of {name!r}")
        found = await self.store.chat_range(rt.gid, name, msg_id - 1, 1)
        if not found:
            raise ProtocolError("unknown_message", f"no message {msg_id} in {name!r}")
        prop = found[0].get("proposal")
        if not prop:
            raise ProtocolError("not_a_proposal", f"message {msg_id} carries no proposal")
        if seat not in prop.get("addressees", []):
            raise ProtocolError("not_addressed", f"proposal {msg_id} is not addressed to {seat}")
        if accept and rt.game is not None:
            why = chat.no_longer_stands(prop, found[0].get("seat"), rt.game)
            if why:
                raise ProtocolError("proposal_closed", f"proposal {msg_id} no longer stands: {why}")
        await self._rate(seat)
        seq = None
        for a in chat.answer_actions(prop, seat, accept):
            if not chat.done_already(a, rt.game):
                seq, _ = await rt.submit(a, by="chat")
        msg: dict = {"seat": seat, "ts": now_ms(), "text": chat.reply_text(seat, accept, prop, prop["kind"], msg_id),
                     "reply": {"msg": msg_id, "accept": bool(accept), "seq": seq}}
        if prop["kind"] == "pact" and accept:          # (kept with the game before the reply is posted)
            msg["reply"]["pact"] = await rt.proposals.keep_pact(name, msg_id, prop, found[0].get("seat"), seat)
        mid = await self.store.chat_append(rt.gid, name, msg, self.store.topic(rec["secret"], self.rt.gid))
        msg["id"] = mid
        return msg

    async def open_channel(self, seat: str, members: Any, title: Any = "") -> dict:
        rt = self.rt
        if not isinstance(members, list) or not all(isinstance(m, str) and m in rt.seats for m in members):
            raise ProtocolError("bad_request", "'members' must be a list of seats of this game")
        ms = sorted(set(members) | {seat})
        if len(ms) < 2:
            raise ProtocolError("bad_request", "a group channel needs at least two members")
        if not isinstance(title, str) or len(title) > 80:
            raise ProtocolError("bad_request", "'title' must be a string of at most 80 characters")
        await self._rate(seat)
        name = chat.group_name()
        while name in self.records:     # (2**-64: never; but a name is never given twice)
            name = chat.group_name()
        rec = chat.channel_record(name, "group", ms, by=seat, title=title)
        await self.store.add_channel(rt.gid, name, rec)
        await self._register(name, rec, fresh=True)
        await self.store.publish(rt.topic, pack({"k": "chan", "name": name}))
        return chat.public_info(rec, 0)

    async def history(self, seat: str | None, name: Any, after: int, limit: int) -> dict:
        """``after`` and ``limit`` are in the ranges the protocol layer checked (0 ..
        protocol.MAX_INDEX, 1 .. protocol.MAX_HISTORY): nothing is clamped here."""
        rec = self._channel(name, seat)
        if not chat.can_read(rec, seat):
            raise ProtocolError("not_member", f"{seat or 'a spectator'} may not read {name!r}")
        msgs = await self.store.chat_range(self.rt.gid, name, after, limit)
        return {"t": "history", "channel": name, "messages": msgs,
                "last": max(self.delivered.get(name, 0), msgs[-1]["id"] if msgs else 0)}
