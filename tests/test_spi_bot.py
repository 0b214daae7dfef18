"""The look-ahead Red bot of the SPI solitaire (``bots/spi.py``: :class:`SPIPlannerAgent`) on
engine-built positions: it guards Lenin and Trotsky, screens a non-Red path with a lone leader
(004 [24.11]), makes Subversive Attacks (004 [8.3]), plays legal actions only and is
deterministic given its seed; and the look-ahead copy (``Player.lookahead``) never sees the
real game's dice."""

from __future__ import annotations

from engine_helpers import dice
from rcw.bots.match import Match
from rcw.bots.spi import STANCES, SPIPlannerAgent, rollout
from test_spi_solitaire import SUBV, empty, force, new, put, red_phase

from rcw import actions as A
from rcw.player import Player

ATTACK = next(s for s in STANCES if s.min_col == 2 and not s.lt_out)     # attacks at 2:1 and better


def _combat_phase(g, agent, limit: int = 60) -> list:
    """Let ``agent`` play Red's Combat Phase to its end; the actions it took (the game's
    attack counts start from zero here)."""
    g.state.stats = {}
    p = Player(g, "R")
    took = []
    for _ in range(limit):
        if g.state.phase != "combat" or g.over:
            break
        a = agent.choose(p)
        assert p.is_legal(a), a
        took.append(a)
        g.apply(a)
    return took


# -- Lenin and Trotsky ---------------------------------------------------------------------------------------
def test_trotsky_does_not_attack_below_three_to_one_outside_tver():
    """At 2:1 an attack can end in Ae (004 [8.41], the CRT): Trotsky stays out of it."""
    g = empty()
    put(g, "TVER", "R", "RU3 KALU")                                       # Tver held
    put(g, "RYAZ", "R", "Trotsky", "RU8 TVER", attach={"RU8 TVER": "Trotsky"})
    force(g, "RYAZ", "N", "Wrangel", "WU2 SARA", attach={"WU2 SARA": "Wrangel"})   # 5: 11 vs 5 is 2:1
    red_phase(g, "combat")
    wrangel = g.ctx.b.stack_of(g.data.by_name("Wrangel").id).id
    assert Player(g, "R").odds([g.ctx.b.stack_of(152).id], wrangel)["label"] == "2:1"
    _combat_phase(g, SPIPlannerAgent("R", 1, rollouts=0, stance=ATTACK))
    assert g.state.stats.get("attacks", 0) == 0
    assert g.ctx.b.stack_of(152) is not None


def test_trotsky_attacks_at_three_to_one():
    """At 3:1 every result eliminates the defender (the CRT): a sure kill is worth Trotsky."""
    g = empty()
    put(g, "TVER", "R", "RU3 KALU")
    put(g, "RYAZ", "R", "Trotsky", "RU8 TVER", attach={"RU8 TVER": "Trotsky"})
    force(g, "RYAZ", "N", "Kappel", "WU2 SARA", attach={"WU2 SARA": "Kappel"})     # 3: 11 vs 3 is 3:1
    red_phase(g, "combat")
    _combat_phase(g, SPIPlannerAgent("R", 1, rollouts=0, stance=ATTACK))
    assert g.state.stats.get("attacks", 0) == 1
    assert g.ctx.b.stack_of(g.data.by_name("Kappel").id) is None


def test_a_lone_leader_decoy_or_block_keeps_trotsky_from_being_the_target():
    """004 [23.11]: non-Red forces attack the weakest Red force in their province.  With a
    non-Red force one step from Tver (it will enter, 004 [21.23]) the bot deploys a leader
    alone so that Trotsky's stack is not the one attacked, or stops the force short of Tver."""
    g = empty()
    put(g, "TVER", "R", "Trotsky", "RU8 TVER", attach={"RU8 TVER": "Trotsky"})
    put(g, "PETR", "R", "Lenin", "RU8 PETR", attach={"RU8 PETR": "Lenin"})
    put(g, "NOVG", "R", "RU8 NOVG")
    force(g, "TULA", "N", "Wrangel", "WU4 ASTR", "WU4 TAUR", "WU3 STAV",
          attach={"WU4 ASTR": "Wrangel", "WU4 TAUR": "Wrangel", "WU3 STAV": "Wrangel"})      # 14 >= 11: 1:1
    red_phase(g, "random_events")
    with dice(g, *SUBV, 3):                   # Random Events harmless; the Red Leader Determination die: 3
        g.apply(A.RollRandomEvents("R"))
    p = Player(g, "R")
    agent = SPIPlannerAgent("R", 1, rollouts=0, stance=ATTACK)
    deployed = []
    while g.state.phase == "leaders":
        a = agent.choose(p)
        assert p.is_legal(a), a
        if a.TYPE == "DeployLeader":
            deployed.append(a)
        g.apply(a)
    assert any(a.stack == 0 and a.province == "TVER" for a in deployed), deployed


