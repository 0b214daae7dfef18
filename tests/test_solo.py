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
from rcw.bots.solo import HUMAN, NEAREST, Solo

from rcw import actions as A
from rcw.actions import action_from_wire
from rcw.cli import main

pty = pytest.importorskip("pty")

PROMPT = re.compile(r"Choose a number \(h for help\): $")
MENU_LINE = re.compile(r"^\s+(\d+)\. (.*)$")


class Term:
    """A tiny expect: the program runs in a pseudo-terminal, as in a newcomer's shell."""

    def __init__(self, args: list[str], cwd: str, env: dict | None = None) -> None:
        pid, fd = pty.fork()
        if pid == 0:                                   # pragma: no cover - the child
            os.chdir(cwd)
            os.execve(sys.executable, [sys.executable, "-m", "rcw.cli", *args], {**os.environ, **(env or {})})
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
    """The last numbered choices before the prompt (a choice wrapped on a terminal continues on
    lines indented under its text)."""
    menu: list[list] = []
    items: list[list] | None = None
    for line in text.splitlines()[:-1]:
        m = MENU_LINE.match(line)
        if m:
            items = (items or []) + [[int(m.group(1)), m.group(2)]]
        elif items and line.startswith(" " * 6) and line.strip():
            items[-1][1] += " " + line.strip()
        else:
            menu, items = items or menu, None
    return [(n, t) for n, t in (items or menu)]


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
    assert re.search(r"FINAL SCORE: A=\d+ B=\d+ C=\d+ D=\d+ E=\d+", text)
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


def test_the_bots_see_the_humans_acts_through_the_match_loop(tmp_path):
    """``rcw solo`` drives the game with the match loop (rcw.bots.match): your actions are
    applied there too, so the bots see their events.  A Politburo marker you give B with
    ``g B 1 0`` (B accepts a gift) moves B's PCT marker for you two columns left ("For each
    Politburo marker given to another player, shift marker 2 columns left")."""
    from rcw.bots import sdt_tables as T

    def until_first_prompt(lines: list[str]) -> Solo:
        solo = Solo(3, {"max_turns": 2}, out=io.StringIO(), inp=_feed(lines))
        solo.save_path = str(tmp_path / "g.json")
        solo.g.state.politburo["A"] = 2
        assert solo.run() == 0
        return solo

    before = until_first_prompt(["1", "q"]).bots["B"].relation("A", "B")
    after = until_first_prompt(["1", "g B 1 0", "q"])
    assert any(e["t"] == "OfferTrade" for e in after.human_log)
    assert after.g.view("A")["politburo"]["B"] >= 1
    assert after.bots["B"].relation("A", "B") == T.shift(before, T.SHIFT_POLITBURO_GIFT)
    assert after.bots["C"].relation("A", "B") == after.bots["B"].relation("A", "B")    # every bot saw it
    # one table for the game: every bot reads the match's, and so does the attitude column
    assert all(b.table is after.match.table for b in after.bots.values())
    assert after.table() is after.match.table


def test_the_attitude_column_shows_the_games_one_table():
    """``k`` shows the game's one Player Cooperation Table (the Fanatics article keeps one; its
    second row for a pair is "redundant"): each bot's column toward you is the table's, set
    up at the deal."""
    out = io.StringIO()
    solo = Solo(3, {"max_turns": 2}, out=out, inp=_feed([]))
    while solo.g.phase == "trading":
        step = solo.match.next_step()
        if step is None:
            solo.apply(A.EndTrading(HUMAN))
        else:
            solo.match.apply(step.seat, step.action, step.kind)
    t = solo.match.table
    assert t.started and all(b.table is t for b in solo.bots.values())
    solo.show_markers()
    text = out.getvalue()
    for p in "BCDE":
        assert f"toward you {t.relation(p, HUMAN)};" in text
    assert "(you) friendliest" in text


def test_spi_solitaire_played_to_the_end_by_scripted_input(tmp_path, monkeypatch, capsys):
    """``rcw solo --spi``: the SPI solitaire (004 [18.0]-[28.0]) as the Red Player.  Scripted input
    looks at the board (b), the non-Red forces (n), the objective (o) and help (h), saves and
    quits; ``--spi --load`` replays the save and the game goes on to its victory level."""
    from rcw.bots.spi_solo import SPISolo

    path = str(tmp_path / "spi.json")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", _feed(["h", "b", "n", "o", "1", "1", "q"]))
    assert main(["solo", "--spi", "--seed", "3", "--save", path]) == 0
    first = capsys.readouterr().out
    for text in ("Non-Red: ", "004 [21.12]", "Non-Red stacking", "must attack the weakest", "Your stacks",
                 "Non-Red forces", "Objective (004 [28.11])", "d LEADER PROVINCE", "Choose a number (h for help): ",
                 "Saved to"):
        assert text in first, text
    saved = json.load(open(path))
    assert saved["mode"] == "spi-solitaire" and saved["record"]["options"] == {"mode": "spi-solitaire"}
    assert saved["record"]["actions"][0]["t"] == "RollRandomEvents"
    monkeypatch.setattr(sys, "stdin", _feed(["1"] * 3000))
    assert main(["solo", "--spi", "--load", path]) == 0
    second = capsys.readouterr().out
    assert "(resumed: the saved game has been replayed" in second
    assert "=== The game is over ===" in second
    assert re.search(r"FINAL SCORE: (Red (Decisive|Substantive|Marginal) Victory|non-Red Decisive Victory|Draw) "
                     r"on Game-Turn [1-7]; non-Red units left in the Red objective regions: \d+", second)
    assert "Non-Red: " not in second.split("(resumed")[0]          # the replay itself is silent
    # the same game driven in-process, choosing leaders and places in the two-step menu
    out = io.StringIO()
    solo = SPISolo(5, out=out, inp=_feed(["1"] * 3000))
    assert solo.run() == 0
    text = out.getvalue()
    assert "FINAL SCORE" in text and solo.g.over
    assert solo.g.record()["actions"] and solo.g.result["victory"] in ("red_decisive", "red_substantive",
                                                                     "red_marginal", "draw", "nonred_decisive")


