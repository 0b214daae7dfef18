"""What the terminal games (``rcw solo``, ``rcw solo --spi``, ``rcw play``) print and read,
whatever the game: the :class:`Screen` (on a terminal, ``rich``'s tables with the factions in
their colours; elsewhere the same words as plain text), unit and province names, one typed
line, the save files (read and checked, their place checked before a game starts), and the choices of a movement or combat step in words (with the engine's strengths and
odds)."""

from __future__ import annotations

import json
import os
import re
import textwrap
from typing import TextIO

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from rcw import actions as A
from rcw.actions import IllegalAction
from rcw.data import default, full
from rcw.rng import SEED_MAX

#: How the factions' names are coloured on a terminal (004 [3.2]: "The units are distinguished by their color").
FACTION_STYLES = {"Red": "bold red", "White": "bold black on grey82", "Blue": "bold blue", "Green": "bold green"}
_FACTION = re.compile(r"\b(" + "|".join(FACTION_STYLES) + r")\b|\b([RWBG])[LU]\d+\b")      # (or a counter's label: RL2, WU3, BU2, GU2)
_INITIAL = {c[0]: c for c in FACTION_STYLES}
_NUMBER = re.compile(r"^-?\d+$")


def _is_terminal(out: TextIO) -> bool:
    try:
        return bool(out.isatty())
    except (AttributeError, ValueError):
        return False


class Screen:
    """Where a terminal game writes.  On a terminal: ``rich`` tables, the factions' names in
    their colours (Red, White, Blue, Green), headings in bold (``NO_COLOR`` in the environment
    keeps the tables and drops the colours).  Anywhere else (a pipe, a file, a test's
    ``StringIO``): plain text with the same words and no escape codes, tables in aligned columns.
    ``fancy`` forces one or the other."""

    def __init__(self, out: TextIO, fancy: bool | None = None) -> None:
        self.out = out
        on = _is_terminal(out) if fancy is None else fancy
        self.console = Console(file=out, force_terminal=True, highlight=False, markup=False, emoji=False,
                               soft_wrap=True) if on else None

    @staticmethod
    def coloured(text: str, style: str = "") -> Text:
        """``text`` with every faction's name in its colour."""
        t = Text(text, style=style)
        for m in _FACTION.finditer(text):
            t.stylize(FACTION_STYLES[m.group(1) or _INITIAL[m.group(2)]], m.start(), m.end())
        return t

    def say(self, text: str = "", style: str = "") -> None:
        """One line (``style``, e.g. ``bold``, on a terminal only); on a terminal a line wider
        than it wraps between words (:func:`fill`)."""
        if self.console is None:
            print(text, file=self.out, flush=True)
        else:
            self.console.print(self.coloured(fill(text, self.console.width), style))

    def table(self, rows: list[list[str]], header: list[str]) -> None:
        """Rows under a header: a ``rich`` table on a terminal (numbers to the right, the
        factions coloured), else :func:`table`'s aligned columns.  A cell may hold several
        lines (a stack's units, one a line)."""
        if self.console is None or not rows:
            print(table(rows, header), file=self.out, flush=True)
            return
        # Each column as wide as its header and, as many as the terminal has room for (those that
        # need least first), its longest word (no word broken); what room is left goes to the
        # columns with words still broken, then to those whose lines are longer than their width,
        # those that need least first (so a short column is shown whole before a long one takes
        # the rest).  A line wraps at its spaces and after the hyphens between words (a path
        # DAGH-TERE-STAV, a name May-Maevsky), never inside a word.  Fixed widths: rich
        # left to share the room itself crops or drops a column on a narrow terminal.
        cells = [[str(r[i]) for r in rows] for i in range(len(header))]
        heads = [len(name) for name in header]
        words = [max(heads[i], min(12, max((len(w) for c in cells[i] for w in _BREAK.split(c)), default=0)))
                 for i in range(len(header))]
        lines = [max(len(line) for c in cells[i] for line in c.split("\n")) for i in range(len(header))]
        numbers = [all(_NUMBER.match(c) for c in cells[i]) for i in range(len(header))]
        room = self.console.width - sum(heads) - 2 * len(heads) + 1    # (between columns: a pad and a gap)
        widths = list(heads) if room >= 0 else [None] * len(header)     # (too narrow even for that: rich's)
        if room > 0:
            for i in sorted(range(len(header)), key=lambda i: words[i] - heads[i]):
                if words[i] - heads[i] <= room:
                    room -= words[i] - heads[i]
                    widths[i] = words[i]
            for i in sorted(range(len(header)), key=lambda i: words[i] - widths[i]):
                more = min(room, words[i] - widths[i])       # (fewer words broken)
                if more > 0:
                    widths[i] += more
                    room -= more
            for i in sorted(range(len(header)), key=lambda i: lines[i] - widths[i]):
                more = min(room, lines[i] - widths[i])
                if more > 0:
                    widths[i] += more
                    room -= more
        t = Table(box=box.SIMPLE_HEAD, header_style="bold", pad_edge=False, show_edge=False, padding=(0, 1, 0, 0))
        for i, name in enumerate(header):
            t.add_column(name, justify="right" if numbers[i] else "left", overflow="fold", width=widths[i])
        for r in rows:
            t.add_row(*(self.coloured(_wrap(str(c), widths[i])) for i, c in enumerate(r)))
        self.console.print(t, soft_wrap=False)      # (soft wrapping, for the lines said, adds a column to a table)


