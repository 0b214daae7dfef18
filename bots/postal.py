"""Computer players of the postal game (004 [17.0]): they write order sheets.

A postal agent plays the phase whose orders are collected as its live counterpart would play
its own Player-Turn, in the engine's rehearsal of it (``Player.rehearsal``: the seat's Movement
Phase for the First Phase, its Combat Phase for the Second, on a copy of the position with the
stop judged on the start positions and dice of its own), and sends what it did there as its
sheet; it adds the standing and conditional orders the Gamesmaster needs in place of the
live game's questions.  The match loop (:class:`rcw.bots.match.Match`) drives it like any
agent: its seat is pending (kind ``orders``) and it answers with ``SubmitOrders``.

* :class:`RandomPostalAgent` - the random agent (:mod:`rcw.bots.random_agent`) plays the
  rehearsal (random legal moves, pick-ups, attacks), so its sheets are random legal sheets;
  it adds random purge, execution, trade and standing orders (which the Gamesmaster carries
  out when they are compatible and legal).
* :class:`SDTPostalAgent` - the SDT bot (:mod:`rcw.bots.sdt`) plays the rehearsal with its
  tables: the First Phase rehearsal makes its plan (the Strategy Determination roll, the
  required attacks, the Non-Attack Policies) and moves its forces; the Second Phase
  rehearsal makes the plan's attacks on the position the First Phase left (each planned
  target found again by its units), with Attack Consideration.  The plan's assassination
  becomes an ``assassinate`` order.  Politics, our postal reading of the article's Purge
  Cooperation (the bots' sheets being written at once, no bot can answer another's proposal): a bot whose
  roll calls for a purge orders one with the smallest Committee of itself and its friendliest
  players (by the game's one PCT) holding eight Politburo markers, against the non-member
  most unfriendly to it, the spoils shared from itself then alphabetically; every other bot
  works out the same proposal of each player friendlier to it than the others and, if it is
  in that Committee and its die joins it (the article's roll against the PCT), orders it too,
  so a purge is made when the proposer rolled one and every member joined.  The same for the
  Czar's execution by a Red holder (ten markers, no White players).  Standing orders: gifts
  accepted, counterpurges against the strongest purger, compliance with an execution order
  unless White, the end-game vote for Red, a redraw by the bot's own rule; Exchange losses
  and captures are left to the Gamesmaster's defaults (which are the bot's policies: combat
  units before leaders, always capture).

**Trades by post** (postal [4.2]: made when both sheets hold mirror ``trade`` orders).  A human
may propose a trade to a bot in chat (the server puts it to the agent: ``consider``, as a pact);
the engine writes both orders (``Player.trade_orders``).  The SDT bot answers by the SDT bots'
one valuation of trades (:meth:`rcw.bots.negotiation.Negotiator.judge`, the live bot's answer to
an ``OfferTrade``), the random bot at random (a die of its own for each proposal); a trade
accepted goes on the sheet for that phase: the next sheet written, or the one sent, sent again
(``amend``, asked by the match loop though the seat is not pending; a seat may replace its sheet
until the phase is adjudicated).  Where the live bot would counter, the SDT postal bot declines
and makes a counter-offer by post, a card of its own with both orders; when the proposer accepts
it (``hear``: the server's news) its order goes on its sheet the same way.  A game of bots alone proposes none: its
sheets do not change.  The orders of a bot's own sheet that are made only with a player's matching
order (a gift or trade with him, a purge or the Czar's execution he takes part in) are told to
him when the sheet is written (:meth:`PostalAgent.tell`): a trade as a card by post with both
orders, which the page offers to add to his sheet, the rest in words.
"""

from __future__ import annotations

import random

from rcw.bots import sdt_tables as T
from rcw.bots.cooperation import CooperationTable
from rcw.bots.negotiation import Message, describe_terms, terms_of
from rcw.bots.random_agent import RandomAgent
from rcw.bots.sdt import SDTAgent, controls_any

