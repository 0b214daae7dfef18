"""``rcw solo``: play Russian Civil War in the terminal against four SDT bots.

You are seat A in the five-player "Solitaire for Fanatics" game (004, the article by
J. Richard Jarvinen); seats B-E are :class:`bots.sdt.SDTAgent` bots.  Every bot action is
explained by the engine's event sentences and the bot's own notes (its strategy roll, its
targets, its Central Committee answers).  At each of your decisions the legal choices are
listed with numbers; other commands:

    b  board (your stacks, the enemies within reach)
    v  the Victory Point chart and the scores
    k  markers, Central Committee, attitudes and your pacts
    d  the hands dealt (in the pre-game trading session)
    t  offer a trade: t B give=Frunze,12 take=Kolchak pm=1 am=0 tpm=0 tam=1
       (leaders by name or id, in the pre-game session only, 004 [15.33];
       pm/am: the Politburo/Assassin markers you give, tpm/tam: those you ask
       for; the bot accepts, declines or counters with an offer, and says why)
    g  give markers: g B 1 0 gives B 1 Politburo and 0 Assassin markers
    c  propose a Central Committee: c B,C
    p  propose a pact: p B 3 (no attack, purge or assassination between you
       and B until the end of Game-Turn 3); p B alone agrees to the pact B
       proposed to you; a choice that would break a pact says so
    s  save the game    q  save and quit (as Ctrl-D and Ctrl-C do)
    h  this help        q! quit without saving
    Bots talk to you (> lines): their answers, with their reasons, their colour
    and targets at the start of their Player-Turns, and their proposals (the
    lines ending [pact card], [trade card]...): p B agrees to B's pact; a trade
    offer, a Committee invitation or the Czar's execution order is put to you
    as numbered choices.

Save/resume: the save file holds the game record (``Game.record()``: seed, players,
options, actions) and your own decisions; ``rcw solo --load FILE`` replays them through the
same bots, so the game continues exactly where it stopped.
``--spi`` plays the SPI solitaire (004 [18.0]-[28.0]) instead: see :mod:`bots.spi_solo`.

The game is driven by :class:`rcw.bots.match.Match` (the bots are its agents; seat A has
none, so the match waits for you); what is shown and asked comes from
:class:`rcw.player.Player` (your view, your legal actions, and the engine's answers on reach,
odds and scores).  The bots' attitudes (``k``) are the game's one Player Cooperation Table,
which the match keeps from the deal on and all four bots read (:mod:`bots.cooperation`).
"""

from __future__ import annotations

import argparse
import sys

from rcw.bots import sdt_tables as T
from rcw.bots.cooperation import CooperationTable
from rcw.bots.match import Match
from rcw.bots.negotiation import Pact, pact_until_problem
from rcw.bots.sdt import SDTAgent
from rcw.bots.terminal import (
    QUIT,
    SaveFileError,
    Screen,
    attack_strength,
    check_save_path,
    decision_heading,
    describe_play,
    fighting,
    futile,
    in_order,
    interruptible,
    odds_text,
    province,
    quits,
    read_line,
    read_save,
    score_rows,
    unit_name,
    vp_rows,
    write_save,
)

from rcw import actions as A
from rcw.actions import IllegalAction, action_from_wire, to_wire
from rcw.cliargs import whole
from rcw.game import Game
from rcw.player import Player
from rcw.rng import SEED_MAX
from rcw.words import committee_of, listed

HUMAN = "A"
DEFAULT_SAVE = "rcw-solo.json"
PLAYERS = 5
IGNORE = {"t": "_ignore"}
USAGE = {        # the commands that name players, and how they are typed (see HELP)
    "t": "t B give=Frunze,12 take=Kolchak pm=1 am=0 tpm=0 tam=1: offer B a trade",
    "g": "g B 1 0: give B 1 Politburo and 0 Assassin markers",
    "c": "c B,C: propose a Central Committee of you, B and C",
    "p": "p B 3: propose B a pact until the end of Game-Turn 3 (p B: agree to B's)",
}
IGNORED = A.Action(HUMAN)          # "not now" for an out-of-turn question
APPLIED = A.Action("applied")      # a typed command already applied
HELP = __doc__.split("listed with numbers; other commands:")[1].split("Save/resume")[0].rstrip()
TURN_KINDS = ("random_events", "movement", "combat", "randomizer", "force", "attack", "trading")

__all__ = ["Solo", "run", "add_parser"]


