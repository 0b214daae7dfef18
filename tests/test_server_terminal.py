"""``rcw play``, the terminal client (server/play.py), against a real server: a whole game
played by typing numbers and commands, and the command line itself as a subprocess."""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import re
import sys
from pathlib import Path

import pytest
from rcw.server import play
from rcw.server.client import GameClient, Lobby
from rcw.server.config import Config
from rcw.server.store import MemoryStore
from server_helpers import needs_redis, running_server

ROOT = Path(__file__).resolve().parent.parent
PREFER = ("End", "ResolveAttack", "Pass", "Roll", "Draw", "CancelAttack")


def typist(out: io.StringIO, first: list[str]):
    """Types ``first``, then, each time a new list of choices is printed, the number of the
    first choice that moves the game on (an ``End...`` step, resolving an attack ...)."""
    handled = 0

    async def read(prompt: str) -> str | None:
        nonlocal handled
        if first:
            return first.pop(0)
        while True:
            text = out.getvalue()
            blocks = text.split("your decision (")
            if len(blocks) - 1 > handled:
                handled = len(blocks) - 1
                choices = re.findall(r"^\s+(\d+)\. (\S+)", blocks[-1], re.M)
                for want in PREFER:
                    for n, t in choices:
                        if t.startswith(want):
                            return n
                return choices[0][0] if choices else "view"
            await asyncio.sleep(0.01)

    return read


async def test_a_game_is_played_to_the_end_by_typing_in_the_terminal():
    async with running_server(MemoryStore(), Config()) as srv:
        args = argparse.Namespace(url=srv.base, game=None, token=None, seat=None, name="terminal", watch=False,
                                  players=3, humans=1, max_turns=1, seed=0, deadline=None)
        out = io.StringIO()
        read = typist(out, ["say public hello from the terminal", "view", "help", "99", "nonsense"])
        rc = await asyncio.wait_for(play.main_async(args, read, out), 60)
        text = out.getvalue()
        assert rc == 0, text[-2000:]
        assert "You are seat A of game" in text and "--token" in text
        assert "[public #1] A: hello from the terminal" in text
        assert "waiting for:" in text and "Politburo:" in text          # view
        assert "accept CHANNEL ID" in text                              # help
        assert "(no such choice now)" in text and "(type a number, or help)" in text
        assert "your decision (trading)" in text and "EndTrading" in text
        assert len(re.findall(r"^  - ", text, re.M)) > 20              # the events, as they happened
        assert "=== The game is over ===" in text
        gid = re.search(r"Created game (\S+) ", text).group(1)
        async with Lobby(srv.base) as lobby:
            record = await lobby.record(gid)
        assert any(a["seat"] == "A" and a["t"] == "EndTrading" for a in record["actions"])


async def test_rcw_play_on_the_command_line_watches_and_rejoins_a_seat():
    async with running_server(MemoryStore(), Config()) as srv, Lobby(srv.base) as lobby:
        g = await lobby.create_game(players=3, bot_seats=["B", "C"])
        a = await lobby.join(g["game"])
        b = await GameClient.connect(srv.base, g["game"], a["token"])
        await b.chat("A-B", "a private word")
        await b.close()
        env = dict(os.environ, PYTHONPATH=str(ROOT))

        async def rcw_play(*argv: str, stdin: bytes) -> str:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "server", "play", srv.base, "--game", g["game"], *argv,
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
                cwd=str(ROOT), env=env)
            outb, _ = await asyncio.wait_for(proc.communicate(stdin), 30)
            assert proc.returncode == 0, outb.decode()
            return outb.decode()

        watched = await rcw_play("--watch", stdin=b"view\nsay public hi\nquit\n")
        assert "as a spectator" in watched and "waiting for: A (trading)" in watched
        assert "refused: not_your_seat" in watched and "a private word" not in watched
        seat = await rcw_play("--token", a["token"], stdin=b"say public back again\nquit\n")
        assert "as seat A" in seat and "[A-B #1] A: a private word" in seat
        assert "your decision (trading)" in seat
        hist = await GameClient.connect(srv.base, g["game"])
        try:
            assert [m["text"] for m in await hist.history("public")] == ["back again"]
        finally:
            await hist.close()


