"""The server's knobs (``rcw serve`` flags) in one place."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Config:
    """Server knobs (``rcw serve`` flags)."""

    chat_rate: float = 2.0        # chat messages per second per seat, sustained
    chat_burst: float = 20.0      # ... and in a burst
    frame_rate: float = 1000.0    # frames per second per connection, sustained
    frame_burst: float = 2000.0
    lease_ttl: float = 5.0        # seconds a driver lease lasts without renewal
    bot_delay: float = 0.0        # seconds between two bot actions (0: as fast as possible)
    max_queue: int = 5000         # outbound frames queued for a connection before it is dropped
    idle_unload: float = 60.0     # unload a game nobody watches after this many seconds
    max_bot_streak: int = 50_000  # runaway guard: bot actions in a row before the bots stop


def default_bot_kind() -> str:
    """The agent that takes bot seats unless the game's creator names another."""
    from rcw.bots import AGENTS

    return "sdt" if "sdt" in AGENTS else "random"