_HANG = re.compile(r"\s*(?:[-*>!]|\d+\.)\s+|\s+[a-z]!?\s+|\s*")    # a line's indent and bullet ("  - ", " 12. ", "    b  ")


def fill(text: str, width: int) -> str:
    """``text`` with each line wider than ``width`` wrapped between words (a rule case such as
    "004 [5.27]" kept whole), its continuation lines indented under the line's text (past its
    indent and bullet or command letter)."""
    out = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        hang = " " * len(_HANG.match(line).group())
        kept = line.replace("004 [", "004\xa0[")             # (a rule case, "004 [5.27]", is one word)
        out.append(textwrap.fill(kept, width, subsequent_indent=hang if len(hang) < width // 2 else "",
                                 break_long_words=False, break_on_hyphens=False).replace("\xa0", " "))
    return "\n".join(out)


_BREAK = re.compile(r"\s+|(?<=[^\W\d_]{2}-)(?=[^\W\d_])")    # where a line may wrap (as textwrap breaks it)


def _wrap(text: str, width: int | None) -> str:
    """``text``'s lines wrapped to ``width`` at spaces and after hyphens between words (rich
    breaks only at spaces, and folds a longer word where the column ends)."""
    if width is None:
        return text
    return "\n".join(textwrap.fill(line, width) if len(line) > width else line for line in text.split("\n"))


def unit_name(uid: int) -> str:
    """A unit as the counters name it (an Imperial unit in capitals; the optional forces of 001 too)."""
    u = full().units[uid]
    return u.label if not u.is_imperial else u.name.upper()


def province(code: str) -> str:
    """A province as ``CODE (Name)``."""
    p = default().provinces.get(code)
    return f"{code} ({p.name})" if p else code


def table(rows: list[list[str]], header: list[str]) -> str:
    """Rows under a header, in aligned columns (indented two spaces); a cell of several lines
    makes its row as many lines."""
    if not rows:
        return "  (none)"
    body = []
    for r in rows:                             # (a cell of several lines: the row takes as many)
        split = [str(c).split("\n") for c in r]
        body += [[c[k] if k < len(c) else "" for c in split] for k in range(max(map(len, split)))]
    cols = [header] + body
    w = [max(len(str(r[i])) for r in cols) for i in range(len(header))]

    def line(r: list[str]) -> str:
        return "  " + "  ".join(str(c).ljust(w[i]) for i, c in enumerate(r)).rstrip()

    return "\n".join([line(header), "  " + "  ".join("-" * x for x in w)] + [line(r) for r in body])


def vp_rows(view: dict) -> list[list[str]]:
    """The Victory Point Chart of a view (004 [14.4]) as rows: each section and the combat
    strength eliminated in it by colour (face-down units marked; Imperial units by name)."""
    units = default().units
    rows = []
    for section in sorted(view["vp"]):
        by: dict[str, int] = {}
        imperial = []
        for uid, face in view["vp"][section]:
            u = units[uid]
            if u.is_imperial:
                imperial.append(u.name + ("" if face else " (face-down)"))
                continue
            k = u.color + ("" if face else " (face-down)")
            by[k] = by.get(k, 0) + u.strength
        rows.append([section, ", ".join([f"{k} {n}" for k, n in sorted(by.items())] + imperial)])
    return rows


