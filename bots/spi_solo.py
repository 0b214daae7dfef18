"""``rcw solo --spi``: the SPI solitaire (004 [18.0]-[28.0]) in the terminal.

You are the Red Player; the engine plays the non-Red forces by the solitaire rules and says in
a sentence what each of them does and why (which die, which path, which rule).  At each of
your decisions the legal choices are listed with numbers; other commands:

    b  board: your stacks, the non-Red forces that move or stand by your stacks,
       with their targets and paths
    n  every non-Red force
    o  the objective (what is left to clear)
    d LEADER PROVINCE   (Red Leader Determination) deploy a leader alone in a
                        province holding no non-Red unit (004 [24.11])
    s  save the game    q  save and quit (as Ctrl-D and Ctrl-C do)
    h  this help        q! quit without saving

Save/resume: the save file holds the game record (``Game.record()``: seed, options and your
actions; the non-Red moves follow from the seed); ``rcw solo --spi --load FILE`` replays it
and the game goes on exactly where it stopped.

The game is driven through :class:`rcw.bots.match.Match` with no computer players (the
non-Red side is the engine's); what is shown and asked comes from :class:`rcw.player.Player`.
"""

from __future__ import annotations

import argparse
import sys

from rcw.bots.match import Match
from rcw.bots.terminal import (
    QUIT,
    SaveFileError,
    Screen,
    attack_strength,
    check_save_path,
    decision_heading,
    describe_play,
    futile,
    in_order,
    interruptible,
    province,
    quits,
    read_line,
    read_save,
    stack_text,
    unit_name,
    write_save,
)

from rcw import actions as A
from rcw import solitaire as S
from rcw.actions import IllegalAction
from rcw.modes import new_game, replay
from rcw.player import Player

HELP = __doc__.split("other commands:")[1].split("Save/resume")[0].rstrip()
RED = S.RED_SEAT
DEFAULT_SAVE = "rcw-spi.json"
BACK = A.Action(RED)            # "back" in the two-step leader menu
QUIET_KINDS = ("attacker_added", "attack_declared")


