"""The SPI solitaire (004 [18.0]-[28.0]) for computer players: a Red agent and ``rcw simulate
--mode spi-solitaire``.

The non-Red side of the solitaire is played by the engine (:mod:`rcw.solitaire`): its
moves are fixed by the rules' procedures and the game's dice, so no agent is needed for it.
The SDT bots (Solitaire for Fanatics) are a five-player political system and have nothing to
decide in a Red-against-the-system game, so ``--agents sdt`` in this mode plays Red with
:class:`SPIRedAgent`, a greedy soldier:

* Red Leader Determination (004 [24.0]): the most valuable leaders go onto the strongest
  loose Red combat units, preferring those near non-Red forces and near Petrograd and Tver.
* Movement: each leader first attaches the strongest Red combat units beside it, then marches
  (overland or by rail, where the engine says it can reach: :meth:`rcw.player.Player.reach`)
  to the non-Red stack it can best destroy together with the Red forces already there or on
  their way: stacks in Petrograd or Tver first (they lose the game at the end of the
  Game-Turn, 004 [28.13]), then those closest to their target, then the rest of the Red
  objective regions (004 [28.11]).
* Combat: attacks at 2:1 or better (any odds from 1:1 in Petrograd and Tver), adding its
  stacks strongest first until 3:1 (a sure elimination on the CRT); Subversive Attacks on
  Blue stacks whenever possible (004 [8.33]: they cannot hurt the attacker).
* Exchange losses: loose combat units before leaders, the weakest unit that covers the loss.

Like every agent it plays through :class:`rcw.player.Player` (the view, the legal actions and
the engine's answers on reach, strengths and odds) and is seeded and deterministic.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import traceback

from rcw.bots.random_agent import RandomAgent

from rcw.actions import Action
from rcw.player import Player
from rcw.solitaire import MODE, OBJECTIVE_REGIONS, TARGETS

RED = "Red"
VICTORIES = ("red_decisive", "red_substantive", "red_marginal", "draw", "nonred_decisive")


class _Map:
    """What the agent reads off its :class:`Player` for one choice: the view's stacks by id,
    and (asked of the engine once each) their attack strengths and defences."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.units = player.data.units
        self.stacks: list[dict] = player.view["stacks"]
        self.by_id = {st["id"]: st for st in self.stacks}
        self._attack: dict[int, int] = {}
        self._defense: dict[int, int] = {}

    def fighting(self, st: dict) -> list[int]:
        return [u for u in st["units"] if not self.units[u].is_imperial]

    def leaders(self, st: dict) -> list[int]:
        return [u for u in st["units"] if self.units[u].is_leader]

    def loose(self, st: dict) -> list[int]:
        """The stack's combat units attached to no leader."""
        return [u for u in st["units"] if self.units[u].is_combat and not st["attached"].get(str(u))]

    def attack(self, sid: int) -> int:
        """The strength stack ``sid`` attacks with (004 [8.26]-[8.28])."""
        if sid not in self._attack:
            self._attack[sid] = sum(self.units[u].strength for u in self.player.attack_units(sid))
        return self._attack[sid]

    def defense(self, sid: int) -> int:
        if sid not in self._defense:
            self._defense[sid] = self.player.defense(sid)
        return self._defense[sid]

    def enemies(self) -> list[dict]:
        """The non-Red stacks with combat strength (004 [8.11]-[8.15]: all hostile to Red)."""
        return [st for st in self.stacks if self.fighting(st) and self.player.hostile(RED, st["color"])]


