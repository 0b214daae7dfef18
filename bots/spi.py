"""The SPI solitaire (004 [18.0]-[28.0]) for computer players: a Red agent and ``rcw simulate
--mode spi-solitaire``.

The non-Red side of the solitaire is played by the engine (:mod:`rcw.solitaire`): its
moves are fixed by the rules' procedures and the game's dice, so no agent is needed for it.
The SDT bots (Solitaire for Fanatics) are a five-player political system and have nothing to
decide in a Red-against-the-system game, so ``--agents sdt`` in this mode plays Red with
:class:`SPIPlannerAgent` (``--red`` picks another: ``planner``, ``planner0``, ``greedy``,
``random``; see :data:`RED_AGENTS` and docs/spi-solitaire.md).  :class:`SPIRedAgent`
(``--red greedy``) is a greedy soldier:

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
import itertools
import json
import random
import sys
import time
import traceback
from typing import NamedTuple

from rcw.bots.random_agent import RandomAgent

from rcw import actions as A
from rcw import solitaire as S
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


# =========================================================================================================
# The look-ahead Red player: SPIPlannerAgent
# =========================================================================================================
class Stance(NamedTuple):
    """The knobs of one Red Player-Turn, chosen by the look-ahead among :data:`STANCES`."""
    name: str
    min_col: int          # least CRT column of an attack outside Petrograd/Tver (2 = 2:1, 3 = 3:1, 9 = none)
    block: bool           # screen the non-Red paths with lone leaders (004 [24.11]) and detached units
    lt_out: bool          # Lenin/Trotsky may leave their city for a sure (3:1 or better) attack
    fortify: bool = False  # leaders with nothing to attack go to the most threatened of Petrograd/Tver


STANCES = (Stance("attrit", 1, True, False), Stance("attack", 2, True, False),
           Stance("screen", 3, True, False), Stance("sortie", 2, True, True),
           Stance("fortress", 3, False, False, True))
GUARDED = (151, 152)          # Lenin and Trotsky (004 [24.0]: I.D. #151, #152)
FINLAND = "FINL"              # the Finns' home province (004 [25.12])


def _finns_return(player: Player) -> bool:
    """Could a Finnish unit be replaced in Finland (004 [25.12]): one on the Victory Point Chart,
    or one on the map outside Finland (it may yet be eliminated)."""
    finns = {u.id for u in player.data.units.values() if u.nationality == "FN" and u.is_combat}
    on_chart = {e[0] for v in player.view["vp"].values() for e in v}
    away = {x for st in player.view["stacks"] if st["province"] != FINLAND for x in st["units"]}
    return bool(finns & (on_chart | away))


class _Board:
    """One decision's reading of the view: Red and non-Red stacks, the non-Red paths (the
    solitaire's ``routes`` read-out) and the provinces the non-Red forces would stop in."""

    def __init__(self, player: Player) -> None:
        self.p = player
        self.d = player.data
        self.u = player.data.units
        v = player.view
        self.stacks: list[dict] = v["stacks"]
        self.by_id = {st["id"]: st for st in self.stacks}
        self.routes: dict = v["solitaire"]["routes"]
        self.red = [st for st in self.stacks if st["color"] == RED]
        self.enemies = [st for st in self.stacks if st["color"] != RED and self.fighting(st)
                        and self.u[st["units"][0]].color != "Imperial"]
        self.red_provs = {st["province"] for st in self.red}
        self._def: dict[int, int] = {}

    def fighting(self, st: dict) -> list[int]:
        return [x for x in st["units"] if not self.u[x].is_imperial]

    def strength(self, st: dict) -> int:
        return sum(self.u[x].strength for x in self.fighting(st))

    def defense(self, sid: int) -> int:
        if sid not in self._def:
            self._def[sid] = self.p.defense(sid)
        return self._def[sid]

    def leaders(self, st: dict) -> list[int]:
        return [x for x in st["units"] if self.u[x].is_leader]

    def loose(self, st: dict) -> list[int]:
        return [x for x in st["units"] if self.u[x].is_combat and not st["attached"].get(str(x))]

    def movers(self) -> list[dict]:
        """The controllable non-Red forces (they move, 004 [21.1]) with their path ahead."""
        out = []
        for st in self.enemies:
            r = self.routes.get(str(st["id"]))
            if st["owner"] is not None and r is not None:
                out.append({"st": st, "ahead": list(r["ahead"]), "target": r["target"], "str": self.strength(st)})
        return out

    def stop(self, ahead: list[str], held: set[str]) -> tuple[str | None, int]:
        """Where a force on ``ahead`` stops (the first Red-held province within a die's six
        steps, or its target), and how many steps away."""
        for i, p in enumerate(ahead[:6]):
            if p in held or p in TARGETS:
                return p, i + 1
        return None, 99

    def arrivals(self, held: set[str]) -> dict[str, list[tuple[int, float]]]:
        """Province -> [(strength, chance it gets there)] of the non-Red forces that would stop
        there next non-Red Movement Phase (one die each, 004 [21.12])."""
        out: dict[str, list[tuple[int, float]]] = {}
        for f in self.movers():
            if not f["ahead"]:
                out.setdefault(f["st"]["province"], []).append((f["str"], 1.0))
                continue
            p, n = self.stop(f["ahead"], held)
            if p is not None:
                out.setdefault(p, []).append((f["str"], (7 - n) / 6))
        return out


