"""Taking a game up again from its action log: every process that rebuilds a game (the replica,
a past view, the events of past actions) applies the logged actions through :func:`replay`.

A logged action was judged when it was played: the log is the server's own record, never a
player's input.  A rule fixed since (``rcw.RULES_EDITION``, kept in each game's meta as
``rules``) may refuse it now; the game would then never load again, and its players would lose
it.  So a step of a game begun under an earlier edition that the rules refuse now is applied as
recorded (:meth:`rcw.game.Game.apply_recorded`: what that edition allowed happened), and the
server says so in its log.  This is a best effort: the fix may have led the game elsewhere, so
the game must still answer afterwards (its view, its seats' legal actions), or it is damaged.

``damaged_game`` (the game cannot be opened, the server's log names the step): a step refused
under the game's own edition, or one applied as recorded after which the game no longer
answers, or any step of a game begun under an edition newer than this server's (a process not
yet upgraded, beside upgraded ones on one Redis: it leaves such games to them).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from rcw.server.protocol import ProtocolError

from rcw import RULES_EDITION, modes
from rcw.actions import Event, IllegalAction
from rcw.game import Game

log = logging.getLogger("rcw.server")


def rebuild(meta: dict, snap: tuple[int, bytes] | None, entries: list[dict],
            gid: str = "") -> tuple[Game, list[list[Event]]]:
    """The game from the snapshot ``snap`` (its ``seq`` and ``Game.to_bytes()``; None: the game as
    it starts, from ``meta``'s players, seed and options) plus the logged ``entries`` after it, and
    the events of each (:func:`replay`)."""
    g = modes.from_bytes(snap[1]) if snap else modes.new_game(meta["players"], meta["seed"], meta["options"])
    return g, replay(g, entries, meta, gid, snap[0] if snap else 0)


def record_of(gid: str, meta: dict, g: Game, state_hash: str | None = None) -> dict:
    """The game's record as ``/api/games/{id}/record`` and ``rcw archive`` give it: the engine's
    (seed, players, options, actions), the game's id, its final state hash, the edition of the
    rules it was begun under (``meta``'s; 1: before editions were kept) and, for
    :func:`rcw.verify.check`, the seed's nonce and commitment (games created before
    commitments have none).  ``state_hash``: ``g.state_hash()`` if the caller keeps it already."""
    rec = g.record()
    rec["game"] = gid
    rec["hash"] = state_hash or g.state_hash()
    rec["rules"] = meta.get("rules", 1)
    if "nonce" in meta:
        rec["nonce"], rec["commitment"] = meta["nonce"], meta["commitment"]
    return rec


def replay(g: Game, entries: Iterable[dict], meta: dict, gid: str = "", base: int = 0) -> list[list[Event]]:
    """Apply logged ``entries`` (after ``base`` actions) to ``g``; the events of each."""
    played = meta.get("rules", 1)           # (1: a game begun before editions were kept)
    out = []
    for i, e in enumerate(entries, base + 1):
        try:
            out.append(g.apply(e["a"]))
            continue
        except IllegalAction as err:
            refused = err
        if played >= RULES_EDITION:
            why = "under the rules' edition it was played under" if played == RULES_EDITION else \
                f"and the game was begun under the rules' edition {played}, newer than this server's"
            log.error("game %s: logged action %d is refused (%s) %s (%s): the log is damaged", gid, i, refused,
                      why, RULES_EDITION)
            raise _damaged(gid, i, refused)
        try:
            events = g.apply_recorded(e["a"])
            g.view(None)                     # (the game still answers: else the fix led it elsewhere)
            for p in g.pending:
                g.legal_actions(p["seat"])
        except Exception as no:              # (not a step of this game, or one that leaves it broken)
            log.error("game %s: logged action %d, refused under the rules' edition %s (%s), cannot be applied as "
                      "recorded either (%r): the log is damaged", gid, i, RULES_EDITION, refused, no)
            raise _damaged(gid, i, refused) from no
        log.warning("game %s: logged action %d, played under the rules' edition %s, is refused under edition %s "
                    "(%s); applied as recorded", gid, i, played, RULES_EDITION, refused)
        out.append(events)
    return out


def _damaged(gid: str, i: int, err: IllegalAction) -> ProtocolError:
    return ProtocolError("damaged_game", f"game {gid}: logged action {i} does not replay ({err.message}, {err.rule})",
                         rule=err.rule)
