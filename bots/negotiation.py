"""Bots that negotiate (issue 18): what an SDT bot values, how it answers a proposal (with a
reason in words from its tables), the counter-proposals it makes, the pacts it keeps, and the
messages it says in chat.

Sources: J. Richard Jarvinen's "Solitaire for Fanatics" (``004_8c1b9ecc5e5ea495.txt``: the
Political Indicator Table, PIT, and the Player Cooperation Table, PCT, whose notes price a
gift: "For each Politburo marker given to another player, shift marker 2 columns left", one
column for an Assassin marker) and Richard F. DeBaun's "The Tactics of Influence" in the same
file ("The easiest type of proposal to accept is a request to do nothing"; "It is essential to
maintain credibility ... promise only what you can deliver, and deliver all that you
promise"; "If negotiations break down ... settle for what you can get").

The valuation rule (:func:`trade_worth`)
----------------------------------------
A trade is worth to the bot what it gets minus what it gives, in *points*:

- an **Assassin marker** is worth 1 (the PCT's price of an Assassin gift, one column), 2 for
  the first one the bot would hold (without one it cannot make the assassination its SDT rows
  3 and 5 call for; giving away its last one likewise costs 2);
- a **Politburo marker** is worth 2 (the PCT's price, two columns), 3 when it is the marker
  that brings the Politburo markers of the bot and its friends (the players on PCT columns 2-3
  with it, who join its Central Committee on a die roll of 2-3 or more) to the engine's
  Committee threshold (``limits()["committee_markers"]``, eight, 004 [11.11]) or takes them
  below it: what the marker is worth to its purge plans;
- a **leader** (the pre-game trading session only, 004 [15.33]) is worth its value (its
  combat strength, 004 [8.26], the number the PIT adds up), twice that when its colour is the
  bot's PIT colour (a Red leader to a Red player: it moves the bot toward its colour); and a
  trade that takes a Red or White player off its colour (the PIT recomputed with the hands
  after the trade, on Game-Turn 1's boundaries) costs 3 more.

The bot asks, of a proposer on PCT column ``c`` with it (2 friendliest, 7 least friendly;
column 3 before the table is set up), a worth of at least ``c - 3`` (a friend on column 2 is
given a point; a player on column 7 must pay four), one point less from a pact partner. A
trade worth that much is **accepted**; one within :data:`COUNTER_BAND` points of it is
**countered** (the bot declines and offers the same trade changed by one marker: less asked
of it, or one more marker of the proposer's, the smallest change that makes it worth the
bot's while and that the engine allows: not an offer of nothing, 004 [15.33]); the rest is
**declined**. A gift (nothing asked) is always accepted, as before.

Pacts
-----
A pact (:class:`Pact`) is "no attack on each other's stacks, no purge, no assassination until
the end of Game-Turn N". The server keeps the pacts made in chat (the engine is not bound by
them) and tells the match (:meth:`rcw.bots.match.Match.pact`), which keeps them in the game's
Player Cooperation Table (:attr:`bots.cooperation.CooperationTable.pacts`). An SDT bot keeps
its own (no target of its partner's in its attacks, purges or assassinations); a pact broken
against anyone shifts the pair (breaker, victim) :data:`SHIFT_PACT_BREAK` columns right on the
PCT, on top of the act's own shift. A counterpurge is the rules' answer to a purge (004
[11.4]), not a break. A bot accepts a pact from a player on PCT column 4 or less (a request
to do nothing), counters one from column 5 that lasts past this Game-Turn with a pact to the
end of this Game-Turn, and declines the rest.

Messages
--------
An agent says things through :class:`Message` records, drained by the match loop
(:meth:`rcw.bots.match.Match.messages`) after each step; the server posts them in chat and
``rcw solo`` prints them. A bot talks only to the human seats (bots do not read chat): the
answers to their proposals (with the reason), counter-proposal cards, the cards of its own
proposals (the Purge Cooperation gift and Committee invitation, the assassin gift of SDT roll
1, the Czar's execution committee), a request for help (a pact card) to its friendliest player
before a vindictive turn, and its intent at the start of its Player-Turn to its friends (PCT
column 2-3): its PIT colour and the provinces it means to attack. Nothing in a message comes
from anything but the bot's view (what any player sees) and its plan for this Player-Turn: no
cup contents, no die roll that has not been rolled.
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Iterable
from dataclasses import dataclass, field

from rcw.bots import sdt_tables as T

from rcw import actions as A
from rcw.data import RED, WHITE
from rcw.words import listed

PHASE_WORDS = {"random_events": "Random Events Phase", "movement": "Movement Phase", "combat": "Combat Phase",
               "randomizer": "Randomizer Phase"}
SESSION_WORDS = {"trading": "the pre-game trading session", "vote": "the end-game vote", "over": "the end of the game"}


def phase_words(view) -> str:
    """The phase a view is in, as a player says it: "A's Random Events Phase", "the pre-game
    trading session" (the names of 004 [4.0], the Sequence of Play)."""
    ph, phase = view["phasing"], view["phase"]
    if ph and phase in PHASE_WORDS:
        return f"{ph}'s {PHASE_WORDS[phase]}"
    return SESSION_WORDS.get(phase, phase.replace("_", " "))