class SPIPlannerAgent:
    """A Red player for the SPI solitaire that guards Lenin and Trotsky, screens the non-Red
    paths (lone leaders, 004 [24.11]; units left on the paths), uses Subversive Attacks (004
    [8.3]) and picks each Player-Turn's stance by Monte Carlo look-ahead (see the module
    docstring).  ``rollouts``: look-ahead games per stance and Player-Turn (0: no look-ahead,
    the first stance); ``time_limit``: a cap in seconds on one turn's search (None, the
    default: none, the search is bounded by its roll-outs, each one Game-Turn long, and the agent
    is deterministic given its seed; with a cap it is so only while the cap is not reached).
    ``clear``: in Petrograd/Tver, share the attacks out for the best chance of eliminating every
    non-Red stack (004 [28.13]; :meth:`_clear_plan`), keep the stacks there and let any leader
    go there; ``finland``: the Finnish sentinel, a lone leader in an empty Finland against the
    Finns' replacement (004 [9.12], [25.12]); ``fortress``: also try the "fortress" stance."""

    name = "spi-planner"

    def __init__(self, seat: str = "R", seed: int = 0, rollouts: int = 3, time_limit: float | None = None,
                 stance: Stance | None = None, clear: bool = True, finland: bool = True, fortress: bool = False) -> None:
        self.seat = seat
        self.rng = random.Random(f"spi-planner:{seed}:{seat}")
        self.rollouts = rollouts
        self.time_limit = time_limit
        self.fixed = stance
        self.stance: Stance = stance or STANCES[0]
        self._turn = -1
        self._phase = ""
        self.tried: set[tuple] = set()
        self.used: set[int] = set()          # stacks (by leader) that attacked this Combat Phase
        self.clear = clear                   # share out the attacks in Petrograd/Tver (_clear_plan)
        self.finland = finland               # a lone leader in an empty Finland (004 [9.12], [25.12])
        self.fortress = fortress             # the look-ahead also tries the "fortress" stance (measured: no gain)
        self.stances = STANCES if fortress else tuple(x for x in STANCES if not x.fortify)
        self._assigned: tuple[int, list[int]] | None = None
        self._declared: dict[int, int] = {}
        self.search_log: list[dict] = []     # per Player-Turn: the stances' mean scores

    # -- the interface ---------------------------------------------------------------------------------------
    def choose(self, player: Player) -> Action:
        v = player.view
        turn, phase = v["turn"], v["phase"]
        if turn != self._turn:
            self._turn = turn
            if self.fixed is None and self.rollouts > 0 and phase in ("random_events", "leaders", "movement"):
                self.stance = self._search(player)
        if phase != self._phase:
            self._phase = phase
            self.tried, self.used = set(), set()
            self._assigned, self._declared = None, {}
        dec = v.get("decision")
        try:
            if dec:
                return self._decision(player, dec)
            if phase == "random_events":
                return A.RollRandomEvents(self.seat)
            if phase == "randomizer":
                return A.DrawRandomizer(self.seat)
            if phase == "leaders":
                return self._deploy(player)
            if phase == "movement":
                return self._move(player)
            if phase == "combat":
                return self._combat(player)
        except (KeyError, ValueError, StopIteration, IndexError):      # never stall the game on a planning slip
            pass
        return self.fallback(player)

    def fallback(self, player: Player) -> Action:
        legal = list(player.legal)
        for want in ("RollRandomEvents", "DrawRandomizer", "EndLeaderDeployment", "EndForce", "EndMovement",
                     "CancelAttack", "EndCombat"):
            for a in legal:
                if a.TYPE == want:
                    return a
        return legal[0]

    def _ok(self, player: Player, a: Action) -> Action | None:
        return a if player.is_legal(a) else None

    # -- decisions during the non-Red Player-Turn and after attacks ---------------------------------------
    def _decision(self, player: Player, dec: dict) -> Action:
        legal = list(player.legal)
        kind = dec.get("kind")
        d = player.data
        if kind == "loss":
            need = dec.get("need", 0)
            opts = [a for a in legal if a.TYPE == "ChooseLoss"]
            plain = [a for a in opts if not d.units[a.unit].is_leader]
            if not plain:                      # leaders only: the least valuable first, Lenin/Trotsky last
                return min(opts, key=lambda a: (a.unit in GUARDED, d.units[a.unit].strength, a.unit))
            covers = sorted((a for a in plain if d.units[a.unit].strength >= need),
                            key=lambda a: (d.units[a.unit].strength, a.unit))
            return covers[0] if covers else max(plain, key=lambda a: (d.units[a.unit].strength, -a.unit))
        if kind == "capture":
            return next((a for a in legal if a.TYPE == "CaptureImperial"), legal[0])
        if kind == "redraw":                   # 004 [12.13]: a marker drawn by Red goes to non-Red (20.12): keep it
            return next((a for a in legal if a.TYPE == "RedrawChit" and not a.redraw), legal[0])
        return legal[0]

    # -- Red Leader Determination (004 [24.0]) ---------------------------------------------------------------
    def _deploy(self, player: Player) -> Action:
        b = _Board(player)
        d = b.d
        rld = player.view["solitaire"]["leaders"]
        avail = sorted(rld.get("available", []), key=lambda x: (-d.units[x].strength, x))
        end = S.EndLeaderDeployment(self.seat)
        if not avail or len(rld.get("deployed", [])) >= rld.get("allowed", 0):
            return end
        left = rld["allowed"] - len(rld.get("deployed", []))
        held = b.red_provs
        # 0. the Finnish sentinel: a Red unit in an empty Finland stops the Finns' replacement there
        #    (004 [9.12], [25.12]; replacements end with Game-Turn 5, 004 [9.16])
        #    unless the one leader left is wanted on loose Red units in a Petrograd/Tver to clear
        contested = {e["province"] for e in b.enemies} & set(TARGETS)
        wanted = any(st["province"] in contested and b.loose(st) for st in b.red)
        if self.finland and player.view["turn"] <= 5 and FINLAND not in held and (left > 1 or not wanted) \
                and not any(st["province"] == FINLAND for st in b.enemies) and _finns_return(player):
            lead = min(avail, key=lambda x: (d.units[x].strength, x))
            a = self._ok(player, S.DeployLeader(self.seat, lead, 0, FINLAND))
            if a is not None:
                return a
        # 1. a lone leader where a non-Red force would reach Petrograd/Tver unopposed (the screen)
        if self.stance.block:
            spot = self._block_spot(b, held, lone=True)
            best_val = d.units[avail[0]].strength
            hosts = self._hosts(b)
            if spot is not None and (left > 1 or not hosts or best_val <= 1):
                lead = min(avail, key=lambda x: (d.units[x].strength, x))      # the least valuable leader blocks
                a = self._ok(player, S.DeployLeader(self.seat, lead, 0, spot))
                if a is not None:
                    return a
        # 2. the most valuable leaders onto the strongest loose Red units near the fighting
        hosts = self._hosts(b)
        if hosts:
            lead = avail[0]
            cap = d.units[lead].strength
            best = max(hosts, key=lambda h: (h[1](cap), -h[0]["id"]))
            if best[1](cap) > 0:
                a = self._ok(player, S.DeployLeader(self.seat, lead, best[0]["id"], best[0]["province"]))
                if a is not None:
                    return a
        # 3. a decoy beside Lenin/Trotsky where they would be attacked
        for g in GUARDED:
            st = next((s for s in b.red if g in s["units"]), None)
            if st is not None and self._exposed(b, st, held):
                lead = min(avail, key=lambda x: (d.units[x].strength, x))
                a = self._ok(player, S.DeployLeader(self.seat, lead, 0, st["province"]))
                if a is not None:
                    return a
        return end

    def _hosts(self, b: _Board) -> list[tuple[dict, object]]:
        """Red stacks with loose combat units a deployed leader could command, with a score
        function of his value (the strength he commands, more near the non-Red forces)."""
        near: dict[str, float] = {}
        for f in b.movers():
            w = 3.0 if len(f["ahead"]) <= 3 else 1.0
            for p in [f["st"]["province"], *f["ahead"][:3]]:
                near[p] = max(near.get(p, 0.0), w)
        for st in b.enemies:
            if st["province"] in TARGETS:
                near[st["province"]] = 5.0
        out = []
        for st in b.red:
            loose = sorted((b.u[x].strength for x in b.loose(st)), reverse=True)
            if not loose or len(b.fighting(st)) >= 5:
                continue
            prox = near.get(st["province"], 0.0)
            adj = max((near.get(n, 0.0) for n in b.d.provinces[st["province"]].adjacent), default=0.0)
            w = 1.0 + prox + adj / 2 + (0.5 if b.d.provinces[st["province"]].rail else 0.0)
            out.append((st, lambda cap, lo=loose, w=w: sum(lo[:cap]) * w))
        return out

    def _block_spot(self, b: _Board, held: set[str], lone: bool) -> str | None:
        """The province where one Red unit stops the most dangerous unblocked non-Red force
        short of Petrograd/Tver: the next step on its path (004 [5.27], [21.13])."""
        best = None
        for f in b.movers():
            ahead = f["ahead"]
            if len(ahead) < 2:
                continue
            p, n = b.stop(ahead, held)
            if p is None or p not in TARGETS:
                continue                      # already stopped short of its target (or out of range)
            enemy_at = {st["province"] for st in b.enemies}
            for cand in ahead[:-1]:
                if cand in enemy_at and lone:
                    continue                  # 004 [24.11]: never deployed on non-Red units
                score = (f["str"] * (7 - n), -ahead.index(cand))
                if best is None or score > best[0]:
                    best = (score, cand)
                break
        return best[1] if best else None

    def _exposed(self, b: _Board, st: dict, held: set[str]) -> bool:
        """Would the non-Red forces attack stack ``st`` next non-Red Combat Phase (004 [23.11],
        [23.14]): forces that can stop in its province at 1:1 or better, with no weaker Red
        stack there to draw the attack."""
        prov = st["province"]
        arr = sum(s for s, pr in b.arrivals(held).get(prov, []) if pr > 0)
        if arr < b.defense(st["id"]):
            return False
        weaker = [o for o in b.red if o["province"] == prov and o["id"] != st["id"] and b.defense(o["id"]) < b.defense(st["id"])]
        return not weaker

    # -- Movement ------------------------------------------------------------------------------------------------
    def _move(self, player: Player) -> Action:
        b = _Board(player)
        force = player.view.get("force")
        if force is None:
            return self._next_force(player, b)
        fs = b.by_id.get(force[0])
        if fs is None:
            return A.EndForce(self.seat)
        plan = getattr(self, "_plan", None)
        if plan is not None and plan["stack"] is None:
            plan["stack"] = force[0]
        if not plan or plan["stack"] != force[0]:
            return A.EndForce(self.seat)
        leader = plan["leader"]
        if plan["attach"]:
            u = plan["attach"].pop(0)
            a = self._ok(player, A.Attach(self.seat, u, leader))
            if a is not None:
                return a
            return self._move(player)
        if plan["path"]:
            to, rail = plan["path"].pop(0)
            a = self._ok(player, A.Move(self.seat, to, rail))
            if a is not None:
                return a
            plan["path"] = []
        if plan["drop"]:
            u = plan["drop"].pop(0)
            a = self._ok(player, A.Detach(self.seat, u))
            if a is not None:
                return a
            return self._move(player)
        self._plan = None
        return A.EndForce(self.seat)

    def _next_force(self, player: Player, b: _Board) -> Action:
        d = b.d
        if not hasattr(self, "_moved_turn") or self._moved_turn != (self._turn, "m"):
            self._moved_turn = (self._turn, "m")
            self._done: set[int] = set()
            self._committed: dict[int, int] = {}
            self._held_extra: set[str] = set()
            self._stayed: set[int] = set()
        leaders = [(x, st) for st in b.red for x in b.leaders(st) if x not in self._done]
        leaders.sort(key=lambda t: (t[0] in GUARDED, -d.units[t[0]].strength, t[0]))
        for lead, st in leaders:
            self._done.add(lead)
            plan = self._plan_leader(player, b, lead, st)
            if plan is None:
                self._stayed.add(lead)
                continue
            a = self._ok(player, A.StartForce(self.seat, lead))
            if a is None:
                continue
            plan["stack"] = None
            self._plan = plan
            return a
        return A.EndMovement(self.seat)

    def _plan_leader(self, player: Player, b: _Board, lead: int, st: dict) -> dict | None:
        """Where leader ``lead`` (in stack ``st``) goes this Movement Phase, with which units."""
        d = b.d
        cap = d.units[lead].strength
        attached = [x for x in st["units"] if st["attached"].get(str(x)) == lead]
        room = max(0, cap - len(attached))
        loose = sorted(b.loose(st), key=lambda x: (-d.units[x].strength, x))
        # never strip Petrograd/Tver of their last defenders while non-Red forces can get there
        take = loose[:room]
        strength = d.units[lead].strength + sum(d.units[x].strength for x in attached + take)
        reach = {p: [(x, r["rail"]) for x in r["path"]] for p, r in player.reach(lead).items()}
        reach[st["province"]] = []
        held = b.red_provs | self._held_extra
        guarded = lead in GUARDED
        home = st["province"]
        if self.clear and home in TARGETS and any(e["province"] == home for e in b.enemies):
            return None                   # every stack in a held Petrograd/Tver is needed to clear it (004 [28.13])
        if self.finland and home == FINLAND and player.view["turn"] <= 5 \
                and not any(e["province"] == FINLAND for e in b.enemies):
            return None                   # the Finnish sentinel stays (004 [9.12], [25.12])
        best = None
        # (a) attacks: Petrograd/Tver first, then the forces closest to them
        for e in b.enemies:
            prov = e["province"]
            if prov not in reach:
                continue
            must = self.clear and prov in TARGETS      # 004 [28.13]: not cleared this turn, the game is lost
            if guarded and prov != home and not self.stance.lt_out and not must:
                continue
            dfn = b.defense(e["id"])
            there = sum(b.strength(o) for o in b.red if o["province"] == prov and o["id"] != st["id"]
                        and set(b.leaders(o)) & self._stayed)
            total = strength + self._committed.get(e["id"], 0) + there
            col = player.odds_of(total, dfn)["column"]
            if prov in TARGETS:
                need = 0
            else:
                need = 3 if guarded else self.stance.min_col
            if col is None or col < need:
                continue
            if self._committed.get(e["id"], 0) >= 3 * dfn:
                continue
            r = b.routes.get(str(e["id"]))
            ahead = len(r["ahead"]) if r else 9
            pri = (1000 if prov in TARGETS else 0) + (200 - 30 * ahead if e["owner"] else 0) + dfn + 15 * min(col, 3)
            if guarded and prov != home and not must:
                if self._exposed_at(b, prov, strength, held):
                    continue
            score = (pri, -len(reach[prov]))
            if best is None or score > best[0]:
                best = (score, "attack", e, prov)
        # (b) the screen: stand on the path of a force that would reach Petrograd/Tver
        if self.stance.block and not guarded:
            spot = self._block_spot(b, held, lone=False)
            arriving = sum(x for x, _pr in b.arrivals(held | {spot}).get(spot, [])) if spot else 0
            if spot is not None and spot in reach and 2 * strength > arriving:    # attacked at 1:1 at worst
                score = (400, -len(reach[spot]))
                if best is None or score > best[0]:
                    best = (score, "block", None, spot)
        # (c) the fortress: into the Petrograd or Tver the non-Red forces threaten most, so that
        #     what enters is attacked at 1:1 at best (004 [23.11], [23.14]) and cleared next turn
        if self.stance.fortify and not guarded and home not in TARGETS:
            t = self._fortress(b, held)
            if t is not None and t in reach:
                score = (450, -len(reach[t]))
                if best is None or score[0] > best[0][0]:
                    best = (score, "fortify", None, t)
        if best is None:
            # Lenin/Trotsky stay home; others move toward the nearest threatened target
            return None
        _, kind, e, prov = best
        if kind == "attack":
            self._committed[e["id"]] = self._committed.get(e["id"], 0) + strength
        else:
            self._held_extra.add(prov)
        return {"leader": lead, "attach": list(take), "path": list(reach[prov]), "drop": [], "kind": kind}

    def _fortress(self, b: _Board, held: set[str]) -> str | None:
        """The Petrograd or Tver with the most non-Red strength that can reach it within two
        Movement Phases (six provinces a turn at most, 004 [21.12]) beyond the Red strength there."""
        need: dict[str, float] = {t: 0.0 for t in TARGETS}
        for f in b.movers():
            ahead = f["ahead"]
            if ahead and ahead[-1] in need and len(ahead) <= 8:
                need[ahead[-1]] += f["str"] * (1.0 if len(ahead) <= 3 else 0.5)
        for e in b.enemies:
            if e["province"] in need:
                need[e["province"]] += b.strength(e)
        for st in b.red:
            if st["province"] in need:
                need[st["province"]] -= b.strength(st) / 2
        t = max(sorted(need), key=lambda x: need[x])
        return t if need[t] > 0 else None

    def _exposed_at(self, b: _Board, prov: str, strength: int, held: set[str]) -> bool:
        arr = sum(s for s, pr in b.arrivals(held | {prov}).get(prov, []))
        arr += sum(b.strength(e) for e in b.enemies if e["province"] == prov and e["owner"] is not None)
        return arr >= strength

    # -- Combat ----------------------------------------------------------------------------------------------------
    def _combat(self, player: Player) -> Action:
        b = _Board(player)
        d = b.d
        at = player.view.get("attack")
        if at is not None:
            return self._resolve(player, b, at)
        mine = [st for st in b.red if st["id"] not in self.used and player.attack_units(st["id"])]
        if not mine:
            return A.EndCombat(self.seat)
        if self.clear:
            plan = self._clear_plan(player, b)
            if plan:
                eid = min(plan, key=lambda e: (plan[e][0], e))        # the least sure attack first
                self._assigned = (eid, plan[eid][1])
                self._declared[eid] = self._declared.get(eid, 0) + 1
                a = self._ok(player, A.DeclareAttack(self.seat, eid, False))
                if a is not None:
                    return a
                self._assigned = None
        best = None
        for e in b.enemies:
            for sub in (False, True):
                if (e["id"], sub) in self.tried:
                    continue
                if sub and (e["color"] != "Blue"):
                    continue
                if sub:
                    adj = d.provinces[e["province"]].adjacent
                    group = [st for st in mine if st["province"] in adj]
                else:
                    group = [st for st in mine if st["province"] == e["province"]]
                if not group:
                    continue
                ids = [st["id"] for st in group]
                col = player.odds(ids, e["id"], sub)["column"]
                if col is None:
                    continue
                prov = e["province"]
                r = b.routes.get(str(e["id"]))
                ahead = len(r["ahead"]) if r else 9
                if sub:
                    pri = 100 + (50 if e["owner"] else 0) + 10 * col
                else:
                    if prov in TARGETS:
                        pri = 10_000
                    else:
                        need = self.stance.min_col
                        if col < need:
                            continue
                        pri = 1000 + (200 - 30 * ahead if e["owner"] else 0) + 20 * min(col, 3) + b.defense(e["id"])
                score = (pri, -e["id"])
                if best is None or score > best[0]:
                    best = (score, e, sub)
        if best is None:
            return A.EndCombat(self.seat)
        _, e, sub = best
        self.tried.add((e["id"], sub))
        a = self._ok(player, A.DeclareAttack(self.seat, e["id"], sub))
        return a if a is not None else self._combat(player)

    def _clear_plan(self, player: Player, b: _Board) -> dict[int, tuple[float, list[int]]]:
        """004 [28.13]: any non-Red unit left in Petrograd or Tver at the end of the Game-Turn loses
        it, so there the Red stacks are shared out among the non-Red stacks to make the chance
        that every one of them is eliminated (De or Ex on the CRT, 004 [8.5]) the highest, Lenin
        and Trotsky risked only when that helps.  Enemy stack -> (its chance, the Red stacks)."""
        out: dict[int, tuple[float, list[int]]] = {}
        for prov in TARGETS:
            foes = [e for e in b.enemies if e["province"] == prov and self._declared.get(e["id"], 0) < 3]
            if not foes:
                continue
            mine = [st for st in b.red if st["province"] == prov and st["id"] not in self.used
                    and player.attack_units(st["id"])]
            if not mine:
                continue
            mine.sort(key=lambda st: (-b.strength(st), st["id"]))
            foes.sort(key=lambda e: (-b.defense(e["id"]), e["id"]))
            while (len(foes) + 1) ** len(mine) > 4096 and len(mine) > 1:
                mine.pop()
            ids = [st["id"] for st in mine]
            risky = {st["id"] for st in mine if set(st["units"]) & set(GUARDED)}
            cache: dict[tuple, float] = {}

            def chance(group: tuple, eid: int, cache: dict = cache) -> float:
                if not group:
                    return 0.0
                if (group, eid) not in cache:
                    r = player.odds(list(group), eid, False)["results"]
                    cache[(group, eid)] = (r.get("De", 0) + r.get("Ex", 0)) / 6
                return cache[(group, eid)]

            k = len(foes)
            best = None
            for assign in itertools.product(range(k + 1), repeat=len(ids)):
                groups = [tuple(sorted(x for x, a in zip(ids, assign, strict=True) if a == j)) for j in range(k)]
                ps = [chance(groups[j], foes[j]["id"]) for j in range(k)]
                prob = 1.0
                for q in ps:
                    prob *= q
                if prob <= 0.0:
                    continue
                risk = sum(1 for x, a in zip(ids, assign, strict=True) if a < k and x in risky)
                score = (round(prob, 9), -risk, -sum(1 for a in assign if a < k))
                if best is None or score > best[0]:
                    best = (score, groups, ps)
            if best is None:
                continue
            _, groups, ps = best
            for j, e in enumerate(foes):
                if groups[j]:
                    out[e["id"]] = (ps[j], list(groups[j]))
        return out

    def _resolve(self, player: Player, b: _Board, at: list) -> Action:
        d = b.d
        assigned = getattr(self, "_assigned", None)
        if assigned is not None and assigned[0] == at[0]:
            in_attack = set(self._attack_stacks(player, b, at))
            for sid in assigned[1]:
                if sid not in in_attack and sid not in self.used:
                    a = self._ok(player, A.AddAttacker(self.seat, sid))
                    if a is not None:
                        return a
            self._assigned = None
            for sid in in_attack:
                self.used.add(sid)
            a = self._ok(player, A.ResolveAttack(self.seat))
            if a is not None:
                return a
        target = b.by_id.get(at[0])
        sub = bool(at[1])
        in_attack = set(at[2]) if len(at) > 2 and isinstance(at[2], list) else set()
        odds = player.odds()
        col = odds["column"]
        prov = target["province"] if target else ""
        must = prov in TARGETS and not sub
        goal = 6 if sub else 3
        if (col or 0) < goal:
            adj = d.provinces[prov].adjacent if prov else ()
            cands = []
            for st in b.red:
                if st["id"] in self.used or st["id"] in in_attack:
                    continue
                if (sub and st["province"] not in adj) or (not sub and st["province"] != prov):
                    continue
                guarded = bool(set(st["units"]) & set(GUARDED))
                if guarded and not sub:
                    # Lenin/Trotsky join only a sure elimination (3:1: no Ae on the CRT), or, in
                    # Petrograd/Tver, an attack they lift to a better CRT column
                    trial = player.odds(sorted(in_attack | {st["id"]}), at[0], sub)["column"]
                    if trial is None or (trial < 3 and not (must and (col is None or trial > col))):
                        continue
                a = A.AddAttacker(self.seat, st["id"])
                if player.is_legal(a):
                    cands.append((guarded, -sum(d.units[x].strength for x in player.attack_units(st["id"])), st["id"], a))
            if cands:
                cands.sort(key=lambda c: c[:3])
                return cands[0][3]
        need = 0 if (sub or must) else self.stance.min_col
        involved = self._attack_stacks(player, b, at)
        if not sub and not must and col is not None and col < 3 and any(set(b.by_id[s]["units"]) & set(GUARDED) for s in involved if s in b.by_id):
            need = 99
        if col is not None and col >= need:
            for s in involved:
                self.used.add(s)
            a = self._ok(player, A.ResolveAttack(self.seat))
            if a is not None:
                return a
        return A.CancelAttack(self.seat)

    @staticmethod
    def _attack_stacks(player: Player, b: _Board, at: list) -> list[int]:
        for x in at[1:]:
            if isinstance(x, list):
                return list(x)
        return []

    # -- the look-ahead -----------------------------------------------------------------------------------------
    def _search(self, player: Player) -> Stance:
        """Monte Carlo over :data:`STANCES`: each is played ``rollouts`` times from here to the
        next Red Player-Turn (this Red Player-Turn with the stance, the Replacement Phase, the next
        non-Red Player-Turn) on :meth:`Player.lookahead` copies with dice drawn from this agent's
        own RNG (the same dice for every stance: common random numbers), and scored by
        :func:`evaluate`.  The real game's dice are never seen."""
        t0 = time.perf_counter()
        seeds = [self.rng.getrandbits(63) for _ in range(self.rollouts)]
        totals = {s.name: 0.0 for s in self.stances}
        counts = {s.name: 0 for s in self.stances}
        for seed in seeds:
            for stance in self.stances:
                if self.time_limit is not None and time.perf_counter() - t0 > self.time_limit and all(counts.values()):
                    break
                totals[stance.name] += rollout(player, stance, seed, clear=self.clear, finland=self.finland, fortress=self.fortress)
                counts[stance.name] += 1
        means = {k: totals[k] / counts[k] for k in totals if counts[k]}
        best = max(self.stances, key=lambda s: (means.get(s.name, float("-inf")), -self.stances.index(s)))
        self.search_log.append({"turn": player.view["turn"], "means": {k: round(v, 1) for k, v in means.items()},
                                "chosen": best.name, "seconds": round(time.perf_counter() - t0, 3)})
        return best


