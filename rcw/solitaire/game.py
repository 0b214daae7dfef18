"""The SPI solitaire as a game mode: :class:`SoloGame`, a :class:`rcw.game.Game` with seats R and N.

* ``"R"``, the Red Player (004 [18.0]): the only seat that ever acts.  It controls every Red
  unit (owner ``"R"`` on every Red stack).
* ``"N"``, the non-Red Player: "a system of rules, which restricts the operations of the
  non-Red forces" (004 [28.0]).  It owns every White stack and the Blue/Green stacks whose
  Control Marker it holds (004 [20.12]); uncontrolled Blue/Green stacks have no owner.
  ``legal_actions("N")`` is always empty and ``pending`` only ever names R.

The game dispatches actions through its own table (``SOLO_HANDLERS``: the multi-player movement
and combat handlers plus the solitaire's own) and, after each, runs :func:`rcw.solitaire.turn.settle`
in place of the multi-player game's Central Committee update (politics has nothing to do here).

004 [20.11], [27.2]: no Assassin or Politburo markers, no purges, trades or Central Committee.
004 [9.16] still applies: no replacements after Game-Turn 5.  ``max_turns`` is ignored (the
solitaire always ends with Game-Turn 7, 004 [27.32]); ``postal_movement`` is refused.
"""

from __future__ import annotations

from typing import Any

from rcw import actions as A
from rcw.actions import Action, Event, IllegalAction
from rcw.data import BLUE, GREEN, GameData
from rcw.game import HANDLERS, Game
from rcw.rng import MASK, Dice
from rcw.rules import auxiliary, combat, movement
from rcw.solitaire import red, turn
from rcw.solitaire.base import LAST_TURN, MODE, NONRED, RED_SEAT, TARGETS
from rcw.solitaire.nonred_movement import movers
from rcw.solitaire.routes import remaining_route, route_of, route_unit
from rcw.solitaire.setup import setup
from rcw.solitaire.victory import conditions, nonred_in_targets, objective_units
from rcw.state import State

ALLOWED = (A.RollRandomEvents, A.StartForce, A.JoinForce, A.Attach, A.Detach, A.Move, A.EndForce, A.Merge,
           A.TransferImperial, A.Emigrate, A.EndMovement, A.DeclareAttack, A.AddAttacker, A.RemoveAttacker,
           A.ResolveAttack, A.CancelAttack, A.ChooseLoss, A.CaptureImperial, A.DeclineCapture, A.EndCombat,
           A.DrawRandomizer)
SOLO_HANDLERS: dict[type, tuple[Any, Any]] = {t: HANDLERS[t] for t in ALLOWED if t in HANDLERS}
SOLO_HANDLERS[A.RollRandomEvents] = (red.check_roll, red.do_roll)
SOLO_HANDLERS[A.DrawRandomizer] = (turn.check_draw, turn.do_draw)
SOLO_HANDLERS[red.DeployLeader] = (red.check_deploy, red.do_deploy)
SOLO_HANDLERS[red.EndLeaderDeployment] = (red.check_end_deploy, red.do_end_deploy)

NOT_USED = {"Assassinate": "004 [20.11]: assassination is not used in the solitaire",
            "DeclarePurge": "004 [27.2]: purges are not used in the solitaire",
            "JoinCommittee": "004 [27.2]: there is no Central Committee in the solitaire",
            "OrderExecution": "004 [26.0]: the Czar is executed automatically",
            "AnswerExecution": "004 [26.0]: the Czar is executed automatically",
            "OfferTrade": "004 [18.0]: there is only one player"}