def test_spi_leader_deployment_menu_and_typed_deploy():
    """004 [24.0]: the Red Leader Determination Phase asks for a leader, then a place; 'd LEADER
    PROVINCE' deploys one anywhere the rules allow."""
    from rcw.bots.spi_solo import SPISolo

    for seed in range(1, 60):
        probe = SPISolo(seed, out=io.StringIO(), inp=_feed([]))
        g = probe.g
        if g.pending == [{"seat": "R", "kind": "random_events"}] and g.ctx.b.stack_of(152) \
                and not g.state.solo["rld_skips"]:
            break
    held = g.ctx.b.stack_of(g.view("R")["solitaire"]["objective_left"][0]).province   # holds non-Red units
    out = io.StringIO()
    solo = SPISolo(seed, out=out, inp=_feed(["1", "d Nobody TVER", f"d Frunze {held}", "d Frunze VLDM", "q"]))
    solo.save_path = os.devnull
    assert solo.run() == 0
    text = out.getvalue()
    assert "Choose a leader to deploy" in text and "No leader called Nobody" in text
    assert "Not allowed: 004 [24.11]" in text
    frunze = solo.g.data.by_name("Frunze").id
    assert solo.g.ctx.b.stack_of(frunze).province == "VLDM"


def test_piped_choices_are_echoed_and_a_turn_limit_game_ends_with_the_score():
    """Input from a pipe is echoed after the prompt (so a transcript reads well), and a game
    stopped by the turn limit still ends with every player's Red and White Victory Points."""
    out = io.StringIO()
    solo = Solo(3, {"max_turns": 1}, out=out, inp=_feed(["1"] * 400))
    assert solo.run() == 0
    text = out.getvalue()
    assert "Choose a number (h for help): 1\n" in text
    assert "The game is over" in text and "No side won" in text
    assert re.search(r"FINAL SCORE: no victor; Red VP A=\d+ B=\d+ C=\d+ D=\d+ E=\d+; White VP A=\d+ B=\d+ C=\d+ "
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


def test_a_bots_move_is_one_line_unless_verbose(tmp_path, monkeypatch, capsys):
    """QA: a phase screen ran past 100 lines at 80x24, most of them the bots' forces' steps.
    ``rcw solo`` shows a bot's move by its force's start and end (with the route); the player's
    own steps, and with ``--verbose`` the bots' too, one a line."""
    monkeypatch.chdir(tmp_path)
    played = {}
    for flag in ([], ["--verbose"]):
        # (seed 3: A ends the trading, rolls, and moves Stalin from KURS to CHER, then ends each step)
        monkeypatch.setattr(sys, "stdin", _feed(["1", "1", "2", "4"] + ["1"] * 400))
        assert main(["solo", "--seed", "3", "--max-turns", "1", *flag]) == 0
        played[bool(flag)] = capsys.readouterr().out
    brief, verbose = played[False], played[True]
    step = re.compile(r"^  - .+ \(([B-E])\) moves \w+→\w+ ", re.M)
    ends = re.compile(r"^  - Force ends its move in \w+ \(route ", re.M)
    assert step.search(verbose) and not step.search(brief), "a bot's steps"
    assert len(ends.findall(brief)) == len(ends.findall(verbose)) > 0      # (the same game, every move's route)
    assert re.search(r"^  - Stalin \(A\) moves KURS→CHER overland", brief, re.M), "the player's own steps"
    assert len(brief.splitlines()) < 0.8 * len(verbose.splitlines())
    # the Movement Phase's screen lists the nearest enemy stacks within reach; b, more
    table = brief[brief.index("=== Game-Turn 1, your movement phase"):].split("Your choices:")[0]
    listed = re.findall(r"^  \d+ +\w+ \(.+\) +[A-E-] +\w+ .* from stack \d+", table, re.M)
    assert len(listed) == NEAREST and re.search(r"\(\d+ more, farther away: b lists the nearest 25\)", table), table


def test_an_spi_solitaire_save_is_refused_by_the_five_player_game_and_kept(tmp_path, monkeypatch, capsys):
    """Found by an operator's QA: ``rcw solo --load`` of an SPI solitaire save started a
    five-player game of its seed and, on q, wrote that game over the save: the SPI game was lost.
    Now it is refused with the command that resumes it, and the file is left as it was."""
    path = tmp_path / "spi.json"
    monkeypatch.setattr(sys, "stdin", _feed(["q"]))
    assert main(["solo", "--spi", "--seed", "2", "--save", str(path)]) == 0
    kept = path.read_bytes()
    capsys.readouterr()
    monkeypatch.setattr(sys, "stdin", _feed(["q"]))
    assert main(["solo", "--load", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"is an SPI solitaire save (resume it with: rcw solo --spi --load {path})" in err, err
    assert path.read_bytes() == kept
    monkeypatch.setattr(sys, "stdin", _feed(["q"]))
    assert main(["solo", "--spi", "--load", str(path)]) == 0
    assert "resumed" in capsys.readouterr().out


@pytest.mark.parametrize("spi", [False, True])
def test_a_save_file_that_cannot_be_read_or_written_is_said_in_one_line(tmp_path, monkeypatch, capsys, spi):
    """Found by an operator's QA: a missing file, a file of ``{}`` or ``[]`` or of no JSON, ended
    in tracebacks, and ``--save`` into a directory that does not exist let the game be played and
    then lost when q could not save it.  Each is now one line before the game starts (exit 2)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "empty.json").write_text("{}")
    (tmp_path / "list.json").write_text("[]")
    (tmp_path / "text.json").write_text("not json")
    spi_arg = ["--spi"] if spi else []
    cases = [(["--load", "missing.json"], "cannot read missing.json: No such file or directory"),
             (["--load", "empty.json"], "empty.json is not a saved game of rcw solo"),
             (["--load", "list.json"], "list.json is not a saved game of rcw solo"),
             (["--load", "text.json"], "text.json is not a saved game (not JSON"),
             (["--save", "no/such/dir/g.json"], "cannot save to no/such/dir/g.json: there is no directory no/such/dir"),
             (["--save", "."], "cannot save to .: it is a directory")]
    for args, says in cases:
        monkeypatch.setattr(sys, "stdin", _feed(["1"] * 5 + ["q"]))
        assert main(["solo", *spi_arg, *args]) == 2, args
        out = capsys.readouterr()
        assert f"rcw solo: {says}" in out.err and "Traceback" not in out.err, (args, out.err)
        assert "Russian Civil War" not in out.out, args           # (no game was started)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.json", "list.json", "text.json"]


def test_the_pre_game_trading_session_shows_the_hands_and_trades_leaders(tmp_path, monkeypatch):
    """Issue 17: in the pre-game trading session (004 [15.3]) the terminal player sees the hands
    dealt and the PIT from them (PCM was 0 for everyone), and can offer trades of leaders and
    markers (004 [15.33]); the bots answer by their policy (a gift is taken, a swap declined)."""
    monkeypatch.chdir(tmp_path)
    probe = Solo(3, {"max_turns": 2}, out=io.StringIO(), inp=_feed([]))
    v = probe.g.view("A")
    units = probe.g.data.units
    mine = sorted(v["hands"]["A"], key=lambda u: -units[u].strength)
    gift, theirs = mine[0], v["hands"]["B"][0]
    out = io.StringIO()
    lines = ["d", "k", f"t B give={units[gift].name}", f"t B give={mine[1]} take={units[theirs].name}", "t B give=Nobody", "q"]
    solo = Solo(3, {"max_turns": 2}, out=out, inp=_feed(lines))
    solo.run()
    text = out.getvalue()
    assert text.count("The hands dealt") >= 2 and f"#{gift}" in text
    red = sum(units[u].strength for u in v["hands"]["A"] if units[u].color == "Red")
    white = sum(units[u].strength for u in v["hands"]["A"] if units[u].color == "White")
    assert f"{red}-{white}={red - white}" in text                       # the PIT from the hand, not 0-0=0
    after = solo.g.view("A")["hands"]
    assert gift in after["B"] and gift not in after["A"]                 # the gift taken (a bot accepts gifts)
    assert mine[1] in after["A"] and theirs in after["B"]                # the swap declined
    assert "B declines" in text and "No leader 'Nobody' in A's hand" in text


ESC = re.compile(r"\x1b\[[0-9;]*m")


def _terminal(args: list[str], typed: list[str], cwd, env: dict | None = None) -> str:
    """What ``rcw ARGS`` shows in a pseudo-terminal when ``typed`` is typed at its prompts."""
    t = Term(args, str(cwd), env)
    try:
        seen = [t.expect(PROMPT)]
        for line in typed:
            t.send(line)
            seen.append(t.expect(PROMPT if line != "q" else re.compile(r"Saved to[^\n]*\n")))
    finally:
        t.close()
    return "".join(seen)


def test_on_a_terminal_rcw_solo_draws_rich_tables_with_the_factions_in_colour(tmp_path):
    """Issue 17: in a terminal ``rcw solo`` draws the hands dealt, the markers with the Political
    Indicator Table (k) and the Victory Point chart (v) as ``rich`` tables, the factions' names
    and the counters' labels (RL2, WU3) in their colours; the numbered choices stay plain lines.
    NO_COLOR keeps the tables and drops the colours."""
    text = _terminal(["solo", "--seed", "3", "--max-turns", "1", "--save", str(tmp_path / "g.json")], ["k", "v", "q"], tmp_path)
    plain = ESC.sub("", text)
    assert "The hands dealt" in plain and "Markers and attitudes" in plain and "Victory Point chart" in plain
    assert "─" * 20 in plain                                                    # rich's rules under the headers
    assert re.search(r"\x1b\[[0-9;]*31m(Red|RL\d)", text) and re.search(r"\x1b\[[0-9;]*47m(White|WL\d)", text)
    # (the Fanatics article's PIT: "on game turn one the boundaries are one and five")
    assert "Political Indicator Table on Game-Turn 1: PCM 6 or more Red, 1-5 Undecided, 0 or less White" in " ".join(plain.split())
    first = text.split("Choose a number")[0] + "Choose a number"                  # the choices: plain lines
    assert last_menu(first) == last_menu(ESC.sub("", first))
    assert any(t.startswith("End the pre-game trading") for _, t in last_menu(first))
    bare = _terminal(["solo", "--seed", "3", "--max-turns", "1", "--save", str(tmp_path / "h.json")], ["q"], tmp_path,
                     {"NO_COLOR": "1"})
    assert "─" * 20 in bare and not re.search(r"\x1b\[[0-9;]*3[0-7]m", bare)


def test_on_a_terminal_the_spi_solitaire_colours_red_and_non_red_forces(tmp_path):
    """``rcw solo --spi`` in a terminal: your stacks and the non-Red forces (b) as rich tables, the
    Red, Blue, Green and White units in their colours."""
    text = _terminal(["solo", "--spi", "--seed", "3", "--save", str(tmp_path / "s.json")], ["b", "q"], tmp_path)
    plain = ESC.sub("", text)
    assert "Your stacks (Game-Turn 1 of 7)" in plain and "Non-Red forces" in plain and "─" * 20 in plain
    for colour in ("31", "34", "32"):                                         # Red, Blue, Green counters
        assert re.search(rf"\x1b\[[0-9;]*{colour}m[RBG][LU]\d", text), colour


def test_piped_output_stays_plain_text(tmp_path):
    """Not a terminal (a pipe, a file, a test): the same words in aligned columns, no escape codes."""
    out = io.StringIO()
    solo = Solo(3, {"max_turns": 1}, out=out, inp=_feed(["k", "v", "q"]))
    solo.save_path = str(tmp_path / "p.json")
    assert solo.run() == 0
    text = out.getvalue()
    assert "\x1b" not in text and "─" not in text
    assert re.search(r"^  player\s+leaders\s+PCM\s+Politburo\s+Assassins$", text, re.M)
    assert "Political Indicator Table on Game-Turn 1: PCM 6 or more Red, 1-5 Undecided, 0 or less White" in text


@pytest.mark.parametrize("spi", [False, True])
def test_q_does_not_quit_a_game_it_could_not_save(tmp_path, monkeypatch, capsys, spi):
    """Found by an operator's QA: q said "Could not save" and quit all the same, and the game was
    lost.  Now the game goes on (the player is told), q! quits without saving, and the end of
    input, with no one left to ask, tries once more and quits."""
    path = tmp_path / "g.json"

    class Typed(io.StringIO):
        def readline(self, *a):          # the save file's place is taken (by a directory) once the game runs
            line = super().readline(*a)
            if line == "q\n" and not path.exists():
                path.mkdir()
            return line

    spi_arg = ["--spi"] if spi else ["--max-turns", "1"]
    for typed, quits_by in ((["1", "1", "q", "1", "q!"], "Quit without saving."), (["1", "q"], None)):
        if path.exists():
            path.rmdir()
        monkeypatch.setattr(sys, "stdin", Typed("".join(f"{x}\n" for x in typed)))
        assert main(["solo", *spi_arg, "--seed", "8", "--save", str(path)]) == 0
        out = capsys.readouterr().out
        assert out.count(f"Could not save to {path}") == (1 if quits_by else 2), out[-2000:]
        after_q = out.split("so it goes on: type s to try again, or q! to quit without saving.")
        assert len(after_q) == 2, out[-2000:]                  # (said once: the game went on after the q)
        if quits_by:
            assert "Choose a number" in after_q[1] and quits_by in after_q[1]
        assert path.is_dir() and "FINAL SCORE" not in out


def test_a_save_whose_decisions_or_seed_are_wrong_is_said_in_one_line(tmp_path, monkeypatch, capsys):
    """Found by an operator's QA: a five-player save with a malformed ``human`` list (not a list,
    not objects, an unknown action) ended in a traceback, one whose decision is not legal where
    it replays too, and a negative seed was played.  Each is now one line (exit 2), the file kept."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", _feed(["1"] * 3 + ["q"]))
    assert main(["solo", "--seed", "8", "--max-turns", "1", "--save", "good.json"]) == 0
    good = json.loads((tmp_path / "good.json").read_text())
    assert good["human"][0] == {"t": "EndTrading", "seat": "A"}
    capsys.readouterr()
    cases = [({"human": 5}, "is not a saved game of rcw solo (its human decisions are not a list)"),
             ({"human": [1, 2]}, "is not a saved game of rcw solo (decision 1: not a JSON object)"),
             ({"human": [{"t": "Bogus"}]}, "is not a saved game of rcw solo (decision 1: protocol: unknown action type 'Bogus'"),
             ({"human": [{"t": "_pact", "with": "B"}]}, "is not a saved game of rcw solo (decision 1: a pact needs 'with' (a seat) and 'until'"),
             ({"human": [{"t": "EndMovement", "seat": "A"}]}, "does not replay: its decision 1 (EndMovement) is not legal there"),
             ({"seed": -5}, "is not a saved game of rcw solo (its seed is not in 0..")]
    for change, says in cases:
        (tmp_path / "bad.json").write_text(json.dumps(good | change))
        monkeypatch.setattr(sys, "stdin", _feed(["1"] * 5 + ["q"]))
        assert main(["solo", "--load", "bad.json"]) == 2, change
        err = capsys.readouterr().err
        assert f"rcw solo: bad.json {says}" in err and "Traceback" not in err, (change, err)
        assert json.loads((tmp_path / "bad.json").read_text()) == good | change      # (not written over)


def test_every_choice_and_decision_reads_as_words():
    """Found by a QA player: the redraw choice read "RedrawChit {'redraw': False}", the purge's
    "EndSpoils", and the decisions were headed "Decide (purge_approval)".  Every action the
    multi-player game lists (``rcw.actions.describe_actions``' examples) is now a sentence, and
    every decision out of turn has a heading; a consent with no Committee sitting (004 [11.12])
    is withdrawn, not "left"."""
    from rcw.bots.terminal import DECISIONS

    from rcw.actions import describe_actions

    solo = Solo(3, {"max_turns": 1}, out=io.StringIO(), inp=_feed([]))
    solo.apply(A.EndTrading("A"))
    while (step := solo.match.next_step()) is not None:        # (the bots end the session: the map is set up)
        solo.match.apply(step.seat, step.action, step.kind)
    v = solo.view()
    for d in describe_actions():
        if d["type"] in ("Quit", "OfferTrade"):          # (never a numbered choice: q, and the t command)
            continue
        stacks = {k: v["stacks"][i]["id"] for i, k in enumerate(("target", "stack", "into", "to_stack"))
                  if type(d["example"].get(k)) is int}     # (stacks of this game's map)
        a = action_from_wire(d["example"] | {"seat": "A"} | stacks)
        text = solo.describe(a, v)
        assert text != d["type"] and not text.startswith(d["type"] + " {"), (d["type"], text)   # (not the raw action)
    kinds = {"loss", "capture", "vote", "purge_approval", "purge_orders", "spoils", "counterpurge",
             "execution_consent", "execution", "redraw", "place", "red_terror"}   # (the engine's decisions)
    assert kinds <= set(DECISIONS)
    solo.apply(A.JoinCommittee("A", ("A", "B")))
    v = solo.view()
    assert solo.describe(A.LeaveCommittee("A"), v) == "Withdraw your consent to a Central Committee of A, B"
    out = solo.out.getvalue()
    solo.apply(A.LeaveCommittee("A"))
    assert "A withdraws its consent to a Central Committee of A, B" in solo.out.getvalue()[len(out):]


def test_a_consent_to_a_bots_committee_is_not_answered_as_a_proposal(tmp_path, monkeypatch, capsys):
    """Found by a QA player (seed 5): B called a Central Committee and A consented; C then
    "declined: it answers a Central Committee in its convener's Movement Phase (now B is
    phasing)", D and E "joined: a member of the Committee A calls", and B "joined" its own
    Committee: the bots answered A's consent as if A had proposed it.  They answer B's call by
    their Purge Cooperation rolls, said once (004 [11.1]), and say nothing to A of a proposal."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", _feed(["1"] * 300))
    assert main(["solo", "--seed", "5", "--max-turns", "1", "--save", "g.json"]) == 0
    out = capsys.readouterr().out
    assert "> B: B invites you to a Central Committee of A, B, C, D, E" in out      # (the case is played)
    # (and says whom it would purge: QA read a Committee of all five "to purge" as pointless)
    assert ("to purge the player least friendly to B among those who stay out; if all join, no purge "
            "(Purge Cooperation)") in out
    assert "* C: refuses B's Central Committee (rolled 1, PCT 2)" in out
    assert "convener's Movement Phase" not in out and "the Committee A calls" not in out
    assert "B joins: B consents to this Central Committee already" not in out


def test_a_command_typed_short_or_naming_no_player_says_how_it_is_typed(tmp_path, monkeypatch, capsys):
    """Found by a QA player: ``t``, ``g B``, ``g B 1`` and ``c`` alone got only "Please type one
    of the numbers above", ``t Z give=Frunze`` said Frunze was not in A's hand, and ``c Z,Q``
    named only Q.  Each now says how the command is typed, or which player does not exist."""
    monkeypatch.chdir(tmp_path)
    typed = ["t", "g B", "g B 1", "g B x 0", "c", "p", "t Z give=Frunze", "c Z,Q", "g F 1 0", "q!"]
    monkeypatch.setattr(sys, "stdin", _feed(typed))
    assert main(["solo", "--seed", "8", "--max-turns", "1"]) == 0
    out = capsys.readouterr().out
    said = [line.split(": ", 1)[1] if ": " in line else line for line in out.splitlines()
            if line.startswith("Choose a number (h for help): ")]
    assert said[:len(typed)] == typed                     # (each line was read at the same prompt)
    others = "(the other players: B, C, D, E)"
    assert out.count(f"t B give=Frunze,12 take=Kolchak pm=1 am=0 tpm=0 tam=1: offer B a trade {others}") == 1
    assert out.count(f"g B 1 0: give B 1 Politburo and 0 Assassin markers {others}") == 3
    assert out.count(f"c B,C: propose a Central Committee of you, B and C {others}") == 1
    assert out.count(f"p B 3: propose B a pact until the end of Game-Turn 3 (p B: agree to B's) {others}") == 1
    assert f"No player Z {others}" in out and f"No player Z, Q {others}" in out and f"No player F {others}" in out
    assert "Please type one of the numbers above" not in out and "No leader 'Frunze'" not in out


def test_an_offer_of_leaders_names_them():
    """Found by a QA player: a bot's counter-offer read "Accept B's offer #2: wants 1 Politburo,
    leaders", the leaders unnamed."""
    from rcw.bots.terminal import unit_name

    solo = Solo(3, {"max_turns": 1}, out=io.StringIO(), inp=_feed([]))
    v = solo.view()
    mine, theirs = v["hands"]["A"][0], v["hands"]["B"][0]
    text = solo.offer_text({"give_leaders": [theirs], "take_leaders": [mine], "take_politburo": 1})
    assert text == f"gives you {unit_name(theirs)}; wants {unit_name(mine)} and 1 Politburo"
    assert solo.offer_text({"give_assassins": 1}) == "gives you 1 Assassin"


@pytest.mark.parametrize("width", [80, 60, 40])
def test_a_table_on_a_terminal_fits_it_and_loses_nothing(width):
    """Found by a QA player: on an 80-column terminal the five-player game's "Enemies within
    reach" table was 82 columns wide (every row wrapped), and rich, left to share a narrow
    terminal's room, cropped a column's text or dropped a column.  A table now fits the
    terminal, shows every column's header, and every character of its rows."""
    import re
    from collections import Counter

    from rcw.bots.terminal import Screen

    header = ["stack", "province", "owner", "colour", "units", "defense", "moves", "odds"]
    rows = [["104", "CHEL (Chelyabinsk)", "-", "Blue", "BU1, BU2, CZ3", "7", "3 MP from stack 102", "2:1 at best"],
            ["99", "BAKU (Baku)", "C", "Green", "GU2 BAKU/TC", "2", "DAGH-TERE-STAV-KUBA-DCOS-KHAR-KURS-OREL", "1:2"]]
    out = io.StringIO()
    screen = Screen(out, fancy=True)
    screen.console.width = width
    screen.table(rows, header)
    lines = [re.sub(r"\x1b\[[0-9;]*m", "", line) for line in out.getvalue().splitlines()]
    assert max(map(len, lines)) <= width, lines
    rule = next(i for i, line in enumerate(lines) if line and set(line) <= {"─"})
    body = lines[rule + 1:]                      # (the rows, under the header and its rule)
    if width >= 60:                              # (room for every header whole)
        assert rule == 1 and lines[0].split() == header, lines[0]
    assert Counter("".join(body).replace(" ", "")) == Counter("".join(map("".join, rows)).replace(" ", "")), lines


def test_the_hands_after_the_trading_session_are_not_shown_as_empty():
    """Found by a QA player: ``d`` after the pre-game session showed every player with no
    leaders and a PCM of 0-0=0, while ``k`` showed the real ones."""
    out = io.StringIO()
    solo = Solo(3, {"max_turns": 1}, out=out, inp=_feed([]))
    solo.show_hands()
    assert "The hands dealt" in out.getvalue() and "0-0=0" not in out.getvalue()
    solo.apply(A.EndTrading("A"))
    while (step := solo.match.next_step()) is not None:
        solo.match.apply(step.seat, step.action, step.kind)
    before = len(out.getvalue())
    solo.show_hands()
    said = out.getvalue()[before:]
    assert "the pre-game trading session, which is over" in said and "0-0=0" not in said


def test_an_attack_no_group_brings_to_1_2_is_not_offered():
    """Found by a QA player: "Attack stack 104 ... your units able to join: 2 (below 1:2)" was
    a choice; declared, it could only be called off (004 [8.47]: no attack may be made at less
    than 1:2).  The terminal games leave out what the engine's attack options call impossible."""
    from rcw.bots import make_agent
    from rcw.bots.match import Match
    from rcw.bots.terminal import futile

    from rcw.game import Game

    g = Game.new(5, 0, {"max_turns": 4})
    m = Match(g, {p: make_agent("sdt", p, 0) for p in g.seats})
    while g.version < 63:                        # (seed 0: E's Combat Phase, one target out of reach)
        step = m.next_step()
        m.apply(step.seat, step.action, step.kind)
    me = m.player("E")
    opts = me.attack_options()
    assert {o["possible"] for o in opts} == {True, False}
    for o in opts:
        a = A.DeclareAttack("E", o["target"], o["subversive"])
        assert a in me.legal and futile(me, a) is not o["possible"]


def test_a_pact_is_listed_warned_of_and_not_made_twice():
    """Found by a QA player: attacking a pact partner gave no warning before the die was rolled,
    no command listed the pacts, and ``p B 3`` then ``p B 99`` made two pacts with B."""
    out = io.StringIO()
    solo = Solo(3, {"max_turns": 2}, out=out, inp=_feed([]))
    solo.apply(A.EndTrading("A"))
    while (step := solo.match.next_step()) is not None:
        solo.match.apply(step.seat, step.action, step.kind)
    v = solo.view()
    target = next(st["id"] for st in v["stacks"] if st["owner"] == "B")
    other = next(st["id"] for st in v["stacks"] if st["owner"] == "C")
    solo.show_markers()
    assert "Your pacts: none" in out.getvalue()
    solo.make_pact("B", 2)
    warn = " (breaks your pact with B, to the end of Game-Turn 2)"
    assert solo.describe(A.DeclareAttack("A", target), v).endswith(warn)
    assert solo.describe(A.DeclarePurge("A", "B", ("A",)), v).endswith(warn)
    assert "breaks your pact" not in solo.describe(A.DeclareAttack("A", other), v)
    before = len(out.getvalue())
    solo.propose_pact("B", "5")
    solo.show_markers()
    said = out.getvalue()[before:]
    assert "You and B have a pact until the end of Game-Turn 2 already." in said
    assert "Your pacts: with B until the end of Game-Turn 2" in said


def test_a_pact_lasts_no_longer_than_the_server_allows():
    """A terminal QA pass: ``p B 99`` was put to the bot (a pact to the end of Game-Turn 99), where
    the server's chat caps a pact at 50 Game-Turns from now; the terminal now says so, as the chat
    does (rcw.bots.negotiation.pact_until_problem), and asks the bot nothing."""
    out = io.StringIO()
    solo = Solo(3, {"max_turns": 2}, out=out, inp=_feed([]))
    asked = []
    solo.match.consider = lambda *a: asked.append(a)
    solo.propose_pact("B", "99")
    assert "Not proposed: a pact lasts until a Game-Turn from 1 (now) to 51." in out.getvalue()
    assert asked == []
    solo.propose_pact("B", "3")
    assert len(asked) == 1                            # (within the limit: B is asked)


@pytest.mark.parametrize("spi", [False, True])
def test_ctrl_c_at_a_prompt_saves_and_quits_like_the_end_of_input(tmp_path, monkeypatch, capsys, spi):
    """Found by a QA pass: Ctrl-C at any prompt ended the game with a KeyboardInterrupt traceback
    and nothing saved.  It now saves and quits in order, as the end of input (Ctrl-D) does."""
    path = tmp_path / "g.json"

    class CtrlC(io.StringIO):
        def readline(self, *a):
            line = super().readline(*a)
            if not line:
                raise KeyboardInterrupt
            return line

    monkeypatch.setattr(sys, "stdin", CtrlC("1\n"))
    spi_arg = ["--spi"] if spi else ["--max-turns", "1"]
    assert main(["solo", *spi_arg, "--seed", "8", "--save", str(path)]) == 0
    out = capsys.readouterr()
    assert f"Saved to {path} (resume with: rcw solo{' --spi' if spi else ''} --load {path})" in out.out
    assert "Traceback" not in out.err and "KeyboardInterrupt" not in out.err
    saved = json.loads(path.read_text())
    assert saved["record"]["actions"]                                   # (the game as it stood)


@pytest.mark.parametrize("spi", [False, True])
def test_ctrl_c_while_the_bots_play_saves_and_quits_too(tmp_path, monkeypatch, capsys, spi):
    """Ctrl-C outside a prompt (while the bots, or the solitaire's procedures, play) still ended
    the game with a traceback and nothing saved.  It is read as at a prompt: saved, and the end."""
    from rcw.bots.match import Match

    path = tmp_path / "g.json"
    real = Match.apply
    n = {"left": 3}

    def interrupted(self, *a, **k):        # (the fourth step applied is cut short by Ctrl-C)
        n["left"] -= 1
        if n["left"] < 0:
            raise KeyboardInterrupt
        return real(self, *a, **k)
    monkeypatch.setattr(Match, "apply", interrupted)
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 50))
    spi_arg = ["--spi"] if spi else ["--max-turns", "1"]
    assert main(["solo", *spi_arg, "--seed", "8", "--save", str(path)]) == 0
    out = capsys.readouterr()
    assert "Interrupted." in out.out and f"Saved to {path}" in out.out, out.out[-500:]
    assert "Traceback" not in out.err and "KeyboardInterrupt" not in out.err
    assert len(json.loads(path.read_text())["record"]["actions"]) == 3           # (the steps applied)


