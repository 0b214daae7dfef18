"""What one seat may see of a game and ask of it: the public API for computer players.

A :class:`Player` wraps a :class:`rcw.game.Game` for one seat.  It shows the seat's view and
legal actions and answers the rule queries (reach, capacity, odds, attack options, scores) -
everything a bot needs and nothing of the game's internals, exactly what a remote client gets
over the wire (``docs/protocol.md``).  The view and the legal actions are computed when first
asked for after a change, then kept until the game changes again.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from rcw.actions import Action, IllegalAction
from rcw.data import GameData
from rcw.game import Game, Legal
from rcw.types import AttackOption, Capacity, Limits, Odds, Pending, Route, Scores, StackingDuty, StackView, View


class LazyView(Mapping):
    """A seat's view (:meth:`Game.view`, the same entries) computed entry by entry as they are
    read, so that a player who reads the markers does not pay for the map."""

    __slots__ = ("_game", "_seat", "_got")

    def __init__(self, game: Game, seat: str | None) -> None:
        self._game, self._seat, self._got = game, seat, {}

    def __getitem__(self, key: str):
        got = self._got
        if key not in got:
            field = self._game.VIEW_FIELDS.get(key)
            if field is None:
                raise KeyError(key)
            got[key] = field(self._game, self._seat)
        return got[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._game.VIEW_FIELDS)

    def __len__(self) -> int:
        return len(self._game.VIEW_FIELDS)

    def __repr__(self) -> str:
        return f"LazyView({self._seat}: {dict(self)!r})"


class Player:
    def __init__(self, game: Game, seat: str) -> None:
        self._game = game
        self.seat = seat
        # the view, the legal actions and the pending list, each with the version it was read at
        self._view: LazyView | None = None
        self._legal: Legal | None = None
        self._pending: list[Pending] | None = None
        self._view_at = self._legal_at = self._pending_at = -1

    @property
    def data(self) -> GameData:
        """The map, the counters and the tables (public: they are printed)."""
        return self._game.data

    @property
    def version(self) -> int:
        return len(self._game.log)          # (Game.version)

    @property
    def view(self) -> View:
        """What this seat sees (:meth:`Game.view`), read entry by entry: an entry is computed the
        first time it is read after a change to the game (a :class:`LazyView`; do not change it)."""
        g = self._game
        if self._view_at != len(g.log):     # (Game.version)
            self._view_at = len(g.log)
            self._view = LazyView(g, self.seat)
        return self._view  # type: ignore[return-value]

    @property
    def legal(self) -> Legal:
        """This seat's legal actions (lazy: ``a in legal`` checks ``a`` alone)."""
        g = self._game
        if self._legal_at != len(g.log):    # (Game.version)
            self._legal_at = len(g.log)
            self._legal = g.legal(self.seat)
        return self._legal  # type: ignore[return-value]

    @property
    def pending(self) -> list[Pending]:
        """Whose decision the game waits for (:attr:`Game.pending`), kept until the game changes
        (do not change it)."""
        g = self._game
        if self._pending_at != len(g.log):  # (Game.version)
            self._pending_at = len(g.log)
            self._pending = g.pending
        return self._pending  # type: ignore[return-value]

    @property
    def over(self) -> bool:
        return self._game.over

    @property
    def result(self) -> dict | None:
        return self._game.result

    def is_legal(self, action: Action) -> bool:
        return action.seat == self.seat and self._game.why_illegal(action) is None     # (Game.is_legal, one call less)

    def why_illegal(self, action: Action) -> IllegalAction | None:
        if action.seat != self.seat:
            return IllegalAction("004 [15.21]", f"{self.seat} acts only for itself", "not_your_seat")
        return self._game.why_illegal(action)

    def out_of_turn(self) -> list[Action]:
        return self._game.out_of_turn(self.seat)

    def settles(self, action: Action) -> bool:
        return self._game.settles(action)

    def minimum_loss(self) -> list[int]:
        return self._game.minimum_loss(self.seat)

    def lookahead(self, seed: int) -> Game:
        """A copy of the game to play forward for look-ahead (:meth:`Game.clone`), its future
        random draws reseeded from ``seed`` (:meth:`Game.reseed`), so that a search cannot see the
        real game's dice.  The copy is the whole game, hidden parts included (the Randomizer's
        order, others' trade offers): meant for the SPI solitaire, where the one player sees the
        whole map; the real game is untouched."""
        g = self._game.clone()
        g.reseed(seed)
        return g

    def rehearsal(self, seed: int) -> Game:
        """The postal game (004 [17.0]): this seat's part in the phase whose orders are collected,
        played out on a copy, its actions written down as an order sheet (``PostalGame.rehearsal``:
        its ``done`` and ``sheet()``); its dice are drawn from ``seed``."""
        rehearse = getattr(self._game, "rehearsal", None)
        if rehearse is None:
            raise IllegalAction("004 [17.0]", "only a postal game's phases are rehearsed", "unsupported")
        return rehearse(self.seat, seed)

    def check_sheet(self, sheet, offers: bool | int = False) -> dict:
        """The postal game (004 [17.0]): what sending ``sheet`` would refuse and warn of
        (``PostalGame.check_sheet``, with its moves' ``offers`` if asked), without sending it."""
        check = getattr(self._game, "check_sheet", None)
        if check is None:
            raise IllegalAction("004 [17.0]", "only a postal game takes order sheets", "unsupported")
        return check(self.seat, sheet, offers)

    def trade_orders(self, terms, seat: str | None = None) -> dict:
        """The postal game (004 [17.0] postal [4.2]): the ``trade`` order ``seat`` (this player by
        default; another player's proposal to it, say) writes with ``terms`` and the mirror order
        its partner writes to match it (``PostalGame.trade_orders``); :class:`IllegalAction` if
        a sheet would refuse it now."""
        orders = getattr(self._game, "trade_orders", None)
        if orders is None:
            raise IllegalAction("004 [17.0]", "only a postal game takes trade orders", "unsupported")
        return orders(seat or self.seat, terms)

    # -- the rule queries (see Game) ---------------------------------------------------------
    def limits(self) -> Limits:
        return self._game.limits()

    def reach(self, unit: int | None = None) -> Mapping[str, Route]:
        return self._game.reach(unit)

    def leaders_to_stack(self) -> list[StackingDuty]:
        """This seat's leaders alone that 001 No Leader Suicide 3 moves before its Movement Phase ends."""
        return self._game.leaders_to_stack(self.seat)

    def stacks_of(self, seat: str | None = None) -> list[StackView]:
        """The stacks ``seat`` (default: this seat) controls, as the view shows them."""
        return self._game.stacks_of(self.seat if seat is None else seat)

    def stack(self, sid: int) -> StackView | None:
        return self._game.stack(sid)

    def stack_holding(self, unit: int) -> StackView | None:
        return self._game.stack_holding(unit)

    def capacity(self, leader: int) -> Capacity:
        return self._game.capacity(leader)

    def attack_units(self, stack: int) -> list[int]:
        return self._game.attack_units(stack)

    def defense(self, stack: int) -> int:
        return self._game.defense(stack)

    def attack_problem(self, stack: int, target: int, subversive: bool = False) -> tuple[str, str] | None:
        return self._game.attack_problem(self.seat, stack, target, subversive)

    def odds(self, stacks: list[int] | None = None, target: int | None = None, subversive: bool = False) -> Odds:
        return self._game.odds(stacks, target, subversive)

    def odds_of(self, attack: int, defense: int) -> Odds:
        return self._game.odds_of(attack, defense)

    def attack_strength(self, units: list[int], subversive: bool = False) -> int:
        return self._game.attack_strength(units, subversive)

    def attack_options(self) -> list[AttackOption]:
        return self._game.attack_options(self.seat)

    def hostile(self, a: str, b: str) -> bool:
        return self._game.hostile(a, b)

    def scores(self) -> Scores:
        return self._game.scores()

    def purge_odds(self, purgers, counter: bool = False) -> dict:
        return self._game.purge_odds(purgers, counter)

    def purgeable_leaders(self, victim: str) -> list[int]:
        """The Red leaders on the map that a purge of ``victim`` may take (:meth:`Game.purgeable_leaders`)."""
        return self._game.purgeable_leaders(victim)

    def assassination_chance(self, victim: int, markers: int = 1) -> float:
        return self._game.assassination_chance(victim, markers)

    def purged(self) -> list[str]:
        """The players who took part in a purge this Game-Turn (:meth:`Game.purged`)."""
        return self._game.purged()

    def may_draw(self) -> bool:
        """Whether this seat may make a Randomizer draw now (:meth:`Game.may_draw`)."""
        return self._game.may_draw(self.seat)

    def withdrawal_markers_left(self) -> list[str]:
        """The nationalities whose Withdrawal Marker is still in the Randomizer (:meth:`Game.withdrawal_markers_left`)."""
        return self._game.withdrawal_markers_left()

    def offers(self) -> list[dict]:
        """The trade offers this seat made or received."""
        return self._game.offers(self.seat)
