"""Game modes on the server: the SPI solitaire (004 [18.0]-[28.0]) created in the lobby with
``mode``, seat R a player, seat N the engine's own procedures (``Game.ENGINE_SEATS``), played
over the real WebSocket to its end; and the typed errors of a bad mode."""

from __future__ import annotations

import random

import aiohttp
from rcw.server.client import GameClient
from rcw.server.store import MemoryStore
from server_helpers import play_randomly, replay_hashes, running_server


async def _post(s: aiohttp.ClientSession, url: str, body: dict) -> tuple[int, dict]:
    async with s.post(url, json=body) as r:
        return r.status, await r.json()


async def test_the_spi_solitaire_is_played_on_the_server_to_its_end() -> None:
    async with running_server(MemoryStore()) as srv, aiohttp.ClientSession() as s:
        code, g = await _post(s, f"{srv.base}/api/games", {"mode": "spi-solitaire", "name": "alone"})
        assert code == 201, g
        info = g["info"]
        assert info["options"] == {"mode": "spi-solitaire"} and info["players"] == 2 and info["bots"] == "random"
        assert info["seats"] == {"N": {"kind": "engine"}, "R": {"kind": "open"}} and info["status"] == "open"
        code, j = await _post(s, f"{srv.base}/api/games/{g['game']}/join", {"name": "Vera"})
        assert code == 200 and j["seat"] == "R" and j["info"]["status"] == "playing"
        c = await GameClient.connect(srv.base, g["game"], j["token"])
        assert c.my_turn and c.legal                                   # Red's first decision
        n = await play_randomly(c, random.Random(5), timeout=60)
        assert c.over and n > 0
        await c.close()
        async with s.get(f"{srv.base}/api/games/{g['game']}/record") as r:
            rec = await r.json()
        assert rec["options"] == {"mode": "spi-solitaire"}
        assert len(rec["actions"]) == n and {a["seat"] for a in rec["actions"]} == {"R"}   # the game is seed + Red's actions
        assert replay_hashes(rec)[len(rec["actions"])] == rec["hash"]     # the record replays (rcw.modes)


async def test_a_bad_mode_or_a_seat_of_the_engine_is_a_typed_error() -> None:
    async with running_server(MemoryStore()) as srv, aiohttp.ClientSession() as s:
        for body, words in (({"mode": "chess"}, "unknown mode 'chess'"),
                            ({"mode": "spi-solitaire", "players": 5}, "players must be 1 or 2"),
                            ({"mode": "spi-solitaire", "bots": "sdt"}, "bots must be 'random'"),
                            ({"mode": "spi-solitaire", "bot_seats": ["N"]}, "bot_seats must be a list of seats among R")):
            code, e = await _post(s, f"{srv.base}/api/games", body)
            assert code == 400 and e["error"]["code"] == "bad_request" and words in e["error"]["message"], (body, e)
        async with s.get(f"{srv.base}/api/games?status=all") as r:
            assert (await r.json())["games"] == []                     # nothing was created
