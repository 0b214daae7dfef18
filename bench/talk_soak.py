"""Soak of the bots that negotiate (issue 18): server-driven five-player games, seat A played
by a client that sends random proposals to the SDT bots in B-E.

    python bench/talk_soak.py                      # 100 games (the issue's soak), Game-Turns capped at 3
    python bench/talk_soak.py --games 10 --json    # a reduced run
    python bench/talk_soak.py --postal --games 10  # postal games: trades by post

Each game runs on a real server in this process (the embedded store, the bots in the event
loop), created through the lobby with one human seat. The client plays A's own steps (the
first ``End...`` step it may take, else its first legal action) and, whenever it may, sends
one random proposal to the bots, of a kind the engine has open now, as a player would read it
off the game (``view``, ``legal``):

- a trade (markers either way, no more than either side holds) and a pact, at any time;
- a Central Committee in A's own Movement Phase (when the bots answer one, 004 [11.1]), of A
  and bots that together hold the engine's threshold (``view.limits.committee_markers``,
  004 [11.11]), while A is in no Committee;
- a group purge (004 [11.23]) when the engine lists one of A's Committee (``legal``
  ``DeclarePurge`` with other purgers), and an execution order (004 [13.5]) when it lists
  ``OrderExecution`` for A outside a decision: only once a Committee with A exists.

With ``--postal`` the games are postal (004 [17.0]): A proposes trades by post and pacts only
(postal [4.2]: a trade is made when both sheets hold the matching orders), accepts or declines
the bots' cards at random (their counter-offers, and the trades their own sheets hold, told to A), and sends each phase's sheet holding its side of every
trade agreed, once the proposals of the phase are answered; it counts the trades the reports
say were made.

A proposal to one bot goes to the pair channel, to several to the public channel. While a
proposal waits for its answer A does not act (a player waits for the answer to a Committee
before ending the Movement Phase), but for a decision that suspends play (a purge a bot
declared): nobody answers a trade until it is decided, so a trade's clock stops meanwhile. The cards the bots send A (Committee invitations, gifts,
counter-offers, pacts) are accepted or declined at random. Every proposal posted must be
answered within ``--answer`` seconds. It fails (exit 1) on an unanswered proposal, a game that
does not finish, or an error logged by the server; it prints acceptance rates by kind.
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
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from rcw.server.client import GameClient, Lobby, ServerError  # noqa: E402
from rcw.server.config import Config  # noqa: E402
from rcw.server.store import MemoryStore  # noqa: E402
from server_helpers import running_server  # noqa: E402

KINDS = ("trade", "committee", "pact", "execution", "purge")
ME = "A"
#: Answers a client may get when the engine refuses a proposal or an answer (not errors).
REFUSALS = ("illegal_action", "bad_request", "proposal_closed")     # (a Committee card its bot has since left)


class Errors(logging.Handler):
    """The server's log records at ``level`` and above."""

    def __init__(self, level: int = logging.ERROR) -> None:
        super().__init__(level)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(self.format(record))