@pytest.mark.parametrize("width", [80, 120])
def test_the_non_red_forces_table_never_cuts_a_province_code_or_a_name(width):
    """Found by a QA pass: on a terminal the SPI non-Red forces table (``n``, ``b``, the phase
    screens) broke the path column inside province codes ("DAGH-TERE-ST" / "AV-KUBA-...", at 120
    columns) and, at 80, squeezed the units column to 6 ("Yudeni" / "ch,").  The units are listed
    one a line, each whole, and a path wraps after the hyphen between two provinces."""
    from rcw.bots.spi_solo import SPISolo
    from rcw.bots.terminal import Screen, unit_name

    solo = SPISolo(3, out=io.StringIO(), inp=_feed([]))
    plain = io.StringIO()
    solo.screen = Screen(plain, fancy=False)
    solo.show_nonred()
    fancy = io.StringIO()
    solo.screen = Screen(fancy, fancy=True)
    solo.screen.console.width = width
    solo.show_nonred()
    lines = [ESC.sub("", line) for line in fancy.getvalue().splitlines()]
    table = lines[next(i for i, line in enumerate(lines) if line and set(line) <= {"─"}) - 1:]
    assert max(map(len, table)) <= width, table
    whole = set(re.split(r"[\s-]+", plain.getvalue()))               # (every word and province code, uncut)
    cut = [w for line in table for w in re.split(r"[\s-]+", line) if w not in whole and set(w) != {"─"}]
    assert not cut, cut
    text = "\n".join(table)
    v = solo.view()
    for st in v["stacks"]:
        if st["color"] != "Red":
            for u in st["units"]:
                if not solo.player.data.units[u].is_imperial:
                    assert unit_name(u) in text, unit_name(u)              # (on one line, as the counter reads)