#: What the terminal leaves out unless ``--verbose`` (QA: a phase screen ran past 100 lines at
#: 80x24): each step of a bot's force (the force's last line gives its route) and its stop (004
#: [5.27]); the player's own steps are all shown.
BRIEF_MOVES = frozenset(("move", "stop"))
NEAREST = 10            # the enemy stacks within reach the Movement Phase's screen lists (b: up to 25)


class Solo:
    def __init__(self, seed: int, options: dict | None, out=None, inp=None, script: list[dict] | None = None,
                 verbose: bool = True) -> None:
        self.seed = seed
        self.options = options or {}
        self.g = Game.new(PLAYERS, seed, self.options)
        self.bots = {p: SDTAgent(p, seed) for p in self.g.seats if p != HUMAN}
        self.match = Match(self.g, self.bots)
        self.me: Player = self.match.player(HUMAN)
        self.out = out or sys.stdout
        self.inp = inp or sys.stdin
        self.screen = Screen(self.out)
        self.script = list(script or [])      # recorded human decisions, replayed on --load
        self.human_log: list[dict] = []
        self.save_path: str | None = None
        self.quiet = bool(self.script)
        self.verbose = verbose
        self.last_header = None
        self.asked: set[tuple] = set()
        self.pact_cards: dict[str, dict] = {}       # bot -> the pact it proposed to you

    # -- output ----------------------------------------------------------------------------------
    def say(self, text: str = "", style: str = "") -> None:
        if not self.quiet:
            self.screen.say(text, style)

    def show(self, rows: list[list[str]], header: list[str]) -> None:
        """A table (``rich``'s on a terminal; see :class:`rcw.bots.terminal.Screen`)."""
        if not self.quiet:
            self.screen.table(rows, header)

    def explain(self, events) -> None:
        for bot in self.bots.values():
            for n in bot.take_notes():
                self.say(f"  * {n}", "italic")
        for e in events:
            if not self.verbose and e.kind in BRIEF_MOVES and (e.data or {}).get("seat") != HUMAN:
                continue
            self.say(f"  - {e.text}")
        self.talk()

    def talk(self) -> None:
        """What the bots said to you (bots.negotiation), and the pacts broken."""
        for msg in self.match.messages():
            card = msg.card or {}
            tag = f" [{'counter-' if card.get('counter') else ''}{card['kind']} card]" if card else ""
            self.say(f"  > {msg.seat}{' (public)' if msg.to is None else ''}: {msg.text}{tag}")
            if card.get("kind") == "pact":
                self.pact_cards[msg.seat] = card
                self.say(f"    (p {msg.seat} agrees to it)")
        for b in self.match.breaks():
            self.say(f"  ! {b.text()}")

    def apply(self, action: A.Action, kind: str = "turn") -> list:
        """The human's action, through the match (the bots see its events)."""
        ev = self.match.apply(HUMAN, action, kind, by_agent=False)
        self.explain(ev)
        return ev

    # -- the board -------------------------------------------------------------------------------
    def view(self) -> dict:
        return self.me.view

    def show_board(self, enemies: int = 25) -> None:
        """Your stacks and the enemy stacks within reach, the nearest first (at most ``enemies``
        of them: the Movement Phase's screen shows the nearest :data:`NEAREST`, b up to 25)."""
        v = self.view()
        me = self.me
        mine = sorted((st for st in v["stacks"] if st["owner"] == HUMAN), key=lambda s: s["id"])
        rows = [[str(st["id"]), province(st["province"]), st["color"], ", ".join(unit_name(u) for u in st["units"]),
                 str(attack_strength(me, st["id"])), str(me.defense(st["id"]))] for st in mine]
        self.say(f"\nYour stacks (Game-Turn {v['turn']}):", "bold")
        self.show(rows, ["stack", "province", "colour", "units", "attack", "defense"])
        units = me.data.units
        near: dict[int, tuple] = {}
        for st in mine:
            mover = next((u for u in st["units"] if units[u].is_leader), None)
            if mover is None and st["color"] in ("Blue", "Green", "Anarchist"):
                mover = st["units"][0]
            if mover is None:
                continue
            try:
                reach = me.reach(mover)                  # where this force can go this Movement Phase
            except IllegalAction:
                continue
            provinces = set(reach) | {st["province"]}
            for t in v["stacks"]:
                if (t["province"] in provinces and fighting(me, t) and t["owner"] != HUMAN
                        and me.hostile(st["color"], t["color"]) and t["id"] not in near):
                    dist = 0 if t["province"] == st["province"] else len(reach[t["province"]]["path"])
                    try:
                        odds = odds_text(me.odds([st["id"]], t["id"]))
                    except IllegalAction:
                        continue
                    near[t["id"]] = (t, dist, st["id"], odds)
        rows = []
        nearest = sorted(near.values(), key=lambda x: (x[1], x[0]["id"]))
        for t, dist, sid, odds in nearest[:enemies]:
            rows.append([str(t["id"]), province(t["province"]), t["owner"] or "-", t["color"],
                         ", ".join(unit_name(u) for u in fighting(me, t)), str(me.defense(t["id"])),
                         f"{dist} from stack {sid}", odds])
        self.say("\nEnemies within reach this Movement Phase (odds for that one stack alone):", "bold")
        self.show(rows, ["stack", "province", "owner", "colour", "units", "defense", "moves", "odds"])
        if len(nearest) > enemies:
            more = len(nearest) - enemies
            self.say(f"  ({more} more, farther away{': b lists the nearest 25' if enemies < 25 else ''})")

    def show_vp(self) -> None:
        v = self.view()
        self.say("\nVictory Point chart (combat strength of eliminated units by colour):", "bold")
        self.show(vp_rows(v), ["section", "eliminated"])
        self.say("\nScore if the game ended now:", "bold")
        self.show(score_rows(self.me.scores(), v["seats"]), ["player", "Red VP", "White VP"])

    def dealt(self, v: dict, p: str) -> tuple[int, int]:
        """(Red, White) leadership of the leaders dealt to ``p`` (``view.hands``, before deployment)."""
        units = self.me.data.units
        hand = v.get("hands", {}).get(p, [])
        return (sum(units[u].strength for u in hand if units[u].color == "Red"),
                sum(units[u].strength for u in hand if units[u].color == "White"))

    def show_hands(self) -> None:
        """The pre-game trading session (004 [15.3]): every player's dealt leaders, open information."""
        v = self.view()
        if v["phase"] != "trading":
            self.say("The hands were dealt for the pre-game trading session, which is over: the leaders are on "
                     "the map (b shows yours, k every player's PCM and markers).")
            return
        units = self.me.data.units
        rows = []
        for p in v["seats"]:
            hand = sorted(v.get("hands", {}).get(p, []), key=lambda u: (units[u].color, -units[u].strength, u))
            red, white = self.dealt(v, p)
            rows.append([p + (" (you)" if p == HUMAN else ""), ", ".join(f"{unit_name(u)} #{u}"
                                                               for u in hand) or "-",
                         f"{red}-{white}={T.pcm(red, white)}", str(v["politburo"].get(p, 0)), str(v["assassins"].get(p, 0))])
        self.say("\nThe hands dealt (RL: Red leader, WL: White, with its value; #: its id for t):", "bold")
        self.show(rows, ["player", "leaders", "PCM", "Politburo", "Assassins"])

    def show_markers(self) -> None:
        v = self.view()
        rows = []
        some = next(iter(self.bots.values()))
        pct = self.table()
        active = [p for p in v["seats"] if p not in v["quit"]]
        for p in v["seats"]:
            red, white, pcm, color = some.pit(v, p)
            if v["phase"] == "trading":                  # (no leader on the map yet: the hands dealt)
                red, white = self.dealt(v, p)
                pcm = T.pcm(red, white)
                color = T.political_color(pcm, v["turn"])
            held = sorted(n for n, s in v["control"].items() if s == p)   # (a withdrawn force's marker is kept, 004 [5.67])
            ctl = ", ".join(n + (" (withdrawn)" if n in v["withdrawn"] else "") for n in held) or "-"
            order = T.friendliness_order(pct.row(p, active))
            ends = f"friendliest {order[0]}, worst enemy {order[-1]}" if order else ""
            if p in self.bots:
                att = f"toward you {pct.relation(p, HUMAN)}; {ends}"
            else:
                att = f"(you) {ends}".rstrip()
            rows.append([p + (" (quit)" if p in v["quit"] else ""), str(v["politburo"].get(p, 0)),
                         str(v["assassins"].get(p, 0)), ctl, f"{red}-{white}={pcm}", color, att])
        self.say("\nMarkers and attitudes (PCM: Red minus White leadership; attitude: the game's Player Cooperation "
                 "Table, one for all the bots: the column, "
                 "2 friendly .. 7 hostile):", "bold")
        self.show(rows, ["player", "Politburo", "Assassins", "controls", "PCM", "PIT colour", "attitude"])
        pacts = [(p, held.until) for p in self.bots if (held := self.pact_with(p)) is not None]
        self.say("  Your pacts: " + ("; ".join(f"with {p} until the end of Game-Turn {n}" for p, n in pacts)
                                      if pacts else "none (p B 3 proposes one)"))
        band = T.undecided_band(v["turn"])
        self.say(f"  Political Indicator Table on Game-Turn {v['turn']}: PCM "
                 + (f"{band[1] + 1} or more Red, {band[0]}-{band[1]} Undecided" if band else "1 or more Red")
                 + ", 0 or less White")
        cup = (f"the Auxiliary Forces Randomizer holds {v['randomizer']} chits" if v["phase"] != "trading" else
               "the Auxiliary Forces Randomizer is filled as the forces are deployed, when this session ends "
               "(nothing is drawn from it before Game-Turn 1)")
        self.say(f"  Central Committee: {', '.join(v['committee']) or 'none'}; {cup}")

    def table(self) -> CooperationTable:
        """The game's one Player Cooperation Table (the match's, shared by every bot)."""
        t = self.match.table
        if t is None:                      # (no bot takes one: never with SDT bots)
            t = CooperationTable(self.g.data)
            t.follow(self.g)
        return t

    # -- describing choices ------------------------------------------------------------------------
    def describe(self, a: A.Action, v: dict) -> str:
        if a is IGNORED:
            return "Not now (ignore)"
        text = describe_play(a, v, self.me, HUMAN)
        return (text if text is not None else self._describe(a, v)) + self.breaks_pact(a, v)

    def breaks_pact(self, a: A.Action, v: dict) -> str:
        """" (breaks your pact with B)" if ``a`` attacks, assassinates or purges a pact partner's."""
        t = a.TYPE
        if t == "DeclareAttack":
            whom = next((st["owner"] for st in v["stacks"] if st["id"] == a.target), None)
        elif t == "Assassinate":
            whom = next((st["owner"] for st in v["stacks"] if a.victim in st["units"]), None)
        elif t == "DeclarePurge":
            whom = a.target
        else:
            return ""
        pact = self.pact_with(whom) if whom and whom != HUMAN else None
        return f" (breaks your pact with {whom}, to the end of Game-Turn {pact.until})" if pact else ""

    def pact_with(self, seat: str):
        """The pact in force between you and ``seat`` for the next action, or None."""
        return self.table().pacts.in_force(HUMAN, seat, self.g.turn, self.g.version + 1)

    def _describe(self, a: A.Action, v: dict) -> str:
        t = a.TYPE
        if t == "Assassinate":
            owner = next((st["owner"] for st in v["stacks"] if a.victim in st["units"]), None)
            return f"Send {a.markers} assassin(s) after {unit_name(a.victim)} ({owner or '?'})"
        if t == "AcceptTrade":
            o = next((o for o in v["offers"] if o["id"] == a.offer), {})
            return f"Accept {o.get('from', '?')}'s offer #{a.offer}: {self.offer_text(o)}"
        if t == "DeclineTrade":
            return f"Decline offer #{a.offer}"
        if t == "DeclarePurge":
            how = "alone" if len(a.purgers) == 1 else f"with {', '.join(a.purgers)}"
            return f"Purge {a.target} ({how})"
        if t == "ApprovePurge":
            return "Agree to the Committee's purge as declared" if a.approve else "Refuse the Committee's purge"
        if t == "PassPurge":
            return "Declare no purge of your own"
        if t == "JoinCommittee":
            return f"Consent to a Central Committee of {committee_of(a.members)}"
        if t == "LeaveCommittee":          # (a consent stands until withdrawn, though no Committee sits: 004 [11.12])
            if HUMAN in v["committee"]:
                return "Leave the Central Committee"
            return f"Withdraw your consent to a Central Committee of {committee_of(v['committee_consent'].get(HUMAN, ()))}"
        if t == "TakeSpoil":
            return "Take a Politburo marker" if a.leader == 0 else f"Take {unit_name(a.leader)}"
        if t == "Counterpurge":
            return f"Counterpurge {a.target}" if a.target else "Do not counterpurge"
        if t == "OrderExecution":
            return "Order the Czar's execution" if a.consent else "Refuse the execution order"
        if t == "AnswerExecution":
            return "Execute the Czar" if a.comply else "Refuse to execute the Czar"
        if t == "VoteEndGame":
            return "Vote to end the game (Red Victory)" if a.yes else "Vote to go on"
        if t == "DrawRandomizer":
            return "Draw from the Auxiliary Forces Randomizer"
        if t == "EndTrading":
            return "End the pre-game trading session"
        fields = {k: val for k, val in to_wire(a).items() if k not in ("t", "seat")}
        return f"{t} {fields}" if fields else t

    @staticmethod
    def offer_text(o: dict) -> str:
        """An offer made to the player, its leaders named: "gives you Frunze and 1 Politburo;
        wants Kolchak"."""
        def side(prefix: str) -> str:
            out = [unit_name(u) for u in o.get(f"{prefix}_leaders") or ()]
            out += [f"{o[k]} {word}" for k, word in ((f"{prefix}_politburo", "Politburo"), (f"{prefix}_assassins", "Assassin"))
                    if o.get(k)]
            return listed(out)
        parts = [f"gives you {g}" if (g := side("give")) else "", f"wants {w}" if (w := side("take")) else ""]
        return "; ".join(p for p in parts if p) or "nothing"

    # -- the human ---------------------------------------------------------------------------------
    def read(self, prompt: str) -> str | None:
        return None if self.script else read_line(prompt, self.inp, self.out)

    def human(self, legal: list[A.Action], why: str) -> A.Action | None:
        """Ask the human (or replay the next recorded decision); None means quit."""
        while self.script and self.script[0].get("t") == "_pact":    # (pacts made between decisions)
            w = self.script.pop(0)
            self.make_pact(w["with"], int(w["until"]))
        if self.script:
            w = dict(self.script.pop(0))
            if not self.script:
                self.quiet = False
                self.say("(resumed: the saved game has been replayed)")
            if w.get("t") == IGNORE["t"]:
                self.human_log.append(dict(IGNORE))
                return IGNORED
            applied = w.pop("_applied", False)
            a = action_from_wire(w)
            if not self.me.is_legal(a):             # (a save edited, or of another game)
                raise SaveFileError(f"{self.save_path} does not replay: its decision {len(self.human_log) + 1} "
                                    f"({w['t']}) is not legal there ({self.me.why_illegal(a)})")
            if applied:
                self.apply(a)
                self.human_log.append(to_wire(a) | {"_applied": True})
                return APPLIED
            self.human_log.append(to_wire(a))
            return a
        v = self.view()
        choices = in_order([a for a in legal if a.TYPE != "Quit" and not futile(self.me, a)])
        header = (v["turn"], v["phase"], v.get("phasing"))
        if header != self.last_header and why == "turn":
            self.last_header = header
            order = f" (order {' '.join(v['order'])})" if v["order"] else ""
            self.say(f"\n=== Game-Turn {v['turn']}, your {v['phase'].replace('_', ' ')} phase{order} ===", "bold")
            if v["phase"] == "movement":
                self.show_board(NEAREST)
            if v["phase"] == "trading":
                self.show_hands()
                self.say("  (t offers a trade of leaders and markers, d shows the hands again, k the attitudes)")
        while True:
            self.say(f"\n{why if why != 'turn' else 'Your choices'}:")
            for i, a in enumerate(choices, 1):
                self.say(f"  {i:>2}. {self.describe(a, v)}")
            cmd = self.read("Choose a number (h for help): ")
            if cmd is None:
                continue
            if cmd.isdigit() and 1 <= int(cmd) <= len(choices):
                a = choices[int(cmd) - 1]
                self.human_log.append(dict(IGNORE) if a is IGNORED else to_wire(a))
                return a
            c = cmd.split()
            head = c[0].lower() if c else ""
            if head == "h":
                self.say(HELP)
            elif head == "b":
                self.show_board()
            elif head == "v":
                self.show_vp()
            elif head == "k":
                self.show_markers()
            elif head == "d":
                self.show_hands()
            elif head in USAGE and not self.command_ok(head, c[1:]):
                continue
            elif head == "t":
                offer = self.trade_offer(c[1].upper(), c[2:])
                if offer is not None:
                    return self.free(offer)
            elif head == "s":
                self.save()
            elif head in QUIT:
                if quits(head, self.save, self.say):
                    return None
            elif head == "c":
                members = tuple(sorted({HUMAN, *[x.strip().upper() for x in c[1].split(",") if x.strip()]}))
                return self.free(A.JoinCommittee(HUMAN, members))
            elif head == "p":
                self.propose_pact(c[1].upper(), c[2] if len(c) > 2 else "")
            elif head == "g":
                return self.free(A.OfferTrade(HUMAN, c[1].upper(), give_politburo=int(c[2]), give_assassins=int(c[3])))
            else:
                self.say("Please type one of the numbers above, or h for help.")

    def command_ok(self, head: str, args: list[str]) -> bool:
        """Whether a command of :data:`USAGE` names its players and numbers; if not, its usage
        is said, with the other players still in the game (the engine judges the rest when the
        step is taken)."""
        gone = self.view()["quit"]
        others = [p for p in self.g.seats if p != HUMAN and p not in gone]
        named = [x.strip().upper() for x in args[0].split(",") if x.strip()] if args else []
        wrong = [x for x in named if x not in others and x not in gone]
        left = [x for x in named if x in gone]
        if not named or (head == "g" and not (len(args) == 3 and args[1].isdigit() and args[2].isdigit())):
            self.say(f"{USAGE[head]} (the other players: {', '.join(others)})")
            return False
        if wrong or left:
            self.say("; ".join(([f"No player {', '.join(wrong)}"] if wrong else [])
                               + ([f"{', '.join(left)} {'has' if len(left) == 1 else 'have'} left the game"] if left else []))
                     + f" (the other players: {', '.join(others)})")
            return False
        return True

    def trade_offer(self, to: str, words: list[str]) -> A.OfferTrade | None:
        """``t B give=Frunze,12 take=Kolchak pm=1 am=0 tpm=0 tam=1`` as an offer (leaders by name or
        id); None, with the reason, when it cannot be read.  The engine judges it (``free``)."""
        units = self.me.data.units
        v = self.view()
        hands = v.get("hands", {})

        def leaders(spec: str, seat: str) -> tuple[int, ...] | None:
            out = []
            for w in filter(None, spec.split(",")):
                pool = hands.get(seat, [])
                hit = [u for u in pool if w.isdigit() and u == int(w) or units[u].name.lower() == w.lower()]
                if not hit:
                    self.say(f"No leader {w!r} in {seat}'s hand (d shows the hands)")
                    return None
                out.append(hit[0])
            return tuple(out)

        kw = {}
        if v["phase"] != "trading" and any(w.partition("=")[0] in ("give", "take") for w in words):
            # (the hands to name leaders from are the pre-game session's: after it, whether a
            # leader may be traded is the engine's to say, asked with an offer of one, whoever he
            # is; QA wanted that said rather than "No leader ... in A's hand")
            anyone = next(u for u, x in units.items() if x.kind == "leader")
            why = self.me.why_illegal(A.OfferTrade(HUMAN, to, give_leaders=(anyone,)))
            if why is not None:
                self.say(f"Not allowed: {why}; now t trades Politburo and Assassin markers: pm=N, am=N, tpm=N, tam=N")
                return None
        for w in words:
            key, _, val = w.partition("=")
            if key in ("give", "take"):
                got = leaders(val, HUMAN if key == "give" else to)
                if got is None:
                    return None
                kw[f"{key}_leaders"] = got
            elif key in ("pm", "am", "tpm", "tam") and val.isdigit():
                kw[{"pm": "give_politburo", "am": "give_assassins", "tpm": "take_politburo", "tam": "take_assassins"}[key]] = int(val)
            else:
                self.say(f"Cannot read {w!r}: give=..., take=..., pm=N, am=N, tpm=N, tam=N (h for help)")
                return None
        return A.OfferTrade(HUMAN, to, **kw)

    def propose_pact(self, to: str, until: str) -> None:
        """``p B 3``: a pact with B until the end of Game-Turn 3 (the bot answers with its
        reason); ``p B``: agree to the pact B proposed."""
        g = self.g
        if to not in self.bots:
            self.say(f"No bot {to!r}")
            return
        held = self.pact_with(to)
        if held is not None:
            self.say(f"You and {to} have a pact until the end of Game-Turn {held.until} already.")
            return
        card = self.pact_cards.get(to)
        if not until and card is not None:
            self.pact_cards.pop(to)
            self.make_pact(to, int(card["until"]))
            return
        if not until.isdigit():
            self.say("p B N: a pact with B until the end of Game-Turn N")
            return
        why = pact_until_problem(g.turn, int(until))      # (as the server's chat says: QA got p B 99 through)
        if why:
            self.say(f"Not proposed: {why}.")
            return
        key = f"pact:solo:{g.version}:{to}"
        msg = self.match.consider(to, {"kind": "pact", "with": sorted({HUMAN, to}), "until": int(until), "seat": HUMAN},
                                  key)
        if msg is None:
            return
        self.say(f"  > {to}: {msg.text}")
        if msg.accept:
            self.make_pact(to, int(until))
        elif msg.card:
            self.pact_cards[to] = msg.card
            self.say(f"    (p {to} agrees to the counter-proposal)")

    def make_pact(self, to: str, until: int) -> None:
        self.match.pact(Pact(HUMAN, to, until, since=self.g.version, id=f"solo:{self.g.version}:{to}"))
        self.human_log.append({"t": "_pact", "with": to, "until": until})
        self.say(f"  Pact: you and {to}, no attack, purge or assassination until the end of Game-Turn {until}.")

    def answer_wait(self, wait) -> bool:
        """A bot waits for your answer to its Central Committee invitation; False means quit."""
        members = tuple(wait.key.split(":", 1)[1].split(","))
        join = A.JoinCommittee(HUMAN, members)
        asks = [join] if join in self.me.legal else []
        a = self.human(asks + [IGNORED], f"A bot invites you to a Central Committee of {', '.join(members)}")
        if a is None:
            return False
        if a is IGNORED or a is APPLIED:
            self.match.hear({"kind": "reply", "seat": HUMAN, "key": wait.key, "accept": False})
            return True
        try:
            self.apply(a, "answer")
        except IllegalAction as e:
            self.say(f"Not allowed: {e}")
            self.match.hear({"kind": "reply", "seat": HUMAN, "key": wait.key, "accept": False})
        return True

    def free(self, a: A.Action) -> A.Action | None:
        """A parametric action typed as a command; applied at once if the rules allow it."""
        why = self.me.why_illegal(a)
        if why is not None:
            self.say(f"Not allowed: {why}")
            return self.human(list(self.me.legal), "turn")
        self.human_log.append(to_wire(a) | {"_applied": True})
        self.apply(a)
        return APPLIED

    # -- saving --------------------------------------------------------------------------------------
    def save(self) -> bool:
        return write_save(self.save_path or DEFAULT_SAVE, {"version": 1, "seed": self.seed, "options": self.options,
                                                    "human": self.human_log, "record": self.g.record()}, self.say)

    # -- the loop ------------------------------------------------------------------------------------------
    def run(self) -> int:
        return interruptible(self._play, self.save, self.say)

    def _play(self) -> int:
        g, m = self.g, self.match
        self.say("Russian Civil War — five players: you are A; B-E are the SDT bots (Solitaire for Fanatics).")
        self.say("Type h at any prompt for help.  Bot actions are explained as they happen (* = the bot's reasoning).")
        while not g.over:
            if self.questions() is False:
                return 0
            if g.over:
                break
            step = m.next_step()                      # the bots' answers and moves
            if step is not None:
                self.explain(m.apply(step.seat, step.action, step.kind))
                continue
            self.talk()
            if m.waiting is not None:                 # a bot waits for your answer to its invitation
                if not self.answer_wait(m.waiting):
                    return 0
                continue
            mine = next((p for p in g.pending if p["seat"] == HUMAN), None)
            if mine is None:
                self.say("The game has no pending decision; stopping.")
                return 1
            why = "turn" if mine["kind"] in TURN_KINDS else decision_heading(mine["kind"])
            a = self.human(list(self.me.legal), why)
            if a is None:
                return 0
            if a is APPLIED or a is IGNORED:
                continue
            try:
                self.apply(a)
            except IllegalAction as e:
                self.say(f"Not allowed: {e}")
        self.finish()
        return 0

    def questions(self) -> bool | None:
        """Offers and Committee proposals to you are put to you out of turn, each set once
        (the bots answer theirs in the match's rounds); False means quit."""
        g = self.g
        if g.over or g.decision is not None or g.open_questions() is None:
            return None
        me = self.me
        asks: list[A.Action] = []
        for o in sorted(me.offers(), key=lambda o: o["id"]):
            if o["to"] == HUMAN:
                asks += [A.AcceptTrade(HUMAN, o["id"]), A.DeclineTrade(HUMAN, o["id"])]
        cons = me.view["committee_consent"]
        asks += [A.JoinCommittee(HUMAN, m) for m in sorted({tuple(v) for p, v in cons.items() if p != HUMAN and HUMAN in v})
                 if len(m) > 1]
        asks = [a for a in asks if a in me.legal]
        key = tuple(str(a) for a in asks)
        if not asks or key in self.asked:
            return None
        self.asked.add(key)
        a = self.human(asks + [IGNORED], "Another player asks you")
        if a is None:
            return False
        if a is IGNORED or a is APPLIED:
            return None
        try:
            self.apply(a, "answer")
        except IllegalAction as e:
            self.say(f"Not allowed: {e}")
        return None

    def finish(self) -> None:
        self.quiet = False
        r = self.g.result or {}
        self.say("\n=== The game is over ===", "bold")
        self.say(f"{r.get('reason', '')}")
        color = r.get("winner_color")
        scores = r.get("scores", {})
        if color:
            rows = [[p, str(scores.get(p, 0))] for p in r.get("ranking", sorted(scores))]
            self.say(f"{color} Victory.  Final {color} Victory Points:")
            self.show(rows, ["player", "VP"])
            ws = r.get("winners") or ([r["winner"]] if r.get("winner") else [])
            self.say(("Winners (tied): " if len(ws) > 1 else "Winner: ") + (", ".join(ws) or "none")
                     + ("  — that's you!" if HUMAN in ws else ""))
            self.say("FINAL SCORE: " + " ".join(f"{p}={scores.get(p, 0)}" for p in sorted(scores)))
        else:
            now = self.g.scores()
            red, white = now["Red"], now["White"]
            self.say("No side won.  The Victory Points each player holds:")
            self.show(score_rows(now, sorted(red)), ["player", "Red VP", "White VP"])
            self.say("FINAL SCORE: no victor; Red VP " + " ".join(f"{p}={red[p]}" for p in sorted(red))
                     + "; White VP " + " ".join(f"{p}={white[p]}" for p in sorted(white)))


