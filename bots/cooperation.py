"""The Player Cooperation Table of a game: one per game, shared by all its SDT bots.

J. Richard Jarvinen's "Solitaire for Fanatics" (``004_8c1b9ecc5e5ea495.txt``) keeps one
Player Cooperation Table (PCT) for the whole game: a marker per pair of players, set up from
the Political Indicator Table "once the initial forces are distributed among the five players
and the combat forces placed on the map", then shifted by what the players do to each other
(the notes under the PCT).  The table prints each pair on both players' rows, and calls the
second copy "redundant"; here a pair has one value.

A :class:`CooperationTable` is that table, kept from the public events of the game alone (the
events every player is shown, as a remote client gets them):

- ``dealt`` (the deal, :attr:`rcw.game.Game.setup_events`) and ``trade`` events of the pre-game
  session say which leaders each player holds;
- ``deployed`` (the session is over, the forces are placed): the PCT is set up from the PIT
  colours of those hands on Game-Turn 1 (:func:`bots.sdt_tables.initial_relation`);
- then one shift per act, as the notes under the PCT list them: each ``combat`` event shifts
  (attacker ``seat``, ``defender``) one column right (an attack on uncontrolled units shifts
  nothing; only a resolved attack makes a ``combat`` event, so "the markers on the PCT are moved
  only for attacks that actually take place"); each ``assassination`` event (success or not)
  shifts (``seat``, ``owner`` of the victim) one column right; each ``purge`` or
  ``counterpurge`` event shifts every (purger, ``target``) pair one column right; each
  ``trade`` event after the session shifts (giver, receiver) one column left per Assassin
  marker and two per Politburo marker that changed hands.

The match loop (:class:`rcw.bots.match.Match`) makes the table of its game, shows it the
events of every applied action once (not once per bot), and hands it to every agent that
takes one (``use_table``); so every SDT bot of a game, and ``rcw solo``'s attitude column, read
the same table, from the deal on.  A match that starts on a game already under way (a server
driver taking over a game, a worker reset) rebuilds the table from the game's public record
(its seed and actions: the events of each action again); if the record does not lead to the
position (a test position edited by hand), the table is set up from the leaders on the map.
"""

from __future__ import annotations

from rcw.bots import sdt_tables as T
from rcw.bots.negotiation import SHIFT_PACT_BREAK, Break, Pact, PactBook

from rcw.data import RED, WHITE, GameData
from rcw.player import LazyView

SHIFTING = frozenset(("dealt", "trade", "deployed", "combat", "assassination", "purge", "counterpurge", "player_turn"))


