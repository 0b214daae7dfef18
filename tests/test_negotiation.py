"""Bots that negotiate (issue 18, rcw.bots.negotiation) through the match loop, no server: the
valuation rule, answers with reasons, counter-proposals, pacts kept and broken, the cards of a
bot's own proposals, and no hidden information in anything a bot says."""

from __future__ import annotations

from collections import Counter

import pytest
from rcw.bots import make_agent
from rcw.bots import negotiation as N
from rcw.bots.match import Match
from rcw.bots.sdt import SDTAgent

from rcw import actions as A
from rcw.actions import Event
from rcw.game import Game
from rcw.player import Player

HUMAN = "A"


class Table:
    """A game with SDT bots in B-E and a 'human' A, played by a shadow SDT bot outside the
    match (so the match knows A as a human seat)."""

    def __init__(self, seed: int) -> None:
        self.g = Game.new(5, seed)
        self.bots = {s: make_agent("sdt", s, seed) for s in self.g.seats if s != HUMAN}
        self.m = Match(self.g, self.bots)
        self.shadow = SDTAgent(HUMAN, seed + 1)
        self.said: list[N.Message] = []
        self.accept_cards = True
        self.answered: list = []

    def step(self) -> bool:
        st = self.m.next_step()
        if st is not None:
            self.m.apply(st.seat, st.action, st.kind)
            self.said += self.m.messages()
            return True
        self.said += self.m.messages()
        if self.g.over:
            return False
        if self.m.waiting is not None:          # a bot waits for the human's answer to its card
            card = {"members": self.m.waiting.key.split(":")[1].split(",")}
            a = A.JoinCommittee(HUMAN, tuple(card["members"]))
            if self.accept_cards and self.g.is_legal(a):
                self.m.apply(HUMAN, a, by_agent=False)
            else:
                self.m.hear({"kind": "reply", "seat": HUMAN, "key": "committee:" + ",".join(card["members"]),
                             "accept": False})
            self.answered.append((card["members"], self.accept_cards))
            return True
        if any(p["seat"] == HUMAN for p in self.g.pending):
            a = self.shadow.choose(Player(self.g, HUMAN))
            if not isinstance(a, A.Action):
                return False
            self.m.apply(HUMAN, a, by_agent=False)
            return True
        return False

    def until(self, pred, limit: int = 20000) -> None:
        for _ in range(limit):
            if pred(self.g):
                return
            if not self.step():
                break
        assert pred(self.g), "the game never got there"

    def answer(self, seat: str) -> A.Action | None:
        """The next answer the match gets from a bot (the human is not asked)."""
        st = self.m.next_step()
        self.said += self.m.messages()
        if st is None:
            return None
        self.m.apply(st.seat, st.action, st.kind)
        self.said += self.m.messages()
        return st.action


def in_play(g: Game) -> bool:
    return g.phase not in ("trading",) and g.turn >= 1 and g.decision is None and not g.offers()


def view_of(assassins: dict, politburo: dict, hands: dict | None = None, turn: int = 1) -> dict:
    return {"assassins": assassins, "politburo": politburo, "hands": hands or {}, "turn": turn}


# -- the valuation rule ---------------------------------------------------------------------------
def test_markers_are_priced_as_the_pct_prices_gifts():
    """An Assassin marker 1 (2 for the first held), a Politburo marker 2 (3 for the one that
    brings the bot and its friends to the Committee threshold)."""
    g = Game.new(5, 1)
    v = view_of({"B": 0}, {"B": 2, "C": 3, "D": 0})
    first = N.trade_worth("B", {"give_assassins": 1}, v, g.data, 8, ["C"], 3)
    assert first.value == 2
    v2 = view_of({"B": 1}, {"B": 2, "C": 3})
    assert N.trade_worth("B", {"give_assassins": 1}, v2, g.data, 8, ["C"], 3).value == 1
    assert N.trade_worth("B", {"give_politburo": 1}, v2, g.data, 8, ["C"], 3).value == 2
    assert N.trade_worth("B", {"give_politburo": 2}, v2, g.data, 8, ["C"], 3).value == 4
    # B 2 + C 3 + 3 = 8 reaches the eight a Committee needs (004 [11.11]): one point more
    pivotal = N.trade_worth("B", {"give_politburo": 3}, v2, g.data, 8, ["C"], 3)
    assert pivotal.value == 7 and "Committee" in " ".join(pivotal.parts)
    # giving its last Assassin marker costs 2
    assert N.trade_worth("B", {"take_assassins": 1}, v2, g.data, 8, ["C"], 3).value == -2