from rcw import actions as A
from rcw.actions import IllegalAction
from rcw.data import RED, WHITE
from rcw.player import Player
from rcw.postal import PHASE_NAMES, SubmitOrders

MAX_STEPS = 2000          # actions in one rehearsal (a guard: a phase takes far fewer)
TERMS = ("give_leaders", "give_politburo", "give_assassins", "take_leaders", "take_politburo", "take_assassins")


class PostalAgent:
    """Writes a sheet for each phase by playing a live agent's part in a rehearsal (see the module)."""

    name = "postal"

    def __init__(self, seat: str, seed: int = 0) -> None:
        self.seat = seat
        self.seed = seed
        self.rng = random.Random(f"postal:{seed}:{seat}")
        self.notes: list[str] = []
        self.last = None          # the last rehearsal played (what the sheet was written from)
        # the trades accepted by post, by (turn, phase): the mirror orders for the sheet, and how
        # many of them the sheet sent holds
        self.accepted: dict[tuple[int, str], list[dict]] = {}
        self.written: dict[tuple[int, str], int] = {}
        self.countered: dict[tuple[int, str], list[dict]] = {}   # this seat's orders of its counter-offers
        self.humans: set[str] = set()  # the seats played by people (the match's ``meet``)
        self.said: list[Message] = []  # what this seat says, for the match's ``messages``
        self.told: set[tuple] = set()  # (turn, phase, order) told to the people it needs already

    # -- talk (the match loop's calls) -----------------------------------------------------------------
    def meet(self, humans, wait: float | None = None) -> None:
        """The seats played by people: the orders of this seat's sheet that need theirs are told to them."""
        self.humans = set(humans)

    def messages(self) -> list[Message]:
        out, self.said = self.said, []
        return out

    def tell(self, player, orders: list[dict], turn: int, phase: str) -> None:
        """The orders of a sheet written that are made only with another player's matching order
        (postal [4.2], [11.0], [13.5]) are told to the people they need (QA: a bot's sheet held a
        trade, a purge, the Czar's execution with a player, who heard nothing of them and read in the
        report "A ordered no matching trade: none is made").  A trade is a card by post (both orders,
        the player's to add to his sheet); a purge or the execution is said in words."""
        me, when = self.seat, f"{PHASE_NAMES.get(phase, phase)} of Game-Turn {turn}"
        for o in orders:
            key = (turn, phase, repr(sorted(o.items())))
            if key in self.told:
                continue
            kind = o.get("order")
            if kind == "trade" and o.get("with") in self.humans:
                to = o["with"]
                terms = {k: o[k] for k in TERMS if o.get(k)}
                try:
                    both = player.trade_orders({"with": to, **terms})
                except IllegalAction:
                    continue
                gift = not any(o.get(k) for k in ("take_leaders", "take_politburo", "take_assassins"))
                text = (f"{me}'s sheet for {when} gives you {describe_terms(terms).split(' for ')[0]}: a gift by post, "
                        "made if your sheet accepts it (its matching order, or gifts accepted)" if gift else
                        f"{me}'s sheet for {when} holds a trade with you, made if yours holds the matching order")
                post = {"turn": turn, "phase": phase, "orders": {me: both["order"], to: both["mirror"]}}
                self.said.append(Message(me, text + " (postal [4.2])", to,
                                         card={"kind": "trade", "to": to, **terms, "post": post}))
            elif kind in ("purge", "execute_czar"):
                with_ = [p for p in o.get("participants") or () if p in self.humans and p != me]
                what = (f"a purge of {o.get('target')} by {', '.join(o.get('participants') or ())}" if kind == "purge"
                        else f"the Czar's execution by {', '.join(o.get('participants') or ())}")
                rule = "postal [11.0]" if kind == "purge" else "postal [13.5]"
                for p in with_:
                    self.said.append(Message(me, f"{me}'s sheet for {when} orders {what}: it is made only if your sheet "
                                                 f"orders the same ({rule})", p))
            else:
                continue
            self.told.add(key)

    def choose(self, player) -> A.Action:
        v = player.view
        phase, turn = v["postal"]["phase"], v["turn"]
        if phase == "trading":
            orders = self.pregame(player, v)
        else:
            quit_ = self.leaves(player, v)
            if quit_ is not None:
                return quit_
            orders = self.write(player, v, turn, phase)
        if self.humans:
            self.tell(player, orders, turn, phase)
        agreed = self.accepted.get((turn, phase))
        if agreed:                                  # (trades accepted by post before the sheet was written)
            orders = orders + agreed
            self.written[turn, phase] = len(agreed)
        return SubmitOrders(self.seat, turn, phase, {"orders": orders})

    # -- trades by post (postal [4.2]) ----------------------------------------------------------------
    def consider(self, player, proposal: dict, key: str) -> Message | None:
        """A trade proposed to this seat by post (a chat proposal without an engine action: the
        server's ``post`` names the phase it is for): the answer, with its reason.  An accepted
        trade's mirror order (the engine's, ``Player.trade_orders``) goes on this seat's sheet for
        that phase (:meth:`amend` sends the sheet again if it was sent).  A trade the phase's
        sheets no longer take, or that the engine refuses now, is declined in the engine's words.
        None for any other proposal (no answer of this agent's)."""
        if proposal.get("kind") != "trade":
            return None
        me, frm = self.seat, proposal.get("seat")
        v = player.view
        turn, phase = v["turn"], v["postal"]["phase"]
        post = proposal.get("post") or {}
        if (post.get("turn"), post.get("phase")) != (turn, phase):
            return Message(me, f"{me} declines: the phase this trade was proposed for is adjudicated", frm,
                           answers=key, accept=False)
        terms = {k: proposal[k] for k in TERMS if k in proposal}
        try:
            orders = player.trade_orders({"with": me, **terms}, seat=frm)
        except IllegalAction as e:
            return Message(me, f"{me} declines: {e.message} ({e.rule})", frm, answers=key, accept=False)
        yes, why = self.weigh(player, frm, orders["order"], key)
        if yes:
            self.accepted.setdefault((turn, phase), []).append(orders["mirror"])
            self.notes.append(f"{me}: accepts {frm}'s trade by post: {why}")
            return Message(me, f"{me} accepts: {why}; its sheet holds the mirror order", frm, answers=key, accept=True)
        counter = self.counter(player, frm, orders["order"])
        if counter is not None:
            terms, said = counter
            mine = player.trade_orders({"with": frm, **terms})      # (the engine writes both orders)
            self.countered.setdefault((turn, phase), []).append(mine["order"])
            self.notes.append(f"{me}: declines {frm}'s trade by post and counters: {why}")
            post = {"turn": turn, "phase": phase, "orders": {me: mine["order"], frm: mine["mirror"]}}
            return Message(me, f"{me} counters with {said}: yours is {why}", frm, answers=key, accept=False,
                           card={"kind": "trade", "to": frm, **{k: v for k, v in terms.items() if v},
                                 "post": post, "counter": key})
        self.notes.append(f"{me}: declines {frm}'s trade by post: {why}")
        return Message(me, f"{me} declines: {why}", frm, answers=key, accept=False)

    def hear(self, news: dict) -> None:
        """Chat news: ``{"kind": "post_trade", "seat", "post"}``, a player accepted a counter-offer
        by post this seat made (:meth:`consider`): its order goes on the sheet for that phase,
        as an accepted trade's does (:meth:`amend`).  An order it did not offer is not taken."""
        if news.get("kind") != "post_trade" or not isinstance(news.get("post"), dict):
            return
        post = news["post"]
        at = (post.get("turn"), post.get("phase"))
        order = (post.get("orders") or {}).get(self.seat)
        offered = self.countered.get(at, [])
        if order in offered:
            offered.remove(order)
            self.accepted.setdefault(at, []).append(order)
            self.notes.append(f"{self.seat}: {news.get('seat')} accepts its counter-offer by post")

    def weigh(self, player, proposer: str, order: dict, key: str) -> tuple[bool, str]:
        """Whether to accept ``proposer``'s trade ``order`` (its terms as ``proposer`` writes them),
        and why (to override)."""
        return False, "it makes no trades by post"

    def counter(self, player, proposer: str, order: dict) -> tuple[dict, str] | None:
        """A counter-offer to ``proposer``'s trade ``order``, which :meth:`weigh` declined: this
        seat's terms (``give_*``: its own side) and those terms in words; None for none (to
        override)."""
        return None

    def amend(self, player) -> A.Action | None:
        """The sheet sent again with the trades accepted by post since it was sent (the seat is
        not pending then: a seat may replace its sheet until the phase is adjudicated, postal
        [4.2], :class:`rcw.postal.SubmitOrders`); None if there is none to add."""
        if not self.accepted:
            return None
        v = player.view
        turn, phase = v["turn"], v["postal"]["phase"]
        agreed = self.accepted.get((turn, phase), [])
        done = self.written.get((turn, phase), 0)
        if len(agreed) <= done or self.seat not in v["postal"]["submitted"]:
            return None
        self.written[turn, phase] = len(agreed)
        sheet = [o for _, o in v["postal"].get("sheet") or []]
        return SubmitOrders(self.seat, turn, phase, {"orders": sheet + agreed[done:]})

    def fallback(self, player) -> A.Action:
        v = player.view
        return SubmitOrders(self.seat, v["turn"], v["postal"]["phase"], {"orders": []})

    def take_notes(self) -> list[str]:
        out, self.notes = self.notes, []
        return out

    # -- to override -------------------------------------------------------------------------------------
    def pregame(self, player, view: dict) -> list[dict]:
        return []

    def leaves(self, player, view: dict) -> A.Action | None:
        return None

    def write(self, player, view: dict, turn: int, phase: str) -> list[dict]:
        raise NotImplementedError

    # -- the rehearsal -------------------------------------------------------------------------------------------
    def rehearse(self, player, agent, seed: int, ready=None) -> list[dict]:
        """``agent`` plays this seat's part of the phase in a rehearsal; the orders it wrote.
        ``ready(rehearsal)``: called before the first step."""
        r = self.last = player.rehearsal(seed)
        if ready is not None:
            ready(r)
        p = Player(r, self.seat)
        for _ in range(MAX_STEPS):
            if r.done or not any(x["seat"] == self.seat for x in r.pending):
                break
            a = agent.choose(p)
            if not isinstance(a, A.Action) or a not in p.legal:
                fb = getattr(agent, "fallback", None)
                a = fb(p) if fb is not None else None
                if not isinstance(a, A.Action) or a not in p.legal:
                    legal = [x for x in p.legal if x.TYPE != "Quit"]
                    if not legal:
                        break
                    a = legal[0]
            try:
                r.apply(a)
            except IllegalAction:
                break
        take = getattr(agent, "take_notes", None)
        if take is not None:
            self.notes += take()
        return r.sheet()["orders"]


