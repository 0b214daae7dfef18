"""Computer players.  Every agent plays through :class:`rcw.player.Player` (its seat's view,
legal actions and the engine's rule queries), exactly what a remote player gets, and is driven
by the one match loop, :class:`rcw.bots.match.Match`."""

from __future__ import annotations

from rcw.bots.random_agent import RandomAgent
from rcw.bots.sdt import SDTAgent

AGENTS = {"random": RandomAgent, "sdt": SDTAgent}


def make_agent(kind: str, seat: str, seed: int = 0):
    """Build a seeded agent of a registered kind for ``seat``."""
    try:
        cls = AGENTS[kind]
    except KeyError:
        raise ValueError(f"unknown agent kind {kind!r} (known: {', '.join(sorted(AGENTS))})") from None
    return cls(seat, seed)
