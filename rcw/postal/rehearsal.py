"""Writing a sheet by playing the phase: a rehearsal (for computer players, 004 [17.0]).

"Each Player plots the movement of his units, utilizing the initial set-up at the start of the
Game-Turn as reported by the GM" (004 [17.0] Procedure).  A rehearsal is that plot played out:
a copy of the position whose orders are collected, as a multi-player game in which the seat is
the Phasing Player of its own Movement Phase (the First Phase) or Combat Phase (the Second
Phase), the stop judged on the start positions as in the adjudication.  A player who plays the
multi-player game - a computer player - plays it with its usual legal actions, and every
action it takes is written down as the order it stands for (:meth:`Rehearsal.sheet`):

==========================================  ==================================================
action in the rehearsal                      order on the sheet
==========================================  ==================================================
``StartForce``, ``JoinForce``, ``Attach``,   one ``move`` (its path, rail or not, joins,
``Detach``, ``Move``, ``EndForce``           pick-ups and drops by province)
``Merge``, ``TransferImperial``,             ``merge``, ``transfer``, ``emigrate``,
``Emigrate``, ``CzechExit``                  ``czech_exit`` (stacks named by a unit in them)
``OfferTrade``                               ``trade`` (a gift, or an exchange the other side
                                             must mirror)
``Assassinate``                              ``assassinate`` (one victim; First Phase only)
``DeclareAttack``, ``AddAttacker``,          one ``attack`` (target and attackers named by a
``ResolveAttack``                            unit of their stacks); a called-off one is not
==========================================  ==================================================

Other actions are played but write nothing, except the Central Committee's (purges, executions:
in the postal game they are orders of their own, carried out after the movement) and ``Quit``,
which are not played at all.  The copy knows nothing the seat may not: the other
seats' sheets are not in it and its dice are its own (``seed``); the other seats' decisions it
needs (an Exchange loss of a defender) are answered as the Gamesmaster would.  Nothing done in a
rehearsal changes the game.  The rehearsal is over (:attr:`Rehearsal.done`) when the seat has
ended the phase played.
"""

from __future__ import annotations

from rcw import actions as A
from rcw.actions import Action, Event
from rcw.game import HANDLERS, Game
from rcw.postal.base import LIVE_PHASE, book
from rcw.postal.gm import STOP, answer_one
from rcw.rules import combat, politics

# The Central Committee's business (purges, executions, votes) and leaving the game are not
# played in a rehearsal: in the postal game they are orders of their own (``purge``,
# ``execute_czar``...) carried out after the movement, and ``Quit`` is the postal game's.
REHEARSED = {t: h for t, h in HANDLERS.items() if t not in politics.HANDLERS and t not in (A.Quit, A.VoteEndGame)}


