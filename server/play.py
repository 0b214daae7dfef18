"""``rcw play``: play (or watch) a game on a server in the terminal, through ``server/client.py``.

    rcw play                                     # a new 5-player game on http://127.0.0.1:8080: you
                                                 # are A, bots take the other seats
    rcw play --players 4 --humans 2              # a new game that waits for a second player
    rcw play URL --game ID                       # take the first open seat of a game
    rcw play URL --game ID --token TOKEN         # come back to your seat
    rcw play URL --game ID --watch               # spectate
    rcw play --postal --deadline 36h             # a new postal game (004 [17.0]): a phase a day and a half

Every event is printed as it happens, and every chat message this seat may read.  When the
game waits for you, your legal actions are listed with numbers; type a number to play one.
On a terminal the tables are drawn by ``rich`` and the factions' names are in their colours
(NO_COLOR drops the colours); piped, the output is plain text.  A lost connection (a server
restarted, a fail-over) is taken up again with the same token for five minutes.
Other commands (any time):

    say CHANNEL TEXT       post in a channel (public, A-B, g1, ...)
    accept CHANNEL ID      accept the proposal in message ID   (decline CHANNEL ID: decline it)
    offer SEAT P A         propose a trade in your pair channel: give SEAT P Politburo, A Assassins
    committee B,C          propose a Central Committee of you, B and C (in public)
    group B,C              open a group channel with B and C
    channels               the channels you can read        history CHANNEL: catch up on one
    view                   turn, phase, who the game waits for, markers
    board                  your stacks (a spectator: every stack), with the engine's strengths
    vp                     the Victory Point Chart and everyone's Red and White VP
    leave                  give up your seat (a bot takes it, or you quit: the creator chose)
  A postal game (004 [17.0]): write the sheet of the open phase, then send it (again: it replaces)
    move UNIT P1-P2-.. [rail]   a move order (a leader or the top unit; the provinces it enters, in
                                order; the one it starts from may lead)
    attack TARGET A1,A2 [sub]   an attack order on the unit TARGET by the stacks of units A1, A2
    order {JSON}           any order (docs/engine.md "Postal games"), e.g. order {"order": "accept_gifts"}
    sheet                  your draft, each order judged by the engine (check); drop N / up N
    send                   send the sheet          deadline: when the phase closes
    reports                the reports so far      report [N]: read one (default the last)
    pause HOURS            pause the game (the creator's allowance)   reclaim: back from civil disorder
    quit                   disconnect (the seat stays yours: come back with --token)
    help                   this help
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import threading
from collections.abc import Awaitable, Callable
from typing import Any, TextIO

import aiohttp
from rcw.bots.terminal import Screen, province, score_rows, unit_name, vp_rows
from rcw.server.client import GameClient, Lobby, ServerError

from rcw.cliargs import whole
from rcw.rng import SEED_MAX

HELP = __doc__.split("Other commands (any time):")[1].rstrip()
ReadLine = Callable[[str], Awaitable[str | None]]


def describe(a: dict) -> str:
    """A wire action as one line: its type, then its fields (never the seat)."""
    parts = []
    for k, v in a.items():
        if k in ("t", "seat") or v in ((), [], "", None):
            continue
        if isinstance(v, list):
            v = ",".join(str(x) for x in v)
        parts.append(f"{k}={v}")
    return a["t"] + (" " + " ".join(parts) if parts else "")


class Session:
    """One terminal player (or spectator) connected to one game."""

    def __init__(self, client: GameClient, out: TextIO) -> None:
        self.c = client
        self.out = out
        self.screen = Screen(out)
        self.choices: list[dict] = []
        self.shown_seq = -1
        self.draft: list[dict] = []             # a postal game: the sheet being written
        self.draft_for: tuple | None = None     # (turn, phase) the draft is for
        self._tasks: set[asyncio.Task] = set()

    def say(self, text: str = "", style: str = "") -> None:
        self.screen.say(text, style)

    # -- what arrives ----------------------------------------------------------------------------
    def on_push(self, f: dict) -> None:
        t = f.get("t")
        if t == "update":
            for e in f.get("events", []):
                if e.get("kind") != "report":
                    self.say(f"  - {e['text']}")
            if any(e.get("kind") == "report" for e in f.get("events", [])):
                self._tasks.add(t := asyncio.ensure_future(self._report_pushed(f)))    # (not in the reader)
                t.add_done_callback(self._tasks.discard)
                return
            if f.get("status") == "over":
                self.finish()
            else:
                self.prompt()
        elif t == "msg":
            self.show_msg(f["channel"], f["msg"])
        elif t == "channel":
            ch = f["channel"]
            self.say(f"  (a channel {ch['name']} of {', '.join(ch['members'])} is open: {ch.get('title') or ''})")
        elif t == "seats":
            self.say("  (seats: " + ", ".join(f"{s} {r['kind']}" + (" in civil disorder" if r.get("disorder") else "")
                                            for s, r in f["seats"].items()) + ")")
            self.prompt()
        elif t == "deadline" and f.get("why"):
            self.say(f"  (seat {f['why']['seat']} paused the game: every deadline moves by {f['why']['seconds']:g} s)")

    async def _report_pushed(self, f: dict) -> None:
        """A postal phase was adjudicated: its report, as The Bell printed it."""
        try:
            reports = await self.c.reports()
        except (ConnectionError, ServerError):
            return
        if reports:
            self.say("\n" + reports[-1]["text"])
        if f.get("status") == "over":
            self.finish()
        else:
            self.prompt()

    # -- postal games ------------------------------------------------------------------------------
    @property
    def postal(self) -> bool:
        return "postal" in self.c.view

    def _draft(self) -> list[dict]:
        v = self.c.view
        key = (v.get("turn"), v["postal"]["phase"])
        if key != self.draft_for:
            self.draft_for, self.draft = key, [o for _, o in v["postal"].get("sheet") or []]
        return self.draft

    async def show_sheet(self) -> None:
        draft = self._draft()
        v = self.c.view
        sent = self.c.seat in v["postal"].get("submitted", [])
        self.say(f"Your sheet for Game-Turn {v['turn']}, {v['postal']['phase']} phase"
                 f"{' (sent)' if sent else ' (not sent)'}:", "bold")
        verdicts = (await self.c.query("check", sheet={"orders": draft}))["orders"] if draft else []
        for i, (o, vd) in enumerate(zip(draft, verdicts, strict=True), 1):
            why = "" if vd["ok"] and "step" not in vd else f"  <- {'stops' if vd['ok'] else 'refused'}: {vd['message']} ({vd['rule']})"
            self.say(f"  {i:>3}. {describe({'t': o.get('order', '?'), **{k: x for k, x in o.items() if k != 'order'}})}{why}")
        if not draft:
            self.say("  (no orders: an empty sheet is a valid sheet)")
        self.show_deadline()

    def show_deadline(self) -> None:
        import time

        v = self.c.view
        at = self.c.deadlines.get(f"phase:{v['turn']}:{v['postal']['phase']}")
        if at is None:
            self.say("  (no deadline: the phase closes when every sheet is in)")
        else:
            left = max(0, at / 1000 - time.time())
            self.say(f"  (the phase closes in {left / 3600:.1f} h)" if left > 3600 else f"  (the phase closes in {left:.0f} s)")
        self.say("  sheets in: " + ", ".join(v["postal"].get("submitted", [])) + "; awaited: "
                 + ", ".join(v["postal"].get("awaited", [])))

    async def postal_command(self, head: str, rest: list[str], line: str) -> bool:
        """The postal game's commands; False if ``head`` is not one."""
        import json

        c = self.c
        if head in ("reports", "report"):
            reports = await c.reports()
            if head == "reports":
                for i, r in enumerate(reports, 1):
                    self.say(f"  {i:>3}. Game-Turn {r['turn']}, {r['phase']} phase (action {r['seq']})")
                if not reports:
                    self.say("  (no phase adjudicated yet)")
            elif reports:
                n = int(rest[0]) if rest and rest[0].isdigit() else len(reports)
                if not 1 <= n <= len(reports):
                    self.say(f"  (reports are numbered 1 to {len(reports)})")
                else:
                    self.say(reports[n - 1]["text"])
            return True
        if head == "pause" and rest:
            r = await c.pause(float(rest[0]) * 3600)
            self.say(f"  (every deadline moved; you may pause {r['left'] / 3600:.1f} h more)")
            return True
        if head == "reclaim":
            r = await c.reclaim()
            self.say("  (your seat is yours again)" if r["was"] else "  (your seat was not in civil disorder)")
            return True
        if not self.postal or c.seat is None:
            return False
        draft = self._draft()
        if head == "move" and len(rest) >= 2 and rest[0].isdigit():
            unit, path = int(rest[0]), [p.upper() for p in rest[1].split("-") if p]
            at = next((st["province"] for st in c.view.get("stacks", ()) if unit in st["units"]), None)
            if path and path[0] == at:      # (typed from where it stands, P1-P2 as the help reads: QA)
                path = path[1:]
            draft.append({"order": "move", "unit": unit, "path": path, "rail": "rail" in rest[2:]})
        elif head == "attack" and len(rest) >= 2 and rest[0].isdigit():
            draft.append({"order": "attack", "target": int(rest[0]), "attackers": [int(x) for x in rest[1].split(",") if x.isdigit()],
                          "subversive": "sub" in rest[2:]})
        elif head == "order" and rest:
            try:
                o = json.loads(line.split(None, 1)[1])
            except ValueError as e:
                self.say(f"  (not JSON: {e})")
                return True
            if not isinstance(o, dict):
                self.say("  (an order is a JSON object with an 'order' field)")
                return True
            draft.append(o)
        elif head in ("drop", "up") and rest and rest[0].isdigit() and 1 <= int(rest[0]) <= len(draft):
            i = int(rest[0]) - 1
            if head == "drop":
                draft.pop(i)
            elif i:
                draft[i - 1], draft[i] = draft[i], draft[i - 1]
        elif head == "sheet":
            pass
        elif head == "send":
            r = await c.sheet(draft)
            self.say(f"  (sheet sent: {len(r['sheet'])} order(s) kept, {len(r['rejected'])} refused)")
            for x in r["rejected"]:
                self.say(f"    refused #{x['index'] + 1} {x['order']}: {x['message']} ({x['rule']})")
            return True
        elif head == "deadline":
            self.show_deadline()
            return True
        else:
            return False
        await self.show_sheet()
        return True

    def show_msg(self, channel: str, m: dict) -> None:
        line = f"  [{channel} #{m['id']}] {m['seat']}: {m['text']}"
        p = m.get("proposal")
        if p:
            terms = {k: v for k, v in p.items() if k not in ("kind", "addressees", "seq") and v not in ([], 0, "")}
            line += f"  <{p['kind']} proposal {terms}>"
            if self.c.seat in p.get("addressees", []):
                line += f"  (accept {channel} {m['id']} / decline {channel} {m['id']})"
        self.say(line)

    def prompt(self, force: bool = False) -> None:
        """List the legal actions when the game waits for this seat (once per position)."""
        c = self.c
        if c.over or not c.my_turn or not c.legal or (c.seq == self.shown_seq and not force):
            return
        self.shown_seq = c.seq
        self.choices = [a for a in c.legal if a["t"] != "Quit"]
        v = c.view
        if self.postal:
            self.choices = []
            self.say(f"\nGame-Turn {v.get('turn')}, {v['postal']['phase']} phase: your orders are due "
                     "(move / attack / order to write them, sheet to check, send to send; help)", "bold")
            return
        kinds = ", ".join(p["kind"] for p in c.pending if p["seat"] == c.seat)
        self.say(f"\nGame-Turn {v.get('turn')}, {str(v.get('phase', '')).replace('_', ' ')}: your decision ({kinds})", "bold")
        for i, a in enumerate(self.choices, 1):
            self.say(f"  {i:>3}. {describe(a)}")

    def show_view(self) -> None:
        c, v = self.c, self.c.view
        self.say(f"game {c.game}, seq {c.seq}, status {c.status}; Game-Turn {v.get('turn')}, phase {v.get('phase')}")
        self.say("  waiting for: " + (", ".join(f"{p['seat']} ({p['kind']})" for p in c.pending) or "nobody"))
        if self.screen.console is None:
            self.say("  Politburo: " + " ".join(f"{s}={n}" for s, n in sorted(v.get("politburo", {}).items()))
                     + "; Assassins: " + " ".join(f"{s}={n}" for s, n in sorted(v.get("assassins", {}).items())))
        else:                                           # (on a terminal: one row a player)
            seats = v.get("seats", [])
            scores = {r[0]: r for r in score_rows(v["scores"], seats)} if "scores" in v else {}
            self.screen.table([[s + (" (you)" if s == c.seat else ""), str(v["politburo"].get(s, 0)), str(v["assassins"].get(s, 0)),
                                ", ".join(sorted(n for n, w in v.get("control", {}).items() if w == s)) or "-",
                                *(scores[s][1:] if s in scores else ["?", "?"])] for s in seats],
                              ["player", "Politburo", "Assassins", "controls", "Red VP", "White VP"])
        self.say(f"  Central Committee: {', '.join(v.get('committee', [])) or 'none'}; "
                 f"open offers to or from you: {len(v.get('offers', []))}")

    def show_board(self) -> None:
        """The seat's stacks (a spectator's: all), with the engine's strengths (``facts``)."""
        c, v = self.c, self.c.view
        strength = c.facts.get("strengths", {})
        mine = [st for st in v.get("stacks", []) if c.seat is None or st["owner"] == c.seat]
        self.say(f"{'Your' if c.seat else 'The'} stacks (Game-Turn {v.get('turn')}):", "bold")
        self.screen.table([[str(st["id"]), province(st["province"]), st["owner"] or "-", st["color"],
                            ", ".join(unit_name(u) for u in st["units"]), str(strength.get(str(st["id"]), strength.get(st["id"], "?")))]
                           for st in sorted(mine, key=lambda s: (s["province"], s["id"]))],
                          ["stack", "province", "owner", "colour", "units", "strength"])

    def show_vp(self) -> None:
        v = self.c.view
        self.say("Victory Point Chart (combat strength of eliminated units by colour):", "bold")
        self.screen.table(vp_rows(v), ["section", "eliminated"])
        if "scores" in v:
            self.say("Score if the game ended now:", "bold")
            self.screen.table(score_rows(v["scores"], v.get("seats", [])), ["player", "Red VP", "White VP"])

    def finish(self) -> None:
        r = self.c.result or {}
        self.say(f"\n=== The game is over === {r.get('reason', '')}", "bold")
        ws = r.get("winners") or ([r["winner"]] if r.get("winner") else [])
        if ws:
            self.say(f"{'Winners (tied)' if len(ws) > 1 else 'Winner'}: {', '.join(ws)} ({r.get('winner_color')})")

    # -- what the player types -------------------------------------------------------------------
    async def command(self, line: str) -> bool:
        """Run one typed line; False: stop the session."""
        c = self.c
        words = line.split()
        if not words:
            return True
        head, rest = words[0].lower(), words[1:]
        try:
            if head.isdigit():
                n = int(head)
                if not (c.my_turn and 1 <= n <= len(self.choices) and self.shown_seq == c.seq):
                    self.say("  (no such choice now)")
                    return True
                await c.act(self.choices[n - 1], seq=c.seq)
            elif head == "say" and len(rest) >= 2:
                await c.chat(rest[0], " ".join(rest[1:]))
            elif head in ("accept", "decline") and len(rest) == 2 and rest[1].isdigit():
                await (c.accept if head == "accept" else c.decline)(rest[0], int(rest[1]))
            elif head == "offer" and len(rest) == 3 and rest[1].isdigit() and rest[2].isdigit():
                to = rest[0].upper()
                await c.chat("-".join(sorted((c.seat or "", to))), "", {"kind": "trade", "to": to,
                                                                       "give_politburo": int(rest[1]),
                                                                       "give_assassins": int(rest[2])})
            elif head == "committee" and rest:
                members = sorted({c.seat or "", *(x.strip().upper() for x in rest[0].split(",") if x.strip())})
                await c.chat("public", "", {"kind": "committee", "members": members})
            elif head == "group" and rest:
                ch = await c.open_channel([x.strip().upper() for x in rest[0].split(",") if x.strip()])
                self.say(f"  (channel {ch['name']} opened)")
            elif head == "channels":
                for ch in (await c.request("channels"))["channels"]:
                    self.say(f"  {ch['name']}: {', '.join(ch['members'])} (last message #{ch['last']})")
            elif head == "history" and rest:
                for m in await c.history(rest[0], after=0, limit=50):
                    self.show_msg(rest[0], m)
            elif head == "view":
                self.show_view()
                self.prompt(force=True)
            elif head == "board":
                self.show_board()
            elif head == "vp":
                self.show_vp()
            elif head == "leave":
                r = await c.leave()
                self.say(f"  (you left seat {r['seat']}: now {r['now']}; you are watching)")
            elif await self.postal_command(head, rest, line):
                pass
            elif head in ("quit", "exit", "q"):
                return False
            elif head in ("help", "h", "?"):
                self.say(HELP)
            else:
                self.say("  (type a number, or help)")
        except ServerError as e:
            self.say(f"  refused: {e}")
            if e.code == "stale":
                self.prompt(force=True)
        return True


