"""Engine benchmark: where does the time of a bot game go?

One run plays ``--games`` complete five-player games with SDT bots and the same number with
random-legal agents (seeds S, S+1, ...), and prints, measured in that run:

- complete SDT games per second and random-agent games per second;
- for each kind, the share of the time spent in the bots' decisions (``choose``/``react``),
  in presenting the game to them (``legal_actions`` and ``view``, engine code the bots
  call through the public API) and in applying actions (the rules proper).

    python bench/engine.py --games 20 [--seed 0] [--max-turns 60] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rcw.bots.simulate import play  # noqa: E402


def measure(kind: str, games: int, seed: int, max_turns: int) -> dict:
    timing: dict[str, float] = {}
    t0 = time.perf_counter()
    actions = turns = finished = 0
    for i in range(games):
        rec = play(5, seed + i, kind, max_turns, timing=timing)
        actions += rec["actions"]
        turns += rec["turns"]
        finished += rec["finished"]
    wall = time.perf_counter() - t0
    parts = {k: timing.get(k, 0.0) for k in ("bots", "views", "rules")}
    parts["driver"] = max(0.0, wall - sum(parts.values()))
    return {"agents": kind, "games": games, "finished": finished, "seconds": round(wall, 3),
            "games_per_second": round(games / wall, 3) if wall else 0.0,
            "actions_per_second": round(actions / wall, 1) if wall else 0.0,
            "mean_game_turns": round(turns / games, 2) if games else 0.0,
            "share": {k: round(v / wall, 3) if wall else 0.0 for k, v in parts.items()}}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=20, help="games per agent kind (default 20)")
    p.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    p.add_argument("--max-turns", type=int, default=60, help="safety limit on Game-Turns (default 60)")
    p.add_argument("--json", action="store_true", help="print the measurements as JSON")
    a = p.parse_args(argv)
    res = [measure(k, a.games, a.seed, a.max_turns) for k in ("sdt", "random")]
    sdt, rnd = res
    if a.json:
        print(json.dumps({"sdt": sdt, "random": rnd,
                          "sdt_vs_random_speed": round(sdt["games_per_second"] / rnd["games_per_second"], 3)
                          if rnd["games_per_second"] else None}, indent=2))
        return 0
    for r in res:
        s = r["share"]
        print(f"{r['agents']:>6}: {r['games_per_second']:.2f} complete games/s ({r['games']} games in {r['seconds']} s, "
              f"{r['actions_per_second']:.0f} actions/s, mean {r['mean_game_turns']} Game-Turns)")
        print(f"        time: bot decisions {s['bots']:.0%}, legal actions + views {s['views']:.0%}, "
              f"rule application {s['rules']:.0%}, driver {s['driver']:.0%}")
    if rnd["games_per_second"]:
        print(f"An SDT game takes {rnd['games_per_second'] / sdt['games_per_second']:.1f}x as long as a random-agent game.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