def score_rows(scores: dict, seats) -> list[list[str]]:
    """Every player's Red and White Victory Points (the engine's ``scores``) as rows."""
    return [[p, str(scores["Red"].get(p, 0)), str(scores["White"].get(p, 0))] for p in seats]


INPUT_ENDED = "\x04"     # what :func:`read_line` reads at the end of input or on Ctrl-C (save if it can, and quit)


def read_line(prompt: str, inp, out) -> str:
    """One typed line after ``prompt``; the end of input (Ctrl-D) and Ctrl-C read as
    :data:`INPUT_ENDED` (the game is saved if it can be, and ends).  Piped input is echoed, so a
    scripted transcript shows what was chosen."""
    print(prompt, end="", file=out, flush=True)
    try:
        line = inp.readline()
    except KeyboardInterrupt:
        line = ""
    if not line:
        print(file=out, flush=True)            # (what follows starts a line of its own)
        return INPUT_ENDED
    if not getattr(inp, "isatty", lambda: False)():
        print(line.strip(), file=out, flush=True)
    return line.strip()


# -- save files -------------------------------------------------------------------------------------------------
class SaveFileError(Exception):
    """A save file that cannot be read or written, or holds another game: the message says why."""


def read_save(path: str, mode: str | None) -> dict:
    """The saved game in ``path`` (``rcw solo --load``): a JSON object with its ``seed`` and
    ``record``, of the game ``mode`` (``None``: the five-player game; else the save's ``mode``,
    the SPI solitaire's), or :class:`SaveFileError`."""
    try:
        with open(path, encoding="utf-8") as f:
            saved = json.load(f)
    except OSError as e:
        raise SaveFileError(f"cannot read {path}: {e.strerror or e}") from None
    except ValueError as e:                   # (not JSON, not UTF-8)
        raise SaveFileError(f"{path} is not a saved game (not JSON: {e})") from None
    if not isinstance(saved, dict) or isinstance(saved.get("seed"), bool) or not isinstance(saved.get("seed"), int) \
            or not isinstance(saved.get("record"), dict):
        raise SaveFileError(f"{path} is not a saved game of rcw solo")
    if not 0 <= saved["seed"] <= SEED_MAX:
        raise SaveFileError(f"{path} is not a saved game of rcw solo (its seed is not in 0..{SEED_MAX})")
    if saved.get("mode") != mode:
        if mode is None:
            raise SaveFileError(f"{path} is an SPI solitaire save (resume it with: rcw solo --spi --load {path})")
        raise SaveFileError(f"{path} is not an SPI solitaire save (use 'rcw solo --load' for the five-player game)")
    return saved


def write_save(path: str, saved: dict, say) -> bool:
    """Write the game ``saved`` to ``path`` (``s``, ``q``) and ``say`` where, with the command
    that resumes it, or why it could not be written; whether it was."""
    try:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(saved, f)
    except OSError as e:
        say(f"Could not save to {path}: {e.strerror or e}")
        return False
    spi = " --spi" if saved.get("mode") else ""
    say(f"Saved to {path} (resume with: rcw solo{spi} --load {path})")
    return True


QUIT = ("q", "q!", INPUT_ENDED)     # the commands that end a terminal game


def quits(head: str, save, say) -> bool:
    """Whether the quit command ``head`` (one of :data:`QUIT`) ends the game now: ``q`` saves
    and quits, but a game it could not save goes on (the player is told, and ``q!`` quits
    without saving); the end of input (or Ctrl-C) saves if it can and quits (no one is left to ask)."""
    if head == "q!":
        say("Quit without saving.")
        return True
    if save() or head == INPUT_ENDED:
        return True
    say("The game was not saved, so it goes on: type s to try again, or q! to quit without saving.")
    return False


def interruptible(play, save, say) -> int:
    """``play()``, a terminal game's loop, with Ctrl-C outside a prompt (while the bots or the
    solitaire's procedures play) read as at a prompt: the game is saved if it can be, and ends.
    The saved record holds the actions applied (an action cut short is not in it)."""
    try:
        return play()
    except KeyboardInterrupt:
        say("Interrupted.")
        quits(INPUT_ENDED, save, say)
        return 0