def test_the_spi_solitaire_shows_who_holds_the_czar_and_the_gold(tmp_path):
    """Found by a QA pass: once the non-Red side held the Czar and the Gold, ``--spi`` never showed
    them (the non-Red forces table listed only the units that fight), and the capture line did
    not say who held the Czar.  The table lists them with the leader who controls them, and the
    capture names him (004 [13.21]: the leader they are attached to controls them)."""
    from rcw.bots.spi_solo import SPISolo

    out = io.StringIO()
    solo = SPISolo(3, out=out, inp=_feed(["n", "q"]))
    solo.save_path = str(tmp_path / "s.json")
    assert solo.run() == 0
    text = out.getvalue()
    assert "Non-Red captures the Czar in EKAT: Kolchak controls it now (004 [13.21])" in text
    table = text.split("Non-Red forces (")[1]
    assert re.search(r"^\s+74\s+EKAT\s+White\s+WL2 Kolchak\b", table, re.M)
    assert re.search(r"^\s+GOLD \(Kolchak's\)", table, re.M) and re.search(r"^\s+CZAR \(Kolchak's\)", table, re.M)


def test_a_merge_says_the_units_are_only_stacked_until_attached():
    """Found by a QA pass: "Merge stack 2 ... into stack 1" read as if the units went along with
    stack 1's leader; they are only stacked (004 [5.41]) and move with him once attached (004
    [5.13]).  The choice says so, in both games (one sentence, ``describe_play``)."""
    from rcw.bots.spi_solo import SPISolo

    spi = SPISolo(3, out=io.StringIO(), inp=_feed([]))
    said = spi.describe(A.Merge("R", 2, 1))
    assert said == ("Put stack 2 in NOVG (RU8 NOVG) with stack 1 (only stacked, 004 [5.41]: a leader takes a unit "
                    "along once you Attach it as he moves, 004 [5.13])"), said
    solo = Solo(3, {"max_turns": 1}, out=io.StringIO(), inp=_feed([]))
    solo.apply(A.EndTrading("A"))
    while (step := solo.match.next_step()) is not None:
        solo.match.apply(step.seat, step.action, step.kind)
    v = solo.view()
    a, b = (st["id"] for st in v["stacks"][:2])
    said = solo.describe(A.Merge("A", a, b), v)
    assert said.startswith(f"Put stack {a} in ") and f"with stack {b} (only stacked, 004 [5.41]" in said
    assert "Attach" in said and "Merge" not in said


