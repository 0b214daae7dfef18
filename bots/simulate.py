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
from rcw.bots.match import Match

from rcw import options as O
from rcw.actions import IllegalAction
from rcw.cliargs import whole
from rcw.modes import new_game
from rcw.rng import SEED_MAX

STAT_KEYS = ("attacks", "subversive_attacks", "epidemic_losses", "replacements", "assassination_attempts",
             "assassinations", "purges", "counterpurges", "trades", "czar_executions", "captures", "emigrations",
             # what the options did (rcw options): 001 No Leader Suicide 3's leaders alone stacked with friends;
             # the critique's leaders dead of epidemics, free purges of the Red Terror, White units evacuated
             "leaders_stacked_up", "leader_epidemic_deaths", "red_terror_purges", "evacuated")


def play(players: int, seed: int, agent_kind: str, max_turns: int, max_actions: int = 200_000,
         with_record: bool = False, options: dict | None = None, mode: str | None = None) -> dict:
    """Play one game through :class:`rcw.bots.match.Match` (with the game ``options``, e.g.
    001's optional forces); returns its outcome (with the game's record, to replay it, if
    ``with_record``).  ``mode`` ``"postal"``: the postal game (004 [17.0]), the agents writing
    order sheets."""
    opts = dict(options or {})
    if max_turns:
        opts["max_turns"] = max_turns
    if mode:
        opts["mode"] = mode
    g = new_game(players, seed, opts or None)
    kinds = _kinds(agent_kind, g.seats)
    m = Match(g, {p: make_agent(kinds[p], p, seed, mode=mode) for p in g.seats})
    steps = m.play(max_actions)
    if not g.over and steps < max_actions:
        raise RuntimeError(f"no agent can act in an unfinished game (pending {g.pending})")
    r = g.result or {}
    reason = r.get("reason", "")
    ended = "rules" if g.over and r.get("winner_color") else ("limit" if g.over and "turn limit" in reason else
                                                              ("other" if g.over else "unfinished"))
    return {"seed": seed, "turns": g.turns_played, "actions": steps, "illegal": m.refused,
            "outcome": (r.get("winner_color") or "none").lower(), "winner": r.get("winner"), "winners": r.get("winners", []),
            "finished": g.over, "ended": ended, "stats": g.stats, "hash": g.state_hash(),
            **({"record": g.record()} if with_record else {})}


def _kinds(agent_kind: str, seats: list[str]) -> dict[str, str]:
    if agent_kind == "mixed":
        names = sorted(AGENTS)
        return {p: names[i % len(names)] for i, p in enumerate(seats)}
    return {p: agent_kind for p in seats}


