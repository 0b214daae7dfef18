"""What the engine answers for a seat's prompts: the ``facts`` of state frames, and ``query`` answers.

The browser shows strengths, combat odds, purge and assassination chances and Victory Points;
it computes none of them.  Every number comes from a :class:`rcw.game.Game` query
(``defense``, ``attack_options``, ``odds``, ``purge_odds``, ``leadership``,
``assassination_chance``, ...); this module only chooses which of them a seat needs now
(:func:`seat_facts`, sent with ``welcome``, ``view`` and ``update``) and checks the arguments
of a ``query`` frame before asking the engine (:func:`answer`).  Scores travel in the view
itself (``view.scores``).  See docs/protocol.md, section 3.1.
"""

from __future__ import annotations

from typing import Any

from rcw.server.protocol import ProtocolError, field

from rcw.actions import IllegalAction, action_from_wire
from rcw.game import Game

#: At most this many stacks in one hypothetical attack (``query`` ``odds``).
MAX_STACKS = 64
#: The kinds of ``query`` and what each asks of the engine.
QUERIES = ("odds", "attack_options", "purge_odds", "assassination", "reach", "capacity", "stack", "scores", "check",
           "consents", "leaders_to_stack", "why_illegal")


# -- facts sent with the state frames ---------------------------------------------------------------
def strengths(g: Game, view: dict) -> dict[str, int]:
    """Every stack's combat strength as a defender (004 [8.26]), by stack id (as a string):
    the number on its counter."""
    return {str(st["id"]): g.defense(st["id"]) for st in view["stacks"]}


def purge(g: Game, purgers: list[str], counter: bool = False, target: str | None = None) -> dict:
    """``Game.purge_odds`` (strength, column, the Purge Table rows with their ways out of 36,
    the chances), each purger's share (``leaders``: his Red leaders' values; ``strength``: his
    own Purge Strength) and, given the target, the Red leaders it may lose (004 [11.0], [11.21])."""
    ans = dict(g.purge_odds(purgers, counter))
    ans["counter"] = counter
    ans["purgers"] = [{"seat": p, "leaders": g.leadership(p),
                       "strength": ans["strength"] if len(purgers) == 1 else g.purge_odds([p], counter)["strength"]}
                      for p in purgers]
    if target is not None:
        ans["target"] = target
        ans["spoils"] = g.purgeable_leaders(target)
    return ans


def attack(g: Game, view: dict, legal: list[dict]) -> dict:
    """The attack being declared (004 [8.0]): its odds now; what each attacking stack, and each
    stack that may still join (``AddAttacker``), brings to it; and the odds with each of those."""
    target, subversive, attackers = view["attack"]
    joining = [a["stack"] for a in legal if a["t"] == "AddAttacker"]
    return {"odds": g.odds(),
            "strength": {str(s): g.odds([s], target, subversive)["attack"] for s in [*attackers, *joining]},
            "adding": {str(s): g.odds([*attackers, s], target, subversive) for s in joining}}


