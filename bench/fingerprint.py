"""Fingerprint of the SDT bots' play: for each seed, the game's record, final state hash and
every bot's notes, hashed; a change to the bots or the match loop that only makes them cheaper
must leave every line the same.

    python bench/fingerprint.py [--seeds 20] [--seed 0] [--players 5] [--max-turns 60]

Prints one line per game: seed, actions, the hash; compare two runs with ``diff``.
"""

from __future__ import annotations

import argparse
import hashlib
import json

from rcw.bots import make_agent
from rcw.bots.match import Match

from rcw.game import Game


def fingerprint(seed: int, players: int, max_turns: int) -> tuple[int, str]:
    """(actions, hash of the record, the final state hash and the bots' notes in order)."""
    g = Game.new(players, seed, {"max_turns": max_turns})
    agents = {p: make_agent("sdt", p, seed) for p in g.seats}
    h = hashlib.sha256()
    Match(g, agents).play()
    for p in sorted(agents):
        take = getattr(agents[p], "take_notes", None)
        if take is not None:
            h.update("\n".join(take()).encode())
    h.update(json.dumps(g.record(), sort_keys=True, default=str).encode())
    h.update(g.state_hash().encode())
    return len(g.log), h.hexdigest()[:16]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--max-turns", type=int, default=60)
    a = ap.parse_args(argv)
    for seed in range(a.seed, a.seed + a.seeds):
        n, h = fingerprint(seed, a.players, a.max_turns)
        print(seed, n, h, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