def simulate(args: argparse.Namespace) -> dict:
    """Play ``args.games`` games (``players``, ``agents``, ``seed``, ``max_turns``, ``mode``) and
    return the summary (the JSON of ``rcw simulate --json``)."""
    t0 = time.perf_counter()
    outcomes = {"red": 0, "white": 0, "none": 0}
    ended = {"rules": 0, "limit": 0, "other": 0, "unfinished": 0}
    stats = {k: 0 for k in STAT_KEYS}
    turns, completed, illegal, errors = [], 0, 0, []
    tty = sys.stderr.isatty() and not args.json_only_quiet
    for i in range(args.games):
        seed = args.seed + i
        try:
            rec = play(args.players, seed, args.agents, args.max_turns, options=getattr(args, "options", None),
                       mode=getattr(args, "mode", "") or None)
        except Exception as e:  # an engine error is a finding, reported in the summary
            errors.append({"seed": seed, "error": f"{type(e).__name__}: {e}",
                           "where": traceback.format_exc().strip().splitlines()[-3:]})
            continue
        completed += rec["finished"]
        illegal += rec["illegal"]
        outcomes[rec["outcome"]] += 1
        ended[rec["ended"]] += 1
        turns.append(rec["turns"])
        for k, v in rec["stats"].items():      # STAT_KEYS, and what the game's options count (001's forces)
            stats[k] = stats.get(k, 0) + v
        if tty:
            done = i + 1
            bar = "#" * (30 * done // args.games)
            print(f"\r[{bar:<30}] {done}/{args.games} games", end="", file=sys.stderr, flush=True)
    if tty:
        print(file=sys.stderr)
    return {
        "games": args.games, "players": args.players, "agents": args.agents, "seed": args.seed,
        **({"mode": args.mode} if getattr(args, "mode", "") else {}),
        "max_turns": args.max_turns, "options": dict(getattr(args, "options", None) or {}), "completed": completed, "illegal_actions": illegal,
        "engine_errors": len(errors), "errors": errors[:5], "outcomes": outcomes, "ended": ended,
        "mean_game_turns": round(sum(turns) / len(turns), 3) if turns else 0.0,
        "stats": stats, "seconds": round(time.perf_counter() - t0, 3),
    }


def parse_options(specs: list[str], mode: str = "") -> dict:
    """``--option NAME=VALUE`` (repeatable) as a game's options: each value read by its option's
    type (:func:`rcw.options.parse`), the whole checked by :func:`rcw.options.validate` for the
    game ``mode``."""
    out = {}
    for spec in specs:
        name, eq, text = spec.partition("=")
        if not eq:
            text = "true"                # --option NAME: a switch turned on
        out[name.strip()] = O.parse(name.strip(), text)
    return O.validate(out, mode or "standard")


def run(args: argparse.Namespace) -> int:
    mode = getattr(args, "mode", "")
    try:
        args.options = {**(getattr(args, "options", None) or {}),
                        **parse_options(getattr(args, "option", None) or [], mode)}
    except IllegalAction as e:
        print(f"rcw simulate: {e.message}", file=sys.stderr)
        return 2
    if "max_turns" in args.options:                 # (--option max_turns=T is --max-turns T)
        args.max_turns = args.options.pop("max_turns")
    spi_only = [name for name, on in (("--red", getattr(args, "red", "")), ("--jobs", getattr(args, "jobs", 1) != 1),
                                      ("--evidence", getattr(args, "evidence", False))) if on]
    if mode != "spi-solitaire" and spi_only:
        print(f"rcw simulate: {', '.join(spi_only)} {'is' if len(spi_only) == 1 else 'are'} for --mode spi-solitaire only",
              file=sys.stderr)
        return 2
    if mode == "spi-solitaire" and args.options:
        print("rcw simulate: --option sets the options of the multi-player and postal games; the SPI solitaire "
              "takes none", file=sys.stderr)
        return 2
    if mode == "spi-solitaire":   # the SPI solitaire: bots/spi.py (Red agent) + the engine (non-Red)
        from rcw.bots.spi import run_simulation

        return run_simulation(args)
    summary = simulate(args)
    outcomes, ended, stats, illegal = summary["outcomes"], summary["ended"], summary["stats"], summary["illegal_actions"]
    completed, errors = summary["completed"], summary["errors"]
    if args.json:
        print(json.dumps(summary, indent=2, sort_keys=True))
    else:
        print(f"{completed}/{args.games} games completed ({args.players} players, {args.agents} agents, seed {args.seed})")
        print(f"  outcomes: Red {outcomes['red']}, White {outcomes['white']}, none {outcomes['none']}"
              f" (turn limit {args.max_turns or 'none'})")
        print(f"  ended by the rules {ended['rules']}, by the turn limit {ended['limit']}, otherwise {ended['other']}")
        print(f"  mean Game-Turns {summary['mean_game_turns']}; illegal actions {illegal}; "
              f"engine errors {summary['engine_errors']}")
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
    p.add_argument("--games", type=whole(1), default=10, metavar="G", help="number of games (default 10)")
    p.add_argument("--seed", type=whole(0, SEED_MAX), default=0, metavar="S",
                   help="seed of the first game; game i uses S+i (default 0)")
    p.add_argument("--max-turns", type=whole(0), default=30, metavar="T",
                   help="stop a game with no victor after T Game-Turns (default 30; 0 = no limit, as in the rules)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="play with a game option (repeatable; 'rcw options' lists them; a switch is on/off, "
                        "NAME alone turns it on), e.g. --option no_leader_suicide=on")
    p.add_argument("--mode", default="", choices=["", "spi-solitaire", "postal"],
                   help="'postal': the postal game (004 [17.0]): the agents write order sheets and the engine adjudicates "
                        "them, the same summary; "
                        "'spi-solitaire': the SPI solitaire (004 [18.0]-[28.0]); --agents names the agent that plays Red "
                        "(sdt: the look-ahead planner of bots/spi.py; see --red), --players and --max-turns are ignored, and the "
                        "summary reports victory levels")
    p.add_argument("--red", default="", choices=["", "planner", "planner0", "greedy", "random"],
                   help="with --mode spi-solitaire: the Red agent of bots/spi.py (planner: the look-ahead SPIPlannerAgent, "
                        "as --agents sdt; planner0: the planner without its Petrograd/Tver attack share-out and Finnish "
                        "sentinel; greedy: the greedy SPIRedAgent; random); default: from --agents. "
                        "See docs/spi-solitaire.md")
    p.add_argument("--jobs", type=whole(1), default=1, metavar="J",
                   help="with --mode spi-solitaire: play the games in J processes (same results; default 1)")
    p.add_argument("--evidence", action="store_true",
                   help="with --mode spi-solitaire: add per-Game-Turn strengths, Red leaders lost, where the decisive "
                        "non-Red entries into Petrograd/Tver came from and the victory conditions to the summary")
    p.set_defaults(func=run, json_only_quiet=False)
