"""001 No Leader Suicide (option ``no_leader_suicide``): "In order to prevent players sending
Leaders to an easy death ... the following prohibitions with regard to Leader activity must be
observed" - its three prohibitions with exceptions A-D, as rcw/rules/no_suicide.py reads them
(docs/variants.md), enforced in the engine's checks with typed errors and followed by its
``reach`` and ``attack_options``, so that clients that ask them never choose a refused step."""

from __future__ import annotations

import random

import pytest
from engine_helpers import blank, phase, put, refused, run, stack_with, uid, where
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rcw import actions as A
from rcw.game import Game
from rcw.rules.no_suicide import RULE1, RULE2, RULE3

NLS = {"no_leader_suicide": True}


def game(**extra) -> Game:
    return blank(options={**NLS, **extra})


# -- 1: "Leaders without combat units may never initiate regular Combat against combat units and
#       may only initiate combat versus another leader if the odds are 1:1 or greater." ---------------
def test_leaders_without_combat_units_never_attack_combat_units():
    """001 No Leader Suicide 1: no regular Combat against combat units by leaders without them."""
    g = game()
    lone = put(g, "KALU", "A", "Kalinin")
    target = put(g, "KALU", "B", "WU3 OMSK")
    phase(g, "A", "combat")
    refused(g, A.DeclareAttack("A", target.id, False), RULE1)
    assert g.attack_problem("A", lone.id, target.id) == (RULE1, "leaders without combat units may never attack combat units")
    assert g.attack_options("A") == []
    # with a combat unit of his own (attached) he may (the rule is off without the option, too)
    g2 = game()
    put(g2, "KALU", "A", "Kalinin", "RU4 TULA", attach={"RU4 TULA": "Kalinin"})
    t2 = put(g2, "KALU", "B", "WU3 OMSK")
    phase(g2, "A", "combat")
    run(g2, A.DeclareAttack("A", t2.id, False))
    g3 = blank()
    put(g3, "KALU", "A", "Kalinin")
    t3 = put(g3, "KALU", "B", "WU3 OMSK")
    phase(g3, "A", "combat")
    run(g3, A.DeclareAttack("A", t3.id, False))


def test_leaders_alone_attack_other_leaders_only_at_one_to_one_or_better():
    """001 No Leader Suicide 1: "only ... versus another leader if the odds are 1:1 or greater"."""
    g = game()
    weak = put(g, "KALU", "A", "Kalinin")                      # 1
    strong_target = put(g, "KALU", "B", "Kolchak")             # 2: 1:2
    phase(g, "A", "combat")
    refused(g, A.DeclareAttack("A", strong_target.id, False), RULE1)
    assert g.attack_options("A") == []
    # a second stack of leaders alone raises the odds to 1:1: the attack is open, both together
    second = put(g, "KALU", "A", "Yeserov")
    opts = g.attack_options("A")
    assert [(o["target"], [gr["stacks"] for gr in o["groups"]]) for o in opts] == [
        (strong_target.id, [sorted([weak.id, second.id])])]
    run(g, A.DeclareAttack("A", strong_target.id, False), A.AddAttacker("A", weak.id))
    refused(g, A.ResolveAttack("A"), RULE1)                   # 1 against 2 is 1:2
    run(g, A.AddAttacker("A", second.id))
    assert g.odds()["label"] == "1:1"
    assert g.is_legal(A.ResolveAttack("A"))


def test_subversive_attacks_by_leaders_alone_are_not_regular_combat():
    """001 No Leader Suicide 1 prohibits "regular Combat"; a Subversive Attack (004 [8.31]) risks
    nothing of the attackers (004 [8.33])."""
    g = game()
    put(g, "TVER", "A", "Trotsky")
    blue = put(g, "KALU", None, "BU2 LIVO/GE")
    phase(g, "A", "combat")
    run(g, A.DeclareAttack("A", blue.id, True), A.AddAttacker("A", where_stack(g, "Trotsky")))
    assert g.is_legal(A.ResolveAttack("A"))


def where_stack(g: Game, name: str) -> int:
    return g.ctx.b.stack_of(uid(name)).id


