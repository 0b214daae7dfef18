"""Every player decision as a small frozen dataclass, and the events the engine reports.

Actions and events round-trip through msgpack as maps ``{"t": "<type>", ...fields}``
(:func:`to_wire`, :func:`action_from_wire`).  Every action names the seat (player letter)
that takes it; acting for another seat is refused.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, get_args, get_origin, get_type_hints


class IllegalAction(Exception):
    """An action the rules do not allow now.  ``rule`` names the rule case broken
    (e.g. ``004 [5.27]``); the game is unchanged."""

    def __init__(self, rule: str, message: str, code: str = "illegal_action") -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message
        self.code = code

    def __reduce__(self):
        """Pickled whole (a replay in a worker process raises it to the server's)."""
        return type(self), (self.rule, self.message, self.code)


class Plain:
    """Immutable plain data (maps with string keys, lists, strings, integers, booleans, null)
    for an action field that carries a document, such as a postal order sheet (004 [17.0]):
    compared and hashed by its canonical JSON, sent on the wire as the data itself.  ``data``
    is a fresh copy each time it is read."""

    __slots__ = ("_data", "_key")
    WIRE = "map"
    LIMIT = 65536          # characters of canonical JSON: a bigger document is refused

    def __init__(self, data: Any = None) -> None:
        if isinstance(data, Plain):
            data = data._data
        data = {} if data is None else data
        _plain_check(data, 0)
        key = json.dumps(data, sort_keys=True, separators=(",", ":"))
        if len(key) > self.LIMIT:
            raise IllegalAction("protocol", f"the document is too large ({len(key)} characters; at most {self.LIMIT})",
                                "bad_action")
        self._data = json.loads(key)
        self._key = key

    @property
    def data(self) -> Any:
        return json.loads(self._key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Plain) and other._key == self._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __repr__(self) -> str:
        return f"Plain({self._key})"


def _plain_check(x: Any, depth: int) -> None:
    if depth > 12:
        raise IllegalAction("protocol", "the document is nested too deeply", "bad_action")
    if isinstance(x, dict):
        for k, v in x.items():
            if not isinstance(k, str):
                raise IllegalAction("protocol", f"map keys must be strings, not {k!r}", "bad_action")
            _plain_check(v, depth + 1)
    elif isinstance(x, (list, tuple)):
        for v in x:
            _plain_check(v, depth + 1)
    elif not (x is None or isinstance(x, (str, bool, int))):
        raise IllegalAction("protocol", f"only maps, lists, strings, integers, booleans and null: not {type(x).__name__}",
                            "bad_action")


@dataclass(frozen=True)
class Action:
    """Every action names the seat that takes it (``seat``).  A subclass says, for its wire
    description (:func:`describe_actions`): what each of its other fields means (``FIELDS``),
    example values of them (``EXAMPLE``), and, if ``legal_actions`` does not list every legal
    action of the type (a parametric action: any value passing the checks may be sent), which
    ones it lists (``LISTED``)."""
    seat: str
    TYPE: ClassVar[str] = ""
    FIELDS: ClassVar[dict[str, str]] = {}
    EXAMPLE: ClassVar[dict[str, Any]] = {}
    LISTED: ClassVar[str] = ""


_REGISTRY: dict[str, type[Action]] = {}


def _action(cls):
    cls = dataclass(frozen=True)(cls)
    cls.TYPE = cls.__name__
    _REGISTRY[cls.__name__] = cls
    return cls


# -- pre-game trading (004 [15.33]) and marker trades (004 [10.0], [11.0]) -------------
@_action
class OfferTrade(Action):
    """Offer another player a trade (004 [15.33]): leaders dealt to the two players during the
    pre-game trading session, Politburo and Assassin Markers at any time.  It stays open until
    its addressee accepts or declines it or its author withdraws it."""
    to: str = ""
    give_leaders: tuple[int, ...] = ()
    give_politburo: int = 0
    give_assassins: int = 0
    take_leaders: tuple[int, ...] = ()
    take_politburo: int = 0
    take_assassins: int = 0
    FIELDS: ClassVar[dict[str, str]] = {
        "to": "the seat the offer is made to",
        "give_leaders": "leaders (unit ids from `view.hands`) the offerer gives; pre-game only",
        "give_politburo": "Politburo Markers the offerer gives",
        "give_assassins": "Assassin Markers the offerer gives",
        "take_leaders": "leaders of the other seat's hand the offerer asks for; pre-game only",
        "take_politburo": "Politburo Markers the offerer asks for",
        "take_assassins": "Assassin Markers the offerer asks for",
    }
    EXAMPLE: ClassVar[dict[str, Any]] = {"to": "B", "give_leaders": [152], "take_politburo": 1}
    LISTED: ClassVar[str] = "never: any offer passing the checks may be made"


@_action
class AcceptTrade(Action):
    """Accept a trade offered to this seat; the goods change hands (004 [15.33])."""
    offer: int = 0
    FIELDS: ClassVar[dict[str, str]] = {"offer": "the offer's id (`view.offers[].id`)"}
    EXAMPLE: ClassVar[dict[str, Any]] = {"offer": 1}


@_action
class DeclineTrade(Action):
    """Decline a trade offered to this seat (004 [15.33])."""
    offer: int = 0
    FIELDS: ClassVar[dict[str, str]] = {"offer": "the offer's id (`view.offers[].id`)"}
    EXAMPLE: ClassVar[dict[str, Any]] = {"offer": 1}


@_action
class WithdrawTrade(Action):
    """Withdraw one's own open trade offer (004 [15.33])."""
    offer: int = 0
    FIELDS: ClassVar[dict[str, str]] = {"offer": "the offer's id (`view.offers[].id`)"}
    EXAMPLE: ClassVar[dict[str, Any]] = {"offer": 1}


@_action
class EndTrading(Action):
    """Agree that the pre-game trading session is over (004 [15.33])."""


# -- the Player-Turn ------------------------------------------------------------------
@_action
class RollRandomEvents(Action):
    """004 [12.0]: roll one die twice on the Random Events Table."""


@_action
class StartForce(Action):
    """Pick up a force to move (004 [5.11]): a leader (with what is attached to it) or a
    Blue/Green stack (004 [5.6], [5.7])."""
    unit: int = 0
    FIELDS: ClassVar[dict[str, str]] = {
        "unit": "the leader's unit id, or the top unit of a Blue/Green stack (`view.stacks[].units`)"}
    EXAMPLE: ClassVar[dict[str, Any]] = {"unit": 152}


@_action
class JoinForce(Action):
    """Another leader of the same province joins the force before it moves (004 [5.26])."""
    leader: int = 0
    FIELDS: ClassVar[dict[str, str]] = {"leader": "the joining leader's unit id"}
    EXAMPLE: ClassVar[dict[str, Any]] = {"leader": 158}


@_action
class Attach(Action):
    """Attach a combat or Imperial unit in the force's province (004 [5.13], [13.14])."""
    unit: int = 0
    leader: int = 0
    FIELDS: ClassVar[dict[str, str]] = {"unit": "the unit attached",
                                        "leader": "the force's leader who takes it (0: a Blue/Green force)"}
    EXAMPLE: ClassVar[dict[str, Any]] = {"unit": 101, "leader": 152}


@_action
class Detach(Action):
    """Drop a unit (or a leader with its attached units) in the force's province (004 [5.13])."""
    unit: int = 0
    FIELDS: ClassVar[dict[str, str]] = {"unit": "the unit (or leader) dropped"}
    EXAMPLE: ClassVar[dict[str, Any]] = {"unit": 101}


@_action
class Move(Action):
    """Move the force one province, overland (1 MP) or by rail (004 [5.5])."""
    to: str = ""
    rail: bool = False
    FIELDS: ClassVar[dict[str, str]] = {"to": "the province entered (its code, `data.json` provinces)",
                                        "rail": "by rail (004 [5.5]) rather than overland"}
    EXAMPLE: ClassVar[dict[str, Any]] = {"to": "NOVG", "rail": True}


@_action
class EndForce(Action):
    """Stop moving the force picked up (004 [5.1]); another may be picked up next."""


@_action
class Merge(Action):
    """Stack two of one's stacks in the same province together (004 [5.41], [7.0])."""
    stack: int = 0
    into: int = 0
    FIELDS: ClassVar[dict[str, str]] = {"stack": "the stack whose units move (`view.stacks[].id`)",
                                        "into": "the stack they join, in the same province"}
    EXAMPLE: ClassVar[dict[str, Any]] = {"stack": 12, "into": 7}


@_action
class TransferImperial(Action):
    """004 [13.15]: move an Imperial unit between two of one's forces in one region."""
    unit: int = 0
    to_stack: int = 0
    leader: int = 0
    FIELDS: ClassVar[dict[str, str]] = {"unit": "the Czar or the Gold (their unit ids)",
                                        "to_stack": "the receiving stack",
                                        "leader": "the receiving stack's leader who takes it (0: a Blue/Green stack)"}
    EXAMPLE: ClassVar[dict[str, Any]] = {"unit": 502, "to_stack": 31, "leader": 253}


@_action
class Emigrate(Action):
    """004 [13.3]: remove an Imperial unit from a port for Victory Points."""
    unit: int = 0
    FIELDS: ClassVar[dict[str, str]] = {"unit": "the Czar or the Gold"}
    EXAMPLE: ClassVar[dict[str, Any]] = {"unit": 501}


@_action
class CzechExit(Action):
    """004 [5.66]: a Czech unit leaves the map from Vladivostok."""
    unit: int = 0
    FIELDS: ClassVar[dict[str, str]] = {"unit": "the Czech unit"}
    EXAMPLE: ClassVar[dict[str, Any]] = {"unit": 306}


@_action
class Evacuate(Action):
    """The critique's historical suggestion "Evacuation" (004, DeBaun; the option ``evacuation``):
    in his Movement Phase a player evacuates White units he controls from a port, as Imperial
    units emigrate (004 [13.3]): a White leader (with the White combat units attached to him) or
    a White combat unit leaves the game for good, scoring nothing and never replaced (004 [9.0])."""
    unit: int = 0
    FIELDS: ClassVar[dict[str, str]] = {"unit": "a White leader (his attached White combat units go with him) or a White combat unit, in a port"}
    EXAMPLE: ClassVar[dict[str, Any]] = {"unit": 251}


@_action
class EndMovement(Action):
    """End the Movement Phase (004 [4.2] A.2); the Combat Phase follows."""


@_action
class DeclareAttack(Action):
    """Declare an attack on an Enemy stack in a province where the Phasing Player has units
    (004 [8.2]), or a Subversive Attack on a Blue stack next to Red units (004 [8.3])."""
    target: int = 0
    subversive: bool = False
    FIELDS: ClassVar[dict[str, str]] = {"target": "the stack attacked (`view.stacks[].id`)",
                                        "subversive": "a Subversive Attack (004 [8.3])"}
    EXAMPLE: ClassVar[dict[str, Any]] = {"target": 44, "subversive": False}


@_action
class AddAttacker(Action):
    """Add one of one's stacks to the attack being declared (004 [8.22], [8.27])."""
    stack: int = 0
    FIELDS: ClassVar[dict[str, str]] = {"stack": "the attacking stack"}
    EXAMPLE: ClassVar[dict[str, Any]] = {"stack": 12}


@_action
class RemoveAttacker(Action):
    """Take a stack out of the attack being declared (attacking is voluntary, 004 [8.24])."""
    stack: int = 0
    FIELDS: ClassVar[dict[str, str]] = {"stack": "the stack taken out"}
    EXAMPLE: ClassVar[dict[str, Any]] = {"stack": 12}


@_action
class ResolveAttack(Action):
    """Roll the die for the attack declared and apply the Combat Results Table (004 [8.4], [8.5])."""


@_action
class CancelAttack(Action):
    """Give up the attack being declared (attacking is voluntary, 004 [8.24])."""


@_action
class ChooseLoss(Action):
    """004 [8.44]: the owner picks which unit to lose to an Exchange."""
    unit: int = 0
    FIELDS: ClassVar[dict[str, str]] = {"unit": "the unit lost"}
    EXAMPLE: ClassVar[dict[str, Any]] = {"unit": 101}


@_action
class CaptureImperial(Action):
    """004 [13.41]: attach an Imperial unit whose stack was wiped out."""
    unit: int = 0
    stack: int = 0
    leader: int = 0
    FIELDS: ClassVar[dict[str, str]] = {"unit": "the Czar or the Gold",
                                        "stack": "one's stack that fought and takes it",
                                        "leader": "that stack's leader who takes it (0: a Blue/Green stack)"}
    EXAMPLE: ClassVar[dict[str, Any]] = {"unit": 501, "stack": 12, "leader": 152}


@_action
class DeclineCapture(Action):
    """Leave the Imperial units of a wiped-out stack where they are (capture is a choice, 004 [13.41])."""


@_action
class EndCombat(Action):
    """End the Combat Phase (004 [4.2] A.3); the Randomizer Phase follows."""


@_action
class DrawRandomizer(Action):
    """004 [4.2] A.4: pick one chit from the Auxiliary Forces Randomizer."""


@_action
class EndPlayerTurn(Action):
    """End one's Player-Turn after the Randomizer draw (004 [4.2] A.4).  Offered only when the
    drawer may still do something in his own Player-Turn (an assassination, 004 [10.0]);
    otherwise the draw ends the Player-Turn at once."""


@_action
class RedrawChit(Action):
    """004 [12.13]: the drawer of the Control Marker of a Blue force withdrawn or totally
    eliminated, or of the Withdrawal Marker of a force totally eliminated, "may immediately draw
    again": keep the marker (``redraw`` false) or set it aside and draw another chit (true)."""
    redraw: bool = False
    FIELDS: ClassVar[dict[str, str]] = {"redraw": "draw another chit (false: keep the marker drawn)"}
    EXAMPLE: ClassVar[dict[str, Any]] = {"redraw": True}


@_action
class PlaceUnit(Action):
    """The optional forces of 001: place the unit just drawn from the Auxiliary Forces Randomizer
    (004 [12.13]): a small Anarchist unit in any Russian province (001 Anarchists), a Shock Army
    with a leader of its colour (001 Shock Armies), the Freikorps on a die roll of 6 in one of
    its five provinces (001 Freikorps).  The ``place`` decision (``view.decision``) lists the
    provinces or leaders allowed."""
    province: str = ""
    leader: int = 0
    FIELDS: ClassVar[dict[str, str]] = {
        "province": "the province it is placed in (one of `view.decision.provinces`; empty when placed with a leader)",
        "leader": "the leader it is placed with (one of `view.decision.leaders`; 0 when placed in a province)"}
    EXAMPLE: ClassVar[dict[str, Any]] = {"province": "KIEV", "leader": 0}


@_action
class VoteEndGame(Action):
    """004 [14.1] case 3: agree (or not) to end the game in a Red Victory."""
    yes: bool = False
    FIELDS: ClassVar[dict[str, str]] = {"yes": "to end the game now"}
    EXAMPLE: ClassVar[dict[str, Any]] = {"yes": True}


@_action
class Quit(Action):
    """004 [14.2]: leave the game."""


# -- politics (004 [10.0], [11.0], [13.5]) --------------------------------------------
@_action
class Assassinate(Action):
    """004 [10.0]: attempt to assassinate a leader in a province where one has a leader,
    employing Assassin Markers (004 [10.16])."""
    victim: int = 0
    markers: int = 1
    FIELDS: ClassVar[dict[str, str]] = {"victim": "the leader's unit id",
                                        "markers": "Assassin Markers employed (at least 1)"}
    EXAMPLE: ClassVar[dict[str, Any]] = {"victim": 253, "markers": 2}


@_action
class JoinCommittee(Action):
    """Consent to a Central Committee of exactly these members (004 [11.11])."""
    members: tuple[str, ...] = ()
    FIELDS: ClassVar[dict[str, str]] = {"members": "the seats of the Committee, this one included"}
    EXAMPLE: ClassVar[dict[str, Any]] = {"members": ["A", "C"]}
    LISTED: ClassVar[str] = ("some: the Committees other seats proposed that include this one, and this seat "
                             "alone when it holds enough markers; any other may be proposed")


@_action
class LeaveCommittee(Action):
    """004 [11.12]: withdraw from the Central Committee."""


@_action
class DeclarePurge(Action):
    """004 [11.0]: purge a non-member.  ``purgers`` is one member (individual purge) or the
    whole Committee; ``shares`` is the agreed order of division (004 [11.23]): the k-th
    purged point goes to ``shares[k % len(shares)]``, so a list of the members divides the
    points as equally as possible in that order.  ``condition`` exists only to be refused:
    conditional purge orders are not allowed (004 [17.0] postal [11.0], The Bell #3)."""
    target: str = ""
    purgers: tuple[str, ...] = ()
    shares: tuple[str, ...] = ()
    condition: str = ""
    FIELDS: ClassVar[dict[str, str]] = {"target": "the seat purged (not a Committee member)",
                                        "purgers": "this seat alone, or every Committee member",
                                        "shares": "the order in which purged points are divided (004 [11.23])",
                                        "condition": "always empty: conditional purge orders are refused"}
    EXAMPLE: ClassVar[dict[str, Any]] = {"target": "B", "purgers": ["A", "C"], "shares": ["C", "A"]}
    LISTED: ClassVar[str] = ("some: each target purged by this seat alone and by the whole Committee dividing in "
                             "turn order; any other order of division may be declared")


@_action
class PassPurge(Action):
    """When another member has declared an individual purge, declare none of one's own
    (004 [11.0] Procedure: individual purges are resolved together, in turn order)."""


@_action
class ApprovePurge(Action):
    """A Committee member's consent to a group purge as declared (004 [11.23])."""
    approve: bool = True
    FIELDS: ClassVar[dict[str, str]] = {"approve": "consent (false: refuse, and the purge is not made)"}
    EXAMPLE: ClassVar[dict[str, Any]] = {"approve": True}


@_action
class TakeSpoil(Action):
    """Take a Red leader (``leader``) or a Politburo marker (``leader`` = 0) from a purge
    (004 [11.21], [11.22])."""
    leader: int = 0
    FIELDS: ClassVar[dict[str, str]] = {"leader": "the purged seat's Red leader taken (0: a Politburo Marker)"}
    EXAMPLE: ClassVar[dict[str, Any]] = {"leader": 171}


@_action
class EndSpoils(Action):
    """Take nothing more from a purge (004 [11.21]: the purged points need not all be taken)."""


@_action
class Counterpurge(Action):
    """004 [11.24]: counterpurge one purger, or decline with ``target`` = ''."""
    target: str = ""
    FIELDS: ClassVar[dict[str, str]] = {"target": "the purger counterpurged ('': none)"}
    EXAMPLE: ClassVar[dict[str, Any]] = {"target": "C"}


@_action
class OrderExecution(Action):
    """004 [13.5]: propose (or, when asked, consent to: ``consent``) an order to execute the Czar."""
    consent: bool = True
    FIELDS: ClassVar[dict[str, str]] = {"consent": "when asked: consent (false: refuse)"}
    EXAMPLE: ClassVar[dict[str, Any]] = {"consent": True}


@_action
class AnswerExecution(Action):
    """004 [13.54]: the Czar's holder complies or refuses."""
    comply: bool = False
    FIELDS: ClassVar[dict[str, str]] = {"comply": "execute the Czar (false: refuse)"}
    EXAMPLE: ClassVar[dict[str, Any]] = {"comply": True}


# -- events ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Event:
    """Something that happened: ``kind`` for machines, ``text`` for people."""
    kind: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}     # action type -> its fields' names, in order