class SPISolo:
    def __init__(self, seed: int = 1, out=None, inp=None, record: dict | None = None) -> None:
        self.out = out or sys.stdout
        self.inp = inp or sys.stdin
        self.screen = Screen(self.out)
        self.save_path: str | None = None
        self.last_header: tuple | None = None
        self.legend_said = False                 # (the non-Red table's legend: in full the first time)
        if record is not None:
            self.g = replay(record["seed"], record["actions"], record.get("players", 2), record.get("options"))
            self.resumed = True
        else:
            self.g = new_game(1, seed, {"mode": S.MODE})
            self.resumed = False
        self.seed = self.g.record()["seed"]
        self.match = Match(self.g, {})          # no agents: the one player is the human
        self.player: Player = self.match.player(RED)

    # -- output ------------------------------------------------------------------------------------------
    def say(self, text: str = "", style: str = "") -> None:
        self.screen.say(text, style)

    def explain(self, events) -> None:
        targets = [e for e in events if e.kind == "nonred_target" and e.data.get("setup")]
        for e in events:
            if e.kind == "nonred_target" and e.data.get("setup"):
                if e is targets[0]:
                    self.say(f"  - The non-Red forces are given their target provinces and paths (004 [21.13], "
                             f"[21.24]): {sum(1 for x in targets if x.data['route'][-1] == 'TVER')} head for Tver, "
                             f"{sum(1 for x in targets if x.data['route'][-1] == 'PETR')} for Petrograd (n shows them)")
                continue
            if e.kind in QUIET_KINDS:
                continue
            if e.kind in ("player_turn", "turn"):
                self.say(f"\n--- {e.text} ---", "bold")
            else:
                self.say(f"  - {e.text}")

    # -- reading the view ----------------------------------------------------------------------------------------
    def view(self) -> dict:
        return self.player.view

    def stack_text(self, sid: int) -> str:
        return stack_text(self.player, sid, owners=False)

    # -- the board ---------------------------------------------------------------------------------------------
    def show_board(self) -> None:
        v = self.view()
        mine = [st for st in v["stacks"] if st["owner"] == RED]
        rows = [[str(st["id"]), province(st["province"]), ", ".join(unit_name(u) for u in st["units"]),
                 str(attack_strength(self.player, st["id"])), str(self.player.defense(st["id"]))]
                for st in sorted(mine, key=lambda x: (x["province"], x["id"]))]
        self.say(f"\nYour stacks (Game-Turn {v['turn']} of {S.LAST_TURN}):", "bold")
        self.screen.table(rows, ["stack", "province", "units", "attack", "defense"])
        near = {p for st in mine for p in (st["province"], *self.player.data.provinces[st["province"]].adjacent)}
        self.show_nonred(near)
        self.show_objective()

    def show_nonred(self, near: set[str] | None = None) -> None:
        """The non-Red forces (004 [21.1]), a stack's units one a line (a narrow terminal wraps a
        path between its provinces, never inside a name: :meth:`Screen.table`).  ``near``: list
        only those that move (the engine's ``movers``) or stand in these provinces (the board's
        screen: those next to the Red stacks), and say how many more ``n`` lists (QA: the whole
        table, some 40 forces, came with every screen)."""
        v = self.view()
        routes = v["solitaire"]["routes"]
        moving = set(v["solitaire"]["movers"])
        rows = []
        left = 0
        for st in sorted(v["stacks"], key=lambda x: (x["province"], x["id"])):
            if not st["units"] or st["color"] == "Red":        # (the Czar or the Gold alone too: nobody's, 004 [13.42])
                continue
            if near is not None and st["id"] not in moving and st["province"] not in near:
                left += 1
                continue
            r = routes.get(str(st["id"]))
            path = "-".join(r["ahead"]) if r and r["ahead"] else ("(there)" if r else "-")
            target = r["target"] if r else "-"
            moves = "yes" if st["id"] in moving else "no"         # (the engine's: 004 [18.0], [21.11])
            rows.append([str(st["id"]), st["province"], st["color"] or "-", "\n".join(self.unit_text(u, st) for u in st["units"]),
                         str(self.player.defense(st["id"])), moves, target, path])
        which = "" if near is None else "those that move or stand next to your stacks; "
        if not self.legend_said:
            self.legend_said = True
            self.say(f"\nNon-Red forces ({which}they move toward their target along the path shown, one province "
                     "per pip of a die, 004 [21.1]; 'moves': whether it moves in the non-Red Movement Phase, the "
                     "engine's answer for White units with a leader and the Blue and Green units whose Control "
                     "Marker the non-Red Player holds, 004 [18.0], [21.11]):", "bold")
        else:
            self.say(f"\nNon-Red forces ({which}'moves' and 'path ahead' as before, 004 [21.1]):", "bold")
        self.screen.table(rows, ["stack", "province", "colour", "units", "strength", "moves", "target", "path ahead"])
        if left:
            self.say(f"  ({left} more that do not move and stand away from your stacks: n lists every one)")

    def unit_text(self, u: int, st: dict) -> str:
        """A unit of a view stack; the Czar and the Gold with the leader who controls them
        (004 [13.21]: the leader they are attached to)."""
        units = self.player.data.units
        lead = st["attached"].get(str(u))
        return f"{unit_name(u)} ({units[lead].name}'s)" if lead and units[u].is_imperial else unit_name(u)

    def show_objective(self) -> None:
        v = self.view()
        sol = v["solitaire"]
        left = sol["objective_left"]
        where = {u: st["province"] for st in v["stacks"] for u in st["units"]}
        by_region: dict[str, int] = {}
        for u in left:
            if u in where:
                r = self.player.data.provinces[where[u]].region
                by_region[r] = by_region.get(r, 0) + 1
        self.say(f"\nObjective (004 [28.11]): {len(left)} non-Red units left in the four regions ("
                 + ", ".join(f"{k} {n}" for k, n in sorted(by_region.items())) + ")."
                 " Clear them by Game-Turn 5 for a Decisive, 6 Substantive, 7 Marginal Victory (004 [28.12]).")
        threat = sol["in_targets"]
        if threat:
            self.say("DANGER (004 [28.13]): non-Red units in "
                     + "; ".join(f"{province(p)}: {', '.join(unit_name(u) for u in us)}" for p, us in threat.items())
                     + " — destroy them before the Game-Turn ends or the non-Red Player wins.", "bold")

    # -- describing choices ------------------------------------------------------------------------------------
    def describe(self, a: A.Action) -> str:
        if a is BACK:
            return "Back"
        t = a.TYPE
        if t == "DeployLeader":
            if a.stack:
                loose = self.view()["solitaire"]["loose"].get(str(a.stack), [])     # (the engine's, 004 [24.11])
                # (the rule is said once, in the question: pick's title, QA: each line wrapped at 80 columns)
                if not loose:
                    return f"On {self.stack_text(a.stack)}: commands none (its units all have a leader)"
                n = len(loose)
                return f"On {self.stack_text(a.stack)}: commands {'its loose unit' if n == 1 else f'its {n} loose units'}"
            return f"Alone in {province(a.province)}"
        if t == "EndLeaderDeployment":
            return "End the Red Leader Determination Phase"
        if t == "DrawRandomizer":
            return "Draw from the Auxiliary Forces Randomizer (the marker goes to the non-Red Player, 004 [20.12])"
        return describe_play(a, self.view(), self.player, RED, owners=False) or t

    # -- the human -----------------------------------------------------------------------------------------------
    def read(self, prompt: str) -> str:
        return read_line(prompt, self.inp, self.out)

    def menu(self, choices: list, title: str) -> A.Action | str | None:
        """Numbered choices; returns an action, a typed command line (str), or None to quit."""
        while True:
            self.say(f"\n{title}:")
            for i, a in enumerate(choices, 1):
                self.say(f"  {i:>2}. {a if isinstance(a, str) else self.describe(a)}")
            cmd = self.read("Choose a number (h for help): ")
            if cmd.isdigit() and 1 <= int(cmd) <= len(choices):
                return choices[int(cmd) - 1]
            head = cmd.split()[0].lower() if cmd.split() else ""
            if head == "h":
                self.say(HELP)
            elif head == "b":
                self.show_board()
            elif head == "n":
                self.show_nonred()
            elif head == "o":
                self.show_objective()
            elif head == "s":
                self.save()
            elif head in QUIT:
                if quits(head, self.save, self.say):
                    return None
            elif head == "d":
                return cmd
            else:
                self.say("Please type one of the numbers above, or h for help.")

    def decide(self, legal: list[A.Action]) -> A.Action | None:
        v = self.view()
        header = (v["turn"], v["phase"])
        if v["phase"] in ("random_events", "leaders", "movement", "combat", "randomizer") and header != self.last_header \
                and not v.get("decision"):
            self.last_header = header
            self.say(f"\n=== Game-Turn {v['turn']} of {S.LAST_TURN}, your {v['phase'].replace('_', ' ')} phase ===", "bold")
            if v["phase"] in ("movement", "leaders"):
                self.show_board()
        if v.get("decision"):
            kind = v["decision"]["kind"]
            title = (f"Exchange: remove at least {v['decision'].get('need')} strength points (004 [8.44])"
                     if kind == "loss" else "You may capture an Imperial unit (004 [13.41])" if kind == "capture"
                     else decision_heading(kind))
            return self.pick(legal, title)
        if v["phase"] == "leaders":
            return self.deploy(legal, v)
        return self.pick(legal, "Your choices")

    def pick(self, legal: list[A.Action], title: str) -> A.Action | None:
        legal = in_order([a for a in legal if not futile(self.player, a)])
        while True:
            a = self.menu(legal, title)
            if isinstance(a, str):
                self.say("That command is for the Red Leader Determination Phase.")
                continue
            return a

    def deploy(self, legal: list[A.Action], v: dict) -> A.Action | None:
        """004 [24.0]: choose a leader, then where he goes."""
        d = self.player.data
        rld = v["solitaire"]["leaders"]
        self.say(f"Red Leader Determination: die {rld.get('die')}, you may deploy {rld.get('allowed')} leader(s); "
                 f"{len(rld.get('deployed', []))} deployed so far (004 [24.0], [24.12]).")
        deploys = [a for a in legal if a.TYPE == "DeployLeader"]
        leaders = sorted({a.leader for a in deploys}, key=lambda u: (-d.units[u].strength, d.units[u].name))
        end = [a for a in legal if a.TYPE == "EndLeaderDeployment"]
        while True:
            choices = [f"Deploy {d.units[u].name} (value {d.units[u].strength})" for u in leaders] + end
            got = self.menu(choices, "Choose a leader to deploy (or d LEADER PROVINCE to put one anywhere)")
            if got is None:
                return None
            if isinstance(got, A.Action):
                return got
            if got not in choices:                  # a typed "d LEADER PROVINCE"
                a = self.typed_deploy(got)
                if a is not None:
                    return a
                continue
            lead = leaders[choices.index(got)]
            places = [a for a in deploys if a.leader == lead] + [BACK]
            a = self.pick(places, f"Where does {d.units[lead].name} go? (On a stack he takes command of its loose "
                                  f"Red units, the strongest first, up to his value of {d.units[lead].strength}, 004 [24.11])")
            if a is None:
                return None
            if a is not BACK:
                return a

    def typed_deploy(self, cmd: str) -> A.Action | None:
        parts = cmd.split()
        if len(parts) != 3:
            self.say("Usage: d LEADER PROVINCE, e.g. d Zinoviev SMOL")
            return None
        try:
            lead = self.player.data.by_name(parts[1]).id
        except KeyError:
            self.say(f"No leader called {parts[1]}")
            return None
        a = S.DeployLeader(RED, lead, 0, parts[2].upper())
        why = self.player.why_illegal(a)
        if why is not None:
            self.say(f"Not allowed: {why}")
            return None
        return a

    # -- saving -----------------------------------------------------------------------------------------------------
    def save(self) -> bool:
        return write_save(self.save_path or DEFAULT_SAVE, {"version": 1, "mode": S.MODE, "seed": self.seed,
                                                    "record": self.g.record()}, self.say)

    # -- the loop ---------------------------------------------------------------------------------------------------
    def run(self) -> int:
        return interruptible(self._play, self.save, self.say)

    def _play(self) -> int:
        g = self.g
        self.say("Russian Civil War — the SPI solitaire (004 [18.0]-[28.0]). You are the Red Player; the non-Red "
                 "forces are moved by the solitaire rules, and every non-Red action is explained as it happens.")
        self.say("Type h at any prompt for help.")
        if self.resumed:
            self.say(f"(resumed: the saved game has been replayed — Game-Turn {g.turns_played})")
        else:
            self.explain(g.setup_events)
        while not g.over:
            pend = self.player.pending
            if not pend or pend[0]["seat"] != RED:
                self.say("The game has no pending decision for you; stopping.")
                return 1
            a = self.decide(list(self.player.legal))
            if a is None:
                return 0
            try:
                ev = self.match.apply(RED, a, by_agent=False)
            except IllegalAction as e:
                self.say(f"Not allowed: {e}")
                continue
            self.explain(ev)
        self.finish()
        return 0

    def finish(self) -> None:
        r = self.g.result or {}
        self.say("\n=== The game is over ===", "bold")
        self.say(f"{r.get('title', '')}: {r.get('reason', '')}")
        if r.get("victory", "").startswith("red"):
            self.say("You have won as the Red Player.  Next time try to win earlier (004 [28.0]).")
        elif r.get("victory") == "draw":
            self.say("A Draw: neither side reached its objective (004 [28.15]).")
        else:
            self.say("The non-Red Player has won.")
        self.say(f"FINAL SCORE: {r.get('title', '?')} on Game-Turn {r.get('turn', '?')}; "
                 f"non-Red units left in the Red objective regions: {r.get('objective_left', '?')}")


def run_spi(args: argparse.Namespace) -> int:
    record = None
    load, save = getattr(args, "load", None), getattr(args, "save", None)
    try:
        if load:
            record = read_save(load, S.MODE)["record"]
        check_save_path(save or load or DEFAULT_SAVE)
        solo = SPISolo(args.seed, record=record)
    except (SaveFileError, IllegalAction) as e:
        print(f"rcw solo: {e}", file=sys.stderr)
        return 2
    except (KeyError, TypeError, ValueError) as e:
        print(f"rcw solo: {load} does not replay as a saved game ({type(e).__name__}: {e})", file=sys.stderr)
        return 2
    solo.save_path = save or load
    return solo.run()