async def session(base: str, game: str, token: str | None, read: ReadLine, out: TextIO = sys.stdout) -> int:
    """Play until the game is over or the player quits; ``read(prompt)`` gives the next typed
    line (None: end of input)."""
    c = await GameClient.connect(base, game, token)
    s = Session(c, out)
    try:
        who = f"seat {c.seat}" if c.seat else "a spectator"
        s.say(f"Connected to game {game} as {who}; status {c.status}, seq {c.seq}. Type help for the commands.")
        await c.catch_up()
        for ch, msgs in sorted(c.messages.items()):
            for mid in sorted(msgs)[-5:]:
                s.show_msg(ch, msgs[mid])
        c.on_push = s.on_push
        if c.over:
            s.finish()
            return 0
        s.prompt()
        reader = asyncio.ensure_future(read(""))
        closed = asyncio.ensure_future(c.closed.wait())
        over = asyncio.ensure_future(c.wait_for(lambda c: c.over, None))
        try:
            while True:
                done, _ = await asyncio.wait({reader, closed, over}, return_when=asyncio.FIRST_COMPLETED)
                if over in done and not over.cancelled() and over.exception() is None and c.over:
                    return 0
                if over in done and not closed.done():     # (the wait for the end failed: the connection went)
                    await closed
                if closed.done():
                    if c.over:
                        return 0
                    # (a server restarted or failed over: QA's rcw play said "The server closed the
                    # connection" and stopped, while the browser's page reconnected by itself)
                    if not await _reconnect(c, s):
                        return 1
                    if c.over:                      # (it ended meanwhile: its result)
                        s.finish()
                        return 0
                    closed = asyncio.ensure_future(c.closed.wait())
                    over.cancel()
                    over = asyncio.ensure_future(c.wait_for(lambda c: c.over, None))
                    s.prompt(force=True)
                    continue
                if reader not in done:
                    continue
                line = reader.result()
                if line is None:
                    return 0
                try:
                    if not await s.command(line):
                        return 0
                except ConnectionError:             # (the connection went with the command on its way)
                    s.say("  (the connection was lost: that command may not have been taken; check once back)")
                reader = asyncio.ensure_future(read(""))
        finally:
            for t in (reader, closed, over):
                t.cancel()
    finally:
        await c.close()


