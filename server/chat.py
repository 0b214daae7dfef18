"""Negotiation channels: names, membership, rate limits and structured proposals.

Every game has a ``public`` channel (every seat posts; spectators read), a private channel for
every pair of seats (``A-B``, ``A-C``, ... - exactly those two seats read and post), and any
number of group channels that a player opens with a fixed member list (e.g. a would-be Central
Committee, 004 [11.11]).  A group channel's name is random (:func:`group_name`): it says
nothing of how many groups others opened, and to a seat outside it the channel does not exist.
Each channel has a random pub/sub secret: its live messages travel on ``<prefix>ps:<secret>``,
never on a name derived from the game id.

Structured proposals ride in chat messages and map onto engine actions.  Posting a proposal is
the proposer's own move (applied through the engine first; if the engine refuses, nothing is
posted); each addressee answers with one ``accept``/``decline`` frame, which applies the
addressee's own action:

============  =====================================  ==========================  ======================
kind          posting applies (proposer)              accept applies (addressee)  decline applies
============  =====================================  ==========================  ======================
trade         OfferTrade(to, give_*, take_*)          AcceptTrade(offer)          DeclineTrade(offer)
committee     JoinCommittee(members)                  JoinCommittee(members)      (a chat reply only)
purge         DeclarePurge(target, purgers, shares)   ApprovePurge(approve=true)  ApprovePurge(false)
execution     OrderExecution()                        OrderExecution()            OrderExecution(consent=false)
pact          (nothing: the engine is not bound)      (the server keeps the pact) (a chat reply only)
============  =====================================  ==========================  ======================

In a postal game a trade is made when both sheets hold mirror orders (004 [17.0] postal [4.2]):
a trade proposal applies nothing there; the engine judges the proposer's order and writes both
(``post``, :meth:`rcw.server.channels.Channels._by_post`), and accept and decline are chat
replies only (a bot addressed answers through :class:`~rcw.server.proposals.Proposals` and
writes its order on its sheet).

A committee proposal or acceptance by a seat that consents to exactly that Committee already
applies nothing (the engine's only objection would be that, ``already_consents``): an invitation
asked again is posted (its ``seq`` the position it is asked at) and accepted (the reply's
``seq`` null).

No proposal is addressed to an engine seat (``Game.ENGINE_SEATS``, e.g. the SPI solitaire's
non-Red Player): nothing there would answer it (``engine_seat``, and nothing is posted).

A pact (issue 18) is "no attack on each other's stacks, no purge, no assassination until the
end of Game-Turn ``until``" between the proposer and ``with``; the server keeps the accepted
ones (:class:`~rcw.server.proposals.Proposals`), shows them to their parties and announces a
break to its victim, and tells the bots (:meth:`rcw.bots.match.Match.pact`).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Collection
from dataclasses import fields
from itertools import combinations
from typing import TYPE_CHECKING, Any

from rcw.server.protocol import MAX_PROPOSAL, ProtocolError, pack

if TYPE_CHECKING:
    from rcw.game import Game

from rcw.actions import (
    AcceptTrade,
    Action,
    ApprovePurge,
    DeclarePurge,
    DeclineTrade,
    JoinCommittee,
    OrderExecution,
    action_from_wire,
)

PUBLIC = "public"
PROPOSAL_KINDS = ("trade", "committee", "purge", "execution", "pact")
TRADE_FIELDS = ("to", "give_leaders", "give_politburo", "give_assassins", "take_leaders", "take_politburo",
                "take_assassins")


def group_name() -> str:
    """A new group channel's name: ``g`` and 16 random hex digits (never a count of groups)."""
    return "g" + secrets.token_hex(8)


def pair_name(a: str, b: str) -> str:
    x, y = sorted((a, b))
    return f"{x}-{y}"


def channel_record(name: str, kind: str, members: list[str], by: str | None = None, title: str = "") -> dict:
    return {"name": name, "kind": kind, "members": sorted(members), "by": by, "title": title,
            "secret": secrets.token_hex(16), "created": int(time.time() * 1000)}


def initial_channels(seats: list[str]) -> dict[str, dict]:
    chans = {PUBLIC: channel_record(PUBLIC, "public", list(seats))}
    for a, b in combinations(seats, 2):
        n = pair_name(a, b)
        chans[n] = channel_record(n, "pair", [a, b])
    return chans


def public_info(rec: dict, last: int) -> dict:
    """What a client is told about a channel (never the secret)."""
    return {"name": rec["name"], "kind": rec["kind"], "members": list(rec["members"]), "by": rec.get("by"),
            "title": rec.get("title", ""), "last": last}


def can_read(rec: dict, seat: str | None) -> bool:
    if seat is None:
        return rec["kind"] == "public"
    return seat in rec["members"]