def test_the_bot_asks_more_of_an_unfriendly_proposer_and_less_of_a_partner():
    g = Game.new(5, 1)
    v = view_of({"B": 1}, {"B": 2})
    terms = {"give_politburo": 1, "take_assassins": 1}        # worth 2 - 2 = 0 to B
    assert N.trade_worth("B", terms, v, g.data, 8, [], 3).verdict == "accept"
    assert N.trade_worth("B", terms, v, g.data, 8, [], 4).verdict == "counter"
    assert N.trade_worth("B", terms, v, g.data, 8, [], 7).verdict == "decline"
    assert N.trade_worth("B", terms, v, g.data, 8, [], 4, partner=True).verdict == "accept"


def test_leaders_of_the_bots_colour_are_worth_twice_and_leaving_its_colour_costs():
    g = Game.new(5, 3)
    hands = g.view("A")["hands"]
    d = g.data
    red = [u for u in hands["B"] if d.units[u].color == "Red"]
    white = [u for u in hands["B"] if d.units[u].color == "White"]
    r, w = sum(d.units[u].strength for u in red), sum(d.units[u].strength for u in white)
    colour = "Red" if r - w >= 6 else ("White" if r - w < 1 else "Undecided")
    v = view_of({}, {}, hands)
    for u in hands["B"]:
        x = d.units[u]
        got = N.trade_worth("B", {"take_leaders": [u]}, v, d, 8, [], 3)
        base = -(2 if x.color == colour else 1) * x.strength
        assert got.value in (base, base - N.COLOUR_COST)


# -- answers through the match ----------------------------------------------------------------------
def _offer(t: Table, to: str, **terms) -> int:
    ev = t.m.apply(HUMAN, A.OfferTrade(HUMAN, to, **terms), by_agent=False)
    return next(e.data["offer"] for e in ev if e.kind == "trade_offered")


def _replies(t: Table, key: str) -> list[N.Message]:
    return [m for m in t.said if m.answers == key]


def _answer_case(seed: int):
    t = Table(seed)
    t.until(lambda g: g.phase == "movement" and in_play(g) and g.turn == 1)
    return t


@pytest.fixture
def position():
    return _answer_case(5)


def fresh(position) -> Table:
    return position


def test_a_valuable_trade_is_accepted_with_its_reason(position):
    t = fresh(position)
    v = t.g.view(HUMAN)
    to = min((s for s in "BCDE" if v["politburo"].get(s, 0) >= 1), key=lambda s: t.m.table.relation(HUMAN, s))
    assert t.m.table.relation(HUMAN, to) <= 4
    oid = _offer(t, to, give_politburo=3, take_politburo=1)          # worth 6 - 2 = 4 to the bot
    assert t.answer(to) == A.AcceptTrade(to, oid)
    (r,) = _replies(t, f"trade:{oid}")
    assert r.accept is True and r.to == HUMAN and "worth" in r.text and "PCT" in r.text


def test_a_poor_trade_is_declined_with_its_reason(position):
    t = fresh(position)
    to = next(s for s in "BCDE" if t.g.view(HUMAN)["politburo"].get(s, 0) >= 2)
    oid = _offer(t, to, take_politburo=2)
    assert t.answer(to) == A.DeclineTrade(to, oid)
    (r,) = _replies(t, f"trade:{oid}")
    assert r.accept is False and r.text.startswith(f"{to} declines") and "worth -" in r.text


