"""``rcw archive``: finished games out of Redis, into files anyone can verify.

A game's record (its seed, players, options and action log) is the whole game: the engine
replays it to the last dice roll.  So a finished game need not stay in Redis for ever: this
command writes each game that ended at least --older-than days ago to DIR/<id>.json and
then deletes everything the store keeps of it.

The file is the record /api/games/{id}/record serves, with the seed's nonce and commitment
(rcw verify DIR/<id>.json checks it), plus "archived": the game's name, its seats' players
(names only, no tokens or addresses), when it was created, when it ended and when it was
archived.  Chat and pacts are not kept.

Safety: a game is deleted only once its file is written to disk and read back, and its record
verifies (as rcw verify checks it) and replays the whole log to the game's end; a game that
fails a step is named, the command exits 1, and the game stays in the store (a deletion cut
short is finished by the next run).  Games still being played are never touched, nor games
created before seed commitments (their records cannot be verified).  --dry-run writes and
deletes nothing.  It may run beside live servers: a server that still has the game open (a
page left on it) is told, unloads it and closes its connections (the page then says there is no
such game); the store refuses any write to the game from then on.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import os
import time
from collections.abc import Callable
from pathlib import Path

from rcw.server.protocol import ProtocolError, pack
from rcw.server.replay import rebuild, record_of
from rcw.server.store import RedisStore, Store

from rcw import verify
from rcw.cliargs import run_command, whole

DAY = 86_400.0


def _iso(seconds: float) -> str:
    return dt.datetime.fromtimestamp(seconds, dt.UTC).isoformat(timespec="seconds")


async def archive(store: Store, to: Path, older_than: float, dry_run: bool = False,
                  say: Callable[[dict], None] = lambda r: None, now: float | None = None) -> list[dict]:
    """Archive the finished games of ``store`` that ended ``older_than`` seconds ago or more into
    ``to`` (see the module).  One report a game, also given to ``say`` as it is made:
    ``{"game", "outcome": "archived" | "would archive" | "kept" | "failed", "why"?, "file"?,
    "ended"?, "keys"?, "notice"? (the servers could not be told)}``."""
    now = time.time() if now is None else now
    live = set(await store.game_ids(live_only=True))
    out = []
    for gid in await store.game_ids(live_only=False):
        if gid in live:
            continue
        try:
            r = await _one(store, gid, to, older_than, dry_run, now)
        except Exception as e:       # (one game's trouble never stops the others)
            why = e.message if isinstance(e, ProtocolError) else str(e) if isinstance(e, verify.VerifyError) else repr(e)
            r = {"game": gid, "outcome": "failed", "why": why}
        out.append(r)
        say(r)
    return out


async def _one(store: Store, gid: str, to: Path, older_than: float, dry_run: bool, now: float) -> dict:
    meta = await store.load_meta(gid)
    if meta is None:                 # (a deletion stopped half-way: finish it; the file was verified before it began)
        if dry_run:
            return {"game": gid, "outcome": "would archive", "why": "its deletion was begun"}
        return {"game": gid, "outcome": "archived", "why": "its deletion was begun", "keys": await store.forget_game(gid)}
    if "nonce" not in meta:
        return {"game": gid, "outcome": "kept", "why": "created before seed commitments: its record cannot be verified"}
    n = await store.log_len(gid)
    last = await store.log_range(gid, n - 1, n) if n else []
    ended = (last[0].get("ts", meta["created"]) if last else meta["created"]) / 1000
    if now - ended < older_than:
        return {"game": gid, "outcome": "kept", "why": f"ended {(now - ended) / DAY:.1f} days ago",
                "ended": _iso(ended)}
    snap = await store.snapshot_before(gid, n)
    entries = await store.log_range(gid, snap[0] if snap else 0, n)
    g, _ = await asyncio.to_thread(rebuild, meta, snap, entries, gid)
    if not g.over:
        return {"game": gid, "outcome": "kept", "why": "not over (its process may have stopped as it ended)"}
    doc = record_of(gid, meta, g)
    seats = await store.load_seats(gid)
    doc["archived"] = {"name": meta.get("name", ""), "created": _iso(meta["created"] / 1000), "ended": _iso(ended),
                       "at": _iso(now), "players": {s: r["name"] for s, r in seats.items() if r.get("name")}}
    file = to / f"{gid}.json"
    report = {"game": gid, "ended": _iso(ended), "file": str(file)}
    if dry_run:
        return {**report, "outcome": "would archive"}
    _write(file, doc)
    kept = json.loads(file.read_text())
    try:
        v = await asyncio.to_thread(verify.check, kept)
    except verify.VerifyError as e:
        raise verify.VerifyError(f"{file} does not verify ({e}); the game stays in the store") from None
    if not v.over or v.actions != n:   # (the record from the last snapshot must be the whole log, to its end)
        raise verify.VerifyError(f"{file} replays {v.actions} actions of the log's {n}"
                                 f"{'' if v.over else ' to a game not over'}; the game stays in the store")
    try:
        keys = await store.forget_game(gid)
    except Exception as e:
        raise RuntimeError(f"{file} is written and verified, but the game's deletion failed ({e!r}); "
                           "run rcw archive again to finish it") from e
    try:
        await tell_gone(store, gid, meta)
    except Exception as e:
        report["notice"] = f"not sent ({e!r}): a server with the game open unloads it at its next write"
    return {**report, "outcome": "archived", "keys": keys}


async def tell_gone(store: Store, gid: str, meta: dict) -> None:
    """Tell the processes that have the deleted game open (a page left on it): each unloads it
    and closes its connections (Hub.archived).  One that misses the notice unloads it at its
    next write, which the store refuses."""
    await store.publish(store.topic(meta["secret"], gid), pack({"k": "gone"}))


def _write(file: Path, doc: dict) -> None:
    """``doc`` into ``file`` whole or not at all (a temporary file, flushed to disk, renamed, and
    the rename flushed to disk too: the game is deleted next)."""
    tmp = file.with_name(file.name + ".tmp")
    try:
        with open(tmp, "w") as f:
            json.dump(doc, f, separators=(",", ":"))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, file)
    finally:
        tmp.unlink(missing_ok=True)
    d = os.open(file.parent, os.O_RDONLY)
    try:
        os.fsync(d)
    finally:
        os.close(d)


DESCRIPTION = __doc__.split("\n\n", 1)[1]


def add_parser(sub) -> None:
    p = sub.add_parser("archive", help="move finished games out of Redis into record files (rcw verify checks them)",
                       description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--redis", metavar="URL", required=True,
                   help="the servers' Redis or Redis Cluster (as rcw serve --redis)")
    p.add_argument("--prefix", default="rcw:", help="the servers' key prefix (default 'rcw:')")
    p.add_argument("--to", metavar="DIR", type=Path, required=True, help="folder for the record files (made if missing)")
    p.add_argument("--older-than", metavar="DAYS", type=whole(0, 100_000), default=30,
                   help="archive the games that ended at least this many days ago (default 30; 0: every finished game)")
    p.add_argument("--dry-run", action="store_true", help="say what would be archived; write and delete nothing")
    p.add_argument("--json", action="store_true", help="print one JSON object per game, then a summary object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    def say(r: dict) -> None:
        if args.json:
            print(json.dumps(r), flush=True)
        else:
            what = r.get("file") if r["outcome"] in ("archived", "would archive") else r.get("why", "")
            print(f"{r['game']}: {r['outcome']}" + (f" ({what})" if what else ""), flush=True)

    reports, ok = run_command("archive", args.redis, _run(args, say))
    if not ok:
        return 1
    counts = {k: sum(r["outcome"] == k for r in reports) for k in ("archived", "would archive", "kept", "failed")}
    if args.json:
        print(json.dumps({"summary": counts}))
    else:
        print(", ".join(f"{v} {k}" for k, v in counts.items() if v or k in ("archived", "failed")))
    return 1 if counts["failed"] else 0


async def _run(args: argparse.Namespace, say: Callable[[dict], None]) -> list[dict]:
    if not args.dry_run:
        args.to.mkdir(parents=True, exist_ok=True)
    store = RedisStore(args.redis, args.prefix)
    await store.start()
    try:
        return await archive(store, args.to, args.older_than * DAY, args.dry_run, say)
    finally:
        await store.close()