class RandomPostalAgent(PostalAgent):
    """Random legal sheets (see the module): the random orders the engine would refuse
    (``check_sheet``) are left out."""

    name = "random"

    def pregame(self, player, view: dict) -> list[dict]:
        return self._legal(player, self._extras(view, trading=True))

    def weigh(self, player, proposer: str, order: dict, key: str) -> tuple[bool, str]:
        """At random, by a die of its own for each proposal (seeded by the game's seed, the seat
        and the proposal: the sheets it writes do not change)."""
        yes = random.Random(f"postal-trade:{self.seed}:{self.seat}:{key}").random() < 0.5
        return yes, "at random (a random player)"

    def write(self, player, view: dict, turn: int, phase: str) -> list[dict]:
        agent = RandomAgent(self.seat, self.rng.randrange(1 << 30))
        orders = self.rehearse(player, agent, self.rng.randrange(1 << 62))
        return self._legal(player, orders + self._extras(view, phase=phase))

    @staticmethod
    def _legal(player, orders: list[dict]) -> list[dict]:
        refused = {r["index"] for r in player.check_sheet({"orders": orders})["refused"]}
        return [o for i, o in enumerate(orders) if i not in refused]

    def _extras(self, view: dict, trading: bool = False, phase: str = "") -> list[dict]:
        rng, me = self.rng, self.seat
        others = [p for p in view["seats"] if p != me and p not in view["quit"]]
        out: list[dict] = []
        if others and rng.random() < 0.3:
            with_ = rng.choice(others)
            out.append({"order": "trade", "with": with_, "give_politburo": rng.randint(0, 1),
                        "give_assassins": rng.randint(0, 1), "take_politburo": rng.randint(0, 1)})
        if rng.random() < 0.5:
            out.append({"order": "accept_gifts"})
        if trading or not others:
            return out
        if rng.random() < 0.3:
            part = [me] + rng.sample(others, rng.randint(0, len(others) - 1))
            target = rng.choice([p for p in others if p not in part] or others)
            shares = list(part)
            rng.shuffle(shares)
            held = view["politburo"].get(me, 0)
            out.append({"order": "purge", "target": target, "participants": part, "shares": shares if len(part) > 1 else [],
                        "markers": rng.choice([None, rng.randint(0, held)])})
        if rng.random() < 0.1:
            out.append({"order": "execute_czar", "participants": [me] + rng.sample(others, rng.randint(0, len(others)))})
        for kind, field, choices in (("counterpurge", "target", ["strongest", "weakest", ""] + others),
                                     ("comply_execution", "comply", [True, False]), ("redraw", "redraw", [True, False])):
            if rng.random() < 0.5:
                out.append({"order": kind, field: rng.choice(choices)})
        if phase == "second":
            for kind, field in (("capture", "accept"), ("vote", "end")):
                if rng.random() < 0.5:
                    out.append({"order": kind, field: rng.random() < 0.5})
        return out