def rollout(player: Player, stance: Stance, seed: int, max_steps: int = 2000, **flags: bool) -> float:
    """Play a copy of the game (fresh dice from ``seed``) with ``stance`` until the next Red
    Player-Turn begins (or the game ends); the :func:`evaluate` score."""
    g = player.lookahead(seed)
    p = Player(g, player.seat)
    turn = g.turn
    agent = SPIPlannerAgent(player.seat, seed, rollouts=0, stance=stance, **flags)
    for _ in range(max_steps):
        if g.over:
            break
        v = p.view
        if v["turn"] > turn and v["phase"] != "combat" and not v.get("decision"):
            break
        g.apply(agent.choose(p))
    return evaluate(p)


def evaluate(player: Player) -> float:
    """A Red score of a position: the game's result if it is over, else Lenin and Trotsky alive,
    Red strength and leaders against non-Red strength weighted by how close it stands to
    Petrograd and Tver, and non-Red units already in them (004 [28.13])."""
    r = player.result
    v = player.view
    if r:
        lv = r.get("victory", "")
        if lv == "nonred_decisive":
            return -2000.0 + 100 * v["turn"]
        return 2000.0 if lv.startswith("red") else 1500.0
    b = _Board(player)
    d = b.d
    score = 0.0
    alive = {x for st in b.red for x in st["units"]}
    score += sum(150 for g in GUARDED if g in alive)
    score += 2 * sum(b.strength(st) for st in b.red)
    for f in b.movers():
        n = len(f["ahead"])
        score -= f["str"] * (1 + (6 / (n + 1) if n <= 6 else 0))
    for st in b.enemies:
        if st["province"] in TARGETS:
            near = sum(b.strength(o) for o in b.red if o["province"] == st["province"]
                       or o["province"] in d.provinces[st["province"]].adjacent)
            s = b.strength(st)
            score -= 10 * s + (300 if near < 3 * s else 0)
        elif st["owner"] is None and d.provinces[st["province"]].region in OBJECTIVE_REGIONS:
            score -= 0.5 * b.strength(st)
    return score