def open_kinds(c: GameClient) -> dict[str, list[dict]]:
    """The proposals A may make now (kind -> candidates), read off the game as a player reads
    it: the markers, the phase, the engine's legal actions."""
    v = c.view
    bots = [s for s in v["seats"] if s != ME and s not in v["quit"]]
    out: dict[str, list[dict]] = {"trade": [], "pact": []}
    if not bots or ME in v["quit"] or c.status != "playing":
        return {}
    pm, am = v["politburo"], v["assassins"]
    for b in bots:
        out["trade"].append({"kind": "trade", "to": b, "_give": (pm.get(ME, 0), am.get(ME, 0)),
                             "_take": (pm.get(b, 0), am.get(b, 0))})
        out["pact"].append({"kind": "pact", "with": b, "until": v["turn"]})
    free = v["decision"] is None and not v.get("force") and not v.get("attack")
    if v["decision"] is not None:            # (only the decision's seat acts: no trade is answered now)
        out["trade"] = []
    com = list(v.get("committee") or [])
    if (free and v["phase"] == "movement" and v["phasing"] == ME and ME not in com
            and any(p["seat"] == ME and p["kind"] == "movement" for p in c.pending)):
        mine = sorted(v["committee_consent"].get(ME) or [])
        need = v["limits"]["committee_markers"]
        groups = [sorted((ME, *g)) for n in range(1, len(bots) + 1) for g in combinations(bots, n)
                  if pm.get(ME, 0) + sum(pm.get(x, 0) for x in g) >= need]
        out["committee"] = [{"kind": "committee", "members": g} for g in groups if g != mine]
    if free:
        out["purge"] = [{"kind": "purge", "target": a["target"], "purgers": a["purgers"], "shares": a["shares"]}
                        for a in c.legal if a["t"] == "DeclarePurge" and len(a["purgers"]) > 1]
        if any(a["t"] == "OrderExecution" for a in c.legal) and len(com) > 1:
            out["execution"] = [{"kind": "execution", "to": [p for p in com if p != ME]}]
    return {k: v for k, v in out.items() if v}


def pick(rng: random.Random, kinds: dict[str, list[dict]]) -> dict | None:
    """A random proposal among those open, the political ones first when they are open (they
    are open for a few steps a Game-Turn; trades and pacts always)."""
    if not kinds:
        return None
    political = [k for k in ("purge", "execution", "committee") if k in kinds]
    kind = rng.choice(political) if political and rng.random() < 0.7 else rng.choice(sorted(kinds))
    p = dict(rng.choice(kinds[kind]))
    if kind == "trade":
        (gp, ga), (tp, ta) = p.pop("_give"), p.pop("_take")
        for f, have in (("give_politburo", gp), ("give_assassins", ga), ("take_politburo", tp),
                        ("take_assassins", ta)):
            if have and rng.random() < 0.5:
                p[f] = rng.randint(1, min(2, have))
        if len(p) == 2:                     # (nothing either way: a one-marker gift, if A holds one)
            if not gp:
                return None
            p["give_politburo"] = 1
    elif kind == "pact":
        p["until"] += rng.randint(0, 2)
    return p


def addressees(p: dict) -> list[str]:
    k = p["kind"]
    if k == "trade":
        return [p["to"]]
    if k == "pact":
        return [p["with"]]
    if k == "committee":
        return [s for s in p["members"] if s != ME]
    if k == "purge":
        return [s for s in p["purgers"] if s != ME]
    return list(p["to"])


def channel_for(to: list[str]) -> str:
    return "-".join(sorted((ME, to[0]))) if len(to) == 1 else "public"


def new_stats() -> dict:
    return {k: {"sent": 0, "answered": 0, "accepted": 0, "declined": 0, "countered": 0, "reasons": 0,
                "refused": 0, "open_at_end": 0, "max_answer_ms": 0} for k in KINDS}


async def answer_cards(c: GameClient, rng: random.Random, seen: set, cards: dict, seed: int) -> tuple[str, list[dict]]:
    """The bots' cards to A not answered yet: accepted or declined at random.  ('' or why the
    game failed, the proposals of the cards A accepted.)"""
    accepted = []
    for ch, msgs in list(c.messages.items()):
        for m in list(msgs.values()):
            p = m.get("proposal") or {}
            if m.get("seat") in (ME, None) or ME not in p.get("addressees", ()) or (ch, m["id"]) in seen:
                continue
            seen.add((ch, m["id"]))
            kind = ("counter-" if p.get("counter") else "") + p["kind"]
            cards.setdefault(kind, {"got": 0, "accepted": 0, "refused": 0})["got"] += 1
            try:
                if rng.random() < 0.5:
                    await c.accept(ch, m["id"])
                    cards[kind]["accepted"] += 1
                    accepted.append(p)
                else:
                    await c.decline(ch, m["id"])
            except ServerError as e:
                cards[kind]["refused"] += 1          # (no longer open: the engine says so)
                if e.code not in REFUSALS:
                    return f"seed {seed}: answering a {kind} card: {e}", accepted
    return "", accepted


