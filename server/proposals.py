"""The bridge between proposals made in chat and the answers bots give in the game.

A proposal posted in a channel (a trade, a Central Committee, a purge, the Czar's execution)
is answered by a human with ``accept``/``decline`` in the same channel
(:meth:`Channels.answer`).  A bot answers in the game instead (an ``AcceptTrade``, a
``JoinCommittee``, an ``ApprovePurge``...), and so does a bot deciding for a human after a
deadline.  :class:`Proposals` matches such answers with the proposals seen in chat and posts the
seat's reply in the proposal's channel, as if it had pressed accept or decline (``reply.by``
says ``"bot"`` or ``"deadline"``).  Only the driving process posts replies, once each.

Bots talk (issue 18, :mod:`rcw.bots.negotiation`): the driver hands over the reasons a bot gave
with its answer (the reply's text and ``reply.reason``), its declines that apply no action (a
Committee it will not join), and its answers to pacts.  Pacts are the one proposal kind the
engine knows nothing of: every process keeps the accepted ones (:attr:`Proposals.pacts`, from
the replies it delivers, so every replica agrees), the driving one tells the bots
(:meth:`Driver.pact`) and announces a break to its victim in the pair channel of breaker and
victim (a message with ``seat`` nil and ``pact_broken``), checking each applied action's
events against the pacts (:meth:`rcw.bots.negotiation.PactBook.breaks`).  The store keeps them
with the game (:meth:`Store.add_pact`, the first record of a pact stands; a break is written
into it), so a process that loads the game, after a restart or a fail-over, knows them and
their breaks (:meth:`Proposals.load`).
"""

from __future__ import annotations

import asyncio

from rcw.bots.negotiation import Break, Pact, PactBook
from rcw.server import chat
from rcw.server.chat import pair_name
from rcw.server.host import Host
from rcw.server.protocol import now_ms

from rcw.actions import Action

#: How many proposals and answers are remembered (the oldest are forgotten first).
KEEP = 500
#: Seconds a counter-proposal waits for the proposal it counters to be seen here.
COUNTER_WAIT = 2.0


def proposal_key(prop: dict, channel: str = "", mid: int = 0) -> str | None:
    """What a proposal and the answers to it have in common (``trade:<offer>``, ``purge:<seq>``,
    ``pact:<channel>:<message id>``, ``trade:<channel>:<message id>`` for a trade by post...)."""
    kind = prop.get("kind")
    if kind == "pact" and mid:
        return f"pact:{channel}:{mid}"
    if chat.by_post(prop):
        return f"trade:{channel}:{mid}" if mid else None
    if kind == "trade" and prop.get("offer"):
        return f"trade:{prop['offer']}"
    if kind == "committee":
        return "committee:" + ",".join(sorted(prop.get("members", [])))
    if kind in ("purge", "execution") and prop.get("seq"):
        return f"{kind}:{prop['seq']}"
    return None