RED_AGENTS = ("planner", "planner0", "greedy", "random")


def red_agent(kind: str, seed: int):
    """The agent that plays Red in the solitaire: ``kind`` is one of :data:`RED_AGENTS`, or an
    ``--agents`` name (``sdt``: the planner)."""
    if kind == "random":
        return RandomAgent("R", seed)
    if kind in ("sdt", "planner"):
        return SPIPlannerAgent("R", seed)
    if kind == "planner0":                 # the planner as it was: no share-out, Finnish sentinel or fortress
        return SPIPlannerAgent("R", seed, clear=False, finland=False, fortress=False)
    if kind == "greedy":
        return SPIRedAgent("R", seed)
    raise ValueError(f"no Red agent {kind!r} for the SPI solitaire ({', '.join(RED_AGENTS)}, sdt)")


# -- rcw simulate --mode spi-solitaire ----------------------------------------------------------------------
def _strengths(g) -> dict:
    """Red and non-Red combat strength on the map (leaders' own strength included), the non-Red
    part controlled by the non-Red Player, and the Red leaders lost so far (004 [24.13])."""
    d, v = g.data, g.view(None)                 # (the public view: one colour a stack, 004 [7.13], [13.26])
    red = nonred = ctl = 0
    for st in v["stacks"]:
        for u in st["units"]:
            x = d.units[u]
            if x.is_imperial:
                continue
            if st["color"] == RED:
                red += x.strength
            else:
                nonred += x.strength
                ctl += x.strength if st["owner"] == "N" else 0
    return {"red": red, "nonred": nonred, "nonred_controlled": ctl, "red_leaders_lost": len(v["solitaire"]["red_dead"])}