#: Seconds between tries to reconnect (the last repeated) and how long ``rcw play`` tries in all.
RECONNECT_DELAYS = (0.5, 1, 2, 4, 8, 15)
RECONNECT_FOR = 300.0


async def _reconnect(c: GameClient, s: Session) -> bool:
    """The connection was lost: connect again with the same token and catch up (the missed
    chat; the state frame), trying for :data:`RECONNECT_FOR` seconds.  False if it never came back
    or the server no longer knows the game."""
    s.say("The connection to the server was lost; reconnecting...")
    seen = {ch: max(ms, default=0) for ch, ms in c.messages.items()}    # (the chat shown so far)
    loop = asyncio.get_running_loop()
    until = loop.time() + RECONNECT_FOR
    n = 0
    while True:
        await asyncio.sleep(RECONNECT_DELAYS[min(n, len(RECONNECT_DELAYS) - 1)])
        n += 1
        try:
            await c.reconnect()
        except ServerError as e:           # (the server is back and refuses: say why, and stop)
            s.say(f"The server is back but refuses this connection: {e}")
            return False
        except (TimeoutError, OSError, ConnectionError, aiohttp.ClientError) as e:
            if loop.time() >= until:
                s.say(f"Could not reconnect in {RECONNECT_FOR:g} s ({e or type(e).__name__}); "
                      "come back later with the same command.")
                return False
            continue
        s.say(f"Back in the game (seq {c.seq}, {c.status}; type view for the position now).")
        for ch, ms in sorted(c.messages.items()):           # (what was said meanwhile)
            for mid in sorted(m for m in ms if m > seen.get(ch, 0)):
                s.show_msg(ch, ms[mid])
        return True


