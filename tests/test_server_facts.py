"""The engine's answers over the wire: the ``facts`` of the state frames and the ``query`` frame.

A real server (both stores), real WebSocket clients: three human seats play a seeded game with
random legal actions until one of them may attack in its Combat Phase; every fact and answer
the server sends is then checked against the same position rebuilt from the game's record with
the engine (``rcw.modes.from_record``), and every malformed or refused question gets a typed
``bad_request`` and changes nothing."""

from __future__ import annotations

import random

import aiohttp
import pytest
from rcw.server.client import GameClient, Lobby, ServerError
from rcw.server.config import Config
from rcw.server.store import MemoryStore, RedisStore
from server_helpers import REDIS_URL, STORES, choose, destroy_prefix, running_server, unique_prefix

from rcw import modes
from rcw.actions import IllegalAction, action_from_wire
from rcw.game import Game


def engine_strengths(g: Game, view: dict) -> dict[str, int]:
    return {str(st["id"]): g.defense(st["id"]) for st in view["stacks"]}


async def _position(base: str, lobby: Lobby, seed: int = 3) -> tuple[dict, dict[str, GameClient], GameClient, str]:
    """A three-seat game of humans, played at random until a seat may attack: (game, clients by
    seat, a spectator, the seat that may attack)."""
    g = await lobby.create_game(players=3, seed=seed)
    cs: dict[str, GameClient] = {}
    for _ in range(3):
        j = await lobby.join(g["game"])
        cs[j["seat"]] = await GameClient.connect(base, g["game"], j["token"])
    spec = await GameClient.connect(base, g["game"])
    rng = random.Random(seed)
    for _ in range(3000):
        c0 = cs["A"]
        await c0.wait_for(lambda c: c.status == "playing" and bool(c.pending), 10)
        seat = c0.pending[0]["seat"]
        c = cs[seat]
        await c.wait_for(lambda c, s=c0.seq: c.seq >= s, 10)
        if not c.legal:
            await c.refresh()                   # (the seats filled up: the legal actions come with a view)
        if c.facts.get("attack_options"):
            return g, cs, spec, seat
        legal = [a for a in c.legal if a["t"] not in ("DeclarePurge", "Assassinate")] or c.legal
        await c.act(choose(legal, rng))
    raise AssertionError("no seat could attack in 3000 actions")


async def _engine(lobby: Lobby, g: dict) -> Game:
    return modes.from_record(await lobby.record(g["game"], g["admin_token"]))


@pytest.mark.parametrize("kind", STORES)
async def test_facts_and_queries_are_the_engines_answers(kind):
    prefix = unique_prefix("facts")
    store = MemoryStore() if kind == "memory" else RedisStore(REDIS_URL, prefix)
    try:
        async with running_server(store, Config()) as srv, Lobby(srv.base) as lobby:
            g, cs, spec, seat = await _position(srv.base, lobby)
            try:
                await _check(srv.base, lobby, g, cs, spec, seat)
            finally:
                for c in [*cs.values(), spec]:
                    await c.close()
    finally:
        if kind == "redis":
            await destroy_prefix(prefix)