def check_save_path(path: str) -> None:
    """:class:`SaveFileError` if a game could not be saved to ``path`` (no such directory, a
    directory, not writable): said before the game starts, not when the player quits."""
    where = os.path.dirname(path) or "."
    if os.path.isdir(path):
        raise SaveFileError(f"cannot save to {path}: it is a directory")
    if not os.path.isdir(where):
        raise SaveFileError(f"cannot save to {path}: there is no directory {where}")
    if not os.access(path if os.path.exists(path) else where, os.W_OK):
        raise SaveFileError(f"cannot save to {path}: not writable")


# -- describing what a player may do (the engine's numbers) ------------------------------------------------
def _stacks(player) -> dict[int, dict]:
    return {st["id"]: st for st in player.view["stacks"]}


def fighting(player, st: dict) -> list[int]:
    """The units of a view stack that fight (leaders and combat units, not Imperial units)."""
    units = player.data.units
    return [u for u in st["units"] if not units[u].is_imperial]


def attack_strength(player, sid: int) -> int:
    """What stack ``sid`` attacks with: the engine's attacking units (004 [8.26]-[8.28])."""
    units = player.data.units
    return sum(units[u].strength for u in player.attack_units(sid))


def odds_text(odds, dfn: int | None = None, player=None) -> str:
    """Combat odds as the CRT column names them (004 [8.4]): an ``Odds`` answer of the engine,
    or (attack, defense, player) asked of the engine."""
    if isinstance(odds, dict):
        return odds["label"]
    return player.odds_of(odds, dfn)["label"]


def stack_text(player, sid: int, owners: bool = True) -> str:
    """A stack of ``player``'s view in words."""
    st = _stacks(player).get(sid)
    if st is None:
        return f"stack {sid}"
    who = f"; {st['owner'] or 'uncontrolled'}" if owners else ""
    return f"stack {sid} in {st['province']} ({', '.join(unit_name(u) for u in fighting(player, st))}{who})"


_OPTIONS: dict[int, tuple[int, list]] = {}


def _attack_options(player) -> list:
    """The engine's attack options of ``player`` (asked once per position)."""
    hit = _OPTIONS.get(id(player))
    if hit is None or hit[0] != player.version:
        _OPTIONS.clear()
        hit = _OPTIONS[id(player)] = (player.version, player.attack_options())
    return hit[1]


def futile(player, a: A.Action) -> bool:
    """Whether ``a`` declares an attack no group of the seat's stacks brings to 1:2 (the engine's
    ``attack_options``, ``possible``): 004 [8.47], no attack may be made at less; declared, it
    could only be called off.  The terminal games do not offer one."""
    if a.TYPE != "DeclareAttack":
        return False
    return not next((o["possible"] for o in _attack_options(player)
                     if o["target"] == a.target and o["subversive"] == a.subversive), True)


DECISIONS = {      # the headings of the decisions out of turn (``Game.pending`` kinds), as a player reads them
    "loss": "Exchange losses (004 [8.44])", "capture": "A capture of an Imperial unit (004 [13.41])",
    "vote": "The end-game vote (004 [14.1])", "purge_approval": "Approve the purge? (004 [11.0])",
    "purge_orders": "Declare purges (004 [11.0])", "spoils": "The spoils of the purge (004 [11.0])",
    "counterpurge": "A counterpurge (004 [11.0])", "execution_consent": "The Czar's execution order (004 [13.5])",
    "execution": "The Czar's execution (004 [13.5])", "redraw": "Keep the marker, or draw again (004 [12.13])",
    "place": "Place the unit drawn", "red_terror": "The Red Terror",
}


def decision_heading(kind: str) -> str:
    """What the player is asked to decide, for a pending decision of ``kind``."""
    return DECISIONS.get(kind) or f"Decide: {kind.replace('_', ' ')}"


SAID = {           # the choices that read the same whatever the position
    "EndForce": "This force stops here", "EndMovement": "End the Movement Phase",
    "EndCombat": "End the Combat Phase", "DeclineCapture": "Leave the Imperial unit where it is",
    "RollRandomEvents": "Roll for Random Events", "EndSpoils": "Take no more spoils",
    "EndPlayerTurn": "End your Player-Turn",
}


def attack_choice(a: A.Action, v: dict, player, owners: bool = True) -> str:
    """The roll (with the engine's odds for the attack as it stands: strength against defense,
    the CRT column, 004 [8.4]) or the calling off of the attack being made, its target named."""
    roll = a.TYPE == "ResolveAttack"
    if not v.get("attack"):
        return "Roll the die for this attack" if roll else "Call off this attack"
    target = stack_text(player, v["attack"][0], owners)
    if not roll:
        return f"Call off the attack on {target}"
    try:
        o = player.odds()
    except IllegalAction:
        return f"Roll the die for the attack on {target}"
    return f"Roll the die for the attack on {target}: {o['attack']} against {o['defense']}, odds {o['label']}"


