"""The SDT bots with 001's optional forces and rules (bots/sdt.py, bots/sdt_tables.py
APT_ANARCHISTS, APT_ORDER): where they place a unit drawn, their bonus draws, their Anarchist
units attacking alone, and the attacks on Anarchists from Game-Turn 6.  Positions built with the
engine test helpers; the agents play through the engine's public API."""

from __future__ import annotations

from engine_helpers import blank, dice, phase, put, stack_with, uid
from rcw.bots import sdt_tables as T
from rcw.bots.sdt import SDTAgent

from rcw import actions as A
from rcw.game import Game
from rcw.player import Player


def agent(g: Game, seat: str, rolls: list[int] | None = None, pct: dict | None = None) -> SDTAgent:
    a = SDTAgent(seat, 0)
    a.row(g.view(seat))
    for pair, val in (pct or {}).items():
        a.pct[frozenset(pair)] = val
    if rolls is not None:
        it = iter(rolls)
        a.die = lambda: next(it)
    return a


def draw(g: Game, seat: str, chit: str) -> None:
    phase(g, seat, "randomizer")
    g.state.aux = [chit]
    g.apply(A.DrawRandomizer(seat))


def test_a_shock_army_goes_with_the_bots_strongest_leader_of_its_colour():
    """001 Shock Armies: the SDT bot places it with its own leader whose stack attacks strongest
    (Non-Attack Policy 5's "strongest stack"), else with the friendliest player's leader."""
    g = blank(options={"shock_armies": True})
    put(g, "TVER", "A", "Trotsky")
    put(g, "PETR", "A", "Lenin", "RU8 PETR", attach={"RU8 PETR": "Lenin"})
    put(g, "KALU", "B", "Kalinin")
    draw(g, "A", f"U:{uid('RU8 SHOCK1')}")
    assert agent(g, "A").choose(Player(g, "A")) == A.PlaceUnit("A", leader=uid("Lenin"))
    g = blank(options={"shock_armies": True})
    put(g, "KALU", "B", "Kalinin")
    put(g, "TULA", "C", "Sablin")
    put(g, "ARCH", "A", "Miller")
    draw(g, "A", f"U:{uid('RU8 SHOCK1')}")
    bot = agent(g, "A", pct={("A", "B"): 5, ("A", "C"): 1, ("A", "D"): 4, ("A", "E"): 4})
    assert bot.choose(Player(g, "A")) == A.PlaceUnit("A", leader=uid("Sablin"))


def test_an_anarchist_goes_where_it_can_strike_the_bots_enemies_else_to_siberia():
    """001 Anarchists: a Red SDT bot places a small Anarchist unit with the weakest White stack
    of another player it can attack at 1:1 or better; with none, in Siberia, where it blocks no
    victory."""
    g = blank(options={"anarchists": True})
    put(g, "PETR", "A", "Lenin")                    # A is Red (its leaders on the map)
    put(g, "KHAR", "B", "WU6 KHAR")                 # 3 against 6: below 1:1
    put(g, "KIEV", "C", "WU2 ESTO")                 # 3 against 2: 1:1
    put(g, "PSKO", "D", "RU4 PSKO")                 # Red: not the enemy of a Red player
    draw(g, "A", "U:602")
    assert agent(g, "A").choose(Player(g, "A")) == A.PlaceUnit("A", province="KIEV")
    g = blank(options={"anarchists": True})
    put(g, "PETR", "A", "Lenin")
    draw(g, "A", "U:602")
    choice = agent(g, "A").choose(Player(g, "A"))
    assert g.data.provinces[choice.province].region == "Siberia"


def test_the_bot_takes_its_bonus_draws():
    """001 Additional Randomizer Draws: the SDT bot draws again while it may (its redraw policy:
    a new chit helps more often than it hurts)."""
    g = blank(options={"additional_draws": True})
    put(g, "PETR", "A", "Lenin")
    phase(g, "A", "randomizer")
    g.state.aux = ["A"] * 5
    bot = agent(g, "A")
    for _ in range(5):
        if g.pending != [{"seat": "A", "kind": "randomizer"}]:
            break
        g.apply(bot.choose(Player(g, "A")))
    assert g.stats["extra_draws"] == 2 and g.state.assassins["A"] == 3