def test_a_near_trade_is_countered_with_a_counter_card():
    """One Politburo marker for one of the bot's: worth 0, two points short of what a bot on
    PCT column 5 (Red against White) asks: countered by an offer asking one marker less or one
    more of the proposer's."""
    t = _answer_case(3)
    v = t.g.view(HUMAN)
    seat = None
    for s in "BCDE":
        if v["politburo"].get(s, 0) >= 1 and v["politburo"].get(HUMAN, 0) >= 2:
            b = t.bots[s]
            w = b.talk.worth(Player(t.g, s), {"from": HUMAN, "give_politburo": 1, "take_politburo": 1,
                                              "give_assassins": 0, "take_assassins": 0, "give_leaders": (),
                                              "take_leaders": ()})
            if w.verdict == "counter":
                seat = s
                break
    assert seat is not None, "no bot in this position counters a Politburo swap"
    oid = _offer(t, seat, give_politburo=1, take_politburo=1)
    assert t.answer(seat) == A.DeclineTrade(seat, oid)
    counter = t.answer(seat)
    assert isinstance(counter, A.OfferTrade) and counter.seat == seat and counter.to == HUMAN
    (r,) = _replies(t, f"trade:{oid}")
    assert "counters" in r.text
    cards = [m for m in t.said if m.card and m.card.get("counter")]
    assert cards and cards[-1].card["kind"] == "trade" and cards[-1].to == HUMAN
    # the counter is worth the bot's while
    o = next(o for o in t.g.offers() if o["from"] == seat)
    flipped = {"from": HUMAN, "give_politburo": o["take_politburo"], "take_politburo": o["give_politburo"],
               "give_assassins": o["take_assassins"], "take_assassins": o["give_assassins"],
               "give_leaders": (), "take_leaders": ()}
    w = t.bots[seat].talk.worth(Player(t.g, seat), flipped)
    assert w.value >= w.need
    # and it still gives the proposer something (found in QA: "B counters: nothing for 1 Politburo",
    # the marker asked of the bot taken away, a demand of a gift)
    assert o["give_politburo"] or o["give_assassins"] or o["give_leaders"], o


def test_a_gift_is_always_accepted_and_thanked(position):
    t = fresh(position)
    oid = _offer(t, "C", give_politburo=1)
    assert t.answer("C") == A.AcceptTrade("C", oid)
    assert "gift" in _replies(t, f"trade:{oid}")[0].text


# -- pacts ------------------------------------------------------------------------------------------
def test_a_broken_pact_shifts_the_table_and_is_reported_once():
    g = Game.new(5, 2)
    m = Match(g, {s: make_agent("sdt", s, 2) for s in g.seats if s != HUMAN})
    t = m.table
    t.started, t.turn, t.version = True, 2, 10
    t.pct = {}
    m.pact(N.Pact(HUMAN, "B", until=3, since=5, id="A-B:1"))
    before = t.relation(HUMAN, "B")
    t.version = 11
    t.observe([Event("combat", "A attacks B", {"seat": HUMAN, "defender": "B"})])
    assert t.relation(HUMAN, "B") == before + 1 + N.SHIFT_PACT_BREAK
    (b,) = m.breaks()
    assert b.by == HUMAN and b.victim == "B" and "broke its pact" in b.text()
    t.observe([Event("combat", "A attacks B", {"seat": HUMAN, "defender": "B"})])
    assert m.breaks() == []                                     # a pact breaks once
    assert t.relation(HUMAN, "B") == min(7, before + 2 + N.SHIFT_PACT_BREAK)


