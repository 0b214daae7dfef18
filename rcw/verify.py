"""Dice anyone can verify: a commitment to a game's secret seed, and the check of a finished
game's record against it.

A game's dice come from its seed (:mod:`rcw.rng`), so whoever knows the seed knows every roll to
come.  A host therefore keeps the seed secret while the game is played and publishes, when the
game is created, only a *commitment*: the SHA-256 of the seed and a random *nonce*
(:func:`commitment`).  The nonce keeps a small seed (a creator may choose ``3``) from being found
by trying seeds.  When the game ends the host reveals the seed and the nonce in the game's record
(seed, players, options, actions, the final state hash); :func:`check` then shows that

1. the revealed seed and nonce give the commitment published at the start (the dice were fixed
   before the first move, not picked afterwards), and
2. replaying the action log from that seed is legal action by action and ends in the recorded
   final state (:meth:`rcw.game.Game.state_hash`).

The record's ``rules`` names the edition of the rules the game was played under
(``rcw.RULES_EDITION``): under another edition a replay may differ, and the check says so rather
than calling the record changed.

``rcw verify RECORD`` runs it; the server's ``/api/games/{id}/verify`` and the page's *Verify*
button use the same function.  (A creator who chooses the seed knows it; a seed the server draws
is known to no player.)
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from rcw import RULES_EDITION, modes
from rcw.actions import IllegalAction, action_from_wire

#: What is hashed: a fixed prefix (so the hash means nothing else), the seed in decimal, the nonce.
PREFIX = "rcw-seed-v1"


def commitment(seed: int, nonce: str) -> str:
    """The SHA-256 (hex) of ``rcw-seed-v1:<seed>:<nonce>``, published before the game starts."""
    return hashlib.sha256(f"{PREFIX}:{int(seed)}:{nonce}".encode()).hexdigest()


class VerifyError(Exception):
    """The record does not verify; the message says where and why."""


@dataclass(frozen=True)
class Verdict:
    """What a successful :func:`check` established."""
    actions: int          # actions replayed
    hash: str             # the final state hash both the record and the replay end in
    over: bool            # whether the replayed game is over
    result: dict | None   # the replayed game's result (004 [14.0]), when over

    def text(self) -> str:
        end = "the game is over" if self.over else "the game is not over"
        return (f"verified: the seed matches the commitment; {self.actions} actions replayed legally; "
                f"final state {self.hash[:16]}… matches the record; {end}")


_FIELDS = ("seed", "nonce", "commitment", "actions", "hash")


def check(record: dict, commitment_seen: str | None = None) -> Verdict:
    """Check a game's record (:func:`commitment` and the replay, see the module); raise
    :class:`VerifyError` naming the first thing that is wrong.  ``commitment_seen``: the
    commitment as the checker saw it published at the start (when it differs from the record's
    own, the record was not the game that was announced)."""
    if not isinstance(record, dict):
        raise VerifyError("the record must be a JSON object")
    if isinstance(record.get("record"), dict) and "nonce" not in record:
        raise VerifyError("this is a save file of rcw solo (resume it with rcw solo --load), not a server's "
                          "record: rcw verify checks the dice of a game the server played")
    missing = [k for k in _FIELDS if k not in record]
    if missing:
        raise VerifyError(f"the record lacks {', '.join(missing)} (a record of a finished game from "
                          f"/api/games/<id>/record has them)")
    if record.get("sealed"):
        raise VerifyError("the record's seed is sealed until the game is over (the server's own check, "
                          "/api/games/<id>/verify, runs on it meanwhile)")
    seed, nonce, promised = record["seed"], record["nonce"], record["commitment"]
    if isinstance(seed, bool) or not isinstance(seed, int) or not isinstance(nonce, str) or not isinstance(promised, str):
        raise VerifyError("seed must be an integer, nonce and commitment strings")
    if commitment_seen is not None and commitment_seen.lower() != promised.lower():
        raise VerifyError(f"the record's commitment {promised[:16]}… is not the one published at the start "
                          f"({commitment_seen[:16]}…)")
    if commitment(seed, nonce) != promised.lower():
        raise VerifyError(f"the seed and nonce do not give the commitment: SHA-256 is {commitment(seed, nonce)[:16]}…, "
                          f"the commitment {promised[:16]}… (the seed or the nonce was changed)")
    actions = record["actions"]
    if not isinstance(actions, list):
        raise VerifyError("actions must be a list")
    try:
        g = modes.new_game(record.get("players"), seed, record.get("options") or {})
    except IllegalAction as e:
        raise VerifyError(f"the game cannot be set up: {e.message}") from None
    played = _edition(record)
    # (a game played under other rules may replay otherwise: said so, not called a forgery)
    other = (f"; but the game was played under the rules' edition {played} and this is edition {RULES_EDITION}: "
             "a rule fixed since changes its replay (docs/rules-coverage.md), so this proves nothing either way"
             if played != RULES_EDITION else "")
    for i, wire in enumerate(actions):
        try:
            g.apply(action_from_wire(wire))
        except IllegalAction as e:
            raise VerifyError(f"action {i + 1} of {len(actions)} ({_brief(wire)}) is illegal in the replay: "
                              f"{e.message} ({e.rule}){other}") from None
    got = g.state_hash()
    if got != str(record["hash"]).lower():
        raise VerifyError(f"the replay ends in state {got[:16]}…, the record says {str(record['hash'])[:16]}… "
                          + (other[2:] if other else "(the log or the final state was changed)"))
    return Verdict(len(actions), got, g.over, g.result if g.over else None)


def _edition(record: dict) -> int:
    """The rules' edition a record says its game was played under (1: a record from before
    editions were kept)."""
    r = record.get("rules", 1)
    return r if isinstance(r, int) and not isinstance(r, bool) else 1


def _brief(wire: object) -> str:
    if isinstance(wire, dict):
        return " ".join(f"{k}={v}" for k, v in wire.items())[:80]
    return repr(wire)[:80]
