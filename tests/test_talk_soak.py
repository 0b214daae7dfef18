"""The soak of the bots that negotiate (issue 18), reduced: bench/talk_soak.py plays ten
server-driven five-player games with seat A a client sending random proposals of every kind
the engine has open to the SDT bots; every proposal is answered, with a reason, and the
server logs no error.  ``python -m pytest -m slow tests/test_talk_soak.py`` (about two
minutes); the issue's 100 games: ``python bench/talk_soak.py``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench" / "talk_soak.py"


@pytest.mark.slow
def test_ten_games_of_random_proposals_to_the_bots_are_all_answered_with_reasons():
    out = subprocess.run([sys.executable, str(BENCH), "--games", "10", "--seed", "1", "--json"],
                         capture_output=True, text=True, timeout=900)
    r = json.loads(out.stdout)
    assert out.returncode == 0 and not r["failures"] and not r["n_server_errors"], (r["failures"], r["server_errors"])
    for kind, s in r["by_kind"].items():
        assert s["sent"] > 0, f"no {kind} proposal was made"
        assert s["answered"] + s["open_at_end"] == s["sent"], (kind, s)
        assert s["reasons"] == s["answered"], (kind, s)           # every answer says why
        assert s["max_answer_ms"] <= 1000, (kind, s)             # within a second
    assert r["by_kind"]["trade"]["countered"] > 0               # a near trade is countered, with a card


def test_postal_games_of_random_trades_by_post_are_all_answered_and_the_agreed_ones_made():
    """The soak's postal games (``--postal``, a few seconds): seat A proposes trades by post and
    pacts to the SDT bots and answers their cards at random (counter-offers, and the trades their
    sheets hold, told to A: 004 [17.0] postal [4.2]);
    every proposal is answered with a reason, some trades are countered with a card, and the
    trades agreed are made by the Gamesmaster when A's sheet holds its side."""
    out = subprocess.run([sys.executable, str(BENCH), "--postal", "--games", "8", "--seed", "1", "--json"],
                         capture_output=True, text=True, timeout=600)
    r = json.loads(out.stdout)
    assert out.returncode == 0 and not r["failures"] and not r["n_server_errors"], (r["failures"], r["server_errors"])
    for kind in ("trade", "pact"):
        s = r["by_kind"][kind]
        assert s["sent"] > 0 and s["answered"] == s["sent"] and s["reasons"] == s["answered"], (kind, s)
    trade = r["by_kind"]["trade"]
    assert trade["countered"] > 0 and r["bot_cards"]["counter-trade"]["got"] == trade["countered"], (trade, r["bot_cards"])
    # (the cards A accepts are the bots' counter-offers and the trades their own sheets hold, told to A)
    agreed = trade["accepted"] + sum(v["accepted"] for k, v in r["bot_cards"].items() if k in ("trade", "counter-trade"))
    assert 0 < trade["made"] <= agreed, (trade, r["bot_cards"])