def play(seed: int, kind: str, max_actions: int = 100_000, evidence: bool = False) -> dict:
    """Play one solitaire game with the ``kind`` agent as Red (through the match loop); returns
    its outcome record.  ``evidence``: also, after each non-Red Player-Turn (when Red's turn
    begins) and at the end, the strengths of :func:`_strengths`; and for a non-Red Decisive
    Victory where the units holding Petrograd/Tver came from (their last move into it)."""
    from rcw.bots.match import Match

    from rcw.modes import new_game

    g = new_game(1, seed, {"mode": MODE})
    m = Match(g, {"R": red_agent(kind, seed)})
    per_turn: dict[str, dict] = {}
    entries: dict[int, dict] = {}              # unit -> its last non-Red move into Petrograd/Tver
    if not evidence:
        steps = m.play(max_actions)
    else:
        steps = 0
        while steps < max_actions:
            v = g.view(None)
            if v["phasing"] == "R" and v["phase"] == "random_events" and str(g.turn) not in per_turn:
                per_turn[str(g.turn)] = _strengths(g)
            step = m.next_step()
            if step is None:
                break
            seat, action, k, _ = step
            before = {st["id"]: list(st["units"]) for st in v["stacks"]}
            ev = g.apply(action)
            m.applied(action, ev, k)
            steps += 1
            for e in ev:
                if e.kind == "nonred_move" and e.data["path"][-1] in TARGETS:
                    path = e.data["path"]
                    rail = all(b in g.data.provinces[a].rail for a, b in zip(path, path[1:], strict=False))
                    for u in before.get(e.data["stack"], []):
                        entries[u] = {"from": path[0], "to": path[-1], "rail": rail, "path": path}
        per_turn["end"] = _strengths(g)
    if not g.over and steps < max_actions:
        raise RuntimeError(f"the solitaire waits on {g.pending!r}")
    r = g.result or {}
    rec = {"seed": seed, "turns": g.turn, "actions": steps, "illegal": m.refused, "finished": g.over,
           "victory": r.get("victory", "unfinished"), "stats": g.stats, "hash": g.state_hash()}
    if evidence:
        rec["per_turn"] = per_turn
        rec["reason"] = r.get("reason", "")
        if rec["victory"] == "nonred_decisive":
            v = g.view(None)
            held = v["solitaire"]["in_targets"]
            src = []
            for prov, us in sorted(held.items()):
                for u in us:
                    e = entries.get(u)
                    if e and e["to"] == prov:
                        src.append({"target": prov, "unit": u, "from": e["from"], "rail": e["rail"]})
                    else:
                        src.append({"target": prov, "unit": u, "from": None, "rail": None})
            rec["holders"] = src
            d = g.data
            rec["held_strength"] = sum(d.units[u].strength for us in held.values() for u in us)
            rec["red_strength_there"] = sum(d.units[u].strength for st in v["stacks"] if st["province"] in held
                                            and st["color"] == RED for u in st["units"] if not d.units[u].is_imperial)
    return rec