def can_post(rec: dict, seat: str | None) -> bool:
    return seat is not None and seat in rec["members"]


class RateLimiter:
    """Token buckets: ``burst`` tokens, refilled at ``rate`` per second, one per message."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = float(rate)
        self.burst = float(burst)
        self.buckets: dict[Any, tuple[float, float]] = {}

    def allow(self, key: Any, cost: float = 1.0) -> bool:
        now = time.monotonic()
        tokens, last = self.buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        if tokens < cost:
            self.buckets[key] = (tokens, now)
            return False
        self.buckets[key] = (tokens - cost, now)
        if len(self.buckets) > 100_000:  # forget idle buckets (they would be full anyway)
            self.buckets = {k: v for k, v in self.buckets.items() if now - v[1] < self.burst / max(self.rate, 1e-9)}
        return True


# -- proposals ------------------------------------------------------------------------------
def _seat_list(v: Any, name: str, seats: list[str]) -> list[str]:
    if not isinstance(v, (list, tuple)) or not all(isinstance(x, str) and x in seats for x in v):
        raise ProtocolError("bad_request", f"proposal '{name}' must be a list of seats of this game")
    if len(set(v)) != len(v):
        raise ProtocolError("bad_request", f"proposal '{name}' lists a seat twice")
    return list(v)


def parse_proposal(p: Any, poster: str, channel: dict, seats: list[str], engine: Collection[str] = ()) -> dict:
    """Check a proposal's shape; returns the normalised proposal (with ``to``: addressees).
    ``engine``: the seats the game mode's own procedures play (``Game.ENGINE_SEATS``, seat
    records of kind ``engine``, e.g. the SPI solitaire's non-Red Player, 004 [18.0]): they
    answer no proposal, so none is addressed to them (``engine_seat``; a pact too, which the
    engine would never see)."""
    if not isinstance(p, dict):
        raise ProtocolError("bad_request", "a proposal must be a map")
    if len(pack(p)) > MAX_PROPOSAL:
        raise ProtocolError("message_too_large", f"a proposal must pack to at most {MAX_PROPOSAL} bytes")
    kind = p.get("kind")
    if kind not in PROPOSAL_KINDS:
        raise ProtocolError("bad_request", f"proposal kind must be one of {', '.join(PROPOSAL_KINDS)}")
    members = channel["members"]
    if kind == "trade":
        extra = set(p) - set(TRADE_FIELDS) - {"kind"}
        if extra:
            raise ProtocolError("bad_request", f"a trade proposal has no fields {sorted(extra)}")
        to = p.get("to")
        if isinstance(to, str) and to not in seats:
            raise ProtocolError("bad_request", f"no seat {to[:8]!r} in this game: a trade proposal's 'to' is another "
                                               f"seat of it ({', '.join(s for s in seats if s != poster)})")
        if not isinstance(to, str) or to == poster:
            raise ProtocolError("bad_request", "a trade proposal needs 'to': another seat")
        out = {"kind": "trade", **{f: p[f] for f in TRADE_FIELDS if f in p}}
        addressees = [to]
    elif kind == "committee":
        ms = _seat_list(p.get("members"), "members", seats)
        if poster not in ms:
            raise ProtocolError("bad_request", "the proposer must be one of the committee 'members'")
        out = {"kind": "committee", "members": sorted(ms)}
        addressees = [m for m in sorted(ms) if m != poster]
    elif kind == "purge":
        target = p.get("target")
        if not isinstance(target, str) or target not in seats:
            raise ProtocolError("bad_request", "a purge proposal needs 'target': a seat")
        purgers = _seat_list(p.get("purgers", [poster]), "purgers", seats)
        if poster not in purgers:
            raise ProtocolError("bad_request", "the proposer must be one of the 'purgers'")
        shares = p.get("shares", [])
        if not isinstance(shares, (list, tuple)) or not all(isinstance(x, str) and x in seats for x in shares):
            raise ProtocolError("bad_request", "'shares' must be a list of seats (the order of division)")
        out = {"kind": "purge", "target": target, "purgers": purgers, "shares": list(shares)}
        addressees = [m for m in purgers if m != poster]
    elif kind == "pact":
        other, until = p.get("with"), p.get("until")
        if not isinstance(other, str) or other not in seats or other == poster:
            raise ProtocolError("bad_request", "a pact proposal needs 'with': another seat")
        if isinstance(until, bool) or not isinstance(until, int) or until < 1:
            raise ProtocolError("bad_request", "a pact proposal needs 'until': a Game-Turn (an integer from 1)")
        extra = set(p) - {"kind", "with", "until"}
        if extra:
            raise ProtocolError("bad_request", f"a pact proposal has no fields {sorted(extra)}")
        out = {"kind": "pact", "with": sorted((poster, other)), "until": until}
        addressees = [other]
    else:
        to = _seat_list(p.get("to", []), "to", seats)
        out = {"kind": "execution", "to": [m for m in to if m != poster]}
        addressees = out["to"]
    played = [m for m in addressees if m in engine]
    if played:
        raise ProtocolError("engine_seat", f"{', '.join(played)} {'is' if len(played) == 1 else 'are'} played by the "
                                           f"game's engine (its own procedures), which answers no {kind} proposal")
    outside = [m for m in addressees if m not in members]
    if outside:
        raise ProtocolError("bad_request", f"addressees {outside} are not members of channel {channel['name']!r}")
    out["addressees"] = addressees
    return out


def by_post(prop: dict) -> bool:
    """Whether ``prop`` is a trade proposed by post (postal [4.2]): no engine action, its ``post``
    the phase whose sheets it is for and the two orders that make it."""
    return prop.get("kind") == "trade" and isinstance(prop.get("post"), dict)


def post_actions(prop: dict, poster: str) -> list[Action]:
    """The proposer's own action(s) that posting the proposal applies (none for a trade by post)."""
    kind = prop["kind"]
    if by_post(prop):
        return []
    if kind == "trade":
        wire = {"t": "OfferTrade", "seat": poster, **{f: prop[f] for f in TRADE_FIELDS if f in prop}}
        return [action_from_wire(wire)]
    if kind == "committee":
        return [JoinCommittee(poster, tuple(prop["members"]))]
    if kind == "purge":
        return [DeclarePurge(poster, prop["target"], tuple(prop["purgers"]), tuple(prop["shares"]))]
    if kind == "pact":
        return []
    return [OrderExecution(poster)]