# -- 2: "A Leader who is not stacked with at least one combat-capable, non-Leader unit may never be
#       moved to a province containing hostile forces ... unless" A-D ----------------------------------
def test_a_leader_alone_never_enters_a_province_of_another_colour():
    """001 No Leader Suicide 2: not into a province of "hostile forces (forces of a different color)"."""
    g = game()
    put(g, "TULA", "A", "Kamenev")
    put(g, "KALU", None, "WU3 OMSK")
    run(g, A.StartForce("A", uid("Kamenev")))
    e = refused(g, A.Move("A", "KALU", False), RULE2)
    assert "KALU" in e.message
    assert "KALU" not in g.reach()
    # with a combat unit of his own he may
    g2 = game()
    put(g2, "TULA", "A", "Kamenev", "RU4 TULA", attach={"RU4 TULA": "Kamenev"})
    put(g2, "KALU", None, "WU3 OMSK")
    run(g2, A.StartForce("A", uid("Kamenev")), A.Move("A", "KALU", False), A.EndForce("A"))
    assert where(g2, "Kamenev") == "KALU"


@pytest.mark.parametrize("case, there", [
    ("A", [("A", ("Kalinin", "RU6 SMOL"), {"RU6 SMOL": "Kalinin"})]),       # a friendly stack with room
    ("B", [("A", ("Kolchak", "WU3 OMSK"), {"WU3 OMSK": "Kolchak"})]),        # all the White units are his
    ("C", [("B", ("Kolchak",), {}), ("C", ("Khanzin",), {})]),               # other leaders only
])
def test_exceptions_a_b_c_let_a_leader_alone_enter(case, there):
    """001 No Leader Suicide 2 A (a friendly unit he may legally stack with), 001 No Leader Suicide 2 B
    (every unit of another colour is his player's), 001 No Leader Suicide 2 C (they are all leaders)."""
    g = game()
    put(g, "TULA", "A", "Kamenev")
    for owner, labels, att in there:
        put(g, "KALU", owner, *labels, attach=att)
    run(g, A.StartForce("A", uid("Kamenev")), A.Move("A", "KALU", False))
    assert g.is_legal(A.EndForce("A")), case


def test_exception_d_a_leader_alone_enters_to_usurp_loose_units_and_must_take_one():
    """001 No Leader Suicide 2 D: "Unattached units of the appropriate color are present and the
    Leader concerned can and will attempt to usurp control of one or more of them."""
    g = game()
    put(g, "TULA", "A", "Kamenev")
    put(g, "KALU", None, "WU3 OMSK")
    loose = put(g, "KALU", None, "RU4 PSKO").units[0]
    assert "KALU" in g.reach(uid("Kamenev"))
    run(g, A.StartForce("A", uid("Kamenev")), A.Move("A", "KALU", False))
    refused(g, A.EndForce("A"), RULE2)
    refused(g, A.EndMovement("A"), RULE2)
    run(g, A.Attach("A", loose, uid("Kamenev")), A.EndForce("A"))
    assert g.ctx.b.stack_of(uid("Kamenev")).attached == {loose: uid("Kamenev")}


# -- 3: "Whenever possible, a Leader alone must be moved to and stacked with the nearest available
#       friendly unit(s), even if only other Leaders." -----------------------------------------------
def test_a_leader_alone_goes_to_the_nearest_friendly_stack_and_joins_it():
    """001 No Leader Suicide 3: nearer each step, on to them while he can reach them, stacked with them."""
    g = game()
    put(g, "KALU", "A", "Kalinin")
    friends = put(g, "RYAZ", "A", "Sorokin", "RU4 TULA", attach={"RU4 TULA": "Sorokin"})     # KALU-TULA-RYAZ
    assert set(g.reach(uid("Kalinin"))) == {"RYAZ"}
    run(g, A.StartForce("A", uid("Kalinin")))
    e = refused(g, A.Move("A", "SMOL", False), RULE3)
    assert "RYAZ" in e.message and "SMOL is not nearer" in e.message
    run(g, A.Move("A", "TULA", False))
    refused(g, A.EndForce("A"), RULE3)                         # he can still reach them
    refused(g, A.EndMovement("A"), RULE3)
    ev = run(g, A.Move("A", "RYAZ", False), A.EndForce("A"))
    assert g.ctx.b.stack_of(uid("Kalinin")).id == friends.id  # stacked with them
    assert any(e.kind == "merge" and RULE3 in e.text for e in ev)
    assert g.stats["leaders_stacked_up"] == 1


