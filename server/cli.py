"""``rcw serve``: run the game server (lobby, WebSocket play, negotiation channels); ``rcw play``
(server/play.py) is its terminal client."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys

DESCRIPTION = """\
Run the Russian Civil War game server: an HTTP JSON lobby (/api/games), one WebSocket per
client for play and chat (/ws, msgpack frames; see docs/protocol.md), /healthz, and the
browser client from server/static/ at /.

Without --redis an embedded in-process broker and store serve this one process (nothing to
install; games are lost when it stops).  With --redis, Redis holds the games, their action
logs and the chat history: several processes given the same --redis and --prefix serve the
same games, and a restarted process resumes every game."""


def add_parser(sub) -> None:
    """``serve`` (the server) and ``play`` (a terminal client for it)."""
    from rcw.server import play

    _add_serve(sub)
    play.add_parser(sub)


def _add_serve(sub) -> None:
    p = sub.add_parser("serve", help="run the game server (lobby, WebSocket play, chat)", description=DESCRIPTION,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    _add_arguments(p)
    p.set_defaults(func=run)


def _add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; 0.0.0.0 for all)")
    p.add_argument("--port", type=int, default=8080, help="TCP port (default 8080; 0 picks a free port)")
    p.add_argument("--redis", metavar="URL", default=None,
                   help="Redis URL, e.g. redis://127.0.0.1:6379/0 (default: none, the embedded in-process store)")
    p.add_argument("--prefix", default="rcw:", help="Redis key and channel prefix (default 'rcw:'); processes "
                                                    "that share games must use the same prefix")
    p.add_argument("--chat-rate", type=float, default=2.0, metavar="N",
                   help="chat messages per second per seat, sustained (default 2); with --redis every process "
                        "draws from the same per-seat budget")
    p.add_argument("--chat-burst", type=float, default=20.0, metavar="N", help="chat burst size per seat (default 20)")
    p.add_argument("--frame-rate", type=float, default=1000.0, metavar="N",
                   help="WebSocket frames per second per connection, sustained (default 1000; burst twice that)")
    p.add_argument("--lease-ttl", type=float, default=5.0, metavar="SECONDS",
                   help="driver lease of a game (which process runs its bots and deadlines); another process "
                        "takes over this long after the driver dies (default 5)")
    p.add_argument("--bot-delay", type=float, default=0.0, metavar="SECONDS",
                   help="pause between two bot actions, so people can follow them (default 0)")
    p.add_argument("--log-level", default="INFO", choices=["DEBUG", "INFO", "WARNING", "ERROR"],
                   help="logging level (default INFO)")


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=getattr(logging, args.log_level), stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("aiohttp.access").setLevel(logging.WARNING)
    try:
        asyncio.run(serve(args))
    except KeyboardInterrupt:
        pass
    except (OSError, ConnectionError) as e:
        print(f"rcw serve: {e}", file=sys.stderr)
        return 1
    except Exception as e:
        if type(e).__module__.startswith("redis"):
            print(f"rcw serve: cannot use Redis at {args.redis}: {e}", file=sys.stderr)
            return 1
        raise
    return 0


async def serve(args: argparse.Namespace) -> None:
    from aiohttp import web
    from rcw.server.app import make_app
    from rcw.server.config import Config
    from rcw.server.store import make_store

    config = Config(chat_rate=args.chat_rate, chat_burst=args.chat_burst, frame_rate=args.frame_rate,
                    frame_burst=2 * args.frame_rate, lease_ttl=args.lease_ttl, bot_delay=args.bot_delay)
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
    broker = f"redis {args.redis} prefix {args.prefix!r}" if args.redis else "embedded in-process store"
    print(f"rcw serve: listening on http://{args.host}:{port}/ ({broker}); Ctrl-C stops", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        await runner.cleanup()


def main(argv: list[str] | None = None) -> int:
    """``python -m server serve ...`` (the same as ``rcw serve ...``)."""
    p = argparse.ArgumentParser(prog="python -m server", description="The Russian Civil War game server and its "
                                                                      "terminal client.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    add_parser(sub)
    args = p.parse_args(argv)
    if getattr(args, "func", None) is None:
        p.print_help()
        return 2
    return int(args.func(args) or 0)