async def _check(base: str, lobby: Lobby, g: dict, cs: dict[str, GameClient], spec: GameClient, seat: str) -> None:
    c = cs[seat]
    eng = await _engine(lobby, g)
    assert eng.state_hash() == c.hash
    view = eng.view(seat)

    # -- facts: the attacker's, another seat's, a spectator's --------------------------------------
    f = c.facts
    assert f["attack_options"] == eng.attack_options(seat)
    assert f["strengths"] == engine_strengths(eng, view)
    mine = eng.purge_odds([seat])
    com = view["committee"]
    ours = {"committee": {"members": com, **{k: eng.purge_odds(com)[k] for k in ("strength", "column")}}} \
        if seat in com and len(com) > 1 else {}
    assert f["purge"] == {"strength": mine["strength"], "column": mine["column"], "leaders": eng.leadership(seat), **ours}
    other = next(s for s in cs if s != seat)
    await cs[other].wait_for(lambda x: x.seq == c.seq, 10)
    assert "attack_options" not in cs[other].facts and "attack" not in cs[other].facts
    assert cs[other].facts["purge"]["strength"] == eng.purge_odds([other])["strength"]
    await spec.wait_for(lambda x: x.seq == c.seq, 10)
    assert spec.facts == {"strengths": f["strengths"]}
    assert (await c.refresh())["facts"] == f                      # the view reply carries the same facts

    # -- queries with good arguments: the engine's answers ----------------------------------------
    opt = f["attack_options"][0]
    target = opt["target"]
    for grp in opt["groups"]:
        assert await c.query("odds", stacks=grp["stacks"], target=target, subversive=opt["subversive"]) == grp["odds"]
        assert await spec.query("odds", stacks=grp["stacks"], target=target, subversive=opt["subversive"]) == grp["odds"]
    assert await c.query("attack_options") == eng.attack_options(seat)
    assert await spec.query("attack_options", seat=seat) == eng.attack_options(seat)
    assert await c.query("attack_options", seat=other) == [] == eng.attack_options(other)
    seats = list(cs)
    ans = await c.query("purge_odds", purgers=seats[:2], target=seats[2])
    want = eng.purge_odds(seats[:2])
    assert {k: ans[k] for k in want} == want
    assert ans["purgers"] == [{"seat": s, "leaders": eng.leadership(s), "strength": eng.purge_odds([s])["strength"]}
                              for s in seats[:2]]
    assert ans["target"] == seats[2] and ans["spoils"] == eng.purgeable_leaders(seats[2])
    counter = await c.query("purge_odds", purgers=[seat], counter=True)
    assert counter["strength"] == eng.purge_odds([seat], True)["strength"] and counter["counter"] is True
    leader = next(u for st in view["stacks"] for u in st["units"] if eng.data.units[u].is_leader)
    for markers in (1, 3):
        a = await c.query("assassination", victim=leader, markers=markers)
        assert a == {"victim": leader, "markers": markers, "chance": eng.assassination_chance(leader, markers),
                     "need": eng.assassination_need(leader, markers)}
    try:
        assert await c.query("reach", unit=leader) == eng.reach(leader)
    except IllegalAction as e:                  # the engine refuses: so does the query
        with pytest.raises(ServerError) as err:
            await c.query("reach", unit=leader)
        assert (err.value.code, err.value.rule) == ("bad_request", e.rule)
    assert await c.query("capacity", leader=leader) == eng.capacity(leader)
    st0 = view["stacks"][0]["id"]
    assert await c.query("stack", stack=st0) == {"stack": st0, "defense": eng.defense(st0), "attack_units": eng.attack_units(st0)}
    assert await c.query("scores") == eng.scores() == view["scores"]
    for s_ in seats:                           # (a chat Committee invitation stands while its proposer consents)
        assert await c.query("consents", seat=s_, members=seats[:2]) == eng.consents_to(s_, seats[:2])
    assert await c.query("leaders_to_stack") == eng.leaders_to_stack(seat) == []     # (001 No Leader Suicide: off)
    assert await spec.query("leaders_to_stack", seat=other) == []
    # why the engine would refuse an action of this seat's (a dialog's reason), or None
    for a in [*c.legal[:3], {"t": "DeclarePurge", "seat": seat, "target": other, "purgers": [seat, other], "shares": []}]:
        why = eng.why_illegal(action_from_wire(a))
        want = None if why is None else {"rule": why.rule, "code": why.code, "message": why.message}
        assert await c.query("why_illegal", action=a) == want, a
    assert want is not None             # (the purge: no Committee of the two)
    with pytest.raises(ServerError) as e:
        await spec.query("why_illegal", action=c.legal[0])
    assert e.value.code == "not_your_seat"
    r = await c.request("query", q="scores")
    assert r["t"] == "answer" and r["q"] == "scores" and r["seq"] == c.seq

    # -- bad questions: a typed error, nothing changes ------------------------------------------------
    before = (c.seq, c.hash)
    far = next(st["id"] for st in view["stacks"] if st["id"] != target)
    bad = [
        ({}, None), ({"q": 3}, None), ({"q": "oracle"}, None),
        ({"q": "odds", "stacks": [far]}, None),                                 # a target is needed too
        ({"q": "odds", "stacks": "1", "target": target}, None),
        ({"q": "odds", "stacks": [True], "target": target}, None),
        ({"q": "odds", "stacks": [far, far], "target": target}, None),
        ({"q": "odds", "stacks": list(range(100)), "target": target}, None),
        ({"q": "odds", "stacks": [far], "target": "x"}, None),
        ({"q": "odds", "stacks": [999_999], "target": target}, "004 [8.0]"),      # no such stack
        ({"q": "odds"}, "004 [8.0]"),                                          # no attack being declared
        ({"q": "purge_odds", "purgers": []}, None),
        ({"q": "purge_odds", "purgers": ["Z"]}, None),
        ({"q": "purge_odds", "purgers": [seat, seat]}, None),
        ({"q": "purge_odds", "purgers": [seat], "target": "Q"}, None),
        ({"q": "purge_odds", "purgers": [seat], "counter": "yes"}, None),
        ({"q": "assassination", "victim": leader, "markers": 0}, "004 [10.12]"),
        ({"q": "assassination", "victim": 999_999}, "004 [10.13]"),
        ({"q": "assassination", "victim": "Lenin"}, None),
        ({"q": "capacity", "leader": 999_999}, "004 [5.14]"),
        ({"q": "stack", "stack": -5}, "004 [8.0]"),
        ({"q": "reach"}, "004 [5.0]"),                                         # no force being moved
        ({"q": "attack_options", "seat": "Q"}, None),
        ({"q": "consents", "seat": seat, "members": "AB"}, None),
        ({"q": "consents", "seat": "Q", "members": [seat]}, None),
        ({"q": "leaders_to_stack", "seat": "Q"}, None),
        ({"q": "why_illegal"}, None),
        ({"q": "why_illegal", "action": {"t": "EndTrading", "seat": other}}, None),            # another seat's
        ({"q": "why_illegal", "action": {"t": "Oracle", "seat": seat}}, "protocol"),           # not an action
    ]
    # two stacks of opposing colours, if the position has them: they may not attack together
    colours = {}
    for st in view["stacks"]:
        colours.setdefault(st["color"], st["id"])
    if "Red" in colours and "White" in colours:
        bad.append(({"q": "odds", "stacks": [colours["Red"], colours["White"]], "target": target}, "004 [8.22]"))
    for args, rule in bad:
        with pytest.raises(ServerError) as e:
            await c.request("query", **args)
        assert e.value.code == "bad_request", (args, e.value)
        assert e.value.rule == rule, (args, e.value.rule)
        if rule:
            assert e.value.engine_code
    with pytest.raises(ServerError) as e:
        await spec.request("query", q="attack_options")           # a spectator names the seat
    assert e.value.code == "bad_request"
    assert (await c.refresh())["hash"] == before[1] and c.seq == before[0]
    assert (await _engine(lobby, g)).state_hash() == before[1]

    # -- declaring an attack: the attack's facts follow it -------------------------------------------
    grp = opt["groups"][0]
    await c.act({"t": "DeclareAttack", "target": target, "subversive": opt["subversive"]})
    await c.act({"t": "AddAttacker", "stack": grp["stacks"][0]})
    eng = await _engine(lobby, g)
    assert c.hash == eng.state_hash()
    at = c.facts["attack"]
    assert at["odds"] == eng.odds() == await c.query("odds")
    assert "attack_options" not in c.facts
    joining = [a["stack"] for a in c.legal if a["t"] == "AddAttacker"]
    assert set(at["adding"]) == {str(s) for s in joining}
    attackers = eng.view(seat)["attack"][2]
    for s in joining:
        assert at["adding"][str(s)] == eng.odds([*attackers, s], target, opt["subversive"])
    for s in [*attackers, *joining]:
        assert at["strength"][str(s)] == eng.odds([s], target, opt["subversive"])["attack"]

    # -- a replay position carries the engine's strengths too -------------------------------------------
    async with aiohttp.ClientSession() as s, s.get(f"{base}/api/games/{g['game']}/view", params={"seq": "5"},
                                                   headers={"Authorization": f"Bearer {g['admin_token']}"}) as r:
        at5 = await r.json()
    rec = await lobby.record(g["game"], g["admin_token"])
    g5 = modes.replay(rec["seed"], rec["actions"][:5], rec["players"], rec["options"])
    assert at5["strengths"] == engine_strengths(g5, g5.view(None))


def test_a_committee_members_purge_facts_give_the_committees_strength_together():
    """QA: the Politics panel of a member of the sitting Central Committee showed his own Purge
    Strength alone ("5 + 2 = 7"), the Committee's only in the Purge dialog.  His facts give the
    Committee's together (the engine's purge odds of all its members); a seat outside it has none."""
    from engine_helpers import committee_abc
    from rcw.server.facts import seat_facts

    g = committee_abc()
    f = seat_facts(g, g.view("A"), "A", [])["purge"]
    ours = g.purge_odds(["A", "B", "C"])
    assert f["committee"] == {"members": ["A", "B", "C"], "strength": ours["strength"], "column": ours["column"]}
    assert f["strength"] == g.purge_odds(["A"])["strength"] < ours["strength"]
    assert "committee" not in seat_facts(g, g.view("D"), "D", [])["purge"]
