"""One match loop: a game and the computer players of some of its seats, one action at a time.

``rcw simulate``, ``rcw solo``, ``rcw solo --spi``, the SPI Red bot's simulation, the server's
bot driver and the tests all drive their agents through :class:`Match`, so the answers out
of turn and the guard against going round in circles live here once.

An *agent* plays one seat through :class:`rcw.player.Player`, the public API (the same facts a
remote player gets over the wire):

- ``choose(player) -> Action`` when its seat is pending;
- ``react(player) -> Action | None`` (optional) when something is open to every seat out of
  turn (a trade offer, a Central Committee proposal): it may answer or do nothing;
- either marked :func:`checked` if it returns only actions it found legal (the match does not
  ask the rules again);
- ``choose`` marked :func:`told` if it takes what the match knows already: the match then calls
  ``choose(player, kind, version)`` (the kind of the seat's entry in ``pending``, the game's
  version), and the agent need not read them again;
- ``observe(events)`` (optional): every event of every action applied through the match (of
  the actions with an event of a kind in its ``observe_kinds``, if it has that attribute and
  it is not None: the match shows the others to no one, which saves calls);
- ``fallback(player) -> Action`` (optional): its choice when the engine refused its action;
- ``use_table(table)`` (optional): the agent keeps no Player Cooperation Table of its own but
  reads the game's one (:class:`rcw.bots.cooperation.CooperationTable`), which the match
  makes, shows the events of every applied action once, and hands to every such agent (the
  SDT bots: one table per game, as the Fanatics article keeps it).

Talk (issue 18, :mod:`rcw.bots.negotiation`), all optional:

- ``meet(humans)``: the seats without an agent (the humans), told whenever the agents change;
- ``messages() -> [Message]``: what the agent said (chat lines, proposal cards, answers with
  reasons), drained by :meth:`Match.messages` after each step;
- ``choose`` may return a :class:`~rcw.bots.negotiation.Wait` when the agent waits for humans
  (the Committee it invited them to): :meth:`Match.next_step` then returns None and
  :attr:`Match.waiting` says how long;
- ``hear(news)``: chat news a server passes on (:meth:`Match.hear`: a human declined a card);
- ``consider(player, proposal, key) -> Message``: the answer to a proposal that has no engine
  action (a pact; a trade by post), asked through :meth:`Match.consider`;
- ``amend(player) -> Action | None``: a step the agent takes though its seat is not pending,
  asked before the pending seats' moves (a postal bot's sheet sent again with a trade it
  accepted by post since it sent it: :meth:`rcw.bots.postal.PostalAgent.amend`).

Pacts made in chat are the server's word to the match (:meth:`Match.pact`): the game's table
keeps them, every SDT bot keeps its own, and a broken pact shifts the table
(:data:`rcw.bots.negotiation.SHIFT_PACT_BREAK`); :meth:`Match.breaks` drains the breaks seen.

A seat without an agent is a human's: :meth:`Match.next_step` returns None while the game
waits for one, and the human's actions go through :meth:`Match.apply` like everyone's.
"""

from __future__ import annotations

from collections import deque
from typing import Any, NamedTuple

from rcw.bots.cooperation import CooperationTable
from rcw.bots.negotiation import Message, Pact, Wait

from rcw import actions as A
from rcw.actions import Action, Event, IllegalAction
from rcw.game import Game
from rcw.player import Player

REACT_ROUNDS = 40      # rounds of out-of-turn answers in a row before the match stops asking
CYCLE_WINDOW = 48      # political steps in a row searched for a repeated position
# Steps that may bring the game back to an earlier position (everything else moves it on: new
# stack and offer numbers, spent Movement Points, dice): the ones the cycle guard watches.
REVERSIBLE = frozenset((A.JoinCommittee, A.LeaveCommittee, A.OrderExecution, A.DeclarePurge, A.PassPurge,
                        A.ApprovePurge))


_UNSET: Any = object()    # (no key given)
_TABLE_BIT = 1            # (Match._interest: the game's table reads the event)


def checked(method):
    """Mark an agent's ``choose`` or ``react`` as returning only actions it found legal (or a
    :class:`~rcw.bots.negotiation.Wait`, or None): the match then does not ask the rules about
    them again.  (A subclass that overrides the method is asked about again unless it marks its
    own.)"""
    method.checked = True
    return method


def told(method):
    """Mark an agent's ``choose`` as taking ``(player, kind, version)``: the kind of decision its
    seat's entry in ``player.pending`` asks for and ``player.version``, what the match has read
    already.  (Called with the player alone, it reads them itself; a subclass that overrides the
    method is called so unless it marks its own.)"""
    method.told = True
    return method