def _play_one(job: tuple) -> dict:
    seed, kind, evidence = job
    t0 = time.process_time()
    try:
        return {**play(seed, kind, evidence=evidence), "cpu_seconds": round(time.process_time() - t0, 3)}
    except Exception as e:  # an engine error is a finding, reported in the summary
        return {"seed": seed, "error": f"{type(e).__name__}: {e}",
                "where": traceback.format_exc().strip().splitlines()[-3:]}


def _evidence_summary(recs: list[dict]) -> dict:
    """Per Game-Turn means over the games still going (after that turn's non-Red Player-Turn),
    the sources of the decisive non-Red entries, and the victory conditions."""
    turns: dict[str, dict] = {}
    for r in recs:
        for t, v in r.get("per_turn", {}).items():
            if t == "end":
                continue
            agg = turns.setdefault(t, {"games": 0, "red": 0, "nonred": 0, "nonred_controlled": 0, "red_leaders_lost": 0})
            agg["games"] += 1
            for k in ("red", "nonred", "nonred_controlled", "red_leaders_lost"):
                agg[k] += v[k]
    per_turn = {t: {"games": a["games"], **{k: round(a[k] / a["games"], 2) for k in a if k != "games"}}
                for t, a in sorted(turns.items(), key=lambda x: int(x[0]))}
    src: dict[str, int] = {}
    by_target: dict[str, int] = {}
    games_src: dict[str, int] = {}
    for r in recs:
        if r.get("victory") != "nonred_decisive":
            continue
        seen = set()
        for h in r.get("holders", []):
            key = f"{h['from']}->{h['target']} ({'rail' if h['rail'] else ('overland' if h['rail'] is not None else 'not moved in')})"
            src[key] = src.get(key, 0) + 1
            seen.add(key)
        for k in seen:
            games_src[k] = games_src.get(k, 0) + 1
        tg = "+".join(sorted({h["target"] for h in r.get("holders", [])}))
        by_target[tg] = by_target.get(tg, 0) + 1
    lost = [r for r in recs if r.get("victory") == "nonred_decisive" and "held_strength" in r]
    held = {"games": len(lost),
            "mean_nonred_strength_in_targets": round(sum(r["held_strength"] for r in lost) / len(lost), 2) if lost else 0.0,
            "mean_red_strength_there": round(sum(r["red_strength_there"] for r in lost) / len(lost), 2) if lost else 0.0,
            "games_with_no_red_unit_there": sum(1 for r in lost if r["red_strength_there"] == 0)}
    conds: dict[str, int] = {}
    for r in recs:
        if "victory" in r:
            reason = r.get("reason", "")
            c = r["victory"] + (" (" + reason.split("(")[-1].rstrip(")") + ")" if "(" in reason else "")
            conds[c] = conds.get(c, 0) + 1
    return {"after_nonred_turn": per_turn, "decisive_entry_units": dict(sorted(src.items(), key=lambda x: -x[1])),
            "decisive_entry_games": dict(sorted(games_src.items(), key=lambda x: -x[1])),
            "nonred_decisive_targets": by_target, "at_the_decisive_end": held, "conditions": conds}


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
    red = getattr(args, "red", None) or ""
    evidence = bool(getattr(args, "evidence", False))
    jobs = [(args.seed + i, red or (args.agents if args.agents != "mixed" else ("random", "sdt")[i % 2]), evidence)
            for i in range(args.games)]
    procs = max(1, int(getattr(args, "jobs", 1) or 1))
    if procs > 1:
        import multiprocessing

        pool = multiprocessing.get_context("fork").Pool(procs)
        results = pool.imap(_play_one, jobs)
    else:
        pool, results = None, map(_play_one, jobs)
    recs, cpu = [], []
    for i, rec in enumerate(results):
        if "error" in rec:
            errors.append(rec)
            continue
        recs.append(rec)
        cpu.append(rec["cpu_seconds"])
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
    if pool is not None:
        pool.close()
        pool.join()
    if tty:
        print(file=sys.stderr)
    summary = {
        "mode": MODE, "games": args.games, "agents": args.agents, "red": red or args.agents, "seed": args.seed,
        "completed": completed,
        "illegal_actions": illegal, "engine_errors": len(errors), "errors": errors[:5],
        "victory_levels": victories, "victory_turns": {k: dict(sorted(v.items())) for k, v in by_turn.items()},
        "mean_game_turns": round(sum(turns) / len(turns), 3) if turns else 0.0,
        "stats": stats, "seconds": round(time.perf_counter() - t0, 3),
        "cpu_seconds_per_game": {"mean": round(sum(cpu) / len(cpu), 3) if cpu else 0.0, "max": max(cpu, default=0.0)},
        "red_wins_or_draws": sum(victories[k] for k in VICTORIES if k != "nonred_decisive"),
        "nonred_decisive_turn_1": by_turn["nonred_decisive"].get("1", 0),
        **({"evidence": _evidence_summary(recs)} if evidence else {}),
    }
    if args.json:
        print(json.dumps(summary, indent=2, sort_keys=True))
    else:
        print(f"{completed}/{args.games} SPI solitaire games completed (Red: {red or args.agents} agent, seed {args.seed})")
        print("  victory levels: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in victories.items()))
        print(f"  mean Game-Turns {summary['mean_game_turns']}; illegal actions {illegal}; engine errors {len(errors)}")
        print("  " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in stats.items()))
        print(f"  {summary['seconds']} s")
        for e in errors[:5]:
            print(f"  error (seed {e['seed']}): {e['error']}", file=sys.stderr)
    return 1 if errors else 0