def test_the_refusal_names_the_friends_nearest_to_the_leader():
    """The words of a Prohibition 3 refusal: the friendly units nearest to the leader, at their
    distance (before: every target, each at distance 0 from itself, and "1 provinces")."""
    g = game()
    put(g, "KALU", "A", "Kalinin")
    put(g, "RYAZ", "A", "Sorokin", "RU4 TULA", attach={"RU4 TULA": "Sorokin"})      # KALU-TULA-RYAZ: 2
    put(g, "VLDV", "A", "Kikvidze", "RU8 PETR", attach={"RU8 PETR": "Kikvidze"})     # far away
    run(g, A.StartForce("A", uid("Kalinin")))
    e = refused(g, A.Move("A", "SMOL", False), RULE3)
    assert "(RYAZ, 2 provinces from KALU)" in e.message and "VLDV" not in e.message
    run(g, A.Move("A", "TULA", False))
    e = refused(g, A.Move("A", "OREL", False), RULE3)
    assert "(RYAZ, 1 province from TULA)" in e.message
    e = refused(g, A.EndForce("A"), RULE3)
    assert e.message.endswith("(RYAZ)")


def test_a_leader_alone_who_cannot_reach_his_friends_ends_nearer():
    """001 No Leader Suicide 3 "whenever possible": beyond his reach he ends nearer, or stays."""
    g = game()
    put(g, "KALU", "A", "Kalinin")
    put(g, "OMSK", "A", "Kolchak")                             # White: not his colour
    put(g, "VLDV", "A", "Kikvidze")                            # far beyond his reach
    r = g.reach(uid("Kalinin"))
    assert r and "VLDV" not in r
    run(g, A.StartForce("A", uid("Kalinin")))
    here = g.reach()
    dest = sorted(here)[0]
    for p in here[dest]["path"]:
        run(g, A.Move("A", p, here[dest]["rail"]))
    assert g.is_legal(A.EndForce("A"))
    # beyond his reach he may stay, too: the Movement Phase ends with him where he stands
    g1 = game()
    put(g1, "KALU", "A", "Kalinin")
    put(g1, "OMSK", "A", "Kolchak")
    put(g1, "VLDV", "A", "Kikvidze")
    assert g1.leaders_to_stack("A") == [] and g1.is_legal(A.EndMovement("A"))
    run(g1, A.StartForce("A", uid("Kalinin")))
    assert g1.is_legal(A.EndForce("A")) and g1.is_legal(A.EndMovement("A"))
    # within his reach (by rail, with no White unit in the way) "whenever possible ... must be
    # moved": staying put is refused, as a force and as the end of the phase
    g2 = game()
    put(g2, "KALU", "A", "Kalinin")
    put(g2, "VLDV", "A", "Kikvidze")
    assert [(d["leader"], d["do"], d["to"]) for d in g2.leaders_to_stack("A")] == \
        [(uid("Kalinin"), "move", ["VLDV"]), (uid("Kikvidze"), "move", ["KALU"])]      # (each the other's nearest)
    e = refused(g2, A.EndMovement("A"), RULE3)
    assert "Kalinin" in e.message and "(VLDV)" in e.message
    run(g2, A.StartForce("A", uid("Kalinin")))
    refused(g2, A.EndForce("A"), RULE3)
    refused(g2, A.EndMovement("A"), RULE3)
    for p in g2.reach()["VLDV"]["path"]:
        run(g2, A.Move("A", p, True))
    run(g2, A.EndForce("A"))                                   # (stacked with Kikvidze: both done)
    assert stack_with(g2, "Kalinin") is stack_with(g2, "Kikvidze")
    assert g2.leaders_to_stack("A") == [] and g2.is_legal(A.EndMovement("A"))