def test_the_roll_of_an_attack_is_listed_last_with_its_odds_and_target():
    """Found by a QA pass: after an attack was declared and a stack added, "2" became "Roll the
    die for this attack" (it had added the stack a screen before), so a key typed twice rolled
    the die; the roll showed no odds, and in ``--spi`` no line named the target.  The roll is
    listed last, with the engine's odds for the attack as it stands, and the target is named."""
    from rcw.bots.spi import SPIRedAgent
    from rcw.bots.spi_solo import SPISolo

    solo = SPISolo(3, out=io.StringIO(), inp=_feed([]))
    bot = SPIRedAgent("R", 3)
    for _ in range(26):                                  # (seed 3: Red's Combat Phase, BU2 ARCH/US in reach of two stacks)
        solo.match.apply("R", bot.choose(solo.player), by_agent=False)
    assert solo.view()["phase"] == "combat"
    solo.match.apply("R", A.DeclareAttack("R", 56), by_agent=False)
    target = "stack 56 in ARCH (BU2 ARCH/US)"
    for _ in range(2):                                   # (the same key twice)
        solo.screen.out = out = io.StringIO()
        solo.inp = _feed(["2"])
        a = solo.pick(list(solo.player.legal), "Your choices")
        assert a.TYPE == "AddAttacker", out.getvalue()
        solo.match.apply("R", a, by_agent=False)
    solo.screen.out = out = io.StringIO()
    solo.inp = _feed(["q!"])
    assert solo.pick(list(solo.player.legal), "Your choices") is None
    menu = last_menu(out.getvalue())
    odds = solo.player.odds()
    assert menu[0][1] == f"Call off the attack on {target}"
    assert menu[-1][1] == (f"Roll the die for the attack on {target}: {odds['attack']} against {odds['defense']}, "
                           f"odds {odds['label']}"), menu