def _marked(agent: Any, name: str, mark: str) -> bool:
    """Whether the agent's method ``name`` carries ``mark`` (:func:`checked`, :func:`told`)."""
    return getattr(getattr(agent, name, None), mark, False)


class Step(NamedTuple):
    """An agent's action, not yet applied: the pending seat's move (``turn``) or an answer out
    of turn (``answer``); ``note`` says why the match changed what the agent asked for."""
    seat: str
    action: Action
    kind: str
    note: str = ""


class Match:
    def __init__(self, game: Game, agents: dict[str, Any], table: CooperationTable | None = None,
                 human_wait: float | None = None) -> None:
        """``table``: the game's Player Cooperation Table if one is kept already (it then
        follows the game from its current version); by default the match makes one when an
        agent takes one (:meth:`share`).  ``human_wait``: the seconds an agent may wait for
        humans (``meet``; None: the agent's own default)."""
        self.game = game
        self.human_wait = human_wait
        self._table = table
        self._pacts: list[Pact] = []      # the pacts told, for a table made later
        if table is not None and table.version is None:
            table.version = game.version
        self.agents = agents
        self.refused = 0                  # agent actions the engine refused (a fallback was played)
        self._players: dict[str, Player] = {}
        self._asked: tuple | None = None  # the open questions last put to the agents
        self._round: list[str] | None = None
        self._acted = False
        self._rounds = 0
        self._recent: deque[tuple[int, str]] = deque(maxlen=CYCLE_WINDOW)
        self.waiting: Wait | None = None  # an agent waits for humans (the last next_step)

    @property
    def agents(self) -> dict[str, Any]:
        """The agent of each seat it plays (the other seats are humans')."""
        return self._agents

    @agents.setter
    def agents(self, agents: dict[str, Any]) -> None:
        self._agents = dict(agents)
        # the seats whose agent's choices (answers) are legal as made (:func:`checked`)
        self._checked = {seat for seat, a in self._agents.items() if _marked(a, "choose", "checked")}
        self._checked_answers = {seat for seat, a in self._agents.items() if _marked(a, "react", "checked")}
        self._told = {seat for seat, a in self._agents.items() if _marked(a, "choose", "told")}
        # the seats asked out of turn (their agents' ``react``), in seat order
        self._reacts = {seat: r for seat, a in self._agents.items() if (r := getattr(a, "react", None)) is not None}
        self._askers = [seat for seat in self.game.seats if seat in self._reacts]
        # the seats whose agents may amend a step taken (``amend``), in seat order
        self._amenders = [(seat, self._agents[seat].amend) for seat in self.game.seats
                          if getattr(self._agents.get(seat), "amend", None) is not None]
        for a in self._agents.values():
            self.share(a)
        humans = [s for s in self.game.seats if s not in self._agents and s not in self.game.ENGINE_SEATS]
        for a in self._agents.values():
            meet = getattr(a, "meet", None)
            if meet is not None:
                meet(humans, self.human_wait)
        # (bit, its observers): agents that share one ``observe_kinds`` make a group, shown an
        # action when one of its events has a kind whose bit in ``_interest`` (kind -> bits of
        # the groups and of the table that read it) is theirs; bit 0: every action
        groups: dict[int, tuple[frozenset | None, list]] = {}
        for a in self._agents.values():
            obs = getattr(a, "observe", None)
            if obs is not None:
                kinds = getattr(a, "observe_kinds", None)
                groups.setdefault(id(kinds), (kinds, []))[1].append(obs)
        self._interest = dict.fromkeys(CooperationTable.kinds, _TABLE_BIT)
        bits = []
        for i, (kinds, observers) in enumerate(groups.values()):
            bit = 0 if kinds is None else _TABLE_BIT << (i + 1)
            for k in kinds or ():
                self._interest[k] = self._interest.get(k, 0) | bit
            bits.append((bit, observers))
        # the observers shown an action, by the bits of its events, in group order (a list of
        # 2 ** (groups + 1): a group per distinct ``observe_kinds``, at most one per seat)
        self._shown_to = [tuple(observe for bit, observers in bits if not bit or seen & bit for observe in observers)
                          for seen in range(_TABLE_BIT << (len(bits) + 1))]

    @property
    def table(self) -> CooperationTable | None:
        """The game's Player Cooperation Table (None until an agent takes one)."""
        return self._table

    def share(self, agent: Any) -> None:
        """Hand the game's Player Cooperation Table to ``agent`` if it takes one (made, and
        brought up to the game, the first time)."""
        use = getattr(agent, "use_table", None)
        if use is None:
            return
        if self._table is None:
            self._table = CooperationTable(self.game.data)
            for p in self._pacts:
                self._table.pact(p)
        self._table.follow(self.game)
        use(self._table)

    def player(self, seat: str) -> Player:
        p = self._players.get(seat)
        if p is None or p._game is not self.game:
            p = self._players[seat] = Player(self.game, seat)
        return p

    def replace_game(self, game: Game) -> None:
        """Go on with another copy of the same game (a server replica rebuilt from its log)."""
        self.game = game
        if self._table is not None:
            self._table.follow(game)

    # -- choosing ----------------------------------------------------------------------------------
    def next_step(self) -> Step | None:
        """The next action an agent takes: an answer out of turn if one is due, else the pending
        seat's move if an agent plays it; None when the game is over or waits for a human."""
        step = self._next()
        return step if step is None or type(step) is Step else Step(*step)

    def _next(self) -> tuple[str, Action, str, str] | None:
        """:meth:`next_step`, a move of the pending seat as a plain tuple (what :meth:`play` reads)."""
        g = self.game
        self.waiting = None
        # (a game over has no questions open and no seat pending: it needs no check of its own)
        if self._round is not None:
            step = self._answer()
            if step is not None:
                return step
        else:
            key = g.open_questions()
            if key != self._asked:            # (the common case: nothing open, or asked already)
                step = self._answer(key)
                if step is not None:
                    return step
        agents, players = self._agents, self._players
        for seat, amend in self._amenders:
            if seat in g.quit or g.over:
                continue
            player = self.player(seat)
            action = amend(player)
            if isinstance(action, Action) and action in player.legal:
                return seat, action, "answer", ""
        for p in g.pending:
            seat = p["seat"]
            agent = agents.get(seat)
            if agent is None:
                continue
            player = players.get(seat)
            if player is None or player._game is not g:
                player = self.player(seat)
            action = agent.choose(player, p["kind"], len(g.log)) if seat in self._told else agent.choose(player)
            if isinstance(action, Wait):
                self.waiting = action
                return None
            note = ""
            if seat not in self._checked and action not in player.legal:    # (what is not an action is not legal either)
                self.refused += 1
                action, note = self._fallback(agent, player), f"{seat}'s choice {getattr(action, 'TYPE', action)} was refused"
            if self._recent and (looped := self._looping()):
                steer = [a for a in player.legal if a.TYPE not in looped and a.TYPE != "Quit"]
                if steer:
                    note = f"the bots repeat a position; {seat} plays {steer[0].TYPE} instead of {action.TYPE}"
                    action = steer[0]
                    self._recent.clear()
            return seat, action, "turn", note
        return None

    def _fallback(self, agent: Any, player: Player) -> Action:
        fb = getattr(agent, "fallback", None)
        if fb is not None:
            a = fb(player)
            if isinstance(a, Action) and a in player.legal:
                return a
        return player.legal[0]

    def _answer(self, key: Any = _UNSET) -> tuple[str, Action, str, str] | None:
        """Out of turn: when the open questions change, every agent seat is asked once, in seat
        order (a round); an answer changes them, so another round follows, up to REACT_ROUNDS.
        The questions closing (a proposal withdrawn, an offer answered) is a change too: what
        is no longer open may call for an answer (those left out of a Committee that did not
        form call another).  ``key``: ``open_questions()`` if the caller has just asked it.  An
        answer is a plain tuple, as :meth:`_next`'s moves."""
        g = self.game
        while True:
            if self._round is None:
                if key is _UNSET:
                    key = g.open_questions()
                if key == self._asked or self._rounds >= REACT_ROUNDS \
                        or (key is None and (g.decision is not None or g.over)):
                    return None
                self._asked, self._acted = key, False
                key = _UNSET
                self._rounds += 1
                self._round = self._askers[::-1]      # (popped from its end: in seat order)
            if self._round and (g.over or g.decision is not None):
                self._round = None
                return None
            gone = g.quit                     # (an answer not given changes nothing: asked once a call)
            ask, reacts, players = self._round, self._reacts, self._players
            while ask:
                seat = ask.pop()
                react = reacts.get(seat)
                if react is None or seat in gone:
                    continue
                player = players.get(seat)
                if player is None or player._game is not g:
                    player = self.player(seat)
                action = react(player)
                if isinstance(action, Action) and (seat in self._checked_answers or action in player.legal):
                    return seat, action, "answer", ""
            self._round = None
            if not self._acted:
                return None

    def _looping(self) -> set[str]:
        """The action types of a loop when the bots have brought the game back to this very
        position twice (e.g. joining and leaving a Committee while an attack waits)."""
        keys = [h for h, _ in self._recent]
        if len(set(keys)) == len(keys):      # no position seen twice (or one step alone): this one cannot be
            return set()
        here = self.game.position_key()
        if keys.count(here) >= 2:
            return {t for _, t in self._recent}
        return set()

    # -- talk (rcw.bots.negotiation) ----------------------------------------------------------------
    def messages(self) -> list[Message]:
        """What the agents said since the last call, in seat order (each agent's in its order)."""
        out: list[Message] = []
        for seat in sorted(self._agents):
            said = getattr(self._agents[seat], "messages", None)
            if said is not None:
                out.extend(said())
        return out

    def hear(self, news: dict) -> None:
        """Chat news for the agents (``{"kind": "reply", "seat", "key", "accept"}``; ``{"kind":
        "committee", "seat", "members"}``: a Central Committee proposed again by a seat that
        consents to it already, which changes no open question: the agents are asked again)."""
        for a in self._agents.values():
            hear = getattr(a, "hear", None)
            if hear is not None:
                hear(news)
        if news.get("kind") == "committee":     # (compared when a round starts: the next one asks all)
            self._asked, self._rounds = _UNSET, 0

    def consider(self, seat: str, proposal: dict, key: str) -> Message | None:
        """``seat``'s agent's answer to a proposal without an engine action (a pact, a trade by
        post); None if the seat has no agent that answers one.  What the agent agreed to may
        call for a step of its own (``amend``), which :meth:`next_step` gives next."""
        agent = self._agents.get(seat)
        consider = getattr(agent, "consider", None)
        return consider(self.player(seat), proposal, key) if consider is not None else None

    def pact(self, pact: Pact) -> bool:
        """A pact made in chat (the server's word): the game's table keeps it, the bots keep
        theirs.  False if it was known already."""
        if any(p.id == pact.id for p in self._pacts) if pact.id else pact in self._pacts:
            return False
        self._pacts.append(pact)
        if self._table is not None:
            self._table.pact(pact)
        return True

    def breaks(self) -> list:
        """The pacts broken since the last call (:class:`rcw.bots.negotiation.Break`)."""
        t = self._table
        if t is None or not t.breaks:
            return []
        out, t.breaks = t.breaks, []
        return out

    # -- applying --------------------------------------------------------------------------------------
    def apply(self, seat: str, action: Action, kind: str = "turn", by_agent: bool = True) -> list[Event]:
        """Apply ``seat``'s action (an agent's step, or a human's with ``by_agent`` False) and
        show its events to every agent; raises :class:`IllegalAction` and changes nothing if
        the rules refuse it."""
        if action.seat != seat:
            raise IllegalAction("004 [15.21]", f"{seat} acts only for itself", "not_your_seat")
        events = self.game.apply(action)
        self.applied(action, events, kind, by_agent)
        return events

    def applied(self, action: Action, events: list[Event], kind: str = "turn", by_agent: bool = True) -> None:
        """``action`` was applied to the game elsewhere (a server replica): keep the loop's
        bookkeeping and let the agents observe its events."""
        if kind == "answer":
            self._acted = True
        else:
            self._rounds = 0
        if by_agent and type(action) in REVERSIBLE:
            self._recent.append((self.game.position_key(), action.TYPE))
        elif self._recent and (not by_agent or kind == "turn"):
            self._recent.clear()
        interest = self._interest                # (the bits of those the events concern)
        if len(events) == 1:                     # (most actions)
            seen = interest.get(events[0].kind, 0)
        else:
            seen = 0
            for e in events:
                seen |= interest.get(e.kind, 0)
        t = self._table
        if t is not None:
            if t.version == len(self.game.log) - 1:     # (CooperationTable.applied, inlined)
                t.version += 1
                if seen & _TABLE_BIT or t.pacts.pacts:    # (an action without a shift changes nothing else)
                    t.observe(events)
            else:
                t.follow(self.game)
        for observe in self._shown_to[seen]:
            observe(events)

    def play(self, max_actions: int = 200_000) -> int:
        """Play agent steps until the game is over, waits for a human, or ``max_actions`` were
        applied; returns how many were."""
        n = 0
        while n < max_actions:
            step = self._next()               # (seat, action, kind, note)
            if step is None:
                break
            # (a step is one of its seat's legal actions: no need to check the seat, as apply does)
            action = step[1]
            self.applied(action, self.game.apply(action), step[2])
            n += 1
        return n


__all__ = ["Match", "Step", "REACT_ROUNDS", "CYCLE_WINDOW", "checked", "told"]