class SoloGame(Game):
    """The SPI solitaire (seats R and N); see the module docstring."""

    MODE = MODE
    PLAYERS = 1
    HANDLERS = SOLO_HANDLERS
    ENGINE_SEATS = ("N",)            # "a system of rules" (004 [18.0]): legal_actions("N") is always empty

    @classmethod
    def from_bytes(cls, raw: bytes, data: GameData | None = None) -> SoloGame:
        """:meth:`Game.from_bytes`, a game saved by older code brought up to date (:func:`red.upgrade`)."""
        g = super().from_bytes(raw, data)
        red.upgrade(g.ctx)
        return g

    @classmethod
    def new(cls, players: int | None = 1, seed: int = 0, options: dict | None = None,
            data: GameData | None = None, dice: Dice | None = None) -> SoloGame:
        """004 [27.0]: the set-up, then Game-Turn 1's non-Red Player-Turn (004 [27.31]).
        ``players`` 1 or 2 (both mean the one human)."""
        players = 1 if players is None else players
        if isinstance(players, bool) or players not in (1, 2):
            raise IllegalAction("004 [18.0]", "the SPI solitaire has one player (seats R and N): players must be 1 or 2",
                                "bad_request")
        if options is None or isinstance(options, dict):
            options = {"mode": MODE, **(options or {})}
        opts = cls._options(options)
        if opts.get("postal_movement"):
            raise IllegalAction("004 [17.0]", "the postal rules are not part of the solitaire", "bad_request")
        extra = [o for o in auxiliary.STATS if opts.get(o)]
        if extra:
            raise IllegalAction("001", f"the optional forces of 001 ({', '.join(extra)}) are not part of the solitaire",
                                "bad_request")
        st = State(seats=[RED_SEAT, NONRED], seed=int(seed), rng=int(seed) & MASK, options=opts)
        g = cls(st, data, dice)
        ev = setup(g.ctx)
        st.phase = "random_events"
        ev += turn.start_nonred_turn(g.ctx)
        ev += turn.settle(g.ctx)
        g.setup_events = turn.relabel(ev)
        return g

    def _handler(self, action: Action) -> tuple:
        s = self.state
        if action.seat not in s.seats:
            raise IllegalAction("004 [18.0]", f"no seat {action.seat!r} in the solitaire (R and N)", "unknown_seat")
        if s.phase == "over":
            raise IllegalAction("004 [28.14]", "the game is over", "game_over")
        if action.seat == NONRED:
            raise IllegalAction("004 [28.0]", "the non-Red Player is a system of rules: the engine makes its moves",
                                "not_your_turn")
        handler = self.HANDLERS.get(type(action))
        if handler is None:
            why = NOT_USED.get(action.TYPE, f"004 [18.0]: {action.TYPE} is not part of the SPI solitaire")
            raise IllegalAction(why.split(":")[0], why.split(": ", 1)[1], "unsupported")
        return handler

    def _after(self, events: list[Event]) -> list[Event]:
        """After each Red action the non-Red Player-Turn and the checks of 004 [28.14] run on."""
        return turn.relabel(events + turn.settle(self.ctx))

    def legal_actions(self, seat: str) -> list[Action]:
        s = self.state
        if seat != RED_SEAT or s.phase == "over":
            return []
        if s.decision is not None:
            if s.decision["seat"] != seat:
                return []
            return self._filter(combat.decision_candidates(self.ctx, seat))
        if s.current != 1:
            return []
        ph = s.phase
        cands: list[Action] = []
        if ph == "random_events":
            cands = [A.RollRandomEvents(seat)]
        elif ph == "leaders":
            cands = red.deploy_candidates(self.ctx)
        elif ph == "movement":
            cands = movement.candidates(self.ctx, seat)
        elif ph == "combat":
            cands = combat.candidates(self.ctx, seat)
        elif ph == "randomizer":
            cands = [A.DrawRandomizer(seat)]
        return self._filter(cands)

    def _turn_seat(self) -> str | None:
        """Only the Red Player is ever asked; the non-Red Player-Turn runs inside ``apply``."""
        return RED_SEAT if self.state.current == 1 else None


def _phasing(g: SoloGame, seat: str | None) -> str | None:
    """The side whose Player-Turn it is: R or N (the non-Red Player-Turn runs inside ``apply``)."""
    s = g.state
    return None if s.phase == "over" else (RED_SEAT if s.current == 1 else NONRED)


def _solitaire(g: SoloGame, seat: str | None) -> dict:
    """The solitaire's read-outs: the non-Red step under way, the Red Leader Determination, each
    non-Red stack's target and path ahead, the units left in the Red objective regions and those
    in Petrograd and Tver."""
    s, ctx = g.state, g.ctx
    routes = {}
    for st in sorted(s.stacks.values(), key=lambda x: x.id):
        if st.owner == NONRED or (st.owner is None and ctx.b.stack_color(st) in (BLUE, GREEN)):
            r = remaining_route(ctx, st)
            lead = route_unit(ctx, st)
            full = route_of(ctx, lead) if lead else None
            if full:
                routes[str(st.id)] = {"target": full[-1], "ahead": r}
    rld = dict(s.solo.get("rld") or {})
    return {
        "mode": MODE, "last_turn": LAST_TURN, "nonred_step": s.solo.get("nr", ""),
        "leaders": rld | {"available": red.available_leaders(ctx)} if s.phase == "leaders" else rld,
        "leaders_note": red.LEADERS_NOTE,               # what becomes of them (004 [24.0])
        # each Red stack's loose combat units: those a leader deployed on it takes command of (004 [24.11])
        "loose": {str(st.id): red.loose_units(ctx, st) for st in s.stacks.values() if st.owner == RED_SEAT},
        # the Red Leader Determination Phases to be skipped (004 [24.14]-[24.17])
        "rld_skip": len(s.solo["rld_skips"]), "rld_skipped_turns": list(s.solo["rld_skips"]),
        "czar_executed": s.solo.get("czar", 0),
        "red_dead": list(s.solo.get("dead", [])),          # Red leaders eliminated: they never come back (004 [24.13])
        "routes": routes, "objective_left": objective_units(ctx),
        # the non-Red stacks that move in the non-Red Movement Phase, in their order (004 [18.0], [21.11])
        "movers": [st.id for st in movers(ctx)],
        "in_targets": dict(nonred_in_targets(ctx)),
        "targets": list(TARGETS),                       # Petrograd and Tver: a non-Red unit there wins (004 [28.13])
        "victory": conditions(ctx.data),                # the conditions in words (004 [28.11]-[28.15])
    }


def _decision(g: SoloGame, seat: str | None) -> dict | None:
    """The decision pending, with what the solitaire's rules make of it (``note``: the Czar's
    capture, 004 [26.0])."""
    d = Game.VIEW_FIELDS["decision"](g, seat)
    note = red.capture_note(g.ctx, d)
    return d if note is None else {**d, "note": note}


# The multi-player view with the phasing side and the solitaire's read-outs.
SoloGame.VIEW_FIELDS = {**Game.VIEW_FIELDS, "phasing": _phasing, "solitaire": _solitaire, "decision": _decision}
