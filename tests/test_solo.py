"""``rcw solo``: the terminal game against four SDT bots, played through to the end by a
scripted newcomer in a real pseudo-terminal, plus save/resume and ``--spi``."""

from __future__ import annotations

import io
import json
import os
import re
import select
import sys
import time

import pytest

from bots.solo import Solo
from rcw.cli import main

pty = pytest.importorskip("pty")

PROMPT = re.compile(r"Choose a number \(h for help\): $")
MENU_LINE = re.compile(r"^\s+(\d+)\. (.*)$")


class Term:
    """A tiny expect: the program runs in a pseudo-terminal, as in a newcomer's shell."""

    def __init__(self, args: list[str], cwd: str) -> None:
        pid, fd = pty.fork()
        if pid == 0:                                   # pragma: no cover - the child
            os.chdir(cwd)
            os.execv(sys.executable, [sys.executable, "-m", "rcw.cli", *args])
        self.pid, self.fd = pid, fd
        self.buf = ""
        self.transcript = []

    def expect(self, pattern: re.Pattern, timeout: float = 120) -> str:
        end = time.monotonic() + timeout
        while True:
            m = pattern.search(self.buf)
            if m:
                out, self.buf = self.buf[:m.end()], self.buf[m.end():]
                self.transcript.append(out)
                return out
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no {pattern.pattern!r} in:\n{self.buf[-3000:]}")
            r, _, _ = select.select([self.fd], [], [], min(left, 1.0))
            if r:
                try:
                    data = os.read(self.fd, 65536)
                except OSError:
                    data = b""
                if not data:
                    m = pattern.search(self.buf)
                    if m:
                        continue
                    raise EOFError(f"program ended; last output:\n{self.buf[-3000:]}")
                self.buf += data.decode("utf-8", "replace").replace("\r\n", "\n")

    def send(self, line: str) -> None:
        os.write(self.fd, (line + "\n").encode())

    def close(self, timeout: float = 30) -> int:
        end = time.monotonic() + timeout
        while time.monotonic() < end:                  # let the program finish and exit
            r, _, _ = select.select([self.fd], [], [], 0.5)
            if r:
                try:
                    if not os.read(self.fd, 65536):
                        break
                except OSError:
                    break
        try:
            os.close(self.fd)
        except OSError:
            pass
        _, status = os.waitpid(self.pid, 0)
        return os.waitstatus_to_exitcode(status)


ANY = re.compile(rf"{PROMPT.pattern}|FINAL SCORE[^\n]*\n")

# What a newcomer picks when unsure: the option that moves the game on.
PREFER = ("End the pre-game trading", "Roll for Random Events", "Draw from the Auxiliary", "Not now",
          "Agree to the Committee", "Declare no purge", "Execute the Czar", "Vote to go on",
          "This force stops here", "End the Combat Phase", "End the Movement Phase", "Roll the die")


def pick(menu: list[tuple[int, str]], state: dict) -> int:
    texts = [t for _, t in menu]
    # try things out once: move a force one step, make an attack the game offers
    if not state["moved"] and any(t.startswith("Move a force") for t in texts):
        state["moved"] = "start"
        return next(i for i, t in menu if t.startswith("Move a force"))
    if state["moved"] == "start" and any(t.startswith("Move to") for t in texts):
        state["moved"] = "done"
        return next(i for i, t in menu if t.startswith("Move to"))
    if not state["attacked"] and any(t.startswith("Attack ") for t in texts):
        state["attacked"] = "declared"
        return next(i for i, t in menu if t.startswith("Attack "))
    if state["attacked"] == "declared" and any(t.startswith("Add ") for t in texts):
        state["attacked"] = "added"
        return next(i for i, t in menu if t.startswith("Add "))
    if state["attacked"] == "added" and any(t.startswith("Roll the die") for t in texts):
        state["attacked"] = "done"
        return next(i for i, t in menu if t.startswith("Roll the die"))
    if state["attacked"] == "added" and any(t.startswith("Call off") for t in texts):
        state["attacked"] = "done"
        return next(i for i, t in menu if t.startswith("Call off"))
    for want in PREFER:
        for i, t in menu:
            if t.startswith(want):
                return i
    return menu[0][0]


def last_menu(text: str) -> list[tuple[int, str]]:
    lines = text.splitlines()
    out = []
    for line in reversed(lines[:-1]):
        m = MENU_LINE.match(line)
        if m:
            out.append((int(m.group(1)), m.group(2)))
        elif out:
            break
    return list(reversed(out))