@pytest.mark.parametrize("spi", [False, True])
def test_on_an_80_column_terminal_lines_wrap_between_words(spi):
    """Found by a QA pass: at 80 columns help (h) and other wide lines broke inside words
    ("quit wit" / "hout saving", "what is le" / "ft to clear", the banner's "Fanatic" / "s)"),
    and the help sent players to a source file (bots/negotiation.py).  On a terminal every line
    wraps between words to its width; the help says what to do with a bot's proposal."""
    from rcw.bots.solo import HELP
    from rcw.bots.spi_solo import SPISolo
    from rcw.bots.terminal import Screen

    def played(fancy: bool) -> str:
        out = io.StringIO()
        game = SPISolo(3, out=out, inp=_feed(["h", "q!"])) if spi else Solo(3, {"max_turns": 1}, out=out, inp=_feed(["h", "q!"]))
        game.screen = Screen(out, fancy=fancy)
        if fancy:
            game.screen.console.width = 80
        assert game.run() == 0
        return ESC.sub("", out.getvalue())

    plain, fancy = played(False), played(True)
    assert max(map(len, fancy.splitlines())) <= 80, max(fancy.splitlines(), key=len)
    words = set(plain.split())
    cut = [w for w in fancy.split() if w not in words and set(w) != {"─"} and not w.endswith("-")]
    assert not cut, cut                                  # (a table's cell may wrap after a hyphen: DAGH-TERE-)
    assert "bots/negotiation.py" not in HELP and "p B agrees to B's pact" in HELP
    if not spi:
        assert "Russian Civil War — five players: you are A; B-E are the SDT bots (Solitaire for\nFanatics)." in fancy