class Rehearsal(Game):
    """A seat's phase played out on a copy of the postal game (see the module docstring)."""

    HANDLERS = REHEARSED

    def start(self, seat: str, phase: str, seed: int) -> None:
        s = self.state
        self.seat, self.postal_phase = seat, phase
        self.reseed(seed)
        s.order, s.current = [seat], 0
        s.phase = LIVE_PHASE[phase]
        s.moved, s.imperial_moved, s.fought, s.defended = [], [], [], []
        s.force = s.attack = s.decision = None
        s.offers = {}
        self.orders: list[dict] = []
        self._move: dict | None = None
        self._attack: dict | None = None

    @property
    def done(self) -> bool:
        """The seat has ended the phase it plays (or can play no more)."""
        s = self.state
        if s.phase == "over" or self.seat in s.quit:
            return True
        return s.phase != LIVE_PHASE[self.postal_phase] and s.decision is None

    def sheet(self) -> dict:
        """The orders written so far, as a sheet (``SubmitOrders``)."""
        return {"orders": [dict(o) for o in self.orders]}

    def apply(self, action: Action | dict) -> list[Event]:
        if isinstance(action, dict):
            action = A.action_from_wire(action)
        note = self._before(action)
        ev = super().apply(action)
        self._write(action, note)
        ctx = self.ctx
        while ctx.s.decision is not None and ctx.s.decision["seat"] != self.seat and ctx.s.decision["kind"] not in STOP:
            ev += answer_one(ctx)
        return ev

    # -- writing the orders ---------------------------------------------------------------------------------
    def _unit(self, stack: int) -> int:
        st = self.state.stacks[stack]
        fighting = self.ctx.b.fighting_units(st)
        return (fighting or st.units)[0]

    def _before(self, a: Action):
        """What an action's order needs of the position before it is applied."""
        if isinstance(a, A.Merge) and a.stack in self.state.stacks and a.into in self.state.stacks:
            return self._unit(a.stack), self._unit(a.into)
        if isinstance(a, A.TransferImperial) and a.to_stack in self.state.stacks:
            return a.leader or self._unit(a.to_stack)
        if isinstance(a, A.DeclareAttack) and a.target in self.state.stacks:
            return self._unit(a.target)
        if isinstance(a, A.AddAttacker) and a.stack in self.state.stacks:
            units = combat.attack_units(self.ctx, self.state.stacks[a.stack])
            return units[0] if units else self._unit(a.stack)
        return None

    def _write(self, a: Action, note) -> None:
        m = self._move
        if isinstance(a, A.StartForce):
            here = self.ctx.b.stack_of(a.unit).province
            self._move = {"order": "move", "unit": a.unit, "path": [], "rail": False, "join": [], "pick": {}, "drop": {},
                          "_at": here}
        elif m is not None and isinstance(a, A.JoinForce):
            m["join"].append(a.leader)
        elif m is not None and isinstance(a, A.Attach):
            several = self.state.force is not None and len(self.ctx.b.leaders_of(self.state.stacks[self.state.force.stack])) > 1
            m["pick"].setdefault(m["_at"], []).append([a.unit, a.leader] if several and a.leader else a.unit)
        elif m is not None and isinstance(a, A.Detach):
            m["drop"].setdefault(m["_at"], []).append(a.unit)
        elif m is not None and isinstance(a, A.Move):
            m["path"].append(a.to)
            m["rail"] = a.rail
            m["_at"] = a.to
        elif isinstance(a, A.Merge):
            self._end_move()
            self.orders.append({"order": "merge", "unit": note[0], "into": note[1]})
        elif isinstance(a, A.TransferImperial):
            self._end_move()
            self.orders.append({"order": "transfer", "unit": a.unit, "to": note})
        elif isinstance(a, (A.Emigrate, A.CzechExit)):
            if m is None:
                self.orders.append({"order": "emigrate" if isinstance(a, A.Emigrate) else "czech_exit", "unit": a.unit})
        elif isinstance(a, A.OfferTrade):
            self.orders.append({"order": "trade", "with": a.to, "give_leaders": [], "take_leaders": [],
                                "give_politburo": a.give_politburo, "give_assassins": a.give_assassins,
                                "take_politburo": a.take_politburo, "take_assassins": a.take_assassins})
        elif isinstance(a, A.Assassinate) and self.postal_phase == "first":
            self.orders.append({"order": "assassinate", "victims": [a.victim], "markers": a.markers})
        elif isinstance(a, A.DeclareAttack):
            self._attack = {"order": "attack", "target": note, "attackers": [], "subversive": a.subversive}
        elif self._attack is not None and isinstance(a, A.AddAttacker):
            self._attack["attackers"].append(note)
        elif self._attack is not None and isinstance(a, A.RemoveAttacker):
            self._attack = None                   # (re-assembled from scratch: rare)
        elif self._attack is not None and isinstance(a, A.ResolveAttack):
            self.orders.append(self._attack)
            self._attack = None
        elif isinstance(a, A.CancelAttack):
            self._attack = None
        if isinstance(a, (A.EndForce, A.EndMovement)) or (m is not None and self.state.force is None):
            self._end_move()

    def _end_move(self) -> None:
        m, self._move = self._move, None
        if m is not None:
            del m["_at"]
            self.orders.append(m)


def rehearsal(game: Game, seat: str, seed: int) -> Rehearsal:
    """A rehearsal of ``seat``'s part in the phase of ``game`` whose orders are collected."""
    s = game.state
    keep, s.postal = s.postal, {}
    try:
        state = s.clone()
    finally:
        s.postal = keep
    r = Rehearsal(state, game.data)
    r.start(seat, book(game.ctx)["phase"], seed)
    return r