class Proposals:
    """Proposals seen in a game's chat, and answers given to them in the game."""

    def __init__(self, rt: Host) -> None:
        self.rt = rt
        self._props: dict[str, tuple[str, int, list[str], int]] = {}   # key -> channel, msg id, addressees, seq
        # key -> [(seat, accept, seq (None: no action), at (the game's position then), by, reason)]
        self._answers: dict[str, list[tuple[str, bool, int | None, int, str, str]]] = {}
        self._replied: set[tuple[str, int, str]] = set()                 # (channel, msg id, seat) answered
        self._by_msg: dict[tuple[str, int], tuple[str, dict, str]] = {}  # (channel, id) -> key, proposal, poster
        self._last_purge = 0                    # seq of the last purge declaration
        self._last_exec = 0                     # seq of the last execution order proposed
        self.pacts = PactBook()                 # the pacts accepted in chat (every process keeps them)
        self._awaited: dict[str, list[asyncio.Future]] = {}     # key -> counter cards waiting to see it

    async def load(self) -> None:
        """The pacts the store keeps for this game, and their breaks (when the game is loaded)."""
        for rec in (await self.rt.store.load_pacts(self.rt.gid)).values():
            pact = Pact(**{k: rec[k] for k in ("a", "b", "until", "since", "id")})
            if self.pacts.add(pact) and rec.get("broken"):
                b = rec["broken"]
                self.pacts.broken.append(Break(pact, b["by"], b["victim"], b["act"]))

    def of(self, seat: str | None) -> list[dict]:
        """The pacts ``seat`` is party to (the state frames' ``pacts``), each with its break."""
        out = []
        for p in self.pacts.pacts:
            if seat in (p.a, p.b):
                b = next((x for x in self.pacts.broken if x.pact == p), None)
                out.append(dict(p.to_dict(), broken=None if b is None else {"by": b.by, "victim": b.victim,
                                                                             "act": b.act}))
        return out

    def applied(self, events: list, seq: int) -> None:
        """An action was applied: remember where the last purge and execution order began
        (their approvals name no proposal, only the position they answer); a pact it breaks
        is announced to its victim."""
        for e in events:
            if e.kind == "purge_declared":
                self._last_purge = seq
            elif e.kind == "execution_proposed":
                self._last_exec = seq
        if self.pacts:
            g = self.rt.game
            for b in self.pacts.breaks(events, g.turn if g is not None else 0, seq):
                rec = dict(b.pact.to_dict(), broken={"by": b.by, "victim": b.victim, "act": b.act, "seq": seq})
                self.rt.hub.spawn(self.rt.store.update_pact(self.rt.gid, b.pact.id, rec))
                if self.rt.driver.driving:
                    self.rt.hub.spawn(self._announce(b, seq))

    def seen(self, channel: str, msg: dict) -> None:
        """A chat message was delivered here: if it carries a proposal, remember it (a pact
        addressed to a bot is put to the bot); if it replies to a pact, an accepted pact is
        kept; a human's decline of a bot's card is told to the bots.  A trade by post addressed to
        a bot is put to the bot too (postal [4.2]: it answers, and writes the mirror order on its
        sheet if it accepts), and so is one to a seat in civil disorder, which its bot plays."""
        reply = msg.get("reply")
        if isinstance(reply, dict):
            self._seen_reply(channel, msg, reply)
            return
        prop = msg.get("proposal")
        if not isinstance(prop, dict):
            return
        key = proposal_key(prop, channel, msg.get("id", 0))
        if key is None:
            return
        self._props[key] = (channel, msg["id"], list(prop.get("addressees", [])), int(prop.get("seq") or 0))
        self._by_msg[(channel, msg["id"])] = (key, prop, msg.get("seat"))
        if len(self._props) > KEEP:
            self._props.pop(next(iter(self._props)))
        if len(self._by_msg) > 4 * KEEP:
            self._by_msg.pop(next(iter(self._by_msg)))
        for f in self._awaited.pop(key, ()):
            if not f.done():
                f.set_result(None)
        if prop.get("again") and prop.get("kind") == "committee" and self.rt.driver.driving:
            # a Committee proposed again by a seat whose consent to it stood (no action, so no
            # event): the bots invited answer it anew, on the process that runs them
            self.rt.driver.hear({"kind": "committee", "seat": msg.get("seat"), "members": list(prop.get("members", []))})
        if (prop.get("kind") == "pact" or chat.by_post(prop)) and self.rt.driver.driving:
            for seat in prop.get("addressees", []):
                if self.rt.driver.bot_plays(seat):         # (a seat in civil disorder too: its bot answers)
                    self.rt.hub.spawn(self.rt.driver.consider(seat, dict(prop, seat=msg.get("seat")), key))
        self._match(key)

    def _seen_reply(self, channel: str, msg: dict, reply: dict) -> None:
        if isinstance(reply.get("pact"), dict):         # an accepted pact (kept in the store already)
            try:
                pact = Pact(**{k: reply["pact"][k] for k in ("a", "b", "until", "since", "id")})
            except (KeyError, TypeError):
                return
            if self.pacts.add(pact):
                self.rt.driver.pact(pact)
            return
        got = self._by_msg.get((channel, reply.get("msg")))
        if got is None:
            return
        key, prop, poster = got
        seat, accept = msg.get("seat"), bool(reply.get("accept"))
        if not accept and self.rt.driver.driving and self.rt.seats.get(seat, {}).get("kind") == "human":
            self.rt.driver.hear({"kind": "reply", "seat": seat, "key": key, "accept": False})
        if accept and chat.by_post(prop) and self.rt.driver.driving and self.rt.driver.bot_plays(poster or ""):
            # a bot's counter-offer by post accepted: its order goes on its sheet (PostalAgent.hear)
            self.rt.driver.hear({"kind": "post_trade", "seat": seat, "post": prop["post"]})

    async def keep_pact(self, channel: str, mid: int, prop: dict, poster: str, seat: str) -> dict:
        """``seat`` accepts the pact ``poster`` proposed in message ``mid`` of ``channel``: the
        store keeps it (before the reply is posted, which carries it as ``reply.pact``, so every
        process that delivers the reply keeps it too)."""
        other = next((s for s in prop.get("with", ()) if s != poster), seat)
        pact = Pact(poster, other, int(prop.get("until", 0)), since=self.rt.seq, id=f"{channel}:{mid}")
        await self.rt.store.add_pact(self.rt.gid, pact.id, pact.to_dict())
        return pact.to_dict()

    def note_answer(self, action: Action, events: list, seq: int, by: str, reasons: dict | None = None) -> None:
        """A bot (or a deadline) applied ``action``: if it answers a proposal made in chat,
        the seat's reply is posted there, as if it had pressed accept or decline, with the
        bot's reason (``reasons``: proposal key or kind -> text)."""
        t = action.TYPE
        if t in ("AcceptTrade", "DeclineTrade"):
            key, accept = f"trade:{action.offer}", t == "AcceptTrade"
        elif t == "JoinCommittee":
            key, accept = "committee:" + ",".join(sorted(action.members)), True
        elif t == "ApprovePurge":
            key, accept = f"purge:{self._last_purge}", bool(action.approve)
        elif t == "OrderExecution" and any(e.kind == "execution_consent" for e in events):
            key, accept = f"execution:{self._last_exec}", bool(action.consent)
        else:
            return
        reasons = reasons or {}
        self._answer(key, action.seat, accept, seq, by, reasons.get(key) or reasons.get(key.split(":")[0], ""))

    def reply(self, seat: str, key: str, accept: bool, by: str, reason: str) -> None:
        """A bot's answer that applies no action (a Committee it will not join, a pact)."""
        self._answer(key, seat, accept, None, by, reason)

    def where(self, key: str) -> tuple[str, int] | None:
        """The channel and message id of the last proposal seen with ``key``."""
        prop = self._props.get(key)
        return (prop[0], prop[1]) if prop is not None else None

    async def post_card(self, seat: str, channel: str, text: str, card: dict, to: str | None) -> None:
        """A bot's counter-proposal card (``card["counter"]``: the key of the proposal it
        counters): it names that proposal's message (``counter: <msg id>``) and goes to its
        channel, once the proposal is seen here (at most :data:`COUNTER_WAIT` seconds: a
        proposal's message is delivered a moment after the action it posted); ``counter:
        true`` in ``channel`` if it was not made in chat (a trade offered with ``act``)."""
        key = card.get("counter")
        got = self.where(key) if isinstance(key, str) else None
        if isinstance(key, str) and got is None:
            fut = asyncio.get_running_loop().create_future()
            self._awaited.setdefault(key, []).append(fut)
            try:
                await asyncio.wait_for(fut, COUNTER_WAIT)
            except TimeoutError:
                waiting = self._awaited.get(key, [])
                if fut in waiting:
                    waiting.remove(fut)
                if not waiting:
                    self._awaited.pop(key, None)
            got = self.where(key)
        rec = self.rt.channels.records.get(got[0]) if got is not None else None
        if rec is not None and seat in rec["members"] and (to is None or to in rec["members"]):
            channel, card = got[0], dict(card, counter=got[1])
        else:
            card = dict(card, counter=True)
        await self.rt.channels.post_bot(seat, channel, text, card)

    def _answer(self, key: str, seat: str, accept: bool, seq: int | None, by: str, reason: str) -> None:
        at = seq if seq is not None else self.rt.seq
        self._answers.setdefault(key, []).append((seat, accept, seq, at, by, reason))
        if len(self._answers) > KEEP:
            self._answers.pop(next(iter(self._answers)))
        self._match(key)

    def _match(self, key: str) -> None:
        prop = self._props.get(key)
        if prop is None or not self.rt.driver.driving:
            return
        name, mid, addressees, pseq = prop
        for seat, accept, seq, at, by, reason in self._answers.get(key, ()):
            # (an answer to this proposal, not to an earlier one with the same key: an action
            # after the proposer's, or an answer without one given since)
            if seat in addressees and (at > pseq or (seq is None and at >= pseq)) \
                    and (name, mid, seat) not in self._replied:
                if len(self._replied) > 10 * KEEP:
                    self._replied.clear()
                self._replied.add((name, mid, seat))
                self.rt.hub.spawn(self._post_reply(name, mid, seat, accept, seq, key.split(":")[0], by, reason))

    async def _post_reply(self, name: str, mid: int, seat: str, accept: bool, seq: int | None, kind: str, by: str,
                          reason: str = "") -> None:
        rt = self.rt
        rec = rt.channels.records.get(name)
        if rec is None or rt.closed:
            return
        got = self._by_msg.get((name, mid))
        if got is None:                   # (forgotten here, KEEP: the store still holds the proposal)
            found = await rt.store.chat_range(rt.gid, name, mid - 1, 1)
            prop = found[0].get("proposal") if found else None
            if isinstance(prop, dict):
                got = (None, prop, found[0].get("seat"))
        text = chat.reply_text(seat, accept, got[1] if got else None, kind, mid) + (f": {reason}" if reason else "")
        msg = {"seat": seat, "ts": now_ms(), "text": text[:2000],
               "reply": {"msg": mid, "accept": accept, "seq": seq, "by": by}}
        if reason:
            msg["reply"]["reason"] = reason
        if kind == "pact" and accept and got is not None and got[2]:
            msg["reply"]["pact"] = await self.keep_pact(name, mid, got[1], got[2], seat)
        await rt.store.chat_append(rt.gid, name, msg, rt.store.topic(rec["secret"], rt.gid))

    async def _announce(self, b: Break, seq: int) -> None:
        """A pact broken: told to its victim in the pair channel of breaker and victim."""
        rt = self.rt
        name = pair_name(b.by, b.victim)
        rec = rt.channels.records.get(name)
        if rec is None or rt.closed:
            return
        msg = {"seat": None, "ts": now_ms(), "text": b.text(),
               "pact_broken": {"pact": b.pact.to_dict(), "by": b.by, "victim": b.victim, "act": b.act, "seq": seq}}
        await rt.store.chat_append(rt.gid, name, msg, rt.store.topic(rec["secret"], rt.gid))