async def _stdin_line(prompt: str) -> str | None:
    """The next line typed, read in a thread of its own that never holds the program's exit
    (QA: after the server closed, rcw play waited for Enter in a terminal, and for ever when piped:
    the event loop's executor joins its threads on the way out)."""
    loop = asyncio.get_running_loop()
    fut = loop.create_future()

    def read() -> None:
        line = sys.stdin.readline()
        with contextlib.suppress(RuntimeError):           # (the loop closed meanwhile: nobody waits)
            loop.call_soon_threadsafe(lambda: fut.done() or fut.set_result(line))
    threading.Thread(target=read, daemon=True, name="stdin").start()
    line = await fut
    return line.rstrip("\n") if line else None


async def main_async(args: argparse.Namespace, read: ReadLine = _stdin_line, out: TextIO = sys.stdout) -> int:
    base = args.url.rstrip("/")
    token = args.token
    game = args.game
    async with Lobby(base) as lobby:
        if game is None:
            spec: dict[str, Any] = {"players": args.players, "options": {"max_turns": args.max_turns} if args.max_turns else {}}
            if args.seed is not None:
                spec["seed"] = args.seed
            if args.deadline:
                spec["deadline"] = args.deadline
            if getattr(args, "postal", False):
                spec["mode"] = "postal"
            g = await lobby.create_game(**spec)
            game = g["game"]
            print(f"Created game {game} (admin token {g['admin_token']}).", file=out, flush=True)
        if token is None and not args.watch:
            j = await lobby.join(game, seat=args.seat, name=args.name)
            token = j["token"]
            print(f"You are seat {j['seat']} of game {game}; to come back: rcw play {base} --game {game} "
                  f"--token {token}", file=out, flush=True)
            if args.game is None:
                humans = args.humans
                if humans == 1:
                    await lobby.fill_bots(game, g["admin_token"])
                else:
                    print(f"Waiting for {humans - 1} more player(s): rcw play {base} --game {game}  "
                          f"(or fill the seats with bots: POST /api/games/{game}/bots with the admin token)",
                          file=out, flush=True)
    return await session(base, game, token, read, out)