def test_a_leader_alone_beside_friends_is_stacked_with_them_before_the_phase_ends():
    """001 No Leader Suicide 3 "Whenever possible, a Leader *alone* must be moved to and stacked
    with the nearest available friendly unit(s)" (the audit: a leader alone beside a friendly
    stack of his own in his province, or with friends in reach, was free to stay): the Movement
    Phase does not end until he is stacked with them: a Merge, or a force of him that ends
    where it stands; standing with loose units of his colour, he takes one."""
    g = game()
    put(g, "KALU", "A", "Kalinin")
    friends = put(g, "KALU", "A", "Sorokin", "RU4 TULA", attach={"RU4 TULA": "Sorokin"})
    alone = stack_with(g, "Kalinin")
    assert [(d["do"], d.get("into")) for d in g.leaders_to_stack("A")] == [("merge", friends.id)]
    e = refused(g, A.EndMovement("A"), RULE3)
    assert "Kalinin" in e.message and "Merge" in e.message
    g2 = g.clone()
    run(g, A.Merge("A", alone.id, friends.id))
    assert g.leaders_to_stack("A") == [] and g.is_legal(A.EndMovement("A"))
    run(g2, A.StartForce("A", uid("Kalinin")))            # (or a force of him, ended at once)
    run(g2, A.EndForce("A"))
    assert stack_with(g2, "Kalinin") is stack_with(g2, "Sorokin") and g2.is_legal(A.EndMovement("A"))
    # loose units of his colour where he stands: he takes one (a force of him, Attach)
    g = game()
    put(g, "KALU", "A", "Kalinin")
    loose = put(g, "KALU", None, "RU4 PSKO").units[0]
    assert [(d["do"], d.get("units")) for d in g.leaders_to_stack("A")] == [("attach", [loose])]
    refused(g, A.EndMovement("A"), RULE3)
    run(g, A.StartForce("A", uid("Kalinin")))
    e = refused(g, A.EndForce("A"), RULE3)
    assert e.message.startswith("Kalinin, without combat units, first picks up (Attach)")
    run(g, A.Attach("A", loose, uid("Kalinin")))
    run(g, A.EndForce("A"))
    assert g.leaders_to_stack("A") == [] and g.is_legal(A.EndMovement("A"))
    # without the option, nothing of the kind
    g = blank()
    put(g, "KALU", "A", "Kalinin")
    put(g, "KALU", "A", "Sorokin", "RU4 TULA", attach={"RU4 TULA": "Sorokin"})
    assert g.leaders_to_stack("A") == [] and g.is_legal(A.EndMovement("A"))


def test_no_way_round_the_duty_of_a_leader_alone():
    """001 No Leader Suicide 3 (the review of the duty): a Leader alone who was handed the Gold
    (TransferImperial) has still not moved; one that a force takes along is dropped (Detach)
    only where a friendly stack stands for him to join, and is stacked with it there; two
    leaders stacked together are stacked with friendly units ("even if only other Leaders")."""
    g = game()
    put(g, "KUBA", "A", "Deniken", "Gold", "WU8 DON", attach={"Gold": "Deniken", "WU8 DON": "Deniken"})
    krasnov = put(g, "TSAR", "A", "Krasnov")
    put(g, "ASTR", "A", "Wrangel", "WU6 KHAR", attach={"WU6 KHAR": "Wrangel"})
    assert [(d["leader"], d["do"]) for d in g.leaders_to_stack("A")] == [(uid("Krasnov"), "move")]
    run(g, A.TransferImperial("A", uid("Gold"), krasnov.id, uid("Krasnov")))
    assert [(d["leader"], d["do"]) for d in g.leaders_to_stack("A")] == [(uid("Krasnov"), "move")]
    refused(g, A.EndMovement("A"), RULE3)
    # dropped by a force: only where a friendly stack stands, and stacked with it
    g = game()
    put(g, "KALU", "A", "Kalinin")
    put(g, "KALU", "A", "Sorokin", "RU4 TULA", attach={"RU4 TULA": "Sorokin"})
    put(g, "TULA", "A", "Trotsky", "RU6 SMOL", attach={"RU6 SMOL": "Trotsky"})
    run(g, A.StartForce("A", uid("Sorokin")))
    run(g, A.JoinForce("A", uid("Kalinin")))
    refused(g, A.Detach("A", uid("Kalinin")), RULE3)                 # (alone in KALU, the force gone on)
    run(g, A.Move("A", "TULA", False))
    run(g, A.Detach("A", uid("Kalinin")))                             # (Trotsky's stack there: he joins it)
    assert stack_with(g, "Kalinin") is stack_with(g, "Trotsky")
    # two leaders alone stacked together: no duty
    g = game()
    put(g, "KALU", "A", "Kalinin", "Kamenev")
    put(g, "TULA", "A", "Sorokin", "RU4 TULA", attach={"RU4 TULA": "Sorokin"})
    assert g.leaders_to_stack("A") == [] and g.is_legal(A.EndMovement("A"))