class _Tty(io.StringIO):
    """An output that says it is a terminal (as a shell's would)."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("tty", [True, False], ids=["terminal", "piped"])
async def test_rcw_play_shows_the_board_and_the_vp_chart_as_tables(tty):
    """Issue 17: ``board`` (your stacks, with the engine's strengths) and ``vp`` (the Victory Point
    Chart and everyone's Red and White VP) in ``rcw play``; on a terminal ``rich`` tables with the
    factions in their colours (``view`` shows a row a player), piped the same words as plain text."""
    async with running_server(MemoryStore(), Config()) as srv:
        args = argparse.Namespace(url=srv.base, game=None, token=None, seat=None, name="terminal", watch=False,
                                  players=3, humans=1, max_turns=1, seed=0, deadline=None)
        out = _Tty() if tty else io.StringIO()
        typed = ["1", "board", "vp", "view", "quit"]          # (end the trading session, then look)

        async def read(prompt: str) -> str | None:
            if typed and typed[0] == "board":                 # (the stacks are on the map once the game moved on)
                while out.getvalue().count("your decision (") < 2:
                    await asyncio.sleep(0.01)
            return typed.pop(0) if typed else "quit"

        assert await asyncio.wait_for(play.main_async(args, read, out), 60) == 0
    text = out.getvalue()
    plain = re.sub(r"\x1b\[[0-9;]*m", "", text)
    assert re.search(r"Your stacks \(Game-Turn 1\):\n.*stack\s+province\s+owner\s+colour\s+units\s+strength", plain)
    assert re.search(r"^\s*\d+\s+[A-Z]{4} \(\w[^)]*\)\s+A\s+(Red|White)\s+[RW]L\d", plain, re.M)    # a stack of A's
    assert "Victory Point Chart" in plain and re.search(r"player\s+Red VP\s+White VP", plain)
    if tty:
        assert "─" * 20 in plain and re.search(r"\x1b\[[0-9;]*31m(Red|RL\d)", text)
        assert re.search(r"player\s+Politburo\s+Assassins\s+controls\s+Red VP\s+White VP", plain)
    else:
        assert "\x1b" not in text and "─" not in text and "  Politburo: A=" in text


async def test_a_postal_game_in_the_terminal_sheets_and_reports():
    """``rcw play --postal``: write a sheet (the engine's verdict on each order), send it, read
    the report pushed when the phase is adjudicated, and the archive (004 [17.0])."""
    async with running_server(MemoryStore(), Config()) as srv:
        args = argparse.Namespace(url=srv.base, game=None, token=None, seat=None, name="by post", watch=False,
                                  players=3, humans=1, max_turns=1, seed=3, deadline="1h", postal=True)
        out = io.StringIO()
        script = ['order {"order": "accept_gifts", "from": ["B"]}', "order {\"order\": \"purge\"}", "order [1]",
                  'move 99999 KURS-CHER', "sheet", "drop 3", "drop 2", "up 1", "send", "deadline", "sheet"]
        moved: dict = {}

        async def read(prompt: str) -> str | None:
            if script:
                await asyncio.sleep(0.05)
                return script.pop(0)
            for _ in range(600):
                if "REPORT OF GAME-TURN 1, THE PRE-SEASON TRADES" in out.getvalue():
                    break
                await asyncio.sleep(0.05)
            # (a move typed from where its unit stands, in the First Phase: that province leads no path)
            rt = next(iter(srv.hub.runtimes.values()))
            st = next(x for x in rt.game.view("A")["stacks"] if x["owner"] == "A")
            moved.update(unit=st["units"][0], start=st["province"])
            for line in (f"move {moved['unit']} {moved['start']}-XXXX", "reports", "report 1", "report 9", "quit"):
                script.append(line)
            read.__dict__["done"] = True
            return script.pop(0) if script else "quit"

        rc = await asyncio.wait_for(play.main_async(args, read, out), 60)
        text = out.getvalue()
        assert rc == 0, text[-3000:]
        assert "your orders are due" in text
        assert "(an order is a JSON object with an 'order' field)" in text
        assert re.search(r"2\. purge +<- refused: purge orders belong to the First Phase or the Second Phase.*"
                         r"\(004 \[17\.0\] postal \[4\.2\]\)", text)                  # the engine's verdict, as written
        assert re.search(r"3\. move unit=99999 path=KURS,CHER rail=False +<- refused", text)
        # (QA typed "move 151 PETR-NOVG" from PETR and read "the path enters PETR twice")
        assert re.search(rf"1\. move unit={moved['unit']} path=XXXX rail=False", text), text[-1500:]
        assert "(sheet sent: 1 order(s) kept, 0 refused)" in text                     # purge and move dropped first
        assert "(the phase closes in" in text and "sheets in:" in text
        assert "Your sheet for Game-Turn 1, first phase (not sent)" in text            # A's sheet closed the trades
        assert text.count("REPORT OF GAME-TURN 1, THE PRE-SEASON TRADES") >= 2      # pushed, then read again
        assert "1. Game-Turn 1, trading phase" in text and "(reports are numbered 1 to 1)" in text


@needs_redis
async def test_rcw_play_reconnects_when_the_server_restarts():
    """QA: the server restarted (kill -9, then started again on its Redis), rcw play said "The
    server closed the connection." and stopped (and waited for Enter to exit), while the browser's
    pages reconnected by themselves.  It says the connection was lost, reconnects with the same
    token, catches up, and goes on taking commands."""
    from browser_helpers import rcw_server
    from server_helpers import REDIS_URL, destroy_prefix, free_port, unique_prefix

    prefix, port = unique_prefix("play"), free_port()
    extra = ["--redis", REDIS_URL, "--prefix", prefix, "--bot-workers", "0"]
    out = io.StringIO()
    lines: asyncio.Queue = asyncio.Queue()

    async def read(prompt: str) -> str | None:
        return await lines.get()
    try:
        with rcw_server(extra, port=port) as base:
            async with Lobby(base) as lobby:
                g = await lobby.create_game(players=3, bot_seats=["B", "C"])
                a = await lobby.join(g["game"])
            task = asyncio.create_task(play.session(base, g["game"], a["token"], read, out))
            for _ in range(200):
                if "your decision (trading)" in out.getvalue():
                    break
                await asyncio.sleep(0.05)
            assert "your decision (trading)" in out.getvalue(), out.getvalue()
        assert not task.done(), out.getvalue()               # (the server is gone: rcw play waits for it)
        with rcw_server(extra, port=port):                   # (back, on the same Redis and address)
            # (said by A's other tab before rcw play is back: shown when it catches up, review)
            other = await GameClient.connect(f"http://127.0.0.1:{port}", g["game"], a["token"])
            await other.chat("public", "said while you were away")
            await other.close()
            for _ in range(400):
                if "Back in the game" in out.getvalue():
                    break
                await asyncio.sleep(0.05)
            text = out.getvalue()
            assert "The connection to the server was lost; reconnecting..." in text and "Back in the game" in text, text
            assert "[public #1] A: said while you were away" in text.split("Back in the game")[1], text[-1500:]
            await lines.put("say public still here")
            for _ in range(200):
                if "[public #2] A: still here" in out.getvalue():
                    break
                await asyncio.sleep(0.05)
            assert "[public #2] A: still here" in out.getvalue(), out.getvalue()[-1500:]
            await lines.put("quit")
            assert await asyncio.wait_for(task, 20) == 0
    finally:
        await destroy_prefix(prefix)