def run(args: argparse.Namespace) -> int:
    if not args.url.startswith(("http://", "https://")):
        print(f"rcw play: {args.url!r} is not a server's address (http://HOST:PORT, e.g. http://127.0.0.1:8080)",
              file=sys.stderr)
        return 2
    if args.humans > args.players:
        print(f"rcw play: --humans {args.humans} is more than the game's {args.players} players", file=sys.stderr)
        return 2
    try:
        return asyncio.run(main_async(args))
    except KeyboardInterrupt:
        return 0
    except ServerError as e:
        print(f"rcw play: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"rcw play: cannot reach {args.url}: {e}", file=sys.stderr)
        return 1


def _duration(text: str) -> float | str:
    """``--deadline``: seconds, or a duration the server reads (``36h``)."""
    try:
        return float(text)
    except ValueError:
        return text


def add_parser(sub) -> None:
    p = sub.add_parser("play", help="play or watch a game on a server (rcw serve) in the terminal",
                       description="Play (or watch) a game on a server in the terminal.\n\n" + __doc__.split("\n\n", 1)[1],
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("url", nargs="?", default="http://127.0.0.1:8080",
                   help="the server (default http://127.0.0.1:8080)")
    p.add_argument("--game", help="the game to join or watch (default: create a new one)")
    p.add_argument("--token", help="your seat token, to come back to your seat")
    p.add_argument("--seat", help="the seat to take (default: the first open one)")
    p.add_argument("--name", help="your name at the table")
    p.add_argument("--watch", action="store_true", help="spectate: no seat")
    p.add_argument("--players", type=int, default=5, choices=range(3, 7), metavar="N",
                   help="a new game: players, 3-6 (default 5)")
    p.add_argument("--humans", type=whole(1, 6), default=1, metavar="K",
                   help="a new game: human seats; 1 fills the others with bots at once (default 1)")
    p.add_argument("--max-turns", type=whole(0), default=0, metavar="T",
                   help="a new game: end with no victor after T Game-Turns (default: no limit)")
    p.add_argument("--seed", type=whole(0, SEED_MAX), default=None, help="a new game: its seed (default random)")
    p.add_argument("--deadline", type=_duration, default=None, metavar="TIME",
                   help="a new game: a bot decides for a player who takes longer than this (a postal game: each "
                        "phase's deadline); seconds, or with a unit: 90s, 45m, 36h, 2d")
    p.add_argument("--postal", action="store_true",
                   help="a new game: the postal game of 004 [17.0] (order sheets, a phase at a time)")
    p.set_defaults(func=run)
