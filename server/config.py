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
    snapshot_every: int = 100     # store a snapshot of each game every this many actions
    # Admission control (docs/protocol.md, "Limits"); a rate of 0 means no limit.
    create_rate: float = 0.1      # games created (and bot fills) per second per client address, sustained
    create_burst: float = 10.0    # ... and in a burst
    costly_rate: float = 2.0      # costly requests (events, view at seq, record) per second per address
    costly_burst: float = 20.0    # ... and per token; burst
    max_games: int = 200          # live games loaded in one process; creating more answers busy
    max_bot_games: int = 20       # games with bot seats whose bots run in one process; more answers busy
    max_pending: int = 256        # requests read from one WebSocket, waiting to be handled; more: busy
    max_conns_per_addr: int = 256  # WebSockets open at once from one client address (0: no cap); more: 429
    hello_timeout: float = 30.0   # seconds a WebSocket may stay open without a hello (then closed, 1008)
    costly_workers: int = 2       # rebuilds (a past view, an old log) running at once, in worker processes
    bot_workers: int = 0          # processes where the bots decide (server/botworker.py); 0: in the event loop
    bot_wait: float = 20.0        # seconds a bot waits for the humans it invited to a Central Committee (0: none)
    # Notifications (server/notify.py).
    smtp: str | None = None       # smtp://[user:password@]host[:port] (smtps://, smtp+starttls://); None: no e-mail
    mail_from: str = "rcw@localhost"
    mail_retry: tuple[float, ...] = (30.0, 120.0, 600.0, 1800.0)   # seconds before each new try of a failed e-mail
    public_url: str = ""          # the server's address in links (default: where it listens)
    allow_private_webhooks: bool = False   # let webhooks post to loopback and private addresses


def default_bot_kind() -> str:
    """The agent that takes bot seats unless the game's creator names another."""
    from rcw.bots import AGENTS

    return "sdt" if "sdt" in AGENTS else "random"