class SPIRedAgent:
    """A greedy Red player for the SPI solitaire (see the module docstring)."""

    name = "spi-red"

    def __init__(self, seat: str = "R", seed: int = 0) -> None:
        self.seat = seat
        self.rng = random.Random(f"spi:{seed}:{seat}")
        self._turn_key: tuple = ()
        self.committed: dict[int, int] = {}      # target stack -> Red attack strength heading there
        self.plan: list[tuple[str, bool]] = []   # remaining (province, by_rail) steps of the moving force
        self.plan_target: int | None = None
        self.tried: set[tuple] = set()           # attacks declared (and called off) this Combat Phase
        self.diverted: set[int] = set()          # units left apart as a diversion (never re-attached)

    # -- the interface ------------------------------------------------------------------------------
    def choose(self, player: Player) -> Action:
        view = player.view
        key = (view.get("turn"), view.get("phase"))
        if key != self._turn_key:
            self._turn_key = key
            if view.get("phase") == "movement":
                self.committed, self.plan, self.plan_target, self.diverted = {}, [], None, set()
            self.tried = set()
        legal = list(player.legal)
        types = {a.TYPE for a in legal}
        m = _Map(player)
        try:
            if "ChooseLoss" in types:
                return self._loss(m, legal)
            if "CaptureImperial" in types or "DeclineCapture" in types:
                return next((a for a in legal if a.TYPE == "CaptureImperial"), legal[0])
            phase = view.get("phase")
            if phase == "leaders":
                return self._deploy(m, legal)
            if phase == "movement":
                return self._move(m, legal)
            if phase == "combat":
                return self._combat(m, legal)
        except (KeyError, ValueError, StopIteration):       # never stall the game on a planning slip
            pass
        for want in ("RollRandomEvents", "DrawRandomizer", "EndLeaderDeployment", "EndForce", "EndMovement",
                     "ResolveAttack", "EndCombat"):
            for a in legal:
                if a.TYPE == want:
                    return a
        return legal[0]

    # -- helpers ---------------------------------------------------------------------------------------
    @staticmethod
    def _ahead(m: _Map, st: dict) -> int:
        r = m.player.view.get("solitaire", {}).get("routes", {}).get(str(st["id"]))
        return len(r["ahead"]) if r else 99

    def _priority(self, m: _Map, st: dict) -> float:
        p = 0.0
        if st["province"] in TARGETS:
            p += 1000
        ahead = self._ahead(m, st)
        if ahead <= 3:
            p += 300 - 60 * ahead
        if m.player.data.provinces[st["province"]].region in OBJECTIVE_REGIONS:
            p += 60
        if st["owner"] is not None:       # a moving, attacking force (controllable)
            p += 30
        return p + m.defense(st["id"])

    # -- Red Leader Determination ---------------------------------------------------------------------
    def _deploy(self, m: _Map, legal: list[Action]) -> Action:
        d = m.player.data
        deploys = [a for a in legal if a.TYPE == "DeployLeader"]
        if not deploys:
            return next(a for a in legal if a.TYPE == "EndLeaderDeployment")
        best_val = max(d.units[a.leader].strength for a in deploys)
        leader = min(a.leader for a in deploys if d.units[a.leader].strength == best_val)
        near: dict[str, float] = {}
        for e in m.enemies():
            w = self._priority(m, e)
            near[e["province"]] = max(near.get(e["province"], 0), w)
            for n in d.provinces[e["province"]].adjacent:
                near[n] = max(near.get(n, 0), w / 2)
        for t in TARGETS:
            near[t] = near.get(t, 0) + 40

        def score(a: Action) -> float:
            if not a.stack:
                return -1.0
            st = m.by_id.get(a.stack)
            if st is None:
                return -1.0
            loose = sorted((d.units[u].strength for u in m.loose(st)), reverse=True)[:d.units[leader].strength]
            if not loose:                     # a leader without troops is only a target
                return near.get(st["province"], 0) / 100
            return sum(loose) * 10 + near.get(st["province"], 0) + (5 if d.provinces[st["province"]].rail else 0)

        options = [a for a in deploys if a.leader == leader]
        best = max(options, key=lambda a: (score(a), -a.stack))
        if score(best) <= 0:
            return next((a for a in legal if a.TYPE == "EndLeaderDeployment"), best)
        return best

    # -- Movement ----------------------------------------------------------------------------------------
    def _move(self, m: _Map, legal: list[Action]) -> Action:
        d = m.player.data
        force = m.player.view.get("force")
        if force is None:
            self.plan, self.plan_target = [], None
            starts = [a for a in legal if a.TYPE == "StartForce" and d.units[a.unit].is_leader]
            if not starts:
                return next(a for a in legal if a.TYPE == "EndMovement")
            starts.sort(key=lambda a: (-d.units[a.unit].strength, a.unit))
            return starts[0]
        fs = m.by_id.get(force[0])
        if fs is None:
            return next(a for a in legal if a.TYPE == "EndForce")
        moved = bool(force[4])
        if not moved and not self.plan:
            divert = self._diversion(m, fs, legal)
            if divert is not None:
                return divert
            attach = [a for a in legal if a.TYPE == "Attach" and d.units[a.unit].is_combat
                      and d.units[a.unit].color == RED and a.unit not in self.diverted]
            if attach:
                return max(attach, key=lambda a: (d.units[a.unit].strength, -a.unit))
            self._plan(m, fs)
        if self.plan:
            to, rail = self.plan.pop(0)
            for a in legal:
                if a.TYPE == "Move" and a.to == to and a.rail == rail:
                    return a
            self.plan = []
        return next(a for a in legal if a.TYPE == "EndForce")

    def _diversion(self, m: _Map, fs: dict, legal: list[Action]) -> Action | None:
        """In Petrograd and Tver keep a weak Red stack apart from the leaders: the non-Red forces
        attack the weakest Red force there (004 [23.11]) and spare the leader (the "sacrificial
        diversion" of the game profile in 004)."""
        d = m.player.data
        if fs["province"] not in TARGETS:
            return None
        others = [st for st in m.stacks if st["province"] == fs["province"] and st["id"] != fs["id"]
                  and st["color"] == RED and m.fighting(st)]
        attached = sorted((u for u in fs["units"] if d.units[u].is_combat and fs["attached"].get(str(u))),
                          key=lambda u: (d.units[u].strength, u))
        if others or len(attached) < 2:
            return None
        for a in legal:
            if a.TYPE == "Detach" and a.unit == attached[0]:
                self.diverted.add(a.unit)
                return a
        return None

    def _plan(self, m: _Map, fs: dict) -> None:
        strength = m.attack(fs["id"])
        reach = {p: [(x, r["rail"]) for x in r["path"]] for p, r in m.player.reach().items()}
        reach[fs["province"]] = []
        best = None
        for e in m.enemies():
            if e["province"] not in reach:
                continue
            dfn = m.defense(e["id"])
            there = sum(m.attack(st["id"]) for st in m.stacks if st["province"] == e["province"]
                        and st["owner"] == self.seat and m.leaders(st) and st["id"] != fs["id"])
            total = strength + there + self.committed.get(e["id"], 0)
            col = m.player.odds_of(total, dfn)["column"]     # (the planned strength's CRT column)
            need = 1 if e["province"] in TARGETS else 2
            if col is None or col < need:
                continue
            if self.committed.get(e["id"], 0) + there >= 3 * dfn:
                continue                      # already enough Red strength for a sure kill
            score = (self._priority(m, e) + 20 * min(col, 3), -len(reach[e["province"]]), -e["id"])
            if best is None or score > best[0]:
                best = (score, e, reach[e["province"]])
        if best is None:
            return
        _, e, path = best
        self.plan = list(path)
        self.plan_target = e["id"]
        self.committed[e["id"]] = self.committed.get(e["id"], 0) + strength

    # -- Combat ---------------------------------------------------------------------------------------
    def _combat(self, m: _Map, legal: list[Action]) -> Action:
        d = m.player.data
        at = m.player.view.get("attack")
        if at is not None:
            target = m.by_id.get(at[0])
            adds = [a for a in legal if a.TYPE == "AddAttacker"]
            col = m.player.odds()["column"]                # the attack being declared, as the engine rates it
            goal = 3 if not at[1] else 6
            if adds and (col or 0) < goal:
                return max(adds, key=lambda a: (m.attack(a.stack) if a.stack in m.by_id else 0, -a.stack))
            need = 0 if at[1] else (1 if target and target["province"] in TARGETS else 2)
            if col is not None and col >= need and any(a.TYPE == "ResolveAttack" for a in legal):
                return next(a for a in legal if a.TYPE == "ResolveAttack")
            return next(a for a in legal if a.TYPE == "CancelAttack")
        declares = [a for a in legal if a.TYPE == "DeclareAttack" and (a.target, a.subversive) not in self.tried]
        if not declares:
            return next(a for a in legal if a.TYPE == "EndCombat")
        mine = [st for st in m.stacks if st["owner"] == self.seat and m.player.attack_units(st["id"])]

        def estimate(a: Action) -> tuple:
            t = m.by_id[a.target]
            if a.subversive:
                adj = d.provinces[t["province"]].adjacent
                group = [st["id"] for st in mine if st["province"] in adj and st["color"] == RED]
            else:
                group = [st["id"] for st in mine if st["province"] == t["province"]]
            # At face value: a doubled Subversive Attack (004 [12.12]) is not counted double here.
            col = m.player.odds(group, a.target)["column"]
            return (0 if a.subversive else 1, self._priority(m, t), col or -1)

        ranked = sorted(declares, key=lambda a: (estimate(a), -a.target), reverse=True)
        for a in ranked:
            t = m.by_id[a.target]
            est = estimate(a)
            need = 0 if a.subversive else (1 if t["province"] in TARGETS else 2)
            self.tried.add((a.target, a.subversive))
            if est[2] >= need:
                return a
        return next(a for a in legal if a.TYPE == "EndCombat")

    # -- Exchange losses -----------------------------------------------------------------------------------
    def _loss(self, m: _Map, legal: list[Action]) -> Action:
        d = m.player.data
        need = (m.player.view.get("decision") or {}).get("need", 0)
        opts = [a for a in legal if a.TYPE == "ChooseLoss"]
        units = [a for a in opts if not d.units[a.unit].is_leader] or opts
        covers = sorted((a for a in units if d.units[a.unit].strength >= need), key=lambda a: (d.units[a.unit].strength, a.unit))
        if covers:
            return covers[0]
        return max(units, key=lambda a: (d.units[a.unit].strength, -a.unit))


