"""The bridge between proposals made in chat and the answers bots give in the game.

A proposal posted in a channel (a trade, a Central Committee, a purge, the Czar's execution)
is answered by a human with ``accept``/``decline`` in the same channel
(:meth:`Channels.answer`).  A bot answers in the game instead (an ``AcceptTrade``, a
``JoinCommittee``, an ``ApprovePurge``...), and so does a bot deciding for a human after a
deadline.  :class:`Proposals` matches such answers with the proposals seen in chat and posts the
seat's reply in the proposal's channel, as if it had pressed accept or decline (``reply.by``
says ``"bot"`` or ``"deadline"``).  Only the driving process posts replies, once each.
"""

from __future__ import annotations

from rcw.server.host import Host
from rcw.server.protocol import now_ms

from rcw.actions import Action

#: How many proposals and answers are remembered (the oldest are forgotten first).
KEEP = 500


def proposal_key(prop: dict) -> str | None:
    """What a proposal and the answers to it have in common (``trade:<offer>``, ``purge:<seq>``...)."""
    kind = prop.get("kind")
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
        self._answers: dict[str, list[tuple[str, bool, int, str]]] = {}  # key -> [(seat, accept, seq, by)]
        self._replied: set[tuple[str, int, str]] = set()                 # (channel, msg id, seat) answered
        self._last_purge = 0                    # seq of the last purge declaration
        self._last_exec = 0                     # seq of the last execution order proposed

    def applied(self, events: list, seq: int) -> None:
        """An action was applied: remember where the last purge and execution order began
        (their approvals name no proposal, only the position they answer)."""
        for e in events:
            if e.kind == "purge_declared":
                self._last_purge = seq
            elif e.kind == "execution_proposed":
                self._last_exec = seq

    def seen(self, channel: str, msg: dict) -> None:
        """A chat message was delivered here: if it carries a proposal, remember it."""
        prop = msg.get("proposal")
        if not isinstance(prop, dict):
            return
        key = proposal_key(prop)
        if key is None:
            return
        self._props[key] = (channel, msg["id"], list(prop.get("addressees", [])), int(prop.get("seq") or 0))
        if len(self._props) > KEEP:
            self._props.pop(next(iter(self._props)))
        self._match(key)

    def note_answer(self, action: Action, events: list, seq: int, by: str) -> None:
        """A bot (or a deadline) applied ``action``: if it answers a proposal made in chat,
        the seat's reply is posted there, as if it had pressed accept or decline."""
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
        self._answers.setdefault(key, []).append((action.seat, accept, seq, by))
        if len(self._answers) > KEEP:
            self._answers.pop(next(iter(self._answers)))
        self._match(key)

    def _match(self, key: str) -> None:
        prop = self._props.get(key)
        if prop is None or not self.rt.driver.driving:
            return
        name, mid, addressees, pseq = prop
        for seat, accept, seq, by in self._answers.get(key, ()):
            if seat in addressees and seq > pseq and (name, mid, seat) not in self._replied:
                if len(self._replied) > 10 * KEEP:
                    self._replied.clear()
                self._replied.add((name, mid, seat))
                self.rt.hub.spawn(self._post_reply(name, mid, seat, accept, seq, key.split(":")[0], by))

    async def _post_reply(self, name: str, mid: int, seat: str, accept: bool, seq: int, kind: str, by: str) -> None:
        rt = self.rt
        rec = rt.channels.records.get(name)
        if rec is None or rt.closed:
            return
        verb = "accepts" if accept else "declines"
        msg = {"seat": seat, "ts": now_ms(), "text": f"{seat} {verb} {kind} proposal #{mid}",
               "reply": {"msg": mid, "accept": accept, "seq": seq, "by": by}}
        await rt.store.chat_append(rt.gid, name, msg, rt.store.topic(rec["secret"], rt.gid))
