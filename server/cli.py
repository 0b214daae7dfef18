"""``rcw serve``: run the game server (lobby, WebSocket play, negotiation channels); ``rcw play``
(server/play.py) is its terminal client."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import logging
import signal

from rcw.cliargs import amount, amounts, run_command, whole

DESCRIPTION = """\
Run the Russian Civil War game server: an HTTP JSON lobby (/api/games), one WebSocket per
client for play and chat (/ws, msgpack frames; see docs/protocol.md), /healthz, and the
browser client from server/static/ at /.

Without --redis an embedded in-process broker and store serve this one process (nothing to
install; games are lost when it stops).  With --redis, Redis holds the games, their action
logs and the chat history: several processes given the same --redis and --prefix serve the
same games, and a restarted process resumes every game.

--redis takes a single Redis or a Redis Cluster (7.0 or later).  redis+cluster://HOST:PORT (or
rediss+cluster:// for TLS) names a cluster by any of its nodes; a plain redis://HOST:PORT is asked
(INFO cluster) and used as a cluster if it is a cluster node.  On a cluster every game's keys
share one hash slot and live notices travel on sharded pub/sub (SPUBLISH/SSUBSCRIBE).

The bots decide in --bot-workers worker processes (default: one per core but one, at least
one), never in the event loop that serves the sockets: each game this process drives always
goes to the same worker, which keeps its own copy of the game and its bots.  A worker that
dies is replaced and its games go on.  --bot-workers 0 runs the bots in the event loop (tests,
tiny setups).  With several processes on one Redis, each runs its own workers for the games
it drives.

