"""Order sheets (004 [17.0] Procedure): what a player sends the Gamesmaster for one phase, and
the two actions of the postal game.

A sheet is plain data: ``{"orders": [order, ...]}``, each order a map whose ``"order"`` names
its kind.  Units are named by their ids (``view.stacks[].units``), provinces by their codes,
players by their seat letters; a stack is named by any unit in it (stack ids change as stacks
split and merge).  The kinds, the phases they belong to and their fields (a field left out
takes its default) are :data:`KINDS`; ``docs/engine.md`` ("Postal games") gives examples.

:func:`normalize` checks an order's form (kind, phase, field types) and fills in the defaults;
what an order means on the map is judged by the module of its rule (:mod:`rcw.postal.validate`
puts them together when a sheet is submitted).
"""

from __future__ import annotations

from typing import Any, ClassVar

from rcw.actions import Action, IllegalAction, Plain, _action
from rcw.postal.base import GM, MAX_ORDERS, PHASES

FIRST, SECOND, TRADING = "first", "second", "trading"
BOTH = (FIRST, SECOND)
ALL = (TRADING, FIRST, SECOND)

# Field types: how a value is checked.
INT, NAT, POS, BOOL, STR, INTS, STRS, PLACES, OPT_NAT = "int", "nat", "pos", "bool", "str", "ints", "strs", "places", "nat?"

# kind -> (phases, the postal or standard rule case, {field: (type, default)}; a default None: required)
KINDS: dict[str, tuple[tuple[str, ...], str, dict[str, tuple[str, Any]]]] = {
    "trade": (ALL, "004 [17.0] postal [4.2]", {
        "with": (STR, None), "give_leaders": (INTS, []), "give_politburo": (NAT, 0), "give_assassins": (NAT, 0),
        "take_leaders": (INTS, []), "take_politburo": (NAT, 0), "take_assassins": (NAT, 0)}),
    "accept_gifts": (ALL, "004 [17.0] postal [4.2]", {"from": (STRS, [])}),
    "steal": (BOTH, "004 [17.0] postal [13.26]", {"unit": (INT, None), "leader": (INT, None)}),
    "move": ((FIRST,), "004 [17.0] postal [5.0]", {
        "unit": (INT, None), "path": (STRS, []), "rail": (BOOL, False), "join": (INTS, []),
        "pick": (PLACES, {}), "drop": (PLACES, {})}),
    "merge": ((FIRST,), "004 [5.41]", {"unit": (INT, None), "into": (INT, None)}),
    "transfer": ((FIRST,), "004 [13.15]", {"unit": (INT, None), "to": (INT, None)}),
    "emigrate": ((FIRST,), "004 [13.31]", {"unit": (INT, None)}),
    "czech_exit": ((FIRST,), "004 [5.66]", {"unit": (INT, None)}),
    "assassinate": ((FIRST,), "004 [17.0] postal [10.0]", {"victims": (INTS, None), "markers": (POS, 1)}),
    "purge": (BOTH, "004 [17.0] postal [11.0]", {
        "target": (STR, None), "participants": (STRS, None), "markers": (OPT_NAT, None), "shares": (STRS, []),
        "take": (INTS, []), "condition": (STR, "")}),
    "counterpurge": (BOTH, "004 [17.0] postal [11.0]", {"target": (STR, "strongest")}),
    "execute_czar": (BOTH, "004 [17.0] postal [13.5]", {"participants": (STRS, None)}),
    "comply_execution": (BOTH, "004 [17.0] postal [13.5]", {"comply": (BOOL, True)}),
    "redraw": (BOTH, "004 [12.13]", {"redraw": (BOOL, False)}),
    # the game options of 001: where a unit drawn goes, and the bonus draws of a city held
    "place": (BOTH, "001 Optional Forces", {"provinces": (STRS, []), "leaders": (INTS, [])}),
    "draws": ((SECOND,), "001 Additional Randomizer Draws", {"extra": (NAT, 0)}),
    "attack": ((SECOND,), "004 [17.0] postal [8.0]", {
        "target": (INT, None), "attackers": (INTS, None), "subversive": (BOOL, False), "losses": (INTS, [])}),
    "losses": ((SECOND,), "004 [8.44]", {"prefer": (INTS, [])}),
    "capture": ((SECOND,), "004 [13.41]", {"accept": (BOOL, True)}),
    "vote": ((SECOND,), "004 [14.1]", {"end": (BOOL, False)}),
}