def red_agent(kind: str, seed: int):
    """The agent that plays Red in the solitaire for ``--agents kind``."""
    if kind == "random":
        return RandomAgent("R", seed)
    if kind == "sdt":
        return SPIRedAgent("R", seed)
    raise ValueError(f"no Red agent {kind!r} for the SPI solitaire (random, sdt)")


# -- rcw simulate --mode spi-solitaire ----------------------------------------------------------------------
def play(seed: int, kind: str, max_actions: int = 100_000) -> dict:
    """Play one solitaire game with the ``kind`` agent as Red (through the match loop); returns
    its outcome record."""
    from rcw.bots.match import Match

    from rcw.modes import new_game

    g = new_game(1, seed, {"mode": MODE})
    m = Match(g, {"R": red_agent(kind, seed)})
    steps = m.play(max_actions)
    if not g.over and steps < max_actions:
        raise RuntimeError(f"the solitaire waits on {g.pending!r}")
    r = g.result or {}
    return {"seed": seed, "turns": g.turn, "actions": steps, "illegal": m.refused, "finished": g.over,
            "victory": r.get("victory", "unfinished"), "stats": g.stats, "hash": g.state_hash()}


STAT_KEYS = ("attacks", "subversive_attacks", "epidemic_losses", "replacements", "czar_executions", "captures",
             "emigrations")


