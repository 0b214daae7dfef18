"""Soak of the bots that negotiate (issue 18): server-driven five-player games, seat A played
by a client that sends random proposals to the SDT bots in B-E.

    python bench/talk_soak.py                      # 100 games (the issue's soak), Game-Turns capped at 3
    python bench/talk_soak.py --games 10 --json    # a reduced run

Each game runs on a real server in this process (the embedded store, the bots in the event
loop), created through the lobby with one human seat. The client plays A's own steps (the
first ``End...`` step it may take, else its first legal action) and, whenever it may, sends
one random proposal in its pair channel with a bot: a trade (markers either way), a Central
Committee, a pact, an execution order or a purge (the engine refuses most of the last two:
a refusal is counted, not an error). Every proposal posted must get its reply within
``--answer`` seconds. It fails (exit 1) on an unanswered proposal, a game that does not
finish, or an error logged by the server; it prints acceptance rates by kind.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from rcw.server.client import GameClient, Lobby, ServerError  # noqa: E402
from rcw.server.config import Config  # noqa: E402
from rcw.server.store import MemoryStore  # noqa: E402
from server_helpers import running_server  # noqa: E402

KINDS = ("trade", "committee", "pact", "execution", "purge")


class Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(self.format(record))


def proposal(rng: random.Random, bot: str, view: dict) -> dict:
    kind = rng.choice(KINDS)
    if kind == "trade":
        p = {"kind": "trade", "to": bot}
        for f in ("give_politburo", "give_assassins", "take_politburo", "take_assassins"):
            if rng.random() < 0.5:
                p[f] = rng.randint(1, 2)
        return p
    if kind == "committee":
        others = [s for s in view["seats"] if s != "A" and s not in view["quit"]]
        return {"kind": "committee", "members": sorted({"A", bot, *rng.sample(others, rng.randint(0, len(others)))})}
    if kind == "pact":
        return {"kind": "pact", "with": bot, "until": view["turn"] + rng.randint(0, 2)}
    if kind == "execution":
        return {"kind": "execution", "to": [bot]}
    others = [s for s in view["seats"] if s not in ("A", bot)]
    return {"kind": "purge", "target": rng.choice(others), "purgers": ["A", bot], "shares": ["A", bot]}


async def one_game(lobby: Lobby, base: str, seed: int, turns: int, answer: float, stats: dict) -> str:
    rng = random.Random(seed)
    g = await lobby.create_game(players=5, bots="sdt", bot_seats=["B", "C", "D", "E"], seed=seed,
                                options={"max_turns": turns})
    a = await lobby.join(g["game"], name="talker")
    c = await GameClient.connect(base, g["game"], a["token"])
    waiting: dict[tuple[str, int], tuple[str, float]] = {}
    try:
        t_end = time.monotonic() + 600
        while c.status != "over" and time.monotonic() < t_end:
            for (ch, mid), (kind, t0) in list(waiting.items()):
                if any((m.get("reply") or {}).get("msg") == mid for m in c.messages.get(ch, {}).values()):
                    r = next(m for m in c.messages[ch].values() if (m.get("reply") or {}).get("msg") == mid)
                    waiting.pop((ch, mid))
                    stats[kind]["answered"] += 1
                    stats[kind]["accepted" if r["reply"]["accept"] else "declined"] += 1
                    stats[kind]["reasons"] += bool(r["reply"].get("reason"))
                    if "counters" in r["text"]:
                        stats[kind]["countered"] += 1
                elif time.monotonic() - t0 > answer:
                    return f"seed {seed}: {kind} proposal #{mid} in {ch} unanswered after {answer} s"
            if c.status == "playing" and rng.random() < 0.8 and len(waiting) < 4:
                bot = rng.choice([s for s in "BCDE" if s not in c.view["quit"]] or ["B"])
                p = proposal(rng, bot, c.view)
                try:
                    msg = await c.chat("-".join(sorted(("A", bot))), "", p)
                    stats[p["kind"]]["sent"] += 1
                    waiting[("-".join(sorted(("A", bot))), msg["id"])] = (p["kind"], time.monotonic())
                except ServerError as e:
                    stats[p["kind"]]["refused"] += 1
                    if "illegal_action" not in str(e) and "bad_request" not in str(e):
                        return f"seed {seed}: {p['kind']} proposal refused: {e}"
            mine = next((p for p in c.pending if p["seat"] == "A"), None)
            if mine is not None and c.legal:
                act = next((x for x in c.legal if x["t"].startswith("End") or x["t"] in
                            ("RollRandomEvents", "DrawRandomizer", "DeclineTrade", "PassPurge")), c.legal[0])
                with contextlib.suppress(ServerError):
                    await c.act(act)
            else:
                with contextlib.suppress(asyncio.TimeoutError, TimeoutError):
                    await c.wait_for(lambda c: any(p["seat"] == "A" for p in c.pending) or c.status == "over", 0.2)
        if c.status != "over":
            return f"seed {seed}: the game did not finish"
        t0 = time.monotonic()
        while waiting and time.monotonic() - t0 < answer:
            await asyncio.sleep(0.05)
            for (ch, mid), (kind, _) in list(waiting.items()):
                r = next((m for m in c.messages.get(ch, {}).values() if (m.get("reply") or {}).get("msg") == mid), None)
                if r is not None:
                    waiting.pop((ch, mid))
                    stats[kind]["answered"] += 1
                    stats[kind]["accepted" if r["reply"]["accept"] else "declined"] += 1
                    stats[kind]["reasons"] += bool(r["reply"].get("reason"))
        # a proposal still open when the game ended is answered by nobody: counted apart
        for (_, _), (kind, _) in waiting.items():
            stats[kind]["open_at_end"] += 1
        return ""
    finally:
        await c.close()


async def main(args) -> int:
    errors = Errors()
    logging.getLogger("rcw.server").addHandler(errors)
    stats = {k: {"sent": 0, "answered": 0, "accepted": 0, "declined": 0, "countered": 0, "reasons": 0,
                 "refused": 0, "open_at_end": 0} for k in KINDS}
    failures = []
    t0 = time.monotonic()
    async with running_server(MemoryStore(), Config()) as srv, Lobby(srv.base) as lobby:
        for i in range(args.games):
            why = await one_game(lobby, srv.base, args.seed + i, args.turns, args.answer, stats)
            if why:
                failures.append(why)
    out = {"games": args.games, "turns": args.turns, "seconds": round(time.monotonic() - t0, 1),
           "failures": failures, "server_errors": errors.records[:10], "by_kind": stats,
           "acceptance": {k: (round(v["accepted"] / v["answered"], 3) if v["answered"] else None)
                          for k, v in stats.items()}}
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        print(f"{args.games} games, {out['seconds']} s; failures {len(failures)}, server errors {len(errors.records)}")
        for k, v in stats.items():
            print(f"  {k:10} sent {v['sent']:4}  answered {v['answered']:4}  accepted {v['accepted']:4} "
                  f"({out['acceptance'][k]})  countered {v['countered']:3}  with a reason {v['reasons']:4}  "
                  f"refused by the engine {v['refused']:4}  open at the end {v['open_at_end']}")
        for f in failures[:10]:
            print("  FAIL", f)
    return 1 if failures or errors.records else 0


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--turns", type=int, default=3, help="Game-Turns per game (the max_turns option)")
    ap.add_argument("--answer", type=float, default=2.0, help="seconds within which every proposal is answered")
    ap.add_argument("--json", action="store_true")
    sys.exit(asyncio.run(main(ap.parse_args())))
