"""Computer players.  Every agent plays through :class:`rcw.player.Player` (its seat's view,
legal actions and the engine's rule queries), exactly what a remote player gets, and is driven
by the one match loop, :class:`rcw.bots.match.Match`."""

from __future__ import annotations

from rcw.bots.random_agent import RandomAgent
from rcw.bots.sdt import SDTAgent

AGENTS = {"random": RandomAgent, "sdt": SDTAgent}


def make_agent(kind: str, seat: str, seed: int = 0, table=None, mode: str | None = None):
    """Build a seeded agent of a registered kind for ``seat``.  ``table``: the game's Player
    Cooperation Table (:class:`rcw.bots.cooperation.CooperationTable`) for an agent that reads
    one (the SDT bots); the match loop hands its game's table to the agents it drives anyway
    (:meth:`rcw.bots.match.Match.share`).  ``mode`` ``"postal"``: the agent of that kind that
    writes order sheets (:mod:`rcw.bots.postal`, 004 [17.0])."""
    registry = AGENTS
    if mode == "postal":
        from rcw.bots.postal import POSTAL_AGENTS as registry
    try:
        cls = registry[kind]
    except KeyError:
        raise ValueError(f"unknown agent kind {kind!r} (known: {', '.join(sorted(AGENTS))})") from None
    agent = cls(seat, seed)
    if table is not None and hasattr(agent, "use_table"):
        agent.use_table(table)
    return agent


def committee_refusal(kind: str, view: dict, convener: str) -> str | None:
    """Why a bot of ``kind`` declines, whatever it rolls, a Central Committee ``convener``
    proposes now (its agent's ``committee_refusal``; the SDT bots:
    :func:`rcw.bots.negotiation.committee_refusal`), or None (it considers one now, or its kind
    says nothing of it: a random bot consents at random)."""
    policy = getattr(AGENTS.get(kind), "committee_refusal", None)
    return policy(view, convener) if policy is not None else None
