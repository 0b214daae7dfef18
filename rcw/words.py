"""How the game's texts put things into words, shared by the engine's events and the players'
screens (no rule of the game here)."""

from __future__ import annotations


def listed(items) -> str:
    """Items as a sentence lists them: "A", "A and B", "A, B and C"."""
    items = list(items)
    return " and ".join(filter(None, [", ".join(items[:-1]), *items[-1:]]))


def committee_of(members) -> str:
    """The members of a Central Committee as the texts name them: "A, B, C", or "A alone" for a
    player who holds the markers himself (004 [11.11]: "any individual or group of Players";
    the browser's ``committeeOf`` words it the same way)."""
    ms = list(members)
    return f"{ms[0]} alone" if len(ms) == 1 else ", ".join(ms)