async def one_game(lobby: Lobby, base: str, seed: int, turns: int, answer: float, stats: dict,
                   cards: dict, refusals: dict) -> str:
    """Play one game; '' or why it failed."""
    rng = random.Random(seed)
    g = await lobby.create_game(players=5, bots="sdt", bot_seats=["B", "C", "D", "E"], seed=seed,
                                options={"max_turns": turns})
    a = await lobby.join(g["game"], name="talker")
    c = await GameClient.connect(base, g["game"], a["token"])
    waiting: dict[tuple[str, int], tuple[str, float]] = {}
    done_cards: set[tuple[str, int]] = set()

    def collect() -> None:
        for (ch, mid), (kind, t0) in list(waiting.items()):
            r = next((m for m in c.messages.get(ch, {}).values() if (m.get("reply") or {}).get("msg") == mid), None)
            if r is None:
                continue
            waiting.pop((ch, mid))
            s = stats[kind]
            s["answered"] += 1
            s["accepted" if r["reply"]["accept"] else "declined"] += 1
            s["reasons"] += bool(r["reply"].get("reason"))
            if not r["reply"].get("reason"):
                refusals.setdefault(f"{kind} answered without a reason", []).append(r["text"][:160])
            s["max_answer_ms"] = max(s["max_answer_ms"], round((time.monotonic() - t0) * 1000))
            if any((m.get("proposal") or {}).get("counter") == mid for m in c.messages.get(ch, {}).values()):
                s["countered"] += 1

    try:
        t_end = time.monotonic() + 600
        while c.status != "over" and time.monotonic() < t_end:
            collect()
            decision = c.view.get("decision") or {}
            if decision:        # (play is suspended: nobody answers a trade until it is decided, 004 [11.0])
                now = time.monotonic()
                waiting.update({k: (kind, now) for k, (kind, _) in waiting.items() if kind == "trade"})
            for (ch, mid), (kind, t0) in waiting.items():
                if time.monotonic() - t0 > answer:
                    late = [(m["id"], m.get("seat"), m["text"][:150], m.get("proposal")) for m in c.messages[ch].values()
                            if m["id"] >= mid]
                    return (f"seed {seed}: {kind} proposal #{mid} in {ch} unanswered after {answer} s "
                            f"(pending {c.pending}, offers {c.view['offers']}, since: {late}, consent {c.view['committee_consent']}, "
                            f"events {[e['text'] for e in c.events[-12:]]})")
            why, _ = await answer_cards(c, rng, done_cards, cards, seed)
            if why:
                return why
            if c.status == "playing" and not waiting and rng.random() < 0.8:
                p = pick(rng, open_kinds(c))
                if p is not None:
                    to = addressees(p)
                    ch = channel_for(to)
                    try:
                        msg = await c.chat(ch, "", p)
                        stats[p["kind"]]["sent"] += 1
                        waiting[(ch, msg["id"])] = (p["kind"], time.monotonic())
                    except ServerError as e:
                        stats[p["kind"]]["refused"] += 1
                        refusals.setdefault(p["kind"], []).append(f"{e.engine_code or e.code}: {e.message}"[:160])
                        if e.code not in REFUSALS:
                            return f"seed {seed}: {p['kind']} proposal refused: {e}"
            mine = next((p for p in c.pending if p["seat"] == ME), None)
            if mine is not None and c.legal and (not waiting or decision.get("seat") == ME):
                act = next((x for x in c.legal if x["t"].startswith("End") or x["t"] in
                            ("RollRandomEvents", "DrawRandomizer", "DeclineTrade", "PassPurge")), c.legal[0])
                with contextlib.suppress(ServerError):
                    await c.act(act)
            else:
                with contextlib.suppress(asyncio.TimeoutError, TimeoutError):
                    await c.wait_for(lambda c: c.status == "over" or (not waiting and c.my_turn), 0.1)
        if c.status != "over":
            return f"seed {seed}: the game did not finish"
        t0 = time.monotonic()
        while waiting and time.monotonic() - t0 < answer:
            await asyncio.sleep(0.05)
            collect()
        # a proposal still open when the game ended is answered by nobody: counted apart
        for (_, _), (kind, _) in waiting.items():
            stats[kind]["open_at_end"] += 1
        return ""
    finally:
        await c.close()