def to_wire(obj: Action | Event) -> dict:
    if isinstance(obj, Event):
        return {"t": "event", "kind": obj.kind, "text": obj.text, "data": obj.data}
    names = _FIELD_NAMES.get(type(obj))
    if names is None:
        names = _FIELD_NAMES[type(obj)] = tuple(f.name for f in fields(obj))
    d: dict[str, Any] = {"t": obj.TYPE}
    for name in names:
        v = getattr(obj, name)
        d[name] = list(v) if isinstance(v, tuple) else v.data if isinstance(v, Plain) else v
    return d


def action_from_wire(d: dict) -> Action:
    """Build an action from its wire map; raises :class:`IllegalAction` on a malformed one."""
    if not isinstance(d, dict):
        raise IllegalAction("protocol", "an action must be a map", "bad_action")
    t = d.get("t")
    cls = _REGISTRY.get(t) if isinstance(t, str) else None
    if cls is None:
        raise IllegalAction("protocol", f"unknown action type {t!r}", "bad_action")
    kwargs = {}
    for f in fields(cls):
        if f.name not in d:
            if f.name == "seat":
                raise IllegalAction("protocol", "action has no seat", "bad_action")
            continue
        v = d[f.name]
        default = f.default
        if isinstance(default, tuple):
            if not isinstance(v, (list, tuple)):
                raise IllegalAction("protocol", f"{t}.{f.name} must be a list", "bad_action")
            v = tuple(v)
        elif isinstance(default, Plain):
            v = Plain(v)
        elif isinstance(default, bool):
            if not isinstance(v, bool):
                raise IllegalAction("protocol", f"{t}.{f.name} must be true or false", "bad_action")
        elif isinstance(default, int):
            if isinstance(v, bool) or not isinstance(v, int):
                raise IllegalAction("protocol", f"{t}.{f.name} must be an integer", "bad_action")
        elif not isinstance(v, str):
            raise IllegalAction("protocol", f"{t}.{f.name} must be a string", "bad_action")
        kwargs[f.name] = v
    extra = set(d) - {f.name for f in fields(cls)} - {"t"}
    if extra:
        raise IllegalAction("protocol", f"{t} has unknown fields {sorted(extra)}", "bad_action")
    return cls(**kwargs)