def test_a_lone_leader_blocks_an_open_path_to_tver():
    """004 [24.11]: a leader may be deployed alone; 004 [5.27]: a non-Red force stops on entering
    a province held by Red units.  A force two steps from Tver with nothing in its way gets a
    lone leader on the next province of its path."""
    g = empty()
    put(g, "TVER", "R", "Trotsky", "RU8 TVER", attach={"RU8 TVER": "Trotsky"})
    put(g, "PETR", "R", "Lenin", "RU8 PETR", attach={"RU8 PETR": "Lenin"})
    st = force(g, "OREL", "N", "Wrangel", "WU4 ASTR", attach={"WU4 ASTR": "Wrangel"})
    ahead = Player(g, "R").view["solitaire"]["routes"][str(st.id)]["ahead"]
    assert len(ahead) >= 2 and ahead[-1] == "TVER"
    red_phase(g, "random_events")
    with dice(g, *SUBV, 2):
        g.apply(A.RollRandomEvents("R"))
    p = Player(g, "R")
    agent = SPIPlannerAgent("R", 1, rollouts=0, stance=ATTACK)
    a = agent.choose(p)
    assert a.TYPE == "DeployLeader" and a.stack == 0 and a.province in ahead[:-1], a
    assert g.data.units[a.leader].strength == 1                     # the least valuable leader blocks
    g.apply(a)


# -- subversion -------------------------------------------------------------------------------------------------
def test_subversive_attack_on_an_adjacent_blue_stack():
    """004 [8.31]-[8.33]: a Subversive Attack risks nothing (Ae and Ex do not touch Red); the bot
    makes one when it has a leader next to a Blue stack and nothing better to do."""
    g = empty()
    put(g, "TVER", "R", "Trotsky", "RU8 TVER", attach={"RU8 TVER": "Trotsky"})
    put(g, "SMOL", "R", "Zinoviev", "RU6 SMOL", "RU4 VITE", attach={"RU6 SMOL": "Zinoviev", "RU4 VITE": "Zinoviev"})
    force(g, "MOHI", None, "BU2 MOHI/GE", route=False)
    red_phase(g, "combat")
    took = _combat_phase(g, SPIPlannerAgent("R", 1, rollouts=0, stance=ATTACK))
    assert any(a.TYPE == "DeclareAttack" and a.subversive for a in took), took
    assert g.state.stats.get("subversive_attacks", 0) == 1


# -- the look-ahead ---------------------------------------------------------------------------------------------
def test_lookahead_has_its_own_dice_and_leaves_the_game_alone():
    g = new(3)
    p = Player(g, "R")
    h = g.state_hash()
    rng = g.state.rng
    a, b, c = p.lookahead(1), p.lookahead(1), p.lookahead(2)
    assert g.state_hash() == h and g.state.rng == rng
    assert a.state.rng == b.state.rng != c.state.rng and a.state.rng != rng
    s1 = rollout(p, STANCES[0], 5)
    assert g.state_hash() == h and g.state.rng == rng
    assert s1 == rollout(p, STANCES[0], 5)


def test_same_seed_same_game_and_legal_actions_only():
    results = []
    for _ in range(2):
        g = new(4)
        m = Match(g, {"R": SPIPlannerAgent("R", 4, rollouts=1, time_limit=None)})
        m.play(20_000)
        assert g.over and m.refused == 0
        results.append((g.state_hash(), g.result["victory"], len(g.log)))
    assert results[0] == results[1]


