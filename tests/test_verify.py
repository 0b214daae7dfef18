"""Dice anyone can verify (rcw/verify.py, ``rcw verify``, ``GET /api/games/{id}/verify``): the
seed commitment published at creation, the seed revealed at the end, and the replay check."""

from __future__ import annotations

import asyncio
import copy
import hashlib
import json

import aiohttp
import pytest
from rcw.bots import make_agent
from rcw.bots.match import Match
from rcw.server.client import GameClient
from rcw.server.store import MemoryStore
from server_helpers import running_server

from rcw import verify
from rcw.cli import main
from rcw.game import Game


@pytest.fixture(scope="module")
def record() -> dict:
    """A finished two-turn game of random agents, recorded as the server records it."""
    g = Game.new(5, 4242, {"max_turns": 2})
    Match(g, {s: make_agent("random", s, 7) for s in g.seats}).play()
    assert g.over
    rec = g.record()
    rec["nonce"] = "9f" * 16
    rec["commitment"] = verify.commitment(rec["seed"], rec["nonce"])
    rec["hash"] = g.state_hash()
    return rec


def test_the_commitment_is_the_sha256_of_the_documented_text() -> None:
    assert verify.commitment(17, "ab") == hashlib.sha256(b"rcw-seed-v1:17:ab").hexdigest()
    assert verify.commitment(17, "ab") != verify.commitment(17, "ac") != verify.commitment(18, "ab")


def _run(capsys, rec: dict, tmp_path, *extra: str) -> tuple[int, str, str]:
    p = tmp_path / "record.json"
    p.write_text(json.dumps(rec))
    code = main(["verify", str(p), *extra])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_rcw_verify_accepts_a_true_record(record, tmp_path, capsys) -> None:
    code, out, err = _run(capsys, record, tmp_path)
    assert code == 0, err
    assert "verified" in out and f"{len(record['actions'])} actions replayed" in out and "the game is over" in out
    code, out, _ = _run(capsys, record, tmp_path, "--json", "--commitment", record["commitment"])
    assert code == 0 and json.loads(out)["verified"] is True and json.loads(out)["hash"] == record["hash"]


def test_rcw_verify_refuses_a_record_with_one_action_changed(record, tmp_path, capsys) -> None:
    bad = copy.deepcopy(record)
    # the first movement that names a destination goes elsewhere: illegal, or another game
    i, a = next((i, a) for i, a in enumerate(bad["actions"]) if a.get("t") == "Move")
    bad["actions"][i] = {**a, "to": "TIFL" if a["to"] != "TIFL" else "ARCH"}
    code, _, err = _run(capsys, bad, tmp_path)
    assert code == 1 and f"action {i + 1} of {len(bad['actions'])}" in err and "illegal in the replay" in err


def test_rcw_verify_refuses_a_dropped_action_by_the_final_state(record, tmp_path, capsys) -> None:
    bad = copy.deepcopy(record)
    # dropping a trailing action leaves a legal log that ends somewhere else
    bad["actions"] = bad["actions"][:-1]
    code, _, err = _run(capsys, bad, tmp_path)
    assert code == 1 and ("the replay ends in state" in err or "illegal in the replay" in err)


def test_a_record_of_older_rules_that_replays_otherwise_is_not_called_changed(record, tmp_path, capsys) -> None:
    """A review's finding: a rule fixed since a game was played (this stop's 004 [13.41], for one)
    makes its replay end elsewhere, and the check said "the log or the final state was changed".
    A record names the rules' edition it was played under; under another, the check says so and
    that it proves nothing either way.  Under the same edition a changed record is still called
    changed."""
    from rcw import RULES_EDITION

    assert record["rules"] == RULES_EDITION
    older = {**copy.deepcopy(record), "rules": RULES_EDITION - 1}
    older["actions"] = older["actions"][:-1]            # (it replays to another state)
    code, _, err = _run(capsys, older, tmp_path)
    assert code == 1 and f"played under the rules' edition {RULES_EDITION - 1} and this is edition {RULES_EDITION}" in err, err
    assert "proves nothing either way" in err and "was changed" not in err
    unknown = copy.deepcopy(older)
    del unknown["rules"]                                 # (a record from before editions were kept: 1)
    code, _, err = _run(capsys, unknown, tmp_path)
    assert code == 1 and "edition 1 and this is edition" in err
    same = {**copy.deepcopy(older), "rules": RULES_EDITION}
    code, _, err = _run(capsys, same, tmp_path)
    assert code == 1 and "edition" not in err and ("was changed" in err or "illegal in the replay" in err), err


def test_rcw_verify_refuses_a_changed_seed_or_commitment(record, tmp_path, capsys) -> None:
    code, _, err = _run(capsys, {**record, "seed": record["seed"] + 1}, tmp_path)
    assert code == 1 and "do not give the commitment" in err
    code, _, err = _run(capsys, {**record, "commitment": verify.commitment(1, "x")}, tmp_path)
    assert code == 1 and "do not give the commitment" in err
    # a record consistent in itself, but not the commitment the player saw published
    other = {**record, "nonce": "00", "commitment": verify.commitment(record["seed"], "00")}
    code, _, err = _run(capsys, other, tmp_path, "--commitment", record["commitment"])
    assert code == 1 and "not the one published at the start" in err
    code, _, err = _run(capsys, {**record, "hash": "0" * 64}, tmp_path)
    assert code == 1 and "the replay ends in state" in err