def action_types() -> dict[str, type[Action]]:
    return dict(_REGISTRY)


# -- the wire actions described (docs/protocol.md, Appendix A) -------------------------------------
_WIRE_TYPES = {int: "integer", str: "string", bool: "boolean"}
_CITATION = re.compile(r"004 ((?:\[\d+\.\d+\](?:,? ?(?=\[))?)+)")


def _wire_type(hint: Any) -> str:
    if hint is Plain:
        return Plain.WIRE
    if get_origin(hint) is tuple:
        return f"list of {_WIRE_TYPES[get_args(hint)[0]]}s"
    return _WIRE_TYPES[hint]


def rule_cases(text: str) -> list[str]:
    """The rule cases ``text`` cites (``004 [5.13], [13.14]`` -> both), in order, each once."""
    out: list[str] = []
    for chain in _CITATION.findall(text or ""):
        for case in re.findall(r"\[(\d+\.\d+)\]", chain):
            if f"004 [{case}]" not in out:
                out.append(f"004 [{case}]")
    return out


def describe_actions(types: list[type[Action]] | None = None) -> list[dict[str, Any]]:
    """Every action type of ``types`` (default: those of this module, the multi-player game's;
    a game mode's own actions, e.g. the SPI solitaire's, are registered by their modules) as a
    client must send it, in the order they are defined: ``type`` (the wire ``t``), ``doc`` (its
    docstring), ``rules`` (the rule cases it cites, the case it implements first), ``fields``
    (``name``, wire ``type``, ``default`` - ``seat`` has none - and ``meaning``), ``listed``
    (which legal actions of the type ``legal_actions`` lists: ``"all"``, or what it lists of a
    parametric one) and an ``example`` in wire form (:func:`to_wire` of the type's ``EXAMPLE``
    values, so every field appears)."""
    if types is None:
        types = [cls for cls in _REGISTRY.values() if cls.__module__ == __name__]
    out = []
    for cls in types:
        t = cls.TYPE
        hints = get_type_hints(cls)
        doc = " ".join((cls.__dict__.get("__doc__") or "").split())
        fs = [{"name": "seat", "type": "string", "default": None, "meaning": "the seat (player letter) taking the action"}]
        for f in fields(cls):
            if f.name != "seat":
                default = list(f.default) if isinstance(f.default, tuple) else f.default
                fs.append({"name": f.name, "type": _wire_type(hints[f.name]), "default": default,
                           "meaning": cls.FIELDS.get(f.name, "")})
        example = to_wire(action_from_wire({"t": t, "seat": "A", **cls.EXAMPLE}))
        out.append({"type": t, "doc": doc, "rules": rule_cases(doc), "fields": fs,
                    "listed": cls.LISTED or "all", "example": example})
    return out