async def one_postal_game(lobby: Lobby, base: str, seed: int, turns: int, answer: float, stats: dict,
                          cards: dict, refusals: dict) -> str:
    """Play one postal game (see the module); '' or why it failed."""
    rng = random.Random(seed)
    g = await lobby.create_game(mode="postal", players=5, bots="sdt", bot_seats=["B", "C", "D", "E"], seed=seed,
                                options={"max_turns": turns})
    a = await lobby.join(g["game"], name="talker")
    c = await GameClient.connect(base, g["game"], a["token"])
    agreed: dict[tuple[int, str], list[dict]] = {}      # A's side of each trade agreed, by phase
    seen: set[tuple[str, int]] = set()

    def phase() -> tuple[int, str]:
        return c.view["turn"], c.view["postal"]["phase"]

    def reply(ch: str, mid: int) -> dict | None:
        return next((m for m in c.messages.get(ch, {}).values() if (m.get("reply") or {}).get("msg") == mid), None)

    try:
        t_end = time.monotonic() + 600
        while c.status != "over" and time.monotonic() < t_end:
            if not c.my_turn:
                with contextlib.suppress(asyncio.TimeoutError, TimeoutError):
                    await c.wait_for(lambda c: c.status == "over" or c.my_turn, 5)
                continue
            at = phase()
            for _ in range(rng.randint(0, 2)):             # this phase's proposals, each answered in time
                kinds = {k: v for k, v in open_kinds(c).items() if k in ("trade", "pact")}
                p = pick(rng, kinds)
                if p is None:
                    continue
                ch = channel_for(addressees(p))
                try:
                    msg = await c.chat(ch, "", p)
                except ServerError as e:
                    stats[p["kind"]]["refused"] += 1
                    refusals.setdefault(p["kind"], []).append(f"{e.engine_code or e.code}: {e.message}"[:160])
                    if e.code not in REFUSALS:
                        return f"seed {seed}: {p['kind']} proposal refused: {e}"
                    continue
                s = stats[p["kind"]]
                s["sent"] += 1
                t0 = time.monotonic()
                try:
                    await c.wait_for(lambda c, ch=ch, mid=msg["id"]: reply(ch, mid) is not None, answer)
                except TimeoutError:
                    return f"seed {seed}: {p['kind']} proposal #{msg['id']} in {ch} unanswered after {answer} s"
                r = reply(ch, msg["id"])
                s["answered"] += 1
                s["accepted" if r["reply"]["accept"] else "declined"] += 1
                s["reasons"] += bool(r["reply"].get("reason"))
                s["max_answer_ms"] = max(s["max_answer_ms"], round((time.monotonic() - t0) * 1000))
                if p["kind"] == "trade" and r["reply"]["accept"]:
                    agreed.setdefault(at, []).append(msg["proposal"]["post"]["orders"][ME])
                if p["kind"] == "trade" and not r["reply"]["accept"] and "counters" in r["text"]:
                    s["countered"] += 1
                    with contextlib.suppress(asyncio.TimeoutError, TimeoutError):
                        await c.wait_for(lambda c, ch=ch, mid=msg["id"]: any(
                            (m.get("proposal") or {}).get("counter") == mid for m in c.messages.get(ch, {}).values()), answer)
            why, took = await answer_cards(c, rng, seen, cards, seed)   # the bots' cards: accepted or declined at random
            if why:
                return why
            for prop in took:                   # (a counter-offer by post accepted: A's side on its sheet)
                post = prop.get("post")
                if post and (post["turn"], post["phase"]) == at:
                    agreed.setdefault(at, []).append(post["orders"][ME])
            try:
                await c.sheet(agreed.get(at, []))
            except ServerError as e:
                if e.code not in REFUSALS:
                    return f"seed {seed}: A's sheet refused: {e}"
            with contextlib.suppress(asyncio.TimeoutError, TimeoutError):
                await c.wait_for(lambda c, at=at: c.status == "over" or phase() != at, 30)
        if c.status != "over":
            return f"seed {seed}: the game did not finish"
        made = sum(r["text"].count(f"between {ME} and") for r in await c.reports())
        stats["trade"]["made"] = stats["trade"].get("made", 0) + made
        return ""
    finally:
        await c.close()