def committee_refusal(view, convener: str) -> str | None:
    """Why an SDT bot declines, without a roll, a Central Committee ``convener`` proposes now:
    it answers one in its convener's Movement Phase alone (the article's Purge Cooperation, the
    roll against its PCT); None in that phase.  (The server tells a human's Committee dialog.)"""
    if view["phase"] == "movement" and view["phasing"] == convener:
        return None
    return f"it answers a Central Committee in its convener's Movement Phase (Purge Cooperation; now it is {phase_words(view)})"


COUNTER_BAND = 2        # a trade this many points short of the bot's ask is countered, not declined
SHIFT_PACT_BREAK = 2    # PCT columns right for the pair (breaker, victim) of a broken pact
PACT_ACCEPT = 4         # the least friendly PCT column whose pacts a bot accepts
PACT_COUNTER = 5        # ... and whose longer pacts it counters with one to the end of this Game-Turn
HUMAN_WAIT = 20.0       # seconds a bot waits for the humans it invited to a Central Committee
FRIEND = 3              # PCT columns 2-3: a friend (joins a Committee on a die roll of 2-3 or more)
OUTBOX = 200            # messages kept for a match that does not drain them

ASSASSIN, POLITBURO = 1, 2      # the PCT's prices of the gifts (columns)
COLOUR_COST = 3                 # a trade that takes a Red or White player off its colour


# -- messages --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Message:
    """Something a bot says: ``text`` in its pair channel with ``to`` (None: the public
    channel), perhaps with a proposal ``card`` (a trade, committee or execution card is the
    bot's step just taken: the poster completes it with the engine's offer id and the action's
    position; a pact card is a proposal of its own), or the answer to a proposal (``answers``:
    the proposal's key, ``trade:<offer>``, ``committee:<members>``, ``purge``, ``execution``,
    ``pact:<id>``; ``accept``)."""
    seat: str
    text: str
    to: str | None = None
    card: dict | None = None
    answers: str | None = None
    accept: bool | None = None

    def channel(self) -> str:
        """The chat channel: ``public`` or the pair channel (``A-B``)."""
        if self.to is None:
            return "public"
        x, y = sorted((self.seat, self.to))
        return f"{x}-{y}"


class Wait:
    """An agent's answer to ``choose`` when it waits for humans (the match returns no step
    until ``seconds`` have passed or a human acted)."""

    def __init__(self, seconds: float, why: str = "", key: str = "") -> None:
        self.seconds = seconds
        self.why = why
        self.key = key                  # what it waits on (``committee:<members>``)

    def __repr__(self) -> str:
        return f"Wait({self.seconds:.1f}, {self.why!r})"


# -- pacts -----------------------------------------------------------------------------------------
MAX_PACT_TURNS = 50     # a pact's ``until`` is a Game-Turn from the current one to this many later


def pact_until_problem(turn: int, until: int) -> str | None:
    """Why a pact proposed in Game-Turn ``turn`` may not last until the end of Game-Turn
    ``until`` (it is over, or too far off: :data:`MAX_PACT_TURNS`), or None."""
    if not turn <= until <= turn + MAX_PACT_TURNS:
        return f"a pact lasts until a Game-Turn from {turn} (now) to {turn + MAX_PACT_TURNS}"
    return None


@dataclass(frozen=True)
class Pact:
    """No attack on each other's stacks, no purge, no assassination between ``a`` and ``b``
    until the end of Game-Turn ``until``; made after the game's action ``since`` (its version
    then); ``id``: the server's name for it (``<channel>:<message id>``)."""
    a: str
    b: str
    until: int
    since: int = 0
    id: str = ""

    def binds(self, x: str | None, y: str | None) -> bool:
        return {x, y} == {self.a, self.b}

    def other(self, seat: str) -> str:
        return self.b if seat == self.a else self.a

    def to_dict(self) -> dict:
        return {"a": self.a, "b": self.b, "until": self.until, "since": self.since, "id": self.id}


@dataclass(frozen=True)
class Break:
    """A pact broken: ``by`` did ``act`` (``attack``, ``assassination``, ``purge``) against ``victim``."""
    pact: Pact
    by: str
    victim: str
    act: str

    def text(self) -> str:
        return (f"{self.by} broke its pact with {self.victim} (no attack, purge or assassination until the end "
                f"of Game-Turn {self.pact.until}): {self.by} made a{'n' if self.act[0] in 'aeiou' else ''} "
                f"{self.act} against {self.victim}")