def _started(seed: int = 3) -> Solo:
    """A five-player game past its trading session (the bots' first steps taken)."""
    solo = Solo(seed, {"max_turns": 2}, out=io.StringIO(), inp=_feed([]))
    solo.apply(A.EndTrading("A"))
    while (step := solo.match.next_step()) is not None:
        solo.match.apply(step.seat, step.action, step.kind)
    return solo


def test_a_committees_purge_reads_as_a_sentence(monkeypatch):
    """Found by a QA pass: a purge of four read "B and C and D and A purge E ... roll 6+1 = 7:
    1 points".  The engine's purge event (what the terminal games print) lists the members as
    a sentence and counts one point in the singular."""
    from engine_helpers import blank, markers, phase, put

    from rcw.rules.base import Ctx

    rolls = [3, 4]
    monkeypatch.setattr(Ctx, "die", lambda self: rolls.pop(0))
    g = blank()
    phase(g, "E", "movement")
    markers(g, A=2, B=2, C=2, D=2)
    for p, lead in zip("ABCD", ("Sablin", "Muraviev", "Frunze", "Tukhachevsky"), strict=True):
        put(g, "PETR", p, lead)
    put(g, "NOVG", "E", "Lenin")
    for p in "BCDA":
        g.apply(A.JoinCommittee(p, ("B", "C", "D", "A")))
    g.apply(A.DeclarePurge("B", "E", ("B", "C", "D", "A"), ("B", "C", "D", "A")))
    ev = [e for p in "ACD" for e in g.apply(A.ApprovePurge(p, True))]
    (purge,) = (e.text for e in ev if e.kind == "purge")
    assert purge.startswith("A, B, C and D purge E: strength 14 (") and purge.endswith("roll 3+4 = 7: 1 point"), purge