def no_longer_stands(prop: dict, poster: str | None, game: Game) -> str | None:
    """Why a proposal may no longer be accepted, or None.  A Central Committee invitation stands
    while its proposer consents to a Committee of exactly its members (the engine's
    ``Game.consents_to``, 004 [11.11]: a proposer who has since consented to another one,
    withdrawn or quit invites no one any more).  (Trade offers are the engine's to judge; the
    browser's card asks the engine the same, the ``consents`` query.)"""
    if by_post(prop):
        post = prop["post"]
        if game.over or (game.turn, game.phase) != (post.get("turn"), post.get("phase")):
            return (f"the sheets of Game-Turn {post.get('turn')}'s {post.get('phase')} phase it was for are "
                    "adjudicated (004 [17.0] postal [4.2])")
    if prop.get("kind") == "committee":
        members = prop.get("members", [])
        if poster is None:
            return "it names no proposer"
        if not game.consents_to(poster, members):
            return f"{poster} no longer consents to a Central Committee of {', '.join(members)}"
    return None


def done_already(a: Action, game: Game | None) -> bool:
    """Whether ``a``, a proposal's or an answer's action, is done already: the engine refuses it
    for that alone (``already_consents``: a consent to the Central Committee its seat consents to
    now, 004 [11.11]).  Inviting again to the Committee one consents to, or accepting an
    invitation to it, then asks nothing of the game; any other refusal stands."""
    if not isinstance(a, JoinCommittee) or game is None:
        return False
    why = game.why_illegal(a)
    return why is not None and why.code == "already_consents"


def reply_text(seat: str, accept: bool, prop: dict | None, kind: str, mid: int) -> str:
    """A reply's words: "B accepts Trade #1 (proposal #3)" for a trade, by the game's number for
    the offer (the card's title, the Orders panel's and the log's), else "B declines committee
    proposal #3"."""
    verb = "accepts" if accept else "declines"
    offer = prop.get("offer") if prop else None
    if prop and by_post(prop):
        return f"{seat} {verb} the trade by post (proposal #{mid})"
    return f"{seat} {verb} Trade #{offer} (proposal #{mid})" if kind == "trade" and offer else f"{seat} {verb} {kind} proposal #{mid}"


def answer_actions(prop: dict, seat: str, accept: bool) -> list[Action]:
    """The addressee's action(s) for an accept or decline."""
    kind = prop["kind"]
    if kind == "pact" or by_post(prop):
        return []
    if kind == "trade":
        offer = int(prop.get("offer", 0))
        return [AcceptTrade(seat, offer) if accept else DeclineTrade(seat, offer)]
    if kind == "committee":
        return [JoinCommittee(seat, tuple(prop["members"]))] if accept else []
    if kind == "purge":
        return [ApprovePurge(seat, bool(accept))]
    if accept:
        return [OrderExecution(seat)]
    if "consent" in {f.name for f in fields(OrderExecution)}:   # the engine asks members in turn
        return [action_from_wire({"t": "OrderExecution", "seat": seat, "consent": False})]
    return []