HOSTILE = frozenset(("combat", "assassination", "purge"))


def hostile_acts(events: Iterable) -> list[tuple[str, str, str]]:
    """(actor, victim, act) of every attack, assassination attempt and purge in ``events`` (the
    acts a pact forbids; a counterpurge answers a purge and is none)."""
    out = []
    for e in events:
        k, d = e.kind, e.data
        if k not in HOSTILE:
            continue
        if k == "combat":
            if d.get("seat") and d.get("defender"):
                out.append((d["seat"], d["defender"], "attack"))
        elif k == "assassination":
            if d.get("seat") and d.get("owner"):
                out.append((d["seat"], d["owner"], "assassination"))
        elif k == "purge" and not d.get("counter"):
            for p in d.get("purgers", ()):
                if d.get("target"):
                    out.append((p, d["target"], "purge"))
    return [x for x in out if x[0] != x[1]]


class PactBook:
    """The pacts of one game (the server's, and the bots' in their cooperation table)."""

    def __init__(self) -> None:
        self.pacts: list[Pact] = []
        self.broken: list[Break] = []

    def __bool__(self) -> bool:
        return bool(self.pacts)

    def add(self, pact: Pact) -> bool:
        """Keep ``pact`` (False if one with its id is kept already)."""
        if pact.id and any(p.id == pact.id for p in self.pacts):
            return False
        self.pacts.append(pact)
        return True

    def in_force(self, x: str | None, y: str | None, turn: int, version: int | None = None) -> Pact | None:
        """The pact between ``x`` and ``y`` that binds them on Game-Turn ``turn`` (after the
        game's action ``version``, if given), not broken; or None."""
        for p in self.pacts:
            if p.binds(x, y) and turn <= p.until and (version is None or version > p.since) \
                    and not any(b.pact == p for b in self.broken):
                return p
        return None

    def partners(self, seat: str, turn: int) -> set[str]:
        return {p.other(seat) for p in self.pacts if seat in (p.a, p.b) and self.in_force(p.a, p.b, turn) is p}

    def breaks(self, events: Iterable, turn: int, version: int) -> list[Break]:
        """The pacts that the acts in ``events`` (of the game's action ``version``, on Game-Turn
        ``turn``) break; each is kept as broken (a pact breaks once)."""
        if not self.pacts:
            return []
        out = []
        for by, victim, act in hostile_acts(events):
            p = self.in_force(by, victim, turn, version)
            if p is not None:
                b = Break(p, by, victim, act)
                self.broken.append(b)
                out.append(b)
        return out

    def reset_breaks(self) -> None:
        self.broken = []


# -- the valuation rule ---------------------------------------------------------------------------
@dataclass
class Worth:
    """What a trade is worth to a bot (``value`` points), what it asks (``need``) and why."""
    value: int
    need: int
    parts: list[str] = field(default_factory=list)

    def asks(self, me: str, proposer: str) -> str:
        """What the bot ``me`` asks of a trade with ``proposer``, in words (QA: "E asks -1 of A",
        for a friend's trade E takes at a loss of one, read as nonsense)."""
        if self.need < 0:
            return f"{me} takes a loss of up to {-self.need} in a trade with {proposer}"
        if self.need == 0:
            return f"{me} asks {proposer} for at least an even trade"
        return f"{me} asks to gain at least {self.need} in a trade with {proposer}"

    @property
    def verdict(self) -> str:
        if self.value >= self.need:
            return "accept"
        if self.value >= self.need - COUNTER_BAND:
            return "counter"
        return "decline"


def _hand_pit(hands: dict, seat: str, data) -> tuple[int, int]:
    red = sum(data.units[u].strength for u in hands.get(seat, ()) if data.units[u].color == RED)
    white = sum(data.units[u].strength for u in hands.get(seat, ()) if data.units[u].color == WHITE)
    return red, white