class SDTPostalAgent(PostalAgent):
    """The SDT bot's sheets (see the module)."""

    name = "sdt"

    def __init__(self, seat: str, seed: int = 0) -> None:
        super().__init__(seat, seed)
        self.table: CooperationTable | None = None
        self.bot: SDTAgent | None = None          # this Game-Turn's bot, its plan made in the First Phase
        self.targets: dict[int, list[int]] = {}   # planned attack (its index) -> the units of its target

    def use_table(self, table: CooperationTable) -> None:
        """The game's one Player Cooperation Table (the match keeps it)."""
        self.table = table

    def _bot(self, turn: int, phase: str) -> SDTAgent:
        bot = SDTAgent(self.seat, f"{self.seed}:{turn}:{phase}")
        if self.table is not None:
            bot.use_table(self.table)
        return bot

    def pregame(self, player, view: dict) -> list[dict]:
        return [{"order": "accept_gifts"}]

    def _judge(self, player, proposer: str, order: dict):
        """The SDT bots' valuation of ``proposer``'s trade ``order`` (:meth:`rcw.bots.negotiation.
        Negotiator.judge`, the live bot's answer to an offer: worth against what it asks of the
        proposer's PCT column; a gift always accepted), on the position whose orders are
        collected: (the bot, the offer, verdict, reason, worth)."""
        v = player.view
        bot = self._bot(v["turn"], "trade")
        bot.p = player
        offer = {"from": proposer, **{k: order[k] for k in TERMS}}
        verdict, why, w = bot.talk.judge(player, offer, v)
        return bot, offer, verdict, why, w

    def weigh(self, player, proposer: str, order: dict, key: str) -> tuple[bool, str]:
        """Accepted where the live bot accepts (:meth:`_judge`); one it would counter is declined,
        and :meth:`counter` makes the counter-offer."""
        _, _, verdict, why, _ = self._judge(player, proposer, order)
        return verdict == "accept", why

    def counter(self, player, proposer: str, order: dict) -> tuple[dict, str] | None:
        """The live bot's counter-offer (:meth:`rcw.bots.negotiation.Negotiator.counter_offer`:
        the trade changed by one marker, when it falls within ``COUNTER_BAND`` points of what the
        bot asks), where the sheets take it (``Player.trade_orders``)."""
        bot, offer, verdict, _, w = self._judge(player, proposer, order)
        if verdict != "counter":
            return None

        def allowed(act: A.OfferTrade) -> bool:
            try:
                player.trade_orders({"with": proposer, **terms_of(act)})
            except IllegalAction:
                return False
            return True

        act = bot.talk.counter_offer(player, offer, w, allowed)
        if act is None:
            return None
        terms = terms_of(act)
        return terms, describe_terms(terms, bot._facts().name)

    def leaves(self, player, view: dict) -> A.Action | None:
        """Non-Attack Policy 10: a player who controls no units leaves the game."""
        bot = self.bot or self._bot(view["turn"], "check")
        bot.p = player
        if view["turn"] > 1 and not controls_any(view["stacks"], self.seat, bot._facts()):
            self.notes.append(f"{self.seat}: controls no units and leaves the game (Non-Attack Policy 10)")
            return A.Quit(self.seat)
        return None

    def write(self, player, view: dict, turn: int, phase: str) -> list[dict]:
        if phase == "first":
            self.bot = bot = self._bot(turn, phase)
            self.targets = {}
            orders = self.rehearse(player, bot, self.rng.randrange(1 << 62), ready=None)
            plan = bot.plan
            if plan is not None:
                self._note_targets(bot, plan)
                if plan.assassinate and plan.assassin_target is not None:
                    markers = view["assassins"].get(self.seat, 0)
                    if markers:
                        orders.append({"order": "assassinate", "victims": [plan.assassin_target],
                                       "markers": T.assassin_markers_used(markers)})
        else:
            bot = self.bot if self.bot is not None and self.bot.plan is not None else None
            orders = []
            if bot is not None:
                orders = self.rehearse(player, bot, self.rng.randrange(1 << 62), ready=lambda r: self._retarget(bot, r))
            bot = bot or self._bot(turn, phase)
        bot.p = player
        return orders + self._politics(player, view, bot, phase) + self._standing(view, bot, phase)

    # -- the plan between the two phases -----------------------------------------------------------------------
    def _note_targets(self, bot: SDTAgent, plan) -> None:
        stacks = {s["id"]: s for s in bot.p.view["stacks"]}
        fighting = bot._facts().leader | bot._facts().combat
        for i, pa in enumerate(plan.attacks):
            st = stacks.get(pa.target)
            if st is not None:
                self.targets[i] = [u for u in st["units"] if u in fighting]

    def _retarget(self, bot: SDTAgent, r) -> None:
        """The Second Phase: each planned attack's target found again by its units on the position
        the First Phase left (the stack ids have changed); the plan's caches are the old map's."""
        plan = bot.plan
        where = {u: s for s in r.view(self.seat)["stacks"] for u in s["units"]}
        kept = []
        for i, pa in enumerate(plan.attacks):
            st = next((where[u] for u in self.targets.get(i, []) if u in where), None)
            if st is not None:
                pa.target, pa.province = st["id"], st["province"]
                kept.append(pa)
        plan.attacks = kept
        plan.assassinate = False                  # (ordered in the First Phase)
        plan.combat_ix = plan.move_ix = None
        plan.combat_queue = None
        plan.att, plan.dfn, plan.tries, plan.room = {}, {}, {}, {}
        bot.cur = None

    # -- politics and standing orders -----------------------------------------------------------------------------
    def _standing(self, view: dict, bot: SDTAgent, phase: str) -> list[dict]:
        color = bot.pit(view)[3]
        out = [{"order": "accept_gifts"}, {"order": "counterpurge", "target": "strongest"},
               {"order": "comply_execution", "comply": color != WHITE},
               {"order": "redraw", "redraw": bot._redraw(view).redraw}]
        if phase == "second":
            out.append({"order": "vote", "end": color == RED})
        return out

    def _relation(self, a: str, b: str) -> int:
        return self.table.relation(a, b) if self.table is not None else 3

    def _proposal(self, view: dict, by: str, kind: str, bot: SDTAgent) -> dict | None:
        """The order ``by`` would write for a purge (or the Czar's execution): the smallest
        Committee of ``by`` and its friendliest players holding the threshold (see the module)."""
        active = [p for p in view["seats"] if p not in view["quit"]]
        order = T.friendliness_order({p: self._relation(by, p) for p in active if p != by})
        limits = bot.p.limits()
        need = limits["committee_markers" if kind == "purge" else "execution_markers"]
        if kind == "execute":
            order = [p for p in order if bot.pit(view, p)[3] != WHITE]
        members = [by]
        pm = view["politburo"]
        for p in order:
            if sum(pm.get(x, 0) for x in members) >= need:
                break
            members.append(p)
        if sum(pm.get(x, 0) for x in members) < need:
            return None
        parts = [p for p in view["seats"] if p in members]
        if kind == "execute":
            return {"order": "execute_czar", "participants": parts}
        outside = [p for p in order if p not in members]
        if not outside:
            return None
        shares = [by] + sorted(p for p in parts if p != by)
        return {"order": "purge", "target": outside[-1], "participants": parts,
                "shares": shares if len(parts) > 1 else []}

    def _politics(self, player, view: dict, bot: SDTAgent, phase: str) -> list[dict]:
        me = self.seat
        plan = bot.plan if phase == "first" else None
        out: list[dict] = []
        for kind, mine in (("purge", bool(plan and plan.purge)), ("execute", bool(plan and plan.execute_czar))):
            if kind == "purge" and (phase != "first"):
                continue
            if kind == "execute":
                holder = self._czar_holder(view, bot)
                if holder is None or view["turn"] == 1:
                    continue
                mine = mine and holder == me
                proposers = [holder] if holder != me else []
            else:
                proposers = [p for p in bot.friendliness(view)]
            prop = self._proposal(view, me, kind, bot) if mine else None
            if prop is None:
                for x in proposers:
                    got = self._proposal(view, x, kind, bot)
                    if got is not None and me in got["participants"] and x in got["participants"]:
                        if T.joins_committee(self._relation(me, x), bot.die()):
                            prop = got
                        break
            if prop is not None:
                if prop["order"] == "purge":
                    prop["take"] = self._spoils(view, prop["target"], bot)
                out.append(prop)
        return out

    @staticmethod
    def _czar_holder(view: dict, bot: SDTAgent) -> str | None:
        f = bot._facts()
        for s in view["stacks"]:
            if f.czar in s["units"]:
                lead = s["attached"].get(str(f.czar))
                return s["owner"] if lead and f.color.get(lead) == RED else None
        return None

    @staticmethod
    def _spoils(view: dict, target: str, bot: SDTAgent) -> list[int]:
        """Purge Cooperation 5: the leaders controlling the most combat strength first."""
        f = bot._facts()
        out = []
        for s in view["stacks"]:
            if s["owner"] != target:
                continue
            for lead in s["units"]:
                if lead in f.leader and f.color.get(lead) == RED:
                    held = [u for u, by in s["attached"].items() if by == lead and int(u) in f.combat]
                    out.append((-(f.strength[lead] + sum(f.strength[int(u)] for u in held)), lead))
        return [lead for _, lead in sorted(out)]


POSTAL_AGENTS = {"random": RandomPostalAgent, "sdt": SDTPostalAgent}