#: The order kinds an absent player's stand-in does not write: they give away or spend what is the
#: player's, or bind him to others.  A trade gives or asks; an assassination spends Assassin
#: markers, which pass to the victim's owner when it fails (004 [10.23]); a purge or the Czar's
#: execution joins a Committee's order (postal [11.0], [13.5]), and a purge lays the player open to a
#: counterpurge (004 [11.24]).  (A live game's deadline bot makes no trade offer, Committee
#: consent, purge or execution order for an absent player either, ``Game.settles``; there an
#: assassination is a step of his Movement Phase.)
NOT_FOR_THE_ABSENT = ("trade", "assassinate", "purge", "execute_czar")


def stand_in(sheet: dict) -> dict:
    """``sheet`` as a stand-in writes it for an absent player: its moves, attacks and standing
    orders, without :data:`NOT_FOR_THE_ABSENT`."""
    return dict(sheet, orders=[o for o in sheet.get("orders", []) if o.get("order") not in NOT_FOR_THE_ABSENT])


#: The kinds that matter only in a game with one of these options (001): a sheet's writer is
#: offered them there alone.
OPTION_KINDS: dict[str, tuple[str, ...]] = {"place": ("anarchists", "shock_armies", "freikorps"),
                                            "draws": ("additional_draws",)}


def open_kinds(phase: str, options: dict, purged: bool) -> list[str]:
    """The order kinds a sheet of ``phase`` is offered (what the browser's cards follow): those
    of the phase (:data:`KINDS`), 001's only in a game with their option (:data:`OPTION_KINDS`),
    and no purge in a Second Phase after one in the First (``purged``, postal [4.2]: the
    Second Phase's purge step is for a Game-Turn with none in the First)."""
    return [k for k, (phases, _, _) in KINDS.items()
            if phase in phases and (k not in OPTION_KINDS or any(options.get(o) for o in OPTION_KINDS[k]))
            and not (k == "purge" and phase == SECOND and purged)]


def _bad(msg: str, rule: str = "004 [17.0]") -> IllegalAction:
    return IllegalAction(rule, msg, "bad_order")


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _value(name: str, kind: str, v: Any) -> Any:
    if kind in (INT, NAT, POS, OPT_NAT):
        if kind == OPT_NAT and v is None:
            return None
        if not _is_int(v):
            raise _bad(f"{name} must be a whole number")
        if kind in (NAT, OPT_NAT) and v < 0 or kind == POS and v < 1:
            raise _bad(f"{name} must be {'1' if kind == POS else '0'} or more")
        return v
    if kind == BOOL:
        if not isinstance(v, bool):
            raise _bad(f"{name} must be true or false")
        return v
    if kind == STR:
        if not isinstance(v, str):
            raise _bad(f"{name} must be a string")
        return v
    if kind in (INTS, STRS):
        if not isinstance(v, list):
            raise _bad(f"{name} must be a list")
        ok = _is_int if kind == INTS else (lambda x: isinstance(x, str))
        if not all(ok(x) for x in v):
            raise _bad(f"{name} must list {'unit ids' if kind == INTS else 'strings'}")
        return list(v)
    # PLACES: {province: [unit id, or [unit id, leader id], ...]}
    def entry(u: Any) -> bool:
        return _is_int(u) or (name == "pick" and isinstance(u, list) and len(u) == 2 and all(_is_int(x) for x in u))

    if not isinstance(v, dict) or not all(isinstance(x, list) and all(entry(u) for u in x) for x in v.values()):
        raise _bad(f"{name} must map provinces to lists of unit ids"
                   + (" (or [unit, leader] pairs)" if name == "pick" else ""))
    return {k: [list(u) if isinstance(u, list) else u for u in x] for k, x in v.items()}


def normalize(order: Any, phase: str) -> dict:
    """The order with every field of its kind (defaults filled in), or :class:`IllegalAction`
    (code ``bad_order``) saying what is wrong with its form."""
    if not isinstance(order, dict):
        raise _bad("an order is a map with an \"order\" field naming its kind")
    kind = order.get("order")
    if kind not in KINDS:
        raise _bad(f"unknown order kind {kind!r} (known: {', '.join(KINDS)})")
    phases, rule, fields = KINDS[kind]
    if phase not in phases:
        where = " or ".join(f"the {p} phase" if p == TRADING else f"the {p.title()} Phase" for p in phases)
        raise _bad(f"{kind} orders belong to {where}, not this one", "004 [17.0] postal [4.2]")
    extra = sorted(set(order) - set(fields) - {"order"})
    if extra:
        raise _bad(f"{kind} orders have no field {extra[0]!r} (fields: {', '.join(fields) or 'none'})")
    out: dict[str, Any] = {"order": kind}
    for name, (ftype, default) in fields.items():
        if name in order:
            out[name] = _value(name, ftype, order[name])
        elif default is None and ftype != OPT_NAT:
            raise _bad(f"a {kind} order needs {name!r}")
        else:
            out[name] = list(default) if isinstance(default, list) else dict(default) if isinstance(default, dict) \
                else default
    return out