GET /metrics serves the server's metrics in the Prometheus text format (connections, frames,
errors by code, action and chat latency, bot decision time, Redis round trips, live games)."""



def add_parser(sub) -> None:
    """``serve`` (the server), ``play`` (a terminal client for it) and ``archive`` (finished games
    out of Redis)."""
    from rcw.server import archive, play

    _add_serve(sub)
    play.add_parser(sub)
    archive.add_parser(sub)


def _add_serve(sub) -> None:
    p = sub.add_parser("serve", help="run the game server (lobby, WebSocket play, chat)", description=DESCRIPTION,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    _add_arguments(p)
    p.set_defaults(func=run)


def _add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; 0.0.0.0 for all)")
    p.add_argument("--port", type=whole(0, 65535), default=8080, help="TCP port (default 8080; 0 picks a free port)")
    p.add_argument("--redis", metavar="URL", default=None,
                   help="Redis URL, e.g. redis://127.0.0.1:6379/0, or a Redis Cluster: redis+cluster://HOST:PORT "
                        "(any node; a plain redis:// URL of a cluster node is detected too) (default: none, the "
                        "embedded in-process store)")
    p.add_argument("--prefix", default="rcw:", help="Redis key and channel prefix (default 'rcw:'); processes "
                                                    "that share games must use the same prefix")
    p.add_argument("--chat-rate", type=amount(0, above=True), default=2.0, metavar="N",
                   help="chat messages per second per seat, sustained (default 2); with --redis every process "
                        "draws from the same per-seat budget")
    p.add_argument("--chat-burst", type=amount(1), default=20.0, metavar="N", help="chat burst size per seat (default 20)")
    p.add_argument("--frame-rate", type=amount(0.5), default=1000.0, metavar="N",
                   help="WebSocket frames per second per connection, sustained, at least 0.5 (default 1000; burst twice that)")
    p.add_argument("--lease-ttl", type=amount(0, above=True), default=5.0, metavar="SECONDS",
                   help="driver lease of a game (which process runs its bots and deadlines); another process "
                        "takes over this long after the driver dies (default 5)")
    p.add_argument("--bot-wait", type=amount(0), default=20.0, metavar="SECONDS",
                   help="how long a bot waits for the humans it invited to a Central Committee to answer "
                        "(default 20; 0: it goes on at once)")
    p.add_argument("--bot-delay", type=amount(0), default=0.0, metavar="SECONDS",
                   help="pause between two bot actions, so people can follow them (default 0)")
    p.add_argument("--create-rate", type=amount(0), default=0.1, metavar="N",
                   help="games created (and bot fills) per second per client address and per admin token, "
                        "sustained; 0: no limit (default 0.1; one every 10 s)")
    p.add_argument("--create-burst", type=amount(1), default=10.0, metavar="N",
                   help="games created in a burst (default 10)")
    p.add_argument("--costly-rate", type=amount(0), default=2.0, metavar="N",
                   help="costly requests (events, GET .../view?seq=N, GET .../record) per second per client address "
                        "and per token, sustained; 0: no limit (default 2)")
    p.add_argument("--costly-burst", type=amount(1), default=20.0, metavar="N",
                   help="costly requests in a burst (default 20)")
    p.add_argument("--max-games", type=whole(0), default=200, metavar="N",
                   help="live games loaded in this process; creating one more answers busy; 0: no cap (default 200)")
    p.add_argument("--max-bot-games", type=whole(0), default=20, metavar="N",
                   help="games with bot seats whose bots run in this process; creating (or filling with bots) one "
                        "more answers busy, and other processes take over the rest; 0: no cap (default 20)")
    p.add_argument("--max-conns-per-addr", type=whole(0), default=256, metavar="N",
                   help="WebSockets open at once from one client address; one more is refused (HTTP 429); behind a "
                        "reverse proxy every client has the proxy's address; 0: no cap (default 256)")
    p.add_argument("--bot-workers", type=whole(0), default=None, metavar="N",
                   help="worker processes where the bots decide, off the event loop; each game always goes to "
                        "the same one; 0: the bots decide in the event loop (default: one per core but one, "
                        f"at least one; here {_default_workers()})")
    p.add_argument("--snapshot-every", type=whole(1), default=100, metavar="N",
                   help="store a snapshot of each game every N actions: a replica or a past view is rebuilt from "
                        "the nearest one (default 100)")
    p.add_argument("--smtp", metavar="URL", default=None,
                   help="send e-mail notifications through this SMTP server: smtp://[user:password@]host[:port] "
                        "(smtps:// for TLS, smtp+starttls:// to upgrade); default: no e-mail")
    p.add_argument("--mail-from", default="rcw@localhost", metavar="ADDRESS",
                   help="the From address of the e-mails (default rcw@localhost)")
    p.add_argument("--mail-retry", type=amounts, default=(30.0, 120.0, 600.0, 1800.0), metavar="SECONDS,...",
                   help="an e-mail the SMTP server fails (down, refusing for now) is tried again after each of these "
                        "delays, then given up (default 30,120,600,1800; 0 tries: an empty string); the e-mails wait "
                        "in the store until sent, so a process killed meanwhile leaves them to the next")
    p.add_argument("--public-url", default="", metavar="URL",
                   help="the server's address in the links of e-mails and webhooks; without it, where it listens")
    p.add_argument("--allow-private-webhooks", action="store_true",
                   help="let games' webhooks post to loopback and private addresses (refused by default, so that "
                        "the server cannot be turned against its own network)")
    p.add_argument("--log-level", default="INFO", choices=["DEBUG", "INFO", "WARNING", "ERROR"],
                   help="logging level (default INFO)")
    p.add_argument("--log-format", default="text", choices=["text", "json"],
                   help="log lines on stderr: text (default) or json (one JSON object per line: ts, level, logger, "
                        "msg, pid, exc...)")


def _default_workers() -> int:
    from rcw.server.botworker import default_workers

    return default_workers()


def run(args: argparse.Namespace) -> int:
    from rcw.server import logs

    logs.configure(args.log_level, getattr(args, "log_format", "text"))
    try:
        ok = run_command("serve", args.redis, serve(args))[1]
    except KeyboardInterrupt:
        return 0
    return 0 if ok else 1


async def serve(args: argparse.Namespace) -> None:
    from aiohttp import web
    from rcw.server.app import make_app
    from rcw.server.config import Config
    from rcw.server.store import make_store

    config = Config(chat_rate=args.chat_rate, chat_burst=args.chat_burst, frame_rate=args.frame_rate,
                    frame_burst=2 * args.frame_rate, lease_ttl=args.lease_ttl, bot_delay=args.bot_delay, bot_wait=args.bot_wait,
                    create_rate=args.create_rate, create_burst=args.create_burst, costly_rate=args.costly_rate,
                    costly_burst=args.costly_burst, max_games=args.max_games, max_bot_games=args.max_bot_games,
                    max_conns_per_addr=args.max_conns_per_addr,
                    snapshot_every=max(1, args.snapshot_every),
                    bot_workers=max(0, _default_workers() if args.bot_workers is None else args.bot_workers),
                    smtp=args.smtp, mail_from=args.mail_from, mail_retry=args.mail_retry, public_url=args.public_url,
                    allow_private_webhooks=args.allow_private_webhooks)
    store = make_store(args.redis, args.prefix)
    app = make_app(store, config)
    runner = web.AppRunner(app, handle_signals=False, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, args.host, args.port)
    await site.start()
    port = args.port
    server = getattr(site, "_server", None)
    if server is not None and server.sockets:
        port = server.sockets[0].getsockname()[1]
    from rcw.server.app import HUB

    if not app[HUB].notifier.base:
        app[HUB].notifier.base = f"http://{args.host}:{port}"
    # The garbage collector's full passes stop the event loop for tens of milliseconds at 1000
    # connections (every few seconds at the default thresholds: the tail of the chat and ping
    # latencies).  What was built to start (modules, the game data, the app) stays for the
    # process's life: they skip it from now on (gc.freeze); and they come after 100 passes over
    # the middle generation rather than 10 (about every half minute under bench/server.py's
    # load; the few cycles that reach the old generation wait that long to be freed).
    gc.collect()
    gc.freeze()
    gen0, gen1, _ = gc.get_threshold()
    gc.set_threshold(gen0, gen1, 100)
    broker = "embedded in-process store"
    if args.redis:
        broker = f"redis{' cluster' if getattr(store, 'cluster', False) else ''} {args.redis} prefix {args.prefix!r}"
    print(f"rcw serve: listening on http://{args.host}:{port}/ ({broker}); Ctrl-C stops", flush=True)
    log = logging.getLogger("rcw.server")
    log.info("listening on http://%s:%s/ (%s)", args.host, port, broker,
             extra={"host": args.host, "port": port, "store": store.kind, "mode": store.mode})
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        await runner.cleanup()
        log.info("stopped")


def main(argv: list[str] | None = None) -> int:
    """``python -m rcw.server serve ...`` (the same as ``rcw serve ...``)."""
    p = argparse.ArgumentParser(prog="python -m rcw.server", description="The Russian Civil War game server and its "
                                                                      "terminal client.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    add_parser(sub)
    args = p.parse_args(argv)
    if getattr(args, "func", None) is None:
        p.print_help()
        return 2
    return int(args.func(args) or 0)