def run(args: argparse.Namespace) -> int:
    if args.spi:                                   # the SPI solitaire: bots/spi_solo.py
        from rcw.bots.spi_solo import run_spi

        return run_spi(args)
    options = {"max_turns": args.max_turns} if args.max_turns else {}
    script = None
    seed = args.seed
    try:
        if args.load:
            saved = read_save(args.load, None)
            seed, options, script = saved["seed"], saved.get("options") or {}, _script(saved, args.load)
        check_save_path(args.save or args.load or DEFAULT_SAVE)
        solo = Solo(seed, options, script=script, verbose=args.verbose)
    except (SaveFileError, IllegalAction) as e:
        print(f"rcw solo: {e}", file=sys.stderr)
        return 2
    solo.save_path = args.save or args.load
    try:
        return solo.run()
    except SaveFileError as e:             # (a decision of the save's that does not replay)
        print(f"rcw solo: {e}", file=sys.stderr)
        return 2


def _script(saved: dict, path: str) -> list[dict]:
    """The human decisions a five-player save holds (``human``), each one read as it will be
    replayed (a wire action, an ignored question, a pact), or :class:`SaveFileError`."""
    script = saved.get("human") or []
    if not isinstance(script, list) or not isinstance(saved.get("options") or {}, dict):
        raise SaveFileError(f"{path} is not a saved game of rcw solo (its human decisions are not a list)")
    for i, w in enumerate(script, 1):
        try:
            if not isinstance(w, dict):
                raise ValueError("not a JSON object")
            if w.get("t") == "_pact":
                if not isinstance(w.get("with"), str) or isinstance(w.get("until"), bool) or not isinstance(w.get("until"), int):
                    raise ValueError("a pact needs 'with' (a seat) and 'until' (a Game-Turn)")
            elif w.get("t") != IGNORE["t"]:
                action_from_wire({k: v for k, v in w.items() if k != "_applied"})
        except (ValueError, TypeError, IllegalAction) as e:
            raise SaveFileError(f"{path} is not a saved game of rcw solo (decision {i}: {e})") from None
    return script


def add_parser(sub) -> None:
    p = sub.add_parser("solo", help="play against four SDT bots in the terminal (you are seat A)",
                       description="Play the five-player 'Solitaire for Fanatics' game: you are A, the SDT bots "
                                   "are B-E.  Numbered choices; h for help; s saves, q saves and quits, q! quits without saving.")
    p.add_argument("--seed", type=whole(0, SEED_MAX), default=1, help="game seed (default 1)")
    p.add_argument("--load", metavar="FILE", help="resume a saved game")
    p.add_argument("--save", metavar="FILE", help="where s/q save the game (default rcw-solo.json, or the --load file)")
    p.add_argument("--max-turns", type=whole(0), default=0, metavar="T", help="end with no victor after T Game-Turns (default 0: no limit)")
    p.add_argument("--verbose", action="store_true",
                   help="show every step of the bots' moves (default: a bot's move in one line, with its route)")
    p.add_argument("--spi", action="store_true", help="play the SPI solitaire (004 [18.0]-[28.0]) as the Red Player "
                   "(resume with --spi --load FILE; default save file rcw-spi.json)")
    p.set_defaults(func=run)