def seat_facts(g: Game, view: dict, seat: str | None, legal: list[dict], board: dict[str, int] | None = None) -> dict:
    """What ``seat``'s page needs now besides its view and legal actions (``board``: the
    :func:`strengths`, when the caller has them already):

    - ``strengths``: every stack's defense strength (everyone);
    - ``force``: while a force moves, its Movement Allowance (``allowance``) and why it may go no
      further if it must stop where it is (``stop``: ``Game.force_stop``, 004 [5.27], [5.28]; everyone);
    - ``attack_options``: in the seat's Combat Phase, every attack it may declare, with the groups
      of stacks that may make it together and their odds;
    - ``attack``: while the seat declares an attack, :func:`attack`;
    - ``purge``: the seat's own Purge Strength (``strength``, ``column``, ``leaders``) during the
      Player-Turn series (with ``committee``, ``{members, strength, column}``, the sitting Central
      Committee's together while the seat is one of its members), and ``done: true`` once it has taken part in a purge this Game-Turn
      (004 [11.13]: no other until the next; ``Game.purged``);
    - ``purge_decision``: the purge the seat is asked to approve, or its counterpurge (:func:`purge`);
    - ``loss``: while the seat chooses Exchange losses, the least loss that satisfies it
      (``suggested``: units; :meth:`Game.minimum_loss`).
    """
    out: dict[str, Any] = {"strengths": board if board is not None else strengths(g, view)}
    if view["force"] is not None:
        out["force"] = {"allowance": g.force_allowance(), "stop": g.force_stop()}
    ph = view["phase"]
    if seat is None or ph in ("over", "trading"):
        return out
    d = view["decision"]
    if ph == "combat" and view["phasing"] == seat and d is None:
        if view["attack"] is None:
            out["attack_options"] = g.attack_options(seat)
        else:
            out["attack"] = attack(g, view, legal)
    mine = purge(g, [seat])
    out["purge"] = {"strength": mine["strength"], "column": mine["column"], "leaders": mine["purgers"][0]["leaders"]}
    com = view["committee"]
    if seat in com and len(com) > 1:        # (the Committee's together, for a purge by all its members)
        ours = g.purge_odds(list(com))
        out["purge"]["committee"] = {"members": list(com), "strength": ours["strength"], "column": ours["column"]}
    if seat in g.purged():
        out["purge"]["done"] = True
    if d is not None and d["seat"] == seat:
        if d["kind"] == "purge_approval":
            out["purge_decision"] = purge(g, list(d["purge"]["purgers"]), target=d["purge"]["target"])
        elif d["kind"] == "counterpurge":
            out["purge_decision"] = purge(g, [seat], counter=True)
        elif d["kind"] == "loss":
            out["loss"] = {"suggested": g.minimum_loss(seat)}
    return out


# -- query frames -------------------------------------------------------------------------------
def check(g: Game, seat: str | None, sheet: dict, offers: int | None = None) -> dict:
    """A postal seat's draft sheet judged without sending it (``Game.check_sheet``, 004 [17.0]):
    ``refused`` and ``warnings`` as the engine gives them, and ``orders``, each order's verdict
    (``ok``; a refused one's ``rule`` and ``message``; a kept order's refused ``step``; a kept
    move's ``path``, the provinces it would pass: up to where the engine stops it, ``at``; and
    with ``offers`` (an order's index) that move's ``offers``, what its force may take along and
    where it may go on to, the engine's answer the move plotter shows)."""
    if seat is None:
        raise ProtocolError("not_your_seat", "a spectator has no sheet to check")
    if not hasattr(g, "check_sheet"):
        raise ProtocolError("not_postal", "only a postal game takes order sheets")
    got = g.check_sheet(seat, sheet, offers=False if offers is None else offers)
    offered = got.pop("offers", {})
    refused = {r["index"]: r for r in got["refused"]}
    warned = {w["index"]: w for w in got["warnings"]}
    orders = []
    for i, o in enumerate(sheet.get("orders") or []):
        v: dict = {"index": i, "ok": i not in refused}
        bad = refused.get(i) or warned.get(i)
        if bad is not None:
            v.update(rule=bad.get("rule"), code=bad.get("code"), message=bad.get("message"))
            if i in warned:
                v["step"] = bad.get("step")
        if v["ok"] and isinstance(o, dict) and o.get("order") == "move" and isinstance(o.get("path"), list):
            path = list(o["path"])
            at = (warned.get(i) or {}).get("at")
            v["path"] = path[:path.index(at) + 1] if at in path else [] if at else path
        if i in offered:
            v["offers"] = offered[i]
        orders.append(v)
    return {**got, "orders": orders}


def _seat(g: Game, f: dict, name: str, default: str | None = None) -> str:
    s = field(f, name, str, default)
    if s is None or s not in g.seats:
        raise ProtocolError("bad_request", f"'{name}' must be a seat of this game ({''.join(g.seats)})")
    return s


