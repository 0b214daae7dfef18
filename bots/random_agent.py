"""A random-legal agent: picks uniformly among the legal actions of its seat.

It never quits and uses the 'undo' steps (calling off an attack, withdrawing an attacker)
only when nothing else is legal, so its games always move forward.  Political moves that
can be repeated without end (trade offers and withdrawals, joining and leaving a Central
Committee, ordering the Czar's execution: 004 [10.0], [11.12], [13.52]) are free actions
in the rules; the agent allows itself at most ``FREE_BUDGET`` of them per phase, so a game
between random agents cannot turn into an endless round of offers.  Out of turn it answers
the first trade offer made to it, at random.  Its decisions are random too: e.g. after drawing
a marker that entitles it to draw again (004 [12.13]) it keeps it or draws again at random
(both ``RedrawChit`` answers are listed); with 001's optional forces it places a unit drawn at
one of the places listed (``PlaceUnit``) and takes a bonus draw or ends its Player-Turn at
random.  Seeded and deterministic.
"""

from __future__ import annotations

import random

from rcw.actions import AcceptTrade, Action, DeclineTrade
from rcw.player import Player

UNDO = ("CancelAttack", "RemoveAttacker")
NEVER = ("Quit",)
FREE = ("OfferTrade", "WithdrawTrade", "JoinCommittee", "LeaveCommittee", "OrderExecution")
FREE_BUDGET = 3


class RandomAgent:
    name = "random"

    def __init__(self, seat: str, seed: int = 0) -> None:
        self.seat = seat
        self.rng = random.Random(f"{seed}:{seat}")
        self._phase: tuple = ()
        self._free_used = 0

    def choose(self, player: Player) -> Action:
        return self.pick(player.view, list(player.legal))

    def react(self, player: Player) -> Action | None:
        """Answer the first trade offer made to this seat (accept or decline at random)."""
        offers = [o["id"] for o in player.view["offers"] if o["to"] == self.seat]
        if not offers:
            return None
        answers = [a for a in (AcceptTrade(self.seat, offers[0]), DeclineTrade(self.seat, offers[0])) if player.is_legal(a)]
        return self.pick(player.view, answers) if answers else None

    def pick(self, view: dict, legal: list[Action]) -> Action:
        """One of ``legal``, at random within the first tier that has any (see the module)."""
        phase = (view.get("turn"), view.get("phase"), view.get("phasing"))
        if phase != self._phase:
            self._phase, self._free_used = phase, 0
        tiers = (
            lambda a: a.TYPE not in UNDO and a.TYPE not in NEVER
            and (a.TYPE not in FREE or self._free_used < FREE_BUDGET),
            # past the budget an undo step (calling off an attack that cannot be resolved)
            # comes before more free steps, or joining and leaving a Committee never ends
            lambda a: a.TYPE not in NEVER and a.TYPE not in FREE,
            lambda a: a.TYPE not in NEVER,
        )
        options = legal
        for keep in tiers:
            options = [a for a in legal if keep(a)]
            if options:
                break
        else:
            options = legal
        action = options[self.rng.randrange(len(options))]
        if action.TYPE in FREE:
            self._free_used += 1
        return action