def test_solo_played_to_the_end_by_a_newcomer(tmp_path):
    t = Term(["solo", "--seed", "3", "--max-turns", "40", "--save", str(tmp_path / "game.json")], str(tmp_path))
    state = {"moved": "", "attacked": ""}
    looked = False
    prompts = 0
    try:
        while True:
            out = t.expect(ANY)
            if "FINAL SCORE" in out:
                break
            prompts += 1
            if not looked:
                looked = True
                for cmd, header in (("h", "board (your stacks"), ("b", "Your stacks"), ("v", "Victory Point chart"),
                                    ("k", "Markers and attitudes"), ("s", "Saved to")):
                    t.send(cmd)
                    seen = t.expect(PROMPT)
                    assert header in seen, (cmd, seen[-2000:])
                out = seen
            menu = last_menu(out)
            assert menu, out[-2000:]
            t.send(str(pick(menu, state)))
            assert prompts < 5000
    finally:
        code = t.close()
    text = "".join(t.transcript)
    assert code == 0
    assert "The game is over" in text and "FINAL SCORE" in text
    assert re.search(r"FINAL SCORE A=\d+ B=\d+ C=\d+ D=\d+ E=\d+", text)
    assert "rolls" in text and "Strategy Determination Table" in text      # bots explain themselves
    assert "Your stacks" in text and "Enemies within reach" in text
    assert (tmp_path / "game.json").exists()
    assert state["moved"] == "done"


def _feed(lines: list[str]) -> io.StringIO:
    return io.StringIO("".join(f"{x}\n" for x in lines))


def test_save_and_resume(tmp_path):
    path = str(tmp_path / "s.json")
    out = io.StringIO()
    # a few decisions (end trading, roll, ...), then q: save and quit
    solo = Solo(5, {}, out=out, inp=_feed(["1"] * 12 + ["q"]))
    solo.save_path = path
    assert solo.run() == 0
    saved = json.load(open(path))
    assert saved["record"]["seed"] == 5 and saved["human"]
    n = len(saved["record"]["actions"])
    again = Solo(saved["seed"], saved["options"], out=io.StringIO(), inp=_feed(["q"]), script=saved["human"])
    again.save_path = str(tmp_path / "t.json")
    assert again.run() == 0
    resumed = json.load(open(tmp_path / "t.json"))
    assert resumed["record"]["actions"][:n] == saved["record"]["actions"]
    assert len(resumed["record"]["actions"]) >= n
    assert again.g.state_hash() == solo.g.state_hash()


def test_spi_not_available(capsys):
    assert main(["solo", "--spi"]) == 2
    assert "not available yet" in capsys.readouterr().err


def test_piped_choices_are_echoed_and_a_turn_limit_game_ends_with_the_score():
    """Input from a pipe is echoed after the prompt (so a transcript reads well), and a game
    stopped by the turn limit still ends with every player's Red and White Victory Points."""
    out = io.StringIO()
    solo = Solo(3, {"max_turns": 1}, out=out, inp=_feed(["1"] * 400))
    assert solo.run() == 0
    text = out.getvalue()
    assert "Choose a number (h for help): 1\n" in text
    assert "The game is over" in text and "No side won" in text
    assert re.search(r"FINAL SCORE no victor; Red VP A=\d+ B=\d+ C=\d+ D=\d+ E=\d+; White VP A=\d+ B=\d+ C=\d+ "
                     r"D=\d+ E=\d+", text)
    assert re.search(r"\* [B-E]: moves \S.* to \S+: ", text)          # bot moves come with a reason
    assert "Strategy Determination Table" in text


def test_cli_save_quit_resume_and_finish(tmp_path, monkeypatch, capsys):
    """``rcw solo --save F`` then q; ``rcw solo --load F`` replays the saved game silently
    and goes on to the end, finishing with the score."""
    path = str(tmp_path / "g.json")
    monkeypatch.setattr(sys, "stdin", _feed(["1"] * 3 + ["q"]))
    assert main(["solo", "--seed", "8", "--max-turns", "1", "--save", path]) == 0
    first = capsys.readouterr().out
    assert "Saved to" in first and "FINAL SCORE" not in first
    saved = json.load(open(path))
    assert saved["options"] == {"max_turns": 1}
    monkeypatch.setattr(sys, "stdin", _feed(["1"] * 400))
    assert main(["solo", "--load", path]) == 0
    second = capsys.readouterr().out
    assert "(resumed: the saved game has been replayed)" in second
    assert "FINAL SCORE" in second
    # the replay is silent: what was shown before is not shown again
    assert "pre-game trading session" not in second