def test_a_bots_trade_card_names_the_leaders_it_offers_and_asks(position):
    """Found by a player's QA: a bot's counter-offer read "B counters: 251 for 163 and 1
    Politburo" (counter ids) while the card under it named Deniken and Markin; and its offers
    said their terms twice.  The words name the leaders as the card does, once."""
    t = fresh(position)
    units = t.g.data.units
    leaders = sorted(u for u, x in units.items() if x.is_leader)
    act = A.OfferTrade("B", HUMAN, give_leaders=(leaders[0],), take_leaders=(leaders[1],), take_politburo=1)
    t.bots["B"].talk.card(act, "B counters", counter="trade:1")
    (said,) = t.m.messages()
    assert said.card["counter"] == "trade:1"
    assert said.text == f"B counters: {units[leaders[0]].name} for {units[leaders[1]].name} and 1 Politburo", said.text
    t.bots["B"].talk.stepped(Player(t.g, "B"), A.OfferTrade("B", HUMAN, give_politburo=1))
    (said,) = t.m.messages()
    assert said.text == "B offers: 1 Politburo for nothing", said.text


def test_a_pact_ends_with_its_game_turn_and_a_counterpurge_is_no_break():
    book = N.PactBook()
    book.add(N.Pact("A", "B", until=2, since=0, id="x"))
    assert book.breaks([Event("purge", "", {"purgers": ["B"], "target": "A", "counter": True})], 2, 5) == []
    assert book.breaks([Event("combat", "", {"seat": "B", "defender": "A"})], 3, 5) == []
    assert len(book.breaks([Event("assassination", "", {"seat": "B", "owner": "A"})], 2, 5)) == 1


def test_bots_keep_their_pacts():
    """Pacts between every pair until Game-Turn 2: no bot attacks, purges or assassinates a
    partner on Game-Turns 1-2 (the acts the same game has without them)."""
    def acts(pacts: bool) -> list[tuple]:
        g = Game.new(5, 11)
        m = Match(g, {s: make_agent("sdt", s, 11) for s in g.seats})
        if pacts:
            for a in g.seats:
                for b in g.seats:
                    if a < b:
                        m.pact(N.Pact(a, b, until=2, id=f"{a}{b}"))
        out = []
        while g.turn <= 2 and not g.over:
            st = m.next_step()
            assert st is not None
            for e in m.apply(st.seat, st.action, st.kind):
                out += [(g.turn, *x) for x in N.hostile_acts([e])]
        return out
    assert any(t <= 2 for t, *_ in acts(False))               # they would have
    assert acts(True) == []


@pytest.mark.parametrize("seed,pair", [(11, "CE"), (14, "BC"), (31, "CE")])
def test_a_bot_keeps_its_one_pact_when_its_partner_is_the_one_its_tables_point_at(seed, pair):
    """QA: a bot sent assassins after its pact partner the Player-Turn after the pact was made (and,
    the pact broken, purged him too).  With a pact between two players only, a bot's tables may
    point at the partner: its worst enemy for the assassins (seed 11), the Czar's holder on the
    Vindictive Strategy Table (seed 14), a stack the purge's spoils gave the partner after the
    plan chose it (seed 31).  None of the partners' acts against each other happens through
    Game-Turn 3, the pact's last."""
    g = Game.new(5, seed)
    m = Match(g, {s: make_agent("sdt", s, seed) for s in g.seats})
    m.pact(N.Pact(pair[0], pair[1], until=3, id="p"))
    broken = []
    while g.turn <= 3 and not g.over:
        st = m.next_step()
        assert st is not None
        for e in m.apply(st.seat, st.action, st.kind):
            broken += [(g.turn, *x) for x in N.hostile_acts([e]) if {x[0], x[1]} == set(pair)]
    assert broken == []


