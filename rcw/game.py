"""The one API for everyone: :class:`Game`.

``Game.new(players, seed, options)``, ``legal_actions(seat)``, ``apply(action) -> events``,
``pending``, ``view(seat)``, ``to_bytes()`` / ``Game.from_bytes()``, ``state_hash()`` and
``Game.replay(seed, actions, players, options)``.  A bot, a WebSocket client and a test all
go through these calls.  An illegal action raises :class:`IllegalAction` naming the rule
case and changes nothing.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable
from typing import Any

import msgpack

from rcw import actions as A
from rcw.actions import Action, Event, IllegalAction, action_from_wire, to_wire
from rcw.data import GameData, default
from rcw.rules import assassination, combat, movement, quitting, sequence, setup
from rcw.rules.base import Ctx
from rcw.state import State

SEATS = "ABCDEF"
MODES: dict[str, Any] = {}   # game modes other than the multi-player game: "spi-solitaire" (rcw.rules.solitaire)
OPTIONS: dict[str, tuple[type, Any, str]] = {
    "max_turns": (int, 0, "end the game with no victor after this many Game-Turns (0: no limit, as the rules say)"),
    "leader_movement": (int, 5, "leaders' Movement Allowance (001 optional 'Reduced leader movement' uses 4)"),
    "postal_movement": (bool, False, "004 [17.0]: judge the stop-on-entering rule on the positions at the start of the Game-Turn"),
}

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
    A.EndPlayerTurn: (sequence.check_end_turn, sequence.do_end_turn),
    A.VoteEndGame: (sequence.check_vote, sequence.do_vote),
    A.Quit: (quitting.check, quitting.do),
    A.Assassinate: (assassination.check, assassination.do),
}


def register(action_type: type, check: Check, do: Do) -> None:
    """Rule modules outside this file (e.g. politics) register their actions here."""
    HANDLERS[action_type] = (check, do)


def _canonical(x: Any) -> Any:
    if isinstance(x, dict):
        return [[_canonical(k), _canonical(v)] for k, v in sorted(x.items(), key=lambda kv: str(kv[0]))]
    if isinstance(x, (list, tuple)):
        return [_canonical(v) for v in x]
    return x


class Game:
    def __init__(self, state: State, data: GameData | None = None) -> None:
        self.data = data or default()
        self.state = state
        self.ctx = Ctx(self.data, state)
        self.log: list[Action] = []
        self.setup_events: list[Event] = []

    # -- construction ---------------------------------------------------------------------
    @classmethod
    def new(cls, players: int | None = None, seed: int = 0, options: dict | None = None,
            data: GameData | None = None) -> Game:
        """004 [15.2]-[15.3]: seats A.. in clockwise order; the Initial Forces dealt face up.
        ``players`` None: five, or the usual number of the mode that ``options`` names."""
        mode = (options or {}).get("mode")
        if mode is not None and cls is Game:         # options {"mode": ...} pick another game mode
            if mode not in MODES:
                raise IllegalAction("options", f"unknown mode {mode!r} (known: {', '.join(sorted(MODES))})", "bad_request")
            return MODES[mode].new(players, seed, options, data)
        players = 5 if players is None else players
        if not isinstance(players, int) or not 3 <= players <= 6:
            raise IllegalAction("004 [2.0]", "Russian Civil War is for 3 to 6 players", "bad_request")
        opts = validate_options(options or {})
        st = State(seats=list(SEATS[:players]), seed=int(seed), rng=int(seed) & ((1 << 64) - 1), options=opts)
        g = cls(st, data)
        g.setup_events = setup.deal(g.ctx)
        return g

    @classmethod
    def replay(cls, seed: int, actions: list[Action | dict], players: int | None = None,
               options: dict | None = None) -> Game:
        """Rebuild a game from its seed and action log (the persistence format); ``players``
        None means the mode's usual number."""
        g = cls.new(players, seed, options)
        for a in actions:
            g.apply(a if isinstance(a, Action) else action_from_wire(a))
        return g

    # -- the four calls ---------------------------------------------------------------------
    def apply(self, action: Action | dict) -> list[Event]:
        if isinstance(action, dict):
            action = action_from_wire(action)
        if not isinstance(action, Action):
            raise IllegalAction("protocol", "not an action", "bad_action")
        check, do = self._handler(action)
        check(self.ctx, action)
        events = do(self.ctx, action)
        self.ctx.b.invalidate()
        events = self._after(events)
        self.log.append(action)
        # Events are snapshots: their data must not share lists with the state, which later
        # actions change (e.g. a capture offer's units, the end-game vote's voters).
        return [Event(e.kind, e.text, copy.deepcopy(e.data)) for e in events]

    def _handler(self, action: Action) -> tuple:
        """The (check, do) pair that rules on ``action`` here, after the checks every action
        passes (its seat plays, the game goes on, 004 [15.33] trading first); game modes
        override this."""
        s = self.state
        if action.seat not in s.seats:
            raise IllegalAction("004 [15.21]", f"no seat {action.seat!r} in this game", "unknown_seat")
        if action.seat in s.quit:
            raise IllegalAction("004 [14.2]", f"{action.seat} has left the game", "seat_quit")
        if s.phase == "over":
            raise IllegalAction("004 [14.1]", "the game is over", "game_over")
        handler = HANDLERS.get(type(action))
        if handler is None:
            raise IllegalAction("engine", f"{action.TYPE} is not supported yet", "unsupported")
        if s.phase == "trading" and type(action) not in (A.OfferTrade, A.AcceptTrade, A.DeclineTrade,
                                                          A.WithdrawTrade, A.EndTrading, A.Quit):
            raise IllegalAction("004 [15.33]", "the pre-game trading session is still open", "wrong_phase")
        return handler

    def _after(self, events: list[Event]) -> list[Event]:
        """What follows every action (the ``AFTER_APPLY`` hooks: purges, votes, ...)."""
        for after in self.AFTER_APPLY:
            events += after(self.ctx)
        return events

    def legal_actions(self, seat: str) -> list[Action]:
        """What ``seat`` may do now.  ``OfferTrade`` is parametric and not listed (any offer
        passing :func:`rcw.rules.setup.check_offer` may be made); every listed action is legal."""
        s = self.state
        if seat not in s.seats or seat in s.quit or s.phase == "over":
            return []
        cands: list[Action] = []
        d = s.decision
        if d is not None:
            if d["seat"] == seat:
                cands = combat.decision_candidates(self.ctx, seat) + self._extra_decisions(seat)
            return self._filter(cands)
        cands += setup.trading_candidates(self.ctx, seat)
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
        cands += self._extra_free(seat)
        cands.append(A.Quit(seat))
        return self._filter(cands)

    # hooks filled by optional rule modules (politics)
    EXTRA_DECISIONS: list[Callable[[Ctx, str], list[Action]]] = []
    EXTRA_FREE: list[Callable[[Ctx, str], list[Action]]] = []
    AFTER_APPLY: list[Callable[[Ctx], list[Event]]] = []   # run after every applied action

    def _extra_decisions(self, seat: str) -> list[Action]:
        out: list[Action] = []
        for f in self.EXTRA_DECISIONS:
            out += f(self.ctx, seat)
        if self.state.decision and self.state.decision.get("kind") == "vote":
            out += [A.VoteEndGame(seat, True), A.VoteEndGame(seat, False)]
        return out

    def _extra_free(self, seat: str) -> list[Action]:
        out: list[Action] = []
        for f in self.EXTRA_FREE:
            out += f(self.ctx, seat)
        return out

    def _filter(self, cands: list[Action]) -> list[Action]:
        out, seen = [], set()
        for a in cands:
            if a in seen:
                continue
            seen.add(a)
            check = HANDLERS.get(type(a), (None, None))[0]
            if check is None:
                continue
            try:
                check(self.ctx, a)
            except IllegalAction:
                continue
            out.append(a)
        return out

    @property
    def pending(self) -> list[dict]:
        """Whose decision the game waits for now, and what kind."""
        s = self.state
        if s.phase == "over":
            return []
        if s.decision is not None:
            return [{"seat": s.decision["seat"], "kind": s.decision["kind"]}]
        if s.phase == "trading":
            return [{"seat": p, "kind": "trading"} for p in self.ctx.b.active_seats() if p not in s.ready]
        p = self.ctx.b.phasing()
        if p is None:
            return []
        kind = s.phase
        if s.force is not None:
            kind = "force"
        elif s.attack is not None:
            kind = "attack"
        return [{"seat": p, "kind": kind}]

    @property
    def over(self) -> bool:
        return self.state.phase == "over"

    @property
    def result(self) -> dict | None:
        return self.state.result

    def view(self, seat: str | None = None) -> dict:
        """What ``seat`` sees (None: a spectator).  Everything on the map and the VP chart is
        open (004 [8.29]); trade offers are seen only by the two players involved; the order
        of the randomizer cups and the RNG are hidden."""
        s = self.state
        b = self.ctx.b
        return {
            "seats": list(s.seats), "you": seat, "turn": s.turn, "phase": s.phase,
            "order": list(s.order), "phasing": b.phasing(), "pending": self.pending,
            "stacks": [{"id": st.id, "province": st.province, "owner": st.owner, "units": list(st.units),
                        "attached": {str(k): v for k, v in st.attached.items()}, "color": b.stack_color(st)}
                       for st in sorted(s.stacks.values(), key=lambda x: x.id)],
            "vp": {k: [list(e) for e in v] for k, v in s.vp.items()},
            "politburo": dict(s.politburo), "assassins": dict(s.assassins),
            "control": dict(s.control), "withdrawn": list(s.withdrawn),
            "randomizer": len(s.aux), "hands": {k: list(v) for k, v in s.hand.items()},
            "offers": [o for o in s.offers.values() if seat in (o["from"], o["to"])],
            "ready": list(s.ready), "quit": list(s.quit),
            "force": s.force.to_list() if s.force else None,
            "attack": s.attack.to_list() if s.attack else None,
            "decision": s.decision, "subversion_doubled": s.subversion_doubled,
            "committee": list(s.committee), "committee_consent": {k: list(v) for k, v in s.committee_consent.items()},
            "result": s.result,
        }

    # -- persistence ------------------------------------------------------------------------------
    def to_bytes(self) -> bytes:
        return msgpack.packb({"v": 1, "state": self.state.to_dict(), "log": [to_wire(a) for a in self.log]},
                             use_bin_type=True)

    @classmethod
    def from_bytes(cls, raw: bytes, data: GameData | None = None) -> Game:
        d = msgpack.unpackb(raw, raw=False, strict_map_key=False)
        cls = MODES.get(d["state"].get("options", {}).get("mode"), cls)
        g = cls(State.from_dict(d["state"]), data)
        g.log = [action_from_wire(a) for a in d["log"]]
        return g

    def state_hash(self) -> str:
        packed = msgpack.packb(_canonical(self.state.to_dict()), use_bin_type=True)
        return hashlib.sha256(packed).hexdigest()

    def record(self) -> dict:
        """Seed, players, options and the action log: enough to replay the game."""
        s = self.state
        return {"seed": s.seed, "players": len(s.seats), "options": dict(s.options),
                "actions": [to_wire(a) for a in self.log]}


def validate_options(options: dict) -> dict:
    out = {}
    for k, v in options.items():
        if k not in OPTIONS:
            raise IllegalAction("options", f"unknown option {k!r} (known: {', '.join(sorted(OPTIONS))})", "bad_request")
        typ = OPTIONS[k][0]
        if not isinstance(v, typ) or (isinstance(v, bool) and typ is not bool):
            raise IllegalAction("options", f"option {k} must be {typ.__name__}", "bad_request")
        out[k] = v
    return out


# Optional rule modules register their actions when imported.
from rcw.rules import politics as _politics  # noqa: E402,F401
from rcw.rules import solitaire as _solitaire  # noqa: E402,F401