def test_a_leader_alone_with_his_friends_does_not_leave_them_alone():
    g = game()
    put(g, "KALU", "A", "Kalinin", "Yeserov")
    assert dict(g.reach(uid("Kalinin"))) == {}
    run(g, A.StartForce("A", uid("Kalinin")))
    refused(g, A.Move("A", "TULA", False), RULE3)
    # with a combat unit he goes where he likes
    g2 = game()
    put(g2, "KALU", "A", "Kalinin", "Yeserov", "RU6 SMOL", attach={"RU6 SMOL": "Kalinin"})
    assert "TULA" in g2.reach(uid("Kalinin"))


def test_loose_units_of_his_colour_are_friendly_units_to_take():
    g = game()
    put(g, "KALU", "A", "Kalinin")
    loose = put(g, "TULA", None, "RU4 PSKO").units[0]
    put(g, "YARO", "A", "Vatzetis")                            # farther (KALU-TVER-YARO)
    assert set(g.reach(uid("Kalinin"))) == {"TULA"}
    run(g, A.StartForce("A", uid("Kalinin")), A.Move("A", "TULA", False))
    refused(g, A.EndForce("A"), RULE3)
    run(g, A.Attach("A", loose, uid("Kalinin")), A.EndForce("A"))


def test_without_the_option_a_leader_alone_goes_anywhere():
    g = blank()
    put(g, "KALU", "A", "Kalinin")
    put(g, "RYAZ", "A", "Sorokin")
    put(g, "SMOL", None, "WU3 OMSK")
    assert {"SMOL", "TULA", "RYAZ", "TVER"} <= set(g.reach(uid("Kalinin")))


# -- every client that asks the engine's reach moves legally -----------------------------------------------
def _positions(seed: int, steps: int):
    g = Game.new(5, seed, NLS)
    rng = random.Random(seed)
    for _ in range(steps):
        if g.over:
            break
        seat = g.pending[0]["seat"]
        legal = [a for a in g.legal_actions(seat) if a.TYPE != "Quit"]
        g.apply(legal[rng.randrange(len(legal))])
    return g


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(5, 400))
def test_every_route_reach_gives_a_leader_alone_is_accepted_and_ends_legally(seed, steps):
    """001 No Leader Suicide 2, 3: for every force of leaders alone the Phasing Player may start,
    each route of ``reach`` is accepted Move by Move and the force may end its move there (after
    taking a loose unit where it must)."""
    g = _positions(seed, steps)
    seat = g.ctx.b.phasing()
    if g.over or g.phase != "movement" or g.state.force is not None or g.decision is not None:
        return
    for a in g.legal_actions(seat):
        if not isinstance(a, A.StartForce) or not g.data.units[a.unit].is_leader:
            continue
        st_ = g.ctx.b.stack_of(a.unit)
        group = [a.unit] + g.ctx.b.attached_to(st_, a.unit)
        if any(g.data.units[u].kind == "combat" for u in group):
            continue
        for dest, route in g.reach(a.unit).items():
            h = g.clone()
            h.apply(a)
            for p in route["path"]:
                h.apply(A.Move(seat, p, route["rail"]))
            if not h.is_legal(A.EndForce(seat)):
                takes = [x for x in h.legal_actions(seat) if isinstance(x, A.Attach) and h.data.units[x.unit].kind == "combat"]
                assert takes, (dest, h.why_illegal(A.EndForce(seat)))
                h.apply(takes[0])
            assert h.is_legal(A.EndForce(seat)), (dest, h.why_illegal(A.EndForce(seat)))
            h.apply(A.EndForce(seat))
