"""Headless bot games: ``rcw simulate``.

Plays whole games with agents choosing among ``legal_actions`` and prints one summary.
The same arguments give byte-identical JSON apart from ``seconds``."""

from __future__ import annotations

import argparse
import json
import sys
import time
import traceback

from rcw.bots import AGENTS, make_agent
from rcw.actions import IllegalAction
from rcw.game import Game

STAT_KEYS = ("attacks", "subversive_attacks", "epidemic_losses", "replacements", "assassination_attempts",
             "assassinations", "purges", "counterpurges", "trades", "czar_executions", "captures", "emigrations")


def play(players: int, seed: int, agent_kind: str, max_turns: int, max_actions: int = 200_000,
         timing: dict | None = None) -> dict:
    """Play one game; returns its outcome record.  ``timing`` (if given) accumulates seconds
    spent in the agents' decisions (``bots``: ``choose``/``react``), in presenting the game
    to them (``views``: ``legal_actions`` and ``view``) and in applying actions (``rules``)."""
    g = Game.new(players, seed, {"max_turns": max_turns} if max_turns else None)
    kinds = _kinds(agent_kind, g.state.seats)
    agents = {p: make_agent(kinds[p], p, seed) for p in g.state.seats}
    clock = time.perf_counter
    t_bots = t_rules = t_views = 0.0
    illegal = 0
    steps = 0
    memo: dict = {}
    while not g.over and steps < max_actions:
        pend = g.pending
        if not pend:
            raise RuntimeError("no pending decision in an unfinished game")
        seat = pend[0]["seat"]
        t0 = clock()
        legal = g.legal_actions(seat)
        if not legal:
            raise RuntimeError(f"seat {seat} must decide {pend[0]['kind']} but has no legal action")
        view = g.view(seat)
        tv = clock()
        t_views += tv - t0
        action = agents[seat].choose(view, legal)
        t1 = clock()
        try:
            g.apply(action)
        except IllegalAction:
            illegal += 1
            g.apply(legal[0])
        t2 = clock()
        t_bots += t1 - tv
        t_rules += t2 - t1
        steps += 1
        if not g.over and (g.state.offers or g.state.committee_consent or g.state.committee):
            n, tb, tr, tw = answer_offers(g, agents, memo)
            steps += n
            t_bots += tb
            t_rules += tr
            t_views += tw
    if timing is not None:
        timing["bots"] = timing.get("bots", 0.0) + t_bots
        timing["rules"] = timing.get("rules", 0.0) + t_rules
        timing["views"] = timing.get("views", 0.0) + t_views
    r = g.result or {}
    reason = r.get("reason", "")
    ended = "rules" if g.over and r.get("winner_color") else ("limit" if g.over and "turn limit" in reason else
                                                              ("other" if g.over else "unfinished"))
    return {"seed": seed, "turns": g.state.turn, "actions": steps, "illegal": illegal,
            "outcome": (r.get("winner_color") or "none").lower(), "winner": r.get("winner"),
            "finished": g.over, "ended": ended, "stats": dict(g.state.stats), "hash": g.state_hash()}


def open_questions(g: Game) -> tuple | None:
    """What is open out of turn (offers, Committee consents) and the moment it is open in;
    None when nothing is.  Agents are asked again only when this changes."""
    s = g.state
    if g.over or s.decision is not None or not (s.offers or s.committee_consent or s.committee):
        return None
    return (tuple(sorted(s.offers)), tuple(sorted((k, tuple(v)) for k, v in s.committee_consent.items())),
            tuple(s.committee), s.turn, s.phase, s.current)


def answer_offers(g: Game, agents: dict, memo: dict | None = None) -> tuple[int, float, float, float]:
    """Out-of-turn answers: trade offers and Central Committee proposals are free actions a
    seat takes whenever it likes, so after each action every agent with something open to
    it is asked (the server does the same for bot seats).  An agent with a ``react(view,
    legal)`` method may return an action or None; other agents only answer offers made to
    them, through ``choose``.  Returns (actions applied, seconds in agents, in rules, in views)."""
    clock = time.perf_counter
    n, tb, tr, tw = 0, 0.0, 0.0, 0.0
    s = g.state
    memo = {} if memo is None else memo
    for _ in range(40):
        key = open_questions(g)
        if key is None or key == memo.get("asked"):
            break
        memo["asked"] = key
        acted = False
        for seat in s.seats:
            if g.over or s.decision is not None:
                break
            agent = agents.get(seat)
            if agent is None or seat in s.quit:
                continue
            react = getattr(agent, "react", None)
            t0 = clock()
            if react is not None:
                legal = g.legal_actions(seat)
                view = g.view(seat)
                tv = clock()
                action = react(view, legal)
            else:
                oids = [o["id"] for o in s.offers.values() if o["to"] == seat]
                legal = [a for a in g.legal_actions(seat) if oids and getattr(a, "offer", None) == oids[0]]
                view = g.view(seat) if legal else None
                tv = clock()
                action = agent.choose(view, legal) if legal else None
                if action is not None and action not in legal:
                    action = None
            t1 = clock()
            tw += tv - t0
            tb += t1 - tv
            if action is None:
                continue
            try:
                g.apply(action)
            except IllegalAction:
                tr += clock() - t1
                continue
            tr += clock() - t1
            n += 1
            acted = True
        if not acted:
            break
    return n, tb, tr, tw