def test_the_bots_anarchists_attack_alone():
    """001 Anarchists: "hostile to all units ..., including other Anarchists": a Red bot's two
    Anarchist units in Kiev make its APT line "Anarchist vs White" (bots.sdt_tables.APT_ANARCHISTS)
    one at a time: each attack has one Anarchist stack."""
    g = blank(options={"anarchists": True})
    g.state.turn = 5                                # (the PIT: Lenin's 3 make A Red on Game-Turn 5)
    put(g, "VLDV", "A", "Lenin")                    # Lenin cannot get out of Vladivostok:
    put(g, "HARB", "B", "GU2 VLDV/SB")
    put(g, "KHAB", "B", "GU2 CHIT/SB")
    a1 = put(g, "KIEV", "A", "AU3 Anarchists")
    put(g, "KIEV", "A", "AU3 Anarchists")
    put(g, "KIEV", "B", "WU2 ESTO")
    bot = agent(g, "A", rolls=[1] + [1] * 10, pct={("A", "B"): 5})
    plan = bot.make_plan(Player(g, "A"))
    assert [(p.color, len(p.forces)) for p in plan.attacks] == [("Anarchist", 1)]
    events = []
    with dice(g, 1):
        while g.pending and g.pending[0]["seat"] == "A" and g.phase in ("movement", "combat"):
            events += g.apply(bot.choose(Player(g, "A")))
    combat = [e for e in events if e.kind == "combat"]
    assert len(combat) == 1 and len(combat[0].data["attackers"]) == 1 and combat[0].data["attackers"][0] in (a1.id, a1.id + 1)


def test_from_game_turn_6_the_bot_attacks_anarchists_first_its_own_too():
    """001 Anarchists: "Anarchy versus Order" - from Game-Turn 6 (eliminated Anarchists stay off
    the map and score) a Red bot's first attack is Red vs Anarchist (APT_ORDER), on the Makhno it
    controls itself; on Game-Turn 2 it leaves its own Makhno alone."""
    for turn, want in ((6, [("Red", "AU6 Makhno")]), (2, [])):
        g = blank(options={"anarchists": True})
        g.state.turn = turn
        put(g, "YEKA", "A", "Trotsky", "RU8 PETR", attach={"RU8 PETR": "Trotsky"})
        put(g, "YEKA", "A", "AU6 Makhno")
        bot = agent(g, "A", rolls=[1] + [1] * 10)
        plan = bot.make_plan(Player(g, "A"))
        got = [(p.color, g.data.units[g.state.stacks[p.target].units[0]].label) for p in plan.attacks]
        assert got == want, turn
    assert T.ANARCHY_TURN == 6
    assert stack_with(g, "AU6 Makhno").owner == "A"


def test_the_bot_stacks_its_leaders_alone_with_their_nearest_friends_before_its_movement_phase_ends():
    """001 No Leader Suicide 3 "Whenever possible, a Leader *alone* must be moved to and stacked
    with the nearest available friendly unit(s)": the engine refuses the end of the Movement
    Phase until it is done (``Game.leaders_to_stack``), and the SDT bot carries out what its
    plan left undone, every step of it legal: Kalinin alone in KALU goes to Sorokin's stack in
    RYAZ, Kamenev alone in PETR merges with Trotsky's stack there."""
    g = blank(options={"no_leader_suicide": True})
    put(g, "KALU", "A", "Kalinin")
    put(g, "RYAZ", "A", "Sorokin", "RU4 TULA", attach={"RU4 TULA": "Sorokin"})
    put(g, "PETR", "A", "Kamenev")
    put(g, "PETR", "A", "Trotsky", "RU6 SMOL", attach={"RU6 SMOL": "Trotsky"})
    assert [(d["leader"], d["do"], d.get("to")) for d in g.leaders_to_stack("A")] == \
        [(uid("Kalinin"), "move", ["RYAZ"]), (uid("Kamenev"), "merge", None)]
    bot = agent(g, "A", rolls=[2] * 20)
    plan = bot.make_plan(Player(g, "A"))
    plan.orders.clear()                              # (a plan that moves none of them, nor merges them)
    plan.merges_done = True
    while g.phase == "movement":
        act = bot.choose(Player(g, "A"))
        assert g.is_legal(act), (act, g.why_illegal(act))
        g.apply(act)
    assert g.leaders_to_stack("A") == []
    assert stack_with(g, "Kalinin") is stack_with(g, "Sorokin") and stack_with(g, "Kamenev") is stack_with(g, "Trotsky")
    assert sum("No Leader Suicide 3" in n for n in bot.notes) == 2, bot.notes