def test_the_spi_loss_names_the_unit_that_holds_the_target_and_the_score_has_a_colon():
    """Found by a QA pass: the SPI solitaire's loss read "non-Red units hold Yudenich in Petrograd
    at the end of Game-Turn 2", and "FINAL SCORE non-Red Decisive Victory" had no colon."""
    from rcw.bots.spi_solo import SPISolo

    from rcw.solitaire import victory

    out = io.StringIO()
    solo = SPISolo(3, out=out, inp=_feed([]))
    solo.g.ctx.take(next(u.id for u in solo.g.data.units.values() if u.label == "WU2 ESTO"))   # (Rodzyanko alone in Petrograd)
    solo.explain(victory.check_nonred_objective(solo.g.ctx))
    solo.finish()
    text = out.getvalue()
    assert "non-Red Decisive Victory: a non-Red unit (Rodzyanko) holds Petrograd at the end of Game-Turn 1 " \
           "(004 [28.13])" in text
    assert "FINAL SCORE: non-Red Decisive Victory on Game-Turn 1;" in text


def test_a_bots_refusal_names_the_phase_in_words(tmp_path, monkeypatch, capsys):
    """Found by a QA pass: a bot's refusal of a Committee read "(Purge Cooperation; now A is
    phasing, random_events)", an internal phase id."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", _feed(["1", "c B,C", "q!"]))
    assert main(["solo", "--seed", "3", "--max-turns", "1"]) == 0
    out = capsys.readouterr().out
    assert ("> B: B declines: it answers a Central Committee in its convener's Movement Phase (Purge Cooperation; "
            "now it is A's Random Events Phase)") in out
    assert "random_events" not in out


def test_marker_gifts_trades_and_seats_are_said_right_in_mid_game():
    """Found by a QA pass, in mid-game: ``g B 9 0`` was refused citing 004 [15.33] (the pre-game
    trading session); the ``g`` usage listed a seat that had left the game; and ``t B
    give=Nobody`` answered "No leader 'Nobody' in A's hand" instead of saying that leaders are
    traded in the pre-game session only."""
    solo = _started()
    solo.g.apply(A.Quit("C"))
    out = solo.out
    before = len(out.getvalue())
    held = solo.view()["politburo"]["A"]
    solo.inp = _feed(["g B 9 0", "g B", "g C 1 0", "t B give=Nobody", "q!"])
    assert solo.human(list(solo.me.legal), "turn") is None
    said = out.getvalue()[before:]
    assert f"Not allowed: 004 [11.0]: A holds only {held} Politburo markers" in said
    assert "g B 1 0: give B 1 Politburo and 0 Assassin markers (the other players: B, D, E)" in said
    assert "C has left the game (the other players: B, D, E)" in said
    assert ("Not allowed: 004 [15.33]: after the pre-game session only Politburo and Assassin markers may be traded; "
            "now t trades Politburo and Assassin markers") in said      # (the engine's words)
    assert "15.33]: A holds" not in said and "No leader 'Nobody'" not in said


def test_a_deployment_on_a_stack_with_no_loose_unit_does_not_offer_command():
    """Found by a QA pass: "On stack 1 ...: takes command of up to 2 of its loose Red units" was
    said of a stack whose units all had a leader already (004 [24.11])."""
    from rcw.bots.spi_solo import SPISolo

    from rcw import solitaire as S

    solo = SPISolo(3, out=io.StringIO(), inp=_feed([]))
    frunze = solo.g.data.by_name("Frunze").id
    assert solo.describe(S.DeployLeader("R", frunze, 1, "PETR")) == (
        "On stack 1 in PETR (RL3 Lenin, RU8 PETR): commands none (its units all have a leader)")
    assert solo.describe(S.DeployLeader("R", frunze, 2, "NOVG")) == (
        "On stack 2 in NOVG (RU8 NOVG): commands its loose unit")


def test_k_shows_the_randomizer_in_the_session_and_a_withdrawn_force_as_withdrawn():
    """Found by a QA pass: ``k`` in the trading session said "Randomizer holds 0 chits" (the
    engine makes the Auxiliary Forces Randomizer up as the forces are deployed; nothing is drawn
    from it before Game-Turn 1), and after "E draws the Japan withdrawal marker: 3 JA units
    leave the game" still showed D controlling "JA": D keeps the Control Marker (the engine's
    ``control``, 004 [5.67] takes only the units), so the column says the force is withdrawn."""
    from rcw.rules import randomizer

    out = io.StringIO()
    solo = Solo(3, {"max_turns": 2}, out=out, inp=_feed([]))
    solo.show_markers()
    assert "Randomizer holds 0 chits" not in out.getvalue()
    assert "the Auxiliary Forces Randomizer is filled as the forces are deployed, when this session ends" in out.getvalue()
    solo = _started()
    g = solo.g
    randomizer.resolve(g.ctx, "D", "BC:JA")
    (gone,) = randomizer.resolve(g.ctx, "E", "WD:JA")[1]
    assert gone.text.startswith("E draws the Japan withdrawal marker:") and gone.text.endswith("JA units leave the game")
    before = len(solo.out.getvalue())
    solo.show_markers()
    said = solo.out.getvalue()[before:]
    assert re.search(r"^  D .*\bJA \(withdrawn\)", said, re.M), said
    assert f"the Auxiliary Forces Randomizer holds {len(g.state.aux)} chits" in said