def test_a_bot_answers_a_pact_by_its_table():
    g = Game.new(5, 4)
    m = Match(g, {s: make_agent("sdt", s, 4) for s in g.seats if s != HUMAN})
    t = m.table
    while g.phase == "trading":
        st = m.next_step()
        if st is None:
            m.apply(HUMAN, A.EndTrading(HUMAN), by_agent=False)
            continue
        m.apply(st.seat, st.action, st.kind)
    for col, accept in ((2, True), (4, True), (6, False)):
        t.pct[frozenset((HUMAN, "B"))] = col
        msg = m.consider("B", {"kind": "pact", "with": [HUMAN, "B"], "until": 3, "seat": HUMAN}, "pact:x")
        assert msg.accept is accept and msg.answers == "pact:x" and f"PCT {col} with" in msg.text
    t.pct[frozenset((HUMAN, "B"))] = 5
    msg = m.consider("B", {"kind": "pact", "with": [HUMAN, "B"], "until": 3, "seat": HUMAN}, "pact:y")
    assert msg.accept is False and msg.card and msg.card["kind"] == "pact" and msg.card["until"] == g.turn


# -- what bots say --------------------------------------------------------------------------------
def test_bots_say_nothing_in_a_game_of_bots():
    g = Game.new(5, 6)
    m = Match(g, {s: make_agent("sdt", s, 6) for s in g.seats})
    said = []
    for _ in range(3000):
        st = m.next_step()
        if st is None:
            break
        m.apply(st.seat, st.action, st.kind)
        said += m.messages()
    assert said == []


def test_bots_tell_their_friends_their_colour_and_cards_go_to_the_human():
    t = Table(7)
    t.until(lambda g: g.turn >= 4 or g.over, limit=40000)
    assert t.said, "the bots said nothing to the human in three Game-Turns"
    assert all(m.to in (HUMAN, None) for m in t.said)
    intents = [m for m in t.said if " is Red this turn" in m.text or " is White this turn" in m.text
               or " is Undecided this turn" in m.text]
    assert intents
    # a bot that means to strike its own units of the other colour says so, not "E's Red units"
    # as if another player's (found in a QA game)
    assert any("strike its own " in m.text or ", its own " in m.text for m in intents)
    assert not [m.text for m in intents if f"{m.seat}'s " in m.text]


def test_no_bot_message_depends_on_the_hidden_state():
    """Two copies of one position whose hidden state differs (the engine's dice and the
    Randomizer's order: Game.reseed) are played alike while their public events are alike:
    every message the bots say in both is the same, so none can tell the cup order or a die
    not rolled yet; and no message holds the next dice or the cup's next chits."""
    a, b = Table(8), Table(8)                   # (the same seeds: the same game)

    def there(t):          # the Movement Phase of a bot friendly to A opens (it plans and tells A)
        seat = t.g.pending[0]["seat"] if t.g.pending else None
        return t.g.turn >= 2 and t.g.phase == "movement" and seat in t.bots and t.bots[seat].plan is None \
            and t.m.table.relation(seat, HUMAN) <= N.FRIEND
    for t in (a, b):
        for _ in range(40000):
            if there(t):
                break
            t.step()
    assert a.g.state_hash() == b.g.state_hash()
    b.g.reseed(99)
    hidden = a.g.state
    from rcw.rng import Rng
    r = Rng(hidden.rng)
    future = "".join(str(r.die()) for _ in range(4))
    cup = list(hidden.aux[:3])
    n = 0
    for _ in range(400):
        sa, sb = a.m.next_step(), b.m.next_step()
        ma, mb = a.m.messages(), b.m.messages()
        assert ma == mb
        for msg in ma:
            assert future not in msg.text.replace(" ", "")
            assert not (cup and all(str(c) in msg.text for c in cup))
        n += len(ma)
        if sa is None or sa != sb:
            break
        ea = a.m.apply(sa.seat, sa.action, sa.kind)
        eb = b.m.apply(sb.seat, sb.action, sb.kind)
        if [(e.kind, e.data) for e in ea] != [(e.kind, e.data) for e in eb]:
            break
    assert n > 0, "no message was said while the two games went alike"


