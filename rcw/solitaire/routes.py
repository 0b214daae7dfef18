"""004 [21.13], [21.2]: the non-Red forces' target provinces and paths.

Every non-Red force is given, at the start (004 [21.24]), the province of Petrograd and Tver
that is fewer rail-connected provinces away (004 [21.13]) and a shortest rail path to it; from
a province with no rail line, first the fewest provinces overland to a rail province that
leads to either (004 [21.21]).  Equal paths are chosen by a die (004 [21.22]).

Readings where the rules are silent or ambiguous:

* 004 [21.13], [21.24] give every non-Red *force* a target and path at the start; forces
  later merge and split (004 [22.1]).  We store the path per unit (``State.solo["routes"]``):
  a stack follows the path of its first (lowest Identity Code) leader, or of its first unit if
  it has no leader, and all its units adopt that path.  A unit found off its path (a Green
  unit released by a Red Gold holder, a replaced Polish unit) gets a fresh shortest path to
  the same target.
* 004 [21.22] "determine at random by the roll of a die": see :func:`rcw.solitaire.base.pick`.
  A tie between Tver and Petrograd themselves is broken the same way.
"""

from __future__ import annotations

from collections import deque

from rcw.actions import Event
from rcw.data import GameData
from rcw.rules.base import Ctx
from rcw.solitaire.base import NONRED, TARGETS, force_name, pick
from rcw.state import Stack

_DIST: dict[tuple[int, str], tuple[object, dict[str, int]]] = {}


def rail_distances(d: GameData, target: str) -> dict[str, int]:
    """Fewest rail-connected provinces from every province to ``target`` (rail links only)."""
    key = (id(d), target)
    if key not in _DIST or _DIST[key][0] is not d:
        dist = {target: 0}
        q = deque([target])
        while q:
            x = q.popleft()
            for y in sorted(d.provinces[x].rail):
                if y not in dist:
                    dist[y] = dist[x] + 1
                    q.append(y)
        _DIST[key] = (d, dist)
    return _DIST[key][1]


def all_shortest(d: GameData, start: str, target: str, dist: dict[str, int]) -> list[list[str]]:
    """Every shortest rail path from ``start`` to ``target`` (``dist``: :func:`rail_distances`)."""
    out: list[list[str]] = []

    def walk(p: str, path: list[str]) -> None:
        if p == target:
            out.append(path)
            return
        for n in sorted(d.provinces[p].rail):
            if dist.get(n, -1) == dist[p] - 1:
                walk(n, path + [n])

    walk(start, [start])
    return out


def shortest_routes(d: GameData, start: str) -> list[list[str]]:
    """Every path a non-Red force in ``start`` may be given (004 [21.13]): the shortest paths
    along rail lines to whichever of Petrograd and Tver is nearer (both when equally near).
    From a province with no rail line, first the fewest provinces overland to a rail province
    leading to either, then the rail path from there (004 [21.21])."""
    if start in TARGETS:
        return [[start]]
    dists = {t: rail_distances(d, t) for t in TARGETS}
    if d.provinces[start].rail and any(start in dists[t] for t in TARGETS):
        best = min(dists[t].get(start, 10**9) for t in TARGETS)
        out: list[list[str]] = []
        for t in TARGETS:
            if dists[t].get(start) == best:
                out += all_shortest(d, start, t, dists[t])
        return out
    # 004 [21.21]: overland to the nearest rail province that leads to a target
    prev: dict[str, list[str]] = {start: []}
    frontier, found = [start], []
    while frontier and not found:
        nxt: dict[str, list[str]] = {}
        for p in frontier:
            for n in sorted(d.provinces[p].adjacent):
                if n not in prev:
                    nxt.setdefault(n, []).append(p)
        prev.update(nxt)
        frontier = sorted(nxt)
        found = [p for p in frontier if d.provinces[p].rail and any(p in dists[t] for t in TARGETS)]
    if not found:
        return []

    def back(p: str) -> list[list[str]]:
        if p == start:
            return [[start]]
        return [path + [p] for q in prev[p] for path in back(q)]

    combos = [head[:-1] + tail for r in found for head in back(r) for tail in shortest_routes(d, r)]
    best = min(len(c) for c in combos)
    return [c for c in combos if len(c) == best]


def route_of(ctx: Ctx, uid: int) -> list[str] | None:
    """The path stored for unit ``uid`` (a copy), or None."""
    r = ctx.s.solo["routes"].get(uid)
    return list(r) if r else None


def set_route(ctx: Ctx, units: list[int], route: list[str]) -> None:
    """Give ``units`` the path ``route`` (Imperial units have none)."""
    for u in units:
        if not ctx.data.units[u].is_imperial:
            ctx.s.solo["routes"][u] = list(route)


def route_unit(ctx: Ctx, st: Stack) -> int | None:
    """The unit whose path a stack follows: its first leader, else its first unit."""
    leaders = sorted(ctx.b.leaders_of(st))
    if leaders:
        return leaders[0]
    f = ctx.b.fighting_units(st)
    return f[0] if f else None


def assign_route(ctx: Ctx, st: Stack, setup: bool = False, target: str | None = None) -> list[Event]:
    """Give a force its target province and path (004 [21.13], [21.22]); ``target`` keeps the
    target already chosen (004 [21.24])."""
    d = ctx.data
    routes = shortest_routes(d, st.province)
    if target:
        keep = [r for r in routes if r[-1] == target]
        if not keep:
            dist = rail_distances(d, target)
            if st.province in dist:
                keep = all_shortest(d, st.province, target, dist)
        routes = keep or routes
    if not routes:
        return []
    i = pick(ctx, len(routes))
    route = routes[i]
    set_route(ctx, ctx.b.fighting_units(st), route)
    tie = f" (one of {len(routes)} equally short paths, chosen by die, 004 [21.22])" if len(routes) > 1 else ""
    who = force_name(ctx, st)
    text = (f"Target province of {who} in {st.province}: {d.provinces[route[-1]].name}, by "
            f"{'-'.join(route)}{tie} (004 [21.13])")
    return [Event("nonred_target", text, {"stack": st.id, "route": route, "setup": setup, "seat": NONRED})]


def remaining_route(ctx: Ctx, st: Stack) -> list[str]:
    """The provinces a non-Red stack still has to go through to its target (its current province
    excluded)."""
    lead = route_unit(ctx, st)
    route = route_of(ctx, lead) if lead else None
    if not route or st.province not in route:
        return []
    return route[route.index(st.province) + 1:]