class CooperationTable:
    """One game's Player Cooperation Table (see the module)."""

    #: The event kinds :meth:`observe` reads while no pact is kept (with one, every action may
    #: break it): the match shows the table only the actions with one of them.
    kinds = SHIFTING

    def __init__(self, data: GameData | None = None) -> None:
        self.data = data
        self.pct: dict[frozenset, int] = {}
        self.started = False
        self.seats: list[str] = []
        self.hands: dict[str, list[int]] = {}     # the leaders each player holds in the pre-game session
        self.version: int | None = None           # actions of the game whose events the table has seen
        self.deployed = False                     # the pre-game session is over (the forces placed)
        self._early: list[tuple[str, str, int]] = []    # shifts seen after it, before the table was set up
        self.turn = 0                             # the Game-Turn (from the player_turn events)
        # (actor, victim) -> {"attack"|"assassination"|"purge"|"gift": how many}: the acts behind
        # the shifts, for the bots' reasons ("you attacked D twice")
        self.acts: dict[tuple[str, str], dict[str, int]] = {}
        # The pacts made in chat (issue 18): the server tells the match, the match the table; a
        # pact broken shifts (breaker, victim) SHIFT_PACT_BREAK columns right (bots.negotiation).
        self.pacts = PactBook()
        self.breaks: list[Break] = []            # the pacts broken, as the table saw them (drained by the match)

    # -- reading ------------------------------------------------------------------------------------
    def relation(self, a: str, b: str) -> int:
        """The PCT column of players ``a`` and ``b`` (2 friendliest .. 7 most hostile)."""
        return self.pct.get(frozenset((a, b)), 3)

    def row(self, seat: str, others) -> dict[str, int]:
        """``seat``'s row: each of ``others`` (but ``seat``) -> its column."""
        return {p: self.relation(seat, p) for p in others if p != seat}

    def snapshot(self) -> dict[str, int]:
        """Every pair, as ``"AB": column`` (for tests and displays)."""
        return {"".join(sorted(k)): v for k, v in sorted(self.pct.items(), key=lambda kv: sorted(kv[0]))}

    # -- setting up -----------------------------------------------------------------------------------
    def start(self, seats, leadership: dict[str, tuple[int, int]]) -> None:
        """Set the table up from each player's (Red, White) leadership: "For two players with
        the same political outlook ... column 2 ... Red versus White ... column 5 ... all other
        relationships ... column 3" (the PIT colours of Game-Turn 1)."""
        seats = list(seats)
        self.seats = seats
        colors = {p: T.political_color(T.pcm(*leadership.get(p, (0, 0))), 1) for p in seats}
        self.pct = {}
        for i, p in enumerate(seats):
            for q in seats[i + 1:]:
                self.pct[frozenset((p, q))] = T.initial_relation(colors[p], colors[q])
        self.started = self.deployed = True
        early, self._early = self._early, []
        for a, b, delta in early:
            self.shift(a, b, delta)

    def start_from_map(self, seats, stacks, data: GameData | None = None) -> None:
        """Set the table up from the leaders each player controls on the map (``stacks`` of a
        view): for a table that did not see the deal."""
        d = data or self.data
        lead = {}
        for s in stacks:
            p = s["owner"]
            if p is None:
                continue
            red, white = lead.get(p, (0, 0))
            for u in s["units"]:
                x = d.units[u]
                if x.is_leader:
                    if x.color == RED:
                        red += x.strength
                    elif x.color == WHITE:
                        white += x.strength
            lead[p] = (red, white)
        self.start(seats, lead)

    def _hand_leadership(self) -> dict[str, tuple[int, int]]:
        d = self.data
        out = {}
        for p, hand in self.hands.items():
            red = sum(d.units[u].strength for u in hand if d.units[u].color == RED)
            white = sum(d.units[u].strength for u in hand if d.units[u].color == WHITE)
            out[p] = (red, white)
        return out

    def note_hands(self, hands: dict[str, list[int]]) -> None:
        """The leaders in every hand during the pre-game session, as a view shows them (for a
        table that was not shown the deal)."""
        if not self.started:
            self.hands = {p: list(ls) for p, ls in hands.items()}

    def shift(self, a: str | None, b: str | None, delta: int) -> None:
        if not a or not b or a == b or not delta:
            return
        if not self.started:
            if self.deployed:
                self._early.append((a, b, delta))
            return
        key = frozenset((a, b))
        self.pct[key] = T.shift(self.pct.get(key, 3), delta)

    # -- the events ----------------------------------------------------------------------------------
    def observe(self, events) -> None:
        """The events of one action (or the deal): the shifts of the notes under the PCT, and
        a pact's break (:data:`bots.negotiation.SHIFT_PACT_BREAK` more for the pair)."""
        if self.pacts.pacts:                   # (PactBook's truth, without the call)
            for b in self.pacts.breaks(events, self.turn, self.version or 0):
                self.shift(b.by, b.victim, SHIFT_PACT_BREAK)
                self.breaks.append(b)
        for e in events:
            k = e.kind
            if k not in SHIFTING:
                continue
            d = e.data
            if k == "combat":
                self.shift(d.get("seat"), d.get("defender"), T.SHIFT_ATTACK)
                self._act(d.get("seat"), d.get("defender"), "attack")
            elif k == "assassination":
                self.shift(d.get("seat"), d.get("owner"), T.SHIFT_ASSASSINATION)
                self._act(d.get("seat"), d.get("owner"), "assassination")
            elif k == "purge" or k == "counterpurge":
                target = d.get("target")
                for p in d.get("purgers", ()):
                    self.shift(p, target, T.SHIFT_PURGE)
                    self._act(p, target, "purge")
            elif k == "player_turn":
                self.turn = d.get("turn", self.turn)
            elif k == "trade":
                o = d.get("offer") or {}
                f, t = o.get("from"), o.get("to")
                if not self.deployed:           # the pre-game session: leaders change hands
                    for u in o.get("give_leaders", ()):
                        self._move(u, f, t)
                    for u in o.get("take_leaders", ()):
                        self._move(u, t, f)
                    continue
                self.shift(f, t, T.SHIFT_ASSASSIN_GIFT * (o.get("give_assassins", 0) + o.get("take_assassins", 0))
                           + T.SHIFT_POLITBURO_GIFT * (o.get("give_politburo", 0) + o.get("take_politburo", 0)))
                if o.get("give_assassins") or o.get("give_politburo"):
                    self._act(f, t, "gift")
            elif k == "dealt":
                self.hands[d["seat"]] = list(d.get("leaders", ()))
            elif k == "deployed":
                self.deployed = True
                if not self.started and self.hands and self.data is not None:
                    self.start(sorted(self.hands), self._hand_leadership())

    def _act(self, actor: str | None, victim: str | None, act: str) -> None:
        if actor and victim and actor != victim:
            got = self.acts.setdefault((actor, victim), {})
            got[act] = got.get(act, 0) + 1

    def pact(self, pact: Pact) -> bool:
        """Keep a pact made in chat (the server's word; False if known already)."""
        return self.pacts.add(pact)

    def _move(self, u: int, f: str | None, t: str | None) -> None:
        if f in self.hands and u in self.hands[f]:
            self.hands[f].remove(u)
        if t is not None:
            self.hands.setdefault(t, []).append(u)

    # -- following one game ----------------------------------------------------------------------
    def applied(self, game, events) -> None:
        """``game`` has just applied one action with ``events``: observed once; if the table
        has not followed the game up to that action, it is rebuilt (:meth:`follow`)."""
        if self.version is not None and self.version == game.version - 1:
            self.version += 1
            self.observe(events)
        else:
            self.follow(game)

    def follow(self, game) -> None:
        """Bring the table up to ``game`` as it stands: nothing to do if it has seen every
        action; from the deal if the game has none yet; else from the game's public record
        (seed and actions, each action's events again), and if that does not lead to this
        position (a position set up by hand), from the leaders on the map now."""
        if self.data is None:
            self.data = game.data
        if self.version is None or self.version != game.version:
            self._reset()
            if game.version == 0 and game.setup_events:
                self.observe(game.setup_events)
            else:                       # (a game loaded from bytes has no setup events: its record has)
                self._rebuild(game)
            self.version = game.version
        if not self.started and game.phase != "trading":
            self.start_from_map(game.seats, LazyView(game, None)["stacks"], game.data)

    def _rebuild(self, game) -> None:
        from rcw import modes

        rec = game.record()
        try:
            again = modes.new_game(rec["players"], rec["seed"], rec["options"], game.data)
            self.version = 0
            self.observe(again.setup_events)
            for i, a in enumerate(rec["actions"]):
                self.version = i + 1
                self.observe(again.apply(a))
            same = again.state_hash() == game.state_hash()
        except Exception:  # a record that does not replay (a position edited by hand)
            same = False
        if not same:
            self._reset()

    def _reset(self) -> None:
        self.pct, self.started, self.hands, self.seats = {}, False, {}, []
        self.deployed, self._early = False, []
        self.turn, self.acts = 0, {}
        self.pacts.reset_breaks()


__all__ = ["CooperationTable"]