def run_simulation(args: argparse.Namespace) -> int:
    """``rcw simulate --mode spi-solitaire``: one summary; the same arguments give the same JSON
    apart from ``seconds``."""
    t0 = time.perf_counter()
    victories = {k: 0 for k in VICTORIES}
    by_turn: dict[str, dict[str, int]] = {k: {} for k in VICTORIES}
    stats = {k: 0 for k in STAT_KEYS}
    turns, completed, illegal, errors = [], 0, 0, []
    tty = sys.stderr.isatty() and not getattr(args, "json_only_quiet", False)
    for i in range(args.games):
        seed = args.seed + i
        kind = args.agents if args.agents != "mixed" else ("random", "sdt")[i % 2]
        try:
            rec = play(seed, kind)
        except Exception as e:  # an engine error is a finding, reported in the summary
            errors.append({"seed": seed, "error": f"{type(e).__name__}: {e}",
                           "where": traceback.format_exc().strip().splitlines()[-3:]})
            continue
        completed += rec["finished"]
        illegal += rec["illegal"]
        if rec["victory"] in victories:
            victories[rec["victory"]] += 1
            t = str(rec["turns"])
            by_turn[rec["victory"]][t] = by_turn[rec["victory"]].get(t, 0) + 1
        turns.append(rec["turns"])
        for k in STAT_KEYS:
            stats[k] += rec["stats"].get(k, 0)
        if tty:
            done = i + 1
            print(f"\r[{'#' * (30 * done // args.games):<30}] {done}/{args.games} games", end="", file=sys.stderr, flush=True)
    if tty:
        print(file=sys.stderr)
    summary = {
        "mode": MODE, "games": args.games, "agents": args.agents, "seed": args.seed, "completed": completed,
        "illegal_actions": illegal, "engine_errors": len(errors), "errors": errors[:5],
        "victory_levels": victories, "victory_turns": {k: dict(sorted(v.items())) for k, v in by_turn.items()},
        "mean_game_turns": round(sum(turns) / len(turns), 3) if turns else 0.0,
        "stats": stats, "seconds": round(time.perf_counter() - t0, 3),
    }
    if args.json:
        print(json.dumps(summary, indent=2, sort_keys=True))
    else:
        print(f"{completed}/{args.games} SPI solitaire games completed (Red: {args.agents} agent, seed {args.seed})")
        print("  victory levels: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in victories.items()))
        print(f"  mean Game-Turns {summary['mean_game_turns']}; illegal actions {illegal}; engine errors {len(errors)}")
        print("  " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in stats.items()))
        print(f"  {summary['seconds']} s")
        for e in errors[:5]:
            print(f"  error (seed {e['seed']}): {e['error']}", file=sys.stderr)
    return 1 if errors else 0
