"""How the game's texts put things into words, shared by the engine's events and the players'
screens (no rule of the game here)."""

from __future__ import annotations


def listed(items) -> str:
    """Items as a sentence lists them: "A", "A and B", "A, B and C"."""
    items = list(items)
    return " and ".join(filter(None, [", ".join(items[:-1]), *items[-1:]]))