def trade_worth(me: str, terms: dict, view, data, threshold: int, friends: Iterable[str], rel: int,
                partner: bool = False) -> Worth:
    """The valuation rule (see the module): ``terms`` is an offer as the bot receives it
    (``from``, ``give_*``: what the bot gets, ``take_*``: what it gives); ``view`` the bot's
    view (markers, the hands of the trading session, the turn); ``threshold`` the engine's
    Committee threshold; ``friends`` the players on PCT columns 2-3 with the bot; ``rel`` the
    proposer's PCT column with the bot."""
    parts: list[str] = []
    value = 0
    get_a, give_a = int(terms.get("give_assassins", 0)), int(terms.get("take_assassins", 0))
    get_p, give_p = int(terms.get("give_politburo", 0)), int(terms.get("take_politburo", 0))
    have_a = view["assassins"].get(me, 0)
    if get_a or give_a:
        v = ASSASSIN * (get_a - give_a)
        if get_a > give_a and have_a == 0:
            v += ASSASSIN
        elif give_a > get_a and have_a - (give_a - get_a) == 0:
            v -= ASSASSIN
        value += v
        parts.append(f"Assassin markers {v:+d}")
    if get_p or give_p:
        v = POLITBURO * (get_p - give_p)
        pol = view["politburo"]
        bloc = pol.get(me, 0) + sum(pol.get(p, 0) for p in friends)
        after = bloc + get_p - give_p
        if bloc < threshold <= after:
            v += 1
            parts.append(f"Politburo markers {v:+d} (brings {me} and its friends to the Committee's {threshold})")
        elif after < threshold <= bloc:
            v -= 1
            parts.append(f"Politburo markers {v:+d} (takes {me} and its friends below the Committee's {threshold})")
        else:
            parts.append(f"Politburo markers {v:+d}")
        value += v
    get_l, give_l = tuple(terms.get("give_leaders", ())), tuple(terms.get("take_leaders", ()))
    if get_l or give_l:
        hands = view.get("hands") or {}
        red, white = _hand_pit(hands, me, data)
        before = T.political_color(T.pcm(red, white), 1)
        v = 0
        for u, sign in [(u, 1) for u in get_l] + [(u, -1) for u in give_l]:
            x = data.units[u]
            w = 2 if x.color == before else 1
            v += sign * w * x.strength
            if x.color == RED:
                red += sign * x.strength
            elif x.color == WHITE:
                white += sign * x.strength
        after = T.political_color(T.pcm(red, white), 1)
        parts.append(f"leaders {v:+d}")
        if before in (RED, WHITE) and after != before:
            v -= COLOUR_COST
            parts.append(f"it would make {me} {after} (-{COLOUR_COST})")
        value += v
    need = rel - 3 - (1 if partner else 0)
    return Worth(value, need, parts)


def terms_from(offer: dict) -> dict:
    """An engine offer (``view.offers``) as the terms :func:`trade_worth` reads."""
    return {k: offer.get(k, 0 if "leaders" not in k else ()) for k in
            ("give_assassins", "take_assassins", "give_politburo", "take_politburo", "give_leaders", "take_leaders")}


def is_gift(offer: dict) -> bool:
    """Whether a trade offer (the engine's ``offers`` entry) asks nothing of the one it is made to."""
    return not (offer["take_leaders"] or offer["take_politburo"] or offer["take_assassins"])


def describe_terms(terms: dict, names=None) -> str:
    """'gives 1 Politburo for 1 Assassin' as the proposer sees it (``give_*``: the proposer's)."""
    def side(prefix: str) -> str:
        out = []
        for k, word in (("leaders", None), ("politburo", "Politburo"), ("assassins", "Assassin")):
            v = terms.get(f"{prefix}_{k}")
            if not v:
                continue
            if word is None:
                out.extend(names(u) if names else str(u) for u in v)
            else:
                out.append(f"{v} {word}")
        return listed(out) or "nothing"      # ("Frunze, Kolchak and 1 Politburo", not "... and 1 Politburo and ...")
    return f"{side('give')} for {side('take')}"