@pytest.mark.parametrize("seed", [1, 4])
def test_a_bots_unanswered_gifts_do_not_pile_up(seed):
    """Found in a QA game: the SDT gifts (an Assassin marker on SDT roll 1, a Politburo marker
    before a purge) made to a human who does not answer stayed open, one more each time, and the
    player's Orders filled with offers for turns gone by.  A bot now withdraws its unanswered
    gifts when its next Movement Phase begins, before it gives again: never two at once."""
    import random

    g = Game.new(5, seed, {"max_turns": 8})
    m = Match(g, {p: make_agent("sdt", p, seed) for p in g.seats if p != "A"})
    rng = random.Random(seed)
    answers = ("AcceptTrade", "DeclineTrade", "OfferTrade", "WithdrawTrade", "JoinCommittee", "LeaveCommittee", "Quit")
    offered: dict[int, int] = {}             # gift to A -> the Game-Turn it was made
    withdrawn = []
    while not g.over:
        step = m.next_step()
        if step is None:                     # A plays on and never answers an offer
            me = m.player("A")
            a = rng.choice([a for a in me.legal if a.TYPE not in answers] or [a for a in me.legal if a.TYPE != "Quit"])
            m.apply("A", a, "turn", by_agent=False)
            continue
        for e in m.apply(step.seat, step.action, step.kind):
            if e.kind == "trade_offered" and e.data["to"] == "A":
                offered[e.data["offer"]] = g.turn
            elif e.kind == "trade_withdrawn":
                withdrawn.append((step.seat, e.data["offer"], g.turn))
        per_bot = Counter(o["from"] for o in g.offers("A") if o["to"] == "A")
        assert max(per_bot.values(), default=0) <= 1, (g.turn, g.offers("A"))
    assert withdrawn, "no gift was left unanswered: the case is not played"
    assert all(offered[oid] < turn for _, oid, turn in withdrawn)        # (each for a Game-Turn gone by)


def test_what_a_bot_asks_of_a_trade_reads_as_words():
    """Found by a QA player: "E accepts: worth -1 to E ..., and E asks -1 of A" (E, a friend of
    A's, takes a loss of one) and "asks +0 of A" before a counter asking one marker more."""
    assert N.Worth(-1, -1).asks("E", "A") == "E takes a loss of up to 1 in a trade with A"
    assert N.Worth(-1, 0).asks("E", "A") == "E asks A for at least an even trade"
    assert N.Worth(0, 2).asks("E", "A") == "E asks to gain at least 2 in a trade with A"
    assert [N.Worth(v, 0).verdict for v in (0, -1, -3)] == ["accept", "counter", "decline"]


def test_a_trades_terms_read_as_one_list():
    """A terminal QA pass: a bot's trade message read "Frunze, Kolchak and 1 Politburo and 1
    Assassin for ..."; the terms are one list, as a sentence lists them."""
    names = {1: "Frunze", 2: "Kolchak"}.__getitem__
    terms = {"give_leaders": [1, 2], "give_politburo": 1, "give_assassins": 1, "take_politburo": 2}
    assert N.describe_terms(terms, names) == "Frunze, Kolchak, 1 Politburo and 1 Assassin for 2 Politburo"
    assert N.describe_terms({"give_politburo": 1}) == "1 Politburo for nothing"


@pytest.mark.parametrize("players", [3, 5])
def test_a_gift_to_the_2nd_friendliest_says_when_he_is_also_the_least_friendly(players):
    """QA: in a three-player game a bot "gives a Politburo marker to A, its 2nd friendliest player,
    before the purge", then purged A, "its worst enemy": with two others the 2nd friendliest is the
    least friendly too, which the tables' gift and purge both follow.  The note says so then."""
    g = Game.new(players, 1, options={"max_turns": 3})
    bots = {s: make_agent("sdt", s, 1) for s in g.seats}
    m = Match(g, bots)
    while not g.over:
        st = m.next_step()
        assert st is not None
        m.apply(st.seat, st.action, st.kind)
    gifts = [n for b in bots.values() for n in b.notes if n.split(": ", 1)[1].startswith("gives ") and "2nd friendliest" in n]
    assert gifts
    assert all(("(of two: its least friendly too)" in n) == (players == 3) for n in gifts), gifts