def in_order(choices: list) -> list:
    """The choices as listed: the roll of an attack's die last, so that it never takes the
    number an Add or a Withdraw had on the screen before (a key typed twice adds, then rolls)."""
    return sorted(choices, key=lambda a: getattr(a, "TYPE", "") == "ResolveAttack")


def describe_play(a: A.Action, v: dict, player, seat: str, owners: bool = True) -> str | None:
    """One sentence for a choice of ``seat`` in play (movement, combat, the draws, the ends of
    phases; ``player``: its :class:`rcw.player.Player`, which answers the strengths and odds);
    None for any other kind of action (the games' own: trades, purges, deployments)."""
    t = a.TYPE
    if t in SAID:
        return SAID[t]
    d = player.data
    stacks = {st["id"]: st for st in v["stacks"]}
    if t == "StartForce":
        where = next((st["province"] for st in stacks.values() if a.unit in st["units"]), None)
        return f"Move a force: {unit_name(a.unit)} in {province(where) if where else '?'}"
    if t == "JoinForce":
        return f"Add leader {unit_name(a.leader)} to the force"
    if t == "Attach":
        return f"Attach {unit_name(a.unit)}" + (f" to {unit_name(a.leader)}" if a.leader else "")
    if t == "Detach":
        return f"Leave {unit_name(a.unit)} here"
    if t == "Move":
        return f"Move to {province(a.to)} {'by rail' if a.rail else 'overland'}"
    if t == "TransferImperial":
        to = stacks.get(a.to_stack)
        return f"Transfer the {d.units[a.unit].name} to stack {a.to_stack} in {to['province'] if to else '?'}"
    if t == "Emigrate":
        return f"Send the {d.units[a.unit].name} abroad (emigration, 004 [13.3])"
    if t == "CzechExit":
        return f"Czech unit {unit_name(a.unit)} leaves from Vladivostok"
    if t == "Merge":
        return (f"Put {stack_text(player, a.stack, owners)} with stack {a.into} (only stacked, 004 [5.41]: "
                "a leader takes a unit along once you Attach it as he moves, 004 [5.13])")
    if t == "DeclareAttack":
        best = next((o["groups"][0]["odds"] for o in _attack_options(player)
                     if o["target"] == a.target and o["subversive"] == a.subversive and o["groups"]), None)
        dfn = best["defense"] if best else player.defense(a.target)
        kind = "Subversive attack (from next door; Ae/Ex harmless)" if a.subversive else "Attack"
        return (f"{kind} {stack_text(player, a.target, owners)}, defense {dfn}; "
                f"your units able to join: {best['attack'] if best else 0} ({best['label'] if best else 'none'})")
    if t in ("ResolveAttack", "CancelAttack"):
        return attack_choice(a, v, player, owners)
    if t == "AddAttacker":
        strength = attack_strength(player, a.stack) if a.stack in stacks else "?"
        return f"Add {stack_text(player, a.stack, owners)} (strength {strength}) to the attack"
    if t == "RemoveAttacker":
        return f"Withdraw stack {a.stack} from the attack"
    if t == "ChooseLoss":
        return f"Lose {unit_name(a.unit)}"
    if t == "CaptureImperial":
        return f"Capture the {d.units[a.unit].name} with stack {a.stack}"
    if t == "Evacuate":
        where = next((st["province"] for st in stacks.values() if a.unit in st["units"]), None)
        return f"Evacuate {unit_name(a.unit)} from {province(where) if where else '?'} (leaves the game, scoring nothing)"
    if t == "RedrawChit":
        return ("Set the marker aside and draw another chit (004 [12.13])" if a.redraw
                else "Keep the marker drawn")
    if t == "WithdrawTrade":
        return f"Withdraw your trade offer #{a.offer}"
    if t == "PlaceUnit":
        d = v.get("decision") or {}
        what = unit_name(d["unit"]) if d.get("unit") else "the unit drawn"
        return f"Place {what} with {unit_name(a.leader)}" if a.leader else f"Place {what} in {province(a.province)}"
    return None
