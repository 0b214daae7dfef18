"""Computer players.  Every agent sees only ``game.view(seat)`` and
``game.legal_actions(seat)`` and returns an action, exactly like a remote player."""

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