# -- Petrograd and Tver: every non-Red stack there must go (004 [28.13]) ----------------------------------------
def test_attacks_in_tver_are_shared_out_to_clear_it():
    """004 [28.13]: one non-Red unit left in Tver at the end of the Game-Turn loses the game, so
    the Red stacks there are shared out for the best chance that every non-Red stack is
    eliminated (De or Ex, the CRT): Trotsky's 11 on Kappel's 3 (3:1, sure) and Zinoviev's 8 on
    Wrangel's 7 (1:1, one in two), not both on one stack (the other then stays)."""
    g = empty()
    trotsky = put(g, "TVER", "R", "Trotsky", "RU8 TVER", attach={"RU8 TVER": "Trotsky"})
    zinoviev = put(g, "TVER", "R", "Zinoviev", "RU6 SMOL", attach={"RU6 SMOL": "Zinoviev"})
    wrangel = force(g, "TVER", "N", "Wrangel", "WU4 ASTR", attach={"WU4 ASTR": "Wrangel"})
    kappel = force(g, "TVER", "N", "Kappel", "WU2 SARA", attach={"WU2 SARA": "Kappel"})
    red_phase(g, "combat")
    p = Player(g, "R")
    assert (p.defense(wrangel.id), p.defense(kappel.id)) == (7, 3)
    agent = SPIPlannerAgent("R", 1, rollouts=0, stance=ATTACK)
    with dice(g, 1, 1):                                   # De, De
        took = _combat_phase(g, agent)
    groups: dict[int, set[int]] = {}
    target = None
    for a in took:
        if a.TYPE == "DeclareAttack":
            target = a.target
            groups[target] = set()
        elif a.TYPE == "AddAttacker":
            groups[target].add(a.stack)
    assert groups[kappel.id] == {trotsky.id} and groups[wrangel.id] == {zinoviev.id}, groups
    assert list(groups) == [wrangel.id, kappel.id]          # the less sure attack first
    assert not [st for st in g.state.stacks.values() if st.province == "TVER" and st.owner == "N"]


def test_the_stacks_in_a_held_tver_stay_to_clear_it():
    """The Movement Phase does not take a Red stack out of a Tver that holds non-Red units."""
    g = empty()
    put(g, "TVER", "R", "Zinoviev", "RU6 SMOL", attach={"RU6 SMOL": "Zinoviev"})
    force(g, "TVER", "N", "Kappel", "WU2 SARA", attach={"WU2 SARA": "Kappel"})
    force(g, "SMOL", "N", "Wrangel", "WU2 TIFL", attach={"WU2 TIFL": "Wrangel"})    # a 3:1 target next door
    p = Player(g, "R")
    agent = SPIPlannerAgent("R", 1, rollouts=0, stance=ATTACK)
    a = agent.choose(p)
    assert a.TYPE == "EndMovement", a


# -- the Finns (004 [25.12], [9.12]) -------------------------------------------------------------------------------
def test_a_lone_leader_holds_an_empty_finland_against_the_finns_replacement():
    """004 [25.12]: the Finnish units are replaced (in Finland, 004 [9.1]) every Game-Turn to the
    fifth; 004 [9.12]: not while an enemy unit, and no Finnish one, occupies Finland.  With the
    Finns dead on the Victory Point Chart and Finland empty, the bot deploys a leader alone there
    and it stays; the Finns are not replaced."""
    from rcw.solitaire.replacement import replacement_block

    g = empty(turn=2)
    put(g, "TVER", "R", "Trotsky", "RU8 TVER", attach={"RU8 TVER": "Trotsky"})
    put(g, "PETR", "R", "Lenin", "RU8 PETR", attach={"RU8 PETR": "Lenin"})
    force(g, "KHAR", "N", "Wrangel", "WU4 ASTR", attach={"WU4 ASTR": "Wrangel"})     # the game goes on (004 [28.11])
    finns = [u.id for u in g.data.units.values() if u.nationality == "FN" and u.is_combat]
    for u in finns:
        g.ctx.to_chart(u, "R")
    assert all(replacement_block(g.ctx, u, False) is None for u in finns)
    red_phase(g, "random_events")
    with dice(g, *SUBV, 1):                                # one leader may be deployed
        g.apply(A.RollRandomEvents("R"))
    p = Player(g, "R")
    agent = SPIPlannerAgent("R", 1, rollouts=0, stance=ATTACK)
    a = agent.choose(p)
    assert a.TYPE == "DeployLeader" and a.stack == 0 and a.province == "FINL", a
    g.apply(a)
    while g.state.phase in ("leaders", "movement"):
        g.apply(agent.choose(p))
    sentinel = g.ctx.b.stack_of(a.leader)
    assert sentinel is not None and sentinel.province == "FINL"
    assert all(replacement_block(g.ctx, u, False).startswith("004 [9.12]") for u in finns)
