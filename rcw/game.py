"""The one API for everyone: :class:`Game`, the multi-player game (004 [1.0]-[16.0]).

``Game.new(players, seed, options)``, ``legal_actions(seat)``, ``apply(action) -> events``,
``pending``, ``view(seat)``, ``to_bytes()`` / ``Game.from_bytes()``, ``state_hash()``,
``clone()`` and ``Game.replay(seed, actions, players, options)``.  A bot, a WebSocket client
and a test all go through these calls.  An illegal action raises :class:`IllegalAction`
naming the rule case and changes nothing.

Besides the calls that play, the game answers what its clients need to know of the rules
(each rule is known here once): where a force can go (:meth:`Game.reach`), a leader's
capacity, who may attack whom and at what odds, colour hostility, the Victory Point scores,
the out-of-turn actions open to a seat.  :class:`rcw.player.Player` bundles them for one seat.

Other game modes (the SPI solitaire) subclass :class:`Game` and register in :mod:`rcw.modes`.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import chain, compress
from operator import attrgetter
from typing import Any, ClassVar

import msgpack

from rcw import RULES_EDITION
from rcw import actions as A
from rcw import options as O
from rcw.actions import Action, Event, IllegalAction, action_from_wire, to_wire
from rcw.data import GameData, default
from rcw.rng import MASK, Dice, LoadedDice, Rng
from rcw.rules import (
    assassination,
    auxiliary,
    combat,
    historical,
    masses,
    movement,
    politics,
    quitting,
    randomizer,
    sequence,
    setup,
    victory,
)
from rcw.rules.base import Ctx
from rcw.state import Stack, State, copy_plain, opposed
from rcw.types import AttackOption, Capacity, Limits, Odds, Pending, Route, Scores, StackingDuty, StackView, View

SEATS = "ABCDEF"
STANDARD = "standard"

Check = Callable[[Ctx, Any], None]
Do = Callable[[Ctx, Any], list[Event]]
HANDLERS: dict[type, tuple[Check, Do]] = {
    A.OfferTrade: (setup.check_offer, setup.do_offer),
    A.AcceptTrade: (setup.check_accept, setup.do_accept),
    A.DeclineTrade: (setup.check_decline, setup.do_decline),
    A.WithdrawTrade: (setup.check_withdraw, setup.do_withdraw),
    A.EndTrading: (setup.check_end_trading, setup.do_end_trading),
    A.RollRandomEvents: (sequence.check_roll, sequence.do_roll),
    A.StartForce: (movement.check_start, movement.do_start),
    A.JoinForce: (movement.check_join, movement.do_join),
    A.Attach: (movement.check_attach, movement.do_attach),
    A.Detach: (movement.check_detach, movement.do_detach),
    A.Move: (movement.check_move, movement.do_move),
    A.EndForce: (movement.check_end_force, movement.do_end_force),
    A.Merge: (movement.check_merge, movement.do_merge),
    A.TransferImperial: (movement.check_transfer, movement.do_transfer),
    A.Emigrate: (movement.check_emigrate, movement.do_emigrate),
    A.CzechExit: (movement.check_czech_exit, movement.do_czech_exit),
    A.Evacuate: (historical.check_evacuate, historical.do_evacuate),
    A.EndMovement: (sequence.check_end_movement, sequence.do_end_movement),
    A.DeclareAttack: (combat.check_declare, combat.do_declare),
    A.AddAttacker: (combat.check_add, combat.do_add),
    A.RemoveAttacker: (combat.check_remove, combat.do_remove),
    A.ResolveAttack: (combat.check_resolve, combat.do_resolve),
    A.CancelAttack: (combat.check_cancel, combat.do_cancel),
    A.ChooseLoss: (combat.check_loss, combat.do_loss),
    A.CaptureImperial: (combat.check_capture, combat.do_capture),
    A.DeclineCapture: (combat.check_decline_capture, combat.do_decline_capture),
    A.EndCombat: (sequence.check_end_combat, sequence.do_end_combat),
    A.DrawRandomizer: (sequence.check_draw, sequence.do_draw),
    A.RedrawChit: (sequence.check_redraw, sequence.do_redraw),
    A.PlaceUnit: (auxiliary.check_place, sequence.do_place),
    A.EndPlayerTurn: (sequence.check_end_turn, sequence.do_end_turn),
    A.VoteEndGame: (sequence.check_vote, sequence.do_vote),
    A.Quit: (quitting.check, quitting.do),
    A.Assassinate: (assassination.check, assassination.do),
    **politics.HANDLERS,
}
DRAW = HANDLERS[A.DrawRandomizer]        # (the standard game's Randomizer draw: Game.may_draw)
TRADING = (A.OfferTrade, A.AcceptTrade, A.DeclineTrade, A.WithdrawTrade, A.EndTrading, A.Quit)   # 004 [15.33]
# Actions a seat may take out of turn, whenever they are open to it (answers and political moves).
OUT_OF_TURN = (A.AcceptTrade, A.DeclineTrade, A.WithdrawTrade, A.JoinCommittee, A.LeaveCommittee, A.DeclarePurge,
               A.OrderExecution)
SIDE_STEPS = OUT_OF_TURN + (A.OfferTrade,)      # (steps that leave the seat's own decision open: Game.settles)


_PLAIN = frozenset((str, int, float, bool, type(None), bytes))
_SEQ = frozenset((list, tuple))
_PLAIN_SEQ = _PLAIN | _SEQ
_STR = frozenset((str,))
_is_seq = _SEQ.__contains__


def _flat(x: list | tuple) -> bool:
    """Whether the list ``x`` holds only plain values and lists (tuples) of them, at any depth:
    then it is its own canonical form.  One level at a time, with the loops in C."""
    level = x
    while True:
        kinds = set(map(type, level))
        if kinds <= _PLAIN:
            return True
        if kinds <= _SEQ:
            level = list(chain.from_iterable(level))
        elif kinds <= _PLAIN_SEQ:
            level = list(chain.from_iterable(compress(level, map(_is_seq, map(type, level)))))
        else:
            return False


def _str_key(kv: tuple) -> str:
    return str(kv[0])


def _canonical(x: Any) -> Any:
    """The state hash's canonical form of plain data: every dict becomes the list of its
    ``[key, value]`` pairs sorted by ``str(key)``, everything else stays what it is (msgpack
    packs a tuple as it packs a list).  The same bytes as the plain recursion over every
    element (tests/test_state_hash.py compares them), about twice as fast: a list without a
    dict inside and a dict of string keys to plain values are taken whole."""
    t = type(x)
    if t is list or t is tuple:
        return x if _flat(x) else [_canonical(v) for v in x]
    if isinstance(x, dict):
        if _STR.issuperset(map(type, x)):             # (distinct strings: sorted by key alone)
            if _PLAIN.issuperset(map(type, x.values())):
                return sorted(x.items())
            return [(k, _canonical(v)) for k, v in sorted(x.items())]
        return [[_canonical(k), _canonical(v)] for k, v in sorted(x.items(), key=_str_key)]
    if isinstance(x, (list, tuple)):
        return [_canonical(v) for v in x]
    return x


_stack_id = attrgetter("id")


class Legal(Sequence[Action]):
    """The legal actions of one seat, listed only when someone looks at the list: ``a in
    legal`` asks the rules about ``a`` alone (:meth:`Game.is_legal`), which is what a player
    who knows what he wants needs; iterating, indexing or ``len`` lists them all once."""

    __slots__ = ("_game", "_seat", "_list", "_asked", "_last", "_known")

    def __init__(self, game: Game, seat: str) -> None:
        self._game, self._seat, self._list = game, seat, None
        self._asked: dict[object, bool] | None = None   # actions judged so far (the game has not changed)
        self._last: object = None                      # the last of them (asked again, as is, at once) ...
        self._known = False                            # ... and the answer

    def _all(self) -> list[Action]:
        if self._list is None:
            self._list = self._game.legal_actions(self._seat)
        return self._list

    def __contains__(self, a: object) -> bool:
        if a is self._last:
            return self._known
        if not isinstance(a, Action):
            return False
        if self._list is not None and a in self._list:
            return True
        known = None
        last = self._last
        if last is not None:               # (the last one joins the others, asked for by value)
            asked = self._asked
            if asked is None:
                asked = self._asked = {}
            asked[last] = self._known
            known = asked.get(a)
        if known is None:
            known = a.seat == self._seat and self._game.why_illegal(a) is None
        self._last, self._known = a, known
        return known

    def __iter__(self) -> Iterator[Action]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def __getitem__(self, i):  # type: ignore[override]
        return self._all()[i]

    def __repr__(self) -> str:
        return f"Legal({self._seat}: {self._all()!r})"


class Game:
    """The multi-player game.  Subclasses are other game modes; each has its own ``MODE``
    name, ``HANDLERS`` table and usual number of players (``PLAYERS``)."""

    MODE: ClassVar[str] = STANDARD
    PLAYERS: ClassVar[int] = 5
    HANDLERS: ClassVar[dict[type, tuple[Check, Do]]] = HANDLERS
    VIEW_FIELDS: ClassVar[dict[str, Callable[[Game, str | None], Any]]]     # set below the class
    # the markers position_key last read: (Politburo, Assassins, their parts of the key); they
    # rarely change, and comparing them costs less than sorting them again
    _markers_seen: tuple[dict, dict, tuple, tuple] | None = None
    # the Committee consents open_questions or position_key last read: (consents, as a key part)
    _consent_seen: tuple[dict, tuple] | None = None
    # the Player-Turn's pending list pending last made: (seat, kind, the list); shown again while
    # the same seat is waited for in the same kind of step (a force's moves, say)
    _pending_shown: tuple[str, str, list] | None = None
    # the VP chart's view entry last made (see _vp_view): shown again while the chart is as it shows
    _vp_shown: dict[str, list[list]] | None = None

    def __init__(self, state: State, data: GameData | None = None, dice: Dice | None = None) -> None:
        # the game's counters: the printed mix and the optional forces its options bring in (001)
        self.data = (data or default()).with_options(state.options)
        self.state = state
        self.ctx = Ctx(self.data, state, dice)
        self.log: list[Action] = []
        self.setup_events: list[Event] = []
        # actions found legal at this version, with their (check, do) handler: (version, the
        # others (None: none yet), the last one, its handler) (the last is looked up by identity first)
        self._judged: tuple[int, dict[Action, tuple[Check, Do]] | None, Action | None, tuple[Check, Do] | None] = \
            (-1, None, None, None)
        self._shown: dict[int, tuple] = {}     # the stacks' view entries (see _stack_views)

    # -- construction ---------------------------------------------------------------------
    @classmethod
    def new(cls, players: int | None = None, seed: int = 0, options: dict | None = None,
            data: GameData | None = None, dice: Dice | None = None) -> Game:
        """004 [15.2]-[15.3]: seats A.. in clockwise order; the Initial Forces dealt face up.
        ``players`` None: five.  ``options`` may not name another game mode (create those
        with :func:`rcw.modes.new_game`)."""
        opts = cls._options(options)
        players = cls.PLAYERS if players is None else players
        if isinstance(players, bool) or not isinstance(players, int) or not 3 <= players <= 6:
            raise IllegalAction("004 [2.0]", "Russian Civil War is for 3 to 6 players", "bad_request")
        g = cls(State(seats=list(SEATS[:players]), seed=int(seed), rng=int(seed) & MASK, options=opts), data, dice)
        g.setup_events = setup.deal(g.ctx)
        return g

    @classmethod
    def _options(cls, options: Any) -> dict:
        """The options checked for this mode (``mode`` names the mode; the standard game has none)."""
        opts = dict(options or {}) if isinstance(options, dict) or options is None else options
        if not isinstance(opts, dict):
            raise IllegalAction("options", "options must be a map of option names to values", "bad_request")
        mode = opts.pop("mode", STANDARD)
        if mode != cls.MODE:
            raise IllegalAction("options", f"this is the {cls.MODE} game, not {mode!r}: create a game of another "
                                "mode with rcw.modes.new_game", "bad_request")
        opts = O.validate(opts, cls.MODE)
        if cls.MODE != STANDARD:
            opts["mode"] = cls.MODE
        return opts

    @classmethod
    def replay(cls, seed: int, actions: Iterable[Action | dict], players: int | None = None,
               options: dict | None = None) -> Game:
        """Rebuild a game from its seed and action log (the persistence format); ``players``
        None means the mode's usual number."""
        g = cls.new(players, seed, options)
        for a in actions:
            g.apply(a if isinstance(a, Action) else action_from_wire(a))
        return g

    def clone(self) -> Game:
        """An independent copy of the game as it stands (state, log and dice source), made
        without a replay or serialization, for look-ahead."""
        g = type(self).__new__(type(self))
        g.data = self.data
        g.state = self.state.clone()
        g.ctx = Ctx(self.data, g.state, self.ctx.dice)
        g.log = list(self.log)
        g.setup_events = self.setup_events
        g._judged = (-1, None, None, None)
        g._shown = {}
        return g

    def load_dice(self, rolls: Iterable[int] | Dice | None) -> Dice | None:
        """Put a dice source in place of the seeded RNG for die rolls (a list of rolls becomes
        :class:`LoadedDice`); None goes back to the RNG.  Such a game no longer replays from
        its seed and log: this is for tests and look-ahead."""
        dice = rolls if rolls is None or isinstance(rolls, Dice) else LoadedDice(rolls)
        self.ctx.dice = dice
        return dice

    def reseed(self, seed: int) -> None:
        """Give the game a fresh RNG state drawn from ``seed`` for every future random draw (die
        rolls, the Randomizer, the die among equal options) and drop loaded dice: on a
        :meth:`clone`, look-ahead then plays with dice of its own instead of the game's real
        (hidden) future.  Such a game no longer replays from its seed and log."""
        self.state.rng = Rng(int(seed) & MASK).next64()
        self.ctx.dice = None

    # -- the calls that play -----------------------------------------------------------------
    @property
    def version(self) -> int:
        """How many actions have been applied (the game changes only when this does)."""
        return len(self.log)

    def apply(self, action: Action | dict) -> list[Event]:
        """Apply ``action`` and return its events, or raise :class:`IllegalAction` (naming the
        rule case) and change nothing.  An action :meth:`is_legal` has just found legal is not
        checked again (the game has not changed since: code that edits a State directly, as
        tests do to build positions, must do so before asking)."""
        if isinstance(action, dict):
            action = action_from_wire(action)
        if not isinstance(action, Action):
            raise IllegalAction("protocol", "not an action", "bad_action")
        judged = self._judged
        if judged[0] == len(self.log):
            last = judged[2]
            handler = judged[3] if last is action or last == action else judged[1] and judged[1].get(action)
        else:
            handler = None
        if handler is not None:             # found legal just now
            do = handler[1]
        else:
            check, do = self._handler(action)
            check(self.ctx, action)
        return self._do(do, action)

    def apply_recorded(self, action: Action | dict) -> list[Event]:
        """Apply a step of this game's own record that :meth:`apply` now refuses because a rule
        was fixed after it was played (``rcw.RULES_EDITION``): the edition it was played under
        allowed it, so it happened.  What every action passes is still checked (its seat plays,
        the game goes on, the trading session first), the rule the fix changed is not; its effect
        is this edition's.  For taking up again a game begun under an earlier edition, never for
        a step played now."""
        if isinstance(action, dict):
            action = action_from_wire(action)
        if not isinstance(action, Action):
            raise IllegalAction("protocol", "not an action", "bad_action")
        return self._do(self._handler(action)[1], action)

    def _do(self, do: Do, action: Action) -> list[Event]:
        """``action``'s effect, once judged, and what follows every action."""
        events = do(self.ctx, action)
        self.ctx.b.invalidate()
        events = self._after(events)
        self.log.append(action)
        # Events are snapshots: the rules put copies, never the state's own lists, in their data
        # (tests/test_politics.py checks a capture offer's units and the vote's voters).
        return events

    def _handler(self, action: Action) -> tuple[Check, Do]:
        """The (check, do) pair that rules on ``action`` here, after the checks every action
        passes (its seat plays, the game goes on, 004 [15.33] trading first); game modes
        override this."""
        s = self.state
        self._check_seat(action)
        handler = self.HANDLERS.get(type(action))
        if handler is None:
            raise IllegalAction("engine", f"{action.TYPE} is not supported yet", "unsupported")
        if s.phase == "trading" and type(action) not in TRADING:
            raise IllegalAction("004 [15.33]", "the pre-game trading session is still open", "wrong_phase")
        return handler

    def _check_seat(self, action: Action) -> None:
        """The checks every action passes: its seat is one of the game's, still playing, and
        the game goes on."""
        s = self.state
        if action.seat not in s.seats:
            raise IllegalAction("004 [15.21]", f"no seat {action.seat!r} in this game", "unknown_seat")
        if action.seat in s.quit:
            raise IllegalAction("004 [14.2]", f"{action.seat} has left the game", "seat_quit")
        if s.phase == "over":
            raise IllegalAction("004 [14.1]", "the game is over", "game_over")

    def _after(self, events: list[Event]) -> list[Event]:
        """What follows every action: the Central Committee is recomputed (004 [11.11])."""
        if self.state.committee or self.state.committee_consent:
            events += politics.sync(self.ctx)
        return events

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` is legal now: the same answer as ``action in legal_actions(seat)``
        for every listed action (and True for a legal parametric action, such as a trade offer,
        which is never listed), at the cost of one check."""
        return self.why_illegal(action) is None

    def why_illegal(self, action: Action) -> IllegalAction | None:
        """The :class:`IllegalAction` that :meth:`apply` would raise for ``action`` now, or None."""
        d = self.state.decision
        if d is not None:          # a decision suspends play: only its owner's answers are open
            if not self._answers_decision(action):
                return IllegalAction("004 [4.2]", f"waiting for {d['seat']} to decide ({d['kind']})", "decision_pending")
            try:
                handler = self._handler(action)
            except IllegalAction:          # (never: a listed answer passes; apply would say why)
                return None
        else:
            try:
                handler = self._handler(action)
                handler[0](self.ctx, action)
            except IllegalAction as e:
                # (an answer, not a raise: without its traceback, whose frames would hold the
                # caller, and the game, in a cycle until the collector ran: tests/test_match.py)
                return e.with_traceback(None)
        # ``apply`` need not check it again while the game stays as it is (the checks are pure).
        judged = self._judged
        v = len(self.log)
        if judged[0] != v:
            self._judged = (v, None, action, handler)
        elif judged[2] is not action:
            others = judged[1]
            if others is None:
                others = {}
            others[judged[2]] = judged[3]
            self._judged = (v, others, action, handler)
        return None

    def _answers_decision(self, action: Action) -> bool:
        """While a decision is open: ``action in legal_actions(action.seat)``, found by checking
        ``action`` alone when it is one of the candidates (the same answer: the list is the
        candidates that pass their checks).  A game mode with its own ``legal_actions`` asks it."""
        if type(self).legal_actions is not Game.legal_actions:
            return action in self.legal_actions(action.seat)
        s = self.state
        seat = action.seat
        d = s.decision
        if seat not in s.seats or seat in s.quit or s.phase == "over" or d is None or d["seat"] != seat:
            return False
        cands = combat.decision_candidates(self.ctx, seat) + politics.decision_candidates(self.ctx, seat)
        cands += sequence.decision_candidates(self.ctx, seat) + auxiliary.decision_candidates(self.ctx, seat)
        if d.get("kind") == "vote":
            cands += [A.VoteEndGame(seat, True), A.VoteEndGame(seat, False)]
        if action not in cands:
            return False
        handler = self.HANDLERS.get(type(action))
        if handler is None:
            return False
        try:
            handler[0](self.ctx, action)
        except IllegalAction:
            return False
        return True

    def legal(self, seat: str) -> Legal:
        """The legal actions of ``seat`` as a lazy sequence (see :class:`Legal`), valid until the
        next action is applied."""
        return Legal(self, seat)

    def legal_actions(self, seat: str) -> list[Action]:
        """What ``seat`` may do now.  ``OfferTrade`` is parametric and not listed (any offer
        passing :func:`rcw.rules.setup.check_offer` may be made); every listed action is legal."""
        s = self.state
        if seat not in s.seats or seat in s.quit or s.phase == "over":
            return []
        d = s.decision
        if d is not None:
            if d["seat"] != seat:
                return []
            cands = combat.decision_candidates(self.ctx, seat) + politics.decision_candidates(self.ctx, seat)
            cands += sequence.decision_candidates(self.ctx, seat) + auxiliary.decision_candidates(self.ctx, seat)
            if d.get("kind") == "vote":
                cands += [A.VoteEndGame(seat, True), A.VoteEndGame(seat, False)]
            return self._filter(cands)
        cands = setup.trading_candidates(self.ctx, seat)
        if s.phase == "trading":
            return self._filter(cands + [A.Quit(seat)])
        if self.ctx.b.phasing() == seat:
            ph = s.phase
            if ph == "random_events":
                cands.append(A.RollRandomEvents(seat))
            elif ph == "movement":
                cands += movement.candidates(self.ctx, seat)
            elif ph == "combat":
                cands += combat.candidates(self.ctx, seat)
            elif ph == "randomizer":
                cands += [A.DrawRandomizer(seat), A.EndPlayerTurn(seat)]
            cands += assassination.candidates(self.ctx, seat)
        cands += politics.free_candidates(self.ctx, seat)
        cands.append(A.Quit(seat))
        return self._filter(cands)

    def _filter(self, cands: list[Action]) -> list[Action]:
        """The candidates that pass their checks, each once, in order."""
        out, seen = [], set()
        for a in cands:
            if a in seen:
                continue
            seen.add(a)
            handler = self.HANDLERS.get(type(a))
            if handler is None:
                continue
            try:
                handler[0](self.ctx, a)
            except IllegalAction:
                continue
            out.append(a)
        return out

    def out_of_turn(self, seat: str) -> list[Action]:
        """The actions open to ``seat`` whoever's turn it is: answers to trade offers, Central
        Committee consents, purge declarations and execution orders (004 [11.0], [13.5], [15.33])."""
        return [a for a in self.legal_actions(seat) if isinstance(a, OUT_OF_TURN)]

    def settles(self, action: Action) -> bool:
        """Whether ``action`` (a legal one) decides what the game waits on from its seat: an
        answer to the open decision, or a step of the seat's own play; not a step open to every
        seat whoever's turn it is (a trade offer or its answer, a Committee consent, a purge
        declaration, an execution order: 004 [11.0], [13.5], [15.33]), which leaves it open."""
        return self.state.decision is not None or not isinstance(action, SIDE_STEPS)

    def open_questions(self) -> tuple | None:
        """What is open to the seats out of turn (trade offers, Committee consents) and the
        moment it is open in, as a key that changes when any of it does; None when nothing is
        (or play waits for a decision).  Drivers ask their agents again only when it changes."""
        s = self.state
        if not (s.offers or s.committee_consent or s.committee) or s.decision is not None or s.phase == "over":
            return None
        return (tuple(sorted(s.offers)), self._consent_key() if s.committee_consent else (),
                tuple(s.committee), s.turn, s.phase, s.current)

    def _consent_key(self) -> tuple:
        """The Committee consents as a key part (seat, members) in seat order: sorted again only
        when they have changed since last asked (most questions are asked of the same ones)."""
        consent = self.state.committee_consent
        c = self._consent_seen
        if c is None or consent != c[0]:
            c = self._consent_seen = ({k: list(v) for k, v in consent.items()},
                                      tuple(sorted((k, tuple(v)) for k, v in consent.items())))
        return c[1]

    @property
    def pending(self) -> list[Pending]:
        """Whose decision the game waits for now, and what kind (read-only: a list is shown
        again while it stays as it is; copy it to change it)."""
        s = self.state
        phase = s.phase
        if phase == "over":
            return []
        d = s.decision
        if d is not None:
            return [{"seat": d["seat"], "kind": d["kind"]}]
        if phase == "trading":
            return [{"seat": p, "kind": "trading"} for p in self.ctx.b.active_seats() if p not in s.ready]
        p = self._turn_seat()
        if p is None:
            return []
        kind = "force" if s.force is not None else "attack" if s.attack is not None else phase
        shown = self._pending_shown
        if shown is not None and shown[0] == p and shown[1] == kind:
            return shown[2]
        out = [{"seat": p, "kind": kind}]
        self._pending_shown = (p, kind, out)
        return out

    def _turn_seat(self) -> str | None:
        """The seat whose Player-Turn play waits for: the Phasing Player (game modes override)."""
        return self.ctx.b.phasing()

    @property
    def over(self) -> bool:
        return self.state.phase == "over"

    @property
    def result(self) -> dict | None:
        return self.state.result

    @property
    def seats(self) -> list[str]:
        return list(self.state.seats)

    #: Seats the game's own procedures play, never a person or a bot (the SPI solitaire's non-Red
    #: Player, 004 [18.0]); servers show them as such and never wait on them.
    ENGINE_SEATS: tuple[str, ...] = ()

    @property
    def quit(self) -> list[str]:
        """The seats whose players have left the game (004 [14.2])."""
        return list(self.state.quit)

    def offers(self, seat: str | None = None) -> list[dict]:
        """The open trade offers (004 [15.33], [10.0], [11.0]): all of them, or those ``seat``
        made or received (what its view shows)."""
        return [dict(o) for o in self.state.offers.values() if seat is None or seat in (o["from"], o["to"])]

    @property
    def decision(self) -> dict | None:
        """The out-of-turn decision play waits for (an Exchange loss, a capture, a purge step,
        the end-game vote), or None."""
        return self.state.decision

    @property
    def turn(self) -> int:
        """The Game-Turn marker (004 [4.2]); see :attr:`turns_played` for a game that is over."""
        return self.state.turn

    @property
    def turns_played(self) -> int:
        """The Game-Turn under way, or the last one played once the game is over (a game ended by
        its turn limit has moved the marker on to a turn it never plays); what the view's
        ``turn`` shows."""
        return sequence.turns_played(self.ctx)

    @property
    def phase(self) -> str:
        return self.state.phase

    @property
    def options(self) -> dict:
        return dict(self.state.options)

    @property
    def stats(self) -> dict[str, int]:
        """Counts of what happened (attacks, purges, assassinations, ...) for summaries."""
        return dict(self.state.stats)

    def view(self, seat: str | None = None) -> View:
        """What ``seat`` sees (None: a spectator).  Everything on the map and the VP chart is
        open (004 [8.29]); trade offers are seen only by the two players involved; the order
        of the randomizer cups and the RNG are hidden.  Each entry is ``VIEW_FIELDS[name](game,
        seat)`` (:class:`rcw.player.Player` computes them one by one, as they are read).  A view
        is read-only: parts of it (a stack's entry) are shown again in later views while they
        stay as they were; copy what you want to change."""
        return {k: f(self, seat) for k, f in self.VIEW_FIELDS.items()}  # type: ignore[return-value]

    # -- what the rules say (one truth for every client) --------------------------------------
    def limits(self) -> Limits:
        """The game's numbers: the stacking limit (004 [7.11]), Movement Allowances (004 [5.0],
        [5.63]; the ``leader_movement`` option), the Politburo markers a Central Committee, an
        execution order and an end-game vote need (004 [11.11], [13.52], [14.1]), and whether the
        Politburo and Purge rules are in play at all (``politburo``: not in the Masses game,
        004 Masses [11.0], whose Czar is executed by a coalition of Red leadership, [13.52])."""
        return {"stack": movement.STACK_LIMIT, "leader_movement": movement.leader_ma(self.ctx),
                "blue_green_movement": movement.BLUE_GREEN_MA, "committee_markers": politics.COMMITTEE_MARKERS,
                "execution_markers": politics.EXECUTION_MARKERS, "vote_markers": victory.VOTE_MARKERS,
                "politburo": masses.politburo_problem(self.ctx, "") is None}

    def consents_to(self, seat: str, members: Iterable[str]) -> bool:
        """Whether ``seat`` consents now to a Central Committee of exactly ``members``, in any
        order (004 [11.11]; :func:`rcw.rules.politics.consents_to`): what an invitation to that
        Committee from ``seat`` stands on."""
        return politics.consents_to(self.ctx, seat, list(members))

    def force_stop(self) -> dict | None:
        """Why the force being moved may go no further: it entered a province held by units of
        another colour (004 [5.27]), or it has spent its Movement Points (004 [5.28]);
        ``{rule, message}``, None while it may go on (or no force is being moved)."""
        if self.state.force is None:
            return None
        p = movement.stop_problem(self.ctx) or movement.spent_problem(self.ctx)
        return {"rule": p[0], "message": p[1]} if p else None

    def force_allowance(self) -> int:
        """The Movement Allowance of the force being moved (004 [5.0], [5.63], [5.72]): its
        leaders' (the ``leader_movement`` option, or 2 + the lowest rating with
        ``reduced_leader_movement``) or a Blue/Green force's."""
        f = self.state.force
        if f is None:
            raise IllegalAction("004 [5.0]", "no force is being moved", "no_force")
        return movement.allowance(self.ctx, self.state.stacks[f.stack].units)

    def leaders_to_stack(self, seat: str) -> list[StackingDuty]:
        """001 No Leader Suicide 3: ``seat``'s Leaders alone who must be stacked with the nearest
        available friendly units before its Movement Phase ends (``EndMovement`` is refused
        until then), each with what to do (:class:`rcw.types.StackingDuty`); none without the
        option (:func:`rcw.rules.no_suicide.duties`)."""
        return copy.deepcopy(movement.stacking_duties(self.ctx, seat))  # type: ignore[return-value]

    def reach(self, unit: int | None = None) -> Mapping[str, Route]:
        """Where a force can end its move this Movement Phase, with a route to each: the force
        being moved (``unit`` None), or the one ``StartForce(unit)`` would pick up, as if it
        moved now (:func:`rcw.rules.movement.reach`)."""
        return movement.reach(self.ctx, unit)

    def minimum_loss(self, seat: str) -> list[int]:
        """The least loss that satisfies the Exchange ``seat`` is choosing now (004 [8.44]):
        :func:`rcw.rules.combat.minimum_loss`; empty when ``seat`` chooses none."""
        return combat.minimum_loss(self.ctx, seat)

    def stacks_of(self, seat: str) -> list[StackView]:
        """The stacks ``seat`` controls, as :meth:`view` shows them (by id): for a player who
        needs only those, without the whole map."""
        mine = [st for st in self.state.stacks.values() if st.owner == seat]
        mine.sort(key=_stack_id)
        return self._stack_views(mine)

    def stack(self, sid: int) -> StackView | None:
        """The stack ``sid``, as :meth:`view` shows it (None: there is none)."""
        st = self.state.stacks.get(sid)
        return None if st is None else self._stack_views([st])[0]

    def stack_holding(self, unit: int) -> StackView | None:
        """The stack that holds ``unit``, as :meth:`view` shows it (None: the unit is not on the map)."""
        st = self.ctx.b.stack_of(unit) if unit in self.data.units else None
        return None if st is None else self._stack_views([st])[0]

    def _stack_views(self, stacks: Iterable[Stack]) -> list[StackView]:
        """Stacks as a view shows them.  A view is plain data its readers do not change, so a
        stack's entry is made once and shown again for as long as the stack stays as it was (the
        same province, owner, units and attachments: its colour, :meth:`Board.stack_color`, is
        theirs)."""
        shown = self._shown     # stack id -> (its entry, and what it shows: province, owner, units, attachments)
        color = self.ctx.b.stack_color
        out = []
        for st in stacks:
            i = st.id
            got = shown.get(i)
            if got is not None:
                v, province, owner, units, att = got
                if units == st.units and att == st.attached and province == st.province and owner == st.owner:
                    out.append(v)
                    continue
            att = st.attached
            if att:
                attached = {}
                for k, x in att.items():
                    attached[str(k)] = x
                att = dict(att)
            else:
                attached, att = {}, {}
            units = st.units[:]
            v = {"id": i, "province": st.province, "owner": st.owner, "units": units, "attached": attached,
                 "color": color(st)}
            shown[i] = (v, st.province, st.owner, units, att)
            out.append(v)
        return out

    def capacity(self, leader: int) -> Capacity:
        """004 [5.14], [7.11], [13.22], [13.25]: how many combat units ``leader`` may have
        attached (``own``, of which ``green`` may be Green units with the Gold), how many are,
        and how many more he may pick up (``room``: also within the stacking limit)."""
        st = self.ctx.b.stack_of(leader) if leader in self.data.units else None
        if st is None or not self.data.units[leader].is_leader:
            raise IllegalAction("004 [5.14]", f"{leader} is not a leader on the map", "unknown_unit")
        held = self.ctx.b.attached_to(st, leader)
        own, green = self.ctx.b.capacity_holding(leader, held)        # (Board.capacity)
        units = self.data.units
        n = sum(1 for u in held if units[u].kind == "combat")
        return {"own": own, "green": green, "attached": n, "room": max(0, min(own - n, movement.STACK_LIMIT - 1 - n))}

    def attack_units(self, stack: int) -> list[int]:
        """The units of ``stack`` that take part when it attacks (004 [8.26]-[8.28]): they depend
        on its units and their attachments alone (what its view entry shows)."""
        st = self.state.stacks.get(stack)
        if st is None:
            raise IllegalAction("004 [8.0]", f"no stack {stack}", "unknown_stack")
        return combat.attack_units(self.ctx, st)

    def defense(self, stack: int) -> int:
        """The combat strength ``stack`` defends with (004 [8.26]): it depends on its units and
        their attachments alone (what its view entry shows)."""
        st = self.state.stacks.get(stack)
        if st is None:
            raise IllegalAction("004 [8.0]", f"no stack {stack}", "unknown_stack")
        return combat.strength(self.ctx, self.ctx.b.fighting_units(st))

    def attack_problem(self, seat: str, stack: int, target: int, subversive: bool = False) -> tuple[str, str] | None:
        """Why ``seat``'s ``stack`` may not attack ``target`` now (rule case, reason), or None
        (004 [8.21]-[8.28], [8.31])."""
        return combat.attacker_problem(self.ctx, seat, stack, target, subversive)

    def odds(self, stacks: list[int] | None = None, target: int | None = None, subversive: bool = False) -> Odds:
        """The odds of the attack being declared (no arguments), or of ``stacks`` attacking
        ``target`` (004 [8.0]; refused if they may not attack together, 004 [8.22])."""
        return combat.odds(self.ctx, stacks, target, subversive)

    def odds_of(self, attack: int, defense: int) -> Odds:
        """The odds of ``attack`` strength points against ``defense`` (004 [8.0]: the ratio rounded
        in the defender's favour; below 1:2 no attack may be made, 004 [8.47]; above 6:1 resolved
        at 6:1, 004 [8.48]): for an attack being planned, whose attackers are not yet in place."""
        for x in (attack, defense):
            if not isinstance(x, int) or isinstance(x, bool) or x < 0:
                raise IllegalAction("004 [8.0]", "strengths are whole numbers, 0 or more", "bad_request")
        return combat.odds_of(self.ctx, attack, defense)

    def attack_strength(self, units: list[int], subversive: bool = False) -> int:
        """What ``units`` (leaders, the combat units they lead, Blue and Green units) bring to an
        attack, wherever they stand now: for an attack being planned (004 [8.26]; Red units count
        double in a Subversive Attack on a "Subversive Attacks Doubled" Player-Turn, 004 [12.12])."""
        bad = [u for u in units if u not in self.data.units]
        if bad:
            raise IllegalAction("004 [8.26]", f"no unit {bad[0]!r}", "unknown_unit")
        return combat.strength(self.ctx, list(units), bool(subversive) and self.state.subversion_doubled)

    def attack_options(self, seat: str) -> list[AttackOption]:
        """Every attack ``seat`` may declare now, with the groups of stacks that may make it
        and their odds (:func:`rcw.rules.combat.attack_options`)."""
        return combat.attack_options(self.ctx, seat)

    @staticmethod
    def hostile(a: str, b: str) -> bool:
        """004 [8.11]-[8.15]: whether units of colours ``a`` and ``b`` oppose each other."""
        return opposed(a, b)

    def purge_odds(self, purgers: Iterable[str], counter: bool = False) -> dict:
        """A purge's Purge Strength, column and results by two-dice total (004 [11.0], [11.4])."""
        bad = [p for p in purgers if p not in self.state.seats]
        if bad:
            raise IllegalAction("004 [11.0]", f"no seat {bad[0]!r} in this game", "unknown_seat")
        return politics.purge_odds(self.ctx, list(purgers), counter)

    def assassination_chance(self, victim: int, markers: int = 1) -> float:
        """004 [10.0]: the chance that ``markers`` Assassin markers kill the leader ``victim``."""
        u = self.data.units.get(victim)
        if u is None or not u.is_leader:
            raise IllegalAction("004 [10.13]", "only leaders may be assassinated", "unknown_unit")
        if isinstance(markers, bool) or not isinstance(markers, int) or markers < 1:
            raise IllegalAction("004 [10.12]", "at least one Assassin marker must be used", "bad_request")
        return politics.assassination_chance(self.ctx, victim, markers)

    def assassination_need(self, victim: int, markers: int = 1) -> int:
        """004 [10.0]: the least two-dice total with which ``markers`` Assassin markers kill the
        leader ``victim`` (what :meth:`assassination_chance` counts the rolls of)."""
        self.assassination_chance(victim, markers)          # the same checks
        return politics.assassination_need(self.ctx, victim, markers)

    def leadership(self, seat: str) -> int:
        """004 [11.0] Procedure: the values of the Red leaders on the map that ``seat`` controls,
        its share of a Purge Strength besides its Politburo markers."""
        if seat not in self.state.seats:
            raise IllegalAction("004 [11.0]", f"no seat {seat!r} in this game", "unknown_seat")
        return politics.leadership(self.ctx, seat)

    def purgeable_leaders(self, victim: str) -> list[int]:
        """004 [11.21], [11.31]: the Red leaders on the map that a purge of ``victim`` may take."""
        if victim not in self.state.seats:
            raise IllegalAction("004 [11.0]", f"no seat {victim!r} in this game", "unknown_seat")
        return politics.purgeable_leaders(self.ctx, victim)

    def purged(self) -> list[str]:
        """004 [11.13]: the players who have taken part in a purge this Game-Turn (none of them
        may take part in another one, as purger, until the next Game-Turn)."""
        return politics.purged(self.ctx)

    def may_draw(self, seat: str) -> bool:
        """Whether ``seat`` may make a Randomizer draw now: its Randomizer Phase's draw (004
        [4.2] A.4) is not made yet, or a bonus draw of 001 Additional Randomizer Draws is left
        (the answer ``is_legal(DrawRandomizer(seat))`` gives, without a refused check)."""
        if type(self)._handler is not Game._handler or self.HANDLERS.get(A.DrawRandomizer) is not DRAW:
            return self.is_legal(A.DrawRandomizer(seat))      # (a game mode with rules of its own)
        return sequence.may_draw(self.ctx, seat)        # (only a playing seat is ever the phasing one)

    def withdrawal_markers_left(self) -> list[str]:
        """The nationalities whose Withdrawal Marker is still in the Auxiliary Forces Randomizer,
        sorted (004 [5.67], [12.13]; 001 Freikorps' Out Marker): a draw may yet take those forces
        out of the game."""
        return randomizer.withdrawal_markers_left(self.ctx)

    def scores(self) -> Scores:
        """Every player's Red and White Victory Points as the position stands (004 [14.4])."""
        return victory.scores(self.ctx, self.ctx.b.stack_colors())  # type: ignore[return-value]

    # -- persistence ------------------------------------------------------------------------------
    def to_bytes(self) -> bytes:
        return msgpack.packb({"v": 1, "state": self.state.to_dict(), "log": [to_wire(a) for a in self.log]},
                             use_bin_type=True)

    @classmethod
    def from_bytes(cls, raw: bytes, data: GameData | None = None) -> Game:
        """A game saved with :meth:`to_bytes` (of this mode; :func:`rcw.modes.from_bytes` picks the mode)."""
        d = msgpack.unpackb(raw, raw=False, strict_map_key=False)
        mode = d["state"].get("options", {}).get("mode", STANDARD)
        if mode != cls.MODE:
            raise IllegalAction("options", f"a saved {mode} game, not {cls.MODE}: load it with rcw.modes.from_bytes",
                                "bad_request")
        g = cls(State.from_dict(d["state"]), data)
        g.log = [action_from_wire(a) for a in d["log"]]
        return g

    def position_key(self) -> int:
        """A cheap fingerprint of the position for spotting play that goes round in circles:
        equal for equal positions; it covers the turn, the decision, the Committee, the markers
        and the offers, and every change to the map moves the RNG or the stack counter, which
        it covers too (``state_hash`` is the exact, costly comparison)."""
        s = self.state
        m = self._markers_seen
        if m is None or s.politburo != m[0] or s.assassins != m[1]:
            m = self._markers_seen = (dict(s.politburo), dict(s.assassins), tuple(sorted(s.politburo.items())),
                                      tuple(sorted(s.assassins.items())))
        return hash((s.turn, s.phase, s.current, s.rng, s.next_stack, s.next_offer, len(s.moved), len(s.fought),
                     repr(s.decision), tuple(s.committee),
                     self._consent_key() if s.committee_consent else (), m[2], m[3], tuple(s.purged_this_turn),
                     tuple(sorted(s.offers)) if s.offers else (), tuple(s.quit), s.force is None, s.attack is None))

    def state_hash(self) -> str:
        packed = msgpack.packb(_canonical(self.state.to_dict()), use_bin_type=True)
        return hashlib.sha256(packed).hexdigest()

    def record(self) -> dict:
        """Seed, players, options and the action log: enough to replay the game; ``rules``: the
        edition of the rules it was played under (``rcw.RULES_EDITION``)."""
        s = self.state
        return {"seed": s.seed, "players": len(s.seats), "options": dict(s.options),
                "actions": [to_wire(a) for a in self.log], "rules": RULES_EDITION}


def _stacks_view(g: Game, seat: str | None) -> list[StackView]:
    stacks = g.state.stacks
    shown = g._shown
    if len(shown) > 2 * len(stacks) + 64:   # (forget the stacks long gone)
        g._shown = {i: v for i, v in shown.items() if i in stacks}
    return g._stack_views(map(stacks.__getitem__, sorted(stacks)))


def _vp_view(g: Game, seat: str | None) -> dict[str, list[list]]:
    """The VP chart as a view shows it: made again only when the chart (its sections, in their
    order, and their entries) has changed since it was last shown (a view is read-only; the
    chart changes only when units are eliminated)."""
    vp, shown = g.state.vp, g._vp_shown
    if shown is None or shown != vp or list(shown) != list(vp):
        shown = g._vp_shown = {k: [list(e) for e in v] for k, v in vp.items()}
    return shown


# What a seat's view holds, entry by entry (see Game.view and rcw.types.View); game modes extend it.
VIEW_FIELDS: dict[str, Callable[[Game, str | None], Any]] = {
    "mode": lambda g, seat: g.MODE,
    "options": lambda g, seat: dict(g.state.options),
    "limits": lambda g, seat: g.limits(),
    "seats": lambda g, seat: list(g.state.seats),
    "you": lambda g, seat: seat,
    "turn": lambda g, seat: g.turns_played,
    "phase": lambda g, seat: g.state.phase,
    "order": lambda g, seat: list(g.state.order),
    "phasing": lambda g, seat: g.ctx.b.phasing(),
    "pending": lambda g, seat: g.pending,
    "stacks": _stacks_view,
    "vp": _vp_view,
    "politburo": lambda g, seat: dict(g.state.politburo),
    "assassins": lambda g, seat: dict(g.state.assassins),
    "control": lambda g, seat: dict(g.state.control),
    "withdrawn": lambda g, seat: list(g.state.withdrawn),
    "randomizer": lambda g, seat: len(g.state.aux),
    "hands": lambda g, seat: {k: list(v) for k, v in g.state.hand.items()},
    "offers": lambda g, seat: g.offers(seat) if seat else [],
    "ready": lambda g, seat: list(g.state.ready),
    "quit": lambda g, seat: list(g.state.quit),
    "force": lambda g, seat: g.state.force.to_list() if g.state.force else None,
    "attack": lambda g, seat: g.state.attack.to_list() if g.state.attack else None,
    "decision": lambda g, seat: copy_plain(g.state.decision),
    "subversion_doubled": lambda g, seat: g.state.subversion_doubled,
    "committee": lambda g, seat: list(g.state.committee),
    "committee_consent": lambda g, seat: {k: list(v) for k, v in g.state.committee_consent.items()},
    "scores": lambda g, seat: g.scores(),
    "result": lambda g, seat: copy_plain(g.state.result),
}
Game.VIEW_FIELDS = VIEW_FIELDS
