"""Engine benchmark: how much does deciding cost next to the rules themselves?

One run plays ``--games`` complete five-player games with SDT bots and as many with random
agents (seeds S, S+1, ...) through the match loop, and right after each game replays that
game's log (``Game.new`` + ``apply`` of every action, the persistence path) on the same seed;
each game is played and replayed ``--repeat`` times and the fastest of each counts. It prints,
measured side by side in that run:

- ``sdt_vs_replay``: seconds of the SDT games / seconds to replay their logs (the cost of the
  bots' decisions, views and legal actions, relative to the rules);
- ``random_vs_replay``: the same for random agents;
- ``replay_us_per_action``: microseconds per replayed action (all games);
- ``clone_us``: microseconds per ``Game.clone()``, sampled along the replays.

The whole measurement is made ``--rounds`` times and each figure printed is the median of its
rounds (every round's figures are printed too, under ``rounds``): on a shared machine a burst of
load can tilt one round either way, and the median of three is steadier than any one of them.
``sdt`` and ``random`` give the details (games, actions, seconds) of the round whose
``sdt_vs_replay`` is the median (of two middle rounds, the later-sorted one).

    python bench/engine.py [--games 10] [--seed 0] [--max-turns 60] [--repeat 3] [--rounds 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from rcw.bots import make_agent
from rcw.bots.match import Match

from rcw.actions import action_from_wire
from rcw.game import Game

FIGURES = ("sdt_vs_replay", "random_vs_replay", "replay_us_per_action", "clone_us")
DIGITS = {"sdt_vs_replay": 2, "random_vs_replay": 2, "replay_us_per_action": 2, "clone_us": 1}   # each figure's rounding


def play_seconds(kind: str, seed: int, max_turns: int) -> tuple[float, Game]:
    """Seconds to play one five-player game of ``kind`` agents through the match loop (the
    game set up, the agents made, every step chosen and applied), and the finished game."""
    t0 = time.perf_counter()
    g = Game.new(5, seed, {"max_turns": max_turns})
    Match(g, {p: make_agent(kind, p, seed) for p in g.seats}).play()
    return time.perf_counter() - t0, g


def replay_seconds(record: dict, clones: list[float]) -> tuple[float, int]:
    """Seconds to rebuild the game from its record (actions decoded beforehand), and its length;
    every 50th position is also cloned and timed into ``clones``."""
    actions = [action_from_wire(a) for a in record["actions"]]
    clock = time.perf_counter
    t0 = clock()
    g = Game.new(record["players"], record["seed"], record["options"])
    for a in actions:
        g.apply(a)
    t = clock() - t0
    g = Game.new(record["players"], record["seed"], record["options"])
    for i, a in enumerate(actions):
        g.apply(a)
        if i % 50 == 0:
            c0 = clock()
            g.clone()
            clones.append(clock() - c0)
    return t, len(actions)


def measure(kind: str, games: int, seed: int, max_turns: int, clones: list[float], repeat: int = 1) -> dict:
    """Each game played and replayed ``repeat`` times (the same game each time: a game is its
    seed); its fastest play and fastest replay count (the timeit way: the least disturbed run
    of a shared machine, and the first pass's warming up left out on both sides)."""
    played = replayed = 0.0
    actions = turns = finished = 0
    for i in range(games):
        best_play = best_replay = float("inf")
        for _ in range(repeat):
            t, g = play_seconds(kind, seed + i, max_turns)
            best_play = min(best_play, t)
            t, n = replay_seconds(g.record(), clones)     # (the record is made, and decoded, untimed)
            best_replay = min(best_replay, t)
        played += best_play
        replayed += best_replay
        actions += n
        turns += g.turns_played
        finished += g.over
    return {"agents": kind, "games": games, "finished": finished, "actions": actions,
            "mean_game_turns": round(turns / games, 2) if games else 0.0,
            "play_seconds": round(played, 4), "replay_seconds": round(replayed, 4),
            "vs_replay": round(played / replayed, DIGITS["sdt_vs_replay"]) if replayed else None}


def one_round(games: int, seed: int, max_turns: int, repeat: int) -> dict:
    """One measurement of every figure (the SDT games, then the random ones, each beside its replays)."""
    clones: list[float] = []
    sdt = measure("sdt", games, seed, max_turns, clones, repeat)
    rnd = measure("random", games, seed, max_turns, clones, repeat)
    replayed = sdt["replay_seconds"] + rnd["replay_seconds"]
    return {
        "sdt_vs_replay": sdt["vs_replay"],
        "random_vs_replay": rnd["vs_replay"],
        "replay_us_per_action": round(replayed / (sdt["actions"] + rnd["actions"]) * 1e6, DIGITS["replay_us_per_action"]),
        "clone_us": round(sum(clones) / len(clones) * 1e6, DIGITS["clone_us"]) if clones else None,
        "sdt": sdt, "random": rnd,
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=10, help="games per agent kind (default 10)")
    p.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    p.add_argument("--max-turns", type=int, default=60, help="safety limit on Game-Turns (default 60)")
    p.add_argument("--repeat", type=int, default=3,
                   help="play and replay each game this many times, counting the fastest of each (default 3)")
    p.add_argument("--rounds", type=int, default=3,
                   help="make the whole measurement this many times and print each figure's median (default 3)")
    p.add_argument("--json", action="store_true", help="print the measurements as JSON")
    a = p.parse_args(argv)
    if a.rounds < 1 or a.repeat < 1 or a.games < 1:
        p.error("--games, --repeat and --rounds must be at least 1")
    rounds = []
    for i in range(a.rounds):
        r = one_round(a.games, a.seed, a.max_turns, a.repeat)
        rounds.append(r)
        if not a.json and a.rounds > 1:
            print(f"round {i + 1}/{a.rounds}: " + ", ".join(f"{k} {r[k]}" for k in FIGURES), flush=True)
    mid = sorted(rounds, key=lambda r: r["sdt_vs_replay"] or 0.0)[len(rounds) // 2]
    out = {}
    for k in FIGURES:                         # (None where a round had nothing to time: no replay, no clone)
        got = [r[k] for r in rounds if r[k] is not None]
        out[k] = round(statistics.median(got), DIGITS[k]) if got else None   # (two middle rounds: their mean)
    out.update({"sdt": mid["sdt"], "random": mid["random"],
                "rounds": [{k: r[k] for k in FIGURES} for r in rounds]})
    if a.json:
        print(json.dumps(out, indent=2))
        return 0
    for r in (mid["sdt"], mid["random"]):
        print(f"{r['agents']:>6}: {r['games']} games, {r['actions']} actions, mean {r['mean_game_turns']} Game-Turns: "
              f"played in {r['play_seconds']} s, replayed in {r['replay_seconds']} s ({r['vs_replay']}x)")
    print(f"replay: {out['replay_us_per_action']} us per action; Game.clone(): {out['clone_us']} us"
          + (f" (medians of {a.rounds} rounds)" if a.rounds > 1 else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