def test_rcw_verify_says_what_a_record_lacks_or_cannot_be_read(record, tmp_path, capsys) -> None:
    code, _, err = _run(capsys, {k: v for k, v in record.items() if k != "nonce"}, tmp_path)
    assert code == 1 and "lacks nonce" in err
    code, _, err = _run(capsys, record | {"seed": None, "nonce": None, "sealed": True}, tmp_path)   # (an admin's, mid-game)
    assert code == 1 and "sealed until the game is over" in err
    solo_save = {"version": 1, "seed": 3, "options": {}, "human": [], "record": {"seed": 3, "actions": []}}
    code, _, err = _run(capsys, solo_save, tmp_path)             # (found by a QA player: "lacks nonce, ...")
    assert code == 1 and "a save file of rcw solo" in err
    assert main(["verify", str(tmp_path / "missing.json")]) == 2
    assert "cannot read the record" in capsys.readouterr().err


async def test_the_server_publishes_the_commitment_and_reveals_the_seed_at_the_end(capsys) -> None:
    async with running_server(MemoryStore()) as srv, aiohttp.ClientSession() as s:
        async with s.post(f"{srv.base}/api/games", json={"players": 3, "bots": "random", "options": {"max_turns": 1}}) as r:
            created = await r.json()
        gid, info = created["game"], created["info"]
        assert len(info["commitment"]) == 64 and "seed" not in info and "nonce" not in info
        # before the end, neither the record nor the check is open to a spectator
        for path in ("record", "verify"):
            async with s.get(f"{srv.base}/api/games/{gid}/{path}") as r:
                assert r.status == 403, path
        # (rcw verify of that URL says the server's reason, QA read only "HTTP Error 403: Forbidden")
        assert await asyncio.to_thread(main, ["verify", f"{srv.base}/api/games/{gid}/record"]) == 2
        assert "HTTP 403: the admin token of this game is needed" in capsys.readouterr().err
        async with s.post(f"{srv.base}/api/games/{gid}/bots", json={},
                          headers={"Authorization": f"Bearer {created['admin_token']}"}) as r:
            assert r.status == 200
        w = await GameClient.connect(srv.base, gid)
        await w.wait_for(lambda c: c.over, 120)
        await w.close()
        async with s.get(f"{srv.base}/api/games/{gid}/record") as r:
            rec = await r.json()
        assert rec["commitment"] == info["commitment"] == verify.commitment(rec["seed"], rec["nonce"])
        from rcw import RULES_EDITION
        assert rec["rules"] == RULES_EDITION            # (the edition the game began under, kept with it)
        assert verify.check(rec, info["commitment"]).over
        async with s.get(f"{srv.base}/api/games/{gid}/verify") as r:
            v = await r.json()
        assert v == {"game": gid, "verified": True, "actions": len(rec["actions"]), "hash": rec["hash"], "over": True}


async def test_the_admin_token_reads_a_drawn_seed_only_when_the_game_is_over() -> None:
    """The creator holds the admin token and often plays: before the end the record it reads
    keeps a seed the server drew sealed (the seed would tell every die roll to come), though the
    server's own check still runs on it; a seed the creator gave is the creator's already."""
    async with running_server(MemoryStore()) as srv, aiohttp.ClientSession() as s:
        async def get(gid: str, path: str, token: str) -> dict:
            async with s.get(f"{srv.base}/api/games/{gid}/{path}", headers={"Authorization": f"Bearer {token}"}) as r:
                assert r.status == 200, (path, await r.text())
                return await r.json()

        async with s.post(f"{srv.base}/api/games", json={"players": 3, "bots": "random", "options": {"max_turns": 1}}) as r:
            drawn = await r.json()
        async with s.post(f"{srv.base}/api/games", json={"players": 3, "seed": 7}) as r:
            given = await r.json()
        gid, token = drawn["game"], drawn["admin_token"]
        rec = await get(gid, "record", token)
        assert rec["seed"] is None and rec["nonce"] is None and rec["sealed"] is True, rec
        assert rec["commitment"] == drawn["info"]["commitment"] and rec["actions"] == []
        assert (await get(gid, "verify", token))["verified"] is True
        rec = await get(given["game"], "record", given["admin_token"])
        assert rec["seed"] == 7 and "sealed" not in rec
        assert verify.commitment(7, rec["nonce"]) == given["info"]["commitment"]
        async with s.post(f"{srv.base}/api/games/{gid}/bots", json={}, headers={"Authorization": f"Bearer {token}"}) as r:
            assert r.status == 200
        w = await GameClient.connect(srv.base, gid)
        await w.wait_for(lambda c: c.over, 120)
        await w.close()
        rec = await get(gid, "record", token)
        assert "sealed" not in rec and verify.check(rec, drawn["info"]["commitment"]).over