# -- the bot's side --------------------------------------------------------------------------------
class Negotiator:
    """What one SDT bot (:class:`bots.sdt.SDTAgent`) says and answers.  It talks only when the
    match has told it of human seats (:meth:`meet`): in a game of bots alone it says nothing
    and changes nothing."""

    def __init__(self, agent) -> None:
        self.agent = weakref.proxy(agent)      # (the agent owns us: no cycle, see PoliticsAdapter)
        self.humans: frozenset[str] = frozenset()
        self.outbox: list[Message] = []
        self.queue: list[tuple[A.Action, str]] = []   # counter-offers to make (out of turn), each with the key it counters
        self.replied: set[str] = set()            # proposal keys answered
        self.joined: set[str] = set()             # Committees humans consent to in answer to another's call
        self.rolled: dict[tuple[str, int], tuple[int, int]] = {}   # (proposer, turn) -> (die, PCT column)
        self.declined: set[tuple[str, str]] = set()                # (human, committee key) declined in chat
        # committee key -> when its humans were invited, and what each consented to then
        self.asked: dict[str, tuple[float, dict[str, list[str]]]] = {}
        self.wait_limit = HUMAN_WAIT

    @property
    def me(self) -> str:
        return self.agent.seat

    # -- the match's calls -------------------------------------------------------------------------
    def meet(self, humans: Iterable[str], wait: float | None = None) -> None:
        self.humans = frozenset(humans)
        if wait is not None:
            self.wait_limit = wait

    def drain(self) -> list[Message]:
        out, self.outbox = self.outbox, []
        return out

    def say(self, text: str, to: str | None = None, **kw) -> None:
        if len(self.outbox) < OUTBOX:
            self.outbox.append(Message(self.me, text, to, **kw))

    def hear(self, news: dict) -> None:
        """Chat news the server (or ``rcw solo``) passes on: ``{"kind": "reply", "seat",
        "key", "accept"}`` (a human's answer to the bot's card).  Pacts go to the table."""
        if news.get("kind") == "reply" and not news.get("accept"):
            self.declined.add((news.get("seat"), news.get("key")))

    # -- the table -------------------------------------------------------------------------------
    def rel(self, other: str) -> int:
        t = self.agent.table
        return t.relation(self.me, other) if t.started else 3

    def _turn(self, view) -> int:
        return view["turn"]

    def spares(self, owner: str | None) -> bool:
        """Whether a pact forbids the bot to attack, purge or assassinate ``owner`` now."""
        t = self.agent.table
        if owner is None or not t.pacts:
            return False
        return t.pacts.in_force(self.me, owner, t.turn) is not None

    def unspared(self, seats: list[str]) -> list[str]:
        return [p for p in seats if not self.spares(p)] if self.agent.table.pacts else seats

    def friends(self, view) -> list[str]:
        row = self.agent.row(view) if self.agent.table.started else {}
        return [p for p, c in row.items() if c <= FRIEND]

    def why_rel(self, other: str) -> str:
        """The PCT in words: 'PCT 6 with A (2 friendliest, 7 most hostile): A attacked C twice'
        (QA: "cooperation 7 of 7" read as the most cooperation, where 7 is the least)."""
        c = self.rel(other)
        bits = []
        for act, n in sorted(self.agent.table.acts.get((other, self.me), {}).items()):
            times = "once" if n == 1 else "twice" if n == 2 else f"{n} times"
            bits.append(f"attacked {self.me} {times}" if act == "attack" else f"made {n} {act} attempt"
                        f"{'s' if n > 1 else ''} against {self.me}" if act != "gift" else f"gave {self.me} {n} marker"
                        f"{'s' if n > 1 else ''}")
        s = f"PCT {c} with {other} (2 friendliest, 7 most hostile)"
        return s + (f": {other} {', '.join(bits)}" if bits else "")

    # -- trades --------------------------------------------------------------------------------------
    def worth(self, player, offer: dict, view=None) -> Worth:
        view = view if view is not None else player.view
        proposer = offer["from"]
        partner = self.spares(proposer)
        return trade_worth(self.me, terms_from(offer), view, player.data, player.limits()["committee_markers"],
                           self.friends(view), self.rel(proposer), partner)

    def judge(self, player, offer: dict, view=None) -> tuple[str, str, Worth | None]:
        """The valuation rule's verdict on a trade offered to the bot (``offer``: ``from`` and the
        ``give_*``/``take_*`` terms as the proposer offers them): ``accept``, ``counter`` or
        ``decline`` (:attr:`Worth.verdict`; a gift is always accepted, its worth None), with
        the reason in words.  The one valuation of the live bot's answer (:meth:`answer_offer`)
        and of the postal bot's answer to a trade proposed by post (:mod:`rcw.bots.postal`)."""
        me, frm = self.me, offer["from"]
        if is_gift(offer):
            return "accept", f"a gift is always welcome ({self.why_rel(frm)})", None
        w = self.worth(player, offer, view)
        why = f"worth {w.value:+d} to {me} ({'; '.join(w.parts) or 'nothing'}), and {w.asks(me, frm)} ({self.why_rel(frm)})"
        return w.verdict, why, w

    def answer_offer(self, player, offer: dict) -> A.Action:
        """Accept, decline or counter an offer made to the bot (a gift is always accepted)."""
        me, o = self.me, offer
        human = o["from"] in self.humans
        key = f"trade:{o['id']}"
        verdict, why, w = self.judge(player, o)
        if w is None:
            self.agent.note(f"accepts {o['from']}'s gift")
            if human:
                self._reply(o["from"], key, True, f"{me} accepts: {why}")
            return A.AcceptTrade(me, o["id"])
        counter = self.counter_offer(player, o, w) if verdict == "counter" else None
        if verdict == "accept":
            self.agent.note(f"accepts {o['from']}'s trade: {why}")
            if human:
                self._reply(o["from"], key, True, f"{me} accepts: {why}")
            return A.AcceptTrade(me, o["id"])
        if counter is not None:
            self.agent.note(f"declines {o['from']}'s trade and counters: {why}")
            self.queue.append((counter, key))
            if human:
                self._reply(o["from"], key, False, f"{me} counters: {why}")
        else:
            self.agent.note(f"declines {o['from']}'s trade: {why}")
            if human:
                self._reply(o["from"], key, False, f"{me} declines: {why}")
        return A.DeclineTrade(me, o["id"])

    def counter_offer(self, player, o: dict, w: Worth, allowed=None) -> A.OfferTrade | None:
        """The smallest change by one marker that makes the trade worth the bot's while: ask
        one marker less of the bot (never down to nothing: the proposer asked for something),
        or one more of the proposer's; as an offer of the bot's.  ``allowed(offer)``: whether
        the engine takes that offer now (else ``player.is_legal``; by post, the sheets' check)."""
        view = player.view
        frm = o["from"]
        cands = []
        for k in ("take_assassins", "take_politburo"):
            if o[k]:
                cands.append({**o, k: o[k] - 1})
        for k, held in (("give_assassins", "assassins"), ("give_politburo", "politburo")):
            if view[held].get(frm, 0) > o[k]:
                cands.append({**o, k: o[k] + 1})
        best = None
        for c in cands:
            if is_gift(c):
                continue           # (the bot would give nothing: a demand, not the trade asked for; QA)
            cw = self.worth(player, c, view)
            if cw.value < cw.need or (best is not None and cw.value >= best[0]):
                continue
            act = A.OfferTrade(self.me, frm, give_leaders=tuple(c["take_leaders"]), give_politburo=c["take_politburo"],
                               give_assassins=c["take_assassins"], take_leaders=tuple(c["give_leaders"]),
                               take_politburo=c["give_politburo"], take_assassins=c["give_assassins"])
            if (allowed or player.is_legal)(act):      # (not an offer of nothing for nothing, 004 [15.33])
                best = (cw.value, act)
        return best[1] if best is not None else None

    def queued(self, player) -> A.Action | None:
        """A counter-offer the bot is to make now (dropped if the engine no longer allows it)."""
        while self.queue:
            a, key = self.queue.pop(0)
            if player.is_legal(a):
                self.card(a, f"{self.me} counters", counter=key)
                return a
        return None

    def _reply(self, to: str, key: str, accept: bool, text: str) -> None:
        self.replied.add(key)
        self.say(text, to, answers=key, accept=accept)

    # -- cards of the bot's own steps ------------------------------------------------------------------
    def stepped(self, player, act) -> None:
        """The bot's step ``act``: a proposal to human seats gets its card (the trade offer,
        the Committee invitation, the execution order)."""
        if not self.humans or not isinstance(act, A.Action):
            return
        t = act.TYPE
        if t == "OfferTrade" and act.to in self.humans:
            self.card(act, f"{self.me} offers")
        elif t == "JoinCommittee":
            me, members = self.me, sorted(act.members)
            cons = player.view["committee_consent"]
            if sorted(cons.get(me) or []) == members:
                return                         # (its consent already: nothing new to say)
            key = "committee:" + ",".join(members)
            hs = [p for p in act.members if p in self.humans and p != me]
            # the humans who proposed this Committee are answered; the others invited (a card)
            joins = [h for h in hs if sorted(cons.get(h) or []) == members]
            for h in joins:                    # (with every join: see committee_replies)
                self._reply(h, key, True, f"{me} joins: {me} calls this Central Committee too ({self.why_rel(h)})")
            invite = [h for h in hs if h not in joins]
            if invite:
                self.asked[key] = (time.monotonic(), {h: sorted(cons.get(h) or []) for h in invite})
                purpose = self.agent.politics.purpose
                # (whom it purges: QA read "a Central Committee of A, B, C, D, E to purge" as pointless)
                why = {"purge": f"to purge the player least friendly to {me} among those who stay out; if all join, "
                                "no purge (Purge Cooperation)",
                       "execute": "to execute the Czar (Non-Attack Policy 2)"}
                for h in invite:
                    self.say(f"{me} invites you to a Central Committee of {', '.join(act.members)} "
                             f"{why.get(purpose, '')}".rstrip(), h, card={"kind": "committee", "members": members})
        elif t == "OrderExecution" and getattr(act, "consent", True) and player.view["decision"] is None:
            # (the bot's own order, not its consent to another member's, 004 [13.52])
            com = list(player.view["committee"])
            hs = [p for p in com if p in self.humans and p != self.me]
            for h in hs:
                self.say(f"{self.me} orders the Czar's execution; the Committee ({', '.join(com)}) consents in turn", h,
                         card={"kind": "execution", "to": [h]})

    def card(self, act: A.OfferTrade, text: str, counter: str = "") -> None:
        """A trade card of the bot's offer ``act``, its words ``text`` and the terms, the leaders by
        name ("B counters: Deniken for Markin and 1 Politburo"); ``counter``: the key of the
        proposal it counters (the server names that proposal's message)."""
        if act.to not in self.humans:
            return
        card = {"kind": "trade", "to": act.to, **{k: v for k, v in terms_of(act).items() if v}}
        if counter:
            card["counter"] = counter
        self.say(text + f": {describe_terms(terms_of(act), self.agent._facts().name)}", act.to, card=card)

    # -- Committees ----------------------------------------------------------------------------------
    def proposed(self, members) -> None:
        """A human has (again) proposed the Central Committee of ``members`` to us: a new card,
        answered anew even if an earlier one of the same members was (docs/protocol.md
        section 5)."""
        key = "committee:" + ",".join(sorted(members))
        self.replied.discard(key)
        self.joined.discard(key)

    def joined_call(self, members) -> None:
        """A human consents to the Central Committee of ``members`` that another seat called
        first: an answer to that call, no proposal of the human's for us to answer."""
        self.joined.add("committee:" + ",".join(sorted(members)))

    def left(self, seat: str, rest: list[str]) -> None:
        """``seat`` withdrew from a Committee whose other members now consent to ``rest`` (the
        engine's event says who, 004 [11.12]): if a human joined that Committee in answer to a
        call, the rest of it is still that call's, not a proposal."""
        if rest and "committee:" + ",".join(sorted([*rest, seat])) in self.joined:
            self.joined.add("committee:" + ",".join(sorted(rest)))

    def note_roll(self, proposer: str, turn: int, die: int, rel: int) -> None:
        self.rolled[(proposer, turn)] = (die, rel)

    def committee_replies(self, view, act) -> None:
        """Answers, with reasons, to the Central Committees human seats proposed to the bot."""
        if not self.humans:
            return
        me, turn = self.me, view["turn"]
        cons = view["committee_consent"]
        # A Committee a human no longer proposes is answered again when proposed again.
        open_keys = {"committee:" + ",".join(sorted(v)) for p, v in cons.items() if p in self.humans}
        self.replied = {k for k in self.replied if not k.startswith("committee:") or k in open_keys}
        self.joined &= open_keys
        for p, members in sorted(cons.items()):
            if p == me or p not in self.humans or me not in members:
                continue
            key = "committee:" + ",".join(sorted(members))
            if key in self.joined:
                continue
            if isinstance(act, A.JoinCommittee) and act.seat == me and sorted(act.members) == sorted(members):
                # (said with every join, answered before or not: the server posts one answer a
                # proposal and seat, and a join without its reason would be the one)
                die, rel = self.rolled.get((p, turn), (None, self.rel(p)))
                why = f"rolled {die}, at least {rel}, its PCT with {p} (Purge Cooperation)" if die \
                    else f"a member of the Committee {p} calls ({self.why_rel(p)})"
                self._reply(p, key, True, f"{me} joins: {why}")
                continue
            if key in self.replied:
                continue
            # (a human who consents to a bot's proposal is answered too: the server posts the
            # answer only to a proposal of the human's addressed to this bot)
            if sorted(cons.get(me) or []) == sorted(members):
                self._reply(p, key, True, f"{me} joins: {me} consents to this Central Committee already "
                                          f"({self.why_rel(p)})")
            elif (p, turn) in self.rolled and self.agent.politics.willing.get((p, turn)) is False:
                die, rel = self.rolled[(p, turn)]
                self._reply(p, key, False, f"{me} refuses: rolled {die}, less than {rel}, its PCT with {p} "
                                           f"(Purge Cooperation: {self.why_rel(p)})")
            elif (why := committee_refusal(view, p)) is not None:
                self._reply(p, key, False, f"{me} declines: {why}")

    def wait_for(self, view, members: list[str]) -> Wait | None:
        """While humans invited to the Committee of ``members`` have neither consented nor
        declined (at most :data:`HUMAN_WAIT` seconds from the invitation), the bot waits.  A
        human whose consent changed since the invitation (to this Committee or another: one
        consent at a time) has answered."""
        if not self.humans:
            return None
        key = "committee:" + ",".join(sorted(members))
        cons = view["committee_consent"]
        if key not in self.asked:
            return None                        # (no human was invited to it)
        t0, then = self.asked[key]
        waiting = [h for h in members if h in self.humans and h != self.me
                   and sorted(cons.get(h) or []) == then.get(h, []) != sorted(members)
                   and (h, key) not in self.declined and h not in view["quit"]]
        if not waiting:
            return None
        left = t0 + self.wait_limit - time.monotonic()
        if left <= 0:
            return None
        return Wait(left, f"for {', '.join(waiting)} to answer the Central Committee invitation", key)

    # -- purges and executions ---------------------------------------------------------------------
    def purge_answer(self, view, act: A.Action) -> A.Action:
        """A purge the bot approves as a member of the Committee, unless it would break its
        pact with the target (then it declines); the reason goes to a human proposer."""
        d = view["decision"] or {}
        rec = d.get("purge") or d
        target = rec.get("target")
        by = d.get("by") or view["phasing"]
        if self.spares(target):
            act = A.ApprovePurge(self.me, False)
            self.agent.note(f"will not purge {target}: a pact until the end of Game-Turn "
                            f"{self.agent.table.pacts.in_force(self.me, target, self.agent.table.turn).until}")
            text = f"{self.me} declines: it keeps its pact with {target}"
        else:
            text = f"{self.me} approves: a member of the Committee agrees to its purge (Purge Cooperation)"
        if by in self.humans:
            self._reply(by, "purge", bool(getattr(act, "approve", True)), text)
        return act

    def explain(self, view, d: dict, act) -> None:
        """The reason for an execution consent, to a human who ordered it."""
        if not self.humans or act is None or d.get("kind") != "execution_consent":
            return
        by = d.get("by") or view["phasing"]
        if by not in self.humans:
            return
        red, white, pcm, colour = self.agent.pit(view)
        yes = bool(getattr(act, "consent", True))
        self._reply(by, "execution", yes, f"{self.me} {'consents' if yes else 'refuses'}: {self.me} is {colour} "
                                          f"(PCM {pcm}: Red leaders {red}, White {white})")

    # -- pacts ---------------------------------------------------------------------------------------
    def consider(self, view, proposal: dict, key: str) -> Message:
        """The answer to a proposal that has no engine action (a pact): accept, counter or
        decline, with the reason."""
        me = self.me
        if proposal.get("kind") != "pact":
            return Message(me, f"{me} cannot answer a {proposal.get('kind')} proposal here", answers=key, accept=False)
        frm = proposal.get("seat") or next((s for s in proposal.get("with", ()) if s != me), None)
        turn = view["turn"]
        until = int(proposal.get("until", turn))
        c = self.rel(frm) if frm else 7
        why = self.why_rel(frm) if frm else "no one"
        if until < turn:
            return Message(me, f"{me} declines: Game-Turn {until} is over", frm, answers=key, accept=False)
        if c <= PACT_ACCEPT:
            return Message(me, f"{me} agrees: no attacks, purges or assassinations between us until the end of "
                               f"Game-Turn {until} ({why})", frm, answers=key, accept=True)
        if c <= PACT_COUNTER and until > turn:
            return Message(me, f"{me} counters: only until the end of this Game-Turn, {turn} ({why})", frm,
                           answers=key, accept=False,
                           card={"kind": "pact", "with": sorted({me, frm}), "until": turn, "counter": key})
        return Message(me, f"{me} declines: {why}", frm, answers=key, accept=False)

    # -- the Player-Turn ------------------------------------------------------------------------------
    def intent(self, view, plan, ix) -> None:
        """At the start of the bot's Player-Turn: its colour and the provinces it means to
        attack, to its friendly human players (PCT column 2-3); before a vindictive turn, a
        request for help (a pact to the end of the Game-Turn) to its friendliest player."""
        if not self.humans:
            return
        me, turn = self.me, view["turn"]
        order = self.agent.friendliness(view)
        red, white, pcm, colour = self.agent.pit(view)
        if plan.vst:
            first = order[0] if order else None
            if first in self.humans and first != plan.vst_target:
                self.say(f"{me} goes after {plan.vst_target} this turn (Vindictive Strategy: {plan.vst}). "
                         f"Help {me}, or at least stand aside: a pact until the end of Game-Turn {turn}?", first,
                         card={"kind": "pact", "with": sorted({me, first}), "until": turn})
            return
        where = []
        for pa in plan.attacks:
            st = ix.get(pa.target)
            if st is not None:
                whose = "its own " if pa.owner == me else f"{pa.owner}'s " if pa.owner else "the "
                where.append(f"{whose}{st.color} units in {pa.province}")
        aim = f"; {me} means to strike {', '.join(dict.fromkeys(where))}" if where else ""
        for p in order:
            if p in self.humans and self.rel(p) <= FRIEND:
                self.say(f"{me} is {colour} this turn (PCM {pcm}){aim}.", p)


def terms_of(act: A.OfferTrade) -> dict:
    """An offer's terms as ``give_*``/``take_*`` fields (the offering seat's side first)."""
    return {"give_leaders": list(act.give_leaders), "give_politburo": act.give_politburo,
            "give_assassins": act.give_assassins, "take_leaders": list(act.take_leaders),
            "take_politburo": act.take_politburo, "take_assassins": act.take_assassins}


__all__ = ["Message", "Wait", "Pact", "Break", "PactBook", "Worth", "Negotiator", "trade_worth", "terms_from", "terms_of",
           "hostile_acts", "describe_terms", "COUNTER_BAND", "SHIFT_PACT_BREAK", "HUMAN_WAIT"]
