"""Every player decision as a small frozen dataclass, and the events the engine reports.

Actions and events round-trip through msgpack as maps ``{"t": "<type>", ...fields}``
(:func:`to_wire`, :func:`action_from_wire`).  Every action names the seat (player letter)
that takes it; acting for another seat is refused.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, ClassVar


class IllegalAction(Exception):
    """An action the rules do not allow now.  ``rule`` names the rule case broken
    (e.g. ``004 [5.27]``); the game is unchanged."""

    def __init__(self, rule: str, message: str, code: str = "illegal_action") -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message
        self.code = code


@dataclass(frozen=True)
class Action:
    seat: str
    TYPE: ClassVar[str] = ""


_REGISTRY: dict[str, type[Action]] = {}


def _action(cls):
    cls = dataclass(frozen=True)(cls)
    cls.TYPE = cls.__name__
    _REGISTRY[cls.__name__] = cls
    return cls


# -- pre-game trading (004 [15.33]) and marker trades (004 [10.0], [11.0]) -------------
@_action
class OfferTrade(Action):
    to: str = ""
    give_leaders: tuple[int, ...] = ()
    give_politburo: int = 0
    give_assassins: int = 0
    take_leaders: tuple[int, ...] = ()
    take_politburo: int = 0
    take_assassins: int = 0


@_action
class AcceptTrade(Action):
    offer: int = 0


@_action
class DeclineTrade(Action):
    offer: int = 0


@_action
class WithdrawTrade(Action):
    offer: int = 0


@_action
class EndTrading(Action):
    """Agree that the pre-game trading session is over (004 [15.33])."""


# -- the Player-Turn ------------------------------------------------------------------
@_action
class RollRandomEvents(Action):
    """004 [12.0]: roll one die twice on the Random Events Table."""


@_action
class StartForce(Action):
    """Pick up a force: a leader (with what is attached to it) or a Blue/Green stack."""
    unit: int = 0


@_action
class JoinForce(Action):
    """Another leader of the same province joins the force before it moves (004 [5.26])."""
    leader: int = 0


@_action
class Attach(Action):
    """Attach a combat or Imperial unit in the force's province (004 [5.13], [13.14])."""
    unit: int = 0
    leader: int = 0


@_action
class Detach(Action):
    """Drop a unit (or a leader with its attached units) in the force's province."""
    unit: int = 0


@_action
class Move(Action):
    """Move the force one province, overland (1 MP) or by rail (004 [5.5])."""
    to: str = ""
    rail: bool = False


@_action
class EndForce(Action):
    pass


@_action
class Merge(Action):
    """Stack two of one's stacks in the same province together (004 [5.41], [7.0])."""
    stack: int = 0
    into: int = 0


@_action
class TransferImperial(Action):
    """004 [13.15]: move an Imperial unit between two of one's forces in one region."""
    unit: int = 0
    to_stack: int = 0
    leader: int = 0


@_action
class Emigrate(Action):
    """004 [13.3]: remove an Imperial unit from a port for Victory Points."""
    unit: int = 0


@_action
class CzechExit(Action):
    """004 [5.66]: a Czech unit leaves the map from Vladivostok."""
    unit: int = 0


@_action
class EndMovement(Action):
    pass


@_action
class DeclareAttack(Action):
    target: int = 0
    subversive: bool = False


@_action
class AddAttacker(Action):
    stack: int = 0


@_action
class RemoveAttacker(Action):
    stack: int = 0


@_action
class ResolveAttack(Action):
    pass


@_action
class CancelAttack(Action):
    pass


@_action
class ChooseLoss(Action):
    """004 [8.44]: the owner picks which unit to lose to an Exchange."""
    unit: int = 0


@_action
class CaptureImperial(Action):
    """004 [13.41]: attach an Imperial unit whose stack was wiped out."""
    unit: int = 0
    stack: int = 0
    leader: int = 0


@_action
class DeclineCapture(Action):
    pass


@_action
class EndCombat(Action):
    pass


@_action
class DrawRandomizer(Action):
    """004 [4.2] A.4: pick one chit from the Auxiliary Forces Randomizer."""


@_action
class EndPlayerTurn(Action):
    """End one's Player-Turn after the Randomizer draw.  Offered only when the drawer may
    still do something in his own Player-Turn (an assassination, 004 [10.0]); otherwise
    the draw ends the Player-Turn at once."""


@_action
class VoteEndGame(Action):
    """004 [14.1] case 3: agree (or not) to end the game in a Red Victory."""
    yes: bool = False


@_action
class Quit(Action):
    """004 [14.2]: leave the game."""


# -- politics (004 [10.0], [11.0], [13.5]) --------------------------------------------
@_action
class Assassinate(Action):
    victim: int = 0
    markers: int = 1


@_action
class JoinCommittee(Action):
    """Consent to a Central Committee of exactly these members (004 [11.11])."""
    members: tuple[str, ...] = ()


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


@_action
class PassPurge(Action):
    """When another member has declared an individual purge, declare none of one's own
    (004 [11.0] Procedure: individual purges are resolved together, in turn order)."""


@_action
class ApprovePurge(Action):
    """A Committee member's consent to a group purge as declared (004 [11.23])."""
    approve: bool = True


@_action
class TakeSpoil(Action):
    """Take a Red leader (``leader``) or a Politburo marker (``leader`` = 0) from a purge."""
    leader: int = 0


@_action
class EndSpoils(Action):
    pass


@_action
class Counterpurge(Action):
    """004 [11.24]: counterpurge one purger, or decline with ``target`` = ''."""
    target: str = ""


@_action
class OrderExecution(Action):
    """004 [13.5]: propose (or, when asked, consent to: ``consent``) an order to execute the Czar."""
    consent: bool = True


@_action
class AnswerExecution(Action):
    """004 [13.54]: the Czar's holder complies or refuses."""
    comply: bool = False


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
        d[name] = list(v) if isinstance(v, tuple) else v
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
