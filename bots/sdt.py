"""The "Solitaire for Fanatics" computer player (SDT bot), after J. Richard Jarvinen's article
in ``004_8c1b9ecc5e5ea495.txt`` ("RUSSIAN CIVIL WAR Solitaire for Fanatics").  The tables
themselves are in :mod:`bots.sdt_tables`, each with the article's words and our reading.

How a turn is played
--------------------
The engine offers small steps, so the bot plans a whole Player-Turn when its Movement Phase
opens and then emits the matching steps one per :meth:`SDTAgent.choose` call, checking each
against ``legal`` (a step that is no longer legal is skipped; nothing illegal is returned).

1. Random Events Phase: roll (nothing to decide).  Non-Attack Policy 10: a player who
   controls no units at all leaves the game ("he is automatically out of the game").
2. Movement Phase opens: roll the SDT (row 6: the VST).  Row 1: give one Assassin marker to
   the 2nd friendliest player.  Rows 4-5: Purge Cooperation (see *Politics*).  Then the
   required attacks are chosen from the APT (or the VST) at the row's minimum odds, forces
   are sent to the target provinces, and the rest follow the Non-Attack Policies.
3. Combat Phase: rows 3 and 5 first make the assassination attempt ("Purges are attempted
   before assassinations"), then each planned attack rolls Attack Consideration (not on the
   VST) and is declared, joined by every assigned stack, and resolved.
4. Randomizer Phase: draw.

Common-sense rules we chose (the article leaves them to the player's judgement)
-----------------------------------------------------------------------------
- *Which target first* within one APT line: the target that reaches the highest odds, then
  the strongest target (more Victory Points), then the lowest stack id.  Forces already in
  the target's province are used before forces that must move; among them the strongest
  first, until the minimum odds are reached ("Different stacks of units may be combined").
  Stacks already in the province that are not needed elsewhere join to raise the odds
  ("When possible, the highest odds that can be achieved should be used").
- *Own units as targets*: a White player never attacks his own White units, a Red player
  never his own Red units (the article's exceptions); an Undecided player never attacks his
  own units at all.  Other own units may be attacked, as the article's APT implies.
- *Subversive Attacks* (004 [8.3]): the article does not name them, but its APT lines
  "Red vs Blue" (Red player I, White player II, Undecided player I) and a VST grudge
  against a player's Blue units call for Red units attacking Blue units, and a Subversive
  Attack from an adjacent province is such an attack.  Our rule: when the Red forces that
  are in, or can reach, provinces adjacent to the Blue stack reach the minimum odds
  subversively (strength doubled on a "Subversive Attacks Doubled" Player-Turn, 004
  [12.12]), the bot attacks subversively: "Ae" and "Ex" then have no effect (004 [8.33]),
  which is what "the highest odds ... in order to minimize combat results of AE or EX"
  asks for.  Otherwise it attacks normally from inside the province.  Attack
  Consideration and the PCT shift apply to Subversive Attacks like any other.
- *Assassination*: the target is a leader of the worst enemy (unfriendliest on the PCT) that
  one of the bot's leaders shares a province with, or can reach this Movement Phase (one
  leader not needed for an attack is sent there); otherwise the attempt is aborted.
- *Non-Attack Policies*, in this order for every force not needed for an attack: (1) Czechs
  of a White player go to Vladivostok and leave; a White player's Czar goes to the nearest
  port and emigrates; (4) the Gold's leader goes to steal Green units within reach; (3) other
  Czar/Gold escorts never leave their Imperial unit: when other players' opposed forces
  stand in or next to their province they move to the reachable province with the least
  such strength around it (preferring one where their own stacks are, to consolidate),
  else they stay (and consolidate by the merges below); (5) leaders with room pick up loose
  uncontrolled combat units of their colour (the strongest within reach); (6) Red players'
  Red forces garrison Tver, Petrograd and the home provinces of Red units awaiting
  replacement (Game-Turns 1-5), one force per province; (7) White players' White forces
  garrison the home provinces of White units awaiting replacement; (5/8) a smaller force
  joins the player's strongest stack of its colour within reach; at the end of movement
  every two of the player's stacks in one province are merged where the rules allow.
  (9) Exchange losses are taken from combat units before leaders (the smallest unit that
  covers the loss, else the largest).  (2) A Red player holding the Czar tries to have it
  executed by a Central Committee formed as for purges (never on Game-Turn 1).
- *Trades*: the bot accepts an offer that asks nothing of it (a gift) and declines every
  other offer; it offers nothing except the SDT gifts.
- *End-game vote* (004 [14.1] case 3): the bot votes to end the game when its PIT colour is
  Red.
- *Capture* (004 [13.41]): always capture an Imperial unit on offer.

The PCT and what the bot can see
--------------------------------
Each agent keeps the PIT (computed from the view whenever needed: "the settings on the PIT
are changed the moment a leader is lost or gained") and the whole PCT.  The PCT starts from
the PIT colours of the deal (the leaders in every hand at the end of the pre-game session).
Shifts come from (a) the bot's own acts, recorded when it takes them (attacks that take
place, purge and assassination attempts, gifts given and accepted) and (b) what it sees
change between two of its views (agents get views only): a unit of player X that appears in
player Y's section of the VP chart is an attack or successful assassination between X and
Y (one shift per pair and province in one interval); a Red leader that changes hands on the
map is a purge; Assassin markers the bot receives that it did not accept as a gift are a
failed assassination by the player who lost them; Politburo markers it loses that it did
not give away are a purge by the player who gained them.  Only the bot's own row is used for
its decisions, and its own row sees every act against it; third players' rows are a
best-effort picture (two attacks by one pair in one province between two of the bot's
views count once; a gift between two other players is not seen).  An engine API that would
make every row exact: the public events since the seat's last view in ``view(seat)``
(e.g. ``view["events"]``, each with the acting seat and the seats acted against).

Every force a bot moves is announced in a note ("moves Trotsky to SAMA: to attack in SAMA
[APT priority I: Red vs White]"), which ``rcw solo`` prints before the engine's sentences.

Out-of-turn answers
-------------------
Offers and Central Committee proposals are free actions, not pending decisions, so the
drivers call :meth:`SDTAgent.react` for every bot seat when one is open (``rcw simulate``
and ``rcw solo`` do; the server must do the same for bot seats); ``react`` returns an
action or None.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from rcw.bots import sdt_tables as T
from rcw.bots.sdt_board import STACK_LIMIT, Board, VStack, data, odds_col, opposed

from rcw import actions as A
from rcw.data import BLUE, GREEN, RED, WHITE

SAFE_DEFAULTS = ("EndForce", "EndMovement", "EndCombat", "DrawRandomizer", "EndPlayerTurn", "RollRandomEvents", "EndTrading",
                 "DeclineCapture", "DeclineTrade", "EndSpoils")
NEVER = ("Quit", "CancelAttack", "RemoveAttacker", "JoinCommittee", "LeaveCommittee", "DeclarePurge",
         "OrderExecution", "PassPurge")


def _handlers() -> dict:
    from rcw.game import HANDLERS

    return HANDLERS


def supported(action_type: type) -> bool:
    """Whether the engine applies this action type now (politics is optional, being built)."""
    return action_type in _handlers()


@dataclass
class Force:
    """One movable force as planned: a leader (with what is attached to it) or a Blue/Green stack."""

    lead: int
    stack: int
    province: str
    color: str
    strength: int
    leader: bool
    escort: bool
    nationalities: frozenset[str]
    pickups: list[int] = field(default_factory=list)
    reach: dict | None = None


@dataclass
class PlannedAttack:
    target: int
    province: str
    color: str                   # colour of the attacking units
    forces: list[int]            # lead units
    owner: str | None
    min_col: int
    consider: bool               # roll Attack Consideration first
    label: str = ""
    subversive: bool = False     # 004 [8.3]: Red units from provinces adjacent to a Blue stack


@dataclass
class Order:
    lead: int
    dest: str | None
    attach_start: list[int] = field(default_factory=list)
    attach_dest: list[int] = field(default_factory=list)
    after: list[A.Action] = field(default_factory=list)
    why: str = ""


@dataclass
class TurnPlan:
    turn: int
    row: T.SdtRow
    color: str
    vst: str | None = None
    vst_target: str | None = None
    attacks: list[PlannedAttack] = field(default_factory=list)
    orders: list[Order] = field(default_factory=list)
    pre: list[A.Action] = field(default_factory=list)     # gifts, emigrations at the start
    assassinate: bool = False
    assassin_target: int | None = None
    assassinated: bool = False
    purge: bool = False
    execute_czar: bool = False
    politics_done: bool = False
    combat_queue: list | None = None
    current_owner: str | None = None      # owner of the stack under attack now
    merges_done: bool = False


class SDTAgent:
    """A Fanatics-table player.  ``choose(view, legal)`` returns one of ``legal`` (or a
    gift ``OfferTrade``, the one parametric action, when the SDT calls for it)."""

    name = "sdt"

    def __init__(self, seat: str, seed: int = 0) -> None:
        self.seat = seat
        self.rng = random.Random(f"{seed}:{seat}")
        self.pct: dict[frozenset, int] = {}
        self.pct_started = False
        self.deal_leadership: dict[str, tuple[int, int]] = {}
        self.snap: dict | None = None
        self.plan: TurnPlan | None = None
        self.cur: dict | None = None
        self.notes: list[str] = []
        self.expect = {"assassins": 0, "politburo": 0}
        self.politics = PoliticsAdapter(self)

    # -- public helpers (also used by the solo game to explain the bots) -------------------
    def relation(self, a: str, b: str) -> int:
        return self.pct.get(frozenset((a, b)), 3)

    def row(self, view: dict) -> dict[str, int]:
        return {p: self.relation(self.seat, p) for p in view["seats"] if p != self.seat and p not in view["quit"]}

    def friendliness(self, view: dict) -> list[str]:
        return T.friendliness_order(self.row(view))

    def pit(self, view: dict, seat: str | None = None) -> tuple[int, int, int, str]:
        """(Red, White, PCM, colour) of a player now."""
        b = self._board(view)
        red, white = b.leadership(seat or self.seat)
        m = T.pcm(red, white)
        return red, white, m, T.political_color(m, view["turn"])

    def _board(self, view: dict) -> Board:
        """The Board of a view, built once per view object."""
        cached = self.__dict__.get("_board_cache")
        if cached is not None and cached[0] is view:
            return cached[1]
        b = Board.of(view)
        self._board_cache = (view, b)
        return b

    def take_notes(self) -> list[str]:
        out, self.notes = self.notes, []
        return out

    def note(self, text: str) -> None:
        self.notes.append(f"{self.seat}: {text}")

    def die(self) -> int:
        return self.rng.randint(1, 6)

    def bump(self, other: str | None, delta: int, why: str = "") -> None:
        if not other or other == self.seat:
            return
        self._bump_pair(self.seat, other, delta)

    def _bump_pair(self, a: str, b: str, delta: int) -> None:
        key = frozenset((a, b))
        self.pct[key] = T.shift(self.pct.get(key, 3), delta)

    # -- the one call -------------------------------------------------------------------------
    def choose(self, player) -> A.Action:
        """Through the public API (:class:`rcw.player.Player`)."""
        return self.choose_view(player.view, list(player.legal))

    def react(self, player) -> A.Action | None:
        return self.react_view(player.view, list(player.legal))

    def fallback(self, player) -> A.Action:
        return self.fallback_legal(list(player.legal))

    def choose_view(self, view: dict, legal: list[A.Action]) -> A.Action:
        self.observe_view(view)
        try:
            act = self._choose(view, legal)
        except Exception as e:  # never let a planning bug become an illegal move
            self.note(f"planning error ({type(e).__name__}: {e}); falling back")
            self.plan = None
            self.cur = None
            act = None
        if act is None or (act not in legal and not self._gift_ok(view, act) and not self._parametric_ok(view, act)):
            act = self.fallback_legal(legal)
        return act

    def react_view(self, view: dict, legal: list[A.Action]) -> A.Action | None:
        """Out of turn (the drivers ask every bot seat when offers or Committee proposals are
        open): answer offers, proposals and the counter-committee; None to do nothing.
        (The PCT is brought up to date at the next ``choose``; answers here need only the
        bot's own row as it stands.)"""
        try:
            for a in legal:
                if isinstance(a, (A.AcceptTrade, A.DeclineTrade)):
                    return self._answer_offer(view, a)
            act = self.politics.react(view, legal)
        except Exception as e:
            self.note(f"politics error ({type(e).__name__}: {e})")
            return None
        if act is None or (act not in legal and not self._parametric_ok(view, act)):
            return None
        return act

    def _parametric_ok(self, view: dict, a: A.Action) -> bool:
        if isinstance(a, A.JoinCommittee):
            return self.politics.can_consent(view, list(a.members))
        if isinstance(a, A.DeclarePurge):
            return view.get("decision") is None and a.target not in view.get("committee", []) \
                and self.seat in view.get("committee", [])
        return False

    def _answer_offer(self, view: dict, a: A.Action) -> A.Action:
        o = next((o for o in view["offers"] if o["id"] == a.offer), None)
        if o and not (o["take_leaders"] or o["take_politburo"] or o["take_assassins"]):
            self.expect["assassins"] += o["give_assassins"]
            self.expect["politburo"] += o["give_politburo"]
            if o["give_politburo"]:
                self.bump(o["from"], T.SHIFT_POLITBURO_GIFT * o["give_politburo"])
            if o["give_assassins"]:
                self.bump(o["from"], T.SHIFT_ASSASSIN_GIFT * o["give_assassins"])
            self.note(f"accepts {o['from']}'s gift")
            return A.AcceptTrade(self.seat, a.offer)
        return A.DeclineTrade(self.seat, a.offer)

    def fallback_legal(self, legal: list[A.Action]) -> A.Action:
        for name in SAFE_DEFAULTS:
            for a in legal:
                if a.TYPE == name:
                    return a
        ok = [a for a in legal if a.TYPE not in NEVER]
        if ok:
            return ok[0]
        ok = [a for a in legal if a.TYPE != "Quit"]
        return ok[0] if ok else legal[0]

    def _gift_ok(self, view: dict, a: A.Action) -> bool:
        if not isinstance(a, A.OfferTrade) or view["phase"] == "over":
            return False
        if a.to == self.seat or a.to not in view["seats"] or a.to in view["quit"] or a.take_leaders or a.give_leaders:
            return False
        return (view["politburo"].get(self.seat, 0) >= a.give_politburo
                and view["assassins"].get(self.seat, 0) >= a.give_assassins
                and (a.give_politburo or a.give_assassins) and not (a.take_politburo or a.take_assassins))

    def _choose(self, view: dict, legal: list[A.Action]) -> A.Action | None:
        me = self.seat
        ph = view["phase"]
        d = view.get("decision")
        # offers to us (gifts are accepted, everything else declined)
        for a in legal:
            if isinstance(a, A.AcceptTrade):
                return self._answer_offer(view, a)
        if ph == "trading":
            for a in legal:
                if isinstance(a, A.EndTrading):
                    return a
            return None
        if d is not None and d.get("seat") == me:
            return self._decide(view, legal, d)
        pol = self.politics.react(view, legal)
        if pol is not None:
            return pol
        if view.get("phasing") != me:
            return None
        if ph == "random_events":
            self.plan = None
            self.cur = None
            b = self._board(view)
            if view["turn"] > 1 and not b.controls_any(me) and any(isinstance(a, A.Quit) for a in legal):
                self.note("controls no units and leaves the game (Non-Attack Policy 10)")
                return A.Quit(me)
            return A.RollRandomEvents(me)
        if ph == "movement":
            if self.plan is None or self.plan.turn != view["turn"]:
                self.plan = self.make_plan(view)
            return self._movement_step(view, legal)
        if ph == "combat":
            if self.plan is None or self.plan.turn != view["turn"]:
                return None
            return self._combat_step(view, legal)
        if ph == "randomizer":
            # After the draw the Player-Turn stays open only for assassinations (004 [4.2],
            # [10.0]); the bot assassinates in its Combat Phase (above), so it ends the turn.
            if A.DrawRandomizer(me) in legal:
                return A.DrawRandomizer(me)
            return A.EndPlayerTurn(me)
        return None

    # -- observation: the PCT from what the view shows ---------------------------------------
    def observe_view(self, view: dict) -> None:
        me = self.seat
        seats = [p for p in view["seats"]]
        if view["phase"] == "trading":
            d = data()
            for p, ls in view.get("hands", {}).items():
                red = sum(d.units[u].strength for u in ls if d.units[u].color == RED)
                white = sum(d.units[u].strength for u in ls if d.units[u].color == WHITE)
                self.deal_leadership[p] = (red, white)
            return
        b = self._board(view)
        if not self.pct_started:
            self.pct_started = True
            colors = {}
            for p in seats:
                red, white = self.deal_leadership.get(p) or b.leadership(p)
                colors[p] = T.political_color(T.pcm(red, white), 1)
            for i, p in enumerate(seats):
                for q in seats[i + 1:]:
                    self.pct[frozenset((p, q))] = T.initial_relation(colors[p], colors[q])
        d = data()
        snap = {"owner": {}, "prov": {}, "vp": {}, "pb": dict(view["politburo"]), "as": dict(view["assassins"]),
                "phasing": view.get("phasing"), "turn": view["turn"]}
        for st in b.stacks:
            for u in st.units:
                if not d.units[u].is_imperial:
                    snap["owner"][u] = st.owner
                    snap["prov"][u] = st.province
        for section, entries in view["vp"].items():
            for uid, _face in entries:
                snap["vp"][uid] = section
        prev, self.snap = self.snap, snap
        if prev is None:
            return
        own_turn = prev["phasing"] == me and snap["phasing"] == me and prev["turn"] == snap["turn"]
        hostile: set[tuple[frozenset, str]] = set()
        purges: set[frozenset] = set()
        if not own_turn:
            for uid, section in snap["vp"].items():
                if uid in prev["vp"] or section not in seats:
                    continue
                o = prev["owner"].get(uid)
                if o and o in seats and o != section:
                    hostile.add((frozenset((o, section)), prev["prov"].get(uid, "")))
        for uid, o in snap["owner"].items():
            was = prev["owner"].get(uid)
            if not d.units[uid].is_leader or was is None or o is None or was == o:
                continue
            if uid not in prev["owner"] or was not in seats or o not in seats:
                continue
            if own_turn and o == me:
                continue                       # our own purge: recorded when we made it
            purges.add(frozenset((was, o)))
        if not own_turn:
            gain = snap["as"].get(me, 0) - prev["as"].get(me, 0) - self.expect["assassins"]
            if gain > 0:
                for p in sorted(seats):
                    if p != me and snap["as"].get(p, 0) < prev["as"].get(p, 0):
                        hostile.add((frozenset((me, p)), "assassination"))
            loss = prev["pb"].get(me, 0) - snap["pb"].get(me, 0) + self.expect["politburo"]
            if loss > 0:
                for p in sorted(seats):
                    if p != me and snap["pb"].get(p, 0) > prev["pb"].get(p, 0):
                        purges.add(frozenset((me, p)))
        self.expect = {"assassins": 0, "politburo": 0}
        for pair, _where in sorted(hostile, key=lambda x: (sorted(x[0]), x[1])):
            a, c = sorted(pair)
            self._bump_pair(a, c, T.SHIFT_ATTACK)
        for pair in sorted(purges, key=sorted):
            a, c = sorted(pair)
            self._bump_pair(a, c, T.SHIFT_PURGE)

    # -- decisions out of turn ---------------------------------------------------------------
    def _decide(self, view: dict, legal: list[A.Action], d: dict) -> A.Action | None:
        kind = d.get("kind")
        if kind == "loss":
            return self._choose_loss(view, legal, d)
        if kind == "capture":
            caps = [a for a in legal if isinstance(a, A.CaptureImperial)]
            if caps:
                return caps[0]
            return None
        if kind == "vote":
            red = self.pit(view)[3] == RED
            return A.VoteEndGame(self.seat, red)
        return self.politics.decide(view, legal, d)

    def _choose_loss(self, view: dict, legal: list[A.Action], d: dict) -> A.Action | None:
        """Non-Attack Policy 9: "Whenever exchanges occur, losses should be taken from combat
        units, not leaders."  Our rule: the smallest combat unit that covers what is still
        owed, else the largest combat unit; leaders only when no combat unit is left.  When
        the losing units are not ours (an uncontrolled defender, 004 [8.46]) we take the
        leaders and largest units first."""
        du = data().units
        opts = [a for a in legal if isinstance(a, A.ChooseLoss)]
        if not opts:
            return None
        b = self._board(view)
        need = d.get("need", 0)
        ours = all(b.holder(a.unit) == self.seat for a in opts)
        if not ours:
            return max(opts, key=lambda a: (du[a.unit].is_leader, du[a.unit].strength, -a.unit))
        combat = [a for a in opts if du[a.unit].is_combat]
        pool = combat or opts
        cover = [a for a in pool if du[a.unit].strength >= need]
        if cover:
            return min(cover, key=lambda a: (du[a.unit].strength, a.unit))
        return max(pool, key=lambda a: (du[a.unit].strength, -a.unit))

    # -- planning ----------------------------------------------------------------------------------
    def make_plan(self, view: dict) -> TurnPlan:
        me = self.seat
        b = self._board(view)
        color = self.pit(view)[3]
        roll = self.die()
        row = T.SDT[roll]
        plan = TurnPlan(view["turn"], row, color)
        self.politics.reset()
        order = self.friendliness(view)
        czar_holder, gold_holder = b.holder(data().czar), b.holder(data().gold)
        if row.vindictive:
            while True:
                r2 = self.die()
                res = T.VST[r2]
                if not T.vst_needs_reroll(res, me, czar_holder, gold_holder):
                    break
            plan.vst = res
            plan.vst_target = T.vst_target(res, order, czar_holder, gold_holder)
            self.note(f"rolls 6 on the Strategy Determination Table, then {r2} on the Vindictive Strategy Table: "
                      f"attack the {res} player ({plan.vst_target}), 3 attacks at 1-1 or better")
        else:
            self.note(f"is {color} (PCM {self.pit(view)[2]}); rolls {roll} on the Strategy Determination Table: "
                      f"{row.attacks} attack{'s' if row.attacks > 1 else ''} at {row.min_odds}-1 or better"
                      + (", a purge" if row.purge else "") + (", an assassination" if row.assassination else ""))
        if row.gift_assassin and view["assassins"].get(me, 0) > 0 and len(order) >= 2:
            to = order[1]
            plan.pre.append(A.OfferTrade(me, to, give_assassins=1))
            self.bump(to, T.SHIFT_ASSASSIN_GIFT)
            self.note(f"gives an Assassin marker to {to}, its 2nd friendliest player (SDT roll 1)")
        plan.purge = row.purge
        plan.assassinate = row.assassination and view["assassins"].get(me, 0) > 0
        if color == RED and czar_holder == me and view["turn"] > 1:
            st = b.where.get(data().czar)
            lead = st.attached.get(data().czar) if st else 0
            if lead and data().units[lead].color == RED:
                plan.execute_czar = True
        forces = self._forces(b)
        used: set[int] = set()
        if plan.vst:
            self._plan_vst(view, b, plan, forces, used)
        else:
            self._plan_apt(view, b, plan, forces, used)
        if plan.assassinate:
            self._plan_assassination(view, b, plan, forces, used)
        self._plan_non_attack(view, b, plan, forces, used)
        return plan

    def _forces(self, b: Board) -> list[Force]:
        me, d = self.seat, data()
        out = []
        reserved: set[int] = set()
        for st in sorted(b.mine(me), key=lambda s: s.id):
            escort = st.has_imperial()
            if st.leaders:
                for lead in st.leaders:
                    lu = d.units[lead]
                    att = [u for u in st.attached_to(lead) if d.units[u].is_combat]
                    strength = lu.strength + sum(d.units[u].strength for u in att)
                    imps = st.attached_to(lead)
                    esc = d.czar in imps or d.gold in imps
                    f = Force(lead, st.id, st.province, lu.color, strength, True, esc, frozenset(
                        d.units[u].nationality for u in att if d.units[u].color == GREEN))
                    room = self._capacity(st, lead) - len(att)
                    room = min(room, STACK_LIMIT - 1 - len(att))
                    for u in self._loose(b, st.province, lu.color, reserved):
                        if room <= 0:
                            break
                        f.pickups.append(u)
                        reserved.add(u)
                        f.strength += d.units[u].strength
                        room -= 1
                    out.append(f)
            else:
                first = st.units[0]
                fu = d.units[first]
                if fu.is_combat and fu.color in (BLUE, GREEN) and fu.nationality not in d.immobile:
                    nats = frozenset(d.units[u].nationality for u in st.fighting)
                    out.append(Force(first, st.id, st.province, st.color, st.attack_strength(), False, escort, nats))
        return out

    def _capacity(self, st: VStack, lead: int) -> int:
        d = data()
        lu = d.units[lead]
        att = st.attached_to(lead)
        cap = lu.strength
        if d.czar in att and lu.color == WHITE:
            cap += 2
        if d.gold in att:
            cap += 2
        return cap

    def _loose(self, b: Board, province: str, color: str, reserved: set[int]) -> list[int]:
        """Combat units of ``color`` in ``province`` a leader of ours may attach (strongest first)."""
        d = data()
        out = []
        for st in b.stacks:
            if st.province != province or st.owner not in (None, self.seat):
                continue
            for u in st.units:
                uu = d.units[u]
                if uu.is_combat and uu.color == color and not st.attached.get(u) and u not in reserved:
                    out.append(u)
        return sorted(out, key=lambda u: (-d.units[u].strength, u))

    def _reach(self, b: Board, f: Force) -> dict:
        if f.reach is None:
            f.reach = b.reach(f.province, f.color, f.leader, f.nationalities)
        return f.reach

    def _targets(self, b: Board, target_color: str, plan: TurnPlan, owner: str | None = None,
                 any_owner: bool = False) -> list[VStack]:
        me = self.seat
        out = []
        for st in b.stacks:
            if not st.fighting or (target_color and st.color != target_color):
                continue
            if owner is not None and st.owner != owner:
                continue
            if st.owner == me and not any_owner:
                if plan.color == T.UNDECIDED or st.color == plan.color:
                    continue
            out.append(st)
        return out

    def _try(self, b: Board, t: VStack, colors: tuple[str, ...], forces: list[Force], used: set[int],
             min_col: int) -> tuple[int, list[Force], str, dict | None] | None:
        """Greedy: the forces of one colour that reach ``t`` with the best odds at or above
        ``min_col``; local forces first, then the strongest.  Returns (odds column, forces,
        their colour, None), or for a Subversive Attack (Red on Blue, preferred when it
        reaches the odds) (column, forces, Red, {lead: province to move to or None})."""
        best = None
        dfn = t.defense()
        for color in colors:
            if not opposed(color, t.color):
                continue
            if color == RED and t.color == BLUE:
                sub = self._try_subversive(b, t, forces, used, min_col)
                if sub is not None:
                    return sub
            cands = []
            for f in forces:
                if f.lead in used or f.color != color or f.stack == t.id:
                    continue
                local = f.province == t.province
                if not local and t.province not in self._reach(b, f):
                    continue
                cands.append((not local, -f.strength, f.lead, f))
            cands.sort(key=lambda x: x[:3])
            plain = [c[3] for c in cands if not c[3].escort]
            escorts = [c[3] for c in cands if c[3].escort]
            for pool, need in ((plain, min_col), (plain + escorts, max(min_col, T.ESCORT_MIN_ODDS))):
                chosen, att = [], 0
                for f in pool:
                    chosen.append(f)
                    att += f.strength
                    col = odds_col(att, dfn)
                    if col is not None and col >= need:
                        break
                col = odds_col(att, dfn)
                if chosen and col is not None and col >= need:
                    key = (col, -len(chosen))
                    if best is None or key > (best[0], -len(best[1])):
                        best = (col, chosen, color, None)
                    break
        return best

    @staticmethod
    def _subversion_posts(province: str) -> set[str]:
        """004 [8.31]: provinces from which Red units may attack Blue units in ``province``
        subversively: those sharing a border passable by units (the Kerch Straits are
        White-only, so not passable by Red units)."""
        d = data()
        return {p for p in d.provinces[province].adjacent
                if frozenset((p, province)) not in d.white_only_borders}

    def _try_subversive(self, b: Board, t: VStack, forces: list[Force], used: set[int],
                        min_col: int) -> tuple[int, list[Force], str, dict] | None:
        """Red forces already in, or able to reach, a province adjacent to ``t``: those
        already in place first, then the strongest; each mover goes to the nearest such
        province, preferring one with no units of another colour (where it could itself be
        attacked).  Strength is doubled on a "Subversive Attacks Doubled" turn (004 [12.12])."""
        posts = self._subversion_posts(t.province)
        if not posts:
            return None
        mult = 2 if b.view.get("subversion_doubled") else 1
        dfn = t.defense()
        cands = []
        for f in forces:
            if f.lead in used or f.color != RED or not f.leader:
                continue
            if f.province in posts:
                dest, dist = None, 0
            else:
                reach = self._reach(b, f)
                opts = [p for p in posts if p in reach]
                if not opts:
                    continue
                dest = min(opts, key=lambda p: (any(c != RED for c in b.colors_in.get(p, ())), len(reach[p]), p))
                dist = len(reach[dest])
            cands.append((dist > 0, -f.strength, f.lead, f, dest))
        cands.sort(key=lambda x: x[:3])
        plain = [c for c in cands if not c[3].escort]
        escorts = [c for c in cands if c[3].escort]
        for pool, need in ((plain, min_col), (plain + escorts, max(min_col, T.ESCORT_MIN_ODDS))):
            chosen, att = [], 0
            for c in pool:
                chosen.append(c)
                att += c[3].strength * mult
                col = odds_col(att, dfn)
                if col is not None and col >= need:
                    return col, [x[3] for x in chosen], RED, {x[3].lead: x[4] for x in chosen}
        return None

    def _assign(self, b: Board, plan: TurnPlan, t: VStack, got: tuple, min_col: int,
                consider: bool, used: set[int], label: str) -> None:
        col, chosen, color, dests = got
        sub = dests is not None
        for f in chosen:
            used.add(f.lead)
            dest = dests.get(f.lead) if sub else (t.province if f.province != t.province else None)
            why = (f"to make a Subversive Attack on {t.province} [{label}]" if sub
                   else f"to attack in {t.province} [{label}]")
            if dest:
                plan.orders.append(Order(f.lead, dest, list(f.pickups), why=why))
            elif f.pickups:
                plan.orders.append(Order(f.lead, None, list(f.pickups), why=f"picks up units {why}"))
        plan.attacks.append(PlannedAttack(t.id, t.province, color, [f.lead for f in chosen], t.owner, min_col,
                                          consider and t.owner not in (None, self.seat), label, sub))

    def _plan_apt(self, view: dict, b: Board, plan: TurnPlan, forces: list[Force], used: set[int]) -> None:
        row = plan.row
        attacked: set[int] = set()
        for e in T.APT[plan.color]:
            while len(plan.attacks) < row.attacks:
                best = None
                for t in self._targets(b, e.target, plan):
                    if t.id in attacked:
                        continue
                    got = self._try(b, t, (e.units,), forces, used, row.min_odds)
                    if got is None:
                        continue
                    key = (got[0], t.defense(), -t.id)
                    if best is None or key > best[0]:
                        best = (key, t, got)
                if best is None:
                    break
                _, t, got = best
                attacked.add(t.id)
                self._assign(b, plan, t, got, row.min_odds, True, used,
                             f"APT priority {'I' * e.priority}: {e.units} vs {e.target}")
            if len(plan.attacks) >= row.attacks:
                break

    def _plan_vst(self, view: dict, b: Board, plan: TurnPlan, forces: list[Force], used: set[int]) -> None:
        victim = plan.vst_target
        if not victim:
            return
        d = data()
        colors = (RED, WHITE, BLUE, GREEN)
        attacked: set[int] = set()
        if plan.vst in (T.CZAR, T.GOLD):
            imp = d.czar if plan.vst == T.CZAR else d.gold
            st = b.where.get(imp)
            if st is not None and st.owner == victim and st.fighting:
                got = self._try(b, st, colors, forces, used, T.VST_MIN_ODDS)
                attacked.add(st.id)
                if got:
                    self._assign(b, plan, st, got, T.VST_MIN_ODDS, False, used, f"VST: the {plan.vst} holder")
        while len(plan.attacks) < T.VST_ATTACKS:
            best = None
            for t in self._targets(b, "", plan, owner=victim, any_owner=True):
                if t.id in attacked:
                    continue
                got = self._try(b, t, colors, forces, used, T.VST_MIN_ODDS)
                if got is None:
                    continue
                key = (got[0], t.defense(), -t.id)
                if best is None or key > best[0]:
                    best = (key, t, got)
            if best is None:
                break
            _, t, got = best
            attacked.add(t.id)
            self._assign(b, plan, t, got, T.VST_MIN_ODDS, False, used, f"VST: {plan.vst} player {victim}")

    def _plan_assassination(self, view: dict, b: Board, plan: TurnPlan, forces: list[Force], used: set[int]) -> None:
        order = self.friendliness(view)
        if not order:
            plan.assassinate = False
            return
        enemy = order[-1]
        markers = view["assassins"].get(self.seat, 0)
        target = self._assassin_target(b, enemy, markers)
        if target is not None:
            plan.assassin_target = target
            return
        # common sense: send one free leader to the best target it can reach
        d = data()
        best = None
        for level in T.assassination_levels(markers):
            for st in b.stacks:
                if st.owner != enemy:
                    continue
                for v in st.leaders:
                    if d.units[v].strength != level:
                        continue
                    for f in forces:
                        if f.lead in used or not f.leader or f.escort:
                            continue
                        path = self._reach(b, f).get(st.province)
                        if path is None:
                            continue
                        key = (-st.attack_strength(), len(path), v, f.lead)
                        if best is None or key < best[0]:
                            best = (key, v, st, f)
            if best:
                break
        if best is None:
            plan.assassinate = False
            self.note(f"cannot reach a leader of {enemy}, its worst enemy: no assassination")
            return
        _, v, st, f = best
        used.add(f.lead)
        plan.assassin_target = v
        plan.orders.insert(0, Order(f.lead, st.province, list(f.pickups),
                                    why=f"to send assassins after {d.units[v].name} of {enemy}, its worst enemy"))

    def _assassin_target(self, b: Board, enemy: str, markers: int) -> int | None:
        """A leader of ``enemy`` sharing a province with one of our leaders, by the article's
        level order; ties go to the leader controlling the greatest combat strength."""
        d = data()
        mine = {st.province for st in b.mine(self.seat) if st.leaders}
        for level in T.assassination_levels(markers):
            cands = []
            for st in b.stacks:
                if st.owner != enemy or st.province not in mine:
                    continue
                for v in st.leaders:
                    if d.units[v].strength == level:
                        ctrl = d.units[v].strength + sum(d.units[u].strength for u in st.attached_to(v)
                                                         if d.units[u].is_combat)
                        cands.append((-ctrl, v))
            if cands:
                return min(cands)[1]
        return None

    def _plan_non_attack(self, view: dict, b: Board, plan: TurnPlan, forces: list[Force], used: set[int]) -> None:
        d = data()
        me = self.seat
        turn = view["turn"]
        reserved: set[int] = set()
        garrisoned: set[str] = set()
        for f in forces:
            reserved.update(f.pickups)
        for f in sorted(forces, key=lambda f: f.lead):
            if f.lead in used:
                continue
            st = b.by_id[f.stack]
            # 1: Czechs of a White player leave from Vladivostok; his Czar emigrates.
            if plan.color == WHITE and not f.leader and "CZ" in f.nationalities:
                czechs = [u for u in st.units if d.units[u].nationality == "CZ"]
                exits = [A.CzechExit(me, u) for u in czechs]
                if f.province == d.czech_exit:
                    plan.pre += exits
                    self.note("moves its Czechs off the map (Non-Attack Policy 1)")
                elif d.czech_exit in self._reach(b, f):
                    plan.orders.append(Order(f.lead, d.czech_exit, after=exits,
                                             why="Czechs go to Vladivostok to leave (Non-Attack Policy 1)"))
                used.add(f.lead)
                continue
            czar_here = d.czar in st.units and (not f.leader or st.attached.get(d.czar) == f.lead)
            if f.escort and czar_here:
                if plan.color == WHITE:
                    ports = [p for p, path in self._reach(b, f).items() if d.provinces[p].port]
                    if d.provinces[f.province].port:
                        plan.pre.append(A.Emigrate(me, d.czar))
                        self.note("sends the Czar abroad (Non-Attack Policy 1)")
                        used.add(f.lead)
                        continue
                    if ports:
                        dest = min(ports, key=lambda p: (len(self._reach(b, f)[p]), p))
                        plan.orders.append(Order(f.lead, dest, list(f.pickups), after=[A.Emigrate(me, d.czar)],
                                                 why="takes the Czar to a port to emigrate (Non-Attack Policy 1)"))
                        used.add(f.lead)
                        continue
                    # no port within reach: Non-Attack Policy 3 below ("If unable to exit the map")
            if f.escort and f.leader and d.gold in st.attached_to(f.lead):
                steal = self._steal_plan(b, f, st)
                if steal:
                    dest, units = steal
                    plan.orders.append(Order(f.lead, dest, list(f.pickups), attach_dest=units,
                                             why="the Gold buys Green units (Non-Attack Policy 4)"))
                    used.add(f.lead)
                    continue
            if f.escort:
                used.add(f.lead)
                dest = self._isolated_area(b, f) if f.leader else None
                if dest:
                    imp = "the Czar" if d.czar in st.attached_to(f.lead) else "the Gold"
                    plan.orders.append(Order(f.lead, dest, list(f.pickups),
                                             why=f"takes {imp} away from the enemy (Non-Attack Policy 3)"))
                elif f.pickups:
                    plan.orders.append(Order(f.lead, None, list(f.pickups),
                                             why="strengthens the Imperial escort (Non-Attack Policy 3)"))
                continue
            if not f.leader:
                continue
            # 6/7: a force that alone garrisons a province to hold stays there
            targets = [p for p in self._garrison_targets(view, b, plan.color, f.color, turn, f.stack)
                       if p not in garrisoned]
            if f.province in targets:
                garrisoned.add(f.province)
                if f.pickups:
                    plan.orders.append(Order(f.lead, None, list(f.pickups),
                                             why=f"stays to garrison {f.province} "
                                                 f"(Non-Attack Policy {6 if f.color == RED else 7})"))
                used.add(f.lead)
                continue
            # 5: pick up loose units
            room = min(self._capacity(st, f.lead) - len([u for u in st.attached_to(f.lead) if d.units[u].is_combat])
                       - len(f.pickups), STACK_LIMIT - 1 - len(st.attached_to(f.lead)) - len(f.pickups))
            if room > 0:
                best = None
                for p, path in self._reach(b, f).items():
                    if any(opposed(c, f.color) for c in b.colors_in.get(p, set())):
                        continue
                    loose = self._loose(b, p, f.color, reserved)[:room]
                    if not loose:
                        continue
                    s = sum(d.units[u].strength for u in loose)
                    key = (-s, len(path), p)
                    if best is None or key < best[0]:
                        best = (key, p, loose)
                if best:
                    _, p, loose = best
                    reserved.update(loose)
                    plan.orders.append(Order(f.lead, p, list(f.pickups), attach_dest=loose,
                                             why="collects loose units (Non-Attack Policy 5)"))
                    used.add(f.lead)
                    continue
            # 6/7: garrisons
            targets = [p for p in self._garrison_targets(view, b, plan.color, f.color, turn)
                       if p not in garrisoned]
            reach = self._reach(b, f)
            options = [p for p in targets if p in reach]
            if options:
                p = min(options, key=lambda p: (len(reach[p]), p))
                garrisoned.add(p)
                plan.orders.append(Order(f.lead, p, list(f.pickups),
                                         why=f"garrisons {p} (Non-Attack Policy {6 if f.color == RED else 7})"))
                used.add(f.lead)
                continue
            # 5/8: a smaller force joins our strongest stack of its colour within reach
            best = None
            for other in b.mine(me):
                if other.id == f.stack or other.color != f.color or not other.leaders:
                    continue
                if len(other.fighting) + 1 + len(st.attached_to(f.lead)) + len(f.pickups) > STACK_LIMIT:
                    continue
                if other.attack_strength() <= f.strength:
                    continue
                path = reach.get(other.province)
                if path is None:
                    continue
                key = (-other.attack_strength(), len(path), other.id)
                if best is None or key < best[0]:
                    best = (key, other)
            if best:
                plan.orders.append(Order(f.lead, best[1].province, list(f.pickups),
                                         why="joins a stronger stack (Non-Attack Policies 5, 8)"))
                used.add(f.lead)
                continue
            if f.pickups:
                plan.orders.append(Order(f.lead, None, list(f.pickups),
                                         why="picks up loose units (Non-Attack Policy 5)"))
                used.add(f.lead)

    def _threat(self, b: Board, province: str, color: str) -> int:
        """Strength of other players' forces opposed to ``color`` in ``province`` or next to it."""
        d = data()
        near = {province} | set(d.provinces[province].adjacent)
        return sum(st.attack_strength() for st in b.stacks
                   if st.province in near and st.owner not in (None, self.seat) and st.fighting
                   and opposed(st.color, color))

    def _isolated_area(self, b: Board, f: Force) -> str | None:
        """Non-Attack Policy 3: "units controlling the Czar (and the Gold) should attempt to
        consolidate with other units for greater protection.  They should also try to move
        to isolated areas."  Our rule: when other players' opposed forces stand in or next
        to the escort's province, it moves to the reachable province with the least such
        strength around it (only to a province holding no units of another colour), then
        the one where its own stacks of its colour are strongest (to consolidate), then the
        nearest; it stays if no province is safer."""
        here = self._threat(b, f.province, f.color)
        if here == 0:
            return None
        best = None
        for p, path in self._reach(b, f).items():
            if any(c != f.color for c in b.colors_in.get(p, ())):
                continue
            threat = self._threat(b, p, f.color)
            if threat >= here:
                continue
            own = sum(st.attack_strength() for st in b.mine(self.seat) if st.province == p and st.color == f.color)
            key = (threat, -own, len(path), p)
            if best is None or key < best[0]:
                best = (key, p)
        return best[1] if best else None

    def _garrison_targets(self, view: dict, b: Board, player_color: str, force_color: str, turn: int,
                          own_stack: int | None = None) -> list[str]:
        """Provinces to garrison: Tver and Petrograd for Red, and the home provinces of units of
        the player's colour awaiting replacement (Game-Turns 1-5), that hold no unit of that
        colour (other than ``own_stack``) and no enemy."""
        d = data()
        if force_color != player_color or player_color not in (RED, WHITE):
            return []
        out = ["TVER", "PETR"] if player_color == RED else []
        if turn <= 5:
            for entries in view["vp"].values():
                for uid, _f in entries:
                    u = d.units[uid]
                    if u.is_combat and u.color == player_color and u.province not in out:
                        out.append(u.province)
        res = []
        for p in out:
            cs = {st.color for st in b.stacks if st.province == p and st.fighting and st.id != own_stack}
            if player_color in cs or any(opposed(c, player_color) for c in cs):
                continue
            res.append(p)
        return res

    def _steal_plan(self, b: Board, f: Force, st: VStack) -> tuple[str, list[int]] | None:
        d = data()
        greens = len([u for u in st.attached_to(f.lead) if d.units[u].color == GREEN])
        slots = 2 - greens
        combat_att = [u for u in st.attached_to(f.lead) if d.units[u].is_combat]
        slots = min(slots, self._capacity(st, f.lead) - len(combat_att) - len(f.pickups),
                    STACK_LIMIT - 1 - len(combat_att) - len(f.pickups))
        if slots <= 0:
            return None
        best = None
        reach = self._reach(b, f)
        for p in sorted(set(reach) | {f.province}):
            units = []
            for other in b.stacks:
                if other.province != p or other.id == st.id:
                    continue
                for u in other.units:
                    uu = d.units[u]
                    if uu.is_combat and uu.color == GREEN and uu.nationality not in ("FN", "PO") \
                            and not other.attached.get(u):
                        units.append(u)
            if not units:
                continue
            units = sorted(units, key=lambda u: (-d.units[u].strength, u))[:slots]
            key = (-sum(d.units[u].strength for u in units), len(reach.get(p, [])), p)
            if best is None or key < best[0]:
                best = (key, p, units)
        if best is None:
            return None
        return (None if best[1] == f.province else best[1]), best[2]

    # -- executing the movement plan -----------------------------------------------------------
    def _movement_step(self, view: dict, legal: list[A.Action]) -> A.Action | None:
        plan = self.plan
        me = self.seat
        if not plan.politics_done:
            act = self.politics.start_of_turn(view, legal, plan)
            if act is not None:
                return act
            plan.politics_done = True
        while plan.pre:
            a = plan.pre.pop(0)
            if a in legal or self._gift_ok(view, a):
                return a
        force = view.get("force")
        if force is None and self.cur is not None:
            after = self.cur["order"].after
            self.cur = None
            for a in after:
                if a in legal:
                    plan.pre = [x for x in after if x is not a] + plan.pre
                    return a
        if force is not None:
            if self.cur is None:
                return A.EndForce(me) if A.EndForce(me) in legal else None
            return self._force_step(view, legal)
        while plan.orders:
            o = plan.orders.pop(0)
            start = A.StartForce(me, o.lead)
            if start not in legal:
                continue
            b = self._board(view)
            st = b.where.get(o.lead)
            if st is None:
                continue
            path: list = []
            if o.dest and o.dest != st.province:
                d = data()
                color = d.units[o.lead].color if d.units[o.lead].is_leader else st.color
                nats = frozenset(d.units[u].nationality for u in st.fighting if d.units[u].color in (BLUE, GREEN))
                reach = b.reach(st.province, color, d.units[o.lead].is_leader, nats)
                path = reach.get(o.dest)
                if path is None:
                    continue
            if not path and not o.attach_start and not o.attach_dest and not o.after:
                continue
            if o.why:
                d = data()
                name = d.units[o.lead].name if d.units[o.lead].is_leader else d.units[o.lead].label
                self.note(f"moves {name}" + (f" to {o.dest}" if path else "") + f": {o.why}")
            self.cur = {"order": o, "path": list(path), "i": 0, "start": list(o.attach_start), "dest": list(o.attach_dest)}
            return start
        if not plan.merges_done:
            for a in legal:
                if isinstance(a, A.Merge):
                    return a
            plan.merges_done = True
        return A.EndMovement(me)

    def _force_step(self, view: dict, legal: list[A.Action]) -> A.Action | None:
        me = self.seat
        cur = self.cur
        o = cur["order"]
        d = data()
        lead = o.lead if d.units[o.lead].is_leader else 0
        while cur["start"]:
            u = cur["start"].pop(0)
            a = A.Attach(me, u, lead)
            if a in legal:
                return a
        while cur["i"] < len(cur["path"]):
            to, rail = cur["path"][cur["i"]]
            cur["i"] += 1
            a = A.Move(me, to, rail)
            if a in legal:
                return a
            cur["i"] = len(cur["path"])
            cur["dest"] = []
            break
        while cur["dest"]:
            u = cur["dest"].pop(0)
            a = A.Attach(me, u, lead)
            if a in legal:
                return a
        return A.EndForce(me)

    # -- combat ------------------------------------------------------------------------------------
    def _combat_step(self, view: dict, legal: list[A.Action]) -> A.Action | None:
        plan = self.plan
        me = self.seat
        b = self._board(view)
        att = view.get("attack")
        if att is not None:
            q = plan.combat_queue or []
            while q:
                a = q.pop(0)
                if a in legal:
                    if isinstance(a, A.ResolveAttack):
                        if plan.current_owner and plan.current_owner != me:
                            self.bump(plan.current_owner, T.SHIFT_ATTACK)
                    return a
                if isinstance(a, A.ResolveAttack):
                    break
            plan.combat_queue = []
            return A.CancelAttack(me) if A.CancelAttack(me) in legal else None
        if plan.assassinate and not plan.assassinated:
            plan.assassinated = True
            markers = view["assassins"].get(me, 0)
            order = self.friendliness(view)
            if order and markers > 0:
                enemy = order[-1]
                v = self._assassin_target(b, enemy, markers)
                if v is not None:
                    a = A.Assassinate(me, v, T.assassin_markers_used(markers))
                    if a in legal:
                        self.bump(enemy, T.SHIFT_ASSASSINATION)
                        self.note(f"sends {a.markers} assassin{'s' if a.markers > 1 else ''} after "
                                  f"{data().units[v].name} of {enemy}, its worst enemy")
                        return a
        while plan.attacks:
            pa = plan.attacks.pop(0)
            seq = self._attack_sequence(view, b, legal, pa, plan)
            if seq:
                plan.combat_queue = seq[1:]
                plan.current_owner = pa.owner
                return seq[0]
        return A.EndCombat(me)

    def _attack_sequence(self, view: dict, b: Board, legal: list[A.Action], pa: PlannedAttack,
                         plan: TurnPlan) -> list[A.Action] | None:
        me = self.seat
        t = b.by_id.get(pa.target)
        sub = pa.subversive
        if t is None or not t.fighting or A.DeclareAttack(me, t.id, sub) not in legal:
            return None
        d = data()
        later = {lead for other in plan.attacks for lead in other.forces}
        posts = self._subversion_posts(t.province) if sub else {t.province}
        mult = 2 if sub and view.get("subversion_doubled") else 1
        stacks = []
        for st in b.mine(me):
            if st.province not in posts or st.id == t.id or not st.attack_units():
                continue
            if not opposed(st.color, t.color) or (sub and st.color != RED):
                continue
            planned = any(u in pa.forces for u in st.units)
            if not planned and (st.color != pa.color or any(u in later for u in st.units)):
                continue
            stacks.append(st)
        # only friendly stacks combine: keep the planned colour's group
        stacks = [s for s in stacks if not opposed(s.color, pa.color)]
        plain = [s for s in stacks if not s.has_imperial()]
        dfn = t.defense()
        choice = None
        for pool, need in ((plain + [s for s in stacks if s.has_imperial()], max(pa.min_col, T.ESCORT_MIN_ODDS)),
                           (plain, pa.min_col)):
            att = sum(s.attack_strength() for s in pool) * mult
            col = odds_col(att, dfn)
            if pool and col is not None and col >= need:
                choice = pool
                break
        if choice is None:
            return None
        if pa.consider:
            rel = self.relation(me, pa.owner)
            die = self.die()
            if not T.attack_goes_ahead(rel, die):
                self.note(f"is talked out of attacking {pa.owner} in {t.province} "
                          f"(Attack Consideration: rolled {die}, PCT {rel})")
                return None
        names = ", ".join(d.units[u].name if d.units[u].is_leader else d.units[u].label for u in t.fighting)
        if sub:
            self.note(f"makes a Subversive Attack on {names} ({pa.owner or 'uncontrolled'}) in {t.province} from "
                      f"{', '.join(sorted({s.province for s in choice}))} [{pa.label}]")
        else:
            self.note(f"attacks {names} ({pa.owner or 'uncontrolled'}) in {t.province} [{pa.label}]")
        seq: list[A.Action] = [A.DeclareAttack(me, t.id, sub)]
        seq += [A.AddAttacker(me, s.id) for s in choice]
        seq.append(A.ResolveAttack(me))
        return seq



POLITICS_FREE = ("JoinCommittee", "LeaveCommittee", "DeclarePurge", "OrderExecution", "PassPurge", "OfferTrade")


class PoliticsAdapter:
    """Purge Cooperation and the Czar's execution committee (Non-Attack Policy 2) through the
    engine's politics actions (004 [11.0], [13.5]); any step whose action type the engine does
    not register is skipped and noted.

    The engine's Central Committee is a matter of consent (``JoinCommittee(members)`` by
    every member; free actions any seat may take at any time), so the article's procedure
    is played as a short exchange, the drivers (``rcw simulate``, ``rcw solo``, the server)
    putting proposals to the other seats through :meth:`SDTAgent.react`:

    1. The phasing player gives a Politburo marker to its 2nd friendliest player.
    2. It proposes a Committee of every active player.  Each other player decides once per
       proposer and Game-Turn whether it would join: "If the die roll is equal to or
       greater than the number on the PCT ... that player joins" (the roll is the invitee's
       own, so a human's proposal meets the same test as a bot's).  Those who would join
       consent.
    3. If everyone joined: "no purge is attempted" (hah!).  Otherwise the phasing player
       proposes the Committee of itself and those who would join; if they hold eight
       Politburo markers it forms, a die decides collective (3+) or individual (the phasing
       player alone; other members pass), and the purge is declared against the non-member
       most unfriendly to the phasing player.  Collective spoils are shared "beginning with
       the phasing player and progressing alphabetically" (our reading: the phasing player,
       then the other members in alphabetical order; a Committee without the phasing player
       shares alphabetically).  Ties on the PCT ("most unfriendly", "2nd friendliest") go
       by alphabetical order (:func:`bots.sdt_tables.friendliness_order`).
    4. If they hold fewer than eight, the phasing player withdraws, and "a new Central
       Committee is formed by those players not on the original Central Committee" — our
       reading: all of them, no further rolls; if they hold eight markers they form it and
       their first member (in seat order) declares the purge of the phasing player (same
       collective/individual roll; spoils alphabetical).
    5. Counterpurges are mandatory and aimed at the phasing player (a die picks among two
       or more purgers when the phasing player is the counterpurger: with n of them in the
       engine's order, die d picks number (d - 1) mod n + 1); spoils are the leaders
       controlling the most combat strength; an individual result of 2+ takes a Politburo
       marker instead on a die roll of 1-2.
    6. Execution of the Czar (a Red player holding it, after Game-Turn 1): the same
       exchange, White players not invited; a formed Committee holding ten markers orders
       the execution; the holder complies unless it is a White player.
    Consents are withdrawn when the phasing player's Movement Phase is over.
    """

    def __init__(self, agent: SDTAgent) -> None:
        self.agent = agent
        self.willing: dict[tuple[str, int], bool] = {}
        self.counter: dict[tuple[str, int], list[str] | None] = {}
        self.counter_declared: set[tuple[str, int]] = set()
        self.stage = ""
        self.full: list[str] = []
        self.members: list[str] = []
        self.purpose = ""
        self.spoil_rolls: dict[tuple, bool] = {}
        self.countered: set[tuple] = set()

    # -- helpers ----------------------------------------------------------------------------------
    @property
    def me(self) -> str:
        return self.agent.seat

    @staticmethod
    def pm(view: dict, seats) -> int:
        return sum(view["politburo"].get(p, 0) for p in seats)

    @staticmethod
    def canon(view: dict, seats) -> list[str]:
        return [p for p in view["seats"] if p in set(seats)]

    def active(self, view: dict) -> list[str]:
        return [p for p in view["seats"] if p not in view["quit"]]

    def can_consent(self, view: dict, members: list[str]) -> bool:
        return (supported(A.JoinCommittee) and view.get("decision") is None and self.me in members
                and all(p in view["seats"] and p not in view["quit"] for p in members)
                and self.pm(view, members) >= T.COMMITTEE_MIN_POLITBURO
                and view.get("committee_consent", {}).get(self.me) != self.canon(view, members))

    def consent(self, view: dict) -> list[str] | None:
        return view.get("committee_consent", {}).get(self.me)

    # -- the phasing player's procedure ---------------------------------------------------------------
    def start_of_turn(self, view: dict, legal: list[A.Action], plan: TurnPlan) -> A.Action | None:
        ag, me = self.agent, self.me
        if not self.stage:
            want = "purge" if plan.purge else ("execute" if plan.execute_czar else "")
            if not want:
                return None
            if not supported(A.JoinCommittee) or not supported(A.DeclarePurge):
                ag.note("would purge, but the engine has no purges yet")
                return None
            self.purpose = want
            self.stage = "gift" if want == "purge" else "invite"
        if self.stage == "gift":
            self.stage = "invite"
            order = ag.friendliness(view)
            if view["politburo"].get(me, 0) > 0 and len(order) >= 2:
                to = order[1]
                ag.bump(to, T.SHIFT_POLITBURO_GIFT)
                ag.note(f"gives a Politburo marker to {to}, its 2nd friendliest player, before the purge")
                return A.OfferTrade(me, to, give_politburo=1)
        if self.stage == "invite":
            invitees = [p for p in self.active(view) if p != me]
            if self.purpose == "execute":
                invitees = [p for p in invitees if ag.pit(view, p)[3] != WHITE]
            self.full = self.canon(view, [me] + invitees)
            if not invitees and self.purpose == "purge":
                return self._done()
            if self.consent(view) == self.full:
                self.stage = "count"
            elif self.can_consent(view, self.full):
                self.stage = "count"
                ag.note(f"calls for a Central Committee ({'to purge' if self.purpose == 'purge' else 'to execute the Czar'})")
                return A.JoinCommittee(me, tuple(self.full))
            else:
                ag.note("cannot call a Central Committee (too few Politburo markers)")
                return self._done()
        cons = view.get("committee_consent", {})
        if self.stage == "count":
            willing = [p for p in self.full if p != me and cons.get(p) == self.full]
            others = [p for p in self.full if p != me]
            if self.purpose == "purge" and set(willing) == set(others):
                ag.note("everyone joins the Committee: no purge is attempted")
                return self._leave(view) or self._done()
            self.members = self.canon(view, [me] + willing)
            n = self.pm(view, self.members)
            if n < T.COMMITTEE_MIN_POLITBURO:
                ag.note(f"finds only {', '.join(self.members)} willing ({n} Politburo markers): no Committee")
                return self._leave(view) or self._done()
            if self.members == self.full:
                self.stage = "formed"
            else:
                self.stage = "formed"
                if self.can_consent(view, self.members):
                    return A.JoinCommittee(me, tuple(self.members))
        if self.stage == "formed":
            com = view.get("committee", [])
            if me not in com:
                return self._leave(view) or self._done()
            if self.purpose == "purge":
                self.stage = "purged"
                act = self._declare(view, legal, com, target=None)
                if act is not None:
                    return act
            else:
                self.stage = "executed"
        if self.stage == "purged":
            self.stage = "executed"
            if not (self.agent.plan and self.agent.plan.execute_czar):
                return self._leave(view) or self._done()
        if self.stage == "executed":
            self.stage = "leaving"
            com = view.get("committee", [])
            if me in com and self.pm(view, com) >= 10 and A.OrderExecution(me) in legal:
                ag.note("orders the Czar's execution (Non-Attack Policy 2)")
                return A.OrderExecution(me)
        if self.stage == "leaving":
            return self._leave(view) or self._done()
        return self._done()

    def _leave(self, view: dict) -> A.Action | None:
        self.stage = "done"
        if self.consent(view) is not None and supported(A.LeaveCommittee) and view.get("decision") is None:
            return A.LeaveCommittee(self.me)
        return None

    def _done(self) -> None:
        self.stage = "done"
        return None

    def reset(self) -> None:
        self.stage = ""

    def _declare(self, view: dict, legal: list[A.Action], com: list[str], target: str | None) -> A.Action | None:
        ag, me = self.agent, self.me
        if target is None:
            row = ag.row(view)
            cands = [p for p in T.friendliness_order(row) if p not in com]
            if not cands:
                return None
            target = cands[-1]
        die = ag.die()
        collective = T.collective_purge(die) and len(com) > 1
        alone = A.DeclarePurge(me, target, (me,), ())
        if collective:
            listed = [a for a in legal if isinstance(a, A.DeclarePurge) and a.target == target and len(a.purgers) > 1]
            if listed:
                ph = view.get("phasing")
                first = [ph] if ph in com else []
                shares = tuple(first + sorted(p for p in com if p not in first))
                ag.bump(target, T.SHIFT_PURGE)
                ag.note(f"and the Committee ({', '.join(com)}) purge {target} together (die {die})")
                return A.DeclarePurge(me, target, tuple(listed[0].purgers), shares)
        if alone in legal:
            ag.bump(target, T.SHIFT_PURGE)
            ag.note(f"purges {target} on its own (die {die})")
            return alone
        return None

    # -- out of turn: proposals, the counter-committee, cleanup -----------------------------------------
    def react(self, view: dict, legal: list[A.Action]) -> A.Action | None:
        ag, me = self.agent, self.me
        turn, ph = view["turn"], view.get("phasing")
        cons = view.get("committee_consent", {})
        if view.get("decision") is not None or not supported(A.JoinCommittee):
            return None
        # the counter-committee's purge of the phasing player
        key = (ph, turn)
        counter = self.counter.get(key)
        com = view.get("committee", [])
        if counter and com == counter and key not in self.counter_declared and me == counter[0]:
            self.counter_declared.add(key)
            act = self._declare(view, legal, com, target=ph)
            if act is not None:
                return act
        # proposals that include us: answered while the phasing player's Movement Phase is
        # open and the proposal includes it (its purge or execution procedure), or when it is
        # the counter-committee we belong to
        live = ph is not None and view["phase"] == "movement"
        for a in legal:
            if not isinstance(a, A.JoinCommittee):
                continue
            members = list(a.members)
            if members == [me] or not live:
                continue
            if counter and members == counter:
                return a
            if ph != me and ph in members and cons.get(ph) == members and self._willing(view, ph):
                return a
        # the phasing player's Committee failed: the others form a new one
        if ph and ph != me and (ph, turn) in self.willing and not self.willing[(ph, turn)] \
                and key not in self.counter and ph not in cons:
            w = [p for p, v in cons.items() if p != ph and ph in v]
            if self.pm(view, [ph] + w) < T.COMMITTEE_MIN_POLITBURO:
                counter = self.canon(view, [p for p in self.active(view) if p != ph and p not in w])
                self.counter[key] = counter if self.pm(view, counter) >= T.COMMITTEE_MIN_POLITBURO else None
                if self.counter[key] and self.can_consent(view, counter):
                    ag.note(f"joins a Central Committee of {', '.join(counter)} against {ph}")
                    return A.JoinCommittee(me, tuple(counter))
            else:
                self.counter[key] = None
        # withdraw stale consents
        mine = cons.get(me)
        if mine is not None and supported(A.LeaveCommittee):
            active_proc = ph is not None and view["phase"] == "movement" and (ph in mine or mine == counter)
            if ph == me:
                return None
            if not active_proc:
                return A.LeaveCommittee(me)
        return None

    def _willing(self, view: dict, proposer: str) -> bool:
        key = (proposer, view["turn"])
        if key not in self.willing:
            rel = self.agent.relation(self.me, proposer)
            die = self.agent.die()
            self.willing[key] = T.joins_committee(rel, die)
            self.agent.note(f"{'joins' if self.willing[key] else 'refuses'} {proposer}'s Central Committee "
                            f"(rolled {die}, PCT {rel})")
        return self.willing[key]

    # -- decisions ---------------------------------------------------------------------------------------
    def decide(self, view: dict, legal: list[A.Action], d: dict) -> A.Action | None:
        ag, me = self.agent, self.me
        kind = d.get("kind")
        if kind == "purge_approval":
            return A.ApprovePurge(me, True)
        if kind == "purge_orders":
            return A.PassPurge(me) if supported(A.PassPurge) else None
        if kind == "spoils":
            return self._spoil(view, legal, d)
        if kind == "counterpurge":
            opts = [p for p in d.get("options", []) if p]
            rec = d.get("purge", {})
            k = (tuple(rec.get("purgers", [])), rec.get("target"), tuple(rec.get("dice", [])), view["turn"])
            if k not in self.countered:
                self.countered.add(k)
                for p in rec.get("purgers", []):
                    ag.bump(p, T.SHIFT_PURGE)
            if not opts:
                return A.Counterpurge(me, "")
            ph = view.get("phasing")
            if ph in opts and ph != me:
                target = ph
            elif len(opts) > 1:
                target = opts[(ag.die() - 1) % len(opts)]
            else:
                target = opts[0]
            ag.bump(target, T.SHIFT_PURGE)
            ag.note(f"counterpurges {target}")
            return A.Counterpurge(me, target)
        if kind == "execution_consent":
            return A.OrderExecution(me, ag.pit(view)[3] != WHITE)
        if kind == "execution":
            comply = ag.pit(view)[3] != WHITE
            ag.note("executes the Czar" if comply else "refuses to execute the Czar")
            return A.AnswerExecution(me, comply)
        return None

    def _spoil(self, view: dict, legal: list[A.Action], d: dict) -> A.Action | None:
        me = self.me
        rec = d.get("purge", {})
        takes = [a for a in legal if isinstance(a, A.TakeSpoil)]
        if not takes:
            return A.EndSpoils(me)
        points = int(rec.get("points", 0) or 0)
        key = (tuple(rec.get("purgers", [])), rec.get("target"), tuple(rec.get("dice", [])), view["turn"])
        individual = rec.get("mode") != "group"
        if individual and points >= 2 and key not in self.spoil_rolls:
            die = self.agent.die()
            self.spoil_rolls[key] = T.politburo_instead(die)
            if self.spoil_rolls[key] and A.TakeSpoil(me, 0) in legal:
                self.agent.note(f"takes a Politburo marker from {rec.get('target')} instead of a leader (die {die})")
                return A.TakeSpoil(me, 0)
        b = self.agent._board(view)
        du = data().units

        def controlled(a: A.TakeSpoil) -> tuple:
            st = b.where.get(a.leader)
            ctrl = du[a.leader].strength + sum(du[u].strength for u in (st.attached_to(a.leader) if st else [])
                                               if du[u].is_combat)
            return (ctrl, du[a.leader].strength, -a.leader)

        leaders = [a for a in takes if a.leader]
        if leaders:
            return max(leaders, key=controlled)
        return takes[0]