def _seats(g: Game, f: dict, name: str) -> list[str]:
    ss = field(f, name, list)
    if not ss or len(ss) != len(set(map(str, ss))) or not all(isinstance(s, str) and s in g.seats for s in ss):
        raise ProtocolError("bad_request", f"'{name}' must be a list of different seats of this game")
    return ss


def answer(g: Game, seat: str | None, f: dict) -> Any:
    """The engine's answer to a ``query`` frame ``f`` from ``seat`` (None: a spectator).
    A malformed question, or one the engine refuses (an unknown stack, stacks that may not
    attack together, no attack being declared...), is a ``bad_request`` (with the engine's
    ``rule`` and ``engine_code`` when it refused); a query never changes the game."""
    q = field(f, "q", str)
    try:
        return _answer(g, seat, q, f)
    except IllegalAction as e:
        raise ProtocolError("bad_request", e.message, rule=e.rule, engine_code=e.code) from None


def _answer(g: Game, seat: str | None, q: str, f: dict) -> Any:
    if q == "odds":
        stacks, target = field(f, "stacks", list, None), field(f, "target", int, None)
        subversive = field(f, "subversive", bool, False)
        if stacks is None and target is None:
            return g.odds()
        if stacks is None or target is None:
            raise ProtocolError("bad_request", "'odds' needs both 'stacks' and 'target' (or neither: the attack declared)")
        if (len(stacks) > MAX_STACKS or len(set(stacks)) != len(stacks)
                or not all(isinstance(s, int) and not isinstance(s, bool) for s in stacks)):
            raise ProtocolError("bad_request", f"'stacks' must be a list of at most {MAX_STACKS} different stack ids")
        return g.odds(stacks, target, subversive)
    if q == "attack_options":
        return g.attack_options(_seat(g, f, "seat", seat))
    if q == "purge_odds":
        purgers = _seats(g, f, "purgers")
        target = _seat(g, f, "target") if f.get("target") is not None else None
        return purge(g, purgers, field(f, "counter", bool, False), target)
    if q == "assassination":
        victim, markers = field(f, "victim", int), field(f, "markers", int, 1)
        return {"victim": victim, "markers": markers, "chance": g.assassination_chance(victim, markers),
                "need": g.assassination_need(victim, markers)}
    if q == "reach":
        return dict(g.reach(field(f, "unit", int, None)))
    if q == "capacity":
        return g.capacity(field(f, "leader", int))
    if q == "stack":
        stack = field(f, "stack", int)
        return {"stack": stack, "defense": g.defense(stack), "attack_units": g.attack_units(stack)}
    if q == "scores":
        return g.scores()
    if q == "check":
        return check(g, seat, field(f, "sheet", dict), field(f, "offers", int, None))
    if q == "consents":
        return g.consents_to(_seat(g, f, "seat"), _seats(g, f, "members"))
    if q == "leaders_to_stack":
        return g.leaders_to_stack(_seat(g, f, "seat", seat))
    if q == "why_illegal":
        return why_illegal(g, seat, field(f, "action", dict))
    raise ProtocolError("bad_request", f"unknown query {q[:40]!r} (known: {', '.join(QUERIES)})")


def why_illegal(g: Game, seat: str | None, wire: dict) -> dict | None:
    """Why the engine would refuse ``seat``'s action ``wire`` now (``Game.why_illegal``):
    ``{rule, code, message}``, or None if it would take it (e.g. a dialog saying why a choice it
    shows cannot be made).  Only of the asking seat's own actions."""
    if seat is None:
        raise ProtocolError("not_your_seat", "a spectator has no actions to check")
    a = action_from_wire(wire)            # (not an action: the engine's refusal, a bad_request)
    if a.seat != seat:
        raise ProtocolError("bad_request", f"'why_illegal' checks only this seat's own actions ({seat}'s)")
    why = g.why_illegal(a)
    return None if why is None else {"rule": why.rule, "code": why.code, "message": why.message}
