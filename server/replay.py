"""Taking a game up again from its action log: every process that rebuilds a game (the replica,
a past view, the events of past actions) applies the logged actions through :func:`replay`.

A logged action was judged when it was played.  A rule fixed since (``rcw.RULES_EDITION``, kept
in each game's meta as ``rules``) may refuse it now; the game would then never load again, and
its players lose it.  So a step of a game begun under an earlier edition that the rules refuse
now is applied as recorded (:meth:`rcw.game.Game.apply_recorded`: what that edition allowed
happened), and the server says so in its log.  In a game of this edition a refusal means the
log is damaged: ``damaged_game``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from rcw.server.protocol import ProtocolError

from rcw import RULES_EDITION
from rcw.actions import Event, IllegalAction
from rcw.game import Game

log = logging.getLogger("rcw.server")


def replay(g: Game, entries: Iterable[dict], meta: dict, gid: str = "", base: int = 0) -> list[list[Event]]:
    """Apply logged ``entries`` (after ``base`` actions) to ``g``; the events of each."""
    played = meta.get("rules", 1)           # (1: a game begun before editions were kept)
    out = []
    for i, e in enumerate(entries, base + 1):
        try:
            out.append(g.apply(e["a"]))
        except IllegalAction as err:
            if played == RULES_EDITION:
                log.error("game %s: logged action %d is refused (%s) under the rules' edition it was played "
                          "under (%s): the log is damaged", gid, i, err, played)
                raise ProtocolError("damaged_game", f"game {gid}: logged action {i} does not replay ({err.message}, "
                                    f"{err.rule})", rule=err.rule) from err
            log.warning("game %s: logged action %d, played under the rules' edition %s, is refused under "
                        "edition %s (%s); applied as recorded", gid, i, played, RULES_EDITION, err)
            try:
                out.append(g.apply_recorded(e["a"]))
            except IllegalAction as no:        # (not a step of this game at all: its seat, the game over)
                raise ProtocolError("damaged_game", f"game {gid}: logged action {i} does not replay ({no.message}, "
                                    f"{no.rule})", rule=no.rule) from no
    return out