def _kinds(agent_kind: str, seats: list[str]) -> dict[str, str]:
    if agent_kind == "mixed":
        names = sorted(AGENTS)
        return {p: names[i % len(names)] for i, p in enumerate(seats)}
    return {p: agent_kind for p in seats}


def run(args: argparse.Namespace) -> int:
    if getattr(args, "mode", ""):                 # the SPI solitaire: bots/spi.py (Red agent) + the engine (non-Red)
        from rcw.bots.spi import run_simulation

        return run_simulation(args)
    t0 = time.perf_counter()
    outcomes = {"red": 0, "white": 0, "none": 0}
    ended = {"rules": 0, "limit": 0, "other": 0, "unfinished": 0}
    stats = {k: 0 for k in STAT_KEYS}
    turns, completed, illegal, errors = [], 0, 0, []
    tty = sys.stderr.isatty() and not args.json_only_quiet
    for i in range(args.games):
        seed = args.seed + i
        try:
            rec = play(args.players, seed, args.agents, args.max_turns)
        except Exception as e:  # an engine error is a finding, reported in the summary
            errors.append({"seed": seed, "error": f"{type(e).__name__}: {e}",
                           "where": traceback.format_exc().strip().splitlines()[-3:]})
            continue
        completed += rec["finished"]
        illegal += rec["illegal"]
        outcomes[rec["outcome"]] += 1
        ended[rec["ended"]] += 1
        turns.append(rec["turns"])
        for k in STAT_KEYS:
            stats[k] += rec["stats"].get(k, 0)
        if tty:
            done = i + 1
            bar = "#" * (30 * done // args.games)
            print(f"\r[{bar:<30}] {done}/{args.games} games", end="", file=sys.stderr, flush=True)
    if tty:
        print(file=sys.stderr)
    summary = {
        "games": args.games, "players": args.players, "agents": args.agents, "seed": args.seed,
        "max_turns": args.max_turns, "completed": completed, "illegal_actions": illegal,
        "engine_errors": len(errors), "errors": errors[:5], "outcomes": outcomes, "ended": ended,
        "mean_game_turns": round(sum(turns) / len(turns), 3) if turns else 0.0,
        "stats": stats, "seconds": round(time.perf_counter() - t0, 3),
    }
    if args.json:
        print(json.dumps(summary, indent=2, sort_keys=True))
    else:
        print(f"{completed}/{args.games} games completed ({args.players} players, {args.agents} agents, seed {args.seed})")
        print(f"  outcomes: Red {outcomes['red']}, White {outcomes['white']}, none {outcomes['none']}"
              f" (turn limit {args.max_turns or 'none'})")
        print(f"  ended by the rules {ended['rules']}, by the turn limit {ended['limit']}, otherwise {ended['other']}")
        print(f"  mean Game-Turns {summary['mean_game_turns']}; illegal actions {illegal}; engine errors {len(errors)}")
        print("  " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in stats.items()))
        print(f"  {summary['seconds']} s")
        for e in errors[:5]:
            print(f"  error (seed {e['seed']}): {e['error']}", file=sys.stderr)
    return 1 if errors else 0


def add_parser(sub) -> None:
    p = sub.add_parser("simulate", help="play whole games between computer players and print a summary",
                       description="Play whole games headless; every agent picks among the legal actions. "
                                   "The same arguments give the same result (apart from 'seconds').")
    p.add_argument("--agents", default="random", choices=sorted(AGENTS) + ["mixed"], help="which agents play (default random)")
    p.add_argument("--players", type=int, default=5, choices=range(3, 7), metavar="N", help="players per game, 3-6 (default 5)")
    p.add_argument("--games", type=int, default=10, metavar="G", help="number of games (default 10)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the first game; game i uses S+i (default 0)")
    p.add_argument("--max-turns", type=int, default=30, metavar="T",
                   help="stop a game with no victor after T Game-Turns (default 30; 0 = no limit, as in the rules)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--mode", default="", choices=["", "spi-solitaire"],
                   help="'spi-solitaire': the SPI solitaire (004 [18.0]-[28.0]); --agents names the agent that plays Red "
                        "(sdt: the greedy Red agent of bots/spi.py), --players and --max-turns are ignored, and the "
                        "summary reports victory levels")
    p.set_defaults(func=run, json_only_quiet=False)