async def soak(games: int, seed: int = 1, turns: int = 3, answer: float = 2.0, postal: bool = False) -> dict:
    """Play ``games`` games on one server; the figures (see :func:`main`)."""
    errors, warnings = Errors(logging.ERROR), Errors(logging.WARNING)
    log = logging.getLogger("rcw.server")
    log.addHandler(errors)
    log.addHandler(warnings)
    stats, cards, refusals = new_stats(), {}, {}
    failures = []
    t0 = time.monotonic()
    try:
        # (the client proposes faster than a person types: no chat rate limit)
        async with running_server(MemoryStore(), Config(chat_rate=1e6, chat_burst=1e6)) as srv, Lobby(srv.base) as lobby:
            play = one_postal_game if postal else one_game
            for i in range(games):
                why = await play(lobby, srv.base, seed + i, turns, answer, stats, cards, refusals)
                if why:
                    failures.append(why)
    finally:
        log.removeHandler(errors)
        log.removeHandler(warnings)
    return {"games": games, "turns": turns, "seconds": round(time.monotonic() - t0, 1),
            "failures": failures, "server_errors": errors.records[:10], "n_server_errors": len(errors.records),
            "server_warnings": len(warnings.records) - len(errors.records), "by_kind": stats, "bot_cards": cards,
            "refusals": {k: sorted(set(v))[:5] for k, v in refusals.items()},
            "acceptance": {k: (round(v["accepted"] / v["answered"], 3) if v["answered"] else None)
                           for k, v in stats.items()}}


async def main(args) -> int:
    out = await soak(args.games, args.seed, args.turns, args.answer, args.postal)
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        print(f"{out['games']} games, {out['seconds']} s; failures {len(out['failures'])}, "
              f"server errors {out['n_server_errors']}, warnings {out['server_warnings']}")
        for k, v in out["by_kind"].items():
            print(f"  {k:10} sent {v['sent']:4}  answered {v['answered']:4}  accepted {v['accepted']:4} "
                  f"({out['acceptance'][k]})  countered {v['countered']:3}  with a reason {v['reasons']:4}  "
                  f"slowest {v['max_answer_ms']:4} ms  refused by the engine {v['refused']:3}  "
                  f"open at the end {v['open_at_end']}" + (f"  made by post {v['made']}" if "made" in v else ""))
        for k, v in sorted(out["bot_cards"].items()):
            print(f"  bots' {k} cards to A: {v['got']}, A accepted {v['accepted']}, no longer open {v['refused']}")
        for k, v in out["refusals"].items():
            print(f"  {k} refused: {'; '.join(v)}")
        for f in out["failures"][:10]:
            print("  FAIL", f)
        for e in out["server_errors"]:
            print("  ERROR", e)
    return 1 if out["failures"] or out["n_server_errors"] else 0


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--turns", type=int, default=3, help="Game-Turns per game (the max_turns option)")
    ap.add_argument("--answer", type=float, default=2.0, help="seconds within which every proposal is answered")
    ap.add_argument("--postal", action="store_true", help="postal games: trades by post and pacts (004 [17.0])")
    ap.add_argument("--json", action="store_true")
    sys.exit(asyncio.run(main(ap.parse_args())))