def orders_of(sheet: Any) -> list:
    """The raw orders of a sheet (``{"orders": [...]}``), or :class:`IllegalAction` for a sheet
    that is not one (the whole submission is then refused)."""
    if not isinstance(sheet, dict) or set(sheet) - {"orders"}:
        raise IllegalAction("004 [17.0]", 'a sheet is a map {"orders": [order, ...]}', "bad_request")
    orders = sheet.get("orders", [])
    if not isinstance(orders, list):
        raise IllegalAction("004 [17.0]", "a sheet's orders are a list", "bad_request")
    if len(orders) > MAX_ORDERS:
        raise IllegalAction("004 [17.0]", f"at most {MAX_ORDERS} orders on one sheet", "bad_request")
    return orders


def of_kind(sheet: list, *kinds: str) -> list[tuple[int, dict]]:
    """The (index, order) pairs of a stored sheet of the given kinds, in the listed order."""
    return [(i, o) for i, o in sheet if o["order"] in kinds]


def standing(sheet: list, kind: str) -> dict | None:
    """The first order of ``kind`` on a stored sheet (a standing or conditional order), or None."""
    return next((o for _, o in sheet if o["order"] == kind), None)


# -- the actions --------------------------------------------------------------------------------------
@_action
class SubmitOrders(Action):
    """004 [17.0] Procedure: send the Gamesmaster one's orders for the phase being collected
    (``turn`` and ``phase`` name it: ``trading``, the pre-season trades of postal [15.0]; ``first``
    or ``second``, the First and Second Phases of postal [4.2]).  A seat may send a new sheet,
    which replaces its last one, until the phase is adjudicated: when every active seat has
    sent one, or when the Gamesmaster closes it (:class:`ClosePhase`).  Each order is judged
    when the sheet arrives: one the rules refuse is left out (the seat's view lists it, with
    its rule case, under ``postal.rejected``) and the rest of the sheet kept."""
    turn: int = 0
    phase: str = ""
    sheet: Plain = Plain()
    FIELDS: ClassVar[dict[str, str]] = {"turn": "the Game-Turn of the phase (`view.turn`)",
                                        "phase": "the phase: `trading`, `first` or `second` (`view.postal.phase`)",
                                        "sheet": 'the order sheet, `{"orders": [...]}` (docs/engine.md, "Postal games")'}
    EXAMPLE: ClassVar[dict[str, Any]] = {"turn": 1, "phase": "first", "sheet": {"orders": [
        {"order": "move", "unit": 151, "path": ["PSKO", "LIVO"]}]}}
    LISTED: ClassVar[str] = "one: the empty sheet (no orders); any sheet may be sent"

    def __post_init__(self) -> None:
        if not isinstance(self.sheet, Plain):
            object.__setattr__(self, "sheet", Plain(self.sheet))


@_action
class ClosePhase(Action):
    """004 [17.0] Procedure ("on or before a pre-arranged date, all orders ... must have been
    received by the Gamesmaster"): the Gamesmaster (seat ``GM``; a server at the phase's
    deadline) closes the phase and it is adjudicated at once.  ``sheets`` may give a sheet for
    seats that have sent none (``{seat: sheet}``); the others have no orders."""
    turn: int = 0
    phase: str = ""
    sheets: Plain = Plain()
    FIELDS: ClassVar[dict[str, str]] = {"turn": "the Game-Turn of the phase", "phase": "the phase closed",
                                        "sheets": "sheets for seats that sent none, `{seat: sheet}`"}
    EXAMPLE: ClassVar[dict[str, Any]] = {"turn": 1, "phase": "first", "sheets": {}}
    LISTED: ClassVar[str] = "one, to seat GM only: closing with no sheets given"

    def __post_init__(self) -> None:
        if not isinstance(self.sheets, Plain):
            object.__setattr__(self, "sheets", Plain(self.sheets))


def check_phase(s, turn: int, phase: str) -> None:
    """The phase an action names must be the one open (a late sheet is refused)."""
    if s.phase == "over":
        raise IllegalAction("004 [14.1]", "the game is over", "game_over")
    if phase not in PHASES:
        raise IllegalAction("004 [17.0] postal [4.2]", f"no phase {phase!r} (trading, first, second)", "bad_request")
    if phase != s.postal.get("phase") or turn != s.turn:
        raise IllegalAction("004 [17.0] postal [4.2]", f"orders are being collected for {s.postal.get('phase')} of "
                            f"Game-Turn {s.turn}, not {phase} of Game-Turn {turn}", "wrong_phase")


__all__ = ["ALL", "BOTH", "FIRST", "GM", "KINDS", "SECOND", "TRADING", "ClosePhase", "SubmitOrders", "check_phase",
           "normalize", "of_kind", "orders_of", "standing"]
