"""The one match loop (rcw.bots.match.Match): whose turn it asks, answers out of turn, a human
seat it waits for, refused actions, and bots going round in circles."""

from __future__ import annotations

from engine_helpers import markers
from rcw.bots.match import Match
from rcw.bots.random_agent import RandomAgent

from rcw import actions as A
from rcw.game import Game


class Recorder:
    """An agent that plays the first legal action and records what it is shown."""

    def __init__(self, seat: str) -> None:
        self.seat = seat
        self.events: list[str] = []
        self.asked = 0

    def choose(self, player):
        return player.legal[0]

    def react(self, player):
        self.asked += 1
        return None

    def observe(self, events):
        self.events += [e.kind for e in events]


def test_the_match_waits_for_a_human_seat_and_shows_every_action_to_the_agents():
    g = Game.new(3, 1)
    bots = {"B": Recorder("B"), "C": Recorder("C")}
    m = Match(g, bots)
    while (step := m.next_step()) is not None:
        m.apply(step.seat, step.action, step.kind)
    assert g.pending and g.pending[0]["seat"] == "A"           # the human's turn: the match waits
    m.apply("A", A.EndTrading("A"), by_agent=False)
    assert "sequence" in bots["B"].events and bots["B"].events == bots["C"].events


class Cheater(Recorder):
    def choose(self, player):
        return A.EndCombat(self.seat)                           # rarely legal

    def fallback(self, player):
        return next(a for a in player.legal if a.TYPE != "Quit")


def test_a_refused_action_is_counted_and_replaced_by_the_agents_fallback():
    g = Game.new(3, 2)
    m = Match(g, {p: Cheater(p) for p in g.seats})
    wrong = 0
    for _ in range(30):
        seat = g.pending[0]["seat"]
        wrong += not g.is_legal(A.EndCombat(seat))
        step = m.next_step()
        assert step.action in g.legal_actions(step.seat)
        m.apply(step.seat, step.action, step.kind)
    assert m.refused == wrong > 10


def test_answers_out_of_turn_come_in_rounds_and_stop():
    """A trade offer is open to its addressee: every agent is asked once a round, rounds stop
    when nobody answers, and the same open question is not asked again."""
    g = Game.new(3, 3)
    for p in g.seats:
        g.apply(A.EndTrading(p))
    bots = {p: Recorder(p) for p in g.seats}
    m = Match(g, bots)
    seat = g.pending[0]["seat"]
    other = next(p for p in g.seats if p != seat)
    markers(g, **{seat: 2})
    m.apply(seat, A.OfferTrade(seat, other, give_politburo=1), by_agent=False)
    step = m.next_step()
    assert step.kind == "turn" and all(b.asked == 1 for b in bots.values())      # one round, no answer: done
    assert m.next_step() == step and all(b.asked == 1 for b in bots.values())    # the same question: not again


class Circler(RandomAgent):
    """Joins a one-man Central Committee and leaves it again, for ever, when it may."""

    def choose(self, player):
        for a in player.legal:
            if a.TYPE == "LeaveCommittee" or (a.TYPE == "JoinCommittee" and list(a.members) == [self.seat]):
                return a
        return super().choose(player)


def test_bots_going_round_in_circles_are_steered_out():
    """Seed 1: C holds 8 Politburo markers and may form a Committee of its own; bots that join
    and leave it for ever bring the game back to one position, and the match steers them out."""
    g = Game.new(3, 1, {"max_turns": 1})
    m = Match(g, {p: Circler(p, 1) for p in g.seats})
    steered = 0
    for _ in range(5000):
        step = m.next_step()
        if step is None:
            break
        steered += "repeat a position" in step.note
        m.apply(step.seat, step.action, step.kind)
    assert g.over and steered > 0


def test_a_finished_game_with_sdt_bots_is_freed_at_once_without_the_cyclic_collector():
    """A server hosts many games: when one ends and is dropped, its bots and the game they hold
    go at once (no reference cycle between a bot and its helpers waits for ``gc``; nor one made
    by a refusal the engine gives as an answer, ``Game.why_illegal``, whose traceback held the
    bot's frames: it failed when no collection happened to run after it)."""
    import gc
    import weakref

    from rcw.bots import make_agent

    was = gc.isenabled()
    gc.disable()             # (for the whole game: a cycle made in play is not collected by chance)
    try:
        g = Game.new(5, 3, {"max_turns": 3})
        agents = {p: make_agent("sdt", p, 3) for p in g.seats}
        Match(g, agents).play()
        assert g.over or g.turn > 3
        gone = weakref.ref(g), weakref.ref(agents["A"])
        del g, agents
        assert [r() for r in gone] == [None, None]
    finally:
        if was:
            gc.enable()
