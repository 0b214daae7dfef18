"""The game's random number generator: SplitMix64, whose whole state is one integer.

A game is its seed plus its action log (architecture); keeping the RNG state a single
int makes the state small to serialise and exact to replay.
"""

from __future__ import annotations

MASK = (1 << 64) - 1
SEED_MAX = (1 << 63) - 1      # the largest seed a game is given: a whole number 0 .. 2**63 - 1 (the lobby's, the commands')


def _mix(z: int) -> int:
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 & MASK
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB & MASK
    return z ^ (z >> 31)


class Rng:
    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & MASK

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        return _mix(self.state)

    def below(self, n: int) -> int:
        """Uniform integer in ``range(n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            r = self.next64()
            if r < limit:
                return r % n

    def die(self) -> int:
        return self.below(6) + 1

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: list):
        return items[self.below(len(items))]


class Dice:
    """A source of die rolls that replaces the game's RNG for die rolls (``Game.new(..., dice=)``)."""

    def roll(self) -> int:
        raise NotImplementedError


class LoadedDice(Dice):
    """Rolls the given values in order (each 1-6); when they run out it raises
    :class:`IndexError`, so a test learns that the rules rolled more dice than it expected."""

    def __init__(self, rolls) -> None:
        self.rolls = [int(r) for r in rolls]
        if any(not 1 <= r <= 6 for r in self.rolls):
            raise ValueError("a die shows 1 to 6")
        self.used = 0

    def roll(self) -> int:
        if self.used >= len(self.rolls):
            raise IndexError(f"the rules rolled a die more than the {len(self.rolls)} loaded")
        self.used += 1
        return self.rolls[self.used - 1]

    @property
    def left(self) -> list[int]:
        return self.rolls[self.used:]
