"""A random-legal agent: picks uniformly among the legal actions of its seat.

It never quits and uses the 'undo' steps (calling off an attack, withdrawing an attacker)
only when nothing else is legal, so its games always move forward.  Seeded and deterministic.
"""

from __future__ import annotations

import random

from rcw.actions import Action

UNDO = ("CancelAttack", "RemoveAttacker")
NEVER = ("Quit",)


class RandomAgent:
    name = "random"

    def __init__(self, seat: str, seed: int = 0) -> None:
        self.seat = seat
        self.rng = random.Random(f"{seed}:{seat}")

    def choose(self, view: dict, legal: list[Action]) -> Action:
        options = [a for a in legal if a.TYPE not in UNDO and a.TYPE not in NEVER]
        if not options:
            options = [a for a in legal if a.TYPE not in NEVER] or legal
        return options[self.rng.randrange(len(options))]
